//! The duel's turn at range (MISSILE SEQUENCE): 1 MISSILE ACTIONS (load, span, aim, shoot or
//! throw, one a turn), 2 MISSILE RANGE (the band by Base Range; low overhead, wet bows), 3
//! MISSILE TEST (target movement: Still, Moving, Evading; the shooter's impairment, Heft,
//! overhead), Direct or Volley resolution, and a strike's blow through the INJURY SEQUENCE.

use super::skill::SuccessLevel;
use super::{ZoneD100, body, injury, injury_sequence, melee, missile};
use crate::dice::Dice;
use crate::log::Log;
use crate::stats::Side;
use melee::{Pair, State};

/// What lies between two foes at range: the distance in feet, and in a fight of several how
/// far a move toward the foe may go, whether the foe is fighting in melee and who stands near
/// it (what each has done at range, loading, aiming, moving, is in its [`State`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct Range<'a> {
    /// Feet between the two.
    pub(super) distance: u32,
    /// The least distance to the foe a move toward it may reach: it stops on entering a nearer
    /// foe's Engagement Zone and passes no foe (0 in a duel: there is no other).
    pub(super) stop: u32,
    /// The foe is actively fighting in melee: an Evading target for a missile.
    pub(super) foe_in_melee: bool,
    /// The creatures near the foe, whom a missile that misses it may strike.
    pub(super) crowd: &'a Crowd,
    /// The place of the creature a missile that missed the foe struck instead.
    pub(super) struck_elsewhere: Option<usize>,
}

impl Range<'static> {
    /// `distance` feet between the two fighters of a duel: no one else near.
    pub(super) fn duel(distance: u32) -> Self {
        Range {
            distance,
            stop: 0,
            foe_in_melee: false,
            crowd: &Crowd::ALONE,
            struck_elsewhere: None,
        }
    }
}

/// Up to nine creatures by their places on the roster, in the order counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Places {
    at: [u8; 9],
    len: u8,
}

impl Places {
    /// None.
    const NONE: Places = Places { at: [0; 9], len: 0 };

    /// Counts `place` next, unless nine are counted already; says whether it was.
    pub(super) fn push(&mut self, place: usize) -> bool {
        let room = usize::from(self.len) < self.at.len();
        if room {
            self.at[usize::from(self.len)] = place as u8;
            self.len += 1;
        }
        room
    }

    /// How many are counted.
    pub(super) fn count(&self) -> u32 {
        u32::from(self.len)
    }

    /// The `k`-th counted (from 1).
    pub(super) fn nth(&self, k: u32) -> Option<usize> {
        let i = (k as usize).checked_sub(1)?;
        (i < usize::from(self.len)).then(|| usize::from(self.at[i]))
    }
}

/// Who stands near a missile's target in a fight of several (MISSILE SEQUENCE: MISS, POTENTIAL
/// STRIKE, DEVIATION; the ground's reading is `docs/rules/zone-d100.md`, "Sides of several
/// fighters"): the others within five feet of it, the others in its 15-foot area, and those
/// in each of the eight 15-foot areas around that one, numbered by the Deviation's d8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Crowd {
    /// Within five feet of the target (a Direct miss's target count; at most eight).
    pub(super) near: Places,
    /// The others in the target's 15-foot area, which counts the target first.
    pub(super) area: Places,
    /// Each neighbouring 15-foot area, by the d8: 1 beyond the target, 3 and 7 beside it
    /// along its side's line, 5 before it (toward the shooter), the even ones diagonal.
    pub(super) beside: [Places; 8],
    /// The shooter's side, by place (bit `p` for the fighter at place `p`).
    pub(super) allies: u32,
}

impl Crowd {
    /// No one near: the target alone (a duel).
    pub(super) const ALONE: Crowd = Crowd {
        near: Places::NONE,
        area: Places::NONE,
        beside: [Places::NONE; 8],
        allies: 0,
    };

    /// The place of the creature a stray missile strikes, by the die `roll` among those
    /// counted in `area` (0: near the target, or its own area, whose first count is the
    /// target; 1 to 8: a neighbouring area).
    fn struck(&self, trajectory: missile::Trajectory, area: u8, roll: u32) -> Option<usize> {
        match (area, trajectory) {
            (0, missile::Trajectory::Direct) => self.near.nth(roll),
            (0, missile::Trajectory::Volley) => self.area.nth(roll.checked_sub(1)?),
            (k, _) => self.beside.get(usize::from(k) - 1)?.nth(roll),
        }
    }
}

