//! One fight driver for the rulesets whose texts fight in rounds of strikes (twin-d20,
//! guard-pierce, d6-pool): round after round, every fighter in the fight strikes in the
//! roster's order (who strikes first, then `rules.turn_order`), each turn as the ruleset says,
//! until a side has no one standing, the dice run out or the round limit is reached. A duel is
//! a fight of two.

use crate::dice::Dice;
use crate::log::Log;
use crate::rules::roster::Roster;
use crate::stats::Side;

/// What a fighter's turn leaves: the fight going on, or over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The fight goes on.
    Taken,
    /// The fight is over: won by a side, or `None` when the dice ran out or no foe was left.
    Over(Option<Side>),
}

/// Runs the rounds of a fight: `turn(actor, round, dice, log)` for every fighter of `roster`
/// in the order of strikes when `first` strikes first, until a turn ends the fight or
/// `round_limit` rounds have passed (a draw, said unless scripted dice ran out). Returns the
/// winner and the rounds fought.
#[inline(always)]
pub fn in_rounds<D: Dice, L: Log>(
    roster: &Roster,
    first: Side,
    round_limit: u32,
    dice: &mut D,
    log: &mut L,
    mut turn: impl FnMut(usize, u32, &mut D, &mut L) -> Turn,
) -> (Option<Side>, u32) {
    let mut rounds = 0;
    for round in 1..=round_limit {
        rounds = round;
        log.say(|| format!("round {round}"));
        for &actor in roster.order(first) {
            if let Turn::Over(winner) = turn(actor, round, dice, log) {
                return (winner, rounds);
            }
        }
    }
    if !dice.exhausted() {
        log.say(|| format!("the round limit ({round_limit}) is reached: a draw"));
    }
    (None, rounds)
}
