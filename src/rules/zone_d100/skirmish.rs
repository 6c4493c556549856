//! A fight of sides of several fighters (MELEE SEQUENCE 1 ENGAGEMENT and the Outnumbered
//! Penalty, with our readings where the text leaves the group to the GM; see
//! `docs/rules/zone-d100.md`, "Sides of several fighters"): the order of action by Initiative
//! across both sides, the ground between the sides, whom each fighter engages, the foes
//! threatening a defender (the Outnumbered Penalty), the end of the fight and the healing of
//! every survivor. Each turn is the duel's own ([`ZoneD100::act`]) on the point of the fighter
//! and its foe. A side of one against a side of one never comes here: it is the duel.

use super::healing;
use super::injury::ShockState;
use super::melee::State;
use super::missile_actions::Range;
use super::Purpose;
use super::tally::{BLEEDERS, record_end, record_healing_of};
use super::{ZoneD100, location_shock};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::roster::MAX_FIGHTERS;
use crate::stats::{DuelOutcome, Side, Tally};

/// What a fighter has done at range, kept between its turns (the duel keeps it in [`Range`]).
#[derive(Clone, Copy, Debug, Default)]
struct AtRange {
    /// Feet this fighter has closed towards the other side.
    advanced: u32,
    /// A missile loaded.
    loaded: bool,
    /// Rounds spent loading.
    progress: u32,
    /// Aimed.
    aimed: bool,
    /// Moved this round.
    moved: bool,
    /// Moved with the Evade action.
    evading: bool,
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

