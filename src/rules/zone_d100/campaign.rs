//! zone-d100 in a campaign: a fighter carries its injury record from one fight into the next,
//! with the healing sequence where its rests left it (`Course`): each treated injury on its
//! Healing Roll clock at its Healing Rate, Blood Loss Points and their regeneration, an
//! infection, a coma, the permanent impairment of the injuries healed. A rest runs the healing
//! sequence for its days from the fight before it (the new injuries bleed, shock plays out and
//! they are treated, while the old ones heal on) and pauses at its last day; the next fight
//! begins with every injury at the level its healing reached, impairing as INJURY EFFECT and
//! step 8 say (a Minor one only at HR5 or less), and a fighter in a coma sits it out. The
//! healing after the last encounter goes on to the horizon.

use super::healing::{self, Coma, Healing, MAX, Outcome, Timeline, infection_weakness};
use super::impairment::zone_slot;
use super::injury::{Class, Injuries, Injury, Severity, ShockState};
use super::melee::State;
use super::tally::record_healing_of;
use super::{Purpose, ZoneD100, location_shock};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::campaign::{Carried, Ended, Seats};
use crate::rules::roster::MAX_FIGHTERS;
use crate::stats::{Side, Tally};

/// A fighter's healing sequence carried between a campaign's fights: where the rests left it.
#[derive(Clone, Copy, Debug)]
pub struct Course {
    /// The campaign's day now: of the last fight, or the end of the last rest.
    pub(super) day: u32,
    /// Each injury's healing, by its index in the record: its Healing Roll clock once treated;
    /// before, only the day it was incurred (`born`).
    pub(super) wounds: [Healing; MAX],
    /// The injuries (as bits) whose record `wounds` holds, each known by its `order`.
    pub(super) known: u32,
    /// The injuries (as bits) treated (steps 4 and 5): on the Healing Roll clock.
    pub(super) treated: u32,
    /// Each known injury's [`super::injury::Injury::order`]: an injury that took another's
    /// place in a full record is a new one.
    pub(super) orders: [u16; MAX],
    /// Which injuries' bleeding Cauterisation stopped.
    pub(super) cauterised: [bool; MAX],
    /// Blood Loss Points not regenerated yet, the day of the next regeneration roll, and
    /// whether a CF skips it.
    pub(super) blood: (u32, u32, bool),
    /// A coma on its Course Rolls.
    pub(super) coma: Option<Coma>,
    /// An infection: its HR and the healer's bonus.
    pub(super) infection: Option<(i32, i32)>,
    /// The best healer's bonus to Extended Shock Course Rolls (one test per patient).
    pub(super) extended_bonus: Option<i32>,
    /// The day of a treatment a rest ended before (its injuries wait for it): the next rest
    /// treats them then, with the next fight's, not later.
    pub(super) treatment_due: Option<u32>,
    /// What the healing has come to so far: ever infected, a coma and its days, the permanent
    /// impairment of the injuries healed, by zone.
    pub(super) out: Outcome,
    /// The permanent impairment of the injuries healed, by [`State::by_zone`]'s zones (an arm
    /// its own): what the next fight's tests bear.
    pub(super) lasting: [i32; 5],
    /// A rest has run this fighter's healing: the healing after the campaign goes on from it
    /// (else it is a fight's own healing sequence, from the fight).
    pub(super) begun: bool,
}

impl Default for Course {
    fn default() -> Self {
        Course {
            day: 0,
            wounds: [Healing::default(); MAX],
            known: 0,
            treated: 0,
            orders: [0; MAX],
            cauterised: [false; MAX],
            blood: (0, 0, false),
            coma: None,
            infection: None,
            extended_bonus: None,
            treatment_due: None,
            out: Outcome::default(),
            lasting: [0; 5],
            begun: false,
        }
    }
}

/// What a zone-d100 fighter carries between fights: its state as the last fight (and the
/// rests since) left it, and its healing sequence.
#[derive(Clone, Copy, Debug, Default)]
pub struct Condition {
    /// The injury record (each injury at the level its healing reached), and the shock state
    /// the last fight left while no rest has followed it.
    pub state: State,
    /// The healing sequence so far.
    pub course: Course,
}

