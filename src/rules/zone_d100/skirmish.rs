//! A fight of sides of several fighters (MELEE SEQUENCE 1 ENGAGEMENT and the Outnumbered
//! Penalty, with our readings where the text leaves the group to the GM; see
//! `docs/rules/zone-d100.md`, "Sides of several fighters"): the order of action by Initiative
//! across both sides, the ground between the sides, whom each fighter engages, the foes
//! threatening a defender (the Outnumbered Penalty), the end of the fight and the healing of
//! every survivor. Each turn is the duel's own ([`ZoneD100::act`]) on the fighter and its foe
//! as two places in the fight's states ([`Bout`]). A side of one against a side of one never
//! comes here: it is the duel.

use super::Purpose;
use super::healing;
use super::injury::ShockState;
use super::melee::{Bout, State};
use super::missile_actions::Range;
use super::tally::{BLEEDERS, record_end, record_healing_of};
use super::{ZoneD100, location_shock};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::rounds::in_places;
use crate::stats::{DuelOutcome, Side, Tally};

/// What a fighter has done at range, kept between its turns (the duel keeps it in [`Range`]).
#[derive(Clone, Copy, Debug, Default)]
struct AtRange {
    /// Feet this fighter has closed towards the other side.
    advanced: u32,
}

/// How hurt a fighter is, for the `weakest` and `strongest` policies: the sum of its injuries'
/// Injury Levels (an S3 and an M1 are 4).
fn injury_levels(state: &State) -> u32 {
    state.injuries.iter().map(|x| u32::from(x.il)).sum()
}

impl ZoneD100 {
    /// Feet between fighters `i` and `j` of opposite sides: the sides start
    /// `start_distance` apart, and the ground each has closed brings it nearer every foe.
    fn between(&self, at: &[AtRange], i: usize, j: usize) -> u32 {
        (self.start_distance).saturating_sub(at[i].advanced + at[j].advanced)
    }

    /// Foes threatening fighter `i` within their Engagement Zone: in the fight, in melee
    /// distance, able to act, standing and with a weapon readied.
    fn threatening(&self, states: &[State], at: &[AtRange], out: &[bool], i: usize) -> u32 {
        let foes = self.roster.team(self.roster.side_of[i].other());
        foes.filter(|&f| {
            let s = &states[f];
            !out[f]
                && s.can_act()
                && !s.prone
                && !s.disarmed
                && self.between(at, i, f) <= self.melee_distance
        })
        .count() as u32
    }

