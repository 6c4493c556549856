//! The melee sequence and the duel: declarations by tactics, the modifiers of the Melee test,
//! opposed tests and victory stars, tactical advantages, the Injury Sequence for every strike,
//! shock states and their rerolls, injury effects and mishaps, morale, and the end of the fight.
//!
//! Pages the text refers to but does not include (Fumble and Stumble rolls, Morale, Weapon
//! Damage, Close) get the defaults recorded in `docs/rules/zone-d100.md`, each a parameter.

use super::body::{Aim, BodySide, Location, Zone, roll_location};
use super::injury::{
    Aspect, BleedingTable, Class, Injuries, Injury, Reroll, Severity, ShockState, amputation_test,
    glancing, injury_level, shock, shock_reroll,
};
use super::skill::{Defence, Mishap, StarTable, Stars, SuccessLevel, Test};
use crate::dice::Dice;
use crate::log::Log;
use crate::stats::Side;

/// A tactical advantage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Advantage {
    /// A bonus action (an attack) right away.
    Action,
    /// Extra impact (the weapon's Impact TA bonus).
    Impact,
    /// An extra Zone Die.
    Precision,
    /// +1 success level to the next Melee or Dodge test within the next round.
    Setup,
}

/// A melee weapon (or shield) in one strike mode.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weapon {
    /// Impact die sides.
    pub impact_die: u32,
    /// Impact modifier.
    pub impact_modifier: i32,
    /// Aspect of the strike mode used.
    pub aspect: Aspect,
    /// Zone Die sides.
    pub zone_die: u32,
    /// Reach.
    pub reach: i32,
    /// Heft.
    pub heft: i32,
    /// A thrusting (T) strike mode.
    pub thrust: bool,
    /// Wielded in two hands (Heft −5).
    pub two_handed: bool,
    /// Impact added per Impact TA.
    pub impact_ta: i32,
}

/// Armour on one location: value by aspect (B, E, P, F) and whether it is rigid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cover {
    /// AV by aspect.
    pub av: [i32; 4],
    /// Rigid (glancing blows).
    pub rigid: bool,
}

/// Number of locations in [`Location`] (for per-location arrays).
pub const LOCATIONS: usize = 21;

/// A compiled fighter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fighter {
    /// Melee ML with the weapon.
    pub melee_ml: i32,
    /// Dodge ML.
    pub dodge_ml: i32,
    /// Shock ML.
    pub shock_ml: i32,
    /// Initiative ML (order of action, and Morale rolls).
    pub initiative_ml: i32,
    /// Strength ML (amputation tests).
    pub strength_ml: i32,
    /// Strength attribute (Heft).
    pub strength: i32,
    /// Strength Impact Modifier.
    pub impact_modifier: i32,
    /// Dexterity ML (Fumble rolls).
    pub dexterity_ml: i32,
    /// Agility ML (Stumble rolls).
    pub agility_ml: i32,
    /// The weapon.
    pub weapon: Weapon,
    /// A shield for blocks, if any.
    pub shield: Option<Weapon>,
    /// Armour by location.
    pub armour: [Cover; LOCATIONS],
    /// The defence the fighter uses.
    pub defence: Defence,
    /// The zone number aimed at.
    pub aim: u32,
    /// Tactical advantages in order of preference.
    pub advantages: [Advantage; 4],
    /// The weapon is held in the right hand (the arm whose injuries impair it).
    pub right_handed: bool,
    /// A missile weapon and the ML it is shot with.
    pub missile: Option<(super::missile::Missile, i32)>,
    /// Tactic: take the Aim action before each shot when the weapon allows it.
    pub aim_shots: bool,
    /// Wields the weapon in the off hand (Heft +5, at least −10; not for shields blocking).
    pub off_hand: bool,
    /// Fatigue penalty to every test.
    pub fatigue: i32,
    /// Tactic: approach a shooter with the Evade action (half the approach; missiles against
    /// it take five times its Dodge index).
    pub evade_missiles: bool,
}

/// A fighter's state in the duel.
#[derive(Clone, Copy, Debug, Default)]
pub struct State {
    /// Injuries received.
    pub injuries: Injuries,
    /// Current shock state.
    pub shock: ShockState,
    /// A Shock Reroll (INC) or a Shock roll to shake off STN is due at the end of one of this
    /// fighter's turns.
    pub reroll_due: bool,
    /// The turn of the duel now (counted by the duel loop, both fighters alike).
    pub turn: u32,
    /// The turn in which the shock state last rose: "at the end of the target's *next* turn"
    /// is the end of the first of its turns that began after it.
    pub shock_turn: u32,
    /// In Extended Shock (a failed Shock Reroll): the state stays for the duel.
    pub extended_shock: Option<u8>,
    /// Lapsed into a coma.
    pub coma: bool,
    /// Prone (a Stumble, a Grievous leg injury); stands up instead of attacking.
    pub prone: bool,
    /// The weapon was dropped (a Fumble): recovers it instead of attacking.
    pub disarmed: bool,
    /// Shield broken.
    pub shield_broken: bool,
    /// A Setup TA to spend on the next Melee or Dodge test.
    pub setup: bool,
    /// The last turn of "the next round", after which an unspent Setup TA is gone.
    pub setup_until: u32,
    /// Morale broke: out of the fight.
    pub routed: bool,
    /// Dead.
    pub dead: bool,
    /// A Serious or Grievous injury awaits a Morale roll (made once not stunned).
    pub morale_due: bool,
    /// Injuries summed by zone (head, torso, left arm, right arm, legs): Minor injuries,
    /// Serious injuries, and whether any is Grievous. Kept in step with `injuries` by
    /// [`State::summarise`] so a test's impairment costs no walk over the injuries.
    pub by_zone: [ZoneInjuries; 5],
    /// Location Shock and Injury Level of the injury whose Shock roll last raised the shock
    /// state (a coma's HR).
    pub last_shock: (u8, u8),
    /// Bleeders received.
    pub bleeders: u32,
    /// Locations severed.
    pub amputations: u32,
}

