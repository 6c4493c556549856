//! A fight of sides of several fighters (MELEE SEQUENCE 1 ENGAGEMENT and the Outnumbered
//! Penalty, with our readings where the text leaves the group to the GM; see
//! `docs/rules/zone-d100.md`, "Sides of several fighters"): the order of action by Initiative
//! across both sides, the ground between the sides, whom each fighter engages, the foes
//! threatening a defender (the Outnumbered Penalty), the end of the fight and the healing of
//! every survivor. Each turn is the duel's own ([`ZoneD100::act`]) on the fighter and its foe
//! as two places in the fight's states ([`Bout`]). A side of one against a side of one never
//! comes here: it is the duel.

use super::Purpose;
use super::ZoneD100;
use super::campaign::Condition;
use super::healing;
use super::melee::{Bout, State};
use super::missile_actions::{Crowd, Range};
use super::tally::{BLEEDERS, record_end, record_healing_of};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::campaign::{Ended, Seats};
use crate::rules::roster::{MAX_FIGHTERS, Pick};
use crate::rules::rounds::in_places;
use crate::stats::{DuelOutcome, Side, Tally};

/// What a fighter has done at range, kept between its turns (the duel keeps it in [`Range`]).
#[derive(Clone, Copy, Debug, Default)]
struct AtRange {
    /// Feet this fighter has closed towards the other side.
    advanced: u32,
}

/// Whether a fighter threatens within its Engagement Zone, as far as its own state goes: able
/// to act, standing and with a weapon readied.
fn threatens(s: &State) -> bool {
    s.can_act() && !s.prone && !s.disarmed
}

/// How hurt a fighter is, for the `weakest` and `strongest` policies: the sum of its injuries'
/// Injury Levels (an S3 and an M1 are 4).
fn injury_levels(state: &State) -> u32 {
    state.injuries.iter().map(|x| u32::from(x.il)).sum()
}

impl ZoneD100 {
    /// Feet between fighters `i` and `j` of opposite sides: the sides start
    /// `start_distance` apart, and the ground each has closed brings it nearer every foe.
    fn between(&self, at: &[AtRange], i: usize, j: usize) -> u32 {
        (self.start_distance).saturating_sub(at[i].advanced + at[j].advanced)
    }

    /// Where fighter `i` stands on the line between the sides: feet from side `a`'s start.
    fn on_line(&self, at: &[AtRange], i: usize) -> i64 {
        let advanced = i64::from(at[i].advanced);
        match self.roster.side_of[i] {
            Side::A => advanced,
            Side::B => i64::from(self.start_distance) - advanced,
        }
    }

    /// Foes threatening fighter `i` within their Engagement Zone: in the fight, in melee
    /// distance, able to act, standing and with a weapon readied.
    fn threatening(&self, states: &[State], at: &[AtRange], out: &[bool], i: usize) -> u32 {
        let foes = self.roster.team(self.roster.side_of[i].other());
        foes.filter(|&f| {
            !out[f] && threatens(&states[f]) && self.between(at, i, f) <= self.melee_distance
        })
        .count() as u32
    }

    /// How near `actor`'s move toward `foe` may take it (its least distance to `foe`): it
    /// stops on entering the Engagement Zone of a nearer foe that threatens ("stopping in
    /// threatening EZ") and passes no foe in the fight (the ground is one line).
    fn stop<const N: usize>(&self, f: &Fight<N>, actor: usize, foe: usize) -> u32 {
        let (at, to_foe) = (&f.at, self.between(&f.at, actor, foe));
        let foes = self.roster.team(self.roster.side_of[actor].other());
        foes.filter(|&g| g != foe && !f.out[g])
            .map(|g| {
                let to_g = self.between(at, actor, g);
                let edge = if threatens(&f.states[g]) {
                    to_g.saturating_sub(self.melee_distance)
                } else {
                    to_g
                };
                to_foe.saturating_sub(edge)
            })
            .max()
            .unwrap_or(0)
    }

    /// Whether `foe` is actively fighting in melee (an Evading target for a missile): able to
    /// act and standing, with a foe of its own able to act within melee distance.
    fn in_melee<const N: usize>(&self, f: &Fight<N>, foe: usize) -> bool {
        let s = &f.states[foe];
        let its_foes = self.roster.team(self.roster.side_of[foe].other());
        s.can_act()
            && !s.prone
            && its_foes.clone().any(|g| {
                !f.out[g]
                    && f.states[g].can_act()
                    && self.between(&f.at, foe, g) <= self.melee_distance
            })
    }

