//! A fight of sides of several fighters (our design; the text has two characters, see
//! `docs/rules/guard-pierce.md`, "Sides of several fighters"): the sides act in turn by
//! `rules.turn_order`, each fighter Recovers or attacks the foe its target policy picks, with the
//! duel's own attack between the two of them; a fighter unable to act or dead is out and is not
//! attacked again; a side wins when every foe is out. After the fight each fighter is dying, dead
//! or whole as in the duel, and each survivor with an Injury heals. A side of one against a side
//! of one never comes here: it is the duel.

use super::Purpose;
use super::attack::FaceHalves;
use super::wound_track::WoundRows;
use super::{EXTRA_DIED_DYING, EXTRA_DYING, EXTRA_INFECTED, EXTRA_INFECTIONS, GuardPierce};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::roster::{Blow, Pick};
use crate::rules::rounds::{Field, Turn, fight_in_rounds, in_places};
use crate::rules::two_d20::{HitFaces, highest_row};
use crate::stats::{DuelOutcome, Side, Tally};

/// Where a fight of several stands between turns, in `N` places (at least the roster's
/// fighters): every fighter's wound rows and its turn as they make it, who is out, the foe
/// each keeps to, and how many of each side stand.
///
/// A fighter's turn (what it does, and its halves of the hit faces, attacking and defending)
/// changes only when its wounds are marked or cleared, so the fight keeps it between turns, as
/// the duel keeps its hit faces. Each is an array of its own: a turn's first read is one byte.
pub(super) struct Fight<const N: usize> {
    /// Each fighter's Injury and Stun rows.
    pub(super) rows: [WoundRows; N],
    /// What each does on its turn, as its rows make it.
    pub(super) acts: [Acts; N],
    /// Each one's halves of the hit faces, as its rows make them.
    halves: [FaceHalves; N],
    /// Who is out, the foe each keeps to, how many of each side stand.
    pub(super) field: Field<N>,
}

impl<const N: usize> Fight<N> {
    /// The fighter at `place` with its turn as its rows now make it.
    #[inline(always)]
    pub(super) fn ready(&mut self, model: &GuardPierce, place: usize) {
        (self.acts[place], self.halves[place]) = model.ready(place, &self.rows[place]);
    }
}

/// What a fighter does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Acts {
    Attacks,
    Recovers,
    /// Out of the fight: unable to act, or dead.
    Out,
}

impl GuardPierce {
    /// The turn of the fighter at place `me` with these wounds, in the fight: Recover when its
    /// highest Stun reaches its `recover_at` row, and its halves by its highest Wound.
    #[inline]
    fn ready(&self, me: usize, rows: &WoundRows) -> (Acts, FaceHalves) {
        let table = &self.turn_tables[me];
        let recovers = rows.stun & table.recover_rows != 0;
        let recover_at = self.members[me].recover_at;
        debug_assert_eq!(
            recovers,
            recover_at > 0 && highest_row(rows.stun) >= recover_at,
            "the Recover rows out of step with recover_at"
        );
        let acts = if recovers {
            Acts::Recovers
        } else {
            Acts::Attacks
        };
        (acts, table.halves_by_row[rows.highest() as usize])
    }