/// The injuries of one zone, summed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ZoneInjuries {
    /// Minor injuries.
    pub minor: i32,
    /// Serious injuries.
    pub serious: i32,
    /// Any Grievous injury.
    pub grievous: bool,
}

const HEAD: usize = 0;
const TORSO: usize = 1;
const LEFT_ARM: usize = 2;
const RIGHT_ARM: usize = 3;
const LEGS: usize = 4;

/// The slot of [`State::by_zone`] an injury counts in.
fn zone_slot(injury: &Injury) -> usize {
    match (zone_of_location(injury.location), injury.side) {
        (Zone::Head, _) => HEAD,
        (Zone::Torso, _) => TORSO,
        (Zone::Arm, BodySide::Left) => LEFT_ARM,
        (Zone::Arm, _) => RIGHT_ARM,
        (Zone::Leg, _) => LEGS,
    }
}

impl State {
    /// Recomputes [`State::by_zone`] from the injuries (after an injury or a compound).
    pub fn summarise(&mut self) {
        let mut by_zone = [ZoneInjuries::default(); 5];
        for injury in self.injuries.iter() {
            let z = zone_slot(injury);
            match injury.severity() {
                Severity::Minor => by_zone[z].minor += i32::from(injury.impairs),
                Severity::Serious => by_zone[z].serious += 1,
                Severity::Grievous => by_zone[z].grievous = true,
            }
        }
        self.by_zone = by_zone;
    }

    /// Able to act (not INC, UNC, KIA, dead or routed).
    pub fn can_act(&self) -> bool {
        !self.dead && !self.routed && self.shock < ShockState::Incapacitated
    }

    /// A Setup TA: "+1 level to the next Melee or Dodge test within the next round", so it
    /// lasts to the end of the round after this turn's.
    pub fn take_setup(&mut self) {
        self.setup = true;
        self.setup_until = 2 * (self.turn.div_ceil(2) + 1);
    }

    /// Helpless for the rest of the fight: UNC (its Shock Reroll comes after ten minutes), or
    /// INC in Extended Shock (the state stays for hours).
    pub fn helpless(&self) -> bool {
        self.shock == ShockState::Unconscious
            || (self.shock == ShockState::Incapacitated && self.extended_shock.is_some())
    }
}

/// The arms a test uses: none (Dodge), the weapon arm, or both (a two-handed weapon, a shield
/// block, a bow).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arms {
    /// No arm.
    None,
    /// The weapon arm.
    Weapon,
    /// Both arms.
    Both,
}

/// Settings of the melee sequence with the defaults for the missing pages.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeleeRules {
    /// The victory-star table.
    pub stars: StarTable,
    /// The bleeding table.
    pub bleeding: BleedingTable,
    /// Penalty for aiming at a non-default zone number.
    pub aim_penalty: i32,
    /// Penalty per point of Heft above Strength.
    pub heft_penalty: i32,
    /// Penalty while prone.
    pub prone_penalty: i32,
    /// Reach penalty / Thrust bonus per point of difference.
    pub reach_step: i32,
    /// Impairment of a Minor injury once it impairs.
    pub minor_impairment: i32,
    /// Impairment of a Serious injury.
    pub serious_impairment: i32,
    /// Shock Reroll penalty.
    pub reroll_penalty: i32,
    /// Chance in 100 that a weapon or shield blocking a tied success breaks (Weapon Damage).
    pub weapon_damage_chance: u32,
    /// Use the face option.
    pub face_option: bool,
    /// Morale rolls after Serious and Grievous injuries.
    pub morale: bool,
    /// The victor strikes a helpless foe (UNC, or INC in Extended Shock) until it is dead.
    pub strike_helpless: bool,
}

impl Default for MeleeRules {
    fn default() -> Self {
        MeleeRules {
            stars: StarTable::default(),
            bleeding: BleedingTable::default(),
            aim_penalty: 10,
            heft_penalty: 5,
            prone_penalty: 20,
            reach_step: 5,
            minor_impairment: 5,
            serious_impairment: 10,
            reroll_penalty: 20,
            weapon_damage_chance: 5,
            face_option: true,
            morale: true,
            strike_helpless: false,
        }
    }
}

/// What a strike did, for tallies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StrikeReport {
    /// The Zone Die missed the table.
    pub missed: bool,
    /// Injury level inflicted (0: none or glancing).
    pub il: u8,
    /// Zone struck.
    pub zone: Option<Zone>,
    /// A glancing blow.
    pub glancing: bool,
}

/// The melee model of two fighters.
#[derive(Clone, Debug)]
pub struct Melee {
    /// The fighters.
    pub fighters: [Fighter; 2],
    /// Their names.
    pub names: [String; 2],
    /// The rules.
    pub rules: MeleeRules,
}

fn zone_order(zone: Zone) -> u32 {
    match zone {
        Zone::Head => 0,
        Zone::Torso => 1,
        Zone::Arm => 2,
        Zone::Leg => 3,
    }
}

impl Melee {
    /// The impairment of a test that uses these zones (head, torso and legs always for Melee
    /// and Dodge; the weapon arm for Melee and Block).
    pub fn impairment(&self, side: Side, state: &State, arm: bool, legs: bool) -> (i32, bool) {
        self.impairment_of(
            side,
            state,
            if arm { Arms::Weapon } else { Arms::None },
            legs,
        )
    }

