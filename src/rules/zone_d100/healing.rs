//! The HEALING SEQUENCE for one patient (a survivor of the duel, or a recovery scenario's
//! patient) as a timeline: who tends the patient (`Care`), the patient's attributes, the
//! outcome, the timeline's state (its day, Blood Loss Points, shock state, coma, infection,
//! Extended Shock) and the order of the steps: the Shock Reroll the fight left pending, step 1
//! BLEEDING, step 2 EXTENDED SHOCK, then the days of treatment and healing.
//!
//! The steps are `impl Timeline` blocks in the files beside it: `bleeding.rs` (step 1),
//! `extended_shock.rs` (the Shock Reroll, steps 2 and 3), `treatment.rs` (steps 4 and 5, the
//! TREATMENTS and TREATMENT ROLL tables as data), `amputation.rs` (the Amputation treatment)
//! and `healing_rolls.rs` (steps 6 to 8, day by day).

use super::injury::{Class, Injuries, ShockState};
use super::melee::State;
use super::skill::SuccessLevel;
use crate::dice::Dice;
use crate::log::Log;
use crate::stats::Recovery;

/// Who tends the patient and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Care {
    /// The healers present, by their Physician MLs.
    pub healers: Healers,
    /// The healers' DEX secondary modifier (surgery, extraction).
    pub dexterity_modifier: i32,
    /// Minutes after the fight until a healer reaches the patient (`None`: never).
    pub help_minutes: Option<u32>,
    /// Cauterisation (+30) instead of Staunch for bleeders.
    pub cauterise: bool,
    /// A tourniquet on limb bleeders (+20).
    pub tourniquet: bool,
    /// Days between the end of the shock and treatment.
    pub treatment_delay_days: u32,
    /// A restful, sheltered place (a coma outside shelter: −20).
    pub shelter: bool,
    /// Days followed.
    pub horizon_days: u32,
    /// Healing periods of d3+3 days instead of five.
    pub random_period: bool,
    /// The Shock Reroll's penalty (20).
    pub reroll_penalty: i32,
    /// A frozen compress (+10 to Compress treatment rolls).
    pub frozen_compress: bool,
    /// Healers amputate a limb whose wound is infected (the infection is defeated).
    pub amputate_infected_limbs: bool,
}

impl Care {
    pub(super) fn best_ml(&self) -> i32 {
        self.healers.best
    }

    pub(super) fn has_healer(&self) -> bool {
        self.best_ml() > 0 && self.help_minutes.is_some()
    }
}

/// The healers present: their Physician MLs as given (each makes a Physician test of its own,
/// in this order), and the ones who make Treatment Rolls, found once when the care is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Healers {
    /// Physician ML of each healer present (0 or less for an empty slot).
    physicians: [i32; 4],
    /// The healers who make Treatment Rolls for an injury: the first `rolling_len`.
    rolling: [i32; 4],
    rolling_len: usize,
    /// The highest Physician ML, 0 with nobody.
    best: i32,
}

impl Healers {
    /// The healers of these Physician MLs (0 or less: an empty slot).
    pub fn of(physicians: [i32; 4]) -> Healers {
        let mut healers = Healers {
            physicians,
            rolling: [0; 4],
            rolling_len: 0,
            best: physicians.iter().copied().max().unwrap_or(0),
        };
        // "Multiple healers may each attempt a Treatment Roll for the same injury only if the
        // subsequent healers have a higher Physician Index than all previous ones": in rising
        // Physician Index, each only if its index is higher than all before.
        let mut rising = physicians;
        rising.sort_unstable();
        let mut last_index = -1;
        for ml in rising.into_iter().filter(|&ml| ml > 0) {
            let index = ml / 10;
            if index > last_index {
                last_index = index;
                healers.rolling[healers.rolling_len] = ml;
                healers.rolling_len += 1;
            }
        }
        healers
    }

    /// Physician ML of each healer present, in the order given (0 or less: an empty slot).
    pub fn physicians(&self) -> [i32; 4] {
        self.physicians
    }

    /// The Physician MLs of the healers who make Treatment Rolls for an injury, in the order
    /// they make them (rising Physician Index).
    pub(super) fn rolling(&self) -> &[i32] {
        &self.rolling[..self.rolling_len]
    }

