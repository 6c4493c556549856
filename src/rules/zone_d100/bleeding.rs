//! The HEALING SEQUENCE's step 1 BLEEDING: five-minute periods of Blood Stoppage Rolls
//! (Staunch or Cauterisation, a tourniquet on a limb, −10 a treated bleeder beyond one, the F
//! bonus) and Blood Loss Advance Rolls (Strength: CF 3, F 2, S 1, CS 0 Blood Loss Points), each
//! Blood Loss Point checking off a box of the SHOCK STATE table; and a Bleeder a treatment opens
//! (surgery, extraction, amputation), staunched at once.

use super::body::Zone;
use super::healing::{Cause, MAX, Timeline};
use super::impairment::zone_of_location;
use super::injury::ShockState;
use super::skill::{SuccessLevel, Test};
use crate::dice::Dice;
use crate::log::Log;

const fn blood_box(bp: usize) -> ShockState {
    match bp {
        0 => ShockState::None,
        1 => ShockState::Stunned,
        2 => ShockState::Incapacitated,
        3 => ShockState::Unconscious,
        _ => ShockState::Killed,
    }
}

/// The shock state after checking off `points` boxes (0 to 3) beyond the `bp` already checked
/// (0 to 3; a fourth kills), each box's state stacked in turn on the state before:
/// `[state][bp][points]`. Built at compile time from the stacking rule; read, not looped,
/// because the points come from the dice. Stacking never lowers a state, so the state rose
/// at some box exactly when the last one is above the first.
const AFTER_BLOOD_LOSS: [[[ShockState; 4]; 4]; 5] = {
    let mut table = [[[ShockState::None; 4]; 4]; 5];
    let mut state = 0;
    while state < 5 {
        let mut bp = 0;
        while bp < 4 {
            let mut points = 0;
            while points < 4 {
                let mut after = ShockState::ALL[state];
                let mut lost = 1;
                while lost <= points {
                    after = after.stack(blood_box(bp + lost));
                    lost += 1;
                }
                table[state][bp][points] = after;
                points += 1;
            }
            bp += 1;
        }
        state += 1;
    }
    table
};

