//! The `d6-pool` ruleset: a pool of d6 to attack (the average of ATTACK and WEAPON skill, the
//! Throw Bonus, Berserk, Defensively, Luck dice), the highest-die attack table (whiff, damage,
//! Stun, the 6s needed to block), the defence dice by "the first rule that applies", Critical
//! Strikes and their critical damage dice, and the luck, ammo and heal pools.
//!
//! The rule text (`shared/rules/d6-pool.txt`) is a character sheet: it has no health track, no
//! Critical Damage Table, no healing rule and no fight around the attacks. Each of those is our
//! design, a named parameter listed with the sentence it rests on in `docs/rules/d6-pool.md`
//! (which also holds the rule ledger). The ruleset does not read files or run threads.
//!
//! This file holds the compiled model ([`D6Pool`], [`Fighter`], [`State`]) and the duel (the
//! `Ruleset` impl, our design): the first striker, one attack each in turn, out of the fight
//! and dead on the health track, a draw at the round limit, then the heal dice for every
//! survivor. The rest, by the sheet's words:
//!
//! - `schema.rs`: what a scenario writes (fighters, weapons, armour, `[rules]`, `[healing]`,
//!   every parameter with its default) and its compilation into the flat fighters.
//! - `attack.rs`: "How many dice to roll when attacking", and one attack through the table's
//!   two steps: the Luck and Ammo spent, the block, the Critical Strike's damage dice, the stun.
//! - `attack_table.rs`: the "Attack Table": the column of a roll, its damage, Stun and block.
//! - `block.rs`: the DEFENSE roll and "Use the first rule that applies".
//! - `healing.rs`: the "Heal Dice" after the fight.
//! - `exchange.rs`: one exchange for exact tables (`duelsim exact`).
//! - `skirmish.rs`: a fight of sides of several fighters (our design: the sheet has one
//!   opponent).

pub mod attack;
pub mod attack_table;
pub mod block;
mod campaign;
pub mod exchange;
pub mod healing;
pub mod schema;
mod skirmish;

#[cfg(test)]
mod test_support;

use crate::dice::{Dice, Stream};

/// The purposes with their own dice stream (see `docs/rules/d6-pool.md`, "Dice streams"):
/// each keyed by the attacker and the round, so one more ATTACK or PARRY die moves no other
/// roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Purpose {
    /// The d2 for who strikes first (fighter 0, round 0).
    FirstStrike = 1,
    /// The die that picks a foe at random, by the attacker and round.
    Target = 2,
    /// The attack dice, by the attacker and round.
    Attack = 3,
    /// The Luck dice rolled with the attack, by the attacker and round.
    Luck = 4,
    /// The defender's dice against the attack, by the attacker and round.
    Defence = 5,
    /// A Critical Strike's damage dice, by the attacker and round.
    Critical = 6,
    /// The heal dice of a healing timeline, by the fighter.
    Heal = 7,
}

impl crate::dice::Purpose for Purpose {
    #[inline]
    fn code(self) -> u32 {
        self as u32
    }
}
use crate::log::Log;
use crate::rules::roster::{Enrolled, MAX_FIGHTERS, Roster};
use crate::rules::{Ruleset, alternate_rounds};
use crate::stats::{DuelOutcome, Extra, ExtraKind, Side, Tally, TallyShape};

/// The id scenarios use.
pub const ID: &str = "d6-pool";

pub use attack::{Attack, Blow};
pub use attack_table::{AttackTable, COLUMNS, CRITICAL, WHIFF, column};
pub use block::{DEFENCE_RULES, DefenceDice, DefenceRule, Standing, defence_rule};
pub use schema::{
    ArmourSpec, Class, CritDamage, FighterSpec, File, Healing, PARAMETERS, ParryAgainst, Rules,
    Stance, WeaponSpec,
};

/// The ruleset's own counts in `summary.csv`.
pub const EXTRAS: &[Extra] = &[
    Extra {
        name: "criticals",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "blocks",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "whiffs",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "stuns",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "luck_spent",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "ammo_spent",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "heal_dice_spent",
        kind: ExtraKind::MeanPerPatient,
    },
];
pub(super) const EXTRA_CRITICALS: usize = 0;
const EXTRA_BLOCKS: usize = 1;
pub(super) const EXTRA_WHIFFS: usize = 2;
const EXTRA_STUNS: usize = 3;
const EXTRA_LUCK: usize = 4;
const EXTRA_AMMO: usize = 5;
// An attack's counts are recorded together (`Tally::record_extras`).
const _: () = assert!(
    crate::stats::consecutive(&[
        EXTRA_CRITICALS,
        EXTRA_BLOCKS,
        EXTRA_WHIFFS,
        EXTRA_STUNS,
        EXTRA_LUCK,
        EXTRA_AMMO
    ]),
    "an attack's counts are consecutive"
);
pub(super) const EXTRA_HEAL: usize = 6;

