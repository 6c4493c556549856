//! The HEALING SEQUENCE's step 2 EXTENDED SHOCK and step 3 COMA, with the Shock Reroll (INJURY
//! SEQUENCE step 4) that leads to them: a failed reroll of an INC or UNC state is Extended
//! Shock (HR4 or HR5, a coma on a CF while UNC), a Course Roll every four hours against
//! HB × HR with the best healer's Physician bonus, until HR 0 (death) or 6; a coma's HR from
//! the injury that induced it.

use super::healing::{Cause, Coma, Timeline, hr_step};
use super::injury::ShockState;
use super::skill::{SuccessLevel, Test};
use crate::dice::Dice;
use crate::log::Log;

impl<D: Dice, L: Log, S: Fn(usize) -> i32> Timeline<'_, D, L, S> {
    /// The Shock Reroll of an INC or UNC state (Shock ML − 20 − fatigue): CF Extended Shock
    /// HR4 (and a coma when UNC), F Extended Shock HR5, S stunned (which wears off), CS
    /// recovered; a STN state simply wears off. Returns the Extended Shock HR, if any; in
    /// Extended Shock the state is kept.
    pub(super) fn reroll(&mut self) -> Option<i32> {
        let state = self.shock;
        self.shock = ShockState::None;
        if !matches!(state, ShockState::Incapacitated | ShockState::Unconscious) {
            return None;
        }
        let (t, r) = super::injury::shock_reroll(
            self.dice,
            self.patient.shock_ml - self.fatigue(),
            self.care.reroll_penalty,
            state,
        );
        let day = self.day;
        self.log.say(|| {
            format!(
                "day {day}: Shock Reroll ({}) {} vs EML{}: {}",
                state.abbreviation(),
                t.roll,
                t.eml,
                t.level.abbreviation()
            )
        });
        match r {
            super::injury::Reroll::Extended(e) => {
                self.shock = state;
                if e.coma {
                    self.fall_into_coma();
                }
                Some(i32::from(e.hr))
            }
            super::injury::Reroll::Stunned | super::injury::Reroll::Recovered => None,
        }
    }

    /// A shock state once its cause is over: the Shock Reroll, then any Extended Shock to its
    /// end. Returns the hours of Extended Shock, or the death.
    pub(super) fn settle_shock(&mut self) -> Result<u32, Cause> {
        let hours = match self.reroll() {
            Some(hr) => {
                let state = self.shock;
                self.extended_shock(hr, state, (self.day - self.since) * 24 * 60)?
            }
            None => 0,
        };
        self.shock = ShockState::None;
        Ok(hours)
    }

    /// Step 3: a coma from a CF Shock Reroll while UNC: HR = 12 − Location Shock − Injury
    /// Level of the injury that induced it (at least 1); a running coma goes on.
    pub(super) fn fall_into_coma(&mut self) {
        if self.coma.is_some() {
            return;
        }
        let hr = (12 - self.induced.0 - self.induced.1).max(1);
        let day = self.day;
        self.log
            .say(|| format!("day {day}: lapses into a coma, HR{hr}"));
        self.out.coma = true;
        self.coma = Some(Coma {
            hr,
            started: day,
            next_roll: day + 10,
        });
    }

    /// Step 2: Extended Shock, a Course Roll every four hours against HB × HR − fatigue + the
    /// best healer's bonus once a healer is there, until HR 0 (death) or 6 (recovered).
    /// `start` is the minute it begins. Returns the hours it took.
    pub(super) fn extended_shock(
        &mut self,
        mut hr: i32,
        state: ShockState,
        start: u32,
    ) -> Result<u32, Cause> {
        let day = self.day;
        self.log.say(|| {
            format!(
                "day {day}: Extended Shock ({}) HR{hr}",
                state.abbreviation()
            )
        });
        let mut hours = 0;
        while (1..6).contains(&hr) {
            hours += 4;
            let attended = self.healer_from.is_some_and(|h| start + 60 * hours >= h);
            let bonus = if attended { self.extended_care() } else { 0 };
            let eml = self.patient.healing_base * hr - self.fatigue() + bonus;
            let t = Test::roll(self.dice, eml, "d100 (Extended Shock Course Roll)");
            let eml = t.eml;
            hr += hr_step(t.level);
            self.log.say(|| {
                format!(
                    "hour {hours}: Extended Shock Course Roll {} vs EML{eml}: {}: HR{hr}",
                    t.roll,
                    t.level.abbreviation()
                )
            });
            if self.dice.exhausted() {
                break;
            }
        }
        if hr <= 0 {
            self.log.say(|| "dies in Extended Shock".to_owned());
            return Err(self.dies(Cause::ExtendedShock));
        }
        Ok(hours)
    }

    /// The healers' bonus to Extended Shock Course Rolls: 5 a star of each healer's Physician
    /// test, the best of them, tested once per patient.
    fn extended_care(&mut self) -> i32 {
        match self.extended_bonus {
            Some(b) => b,
            None => {
                let b = self.physician_bonus("d100 (Physician: Extended Shock care)");
                self.extended_bonus = Some(b);
                b
            }
        }
    }

    /// The best bonus of the attending healers' Physician tests, one each: 5 a star (S 5,
    /// CS 10).
    pub(super) fn physician_bonus(&mut self, label: &'static str) -> i32 {
        let care = self.care;
        let dice = &mut *self.dice;
        care.healers
            .physicians()
            .iter()
            .filter(|&&ml| ml > 0 && care.help_minutes.is_some())
            .map(|&ml| match Test::roll(dice, ml, label).level {
                SuccessLevel::CriticalSuccess => 10,
                SuccessLevel::Success => 5,
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    }
}
