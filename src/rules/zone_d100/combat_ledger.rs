//! The combat sequences' rule tests that no worked example reaches, each written from its
//! sentence of the text: scripted dice in, the sentence's consequence out.

use super::tests::{BROADSWORD, fighter, melee, quilt};
use super::*;
use crate::dice::ScriptedDice;
use crate::log::VecLog;

/// A spear: longer Reach than the broadsword, a thrusting mode.
const SPEAR: Weapon = Weapon {
    impact_die: 8,
    impact_modifier: 0,
    aspect: Aspect::Point,
    zone_die: 6,
    reach: 7,
    heft: 4,
    thrust: true,
    two_handed: false,
    impact_ta: 4,
};

fn exchange(m: &Melee, states: &mut [State; 2], dice: &[u32]) -> (String, u32) {
    let mut scripted = ScriptedDice::new(dice.to_vec());
    let mut log = VecLog::default();
    let mut strikes = 0;
    m.exchange(Side::A, states, false, &mut scripted, &mut log, &mut |_| {
        strikes += 1
    });
    let story = log.lines.join("\n");
    assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
    assert_eq!(scripted.used(), dice.len(), "dice used\n{story}");
    (story, strikes)
}

use crate::log::assert_in_order as in_order;

/// One strike by the attacker on the defender with these dice, every die used: the story.
fn strike_with(m: &Melee, states: &mut [State; 2], dice: &[u32]) -> String {
    let mut scripted = ScriptedDice::new(dice.to_vec());
    let mut log = VecLog::default();
    m.strike(Side::A, states, Chosen::default(), &mut scripted, &mut log);
    let story = log.lines.join("\n");
    assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
    assert_eq!(scripted.used(), dice.len(), "dice used\n{story}");
    story
}

/// A fighter who takes a bonus action first, then a Setup.
fn action_taker() -> Fighter {
    let mut a = fighter(Defence::Block);
    a.advantages = [
        Advantage::Action,
        Advantage::Setup,
        Advantage::Impact,
        Advantage::Precision,
    ];
    a
}

#[test]
fn neither_reach_penalty_nor_thrust_bonus_apply_against_ignore() {
    // Ignore: "Neither Reach Penalty nor Thrust Bonus apply to the attacker's test." A
    // broadsword (Reach 4) against a spear (Reach 7) Blocking: 60 − 3 × 5 = EML45; against the
    // same spearman Ignoring: EML60.
    let mut spearman = fighter(Defence::Block);
    spearman.weapon = SPEAR;
    let m = melee(fighter(Defence::Block), spearman);
    let (story, _) = exchange(&m, &mut [State::default(); 2], &[100, 51]);
    assert!(story.contains("attacks defender: 100 vs EML45"), "{story}");
    spearman.defence = Defence::Ignore;
    let m = melee(fighter(Defence::Block), spearman);
    let (story, _) = exchange(&m, &mut [State::default(); 2], &[100]);
    assert!(story.contains("attacks defender: 100 vs EML60"), "{story}");
}

#[test]
fn after_a_strike_mishaps_come_before_the_bonus_action() {
    // "After adjudicating injury, apply other effects in the following order: 1) Mishaps,
    // 2) Free Press Rolls, and 3) Bonus Action TA." The attacker's CS against a Block CF 75
    // (a Stumble) is three stars: the strike, a bonus action and a Setup. The defender falls
    // prone before the bonus attack, whose Block is at −20 (and −10 for the S3 abdomen).
    let m = melee(action_taker(), fighter(Defence::Block));
    let (story, _) = exchange(
        &m,
        &mut [State::default(); 2],
        &[10, 75, 5, 7, 8, 11, 95, 50],
    );
    in_order(
        &story,
        &[
            "attacks defender: 10 vs EML60: CS; defender Block 75 vs EML60: CF",
            "injury S3E",
            "defender stumbles: falls prone",
            "attacker takes a bonus action: another attack",
            "defender Block 50 vs EML30",
        ],
    );
}

