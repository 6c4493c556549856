//! One attack and the Recover action, from the text's "The attack roll" (L9–L14), "Full hit"
//! (L16–L18), "The damage roll" (L20–L22), armour (L25–L29) and the Recover action (L53): the
//! black and white d20 against Guard (a Hit or a Full Hit, with the attacker's wound penalty),
//! Coverage checked with the white die, Pierce against the Protection interval (deflected,
//! stopped: Damage −5 and Stun, or straight through), the damage roll and the row it marks (a
//! failed roll: the lowest empty row), a Stun weapon's separate Injury roll on a Full Hit, and
//! the Willpower roll that clears the highest Stun.

use super::schema::{Interval, Over20};
use super::wound_track::{Kind, Track, WoundRows};
use super::{Fighter, GuardPierce, Purpose, Rules};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::roster::Blow;
use crate::rules::two_d20::{
    AttackRoll, AttributeDice, HitFaces, attribute_roll, highest_row, rows_of,
};
use crate::stats::Side;

/// What one attack did, for narration and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attack {
    /// Dice that hit: 0 miss, 1 Hit, 2 Full Hit.
    pub hits: u32,
    /// Rows marked by the damage roll and the separate Injury roll (0: none).
    pub marked: [u32; 2],
}

const DAMAGE_DICE: AttributeDice = AttributeDice {
    black: "black d20 (damage roll)",
    white: "white d20 (damage roll)",
};
const INJURY_DICE: AttributeDice = AttributeDice {
    black: "black d20 (separate Injury roll)",
    white: "white d20 (separate Injury roll)",
};
const RECOVER_DICE: AttributeDice = AttributeDice {
    black: "black d20 (Recover: Willpower)",
    white: "white d20 (Recover: Willpower)",
};

impl GuardPierce {
    /// The damage roll: an attribute roll on `damage`; above 20 by [`Over20`]. 0 is a failure.
    #[inline]
    pub fn damage_roll<D: Dice>(&self, dice: &mut D, damage: i32, labels: AttributeDice) -> u32 {
        let result = attribute_roll(dice, damage, labels);
        match self.rules.over_20 {
            Over20::AddExcess if damage > 20 => result + (damage - 20) as u32,
            _ => result,
        }
    }

    /// One damage roll and its mark: the result marks its row; a failure marks the lowest
    /// empty row unless it is above the Damage. Returns the row marked (0: none).
    #[inline(always)]
    fn wound<D: Dice, L: Log>(
        &self,
        target: &mut WoundRows,
        track: &Track,
        (damage, kind, labels): (i32, Kind, AttributeDice),
        dice: &mut D,
        log: &mut L,
    ) -> u32 {
        if damage <= 0 {
            log.say(|| format!("  Damage {damage}: nothing to roll"));
            return 0;
        }
        let result = self.damage_roll(dice, damage, labels);
        // The row a failure marks, found whether it fails or not: one mark below, selected
        // rather than branched.
        let lowest = target.lowest_empty(track.top);
        if result == 0 && lowest as i32 > damage {
            log.say(|| format!("  damage roll on {damage} fails; the lowest empty row {lowest} is above the Damage: nothing"));
            return 0;
        }
        let row = target.mark(kind, if result > 0 { result } else { lowest }, track.top);
        log.say(|| {
            let how = if result > 0 {
                format!("damage roll on {damage}: {result}")
            } else {
                format!("damage roll on {damage} fails: the lowest empty row")
            };
            format!(
                "  {how}; {kind:?} marked on row {row}; Injury {:?}, Stun {:?}",
                rows_of(target.injury),
                rows_of(target.stun)
            )
        });
        row
    }

    /// The attack value and the Guard it faces, each less its wound penalty (the Guard's only
    /// with `penalty_to_guard`), as (attack penalty, value, Guard).
    fn attack_values(&self, blow: Blow, rows: &[WoundRows]) -> (i32, i32, i32) {
        let (atk, def) = (&self.members[blow.attacker], &self.members[blow.defender]);
        attack_values(
            (atk, def),
            &self.rules,
            (&rows[blow.attacker], &rows[blow.defender]),
        )
    }

