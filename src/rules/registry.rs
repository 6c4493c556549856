//! The registry: the one place that lists the rulesets. Each entry gives a ruleset's id, its
//! summary, its documented parameters (its [`About`], from its own folder), how a scenario
//! document becomes its compiled model, and the shipped scenarios that show it (benched and
//! allocation-tested); [`Model`] holds any compiled model and
//! [`with_model!`](crate::with_model) dispatches to the concrete one.
//!
//! Data flows one way: a command reads a scenario (`crate::scenario`: the file, its fields,
//! sweeps and errors, which knows no ruleset by name), the registry builds each point's model
//! ([`Registry`] implements [`Rulesets`] for it), the engine runs it, the stats count it and
//! the report shows it. Adding a ruleset: its folder under `src/rules/` (with its
//! [`Registered`] impl) and one line in the list of [`for_each_model!`](crate::for_each_model),
//! from which [`Model`], [`RULESETS`] and the dispatch macros are made (see `CONTRIBUTING.md`).

use super::campaign::{Campaign, Carried, Encounter, Seats};
use super::{About, Registered, RegisteredRecovery, Ruleset};
use crate::exact::Table;
use crate::scenario::error::{InputError, Source};
use crate::scenario::schema::Parameter;
use crate::scenario::{self, Kind, Rulesets};
use crate::stats::{Side, TallyShape};
use std::path::Path;

/// The list of rulesets: one line each, `Variant(model type)`, with `+ Variant(model type)` for
/// a ruleset's recovery scenarios. Everything that names the rulesets one by one ([`Model`],
/// [`RULESETS`], [`with_model!`](crate::with_model), [`with_model_pair!`](crate::with_model_pair))
/// is made from it: `for_each_model!(some_macro!(args))` calls `some_macro!(args; list)`.
#[macro_export]
#[doc(hidden)]
macro_rules! for_each_model {
    ($($callback:ident)::+ ! ($($args:tt)*)) => {
        $($callback)::+ ! { $($args)*;
            TwinD20($crate::rules::twin_d20::TwinD20) ~ TwinD20Campaign,
            GuardPierce($crate::rules::guard_pierce::GuardPierce) ~ GuardPierceCampaign,
            ZoneD100($crate::rules::zone_d100::ZoneD100) ~ ZoneD100Campaign + ZoneD100Recovery($crate::rules::zone_d100::recovery::Recovery),
            WoundLevels($crate::rules::wound_levels::WoundLevels) ~ WoundLevelsCampaign,
            D6Pool($crate::rules::d6_pool::D6Pool) ~ D6PoolCampaign,
        }
    };
}

/// Makes [`Model`] (a boxed variant per model, and `From` each model), and [`RULESETS`] (each
/// ruleset's [`About`], how its files compile and its recovery scenarios) from the list.
macro_rules! define_models {
    (; $($variant:ident($model:ty) $(~ $campaign:ident)? $(+ $recovery:ident($recovery_model:ty))?),* $(,)?) => {
        /// A compiled model of one ruleset (or of a ruleset's recovery scenario), ready to run.
        #[derive(Clone, Debug)]
        pub enum Model {
            $(
                #[doc = concat!("A `", stringify!($model), "`.")]
                $variant(Box<$model>),
                $(
                    #[doc = concat!("A campaign of `", stringify!($model), "`.")]
                    $campaign(Box<$crate::rules::campaign::Campaign<$model>>),
                )?
                $(
                    #[doc = concat!("A `", stringify!($recovery_model), "`.")]
                    $recovery(Box<$recovery_model>),
                )?
            )*
        }

        $(
            impl From<Box<$model>> for Model {
                fn from(model: Box<$model>) -> Model {
                    Model::$variant(model)
                }
            }
            $(
                impl From<Box<$crate::rules::campaign::Campaign<$model>>> for Model {
                    fn from(model: Box<$crate::rules::campaign::Campaign<$model>>) -> Model {
                        Model::$campaign(model)
                    }
                }
            )?
            $(
                impl From<Box<$recovery_model>> for Model {
                    fn from(model: Box<$recovery_model>) -> Model {
                        Model::$recovery(model)
                    }
                }
            )?
        )*

        impl Model {
            /// The outline of a campaign (its encounters, party and columns); `None` for a
            /// fight or a recovery.
            pub fn campaign(&self) -> Option<&$crate::rules::campaign::Outline> {
                match self {
                    $($(Model::$campaign(c) => Some(&c.outline),)?)*
                    _ => None,
                }
            }

            /// A campaign's encounter `k` (from 0) as a fight of its own, fresh, with its
            /// healing: what a campaign's cost is set against (`campaign/<id>` benches).
            pub fn encounter(&self, k: usize) -> Option<Model> {
                match self {
                    $($(Model::$campaign(c) => c
                        .encounters
                        .get(k)
                        .map(|e| Model::$variant(Box::new(e.fight.clone()))),)?)*
                    _ => None,
                }
            }
        }

        /// Every ruleset, in the order the shared rules README lists them.
        pub const RULESETS: &[RulesetInfo] = &[
            $( entry::<$model>(recovery_kind!($($recovery_model)?), campaign_kind!($model $(, $campaign)?)), )*
        ];
    };
}