    /// Who stands near `target` when `actor` shoots at it: every other fighter in the fight,
    /// by where it stands on the line (docs, "Sides of several fighters", step 2): within five
    /// feet of it (at most eight, the squares around its own), in its 15-foot area (within
    /// seven feet; at most eight besides it, the rest beside the area along the line), and in
    /// the areas before and beyond it along the line (within 22 feet).
    fn crowd<const N: usize>(&self, f: &Fight<N>, actor: usize, target: usize) -> Crowd {
        let mut crowd = Crowd::ALONE;
        let at = &f.at;
        let here = self.on_line(at, target);
        let toward = if self.on_line(at, actor) >= here {
            1
        } else {
            -1
        };
        let side = self.roster.side_of[actor];
        let mut overflow = 0;
        for g in (0..self.roster.len()).filter(|&g| g != actor && g != target && !f.out[g]) {
            if self.roster.side_of[g] == side {
                crowd.allies |= 1 << g;
            }
            let offset = (self.on_line(at, g) - here) * toward;
            if offset.abs() <= 5 && crowd.near.count() < 8 {
                crowd.near.push(g);
            }
            if offset.abs() <= 7 && crowd.area.count() < 8 {
                crowd.area.push(g);
            } else if offset.abs() <= 7 {
                // Beside the area along the line: d8 3, then 7, by turns.
                crowd.beside[if overflow % 2 == 0 { 2 } else { 6 }].push(g);
                overflow += 1;
            } else if offset.abs() <= 22 {
                // Before the area (toward the shooter): d8 5; beyond it: d8 1.
                crowd.beside[if offset > 0 { 4 } else { 0 }].push(g);
            }
        }
        crowd
    }

