//! The time after the fight for a wounded survivor: the deterioration of the text's "Wound
//! Levels" list ("5) Critical: ... Physique checks every hour; on failure, drop to Terminal.",
//! "6) Terminal: ... Physique checks every minute; on failure, drop to Mortal.", "7) Mortal:
//! Die") until help arrives ("Adam then crawls away to look for help. If he doesn't find it, he
//! may still die", `healing.help_minutes`), then a healing check every `healing.days_per_check`
//! days that heals a level on success (our design: the text says nothing of healing).

use super::WoundLevels;
use crate::dice::Dice;
use crate::log::Log;
use crate::stats::Recovery;

impl WoundLevels {
    /// The time after the fight for the wounded survivor at place `me` on the roster:
    /// deterioration until help, then healing.
    pub fn aftermath<D: Dice, L: Log>(
        &self,
        me: usize,
        mut damage: u32,
        dice: &mut D,
        log: &mut L,
        terminal: &mut bool,
    ) -> Recovery {
        if self.until_help(me, &mut damage, (dice, log), terminal) {
            return Recovery {
                days_to_whole: None,
                died: true,
                impairment: 0,
            };
        }
        self.heal_from(me, damage, 0, (dice, log))
    }

    /// The deterioration of the text's levels 5 and 6 until help arrives: true when the
    /// survivor at place `me` dies before it does; `terminal` is set when it reaches Terminal.
    pub(super) fn until_help<D: Dice, L: Log>(
        &self,
        me: usize,
        damage: &mut u32,
        (dice, log): (&mut D, &mut L),
        terminal: &mut bool,
    ) -> bool {
        let h = &self.healing;
        let help = h.help_minutes.u32();
        let name = &self.roster.fighter_names[me];
        let mut minute = 0u32;
        loop {
            let level = Self::level(*damage);
            let step = match level {
                5 => h.critical_check_minutes.u32(),
                6 => h.terminal_check_minutes.u32(),
                _ => break,
            };
            *terminal |= level == 6;
            if minute + step > help || dice.exhausted() {
                break;
            }
            minute += step;
            let (ok, total) = self.physique_check(me, *damage, dice, "dF (Physique check)");
            log.say(|| {
                format!(
                    "minute {minute}: {name} at level {level}: Physique check {total}: {}",
                    if ok { "holds" } else { "worsens" }
                )
            });
            if !ok {
                *damage = (*damage).max(level) + 1;
                if Self::level(*damage) >= 7 {
                    log.say(|| format!("{name} dies before help arrives"));
                    return true;
                }
            }
        }
        log.say(|| {
            format!(
                "{name} is stabilized at level {} and heals",
                Self::level(*damage)
            )
        });
        false
    }

    /// The healing of a stabilized survivor whose healing has run `rested` days already: a
    /// healing check every `healing.days_per_check` days to the horizon; its days to whole
    /// count from now.
    pub(super) fn heal_from<D: Dice, L: Log>(
        &self,
        me: usize,
        mut damage: u32,
        rested: u32,
        (dice, log): (&mut D, &mut L),
    ) -> Recovery {
        let span = (rested, rested + self.healing.horizon_days.u32());
        Recovery {
            days_to_whole: self.healing_checks(me, &mut damage, span, (dice, log)),
            died: false,
            impairment: 0,
        }
    }

    /// The healing checks of the survivor at place `me` on the days after `from` up to `to`
    /// (counted from the start of its healing) that fall on `healing.days_per_check`: the day
    /// (counted from `from`) on which it is whole, or `None` while wounded.
    pub(super) fn healing_checks<D: Dice, L: Log>(
        &self,
        me: usize,
        damage: &mut u32,
        (from, to): (u32, u32),
        (dice, log): (&mut D, &mut L),
    ) -> Option<u32> {
        let every = self.healing.days_per_check.u32();
        let mut at = from - from % every;
        while at + every <= to && !dice.exhausted() {
            at += every;
            let day = at - from;
            let (ok, total) = self.physique_check(me, *damage, dice, "dF (healing check)");
            *damage -= u32::from(ok);
            log.say(|| {
                format!(
                    "day {day}: healing check {total}: {}; damage {damage}",
                    if ok { "heals a level" } else { "no healing" }
                )
            });
            if *damage == 0 {
                return Some(day);
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::NoLog;
    use crate::rules::wound_levels::test_support::{bob_and_adam, fighter, script};
    use crate::rules::wound_levels::{Healing, Rules, WeaponKind};
    use crate::scenario::fields::Ranged;

    #[test]
    fn critical_checks_every_hour_and_terminal_every_minute_until_help() {
        let healing = Healing {
            help_minutes: Ranged::new(120),
            horizon_days: Ranged::new(1),
            ..Healing::default()
        };
        let model = bob_and_adam(healing);
        // Critical (5): hour 1 fails (-3 + 3 - 3 < 1): Terminal. Minute 61: fails: Mortal: dead.
        let mut terminal = false;
        let r = model.aftermath(1, 5, &mut script(&[-3, -3]), &mut NoLog, &mut terminal);
        assert!(r.died && terminal);
        // Hours 1 and 2 hold (1 + 3 - 3 = 1): help arrives at 120 minutes: stabilized.
        let mut terminal = false;
        let mut dice = script(&[1, 1]);
        let r = model.aftermath(1, 5, &mut dice, &mut NoLog, &mut terminal);
        assert!(!r.died && !terminal);
        assert!(dice.finish().is_ok());
        assert_eq!(dice.used(), 8, "two hourly checks of four dice");
    }

    #[test]
    fn stabilized_wounds_heal_a_level_per_successful_check() {
        let healing = Healing {
            help_minutes: Ranged::new(0),
            ..Healing::default()
        };
        let model = bob_and_adam(healing);
        // Damage 2 (penalty 1): week 1 holds (0 + 3 - 1 = 2 >= 1): 1 left; week 2 fails
        // (-3 + 3 - 0 = 0); week 3 heals: whole after 21 days.
        let r = model.aftermath(0, 2, &mut script(&[0, -3, 1]), &mut NoLog, &mut false);
        assert_eq!(r.days_to_whole, Some(21));
    }

    #[test]
    fn terminal_checks_physique_every_minute_and_a_failure_drops_to_mortal() {
        // L30: "6) Terminal: ... Physique checks every minute; on failure, drop to Mortal."
        // L31: "7) Mortal: Die ..."
        let healing = Healing {
            help_minutes: Ranged::new(60),
            horizon_days: Ranged::new(1),
            ..Healing::default()
        };
        let model = WoundLevels::new(
            [fighter(WeaponKind::Melee, 3); 2],
            ["a".into(), "b".into()],
            Rules::default(),
            healing,
            1,
        );
        // Minutes 1 and 2 hold (2 + 3 - 3 = 2); minute 3 fails (-4 + 3 - 3): Mortal: dead,
        // long before the hour when help comes (an hourly clock would check once and hold).
        let mut dice = script(&[2, 2, -4]);
        let mut terminal = false;
        let r = model.aftermath(1, 6, &mut dice, &mut NoLog, &mut terminal);
        assert!(dice.finish().is_ok());
        assert_eq!(dice.used(), 12, "three checks of four dice");
        assert!(r.died && terminal);
    }
}