impl ZoneD100 {
    /// One turn at range of a fighter with a missile, one MISSILE ACTION: load (and span), aim,
    /// or shoot: the MISSILE RANGE, the MISSILE TEST, Direct or Volley resolution, and a
    /// strike's blow through the INJURY SEQUENCE (or the mishap of a CF).
    pub(super) fn shoot<D: Dice, L: Log>(
        &self,
        actor: Side,
        range: &mut Range<'_>,
        states: &mut impl Pair,
        dice: &mut D,
        log: &mut L,
    ) -> Option<melee::StrikeReport> {
        let m = &self.melee;
        let f = &m.fighter(states.place(actor));
        let (missile, ml) = f.missile?;
        let name = &m.names[states.place(actor)];
        if load(&missile, &mut states[actor], name, log)
            || aim(f, &missile, &mut states[actor], name, log)
        {
            return None;
        }
        let Some(band) = self.missile_range(&missile, range.distance) else {
            log.say(|| format!("{name} waits: no shot at {} feet", range.distance));
            return None;
        };
        let in_melee = range.foe_in_melee;
        let (eml, target, shooter) =
            self.missile_test((actor, in_melee), states, f, &missile, ml, &band);
        let still = target == missile::TargetMotion::Still;
        let crowd = range.crowd;
        let shot = match band.trajectory {
            missile::Trajectory::Direct => {
                missile::direct_near(dice, eml, still, shooter, crowd.near.count())
            }
            missile::Trajectory::Volley => {
                let aimed = missile::Aimed {
                    count: 1 + crowd.area.count(),
                    ours: 1,
                };
                let beside = crowd.beside.map(|p| p.count());
                missile::volley_over(dice, eml, aimed, &beside, shooter)
            }
        };
        states[actor].loaded = false;
        states[actor].aimed = false;
        log.say(|| {
            format!(
                "{name} shoots at {} feet ({}, {target:?} target): EML{eml}: {}",
                range.distance,
                band.name,
                shot_result(shot)
            )
        });
        match shot {
            missile::Shot::Strike {
                stars,
                precision,
                bonus_impact,
                ..
            } => {
                let free = (precision, bonus_impact);
                let blow = self.missile_blow(states.place(actor), &missile, &band, stars, free);
                Some(m.land(actor, states, blow, dice, log))
            }
            missile::Shot::Mishap(t) => {
                if let Some(mishap) = t.mishap() {
                    m.mishap(actor, mishap, states, log);
                }
                None
            }
            missile::Shot::Stray {
                area,
                roll,
                struck: true,
                bonus_impact,
                ..
            } => {
                let place = crowd.struck(band.trajectory, area, roll)?;
                range.struck_elsewhere = Some(place);
                let ally = crowd.allies & (1 << place) != 0;
                let struck = (place, bonus_impact, ally);
                Some(self.stray(actor, (&missile, band), struck, states, dice, log))
            }
            missile::Shot::Miss(_) | missile::Shot::Stray { .. } | missile::Shot::Spoiled => None,
        }
    }

    /// A missile that missed its target strikes the creature at `place` (MISS, POTENTIAL
    /// STRIKE: "Resolve the strike using the Injury Sequence. Use a d10 ZD or a die whose size
    /// equals the target's number of body zones, if larger. Adjust the base impact by range
    /// (step 2); if the d10 rolled with the d20 is a 5 or 0, add the projectile's Impact TA
    /// bonus."), whichever side it is on (`ally`: the shooter's); the target aimed at stays the
    /// foe.
    fn stray<D: Dice, L: Log>(
        &self,
        actor: Side,
        (missile, band): (&missile::Missile, missile::RangeBand),
        (place, bonus_impact, ally): (usize, bool, bool),
        states: &mut impl Pair,
        dice: &mut D,
        log: &mut L,
    ) -> melee::StrikeReport {
        let m = &self.melee;
        log.say(|| format!("the missile strikes {}", m.names[place]));
        // The d10 (or the target's zones) for the Zone Die, as a Volley's Potential Strike.
        let as_volley = missile::RangeBand {
            zone_die: band.zone_die.max(10),
            trajectory: missile::Trajectory::Volley,
            ..band
        };
        let blow = self.missile_blow(
            states.place(actor),
            missile,
            &as_volley,
            1,
            (false, bonus_impact),
        );
        let aimed_at = states.place(actor.other());
        states.set_place(actor.other(), place);
        let report = m.land(actor, states, blow, dice, log);
        states.set_place(actor.other(), aimed_at);
        melee::StrikeReport {
            on_ally: ally,
            ..report
        }
    }

