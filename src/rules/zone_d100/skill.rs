//! d100 skill tests and victory stars.
//!
//! A test rolls d100 against an Effective Mastery Level (EML, kept within 5..95): a success when
//! the roll is at or under it, critical when the roll is divisible by 5. A critical failure's
//! ones digit picks the mishap: 0 a Fumble, 5 a Stumble. Opposed melee tests compare success
//! levels through a star table kept as data (the general rule, page 61, is not in the text).

use crate::dice::Dice;

/// Lowest and highest EML a test is rolled against.
pub const EML_FLOOR: i32 = 5;
/// Highest EML.
pub const EML_CEILING: i32 = 95;

/// A test's success level, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SuccessLevel {
    /// CF.
    CriticalFailure = 0,
    /// F.
    Failure = 1,
    /// S.
    Success = 2,
    /// CS.
    CriticalSuccess = 3,
}

impl SuccessLevel {
    /// S or CS.
    pub fn is_success(self) -> bool {
        self >= SuccessLevel::Success
    }

    /// One level better (a Setup TA), at most CS.
    pub fn raised(self) -> Self {
        match self {
            SuccessLevel::CriticalFailure => SuccessLevel::Failure,
            SuccessLevel::Failure => SuccessLevel::Success,
            _ => SuccessLevel::CriticalSuccess,
        }
    }

    /// One level worse (an impaired test while Stunned), at least CF.
    pub fn lowered(self) -> Self {
        match self {
            SuccessLevel::CriticalSuccess => SuccessLevel::Success,
            SuccessLevel::Success => SuccessLevel::Failure,
            _ => SuccessLevel::CriticalFailure,
        }
    }

    /// The usual abbreviation.
    pub fn abbreviation(self) -> &'static str {
        match self {
            SuccessLevel::CriticalFailure => "CF",
            SuccessLevel::Failure => "F",
            SuccessLevel::Success => "S",
            SuccessLevel::CriticalSuccess => "CS",
        }
    }
}

/// The mishap a critical failure brings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mishap {
    /// Ones digit 0.
    Fumble,
    /// Ones digit 5.
    Stumble,
}

/// One rolled test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Test {
    /// The d100 roll, 1..=100.
    pub roll: u32,
    /// The EML rolled against, after the 5..95 bounds.
    pub eml: i32,
    /// The result.
    pub level: SuccessLevel,
}

impl Test {
    /// Resolves a roll against an EML (bounded to 5..95).
    pub fn resolve(roll: u32, eml: i32) -> Test {
        let eml = eml.clamp(EML_FLOOR, EML_CEILING);
        let success = roll as i32 <= eml;
        let critical = roll.is_multiple_of(5);
        let level = match (success, critical) {
            (true, true) => SuccessLevel::CriticalSuccess,
            (true, false) => SuccessLevel::Success,
            (false, false) => SuccessLevel::Failure,
            (false, true) => SuccessLevel::CriticalFailure,
        };
        Test { roll, eml, level }
    }

    /// Rolls d100 against an EML.
    #[inline]
    pub fn roll<D: Dice>(dice: &mut D, eml: i32, label: &'static str) -> Test {
        Test::resolve(dice.d(100, label), eml)
    }

    /// Rolls d100 against an EML for a test read only through its level and mishap
    /// ([`Test::mishap`]): the same roll as [`Test::roll`], which an enumerating source walks
    /// by those classes (six: CS and CF ending 0 or 5, S and F ending otherwise) instead of 100 faces.
    #[inline]
    pub fn roll_level<D: Dice>(dice: &mut D, eml: i32, label: &'static str) -> Test {
        Test::resolve(
            dice.d_by(100, label, |r| Test::resolve(r, eml).class()),
            eml,
        )
    }

    /// [`Test::roll_level`] for a test whose roll is also compared with `other`'s (a Dodge's tie
    /// break): the classes keep which of the two rolls is higher.
    #[inline]
    pub fn roll_against<D: Dice>(dice: &mut D, eml: i32, label: &'static str, other: u32) -> Test {
        Test::resolve(
            dice.d_by(100, label, |r| {
                (Test::resolve(r, eml).class(), r.cmp(&other))
            }),
            eml,
        )
    }

    /// What a test is read by: its level and the ones digit as far as mishaps tell it (0, 5 or
    /// another).
    fn class(&self) -> (SuccessLevel, u32) {
        let digit = match self.roll % 10 {
            0 => 0,
            5 => 5,
            _ => 1,
        };
        (self.level, digit)
    }

    /// The mishap of a critical failure: Fumble on a 0, Stumble on a 5.
    /// "The type is indicated by the ones die": a CF lowered from an F (while stunned) whose
    /// ones die is neither 0 nor 5 has no mishap.
    pub fn mishap(&self) -> Option<Mishap> {
        match (self.level, self.roll % 10) {
            (SuccessLevel::CriticalFailure, 0) => Some(Mishap::Fumble),
            (SuccessLevel::CriticalFailure, 5) => Some(Mishap::Stumble),
            _ => None,
        }
    }
}

