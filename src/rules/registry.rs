//! The registry: the one place that lists the rulesets. Each entry gives a ruleset's id, its
//! summary, its documented parameters, how a scenario document becomes its compiled model, and
//! the shipped scenarios that show it (benched and allocation-tested); [`Model`] holds any
//! compiled model and [`with_model!`](crate::with_model) dispatches to the concrete one.
//!
//! Data flows one way: a command reads a scenario (`crate::scenario`: the file, its fields,
//! sweeps and errors, which knows no ruleset by name), the registry builds each point's model
//! ([`Registry`] implements [`Rulesets`] for it), the engine runs it, the stats count it and
//! the report shows it. Adding a ruleset: its folder under `src/rules/`, a variant of
//! [`Model`] with an arm in each of the two dispatch macros, and its entry in [`RULESETS`]
//! (see `CONTRIBUTING.md`).

use super::Ruleset;
use super::d6_pool::{self, D6Pool};
use super::guard_pierce::{self, GuardPierce};
use super::twin_d20::{self, TwinD20};
use super::wound_levels::{self, WoundLevels};
use super::zone_d100::{self, ZoneD100};
use crate::exact::{self, Table};
use crate::scenario::error::{InputError, Source};
use crate::scenario::schema::Parameter;
use crate::scenario::{self, Rulesets};
use crate::stats::{Side, TallyShape};
use std::path::Path;

/// A compiled model of one ruleset, ready to run.
#[derive(Clone, Debug)]
pub enum Model {
    /// The `twin-d20` ruleset.
    TwinD20(TwinD20),
    /// The `guard-pierce` ruleset.
    GuardPierce(GuardPierce),
    /// The `wound-levels` ruleset.
    WoundLevels(WoundLevels),
    /// The `zone-d100` ruleset (boxed: its armour tables are large).
    ZoneD100(Box<ZoneD100>),
    /// The `d6-pool` ruleset.
    D6Pool(D6Pool),
    /// A `zone-d100` recovery scenario: the healing sequence alone.
    ZoneD100Recovery(Box<zone_d100::recovery::Recovery>),
}

/// Runs `$body` with `$m` bound to the concrete model inside a [`Model`], so callers stay
/// generic and monomorphized.
#[macro_export]
macro_rules! with_model {
    ($model:expr, $m:ident => $body:expr) => {
        match $model {
            $crate::rules::registry::Model::TwinD20($m) => $body,
            $crate::rules::registry::Model::GuardPierce($m) => $body,
            $crate::rules::registry::Model::WoundLevels($m) => $body,
            $crate::rules::registry::Model::D6Pool($m) => $body,
            $crate::rules::registry::Model::ZoneD100(boxed) => {
                let $m = boxed.as_ref();
                $body
            }
            $crate::rules::registry::Model::ZoneD100Recovery(boxed) => {
                let $m = boxed.as_ref();
                $body
            }
        }
    };
}

/// Runs `$body` with `$m` and `$n` bound to two models of the same ruleset (the points of one
/// scenario always are), or `$otherwise` when they differ.
#[macro_export]
macro_rules! with_model_pair {
    ($a:expr, $b:expr, $m:ident, $n:ident => $body:expr, $otherwise:expr) => {
        match ($a, $b) {
            (
                $crate::rules::registry::Model::TwinD20($m),
                $crate::rules::registry::Model::TwinD20($n),
            ) => $body,
            (
                $crate::rules::registry::Model::GuardPierce($m),
                $crate::rules::registry::Model::GuardPierce($n),
            ) => $body,
            (
                $crate::rules::registry::Model::WoundLevels($m),
                $crate::rules::registry::Model::WoundLevels($n),
            ) => $body,
            (
                $crate::rules::registry::Model::D6Pool($m),
                $crate::rules::registry::Model::D6Pool($n),
            ) => $body,
            (
                $crate::rules::registry::Model::ZoneD100(x),
                $crate::rules::registry::Model::ZoneD100(y),
            ) => {
                let ($m, $n) = (x.as_ref(), y.as_ref());
                $body
            }
            (
                $crate::rules::registry::Model::ZoneD100Recovery(x),
                $crate::rules::registry::Model::ZoneD100Recovery(y),
            ) => {
                let ($m, $n) = (x.as_ref(), y.as_ref());
                $body
            }
            _ => $otherwise,
        }
    };
}

impl Model {
    /// The fighters' names, `a` then `b`.
    pub fn names(&self) -> [&str; 2] {
        with_model!(self, m => [&m.names[0], &m.names[1]])
    }

