//! The `guard-pierce` ruleset: black and white d20 against Guard (Hit and Full Hit), the damage
//! roll, Pierce against a Protection interval, Injury and Stun marked on a wound track with
//! penalties, dying and death, the Recover action, and the Injury recovery timeline with
//! infection.
//!
//! The rule text is `shared/rules/guard-pierce.txt`; every reading where it is silent is a
//! named parameter, listed with the sentence it rests on in `docs/rules/guard-pierce.md` (with
//! the rule ledger, which names the code and the tests of every sentence). The attack dice and
//! the attribute roll come from the two-d20 core shared with `twin-d20`. This module owns the
//! ruleset's schema, compiled fighters, duel and healing timeline; it does not read files or run
//! threads. Its files, by the parts of the text:
//!
//! - `schema.rs`: what a scenario writes (fighters, weapons, armour with its Protection interval,
//!   `[rules]`, `[healing]`, the documented parameters) and its compilation into [`Fighter`]s.
//! - `wound_track.rs`: "Marking Wounds", "The Immediate Effects" and "Death and Dying": the wound
//!   rows with their penalties, unable to act, dying and dead.
//! - `attack.rs`: "The attack roll", "Full hit", "The damage roll", armour (Coverage and the
//!   Protection interval) and the Recover action.
//! - `healing.rs`: the Injury recovery roll with infection and medical help.
//! - `exchange.rs`: one exchange for exact tables (`duelsim exact`).
//! - `skirmish.rs`: a fight of sides of several fighters (our design; the text has two).
//! - here: the compiled fighters and point, and the duel around the attacks (our design: who acts
//!   first, attack or Recover, the end of the fight), then "Death and Dying" after it (a dying
//!   fighter is dead in about an hour without medical attention, L48) and a minute's rest that
//!   clears all Stun (L53).

pub mod attack;
mod campaign;
pub mod exchange;
pub mod healing;
pub mod schema;
mod skirmish;
#[cfg(test)]
pub(crate) mod test_support;
pub mod wound_track;

use crate::dice::{Dice, Stream};

/// The purposes with their own dice stream (see `docs/rules/guard-pierce.md`, "Dice
/// streams"): each keyed by the fighter and the round, so a hit that rolls damage in one
/// variant and a miss in the other leave every later roll in step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Purpose {
    /// The d2 for who strikes first (fighter 0, round 0).
    FirstStrike = 1,
    /// The die that picks a foe at random, by the attacker and round.
    Target = 2,
    /// The black and white attack dice, by the attacker and round.
    Attack = 3,
    /// The damage roll of a hit, by the attacker and round.
    Damage = 4,
    /// A Stun weapon's separate Injury roll on a Full Hit, by the attacker and round.
    Injury = 5,
    /// The Recover action's Willpower roll, by the fighter and round.
    Recover = 6,
    /// The recovery (and Medical) rolls and infections of a healing timeline, by the fighter.
    Recovery = 7,
}

impl crate::dice::Purpose for Purpose {
    #[inline]
    fn code(self) -> u32 {
        self as u32
    }
}
use crate::log::Log;
use crate::rules::roster::{Blow, Enrolled, MAX_FIGHTERS, Roster};
use crate::rules::two_d20::{AttackRoll, HitFaces, highest_row};
use crate::rules::{Ruleset, alternate_rounds};
use crate::stats::{DuelOutcome, Extra, ExtraKind, Side, Tally, TallyShape};

pub use attack::Attack;
use attack::TurnTable;
pub use schema::{
    ArmourSpec, FighterSpec, File, Healing, Interval, Over20, PARAMETERS, Rules, WeaponSpec,
};
pub use wound_track::{DEFAULT_PENALTIES, Kind, Track, WoundRows};

/// The id scenarios use.
pub const ID: &str = "guard-pierce";

/// The ruleset's own counts in `summary.csv`.
pub const EXTRAS: &[Extra] = &[
    Extra {
        name: "a_dying",
        kind: ExtraKind::ShareOfSide(Side::A),
    },
    Extra {
        name: "b_dying",
        kind: ExtraKind::ShareOfSide(Side::B),
    },
    Extra {
        name: "died_dying",
        kind: ExtraKind::ShareOfTrials,
    },
    Extra {
        name: "infected",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "infections",
        kind: ExtraKind::MeanPerPatient,
    },
];
pub(super) const EXTRA_DYING: usize = 0;
pub(super) const EXTRA_DIED_DYING: usize = 2;
pub(super) const EXTRA_INFECTED: usize = 3;
pub(super) const EXTRA_INFECTIONS: usize = 4;

