//! Campaigns: fights in a row, wounds carried, rest between. A party (side `a` of one or several
//! fighters) meets a list of encounters, each a fight of the ruleset against its own foes (side
//! `b`), begun with the wounds the last one left; the days of rest after an encounter run the
//! ruleset's own healing; the dead stay dead. The campaign ends when the party is beaten (every
//! fighter down), turns back (fewer standing than the designer allows), or comes through the
//! last encounter, and then its survivors heal as a fight's survivors do.
//!
//! A ruleset takes part by implementing [`Carried`]: what one fighter carries from a fight
//! ([`Carried::Condition`]), a fight begun from the party's conditions, a rest of some days and
//! the healing timeline to the end. [`Campaign`] is then the same code for every ruleset: its
//! trial counts the campaign in the tally's usual columns (a "win" is coming through, a loss a
//! beaten party, a draw a party that turns back or is held at the round limit of its last
//! fight; the dead, the rounds, the hits and the healing are every fight's) and in columns of
//! its own ([`CampaignColumns`]): each encounter reached, the party standing at its start and
//! end, its deaths and a party beaten in it; how many of the party survive, days of rest and
//! wounds carried at the end.

use crate::dice::Dice;
use crate::log::Log;
use crate::rules::Ruleset;
use crate::rules::roster::MAX_FIGHTERS;
use crate::rules::rounds::in_places;
use crate::stats::{Extra, ExtraKind, Side, Tally, TallyShape};
use std::sync::Mutex;

/// How one encounter's fight ended, in the places of its roster (the party's first, then its
/// foes): the winner (none at the round limit), the rounds fought, and who is out of the fight
/// or dead (dead in the fight or its aftermath, and only those who fought it).
#[derive(Clone, Copy, Debug)]
pub struct Ended {
    /// The side still standing; none when the round limit was reached.
    pub winner: Option<Side>,
    /// Rounds fought.
    pub rounds: u32,
    /// Out of the fight at its end, by place.
    pub out: [bool; MAX_FIGHTERS],
    /// Dead in this fight or its aftermath, by place.
    pub dead: [bool; MAX_FIGHTERS],
}

/// Where a fight's fighters are counted in a campaign's tally: the party's places are the
/// campaign's, the foes' follow every earlier encounter's foes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seats {
    /// The party's fighters, places `0..party` of every fight.
    pub party: usize,
    /// The campaign's place of this fight's first foe.
    pub foe_first: usize,
}

impl Seats {
    /// The seats of a fight that is not part of a campaign: every place its own.
    pub const fn alone(party: usize) -> Seats {
        Seats {
            party,
            foe_first: party,
        }
    }

    /// The campaign's place of the fight's place `i`.
    #[inline]
    pub fn of(self, i: usize) -> usize {
        if i < self.party {
            i
        } else {
            self.foe_first + (i - self.party)
        }
    }
}

/// What a ruleset gives a campaign: a fighter's carried condition, a fight begun from the
/// party's conditions, rest, and the healing that ends a campaign.
pub trait Carried: Ruleset + Sized {
    /// What one fighter carries out of a fight into the next: its wounds, its pools, and how
    /// far its healing has come.
    type Condition: Copy + Default + std::fmt::Debug;

    /// Party fighter `i` before the campaign's first fight: unhurt, its pools full.
    fn fresh(&self, i: usize) -> Self::Condition {
        let _ = i;
        Self::Condition::default()
    }

    /// Fights this point's fight with the party (its first `party.len()` places) in the
    /// conditions `party`, those not `present` (dead before) taking no part and those unable
    /// to fight out from the start; side `b` fresh. Leaves each present party fighter's
    /// condition as the fight and its aftermath left it; counts the hits, and the healing of
    /// the foes who survive, as a fight counts them (foe `i` at `seats.of(i)`).
    fn fight_on<D: Dice, L: Log>(
        &self,
        party: &mut [Self::Condition],
        present: &[bool],
        seats: Seats,
        dice_and_log: (&mut D, &mut L),
        tally: &mut Tally,
    ) -> Ended;

