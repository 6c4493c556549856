//! The `wound-levels` ruleset: a small symmetric roll (4dF) plus skill levels, initiative and
//! declaration order, multiple actions and their penalty, Evasion turning actions into dodges,
//! damage from the margin (or the outcome when undefended) plus the weapon's damage bonus minus
//! armour, accumulating wound levels 1–7 with their penalties, and the Critical and Terminal
//! deterioration checks that decide who lives until help arrives.
//!
//! The text (`shared/rules/wound-levels.txt`: "Damage", "Wound Levels", "Example of Combat")
//! gives damage, wound levels and one long worked example; the duel loop, the dice and every
//! value the example implies are our reading, each a named parameter recorded in
//! `docs/rules/wound-levels.md` with the rule ledger. The ruleset reads no files.
//!
//! This file holds the compiled model ([`WoundLevels`], [`Fighter`]) and the duel turn by turn
//! (the `Ruleset` impl): initiative every turn ("They roll initiative", a critical success wins
//! it, a tie is a d2), the declarations, the actions in initiative order, movement, and the end
//! of the turn ("6) Terminal: Actions not possible", "7) Mortal: Die at the end of the turn"),
//! then the time after the fight for every wounded survivor. The rest, by the text's words:
//!
//! - `schema.rs`: what a scenario writes (fighters, weapons, armour, `[rules]`, `[healing]`, every
//!   parameter with its default) and its compilation into the flat fighters.
//! - `skill.rs`: the 4dF roll, the skill and Physique levels, the Physique check.
//! - `actions.rs`: what each fighter declares, the slower first; multiple actions; Evasion.
//! - `attack.rs`: the attack and the dodge, fire modes and ammunition, throws, and "Damage".
//! - `wounds.rs`: "Wound Levels": the level of a damage total, its penalty, a wound added.
//! - `movement.rs`: closing in and withdrawing; pace ("cannot run", "cannot walk"), pursuit.
//! - `healing.rs`: after the fight: the Critical and Terminal checks until help, then healing.
//! - `exchange.rs`: one exchange for exact tables (`duelsim exact`).
//! - `skirmish.rs`: a fight of sides of several fighters (our design: the text has two).

pub mod actions;
pub mod attack;
mod campaign;
pub mod exchange;
pub mod healing;
pub mod movement;
pub mod schema;
pub mod skill;
mod skirmish;
pub mod wounds;

#[cfg(test)]
mod test_support;

use crate::dice::{Dice, Stream};

/// The purposes with their own dice stream (see `docs/rules/wound-levels.md`, "Dice
/// streams"): each keyed by the fighter and the turn, so a change in who acts first, or in how
/// many dice a turn rolls, moves no other roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Purpose {
    /// A fighter's initiative roll, by the fighter and turn.
    Initiative = 1,
    /// The d2 that breaks an initiative tie (fighter 0), by the turn.
    Tie = 2,
    /// The die that picks a foe at random, by the attacker, turn and attack.
    Target = 3,
    /// An attack roll, by the attacker, turn and attack (`nth`).
    Attack = 4,
    /// The dodge against that attack, by the attacker, turn and attack.
    Dodge = 5,
    /// A mover's Physique check to move and the movement rolls of its pursuit, by the mover
    /// and turn.
    Move = 6,
    /// The checks of the aftermath and healing, by the fighter.
    Aftermath = 7,
}

impl crate::dice::Purpose for Purpose {
    #[inline]
    fn code(self) -> u32 {
        self as u32
    }
}
use crate::log::Log;
use crate::rules::Ruleset;
use crate::rules::roster::{Blow, Enrolled, MAX_FIGHTERS, Roster, TurnOrder};
use crate::scenario::fields::Ranged;
use crate::stats::{DuelOutcome, Extra, ExtraKind, Side, Tally, TallyShape};

/// The id scenarios use.
pub const ID: &str = "wound-levels";

pub use actions::Withdraw;
use attack::Sheets;
pub use attack::{FireMode, WeaponKind};
pub use schema::{ArmourSpec, FighterSpec, File, Healing, PARAMETERS, Rules, WeaponSpec};
pub use skill::{Level, Roll};

/// The ruleset's own counts.
pub const EXTRAS: &[Extra] = &[
    Extra {
        name: "died_before_help",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "reached_terminal",
        kind: ExtraKind::ShareOfPatients,
    },
];

