//! The body location table and the Location Roll: the Zone Die (with aim) picks a zone number,
//! the d10 Location Die a location in that zone, a d2 the side of a limb, a d20 the face
//! feature. Shades the extraction lost (bleeding circles, amputation triangles) are data with
//! the reading recorded in `docs/rules/zone-d100.md`.

use crate::dice::Dice;

/// A body zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Zone {
    /// ZN1.
    Head,
    /// ZN2–3.
    Arm,
    /// ZN4–7.
    Torso,
    /// ZN8–10.
    Leg,
}

/// A body location (face features included, for the face option).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Location {
    Skull,
    Face,
    Neck,
    Shoulder,
    UpperArm,
    Elbow,
    Forearm,
    Hand,
    Thorax,
    Abdomen,
    Pelvis,
    Thigh,
    Knee,
    Calf,
    Foot,
    Eye,
    Nose,
    Cheek,
    Ear,
    Mouth,
    Jaw,
}

/// Number of locations in [`Location`] (for per-location arrays).
pub const LOCATIONS: usize = 21;

impl Location {
    /// Every location, in the order of the enum (a location's index into tables).
    pub const ALL: [Location; LOCATIONS] = {
        use Location::*;
        [
            Skull, Face, Neck, Shoulder, UpperArm, Elbow, Forearm, Hand, Thorax, Abdomen, Pelvis,
            Thigh, Knee, Calf, Foot, Eye, Nose, Cheek, Ear, Mouth, Jaw,
        ]
    };
}

impl std::fmt::Display for Location {
    /// The location's name in the rules' words: "upper arm", "thigh".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Location::Skull => "skull",
            Location::Face => "face",
            Location::Neck => "neck",
            Location::Shoulder => "shoulder",
            Location::UpperArm => "upper arm",
            Location::Elbow => "elbow",
            Location::Forearm => "forearm",
            Location::Hand => "hand",
            Location::Thorax => "thorax",
            Location::Abdomen => "abdomen",
            Location::Pelvis => "pelvis",
            Location::Thigh => "thigh",
            Location::Knee => "knee",
            Location::Calf => "calf",
            Location::Foot => "foot",
            Location::Eye => "eye",
            Location::Nose => "nose",
            Location::Cheek => "cheek",
            Location::Ear => "ear",
            Location::Mouth => "mouth",
            Location::Jaw => "jaw",
        })
    }
}

/// The shade of a bleeding circle or an amputation triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Shade {
    /// No symbol.
    None,
    /// White (○ / ▽).
    Light,
    /// Grey.
    Grey,
    /// Black.
    Dark,
}

/// Which side a limb or feature is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BodySide {
    /// Not a paired location.
    Centre,
    /// Odd.
    Left,
    /// Even.
    Right,
}

impl BodySide {
    /// "left " or "right " before a paired location's name; nothing for the others.
    pub fn prefix(self) -> &'static str {
        match self {
            BodySide::Centre => "",
            BodySide::Left => "left ",
            BodySide::Right => "right ",
        }
    }
}

/// One row of the body location table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LocationRow {
    /// The location.
    pub location: Location,
    /// Its zone.
    pub zone: Zone,
    /// Location Die results (inclusive) that hit it; for face features, d20 results.
    pub from: u8,
    /// Last result.
    pub to: u8,
    /// Location shock.
    pub shock: u8,
    /// Bleeding circle.
    pub bleeding: Shade,
    /// Amputation triangle.
    pub amputation: Shade,
}

const fn row(
    location: Location,
    zone: Zone,
    from: u8,
    to: u8,
    shock: u8,
    bleeding: Shade,
    amputation: Shade,
) -> LocationRow {
    LocationRow {
        location,
        zone,
        from,
        to,
        shock,
        bleeding,
        amputation,
    }
}

use Location::*;
use Shade::{Dark, Grey, Light, None as No};
use Zone::{Arm, Head, Leg, Torso};

