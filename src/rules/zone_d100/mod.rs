//! The `zone-d100` ruleset (in progress): d100 skill tests with success levels, victory stars,
//! the Zone and Location Dice, impact against armour by aspect, the injury table with compound
//! injuries, glancing blows, bleeding and amputation, and the shock states.
//!
//! Rule text: `shared/rules/zone-d100.txt`; readings and assumptions:
//! `docs/rules/zone-d100.md`. This module is built in parts: the pieces here are complete and
//! tested against the text's examples; the duel loop, the missile sequence and the healing
//! timeline are not yet wired, so scenarios cannot name this ruleset yet.

pub mod body;
pub mod injury;
pub mod skill;
