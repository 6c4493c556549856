//! The `twin-d20` ruleset: black and white d20 against Defense, damage from the dice,
//! Coverage/Protection armour, wound circles against Toughness, the Aftermath, and the healing
//! timeline of Recovery rolls helped by Medicine.
//!
//! The rule text (`shared/rules/twin-d20.txt`) describes one attack and the time after the
//! battle; the duel around the attacks is our design, written down with every other reading in
//! `docs/rules/twin-d20.md` (with the rule ledger, which names the code and the tests of every
//! sentence). The attack dice and the attribute roll come from the two-d20 core shared with
//! `guard-pierce`. This module owns the scenario schema of the ruleset, its compiled fighters,
//! the duel and the healing timeline. It does not read files or run threads. Its files, by the
//! parts of the text (its line numbers):
//!
//! - `schema.rs`: what a scenario writes (fighters with their stance, weapons, armour with
//!   Coverage and Protection, `[rules]`, `[healing]`, the documented parameters) and its
//!   compilation into [`Fighter`]s.
//! - `attack.rs`: the damage of one attack (L1–L7: one die or both dice hit) and armour (L10).
//! - `wound_circles.rs`: the Wounds section of the sheet (L13): marking a circle, the nearest
//!   empty circle above, lowering the highest Wound.
//! - `aftermath.rs`: the Aftermath (L15): the circle above the most severe Wound, death.
//! - `healing.rs`: Recovery rolls (L18–L20) and Medicine ("Using Medicine", L22–L24).
//! - `exchange.rs`: one exchange for exact tables (`duelsim exact`).
//! - `skirmish.rs`: tests of a side of several fighters (our design; whom each attacks is the
//!   shared roster's, `crate::rules::roster`).
//! - here: the compiled fighters and point with their tables, and the duel around the attacks
//!   (our design: who strikes first, rounds, incapacitation above Toughness (L13), the end, the
//!   Aftermath and healing of both fighters).

pub mod aftermath;
pub mod attack;
mod campaign;
pub mod exchange;
pub mod healing;
pub mod schema;
#[cfg(test)]
mod skirmish;
#[cfg(test)]
pub(crate) mod test_support;
pub mod wound_circles;

use crate::dice::{Dice, Stream};

/// The purposes with their own dice stream (see `docs/rules/twin-d20.md`, "Dice streams"):
/// each keyed by the fighter and the round, so a change that alters one roll's dice moves no
/// other roll's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum Purpose {
    /// The d2 for who strikes first (fighter 0, round 0).
    FirstStrike = 1,
    /// The die that picks a foe at random, by the attacker and round.
    Target = 2,
    /// The black and white attack dice, by the attacker and round.
    Attack = 3,
    /// The Recovery (and Medicine) rolls of a healing timeline, by the fighter.
    Recovery = 4,
}

impl crate::dice::Purpose for Purpose {
    #[inline]
    fn code(self) -> u32 {
        self as u32
    }
}
use crate::log::Log;
use crate::rules::two_d20::HitFaces;
use crate::rules::{Ruleset, alternate_rounds};
use crate::stats::{DuelOutcome, Side, Tally, TallyShape};
use healing::HealingPlan;

use crate::rules::roster::{Enrolled, Pick, Roster};
use crate::rules::rounds::{Field, Turn, fight_in_rounds};
use crate::scenario::schema::Target;
pub use attack::Strike;
pub use schema::{
    ArmourSpec, FighterSpec, File, Healing, PARAMETERS, Rules, Stance, TurnOrder, WeaponSpec,
};
pub use wound_circles::WoundCircles;

/// The id scenarios use.
pub const ID: &str = "twin-d20";

/// One fighter, compiled: flat numbers only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fighter {
    /// Attack after weapon and stance.
    pub attack: i32,
    /// Defense after armour and stance.
    pub defense: i32,
    /// Toughness.
    pub toughness: u32,
    /// The weapon's Damage.
    pub damage: u32,
    /// The armour's Coverage (0 when unarmoured).
    pub coverage: u32,
    /// The armour's Protection.
    pub protection: u32,
}