/// The human BODY LOCATION table (10 zone numbers). Shades: see the assumptions table.
pub const HUMAN: [LocationRow; 15] = [
    row(Skull, Head, 1, 5, 5, Light, No),
    row(Face, Head, 6, 8, 4, Grey, No),
    row(Neck, Head, 9, 10, 5, Dark, Light),
    row(Shoulder, Arm, 1, 3, 3, Grey, No),
    row(UpperArm, Arm, 4, 6, 1, Light, Light),
    row(Elbow, Arm, 7, 7, 2, Light, Grey),
    row(Forearm, Arm, 8, 9, 1, Light, Grey),
    row(Hand, Arm, 10, 10, 2, No, Dark),
    row(Thorax, Torso, 1, 4, 4, Dark, No),
    row(Abdomen, Torso, 5, 7, 4, Grey, No),
    row(Pelvis, Torso, 8, 10, 4, Grey, No),
    row(Thigh, Leg, 1, 4, 3, Dark, Light),
    row(Knee, Leg, 5, 5, 2, Light, Grey),
    row(Calf, Leg, 6, 8, 1, Light, Grey),
    row(Foot, Leg, 9, 10, 2, No, Dark),
];

/// The FACE OPTION table (d20), bleeding as the face.
pub const FACE: [LocationRow; 6] = [
    row(Eye, Head, 1, 2, 5, Grey, Dark),
    row(Nose, Head, 3, 4, 5, Grey, Dark),
    row(Cheek, Head, 5, 12, 4, Grey, No),
    row(Ear, Head, 13, 14, 5, Grey, Dark),
    row(Mouth, Head, 15, 16, 4, Grey, No),
    row(Jaw, Head, 17, 20, 4, Grey, No),
];

/// Zone numbers on the human table.
pub const HUMAN_ZONE_NUMBERS: u32 = 10;

/// The zone of a zone number on the human table, `None` past the table (a miss).
pub fn zone_of(zn: u32) -> Option<Zone> {
    match zn {
        1 => Some(Head),
        2..=3 => Some(Arm),
        4..=7 => Some(Torso),
        8..=10 => Some(Leg),
        _ => None,
    }
}

/// The zone number a Zone Die result reaches from the aimed zone number: the count starts on
/// the aim ("aimed at ZN3, a roll of 4 results in a ZN6 strike").
pub fn zone_number(aim: u32, roll: u32) -> u32 {
    aim + roll - 1
}

/// The row a Location Die result picks in a zone: read from [`LOCATION_ROWS`] for a d10's
/// results, found in [`HUMAN`] otherwise.
pub fn location_in(zone: Zone, ld: u32) -> &'static LocationRow {
    match LOCATION_ROWS[zone as usize].get((ld as usize).wrapping_sub(1)) {
        Some(&i) => &HUMAN[i as usize],
        None => &HUMAN[scan_location(zone as usize, ld)],
    }
}

/// The index in [`HUMAN`] of the row whose range holds `ld` among the rows of zone `zone`
/// (a [`Zone`] as a number), or the zone's last row when none does.
const fn scan_location(zone: usize, ld: u32) -> usize {
    let mut last = 0;
    let mut i = 0;
    while i < HUMAN.len() {
        let r = &HUMAN[i];
        if r.zone as usize == zone {
            last = i;
            if r.from as u32 <= ld && ld <= r.to as u32 {
                return i;
            }
        }
        i += 1;
    }
    last
}

/// [`location_in`] of every zone and Location Die result 1 to 10, as indexes into [`HUMAN`],
/// built once from the table so a Location Roll reads its row rather than searching for it.
const LOCATION_ROWS: [[u8; 10]; 4] = {
    let mut table = [[0u8; 10]; 4];
    let mut zone = 0;
    while zone < 4 {
        let mut ld = 1;
        while ld <= 10 {
            table[zone][ld as usize - 1] = scan_location(zone, ld) as u8;
            ld += 1;
        }
        zone += 1;
    }
    table
};

