//! The `d6-pool` ruleset: an attack pool of d6 (the average of ATTACK and WEAPON, throw bonus,
//! Berserk, Defensively, luck dice), the highest-die attack table (whiffs, damage, stun, the
//! 6s needed to block), defence dice by "the first rule that applies", criticals with their
//! critical damage dice, and a health track with heal dice after the fight.
//!
//! The text (`shared/rules/d6-pool.txt`) is a character sheet: the health track, the Critical
//! Damage Table and the healing are ours, each a named parameter recorded in
//! `docs/rules/d6-pool.md`. This module owns the schema, the duel and the healing timeline.

use crate::dice::Dice;
use crate::log::Log;
use crate::rules::{FirstStrike, Parameter, Ruleset};
use crate::scenario::error::{InputError, Source};
use crate::scenario::fields::{Name, Ranged};
use crate::scenario::schema::{FighterRefs, ScenarioFile};
use crate::stats::{DuelOutcome, Extra, ExtraKind, Recovery, Side, Tally, TallyShape};
use serde::{Deserialize, Serialize};

/// The id scenarios use.
pub const ID: &str = "d6-pool";

/// How a fighter attacks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stance {
    /// As rolled.
    #[default]
    Normal,
    /// +1 die; only ARMOR dice to defend next turn.
    Berserk,
    /// −1 die; full defence next turn.
    Defensive,
}

/// A fighter as the scenario writes it.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FighterSpec {
    /// Shown in reports.
    pub name: Option<String>,
    /// ATTACK skill (dice).
    pub attack: Ranged<0, 12>,
    /// WEAPON skill (dice).
    pub weapon_skill: Ranged<0, 12>,
    /// PARRY/DODGE dice.
    #[serde(default)]
    pub parry: Ranged<0, 12>,
    /// Health points (the health track).
    #[serde(default = "ten")]
    pub health: Ranged<1, 100>,
    /// Luck dice in the pool.
    #[serde(default)]
    pub luck: Ranged<0, 20>,
    /// Heal dice in the pool.
    #[serde(default)]
    pub heal: Ranged<0, 20>,
    /// A key of `[weapons]`.
    pub weapon: Name,
    /// A key of `[armour]` (ARMOR and SHIELD dice).
    pub armour: Option<Name>,
    /// Tactic: how to attack.
    #[serde(default)]
    pub stance: Stance,
    /// Tactic: throw a throwable weapon in the first round.
    #[serde(default)]
    pub throw_first: bool,
    /// Tactic: luck dice spent on each attack while the pool lasts.
    #[serde(default)]
    pub luck_per_attack: Ranged<0, 10>,
}

fn ten() -> Ranged<1, 100> {
    Ranged::new(10)
}

impl FighterRefs for FighterSpec {
    fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }
    fn weapon(&self) -> &Name {
        &self.weapon
    }
    fn armour(&self) -> Option<&Name> {
        self.armour.as_ref()
    }
}

/// A weapon's class: C and D add critical damage dice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub enum Class {
    /// No bonus.
    #[default]
    A,
    /// No bonus.
    B,
    /// +1 critical damage die.
    C,
    /// +2 critical damage dice.
    D,
}

/// A weapon entry.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponSpec {
    /// Its class.
    #[serde(default)]
    pub class: Class,
    /// Added to critical damage.
    #[serde(default)]
    pub crit_bonus: Ranged<0, 20>,
    /// Dice added when thrown (a throwable weapon has one).
    pub throw_bonus: Option<Ranged<0, 6>>,
    /// Ammunition (a ranged weapon); absent: none needed.
    pub ammo: Option<Ranged<0, 200>>,
}

/// An armour entry.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmourSpec {
    /// ARMOR dice.
    #[serde(default)]
    pub armor: Ranged<0, 12>,
    /// SHIELD dice.
    #[serde(default)]
    pub shield: Ranged<0, 12>,
}

