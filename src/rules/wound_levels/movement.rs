//! Movement at the end of the turn (the "Wound Levels" list's "3) Moderate: -2 to move",
//! "4) Serious: ... cannot run", "5) Critical: ... cannot walk", and the example's "Bob has
//! withdrawn from melee range; Adam will no longer be able to slash at him"): the withdraw
//! tactic, a fighter's pace at its wound level, closing in and withdrawing (a Physique check
//! for a fighter who cannot walk), and a melee fighter following a foe who withdraws
//! (`rules.pursue`): by pace, and at equal paces by movement rolls.

use super::actions::Plan;
use super::{State, WoundLevels};
use crate::dice::Dice;
use crate::log::Log;
use crate::stats::Side;

impl WoundLevels {
    /// A fighter's pace at a wound level: 2 runs, 1 walks ("4) Serious: ... cannot run"),
    /// 0 crawls ("5) Critical: ... cannot walk").
    pub fn pace(damage: u32) -> u32 {
        match Self::level(damage) {
            0..=3 => 2,
            4 => 1,
            _ => 0,
        }
    }

    /// Movement at the end of the turn, in initiative order: closing in, withdrawing. A
    /// fighter who cannot walk must pass a Physique check to move; a melee fighter follows a
    /// foe who withdraws when it can keep pace (`rules.pursue`). Returns whether the fighters
    /// are within melee range after it.
    pub(super) fn movement<D: Dice, L: Log>(
        &self,
        order: [Side; 2],
        declared: &[Plan; 2],
        states: &[State; 2],
        mut engaged: bool,
        dice: &mut D,
        log: &mut L,
    ) -> bool {
        for side in order {
            let p = declared[side.index()];
            let damage = states[side.index()].damage;
            if !(p.withdraw || p.close) || Self::level(damage) >= 6 {
                continue;
            }
            let name = &self.names[side.index()];
            dice.switch(super::Purpose::Move, self.ids[side.index()]);
            if Self::level(damage) >= 5 {
                let (ok, total) =
                    self.physique_check(side, damage, dice, "dF (Physique check to move)");
                log.say(|| {
                    format!(
                        "  {name} cannot walk: Physique check {total} to move: {}",
                        if ok { "succeeds" } else { "fails" }
                    )
                });
                if !ok {
                    continue;
                }
            }
            if p.withdraw && engaged && self.pursued(side, declared, states) {
                let escapes = self.outpaces(side, states, dice, log);
                if !escapes {
                    log.say(|| {
                        format!(
                            "  {name} tries to withdraw, but {} keeps pace: still in melee range",
                            self.names[side.other().index()]
                        )
                    });
                    continue;
                }
            }
            engaged = p.close;
            log.say(|| {
                format!(
                    "  {name} {}",
                    if p.close {
                        "closes into melee range"
                    } else {
                        "withdraws out of melee range"
                    }
                )
            });
        }
        engaged
    }

    /// Whether the foe of a fighter withdrawing follows it: a melee fighter able to act and not
    /// withdrawing itself, with `rules.pursue` on.
    fn pursued(&self, withdrawer: Side, declared: &[Plan; 2], states: &[State; 2]) -> bool {
        let foe = withdrawer.other();
        self.rules.pursue
            && !self.fighters[foe.index()].kind.is_ranged()
            && !declared[foe.index()].withdraw
            && Self::level(states[foe.index()].damage) < 6
    }

