//! The healing sequence as a timeline: bleeding (Blood Stoppage and Blood Loss Advance Rolls),
//! the pending Shock Rerolls, Extended Shock and coma Course Rolls, treatment by the TREATMENT
//! ROLL tables (with the Grievous HR cap, multiple healers, untreated injuries, grim wounds),
//! Healing Rolls every five days, blood regeneration, infection, and indefinite and permanent
//! impairment. The shades lost in extraction (infection chance, permanent impairment) are data.

use super::body::Zone;
use super::injury::{Aspect, Class, Injuries, Severity, ShockState, severity};
use super::melee::{State, zone_of_location};
use super::skill::{SuccessLevel, Test};
use crate::dice::Dice;
use crate::log::Log;
use crate::stats::Recovery;

/// Treatment types by aspect, as the tables have them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Blunt.
    Blunt,
    /// Edge.
    Edge,
    /// Point.
    Point,
    /// Projectile: arrows and bolts.
    Projectile,
    /// Fire.
    Fire,
    /// Frost: Warming, or for Grievous limbs and facial features Amputation.
    Frost,
}

/// What a treatment result does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The injury heals at this Healing Rate.
    Hr(u8),
    /// The treatment heals the injury at once.
    Heal,
    /// Amputation (Grievous frost): a new Edge injury of this level replaces the frost injury.
    Amputate(u8),
}

/// A required treatment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Treatment {
    /// Compress.
    Cmp,
    /// Set and splint.
    Set,
    /// Surgery: a F or CF causes a new Bleeder.
    Sur,
    /// Clean and dress.
    Cln,
    /// Extraction: a F or CF on a Grievous injury causes a Bleeder.
    Ext,
    /// Warming.
    Wrm,
    /// Amputation.
    Amp,
}

/// One TREATMENT ROLL table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Table {
    /// `[success level CF..CS][severity M, S, G]`.
    pub effect: [[Effect; 3]; 4],
    /// Treatment by severity.
    pub treatment: [Treatment; 3],
    /// Modifier by severity.
    pub modifier: [i32; 3],
    /// The BRD row: the modifier from a broadhead projectile, by severity (0 where the table
    /// has no such row).
    pub broadhead: [i32; 3],
    /// Infection chance `[success level][severity]` (a shade lost in extraction).
    pub infection: [[bool; 3]; 4],
    /// Permanent impairment chance `[success level][severity]` (a shade lost in extraction).
    pub impairment: [[bool; 3]; 4],
}

use Effect::{Amputate, Heal, Hr};

const STANDARD: [[Effect; 3]; 4] = [
    [Hr(4), Hr(3), Hr(2)],
    [Hr(5), Hr(4), Hr(3)],
    [Hr(6), Hr(5), Hr(4)],
    [Heal, Hr(6), Hr(5)],
];
const FIRE: [[Effect; 3]; 4] = [
    [Hr(4), Hr(2), Hr(1)],
    [Hr(5), Hr(3), Hr(2)],
    [Hr(6), Hr(4), Hr(3)],
    [Heal, Hr(5), Hr(4)],
];

/// Infection chance of open wounds (Edge, Point, Projectile, Fire): Serious and Grievous at
/// CF and F, Minor at CF. Pinned by the text: S2E F (HR4) and G4E F (HR3) carry it.
const OPEN: [[bool; 3]; 4] = [
    [true, true, true],
    [false, true, true],
    [false, false, false],
    [false, false, false],
];
/// Blunt: only the compound fracture (Grievous) at CF and F.
const CLOSED: [[bool; 3]; 4] = [
    [false, false, true],
    [false, false, true],
    [false, false, false],
    [false, false, false],
];
/// Permanent impairment: Grievous injuries at CF, F and S (HR4 or less), Serious at CF. Pinned:
/// G4E F (HR3) carries it.
const LASTING: [[bool; 3]; 4] = [
    [false, true, true],
    [false, false, true],
    [false, false, true],
    [false, false, false],
];

