//! The healing timeline of a wounded survivor, from the text's Recovery rules (L18–L20) and
//! "Using Medicine" (L22–L24): a Recovery roll with Toughness every `healing.interval_days` (the
//! group's recovery rate); a failure heals nothing, a success lowers the highest Wound by the
//! result and heals the Wounds on the way; with a healer, the highest successful Medicine result
//! (the Medicine value with the equipment's bonus or penalty) adds to Toughness for the next
//! Recovery roll only.

use super::wound_circles::WoundCircles;
use super::{Healing, TwinD20};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::two_d20::{AttributeDice, attribute_roll};
use crate::stats::{Recovery, Side};

/// The healing settings compiled to the numbers the timeline loop reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct HealingPlan {
    interval: u32,
    horizon: u32,
    /// Medicine value after equipment.
    medicine: i32,
    /// Medicine rolls before each Recovery roll: 0 without a healer.
    medicine_rolls: u32,
}

impl HealingPlan {
    pub(super) fn new(h: &Healing) -> Self {
        HealingPlan {
            interval: h.interval_days.u32(),
            horizon: h.horizon_days.u32(),
            medicine: h.medicine.i32() + h.equipment.i32(),
            medicine_rolls: if h.medicine.get() > 0 {
                h.medicine_rolls.u32()
            } else {
                0
            },
        }
    }
}

const RECOVERY_DICE: AttributeDice = AttributeDice {
    black: "black d20 (Recovery)",
    white: "white d20 (Recovery)",
};
const MEDICINE_DICE: AttributeDice = AttributeDice {
    black: "black d20 (Medicine)",
    white: "white d20 (Medicine)",
};

impl TwinD20 {
    /// The healing timeline of a wounded survivor: a Recovery roll every `interval_days`, with
    /// the healer's Medicine first, until whole or past the horizon.
    pub fn recover<D: Dice, L: Log>(
        &self,
        side: Side,
        wounds: WoundCircles,
        dice: &mut D,
        log: &mut L,
    ) -> Recovery {
        self.recover_of(side.index(), wounds, dice, log)
    }

    /// The healing timeline of fighter number `i` (as in [`TwinD20::fighters`]).
    // Always in line: the duel and the fight of several both call it; out of line (since
    // issue 36) it cost a call and its dice's state in memory.
    #[inline(always)]
    pub fn recover_of<D: Dice, L: Log>(
        &self,
        i: usize,
        wounds: WoundCircles,
        dice: &mut D,
        log: &mut L,
    ) -> Recovery {
        self.recover_from(i, wounds, 0, dice, log)
    }

    /// The healing timeline of fighter number `i` whose healing has already run `rested` days
    /// (a campaign's rests): its Recovery rolls keep their days, and its days to whole count
    /// from now.
    #[inline(always)]
    pub fn recover_from<D: Dice, L: Log>(
        &self,
        i: usize,
        mut wounds: WoundCircles,
        rested: u32,
        dice: &mut D,
        log: &mut L,
    ) -> Recovery {
        let HealingPlan {
            interval, horizon, ..
        } = self.plan;
        let toughness = self.fighters[i].toughness as i32;
        dice.stream(Stream::new(super::Purpose::Recovery, i, 0));
        log.say(|| {
            format!(
                "{} recovers: Toughness {toughness}, wounds {:?}, a Recovery roll every {interval} days",
                self.roster.fighter_names[i],
                wounds.list()
            )
        });
        if let Some(day) =
            self.recovery_rolls(i, &mut wounds, (rested, rested + horizon), dice, log)
        {
            return Recovery {
                days_to_whole: Some(day),
                died: false,
                impairment: 0,
            };
        }
        log.say(|| {
            format!(
                "{} still has wounds {:?} at the horizon ({horizon} days)",
                self.roster.fighter_names[i],
                wounds.list()
            )
        });
        Recovery {
            days_to_whole: None,
            died: false,
            impairment: 0,
        }
    }