    /// One fight of the point's fighters, its end and the healing of every survivor, in a
    /// [`Fight`] of places for the roster's fighters rounded up to 4, 8, 16 or all: setting up
    /// 32 fighters' rows and turns for a fight of 6 is work thrown away.
    // Out of line: the duel's trial, which tests for a side of several first, stays as tight
    // as it was.
    #[inline(never)]
    pub(super) fn fight<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        in_places!(self.roster.len(), self.fight_in(dice, log, tally))
    }

    /// [`GuardPierce::fight`] with `N` places, at least the roster's.
    fn fight_in<const N: usize, D: Dice, L: Log>(
        &self,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        let mut f = self.fresh_fight::<N>();
        let (winner, rounds) = fight_in_rounds!(self, f, Purpose::FirstStrike, (dice, log), tally);
        let dead = self.dying_and_dead(&mut f, winner, rounds, log, tally);
        self.recover_survivors(&f, &dead, dice, log, tally);
    }

    /// A fight about to begin: every fighter unhurt, attacking (Recover needs Stun) on its
    /// halves with no Wound; the places past the roster's are no one, out of the fight.
    pub(super) fn fresh_fight<const N: usize>(&self) -> Fight<N> {
        let unused = FaceHalves {
            within_value: HitFaces::NONE,
            beating_guard: HitFaces::NONE,
        };
        let n = self.roster.len();
        let f = Fight::<N> {
            rows: [WoundRows::default(); N],
            acts: std::array::from_fn(|i| if i < n { Acts::Attacks } else { Acts::Out }),
            halves: std::array::from_fn(|i| {
                self.turn_tables
                    .get(i)
                    .map_or(unused, |t| t.halves_by_row[0])
            }),
            field: Field::new(&self.roster),
        };
        debug_assert!((0..n).all(|i| self.ready(i, &f.rows[i]) == (f.acts[i], f.halves[i])));
        f
    }

    /// `actor`'s turn in `round`: Recover when its Stun calls for it, else an attack on the
    /// foe its policy picks, the duel's own.
    // In line in each fight's rounds (a fight's and a campaign's): shared, it went out of line.
    #[inline(always)]
    pub(super) fn turn_in_fight<const N: usize, D: Dice, L: Log>(
        &self,
        f: &mut Fight<N>,
        actor: usize,
        round: u32,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> Turn {
        let roster = &self.roster;
        let acts = f.acts[actor];
        if acts == Acts::Out {
            return Turn::Taken;
        }
        if dice.exhausted() {
            return Turn::Over(None);
        }
        if acts == Acts::Recovers {
            dice.stream(Stream::new(Purpose::Recover, actor, round));
            if self.recover_action(actor, &mut f.rows[actor], dice, log) {
                f.ready(self, actor);
            }
            return Turn::Taken;
        }
        // Most hurt: the highest row marked, Injury or Stun.
        let hurt = |i: usize| highest_row(f.rows[i].injury | f.rows[i].stun);
        let target = Stream::new(Purpose::Target, actor, round);
        let foe = match f.field.choose((roster, actor), hurt, (dice, target), log) {
            Pick::Foe(foe) => foe,
            Pick::CrowdedOut => return Turn::Taken,
            Pick::NoFoeLeft => return Turn::Over(None),
        };
        let blow = Blow {
            attacker: actor,
            defender: foe,
        };
        let faces = (f.halves[actor].within_value).and(f.halves[foe].beating_guard);
        debug_assert_eq!(faces, self.hit_faces(blow, &f.rows), "ready out of step");
        let key = Stream::new(Purpose::Attack, actor, round);
        dice.stream(key);
        let attack = self.attack_on(blow, (faces, None), key, &mut f.rows, dice, log);
        if attack.hits == 0 {
            return Turn::Taken;
        }
        f.ready(self, foe);
        let side = roster.side_of[actor];
        tally.record_hit(side, attack.marked[0].max(attack.marked[1]), true);
        self.fall(f, side, foe, log)
    }

    /// Whether `foe`, struck by `side`, is out of the fight (unable to act, or dead); the
    /// fight is over when the last of its side is.
    fn fall<const N: usize, L: Log>(
        &self,
        f: &mut Fight<N>,
        side: Side,
        foe: usize,
        log: &mut L,
    ) -> Turn {
        let track = &self.members[foe].track;
        if f.rows[foe].can_act(track) && !f.rows[foe].dead(track) {
            return Turn::Taken;
        }
        f.acts[foe] = Acts::Out;
        let what = || "is out of the fight".to_owned();
        f.field.fall(&self.roster, (side, foe), what, log)
    }

    /// After the fight: who is dead, who is dying (and dies without timely medical
    /// attention); a minute's rest clears all Stun. Counts the fight and returns who died.
    fn dying_and_dead<const N: usize, L: Log>(
        &self,
        f: &mut Fight<N>,
        winner: Option<Side>,
        rounds: u32,
        log: &mut L,
        tally: &mut Tally,
    ) -> [bool; N] {
        let (dead, deaths) = self.fates(f, [false; N], log, tally);
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead: deaths,
        });
        let n = self.roster.len();
        for (i, (&out, &gone)) in f.field.out.iter().zip(&dead).take(n).enumerate() {
            tally.record_fighter(i, out, gone);
        }
        dead
    }

    /// The fate of everyone who fought (not those `sat_out`): who is dead, who is dying (and
    /// dies without timely medical attention); a minute's rest clears all Stun. Counts the
    /// dying; returns who died and each side's dead.
    pub(super) fn fates<const N: usize, L: Log>(
        &self,
        f: &mut Fight<N>,
        sat_out: [bool; N],
        log: &mut L,
        tally: &mut Tally,
    ) -> ([bool; N], [u32; 2]) {
        let roster = &self.roster;
        let mut dead = [false; N];
        let (mut deaths, mut dying_of) = ([0u32; 2], [0u64; 2]);
        let mut died_dying = false;
        for (i, gone) in dead.iter_mut().enumerate().take(roster.len()) {
            if sat_out[i] {
                continue;
            }
            let r = &mut f.rows[i];
            let track = &self.members[i].track;
            let side = roster.side_of[i].index();
            let killed = r.dead(track);
            let dying = !killed && r.dying(track);
            let dies = dying && !self.dying_saved;
            dying_of[side] += u64::from(dying);
            died_dying |= dies;
            *gone = killed || dies;
            deaths[side] += u32::from(*gone);
            let name = &roster.fighter_names[i];
            if dying {
                log.say(|| {
                    format!(
                        "{name} is dying: {}",
                        if dies {
                            "no medical attention in time: dead"
                        } else {
                            "medical attention arrives in time"
                        }
                    )
                });
            } else if killed {
                log.say(|| format!("{name} is dead"));
            }
            // A minute's rest clears all Stun.
            r.stun = 0;
        }
        tally.record_extra(EXTRA_DYING, dying_of[0]);
        tally.record_extra(EXTRA_DYING + 1, dying_of[1]);
        tally.record_extra(EXTRA_DIED_DYING, u64::from(died_dying));
        (dead, deaths)
    }

    /// Every injured survivor's recovery, with infection: the duel's, on its own dice.
    fn recover_survivors<const N: usize, D: Dice, L: Log>(
        &self,
        f: &Fight<N>,
        dead: &[bool; N],
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        for (i, &gone) in dead.iter().enumerate().take(self.roster.len()) {
            if !gone && f.rows[i].injury != 0 {
                self.recover_counted(i, (i, f.rows[i], 0), (dice, log), tally);
            }
        }
    }

    /// The recovery of the survivor at place `i` with these `rows`, its recovery `rested` days
    /// along already, counted at the tally's place `seat`: the timeline and its infections. Out
    /// of line, as the duel's `recover`: a timeline is long and comes once a survivor.
    #[inline(never)]
    pub(super) fn recover_counted<D: Dice, L: Log>(
        &self,
        i: usize,
        (seat, rows, rested): (usize, WoundRows, u32),
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) {
        let mut infections = 0;
        dice.stream(Stream::new(Purpose::Recovery, i, 0));
        let recovery = self.recover_from(i, rows, rested, (dice, log), &mut infections);
        tally.record_recovery_of(seat, self.roster.side_of[i], &recovery);
        tally.record_extra(EXTRA_INFECTED, u64::from(infections > 0));
        tally.record_extra(EXTRA_INFECTIONS, infections);
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{fighter, ledger_cudgel, ledger_healing};
    use super::super::{Fighter, Healing, Rules};
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::roster::Enrolled;
    use crate::rules::{FirstStrike, Ruleset};
    use crate::scenario::schema::Target;

    /// A knight (side a, acting first) against brigands, with healing past the horizon.
    fn knight_and_brigands(knight: Fighter, target: Target, brigands: &[Fighter]) -> GuardPierce {
        let mut members = vec![Enrolled {
            side: Side::A,
            name: "Knight".into(),
            target,
        }];
        members.extend((0..brigands.len()).map(|k| Enrolled {
            side: Side::B,
            name: format!("Brigand {}", k + 1),
            target: Target::Same,
        }));
        let fighters = [&[knight][..], brigands].concat();
        let rules = Rules {
            first_strike: FirstStrike::A,
            ..Rules::default()
        };
        GuardPierce::skirmish(&members, fighters, rules, ledger_healing(7, 1, 0), 40)
    }

    /// One trial on scripted dice, to the end of the dice when `all` is false.
    fn run(model: &GuardPierce, dice: &[u32], all: bool) -> (Tally, String) {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut tally = Tally::new(model.shape());
        let mut log = VecLog::default();
        model.trial(&mut scripted, &mut log, &mut tally);
        let story = log.lines.join("\n");
        if all {
            assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
            assert_eq!(scripted.used(), dice.len(), "dice left over\n{story}");
        }
        (tally, story)
    }

    // 8 hits Guard 5 (no higher than 15), 20 misses: a Hit; the damage roll on 15 with 13 and
    // 2 is 13, a row above the worst penalty row 12 and not circled: unable to act, dying.
    const OUT: [u32; 4] = [8, 20, 13, 2];
    const MISS: [u32; 2] = [1, 1];

    #[test]
    fn a_side_wins_when_every_foe_is_out_and_the_dying_are_a_share_of_their_side() {
        // L44: "If you mark any Wound higher up than your worst penalty, you're unable to act."
        // L48: "An Injury above the highest wound penalty means the character is dying".
        let brigand = fighter(10, 5, 5, 5);
        let model = knight_and_brigands(fighter(15, 5, 15, 5), Target::Same, &[brigand; 2]);
        assert_eq!(model.names[1], "Brigand ×2");
        let (tally, story) = run(&model, &[&OUT[..], &MISS, &OUT].concat(), true);
        assert_eq!(tally.ends, [1, 0, 0]);
        assert_eq!(tally.rounds.bins()[2], 1);
        assert_eq!(tally.extra[EXTRA_DYING + 1], 2, "both brigands dying");
        assert_eq!(tally.fighter_trials(1), 2, "a b_dying rate of 2 in 2");
        assert_eq!(tally.dead, [0, 0], "attention arrives in 30 minutes");
        assert_eq!(tally.recovery[1].patients, 2);
        crate::log::assert_in_order(
            &story,
            &[
                "Knight strikes first",
                "round 1",
                "Knight picks Brigand 1: the first foe standing, kept while it stands of 2 foes standing (target = same)",
                "Knight attacks Brigand 1: value 15 (penalty 0) vs Guard 5",
                "Brigand 1 is out of the fight\n",
                "Brigand 2 attacks Knight",
                "round 2",
                "Knight attacks Brigand 2",
                "Brigand 2 is out of the fight: Knight wins",
                "Brigand 1 is dying: medical attention arrives in time",
                "Brigand 2 is dying: medical attention arrives in time",
            ],
        );
        assert!(
            !story.contains("Brigand 1 attacks"),
            "out of the fight: {story}"
        );
    }

    #[test]
    fn weakest_turns_on_the_foe_with_the_highest_row_marked() {
        // Knight 1 (random: the d2 gives Brigand 2) marks Injury on row 5 (damage roll 5, 20);
        // Knight 2 (weakest) turns on Brigand 2, strongest on Brigand 1.
        for (target, picked) in [
            (Target::Weakest, "Knight 2 picks Brigand 2: the most hurt"),
            (
                Target::Strongest,
                "Knight 2 picks Brigand 1: the least hurt",
            ),
        ] {
            let knight = fighter(15, 5, 15, 5);
            let members: Vec<Enrolled> = [
                (Side::A, "Knight 1", Target::Random),
                (Side::A, "Knight 2", target),
                (Side::B, "Brigand 1", Target::Same),
                (Side::B, "Brigand 2", Target::Same),
            ]
            .map(|(side, name, target)| Enrolled {
                side,
                name: name.into(),
                target,
            })
            .to_vec();
            let rules = Rules {
                first_strike: FirstStrike::A,
                ..Rules::default()
            };
            let model =
                GuardPierce::skirmish(&members, vec![knight; 4], rules, Healing::default(), 40);
            let (_, story) = run(&model, &[2, 8, 20, 5, 20, 1, 1], false);
            assert!(story.contains("Injury [5]"), "{story}");
            assert!(story.contains(picked), "{target:?}: {story}");
        }
    }

    #[test]
    fn a_stunned_fighter_of_a_side_takes_the_recover_action_on_its_own_sheet() {
        // L53: "The Action "Recover" requires your character be able to act. Roll Willpower,
        // taking your penalties into account. A success clears your highest Stun."
        // The Knight's cudgel Hit (8, 20) marks Stun on row 5 (damage roll 5, 20); Brigand 1
        // (recover_at 1) rolls Willpower 10 less the row's penalty 3: 4 and 17, a success: the
        // Stun clears.
        let mut brigand = fighter(10, 5, 5, 5);
        brigand.recover_at = 1;
        let mut cudgel = ledger_cudgel(15, 5);
        cudgel.attack = 15;
        let model = knight_and_brigands(cudgel, Target::Same, &[brigand; 2]);
        let (_, story) = run(&model, &[8, 20, 5, 20, 4, 17, 1, 1], false);
        crate::log::assert_in_order(
            &story,
            &[
                "Stun [5]",
                "Brigand 1 uses Recover: Willpower 7: 4 success, Stun on row 5 clears",
                "Brigand 2 attacks Knight",
            ],
        );
    }
}