    /// What befalls party fighter `i`'s wounds right after a fight that is not the campaign's
    /// last, whatever the rest after it (wound-levels' deterioration until help arrives). True
    /// when it dies of them. Nothing, by default.
    fn tend<D: Dice, L: Log>(
        &self,
        i: usize,
        condition: &mut Self::Condition,
        dice_and_log: (&mut D, &mut L),
    ) -> bool {
        let _ = (i, condition, dice_and_log);
        false
    }

    /// `days` of rest for party fighter `i`, wounded or not: its healing goes on from where it
    /// stands (nothing to heal when unhurt), and what rest restores is restored. True when it
    /// dies of its wounds.
    fn rest<D: Dice, L: Log>(
        &self,
        i: usize,
        condition: &mut Self::Condition,
        days: u32,
        dice_and_log: (&mut D, &mut L),
    ) -> bool;

    /// Party fighter `i`'s healing timeline from `condition` to its end (whole, dead, or the
    /// horizon), counted as a fight counts its wounded survivors' (side `a`, place `i`). True
    /// when it dies in it.
    fn heal<D: Dice, L: Log>(
        &self,
        i: usize,
        condition: Self::Condition,
        dice_and_log: (&mut D, &mut L),
        tally: &mut Tally,
    ) -> bool;

    /// Who fights on which side, the party's places first.
    fn roster(&self) -> &crate::rules::roster::Roster;

    /// Whether the condition holds any wound.
    fn wounded(condition: &Self::Condition) -> bool;

    /// Whether party fighter `i` in `condition` can fight.
    fn able(&self, i: usize, condition: &Self::Condition) -> bool;
}

/// One encounter of a campaign: its fight (the party against its foes) and the rest after it.
#[derive(Clone, Debug)]
pub struct Encounter<R> {
    /// The fight, the party's fighters first.
    pub fight: R,
    /// What the campaign calls it ("the goblin ambush", or "encounter 2").
    pub name: String,
    /// Days of rest after it (0: straight into the next; 0 after the last).
    pub rest_days: u32,
    /// Where its fighters are counted.
    pub seats: Seats,
}

/// The campaign's own columns, in [`Tally::extra`] from `first` on: per encounter, then for the
/// whole campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CampaignColumns {
    /// The first campaign column in [`Tally::extra`] (after the ruleset's own).
    pub first: usize,
    /// Encounters.
    pub encounters: usize,
    /// The party's fighters.
    pub party: usize,
}

/// Per encounter, in this order: campaigns that reach it, party fighters standing at its start
/// and at its end (summed), party deaths in its fight, campaigns with a death in it, party
/// deaths in the rest after it, campaigns beaten in it.
pub const PER_ENCOUNTER: usize = 7;

impl CampaignColumns {
    /// The column of count `k` (0..[`PER_ENCOUNTER`]) of encounter `e` (from 0).
    #[inline]
    pub fn of(self, e: usize, k: usize) -> usize {
        self.first + e * PER_ENCOUNTER + k
    }

    /// Campaigns that ended with `n` of the party alive.
    #[inline]
    pub fn survivors(self, n: usize) -> usize {
        self.first + self.encounters * PER_ENCOUNTER + n
    }

    /// The columns after the survivors: turned back, days of rest, wounded at the end.
    #[inline]
    fn tail(self) -> usize {
        self.survivors(self.party + 1)
    }

    /// Campaigns where the party turned back.
    pub fn turned_back(self) -> usize {
        self.tail()
    }

    /// Days of rest, summed.
    pub fn rest_days(self) -> usize {
        self.tail() + 1
    }

    /// Party fighters alive and still wounded at the end (before their last healing), summed.
    pub fn wounded_at_end(self) -> usize {
        self.tail() + 2
    }

    /// Fights fought, summed: what the ruleset's own shares of fights are shares of.
    pub fn fights(self) -> usize {
        self.tail() + 3
    }

    /// Fighters of each side in the fights fought (the party's standing at each start, every
    /// encounter's foes), summed: what the ruleset's own shares of a side are shares of.
    pub fn fought(self, side: Side) -> usize {
        self.tail() + 4 + side.index()
    }