/// One fighter, compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fighter {
    /// Attack value with the weapon's bonus, before penalties.
    pub attack: i32,
    /// Guard with the armour's bonus, before penalties.
    pub guard: i32,
    /// Willpower.
    pub willpower: i32,
    /// Strength.
    pub strength: u32,
    /// The weapon's Damage.
    pub damage: u32,
    /// The weapon's Pierce.
    pub pierce: u32,
    /// Whether the weapon deals Stun.
    pub stun_weapon: bool,
    /// Armour Coverage (0 unarmoured).
    pub coverage: u32,
    /// Armour Protection interval.
    pub protection: Interval,
    /// Recover when the highest Stun is on this row or higher (0 never).
    pub recover_at: u32,
    /// The wound track.
    pub track: Track,
}

/// A compiled guard-pierce point.
#[derive(Clone, Debug)]
pub struct GuardPierce {
    /// The fighters, `a` then `b`.
    pub fighters: [Fighter; 2],
    /// Their names, for narration.
    pub names: [String; 2],
    /// The rules as set.
    pub rules: Rules,
    /// The healing settings.
    pub healing: Healing,
    /// Rounds before a draw.
    pub round_limit: u32,
    /// Whether a dying fighter is saved by attention in time.
    dying_saved: bool,
    /// Who fights on which side, named, with their target policies and turns.
    pub roster: Roster,
    /// Every fighter of both sides, by their places on the roster, side `a`'s first (a duel's
    /// are `fighters`); the places past the roster's are unused. Held in line, not behind a
    /// pointer: a duel's attack reads its two fighters at fixed places.
    members: [Fighter; MAX_FIGHTERS],
    /// A duel's fighters' hit faces by the row of the attacker's highest Wound (0: none), while
    /// wounds lower only the attack (`penalty_to_guard` off): found once here, read after
    /// every hit. Boxed, so a point stays small beside the other rulesets' in a
    /// `registry::Model`.
    hit_faces_by_row: Box<[[HitFaces; 64]; 2]>,
    /// A fight of several's fighters' halves of the hit faces by the row of their highest
    /// Wound, by place on the roster (none in a duel, which reads `hit_faces_by_row`).
    turn_tables: Box<[TurnTable]>,
}

/// Both sides' turns as their wounds make them: whether each Recovers, and its hit faces.
type Turns = [(bool, HitFaces); 2];

