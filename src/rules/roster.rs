//! The roster of a fight between two sides of one or more fighters, shared by every ruleset:
//! who is on which side and what each is called, who acts in turn within a round when no text
//! says ([`TurnOrder`]), and whom a fighter attacks among the foes still in the fight by its
//! target policy ([`Target`]). The rules of each ruleset (what an attack is, who is out) stay in
//! its own module; a side of one against a side of one needs none of this and is the duel.

use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::scenario::schema::Target;
use crate::stats::Side;
use serde::{Deserialize, Serialize};

/// Who acts in turn within a round when a side has several fighters and the ruleset's text
/// orders only two (each ruleset's page records the reading).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TurnOrder {
    /// Every fighter of the side acting first, in roster order, then every fighter of the
    /// other: a side's strikes land together, as a volley.
    #[default]
    Sides,
    /// The first of each side, then the second of each, and so on (the side acting first
    /// leads each pair).
    Alternate,
}

/// One fighter of a fight as enlisted: its side, name and target policy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enrolled {
    /// Its side.
    pub side: Side,
    /// Its name ("Brigand 2").
    pub name: String,
    /// Whom it attacks.
    pub target: Target,
}

/// The fighters of both sides, numbered side `a`'s first: in a duel fighter 0 is `a` and
/// fighter 1 is `b`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roster {
    /// Each side's name: its fighter's for a side of one, else its fighters' names together
    /// ("Brigand ×3").
    pub side_names: [String; 2],
    /// Each fighter's name, for narration.
    pub fighter_names: Vec<String>,
    /// Each fighter's side.
    pub side_of: Vec<Side>,
    /// Each fighter's target policy.
    pub targets: Vec<Target>,
    /// The fighters on each side.
    pub sides: [usize; 2],
    /// Who acts in turn within a round when side `a` (0) or `b` (1) acts first.
    order: [Vec<usize>; 2],
    /// The most attackers on one defender (`usize::MAX`: no limit).
    max_attackers: usize,
}

/// Who strikes whom: the attacker's and the defender's places on the roster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blow {
    /// The attacker's place.
    pub attacker: usize,
    /// The defender's place.
    pub defender: usize,
}

impl Blow {
    /// Side `attacker`'s fighter on the other's, in a duel (fighter 0 is `a`, 1 is `b`).
    #[inline]
    pub fn in_duel(attacker: Side) -> Blow {
        Blow {
            attacker: attacker.index(),
            defender: attacker.other().index(),
        }
    }
}

/// The most fighters a fight holds: a full side each.
pub const MAX_FIGHTERS: usize = 2 * crate::scenario::schema::MAX_SIDE as usize;

impl Roster {
    /// The roster of `members` (side `a`'s first), taking turns by `turn_order`.
    ///
    /// # Panics
    /// When there are more than [`MAX_FIGHTERS`] or side `b`'s come before side `a`'s: the
    /// scenario's roster is bounded and ordered before any ruleset builds one.
    pub fn new(members: &[Enrolled], turn_order: TurnOrder) -> Self {
        let n = members.len();
        assert!(
            n <= MAX_FIGHTERS
                && members
                    .windows(2)
                    .all(|w| w[0].side.index() <= w[1].side.index()),
            "at most {MAX_FIGHTERS} members, side a's first (the roster's bound and order)"
        );
        let of =
            |side: Side| -> Vec<usize> { (0..n).filter(|&i| members[i].side == side).collect() };
        let (team_a, team_b) = (of(Side::A), of(Side::B));
        let turns = |first: &[usize], second: &[usize]| -> Vec<usize> {
            match turn_order {
                TurnOrder::Sides => first.iter().chain(second).copied().collect(),
                TurnOrder::Alternate => {
                    let mut order = Vec::with_capacity(n);
                    for k in 0..first.len().max(second.len()) {
                        order.extend(first.get(k));
                        order.extend(second.get(k));
                    }
                    order
                }
            }
        };
        let side_name = |team: &[usize]| -> String {
            match team {
                [one] => members[*one].name.clone(),
                _ => {
                    // "Brigand ×3", or the group's names in order for a mixed side.
                    let mut groups: Vec<(String, usize)> = Vec::new();
                    for &i in team {
                        let base = base_name(&members[i].name, team.len());
                        match groups.last_mut() {
                            Some((name, count)) if *name == base => *count += 1,
                            _ => groups.push((base, 1)),
                        }
                    }
                    groups
                        .into_iter()
                        .map(|(name, count)| {
                            if count > 1 {
                                format!("{name} ×{count}")
                            } else {
                                name
                            }
                        })
                        .collect::<Vec<_>>()
                        .join(" + ")
                }
            }
        };
        Roster {
            side_names: [side_name(&team_a), side_name(&team_b)],
            fighter_names: members.iter().map(|m| m.name.clone()).collect(),
            side_of: members.iter().map(|m| m.side).collect(),
            targets: members.iter().map(|m| m.target).collect(),
            sides: [team_a.len(), team_b.len()],
            order: [turns(&team_a, &team_b), turns(&team_b, &team_a)],
            max_attackers: usize::MAX,
        }
    }

