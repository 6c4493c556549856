//! Test support shared by the guard-pierce tests in every file of this folder: fighters, points,
//! wound rows and scripted attacks. The rule ledger tests (docs/rules/guard-pierce.md, "Rule
//! ledger") take their expected numbers from the sentences of shared/rules/guard-pierce.txt
//! (quoted). Default sheet: penalties of rows 1-12 [0,0,1,2,3,3,4,4,5,5,6,6], worst row 12,
//! circled 14 and 16, dead from 18.

use super::{Attack, Fighter, GuardPierce, Healing, Interval, Rules, Track, WoundRows};
use crate::dice::ScriptedDice;
use crate::log::VecLog;
use crate::scenario::fields::Ranged;
use crate::stats::Side;

const NO_ARMOUR: Interval = Interval { low: 0, high: 0 };

pub(crate) fn fighter(attack: i32, guard: i32, damage: u32, pierce: u32) -> Fighter {
    Fighter {
        attack,
        guard,
        willpower: 10,
        strength: 10,
        damage,
        pierce,
        stun_weapon: false,
        coverage: 0,
        protection: NO_ARMOUR,
        recover_at: 0,
        track: Track::default_sheet(5),
    }
}

pub(crate) fn model(a: Fighter, b: Fighter) -> GuardPierce {
    GuardPierce::new(
        [a, b],
        ["a".into(), "b".into()],
        Rules::default(),
        Healing::default(),
        40,
    )
}

/// `a` attacks `b` with scripted dice; returns the attack and b's wounds.
pub(crate) fn attack_with(m: &GuardPierce, before: WoundRows, dice: &[u32]) -> (Attack, WoundRows) {
    let mut rows = [WoundRows::default(), before];
    let mut scripted = ScriptedDice::new(dice.to_vec());
    let mut log = VecLog::default();
    let attack = m.attack(Side::A, &mut rows, &mut scripted, &mut log);
    assert!(
        scripted.finish().is_ok(),
        "{:?} {:?}",
        scripted.error(),
        log.lines
    );
    assert_eq!(
        scripted.used(),
        dice.len(),
        "dice left over: {:?}",
        log.lines
    );
    (attack, rows[1])
}

pub(crate) fn rows(injury: &[u32], stun: &[u32]) -> WoundRows {
    let set = |r: &[u32]| r.iter().fold(0u64, |m, &x| m | 1 << x);
    WoundRows {
        injury: set(injury),
        stun: set(stun),
    }
}

pub(crate) fn ledger_point(
    a: Fighter,
    b: Fighter,
    rules: Rules,
    healing: Healing,
    round_limit: u32,
) -> GuardPierce {
    GuardPierce::new(
        [a, b],
        ["a".into(), "b".into()],
        rules,
        healing,
        round_limit,
    )
}

/// Healing with the given rate, horizon and medical Background (attention as by default).
pub(crate) fn ledger_healing(interval: i64, horizon: i64, medical: i64) -> Healing {
    Healing {
        interval_days: Ranged::new(interval),
        horizon_days: Ranged::new(horizon),
        medical: Ranged::new(medical),
        ..Healing::default()
    }
}

/// A Stun weapon (marked * in the weapons table).
pub(crate) fn ledger_cudgel(damage: u32, pierce: u32) -> Fighter {
    let mut f = fighter(14, 5, damage, pierce);
    f.stun_weapon = true;
    f
}

/// `a` attacks `b`, both with wounds before; every die must be used.
pub(crate) fn ledger_attack(
    m: &GuardPierce,
    before: [WoundRows; 2],
    dice: &[u32],
) -> (Attack, [WoundRows; 2], String) {
    let mut both = before;
    let mut scripted = ScriptedDice::new(dice.to_vec());
    let mut log = VecLog::default();
    let attack = m.attack(Side::A, &mut both, &mut scripted, &mut log);
    let story = log.lines.join("\n");
    assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
    assert_eq!(scripted.used(), dice.len(), "dice left over\n{story}");
    (attack, both, story)
}