    /// The best healer alone ("Healers make a single Treatment Roll for an Area injury"), or
    /// nobody.
    pub(super) fn best_alone(&self) -> &[i32] {
        if self.best > 0 {
            std::slice::from_ref(&self.best)
        } else {
            &[]
        }
    }
}

/// The patient's attributes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Patient {
    /// Healing Base.
    pub healing_base: i32,
    /// Strength ML (Blood Loss Advance Rolls).
    pub strength_ml: i32,
    /// Endurance ML (blood regeneration).
    pub endurance_ml: i32,
    /// Shock ML (rerolls, grim wounds).
    pub shock_ml: i32,
    /// Fatigue carried from the fight (the fighter's flat fatigue penalty): it weighs on Shock
    /// rolls, Shock Rerolls and Extended Shock Course Rolls.
    pub fatigue: i32,
}

/// What ended a patient's life during recovery.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cause {
    /// The fourth Blood Loss Point.
    BloodLoss,
    /// Extended Shock's HR fell to 0.
    ExtendedShock,
    /// An infection's HR fell to 0.
    Infection,
    /// A grim wound's daily Shock roll killed.
    GrimWound,
}

/// The outcome of a healing timeline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Days to whole, death, and total permanent impairment.
    pub recovery: Recovery,
    /// The cause of death.
    pub cause: Option<Cause>,
    /// Ever infected.
    pub infected: bool,
    /// Permanent impairment by zone (head, torso, arms, legs).
    pub permanent: [i32; 4],
    /// Fell into a coma.
    pub coma: bool,
    /// Days in a coma (up to the horizon when it had not ended).
    pub coma_days: u32,
    /// Still in a coma at the horizon.
    pub comatose_at_horizon: bool,
}

/// A treated injury on the healing clock.
#[derive(Clone, Copy, Debug)]
pub(super) struct Healing {
    pub(super) il: i32,
    pub(super) hr: i32,
    pub(super) infection_chance: bool,
    pub(super) lasting: bool,
    pub(super) grim: bool,
    /// Failed Healing Rolls ending 3, 5, 8 or 0 are CF (a cauterised bleeder, an Area injury).
    pub(super) cauterised: bool,
    pub(super) next_roll: u32,
    /// The day the injury was incurred (the fight, or an amputation): its Healing Roll clock
    /// and its days to Minor start there.
    pub(super) born: u32,
    /// The day the injury healed to Minor (IL1 or less): `u32::MAX` until then, so the first
    /// such day is the least of the days it was Minor on.
    pub(super) minor_day: u32,
    /// The zone's index in [`Outcome::permanent`].
    pub(super) zone: u8,
    pub(super) location_shock: i32,
    pub(super) live: bool,
}

impl Default for Healing {
    /// No wound: healed, not yet Minor on any day.
    fn default() -> Self {
        Healing {
            il: 0,
            hr: 0,
            infection_chance: false,
            lasting: false,
            grim: false,
            cauterised: false,
            next_roll: 0,
            born: 0,
            minor_day: u32::MAX,
            zone: 0,
            location_shock: 0,
            live: false,
        }
    }
}

impl Healing {
    /// Still healing and grim: Grievous (IL4 or more) after a CF treatment, so a Shock Roll is
    /// due every day. Computed without a branch, for the day loop's survey of the wounds.
    #[inline]
    pub(super) fn shocks_daily(&self) -> bool {
        self.live & self.grim & (self.il >= 4)
    }

    /// The wound was incurred on `day` (a campaign's fight after the first): its Healing
    /// Roll clock and its days to Minor count from there. Nothing changes for day 0.
    #[inline]
    pub(super) fn incurred(&mut self, day: u32) {
        self.born = day;
        self.minor_day = self.minor_day.max(day);
    }

    /// Step 8's permanent impairment of a wound that imparts it, `day` being the last day
    /// followed: 5 for every 20 days it took to heal to Minor (up to then), at most 25.
    #[inline]
    pub(super) fn permanent_impairment(&self, day: u32) -> i32 {
        let days = self.minor_day.min(day).saturating_sub(self.born);
        (5 * (days as i32 / 20)).min(25)
    }
}

pub(super) fn hr_step(level: SuccessLevel) -> i32 {
    match level {
        SuccessLevel::CriticalFailure => -2,
        SuccessLevel::Failure => -1,
        SuccessLevel::Success => 1,
        SuccessLevel::CriticalSuccess => 2,
    }
}

