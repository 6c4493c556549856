//! Injury sequence steps 2 to 4: impact against armour by aspect, the INJURY table, compound
//! injuries, glancing blows, bleeders, amputation tests, and the shock index, roll and state
//! with its stacking and rerolls. Injuries are kept in a fixed-size record per fighter so the
//! hot path never allocates.

use super::body::{BodySide, Location, Shade};
use super::skill::{SuccessLevel, Test};
use crate::dice::Dice;

/// The aspect of a strike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
pub enum Aspect {
    /// B.
    #[serde(rename = "B")]
    Blunt,
    /// E.
    #[serde(rename = "E")]
    Edge,
    /// P.
    #[serde(rename = "P")]
    Point,
    /// F: fire.
    #[serde(rename = "F")]
    Fire,
    /// F: frost (armour by its F value; its own treatment table).
    #[serde(rename = "frost")]
    Frost,
}

impl Aspect {
    /// Index into per-aspect arrays (B, E, P, F).
    pub fn index(self) -> usize {
        (self as usize).min(3)
    }

    /// The letter.
    pub fn letter(self) -> char {
        ['B', 'E', 'P', 'F'][self.index()]
    }
}

/// Injury severity. The discriminants are the columns of the M, S, G tables (`as usize`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// M (IL1).
    Minor = 0,
    /// S (IL2–3).
    Serious = 1,
    /// G (IL4–5).
    Grievous = 2,
}

/// The severity of an injury level.
#[inline]
pub fn severity(il: u8) -> Severity {
    // Read from a table: the level comes from the dice, so a branch on it is a guess.
    const BY_LEVEL: [Severity; 6] = [
        Severity::Minor,
        Severity::Minor,
        Severity::Serious,
        Severity::Serious,
        Severity::Grievous,
        Severity::Grievous,
    ];
    BY_LEVEL[usize::from(il.min(5))]
}

/// The INJURY table: the least effective impact for IL1 to IL5.
pub const INJURY_THRESHOLDS: [u32; 5] = [1, 5, 10, 15, 20];

/// The injury level an effective impact inflicts (0: none).
pub fn injury_level(effective: i32) -> u8 {
    INJURY_THRESHOLDS
        .iter()
        .filter(|&&t| effective >= t as i32)
        .count() as u8
}

/// Which kinds of injury compound with each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// Blunt, Edge, Point strikes.
    Strike,
    /// Fire and Frost injuries compound only with each other.
    FireFrost,
    /// Area injuries compound only with other Area injuries.
    Area,
}

/// One injury as the healing sequence will need it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Injury {
    /// Where.
    pub location: Location,
    /// Which side.
    pub side: BodySide,
    /// The strike's aspect.
    pub aspect: Aspect,
    /// Injury level 1–5.
    pub il: u8,
    /// Compounding class.
    pub class: Class,
    /// A Bleeder.
    pub bleeder: bool,
    /// An impaled projectile (an arrow or bolt causing S3 or worse).
    pub impaled: bool,
    /// From an arrow or bolt: treated by the Projectile table.
    pub projectile: bool,
    /// From a broadhead arrow: the Projectile table's BRD row.
    pub broadhead: bool,
    /// The location was severed.
    pub severed: bool,
    /// A G5 that compounded (Injury Shock 6).
    pub compounded_g5: bool,
    /// The order the injury was received in, for "the most recent".
    pub order: u16,
    /// A Minor injury whose Shock Roll failed: it impairs at once (otherwise only after ten
    /// minutes, when a duel is over).
    pub impairs: bool,
}

impl Injury {
    /// A plain injury of this level and aspect at a location (right side; fire and frost in
    /// their own compounding class); bleeding, projectile and the rest as the caller sets.
    pub fn new(location: Location, aspect: Aspect, il: u8) -> Injury {
        Injury {
            location,
            side: BodySide::Right,
            aspect,
            il,
            class: if matches!(aspect, Aspect::Fire | Aspect::Frost) {
                Class::FireFrost
            } else {
                Class::Strike
            },
            bleeder: false,
            impaled: false,
            projectile: false,
            broadhead: false,
            severed: false,
            compounded_g5: false,
            order: 0,
            impairs: false,
        }
    }

