//! The attack, the dodge and the damage (the text's "Damage" section and the attacks of its
//! "Example of Combat"): the kinds of weapon, for their damage bonus; the fire modes ("a single
//! shot, a 3-round burst, or full auto") and the ammunition they spend; a thrown weapon; the
//! attack roll with the multiple-action and wound penalties; the dodge that answers it (the
//! margin is the base damage, a botched dodge "is ineffective", a Terminal defender cannot
//! dodge) or, undefended, the outcome as base damage; then "increased by the damage bonus",
//! "Armor is subtracted after damage is determined", and the wound added to the existing damage
//! (`WoundLevels::add_wound`, in `wounds.rs`).

use super::Purpose;
use super::actions::Plan;
use super::{State, WoundLevels};
use crate::dice::Dice;
use crate::dice::Stream;
use crate::log::Log;
use crate::rules::roster::Blow;
use crate::stats::Side;
use serde::{Deserialize, Serialize};

/// What kind of weapon, for its damage bonus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WeaponKind {
    /// No bonus.
    Unarmed,
    /// A weak or impractical melee weapon.
    Weak,
    /// A melee weapon.
    Melee,
    /// A ranged weapon.
    Ranged,
    /// A very large ranged weapon.
    Heavy,
}

impl WeaponKind {
    pub(super) fn is_ranged(self) -> bool {
        matches!(self, WeaponKind::Ranged | WeaponKind::Heavy)
    }
}

/// How an automatic weapon fires.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FireMode {
    /// One shot.
    #[default]
    Single,
    /// A 3-round burst.
    Burst,
    /// Full auto: the whole clip.
    Auto,
}

/// What the attacks of a turn read and change: every fighter's declarations, dodges left and
/// wounds and ammunition, by their places on the roster (a duel's two, or a whole fight's).
pub(super) struct Sheets<'a, const N: usize> {
    /// What each declared this turn (for the multiple-action penalties).
    pub declared: &'a [Plan; N],
    /// The dodges each has not yet used.
    pub dodges_left: &'a mut [u32; N],
    /// Each one's wounds and ammunition.
    pub states: &'a mut [State; N],
}