/// The constants a scenario can override in `[rules]`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Damage of the seven hitting columns (one 4, double 4, one 5, double 5, one 6, double 6,
    /// three+ 6s).
    pub damage: Vec<Ranged<0, 20>>,
    /// Which of the seven hitting columns stun.
    pub stun: Vec<bool>,
    /// 6s needed to block each of the first six hitting columns (a critical needs as many as
    /// the attacker rolled).
    pub block: Vec<Ranged<0, 10>>,
    /// Critical damage: the critical dice total is added to the column's damage.
    pub crit_adds: bool,
    /// Health at or below which a fighter is dead (out of the fight at 0).
    pub dead_at: Ranged<-100, 0>,
    /// Who strikes first each round.
    pub first_strike: FirstStrike,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            damage: [1, 1, 2, 2, 3, 3, 3].map(Ranged::new).to_vec(),
            stun: vec![false, true, false, true, false, true, true],
            block: [1, 2, 1, 2, 1, 2].map(Ranged::new).to_vec(),
            crit_adds: true,
            dead_at: Ranged::new(-5),
            first_strike: FirstStrike::Random,
        }
    }
}

/// The healing after the fight.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Healing {
    /// Heal dice spent each day (each d6 restores its roll).
    pub heal_dice_per_day: Ranged<0, 10>,
    /// Days per point of natural healing once the heal dice are spent (0: none).
    pub natural_days_per_point: Ranged<0, 365>,
    /// Days followed.
    pub horizon_days: Ranged<1, 3650>,
}

impl Default for Healing {
    fn default() -> Self {
        Healing {
            heal_dice_per_day: Ranged::new(1),
            natural_days_per_point: Ranged::new(7),
            horizon_days: Ranged::new(365),
        }
    }
}

/// A whole d6-pool scenario file.
pub type File = ScenarioFile<FighterSpec, WeaponSpec, ArmourSpec, Rules, Healing>;

/// Every parameter a d6-pool scenario can set, with its default.
pub const PARAMETERS: &[Parameter] = &[
    Parameter {
        section: "rules",
        key: "damage",
        default: "[1, 1, 2, 2, 3, 3, 3]",
        doc: "damage of the hitting columns: one 4, double 4, one 5, double 5, one 6, double 6, three+ 6s",
    },
    Parameter {
        section: "rules",
        key: "stun",
        default: "[false, true, false, true, false, true, true]",
        doc: "which hitting columns stun (doubles and the critical)",
    },
    Parameter {
        section: "rules",
        key: "block",
        default: "[1, 2, 1, 2, 1, 2]",
        doc: "6s needed to block the first six hitting columns; a critical needs as many as the attacker rolled",
    },
    Parameter {
        section: "rules",
        key: "crit_adds",
        default: "true",
        doc: "the critical damage total (+ Crit Bonus) adds to the column's damage (the Critical Damage Table is missing)",
    },
    Parameter {
        section: "rules",
        key: "dead_at",
        default: "-5",
        doc: "health at or below which a fighter is dead (out of the fight at 0)",
    },
    Parameter {
        section: "rules",
        key: "first_strike",
        default: "\"random\"",
        doc: "who strikes first each round: random (a d2 per duel), a, b",
    },
    Parameter {
        section: "healing",
        key: "heal_dice_per_day",
        default: "1",
        doc: "heal dice spent a day after the fight; each d6 restores its roll",
    },
    Parameter {
        section: "healing",
        key: "natural_days_per_point",
        default: "7",
        doc: "days per health point once the heal dice are gone (0: none)",
    },
    Parameter {
        section: "healing",
        key: "horizon_days",
        default: "365",
        doc: "days followed",
    },
    Parameter {
        section: "a / b",
        key: "attack / weapon_skill",
        default: "required",
        doc: "ATTACK and WEAPON skills: the attack rolls their average, rounded down",
    },
    Parameter {
        section: "a / b",
        key: "parry",
        default: "0",
        doc: "PARRY/DODGE dice",
    },
    Parameter {
        section: "a / b",
        key: "health",
        default: "10",
        doc: "health points",
    },
    Parameter {
        section: "a / b",
        key: "luck / heal",
        default: "0 / 0",
        doc: "luck and heal dice in the pools",
    },
    Parameter {
        section: "a / b",
        key: "weapon / armour",
        default: "required / none",
        doc: "keys of [weapons] and [armour]",
    },
    Parameter {
        section: "a / b",
        key: "stance",
        default: "\"normal\"",
        doc: "normal, berserk (+1 die), defensive (-1 die)",
    },
    Parameter {
        section: "a / b",
        key: "throw_first / luck_per_attack",
        default: "false / 0",
        doc: "throw a throwable weapon in the first round; luck dice spent per attack",
    },
    Parameter {
        section: "weapons.<name>",
        key: "class / crit_bonus",
        default: "\"A\" / 0",
        doc: "C: +1 critical die, D: +2; Crit Bonus added to critical damage",
    },
    Parameter {
        section: "weapons.<name>",
        key: "throw_bonus / ammo",
        default: "none / none",
        doc: "dice added when thrown; ammunition pool",
    },
    Parameter {
        section: "armour.<name>",
        key: "armor / shield",
        default: "0 / 0",
        doc: "ARMOR and SHIELD dice",
    },
];

