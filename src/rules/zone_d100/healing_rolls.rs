//! The HEALING SEQUENCE day by day from the fight: the treatment on its day (steps 4 and 5),
//! grim wounds' daily Shock Rolls, step 6 HEALING (a Healing Roll for each injury every five
//! days against HB × HR, Cauterisation's CF on 3, 5, 8 or 0; blood regeneration every ten
//! days), step 7 INFECTION (a CF infects; a daily Infection Course Roll, healing stopped
//! meanwhile, the healer's bonus, infection weakness), the coma's Course Roll every ten days,
//! and step 8 IMPAIRMENT (permanent impairment by the days to heal to Minor).

use super::healing::{Cause, Healing, Timeline, hr_step, infection_weakness};
use super::injury::ShockState;
use super::skill::{SuccessLevel, Test};
use crate::dice::Dice;
use crate::log::Log;

impl<D: Dice, L: Log, S: Fn(usize) -> i32> Timeline<'_, D, L, S> {
    /// Day by day from the fight: coma Course Rolls and blood regeneration from the start; the
    /// treatment on its day (steps 4 and 5); then grim wounds' daily Shock Rolls, infection,
    /// and Healing Rolls every five days from each injury (the first after the treatment day);
    /// until whole, dead or the horizon. Step 8 at the end. In line, so that the wounds'
    /// count is a constant in each of `heal_wounds`' copies.
    ///
    /// A campaign's rest ([`super::healing::rest`]) runs it from the day of its fight
    /// (`since`), treating only the wounds not treated before (`untreated`) while the others
    /// heal on, and pauses at the rest's last day (`stop`, not `last`). Returns whether the
    /// treatment day came.
    #[inline(always)]
    pub(super) fn heal_until_whole(
        &mut self,
        wounds: &mut [Healing],
        treated_on: u32,
    ) -> Result<bool, Cause> {
        let mut treated = false;
        self.day = self.since;
        loop {
            if !treated && self.day >= treated_on {
                let day = self.day;
                treated = true;
                let untreated = self.untreated;
                for (i, w) in wounds.iter_mut().enumerate() {
                    if untreated >> i & 1 != 0 {
                        self.treat(i, w)?;
                    }
                }
                for (_, w) in (wounds.iter_mut().enumerate())
                    .filter(|(i, w)| w.live & (untreated >> i & 1 != 0))
                {
                    let mut next = w.born + self.period();
                    while next <= day {
                        next += self.period();
                    }
                    w.next_roll = next;
                }
            }
            // The quiet days, on a loop of their own, until one of them brings an event only
            // this loop handles (see `quiet_days`).
            if treated
                && self.infection.is_none()
                && self.coma.is_none()
                && self.shock == ShockState::None
                && self.quiet_days(wounds)?
            {
                break;
            }
            let day = self.day;
            // Nothing changes the wounds before today's Healing Rolls but an infection, which
            // stops those rolls.
            let (live, grim, next_healing) = survey(wounds);
            let daily = grim || self.infection.is_some();
            let mut next = next_healing;
            if treated && !live && self.bp == 0 && self.coma.is_none() {
                self.whole();
                break;
            }
            // The next day anything happens: every day while an infection or a grim wound
            // lasts, otherwise the treatment, the next Healing Roll, blood regeneration or coma
            // Course Roll.
            if self.bp > 0 {
                next = next.min(self.next_blood);
            }
            if let Some(c) = self.coma {
                next = next.min(c.next_roll);
            }
            if !treated {
                next = next.min(treated_on);
            }
            let next = if daily || next == u32::MAX {
                day + 1
            } else {
                next.max(day + 1)
            };
            if next > self.stop || self.dice.exhausted() {
                self.horizon();
                break;
            }
            self.day = next;
            let day = next;
            // Grim wounds: a Shock Roll each day while Grievous with CF treatment.
            if grim {
                for w in wounds.iter().filter(|w| w.shocks_daily()) {
                    self.grim_shock(w.location_shock, w.il)?;
                }
            }
            self.settle_shock()?;
            // Infection: a Course Roll each day; Healing Rolls of all injuries cease meanwhile.
            let infected = if let Some((hr, bonus)) = self.infection {
                let eml = self.patient.healing_base * hr + bonus - self.weakness();
                let t = Test::roll(self.dice, eml, "d100 (Infection Course Roll)");
                let eml = t.eml;
                let hr = hr + hr_step(t.level);
                self.log.say(|| {
                    format!(
                        "day {day}: Infection Course Roll {} vs EML{eml}: {}: HR{hr}",
                        t.roll,
                        t.level.abbreviation()
                    )
                });
                if hr <= 0 {
                    self.log.say(|| "dies of the infection".to_owned());
                    return Err(self.dies(Cause::Infection));
                }
                if hr >= 6 {
                    self.infection = None;
                    // Healing Rolls resume a period later.
                    for w in wounds.iter_mut().filter(|w| w.live) {
                        w.next_roll = day + self.period();
                    }
                } else {
                    self.infection = Some((hr, bonus));
                }
                true
            } else {
                false
            };
            // Blood regeneration every ten days (Endurance, with only weakness other than
            // anaemia); an infection does not stop it.
            if self.bp > 0 && day >= self.next_blood {
                self.regenerate_blood();
            }
            // Healing Rolls only on a day one is due (the earliest due is today at the latest).
            if !infected && next_healing <= day {
                self.healing_rolls(wounds)?;
            }
            // Coma: a Course Roll every ten days (never below HR1); HR6 wakes.
            if let Some(mut c) = self.coma.filter(|c| c.next_roll == day) {
                let eml = self.patient.healing_base * c.hr
                    - if self.care.shelter { 0 } else { 20 }
                    - self.weakness();
                let t = Test::roll(self.dice, eml, "d100 (coma Course Roll)");
                let eml = t.eml;
                c.hr = (c.hr + hr_step(t.level)).max(1);
                c.next_roll = day + 10;
                let hr = c.hr;
                self.log.say(|| {
                    format!(
                        "day {day}: coma Course Roll {} vs EML{eml}: {}: HR{hr}",
                        t.roll,
                        t.level.abbreviation()
                    )
                });
                if c.hr >= 6 {
                    self.out.coma_days = day - c.started;
                    self.coma = None;
                    self.log.say(|| format!("day {day}: wakes from the coma"));
                } else {
                    self.coma = Some(c);
                }
            }
        }
        if !self.last {
            return Ok(treated);
        }
        // Step 8: permanent impairment: 5 per 20 days to heal to Minor, up to 25. Each zone's
        // entry takes a wound's by a select, not with the wound's zone as an index, so the
        // entries stay in registers: their sum read back from memory just written a zone at a
        // time would wait for those writes. (No entry is below 0.)
        let mut permanent = self.out.permanent;
        for w in wounds.iter().filter(|w| w.lasting) {
            let lasting = w.permanent_impairment(self.day);
            for (zone, entry) in permanent.iter_mut().enumerate() {
                let here = if zone == usize::from(w.zone) {
                    lasting
                } else {
                    0
                };
                *entry = (*entry).max(here);
            }
        }
        self.out.permanent = permanent;
        self.out.recovery.impairment = permanent.iter().sum::<i32>().max(0) as u32;
        Ok(treated)
    }

    /// The days after the treatment while no infection, coma, grim wound or pending shock
    /// lasts: nothing happens on them but Healing Rolls and blood regeneration, in the order
    /// and on the days the loop of `heal_until_whole` would roll them, without its daily
    /// questions. Returns `true` when the timeline ended (whole or at the horizon), `false`
    /// when the next day is one for that loop (an infection, a coma or a grim wound began).
    #[inline(always)]
    fn quiet_days(&mut self, wounds: &mut [Healing]) -> Result<bool, Cause> {
        loop {
            let (live, grim, next_healing) = survey(wounds);
            if grim | self.infection.is_some() | self.coma.is_some() {
                return Ok(false);
            }
            let day = self.day;
            if !live && self.bp == 0 {
                self.whole();
                return Ok(true);
            }
            let mut next = next_healing;
            if self.bp > 0 {
                next = next.min(self.next_blood);
            }
            let next = if next == u32::MAX {
                day + 1
            } else {
                next.max(day + 1)
            };
            if next > self.stop || self.dice.exhausted() {
                self.horizon();
                return Ok(true);
            }
            self.day = next;
            if self.bp > 0 && next >= self.next_blood {
                self.regenerate_blood();
            }
            if next_healing <= next {
                self.healing_rolls(wounds)?;
            }
        }
    }

    /// Whole today: the days to whole.
    fn whole(&mut self) {
        let day = self.day - self.since;
        self.out.recovery.days_to_whole = Some(day);
        self.log.say(|| format!("whole after {day} days"));
    }

    /// Not whole at the horizon; a coma still running there counts its days up to it. A
    /// rest's timeline only pauses at its last day.
    fn horizon(&mut self) {
        if !self.last {
            return;
        }
        let horizon = self.stop;
        if let Some(c) = self.coma {
            self.out.comatose_at_horizon = true;
            self.out.coma_days = horizon - c.started;
        }
        self.log
            .say(|| format!("not whole at the horizon ({} days)", horizon - self.since));
    }

    /// Blood regeneration, due today: Endurance, with only weakness other than anaemia; a CF
    /// skips the next period's roll too.
    fn regenerate_blood(&mut self) {
        let day = self.day;
        self.next_blood = day + 10;
        if self.blood_skip {
            self.blood_skip = false;
            return;
        }
        let weakness = self.infection.map_or(0, |(hr, _)| infection_weakness(hr));
        let t = Test::roll(
            self.dice,
            self.patient.endurance_ml - weakness,
            "d100 (blood regeneration: Endurance)",
        );
        // Blood Loss Points regained by the level (CF, F: none; S 1; CS 2), read from a table,
        // not matched: the level is the dice's. A CF skips the next roll (the skip was clear
        // to reach this roll).
        const REGAINED: [u32; 4] = {
            let mut regained = [0; 4];
            regained[SuccessLevel::Success as usize] = 1;
            regained[SuccessLevel::CriticalSuccess as usize] = 2;
            regained
        };
        self.bp = self.bp.saturating_sub(REGAINED[t.level as usize]);
        self.blood_skip = t.level == SuccessLevel::CriticalFailure;
        let bp = self.bp;
        self.log.say(|| {
            format!(
                "day {day}: blood regeneration {} vs EML{}: {}: {bp} BP left",
                t.roll,
                t.eml,
                t.level.abbreviation()
            )
        });
    }

    /// The Healing Rolls due today, against HB × HR: S −1 IL, CS −2; a CF (with Cauterisation
    /// a failure ending 3, 5, 8 or 0) infects an injury whose treatment left the chance.
    #[inline(always)]
    fn healing_rolls(&mut self, wounds: &mut [Healing]) -> Result<(), Cause> {
        let day = self.day;
        for (i, w) in wounds.iter_mut().enumerate() {
            if !w.live | (w.next_roll != day) {
                continue;
            }
            let eml = self.patient.healing_base * w.hr;
            let mut t = Test::roll(self.dice, eml, "d100 (Healing Roll)");
            let eml = t.eml;
            if w.cauterised && !t.level.is_success() && matches!(t.roll % 10, 3 | 5 | 8 | 0) {
                t.level = SuccessLevel::CriticalFailure;
            }
            let step = match t.level {
                SuccessLevel::CriticalSuccess => 2,
                SuccessLevel::Success => 1,
                _ => 0,
            };
            w.il -= step;
            self.log.say(|| {
                format!(
                    "day {day}: Healing Roll {} vs EML{eml}: {}: IL{}",
                    t.roll,
                    t.level.abbreviation(),
                    w.il.max(0)
                )
            });
            // Selects, not branches: whether a roll healed the wound is the dice's.
            w.minor_day = w.minor_day.min(if w.il <= 1 { day } else { u32::MAX });
            w.live = w.il > 0;
            // A healed wound's next roll is never read: with the fixed period it is set anyway,
            // so only a random period (its d3 rolled while the wound heals) waits on the roll.
            if w.live | !self.care.random_period {
                w.next_roll = day + self.period();
            }
            if (t.level == SuccessLevel::CriticalFailure) & w.infection_chance {
                self.out.infected = true;
                self.log
                    .say(|| format!("day {day}: the injury is infected"));
                if let Some(new) = self.amputate_infected(i, w)? {
                    self.log
                        .say(|| format!("day {day}: the amputation defeats the infection"));
                    // The amputated location's days to Minor start over with its new wound.
                    *w = new;
                    continue;
                }
                // An attending healer's Physician test: +5 a star to the Course Rolls.
                let bonus = self.physician_bonus("d100 (Physician: infection care)");
                self.infection = Some(((w.hr + 1).min(5), bonus));
                self.log.say(|| format!("day {day}: healing stops"));
                break;
            }
        }
        Ok(())
    }
}