impl WoundLevels {
    /// One attack of side `attacker` on the other in a duel, in melee range when `engaged`:
    /// [`WoundLevels::attack_on`] of the two, for the exact tables and the tests.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn attack<D: Dice, L: Log>(
        &self,
        attacker: Side,
        declared: &[Plan; 2],
        dodges_left: &mut [u32; 2],
        states: &mut [State; 2],
        engaged: bool,
        dice: &mut D,
        log: &mut L,
    ) -> Option<u32> {
        let sheets = &mut Sheets {
            declared,
            dodges_left,
            states,
        };
        let key = Stream::new(Purpose::Attack, attacker.index(), 0);
        self.attack_on(Blow::in_duel(attacker), engaged, key, sheets, dice, log)
    }

    /// One attack of `blow.attacker` on `blow.defender`, in melee range when `engaged`, its
    /// dice drawn from the stream `key` (a dodge's from `key` with the purpose
    /// [`Purpose::Dodge`]); returns the damage dealt after armour, `None` on a miss.
    // Always in line: the duel and the fight of several both call it, and out of line (as the
    // bench's build put it) the dice's state went through memory at every attack.
    #[inline(always)]
    pub(super) fn attack_on<const N: usize, D: Dice, L: Log>(
        &self,
        blow: Blow,
        engaged: bool,
        key: Stream,
        sheets: &mut Sheets<N>,
        dice: &mut D,
        log: &mut L,
    ) -> Option<u32> {
        let Sheets {
            declared,
            ref mut dodges_left,
            ref mut states,
        } = *sheets;
        let (attacker, defender) = (blow.attacker, blow.defender);
        let plan = declared[attacker];
        let terms = self.attack_terms(attacker, (plan, engaged), &mut states[attacker]);
        let wound_penalty = self.penalty_of(states[attacker].damage);
        let roll = self.roll(dice, "dF (attack)");
        let outcome = roll.value + terms.skill + terms.modifier - wound_penalty;
        let misses = roll.botch && self.rules.botched_attack_misses;
        log.say(|| {
            let how = if plan.throw {
                "throws"
            } else if terms.ranged {
                "fires"
            } else {
                "attacks"
            };
            let Terms { skill, modifier, .. } = terms;
            format!(
                "{} {how}: roll {} + skill {skill} + {modifier} - wound {wound_penalty} = {outcome}{}",
                self.roster.fighter_names[attacker],
                roll.value,
                if misses { " (botch: a miss)" } else { "" }
            )
        });
        if misses {
            return None;
        }
        let dodging = (defender, declared[defender]);
        let base = self.dodge(dodging, outcome, key, (dodges_left, states), dice, log);
        if base <= 0 {
            log.say(|| "  miss".to_owned());
            return None;
        }
        let d = &self.members[defender];
        let damage = (base + terms.bonus - d.armour).max(0) as u32;
        let before = states[defender].damage;
        let after = self.add_wound(before, damage);
        states[defender].damage = after;
        log.say(|| {
            format!(
                "  hit: base {base} + bonus {} - armour {} = {damage}; {} has {after} (level {})",
                terms.bonus,
                d.armour,
                self.roster.fighter_names[defender],
                Self::level(after)
            )
        });
        Some(damage)
    }

    /// What the attack of the fighter at place `attacker` (its state `me`) rolls on, by its
    /// `plan` (`engaged`: in melee range): its skill, ranged or melee (unarmed once its weapon
    /// is thrown), the fire mode's or several actions' modifier, and its damage bonus; a shot
    /// spends its rounds and a throw the weapon.
    #[inline(always)]
    fn attack_terms(
        &self,
        attacker: usize,
        (plan, engaged): (Plan, bool),
        me: &mut State,
    ) -> Terms {
        let a = &self.members[attacker];
        let rules = &self.rules;
        let ranged = a.kind.is_ranged() && !plan.throw;
        let (skill, mut modifier, bonus) = if ranged {
            let mode = match a.fire_mode {
                FireMode::Single => 0,
                FireMode::Burst => rules.burst_bonus.i32(),
                FireMode::Auto if engaged => rules.auto_point_blank_bonus.i32(),
                FireMode::Auto => rules.auto_bonus.i32(),
            };
            (a.ranged, mode, a.damage_bonus)
        } else if me.thrown && !plan.throw {
            (a.melee, 0, a.unarmed_bonus)
        } else {
            (a.melee, 0, a.damage_bonus)
        };
        if plan.attacks > 1 || (rules.single_attack_takes_action_penalty && plan.actions() > 1) {
            modifier -= plan.actions() as i32;
        }
        if ranged {
            let used = match a.fire_mode {
                FireMode::Single => 1,
                FireMode::Burst => rules.burst_rounds.u32(),
                // "If he had a very large clip, he might be able to fire on full auto while
                // emptying only half the clip."
                FireMode::Auto if a.clip >= rules.large_clip_from.u32() => a.clip.div_ceil(2),
                FireMode::Auto => me.ammo,
            };
            me.ammo = me.ammo.saturating_sub(used);
        }
        if plan.throw {
            me.thrown = true;
        }
        Terms {
            ranged,
            skill,
            modifier,
            bonus,
        }
    }

    /// The defender's answer to an attack of `outcome`: a dodge while it has dodges left and
    /// can act (its roll on Physique less penalties, one per action declared past the first,
    /// from the stream `key` with [`Purpose::Dodge`]), the attack's margin over it; undodged,
    /// the outcome when it reaches `undodged_hit_from`. Returns the base damage (0: a miss).
    #[inline(always)]
    fn dodge<const N: usize, D: Dice, L: Log>(
        &self,
        (defender, plan): (usize, Plan),
        outcome: i32,
        key: Stream,
        (dodges_left, states): (&mut [u32; N], &[State; N]),
        dice: &mut D,
        log: &mut L,
    ) -> i32 {
        // A dodge is an action: a Terminal or Mortal defender ("Actions not possible") cannot.
        let can_dodge = Self::level(states[defender].damage) < 6;
        if dodges_left[defender] == 0 || !can_dodge {
            return if outcome >= self.rules.undefended_hit_from.i32() {
                outcome
            } else {
                0
            };
        }
        dodges_left[defender] -= 1;
        let actions = plan.actions();
        let multi = if actions > 1 { actions as i32 } else { 0 };
        dice.stream(key.with_purpose(Purpose::Dodge));
        let dr = self.roll(dice, "dF (dodge)");
        let d = &self.members[defender];
        let dodge = dr.value + d.physique - self.penalty_of(states[defender].damage) - multi;
        let name = &self.roster.fighter_names[defender];
        if dr.botch {
            log.say(|| format!("  {name} dodges: botch: ineffective"));
            return outcome;
        }
        log.say(|| {
            format!(
                "  {name} dodges: roll {} + Physique {} - penalties = {dodge}",
                dr.value, d.physique
            )
        });
        if outcome > dodge { outcome - dodge } else { 0 }
    }
}

