//! The combat sequences' rule tests that no worked example reaches, each written from its
//! sentence of the text: scripted dice in, the sentence's consequence out.

use super::tests::{BROADSWORD, fighter, melee, quilt, test_turn};
use super::*;
use crate::dice::ScriptedDice;
use crate::log::VecLog;
use crate::rules::zone_d100::body::{BodySide, Location};
use crate::rules::zone_d100::injury::Injury;
use crate::rules::zone_d100::injury_sequence::Blow;
use crate::rules::zone_d100::outcome::Chosen;
use crate::rules::zone_d100::skill::{Mishap, SuccessLevel, Test};

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
            "defender stumbles: falls prone",
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
    m.end_of_turn(
        (Side::A, test_turn(Side::A)),
        &mut states,
        &mut none,
        &mut log,
    );
    assert!(
        none.finish().is_ok(),
        "no Shock test in the turn of the stun: {:?}",
        log.lines
    );
    assert_eq!(states[0].shock, ShockState::Stunned);
    states[0].turn = 3;
    states[1].turn = 3;
    let mut dice = ScriptedDice::new([20, 29]);
    m.end_of_turn(
        (Side::A, test_turn(Side::A)),
        &mut states,
        &mut dice,
        &mut log,
    );
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
    assert_eq!(m.impairment(1, &states[1], true, true), (0, false));
    let story = first + "\n" + &strike_with(&m, &mut states, &[5, 1, 1, 90]);
    in_order(&story, &["abdomen", "injury M1E", "thorax", "injury M1E"]);
    assert_eq!(
        m.impairment(1, &states[1], true, true),
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
    let duel = &crate::rules::zone_d100::shipped_duel("broadsword-vs-spear");
    let mut tally = Tally::new(duel.shape());
    let mut fought_on = 0;
    for trial in 0..3000 {
        let mut log = VecLog::default();
        let mut dice = FastDice::seed_from_u64(crate::engine::trial_seed(11, trial));
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
    states[0].round = 1;
    states[0].take_setup();
    for s in &mut states {
        s.turn = 5;
        s.round = 3;
    }
    let (story, _) = exchange(&m, &mut states, &[61, 99]);
    assert!(story.contains("61 vs EML60: F"), "{story}");
    let mut states = [State::default(); 2];
    states[0].turn = 1;
    states[0].round = 1;
    states[0].take_setup();
    for s in &mut states {
        s.turn = 4;
        s.round = 2;
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
    m.summarise(1, &mut states[1]);
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
fn a_two_handed_weapon_takes_both_arms_impairment_and_a_shield_block_the_shield_arms() {
    // A two-handed weapon uses both arms, a shield Block the shield (left) arm: an S2 in the
    // left arm costs them 10; a one-handed sword's attack keeps 60.
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
        m.summarise(0, &mut states[0]);
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
    m.summarise(1, &mut states[1]);
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
    m.summarise(1, &mut states[1]);
    let (story, _) = exchange(&m, &mut states, &[100]);
    assert!(story.contains("defender stumbles: falls prone"), "{story}");
    assert_eq!(
        m.automatic_cf(1, &states[1], Arms::Weapon, 50).mishap(),
        Some(Mishap::Stumble)
    );
    let mut arm = State::default();
    arm.injuries
        .add(crate::rules::zone_d100::injury::Injury::new(
            Location::Forearm,
            Aspect::Edge,
            4,
        ));
    m.summarise(1, &mut arm);
    assert_eq!(
        m.automatic_cf(1, &arm, Arms::Weapon, 50).mishap(),
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
fn a_disarmed_defender_threatens_with_its_punch_and_blocks_nothing_without_its_shield() {
    // A spearman who dropped the spear designates his punch (Reach 0): a broadsword (Reach 4)
    // takes no Reach Penalty against it: 60, not 45. A defender whose shield is gone and weapon
    // dropped Dodges.
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
    m.summarise(1, &mut states[1]);
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
    m.end_of_turn(
        (Side::B, test_turn(Side::B)),
        &mut states,
        &mut dice,
        &mut log,
    );
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

/// A blow that lands on zone number `aim` (a Zone Die of 1 side), with this impact die.
fn blow(aim: u32, impact_die: u32, aspect: Aspect) -> Blow {
    Blow {
        zone_die: 1,
        zone_dice: 1,
        aim,
        impact_die,
        impact_modifier: 0,
        impact_bonus: 0,
        aspect,
        armour_reduction: 0,
        impales: false,
        broadhead: false,
    }
}

/// The Injury Sequence of one blow on the defender with these dice, every die used: the story.
fn land_with(m: &Melee, states: &mut [State; 2], blow: Blow, dice: &[u32]) -> String {
    let mut scripted = ScriptedDice::new(dice.to_vec());
    let mut log = VecLog::default();
    m.land(Side::A, states, blow, &mut scripted, &mut log);
    let story = log.lines.join("\n");
    assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
    assert_eq!(scripted.used(), dice.len(), "dice used\n{story}");
    story
}

/// The defender with this injury on record.
fn wounded(m: &Melee, location: Location, side: BodySide, aspect: Aspect, il: u8) -> [State; 2] {
    let mut states = [State::default(); 2];
    let mut x = Injury::new(location, aspect, il);
    x.side = side;
    states[1].injuries.add(x);
    m.summarise(1, &mut states[1]);
    states
}

#[test]
fn a_grievous_head_fumbles_and_stumbles_with_no_roll() {
    // INJURY MISHAP: "HEAD NONE · AUTOMATIC FUMBLE & STUMBLE". ZN1, LD 6 (the face, no face
    // option), impact 16: G4E; Shock CS (4 + 4 − 1 = 7): stunned, still acting. No Dexterity or
    // Agility die.
    let mut m = melee(fighter(Defence::Block), fighter(Defence::Block));
    m.rules.face_option = false;
    let mut states = [State::default(); 2];
    let story = land_with(&m, &mut states, blow(1, 20, Aspect::Edge), &[1, 6, 16, 10]);
    assert!(
        story.contains("injury G4E") && story.contains("SHK 7 -> STN"),
        "{story}"
    );
    assert!(states[1].disarmed && states[1].prone, "{story}");
    // A Serious head: neither.
    let mut states = [State::default(); 2];
    let story = land_with(&m, &mut states, blow(1, 20, Aspect::Edge), &[1, 6, 6, 50]);
    assert!(!states[1].disarmed && !states[1].prone, "{story}");
}

#[test]
fn a_grievous_arm_fumbles_and_a_grievous_torso_stumbles_with_no_roll() {
    // "ARM FUMBLE ROLL · AUTOMATIC FUMBLE"; "TORSO STUMBLE ROLL (PELVIS ONLY) · AUTOMATIC
    // STUMBLE". The right (sword) forearm G4: ZN2, LD 8, d2 2, impact 16, Shock CS (1 + 4 − 1).
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    let mut states = [State::default(); 2];
    let story = land_with(
        &m,
        &mut states,
        blow(2, 20, Aspect::Edge),
        &[1, 8, 2, 16, 10],
    );
    assert!(
        story.contains("right forearm") && story.contains("G4E"),
        "{story}"
    );
    assert!(states[1].disarmed && !states[1].prone, "{story}");
    // The thorax G4: ZN4, LD 1, impact 16; Shock CS (4 + 4 − 1 = 7).
    let mut states = [State::default(); 2];
    let story = land_with(&m, &mut states, blow(4, 20, Aspect::Blunt), &[1, 1, 16, 10]);
    assert!(story.contains("thorax") && story.contains("G4B"), "{story}");
    assert!(states[1].prone && !states[1].disarmed, "{story}");
}

#[test]
fn a_serious_leg_makes_an_impaired_agility_roll_to_stay_up_a_grievous_one_falls() {
    // "LEGS STUMBLE ROLL · AUTOMATIC STUMBLE"; the Stumble roll is an Agility test, impaired by
    // the legs ("Agility ● · ● ●"). ZN8, LD 6 (calf), d2 1, impact 6: S2 (−10 to Agility);
    // Shock S (1 + 2 + 0). Agility 55 against EML50 fails: prone; 45 does not.
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    let mut states = [State::default(); 2];
    let story = land_with(
        &m,
        &mut states,
        blow(8, 10, Aspect::Edge),
        &[1, 6, 1, 6, 50, 55],
    );
    assert!(
        story.contains("left calf") && story.contains("S2E"),
        "{story}"
    );
    assert!(states[1].prone, "{story}");
    let mut states = [State::default(); 2];
    let story = land_with(
        &m,
        &mut states,
        blow(8, 10, Aspect::Edge),
        &[1, 6, 1, 6, 50, 45],
    );
    assert!(!states[1].prone, "{story}");
    // The thigh G4 (LD 1, impact 16): prone, no Agility die.
    let mut states = [State::default(); 2];
    let story = land_with(
        &m,
        &mut states,
        blow(8, 20, Aspect::Edge),
        &[1, 1, 1, 16, 10],
    );
    assert!(story.contains("G4E") && states[1].prone, "{story}");
}

#[test]
fn arrows_and_bolts_impale_on_an_s3_or_worse() {
    // "Arrows and crossbow bolts that inflict at least an S3 injury are impaled and require the
    // Extraction treatment." The abdomen (ZN4, LD 6): impact 10 is S3, 9 is S2.
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    let arrow = Blow {
        impales: true,
        ..blow(4, 10, Aspect::Point)
    };
    for (impact, impaled) in [(10, true), (9, false)] {
        let mut states = [State::default(); 2];
        let story = land_with(&m, &mut states, arrow, &[1, 6, impact, 50]);
        let injury = states[1].injuries.iter().next().copied();
        assert_eq!(injury.map(|x| x.impaled), Some(impaled), "{story}");
    }
}

#[test]
fn a_bleeder_follows_the_circle_and_the_aspect() {
    // "Compare its shaded circle with the causal injury's Severity ... If the striking weapon's
    // Aspect is indicated ..., then the injury is also a Bleeder": the abdomen's grey circle
    // bleeds from a G4 Edge, not a G4 Blunt.
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    let mut states = [State::default(); 2];
    let story = land_with(&m, &mut states, blow(4, 20, Aspect::Edge), &[1, 6, 16, 10]);
    assert!(story.contains("injury G4E, a Bleeder"), "{story}");
    assert_eq!(states[1].bleeders, 1);
    let mut states = [State::default(); 2];
    let story = land_with(&m, &mut states, blow(4, 20, Aspect::Blunt), &[1, 6, 16, 10]);
    assert!(
        story.contains("injury G4B") && !story.contains("Bleeder"),
        "{story}"
    );
    assert_eq!(states[1].bleeders, 0);
}

#[test]
fn a_glancing_blow_leaves_no_injury_but_injury_shock_1_and_plus_10() {
    // "E- or P-aspect strikes with an effective impact between 1 and 4 against rigid armour do
    // not inflict a Minor Injury (M1) but do impart Injury Shock 1 ... and +10 bonus to the
    // Shock Roll". A rigid skull cover of E8, impact 12: effective 4; Shock 51 against EML75:
    // 5 + 1 + 0 = 6.
    let mut target = fighter(Defence::Block);
    target.armour[Location::Skull as usize] = Cover {
        av: [8, 8, 8, 8],
        rigid: true,
    };
    let m = melee(fighter(Defence::Block), target);
    let mut states = [State::default(); 2];
    let story = land_with(&m, &mut states, blow(1, 20, Aspect::Edge), &[1, 1, 12, 51]);
    assert!(story.contains("glancing"), "{story}");
    assert!(
        story.contains("Shock roll 51 vs EML75: S: SHK 6"),
        "{story}"
    );
    assert!(states[1].injuries.is_empty(), "{story}");
}

#[test]
fn a_severed_neck_kills_before_the_shock_roll() {
    // "CF Location severed (if neck, then target dies)." The neck (ZN1, LD 9) G5E (impact 20);
    // Strength ML60 with the neck's white triangle (+20): 85 is a CF. No Shock die.
    let mut m = melee(fighter(Defence::Block), fighter(Defence::Block));
    m.rules.face_option = false;
    let mut states = [State::default(); 2];
    let story = land_with(&m, &mut states, blow(1, 20, Aspect::Edge), &[1, 9, 20, 85]);
    assert!(story.contains("the neck is severed"), "{story}");
    assert!(states[1].dead, "{story}");
}

#[test]
fn an_amputation_test_s_costs_the_shock_roll_20_and_a_cs_nothing() {
    // "S Location not severed, but Shock Roll (step 4.3) has a -20 penalty." "CS Location not
    // severed." The left thigh G5E (ZN8, LD 1, d2 1, impact 20); Strength 41 against EML80 is
    // an S: the Shock roll is against EML45; 40 is a CS: EML65.
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    for (strength, eml) in [(41, 45), (40, 65)] {
        let mut states = [State::default(); 2];
        let story = land_with(
            &m,
            &mut states,
            blow(8, 20, Aspect::Edge),
            &[1, 1, 1, 20, strength, 99],
        );
        assert!(story.contains(&format!("vs EML{eml}")), "{story}");
        assert_eq!(states[1].amputations, 0, "{story}");
    }
}

#[test]
fn a_compounded_g5_gives_injury_shock_6_and_a_compounded_s2_its_raised_level() {
    // "When a G5 injury compounds, its Injury Level remains 5, but it contributes Injury Shock 6
    // in step 4.2"; "If a Compound Injury occurred in step 3.1, then use its IL instead." A G5B
    // left thigh on record, a new M1 to it (impact 1), compound d10 1, Shock S: 3 + 6 + 0 = 9.
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    let mut states = wounded(&m, Location::Thigh, BodySide::Left, Aspect::Blunt, 5);
    let story = land_with(
        &m,
        &mut states,
        blow(8, 20, Aspect::Blunt),
        &[1, 1, 1, 1, 1, 51],
    );
    assert!(story.contains("compound injury"), "{story}");
    assert!(story.contains("SHK 9 -> UNC"), "{story}");
    // An S2E abdomen on record, a new M1, compound d10 1: S3; Shock S: 4 + 3 + 0 = 7.
    let mut states = wounded(&m, Location::Abdomen, BodySide::Centre, Aspect::Edge, 2);
    let story = land_with(
        &m,
        &mut states,
        blow(4, 20, Aspect::Edge),
        &[1, 6, 1, 1, 51],
    );
    assert!(story.contains("SHK 7 -> STN"), "{story}");
}

#[test]
fn the_shock_roll_takes_fatigue_but_not_impairment() {
    // "The test includes Fatigue penalty but not Injury impairment." Fatigue 10 and an S2
    // abdomen on record (−10 to impaired tests): a new M1 to the skull rolls against EML55.
    let mut target = fighter(Defence::Block);
    target.fatigue = 10;
    let m = melee(fighter(Defence::Block), target);
    let mut states = wounded(&m, Location::Abdomen, BodySide::Centre, Aspect::Edge, 2);
    let story = land_with(&m, &mut states, blow(1, 20, Aspect::Edge), &[1, 1, 1, 50]);
    assert!(story.contains("Shock roll 50 vs EML55"), "{story}");
}

/// The end of the defender's turn `turn` with these dice, every die used: the story.
fn end_turn(m: &Melee, states: &mut [State; 2], turn: u32, dice: &[u32]) -> String {
    states[1].turn = turn;
    let mut scripted = ScriptedDice::new(dice.to_vec());
    let mut log = VecLog::default();
    m.end_of_turn(
        (Side::B, test_turn(Side::B)),
        states,
        &mut scripted,
        &mut log,
    );
    let story = log.lines.join("\n");
    assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
    assert_eq!(scripted.used(), dice.len(), "dice used\n{story}");
    story
}

#[test]
fn a_stun_is_retried_every_round_until_a_shock_test_succeeds() {
    // "A successful Shock test at the end of the target's next turn removes the stunned state.
    // Retry every round." Stunned in turn 2: 99 at the end of turn 3 keeps it, 50 at turn 4
    // removes it.
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    let mut states = [State::default(); 2];
    states[1].shock = ShockState::Stunned;
    states[1].reroll_due = true;
    states[1].shock_turn = 2;
    let story = end_turn(&m, &mut states, 3, &[99]);
    assert!(story.contains("still stunned"), "{story}");
    assert_eq!(states[1].shock, ShockState::Stunned);
    let story = end_turn(&m, &mut states, 4, &[50]);
    assert!(story.contains("no longer stunned"), "{story}");
    assert_eq!(states[1].shock, ShockState::None);
}

#[test]
fn a_shock_reroll_takes_20_and_fatigue_and_its_cf_is_extended_shock() {
    // "Characters who are Incapacitated or Unconscious make a Shock Reroll test of Shock ML
    // with a –20 penalty. Shock Rerolls are also affected by Fatigue penalty"; "CF ...
    // Extended Shock ... with HR4". Shock ML65, fatigue 10: EML35; 50 is a CF.
    let mut target = fighter(Defence::Block);
    target.fatigue = 10;
    let m = melee(fighter(Defence::Block), target);
    let mut states = [State::default(); 2];
    states[1].shock = ShockState::Incapacitated;
    states[1].reroll_due = true;
    states[1].shock_turn = 1;
    let story = end_turn(&m, &mut states, 2, &[50]);
    assert!(story.contains("Shock Reroll 50 vs EML35: CF"), "{story}");
    assert_eq!(states[1].extended_shock, Some(4));
    // F: Extended Shock with HR5.
    states[1].extended_shock = None;
    let story = end_turn(&m, &mut states, 3, &[51]);
    assert_eq!(states[1].extended_shock, Some(5), "{story}");
}

#[test]
fn a_grievous_injury_borne_conscious_calls_for_morale() {
    // "if the victim is able to remain conscious after a Grievous injury, ... they must test
    // Morale to continue". The right forearm G4 with a Shock CS (none): at the end of the
    // turn a Morale roll (Initiative ML60, fatigue 10: "Only these modifiers affect their
    // tests: Fatigue penalty"): 51 breaks.
    let mut target = fighter(Defence::Block);
    target.fatigue = 10;
    let m = melee(fighter(Defence::Block), target);
    let mut states = [State::default(); 2];
    land_with(
        &m,
        &mut states,
        blow(2, 20, Aspect::Edge),
        &[1, 8, 2, 16, 10],
    );
    let story = end_turn(&m, &mut states, 1, &[51]);
    assert!(story.contains("Morale roll 51 vs EML50: breaks"), "{story}");
    assert!(states[1].routed);
}

#[test]
fn an_unconscious_defender_is_a_cs_ignore_result() {
    // UNC: "Helpless (CS Ignore result when targeted in melee)." The attacker's 61 (an F)
    // against an unconscious defender: a CS against Ignore, four stars.
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    let mut states = [State::default(); 2];
    states[1].shock = ShockState::Unconscious;
    let mut scripted = ScriptedDice::new(vec![61, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    let mut log = VecLog::default();
    m.exchange(
        Side::A,
        &mut states,
        false,
        &mut scripted,
        &mut log,
        &mut |_| {},
    );
    let story = log.lines.join("\n");
    assert!(
        story.contains("61 vs EML60: CS; defender ignores: the attacker wins, 4 stars"),
        "{story}"
    );
}

#[test]
fn a_severed_location_is_not_tested_for_amputation_again() {
    // "CF Location severed": once. A severed G5E left thigh on record, a new M1 Edge to it,
    // compound d10 1: the G5 compounds (Injury Shock 6) with no second Strength test.
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    let mut states = wounded(&m, Location::Thigh, BodySide::Left, Aspect::Edge, 5);
    if let Some(x) = states[1].injuries.get_mut(0) {
        x.severed = true;
    }
    let story = land_with(
        &m,
        &mut states,
        blow(8, 20, Aspect::Edge),
        &[1, 1, 1, 1, 1, 51],
    );
    assert!(!story.contains("amputation test"), "{story}");
    assert!(story.contains("SHK 9"), "{story}");
}

/// A round shield: blocks, Reach 0.
const SHIELD: Weapon = Weapon {
    impact_die: 4,
    impact_modifier: 0,
    aspect: Aspect::Blunt,
    zone_die: 6,
    reach: 0,
    heft: 4,
    thrust: false,
    two_handed: false,
    impact_ta: 0,
};

#[test]
fn a_shield_block_and_a_dodge_refer_to_the_readied_spear_for_reach() {
    // "a defender who Blocks with a shield in one hand may refer to a readied spear in the
    // other hand for determining Reach and Thrust modifiers"; "Dodges still require the
    // designation of a readied weapon ... for determining the attacker's Reach Penalty": the
    // broadsword (Reach 4) against the spear (7): 60 − 15 = EML45 either way.
    let mut spearman = fighter(Defence::Block);
    spearman.weapon = SPEAR;
    spearman.shield = Some(SHIELD);
    let m = melee(fighter(Defence::Block), spearman);
    let (story, _) = exchange(&m, &mut [State::default(); 2], &[100, 51]);
    assert!(story.contains("attacks defender: 100 vs EML45"), "{story}");
    spearman.shield = None;
    spearman.defence = Defence::Dodge;
    let m = melee(fighter(Defence::Block), spearman);
    let (story, _) = exchange(&m, &mut [State::default(); 2], &[100, 51]);
    assert!(
        story.contains("attacks defender: 100 vs EML45: CF; defender Dodge"),
        "{story}"
    );
}

#[test]
fn a_block_wins_tied_successes_and_checks_for_weapon_damage() {
    // "a Block defence automatically wins tied successes, and a check for Weapon Damage is made
    // (page 191)"; "BLOCK a tied success means the attack fails; check for Weapon Damage". Both
    // S (36, 51): the d100 3 is within the 5% of the docs' page 191: the weapon breaks (with a
    // shield, the shield); 6 is not. A Block that wins outright (71 against 36) rolls no check.
    let m = melee(fighter(Defence::Block), fighter(Defence::Block));
    let mut states = [State::default(); 2];
    let (story, _) = exchange(&m, &mut states, &[36, 51, 3]);
    assert!(story.contains("the defender wins, 1 star"), "{story}");
    assert!(
        story.contains("the block breaks defender's weapon"),
        "{story}"
    );
    assert!(states[1].disarmed && !states[0].disarmed);
    let mut states = [State::default(); 2];
    let (story, _) = exchange(&m, &mut states, &[36, 51, 6]);
    assert!(!story.contains("breaks") && !states[1].disarmed, "{story}");
    exchange(&m, &mut [State::default(); 2], &[71, 36]);
    let mut shielded = fighter(Defence::Block);
    shielded.shield = Some(SHIELD);
    let m = melee(fighter(Defence::Block), shielded);
    let mut states = [State::default(); 2];
    exchange(&m, &mut states, &[36, 51, 3]);
    assert!(states[1].shield_broken && !states[1].disarmed);
}

#[test]
fn each_extra_block_or_dodge_star_is_a_bonus_action_or_a_setup() {
    // "TACTICAL ADVANTAGE each extra Block star can be a bonus ACTION or a SETUP"; the same
    // for Dodge. The attacker's 71 (F) against the defender's 10 (CS): two stars, one TA; a
    // defender preferring a bonus action attacks (99 against the Block 98: no strike).
    for defence in [Defence::Block, Defence::Dodge] {
        let mut d = action_taker();
        d.defence = defence;
        let m = melee(fighter(Defence::Block), d);
        let (story, _) = exchange(&m, &mut [State::default(); 2], &[71, 10, 99, 98]);
        in_order(
            &story,
            &[
                "the defender wins, 2 stars",
                "defender takes a bonus action: an attack",
                "defender attacks attacker: 99 vs EML60",
            ],
        );
        // Preferring a Setup, it takes one (no die).
        d.advantages = [
            Advantage::Setup,
            Advantage::Action,
            Advantage::Impact,
            Advantage::Precision,
        ];
        let m = melee(fighter(Defence::Block), d);
        let mut states = [State::default(); 2];
        let (story, _) = exchange(&m, &mut states, &[71, 10]);
        assert!(states[1].setup, "{story}");
    }
}

#[test]
fn against_ignore_the_tas_are_only_impact_or_precision() {
    // "IGNORE: CF MISHAP · F · S · CS · ★ TA: IMPACT OR TA: PRECISION": an attacker who prefers
    // a bonus action and a Setup takes neither against Ignore. S (36): three stars, Impact (5)
    // and Precision (two Zone Dice, both ZN4, then two Location Dice); F (61): two stars,
    // Impact only (one Zone Die).
    let mut m = melee(action_taker(), fighter(Defence::Ignore));
    m.rules.face_option = false;
    let mut states = [State::default(); 2];
    let (story, _) = exchange(&m, &mut states, &[36, 4, 4, 6, 6, 1, 51]);
    assert!(story.contains("the attacker wins, 3 stars"), "{story}");
    assert!(story.contains("impact 1 + 4 + 5 TA"), "{story}");
    assert!(
        !story.contains("bonus action") && !states[0].setup,
        "{story}"
    );
    let (story, _) = exchange(&m, &mut [State::default(); 2], &[61, 4, 6, 1, 51]);
    assert!(story.contains("the attacker wins, 2 stars"), "{story}");
    assert!(story.contains("impact 1 + 4 + 5 TA"), "{story}");
}

#[test]
fn in_close_the_thrust_bonus_goes_to_the_shorter_thrust() {
    // "Combatants making a Melee Strike with a Thrust (T) weapon whose Reach is greater than the
    // opponent's RCH receive a bonus equal to the DIFFERENCE × 5. In Close, the bonus goes to
    // thrusts with lower RCH." A thrusting dagger (Reach 1) against the spear (7) in Close:
    // +30; out of Close, the Reach Penalty instead (−30).
    let dagger = Weapon {
        reach: 1,
        thrust: true,
        aspect: Aspect::Point,
        ..BROADSWORD
    };
    let mut knifer = fighter(Defence::Block);
    knifer.weapon = dagger;
    let mut spearman = fighter(Defence::Block);
    spearman.weapon = SPEAR;
    let m = melee(knifer, spearman);
    let states = [State::default(); 2];
    assert_eq!(m.strike_eml(Side::A, &states, Some(&SPEAR), true).0, 90);
    assert_eq!(m.strike_eml(Side::A, &states, Some(&SPEAR), false).0, 30);
}

#[test]
fn a_disarmed_defender_designates_its_punch_for_the_attackers_reach_and_thrust() {
    // "Dodges still require the designation of a readied weapon and strike mode for determining
    // the attacker's Reach Penalty or Thrust Bonus, as for Blocks. An unarmed defender may
    // designate punch, bite, or claw." A thrusting spear (Reach 7) against the readied
    // broadsword (4): 60 + 3 × 5 = EML75; against the punch (Reach 0) of the swordsman who
    // dropped it: 60 + 7 × 5 = EML95. Blocking with nothing readied, he Dodges.
    let mut spearman = fighter(Defence::Block);
    spearman.weapon = SPEAR;
    let m = melee(spearman, fighter(Defence::Block));
    let (story, _) = exchange(&m, &mut [State::default(); 2], &[100, 51]);
    assert!(story.contains("attacks defender: 100 vs EML75"), "{story}");
    let mut states = [State::default(); 2];
    states[1].disarmed = true;
    let (story, _) = exchange(&m, &mut states, &[100, 51]);
    assert!(
        story.contains("attacks defender: 100 vs EML95: CF; defender Dodge 51"),
        "{story}"
    );
    // A defender holding a shield and nothing else Blocks with it and designates the punch of
    // its free hand: EML95 again. A broadsword (Reach 4, no thrust) against that punch keeps 60:
    // the longer weapon takes no Reach Penalty and has no Thrust Bonus to take.
    let mut shielded = fighter(Defence::Block);
    shielded.shield = Some(SHIELD);
    let m = melee(spearman, shielded);
    let mut states = [State::default(); 2];
    states[1].disarmed = true;
    let (story, _) = exchange(&m, &mut states, &[100, 51]);
    assert!(
        story.contains("attacks defender: 100 vs EML95: CF; defender Block 51"),
        "{story}"
    );
    let m = melee(fighter(Defence::Block), shielded);
    let mut states = [State::default(); 2];
    states[1].disarmed = true;
    let (story, _) = exchange(&m, &mut states, &[100, 51]);
    assert!(story.contains("attacks defender: 100 vs EML60"), "{story}");
}

#[test]
fn a_shield_block_is_a_shield_arm_action() {
    // "a right shoulder injury affects only right-arm actions, such as striking with a sword
    // ... Left arm actions and movement are unaffected"; "ARM IMPAIRED TESTS (RIGHT OR LEFT)".
    // A right-handed swordsman blocks with the shield in his left hand: a Grievous right
    // (sword) forearm leaves the Block whole (EML60, a roll, no automatic CF), a Serious one
    // costs it nothing; a Serious left forearm costs it 10; a Grievous left forearm prohibits it.
    let mut shielded = fighter(Defence::Block);
    shielded.shield = Some(SHIELD);
    let m = melee(fighter(Defence::Block), shielded);
    for (side, il, block) in [
        (BodySide::Right, 4, "defender Block 51 vs EML60: S"),
        (BodySide::Right, 2, "defender Block 51 vs EML60: S"),
        (BodySide::Left, 2, "defender Block 51 vs EML50: F"),
        (BodySide::Left, 4, "defender Block 100 vs EML60: CF"),
    ] {
        let mut states = wounded(&m, Location::Forearm, side, Aspect::Edge, il);
        let dice: &[u32] = if il == 4 && side == BodySide::Left {
            &[100]
        } else {
            &[100, 51]
        };
        let (story, _) = exchange(&m, &mut states, dice);
        assert!(story.contains(block), "{side:?} IL{il}: {story}");
    }
    // A two-handed weapon's Block stays a two-arm action: a Grievous left forearm prohibits it.
    let mut two = fighter(Defence::Block);
    two.weapon.two_handed = true;
    let m = melee(fighter(Defence::Block), two);
    let mut states = wounded(&m, Location::Forearm, BodySide::Left, Aspect::Edge, 4);
    let (story, _) = exchange(&m, &mut states, &[100]);
    assert!(story.contains("defender Block 100 vs EML60: CF"), "{story}");
}