/// One pass over the wounds, without a branch on any of them: any still healing, any grim (a
/// Shock Roll every day), and the day of the next Healing Roll.
#[inline(always)]
fn survey(wounds: &[Healing]) -> (bool, bool, u32) {
    let mut live = false;
    let mut grim = false;
    let mut next_healing = u32::MAX;
    for w in wounds {
        live |= w.live;
        grim |= w.shocks_daily();
        // A healed wound's roll is never due: its day is ORed up to u32::MAX.
        next_healing = next_healing.min(w.next_roll | u32::from(!w.live).wrapping_neg());
    }
    (live, grim, next_healing)
}

#[cfg(test)]
mod tests {
    use crate::log::assert_in_order as in_order;
    use crate::rules::zone_d100::body::Location;
    use crate::rules::zone_d100::healing::tests::{care, injury, run};
    use crate::rules::zone_d100::injury::Aspect;
    use crate::rules::zone_d100::melee::State;

    #[test]
    fn treatment_and_healing_infection_example_s2e_abdomen_whole_after_21_days() {
        let mut state = State::default();
        state
            .injuries
            .add(injury(Location::Abdomen, Aspect::Edge, 2, false));
        // Treatment: Edge S, Clean & Dress +10: Physician ML50: EML60: 71 F: HR4 with the
        // chance of infection. Day 5: 62 F (EML52). Day 10: 24 S: M1. Day 15: 95 CF: infected;
        // the healer's Physician test 99 (no bonus). Day 16: Infection Course Roll EML65 (HR5):
        // 42 S: HR6, defeated. Day 21: 42 S: healed.
        let (out, story) = run(&care(50), &state, &[71, 62, 24, 95, 99, 42, 42]);
        in_order(
            &story,
            &[
                "Treatment Roll 71 vs EML60: F",
                "day 5: Healing Roll 62 vs EML52: F: IL2",
                "day 10: Healing Roll 24 vs EML52: S: IL1",
                "day 15: Healing Roll 95 vs EML52: CF: IL1",
                "day 15: the injury is infected",
                "day 16: Infection Course Roll 42 vs EML65: S: HR6",
                "day 21: Healing Roll 42 vs EML52: S: IL0",
                "whole after 21 days",
            ],
        );
        assert_eq!(out.recovery.days_to_whole, Some(21));
        assert!(out.infected);
    }

