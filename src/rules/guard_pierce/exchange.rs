//! One exchange for exact tables (`duelsim exact`): [`GuardPierce::attack`], the very attack the
//! duel rolls ("The attack roll", "Full hit", "The damage roll" and armour in the text), from two
//! unwounded fighters. Its outcome is the hit (Hit or Full Hit), the row the damage roll marks and
//! whether that mark is a Stun or an Injury; the duel's penalties and Recover are not part of it.

use super::GuardPierce;
use super::wound_track::WoundRows;
use crate::dice::Dice;
use crate::stats::Side;

/// One exchange for exact tables: `attack`, the very attack the duel rolls, from two unwounded
/// fighters; its outcome is the hit (Hit or Full Hit), the row the damage roll marks and
/// whether that mark is a Stun or an Injury.
impl crate::exact::Exchange for GuardPierce {
    const UNIT: &'static str = "wound row";
    const RESULTS: &'static [&'static str] = &["miss", "Hit", "Full Hit"];

    fn exchange<D: Dice>(&self, attacker: Side, dice: &mut D) -> crate::exact::Outcome {
        let mut rows = [WoundRows::default(); 2];
        let attack = self.attack(attacker, &mut rows, dice, &mut crate::log::NoLog);
        let target = rows[attacker.other().index()];
        let row = attack.marked[0];
        let kind = match row {
            0 if attack.hits > 0 => "no mark",
            0 => "",
            r if target.injury >> r & 1 == 1 => "Injury",
            _ => "Stun",
        };
        crate::exact::Outcome {
            result: Self::RESULTS[attack.hits.min(2) as usize],
            value: row,
            kind,
        }
    }
}