    /// The impairment of a test that uses the head, torso, these arms and (if `legs`) the legs,
    /// and whether a Grievous injury prohibits it.
    pub fn impairment_of(&self, side: Side, state: &State, arms: Arms, legs: bool) -> (i32, bool) {
        let f = &self.fighters[side.index()];
        let (weapon_arm, other_arm) = if f.right_handed {
            (RIGHT_ARM, LEFT_ARM)
        } else {
            (LEFT_ARM, RIGHT_ARM)
        };
        let minor = self.rules.minor_impairment;
        let mut total = 0;
        let mut prohibited = false;
        for (z, counts) in [
            (HEAD, true),
            (TORSO, true),
            (weapon_arm, arms != Arms::None),
            (other_arm, arms == Arms::Both),
            (LEGS, legs),
        ] {
            if counts {
                let zone = &state.by_zone[z];
                total += zone.minor * minor + zone.serious * self.rules.serious_impairment;
                prohibited |= zone.grievous;
            }
        }
        (total, prohibited)
    }

    /// A test a Grievous injury prohibits: "automatically achieves a CF". Its mishap is the
    /// prohibiting zone's: a Fumble for the head or an arm (the weapon slips), a Stumble for
    /// the torso or legs. The roll stands for the CF's ones digit (100: Fumble, 95: Stumble).
    pub fn automatic_cf(&self, side: Side, state: &State, arms: Arms, eml: i32) -> Test {
        let f = &self.fighters[side.index()];
        let (weapon_arm, other_arm) = if f.right_handed {
            (RIGHT_ARM, LEFT_ARM)
        } else {
            (LEFT_ARM, RIGHT_ARM)
        };
        let fumbles = state.by_zone[HEAD].grievous
            || (arms != Arms::None && state.by_zone[weapon_arm].grievous)
            || (arms == Arms::Both && state.by_zone[other_arm].grievous);
        Test {
            roll: if fumbles { 100 } else { 95 },
            eml,
            level: SuccessLevel::CriticalFailure,
        }
    }

    /// The weapon arm is Grievously injured: "the location is rendered immediately unusable",
    /// so a dropped weapon stays on the ground.
    pub fn weapon_arm_unusable(&self, side: Side, state: &State) -> bool {
        let f = &self.fighters[side.index()];
        let arm = if f.right_handed { RIGHT_ARM } else { LEFT_ARM };
        state.by_zone[arm].grievous
    }

    /// A Grievous leg: "the victim falls prone", and standing or moving is an action of an
    /// unusable zone (an automatic CF): the fighter stays down and does not close.
    pub fn legs_unusable(&self, state: &State) -> bool {
        state.by_zone[LEGS].grievous
    }

    /// The Heft penalty of wielding `w`: −5 a point of Heft above Strength; two-handed use
    /// lowers Heft by 5, off-hand use raises it by 5 (at least −10), except a shield blocking.
    pub fn heft_penalty(&self, f: &Fighter, w: &Weapon, shield_block: bool) -> i32 {
        let off_hand = f.off_hand && !shield_block;
        let heft = w.heft - if w.two_handed { 5 } else { 0 } + if off_hand { 5 } else { 0 };
        let penalty = self.rules.heft_penalty * (heft - f.strength).max(0);
        if off_hand { penalty.max(10) } else { penalty }
    }

    /// The attacker's EML against a defender wielding `against` (reach and thrust), with
    /// aim, heft, prone and impairment.
    fn strike_eml(
        &self,
        side: Side,
        states: &[State; 2],
        against: Option<&Weapon>,
        close: bool,
    ) -> (i32, bool) {
        let state = &states[side.index()];
        let f = &self.fighters[side.index()];
        let w = &f.weapon;
        let mut eml = f.melee_ml;
        // "Striking a prone target while standing allows for any default ZN with no aim
        // penalty."
        let prone_target = states[side.other().index()].prone && !state.prone;
        if f.aim != 1 && !prone_target {
            eml -= self.rules.aim_penalty;
        }
        eml -= self.heft_penalty(f, w, false) + f.fatigue;
        if state.prone {
            eml -= self.rules.prone_penalty;
        }
        if let Some(o) = against {
            let step = self.rules.reach_step;
            let shorter = if close {
                w.reach > o.reach
            } else {
                w.reach < o.reach
            };
            if shorter {
                eml -= step * (w.reach - o.reach).abs();
            }
            let thrust_wins = if close {
                w.reach < o.reach
            } else {
                w.reach > o.reach
            };
            if w.thrust && thrust_wins {
                eml += step * (w.reach - o.reach).abs();
            }
        }
        let arms = if w.two_handed {
            Arms::Both
        } else {
            Arms::Weapon
        };
        let (impairment, prohibited) = self.impairment_of(side, state, arms, true);
        (eml - impairment, prohibited)
    }

    /// The defender's test EML for its defence (not Ignore).
    fn defence_eml(
        &self,
        side: Side,
        states: &[State; 2],
        defence: Defence,
        attacker_weapon: &Weapon,
        close: bool,
    ) -> (i32, bool) {
        let state = &states[side.index()];
        let f = &self.fighters[side.index()];
        match defence {
            Defence::Dodge => {
                let (impairment, prohibited) = self.impairment(side, state, false, true);
                let impairment = impairment + f.fatigue;
                (
                    f.dodge_ml
                        - impairment
                        - if state.prone {
                            self.rules.prone_penalty
                        } else {
                            0
                        },
                    prohibited,
                )
            }
            Defence::Block => {
                let blocker = match f.shield {
                    Some(s) if !state.shield_broken => s,
                    _ => f.weapon,
                };
                let shield = f.shield.is_some() && !state.shield_broken;
                let arms = if shield || blocker.two_handed {
                    Arms::Both
                } else {
                    Arms::Weapon
                };
                let (impairment, prohibited) = self.impairment_of(side, state, arms, true);
                let eml = f.melee_ml
                    - self.heft_penalty(f, &blocker, shield)
                    - f.fatigue
                    - impairment
                    - if state.prone {
                        self.rules.prone_penalty
                    } else {
                        0
                    };
                (eml, prohibited)
            }
            Defence::Counterstrike => self.strike_eml(side, states, Some(attacker_weapon), close),
            Defence::Ignore => (0, false),
        }
    }

