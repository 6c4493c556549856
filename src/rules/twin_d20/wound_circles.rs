//! The wound circles, from the text's Wounds rule (L13): Damage N marks circle N, a filled circle
//! sends the Wound to the nearest empty circle above (beyond the last circle when none is left),
//! and the highest Wound is the one compared with Toughness. Recovery (L18) lowers the highest
//! Wound here too, healing the Wounds on the way.

use crate::rules::two_d20::{highest_row, lower_highest_row, rows_of};

/// The wound circles of one fighter: bit `n` set when circle `n` is filled. Circle
/// `wound_circles + 1` stands for "beyond the last circle".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WoundCircles(u64);

impl WoundCircles {
    /// Circles holding the given Wounds (each at its own number; for tests and examples).
    pub fn from_wounds(wounds: &[u32]) -> Self {
        WoundCircles(wounds.iter().fold(0, |bits, &w| bits | 1 << w))
    }

    /// Marks a Wound: its circle, or the nearest empty circle above. Returns the circle marked.
    #[inline]
    pub fn mark(&mut self, wound: u32, circles: u32) -> u32 {
        self.mark_if(wound, circles, true)
    }

    /// Finds the circle a Wound would take and marks it only when `really` (no branch).
    #[inline]
    pub fn mark_if(&mut self, wound: u32, circles: u32, really: bool) -> u32 {
        let beyond = circles + 1;
        let from = wound.clamp(1, beyond);
        let empty_from = !self.0 & (u64::MAX << from);
        let circle = empty_from.trailing_zeros().min(beyond);
        self.0 |= u64::from(really) << circle;
        circle
    }

    /// The most severe Wound, 0 when unwounded.
    #[inline]
    pub fn highest(self) -> u32 {
        highest_row(self.0)
    }

    /// Whether any circle is filled.
    #[inline]
    pub fn any(self) -> bool {
        self.0 != 0
    }

    /// Recovery: lowers the highest Wound by `by`; Wounds passed on the way heal. A Wound landing
    /// on a filled circle merges with it; a Wound lowered to 0 or below heals. `by` 0 (a failed
    /// roll) changes nothing, so callers need no branch.
    #[inline]
    pub fn lower_highest(&mut self, by: u32) {
        self.0 = lower_highest_row(self.0, by);
    }

    /// The filled circles, lowest first.
    pub fn list(self) -> Vec<u32> {
        rows_of(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::NoLog;
    use crate::rules::twin_d20::Rules;
    use crate::rules::twin_d20::test_support::{fighter, point};
    use crate::stats::Side;

    #[test]
    fn a_filled_circle_moves_the_wound_to_the_nearest_empty_circle_above() {
        let mut w = WoundCircles::from_wounds(&[11, 12, 14]);
        assert_eq!(w.mark(11, 40), 13);
        assert_eq!(w.mark(11, 40), 15);
        assert_eq!(w.mark(3, 40), 3);
        let mut full = WoundCircles::from_wounds(&[39, 40]);
        assert_eq!(full.mark(39, 40), 41, "beyond the last circle");
        assert_eq!(full.mark(45, 40), 41);
    }

    #[test]
    fn lowering_merges_on_a_filled_circle_and_a_failed_roll_changes_nothing() {
        let mut w = WoundCircles::from_wounds(&[2, 7]);
        w.lower_highest(5);
        assert_eq!(w.list(), vec![2]);
        let mut w = WoundCircles::from_wounds(&[2, 7]);
        w.lower_highest(0);
        assert_eq!(w.list(), vec![2, 7]);
        let mut w = WoundCircles::from_wounds(&[2, 7, 9]);
        w.lower_highest(20);
        assert!(!w.any());
        let mut empty = WoundCircles::default();
        empty.lower_highest(4);
        assert!(!empty.any());
    }

    // Rule ledger tests (docs/rules/twin-d20.md, "Rule ledger").

    #[test]
    fn a_strike_whose_circle_is_filled_marks_the_nearest_empty_circle_above() {
        // L13: "If the circle is already filled from a previous Wound, mark the nearest empty
        // circle above it instead."
        let model = point(fighter(12, 0, 8, 2), fighter(0, 6, 30, 0), Rules::default());
        let mut wounds = WoundCircles::from_wounds(&[5, 6, 8]);
        // Black 3 misses, white 11 hits: Damage 5. Circles 5 and 6 are filled: 7 (not 4 below).
        let mut dice = ScriptedDice::new([3, 11]);
        let strike = model.strike(Side::A, &mut wounds, &mut dice, &mut NoLog);
        assert!(dice.finish().is_ok());
        assert_eq!(strike.dealt, 5);
        assert_eq!(wounds.list(), vec![5, 6, 7, 8]);
    }
}