    /// One fight of the point's fighters, its end and the healing of every survivor, in a
    /// [`Fight`] of places for the roster's fighters rounded up to 4, 8, 16 or all: a
    /// fighter's state holds its injury record, and setting up 32 of them for a fight of 6 was
    /// a sixth of the fight's work.
    // Out of line: the duel's trial, which tests for a side of several first, stays as tight
    // as it was.
    #[inline(never)]
    pub(super) fn fight<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        in_places!(self.roster.len(), self.fight_in(dice, log, tally))
    }

    /// [`ZoneD100::fight`] with `N` places, at least the roster's.
    fn fight_in<const N: usize, D: Dice, L: Log>(
        &self,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        let mut f = Fight::<N>::fresh();
        let (winner, rounds) = self.fight_out(&mut f, dice, log, tally);
        self.record_fight(&f, winner, rounds, tally);
        self.heal_survivors(&f, Seats::alone(0), dice, log, tally);
    }

    /// A fight of several from where `f` stands (fresh, or a campaign's party as its last
    /// fight left it, those sitting out already out) to its end: the winner and the rounds.
    #[inline(always)]
    fn fight_out<const N: usize, D: Dice, L: Log>(
        &self,
        f: &mut Fight<N>,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> (Option<Side>, u32) {
        let first = self.side_acting_first(dice, log);
        let mut rounds = 0;
        // The side that won and the fighter whose fall ended the fight.
        let mut end = (None, None);
        'fight: for round in 1..=self.round_limit {
            rounds = round;
            log.say(|| format!("round {round}"));
            for &actor in &self.order[first.index()] {
                match self.turn_of(f, actor, round, dice, log, tally) {
                    Turn::Taken => {}
                    Turn::Over(over) => {
                        end = over;
                        break 'fight;
                    }
                }
            }
        }
        if end.1.is_none() && !dice.exhausted() {
            end = self.end_at_the_round_limit(f);
        }
        self.say_the_end(f, end, dice, log, tally);
        (end.0, rounds)
    }

    /// A campaign's fight of several: the party's fighters (the first `party.len()` places)
    /// begin as their conditions leave them ready (left as the fight leaves them), those
    /// `sitting_out` out from the start; the foes fresh, and healed after it as a fight's
    /// survivors (counted at their `seats`). Each fighter's bleeders and amputations are
    /// counted.
    pub(super) fn fight_several_from(
        &self,
        party: &mut [Condition],
        sitting_out: &[bool],
        seats: Seats,
        (dice, log): (&mut impl Dice, &mut impl Log),
        tally: &mut Tally,
    ) -> Ended {
        in_places!(
            self.roster.len(),
            self.fight_several_in(party, sitting_out, seats, (dice, log), tally)
        )
    }

    /// [`ZoneD100::fight_several_from`] with `N` places.
    fn fight_several_in<const N: usize, D: Dice, L: Log>(
        &self,
        party: &mut [Condition],
        sitting_out: &[bool],
        seats: Seats,
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) -> Ended {
        let mut f = Fight::<N>::fresh();
        for (k, c) in party.iter().enumerate() {
            f.states[k] = c.ready();
            self.melee.summarise(k, &mut f.states[k]);
        }
        f.out[..party.len()].copy_from_slice(sitting_out);
        let (winner, rounds) = self.fight_out(&mut f, dice, log, tally);
        let n = self.roster.len();
        let mut ended = Ended {
            winner,
            rounds,
            out: [false; MAX_FIGHTERS],
            dead: [false; MAX_FIGHTERS],
        };
        for (i, s) in f.states[..n].iter().enumerate() {
            // BLEEDERS, then AMPUTATIONS: of those who fought.
            if !(i < party.len() && sitting_out[i]) {
                tally.record_extras(BLEEDERS, [s.bleeders, s.amputations].map(u64::from));
            }
            ended.out[i] = f.out[i] || !s.can_act();
            ended.dead[i] = s.dead;
        }
        for (c, s) in party.iter_mut().zip(&f.states) {
            c.state = *s;
        }
        self.heal_survivors(&f, seats, dice, log, tally);
        ended
    }

    /// Order of action: the higher Initiative ML first; among equals of both sides a d2 for
    /// the fight says which side goes first.
    fn side_acting_first<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L) -> Side {
        let first = if self.initiative_tie {
            dice.stream(Stream::new(Purpose::Initiative, 0, 0));
            Side::BOTH[(dice.d(2, "d2 (equal Initiative: which side acts first)") - 1) as usize & 1]
        } else {
            Side::A
        };
        let order = &self.order[first.index()];
        log.say(|| {
            let names: Vec<&str> = order
                .iter()
                .map(|&i| self.roster.fighter_names[i].as_str())
                .collect();
            format!("order of action: {}", names.join(", "))
        });
        first
    }

    /// Whom `actor` engages: a foe picked by its policy when its turn goes to a shot, a step or
    /// a strike, among those in its Engagement Zone while a foe threatens it there ("foes they
    /// threaten within their Engagement Zone": an engaged fighter does not walk off); a turn
    /// spent standing up or taking up the weapon (or unable to act: the end of its turn only)
    /// is beside the first foe in the fight.
    fn foe_of<const N: usize, D: Dice, L: Log>(
        &self,
        f: &mut Fight<N>,
        actor: usize,
        round: u32,
        dice: &mut D,
        log: &mut L,
    ) -> Pick {
        let (roster, n) = (&self.roster, self.roster.len());
        let s = &f.states[actor];
        let busy = s.disarmed || (s.prone && !self.melee.legs_unusable(s));
        let able = s.can_act();
        if able && !busy {
            let hurt = |foe: usize| injury_levels(&f.states[foe]);
            let target = Stream::new(Purpose::Target, actor, round);
            // A foe in melee distance is always in reach; one beyond it only while no foe
            // threatens the actor there (asked only then: most turns are fought in melee).
            let (states, at, out) = (&f.states[..n], &f.at[..n], &f.out[..n]);
            let reach = |g: usize| {
                self.between(at, actor, g) <= self.melee_distance
                    || self.threatening(states, at, out, actor) == 0
            };
            let field = (&f.out[..n], reach);
            roster.choose(actor, field, hurt, &mut f.kept[..n], (dice, target), log)
        } else {
            // One unable to act (INC, UNC) attacks no one: it gives up its place beside its
            // foe, which another may take under a limit of attackers.
            if !able {
                f.kept[actor] = usize::MAX;
            }
            let foes = roster.team(roster.side_of[actor].other());
            foes.clone()
                .find(|&foe| !f.out[foe])
                .map_or(Pick::NoFoeLeft, Pick::Foe)
        }
    }

    /// `actor`'s turn with no foe to attack (every one it could reach already faces the most
    /// attackers allowed): it waits, and its turn ends as every turn does.
    fn wait<const N: usize, D: Dice, L: Log>(
        &self,
        f: &mut Fight<N>,
        actor: usize,
        round: u32,
        dice: &mut D,
        log: &mut L,
    ) {
        let turn = Stream::new(Purpose::Turn, actor, round);
        dice.stream(turn);
        f.states[actor].moved = false;
        let foes = self.roster.team(self.roster.side_of[actor].other());
        let beside = foes.clone().find(|&g| !f.out[g]).unwrap_or(actor);
        let mut bout = Bout {
            places: [actor, beside],
            states: &mut f.states,
        };
        self.melee
            .end_of_turn((Side::A, turn), &mut bout, dice, log);
    }

    /// `actor`'s turn in `round`: the duel's own turn of the fighter on the foe it engages,
    /// outnumbered by the foes threatening each; then who is out, and whether the fight is
    /// over.
    fn turn_of<const N: usize, D: Dice, L: Log>(
        &self,
        f: &mut Fight<N>,
        actor: usize,
        round: u32,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> Turn {
        let n = self.roster.len();
        f.turn += 1;
        for s in &mut f.states[..n] {
            s.turn = f.turn;
            s.round = round;
        }
        if f.out[actor] {
            return Turn::Taken;
        }
        if dice.exhausted() {
            return Turn::Over((None, None));
        }
        let foe = match self.foe_of(f, actor, round, dice, log) {
            Pick::Foe(foe) => foe,
            Pick::CrowdedOut => {
                self.wait(f, actor, round, dice, log);
                return self.who_is_out(f, [actor, actor, actor], log);
            }
            Pick::NoFoeLeft => return Turn::Over((None, None)),
        };
        let struck = self.strike_or_shoot(f, [actor, foe], round, dice, log, tally);
        self.who_is_out(f, [actor, foe, struck.unwrap_or(foe)], log)
    }

    /// The duel's turn of `actor` on `foe`, the two a [`Bout`] of the fight's states, with the
    /// ground between them, the foes threatening each (the Outnumbered Penalty) and who stands
    /// near the foe; returns the place of another creature a stray missile struck, if one did.
    fn strike_or_shoot<const N: usize, D: Dice, L: Log>(
        &self,
        f: &mut Fight<N>,
        [actor, foe]: [usize; 2],
        round: u32,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> Option<usize> {
        let n = self.roster.len();
        for who in [actor, foe] {
            f.states[who].outnumbered = self
                .threatening(&f.states[..n], &f.at[..n], &f.out[..n], who)
                .saturating_sub(1);
        }
        let before = self.between(&f.at, actor, foe);
        let m = &self.melee;
        let shoots = m.fighter(actor).missile.is_some() && before > self.melee_distance;
        // Who stands near the foe, worked out only for a shot.
        let near_a_shot;
        let crowd = if shoots {
            near_a_shot = self.crowd(f, actor, foe);
            &near_a_shot
        } else {
            &Crowd::ALONE
        };
        let mut range = Range {
            distance: before,
            stop: if before > self.melee_distance {
                self.stop(f, actor, foe)
            } else {
                0
            },
            foe_in_melee: shoots && self.in_melee(f, foe),
            crowd,
            struck_elsewhere: None,
        };
        let sides = [self.roster.side_of[actor], self.roster.side_of[foe]];
        let turn = Stream::new(Purpose::Turn, actor, round);
        dice.stream(turn);
        let mut bout = Bout {
            places: [actor, foe],
            states: &mut f.states,
        };
        self.act(
            (Side::A, turn),
            sides,
            &mut bout,
            &mut range,
            dice,
            log,
            tally,
        );
        f.states[actor].outnumbered = 0;
        f.states[foe].outnumbered = 0;
        let me = &mut f.at[actor];
        me.advanced += before.saturating_sub(range.distance);
        range.struck_elsewhere
    }

    /// Who is out after a turn: the turn may have felled the foe (or `struck`, another creature
    /// a stray missile hit), or the actor by a Counterstrike, a Mishap or the end of its turn.
    /// The fight is over when a side has no one standing.
    #[inline]
    fn who_is_out<const N: usize, L: Log>(
        &self,
        f: &mut Fight<N>,
        [actor, foe, struck]: [usize; 3],
        log: &mut L,
    ) -> Turn {
        let roster = &self.roster;
        let mut fell = false;
        for who in [actor, foe, struck] {
            if !f.out[who] && self.out(&f.states[who]) {
                f.out[who] = true;
                fell = true;
                log.say(|| format!("{} is out of the fight", roster.fighter_names[who]));
            }
        }
        // A side's last standing can only have fallen in a turn where someone fell.
        if !fell {
            return Turn::Taken;
        }
        let standing = |side: Side| roster.team(side).filter(|&i| !f.out[i]).count();
        let (a, b) = (standing(Side::A), standing(Side::B));
        if a > 0 && b > 0 {
            return Turn::Taken;
        }
        let winner = match (a, b) {
            (0, 0) => None,
            (0, _) => Some(Side::B),
            _ => Some(Side::A),
        };
        // Whose fall ended it: one of a side with no one standing.
        let fallen = [foe, struck, actor]
            .into_iter()
            .find(|&i| f.out[i] && Some(roster.side_of[i]) != winner)
            .unwrap_or(actor);
        Turn::Over((winner, Some(fallen)))
    }

    /// The round limit with one side all down (INC, or helpless when the victor strikes the
    /// helpless) and the other not: the side standing has won.
    fn end_at_the_round_limit<const N: usize>(
        &self,
        f: &Fight<N>,
    ) -> (Option<Side>, Option<usize>) {
        let roster = &self.roster;
        let down = |side: Side| {
            roster
                .team(side)
                .all(|i| f.out[i] || !f.states[i].can_act())
        };
        let winner = match (down(Side::A), down(Side::B)) {
            (false, true) => Some(Side::A),
            (true, false) => Some(Side::B),
            _ => None,
        };
        let decider = winner.and_then(|w| roster.team(w.other()).find(|&i| !f.out[i]));
        (winner, decider)
    }

    /// Says how the fight ended (and counts how the last foe fell).
    fn say_the_end<const N: usize, D: Dice, L: Log>(
        &self,
        f: &Fight<N>,
        (winner, decider): (Option<Side>, Option<usize>),
        dice: &D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        let roster = &self.roster;
        if let (Some(w), Some(d)) = (winner, decider) {
            let how = record_end(tally, &f.states[d]);
            log.say(|| {
                let last = if roster.sides[w.other().index()] == 1 {
                    roster.fighter_names[d].clone()
                } else {
                    format!(
                        "{}, the last of {},",
                        roster.fighter_names[d],
                        roster.side_names[w.other().index()]
                    )
                };
                format!("{} wins: {last} is {how}", roster.side_names[w.index()])
            });
        } else if !dice.exhausted() {
            log.say(|| "no winner: a draw".to_owned());
        }
    }

    /// Counts the fight: each fighter's bleeders and amputations, the winner, the rounds, each
    /// side's dead and each fighter's end.
    fn record_fight<const N: usize>(
        &self,
        f: &Fight<N>,
        winner: Option<Side>,
        rounds: u32,
        tally: &mut Tally,
    ) {
        let roster = &self.roster;
        let states = &f.states[..roster.len()];
        let mut deaths = [0u32; 2];
        for (i, s) in states.iter().enumerate() {
            // BLEEDERS, then AMPUTATIONS.
            tally.record_extras(BLEEDERS, [s.bleeders, s.amputations].map(u64::from));
            deaths[roster.side_of[i].index()] += u32::from(s.dead);
        }
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead: deaths,
        });
        for (i, s) in states.iter().enumerate() {
            let down = f.out[i] || !s.can_act();
            tally.record_fighter(i, down, s.dead);
        }
    }

    /// The healing sequence for every survivor with injuries, bleeding or shock to recover
    /// from.
    /// In a campaign (`seats` of a party), only the foes: the party heals in its rests.
    fn heal_survivors<const N: usize, D: Dice, L: Log>(
        &self,
        f: &Fight<N>,
        seats: Seats,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        let roster = &self.roster;
        for (i, s) in f.states[..roster.len()]
            .iter()
            .enumerate()
            .skip(seats.party)
        {
            if !s.needs_healing() {
                continue;
            }
            log.say(|| format!("{} after the fight", roster.fighter_names[i]));
            let mut healed = healing::Outcome::default();
            self.heal_after_the_fight(i, s, (dice, log), &mut healed);
            record_healing_of(tally, seats.of(i), roster.side_of[i], &healed);
        }
    }
}