/// What an attack rolls on: ranged or not, the skill, the modifier and the damage bonus.
#[derive(Clone, Copy, Debug)]
struct Terms {
    ranged: bool,
    skill: i32,
    modifier: i32,
    bonus: i32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::{NoLog, VecLog};
    use crate::rules::wound_levels::test_support::{
        bob_and_adam, fighter, ledger_model, ledger_plan, ledger_strike, script,
    };
    use crate::rules::wound_levels::{Fighter, Healing, Rules};

    #[test]
    fn multiple_attacks_take_a_penalty_equal_to_the_actions() {
        let mut a = fighter(WeaponKind::Melee, 3);
        a.attacks = 2;
        let b = fighter(WeaponKind::Melee, 3);
        let model = WoundLevels::new(
            [a, b],
            ["a".into(), "b".into()],
            Rules::default(),
            Healing::default(),
            1,
        );
        let declared = [
            Plan {
                attacks: 2,
                ..Plan::default()
            },
            Plan {
                attacks: 1,
                ..Plan::default()
            },
        ];
        let mut states = [State::default(); 2];
        let mut log = VecLog::default();
        // Roll 0: 0 + 3 - 2 = 1: undefended, a hit for 1 + 3 - 1 = 3.
        let dealt = model.attack(
            Side::A,
            &declared,
            &mut [0, 0],
            &mut states,
            true,
            &mut script(&[0]),
            &mut log,
        );
        assert_eq!(dealt, Some(3));
        assert!(
            log.lines[0].contains("roll 0 + skill 3 + -2 - wound 0 = 1"),
            "{:?}",
            log.lines
        );
        // Roll -2: 0 after the penalty: undefended outcome below 1 misses.
        let dealt = model.attack(
            Side::A,
            &declared,
            &mut [0, 0],
            &mut states,
            true,
            &mut script(&[-2]),
            &mut NoLog,
        );
        assert_eq!(dealt, None);
    }

    #[test]
    fn burst_and_full_auto_spend_ammunition_and_reload_takes_an_action() {
        let mut a = fighter(WeaponKind::Ranged, 3);
        a.automatic = true;
        a.clip = 10;
        a.fire_mode = FireMode::Burst;
        let b = fighter(WeaponKind::Melee, 3);
        let model = WoundLevels::new(
            [a, b],
            ["a".into(), "b".into()],
            Rules::default(),
            Healing::default(),
            1,
        );
        let declared = [
            Plan {
                attacks: 1,
                ..Plan::default()
            },
            Plan::default(),
        ];
        let mut states = [
            State {
                ammo: 10,
                ..State::default()
            },
            State::default(),
        ];
        let mut log = VecLog::default();
        model.attack(
            Side::A,
            &declared,
            &mut [0, 0],
            &mut states,
            false,
            &mut script(&[0]),
            &mut log,
        );
        assert_eq!(states[0].ammo, 7, "a burst is 3 rounds");
        assert!(
            log.lines[0].contains("+ 1 - wound"),
            "burst bonus: {:?}",
            log.lines
        );
        let mut auto = model.clone();
        auto.edit_fighter(0, |f| f.fire_mode = FireMode::Auto);
        auto.attack(
            Side::A,
            &declared,
            &mut [0, 0],
            &mut states,
            true,
            &mut script(&[0]),
            &mut NoLog,
        );
        assert_eq!(states[0].ammo, 0, "full auto empties the clip");
        let plan = auto.declare(
            0,
            1,
            &[
                State {
                    ammo: 0,
                    spare_clips: 1,
                    ..State::default()
                },
                State::default(),
            ],
            true,
        );
        assert!(plan.reload && plan.attacks == 0);
    }

    #[test]
    fn a_terminal_or_mortal_defender_cannot_dodge() {
        // "6) Terminal: Actions not possible." A dodge is an action: a Terminal defender with a
        // dodge declared takes the attack undefended. Adam attacks: roll 2 + 3 = 5, no dodge
        // die; 5 + 3 − 1 armour = 7 more.
        let model = bob_and_adam(Healing::default());
        let mut plans = [Plan::default(); 2];
        plans[0].dodges = 1;
        plans[1].attacks = 1;
        for damage in [6, 7] {
            let mut states = [State::default(); 2];
            states[0].damage = damage;
            let mut dodges_left = [1, 0];
            let mut dice = script(&[2]);
            let mut log = VecLog::default();
            let dealt = model.attack(
                Side::B,
                &plans,
                &mut dodges_left,
                &mut states,
                true,
                &mut dice,
                &mut log,
            );
            assert!(dice.finish().is_ok(), "no dodge die: {:?}", log.lines);
            assert_eq!(dealt, Some(7), "{:?}", log.lines);
            assert!(
                !log.lines.iter().any(|l| l.contains("dodges")),
                "{:?}",
                log.lines
            );
        }
        // At Critical (5) the dodge still answers: −1 against 5 − 3 (wound) ... a dodge die.
        let mut states = [State::default(); 2];
        states[0].damage = 5;
        let mut dodges_left = [1, 0];
        let mut dice = script(&[2, 0]);
        model.attack(
            Side::B,
            &plans,
            &mut dodges_left,
            &mut states,
            true,
            &mut dice,
            &mut NoLog,
        );
        assert!(dice.finish().is_ok() && dodges_left[0] == 0);
    }