    /// The faces of `blow.attacker`'s attack dice that hit `blow.defender`, with both
    /// fighters' wounds as they are (`rows`, by their places on the roster).
    #[inline]
    pub fn hit_faces(&self, blow: Blow, rows: &[WoundRows]) -> HitFaces {
        let (_, value, guard) = self.attack_values(blow, rows);
        HitFaces::new(guard, value, self.rules.hit_on_guard)
    }

    /// [`GuardPierce::hit_faces`] of a duel's `attacker`: they change only when a wound is
    /// marked or cleared, so the duel keeps them between attacks. Without `penalty_to_guard`
    /// they are read from the table [`GuardPierce::new`] fills by the attacker's highest Wound.
    #[inline]
    pub(super) fn duel_hit_faces(&self, attacker: Side, rows: &[WoundRows; 2]) -> HitFaces {
        let blow = Blow::in_duel(attacker);
        if self.rules.penalty_to_guard {
            return self.hit_faces(blow, rows);
        }
        let highest = rows[attacker.index()].highest() as usize;
        let faces = self.hit_faces_by_row[attacker.index()][highest.min(63)];
        debug_assert_eq!(
            faces,
            self.hit_faces(blow, rows),
            "fighters or rules changed after GuardPierce::new"
        );
        faces
    }

    /// One attack of `attacker` on the other fighter of a duel.
    pub fn attack<D: Dice, L: Log>(
        &self,
        attacker: Side,
        rows: &mut [WoundRows; 2],
        dice: &mut D,
        log: &mut L,
    ) -> Attack {
        let faces = self.duel_hit_faces(attacker, rows);
        let key = Stream::new(Purpose::Attack, attacker.index(), 1);
        self.attack_on(Blow::in_duel(attacker), (faces, None), key, rows, dice, log)
    }

    /// One attack of `blow.attacker` on `blow.defender` (`rows` are every fighter's wounds, by
    /// their places on the roster), whose dice hit on `faces` ([`GuardPierce::hit_faces`] of
    /// these rows): its attack dice are `ahead` when the source worked them out already
    /// ([`Dice::pair_ahead`]), or rolled here; the damage rolls come from the attack's stream
    /// `key` with their own purposes ([`Purpose::Damage`], [`Purpose::Injury`]).
    // Always in line: out of line, the dice's state goes through memory for every die.
    #[inline(always)]
    pub fn attack_on<const N: usize, D: Dice, L: Log>(
        &self,
        blow: Blow,
        (faces, ahead): (HitFaces, Option<AttackRoll>),
        key: Stream,
        rows: &mut [WoundRows; N],
        dice: &mut D,
        log: &mut L,
    ) -> Attack {
        let atk = &self.members[blow.attacker];
        let def = &self.members[blow.defender];
        log.say(|| {
            let (penalty, value, guard) = self.attack_values(blow, rows);
            let names = &self.roster.fighter_names;
            format!(
                "{} attacks {}: value {} (penalty {penalty}) vs Guard {guard}",
                names[blow.attacker], names[blow.defender], value
            )
        });
        let roll = ahead.unwrap_or_else(|| AttackRoll::roll(dice));
        let hits = u32::from(faces.hits(roll.black)) + u32::from(faces.hits(roll.white));
        if hits == 0 {
            log.say(|| format!("  black {} white {}: miss", roll.black, roll.white));
            return Attack {
                hits,
                marked: [0, 0],
            };
        }
        let full = hits == 2;
        let struck = self.struck(atk, full);
        log.say(|| {
            let hit = if full { "Full Hit" } else { "Hit" };
            let Struck { pierce, damage, .. } = struck;
            format!(
                "  black {} white {}: {hit}; Pierce {pierce}, Damage {damage}",
                roll.black, roll.white
            )
        });
        let Some(struck) = self.through_armour(def, roll.white, struck, log) else {
            return Attack {
                hits,
                marked: [0, 0],
            };
        };
        let target = &mut rows[blow.defender];
        dice.stream(key.with_purpose(Purpose::Damage));
        let roll = (struck.damage, struck.kind, DAMAGE_DICE);
        let first = self.wound(target, &def.track, roll, dice, log);
        let second = if full && atk.stun_weapon {
            log.say(|| "  a Stun weapon's Full Hit: a separate Injury roll".to_owned());
            let roll = (struck.injury_damage, struck.injury_kind, INJURY_DICE);
            dice.stream(key.with_purpose(Purpose::Injury));
            self.wound(target, &def.track, roll, dice, log)
        } else {
            0
        };
        Attack {
            hits,
            marked: [first, second],
        }
    }

