//! The duel (MELEE SEQUENCE 1 ENGAGEMENT, with the missile turns before it): the order of
//! action (the higher Initiative ML first, a d2 when equal), each fighter's turn (standing up,
//! taking up a dropped weapon, shooting or closing at range with the Evade action or stunned,
//! an exchange in melee), the end of turn, the end of the fight and how it ended, and the
//! healing sequence for every survivor.

use super::Purpose;
use super::healing;
use super::injury;
use super::melee::{Pair, State};
use super::missile_actions::Range;
use super::tally::{BLEEDERS, EXTRAS, record_end, record_healing};
use super::{ZoneD100, location_shock};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::Ruleset;
use crate::stats::{DuelOutcome, Side, Tally, TallyShape};

impl ZoneD100 {
    /// Out of the fight: dead, routed, or helpless (UNC, or INC in Extended Shock) unless the
    /// victor strikes the helpless. An INC fighter whose Shock Reroll is still to come is not
    /// out: "the INC character ignores attacks, rerolls ... and fights on".
    pub(super) fn out(&self, state: &State) -> bool {
        state.dead || state.routed || (!self.melee.rules.strike_helpless && state.helpless())
    }

    /// One turn of `actor` against the other fighter of `states` (standing up, taking up a
    /// dropped weapon, shooting or closing at range, an exchange in melee) and the end of its
    /// turn, whose dice come from the turn's stream `turn`. `sides` are the sides of the fighters of `states` in the fight (`[a, b]` in a
    /// duel), for the tallies.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn act<D: Dice, L: Log>(
        &self,
        (actor, turn): (Side, Stream),
        sides: [Side; 2],
        states: &mut impl Pair,
        range: &mut Range,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        let m = &self.melee;
        let me = states.place(actor);
        states[actor].moved = false;
        let s = &mut states[actor];
        if s.can_act() {
            let lame = m.legs_unusable(s);
            if s.prone && !lame {
                s.prone = false;
                log.say(|| format!("{} stands up", m.names[me]));
            } else if s.disarmed && m.weapon_arm_unusable(me, s) {
                log.say(|| {
                    format!(
                        "{} cannot take up the weapon: the weapon arm is unusable",
                        m.names[me]
                    )
                });
            } else if s.disarmed {
                s.disarmed = false;
                log.say(|| format!("{} recovers the weapon", m.names[me]));
            } else if range.distance > self.melee_distance {
                if m.fighter(me).missile.is_some() {
                    if let Some(r) = self.shoot(actor, range, states, dice, log) {
                        self.count(tally, &r.seen_from(sides));
                    }
                } else if lame {
                    log.say(|| format!("{} cannot close: a leg is unusable", m.names[me]));
                } else {
                    // The Evade action (up to half Move) makes missiles pay for the
                    // Dodge.
                    let stunned = s.shock == injury::ShockState::Stunned;
                    let evade = m.fighter(me).evade_missiles && !stunned;
                    // STN: "All movement is Difficult": half the ground.
                    let step = if evade {
                        (self.approach / 2).max(10)
                    } else if stunned {
                        // Half the ground, but some ground: a stun does not root.
                        (self.approach / 2).max(self.approach.min(1))
                    } else {
                        self.approach
                    };
                    let to = range.distance.saturating_sub(step).max(range.stop);
                    if to == range.distance {
                        // A foe in the way (sides of several only: in a duel `stop` is 0
                        // and the distance above melee distance): no move, not a Moving
                        // target.
                        log.say(|| {
                            format!("{} cannot close: a foe stands in the way", m.names[me])
                        });
                        return m.end_of_turn((actor, turn), states, dice, log);
                    }
                    range.distance = to;
                    states[actor].moved = true;
                    states[actor].evading = evade;
                    log.say(|| {
                        format!(
                            "{} {} to {} feet",
                            m.names[me],
                            if evade {
                                "evades forward"
                            } else if stunned {
                                "closes, stunned (Difficult movement)"
                            } else {
                                "closes"
                            },
                            range.distance
                        )
                    });
                }
            } else {
                m.exchange(actor, states, self.start_in_close, dice, log, &mut |r| {
                    self.count(tally, &r.seen_from(sides))
                });
            }
        }
        m.end_of_turn((actor, turn), states, dice, log);
    }

    /// The duel's rounds from the start, the fighter of index `FIRST` acting first in each:
    /// the winner (none when the round limit is reached) and the rounds fought.
    #[inline(always)]
    fn rounds<const FIRST: usize, D: Dice, L: Log>(
        &self,
        states: &mut [State; 2],
        range: &mut Range,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> (Option<Side>, u32) {
        let first = Side::BOTH[FIRST];
        let mut rounds = 0;
        let mut winner = None;
        let mut turn = 0;
        'duel: for round in 1..=self.round_limit {
            rounds = round;
            log.say(|| format!("round {round}"));
            for actor in [first, first.other()] {
                turn += 1;
                states[0].turn = turn;
                states[1].turn = turn;
                states[0].round = round;
                states[1].round = round;
                if dice.exhausted() {
                    break 'duel;
                }
                let turn = Stream::new(Purpose::Turn, actor.index(), round);
                dice.stream(turn);
                self.act(
                    (actor, turn),
                    [Side::A, Side::B],
                    states,
                    range,
                    dice,
                    log,
                    tally,
                );
                let out = [self.out(&states[0]), self.out(&states[1])];
                if out[0] || out[1] {
                    winner = match out {
                        [false, true] => Some(Side::A),
                        [true, false] => Some(Side::B),
                        _ => None,
                    };
                    break 'duel;
                }
            }
        }
        (winner, rounds)
    }
}