/// The ruleset's own counts.
pub const EXTRAS: &[Extra] = &[
    Extra {
        name: "criticals",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "whiffs",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "blocks",
        kind: ExtraKind::MeanPerTrial,
    },
];

/// One fighter, compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fighter {
    /// Attack dice: the average of ATTACK and WEAPON, rounded down.
    pub attack_dice: u32,
    /// ARMOR dice.
    pub armor: u32,
    /// SHIELD dice.
    pub shield: u32,
    /// PARRY/DODGE dice.
    pub parry: u32,
    /// Health.
    pub health: i32,
    /// Luck dice.
    pub luck: u32,
    /// Heal dice.
    pub heal: u32,
    /// Critical dice from the weapon class.
    pub class_dice: u32,
    /// Crit Bonus.
    pub crit_bonus: i32,
    /// Throw bonus (`None`: not throwable).
    pub throw_bonus: Option<u32>,
    /// Ammunition (`None`: not needed).
    pub ammo: Option<u32>,
    /// Stance.
    pub stance: Stance,
    /// Throw in the first round.
    pub throw_first: bool,
    /// Luck dice per attack.
    pub luck_per_attack: u32,
}

/// The attack table's column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// 0 whiff; 1 one 4; 2 double 4; 3 one 5; 4 double 5; 5 one 6; 6 double 6; 7 three+ 6s.
    pub index: usize,
    /// 6s rolled.
    pub sixes: u32,
}

/// The column of a roll of the attack dice, from the counts of 4s, 5s and 6s.
pub fn column(fours: u32, fives: u32, sixes: u32) -> Column {
    let index = match (sixes, fives, fours) {
        (s, _, _) if s >= 3 => 7,
        (2, _, _) => 6,
        (1, _, _) => 5,
        (0, f, _) if f >= 2 => 4,
        (0, 1, _) => 3,
        (0, 0, f) if f >= 2 => 2,
        (0, 0, 1) => 1,
        _ => 0,
    };
    Column { index, sixes }
}

/// What happened to a fighter's last turn, for the defence rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LastTurn {
    /// Stunned until the end of its next turn.
    pub stunned: bool,
    /// Attacked berserk.
    pub berserk: bool,
    /// Attacked defensively.
    pub defensive: bool,
    /// Threw its weapon.
    pub threw: bool,
    /// Whiffed.
    pub whiffed: bool,
}

/// Which defence dice apply: "the first rule that applies". Returns (dice, the rule's name).
pub fn defence_dice(f: &Fighter, last: &LastTurn) -> (u32, &'static str) {
    let all = f.armor + f.shield + f.parry;
    if last.stunned {
        (f.armor, "stunned: ARMOR only")
    } else if last.berserk {
        (f.armor, "attacked berserk last turn: ARMOR only")
    } else if last.defensive {
        (
            all,
            "attacked defensively last turn: ARMOR + SHIELD + PARRY/DODGE",
        )
    } else if last.threw {
        (
            all,
            "threw the weapon last turn: ARMOR + SHIELD + PARRY/DODGE",
        )
    } else if last.whiffed {
        (f.armor + f.shield, "whiffed last turn: ARMOR + SHIELD")
    } else {
        (all, "normal: ARMOR + SHIELD + PARRY/DODGE")
    }
}

/// A compiled d6-pool point.
#[derive(Clone, Debug)]
pub struct D6Pool {
    /// The fighters.
    pub fighters: [Fighter; 2],
    /// Their names.
    pub names: [String; 2],
    /// Damage by column (index 1..=7; 0 unused).
    damage: [i32; 8],
    /// Stun by column.
    stun: [bool; 8],
    /// 6s to block by column (columns 1..=6).
    block: [u32; 8],
    /// The rules.
    pub rules: Rules,
    /// Healing settings.
    pub healing: Healing,
    /// Rounds before a draw.
    pub round_limit: u32,
}

