//! Recovery scenarios (`kind = "recovery"`): no duel, a patient with given injuries goes through
//! the healing sequence, so a designer can ask how long a G4 edge shoulder takes with a skilled
//! surgeon and with none. `compare_physicians` runs one point per healer set.

use super::healing::{self, Care, Patient};
use super::injury::{Aspect, Class, Injury, ShockState};
use super::melee::State;
use super::schema::{Healing, LocationName};
use super::{EXTRAS, record_healing};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::Ruleset;
use crate::scenario::error::{InputError, Source};
use crate::scenario::fields::Ranged;
use crate::scenario::{Point, Scenario, check_name, sha256_hex};
use crate::stats::{DuelOutcome, Side, Tally, TallyShape};
use serde::Deserialize;
use toml::Spanned;

/// The keys of a recovery scenario (`kind = "recovery"`) beyond the `[healing]` table, for
/// `duelsim rulesets zone-d100`.
pub const RECOVERY_KEYS: &[crate::rules::Parameter] = &[
    crate::rules::Parameter {
        section: "kind = \"recovery\": top level",
        key: "name / ruleset / kind",
        default: "required",
        doc: "as a duel, with kind = \"recovery\": one patient healing, no duel",
    },
    crate::rules::Parameter {
        section: "kind = \"recovery\": top level",
        key: "seed / trials / description",
        default: "1 / 100000 / none",
        doc: "as a duel",
    },
    crate::rules::Parameter {
        section: "kind = \"recovery\": top level",
        key: "compare_physicians",
        default: "[]",
        doc: "one point per healer set, each a list of Physician MLs ([] for no healer)",
    },
    crate::rules::Parameter {
        section: "patient",
        key: "name",
        default: "\"patient\"",
        doc: "shown in the report",
    },
    crate::rules::Parameter {
        section: "patient",
        key: "healing_base / strength_ml / endurance_ml / shock_ml",
        default: "13 / 60 / 60 / 60",
        doc: "Healing Base and the MLs the healing rolls against",
    },
    crate::rules::Parameter {
        section: "patient",
        key: "extended_shock_hr / fatigue",
        default: "none / 0",
        doc: "Extended Shock's HR at the start, if in it; fatigue penalty carried in",
    },
    crate::rules::Parameter {
        section: "patient",
        key: "injuries",
        default: "required",
        doc: "[{ location, aspect, level, ... }], each as below",
    },
    crate::rules::Parameter {
        section: "patient.injuries[]",
        key: "location / aspect / level",
        default: "required",
        doc: "an armour location name (above); B, E, P or F; 1-5 (M1, S2, S3, G4, G5)",
    },
    crate::rules::Parameter {
        section: "patient.injuries[]",
        key: "bleeder / impaled / projectile / broadhead / area",
        default: "false",
        doc: "a Bleeder; an impaled arrow; an arrow wound; a broadhead; an Area fire/frost injury",
    },
];

/// A recovery scenario file.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecoveryFile {
    /// The scenario's name.
    pub name: Spanned<String>,
    /// `zone-d100`.
    pub ruleset: Spanned<String>,
    /// `recovery`.
    pub kind: Spanned<String>,
    /// Free text.
    #[serde(default)]
    pub description: Option<String>,
    /// The seed.
    #[serde(default = "seed")]
    pub seed: Ranged<0, { i64::MAX }>,
    /// Trials per point.
    #[serde(default = "trials")]
    pub trials: Ranged<1, 1_000_000_000_000>,
    /// The patient.
    pub patient: PatientSpec,
    /// The care (`[healing]`, or `[aftermath]`).
    #[serde(default, alias = "aftermath")]
    pub healing: Healing,
    /// Values varied over the points (read by [`crate::scenario::sweep`]).
    #[serde(default)]
    pub sweep: Option<toml::Table>,
    /// One point per healer set (each a list of Physician MLs; `[]` for none).
    #[serde(default, deserialize_with = "super::schema::healer_sets")]
    pub compare_physicians: Vec<Vec<Ranged<0, 150>>>,
}