impl GuardPierce {
    /// Builds a point from compiled fighters and settings.
    pub fn new(
        fighters: [Fighter; 2],
        names: [String; 2],
        rules: Rules,
        healing: Healing,
        round_limit: u32,
    ) -> Self {
        let dying_saved =
            healing.attention && healing.attention_minutes.get() < rules.dying_minutes.get();
        // The attacker's highest Wound on `row`, the defender unhurt (its wounds count only
        // with `penalty_to_guard`, when the table is not read).
        let hit_faces_by_row = Box::new(Side::BOTH.map(|attacker| {
            let (atk, def) = (
                &fighters[attacker.index()],
                &fighters[attacker.other().index()],
            );
            std::array::from_fn(|row| attack::hit_faces_by_row(atk, def, &rules, row))
        }));
        // A duel reads the tables above; its fighters' turn tables serve a campaign's fight of
        // a side of one against a side of one, which runs as a fight of several.
        let turn_tables = fighters.iter().map(|f| TurnTable::new(f, &rules)).collect();
        GuardPierce {
            hit_faces_by_row,
            turn_tables,
            fighters,
            roster: Roster::duel(names.clone()),
            members: std::array::from_fn(|i| fighters[i.min(1)]),
            names,
            rules,
            healing,
            round_limit,
            dying_saved,
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
            Roster::new(members, rules.turn_order).with_attacker_limit(rules.max_attackers.u32());
        let (a, b) = (roster.team(Side::A), roster.team(Side::B));
        let mut point = GuardPierce::new(
            [fighters[a.start], fighters[b.start]],
            roster.side_names.clone(),
            rules,
            healing,
            round_limit,
        );
        point.turn_tables = fighters
            .iter()
            .map(|f| TurnTable::new(f, &point.rules))
            .collect();
        point.roster = roster;
        for (place, fighter) in point.members.iter_mut().zip(fighters) {
            *place = fighter;
        }
        point
    }

    /// The duel's rounds from the start, the fighter of index `FIRST` striking first in each
    /// and the other (`SECOND`, `1 - FIRST`, which a const generic cannot compute) after: the
    /// winner (none on a draw) and the rounds fought.
    #[inline(always)]
    fn rounds<const FIRST: usize, const SECOND: usize, D: Dice, L: Log>(
        &self,
        rows: &mut [WoundRows; 2],
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> (Option<Side>, u32) {
        // Each side's turn, Recover or attack on its hit faces, changes only with the wounds:
        // kept here, found again when a wound is marked or cleared.
        let mut turns = [self.turn(Side::A, rows), self.turn(Side::B, rows)];
        // The attack dice of the turn after, worked out at the start of each turn (by the fast
        // source only: `Dice::pair_ahead`), before its branches on a miss or a hit: when one
        // is mispredicted, the next turn's dice are not drawn again after it.
        let mut ahead = AttackRoll::ahead(dice, Stream::new(Purpose::Attack, FIRST, 1));
        alternate_rounds(self.round_limit, log, |round, log| {
            let state = (&mut turns, &mut ahead);
            self.turn_of::<FIRST, false, D, L>(round, state, rows, dice, log, tally)
                .or_else(|| {
                    let state = (&mut turns, &mut ahead);
                    self.turn_of::<SECOND, true, D, L>(round, state, rows, dice, log, tally)
                })
        })
    }

    /// The turn of the fighter of index `ACTOR` in `round` (the round's last when `LAST`):
    /// `None` while the duel goes on, `Some(winner)` once it ended (a fighter out of the fight,
    /// or scripted dice run out). `turns` are both sides' turns as the wounds make them, and
    /// `ahead` this turn's attack dice if worked out ahead; the next turn's replace them.
    #[inline(always)]
    fn turn_of<const ACTOR: usize, const LAST: bool, D: Dice, L: Log>(
        &self,
        round: u32,
        (turns, ahead): (&mut Turns, &mut Option<AttackRoll>),
        rows: &mut [WoundRows; 2],
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> Option<Option<Side>> {
        let actor = Side::BOTH[ACTOR];
        if dice.exhausted() {
            return Some(None);
        }
        // This turn's attack dice, if worked out ahead, and the next turn's: the other
        // fighter's, in this round or, after the round's last turn, the next.
        let next = Stream::new(Purpose::Attack, 1 - ACTOR, round + u32::from(LAST));
        let mine = std::mem::replace(ahead, AttackRoll::ahead(dice, next));
        let (recovers, faces) = turns[ACTOR];
        if recovers {
            dice.stream(Stream::new(Purpose::Recover, ACTOR, round));
            if self.recover_action(ACTOR, &mut rows[ACTOR], dice, log) {
                *turns = [self.turn(Side::A, rows), self.turn(Side::B, rows)];
            }
            return None;
        }
        let key = Stream::new(Purpose::Attack, ACTOR, round);
        dice.stream(key);
        let attack = self.attack_on(Blow::in_duel(actor), (faces, mine), key, rows, dice, log);
        if attack.hits == 0 {
            // A miss marks nothing: both fighters are as they were, in the fight.
            return None;
        }
        tally.record_hit(actor, attack.marked[0].max(attack.marked[1]), true);
        // Only the target's wounds changed: its own turn, and the attacker's hit faces only
        // when wound penalties lower the Guard too.
        turns[1 - ACTOR] = self.turn(Side::BOTH[1 - ACTOR], rows);
        if self.rules.penalty_to_guard {
            turns[ACTOR] = self.turn(actor, rows);
        }
        let target = rows[1 - ACTOR];
        let track = &self.fighters[1 - ACTOR].track;
        if !target.can_act(track) || target.dead(track) {
            log.say(|| {
                format!(
                    "{} is out of the fight: {} wins",
                    self.names[1 - ACTOR],
                    self.names[ACTOR]
                )
            });
            return Some(Some(actor));
        }
        None
    }

    /// What `side` does on its turn with these wounds: whether it takes the Recover action (its
    /// highest Stun at or above its `recover_at` row), and the faces its attack dice hit on.
    #[inline]
    fn turn(&self, side: Side, rows: &[WoundRows; 2]) -> (bool, HitFaces) {
        let me = &self.fighters[side.index()];
        let recovers = me.recover_at > 0 && highest_row(rows[side.index()].stun) >= me.recover_at;
        (recovers, self.duel_hit_faces(side, rows))
    }
}

impl Ruleset for GuardPierce {
    fn shape(&self) -> TallyShape {
        TallyShape {
            round_limit: self.round_limit,
            max_damage: 63,
            horizon_days: self.healing.horizon_days.u32(),
            extras: EXTRAS,
            sides: self.roster.sides.map(|n| n as u32),
        }
    }

    fn trial<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        if !self.roster.is_duel() {
            return self.fight(dice, log, tally);
        }
        let mut rows = [WoundRows::default(); 2];
        dice.stream(Stream::new(Purpose::FirstStrike, 0, 0));
        let first = self.rules.first_strike.roll(dice);
        log.say(|| format!("{} strikes first", self.names[first.index()]));
        // The rounds, with the first to strike fixed at compile time: each fighter's wounds,
        // turn and dice stream are then read from fixed places, not by a side found at run time.
        let (winner, rounds) = match first {
            Side::A => self.rounds::<0, 1, D, L>(&mut rows, dice, log, tally),
            Side::B => self.rounds::<1, 0, D, L>(&mut rows, dice, log, tally),
        };
        if winner.is_none() && !dice.exhausted() {
            log.say(|| format!("the round limit ({}) is reached: a draw", self.round_limit));
        }
        let mut dead = [false; 2];
        for side in Side::BOTH {
            let r = &mut rows[side.index()];
            let track = &self.fighters[side.index()].track;
            let killed = r.dead(track);
            let dying = !killed && r.dying(track);
            tally.record_extra(EXTRA_DYING + side.index(), u64::from(dying));
            let died_dying = dying && !self.dying_saved;
            tally.record_extra(EXTRA_DIED_DYING, u64::from(died_dying));
            dead[side.index()] = killed || died_dying;
            if dying {
                log.say(|| {
                    format!(
                        "{} is dying: {}",
                        self.names[side.index()],
                        if died_dying {
                            "no medical attention in time: dead"
                        } else {
                            "medical attention arrives in time"
                        }
                    )
                });
            } else if killed {
                log.say(|| format!("{} is dead", self.names[side.index()]));
            }
            // A minute's rest clears all Stun.
            r.stun = 0;
        }
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead: dead.map(u32::from),
        });
        for side in Side::BOTH {
            if !dead[side.index()] && rows[side.index()].injury != 0 {
                let mut infections = 0;
                dice.stream(Stream::new(Purpose::Recovery, side.index(), 0));
                let recovery =
                    self.recover(side.index(), rows[side.index()], dice, log, &mut infections);
                tally.record_recovery(side, &recovery);
                tally.record_extra(EXTRA_INFECTED, u64::from(infections > 0));
                tally.record_extra(EXTRA_INFECTIONS, infections);
            }
        }
    }
}