#[test]
fn every_strike_of_an_exchange_is_reported_nested_ones_too() {
    // A bonus attack inside an exchange meets a counterstrike: both the first strike and the
    // counterstrike inside the bonus exchange land, and both are reported for the tallies.
    let m = melee(action_taker(), fighter(Defence::Counterstrike));
    let (story, strikes) = exchange(
        &m,
        &mut [State::default(); 2],
        &[10, 75, 5, 7, 1, 11, 95, 11, 5, 7, 1, 11],
    );
    in_order(
        &story,
        &[
            "injury S2E",
            "takes a bonus action",
            "Counterstrike 11",
            "injury S2E",
        ],
    );
    assert_eq!(strikes, 2, "{story}");
}

#[test]
fn a_stun_from_a_counterstrike_in_ones_own_turn_is_shaken_off_only_at_the_end_of_the_next() {
    // STN: "A successful Shock test at the end of the target's *next turn* removes the stunned
    // state." The attacker, stunned by a counterstrike in its own turn 1, makes no Shock test
    // at the end of turn 1; at the end of its turn 3 it does.
    let m = melee(fighter(Defence::Block), fighter(Defence::Counterstrike));
    let mut states = [State::default(); 2];
    states[0].turn = 1;
    states[1].turn = 1;
    let (story, _) = exchange(&m, &mut states, &[91, 10, 5, 7, 1, 11]);
    assert!(story.contains("SHK 7 -> STN"), "{story}");
    assert_eq!(states[0].shock, ShockState::Stunned);
    let mut log = VecLog::default();
    let mut none = ScriptedDice::new(Vec::<u32>::new());
    m.end_of_turn(Side::A, &mut states, &mut none, &mut log);
    assert!(
        none.finish().is_ok(),
        "no Shock test in the turn of the stun: {:?}",
        log.lines
    );
    assert_eq!(states[0].shock, ShockState::Stunned);
    states[0].turn = 3;
    states[1].turn = 3;
    let mut dice = ScriptedDice::new([20, 29]);
    m.end_of_turn(Side::A, &mut states, &mut dice, &mut log);
    assert!(dice.finish().is_ok(), "{:?}", log.lines);
    assert_eq!(states[0].shock, ShockState::None, "{:?}", log.lines);
}

#[test]
fn a_minor_injury_impairs_only_if_its_own_shock_roll_failed() {
    // "M Associated actions are unhindered if the Shock Roll in step 4 succeeded (S or CS).
    // After 10 minutes—or immediately if the Shock Roll failed—the injury imparts 5
    // impairment." Two M1 torso injuries in a quilt coat: the abdomen's Shock Roll succeeds
    // (11), the thorax's fails (90): 5 impairment, not 10.
    let mut b = fighter(Defence::Ignore);
    b.armour = quilt();
    let m = melee(fighter(Defence::Block), b);
    let mut states = [State::default(); 2];
    let first = strike_with(&m, &mut states, &[5, 7, 1, 11]);
    assert_eq!(m.impairment(Side::B, &states[1], true, true), (0, false));
    let story = first + "\n" + &strike_with(&m, &mut states, &[5, 1, 1, 90]);
    in_order(&story, &["abdomen", "injury M1E", "thorax", "injury M1E"]);
    assert_eq!(
        m.impairment(Side::B, &states[1], true, true),
        (5, false),
        "{story}"
    );
}

#[test]
fn an_incapacitated_fighter_fights_on_and_helpless_ones_are_out() {
    // INC: "No independent actions ... Unaware (must Ignore all melee attacks). Shock Reroll
    // ... at the end of the target's next turn", and the Shock example's INC character
    // rerolls, stands and fights on: INC alone is not the end of the fight. UNC is helpless;
    // so is INC in Extended Shock, whose state stays.
    let mut s = State {
        shock: ShockState::Incapacitated,
        ..State::default()
    };
    assert!(!s.can_act() && !s.helpless());
    s.extended_shock = Some(5);
    assert!(s.helpless());
    let s = State {
        shock: ShockState::Unconscious,
        ..State::default()
    };
    assert!(s.helpless());
    // An INC defender Ignores: no defence roll, and the attack needs no Reach comparison.
    let mut spearman = fighter(Defence::Block);
    spearman.weapon = SPEAR;
    let m = melee(fighter(Defence::Block), spearman);
    let mut states = [State::default(); 2];
    states[1].shock = ShockState::Incapacitated;
    let (story, _) = exchange(&m, &mut states, &[100]);
    assert!(
        story.contains("100 vs EML60: CF; defender ignores"),
        "{story}"
    );
}