    /// Fighter `i`'s Recovery rolls on the days after `from` up to `to` (days counted from the
    /// start of its healing) that fall on its interval, each with the healer's Medicine first;
    /// the day counted from `from` on which it is whole, or `None` while wounds remain. The
    /// dice come from the stream the caller named.
    #[inline(always)]
    pub(super) fn recovery_rolls<D: Dice, L: Log>(
        &self,
        i: usize,
        wounds: &mut WoundCircles,
        (from, to): (u32, u32),
        dice: &mut D,
        log: &mut L,
    ) -> Option<u32> {
        let HealingPlan {
            interval,
            medicine,
            medicine_rolls,
            ..
        } = self.plan;
        let toughness = self.fighters[i].toughness as i32;
        // The first roll falls on the first multiple of the interval after `from`.
        let mut day = from - from % interval;
        while day + interval <= to && !dice.exhausted() {
            day += interval;
            let mut bonus = 0;
            for _ in 0..medicine_rolls {
                bonus = bonus.max(attribute_roll(dice, medicine, MEDICINE_DICE));
            }
            let value = toughness + bonus as i32;
            let result = attribute_roll(dice, value, RECOVERY_DICE);
            let highest = wounds.highest();
            wounds.lower_highest(result);
            if L::ON {
                let shown = day - from;
                if medicine_rolls > 0 {
                    log.say(|| {
                        format!("day {shown}: Medicine {medicine} adds {bonus} to Toughness")
                    });
                }
                log.say(|| match result {
                    0 => format!("day {shown}: Recovery roll with {value} fails: no healing"),
                    _ => format!(
                        "day {shown}: Recovery roll with {value}: {result} success; Wound {highest} lowered to {}; wounds now {:?}",
                        highest.saturating_sub(result),
                        wounds.list()
                    ),
                });
            }
            if !wounds.any() {
                log.say(|| {
                    format!(
                        "{} is whole after {} days",
                        self.roster.fighter_names[i],
                        day - from
                    )
                });
                return Some(day - from);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::{NoLog, VecLog};
    use crate::rules::twin_d20::Rules;
    use crate::rules::twin_d20::test_support::{fighter, ledger_point, point};
    use crate::scenario::fields::Ranged;

    #[test]
    fn example_recovery_wounds_6_and_7_result_4_leaves_3() {
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default());
        let mut dice = ScriptedDice::new([11, 4, 20, 20]);
        let mut log = VecLog::default();
        let mut wounds = WoundCircles::from_wounds(&[6, 7]);
        // One Recovery roll: Toughness 8, black 11 white 4: result 4.
        let result = crate::rules::two_d20::attribute_roll(&mut dice, 8, RECOVERY_DICE);
        assert_eq!(result, 4);
        wounds.lower_highest(4);
        assert_eq!(wounds.list(), vec![3]);
        // Through the timeline: the same roll, then a failure (20, 20) leaves the 3.
        let mut dice = ScriptedDice::new([11, 4, 20, 20]);
        let short = model.clone().with_healing(Healing {
            horizon_days: Ranged::new(14),
            ..Healing::default()
        });
        let r = short.recover(
            Side::A,
            WoundCircles::from_wounds(&[6, 7]),
            &mut dice,
            &mut log,
        );
        assert!(dice.finish().is_ok());
        assert_eq!(r.days_to_whole, None);
        assert!(
            log.lines
                .iter()
                .any(|l| l.contains("Wound 7 lowered to 3; wounds now [3]")),
            "{:?}",
            log.lines
        );
    }

    #[test]
    fn recovery_heals_when_the_result_clears_the_highest_wound() {
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default());
        // Wounds 2 and 5; failure in week 1 (both above 8), then result 8 clears both in week 2.
        let mut dice = ScriptedDice::new([9, 12, 8, 1]);
        let r = model.recover(
            Side::A,
            WoundCircles::from_wounds(&[2, 5]),
            &mut dice,
            &mut NoLog,
        );
        assert_eq!(r.days_to_whole, Some(14));
    }

    #[test]
    fn medicine_adds_its_highest_success_to_toughness_for_the_next_roll() {
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default()).with_healing(
            Healing {
                medicine: Ranged::new(10),
                equipment: Ranged::new(2),
                ..Healing::default()
            },
        );
        // Medicine 12: black 12, white 15 -> 12. Recovery with 8 + 12 = 20: black 17 white 19 -> 19.
        let mut dice = ScriptedDice::new([12, 15, 17, 19]);
        let r = model.recover(
            Side::A,
            WoundCircles::from_wounds(&[18]),
            &mut dice,
            &mut NoLog,
        );
        assert!(dice.finish().is_ok());
        assert_eq!(r.days_to_whole, Some(7));
    }

