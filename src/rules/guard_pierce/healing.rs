//! The Injury recovery timeline of a survivor, from the text's recovery rules (L55–L64): a
//! recovery roll every `healing.interval_days` on the highest Injury as if it were an Attribute,
//! lowered for that roll by a healer's medical Background success; a result equal to an Injury
//! infects (a new Injury, marked by the usual rules, and no healing; where it lands can kill); a
//! success above Strength does not heal; otherwise the highest Injury drops five rows, healing
//! those on the way.

use super::GuardPierce;
use super::wound_track::{Kind, WoundRows};
use crate::dice::Dice;
use crate::log::Log;
use crate::rules::two_d20::{
    AttributeDice, attribute_roll, highest_row, lower_highest_row, rows_of,
};
use crate::stats::Recovery;

const RECOVERY_DICE: AttributeDice = AttributeDice {
    black: "black d20 (Injury recovery)",
    white: "white d20 (Injury recovery)",
};
const MEDICAL_DICE: AttributeDice = AttributeDice {
    black: "black d20 (medical Background)",
    white: "white d20 (medical Background)",
};

impl GuardPierce {
    /// The Injury recovery timeline of the survivor at place `me` on the roster; `infections`
    /// counts the infections.
    #[inline(never)]
    pub fn recover<D: Dice, L: Log>(
        &self,
        me: usize,
        rows: WoundRows,
        dice: &mut D,
        log: &mut L,
        infections: &mut u64,
    ) -> Recovery {
        self.recover_from(me, rows, 0, (dice, log), infections)
    }

    /// [`GuardPierce::recover`] for a survivor whose recovery has already run `rested` days (a
    /// campaign's rests): its rolls keep their days, and its days to whole count from now.
    #[inline(always)]
    pub fn recover_from<D: Dice, L: Log>(
        &self,
        me: usize,
        mut rows: WoundRows,
        rested: u32,
        (dice, log): (&mut D, &mut L),
        infections: &mut u64,
    ) -> Recovery {
        let f = &self.members[me];
        let interval = self.healing.interval_days.u32();
        let horizon = self.healing.horizon_days.u32();
        let name = &self.roster.fighter_names[me];
        log.say(|| {
            format!(
                "{name} recovers: Strength {}, Injury {:?}, a recovery roll every {interval} days",
                f.strength,
                rows_of(rows.injury)
            )
        });
        let span = (rested, rested + horizon);
        match self.recovery_rolls(me, &mut rows, span, (dice, log), infections) {
            Rolled::Whole(day) => Recovery {
                days_to_whole: Some(day),
                died: false,
                impairment: 0,
            },
            Rolled::Died => Recovery {
                days_to_whole: None,
                died: true,
                impairment: 0,
            },
            Rolled::Wounded => {
                log.say(|| {
                    format!(
                        "{name} still has Injury {:?} at the horizon ({horizon} days)",
                        rows_of(rows.injury)
                    )
                });
                Recovery {
                    days_to_whole: None,
                    died: false,
                    impairment: 0,
                }
            }
        }
    }