    /// 2 MISSILE RANGE: the band `distance` falls in by the missile's Base Range (halved for
    /// wet bows); none beyond Volley 4, nor at a Volley range under a low overhead.
    #[inline(always)]
    fn missile_range(
        &self,
        missile: &missile::Missile,
        distance: u32,
    ) -> Option<missile::RangeBand> {
        let base_range = if self.wet_bows && !missile.thrown {
            missile.base_range / 2
        } else {
            missile.base_range
        };
        missile::range_band(base_range.max(1), distance)
            .filter(|b| !(self.low_overhead && b.trajectory == missile::Trajectory::Volley))
    }

    /// 3 MISSILE TEST of fighter `f` shooting with `missile` at ML `ml` in `band`: its EML
    /// (range, the target's motion, crosswind, aim, the shooter's fatigue and impairment; a
    /// thrower's Heft; a bow's −20 at Direct under a very low overhead), the target's motion,
    /// and the shooter's state (stunned, or a test a Grievous injury prohibits).
    #[inline(always)]
    fn missile_test(
        &self,
        (actor, foe_in_melee): (Side, bool),
        states: &impl Pair,
        f: &melee::Fighter,
        missile: &missile::Missile,
        ml: i32,
        band: &missile::RangeBand,
    ) -> (i32, missile::TargetMotion, missile::Shooter) {
        let m = &self.melee;
        let other = actor.other();
        let target = target_motion(&states[other], foe_in_melee);
        let situation = missile::Situation {
            target,
            // "Effective Dodge Index × 5": the evader's Dodge EML, with its fatigue and
            // impairment (head, torso, legs).
            target_dodge_eml: m.fighter(states.place(other)).dodge_ml
                - m.impairment(states.place(other), &states[other], false, true)
                    .0
                - m.fighter(states.place(other)).fatigue
                - states[other].weakness,
            shooter_moving: false,
            windforce: self.windforce,
            aimed: states[actor].aimed,
            trauma: 0,
        };
        // Archery and Throwing are Impaired tests of every zone (H A T L): a bow takes both
        // arms, a thrown weapon its arm.
        let arms = if missile.thrown {
            melee::Arms::Weapon
        } else {
            melee::Arms::Both
        };
        let (impairment, prohibited) =
            m.impairment_of(states.place(actor), &states[actor], arms, true);
        let situation = missile::Situation {
            trauma: impairment + f.fatigue + states[actor].weakness,
            ..situation
        };
        let mut eml = missile::missile_eml(ml, band, missile, &situation);
        if missile.thrown {
            eml -= m.rules.heft_penalty * (missile.heft - f.strength).max(0);
        }
        // "bows and crossbows (only) have a -20 penalty at the Direct range (not PB) if it is
        // under five feet".
        if self.very_low_overhead && !missile.thrown && band.name == "Direct" {
            eml -= 20;
        }
        let shooter = missile::Shooter {
            stunned: states[actor].shock == injury::ShockState::Stunned,
            prohibited: prohibited
                .then(|| m.automatic_cf(states.place(actor), &states[actor], arms, eml)),
            spoiled_rolls_for_cf: self.spoiled_shots_roll_for_cf,
        };
        (eml, target, shooter)
    }

    /// The blow of a missile's strike of `stars` by the fighter at place `at`, for the INJURY
    /// SEQUENCE: the range's Zone Die (a Volley's at least the target's zone numbers) and
    /// impact change, the projectile's impact, aspect and Armour Reduction, and the TAs of the
    /// stars beyond one (Impact or Precision) with the `free` ones: a still target's Precision
    /// TA and the d10's Impact TA.
    #[inline(always)]
    fn missile_blow(
        &self,
        at: usize,
        missile: &missile::Missile,
        band: &missile::RangeBand,
        stars: u32,
        free: (bool, bool),
    ) -> injury_sequence::Blow {
        let m = &self.melee;
        let (precision, bonus_impact) = free;
        let mut tas = m.chosen(at, melee::Choice::ImpactOrPrecision, stars - 1);
        tas.precision += u32::from(precision);
        let zone_die = match band.trajectory {
            missile::Trajectory::Direct => band.zone_die,
            missile::Trajectory::Volley => band.zone_die.max(body::HUMAN_ZONE_NUMBERS),
        };
        injury_sequence::Blow {
            zone_die,
            zone_dice: 1 + tas.precision,
            aim: m.fighter(at).aim,
            impact_die: missile.impact_die,
            impact_modifier: missile.impact_modifier + band.impact,
            impact_bonus: missile.impact_ta * (tas.impact + u32::from(bonus_impact)) as i32,
            aspect: missile.aspect,
            armour_reduction: missile.armour_reduction,
            impales: missile.impales,
            broadhead: missile.broadhead,
        }
    }
}

