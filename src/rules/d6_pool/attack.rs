//! One attack: "How many dice to roll when attacking" (the average of ATTACK and WEAPON skill,
//! the "Throw Bonus" of a thrown weapon, "Berserk" +1, "Defensively" −1, the declared Luck
//! dice, and "Roll ALL of these dice at the same time"), the Luck Dice and the Ammo Tracker
//! spent, then the attack table's two steps: the column, the defence roll and the block
//! (`attack_table.rs`, `block.rs`), a Critical Strike's critical damage dice ("Number of 6s
//! rolled for the ATTACK", plus 1 for C and 2 for D weapons, "Minus the number of dice the
//! defender rolled", totalled, plus the "Crit Bonus"), the damage and the stun.

use super::attack_table::{COLUMNS, CRITICAL, WHIFF, column};
use super::block::{DefenceDice, DefenceRule, Standing, defence_rule};
use super::schema::{CritDamage, ParryAgainst, Stance};
use super::{D6Pool, Purpose, State, Weapon};
use crate::dice::{Dice, Stream};
use crate::log::Log;
pub use crate::rules::roster::Blow;

/// What one attack did, for the tally, narration and tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Attack {
    /// Attack dice rolled, Luck dice included.
    pub dice: u32,
    /// Luck dice among them.
    pub luck: u32,
    /// Whether the missile was used (one ammunition spent).
    pub missile: bool,
    /// The attack table column (0 whiff, 7 Critical Strike).
    pub column: usize,
    /// 6s rolled.
    pub sixes: u32,
    /// Defence dice rolled (0 after a whiff).
    pub defence_dice: u32,
    /// 6s the defender rolled.
    pub defence_sixes: u32,
    /// Blocked.
    pub blocked: bool,
    /// Critical damage dice rolled.
    pub critical_dice: u32,
    /// Damage dealt.
    pub damage: i32,
    /// The hit stunned the defender.
    pub stunned: bool,
}

impl Attack {
    /// Whether the attack connected (not a whiff, not blocked).
    pub fn hit(&self) -> bool {
        self.column != WHIFF && !self.blocked
    }
}

/// Rolls `n` d6 and counts the 4s, 5s and 6s (an exact walk takes the distinct counts).
#[inline]
fn roll_counts<D: Dice>(dice: &mut D, n: u32, label: &'static str) -> [u32; 3] {
    dice.count_faces::<3>(n, 6, label)
}

/// "Roll ALL of these dice at the same time": the `base` attack dice, then the `luck` dice
/// from the stream `key` with [`Purpose::Luck`]; the 4s, 5s and 6s among them all.
#[inline(always)]
fn roll_attack<D: Dice>(dice: &mut D, (base, luck): (u32, u32), key: Stream) -> [u32; 3] {
    let skill = roll_counts(dice, base, "d6 (attack)");
    dice.stream(key.with_purpose(Purpose::Luck));
    let luck = roll_counts(dice, luck, "d6 (luck, rolled with the attack)");
    [0, 1, 2].map(|i| skill[i] + luck[i])
}

