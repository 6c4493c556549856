//! The "Attack Table" (step (1) of the sheet): the column a roll falls in by the highest number
//! rolled, single or doubled ("3 or less", "4 one 4", "4-4 double 4", ... "6-6-6+ three+6s", the
//! Critical Strike), and the table's rows compiled from `[rules]`: the damage "your strike will
//! do", "Will a successful hit Stun?", and the 6s the defender needs to block it ("Roll to
//! Block", and for a Critical "as many 6s as attacker rolled").

use super::schema::Rules;

/// The whiff column: the highest die is 3 or less.
pub const WHIFF: usize = 0;
/// The Critical Strike column: three or more 6s.
pub const CRITICAL: usize = 7;

/// The attack table's columns, in order, for narration.
pub const COLUMNS: [&str; 8] = [
    "3 or less (whiff)",
    "one 4",
    "double 4",
    "one 5",
    "double 5",
    "one 6",
    "double 6",
    "three+ 6s (Critical Strike)",
];

/// The column of a roll, from its counts of 4s, 5s and 6s: the highest die, doubled or not.
/// A lookup by the counts capped where the rule stops telling them apart (three 6s, two of a
/// lower face): the counts are random, so branches on them would be mispredicted often.
#[inline]
pub fn column(fours: u32, fives: u32, sixes: u32) -> usize {
    let index = (sixes.min(3) * 9 + fives.min(2) * 3 + fours.min(2)) as usize;
    usize::from(COLUMN_BY_COUNTS[index])
}

/// [`column`] for every capped count: index `sixes * 9 + fives * 3 + fours`.
const COLUMN_BY_COUNTS: [u8; 36] = {
    let mut table = [0u8; 36];
    let mut i = 0;
    while i < 36 {
        let (sixes, fives, fours) = (i / 9, i / 3 % 3, i % 3);
        table[i] = column_by_rule(fours, fives, sixes) as u8;
        i += 1;
    }
    table
};

/// The column as the rule says it: three 6s are a Critical Strike; otherwise the highest face
/// rolled among 4, 5 and 6, doubled or single.
const fn column_by_rule(fours: usize, fives: usize, sixes: usize) -> usize {
    let (count, single) = if sixes >= 3 {
        return CRITICAL;
    } else if sixes > 0 {
        (sixes, 5)
    } else if fives > 0 {
        (fives, 3)
    } else if fours > 0 {
        (fours, 1)
    } else {
        return WHIFF;
    };
    if count >= 2 { single + 1 } else { single }
}

/// The attack table compiled from `[rules]`: index 0 is the whiff, 7 the Critical Strike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackTable {
    /// Damage by column.
    pub damage: [i32; 8],
    /// Whether a hit stuns, by column.
    pub stun: [bool; 8],
    /// 6s needed to block, by column (the Critical Strike's comes from the roll).
    pub block: [u32; 8],
}

impl AttackTable {
    /// The table of a `[rules]` section.
    pub fn new(rules: &Rules) -> Self {
        let mut table = AttackTable {
            damage: [0; 8],
            stun: [false; 8],
            block: [0; 8],
        };
        for c in 1..=CRITICAL {
            table.damage[c] = rules.damage[c - 1].i32();
            table.stun[c] = rules.stun[c - 1];
        }
        for c in 1..CRITICAL {
            table.block[c] = rules.block[c - 1].u32();
        }
        table
    }