impl Condition {
    /// The state the fighter begins its next fight in: what it carries (its injuries and what
    /// they impair, its weakness, a shock state it cannot shake off in a moment: INC, UNC,
    /// Extended Shock, a coma; death) and nothing of the last fight's footing: standing, its
    /// weapon and shield in hand, its morale whole (a routed fighter rallies), no Setup TA,
    /// nothing loaded or aimed, its counts at nought. A STN wears off, as it does after a
    /// fight (the healing assumptions).
    pub(super) fn ready(&self) -> State {
        let s = &self.state;
        let shock = if s.shock == ShockState::Stunned {
            ShockState::None
        } else {
            s.shock
        };
        State {
            injuries: s.injuries,
            shock,
            reroll_due: s.reroll_due && shock >= ShockState::Incapacitated,
            extended_shock: s.extended_shock,
            coma: s.coma,
            last_shock: s.last_shock,
            weakness: s.weakness,
            by_zone: s.by_zone,
            dead: s.dead,
            ..State::default()
        }
    }

    /// Anything for the healing sequence: an injury, a shock state to settle, Blood Loss
    /// Points, an infection or a coma.
    fn has_healing_to_do(&self) -> bool {
        let s = &self.state;
        s.needs_healing()
            || s.coma
            || self.course.blood.0 > 0
            || self.course.infection.is_some()
            || self.course.coma.is_some()
    }
}

/// The zone of [`State::by_zone`] whose tests an injury's permanent impairment weighs on: its
/// location's (an arm its side's), the head's for an Area injury (step 8 counts it "like the
/// head's").
fn lasting_slot(injury: &Injury) -> usize {
    if injury.class == Class::Area {
        0
    } else {
        zone_slot(injury)
    }
}

impl ZoneD100 {
    /// Party fighter `i`'s healing sequence from its last fight (on the campaign's day
    /// `course.day`) for `days`, or to the horizon (`None`: the campaign is over). A rest's
    /// end leaves each injury at its level, the healed ones gone (their permanent impairment
    /// kept) and the state fresh for a fight. True when the fighter dies.
    fn follow<D: Dice, L: Log>(
        &self,
        i: usize,
        c: &mut Condition,
        days: Option<u32>,
        (dice, log): (&mut D, &mut L),
    ) -> bool {
        let course = &mut c.course;
        let since = course.day;
        let n = c.state.injuries.len();
        let untreated = Self::reconcile(course, &c.state.injuries, since);
        let (bp, next_blood, blood_skip) = course.blood;
        let care = &self.care;
        let last = days.is_none();
        let stop = since + days.unwrap_or(self.horizon_days);
        if last {
            course.out.recovery = Default::default();
            course.out.cause = None;
        }
        let state = c.state;
        let shock_of = |k: usize| (state.injuries.get(k)).map_or(0, |x| location_shock(x.location));
        let mut wounds = course.wounds;
        let mut t = Timeline {
            care,
            patient: &self.patients[i],
            injuries: &state.injuries,
            location_shock: shock_of,
            dice,
            log,
            out: &mut course.out,
            day: since,
            bp,
            next_blood,
            blood_skip,
            shock: state.shock,
            induced: (i32::from(state.last_shock.0), i32::from(state.last_shock.1)),
            cauterised: course.cauterised,
            extended_bonus: course.extended_bonus,
            coma: course.coma,
            infection: course.infection,
            extended: None,
            healer_from: care.help_minutes.filter(|_| care.has_healer()),
            since,
            stop,
            last,
            untreated,
        };
        let due = course.treatment_due;
        let mut treated_on = since;
        let ran = t.first_aid(&state).and_then(|day| {
            // Nothing to treat: the treatment day is the fight's (whole as soon as healed).
            if untreated != 0 {
                treated_on = due.map_or(day, |due| due.min(day));
            }
            t.heal_until_whole(&mut wounds[..n], treated_on)
        });
        let (blood, coma, infection) = ((t.bp, t.next_blood, t.blood_skip), t.coma, t.infection);
        let (cauterised, extended_bonus) = (t.cauterised, t.extended_bonus);
        course.blood = blood;
        course.coma = coma;
        course.infection = infection;
        course.cauterised = cauterised;
        course.extended_bonus = extended_bonus;
        course.wounds = wounds;
        course.begun = true;
        course.day = stop;
        let treated = match ran {
            Err(_) => return true,
            Ok(treated) => treated,
        };
        if treated {
            course.treated |= untreated;
        }
        course.treatment_due = (!treated).then_some(treated_on);
        if !last {
            c.state = self.after_the_rest(course, &state.injuries, stop);
        }
        false
    }