/// The TREATMENT ROLL table of a kind.
pub fn table(kind: Kind) -> Table {
    match kind {
        Kind::Blunt => Table {
            effect: STANDARD,
            treatment: [Treatment::Cmp, Treatment::Set, Treatment::Sur],
            modifier: [30, 10, 0],
            broadhead: [0, 0, 0],
            infection: CLOSED,
            impairment: LASTING,
        },
        Kind::Edge => Table {
            effect: STANDARD,
            treatment: [Treatment::Cln, Treatment::Cln, Treatment::Sur],
            modifier: [20, 10, 0],
            broadhead: [0, 0, 0],
            infection: OPEN,
            impairment: LASTING,
        },
        Kind::Point => Table {
            effect: STANDARD,
            treatment: [Treatment::Cln, Treatment::Cln, Treatment::Sur],
            modifier: [10, 0, -10],
            broadhead: [0, 0, 0],
            infection: OPEN,
            impairment: LASTING,
        },
        Kind::Projectile => Table {
            effect: STANDARD,
            treatment: [Treatment::Cln, Treatment::Ext, Treatment::Ext],
            modifier: [10, 0, -10],
            broadhead: [0, -20, -30],
            infection: OPEN,
            impairment: LASTING,
        },
        Kind::Frost => Table {
            effect: [
                [Hr(4), Hr(3), Amputate(5)],
                [Hr(5), Hr(4), Amputate(4)],
                [Heal, Hr(5), Amputate(3)],
                [Heal, Hr(6), Amputate(2)],
            ],
            treatment: [Treatment::Wrm, Treatment::Wrm, Treatment::Amp],
            modifier: [40, 20, 0],
            broadhead: [0, 0, 0],
            infection: [[false; 3]; 4],
            impairment: LASTING,
        },
        Kind::Fire => Table {
            effect: FIRE,
            treatment: [Treatment::Cmp, Treatment::Cln, Treatment::Cln],
            modifier: [20, 10, 0],
            broadhead: [0, 0, 0],
            infection: OPEN,
            impairment: LASTING,
        },
    }
}