/// The face feature a d20 picks: read from [`FACE_ROWS`] for a d20's results, found in
/// [`FACE`] otherwise.
pub fn face_feature(d20: u32) -> &'static LocationRow {
    match FACE_ROWS.get((d20 as usize).wrapping_sub(1)) {
        Some(&i) => &FACE[i as usize],
        None => &FACE[scan_face(d20)],
    }
}

/// The index in [`FACE`] of the first row whose range holds `d20`, or the last row.
const fn scan_face(d20: u32) -> usize {
    let mut i = 0;
    while i < FACE.len() {
        if FACE[i].from as u32 <= d20 && d20 <= FACE[i].to as u32 {
            return i;
        }
        i += 1;
    }
    FACE.len() - 1
}

/// [`face_feature`] of every d20 result, as indexes into [`FACE`].
const FACE_ROWS: [u8; 20] = {
    let mut table = [0u8; 20];
    let mut d20 = 1;
    while d20 <= 20 {
        table[d20 as usize - 1] = scan_face(d20) as u8;
        d20 += 1;
    }
    table
};

/// Where a strike landed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// The zone number struck.
    pub zn: u32,
    /// The table row.
    pub row: &'static LocationRow,
    /// The side of a limb or paired feature.
    pub side: BodySide,
}

/// How a Location Roll is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aim {
    /// Zone Die sides.
    pub zone_die: u32,
    /// The zone number aimed at.
    pub zn: u32,
    /// Zone Dice rolled (1 + Precision TA); the best for `prefer` is kept.
    pub zone_dice: u32,
    /// Use the face option table for face hits.
    pub face_option: bool,
}