    /// Its place, location and side, as a number below 64 (the bit of
    /// [`Injuries`]' sets of places).
    #[inline]
    fn place(&self) -> u32 {
        self.location as u32 * 3 + self.side as u32
    }

    /// Its severity.
    pub fn severity(&self) -> Severity {
        severity(self.il)
    }
}

/// Injuries a fighter can carry in one trial.
pub const MAX_INJURIES: usize = 12;

// Every place (a location on one of three sides) has its bit in a 64-bit set.
const _: () = assert!(super::body::LOCATIONS * 3 <= 64);

/// A fighter's injuries, fixed-size.
#[derive(Clone, Copy, Debug)]
pub struct Injuries {
    /// The first `len` are the injuries; the rest are unused.
    items: [Injury; MAX_INJURIES],
    len: usize,
    received: u16,
    /// The places ([`Injury::place`]) an injury was added to, as a bit set.
    places: u64,
    /// The places a second injury was added to: only there can an injury compound. Both sets
    /// are only ever added to, so a place whose injury gave way in a full record stays in
    /// them; `compound` then looks at the record itself.
    crowded: u64,
}

impl Default for Injuries {
    fn default() -> Self {
        Injuries {
            // The unused slots hold a blank whose fields are all the first of their kinds,
            // so a fresh record is zeroed memory, written a vector at a time.
            items: [Injury {
                side: BodySide::Centre,
                ..Injury::new(Location::Skull, Aspect::Blunt, 0)
            }; MAX_INJURIES],
            len: 0,
            received: 0,
            places: 0,
            crowded: 0,
        }
    }
}

impl Injuries {
    /// The injuries, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &Injury> {
        self.items[..self.len].iter()
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.len
    }

    /// None yet.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds an injury; when full, the least severe old one gives way (a record of 12 injuries
    /// is far past any survivable fight). Returns its index.
    pub fn add(&mut self, mut injury: Injury) -> usize {
        injury.order = self.received;
        self.received = self.received.saturating_add(1);
        let place = 1u64 << injury.place();
        self.crowded |= self.places & place;
        self.places |= place;
        if self.len < MAX_INJURIES {
            self.items[self.len] = injury;
            self.len += 1;
            return self.len - 1;
        }
        let weakest = (0..self.len).min_by_key(|&i| self.items[i].il).unwrap_or(0);
        self.items[weakest] = injury;
        weakest
    }

    /// The injury at an index.
    pub fn get(&self, index: usize) -> Option<&Injury> {
        self.items[..self.len].get(index)
    }

    /// The injury at an index, to change.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut Injury> {
        self.items[..self.len].get_mut(index)
    }

    /// Compound injury (step 3.1): with other injuries of the same class in the same location,
    /// a d10 at or under their total IL raises the highest-IL one (the most recent of equals)
    /// by one; a G5 stays 5 but counts Injury Shock 6. Returns the index raised.
    pub fn compound<D: Dice>(&mut self, new: usize, dice: &mut D) -> Option<usize> {
        let n = *self.get(new)?;
        // The first injury added to its place has no others there: no pass over the record.
        if self.crowded >> n.place() & 1 == 0 {
            return None;
        }
        // Non-short-circuit `&`: the three comparisons are data, not three branches on it.
        let same =
            |x: &Injury| (x.location == n.location) & (x.side == n.side) & (x.class == n.class);
        // One pass: the others of its class at its location, and the total IL of them all.
        let mut others = 0;
        let mut total = 0u32;
        for x in self.iter() {
            let counted = same(x);
            others += u32::from(counted & (x.order != n.order));
            total += u32::from(x.il) * u32::from(counted);
        }
        if others == 0 {
            return None;
        }
        if dice.d(10, "d10 (compound injury)") > total {
            return None;
        }
        let target = (0..self.len)
            .filter(|&i| same(&self.items[i]))
            .max_by_key(|&i| (self.items[i].il, self.items[i].order))?;
        let injury = self.get_mut(target)?;
        if injury.il >= 5 {
            injury.compounded_g5 = true;
        } else {
            injury.il += 1;
        }
        Some(target)
    }
}

