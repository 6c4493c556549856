//! The healing sequence's rule ledger as tests: a test for each rule sentence of the text's
//! HEALING SEQUENCE (steps 1–8) and of the TREATMENT tables' notes, written from the sentence:
//! scripted dice in, the sentence's consequence out. `docs/rules/zone-d100.md` quotes each
//! sentence beside the name of its test here.

use super::*;
use crate::dice::ScriptedDice;
use crate::log::VecLog;
use crate::rules::zone_d100::body::Location;
use crate::rules::zone_d100::injury::{Aspect, Class, Injury};
use crate::rules::zone_d100::location_shock;
use crate::rules::zone_d100::treatment::{Kind, Table, Treatment, table};

fn wound(location: Location, aspect: Aspect, il: u8) -> Injury {
    Injury::new(location, aspect, il)
}

fn bleeder(location: Location, aspect: Aspect, il: u8) -> Injury {
    Injury {
        bleeder: true,
        ..wound(location, aspect, il)
    }
}

fn arrow(location: Location, il: u8) -> Injury {
    Injury {
        projectile: true,
        impaled: il >= 3,
        ..wound(location, Aspect::Point, il)
    }
}

/// Healing Base 13, Strength, Endurance 60, Shock ML65 (the text's examples).
fn patient() -> Patient {
    Patient {
        healing_base: 13,
        strength_ml: 60,
        endurance_ml: 60,
        shock_ml: 65,
        fatigue: 0,
    }
}

/// Healers of these Physician MLs, there at once (`help_minutes = 0`), no tourniquet.
pub(super) fn care(mls: &[i32]) -> Care {
    let mut physicians = [0; 4];
    physicians[..mls.len()].copy_from_slice(mls);
    Care {
        healers: Healers::of(physicians),
        dexterity_modifier: 0,
        help_minutes: Some(0),
        cauterise: false,
        tourniquet: false,
        treatment_delay_days: 0,
        shelter: true,
        horizon_days: 365,
        random_period: false,
        reroll_penalty: 20,
        frozen_compress: false,
        amputate_infected_limbs: false,
    }
}

/// Nobody comes.
fn nobody() -> Care {
    Care {
        help_minutes: None,
        ..care(&[])
    }
}

fn hurt(injuries: &[Injury]) -> State {
    let mut state = State::default();
    for &i in injuries {
        state.injuries.add(i);
    }
    state.summarise();
    state
}

pub(super) struct Run {
    pub(super) out: Outcome,
    pub(super) story: String,
    dice: ScriptedDice,
}

fn run_patient(care: &Care, patient: &Patient, state: &State, dice: &[u32]) -> Run {
    let mut scripted = ScriptedDice::new(dice.to_vec());
    let mut log = VecLog::default();
    let shock_of = |i: usize| {
        state
            .injuries
            .get(i)
            .map_or(0, |x| location_shock(x.location))
    };
    let mut out = Outcome::default();
    heal(
        care,
        patient,
        state,
        shock_of,
        &mut scripted,
        &mut log,
        &mut out,
    );
    Run {
        out,
        story: log.lines.join("\n"),
        dice: scripted,
    }
}

pub(super) fn run(care: &Care, state: &State, dice: &[u32]) -> Run {
    run_patient(care, &patient(), state, dice)
}

impl Run {
    /// The lines appear in this order.
    fn says(&self, steps: &[&str]) -> &Self {
        crate::log::assert_in_order(&self.story, steps);
        self
    }

    fn never_says(&self, text: &str) -> &Self {
        assert!(
            !self.story.contains(text),
            "should not say {text:?}\n---\n{}",
            self.story
        );
        self
    }

    /// Every scripted die was used, each a valid face (the timeline may ask for more after).
    fn used_all(&self, n: usize) -> &Self {
        assert_eq!(self.dice.used(), n, "dice used\n---\n{}", self.story);
        match self.dice.error() {
            None | Some(crate::dice::ScriptError::RanOut { .. }) => {}
            Some(e) => panic!("{e}"),
        }
        self
    }
}

// ---- Step 1: bleeding ----

#[test]
fn step1_a_healer_makes_a_blood_stoppage_roll_every_five_minutes_once_there() {
    // "A healer may attempt a Blood Stoppage Roll once every 5 minutes": the healer arrives
    // after 12 minutes; the advance rolls of minutes 5 and 10 have no stoppage roll before them.
    let c = Care {
        help_minutes: Some(12),
        ..care(&[40])
    };
    run(
        &c,
        &hurt(&[bleeder(Location::Thigh, Aspect::Edge, 3)]),
        &[10, 20, 33, 30],
    )
    .says(&[
        "minute 5: Blood Loss Advance Roll 10 vs EML60: CS: 0 BP",
        "minute 10: Blood Loss Advance Roll 20 vs EML60: CS: 0 BP",
        "minute 15: Blood Stoppage Roll 33 vs EML40: S",
        "minute 15: Blood Loss Advance Roll 30 vs EML60: CS",
    ])
    .never_says("minute 20");
}

#[test]
fn step1_each_bleeder_beyond_one_costs_every_stoppage_roll_10() {
    // "the healer makes separate tests for each one, applying a cumulative –10 penalty to all
    // tests per treated bleeder beyond one."
    let two = hurt(&[
        bleeder(Location::Thigh, Aspect::Edge, 3),
        bleeder(Location::Abdomen, Aspect::Edge, 3),
    ]);
    run(&care(&[60]), &two, &[10, 15]).says(&[
        "minute 5: Blood Stoppage Roll 10 vs EML50: CS",
        "minute 5: Blood Stoppage Roll 15 vs EML50: CS",
    ]);
    let one = hurt(&[bleeder(Location::Thigh, Aspect::Edge, 3)]);
    run(&care(&[60]), &one, &[10]).says(&["minute 5: Blood Stoppage Roll 10 vs EML60: CS"]);
}

#[test]
fn step1_a_cf_stoppage_roll_bleeds_on_and_the_healer_tries_again_without_a_bonus() {
    // "CF BLEEDING CONTINUES: healer does not stop the bleeding; patient makes a Blood Loss
    // Advance Roll (below). Healer may then try again."
    run(
        &care(&[40]),
        &hurt(&[bleeder(Location::Thigh, Aspect::Edge, 3)]),
        &[45, 10, 33, 20],
    )
    .says(&[
        "minute 5: Blood Stoppage Roll 45 vs EML40: CF",
        "minute 5: Blood Loss Advance Roll 10",
        "minute 10: Blood Stoppage Roll 33 vs EML40: S",
        "minute 10: Blood Loss Advance Roll 20",
    ]);
}

#[test]
fn step1_an_f_stoppage_roll_gives_10_to_the_next_staunch_roll_only() {
    // "F BLEEDING CONTINUES: as for CF, but the healer receives +10 bonus to the next Staunch
    // treatment roll for the same bleeder." A CF in between spends the bonus.
    run(
        &care(&[40]),
        &hurt(&[bleeder(Location::Thigh, Aspect::Edge, 3)]),
        &[41, 10, 55, 20, 33, 30],
    )
    .says(&[
        "minute 5: Blood Stoppage Roll 41 vs EML40: F",
        "minute 10: Blood Stoppage Roll 55 vs EML50: CF",
        "minute 15: Blood Stoppage Roll 33 vs EML40: S",
    ]);
}

