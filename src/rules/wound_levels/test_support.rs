//! Test helpers shared by the ruleset's test modules: fudge rolls as scripted d3s, a plain
//! fighter, Bob and Adam of the text's "Example of Combat", and what the rule ledger tests
//! (`docs/rules/wound-levels.md`, "Rule ledger") build on: models, plans, one strike and a
//! whole duel on exactly the scripted dice. The ledger tests take their expected values from
//! the sentences of `shared/rules/wound-levels.txt` (L = line).

use super::actions::Plan;
use super::{Fighter, File, FireMode, Healing, Rules, State, WeaponKind, Withdraw, WoundLevels};
use crate::dice::ScriptedDice;
use crate::log::VecLog;
use crate::rules::Ruleset;
use crate::scenario::error::Source;
use crate::scenario::fields::Ranged;
use crate::stats::{Side, Tally};

/// Four fudge dice (d3: 1 −, 2 blank, 3 +) that total `value`.
pub(super) fn fudge(value: i32) -> [u32; 4] {
    let mut dice = [2u32; 4];
    for d in dice.iter_mut().take(value.unsigned_abs() as usize) {
        *d = if value > 0 { 3 } else { 1 };
    }
    dice
}

pub(super) fn script(values: &[i32]) -> ScriptedDice {
    ScriptedDice::new(values.iter().flat_map(|&v| fudge(v)).collect::<Vec<_>>())
}

pub(super) fn fighter(kind: WeaponKind, damage_bonus: i32) -> Fighter {
    Fighter {
        melee: 3,
        ranged: 3,
        physique: 3,
        initiative: 3,
        evasion: false,
        armour: 1,
        kind,
        damage_bonus,
        unarmed_bonus: 1,
        clip: 0,
        spare_clips: 0,
        automatic: false,
        throwable: false,
        attacks: 1,
        evade: 1,
        withdraw: Withdraw::Never,
        fire_mode: FireMode::Single,
        throw: false,
    }
}

/// Bob (a) and Adam (b) as the text describes them: both Professional (+3) in their combat
/// skill and Physique, 1 point of armour; Bob has Evasion and an automatic pistol (+3
/// damage), Adam a knife (+2 melee, +1 for Professional Physique).
pub(super) fn bob_and_adam(healing: Healing) -> WoundLevels {
    let mut bob = fighter(WeaponKind::Ranged, 3);
    bob.evasion = true;
    bob.clip = 15;
    bob.spare_clips = 1;
    bob.automatic = true;
    bob.attacks = 2;
    bob.withdraw = Withdraw::WhenOpponentCannotWalk;
    bob.fire_mode = FireMode::Auto;
    let mut adam = fighter(WeaponKind::Melee, 3);
    adam.throwable = true;
    adam.throw = true;
    WoundLevels::new(
        [bob, adam],
        ["Bob".into(), "Adam".into()],
        Rules::default(),
        healing,
        20,
    )
}

/// Help at once and no healing checks: a trial spends no die after the duel.
pub(super) fn ledger_quiet() -> Healing {
    Healing {
        help_minutes: Ranged::new(0),
        horizon_days: Ranged::new(1),
        ..Healing::default()
    }
}

pub(super) fn ledger_model_with(
    a: Fighter,
    b: Fighter,
    rules: Rules,
    round_limit: u32,
) -> WoundLevels {
    WoundLevels::new(
        [a, b],
        ["a".into(), "b".into()],
        rules,
        ledger_quiet(),
        round_limit,
    )
}

pub(super) fn ledger_model(a: Fighter, b: Fighter, round_limit: u32) -> WoundLevels {
    ledger_model_with(a, b, Rules::default(), round_limit)
}

pub(super) fn ledger_plan(attacks: u32, dodges: u32) -> Plan {
    Plan {
        attacks,
        dodges,
        ..Plan::default()
    }
}

/// The d3 results of fudge rolls with these totals, in order.
pub(super) fn ledger_fudge(values: &[i32]) -> Vec<u32> {
    values.iter().flat_map(|&v| fudge(v)).collect()
}

/// One attack of `attacker` (engaged), the fighters at these damages, with these declared
/// plans (each plan's dodges are its dodges left); every scripted roll must be used.
pub(super) fn ledger_strike(
    model: &WoundLevels,
    attacker: Side,
    damage: [u32; 2],
    declared: [Plan; 2],
    rolls: &[i32],
) -> (Option<u32>, [State; 2]) {
    let mut states = [
        State {
            damage: damage[0],
            ..State::default()
        },
        State {
            damage: damage[1],
            ..State::default()
        },
    ];
    let mut dodges_left = declared.map(|p| p.dodges);
    let mut dice = script(rolls);
    let mut log = VecLog::default();
    let dealt = model.attack(
        attacker,
        &declared,
        &mut dodges_left,
        &mut states,
        true,
        &mut dice,
        &mut log,
    );
    let story = log.lines.join("\n");
    assert!(dice.finish().is_ok(), "{:?}\n{story}", dice.error());
    assert_eq!(dice.used(), rolls.len() * 4, "dice left over:\n{story}");
    (dealt, states)
}

/// A whole trial on exactly these dice (all must be used); the tally and the narration.
pub(super) fn ledger_duel(model: &WoundLevels, dice: Vec<u32>) -> (Tally, String) {
    let mut scripted = ScriptedDice::new(dice.clone());
    let mut log = VecLog::default();
    let mut tally = Tally::new(model.shape());
    model.trial(&mut scripted, &mut log, &mut tally);
    let story = log.lines.join("\n");
    assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
    assert_eq!(scripted.used(), dice.len(), "dice left over:\n{story}");
    (tally, story)
}

pub(super) fn ledger_compile(text: &str) -> WoundLevels {
    let file: File = match toml::from_str(text) {
        Ok(f) => f,
        Err(e) => panic!("{e}"),
    };
    let source = Source {
        path: std::path::Path::new("t.toml"),
        text,
    };
    match WoundLevels::compile(&file, &source) {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    }
}