    // Rule ledger tests (docs/rules/twin-d20.md, "Rule ledger").

    fn ledger_healing(
        interval: i64,
        horizon: i64,
        medicine: i64,
        equipment: i64,
        rolls: i64,
    ) -> Healing {
        Healing {
            interval_days: Ranged::new(interval),
            horizon_days: Ranged::new(horizon),
            medicine: Ranged::new(medicine),
            equipment: Ranged::new(equipment),
            medicine_rolls: Ranged::new(rolls),
        }
    }

    /// One healing timeline on scripted dice; every die must be used.
    fn ledger_recover(
        model: &TwinD20,
        side: Side,
        wounds: &[u32],
        dice: &[u32],
    ) -> (Recovery, String) {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let r = model.recover(
            side,
            WoundCircles::from_wounds(wounds),
            &mut scripted,
            &mut log,
        );
        let story = log.lines.join("\n");
        assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
        assert_eq!(scripted.used(), dice.len(), "dice left over\n{story}");
        (r, story)
    }

    #[test]
    fn the_recovery_roll_is_made_against_toughness() {
        // L18: "Recovery rolls are made using your Toughness."
        let model = ledger_point(
            fighter(0, 0, 8, 0),
            fighter(0, 0, 7, 0),
            Rules::default(),
            ledger_healing(7, 7, 0, 0, 1),
            50,
        );
        // Toughness 8: black 9 fails, white 8 succeeds: 8 lowers the Wound 8 to nothing.
        let (r, _) = ledger_recover(&model, Side::A, &[8], &[9, 8]);
        assert_eq!(r.days_to_whole, Some(7));
        // Toughness 7: the same dice both fail.
        let (r, story) = ledger_recover(&model, Side::B, &[8], &[9, 8]);
        assert_eq!(r.days_to_whole, None);
        assert!(
            story.contains("Recovery roll with 7 fails: no healing"),
            "{story}"
        );
    }