pub(super) const MAX: usize = super::injury::MAX_INJURIES;

/// The Infection Course Roll's weakness fatigue by the infection's HR.
pub(super) fn infection_weakness(hr: i32) -> i32 {
    match hr {
        i32::MIN..=2 => 10,
        3 | 4 => 5,
        _ => 0,
    }
}

/// A coma on its ten-day Course Rolls.
#[derive(Clone, Copy, Debug)]
pub(super) struct Coma {
    pub(super) hr: i32,
    pub(super) started: u32,
    pub(super) next_roll: u32,
}

/// One patient's healing timeline: the state that changes from event to event, and the dice.
pub(super) struct Timeline<'a, D, L, S> {
    pub(super) care: &'a Care,
    pub(super) patient: &'a Patient,
    pub(super) injuries: &'a Injuries,
    pub(super) location_shock: S,
    pub(super) dice: &'a mut D,
    pub(super) log: &'a mut L,
    pub(super) out: &'a mut Outcome,
    /// The day of the timeline (the fight is day 0).
    pub(super) day: u32,
    /// Blood Loss Points not regenerated yet.
    pub(super) bp: u32,
    /// The day of the next blood regeneration roll, while BP are left.
    pub(super) next_blood: u32,
    /// A CF on the regeneration roll: no regeneration the next period either.
    pub(super) blood_skip: bool,
    /// The shock state (between events only while a Shock Reroll is pending).
    pub(super) shock: ShockState,
    /// Location Shock and Injury Level of the injury behind the current shock state: a coma's HR.
    pub(super) induced: (i32, i32),
    /// Which injuries were stopped by Cauterisation.
    pub(super) cauterised: [bool; MAX],
    /// The best healer's bonus to Extended Shock Course Rolls (one test per healer per patient).
    pub(super) extended_bonus: Option<i32>,
    pub(super) coma: Option<Coma>,
    /// An infection: its HR and the healer's bonus.
    pub(super) infection: Option<(i32, i32)>,
    /// Extended Shock waiting for its Course Rolls (its HR), from a failed Shock Reroll.
    pub(super) extended: Option<i32>,
    /// The minute the healer reaches the patient (`None`: nobody comes).
    pub(super) healer_from: Option<u32>,
    /// The day of the fight this timeline follows: day 0 after a fight alone, the campaign's
    /// day of the fight in a campaign ([`rest`]).
    pub(super) since: u32,
    /// The last day followed: the horizon, or a rest's last day.
    pub(super) stop: u32,
    /// The timeline ends at `stop` (not whole there is not whole at the horizon, and step 8
    /// follows); a rest's timeline only pauses there.
    pub(super) last: bool,
    /// The injuries (by index, as bits) still to be treated: all of them after a fight alone.
    pub(super) untreated: u32,
}

impl<D: Dice, L: Log, S: Fn(usize) -> i32> Timeline<'_, D, L, S> {
    /// Weakness fatigue: anaemia (5 a Blood Loss Point) and an infection's weakness.
    pub(super) fn weakness(&self) -> i32 {
        5 * self.bp as i32 + self.infection.map_or(0, |(hr, _)| infection_weakness(hr))
    }

    /// All fatigue on a roll that takes it: the fight's and the weakness.
    pub(super) fn fatigue(&self) -> i32 {
        self.patient.fatigue + self.weakness()
    }

    pub(super) fn dies(&mut self, cause: Cause) -> Cause {
        self.out.cause = Some(cause);
        self.out.recovery.died = true;
        cause
    }

    /// Location Shock and Injury Level of injury `i` ("Area Attacks impart Location Shock 6").
    pub(super) fn injury_shock(&self, i: usize) -> (i32, i32) {
        match self.injuries.get(i) {
            Some(x) if x.class == Class::Area => (6, i32::from(x.il)),
            Some(x) => ((self.location_shock)(i), i32::from(x.il)),
            None => (0, 0),
        }
    }

    /// The next healing period: five days, or d3+3 with `random_period`.
    pub(super) fn period(&mut self) -> u32 {
        if self.care.random_period {
            self.dice.d(3, "d3 (healing period: d3+3 days)") + 3
        } else {
            5
        }
    }
}

