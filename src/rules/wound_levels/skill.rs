//! The roll and the skill levels: four Fudge dice (4dF, −4..+4; all + a critical success, all −
//! a botch) plus the bonus of a skill or Physique level (untrained 0 to legendary 6), and the
//! Physique check (roll + Physique − wound penalty against `rules.check_difficulty`). The text
//! names neither the dice nor the levels' values; they are read from its "Example of Combat"
//! ("He rolls a 2, and adds +3, since he has Melee at Professional", "Adam rolls a 4 and scores
//! a critical success", "rolls a botch"), as recorded in `docs/rules/wound-levels.md`.

use super::WoundLevels;
use crate::dice::Dice;
use serde::{Deserialize, Serialize};

/// A skill or Physique level and its bonus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// +0.
    Untrained,
    /// +1.
    Novice,
    /// +2 (the baseline: Physique above it adds to melee damage).
    #[default]
    Competent,
    /// +3 ("Melee at Professional ... adds +3").
    Professional,
    /// +4.
    Expert,
    /// +5.
    Master,
    /// +6.
    Legendary,
}

impl Level {
    /// The bonus the level adds to a roll.
    pub fn bonus(self) -> i32 {
        self as i32
    }
}

/// One roll of the fudge dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roll {
    /// The total, −n..+n.
    pub value: i32,
    /// All dice +.
    pub critical: bool,
    /// All dice −.
    pub botch: bool,
}

impl WoundLevels {
    /// Rolls the fudge dice (each a d3: 1 is −, 2 is blank, 3 is +).
    // Always in line: the bench's build put it out of line, and the dice's state then went
    // through memory at every roll.
    #[inline(always)]
    pub fn roll<D: Dice>(&self, dice: &mut D, label: &'static str) -> Roll {
        let n = self.rules.fudge_dice.i32();
        let mut value = 0;
        // Two dice at a time ([`Dice::pair`]: one draw of the fast source for both), the last
        // alone when there are an odd number: die by die, in order, for every other source.
        for _ in 0..n / 2 {
            let (first, second) = dice.pair(3, label, label);
            value += (first + second) as i32 - 4;
        }
        if n % 2 == 1 {
            value += dice.d(3, label) as i32 - 2;
        }
        Roll {
            value,
            critical: value == n,
            botch: value == -n,
        }
    }

    /// A Physique check: roll + Physique − wound penalty at least the difficulty.
    #[inline]
    pub(super) fn physique_check<D: Dice>(
        &self,
        me: usize,
        damage: u32,
        dice: &mut D,
        label: &'static str,
    ) -> (bool, i32) {
        let r = self.roll(dice, label);
        let total = r.value + self.members[me].physique - self.penalty_of(damage);
        (total >= self.rules.check_difficulty.i32(), total)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::rules::wound_levels::Healing;
    use crate::rules::wound_levels::test_support::{bob_and_adam, ledger_compile, script};

    #[test]
    fn the_roll_is_4df_with_critical_success_and_botch() {
        let model = bob_and_adam(Healing::default());
        let r = model.roll(&mut script(&[4]), "t");
        assert_eq!(
            r,
            Roll {
                value: 4,
                critical: true,
                botch: false
            }
        );
        let r = model.roll(&mut script(&[-4]), "t");
        assert_eq!(
            r,
            Roll {
                value: -4,
                critical: false,
                botch: true
            }
        );
        let r = model.roll(&mut ScriptedDice::new([3, 1, 2, 3]), "t");
        assert_eq!(
            r,
            Roll {
                value: 1,
                critical: false,
                botch: false
            }
        );
    }

    #[test]
    fn every_fudge_die_of_an_odd_or_even_count_is_rolled_in_order_and_counted() {
        // The dice come two to a draw of the fast source, the last alone when the count is
        // odd: every die is still read, in order, and summed.
        let mut model = bob_and_adam(Healing::default());
        for (n, faces, value) in [
            (1, vec![3], 1),
            (3, vec![3, 3, 1], 1),
            (3, vec![1, 1, 1], -3),
            (5, vec![3, 3, 3, 3, 3], 5),
            (5, vec![2, 2, 2, 2, 1], -1),
            (8, vec![3, 1, 3, 3, 2, 3, 3, 3], 5),
        ] {
            model.rules.fudge_dice = crate::scenario::fields::Ranged::new(n);
            let mut dice = ScriptedDice::new(faces);
            let r = model.roll(&mut dice, "t");
            assert!(dice.finish().is_ok(), "{n} dice: not every face was read");
            assert_eq!(r.value, value, "{n} dice");
            assert_eq!(r.critical, value == n as i32, "{n} dice");
            assert_eq!(r.botch, value == -(n as i32), "{n} dice");
        }
        // Against the fast source (two dice to a draw): the sums of 3 and 4 fudge dice follow
        // (x^-1 + 1 + x)^n, by a chi-square test at the 0.1% level (6 and 8 degrees of freedom).
        for (n, ways, bound) in [
            (3, vec![1u64, 3, 6, 7, 6, 3, 1], 22.46),
            (4, vec![1, 4, 10, 16, 19, 16, 10, 4, 1], 26.12),
        ] {
            model.rules.fudge_dice = crate::scenario::fields::Ranged::new(n);
            let mut seen = vec![0u64; ways.len()];
            let mut dice = crate::dice::FastDice::seed_from_u64(7);
            for _ in 0..200_000 {
                seen[(model.roll(&mut dice, "t").value + n as i32) as usize] += 1;
            }
            let chi_square = crate::dice::chi_square(&seen, &ways);
            assert!(
                chi_square < bound,
                "{n} dice: chi-square {chi_square}, {seen:?}"
            );
        }
    }

    #[test]
    fn professional_adds_3_and_each_level_above_adds_1() {
        // L43: "adds +3, since he has Melee at Professional"; "adds +3, since he has a
        // Professional Physique"; L49: "He has Ranged Combat at Professional, so he adds +3."
        let model = ledger_compile(
            "name = \"t\"\nruleset = \"wound-levels\"\n[a]\nmelee = \"professional\"\nranged = \"professional\"\nphysique = \"professional\"\nweapon = \"w\"\n[b]\nweapon = \"w\"\n[weapons.w]\nkind = \"melee\"\n",
        );
        let a = model.fighters[0];
        assert_eq!((a.melee, a.ranged, a.physique), (3, 3, 3));
        // L13: "each point of Physique above 2": Professional is 1 above, Expert 2, Master 3,
        // Legendary 4.
        assert_eq!(
            [
                Level::Professional,
                Level::Expert,
                Level::Master,
                Level::Legendary
            ]
            .map(Level::bonus),
            [3, 4, 5, 6]
        );
    }
}