impl Ruleset for ZoneD100 {
    fn shape(&self) -> TallyShape {
        TallyShape {
            round_limit: self.round_limit,
            max_damage: 5,
            horizon_days: self.horizon_days,
            extras: EXTRAS,
            sides: self.roster.sides.map(|n| n as u32),
        }
    }

    fn trial<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        if !self.roster.is_duel() {
            return self.fight(dice, log, tally);
        }
        let mut states = [State::default(); 2];
        let (winner, rounds) = self.duel_from(&mut states, dice, log, tally);
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead: [states[0].dead, states[1].dead].map(u32::from),
        });
        self.heal_both(&states, dice, log, tally);
    }
}

impl ZoneD100 {
    /// The duel from the fighters' `states` (fresh, or a campaign's fighter as its last fight
    /// left it) to its end: the order of action, the rounds, who won and how; each fighter's
    /// bleeders and amputations counted. The winner and the rounds fought.
    #[inline(always)]
    pub(super) fn duel_from<D: Dice, L: Log>(
        &self,
        states: &mut [State; 2],
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> (Option<Side>, u32) {
        let m = &self.melee;
        let mut range = Range::duel(self.start_distance);
        // Order of action: the higher Initiative ML first; a tie is a d2 for the duel.
        let (ia, ib) = (m.fighters[0].initiative_ml, m.fighters[1].initiative_ml);
        let first = if ia > ib {
            Side::A
        } else if ib > ia {
            Side::B
        } else {
            dice.stream(Stream::new(Purpose::Initiative, 0, 0));
            Side::BOTH[(dice.d(2, "d2 (equal Initiative: who acts first)") - 1) as usize & 1]
        };
        log.say(|| format!("{} acts first", self.names[first.index()]));
        // The rounds, with the first to act fixed at compile time: each turn's fighter is then
        // read from fixed places, not by a side found at run time.
        let (mut winner, rounds) = match first {
            Side::A => self.rounds::<0, D, L>(states, &mut range, dice, log, tally),
            Side::B => self.rounds::<1, D, L>(states, &mut range, dice, log, tally),
        };
        if winner.is_none() && !dice.exhausted() {
            winner = Self::standing_at_the_round_limit(states);
        }
        self.say_the_duels_end(states, winner, dice, log, tally);
        for s in states.iter() {
            // BLEEDERS, then AMPUTATIONS.
            tally.record_extras(BLEEDERS, [s.bleeders, s.amputations].map(u64::from));
        }
        (winner, rounds)
    }

    /// The round limit with one fighter down (INC, or helpless when the victor strikes the
    /// helpless): the one standing has won.
    fn standing_at_the_round_limit(states: &[State; 2]) -> Option<Side> {
        match [!states[0].can_act(), !states[1].can_act()] {
            [false, true] => Some(Side::A),
            [true, false] => Some(Side::B),
            _ => None,
        }
    }

    /// Says how the duel ended (and counts how the loser fell).
    fn say_the_duels_end<D: Dice, L: Log>(
        &self,
        states: &[State; 2],
        winner: Option<Side>,
        dice: &D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        if let Some(w) = winner {
            let how = record_end(tally, &states[w.other().index()]);
            log.say(|| {
                format!(
                    "{} wins: {} is {how}",
                    self.names[w.index()],
                    self.names[w.other().index()],
                )
            });
        } else if !dice.exhausted() {
            log.say(|| "no winner: a draw".to_owned());
        }
    }

    /// The healing sequence for every survivor with injuries, bleeding or shock to recover
    /// from.
    fn heal_both<D: Dice, L: Log>(
        &self,
        states: &[State; 2],
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        for side in Side::BOTH {
            let s = &states[side.index()];
            if !s.needs_healing() {
                continue;
            }
            log.say(|| format!("{} after the fight", self.names[side.index()]));
            let mut out = healing::Outcome::default();
            self.heal_after_the_fight(side.index(), s, (dice, log), &mut out);
            record_healing(tally, side, &out);
        }
    }

    /// The healing sequence of fighter `place` (its patient, its dice stream) from `state`,
    /// as its fight left it, into `out`.
    #[inline(always)]
    pub(super) fn heal_after_the_fight<D: Dice, L: Log>(
        &self,
        place: usize,
        state: &State,
        (dice, log): (&mut D, &mut L),
        out: &mut healing::Outcome,
    ) {
        let shock_of = |k: usize| (state.injuries.get(k)).map_or(0, |x| location_shock(x.location));
        dice.stream(Stream::new(Purpose::Healing, place, 0));
        let patient = &self.patients[place];
        healing::heal(&self.care, patient, state, shock_of, dice, log, out);
    }
}

#[cfg(test)]
mod tests {
    //! The duel loop, driven with scripted dice.
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::zone_d100::missile_actions::tests::archer_duel;