    /// The opposed test that opens an exchange: the defence the other fighter takes (Ignore
    /// when it cannot act; Dodge when disarmed with nothing to Block with), both d100 tests
    /// with their modifiers (Setup, stun, a helpless defender) and the victory stars.
    pub fn contest<D: Dice, L: Log>(
        &self,
        attacker: Side,
        states: &mut [State; 2],
        close: bool,
        dice: &mut D,
        log: &mut L,
    ) -> Contest {
        let defender = attacker.other();
        let a = &self.fighters[attacker.index()];
        let d = &self.fighters[defender.index()];
        let d_weapon = d.weapon;
        // The defence: unaware or helpless fighters Ignore.
        let mut defence = if states[defender.index()].can_act() {
            d.defence
        } else {
            Defence::Ignore
        };
        // Without a weapon in hand there is nothing to Block (but a shield) or Counterstrike
        // with: the defender Dodges.
        let unarmed = states[defender.index()].disarmed;
        let shield = d.shield.is_some() && !states[defender.index()].shield_broken;
        if unarmed && (defence == Defence::Counterstrike || (defence == Defence::Block && !shield))
        {
            defence = Defence::Dodge;
        }
        // "Neither Reach Penalty nor Thrust Bonus apply to the attacker's test" against Ignore;
        // a disarmed defender has no readied weapon to threaten with.
        let against = (defence != Defence::Ignore && !unarmed).then_some(&d_weapon);
        let (a_eml, a_prohibited) = self.strike_eml(attacker, states, against, close);
        let a_arms = if a.weapon.two_handed {
            Arms::Both
        } else {
            Arms::Weapon
        };
        let mut a_test = if a_prohibited {
            self.automatic_cf(attacker, &states[attacker.index()], a_arms, a_eml)
        } else {
            // Against a Dodge the roll itself breaks tied successes; otherwise only its level
            // and mishap digit are read.
            if defence == Defence::Dodge {
                Test::roll(dice, a_eml, "d100 (attack: Melee)")
            } else {
                Test::roll_level(dice, a_eml, "d100 (attack: Melee)")
            }
        };
        let a_state = &states[attacker.index()];
        if a_state.setup && a_state.turn <= a_state.setup_until && !a_prohibited {
            states[attacker.index()].setup = false;
            a_test.level = a_test.level.raised();
        }
        if states[attacker.index()].shock == ShockState::Stunned {
            a_test.level = a_test.level.lowered();
        }
        let d_state = &states[defender.index()];
        if d_state.shock == ShockState::Unconscious || d_state.dead {
            // Helpless: a CS Ignore result.
            a_test.level = SuccessLevel::CriticalSuccess.max(a_test.level);
        }
        let d_test = if defence == Defence::Ignore {
            None
        } else {
            let (eml, prohibited) = self.defence_eml(defender, states, defence, &a.weapon, close);
            let mut t = if prohibited {
                // A defence with a Grievously injured zone is an automatic CF.
                let arms = match defence {
                    Defence::Dodge => Arms::None,
                    Defence::Block if d.shield.is_some() || d.weapon.two_handed => Arms::Both,
                    Defence::Counterstrike if d.weapon.two_handed => Arms::Both,
                    _ => Arms::Weapon,
                };
                self.automatic_cf(defender, &states[defender.index()], arms, eml)
            } else {
                match defence {
                    Defence::Block => Test::roll_level(dice, eml, "d100 (defence: Block)"),
                    Defence::Dodge => {
                        Test::roll_against(dice, eml, "d100 (defence: Dodge)", a_test.roll)
                    }
                    _ => Test::roll_level(dice, eml, "d100 (defence: Counterstrike)"),
                }
            };
            let d_state = &states[defender.index()];
            if d_state.setup
                && !prohibited
                && d_state.turn <= d_state.setup_until
                && matches!(
                    defence,
                    Defence::Dodge | Defence::Counterstrike | Defence::Block
                )
            {
                states[defender.index()].setup = false;
                t.level = t.level.raised();
            }
            if states[defender.index()].shock == ShockState::Stunned {
                t.level = t.level.lowered();
            }
            Some(t)
        };
        let outcome = self.rules.stars.outcome(defence, &a_test, d_test.as_ref());
        log.say(|| {
            let d_text = d_test.map_or("ignores".to_owned(), |t| {
                format!(
                    "{defence:?} {} vs EML{}: {}",
                    t.roll,
                    t.eml,
                    t.level.abbreviation()
                )
            });
            format!(
                "{} attacks {}: {} vs EML{}: {}; {} {d_text}: {outcome}",
                self.names[attacker.index()],
                self.names[defender.index()],
                a_test.roll,
                a_test.eml,
                a_test.level.abbreviation(),
                self.names[defender.index()]
            )
        });
        Contest {
            defence,
            attacker: a_test,
            defender: d_test,
            stars: outcome,
        }
    }

