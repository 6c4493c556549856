//! The healing sequence as a timeline: bleeding (Blood Stoppage and Blood Loss Advance Rolls),
//! the pending Shock Rerolls, Extended Shock and coma Course Rolls, treatment by the TREATMENT
//! ROLL tables (with the Grievous HR cap, multiple healers, untreated injuries, grim wounds),
//! Healing Rolls every five days, blood regeneration, infection, and indefinite and permanent
//! impairment. The shades lost in extraction (infection chance, permanent impairment) are data.

use super::body::Zone;
use super::injury::{Aspect, Injuries, Severity, ShockState, severity};
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
            infection: CLOSED,
            impairment: LASTING,
        },
        Kind::Edge => Table {
            effect: STANDARD,
            treatment: [Treatment::Cln, Treatment::Cln, Treatment::Sur],
            modifier: [20, 10, 0],
            infection: OPEN,
            impairment: LASTING,
        },
        Kind::Point => Table {
            effect: STANDARD,
            treatment: [Treatment::Cln, Treatment::Cln, Treatment::Sur],
            modifier: [10, 0, -10],
            infection: OPEN,
            impairment: LASTING,
        },
        Kind::Projectile => Table {
            effect: STANDARD,
            treatment: [Treatment::Cln, Treatment::Ext, Treatment::Ext],
            modifier: [10, 0, -10],
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
            infection: [[false; 3]; 4],
            impairment: LASTING,
        },
        Kind::Fire => Table {
            effect: FIRE,
            treatment: [Treatment::Cmp, Treatment::Cln, Treatment::Cln],
            modifier: [20, 10, 0],
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
    /// Days in a coma.
    pub coma_days: u32,
}