/// A weapon in a fighter's hand, compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weapon {
    /// Attack dice with it: (ATTACK + WEAPON skill) / 2, rounded down.
    pub dice: u32,
    /// Critical damage dice its class adds.
    pub class_dice: u32,
    /// Its Crit Bonus.
    pub crit_bonus: i32,
    /// Thrown (it has a Throw Bonus) rather than shot or swung.
    pub thrown: bool,
    /// Its Throw Bonus (0 when not thrown).
    pub throw_bonus: u32,
}

/// One fighter, compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fighter {
    /// The melee weapon.
    pub melee: Weapon,
    /// The missile, used while ammunition lasts.
    pub missile: Option<Weapon>,
    /// Ammunition at the start.
    pub ammo: u32,
    /// ARMOR dice.
    pub armor: u32,
    /// SHIELD dice.
    pub shield: u32,
    /// PARRY/DODGE dice.
    pub parry: u32,
    /// Full health.
    pub health: i32,
    /// Luck dice at the start.
    pub luck: u32,
    /// Heal dice at the start.
    pub heal: u32,
    /// The declared stance.
    pub stance: Stance,
    /// Luck dice declared per attack.
    pub luck_per_attack: u32,
    /// Luck dice are declared only at this health or below.
    pub luck_at_health: i32,
}

/// A fighter's state during the duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Current health.
    pub health: i32,
    /// Luck dice left.
    pub luck: u32,
    /// Ammunition left.
    pub ammo: u32,
    /// What the defence rules look at.
    pub standing: Standing,
}

impl State {
    /// A fighter's state at the start of the duel.
    pub fn start(f: &Fighter) -> Self {
        State {
            health: f.health,
            luck: f.luck,
            ammo: f.ammo,
            standing: Standing::default(),
        }
    }
}

/// A compiled d6-pool point.
#[derive(Clone, Debug)]
pub struct D6Pool {
    /// The fighters, `a` then `b`.
    pub fighters: [Fighter; 2],
    /// Their names, for narration.
    pub names: [String; 2],
    /// The rules as set.
    pub rules: Rules,
    /// The attack table compiled from the rules.
    pub table: AttackTable,
    /// The healing settings.
    pub healing: Healing,
    /// Rounds before a draw.
    pub round_limit: u32,
    /// Who fights on which side, named, with their target policies and turns.
    pub roster: Roster,
    /// Every fighter of both sides, by their places on the roster, side `a`'s first (a duel's
    /// are `fighters`); the places past the roster's are unused. Held in line, not behind a
    /// pointer: a duel's attack reads its two fighters at fixed places.
    members: [Fighter; MAX_FIGHTERS],
}