    /// One exchange: `attacker` strikes at the other fighter, who defends by its tactic.
    /// Every strike that lands (the attack, a counterstrike, the strikes of bonus actions) is
    /// handed to `on_strike`. After the injury: 1) mishaps, 2) Free Press Rolls (not
    /// simulated), 3) the Bonus Action TA.
    pub fn exchange<D: Dice, L: Log, F: FnMut(&StrikeReport)>(
        &self,
        attacker: Side,
        states: &mut [State; 2],
        close: bool,
        dice: &mut D,
        log: &mut L,
        on_strike: &mut F,
    ) {
        let defender = attacker.other();
        let Contest {
            defence,
            attacker: a_test,
            defender: d_test,
            stars: outcome,
        } = self.contest(attacker, states, close, dice, log);

        // Mishaps: the attacker's CF (Fumble on 0, Stumble on 5); the defender's (a Dodge only
        // stumbles). They come after the injury and before a bonus action.
        let mishaps = |states: &mut [State; 2], log: &mut L| {
            if let Some(m) = a_test.mishap() {
                self.mishap(attacker, m, states, log);
            }
            if let Some(m) = d_test.and_then(|t| t.mishap()) {
                let m = if defence == Defence::Dodge {
                    Mishap::Stumble
                } else {
                    m
                };
                self.mishap(defender, m, states, log);
            }
        };
        match self.victory(attacker, defence, outcome) {
            Victory::Strike {
                counter: false,
                tas,
                ..
            } => {
                on_strike(&self.strike(attacker, states, tas, dice, log));
                if tas.setup > 0 {
                    states[attacker.index()].take_setup();
                }
                mishaps(states, log);
                let target = &states[defender.index()];
                if tas.action > 0
                    && states[attacker.index()].can_act()
                    && !target.dead
                    && (self.rules.strike_helpless || !target.helpless())
                {
                    log.say(|| {
                        format!(
                            "  {} takes a bonus action: another attack",
                            self.names[attacker.index()]
                        )
                    });
                    self.exchange(attacker, states, close, dice, log, on_strike);
                }
            }
            Victory::Strike { tas, .. } => {
                on_strike(&self.strike(defender, states, tas, dice, log));
                mishaps(states, log);
            }
            Victory::Defended { tas } => {
                if tas.setup > 0 {
                    states[defender.index()].take_setup();
                }
                if defence == Defence::Block && d_test.is_some_and(|t| t.level == a_test.level) {
                    self.weapon_damage(defender, states, dice, log);
                }
                mishaps(states, log);
                if tas.action > 0
                    && states[defender.index()].can_act()
                    && !states[defender.index()].disarmed
                {
                    log.say(|| {
                        format!(
                            "  {} takes a bonus action: an attack",
                            self.names[defender.index()]
                        )
                    });
                    self.exchange(defender, states, close, dice, log, on_strike);
                }
            }
            Victory::NoStrike => mishaps(states, log),
        }
    }

    /// What the winner of an opposed test gets: the attacker's strike with its TAs (Action,
    /// Impact, Precision or Setup by preference; against Ignore only Impact and Precision), the
    /// defender's Counterstrike with Impact or Precision TAs, a Block or Dodge that won with
    /// Action or Setup TAs, or nothing. One TA fewer than the stars.
    pub fn victory(&self, attacker: Side, defence: Defence, stars: Stars) -> Victory {
        let defender = attacker.other();
        match stars {
            Stars::Attacker(n) => Victory::Strike {
                striker: attacker,
                counter: false,
                tas: self.choose(
                    attacker,
                    n - 1,
                    &[
                        Advantage::Action,
                        Advantage::Impact,
                        Advantage::Precision,
                        Advantage::Setup,
                    ],
                    defence == Defence::Ignore,
                ),
            },
            Stars::Defender(n) if defence == Defence::Counterstrike => Victory::Strike {
                striker: defender,
                counter: true,
                tas: self.choose(
                    defender,
                    n - 1,
                    &[Advantage::Impact, Advantage::Precision],
                    false,
                ),
            },
            Stars::Defender(n) => Victory::Defended {
                tas: self.choose(
                    defender,
                    n - 1,
                    &[Advantage::Action, Advantage::Setup],
                    false,
                ),
            },
            Stars::NoStrike => Victory::NoStrike,
        }
    }

    /// The TAs to take: the fighter's preferences among those the result allows.
    pub fn choose(&self, side: Side, count: u32, allowed: &[Advantage], ignore: bool) -> Chosen {
        let mut chosen = Chosen::default();
        let prefs = self.fighters[side.index()].advantages;
        let allowed_here = |a: &Advantage| {
            allowed.contains(a)
                && (!ignore || matches!(a, Advantage::Impact | Advantage::Precision))
        };
        // The allowed preferences in order, found once.
        let mut order = [Advantage::Action; 4];
        let mut allowed_count = 0;
        for a in prefs.iter().filter(|a| allowed_here(a)) {
            order[allowed_count] = *a;
            allowed_count += 1;
        }
        if allowed_count == 0 {
            return chosen;
        }
        for i in 0..count as usize {
            // Take each allowed preference once in order, then repeat the first.
            let pick = if i < allowed_count {
                order[i]
            } else {
                order[0]
            };
            match pick {
                Advantage::Action => chosen.action += 1,
                Advantage::Impact => chosen.impact += 1,
                Advantage::Precision => chosen.precision += 1,
                Advantage::Setup => chosen.setup += 1,
            }
        }
        chosen
    }

    /// A Fumble drops the weapon; a Stumble throws the fighter prone.
    pub fn mishap<L: Log>(&self, side: Side, mishap: Mishap, states: &mut [State; 2], log: &mut L) {
        let s = &mut states[side.index()];
        match mishap {
            Mishap::Fumble => s.disarmed = true,
            Mishap::Stumble => s.prone = true,
        }
        log.say(|| {
            format!(
                "  {} {}",
                self.names[side.index()],
                match mishap {
                    Mishap::Fumble => "fumbles: drops the weapon",
                    Mishap::Stumble => "stumbles: falls prone",
                }
            )
        });
    }

    fn weapon_damage<D: Dice, L: Log>(
        &self,
        side: Side,
        states: &mut [State; 2],
        dice: &mut D,
        log: &mut L,
    ) {
        let roll = dice.d(100, "d100 (Weapon Damage)");
        if roll <= self.rules.weapon_damage_chance {
            if self.fighters[side.index()].shield.is_some() {
                states[side.index()].shield_broken = true;
            } else {
                states[side.index()].disarmed = true;
            }
            log.say(|| {
                format!(
                    "  the block breaks {}'s {}",
                    self.names[side.index()],
                    if self.fighters[side.index()].shield.is_some() {
                        "shield"
                    } else {
                        "weapon"
                    }
                )
            });
        }
    }