/// Counts of 4s, 5s and 6s in `n` d6.
fn roll_pool<D: Dice>(dice: &mut D, n: u32, label: &'static str) -> (u32, u32, u32) {
    let (mut fours, mut fives, mut sixes) = (0, 0, 0);
    for _ in 0..n {
        match dice.d(6, label) {
            4 => fours += 1,
            5 => fives += 1,
            6 => sixes += 1,
            _ => {}
        }
    }
    (fours, fives, sixes)
}

impl D6Pool {
    /// Builds a point.
    pub fn new(
        fighters: [Fighter; 2],
        names: [String; 2],
        rules: Rules,
        healing: Healing,
        round_limit: u32,
    ) -> Self {
        let mut damage = [0; 8];
        let mut stun = [false; 8];
        let mut block = [0; 8];
        for c in 1..8 {
            damage[c] = rules.damage.get(c - 1).map_or(0, Ranged::i32);
            stun[c] = rules.stun.get(c - 1).copied().unwrap_or(false);
            block[c] = rules.block.get(c - 1).map_or(0, Ranged::u32);
        }
        D6Pool {
            fighters,
            names,
            damage,
            stun,
            block,
            rules,
            healing,
            round_limit,
        }
    }

    /// Compiles a scenario file.
    pub fn compile(file: &File, source: &Source) -> Result<Self, InputError> {
        let r = &file.rules;
        for (key, len, want) in [
            ("damage", r.damage.len(), 7),
            ("stun", r.stun.len(), 7),
            ("block", r.block.len(), 6),
        ] {
            if len != want {
                return Err(source.error_at(
                    None,
                    Some(&format!("rules.{key}")),
                    format!("expected {want} values (one per column), found {len}"),
                ));
            }
        }
        let mut fighters = Vec::with_capacity(2);
        for side in Side::BOTH {
            let spec = file.fighter(side);
            let (w, a) = file.equipment(side, source)?;
            fighters.push(Fighter {
                attack_dice: (spec.attack.u32() + spec.weapon_skill.u32()) / 2,
                armor: a.map_or(0, |a| a.armor.u32()),
                shield: a.map_or(0, |a| a.shield.u32()),
                parry: spec.parry.u32(),
                health: spec.health.i32(),
                luck: spec.luck.u32(),
                heal: spec.heal.u32(),
                class_dice: match w.class {
                    Class::A | Class::B => 0,
                    Class::C => 1,
                    Class::D => 2,
                },
                crit_bonus: w.crit_bonus.i32(),
                throw_bonus: w.throw_bonus.as_ref().map(Ranged::u32),
                ammo: w.ammo.as_ref().map(Ranged::u32),
                stance: spec.stance,
                throw_first: spec.throw_first,
                luck_per_attack: spec.luck_per_attack.u32(),
            });
        }
        Ok(D6Pool::new(
            [fighters[0], fighters[1]],
            [file.fighter_name(Side::A), file.fighter_name(Side::B)],
            file.rules.clone(),
            file.healing.clone(),
            file.round_limit.u32(),
        ))
    }