#[test]
fn duels_go_on_through_inc_and_end_at_death_unc_extended_shock_morale_or_the_limit() {
    // The shipped broadsword-vs-spear duel, traced: some fight has an INC fighter who Ignores
    // an attack and later makes its Shock Reroll and acts again; every fight that has a winner
    // ends with the loser dead, UNC, INC in Extended Shock, routed, or INC at the round limit.
    use crate::dice::FastDice;
    use crate::rules::Ruleset;
    use crate::stats::Tally;
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/zone-d100/broadsword-vs-spear.toml");
    let scenario = match crate::scenario::load(&path) {
        Ok(s) => s,
        Err(e) => panic!("{e}"),
    };
    let crate::scenario::Model::ZoneD100(duel) = &scenario.points[0].model else {
        panic!("a zone-d100 duel");
    };
    let mut dice = FastDice::seed_from_u64(11);
    let mut tally = Tally::new(duel.shape());
    let mut fought_on = 0;
    for _ in 0..3000 {
        let mut log = VecLog::default();
        duel.trial(&mut dice, &mut log, &mut tally);
        let story = log.lines.join("\n");
        let fight = story.split(" after the fight").next().unwrap_or("");
        if let Some(inc) = fight.find("-> INC") {
            let after = &fight[inc..];
            if after.contains("ignores") && after.contains("Shock Reroll") {
                fought_on += 1;
            }
        }
        if let Some(end) = fight.lines().find(|l| l.contains(" wins: ")) {
            assert!(
                [
                    "is dead",
                    "is UNC",
                    "Extended Shock",
                    "(morale)",
                    "round limit"
                ]
                .iter()
                .any(|e| end.contains(e)),
                "{end}"
            );
            assert!(!end.ends_with("is INC"), "{end}");
        }
    }
    assert!(fought_on > 0, "no fight went on through INC in 3000 duels");
}

#[test]
fn a_disarmed_counterstriker_dodges() {
    // A Fumble "drops the weapon": there is nothing to Counterstrike with.
    let m = melee(fighter(Defence::Block), fighter(Defence::Counterstrike));
    let mut states = [State::default(); 2];
    states[1].disarmed = true;
    let (story, _) = exchange(&m, &mut states, &[100, 51]);
    assert!(story.contains("defender Dodge 51"), "{story}");
}

#[test]
fn an_unspent_setup_is_gone_after_the_next_round() {
    // SETUP: +1 level "to the next Melee or Dodge test within the next round". Taken in turn 1
    // (round 1): it raises a test in turn 4 (round 2), not in turn 5 (round 3).
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    let mut states = [State::default(); 2];
    states[0].turn = 1;
    states[0].take_setup();
    for s in &mut states {
        s.turn = 5;
    }
    let (story, _) = exchange(&m, &mut states, &[61, 99]);
    assert!(story.contains("61 vs EML60: F"), "{story}");
    let mut states = [State::default(); 2];
    states[0].turn = 1;
    states[0].take_setup();
    for s in &mut states {
        s.turn = 4;
    }
    let (story, _) = exchange(&m, &mut states, &[61, 99, 5, 7, 1, 11]);
    assert!(story.contains("61 vs EML60: S"), "{story}");
}

#[test]
fn morale_and_injury_mishaps_follow_the_compounded_injury() {
    // A second M1 to the abdomen compounds it to S2 (d10 1 against total IL 2): "A single
    // Serious injury can also test the grit ... they must make a Morale Roll".
    let mut b = fighter(Defence::Ignore);
    b.armour = quilt();
    let m = melee(fighter(Defence::Block), b);
    let mut states = [State::default(); 2];
    states[1]
        .injuries
        .add(crate::rules::zone_d100::injury::Injury {
            side: BodySide::Centre,
            ..crate::rules::zone_d100::injury::Injury::new(Location::Abdomen, Aspect::Edge, 1)
        });
    states[1].summarise();
    let story = strike_with(&m, &mut states, &[5, 7, 1, 1, 11]);
    assert!(story.contains("compound injury"), "{story}");
    assert!(states[1].morale_due, "{story}");
}