/// What the registry says of this ruleset.
const ABOUT: crate::rules::About = crate::rules::About {
    id: ID,
    summary: "two d20 vs Guard, Hit / Full Hit, damage roll, Pierce vs Protection interval, Stun and Injury rows, infection",
    recovery_deaths: true,
    impairment: false,
    parameters: PARAMETERS,
    listing_note: None,
    rules_page: include_str!("../../../docs/rules/guard-pierce.md"),
    hit_words: (
        "wound row marked",
        "armour deflected it or nothing was marked",
    ),
    hit_levels: None,
    examples: crate::rules::Examples {
        duel: "scenarios/guard-pierce/cudgel-vs-sword.toml",
        recovery: None,
        campaign: Some("scenarios/guard-pierce/duellists-night-watch.toml"),
        grid: Some("scenarios/guard-pierce/guard-table.toml"),
        starter: (
            "scenarios/guard-pierce/cudgel-vs-sword.toml",
            include_str!("../../../scenarios/guard-pierce/cudgel-vs-sword.toml"),
        ),
    },
};

crate::registered!(GuardPierce, ABOUT, crate::exact::walk);

#[cfg(test)]
mod tests {
    use super::test_support::{fighter, ledger_cudgel, ledger_healing, ledger_point};
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::FirstStrike;
    use crate::scenario::fields::Ranged;

    fn ledger_first(first_strike: FirstStrike) -> Rules {
        Rules {
            first_strike,
            ..Rules::default()
        }
    }

    /// One whole trial on scripted dice; every die must be used.
    fn ledger_trial(m: &GuardPierce, dice: &[u32]) -> (Tally, String) {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut tally = Tally::new(m.shape());
        let mut log = VecLog::default();
        m.trial(&mut scripted, &mut log, &mut tally);
        let story = log.lines.join("\n");
        assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
        assert_eq!(scripted.used(), dice.len(), "dice left over\n{story}");
        (tally, story)
    }

