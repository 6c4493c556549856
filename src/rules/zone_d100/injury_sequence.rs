//! The INJURY SEQUENCE for one blow, a melee strike or a missile: 1 LOCATION (the Zone and
//! Location Dice, Precision, the thinnest armour preferred), 2 IMPACT (strike impact through
//! the location's armour for the aspect, a projectile's Armour Reduction), 3 INJURY (the injury
//! record, compound injuries, glancing blows, bleeders, amputation), 4 SHOCK (the Shock roll
//! and the state it brings) and the INJURY MISHAP of step 5 (Fumble and Stumble rolls).

use super::body::{Aim, BodySide, Location, Zone, roll_location};
use super::impairment::zone_slot;
use super::injury::{
    Aspect, Class, Injury, Severity, ShockState, amputation_test, glancing, injury_level, shock,
};
use super::melee::{Arms, Fighter, Melee, Pair, StrikeReport, ZoneInjuries};
use super::outcome::Chosen;
use super::skill::{SuccessLevel, Test};
use crate::dice::Dice;
use crate::log::Log;
use crate::stats::Side;

fn zone_order(zone: Zone) -> u32 {
    match zone {
        Zone::Head => 0,
        Zone::Torso => 1,
        Zone::Arm => 2,
        Zone::Leg => 3,
    }
}

impl Melee {
    /// The Injury Sequence for a strike by `striker` with its chosen TAs.
    pub fn strike<D: Dice, L: Log>(
        &self,
        striker: Side,
        states: &mut impl Pair,
        tas: Chosen,
        dice: &mut D,
        log: &mut L,
    ) -> StrikeReport {
        let blow = self.blow(states.place(striker), tas);
        self.land(striker, states, blow, dice, log)
    }

    /// The blow of a melee strike by `striker` with its chosen TAs: a Zone Die more for each
    /// Precision TA, the weapon's Impact TA for each Impact TA.
    pub fn blow(&self, me: usize, tas: Chosen) -> Blow {
        let s = &self.members[me];
        let w = s.weapon;
        Blow {
            zone_die: w.zone_die,
            zone_dice: 1 + tas.precision,
            aim: s.aim,
            impact_die: w.impact_die,
            impact_modifier: w.impact_modifier + s.impact_modifier,
            impact_bonus: w.impact_ta * tas.impact as i32,
            aspect: w.aspect,
            armour_reduction: 0,
            impales: false,
            broadhead: false,
        }
    }

    /// Steps 1 to 3 of the Injury Sequence for a blow on the fighter at place `target` on the
    /// roster: the location it hits (none when the Zone Die passes the body table) and the
    /// injury its impact leaves through the armour there. [`Melee::land`] goes on from here;
    /// exact tables stop here.
    pub fn struck<D: Dice, L: Log>(
        &self,
        target: usize,
        blow: Blow,
        dice: &mut D,
        log: &mut L,
    ) -> Option<Struck> {
        let w = blow;
        let aim = Aim {
            zone_die: blow.zone_die,
            zn: blow.aim,
            zone_dice: blow.zone_dice,
            face_option: self.rules.face_option,
        };
        let tf = &self.members[target];
        // Prefer the zone and location whose armour is thinnest against this aspect, then head,
        // torso, arms, legs.
        let prefer_zone = |z: Zone| zone_order(z);
        let prefer_location = |r: &super::body::LocationRow| {
            let cover = tf.armour[r.location as usize];
            (cover.av[w.aspect.index()].max(0) * 10 + (10 - i32::from(r.shock)).max(0)) as u32
        };
        let Some(hit) = roll_location(dice, aim, prefer_zone, prefer_location) else {
            log.say(|| "  the Zone Die passes the body table: a miss".to_owned());
            return None;
        };
        let cover = tf.armour[hit.row.location as usize];
        let av = (cover.av[w.aspect.index()] - w.armour_reduction).max(0);
        // The impact is read only through the injury it leaves (or a glancing blow).
        let injury = |impact_roll: i32| {
            let effective = impact_roll + w.impact_modifier + w.impact_bonus - av;
            let is_glancing = glancing(w.aspect, effective, cover.rigid);
            let il = if is_glancing {
                0
            } else {
                injury_level(effective)
            };
            (is_glancing, il)
        };
        let impact_roll = dice.d_by(w.impact_die, "impact die", |r| injury(r as i32)) as i32;
        let strike_impact = impact_roll + w.impact_modifier + w.impact_bonus;
        let effective = strike_impact - av;
        let location = hit.row.location;
        log.say(|| format!("  hits ZN{} {}{location}: impact {impact_roll} + {} + {} TA = {strike_impact}{}, AV {} = {effective}", hit.zn, hit.side.prefix(), w.impact_modifier, w.impact_bonus, w.aspect.letter(), av));
        let (glancing, il) = injury(impact_roll);
        Some(Struck { hit, il, glancing })
    }