    /// The recovery rolls of the survivor at place `me` on the days after `from` up to `to`
    /// (counted from the start of its recovery) that fall on the interval, from the stream the
    /// caller named: whole on a day (counted from `from`), dead of an infection, or still
    /// wounded.
    #[inline(always)]
    pub(super) fn recovery_rolls<D: Dice, L: Log>(
        &self,
        me: usize,
        rows: &mut WoundRows,
        (from, to): (u32, u32),
        (dice, log): (&mut D, &mut L),
        infections: &mut u64,
    ) -> Rolled {
        let f = &self.members[me];
        let track = &f.track;
        let interval = self.healing.interval_days.u32();
        let medical = self.healing.medical.i32();
        let name = &self.roster.fighter_names[me];
        let mut at_day = from - from % interval;
        while at_day + interval <= to && !dice.exhausted() {
            at_day += interval;
            let day = at_day - from;
            let help = if medical > 0 {
                attribute_roll(dice, medical, MEDICAL_DICE)
            } else {
                0
            };
            let highest = highest_row(rows.injury);
            let value = highest as i32 - help as i32;
            let result = attribute_roll(dice, value, RECOVERY_DICE);
            if result > 0 && rows.injury >> result & 1 == 1 {
                *infections += 1;
                let at = rows.mark(Kind::Injury, result, track.top);
                log.say(|| format!("day {day}: recovery roll on {value} (Injury {highest}, medical {help}): {result} equals an Injury: infected, new Injury on row {at}; Injury {:?}", rows_of(rows.injury)));
                // Where the new Injury lands decides: more than 5 rows above the worst penalty
                // row kills; above it the patient is dying, and dies without a healer.
                let died = at >= track.dead_from || (at > track.worst && medical == 0);
                if died {
                    log.say(|| format!("{name} dies of the infection"));
                    return Rolled::Died;
                }
            } else if result > f.strength {
                log.say(|| format!("day {day}: recovery roll on {value}: {result} success above Strength {}: no healing", f.strength));
            } else {
                rows.injury = lower_highest_row(rows.injury, 5);
                log.say(|| format!("day {day}: recovery roll on {value}: {}: Injury {highest} drops five rows; Injury {:?}", if result > 0 { format!("{result}") } else { "fails".to_owned() }, rows_of(rows.injury)));
                if rows.injury == 0 {
                    log.say(|| format!("{name} is whole after {day} days"));
                    return Rolled::Whole(day);
                }
            }
        }
        Rolled::Wounded
    }
}

