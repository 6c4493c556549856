//! The wound levels (the text's "Wound Levels" list, and the last sentence of "Damage"): a
//! damage total is its wound level (1 Negligible to 7 Mortal, capped at 7), each level takes its
//! penalty from rolls (`rules.wound_penalties`: "2) Light: -1 to all rolls" ... "5) Critical: -3
//! to all rolls"), and a new wound is added to the existing damage ("If you are already injured
//! and are wounded again, the damage is added to your existing damage", with
//! `rules.repeat_wound_reduction`). What a level stops a fighter doing is where it acts: pace
//! and moving in `movement.rs`, no actions at Terminal in `actions.rs` and `attack.rs`, death at
//! Mortal at the end of the turn in `mod.rs`, the Critical and Terminal checks in `healing.rs`.

use super::WoundLevels;

impl WoundLevels {
    /// The wound level of a damage total (1–7; 0 unhurt).
    #[inline]
    pub fn level(damage: u32) -> u32 {
        damage.min(7)
    }

    pub(super) fn penalty_of(&self, damage: u32) -> i32 {
        self.penalty[Self::level(damage) as usize]
    }

    /// Adds a wound's damage to a fighter: plainly when unhurt; when already wounded, less the
    /// repeat reduction but at least one level ("the damage is added": a wound never vanishes).
    pub fn add_wound(&self, existing: u32, damage: u32) -> u32 {
        if existing == 0 || damage == 0 {
            existing + damage
        } else {
            existing
                + damage
                    .saturating_sub(self.rules.repeat_wound_reduction.u32())
                    .max(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::wound_levels::test_support::{
        bob_and_adam, fighter, ledger_model, ledger_model_with, ledger_plan, ledger_strike, script,
    };
    use crate::rules::wound_levels::{Fighter, Healing, Rules, WeaponKind};
    use crate::scenario::fields::Ranged;
    use crate::stats::Side;

    #[test]
    fn wound_levels_and_their_penalties() {
        let model = bob_and_adam(Healing::default());
        let penalties: Vec<i32> = (0..=8).map(|d| model.penalty_of(d)).collect();
        assert_eq!(penalties, vec![0, 0, 1, 1, 2, 3, 3, 3, 3]);
        assert_eq!(WoundLevels::level(12), 7);
        assert_eq!(model.add_wound(0, 4), 4, "a first wound adds in full");
        assert_eq!(model.add_wound(3, 3), 5, "the example: 3 + 3 -> 5");
        let plain = WoundLevels::new(
            model.fighters,
            model.names.clone(),
            Rules {
                repeat_wound_reduction: Ranged::new(0),
                ..Rules::default()
            },
            Healing::default(),
            20,
        );
        assert_eq!(plain.add_wound(3, 3), 6, "plain addition");
    }

    /// The penalty a fighter at `damage` takes on its attack roll, its dodge roll and a
    /// Physique check, read back from the numbers each produces (Melee and Physique 3, no
    /// damage bonus, no armour).
    fn ledger_penalties_at(damage: u32) -> [i32; 3] {
        let plain = Fighter {
            armour: 0,
            ..fighter(WeaponKind::Melee, 0)
        };
        let model = ledger_model(plain, plain, 1);
        // Attack: a (at `damage`) rolls 1: 1 + 3 - penalty, undefended: that many levels.
        let (dealt, _) = ledger_strike(
            &model,
            Side::A,
            [damage, 0],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[1],
        );
        let attack = 4 - dealt.map_or(0, |d| d as i32);
        // Dodge: b (unhurt) rolls 3: 6, against a's dodge 0 + 3 - penalty: a margin 3 + penalty.
        let (dealt, _) = ledger_strike(
            &model,
            Side::B,
            [damage, 0],
            [ledger_plan(0, 1), ledger_plan(1, 0)],
            &[3, 0],
        );
        let dodge = dealt.map_or(0, |d| d as i32) - 3;
        // Physique check: 0 + 3 - penalty.
        let mut dice = script(&[0]);
        let (_, total) = model.physique_check(0, damage, &mut dice, "t");
        assert!(dice.finish().is_ok());
        [attack, dodge, 3 - total]
    }

    #[test]
    fn a_new_wound_is_added_to_the_existing_damage() {
        // L19: "If you are already injured and are wounded again, the damage is added to your
        // existing damage." L57: "Bob previously had 3 levels of damage; he now has 5." (the
        // text's example does not add plainly: `rules.repeat_wound_reduction` reads it).
        let a = fighter(WeaponKind::Melee, 3);
        let b = fighter(WeaponKind::Melee, 3);
        // Roll -2 + 3 = 1, undefended: 1 + 3 - 1 armour = 3 levels on a fighter who has 3.
        let plain = ledger_model_with(
            a,
            b,
            Rules {
                repeat_wound_reduction: Ranged::new(0),
                ..Rules::default()
            },
            1,
        );
        let (dealt, states) = ledger_strike(
            &plain,
            Side::A,
            [0, 3],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[-2],
        );
        assert_eq!((dealt, states[1].damage), (Some(3), 6), "L19 alone: 3 + 3");
        let example = ledger_model(a, b, 1);
        let (dealt, states) = ledger_strike(
            &example,
            Side::A,
            [0, 3],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[-2],
        );
        assert_eq!(
            (dealt, states[1].damage),
            (Some(3), 5),
            "L57: 3 then 3 is 5"
        );
    }

    #[test]
    fn a_one_level_wound_on_an_injured_fighter_still_adds_a_level() {
        // L19: "If you are already injured and are wounded again, the damage is added to your
        // existing damage."
        // With `rules.repeat_wound_reduction` (1) a wound after the first adds its damage less 1
        // (the example's 3 + 3 -> 5, L57), but at least one level: a wound of 1 does not vanish.
        let a = fighter(WeaponKind::Unarmed, 0);
        let b = fighter(WeaponKind::Melee, 3); // 1 point of armour
        let model = ledger_model(a, b, 1);
        // Roll -1 + 3 = 2, undefended, no bonus, 1 armour: 1 level on a Light (2) fighter.
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 2],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[-1],
        );
        assert_eq!(dealt, Some(1));
        assert_eq!(states[1].damage, 3, "2 + 1: Moderate");
    }

    #[test]
    fn negligible_wounds_are_cosmetic_no_penalty() {
        // L25: "1) Negligible: Cosmetic damage only."
        assert_eq!(
            ledger_penalties_at(1),
            [0, 0, 0],
            "attack, dodge, Physique check"
        );
    }

    #[test]
    fn light_wounds_take_1_from_all_rolls() {
        // L26: "2) Light: -1 to all rolls."
        assert_eq!(
            ledger_penalties_at(2),
            [1, 1, 1],
            "attack, dodge, Physique check"
        );
    }

    #[test]
    fn moderate_wounds_take_1_from_all_other_rolls() {
        // L27: "3) Moderate: -2 to move; -1 to all other rolls." (the move part: item 3)
        assert_eq!(
            ledger_penalties_at(3),
            [1, 1, 1],
            "attack, dodge, Physique check"
        );
    }

    #[test]
    fn serious_wounds_take_2_from_all_rolls() {
        // L28: "4) Serious: -2 to all rolls; cannot run." (cannot run: item 3)
        assert_eq!(
            ledger_penalties_at(4),
            [2, 2, 2],
            "attack, dodge, Physique check"
        );
    }

    #[test]
    fn critical_wounds_take_3_from_all_rolls() {
        // L29: "5) Critical: -3 to all rolls"; L49: "suffers -3 to all actions".
        assert_eq!(
            ledger_penalties_at(5),
            [3, 3, 3],
            "attack, dodge, Physique check"
        );
    }
}
