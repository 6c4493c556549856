//! The `zone-d100` ruleset: d100 skill tests with success levels, victory stars, the Zone and
//! Location Dice, impact against armour by aspect, the injury table with compound injuries,
//! glancing blows, bleeding and amputation, shock states, injury effects, mishaps and morale,
//! in a melee or missile duel, and the healing sequence for every survivor (`healing.rs`).
//!
//! Rule text: `shared/rules/zone-d100.txt`; readings, assumptions and the rule ledger:
//! `docs/rules/zone-d100.md`. This file holds the compiled duel ([`ZoneD100`]) and its
//! compilation; the files, by the part of the text they implement:
//!
//! - `skill.rs`: d100 tests, success levels, mishaps, the victory-star table (data);
//! - `body.rs`: the BODY LOCATION table, the FACE OPTION table, the Location Roll;
//! - `injury.rs`: the INJURY table, injury records, compound injuries, glancing blows, the
//!   BLEEDING table, amputation tests, the Shock index, roll, states and rerolls;
//! - `missile.rs`: the MISSILE SEQUENCE's range bands, situational modifiers, spoiled attacks,
//!   Direct and Volley resolution;
//! - `melee.rs`: the melee model (fighters, state, `[rules]` settings) and the MELEE SEQUENCE's
//!   step 2 MELEE TEST modifiers;
//! - `outcome.rs`: the MELEE SEQUENCE's step 3 OUTCOME: the opposed test, victory stars,
//!   Tactical Advantages, mishaps, the exchange;
//! - `injury_sequence.rs`: the INJURY SEQUENCE of a blow (location, impact, injury, shock,
//!   injury mishaps);
//! - `impairment.rs`: INJURY EFFECT: impaired and prohibited tests, unusable zones;
//! - `shock_and_morale.rs`: the end of a fighter's turn: shock rerolls and morale;
//! - `missile_actions.rs`: the duel's turn at range: MISSILE ACTIONS (load, span, aim, shoot)
//!   and the shot through the missile and injury sequences;
//! - `duel.rs`: the duel loop: order of action, the approach, melee, the end of the fight;
//! - `tally.rs`: the ruleset's tally columns;
//! - `exchange.rs`: one exchange for exact tables;
//! - `healing.rs`: the HEALING SEQUENCE's timeline and the order of its steps; `bleeding.rs`
//!   (step 1), `extended_shock.rs` (steps 2 and 3), `treatment.rs` (steps 4 and 5),
//!   `amputation.rs` (the Amputation treatment), `healing_rolls.rs` (steps 6 to 8);
//! - `skirmish.rs`: a fight of sides of several fighters (order of action, the ground between
//!   the sides, engagement and the Outnumbered Penalty);
//! - `recovery.rs`: recovery scenarios;
//! - `campaign.rs`: a campaign's fighter: its injuries and healing carried between fights;
//! - `schema.rs`: the scenario schema's fighters and its compilation; `equipment.rs` (weapons
//!   and armour pieces), `parameters.rs` (`[rules]`, `[healing]` and `PARAMETERS`);
//! - `combat_ledger.rs`, `healing_ledger.rs`: the rule ledgers' tests.

pub mod amputation;

/// The purposes with their own dice stream (see `docs/rules/zone-d100.md`, "Dice streams"):
/// each keyed by the fighter and the round, so a turn that rolls more dice in one variant
/// than in the other moves no other turn's dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Purpose {
    /// The d2 for equal Initiative MLs (fighter 0, round 0).
    Initiative = 1,
    /// The die that picks a foe at random, by the actor and round.
    Target = 2,
    /// A fighter's turn: its shot or strike, the defence against it, the injuries, by the
    /// actor and round.
    Turn = 3,
    /// The end of a fighter's turn: its Shock, Bleeding and Extended Shock, by the actor and
    /// round.
    EndOfTurn = 4,
    /// The healing sequence of a survivor, by the fighter.
    Healing = 5,
}

impl crate::dice::Purpose for Purpose {
    #[inline]
    fn code(self) -> u32 {
        self as u32
    }
}
pub mod bleeding;
pub mod body;
pub mod campaign;
pub mod duel;
pub mod equipment;
pub mod exchange;
pub mod extended_shock;
pub mod healing;
pub mod healing_rolls;
pub mod impairment;
pub mod injury;
pub mod injury_sequence;
pub mod melee;
pub mod missile;
pub mod missile_actions;
pub mod outcome;
pub mod parameters;
pub mod recovery;
pub mod schema;
pub mod shock_and_morale;
pub mod skill;
mod skirmish;
pub mod tally;
pub mod treatment;