    /// One attack. `luck_left` is the attacker's luck pool, `ammo_left` its ammunition.
    /// Returns the damage dealt (0 when blocked or whiffed), and updates the turn records.
    #[allow(clippy::too_many_arguments)]
    pub fn attack<D: Dice, L: Log>(
        &self,
        attacker: Side,
        throw: bool,
        luck_left: &mut u32,
        last: &mut [LastTurn; 2],
        tally: &mut Tally,
        dice: &mut D,
        log: &mut L,
    ) -> i32 {
        let a = &self.fighters[attacker.index()];
        let defender = attacker.other();
        let d = &self.fighters[defender.index()];
        let luck = a.luck_per_attack.min(*luck_left);
        *luck_left -= luck;
        let bonus = if throw { a.throw_bonus.unwrap_or(0) } else { 0 };
        let stance = match a.stance {
            Stance::Berserk => 1i32,
            Stance::Defensive => -1,
            Stance::Normal => 0,
        };
        let n = (a.attack_dice as i32 + bonus as i32 + stance + luck as i32).clamp(0, 30) as u32;
        let (fours, fives, sixes) = roll_pool(dice, n, "d6 (attack)");
        let col = column(fours, fives, sixes);
        log.say(|| format!("{} attacks with {n} dice ({luck} luck): 4s {fours}, 5s {fives}, 6s {sixes}: column {}", self.names[attacker.index()], col.index));
        let me = &mut last[attacker.index()];
        *me = LastTurn {
            stunned: me.stunned,
            berserk: a.stance == Stance::Berserk,
            defensive: a.stance == Stance::Defensive,
            threw: throw,
            whiffed: col.index == 0,
        };
        if col.index == 0 {
            tally.record_extra(1, 1);
            log.say(|| {
                "  a whiff: the attacker loses Parry/Dodge dice on the next attack against it"
                    .to_owned()
            });
            tally.record_hit(0, false);
            return 0;
        }
        let needed = if col.index == 7 {
            col.sixes
        } else {
            self.block[col.index]
        };
        let (block_dice, rule) = defence_dice(d, &last[defender.index()]);
        let (_, _, block_sixes) = roll_pool(dice, block_dice, "d6 (defence)");
        log.say(|| {
            format!(
                "  {} defends with {block_dice} dice ({rule}): 6s {block_sixes}, needs {needed}",
                self.names[defender.index()]
            )
        });
        if block_sixes >= needed && needed > 0 {
            tally.record_extra(2, 1);
            log.say(|| "  blocked".to_owned());
            tally.record_hit(0, true);
            return 0;
        }
        let mut damage = self.damage[col.index];
        if col.index == 7 {
            tally.record_extra(0, 1);
            let crit_dice = (col.sixes + a.class_dice).saturating_sub(block_dice);
            let mut total = 0;
            for _ in 0..crit_dice {
                total += dice.d(6, "d6 (critical damage)") as i32;
            }
            let critical = total + a.crit_bonus;
            if self.rules.crit_adds {
                damage += critical;
            }
            log.say(|| {
                format!(
                    "  a Critical Strike: {crit_dice} critical dice total {total} + Crit Bonus {}",
                    a.crit_bonus
                )
            });
        }
        if self.stun[col.index] {
            last[defender.index()].stunned = true;
            log.say(|| format!("  {} is stunned", self.names[defender.index()]));
        }
        log.say(|| format!("  hit for {damage}"));
        tally.record_hit(damage.max(0) as u32, true);
        damage
    }

    /// Heal dice after the fight, then natural healing: days until full health.
    pub fn recover<D: Dice, L: Log>(
        &self,
        side: Side,
        mut health: i32,
        mut heal_dice: u32,
        dice: &mut D,
        log: &mut L,
    ) -> Recovery {
        let max = self.fighters[side.index()].health;
        let per_day = self.healing.heal_dice_per_day.u32();
        let natural = self.healing.natural_days_per_point.u32();
        let horizon = self.healing.horizon_days.u32();
        let mut day = 0;
        let mut natural_clock = 0;
        while health < max && day < horizon && !dice.exhausted() {
            day += 1;
            if heal_dice > 0 && per_day > 0 {
                for _ in 0..per_day.min(heal_dice) {
                    health += dice.d(6, "d6 (heal die)") as i32;
                    heal_dice -= 1;
                }
                log.say(|| format!("day {day}: heal dice: health {}/{max}", health.min(max)));
            } else if natural > 0 {
                natural_clock += 1;
                if natural_clock >= natural {
                    natural_clock = 0;
                    health += 1;
                }
            } else {
                break;
            }
        }
        if health >= max {
            log.say(|| format!("{} is whole after {day} days", self.names[side.index()]));
            Recovery {
                days_to_whole: Some(day),
                died: false,
                impairment: 0,
            }
        } else {
            Recovery {
                days_to_whole: None,
                died: false,
                impairment: 0,
            }
        }
    }
}

impl Ruleset for D6Pool {
    fn shape(&self) -> TallyShape {
        TallyShape {
            round_limit: self.round_limit,
            max_damage: 40,
            horizon_days: self.healing.horizon_days.u32(),
            extras: EXTRAS,
        }
    }