    /// One duel of `duel` on these dice until they run out: the story.
    fn trial_story(duel: &ZoneD100, dice: &[u32]) -> String {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let mut tally = Tally::new(duel.shape());
        duel.trial(&mut scripted, &mut log, &mut tally);
        let story = log.lines.join("\n");
        assert!(scripted.used() >= dice.len(), "dice left over\n{story}");
        story
    }

    #[test]
    fn the_higher_initiative_acts_first_and_a_tie_rolls_a_d2() {
        // Order of action: the Archer's Initiative 70 before the Spearman's 60, no die; equal
        // Initiatives: a d2 (2: the Spearman).
        let duel = archer_duel();
        let story = trial_story(&duel, &[]);
        assert!(story.starts_with("Archer acts first"), "{story}");
        let mut tied = archer_duel();
        tied.melee.edit_fighter(1, |f| f.initiative_ml = 70);
        let story = trial_story(&tied, &[2]);
        assert!(story.starts_with("Spearman acts first"), "{story}");
    }

    #[test]
    fn the_charger_closes_into_melee_and_the_archer_strikes_with_no_turn_to_draw() {
        // "Aware characters can make a melee strike with a readied weapon against foes they
        // threaten within their Engagement Zone"; "Characters may unsheathe a weapon as a free
        // action ... drop items at any time, requiring no action." At 10 feet the Archer shoots
        // (99: a miss), the Spearman closes to 5; in round 2 the Archer attacks with the short
        // sword at once (99 against the Counterstrike 98), then the Spearman (97 against the
        // Dodge 96).
        let duel = ZoneD100 {
            start_distance: 10,
            approach: 5,
            ..archer_duel()
        };
        let story = trial_story(&duel, &[99, 99, 98, 97, 96]);
        crate::log::assert_in_order(
            &story,
            &[
                "Archer shoots at 10 feet",
                "Spearman closes to 5 feet",
                "round 2",
                "Archer attacks Spearman: 99",
                "Spearman attacks Archer: 97",
            ],
        );
    }

