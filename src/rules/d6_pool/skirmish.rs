//! A fight of sides of several fighters (our design; the sheet has one opponent who "attacks
//! back", see `docs/rules/d6-pool.md`, "Sides of several fighters"): the sides strike in turn by
//! `rules.turn_order`, each fighter attacking the foe its target policy picks with the duel's
//! own attack ([`D6Pool::attack`], a [`Blow`] of one fighter on another by their places on the
//! roster, on every fighter's state in place: no pair of fighters is copied out and back). A defender reads the defence rules afresh for every
//! attack it receives (its last turn's stance, throw or whiff, a stun until the next attack
//! against it), rolling its PARRY/DODGE dice against every one or, with
//! `rules.parry_against = "first"`, against the first since its own last turn. A fighter at
//! `out_at` or below is out; a side wins when every foe is out. A side of one against a side of
//! one never comes here: it is the duel.

use super::Purpose;
use super::block::Standing;
use super::{Blow, D6Pool, EXTRA_HEAL, State, record_attack};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::roster::{MAX_FIGHTERS, Pick};
use crate::rules::rounds::{Field, Turn, fight_in_rounds};
use crate::stats::{DuelOutcome, Side, Tally};

/// Where a fight of several stands between attacks: every fighter's health and pools, who is
/// out, the foe each keeps to, and how many of each side stand.
pub(super) struct Fight {
    /// Each fighter's health, pools and standing.
    pub(super) states: [State; MAX_FIGHTERS],
    /// Who is out, the foe each keeps to, how many of each side stand.
    pub(super) field: Field,
}