    /// The roster of a duel: `a` against `b`.
    pub fn duel(names: [String; 2]) -> Self {
        let [a, b] = names;
        let member = |side, name| Enrolled {
            side,
            name,
            target: Target::default(),
        };
        Roster::new(&[member(Side::A, a), member(Side::B, b)], TurnOrder::Sides)
    }

    /// The roster's members, to build another point of the same fighters.
    pub fn members(&self) -> Vec<Enrolled> {
        (0..self.len())
            .map(|i| Enrolled {
                side: self.side_of[i],
                name: self.fighter_names[i].clone(),
                target: self.targets[i],
            })
            .collect()
    }

    /// How many fighters there are.
    pub fn len(&self) -> usize {
        self.fighter_names.len()
    }

    /// Whether the roster is empty (never, for a compiled point).
    pub fn is_empty(&self) -> bool {
        self.fighter_names.is_empty()
    }

    /// Whether this is a duel: one fighter on each side.
    pub fn is_duel(&self) -> bool {
        self.sides == [1, 1]
    }

    /// The fighters of one side, by number.
    pub fn team(&self, side: Side) -> std::ops::Range<usize> {
        match side {
            Side::A => 0..self.sides[0],
            Side::B => self.sides[0]..self.len(),
        }
    }

    /// Who acts in turn within a round when `first`'s side acts first.
    pub fn order(&self, first: Side) -> &[usize] {
        &self.order[first.index()]
    }

    /// The roster with at most `limit` attackers on one defender (0: no limit, the texts'
    /// reading): a fighter passes over a foe that many allies already attack.
    pub fn with_attacker_limit(mut self, limit: u32) -> Self {
        self.max_attackers = if limit == 0 {
            usize::MAX
        } else {
            limit as usize
        };
        self
    }

    /// Whom `attacker` attacks among the foes still in the fight (`out` marks those who are
    /// not) and within its reach (`reach`, as its ruleset says: every foe but in zone-d100's
    /// melee), by its target policy, passing over a foe already attacked by the most attackers
    /// allowed; `hurt(f)` says how hurt foe `f` is (higher is more hurt). `engaged` is the foe
    /// each attacks: kept (under `same` and `pair`, or the last foe standing) or its last pick
    /// ([`engaged_foe`]). A random choice rolls a die only when there is a choice, from the
    /// stream `key` (named only then: most turns keep to their foe or have one left).
    // Always in line: its common case is a few loads, and each fight's turn (a fight's and a
    // campaign's fight from the same turn code) calls it; left to the compiler, two callers of
    // one instantiation put it out of line (17% more instructions in twin-d20's three against
    // three).
    #[inline(always)]
    pub fn choose<D: Dice, L: Log>(
        &self,
        attacker: usize,
        (out, reach): (&[bool], impl Fn(usize) -> bool),
        hurt: impl Fn(usize) -> u32,
        engaged: &mut [usize],
        (dice, key): (&mut D, Stream),
        log: &mut L,
    ) -> Pick {
        // The common case, silent: the foe it keeps to still in the fight and in reach (it was
        // open to it when taken, and an attacker keeps its place). Only `same` and `pair` keep
        // a foe while others stand; any policy keeps the last foe standing, who is the only
        // choice until out.
        let held = engaged[attacker];
        if !L::ON && held < out.len() && !out[held] && reach(held) {
            return Pick::Foe(held);
        }
        // With no limit, no foe is ever crowded: that choice is made once, not at every foe.
        let field = (out, reach);
        if self.max_attackers == usize::MAX {
            self.choose_anew::<false, D, L>(attacker, field, hurt, engaged, (dice, key), log)
        } else {
            self.choose_anew::<true, D, L>(attacker, field, hurt, engaged, (dice, key), log)
        }
    }