use crate::rules::roster::{Enrolled, Roster, TurnOrder};
use crate::scenario::error::{InputError, Source};
use crate::stats::Side;
use melee::{Fighter, Melee};
use schema::FighterSpec;

/// The id scenarios use.
pub const ID: &str = "zone-d100";

pub use schema::{File, PARAMETERS};

pub use tally::EXTRAS;
pub(crate) use tally::record_healing;

/// A compiled zone-d100 point.
#[derive(Clone, Debug)]
pub struct ZoneD100 {
    /// The melee model (fighters, names, rules).
    pub melee: Melee,
    /// The fighters' names.
    pub names: [String; 2],
    /// Rounds before a draw.
    pub round_limit: u32,
    /// The fighters start in Close.
    pub start_in_close: bool,
    /// Feet between the fighters at the start.
    pub start_distance: u32,
    /// Feet a fighter without a missile closes each round.
    pub approach: u32,
    /// Distance at which melee begins.
    pub melee_distance: u32,
    /// Crosswind Windforce.
    pub windforce: i32,
    /// An overhead under ten feet (no Volley).
    pub low_overhead: bool,
    /// An overhead under five feet (also −20 for bows and crossbows at Direct).
    pub very_low_overhead: bool,
    /// Wet bows.
    pub wet_bows: bool,
    /// A spoiled shot rolls against EML05 for a CF (else it does not take place).
    pub spoiled_shots_roll_for_cf: bool,
    /// Who tends the wounded.
    pub care: healing::Care,
    /// Each fighter as a patient, by place on the roster.
    pub patients: Vec<healing::Patient>,
    /// `[healing] horizon_days`.
    pub horizon_days: u32,
    /// Who fights on which side, named, with their target policies.
    pub roster: Roster,
    /// For a side of several: the order of action, by Initiative ML, when side `a` (0) or `b`
    /// (1) goes first among equal Initiatives.
    order: [Vec<usize>; 2],
    /// Fighters of both sides share an Initiative ML: a d2 per fight says which side goes first
    /// among them.
    initiative_tie: bool,
}

impl ZoneD100 {
    /// Compiles a scenario file.
    pub fn compile(file: &File, source: &Source) -> Result<Self, InputError> {
        let enlisted = schema::roster(file, source)?;
        let members: Vec<Enrolled> = (enlisted.iter())
            .map(|(side, e, _, _)| Enrolled {
                side: *side,
                name: e.name.clone(),
                target: e.target,
            })
            .collect();
        let roster = Roster::new(&members, TurnOrder::Sides)
            .with_attacker_limit(file.rules.max_attackers.u32());
        let fighters: Vec<Fighter> = enlisted.iter().map(|(_, _, f, _)| *f).collect();
        let patients: Vec<healing::Patient> = enlisted
            .iter()
            .map(|(_, _, _, spec)| patient(spec))
            .collect();
        let mut whole = ZoneD100 {
            melee: Melee::of_roster(&fighters, roster.fighter_names.clone(), file.rules.melee()),
            roster: Roster::duel(roster.side_names.clone()),
            names: roster.side_names.clone(),
            round_limit: file.round_limit.u32(),
            start_in_close: file.rules.start_in_close,
            start_distance: file.rules.start_distance.u32(),
            approach: file.rules.approach.u32(),
            melee_distance: file.rules.melee_distance.u32(),
            windforce: file.rules.windforce.i32(),
            low_overhead: file.rules.low_overhead || file.rules.very_low_overhead,
            very_low_overhead: file.rules.very_low_overhead,
            wet_bows: file.rules.wet_bows,
            spoiled_shots_roll_for_cf: file.rules.spoiled_shots_roll_for_cf,
            care: healing::Care {
                reroll_penalty: file.rules.reroll_penalty.i32(),
                ..file.healing.care()
            },
            patients,
            horizon_days: file.healing.horizon_days.u32(),
            order: [Vec::new(), Vec::new()],
            initiative_tie: false,
        };
        let (a, b) = (roster.team(Side::A), roster.team(Side::B));
        if !roster.is_duel() {
            let initiative = |i: usize| fighters[i].initiative_ml;
            for first in Side::BOTH {
                let mut order: Vec<usize> = (0..roster.len()).collect();
                order.sort_by_key(|&i| {
                    let rank = usize::from(roster.side_of[i] != first);
                    (std::cmp::Reverse(initiative(i)), rank, i)
                });
                whole.order[first.index()] = order;
            }
            whole.initiative_tie = a
                .clone()
                .any(|i| b.clone().any(|j| initiative(i) == initiative(j)));
        }
        whole.roster = roster;
        Ok(whole)
    }
}

