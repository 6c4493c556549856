//! The scenario schema's `[weapons]` and `[armour]`: a weapon (or shield, or missile weapon) in
//! one strike mode with its impact, aspect, Zone Die, Reach, Heft and missile entries, and
//! armour as pieces covering locations with a value per aspect (B, E, P, F) and a rigid flag,
//! compiled into the armour table of a fighter: the AV of every location by aspect (the
//! INJURY SEQUENCE's 2 IMPACT reads it; a piece on the face covers its features).

use super::body::Location;
use super::injury::Aspect;
use super::melee::{Cover, LOCATIONS, Weapon};
use crate::scenario::error::unknown_name;
use crate::scenario::fields::Ranged;
use serde::Deserialize;

/// A weapon (or shield) entry in one strike mode.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponSpec {
    /// Impact die sides (the `d10` of d10+3).
    pub impact_die: Ranged<1, 100>,
    /// Impact modifier (the `+3`).
    #[serde(default)]
    pub impact_modifier: Ranged<-20, 40>,
    /// Aspect of the strike mode: B, E, P or F.
    pub aspect: Aspect,
    /// Zone Die sides (melee; a missile's comes from the range).
    #[serde(default = "six")]
    pub zone_die: Ranged<1, 20>,
    /// Reach.
    #[serde(default)]
    pub reach: Ranged<0, 20>,
    /// Heft.
    #[serde(default)]
    pub heft: Ranged<0, 40>,
    /// A thrusting strike mode (Thrust bonus).
    #[serde(default)]
    pub thrust: bool,
    /// Wielded two-handed.
    #[serde(default)]
    pub two_handed: bool,
    /// Impact per Impact TA; default by aspect: 3B, 5E, 4P, 2F.
    pub impact_ta: Option<Ranged<0, 20>>,
    /// A missile weapon's Base Range in feet (absent: a melee weapon).
    pub base_range: Option<Ranged<1, 2000>>,
    /// The projectile's Armour Reduction.
    #[serde(default)]
    pub armour_reduction: Ranged<0, 20>,
    /// Rounds to load (0: projectiles in hand, a free action).
    #[serde(default = "one_round")]
    pub load_rounds: Ranged<0, 10>,
    /// Rounds to span (crossbows).
    #[serde(default)]
    pub span_rounds: Ranged<0, 20>,
    /// The Aim action is allowed (a bow's Pull exceeding Draw by 75; crossbows; thrown weapons).
    #[serde(default)]
    pub aim_allowed: bool,
    /// Arrows and bolts impale on S3 or worse.
    #[serde(default)]
    pub impales: bool,
    /// A broadhead arrow: its wounds take the BRD row of the Projectile treatment table.
    #[serde(default)]
    pub broadhead: bool,
    /// A thrown weapon.
    #[serde(default)]
    pub thrown: bool,
}

/// The punch a fighter designates with no weapon in hand when the scenario's `[weapons]` has no
/// `punch` entry and the fighter names no other `unarmed` mode: the catalogue's punch (d4 Blunt,
/// Zone Die d4 as the text gives it, Reach 0, Heft 0).
pub const PUNCH: Weapon = Weapon {
    impact_die: 4,
    impact_modifier: 0,
    aspect: Aspect::Blunt,
    zone_die: 4,
    reach: 0,
    heft: 0,
    thrust: false,
    two_handed: false,
    impact_ta: 3,
};

fn six() -> Ranged<1, 20> {
    Ranged::new(6)
}
fn one_round() -> Ranged<0, 10> {
    Ranged::new(1)
}