/// One fighter, compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fighter {
    /// Melee bonus.
    pub melee: i32,
    /// Ranged bonus.
    pub ranged: i32,
    /// Physique bonus.
    pub physique: i32,
    /// Initiative bonus.
    pub initiative: i32,
    /// Has Evasion.
    pub evasion: bool,
    /// Armour points.
    pub armour: i32,
    /// The weapon's kind.
    pub kind: WeaponKind,
    /// Damage bonus with the weapon (Physique included for melee and unarmed).
    pub damage_bonus: i32,
    /// Damage bonus once the weapon is thrown away (unarmed).
    pub unarmed_bonus: i32,
    /// Rounds in a clip.
    pub clip: u32,
    /// Spare clips.
    pub spare_clips: u32,
    /// Automatic weapon.
    pub automatic: bool,
    /// Throwable weapon.
    pub throwable: bool,
    /// Attacks declared.
    pub attacks: u32,
    /// Actions Evasion converts.
    pub evade: u32,
    /// Withdraw tactic.
    pub withdraw: Withdraw,
    /// Fire mode.
    pub fire_mode: FireMode,
    /// Throw tactic.
    pub throw: bool,
}

/// A compiled wound-levels point.
#[derive(Clone, Debug)]
pub struct WoundLevels {
    /// The fighters.
    pub fighters: [Fighter; 2],
    /// Their names.
    pub names: [String; 2],
    /// The rules.
    pub rules: Rules,
    /// Post-fight settings.
    pub healing: Healing,
    /// Turns before a draw.
    pub round_limit: u32,
    /// Penalty by wound level 0..=7.
    penalty: [i32; 8],
    /// Movement roll penalty by wound level 0..=7.
    move_penalty: [i32; 8],
    /// Who fights on which side, named, with their target policies.
    pub roster: Roster,
    /// Every fighter of both sides, by their places on the roster, side `a`'s first (a duel's
    /// are `fighters`); the places past the roster's are unused. Held in line, not behind a
    /// pointer: a duel's rules read its two fighters at fixed places.
    members: [Fighter; MAX_FIGHTERS],
}

/// A fighter's state during the fight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct State {
    damage: u32,
    ammo: u32,
    spare_clips: u32,
    thrown: bool,
}

impl State {
    /// A fighter as a fight starts it: unhurt, its clip full.
    fn start(f: &Fighter) -> State {
        State {
            damage: 0,
            ammo: f.clip,
            spare_clips: f.spare_clips,
            thrown: false,
        }
    }
}

impl WoundLevels {
    /// Builds a point.
    pub fn new(
        fighters: [Fighter; 2],
        names: [String; 2],
        rules: Rules,
        healing: Healing,
        round_limit: u32,
    ) -> Self {
        let mut penalty = [0i32; 8];
        for (level, p) in penalty.iter_mut().enumerate().skip(1) {
            *p = rules.wound_penalties.get(level - 1).map_or(0, Ranged::i32);
        }
        let mut move_penalty = [0i32; 8];
        for (level, p) in move_penalty.iter_mut().enumerate().skip(1) {
            *p = rules.move_penalties.get(level - 1).map_or(0, Ranged::i32);
        }
        WoundLevels {
            fighters,
            roster: Roster::duel(names.clone()),
            members: std::array::from_fn(|i| fighters[i.min(1)]),
            names,
            rules,
            healing,
            round_limit,
            penalty,
            move_penalty,
        }
    }

    /// Builds the point of a fight between two sides of one or more fighters each
    /// (`members` with their `fighters`, side `a`'s first). A side of one against a side of
    /// one is the duel.
    pub fn skirmish(
        members: &[Enrolled],
        fighters: Vec<Fighter>,
        rules: Rules,
        healing: Healing,
        round_limit: u32,
    ) -> Self {
        let roster =
            Roster::new(members, TurnOrder::Sides).with_attacker_limit(rules.max_attackers.u32());
        let (a, b) = (roster.team(Side::A), roster.team(Side::B));
        let mut point = WoundLevels::new(
            [fighters[a.start], fighters[b.start]],
            roster.side_names.clone(),
            rules,
            healing,
            round_limit,
        );
        point.roster = roster;
        for (place, fighter) in point.members.iter_mut().zip(fighters) {
            *place = fighter;
        }
        point
    }

