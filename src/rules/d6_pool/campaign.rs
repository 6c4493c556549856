//! d6-pool in a campaign: a fighter carries its health and what is left of its pools from one
//! fight into the next; the sheet keeps "your remaining Luck Dice", "your remaining Heal Dice"
//! and "your remaining Ammo", and says nothing of refilling them, so what is spent stays spent
//! until a rest of `healing.refill_rest_days` (see the assumptions). A wounded fighter begins
//! the next fight at its health, nearer `out_at`; a rest spends its heal dice day by day
//! (`healing.heal_dice_per_day`), then heals a point every `healing.natural_days_per_point`
//! days once they are gone, and refills its pools at its end.

use super::skirmish::Fight;
use super::{D6Pool, EXTRA_HEAL, Purpose};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::campaign::{Carried, Ended, Seats};
use crate::rules::roster::MAX_FIGHTERS;
use crate::rules::rounds::fight_in_rounds;
use crate::stats::Tally;

/// What a d6-pool fighter carries between fights.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Condition {
    /// Its health.
    pub health: i32,
    /// Its full health (the sheet's), to tell a wound.
    pub full: i32,
    /// Heal dice left.
    pub heal: u32,
    /// Luck dice left.
    pub luck: u32,
    /// Ammunition left.
    pub ammo: u32,
    /// Days of natural healing toward its next point.
    pub natural: u32,
    /// Heal dice spent in its rests: counted with its healing at the campaign's end.
    pub spent: u32,
}

impl D6Pool {
    /// Sets up the party's places of fight `f` from their conditions: health and pools; those
    /// not present, or out, sit the fight out.
    fn seat_party(&self, f: &mut Fight, party: &[Condition], present: &[bool]) {
        for (i, c) in party.iter().enumerate() {
            let s = &mut f.states[i];
            s.health = c.health;
            s.luck = c.luck;
            s.ammo = c.ammo;
            if !present[i] || !self.able(i, c) {
                f.field.sit_out(&self.roster, i);
            }
        }
    }
}

impl Carried for D6Pool {
    type Condition = Condition;

    fn fresh(&self, i: usize) -> Condition {
        let m = &self.members[i];
        Condition {
            health: m.health,
            full: m.health,
            heal: m.heal,
            luck: m.luck,
            ammo: m.ammo,
            natural: 0,
            spent: 0,
        }
    }

