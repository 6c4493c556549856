//! The HEALING SEQUENCE's step 4 INJURY TYPE and step 5 TREATMENT: the TREATMENTS and the
//! TREATMENT ROLL tables as data (treatment, modifier, the BRD row, and the shades lost in
//! extraction: infection chance and permanent impairment), the Treatment Roll (difficulty,
//! delay, multiple healers in rising Physician Index, a CF replacing all), the Grievous Injury
//! Maximum HR, untreated injuries, surgery and extraction opening a Bleeder, Grievous frost with
//! no Amputation possible, and the grim wound's daily Shock Roll.

use super::body::Zone;
use super::healing::{Cause, Healing, Timeline};
use super::impairment::zone_of_location;
use super::injury::{Aspect, Class, ShockState, severity};
use super::skill::{SuccessLevel, Test};
use crate::dice::Dice;
use crate::log::Log;

/// Treatment types by aspect, as the tables have them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Blunt.
    Blunt,
    /// Edge.
    Edge,
    /// Point.
    Point,
    /// Projectile: arrows and bolts.
    Projectile,
    /// Fire.
    Fire,
    /// Frost: Warming, or for Grievous limbs and facial features Amputation.
    Frost,
}

/// What a treatment result does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// The injury heals at this Healing Rate.
    Hr(u8),
    /// The treatment heals the injury at once.
    Heal,
    /// Amputation (Grievous frost): a new Edge injury of this level replaces the frost injury.
    Amputate(u8),
}

/// A required treatment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Treatment {
    /// Compress.
    Cmp,
    /// Set and splint.
    Set,
    /// Surgery: a F or CF causes a new Bleeder.
    Sur,
    /// Clean and dress.
    Cln,
    /// Extraction: a F or CF on a Grievous injury causes a Bleeder.
    Ext,
    /// Warming.
    Wrm,
    /// Amputation.
    Amp,
}

/// One TREATMENT ROLL table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Table {
    /// `[success level CF..CS][severity M, S, G]`.
    pub effect: [[Effect; 3]; 4],
    /// Treatment by severity.
    pub treatment: [Treatment; 3],
    /// Modifier by severity.
    pub modifier: [i32; 3],
    /// The BRD row: the modifier from a broadhead projectile, by severity (0 where the table
    /// has no such row).
    pub broadhead: [i32; 3],
    /// Infection chance `[success level][severity]` (a shade lost in extraction).
    pub infection: [[bool; 3]; 4],
    /// Permanent impairment chance `[success level][severity]` (a shade lost in extraction).
    pub impairment: [[bool; 3]; 4],
}

use Effect::{Amputate, Heal, Hr};

const STANDARD: [[Effect; 3]; 4] = [
    [Hr(4), Hr(3), Hr(2)],
    [Hr(5), Hr(4), Hr(3)],
    [Hr(6), Hr(5), Hr(4)],
    [Heal, Hr(6), Hr(5)],
];
const FIRE: [[Effect; 3]; 4] = [
    [Hr(4), Hr(2), Hr(1)],
    [Hr(5), Hr(3), Hr(2)],
    [Hr(6), Hr(4), Hr(3)],
    [Heal, Hr(5), Hr(4)],
];

/// Infection chance of open wounds (Edge, Point, Projectile, Fire): Serious and Grievous at
/// CF and F, Minor at CF. Pinned by the text: S2E F (HR4) and G4E F (HR3) carry it.
const OPEN: [[bool; 3]; 4] = [
    [true, true, true],
    [false, true, true],
    [false, false, false],
    [false, false, false],
];
/// Blunt: only the compound fracture (Grievous) at CF and F.
const CLOSED: [[bool; 3]; 4] = [
    [false, false, true],
    [false, false, true],
    [false, false, false],
    [false, false, false],
];
/// Permanent impairment: Grievous injuries at CF, F and S (HR4 or less), Serious at CF. Pinned:
/// G4E F (HR3) carries it.
const LASTING: [[bool; 3]; 4] = [
    [false, true, true],
    [false, false, true],
    [false, false, true],
    [false, false, false],
];

/// The TREATMENT ROLL table of a kind, read in place (a treatment copies no table).
pub fn table(kind: Kind) -> &'static Table {
    &TABLES[kind as usize]
}

