//! The "Heal Dice" after the fight ("Put dice here, totalling your remaining Heal Dice"; how
//! they heal is our design, `[healing]` in `docs/rules/d6-pool.md`): each day up to
//! `heal_dice_per_day` dice from the pool, each restoring its roll, while below full health;
//! then natural healing if set, within the horizon.

use super::D6Pool;
use crate::dice::Dice;
use crate::log::Log;
use crate::stats::Recovery;

impl D6Pool {
    /// The heal dice after the fight: each day up to `heal_dice_per_day` dice from the pool,
    /// each restoring its roll, while below full health; then natural healing if set. Returns
    /// the timeline and the heal dice spent. In line: the duel's hot path calls it, and so do a
    /// fight's and a campaign's survivors (`heal_counted`), which would put it out of line.
    #[inline(always)]
    pub fn recover<D: Dice, L: Log>(
        &self,
        fighter: usize,
        mut health: i32,
        mut pool: u32,
        dice: &mut D,
        log: &mut L,
    ) -> (Recovery, u32) {
        // The name only when narrated: looked up eagerly, its bounds check sits in every
        // trial's healing.
        let name = || &self.roster.fighter_names[fighter];
        let full = self.members[fighter].health;
        let per_day = self.healing.heal_dice_per_day.u32();
        let horizon = self.healing.horizon_days.u32();
        let natural = self.healing.natural_days_per_point.u32();
        log.say(|| {
            format!(
                "{} recovers from health {health} of {full} with {pool} heal dice",
                name()
            )
        });
        let mut day = 0;
        let mut spent = 0;
        while health < full && pool > 0 && day < horizon && !dice.exhausted() {
            day += 1;
            let mut today = 0;
            while today < per_day && pool > 0 && health < full {
                health += dice.d(6, "d6 (heal die)") as i32;
                pool -= 1;
                today += 1;
            }
            spent += today;
            log.say(|| {
                format!(
                    "day {day}: {today} heal dice: health {}, {pool} heal dice left",
                    health.min(full)
                )
            });
        }
        // Whole from the heal dice, or after natural healing within the horizon: found by
        // selects, since whether the dice sufficed is random (a branch on it is mispredicted).
        let whole = health >= full;
        let deficit = (full - health).max(0) as u32;
        let healed_naturally = day.saturating_add(natural.saturating_mul(deficit));
        if !whole && natural > 0 {
            log.say(|| {
                format!("the heal dice are spent: {deficit} points of natural healing, {natural} days each")
            });
        }
        let on = std::hint::select_unpredictable(whole, day, healed_naturally);
        let whole_on = (whole | (natural > 0 && on <= horizon)).then_some(on);
        match whole_on {
            Some(d) => log.say(|| format!("{} is whole after {d} days", name())),
            None => log.say(|| format!("{} is not whole at the horizon ({horizon} days)", name())),
        }
        (
            Recovery {
                days_to_whole: whole_on,
                died: false,
                impairment: 0,
            },
            spent,
        )
    }
}

#[cfg(test)]
mod tests {
    use crate::dice::ScriptedDice;
    use crate::log::NoLog;
    use crate::rules::d6_pool::test_support::{a_first, bare, fighter, model, model_with, run};
    use crate::rules::d6_pool::{EXTRA_HEAL, Fighter, Healing, Rules};
    use crate::scenario::fields::Ranged;

    #[test]
    fn heal_dice_restore_their_roll_a_day_until_whole_or_the_pool_runs_out() {
        let m = model(
            Fighter {
                heal: 3,
                ..fighter()
            },
            bare(),
        );
        // Health 2 of 10: day 1 a 5 (7), day 2 a 4 (11): whole on day 2, one die left.
        let (r, spent) = m.recover(0, 2, 3, &mut ScriptedDice::new([5, 4]), &mut NoLog);
        assert_eq!((r.days_to_whole, r.died, spent), (Some(2), false, 2));
        // From -3: 1 + 2 + 3 = 6 restores only to 3: unhealed when the pool runs out.
        let (r, spent) = m.recover(0, -3, 3, &mut ScriptedDice::new([1, 2, 3]), &mut NoLog);
        assert_eq!((r.days_to_whole, spent), (None, 3));
        // Two dice a day: the same three dice whole on day 2.
        let two = Healing {
            heal_dice_per_day: Ranged::new(2),
            ..Healing::default()
        };
        let m2 = model_with(fighter(), bare(), Rules::default(), two);
        let (r, _) = m2.recover(0, 2, 3, &mut ScriptedDice::new([5, 1, 4]), &mut NoLog);
        assert_eq!(r.days_to_whole, Some(2));
        // Natural healing once the pool is spent: from 1, 1 + 2 + 3 = 7, 3 short, 7 days a
        // point: day 3 + 21.
        let natural = Healing {
            natural_days_per_point: Ranged::new(7),
            horizon_days: Ranged::new(30),
            ..Healing::default()
        };
        let m3 = model_with(fighter(), bare(), Rules::default(), natural.clone());
        let (r, _) = m3.recover(0, 1, 3, &mut ScriptedDice::new([1, 2, 3]), &mut NoLog);
        assert_eq!(r.days_to_whole, Some(24));
        // Beyond the horizon (30 days): from 0, 4 short is 3 + 28 = 31: unhealed.
        let (r, _) = m3.recover(0, 0, 3, &mut ScriptedDice::new([1, 2, 3]), &mut NoLog);
        assert_eq!(r.days_to_whole, None);
        // Through a trial: a survivor spends its heal dice; the tally counts them.
        let a = Fighter {
            heal: 3,
            ..fighter()
        };
        let b = Fighter {
            health: 3,
            ..bare()
        };
        let m = model_with(a, b, a_first(), Healing::default());
        // a hits for 1 (one 4); b hits a for 2 (one 5; a's 3 defence dice show no 6);
        // a finishes b with a double 6 (b at -1). a heals: a 1 then a 2: whole on day 2.
        let (t, log) = run(&m, &[4, 1, 1, 5, 1, 1, 1, 1, 1, 6, 6, 1, 1, 2]);
        assert_eq!(t.ends, [1, 0, 0], "{log:?}");
        assert_eq!(t.recovery[0].days_to_whole.bins()[2], 1, "{log:?}");
        assert_eq!(t.recovery[1].unhealed, 1, "b has no heal dice");
        assert_eq!(t.extra[EXTRA_HEAL], 2);
    }
}
