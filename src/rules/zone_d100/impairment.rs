//! The INJURY SEQUENCE's step 5 INJURY EFFECT as it bears on tests: a fighter's injuries summed
//! by body zone (head, torso, each arm, legs), the impairment a test takes from the zones it
//! uses (IMPAIRED ACTIONS AND MOVEMENT, IMPAIRED TESTS: Minor 5 once it impairs, Serious 10),
//! and TESTS WITH GRIEVOUS INJURY: a Grievous zone prohibits the test (an automatic CF with the
//! zone's mishap), a Grievous weapon arm or leg is unusable. Also the zone of each location.

use super::body::{BodySide, Location, Zone};
use super::injury::{Injury, Severity};
use super::melee::{Arms, Melee, State, ZoneInjuries};
use super::skill::{SuccessLevel, Test};
use crate::stats::Side;

const HEAD: usize = 0;
const TORSO: usize = 1;
const LEFT_ARM: usize = 2;
const RIGHT_ARM: usize = 3;
const LEGS: usize = 4;

/// The slot of [`State::by_zone`] an injury counts in.
pub(super) fn zone_slot(injury: &Injury) -> usize {
    match (zone_of_location(injury.location), injury.side) {
        (Zone::Head, _) => HEAD,
        (Zone::Torso, _) => TORSO,
        (Zone::Arm, BodySide::Left) => LEFT_ARM,
        (Zone::Arm, _) => RIGHT_ARM,
        (Zone::Leg, _) => LEGS,
    }
}

impl State {
    /// Recomputes [`State::by_zone`] from the injuries (after an injury or a compound).
    pub fn summarise(&mut self) {
        let mut by_zone = [ZoneInjuries::default(); 5];
        for injury in self.injuries.iter() {
            by_zone[zone_slot(injury)].count(injury);
        }
        self.by_zone = by_zone;
    }

    /// Adds injury `index` to [`State::by_zone`]: the same as [`State::summarise`] after an
    /// injury joined the record and changed no other (no compound, none given way).
    pub fn count_injury(&mut self, index: usize) {
        if let Some(injury) = self.injuries.get(index) {
            self.by_zone[zone_slot(injury)].count(injury);
        }
    }
}

impl ZoneInjuries {
    /// Counts one injury of this zone: a Minor one once it impairs, a Serious one, a Grievous one.
    #[inline]
    fn count(&mut self, injury: &Injury) {
        match injury.severity() {
            Severity::Minor => self.minor += i32::from(injury.impairs),
            Severity::Serious => self.serious += 1,
            Severity::Grievous => self.grievous = true,
        }
    }
}

impl Melee {
    /// The impairment of a test that uses these zones (head, torso and legs always for Melee
    /// and Dodge; the weapon arm for Melee and Block).
    pub fn impairment(&self, side: Side, state: &State, arm: bool, legs: bool) -> (i32, bool) {
        self.impairment_of(
            side,
            state,
            if arm { Arms::Weapon } else { Arms::None },
            legs,
        )
    }

    /// The impairment of a test that uses the head, torso, these arms and (if `legs`) the legs,
    /// and whether a Grievous injury prohibits it.
    pub fn impairment_of(&self, side: Side, state: &State, arms: Arms, legs: bool) -> (i32, bool) {
        let f = &self.fighters[side.index()];
        let (weapon_arm, other_arm) = if f.right_handed {
            (RIGHT_ARM, LEFT_ARM)
        } else {
            (LEFT_ARM, RIGHT_ARM)
        };
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
                total += zone.minor * minor + zone.serious * self.rules.serious_impairment;
                prohibited |= zone.grievous;
            }
        }
        (total, prohibited)
    }

    /// A test a Grievous injury prohibits: "automatically achieves a CF". Its mishap is the
    /// prohibiting zone's: a Fumble for the head or an arm (the weapon slips), a Stumble for
    /// the torso or legs. The roll stands for the CF's ones digit (100: Fumble, 95: Stumble).
    pub fn automatic_cf(&self, side: Side, state: &State, arms: Arms, eml: i32) -> Test {
        let f = &self.fighters[side.index()];
        let (weapon_arm, other_arm) = if f.right_handed {
            (RIGHT_ARM, LEFT_ARM)
        } else {
            (LEFT_ARM, RIGHT_ARM)
        };
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
    pub fn weapon_arm_unusable(&self, side: Side, state: &State) -> bool {
        let f = &self.fighters[side.index()];
        let arm = if f.right_handed { RIGHT_ARM } else { LEFT_ARM };
        state.by_zone[arm].grievous
    }

    /// A Grievous leg: "the victim falls prone", and standing or moving is an action of an
    /// unusable zone (an automatic CF): the fighter stays down and does not close.
    pub fn legs_unusable(&self, state: &State) -> bool {
        state.by_zone[LEGS].grievous
    }
}

/// The zone of a location.
pub fn zone_of_location(location: Location) -> Zone {
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

    #[test]
    fn injuries_impair_and_grievous_zones_prohibit() {
        let m = melee(fighter(Defence::Block), fighter(Defence::Block));
        let mut state = State::default();
        let injury = |location, il| Injury::new(location, Aspect::Edge, il);
        state.injuries.add(injury(Location::Abdomen, 2));
        state.summarise();
        assert_eq!(
            m.impairment(Side::A, &state, true, true),
            (10, false),
            "S2 abdomen: 10"
        );
        state.injuries.add(injury(Location::Thigh, 1));
        state.summarise();
        assert_eq!(
            m.impairment(Side::A, &state, true, true),
            (10, false),
            "a Minor waits while the Shock roll succeeded"
        );
        state.injuries.add(Injury {
            impairs: true,
            ..injury(Location::Thigh, 1)
        });
        state.summarise();
        assert_eq!(
            m.impairment(Side::A, &state, true, true),
            (15, false),
            "a Minor whose Shock roll failed impairs; the other still waits"
        );
        state.injuries.add(Injury {
            side: BodySide::Left,
            ..injury(Location::Forearm, 4)
        });
        state.summarise();
        assert_eq!(
            m.impairment(Side::A, &state, true, true),
            (15, false),
            "the left arm does not wield the sword"
        );
        state.injuries.add(injury(Location::Forearm, 4));
        state.summarise();
        assert!(
            m.impairment(Side::A, &state, true, true).1,
            "a Grievous weapon arm prohibits"
        );
        assert!(
            !m.impairment(Side::A, &state, false, true).1,
            "but not a Dodge"
        );
    }

    #[test]
    fn counting_a_new_injury_keeps_the_zone_sums_of_a_whole_summary() {
        // Every location, side, level and impairing flag, added one by one to a record: the
        // new injury counted alone gives the sums of summarising the whole record again.
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
                    state.count_injury(index);
                    let counted = state.by_zone;
                    state.summarise();
                    assert_eq!(counted, state.by_zone, "{location:?} {side:?} IL{il}");
                    cases += 1;
                }
            }
        }
        assert_eq!(cases, 150);
    }
}