/// How a run of recovery rolls ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rolled {
    /// Whole on this day (counted from the run's start).
    Whole(u32),
    /// Dead of an infection.
    Died,
    /// Still wounded.
    Wounded,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::guard_pierce::test_support::{
        fighter, ledger_healing, ledger_point, model, rows,
    };
    use crate::rules::guard_pierce::{Healing, Rules};
    use crate::scenario::fields::Ranged;

    fn recover_with(m: &GuardPierce, injury: &[u32], dice: &[u32]) -> (Recovery, u64, Vec<String>) {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let mut infections = 0;
        let r = m.recover(
            0,
            rows(injury, &[]),
            &mut scripted,
            &mut log,
            &mut infections,
        );
        (r, infections, log.lines)
    }

    fn short_horizon(m: GuardPierce, days: i64, medical: i64) -> GuardPierce {
        let healing = Healing {
            horizon_days: Ranged::new(days),
            medical: Ranged::new(medical),
            ..Healing::default()
        };
        GuardPierce::new(m.fighters, m.names, m.rules, healing, m.round_limit)
    }

    #[test]
    fn recovery_infection_when_the_result_equals_an_injury_marks_it_and_does_not_heal() {
        let m = short_horizon(model(fighter(12, 5, 10, 5), fighter(10, 5, 5, 5)), 7, 0);
        // Injuries 8 and 12: roll on 12: 8 and 15: 8 equals the Injury on 8: infected, a new
        // Injury goes to the nearest empty row (7 and 9: the higher, 9).
        let (r, infections, log) = recover_with(&m, &[8, 12], &[8, 15]);
        assert_eq!(infections, 1);
        assert_eq!(r.days_to_whole, None);
        assert!(
            log.iter()
                .any(|l| l.contains("infected, new Injury on row 9; Injury [8, 9, 12]")),
            "{log:?}"
        );
    }

    #[test]
    fn recovery_success_above_strength_does_not_heal_otherwise_the_highest_drops_five() {
        let m = short_horizon(model(fighter(12, 5, 10, 5), fighter(10, 5, 5, 5)), 14, 0);
        // Strength 10, Injury 12: 11 is above Strength: no healing. Then 9: 12 drops to 7.
        let (r, _, log) = recover_with(&m, &[12], &[11, 20, 9, 20]);
        assert_eq!(r.days_to_whole, None);
        assert!(
            log.iter()
                .any(|l| l.contains("11 success above Strength 10: no healing")),
            "{log:?}"
        );
        assert!(
            log.iter()
                .any(|l| l.contains("Injury 12 drops five rows; Injury [7]")),
            "{log:?}"
        );
        // Injuries 3 and 5 heal in one step: 5 drops to 0 and the 3 on the way heals.
        let (r, _, _) = recover_with(&m, &[3, 5], &[20, 20]);
        assert_eq!(r.days_to_whole, Some(7));
    }

    #[test]
    fn a_medical_success_lowers_the_injury_rolled_for_that_roll() {
        let m = short_horizon(model(fighter(12, 5, 10, 5), fighter(10, 5, 5, 5)), 7, 12);
        // Medical 12: 4. Injury 12 rolled as 8: 10 and 9 both fail: neither rule applies: heals five.
        let (_, _, log) = recover_with(&m, &[12], &[4, 20, 10, 9]);
        assert!(
            log.iter()
                .any(|l| l
                    .contains("recovery roll on 8: fails: Injury 12 drops five rows; Injury [7]")),
            "{log:?}"
        );
    }

    #[test]
    fn an_infection_kills_by_where_the_new_injury_lands() {
        // "If the result is equal to an Injury you already have, the wound is infected. Mark the
        // result as a new Injury, as per the usual rules"; "An Injury above the highest wound
        // penalty means the character is dying and, without medical attention, dead in about an
        // hour"; "If an Injury is more than 5 rows above the highest wound penalty, the character
        // is dead." The default sheet: worst penalty row 12, dead from row 18.
        let no_healer = short_horizon(model(fighter(12, 5, 10, 5), fighter(10, 5, 5, 5)), 7, 0);
        // Injuries 3 and 13 (saved from dying after the fight), no healer: roll on 13, 3 and 15:
        // infected, the new Injury on row 4, below the worst row: the patient lives.
        let (r, infections, log) = recover_with(&no_healer, &[3, 13], &[3, 15]);
        assert_eq!(infections, 1);
        assert!(!r.died, "{log:?}");
        assert!(
            log.iter().any(|l| l.contains("new Injury on row 4")),
            "{log:?}"
        );
        // Injuries 12, 13 and 14, roll 13 (and 20): the new Injury on row 15 (11 and 15 are
        // equally near: the higher), above the worst row: dying, dead without a healer.
        let (r, _, log) = recover_with(&no_healer, &[12, 13, 14], &[13, 20]);
        assert!(
            log.iter().any(|l| l.contains("new Injury on row 15")),
            "{log:?}"
        );
        assert!(r.died, "{log:?}");
        // With a healer (medical 5; its roll 20 and 20 fails, so the value stays 14): lives.
        let healer = short_horizon(model(fighter(12, 5, 10, 5), fighter(10, 5, 5, 5)), 7, 5);
        let (r, _, log) = recover_with(&healer, &[12, 13, 14], &[20, 20, 13, 20]);
        assert!(
            log.iter().any(|l| l.contains("new Injury on row 15")),
            "{log:?}"
        );
        assert!(!r.died, "{log:?}");
        // Injuries 16 and 17, roll 17: the new Injury on row 18, more than 5 above the worst:
        // dead, healer or not.
        let (r, _, log) = recover_with(&healer, &[16, 17], &[20, 20, 17, 20]);
        assert!(
            log.iter().any(|l| l.contains("new Injury on row 18")),
            "{log:?}"
        );
        assert!(r.died, "{log:?}");
        let (r, _, log) = recover_with(&no_healer, &[16, 17], &[17, 20]);
        assert!(r.died, "{log:?}");
    }

    // Rule ledger tests (docs/rules/guard-pierce.md, "Rule ledger").

    /// `a`'s Injury recovery timeline; every die must be used.
    fn ledger_recover(m: &GuardPierce, injury: &[u32], dice: &[u32]) -> (Recovery, u64, String) {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let mut infections = 0;
        let r = m.recover(
            0,
            rows(injury, &[]),
            &mut scripted,
            &mut log,
            &mut infections,
        );
        let story = log.lines.join("\n");
        assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
        assert_eq!(scripted.used(), dice.len(), "dice left over\n{story}");
        (r, infections, story)
    }

    #[test]
    fn the_recovery_roll_is_made_on_the_highest_injury() {
        // L57: "Recovery rolls are made using the highest Injury sustained, as if it was an
        // Attribute." L60: "If the result is a "success" higher than your Strength, you do not
        // heal this time."
        let mut a = fighter(14, 5, 15, 5);
        a.strength = 5;
        let m = short_horizon(model(a, fighter(10, 5, 5, 5)), 7, 0);
        // Injuries 3 and 9: rolled on 9: 8 succeeds (on 3 it would fail), and 8 is above
        // Strength 5: no healing.
        let (r, infections, story) = ledger_recover(&m, &[3, 9], &[8, 20]);
        assert_eq!(r.days_to_whole, None);
        assert_eq!(infections, 0);
        assert!(
            story.contains("day 7: recovery roll on 9: 8 success above Strength 5: no healing"),
            "{story}"
        );
    }

    #[test]
    fn a_success_equal_to_strength_heals_five_steps() {
        // L60: "If the result is a "success" higher than your Strength, you do not heal this
        // time." L62: "If neither of the above applies, your highest Injury is lowered five steps."
        let m = short_horizon(model(fighter(14, 5, 15, 5), fighter(10, 5, 5, 5)), 7, 0);
        // Strength 10, Injury 12: 10, 20 -> 10, not higher than 10: 12 drops to 7.
        let (_, _, story) = ledger_recover(&m, &[12], &[10, 20]);
        assert!(
            story.contains("recovery roll on 12: 10: Injury 12 drops five rows; Injury [7]"),
            "{story}"
        );
    }

    #[test]
    fn lowering_five_steps_heals_injuries_on_the_way_and_keeps_those_below_the_landing_row() {
        // L62: "your highest Injury is lowered five steps. Any Injuries along the way are also
        // healed."
        let m = short_horizon(model(fighter(14, 5, 15, 5), fighter(10, 5, 5, 5)), 7, 0);
        // Injuries 2, 6, 10, 12; 5, 20 -> 5 (no Injury on 5, not above Strength 10): 12 drops
        // to 7; the 10 on the way heals; 6 and 2 are below 7 and stay.
        let (_, _, story) = ledger_recover(&m, &[2, 6, 10, 12], &[5, 20]);
        assert!(
            story.contains("Injury 12 drops five rows; Injury [2, 6, 7]"),
            "{story}"
        );
    }

    #[test]
    fn dropping_five_rows_onto_an_injury_merges_with_it() {
        // Design (assumptions, "Dropping onto a marked row"): the lowered Injury merges with the
        // Injury there. L62: "Any Injuries along the way are also healed."
        let m = short_horizon(model(fighter(14, 5, 15, 5), fighter(10, 5, 5, 5)), 7, 0);
        let (r, _, story) = ledger_recover(&m, &[7, 12], &[5, 20]);
        assert_eq!(r.days_to_whole, None);
        assert!(
            story.contains("Injury 12 drops five rows; Injury [7]"),
            "{story}"
        );
    }

    #[test]
    fn the_medical_reduction_holds_for_that_roll_only() {
        // L64: "A successful roll using a suitable medical Background reduces the Injury with its
        // result for this particular roll (not permanently)."
        let mut a = fighter(14, 5, 15, 5);
        a.strength = 5;
        let m = short_horizon(model(a, fighter(10, 5, 5, 5)), 14, 12);
        // Week 1: medical 4, 20 -> 4: Injury 12 rolled as 8: 6, 20 -> 6, above Strength 5.
        // Week 2: medical 20, 20 fails: rolled as 12 again: 9, 20 -> 9, above Strength 5.
        let (r, _, story) = ledger_recover(&m, &[12], &[4, 20, 6, 20, 20, 20, 9, 20]);
        assert_eq!(r.days_to_whole, None);
        crate::log::assert_in_order(
            &story,
            &[
                "day 7: recovery roll on 8: 6 success above Strength 5: no healing",
                "day 14: recovery roll on 12: 9 success above Strength 5: no healing",
            ],
        );
    }

    #[test]
    fn the_recovery_interval_sets_the_days_between_rolls() {
        // L55: "A realistic setting allows an Injury recovery roll every month. In many games this
        // is shortened to once a week or even after each good night's sleep."
        // Injury 3; 2, 20 -> 2 (no Injury there, not above Strength 10): 3 drops five: whole.
        for (interval, day) in [(1, 1), (7, 7), (30, 30)] {
            let m = ledger_point(
                fighter(14, 5, 15, 5),
                fighter(10, 5, 5, 5),
                Rules::default(),
                ledger_healing(interval, interval, 0),
                40,
            );
            let (r, _, _) = ledger_recover(&m, &[3], &[2, 20]);
            assert_eq!(r.days_to_whole, Some(day), "every {interval} days");
        }
    }
}