impl D6Pool {
    /// One fight of the point's fighters, its end and the heal dice of every survivor.
    // Out of line: the duel's trial, which tests for a side of several first, stays as tight
    // as it was.
    #[inline(never)]
    pub(super) fn fight<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        let mut f = self.fresh_fight();
        let (winner, rounds) = fight_in_rounds!(self, f, Purpose::FirstStrike, (dice, log), tally);
        self.record_fight(&f, winner, rounds, log, tally);
        self.heal_survivors(&f, dice, log, tally);
    }

    /// A fight about to begin: every fighter at full health with its pools.
    pub(super) fn fresh_fight(&self) -> Fight {
        let roster = &self.roster;
        let mut f = Fight {
            states: [State::start(&self.members[0]); MAX_FIGHTERS],
            field: Field::new(roster),
        };
        for (s, member) in f.states.iter_mut().zip(&self.members).take(roster.len()) {
            *s = State::start(member);
        }
        f
    }

    /// `actor`'s turn in `round`: lost to a stun (with `rules.stun_loses_attack`), else the
    /// duel's attack on the foe its policy picks.
    // In line in each fight's rounds (a fight's and a campaign's): shared, it went out of line.
    #[inline(always)]
    pub(super) fn turn_in_fight<D: Dice, L: Log>(
        &self,
        f: &mut Fight,
        actor: usize,
        round: u32,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> Turn {
        let roster = &self.roster;
        if f.field.out[actor] {
            return Turn::Taken;
        }
        if dice.exhausted() {
            return Turn::Over(None);
        }
        if self.rules.stun_loses_attack && f.states[actor].standing.stunned {
            log.say(|| {
                format!(
                    "{} is stunned and loses its attack",
                    roster.fighter_names[actor]
                )
            });
            f.states[actor].standing = Standing {
                stunned: true,
                ..Standing::default()
            };
            return Turn::Taken;
        }
        // Most hurt: the most health lost.
        let hurt = |i: usize| (self.members[i].health - f.states[i].health).max(0) as u32;
        let target = Stream::new(Purpose::Target, actor, round);
        let foe = match f.field.choose((roster, actor), hurt, (dice, target), log) {
            Pick::Foe(foe) => foe,
            Pick::CrowdedOut => {
                // A turn that waits is a turn without an attack: what its last attack left
                // (a whiff, a berserk attack, dice spent on a parry) ends with it, a stun stays
                // until the next attack against it.
                let standing = &mut f.states[actor].standing;
                *standing = Standing {
                    stunned: standing.stunned,
                    ..Standing::default()
                };
                return Turn::Taken;
            }
            Pick::NoFoeLeft => return Turn::Over(None),
        };
        let key = Stream::new(Purpose::Attack, actor, round);
        dice.stream(key);
        let blow = Blow {
            attacker: actor,
            defender: foe,
        };
        let attack = self.attack(blow, key, &mut f.states, dice, log);
        let side = roster.side_of[actor];
        record_attack(tally, side, &attack);
        self.fall(f, side, foe, log)
    }

    /// Whether `foe`, struck by `side`, is out of the fight (at `out_at` or below); the fight
    /// is over when the last of its side is.
    fn fall<L: Log>(&self, f: &mut Fight, side: Side, foe: usize, log: &mut L) -> Turn {
        let health = f.states[foe].health;
        if health > self.rules.out_at.i32() {
            return Turn::Taken;
        }
        let how = || format!("is out of the fight at health {health}");
        f.field.fall(&self.roster, (side, foe), how, log)
    }

    /// Counts the fight: who is dead (at `dead_at` or below), the winner, the rounds, each
    /// fighter's end.
    fn record_fight<L: Log>(
        &self,
        f: &Fight,
        winner: Option<Side>,
        rounds: u32,
        log: &mut L,
        tally: &mut Tally,
    ) {
        let roster = &self.roster;
        let dead_at = self.rules.dead_at.i32();
        let deaths = self.deaths(f, &[false; MAX_FIGHTERS], log);
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead: deaths,
        });
        for (i, s) in f.states[..roster.len()].iter().enumerate() {
            tally.record_fighter(i, f.field.out[i], s.health <= dead_at);
        }
    }

    /// Each side's dead at the fight's end (at `dead_at` or below), told; those `absent` (dead
    /// before it) are not counted again.
    pub(super) fn deaths<L: Log>(&self, f: &Fight, absent: &[bool], log: &mut L) -> [u32; 2] {
        let roster = &self.roster;
        let dead_at = self.rules.dead_at.i32();
        let mut deaths = [0u32; 2];
        for (i, s) in f.states[..roster.len()].iter().enumerate() {
            if s.health <= dead_at && !absent[i] {
                deaths[roster.side_of[i].index()] += 1;
                log.say(|| format!("{} is dead at health {}", roster.fighter_names[i], s.health));
            }
        }
        deaths
    }

    /// The heal dice of every wounded survivor: the duel's, on its own dice.
    fn heal_survivors<D: Dice, L: Log>(
        &self,
        f: &Fight,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        let roster = &self.roster;
        let dead_at = self.rules.dead_at.i32();
        for (i, (state, me)) in f
            .states
            .iter()
            .zip(&self.members)
            .enumerate()
            .take(roster.len())
        {
            if state.health > dead_at && state.health < me.health {
                self.heal_counted(i, (i, state.health, me.heal), (dice, log), tally);
            }
        }
    }

    /// The heal dice of the wounded survivor at place `i`, at `health` with `pool` heal dice
    /// left, counted at the tally's place `seat`: its timeline and the dice spent. Out of line:
    /// it comes once a survivor, from a fight's end and a campaign's.
    #[inline(never)]
    pub(super) fn heal_counted<D: Dice, L: Log>(
        &self,
        i: usize,
        (seat, health, pool): (usize, i32, u32),
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) -> u32 {
        dice.stream(Stream::new(Purpose::Heal, i, 0));
        let (recovery, spent) = self.recover(i, health, pool, dice, log);
        tally.record_recovery_of(seat, self.roster.side_of[i], &recovery);
        tally.record_extra(EXTRA_HEAL, u64::from(spent));
        spent
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{bare, fighter, key};
    use super::super::{Fighter, Healing, ParryAgainst, Rules};
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::roster::Enrolled;
    use crate::rules::{FirstStrike, Ruleset};
    use crate::scenario::schema::Target;

    /// The Knight (three attack dice; ARMOR, SHIELD and PARRY/DODGE 1 each; health 10; side a,
    /// striking first) against these brigands.
    fn knight_and(brigands: &[Fighter], rules: Rules) -> D6Pool {
        let mut members = vec![Enrolled {
            side: Side::A,
            name: "Knight".into(),
            target: Target::Same,
        }];
        members.extend((0..brigands.len()).map(|k| Enrolled {
            side: Side::B,
            name: format!("Brigand {}", k + 1),
            target: Target::Same,
        }));
        let rules = Rules {
            first_strike: FirstStrike::A,
            ..rules
        };
        let fighters = [&[fighter()][..], brigands].concat();
        D6Pool::skirmish(&members, fighters, rules, Healing::default(), 20)
    }

    /// One trial on scripted dice until they run out: the tally and the story.
    fn run(model: &D6Pool, dice: &[u32]) -> (Tally, String) {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut tally = Tally::new(model.shape());
        let mut log = VecLog::default();
        model.trial(&mut scripted, &mut log, &mut tally);
        (tally, log.lines.join("\n"))
    }

    fn brigand(health: i32) -> Fighter {
        Fighter { health, ..bare() }
    }

    #[test]
    fn a_side_wins_when_every_foe_is_out_and_the_out_attack_no_more() {
        // Double 6: 3 damage takes a brigand of health 3 to 0, out of the fight (out_at 0).
        let model = knight_and(&[brigand(3), brigand(3)], Rules::default());
        let (tally, story) = run(&model, &[6, 6, 1, 1, 1, 1, 6, 6, 1]);
        assert_eq!(tally.ends, [1, 0, 0], "{story}");
        assert_eq!(tally.rounds.bins()[2], 1);
        crate::log::assert_in_order(
            &story,
            &[
                "Knight picks Brigand 1",
                "Brigand 1 is out of the fight at health 0\n",
                "Brigand 2 strikes",
                "round 2",
                "Knight strikes",
                "Brigand 2 is out of the fight at health 0: Knight wins",
            ],
        );
        assert!(!story.contains("Brigand 1 strikes"), "{story}");
    }

    #[test]
    fn a_whiff_costs_the_parry_dice_against_every_foe_until_the_whiffers_next_turn() {
        // L19: "You lose Parry/Dodge dice when your opponent attacks back." L30: "If you
        // 'Whiffed' your attack last turn, You lose Parry/DODGE. Roll ARMOR+SHIELD." Read per
        // attack received: both brigands attack a Knight who whiffed last turn.
        let model = knight_and(&[brigand(5), brigand(5)], Rules::default());
        let (_, story) = run(&model, &[1, 1, 1, 4, 1, 1, 1, 1, 4, 1, 1, 1, 1]);
        assert_eq!(
            story
                .matches("Knight defends with 2 dice (Whiffed: ARMOR 1 + SHIELD 1)")
                .count(),
            2,
            "{story}"
        );
    }

    #[test]
    fn parry_against_first_keeps_the_parry_dice_for_the_first_attack_received() {
        // Our reading (rules.parry_against): "every" (the default) reads the rules afresh for
        // each attack received, PARRY/DODGE dice each time; "first" spends them on the first
        // attack since the defender's own last turn. The Knight hits (one 4: 1 damage); each
        // brigand's one 4 meets the Knight's defence.
        let dice = [4, 1, 1, 4, 1, 1, 1, 1, 1, 4, 1, 1, 1, 1, 1];
        let every = knight_and(&[brigand(5), brigand(5)], Rules::default());
        let (_, story) = run(&every, &dice);
        assert_eq!(
            story.matches("Knight defends with 3 dice (Normal").count(),
            2,
            "{story}"
        );
        let first = knight_and(
            &[brigand(5), brigand(5)],
            Rules {
                parry_against: ParryAgainst::First,
                ..Rules::default()
            },
        );
        let (_, story) = run(&first, &dice);
        crate::log::assert_in_order(
            &story,
            &[
                "Knight defends with 3 dice (Normal",
                "Knight defends with 2 dice (Parried: ARMOR 1 + SHIELD 1)",
            ],
        );
    }

    #[test]
    fn parry_against_first_counts_a_first_attack_met_stunned() {
        // The words (`duelsim rulesets d6-pool`, docs/rules/d6-pool.md): with
        // parry_against = "first" a fighter rolls its PARRY/DODGE dice "only against the first
        // attack since its own last turn; later ones ARMOR + SHIELD". A first attack that finds
        // the Knight stunned (ARMOR only) is that first attack: the second, before the Knight's
        // turn, meets ARMOR + SHIELD, not the full defence.
        let model = knight_and(
            &[brigand(5), brigand(5)],
            Rules {
                parry_against: ParryAgainst::First,
                ..Rules::default()
            },
        );
        let mut states: [State; 3] = std::array::from_fn(|i| State::start(&model.members[i]));
        states[0].standing.stunned = true;
        let mut dice = ScriptedDice::new(vec![4, 1, 1, 1, 4, 1, 1, 1, 1]);
        let mut log = VecLog::default();
        let brigand_on_knight = Blow {
            attacker: 1,
            defender: 0,
        };
        for _ in 0..2 {
            model.attack(brigand_on_knight, key(), &mut states, &mut dice, &mut log);
        }
        let story = log.lines.join("\n");
        crate::log::assert_in_order(
            &story,
            &[
                "Knight defends with 1 dice (Stunned: ARMOR 1)",
                "Knight defends with 2 dice (Parried: ARMOR 1 + SHIELD 1)",
            ],
        );
    }
}