#[test]
fn a_serious_shield_arm_injury_drops_the_shield_not_the_weapon() {
    // Injury mishaps: a Serious arm injury makes a Fumble roll for what that arm holds. The
    // right-handed defender is cut in the left upper arm (S2) and fails the roll (70): the
    // shield falls, the sword stays.
    let mut b = fighter(Defence::Block);
    b.shield = Some(BROADSWORD);
    let m = melee(fighter(Defence::Block), b);
    let mut states = [State::default(); 2];
    let story = strike_with(&m, &mut states, &[2, 4, 1, 1, 11, 70]);
    assert!(
        story.contains("left upper arm") && story.contains("injury S2E"),
        "{story}"
    );
    assert!(states[1].shield_broken && !states[1].disarmed, "{story}");
}

#[test]
fn a_two_handed_weapon_and_a_shield_block_take_both_arms_impairment() {
    // A two-handed weapon, and a shield block, use both arms: an S2 in the left (off) arm
    // costs them 10; a one-handed sword's attack keeps 60.
    let off_arm = crate::rules::zone_d100::injury::Injury {
        side: BodySide::Left,
        ..crate::rules::zone_d100::injury::Injury::new(Location::Forearm, Aspect::Edge, 2)
    };
    let mut two = fighter(Defence::Block);
    two.weapon.two_handed = true;
    for (a, eml) in [(fighter(Defence::Block), "EML60"), (two, "EML50")] {
        let m = melee(a, fighter(Defence::Block));
        let mut states = [State::default(); 2];
        states[0].injuries.add(off_arm);
        states[0].summarise();
        let (story, _) = exchange(&m, &mut states, &[100, 51]);
        assert!(
            story.contains(&format!("attacks defender: 100 vs {eml}")),
            "{story}"
        );
    }
    let mut shield = fighter(Defence::Block);
    shield.shield = Some(BROADSWORD);
    let m = melee(fighter(Defence::Block), shield);
    let mut states = [State::default(); 2];
    states[1].injuries.add(off_arm);
    states[1].summarise();
    let (story, _) = exchange(&m, &mut states, &[100, 51]);
    assert!(story.contains("defender Block 51 vs EML50"), "{story}");
}

#[test]
fn an_automatic_cf_stumbles_for_a_grievous_leg_and_fumbles_for_a_grievous_arm() {
    // "a character who chooses to take action anyway automatically achieves a CF": its mishap
    // is the prohibiting zone's. A Block with a Grievous thigh falls prone.
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    let mut states = [State::default(); 2];
    let leg = crate::rules::zone_d100::injury::Injury::new(Location::Thigh, Aspect::Edge, 4);
    states[1].injuries.add(leg);
    states[1].summarise();
    let (story, _) = exchange(&m, &mut states, &[100]);
    assert!(story.contains("defender stumbles: falls prone"), "{story}");
    assert_eq!(
        m.automatic_cf(Side::B, &states[1], Arms::Weapon, 50)
            .mishap(),
        Some(Mishap::Stumble)
    );
    let mut arm = State::default();
    arm.injuries
        .add(crate::rules::zone_d100::injury::Injury::new(
            Location::Forearm,
            Aspect::Edge,
            4,
        ));
    arm.summarise();
    assert_eq!(
        m.automatic_cf(Side::B, &arm, Arms::Weapon, 50).mishap(),
        Some(Mishap::Fumble)
    );
}

#[test]
fn incapacitated_and_unconscious_fighters_fall_prone() {
    // "INC ... Target is conscious but falls prone": the text's Shock example (S2E abdomen, a
    // CF Shock roll, SHK 8).
    let mut b = fighter(Defence::Ignore);
    b.armour = quilt();
    let m = melee(fighter(Defence::Block), b);
    let mut states = [State::default(); 2];
    let story = strike_with(&m, &mut states, &[5, 7, 8, 75]);
    assert_eq!(states[1].shock, ShockState::Incapacitated, "{story}");
    assert!(states[1].prone);
}