    /// Every column: the ruleset's extras, then the campaign's, named for `summary.csv`. The
    /// ruleset's counts per fight are shares of the fights fought (and of the fighters in them),
    /// not of campaigns: a campaign fights several.
    fn extras(self, ruleset: &'static [Extra]) -> &'static [Extra] {
        let mut all: Vec<Extra> = (ruleset.iter())
            .map(|e| Extra {
                name: e.name,
                kind: match e.kind {
                    ExtraKind::ShareOfTrials => ExtraKind::ShareOf(self.fights()),
                    ExtraKind::ShareOfSide(side) => ExtraKind::ShareOf(self.fought(side)),
                    ExtraKind::MeanPerTrial => ExtraKind::MeanOf(self.fights()),
                    other => other,
                },
            })
            .collect();
        for e in 1..=self.encounters {
            let reached = all.len();
            let name = |what: &str| intern(format!("encounter{e}_{what}"));
            all.push(Extra {
                name: name("reached"),
                kind: ExtraKind::ShareOfTrials,
            });
            for (what, kind) in [
                ("standing_start", ExtraKind::MeanOf(reached)),
                ("standing_end", ExtraKind::MeanOf(reached)),
                ("deaths", ExtraKind::MeanOf(reached)),
                ("death", ExtraKind::ShareOfTrials),
                ("rest_deaths", ExtraKind::MeanOf(reached)),
                ("beaten", ExtraKind::ShareOfTrials),
            ] {
                all.push(Extra {
                    name: name(what),
                    kind,
                });
            }
        }
        for n in 0..=self.party {
            all.push(Extra {
                name: intern(format!("survivors{n}")),
                kind: ExtraKind::ShareOfTrials,
            });
        }
        all.push(Extra {
            name: "turned_back",
            kind: ExtraKind::ShareOfTrials,
        });
        all.push(Extra {
            name: "rest_days",
            kind: ExtraKind::MeanPerTrial,
        });
        all.push(Extra {
            name: "wounded_at_end",
            kind: ExtraKind::MeanPerTrial,
        });
        for (name, kind) in [
            ("fights", ExtraKind::MeanPerTrial),
            ("party_fought", ExtraKind::MeanPerTrial),
            ("foes_fought", ExtraKind::MeanPerTrial),
        ] {
            all.push(Extra { name, kind });
        }
        intern_extras(all)
    }
}

/// Names and column lists made once per distinct text and kept for the run: a tally's columns
/// are `'static`, and a sweep of many points of one campaign asks for the same ones again.
static INTERNED: Mutex<Vec<&'static str>> = Mutex::new(Vec::new());
/// Column lists made once per distinct list.
static INTERNED_EXTRAS: Mutex<Vec<&'static [Extra]>> = Mutex::new(Vec::new());

/// `name` as a `'static` string, made once.
pub(crate) fn intern(name: String) -> &'static str {
    let mut kept = INTERNED.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&s) = kept.iter().find(|&&s| s == name) {
        return s;
    }
    let s: &'static str = Box::leak(name.into_boxed_str());
    kept.push(s);
    s
}

/// `extras` as a `'static` list, made once.
fn intern_extras(extras: Vec<Extra>) -> &'static [Extra] {
    let mut kept = INTERNED_EXTRAS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&s) = kept.iter().find(|&&s| s == extras.as_slice()) {
        return s;
    }
    let s: &'static [Extra] = Box::leak(extras.into_boxed_slice());
    kept.push(s);
    s
}

/// What the report and the terminal say of a campaign, whatever its ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outline {
    /// Each encounter's name and the days of rest after it.
    pub encounters: Vec<(String, u32)>,
    /// Each encounter's foes, as its side `b` is named.
    pub foes: Vec<String>,
    /// The party's fighters.
    pub party: usize,
    /// The party turns back before an encounter when fewer than this many stand.
    pub turn_back_below: usize,
    /// The campaign's columns in the tally.
    pub columns: CampaignColumns,
}