/// A ruleset's recovery kind, or `None` when the list gives it none.
macro_rules! recovery_kind {
    () => {
        None
    };
    ($recovery_model:ty) => {
        Some(RecoveryKind {
            build: build_recovery::<$recovery_model>,
            keys: <$recovery_model as RegisteredRecovery>::KEYS,
        })
    };
}

/// How a ruleset's campaigns compile, or `None` when the list gives it none.
macro_rules! campaign_kind {
    ($model:ty) => {
        None
    };
    ($model:ty, $campaign:ident) => {
        Some(build_campaign::<$model> as Build)
    };
}

for_each_model!(define_models!());

/// Runs `$body` with `$m` bound to the concrete model inside a [`Model`], so callers stay
/// generic and monomorphized.
#[macro_export]
macro_rules! with_model {
    ($model:expr, $m:ident => $body:expr) => {
        $crate::for_each_model!($crate::__with_model_arms!($model, $m, $body))
    };
}

/// The arms of [`with_model!`](crate::with_model), one per model of the list.
#[macro_export]
#[doc(hidden)]
macro_rules! __with_model_arms {
    ($model:expr, $m:ident, $body:expr;
     $($variant:ident($inner:ty) $(~ $campaign:ident)? $(+ $recovery:ident($recovery_model:ty))?),* $(,)?) => {
        match $model {
            $(
                $crate::rules::registry::Model::$variant(boxed) => {
                    let $m: &$inner = &**boxed;
                    $body
                }
                $(
                    $crate::rules::registry::Model::$campaign(boxed) => {
                        let $m: &$crate::rules::campaign::Campaign<$inner> = &**boxed;
                        $body
                    }
                )?
                $(
                    $crate::rules::registry::Model::$recovery(boxed) => {
                        let $m: &$recovery_model = &**boxed;
                        $body
                    }
                )?
            )*
        }
    };
}

/// Runs `$body` with `$m` and `$n` bound to two models of the same ruleset (the points of one
/// scenario always are), or `$otherwise` when they differ.
#[macro_export]
macro_rules! with_model_pair {
    ($a:expr, $b:expr, $m:ident, $n:ident => $body:expr, $otherwise:expr) => {
        $crate::for_each_model!($crate::__with_model_pair_arms!(
            $a, $b, $m, $n, $body, $otherwise
        ))
    };
}

