//! guard-pierce in a campaign: a fighter carries its Injury rows (and the days its recovery has
//! run, and its infections) from one fight into the next; Stun does not carry, for "If you rest
//! for a minute, all Stun clears" (L53). A wounded fighter begins the next fight with the
//! penalty of its highest Wound (L40) and unable to act when a Wound is above its worst penalty
//! row (L44); a rest runs its recovery rolls, infection and all (L55–L64), on the days of rest
//! they fall on.

use super::GuardPierce;
use super::healing::Rolled;
use super::skirmish::Acts;
use super::wound_track::WoundRows;
use super::{EXTRA_INFECTED, EXTRA_INFECTIONS, Purpose};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::campaign::{Carried, Ended, Seats};
use crate::rules::roster::MAX_FIGHTERS;
use crate::rules::rounds::{fight_in_rounds, in_places};
use crate::stats::{Side, Tally};

/// What a guard-pierce fighter carries between fights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Condition {
    /// Its wound rows (Stun cleared after each fight).
    pub rows: WoundRows,
    /// Days its recovery has run since it was last whole.
    pub rested: u32,
    /// Infections in its rests so far: counted with its recovery at the campaign's end.
    pub infections: u64,
}

impl GuardPierce {
    /// [`Carried::fight_on`] in a fight of `N` places.
    fn fight_on_in<const N: usize, D: Dice, L: Log>(
        &self,
        party: &mut [Condition],
        present: &[bool],
        seats: Seats,
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) -> Ended {
        let mut f = self.fresh_fight::<N>();
        for (i, c) in party.iter().enumerate() {
            f.rows[i] = c.rows;
            f.ready(self, i);
            if !present[i] || !self.able(i, c) {
                f.acts[i] = Acts::Out;
                f.field.sit_out(&self.roster, i);
            }
        }
        let sat_out = f.field.out;
        let (winner, rounds) = fight_in_rounds!(self, f, Purpose::FirstStrike, (dice, log), tally);
        let (dead, _) = self.fates(&mut f, sat_out, log, tally);
        let mut ended = Ended {
            winner,
            rounds,
            out: [false; MAX_FIGHTERS],
            dead: [false; MAX_FIGHTERS],
        };
        let n = self.roster.len();
        ended.out[..n].copy_from_slice(&f.field.out[..n]);
        ended.dead[..n].copy_from_slice(&dead[..n]);
        for (i, c) in party.iter_mut().enumerate() {
            if present[i] {
                c.rows = f.rows[i];
            }
        }
        for (j, rows) in f.rows.iter().enumerate().take(n).skip(party.len()) {
            if !dead[j] && rows.injury != 0 {
                self.recover_counted(j, (seats.of(j), *rows, 0), (dice, log), tally);
            }
        }
        ended
    }
}

impl Carried for GuardPierce {
    type Condition = Condition;

    fn fight_on<D: Dice, L: Log>(
        &self,
        party: &mut [Condition],
        present: &[bool],
        seats: Seats,
        dice_and_log: (&mut D, &mut L),
        tally: &mut Tally,
    ) -> Ended {
        in_places!(
            self.roster.len(),
            self.fight_on_in(party, present, seats, dice_and_log, tally)
        )
    }

    fn rest<D: Dice, L: Log>(
        &self,
        i: usize,
        c: &mut Condition,
        days: u32,
        (dice, log): (&mut D, &mut L),
    ) -> bool {
        if !Self::wounded(c) {
            return false;
        }
        dice.stream(Stream::new(Purpose::Recovery, i, 0));
        log.say(|| {
            format!(
                "{} rests {days} days with Injury {:?}",
                self.roster.fighter_names[i],
                crate::rules::two_d20::rows_of(c.rows.injury)
            )
        });
        let span = (c.rested, c.rested + days);
        let rolled = self.recovery_rolls(i, &mut c.rows, span, (dice, log), &mut c.infections);
        c.rested = match rolled {
            Rolled::Whole(_) => 0,
            _ => c.rested + days,
        };
        rolled == Rolled::Died
    }

    fn heal<D: Dice, L: Log>(
        &self,
        i: usize,
        c: Condition,
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) -> bool {
        let mut infections = c.infections;
        dice.stream(Stream::new(Purpose::Recovery, i, 0));
        let recovery = self.recover_from(i, c.rows, c.rested, (dice, log), &mut infections);
        tally.record_recovery_of(i, Side::A, &recovery);
        tally.record_extra(EXTRA_INFECTED, u64::from(infections > 0));
        tally.record_extra(EXTRA_INFECTIONS, infections);
        recovery.died
    }

    fn roster(&self) -> &crate::rules::roster::Roster {
        &self.roster
    }