    /// What a Hit (or a Full Hit, `full`) of `atk` brings to the armour: its Pierce and
    /// Damage, a Full Hit's bonuses added; a Stun weapon marks Stun, and its Full Hit's
    /// separate Injury roll is on the weapon's Damage.
    #[inline(always)]
    fn struck(&self, atk: &Fighter, full: bool) -> Struck {
        let rules = &self.rules;
        let (pierce_bonus, damage_bonus) = if full {
            (rules.full_hit_pierce.u32(), rules.full_hit_damage.i32())
        } else {
            (0, 0)
        };
        Struck {
            pierce: atk.pierce + pierce_bonus,
            damage: atk.damage as i32 + damage_bonus,
            injury_damage: atk.damage as i32 + rules.stun_injury_roll_bonus.i32(),
            kind: if atk.stun_weapon {
                Kind::Stun
            } else {
                Kind::Injury
            },
            injury_kind: Kind::Injury,
        }
    }

    /// The armour of `def` against `struck`, when the white die is within its Coverage: a
    /// Pierce below its Protection interval is deflected (`None`); inside it, the Damage is
    /// cut and both rolls mark Stun; above it, the blow goes straight through.
    #[inline(always)]
    fn through_armour<L: Log>(
        &self,
        def: &Fighter,
        white: u32,
        mut struck: Struck,
        log: &mut L,
    ) -> Option<Struck> {
        let (coverage, pierce) = (def.coverage, struck.pierce);
        let Interval { low, high } = def.protection;
        if coverage == 0 {
            return Some(struck);
        }
        if white > coverage {
            log.say(|| format!("  armour bypassed (white {white} above Coverage {coverage})"));
            return Some(struck);
        }
        if pierce < low {
            log.say(|| format!("  armour struck (white {white} vs Coverage {coverage}): Pierce {pierce} below {low}-{high}: deflected"));
            return None;
        }
        let cut = self.rules.interval_damage_cut.i32();
        if pierce <= high {
            struck.damage -= cut;
            struck.injury_damage -= cut;
            struck.kind = Kind::Stun;
            struck.injury_kind = Kind::Stun;
        }
        log.say(|| armour_words(pierce, (low, high), cut));
        Some(struck)
    }

    /// The Recover action of the fighter at place `me` on the roster, whose wounds are `rows`:
    /// a Willpower roll with penalties; a success clears the highest Stun.
    pub fn recover_action<D: Dice, L: Log>(
        &self,
        me: usize,
        rows: &mut WoundRows,
        dice: &mut D,
        log: &mut L,
    ) -> bool {
        let f = &self.members[me];
        let value = f.willpower - rows.penalty(&f.track);
        let result = attribute_roll(dice, value, RECOVER_DICE);
        let highest_stun = highest_row(rows.stun);
        if result > 0 {
            rows.stun &= !(1u64 << highest_stun);
        }
        log.say(|| {
            format!(
                "{} uses Recover: Willpower {value}: {}",
                self.roster.fighter_names[me],
                if result > 0 {
                    format!("{result} success, Stun on row {highest_stun} clears")
                } else {
                    "fails".to_owned()
                }
            )
        });
        result > 0
    }
}