/// The arms of [`with_model_pair!`](crate::with_model_pair): every model of the list for the
/// first, then the same model for the second.
#[macro_export]
#[doc(hidden)]
macro_rules! __with_model_pair_arms {
    ($a:expr, $b:expr, $m:ident, $n:ident, $body:expr, $otherwise:expr;
     $($variant:ident($inner:ty) $(~ $campaign:ident)? $(+ $recovery:ident($recovery_model:ty))?),* $(,)?) => {
        match ($a, $b) {
            $(
                ($crate::rules::registry::Model::$variant(x), other) => match other {
                    $crate::rules::registry::Model::$variant(y) => {
                        let ($m, $n): (&$inner, &$inner) = (&**x, &**y);
                        $body
                    }
                    _ => $otherwise,
                },
                $(
                    ($crate::rules::registry::Model::$campaign(x), other) => match other {
                        $crate::rules::registry::Model::$campaign(y) => {
                            type C = $crate::rules::campaign::Campaign<$inner>;
                            let ($m, $n): (&C, &C) = (&**x, &**y);
                            $body
                        }
                        _ => $otherwise,
                    },
                )?
                $(
                    ($crate::rules::registry::Model::$recovery(x), other) => match other {
                        $crate::rules::registry::Model::$recovery(y) => {
                            let ($m, $n): (&$recovery_model, &$recovery_model) = (&**x, &**y);
                            $body
                        }
                        _ => $otherwise,
                    },
                )?
            )*
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
        with_model!(self, m => m.fighter_names())
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

pub use super::Examples;

/// A ruleset's `kind = "recovery"` scenarios: a patient healing, no duel.
#[derive(Clone, Copy, Debug)]
pub struct RecoveryKind {
    /// Compiles one (a point per healer set).
    pub build: Build,
    /// The keys it reads beyond the ruleset's `[healing]`, for `duelsim rulesets <id>`.
    pub keys: &'static [Parameter],
}

/// A ruleset the tool knows about: what is said of it (its [`About`], from its folder), how a
/// scenario file becomes its model, and its recovery scenarios.
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
    /// How its campaign scenarios compile, when it runs campaigns.
    pub campaign: Option<Build>,
    /// More text for `duelsim rulesets <id>` after the parameters (e.g. the armour locations).
    pub listing_note: Option<fn() -> String>,
    /// Its page `docs/rules/<id>.md`, built into the binary: the report shows its assumptions.
    pub rules_page: &'static str,
    /// What the tally records for a hit, and what 0 means: the "what a hit does" chart's unit.
    pub hit_words: (&'static str, &'static str),
    /// The names of what a hit records, value by value, when they are named levels.
    pub hit_levels: Option<&'static [&'static str]>,
    /// Its shipped example scenarios.
    pub examples: Examples,
}

/// The registry's entry of a ruleset: its [`About`], its files compiled by
/// [`Registered::from_file`], and `recovery`.
const fn entry<R: Registered>(
    recovery: Option<RecoveryKind>,
    campaign: Option<Build>,
) -> RulesetInfo
where
    Model: From<Box<R>>,
{
    let About {
        id,
        summary,
        recovery_deaths,
        impairment,
        parameters,
        listing_note,
        rules_page,
        hit_words,
        hit_levels,
        examples,
    } = R::ABOUT;
    RulesetInfo {
        id,
        summary,
        recovery_deaths,
        impairment,
        parameters,
        build: build_duel::<R>,
        recovery,
        campaign,
        listing_note,
        rules_page,
        hit_words,
        hit_levels,
        examples,
    }
}

/// Compiles a scenario file of ruleset `R` into a one-point scenario.
fn build_duel<R: Registered>(source: &Source) -> Result<Scenario, InputError>
where
    Model: From<Box<R>>,
{
    scenario::build::<R::File, _>(source, R::ABOUT.id, |file, source| {
        Ok(Model::from(Box::new(R::from_file(file, source)?)))
    })
}

/// Compiles a campaign scenario of ruleset `R`: each encounter's text (the file with that
/// encounter's foes as side `b`) read as a fight's file, its errors placed at the encounter.
fn build_campaign<R: Registered + Carried + Clone>(source: &Source) -> Result<Scenario, InputError>
where
    Model: From<Box<Campaign<R>>>,
{
    let read = scenario::campaign::read(source)?;
    let mut fights: Vec<scenario::Scenario<R>> = Vec::with_capacity(read.encounters.len());
    for (k, e) in read.encounters.iter().enumerate() {
        let inner = Source {
            path: source.path,
            text: &e.text,
        };
        let fight =
            scenario::build::<R::File, _>(&inner, R::ABOUT.id, |file, s| R::from_file(file, s))
                .map_err(|err| scenario::campaign::placed(source, k, &e.name, err))?;
        fights.push(fight);
    }
    let Some(first) = fights.first() else {
        return Err(source.error_at(
            source.span_of(&["encounter"]),
            Some("encounter"),
            "is empty; expected at least one [[encounter]]",
        ));
    };
    let party_size = first.points[0].model.roster().sides[0];
    let party_names: Vec<String> =
        first.points[0].model.roster().fighter_names[..party_size].to_vec();
    let party_side = first.points[0].model.roster().side_names[0].clone();
    if read.turn_back_below > party_size {
        return Err(source.error_at(
            source.span_of(&["campaign", "turn_back_below"]),
            Some("campaign.turn_back_below"),
            format!(
                "is {}, more than the party's {party_size}: it would turn back before the first encounter; expected at most {party_size}",
                read.turn_back_below
            ),
        ));
    }
    let mut encounters = Vec::with_capacity(fights.len());
    let mut foe_names = Vec::new();
    let several = fights.len() > 1;
    for (fight, e) in fights.iter().zip(&read.encounters) {
        let roster = fight.points[0].model.roster();
        let foes = roster.sides[1];
        let seats = Seats {
            party: party_size,
            foe_first: party_size + foe_names.len(),
        };
        foe_names.extend(
            roster.fighter_names[party_size..party_size + foes]
                .iter()
                .map(|n| {
                    if several {
                        format!("{n} ({})", e.name)
                    } else {
                        n.clone()
                    }
                }),
        );
        encounters.push(Encounter {
            fight: fight.points[0].model.clone(),
            name: e.name.clone(),
            rest_days: e.rest_days,
            seats,
        });
    }
    let foes_side = if several {
        "their foes".to_owned()
    } else {
        first.points[0].model.roster().side_names[1].clone()
    };
    let campaign = Campaign::new(
        encounters,
        &party_names,
        [party_side, foes_side],
        read.turn_back_below,
        foe_names,
    );
    let mut base = fights.swap_remove(0);
    let mut identity = source.text.to_owned();
    for (_, text) in &base.sources.catalogues {
        identity.push('\u{0}');
        identity.push_str(text);
    }
    base.source_hash = scenario::sha256_hex(identity.as_bytes());
    base.sources.text = source.text.to_owned();
    Ok(base.map_models(|_| Model::from(Box::new(campaign.clone()))))
}

/// Compiles a recovery scenario of model `R`.
fn build_recovery<R: RegisteredRecovery>(source: &Source) -> Result<Scenario, InputError>
where
    Model: From<Box<R>>,
{
    Ok(R::build(source)?.map_models(Model::from))
}

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

    fn with_campaign() -> Vec<&'static str> {
        RULESETS
            .iter()
            .filter(|r| r.campaign.is_some())
            .map(|r| r.id)
            .collect()
    }

    fn build(id: &str, kind: Kind, source: &Source) -> Result<Scenario, InputError> {
        let Some(info) = info(id) else {
            return Err(InputError::plain(format!(
                "no ruleset '{id}' in the registry"
            )));
        };
        match (kind, info.recovery, info.campaign) {
            (Kind::Recovery, Some(recovery), _) => (recovery.build)(source),
            (Kind::Campaign, _, Some(build)) => build(source),
            (Kind::Duel, _, _) => (info.build)(source),
            _ => Err(InputError::plain(format!(
                "the ruleset '{id}' has no {kind:?} scenarios"
            ))),
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
    with_model!(model, m => m.exact_table(attacker))
}