/// Where a fight of several stands between turns: every fighter's state, what each has done
/// at range, who is out, the foe each keeps to, and how many turns have passed.
struct Fight<const N: usize> {
    /// Each fighter's state, as the duel keeps it.
    states: [State; N],
    /// What each has done at range.
    at: [AtRange; N],
    /// Out of the fight.
    out: [bool; N],
    /// The foe each keeps to, for the target policies that keep one.
    kept: [usize; N],
    /// Turns taken so far, over every fighter.
    turn: u32,
}

impl<const N: usize> Fight<N> {
    /// A fight before its first turn: every fighter fresh, at its side's start, in the fight.
    fn fresh() -> Self {
        Fight {
            states: [State::default(); N],
            at: [AtRange::default(); N],
            out: [false; N],
            kept: [usize::MAX; N],
            turn: 0,
        }
    }
}

/// What a turn leaves: the fight going on, or over with its winner (`None`: a draw or dice run
/// out) and the fighter whose fall ended it.
enum Turn {
    /// The fight goes on.
    Taken,
    /// The fight is over.
    Over((Option<Side>, Option<usize>)),
}

#[cfg(test)]
mod tests {
    //! Sides of several, driven with scripted dice (`docs/rules/zone-d100.md`, "Sides of
    //! several fighters"). Results of 99, 98 ... fail every test here and end in no digit of a
    //! Mishap; 95 is a CF with a Stumble.
    use super::super::body::Zone;
    use super::super::tally::injury_column;
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::Ruleset;
    use crate::rules::registry::{self, Model};
    use std::path::Path;