    #[test]
    fn a_botched_attack_misses_by_the_named_choice() {
        // The text: a botched dodge "is ineffective"; of a botched attack it says nothing. By
        // default (`rules.botched_attack_misses`) it misses as well: a Legendary (+6) attacker's
        // botch (−4) would otherwise total 2, a hit on an undefended foe (2 + 3 − 1 = 4).
        let mut model = bob_and_adam(Healing::default());
        model.edit_fighter(1, |f| f.melee = 6);
        let mut plans = [Plan::default(); 2];
        plans[1].attacks = 1;
        let attack = |model: &WoundLevels| {
            let mut states = [State::default(); 2];
            let mut dice = script(&[-4]);
            model.attack(
                Side::B,
                &plans,
                &mut [0, 0],
                &mut states,
                true,
                &mut dice,
                &mut NoLog,
            )
        };
        assert_eq!(attack(&model), None);
        model.rules.botched_attack_misses = false;
        assert_eq!(attack(&model), Some(4));
    }

    #[test]
    fn a_hit_deals_its_final_outcome_plus_the_damage_bonus() {
        // L3: "If a hit is scored, the final outcome of the attack roll is the amount of base
        // damage dealt to the target. This amount is increased by the damage bonus."
        let b = Fighter {
            armour: 0,
            ..fighter(WeaponKind::Melee, 3)
        };
        let model = ledger_model(fighter(WeaponKind::Melee, 3), b, 1);
        // Undefended: roll 1 + Melee 3 = 4 base damage, + bonus 3 = 7 (no armour).
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[1],
        );
        assert_eq!(dealt, Some(7));
        assert_eq!(states[1].damage, 7);
        // Against a dodge the final outcome is the margin (L43: "Adam's outcome of 5 - Bob's
        // outcome of 4 = 1"): roll 2 + 3 = 5 against 0 + Physique 3 = 3: 2, + bonus 3 = 5.
        let (dealt, _) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(0, 1)],
            &[2, 0],
        );
        assert_eq!(dealt, Some(5));
    }

    #[test]
    fn armour_is_subtracted_after_damage_two_levels_against_one_point_is_one() {
        // L15: "Armor is subtracted after damage is determined. For example, if you take 2
        // levels of damage and are wearing 1 point of armor, you take 1 level of damage."
        let a = fighter(WeaponKind::Unarmed, 0);
        let b = fighter(WeaponKind::Melee, 3); // 1 point of armour
        let model = ledger_model(a, b, 1);
        // Roll -1 + 3 = 2, undefended: 2 levels, no bonus; 1 armour: 1 level.
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[-1],
        );
        assert_eq!(dealt, Some(1));
        assert_eq!(states[1].damage, 1);
        // Armour does not decide whether a hit is scored (L17): 5 points against 2 levels is
        // a hit for no levels.
        let model = ledger_model(a, Fighter { armour: 5, ..b }, 1);
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[-1],
        );
        assert_eq!(dealt, Some(0));
        assert_eq!(states[1].damage, 0);
    }

    #[test]
    fn damage_modifiers_do_not_affect_the_chance_of_scoring_a_hit() {
        // L17: "Note that damage modifiers do not affect the chance of scoring a hit, since
        // they are not applied unless a hit is scored."
        let a = fighter(WeaponKind::Melee, 10);
        let b = Fighter {
            armour: 0,
            ..fighter(WeaponKind::Melee, 3)
        };
        let model = ledger_model(a, b, 1);
        // Roll 0 + 3 = 3 against a dodge of 1 + 3 = 4: dodged, whatever the +10.
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(0, 1)],
            &[0, 1],
        );
        assert_eq!(dealt, None);
        assert_eq!(states[1].damage, 0);
        // Undefended with Melee 0: roll -2 is an outcome of -2: no base damage, no hit, +10 or not.
        let model = ledger_model(Fighter { melee: 0, ..a }, b, 1);
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[-2],
        );
        assert_eq!(dealt, None);
        assert_eq!(states[1].damage, 0);
    }

    #[test]
    fn multiple_attacks_take_a_penalty_equal_to_the_total_number_of_actions() {
        // L39: "He could attack multiple times with a penalty equal to his total number of
        // actions". L43: "he must apply a -2 penalty because he is taking two actions".
        let model = ledger_model(
            fighter(WeaponKind::Melee, 3),
            fighter(WeaponKind::Melee, 3),
            1,
        );
        let busy = Plan {
            attacks: 2,
            dodges: 1,
            ..Plan::default()
        };
        // Two attacks and a dodge are 3 actions: roll 1 + 3 - 3 = 1, undefended: 1 + 3 - 1 = 3
        // (with -2 it would be 4).
        let (dealt, _) = ledger_strike(&model, Side::A, [0, 0], [busy, ledger_plan(0, 0)], &[1]);
        assert_eq!(dealt, Some(3));
        // Its dodge takes -3 too: b rolls 0: 3; a dodges 2 + 3 - 3 = 2: margin 1: 1 + 3 - 1 = 3
        // (with -2 the dodge would be 3 and hold).
        let (dealt, _) = ledger_strike(&model, Side::B, [0, 0], [busy, ledger_plan(1, 0)], &[0, 2]);
        assert_eq!(dealt, Some(3));
    }

    #[test]
    fn a_dodge_above_the_outcome_avoids_the_hit_and_two_actions_take_2_from_it() {
        // L43: "He rolls a 2, and adds +3 ... for a total of 5. Bob rolls a 3 on his dodge, and
        // adds +3 ... giving him a 6. He would successfully dodge, but he must apply a -2
        // penalty because he is taking two actions, so his final result is 4. Adam hits, but
        // just barely (... 5 - ... 4 = 1)." L45: 1 + 3 - 1 armour = 3.
        let model = ledger_model(
            fighter(WeaponKind::Melee, 3),
            fighter(WeaponKind::Melee, 3),
            1,
        );
        // b's only action is the dodge: 6 against 5: dodged.
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(0, 1)],
            &[2, 3],
        );
        assert_eq!((dealt, states[1].damage), (None, 0));
        // b also attacks: two actions: 6 - 2 = 4: hit by 1: 3 levels.
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(1, 1)],
            &[2, 3],
        );
        assert_eq!((dealt, states[1].damage), (Some(3), 3));
    }

    #[test]
    fn a_thrown_away_weapon_leaves_its_thrower_unarmed() {
        // Assumptions, "Thrown weapons": "the thrower is unarmed after" (L61-L63 throw the
        // knife; the text does not say what the thrower fights with next).
        let mut a = fighter(WeaponKind::Melee, 3); // knife +3; unarmed +1
        a.throwable = true;
        let model = ledger_model(a, fighter(WeaponKind::Melee, 3), 1);
        let mut states = [
            State {
                thrown: true,
                ..State::default()
            },
            State::default(),
        ];
        let mut dice = script(&[1]);
        // Roll 1 + Melee 3 = 4, undefended; the unarmed bonus 1, not the knife's 3; armour 1.
        let dealt = model.attack(
            Side::A,
            &[ledger_plan(1, 0), ledger_plan(0, 0)],
            &mut [0, 0],
            &mut states,
            true,
            &mut dice,
            &mut NoLog,
        );
        assert!(dice.finish().is_ok());
        assert_eq!(dealt, Some(4));
    }

    #[test]
    fn full_auto_from_a_very_large_clip_empties_only_half_of_it() {
        // "If he had a very large clip, he might be able to fire on full auto while emptying only
        // half the clip." A 60-round clip (`rules.large_clip_from`) keeps 30 after a burst of
        // full auto; the example's 15-round clip empties.
        let mut model = bob_and_adam(Healing::default());
        let mut plans = [Plan::default(); 2];
        plans[0].attacks = 1;
        for (clip, left) in [(60, 30), (15, 0)] {
            model.edit_fighter(0, |f| f.clip = clip);
            let mut states = [State::default(); 2];
            states[0].ammo = clip;
            let mut dice = script(&[0]);
            model.attack(
                Side::A,
                &plans,
                &mut [0, 0],
                &mut states,
                true,
                &mut dice,
                &mut NoLog,
            );
            assert_eq!(states[0].ammo, left, "clip {clip}");
        }
    }
}