/// A missile attack whose adjusted EML is this or worse is spoiled: no minimum EML05 roll.
pub const SPOILED_MISSILE_EML: i32 = -40;

/// The four melee defence options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Defence {
    /// Block with a weapon or shield: wins tied successes (and checks weapon damage).
    Block,
    /// Dodge: tied successes go to the higher roll.
    Dodge,
    /// Counterstrike: strikes back; loses tied successes.
    Counterstrike,
    /// Ignore: no roll; the attacker's test stands alone.
    Ignore,
}

/// Who wins an opposed melee test, and by how many stars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stars {
    /// Both failed (or the attacker failed against Ignore): no strike.
    NoStrike,
    /// The attacker wins with this many stars.
    Attacker(u32),
    /// The defender wins with this many stars.
    Defender(u32),
}

impl std::fmt::Display for Stars {
    /// "the attacker wins, 2 stars", "the defender wins, 1 star", "no strike".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (who, n) = match *self {
            Stars::NoStrike => return f.write_str("no strike"),
            Stars::Attacker(n) => ("attacker", n),
            Stars::Defender(n) => ("defender", n),
        };
        write!(
            f,
            "the {who} wins, {n} star{}",
            if n == 1 { "" } else { "s" }
        )
    }
}

/// The victory-star table: for each defence, a cell per (attacker level, defender level), plus
/// the Ignore column by attacker level. Stars are signed: positive for the attacker, negative
/// for the defender, 0 for no strike; tied successes are resolved by the defence's tie rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StarTable {
    /// `[block, dodge, counterstrike][attacker][defender]`; `TIE` marks tied successes.
    pub opposed: [[[i8; 4]; 4]; 3],
    /// Stars against Ignore by the attacker's level.
    pub ignore: [i8; 4],
}

/// Marks a tied success in [`StarTable::opposed`].
pub const TIE: i8 = i8::MIN;

impl Default for StarTable {
    /// The difference of success levels (CF 0, F 1, S 2, CS 3): the winner gets that many
    /// stars; both failing is no strike; equal successes are ties. Against Ignore the defender
    /// counts one level below CF, so S earns three stars; a CF still earns none.
    fn default() -> Self {
        let mut cell = [[0i8; 4]; 4];
        for (a, row) in cell.iter_mut().enumerate() {
            for (d, c) in row.iter_mut().enumerate() {
                *c = if a <= 1 && d <= 1 {
                    0
                } else if a == d {
                    TIE
                } else {
                    a as i8 - d as i8
                };
            }
        }
        StarTable {
            opposed: [cell; 3],
            ignore: [0, 2, 3, 4],
        }
    }
}

