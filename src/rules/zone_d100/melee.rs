//! The melee model and the MELEE SEQUENCE's step 2 MELEE TEST: fighters with their weapons,
//! shields, armour and tactics, a fighter's state in the duel, the settings of the melee
//! sequence (`[rules]`, with the defaults for the pages the text refers to but does not
//! include: Fumble and Stumble rolls, Morale, Weapon Damage, Close, recorded in
//! `docs/rules/zone-d100.md`), and the modifiers of the Melee test (aim, Heft, prone, Reach and
//! Thrust, trauma) for an attack and for each defence.
//!
//! The rest of the melee sequence is in the files beside it, each an `impl Melee` block:
//! `outcome.rs` (step 3 OUTCOME: the opposed test, victory stars, tactical advantages, mishaps),
//! `injury_sequence.rs` (the INJURY SEQUENCE of a blow), `impairment.rs` (step 5 INJURY EFFECT:
//! impaired and prohibited tests) and `shock_and_morale.rs` (the end of a fighter's turn: shock
//! rerolls and morale).

use super::body::Zone;
use super::injury::{Aspect, BleedingTable, Injuries, ShockState};
use super::skill::{Defence, StarTable};
use crate::rules::roster::MAX_FIGHTERS;
use crate::stats::Side;
use std::ops::{Index, IndexMut};

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

pub use super::body::LOCATIONS;

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
    /// The unarmed strike mode (punch, bite, claw) designated with no weapon in hand, for the
    /// attacker's Reach Penalty or Thrust Bonus.
    pub unarmed: Weapon,
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
    /// The turn of the fight now (counted by the fight's loop, every fighter alike: each
    /// fighter's turn is a turn).
    pub turn: u32,
    /// The round of the fight now (set by the fight's loop, every fighter alike).
    pub round: u32,
    /// Foes threatening this fighter beyond one (a fight of sides of several sets it before
    /// each exchange; 0 in a duel): the Outnumbered Penalty's count.
    pub outnumbered: u32,
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
    /// At range: a missile loaded.
    pub loaded: bool,
    /// At range: rounds spent loading.
    pub progress: u32,
    /// At range: aimed.
    pub aimed: bool,
    /// Moved this round (closing in): a Moving target.
    pub moved: bool,
    /// Moved this round with the Evade action: an Evading target.
    pub evading: bool,
    /// The last round of "the next round", after which an unspent Setup TA is gone.
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
    /// The impairment of a test that uses the head, torso and legs and these arms (indexed by
    /// [`Arms`]), and whether a Grievous zone prohibits it: `by_zone` weighed by the rules'
    /// Minor and Serious impairment and the fighter's weapon arm. [`Melee::summarise`] and
    /// [`Melee::count_injury`] keep it in step with `by_zone`, so a test reads one entry where
    /// it summed five zones (a fight's tests outnumber its injuries three to one).
    pub impairment_by_arms: [(i32, bool); 4],
    /// Location Shock and Injury Level of the injury whose Shock roll last raised the shock
    /// state (a coma's HR).
    pub last_shock: (u8, u8),
    /// Weakness fatigue carried into the fight (a campaign's fighter: 5 a Blood Loss Point
    /// not regenerated, an infection's weakness), on every test fatigue weighs on.
    pub weakness: i32,
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
    /// Permanent impairment of the zone's injuries healed in a campaign's rests: it weighs on
    /// the zone's tests as indefinite impairment does.
    pub lasting: i32,
}

impl State {
    /// Able to act (not INC, UNC, KIA, dead or routed).
    pub fn can_act(&self) -> bool {
        !self.dead && !self.routed && self.shock < ShockState::Incapacitated
    }

    /// A Setup TA: "+1 level to the next Melee or Dodge test within the next round", so it
    /// lasts to the end of the round after this turn's.
    pub fn take_setup(&mut self) {
        self.setup = true;
        self.setup_until = self.round + 1;
    }

    /// Alive with something for the healing sequence after its fight: an injury, Extended
    /// Shock, or a shock state (INC, UNC) to reroll.
    pub fn needs_healing(&self) -> bool {
        let hurt = !self.injuries.is_empty()
            || self.extended_shock.is_some()
            || self.shock >= ShockState::Incapacitated;
        !self.dead && hurt
    }