/// The tables in [`Kind`]'s order, built once: a treatment reads its row without copying a
/// table.
static TABLES: [Table; 6] = [
    build_table(Kind::Blunt),
    build_table(Kind::Edge),
    build_table(Kind::Point),
    build_table(Kind::Projectile),
    build_table(Kind::Fire),
    build_table(Kind::Frost),
];

const fn build_table(kind: Kind) -> Table {
    match kind {
        Kind::Blunt => Table {
            effect: STANDARD,
            treatment: [Treatment::Cmp, Treatment::Set, Treatment::Sur],
            modifier: [30, 10, 0],
            broadhead: [0, 0, 0],
            infection: CLOSED,
            impairment: LASTING,
        },
        Kind::Edge => Table {
            effect: STANDARD,
            treatment: [Treatment::Cln, Treatment::Cln, Treatment::Sur],
            modifier: [20, 10, 0],
            broadhead: [0, 0, 0],
            infection: OPEN,
            impairment: LASTING,
        },
        Kind::Point => Table {
            effect: STANDARD,
            treatment: [Treatment::Cln, Treatment::Cln, Treatment::Sur],
            modifier: [10, 0, -10],
            broadhead: [0, 0, 0],
            infection: OPEN,
            impairment: LASTING,
        },
        Kind::Projectile => Table {
            effect: STANDARD,
            treatment: [Treatment::Cln, Treatment::Ext, Treatment::Ext],
            modifier: [10, 0, -10],
            broadhead: [0, -20, -30],
            infection: OPEN,
            impairment: LASTING,
        },
        Kind::Frost => Table {
            effect: [
                [Hr(4), Hr(3), Amputate(5)],
                [Hr(5), Hr(4), Amputate(4)],
                [Heal, Hr(5), Amputate(3)],
                [Heal, Hr(6), Amputate(2)],
            ],
            treatment: [Treatment::Wrm, Treatment::Wrm, Treatment::Amp],
            modifier: [40, 20, 0],
            broadhead: [0, 0, 0],
            infection: [[false; 3]; 4],
            impairment: LASTING,
        },
        Kind::Fire => Table {
            effect: FIRE,
            treatment: [Treatment::Cmp, Treatment::Cln, Treatment::Cln],
            modifier: [20, 10, 0],
            broadhead: [0, 0, 0],
            infection: OPEN,
            impairment: LASTING,
        },
    }
}

fn zone_index(zone: Zone) -> u8 {
    match zone {
        Zone::Head => 0,
        Zone::Torso => 1,
        Zone::Arm => 2,
        Zone::Leg => 3,
    }
}

/// The column of a severity in the TREATMENT ROLL tables (M, S, G).
pub(super) fn severity_index(il: u8) -> usize {
    severity(il) as usize
}

/// The treatment an injury of this kind and level requires: the table's, except that a
/// projectile's S2 takes Clean & Dress ("EXT* S3 injury only; S2 injury uses CLN treatment").
fn required_treatment(kind: Kind, t: &Table, il: u8) -> Treatment {
    let sev = severity_index(il);
    if kind == Kind::Projectile && sev == 1 && il < 3 {
        Treatment::Cln
    } else {
        t.treatment[sev]
    }
}

/// The row of the table whose effects apply after the Grievous HR cap: the healer's Physician
/// Index (or the CF level, if higher) caps the HR, and "the HR cap brings the other effects
/// commensurate to its level", so the row is the one with the capped HR.
pub fn capped_row(t: &Table, level: SuccessLevel, sev: usize, index: i32) -> usize {
    let row = level as usize;
    if sev != 2 {
        return row;
    }
    let (Hr(cf_hr), Hr(hr)) = (t.effect[0][2], t.effect[row][2]) else {
        return row;
    };
    let cap = index.max(i32::from(cf_hr));
    if i32::from(hr) <= cap {
        return row;
    }
    (0..row)
        .rev()
        .find(|&r| matches!(t.effect[r][2], Hr(h) if i32::from(h) <= cap))
        .unwrap_or(0)
}