    #[test]
    fn a_failed_recovery_roll_heals_nothing_that_time() {
        // L18: "If the roll fails, you do not heal this time. If the roll succeeds, lower your
        // highest Wound by the result."
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default())
            .with_healing(ledger_healing(7, 14, 0, 0, 1));
        // Week 1: 9 and 12 both above Toughness 8: fails. Week 2: 2, 15 -> 2: the 3, untouched by
        // week 1, is lowered to 1.
        let (r, story) = ledger_recover(&model, Side::A, &[3], &[9, 12, 2, 15]);
        assert_eq!(r.days_to_whole, None);
        crate::log::assert_in_order(
            &story,
            &[
                "day 7: Recovery roll with 8 fails: no healing",
                "day 14: Recovery roll with 8: 2 success; Wound 3 lowered to 1; wounds now [1]",
            ],
        );
    }

    #[test]
    fn recovery_lowers_only_the_highest_wound_heals_those_passed_and_keeps_those_below() {
        // L18: "If the roll succeeds, lower your highest Wound by the result. Any other Wounds
        // along the way are healed."
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default())
            .with_healing(ledger_healing(7, 7, 0, 0, 1));
        // Wounds 2, 9, 12; 5, 12 -> 5: the 12 becomes 7, the 9 on the way heals, the 2 stays.
        let (r, story) = ledger_recover(&model, Side::A, &[2, 9, 12], &[5, 12]);
        assert_eq!(r.days_to_whole, None);
        assert!(
            story.contains("Wound 12 lowered to 7; wounds now [2, 7]"),
            "{story}"
        );
    }

    #[test]
    fn the_highest_of_several_medicine_results_adds_to_toughness() {
        // L24: "add the highest successful Medicine result to your Toughness in your next
        // Recovery roll." (healing.medicine_rolls = 2)
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default())
            .with_healing(ledger_healing(7, 7, 10, 0, 2));
        // Medicine 10: 9, 15 -> 9; then 3, 4 -> 4. The highest, 9, counts (the last would be 4):
        // Recovery with 8 + 9 = 17: 17, 20 -> 17 heals the Wound 17.
        let (r, story) = ledger_recover(&model, Side::A, &[17], &[9, 15, 3, 4, 17, 20]);
        assert_eq!(r.days_to_whole, Some(7));
        assert!(
            story.contains("day 7: Medicine 10 adds 9 to Toughness"),
            "{story}"
        );
    }

    #[test]
    fn a_medicine_result_counts_for_the_next_recovery_roll_only() {
        // L24: "add the highest successful Medicine result to your Toughness in your next
        // Recovery roll."
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default())
            .with_healing(ledger_healing(7, 14, 10, 0, 1));
        // Week 1: Medicine 9, 15 -> 9; Recovery with 17: 5, 20 -> 5: 17 becomes 12.
        // Week 2: Medicine 15, 16 fails; Recovery with 8 (not 17): 9, 12 fail.
        let (r, story) = ledger_recover(&model, Side::A, &[17], &[9, 15, 5, 20, 15, 16, 9, 12]);
        assert_eq!(r.days_to_whole, None);
        crate::log::assert_in_order(
            &story,
            &[
                "day 7: Medicine 10 adds 9 to Toughness",
                "day 7: Recovery roll with 17: 5 success; Wound 17 lowered to 12; wounds now [12]",
                "day 14: Medicine 10 adds 0 to Toughness",
                "day 14: Recovery roll with 8 fails: no healing",
            ],
        );
    }

    #[test]
    fn improvised_tools_lower_the_medicine_value_rolled_against() {
        // L24: "Bonus for better equipment, penalties for improvised tools."
        // Medicine 10 with equipment -3: rolled against 7. 9 and 8 both fail: nothing added,
        // the Recovery roll is with 8: 9, 20 fail.
        let poor = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default())
            .with_healing(ledger_healing(7, 7, 10, -3, 1));
        let (r, story) = ledger_recover(&poor, Side::A, &[10], &[9, 8, 9, 20]);
        assert_eq!(r.days_to_whole, None);
        crate::log::assert_in_order(
            &story,
            &[
                "day 7: Medicine 7 adds 0 to Toughness",
                "day 7: Recovery roll with 8 fails: no healing",
            ],
        );
        // The same dice with decent instruments (equipment 0): 9 succeeds, Recovery with 17: 9.
        let decent = poor.clone().with_healing(ledger_healing(7, 7, 10, 0, 1));
        let (_, story) = ledger_recover(&decent, Side::A, &[10], &[9, 8, 9, 20]);
        assert!(
            story.contains("Recovery roll with 17: 9 success; Wound 10 lowered to 1"),
            "{story}"
        );
    }

    #[test]
    fn the_recovery_rate_sets_the_days_between_rolls() {
        // L18: "Every group needs to agree on the recovery rate. While it can be argued that one
        // roll every month is quite realistic, this is often shortened to once a week or even
        // after each good night's sleep." (healing.interval_days)
        let base = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default());
        // Wound 3; 3, 20 -> 3: whole after the first roll, on the day of the first roll.
        let nightly = base.clone().with_healing(ledger_healing(1, 1, 0, 0, 1));
        assert_eq!(
            ledger_recover(&nightly, Side::A, &[3], &[3, 20])
                .0
                .days_to_whole,
            Some(1)
        );
        let monthly = base.with_healing(ledger_healing(30, 30, 0, 0, 1));
        assert_eq!(
            ledger_recover(&monthly, Side::A, &[3], &[3, 20])
                .0
                .days_to_whole,
            Some(30)
        );
    }
}
