//! One exchange for exact tables (`duelsim exact`): the attacker's first attack of its first
//! turn, declared as the duel declares it and rolled through the same attack the duel rolls
//! (`attack.rs`), answered by the defender's declared dodge, through armour to the damage and
//! the wound level it leaves (the text's "Wound Levels" list names the marks).

use super::WoundLevels;
use crate::dice::Dice;
use crate::stats::Side;

/// The wound levels by name, 0 unhurt.
const LEVEL_NAMES: [&str; 8] = [
    "unhurt",
    "1 Negligible",
    "2 Light",
    "3 Moderate",
    "4 Serious",
    "5 Critical",
    "6 Terminal",
    "7 Mortal",
];

/// One exchange for exact tables: the attacker's first attack of its first turn, declared as
/// the duel declares it (in melee for a melee fighter, at range for a shooter), answered by the
/// defender's declared dodge, through armour to the damage and the wound level it leaves; the
/// same `attack` the duel rolls.
impl crate::exact::Exchange for WoundLevels {
    const UNIT: &'static str = "damage";
    const RESULTS: &'static [&'static str] = &["miss", "no attack", "hit"];
    const MISSES: usize = 2;

    fn exchange<D: Dice>(&self, attacker: Side, dice: &mut D) -> crate::exact::Outcome {
        let mut states = self.start_states();
        let engaged = !self.fighters[attacker.index()].kind.is_ranged();
        let plans = self.plans(attacker.other(), &states, engaged);
        if plans[attacker.index()].attacks == 0 {
            return crate::exact::Outcome {
                result: "no attack",
                value: 0,
                kind: "",
            };
        }
        let mut dodges_left = plans.map(|p| p.dodges);
        let dealt = self.attack(
            attacker,
            &plans,
            &mut dodges_left,
            &mut states,
            engaged,
            dice,
            &mut crate::log::NoLog,
        );
        let level = Self::level(states[attacker.other().index()].damage) as usize;
        crate::exact::Outcome {
            result: if dealt.is_some() { "hit" } else { "miss" },
            value: dealt.unwrap_or(0),
            kind: if dealt.is_some() {
                LEVEL_NAMES[level.min(7)]
            } else {
                ""
            },
        }
    }
}