#[test]
fn a_cf_lowered_by_the_stun_has_a_mishap_only_on_a_0_or_a_5() {
    // "The type is indicated by the ones die": 0 a Fumble, 5 a Stumble; an F lowered to CF
    // while stunned (47) has no mishap.
    let cf = |roll| Test {
        roll,
        eml: 40,
        level: SuccessLevel::CriticalFailure,
    };
    assert_eq!(cf(40 + 10).mishap(), Some(Mishap::Fumble));
    assert_eq!(cf(45).mishap(), Some(Mishap::Stumble));
    assert_eq!(cf(47).mishap(), None);
}

#[test]
fn a_disarmed_defender_lends_no_reach_and_blocks_nothing_without_its_shield() {
    // A spearman who dropped the spear threatens with no Reach: 60, not 45. A defender whose
    // shield is gone and weapon dropped Dodges.
    let mut spearman = fighter(Defence::Counterstrike);
    spearman.weapon = SPEAR;
    let m = melee(fighter(Defence::Block), spearman);
    let mut states = [State::default(); 2];
    states[1].disarmed = true;
    let (story, _) = exchange(&m, &mut states, &[100, 51]);
    assert!(story.contains("100 vs EML60"), "{story}");
    let mut shielded = fighter(Defence::Block);
    shielded.shield = Some(BROADSWORD);
    let m = melee(fighter(Defence::Block), shielded);
    let mut states = [State::default(); 2];
    states[1].disarmed = true;
    states[1].shield_broken = true;
    let (story, _) = exchange(&m, &mut states, &[100, 51]);
    assert!(story.contains("defender Dodge 51"), "{story}");
}

#[test]
fn a_setup_does_not_lift_an_automatic_cf() {
    // "accept an automatic CF in a Block, Dodge, or Counterstrike test": the Setup waits; the
    // CF's Stumble comes.
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    let mut states = [State::default(); 2];
    let leg = crate::rules::zone_d100::injury::Injury::new(Location::Thigh, Aspect::Edge, 4);
    states[1].injuries.add(leg);
    states[1].summarise();
    states[1].take_setup();
    let (story, _) = exchange(&m, &mut states, &[100]);
    assert!(story.contains("defender stumbles: falls prone"), "{story}");
    assert!(states[1].setup, "the Setup is still to spend");
}

#[test]
fn an_injury_fumble_roll_is_an_impaired_dexterity_test() {
    // The Fumble roll after a Serious arm injury is a Dexterity test, impaired by the arms (the
    // new S2 costs 10): 55 fails against 60 − 10.
    let mut b = fighter(Defence::Block);
    b.shield = Some(BROADSWORD);
    let m = melee(fighter(Defence::Block), b);
    let mut states = [State::default(); 2];
    let story = strike_with(&m, &mut states, &[2, 4, 1, 1, 11, 55]);
    assert!(states[1].shield_broken, "{story}");
}

#[test]
fn shk_10_or_more_kills_in_action() {
    // "SHK ... 10+ KIA"; "KIA KILLED IN ACTION: Target immediately dies." Skull (5) S3 (3)
    // and a CF Shock roll (+2): SHK 10.
    let m = melee(fighter(Defence::Block), fighter(Defence::Ignore));
    let mut states = [State::default(); 2];
    let story = strike_with(&m, &mut states, &[1, 1, 6, 70]);
    assert!(story.contains("SHK 10 -> KIA"), "{story}");
    assert!(states[1].dead, "{story}");
}