    /// 6s the defender needs to block a hit of `column` with `sixes` 6s rolled.
    #[inline]
    pub fn needed(&self, column: usize, sixes: u32) -> u32 {
        if column == CRITICAL {
            sixes
        } else {
            self.block[column]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::d6_pool::test_support::{MELEE, a_attacks, bare, fighter, model};
    use crate::rules::d6_pool::{Fighter, Weapon};

    #[test]
    fn the_attack_table_columns_are_the_highest_die_single_or_doubled() {
        for ((fours, fives, sixes), expected) in [
            ((0, 0, 0), WHIFF),
            ((1, 0, 0), 1),
            ((2, 0, 0), 2),
            ((3, 0, 0), 2),
            ((2, 1, 0), 3),
            ((0, 2, 0), 4),
            ((3, 3, 0), 4),
            ((4, 4, 1), 5),
            ((0, 0, 2), 6),
            ((0, 0, 3), CRITICAL),
            ((1, 1, 5), CRITICAL),
        ] {
            assert_eq!(
                column(fours, fives, sixes),
                expected,
                "4s {fours} 5s {fives} 6s {sixes}"
            );
        }
    }

    #[test]
    fn the_column_lookup_is_the_rule_for_every_count() {
        for fours in 0..8 {
            for fives in 0..8 {
                for sixes in 0..8 {
                    assert_eq!(
                        column(fours, fives, sixes),
                        column_by_rule(fours as usize, fives as usize, sixes as usize),
                        "{fours} 4s, {fives} 5s, {sixes} 6s"
                    );
                }
            }
        }
        assert_eq!(column(0, 0, 0), WHIFF);
        assert_eq!(column(5, 0, 3), CRITICAL);
        assert_eq!(column(2, 1, 0), 3);
    }

    #[test]
    fn each_column_deals_its_damage_and_the_doubles_stun() {
        let m = model(fighter(), bare());
        // Three attack dice against no defence dice; the Critical Strike (class A, Crit Bonus 0)
        // rolls its three 6s as critical dice: 2 + 3 + 4 = 9, + the column's 3 = 12.
        for (roll, col, damage, stun) in [
            (vec![1, 2, 3], WHIFF, 0, false),
            (vec![4, 1, 3], 1, 1, false),
            (vec![4, 4, 2], 2, 1, true),
            (vec![5, 4, 4], 3, 2, false),
            (vec![5, 5, 1], 4, 2, true),
            (vec![6, 5, 5], 5, 3, false),
            (vec![6, 6, 5], 6, 3, true),
            (vec![6, 6, 6, 2, 3, 4], CRITICAL, 12, true),
        ] {
            let (attack, states) = a_attacks(&m, &roll);
            assert_eq!(attack.column, col, "{roll:?}");
            assert_eq!(attack.damage, damage, "{roll:?}");
            assert_eq!(attack.stunned, stun, "{roll:?}");
            assert_eq!(states[1].standing.stunned, stun, "{roll:?}");
            assert_eq!(states[1].health, 10 - damage, "{roll:?}");
            assert_eq!(attack.hit(), col != WHIFF);
        }
    }

    #[test]
    fn each_column_is_blocked_by_its_number_of_sixes() {
        // The defender rolls its three dice (ARMOR + SHIELD + PARRY/DODGE).
        let m = model(fighter(), fighter());
        for (roll, needed) in [
            ([4, 1, 1], 1),
            ([4, 4, 1], 2),
            ([5, 1, 1], 1),
            ([5, 5, 1], 2),
            ([6, 1, 1], 1),
            ([6, 6, 1], 2),
        ] {
            let enough = [6u32; 3];
            let mut blocking = vec![1u32; 3];
            blocking[..needed].copy_from_slice(&enough[..needed]);
            let (attack, states) = a_attacks(&m, &[&roll[..], &blocking].concat());
            assert!(attack.blocked, "{roll:?} blocked by {needed} 6s");
            assert_eq!((attack.damage, states[1].health), (0, 10));
            assert!(
                !states[1].standing.stunned,
                "a blocked double does not stun"
            );
            let mut short = vec![1u32; 3];
            short[..needed - 1].copy_from_slice(&enough[..needed - 1]);
            let (attack, _) = a_attacks(&m, &[&roll[..], &short].concat());
            assert!(!attack.blocked, "{roll:?} not blocked by {} 6s", needed - 1);
            assert_eq!(m.table.needed(attack.column, attack.sixes), needed as u32);
        }
    }

    #[test]
    fn a_critical_is_blocked_only_by_as_many_sixes_as_the_attacker_rolled() {
        let c = Fighter {
            melee: Weapon {
                dice: 4,
                class_dice: 1,
                crit_bonus: 2,
                ..MELEE
            },
            ..fighter()
        };
        let m = model(c, fighter());
        // Four 6s: the defender's three dice cannot block even with three 6s.
        // Critical dice: 4 6s + 1 (C) - 3 defence dice = 2: 5 + 4 = 9, + Crit Bonus 2, + 3 = 14.
        let (attack, states) = a_attacks(&m, &[6, 6, 6, 6, 6, 6, 6, 5, 4]);
        assert!(!attack.blocked);
        assert_eq!((attack.critical_dice, attack.damage), (2, 14));
        assert_eq!(states[1].health, -4);
        // Three 6s and three 6s to block: blocked, no critical damage dice.
        let (attack, states) = a_attacks(&m, &[6, 6, 6, 1, 6, 6, 6]);
        assert!(attack.blocked);
        assert_eq!((attack.critical_dice, states[1].health), (0, 10));
    }
}