    /// The Injury Sequence for a blow of `striker` (a melee strike or a missile).
    pub fn land<D: Dice, L: Log>(
        &self,
        striker: Side,
        states: &mut impl Pair,
        blow: Blow,
        dice: &mut D,
        log: &mut L,
    ) -> StrikeReport {
        let target = striker.other();
        let w = blow;
        let Some(Struck {
            hit,
            il,
            glancing: is_glancing,
        }) = self.struck(states.place(target), blow, dice, log)
        else {
            return StrikeReport {
                striker,
                missed: true,
                ..StrikeReport::default()
            };
        };
        let target_at = states.place(target);
        let tf = &self.fighter(target_at);
        let state = &mut states[target];
        let location = hit.row.location;
        let mut report = StrikeReport {
            striker,
            zone: Some(hit.row.zone),
            ..StrikeReport::default()
        };
        if il == 0 && !is_glancing {
            log.say(|| "  no injury".to_owned());
            return report;
        }
        let mut injury_shock = 1;
        let mut il_after = il;
        let mut shocked_injury = None;
        let mut shock_bonus = 0;
        let mut severed_neck = false;
        if is_glancing {
            report.glancing = true;
            shock_bonus += 10;
            log.say(|| {
                "  a glancing blow off rigid armour: Injury Shock 1, +10 to the Shock roll"
                    .to_owned()
            });
        } else {
            let recorded = state.injuries.len();
            let index = state.injuries.add(Injury {
                location,
                side: hit.side,
                aspect: w.aspect,
                il,
                class: if matches!(w.aspect, Aspect::Fire | Aspect::Frost) {
                    Class::FireFrost
                } else {
                    Class::Strike
                },
                bleeder: false,
                impaled: w.impales && il >= 3,
                projectile: w.impales,
                broadhead: w.broadhead,
                severed: false,
                compounded_g5: false,
                order: 0,
                impairs: false,
            });
            let raised = state.injuries.compound(index, dice);
            // The zone sums: the new injury added to them, or all again when it raised another
            // or took the place of one (a full record). A glancing blow records nothing.
            if raised.is_none() && state.injuries.len() > recorded {
                self.count_injury(target_at, state, index);
            } else {
                self.summarise(target_at, state);
            }
            let mut worst = index;
            if let Some(r) = raised {
                worst = r;
                log.say(|| "  compound injury".to_owned());
            }
            shocked_injury = Some(worst);
            let Some(&injury) = state.injuries.get(worst) else {
                return report;
            };
            injury_shock = if injury.compounded_g5 {
                6
            } else {
                i32::from(injury.il)
            };
            let il_now = injury.il;
            il_after = il_now;
            report.il = il;
            let bleeds = self
                .rules
                .bleeding
                .bleeds(hit.row.bleeding, il_now, injury.aspect);
            let mut bleeder = bleeds;
            // A location already severed is not severed again when its G5 compounds.
            if il_now == 5 && injury.aspect == Aspect::Edge && !injury.severed {
                let circle = hit.row.bleeding;
                if let Some(a) =
                    amputation_test(dice, s_strength_ml(tf), hit.row.amputation, circle)
                {
                    log.say(|| {
                        format!(
                            "  amputation test: Strength {} vs EML{}: {}",
                            a.test.roll,
                            a.test.eml,
                            a.test.level.abbreviation()
                        )
                    });
                    if a.severed {
                        state.amputations += 1;
                        severed_neck = location == Location::Neck;
                        if let Some(x) = state.injuries.get_mut(worst) {
                            x.severed = true;
                        }
                    }
                    bleeder |= a.bleeder;
                    if a.shock_penalty {
                        shock_bonus -= 20;
                    }
                }
            }
            if bleeder {
                state.bleeders += 1;
                if let Some(x) = state.injuries.get_mut(worst) {
                    x.bleeder = true;
                }
            }
            log.say(|| {
                format!(
                    "  injury {}{}{il_now}{}{}",
                    match super::injury::severity(il_now) {
                        Severity::Minor => "M",
                        Severity::Serious => "S",
                        Severity::Grievous => "G",
                    },
                    "",
                    w.aspect.letter(),
                    if bleeder { ", a Bleeder" } else { "" }
                )
            });
        }
        if severed_neck {
            state.dead = true;
            state.shock = ShockState::Killed;
            log.say(|| "  the neck is severed: dead".to_owned());
            return report;
        }
        let sh = shock(
            dice,
            i32::from(hit.row.shock),
            injury_shock,
            tf.shock_ml - tf.fatigue + shock_bonus,
        );
        let before = state.shock;
        state.shock = before.stack(sh.state);
        if state.shock > before {
            // The injury that induced the state (a coma's HR): its Location Shock and Injury
            // Level (a compounded G5 stays level 5).
            state.last_shock = (hit.row.shock, injury_shock.clamp(0, 5) as u8);
        }
        // "M Associated actions are unhindered if the Shock Roll in step 4 succeeded ... or
        // immediately if the Shock Roll failed—the injury imparts 5 impairment": this injury.
        if !sh.test.level.is_success()
            && let Some(x) = shocked_injury.and_then(|i| state.injuries.get_mut(i))
            && !x.impairs
        {
            x.impairs = true;
            if x.severity() == Severity::Minor {
                let slot = zone_slot(x);
                let minor = ZoneInjuries {
                    minor: 1,
                    ..ZoneInjuries::default()
                };
                self.weigh_in(target_at, state, slot, minor);
            }
        }
        if state.shock == ShockState::Killed {
            state.dead = true;
        }
        if state.shock > before {
            state.reroll_due = true;
            state.shock_turn = state.turn;
        }
        // "INC ... Target is conscious but falls prone"; "UNC: Target falls unconscious and
        // prone": a fighter who recovers spends a turn standing.
        if state.shock >= ShockState::Incapacitated {
            state.prone = true;
        }
        // The injury as it now stands (a compounded one at its raised level).
        let il = il_after;
        if il >= 2 {
            state.morale_due = true;
        }
        log.say(|| {
            format!(
                "  Shock roll {} vs EML{}: {}: SHK {} -> {}",
                sh.test.roll,
                sh.test.eml,
                sh.test.level.abbreviation(),
                sh.index,
                state.shock.abbreviation()
            )
        });
        // Injury mishaps (step 5): Serious arm injuries roll to fumble, Serious leg (and pelvis)
        // injuries to stumble; Grievous ones fail automatically.
        if il >= 2 && state.can_act() {
            let zone = hit.row.zone;
            let severe = il >= 4;
            // An arm's Fumble roll is for what that arm holds: the weapon (its arm, or either
            // for a two-handed weapon), or a shield.
            let weapon_side = if tf.right_handed {
                BodySide::Right
            } else {
                BodySide::Left
            };
            let weapon_arm = hit.side == weapon_side || tf.weapon.two_handed;
            // Read by the zone from a table, not matched: the zone is the dice's.
            let mut by_zone = [(false, false); 4];
            by_zone[Zone::Head as usize] = (severe, severe);
            by_zone[Zone::Arm as usize] = (weapon_arm | tf.shield.is_some(), false);
            by_zone[Zone::Torso as usize] = (false, severe | (location == Location::Pelvis));
            by_zone[Zone::Leg as usize] = (false, true);
            let (fumble, stumble) = by_zone[zone as usize];
            // The Fumble roll is a Dexterity test, the Stumble roll an Agility test: Impaired
            // tests (Dexterity: head, arms, torso; Agility: head, torso, legs) with fatigue,
            // one level lower while stunned.
            let stunned = state.shock == ShockState::Stunned;
            let impaired_roll = |dice: &mut D, ml: i32, impairment: i32, label| {
                let mut t = Test::roll(dice, ml - impairment - tf.fatigue, label);
                if stunned {
                    t.level = t.level.lowered();
                }
                t.level < SuccessLevel::Success
            };
            let dexterity = self.impairment_of(target_at, state, Arms::Both, false).0;
            let agility = self.impairment_of(target_at, state, Arms::None, true).0;
            if fumble
                && (severe
                    || impaired_roll(
                        dice,
                        tf.dexterity_ml,
                        dexterity,
                        "d100 (Fumble roll: Dexterity)",
                    ))
            {
                if zone == Zone::Arm && !weapon_arm {
                    state.shield_broken = true;
                    log.say(|| "  the injury makes the shield fall".to_owned());
                } else {
                    state.disarmed = true;
                    log.say(|| "  the injury makes the weapon fall".to_owned());
                }
            }
            if stumble
                && (severe
                    || impaired_roll(dice, tf.agility_ml, agility, "d100 (Stumble roll: Agility)"))
            {
                state.prone = true;
                log.say(|| "  the injury throws the target prone".to_owned());
            }
        }
        report
    }
}

