//! twin-d20 in a campaign: a fighter carries its marked wound circles (and the days its
//! Recovery has run) from one fight into the next. A wounded fighter fights with its circles
//! already marked (a new Wound takes the next empty circle above, L12–L13, and a Wound above
//! Toughness incapacitates it sooner); a rest runs its Recovery rolls (with Medicine) on the
//! days of rest they fall on.

use super::TwinD20;
use super::wound_circles::WoundCircles;
use super::{Fight, Purpose};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::campaign::{Carried, Ended, Seats};
use crate::rules::roster::MAX_FIGHTERS;
use crate::rules::rounds::{Field, fight_in_rounds};
use crate::stats::{Side, Tally};

/// What a twin-d20 fighter carries between fights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Condition {
    /// Its marked wound circles.
    pub wounds: WoundCircles,
    /// Days its Recovery has run since it was last whole: the next roll falls on the next
    /// multiple of the interval.
    pub rested: u32,
}

impl Carried for TwinD20 {
    type Condition = Condition;

    fn fight_on<D: Dice, L: Log>(
        &self,
        party: &mut [Condition],
        present: &[bool],
        seats: Seats,
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) -> Ended {
        let mut f = Fight::<MAX_FIGHTERS> {
            wounds: [WoundCircles::default(); MAX_FIGHTERS],
            field: Field::new(&self.roster),
        };
        for (i, c) in party.iter().enumerate() {
            f.wounds[i] = c.wounds;
            if !present[i] || !self.able(i, c) {
                f.field.sit_out(&self.roster, i);
            }
        }
        let sat_out = f.field.out;
        let (winner, rounds) = fight_in_rounds!(self, f, Purpose::FirstStrike, (dice, log), tally);
        let n = self.fighters.len();
        let mut ended = Ended {
            winner,
            rounds,
            out: f.field.out,
            dead: [false; MAX_FIGHTERS],
        };
        // The Aftermath of everyone who fought (those sitting out had theirs).
        for (i, &sat) in sat_out.iter().enumerate().take(n) {
            if !sat {
                ended.dead[i] = self.aftermath_of(i, &mut f.wounds[i], log);
            }
        }
        for (i, c) in party.iter_mut().enumerate() {
            if present[i] {
                c.wounds = f.wounds[i];
            }
        }
        for j in party.len()..n {
            if !ended.dead[j] && f.wounds[j].any() {
                let recovery = self.recover_of(j, f.wounds[j], dice, log);
                tally.record_recovery_of(seats.of(j), Side::B, &recovery);
            }
        }
        ended
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
                "{} rests {days} days with wounds {:?}",
                self.roster.fighter_names[i],
                c.wounds.list()
            )
        });
        let whole = self.recovery_rolls(i, &mut c.wounds, (c.rested, c.rested + days), dice, log);
        c.rested = if whole.is_some() { 0 } else { c.rested + days };
        // The text's Recovery heals or does nothing: no one dies resting.
        false
    }

    fn heal<D: Dice, L: Log>(
        &self,
        i: usize,
        c: Condition,
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) -> bool {
        let recovery = self.recover_from(i, c.wounds, c.rested, dice, log);
        tally.record_recovery_of(i, Side::A, &recovery);
        recovery.died
    }

    fn roster(&self) -> &crate::rules::roster::Roster {
        &self.roster
    }

    fn wounded(c: &Condition) -> bool {
        c.wounds.any()
    }

    fn able(&self, i: usize, c: &Condition) -> bool {
        c.wounds.highest() <= self.fighters[i].toughness
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
    use crate::rules::twin_d20::test_support::{fighter, ledger_point};
    use crate::rules::twin_d20::{Healing, Rules};

    /// a (Toughness 9) against b (Damage 2), b striking first; no Aftermath.
    fn b_strikes_first() -> TwinD20 {
        let rules = Rules {
            first_strike: FirstStrike::B,
            aftermath: false,
            ..Rules::default()
        };
        ledger_point(
            fighter(12, 6, 9, 2),
            fighter(12, 6, 9, 2),
            rules,
            Healing::default(),
            50,
        )
    }

    /// Party fighter a fights b from `carried` on scripted dice: how it ended, a's condition
    /// after, and the story.
    fn fight_from(model: &TwinD20, carried: Condition, dice: &[u32]) -> (Ended, Condition, String) {
        let mut party = [carried];
        let (ended, story) = fight_scripted(model, &mut party, ScriptedDice::new(dice.to_vec()));
        (ended, party[0], story)
    }

    #[test]
    fn a_fighter_who_begins_wounded_marks_the_nearest_empty_circle_above_and_falls_sooner() {
        // L13: "If the circle is already filled from a previous Wound, mark the nearest empty
        // circle above it instead. Wounds higher than your Toughness means you're incapacitated."
        // b's strike: black 3 misses Defense 6, white 11 hits: Damage 2 + 3 = 5 (L3's example).
        let model = b_strikes_first();
        let fresh = Condition::default();
        let (ended, after, story) = fight_from(&model, fresh, &[3, 11]);
        assert_eq!(after.wounds.list(), vec![5], "{story}");
        assert_eq!(ended.winner, None, "a fights on; the dice run out\n{story}");
        // The same strike on a fighter carrying Wounds 5 to 9 from an earlier fight: circle 5
        // is filled, and so is every circle up to 9, so it marks 10, above Toughness 9.
        let carried = Condition {
            wounds: WoundCircles::from_wounds(&[5, 6, 7, 8, 9]),
            rested: 0,
        };
        let (ended, after, story) = fight_from(&model, carried, &[3, 11]);
        assert_eq!(after.wounds.list(), vec![5, 6, 7, 8, 9, 10], "{story}");
        assert_eq!(ended.winner, Some(Side::B), "{story}");
        assert!(ended.out[0] && !ended.dead[0]);
        crate::log::assert_in_order(
            &story,
            &[
                "a marks Wound 10",
                "a is incapacitated (Wound 10 above Toughness 9): b wins",
            ],
        );
    }

    #[test]
    fn a_fighter_unable_to_fight_sits_the_fight_out_and_a_dead_one_takes_no_part() {
        // Two of the party (a 1 and a 2) against b, who strikes first at the first foe standing.
        let member = |side, name: &str| crate::rules::twin_d20::Member {
            side,
            fighter: fighter(12, 6, 9, 2),
            name: name.into(),
            target: crate::scenario::schema::Target::default(),
        };
        let model = TwinD20::skirmish(
            vec![
                member(Side::A, "a 1"),
                member(Side::A, "a 2"),
                member(Side::B, "b"),
            ],
            Rules {
                first_strike: FirstStrike::B,
                ..Rules::default()
            },
            Healing::default(),
            50,
        );
        // a 1 carries Wound 10, above Toughness 9: incapacitated before the fight.
        let hurt = Condition {
            wounds: WoundCircles::from_wounds(&[10]),
            rested: 0,
        };
        assert!(!model.able(0, &hurt));
        for present in [[true, true], [false, true]] {
            let mut party = [hurt, Condition::default()];
            let mut scripted = ScriptedDice::new(vec![3, 11]);
            let mut log = VecLog::default();
            let mut tally = Tally::new(model.shape());
            let dice_and_log = (&mut scripted, &mut log);
            let ended = model.fight_on(
                &mut party,
                &present,
                Seats::alone(2),
                dice_and_log,
                &mut tally,
            );
            let story = log.lines.join("\n");
            // b's strike goes to a 2, the one standing; a 1 keeps its wounds and has no
            // Aftermath (it did not fight), and is out of the fight from the start.
            assert!(story.contains("a 2 marks Wound 5"), "{story}");
            assert!(!story.contains("Aftermath: a 1"), "{story}");
            assert_eq!(party[0], hurt);
            // a 2 fought: its Aftermath marks the circle above its Wound 5 (L15).
            assert_eq!(party[1].wounds.list(), vec![5, 6]);
            assert!(ended.out[0] && !ended.dead[0]);
        }
    }

    #[test]
    fn rest_rolls_recovery_on_the_days_of_its_interval_and_carries_the_days_between_rests() {
        // L18: "Every group needs to agree on the recovery rate ... once a week"; "If the roll
        // succeeds, lower your highest Wound by the result. Any other Wounds along the way are
        // healed." L20's example: Toughness 8, Wounds 6 and 7, Black 11 White 4: 4 success, the
        // 7 lowered to 3 and the 6 removed.
        let model = ledger_point(
            fighter(12, 6, 8, 2),
            fighter(12, 6, 8, 2),
            Rules::default(),
            Healing::default(),
            50,
        );
        let mut c = Condition {
            wounds: WoundCircles::from_wounds(&[6, 7]),
            rested: 0,
        };
        // Six days of a weekly rate: no roll yet.
        let mut scripted = ScriptedDice::new(vec![]);
        let died = model.rest(0, &mut c, 6, (&mut scripted, &mut VecLog::default()));
        assert!(!died && scripted.used() == 0);
        assert_eq!((c.wounds.list(), c.rested), (vec![6, 7], 6));
        // One more day: day 7, the roll of the example.
        let mut scripted = ScriptedDice::new(vec![11, 4]);
        let mut log = VecLog::default();
        model.rest(0, &mut c, 1, (&mut scripted, &mut log));
        assert_eq!(scripted.used(), 2);
        assert_eq!(c.wounds.list(), vec![3], "{:?}", log.lines);
        // Healing after the campaign goes on from day 7: the next roll on day 14, 7 days on.
        let mut scripted = ScriptedDice::new(vec![3, 20]);
        let mut log = VecLog::default();
        let mut tally = Tally::new(model.shape());
        model.heal(0, c, (&mut scripted, &mut log), &mut tally);
        assert_eq!(tally.recovery[0].patients, 1);
        assert_eq!(
            tally.recovery[0].days_to_whole.bins()[7],
            1,
            "whole 7 days on: {:?}",
            log.lines
        );
    }
}
