//! One exchange for exact tables (`duelsim exact`): [`TwinD20::strike`], the very attack the duel
//! rolls (the text's damage rules, L1–L7, and armour, L10), on an unwounded defender. Its
//! results are miss, one die hits and both dice hit; its value the damage dealt after armour.

use super::TwinD20;
use super::wound_circles::WoundCircles;
use crate::dice::Dice;
use crate::stats::Side;

/// One exchange for exact tables: `strike`, the very attack the duel rolls, on an unwounded
/// defender.
impl crate::exact::Exchange for TwinD20 {
    const UNIT: &'static str = "damage";
    const RESULTS: &'static [&'static str] = &["miss", "one die hits", "both dice hit"];

    fn exchange<D: Dice>(&self, attacker: Side, dice: &mut D) -> crate::exact::Outcome {
        let mut wounds = WoundCircles::default();
        let strike = self.strike(attacker, &mut wounds, dice, &mut crate::log::NoLog);
        crate::exact::Outcome {
            result: Self::RESULTS[strike.dice_hit as usize],
            value: strike.dealt,
            kind: "",
        }
    }
}
