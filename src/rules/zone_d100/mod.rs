//! The `zone-d100` ruleset: d100 skill tests with success levels, victory stars, the Zone and
//! Location Dice, impact against armour by aspect, the injury table with compound injuries,
//! glancing blows, bleeding and amputation, shock states, injury effects, mishaps and morale,
//! in a melee or missile duel, and the healing sequence for every survivor (`healing.rs`).
//!
//! Rule text: `shared/rules/zone-d100.txt`; readings, assumptions and the rule ledger:
//! `docs/rules/zone-d100.md`.

pub mod body;
pub mod healing;
pub mod injury;
pub mod melee;
pub mod missile;
pub mod recovery;
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
        name: "end_unconscious",
        kind: ExtraKind::ShareOfTrials,
    },
    Extra {
        name: "end_extended_shock",
        kind: ExtraKind::ShareOfTrials,
    },
    Extra {
        name: "end_incapacitated_at_limit",
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
    Extra {
        name: "died_blood_loss",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "died_extended_shock",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "died_infection",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "died_grim_wound",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "infected",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "coma",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "comatose_at_horizon",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "permanent_head",
        kind: ExtraKind::MeanPerPatient,
    },
    Extra {
        name: "permanent_torso",
        kind: ExtraKind::MeanPerPatient,
    },
    Extra {
        name: "permanent_arm",
        kind: ExtraKind::MeanPerPatient,
    },
    Extra {
        name: "permanent_leg",
        kind: ExtraKind::MeanPerPatient,
    },
];
const DIED: usize = 20;
const INFECTED: usize = 24;
const COMA: usize = 25;
const COMATOSE_AT_HORIZON: usize = 26;
const PERMANENT: usize = 27;
const END_DEATH: usize = 0;
const END_UNCONSCIOUS: usize = 1;
const END_EXTENDED_SHOCK: usize = 2;
const END_INCAPACITATED_AT_LIMIT: usize = 3;
const END_MORALE: usize = 4;
const BLEEDERS: usize = 5;
const AMPUTATIONS: usize = 6;
const GLANCING: usize = 7;
const INJURIES: usize = 8;

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
    /// Who tends the wounded.
    pub care: healing::Care,
    /// Each fighter as a patient.
    pub patients: [healing::Patient; 2],
    /// `[healing] horizon_days`.
    pub horizon_days: u32,
}

