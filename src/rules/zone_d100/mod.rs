//! The `zone-d100` ruleset: d100 skill tests with success levels, victory stars, the Zone and
//! Location Dice, impact against armour by aspect, the injury table with compound injuries,
//! glancing blows, bleeding and amputation, shock states, injury effects, mishaps and morale,
//! in a melee duel.
//!
//! Rule text: `shared/rules/zone-d100.txt`; readings and assumptions:
//! `docs/rules/zone-d100.md`. Built in parts: the missile sequence and the healing timeline
//! are not simulated yet (see the rules page), so the ruleset is listed as in progress.

pub mod body;
pub mod injury;
pub mod melee;
pub mod schema;
pub mod skill;

use crate::dice::Dice;
use crate::log::Log;
use crate::rules::Ruleset;
use crate::scenario::error::{InputError, Source};
use crate::stats::{DuelOutcome, Extra, ExtraKind, Side, Tally, TallyShape};
use body::Zone;
use injury::{Severity, ShockState};
use melee::{Melee, State};

/// The id scenarios use.
pub const ID: &str = "zone-d100";

pub use schema::{File, PARAMETERS};

/// The ruleset's own counts: how fights end, bleeders and amputations per fight, and injuries
/// per fight by zone and severity.
pub const EXTRAS: &[Extra] = &[
    Extra {
        name: "end_death",
        kind: ExtraKind::ShareOfTrials,
    },
    Extra {
        name: "end_shock",
        kind: ExtraKind::ShareOfTrials,
    },
    Extra {
        name: "end_morale",
        kind: ExtraKind::ShareOfTrials,
    },
    Extra {
        name: "bleeders",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "amputations",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "glancing_blows",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "injuries_head_minor",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "injuries_head_serious",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "injuries_head_grievous",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "injuries_arm_minor",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "injuries_arm_serious",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "injuries_arm_grievous",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "injuries_torso_minor",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "injuries_torso_serious",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "injuries_torso_grievous",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "injuries_leg_minor",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "injuries_leg_serious",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "injuries_leg_grievous",
        kind: ExtraKind::MeanPerTrial,
    },
];
const END_DEATH: usize = 0;
const END_SHOCK: usize = 1;
const END_MORALE: usize = 2;
const BLEEDERS: usize = 3;
const AMPUTATIONS: usize = 4;
const GLANCING: usize = 5;
const INJURIES: usize = 6;

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
}

impl ZoneD100 {
    /// Compiles a scenario file.
    pub fn compile(file: &File, source: &Source) -> Result<Self, InputError> {
        let fighters = schema::fighters(file, source)?;
        let names = [file.fighter_name(Side::A), file.fighter_name(Side::B)];
        Ok(ZoneD100 {
            melee: Melee {
                fighters,
                names: names.clone(),
                rules: file.rules.melee(),
            },
            names,
            round_limit: file.round_limit.u32(),
            start_in_close: file.rules.start_in_close,
        })
    }

    fn out(state: &State) -> bool {
        !state.can_act()
    }
}

fn injury_column(zone: Zone, il: u8) -> usize {
    let z = match zone {
        Zone::Head => 0,
        Zone::Arm => 1,
        Zone::Torso => 2,
        Zone::Leg => 3,
    };
    let s = match injury::severity(il) {
        Severity::Minor => 0,
        Severity::Serious => 1,
        Severity::Grievous => 2,
    };
    INJURIES + z * 3 + s
}

impl Ruleset for ZoneD100 {
    fn shape(&self) -> TallyShape {
        TallyShape {
            round_limit: self.round_limit,
            max_damage: 5,
            horizon_days: 1,
            extras: EXTRAS,
        }
    }

    fn trial<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        let m = &self.melee;
        let mut states = [State::default(); 2];
        // Order of action: the higher Initiative ML first; a tie is a d2 for the duel.
        let (ia, ib) = (m.fighters[0].initiative_ml, m.fighters[1].initiative_ml);
        let first = if ia > ib {
            Side::A
        } else if ib > ia {
            Side::B
        } else {
            Side::BOTH[(dice.d(2, "d2 (equal Initiative: who acts first)") - 1) as usize & 1]
        };
        log.say(|| format!("{} acts first", self.names[first.index()]));
        let mut rounds = 0;
        let mut winner = None;
        'duel: for round in 1..=self.round_limit {
            rounds = round;
            log.say(|| format!("round {round}"));
            for actor in [first, first.other()] {
                if dice.exhausted() {
                    break 'duel;
                }
                let s = &mut states[actor.index()];
                if s.can_act() {
                    if s.prone {
                        s.prone = false;
                        log.say(|| format!("{} stands up", self.names[actor.index()]));
                    } else if s.disarmed {
                        s.disarmed = false;
                        log.say(|| format!("{} recovers the weapon", self.names[actor.index()]));
                    } else {
                        let reports =
                            m.exchange(actor, &mut states, self.start_in_close, dice, log);
                        for r in reports.into_iter().flatten() {
                            tally.record_hit(u32::from(r.il), !r.missed);
                            tally.record_extra(GLANCING, u64::from(r.glancing));
                            if let (Some(zone), true) = (r.zone, r.il > 0) {
                                tally.record_extra(injury_column(zone, r.il), 1);
                            }
                        }
                    }
                }
                m.end_of_turn(actor, &mut states, dice, log);
                let out = [Self::out(&states[0]), Self::out(&states[1])];
                if out[0] || out[1] {
                    winner = match out {
                        [false, true] => Some(Side::A),
                        [true, false] => Some(Side::B),
                        _ => None,
                    };
                    break 'duel;
                }
            }
        }
        let dead = [states[0].dead, states[1].dead];
        if let Some(w) = winner {
            let loser = &states[w.other().index()];
            let (death, shocked, morale) = (
                loser.dead,
                !loser.dead && loser.shock >= ShockState::Incapacitated,
                loser.routed && loser.shock < ShockState::Incapacitated,
            );
            tally.record_extra(END_DEATH, u64::from(death));
            tally.record_extra(END_SHOCK, u64::from(shocked));
            tally.record_extra(END_MORALE, u64::from(morale));
            log.say(|| {
                format!(
                    "{} wins: {} is {}",
                    self.names[w.index()],
                    self.names[w.other().index()],
                    if death {
                        "dead"
                    } else if morale {
                        "routed (morale)"
                    } else {
                        loser.shock.abbreviation()
                    }
                )
            });
        } else if !dice.exhausted() {
            log.say(|| "no winner: a draw".to_owned());
        }
        for s in &states {
            tally.record_extra(BLEEDERS, u64::from(s.bleeders));
            tally.record_extra(AMPUTATIONS, u64::from(s.amputations));
        }
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead,
        });
    }
}