    /// Every fighter's name, side `a`'s first (a duel's two fighters are its sides).
    pub fn fighter_names(&self) -> Vec<&str> {
        match self {
            Model::TwinD20(m) => m.roster.fighter_names.iter().map(String::as_str).collect(),
            Model::GuardPierce(m) => m.roster.fighter_names.iter().map(String::as_str).collect(),
            Model::ZoneD100(m) => m.roster.fighter_names.iter().map(String::as_str).collect(),
            Model::D6Pool(m) => m.roster.fighter_names.iter().map(String::as_str).collect(),
            Model::WoundLevels(m) => m.roster.fighter_names.iter().map(String::as_str).collect(),
            _ => self.names().to_vec(),
        }
    }

    /// The histogram sizes of this model's tallies.
    pub fn shape(&self) -> TallyShape {
        with_model!(self, m => m.shape())
    }

    /// Whether this point is a recovery (one patient healing, no duel).
    pub fn is_recovery(&self) -> bool {
        matches!(self, Model::ZoneD100Recovery(_))
    }
}

/// A scenario with every point compiled by the registry.
pub type Scenario = scenario::Scenario<Model>;
/// One point of a [`Scenario`].
pub type Point = scenario::Point<Model>;

/// Compiles a one-point scenario of one ruleset from a scenario document.
pub type Build = fn(&Source) -> Result<Scenario, InputError>;

/// The shipped scenarios that show a ruleset: benched (`benches/duel.rs`) and checked for
/// allocations (`tests/no_alloc.rs`), paths from the crate's root.
#[derive(Clone, Copy, Debug)]
pub struct Examples {
    /// A duel: `duel/<id>` in the bench.
    pub duel: &'static str,
    /// A recovery scenario (`recovery/<id>`), for rulesets that read them.
    pub recovery: Option<&'static str>,
    /// An `[exact] grid` scenario (`exact/grid-<cells>-<id>`), for rulesets with an exchange.
    pub grid: Option<&'static str>,
    /// The scenario `duelsim new <id>` starts from (one that needs no catalogue): its path
    /// and its text, built into the binary.
    pub starter: (&'static str, &'static str),
}

/// A ruleset's `kind = "recovery"` scenarios: a patient healing, no duel.
#[derive(Clone, Copy, Debug)]
pub struct RecoveryKind {
    /// Compiles one (a point per healer set).
    pub build: Build,
    /// The keys it reads beyond the ruleset's `[healing]`, for `duelsim rulesets <id>`.
    pub keys: &'static [Parameter],
}

/// A ruleset the tool knows about.
#[derive(Clone, Copy, Debug)]
pub struct RulesetInfo {
    /// The id a scenario names in `ruleset = "..."`.
    pub id: &'static str,
    /// One line on what it covers.
    pub summary: &'static str,
    /// Whether its text has death during recovery (else the column means nothing for it).
    pub recovery_deaths: bool,
    /// Whether its text leaves lasting impairment.
    pub impairment: bool,
    /// Its documented parameters, as `duelsim rulesets <id>` lists them.
    pub parameters: &'static [Parameter],
    /// Compiles a duel scenario of this ruleset.
    pub build: Build,
    /// Its recovery scenarios, if its text has a healing sequence to run alone.
    pub recovery: Option<RecoveryKind>,
    /// More text for `duelsim rulesets <id>` after the parameters (e.g. the armour locations).
    pub listing_note: Option<fn() -> String>,
    /// Its page `docs/rules/<id>.md`, built into the binary: the report shows its assumptions.
    pub rules_page: &'static str,
    /// What the tally records for a hit, in the ruleset's own words, and what 0 means: the
    /// "what a hit does" chart's unit.
    pub hit_words: (&'static str, &'static str),
    /// The names of what a hit records, value by value, when they are levels with names rather
    /// than amounts (zone-d100's injury levels): the chart then draws the shares as stacked bars
    /// labelled by name.
    pub hit_levels: Option<&'static [&'static str]>,
    /// Its shipped example scenarios.
    pub examples: Examples,
}