/// MISSILE ACTIONS: LOAD (and SPAN), a round each until the missile's rounds are spent (none
/// with projectiles in hand: a free action). Returns whether the turn went to it.
#[inline(always)]
fn load<L: Log>(missile: &missile::Missile, state: &mut State, name: &str, log: &mut L) -> bool {
    if state.loaded {
        return false;
    }
    let needed = missile.load_rounds + missile.span_rounds;
    state.progress += 1;
    if needed == 0 {
        state.loaded = true;
        state.progress = 0;
        return false;
    }
    if state.progress >= needed {
        state.loaded = true;
        state.progress = 0;
    }
    log.say(|| {
        format!(
            "{name} loads ({} of {needed} rounds)",
            if state.loaded { needed } else { state.progress }
        )
    });
    true
}

/// MISSILE ACTIONS: AIM, a round before the shot (which then takes +10) for a fighter who aims
/// with a weapon that allows it. Returns whether the turn went to it.
#[inline(always)]
fn aim<L: Log>(
    f: &melee::Fighter,
    missile: &missile::Missile,
    state: &mut State,
    name: &str,
    log: &mut L,
) -> bool {
    if !(f.aim_shots && missile.aim_allowed && !state.aimed) {
        return false;
    }
    state.aimed = true;
    log.say(|| format!("{name} aims"));
    true
}

/// The target's motion for the MISSILE TEST: a target actively fighting in melee is Evading;
/// one that moved this round is Moving (Evading with the Evade action); a Grievous injury
/// leaves it Still.
#[inline(always)]
fn target_motion(target: &State, in_melee: bool) -> missile::TargetMotion {
    let grievous = target
        .injuries
        .iter()
        .any(|x| x.severity() == injury::Severity::Grievous);
    if grievous {
        missile::TargetMotion::Still
    } else if in_melee {
        missile::TargetMotion::Evading
    } else if !target.moved {
        missile::TargetMotion::Still
    } else if target.evading {
        missile::TargetMotion::Evading
    } else {
        missile::TargetMotion::Moving
    }
}

/// The narration of a shot's result: spoiled, a mishap, a miss, or a strike with its stars and
/// free TAs.
fn shot_result(shot: missile::Shot) -> String {
    match shot {
        missile::Shot::Spoiled => "spoiled: no attack".to_owned(),
        missile::Shot::Mishap(t) => {
            format!("{} {}: a mishap", t.roll, t.level.abbreviation())
        }
        missile::Shot::Miss(t) => format!("{} {}: a miss", t.roll, t.level.abbreviation()),
        missile::Shot::Stray {
            test,
            area,
            roll,
            count,
            struck,
            ..
        } => {
            let (level, roll_of_test) = (test.level.abbreviation(), test.roll);
            let missed = if area == 0 && test.level >= SuccessLevel::Success {
                "a potential strike".to_owned()
            } else if area == 0 {
                "a miss of the target".to_owned()
            } else {
                format!("a deviation to area {area} (d8)")
            };
            let hit = if struck {
                "a creature there is hit"
            } else {
                "no one else is hit"
            };
            format!(
                "{roll_of_test} {level}: {missed}; {roll} on the die against a target count of {count}: {hit}"
            )
        }
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
    }
}

#[cfg(test)]
pub(super) mod tests {
    //! The duel's missile turn, driven directly with scripted dice.
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::zone_d100::shipped_duel;
    use melee::State;

    pub(crate) fn archer_duel() -> ZoneD100 {
        shipped_duel("archer-vs-charging-spearman")
    }