/// A compiled twin-d20 point: every fighter of both sides and every table the fight uses.
///
/// Fighters are numbered side `a`'s first, then side `b`'s; in a duel fighter 0 is `a` and
/// fighter 1 is `b`, so a side of one against a side of one is the duel, die for die.
#[derive(Clone, Debug)]
pub struct TwinD20 {
    /// Every fighter, side `a`'s first.
    pub fighters: Vec<Fighter>,
    /// Each side's name: its fighter's for a side of one, else its fighters' names together.
    pub names: [String; 2],
    /// Who fights on which side, named, with their target policies and turns.
    pub roster: Roster,
    /// `hit_faces[attacker * n + defender]`: the faces with which one fighter hits another.
    hit_faces: Vec<HitFaces>,
    /// Damage bonus when one die hits, by the face of the die that missed.
    one_die_bonus: [u32; 32],
    /// Damage bonus when both hit, by the difference between the dice.
    both_dice_bonus: [u32; 32],
    /// The rules as set.
    pub rules: Rules,
    /// `rules.wound_circles`, read on every hit.
    circles: u32,
    /// Per fighter: the Aftermath kills a fighter whose marked circle is above this.
    death_above: Vec<u32>,
    /// The healing settings as flat numbers.
    plan: HealingPlan,
    /// The healing settings.
    pub healing: Healing,
    /// Rounds before the duel is called a draw.
    pub round_limit: u32,
}

/// One fighter of a skirmish as compiled: its side, numbers, name and target policy.
#[derive(Clone, Debug)]
pub struct Member {
    /// Its side.
    pub side: Side,
    /// Its numbers.
    pub fighter: Fighter,
    /// Its name ("Brigand 2").
    pub name: String,
    /// Whom it attacks.
    pub target: Target,
}

impl TwinD20 {
    /// Builds the compiled point of a duel from its two fighters and settings.
    pub fn new(
        fighters: [Fighter; 2],
        names: [String; 2],
        rules: Rules,
        healing: Healing,
        round_limit: u32,
    ) -> Self {
        let [a, b] = fighters;
        let [na, nb] = names;
        let member = |side, fighter, name| Member {
            side,
            fighter,
            name,
            target: Target::default(),
        };
        TwinD20::skirmish(
            vec![member(Side::A, a, na), member(Side::B, b, nb)],
            rules,
            healing,
            round_limit,
        )
    }

    /// Builds the compiled point of a fight between two sides of one or more fighters each
    /// (`members` in order, side `a`'s first).
    pub fn skirmish(
        members: Vec<Member>,
        rules: Rules,
        healing: Healing,
        round_limit: u32,
    ) -> Self {
        let fighters: Vec<Fighter> = members.iter().map(|m| m.fighter).collect();
        let n = fighters.len();
        let mut hit_faces = Vec::with_capacity(n * n);
        for attacker in &fighters {
            for defender in &fighters {
                hit_faces.push(HitFaces::new(
                    defender.defense,
                    attacker.attack,
                    rules.hit_on_defense,
                ));
            }
        }
        let mut one_die_bonus = [0; 32];
        for (face, bonus) in one_die_bonus.iter_mut().enumerate() {
            *bonus = match face % 10 {
                0 => rules.zero_digit_counts.u32(),
                digit => digit as u32,
            };
        }
        let mut both_dice_bonus = [0; 32];
        for (difference, bonus) in both_dice_bonus.iter_mut().enumerate() {
            *bonus = if difference as u32 >= rules.big_difference.u32() {
                rules.big_difference_bonus.u32()
            } else {
                2 * difference as u32
            };
        }
        let roster = Roster::new(
            &members
                .iter()
                .map(|m| Enrolled {
                    side: m.side,
                    name: m.name.clone(),
                    target: m.target,
                })
                .collect::<Vec<_>>(),
            rules.turn_order,
        )
        .with_attacker_limit(rules.max_attackers.u32());
        TwinD20 {
            circles: rules.wound_circles.u32(),
            death_above: fighters
                .iter()
                .map(|f| f.toughness + rules.death_margin.u32())
                .collect(),
            plan: HealingPlan::new(&healing),
            names: roster.side_names.clone(),
            roster,
            hit_faces,
            fighters,
            one_die_bonus,
            both_dice_bonus,
            rules,
            healing,
            round_limit,
        }
    }