/// A treated injury on the healing clock at `site` (zone, Location Shock), with the effects of
/// its table row. Always in line: out of line, the wound is written field by field and then
/// copied into its slot whole, a wide read that waits for those writes.
#[inline(always)]
pub(super) fn wound(
    il: u8,
    hr: u8,
    row: usize,
    t: &Table,
    grim: bool,
    cauterised: bool,
    site: (u8, i32),
) -> Healing {
    Healing {
        il: i32::from(il),
        hr: i32::from(hr),
        infection_chance: t.infection[row][severity_index(il)],
        lasting: t.impairment[row][severity_index(il)],
        grim,
        cauterised,
        next_roll: 0,
        born: 0,
        minor_day: if il <= 1 { 0 } else { u32::MAX },
        zone: site.0,
        location_shock: site.1,
        live: true,
    }
}

/// Limbs and facial features: what Amputation can take.
pub(super) fn amputable(location: super::body::Location) -> bool {
    use super::body::Location::{Cheek, Ear, Eye, Jaw, Mouth, Nose};
    matches!(zone_of_location(location), Zone::Arm | Zone::Leg)
        || matches!(location, Eye | Nose | Cheek | Ear | Mouth | Jaw)
}

/// The best Treatment Roll of these healers ([`Healers::rolling`]: rising Physician Index) for
/// one injury: the highest level applies, except that any CF replaces all others. Returns the
/// level and the Physician Index of the healer whose level applies.
pub(super) fn treatment_rolls<D: Dice, L: Log>(
    healers: &[i32],
    eml_without_healer: i32,
    what: &dyn Fn() -> String,
    dice: &mut D,
    log: &mut L,
) -> (SuccessLevel, i32) {
    let mut best: Option<(SuccessLevel, i32)> = None;
    for &ml in healers {
        let index = ml / 10;
        let eml = ml + eml_without_healer;
        let roll = Test::roll(dice, eml, "d100 (Treatment Roll: Physician)");
        let eml = roll.eml;
        log.say(|| {
            format!(
                "{}: Treatment Roll {} vs EML{eml}: {}",
                what(),
                roll.roll,
                roll.level.abbreviation()
            )
        });
        best = Some(match best {
            Some((SuccessLevel::CriticalFailure, i)) => (SuccessLevel::CriticalFailure, i),
            _ if roll.level == SuccessLevel::CriticalFailure => {
                (SuccessLevel::CriticalFailure, index)
            }
            Some(b) => b.max((roll.level, index)),
            None => (roll.level, index),
        });
    }
    best.unwrap_or((SuccessLevel::CriticalFailure, 0))
}