#[test]
fn step1_an_s_stops_after_one_more_advance_roll_and_a_cs_at_once() {
    // "S BLEEDING STOPPED: the healer stops the injury's bleeding *after* the patient makes one
    // more Blood Loss Advance Roll." "CS BLEEDING STOPPED IMMEDIATELY."
    let thigh = hurt(&[bleeder(Location::Thigh, Aspect::Edge, 3)]);
    let s = run(&care(&[40]), &thigh, &[33, 41]);
    s.says(&[
        "minute 5: Blood Stoppage Roll 33 vs EML40: S",
        "minute 5: Blood Loss Advance Roll 41 vs EML60: S: 1 BP (1 in all), STN",
    ])
    .never_says("minute 10");
    let cs = run(&care(&[40]), &thigh, &[40]);
    cs.says(&["minute 5: Blood Stoppage Roll 40 vs EML40: CS"])
        .never_says("Blood Loss Advance Roll");
}

#[test]
fn step1_advance_rolls_are_against_strength_without_fatigue() {
    // "The test is against STRENGTH ... (exclude all fatigue and impairment penalties)."
    let tired = Patient {
        fatigue: 30,
        ..patient()
    };
    run_patient(
        &nobody(),
        &tired,
        &hurt(&[bleeder(Location::Thigh, Aspect::Edge, 3)]),
        &[41, 41],
    )
    .says(&[
        "minute 5: Blood Loss Advance Roll 41 vs EML60: S: 1 BP (1 in all)",
        "minute 10: Blood Loss Advance Roll 41 vs EML60: S: 1 BP (2 in all)",
    ]);
}

#[test]
fn step1_advance_rolls_cf_3_f_2_s_1_cs_0_blood_loss_points() {
    let r = run(
        &nobody(),
        &hurt(&[bleeder(Location::Thigh, Aspect::Edge, 3)]),
        &[10, 41, 62, 65],
    );
    r.says(&[
        "Advance Roll 10 vs EML60: CS: 0 BP (0 in all)",
        "Advance Roll 41 vs EML60: S: 1 BP (1 in all)",
        "Advance Roll 62 vs EML60: F: 2 BP (3 in all)",
        "Advance Roll 65 vs EML60: CF: 3 BP (6 in all)",
        "dies of blood loss",
    ]);
    assert_eq!(r.out.cause, Some(Cause::BloodLoss));
}

#[test]
fn step1_each_blood_loss_point_checks_stn_inc_unc_and_the_fourth_kills() {
    // "As each box is checked off, the patient suffers the corresponding Shock State, dying
    // upon acquiring the fourth BP (KIA)." Without a healer the bleeding never stops: "Such
    // blood loss does not stop on its own."
    let r = run(
        &nobody(),
        &hurt(&[bleeder(Location::Thigh, Aspect::Edge, 3)]),
        &[41, 41, 41, 41],
    );
    r.says(&[
        "(1 in all), STN",
        "(2 in all), INC",
        "(3 in all), UNC",
        "(4 in all), KIA",
        "dies of blood loss",
    ])
    .used_all(4);
    assert!(r.out.recovery.died);
}

#[test]
fn step1_a_blood_loss_stn_ends_with_the_bleeding_and_an_inc_makes_the_shock_reroll() {
    // "A STN, INC, or UNC blood loss Shock State remains until all bleeding is stopped. The
    // character then automatically removes the STN state; or makes a Shock Reroll test if INC
    // or UNC." The reroll takes fatigue: "Shock Rerolls are also affected by Fatigue penalty"
    // (10 from the anaemia of 2 BP): 65 − 20 − 10 = EML35.
    let thigh = hurt(&[bleeder(Location::Thigh, Aspect::Edge, 3)]);
    run(&care(&[40]), &thigh, &[33, 41, 22])
        .says(&[
            "1 BP (1 in all), STN",
            "treating thigh IL3: Treatment Roll 22",
        ])
        .never_says("Shock Reroll");
    run(&care(&[40]), &thigh, &[33, 62, 30, 22]).says(&[
        "2 BP (2 in all), INC",
        "Shock Reroll (INC) 30 vs EML35: CS",
        "treating thigh IL3: Treatment Roll 22",
    ]);
}

#[test]
fn step1_anaemia_is_5_weakness_a_bp_until_the_blood_regenerates() {
    // "The character suffers 5 weakness fatigue per BP from anaemia. This remains until the
    // blood naturally regenerates (step 6)." "S BLOOD REGENERATED: reduce BP by 1. Fatigue
    // penalty lessens by 5." Neck G4E Bleeder: 3 BP and UNC; the Shock Reroll (65 − 20 − 15)
    // is a CF: Extended Shock HR4 and a coma of HR 12 − 5 − 4 = 3 (the neck's Location Shock
    // 5, IL4: "subtract the Location Shock and Injury Level of the injury that induced the
    // coma from twelve"). On day 10 the blood regenerates one BP, so the coma's Course Roll
    // takes 10 weakness, not 15: 13 × 3 − 10 = EML29.
    let r = run(
        &care(&[40]),
        &hurt(&[bleeder(Location::Neck, Aspect::Edge, 4)]),
        &[33, 65, 45, 50, 11, 12, 21, 51, 41, 51, 28],
    );
    r.says(&[
        "minute 5: Blood Loss Advance Roll 65 vs EML60: CF: 3 BP (3 in all), UNC",
        "Shock Reroll (UNC) 45 vs EML30: CF",
        "lapses into a coma, HR3",
        "Extended Shock (UNC) HR4",
        "hour 4: Extended Shock Course Roll 11 vs EML37: S: HR5",
        "hour 8: Extended Shock Course Roll 12 vs EML50: S: HR6",
        "treating neck IL4: Treatment Roll 21 vs EML40: S",
        "day 5: Healing Roll 51 vs EML52: S: IL3",
        "day 10: blood regeneration 41 vs EML60: S: 2 BP left",
        "day 10: coma Course Roll 28 vs EML29: S: HR4",
    ])
    .used_all(11);
    assert!(r.out.coma);
}

// ---- Treatments (steps 1 and 5) ----

#[test]
fn treatments_staunch_with_a_tourniquet_is_20_better_on_a_limb_only() {
    // "STAUNCH: ... Using a tourniquet on a limb bleeder grants +20 bonus."
    let with = Care {
        tourniquet: true,
        ..care(&[40])
    };
    run(
        &with,
        &hurt(&[bleeder(Location::Thigh, Aspect::Edge, 3)]),
        &[10],
    )
    .says(&["Blood Stoppage Roll 10 vs EML60"]);
    run(
        &with,
        &hurt(&[bleeder(Location::Abdomen, Aspect::Edge, 3)]),
        &[10],
    )
    .says(&["Blood Stoppage Roll 10 vs EML40"]);
}