    fn wounded(c: &Condition) -> bool {
        c.rows.injury != 0
    }

    fn able(&self, i: usize, c: &Condition) -> bool {
        let track = &self.members[i].track;
        c.rows.can_act(track) && !c.rows.dead(track)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::FirstStrike;
    use crate::rules::Ruleset;
    use crate::rules::campaign::fight_scripted;
    use crate::rules::guard_pierce::test_support::{fighter, ledger_point, rows};
    use crate::rules::guard_pierce::{Healing, Rules};

    /// a (Attack 14, Guard 5, Damage 15) strikes first at b, who has no attack to speak of.
    fn a_strikes_first() -> GuardPierce {
        let rules = Rules {
            first_strike: FirstStrike::A,
            ..Rules::default()
        };
        ledger_point(
            fighter(14, 5, 15, 5),
            fighter(0, 5, 1, 0),
            rules,
            Healing::default(),
            40,
        )
    }

    fn fight_from(model: &GuardPierce, carried: Condition, dice: &[u32]) -> (Ended, String) {
        fight_scripted(model, &mut [carried], ScriptedDice::new(dice.to_vec()))
    }

    #[test]
    fn a_fighter_who_begins_wounded_attacks_with_the_penalty_of_its_highest_wound() {
        // L40: "Most of your combat actions ... suffer the penalty of the highest Wound you've
        // sustained." L42: "if you take 5 Damage and your Wounds 5 row has "3" written on it,
        // you suffer -3". The default sheet's row 5 has 3.
        let model = a_strikes_first();
        // Fresh: black 12 hits (above Guard 5, within Attack 14), white 20 misses: a Hit; the
        // Damage roll on 15 gives 13: b's Injury 13 is above its worst row 12: out.
        let (ended, story) = fight_from(&model, Condition::default(), &[12, 20, 9, 13]);
        assert_eq!(ended.winner, Some(Side::A), "{story}");
        // Carrying an Injury on row 5 from an earlier fight: Attack 14 - 3 = 11, and the same
        // black 12 misses; no Damage roll, and b has its turn.
        let carried = Condition {
            rows: rows(&[5], &[]),
            ..Condition::default()
        };
        let (ended, story) = fight_from(&model, carried, &[12, 20]);
        assert_eq!(ended.winner, None, "{story}");
        assert!(!story.contains("Injury 13"), "{story}");
    }

    #[test]
    fn an_injury_above_the_worst_penalty_row_leaves_a_fighter_unable_to_begin_the_next_fight() {
        // L44: "If you mark any Wound higher up than your worst penalty, you're unable to act."
        let model = a_strikes_first();
        let carried = Condition {
            rows: rows(&[13], &[]),
            ..Condition::default()
        };
        assert!(!model.able(0, &carried));
        assert!(model.able(0, &Condition::default()));
    }

    #[test]
    fn rest_runs_the_recovery_rolls_of_its_days_and_an_infection_can_kill() {
        // L55-L64: a recovery roll every interval on the highest Injury; a result equal to an
        // Injury infects: a new Injury, marked as usual, and no healing.
        let healing = Healing {
            interval_days: crate::scenario::fields::Ranged::new(7),
            ..Healing::default()
        };
        let model = ledger_point(
            fighter(14, 5, 15, 5),
            fighter(14, 5, 15, 5),
            Rules::default(),
            healing,
            40,
        );
        let mut c = Condition {
            rows: rows(&[3, 8], &[]),
            ..Condition::default()
        };
        // Six days: no roll.
        let mut scripted = ScriptedDice::new(vec![]);
        assert!(!model.rest(0, &mut c, 6, (&mut scripted, &mut VecLog::default())));
        assert_eq!((scripted.used(), c.rested), (0, 6));
        // Day 7: the roll on Injury 8 gives 3, equal to the Injury on row 3: infected, a new
        // Injury marked on row 3's next empty row above (4), no healing.
        let mut scripted = ScriptedDice::new(vec![3, 20]);
        let mut log = VecLog::default();
        let died = model.rest(0, &mut c, 1, (&mut scripted, &mut log));
        assert!(!died, "{:?}", log.lines);
        assert_eq!(c.infections, 1);
        assert_eq!(
            c.rows.injury,
            rows(&[3, 4, 8], &[]).injury,
            "{:?}",
            log.lines
        );
        // Counted with its recovery at the end: infected once, however many rolls follow.
        let mut tally = Tally::new(model.shape());
        let mut scripted = ScriptedDice::new(vec![8, 20, 3, 20]);
        model.heal(0, c, (&mut scripted, &mut VecLog::default()), &mut tally);
        assert_eq!(tally.extra[EXTRA_INFECTED], 1);
        assert!(tally.extra[EXTRA_INFECTIONS] >= 1);
    }
}
