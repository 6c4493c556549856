//! The two-d20 core shared by `twin-d20` and `guard-pierce`: the black and white attack dice,
//! which dice hit, and the attribute roll.
//!
//! Both texts roll a black and a white d20 against a target number (Defense, Guard) and an
//! upper bound (the Attack or the value used): a die hits when it is above the target and no
//! higher than the bound. Both also use the attribute roll: two d20, the result is the highest
//! die at or below the value. Nothing here knows damage, armour or wounds.

use crate::dice::{Dice, Stream};

/// The black and white dice of one attack roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackRoll {
    /// The black d20.
    pub black: u32,
    /// The white d20 (also the one armour Coverage is checked against).
    pub white: u32,
}

impl AttackRoll {
    /// Rolls black then white.
    #[inline]
    pub fn roll<D: Dice>(dice: &mut D) -> Self {
        let (black, white) = dice.pair(20, "black d20 (attack)", "white d20 (attack)");
        AttackRoll { black, white }
    }

    /// The roll [`AttackRoll::roll`] will make first from `stream`, if the source works it out
    /// ahead ([`Dice::pair_ahead`]: the fast source only).
    #[inline]
    pub fn ahead<D: Dice>(dice: &D, stream: Stream) -> Option<Self> {
        let (black, white) = dice.pair_ahead(stream, 20)?;
        Some(AttackRoll { black, white })
    }
}

/// Which faces of a d20 hit, as a bit set (bit `f - 1` set when face `f` hits), precomputed
/// per attacker and defender so the hot path tests a die with one shift. Face `f` at bit
/// `f - 1`: a die comes from the dice as its zero-based draw plus one, and the test takes the
/// one off again, which the compiler cancels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HitFaces(u32);

impl HitFaces {
    /// Faces above `target` (or at it, when `equal_hits`) and no higher than `bound`.
    #[inline]
    pub fn new(target: i32, bound: i32, equal_hits: bool) -> Self {
        let lowest = (target + i32::from(!equal_hits)).clamp(1, 21) as u32;
        let highest = bound.clamp(0, 20) as u32;
        // Faces lowest..=highest: all faces up to `highest`, less those below `lowest` (face 0
        // is none), each at the bit below its number.
        let up_to_highest = (1u32 << (highest + 1)) - 1;
        let below_lowest = (1u32 << lowest) - 1;
        HitFaces((up_to_highest & !below_lowest & !1) >> 1)
    }

    /// No face.
    pub const NONE: HitFaces = HitFaces(0);

    /// Faces no higher than `bound` (an attack value), whatever they must beat: one half of
    /// [`HitFaces::new`], kept by a fighter whose value changes only with its wounds.
    #[inline]
    pub fn within(bound: i32) -> Self {
        HitFaces((1u32 << bound.clamp(0, 20)) - 1)
    }

    /// Faces above `target` (a Guard), or at it when `equal_hits`, whatever the bound: the
    /// other half of [`HitFaces::new`].
    #[inline]
    pub fn beating(target: i32, equal_hits: bool) -> Self {
        let lowest = (target + i32::from(!equal_hits)).clamp(1, 21) as u32;
        HitFaces(!((1u32 << (lowest - 1)) - 1))
    }

    /// The faces both halves hit on: an attack's value against a defender's Guard.
    #[inline]
    pub fn and(self, other: HitFaces) -> Self {
        HitFaces(self.0 & other.0)
    }

    /// Whether `face` hits (face 0, which no die shows, never does: its bit would be 31).
    #[inline]
    pub fn hits(self, face: u32) -> bool {
        (self.0 >> (face.wrapping_sub(1) & 31)) & 1 == 1
    }
}

/// The attribute roll: two d20; the result is the highest die at or below `value`, and 0 when
/// both dice are above it (a failure: every success is at least 1). Text: "Toughness 8, black
/// 11 white 4 → 4".
#[inline]
pub fn attribute_roll<D: Dice>(dice: &mut D, value: i32, what: AttributeDice) -> u32 {
    let (black, white) = dice.pair(20, what.black, what.white);
    attribute_result(black, white, value)
}

