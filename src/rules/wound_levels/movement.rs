//! Movement at the end of the turn (the "Wound Levels" list's "3) Moderate: -2 to move",
//! "4) Serious: ... cannot run", "5) Critical: ... cannot walk", and the example's "Bob has
//! withdrawn from melee range; Adam will no longer be able to slash at him"): the withdraw
//! tactic, a fighter's pace at its wound level, closing in and withdrawing (a Physique check
//! for a fighter who cannot walk), and a melee fighter following a foe who withdraws
//! (`rules.pursue`): by pace, and at equal paces by movement rolls.

use super::Purpose;
use super::actions::Plan;
use super::{State, WoundLevels};
use crate::dice::Dice;
use crate::dice::Stream;
use crate::log::Log;

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

    /// Movement at the end of turn `turn` of two foes, `movers` in initiative order, each with
    /// its place on the roster and what it declared: closing in, withdrawing. A fighter who
    /// cannot walk must pass a Physique check to move; a melee fighter follows a foe who
    /// withdraws when it can keep pace (`rules.pursue`). `states` are every fighter's, by
    /// place. Returns whether the two are within melee range after it.
    pub(super) fn movement<const N: usize, D: Dice, L: Log>(
        &self,
        movers: [(usize, Plan); 2],
        states: &[State; N],
        mut engaged: bool,
        turn: u32,
        dice: &mut D,
        log: &mut L,
    ) -> bool {
        for k in 0..2 {
            let ((me, p), foe) = (movers[k], movers[1 - k]);
            let damage = states[me].damage;
            if !(p.withdraw || p.close) || Self::level(damage) >= 6 {
                continue;
            }
            let name = &self.roster.fighter_names[me];
            dice.stream(Stream::new(Purpose::Move, me, turn));
            if Self::level(damage) >= 5 {
                let (ok, total) =
                    self.physique_check(me, damage, dice, "dF (Physique check to move)");
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
            if p.withdraw && engaged && self.pursued(foe, states) {
                let escapes = self.outpaces(me, foe.0, states, dice, log);
                if !escapes {
                    log.say(|| {
                        format!(
                            "  {name} tries to withdraw, but {} keeps pace: still in melee range",
                            self.roster.fighter_names[foe.0]
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

    /// Whether the foe of a fighter withdrawing (its place and what it declared) follows it: a
    /// melee fighter able to act and not withdrawing itself, with `rules.pursue` on.
    fn pursued<const N: usize>(&self, (foe, declared): (usize, Plan), states: &[State; N]) -> bool {
        self.rules.pursue
            && !self.members[foe].kind.is_ranged()
            && !declared.withdraw
            && Self::level(states[foe].damage) < 6
    }

    /// A pursuit of the fighter at place `withdrawer` by the one at `pursuer`: the withdrawer
    /// gets away when its pace is the faster or the pursuer cannot walk; at equal paces, when
    /// its movement roll (roll + Physique − move penalty) beats the pursuer's (a tie keeps them
    /// in melee range).
    fn outpaces<const N: usize, D: Dice, L: Log>(
        &self,
        withdrawer: usize,
        pursuer: usize,
        states: &[State; N],
        dice: &mut D,
        log: &mut L,
    ) -> bool {
        let w = Self::pace(states[withdrawer].damage);
        let q = Self::pace(states[pursuer].damage);
        if q == 0 || w != q {
            return q == 0 || w > q;
        }
        let mut movement = |me: usize| {
            let r = self.roll(dice, "dF (movement roll)");
            let damage = states[me].damage;
            r.value + self.members[me].physique - self.move_penalty[Self::level(damage) as usize]
        };
        let away = movement(withdrawer);
        let after = movement(pursuer);
        log.say(|| {
            let names = &self.roster.fighter_names;
            format!(
                "  movement rolls: {} {away}, {} {after}",
                names[withdrawer], names[pursuer]
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
            [(1, plans[1]), (0, plans[0])],
            &states,
            true,
            1,
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