fn s_strength_ml(f: &Fighter) -> i32 {
    f.strength_ml
}

/// One blow to resolve with the Injury Sequence: where it can land and how hard it hits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blow {
    /// Zone Die sides.
    pub zone_die: u32,
    /// Zone Dice rolled (1 + Precision TAs).
    pub zone_dice: u32,
    /// Zone number aimed at.
    pub aim: u32,
    /// Impact die sides.
    pub impact_die: u32,
    /// Impact modifier (weapon and Strength, or projectile and range).
    pub impact_modifier: i32,
    /// Impact from Impact TAs.
    pub impact_bonus: i32,
    /// Aspect.
    pub aspect: Aspect,
    /// Armour Reduction of a projectile.
    pub armour_reduction: i32,
    /// An arrow or bolt that impales on S3 or worse.
    pub impales: bool,
    /// A broadhead arrow.
    pub broadhead: bool,
}

/// Where a blow landed and the injury its impact left ([`Melee::struck`]).
#[derive(Clone, Copy, Debug)]
pub struct Struck {
    /// The location hit.
    pub hit: super::body::Hit,
    /// The Injury Level (0: no injury, or a glancing blow).
    pub il: u8,
    /// A glancing blow off rigid armour.
    pub glancing: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::zone_d100::melee::Advantage;
    use crate::rules::zone_d100::melee::State;
    use crate::rules::zone_d100::melee::tests::{fighter, melee, quilt, test_turn};
    use crate::rules::zone_d100::skill::Defence;