    /// The same point with other healing settings.
    pub fn with_healing(self, healing: Healing) -> Self {
        let members = (self.roster.members().into_iter().zip(self.fighters))
            .map(|(m, fighter)| Member {
                side: m.side,
                fighter,
                name: m.name,
                target: m.target,
            })
            .collect();
        TwinD20::skirmish(members, self.rules, healing, self.round_limit)
    }

    /// A duel: fighter 0 (`a`) and fighter 1 (`b`) strike each other in turn, the same dice
    /// and the same story as [`TwinD20::fight`] gives a side of one against a side of one
    /// (`tests/skirmish.rs` holds them to the same bytes).
    #[inline]
    fn duel<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        let mut wounds = [WoundCircles::default(); 2];
        dice.stream(Stream::new(Purpose::FirstStrike, 0, 0));
        let first = self.rules.first_strike.roll(dice);
        log.say(|| format!("{} strikes first", self.names[first.index()]));
        // The rounds, with the first to strike fixed at compile time: each turn's fighters,
        // wounds and dice stream are then read from fixed places, not by a side found at run time.
        let (winner, rounds) = match first {
            Side::A => self.rounds::<0, 1, D, L>(&mut wounds, dice, log, tally),
            Side::B => self.rounds::<1, 0, D, L>(&mut wounds, dice, log, tally),
        };
        if winner.is_none() && !dice.exhausted() {
            log.say(|| format!("the round limit ({}) is reached: a draw", self.round_limit));
        }
        let mut dead = [false; 2];
        for side in Side::BOTH {
            dead[side.index()] = self.aftermath_of(side.index(), &mut wounds[side.index()], log);
        }
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead: dead.map(u32::from),
        });
        for side in Side::BOTH {
            if !dead[side.index()] && wounds[side.index()].any() {
                let recovery = self.recover_of(side.index(), wounds[side.index()], dice, log);
                tally.record_recovery(side, &recovery);
            }
        }
    }

    /// The duel's rounds, the fighter of index `FIRST` striking first in each and the other
    /// (`SECOND`, `1 - FIRST`, which a const generic cannot compute) after: the winner (none
    /// on a draw) and the rounds fought.
    #[inline(always)]
    fn rounds<const FIRST: usize, const SECOND: usize, D: Dice, L: Log>(
        &self,
        wounds: &mut [WoundCircles; 2],
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> (Option<Side>, u32) {
        alternate_rounds(self.round_limit, log, |round, log| {
            self.turn_of::<FIRST, D, L>(round, wounds, dice, log, tally)
                .or_else(|| self.turn_of::<SECOND, D, L>(round, wounds, dice, log, tally))
        })
    }

    /// The strike of the fighter of index `ACTOR` at the other in `round`: `None` while the
    /// duel goes on, `Some(winner)` once it ended (the defender incapacitated, or scripted dice
    /// run out).
    #[inline(always)]
    fn turn_of<const ACTOR: usize, D: Dice, L: Log>(
        &self,
        round: u32,
        wounds: &mut [WoundCircles; 2],
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> Option<Option<Side>> {
        if dice.exhausted() {
            return Some(None);
        }
        let attacker = Side::BOTH[ACTOR];
        let defender = 1 - ACTOR;
        dice.stream(Stream::new(Purpose::Attack, ACTOR, round));
        let strike = self.strike_between(ACTOR, defender, &mut wounds[defender], dice, log);
        tally.record_hit(attacker, strike.dealt, strike.hit);
        let fighter = &self.fighters[defender];
        if wounds[defender].highest() > fighter.toughness {
            log.say(|| {
                format!(
                    "{} is incapacitated (Wound {} above Toughness {}): {} wins",
                    self.roster.fighter_names[defender],
                    wounds[defender].highest(),
                    fighter.toughness,
                    self.names[ACTOR]
                )
            });
            return Some(Some(attacker));
        }
        None
    }

    /// One fight of the point's fighters (at most `N`), its aftermath and healing.
    #[inline]
    fn fight<const N: usize, D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        let mut f = Fight::<N> {
            wounds: [WoundCircles::default(); N],
            field: Field::new(&self.roster),
        };
        let end = fight_in_rounds!(self, f, Purpose::FirstStrike, (dice, log), tally);
        self.after_fight(&mut f, end, dice, log, tally);
    }

    /// `attacker`'s turn in `round`: a strike at the foe its policy picks.
    #[inline(always)]
    fn turn_in_fight<const N: usize, D: Dice, L: Log>(
        &self,
        f: &mut Fight<N>,
        attacker: usize,
        round: u32,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> Turn {
        if f.field.out[attacker] {
            return Turn::Taken;
        }
        if dice.exhausted() {
            return Turn::Over(None);
        }
        let hurt = |i: usize| f.wounds[i].highest();
        let target = Stream::new(Purpose::Target, attacker, round);
        let defender = match (f.field).choose((&self.roster, attacker), hurt, (dice, target), log) {
            Pick::Foe(foe) => foe,
            Pick::CrowdedOut => return Turn::Taken,
            Pick::NoFoeLeft => return Turn::Over(None),
        };
        dice.stream(Stream::new(Purpose::Attack, attacker, round));
        let strike = self.strike_between(attacker, defender, &mut f.wounds[defender], dice, log);
        let side = self.roster.side_of[attacker];
        tally.record_hit(side, strike.dealt, strike.hit);
        self.incapacitated(f, side, defender, log)
    }

    /// Whether `defender`, struck by `side`, is incapacitated (a Wound above its Toughness),
    /// out of the fight; the fight is over when the last of its side is.
    #[inline(always)]
    fn incapacitated<const N: usize, L: Log>(
        &self,
        f: &mut Fight<N>,
        side: Side,
        defender: usize,
        log: &mut L,
    ) -> Turn {
        let toughness = self.fighters[defender].toughness;
        let highest = f.wounds[defender].highest();
        if highest <= toughness {
            return Turn::Taken;
        }
        let what = || format!("is incapacitated (Wound {highest} above Toughness {toughness})");
        f.field.fall(&self.roster, (side, defender), what, log)
    }

    /// After the fight: each fighter's Aftermath, the fight counted (its winner and rounds),
    /// and the Recovery of every wounded survivor.
    #[inline]
    fn after_fight<const N: usize, D: Dice, L: Log>(
        &self,
        f: &mut Fight<N>,
        (winner, rounds): (Option<Side>, u32),
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        let n = self.fighters.len();
        let mut dead = [false; N];
        let mut deaths = [0u32; 2];
        for (i, gone) in dead.iter_mut().enumerate().take(n) {
            *gone = self.aftermath_of(i, &mut f.wounds[i], log);
            deaths[self.roster.side_of[i].index()] += u32::from(*gone);
        }
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead: deaths,
        });
        for (i, (&out, &gone)) in f.field.out.iter().zip(&dead).take(n).enumerate() {
            tally.record_fighter(i, out, gone);
        }
        for (i, &gone) in dead.iter().enumerate().take(n) {
            if !gone && f.wounds[i].any() {
                let recovery = self.recover_of(i, f.wounds[i], dice, log);
                tally.record_recovery_of(i, self.roster.side_of[i], &recovery);
            }
        }
    }
}

