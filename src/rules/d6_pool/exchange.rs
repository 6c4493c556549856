//! One exchange for exact tables (`duelsim exact`): one attack from fighters at the start of
//! the duel, the very attack the duel rolls (`attack.rs`); its outcome is a whiff, blocked, a
//! hit or a Critical Strike (the attack table's columns), the damage dealt, and whether it
//! stunned.

use super::attack_table::{CRITICAL, WHIFF};
use super::{D6Pool, State};
use crate::dice::{Dice, Stream};
use crate::stats::Side;

/// One exchange for exact tables: `attack`, the very attack the duel rolls, from fighters at
/// the start of the duel; its outcome is the hit (a whiff, blocked, a hit or a Critical
/// Strike), the damage dealt, and whether it stunned.
impl crate::exact::Exchange for D6Pool {
    const UNIT: &'static str = "damage";
    const RESULTS: &'static [&'static str] = &["whiff", "blocked", "hit", "Critical Strike"];
    const MISSES: usize = 2;

    fn exchange<D: Dice>(&self, attacker: Side, dice: &mut D) -> crate::exact::Outcome {
        let mut states = self.fighters.map(|f| State::start(&f));
        let blow = super::Blow::in_duel(attacker);
        let key = Stream::new(super::Purpose::Attack, attacker.index(), 1);
        let attack = self.attack(blow, key, &mut states, dice, &mut crate::log::NoLog);
        let result = match (attack.column, attack.blocked) {
            (WHIFF, _) => "whiff",
            (_, true) => "blocked",
            (CRITICAL, _) => "Critical Strike",
            _ => "hit",
        };
        crate::exact::Outcome {
            result,
            value: attack.damage.max(0) as u32,
            kind: match (attack.hit(), attack.stunned) {
                (false, _) => "",
                (true, true) => "stunned",
                (true, false) => "not stunned",
            },
        }
    }
}