    /// A pursuit: the withdrawer gets away when its pace is the faster or the pursuer cannot
    /// walk; at equal paces, when its movement roll (roll + Physique − move penalty) beats the
    /// pursuer's (a tie keeps them in melee range).
    fn outpaces<D: Dice, L: Log>(
        &self,
        withdrawer: Side,
        states: &[State; 2],
        dice: &mut D,
        log: &mut L,
    ) -> bool {
        let pursuer = withdrawer.other();
        let w = Self::pace(states[withdrawer.index()].damage);
        let q = Self::pace(states[pursuer.index()].damage);
        if q == 0 || w != q {
            return q == 0 || w > q;
        }
        let mut movement = |side: Side| {
            let r = self.roll(dice, "dF (movement roll)");
            let damage = states[side.index()].damage;
            r.value + self.fighters[side.index()].physique
                - self.move_penalty[Self::level(damage) as usize]
        };
        let away = movement(withdrawer);
        let after = movement(pursuer);
        log.say(|| {
            format!(
                "  movement rolls: {} {away}, {} {after}",
                self.names[withdrawer.index()],
                self.names[pursuer.index()]
            )
        });
        away > after
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::VecLog;
    use crate::rules::wound_levels::test_support::{
        bob_and_adam, fighter, ledger_duel, ledger_fudge, ledger_model_with, script,
    };
    use crate::rules::wound_levels::{Healing, Rules, WeaponKind, Withdraw};

    /// Bob (ranged, `bob_damage`) withdraws while Adam (melee, `adam_damage`) attacks: the
    /// movement step with these fudge totals; whether they are still in melee range, the story.
    fn withdraw_from(bob_damage: u32, adam_damage: u32, rolls: &[i32]) -> (bool, Vec<String>) {
        let model = bob_and_adam(Healing::default());
        let mut plans = [Plan::default(); 2];
        plans[0].withdraw = true;
        plans[1].attacks = 1;
        let mut states = [State::default(); 2];
        states[0].damage = bob_damage;
        states[1].damage = adam_damage;
        let mut dice = script(rolls);
        let mut log = VecLog::default();
        let engaged = model.movement(
            [Side::B, Side::A],
            &plans,
            &states,
            true,
            &mut dice,
            &mut log,
        );
        assert!(dice.finish().is_ok(), "{:?}: {:?}", dice.error(), log.lines);
        (engaged, log.lines)
    }

    #[test]
    fn a_withdrawal_is_followed_at_the_pursuers_pace() {
        // "4) Serious: -2 to all rolls; cannot run"; "5) Critical: ... cannot walk": a Serious
        // Adam cannot keep up with an unhurt Bob; an unhurt Adam keeps up with a Serious Bob;
        // a Critical Adam cannot follow at all (the example's turn 2). No dice.
        assert!(!withdraw_from(0, 4, &[]).0);
        let (engaged, log) = withdraw_from(4, 0, &[]);
        assert!(engaged, "{log:?}");
        assert!(log.iter().any(|l| l.contains("Adam keeps pace")), "{log:?}");
        assert!(!withdraw_from(0, 5, &[]).0);
        // Equal paces: movement rolls, roll + Physique 3 − move penalty; Bob must beat Adam.
        assert!(!withdraw_from(0, 0, &[1, 0]).0, "4 against 3: away");
        assert!(withdraw_from(0, 0, &[0, 0]).0, "a tie keeps them engaged");
    }

    #[test]
    fn moderate_is_minus_2_to_move() {
        // "3) Moderate: -2 to move; -1 to all other rolls": a Moderate Bob's movement roll 1
        // is 1 + 3 − 2 = 2 against Adam's 0 + 3 − 1 (Light) = 2: a tie, caught; with −1 to move
        // he would have got away.
        let (engaged, log) = withdraw_from(3, 2, &[1, 0]);
        assert!(
            log.iter()
                .any(|l| l.contains("movement rolls: Bob 2, Adam 2")),
            "{log:?}"
        );
        assert!(engaged, "{log:?}");
    }

    #[test]
    fn a_critical_fighter_cannot_walk_so_withdrawing_takes_a_physique_check() {
        // L29: "5) Critical: ... cannot walk." L57: "However, his Physique check to move away
        // from Adam is successful. Bob has withdrawn from melee range".
        let mut a = fighter(WeaponKind::Ranged, 3);
        a.clip = 10;
        a.withdraw = Withdraw::Always;
        let b = fighter(WeaponKind::Melee, 3);
        // No pursuit: the Physique check alone decides (an unhurt b would otherwise keep pace).
        let rules = Rules {
            pursue: false,
            ..Rules::default()
        };
        let model = ledger_model_with(a, b, rules, 1);
        // Initiative a 0 + 3 = 3, b 1 + 3 = 4: b first. a declares a dodge and a withdrawal.
        // b rolls 3: 6; a dodges 0 + 3 = 3: margin 3 + 3 - 1 = 5: a is Critical.
        // At the end of the turn a must pass a Physique check to move: -1 + 3 - 3 = -1 fails.
        let (tally, story) = ledger_duel(&model, ledger_fudge(&[0, 1, 3, 0, -1]));
        assert_eq!(tally.hit_damage_pooled().bins()[5], 1, "{story}");
        assert!(!story.contains("a withdraws out of melee range"), "{story}");
        assert_eq!(tally.ends, [0, 0, 1]);
        // The same turn with a check of 1 + 3 - 3 = 1: a withdraws.
        let (_, story) = ledger_duel(&model, ledger_fudge(&[0, 1, 3, 0, 1]));
        assert!(story.contains("a withdraws out of melee range"), "{story}");
    }
}