    /// A knight (Melee ML75, Block, Initiative 65) against `b`, with `rules`.
    fn point(rules: &str, b: &str) -> ZoneD100 {
        let text = format!(
            r#"
name = "t"
ruleset = "zone-d100"
round_limit = 40
[rules]
{rules}
[a]
name = "Knight"
melee_ml = 75
dodge_ml = 45
shock_ml = 70
initiative_ml = 65
weapon = "broadsword"
defence = "block"
{b}
[weapons.broadsword]
impact_die = 10
impact_modifier = 3
aspect = "E"
zone_die = 6
reach = 4
heft = 6
[weapons.sling]
base_range = 10
impact_die = 6
aspect = "B"
load_rounds = 0
[weapons.longbow]
base_range = 120
impact_die = 12
impact_modifier = 4
aspect = "P"
armour_reduction = 4
load_rounds = 0
aim_allowed = true
impales = true
"#
        );
        let scenario =
            registry::parse(Path::new("t.toml"), &text).unwrap_or_else(|e| panic!("{e}"));
        match &scenario.points[0].model {
            Model::ZoneD100(m) => m.as_ref().clone(),
            _ => panic!("not a zone-d100 point"),
        }
    }

    /// A brigand (Melee ML55, Dodge, Initiative `initiative`), `count` of them.
    fn brigands(count: u32, initiative: i32) -> String {
        format!(
            "[b]\nname = \"Brigand\"\ncount = {count}\nmelee_ml = 55\ndodge_ml = 45\nshock_ml = 55\ninitiative_ml = {initiative}\nweapon = \"broadsword\"\ndefence = \"dodge\"\n"
        )
    }