/// Where a fight stands between strikes: every fighter's wound circles, who is out
/// (incapacitated), the foe each keeps to, and how many of each side stand (at most `N`
/// fighters).
struct Fight<const N: usize> {
    /// Each fighter's wound circles.
    wounds: [WoundCircles; N],
    /// Who is out, the foe each keeps to, how many of each side stand.
    field: Field<N>,
}

pub use crate::rules::roster::MAX_FIGHTERS;

impl Ruleset for TwinD20 {
    fn shape(&self) -> TallyShape {
        TallyShape {
            round_limit: self.round_limit,
            max_damage: 80,
            horizon_days: self.healing.horizon_days.u32(),
            extras: &[],
            sides: self.roster.sides.map(|n| n as u32),
        }
    }

    fn trial<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        // A duel (the hot path) needs no turns or targets: each strikes the other.
        if self.fighters.len() == 2 {
            self.duel(dice, log, tally);
        } else {
            self.fight::<MAX_FIGHTERS, D, L>(dice, log, tally);
        }
    }
}

/// What the registry says of this ruleset.
const ABOUT: crate::rules::About = crate::rules::About {
    id: ID,
    summary: "black and white d20 vs Defense; Coverage/Protection; wound circles vs Toughness; Aftermath; Recovery and Medicine",
    recovery_deaths: false,
    impairment: false,
    parameters: PARAMETERS,
    listing_note: None,
    rules_page: include_str!("../../../docs/rules/twin-d20.md"),
    hit_words: ("damage after armour", "the armour stopped it all"),
    hit_levels: None,
    examples: crate::rules::Examples {
        duel: "scenarios/twin-d20/knight-vs-brigand.toml",
        recovery: None,
        campaign: Some("scenarios/twin-d20/knights-ride-out.toml"),
        grid: Some("scenarios/twin-d20/to-hit-table.toml"),
        starter: (
            "scenarios/twin-d20/knight-vs-brigand.toml",
            include_str!("../../../scenarios/twin-d20/knight-vs-brigand.toml"),
        ),
    },
};