/// [`GuardPierce::attack_values`] of an attacker and a defender with their wounds, before the
/// point is built.
fn attack_values(
    (atk, def): (&Fighter, &Fighter),
    rules: &Rules,
    (atk_rows, def_rows): (&WoundRows, &WoundRows),
) -> (i32, i32, i32) {
    let penalty = atk_rows.penalty(&atk.track);
    let guard_penalty = if rules.penalty_to_guard {
        def_rows.penalty(&def.track)
    } else {
        0
    };
    (penalty, atk.attack - penalty, def.guard - guard_penalty)
}

/// The hit faces of `atk` on `def` when `atk`'s highest Wound is on `row` (0: none) and `def`
/// is unhurt: what [`GuardPierce::duel_hit_faces`] reads from the table [`GuardPierce::new`]
/// fills with them.
pub(super) fn hit_faces_by_row(
    atk: &Fighter,
    def: &Fighter,
    rules: &Rules,
    row: usize,
) -> HitFaces {
    let hurt = WoundRows {
        injury: (1u64 << row) & !1,
        stun: 0,
    };
    let (_, value, guard) = attack_values((atk, def), rules, (&hurt, &WoundRows::default()));
    HitFaces::new(guard, value, rules.hit_on_guard)
}

/// What a Hit brings to the armour: its Pierce and Damage, and the separate Injury roll's
/// Damage, with the kind of Wound each marks.
#[derive(Clone, Copy, Debug)]
struct Struck {
    pierce: u32,
    damage: i32,
    injury_damage: i32,
    kind: Kind,
    injury_kind: Kind,
}

/// What the trace says of armour struck by a blow of `pierce` that its Protection interval
/// `low`-`high` does not deflect: inside it, the Damage less `cut` and Stun; above it, straight
/// through.
fn armour_words(pierce: u32, (low, high): (u32, u32), cut: i32) -> String {
    if pierce <= high {
        format!("  armour struck: Pierce {pierce} inside {low}-{high}: Damage -{cut}, Stun")
    } else {
        format!("  armour struck: Pierce {pierce} above {low}-{high}: straight through")
    }
}

/// A fighter's halves of the hit faces ([`HitFaces::within`], [`HitFaces::beating`]): the
/// faces within its attack value, and those beating its Guard, each less its wound penalty
/// (the Guard's only with `penalty_to_guard`). An attack hits on the attacker's first half and
/// the defender's second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FaceHalves {
    pub within_value: HitFaces,
    pub beating_guard: HitFaces,
}

/// What a fight of several reads of a fighter after a wound instead of working it out: its
/// [`FaceHalves`] by the row of its highest Wound (0: none), on which alone the penalty, and
/// so the halves, depend; and the rows whose Stun sends it to the Recover action (those at or
/// above its `recover_at`; none without one).
#[derive(Clone, Debug)]
pub(super) struct TurnTable {
    pub halves_by_row: [FaceHalves; 64],
    pub recover_rows: u64,
}