/// The missile state of both fighters during the approach.
#[derive(Clone, Copy, Debug, Default)]
struct Range {
    distance: u32,
    loaded: [bool; 2],
    progress: [u32; 2],
    aimed: [bool; 2],
    moved: [bool; 2],
    evading: [bool; 2],
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
            start_distance: file.rules.start_distance.u32(),
            approach: file.rules.approach.u32(),
            melee_distance: file.rules.melee_distance.u32(),
            windforce: file.rules.windforce.i32(),
            low_overhead: file.rules.low_overhead || file.rules.very_low_overhead,
            very_low_overhead: file.rules.very_low_overhead,
            wet_bows: file.rules.wet_bows,
            care: healing::Care {
                reroll_penalty: file.rules.reroll_penalty.i32(),
                ..file.healing.care()
            },
            patients: [side_patient(file, Side::A), side_patient(file, Side::B)],
            horizon_days: file.healing.horizon_days.u32(),
        })
    }

    /// Out of the fight: dead, routed, or helpless (UNC, or INC in Extended Shock) unless the
    /// victor strikes the helpless. An INC fighter whose Shock Reroll is still to come is not
    /// out: "the INC character ignores attacks, rerolls ... and fights on".
    fn out(&self, state: &State) -> bool {
        state.dead || state.routed || (!self.melee.rules.strike_helpless && state.helpless())
    }

    /// One turn at range of a fighter with a missile: load (and span), aim, or shoot.
    fn shoot<D: Dice, L: Log>(
        &self,
        actor: Side,
        range: &mut Range,
        states: &mut [State; 2],
        dice: &mut D,
        log: &mut L,
    ) -> Option<melee::StrikeReport> {
        let m = &self.melee;
        let f = &m.fighters[actor.index()];
        let (missile, ml) = f.missile?;
        let i = actor.index();
        let name = &self.names[i];
        if !range.loaded[i] {
            let needed = missile.load_rounds + missile.span_rounds;
            range.progress[i] += 1;
            if needed == 0 {
                range.loaded[i] = true;
                range.progress[i] = 0;
            } else {
                if range.progress[i] >= needed {
                    range.loaded[i] = true;
                    range.progress[i] = 0;
                }
                log.say(|| {
                    format!(
                        "{name} loads ({} of {needed} rounds)",
                        if range.loaded[i] {
                            needed
                        } else {
                            range.progress[i]
                        }
                    )
                });
                return None;
            }
        }
        if f.aim_shots && missile.aim_allowed && !range.aimed[i] {
            range.aimed[i] = true;
            log.say(|| format!("{name} aims"));
            return None;
        }
        let base_range = if self.wet_bows && !missile.thrown {
            missile.base_range / 2
        } else {
            missile.base_range
        };
        let band = missile::range_band(base_range.max(1), range.distance)
            .filter(|b| !(self.low_overhead && b.trajectory == missile::Trajectory::Volley));
        let Some(band) = band else {
            log.say(|| format!("{name} waits: no shot at {} feet", range.distance));
            return None;
        };
        let other = actor.other();
        // A target that moved this round is Moving (Evading with the Evade action), unless a
        // Grievous injury leaves it Still.
        let grievous = states[other.index()]
            .injuries
            .iter()
            .any(|x| x.severity() == injury::Severity::Grievous);
        let target = if grievous || !range.moved[other.index()] {
            missile::TargetMotion::Still
        } else if range.evading[other.index()] {
            missile::TargetMotion::Evading
        } else {
            missile::TargetMotion::Moving
        };
        let situation = missile::Situation {
            target,
            // "Effective Dodge Index × 5": the evader's Dodge EML, with its fatigue and
            // impairment (head, torso, legs).
            target_dodge_eml: m.fighters[other.index()].dodge_ml
                - m.impairment(other, &states[other.index()], false, true).0
                - m.fighters[other.index()].fatigue,
            shooter_moving: false,
            windforce: self.windforce,
            aimed: range.aimed[i],
            trauma: 0,
        };
        // Archery and Throwing are Impaired tests of every zone (H A T L): a bow takes both
        // arms, a thrown weapon its arm.
        let arms = if missile.thrown {
            melee::Arms::Weapon
        } else {
            melee::Arms::Both
        };
        let (impairment, prohibited) = m.impairment_of(actor, &states[i], arms, true);
        let situation = missile::Situation {
            trauma: impairment + f.fatigue,
            ..situation
        };
        let mut eml = missile::missile_eml(ml, &band, &missile, &situation);
        if missile.thrown {
            eml -= m.rules.heft_penalty * (missile.heft - f.strength).max(0);
        }
        // "bows and crossbows (only) have a -20 penalty at the Direct range (not PB) if it is
        // under five feet".
        if self.very_low_overhead && !missile.thrown && band.name == "Direct" {
            eml -= 20;
        }
        let still = target == missile::TargetMotion::Still;
        let shooter = missile::Shooter {
            stunned: states[i].shock == injury::ShockState::Stunned,
            prohibited: prohibited.then(|| m.automatic_cf(actor, &states[i], arms, eml)),
        };
        let shot = match band.trajectory {
            missile::Trajectory::Direct => missile::direct(dice, eml, still, shooter),
            missile::Trajectory::Volley => missile::volley(dice, eml, 1, &[1], shooter),
        };
        range.loaded[i] = false;
        range.aimed[i] = false;
        log.say(|| {
            let result = match shot {
                missile::Shot::Spoiled => "spoiled: no attack".to_owned(),
                missile::Shot::Mishap(t) => {
                    format!("{} {}: a mishap", t.roll, t.level.abbreviation())
                }
                missile::Shot::Miss(t) => format!("{} {}: a miss", t.roll, t.level.abbreviation()),
                missile::Shot::Strike {
                    test,
                    stars,
                    precision,
                    bonus_impact,
                } => format!(
                    "{} {}: a strike, {stars} star(s){}{}",
                    test.roll,
                    test.level.abbreviation(),
                    if precision {
                        ", a free Precision TA (still target)"
                    } else {
                        ""
                    },
                    if bonus_impact {
                        ", an Impact TA from the d10"
                    } else {
                        ""
                    }
                ),
            };
            format!(
                "{name} shoots at {} feet ({}, {target:?} target): EML{eml}: {result}",
                range.distance, band.name
            )
        });
        match shot {
            missile::Shot::Strike {
                stars,
                precision,
                bonus_impact,
                ..
            } => {
                let mut tas = m.choose(
                    actor,
                    stars - 1,
                    &[melee::Advantage::Impact, melee::Advantage::Precision],
                    false,
                );
                tas.precision += u32::from(precision);
                let zone_die = match band.trajectory {
                    missile::Trajectory::Direct => band.zone_die,
                    missile::Trajectory::Volley => band.zone_die.max(body::HUMAN_ZONE_NUMBERS),
                };
                let blow = melee::Blow {
                    zone_die,
                    zone_dice: 1 + tas.precision,
                    aim: f.aim,
                    impact_die: missile.impact_die,
                    impact_modifier: missile.impact_modifier + band.impact,
                    impact_bonus: missile.impact_ta * (tas.impact + u32::from(bonus_impact)) as i32,
                    aspect: missile.aspect,
                    armour_reduction: missile.armour_reduction,
                    impales: missile.impales,
                    broadhead: missile.broadhead,
                };
                Some(m.land(actor, states, blow, dice, log))
            }
            missile::Shot::Mishap(t) => {
                if let Some(mishap) = t.mishap() {
                    m.mishap(actor, mishap, states, log);
                }
                None
            }
            missile::Shot::Miss(_) | missile::Shot::Spoiled => None,
        }
    }
}