    /// Lines the carried healing up with the injury record a fight left: an injury it knows
    /// keeps its healing (at the injury's level, should a compound have raised it); a new one
    /// was incurred on the fight's day `since`. The injuries to be treated, as bits.
    fn reconcile(course: &mut Course, injuries: &Injuries, since: u32) -> u32 {
        let mut untreated = 0;
        for (k, injury) in injuries.iter().enumerate() {
            let bit = 1u32 << k;
            let known = course.known & bit != 0 && course.orders[k] == injury.order;
            if !known {
                course.wounds[k] = Healing {
                    born: since,
                    ..Healing::default()
                };
                course.treated &= !bit;
                course.cauterised[k] = false;
                course.orders[k] = injury.order;
                course.known |= bit;
            }
            if course.treated & bit == 0 {
                untreated |= bit;
                continue;
            }
            let w = &mut course.wounds[k];
            if i32::from(injury.il) > w.il {
                w.il = i32::from(injury.il);
                w.live = true;
            }
        }
        untreated
    }

    /// The fighter's state for its next fight after a rest ending on `day`: the injuries not
    /// healed, each at its healing's level, bleeding no more (the rest saw it stopped), a
    /// Minor one impairing only at HR5 or less once treated (step 8, "the 5 impairment exists
    /// only if the injury's HR is 5 or less") and always untreated ("only un- or ill-treated
    /// Minor injuries carry this impairment"); permanent impairment on the zones ("Permanent
    /// impairment affects Impaired tests and Move just like indefinite impairment"), see
    /// [`ZoneD100::lasting_impairment`]; weakness fatigue from anaemia (5 a Blood Loss Point,
    /// "until the blood naturally regenerates") and an infection.
    fn after_the_rest(&self, course: &mut Course, injuries: &Injuries, day: u32) -> State {
        let mut kept = Injuries::default();
        let mut carried = Course {
            wounds: [Healing::default(); MAX],
            known: 0,
            treated: 0,
            orders: [0; MAX],
            cauterised: [false; MAX],
            ..*course
        };
        for (k, injury) in injuries.iter().enumerate() {
            let mut w = course.wounds[k];
            let treated = course.treated >> k & 1 != 0;
            let healed = treated && !w.live;
            if healed && w.lasting {
                let zone = usize::from(w.zone);
                let permanent = w.permanent_impairment(day);
                carried.out.permanent[zone] = carried.out.permanent[zone].max(permanent);
                let slot = lasting_slot(injury);
                carried.lasting[slot] = carried.lasting[slot].max(permanent);
            }
            if healed && !injury.severed {
                continue;
            }
            let mut injury = *injury;
            injury.bleeder = false;
            if healed {
                // A severed location is lost for good: its stump healed, the location stays
                // Grievous (unusable), and its healing is over.
                w.il = i32::from(injury.il);
            } else if treated {
                injury.il = w.il.clamp(1, 5) as u8;
                injury.impairs = w.hr <= 5;
            } else {
                injury.impairs = true;
            }
            let at = kept.add(injury);
            let bit = 1u32 << at;
            carried.wounds[at] = w;
            carried.cauterised[at] = course.cauterised[k];
            carried.orders[at] = kept.get(at).map_or(0, |x| x.order);
            carried.known |= bit;
            if treated {
                carried.treated |= bit;
            }
        }
        *course = carried;
        let mut state = State {
            injuries: kept,
            weakness: 5 * course.blood.0 as i32
                + course.infection.map_or(0, |(hr, _)| infection_weakness(hr)),
            ..State::default()
        };
        state.summarise();
        self.lasting_impairment(&mut state, course, day);
        state
    }