    /// The Injury Sequence for a strike by `striker` with its chosen TAs.
    pub fn strike<D: Dice, L: Log>(
        &self,
        striker: Side,
        states: &mut [State; 2],
        tas: Chosen,
        dice: &mut D,
        log: &mut L,
    ) -> StrikeReport {
        let blow = self.blow(striker, tas);
        self.land(striker, states, blow, dice, log)
    }

    /// The blow of a melee strike by `striker` with its chosen TAs: a Zone Die more for each
    /// Precision TA, the weapon's Impact TA for each Impact TA.
    pub fn blow(&self, striker: Side, tas: Chosen) -> Blow {
        let s = &self.fighters[striker.index()];
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

    /// Steps 1 to 3 of the Injury Sequence for a blow of `striker`: the location it hits (none
    /// when the Zone Die passes the body table) and the injury its impact leaves through the
    /// armour there. [`Melee::land`] goes on from here; exact tables stop here.
    pub fn struck<D: Dice, L: Log>(
        &self,
        striker: Side,
        blow: Blow,
        dice: &mut D,
        log: &mut L,
    ) -> Option<Struck> {
        let target = striker.other();
        let w = blow;
        let aim = Aim {
            zone_die: blow.zone_die,
            zn: blow.aim,
            zone_dice: blow.zone_dice,
            face_option: self.rules.face_option,
        };
        let tf = &self.fighters[target.index()];
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
        states: &mut [State; 2],
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
        }) = self.struck(striker, blow, dice, log)
        else {
            return StrikeReport {
                missed: true,
                ..StrikeReport::default()
            };
        };
        let tf = &self.fighters[target.index()];
        let state = &mut states[target.index()];
        let location = hit.row.location;
        let mut report = StrikeReport {
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
        state.summarise();
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
                state.by_zone[slot].minor += 1;
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
            let (fumble, stumble) = match zone {
                Zone::Head => (severe, severe),
                Zone::Arm => (weapon_arm || tf.shield.is_some(), false),
                Zone::Torso => (false, severe || location == Location::Pelvis),
                Zone::Leg => (false, true),
            };
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
            let dexterity = self.impairment_of(target, state, Arms::Both, false).0;
            let agility = self.impairment_of(target, state, Arms::None, true).0;
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

    /// The end of a fighter's turn: shock rerolls, standing up, recovering a weapon, morale.
    pub fn end_of_turn<D: Dice, L: Log>(
        &self,
        side: Side,
        states: &mut [State; 2],
        dice: &mut D,
        log: &mut L,
    ) {
        let f = &self.fighters[side.index()];
        let s = &mut states[side.index()];
        if s.dead || s.routed {
            return;
        }
        // "at the end of the target's next turn": not the turn in which the state came.
        let due = s.reroll_due && s.shock_turn < s.turn;
        match s.shock {
            // INC rerolls at the end of the next turn; UNC only after ten minutes, when the
            // duel is long over: its reroll belongs to the healing timeline.
            ShockState::Incapacitated if due && s.extended_shock.is_none() => {
                let (t, r) = shock_reroll(
                    dice,
                    f.shock_ml - f.fatigue,
                    self.rules.reroll_penalty,
                    s.shock,
                );
                match r {
                    Reroll::Extended(e) => {
                        s.extended_shock = Some(e.hr);
                        s.coma |= e.coma;
                    }
                    Reroll::Stunned => s.shock = ShockState::Stunned,
                    Reroll::Recovered => s.shock = ShockState::None,
                }
                log.say(|| {
                    format!(
                        "  {} Shock Reroll {} vs EML{}: {}: {}",
                        self.names[side.index()],
                        t.roll,
                        t.eml,
                        t.level.abbreviation(),
                        s.shock.abbreviation()
                    )
                });
            }
            ShockState::Stunned if due => {
                let t = Test::roll(
                    dice,
                    f.shock_ml - f.fatigue,
                    "d100 (Shock roll to shake off STN)",
                );
                if t.level.is_success() {
                    s.shock = ShockState::None;
                    s.reroll_due = false;
                }
                log.say(|| {
                    format!(
                        "  {} Shock roll {} vs EML{}: {}",
                        self.names[side.index()],
                        t.roll,
                        t.eml,
                        if t.level.is_success() {
                            "no longer stunned"
                        } else {
                            "still stunned"
                        }
                    )
                });
            }
            _ => {}
        }
        if self.rules.morale && s.morale_due && s.shock == ShockState::None {
            s.morale_due = false;
            let t = Test::roll(
                dice,
                f.initiative_ml - f.fatigue,
                "d100 (Morale roll: Initiative)",
            );
            if !t.level.is_success() {
                s.routed = true;
            }
            log.say(|| {
                format!(
                    "  {} Morale roll {} vs EML{}: {}",
                    self.names[side.index()],
                    t.roll,
                    t.eml,
                    if s.routed {
                        "breaks and quits the fight"
                    } else {
                        "steady"
                    }
                )
            });
        }
    }
}

fn s_strength_ml(f: &Fighter) -> i32 {
    f.strength_ml
}

/// The zone of a location.
pub fn zone_of_location(location: Location) -> Zone {
    use Location::*;
    match location {
        Skull | Face | Neck | Eye | Nose | Cheek | Ear | Mouth | Jaw => Zone::Head,
        Shoulder | UpperArm | Elbow | Forearm | Hand => Zone::Arm,
        Thorax | Abdomen | Pelvis => Zone::Torso,
        Thigh | Knee | Calf | Foot => Zone::Leg,
    }
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

/// What the winner of an opposed test gets ([`Melee::victory`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Victory {
    /// A strike: the attacker's, or the defender's Counterstrike (`counter`), with its TAs.
    Strike {
        /// Who strikes.
        striker: Side,
        /// The defender strikes back.
        counter: bool,
        /// The TAs taken.
        tas: Chosen,
    },
    /// A Block or Dodge won: no strike, the defender's TAs.
    Defended {
        /// The TAs taken (Action, Setup).
        tas: Chosen,
    },
    /// Both failed: no strike.
    NoStrike,
}

/// The opposed test of an exchange ([`Melee::contest`]).
#[derive(Clone, Copy, Debug)]
pub struct Contest {
    /// The defence taken.
    pub defence: Defence,
    /// The attacker's test.
    pub attacker: Test,
    /// The defender's test (none against Ignore).
    pub defender: Option<Test>,
    /// Who won, by how many stars.
    pub stars: Stars,
}

/// The TAs a victory buys.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chosen {
    /// Bonus actions.
    pub action: u32,
    /// Impact TAs.
    pub impact: u32,
    /// Precision TAs.
    pub precision: u32,
    /// Setup TAs.
    pub setup: u32,
}