#[test]
fn treatments_cauterisation_is_30_better_and_its_failed_healing_rolls_ending_3_5_8_0_are_cf() {
    // "CAUTERISATION: ... granting +30 bonus to the Blood Stoppage Roll ... the step 6 Healing
    // Roll is a CF if the ones die of failures is 3, 5, 8, or 0."
    let c = Care {
        cauterise: true,
        ..care(&[40])
    };
    let r = run(
        &c,
        &hurt(&[bleeder(Location::Thigh, Aspect::Edge, 3)]),
        &[33, 41, 51, 53, 50],
    );
    r.says(&[
        "Blood Stoppage Roll 33 vs EML70: S",
        "Treatment Roll 51 vs EML50: F",
        "day 5: Healing Roll 53 vs EML52: CF",
        "the injury is infected",
    ]);
    assert!(r.out.infected);
}

#[test]
fn treatments_a_failed_surgery_opens_a_new_bleeder_and_its_blood_loss_counts_fully() {
    // "SURGERY: ... A F or CF Treatment Roll causes a new Bleeder." Its Blood Loss Points bring
    // their shock state ("As each box is checked off, the patient suffers the corresponding Shock
    // State") and their anaemia like any others: 2 BP are INC, then a Shock Reroll at 65 − 20
    // − 10, and 10 weakness on the Infection Course Roll (13 × 4 − 10 anaemia − 5 infection
    // weakness = 37).
    let r = run(
        &care(&[40]),
        &hurt(&[wound(Location::Thigh, Aspect::Edge, 4)]),
        &[41, 33, 62, 30, 95, 50, 36],
    );
    r.says(&[
        "treating thigh IL4: Treatment Roll 41 vs EML40: F",
        "the treatment opens a new Bleeder",
        "minute 5: Blood Stoppage Roll 33 vs EML40: S",
        "Blood Loss Advance Roll 62 vs EML60: F: 2 BP (2 in all), INC",
        "Shock Reroll (INC) 30 vs EML35: CS",
        "day 5: Healing Roll 95 vs EML39: CF",
        "day 6: Infection Course Roll 36 vs EML37: S: HR5",
    ])
    .used_all(7);
}

#[test]
fn treatments_a_treatment_bleeders_inc_can_end_in_extended_shock_and_death() {
    // The new Bleeder's INC makes its Shock Reroll (36 vs EML35: F): Extended Shock HR5, whose
    // Course Rolls take the anaemia: "any accrued fatigue applies as a penalty".
    let r = run(
        &care(&[40]),
        &hurt(&[wound(Location::Thigh, Aspect::Edge, 4)]),
        &[41, 33, 62, 36, 50, 93, 45, 17, 50],
    );
    r.says(&[
        "Shock Reroll (INC) 36 vs EML35: F",
        "Extended Shock (INC) HR5",
        "hour 4: Extended Shock Course Roll 93 vs EML55: F: HR4",
        "hour 8: Extended Shock Course Roll 45 vs EML42: CF: HR2",
        "hour 12: Extended Shock Course Roll 17 vs EML16: F: HR1",
        "hour 16: Extended Shock Course Roll 50 vs EML5: CF: HR-1",
        "dies in Extended Shock",
    ])
    .used_all(9);
    assert_eq!(r.out.cause, Some(Cause::ExtendedShock));
}

#[test]
fn treatments_a_failed_extraction_bleeds_only_for_a_grievous_injury() {
    // "EXTRACTION: arrows and bolts causing an S3, G4, or G5 injury are impaled ... A F or CF
    // Treatment Roll with a G injury causes a Bleeder." EXT is boxed: the DEX modifier applies.
    let c = Care {
        dexterity_modifier: 5,
        ..care(&[50])
    };
    run(&c, &hurt(&[arrow(Location::Thigh, 4)]), &[46, 10]).says(&[
        "treating thigh IL4: Treatment Roll 46 vs EML45: F",
        "the treatment opens a new Bleeder",
        "Blood Stoppage Roll 10",
    ]);
    run(&c, &hurt(&[arrow(Location::Thigh, 3)]), &[56, 61])
        .says(&[
            "treating thigh IL3: Treatment Roll 56 vs EML55: F",
            "day 5: Healing Roll 61 vs EML52",
        ])
        .never_says("Bleeder");
}

#[test]
fn treatments_a_broadhead_takes_the_brd_row_and_a_projectile_s2_is_cleaned_not_extracted() {
    // "BRD BROADHEAD: the modifier from a broadhead projectile" (0, −20, −30). "EXT* S3 injury
    // only; S2 injury uses CLN treatment": no DEX modifier on an S2.
    let c = Care {
        dexterity_modifier: 5,
        ..care(&[50])
    };
    let broad = |il| Injury {
        broadhead: true,
        ..arrow(Location::Thigh, il)
    };
    run(&c, &hurt(&[broad(3)]), &[22]).says(&["Treatment Roll 22 vs EML35"]);
    run(&c, &hurt(&[broad(4)]), &[22]).says(&["Treatment Roll 22 vs EML15"]);
    run(&c, &hurt(&[broad(2)]), &[22]).says(&["Treatment Roll 22 vs EML30"]);
    run(&c, &hurt(&[broad(1)]), &[22]).says(&["Treatment Roll 22 vs EML60"]);
}

#[test]
fn treatments_sur_ext_and_amp_take_the_dex_modifier() {
    // "(Box around SUR, EXT, OR AMP): Treatment Roll includes the healer's DEX Secondary
    // Modifier." Surgery of a G4 Edge: 50 + 0 + 5; Clean & Dress of an S2 Edge: 50 + 10, no DEX.
    // Amputation of a G4 frost forearm: 60 + 0 + 5; the amputation wound (S3E) is cleaned
    // and dressed: 60 + 10, no DEX.
    let dex = |ml| Care {
        dexterity_modifier: 5,
        ..care(&[ml])
    };
    run(
        &dex(50),
        &hurt(&[wound(Location::Thigh, Aspect::Edge, 4)]),
        &[22],
    )
    .says(&["Treatment Roll 22 vs EML55"]);
    run(
        &dex(50),
        &hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]),
        &[22],
    )
    .says(&["Treatment Roll 22 vs EML60"]);
    run(
        &dex(60),
        &hurt(&[wound(Location::Forearm, Aspect::Frost, 4)]),
        &[42, 10, 31],
    )
    .says(&[
        "treating forearm IL4: Treatment Roll 42 vs EML65: S",
        "Amputation: a new E injury IL3, a Bleeder",
        "Blood Stoppage Roll 10 vs EML60: CS",
        "the amputation wound E IL3: Treatment Roll 31 vs EML70: S",
    ]);
}

// ---- Step 2: Extended Shock ----

#[test]
fn step2_a_failed_shock_reroll_is_extended_shock_and_the_best_healers_bonus_applies() {
    // "Incapacitated (INC) or Unconscious (UNC) characters who failed a Shock Reroll test
    // suffer Extended Shock." "a healer may grant a bonus ... equal to 5 times the star result
    // of a Physician SV test (one test per healer per patient; apply single highest healer's
    // bonus)": ML60 rolls 33 (S, +5), ML40 rolls 40 (CS, +10): +10.
    let mut state = hurt(&[]);
    state.shock = ShockState::Incapacitated;
    run(&care(&[60, 40]), &state, &[46, 33, 40, 11])
        .says(&[
            "Shock Reroll (INC) 46 vs EML45: F",
            "Extended Shock (INC) HR5",
            "hour 4: Extended Shock Course Roll 11 vs EML75: S: HR6",
            "whole after 0 days",
        ])
        .used_all(4);
}