/// A campaign of ruleset `R`: its encounters in order and when the party turns back.
#[derive(Clone, Debug)]
pub struct Campaign<R> {
    /// The encounters, in the order they are met.
    pub encounters: Vec<Encounter<R>>,
    /// The party's fighters.
    pub party: usize,
    /// The party turns back before an encounter when fewer than this many stand (1: it goes on
    /// while anyone stands).
    pub turn_back_below: usize,
    /// The party's name, and "their foes" (the encounters' sides `b` together).
    pub names: [String; 2],
    /// Every fighter's name: the party's, then each encounter's foes.
    pub fighter_names: Vec<String>,
    /// The campaign's columns in the tally.
    pub columns: CampaignColumns,
    /// What is said of it.
    pub outline: Outline,
    /// The tally's shape: the ruleset's, with the campaign's sides, rounds and columns.
    shape: TallyShape,
}

/// How a campaign ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Finish {
    /// Every encounter met; the last fight won, or held at its round limit.
    Through(Option<Side>),
    /// Every fighter of the party down.
    Beaten,
    /// Fewer stood than the party goes on with.
    TurnedBack,
}

impl<R: Carried> Campaign<R> {
    /// A campaign of these encounters (each fight's first `party` places the party's, named
    /// `party_names`), the party turning back when fewer than `turn_back_below` stand.
    pub fn new(
        encounters: Vec<Encounter<R>>,
        party_names: &[String],
        names: [String; 2],
        turn_back_below: usize,
        foe_names: Vec<String>,
    ) -> Self {
        let party = party_names.len();
        let first = encounters.first().map(|e| e.fight.shape());
        let ruleset = first.map_or(&[][..], |s| s.extras);
        let columns = CampaignColumns {
            first: ruleset.len(),
            encounters: encounters.len(),
            party,
        };
        let foes = foe_names.len() as u32;
        let rounds: u32 = encounters.iter().map(|e| e.fight.shape().round_limit).sum();
        let shape = TallyShape {
            round_limit: rounds,
            max_damage: first.map_or(0, |s| s.max_damage),
            horizon_days: first.map_or(0, |s| s.horizon_days),
            extras: columns.extras(ruleset),
            sides: [party as u32, foes],
        };
        let mut fighter_names = party_names.to_vec();
        fighter_names.extend(foe_names);
        let outline = Outline {
            encounters: (encounters.iter())
                .map(|e| (e.name.clone(), e.rest_days))
                .collect(),
            foes: (encounters.iter())
                .map(|e| e.fight.roster().side_names[1].clone())
                .collect(),
            party,
            turn_back_below,
            columns,
        };
        Campaign {
            encounters,
            party,
            turn_back_below,
            names,
            fighter_names,
            columns,
            outline,
            shape,
        }
    }

    /// Every fighter's name, the party's first.
    pub fn fighter_names(&self) -> Vec<&str> {
        self.fighter_names.iter().map(String::as_str).collect()
    }

    /// A campaign has no one exchange to tabulate.
    pub fn exact_table(&self, _attacker: Side) -> Result<crate::exact::Table, String> {
        Err("a campaign has no one exchange to tabulate; expected a duel scenario".to_owned())
    }

    /// The party fighters able to fight, of those alive.
    fn standing(&self, fight: &R, party: &[R::Condition], alive: &[bool]) -> usize {
        (0..self.party)
            .filter(|&i| alive[i] && fight.able(i, &party[i]))
            .count()
    }
}

/// Where a campaign stands between encounters: for each party fighter (at least the party's
/// places; a trial sizes them to the party, as a fight does its places, since a condition can
/// be large) its condition, whether it is alive and whether it was out of its last fight.
struct March<'a, C> {
    /// Each party fighter's condition.
    party: &'a mut [C],
    /// Each party fighter alive.
    alive: &'a mut [bool],
    /// Each party fighter out of its last fight.
    out: &'a mut [bool],
    /// The dead of each side, over every encounter and rest.
    dead: [u32; 2],
    /// Rounds fought over every encounter.
    rounds: u32,
    /// Encounters met (fought or turned back from).
    met: usize,
}

impl<R: Carried> Ruleset for Campaign<R> {
    fn shape(&self) -> TallyShape {
        self.shape
    }

    fn trial<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        in_places!(self.party, self.trial_in(dice, log, tally))
    }
}