impl TurnTable {
    /// `fighter`'s table under `rules`.
    pub(super) fn new(fighter: &Fighter, rules: &Rules) -> Self {
        let halves_by_row = std::array::from_fn(|row| {
            let hurt = WoundRows {
                injury: (1u64 << row) & !1,
                stun: 0,
            };
            let penalty = hurt.penalty(&fighter.track);
            let guard_penalty = if rules.penalty_to_guard { penalty } else { 0 };
            FaceHalves {
                within_value: HitFaces::within(fighter.attack - penalty),
                beating_guard: HitFaces::beating(fighter.guard - guard_penalty, rules.hit_on_guard),
            }
        });
        let recover_rows = match fighter.recover_at {
            0 => 0,
            row => u64::MAX.checked_shl(row).unwrap_or(0),
        };
        TurnTable {
            halves_by_row,
            recover_rows,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::NoLog;
    use crate::rules::guard_pierce::test_support::{
        attack_with, fighter, ledger_attack, ledger_cudgel, ledger_point, model, rows,
    };
    use crate::rules::guard_pierce::{Fighter, Healing, Rules};
    use crate::scenario::fields::Ranged;

    fn armoured(low: u32, high: u32) -> Fighter {
        let mut f = fighter(10, 5, 5, 5);
        f.coverage = 20;
        f.protection = Interval { low, high };
        f
    }

    #[test]
    fn example_damage_15_rolling_9_and_13_is_an_injury_of_13() {
        let m = model(fighter(14, 5, 15, 5), fighter(10, 5, 5, 5));
        // Black 3 hits, white 20 misses: a Hit. Damage roll on 15: 9 and 13: 13.
        let (attack, wounds) = attack_with(&m, WoundRows::default(), &[8, 20, 9, 13]);
        assert_eq!(attack.hits, 1);
        assert_eq!(wounds, rows(&[13], &[]));
    }

    #[test]
    fn protection_interval_4_11_deflects_below_stops_inside_and_is_ignored_above() {
        for (pierce, dice, expected) in [
            // Pierce 3: deflected, no damage roll at all.
            (3u32, vec![8, 20], WoundRows::default()),
            // Pierce 4 and 11: inside: Damage 15 - 5 = 10, Stun. Roll 9 and 13: 9.
            (4, vec![8, 20, 9, 13], rows(&[], &[9])),
            (11, vec![8, 20, 9, 13], rows(&[], &[9])),
            // Pierce 12: straight through: Damage 15, Injury 13.
            (12, vec![8, 20, 9, 13], rows(&[13], &[])),
        ] {
            let m = model(fighter(14, 5, 15, pierce), armoured(4, 11));
            let (_, wounds) = attack_with(&m, WoundRows::default(), &dice);
            assert_eq!(wounds, expected, "Pierce {pierce}");
        }
    }

    #[test]
    fn coverage_is_checked_with_the_white_die_even_when_it_misses() {
        let mut b = armoured(4, 11);
        b.coverage = 12;
        // Attack 11: black 6 hits, white 13 misses and is above Coverage 12: bypassed,
        // Damage 15: Injury 13.
        let m = model(fighter(11, 5, 15, 5), b);
        let (_, wounds) = attack_with(&m, WoundRows::default(), &[6, 13, 9, 13]);
        assert_eq!(wounds, rows(&[13], &[]));
        // White 12 misses but is not above Coverage 12: struck; Pierce 5 inside: Stun on 9.
        let (_, wounds) = attack_with(&m, WoundRows::default(), &[6, 12, 9, 13]);
        assert_eq!(wounds, rows(&[], &[9]));
    }

    #[test]
    fn a_full_hit_adds_2_pierce_and_5_damage() {
        // Pierce 10 is inside 4-11 on a Hit; a Full Hit makes 12: through.
        let m = model(fighter(14, 5, 10, 10), armoured(4, 11));
        let (attack, wounds) = attack_with(&m, WoundRows::default(), &[6, 7, 14, 20]);
        assert_eq!(attack.hits, 2);
        // Damage 15: 14 is a success.
        assert_eq!(wounds, rows(&[14], &[]));
        // A Hit: Pierce 10 inside, Damage 10 - 5 = 5: 14 and 20 fail; the lowest empty row 1 <= 5.
        let (attack, wounds) = attack_with(&m, WoundRows::default(), &[6, 20, 14, 20]);
        assert_eq!(attack.hits, 1);
        assert_eq!(wounds, rows(&[], &[1]));
    }

    #[test]
    fn a_stun_weapons_full_hit_also_makes_a_separate_injury_roll() {
        let mut cudgel = fighter(14, 5, 12, 2);
        cudgel.stun_weapon = true;
        let m = model(cudgel, fighter(10, 5, 5, 5));
        // Full Hit: Stun roll on 17: 16, 2 -> 16. Separate Injury roll on 12: 7, 15 -> 7.
        let (attack, wounds) = attack_with(&m, WoundRows::default(), &[6, 7, 16, 2, 7, 15]);
        assert_eq!(attack.marked, [16, 7]);
        assert_eq!(wounds, rows(&[7], &[16]));
    }

    #[test]
    fn a_failed_damage_roll_marks_the_lowest_empty_row_unless_above_the_damage() {
        let m = model(fighter(14, 5, 3, 5), fighter(10, 5, 5, 5));
        let (_, wounds) = attack_with(&m, rows(&[1], &[]), &[8, 20, 18, 19]);
        assert_eq!(wounds, rows(&[1, 2], &[]));
        let (attack, wounds) = attack_with(&m, rows(&[1, 2, 3], &[]), &[8, 20, 18, 19]);
        assert_eq!(attack.marked, [0, 0]);
        assert_eq!(wounds, rows(&[1, 2, 3], &[]));
    }

    #[test]
    fn damage_above_20_adds_its_excess_to_the_higher_die() {
        let m = model(fighter(14, 5, 25, 5), fighter(10, 5, 5, 5));
        let mut dice = ScriptedDice::new([3, 7]);
        assert_eq!(m.damage_roll(&mut dice, 25, DAMAGE_DICE), 12);
        let mut capped = m.clone();
        capped.rules.over_20 = Over20::Cap;
        let mut dice = ScriptedDice::new([3, 7]);
        assert_eq!(capped.damage_roll(&mut dice, 25, DAMAGE_DICE), 7);
    }

    #[test]
    fn recover_clears_the_highest_stun_on_a_willpower_success_with_penalties() {
        let m = model(fighter(12, 5, 10, 5), fighter(10, 5, 5, 5));
        // Stun on 5 and 9: penalty 5 (row 9); Willpower 10 - 5 = 5: 4 succeeds.
        let mut w = rows(&[], &[5, 9]);
        assert!(m.recover_action(0, &mut w, &mut ScriptedDice::new([4, 17]), &mut NoLog));
        assert_eq!(w, rows(&[], &[5]));
        // 6 and 7 are above 5: fails, nothing clears.
        let mut w = rows(&[], &[5, 9]);
        assert!(!m.recover_action(0, &mut w, &mut ScriptedDice::new([6, 7]), &mut NoLog));
        assert_eq!(w, rows(&[], &[5, 9]));
    }

    // Rule ledger tests (docs/rules/guard-pierce.md, "Rule ledger").

    #[test]
    fn a_die_above_guard_and_no_higher_than_the_value_used_hits_one_is_a_hit_two_a_full_hit() {
        // L11: "A die is a hit if it's above Guard ..., but no higher than the value that was
        // used. If only one die hits, the attack is a "Hit". If both dice hit, it's a "Full Hit"."
        // Value 14, Guard 5, Damage 15.
        let m = model(fighter(14, 5, 15, 5), fighter(10, 5, 5, 5));
        // 5 equals Guard: not above; 20 is above the value: a miss, no damage roll.
        let (attack, wounds) = attack_with(&m, WoundRows::default(), &[5, 20]);
        assert_eq!(attack.hits, 0);
        assert_eq!(wounds, WoundRows::default());
        // 15 is above the value, 6 hits: a Hit; damage roll on 15: 9, 13 -> Injury 13.
        let (attack, wounds) = attack_with(&m, WoundRows::default(), &[15, 6, 9, 13]);
        assert_eq!(attack.hits, 1);
        assert_eq!(wounds, rows(&[13], &[]));
        // 6 and 14 (equal to the value) both hit: a Full Hit; Damage 20: 9, 13 -> 13.
        let (attack, wounds) = attack_with(&m, WoundRows::default(), &[6, 14, 9, 13]);
        assert_eq!(attack.hits, 2);
        assert_eq!(wounds, rows(&[13], &[]));
    }

    #[test]
    fn a_deflected_full_hit_deals_no_damage_not_even_the_separate_injury_roll() {
        // L29: "all attacks with a Pierce below 4 are deflected and deal no damage at all."
        // A Stun weapon, Pierce 1; a Full Hit makes it 3, still below 4-11: no roll at all.
        let m = model(ledger_cudgel(12, 1), armoured(4, 11));
        let (attack, wounds) = attack_with(&m, WoundRows::default(), &[6, 7]);
        assert_eq!(attack.hits, 2);
        assert_eq!(attack.marked, [0, 0]);
        assert_eq!(wounds, WoundRows::default());
    }

    #[test]
    fn damage_lowered_to_0_inside_the_interval_rolls_and_marks_nothing() {
        // L29: "The attack's Damage is lowered by -5, and it's marked as Stun." Design
        // (assumptions, "Damage 0 or less"): Damage 5 - 5 = 0 makes no damage roll.
        let m = model(fighter(14, 5, 5, 5), armoured(4, 11));
        let (attack, wounds) = attack_with(&m, WoundRows::default(), &[8, 20]);
        assert_eq!(attack.hits, 1);
        assert_eq!(attack.marked, [0, 0]);
        assert_eq!(wounds, WoundRows::default());
    }

    #[test]
    fn the_damage_roll_takes_no_wound_penalty() {
        // L14/L22: "Roll the attack's Damage, like you would an attribute or background." L40:
        // "Most of your combat actions ... suffer the penalty". READING (not in the assumptions
        // table yet): the penalty lowers the value used to attack, not the damage roll.
        let m = model(fighter(14, 5, 15, 5), fighter(10, 5, 5, 5));
        // a has a Stun on row 5 (penalty 3): value 11, 8 hits. Damage roll on 15 (not 12):
        // 15 succeeds: Injury 15. (With the penalty, 15 and 20 would fail: row 1.)
        let (attack, after, _) = ledger_attack(
            &m,
            [rows(&[], &[5]), WoundRows::default()],
            &[8, 20, 15, 20],
        );
        assert_eq!(attack.marked, [15, 0]);
        assert_eq!(after[1], rows(&[15], &[]));
    }

    #[test]
    fn a_failed_damage_roll_passes_over_a_row_marked_with_stun() {
        // L14: "If the damage roll fails, mark the lowest unmarked Wound." READING (assumptions,
        // "Failed damage roll": unmarked = no mark of either kind). L22 ("mark the lowest damage
        // that the attack could have inflicted") read alone would put the Injury on row 1 over
        // the Stun (L36: "an incoming Injury replaces it").
        let m = model(fighter(14, 5, 3, 5), fighter(10, 5, 5, 5));
        // A Hit; damage roll on 3: 18, 19 fail. Row 1 has a Stun: the lowest unmarked row is 2.
        let (attack, wounds) = attack_with(&m, rows(&[], &[1]), &[8, 20, 18, 19]);
        assert_eq!(attack.marked, [2, 0]);
        assert_eq!(wounds, rows(&[2], &[1]));
    }

    #[test]
    fn inside_the_interval_a_stun_weapons_separate_injury_roll_is_lowered_and_marked_as_stun() {
        // L29: "Pierce within the interval ... The attack's Damage is lowered by -5, and it's
        // marked as Stun." READING (assumptions, rules.stun_injury_roll_bonus: "Armour inside its
        // interval turns it to Stun too").
        // Stun weapon Damage 12, Pierce 2; a Full Hit (6, 7): Pierce 4, inside 4-11.
        // Stun roll on 17 - 5 = 12: 10, 15 -> Stun 10. Separate roll on 12 - 5 = 7: 5, 20 -> 5,
        // marked as Stun.
        let m = model(ledger_cudgel(12, 2), armoured(4, 11));
        let (attack, wounds) = attack_with(&m, WoundRows::default(), &[6, 7, 10, 15, 5, 20]);
        assert_eq!(attack.marked, [10, 5]);
        assert_eq!(wounds, rows(&[], &[5, 10]));
    }

    // ---- Item 7: parameters the text does not fix -------------------------------------------

    #[test]
    fn hit_on_guard_true_lets_a_die_equal_to_guard_hit() {
        // Design (assumptions, rules.hit_on_guard = false): "A die is a hit if it's above Guard".
        let a = fighter(14, 5, 15, 5);
        let b = fighter(10, 5, 5, 5);
        // Default: 5 equals Guard 5 and misses, 20 is above the value: a miss.
        let (attack, _) = attack_with(&model(a, b), WoundRows::default(), &[5, 20]);
        assert_eq!(attack.hits, 0);
        // On: 5 hits: a Hit; damage roll on 15: 9, 13 -> Injury 13.
        let on = ledger_point(
            a,
            b,
            Rules {
                hit_on_guard: true,
                ..Rules::default()
            },
            Healing::default(),
            40,
        );
        let (attack, wounds) = attack_with(&on, WoundRows::default(), &[5, 20, 9, 13]);
        assert_eq!(attack.hits, 1);
        assert_eq!(wounds, rows(&[13], &[]));
        // A die below Guard still misses.
        let (attack, _) = attack_with(&on, WoundRows::default(), &[4, 20]);
        assert_eq!(attack.hits, 0);
    }

    #[test]
    fn penalty_to_guard_true_lowers_the_defenders_guard_by_its_own_penalty() {
        // Design (assumptions, rules.penalty_to_guard = false): "Most of your combat actions ...
        // suffer the penalty"; Guard is not an action unless the option is on.
        let a = fighter(14, 5, 15, 5);
        let b = fighter(10, 5, 5, 5);
        // b has an Injury on row 5: penalty 3.
        // Default: Guard stays 5: 3 misses, 20 is above the value: a miss.
        let (attack, wounds) = attack_with(&model(a, b), rows(&[5], &[]), &[3, 20]);
        assert_eq!(attack.hits, 0);
        assert_eq!(wounds, rows(&[5], &[]));
        // On: Guard 5 - 3 = 2: 3 hits; damage roll on 15: 9, 13 -> Injury 13.
        let on = ledger_point(
            a,
            b,
            Rules {
                penalty_to_guard: true,
                ..Rules::default()
            },
            Healing::default(),
            40,
        );
        let (attack, wounds) = attack_with(&on, rows(&[5], &[]), &[3, 20, 9, 13]);
        assert_eq!(attack.hits, 1);
        assert_eq!(wounds, rows(&[5, 13], &[]));
    }

    #[test]
    fn stun_injury_roll_bonus_adds_to_the_damage_of_the_separate_injury_roll() {
        // L18: "Make a separate Injury roll as with a regular Hit." Design (assumptions,
        // rules.stun_injury_roll_bonus = 0): the separate roll is on the plain Damage.
        let b = fighter(10, 5, 5, 5);
        // Full Hit (6, 7) with a Stun weapon of Damage 12: Stun roll on 17: 16, 2 -> Stun 16.
        // Separate Injury roll on 12: 17 and 15 fail: the lowest unmarked row, 1 (<= 12).
        let (attack, wounds) = attack_with(
            &model(ledger_cudgel(12, 2), b),
            WoundRows::default(),
            &[6, 7, 16, 2, 17, 15],
        );
        assert_eq!(attack.marked, [16, 1]);
        assert_eq!(wounds, rows(&[1], &[16]));
        // Bonus 5: the Injury roll is on 17: 17 succeeds: Injury 17.
        let bonus = ledger_point(
            ledger_cudgel(12, 2),
            b,
            Rules {
                stun_injury_roll_bonus: Ranged::new(5),
                ..Rules::default()
            },
            Healing::default(),
            40,
        );
        let (attack, wounds) = attack_with(&bonus, WoundRows::default(), &[6, 7, 16, 2, 17, 15]);
        assert_eq!(attack.marked, [16, 17]);
        assert_eq!(wounds, rows(&[17], &[16]));
    }
}
