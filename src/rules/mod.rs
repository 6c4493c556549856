//! The rulesets: one module per ruleset, named by its id, each owning its fighter type, its
//! tables, its duel and its healing timeline.
//!
//! Every ruleset implements [`Ruleset`]: one trial (a duel, its aftermath, the survivors'
//! healing) written once against [`Dice`] and [`Log`], so the same code runs fast in the engine
//! and narrated in `duelsim trace`. [`registry`] is the one list of them: ids, parameters, how a
//! scenario becomes each one's model, and the [`Model`] that holds any of them. Nothing here
//! reads files or runs threads.

pub mod campaign;
pub mod d6_pool;
pub mod guard_pierce;
pub mod registry;
pub mod roster;
pub mod rounds;
pub mod twin_d20;
pub mod two_d20;
pub mod wound_levels;
pub mod zone_d100;

use crate::dice::Dice;
use crate::log::Log;
use crate::stats::{Side, Tally, TallyShape};
use serde::{Deserialize, Serialize};

/// What the registry needs of a ruleset, all given in its own folder: its schema, what
/// `duelsim rulesets` and the report say of it, and how a scenario file becomes its model.
/// Registering a ruleset is then one line in `registry.rs`'s list; the compiler names whatever
/// else is missing (this trait's items, `fighter_names` and `exact_table`, which every model
/// has).
pub trait Registered: Ruleset + Sized {
    /// The scenario file's schema.
    type File: for<'de> Deserialize<'de> + crate::scenario::schema::Envelope;
    /// What is said of it, and its shipped examples.
    const ABOUT: About;
    /// Compiles a scenario file into the model of its one point.
    fn from_file(
        file: &Self::File,
        source: &crate::scenario::error::Source,
    ) -> Result<Self, crate::scenario::error::InputError>;
}

/// Registers a ruleset's model `$model` (a ruleset module's `File` and `compile`, its fighters
/// on `self.roster`): its [`Registered`] impl with the module's [`About`] `$about`, and the
/// inherent `fighter_names` and `exact_table` (by `$walk`: `crate::exact::walk`, or
/// `crate::exact::walk_staged`) the registry's dispatch reads.
#[macro_export]
#[doc(hidden)]
macro_rules! registered {
    ($model:ty, $about:expr, $walk:path) => {
        impl $crate::rules::Registered for $model {
            type File = File;
            const ABOUT: $crate::rules::About = $about;

            fn from_file(
                file: &File,
                source: &$crate::scenario::error::Source,
            ) -> Result<Self, $crate::scenario::error::InputError> {
                Self::compile(file, source)
            }
        }

        impl $model {
            /// Every fighter's name, side a's first.
            pub fn fighter_names(&self) -> Vec<&str> {
                self.roster
                    .fighter_names
                    .iter()
                    .map(String::as_str)
                    .collect()
            }

            /// The exact table of `attacker`'s exchange on the other fighter.
            pub fn exact_table(
                &self,
                attacker: $crate::stats::Side,
            ) -> Result<$crate::exact::Table, String> {
                $walk(self, attacker)
            }
        }
    };
}

/// A ruleset's `kind = "recovery"` scenarios: a patient healing, no fight.
pub trait RegisteredRecovery: Ruleset + Sized {
    /// The keys it reads beyond the ruleset's `[healing]`, for `duelsim rulesets <id>`.
    const KEYS: &'static [Parameter];
    /// Compiles a recovery scenario (a point per healer set).
    fn build(
        source: &crate::scenario::error::Source,
    ) -> Result<crate::scenario::Scenario<Box<Self>>, crate::scenario::error::InputError>;
}