/// A glancing blow (step 3.2): an Edge or Point strike of effective impact 1 to 4 against
/// rigid armour inflicts no M1, but Injury Shock 1 and +10 to the Shock roll.
pub fn glancing(aspect: Aspect, effective: i32, rigid: bool) -> bool {
    rigid & matches!(aspect, Aspect::Edge | Aspect::Point) & (1..=4).contains(&effective)
}

/// The BLEEDING table: for each circle shade (white, grey, black), which aspects make a
/// Bleeder of an S3, a G4 and a G5 injury, as bit sets over (B, E, P, F).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BleedingTable {
    /// `[shade][S3, G4, G5, other]` aspect masks, indexed by [`Shade`] (`None` first: no
    /// symbol, nothing bleeds) and by the level's column (an injury of another level: nothing).
    pub cells: [[u8; 4]; 4],
}

const B: u8 = 1;
const E: u8 = 2;
const P: u8 = 4;

impl Default for BleedingTable {
    /// White: only G5 (E, P, B). Grey: G4 (E, P), G5 (E, P, B). Black: S3 (E), G4 (E, P),
    /// G5 (E, P, B).
    fn default() -> Self {
        BleedingTable {
            cells: [
                [0, 0, 0, 0],
                [0, 0, E | P | B, 0],
                [0, E | P, E | P | B, 0],
                [E, E | P, E | P | B, 0],
            ],
        }
    }
}

impl BleedingTable {
    /// Whether an injury of level `il` and `aspect` in a location of circle `shade` bleeds.
    pub fn bleeds(&self, shade: Shade, il: u8, aspect: Aspect) -> bool {
        // Read from tables, not matched: the shade, the level and the aspect come from the
        // dice, so a jump on them is a guess.
        const COLUMN_OF_LEVEL: [usize; 7] = [3, 3, 3, 0, 1, 2, 3];
        const BIT_OF_ASPECT: [u8; 5] = {
            let mut bits = [0; 5];
            bits[Aspect::Blunt as usize] = B;
            bits[Aspect::Edge as usize] = E;
            bits[Aspect::Point as usize] = P;
            bits
        };
        let column = COLUMN_OF_LEVEL[usize::from(il.min(6))];
        self.cells[shade as usize][column] & BIT_OF_ASPECT[aspect as usize] != 0
    }
}

/// The Strength-test modifier of an amputation triangle: +20 white, 0 grey, −20 black.
pub fn amputation_modifier(shade: Shade) -> Option<i32> {
    match shade {
        Shade::None => None,
        Shade::Light => Some(20),
        Shade::Grey => Some(0),
        Shade::Dark => Some(-20),
    }
}

/// The outcome of an amputation test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Amputation {
    /// The Strength test.
    pub test: Test,
    /// The location was severed (CF or F).
    pub severed: bool,
    /// The injury becomes a Bleeder (CF always; F where the location bleeds).
    pub bleeder: bool,
    /// The Shock roll takes −20 (S).
    pub shock_penalty: bool,
}

/// The amputation test (step 3.4) for a G5 Edge injury in a location with a triangle.
pub fn amputation_test<D: Dice>(
    dice: &mut D,
    strength_ml: i32,
    triangle: Shade,
    circle: Shade,
) -> Option<Amputation> {
    let modifier = amputation_modifier(triangle)?;
    let test = Test::roll(
        dice,
        strength_ml + modifier,
        "d100 (amputation: Strength test)",
    );
    let (severed, bleeder, shock_penalty) = match test.level {
        SuccessLevel::CriticalFailure => (true, true, false),
        SuccessLevel::Failure => (true, circle != Shade::None, false),
        SuccessLevel::Success => (false, false, true),
        SuccessLevel::CriticalSuccess => (false, false, false),
    };
    Some(Amputation {
        test,
        severed,
        bleeder,
        shock_penalty,
    })
}

/// A shock state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ShockState {
    /// No effect.
    #[default]
    None,
    /// STN.
    Stunned,
    /// INC.
    Incapacitated,
    /// UNC.
    Unconscious,
    /// KIA.
    Killed,
}