#[test]
fn step2_the_healers_extended_shock_test_is_made_once_per_patient() {
    // "one test per healer per patient": a second Extended Shock (from a grim wound) uses the
    // bonus of the first test. Physician ML20 (Index 2): the CS on a G4E shoulder is capped to
    // the CF level, a grim wound and a Bleeder.
    let mut state = hurt(&[wound(Location::Shoulder, Aspect::Edge, 4)]);
    state.shock = ShockState::Incapacitated;
    run(&care(&[20]), &state, &[46, 20, 11, 20, 10, 70, 46, 12])
        .says(&[
            "Shock Reroll (INC) 46 vs EML45: F",
            "hour 4: Extended Shock Course Roll 11 vs EML75: S: HR6",
            "Treatment Roll 20 vs EML20: CS",
            "the Grievous HR cap (Physician Index 2)",
            "the treatment opens a new Bleeder",
            "day 1: a grim wound's Shock Roll 70 vs EML65: CF: SHK 9: UNC",
            "day 1: Shock Reroll (UNC) 46 vs EML45: F",
            "day 1: Extended Shock (UNC) HR5",
            "hour 4: Extended Shock Course Roll 12 vs EML75: S: HR6",
        ])
        .used_all(8);
}

#[test]
fn step2_extended_shock_dies_at_hr0_and_takes_the_fights_fatigue() {
    // "When HR falls to 0 or less, the patient dies"; "any accrued fatigue applies as a penalty
    // to the Course Roll" (fatigue 10: 13 × 4 − 10 = 42).
    let mut state = hurt(&[]);
    state.shock = ShockState::Incapacitated;
    state.extended_shock = Some(4);
    let tired = Patient {
        fatigue: 10,
        ..patient()
    };
    let r = run_patient(&nobody(), &tired, &state, &[55, 30]);
    r.says(&[
        "hour 4: Extended Shock Course Roll 55 vs EML42: CF: HR2",
        "hour 8: Extended Shock Course Roll 30 vs EML16: CF: HR0",
        "dies in Extended Shock",
    ]);
    assert_eq!(r.out.cause, Some(Cause::ExtendedShock));
}

#[test]
fn step2_the_healers_bonus_counts_from_the_healers_arrival() {
    // The healer arrives after eight hours: the Course Roll at hour 4 has no bonus; the one at
    // hour 8 has the healer's test (40: CS, +10). Treatment starts when both the Extended Shock
    // and the wait are over, on day 0: no delay penalty.
    let mut state = hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]);
    state.shock = ShockState::Incapacitated;
    state.extended_shock = Some(5);
    let c = Care {
        help_minutes: Some(8 * 60),
        ..care(&[40])
    };
    run(&c, &state, &[93, 40, 41, 12, 22])
        .says(&[
            "hour 4: Extended Shock Course Roll 93 vs EML65: F: HR4",
            "hour 8: Extended Shock Course Roll 41 vs EML62: S: HR5",
            "hour 12: Extended Shock Course Roll 12 vs EML75: S: HR6",
            "treating abdomen IL2: Treatment Roll 22 vs EML50",
        ])
        .used_all(5);
}

#[test]
fn step1_an_unconscious_fighter_rerolls_ten_minutes_after_with_the_anaemia_so_far() {
    // "If UNC, the test is made ten minutes after the original Shock Roll"; "Shock Rerolls are
    // also affected by Fatigue penalty": after the bleeding's second period, 3 BP: 65 − 20 − 15.
    let mut state = hurt(&[bleeder(Location::Thigh, Aspect::Edge, 3)]);
    state.shock = ShockState::Unconscious;
    state.last_shock = (3, 3);
    run(
        &care(&[40]),
        &state,
        &[41, 62, 51, 41, 31, 33, 10, 50, 11, 22],
    )
    .says(&[
        "minute 5: Blood Loss Advance Roll 62 vs EML60: F: 2 BP (2 in all), UNC",
        "minute 10: Blood Loss Advance Roll 41 vs EML60: S: 1 BP (3 in all), UNC",
        "Shock Reroll (UNC) 31 vs EML30: F",
        "minute 15: Blood Stoppage Roll 33 vs EML50: S",
        "Extended Shock (UNC) HR5",
        "hour 4: Extended Shock Course Roll 11 vs EML50: S: HR6",
        "treating thigh IL3: Treatment Roll 22 vs EML50",
    ])
    .used_all(10);
}

// ---- Step 3: coma ----

#[test]
fn step3_a_coma_rolls_every_10_days_minus_20_without_shelter_never_below_hr1() {
    // "Every 10 days the character makes a Course Roll ... HB × HR"; "not being in a restful,
    // sheltered environment induces −20 penalty"; "Modify HR by given amount, to a minimum HR1."
    let mut state = hurt(&[]);
    state.coma = true;
    state.last_shock = (5, 5);
    let outside = Care {
        shelter: false,
        ..care(&[50])
    };
    run(&outside, &state, &[10, 11])
        .says(&[
            "lapses into a coma, HR2",
            "day 10: coma Course Roll 10 vs EML6: CF: HR1",
            "day 20: coma Course Roll 11 vs EML5: F: HR1",
        ])
        .used_all(2);
}

#[test]
fn step3_a_coma_ends_at_hr6_and_the_patient_is_whole_only_then() {
    // "When HR rises to 6 or more, the coma ends".
    let mut state = hurt(&[]);
    state.coma = true;
    state.last_shock = (4, 3);
    let r = run(&care(&[50]), &state, &[11]);
    r.says(&[
        "lapses into a coma, HR5",
        "day 10: coma Course Roll 11 vs EML65: S: HR6",
        "wakes from the coma",
        "whole after 10 days",
    ]);
    assert_eq!(r.out.recovery.days_to_whole, Some(10));
    assert_eq!(r.out.coma_days, 10);
}

#[test]
fn step3_a_coma_still_running_at_the_horizon_is_not_whole() {
    // An "indefinite coma" that has not ended by the horizon: not whole, comatose.
    let mut state = hurt(&[]);
    state.coma = true;
    state.last_shock = (5, 4);
    let c = Care {
        horizon_days: 30,
        ..care(&[50])
    };
    let r = run(&c, &state, &[91, 92, 93]);
    r.says(&["day 30: coma Course Roll 93", "not whole at the horizon"])
        .used_all(3);
    assert_eq!(r.out.recovery.days_to_whole, None);
    assert!(!r.out.recovery.died);
    assert!(r.out.comatose_at_horizon);
    assert_eq!(r.out.coma_days, 30);
}

// ---- Steps 4 and 5: treatment ----