    fn fight_on<D: Dice, L: Log>(
        &self,
        party: &mut [Condition],
        present: &[bool],
        seats: Seats,
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) -> Ended {
        let mut f = self.fresh_fight();
        self.seat_party(&mut f, party, present);
        let sat_out = f.field.out;
        let (winner, rounds) = fight_in_rounds!(self, f, Purpose::FirstStrike, (dice, log), tally);
        self.deaths(&f, &sat_out, log);
        let dead_at = self.rules.dead_at.i32();
        let n = self.roster.len();
        let mut ended = Ended {
            winner,
            rounds,
            out: f.field.out,
            dead: [false; MAX_FIGHTERS],
        };
        for (i, (dead, s)) in ended.dead.iter_mut().zip(&f.states).enumerate().take(n) {
            *dead = !sat_out[i] && s.health <= dead_at;
        }
        for (i, c) in party.iter_mut().enumerate() {
            if present[i] {
                let s = &f.states[i];
                (c.health, c.luck, c.ammo) = (s.health, s.luck, s.ammo);
            }
        }
        for j in party.len()..n {
            let (s, me) = (&f.states[j], &self.members[j]);
            if s.health > dead_at && s.health < me.health {
                self.heal_counted(j, (seats.of(j), s.health, me.heal), (dice, log), tally);
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
        dice.stream(Stream::new(Purpose::Heal, i, 0));
        let per_day = self.healing.heal_dice_per_day.u32();
        let natural = self.healing.natural_days_per_point.u32();
        let name = &self.roster.fighter_names[i];
        log.say(|| {
            format!(
                "{name} rests {days} days from health {} of {} with {} heal dice",
                c.health, c.full, c.heal
            )
        });
        for day in 1..=days {
            if !Self::wounded(c) || dice.exhausted() {
                break;
            }
            if c.heal == 0 {
                // Natural healing, a point every `natural` days (none when 0).
                c.natural += u32::from(natural > 0);
                if natural > 0 && c.natural >= natural {
                    c.health += 1;
                    c.natural = 0;
                }
                continue;
            }
            let mut today = 0;
            while today < per_day && c.heal > 0 && c.health < c.full {
                c.health += dice.d(6, "d6 (heal die)") as i32;
                c.heal -= 1;
                today += 1;
            }
            c.spent += today;
            log.say(|| {
                format!(
                    "day {day}: {today} heal dice: health {}, {} heal dice left",
                    c.health.min(c.full),
                    c.heal
                )
            });
        }
        c.health = c.health.min(c.full);
        log.say(|| format!("{name} ends the rest at health {} of {}", c.health, c.full));
        let refill = self.healing.refill_rest_days.u32();
        if refill > 0 && days >= refill {
            let m = &self.members[i];
            (c.heal, c.luck, c.ammo) = (m.heal, m.luck, m.ammo);
            log.say(|| {
                format!(
                    "{name}'s heal dice, luck dice and ammunition are full again ({} days of rest, refill_rest_days = {refill})",
                    days
                )
            });
        }
        false
    }

    fn heal<D: Dice, L: Log>(
        &self,
        i: usize,
        c: Condition,
        dice_and_log: (&mut D, &mut L),
        tally: &mut Tally,
    ) -> bool {
        self.heal_counted(i, (i, c.health, c.heal), dice_and_log, tally);
        tally.record_extra(EXTRA_HEAL, u64::from(c.spent));
        // The heal dice and natural healing heal or do nothing: no one dies of them.
        false
    }

    fn roster(&self) -> &crate::rules::roster::Roster {
        &self.roster
    }

    fn wounded(c: &Condition) -> bool {
        c.health < c.full
    }

    fn able(&self, _i: usize, c: &Condition) -> bool {
        c.health > self.rules.out_at.i32()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::campaign::fight_scripted;
    use crate::rules::d6_pool::test_support::{a_first, bare, fighter, model_with};
    use crate::rules::d6_pool::{Fighter, Healing};
    use crate::scenario::fields::Ranged;

    #[test]
    fn a_fighter_who_begins_wounded_begins_at_its_health_and_falls_sooner() {
        // The sheet's health track: a fighter at `out_at` (0) or below is out. The party's a
        // (no defence dice) takes b's blow: three attack dice 4, 1, 1: "one 4" does 1 damage.
        let rules = crate::rules::d6_pool::Rules {
            first_strike: crate::rules::FirstStrike::B,
            ..crate::rules::d6_pool::Rules::default()
        };
        let m = model_with(bare(), fighter(), rules, Healing::default());
        let fight = |c: Condition| {
            let mut party = [c];
            let (ended, story) = fight_scripted(&m, &mut party, ScriptedDice::new(vec![4, 1, 1]));
            (ended.winner, party[0].health, story)
        };
        // Fresh at 10: 9 after the blow, and a fights on until the dice run out.
        let (winner, health, story) = fight(m.fresh(0));
        assert_eq!((winner, health), (None, 9), "{story}");
        // Carrying health 1 from an earlier fight: the same blow puts a out.
        let wounded = Condition {
            health: 1,
            ..m.fresh(0)
        };
        let (winner, health, story) = fight(wounded);
        assert_eq!(
            (winner, health),
            (Some(crate::stats::Side::B), 0),
            "{story}"
        );
        assert!(m.able(0, &wounded));
        assert!(!m.able(
            0,
            &Condition {
                health: 0,
                ..wounded
            }
        ));
    }

    #[test]
    fn the_remaining_pools_carry_into_the_next_fight_and_rest_spends_heal_dice_then_heals_naturally()
     {
        // "Put dice here, totalling your remaining Heal Dice" (and Luck, and Ammo).
        let healing = Healing {
            natural_days_per_point: Ranged::new(2),
            ..Healing::default()
        };
        let m = model_with(
            Fighter {
                heal: 2,
                luck: 3,
                ..fighter()
            },
            bare(),
            a_first(),
            healing,
        );
        let mut c = Condition {
            health: 2,
            luck: 1,
            ..m.fresh(0)
        };
        let mut f = m.fresh_fight();
        m.seat_party(&mut f, &[c], &[true]);
        assert_eq!(f.states[0].luck, 1, "the luck spent stays spent");
        // Day 1: a heal die of 3 (health 5); day 2: a 2 (7); the pool is empty; days 3 and 4:
        // a point of natural healing (8); day 5 begins the next.
        let mut dice = ScriptedDice::new(vec![3, 2]);
        let mut log = VecLog::default();
        assert!(!m.rest(0, &mut c, 5, (&mut dice, &mut log)));
        assert_eq!(dice.used(), 2, "{:?}", log.lines);
        assert_eq!((c.health, c.spent, c.natural), (8, 2, 1), "{:?}", log.lines);
        // A rest of a day or more (refill_rest_days = 1) fills the pools again at its end.
        assert_eq!((c.heal, c.luck), (2, 3));
        // With refill_rest_days = 0 they stay spent.
        let never = Healing {
            refill_rest_days: Ranged::new(0),
            ..m.healing.clone()
        };
        let m = model_with(m.members[0], bare(), a_first(), never);
        let mut c = Condition {
            health: 2,
            luck: 1,
            heal: 0,
            ..m.fresh(0)
        };
        m.rest(0, &mut c, 5, (&mut ScriptedDice::new(vec![]), &mut log));
        assert_eq!((c.heal, c.luck), (0, 1));
    }

    #[test]
    fn an_unhurt_fighter_rests_too_and_its_spent_pools_fill_again() {
        // A fighter who spent luck but took no wound: a rest rolls no heal die and fills it.
        let m = model_with(
            Fighter {
                luck: 3,
                ..fighter()
            },
            bare(),
            a_first(),
            Healing::default(),
        );
        let mut c = Condition {
            luck: 0,
            ..m.fresh(0)
        };
        assert!(!D6Pool::wounded(&c));
        let mut dice = ScriptedDice::new(vec![]);
        m.rest(0, &mut c, 1, (&mut dice, &mut VecLog::default()));
        assert_eq!((dice.used(), c.luck), (0, 3));
    }
}