/// Every ruleset, in the order the shared rules README lists them.
pub const RULESETS: [RulesetInfo; 5] = [
    RulesetInfo {
        id: twin_d20::ID,
        summary: "black and white d20 vs Defense; Coverage/Protection; wound circles vs Toughness; Aftermath; Recovery and Medicine",
        recovery_deaths: false,
        impairment: false,
        parameters: twin_d20::PARAMETERS,
        build: |source| {
            scenario::build::<twin_d20::File, _>(source, twin_d20::ID, |f, s| {
                Ok(Model::TwinD20(TwinD20::compile(f, s)?))
            })
        },
        recovery: None,
        listing_note: None,
        rules_page: include_str!("../../docs/rules/twin-d20.md"),
        hit_words: ("damage after armour", "the armour stopped it all"),
        hit_levels: None,
        examples: Examples {
            duel: "scenarios/twin-d20/knight-vs-brigand.toml",
            recovery: None,
            grid: Some("scenarios/twin-d20/to-hit-table.toml"),
            starter: (
                "scenarios/twin-d20/knight-vs-brigand.toml",
                include_str!("../../scenarios/twin-d20/knight-vs-brigand.toml"),
            ),
        },
    },
    RulesetInfo {
        id: guard_pierce::ID,
        summary: "two d20 vs Guard, Hit / Full Hit, damage roll, Pierce vs Protection interval, Stun and Injury rows, infection",
        recovery_deaths: true,
        impairment: false,
        parameters: guard_pierce::PARAMETERS,
        build: |source| {
            scenario::build::<guard_pierce::File, _>(source, guard_pierce::ID, |f, s| {
                Ok(Model::GuardPierce(GuardPierce::compile(f, s)?))
            })
        },
        recovery: None,
        listing_note: None,
        rules_page: include_str!("../../docs/rules/guard-pierce.md"),
        hit_words: (
            "wound row marked",
            "armour deflected it or nothing was marked",
        ),
        hit_levels: None,
        examples: Examples {
            duel: "scenarios/guard-pierce/cudgel-vs-sword.toml",
            recovery: None,
            grid: Some("scenarios/guard-pierce/guard-table.toml"),
            starter: (
                "scenarios/guard-pierce/cudgel-vs-sword.toml",
                include_str!("../../scenarios/guard-pierce/cudgel-vs-sword.toml"),
            ),
        },
    },
    RulesetInfo {
        id: zone_d100::ID,
        summary: "d100 tests, victory stars, Zone and Location Dice, injury, shock, effects, morale; melee and missile duels; the whole healing sequence",
        recovery_deaths: true,
        impairment: true,
        parameters: zone_d100::PARAMETERS,
        build: |source| {
            scenario::build::<zone_d100::File, _>(source, zone_d100::ID, |f, s| {
                Ok(Model::ZoneD100(Box::new(ZoneD100::compile(f, s)?)))
            })
        },
        recovery: Some(RecoveryKind {
            build: |source| {
                Ok(zone_d100::recovery::build(source)?.map_models(Model::ZoneD100Recovery))
            },
            keys: zone_d100::recovery::RECOVERY_KEYS,
        }),
        listing_note: Some(zone_d100::schema::armour_locations_note),
        rules_page: include_str!("../../docs/rules/zone-d100.md"),
        hit_words: (
            "injury level (1-5: M1 to G5)",
            "no injury, or a glancing blow",
        ),
        hit_levels: Some(&["none or glancing", "M1", "S2", "S3", "G4", "G5"]),
        examples: Examples {
            duel: "scenarios/zone-d100/broadsword-vs-spear.toml",
            recovery: Some("scenarios/zone-d100/recovery-g4-shoulder-healers.toml"),
            grid: Some("scenarios/zone-d100/mace-strike-table.toml"),
            starter: (
                "scenarios/zone-d100/broadsword-vs-spear.toml",
                include_str!("../../scenarios/zone-d100/broadsword-vs-spear.toml"),
            ),
        },
    },
    RulesetInfo {
        id: wound_levels::ID,
        summary: "4dF plus skill levels, initiative, multiple actions, Evasion and dodges, wound levels 1-7, Critical/Terminal deterioration",
        recovery_deaths: true,
        impairment: false,
        parameters: wound_levels::PARAMETERS,
        build: |source| {
            scenario::build::<wound_levels::File, _>(source, wound_levels::ID, |f, s| {
                Ok(Model::WoundLevels(WoundLevels::compile(f, s)?))
            })
        },
        recovery: None,
        listing_note: None,
        rules_page: include_str!("../../docs/rules/wound-levels.md"),
        hit_words: (
            "damage after armour (wound levels)",
            "the armour stopped it all",
        ),
        hit_levels: None,
        examples: Examples {
            duel: "scenarios/wound-levels/knife-vs-pistol.toml",
            recovery: None,
            grid: None,
            starter: (
                "scenarios/wound-levels/bruiser-vs-fencer.toml",
                include_str!("../../scenarios/wound-levels/bruiser-vs-fencer.toml"),
            ),
        },
    },
    RulesetInfo {
        id: d6_pool::ID,
        summary: "d6 attack pool, highest-die attack table, blocking with 6s, criticals, luck, heal and ammo pools",
        recovery_deaths: false,
        impairment: false,
        parameters: d6_pool::PARAMETERS,
        build: |source| {
            scenario::build::<d6_pool::File, _>(source, d6_pool::ID, |f, s| {
                Ok(Model::D6Pool(D6Pool::compile(f, s)?))
            })
        },
        recovery: None,
        listing_note: None,
        rules_page: include_str!("../../docs/rules/d6-pool.md"),
        hit_words: ("damage dealt", "blocked"),
        hit_levels: None,
        examples: Examples {
            duel: "scenarios/d6-pool/berserker-vs-shieldwall.toml",
            recovery: None,
            grid: None,
            starter: (
                "scenarios/d6-pool/berserker-vs-shieldwall.toml",
                include_str!("../../scenarios/d6-pool/berserker-vs-shieldwall.toml"),
            ),
        },
    },
];