/// Who tends the patient and where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Care {
    /// Physician ML of each healer present (0 for an empty slot).
    pub physicians: [i32; 4],
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
    fn best_ml(&self) -> i32 {
        self.physicians.iter().copied().max().unwrap_or(0)
    }

    fn has_healer(&self) -> bool {
        self.best_ml() > 0 && self.help_minutes.is_some()
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
#[derive(Clone, Copy, Debug, Default)]
struct Healing {
    il: i32,
    hr: i32,
    infection_chance: bool,
    lasting: bool,
    grim: bool,
    /// Failed Healing Rolls ending 3, 5, 8 or 0 are CF (a cauterised bleeder, an Area injury).
    cauterised: bool,
    next_roll: u32,
    /// The day the injury was incurred (the fight, or an amputation): its Healing Roll clock
    /// and its days to Minor start there.
    born: u32,
    minor_day: Option<u32>,
    zone: usize,
    location_shock: i32,
    live: bool,
}

fn zone_index(zone: Zone) -> usize {
    match zone {
        Zone::Head => 0,
        Zone::Torso => 1,
        Zone::Arm => 2,
        Zone::Leg => 3,
    }
}

fn hr_step(level: SuccessLevel) -> i32 {
    match level {
        SuccessLevel::CriticalFailure => -2,
        SuccessLevel::Failure => -1,
        SuccessLevel::Success => 1,
        SuccessLevel::CriticalSuccess => 2,
    }
}

fn blood_box(bp: u32) -> ShockState {
    match bp {
        0 => ShockState::None,
        1 => ShockState::Stunned,
        2 => ShockState::Incapacitated,
        3 => ShockState::Unconscious,
        _ => ShockState::Killed,
    }
}

const MAX: usize = super::injury::MAX_INJURIES;

/// The column of a severity in the TREATMENT ROLL tables (M, S, G).
fn severity_index(il: u8) -> usize {
    match severity(il) {
        Severity::Minor => 0,
        Severity::Serious => 1,
        Severity::Grievous => 2,
    }
}

/// The treatment an injury of this kind and level requires: the table's, except that a
/// projectile's S2 takes Clean & Dress ("EXT* S3 injury only; S2 injury uses CLN treatment").
fn required_treatment(kind: Kind, t: &Table, il: u8) -> Treatment {
    let sev = severity_index(il);
    if kind == Kind::Projectile && sev == 1 && il < 3 {
        Treatment::Cln
    } else {
        t.treatment[sev]
    }
}

/// The row of the table whose effects apply after the Grievous HR cap: the healer's Physician
/// Index (or the CF level, if higher) caps the HR, and "the HR cap brings the other effects
/// commensurate to its level", so the row is the one with the capped HR.
pub fn capped_row(t: &Table, level: SuccessLevel, sev: usize, index: i32) -> usize {
    let row = level as usize;
    if sev != 2 {
        return row;
    }
    let (Hr(cf_hr), Hr(hr)) = (t.effect[0][2], t.effect[row][2]) else {
        return row;
    };
    let cap = index.max(i32::from(cf_hr));
    if i32::from(hr) <= cap {
        return row;
    }
    (0..row)
        .rev()
        .find(|&r| matches!(t.effect[r][2], Hr(h) if i32::from(h) <= cap))
        .unwrap_or(0)
}

/// A treated injury on the healing clock at `site` (zone, Location Shock), with the effects of
/// its table row.
fn wound(
    il: u8,
    hr: u8,
    row: usize,
    t: &Table,
    grim: bool,
    cauterised: bool,
    site: (usize, i32),
) -> Healing {
    Healing {
        il: i32::from(il),
        hr: i32::from(hr),
        infection_chance: t.infection[row][severity_index(il)],
        lasting: t.impairment[row][severity_index(il)],
        grim,
        cauterised,
        next_roll: 0,
        born: 0,
        minor_day: (il <= 1).then_some(0),
        zone: site.0,
        location_shock: site.1,
        live: true,
    }
}

/// Limbs and facial features: what Amputation can take.
fn amputable(location: super::body::Location) -> bool {
    use super::body::Location::{Cheek, Ear, Eye, Jaw, Mouth, Nose};
    matches!(zone_of_location(location), Zone::Arm | Zone::Leg)
        || matches!(location, Eye | Nose | Cheek | Ear | Mouth | Jaw)
}

/// The best Treatment Roll of the healers for one injury: healers in rising Physician Index,
/// each only if higher than all before; the highest level applies, except that any CF replaces
/// all others. Returns the level and the Physician Index of the healer whose level applies.
fn treatment_rolls<D: Dice, L: Log>(
    physicians: [i32; 4],
    eml_without_healer: i32,
    what: &dyn Fn() -> String,
    dice: &mut D,
    log: &mut L,
) -> (SuccessLevel, i32) {
    let mut mls = physicians;
    mls.sort_unstable();
    let mut last_index = -1;
    let mut best: Option<(SuccessLevel, i32)> = None;
    for ml in mls.into_iter().filter(|&ml| ml > 0) {
        let index = ml / 10;
        if index <= last_index {
            continue;
        }
        last_index = index;
        let eml = ml + eml_without_healer;
        let roll = Test::roll(dice, eml, "d100 (Treatment Roll: Physician)");
        let eml = roll.eml;
        log.say(|| {
            format!(
                "{}: Treatment Roll {} vs EML{eml}: {}",
                what(),
                roll.roll,
                roll.level.abbreviation()
            )
        });
        best = Some(match best {
            Some((SuccessLevel::CriticalFailure, i)) => (SuccessLevel::CriticalFailure, i),
            _ if roll.level == SuccessLevel::CriticalFailure => {
                (SuccessLevel::CriticalFailure, index)
            }
            Some(b) => b.max((roll.level, index)),
            None => (roll.level, index),
        });
    }
    best.unwrap_or((SuccessLevel::CriticalFailure, 0))
}

/// The Infection Course Roll's weakness fatigue by the infection's HR.
fn infection_weakness(hr: i32) -> i32 {
    match hr {
        i32::MIN..=2 => 10,
        3 | 4 => 5,
        _ => 0,
    }
}

/// A coma on its ten-day Course Rolls.
#[derive(Clone, Copy, Debug)]
struct Coma {
    hr: i32,
    started: u32,
    next_roll: u32,
}

/// One patient's healing timeline: the state that changes from event to event, and the dice.
struct Timeline<'a, D, L, S> {
    care: &'a Care,
    patient: &'a Patient,
    injuries: &'a Injuries,
    location_shock: S,
    dice: &'a mut D,
    log: &'a mut L,
    out: Outcome,
    /// The day of the timeline (the fight is day 0).
    day: u32,
    /// Blood Loss Points not regenerated yet.
    bp: u32,
    /// The day of the next blood regeneration roll, while BP are left.
    next_blood: u32,
    /// A CF on the regeneration roll: no regeneration the next period either.
    blood_skip: bool,
    /// The shock state (between events only while a Shock Reroll is pending).
    shock: ShockState,
    /// Location Shock and Injury Level of the injury behind the current shock state: a coma's HR.
    induced: (i32, i32),
    /// Which injuries were stopped by Cauterisation.
    cauterised: [bool; MAX],
    /// The best healer's bonus to Extended Shock Course Rolls (one test per healer per patient).
    extended_bonus: Option<i32>,
    coma: Option<Coma>,
    /// An infection: its HR and the healer's bonus.
    infection: Option<(i32, i32)>,
    /// Extended Shock waiting for its Course Rolls (its HR), from a failed Shock Reroll.
    extended: Option<i32>,
    /// The minute the healer reaches the patient (`None`: nobody comes).
    healer_from: Option<u32>,
}