    /// Each zone's permanent impairment beyond what its carried injuries impair already, into
    /// [`super::melee::ZoneInjuries::lasting`]: the injuries healed in rests weigh theirs in
    /// full (the highest of the zone's, as step 8 reports it); an injury still healing has
    /// accrued some by the days it has taken so far ("the right arm zone accrues 5 permanent
    /// impairment because its recovery has so far taken 20 days"), of which and its own
    /// indefinite impairment "only the higher of the two applies at a given moment for the
    /// same injury" ("The usual 5 indefinite impairment of a Minor injury with a HR5 or less
    /// is subsumed in the 5 permanent penalty"). A Grievous injury's zone is unusable
    /// whatever it has accrued.
    fn lasting_impairment(&self, state: &mut State, course: &Course, day: u32) {
        let rules = &self.melee.rules;
        let mut lasting = course.lasting;
        for (k, injury) in state.injuries.iter().enumerate() {
            let w = &course.wounds[k];
            if course.treated >> k & 1 == 0 || !w.lasting || !w.live {
                continue;
            }
            let indefinite = match injury.severity() {
                Severity::Minor => rules.minor_impairment * i32::from(injury.impairs),
                Severity::Serious => rules.serious_impairment,
                Severity::Grievous => continue,
            };
            let slot = lasting_slot(injury);
            lasting[slot] += (w.permanent_impairment(day) - indefinite).max(0);
        }
        for (zone, lasting) in state.by_zone.iter_mut().zip(lasting) {
            zone.lasting = lasting;
        }
    }

    /// [`Carried::fight_on`]: the party's states as they stand, fresh foes, in a duel when the
    /// encounter is one against one.
    fn fight_from_conditions<D: Dice, L: Log>(
        &self,
        party: &mut [Condition],
        present: &[bool],
        seats: Seats,
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) -> Ended {
        let mut sitting_out = [false; MAX_FIGHTERS];
        for (k, c) in party.iter().enumerate() {
            sitting_out[k] = !present[k] || !self.able(k, c);
        }
        if self.roster.is_duel() {
            self.duel_on(&mut party[0], seats, (dice, log), tally)
        } else {
            let out = &sitting_out[..party.len()];
            self.fight_several_from(party, out, seats, (dice, log), tally)
        }
    }

    /// A campaign's duel: the party's one fighter, [`Condition::ready`], against a fresh foe,
    /// healed after it if it survives (counted at its seat).
    fn duel_on<D: Dice, L: Log>(
        &self,
        c: &mut Condition,
        seats: Seats,
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) -> Ended {
        let mut states = [c.ready(), State::default()];
        self.melee.summarise(0, &mut states[0]);
        let (winner, rounds) = self.duel_from(&mut states, dice, log, tally);
        c.state = states[0];
        let mut ended = Ended {
            winner,
            rounds,
            out: [false; MAX_FIGHTERS],
            dead: [false; MAX_FIGHTERS],
        };
        for (k, s) in states.iter().enumerate() {
            ended.out[k] = !s.can_act();
            ended.dead[k] = s.dead;
        }
        let foe = &states[1];
        if foe.needs_healing() {
            log.say(|| format!("{} after the fight", self.names[1]));
            let mut out = healing::Outcome::default();
            self.heal_after_the_fight(1, foe, (dice, log), &mut out);
            record_healing_of(tally, seats.of(1), Side::B, &out);
        }
        ended
    }
}

impl Carried for ZoneD100 {
    type Condition = Condition;

    fn fight_on<D: Dice, L: Log>(
        &self,
        party: &mut [Condition],
        present: &[bool],
        seats: Seats,
        dice_and_log: (&mut D, &mut L),
        tally: &mut Tally,
    ) -> Ended {
        self.fight_from_conditions(party, present, seats, dice_and_log, tally)
    }

    fn rest<D: Dice, L: Log>(
        &self,
        i: usize,
        c: &mut Condition,
        days: u32,
        (dice, log): (&mut D, &mut L),
    ) -> bool {
        if !c.has_healing_to_do() {
            c.course.day += days;
            let (injuries, day) = (c.state.injuries, c.course.day);
            c.state = self.after_the_rest(&mut c.course, &injuries, day);
            return false;
        }
        dice.stream(Stream::new(Purpose::Healing, i, 0));
        log.say(|| format!("{} rests {days} days", self.roster.fighter_names[i]));
        self.follow(i, c, Some(days), (dice, log))
    }