    /// Changes fighter `i` of a duel after the point is built, for tests.
    #[cfg(test)]
    pub(super) fn edit_fighter(&mut self, i: usize, change: impl FnOnce(&mut Fighter)) {
        change(&mut self.fighters[i]);
        self.members[i] = self.fighters[i];
    }

    /// Both fighters as the duel starts them: unhurt, clips full.
    fn start_states(&self) -> [State; 2] {
        self.fighters.map(|f| State::start(&f))
    }
}

/// What both fighters' actions in a turn of the duel read and change.
struct TurnActions<'a> {
    turn: u32,
    sheets: Sheets<'a, 2>,
    engaged: bool,
}

impl WoundLevels {
    /// The turn's actions in initiative order: the fighter of index `FAST`, then `SLOW`.
    #[inline(always)]
    fn actions<const FAST: usize, const SLOW: usize, D: Dice, L: Log>(
        &self,
        mut t: TurnActions,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        self.actions_of::<FAST, D, L>(&mut t, dice, log, tally);
        self.actions_of::<SLOW, D, L>(&mut t, dice, log, tally);
    }

    /// The declared actions of the fighter of index `SIDE` in turn `turn` (a reload, then its
    /// attacks while it can reach, is loaded and is not out): the fighter is a compile-time
    /// constant, so its state, plan and streams are read from fixed places.
    #[inline(always)]
    fn actions_of<const SIDE: usize, D: Dice, L: Log>(
        &self,
        t: &mut TurnActions,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        let (turn, engaged) = (t.turn, t.engaged);
        let side = Side::BOTH[SIDE];
        let me = &self.members[SIDE];
        let plan = t.sheets.declared[SIDE];
        if Self::level(t.sheets.states[SIDE].damage) >= 6 {
            return;
        }
        if plan.reload {
            let mine = &mut t.sheets.states[SIDE];
            mine.ammo = me.clip;
            mine.spare_clips -= 1;
            log.say(|| format!("  {} reloads", self.names[SIDE]));
        }
        for k in 0..plan.attacks {
            let mine = &t.sheets.states[SIDE];
            let reach = engaged || me.kind.is_ranged() || plan.throw;
            let loaded = !me.kind.is_ranged() || plan.throw || mine.ammo > 0;
            if !reach || !loaded || Self::level(mine.damage) >= 6 {
                break;
            }
            let key = Stream::new(Purpose::Attack, SIDE, turn).nth(k);
            dice.stream(key);
            let blow = Blow::in_duel(side);
            let dealt = self.attack_on(blow, engaged, key, &mut t.sheets, dice, log);
            tally.record_hit(side, dealt.unwrap_or(0), dealt.is_some());
        }
    }
}

impl Ruleset for WoundLevels {
    fn shape(&self) -> TallyShape {
        TallyShape {
            round_limit: self.round_limit,
            max_damage: 20,
            horizon_days: self.healing.horizon_days.u32(),
            extras: EXTRAS,
            sides: self.roster.sides.map(|n| n as u32),
        }
    }

    fn trial<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        if !self.roster.is_duel() {
            return self.fight(dice, log, tally);
        }
        let mut states = self.start_states();
        let mut engaged = self.rules.start_engaged;
        let mut winner = None;
        let mut rounds = 0;
        let mut dead = [false; 2];
        for turn in 1..=self.round_limit {
            if dice.exhausted() {
                break;
            }
            rounds = turn;
            let fast = self.faster(&states, turn, dice, log);
            let slow = fast.other();
            let plans = self.plans(slow, &states, engaged);
            log.say(|| {
                format!(
                    "  {} declares {}; {} declares {}",
                    self.names[slow.index()],
                    plans[slow.index()],
                    self.names[fast.index()],
                    plans[fast.index()]
                )
            });
            // Actions in initiative order; dodges answer the other's attacks.
            let declared = plans;
            let mut dodges_left = plans.map(|p| p.dodges);
            // The two fighters' actions, each with its fighter a compile-time constant.
            let t = TurnActions {
                turn,
                sheets: Sheets {
                    declared: &declared,
                    dodges_left: &mut dodges_left,
                    states: &mut states,
                },
                engaged,
            };
            match fast {
                Side::A => self.actions::<0, 1, D, L>(t, dice, log, tally),
                Side::B => self.actions::<1, 0, D, L>(t, dice, log, tally),
            }
            // Movement at the end of the turn.
            let movers = [fast, slow].map(|side| (side.index(), declared[side.index()]));
            engaged = self.movement(movers, &states, engaged, turn, dice, log);
            if let Some(end) = self.end_of_turn(&states, &mut dead, log) {
                winner = end;
                break;
            }
        }
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead: dead.map(u32::from),
        });
        self.aftermath_of_both(&states, dead, dice, log, tally);
    }
}

