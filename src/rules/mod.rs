//! The rulesets: one module per ruleset, named by its id, each owning its fighter type, its
//! tables, its duel and its healing timeline.
//!
//! Every ruleset implements [`Ruleset`]: one trial (a duel, its aftermath, the survivors'
//! healing) written once against [`Dice`] and [`Log`], so the same code runs fast in the engine
//! and narrated in `duelsim trace`. This module also holds the catalogue of ruleset ids that
//! `duelsim rulesets` lists. It knows nothing of files or threads.

pub mod d6_pool;
pub mod guard_pierce;
pub mod twin_d20;
pub mod two_d20;
pub mod wound_levels;
pub mod zone_d100;

use crate::dice::Dice;
use crate::log::Log;
use crate::stats::{Side, Tally, TallyShape};
use serde::{Deserialize, Serialize};

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

/// One documented parameter of a ruleset, as `duelsim rulesets <id>` lists it.
#[derive(Clone, Copy, Debug)]
pub struct Parameter {
    /// The section it is written in (`rules`, `healing`, `a`/`b`, `weapons.<name>`, ...).
    pub section: &'static str,
    /// Its key.
    pub key: &'static str,
    /// Its default, as TOML (or `required`).
    pub default: &'static str,
    /// What it means and where it comes from.
    pub doc: &'static str,
}

/// A ruleset the tool knows about.
#[derive(Clone, Copy, Debug)]
pub struct RulesetInfo {
    /// The id a scenario names in `ruleset = "..."`.
    pub id: &'static str,
    /// One line on what it covers.
    pub summary: &'static str,
    /// Whether this version can run it.
    pub implemented: bool,
    /// Whether its text has death during recovery (else the column means nothing for it).
    pub recovery_deaths: bool,
    /// Whether its text leaves lasting impairment.
    pub impairment: bool,
}

/// The ruleset of an id.
pub fn info(id: &str) -> Option<&'static RulesetInfo> {
    RULESETS.iter().find(|r| r.id == id)
}

/// Every ruleset id, in the order the shared rules README lists them.
pub const RULESETS: [RulesetInfo; 5] = [
    RulesetInfo {
        id: "twin-d20",
        summary: "black and white d20 vs Defense; Coverage/Protection; wound circles vs Toughness; Aftermath; Recovery and Medicine",
        implemented: true,
        recovery_deaths: false,
        impairment: false,
    },
    RulesetInfo {
        id: "guard-pierce",
        summary: "two d20 vs Guard, Hit / Full Hit, damage roll, Pierce vs Protection interval, Stun and Injury rows, infection",
        implemented: true,
        recovery_deaths: true,
        impairment: false,
    },
    RulesetInfo {
        id: "zone-d100",
        summary: "d100 tests, victory stars, Zone and Location Dice, injury, shock, effects, morale; melee and missile duels; the whole healing sequence",
        implemented: true,
        recovery_deaths: true,
        impairment: true,
    },
    RulesetInfo {
        id: "wound-levels",
        summary: "4dF plus skill levels, initiative, multiple actions, Evasion and dodges, wound levels 1-7, Critical/Terminal deterioration",
        implemented: true,
        recovery_deaths: true,
        impairment: false,
    },
    RulesetInfo {
        id: "d6-pool",
        summary: "d6 attack pool, highest-die attack table, blocking with 6s, criticals, luck, heal and ammo pools",
        implemented: true,
        recovery_deaths: false,
        impairment: false,
    },
];

/// The ids of all rulesets, for suggestions.
pub fn ids() -> Vec<&'static str> {
    RULESETS.iter().map(|r| r.id).collect()
}

/// The documented parameters of a ruleset, `None` for an unknown or unimplemented id.
pub fn parameters(id: &str) -> Option<&'static [Parameter]> {
    match id {
        twin_d20::ID => Some(twin_d20::PARAMETERS),
        guard_pierce::ID => Some(guard_pierce::PARAMETERS),
        wound_levels::ID => Some(wound_levels::PARAMETERS),
        d6_pool::ID => Some(d6_pool::PARAMETERS),
        zone_d100::ID => Some(zone_d100::PARAMETERS),
        _ => None,
    }
}

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