impl D6Pool {
    /// One attack of `blow.attacker` on `blow.defender` (`states` are every fighter's, by their
    /// places on the roster): the weapon (the missile while ammunition
    /// lasts), the Luck dice, the attack dice, the column, the defence roll by the first rule
    /// that applies, the block, the critical damage dice, the damage and the stun.
    // Always in line: out of line, the dice's state goes through memory for every die.
    #[inline(always)]
    pub fn attack<const N: usize, D: Dice, L: Log>(
        &self,
        blow: Blow,
        key: Stream,
        states: &mut [State; N],
        dice: &mut D,
        log: &mut L,
    ) -> Attack {
        let (ai, di) = (blow.attacker, blow.defender);
        let me = &self.members[ai];
        let mut out = Attack::default();
        // The weapon: the missile while ammunition lasts.
        let weapon = match me.missile {
            Some(missile) if states[ai].ammo > 0 => {
                states[ai].ammo -= 1;
                out.missile = true;
                missile
            }
            _ => me.melee,
        };
        let threw = out.missile && weapon.thrown;
        // Luck dice, declared by the tactic and spent from the pool.
        if states[ai].health <= me.luck_at_health {
            out.luck = me.luck_per_attack.min(states[ai].luck);
            states[ai].luck -= out.luck;
        }
        let base = weapon.dice
            + if threw { weapon.throw_bonus } else { 0 }
            + u32::from(me.stance == Stance::Berserk);
        let base = base.saturating_sub(u32::from(me.stance == Stance::Defensive));
        out.dice = base + out.luck;
        let counts = roll_attack(dice, (base, out.luck), key);
        out.sixes = counts[2];
        out.column = column(counts[0], counts[1], counts[2]);
        log.say(|| self.attack_words(ai, (&out, counts), (weapon, threw), states[ai].luck));
        // The defender's standing as this attack finds it; its stun ends with this attack.
        let standing = states[di].standing;
        states[di].standing.stunned = false;
        // The attacker's last turn, for its own next defence.
        states[ai].standing = Standing {
            stunned: states[ai].standing.stunned,
            stance: me.stance,
            threw,
            whiffed: out.column == WHIFF,
            parried: false,
        };
        if out.column == WHIFF {
            // What the whiff costs depends on the first defence rule that applies to its next
            // defence: a defensive stance or a throw keeps the PARRY/DODGE dice.
            let (rule, _) = defence_rule(&states[ai].standing);
            log.say(|| self.whiff_words(blow, rule));
            return out;
        }
        let needed = self.table.needed(out.column, out.sixes);
        let (rule, allowed) = defence_rule(&standing);
        out.defence_dice = self.members[di].defence_dice(allowed);
        // With parry_against = "first", the first attack defended since the defender's last
        // turn is the one its PARRY/DODGE dice meet, whether or not a rule let it roll them.
        states[di].standing.parried |= self.rules.parry_against == ParryAgainst::First;
        // Only the 6s block.
        dice.stream(key.with_purpose(Purpose::Defence));
        let [blocks] = dice.count_faces::<1>(out.defence_dice, 6, "d6 (defence)");
        out.defence_sixes = blocks;
        out.blocked = blocks >= needed;
        log.say(|| self.defence_words(di, &out, (rule, allowed), needed));
        // A block takes the hit's damage and stun to nothing by selects, not a branch: the
        // defence's 6s are random, so a branch on them would be mispredicted often.
        let connects = !out.blocked;
        out.damage = std::hint::select_unpredictable(connects, self.table.damage[out.column], 0);
        if out.column == CRITICAL && connects {
            self.critical_damage(&mut out, weapon, key, dice, log);
        }
        out.stunned = connects & self.table.stun[out.column];
        states[di].standing.stunned |= out.stunned;
        states[di].health -= out.damage;
        if connects {
            log.say(|| self.damage_words(di, &out, states[di].health));
        }
        out
    }

    /// What the trace says of the damage `out` dealt the fighter at place `di`, at `health`.
    fn damage_words(&self, di: usize, out: &Attack, health: i32) -> String {
        format!(
            "  {} takes {} damage: health {health}{}",
            self.roster.fighter_names[di],
            out.damage,
            if out.stunned { ", stunned" } else { "" }
        )
    }

    /// What the trace says of the defence roll of the fighter at place `di` against `out`,
    /// by `rule` with the dice it `allowed`, `needed` 6s to block.
    fn defence_words(
        &self,
        di: usize,
        out: &Attack,
        (rule, allowed): (DefenceRule, DefenceDice),
        needed: u32,
    ) -> String {
        let foe = &self.members[di];
        format!(
            "  {} defends with {} dice ({rule:?}: ARMOR {}{}{}): 6s {} of {needed} needed: {}",
            self.roster.fighter_names[di],
            out.defence_dice,
            foe.armor,
            if allowed.shield {
                format!(" + SHIELD {}", foe.shield)
            } else {
                String::new()
            },
            if allowed.parry {
                format!(" + PARRY/DODGE {}", foe.parry)
            } else {
                String::new()
            },
            out.defence_sixes,
            if out.blocked {
                "blocked"
            } else {
                "the hit connects"
            }
        )
    }

