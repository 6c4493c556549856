//! wound-levels in a campaign: a fighter carries its damage from one fight into the next ("If
//! you are already injured and are wounded again, the damage is added to your existing damage",
//! L19) with its level's penalty to every roll (L24–L28), and sits out at Terminal ("Actions not
//! possible", L29). After a fight that is not the last, a wounded survivor deteriorates until
//! help arrives, as after any fight (L28–L30, `healing.help_minutes`); the days of rest then run
//! its healing checks. Its clip, spare clips and thrown weapon are its own again at the next
//! fight: the text says nothing of them between fights (see the assumptions).

use super::{Purpose, WoundLevels};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::campaign::{Carried, Ended, Seats};
use crate::stats::{Side, Tally};

/// What a wound-levels fighter carries between fights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Condition {
    /// Its levels of damage.
    pub damage: u32,
    /// Whether help has come since its last wound (its deterioration is over).
    pub stabilized: bool,
    /// Whether it reached Terminal before help came, in a rest so far.
    pub terminal: bool,
    /// Days its healing has run since help came.
    pub rested: u32,
}

impl Carried for WoundLevels {
    type Condition = Condition;

    fn fight_on<D: Dice, L: Log>(
        &self,
        party: &mut [Condition],
        present: &[bool],
        seats: Seats,
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) -> Ended {
        let mut f = self.start_fight();
        for (i, c) in party.iter().enumerate() {
            f.states[i].damage = c.damage;
            // Those who cannot fight are out from the start; the dead are dead already (their
            // death is not told again at a turn's end).
            f.out[i] = !present[i] || !self.able(i, c);
            f.dead[i] = !present[i];
        }
        let (winner, rounds) = self.fight_turns(&mut f, dice, log, tally);
        let n = self.roster.len();
        let ended = Ended {
            winner,
            rounds,
            out: f.out,
            dead: f.dead,
        };
        for (i, c) in party.iter_mut().enumerate() {
            let damage = f.states[i].damage;
            if present[i] && damage != c.damage {
                // New wounds: they deteriorate until help comes, as any fight's.
                *c = Condition {
                    damage,
                    stabilized: false,
                    ..*c
                };
            }
        }
        for j in party.len()..n {
            let damage = f.states[j].damage;
            if !f.dead[j] && damage > 0 {
                self.aftermath_counted(j, (seats.of(j), damage), (dice, log), tally);
            }
        }
        ended
    }

    fn tend<D: Dice, L: Log>(
        &self,
        i: usize,
        c: &mut Condition,
        (dice, log): (&mut D, &mut L),
    ) -> bool {
        if c.stabilized {
            return false;
        }
        dice.stream(Stream::new(Purpose::Aftermath, i, 0));
        let died = self.until_help(i, &mut c.damage, (dice, log), &mut c.terminal);
        c.stabilized = true;
        c.rested = 0;
        died
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
        // A stream of its own: the deterioration (`tend`) drew from the first, in this
        // encounter or one before.
        dice.stream(Stream::new(Purpose::Aftermath, i, 0).nth(1));
        log.say(|| {
            format!(
                "{} rests {days} days at damage {}",
                self.roster.fighter_names[i], c.damage
            )
        });
        let span = (c.rested, c.rested + days);
        let whole = self.healing_checks(i, &mut c.damage, span, (dice, log));
        c.rested = if whole.is_some() { 0 } else { c.rested + days };
        false
    }

    fn heal<D: Dice, L: Log>(
        &self,
        i: usize,
        c: Condition,
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) -> bool {
        if !c.stabilized {
            return self.aftermath_counted(i, (i, c.damage), (dice, log), tally);
        }
        dice.stream(Stream::new(Purpose::Aftermath, i, 0));
        let r = self.heal_from(i, c.damage, c.rested, (dice, log));
        tally.record_recovery_of(i, Side::A, &r);
        tally.record_extra(0, u64::from(r.died));
        tally.record_extra(1, u64::from(c.terminal));
        r.died
    }

