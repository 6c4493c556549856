//! One attack, from the text's damage rules (L1–L7) and armour (L10): the black and white d20
//! against Defense with the Attack as the upper bound; one die hitting adds the last digit of the
//! die that missed (0 counts as 10), both dice hitting add twice their difference (a difference
//! of 10 or more counts as 20); Coverage checked with the white die, which need not hit
//! (Coverage 20 sealed); struck armour takes its Protection off the Damage; the Wound is marked
//! on the defender's circles ([`WoundCircles`]).

use super::TwinD20;
use super::wound_circles::WoundCircles;
use crate::dice::Dice;
use crate::log::Log;
use crate::rules::two_d20::AttackRoll;
use crate::stats::Side;

/// What one attack did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strike {
    /// At least one die hit.
    pub hit: bool,
    /// How many of the two dice hit (0, 1 or 2).
    pub dice_hit: u32,
    /// Damage dealt after armour (0 on a miss or when the armour took it all).
    pub dealt: u32,
}

impl TwinD20 {
    /// One attack of `attacker` on the other fighter, marking the Wound it deals.
    ///
    /// Written without data-dependent branches (the dice decide which table cell is read, not
    /// which code runs), because mispredicted branches cost more than the dice on this path.
    #[inline]
    pub fn strike<D: Dice, L: Log>(
        &self,
        attacker: Side,
        wounds: &mut WoundCircles,
        dice: &mut D,
        log: &mut L,
    ) -> Strike {
        // Each side's first fighter (a duel's two).
        self.strike_between(
            self.roster.team(attacker).start,
            self.roster.team(attacker.other()).start,
            wounds,
            dice,
            log,
        )
    }