/// What `duelsim rulesets`, the terminal and the report say of a ruleset, and the shipped
/// scenarios that show it.
#[derive(Clone, Copy, Debug)]
pub struct About {
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

/// The shipped scenarios that show a ruleset: benched (`benches/duel.rs`) and checked for
/// allocations (`tests/no_alloc.rs`), paths from the crate's root.
#[derive(Clone, Copy, Debug)]
pub struct Examples {
    /// A duel: `duel/<id>` in the bench.
    pub duel: &'static str,
    /// A recovery scenario (`recovery/<id>`), for rulesets that read them.
    pub recovery: Option<&'static str>,
    /// A campaign (`campaign/<id>`), for rulesets that run them.
    pub campaign: Option<&'static str>,
    /// An `[exact] grid` scenario (`exact/grid-<cells>-<id>`), for rulesets with an exchange.
    pub grid: Option<&'static str>,
    /// The scenario `duelsim new <id>` starts from (one that needs no catalogue): its path
    /// and its text, built into the binary.
    pub starter: (&'static str, &'static str),
}

/// A compiled ruleset with its fighters: everything one trial needs, flat and read-only.
pub trait Ruleset: Sync {
    /// The histogram sizes this point's tallies need.
    fn shape(&self) -> TallyShape;

    /// Runs one trial (duel, aftermath, healing of the survivors) and counts it in `tally`.
    fn trial<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally);
}

/// Who strikes first in each round, for rulesets whose text has no initiative.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FirstStrike {
    /// A d2 at the start of the duel picks who strikes first; the order then holds every round.
    #[default]
    Random,
    /// Fighter `a` always strikes first.
    A,
    /// Fighter `b` always strikes first.
    B,
}

impl FirstStrike {
    /// Who strikes first in this duel (rolls the d2 when random).
    #[inline]
    pub fn roll<D: Dice>(self, dice: &mut D) -> Side {
        match self {
            FirstStrike::A => Side::A,
            FirstStrike::B => Side::B,
            FirstStrike::Random => {
                Side::BOTH[(dice.d(2, "d2 (who strikes first: 1 = a, 2 = b)") - 1) as usize & 1]
            }
        }
    }
}

/// The rounds of a duel in which the two fighters take their turns in a fixed order, from
/// round 1 to `round_limit`: `round_turns(round, log)` plays round `round`'s two turns and says
/// whether the duel ended (`Some(winner)`, none when scripted dice ran out) or goes on
/// (`None`). The winner (none on a draw) and the rounds fought. Each ruleset's closure calls
/// its `turn_of` with the fighter as a compile-time constant, so the turns are written out, not
/// looped over a two-side array the compiler would not unroll.
#[inline(always)]
pub fn alternate_rounds<L: Log>(
    round_limit: u32,
    log: &mut L,
    mut round_turns: impl FnMut(u32, &mut L) -> Option<Option<Side>>,
) -> (Option<Side>, u32) {
    let mut rounds = 0;
    for round in 1..=round_limit {
        rounds = round;
        log.say(|| format!("round {round}"));
        if let Some(winner) = round_turns(round, log) {
            return (winner, rounds);
        }
    }
    (None, rounds)
}

pub use crate::scenario::schema::Parameter;

/// Test support: asserts that a ruleset's documented `[rules]` and `[healing]` defaults are
/// the ones its `Default` impls put in force, and that every key is documented.
#[cfg(test)]
pub(crate) fn assert_documented_defaults<R: Serialize, H: Serialize>(
    parameters: &[Parameter],
    rules: &R,
    healing: &H,
) {
    let rules = toml::Table::try_from(rules).unwrap_or_default();
    let healing = toml::Table::try_from(healing).unwrap_or_default();
    let mut documented = 0;
    for p in parameters {
        let table = match p.section {
            "rules" => &rules,
            "healing" => &healing,
            _ => continue,
        };
        let value = table.get(p.key).map(|v| v.to_string().replace(' ', ""));
        assert_eq!(
            value.as_deref(),
            Some(p.default.replace(' ', "").as_str()),
            "{}.{}",
            p.section,
            p.key
        );
        documented += 1;
    }
    assert_eq!(
        documented,
        rules.len() + healing.len(),
        "every [rules] and [healing] key is documented"
    );
}