/// A treated injury on the healing clock.
#[derive(Clone, Copy, Debug, Default)]
struct Healing {
    il: i32,
    hr: i32,
    infection_chance: bool,
    lasting: bool,
    grim: bool,
    cauterised: bool,
    next_roll: u32,
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

/// The bleeding of one patient: which injuries bleed, which were cauterised, the F bonus of
/// each, and the Blood Loss Points so far.
#[derive(Clone, Copy, Debug)]
struct Blood {
    bleeding: [bool; MAX],
    cauterised: [bool; MAX],
    f_bonus: [i32; MAX],
    bp: u32,
}

impl Default for Blood {
    fn default() -> Self {
        Blood {
            bleeding: [false; MAX],
            cauterised: [false; MAX],
            f_bonus: [0; MAX],
            bp: 0,
        }
    }
}

impl Blood {
    /// Five-minute periods from `start` until no injury bleeds: Blood Stoppage Rolls once a
    /// healer is there (after `healer_from` minutes), Blood Loss Advance Rolls for every bleeder.
    /// Returns the minute bleeding ended, `None` at the fourth BP (death).
    #[allow(clippy::too_many_arguments)]
    fn stop<D: Dice, L: Log>(
        &mut self,
        care: &Care,
        patient: &Patient,
        injuries: &Injuries,
        start: u32,
        healer_from: Option<u32>,
        shock: &mut ShockState,
        dice: &mut D,
        log: &mut L,
    ) -> Option<u32> {
        let mut minute = start;
        while self.bleeding.iter().any(|&b| b) {
            minute += 5;
            if minute > start + 24 * 60 {
                // Only CS advance rolls for a day: the bleeding is taken to have stopped.
                break;
            }
            let healer = healer_from.is_some_and(|h| minute > h);
            let treated = self.bleeding.iter().filter(|&&b| b).count() as i32;
            for i in 0..injuries.len() {
                if !self.bleeding[i] {
                    continue;
                }
                let mut stop_after = false;
                if healer {
                    let limb = injuries.get(i).is_some_and(|x| {
                        matches!(zone_of_location(x.location), Zone::Arm | Zone::Leg)
                    });
                    let eml = care.best_ml()
                        + if care.cauterise { 30 } else { 0 }
                        + if care.tourniquet && limb { 20 } else { 0 }
                        - 10 * (treated - 1)
                        + self.f_bonus[i];
                    let t = Test::roll(dice, eml, "d100 (Blood Stoppage Roll: Physician)");
                    log.say(|| {
                        format!(
                            "minute {minute}: Blood Stoppage Roll {} vs EML{eml}: {}",
                            t.roll,
                            t.level.abbreviation()
                        )
                    });
                    match t.level {
                        SuccessLevel::CriticalFailure => {}
                        SuccessLevel::Failure => {
                            self.f_bonus[i] = if care.cauterise { 0 } else { 10 }
                        }
                        SuccessLevel::Success => stop_after = true,
                        SuccessLevel::CriticalSuccess => {
                            self.bleeding[i] = false;
                            self.cauterised[i] = care.cauterise;
                            continue;
                        }
                    }
                }
                let t = Test::roll(
                    dice,
                    patient.strength_ml,
                    "d100 (Blood Loss Advance Roll: Strength)",
                );
                let points = match t.level {
                    SuccessLevel::CriticalFailure => 3,
                    SuccessLevel::Failure => 2,
                    SuccessLevel::Success => 1,
                    SuccessLevel::CriticalSuccess => 0,
                };
                for _ in 0..points {
                    self.bp += 1;
                    *shock = shock.stack(blood_box(self.bp));
                }
                let (bp, state) = (self.bp, *shock);
                log.say(|| format!("minute {minute}: Blood Loss Advance Roll {} vs EML{}: {}: {points} BP ({bp} in all), {}", t.roll, t.eml, t.level.abbreviation(), state.abbreviation()));
                if self.bp >= 4 {
                    log.say(|| "dies of blood loss".to_owned());
                    return None;
                }
                if stop_after {
                    self.bleeding[i] = false;
                    self.cauterised[i] = care.cauterise;
                }
            }
        }
        Some(minute)
    }
}

/// The column of a severity in the TREATMENT ROLL tables (M, S, G).
fn severity_index(il: u8) -> usize {
    match severity(il) {
        Severity::Minor => 0,
        Severity::Serious => 1,
        Severity::Grievous => 2,
    }
}

/// A Bleeder opened by treatment, on injury `i`, with the healer at hand staunching it at
/// once (step 1 again). Returns the Blood Loss Points after, `None` at the fourth (death).
#[allow(clippy::too_many_arguments)]
fn staunch_new_bleeder<D: Dice, L: Log>(
    care: &Care,
    patient: &Patient,
    injuries: &Injuries,
    i: usize,
    bp: u32,
    dice: &mut D,
    log: &mut L,
) -> Option<u32> {
    let mut blood = Blood {
        bp,
        ..Blood::default()
    };
    blood.bleeding[i] = true;
    let mut shock = ShockState::None;
    blood.stop(care, patient, injuries, 0, Some(0), &mut shock, dice, log)?;
    Some(blood.bp)
}

/// Runs the healing sequence for a survivor of the duel.
pub fn heal<D: Dice, L: Log>(
    care: &Care,
    patient: &Patient,
    state: &State,
    location_shock: impl Fn(usize) -> i32,
    dice: &mut D,
    log: &mut L,
) -> Outcome {
    let mut out = Outcome::default();
    let injuries: &Injuries = &state.injuries;
    let mut shock = state.shock;
    let mut extended = state.extended_shock.map(i32::from);
    let mut coma_hr = state
        .coma
        .then(|| (12 - i32::from(state.last_shock.0) - i32::from(state.last_shock.1)).max(1));
    // Pending Shock Rerolls: INC at once (the fight ended before its turn), UNC after ten minutes.
    let reroll = |dice: &mut D,
                  shock: ShockState,
                  extended: &mut Option<i32>,
                  coma_hr: &mut Option<i32>|
     -> ShockState {
        let (_, r) = super::injury::shock_reroll(dice, patient.shock_ml, 20, shock);
        match r {
            super::injury::Reroll::Extended(e) => {
                *extended = Some(i32::from(e.hr));
                if e.coma {
                    *coma_hr = Some(
                        (12 - i32::from(state.last_shock.0) - i32::from(state.last_shock.1)).max(1),
                    );
                }
                shock
            }
            super::injury::Reroll::Stunned => ShockState::None,
            super::injury::Reroll::Recovered => ShockState::None,
        }
    };
    if matches!(shock, ShockState::Incapacitated | ShockState::Unconscious) && extended.is_none() {
        shock = reroll(dice, shock, &mut extended, &mut coma_hr);
        log.say(|| {
            format!(
                "Shock Reroll after the fight: {}",
                match extended {
                    Some(hr) => format!("Extended Shock HR{hr}"),
                    None => "recovers".to_owned(),
                }
            )
        });
    }
    if shock == ShockState::Stunned {
        shock = ShockState::None;
    }

    // Step 1: bleeding, in five-minute periods.
    let mut blood = Blood::default();
    for (i, injury) in injuries.iter().enumerate() {
        blood.bleeding[i] = injury.bleeder;
    }
    let healer_from = care.help_minutes.filter(|_| care.has_healer());
    let Some(minute) = blood.stop(
        care,
        patient,
        injuries,
        0,
        healer_from,
        &mut shock,
        dice,
        log,
    ) else {
        out.cause = Some(Cause::BloodLoss);
        out.recovery.died = true;
        return out;
    };
    let bp = blood.bp;
    let cauterised = blood.cauterised;
    if bp > 0
        && matches!(shock, ShockState::Incapacitated | ShockState::Unconscious)
        && extended.is_none()
    {
        shock = reroll(dice, shock, &mut extended, &mut coma_hr);
    }
    let _ = shock;
    let anaemia = 5 * bp as i32;

    // Step 2: Extended Shock, a Course Roll every four hours.
    let mut hours = 0u32;
    if let Some(mut hr) = extended {
        let bonus = care
            .physicians
            .iter()
            .filter(|&&ml| ml > 0 && care.help_minutes.is_some())
            .map(
                |&ml| match Test::roll(dice, ml, "d100 (Physician: Extended Shock care)").level {
                    SuccessLevel::CriticalSuccess => 10,
                    SuccessLevel::Success => 5,
                    _ => 0,
                },
            )
            .max()
            .unwrap_or(0);
        while (1..6).contains(&hr) {
            hours += 4;
            let eml = patient.healing_base * hr - anaemia + bonus;
            let t = Test::roll(dice, eml, "d100 (Extended Shock Course Roll)");
            hr += hr_step(t.level);
            log.say(|| {
                format!(
                    "hour {hours}: Extended Shock Course Roll {} vs EML{eml}: {}: HR{hr}",
                    t.roll,
                    t.level.abbreviation()
                )
            });
        }
        if hr <= 0 {
            out.cause = Some(Cause::ExtendedShock);
            out.recovery.died = true;
            return out;
        }
    }

    // Step 3: coma, a Course Roll every ten days (never below HR1).
    if let Some(mut hr) = coma_hr {
        let mut days = 0;
        while hr < 6 && days < care.horizon_days {
            days += 10;
            let eml = patient.healing_base * hr - if care.shelter { 0 } else { 20 } - anaemia;
            let t = Test::roll(dice, eml, "d100 (coma Course Roll)");
            hr = (hr + hr_step(t.level)).max(1);
            log.say(|| {
                format!(
                    "day {days}: coma Course Roll {} vs EML{eml}: {}: HR{hr}",
                    t.roll,
                    t.level.abbreviation()
                )
            });
        }
        out.coma_days = days;
    }

    // Steps 4 and 5: treatment.
    let mut bp_after_treatment = bp;
    let start_day = (minute / (24 * 60)) + hours / 24 + care.treatment_delay_days;
    let mut wounds = [Healing::default(); MAX];
    for i in 0..injuries.len() {
        let Some(injury) = injuries.get(i) else {
            continue;
        };
        let kind = match injury.aspect {
            Aspect::Blunt => Kind::Blunt,
            Aspect::Edge => Kind::Edge,
            Aspect::Point if injury.impaled => Kind::Projectile,
            Aspect::Point => Kind::Point,
            Aspect::Fire => Kind::Fire,
            Aspect::Frost => Kind::Frost,
        };
        let sev = severity_index(injury.il);
        let t = table(kind);
        let mut level = SuccessLevel::CriticalFailure;
        let mut index_cap = 0;
        if care.has_healer() {
            // Healers in ascending Physician Index, each only if higher than those before.
            let mut mls = care.physicians;
            mls.sort_unstable();
            let mut last_index = -1;
            let mut best: Option<SuccessLevel> = None;
            for ml in mls.into_iter().filter(|&ml| ml > 0) {
                let index = ml / 10;
                if index <= last_index {
                    continue;
                }
                last_index = index;
                let boxed = matches!(t.treatment[sev], Treatment::Sur | Treatment::Ext);
                let eml = ml + t.modifier[sev] - 5 * start_day as i32
                    + if boxed { care.dexterity_modifier } else { 0 };
                let roll = Test::roll(dice, eml, "d100 (Treatment Roll: Physician)");
                log.say(|| {
                    format!(
                        "treating {:?} IL{}: Treatment Roll {} vs EML{eml}: {}",
                        injury.location,
                        injury.il,
                        roll.roll,
                        roll.level.abbreviation()
                    )
                });
                best = Some(match best {
                    Some(SuccessLevel::CriticalFailure) => SuccessLevel::CriticalFailure,
                    _ if roll.level == SuccessLevel::CriticalFailure => {
                        SuccessLevel::CriticalFailure
                    }
                    Some(b) => b.max(roll.level),
                    None => roll.level,
                });
                index_cap = index_cap.max(index);
            }
            level = best.unwrap_or(SuccessLevel::CriticalFailure);
        } else {
            log.say(|| {
                format!(
                    "{:?} IL{} is untreated: a CF result",
                    injury.location, injury.il
                )
            });
        }
        let row = level as usize;
        let mut effect = t.effect[row][sev];
        if sev == 2 {
            // The Grievous HR cap: the healer's Physician Index, or the CF level if higher.
            if let (Hr(cf_hr), Hr(hr)) = (t.effect[0][2], effect) {
                effect = Hr(hr.min((index_cap.max(0) as u8).max(cf_hr)));
            }
        }
        let zone = zone_index(zone_of_location(injury.location));
        // Surgery failing (F or CF), or extraction failing on a Grievous injury, causes a new
        // Bleeder: the healer at hand works to stop it.
        let failed = level <= SuccessLevel::Failure && care.has_healer();
        let new_bleeder = failed
            && (t.treatment[sev] == Treatment::Sur
                || (t.treatment[sev] == Treatment::Ext && sev == 2));
        if new_bleeder {
            log.say(|| "  the treatment opens a new Bleeder".to_owned());
            let Some(bp) =
                staunch_new_bleeder(care, patient, injuries, i, bp_after_treatment, dice, log)
            else {
                out.cause = Some(Cause::BloodLoss);
                out.recovery.died = true;
                return out;
            };
            bp_after_treatment = bp;
        }
        match effect {
            Heal => {
                log.say(|| "  healed by the treatment".to_owned());
            }
            Amputate(edge_il) => {
                use super::body::Location::{Cheek, Ear, Eye, Jaw, Mouth, Nose};
                let limb = matches!(zone_of_location(injury.location), Zone::Arm | Zone::Leg)
                    || matches!(injury.location, Eye | Nose | Cheek | Ear | Mouth | Jaw);
                if !limb || !care.has_healer() {
                    // No treatment: a grim wound (the CF rate of a Grievous injury).
                    log.say(|| {
                        "  Grievous frost with no Amputation possible: a grim wound".to_owned()
                    });
                    wounds[i] = Healing {
                        il: i32::from(injury.il),
                        hr: 2,
                        infection_chance: false,
                        lasting: true,
                        grim: true,
                        cauterised: false,
                        next_roll: start_day,
                        minor_day: None,
                        zone,
                        location_shock: location_shock(i),
                        live: true,
                    };
                    continue;
                }
                // Amputation inflicts a new Edge injury, a Bleeder, then treated as Edge.
                log.say(|| format!("  Amputation: a new E injury IL{edge_il}, a Bleeder"));
                let Some(bp) =
                    staunch_new_bleeder(care, patient, injuries, i, bp_after_treatment, dice, log)
                else {
                    out.cause = Some(Cause::BloodLoss);
                    out.recovery.died = true;
                    return out;
                };
                bp_after_treatment = bp;
                let edge = table(Kind::Edge);
                let esev = severity_index(edge_il);
                let boxed = matches!(edge.treatment[esev], Treatment::Sur);
                let eml = care.best_ml()
                    + edge.modifier[esev]
                    + if boxed { care.dexterity_modifier } else { 0 };
                let roll = Test::roll(dice, eml, "d100 (Treatment Roll: the amputation wound)");
                let row = roll.level as usize;
                let hr = match edge.effect[row][esev] {
                    Hr(hr) if esev == 2 => hr.min(((care.best_ml() / 10).max(0) as u8).max(2)),
                    Hr(hr) => hr,
                    _ => 6,
                };
                wounds[i] = Healing {
                    il: i32::from(edge_il),
                    hr: i32::from(hr),
                    infection_chance: edge.infection[row][esev],
                    lasting: true,
                    grim: esev == 2 && roll.level == SuccessLevel::CriticalFailure,
                    cauterised: false,
                    next_roll: start_day,
                    minor_day: (edge_il <= 1).then_some(0),
                    zone,
                    location_shock: location_shock(i),
                    live: true,
                };
            }
            Hr(hr) => {
                wounds[i] = Healing {
                    il: i32::from(injury.il),
                    hr: i32::from(hr),
                    infection_chance: t.infection[row][sev],
                    lasting: t.impairment[row][sev],
                    grim: sev == 2 && level == SuccessLevel::CriticalFailure,
                    cauterised: cauterised[i],
                    next_roll: start_day,
                    minor_day: (injury.il <= 1).then_some(0),
                    zone,
                    location_shock: location_shock(i),
                    live: true,
                };
            }
        }
    }

    let wounds = &mut wounds[..injuries.len()];
    // Steps 6 and 7: Healing Rolls every five days, blood regeneration every ten, infection
    // and grim wounds every day.
    let period = |dice: &mut D| {
        if care.random_period {
            dice.d(3, "d3 (healing period: d3+3 days)") + 3
        } else {
            5
        }
    };
    for w in wounds.iter_mut().filter(|w| w.live) {
        w.next_roll += period(dice);
    }
    let mut bp_left = bp_after_treatment as i32;
    let mut next_blood = start_day + 10;
    let mut blood_skip = false;
    let mut infection: Option<(usize, i32)> = None;
    let mut infection_bonus = 0;
    let mut day = start_day;
    loop {
        let whole = wounds.iter().all(|w| !w.live) && bp_left <= 0;
        if whole {
            out.recovery.days_to_whole = Some(day.max(out.coma_days));
            log.say(|| format!("whole after {} days", day.max(out.coma_days)));
            break;
        }
        // The next day anything happens: every day while an infection or a grim wound lasts,
        // otherwise the next Healing Roll or blood regeneration.
        let daily = infection.is_some() || wounds.iter().any(|w| w.live && w.grim && w.il >= 4);
        let next = if daily {
            day + 1
        } else {
            let rolls = wounds.iter().filter(|w| w.live).map(|w| w.next_roll);
            let blood = (bp_left > 0).then_some(next_blood);
            rolls.chain(blood).min().unwrap_or(day + 1).max(day + 1)
        };
        if next > care.horizon_days || dice.exhausted() {
            log.say(|| format!("not whole at the horizon ({} days)", care.horizon_days));
            break;
        }
        day = next;
        // Grim wounds: a Shock roll each day while Grievous with CF treatment.
        for w in wounds.iter().filter(|w| w.live && w.grim && w.il >= 4) {
            let s = super::injury::shock(dice, w.location_shock, w.il, patient.shock_ml);
            if s.state == ShockState::Killed {
                log.say(|| {
                    format!(
                        "day {day}: a grim wound's Shock roll {}: SHK {}: dies",
                        s.test.roll, s.index
                    )
                });
                out.cause = Some(Cause::GrimWound);
                out.recovery.died = true;
                return out;
            }
        }
        if let Some((i, hr)) = infection {
            // Infection weakness (HR1-2: 10, HR3-4: 5) and anaemia are fatigue on the roll.
            let weakness = match hr {
                1 | 2 => 10,
                3 | 4 => 5,
                _ => 0,
            };
            let eml = patient.healing_base * hr + infection_bonus - weakness - anaemia;
            let t = Test::roll(dice, eml, "d100 (Infection Course Roll)");
            let hr = hr + hr_step(t.level);
            log.say(|| {
                format!(
                    "day {day}: Infection Course Roll {} vs EML{eml}: {}: HR{hr}",
                    t.roll,
                    t.level.abbreviation()
                )
            });
            if hr <= 0 {
                out.cause = Some(Cause::Infection);
                out.recovery.died = true;
                return out;
            }
            if hr >= 6 {
                infection = None;
                // Healing Rolls resume a period later.
                for w in wounds.iter_mut().filter(|w| w.live) {
                    w.next_roll = day + period(dice);
                }
            } else {
                infection = Some((i, hr));
            }
            continue;
        }
        if bp_left > 0 && day >= next_blood {
            next_blood = day + 10;
            if blood_skip {
                blood_skip = false;
            } else {
                let t = Test::roll(
                    dice,
                    patient.endurance_ml,
                    "d100 (blood regeneration: Endurance)",
                );
                match t.level {
                    SuccessLevel::CriticalFailure => blood_skip = true,
                    SuccessLevel::Failure => {}
                    SuccessLevel::Success => bp_left -= 1,
                    SuccessLevel::CriticalSuccess => bp_left -= 2,
                }
                log.say(|| {
                    format!(
                        "day {day}: blood regeneration {}: {} BP left",
                        t.level.abbreviation(),
                        bp_left.max(0)
                    )
                });
            }
        }
        for (i, w) in wounds.iter_mut().enumerate() {
            if !w.live || w.next_roll != day {
                continue;
            }
            let eml = patient.healing_base * w.hr;
            let mut t = Test::roll(dice, eml, "d100 (Healing Roll)");
            if w.cauterised && !t.level.is_success() && matches!(t.roll % 10, 3 | 5 | 8 | 0) {
                t.level = SuccessLevel::CriticalFailure;
            }
            let step = match t.level {
                SuccessLevel::CriticalSuccess => 2,
                SuccessLevel::Success => 1,
                _ => 0,
            };
            w.il -= step;
            log.say(|| {
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
                w.next_roll = day + period(dice);
            }
            if t.level == SuccessLevel::CriticalFailure && w.infection_chance {
                infection = Some((i, (w.hr + 1).min(5)));
                out.infected = true;
                // An attending healer's Physician test: +5 a star to the Course Rolls.
                infection_bonus = care
                    .physicians
                    .iter()
                    .filter(|&&ml| ml > 0 && care.help_minutes.is_some())
                    .map(|&ml| {
                        match Test::roll(dice, ml, "d100 (Physician: infection care)").level {
                            SuccessLevel::CriticalSuccess => 10,
                            SuccessLevel::Success => 5,
                            _ => 0,
                        }
                    })
                    .max()
                    .unwrap_or(0);
                log.say(|| format!("day {day}: the injury is infected: healing stops"));
                break;
            }
        }
    }
    // Step 8: permanent impairment: 5 per 20 days to heal to Minor, up to 25.
    for w in wounds.iter().filter(|w| w.lasting) {
        let days = w.minor_day.unwrap_or(day);
        let permanent = (5 * (days as i32 / 20)).min(25);
        out.permanent[w.zone] = out.permanent[w.zone].max(permanent);
    }
    out.recovery.impairment = out.permanent.iter().sum::<i32>().max(0) as u32;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::zone_d100::body::{BodySide, Location};
    use crate::rules::zone_d100::injury::{Class, Injury};

    fn injury(location: Location, aspect: Aspect, il: u8, bleeder: bool) -> Injury {
        Injury {
            location,
            side: BodySide::Right,
            aspect,
            il,
            class: Class::Strike,
            bleeder,
            impaled: false,
            severed: false,
            compounded_g5: false,
            order: 0,
        }
    }

    const PATIENT: Patient = Patient {
        healing_base: 13,
        strength_ml: 60,
        endurance_ml: 60,
        shock_ml: 65,
    };

    fn care(ml: i32) -> Care {
        Care {
            physicians: [ml, 0, 0, 0],
            dexterity_modifier: 0,
            help_minutes: Some(5),
            cauterise: false,
            tourniquet: false,
            treatment_delay_days: 0,
            shelter: true,
            horizon_days: 365,
            random_period: false,
        }
    }

    fn run(care: &Care, state: &State, dice: &[u32]) -> (Outcome, String) {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let out = heal(care, &PATIENT, state, |_| 3, &mut scripted, &mut log);
        (out, log.lines.join("\n"))
    }

    fn in_order(story: &str, steps: &[&str]) {
        let mut from = 0;
        for step in steps {
            match story[from..].find(step) {
                Some(at) => from += at + step.len(),
                None => panic!("not found in order: {step}\n{story}"),
            }
        }
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
    fn the_grievous_hr_cap_is_the_physician_index_and_untreated_injuries_are_cf() {
        let mut state = State::default();
        state
            .injuries
            .add(injury(Location::Thigh, Aspect::Edge, 4, false));
        // Physician ML30 (index 3), CS: G HR5 capped at HR3: EML39.
        let (_, story) = run(&care(30), &state, &[30, 24]);
        assert!(story.contains("day 5: Healing Roll 24 vs EML39"), "{story}");
        // No healer: a CF result: HR2 and a grim wound (daily Shock rolls).
        let mut none = care(0);
        none.physicians = [0; 4];
        let (_, story) = run(&none, &state, &[50, 50]);
        assert!(story.contains("untreated: a CF result"), "{story}");
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
        let (_, story) = run(&care(60), &state, &[42, 90, 90, 90]);
        assert!(story.contains("a grim wound"), "{story}");
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