    #[test]
    fn the_dying_die_without_attention_in_time() {
        let mut a = fighter(14, 5, 15, 5);
        a.track = Track::default_sheet(5);
        let b = fighter(10, 5, 5, 5);
        for (attention, minutes, dead) in [(true, 30, false), (true, 60, true), (false, 0, true)] {
            let healing = Healing {
                attention,
                attention_minutes: Ranged::new(minutes),
                horizon_days: Ranged::new(1),
                ..Healing::default()
            };
            let rules = Rules {
                first_strike: FirstStrike::A,
                ..Rules::default()
            };
            let m = GuardPierce::new([a, b], ["a".into(), "b".into()], rules, healing, 40);
            // a hits (8, 20), damage roll on 15: 13, 14 -> 14: circled row, dying, can act.
            // b misses (1, 1). a hits again: 13 -> row 13 (not circled): out of the fight.
            let mut dice = ScriptedDice::new([8, 20, 13, 14, 1, 1, 8, 20, 13, 2]);
            let mut tally = Tally::new(m.shape());
            let mut log = VecLog::default();
            m.trial(&mut dice, &mut log, &mut tally);
            assert!(dice.finish().is_ok(), "{:?} {:?}", dice.error(), log.lines);
            assert_eq!(tally.ends, [1, 0, 0]);
            assert_eq!(tally.extra[EXTRA_DYING + 1], 1);
            assert_eq!(
                tally.dead[1],
                u64::from(dead),
                "attention {attention} at {minutes} minutes"
            );
        }
    }

    // Rule ledger tests (docs/rules/guard-pierce.md, "Rule ledger").

    #[test]
    fn too_much_stun_knocks_out_and_a_minutes_rest_clears_it_after_the_fight() {
        // L7: "Too much Stun knocks your character out". L44: "If you mark any Wound higher up
        // than your worst penalty, you're unable to act." L53: "If you rest for a minute, all
        // Stun clears."
        let m = ledger_point(
            ledger_cudgel(15, 2),
            fighter(10, 5, 5, 5),
            ledger_first(FirstStrike::A),
            Healing::default(),
            40,
        );
        // a: 8, 20 a Hit; Stun roll on 15: 13, 2 -> Stun on row 13, above the worst row 12:
        // b is out and never acts. After the fight the Stun clears: b is neither dying nor dead,
        // and has no Injury to recover from.
        let (tally, story) = ledger_trial(&m, &[8, 20, 13, 2]);
        assert_eq!(tally.ends, [1, 0, 0]);
        assert_eq!(tally.dead, [0, 0]);
        assert_eq!(tally.extra[EXTRA_DYING + 1], 0);
        assert_eq!(tally.recovery[1].patients, 0);
        assert!(!story.contains("b attacks a"), "{story}");
    }

    #[test]
    fn an_injury_5_rows_above_the_worst_is_dying_and_6_rows_above_is_dead() {
        // L48: "An Injury above the highest wound penalty means the character is dying and,
        // without medical attention, dead in about an hour." L49: "If an Injury is more than 5
        // rows above the highest wound penalty, the character is dead."
        // Attention arrives at 30 minutes (default): the dying are saved, the dead are not.
        let m = ledger_point(
            fighter(14, 5, 18, 5),
            fighter(10, 5, 5, 5),
            ledger_first(FirstStrike::A),
            ledger_healing(7, 1, 0),
            40,
        );
        // Damage roll on 18: 17, 2 -> Injury 17, 5 above row 12: dying, unable to act, saved.
        let (tally, story) = ledger_trial(&m, &[8, 20, 17, 2]);
        assert_eq!(tally.ends, [1, 0, 0]);
        assert_eq!(tally.dead, [0, 0]);
        assert_eq!(tally.extra[EXTRA_DYING + 1], 1);
        assert_eq!(tally.extra[EXTRA_DIED_DYING], 0);
        assert_eq!(tally.recovery[1].patients, 1);
        assert!(
            story.contains("b is dying: medical attention arrives in time"),
            "{story}"
        );
        // 18, 2 -> Injury 18, 6 above: dead, whatever the attention.
        let (tally, story) = ledger_trial(&m, &[8, 20, 18, 2]);
        assert_eq!(tally.dead, [0, 1]);
        assert_eq!(tally.extra[EXTRA_DYING + 1], 0);
        assert_eq!(tally.recovery[1].patients, 0);
        assert!(story.contains("b is dead"), "{story}");
    }