    /// Helpless for the rest of the fight: UNC (its Shock Reroll comes after ten minutes), or
    /// INC in Extended Shock (the state stays for hours).
    pub fn helpless(&self) -> bool {
        self.shock == ShockState::Unconscious
            || (self.shock == ShockState::Incapacitated && self.extended_shock.is_some())
    }
}

/// The arms a test uses: none (Dodge), the weapon arm, the shield arm (a shield Block: "Left
/// arm actions ... are unaffected" by a right-arm injury), or both (a two-handed weapon, a bow).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arms {
    /// No arm.
    None,
    /// The weapon arm.
    Weapon,
    /// The other arm: the one that holds the shield.
    Shield,
    /// Both arms.
    Both,
}

impl Arms {
    /// The weapon arm is used.
    #[inline]
    pub fn weapon_arm(self) -> bool {
        matches!(self, Arms::Weapon | Arms::Both)
    }

    /// The other (shield) arm is used.
    #[inline]
    pub fn other_arm(self) -> bool {
        matches!(self, Arms::Shield | Arms::Both)
    }
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
    /// Penalty to defence tests per opponent threatening the defender beyond one.
    pub outnumbered_penalty: i32,
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
    /// A shield Block is impaired by both arms (the older reading), not by the shield arm alone.
    pub shield_block_both_arms: bool,
}

impl Default for MeleeRules {
    fn default() -> Self {
        MeleeRules {
            stars: StarTable::default(),
            bleeding: BleedingTable::default(),
            aim_penalty: 10,
            heft_penalty: 5,
            prone_penalty: 20,
            outnumbered_penalty: 10,
            reach_step: 5,
            minor_impairment: 5,
            serious_impairment: 10,
            reroll_penalty: 20,
            weapon_damage_chance: 5,
            face_option: true,
            morale: true,
            strike_helpless: false,
            shield_block_both_arms: false,
        }
    }
}

/// What a strike did, for tallies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StrikeReport {
    /// The side that struck.
    pub striker: Side,
    /// The Zone Die missed the table.
    pub missed: bool,
    /// Injury level inflicted (0: none or glancing).
    pub il: u8,
    /// Zone struck.
    pub zone: Option<Zone>,
    /// A glancing blow.
    pub glancing: bool,
    /// The creature struck is on the striker's side (a stray missile).
    pub on_ally: bool,
}

impl StrikeReport {
    /// The same report with the striker named by its side in the fight, where the fighters
    /// of the exchange stand on `sides` (`[a, b]` in a duel).
    #[inline]
    pub fn seen_from(self, sides: [Side; 2]) -> StrikeReport {
        StrikeReport {
            striker: sides[self.striker.index()],
            ..self
        }
    }
}

/// The two fighters of an exchange, where their states are kept: a duel's two (`[State; 2]`,
/// side `a` at place 0), or two foes of a fight of several, read and changed in the fight's own
/// states ([`Bout`]). The rules index it by the side of the exchange and find each fighter's
/// sheet by its place on the roster ([`Pair::place`]): nothing is copied in or out.
pub trait Pair: Index<Side, Output = State> + IndexMut<Side> {
    /// These are a duel's fighters, at places 0 and 1: the tables [`Melee::new`] keeps for the
    /// duel hold for them.
    const DUEL: bool;
    /// The place on the roster of the fighter on `side` of the exchange.
    fn place(&self, side: Side) -> usize;
    /// The fighter at `place` stands on `side` of the exchange instead (a stray missile
    /// striking another creature than the one aimed at: never in a duel, where there is none).
    fn set_place(&mut self, side: Side, place: usize);
}

impl Index<Side> for [State; 2] {
    type Output = State;
    #[inline]
    fn index(&self, side: Side) -> &State {
        &self[side.index()]
    }
}

impl IndexMut<Side> for [State; 2] {
    #[inline]
    fn index_mut(&mut self, side: Side) -> &mut State {
        &mut self[side.index()]
    }
}

impl Pair for [State; 2] {
    const DUEL: bool = true;
    #[inline]
    fn place(&self, side: Side) -> usize {
        side.index()
    }
    fn set_place(&mut self, side: Side, place: usize) {
        debug_assert_eq!(place, side.index(), "a duel's fighters keep their places");
    }
}