    #[test]
    fn impairment_example_g4e_shoulder_hr3_takes_25_days_to_minor_for_5_permanent() {
        let mut state = State::default();
        state
            .injuries
            .add(injury(Location::Shoulder, Aspect::Edge, 4, false));
        // Surgery, ML40 + 0: 41 F: HR3 with infection and impairment. HB13 x 3 = 39: day 5 61 F,
        // day 10 62 F, day 15 21 S (S3), day 20 22 S (S2), day 25 23 S (M1), day 30 24 S: healed.
        // The failed surgery opens a Bleeder: the healer's Blood Stoppage Roll 10 (CS) stops it.
        let (out, story) = run(&care(40), &state, &[41, 10, 61, 62, 21, 22, 23, 24]);
        in_order(
            &story,
            &[
                "Treatment Roll 41 vs EML40: F",
                "the treatment opens a new Bleeder",
                "Blood Stoppage Roll 10 vs EML40: CS",
                "day 15: Healing Roll 21 vs EML39: S: IL3",
                "day 25: Healing Roll 23 vs EML39: S: IL1",
                "whole after 30 days",
            ],
        );
        assert_eq!(out.permanent, [0, 0, 5, 0], "5 permanent to the arm zone");
        assert_eq!(out.recovery.impairment, 5);
    }
}