    /// One fight of the point's fighters, its end and the healing of every survivor, in a
    /// [`Fight`] of places for the roster's fighters rounded up to 4, 8, 16 or all: a
    /// fighter's state holds its injury record, and setting up 32 of them for a fight of 6 was
    /// a sixth of the fight's work.
    // Out of line: the duel's trial, which tests for a side of several first, stays as tight
    // as it was.
    #[inline(never)]
    pub(super) fn fight<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        in_places!(self.roster.len(), self.fight_in(dice, log, tally))
    }

    /// [`ZoneD100::fight`] with `N` places, at least the roster's.
    fn fight_in<const N: usize, D: Dice, L: Log>(
        &self,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        let mut f = Fight::<N> {
            states: [State::default(); N],
            at: [AtRange::default(); N],
            out: [false; N],
            kept: [usize::MAX; N],
            turn: 0,
        };
        let first = self.side_acting_first(dice, log);
        let mut rounds = 0;
        // The side that won and the fighter whose fall ended the fight.
        let mut end = (None, None);
        'fight: for round in 1..=self.round_limit {
            rounds = round;
            log.say(|| format!("round {round}"));
            for &actor in &self.order[first.index()] {
                match self.turn_of(&mut f, actor, round, dice, log, tally) {
                    Turn::Taken => {}
                    Turn::Over(over) => {
                        end = over;
                        break 'fight;
                    }
                }
            }
        }
        if end.1.is_none() && !dice.exhausted() {
            end = self.end_at_the_round_limit(&f);
        }
        self.say_the_end(&f, end, dice, log, tally);
        self.record_fight(&f, end.0, rounds, tally);
        self.heal_survivors(&f, dice, log, tally);
    }

    /// Order of action: the higher Initiative ML first; among equals of both sides a d2 for
    /// the fight says which side goes first.
    fn side_acting_first<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L) -> Side {
        let first = if self.initiative_tie {
            dice.stream(Stream::new(Purpose::Initiative, 0, 0));
            Side::BOTH[(dice.d(2, "d2 (equal Initiative: which side acts first)") - 1) as usize & 1]
        } else {
            Side::A
        };
        let order = &self.order[first.index()];
        log.say(|| {
            let names: Vec<&str> = order
                .iter()
                .map(|&i| self.roster.fighter_names[i].as_str())
                .collect();
            format!("order of action: {}", names.join(", "))
        });
        first
    }

    /// Whom `actor` engages: a foe picked by its policy when its turn goes to a shot, a step or
    /// a strike; a turn spent standing up or taking up the weapon (or unable to act: the end
    /// of its turn only) is beside the first foe in the fight. `None` when no foe is left.
    fn foe_of<const N: usize, D: Dice, L: Log>(
        &self,
        f: &mut Fight<N>,
        actor: usize,
        round: u32,
        dice: &mut D,
        log: &mut L,
    ) -> Option<usize> {
        let (roster, n) = (&self.roster, self.roster.len());
        let s = &f.states[actor];
        let busy = s.disarmed || (s.prone && !self.melee.legs_unusable(s));
        if s.can_act() && !busy {
            let hurt = |foe: usize| injury_levels(&f.states[foe]);
            let target = Stream::new(Purpose::Target, actor, round);
            roster.choose(
                actor,
                &f.out[..n],
                hurt,
                &mut f.kept[..n],
                (dice, target),
                log,
            )
        } else {
            let foes = roster.team(roster.side_of[actor].other());
            foes.clone().find(|&foe| !f.out[foe])
        }
    }

    /// `actor`'s turn in `round`: the duel's own turn of the fighter on the foe it engages,
    /// outnumbered by the foes threatening each; then who is out, and whether the fight is
    /// over.
    fn turn_of<const N: usize, D: Dice, L: Log>(
        &self,
        f: &mut Fight<N>,
        actor: usize,
        round: u32,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> Turn {
        let n = self.roster.len();
        f.turn += 1;
        for s in &mut f.states[..n] {
            s.turn = f.turn;
            s.round = round;
        }
        if f.out[actor] {
            return Turn::Taken;
        }
        if dice.exhausted() {
            return Turn::Over((None, None));
        }
        let Some(foe) = self.foe_of(f, actor, round, dice, log) else {
            return Turn::Over((None, None));
        };
        self.strike_or_shoot(f, [actor, foe], round, dice, log, tally);
        self.who_is_out(f, [actor, foe], log)
    }

    /// The duel's turn of `actor` on `foe`, the two a [`Bout`] of the fight's states, with the
    /// ground between them and the foes threatening each (the Outnumbered Penalty).
    fn strike_or_shoot<const N: usize, D: Dice, L: Log>(
        &self,
        f: &mut Fight<N>,
        [actor, foe]: [usize; 2],
        round: u32,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        let n = self.roster.len();
        for who in [actor, foe] {
            f.states[who].outnumbered = self
                .threatening(&f.states[..n], &f.at[..n], &f.out[..n], who)
                .saturating_sub(1);
        }
        let at = &f.at;
        let before = self.between(at, actor, foe);
        let mut range = Range { distance: before };
        let sides = [self.roster.side_of[actor], self.roster.side_of[foe]];
        let turn = Stream::new(Purpose::Turn, actor, round);
        dice.stream(turn);
        let mut bout = Bout {
            places: [actor, foe],
            states: &mut f.states,
        };
        self.act(
            (Side::A, turn),
            sides,
            &mut bout,
            &mut range,
            dice,
            log,
            tally,
        );
        f.states[actor].outnumbered = 0;
        f.states[foe].outnumbered = 0;
        let me = &mut f.at[actor];
        me.advanced += before.saturating_sub(range.distance);
    }

    /// Who is out after a turn: the turn may have felled the foe, or the actor by a
    /// Counterstrike, a Mishap or the end of its turn. The fight is over when a side has no
    /// one standing.
    fn who_is_out<const N: usize, L: Log>(
        &self,
        f: &mut Fight<N>,
        [actor, foe]: [usize; 2],
        log: &mut L,
    ) -> Turn {
        let roster = &self.roster;
        for who in [actor, foe] {
            if !f.out[who] && self.out(&f.states[who]) {
                f.out[who] = true;
                log.say(|| format!("{} is out of the fight", roster.fighter_names[who]));
            }
        }
        let standing = |side: Side| roster.team(side).filter(|&i| !f.out[i]).count();
        let (a, b) = (standing(Side::A), standing(Side::B));
        if a > 0 && b > 0 {
            return Turn::Taken;
        }
        let winner = match (a, b) {
            (0, 0) => None,
            (0, _) => Some(Side::B),
            _ => Some(Side::A),
        };
        Turn::Over((winner, Some(if f.out[foe] { foe } else { actor })))
    }

    /// The round limit with one side all down (INC, or helpless when the victor strikes the
    /// helpless) and the other not: the side standing has won.
    fn end_at_the_round_limit<const N: usize>(
        &self,
        f: &Fight<N>,
    ) -> (Option<Side>, Option<usize>) {
        let roster = &self.roster;
        let down = |side: Side| roster.team(side).all(|i| !f.states[i].can_act());
        let winner = match (down(Side::A), down(Side::B)) {
            (false, true) => Some(Side::A),
            (true, false) => Some(Side::B),
            _ => None,
        };
        let decider = winner.and_then(|w| roster.team(w.other()).find(|&i| !f.out[i]));
        (winner, decider)
    }

    /// Says how the fight ended (and counts how the last foe fell).
    fn say_the_end<const N: usize, D: Dice, L: Log>(
        &self,
        f: &Fight<N>,
        (winner, decider): (Option<Side>, Option<usize>),
        dice: &D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        let roster = &self.roster;
        if let (Some(w), Some(d)) = (winner, decider) {
            let how = record_end(tally, &f.states[d]);
            log.say(|| {
                let last = if roster.sides[w.other().index()] == 1 {
                    roster.fighter_names[d].clone()
                } else {
                    format!(
                        "{}, the last of {},",
                        roster.fighter_names[d],
                        roster.side_names[w.other().index()]
                    )
                };
                format!("{} wins: {last} is {how}", roster.side_names[w.index()])
            });
        } else if !dice.exhausted() {
            log.say(|| "no winner: a draw".to_owned());
        }
    }

    /// Counts the fight: each fighter's bleeders and amputations, the winner, the rounds, each
    /// side's dead and each fighter's end.
    fn record_fight<const N: usize>(
        &self,
        f: &Fight<N>,
        winner: Option<Side>,
        rounds: u32,
        tally: &mut Tally,
    ) {
        let roster = &self.roster;
        let states = &f.states[..roster.len()];
        let mut deaths = [0u32; 2];
        for (i, s) in states.iter().enumerate() {
            // BLEEDERS, then AMPUTATIONS.
            tally.record_extras(BLEEDERS, [s.bleeders, s.amputations].map(u64::from));
            deaths[roster.side_of[i].index()] += u32::from(s.dead);
        }
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead: deaths,
        });
        for (i, s) in states.iter().enumerate() {
            let down = f.out[i] || !s.can_act();
            tally.record_fighter(i, down, s.dead);
        }
    }

    /// The healing sequence for every survivor with injuries, bleeding or shock to recover
    /// from.
    fn heal_survivors<const N: usize, D: Dice, L: Log>(
        &self,
        f: &Fight<N>,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        let roster = &self.roster;
        for (i, s) in f.states[..roster.len()].iter().enumerate() {
            let hurt = !s.injuries.is_empty()
                || s.extended_shock.is_some()
                || s.shock >= ShockState::Incapacitated;
            if s.dead || !hurt {
                continue;
            }
            log.say(|| format!("{} after the fight", roster.fighter_names[i]));
            let shock_of = |k: usize| s.injuries.get(k).map_or(0, |x| location_shock(x.location));
            dice.stream(Stream::new(Purpose::Healing, i, 0));
            let mut healed = healing::Outcome::default();
            let (care, patient) = (&self.care, &self.patients[i]);
            healing::heal(care, patient, s, shock_of, dice, log, &mut healed);
            record_healing_of(tally, i, roster.side_of[i], &healed);
        }
    }
}

