//! The declarations and multiple actions (the text's "Example of Combat"): what a fighter
//! declares each turn by its tactics (its attacks, a reload when out of ammunition, a throw,
//! closing in, or a dodge and withdrawing), the slower in initiative declaring first ("Adam is
//! faster, so Bob must declare his action first"), Evasion then changing declared actions into
//! dodges ("Bob has Evasion, so he has the option to change one or both of his actions to a
//! dodge or parry"), and the actions a fighter takes, which the multiple-action penalty counts
//! ("a penalty equal to his total number of actions"). A Terminal fighter declares nothing
//! ("6) Terminal: Actions not possible"). Initiative is rolled by the turn in `mod.rs`.

use super::{State, WoundLevels};
use crate::stats::Side;
use serde::{Deserialize, Serialize};

/// When a fighter withdraws out of melee range.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Withdraw {
    /// Never.
    #[default]
    Never,
    /// When the opponent cannot walk, so cannot follow (Bob's reasoning in the example).
    WhenOpponentCannotWalk,
    /// Whenever engaged in melee.
    Always,
}

/// What a fighter does this turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Plan {
    pub(super) attacks: u32,
    pub(super) dodges: u32,
    pub(super) reload: bool,
    pub(super) throw: bool,
    /// Withdraw out of melee range at the end of the turn.
    pub(super) withdraw: bool,
    /// Close into melee range at the end of the turn.
    pub(super) close: bool,
}

impl std::fmt::Display for Plan {
    /// The declaration in the rules' words: "1 attack and 1 dodge, then withdraws".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        let plural =
            |n: u32, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        if self.attacks > 0 {
            let what = if self.throw {
                ("throw", "throws")
            } else {
                ("attack", "attacks")
            };
            parts.push(plural(self.attacks, what.0, what.1));
        }
        if self.dodges > 0 {
            parts.push(plural(self.dodges, "dodge", "dodges"));
        }
        if self.reload {
            parts.push("a reload".to_owned());
        }
        if parts.is_empty() {
            parts.push("no action".to_owned());
        }
        f.write_str(&parts.join(" and "))?;
        if self.withdraw {
            f.write_str(", then withdraws")?;
        }
        if self.close {
            f.write_str(", then closes in")?;
        }
        Ok(())
    }
}

impl Plan {
    pub(super) fn actions(self) -> u32 {
        self.attacks + self.dodges + u32::from(self.reload)
    }
}

impl WoundLevels {
    /// The turn's declarations: the slower declares first; Evasion then turns actions into
    /// dodges against an attacking opponent.
    #[inline]
    pub(super) fn plans(&self, slow: Side, states: &[State; 2], engaged: bool) -> [Plan; 2] {
        let fast = slow.other();
        let mut plans = [Plan::default(); 2];
        for side in [slow, fast] {
            plans[side.index()] = self.declare(side.index(), side.other().index(), states, engaged);
        }
        for side in [slow, fast] {
            let me = &self.members[side.index()];
            if me.evasion && plans[side.other().index()].attacks > 0 {
                let p = &mut plans[side.index()];
                let mut convert = me.evade;
                if convert > 0 && p.reload {
                    p.reload = false;
                    p.dodges += 1;
                    convert -= 1;
                }
                let from_attacks = convert.min(p.attacks);
                p.attacks -= from_attacks;
                p.dodges += from_attacks;
            }
        }
        plans
    }

    pub(super) fn declare<const N: usize>(
        &self,
        me: usize,
        foe: usize,
        states: &[State; N],
        engaged: bool,
    ) -> Plan {
        let state = &states[me];
        let me = &self.members[me];
        let other_level = Self::level(states[foe].damage);
        let my_level = Self::level(state.damage);
        let mut plan = Plan::default();
        if my_level >= 6 {
            return plan;
        }
        let ranged = me.kind.is_ranged();
        let wants_out = match me.withdraw {
            Withdraw::Never => false,
            Withdraw::WhenOpponentCannotWalk => other_level >= 5,
            Withdraw::Always => true,
        };
        if engaged && ranged && wants_out {
            plan.dodges = 1;
            plan.withdraw = true;
            return plan;
        }
        if ranged {
            if state.ammo == 0 {
                plan.reload = state.spare_clips > 0;
            } else {
                plan.attacks = me.attacks;
            }
            return plan;
        }
        // Melee and unarmed.
        if engaged {
            plan.attacks = me.attacks;
        } else if me.throw && me.throwable && !state.thrown && my_level >= 5 {
            plan.attacks = 1;
            plan.throw = true;
        } else {
            plan.close = true;
        }
        plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::wound_levels::test_support::{
        fighter, ledger_duel, ledger_fudge, ledger_model, ledger_model_with,
    };
    use crate::rules::wound_levels::{Rules, WeaponKind};

    #[test]
    fn evasion_may_change_both_declared_actions_into_dodges() {
        // L41: "Bob has Evasion, so he has the option to change one or both of his actions to a
        // dodge or parry." L37: "Adam is faster, so Bob must declare his action first."
        let mut a = fighter(WeaponKind::Melee, 3);
        a.evasion = true;
        a.attacks = 2;
        a.evade = 2;
        let model = ledger_model(a, fighter(WeaponKind::Melee, 3), 1);
        // Initiative a 3, b 4: a (slower) declares first; both its attacks become dodges.
        // b rolls 0: 3; a dodges 1 + 3 - 2 (two actions) = 2: margin 1: 1 + 3 - 1 = 3.
        // a makes no attack (no die is left for one).
        let (tally, story) = ledger_duel(&model, ledger_fudge(&[0, 1, 0, 1]));
        crate::log::assert_in_order(&story, &["a declares 2 dodges", "b declares 1 attack"]);
        assert!(!story.contains("a attacks:"), "{story}");
        assert_eq!(tally.hit_damage_pooled().bins()[3], 1, "{story}");
    }

    #[test]
    fn a_melee_fighter_out_of_melee_range_cannot_slash() {
        // L57: "Bob has withdrawn from melee range; Adam will no longer be able to slash at him."
        let rules = Rules {
            start_engaged: false,
            ..Rules::default()
        };
        let model = ledger_model_with(
            fighter(WeaponKind::Melee, 3),
            fighter(WeaponKind::Melee, 3),
            rules,
            1,
        );
        let plan = model.declare(1, 0, &[State::default(); 2], false);
        assert_eq!((plan.attacks, plan.close), (0, true));
        // A whole turn out of range: initiative only, no attack roll.
        let (tally, story) = ledger_duel(&model, ledger_fudge(&[1, 0]));
        assert!(!story.contains("attacks:"), "{story}");
        assert_eq!(tally.ends, [0, 0, 1]);
    }
}