impl WoundLevels {
    /// Initiative: a critical success wins; otherwise the higher total; ties a d2. Returns
    /// the faster fighter's side.
    #[inline(always)]
    fn faster<D: Dice, L: Log>(
        &self,
        states: &[State; 2],
        turn: u32,
        dice: &mut D,
        log: &mut L,
    ) -> Side {
        dice.stream(Stream::new(Purpose::Initiative, 0, turn));
        let ia = self.roll(dice, "dF (initiative a)");
        dice.stream(Stream::new(Purpose::Initiative, 1, turn));
        let ib = self.roll(dice, "dF (initiative b)");
        let ta = ia.value + self.fighters[0].initiative - self.penalty_of(states[0].damage);
        let tb = ib.value + self.fighters[1].initiative - self.penalty_of(states[1].damage);
        let fast = match (ia.critical, ib.critical) {
            (true, false) => Side::A,
            (false, true) => Side::B,
            _ if ta > tb => Side::A,
            _ if tb > ta => Side::B,
            _ => {
                dice.stream(Stream::new(Purpose::Tie, 0, turn));
                Side::BOTH[(dice.d(2, "d2 (initiative tie)") - 1) as usize & 1]
            }
        };
        log.say(|| {
            format!(
                "turn {turn}: initiative {} {ta}{}, {} {tb}{}: {} is faster",
                self.names[0],
                if ia.critical { " (critical)" } else { "" },
                self.names[1],
                if ib.critical { " (critical)" } else { "" },
                self.names[fast.index()]
            )
        });
        fast
    }

    /// The end of the turn: Mortal dies; Terminal is out. Returns the duel's end when either
    /// is out: the winner, or `None` when both are.
    #[inline(always)]
    fn end_of_turn<L: Log>(
        &self,
        states: &[State; 2],
        dead: &mut [bool; 2],
        log: &mut L,
    ) -> Option<Option<Side>> {
        let out = states.map(|s| Self::level(s.damage) >= 6);
        for side in Side::BOTH {
            dead[side.index()] = Self::level(states[side.index()].damage) >= 7;
        }
        if !(out[0] || out[1]) {
            return None;
        }
        for side in Side::BOTH {
            if dead[side.index()] {
                log.say(|| {
                    format!(
                        "{} is Mortally wounded and dies at the end of the turn",
                        self.names[side.index()]
                    )
                });
            }
        }
        Some(match out {
            [true, false] => Some(Side::B),
            [false, true] => Some(Side::A),
            _ => None,
        })
    }

    /// Each wounded survivor's aftermath: deterioration until help, then healing.
    #[inline(always)]
    fn aftermath_of_both<D: Dice, L: Log>(
        &self,
        states: &[State; 2],
        dead: [bool; 2],
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        for side in Side::BOTH {
            let damage = states[side.index()].damage;
            if !dead[side.index()] && damage > 0 {
                let mut terminal = false;
                dice.stream(Stream::new(Purpose::Aftermath, side.index(), 0));
                let r = self.aftermath(side.index(), damage, dice, log, &mut terminal);
                tally.record_recovery(side, &r);
                tally.record_extra(0, u64::from(r.died));
                tally.record_extra(1, u64::from(terminal));
            }
        }
    }
}

