//! Blocking (step (2) of the sheet): "Before the hit connects, opponent can block the attack by
//! rolling enough 6s on his DEFENSE roll (ARMOR + SHIELD + PARRY/DODGE)", and which of those
//! dice he rolls by "the first rule that applies": stunned, berserk last turn, defensively,
//! threw the weapon, whiffed ("You lose Parry/DODGE"), or none of the above. How many 6s a
//! column needs is the attack table's (`attack_table.rs`); the roll is in `attack.rs`.

use super::Fighter;
use super::schema::Stance;

/// What a fighter did on its last turn and whether it is stunned: what the defence rules test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Stunned by the last attack against it (until the next attack against it is resolved).
    pub stunned: bool,
    /// The stance of its last attack (`Normal` when it did not attack).
    pub stance: Stance,
    /// Threw its weapon on its last turn.
    pub threw: bool,
    /// Whiffed on its last turn.
    pub whiffed: bool,
    /// Defended against an attack since its last turn, with or without its PARRY/DODGE dice
    /// (counted only with `rules.parry_against = "first"`, in a fight of sides of several).
    pub parried: bool,
}

/// One rule of the defence list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefenceRule {
    /// "If stunned, only roll ARMOR dice."
    Stunned,
    /// "If you attacked 'berserk' last turn, only roll ARMOR dice to defend."
    Berserk,
    /// "If you attacked 'defensively' last turn, roll ARMOR + SHIELD + PARRY/DODGE."
    Defensive,
    /// "If you threw your weapon last turn, roll ARMOR + SHIELD + PARRY/DODGE."
    Threw,
    /// "If you 'Whiffed' your attack last turn, You lose Parry/DODGE. Roll ARMOR+SHIELD."
    Whiffed,
    /// Our reading for sides of several (`rules.parry_against = "first"`): an attack already
    /// defended since its last turn: ARMOR + SHIELD.
    Parried,
    /// "None of the above (normal defense roll): Roll ARMOR + SHIELD + PARRY/DODGE."
    Normal,
}

impl DefenceRule {
    /// Whether the rule applies to a fighter standing so.
    #[inline]
    pub fn applies(self, s: &Standing) -> bool {
        match self {
            DefenceRule::Stunned => s.stunned,
            DefenceRule::Berserk => s.stance == Stance::Berserk,
            DefenceRule::Defensive => s.stance == Stance::Defensive,
            DefenceRule::Threw => s.threw,
            DefenceRule::Whiffed => s.whiffed,
            DefenceRule::Parried => s.parried,
            DefenceRule::Normal => true,
        }
    }
}

/// Which of the defender's dice a rule lets it roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DefenceDice {
    /// ARMOR dice.
    pub armor: bool,
    /// SHIELD dice.
    pub shield: bool,
    /// PARRY/DODGE dice.
    pub parry: bool,
}

const ARMOR_ONLY: DefenceDice = DefenceDice {
    armor: true,
    shield: false,
    parry: false,
};
const ARMOR_SHIELD: DefenceDice = DefenceDice {
    armor: true,
    shield: true,
    parry: false,
};
const ALL_DICE: DefenceDice = DefenceDice {
    armor: true,
    shield: true,
    parry: true,
};

/// The defence rules in the text's order: the first that applies decides the dice.
pub const DEFENCE_RULES: [(DefenceRule, DefenceDice); 7] = [
    (DefenceRule::Stunned, ARMOR_ONLY),
    (DefenceRule::Berserk, ARMOR_ONLY),
    (DefenceRule::Defensive, ALL_DICE),
    (DefenceRule::Threw, ALL_DICE),
    (DefenceRule::Whiffed, ARMOR_SHIELD),
    (DefenceRule::Parried, ARMOR_SHIELD),
    (DefenceRule::Normal, ALL_DICE),
];

/// The first defence rule that applies to a fighter standing so, with the dice it allows.
#[inline]
pub fn defence_rule(s: &Standing) -> (DefenceRule, DefenceDice) {
    DEFENCE_RULES
        .iter()
        .find(|(rule, _)| rule.applies(s))
        .copied()
        .unwrap_or((DefenceRule::Normal, ALL_DICE))
}