    /// One shot by the archer at `distance` feet against a still target: the log.
    fn shot(duel: &ZoneD100, distance: u32, dice: &[u32]) -> String {
        shot_at(
            duel,
            Range::duel(distance),
            &mut [State::default(); 2],
            dice,
        )
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
        let range = Range::duel(100);
        let mut states = [State::default(); 2];
        states[1].moved = true;
        let story = shot_at(&duel, range, &mut states.clone(), &[99]);
        assert!(story.contains("(Direct, Moving target): EML65"), "{story}");
        states[1].evading = true;
        // The spearman's Dodge 50, with a Serious abdomen (−10): Dodge Index 4: −20.
        states[1].injuries.add(injury::Injury::new(
            body::Location::Abdomen,
            injury::Aspect::Edge,
            2,
        ));
        duel.melee.summarise(1, &mut states[1]);
        let story = shot_at(&duel, range, &mut states.clone(), &[99]);
        assert!(story.contains("(Direct, Evading target): EML55"), "{story}");
        states[1].injuries.add(injury::Injury::new(
            body::Location::Thigh,
            injury::Aspect::Edge,
            4,
        ));
        duel.melee.summarise(1, &mut states[1]);
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
        // The melee model tabulates what it reads of its fighters: built again from them.
        let m = &duel.melee;
        duel.melee = melee::Melee::of_roster(&m.fighters, m.names.clone(), m.rules);
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

    fn at(distance: u32) -> Range<'static> {
        Range::duel(distance)
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
        duel.melee.summarise(0, &mut states[0]);
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
        duel.melee.summarise(0, &mut states[0]);
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
        duel.melee.edit_fighter(1, |spearman| {
            let cover = &mut spearman.armour[body::Location::Abdomen as usize];
            cover.av[injury::Aspect::Point.index()] = p;
        });
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
            let mut states = [State::default(); 2];
            states[1].moved = true;
            states
        };
        let story = shot_at(&duel, at(100), &mut moving(), &[64, 5, 7, 6, 50]);
        assert!(
            story.contains("EML65: 64 S: a strike, 1 star(s)"),
            "{story}"
        );
        assert!(
            story.contains("hits ZN5 abdomen: impact 6 + 4 + 0 TA = 10P, AV 0 = 10"),
            "{story}"
        );
        pierce_cover(&mut duel, 6);
        let story = shot_at(&duel, at(100), &mut moving(), &[64, 5, 7, 6, 50]);
        assert!(
            story.contains("impact 6 + 4 + 0 TA = 10P, AV 2 = 8"),
            "{story}"
        );
        let story = shot_at(&duel, at(50), &mut moving(), &[64, 5, 7, 6, 50]);
        assert!(
            story.contains("(Direct PB, Moving target): EML75"),
            "{story}"
        );
        assert!(story.contains("impact 6 + 6 + 0 TA"), "{story}");
        // A d8 takes 8; a d6 at PB does not.
        let mut scripted = ScriptedDice::new(vec![64, 8, 7, 1, 6, 50, 50]);
        duel.shoot(
            Side::A,
            &mut at(100),
            &mut moving(),
            &mut scripted,
            &mut VecLog::default(),
        );
        assert!(scripted.finish().is_ok(), "{:?}", scripted.error());
        let mut scripted = ScriptedDice::new(vec![64, 7, 7, 6, 50]);
        duel.shoot(
            Side::A,
            &mut at(50),
            &mut moving(),
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
        let mut states = [State::default(); 2];
        states[1].moved = true;
        let story = shot_at(&duel, at(100), &mut states, &[60, 5, 7, 6, 50]);
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
        let mut moving = [State::default(); 2];
        moving[1].moved = true;
        let story = shot_at(
            &duel,
            at(300),
            &mut moving.clone(),
            &[11, 1, 5, 5, 7, 6, 50],
        );
        assert!(story.contains("(Volley 3, Moving target): EML45: 11 S: a strike, 1 star(s), an Impact TA from the d10"), "{story}");
        assert!(story.contains("impact 6 + 1 + 4 TA"), "{story}");
        // The d10 of 3: no Impact TA.
        let story = shot_at(
            &duel,
            at(300),
            &mut moving.clone(),
            &[11, 1, 3, 5, 7, 6, 50],
        );
        assert!(story.contains("impact 6 + 1 + 0 TA"), "{story}");
        // A Zone Die of 10 (a d10) is a thigh: a d2 for its side.
        let story = shot_at(
            &duel,
            at(300),
            &mut moving.clone(),
            &[11, 1, 3, 10, 3, 2, 6, 50, 50],
        );
        assert!(story.contains("hits ZN10 right"), "{story}");
    }
}