    #[test]
    fn an_evader_covers_half_the_ground_and_a_stunned_charger_moves_difficult() {
        // "the Evade action if they move at least ten feet (up to half Move)"; STN: "All
        // movement is Difficult". The Spearman evading from 300 feet covers 15 of the 30 and the
        // Archer's next shot is at an Evading target.
        let mut duel = archer_duel();
        duel.melee.edit_fighter(1, |f| f.evade_missiles = true);
        let story = trial_story(&duel, &[11, 2, 3, 99, 1]);
        crate::log::assert_in_order(
            &story,
            &[
                "Spearman evades forward to 285 feet",
                "(Volley 3, Evading target)",
            ],
        );
        // Stunned at 100 feet (74: S at a Still target, ZN5 twice, LD 6 twice: the abdomen;
        // impact 1 + 4: S2P; Shock 71, an F: 4 + 2 + 1 = 7), the Spearman cannot evade and
        // closes 15 feet: Difficult movement.
        let duel = ZoneD100 {
            start_distance: 100,
            ..duel
        };
        let story = trial_story(&duel, &[74, 5, 5, 6, 6, 1, 71, 99]);
        crate::log::assert_in_order(
            &story,
            &[
                "SHK 7 -> STN",
                "Spearman closes, stunned (Difficult movement) to 85 feet",
                "still stunned",
            ],
        );
    }

    #[test]
    fn a_grievous_leg_keeps_the_charger_down_and_out_of_reach() {
        // "a left thigh injury ... Grievous (unusable; the victim falls prone)"; "Attempting any
        // other action that requires using a zone with a Grievous injury ... is an automatic CF":
        // the Spearman neither stands nor closes. The Archer's 74 at 300 feet... at 100 feet
        // (S, a Still target: two Zone Dice, both ZN8), two Location Dice 1 (thigh), d2 1,
        // impact 12 + 4: G4P; Shock 10 (CS): 3 + 4 − 1 = 6; Morale 10: steady.
        let duel = ZoneD100 {
            start_distance: 100,
            ..archer_duel()
        };
        let story = trial_story(&duel, &[74, 8, 8, 1, 1, 1, 12, 10, 10]);
        crate::log::assert_in_order(
            &story,
            &[
                "injury G4P",
                "the injury throws the target prone",
                "Spearman cannot close: a leg is unusable",
                "Morale roll 10",
            ],
        );
        assert!(!story.contains("Spearman stands up"), "{story}");
    }

    #[test]
    fn a_grievous_weapon_arm_drops_the_weapon_for_good() {
        // "ARM ... AUTOMATIC FUMBLE"; "Attempting any other action that requires using a zone
        // with a Grievous injury ... is an automatic CF": the Spearman cannot take the spear up
        // again. 74 at 100 feet (S, Still: two Zone Dice 2, two Location Dice 8: the forearm,
        // d2 2: right), impact 12 + 4: G4P; Shock 10 (CS): 1 + 4 − 1 = 4; Morale 10.
        let duel = ZoneD100 {
            start_distance: 100,
            ..archer_duel()
        };
        let story = trial_story(&duel, &[74, 2, 2, 8, 8, 2, 12, 10, 10]);
        crate::log::assert_in_order(
            &story,
            &[
                "right forearm",
                "injury G4P",
                "the injury makes the weapon fall",
                "Spearman cannot take up the weapon: the weapon arm is unusable",
            ],
        );
    }

    #[test]
    fn a_prone_fighter_spends_its_turn_standing() {
        // The Shock example's character "takes a difficult Move to stand (costing 20 feet)": a
        // prone fighter's next turn goes to standing up. At 5 feet the Archer's 95 is a CF5: it
        // stumbles prone; in round 2 it stands up and does not attack.
        let duel = ZoneD100 {
            start_distance: 5,
            ..archer_duel()
        };
        let story = trial_story(&duel, &[95, 99, 99, 98]);
        crate::log::assert_in_order(
            &story,
            &[
                "Archer stumbles: falls prone",
                "round 2",
                "Archer stands up",
                "Spearman attacks Archer",
            ],
        );
        assert_eq!(story.matches("Archer attacks").count(), 1, "{story}");
    }
}