    /// [`Roster::choose`] past the kept foe: a pick among the foes open to `attacker`, with a
    /// limit of attackers on one defender when `LIMITED`.
    // In line in each fight's turn, as `choose`: out of line it cost twin-d20's three against
    // three 6% more instructions once a campaign's fights shared the turn code.
    #[inline(always)]
    fn choose_anew<const LIMITED: bool, D: Dice, L: Log>(
        &self,
        attacker: usize,
        (out, reach): (&[bool], impl Fn(usize) -> bool),
        hurt: impl Fn(usize) -> u32,
        engaged: &mut [usize],
        (dice, key): (&mut D, Stream),
        log: &mut L,
    ) -> Pick {
        let held = engaged[attacker];
        let foes = self.team(self.side_of[attacker].other());
        let policy = self.targets[attacker];
        // The foes in the fight, those open to it and the first of these, in one pass.
        let (mut left, mut standing, mut first) = (0, 0, usize::MAX);
        for f in foes.clone().filter(|&f| !out[f]) {
            left += 1;
            if reach(f) && !self.crowded::<LIMITED>(f, attacker, out, engaged) {
                if standing == 0 {
                    first = f;
                }
                standing += 1;
            }
        }
        if standing == 0 {
            if left > 0 {
                log.say(|| self.crowded_words(attacker, (out, &reach), engaged));
            }
            engaged[attacker] = usize::MAX;
            return if left > 0 {
                Pick::CrowdedOut
            } else {
                Pick::NoFoeLeft
            };
        }
        if left == 1 {
            engaged[attacker] = first;
            return Pick::Foe(first);
        }
        let keeps = matches!(policy, Target::Same | Target::Pair);
        let chosen = if standing == 1 {
            first
        } else {
            self.by_policy::<LIMITED, D>(
                attacker,
                (standing, first),
                (out, &reach, &hurt),
                engaged,
                (dice, key),
            )
        };
        let took_anew = keeps && held != chosen;
        log.say(|| {
            let open = |f| self.open::<LIMITED>(f, attacker, (out, &reach), engaged);
            let even = foes
                .clone()
                .filter(|&f| open(f))
                .all(|f| hurt(f) == hurt(first));
            let unfought = took_anew
                && self.unfought::<LIMITED>(attacker, (out, &reach), engaged) == Some(chosen);
            let why = self.choice_words(policy, (even, took_anew, unfought));
            let among = self.among_words(attacker, standing, (out, &reach), engaged);
            format!(
                "{} picks {}: {why}{among} (target = {})",
                self.fighter_names[attacker],
                self.fighter_names[chosen],
                policy.word()
            )
        });
        // A policy that does not keep its foe still engages it until its next pick: its
        // place counts against the limit and for `pair`, but never for the kept foe's fast
        // path above.
        engaged[attacker] = if keeps { chosen } else { chosen + MAX_FIGHTERS };
        Pick::Foe(chosen)
    }