    #[test]
    fn first_strike_random_d2_of_2_lets_b_act_first_and_the_round_limit_draws() {
        // Design (assumptions, rules.first_strike = "random"): a d2 per duel, 2 is b; after
        // round_limit rounds a draw.
        let m = ledger_point(
            fighter(14, 5, 15, 5),
            fighter(14, 5, 15, 5),
            ledger_first(FirstStrike::Random),
            Healing::default(),
            1,
        );
        let (tally, story) = ledger_trial(&m, &[2, 1, 1, 1, 1]);
        assert_eq!(tally.ends, [0, 0, 1]);
        crate::log::assert_in_order(
            &story,
            &[
                "b strikes first",
                "b attacks a",
                "a attacks b",
                "the round limit (1) is reached: a draw",
            ],
        );
    }

    // ---- Item 7: parameters the text does not fix -------------------------------------------

    #[test]
    fn recover_at_spends_the_turn_on_recover_when_the_highest_stun_reaches_that_row() {
        // L53: "The Action "Recover" requires your character be able to act. Roll Willpower,
        // taking your penalties into account. A success clears your highest Stun." Design
        // (assumptions, recover_at): Recover instead of attacking when the highest Stun is on
        // that row or higher.
        let with = |recover_at: u32| {
            let mut a = fighter(14, 5, 5, 5);
            a.recover_at = recover_at;
            ledger_point(
                a,
                ledger_cudgel(12, 2),
                ledger_first(FirstStrike::B),
                ledger_healing(7, 1, 0),
                1,
            )
        };
        // b: 8, 20 a Hit; Stun roll on 12: 10, 15 -> Stun on a's row 10 (penalty 5).
        // recover_at 9: 10 >= 9: a Recovers: Willpower 10 - 5 = 5: 3, 15 -> 3: the Stun clears.
        let (tally, story) = ledger_trial(&with(9), &[8, 20, 10, 15, 3, 15]);
        assert_eq!(tally.ends, [0, 0, 1]);
        assert!(
            story.contains("a uses Recover: Willpower 5: 3 success, Stun on row 10 clears"),
            "{story}"
        );
        assert!(!story.contains("a attacks b"), "{story}");
        // recover_at 11: 10 < 11: a attacks with value 14 - 5 = 9 (1, 1: a miss).
        let (tally, story) = ledger_trial(&with(11), &[8, 20, 10, 15, 1, 1]);
        assert_eq!(tally.ends, [0, 0, 1]);
        assert!(
            story.contains("a attacks b: value 9 (penalty 5) vs Guard 5"),
            "{story}"
        );
        assert!(!story.contains("uses Recover"), "{story}");
    }

    #[test]
    fn a_wound_changes_the_hit_faces_of_the_attacks_after_it_in_the_duel() {
        // L40: "Most of your combat actions and more athletic undertakings suffer the penalty of
        // the highest Wound you've sustained." The duel keeps each side's hit faces between
        // attacks, so they must follow every wound. b strikes first:
        // 8, 20 a Hit; Stun roll on 12: 10, 15 -> Stun on a's row 10 (penalty 5). a's 12, 12
        // hits on 14 but not on 14 - 5 = 9: a miss.
        let point = |rules: Rules| {
            ledger_point(
                fighter(14, 5, 5, 5),
                ledger_cudgel(12, 2),
                rules,
                ledger_healing(7, 1, 0),
                1,
            )
        };
        let (_, story) = ledger_trial(
            &point(ledger_first(FirstStrike::B)),
            &[8, 20, 10, 15, 12, 12],
        );
        assert!(story.contains("black 12 white 12: miss"), "{story}");
        // With the penalty to Guard too (assumptions, rules.penalty_to_guard), a's wound lowers
        // its Guard 5 by 5: b's 1, 1 in round 2 is a Full Hit on Guard 0 (damage roll on 17:
        // 4, 15 -> Stun on row 15; the separate Injury roll on 12: 3, 3 -> Injury on row 3),
        // and a is out of the fight.
        let rules = Rules {
            penalty_to_guard: true,
            ..ledger_first(FirstStrike::B)
        };
        let mut two_rounds = point(rules);
        two_rounds.round_limit = 2;
        let (_, story) = ledger_trial(&two_rounds, &[8, 20, 10, 15, 12, 12, 1, 1, 4, 15, 3, 3]);
        crate::log::assert_in_order(
            &story,
            &[
                "black 12 white 12: miss",
                "b attacks a: value 14 (penalty 0) vs Guard 0",
                "black 1 white 1: Full Hit",
            ],
        );
    }
}