impl StarTable {
    /// The outcome of an opposed test (or an unopposed one against Ignore). `rolls` are the
    /// attacker's and defender's d100 rolls, for the Dodge tie break.
    pub fn outcome(&self, defence: Defence, attacker: &Test, defender: Option<&Test>) -> Stars {
        let a = attacker.level as usize;
        let (cell, d_roll) = match (defence, defender) {
            (Defence::Ignore, _) | (_, None) => (self.ignore[a], 0),
            (Defence::Block, Some(d)) => (self.opposed[0][a][d.level as usize], d.roll),
            (Defence::Dodge, Some(d)) => (self.opposed[1][a][d.level as usize], d.roll),
            (Defence::Counterstrike, Some(d)) => (self.opposed[2][a][d.level as usize], d.roll),
        };
        match cell {
            TIE => match defence {
                Defence::Block => Stars::Defender(1),
                Defence::Counterstrike | Defence::Ignore => Stars::Attacker(1),
                // Tied successes go to the higher roll; equal rolls stay with the defender.
                Defence::Dodge if attacker.roll > d_roll => Stars::Attacker(1),
                Defence::Dodge => Stars::Defender(1),
            },
            0 => Stars::NoStrike,
            n if n > 0 => Stars::Attacker(n as u32),
            n => Stars::Defender(n.unsigned_abs() as u32),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use SuccessLevel::*;

    #[test]
    fn the_texts_test_results() {
        assert_eq!(
            Test::resolve(45, 85).level,
            CriticalSuccess,
            "EML85 roll 45: CS"
        );
        assert_eq!(
            Test::resolve(25, 35).level,
            CriticalSuccess,
            "EML35 roll 25: CS"
        );
        assert_eq!(Test::resolve(16, 35).level, Success, "EML35 roll 16: S");
        let t = Test::resolve(75, 65);
        assert_eq!(
            (t.level, t.mishap()),
            (CriticalFailure, Some(Mishap::Stumble)),
            "ML65 roll 75: CF"
        );
        assert_eq!(Test::resolve(93, 50).level, Failure, "EML50 roll 93: F");
        assert_eq!(
            Test::resolve(42, 45).level,
            Success,
            "Shock Reroll EML45 roll 42: S"
        );
        assert_eq!(
            Test::resolve(29, 60).level,
            Success,
            "Morale ML60 roll 29: S"
        );
    }

    #[test]
    fn eml_is_kept_within_5_and_95_and_a_zero_is_a_fumble() {
        assert_eq!(
            Test::resolve(5, -30).level,
            CriticalSuccess,
            "EML05 minimum: 05 is a CS"
        );
        assert_eq!(Test::resolve(6, -30).level, Failure);
        assert_eq!(Test::resolve(96, 150).level, Failure, "EML95 maximum");
        assert_eq!(Test::resolve(100, 150).mishap(), Some(Mishap::Fumble));
        assert_eq!(Test::resolve(90, 50).mishap(), Some(Mishap::Fumble));
        assert_eq!(Test::resolve(50, 50).mishap(), None, "a CS has no mishap");
    }

    #[test]
    fn the_four_star_examples() {
        let table = StarTable::default();
        // Block: attacker 35 (CS) against 71 (F): two stars.
        let o = table.outcome(
            Defence::Block,
            &Test::resolve(35, 60),
            Some(&Test::resolve(71, 60)),
        );
        assert_eq!(o, Stars::Attacker(2));
        // Dodge: 36 (S) against 51 (S): the higher roll, the defender's, wins one star.
        let o = table.outcome(
            Defence::Dodge,
            &Test::resolve(36, 60),
            Some(&Test::resolve(51, 60)),
        );
        assert_eq!(o, Stars::Defender(1));
        // Counterstrike: 36 (S) against 51 (S): the attacker wins one star.
        let o = table.outcome(
            Defence::Counterstrike,
            &Test::resolve(36, 60),
            Some(&Test::resolve(51, 60)),
        );
        assert_eq!(o, Stars::Attacker(1));
        // Ignore: 36 (S): three stars.
        assert_eq!(
            table.outcome(Defence::Ignore, &Test::resolve(36, 60), None),
            Stars::Attacker(3)
        );
    }

    #[test]
    fn both_failing_is_no_strike_and_a_block_wins_ties() {
        let table = StarTable::default();
        let f = Test::resolve(71, 60);
        let cf = Test::resolve(75, 60);
        for defence in [Defence::Block, Defence::Dodge, Defence::Counterstrike] {
            assert_eq!(table.outcome(defence, &f, Some(&cf)), Stars::NoStrike);
            assert_eq!(table.outcome(defence, &cf, Some(&f)), Stars::NoStrike);
        }
        let s = Test::resolve(36, 60);
        assert_eq!(
            table.outcome(Defence::Block, &s, Some(&Test::resolve(51, 60))),
            Stars::Defender(1)
        );
        // A defender's CS against an attacker's CF: three stars to the defender.
        assert_eq!(
            table.outcome(Defence::Counterstrike, &cf, Some(&Test::resolve(20, 60))),
            Stars::Defender(3)
        );
        assert_eq!(table.outcome(Defence::Ignore, &cf, None), Stars::NoStrike);
    }

    #[test]
    fn a_dodge_tie_break_goes_to_the_higher_roll() {
        // "Dodge: higher roll gets a one-star victory"; "TIE BREAK an attacker who wins the tie
        // break delivers a base impact strike ... A defender winning the tie break means the
        // attack fails." Both S at EML60: the attacker's 51 beats the defender's 36. Equal
        // rolls go to the defender (docs page 61, an assumption).
        let table = StarTable::default();
        let a = Test::resolve(51, 60);
        let d = Test::resolve(36, 60);
        assert_eq!(
            table.outcome(Defence::Dodge, &a, Some(&d)),
            Stars::Attacker(1)
        );
        assert_eq!(
            table.outcome(Defence::Dodge, &d, Some(&a)),
            Stars::Defender(1)
        );
        assert_eq!(
            table.outcome(Defence::Dodge, &d, Some(&d)),
            Stars::Defender(1)
        );
        // A Block wins tied successes; a Counterstrike loses them.
        assert_eq!(
            table.outcome(Defence::Block, &a, Some(&d)),
            Stars::Defender(1)
        );
        assert_eq!(
            table.outcome(Defence::Counterstrike, &d, Some(&a)),
            Stars::Attacker(1)
        );
    }

    #[test]
    fn against_ignore_f_is_two_stars_and_cf_none() {
        // MELEE TEST table, IGNORE: "CF ▲ · F ★ · S ★ · CS ★" with the TAs "IMPACT OR
        // PRECISION": F is a strike with one TA (2 stars), S 3, CS 4.
        let table = StarTable::default();
        let stars = |roll| table.outcome(Defence::Ignore, &Test::resolve(roll, 60), None);
        assert_eq!(stars(65), Stars::NoStrike);
        assert_eq!(stars(61), Stars::Attacker(2));
        assert_eq!(stars(36), Stars::Attacker(3));
        assert_eq!(stars(35), Stars::Attacker(4));
    }
}