/// The ruleset of an id.
pub fn info(id: &str) -> Option<&'static RulesetInfo> {
    RULESETS.iter().find(|r| r.id == id)
}

/// The ids of all rulesets, for suggestions.
pub fn ids() -> Vec<&'static str> {
    RULESETS.iter().map(|r| r.id).collect()
}

/// The documented parameters of a ruleset, `None` for an unknown id.
pub fn parameters(id: &str) -> Option<&'static [Parameter]> {
    info(id).map(|r| r.parameters)
}

/// The registry as scenario reading sees it: [`RULESETS`] behind the [`Rulesets`] trait.
#[derive(Clone, Copy, Debug)]
pub struct Registry;

impl Rulesets for Registry {
    type Model = Model;

    fn ids() -> Vec<&'static str> {
        ids()
    }

    fn with_recovery() -> Vec<&'static str> {
        RULESETS
            .iter()
            .filter(|r| r.recovery.is_some())
            .map(|r| r.id)
            .collect()
    }

    fn parameters(id: &str) -> &'static [Parameter] {
        parameters(id).unwrap_or(&[])
    }

    fn build(id: &str, recovery: bool, source: &Source) -> Result<Scenario, InputError> {
        let Some(info) = info(id) else {
            return Err(InputError::plain(format!(
                "no ruleset '{id}' in the registry"
            )));
        };
        match (recovery, info.recovery) {
            (true, Some(kind)) => (kind.build)(source),
            (true, None) => Err(InputError::plain(format!(
                "the ruleset '{id}' has no recovery scenarios"
            ))),
            (false, _) => (info.build)(source),
        }
    }
}

/// Reads, validates and compiles a scenario file.
pub fn load(path: &Path) -> Result<Scenario, InputError> {
    scenario::load::<Registry>(path)
}

/// Validates and compiles scenario text read from `path` (see [`scenario::parse`]).
pub fn parse(path: &Path, text: &str) -> Result<Scenario, InputError> {
    scenario::parse::<Registry>(path, text)
}

/// The table of a's exchange on b at every cell of a grid, row by row (one cell per row value
/// for a one-path grid).
pub fn grid_tables(grid: &crate::scenario::grid::Grid) -> anyhow::Result<Vec<Table>> {
    let rows = grid.axes.first().map_or(0, |(_, v)| v.len());
    let columns = grid.axes.get(1).map_or(0, |(_, v)| v.len());
    let mut tables = Vec::with_capacity(grid.cells());
    for r in 0..rows {
        for c in 0..columns.max(1) {
            let cell = if columns == 0 { vec![r] } else { vec![r, c] };
            let model = grid.model_at::<Registry>(&cell)?;
            tables.push(exact_table(&model, Side::A).map_err(|message| {
                crate::scenario::error::InputError {
                    place: grid.file().display().to_string(),
                    field: Some("exact.grid".to_owned()),
                    message,
                }
            })?);
        }
    }
    Ok(tables)
}

/// The exact table of `attacker`'s exchange on the other fighter of `model`.
pub fn exact_table(model: &Model, attacker: Side) -> Result<Table, String> {
    match model {
        Model::TwinD20(m) => exact::walk(m, attacker),
        Model::GuardPierce(m) => exact::walk(m, attacker),
        Model::WoundLevels(m) => exact::walk(m, attacker),
        Model::D6Pool(m) => exact::walk(m, attacker),
        Model::ZoneD100(m) => exact::walk_staged(m.as_ref(), attacker),
        Model::ZoneD100Recovery(_) => {
            Err("a recovery scenario has no exchange; expected a duel scenario".to_owned())
        }
    }
}
