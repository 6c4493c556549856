//! The INJURY SEQUENCE's step 5 INJURY EFFECT as it bears on tests: a fighter's injuries summed
//! by body zone (head, torso, each arm, legs), the impairment a test takes from the zones it
//! uses (IMPAIRED ACTIONS AND MOVEMENT, IMPAIRED TESTS: Minor 5 once it impairs, Serious 10),
//! and TESTS WITH GRIEVOUS INJURY: a Grievous zone prohibits the test (an automatic CF with the
//! zone's mishap), a Grievous weapon arm or leg is unusable. Also the zone of each location.

use super::body::{BodySide, LOCATIONS, Location, Zone};
use super::injury::{Injury, Severity};
use super::melee::{Arms, Melee, State, ZoneInjuries};
use super::skill::{SuccessLevel, Test};

const HEAD: usize = 0;
pub(super) const TORSO: usize = 1;
const LEFT_ARM: usize = 2;
const RIGHT_ARM: usize = 3;
const LEGS: usize = 4;

/// The slot of [`State::by_zone`] an injury counts in. Read from a table: the location comes
/// from the dice, so a jump on it is a guess.
pub(super) fn zone_slot(injury: &Injury) -> usize {
    const fn slot(location: Location, left: bool) -> u8 {
        (match (zone_by_rule(location), left) {
            (Zone::Head, _) => HEAD,
            (Zone::Torso, _) => TORSO,
            (Zone::Arm, true) => LEFT_ARM,
            (Zone::Arm, false) => RIGHT_ARM,
            (Zone::Leg, _) => LEGS,
        }) as u8
    }
    const SLOTS: [[u8; 2]; LOCATIONS] = {
        let mut slots = [[0; 2]; LOCATIONS];
        let mut i = 0;
        while i < LOCATIONS {
            slots[i] = [slot(Location::ALL[i], false), slot(Location::ALL[i], true)];
            i += 1;
        }
        slots
    };
    usize::from(SLOTS[injury.location as usize][usize::from(injury.side == BodySide::Left)])
}

impl State {
    /// Recomputes [`State::by_zone`] from the injuries (after an injury or a compound). Alone
    /// it leaves [`State::impairment_by_arms`] as it was: a fighter's state goes through
    /// [`Melee::summarise`], which refreshes both (a recovery patient makes no melee or
    /// missile test, so this alone does for it).
    pub(super) fn summarise(&mut self) {
        let mut by_zone = self.by_zone.map(|z| ZoneInjuries {
            lasting: z.lasting,
            ..ZoneInjuries::default()
        });
        for injury in self.injuries.iter() {
            by_zone[zone_slot(injury)].count(injury);
        }
        self.by_zone = by_zone;
    }
}

impl ZoneInjuries {
    /// Counts one injury of this zone: a Minor one once it impairs, a Serious one, a Grievous one.
    #[inline]
    pub(super) fn count(&mut self, injury: &Injury) {
        // Without a branch: the severity comes from the dice.
        let severity = injury.severity();
        self.minor += i32::from((severity == Severity::Minor) & injury.impairs);
        self.serious += i32::from(severity == Severity::Serious);
        self.grievous |= severity == Severity::Grievous;
    }
}

impl Melee {
    /// Recomputes `state`'s zone sums from its injuries (after a compound, or an injury that
    /// took another's place) and the impairment its tests read.
    pub fn summarise(&self, me: usize, state: &mut State) {
        state.summarise();
        self.refresh_impairment(me, state);
    }

    /// Adds injury `index` to `state`'s zone sums and to the impairment its tests read: the
    /// same as [`Melee::summarise`] after an injury joined the record and changed no other (no
    /// compound, none given way), with only the new injury weighed.
    pub fn count_injury(&self, me: usize, state: &mut State, index: usize) {
        if let Some(injury) = state.injuries.get(index) {
            let mut counts = ZoneInjuries::default();
            counts.count(injury);
            self.weigh_in(me, state, zone_slot(injury), counts);
        }
    }

    /// Adds `counts` to zone `slot` of [`State::by_zone`] and their weight to every entry of
    /// [`State::impairment_by_arms`] whose tests use that zone: the head, torso and legs every
    /// entry, an arm the choices of arms that use it ([`Arms::weapon_arm`],
    /// [`Arms::other_arm`], as [`Melee::zone_impairment`] reads them). Without a branch: the
    /// zone and the counts come from the dice.
    pub(super) fn weigh_in(&self, me: usize, state: &mut State, slot: usize, counts: ZoneInjuries) {
        let zone = &mut state.by_zone[slot];
        zone.minor += counts.minor;
        zone.serious += counts.serious;
        zone.grievous |= counts.grievous;
        let weight = counts.minor * self.rules.minor_impairment
            + counts.serious * self.rules.serious_impairment;
        let (weapon_arm, other_arm) = self.arm_slots(me);
        for arms in [Arms::None, Arms::Weapon, Arms::Shield, Arms::Both] {
            let used = ((slot != weapon_arm) | arms.weapon_arm())
                & ((slot != other_arm) | arms.other_arm());
            let entry = &mut state.impairment_by_arms[arms as usize];
            entry.0 += weight * i32::from(used);
            entry.1 |= counts.grievous & used;
        }
    }