    #[test]
    fn impact_injury_and_shock_examples_s2e_abdomen_cf_shock_incapacitates_then_rerolls() {
        let mut b = fighter(Defence::Ignore);
        b.armour = quilt();
        b.melee_ml = 60;
        let mut a = fighter(Defence::Block);
        a.advantages = [
            Advantage::Setup,
            Advantage::Action,
            Advantage::Impact,
            Advantage::Precision,
        ];
        let m = melee(a, b);
        // The strike itself, with no TA: ZD 5 (ZN5, torso), LD 7 (abdomen), impact 8.
        let mut states = [State::default(); 2];
        let mut dice = ScriptedDice::new([5, 7, 8, 75]);
        let mut log = VecLog::default();
        // d6 ZD aimed at ZN4 reaching ZN5 is the location example; here ZN1 + 5 - 1 = ZN5.
        let report = m.strike(Side::A, &mut states, Chosen::default(), &mut dice, &mut log);
        assert!(dice.finish().is_ok(), "{:?}", log.lines);
        let text = log.lines.join("\n");
        assert!(
            text.contains("abdomen: impact 8 + 4 + 0 TA = 12E, AV 4 = 8"),
            "{text}"
        );
        assert!(text.contains("injury S2E"), "{text}");
        assert!(
            text.contains("Shock roll 75 vs EML65: CF: SHK 8 -> INC"),
            "{text}"
        );
        assert_eq!(report.il, 2);
        // The Shock Reroll at the end of the next turn: 42 against EML45: Stunned.
        let mut dice = ScriptedDice::new([42]);
        states[1].turn = 1;
        m.end_of_turn(
            (Side::B, test_turn(Side::B)),
            &mut states,
            &mut dice,
            &mut log,
        );
        assert_eq!(states[1].shock, ShockState::Stunned);
        // The next turn's Shock roll: 61 against 65: no longer stunned; then the Morale roll
        // the Serious injury called for: Initiative ML60, 29: steady.
        let mut dice = ScriptedDice::new([61, 29]);
        states[1].turn = 2;
        m.end_of_turn(
            (Side::B, test_turn(Side::B)),
            &mut states,
            &mut dice,
            &mut log,
        );
        assert!(dice.finish().is_ok(), "{:?}", log.lines);
        assert_eq!(states[1].shock, ShockState::None);
        assert!(!states[1].routed && !states[1].morale_due);
        assert!(
            log.lines
                .join("\n")
                .contains("Morale roll 29 vs EML60: steady")
        );
    }
}