fn patient(f: &FighterSpec) -> healing::Patient {
    healing::Patient {
        healing_base: f.healing_base.i32(),
        strength_ml: f.strength_ml.i32(),
        endurance_ml: f.endurance_ml.i32(),
        shock_ml: f.shock_ml.i32(),
        fatigue: f.fatigue.i32(),
    }
}

/// The location shock of a location (face features have their own): read from
/// [`LOCATION_SHOCK`].
pub(crate) fn location_shock(location: body::Location) -> i32 {
    i32::from(LOCATION_SHOCK[location as usize])
}

/// The Location Shock of each [`body::Location`] by its number, from the first row naming it in
/// the BODY LOCATION table, then the FACE OPTION table (0 for a location in neither).
const LOCATION_SHOCK: [u8; melee::LOCATIONS] = {
    let mut shock = [0u8; melee::LOCATIONS];
    let mut found = [false; melee::LOCATIONS];
    let mut i = 0;
    while i < body::HUMAN.len() + body::FACE.len() {
        let r = if i < body::HUMAN.len() {
            &body::HUMAN[i]
        } else {
            &body::FACE[i - body::HUMAN.len()]
        };
        let l = r.location as usize;
        if !found[l] {
            found[l] = true;
            shock[l] = r.shock;
        }
        i += 1;
    }
    shock
};

/// Test support: the compiled duel of the shipped scenario `scenarios/zone-d100/<name>.toml`
/// (read with this ruleset's schema alone, without the registry).
#[cfg(test)]
pub(crate) fn shipped_duel(name: &str) -> ZoneD100 {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(format!("scenarios/zone-d100/{name}.toml"));
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let source = Source {
        path: &path,
        text: &text,
    };
    match crate::scenario::build::<File, _>(&source, ID, ZoneD100::compile) {
        Ok(mut s) => s.points.remove(0).model,
        Err(e) => panic!("{e}"),
    }
}

/// What the registry says of this ruleset.
const ABOUT: crate::rules::About = crate::rules::About {
    id: ID,
    summary: "d100 tests, victory stars, Zone and Location Dice, injury, shock, effects, morale; melee and missile duels; the whole healing sequence",
    recovery_deaths: true,
    impairment: true,
    parameters: PARAMETERS,
    listing_note: Some(schema::armour_locations_note),
    rules_page: include_str!("../../../docs/rules/zone-d100.md"),
    hit_words: (
        "injury level (1-5: M1 to G5)",
        "no injury, or a glancing blow",
    ),
    hit_levels: Some(&["none or glancing", "M1", "S2", "S3", "G4", "G5"]),
    examples: crate::rules::Examples {
        duel: "scenarios/zone-d100/broadsword-vs-spear.toml",
        recovery: Some("scenarios/zone-d100/recovery-g4-shoulder-healers.toml"),
        campaign: Some("scenarios/zone-d100/knight-on-the-pilgrim-road.toml"),
        grid: Some("scenarios/zone-d100/mace-strike-table.toml"),
        starter: (
            "scenarios/zone-d100/broadsword-vs-spear.toml",
            include_str!("../../../scenarios/zone-d100/broadsword-vs-spear.toml"),
        ),
    },
};

crate::registered!(ZoneD100, ABOUT, crate::exact::walk_staged);

#[cfg(test)]
mod tests {
    use super::body::{FACE, HUMAN};
    use super::*;

    #[test]
    fn location_shock_is_the_tables_location_shock() {
        // Every row of the BODY LOCATION and FACE OPTION tables: its location's shock is the
        // row's (each location is named by one row).
        for r in HUMAN.iter().chain(FACE.iter()) {
            assert_eq!(
                location_shock(r.location),
                i32::from(r.shock),
                "{}",
                r.location
            );
        }
        assert_eq!(HUMAN.len() + FACE.len(), melee::LOCATIONS);
        assert_eq!(location_shock(body::Location::Neck), 5);
        assert_eq!(location_shock(body::Location::Calf), 1);
    }
}