fn seed() -> Ranged<0, { i64::MAX }> {
    Ranged::new(1)
}

fn trials() -> Ranged<1, 1_000_000_000_000> {
    Ranged::new(100_000)
}

/// The patient of a recovery scenario.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatientSpec {
    /// Shown in reports.
    pub name: Option<String>,
    /// Healing Base.
    #[serde(default = "thirteen")]
    pub healing_base: Ranged<1, 30>,
    /// Strength ML.
    #[serde(default = "sixty")]
    pub strength_ml: Ranged<0, 150>,
    /// Endurance ML.
    #[serde(default = "sixty")]
    pub endurance_ml: Ranged<0, 150>,
    /// Shock ML.
    #[serde(default = "sixty")]
    pub shock_ml: Ranged<0, 150>,
    /// The injuries to heal.
    pub injuries: Vec<InjurySpec>,
    /// Extended Shock's HR at the start, if in Extended Shock.
    pub extended_shock_hr: Option<Ranged<1, 5>>,
    /// Fatigue penalty carried into the healing (Shock rolls, Shock Rerolls, Extended Shock).
    #[serde(default)]
    pub fatigue: Ranged<0, 100>,
}

fn thirteen() -> Ranged<1, 30> {
    Ranged::new(13)
}

fn sixty() -> Ranged<0, 150> {
    Ranged::new(60)
}

/// One injury of the patient.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InjurySpec {
    /// Where.
    pub location: LocationName,
    /// B, E, P or F.
    pub aspect: Aspect,
    /// Injury level 1 to 5 (M1, S2, S3, G4, G5).
    pub level: Ranged<1, 5>,
    /// A Bleeder.
    #[serde(default)]
    pub bleeder: bool,
    /// An impaled arrow or bolt (a projectile wound of S3 or worse).
    #[serde(default)]
    pub impaled: bool,
    /// A wound from an arrow or bolt (treated by the Projectile table); `impaled` and
    /// `broadhead` imply it.
    #[serde(default)]
    pub projectile: bool,
    /// A wound from a broadhead arrow (the Projectile table's BRD row).
    #[serde(default)]
    pub broadhead: bool,
    /// An Area fire or frost injury (diffuse over the body).
    #[serde(default)]
    pub area: Option<Spanned<bool>>,
}

/// A compiled recovery point.
#[derive(Clone, Debug)]
pub struct Recovery {
    /// The patient's name (twice: reports name two sides).
    pub names: [String; 2],
    /// The care.
    pub care: Care,
    /// The patient.
    pub patient: Patient,
    /// The state the healing starts from.
    pub start: State,
    /// Days followed.
    pub horizon_days: u32,
}

impl Ruleset for Recovery {
    fn shape(&self) -> TallyShape {
        TallyShape {
            round_limit: 1,
            max_damage: 5,
            horizon_days: self.horizon_days,
            extras: EXTRAS,
            sides: [1, 1],
        }
    }

    fn trial<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        tally.record_duel(&DuelOutcome {
            winner: None,
            rounds: 0,
            dead: [0, 0],
        });
        let shock_of = |i: usize| {
            self.start
                .injuries
                .get(i)
                .map_or(0, |x| super::location_shock(x.location))
        };
        dice.stream(Stream::new(super::Purpose::Healing, 0, 0));
        let mut out = healing::Outcome::default();
        let (care, patient) = (&self.care, &self.patient);
        healing::heal(care, patient, &self.start, shock_of, dice, log, &mut out);
        record_healing(tally, Side::A, &out);
    }
}

impl crate::rules::RegisteredRecovery for Recovery {
    const KEYS: &'static [crate::rules::Parameter] = RECOVERY_KEYS;