    fn heal<D: Dice, L: Log>(
        &self,
        i: usize,
        mut c: Condition,
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) -> bool {
        log.say(|| format!("{} after the fight", self.roster.fighter_names[i]));
        if !c.course.begun {
            // No rest has begun its healing: a fight's own healing sequence, from the fight.
            let mut out = healing::Outcome::default();
            self.heal_after_the_fight(i, &c.state, (dice, log), &mut out);
            record_healing_of(tally, i, Side::A, &out);
            return out.recovery.died;
        }
        dice.stream(Stream::new(Purpose::Healing, i, 0));
        let died = self.follow(i, &mut c, None, (dice, log));
        record_healing_of(tally, i, Side::A, &c.course.out);
        died
    }

    fn roster(&self) -> &crate::rules::roster::Roster {
        &self.roster
    }

    fn wounded(c: &Condition) -> bool {
        c.has_healing_to_do()
    }

    fn able(&self, _i: usize, c: &Condition) -> bool {
        let s = c.ready();
        !s.dead && c.course.coma.is_none() && !s.coma && s.can_act() && s.extended_shock.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::log::assert_in_order as in_order;
    use crate::rules::campaign::fight_scripted;
    use crate::rules::zone_d100::body::Location;
    use crate::rules::zone_d100::healing::{Care, Healers, Patient};
    use crate::rules::zone_d100::injury::{Aspect, Injury};
    use crate::rules::zone_d100::shipped_duel;

    /// The shipped duel: the Spearman acts first (Initiative), so the first two dice are its
    /// attack and the Swordsman's (the party's) Block.
    fn duel() -> ZoneD100 {
        shipped_duel("broadsword-vs-spear")
    }

    fn carrying(injuries: &[Injury]) -> Condition {
        let mut c = Condition::default();
        for &x in injuries {
            c.state.injuries.add(x);
        }
        c
    }

    /// The party's first Block: "Swordsman Block 87 vs EML<n>".
    fn first_block(c: Condition) -> String {
        let (_, story) = fight_scripted(&duel(), &mut [c], ScriptedDice::new(vec![64, 87]));
        let at = story.find("Swordsman Block").unwrap_or(0);
        story[at..].split(':').next().unwrap_or_default().to_owned()
    }

    #[test]
    fn a_fighter_who_begins_wounded_bears_the_injurys_impairment_on_its_tests() {
        // INJURY EFFECT: "S Associated actions suffer 10 impairment"; an abdomen injury is the
        // torso's, which every Melee and Dodge test uses. Fresh, the Block is against EML65.
        assert_eq!(
            first_block(Condition::default()),
            "Swordsman Block 87 vs EML65"
        );
        let serious = carrying(&[Injury::new(Location::Abdomen, Aspect::Edge, 2)]);
        assert_eq!(first_block(serious), "Swordsman Block 87 vs EML55");
        // A Grievous one makes the zone unusable: the test "automatically achieves a CF".
        let grievous = carrying(&[Injury::new(Location::Abdomen, Aspect::Edge, 4)]);
        let (_, story) = fight_scripted(&duel(), &mut [grievous], ScriptedDice::new(vec![64]));
        assert!(
            story.contains("Swordsman Block") && story.contains("CF"),
            "{story}"
        );
    }

    #[test]
    fn weakness_fatigue_and_permanent_impairment_carried_weigh_on_the_next_fights_tests() {
        // "The character suffers 5 weakness fatigue per BP from anaemia. This remains until the
        // blood naturally regenerates"; "Combatants suffer fatigue and applicable impairment
        // as a penalty": two Blood Loss Points, 10 off the Block.
        let mut anaemic = Condition::default();
        anaemic.state.weakness = 10;
        assert_eq!(first_block(anaemic), "Swordsman Block 87 vs EML55");
        // "Permanent impairment affects Impaired tests and Move just like indefinite
        // impairment": 5 on the torso, 5 off the Block.
        let mut scarred = Condition::default();
        scarred.state.by_zone[super::super::impairment::TORSO].lasting = 5;
        assert_eq!(first_block(scarred), "Swordsman Block 87 vs EML60");
    }

    /// The healing example's patient and healer (HB13, a Physician ML50 five minutes away).
    fn patient_model() -> ZoneD100 {
        let mut model = duel();
        model.care = Care {
            healers: Healers::of([50, 0, 0, 0]),
            help_minutes: Some(5),
            ..model.care
        };
        model.patients[0] = Patient {
            healing_base: 13,
            strength_ml: 60,
            endurance_ml: 60,
            shock_ml: 65,
            fatigue: 0,
        };
        model
    }

    fn rest(model: &ZoneD100, c: &mut Condition, days: u32, dice: &mut ScriptedDice) -> String {
        let mut log = VecLog::default();
        let died = model.rest(0, c, days, (dice, &mut log));
        assert!(!died, "{:?}", log.lines);
        log.lines.join("\n")
    }

    #[test]
    fn rests_run_the_healing_sequence_for_their_days_and_the_next_goes_on_where_it_stopped() {
        // The text's Treatment and Healing-Infection examples (S2E abdomen, HB13, Physician
        // ML50), a rest of 12 days and then one of 20, with a fight between: the same rolls on
        // the same days as the one timeline ("whole after 21 days"), and between the rests
        // the injury is at the level its healing reached.
        let model = patient_model();
        let mut c = carrying(&[Injury::new(Location::Abdomen, Aspect::Edge, 2)]);
        let mut dice = ScriptedDice::new(vec![71, 62, 24, 95, 99, 42, 42]);
        let first = rest(&model, &mut c, 12, &mut dice);
        in_order(
            &first,
            &[
                "Treatment Roll 71 vs EML60: F",
                "day 5: Healing Roll 62 vs EML52: F: IL2",
                "day 10: Healing Roll 24 vs EML52: S: IL1",
            ],
        );
        assert!(!first.contains("day 15"), "{first}");
        // Healed to M1 at HR4: it still impairs ("the 5 impairment exists only if the
        // injury's HR is 5 or less").
        let injury = c.state.injuries.get(0).copied();
        assert_eq!(injury.map(|x| (x.il, x.impairs)), Some((1, true)));
        assert_eq!(c.course.day, 12);
        let second = rest(&model, &mut c, 20, &mut dice);
        in_order(
            &second,
            &[
                "day 15: Healing Roll 95 vs EML52: CF: IL1",
                "day 15: the injury is infected",
                "day 16: Infection Course Roll 42 vs EML65: S: HR6",
                "day 21: Healing Roll 42 vs EML52: S: IL0",
            ],
        );
        assert!(!second.contains("Treatment Roll"), "treated once: {second}");
        assert!(
            c.state.injuries.is_empty(),
            "healed: {:?}",
            c.state.injuries
        );
        assert!(c.course.out.infected);
    }

    #[test]
    fn a_new_injury_is_treated_in_the_rest_after_its_fight_while_an_old_one_heals_on() {
        // The old S2 (treated, HR4, its next Healing Roll on day 15) and a new S2 from a fight
        // on day 12: the rest treats only the new one, with no delay penalty (treated the day
        // of its fight), and its first Healing Roll is five days after its fight (day 17).
        let model = patient_model();
        let mut c = carrying(&[Injury::new(Location::Abdomen, Aspect::Edge, 2)]);
        let mut dice = ScriptedDice::new(vec![71, 62, 88]);
        rest(&model, &mut c, 12, &mut dice);
        let new = Injury::new(Location::Thigh, Aspect::Edge, 2);
        c.state.injuries.add(new);
        // The abdomen is S2 still (62 F on day 5, 88 F on day 10). The thigh: Edge S,
        // Treatment Roll 71 vs EML60 as the abdomen's was (F: HR4); day 15 the abdomen's roll,
        // day 17 the thigh's.
        let mut dice = ScriptedDice::new(vec![71, 62, 62]);
        let story = rest(&model, &mut c, 5, &mut dice);
        in_order(
            &story,
            &[
                "treating thigh IL2",
                "Treatment Roll 71 vs EML60: F",
                "day 15: Healing Roll 62 vs EML52: F: IL2",
                "day 17: Healing Roll 62 vs EML52: F: IL2",
            ],
        );
        assert_eq!(story.matches("Treatment Roll").count(), 1, "{story}");
        assert_eq!(c.state.injuries.len(), 2);
    }

    #[test]
    fn after_a_rest_blood_not_regenerated_weakens_and_a_healed_injury_leaves_its_permanent_impairment()
     {
        // Two Blood Loss Points, the regeneration roll due on day 10: a rest of one day leaves
        // them, "5 weakness fatigue per BP from anaemia".
        let model = patient_model();
        let mut c = carrying(&[Injury::new(Location::Abdomen, Aspect::Edge, 2)]);
        c.course.blood = (2, 10, false);
        let mut dice = ScriptedDice::new(vec![71]);
        rest(&model, &mut c, 1, &mut dice);
        assert_eq!(c.state.weakness, 10);
        // "for every 20 days it takes the injury to heal to a Minor injury, the location's
        // zone accrues 5 permanent impairment": a right shoulder wound 45 days to Minor,
        // healed by day 60, leaves 10 on the right arm, which the next fight's tests bear.
        let shoulder = Injury::new(Location::Shoulder, Aspect::Edge, 4);
        let mut injuries = Injuries::default();
        injuries.add(shoulder);
        let mut course = Course {
            known: 1,
            treated: 1,
            ..Course::default()
        };
        course.wounds[0] = Healing {
            lasting: true,
            live: false,
            born: 0,
            minor_day: 45,
            zone: 2,
            ..Healing::default()
        };
        let state = duel().after_the_rest(&mut course, &injuries, 60);
        assert!(state.injuries.is_empty());
        assert_eq!(course.out.permanent, [0, 0, 10, 0]);
        assert_eq!(state.by_zone[zone_slot(&shoulder)].lasting, 10);
        assert_eq!(state.by_zone.iter().map(|z| z.lasting).sum::<i32>(), 10);
    }

    /// A right shoulder wound treated on day 0 at `hr`, `il` after `day` days, Minor since
    /// `minor_day`: the state after a rest ending on `day`.
    fn shoulder_after(il: i32, hr: i32, minor_day: u32, day: u32) -> State {
        let mut injuries = Injuries::default();
        injuries.add(Injury::new(Location::Shoulder, Aspect::Edge, 4));
        let mut course = Course {
            known: 1,
            treated: 1,
            ..Course::default()
        };
        course.wounds[0] = Healing {
            il,
            hr,
            lasting: true,
            live: true,
            minor_day,
            zone: 2,
            ..Healing::default()
        };
        duel().after_the_rest(&mut course, &injuries, day)
    }

    #[test]
    fn a_wound_still_healing_bears_the_higher_of_its_indefinite_and_its_permanent_impairment() {
        // The text's impairment example (G4E shoulder, HR3): "It then takes one more healing
        // roll to lessen it to an S2 injury (20 days total) ... the right arm zone accrues 5
        // permanent impairment": the Serious injury's 10 is the higher.
        let arm = zone_slot(&Injury::new(Location::Shoulder, Aspect::Edge, 4));
        let impairment = |s: &State| {
            let z = s.by_zone[arm];
            z.minor * 5 + z.serious * 10 + z.lasting
        };
        assert_eq!(impairment(&shoulder_after(2, 3, u32::MAX, 20)), 10);
        // "The 5 permanent impairment to the right arm zone remains because it took 25 days
        // to heal to a Minor injury. The usual 5 indefinite impairment of a Minor injury with
        // a HR5 or less is subsumed in the 5 permanent penalty": 5, not 10.
        assert_eq!(impairment(&shoulder_after(1, 3, 25, 27)), 5);
        // At HR6 the Minor injury imparts none, and its 5 permanent impairment stands.
        let hr6 = shoulder_after(1, 6, 25, 27);
        assert!(!hr6.injuries.get(0).is_some_and(|x| x.impairs));
        assert_eq!(impairment(&hr6), 5);
        // 45 days still Serious: 10 permanent, no more than its indefinite 10; at 60, 15.
        assert_eq!(impairment(&shoulder_after(2, 3, u32::MAX, 45)), 10);
        assert_eq!(impairment(&shoulder_after(2, 3, u32::MAX, 60)), 15);
    }

    #[test]
    fn the_next_fight_begins_on_its_feet_with_only_what_the_fighter_carries() {
        // Straight on with no rest: a fighter the last fight left stunned, prone, disarmed and
        // routed begins the next standing, armed and rallied (STN wears off, as after a
        // fight), its injuries carried, its counts at nought; one left INC cannot fight.
        let mut c = carrying(&[Injury::new(Location::Abdomen, Aspect::Edge, 2)]);
        let s = &mut c.state;
        (s.shock, s.prone, s.disarmed, s.routed, s.bleeders) =
            (ShockState::Stunned, true, true, true, 2);
        let ready = c.ready();
        assert_eq!(ready.shock, ShockState::None);
        assert!(!ready.prone && !ready.disarmed && !ready.routed);
        assert_eq!((ready.bleeders, ready.injuries.len()), (0, 1));
        assert!(duel().able(0, &c));
        c.state.shock = ShockState::Incapacitated;
        assert!(!duel().able(0, &c));
        // After a rest an unhurt fighter is as fresh.
        let mut unhurt = Condition::default();
        unhurt.state.prone = true;
        rest(&duel(), &mut unhurt, 1, &mut ScriptedDice::new(vec![]));
        assert!(!unhurt.state.prone);
    }

    #[test]
    fn a_healed_wound_adds_its_permanent_impairment_to_another_injury_in_the_zone() {
        // "only the higher of the two applies at a given moment for the same injury": for
        // another injury both weigh. 10 permanent on the right arm from a healed wound, and a
        // Serious right upper arm injury still healing (not yet accrued any): 20.
        let mut injuries = Injuries::default();
        injuries.add(Injury::new(Location::UpperArm, Aspect::Edge, 2));
        let mut course = Course {
            known: 1,
            treated: 1,
            ..Course::default()
        };
        let arm = zone_slot(&Injury::new(Location::UpperArm, Aspect::Edge, 2));
        course.lasting[arm] = 10;
        course.wounds[0] = Healing {
            il: 2,
            hr: 4,
            lasting: true,
            live: true,
            born: 50,
            zone: 2,
            ..Healing::default()
        };
        let state = duel().after_the_rest(&mut course, &injuries, 55);
        let z = state.by_zone[arm];
        assert_eq!(z.serious * 10 + z.lasting, 20);
    }

    #[test]
    fn a_severed_location_stays_lost_after_its_stump_heals() {
        let mut injuries = Injuries::default();
        injuries.add(Injury {
            severed: true,
            ..Injury::new(Location::Hand, Aspect::Edge, 5)
        });
        let mut course = Course {
            known: 1,
            treated: 1,
            ..Course::default()
        };
        course.wounds[0] = Healing {
            live: false,
            ..Healing::default()
        };
        let state = duel().after_the_rest(&mut course, &injuries, 60);
        assert_eq!(state.injuries.len(), 1);
        assert!(state.by_zone[zone_slot(&Injury::new(Location::Hand, Aspect::Edge, 5))].grievous);
        // And no healing starts on it again.
        let again = ZoneD100::reconcile(&mut course, &state.injuries, 60);
        assert_eq!((again, course.wounds[0].live), (0, false));
    }

    #[test]
    fn a_fighter_in_a_coma_or_unable_to_act_sits_the_next_fight_out() {
        let model = duel();
        assert!(model.able(0, &Condition::default()));
        let mut comatose = Condition::default();
        comatose.course.coma = Some(Coma {
            hr: 3,
            started: 0,
            next_roll: 10,
        });
        assert!(!model.able(0, &comatose));
        let mut dead = Condition::default();
        dead.state.dead = true;
        assert!(!model.able(0, &dead));
    }

    #[test]
    fn an_unhurt_fighter_rests_without_dice_and_its_days_still_pass() {
        let model = duel();
        let mut c = Condition::default();
        let mut dice = ScriptedDice::new(vec![]);
        rest(&model, &mut c, 7, &mut dice);
        assert_eq!((dice.used(), c.course.day), (0, 7));
    }
}