impl<R: Carried> Campaign<R> {
    /// A campaign's trial with places for `P` party fighters, at least the party's.
    fn trial_in<const P: usize, D: Dice, L: Log>(
        &self,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        let (mut party, mut alive, mut out) = ([R::Condition::default(); P], [true; P], [false; P]);
        let mut m = March {
            party: &mut party,
            alive: &mut alive,
            out: &mut out,
            dead: [0; 2],
            rounds: 0,
            met: 0,
        };
        if let Some(first) = self.encounters.first() {
            for (i, c) in m.party.iter_mut().enumerate().take(self.party) {
                *c = first.fight.fresh(i);
            }
        }
        let mut finish = Finish::Through(None);
        for (e, encounter) in self.encounters.iter().enumerate() {
            if e > 0 {
                dice.next_encounter();
            }
            m.met = e + 1;
            match self.encounter(e, encounter, &mut m, (dice, log), tally) {
                Some(end) => {
                    finish = end;
                    break;
                }
                None if e + 1 == self.encounters.len() => {}
                None => self.rest_after(e, encounter, &mut m, (dice, log), tally),
            }
            if m.alive[..self.party].iter().all(|&a| !a) {
                finish = Finish::Beaten;
                break;
            }
        }
        self.finish(finish, &m, (dice, log), tally);
    }
}

impl<R: Carried> Campaign<R> {
    /// Encounter `e`: the party's standing checked, its fight fought and counted. How the
    /// campaign ends there, or `None` when it goes on (a fight won, or held at the round limit).
    fn encounter<D: Dice, L: Log>(
        &self,
        e: usize,
        encounter: &Encounter<R>,
        m: &mut March<'_, R::Condition>,
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) -> Option<Finish> {
        let p = self.party;
        let c = self.columns;
        let standing = self.standing(&encounter.fight, m.party, m.alive);
        if standing == 0 {
            // Every fighter alive is down after the rest (a wound worse for the days): the
            // party was beaten there, in the rest after the encounter before.
            log.say(|| format!("no one of the party can fight before {}", encounter.name));
            tally.record_extra(c.of(e.saturating_sub(1), 6), 1);
            return Some(Finish::Beaten);
        }
        if standing < self.turn_back_below {
            log.say(|| {
                format!(
                    "{} of the party stand before {}, fewer than {}: the party turns back",
                    standing, encounter.name, self.turn_back_below
                )
            });
            return Some(Finish::TurnedBack);
        }
        log.say(|| {
            format!(
                "encounter {} of {}, {}: {} of the party stand against {}",
                e + 1,
                self.encounters.len(),
                encounter.name,
                standing,
                self.outline.foes[e]
            )
        });
        tally.record_extras(c.of(e, 0), [1, standing as u64]);
        let foes = encounter.fight.shape().sides[1] as usize;
        tally.record_extras(c.fights(), [1, standing as u64, foes as u64]);
        let ended = encounter.fight.fight_on(
            &mut m.party[..p],
            &m.alive[..p],
            encounter.seats,
            (dice, log),
            tally,
        );
        m.rounds += ended.rounds;
        let mut deaths = 0;
        for i in 0..p {
            if m.alive[i] {
                m.out[i] = ended.out[i];
                deaths += u32::from(ended.dead[i]);
                m.alive[i] &= !ended.dead[i];
            }
        }
        for j in p..p + foes {
            let seat = encounter.seats.of(j);
            tally.record_fighter(seat, ended.out[j], ended.dead[j]);
            m.dead[1] += u32::from(ended.dead[j]);
        }
        m.dead[0] += deaths;
        let standing_end = (0..p).filter(|&i| m.alive[i] && !m.out[i]).count();
        let wiped = m.alive[..p].iter().all(|&a| !a);
        tally.record_extras(
            c.of(e, 2),
            [
                standing_end as u64,
                u64::from(deaths),
                u64::from(deaths > 0),
            ],
        );
        match ended.winner {
            // Beaten: by the foes, or dead to the last in the fight's end (an Aftermath that
            // kills the winners).
            _ if wiped => {
                tally.record_extra(c.of(e, 6), 1);
                Some(Finish::Beaten)
            }
            Some(Side::B) => {
                tally.record_extra(c.of(e, 6), 1);
                Some(Finish::Beaten)
            }
            winner if e + 1 == self.encounters.len() => Some(Finish::Through(winner)),
            _ => None,
        }
    }