/// One piece of armour: the locations it covers and its value per aspect.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Piece {
    /// Locations covered (`skull`, `face`, `neck`, `shoulder`, `upper_arm`, `elbow`, `forearm`,
    /// `hand`, `thorax`, `abdomen`, `pelvis`, `thigh`, `knee`, `calf`, `foot`).
    pub locations: Vec<LocationName>,
    /// AV against Blunt.
    #[serde(rename = "B")]
    pub blunt: Ranged<0, 40>,
    /// AV against Edge.
    #[serde(rename = "E")]
    pub edge: Ranged<0, 40>,
    /// AV against Point.
    #[serde(rename = "P")]
    pub point: Ranged<0, 40>,
    /// AV against Fire/Frost.
    #[serde(rename = "F", default)]
    pub fire: Ranged<0, 40>,
    /// Rigid armour (glancing blows).
    #[serde(default)]
    pub rigid: bool,
}

/// A location as written in an armour piece, checked as it is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocationName(pub Location);

impl<'de> Deserialize<'de> for LocationName {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let written = String::deserialize(deserializer)?;
        LOCATION_NAMES
            .iter()
            .find(|(n, _)| *n == written)
            .map(|&(_, l)| LocationName(l))
            .ok_or_else(|| {
                let known: Vec<&str> = LOCATION_NAMES.iter().map(|(n, _)| *n).collect();
                serde::de::Error::custom(unknown_name("location", &written, &known))
            })
    }
}

/// An armour entry: pieces worn together (values of layered pieces add).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmourSpec {
    /// The pieces.
    pub pieces: Vec<Piece>,
}

/// The armour location names, for `duelsim rulesets zone-d100` after its parameters.
pub fn armour_locations_note() -> String {
    let names: Vec<&str> = LOCATION_NAMES.iter().map(|(n, _)| *n).collect();
    format!(
        "\narmour locations (a piece's `locations`, an injury's `location`):\n  {}",
        names.join(", ")
    )
}

/// The armour location names a piece's `locations` list may use.
pub const LOCATION_NAMES: [(&str, Location); 15] = [
    ("skull", Location::Skull),
    ("face", Location::Face),
    ("neck", Location::Neck),
    ("shoulder", Location::Shoulder),
    ("upper_arm", Location::UpperArm),
    ("elbow", Location::Elbow),
    ("forearm", Location::Forearm),
    ("hand", Location::Hand),
    ("thorax", Location::Thorax),
    ("abdomen", Location::Abdomen),
    ("pelvis", Location::Pelvis),
    ("thigh", Location::Thigh),
    ("knee", Location::Knee),
    ("calf", Location::Calf),
    ("foot", Location::Foot),
];

pub(super) fn weapon(spec: &WeaponSpec) -> Weapon {
    let default_ta = match spec.aspect {
        Aspect::Blunt => 3,
        Aspect::Edge => 5,
        Aspect::Point => 4,
        Aspect::Fire | Aspect::Frost => 2,
    };
    Weapon {
        impact_die: spec.impact_die.u32(),
        impact_modifier: spec.impact_modifier.i32(),
        aspect: spec.aspect,
        zone_die: spec.zone_die.u32(),
        reach: spec.reach.i32(),
        heft: spec.heft.i32(),
        thrust: spec.thrust,
        two_handed: spec.two_handed,
        impact_ta: spec.impact_ta.as_ref().map_or(default_ta, Ranged::i32),
    }
}

pub(super) fn armour(spec: &ArmourSpec) -> [Cover; LOCATIONS] {
    let mut cover = [Cover::default(); LOCATIONS];
    let features = [
        Location::Eye,
        Location::Nose,
        Location::Cheek,
        Location::Ear,
        Location::Mouth,
        Location::Jaw,
    ];
    for piece in &spec.pieces {
        for &LocationName(location) in &piece.locations {
            let covered: &[Location] = if location == Location::Face {
                &features
            } else {
                &[]
            };
            for &l in std::iter::once(&location).chain(covered) {
                let c = &mut cover[l as usize];
                c.av[0] += piece.blunt.i32();
                c.av[1] += piece.edge.i32();
                c.av[2] += piece.point.i32();
                c.av[3] += piece.fire.i32();
                c.rigid |= piece.rigid;
            }
        }
    }
    cover
}