/// Where a fight of several stands between turns: every fighter's state, what each has done
/// at range, who is out, the foe each keeps to, and how many turns have passed.
struct Fight<const N: usize> {
    /// Each fighter's state, as the duel keeps it.
    states: [State; N],
    /// What each has done at range.
    at: [AtRange; N],
    /// Out of the fight.
    out: [bool; N],
    /// The foe each keeps to, for the target policies that keep one.
    kept: [usize; N],
    /// Turns taken so far, over every fighter.
    turn: u32,
}

/// What a turn leaves: the fight going on, or over with its winner (`None`: a draw or dice run
/// out) and the fighter whose fall ended it.
enum Turn {
    /// The fight goes on.
    Taken,
    /// The fight is over.
    Over((Option<Side>, Option<usize>)),
}

#[cfg(test)]
mod tests {
    //! Sides of several, driven with scripted dice (`docs/rules/zone-d100.md`, "Sides of
    //! several fighters"). Results of 99, 98 ... fail every test here and end in no digit of a
    //! Mishap; 95 is a CF with a Stumble.
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::Ruleset;
    use crate::rules::registry::{self, Model};
    use std::path::Path;

    /// A knight (Melee ML75, Block, Initiative 65) against `b`, with `rules`.
    fn point(rules: &str, b: &str) -> ZoneD100 {
        let text = format!(
            r#"
name = "t"
ruleset = "zone-d100"
round_limit = 40
[rules]
{rules}
[a]
name = "Knight"
melee_ml = 75
dodge_ml = 45
shock_ml = 70
initiative_ml = 65
weapon = "broadsword"
defence = "block"
{b}
[weapons.broadsword]
impact_die = 10
impact_modifier = 3
aspect = "E"
zone_die = 6
reach = 4
heft = 6
[weapons.longbow]
base_range = 120
impact_die = 12
impact_modifier = 4
aspect = "P"
armour_reduction = 4
load_rounds = 0
aim_allowed = true
impales = true
"#
        );
        let scenario =
            registry::parse(Path::new("t.toml"), &text).unwrap_or_else(|e| panic!("{e}"));
        match &scenario.points[0].model {
            Model::ZoneD100(m) => m.as_ref().clone(),
            _ => panic!("not a zone-d100 point"),
        }
    }