    /// Weighs `state.by_zone` into [`State::impairment_by_arms`]: for each choice of arms, the
    /// head, torso, legs and those arms, as [`Melee::zone_impairment`] sums them. Called
    /// whenever `by_zone` changes.
    pub(super) fn refresh_impairment(&self, me: usize, state: &mut State) {
        let (weapon_arm, other_arm) = self.arm_slots(me);
        let (minor, serious) = (self.rules.minor_impairment, self.rules.serious_impairment);
        let weigh = |z: usize| {
            let zone = &state.by_zone[z];
            (
                zone.minor * minor + zone.serious * serious + zone.lasting,
                zone.grievous,
            )
        };
        let add = |a: (i32, bool), b: (i32, bool)| (a.0 + b.0, a.1 | b.1);
        let core = add(add(weigh(HEAD), weigh(TORSO)), weigh(LEGS));
        let (weapon, other) = (weigh(weapon_arm), weigh(other_arm));
        let mut by_arms = [(0, false); 4];
        by_arms[Arms::None as usize] = core;
        by_arms[Arms::Weapon as usize] = add(core, weapon);
        by_arms[Arms::Shield as usize] = add(core, other);
        by_arms[Arms::Both as usize] = add(add(core, weapon), other);
        state.impairment_by_arms = by_arms;
    }

    /// The slots of [`State::by_zone`] of `side`'s weapon arm and other arm.
    #[inline]
    fn arm_slots(&self, me: usize) -> (usize, usize) {
        if self.members[me].right_handed {
            (RIGHT_ARM, LEFT_ARM)
        } else {
            (LEFT_ARM, RIGHT_ARM)
        }
    }

    /// The impairment of a test that uses these zones (head, torso and legs always for Melee
    /// and Dodge; the weapon arm for Melee and Block).
    pub fn impairment(&self, me: usize, state: &State, arm: bool, legs: bool) -> (i32, bool) {
        self.impairment_of(me, state, if arm { Arms::Weapon } else { Arms::None }, legs)
    }

    /// The impairment of a test that uses the head, torso, these arms and (if `legs`) the legs,
    /// and whether a Grievous injury prohibits it: read from [`State::impairment_by_arms`] for
    /// a test with the legs (every melee and missile test), summed for one without.
    #[inline]
    pub fn impairment_of(&self, me: usize, state: &State, arms: Arms, legs: bool) -> (i32, bool) {
        if legs {
            let kept = state.impairment_by_arms[arms as usize];
            debug_assert_eq!(
                kept,
                self.zone_impairment(me, state, arms, true),
                "by_zone changed without Melee::refresh_impairment"
            );
            kept
        } else {
            self.zone_impairment(me, state, arms, false)
        }
    }

    /// The impairment of a test summed over the zones it uses, from `state.by_zone`.
    fn zone_impairment(&self, me: usize, state: &State, arms: Arms, legs: bool) -> (i32, bool) {
        let (weapon_arm, other_arm) = self.arm_slots(me);
        let minor = self.rules.minor_impairment;
        let mut total = 0;
        let mut prohibited = false;
        for (z, counts) in [
            (HEAD, true),
            (TORSO, true),
            (weapon_arm, arms.weapon_arm()),
            (other_arm, arms.other_arm()),
            (LEGS, legs),
        ] {
            if counts {
                let zone = &state.by_zone[z];
                total += zone.minor * minor
                    + zone.serious * self.rules.serious_impairment
                    + zone.lasting;
                prohibited |= zone.grievous;
            }
        }
        (total, prohibited)
    }

    /// A test a Grievous injury prohibits: "automatically achieves a CF". Its mishap is the
    /// prohibiting zone's: a Fumble for the head or an arm (the weapon slips), a Stumble for
    /// the torso or legs. The roll stands for the CF's ones digit (100: Fumble, 95: Stumble).
    pub fn automatic_cf(&self, me: usize, state: &State, arms: Arms, eml: i32) -> Test {
        let (weapon_arm, other_arm) = self.arm_slots(me);
        let fumbles = state.by_zone[HEAD].grievous
            || (arms.weapon_arm() && state.by_zone[weapon_arm].grievous)
            || (arms.other_arm() && state.by_zone[other_arm].grievous);
        Test {
            roll: if fumbles { 100 } else { 95 },
            eml,
            level: SuccessLevel::CriticalFailure,
        }
    }

    /// The weapon arm is Grievously injured: "the location is rendered immediately unusable",
    /// so a dropped weapon stays on the ground.
    pub fn weapon_arm_unusable(&self, me: usize, state: &State) -> bool {
        state.by_zone[self.arm_slots(me).0].grievous
    }

    /// A Grievous leg: "the victim falls prone", and standing or moving is an action of an
    /// unusable zone (an automatic CF): the fighter stays down and does not close.
    pub fn legs_unusable(&self, state: &State) -> bool {
        state.by_zone[LEGS].grievous
    }
}