crate::registered!(TwinD20, ABOUT, crate::exact::walk);

#[cfg(test)]
mod tests {
    use super::test_support::{fighter, ledger_point, point};
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::FirstStrike;
    use crate::scenario::fields::Ranged;

    #[test]
    fn a_full_duel_replays_from_scripted_dice() {
        let model = point(fighter(12, 6, 8, 2), fighter(12, 6, 8, 2), Rules::default());
        // d2 = 1: a first. a: 3, 11 -> b Wound 5. b: 1, 2 miss. a: 20, 9 -> 2 + 10... white 9 hits,
        // black 20 above Attack misses: digit 0 counts 10: Damage 12 -> b incapacitated.
        // Aftermath: b marks 13 (5 above 8: alive). b's Recovery rolls: 8, 1 -> 8: 13 becomes 5
        // and the 12 heals on the way; then 5, 2 -> 5: whole after 14 days. a is unwounded.
        let mut dice = ScriptedDice::new([1, 3, 11, 1, 2, 20, 9, 8, 1, 5, 2]);
        let mut tally = Tally::new(model.shape());
        let mut log = VecLog::default();
        model.trial(&mut dice, &mut log, &mut tally);
        assert!(dice.finish().is_ok(), "{:?} {:?}", dice.error(), log.lines);
        assert_eq!(dice.used(), 11);
        assert_eq!(tally.ends, [1, 0, 0]);
        assert_eq!(tally.dead, [0, 0]);
        assert_eq!(tally.rounds.bins()[2], 1);
        assert_eq!(tally.recovery[1].days_to_whole.bins()[14], 1);
        assert_eq!(tally.recovery[0].patients, 0);
    }

    // Rule ledger tests (docs/rules/twin-d20.md, "Rule ledger").

    fn ledger_first(first_strike: FirstStrike) -> Rules {
        Rules {
            first_strike,
            ..Rules::default()
        }
    }

    /// Healing whose horizon comes before the first Recovery roll: a trial rolls no healing dice.
    fn ledger_no_recovery() -> Healing {
        Healing {
            horizon_days: Ranged::new(1),
            ..Healing::default()
        }
    }

    use super::test_support::scripted_trial as ledger_trial;

    #[test]
    fn a_wound_equal_to_toughness_leaves_the_fighter_fighting_one_above_incapacitates() {
        // L13: "Wounds higher than your Toughness means you're incapacitated."
        let model = ledger_point(
            fighter(12, 6, 8, 2),
            fighter(12, 6, 5, 2),
            ledger_first(FirstStrike::A),
            ledger_no_recovery(),
            50,
        );
        // a: 3, 11 -> b Wound 5, equal to Toughness 5: b still strikes (1, 2: miss).
        // a: 3, 7 -> Damage 5, circle 5 filled: Wound 6, above Toughness 5: b is out, a wins in
        // round 2 and b does not strike again.
        let (tally, story) = ledger_trial(&model, &[3, 11, 1, 2, 3, 7]);
        assert_eq!(tally.ends, [1, 0, 0]);
        assert_eq!(tally.rounds.bins()[2], 1);
        crate::log::assert_in_order(
            &story,
            &[
                "round 1",
                "b marks Wound 5",
                "b attacks a",
                "round 2",
                "b marks Wound 6",
                "b is incapacitated (Wound 6 above Toughness 5): a wins",
            ],
        );
    }