impl<D: Dice, L: Log, S: Fn(usize) -> i32> Timeline<'_, D, L, S> {
    /// A grim wound's daily Shock Roll (step 4 of the Injury Sequence with the wound's Location
    /// Shock and Injury Level, against Shock ML − fatigue): the state it brings, stacked on
    /// the day's others.
    pub(super) fn grim_shock(&mut self, location_shock: i32, il: i32) -> Result<(), Cause> {
        let s = super::injury::shock(
            self.dice,
            location_shock,
            il,
            self.patient.shock_ml - self.fatigue(),
        );
        let before = self.shock;
        self.shock = before.stack(s.state);
        if self.shock > before {
            self.induced = (location_shock, il);
        }
        let (day, state) = (self.day, self.shock);
        self.log.say(|| {
            format!(
                "day {day}: a grim wound's Shock Roll {} vs EML{}: {}: SHK {}: {}",
                s.test.roll,
                s.test.eml,
                s.test.level.abbreviation(),
                s.index,
                state.abbreviation()
            )
        });
        if state == ShockState::Killed {
            self.log.say(|| "dies of the grim wound".to_owned());
            return Err(self.dies(Cause::GrimWound));
        }
        Ok(())
    }

    /// Steps 4 and 5 for injury `i` on day `self.day`: the Treatment Roll(s), the cap, the
    /// result's effects (HR, infection chance, permanent impairment, a grim wound, a new
    /// Bleeder, healing at once, amputation).
    /// Writes the treated wound into `slot` in place (a copy of a record just built field by
    /// field would wait on its stores).
    /// `slot` holds, before, the day the injury was incurred (`born`: 0 after a fight alone),
    /// which the delay penalty counts from and the treated wound keeps.
    pub(super) fn treat(&mut self, i: usize, slot: &mut Healing) -> Result<(), Cause> {
        let born = slot.born;
        let Some(injury) = self.injuries.get(i).copied() else {
            *slot = Healing::default();
            return Ok(());
        };
        let care = self.care;
        // Read by the aspect from a table, not matched: the aspect is the dice's.
        const KIND_OF_ASPECT: [Kind; 5] = {
            let mut kinds = [Kind::Blunt; 5];
            kinds[Aspect::Blunt as usize] = Kind::Blunt;
            kinds[Aspect::Edge as usize] = Kind::Edge;
            kinds[Aspect::Point as usize] = Kind::Point;
            kinds[Aspect::Fire as usize] = Kind::Fire;
            kinds[Aspect::Frost as usize] = Kind::Frost;
            kinds
        };
        let kind = if injury.projectile & (injury.aspect == Aspect::Point) {
            Kind::Projectile
        } else {
            KIND_OF_ASPECT[injury.aspect as usize]
        };
        // Area fire and frost: one Treatment Roll at −20, Healing Rolls CF on a failure ending
        // 3, 5, 8 or 0, a Grievous one always a grim wound, impairment like the head's.
        let area = injury.class == Class::Area;
        let zone = if area {
            zone_index(Zone::Head)
        } else {
            zone_index(zone_of_location(injury.location))
        };
        let location_shock = self.injury_shock(i).0;
        let t = table(kind);
        let sev = severity_index(injury.il);
        let healer = care.has_healer();
        let site = (zone, location_shock);
        if kind == Kind::Frost && sev == 2 && (!amputable(injury.location) || !healer || area) {
            // No treatment: "Grievous Frost injuries to all other locations have no
            // treatment—they are automatically grim wounds", at the CF rate of a Grievous one.
            self.log.say(|| {
                format!(
                    "{} IL{}: Grievous frost with no Amputation possible: a grim wound",
                    injury.location, injury.il
                )
            });
            *slot = wound(injury.il, 2, 0, table(Kind::Edge), true, area, site);
            slot.incurred(born);
            slot.infection_chance = false;
            slot.lasting = true;
            return Ok(());
        }
        let treatment = required_treatment(kind, t, injury.il);
        let boxed = matches!(treatment, Treatment::Sur | Treatment::Ext | Treatment::Amp);
        let (level, index) = if healer {
            let eml = t.modifier[sev]
                + if injury.broadhead {
                    t.broadhead[sev]
                } else {
                    0
                }
                + if treatment == Treatment::Cmp && care.frozen_compress {
                    10
                } else {
                    0
                }
                - if area { 20 } else { 0 }
                - 5 * (self.day - slot.born) as i32
                + if boxed { care.dexterity_modifier } else { 0 };
            let what = || format!("treating {} IL{}", injury.location, injury.il);
            // "Healers make a single Treatment Roll for an Area injury": the best healer.
            let healers = if area {
                care.healers.best_alone()
            } else {
                care.healers.rolling()
            };
            treatment_rolls(healers, eml, &what, self.dice, self.log)
        } else {
            self.log.say(|| {
                format!(
                    "{} IL{} is untreated: a CF result",
                    injury.location, injury.il
                )
            });
            (SuccessLevel::CriticalFailure, 0)
        };
        let row = capped_row(t, level, sev, index);
        if row != level as usize {
            let effect = t.effect[row][sev];
            self.log.say(|| {
                let hr = match effect {
                    Hr(hr) => format!("HR{hr}"),
                    other => format!("{other:?}"),
                };
                format!("  the Grievous HR cap (Physician Index {index}): the {hr} row")
            });
        }
        // Surgery failing (F or CF), or extraction failing on a Grievous injury, causes a new
        // Bleeder: the healer at hand works to stop it.
        let new_bleeder = healer
            && row <= SuccessLevel::Failure as usize
            && (treatment == Treatment::Sur || (treatment == Treatment::Ext && sev == 2));
        if new_bleeder {
            self.log
                .say(|| "  the treatment opens a new Bleeder".to_owned());
            self.treatment_bleeder(i, None)?;
        }
        match t.effect[row][sev] {
            Heal => {
                self.log.say(|| "  healed by the treatment".to_owned());
                *slot = Healing::default();
            }
            Hr(hr) => {
                *slot = wound(
                    injury.il,
                    hr,
                    row,
                    t,
                    sev == 2 && (row == 0 || area),
                    self.cauterised[i] || area,
                    site,
                );
                slot.incurred(born);
            }
            Amputate(edge_il) => *slot = self.amputation_wound(i, edge_il, site)?,
        }
        Ok(())
    }
}