/// What the registry says of this ruleset.
const ABOUT: crate::rules::About = crate::rules::About {
    id: ID,
    summary: "4dF plus skill levels, initiative, multiple actions, Evasion and dodges, wound levels 1-7, Critical/Terminal deterioration",
    recovery_deaths: true,
    impairment: false,
    parameters: PARAMETERS,
    listing_note: None,
    rules_page: include_str!("../../../docs/rules/wound-levels.md"),
    hit_words: (
        "damage after armour (wound levels)",
        "the armour stopped it all",
    ),
    hit_levels: None,
    examples: crate::rules::Examples {
        duel: "scenarios/wound-levels/knife-vs-pistol.toml",
        recovery: None,
        campaign: Some("scenarios/wound-levels/fencers-back-alleys.toml"),
        grid: None,
        starter: (
            "scenarios/wound-levels/bruiser-vs-fencer.toml",
            include_str!("../../../scenarios/wound-levels/bruiser-vs-fencer.toml"),
        ),
    },
};

crate::registered!(WoundLevels, ABOUT, crate::exact::walk);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::VecLog;
    use crate::rules::wound_levels::test_support::{
        bob_and_adam, fighter, ledger_duel, ledger_fudge, ledger_model, script,
    };

    #[test]
    fn example_of_combat_bob_and_adam_turn_by_turn() {
        let healing = Healing {
            help_minutes: Ranged::new(0),
            horizon_days: Ranged::new(1),
            ..Healing::default()
        };
        let model = bob_and_adam(healing);
        let mut dice = script(&[
            // Turn 1: initiative Bob 1 (+3 = 4), Adam 3 (+3 = 6). Adam stabs: 2 (+3 = 5);
            // Bob dodges 3 (+3 - 2 for two actions = 4). Bob fires full auto: -1 (+3 +2 -1 = 3).
            1, 3, 2, 3, -1,
            // Turn 2: initiative Bob 2 (+3 -1 = 4), Adam 1 (+3 -3 = 1). Adam slashes: 2 (+3 -3 = 2);
            // Bob dodges -1 (+3 -1 = 1). Bob's Physique check to move away: 1 (+3 -3 = 1).
            2, 1, 2, -1, 1,
            // Turn 3: initiative Bob 3 (+3 -3 = 3), Adam 4: a critical success. Adam throws: 2
            // (+3 -3 = 2); Bob's dodge is a botch.
            3, 4, 2, -4,
        ]);
        let mut log = VecLog::default();
        let mut tally = Tally::new(model.shape());
        model.trial(&mut dice, &mut log, &mut tally);
        assert!(
            dice.finish().is_ok(),
            "{:?}\n{}",
            dice.error(),
            log.lines.join("\n")
        );
        let story = log.lines.join("\n");
        let steps = [
            "turn 1: initiative Bob 4, Adam 6: Adam is faster",
            "Adam attacks: roll 2 + skill 3 + 0 - wound 0 = 5",
            "Bob dodges: roll 3 + Physique 3 - penalties = 4",
            "hit: base 1 + bonus 3 - armour 1 = 3; Bob has 3 (level 3)",
            "Bob fires: roll -1 + skill 3 + 2 - wound 1 = 3",
            "hit: base 3 + bonus 3 - armour 1 = 5; Adam has 5 (level 5)",
            "turn 2: initiative Bob 4, Adam 1: Bob is faster",
            "Adam attacks: roll 2 + skill 3 + 0 - wound 3 = 2",
            "Bob dodges: roll -1 + Physique 3 - penalties = 1",
            "hit: base 1 + bonus 3 - armour 1 = 3; Bob has 5 (level 5)",
            "Bob cannot walk: Physique check 1 to move: succeeds",
            "Bob withdraws out of melee range",
            "turn 3: initiative Bob 3, Adam 4 (critical): Adam is faster",
            "Adam throws: roll 2 + skill 3 + 0 - wound 3 = 2",
            "Bob dodges: botch: ineffective",
            "hit: base 2 + bonus 3 - armour 1 = 4; Bob has 8 (level 7)",
            "Bob is Mortally wounded and dies at the end of the turn",
        ];
        let mut from = 0;
        for step in steps {
            match story[from..].find(step) {
                Some(at) => from += at + step.len(),
                None => panic!("step not found in order: {step}\n{story}"),
            }
        }
        assert!(story.contains("Bob declares") || story.contains("Adam declares"));
        assert_eq!(tally.ends, [0, 1, 0], "Adam wins");
        assert_eq!(tally.dead, [1, 0], "Bob is dead");
        assert_eq!(tally.rounds.bins()[3], 1);
    }

    #[test]
    fn a_terminal_fighter_takes_no_action_and_is_out_of_the_fight() {
        // L30: "6) Terminal: Actions not possible." (dodges later in the turn: item 2)
        let model = ledger_model(
            fighter(WeaponKind::Melee, 3),
            fighter(WeaponKind::Melee, 3),
            3,
        );
        // Initiative a 4, b 3. a rolls 1: 4 undefended + 3 - 1 = 6: b is Terminal and makes
        // no attack (no die is left for one); the duel ends with the turn: a wins, b lives.
        let (tally, story) = ledger_duel(&model, ledger_fudge(&[1, 0, 1]));
        assert_eq!(tally.hit_damage_pooled().bins()[6], 1, "{story}");
        assert_eq!(tally.ends, [1, 0, 0], "{story}");
        assert_eq!(tally.dead, [0, 0], "{story}");
        assert_eq!(tally.rounds.bins()[1], 1);
    }

    #[test]
    fn a_mortal_wound_kills_at_the_end_of_the_turn() {
        // L31: "7) Mortal: Die at the end of the turn." L63: "Bob drops to the ground, dead."
        let model = ledger_model(
            fighter(WeaponKind::Melee, 3),
            fighter(WeaponKind::Melee, 3),
            3,
        );
        // Initiative a 4, b 3. a rolls 2: 5 undefended + 3 - 1 = 7: Mortal; b does not act,
        // and is dead when the turn ends.
        let (tally, story) = ledger_duel(&model, ledger_fudge(&[1, 0, 2]));
        assert_eq!(tally.hit_damage_pooled().bins()[7], 1, "{story}");
        assert_eq!(tally.ends, [1, 0, 0], "{story}");
        assert_eq!(tally.dead, [0, 1], "{story}");
        assert_eq!(tally.rounds.bins()[1], 1);
    }

    #[test]
    fn a_critical_success_wins_initiative_even_with_the_lower_total() {
        // L59: "Bob ends up with an initiative of 3 ... Adam rolls a 4 and scores a critical
        // success; he wins initiative." (In the example Adam's total, 4 + 3 - 3 = 4, beats 3
        // anyway; here the critical success has the lower total.)
        let a = fighter(WeaponKind::Melee, 3);
        let b = Fighter {
            initiative: -3,
            ..fighter(WeaponKind::Melee, 3)
        };
        let model = ledger_model(a, b, 1);
        // a: 0 + 3 = 3; b: 4 - 3 = 1, a critical success: b acts first. Both attacks roll -3:
        // 0, undefended: misses.
        let (tally, story) = ledger_duel(&model, ledger_fudge(&[0, 4, -3, -3]));
        crate::log::assert_in_order(&story, &["b attacks:", "a attacks:"]);
        assert_eq!(tally.ends, [0, 0, 1]);
    }

    #[test]
    fn initiative_tie_is_broken_by_a_d2_1_for_a_2_for_b() {
        // Item 7. The text has no tie rule (assumptions: "Ties in initiative: A d2.").
        let model = ledger_model(
            fighter(WeaponKind::Melee, 3),
            fighter(WeaponKind::Melee, 3),
            1,
        );
        for (initiative, d2, order) in [
            // 1 + 3 = 4 each: a tie; the d2 decides.
            ([1, 1], Some(1), ["a attacks:", "b attacks:"]),
            ([1, 1], Some(2), ["b attacks:", "a attacks:"]),
            // Two critical successes with equal totals (7 each): still a tie, still the d2.
            ([4, 4], Some(2), ["b attacks:", "a attacks:"]),
            ([4, 4], Some(1), ["a attacks:", "b attacks:"]),
            // No tie: no d2 is rolled (a die left over would fail the script check).
            ([1, 0], None, ["a attacks:", "b attacks:"]),
            ([-1, 0], None, ["b attacks:", "a attacks:"]),
        ] {
            let mut dice = ledger_fudge(&initiative);
            dice.extend(d2);
            // Both attacks roll -3: 0, undefended: misses; nobody is hurt.
            dice.extend(ledger_fudge(&[-3, -3]));
            let (tally, story) = ledger_duel(&model, dice);
            crate::log::assert_in_order(&story, &order);
            assert_eq!(tally.ends, [0, 0, 1], "{story}");
        }
    }
}