    #[test]
    fn after_the_battle_the_winner_marks_the_aftermath_too_and_only_survivors_make_recovery_rolls()
    {
        // L15: "After the battle, mark the circle above your most severe Wound. If a Wound is more
        // than 5 circles above your Toughness, you're dead." Design (assumptions, "Aftermath for
        // whom"; the duel step 6): every wounded fighter marks; every wounded survivor heals.
        let model = ledger_point(
            fighter(12, 6, 8, 2),
            fighter(12, 6, 3, 2),
            ledger_first(FirstStrike::B),
            Healing::default(),
            50,
        );
        // b: 3, 11 -> a Wound 5. a: 20, 9 -> b Wound 12, above Toughness 3: a wins.
        // Aftermath: a marks 6 (alive); b marks 13, 10 above Toughness 3: dead.
        // a's Recovery roll with Toughness 8: 6, 20 -> 6: the 6 goes, the 5 heals on the way.
        let (tally, story) = ledger_trial(&model, &[3, 11, 20, 9, 6, 20]);
        assert_eq!(tally.ends, [1, 0, 0]);
        assert_eq!(tally.dead, [0, 1]);
        assert_eq!(tally.recovery[0].patients, 1);
        assert_eq!(tally.recovery[0].days_to_whole.bins()[7], 1);
        assert_eq!(
            tally.recovery[1].patients, 0,
            "the dead make no Recovery roll"
        );
        crate::log::assert_in_order(
            &story,
            &[
                "Aftermath: a marks circle 6 (Toughness 8): alive",
                "Aftermath: b marks circle 13 (Toughness 3): dead",
                "a is whole after 7 days",
            ],
        );
    }

    #[test]
    fn the_round_limit_ends_a_duel_with_both_standing_in_a_draw() {
        // Design (the duel, step 4): "After round_limit rounds with both standing the duel is a
        // draw."
        let model = ledger_point(
            fighter(12, 6, 8, 2),
            fighter(12, 6, 8, 2),
            ledger_first(FirstStrike::A),
            ledger_no_recovery(),
            1,
        );
        let (tally, story) = ledger_trial(&model, &[1, 1, 1, 1]);
        assert_eq!(tally.ends, [0, 0, 1]);
        assert!(
            story.contains("the round limit (1) is reached: a draw"),
            "{story}"
        );
    }

    // ---- Item 7: parameters the text does not have ------------------------------------------

    #[test]
    fn first_strike_a_b_or_a_d2_picks_who_strikes_first_and_the_order_holds_every_round() {
        // Design (assumptions, rules.first_strike = "random"): a d2 per duel (1: a, 2: b), "that
        // order holds every round"; "a" or "b" fixes it and rolls no d2.
        let with = |first| {
            ledger_point(
                fighter(12, 6, 8, 2),
                fighter(12, 6, 8, 2),
                ledger_first(first),
                ledger_no_recovery(),
                50,
            )
        };
        // 20 (missed: 10) and 9 (hits): Damage 12 takes the defender out at once.
        let (tally, _) = ledger_trial(&with(FirstStrike::A), &[20, 9]);
        assert_eq!(tally.ends, [1, 0, 0]);
        let (tally, _) = ledger_trial(&with(FirstStrike::B), &[20, 9]);
        assert_eq!(tally.ends, [0, 1, 0]);
        let (tally, story) = ledger_trial(&with(FirstStrike::Random), &[1, 20, 9]);
        assert_eq!(tally.ends, [1, 0, 0]);
        assert!(story.contains("a strikes first"), "{story}");
        // d2 = 2: b first; round 1 both miss; round 2 b strikes first again and wins.
        let (tally, story) = ledger_trial(&with(FirstStrike::Random), &[2, 1, 1, 1, 1, 20, 9]);
        assert_eq!(tally.ends, [0, 1, 0]);
        assert_eq!(tally.rounds.bins()[2], 1);
        crate::log::assert_in_order(
            &story,
            &[
                "b strikes first",
                "round 1",
                "b attacks a",
                "a attacks b",
                "round 2",
                "b attacks a",
                "a is incapacitated (Wound 12 above Toughness 8): b wins",
            ],
        );
    }
}