impl Fighter {
    /// The defence dice a rule allows this fighter.
    #[inline]
    pub fn defence_dice(&self, allowed: DefenceDice) -> u32 {
        u32::from(allowed.armor) * self.armor
            + u32::from(allowed.shield) * self.shield
            + u32::from(allowed.parry) * self.parry
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::d6_pool::test_support::{attack_by, compiled, fighter, model, start};
    use crate::rules::d6_pool::{WHIFF, Weapon};
    use crate::stats::Side;

    #[test]
    fn the_defence_rules_apply_in_order_the_first_that_applies() {
        let f = Fighter {
            armor: 2,
            shield: 3,
            parry: 4,
            ..fighter()
        };
        let s = |stunned, stance, threw, whiffed| Standing {
            stunned,
            stance,
            threw,
            whiffed,
            parried: false,
        };
        use DefenceRule::*;
        use Stance::{Berserk as B, Defensive as D, Normal as N};
        for (standing, rule, dice) in [
            // Stunned comes first, whatever else holds.
            (s(true, D, true, true), Stunned, 2),
            (s(true, N, false, false), Stunned, 2),
            // Berserk before the rest.
            (s(false, B, true, true), Berserk, 2),
            // Defensively: full defence, even after a whiff.
            (s(false, D, false, true), Defensive, 9),
            // A throw: full defence, even after a whiff.
            (s(false, N, true, true), Threw, 9),
            // A whiff alone: PARRY/DODGE lost.
            (s(false, N, false, true), Whiffed, 5),
            (s(false, N, false, false), Normal, 9),
            // Our rule for sides of several, after the text's five and before the last.
            (
                Standing {
                    parried: true,
                    ..s(false, N, false, false)
                },
                Parried,
                5,
            ),
            (
                Standing {
                    parried: true,
                    ..s(false, D, false, false)
                },
                Defensive,
                9,
            ),
        ] {
            let (found, allowed) = defence_rule(&standing);
            assert_eq!(found, rule, "{standing:?}");
            assert_eq!(f.defence_dice(allowed), dice, "{standing:?}");
        }
        assert_eq!(
            DEFENCE_RULES.map(|(r, _)| r),
            [Stunned, Berserk, Defensive, Threw, Whiffed, Parried, Normal]
        );
    }

    #[test]
    fn a_whiff_loses_parry_dice_when_the_opponent_attacks_back() {
        let m = model(fighter(), fighter());
        let mut states = start(&m);
        let whiff = attack_by(&m, Side::A, &mut states, &[1, 2, 3]);
        assert_eq!((whiff.column, whiff.defence_dice), (WHIFF, 0));
        // b attacks back: a rolls ARMOR + SHIELD, 2 dice, not 3.
        let back = attack_by(&m, Side::B, &mut states, &[4, 1, 1, 1, 1]);
        assert_eq!(back.defence_dice, 2);
        // a's next attack hits, so b's attack after it meets the full 3 dice.
        attack_by(&m, Side::A, &mut states, &[4, 1, 1, 1, 1, 1]);
        let again = attack_by(&m, Side::B, &mut states, &[4, 1, 1, 1, 1, 1]);
        assert_eq!(again.defence_dice, 3);
    }

    #[test]
    fn a_stun_takes_shield_and_parry_from_the_next_defence_only() {
        let m = model(fighter(), fighter());
        let mut states = start(&m);
        // a: double 5, b's three dice show no 6: 2 damage and a stun.
        let hit = attack_by(&m, Side::A, &mut states, &[5, 5, 1, 1, 1, 1]);
        assert!(hit.stunned && states[1].standing.stunned);
        // b attacks while stunned (it still may): a whiff.
        attack_by(&m, Side::B, &mut states, &[1, 1, 1]);
        // a attacks: b defends stunned: ARMOR only (the first rule, before the whiff).
        let next = attack_by(&m, Side::A, &mut states, &[4, 1, 1, 1]);
        assert_eq!(next.defence_dice, 1);
        assert!(
            !states[1].standing.stunned,
            "the stun ends with that attack"
        );
        // b attacks normally; a's following attack meets all three dice.
        attack_by(&m, Side::B, &mut states, &[4, 1, 1, 1, 1, 1]);
        let after = attack_by(&m, Side::A, &mut states, &[4, 1, 1, 1, 1, 1]);
        assert_eq!(after.defence_dice, 3);
    }

    #[test]
    fn a_berserk_thrower_defends_with_armor_only_the_berserk_rule_comes_before_the_throw() {
        // L25: "Use the first rule that applies:" L27: "If you attacked 'berserk' last turn,
        // only roll ARMOR dice to defend." comes before L29: "If you threw your weapon last
        // turn, roll ARMOR + SHIELD + PARRY/DODGE."
        let thrower = Fighter {
            missile: Some(Weapon {
                dice: 2,
                class_dice: 0,
                crit_bonus: 0,
                thrown: true,
                throw_bonus: 1,
            }),
            ammo: 1,
            stance: Stance::Berserk,
            ..fighter()
        };
        let m = model(thrower, fighter());
        let mut states = start(&m);
        // 2 + 1 + 1 = 4 dice, a whiff.
        let throw = attack_by(&m, Side::A, &mut states, &[1, 1, 1, 1]);
        assert_eq!((throw.dice, throw.missile, throw.column), (4, true, WHIFF));
        // b attacks back with one 4: a rolls its ARMOR die only (1 of its 3 dice).
        let back = attack_by(&m, Side::B, &mut states, &[4, 1, 1, 1]);
        assert_eq!(back.defence_dice, 1);
    }

    #[test]
    fn defence_dice_are_the_armours_armor_and_shield_plus_the_fighters_parry() {
        // L22: "(2) Before the hit connects, opponent can block the attack by rolling enough
        // 6s on his DEFENSE roll (ARMOR + SHIELD + PARRY/DODGE)"
        let text = r#"
name = "t"
ruleset = "d6-pool"
[a]
attack = 2
weapon_skill = 2
parry = 3
weapon = "w"
armour = "mail"
[b]
attack = 2
weapon_skill = 2
weapon = "w"
[weapons.w]
[armour.mail]
armor = 2
shield = 1
"#;
        let m = compiled(text);
        let a = m.fighters[0];
        assert_eq!((a.armor, a.shield, a.parry), (2, 1, 3));
        // b: (2 + 2) / 2 = 2 dice, one 4: one 6 blocks. a rolls 2 + 1 + 3 = 6 dice, the last a 6.
        let mut states = start(&m);
        let attack = attack_by(&m, Side::B, &mut states, &[4, 1, 1, 1, 1, 1, 1, 6]);
        assert_eq!(attack.defence_dice, 6);
        assert!(attack.blocked);
        assert_eq!(states[0].health, a.health, "blocked: no damage");
    }
}