/// Two foes of a fight of several, side `a` of the exchange at `places[0]`, in the fight's
/// states of every fighter.
pub struct Bout<'a> {
    /// The places on the roster of the exchange's sides `a` and `b`.
    pub places: [usize; 2],
    /// Every fighter's state, by place.
    pub states: &'a mut [State],
}

impl Index<Side> for Bout<'_> {
    type Output = State;
    #[inline]
    fn index(&self, side: Side) -> &State {
        &self.states[self.places[side.index()]]
    }
}

impl IndexMut<Side> for Bout<'_> {
    #[inline]
    fn index_mut(&mut self, side: Side) -> &mut State {
        &mut self.states[self.places[side.index()]]
    }
}

impl Pair for Bout<'_> {
    const DUEL: bool = false;
    #[inline]
    fn place(&self, side: Side) -> usize {
        self.places[side.index()]
    }
    fn set_place(&mut self, side: Side, place: usize) {
        self.places[side.index()] = place;
    }
}

/// The melee model of the fighters of a fight: a duel's two, or every fighter of sides of
/// several, by their places on the roster.
#[derive(Clone, Debug)]
pub struct Melee {
    /// The duel's fighters, `a` then `b` (a fight of several: its first of each side).
    pub fighters: [Fighter; 2],
    /// Every fighter's name, by place.
    pub names: Vec<String>,
    /// The rules.
    pub rules: MeleeRules,
    /// Every fighter, by place on the roster (a duel's are `fighters`); the places past the
    /// roster's are unused. Held in line: a duel's exchange reads its two at fixed places.
    pub(super) members: [Fighter; MAX_FIGHTERS],
    /// Each fighter's Heft penalty wielding its weapon (a strike, a Counterstrike, a Block with
    /// it) and blocking with its shield, by place, found once by [`Melee::new`] from its
    /// weapons and `rules`: every exchange reads them.
    heft: [FighterHeft; MAX_FIGHTERS],
    /// The TAs each fighter takes for each kind of victory ([`Choice`], in the order of
    /// [`Choice::ALL`]) and each count of TAs up to [`CHOSEN_COUNTS`], by place, found once
    /// by [`Melee::new`] with [`Melee::choose_for`]: every exchange won reads them.
    pub(super) tas: [[[Chosen; CHOSEN_COUNTS]; 3]; MAX_FIGHTERS],
    /// A duel's fighters' strike EML before aim, fatigue, prone and impairment (Melee ML,
    /// Heft, Reach and Thrust) against what the other designates ([`Against`]), out of Close
    /// and in Close, found once by [`Melee::new`]: every opposed test of the duel reads them
    /// (a fight of several works them out, its foes' weapons varying).
    strike_base: [[[i32; 2]; 3]; 2],
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

/// The TAs a victory lets a fighter choose from ([`Melee::choose_for`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// The attacker's strike against a defence: Action, Impact, Precision or Setup.
    Strike,
    /// A blow that allows only Impact or Precision: the attacker's strike against Ignore, the
    /// defender's Counterstrike, a missile's strike.
    ImpactOrPrecision,
    /// A Block or Dodge that won: Action or Setup.
    Defended,
}

impl Choice {
    /// Every kind, in the order of the table [`Melee::new`] fills.
    pub const ALL: [Choice; 3] = [Choice::Strike, Choice::ImpactOrPrecision, Choice::Defended];
}

/// What a defender designates for the attacker's Reach Penalty or Thrust Bonus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Against {
    /// Nothing: the defender Ignores ("Neither Reach Penalty nor Thrust Bonus apply").
    Nothing,
    /// Its unarmed strike mode: no weapon in hand.
    Unarmed,
    /// Its readied weapon.
    Weapon,
}

/// The counts of TAs whose choice [`Melee::new`] tabulates: every count the star table gives
/// (at most four stars, so three TAs) and more.
pub(super) const CHOSEN_COUNTS: usize = 8;

/// A fighter's Heft penalties, as [`Melee::heft_penalty`] finds them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct FighterHeft {
    /// Wielding the weapon.
    weapon: i32,
    /// Blocking with the shield (0 without one).
    shield: i32,
}