    /// A brigand (Melee ML55, Dodge, Initiative `initiative`), `count` of them.
    fn brigands(count: u32, initiative: i32) -> String {
        format!(
            "[b]\nname = \"Brigand\"\ncount = {count}\nmelee_ml = 55\ndodge_ml = 45\nshock_ml = 55\ninitiative_ml = {initiative}\nweapon = \"broadsword\"\ndefence = \"dodge\"\n"
        )
    }

    /// The story of one fight on these dice, until they run out.
    fn story(model: &ZoneD100, dice: &[u32]) -> String {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let mut tally = Tally::new(model.shape());
        model.trial(&mut scripted, &mut log, &mut tally);
        let story = log.lines.join("\n");
        assert!(scripted.used() >= dice.len(), "dice left over\n{story}");
        story
    }

    #[test]
    fn outnumbered_costs_10_per_threatening_foe_beyond_one_and_prone_foes_do_not_count() {
        // OUTNUMBERED PENALTY: "Defenders suffer -10 PENALTY to defence tests for each
        // opponent threatening them beyond one. Do not count prone and Ignored foes."
        // Three brigands in melee: the Knight's Block is 75 - 20; a brigand, threatened by the
        // Knight alone, Dodges at its 45.
        let model = point("", &brigands(3, 55));
        let told = story(&model, &[99, 98, 97, 96, 94, 93, 92, 91]);
        crate::log::assert_in_order(
            &told,
            &[
                "order of action: Knight, Brigand 1, Brigand 2, Brigand 3",
                "Brigand 1 Dodge 98 vs EML45: F",
                "Knight Block 96 vs EML55 (Outnumbered -20: 3 foes threaten): F",
                "Knight Block 93 vs EML55 (Outnumbered -20: 3 foes threaten)",
                "Knight Block 91 vs EML55 (Outnumbered -20: 3 foes threaten)",
            ],
        );
        // Brigand 1 stumbles prone on its CF (95): the Knight's next Blocks count two foes.
        let told = story(&model, &[99, 98, 95, 96, 94, 93, 92, 91]);
        crate::log::assert_in_order(
            &told,
            &[
                "Knight Block 96 vs EML55 (Outnumbered -20: 3 foes threaten)",
                "Brigand 1 stumbles: falls prone",
                "Knight Block 93 vs EML65 (Outnumbered -10: 2 foes threaten)",
                "Knight Block 91 vs EML65 (Outnumbered -10: 2 foes threaten)",
            ],
        );
        // The penalty is a parameter: 0 turns it off.
        let model = point("outnumbered_penalty = 0", &brigands(3, 55));
        let told = story(&model, &[99, 98, 97, 96]);
        assert!(told.contains("Knight Block 96 vs EML75: F"), "{told}");
    }

