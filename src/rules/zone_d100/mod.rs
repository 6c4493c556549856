//! The `zone-d100` ruleset: d100 skill tests with success levels, victory stars, the Zone and
//! Location Dice, impact against armour by aspect, the injury table with compound injuries,
//! glancing blows, bleeding and amputation, shock states, injury effects, mishaps and morale,
//! in a melee or missile duel, and the healing sequence for every survivor (`healing.rs`).
//!
//! Rule text: `shared/rules/zone-d100.txt`; readings, assumptions and the rule ledger:
//! `docs/rules/zone-d100.md`.

pub mod body;
pub mod exchange;
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
    /// A spoiled shot rolls against EML05 for a CF (else it does not take place).
    pub spoiled_shots_roll_for_cf: bool,
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
            spoiled_shots_roll_for_cf: file.rules.spoiled_shots_roll_for_cf,
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
            spoiled_rolls_for_cf: self.spoiled_shots_roll_for_cf,
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
                            let stunned = s.shock == injury::ShockState::Stunned;
                            let evade = m.fighters[actor.index()].evade_missiles && !stunned;
                            // STN: "All movement is Difficult": half the ground.
                            let step = if evade {
                                (self.approach / 2).max(10)
                            } else if stunned {
                                // Half the ground, but some ground: a stun does not root.
                                (self.approach / 2).max(self.approach.min(1))
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
                                    if evade {
                                        "evades forward"
                                    } else if stunned {
                                        "closes, stunned (Difficult movement)"
                                    } else {
                                        "closes"
                                    },
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

#[cfg(test)]
mod tests {
    //! The duel's missile turn, driven directly with scripted dice.
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;

    fn archer_duel() -> ZoneD100 {
        shipped_duel("archer-vs-charging-spearman")
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
        assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
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
        assert!(shot(&open, 300, &[99, 1]).contains("Volley"));
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

    /// The archer's duel with its bow (and the archer) changed.
    fn archer_with(change: impl FnOnce(&mut missile::Missile, &mut melee::Fighter)) -> ZoneD100 {
        let mut duel = archer_duel();
        let archer = &mut duel.melee.fighters[0];
        let Some((mut bow, ml)) = archer.missile else {
            panic!("the archer has a bow")
        };
        change(&mut bow, archer);
        archer.missile = Some((bow, ml));
        duel
    }

    /// Turns of the archer in one range that persists between them: the logs, one a turn.
    fn turns(duel: &ZoneD100, range: &mut Range, dice: &[&[u32]]) -> Vec<String> {
        let mut states = [State::default(); 2];
        dice.iter()
            .map(|d| {
                let mut scripted = ScriptedDice::new(d.to_vec());
                let mut log = VecLog::default();
                duel.shoot(Side::A, range, &mut states, &mut scripted, &mut log);
                let story = log.lines.join("\n");
                assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
                assert_eq!(scripted.used(), d.len(), "{story}");
                story
            })
            .collect()
    }

    fn at(distance: u32) -> Range {
        Range {
            distance,
            ..Range::default()
        }
    }

    #[test]
    fn a_bow_loads_then_aims_then_shoots_one_action_a_turn_the_shot_at_aim_plus_10() {
        // "With each missile Attack Option, characters select a specific action": BOW LOAD
        // 1 ROUND, AIM (BOW) 1 ROUND, SHOOT 1 TURN; "Aim +10 bonus if took Aim action previous
        // round". Only the shot rolls a die (a miss: 99).
        let duel = archer_with(|bow, archer| {
            bow.load_rounds = 1;
            archer.aim_shots = true;
        });
        let logs = turns(&duel, &mut at(100), &[&[], &[], &[99]]);
        assert!(logs[0].contains("loads (1 of 1 rounds)"), "{logs:?}");
        assert!(logs[1].contains("aims"), "{logs:?}");
        assert!(
            logs[2].contains("(Direct, Still target): EML85"),
            "{logs:?}"
        );
    }

    #[test]
    fn a_crossbow_spans_then_loads_before_it_shoots() {
        // "SPAN: by hand, the time is 1 round. Using a mechanical spanner takes 2, 4, or 8
        // rounds ... After spanning, loading a bolt requires the separate Load action."
        for span in [1, 2] {
            let duel = archer_with(|bow, _| {
                bow.load_rounds = 1;
                bow.span_rounds = span;
            });
            let needed = span + 1;
            let mut dice: Vec<&[u32]> = vec![&[]; needed as usize];
            dice.push(&[99]);
            let logs = turns(&duel, &mut at(100), &dice);
            for (k, log) in logs[..needed as usize].iter().enumerate() {
                let want = format!("loads ({} of {needed} rounds)", k + 1);
                assert!(log.contains(&want), "{logs:?}");
            }
            assert!(logs[needed as usize].contains("shoots"), "{logs:?}");
        }
    }

    #[test]
    fn arrows_in_hand_load_free_so_the_bow_shoots_every_turn() {
        // "If projectiles are in hand, or readily accessible nearby, then load time is a free
        // action": load_rounds 0, no aim: a shot each turn.
        let duel = archer_with(|bow, archer| {
            bow.load_rounds = 0;
            archer.aim_shots = false;
        });
        let logs = turns(&duel, &mut at(100), &[&[99], &[99]]);
        assert!(
            logs.iter()
                .all(|l| l.contains("shoots") && !l.contains("loads"))
        );
    }

    #[test]
    fn aim_with_a_bow_is_allowed_only_if_pull_exceeds_draw_by_75() {
        // "AIM (BOW): the aim action with a bow is allowed only if Pull exceeds Draw by at least
        // 75": a bow without (`aim_allowed = false`) shoots at once, without the +10.
        let duel = archer_with(|bow, archer| {
            bow.aim_allowed = false;
            archer.aim_shots = true;
        });
        let logs = turns(&duel, &mut at(100), &[&[99]]);
        assert!(
            logs[0].contains("(Direct, Still target): EML75"),
            "{logs:?}"
        );
    }

    #[test]
    fn a_thrown_weapon_throws_at_once_with_the_heft_penalty_and_its_own_arm() {
        // "THROWN — THROW NONE 1 TURN"; "Thrown Weapon/Object Heft penalty": Heft 14 against
        // Strength 12 is 2 × 5 = −10. "Throwing" is impaired by its arm only: a Serious off
        // arm costs a bow 10 and a thrower nothing.
        let javelin = |archer: &mut melee::Fighter, bow: &mut missile::Missile| {
            bow.thrown = true;
            bow.load_rounds = 0;
            bow.heft = 14;
            archer.strength = 12;
            archer.aim_shots = false;
        };
        let duel = archer_with(|bow, archer| javelin(archer, bow));
        let logs = turns(&duel, &mut at(100), &[&[99]]);
        assert!(
            logs[0].contains("(Direct, Still target): EML65"),
            "{logs:?}"
        );
        let mut states = [State::default(); 2];
        let off_arm = if duel.melee.fighters[0].right_handed {
            body::BodySide::Left
        } else {
            body::BodySide::Right
        };
        let mut hurt = injury::Injury::new(body::Location::UpperArm, injury::Aspect::Edge, 2);
        hurt.side = off_arm;
        states[0].injuries.add(hurt);
        states[0].summarise();
        let story = shot_at(&duel, at(100), &mut states.clone(), &[99]);
        assert!(story.contains("EML65"), "a thrower's off arm: {story}");
        let story = shot_at(&archer_duel(), at(100), &mut states, &[99]);
        assert!(story.contains("EML65"), "a bow takes both arms: {story}");
    }

    #[test]
    fn archery_is_impaired_by_the_torso_and_fatigue() {
        // "Trauma Fatigue penalty and applicable Impairment": a Serious abdomen (−10) and
        // fatigue 5: EML75 − 15.
        let duel = archer_with(|_, archer| archer.fatigue = 5);
        let mut states = [State::default(); 2];
        states[0].injuries.add(injury::Injury::new(
            body::Location::Abdomen,
            injury::Aspect::Edge,
            2,
        ));
        states[0].summarise();
        let story = shot_at(&duel, at(100), &mut states, &[99]);
        assert!(story.contains("(Direct, Still target): EML60"), "{story}");
    }

    #[test]
    fn wet_bows_halve_their_base_range() {
        // "if the GM deems equipment wet, simply halve their Base Range (BR)": BR120 at 100
        // feet is Direct; BR60, Volley 2.
        assert!(shot(&archer_duel(), 100, &[99]).contains("(Direct, "));
        let wet = ZoneD100 {
            wet_bows: true,
            ..archer_duel()
        };
        assert!(
            shot(&wet, 100, &[99, 1]).contains("(Volley 2, "),
            "{}",
            shot(&wet, 100, &[99, 1])
        );
    }

    #[test]
    fn a_missile_mishap_fumbles_on_0_and_stumbles_on_5_and_no_attack_takes_place() {
        // "0 MISHAP the attacker makes a Fumble Roll on a CF0 result; or a 5 Stumble Roll on a
        // CF5 ... The attack does not take place."
        let duel = archer_duel();
        let mut states = [State::default(); 2];
        let story = shot_at(&duel, at(100), &mut states, &[100]);
        assert!(story.contains("100 CF: a mishap"), "{story}");
        assert!(states[0].disarmed && !states[0].prone, "{story}");
        assert!(states[1].injuries.is_empty());
        let mut states = [State::default(); 2];
        let story = shot_at(&duel, at(100), &mut states, &[95]);
        assert!(states[0].prone && !states[0].disarmed, "{story}");
    }

    /// The spearman's abdomen under a cover of Piercing AV `p`.
    fn pierce_cover(duel: &mut ZoneD100, p: i32) {
        let cover = &mut duel.melee.fighters[1].armour[body::Location::Abdomen as usize];
        cover.av[injury::Aspect::Point.index()] = p;
    }

    #[test]
    fn a_direct_strike_uses_the_range_zone_die_and_impact_and_the_armour_reduction() {
        // "ZD The Zone Die used in the Location Roll ... according to range"; "IMPACT The
        // modifier to Strike Impact according to range"; "the projectile's Armour Reduction 4
        // eliminating all of the destrier's AV3". The bodkin (d12+4, AR4) at a Moving target:
        // Direct (100 feet) rolls a d8 Zone Die and adds 0; Direct PB (50 feet) a d6, +2.
        // 64 is an S (one star, no TA). The Zone Die 5 with the Location Die 7: the abdomen,
        // under P3 (AV 0 after AR4), then P6 (AV 2). Impact 6, a Shock roll of 50.
        let mut duel = archer_duel();
        let moving = || {
            let mut r = at(100);
            r.moved[1] = true;
            r
        };
        let story = shot_at(
            &duel,
            moving(),
            &mut [State::default(); 2],
            &[64, 5, 7, 6, 50],
        );
        assert!(
            story.contains("EML65: 64 S: a strike, 1 star(s)"),
            "{story}"
        );
        assert!(
            story.contains("hits ZN5 abdomen: impact 6 + 4 + 0 TA = 10P, AV 0 = 10"),
            "{story}"
        );
        pierce_cover(&mut duel, 6);
        let story = shot_at(
            &duel,
            moving(),
            &mut [State::default(); 2],
            &[64, 5, 7, 6, 50],
        );
        assert!(
            story.contains("impact 6 + 4 + 0 TA = 10P, AV 2 = 8"),
            "{story}"
        );
        let mut close = moving();
        close.distance = 50;
        let story = shot_at(&duel, close, &mut [State::default(); 2], &[64, 5, 7, 6, 50]);
        assert!(
            story.contains("(Direct PB, Moving target): EML75"),
            "{story}"
        );
        assert!(story.contains("impact 6 + 6 + 0 TA"), "{story}");
        // A d8 takes 8; a d6 at PB does not.
        let mut scripted = ScriptedDice::new(vec![64, 8, 7, 1, 6, 50, 50]);
        duel.shoot(
            Side::A,
            &mut moving(),
            &mut [State::default(); 2],
            &mut scripted,
            &mut VecLog::default(),
        );
        assert!(scripted.finish().is_ok(), "{:?}", scripted.error());
        let mut scripted = ScriptedDice::new(vec![64, 7, 7, 6, 50]);
        duel.shoot(
            Side::A,
            &mut close,
            &mut [State::default(); 2],
            &mut scripted,
            &mut VecLog::default(),
        );
        assert!(scripted.error().is_some(), "a 7 on the PB Zone Die (d6)");
    }

    #[test]
    fn a_still_target_gives_a_free_precision_ta_an_extra_zone_die() {
        // "PRECISION successful attacks against Still targets automatically receive a Precision
        // Tactical Advantage": the same S at a Still target rolls two Zone Dice (ZN5 twice:
        // the torso), then two Location Dice, the thinner armour's kept.
        let duel = archer_duel();
        let story = shot(&duel, 100, &[74, 5, 5, 7, 7, 6, 50]);
        assert!(
            story.contains("74 S: a strike, 1 star(s), a free Precision TA"),
            "{story}"
        );
        assert!(story.contains("hits ZN5 abdomen"), "{story}");
    }

    #[test]
    fn each_star_beyond_s_is_a_ta_of_impact_or_precision_never_an_action() {
        // "TACTICAL ADVANTAGE (TA) for each TA, the attacker selects one of the two special
        // effects" (Impact, Precision); "IMPACT Increase strike impact according to the weapon":
        // a CS (60 against EML65) at a Moving target by a shooter who prefers a bonus action,
        // then a Setup, then Impact: one Impact TA, the bodkin's 4.
        let duel = archer_with(|_, archer| {
            archer.advantages = [
                melee::Advantage::Action,
                melee::Advantage::Setup,
                melee::Advantage::Impact,
                melee::Advantage::Precision,
            ];
        });
        let mut range = at(100);
        range.moved[1] = true;
        let story = shot_at(&duel, range, &mut [State::default(); 2], &[60, 5, 7, 6, 50]);
        assert!(story.contains("60 CS: a strike, 2 star(s)"), "{story}");
        assert!(story.contains("impact 6 + 4 + 4 TA = 14P"), "{story}");
        assert!(!story.contains("bonus action"), "{story}");
    }

    #[test]
    fn a_volley_strike_on_a_d20_of_1_with_a_d10_zone_die_and_the_d10s_impact_ta() {
        // "If the d20 roll is less than or equal to the target count, then one creature within
        // the 15-foot area is hit"; "For the ZD, use the larger of either a d10 or a die whose
        // size equals the target's number of body zones. Adjust the base impact by range ...
        // if the d10 rolled with the d20 is a 5 or 0, add the projectile's Impact TA bonus."
        // Volley 3 (300 feet, −3 impact): 11 S, d20 1, d10 5; Zone Die 10 (a d10 takes it).
        let duel = archer_duel();
        let mut range = at(300);
        range.moved[1] = true;
        let story = shot_at(
            &duel,
            range,
            &mut [State::default(); 2],
            &[11, 1, 5, 5, 7, 6, 50],
        );
        assert!(story.contains("(Volley 3, Moving target): EML45: 11 S: a strike, 1 star(s), an Impact TA from the d10"), "{story}");
        assert!(story.contains("impact 6 + 1 + 4 TA"), "{story}");
        // The d10 of 3: no Impact TA.
        let story = shot_at(
            &duel,
            range,
            &mut [State::default(); 2],
            &[11, 1, 3, 5, 7, 6, 50],
        );
        assert!(story.contains("impact 6 + 1 + 0 TA"), "{story}");
        // A Zone Die of 10 (a d10) is a thigh: a d2 for its side.
        let story = shot_at(
            &duel,
            range,
            &mut [State::default(); 2],
            &[11, 1, 3, 10, 3, 2, 6, 50, 50],
        );
        assert!(story.contains("hits ZN10 right"), "{story}");
    }

    /// One duel of `duel` on these dice until they run out: the story.
    fn trial_story(duel: &ZoneD100, dice: &[u32]) -> String {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let mut tally = Tally::new(duel.shape());
        duel.trial(&mut scripted, &mut log, &mut tally);
        let story = log.lines.join("\n");
        assert!(scripted.used() >= dice.len(), "dice left over\n{story}");
        story
    }

    #[test]
    fn the_higher_initiative_acts_first_and_a_tie_rolls_a_d2() {
        // Order of action: the Archer's Initiative 70 before the Spearman's 60, no die; equal
        // Initiatives: a d2 (2: the Spearman).
        let duel = archer_duel();
        let story = trial_story(&duel, &[]);
        assert!(story.starts_with("Archer acts first"), "{story}");
        let mut tied = archer_duel();
        tied.melee.fighters[1].initiative_ml = 70;
        let story = trial_story(&tied, &[2]);
        assert!(story.starts_with("Spearman acts first"), "{story}");
    }

    #[test]
    fn the_charger_closes_into_melee_and_the_archer_strikes_with_no_turn_to_draw() {
        // "Aware characters can make a melee strike with a readied weapon against foes they
        // threaten within their Engagement Zone"; "Characters may unsheathe a weapon as a free
        // action ... drop items at any time, requiring no action." At 10 feet the Archer shoots
        // (99: a miss), the Spearman closes to 5; in round 2 the Archer attacks with the short
        // sword at once (99 against the Counterstrike 98), then the Spearman (97 against the
        // Dodge 96).
        let duel = ZoneD100 {
            start_distance: 10,
            approach: 5,
            ..archer_duel()
        };
        let story = trial_story(&duel, &[99, 99, 98, 97, 96]);
        crate::log::assert_in_order(
            &story,
            &[
                "Archer shoots at 10 feet",
                "Spearman closes to 5 feet",
                "round 2",
                "Archer attacks Spearman: 99",
                "Spearman attacks Archer: 97",
            ],
        );
    }

    #[test]
    fn an_evader_covers_half_the_ground_and_a_stunned_charger_moves_difficult() {
        // "the Evade action if they move at least ten feet (up to half Move)"; STN: "All
        // movement is Difficult". The Spearman evading from 300 feet covers 15 of the 30 and the
        // Archer's next shot is at an Evading target.
        let mut duel = archer_duel();
        duel.melee.fighters[1].evade_missiles = true;
        let story = trial_story(&duel, &[11, 2, 3, 99, 1]);
        crate::log::assert_in_order(
            &story,
            &[
                "Spearman evades forward to 285 feet",
                "(Volley 3, Evading target)",
            ],
        );
        // Stunned at 100 feet (74: S at a Still target, ZN5 twice, LD 6 twice: the abdomen;
        // impact 1 + 4: S2P; Shock 71, an F: 4 + 2 + 1 = 7), the Spearman cannot evade and
        // closes 15 feet: Difficult movement.
        let duel = ZoneD100 {
            start_distance: 100,
            ..duel
        };
        let story = trial_story(&duel, &[74, 5, 5, 6, 6, 1, 71, 99]);
        crate::log::assert_in_order(
            &story,
            &[
                "SHK 7 -> STN",
                "Spearman closes, stunned (Difficult movement) to 85 feet",
                "still stunned",
            ],
        );
    }

    #[test]
    fn a_grievous_leg_keeps_the_charger_down_and_out_of_reach() {
        // "a left thigh injury ... Grievous (unusable; the victim falls prone)"; "Attempting any
        // other action that requires using a zone with a Grievous injury ... is an automatic CF":
        // the Spearman neither stands nor closes. The Archer's 74 at 300 feet... at 100 feet
        // (S, a Still target: two Zone Dice, both ZN8), two Location Dice 1 (thigh), d2 1,
        // impact 12 + 4: G4P; Shock 10 (CS): 3 + 4 − 1 = 6; Morale 10: steady.
        let duel = ZoneD100 {
            start_distance: 100,
            ..archer_duel()
        };
        let story = trial_story(&duel, &[74, 8, 8, 1, 1, 1, 12, 10, 10]);
        crate::log::assert_in_order(
            &story,
            &[
                "injury G4P",
                "the injury throws the target prone",
                "Spearman cannot close: a leg is unusable",
                "Morale roll 10",
            ],
        );
        assert!(!story.contains("Spearman stands up"), "{story}");
    }

    #[test]
    fn a_grievous_weapon_arm_drops_the_weapon_for_good() {
        // "ARM ... AUTOMATIC FUMBLE"; "Attempting any other action that requires using a zone
        // with a Grievous injury ... is an automatic CF": the Spearman cannot take the spear up
        // again. 74 at 100 feet (S, Still: two Zone Dice 2, two Location Dice 8: the forearm,
        // d2 2: right), impact 12 + 4: G4P; Shock 10 (CS): 1 + 4 − 1 = 4; Morale 10.
        let duel = ZoneD100 {
            start_distance: 100,
            ..archer_duel()
        };
        let story = trial_story(&duel, &[74, 2, 2, 8, 8, 2, 12, 10, 10]);
        crate::log::assert_in_order(
            &story,
            &[
                "right forearm",
                "injury G4P",
                "the injury makes the weapon fall",
                "Spearman cannot take up the weapon: the weapon arm is unusable",
            ],
        );
    }

    #[test]
    fn a_prone_fighter_spends_its_turn_standing() {
        // The Shock example's character "takes a difficult Move to stand (costing 20 feet)": a
        // prone fighter's next turn goes to standing up. At 5 feet the Archer's 95 is a CF5: it
        // stumbles prone; in round 2 it stands up and does not attack.
        let duel = ZoneD100 {
            start_distance: 5,
            ..archer_duel()
        };
        let story = trial_story(&duel, &[95, 99, 99, 98]);
        crate::log::assert_in_order(
            &story,
            &[
                "Archer stumbles: falls prone",
                "round 2",
                "Archer stands up",
                "Spearman attacks Archer",
            ],
        );
        assert_eq!(story.matches("Archer attacks").count(), 1, "{story}");
    }
}