impl Melee {
    /// The melee model of two fighters under these rules: a duel.
    pub fn new(fighters: [Fighter; 2], names: [String; 2], rules: MeleeRules) -> Melee {
        Melee::of_roster(&fighters, names.to_vec(), rules)
    }

    /// The melee model of every fighter of a fight (`members` by their places on the roster,
    /// at least two; a duel's are its two) under these rules.
    pub fn of_roster(members: &[Fighter], names: Vec<String>, rules: MeleeRules) -> Melee {
        let mut melee = Melee {
            fighters: [members[0], members[members.len() - 1]],
            names,
            rules,
            members: [members[0]; MAX_FIGHTERS],
            heft: [FighterHeft::default(); MAX_FIGHTERS],
            tas: [[[Chosen::default(); CHOSEN_COUNTS]; 3]; MAX_FIGHTERS],
            strike_base: [[[0; 2]; 3]; 2],
        };
        melee.members[..members.len()].copy_from_slice(members);
        for (place, f) in members.iter().enumerate() {
            melee.heft[place] = FighterHeft {
                weapon: melee.heft_penalty(f, &f.weapon, false),
                shield: f.shield.map_or(0, |s| melee.heft_penalty(f, &s, true)),
            };
            for choice in Choice::ALL {
                for count in 0..CHOSEN_COUNTS {
                    melee.tas[place][choice as usize][count] =
                        melee.choose_for(place, choice, count as u32);
                }
            }
        }
        for side in Side::BOTH {
            let me = side.index();
            for against in [Against::Nothing, Against::Unarmed, Against::Weapon] {
                for close in [false, true] {
                    melee.strike_base[me][against as usize][usize::from(close)] =
                        melee.strike_base_of(me, side.other().index(), against, close);
                }
            }
        }
        melee
    }

    /// The fighter at `place` on the roster.
    #[inline]
    pub fn fighter(&self, place: usize) -> &Fighter {
        &self.members[place]
    }

    /// Changes the fighter at `place` of a duel after the model is built (its tables are
    /// found again), for tests.
    #[cfg(test)]
    pub(crate) fn edit_fighter(&mut self, place: usize, change: impl FnOnce(&mut Fighter)) {
        change(&mut self.fighters[place]);
        *self = Melee::new(
            self.fighters,
            [0, 1].map(|i| self.names[i].clone()),
            self.rules,
        );
    }

    /// The strike EML of the fighter at place `me` before aim, fatigue, prone and impairment
    /// (Melee ML, Heft, Reach and Thrust) against what the one at `foe` designates.
    fn strike_base_of(&self, me: usize, foe: usize, against: Against, close: bool) -> i32 {
        let f = &self.members[me];
        let reach = (self.designated(foe, against))
            .map_or(0, |o| self.reach_and_thrust(&f.weapon, o, close));
        f.melee_ml - self.weapon_heft(me) + reach
    }

    /// The Heft penalty of `side` wielding its weapon.
    #[inline]
    fn weapon_heft(&self, me: usize) -> i32 {
        let heft = self.heft[me].weapon;
        let f = &self.members[me];
        debug_assert_eq!(
            heft,
            self.heft_penalty(f, &f.weapon, false),
            "fighters changed after Melee::new"
        );
        heft
    }