/// [`ShockState::stack`] for every pair: STN on STN is INC, INC on INC is UNC, otherwise the
/// worse of the two.
const STACKED: [[ShockState; 5]; 5] = {
    use ShockState::{Incapacitated, None, Stunned, Unconscious};
    const ALL: [ShockState; 5] = ShockState::ALL;
    let mut table = [[None; 5]; 5];
    let mut a = 0;
    while a < 5 {
        let mut b = 0;
        while b < 5 {
            table[a][b] = match (ALL[a], ALL[b]) {
                (Stunned, Stunned) => Incapacitated,
                (Incapacitated, Incapacitated) => Unconscious,
                _ if a >= b => ALL[a],
                _ => ALL[b],
            };
            b += 1;
        }
        a += 1;
    }
    table
};

impl ShockState {
    /// Every state, mildest first (a state's index into tables).
    pub const ALL: [ShockState; 5] = [
        ShockState::None,
        ShockState::Stunned,
        ShockState::Incapacitated,
        ShockState::Unconscious,
        ShockState::Killed,
    ];

    /// The state of a Shock State Index: 6 or less none, 7 STN, 8 INC, 9 UNC, 10+ KIA.
    pub fn of_index(shk: i32) -> ShockState {
        match shk {
            i32::MIN..=6 => ShockState::None,
            7 => ShockState::Stunned,
            8 => ShockState::Incapacitated,
            9 => ShockState::Unconscious,
            _ => ShockState::Killed,
        }
    }

    /// A new state on top of the current one: STN on STN becomes INC, INC on INC becomes UNC;
    /// otherwise the more severe applies.
    #[inline]
    pub const fn stack(self, new: ShockState) -> ShockState {
        // Read from a table: the states come from dice, so a branch on them is a guess.
        STACKED[self as usize][new as usize]
    }

    /// The usual abbreviation.
    pub fn abbreviation(self) -> &'static str {
        match self {
            ShockState::None => "none",
            ShockState::Stunned => "STN",
            ShockState::Incapacitated => "INC",
            ShockState::Unconscious => "UNC",
            ShockState::Killed => "KIA",
        }
    }
}

/// The Shock roll's addition to the index: CF +2, F +1, S 0, CS −1.
pub fn shock_roll_modifier(level: SuccessLevel) -> i32 {
    match level {
        SuccessLevel::CriticalFailure => 2,
        SuccessLevel::Failure => 1,
        SuccessLevel::Success => 0,
        SuccessLevel::CriticalSuccess => -1,
    }
}

/// The shock of one injury (step 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shock {
    /// The Shock roll.
    pub test: Test,
    /// The Shock State Index.
    pub index: i32,
    /// The state it maps to.
    pub state: ShockState,
}

/// Step 4: Location Shock + Injury Shock + the Shock roll (against Shock ML with its modifiers:
/// fatigue, +10 for a glancing blow, −20 after an S amputation test).
pub fn shock<D: Dice>(
    dice: &mut D,
    location_shock: i32,
    injury_shock: i32,
    shock_eml: i32,
) -> Shock {
    let test = Test::roll(dice, shock_eml, "d100 (Shock roll)");
    let index = location_shock + injury_shock + shock_roll_modifier(test.level);
    Shock {
        test,
        index,
        state: ShockState::of_index(index),
    }
}

/// Extended Shock's starting Healing Rate, with a coma for a CF while unconscious.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExtendedShock {
    /// The starting HR.
    pub hr: u8,
    /// Lapses into a coma.
    pub coma: bool,
}

/// What a Shock Reroll (Shock ML − 20) does to an INC or UNC character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reroll {
    /// CF: Extended Shock HR4 (and a coma when UNC); F: Extended Shock HR5. The state stays.
    Extended(ExtendedShock),
    /// S: becomes Stunned.
    Stunned,
    /// CS: the state is removed.
    Recovered,
}