    /// The foe `attacker`'s policy picks among the `standing` foes open to it (`open`; the
    /// first of them `first`, at least two; `out`: those out of the fight), `hurt` saying how
    /// hurt each is; a random pick's die from the stream `key`.
    #[inline(always)]
    fn by_policy<const LIMITED: bool, D: Dice>(
        &self,
        attacker: usize,
        (standing, first): (usize, usize),
        (out, reach, hurt): (&[bool], &impl Fn(usize) -> bool, &impl Fn(usize) -> u32),
        engaged: &[usize],
        (dice, key): (&mut D, Stream),
    ) -> usize {
        let foes = self.team(self.side_of[attacker].other());
        let open = |f| self.open::<LIMITED>(f, attacker, (out, reach), engaged);
        let policy = self.targets[attacker];
        let held = engaged[attacker];
        match policy {
            Target::Random => {
                dice.stream(key);
                let k = dice.d(
                    standing as u32,
                    "d(foes standing): whom the attacker attacks",
                ) as usize;
                foes.clone()
                    .filter(|&f| open(f))
                    .nth(k.saturating_sub(1))
                    .unwrap_or(first)
            }
            // The first in the roster among equals.
            Target::Weakest => foes
                .clone()
                .filter(|&f| open(f))
                .fold(first, |best, f| if hurt(f) > hurt(best) { f } else { best }),
            Target::Strongest => foes
                .clone()
                .filter(|&f| open(f))
                .fold(first, |best, f| if hurt(f) < hurt(best) { f } else { best }),
            Target::Same | Target::Pair => {
                if held < MAX_FIGHTERS && open(held) {
                    held
                } else if policy == Target::Pair {
                    self.unfought::<LIMITED>(attacker, (out, reach), engaged)
                        .unwrap_or(first)
                } else {
                    first
                }
            }
        }
    }

    /// Whether foe `f` is open to `attacker`: in the fight (`out`: those who are not), within
    /// its reach and with room for another attacker (`engaged`: the foe each attacks).
    #[inline]
    fn open<const LIMITED: bool>(
        &self,
        f: usize,
        attacker: usize,
        (out, reach): (&[bool], &impl Fn(usize) -> bool),
        engaged: &[usize],
    ) -> bool {
        !out[f] && reach(f) && !self.crowded::<LIMITED>(f, attacker, out, engaged)
    }

    /// Whether foe `f` already faces the most attackers allowed, `attacker` aside (never
    /// unless `LIMITED`: a roster with a limit).
    #[inline]
    fn crowded<const LIMITED: bool>(
        &self,
        f: usize,
        attacker: usize,
        out: &[bool],
        engaged: &[usize],
    ) -> bool {
        LIMITED
            && self.max_attackers != usize::MAX
            && self.attackers_on(f, attacker, out, engaged) >= self.max_attackers
    }

    /// How many allies of `attacker` still in the fight attack `foe` (`engaged`: the foe each
    /// attacks); asked only when there is a limit.
    #[inline]
    fn attackers_on(&self, foe: usize, attacker: usize, out: &[bool], engaged: &[usize]) -> usize {
        self.team(self.side_of[attacker])
            .filter(|&a| a != attacker && !out[a] && engaged_foe(engaged[a]) == Some(foe))
            .count()
    }

    /// The first foe open to `attacker` ([`Roster::open`]) that no ally still in the fight
    /// (`out`: those who are not) attacks (`engaged`: the foe each attacks), if any: whom
    /// `pair` takes.
    fn unfought<const LIMITED: bool>(
        &self,
        attacker: usize,
        (out, reach): (&[bool], &impl Fn(usize) -> bool),
        engaged: &[usize],
    ) -> Option<usize> {
        let side = self.side_of[attacker];
        let allies = self.team(side);
        self.team(side.other()).find(|&f| {
            self.open::<LIMITED>(f, attacker, (out, reach), engaged)
                && !allies
                    .clone()
                    .any(|a| a != attacker && !out[a] && engaged_foe(engaged[a]) == Some(f))
        })
    }