#[cfg(test)]
#[path = "combat_ledger.rs"]
mod ledger;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;

    pub(super) const BROADSWORD: Weapon = Weapon {
        impact_die: 10,
        impact_modifier: 3,
        aspect: Aspect::Edge,
        zone_die: 6,
        reach: 4,
        heft: 6,
        thrust: false,
        two_handed: false,
        impact_ta: 5,
    };

    pub(super) fn fighter(defence: Defence) -> Fighter {
        Fighter {
            melee_ml: 60,
            dodge_ml: 60,
            shock_ml: 65,
            initiative_ml: 60,
            strength_ml: 60,
            strength: 12,
            impact_modifier: 1,
            dexterity_ml: 60,
            agility_ml: 60,
            weapon: BROADSWORD,
            shield: None,
            armour: [Cover::default(); LOCATIONS],
            defence,
            aim: 1,
            advantages: [
                Advantage::Impact,
                Advantage::Precision,
                Advantage::Setup,
                Advantage::Action,
            ],
            right_handed: true,
            missile: None,
            aim_shots: false,
            off_hand: false,
            fatigue: 0,
            evade_missiles: false,
        }
    }

    pub(super) fn quilt() -> [Cover; LOCATIONS] {
        let mut armour = [Cover::default(); LOCATIONS];
        for l in [Location::Thorax, Location::Abdomen, Location::Pelvis] {
            armour[l as usize] = Cover {
                av: [5, 4, 3, 2],
                rigid: false,
            };
        }
        armour
    }

    pub(super) fn melee(a: Fighter, b: Fighter) -> Melee {
        Melee {
            fighters: [a, b],
            names: ["attacker".into(), "defender".into()],
            rules: MeleeRules::default(),
        }
    }

    fn run(m: &Melee, dice: &[u32]) -> ([State; 2], Vec<String>) {
        let mut states = [State::default(); 2];
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        m.exchange(
            Side::A,
            &mut states,
            false,
            &mut scripted,
            &mut log,
            &mut |_| {},
        );
        assert!(
            scripted.finish().is_ok(),
            "{:?}\n{}",
            scripted.error(),
            log.lines.join("\n")
        );
        assert_eq!(
            scripted.used(),
            dice.len(),
            "dice left over:\n{}",
            log.lines.join("\n")
        );
        (states, log.lines)
    }

    #[test]
    fn block_example_cs_against_f_is_two_stars_with_an_impact_ta_of_5e() {
        let mut b = fighter(Defence::Block);
        b.armour = quilt();
        let m = melee(fighter(Defence::Block), b);
        // 35 (CS) vs Block 71 (F): two stars, one Impact TA. ZD 5 (torso), LD 7 (abdomen),
        // impact 8: 8 + 3 + 1 + 5 = 17E, AV4: 13: S3E. Shock 4 + 3 + S (48) = 7: STN.
        let (states, log) = run(&m, &[35, 71, 5, 7, 8, 48]);
        let text = log.join("\n");
        assert!(text.contains("the attacker wins, 2 stars"), "{text}");
        assert!(
            text.contains("impact 8 + 4 + 5 TA = 17E, AV 4 = 13"),
            "{text}"
        );
        assert!(text.contains("injury S3E"), "{text}");
        assert_eq!(states[1].shock, ShockState::Stunned);
    }

    #[test]
    fn dodge_example_tied_successes_go_to_the_higher_roll() {
        let m = melee(fighter(Defence::Block), fighter(Defence::Dodge));
        let (states, log) = run(&m, &[36, 51]);
        assert!(log[0].contains("the defender wins, 1 star"), "{log:?}");
        assert!(states[1].injuries.is_empty());
    }

    #[test]
    fn counterstrike_example_the_attacker_wins_tied_successes_with_base_impact() {
        let m = melee(fighter(Defence::Block), fighter(Defence::Counterstrike));
        // 36 vs 51, both S: attacker one star, no TA: ZD 1 (head), LD 2 (skull), impact 4:
        // 4 + 3 + 1 = 8E: S2E. Shock 5 + 2 + S = 7: STN.
        let (states, log) = run(&m, &[36, 51, 1, 2, 4, 40]);
        assert!(log[0].contains("the attacker wins, 1 star"), "{log:?}");
        assert!(
            log.join("\n").contains("impact 4 + 4 + 0 TA = 8E"),
            "{log:?}"
        );
        assert_eq!(
            states[1].injuries.iter().next().map(|i| (i.location, i.il)),
            Some((Location::Skull, 2))
        );
    }

    #[test]
    fn ignore_example_s_is_three_stars_a_precision_and_an_impact_ta() {
        let mut a = fighter(Defence::Block);
        a.advantages = [
            Advantage::Precision,
            Advantage::Impact,
            Advantage::Setup,
            Advantage::Action,
        ];
        let m = melee(a, fighter(Defence::Ignore));
        // 36 (S) vs Ignore: three stars: precision (a second d6 ZD) and impact (+5E).
        // ZD 6 (torso) and 1 (head): the head is preferred. LD 3: skull. Impact 5: 5+3+1+5 = 14E:
        // S3E. Shock 5 + 3 + S = 8: INC.
        let (states, log) = run(&m, &[36, 6, 1, 3, 5, 41]);
        let text = log.join("\n");
        assert!(text.contains("the attacker wins, 3 stars"), "{text}");
        assert!(
            text.contains("hits ZN1 skull: impact 5 + 4 + 5 TA = 14E"),
            "{text}"
        );
        assert_eq!(states[1].shock, ShockState::Incapacitated);
    }

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
        m.end_of_turn(Side::B, &mut states, &mut dice, &mut log);
        assert_eq!(states[1].shock, ShockState::Stunned);
        // The next turn's Shock roll: 61 against 65: no longer stunned; then the Morale roll
        // the Serious injury called for: Initiative ML60, 29: steady.
        let mut dice = ScriptedDice::new([61, 29]);
        states[1].turn = 2;
        m.end_of_turn(Side::B, &mut states, &mut dice, &mut log);
        assert!(dice.finish().is_ok(), "{:?}", log.lines);
        assert_eq!(states[1].shock, ShockState::None);
        assert!(!states[1].routed && !states[1].morale_due);
        assert!(
            log.lines
                .join("\n")
                .contains("Morale roll 29 vs EML60: steady")
        );
    }

    #[test]
    fn modifiers_aim_heft_prone_reach_and_thrust() {
        let mut a = fighter(Defence::Block);
        a.aim = 4;
        a.weapon.heft = 14;
        let m = melee(a, fighter(Defence::Block));
        let mut states = [State::default(); 2];
        // Aim -10, Heft 14 vs Strength 12: -10.
        assert_eq!(m.strike_eml(Side::A, &states, None, false).0, 40);
        states[0].prone = true;
        assert_eq!(m.strike_eml(Side::A, &states, None, false).0, 20);
        // "Striking a prone target while standing allows for any default ZN with no aim
        // penalty": 50 against a prone foe; prone against prone keeps it.
        states[1].prone = true;
        assert_eq!(m.strike_eml(Side::A, &states, None, false).0, 20);
        states[0].prone = false;
        assert_eq!(m.strike_eml(Side::A, &states, None, false).0, 50);
        // Reach 4 against a spear's 7: -15; a spear thrusting against Reach 4: +15.
        let spear = Weapon {
            reach: 7,
            thrust: true,
            aspect: Aspect::Point,
            ..BROADSWORD
        };
        let sword = fighter(Defence::Block);
        let m = melee(
            sword,
            Fighter {
                weapon: spear,
                ..fighter(Defence::Block)
            },
        );
        assert_eq!(
            m.strike_eml(Side::A, &[State::default(); 2], Some(&spear), false)
                .0,
            45
        );
        assert_eq!(
            m.strike_eml(Side::B, &[State::default(); 2], Some(&BROADSWORD), false)
                .0,
            75
        );
        // In Close, the penalty goes to the higher Reach and the bonus to the lower thrust.
        assert_eq!(
            m.strike_eml(Side::B, &[State::default(); 2], Some(&BROADSWORD), true)
                .0,
            45
        );
        assert_eq!(
            m.strike_eml(Side::A, &[State::default(); 2], Some(&spear), true)
                .0,
            60
        );
    }

    #[test]
    fn heft_two_handed_off_hand_and_shields() {
        let m = melee(fighter(Defence::Block), fighter(Defence::Block));
        let f = Fighter {
            strength: 10,
            ..fighter(Defence::Block)
        };
        let heavy = Weapon {
            heft: 13,
            ..BROADSWORD
        };
        assert_eq!(m.heft_penalty(&f, &heavy, false), 15);
        assert_eq!(
            m.heft_penalty(
                &f,
                &Weapon {
                    two_handed: true,
                    ..heavy
                },
                false
            ),
            0
        );
        let left = Fighter {
            off_hand: true,
            ..f
        };
        assert_eq!(m.heft_penalty(&left, &heavy, false), 40);
        assert_eq!(
            m.heft_penalty(&left, &BROADSWORD, false),
            10,
            "off-hand: at least -10"
        );
        assert_eq!(
            m.heft_penalty(&left, &BROADSWORD, true),
            0,
            "not for a shield blocking"
        );
    }

    #[test]
    fn injuries_impair_and_grievous_zones_prohibit() {
        let m = melee(fighter(Defence::Block), fighter(Defence::Block));
        let mut state = State::default();
        let injury = |location, il| Injury::new(location, Aspect::Edge, il);
        state.injuries.add(injury(Location::Abdomen, 2));
        state.summarise();
        assert_eq!(
            m.impairment(Side::A, &state, true, true),
            (10, false),
            "S2 abdomen: 10"
        );
        state.injuries.add(injury(Location::Thigh, 1));
        state.summarise();
        assert_eq!(
            m.impairment(Side::A, &state, true, true),
            (10, false),
            "a Minor waits while the Shock roll succeeded"
        );
        state.injuries.add(Injury {
            impairs: true,
            ..injury(Location::Thigh, 1)
        });
        state.summarise();
        assert_eq!(
            m.impairment(Side::A, &state, true, true),
            (15, false),
            "a Minor whose Shock roll failed impairs; the other still waits"
        );
        state.injuries.add(Injury {
            side: BodySide::Left,
            ..injury(Location::Forearm, 4)
        });
        state.summarise();
        assert_eq!(
            m.impairment(Side::A, &state, true, true),
            (15, false),
            "the left arm does not wield the sword"
        );
        state.injuries.add(injury(Location::Forearm, 4));
        state.summarise();
        assert!(
            m.impairment(Side::A, &state, true, true).1,
            "a Grievous weapon arm prohibits"
        );
        assert!(
            !m.impairment(Side::A, &state, false, true).1,
            "but not a Dodge"
        );
    }
}