    /// One attack of fighter `attacker` on fighter `defender` (numbered as in
    /// [`TwinD20::fighters`]), marking the Wound it deals on `wounds`, the defender's.
    // Always in line: the duel and the fight of several both call it, and out of line the
    // dice's state went through memory at every strike (1,446 instructions a duel trial, 1,174
    // before the fight of several shared it).
    #[inline(always)]
    pub fn strike_between<D: Dice, L: Log>(
        &self,
        attacker: usize,
        defender: usize,
        wounds: &mut WoundCircles,
        dice: &mut D,
        log: &mut L,
    ) -> Strike {
        let atk = &self.fighters[attacker];
        let def = &self.fighters[defender];
        log.say(|| {
            format!(
                "{} attacks {}: Attack {} vs Defense {}, Damage {}",
                self.roster.fighter_names[attacker],
                self.roster.fighter_names[defender],
                atk.attack,
                def.defense,
                atk.damage
            )
        });
        let roll = AttackRoll::roll(dice);
        let faces = self.hit_faces[attacker * self.fighters.len() + defender];
        // 0: both miss; 1: only black hits; 2: only white hits; 3: both hit.
        let case = usize::from(faces.hits(roll.black)) | usize::from(faces.hits(roll.white)) << 1;
        let bonuses = [
            0,
            self.one_die_bonus[roll.white as usize & 31],
            self.one_die_bonus[roll.black as usize & 31],
            self.both_dice_bonus[roll.black.abs_diff(roll.white) as usize & 31],
        ];
        let hit = case != 0;
        let damage = (atk.damage + bonuses[case]) * u32::from(hit);
        // Coverage 20 is sealed; otherwise a white die above Coverage bypasses the armour.
        let struck = roll.white <= def.coverage;
        let dealt = damage.saturating_sub(def.protection * u32::from(struck));
        let circle = wounds.mark_if(dealt, self.circles, dealt > 0);
        if L::ON {
            self.narrate_strike(
                attacker, defender, roll, case, damage, struck, dealt, circle, *wounds, log,
            );
        }
        Strike {
            hit,
            dice_hit: case.count_ones(),
            dealt,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn narrate_strike<L: Log>(
        &self,
        attacker: usize,
        defender: usize,
        roll: AttackRoll,
        case: usize,
        damage: u32,
        struck: bool,
        dealt: u32,
        circle: u32,
        wounds: WoundCircles,
        log: &mut L,
    ) {
        let (black, white) = (roll.black, roll.white);
        let def = &self.fighters[defender];
        let how = match case {
            0 => return log.say(|| format!("  black {black} and white {white} both miss")),
            1 => "white missed: its last digit",
            2 => "black missed: its last digit",
            _ => "both hit: twice the difference",
        };
        let bonus = damage - self.fighters[attacker].damage;
        log.say(|| format!("  black {black} white {white}: {how} adds {bonus}: Damage {damage}"));
        if def.coverage > 0 {
            log.say(|| {
                if struck {
                    format!(
                        "  armour struck (white {white} vs Coverage {}): Protection {} leaves {dealt}",
                        def.coverage, def.protection
                    )
                } else {
                    format!("  armour bypassed (white {white} above Coverage {})", def.coverage)
                }
            });
        }
        if dealt > 0 {
            log.say(|| {
                format!(
                    "  {} marks Wound {circle}; wounds now {:?}",
                    self.roster.fighter_names[defender],
                    wounds.list()
                )
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{EnumeratingDice, FastDice};
    use crate::log::NoLog;
    use crate::rules::twin_d20::Rules;
    use crate::rules::twin_d20::test_support::{fighter, point, strike_with};

    #[test]
    fn example_one_die_hits_attack_12_defense_6_damage_2_black_3_white_11_is_5() {
        let model = point(fighter(12, 0, 8, 2), fighter(0, 6, 8, 0), Rules::default());
        let (dealt, wounds) = strike_with(&model, &[3, 11]);
        assert_eq!(dealt, Some(5));
        assert_eq!(wounds.list(), vec![5]);
    }

    #[test]
    fn example_both_dice_hit_attack_15_defense_5_damage_3_black_10_white_6_is_11() {
        let model = point(fighter(15, 0, 8, 3), fighter(0, 5, 20, 0), Rules::default());
        assert_eq!(strike_with(&model, &[10, 6]).0, Some(11));
    }

    #[test]
    fn a_missing_ten_or_twenty_counts_as_ten_and_a_big_difference_counts_as_twenty() {
        let model = point(
            fighter(20, 0, 8, 2),
            fighter(0, 10, 30, 0),
            Rules::default(),
        );
        // White 20 hits, black 10 equals Defense 10 and misses: its digit 0 counts 10.
        assert_eq!(strike_with(&model, &[10, 20]).0, Some(12));
        let wide = point(fighter(20, 0, 8, 2), fighter(0, 1, 30, 0), Rules::default());
        // Both hit, difference 17: counts as 20.
        assert_eq!(strike_with(&wide, &[3, 20]).0, Some(22));
        // Difference 9: twice is 18.
        assert_eq!(strike_with(&wide, &[3, 12]).0, Some(20));
    }

    #[test]
    fn both_dice_missing_is_no_hit() {
        let model = point(fighter(12, 0, 8, 2), fighter(0, 6, 8, 0), Rules::default());
        assert_eq!(strike_with(&model, &[3, 13]).0, None);
    }

    #[test]
    fn coverage_is_checked_with_the_white_die_even_when_it_misses() {
        let mut b = fighter(0, 6, 30, 0);
        b.coverage = 11;
        b.protection = 3;
        let model = point(fighter(12, 0, 8, 2), b, Rules::default());
        // White 11 hits and is not above Coverage 11: struck, 5 - 3 = 2.
        assert_eq!(strike_with(&model, &[3, 11]).0, Some(2));
        // White 4 misses, still checked: struck. Black 9 hits, white's digit 4: 6 - 3 = 3.
        assert_eq!(strike_with(&model, &[9, 4]).0, Some(3));
        // White 12 hits and is above Coverage 11: bypassed. Black 3 missed: 2 + 3 = 5.
        assert_eq!(strike_with(&model, &[3, 12]).0, Some(5));
    }

    #[test]
    fn coverage_20_is_sealed_and_protection_can_stop_everything() {
        let mut b = fighter(0, 6, 30, 0);
        b.coverage = 20;
        b.protection = 30;
        let model = point(fighter(20, 0, 8, 2), b, Rules::default());
        let (dealt, wounds) = strike_with(&model, &[3, 20]);
        assert_eq!(dealt, Some(0));
        assert!(!wounds.any());
    }

    /// Exact distribution of the damage of one attack (0 = miss) over the 400 dice pairs.
    fn exact_damage_distribution(model: &TwinD20) -> Vec<f64> {
        let mut probability = vec![0.0; 81];
        EnumeratingDice::for_each(
            |dice| model.strike(Side::A, &mut WoundCircles::default(), dice, &mut NoLog),
            |strike, p| probability[strike.dealt as usize] += p,
        );
        probability
    }

    #[test]
    fn enumeration_walks_exactly_400_dice_pairs() {
        let model = point(fighter(12, 0, 8, 2), fighter(0, 6, 8, 0), Rules::default());
        let mut outcomes = 0;
        EnumeratingDice::for_each(
            |dice| model.strike(Side::A, &mut WoundCircles::default(), dice, &mut NoLog),
            |_, p| {
                outcomes += 1;
                assert!((p - 1.0 / 400.0).abs() < 1e-15);
            },
        );
        assert_eq!(outcomes, 400);
    }

    #[test]
    fn sampled_exchange_damage_matches_exact_enumeration_within_4_5_sigma() {
        let mut b = fighter(0, 6, 40, 0);
        b.coverage = 12;
        b.protection = 3;
        let model = point(fighter(15, 0, 8, 3), b, Rules::default());
        let exact = exact_damage_distribution(&model);
        let exact_mean: f64 = exact.iter().enumerate().map(|(d, p)| d as f64 * p).sum();
        let exact_var: f64 = exact
            .iter()
            .enumerate()
            .map(|(d, p)| (d as f64 - exact_mean).powi(2) * p)
            .sum();
        let n = 200_000;
        let mut counts = vec![0u64; 81];
        let mut sum = 0u64;
        for i in 0..n {
            let mut dice = FastDice::seed_from_u64(crate::engine::trial_seed(2026, i));
            let d = model
                .strike(Side::A, &mut WoundCircles::default(), &mut dice, &mut NoLog)
                .dealt;
            counts[d as usize] += 1;
            sum += u64::from(d);
        }
        let mean = sum as f64 / n as f64;
        let se = (exact_var / n as f64).sqrt();
        assert!(
            (mean - exact_mean).abs() < 4.5 * se,
            "mean {mean} vs exact {exact_mean} (se {se})"
        );
        for (d, &p) in exact.iter().enumerate() {
            let share = counts[d] as f64 / n as f64;
            let se = (p * (1.0 - p) / n as f64).sqrt().max(1e-9);
            assert!(
                (share - p).abs() < 4.5 * se + 1e-12,
                "damage {d}: {share} vs {p}"
            );
        }
    }

    // Rule ledger tests (docs/rules/twin-d20.md, "Rule ledger").

    #[test]
    fn one_die_hit_adds_the_last_digit_of_the_die_that_missed_even_above_the_attack() {
        // L1: "If the attack hit with one die, the last digit of the die that missed is added to
        // the weapon's Damage. When the last digit is 0, as in 10 or 20, it counts as 10."
        // Attack 12, Defense 6, Damage 2.
        let model = point(fighter(12, 0, 8, 2), fighter(0, 6, 30, 0), Rules::default());
        // Black 9 hits; white 17 missed (above the Attack): its digit 7: 2 + 7 = 9.
        let (dealt, wounds) = strike_with(&model, &[9, 17]);
        assert_eq!(dealt, Some(9));
        assert_eq!(wounds.list(), vec![9]);
        // Black 15 missed (above the Attack): digit 5; white 8 hits: 2 + 5 = 7.
        assert_eq!(strike_with(&model, &[15, 8]).0, Some(7));
        // Black 20 missed (above the Attack): digit 0 counts as 10; white 9 hits: 2 + 10 = 12.
        assert_eq!(strike_with(&model, &[20, 9]).0, Some(12));
        // Black 4 missed (below Defense): digit 4; white 11 hits: 2 + 4 = 6.
        assert_eq!(strike_with(&model, &[4, 11]).0, Some(6));
    }

    #[test]
    fn both_dice_hit_add_twice_the_difference_and_a_difference_of_10_or_more_counts_as_20() {
        // L5: "If both dice hit, twice the difference between them is added to the weapon's
        // Damage. If the difference is 10 or greater, it counts as 20."
        // Attack 20, Defense 1, Damage 3: every face from 2 to 20 hits.
        let model = point(fighter(20, 0, 8, 3), fighter(0, 1, 30, 0), Rules::default());
        // Equal dice: difference 0 adds nothing.
        assert_eq!(strike_with(&model, &[7, 7]).0, Some(3));
        // Difference 1: + 2.
        assert_eq!(strike_with(&model, &[8, 7]).0, Some(5));
        // Difference 9 (white higher): + 18.
        assert_eq!(strike_with(&model, &[2, 11]).0, Some(21));
        // READING (assumptions table, rules.big_difference_bonus = 20): "it counts as 20" is read
        // as "the doubled difference counts as 20". Read literally ("the difference counts as
        // 20", doubled) these two would be 3 + 40 = 43.
        // Difference exactly 10: + 20.
        assert_eq!(strike_with(&model, &[15, 5]).0, Some(23));
        // Difference 18: + 20.
        assert_eq!(strike_with(&model, &[20, 2]).0, Some(23));
    }

    #[test]
    fn coverage_1_and_19_are_checked_against_the_white_die_at_their_edges() {
        // L10: "For Coverage 1-19, check the white die of the attack roll against Coverage. If the
        // white die is higher, the attack bypasses the armor. ... If the armor is struck, reduce
        // the incoming Damage by the Armor's Protection."
        // Attack 20, Defense 0 (every face hits), Damage 2; Protection 30 stops any struck blow.
        let armoured = |coverage: u32| {
            let mut b = fighter(0, 0, 30, 0);
            b.coverage = coverage;
            b.protection = 30;
            point(fighter(20, 0, 8, 2), b, Rules::default())
        };
        let top = armoured(19);
        // White 20 is higher than Coverage 19: bypassed. Difference 15: 2 + 20 = 22.
        assert_eq!(strike_with(&top, &[5, 20]).0, Some(22));
        // White 19 is not higher: struck, 22 - 30: nothing left (still a hit).
        let (dealt, wounds) = strike_with(&top, &[5, 19]);
        assert_eq!(dealt, Some(0));
        assert!(!wounds.any());
        let bottom = armoured(1);
        // White 1 is not higher than Coverage 1: struck. Difference 4: 2 + 8 = 10, all stopped.
        assert_eq!(strike_with(&bottom, &[5, 1]).0, Some(0));
        // White 2 is higher: bypassed. Difference 3: 2 + 6 = 8.
        assert_eq!(strike_with(&bottom, &[5, 2]).0, Some(8));
    }

    // ---- Item 7: parameters the text does not have ------------------------------------------

    #[test]
    fn hit_on_defense_true_lets_a_die_equal_to_defense_hit() {
        // Design (assumptions, rules.hit_on_defense = false): "The black die missed, by being lower
        // than the target's Defense." With the option on, a die equal to Defense hits.
        let strict = point(fighter(12, 0, 8, 2), fighter(0, 6, 30, 0), Rules::default());
        // Black 6 equals Defense 6: misses by default; white 13 is above the Attack.
        assert_eq!(strike_with(&strict, &[6, 13]).0, None);
        let equal = point(
            fighter(12, 0, 8, 2),
            fighter(0, 6, 30, 0),
            Rules {
                hit_on_defense: true,
                ..Rules::default()
            },
        );
        // Black 6 hits, white 13 missed: 2 + 3 = 5.
        assert_eq!(strike_with(&equal, &[6, 13]).0, Some(5));
        // Both hit (6 and 9): difference 3: 2 + 6 = 8.
        assert_eq!(strike_with(&equal, &[6, 9]).0, Some(8));
        // A die below Defense still misses.
        assert_eq!(strike_with(&equal, &[5, 13]).0, None);
    }
}