/// The Shock Reroll.
pub fn shock_reroll<D: Dice>(
    dice: &mut D,
    shock_ml: i32,
    penalty: i32,
    state: ShockState,
) -> (Test, Reroll) {
    let test = Test::roll(dice, shock_ml - penalty, "d100 (Shock Reroll)");
    let reroll = match test.level {
        SuccessLevel::CriticalFailure => Reroll::Extended(ExtendedShock {
            hr: 4,
            coma: state == ShockState::Unconscious,
        }),
        SuccessLevel::Failure => Reroll::Extended(ExtendedShock { hr: 5, coma: false }),
        SuccessLevel::Success => Reroll::Stunned,
        SuccessLevel::CriticalSuccess => Reroll::Recovered,
    };
    (test, reroll)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    fn injury(location: Location, aspect: Aspect, il: u8) -> Injury {
        Injury {
            class: Class::Strike,
            ..Injury::new(location, aspect, il)
        }
    }

    #[test]
    fn impact_example_d10_plus_3_edge_strength_plus_1_roll_8_against_quilt_av4_is_8e() {
        let strike = 8 + 3 + 1;
        assert_eq!(strike, 12);
        let effective = strike - 4;
        assert_eq!(effective, 8);
        // Injury example: at least 5 but less than 10: S2.
        assert_eq!(injury_level(effective), 2);
        assert_eq!(severity(injury_level(effective)), Severity::Serious);
    }

    #[test]
    fn the_injury_table() {
        let levels: Vec<u8> = [0, 1, 4, 5, 9, 10, 14, 15, 19, 20, 40]
            .iter()
            .map(|&e| injury_level(e))
            .collect();
        assert_eq!(levels, vec![0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    }

    #[test]
    fn compound_example_g4_blunt_on_an_m1_edge_shoulder_rolls_4_against_tn5_and_becomes_g5() {
        let mut record = Injuries::default();
        record.add(injury(Location::Shoulder, Aspect::Edge, 1));
        let new = record.add(injury(Location::Shoulder, Aspect::Blunt, 4));
        let raised = record.compound(new, &mut ScriptedDice::new([4]));
        assert_eq!(raised, Some(new));
        assert_eq!(record.get(new).map(|i| i.il), Some(5));
        assert_eq!(
            record.get(0).map(|i| i.il),
            Some(1),
            "the M1 edge remains unchanged"
        );
        // A 6 is above TN5: nothing changes.
        let mut record = Injuries::default();
        record.add(injury(Location::Shoulder, Aspect::Edge, 1));
        let new = record.add(injury(Location::Shoulder, Aspect::Blunt, 4));
        assert_eq!(record.compound(new, &mut ScriptedDice::new([6])), None);
    }

    #[test]
    fn no_compound_roll_for_another_location_in_the_same_zone() {
        // Injury example: S2E abdomen with an M1B thorax: no roll at all.
        let mut record = Injuries::default();
        record.add(injury(Location::Thorax, Aspect::Blunt, 1));
        let new = record.add(injury(Location::Abdomen, Aspect::Edge, 2));
        let mut dice = ScriptedDice::new([]);
        assert_eq!(record.compound(new, &mut dice), None);
        assert_eq!(dice.used(), 0);
    }

    #[test]
    fn a_compounding_g5_stays_5_with_shock_6_and_ties_raise_the_most_recent() {
        let mut record = Injuries::default();
        record.add(injury(Location::Thigh, Aspect::Edge, 5));
        let new = record.add(injury(Location::Thigh, Aspect::Edge, 2));
        let raised = record.compound(new, &mut ScriptedDice::new([1]));
        assert_eq!(raised, Some(0));
        assert_eq!(
            record.get(0).map(|i| (i.il, i.compounded_g5)),
            Some((5, true))
        );
        let mut record = Injuries::default();
        record.add(injury(Location::Calf, Aspect::Edge, 2));
        let new = record.add(injury(Location::Calf, Aspect::Point, 2));
        assert_eq!(record.compound(new, &mut ScriptedDice::new([3])), Some(new));
        // Fire does not compound with a strike.
        let mut record = Injuries::default();
        record.add(injury(Location::Calf, Aspect::Edge, 2));
        let new = record.add(Injury {
            class: Class::FireFrost,
            ..injury(Location::Calf, Aspect::Fire, 2)
        });
        assert_eq!(record.compound(new, &mut ScriptedDice::new([1])), None);
    }

    #[test]
    fn glancing_blows_need_rigid_armour_an_edge_or_point_and_impact_1_to_4() {
        assert!(glancing(Aspect::Edge, 3, true));
        assert!(glancing(Aspect::Point, 1, true));
        assert!(!glancing(Aspect::Blunt, 3, true));
        assert!(!glancing(Aspect::Edge, 5, true));
        assert!(!glancing(Aspect::Edge, 3, false));
    }

    #[test]
    fn bleeding_example_a_g4_blunt_shoulder_is_not_a_bleeder_but_a_g4_edge_is() {
        let table = BleedingTable::default();
        assert!(!table.bleeds(Shade::Grey, 4, Aspect::Blunt));
        assert!(
            table.bleeds(Shade::Grey, 4, Aspect::Edge),
            "the healing example's G4E shoulder bleeds"
        );
        assert!(table.bleeds(Shade::Dark, 3, Aspect::Edge));
        assert!(!table.bleeds(Shade::Dark, 3, Aspect::Point));
        assert!(!table.bleeds(Shade::Light, 4, Aspect::Edge));
        assert!(table.bleeds(Shade::Light, 5, Aspect::Blunt));
        assert!(!table.bleeds(Shade::None, 5, Aspect::Edge));
        assert!(
            !table.bleeds(Shade::Dark, 2, Aspect::Edge),
            "S2 never bleeds"
        );
    }

    #[test]
    fn the_bleeding_table_read_whole_for_every_shade_level_and_aspect() {
        // "BLEEDING S3 G4 G5 / ○ • • EPB / ● • EP EPB / ● E EP EPB": the cells as the text
        // prints them, by shade (no circle: nothing), for IL3, IL4 and IL5; no other level and
        // no Fire or Frost strike bleeds.
        let text = [
            (Shade::Light, ["", "", "EPB"]),
            (Shade::Grey, ["", "EP", "EPB"]),
            (Shade::Dark, ["E", "EP", "EPB"]),
        ];
        let table = BleedingTable::default();
        let aspects = [
            (Aspect::Blunt, 'B'),
            (Aspect::Edge, 'E'),
            (Aspect::Point, 'P'),
            (Aspect::Fire, '-'),
            (Aspect::Frost, '-'),
        ];
        for shade in [Shade::None, Shade::Light, Shade::Grey, Shade::Dark] {
            for il in 0..=6u8 {
                for (aspect, letter) in aspects {
                    let cell = text
                        .iter()
                        .find(|(s, _)| *s == shade)
                        .and_then(|(_, cells)| cells.get(usize::from(il).wrapping_sub(3)));
                    let expected = cell.is_some_and(|c| c.contains(letter));
                    assert_eq!(
                        table.bleeds(shade, il, aspect),
                        expected,
                        "{shade:?} IL{il} {aspect:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn amputation_by_the_strength_test() {
        // Strength ML60 with a white triangle (+20): EML80. 85 is F: severed; bleeder where circled.
        let a = amputation_test(&mut ScriptedDice::new([83]), 60, Shade::Light, Shade::Light);
        assert_eq!(a.map(|a| (a.severed, a.bleeder)), Some((true, true)));
        let a = amputation_test(&mut ScriptedDice::new([83]), 60, Shade::Light, Shade::None);
        assert_eq!(
            a.map(|a| (a.severed, a.bleeder)),
            Some((true, false)),
            "F: a Bleeder only where the location bleeds"
        );
        let a = amputation_test(&mut ScriptedDice::new([85]), 60, Shade::Light, Shade::None);
        assert_eq!(
            a.map(|a| (a.severed, a.bleeder)),
            Some((true, true)),
            "CF: a Bleeder even there"
        );
        let a = amputation_test(&mut ScriptedDice::new([42]), 60, Shade::Dark, Shade::None);
        assert_eq!(
            a.map(|a| (a.test.eml, a.severed, a.shock_penalty)),
            Some((40, true, false)),
            "black: -20"
        );
        let a = amputation_test(&mut ScriptedDice::new([41]), 60, Shade::Grey, Shade::None);
        assert_eq!(
            a.map(|a| (a.severed, a.shock_penalty)),
            Some((false, true)),
            "S: not severed, Shock -20"
        );
        assert_eq!(
            amputation_test(&mut ScriptedDice::new([1]), 60, Shade::None, Shade::None),
            None
        );
    }

    #[test]
    fn shock_example_s2e_abdomen_shock_ml65_rolls_75_cf_for_shk_8_incapacitated() {
        let s = shock(&mut ScriptedDice::new([75]), 4, 2, 65);
        assert_eq!(
            (s.test.level, s.index, s.state),
            (SuccessLevel::CriticalFailure, 8, ShockState::Incapacitated)
        );
        // The Shock Reroll at the end of the next turn: EML45, 42: S: Stunned.
        let (t, r) = shock_reroll(
            &mut ScriptedDice::new([42]),
            65,
            20,
            ShockState::Incapacitated,
        );
        assert_eq!((t.eml, r), (45, Reroll::Stunned));
        // The next Shock roll against 65: 61: S: no longer Stunned.
        assert!(Test::resolve(61, 65).level.is_success());
    }

    #[test]
    fn shock_states_by_index_and_their_stacking() {
        let states: Vec<ShockState> = (5..=11).map(ShockState::of_index).collect();
        use ShockState::*;
        assert_eq!(
            states,
            vec![
                None,
                None,
                Stunned,
                Incapacitated,
                Unconscious,
                Killed,
                Killed
            ]
        );
        assert_eq!(Stunned.stack(Stunned), Incapacitated);
        assert_eq!(
            Incapacitated.stack(Incapacitated),
            Unconscious,
            "INC while INC equals UNC"
        );
        assert_eq!(Unconscious.stack(Stunned), Unconscious);
        assert_eq!(Stunned.stack(Unconscious), Unconscious);
        // Every pair, as the table holds it: "only the most severe Shock State applies at one
        // time", but for the two that raise the state.
        let all = [None, Stunned, Incapacitated, Unconscious, Killed];
        for now in all {
            for new in all {
                let expected = match (now, new) {
                    (Stunned, Stunned) => Incapacitated,
                    (Incapacitated, Incapacitated) => Unconscious,
                    _ if now > new => now,
                    _ => new,
                };
                assert_eq!(now.stack(new), expected, "{now:?} then {new:?}");
            }
        }
        // The severity of every level a strike can leave (the M, S, G columns).
        let by_level = [0, 1, 2, 3, 4, 5].map(severity);
        assert_eq!(
            by_level,
            [
                Severity::Minor,
                Severity::Minor,
                Severity::Serious,
                Severity::Serious,
                Severity::Grievous,
                Severity::Grievous
            ]
        );
        assert_eq!(
            severity(6),
            Severity::Grievous,
            "a level past 5 stays Grievous"
        );
    }

    #[test]
    fn shock_rerolls_cf_extended_hr4_with_coma_when_unconscious_f_hr5() {
        let (_, r) = shock_reroll(
            &mut ScriptedDice::new([50]),
            65,
            20,
            ShockState::Unconscious,
        );
        assert_eq!(r, Reroll::Extended(ExtendedShock { hr: 4, coma: true }));
        let (_, r) = shock_reroll(
            &mut ScriptedDice::new([50]),
            65,
            20,
            ShockState::Incapacitated,
        );
        assert_eq!(r, Reroll::Extended(ExtendedShock { hr: 4, coma: false }));
        let (_, r) = shock_reroll(
            &mut ScriptedDice::new([51]),
            65,
            20,
            ShockState::Incapacitated,
        );
        assert_eq!(r, Reroll::Extended(ExtendedShock { hr: 5, coma: false }));
        let (_, r) = shock_reroll(
            &mut ScriptedDice::new([40]),
            65,
            20,
            ShockState::Incapacitated,
        );
        assert_eq!(r, Reroll::Recovered);
    }

    #[test]
    fn the_shock_roll_adds_2_on_cf_1_on_f_0_on_s_and_takes_1_on_cs() {
        // "CF +2 SHK … F +1 SHK … S +0 SHK … CS –1 SHK": Location Shock 4 + Injury Shock 2.
        let index = |roll| shock(&mut ScriptedDice::new([roll]), 4, 2, 65).index;
        assert_eq!(index(70), 8);
        assert_eq!(index(66), 7);
        assert_eq!(index(64), 6);
        assert_eq!(index(10), 5);
    }

    #[test]
    fn an_amputation_test_cs_leaves_the_location_with_no_shock_penalty() {
        // "CS Location not severed." Strength ML60 with a white triangle (+20): 40 is a CS.
        let a = amputation_test(&mut ScriptedDice::new([40]), 60, Shade::Light, Shade::Light);
        assert_eq!(
            a.map(|a| (a.test.level, a.severed, a.bleeder, a.shock_penalty)),
            Some((SuccessLevel::CriticalSuccess, false, false, false))
        );
    }
}