#[test]
fn step5_the_treatment_roll_tables_are_the_texts() {
    // The HR grid, TRT and MOD rows of the six TREATMENT ROLL tables, and the BRD row.
    let hr = |t: &Table| t.effect.map(|row| row.map(|e| format!("{e:?}")));
    let standard = [
        ["Hr(4)", "Hr(3)", "Hr(2)"],
        ["Hr(5)", "Hr(4)", "Hr(3)"],
        ["Hr(6)", "Hr(5)", "Hr(4)"],
        ["Heal", "Hr(6)", "Hr(5)"],
    ];
    for kind in [Kind::Blunt, Kind::Edge, Kind::Point, Kind::Projectile] {
        assert_eq!(hr(table(kind)), standard.map(|r| r.map(String::from)));
    }
    let fire = [
        ["Hr(4)", "Hr(2)", "Hr(1)"],
        ["Hr(5)", "Hr(3)", "Hr(2)"],
        ["Hr(6)", "Hr(4)", "Hr(3)"],
        ["Heal", "Hr(5)", "Hr(4)"],
    ];
    assert_eq!(hr(table(Kind::Fire)), fire.map(|r| r.map(String::from)));
    let frost = [
        ["Hr(4)", "Hr(3)", "Amputate(5)"],
        ["Hr(5)", "Hr(4)", "Amputate(4)"],
        ["Heal", "Hr(5)", "Amputate(3)"],
        ["Heal", "Hr(6)", "Amputate(2)"],
    ];
    assert_eq!(hr(table(Kind::Frost)), frost.map(|r| r.map(String::from)));
    use Treatment::*;
    let rows = [
        (Kind::Blunt, [Cmp, Set, Sur], [30, 10, 0]),
        (Kind::Edge, [Cln, Cln, Sur], [20, 10, 0]),
        (Kind::Point, [Cln, Cln, Sur], [10, 0, -10]),
        (Kind::Projectile, [Cln, Ext, Ext], [10, 0, -10]),
        (Kind::Fire, [Cmp, Cln, Cln], [20, 10, 0]),
        (Kind::Frost, [Wrm, Wrm, Amp], [40, 20, 0]),
    ];
    for (kind, trt, modifier) in rows {
        assert_eq!(table(kind).treatment, trt, "{kind:?}");
        assert_eq!(table(kind).modifier, modifier, "{kind:?}");
        let brd = if kind == Kind::Projectile {
            [0, -20, -30]
        } else {
            [0; 3]
        };
        assert_eq!(table(kind).broadhead, brd, "{kind:?}");
    }
}

#[test]
fn step5_the_treatment_difficulty_modifier_and_the_delay_of_5_a_day() {
    // "Treatment Difficulty: each treatment has a mandatory Modifier"; "Treatment Delay: for
    // each day that has passed since the injury occurred, apply -5 penalty."
    run(
        &care(&[50]),
        &hurt(&[wound(Location::Forearm, Aspect::Blunt, 1)]),
        &[22],
    )
    .says(&["Treatment Roll 22 vs EML80"]);
    // "COMPRESS: ... If frozen, include +10 bonus."
    let frozen = Care {
        frozen_compress: true,
        ..care(&[50])
    };
    run(
        &frozen,
        &hurt(&[wound(Location::Forearm, Aspect::Blunt, 1)]),
        &[22],
    )
    .says(&["Treatment Roll 22 vs EML90"]);
    let late = Care {
        treatment_delay_days: 3,
        ..care(&[50])
    };
    run(
        &late,
        &hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]),
        &[22],
    )
    .says(&["Treatment Roll 22 vs EML45"]);
}

#[test]
fn step5_days_waiting_for_the_healer_count_as_treatment_delay() {
    // The healer arrives two days after the fight: "for each day that has passed since the
    // injury occurred" is two days: 50 + 10 − 10.
    let c = Care {
        help_minutes: Some(2 * 24 * 60),
        ..care(&[50])
    };
    run(
        &c,
        &hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]),
        &[22],
    )
    .says(&["Treatment Roll 22 vs EML50"]);
}

#[test]
fn step4_treatment_waits_for_the_end_of_extended_shock() {
    // "Once a patient's bleeding and extended shock end, a healer may treat an injury": an
    // Extended Shock of 36 hours pushes the treatment into day 1: −5 for the delay.
    let mut state = hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]);
    state.shock = ShockState::Incapacitated;
    state.extended_shock = Some(1);
    // The healer's Extended Shock test (51: F, no bonus), then Course Rolls at HB × HR:
    // HR1 → 2 → 1 → 2 → 1 → 2 → 3 → 4 → 5 → 6, nine rolls, 36 hours.
    let r = run(
        &care(&[50]),
        &state,
        &[51, 11, 27, 11, 27, 11, 11, 11, 11, 11, 22],
    );
    r.says(&[
        "hour 4: Extended Shock Course Roll 11 vs EML13: S: HR2",
        "hour 8: Extended Shock Course Roll 27 vs EML26: F: HR1",
        "hour 36: Extended Shock Course Roll 11 vs EML65: S: HR6",
        "treating abdomen IL2: Treatment Roll 22 vs EML55",
    ])
    .used_all(11);
}

#[test]
fn step5_healers_roll_in_rising_index_each_only_if_higher() {
    // "Multiple healers may each attempt a Treatment Roll for the same injury only if the
    // subsequent healers have a higher Physician Index than all previous ones. Only the highest
    // Success Level applies". ML45 has Index 4 like ML40: no roll. "A given healer ... may be
    // involved in only one Treatment Roll per injury per patient."
    // S then F: the S (HR5) applies, not the later F.
    let r = run(
        &care(&[60, 45, 40]),
        &hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]),
        &[22, 71, 66],
    );
    r.says(&[
        "Treatment Roll 22 vs EML50: S",
        "Treatment Roll 71 vs EML70: F",
        "day 5: Healing Roll 66 vs EML65",
    ])
    .never_says("vs EML55")
    .used_all(3);
}

#[test]
fn step5_a_cf_by_any_healer_replaces_all_other_results() {
    // "except a CF Treatment Roll by any healer replaces all other results": CF then S: the CF
    // stands (HR3), though a later healer rolled better.
    run(
        &care(&[40, 60]),
        &hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]),
        &[55, 22, 40],
    )
    .says(&[
        "Treatment Roll 55 vs EML50: CF",
        "Treatment Roll 22 vs EML70: S",
        "day 5: Healing Roll 40 vs EML39",
    ]);
}

#[test]
fn step5_the_grievous_hr_cap_brings_the_effects_of_its_row() {
    // "The maximum attainable HR for a Grievous Injury equals the healer's Physician Index (or
    // the CF level, if higher). The HR cap brings the other effects commensurate to its level.
    // For example, a healer with Physician Index 3 who gets a CS for a G4 Edge Injury imparts
    // an HR3 with a bleeder and a chance of infection and impairment—not an HR5."
    let r = run(
        &care(&[30]),
        &hurt(&[wound(Location::Shoulder, Aspect::Edge, 4)]),
        &[30, 10, 95, 50, 11, 12, 11, 12, 13, 14],
    );
    r.says(&[
        "Treatment Roll 30 vs EML30: CS",
        "the Grievous HR cap (Physician Index 3): the HR3 row",
        "the treatment opens a new Bleeder",
        "Blood Stoppage Roll 10 vs EML30: CS",
        "day 5: Healing Roll 95 vs EML39: CF",
        "the injury is infected",
        "day 7: Infection Course Roll 12 vs EML65: S: HR6",
        "day 12: Healing Roll 11 vs EML39: S: IL3",
        "day 22: Healing Roll 13 vs EML39: S: IL1",
        "day 27: Healing Roll 14 vs EML39: S: IL0",
        "whole after 27 days",
    ])
    .used_all(10);
    assert!(r.out.infected);
    assert_eq!(
        r.out.permanent,
        [0, 0, 5, 0],
        "22 days to Minor: 5 permanent"
    );
}