fn side_patient(file: &File, side: Side) -> healing::Patient {
    let f = file.fighter(side);
    healing::Patient {
        healing_base: f.healing_base.i32(),
        strength_ml: f.strength_ml.i32(),
        endurance_ml: f.endurance_ml.i32(),
        shock_ml: f.shock_ml.i32(),
        fatigue: f.fatigue.i32(),
    }
}

/// Counts a healing timeline: the recovery, the cause of a death, infection, coma and
/// permanent impairment by zone.
pub(crate) fn record_healing(tally: &mut Tally, side: Side, out: &healing::Outcome) {
    tally.record_recovery(side, &out.recovery);
    if let Some(cause) = out.cause {
        let column = match cause {
            healing::Cause::BloodLoss => DIED,
            healing::Cause::ExtendedShock => DIED + 1,
            healing::Cause::Infection => DIED + 2,
            healing::Cause::GrimWound => DIED + 3,
        };
        tally.record_extra(column, 1);
    }
    tally.record_extra(INFECTED, u64::from(out.infected));
    tally.record_extra(COMA, u64::from(out.coma));
    tally.record_extra(COMATOSE_AT_HORIZON, u64::from(out.comatose_at_horizon));
    for (zone, p) in out.permanent.iter().enumerate() {
        tally.record_extra(PERMANENT + zone, *p as u64);
    }
}

