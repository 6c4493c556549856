//! The end of a fighter's turn in the duel (INJURY SEQUENCE step 4 SHOCK and step 5 INJURY
//! EFFECT): the Shock Reroll of an INC fighter at the end of its next turn (Extended Shock and
//! a coma on a failure), the Shock roll that shakes off STN, and the Morale roll (an Initiative
//! test) a Serious or Grievous injury calls for once the fighter is no longer stunned.

use super::Purpose;
use super::injury::{Reroll, ShockState, shock_reroll};
use super::melee::{Melee, Pair, State};
use super::skill::Test;
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::stats::Side;

impl Melee {
    /// The end of a fighter's turn: shock rerolls, standing up, recovering a weapon, morale.
    /// Its dice come from the turn's stream `turn` with the purpose [`Purpose::EndOfTurn`],
    /// named before the first of them: most turns end with no roll, and then no stream is
    /// named.
    pub fn end_of_turn<D: Dice, L: Log>(
        &self,
        (side, turn): (Side, Stream),
        states: &mut impl Pair,
        dice: &mut D,
        log: &mut L,
    ) {
        let me = states.place(side);
        let s = &mut states[side];
        if s.dead | s.routed {
            return;
        }
        // "at the end of the target's next turn": not the turn in which the state came.
        let due = s.reroll_due & (s.shock_turn < s.turn);
        let mut named = false;
        match s.shock {
            // INC rerolls at the end of the next turn; UNC only after ten minutes, when the
            // duel is long over: its reroll belongs to the healing timeline.
            ShockState::Incapacitated if due && s.extended_shock.is_none() => {
                dice.stream(turn.with_purpose(Purpose::EndOfTurn));
                named = true;
                self.reroll_incapacitated(me, s, dice, log);
            }
            ShockState::Stunned if due => {
                dice.stream(turn.with_purpose(Purpose::EndOfTurn));
                named = true;
                self.shake_off_stun(me, s, dice, log);
            }
            _ => {}
        }
        if self.rules.morale & s.morale_due & (s.shock == ShockState::None) {
            s.morale_due = false;
            if !named {
                dice.stream(turn.with_purpose(Purpose::EndOfTurn));
            }
            self.morale_roll(me, s, dice, log);
        }
    }

    /// An Incapacitated fighter's Shock Reroll at the end of its next turn: Extended Shock,
    /// Stunned, or recovered.
    fn reroll_incapacitated<D: Dice, L: Log>(
        &self,
        me: usize,
        s: &mut State,
        dice: &mut D,
        log: &mut L,
    ) {
        let f = &self.members[me];
        let (t, r) = shock_reroll(
            dice,
            f.shock_ml - f.fatigue - s.weakness,
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
                self.names[me],
                t.roll,
                t.eml,
                t.level.abbreviation(),
                s.shock.abbreviation()
            )
        });
    }

    /// A Stunned fighter's Shock roll at the end of its next turn: a success shakes it off.
    fn shake_off_stun<D: Dice, L: Log>(&self, me: usize, s: &mut State, dice: &mut D, log: &mut L) {
        let f = &self.members[me];
        let t = Test::roll(
            dice,
            f.shock_ml - f.fatigue - s.weakness,
            "d100 (Shock roll to shake off STN)",
        );
        if t.level.is_success() {
            s.shock = ShockState::None;
            s.reroll_due = false;
        }
        log.say(|| {
            format!(
                "  {} Shock roll {} vs EML{}: {}",
                self.names[me],
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

    /// The Morale roll (on Initiative) of a fighter due one and free of shock: a failure
    /// routs it from the fight.
    fn morale_roll<D: Dice, L: Log>(&self, me: usize, s: &mut State, dice: &mut D, log: &mut L) {
        let f = &self.members[me];
        let t = Test::roll(
            dice,
            f.initiative_ml - f.fatigue - s.weakness,
            "d100 (Morale roll: Initiative)",
        );
        if !t.level.is_success() {
            s.routed = true;
        }
        log.say(|| {
            format!(
                "  {} Morale roll {} vs EML{}: {}",
                self.names[me],
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