    /// The Heft penalty of `side` blocking with its shield.
    #[inline]
    fn shield_heft(&self, me: usize) -> i32 {
        let heft = self.heft[me].shield;
        debug_assert_eq!(
            Some(heft),
            self.members[me]
                .shield
                .map(|s| self.heft_penalty(&self.members[me], &s, true)),
            "fighters changed after Melee::new"
        );
        heft
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
    pub(super) fn strike_eml(
        &self,
        side: Side,
        states: &impl Pair,
        against: Option<&Weapon>,
        close: bool,
    ) -> (i32, bool) {
        let f = &self.fighter(states.place(side));
        let reach = against.map_or(0, |o| self.reach_and_thrust(&f.weapon, o, close));
        self.strike_eml_from(
            side,
            states,
            f.melee_ml - self.weapon_heft(states.place(side)) + reach,
        )
    }

    /// [`Melee::strike_eml`] against what the other fighter designates, its Reach Penalty or
    /// Thrust Bonus read from the table [`Melee::new`] fills.
    #[inline]
    pub(super) fn strike_eml_against<S: Pair>(
        &self,
        side: Side,
        states: &S,
        against: Against,
        close: bool,
    ) -> (i32, bool) {
        let base = if S::DUEL {
            self.strike_base[side.index()][against as usize][usize::from(close)]
        } else {
            let (me, foe) = (states.place(side), states.place(side.other()));
            self.strike_base_of(me, foe, against, close)
        };
        let eml = self.strike_eml_from(side, states, base);
        debug_assert_eq!(
            eml,
            self.strike_eml(
                side,
                states,
                self.designated(states.place(side.other()), against),
                close
            ),
            "fighters changed after Melee::new"
        );
        eml
    }

    /// What `side` designates for its foe's Reach Penalty or Thrust Bonus.
    fn designated(&self, me: usize, against: Against) -> Option<&Weapon> {
        let f = &self.members[me];
        match against {
            Against::Nothing => None,
            Against::Unarmed => Some(&f.unarmed),
            Against::Weapon => Some(&f.weapon),
        }
    }

    /// The Reach Penalty and Thrust Bonus of striking with `w` against `o`: the longer Reach
    /// penalises the shorter (in Close, the longer), a thrust with the longer Reach (in Close,
    /// the shorter) gains; 5 a point of difference.
    fn reach_and_thrust(&self, w: &Weapon, o: &Weapon, close: bool) -> i32 {
        let step = self.rules.reach_step;
        let mut eml = 0;
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
        eml
    }

    /// A strike's EML from `base` (Melee ML, Heft, Reach and Thrust): aim, fatigue, prone and
    /// impairment.
    #[inline]
    fn strike_eml_from(&self, side: Side, states: &impl Pair, base: i32) -> (i32, bool) {
        let state = &states[side];
        let f = &self.fighter(states.place(side));
        let mut eml = base - f.fatigue - state.weakness;
        // "Striking a prone target while standing allows for any default ZN with no aim
        // penalty."
        let prone_target = states[side.other()].prone && !state.prone;
        if f.aim != 1 && !prone_target {
            eml -= self.rules.aim_penalty;
        }
        if state.prone {
            eml -= self.rules.prone_penalty;
        }
        let arms = [Arms::Weapon, Arms::Both][usize::from(f.weapon.two_handed)];
        let (impairment, prohibited) = self.impairment_of(states.place(side), state, arms, true);
        (eml - impairment, prohibited)
    }

    /// A Block by `side` is made with its shield: it has one, whole.
    #[inline]
    pub(super) fn blocks_with_shield(&self, me: usize, state: &State) -> bool {
        self.members[me].shield.is_some() & !state.shield_broken
    }

    /// The arms a Block uses: the shield arm for a shield ("ARM IMPAIRED TESTS (RIGHT OR
    /// LEFT)": a shield held in the other hand is that arm's action, unless
    /// `shield_block_both_arms`), both for a two-handed weapon, else the weapon arm.
    #[inline]
    pub(super) fn block_arms(&self, me: usize, state: &State) -> Arms {
        if self.blocks_with_shield(me, state) {
            if self.rules.shield_block_both_arms {
                Arms::Both
            } else {
                Arms::Shield
            }
        } else if self.members[me].weapon.two_handed {
            Arms::Both
        } else {
            Arms::Weapon
        }
    }

    /// The defender's test EML for its defence (not Ignore).
    #[inline]
    pub(super) fn defence_eml(
        &self,
        side: Side,
        states: &impl Pair,
        defence: Defence,
        close: bool,
    ) -> (i32, bool) {
        let state = &states[side];
        let f = &self.fighter(states.place(side));
        // "Defenders suffer -10 PENALTY to defence tests for each opponent threatening them
        // beyond one."
        let outnumbered = self.rules.outnumbered_penalty * state.outnumbered as i32;
        let (eml, prohibited) = match defence {
            Defence::Dodge => {
                let (impairment, prohibited) =
                    self.impairment(states.place(side), state, false, true);
                let impairment = impairment + f.fatigue + state.weakness;
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
                let shield = self.blocks_with_shield(states.place(side), state);
                let (impairment, prohibited) = self.impairment_of(
                    states.place(side),
                    state,
                    self.block_arms(states.place(side), state),
                    true,
                );
                let heft = if shield {
                    self.shield_heft(states.place(side))
                } else {
                    self.weapon_heft(states.place(side))
                };
                let eml = f.melee_ml
                    - heft
                    - f.fatigue
                    - state.weakness
                    - impairment
                    - if state.prone {
                        self.rules.prone_penalty
                    } else {
                        0
                    };
                (eml, prohibited)
            }
            Defence::Counterstrike => self.strike_eml_against(side, states, Against::Weapon, close),
            Defence::Ignore => return (0, false),
        };
        (eml - outnumbered, prohibited)
    }
}

#[cfg(test)]
#[path = "combat_ledger.rs"]
mod ledger;

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::rules::zone_d100::body::Location;