#[test]
fn step5_an_untreated_injury_has_the_cf_results_characteristics() {
    // "An injury that does not receive an actual Treatment Roll has all the treatment
    // characteristics of a CF result": an S2 Edge abdomen heals at HR3 with the chance of
    // infection.
    let r = run(
        &nobody(),
        &hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]),
        &[95],
    );
    r.says(&[
        "abdomen IL2 is untreated: a CF result",
        "day 5: Healing Roll 95 vs EML39: CF",
        "the injury is infected",
    ]);
    assert!(r.out.infected);
}

#[test]
fn step5_heal_heals_the_injury_at_once() {
    // "HEAL The treatment immediately heals the injury."
    let r = run(
        &care(&[50]),
        &hurt(&[wound(Location::Forearm, Aspect::Edge, 1)]),
        &[70],
    );
    r.says(&["Treatment Roll 70 vs EML70: CS", "healed by the treatment"]);
    assert_eq!(r.out.recovery.days_to_whole, Some(0));
}

#[test]
fn step5_a_grim_wound_makes_the_whole_shock_roll_daily_and_can_end_in_extended_shock() {
    // "Grim wounds force the victim to make a Shock Roll (step 4, page 169) once per day ...
    // Use the wound's Location Shock for step 4.1." Shoulder 3 + IL4 + CF 2 = SHK 9: UNC; the
    // Shock Reroll F: Extended Shock HR5, which here kills.
    let r = run(
        &nobody(),
        &hurt(&[wound(Location::Shoulder, Aspect::Edge, 4)]),
        &[70, 46, 70, 40, 15],
    );
    r.says(&[
        "shoulder IL4 is untreated: a CF result",
        "day 1: a grim wound's Shock Roll 70 vs EML65: CF: SHK 9: UNC",
        "day 1: Shock Reroll (UNC) 46 vs EML45: F",
        "hour 4: Extended Shock Course Roll 70 vs EML65: CF: HR3",
        "hour 8: Extended Shock Course Roll 40 vs EML39: CF: HR1",
        "hour 12: Extended Shock Course Roll 15 vs EML13: CF: HR-1",
        "dies in Extended Shock",
    ])
    .used_all(5);
    assert_eq!(r.out.cause, Some(Cause::ExtendedShock));
}

#[test]
fn step5_a_grim_wounds_unc_with_a_cf_reroll_is_a_coma() {
    // Step 4's UNC, then a CF Shock Reroll: "if Unconscious (UNC), character also lapses into
    // a coma": HR 12 − 3 − 4 = 5.
    run(
        &nobody(),
        &hurt(&[wound(Location::Shoulder, Aspect::Edge, 4)]),
        &[70, 50, 11, 12],
    )
    .says(&[
        "day 1: Shock Reroll (UNC) 50 vs EML45: CF",
        "day 1: lapses into a coma, HR5",
        "hour 8: Extended Shock Course Roll 12 vs EML65: S: HR6",
    ]);
}

#[test]
fn step5_a_grim_wounds_stn_wears_off_and_its_shock_roll_takes_fatigue() {
    // SHK 7 is STN, which wears off without a reroll; the Shock test "includes Fatigue
    // penalty" (10: EML55).
    let tired = Patient {
        fatigue: 10,
        ..patient()
    };
    run_patient(
        &nobody(),
        &tired,
        &hurt(&[wound(Location::Shoulder, Aspect::Edge, 4)]),
        &[41, 42],
    )
    .says(&[
        "day 1: a grim wound's Shock Roll 41 vs EML55: S: SHK 7: STN",
        "day 2: a grim wound's Shock Roll 42 vs EML55: S: SHK 7: STN",
    ])
    .never_says("day 1: Shock Reroll")
    .never_says("day 2: Shock Reroll");
}

#[test]
fn step5_a_grim_wound_can_kill_outright() {
    // Thorax 4 + IL4 + CF 2 = SHK 10: KIA.
    let r = run(
        &nobody(),
        &hurt(&[wound(Location::Thorax, Aspect::Edge, 4)]),
        &[70],
    );
    r.says(&["SHK 10: KIA", "dies of the grim wound"]);
    assert_eq!(r.out.cause, Some(Cause::GrimWound));
}

#[test]
fn step5_a_grim_wound_stops_rolling_once_no_longer_grievous() {
    // "until it is no longer Grievous": healed to S3 on day 5, no Shock Roll on day 6.
    run(
        &nobody(),
        &hurt(&[wound(Location::Shoulder, Aspect::Edge, 4)]),
        &[41, 42, 43, 44, 45, 11, 12],
    )
    .says(&[
        "day 4: a grim wound's Shock Roll 44",
        "day 5: a grim wound's Shock Roll 45 vs EML65: CS: SHK 6: none",
        "day 5: Healing Roll 11 vs EML26: S: IL3",
        "day 10: Healing Roll 12",
    ])
    .never_says("day 6")
    .used_all(7);
}

#[test]
fn step5_the_hr_cap_at_the_cf_level_is_a_grim_wound() {
    // Physician Index 2 is below the CF level (HR2): the cap is HR2, the CF row: a grim wound.
    run(
        &care(&[20]),
        &hurt(&[wound(Location::Shoulder, Aspect::Edge, 4)]),
        &[20, 10, 41],
    )
    .says(&[
        "the Grievous HR cap (Physician Index 2): the HR2 row",
        "day 1: a grim wound's Shock Roll 41",
    ]);
}

// ---- Step 6: healing ----

#[test]
fn step6_healing_rolls_every_five_days_from_the_injury_not_the_treatment() {
    // "A patient makes a separate Healing Roll for each injury every five days after incurring
    // it." "Every ten days after suffering the blood loss, the character tests Endurance".
    // Treatment three days late: the rolls still fall on days 5 and 10, the regeneration on 10.
    let late = Care {
        treatment_delay_days: 3,
        ..care(&[50])
    };
    run(
        &late,
        &hurt(&[bleeder(Location::Thigh, Aspect::Edge, 3)]),
        &[33, 41, 22, 66, 41, 67],
    )
    .says(&[
        "Treatment Roll 22 vs EML45: S",
        "day 5: Healing Roll 66 vs EML65: F",
        "day 10: blood regeneration 41 vs EML60: S: 0 BP left",
        "day 10: Healing Roll 67 vs EML65: F",
    ])
    .used_all(6);
    // Treated on day 7: the first roll is on day 10.
    let later = Care {
        treatment_delay_days: 7,
        ..care(&[50])
    };
    run(
        &later,
        &hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]),
        &[22, 66],
    )
    .says(&["Treatment Roll 22 vs EML25", "day 10: Healing Roll 66"]);
}