    /// The rest after encounter `e`: each living party fighter's healing for its days.
    fn rest_after<D: Dice, L: Log>(
        &self,
        e: usize,
        encounter: &Encounter<R>,
        m: &mut March<'_, R::Condition>,
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) {
        let days = encounter.rest_days;
        tally.record_extra(self.columns.rest_days(), u64::from(days));
        if days == 0 {
            log.say(|| "straight on, with no rest".to_owned());
        } else {
            log.say(|| format!("the party rests {days} days"));
        }
        let mut deaths = 0;
        for i in 0..self.party {
            if !m.alive[i] {
                continue;
            }
            // The wounded are tended whatever the rest; everyone rests (a pool refills for the
            // unhurt too), each ruleset healing only the wounded.
            let fight = &encounter.fight;
            let mut died = R::wounded(&m.party[i]) && fight.tend(i, &mut m.party[i], (dice, log));
            if !died && days > 0 {
                died = fight.rest(i, &mut m.party[i], days, (dice, log));
            }
            m.alive[i] = !died;
            deaths += u32::from(died);
        }
        m.dead[0] += deaths;
        tally.record_extra(self.columns.of(e, 5), u64::from(deaths));
        if deaths > 0 && m.alive[..self.party].iter().all(|&a| !a) {
            tally.record_extra(self.columns.of(e, 6), 1);
        }
    }

    /// The campaign's end counted: how it ended, the party's dead and survivors, and the
    /// healing of every wounded survivor.
    fn finish<D: Dice, L: Log>(
        &self,
        finish: Finish,
        m: &March<'_, R::Condition>,
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) {
        let c = self.columns;
        let winner = match finish {
            Finish::Through(winner) => winner,
            Finish::Beaten => Some(Side::B),
            Finish::TurnedBack => {
                tally.record_extra(c.turned_back(), 1);
                None
            }
        };
        let rounds = m.rounds.min(self.shape.round_limit);
        tally.record_duel(&crate::stats::DuelOutcome {
            winner,
            rounds,
            dead: m.dead,
        });
        let (mut alive, mut wounded) = (0, 0);
        for i in 0..self.party {
            tally.record_fighter(i, m.out[i], !m.alive[i]);
            alive += usize::from(m.alive[i]);
            wounded += u64::from(m.alive[i] && R::wounded(&m.party[i]));
        }
        tally.record_extra(c.wounded_at_end(), wounded);
        log.say(|| {
            format!(
                "the campaign ends: {alive} of the party of {} alive, {wounded} of them wounded",
                self.party
            )
        });
        // The survivors are those who live through their last healing too; a death there is
        // one of the rest after the last encounter the party met.
        let mut survivors = alive;
        if let Some(last) = self.encounters.get(m.met.saturating_sub(1)) {
            for i in 0..self.party {
                if m.alive[i] && R::wounded(&m.party[i]) {
                    survivors -= usize::from(last.fight.heal(i, m.party[i], (dice, log), tally));
                }
            }
        }
        let died_healing = (alive - survivors) as u64;
        tally.record_extra(c.of(m.met.saturating_sub(1), 5), died_healing);
        tally.record_extra(c.survivors(survivors), 1);
    }
}

/// Test support: `model`'s fight from the party's conditions `party` (all present), on
/// scripted dice, alone (`Seats::alone`): how it ended and its story. The party's conditions
/// are left as the fight left them.
#[cfg(test)]
pub(crate) fn fight_scripted<R: Carried>(
    model: &R,
    party: &mut [R::Condition],
    mut dice: crate::dice::ScriptedDice,
) -> (Ended, String) {
    let mut log = crate::log::VecLog::default();
    let mut tally = Tally::new(model.shape());
    let present = [true; MAX_FIGHTERS];
    let ended = model.fight_on(
        party,
        &present[..party.len()],
        Seats::alone(party.len()),
        (&mut dice, &mut log),
        &mut tally,
    );
    (ended, log.lines.join("\n"))
}