impl<D: Dice, L: Log, S: Fn(usize) -> i32> Timeline<'_, D, L, S> {
    /// Checks off one box of the SHOCK STATE table a Blood Loss Point: the patient suffers
    /// its state (stacking), induced by bleeder `i`.
    fn lose_blood(&mut self, points: u32, i: usize, induced_by: Option<(i32, i32)>) {
        debug_assert!(self.bp < 4 && points < 4, "a fourth Blood Loss Point kills");
        // Selects, not branches: the points come from the dice.
        // "Every ten days after suffering the blood loss".
        let first = (points > 0) & (self.bp == 0);
        self.next_blood = if first {
            self.day + 10
        } else {
            self.next_blood
        };
        self.blood_skip &= !first;
        let before = self.shock;
        self.shock =
            AFTER_BLOOD_LOSS[before as usize][self.bp.min(3) as usize][points.min(3) as usize];
        self.bp += points;
        if self.shock > before {
            self.induced = induced_by.unwrap_or_else(|| self.injury_shock(i));
        }
    }

    /// Step 1: five-minute periods from `start` until no injury in `bleeding` bleeds: a Blood
    /// Stoppage Roll for each bleeder once a healer is there (after `healer_from` minutes), then
    /// a Blood Loss Advance Roll for each. A Shock Reroll due at minute `reroll_at` (an UNC's,
    /// ten minutes after its Shock roll) is made after that period's rolls. `induced_by`
    /// stands for the bleeders' own Location Shock and Injury Level (an amputation's new
    /// wound). Returns the minute bleeding ended, or the death.
    pub(super) fn bleed(
        &mut self,
        bleeding: &mut [bool; MAX],
        start: u32,
        healer_from: Option<u32>,
        reroll_at: Option<u32>,
        induced_by: Option<(i32, i32)>,
    ) -> Result<u32, Cause> {
        let care = self.care;
        // The Blood Stoppage Roll's EML before the tourniquet, the bleeders' penalty and the F
        // bonus: the same for every roll.
        let staunch_ml = care.best_ml() + if care.cauterise { 30 } else { 0 };
        let tourniquet = if care.tourniquet { 20 } else { 0 };
        let mut f_bonus = [0; MAX];
        let mut minute = start;
        let n = self.injuries.len().min(MAX);
        let mut treated = bleeding[..n].iter().filter(|&&b| b).count() as i32;
        while treated > 0 {
            minute += 5;
            if minute > start + 24 * 60 {
                // Only CS advance rolls for a day: the bleeding is taken to have stopped.
                break;
            }
            let healer = healer_from.is_some_and(|h| minute > h);
            // "a cumulative –10 penalty to all tests per treated bleeder beyond one": the
            // bleeders of this period, counted before any stops.
            let penalty = 10 * (treated - 1);
            for i in 0..n {
                if !bleeding[i] {
                    continue;
                }
                let mut stop_after = false;
                if healer {
                    let limb = self.injuries.get(i).is_some_and(|x| {
                        matches!(zone_of_location(x.location), Zone::Arm | Zone::Leg)
                    });
                    let eml = staunch_ml + tourniquet * i32::from(limb) - penalty + f_bonus[i];
                    let level = self.blood_stoppage_roll(eml, minute);
                    // Selects where the dice decide, one branch for a CS: an F gives the next
                    // Staunch roll (only that one) +10, an S stops the bleeding after this
                    // period's advance roll, a CS at once.
                    f_bonus[i] = if (level == SuccessLevel::Failure) & !care.cauterise {
                        10
                    } else {
                        0
                    };
                    stop_after = level == SuccessLevel::Success;
                    if level == SuccessLevel::CriticalSuccess {
                        bleeding[i] = false;
                        treated -= 1;
                        self.cauterised[i] |= care.cauterise;
                        continue;
                    }
                }
                self.blood_loss_advance_roll(i, minute, induced_by)?;
                if stop_after {
                    bleeding[i] = false;
                    treated -= 1;
                    self.cauterised[i] |= care.cauterise;
                }
            }
            if reroll_at == Some(minute) && self.extended.is_none() {
                self.extended = self.reroll();
            }
        }
        Ok(minute)
    }

    /// A Blood Stoppage Roll (Physician: Staunch or Cauterisation) at `eml` in the period ending
    /// at `minute`: its level.
    #[inline(always)]
    fn blood_stoppage_roll(&mut self, eml: i32, minute: u32) -> SuccessLevel {
        let t = Test::roll(self.dice, eml, "d100 (Blood Stoppage Roll: Physician)");
        let eml = t.eml;
        self.log.say(|| {
            format!(
                "minute {minute}: Blood Stoppage Roll {} vs EML{eml}: {}",
                t.roll,
                t.level.abbreviation()
            )
        });
        t.level
    }

    /// A Blood Loss Advance Roll for bleeder `i` in the period ending at `minute`: Strength,
    /// excluding all fatigue and impairment penalties; CF 3, F 2, S 1, CS 0 Blood Loss Points,
    /// each a box of the SHOCK STATE table ([`Timeline::lose_blood`]); the fourth kills.
    #[inline(always)]
    fn blood_loss_advance_roll(
        &mut self,
        i: usize,
        minute: u32,
        induced_by: Option<(i32, i32)>,
    ) -> Result<(), Cause> {
        let t = Test::roll(
            self.dice,
            self.patient.strength_ml,
            "d100 (Blood Loss Advance Roll: Strength)",
        );
        // CF 3, F 2, S 1, CS 0: counted from the level, not matched on it.
        let points = 3 - t.level as u32;
        self.lose_blood(points, i, induced_by);
        let (bp, state) = (self.bp, self.shock);
        self.log.say(|| format!("minute {minute}: Blood Loss Advance Roll {} vs EML{}: {}: {points} BP ({bp} in all), {}", t.roll, t.eml, t.level.abbreviation(), state.abbreviation()));
        if self.bp >= 4 {
            self.log.say(|| "dies of blood loss".to_owned());
            return Err(self.dies(Cause::BloodLoss));
        }
        Ok(())
    }

    /// A Bleeder opened by treatment on injury `i`, the healer at hand staunching it at once
    /// (step 1 again, its blood loss states and anaemia included), then the Shock Reroll its
    /// INC or UNC calls for. `induced_by`: the Location Shock and Injury Level of the wound
    /// that bleeds, when it is not injury `i` itself (an amputation's new wound).
    pub(super) fn treatment_bleeder(
        &mut self,
        i: usize,
        induced_by: Option<(i32, i32)>,
    ) -> Result<(), Cause> {
        let mut bleeding = [false; MAX];
        bleeding[i] = true;
        self.bleed(&mut bleeding, 0, Some(0), None, induced_by)?;
        self.settle_shock()?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::zone_d100::body::Location;
    use crate::rules::zone_d100::healing::Cause;
    use crate::rules::zone_d100::healing::tests::{care, injury, run};
    use crate::rules::zone_d100::injury::Aspect;
    use crate::rules::zone_d100::melee::State;

    #[test]
    fn without_a_healer_a_bleeder_bleeds_to_death() {
        let mut state = State::default();
        state
            .injuries
            .add(injury(Location::Neck, Aspect::Edge, 5, true));
        let mut nobody = care(0);
        nobody.help_minutes = None;
        let (out, _) = run(&nobody, &state, &[62, 62]);
        assert_eq!(out.cause, Some(Cause::BloodLoss));
        assert!(out.recovery.died);
    }
}