#[test]
fn a_stunned_fighters_melee_and_dodge_tests_are_one_level_lower() {
    // STN: "Impaired tests (step 5) are reduced by one Success Level." A stunned attacker's 36
    // against EML60 is an F; a stunned Dodger's 36 too.
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    let mut states = [State::default(); 2];
    states[0].shock = ShockState::Stunned;
    let (story, _) = exchange(&m, &mut states, &[36, 99]);
    assert!(story.contains("36 vs EML60: F"), "{story}");
    let m = melee(fighter(Defence::Block), fighter(Defence::Dodge));
    let mut states = [State::default(); 2];
    states[1].shock = ShockState::Stunned;
    let (story, _) = exchange(&m, &mut states, &[61, 36]);
    assert!(story.contains("Dodge 36 vs EML60: F"), "{story}");
}

#[test]
fn a_failed_morale_roll_quits_the_fight() {
    // "A single Serious injury can also test the grit ... they must make a Morale Roll to
    // continue": Initiative ML60, 61: F, the fighter quits (routed).
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    let mut states = [State::default(); 2];
    states[1].morale_due = true;
    let mut log = VecLog::default();
    let mut dice = ScriptedDice::new([61]);
    m.end_of_turn(Side::B, &mut states, &mut dice, &mut log);
    assert!(dice.finish().is_ok(), "{:?}", log.lines);
    assert!(states[1].routed, "{:?}", log.lines);
    assert!(!states[1].can_act());
}

#[test]
fn injury_mishaps_a_serious_pelvis_stumbles_and_a_serious_sword_arm_fumbles() {
    // INJURY MISHAP: Serious leg and pelvis injuries make a Stumble roll (Agility), Serious arm
    // injuries a Fumble roll (Dexterity); a failed roll throws the target prone or drops the
    // weapon.
    let m = melee(fighter(Defence::Block), fighter(Defence::Ignore));
    let strike = |dice: &[u32]| {
        let mut states = [State::default(); 2];
        let story = strike_with(&m, &mut states, dice);
        (states[1], story)
    };
    // ZN6 (torso), LD 10: pelvis; impact 1 + 4 = 5: S2; Shock 11: none; a Serious pelvis
    // makes the Stumble roll: Agility 70 fails.
    let (b, story) = strike(&[6, 10, 1, 11, 70]);
    assert!(
        story.contains("pelvis") && story.contains("injury S2E"),
        "{story}"
    );
    assert!(b.prone && !b.disarmed, "{story}");
    // ZN2 (arms), LD 8: forearm, side d2 2 (right, the sword arm), impact 10 + 4 = 14: S3;
    // the Fumble roll: Dexterity 70 fails.
    let (b, story) = strike(&[2, 8, 2, 10, 11, 70]);
    assert!(
        story.contains("right forearm") && story.contains("injury S3E"),
        "{story}"
    );
    assert!(b.disarmed, "{story}");
}

#[test]
fn the_attackers_own_cf_is_its_mishap_and_a_dodge_cf_always_stumbles() {
    // "MISHAP attacker makes a Fumble (0) or Stumble (5) Roll, no matter the defender's
    // result"; Dodge: "defender makes a Stumble Roll, no matter the attacker's result".
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    let mut states = [State::default(); 2];
    let (story, _) = exchange(&m, &mut states, &[100, 51]);
    assert!(states[0].disarmed && !states[0].prone, "{story}");
    let mut states = [State::default(); 2];
    let (story, _) = exchange(&m, &mut states, &[95, 51]);
    assert!(states[0].prone && !states[0].disarmed, "{story}");
    let m = melee(fighter(Defence::Block), fighter(Defence::Dodge));
    let mut states = [State::default(); 2];
    let (story, _) = exchange(&m, &mut states, &[61, 100]);
    assert!(story.contains("defender stumbles: falls prone"), "{story}");
    assert!(states[1].prone && !states[1].disarmed, "{story}");
}

#[test]
fn fatigue_weighs_on_every_test() {
    // "Trauma Fatigue penalty"; the Shock test "includes Fatigue penalty": fatigue 10 makes
    // the attack EML50 and the Block EML50.
    let mut tired = fighter(Defence::Block);
    tired.fatigue = 10;
    let m = melee(tired, tired);
    let (story, _) = exchange(&m, &mut [State::default(); 2], &[100, 51]);
    assert!(
        story.contains("100 vs EML50") && story.contains("Block 51 vs EML50"),
        "{story}"
    );
}