    /// Why the trace says `attacker` took the foe its `policy` chose: `even` when none is more
    /// hurt than another, `took_anew` when a policy that keeps a foe took this one now,
    /// `unfought` when no ally fought it.
    fn choice_words(
        &self,
        policy: Target,
        (even, took_anew, unfought): (bool, bool, bool),
    ) -> &'static str {
        match policy {
            Target::Random => "picked by a die",
            Target::Weakest | Target::Strongest if even => "none more hurt than another: the first",
            Target::Weakest => "the most hurt",
            Target::Strongest => "the least hurt",
            Target::Same | Target::Pair if !took_anew => "the foe it keeps to while it stands",
            Target::Same => "the first foe standing, kept while it stands",
            Target::Pair if unfought => "a foe no ally fights, kept while it stands",
            Target::Pair => "every foe fought: the first standing, kept while it stands",
        }
    }

    /// Among which foes the trace says `attacker` picked: the `standing` open to it, and of
    /// those it passed over, how many are beyond its reach and how many already face the most
    /// attackers allowed (`crowded`).
    fn among_words(
        &self,
        attacker: usize,
        standing: usize,
        (out, reach): (&[bool], &impl Fn(usize) -> bool),
        engaged: &[usize],
    ) -> String {
        let crowded = |f| self.crowded::<true>(f, attacker, out, engaged);
        let foes = self.team(self.side_of[attacker].other());
        let total = foes.clone().filter(|&f| !out[f]).count();
        if total == standing {
            return format!(" of {standing} foes standing");
        }
        let beyond = foes.clone().filter(|&f| !out[f] && !reach(f)).count();
        let full = foes.filter(|&f| !out[f] && reach(f) && crowded(f)).count();
        let mut passed = Vec::new();
        if beyond > 0 {
            passed.push(format!("{beyond} beyond its reach"));
        }
        if full > 0 {
            let faces = self.faces_words();
            let faces = if full == 1 {
                faces
            } else {
                faces.replacen("faces", "face", 1)
            };
            passed.push(format!("{full} {faces}"));
        }
        format!(
            " of {standing} of {total} foes standing ({})",
            passed.join(", ")
        )
    }

    /// "already faces 2 attackers (max_attackers = 2)": a foe with no room for another.
    fn faces_words(&self) -> String {
        match self.max_attackers {
            1 => "already faces an attacker (max_attackers = 1)".to_owned(),
            limit => format!("already faces {limit} attackers (max_attackers = {limit})"),
        }
    }

    /// What the trace says of `attacker` finding no foe open to it.
    fn crowded_words(
        &self,
        attacker: usize,
        (out, reach): (&[bool], &impl Fn(usize) -> bool),
        engaged: &[usize],
    ) -> String {
        let crowded = |f| self.crowded::<true>(f, attacker, out, engaged);
        let foes = self.team(self.side_of[attacker].other());
        let name = &self.fighter_names[attacker];
        let faces = self.faces_words();
        if !foes.clone().any(|f| !out[f] && reach(f)) {
            format!("{name} attacks no one: no foe standing is in its reach")
        } else if foes.clone().filter(|&f| !out[f]).all(crowded) {
            format!("{name} attacks no one: every foe standing {faces}")
        } else {
            format!("{name} attacks no one: every foe in its reach {faces}")
        }
    }
}

/// Whom a fighter attacks, as [`Roster::choose`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pick {
    /// The foe at this place.
    Foe(usize),
    /// No one this turn: every foe standing it could reach already faces the most attackers
    /// allowed (`max_attackers`), or none is within its reach.
    CrowdedOut,
    /// No foe is left in the fight.
    NoFoeLeft,
}

/// The foe a fighter attacks, from its entry in `engaged` ([`Roster::choose`]): the foe it
/// keeps to, or its last pick (kept past [`MAX_FIGHTERS`]); `None` before any.
#[inline]
pub fn engaged_foe(entry: usize) -> Option<usize> {
    match entry {
        e if e < MAX_FIGHTERS => Some(e),
        e if e < 2 * MAX_FIGHTERS => Some(e - MAX_FIGHTERS),
        _ => None,
    }
}