impl<D: Dice, L: Log, S: Fn(usize) -> i32> Timeline<'_, D, L, S> {
    /// Weakness fatigue: anaemia (5 a Blood Loss Point) and an infection's weakness.
    fn weakness(&self) -> i32 {
        5 * self.bp as i32 + self.infection.map_or(0, |(hr, _)| infection_weakness(hr))
    }

    /// All fatigue on a roll that takes it: the fight's and the weakness.
    fn fatigue(&self) -> i32 {
        self.patient.fatigue + self.weakness()
    }

    fn dies(&mut self, cause: Cause) -> Cause {
        self.out.cause = Some(cause);
        self.out.recovery.died = true;
        cause
    }

    /// Location Shock and Injury Level of injury `i` ("Area Attacks impart Location Shock 6").
    fn injury_shock(&self, i: usize) -> (i32, i32) {
        match self.injuries.get(i) {
            Some(x) if x.class == Class::Area => (6, i32::from(x.il)),
            Some(x) => ((self.location_shock)(i), i32::from(x.il)),
            None => (0, 0),
        }
    }

    /// Checks off one box of the SHOCK STATE table a Blood Loss Point: the patient suffers
    /// its state (stacking), induced by bleeder `i`.
    fn lose_blood(&mut self, points: u32, i: usize, induced_by: Option<(i32, i32)>) {
        if points > 0 && self.bp == 0 {
            // "Every ten days after suffering the blood loss".
            self.next_blood = self.day + 10;
            self.blood_skip = false;
        }
        for _ in 0..points {
            self.bp += 1;
            let before = self.shock;
            self.shock = self.shock.stack(blood_box(self.bp));
            if self.shock > before {
                self.induced = induced_by.unwrap_or_else(|| self.injury_shock(i));
            }
        }
    }

    /// Step 1: five-minute periods from `start` until no injury in `bleeding` bleeds: a Blood
    /// Stoppage Roll for each bleeder once a healer is there (after `healer_from` minutes), then
    /// a Blood Loss Advance Roll for each. A Shock Reroll due at minute `reroll_at` (an UNC's,
    /// ten minutes after its Shock roll) is made after that period's rolls. `induced_by`
    /// stands for the bleeders' own Location Shock and Injury Level (an amputation's new
    /// wound). Returns the minute bleeding ended, or the death.
    fn bleed(
        &mut self,
        bleeding: &mut [bool; MAX],
        start: u32,
        healer_from: Option<u32>,
        reroll_at: Option<u32>,
        induced_by: Option<(i32, i32)>,
    ) -> Result<u32, Cause> {
        let care = self.care;
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
                    let eml = care.best_ml()
                        + if care.cauterise { 30 } else { 0 }
                        + if care.tourniquet && limb { 20 } else { 0 }
                        - penalty
                        + f_bonus[i];
                    // The F bonus is for the next Staunch roll only.
                    f_bonus[i] = 0;
                    let t = Test::roll(self.dice, eml, "d100 (Blood Stoppage Roll: Physician)");
                    let eml = t.eml;
                    self.log.say(|| {
                        format!(
                            "minute {minute}: Blood Stoppage Roll {} vs EML{eml}: {}",
                            t.roll,
                            t.level.abbreviation()
                        )
                    });
                    match t.level {
                        SuccessLevel::CriticalFailure => {}
                        SuccessLevel::Failure => f_bonus[i] = if care.cauterise { 0 } else { 10 },
                        SuccessLevel::Success => stop_after = true,
                        SuccessLevel::CriticalSuccess => {
                            bleeding[i] = false;
                            treated -= 1;
                            self.cauterised[i] |= care.cauterise;
                            continue;
                        }
                    }
                }
                // Strength, excluding all fatigue and impairment penalties.
                let t = Test::roll(
                    self.dice,
                    self.patient.strength_ml,
                    "d100 (Blood Loss Advance Roll: Strength)",
                );
                let points = match t.level {
                    SuccessLevel::CriticalFailure => 3,
                    SuccessLevel::Failure => 2,
                    SuccessLevel::Success => 1,
                    SuccessLevel::CriticalSuccess => 0,
                };
                self.lose_blood(points, i, induced_by);
                let (bp, state) = (self.bp, self.shock);
                self.log.say(|| format!("minute {minute}: Blood Loss Advance Roll {} vs EML{}: {}: {points} BP ({bp} in all), {}", t.roll, t.eml, t.level.abbreviation(), state.abbreviation()));
                if self.bp >= 4 {
                    self.log.say(|| "dies of blood loss".to_owned());
                    return Err(self.dies(Cause::BloodLoss));
                }
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

    /// The Shock Reroll of an INC or UNC state (Shock ML − 20 − fatigue): CF Extended Shock
    /// HR4 (and a coma when UNC), F Extended Shock HR5, S stunned (which wears off), CS
    /// recovered; a STN state simply wears off. Returns the Extended Shock HR, if any; in
    /// Extended Shock the state is kept.
    fn reroll(&mut self) -> Option<i32> {
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
    fn settle_shock(&mut self) -> Result<u32, Cause> {
        let hours = match self.reroll() {
            Some(hr) => {
                let state = self.shock;
                self.extended_shock(hr, state, self.day * 24 * 60)?
            }
            None => 0,
        };
        self.shock = ShockState::None;
        Ok(hours)
    }

    /// Step 3: a coma from a CF Shock Reroll while UNC: HR = 12 − Location Shock − Injury
    /// Level of the injury that induced it (at least 1); a running coma goes on.
    fn fall_into_coma(&mut self) {
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
    fn extended_shock(&mut self, mut hr: i32, state: ShockState, start: u32) -> Result<u32, Cause> {
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
    fn physician_bonus(&mut self, label: &'static str) -> i32 {
        let care = self.care;
        let dice = &mut *self.dice;
        care.physicians
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

    /// A grim wound's daily Shock Roll (step 4 of the Injury Sequence with the wound's Location
    /// Shock and Injury Level, against Shock ML − fatigue): the state it brings, stacked on
    /// the day's others.
    fn grim_shock(&mut self, location_shock: i32, il: i32) -> Result<(), Cause> {
        let s = super::injury::shock(
            self.dice,
            location_shock,
            il,
            self.patient.shock_ml - self.fatigue(),
        );
        let before = self.shock;
        self.shock = before.stack(s.state);
        if self.shock > before {
            self.induced = (location_shock, il);
        }
        let (day, state) = (self.day, self.shock);
        self.log.say(|| {
            format!(
                "day {day}: a grim wound's Shock Roll {} vs EML{}: {}: SHK {}: {}",
                s.test.roll,
                s.test.eml,
                s.test.level.abbreviation(),
                s.index,
                state.abbreviation()
            )
        });
        if state == ShockState::Killed {
            self.log.say(|| "dies of the grim wound".to_owned());
            return Err(self.dies(Cause::GrimWound));
        }
        Ok(())
    }

    /// A Bleeder opened by treatment on injury `i`, the healer at hand staunching it at once
    /// (step 1 again, its blood loss states and anaemia included), then the Shock Reroll its
    /// INC or UNC calls for. `induced_by`: the Location Shock and Injury Level of the wound
    /// that bleeds, when it is not injury `i` itself (an amputation's new wound).
    fn treatment_bleeder(&mut self, i: usize, induced_by: Option<(i32, i32)>) -> Result<(), Cause> {
        let mut bleeding = [false; MAX];
        bleeding[i] = true;
        self.bleed(&mut bleeding, 0, Some(0), None, induced_by)?;
        self.settle_shock()?;
        Ok(())
    }

    /// Steps 4 and 5 for injury `i` on day `self.day`: the Treatment Roll(s), the cap, the
    /// result's effects (HR, infection chance, permanent impairment, a grim wound, a new
    /// Bleeder, healing at once, amputation).
    fn treat(&mut self, i: usize) -> Result<Healing, Cause> {
        let Some(injury) = self.injuries.get(i).copied() else {
            return Ok(Healing::default());
        };
        let care = self.care;
        let kind = match injury.aspect {
            Aspect::Blunt => Kind::Blunt,
            Aspect::Edge => Kind::Edge,
            Aspect::Point if injury.projectile => Kind::Projectile,
            Aspect::Point => Kind::Point,
            Aspect::Fire => Kind::Fire,
            Aspect::Frost => Kind::Frost,
        };
        // Area fire and frost: one Treatment Roll at −20, Healing Rolls CF on a failure ending
        // 3, 5, 8 or 0, a Grievous one always a grim wound, impairment like the head's.
        let area = injury.class == Class::Area;
        let zone = if area {
            zone_index(Zone::Head)
        } else {
            zone_index(zone_of_location(injury.location))
        };
        let location_shock = self.injury_shock(i).0;
        let t = table(kind);
        let sev = severity_index(injury.il);
        let healer = care.has_healer();
        let site = (zone, location_shock);
        if kind == Kind::Frost && sev == 2 && (!amputable(injury.location) || !healer || area) {
            // No treatment: "Grievous Frost injuries to all other locations have no
            // treatment—they are automatically grim wounds", at the CF rate of a Grievous one.
            self.log.say(|| {
                format!(
                    "{} IL{}: Grievous frost with no Amputation possible: a grim wound",
                    injury.location, injury.il
                )
            });
            let mut w = wound(injury.il, 2, 0, &table(Kind::Edge), true, area, site);
            w.infection_chance = false;
            w.lasting = true;
            return Ok(w);
        }
        let treatment = required_treatment(kind, &t, injury.il);
        let boxed = matches!(treatment, Treatment::Sur | Treatment::Ext | Treatment::Amp);
        let (level, index) = if healer {
            let eml = t.modifier[sev]
                + if injury.broadhead {
                    t.broadhead[sev]
                } else {
                    0
                }
                + if treatment == Treatment::Cmp && care.frozen_compress {
                    10
                } else {
                    0
                }
                - if area { 20 } else { 0 }
                - 5 * self.day as i32
                + if boxed { care.dexterity_modifier } else { 0 };
            let what = || format!("treating {} IL{}", injury.location, injury.il);
            // "Healers make a single Treatment Roll for an Area injury": the best healer.
            let healers = if area {
                [care.best_ml(), 0, 0, 0]
            } else {
                care.physicians
            };
            treatment_rolls(healers, eml, &what, self.dice, self.log)
        } else {
            self.log.say(|| {
                format!(
                    "{} IL{} is untreated: a CF result",
                    injury.location, injury.il
                )
            });
            (SuccessLevel::CriticalFailure, 0)
        };
        let row = capped_row(&t, level, sev, index);
        if row != level as usize {
            let effect = t.effect[row][sev];
            self.log.say(|| {
                let hr = match effect {
                    Hr(hr) => format!("HR{hr}"),
                    other => format!("{other:?}"),
                };
                format!("  the Grievous HR cap (Physician Index {index}): the {hr} row")
            });
        }
        // Surgery failing (F or CF), or extraction failing on a Grievous injury, causes a new
        // Bleeder: the healer at hand works to stop it.
        let new_bleeder = healer
            && row <= SuccessLevel::Failure as usize
            && (treatment == Treatment::Sur || (treatment == Treatment::Ext && sev == 2));
        if new_bleeder {
            self.log
                .say(|| "  the treatment opens a new Bleeder".to_owned());
            self.treatment_bleeder(i, None)?;
        }
        match t.effect[row][sev] {
            Heal => {
                self.log.say(|| "  healed by the treatment".to_owned());
                Ok(Healing::default())
            }
            Hr(hr) => Ok(wound(
                injury.il,
                hr,
                row,
                &t,
                sev == 2 && (row == 0 || area),
                self.cauterised[i] || area,
                site,
            )),
            Amputate(edge_il) => self.amputation_wound(i, edge_il, site),
        }
    }

    /// The Amputation treatment's new Edge injury of level `edge_il` at injury `i`'s location:
    /// a Bleeder the healer staunches, then its own Treatment Roll as an Edge injury.
    fn amputation_wound(
        &mut self,
        i: usize,
        edge_il: u8,
        site: (usize, i32),
    ) -> Result<Healing, Cause> {
        let care = self.care;
        self.log
            .say(|| format!("  Amputation: a new E injury IL{edge_il}, a Bleeder"));
        let induced = Some((site.1, i32::from(edge_il)));
        self.treatment_bleeder(i, induced)?;
        let edge = table(Kind::Edge);
        let esev = severity_index(edge_il);
        let treatment = edge.treatment[esev];
        let boxed = matches!(treatment, Treatment::Sur);
        // No delay: the amputation wound is new.
        let eml = edge.modifier[esev] + if boxed { care.dexterity_modifier } else { 0 };
        let what = || format!("the amputation wound E IL{edge_il}");
        let (level, index) = treatment_rolls(care.physicians, eml, &what, self.dice, self.log);
        let row = capped_row(&edge, level, esev, index);
        if row <= SuccessLevel::Failure as usize && treatment == Treatment::Sur {
            self.log
                .say(|| "  the treatment opens a new Bleeder".to_owned());
            self.treatment_bleeder(i, induced)?;
        }
        match edge.effect[row][esev] {
            Hr(hr) => {
                let grim = esev == 2 && row == 0;
                let mut w = wound(edge_il, hr, row, &edge, grim, self.cauterised[i], site);
                w.lasting = true;
                w.born = self.day;
                w.minor_day = (edge_il <= 1).then_some(self.day);
                Ok(w)
            }
            _ => Ok(Healing::default()),
        }
    }

    /// "Amputating an infected limb also defeats infection; follow the Amputation treatment as
    /// for frost injuries": the AMP Treatment Roll (MOD 0 and DEX, no delay: the treatment is
    /// of the infection, now) gives the new Edge injury of the Frost table's Grievous column,
    /// which takes the infected wound's place. Returns the new wound, `None` when the option
    /// is off, nobody can amputate or the location is no limb.
    fn amputate_infected(&mut self, i: usize, w: &Healing) -> Result<Option<Healing>, Cause> {
        let care = self.care;
        let Some(injury) = self.injuries.get(i).copied() else {
            return Ok(None);
        };
        if !care.amputate_infected_limbs || !care.has_healer() || !amputable(injury.location) {
            return Ok(None);
        }
        let frost = table(Kind::Frost);
        let eml = frost.modifier[2] + care.dexterity_modifier;
        let what = || format!("amputating the infected {}", injury.location);
        let (level, _) = treatment_rolls(care.physicians, eml, &what, self.dice, self.log);
        let Amputate(edge_il) = frost.effect[level as usize][2] else {
            return Ok(None);
        };
        let mut new = self.amputation_wound(i, edge_il, (w.zone, w.location_shock))?;
        if new.live {
            new.next_roll = new.born + self.period();
        }
        Ok(Some(new))
    }

    /// The next healing period: five days, or d3+3 with `random_period`.
    fn period(&mut self) -> u32 {
        if self.care.random_period {
            self.dice.d(3, "d3 (healing period: d3+3 days)") + 3
        } else {
            5
        }
    }
}

/// Runs the healing sequence for a survivor of the duel (or a recovery patient).
pub fn heal<D: Dice, L: Log>(
    care: &Care,
    patient: &Patient,
    state: &State,
    location_shock: impl Fn(usize) -> i32,
    dice: &mut D,
    log: &mut L,
) -> Outcome {
    let mut t = Timeline {
        care,
        patient,
        injuries: &state.injuries,
        location_shock,
        dice,
        log,
        out: Outcome::default(),
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
    };
    match t.run(state) {
        Ok(()) | Err(_) => t.out,
    }
}

impl<D: Dice, L: Log, S: Fn(usize) -> i32> Timeline<'_, D, L, S> {
    fn run(&mut self, state: &State) -> Result<(), Cause> {
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
        let treated_on = match self.healer_from {
            Some(h) => over.max(h) / (24 * 60) + care.treatment_delay_days,
            None => over / (24 * 60),
        };
        let mut wounds = [Healing::default(); MAX];
        let n = self.injuries.len();
        self.heal_until_whole(&mut wounds[..n], treated_on)
    }

    /// Day by day from the fight: coma Course Rolls and blood regeneration from the start; the
    /// treatment on its day (steps 4 and 5); then grim wounds' daily Shock Rolls, infection,
    /// and Healing Rolls every five days from each injury (the first after the treatment day);
    /// until whole, dead or the horizon. Step 8 at the end.
    fn heal_until_whole(&mut self, wounds: &mut [Healing], treated_on: u32) -> Result<(), Cause> {
        let care = self.care;
        let mut treated = false;
        self.day = 0;
        loop {
            let day = self.day;
            if !treated && day >= treated_on {
                treated = true;
                for (i, w) in wounds.iter_mut().enumerate() {
                    *w = self.treat(i)?;
                }
                for w in wounds.iter_mut().filter(|w| w.live) {
                    let mut next = w.born + self.period();
                    while next <= day {
                        next += self.period();
                    }
                    w.next_roll = next;
                }
            }
            // One pass over the wounds: any still healing, any grim (a Shock Roll every day),
            // and the next Healing Roll.
            let mut live = false;
            let mut daily = self.infection.is_some();
            let mut next = u32::MAX;
            for w in wounds.iter().filter(|w| w.live) {
                live = true;
                daily |= w.grim && w.il >= 4;
                next = next.min(w.next_roll);
            }
            if treated && !live && self.bp == 0 && self.coma.is_none() {
                self.out.recovery.days_to_whole = Some(day);
                self.log.say(|| format!("whole after {day} days"));
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
            if next > care.horizon_days || self.dice.exhausted() {
                if let Some(c) = self.coma {
                    self.out.comatose_at_horizon = true;
                    self.out.coma_days = care.horizon_days - c.started;
                }
                self.log
                    .say(|| format!("not whole at the horizon ({} days)", care.horizon_days));
                break;
            }
            self.day = next;
            let day = next;
            // Grim wounds: a Shock Roll each day while Grievous with CF treatment.
            for w in wounds.iter().filter(|w| w.live && w.grim && w.il >= 4) {
                self.grim_shock(w.location_shock, w.il)?;
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
                self.next_blood = day + 10;
                if self.blood_skip {
                    self.blood_skip = false;
                } else {
                    let weakness = self.infection.map_or(0, |(hr, _)| infection_weakness(hr));
                    let t = Test::roll(
                        self.dice,
                        self.patient.endurance_ml - weakness,
                        "d100 (blood regeneration: Endurance)",
                    );
                    match t.level {
                        SuccessLevel::CriticalFailure => self.blood_skip = true,
                        SuccessLevel::Failure => {}
                        SuccessLevel::Success => self.bp = self.bp.saturating_sub(1),
                        SuccessLevel::CriticalSuccess => self.bp = self.bp.saturating_sub(2),
                    }
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
            }
            if !infected {
                self.healing_rolls(wounds)?;
            }
            // Coma: a Course Roll every ten days (never below HR1); HR6 wakes.
            if let Some(mut c) = self.coma.filter(|c| c.next_roll == day) {
                let eml = self.patient.healing_base * c.hr
                    - if care.shelter { 0 } else { 20 }
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
        // Step 8: permanent impairment: 5 per 20 days to heal to Minor, up to 25.
        for w in wounds.iter().filter(|w| w.lasting) {
            let days = w.minor_day.unwrap_or(self.day).saturating_sub(w.born);
            let permanent = (5 * (days as i32 / 20)).min(25);
            self.out.permanent[w.zone] = self.out.permanent[w.zone].max(permanent);
        }
        self.out.recovery.impairment = self.out.permanent.iter().sum::<i32>().max(0) as u32;
        Ok(())
    }

    /// The Healing Rolls due today, against HB × HR: S −1 IL, CS −2; a CF (with Cauterisation
    /// a failure ending 3, 5, 8 or 0) infects an injury whose treatment left the chance.
    fn healing_rolls(&mut self, wounds: &mut [Healing]) -> Result<(), Cause> {
        let day = self.day;
        for (i, w) in wounds.iter_mut().enumerate() {
            if !w.live || w.next_roll != day {
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
            if w.il <= 1 && w.minor_day.is_none() {
                w.minor_day = Some(day);
            }
            if w.il <= 0 {
                w.live = false;
            } else {
                w.next_roll = day + self.period();
            }
            if t.level == SuccessLevel::CriticalFailure && w.infection_chance {
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

#[cfg(test)]
#[path = "healing_ledger.rs"]
mod ledger;

#[cfg(test)]
mod tests {
    //! The text's worked healing examples (steps 1, 2, 5–8), on the ledger's patient.
    use super::*;
    use crate::rules::zone_d100::body::Location;
    use crate::rules::zone_d100::injury::Injury;

    fn injury(location: Location, aspect: Aspect, il: u8, bleeder: bool) -> Injury {
        Injury {
            bleeder,
            ..Injury::new(location, aspect, il)
        }
    }

    /// One healer of this Physician ML, five minutes away (the bleeding example's ally).
    fn care(ml: i32) -> Care {
        Care {
            help_minutes: Some(5),
            ..ledger::care(&[ml])
        }
    }

    fn run(care: &Care, state: &State, dice: &[u32]) -> (Outcome, String) {
        let r = ledger::run(care, state, dice);
        (r.out, r.story)
    }

    use crate::log::assert_in_order as in_order;

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

    #[test]
    fn grievous_frost_on_a_limb_is_amputated_into_a_new_edge_wound() {
        let mut state = State::default();
        state
            .injuries
            .add(injury(Location::Forearm, Aspect::Frost, 4, false));
        // AMP +0 with ML60: 42 S: a new S3 Edge injury, a Bleeder: Blood Stoppage 10 (CS). Its
        // treatment (Edge S, Clean & Dress +10): 31 S: HR5.
        let (_, story) = run(&care(60), &state, &[42, 10, 31, 20, 20, 20]);
        in_order(
            &story,
            &[
                "Treatment Roll 42 vs EML60: S",
                "Amputation: a new E injury IL3, a Bleeder",
                "Blood Stoppage Roll 10 vs EML60: CS",
                "day 5: Healing Roll 20 vs EML65",
            ],
        );
        // On the thorax there is nothing to amputate: a grim wound.
        let mut state = State::default();
        state
            .injuries
            .add(injury(Location::Thorax, Aspect::Frost, 4, false));
        let (_, story) = run(&care(60), &state, &[90, 90, 90]);
        assert!(
            story.contains("no Amputation possible: a grim wound") && !story.contains("Treatment"),
            "{story}"
        );
    }

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