    /// One fight of the point's fighters, its end and the healing of every survivor.
    // Out of line: the duel's trial, which tests for a side of several first, stays as tight
    // as it was.
    #[inline(never)]
    pub(super) fn fight<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        let roster = &self.roster;
        let n = roster.len();
        let mut states = [State::default(); MAX_FIGHTERS];
        let mut at = [AtRange::default(); MAX_FIGHTERS];
        let mut out = [false; MAX_FIGHTERS];
        let mut kept = [usize::MAX; MAX_FIGHTERS];
        // Order of action: the higher Initiative ML first; among equals of both sides a d2
        // for the fight says which side goes first.
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
                .map(|&i| roster.fighter_names[i].as_str())
                .collect();
            format!("order of action: {}", names.join(", "))
        });
        let mut rounds = 0;
        let mut winner = None;
        // The fighter whose fall ended the fight.
        let mut decider = None;
        let mut turn = 0;
        'fight: for round in 1..=self.round_limit {
            rounds = round;
            log.say(|| format!("round {round}"));
            for &actor in order {
                turn += 1;
                for s in &mut states[..n] {
                    s.turn = turn;
                    s.round = round;
                }
                if out[actor] {
                    continue;
                }
                if dice.exhausted() {
                    break 'fight;
                }
                // Whom it engages: a foe picked by its policy when its turn goes to a shot, a
                // step or a strike; a turn spent standing up or taking up the weapon (or
                // unable to act: the end of its turn only) is beside the first foe in the fight.
                let s = &states[actor];
                let busy = s.disarmed || (s.prone && !self.melee.legs_unusable(s));
                dice.stream(Stream::new(Purpose::Target, actor, round));
                let foe = if s.can_act() && !busy {
                    let hurt = |f: usize| injury_levels(&states[f]);
                    roster.choose(actor, &out[..n], hurt, &mut kept[..n], dice, log)
                } else {
                    let foes = roster.team(roster.side_of[actor].other());
                    foes.clone().find(|&f| !out[f])
                };
                let Some(foe) = foe else {
                    break 'fight;
                };
                let pair = self.pair(actor, foe);
                let mut two = [states[actor], states[foe]];
                two[0].outnumbered = self
                    .threatening(&states[..n], &at[..n], &out[..n], actor)
                    .saturating_sub(1);
                two[1].outnumbered = self
                    .threatening(&states[..n], &at[..n], &out[..n], foe)
                    .saturating_sub(1);
                let before = self.between(&at, actor, foe);
                let mut range = Range {
                    distance: before,
                    loaded: [at[actor].loaded, at[foe].loaded],
                    progress: [at[actor].progress, at[foe].progress],
                    aimed: [at[actor].aimed, at[foe].aimed],
                    moved: [at[actor].moved, at[foe].moved],
                    evading: [at[actor].evading, at[foe].evading],
                };
                let sides = [roster.side_of[actor], roster.side_of[foe]];
                dice.stream(Stream::new(Purpose::Turn, actor, round));
                pair.act(Side::A, sides, &mut two, &mut range, dice, log, tally);
                [states[actor], states[foe]] = two.map(|s| State {
                    outnumbered: 0,
                    ..s
                });
                let me = &mut at[actor];
                me.advanced += before.saturating_sub(range.distance);
                (me.loaded, me.progress, me.aimed) =
                    (range.loaded[0], range.progress[0], range.aimed[0]);
                (me.moved, me.evading) = (range.moved[0], range.evading[0]);
                // Who is out now: the turn may have felled the foe, or the actor by a
                // Counterstrike, a Mishap or the end of its turn.
                for f in [actor, foe] {
                    if !out[f] && self.out(&states[f]) {
                        out[f] = true;
                        log.say(|| format!("{} is out of the fight", roster.fighter_names[f]));
                    }
                }
                let standing = |side: Side| roster.team(side).filter(|&f| !out[f]).count();
                let (a, b) = (standing(Side::A), standing(Side::B));
                if a == 0 || b == 0 {
                    winner = match (a, b) {
                        (0, 0) => None,
                        (0, _) => Some(Side::B),
                        _ => Some(Side::A),
                    };
                    decider = Some(if out[foe] { foe } else { actor });
                    break 'fight;
                }
            }
        }
        if winner.is_none() && decider.is_none() && !dice.exhausted() {
            // The round limit with one side all down (INC, or helpless when the victor strikes
            // the helpless) and the other not: the side standing has won.
            let down = |side: Side| roster.team(side).all(|f| !states[f].can_act());
            winner = match (down(Side::A), down(Side::B)) {
                (false, true) => Some(Side::A),
                (true, false) => Some(Side::B),
                _ => None,
            };
            decider = winner.and_then(|w| roster.team(w.other()).find(|&f| !out[f]));
        }
        if let (Some(w), Some(d)) = (winner, decider) {
            let how = record_end(tally, &states[d]);
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
        let mut deaths = [0u32; 2];
        for (i, s) in states[..n].iter().enumerate() {
            // BLEEDERS, then AMPUTATIONS.
            tally.record_extras(BLEEDERS, [s.bleeders, s.amputations].map(u64::from));
            deaths[roster.side_of[i].index()] += u32::from(s.dead);
        }
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead: deaths,
        });
        for (i, s) in states[..n].iter().enumerate() {
            let down = out[i] || !s.can_act();
            tally.record_fighter(i, down, s.dead);
        }
        // The healing sequence for every survivor with injuries, bleeding or shock to recover
        // from.
        for (i, s) in states[..n].iter().enumerate() {
            let hurt = !s.injuries.is_empty()
                || s.extended_shock.is_some()
                || s.shock >= ShockState::Incapacitated;
            if s.dead || !hurt {
                continue;
            }
            log.say(|| format!("{} after the fight", roster.fighter_names[i]));
            let shock_of = |k: usize| s.injuries.get(k).map_or(0, |x| location_shock(x.location));
            let foe = roster.team(roster.side_of[i].other()).start;
            let alone = self.pair(i, foe);
            dice.stream(Stream::new(Purpose::Healing, i, 0));
            let mut healed = healing::Outcome::default();
            let (care, patient) = (&alone.care, &alone.patients[0]);
            healing::heal(care, patient, s, shock_of, dice, log, &mut healed);
            record_healing_of(tally, i, roster.side_of[i], &healed);
        }
    }
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