    fn build(source: &Source) -> Result<Scenario<Box<Recovery>>, InputError> {
        build(source)
    }
}

impl Recovery {
    /// The names it reports under (the patient's, for both sides' columns).
    pub fn fighter_names(&self) -> Vec<&str> {
        self.names.iter().map(String::as_str).collect()
    }

    /// A recovery has no exchange to tabulate.
    pub fn exact_table(&self, _attacker: Side) -> Result<crate::exact::Table, String> {
        Err("a recovery scenario has no exchange; expected a duel scenario".to_owned())
    }
}

/// Reads and compiles a recovery scenario.
pub fn build(source: &Source) -> Result<Scenario<Box<Recovery>>, InputError> {
    let file: RecoveryFile = toml::from_str(source.text).map_err(|e| source.from_toml(&e))?;
    let name = check_name(&file.name, source)?;
    let p = &file.patient;
    if let Some(i) = p.injuries.iter().find(|i| {
        i.area.as_ref().is_some_and(|a| *a.get_ref())
            && !matches!(i.aspect, Aspect::Fire | Aspect::Frost)
    }) {
        return Err(source.error_at(
            i.area.as_ref().map(|a| a.span()),
            Some("patient.injuries.area"),
            "expected an Area injury to be of aspect F (fire) or frost",
        ));
    }
    if p.injuries.is_empty() {
        return Err(source.error_at(
            Some(file.name.span()),
            Some("patient.injuries"),
            "expected at least one injury to heal",
        ));
    }
    let mut start = State::default();
    for i in &p.injuries {
        let plain = Injury::new(i.location.0, i.aspect, i.level.u32() as u8);
        start.injuries.add(Injury {
            class: if i.area.as_ref().is_some_and(|a| *a.get_ref()) {
                Class::Area
            } else {
                plain.class
            },
            bleeder: i.bleeder,
            impaled: i.impaled,
            projectile: i.projectile || i.impaled || i.broadhead,
            broadhead: i.broadhead,
            ..plain
        });
    }
    start.summarise();
    if let Some(hr) = &p.extended_shock_hr {
        start.extended_shock = Some(hr.u32() as u8);
        start.shock = ShockState::Incapacitated;
    }
    let patient = Patient {
        healing_base: p.healing_base.i32(),
        strength_ml: p.strength_ml.i32(),
        endurance_ml: p.endurance_ml.i32(),
        shock_ml: p.shock_ml.i32(),
        fatigue: p.fatigue.i32(),
    };
    let patient_name = p.name.clone().unwrap_or_else(|| "patient".to_owned());
    let sets: Vec<Option<&Vec<Ranged<0, 150>>>> = if file.compare_physicians.is_empty() {
        vec![None]
    } else {
        file.compare_physicians.iter().map(Some).collect()
    };
    let points = sets
        .into_iter()
        .map(|set| {
            let mut healing = file.healing.clone();
            let mut swept = Vec::new();
            if let Some(set) = set {
                healing.physicians = set.clone();
                let text: Vec<String> = set.iter().map(|ml| ml.get().to_string()).collect();
                swept.push((
                    "healing.physicians".to_owned(),
                    format!("[{}]", text.join(" ")),
                ));
            }
            Point {
                swept,
                model: Box::new(Recovery {
                    names: [patient_name.clone(), patient_name.clone()],
                    care: healing.care(),
                    patient,
                    start,
                    horizon_days: healing.horizon_days.u32(),
                }),
            }
        })
        .collect();
    Ok(Scenario {
        path: source.path.to_owned(),
        name,
        description: file.description.clone(),
        ruleset: super::ID,
        seed: file.seed.get() as u64,
        trials: file.trials.get() as u64,
        precision: None,
        source_hash: sha256_hex(source.text.as_bytes()),
        sources: crate::scenario::Sources {
            text: source.text.to_owned(),
            catalogues: Vec::new(),
        },
        points,
        baseline: None,
        balance: None,
    })
}