#[test]
fn step6_a_treatment_on_a_fifth_day_has_its_first_healing_roll_five_days_later() {
    // Treated on day 5 (five days' delay): the first Healing Roll is on day 10, and the injury
    // heals.
    let late = Care {
        treatment_delay_days: 5,
        ..care(&[60])
    };
    let r = run(
        &late,
        &hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]),
        &[22, 65],
    );
    r.says(&[
        "Treatment Roll 22 vs EML45: S",
        "day 10: Healing Roll 65 vs EML65: CS: IL0",
        "whole after 10 days",
    ]);
}

#[test]
fn step3_a_coma_rolls_on_its_days_while_treatment_waits() {
    // A coma from the fight rolls on day 10 though treatment is on day 12, and again on day 20.
    let mut state = hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]);
    state.coma = true;
    state.last_shock = (4, 2);
    let late = Care {
        treatment_delay_days: 12,
        ..care(&[60])
    };
    run(&late, &state, &[91, 7, 92, 12, 11])
        .says(&[
            "day 0: lapses into a coma, HR6",
            "day 10: coma Course Roll 91 vs EML78: F: HR5",
            "treating abdomen IL2: Treatment Roll 7 vs EML10: S",
            "day 15: Healing Roll 92 vs EML65: F",
            "day 20: Healing Roll 12 vs EML65: S: IL1",
            "day 20: coma Course Roll 11 vs EML65: S: HR6",
            "wakes from the coma",
        ])
        .used_all(5);
}

#[test]
fn step6_s_heals_one_level_cs_two_and_at_0_the_injury_is_healed() {
    // "S HEALING: reduce the Injury Level by 1. When reduced to 0 or less, the injury is fully
    // healed." "CS ... reduce the Injury Level by 2."
    let r = run(
        &care(&[50]),
        &hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]),
        &[22, 65],
    );
    r.says(&[
        "day 5: Healing Roll 65 vs EML65: CS: IL0",
        "whole after 5 days",
    ]);
    assert_eq!(r.out.recovery.days_to_whole, Some(5));
}

#[test]
fn step6_a_cf_without_the_chance_of_infection_only_fails() {
    // "CF NO EFFECT: ... If the treatment left the chance for infection, then the injury also
    // becomes infected": an S treatment of an S2 Edge leaves none.
    let r = run(
        &care(&[50]),
        &hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]),
        &[22, 70, 11],
    );
    r.says(&[
        "day 5: Healing Roll 70 vs EML65: CF",
        "day 10: Healing Roll 11",
    ])
    .never_says("infected");
    assert!(!r.out.infected);
}

#[test]
fn step6_the_random_option_rolls_d3_plus_3_days_a_period() {
    // "the static five-day healing period can be randomised with a roll of d3+3".
    let c = Care {
        random_period: true,
        ..care(&[50])
    };
    run(
        &c,
        &hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]),
        &[22, 1, 66, 3, 11],
    )
    .says(&["day 4: Healing Roll 66", "day 10: Healing Roll 11"]);
}

#[test]
fn step6_blood_regeneration_cf_skips_the_next_period_too() {
    // "CF NO EFFECT: no regeneration during this or the next period; then reroll." "F NO
    // EFFECT: no regeneration; reroll next period." "CS BLOOD REGENERATED".
    run(
        &care(&[40]),
        &hurt(&[bleeder(Location::Thigh, Aspect::Edge, 3)]),
        &[33, 41, 22, 66, 65, 67, 68, 69, 71, 62, 72, 73, 10, 74],
    )
    .says(&[
        "day 10: blood regeneration 65 vs EML60: CF: 1 BP left",
        "day 30: blood regeneration 62 vs EML60: F: 1 BP left",
        "day 40: blood regeneration 10 vs EML60: CS: 0 BP left",
    ])
    .never_says("day 20: blood regeneration")
    .used_all(14);
}

// ---- Step 7: infection ----

#[test]
fn step7_infection_stops_healing_rolls_but_not_blood_regeneration() {
    // "Healing Rolls for all *injuries* must cease until the patient defeats the infection."
    // Blood is not an injury: it regenerates on day 10, with the infection's weakness (HR3: 5)
    // and not the anaemia ("apply only weakness penalty other than that from anaemia").
    let r = run(
        &care(&[40]),
        &hurt(&[wound(Location::Thigh, Aspect::Edge, 4)]),
        &[41, 33, 62, 30, 95, 50, 36, 56, 38, 26, 6, 41],
    );
    r.says(&[
        "day 5: Healing Roll 95 vs EML39: CF",
        "day 6: Infection Course Roll 36 vs EML37: S: HR5",
        "day 7: Infection Course Roll 56 vs EML55: F: HR4",
        "day 9: Infection Course Roll 26 vs EML24: F: HR2",
        "day 10: Infection Course Roll 6 vs EML6: S: HR3",
        "day 10: blood regeneration 41 vs EML55: S: 1 BP left",
    ])
    .never_says("day 10: Healing Roll")
    .used_all(12);
}

#[test]
fn step7_an_infection_whose_hr_falls_to_0_kills() {
    // "When HR falls to 0 or less, the patient dies". Untreated S2 Edge abdomen: HR3, infection
    // HR4; weakness HR3-4 5, HR1-2 10.
    let r = run(
        &nobody(),
        &hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]),
        &[95, 50, 20],
    );
    r.says(&[
        "day 6: Infection Course Roll 50 vs EML47: CF: HR2",
        "day 7: Infection Course Roll 20 vs EML16: CF: HR0",
        "dies of the infection",
    ]);
    assert_eq!(r.out.cause, Some(Cause::Infection));
}

#[test]
fn step7_an_attending_healer_adds_to_the_infection_course_rolls() {
    // "an attending healer may grant a bonus to the patient's Infection Course Rolls equal to
    // the SV of a Physician SV test": 22 against ML40 is a one-star success: +5.
    run(
        &care(&[40]),
        &hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]),
        &[41, 95, 22, 11],
    )
    .says(&[
        "Treatment Roll 41 vs EML50: S",
        "day 5: Healing Roll 95 vs EML65: CF",
    ])
    .never_says("infected");
    run(
        &care(&[40]),
        &hurt(&[wound(Location::Abdomen, Aspect::Edge, 2)]),
        &[51, 95, 22, 11],
    )
    .says(&[
        "Treatment Roll 51 vs EML50: F",
        "day 5: Healing Roll 95 vs EML52: CF",
        "the injury is infected",
        "day 6: Infection Course Roll 11 vs EML70: S: HR6",
    ]);
}