    /// The story of one fight on these dice, until they run out.
    fn story(model: &ZoneD100, dice: &[u32]) -> String {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let mut tally = Tally::new(model.shape());
        model.trial(&mut scripted, &mut log, &mut tally);
        let story = log.lines.join("\n");
        assert!(scripted.used() >= dice.len(), "dice left over\n{story}");
        story
    }

    #[test]
    fn outnumbered_costs_10_per_threatening_foe_beyond_one_and_prone_foes_do_not_count() {
        // OUTNUMBERED PENALTY: "Defenders suffer -10 PENALTY to defence tests for each
        // opponent threatening them beyond one. Do not count prone and Ignored foes."
        // Three brigands in melee: the Knight's Block is 75 - 20; a brigand, threatened by the
        // Knight alone, Dodges at its 45.
        let model = point("", &brigands(3, 55));
        let told = story(&model, &[99, 98, 97, 96, 94, 93, 92, 91]);
        crate::log::assert_in_order(
            &told,
            &[
                "order of action: Knight, Brigand 1, Brigand 2, Brigand 3",
                "Brigand 1 Dodge 98 vs EML45: F",
                "Knight Block 96 vs EML55 (Outnumbered -20: 3 foes threaten): F",
                "Knight Block 93 vs EML55 (Outnumbered -20: 3 foes threaten)",
                "Knight Block 91 vs EML55 (Outnumbered -20: 3 foes threaten)",
            ],
        );
        // Brigand 1 stumbles prone on its CF (95): the Knight's next Blocks count two foes.
        let told = story(&model, &[99, 98, 95, 96, 94, 93, 92, 91]);
        crate::log::assert_in_order(
            &told,
            &[
                "Knight Block 96 vs EML55 (Outnumbered -20: 3 foes threaten)",
                "Brigand 1 stumbles: falls prone",
                "Knight Block 93 vs EML65 (Outnumbered -10: 2 foes threaten)",
                "Knight Block 91 vs EML65 (Outnumbered -10: 2 foes threaten)",
            ],
        );
        // The penalty is a parameter: 0 turns it off.
        let model = point("outnumbered_penalty = 0", &brigands(3, 55));
        let told = story(&model, &[99, 98, 97, 96]);
        assert!(told.contains("Knight Block 96 vs EML75: F"), "{told}");
    }

    #[test]
    fn a_foe_beyond_melee_distance_does_not_threaten() {
        // "Aware characters can make a melee strike with a readied weapon against foes they
        // threaten within their Engagement Zone": the Archer shooting from 20 feet threatens
        // no one. The Knight closes 20 of the 40 feet, the Brigand the other 20; the Archer
        // misses (99); in round 2 the Knight Blocks the Brigand at his full 75.
        let archer = "[[b]]\nname = \"Brigand\"\nmelee_ml = 55\ndodge_ml = 45\nshock_ml = 55\ninitiative_ml = 55\nweapon = \"broadsword\"\ndefence = \"dodge\"\n[[b]]\nname = \"Archer\"\nmelee_ml = 50\ndodge_ml = 55\nshock_ml = 60\ninitiative_ml = 50\nmissile = \"longbow\"\nmissile_ml = 75\nweapon = \"broadsword\"\ndefence = \"dodge\"\n";
        let model = point(
            "start_distance = 40\napproach = 20\nmelee_distance = 5",
            archer,
        );
        // (The Archer's miss rolls a d20 and a d10 for the Brigand beside the Knight: 20, 3.)
        let told = story(&model, &[99, 20, 3, 99, 97, 96, 99]);
        crate::log::assert_in_order(
            &told,
            &[
                "Knight closes to 20 feet",
                "Brigand closes to 0 feet",
                "Archer shoots at 20 feet",
                "round 2",
                "Knight attacks Brigand",
                "Knight Block 99 vs EML75: F",
            ],
        );
    }

    #[test]
    fn the_most_hurt_has_the_highest_sum_of_injury_levels() {
        // Our reading of `weakest` and `strongest` (docs, "Sides of several fighters", step 3).
        use crate::rules::zone_d100::body::Location;
        use crate::rules::zone_d100::injury::{Aspect, Injury};
        let mut state = State::default();
        assert_eq!(injury_levels(&state), 0);
        state
            .injuries
            .add(Injury::new(Location::Thigh, Aspect::Edge, 3));
        state
            .injuries
            .add(Injury::new(Location::Skull, Aspect::Blunt, 1));
        assert_eq!(injury_levels(&state), 4);
    }