    fn roster(&self) -> &crate::rules::roster::Roster {
        &self.roster
    }

    fn wounded(c: &Condition) -> bool {
        c.damage > 0
    }

    fn able(&self, _i: usize, c: &Condition) -> bool {
        Self::level(c.damage) < 6
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::VecLog;
    use crate::rules::campaign::fight_scripted;
    use crate::rules::wound_levels::test_support::{bob_and_adam, ledger_quiet, script};

    /// Bob (the party) fights Adam from `carried` on scripted fudge totals: the story.
    fn story(carried: Condition, rolls: &[i32]) -> (Ended, String) {
        let model = bob_and_adam(ledger_quiet());
        fight_scripted(&model, &mut [carried], script(rolls))
    }

    #[test]
    fn a_fighter_who_begins_wounded_rolls_with_its_levels_penalty() {
        // L19: "If you are already injured and are wounded again, the damage is added to your
        // existing damage." L26: "3) Moderate: -2 to move; -1 to all other rolls." L51: "Bob
        // gets an initiative of 4, after subtracting his Wound Penalty of -1."
        // Initiative rolls: Bob 1 (+3), Adam 3 (+3); then the dice run out.
        let (_, fresh) = story(Condition::default(), &[1, 3]);
        assert!(
            fresh.contains("turn 1: initiative Adam 6, Bob 4"),
            "{fresh}"
        );
        // Bob carrying 3 levels (Moderate) from an earlier fight: 1 + 3 - 1.
        let moderate = Condition {
            damage: 3,
            stabilized: true,
            ..Condition::default()
        };
        let (_, wounded) = story(moderate, &[1, 3]);
        assert!(
            wounded.contains("turn 1: initiative Adam 6, Bob 3"),
            "{wounded}"
        );
        // 5 levels (Critical): -3.
        let critical = Condition {
            damage: 5,
            ..moderate
        };
        let (_, worse) = story(critical, &[1, 3]);
        assert!(
            worse.contains("turn 1: initiative Adam 6, Bob 1"),
            "{worse}"
        );
    }

    #[test]
    fn at_terminal_a_fighter_cannot_begin_the_next_fight() {
        // L29: "6) Terminal: Actions not possible."
        let model = bob_and_adam(ledger_quiet());
        let terminal = Condition {
            damage: 6,
            ..Condition::default()
        };
        assert!(!model.able(0, &terminal));
        assert!(model.able(
            0,
            &Condition {
                damage: 5,
                ..terminal
            }
        ));
    }

    #[test]
    fn after_a_fight_a_critical_fighter_deteriorates_until_help_then_rest_heals_it() {
        // L28: "5) Critical: ... Physique checks every hour; on failure, drop to Terminal."
        // Help after two hours: hours 1 and 2 hold (1 + 3 - 3 = 1); stabilized.
        let healing = crate::rules::wound_levels::Healing {
            help_minutes: crate::scenario::fields::Ranged::new(120),
            ..crate::rules::wound_levels::Healing::default()
        };
        let model = bob_and_adam(healing);
        let mut c = Condition {
            damage: 5,
            ..Condition::default()
        };
        let mut dice = script(&[1, 1]);
        let mut log = VecLog::default();
        assert!(!model.tend(0, &mut c, (&mut dice, &mut log)));
        assert!(c.stabilized && c.damage == 5, "{:?}", log.lines);
        // Tended once: a second rest does not deteriorate again.
        assert!(!model.tend(0, &mut c, (&mut script(&[]), &mut log)));
        // A week's healing check (every 7 days): 0 + 3 - 3 = 0 fails; 7 days more: 3 + 3 - 3
        // holds: a level healed, and the days carry between rests.
        model.rest(0, &mut c, 7, (&mut script(&[0]), &mut log));
        assert_eq!((c.damage, c.rested), (5, 7));
        model.rest(0, &mut c, 7, (&mut script(&[3]), &mut log));
        assert_eq!((c.damage, c.rested), (4, 14), "{:?}", log.lines);
    }
}