/// The result of an attribute roll from its two dice (0 for a failure), without a branch.
#[inline]
pub fn attribute_result(black: u32, white: u32, value: i32) -> u32 {
    let within = |die: u32| die * u32::from(i64::from(die) <= i64::from(value));
    within(black).max(within(white))
}

/// The labels of an attribute roll's two dice, for narration.
#[derive(Clone, Copy, Debug)]
pub struct AttributeDice {
    /// Label of the black die.
    pub black: &'static str,
    /// Label of the white die.
    pub white: &'static str,
}

/// The highest row set in a wound bit set (bit `n` is row `n`), 0 when none is.
#[inline]
pub fn highest_row(rows: u64) -> u32 {
    63 - rows.leading_zeros().min(63)
}

/// Lowers the highest row of a wound bit set by `by`: rows passed on the way are cleared, a row
/// landing on a set row merges with it, a row lowered to 0 or below is gone. `by` 0 changes
/// nothing. Both texts heal this way ("Any other Wounds along the way are healed").
#[inline]
pub fn lower_highest_row(rows: u64, by: u32) -> u64 {
    let to = highest_row(rows).saturating_sub(by);
    // Keep the rows below `to`, and `to` itself when it is a row (to > 0).
    let below = (1u64 << to) - 1;
    (rows & below) | (u64::from(to > 0) << to)
}

/// The rows set in a wound bit set, lowest first (for narration and tests).
pub fn rows_of(rows: u64) -> Vec<u32> {
    (1..64).filter(|&r| rows >> r & 1 == 1).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    #[test]
    fn attribute_roll_example_toughness_8_black_11_white_4_is_4() {
        let mut dice = ScriptedDice::new([11, 4]);
        let labels = AttributeDice {
            black: "b",
            white: "w",
        };
        assert_eq!(attribute_roll(&mut dice, 8, labels), 4);
    }

    #[test]
    fn attribute_roll_takes_highest_success_and_fails_when_both_above() {
        assert_eq!(attribute_result(5, 7, 8), 7);
        assert_eq!(attribute_result(8, 2, 8), 8);
        assert_eq!(attribute_result(12, 3, 8), 3);
        assert_eq!(attribute_result(9, 12, 8), 0);
        assert_eq!(attribute_result(1, 1, 0), 0);
        assert_eq!(attribute_result(20, 19, 25), 20);
    }

    #[test]
    fn the_two_halves_of_the_hit_faces_make_the_whole() {
        for target in -4..=26 {
            for bound in -4..=26 {
                for equal_hits in [false, true] {
                    assert_eq!(
                        HitFaces::within(bound).and(HitFaces::beating(target, equal_hits)),
                        HitFaces::new(target, bound, equal_hits),
                        "target {target} bound {bound} equal_hits {equal_hits}"
                    );
                }
            }
        }
    }

    #[test]
    fn hit_faces_are_above_target_and_within_bound() {
        let faces = HitFaces::new(6, 12, false);
        assert!(!faces.hits(3));
        assert!(!faces.hits(6));
        assert!(faces.hits(7));
        assert!(faces.hits(12));
        assert!(!faces.hits(13));
        assert!(HitFaces::new(6, 12, true).hits(6));
        assert!(!HitFaces::new(-3, 25, false).hits(0), "no die shows face 0");
        for (target, bound) in [(-3, 25), (0, 0), (20, 20), (19, 20), (7, 3), (25, -2)] {
            let faces = HitFaces::new(target, bound, false);
            for face in 1..=20 {
                let expected = face as i32 > target && face as i32 <= bound;
                assert_eq!(
                    faces.hits(face),
                    expected,
                    "target {target} bound {bound} face {face}"
                );
            }
        }
    }
}