    #[test]
    fn a_foe_beyond_melee_distance_does_not_threaten() {
        // "Aware characters can make a melee strike with a readied weapon against foes they
        // threaten within their Engagement Zone": the Archer shooting from 20 feet threatens
        // no one. The Knight closes 20 of the 40 feet, the Brigand the other 20; the Archer
        // misses (99); in round 2 the Knight Blocks the Brigand at his full 75.
        let archer = "[[b]]\nname = \"Brigand\"\nmelee_ml = 55\ndodge_ml = 45\nshock_ml = 55\ninitiative_ml = 55\nweapon = \"broadsword\"\ndefence = \"dodge\"\n[[b]]\nname = \"Archer\"\nmelee_ml = 50\ndodge_ml = 55\nshock_ml = 60\ninitiative_ml = 50\nmissile = \"longbow\"\nmissile_ml = 75\nweapon = \"broadsword\"\ndefence = \"dodge\"\n";
        let model = point(
            "start_distance = 40\napproach = 20\nmelee_distance = 5",
            archer,
        );
        let told = story(&model, &[99, 99, 97, 96, 99]);
        crate::log::assert_in_order(
            &told,
            &[
                "Knight closes to 20 feet",
                "Brigand closes to 0 feet",
                "Archer shoots at 20 feet",
                "round 2",
                "Knight attacks Brigand",
                "Knight Block 99 vs EML75: F",
            ],
        );
    }

    #[test]
    fn the_most_hurt_has_the_highest_sum_of_injury_levels() {
        // Our reading of `weakest` and `strongest` (docs, "Sides of several fighters", step 3).
        use crate::rules::zone_d100::body::Location;
        use crate::rules::zone_d100::injury::{Aspect, Injury};
        let mut state = State::default();
        assert_eq!(injury_levels(&state), 0);
        state
            .injuries
            .add(Injury::new(Location::Thigh, Aspect::Edge, 3));
        state
            .injuries
            .add(Injury::new(Location::Skull, Aspect::Blunt, 1));
        assert_eq!(injury_levels(&state), 4);
    }

    #[test]
    fn the_order_of_action_runs_by_initiative_across_sides_and_a_tie_rolls_one_d2() {
        // Order of action: the higher Initiative ML first (the duel's reading); equal MLs of
        // both sides: one d2 for the fight says which side goes first among them (2: side b).
        let model = point("", &brigands(2, 70));
        let told = story(&model, &[]);
        assert!(
            told.starts_with("order of action: Brigand 1, Brigand 2, Knight"),
            "{told}"
        );
        let model = point("", &brigands(2, 65));
        let told = story(&model, &[2]);
        assert!(
            told.starts_with("order of action: Brigand 1, Brigand 2, Knight"),
            "{told}"
        );
        let told = story(&model, &[1]);
        assert!(
            told.starts_with("order of action: Knight, Brigand 1, Brigand 2"),
            "{told}"
        );
    }
}
