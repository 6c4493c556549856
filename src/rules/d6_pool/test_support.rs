//! Test helpers shared by the ruleset's test modules: a plain fighter and a bare one, models,
//! one attack or a whole duel on exactly the scripted dice, and scenarios compiled from text.
//! The rule ledger tests (`docs/rules/d6-pool.md`, "Rule ledger") take their expected values
//! from the sentences of `shared/rules/d6-pool.txt` (L = line).

use super::{Attack, D6Pool, Fighter, File, Healing, Purpose, Rules, Stance, State, Weapon};
use crate::dice::{ScriptedDice, Stream};
use crate::log::VecLog;
use crate::rules::{FirstStrike, Ruleset};
use crate::scenario::error::Source;
use crate::stats::{Side, Tally};

/// The stream of an attack of fighter 0 in round 1, for attacks on scripted dice (which ignore
/// streams).
pub(crate) fn key() -> Stream {
    Stream::new(Purpose::Attack, 0, 1)
}

pub(super) const MELEE: Weapon = Weapon {
    dice: 3,
    class_dice: 0,
    crit_bonus: 0,
    thrown: false,
    throw_bonus: 0,
};

/// Three attack dice; ARMOR 1, SHIELD 1, PARRY/DODGE 1; health 10.
pub(super) fn fighter() -> Fighter {
    Fighter {
        melee: MELEE,
        missile: None,
        ammo: 0,
        armor: 1,
        shield: 1,
        parry: 1,
        health: 10,
        luck: 0,
        heal: 0,
        stance: Stance::Normal,
        luck_per_attack: 0,
        luck_at_health: i32::MAX,
    }
}

/// A defender with no defence dice: nothing is ever blocked.
pub(super) fn bare() -> Fighter {
    Fighter {
        armor: 0,
        shield: 0,
        parry: 0,
        ..fighter()
    }
}

pub(super) fn model(a: Fighter, b: Fighter) -> D6Pool {
    model_with(a, b, Rules::default(), Healing::default())
}

pub(super) fn model_with(a: Fighter, b: Fighter, rules: Rules, healing: Healing) -> D6Pool {
    D6Pool::new([a, b], ["a".into(), "b".into()], rules, healing, 20)
}

pub(super) fn start(m: &D6Pool) -> [State; 2] {
    [State::start(&m.fighters[0]), State::start(&m.fighters[1])]
}

/// `side` attacks with exactly these dice (all must be used).
pub(super) fn attack_by(m: &D6Pool, side: Side, states: &mut [State; 2], dice: &[u32]) -> Attack {
    let mut scripted = ScriptedDice::new(dice.to_vec());
    let mut log = VecLog::default();
    let attack = m.attack(
        super::Blow::in_duel(side),
        key(),
        states,
        &mut scripted,
        &mut log,
    );
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
    attack
}

/// `a` attacks `b` from the start of the duel.
pub(super) fn a_attacks(m: &D6Pool, dice: &[u32]) -> (Attack, [State; 2]) {
    let mut states = start(m);
    let attack = attack_by(m, Side::A, &mut states, dice);
    (attack, states)
}

pub(super) fn compiled(text: &str) -> D6Pool {
    match parse(text) {
        Ok(m) => m,
        Err(e) => panic!("{e}"),
    }
}

pub(super) fn parse(text: &str) -> Result<D6Pool, String> {
    let file: File = toml::from_str(text).map_err(|e| e.to_string())?;
    let source = Source {
        path: std::path::Path::new("t.toml"),
        text,
    };
    D6Pool::compile(&file, &source).map_err(|e| e.to_string())
}

pub(super) fn run(m: &D6Pool, dice: &[u32]) -> (Tally, Vec<String>) {
    let mut scripted = ScriptedDice::new(dice.to_vec());
    let mut log = VecLog::default();
    let mut tally = Tally::new(m.shape());
    m.trial(&mut scripted, &mut log, &mut tally);
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
    (tally, log.lines)
}

pub(super) fn a_first() -> Rules {
    Rules {
        first_strike: FirstStrike::A,
        ..Rules::default()
    }
}