    /// A Critical Strike that connects: its critical damage dice (the attack's 6s, plus the
    /// weapon class's, less the dice the defender rolled), totalled, plus the "Crit Bonus",
    /// added to the column's damage or instead of it.
    #[inline(always)]
    fn critical_damage<D: Dice, L: Log>(
        &self,
        out: &mut Attack,
        weapon: Weapon,
        key: Stream,
        dice: &mut D,
        log: &mut L,
    ) {
        let sixes = out.sixes;
        out.critical_dice = (sixes + weapon.class_dice).saturating_sub(out.defence_dice);
        // The dice are summed: how many show each face is all that matters.
        dice.stream(key.with_purpose(Purpose::Critical));
        let faces = dice.count_faces::<6>(out.critical_dice, 6, "d6 (critical damage)");
        let total: i32 = (1..=6).zip(faces).map(|(face, n)| face * n as i32).sum();
        let critical = total + weapon.crit_bonus;
        out.damage = match self.rules.crit_damage {
            CritDamage::Add => out.damage + critical,
            CritDamage::Instead => critical,
        };
        log.say(|| {
            format!(
                "  Critical Strike: {sixes} 6s + {} (class) - {} defence dice = {} critical dice, total {total} + Crit Bonus {}",
                weapon.class_dice, out.defence_dice, out.critical_dice, weapon.crit_bonus
            )
        });
    }

    /// What the trace says of the attack roll of the fighter at place `ai` (`luck_left`: its
    /// Luck dice left after those spent).
    fn attack_words(
        &self,
        ai: usize,
        (out, [fours, fives, sixes]): (&Attack, [u32; 3]),
        (weapon, threw): (Weapon, bool),
        luck_left: u32,
    ) -> String {
        let me = &self.members[ai];
        format!(
            "{} {} with {} dice ({}{}{}): 4s {fours}, 5s {fives}, 6s {sixes}: {}",
            self.roster.fighter_names[ai],
            match (out.missile, threw) {
                (true, true) => "throws",
                (true, false) => "shoots",
                _ => "strikes",
            },
            out.dice,
            match me.stance {
                Stance::Normal => "normal",
                Stance::Berserk => "berserk +1",
                Stance::Defensive => "defensively -1",
            },
            if threw {
                format!(", Throw Bonus +{}", weapon.throw_bonus)
            } else {
                String::new()
            },
            if out.luck > 0 {
                format!(", {} Luck dice, {} left", out.luck, luck_left)
            } else {
                String::new()
            },
            COLUMNS[out.column]
        )
    }

