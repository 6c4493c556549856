//! The Aftermath, from the text's L15: after the battle every wounded fighter marks the circle
//! above their most severe Wound, and is dead when that circle is more than `death_margin` (5)
//! circles above Toughness; a group may play without it (`rules.aftermath`).

use super::TwinD20;
use super::wound_circles::WoundCircles;
use crate::log::Log;
use crate::stats::Side;

impl TwinD20 {
    /// The Aftermath for one fighter: marks the circle above the worst Wound; true when dead.
    pub fn aftermath<L: Log>(&self, side: Side, wounds: &mut WoundCircles, log: &mut L) -> bool {
        self.aftermath_of(side.index(), wounds, log)
    }

    /// The Aftermath for fighter number `i` (as in [`TwinD20::fighters`]).
    // Always in line: the duel and the fight of several both call it; out of line (since
    // issue 36) it cost a call and the wounds passed through memory.
    #[inline(always)]
    pub fn aftermath_of<L: Log>(&self, i: usize, wounds: &mut WoundCircles, log: &mut L) -> bool {
        let fighter = &self.fighters[i];
        let applies = self.rules.aftermath && wounds.any();
        let circle = wounds.mark_if(wounds.highest() + 1, self.circles, applies);
        let dead = applies & (circle > self.death_above[i]);
        if applies {
            log.say(|| {
                format!(
                    "Aftermath: {} marks circle {circle} (Toughness {}): {}",
                    self.roster.fighter_names[i],
                    fighter.toughness,
                    if dead { "dead" } else { "alive" }
                )
            });
        }
        dead
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::NoLog;
    use crate::rules::twin_d20::Rules;
    use crate::rules::twin_d20::test_support::{fighter, point};

    #[test]
    fn aftermath_marks_above_the_worst_wound_and_kills_beyond_the_margin() {
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default());
        let mut wounds = WoundCircles::from_wounds(&[9]);
        assert!(!model.aftermath(Side::A, &mut wounds, &mut NoLog));
        assert_eq!(wounds.list(), vec![9, 10]);
        let mut wounds = WoundCircles::from_wounds(&[13]);
        // Circle 14 is 6 above Toughness 8: dead.
        assert!(model.aftermath(Side::A, &mut wounds, &mut NoLog));
        let rules = Rules {
            aftermath: false,
            ..Rules::default()
        };
        let off = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), rules);
        let mut wounds = WoundCircles::from_wounds(&[20]);
        assert!(!off.aftermath(Side::A, &mut wounds, &mut NoLog));
        assert_eq!(wounds.list(), vec![20]);
    }

    // Rule ledger tests (docs/rules/twin-d20.md, "Rule ledger").

    #[test]
    fn aftermath_marks_the_circle_above_the_most_severe_wound_and_exactly_5_above_toughness_lives()
    {
        // L15: "After the battle, mark the circle above your most severe Wound. If a Wound is more
        // than 5 circles above your Toughness, you're dead."
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default());
        // Most severe 12: circle 13 is marked; 13 is 5 above Toughness 8, not more: alive.
        let mut wounds = WoundCircles::from_wounds(&[3, 9, 12]);
        assert!(!model.aftermath(Side::A, &mut wounds, &mut NoLog));
        assert_eq!(wounds.list(), vec![3, 9, 12, 13]);
        // Most severe 13: circle 14, 6 above: dead.
        let mut wounds = WoundCircles::from_wounds(&[13]);
        assert!(model.aftermath(Side::A, &mut wounds, &mut NoLog));
        // A Wound already 12 above (20): dead.
        let mut wounds = WoundCircles::from_wounds(&[20]);
        assert!(model.aftermath(Side::A, &mut wounds, &mut NoLog));
        // No Wound: nothing to mark, alive.
        let mut none = WoundCircles::default();
        assert!(!model.aftermath(Side::A, &mut none, &mut NoLog));
        assert!(!none.any());
    }
}