/// A numbered name without its number ("Brigand 2" is a "Brigand") when a side of `size`
/// numbers its fighters.
pub fn base_name(name: &str, size: usize) -> String {
    match name.rsplit_once(' ') {
        Some((base, n)) if size > 1 && n.parse::<usize>().is_ok() => base.to_owned(),
        _ => name.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::{NoLog, VecLog};

    /// A stream for the picks (scripted dice ignore streams).
    fn key() -> Stream {
        #[derive(Clone, Copy)]
        struct Pick;
        impl crate::dice::Purpose for Pick {
            fn code(self) -> u32 {
                2
            }
        }
        Stream::new(Pick, 0, 1)
    }

    fn roster(b: usize, target: Target, turn_order: TurnOrder) -> Roster {
        let mut members = vec![Enrolled {
            side: Side::A,
            name: "Knight".into(),
            target,
        }];
        for k in 0..b {
            members.push(Enrolled {
                side: Side::B,
                name: format!("Brigand {}", k + 1),
                target: Target::Same,
            });
        }
        Roster::new(&members, turn_order)
    }

    #[test]
    fn a_side_of_copies_is_named_by_its_count_and_a_mixed_side_by_its_groups() {
        let r = roster(3, Target::Same, TurnOrder::Sides);
        assert_eq!(r.side_names, ["Knight".to_owned(), "Brigand ×3".to_owned()]);
        let mixed = Roster::new(
            &[
                Enrolled {
                    side: Side::A,
                    name: "Spearman".into(),
                    target: Target::Same,
                },
                Enrolled {
                    side: Side::A,
                    name: "Archer 1".into(),
                    target: Target::Same,
                },
                Enrolled {
                    side: Side::A,
                    name: "Archer 2".into(),
                    target: Target::Same,
                },
                Enrolled {
                    side: Side::B,
                    name: "Ogre".into(),
                    target: Target::Same,
                },
            ],
            TurnOrder::Sides,
        );
        assert_eq!(mixed.side_names[0], "Spearman + Archer ×2");
        assert!(!mixed.is_duel() && Roster::duel(["a".into(), "b".into()]).is_duel());
    }

    #[test]
    fn the_turn_order_is_a_volley_per_side_or_alternates() {
        let sides = roster(2, Target::Same, TurnOrder::Sides);
        assert_eq!(sides.order(Side::A), [0, 1, 2]);
        assert_eq!(sides.order(Side::B), [1, 2, 0]);
        let alternate = roster(2, Target::Same, TurnOrder::Alternate);
        assert_eq!(alternate.order(Side::A), [0, 1, 2]);
        assert_eq!(alternate.order(Side::B), [1, 0, 2]);
    }

    #[test]
    fn each_policy_picks_its_foe_and_only_random_rolls_when_there_is_a_choice() {
        let hurt = |f: usize| [0, 3, 7, 7][f];
        let pick = |target, out: &[bool], dice: &[u32]| {
            let r = roster(3, target, TurnOrder::Sides);
            let mut kept = [usize::MAX; 4];
            let mut scripted = ScriptedDice::new(dice.to_vec());
            let chosen = r.choose(
                0,
                (out, |_| true),
                hurt,
                &mut kept,
                (&mut scripted, key()),
                &mut NoLog,
            );
            assert!(scripted.finish().is_ok(), "{target:?}: dice left");
            chosen
        };
        let none_out = [false; 4];
        assert_eq!(
            pick(Target::Weakest, &none_out, &[]),
            Pick::Foe(2),
            "first among equals"
        );
        assert_eq!(pick(Target::Strongest, &none_out, &[]), Pick::Foe(1));
        assert_eq!(pick(Target::Same, &none_out, &[]), Pick::Foe(1));
        assert_eq!(pick(Target::Random, &none_out, &[3]), Pick::Foe(3));
        assert_eq!(
            pick(Target::Random, &[false, true, false, false], &[1]),
            Pick::Foe(2)
        );
        assert_eq!(
            pick(Target::Random, &[false, true, true, false], &[]),
            Pick::Foe(3)
        );
        assert_eq!(
            pick(Target::Same, &[false, true, true, true], &[]),
            Pick::NoFoeLeft
        );
    }

    #[test]
    fn pair_takes_a_foe_no_ally_fights_while_there_is_one_and_keeps_it() {
        // Issue 66: "add a policy that pairs off (each fighter takes a foe nobody else fights
        // while there is one)". Two knights (places 0 and 1) against three brigands (2, 3, 4).
        let mut members: Vec<Enrolled> = (1..=2)
            .map(|k| Enrolled {
                side: Side::A,
                name: format!("Knight {k}"),
                target: Target::Pair,
            })
            .collect();
        members.extend((1..=3).map(|k| Enrolled {
            side: Side::B,
            name: format!("Brigand {k}"),
            target: Target::Pair,
        }));
        let r = Roster::new(&members, TurnOrder::Sides);
        let mut kept = [usize::MAX; 5];
        let out = [false; 5];
        let mut dice = ScriptedDice::new(vec![]);
        let mut log = VecLog::default();
        let mut pick = |who, out: &[bool], kept: &mut [usize], log: &mut VecLog| {
            r.choose(who, (out, |_| true), |_| 0, kept, (&mut dice, key()), log)
        };
        assert_eq!(pick(0, &out, &mut kept, &mut log), Pick::Foe(2));
        assert_eq!(
            pick(1, &out, &mut kept, &mut log),
            Pick::Foe(3),
            "Brigand 1 is fought"
        );
        assert_eq!(pick(2, &out, &mut kept, &mut log), Pick::Foe(0));
        assert_eq!(pick(3, &out, &mut kept, &mut log), Pick::Foe(1));
        assert_eq!(
            pick(4, &out, &mut kept, &mut log),
            Pick::Foe(0),
            "every knight fought: the first standing"
        );
        assert_eq!(
            pick(1, &out, &mut kept, &mut log),
            Pick::Foe(3),
            "kept while it stands"
        );
        // Brigand 2 falls: Knight 2 turns on the brigand no knight fights.
        let out = [false, false, false, true, false];
        assert_eq!(pick(1, &out, &mut kept, &mut log), Pick::Foe(4));
        crate::log::assert_in_order(
            &log.lines.join("\n"),
            &[
                "Knight 1 picks Brigand 1: a foe no ally fights, kept while it stands of 3 foes standing (target = pair)",
                "Knight 2 picks Brigand 2: a foe no ally fights",
                "Brigand 3 picks Knight 1: every foe fought: the first standing, kept while it stands of 2 foes standing (target = pair)",
                "Knight 2 picks Brigand 2: the foe it keeps to while it stands",
                "Knight 2 picks Brigand 3: a foe no ally fights",
            ],
        );
    }

    #[test]
    fn a_first_pick_under_same_is_the_first_foe_standing_not_one_kept() {
        // Issue 66: "The trace narrates a first pick under `same` as "the foe it keeps to while
        // it stands" before anything was kept: say what happened."
        let r = roster(3, Target::Same, TurnOrder::Sides);
        let mut kept = [usize::MAX; 4];
        let mut log = VecLog::default();
        let mut dice = ScriptedDice::new(vec![]);
        let out = [false; 4];
        assert_eq!(
            r.choose(
                0,
                (&out, |_| true),
                |_| 0,
                &mut kept,
                (&mut dice, key()),
                &mut log
            ),
            Pick::Foe(1)
        );
        assert_eq!(
            log.lines,
            [
                "Knight picks Brigand 1: the first foe standing, kept while it stands of 3 foes standing (target = same)"
            ]
        );
    }

    #[test]
    fn same_keeps_its_foe_while_it_stands_and_the_choice_is_narrated() {
        let r = roster(3, Target::Same, TurnOrder::Sides);
        let mut kept = [usize::MAX, 0, 0, 0];
        kept[0] = 3;
        let mut log = VecLog::default();
        let mut dice = ScriptedDice::new(vec![]);
        let out = [false; 4];
        assert_eq!(
            r.choose(
                0,
                (&out, |_| true),
                |_| 0,
                &mut kept,
                (&mut dice, key()),
                &mut log
            ),
            Pick::Foe(3)
        );
        assert_eq!(
            log.lines,
            [
                "Knight picks Brigand 3: the foe it keeps to while it stands of 3 foes standing (target = same)"
            ]
        );
        let out = [false, false, false, true];
        assert_eq!(
            r.choose(
                0,
                (&out, |_| true),
                |_| 0,
                &mut kept,
                (&mut dice, key()),
                &mut NoLog
            ),
            Pick::Foe(1)
        );
        assert_eq!(kept[0], 1);
    }
    /// A fencer (and, when `squire`, a squire) against three thugs keeping to their foe, with
    /// at most `limit` attackers on one defender.
    fn fencer_and_thugs(squire: bool, thugs: Target, limit: u32) -> Roster {
        let mut members = vec![Enrolled {
            side: Side::A,
            name: "Fencer".into(),
            target: Target::Same,
        }];
        if squire {
            members.push(Enrolled {
                side: Side::A,
                name: "Squire".into(),
                target: Target::Same,
            });
        }
        members.extend((1..=3).map(|k| Enrolled {
            side: Side::B,
            name: format!("Thug {k}"),
            target: thugs,
        }));
        Roster::new(&members, TurnOrder::Sides).with_attacker_limit(limit)
    }

    #[test]
    fn at_most_max_attackers_attack_one_defender_and_the_rest_wait_or_take_another() {
        // Issue 66: "Add an optional limit of attackers on one defender (off by default, which
        // is the texts' reading)". The fencer (0) against three thugs (1, 2, 3), two at most.
        let r = fencer_and_thugs(false, Target::Same, 2);
        let mut kept = [usize::MAX; 4];
        let mut dice = ScriptedDice::new(vec![]);
        let mut log = VecLog::default();
        let open = [true; 4];
        let mut pick = |who, out: &[bool], kept: &mut [usize], log: &mut VecLog| {
            r.choose(
                who,
                (out, |f| open[f]),
                |_| 0,
                kept,
                (&mut dice, key()),
                log,
            )
        };
        let out = [false; 4];
        assert_eq!(pick(1, &out, &mut kept, &mut log), Pick::Foe(0));
        assert_eq!(pick(2, &out, &mut kept, &mut log), Pick::Foe(0));
        assert_eq!(
            pick(3, &out, &mut kept, &mut log),
            Pick::CrowdedOut,
            "a third thug waits"
        );
        assert_eq!(pick(2, &out, &mut kept, &mut log), Pick::Foe(0), "kept");
        // Thug 1 falls: the third takes its place.
        let out = [false, true, false, false];
        assert_eq!(pick(3, &out, &mut kept, &mut log), Pick::Foe(0));
        // A lone foe is taken without a word; the one who waits is told.
        assert_eq!(
            log.lines,
            [
                "Thug 3 attacks no one: every foe standing already faces 2 attackers (max_attackers = 2)"
            ]
        );
        // Off (0): all three on the fencer.
        let r = fencer_and_thugs(false, Target::Same, 0);
        let mut kept = [usize::MAX; 4];
        for thug in 1..=3 {
            let pick = r.choose(
                thug,
                (&[false; 4], |_| true),
                |_| 0,
                &mut kept,
                (&mut dice, key()),
                &mut NoLog,
            );
            assert_eq!(pick, Pick::Foe(0));
        }
    }

    #[test]
    fn a_foe_with_no_room_is_passed_over_by_every_policy() {
        // The fencer (0) and the squire (1) against three thugs (2, 3, 4), two at most on one.
        for policy in [Target::Same, Target::Weakest, Target::Random, Target::Pair] {
            let r = fencer_and_thugs(true, policy, 2);
            // Thugs 1 and 2 already attack the fencer, the most hurt.
            let mut kept = [usize::MAX, usize::MAX, 0, 0, usize::MAX];
            let mut dice = ScriptedDice::new(vec![]);
            let mut log = VecLog::default();
            let hurt = |f: usize| [5, 0, 0, 0, 0][f];
            let out = [false; 5];
            let pick = r.choose(
                4,
                (&out, |_| true),
                hurt,
                &mut kept,
                (&mut dice, key()),
                &mut log,
            );
            assert_eq!(pick, Pick::Foe(1), "{policy:?}: the squire, with room");
            assert!(
                dice.finish().is_ok(),
                "{policy:?}: one foe with room, no die"
            );
            assert!(
                log.lines[0].contains("1 already faces 2 attackers (max_attackers = 2)"),
                "{policy:?}: {:?}",
                log.lines
            );
        }
    }

    #[test]
    fn a_fighter_picks_only_among_foes_within_its_reach() {
        // The ruleset says which foes a fighter can reach (zone-d100: only those in its
        // Engagement Zone while one threatens it); the kept foe out of reach is left.
        let r = roster(3, Target::Same, TurnOrder::Sides);
        let mut kept = [3, usize::MAX, usize::MAX, usize::MAX];
        let mut dice = ScriptedDice::new(vec![]);
        let reach = |f: usize| f == 2;
        let pick = r.choose(
            0,
            (&[false; 4], reach),
            |_| 0,
            &mut kept,
            (&mut dice, key()),
            &mut NoLog,
        );
        assert_eq!(pick, Pick::Foe(2));
        assert_eq!(kept[0], 2);
    }
}