/// Rolls the Location Roll: `zone_dice` Zone Dice (the striker keeps the one reaching the zone
/// it prefers, by `prefer`: lower is better), extra Location Dice for extra Zone Dice reaching
/// the same zone (the best location by `prefer_location` is kept), a d2 for the side of a limb,
/// and a d20 for a face feature. `None` when every Zone Die passes the table (a miss).
pub fn roll_location<D: Dice>(
    dice: &mut D,
    aim: Aim,
    prefer: impl Fn(Zone) -> u32,
    prefer_location: impl Fn(&LocationRow) -> u32,
) -> Option<Hit> {
    let mut best: Option<(u32, Zone, u32)> = None;
    let mut same_zone = 0;
    for _ in 0..aim.zone_dice.max(1) {
        // Only the zone a Zone Die reaches is read (its number only narrates).
        let zn = zone_number(
            aim.zn,
            dice.d_by(aim.zone_die, "Zone Die", |r| {
                zone_of(zone_number(aim.zn, r))
            }),
        );
        let Some(zone) = zone_of(zn) else { continue };
        match best {
            Some((_, z, _)) if z == zone => same_zone += 1,
            Some((_, z, _)) if prefer(z) <= prefer(zone) => {}
            _ => {
                best = Some((zn, zone, 0));
                same_zone = 0;
            }
        }
    }
    let (zn, zone, _) = best?;
    let row_of = |r: u32| location_in(zone, r);
    let mut row = location_in(zone, dice.d_by(10, "Location Die (d10)", row_of));
    for _ in 0..same_zone {
        let other = location_in(zone, dice.d_by(10, "extra Location Die (d10)", row_of));
        if prefer_location(other) < prefer_location(row) {
            row = other;
        }
    }
    let mut side = BodySide::Centre;
    if matches!(zone, Arm | Leg) {
        side = if dice.d(2, "d2 (side: 1 left, 2 right)") == 1 {
            BodySide::Left
        } else {
            BodySide::Right
        };
    }
    if row.location == Face && aim.face_option {
        row = face_feature(dice.d_by(20, "d20 (face option)", face_feature));
        if matches!(row.location, Eye | Ear | Cheek) {
            side = if dice.d(2, "d2 (side: 1 left, 2 right)") == 1 {
                BodySide::Left
            } else {
                BodySide::Right
            };
        }
    }
    Some(Hit { zn, row, side })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    #[test]
    fn every_location_is_at_its_own_index_of_all() {
        for (i, location) in Location::ALL.into_iter().enumerate() {
            assert_eq!(location as usize, i, "{location}");
        }
    }

    #[test]
    fn location_example_aim_zn4_d6_roll_2_ld_7_is_the_abdomen() {
        let aim = Aim {
            zone_die: 6,
            zn: 4,
            zone_dice: 1,
            face_option: true,
        };
        let mut dice = ScriptedDice::new([2, 7]);
        let hit = roll_location(&mut dice, aim, |_| 0, |_| 0);
        assert!(dice.finish().is_ok());
        let hit = hit.map(|h| (h.zn, h.row.location, h.row.zone));
        assert_eq!(hit, Some((5, Abdomen, Torso)));
    }

    #[test]
    fn the_location_and_face_lookups_are_the_tables_searched() {
        // Every zone and Location Die result (and results no d10 shows) against a search of
        // the BODY LOCATION table as the text lays it out; every d20 against the FACE table.
        for zone in [Head, Arm, Torso, Leg] {
            let rows: Vec<&LocationRow> = HUMAN.iter().filter(|r| r.zone == zone).collect();
            for ld in 0..=12 {
                let searched = rows
                    .iter()
                    .find(|r| (u32::from(r.from)..=u32::from(r.to)).contains(&ld))
                    .or(rows.last())
                    .map(|r| r.location);
                assert_eq!(
                    Some(location_in(zone, ld).location),
                    searched,
                    "{zone:?} {ld}"
                );
            }
        }
        for d20 in 0..=21 {
            let searched = FACE
                .iter()
                .find(|r| (u32::from(r.from)..=u32::from(r.to)).contains(&d20))
                .unwrap_or(&FACE[FACE.len() - 1]);
            assert_eq!(face_feature(d20).location, searched.location, "d20 {d20}");
        }
        assert_eq!(location_in(Arm, 10).location, Hand);
        assert_eq!(face_feature(12).location, Cheek);
    }

    #[test]
    fn a_zone_die_past_the_table_misses() {
        // Aiming at ZN8 with a d4 and rolling 4 reaches ZN11: a miss.
        let aim = Aim {
            zone_die: 4,
            zn: 8,
            zone_dice: 1,
            face_option: true,
        };
        assert_eq!(
            roll_location(&mut ScriptedDice::new([4]), aim, |_| 0, |_| 0),
            None
        );
        // The example's count: aimed at ZN3, a d6 roll of 4 is ZN6.
        assert_eq!(zone_number(3, 4), 6);
    }

    #[test]
    fn every_location_die_result_has_exactly_one_row_in_each_zone() {
        for zone in [Head, Arm, Torso, Leg] {
            for ld in 1..=10u32 {
                let n = HUMAN
                    .iter()
                    .filter(|r| {
                        r.zone == zone && (u32::from(r.from)..=u32::from(r.to)).contains(&ld)
                    })
                    .count();
                assert_eq!(n, 1, "{zone:?} LD {ld}");
            }
        }
        for d20 in 1..=20u32 {
            assert_eq!(
                FACE.iter()
                    .filter(|r| (u32::from(r.from)..=u32::from(r.to)).contains(&d20))
                    .count(),
                1
            );
        }
    }

    #[test]
    fn limbs_get_a_side_and_the_face_option_a_feature() {
        let aim = Aim {
            zone_die: 6,
            zn: 1,
            zone_dice: 1,
            face_option: true,
        };
        // ZD 2: arm; LD 1: shoulder; d2 2: right.
        let hit = roll_location(&mut ScriptedDice::new([2, 1, 2]), aim, |_| 0, |_| 0);
        assert_eq!(
            hit.map(|h| (h.row.location, h.side)),
            Some((Shoulder, BodySide::Right))
        );
        // ZD 1: head; LD 7: face; d20 3: nose.
        let hit = roll_location(&mut ScriptedDice::new([1, 7, 3]), aim, |_| 0, |_| 0);
        assert_eq!(hit.map(|h| h.row.location), Some(Nose));
    }

    #[test]
    fn precision_keeps_the_preferred_zone_and_rolls_extra_location_dice_for_the_same_zone() {
        // Three d6 Zone Dice aimed at ZN1: 5, 6, 5 (torso, torso, torso); prefer the torso;
        // three Location Dice: 9 (pelvis), 2 (thorax), 6 (abdomen); prefer the thorax.
        let aim = Aim {
            zone_die: 6,
            zn: 1,
            zone_dice: 3,
            face_option: true,
        };
        let mut dice = ScriptedDice::new([5, 6, 5, 9, 2, 6]);
        let hit = roll_location(
            &mut dice,
            aim,
            |z| u32::from(z != Torso),
            |r| u32::from(r.location != Thorax),
        );
        assert!(dice.finish().is_ok());
        assert_eq!(hit.map(|h| h.row.location), Some(Thorax));
    }

    #[test]
    fn the_body_location_table_is_the_texts_shock_shades_and_triangles() {
        // BODY LOCATION: "SKULL ○ 5 · FACE ● 4 · NECK ● 5 ▽ · SHOULDER ● 3 · UPPER ARM ○ 1 ▽ ·
        // ELBOW ○ 2 ▽ · FOREARM ○ 1 ▽ · HAND 2 ▽ · THORAX ● 4 · ABDOMEN ● 4 · PELVIS ● 4 ·
        // THIGH ● 3 ▽ · KNEE ○ 2 ▽ · CALF ○ 1 ▽ · FOOT 2 ▽"; "○●● POTENTIAL BLOODLOSS ▽▽▽
        // POTENTIAL AMPUTATION". A white circle is the light shade, a filled one grey or dark
        // (the text's print does not tell those two apart), none is no bleeding.
        let text: [(u8, char, bool); 15] = [
            (5, '○', false),
            (4, '●', false),
            (5, '●', true),
            (3, '●', false),
            (1, '○', true),
            (2, '○', true),
            (1, '○', true),
            (2, ' ', true),
            (4, '●', false),
            (4, '●', false),
            (4, '●', false),
            (3, '●', true),
            (2, '○', true),
            (1, '○', true),
            (2, ' ', true),
        ];
        for (row, (shock, circle, triangle)) in HUMAN.iter().zip(text) {
            assert_eq!(row.shock, shock, "{:?}", row.location);
            let bleeding_ok = match circle {
                '○' => row.bleeding == Shade::Light,
                '●' => matches!(row.bleeding, Shade::Grey | Shade::Dark),
                _ => row.bleeding == Shade::None,
            };
            assert!(bleeding_ok, "{:?} circle {circle}", row.location);
            assert_eq!(
                row.amputation != Shade::None,
                triangle,
                "{:?}",
                row.location
            );
        }
        // "FACE OPTION d20: 1–2 EYE 5 ▽ 5–12 CHEEK 4 15–16 MOUTH 4 3–4 NOSE 5 ▽ 13–14 EAR 5 ▽
        // 17–20 JAW 4", bleeding as the face.
        let face: [(u8, u8, u8, bool); 6] = [
            (1, 2, 5, true),
            (3, 4, 5, true),
            (5, 12, 4, false),
            (13, 14, 5, true),
            (15, 16, 4, false),
            (17, 20, 4, false),
        ];
        for (row, (from, to, shock, triangle)) in FACE.iter().zip(face) {
            assert_eq!(
                (row.from, row.to, row.shock),
                (from, to, shock),
                "{:?}",
                row.location
            );
            assert_eq!(
                row.amputation != Shade::None,
                triangle,
                "{:?}",
                row.location
            );
            assert_eq!(row.bleeding, HUMAN[1].bleeding, "{:?}", row.location);
        }
    }
}