    fn trial<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        let mut health = self.fighters.map(|f| f.health);
        let mut luck = self.fighters.map(|f| f.luck);
        let mut ammo = self.fighters.map(|f| f.ammo);
        let mut thrown = [false; 2];
        let mut last = [LastTurn::default(); 2];
        let first = self.rules.first_strike.roll(dice);
        let mut winner = None;
        let mut rounds = 0;
        'duel: for round in 1..=self.round_limit {
            rounds = round;
            log.say(|| format!("round {round}"));
            for attacker in [first, first.other()] {
                if dice.exhausted() {
                    break 'duel;
                }
                let a = &self.fighters[attacker.index()];
                // A stun lasts until the end of the stunned fighter's next turn.
                let was_stunned = last[attacker.index()].stunned;
                let throw = a.throw_first
                    && round == 1
                    && a.throw_bonus.is_some()
                    && !thrown[attacker.index()];
                thrown[attacker.index()] |= throw;
                let i = attacker.index();
                if let Some(left) = ammo[i].as_mut() {
                    if *left == 0 {
                        log.say(|| format!("{} is out of ammunition", self.names[i]));
                        last[i] = LastTurn::default();
                        continue;
                    }
                    *left -= 1;
                }
                let mut pool = luck[i];
                let dealt = self.attack(attacker, throw, &mut pool, &mut last, tally, dice, log);
                luck[i] = pool;
                if was_stunned {
                    last[i].stunned = false;
                }
                let defender = attacker.other();
                health[defender.index()] -= dealt;
                if health[defender.index()] <= 0 {
                    log.say(|| {
                        format!(
                            "{} is out of the fight at health {}",
                            self.names[defender.index()],
                            health[defender.index()]
                        )
                    });
                    winner = Some(attacker);
                    break 'duel;
                }
            }
        }
        if winner.is_none() && !dice.exhausted() {
            log.say(|| "the round limit is reached: a draw".to_owned());
        }
        let dead_at = self.rules.dead_at.i32();
        let dead = [health[0] <= dead_at, health[1] <= dead_at];
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead,
        });
        for side in Side::BOTH {
            let i = side.index();
            if !dead[i] && health[i] < self.fighters[i].health {
                let r = self.recover(side, health[i], self.fighters[i].heal, dice, log);
                tally.record_recovery(side, &r);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::{NoLog, VecLog};

    fn fighter() -> Fighter {
        Fighter {
            attack_dice: 3,
            armor: 1,
            shield: 1,
            parry: 1,
            health: 10,
            luck: 0,
            heal: 0,
            class_dice: 0,
            crit_bonus: 0,
            throw_bonus: None,
            ammo: None,
            stance: Stance::Normal,
            throw_first: false,
            luck_per_attack: 0,
        }
    }

    fn model(a: Fighter, b: Fighter) -> D6Pool {
        D6Pool::new(
            [a, b],
            ["a".into(), "b".into()],
            Rules::default(),
            Healing::default(),
            20,
        )
    }

    fn tally(m: &D6Pool) -> Tally {
        Tally::new(m.shape())
    }

    fn attack(m: &D6Pool, dice: &[u32], last: &mut [LastTurn; 2]) -> (i32, VecLog, ScriptedDice) {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let mut luck = m.fighters[0].luck;
        let mut t = tally(m);
        let dealt = m.attack(
            Side::A,
            false,
            &mut luck,
            last,
            &mut t,
            &mut scripted,
            &mut log,
        );
        (dealt, log, scripted)
    }

    #[test]
    fn the_attack_table_columns_by_highest_die_and_doubles() {
        let cases = [
            ((0, 0, 0), 0),
            ((1, 0, 0), 1),
            ((2, 0, 0), 2),
            ((3, 0, 0), 2),
            ((1, 1, 0), 3),
            ((0, 2, 0), 4),
            ((2, 3, 0), 4),
            ((0, 0, 1), 5),
            ((3, 3, 1), 5),
            ((0, 0, 2), 6),
            ((0, 0, 3), 7),
            ((0, 0, 5), 7),
        ];
        for ((fours, fives, sixes), index) in cases {
            assert_eq!(
                column(fours, fives, sixes).index,
                index,
                "4s {fours} 5s {fives} 6s {sixes}"
            );
        }
    }

    #[test]
    fn every_column_damage_stun_and_sixes_to_block() {
        // Attack with 3 dice against a defender with no defence dice (nothing blocks).
        let mut b = fighter();
        b.armor = 0;
        b.shield = 0;
        b.parry = 0;
        let m = model(fighter(), b);
        for (roll, damage, stun) in [
            ([1, 2, 3], 0, false),
            ([4, 1, 2], 1, false),
            ([4, 4, 2], 1, true),
            ([5, 4, 1], 2, false),
            ([5, 5, 4], 2, true),
            ([6, 5, 5], 3, false),
            ([6, 6, 1], 3, true),
        ] {
            let mut last = [LastTurn::default(); 2];
            let (dealt, _, dice) = attack(&m, &roll, &mut last);
            assert!(dice.finish().is_ok(), "{roll:?}");
            assert_eq!((dealt, last[1].stunned), (damage, stun), "{roll:?}");
        }
        // The 6s needed: one 6 for a single high die, two for doubles.
        assert_eq!(m.block[1..7], [1, 2, 1, 2, 1, 2]);
    }

    #[test]
    fn blocks_need_enough_sixes() {
        let m = model(fighter(), fighter());
        // Double 5 needs two 6s: the defender's three dice show 6, 6, 2: blocked.
        let (dealt, _, _) = attack(&m, &[5, 5, 1, 6, 6, 2], &mut [LastTurn::default(); 2]);
        assert_eq!(dealt, 0);
        // One 6 only: not enough: 2 damage and a stun.
        let mut last = [LastTurn::default(); 2];
        let (dealt, _, _) = attack(&m, &[5, 5, 1, 6, 3, 2], &mut last);
        assert_eq!((dealt, last[1].stunned), (2, true));
        // One 5 needs one 6.
        let (dealt, _, _) = attack(&m, &[5, 1, 1, 6, 3, 2], &mut [LastTurn::default(); 2]);
        assert_eq!(dealt, 0);
    }

    #[test]
    fn a_critical_needs_as_many_sixes_as_the_attacker_rolled_and_rolls_critical_damage() {
        let mut a = fighter();
        a.attack_dice = 4;
        a.class_dice = 2; // a D weapon
        a.crit_bonus = 1;
        let m = model(a, fighter());
        // Three 6s: the defender's three dice must show three 6s: 6, 6, 6 blocks.
        let (dealt, _, _) = attack(&m, &[6, 6, 6, 1, 6, 6, 6], &mut [LastTurn::default(); 2]);
        assert_eq!(dealt, 0);
        // Two 6s of three are not enough. Critical dice: 3 sixes + 2 (D) - 3 rolled to block = 2:
        // 4 and 5 = 9, + Crit Bonus 1 = 10, + the column's 3 = 13.
        let (dealt, log, dice) = attack(
            &m,
            &[6, 6, 6, 1, 6, 6, 2, 4, 5],
            &mut [LastTurn::default(); 2],
        );
        assert!(dice.finish().is_ok(), "{:?}", log.lines);
        assert_eq!(dealt, 13);
        // A C weapon adds one die: 3 + 1 - 3 = 1 die.
        let mut c = a;
        c.class_dice = 1;
        c.crit_bonus = 0;
        let m = model(c, fighter());
        let (dealt, _, dice) = attack(&m, &[6, 6, 6, 1, 6, 2, 2, 4], &mut [LastTurn::default(); 2]);
        assert!(dice.finish().is_ok());
        assert_eq!(dealt, 3 + 4);
    }

    #[test]
    fn defence_dice_by_the_first_rule_that_applies() {
        let f = Fighter {
            armor: 2,
            shield: 1,
            parry: 3,
            ..fighter()
        };
        let all = LastTurn {
            stunned: true,
            berserk: true,
            defensive: true,
            threw: true,
            whiffed: true,
        };
        assert_eq!(defence_dice(&f, &all).0, 2, "stunned first: ARMOR only");
        assert_eq!(
            defence_dice(
                &f,
                &LastTurn {
                    stunned: false,
                    ..all
                }
            )
            .0,
            2,
            "berserk: ARMOR only"
        );
        assert_eq!(
            defence_dice(
                &f,
                &LastTurn {
                    stunned: false,
                    berserk: false,
                    ..all
                }
            )
            .0,
            6,
            "defensive: all"
        );
        assert_eq!(
            defence_dice(
                &f,
                &LastTurn {
                    threw: true,
                    ..LastTurn::default()
                }
            )
            .0,
            6,
            "threw: all"
        );
        assert_eq!(
            defence_dice(
                &f,
                &LastTurn {
                    whiffed: true,
                    ..LastTurn::default()
                }
            )
            .0,
            3,
            "whiffed: ARMOR + SHIELD"
        );
        assert_eq!(defence_dice(&f, &LastTurn::default()).0, 6, "normal: all");
    }

    #[test]
    fn attack_dice_average_round_down_throw_berserk_defensive_and_luck() {
        let text = "name = \"t\"\nruleset = \"d6-pool\"\n[a]\nattack = 4\nweapon_skill = 3\nweapon = \"w\"\n[b]\nattack = 2\nweapon_skill = 2\nweapon = \"w\"\n[weapons.w]\nthrow_bonus = 2\n";
        let file: File = match toml::from_str(text) {
            Ok(f) => f,
            Err(e) => panic!("{e}"),
        };
        let source = Source {
            path: std::path::Path::new("t.toml"),
            text,
        };
        let m = match D6Pool::compile(&file, &source) {
            Ok(m) => m,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(m.fighters[0].attack_dice, 3, "(4 + 3) / 2 rounds down");
        // Count the attack dice rolled: 3 + throw 2 + berserk 1 + luck 2 = 8; defensive: 3 - 1 = 2.
        let count = |f: Fighter, throw: bool| {
            let m = model(
                f,
                Fighter {
                    armor: 0,
                    shield: 0,
                    parry: 0,
                    ..fighter()
                },
            );
            let mut scripted = ScriptedDice::new(vec![1; 20]);
            let mut luck = f.luck;
            let mut t = tally(&m);
            m.attack(
                Side::A,
                throw,
                &mut luck,
                &mut [LastTurn::default(); 2],
                &mut t,
                &mut scripted,
                &mut NoLog,
            );
            (scripted.used(), luck)
        };
        let thrower = Fighter {
            throw_bonus: Some(2),
            stance: Stance::Berserk,
            luck: 3,
            luck_per_attack: 2,
            ..fighter()
        };
        assert_eq!(count(thrower, true), (8, 1));
        assert_eq!(
            count(
                Fighter {
                    stance: Stance::Defensive,
                    ..fighter()
                },
                false
            ),
            (2, 0)
        );
    }

    #[test]
    fn health_track_out_at_zero_dead_at_minus_five_and_heal_dice() {
        let m = model(
            Fighter {
                attack_dice: 3,
                ..fighter()
            },
            Fighter {
                health: 3,
                heal: 1,
                armor: 0,
                shield: 0,
                parry: 0,
                ..fighter()
            },
        );
        let rules = Rules {
            first_strike: FirstStrike::A,
            ..Rules::default()
        };
        let m = D6Pool::new(m.fighters, m.names.clone(), rules, Healing::default(), 5);
        // a rolls 6, 6, 1: double 6: 3 damage: b at 0: out of the fight, not dead. b's one heal
        // die shows 2 (health 2 of 3); then a point a week: whole on day 8.
        let mut dice = ScriptedDice::new([6, 6, 1, 2]);
        let mut log = VecLog::default();
        let mut t = tally(&m);
        m.trial(&mut dice, &mut log, &mut t);
        assert!(dice.finish().is_ok(), "{:?}", log.lines);
        assert_eq!(t.ends, [1, 0, 0]);
        assert_eq!(t.dead, [0, 0]);
        assert_eq!(t.recovery[1].days_to_whole.bins()[8], 1, "{:?}", log.lines);
        // From -6 of 3 with no heal dice: 9 points, a week each.
        let r = m.recover(Side::B, -6, 0, &mut ScriptedDice::new([]), &mut NoLog);
        assert_eq!(r.days_to_whole, Some(9 * 7));
    }

    #[test]
    fn documented_defaults_are_the_defaults_in_force() {
        crate::rules::assert_documented_defaults(
            PARAMETERS,
            &Rules::default(),
            &Healing::default(),
        );
    }
}
