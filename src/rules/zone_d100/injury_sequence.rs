//! The INJURY SEQUENCE for one blow, a melee strike or a missile: 1 LOCATION (the Zone and
//! Location Dice, Precision, the thinnest armour preferred), 2 IMPACT (strike impact through
//! the location's armour for the aspect, a projectile's Armour Reduction), 3 INJURY (the injury
//! record, compound injuries, glancing blows, bleeders, amputation), 4 SHOCK (the Shock roll
//! and the state it brings) and the INJURY MISHAP of step 5 (Fumble and Stumble rolls).

use super::body::{Aim, BodySide, Hit, Location, LocationRow, Zone, roll_location};
use super::impairment::zone_slot;
use super::injury::{
    Aspect, Class, Injury, Severity, ShockState, amputation_test, glancing, injury_level, shock,
};
use super::melee::{Arms, Fighter, Melee, Pair, State, StrikeReport, ZoneInjuries};
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

    /// The Injury Sequence for a blow of `striker` (a melee strike or a missile): 1 LOCATION
    /// and 2 IMPACT ([`Melee::struck`]), 3 INJURY (or a glancing blow), 4 SHOCK and the INJURY
    /// MISHAP of step 5.
    pub fn land<D: Dice, L: Log>(
        &self,
        striker: Side,
        states: &mut impl Pair,
        blow: Blow,
        dice: &mut D,
        log: &mut L,
    ) -> StrikeReport {
        let target_side = striker.other();
        let Some(struck) = self.struck(states.place(target_side), blow, dice, log) else {
            return StrikeReport {
                striker,
                missed: true,
                ..StrikeReport::default()
            };
        };
        let at = states.place(target_side);
        let target = Target {
            at,
            fighter: self.fighter(at),
        };
        let state = &mut states[target_side];
        let mut report = StrikeReport {
            striker,
            zone: Some(struck.hit.row.zone),
            ..StrikeReport::default()
        };
        if struck.il == 0 && !struck.glancing {
            log.say(|| "  no injury".to_owned());
            return report;
        }
        let injured = if struck.glancing {
            report.glancing = true;
            glancing_blow(struck.il, log)
        } else {
            let Some(injured) = self.injure(target, state, &struck, &blow, dice, log) else {
                return report;
            };
            report.il = struck.il;
            injured
        };
        if injured.severed_neck {
            state.dead = true;
            state.shock = ShockState::Killed;
            log.say(|| "  the neck is severed: dead".to_owned());
            return report;
        }
        self.shock_roll(target, state, &struck, &injured, dice, log);
        // Injury mishaps (step 5): Serious arm injuries roll to fumble, Serious leg (and pelvis)
        // injuries to stumble; Grievous ones fail automatically.
        if injured.il >= 2 && state.can_act() {
            self.injury_mishap(target, state, &struck, injured.il, dice, log);
        }
        report
    }

    /// Step 3 INJURY of a blow that is not glancing: the injury recorded (3.1 compounding the
    /// location's worst), whether it is a Bleeder (3.3) and the amputation test of a G5 Edge
    /// injury (3.4). None when the record holds no injury to show for it.
    #[inline(always)]
    fn injure<D: Dice, L: Log>(
        &self,
        target: Target<'_>,
        state: &mut State,
        struck: &Struck,
        blow: &Blow,
        dice: &mut D,
        log: &mut L,
    ) -> Option<Injured> {
        let worst = self.record_injury(target, state, struck, blow, dice, log);
        let &injury = state.injuries.get(worst)?;
        let il_now = injury.il;
        let mut injured = Injured {
            injury_shock: if injury.compounded_g5 {
                6
            } else {
                i32::from(injury.il)
            },
            shock_bonus: 0,
            il: il_now,
            index: Some(worst),
            severed_neck: false,
        };
        let row = struck.hit.row;
        let mut bleeder = self
            .rules
            .bleeding
            .bleeds(row.bleeding, il_now, injury.aspect);
        // A location already severed is not severed again when its G5 compounds.
        if il_now == 5 && injury.aspect == Aspect::Edge && !injury.severed {
            let strength_ml = s_strength_ml(target.fighter);
            bleeder |= amputation(state, strength_ml, row, &mut injured, dice, log);
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
                blow.aspect.letter(),
                if bleeder { ", a Bleeder" } else { "" }
            )
        });
        Some(injured)
    }

    /// Step 3 INJURY's record: the blow's injury added to the target's, 3.1 COMPOUND INJURY
    /// (the d10 that raises the location's worst) and the zone sums. Returns the injury the
    /// blow leaves: the one it raised, or its own.
    #[inline(always)]
    fn record_injury<D: Dice, L: Log>(
        &self,
        target: Target<'_>,
        state: &mut State,
        struck: &Struck,
        blow: &Blow,
        dice: &mut D,
        log: &mut L,
    ) -> usize {
        let (hit, il) = (struck.hit, struck.il);
        let recorded = state.injuries.len();
        let index = state.injuries.add(Injury {
            location: hit.row.location,
            side: hit.side,
            aspect: blow.aspect,
            il,
            class: if matches!(blow.aspect, Aspect::Fire | Aspect::Frost) {
                Class::FireFrost
            } else {
                Class::Strike
            },
            bleeder: false,
            impaled: blow.impales && il >= 3,
            projectile: blow.impales,
            broadhead: blow.broadhead,
            severed: false,
            compounded_g5: false,
            order: 0,
            impairs: false,
        });
        let raised = state.injuries.compound(index, dice);
        // The zone sums: the new injury added to them, or all again when it raised another
        // or took the place of one (a full record). A glancing blow records nothing.
        if raised.is_none() && state.injuries.len() > recorded {
            self.count_injury(target.at, state, index);
        } else {
            self.summarise(target.at, state);
        }
        let Some(worst) = raised else {
            return index;
        };
        log.say(|| "  compound injury".to_owned());
        worst
    }

    /// Step 4 SHOCK: Location Shock + Injury Shock + the Shock roll (Shock ML with fatigue and
    /// the blow's modifier, no impairment), the state it brings stacked on the target's (a
    /// rise noted for a coma's HR and calling for the reroll; INC and UNC prone; KIA dead), a
    /// Minor injury impairing at once when the roll failed, and a Serious or Grievous injury's
    /// Morale roll due.
    #[inline(always)]
    fn shock_roll<D: Dice, L: Log>(
        &self,
        target: Target<'_>,
        state: &mut State,
        struck: &Struck,
        injured: &Injured,
        dice: &mut D,
        log: &mut L,
    ) {
        let tf = target.fighter;
        let location_shock = struck.hit.row.shock;
        let sh = shock(
            dice,
            i32::from(location_shock),
            injured.injury_shock,
            tf.shock_ml - tf.fatigue - state.weakness + injured.shock_bonus,
        );
        let before = state.shock;
        state.shock = before.stack(sh.state);
        if state.shock > before {
            // The injury that induced the state (a coma's HR): its Location Shock and Injury
            // Level (a compounded G5 stays level 5).
            state.last_shock = (location_shock, injured.injury_shock.clamp(0, 5) as u8);
        }
        if !sh.test.level.is_success() {
            self.impairs_at_once(target, state, injured.index);
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
        if injured.il >= 2 {
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
    }

    /// Step 5 after a failed Shock roll: "M Associated actions are unhindered if the Shock Roll
    /// in step 4 succeeded ... or immediately if the Shock Roll failed—the injury imparts 5
    /// impairment": injury `index` impairs from now on, a Minor one weighed into its zone.
    #[inline(always)]
    fn impairs_at_once(&self, target: Target<'_>, state: &mut State, index: Option<usize>) {
        if let Some(x) = index.and_then(|i| state.injuries.get_mut(i))
            && !x.impairs
        {
            x.impairs = true;
            if x.severity() == Severity::Minor {
                let slot = zone_slot(x);
                let minor = ZoneInjuries {
                    minor: 1,
                    ..ZoneInjuries::default()
                };
                self.weigh_in(target.at, state, slot, minor);
            }
        }
    }

    /// Step 5 INJURY MISHAP of an injury of level `il` (Serious or Grievous) borne by a target
    /// who can act: the Fumble roll (Dexterity) that drops what the arm holds, the Stumble roll
    /// (Agility) that throws it prone, Impaired tests one level lower while stunned; a Grievous
    /// injury fails them without a roll.
    #[inline(always)]
    fn injury_mishap<D: Dice, L: Log>(
        &self,
        target: Target<'_>,
        state: &mut State,
        struck: &Struck,
        il: u8,
        dice: &mut D,
        log: &mut L,
    ) {
        let tf = target.fighter;
        let zone = struck.hit.row.zone;
        let severe = il >= 4;
        let (fumble, stumble, weapon_arm) = mishap_rolls(tf, &struck.hit, severe);
        // The Fumble roll is a Dexterity test, the Stumble roll an Agility test: Impaired
        // tests (Dexterity: head, arms, torso; Agility: head, torso, legs) with fatigue,
        // one level lower while stunned.
        let stunned = state.shock == ShockState::Stunned;
        let fatigue = tf.fatigue + state.weakness;
        let impaired_roll = |dice: &mut D, ml: i32, impairment: i32, label| {
            let mut t = Test::roll(dice, ml - impairment - fatigue, label);
            if stunned {
                t.level = t.level.lowered();
            }
            t.level < SuccessLevel::Success
        };
        let dexterity = self.impairment_of(target.at, state, Arms::Both, false).0;
        let agility = self.impairment_of(target.at, state, Arms::None, true).0;
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
}

/// Step 3.2 GLANCING BLOW of an injury of level `il` (0): no injury recorded, but Injury
/// Shock 1 and +10 to the Shock roll.
#[inline(always)]
fn glancing_blow<L: Log>(il: u8, log: &mut L) -> Injured {
    log.say(|| {
        "  a glancing blow off rigid armour: Injury Shock 1, +10 to the Shock roll".to_owned()
    });
    Injured {
        injury_shock: 1,
        shock_bonus: 10,
        il,
        index: None,
        severed_neck: false,
    }
}

/// Step 3.4 AMPUTATION of a G5 Edge injury (`injured.index`) in a location `row` with a
/// triangle: the Strength test at `strength_ml`; the location severed (the neck: death), or
/// −20 to the Shock roll. Returns whether it makes the injury a Bleeder.
#[inline(always)]
fn amputation<D: Dice, L: Log>(
    state: &mut State,
    strength_ml: i32,
    row: &LocationRow,
    injured: &mut Injured,
    dice: &mut D,
    log: &mut L,
) -> bool {
    let Some(a) = amputation_test(dice, strength_ml, row.amputation, row.bleeding) else {
        return false;
    };
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
        injured.severed_neck = row.location == Location::Neck;
        if let Some(x) = injured.index.and_then(|i| state.injuries.get_mut(i)) {
            x.severed = true;
        }
    }
    if a.shock_penalty {
        injured.shock_bonus -= 20;
    }
    a.bleeder
}

/// Step 5's rolls for an injury at `hit` (`severe`: Grievous): whether it calls for a Fumble
/// roll (an arm holding the weapon or a shield; a Grievous head), a Stumble roll (a leg; the
/// pelvis or a Grievous torso or head), and whether the arm hit holds the weapon.
#[inline(always)]
fn mishap_rolls(tf: &Fighter, hit: &Hit, severe: bool) -> (bool, bool, bool) {
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
    by_zone[Zone::Torso as usize] = (false, severe | (hit.row.location == Location::Pelvis));
    by_zone[Zone::Leg as usize] = (false, true);
    let (fumble, stumble) = by_zone[hit.row.zone as usize];
    (fumble, stumble, weapon_arm)
}

/// The fighter a blow lands on: its place on the roster and its sheet.
#[derive(Clone, Copy, Debug)]
struct Target<'a> {
    /// The place on the roster.
    at: usize,
    /// The fighter's sheet.
    fighter: &'a Fighter,
}

/// What step 3 INJURY leaves for step 4 SHOCK and step 5: the Injury Shock (4.2), the Shock
/// roll's modifier (4.3), the Injury Level as it now stands and the injury whose Shock roll it
/// is, and a severed neck.
#[derive(Clone, Copy, Debug)]
struct Injured {
    /// Injury Shock: the Injury Level (6 for a compounded G5; 1 for a glancing blow).
    injury_shock: i32,
    /// The Shock roll's modifier: +10 for a glancing blow, −20 after an amputation test's S.
    shock_bonus: i32,
    /// The Injury Level as it now stands (a compounded injury's raised one; 0 when glancing).
    il: u8,
    /// The injury in the record (none for a glancing blow).
    index: Option<usize>,
    /// The amputation test severed the neck: dead before the Shock roll.
    severed_neck: bool,
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