    /// The stream of `side`'s turn in round 1, for an end of turn on scripted dice (which
    /// ignore streams).
    pub(crate) fn test_turn(side: Side) -> crate::dice::Stream {
        crate::dice::Stream::new(crate::rules::zone_d100::Purpose::Turn, side.index(), 1)
    }

    pub(crate) const BROADSWORD: Weapon = Weapon {
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

    pub(crate) fn fighter(defence: Defence) -> Fighter {
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
            unarmed: crate::rules::zone_d100::equipment::PUNCH,
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

    pub(crate) fn quilt() -> [Cover; LOCATIONS] {
        let mut armour = [Cover::default(); LOCATIONS];
        for l in [Location::Thorax, Location::Abdomen, Location::Pelvis] {
            armour[l as usize] = Cover {
                av: [5, 4, 3, 2],
                rigid: false,
            };
        }
        armour
    }

    pub(crate) fn melee(a: Fighter, b: Fighter) -> Melee {
        Melee::new(
            [a, b],
            ["attacker".into(), "defender".into()],
            MeleeRules::default(),
        )
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
    fn the_strike_eml_read_from_the_table_is_the_one_the_rules_find() {
        // Melee::new keeps each fighter's Melee ML, Heft, Reach Penalty and Thrust Bonus against
        // what the other designates; the aim, prone, fatigue and impairment go on top at each
        // test. Against every designation, in and out of Close, prone or not, aimed or not,
        // impaired or not: the same EML as the rules' own function.
        let spear = Weapon {
            reach: 7,
            thrust: true,
            aspect: Aspect::Point,
            heft: 14,
            two_handed: true,
            ..BROADSWORD
        };
        let dagger = Weapon {
            reach: 1,
            thrust: true,
            ..BROADSWORD
        };
        let mut checked = 0;
        for (a_weapon, b_weapon) in [(BROADSWORD, spear), (dagger, spear), (spear, dagger)] {
            for aim in [1, 4] {
                let mut a = fighter(Defence::Counterstrike);
                a.weapon = a_weapon;
                a.aim = aim;
                a.fatigue = 5;
                let mut b = fighter(Defence::Block);
                b.weapon = b_weapon;
                b.off_hand = true;
                let m = melee(a, b);
                for prone in [[false, false], [true, false], [false, true], [true, true]] {
                    let mut states = [State::default(); 2];
                    states[0].prone = prone[0];
                    states[1].prone = prone[1];
                    states[1]
                        .injuries
                        .add(crate::rules::zone_d100::injury::Injury::new(
                            Location::Forearm,
                            Aspect::Edge,
                            3,
                        ));
                    m.summarise(1, &mut states[1]);
                    for side in Side::BOTH {
                        for against in [Against::Nothing, Against::Unarmed, Against::Weapon] {
                            for close in [false, true] {
                                let designated = m.designated(side.other().index(), against);
                                assert_eq!(
                                    m.strike_eml_against(side, &states, against, close),
                                    m.strike_eml(side, &states, designated, close),
                                    "{side:?} against {against:?}, close {close}, prone {prone:?}"
                                );
                                checked += 1;
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 3 * 2 * 4 * 2 * 3 * 2);
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
}