    #[test]
    fn the_order_of_action_runs_by_initiative_across_sides_and_a_tie_rolls_one_d2() {
        // Order of action: the higher Initiative ML first (the duel's reading); equal MLs of
        // both sides: one d2 for the fight says which side goes first among them (2: side b).
        let model = point("", &brigands(2, 70));
        let told = story(&model, &[]);
        assert!(
            told.starts_with("order of action: Brigand 1, Brigand 2, Knight"),
            "{told}"
        );
        let model = point("", &brigands(2, 65));
        let told = story(&model, &[2]);
        assert!(
            told.starts_with("order of action: Brigand 1, Brigand 2, Knight"),
            "{told}"
        );
        let told = story(&model, &[1]);
        assert!(
            told.starts_with("order of action: Knight, Brigand 1, Brigand 2"),
            "{told}"
        );
    }

    /// Side b as a Brigand (Initiative `brigand_initiative`) and an Archer with `missile`
    /// (Missile ML75), written in the order `archer_first` says.
    fn brigand_and_archer(brigand_initiative: i32, missile: &str, archer_first: bool) -> String {
        let brigand = format!(
            "[[b]]\nname = \"Brigand\"\nmelee_ml = 55\ndodge_ml = 45\nshock_ml = 55\ninitiative_ml = {brigand_initiative}\nweapon = \"broadsword\"\ndefence = \"dodge\"\n"
        );
        let archer = format!(
            "[[b]]\nname = \"Archer\"\nmelee_ml = 50\ndodge_ml = 55\nshock_ml = 60\ninitiative_ml = 50\nmissile = \"{missile}\"\nmissile_ml = 75\nweapon = \"broadsword\"\ndefence = \"dodge\"\n"
        );
        if archer_first {
            archer + &brigand
        } else {
            brigand + &archer
        }
    }

    /// The story of one fight on these dice, as far as they go.
    fn as_far_as(model: &ZoneD100, dice: &[u32]) -> String {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let mut tally = Tally::new(model.shape());
        model.trial(&mut scripted, &mut log, &mut tally);
        log.lines.join("\n")
    }

    #[test]
    fn a_missed_shot_at_a_foe_fighting_an_ally_may_strike_the_ally() {
        // Direct · L117–119: "MISS the attack misses the target. If the EML was greater than
        // 05, the attack might strike a nearby target. Count how many other targets are within
        // five feet of the intended one ... If the d20 result is less than or equal to the
        // target count, then a nearby creature is hit." Missile 3 · L60: "Evading: actively
        // fighting in melee". The Archer shoots at the Knight, whom the Brigand (its ally)
        // fights at 0 feet: the Knight is Evading (Dodge 45: −20, EML 75 + 10 PB − 20 = 65), a
        // target count of 1; a d20 of 1 strikes the Brigand.
        let model = point(
            "start_distance = 40\napproach = 20\nmelee_distance = 5",
            &brigand_and_archer(55, "longbow", false),
        );
        let told = as_far_as(&model, &[99, 1, 3, 1, 1, 12, 100]);
        crate::log::assert_in_order(
            &told,
            &[
                "Brigand closes to 0 feet",
                "Archer shoots at 20 feet (Direct PB, Evading target): EML65: 99 F: a miss of the target; 1 on the die against a target count of 1: a creature there is hit",
                "the missile strikes Brigand",
                "  hits ZN1 skull",
                "KIA",
                "Brigand is out of the fight",
            ],
        );
        // The injury counts to the side of the one struck, the Archer's own (b), with the
        // strike as b's: b_injuries_head_grievous, not a's.
        let mut scripted = ScriptedDice::new(vec![99, 1, 3, 1, 1, 12, 100]);
        let mut tally = Tally::new(model.shape());
        model.trial(&mut scripted, &mut crate::log::NoLog, &mut tally);
        let head_g4 = |side| injury_column(side, Zone::Head, 4);
        assert_eq!(
            (tally.extra[head_g4(Side::B)], tally.extra[head_g4(Side::A)]),
            (1, 0)
        );
        // A d20 past the count: the roll is told, no one is hit.
        let told = as_far_as(&model, &[99, 2, 3]);
        assert!(
            told.contains("99 F: a miss of the target; 2 on the die against a target count of 1: no one else is hit")
                && !told.contains("the missile strikes"),
            "{told}"
        );
    }

    #[test]
    fn an_engaged_fighter_fights_the_foes_in_its_engagement_zone_and_does_not_walk_off() {
        // Melee 1 · L175: "Aware characters can make a melee strike with a readied weapon
        // against foes they threaten within their Engagement Zone." The Knight keeps to the
        // Archer (written first), but once the Brigand threatens him at 0 feet he fights the
        // Brigand: the Archer, 20 feet off, is beyond his reach.
        let model = point(
            "start_distance = 40\napproach = 20\nmelee_distance = 5",
            &brigand_and_archer(55, "longbow", true),
        );
        let told = as_far_as(&model, &[99, 20, 3, 99, 97]);
        crate::log::assert_in_order(
            &told,
            &[
                "Knight picks Archer: the first foe standing",
                "Knight closes to 20 feet",
                "Brigand closes to 0 feet",
                "round 2",
                "Knight picks Brigand: the first foe standing, kept while it stands of 1 of 2 foes standing (1 beyond its reach)",
                "Knight attacks Brigand",
            ],
        );
    }