/// The zone of a location. Read from a table: the location comes from the dice, so a jump on
/// it is a guess.
pub const fn zone_of_location(location: Location) -> Zone {
    const ZONES: [Zone; LOCATIONS] = {
        let mut zones = [Zone::Head; LOCATIONS];
        let mut i = 0;
        while i < LOCATIONS {
            zones[i] = zone_by_rule(Location::ALL[i]);
            i += 1;
        }
        zones
    };
    ZONES[location as usize]
}

/// The zone of a location, as the rules list them.
const fn zone_by_rule(location: Location) -> Zone {
    use Location::*;
    match location {
        Skull | Face | Neck | Eye | Nose | Cheek | Ear | Mouth | Jaw => Zone::Head,
        Shoulder | UpperArm | Elbow | Forearm | Hand => Zone::Arm,
        Thorax | Abdomen | Pelvis => Zone::Torso,
        Thigh | Knee | Calf | Foot => Zone::Leg,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::zone_d100::body::Location;
    use crate::rules::zone_d100::injury::Aspect;
    use crate::rules::zone_d100::melee::tests::{fighter, melee};
    use crate::rules::zone_d100::skill::Defence;
    use crate::stats::Side;

    #[test]
    fn injuries_impair_and_grievous_zones_prohibit() {
        let m = melee(fighter(Defence::Block), fighter(Defence::Block));
        let mut state = State::default();
        let injury = |location, il| Injury::new(location, Aspect::Edge, il);
        state.injuries.add(injury(Location::Abdomen, 2));
        m.summarise(0, &mut state);
        assert_eq!(
            m.impairment(0, &state, true, true),
            (10, false),
            "S2 abdomen: 10"
        );
        state.injuries.add(injury(Location::Thigh, 1));
        m.summarise(0, &mut state);
        assert_eq!(
            m.impairment(0, &state, true, true),
            (10, false),
            "a Minor waits while the Shock roll succeeded"
        );
        state.injuries.add(Injury {
            impairs: true,
            ..injury(Location::Thigh, 1)
        });
        m.summarise(0, &mut state);
        assert_eq!(
            m.impairment(0, &state, true, true),
            (15, false),
            "a Minor whose Shock roll failed impairs; the other still waits"
        );
        state.injuries.add(Injury {
            side: BodySide::Left,
            ..injury(Location::Forearm, 4)
        });
        m.summarise(0, &mut state);
        assert_eq!(
            m.impairment(0, &state, true, true),
            (15, false),
            "the left arm does not wield the sword"
        );
        state.injuries.add(injury(Location::Forearm, 4));
        m.summarise(0, &mut state);
        assert!(
            m.impairment(0, &state, true, true).1,
            "a Grievous weapon arm prohibits"
        );
        assert!(!m.impairment(0, &state, false, true).1, "but not a Dodge");
    }

    #[test]
    fn counting_a_new_injury_keeps_the_zone_sums_of_a_whole_summary() {
        // Every location, side, level and impairing flag, added one by one to a record: the
        // new injury counted alone gives the sums of summarising the whole record again, and
        // the impairment every choice of arms reads is the sum over its zones, for a
        // right-handed fighter (A) and a left-handed one (B).
        let mut left_handed = fighter(Defence::Block);
        left_handed.right_handed = false;
        let m = melee(fighter(Defence::Block), left_handed);
        let locations = [
            Location::Skull,
            Location::Face,
            Location::Neck,
            Location::Shoulder,
            Location::Forearm,
            Location::Hand,
            Location::Thorax,
            Location::Pelvis,
            Location::Thigh,
            Location::Foot,
        ];
        let sides = [BodySide::Centre, BodySide::Left, BodySide::Right];
        let mut cases = 0;
        for fighter in Side::BOTH {
            for (n, &location) in locations.iter().enumerate() {
                for (k, &side) in sides.iter().enumerate() {
                    let mut state = State::default();
                    for il in 1..=5u8 {
                        let injury = Injury {
                            side,
                            impairs: (n + k + usize::from(il)) % 2 == 0,
                            ..Injury::new(location, Aspect::Edge, il)
                        };
                        let index = state.injuries.add(injury);
                        m.count_injury(fighter.index(), &mut state, index);
                        let counted = (state.by_zone, state.impairment_by_arms);
                        m.summarise(fighter.index(), &mut state);
                        let what = format!("{fighter:?} {location:?} {side:?} IL{il}");
                        assert_eq!(counted, (state.by_zone, state.impairment_by_arms), "{what}");
                        for arms in [Arms::None, Arms::Weapon, Arms::Shield, Arms::Both] {
                            assert_eq!(
                                state.impairment_by_arms[arms as usize],
                                m.zone_impairment(fighter.index(), &state, arms, true),
                                "{what} {arms:?}"
                            );
                        }
                        cases += 1;
                    }
                }
            }
        }
        assert_eq!(cases, 300);
    }
}