impl D6Pool {
    /// Builds a point from compiled fighters and settings.
    pub fn new(
        fighters: [Fighter; 2],
        names: [String; 2],
        rules: Rules,
        healing: Healing,
        round_limit: u32,
    ) -> Self {
        D6Pool {
            fighters,
            roster: Roster::duel(names.clone()),
            members: std::array::from_fn(|i| fighters[i.min(1)]),
            names,
            table: AttackTable::new(&rules),
            rules,
            healing,
            round_limit,
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
        let mut point = D6Pool::new(
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
}

/// Counts one attack of a fighter of `side`: the hit and the attack's own counts.
#[inline]
pub(super) fn record_attack(tally: &mut Tally, side: Side, attack: &Attack) {
    tally.record_hit(side, attack.damage.max(0) as u32, attack.column != WHIFF);
    // An attack's counts: EXTRA_CRITICALS, EXTRA_BLOCKS, EXTRA_WHIFFS, EXTRA_STUNS,
    // EXTRA_LUCK, EXTRA_AMMO, in that order.
    tally.record_extras(
        EXTRA_CRITICALS,
        [
            u64::from(attack.column == CRITICAL),
            u64::from(attack.blocked),
            u64::from(attack.column == WHIFF),
            u64::from(attack.stunned),
            u64::from(attack.luck),
            u64::from(attack.missile),
        ],
    );
}

impl D6Pool {
    /// The duel's rounds from the start, the fighter of index `FIRST` striking first in each
    /// and the other (`SECOND`, `1 - FIRST`, which a const generic cannot compute) after: the
    /// winner (none on a draw) and the rounds fought.
    #[inline(always)]
    fn rounds<const FIRST: usize, const SECOND: usize, D: Dice, L: Log>(
        &self,
        states: &mut [State; 2],
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> (Option<Side>, u32) {
        alternate_rounds(self.round_limit, log, |round, log| {
            self.turn_of::<FIRST, D, L>(round, states, dice, log, tally)
                .or_else(|| self.turn_of::<SECOND, D, L>(round, states, dice, log, tally))
        })
    }

    /// The turn of the fighter of index `ACTOR` in `round`: `None` while the duel goes on,
    /// `Some(winner)` once it ended (the foe out of the fight, or scripted dice run out).
    #[inline(always)]
    fn turn_of<const ACTOR: usize, D: Dice, L: Log>(
        &self,
        round: u32,
        states: &mut [State; 2],
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> Option<Option<Side>> {
        if dice.exhausted() {
            return Some(None);
        }
        let actor = Side::BOTH[ACTOR];
        if self.rules.stun_loses_attack && states[ACTOR].standing.stunned {
            log.say(|| format!("{} is stunned and loses its attack", self.names[ACTOR]));
            states[ACTOR].standing = Standing {
                stunned: true,
                ..Standing::default()
            };
            return None;
        }
        let key = Stream::new(Purpose::Attack, ACTOR, round);
        dice.stream(key);
        let blow = Blow {
            attacker: ACTOR,
            defender: 1 - ACTOR,
        };
        let attack = self.attack(blow, key, states, dice, log);
        record_attack(tally, actor, &attack);
        let foe = 1 - ACTOR;
        if states[foe].health <= self.rules.out_at.i32() {
            log.say(|| {
                format!(
                    "{} is out of the fight at health {}: {} wins",
                    self.names[foe], states[foe].health, self.names[ACTOR]
                )
            });
            return Some(Some(actor));
        }
        None
    }
}

impl Ruleset for D6Pool {
    fn shape(&self) -> TallyShape {
        TallyShape {
            round_limit: self.round_limit,
            max_damage: 40,
            horizon_days: self.healing.horizon_days.u32(),
            extras: EXTRAS,
            sides: self.roster.sides.map(|n| n as u32),
        }
    }

    fn trial<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        if !self.roster.is_duel() {
            return self.fight(dice, log, tally);
        }
        let mut states = [
            State::start(&self.fighters[0]),
            State::start(&self.fighters[1]),
        ];
        dice.stream(Stream::new(Purpose::FirstStrike, 0, 0));
        let first = self.rules.first_strike.roll(dice);
        log.say(|| format!("{} strikes first", self.names[first.index()]));
        // The rounds, with the first to strike fixed at compile time: each fighter's state and
        // dice stream are then read from fixed places, not by a side found at run time.
        let (winner, rounds) = match first {
            Side::A => self.rounds::<0, 1, D, L>(&mut states, dice, log, tally),
            Side::B => self.rounds::<1, 0, D, L>(&mut states, dice, log, tally),
        };
        if winner.is_none() && !dice.exhausted() {
            log.say(|| format!("the round limit ({}) is reached: a draw", self.round_limit));
        }
        let dead_at = self.rules.dead_at.i32();
        let dead = states.map(|s| s.health <= dead_at);
        for side in Side::BOTH {
            if dead[side.index()] {
                log.say(|| {
                    format!(
                        "{} is dead at health {}",
                        self.names[side.index()],
                        states[side.index()].health
                    )
                });
            }
        }
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead: dead.map(u32::from),
        });
        for side in Side::BOTH {
            let i = side.index();
            if !dead[i] && states[i].health < self.fighters[i].health {
                let heal = self.fighters[i].heal;
                dice.stream(Stream::new(Purpose::Heal, i, 0));
                let (recovery, spent) = self.recover(i, states[i].health, heal, dice, log);
                tally.record_recovery(side, &recovery);
                tally.record_extra(EXTRA_HEAL, u64::from(spent));
            }
        }
    }
}

/// What the registry says of this ruleset.
const ABOUT: crate::rules::About = crate::rules::About {
    id: ID,
    summary: "d6 attack pool, highest-die attack table, blocking with 6s, criticals, luck, heal and ammo pools",
    recovery_deaths: false,
    impairment: false,
    parameters: PARAMETERS,
    listing_note: None,
    rules_page: include_str!("../../../docs/rules/d6-pool.md"),
    hit_words: ("damage dealt", "blocked"),
    hit_levels: None,
    examples: crate::rules::Examples {
        duel: "scenarios/d6-pool/berserker-vs-shieldwall.toml",
        recovery: None,
        campaign: Some("scenarios/d6-pool/berserkers-raid.toml"),
        grid: None,
        starter: (
            "scenarios/d6-pool/berserker-vs-shieldwall.toml",
            include_str!("../../../scenarios/d6-pool/berserker-vs-shieldwall.toml"),
        ),
    },
};

crate::registered!(D6Pool, ABOUT, crate::exact::walk);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FastDice;
    use crate::log::NoLog;
    use crate::rules::FirstStrike;
    use crate::rules::d6_pool::test_support::{
        a_first, bare, compiled, fighter, model, model_with, run,
    };

    #[test]
    fn the_health_track_out_of_the_fight_at_zero_dead_at_minus_five() {
        let b = Fighter {
            health: 3,
            ..bare()
        };
        // Double 6: 3 damage: health 0: out of the fight, alive; no heal dice: unhealed.
        let m = model_with(fighter(), b, a_first(), Healing::default());
        let (t, log) = run(&m, &[6, 6, 1]);
        assert_eq!((t.ends, t.dead), ([1, 0, 0], [0, 0]), "{log:?}");
        assert_eq!((t.recovery[1].patients, t.recovery[1].unhealed), (1, 1));
        // One 5 first: 2 damage, health 1, still fighting; b whiffs; then a Critical: three 6s,
        // critical dice 1 + 1 + 1: 3 + 3 = 6 damage: health -5: dead.
        let (t, log) = run(&m, &[5, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 1]);
        assert_eq!(
            (t.ends, t.dead, t.rounds.bins()[2]),
            ([1, 0, 0], [0, 1], 1),
            "{log:?}"
        );
        assert_eq!(t.recovery[1].patients, 0, "the dead do not heal");
        assert_eq!(t.extra[EXTRA_CRITICALS], 1);
        // One 4 first (health 2), then the same Critical: 6 damage: health -4: out, alive;
        // with a critical die showing 2 instead: 7 damage: health -5: dead.
        let (t, log) = run(&m, &[4, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 1]);
        assert_eq!((t.ends, t.dead), ([1, 0, 0], [0, 0]), "{log:?}");
        let (t, log) = run(&m, &[4, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 2]);
        assert_eq!(t.dead, [0, 1], "{log:?}");
    }

    #[test]
    fn the_duel_alternates_from_the_first_striker_and_is_a_draw_at_the_round_limit() {
        let rules = Rules {
            first_strike: FirstStrike::B,
            ..Rules::default()
        };
        let mut m = model_with(fighter(), fighter(), rules, Healing::default());
        m.round_limit = 2;
        // b, a, b, a: all whiffs: a draw after 2 rounds, nobody hurt.
        let (t, log) = run(&m, &[1; 12]);
        assert_eq!(
            (t.ends, t.rounds.bins()[2], t.extra[EXTRA_WHIFFS]),
            ([0, 0, 1], 1, 4)
        );
        assert!(log[0].starts_with("b strikes first"), "{log:?}");
        assert!(log.iter().any(|l| l.contains("a draw")));
        // Random: the d2 picks (2 = b).
        let mut r = model(fighter(), fighter());
        r.round_limit = 1;
        let (_, log) = run(&r, &[2, 1, 1, 1, 1, 1, 1]);
        assert!(log[0].starts_with("b strikes first"), "{log:?}");
    }

    #[test]
    fn a_stunned_fighter_loses_its_attack_when_the_rule_is_set() {
        let rules = Rules {
            stun_loses_attack: true,
            ..a_first()
        };
        let mut m = model_with(fighter(), bare(), rules, Healing::default());
        m.round_limit = 2;
        // a: double 4 stuns b (1 damage); b loses its attack; a whiffs (the stun ends);
        // b attacks (whiff).
        let (t, log) = run(&m, &[4, 4, 1, 1, 1, 1, 1, 1, 1]);
        assert!(
            log.iter()
                .any(|l| l.contains("b is stunned and loses its attack")),
            "{log:?}"
        );
        assert_eq!((t.ends, t.extra[EXTRA_STUNS]), ([0, 0, 1], 1));
    }

    #[test]
    fn the_shipped_scenarios_compile_and_run() {
        for text in [
            include_str!("../../../scenarios/d6-pool/berserker-vs-shieldwall.toml"),
            include_str!("../../../scenarios/d6-pool/javelineer-vs-brawler.toml"),
        ] {
            let m = compiled(text);
            let mut tally = Tally::new(m.shape());
            for trial in 0..2000 {
                let mut dice = FastDice::seed_from_u64(crate::engine::trial_seed(5, trial));
                m.trial(&mut dice, &mut NoLog, &mut tally);
            }
            assert_eq!(tally.trials, 2000);
            assert_eq!(tally.ends.iter().sum::<u64>(), 2000);
            assert!(
                tally.wins(Side::A) > 0 && tally.wins(Side::B) > 0,
                "{:?}",
                tally.ends
            );
        }
    }
}