/// The location shock of a location (face features have their own).
pub(crate) fn location_shock(location: body::Location) -> i32 {
    body::HUMAN
        .iter()
        .chain(body::FACE.iter())
        .find(|r| r.location == location)
        .map_or(0, |r| i32::from(r.shock))
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

impl ZoneD100 {
    fn count(&self, tally: &mut Tally, r: &melee::StrikeReport) {
        tally.record_hit(u32::from(r.il), !r.missed);
        tally.record_extra(GLANCING, u64::from(r.glancing));
        if let (Some(zone), true) = (r.zone, r.il > 0) {
            tally.record_extra(injury_column(zone, r.il), 1);
        }
    }
}

impl Ruleset for ZoneD100 {
    fn shape(&self) -> TallyShape {
        TallyShape {
            round_limit: self.round_limit,
            max_damage: 5,
            horizon_days: self.horizon_days,
            extras: EXTRAS,
        }
    }

    fn trial<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        let m = &self.melee;
        let mut states = [State::default(); 2];
        let mut range = Range {
            distance: self.start_distance,
            ..Range::default()
        };
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
        let mut turn = 0;
        'duel: for round in 1..=self.round_limit {
            rounds = round;
            log.say(|| format!("round {round}"));
            for actor in [first, first.other()] {
                turn += 1;
                states[0].turn = turn;
                states[1].turn = turn;
                if dice.exhausted() {
                    break 'duel;
                }
                range.moved[actor.index()] = false;
                let s = &mut states[actor.index()];
                if s.can_act() {
                    let lame = m.legs_unusable(s);
                    if s.prone && !lame {
                        s.prone = false;
                        log.say(|| format!("{} stands up", self.names[actor.index()]));
                    } else if s.disarmed && m.weapon_arm_unusable(actor, s) {
                        log.say(|| {
                            format!(
                                "{} cannot take up the weapon: the weapon arm is unusable",
                                self.names[actor.index()]
                            )
                        });
                    } else if s.disarmed {
                        s.disarmed = false;
                        log.say(|| format!("{} recovers the weapon", self.names[actor.index()]));
                    } else if range.distance > self.melee_distance {
                        if m.fighters[actor.index()].missile.is_some() {
                            if let Some(r) = self.shoot(actor, &mut range, &mut states, dice, log) {
                                self.count(tally, &r);
                            }
                        } else if lame {
                            log.say(|| {
                                format!(
                                    "{} cannot close: a leg is unusable",
                                    self.names[actor.index()]
                                )
                            });
                        } else {
                            // The Evade action (up to half Move) makes missiles pay for the
                            // Dodge.
                            let evade = m.fighters[actor.index()].evade_missiles
                                && s.shock != injury::ShockState::Stunned;
                            let step = if evade {
                                (self.approach / 2).max(10)
                            } else {
                                self.approach
                            };
                            range.distance = range.distance.saturating_sub(step);
                            range.moved[actor.index()] = true;
                            range.evading[actor.index()] = evade;
                            log.say(|| {
                                format!(
                                    "{} {} to {} feet",
                                    self.names[actor.index()],
                                    if evade { "evades forward" } else { "closes" },
                                    range.distance
                                )
                            });
                        }
                    } else {
                        m.exchange(
                            actor,
                            &mut states,
                            self.start_in_close,
                            dice,
                            log,
                            &mut |r| self.count(tally, r),
                        );
                    }
                }
                m.end_of_turn(actor, &mut states, dice, log);
                let out = [self.out(&states[0]), self.out(&states[1])];
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
        if winner.is_none() && !dice.exhausted() {
            // The round limit with one fighter down (INC, or helpless when the victor strikes
            // the helpless): the one standing has won.
            let down = [!states[0].can_act(), !states[1].can_act()];
            winner = match down {
                [false, true] => Some(Side::A),
                [true, false] => Some(Side::B),
                _ => None,
            };
        }
        let dead = [states[0].dead, states[1].dead];
        if let Some(w) = winner {
            let loser = &states[w.other().index()];
            let end = if loser.dead {
                END_DEATH
            } else if loser.routed {
                END_MORALE
            } else if loser.shock == ShockState::Unconscious {
                END_UNCONSCIOUS
            } else if loser.extended_shock.is_some() {
                END_EXTENDED_SHOCK
            } else {
                END_INCAPACITATED_AT_LIMIT
            };
            for column in [
                END_DEATH,
                END_UNCONSCIOUS,
                END_EXTENDED_SHOCK,
                END_INCAPACITATED_AT_LIMIT,
                END_MORALE,
            ] {
                tally.record_extra(column, u64::from(column == end));
            }
            log.say(|| {
                format!(
                    "{} wins: {} is {}",
                    self.names[w.index()],
                    self.names[w.other().index()],
                    match end {
                        END_DEATH => "dead".to_owned(),
                        END_MORALE => "routed (morale)".to_owned(),
                        END_EXTENDED_SHOCK => "INC in Extended Shock".to_owned(),
                        END_INCAPACITATED_AT_LIMIT => "INC at the round limit".to_owned(),
                        _ => loser.shock.abbreviation().to_owned(),
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
        // The healing sequence for every survivor with injuries, bleeding or shock to recover from.
        for side in Side::BOTH {
            let s = &states[side.index()];
            let hurt = !s.injuries.is_empty()
                || s.extended_shock.is_some()
                || s.shock >= ShockState::Incapacitated;
            if s.dead || !hurt {
                continue;
            }
            log.say(|| format!("{} after the fight", self.names[side.index()]));
            let shock_of = |i: usize| s.injuries.get(i).map_or(0, |x| location_shock(x.location));
            let out = healing::heal(
                &self.care,
                &self.patients[side.index()],
                s,
                shock_of,
                dice,
                log,
            );
            record_healing(tally, side, &out);
        }
    }
}

#[cfg(test)]
mod tests {
    //! The duel's missile turn, driven directly with scripted dice.
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;

    fn archer_duel() -> ZoneD100 {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios/zone-d100/archer-vs-charging-spearman.toml");
        match crate::scenario::load(&path) {
            Ok(s) => match &s.points[0].model {
                crate::scenario::Model::ZoneD100(m) => (**m).clone(),
                _ => panic!("a zone-d100 duel"),
            },
            Err(e) => panic!("{e}"),
        }
    }

    /// One shot by the archer at `distance` feet against a still target: the log.
    fn shot(duel: &ZoneD100, distance: u32, dice: &[u32]) -> String {
        let range = Range {
            distance,
            ..Range::default()
        };
        shot_at(duel, range, &mut [State::default(); 2], dice)
    }

    /// One turn of the archer in this range and these states: the log.
    fn shot_at(duel: &ZoneD100, mut range: Range, states: &mut [State; 2], dice: &[u32]) -> String {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        duel.shoot(Side::A, &mut range, states, &mut scripted, &mut log);
        let story = log.lines.join("\n");
        assert_eq!(scripted.used(), dice.len(), "{story}");
        story
    }

    #[test]
    fn an_overhead_under_ten_feet_stops_volleys_and_under_five_costs_bows_20_at_direct() {
        // "using any missile weapon with an overhead under ten feet prohibits Volley ranges; and
        // bows and crossbows (only) have a -20 penalty at the Direct range (not PB) if it is
        // under five feet." Longbow BR120, ML75: at 100 feet (Direct) EML75; at 300 (Volley).
        let open = archer_duel();
        assert!(shot(&open, 100, &[99]).contains("(Direct, Still target): EML75"));
        assert!(shot(&open, 300, &[99]).contains("Volley"));
        let ten = ZoneD100 {
            low_overhead: true,
            ..archer_duel()
        };
        assert!(shot(&ten, 100, &[99]).contains("(Direct, Still target): EML75"));
        assert!(shot(&ten, 300, &[]).contains("waits: no shot"));
        let five = ZoneD100 {
            low_overhead: true,
            very_low_overhead: true,
            ..archer_duel()
        };
        assert!(shot(&five, 100, &[99]).contains("(Direct, Still target): EML55"));
        assert!(shot(&five, 50, &[99]).contains("(Direct PB, Still target): EML85"));
    }

    #[test]
    fn a_target_that_moved_is_moving_an_evader_evading_a_grievous_one_still() {
        // "Moving Target -10 penalty"; "Evading Target Effective Dodge Index × 5 penalty";
        // a Grievously injured target is Still; a Still target gives a free Precision TA.
        let duel = archer_duel();
        let mut range = Range {
            distance: 100,
            ..Range::default()
        };
        range.moved[1] = true;
        let story = shot_at(&duel, range, &mut [State::default(); 2], &[99]);
        assert!(story.contains("(Direct, Moving target): EML65"), "{story}");
        range.evading[1] = true;
        // The spearman's Dodge 50, with a Serious abdomen (−10): Dodge Index 4: −20.
        let mut states = [State::default(); 2];
        states[1].injuries.add(injury::Injury::new(
            body::Location::Abdomen,
            injury::Aspect::Edge,
            2,
        ));
        states[1].summarise();
        let story = shot_at(&duel, range, &mut states, &[99]);
        assert!(story.contains("(Direct, Evading target): EML55"), "{story}");
        states[1].injuries.add(injury::Injury::new(
            body::Location::Thigh,
            injury::Aspect::Edge,
            4,
        ));
        states[1].summarise();
        let story = shot_at(&duel, range, &mut states, &[99]);
        assert!(story.contains("(Direct, Still target): EML75"), "{story}");
    }

    #[test]
    fn a_volley_in_a_duel_strikes_only_on_a_1_of_the_d20() {
        // The Volley's potential strike: a d20 against the target count, 1 in a duel. At 300
        // feet (Volley 3, −20): 11 is an S; d20 2 misses (then the Impact TA d10).
        let duel = archer_duel();
        let story = shot(&duel, 300, &[11, 2, 3]);
        assert!(
            story.contains("(Volley 3, Still target): EML55: 11 S: a miss"),
            "{story}"
        );
    }
}