    /// What the trace says of a whiff of `blow`: what it costs the attacker when its foe
    /// attacks back, by the first defence `rule` that then applies to it.
    fn whiff_words(&self, blow: Blow, rule: DefenceRule) -> String {
        let names = &self.roster.fighter_names;
        let (me, foe) = (&names[blow.attacker], &names[blow.defender]);
        match rule {
            DefenceRule::Whiffed => {
                format!("  a whiff: {me} loses its PARRY/DODGE dice when {foe} attacks back")
            }
            DefenceRule::Defensive => format!(
                "  a whiff: {me} attacked defensively, so it keeps its PARRY/DODGE dice when {foe} attacks back"
            ),
            DefenceRule::Threw => format!(
                "  a whiff: {me} threw its weapon, so it keeps its PARRY/DODGE dice when {foe} attacks back"
            ),
            DefenceRule::Berserk => format!(
                "  a whiff: {me} attacked berserk: only its ARMOR dice when {foe} attacks back"
            ),
            DefenceRule::Stunned => {
                format!("  a whiff: {me} is stunned: only its ARMOR dice when {foe} attacks back")
            }
            DefenceRule::Parried | DefenceRule::Normal => {
                format!("  a whiff: {me} keeps its PARRY/DODGE dice when {foe} attacks back")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::d6_pool::test_support::{
        MELEE, a_attacks, attack_by, bare, fighter, key, model, model_with, start,
    };
    use crate::rules::d6_pool::{Fighter, Healing, Rules, Weapon};
    use crate::stats::Side;

    #[test]
    fn critical_damage_dice_add_the_class_and_lose_the_defenders_dice() {
        // A D weapon, Crit Bonus 1: three 6s + 2 - the defender's three dice = 2 critical dice.
        let d = Fighter {
            melee: Weapon {
                dice: 3,
                class_dice: 2,
                crit_bonus: 1,
                ..MELEE
            },
            ..fighter()
        };
        let m = model(d, fighter());
        // Defender rolls 6, 6, 2: two 6s of three: not blocked. 4 + 5 = 9, + 1, + 3 = 13.
        let (attack, _) = a_attacks(&m, &[6, 6, 6, 6, 6, 2, 4, 5]);
        assert_eq!((attack.critical_dice, attack.damage), (2, 13));
        // Against a defender with no dice: 3 + 2 = 5 critical dice.
        let m = model(d, bare());
        let (attack, _) = a_attacks(&m, &[6, 6, 6, 1, 1, 1, 1, 1]);
        assert_eq!((attack.critical_dice, attack.damage), (5, 5 + 1 + 3));
        // A C weapon against six defence dice: 3 + 1 - 6 = none; the Crit Bonus still counts.
        let c = Fighter {
            melee: Weapon {
                class_dice: 1,
                crit_bonus: 2,
                ..MELEE
            },
            ..fighter()
        };
        let wall = Fighter {
            armor: 2,
            shield: 2,
            parry: 2,
            ..fighter()
        };
        let m = model(c, wall);
        let (attack, _) = a_attacks(&m, &[6, 6, 6, 6, 1, 1, 1, 1, 1]);
        assert_eq!((attack.critical_dice, attack.damage), (0, 3 + 2));
        // "instead": the critical damage replaces the column's 3.
        let rules = Rules {
            crit_damage: CritDamage::Instead,
            ..Rules::default()
        };
        let m = model_with(d, bare(), rules, Healing::default());
        let (attack, _) = a_attacks(&m, &[6, 6, 6, 1, 1, 1, 1, 2]);
        assert_eq!(attack.damage, 6 + 1);
    }

    #[test]
    fn berserk_adds_a_die_and_armor_only_defensive_takes_one_and_keeps_full_defence() {
        let berserk = Fighter {
            stance: Stance::Berserk,
            ..fighter()
        };
        let m = model(berserk, fighter());
        let mut states = start(&m);
        let attack = attack_by(&m, Side::A, &mut states, &[1, 1, 1, 1]);
        assert_eq!(attack.dice, 4, "3 + 1 berserk");
        let back = attack_by(&m, Side::B, &mut states, &[4, 1, 1, 1]);
        assert_eq!(back.defence_dice, 1, "ARMOR only after berserk");

        let defensive = Fighter {
            stance: Stance::Defensive,
            ..fighter()
        };
        let m = model(defensive, fighter());
        let mut states = start(&m);
        let attack = attack_by(&m, Side::A, &mut states, &[1, 1]);
        assert_eq!(
            (attack.dice, attack.column),
            (2, WHIFF),
            "3 - 1 defensively"
        );
        let back = attack_by(&m, Side::B, &mut states, &[4, 1, 1, 1, 1, 1]);
        assert_eq!(
            back.defence_dice, 3,
            "full defence after defensively, whiff or not"
        );

        // Defensively with no dice left to roll: a whiff without a roll.
        let none = Fighter {
            melee: Weapon { dice: 0, ..MELEE },
            stance: Stance::Defensive,
            ..fighter()
        };
        let (attack, _) = a_attacks(&model(none, fighter()), &[]);
        assert_eq!((attack.dice, attack.column), (0, WHIFF));
    }

    #[test]
    fn throwing_adds_the_throw_bonus_spends_ammo_then_fights_in_melee() {
        let thrower = Fighter {
            missile: Some(Weapon {
                dice: 2,
                class_dice: 1,
                crit_bonus: 0,
                thrown: true,
                throw_bonus: 2,
            }),
            ammo: 1,
            ..fighter()
        };
        let m = model(thrower, fighter());
        let mut states = start(&m);
        // 2 + Throw Bonus 2 = 4 dice, a whiff; the ammunition is spent.
        let throw = attack_by(&m, Side::A, &mut states, &[1, 1, 1, 1]);
        assert_eq!((throw.dice, throw.missile, states[0].ammo), (4, true, 0));
        assert!(states[0].standing.threw && states[0].standing.whiffed);
        // Threw last turn: full defence despite the whiff.
        let back = attack_by(&m, Side::B, &mut states, &[4, 1, 1, 1, 1, 1]);
        assert_eq!(back.defence_dice, 3);
        // Out of ammunition: the melee weapon's 3 dice.
        let melee = attack_by(&m, Side::A, &mut states, &[1, 1, 1]);
        assert_eq!((melee.dice, melee.missile), (3, false));
        // A shot missile (no Throw Bonus) adds no dice and is not a throw: a whiff loses PARRY.
        let archer = Fighter {
            missile: Some(Weapon { dice: 4, ..MELEE }),
            ammo: 5,
            ..fighter()
        };
        let m = model(archer, fighter());
        let mut states = start(&m);
        let shot = attack_by(&m, Side::A, &mut states, &[1, 1, 1, 1]);
        assert_eq!((shot.dice, shot.missile, states[0].ammo), (4, true, 4));
        let back = attack_by(&m, Side::B, &mut states, &[4, 1, 1, 1, 1]);
        assert_eq!(back.defence_dice, 2);
    }

    #[test]
    fn luck_dice_are_rolled_with_the_attack_and_spent_from_the_pool() {
        let lucky = Fighter {
            luck: 3,
            luck_per_attack: 2,
            ..fighter()
        };
        let m = model(lucky, bare());
        let mut states = start(&m);
        // Three skill dice show 3s; the two Luck dice 6 and 6: double 6 (3 damage, stun).
        let first = attack_by(&m, Side::A, &mut states, &[3, 3, 3, 6, 6]);
        assert_eq!((first.dice, first.luck, first.column), (5, 2, 6));
        assert_eq!(states[0].luck, 1);
        // One Luck die left, then none.
        let second = attack_by(&m, Side::A, &mut states, &[1, 1, 1, 1]);
        assert_eq!((second.luck, states[0].luck), (1, 0));
        let third = attack_by(&m, Side::A, &mut states, &[1, 1, 1]);
        assert_eq!(third.luck, 0);
        // Declared only when hurt: health 10 above 5, none; at 5, two.
        let careful = Fighter {
            luck_at_health: 5,
            ..lucky
        };
        let m = model(careful, bare());
        let mut states = start(&m);
        assert_eq!(attack_by(&m, Side::A, &mut states, &[1, 1, 1]).luck, 0);
        states[0].health = 5;
        assert_eq!(
            attack_by(&m, Side::A, &mut states, &[1, 1, 1, 1, 1]).luck,
            2
        );
    }

    #[test]
    fn a_whiff_is_narrated_by_the_defence_rule_that_applies() {
        // "Use the first rule that applies": "If you attacked 'defensively' last turn, roll ARMOR
        // + SHIELD + PARRY/DODGE" comes before "If you 'Whiffed' your attack last turn, You lose
        // Parry/DODGE". A defensive whiff keeps the dice, and the story says so.
        let mut careful = fighter();
        careful.stance = Stance::Defensive;
        let m = model(careful, fighter());
        let mut states = start(&m);
        let mut log = VecLog::default();
        let mut dice = ScriptedDice::new(vec![1, 2]);
        let whiff = m.attack(
            Blow::in_duel(Side::A),
            key(),
            &mut states,
            &mut dice,
            &mut log,
        );
        assert_eq!(whiff.column, WHIFF, "{:?}", log.lines);
        let story = log.lines.join("\n");
        assert!(
            story.contains("attacked defensively, so it keeps its PARRY/DODGE dice"),
            "{story}"
        );
        assert!(!story.contains("loses"), "{story}");
        // A plain whiff loses them.
        let m = model(fighter(), fighter());
        let mut states = start(&m);
        let mut log = VecLog::default();
        m.attack(
            Blow::in_duel(Side::A),
            key(),
            &mut states,
            &mut ScriptedDice::new(vec![1, 2, 3]),
            &mut log,
        );
        assert!(log.lines.join("\n").contains("loses its PARRY/DODGE dice"));
    }

    #[test]
    fn a_critical_loses_only_the_dice_the_defender_actually_rolled() {
        // L36: "- Minus the number of dice the defender rolled when he tried to block the
        // critical." with L26 (stunned: ARMOR only) and L30 (whiffed: ARMOR + SHIELD).
        // Three attack dice, all 6s: a Critical Strike, class A: 3 critical dice before the
        // defender's dice are taken off. b has ARMOR 1, SHIELD 1, PARRY/DODGE 1.
        let m = model(fighter(), fighter());
        // Normal defence: 3 dice (no 6): 3 - 3 = no critical dice.
        let (attack, _) = a_attacks(&m, &[6, 6, 6, 1, 1, 1]);
        assert_eq!(
            (
                attack.column,
                attack.blocked,
                attack.defence_dice,
                attack.critical_dice
            ),
            (CRITICAL, false, 3, 0)
        );
        // Stunned: b rolls its ARMOR die only: 3 - 1 = 2 critical dice.
        let mut states = start(&m);
        states[1].standing.stunned = true;
        let attack = attack_by(&m, Side::A, &mut states, &[6, 6, 6, 1, 1, 1]);
        assert_eq!((attack.defence_dice, attack.critical_dice), (1, 2));
        // b whiffed on its last turn: ARMOR + SHIELD, 2 dice: 3 - 2 = 1 critical die.
        let mut states = start(&m);
        let whiff = attack_by(&m, Side::B, &mut states, &[1, 2, 3]);
        assert_eq!(whiff.column, WHIFF);
        let attack = attack_by(&m, Side::A, &mut states, &[6, 6, 6, 1, 1, 1]);
        assert_eq!((attack.defence_dice, attack.critical_dice), (2, 1));
    }

    #[test]
    fn all_declared_dice_roll_together_throw_bonus_berserk_and_luck_count_for_the_column() {
        // L6: "If throwing your weapon, add dice for the weapon's "Throw Bonus"."
        // L7: "If you declare that you are attacking "Berserk", add 1 die."
        // L9: "Declare any Luck dice and add them"
        // L10: "Roll ALL of these dice at the same time and consult the table below."
        // L15: "6-6-6+ three+6s"; L34: "Critical Damage Dice to roll = Number of 6s rolled for
        // the ATTACK."
        let thrower = Fighter {
            missile: Some(Weapon {
                dice: 2,
                class_dice: 0,
                crit_bonus: 0,
                thrown: true,
                throw_bonus: 1,
            }),
            ammo: 1,
            stance: Stance::Berserk,
            luck: 1,
            luck_per_attack: 1,
            ..fighter()
        };
        let m = model(thrower, bare());
        // 2 + Throw Bonus 1 + Berserk 1 = 4 dice, then 1 Luck die: 5 dice. Two 6s among the
        // four and a 6 on the Luck die: three 6s: a Critical Strike with 3 critical dice
        // (b rolls no defence dice).
        let (attack, states) = a_attacks(&m, &[1, 1, 6, 6, 6, 1, 1, 1]);
        assert_eq!((attack.dice, attack.luck, attack.missile), (5, 1, true));
        assert_eq!((attack.column, attack.sixes), (CRITICAL, 3));
        assert_eq!(attack.critical_dice, 3);
        assert_eq!((states[0].luck, states[0].ammo), (0, 0));
    }
}