/// Runs the healing sequence for a survivor of the duel (or a recovery patient) and writes its
/// outcome into `out` (whatever it held before). The caller's own `Outcome`, not one returned:
/// a returned outcome is copied out whole, a wide read of fields the timeline has only just
/// written one by one, which waits for those writes.
pub fn heal<D: Dice, L: Log>(
    care: &Care,
    patient: &Patient,
    state: &State,
    location_shock: impl Fn(usize) -> i32,
    dice: &mut D,
    log: &mut L,
    out: &mut Outcome,
) {
    *out = Outcome::default();
    let mut t = Timeline {
        care,
        patient,
        injuries: &state.injuries,
        location_shock,
        dice,
        log,
        out,
        day: 0,
        bp: 0,
        next_blood: 0,
        blood_skip: false,
        shock: state.shock,
        induced: (i32::from(state.last_shock.0), i32::from(state.last_shock.1)),
        cauterised: [false; MAX],
        extended_bonus: None,
        coma: None,
        infection: None,
        extended: None,
        healer_from: care.help_minutes.filter(|_| care.has_healer()),
        since: 0,
        stop: care.horizon_days,
        last: true,
        untreated: u32::MAX,
    };
    // A death ends the timeline early (`Err`): the outcome says so either way.
    let _ = t.run(state);
}

impl<D: Dice, L: Log, S: Fn(usize) -> i32> Timeline<'_, D, L, S> {
    fn run(&mut self, state: &State) -> Result<(), Cause> {
        let treated_on = self.first_aid(state)?;
        // The passes over the wounds are loops whose count the dice chose (in
        // `broadsword-vs-spear`, one wound in 44% of the patients, two to four in 44%):
        // written out for each of those counts, their ends are not branches on the dice.
        match self.injuries.len() {
            1 => self.heal_wounds::<1>(treated_on),
            2 => self.heal_wounds::<2>(treated_on),
            3 => self.heal_wounds::<3>(treated_on),
            4 => self.heal_wounds::<4>(treated_on),
            n => {
                let mut wounds = [Healing::default(); MAX];
                self.heal_until_whole(&mut wounds[..n], treated_on)
                    .map(|_| ())
            }
        }
    }

    /// The fight's shock, step 1 BLEEDING and step 2 EXTENDED SHOCK, to their end: the day
    /// the wounds are treated (steps 4 and 5).
    pub(super) fn first_aid(&mut self, state: &State) -> Result<u32, Cause> {
        let care = self.care;
        // The state the fight left: a coma already, Extended Shock already, or a Shock Reroll
        // still pending: INC's at the end of its next turn (before the bleeding), UNC's ten
        // minutes after its Shock roll (after the bleeding's second period). Extended Shock
        // keeps its state through the bleeding.
        if state.coma {
            self.fall_into_coma();
        }
        self.extended = state.extended_shock.map(i32::from);
        let unconscious = self.shock == ShockState::Unconscious;
        if self.extended.is_none() && !unconscious {
            self.extended = self.reroll();
        }

        // Step 1: bleeding, in five-minute periods. A blood-loss state then wears off (STN) or
        // rerolls (INC, UNC), unless the patient is in Extended Shock already.
        let mut bleeding = [false; MAX];
        for (i, injury) in self.injuries.iter().enumerate() {
            bleeding[i] = injury.bleeder;
        }
        let reroll_at = (unconscious && self.extended.is_none()).then_some(10);
        let bled_until = self.bleed(&mut bleeding, 0, self.healer_from, reroll_at, None)?;
        if self.extended.is_none() {
            self.extended = self.reroll();
        }
        // Step 2: Extended Shock to its end.
        let mut hours = 0;
        if let Some(hr) = self.extended.take() {
            let s = self.shock;
            hours = self.extended_shock(hr, s, bled_until)?;
        }
        self.shock = ShockState::None;

        // Steps 4 and 5 come once the bleeding and Extended Shock are over and the healer is
        // there, `treatment_delay_days` later: −5 a day since the injury. Untreated injuries
        // take their CF results at once.
        let over = bled_until + 60 * hours;
        let days = match self.healer_from {
            Some(h) => over.max(h) / (24 * 60) + care.treatment_delay_days,
            None => over / (24 * 60),
        };
        Ok(self.since + days)
    }

    /// Steps 4 to 8 for a patient of `N` injuries: the wounds' passes with their count fixed.
    fn heal_wounds<const N: usize>(&mut self, treated_on: u32) -> Result<(), Cause> {
        let mut wounds = [Healing::default(); N];
        self.heal_until_whole(&mut wounds, treated_on).map(|_| ())
    }
}