#[test]
fn step7_amputating_an_infected_limb_defeats_the_infection() {
    // "Amputation: amputating an infected limb also defeats infection; follow the Amputation
    // treatment as for frost injuries": with `amputate_infected_limbs`, the infected thigh is
    // amputated (AMP, MOD 0: 42 S, a new S3 Edge injury and its Bleeder), no Infection Course
    // Roll follows, and the new wound heals from day 10.
    let c = Care {
        amputate_infected_limbs: true,
        ..care(&[50])
    };
    let r = run(
        &c,
        &hurt(&[wound(Location::Thigh, Aspect::Edge, 3)]),
        &[61, 95, 42, 10, 31, 11, 12, 13],
    );
    r.says(&[
        "treating thigh IL3: Treatment Roll 61 vs EML60: F",
        "day 5: Healing Roll 95 vs EML52: CF",
        "day 5: the injury is infected",
        "amputating the infected thigh: Treatment Roll 42 vs EML50: S",
        "Amputation: a new E injury IL3, a Bleeder",
        "Blood Stoppage Roll 10 vs EML50: CS",
        "the amputation wound E IL3: Treatment Roll 31 vs EML60: S",
        "the amputation defeats the infection",
        "day 10: Healing Roll 11 vs EML65: S: IL2",
        "whole after 20 days",
    ])
    .never_says("Infection Course Roll")
    .used_all(8);
    // Off by default: the infection runs its course.
    run(
        &care(&[50]),
        &hurt(&[wound(Location::Thigh, Aspect::Edge, 3)]),
        &[61, 95, 42, 11],
    )
    .says(&["day 6: Infection Course Roll 11"]);
}

#[test]
fn step7_infection_weakness_by_hr() {
    // INFECTION WEAKNESS: HR 1–2 10, HR 3–4 5, HR 5 none.
    assert_eq!([1, 2, 3, 4, 5].map(infection_weakness), [10, 10, 5, 5, 0]);
}

// ---- Step 8: impairment ----

#[test]
fn step8_permanent_impairment_is_5_per_20_days_to_minor_up_to_25() {
    // "for every 20 days it takes the injury to heal to a Minor injury, the location's zone
    // accrues 5 permanent impairment" ... "100+ 25 PERMANENT". A G4 Edge thigh with an F
    // surgery (HR3, the box): 21 failures, then Minor on day 120.
    let mut dice = vec![51, 10];
    dice.extend(std::iter::repeat_n(61, 21));
    dice.extend([11, 12, 13, 14]);
    let r = run(
        &care(&[50]),
        &hurt(&[wound(Location::Thigh, Aspect::Edge, 4)]),
        &dice,
    );
    r.says(&[
        "day 120: Healing Roll 13 vs EML39: S: IL1",
        "whole after 125 days",
    ]);
    assert_eq!(r.out.permanent, [0, 0, 0, 25]);
    assert_eq!(r.out.recovery.impairment, 25);
}

#[test]
fn step8_a_zones_permanent_impairment_is_its_worst_injurys_and_the_zones_add_up() {
    // "for every 20 days it takes the injury to heal to a Minor injury, the location's zone
    // accrues 5 permanent impairment": the zone's, so two injuries of one zone leave the worse
    // of the two and the reported impairment sums the zones (the healing assumption "Permanent
    // impairment per zone is the highest of its injuries'").
    // Two G4 Edge injuries with an F surgery each (HR3, the box): the first Minor on day 45
    // (10), the second on day 120 (25).
    let both = |second: Location| {
        let mut dice = vec![51, 10, 51, 10];
        // Day 5 and 10: the first heals to IL2; the second fails.
        dice.extend([11, 61, 12, 61]);
        // Days 15 to 40: both fail.
        dice.extend(std::iter::repeat_n(61, 12));
        // Day 45 the first reaches IL1 (Minor), day 50 IL0; the second fails.
        dice.extend([13, 61, 14, 61]);
        // Days 55 to 105 the second fails; 110 to 125 it heals.
        dice.extend(std::iter::repeat_n(61, 11));
        dice.extend([11, 12, 13, 14]);
        run(
            &care(&[50]),
            &hurt(&[
                wound(Location::Thigh, Aspect::Edge, 4),
                wound(second, Aspect::Edge, 4),
            ]),
            &dice,
        )
    };
    let one_zone = both(Location::Calf);
    one_zone.says(&[
        "day 45: Healing Roll 13 vs EML39: S: IL1",
        "day 120: Healing Roll 13 vs EML39: S: IL1",
        "whole after 125 days",
    ]);
    assert_eq!(one_zone.out.permanent, [0, 0, 0, 25]);
    assert_eq!(one_zone.out.recovery.impairment, 25);
    let two_zones = both(Location::UpperArm);
    two_zones.says(&["whole after 125 days"]);
    assert_eq!(two_zones.out.permanent, [0, 0, 25, 10]);
    assert_eq!(two_zones.out.recovery.impairment, 35);
}

#[test]
fn step8_no_box_no_permanent_impairment() {
    // "An injured location whose treatment includes a black box (■) might induce permanent
    // impairment": an S treatment of a Serious Edge has none, however long it takes.
    let mut dice = vec![22];
    dice.extend(std::iter::repeat_n(71, 30));
    dice.extend([11, 12, 13]);
    let r = run(
        &care(&[50]),
        &hurt(&[wound(Location::Thigh, Aspect::Edge, 3)]),
        &dice,
    );
    r.says(&["whole after 165 days"]);
    assert_eq!(r.out.permanent, [0; 4]);
}

// ---- Area injuries ----

#[test]
fn area_injuries_take_one_roll_at_minus_20_are_grim_when_grievous_fail_on_3_5_8_0_and_impair_like_the_head()
 {
    // "Healers make a single Treatment Roll for an Area injury, but the Physician ML test
    // includes an additional −20 penalty"; "Area G4F and G5F injuries that do not kill the
    // target from shock are always grim wounds ... regardless of treatment"; "A CF occurs on a
    // failed Healing Roll when the ones die is a 3, 5, 8, or 0"; "Area injuries impair all
    // actions & movement like head injuries."
    let area = |il| Injury {
        class: Class::Area,
        ..wound(Location::Thorax, Aspect::Fire, il)
    };
    // Grim at once, and its Shock Roll has Location Shock 6 ("Area Attacks impart Location
    // Shock 6"): 6 + 4 + S 0 = SHK 10, KIA.
    let r = run(&care(&[50, 60]), &hurt(&[area(4)]), &[22, 41]);
    r.says(&[
        "Treatment Roll 22 vs EML40: S",
        "day 1: a grim wound's Shock Roll 41 vs EML65: S: SHK 10: KIA",
    ])
    .never_says("vs EML30");
    assert_eq!(r.out.cause, Some(Cause::GrimWound));
    let r = run(&care(&[50]), &hurt(&[area(2)]), &[41, 43, 50]);
    r.says(&[
        "Treatment Roll 41 vs EML40: F",
        "day 5: Healing Roll 43 vs EML39: CF",
        "the injury is infected",
    ]);
    // Untreated (HR2 with the box): Minor on day 20, 5 permanent, to the head.
    let r = run(&nobody(), &hurt(&[area(2)]), &[27, 27, 27, 11, 12]);
    r.says(&[
        "day 15: Healing Roll 27 vs EML26: F",
        "day 20: Healing Roll 11 vs EML26: S: IL1",
        "whole after 25 days",
    ]);
    assert_eq!(r.out.permanent, [5, 0, 0, 0]);
}
