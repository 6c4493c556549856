//! Test support shared by the twin-d20 tests in every file of this folder: fighters, points and
//! scripted strikes. The rule ledger tests (docs/rules/twin-d20.md, "Rule ledger") take their
//! expected numbers from the sentences of shared/rules/twin-d20.txt (quoted).

use super::{Fighter, Healing, Rules, TwinD20, WoundCircles};
use crate::dice::ScriptedDice;
use crate::log::NoLog;
use crate::stats::Side;

pub(crate) fn fighter(attack: i32, defense: i32, toughness: u32, damage: u32) -> Fighter {
    Fighter {
        attack,
        defense,
        toughness,
        damage,
        coverage: 0,
        protection: 0,
    }
}

pub(crate) fn point(a: Fighter, b: Fighter, rules: Rules) -> TwinD20 {
    TwinD20::new(
        [a, b],
        ["a".into(), "b".into()],
        rules,
        Healing::default(),
        50,
    )
}

pub(crate) fn strike_with(model: &TwinD20, dice: &[u32]) -> (Option<u32>, WoundCircles) {
    let mut wounds = WoundCircles::default();
    let mut scripted = ScriptedDice::new(dice.to_vec());
    let strike = model.strike(Side::A, &mut wounds, &mut scripted, &mut NoLog);
    assert!(scripted.finish().is_ok());
    (strike.hit.then_some(strike.dealt), wounds)
}

pub(crate) fn ledger_point(
    a: Fighter,
    b: Fighter,
    rules: Rules,
    healing: Healing,
    round_limit: u32,
) -> TwinD20 {
    TwinD20::new(
        [a, b],
        ["a".into(), "b".into()],
        rules,
        healing,
        round_limit,
    )
}

/// One whole trial on scripted dice; every die must be used. Returns the tally and the story.
pub(crate) fn scripted_trial(model: &TwinD20, dice: &[u32]) -> (crate::stats::Tally, String) {
    use crate::rules::Ruleset;
    let mut scripted = ScriptedDice::new(dice.to_vec());
    let mut tally = crate::stats::Tally::new(model.shape());
    let mut log = crate::log::VecLog::default();
    model.trial(&mut scripted, &mut log, &mut tally);
    let story = log.lines.join("\n");
    assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
    assert_eq!(scripted.used(), dice.len(), "dice left over\n{story}");
    (tally, story)
}