#[cfg(test)]
#[path = "healing_ledger.rs"]
mod ledger;

#[cfg(test)]
pub(super) mod tests {
    //! The text's worked healing examples on the ledger's patient: the helpers they share,
    //! and the Bleeding and Extended Shock examples (steps 1 and 2 in turn). The others are
    //! beside the code of their steps.
    use super::*;
    use crate::rules::zone_d100::body::Location;
    use crate::rules::zone_d100::injury::{Aspect, Injury};

    pub(crate) fn injury(location: Location, aspect: Aspect, il: u8, bleeder: bool) -> Injury {
        Injury {
            bleeder,
            ..Injury::new(location, aspect, il)
        }
    }

    /// One healer of this Physician ML, five minutes away (the bleeding example's ally).
    pub(crate) fn care(ml: i32) -> Care {
        Care {
            help_minutes: Some(5),
            ..ledger::care(&[ml])
        }
    }

    pub(crate) fn run(care: &Care, state: &State, dice: &[u32]) -> (Outcome, String) {
        let r = ledger::run(care, state, dice);
        (r.out, r.story)
    }

    use crate::log::assert_in_order as in_order;

    #[test]
    fn only_healers_of_a_higher_physician_index_than_all_before_roll_for_an_injury() {
        // "Multiple healers may each attempt a Treatment Roll for the same injury only if the
        // subsequent healers have a higher Physician Index than all previous ones": ML45 has
        // the index of ML40 (4) and rolls no more; the ML80 does, after them. The best healer
        // alone (an Area injury's one roll) is the highest ML, ML45 where it shares an index
        // with ML40.
        let h = Healers::of([80, 45, 0, 40]);
        assert_eq!(h.rolling(), &[40, 80]);
        assert_eq!(h.best_alone(), &[80]);
        assert_eq!(h.physicians(), [80, 45, 0, 40]);
        let h = Healers::of([45, 0, 40, -5]);
        assert_eq!(h.rolling(), &[40]);
        assert_eq!(h.best_alone(), &[45]);
        let nobody = Healers::of([0, -5, 0, 0]);
        assert!(nobody.rolling().is_empty() && nobody.best_alone().is_empty());
    }

    #[test]
    fn bleeding_and_extended_shock_examples_g4e_shoulder_3_bp_then_12_hours_to_hr6() {
        let mut state = State::default();
        state
            .injuries
            .add(injury(Location::Shoulder, Aspect::Edge, 4, true));
        state.shock = ShockState::Incapacitated;
        state.extended_shock = Some(5);
        // Minute 5: no healer yet; Blood Loss Advance Roll against Strength ML60: 62 F: 2 BP:
        // INC on INC is UNC. Minute 10: Staunch, Physician ML40: 33 S; one more advance roll:
        // 41 S: a third BP. Extended Shock HR5: the ally's Physician test 22 (S: +5); EML
        // 13 x 5 - 15 + 5 = 55: 93 F: HR4; 41 S: HR5; 13 S: HR6.
        let (out, story) = run(&care(40), &state, &[62, 33, 41, 22, 93, 41, 13]);
        in_order(
            &story,
            &[
                "minute 5: Blood Loss Advance Roll 62 vs EML60: F: 2 BP (2 in all), UNC",
                "minute 10: Blood Stoppage Roll 33 vs EML40: S",
                "minute 10: Blood Loss Advance Roll 41 vs EML60: S: 1 BP (3 in all), UNC",
                "hour 4: Extended Shock Course Roll 93 vs EML55: F: HR4",
                "hour 8: Extended Shock Course Roll 41 vs EML42: S: HR5",
                "hour 12: Extended Shock Course Roll 13 vs EML55: S: HR6",
            ],
        );
        assert!(
            !story[..story.find("hour 12").unwrap_or(0)].contains("dies"),
            "{story}"
        );
        let _ = out;
    }
}