    #[test]
    fn a_move_stops_on_entering_a_threatening_foes_engagement_zone() {
        // Melee 3 · L360: "... move at least ten feet (up to half Move), stopping in threatening
        // EZ." The Brigand (Initiative 70) closes 30 of the 60 feet first; the Knight, keeping
        // to the Archer behind him, closes only the 25 feet that bring him within the Brigand's
        // 5: 35 feet from the Archer, not 30, and never past the Brigand.
        let model = point(
            "start_distance = 60\napproach = 30\nmelee_distance = 5",
            &brigand_and_archer(70, "longbow", true),
        );
        let told = as_far_as(&model, &[99, 20, 3]);
        crate::log::assert_in_order(
            &told,
            &[
                "Brigand closes to 30 feet",
                "Knight picks Archer",
                "Knight closes to 35 feet",
                "Archer shoots at 35 feet (Direct PB, Evading target)",
                "a target count of 1",
            ],
        );
    }

    #[test]
    fn a_volley_into_a_melee_counts_every_creature_in_the_area_and_the_d20_names_the_one_hit() {
        // Volley · L153–155: "POTENTIAL STRIKE the missile lands in the 15-foot area. Count the
        // targets within it ... ROLL D20 & D10. If the d20 roll is less than or equal to the
        // target count, then one creature within the 15-foot area is hit. The d20 roll itself
        // indicates the precise target struck among several." A sling (Base Range 10) at 20
        // feet is Volley 2; the Knight and the Brigand fighting him make a count of 2: a d20
        // of 2 strikes the Brigand, of 1 the Knight.
        let model = point(
            "start_distance = 40\napproach = 20\nmelee_distance = 5",
            &brigand_and_archer(55, "sling", false),
        );
        let told = as_far_as(&model, &[41, 2, 3]);
        crate::log::assert_in_order(
            &told,
            &[
                "Archer shoots at 20 feet (Volley 2, Evading target)",
                "41 S: a potential strike; 2 on the die against a target count of 2: a creature there is hit",
                "the missile strikes Brigand",
            ],
        );
        let told = as_far_as(&model, &[41, 1, 3]);
        assert!(
            told.contains("41 S: a strike, 1 star(s)") && !told.contains("the missile strikes"),
            "{told}"
        );
    }

    #[test]
    fn who_stands_near_a_target_is_read_from_the_line() {
        // Our reading of "within five feet", "the 15-foot area" and "eight adjacent 15-foot
        // areas" on the one-line ground (docs, "Sides of several fighters", step 2): the Knight
        // (place 0, side a) shoots at Brigand 1 (place 1) of four; Brigand 2 level with it,
        // Brigand 3 seven feet behind it, Brigand 4 fifteen feet behind it.
        let model = point("start_distance = 100", &brigands(4, 55));
        let mut f = Fight::<8> {
            states: [State::default(); 8],
            at: [AtRange::default(); 8],
            out: [false; 8],
            kept: [usize::MAX; 8],
            turn: 0,
        };
        f.at[1].advanced = 30;
        f.at[2].advanced = 30;
        f.at[3].advanced = 23;
        f.at[4].advanced = 15;
        let crowd = model.crowd(&f, 0, 1);
        assert_eq!(crowd.near.count(), 1, "Brigand 2 only");
        assert_eq!(crowd.near.nth(1), Some(2));
        assert_eq!(
            (crowd.area.count(), crowd.area.nth(2)),
            (2, Some(3)),
            "Brigands 2 and 3"
        );
        assert_eq!(
            crowd.beside[0].nth(1),
            Some(4),
            "beyond the target (d8 1): Brigand 4"
        );
        assert_eq!(crowd.beside.iter().map(|p| p.count()).sum::<u32>(), 1);
        assert_eq!(crowd.allies, 0, "the Knight has no ally");
    }

    #[test]
    fn the_fall_that_ends_the_fight_is_of_the_side_left_with_no_one_standing() {
        // Docs, "Sides of several fighters", step 6: "`end_*` columns read the fighter whose
        // fall ended the fight". The Knight (0) fells Brigand 1 (1) and falls to its
        // Counterstrike in the same turn, Brigand 2 (2) standing: the Brigands win, and the
        // fall that ended the fight is the Knight's, not Brigand 1's.
        let model = point("", &brigands(2, 55));
        let mut f = Fight::<4> {
            states: [State::default(); 4],
            at: [AtRange::default(); 4],
            out: [false; 4],
            kept: [usize::MAX; 4],
            turn: 0,
        };
        f.states[0].dead = true;
        f.states[1].dead = true;
        match model.who_is_out(&mut f, [0, 1, 1], &mut crate::log::NoLog) {
            Turn::Over((winner, fallen)) => {
                assert_eq!((winner, fallen), (Some(Side::B), Some(0)));
            }
            Turn::Taken => panic!("the Knight's side has no one standing"),
        }
    }
}
