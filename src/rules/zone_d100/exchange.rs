//! One exchange for exact tables (`duelsim exact`): from two unhurt fighters in melee, the
//! opposed test and the TAs it wins ([`Melee::contest`], [`Melee::victory`]),
//! then the first strike's Zone Dice, Location Die and impact through the armour
//! ([`Melee::struck`]): the very functions the duel's [`Melee::exchange`] calls. Its outcome is
//! the Injury Level the strike leaves and the zone it lands in; the shock roll, compound
//! injuries, amputation, mishaps and bonus actions that follow are not part of it.
//!
//! The walk is staged ([`StagedExchange`]): the opposed test's d100s are walked by the classes
//! the rules read (success level, the mishap digit, and against a Dodge which roll is higher),
//! merged into the distinct strikes they lead to (who strikes, with how many Impact and
//! Precision TAs), and each strike's dice are walked once with the Zone Dice merged by zone,
//! Location Dice by row and the impact die by the injury it leaves.

use super::ZoneD100;
use super::body::Zone;
use super::injury::{Severity, severity};
use super::injury_sequence::Struck;
use super::melee::State;
use super::outcome::{Chosen, Contest, Victory};
use crate::dice::Dice;
use crate::exact::{Exchange, Outcome, StagedExchange};
use crate::log::NoLog;
use crate::stats::Side;

/// What the opposed test of an exchange leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Setup {
    /// Both failed (or the attacker failed against Ignore).
    NoStrike,
    /// A Block or Dodge won: no strike.
    Defended,
    /// A strike with its TAs: the attacker's, or the defender's Counterstrike.
    Strike {
        /// The defender strikes back.
        counter: bool,
        /// Precision TAs (one more Zone Die each).
        precision: u32,
        /// Impact TAs.
        impact: u32,
    },
}

/// The hit kinds of the attacker's strike, the misses first.
const RESULTS: &[&str] = &[
    "no strike",
    "defended",
    "counterstrike",
    "misses the body",
    "no injury",
    "glancing blow",
    "Minor",
    "Serious",
    "Grievous",
];

fn zone_name(zone: Zone) -> &'static str {
    match zone {
        Zone::Head => "head",
        Zone::Arm => "arm",
        Zone::Torso => "torso",
        Zone::Leg => "leg",
    }
}

/// The result a strike that landed (or not) has: a hit kind of [`RESULTS`].
fn strike_result(struck: Option<&Struck>) -> &'static str {
    match struck {
        None => "misses the body",
        Some(s) if s.glancing => "glancing blow",
        Some(s) if s.il == 0 => "no injury",
        Some(s) => match severity(s.il) {
            Severity::Minor => "Minor",
            Severity::Serious => "Serious",
            Severity::Grievous => "Grievous",
        },
    }
}

/// What a Counterstrike did to the attacker, as a mark kind.
fn counterstrike_kind(struck: Option<&Struck>) -> &'static str {
    match strike_result(struck) {
        "misses the body" => "counterstrike: misses the body",
        "no injury" => "counterstrike: no injury",
        "glancing blow" => "counterstrike: glancing blow",
        "Minor" => "counterstrike: Minor",
        "Serious" => "counterstrike: Serious",
        _ => "counterstrike: Grievous",
    }
}

impl StagedExchange for ZoneD100 {
    type Setup = Setup;

    fn setup<D: Dice>(&self, attacker: Side, dice: &mut D) -> Setup {
        let m = &self.melee;
        let mut states = [State::default(); 2];
        // The first turn of a duel.
        states[0].turn = 1;
        states[1].turn = 1;
        let Contest { defence, stars, .. } =
            m.contest(attacker, &mut states, self.start_in_close, dice, &mut NoLog);
        match m.victory(attacker, &states, defence, stars) {
            Victory::Strike { counter, tas, .. } => Setup::Strike {
                counter,
                precision: tas.precision,
                impact: tas.impact,
            },
            Victory::Defended { .. } => Setup::Defended,
            Victory::NoStrike => Setup::NoStrike,
        }
    }

    fn resolve<D: Dice>(&self, attacker: Side, setup: Setup, dice: &mut D) -> Outcome {
        let miss = |result| Outcome {
            result,
            value: 0,
            kind: "",
        };
        let Setup::Strike {
            counter,
            precision,
            impact,
        } = setup
        else {
            return miss(if setup == Setup::NoStrike {
                "no strike"
            } else {
                "defended"
            });
        };
        let striker = if counter { attacker.other() } else { attacker };
        let tas = Chosen {
            precision,
            impact,
            ..Chosen::default()
        };
        let blow = self.melee.blow(striker.index(), tas);
        let struck = self
            .melee
            .struck(striker.other().index(), blow, dice, &mut NoLog);
        if counter {
            return Outcome {
                result: "counterstrike",
                value: 0,
                kind: counterstrike_kind(struck.as_ref()),
            };
        }
        Outcome {
            result: strike_result(struck.as_ref()),
            value: struck.map_or(0, |s| u32::from(s.il)),
            kind: struck.map_or("", |s| zone_name(s.hit.row.zone)),
        }
    }
}

/// The exchange rolled in one go (the setup, then its strike): what a duel's exchange rolls up
/// to the injury, for Monte Carlo checks of the staged walk.
impl Exchange for ZoneD100 {
    const UNIT: &'static str = "injury level";
    const RESULTS: &'static [&'static str] = RESULTS;
    const MISSES: usize = 4;

    fn exchange<D: Dice>(&self, attacker: Side, dice: &mut D) -> Outcome {
        let setup = self.setup(attacker, dice);
        self.resolve(attacker, setup, dice)
    }
}
