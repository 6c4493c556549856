//! One fight driver for the rulesets whose texts fight in rounds of strikes (twin-d20,
//! guard-pierce, d6-pool): round after round, every fighter in the fight strikes in the
//! roster's order (who strikes first, then `rules.turn_order`), each turn as the ruleset says,
//! until a side has no one standing, the dice run out or the round limit is reached. A duel is
//! a fight of two.

use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::roster::{MAX_FIGHTERS, Pick, Roster};
use crate::stats::Side;

/// What a fighter's turn leaves: the fight going on, or over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// The fight goes on.
    Taken,
    /// The fight is over: won by a side, or `None` when the dice ran out or no foe was left.
    Over(Option<Side>),
}

/// Who is still in a fight of several between turns: who is out, the foe each keeps to (for
/// the target policies that keep one), and how many of each side stand, in `N` places (at
/// least the roster's fighters: a fight sized to its roster sets up no more than it needs).
pub struct Field<const N: usize = MAX_FIGHTERS> {
    /// Out of the fight, by place on the roster.
    pub out: [bool; N],
    /// The foe each keeps to.
    kept: [usize; N],
    /// How many of each side stand.
    standing: [usize; 2],
}

impl<const N: usize> Field<N> {
    /// Every fighter of `roster` standing, keeping to no foe yet.
    pub fn new(roster: &Roster) -> Self {
        debug_assert!(
            roster.len() <= N,
            "a field of {N} places for {}",
            roster.len()
        );
        Field {
            out: [false; N],
            kept: [usize::MAX; N],
            standing: roster.sides,
        }
    }

    /// Fighter `i` of `roster` takes no part from the start (dead, or too hurt to fight, before
    /// a campaign's next encounter): out, and not standing for its side.
    pub fn sit_out(&mut self, roster: &Roster, i: usize) {
        if !self.out[i] {
            self.out[i] = true;
            self.standing[roster.side_of[i].index()] -= 1;
        }
    }

    /// The foe `actor`'s target policy picks among those still in the fight (`hurt`: how hurt
    /// each is), or none when none is left or every foe already faces the most attackers
    /// allowed; a die, when one is rolled, from the stream `key`.
    #[inline(always)]
    pub fn choose<D: Dice, L: Log>(
        &mut self,
        (roster, actor): (&Roster, usize),
        hurt: impl Fn(usize) -> u32,
        (dice, key): (&mut D, Stream),
        log: &mut L,
    ) -> Pick {
        // Whole arrays: the places past the roster's are never foes, and a kept foe is one.
        // Every foe is within reach: the rounds of strikes have no ground.
        let reach = |_| true;
        roster.choose(
            actor,
            (&self.out, reach),
            hurt,
            &mut self.kept,
            (dice, key),
            log,
        )
    }

    /// `foe`, struck by a fighter of `side`, is out of the fight (`what` says what befell it
    /// after its name, as "is out of the fight at health 0"): the fight is over when the last
    /// of its side is.
    #[inline]
    pub fn fall<L: Log>(
        &mut self,
        roster: &Roster,
        (side, foe): (Side, usize),
        what: impl Fn() -> String,
        log: &mut L,
    ) -> Turn {
        self.out[foe] = true;
        let fallen = side.other().index();
        self.standing[fallen] -= 1;
        let last = self.standing[fallen] == 0;
        log.say(|| {
            let end = if last {
                format!(": {} wins", roster.side_names[side.index()])
            } else {
                String::new()
            };
            format!("{} {}{end}", roster.fighter_names[foe], what())
        });
        if last {
            Turn::Over(Some(side))
        } else {
            Turn::Taken
        }
    }
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

/// The rounds of a fight of sides of several from where `$f` (a local `Fight`) stands: who
/// strikes first (`rules.first_strike`, its d2 from the stream of `$first_strike`, told), then
/// every fighter's `$model.turn_in_fight` until a side is out or the round limit: the winner
/// (none on a draw) and the rounds fought. A macro, written out where each fight runs its rounds
/// (a fight's and a campaign's), so that each has its own turn closure: one closure shared by
/// both is called from two places and no longer inlined into the rounds' loop.
macro_rules! fight_in_rounds {
    ($model:ident, $f:ident, $first_strike:expr, ($dice:expr, $log:expr), $tally:expr) => {{
        $dice.stream($crate::dice::Stream::new($first_strike, 0, 0));
        let first = $model.rules.first_strike.roll($dice);
        $log.say(|| format!("{} strikes first", $model.roster.side_names[first.index()]));
        let roster = &$model.roster;
        $crate::rules::rounds::in_rounds(
            roster,
            first,
            $model.round_limit,
            $dice,
            $log,
            |a, r, d, l| $model.turn_in_fight(&mut $f, a, r, d, l, $tally),
        )
    }};
}
pub(crate) use fight_in_rounds;

/// Runs a fight sized to its roster: `$model.$fight::<N, _, _>($args)` with `N` the places
/// for `$fighters` fighters rounded up to 4, 8, 16 or all ([`MAX_FIGHTERS`]), so a fight of 6
/// sets up 8 fighters' state, not 32.
macro_rules! in_places {
    ($fighters:expr, $model:ident . $fight:ident ($($arg:expr),*)) => {
        match $fighters {
            0..=4 => $model.$fight::<4, _, _>($($arg),*),
            5..=8 => $model.$fight::<8, _, _>($($arg),*),
            9..=16 => $model.$fight::<16, _, _>($($arg),*),
            _ => $model.$fight::<{ $crate::rules::roster::MAX_FIGHTERS }, _, _>($($arg),*),
        }
    };
}
pub(crate) use in_places;
