//! The d6-pool scenario schema (what a scenario writes): fighters with their ATTACK, WEAPON
//! and PARRY/DODGE skills, health, Luck and Heal dice, a missile with its Ammo, and the stance
//! and Luck tactics; weapons with their class ("Wpn Bonus: C+1 D+2"), "Crit Bonus" and "Throw
//! Bonus"; armour as ARMOR and SHIELD dice; the `[rules]` constants (the attack table's rows,
//! how critical damage counts, the health track, the first strike) and the `[healing]`
//! settings, every parameter with its default; and the compilation into the flat fighters
//! ("Average your ATTACK skill and WEAPON skill (round down)").

use super::{D6Pool, Fighter, Weapon};
use crate::rules::roster::Enrolled;
use crate::rules::{FirstStrike, Parameter};
use crate::scenario::error::{InputError, Source, unknown_name};
use crate::scenario::fields::{Name, Ranged};
use crate::scenario::schema::ScenarioFile;
use crate::stats::Side;
use serde::{Deserialize, Serialize};

/// A fighter as the scenario writes it (`[a]`, `[b]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FighterSpec {
    /// Shown in reports and traces; defaults to `a` / `b`.
    pub name: Option<String>,
    /// Copies of this fighter on its side ("Brigand 1", "Brigand 2", ...); 1 when absent.
    #[serde(default)]
    pub count: Option<crate::scenario::fields::Ranged<1, { crate::scenario::schema::MAX_SIDE }>>,
    /// Whom the fighter attacks when several foes are in the fight.
    #[serde(default)]
    pub target: Option<crate::scenario::schema::Target>,
    /// ATTACK skill.
    pub attack: Ranged<0, 20>,
    /// WEAPON skill with the melee weapon.
    pub weapon_skill: Ranged<0, 20>,
    /// PARRY/DODGE dice.
    #[serde(default)]
    pub parry: Ranged<0, 20>,
    /// Health points; `rules.health` when absent.
    #[serde(default)]
    pub health: Option<Ranged<1, 100>>,
    /// Luck dice in the pool at the start of the fight.
    #[serde(default)]
    pub luck: Ranged<0, 50>,
    /// Heal dice in the pool, spent after the fight.
    #[serde(default)]
    pub heal: Ranged<0, 50>,
    /// A key of `[weapons]`: the melee weapon.
    pub weapon: Name,
    /// A key of `[weapons]`: a thrown or shot weapon, used while ammunition lasts.
    #[serde(default)]
    pub missile: Option<Name>,
    /// WEAPON skill with the missile; the melee `weapon_skill` when absent.
    #[serde(default)]
    pub missile_skill: Option<Ranged<0, 20>>,
    /// Ammunition for the missile (the Ammo Tracker): one is spent on each missile attack.
    #[serde(default)]
    pub ammo: Ranged<0, 200>,
    /// A key of `[armour]` (ARMOR and SHIELD dice); none when absent.
    pub armour: Option<Name>,
    /// Tactic: how the fighter declares its attacks.
    #[serde(default)]
    pub stance: Stance,
    /// Tactic: Luck dice declared on each attack while the pool lasts.
    #[serde(default)]
    pub luck_per_attack: Ranged<0, 10>,
    /// Tactic: declare Luck dice only when the fighter's health is at or below this; always when
    /// absent.
    #[serde(default)]
    pub luck_at_health: Option<Ranged<-100, 100>>,
}

crate::fighter_refs!(FighterSpec);

/// How a fighter declares its attacks (a tactic).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stance {
    /// As rolled.
    #[default]
    Normal,
    /// "Berserk": +1 die; only ARMOR dice to defend after it.
    Berserk,
    /// "Defensively": −1 die; ARMOR + SHIELD + PARRY/DODGE to defend after it, even after a whiff.
    Defensive,
}

/// A weapon's class: C and D weapons roll extra critical damage dice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub enum Class {
    /// No extra critical die.
    #[default]
    A,
    /// No extra critical die.
    B,
    /// +1 critical damage die.
    C,
    /// +2 critical damage dice.
    D,
}

impl Class {
    /// Critical damage dice the class adds ("Plus 1 die for C Weapons or Plus 2 dice for D").
    pub fn critical_dice(self) -> u32 {
        match self {
            Class::A | Class::B => 0,
            Class::C => 1,
            Class::D => 2,
        }
    }
}

/// A weapon entry (`[weapons.<name>]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponSpec {
    /// Its class (A to D); C adds one critical damage die, D two.
    #[serde(default)]
    pub class: Class,
    /// The "Crit Bonus", added to the critical damage dice total.
    #[serde(default)]
    pub crit_bonus: Ranged<0, 20>,
    /// The "Throw Bonus": a missile with one is thrown and adds these dice; a missile without
    /// one is shot (no bonus, and not "threw your weapon").
    #[serde(default)]
    pub throw_bonus: Option<Ranged<0, 10>>,
}

/// An armour entry (`[armour.<name>]`): the ARMOR and SHIELD dice it gives.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmourSpec {
    /// ARMOR dice.
    #[serde(default)]
    pub armor: Ranged<0, 20>,
    /// SHIELD dice.
    #[serde(default)]
    pub shield: Ranged<0, 20>,
}

/// How the critical damage (dice total + Crit Bonus) counts: the Critical Damage Table is not in
/// the text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CritDamage {
    /// Added to the column's damage (3 + total + Crit Bonus).
    #[default]
    Add,
    /// Instead of the column's damage (total + Crit Bonus).
    Instead,
}

/// The constants of the ruleset a scenario can override in `[rules]`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Damage of the seven hitting columns: one 4, double 4, one 5, double 5, one 6, double 6,
    /// three or more 6s (the Critical Strike).
    pub damage: [Ranged<0, 50>; 7],
    /// Whether a hit of each of the seven hitting columns stuns.
    pub stun: [bool; 7],
    /// 6s the defender needs to block each of the first six hitting columns; a Critical Strike
    /// needs as many as the attacker rolled.
    pub block: [Ranged<1, 20>; 6],
    /// How critical damage counts (the Critical Damage Table is missing).
    pub crit_damage: CritDamage,
    /// Health of a fighter who does not give its own.
    pub health: Ranged<1, 100>,
    /// Out of the fight at this health or below.
    pub out_at: Ranged<-100, 99>,
    /// Dead at this health or below (no higher than `out_at`).
    pub dead_at: Ranged<-200, 99>,
    /// Whether a stunned fighter also loses its next attack (the text only takes its SHIELD and
    /// PARRY/DODGE dice).
    pub stun_loses_attack: bool,
    /// Who strikes first each round.
    pub first_strike: FirstStrike,
    /// Who attacks in turn within a round when a side has several fighters.
    pub turn_order: TurnOrder,
    /// Against which attacks received a fighter of a side of several rolls its PARRY/DODGE
    /// dice: every one, or the first since its own last turn.
    pub parry_against: ParryAgainst,
    /// At most this many attackers on one defender (0: no limit, the texts' reading).
    pub max_attackers: Ranged<0, 16>,
}

pub use crate::rules::roster::TurnOrder;

/// Against which attacks received a fighter rolls its PARRY/DODGE dice when several foes
/// attack it between its own turns (the sheet has one opponent who "attacks back").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ParryAgainst {
    /// Every attack received: the defence rules are read afresh for each.
    #[default]
    Every,
    /// The first attack received since its own last turn; later ones ARMOR + SHIELD.
    First,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            max_attackers: Ranged::new(0),
            damage: [1, 1, 2, 2, 3, 3, 3].map(Ranged::new),
            stun: [false, true, false, true, false, true, true],
            block: [1, 2, 1, 2, 1, 2].map(Ranged::new),
            crit_damage: CritDamage::Add,
            health: Ranged::new(10),
            out_at: Ranged::new(0),
            dead_at: Ranged::new(-5),
            stun_loses_attack: false,
            first_strike: FirstStrike::Random,
            turn_order: TurnOrder::Sides,
            parry_against: ParryAgainst::Every,
        }
    }
}

/// The healing settings (`[healing]`): what the heal dice restore after the fight.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Healing {
    /// Heal dice spent each day while the fighter is below full health; each restores its roll.
    pub heal_dice_per_day: Ranged<1, 20>,
    /// Days per health point of natural healing once the heal dice are spent (0: none, and a
    /// fighter not whole when the pool runs out stays unhealed).
    pub natural_days_per_point: Ranged<0, 365>,
    /// Days followed before a fighter below full health counts as unhealed.
    pub horizon_days: Ranged<1, 3650>,
    /// In a campaign: a rest of at least this many days refills the heal dice, luck dice and
    /// ammunition at its end (0: never). The sheet keeps "your remaining" dice and says nothing
    /// of refilling them; without a rest what is spent stays spent.
    pub refill_rest_days: Ranged<0, 3650>,
}

impl Default for Healing {
    fn default() -> Self {
        Healing {
            heal_dice_per_day: Ranged::new(1),
            natural_days_per_point: Ranged::new(0),
            horizon_days: Ranged::new(365),
            refill_rest_days: Ranged::new(1),
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
        doc: "damage of the hitting columns: one 4, double 4, one 5, double 5, one 6, double 6, three+ 6s (Critical Strike)",
    },
    Parameter {
        section: "rules",
        key: "stun",
        default: "[false, true, false, true, false, true, true]",
        doc: "which hitting columns stun (the doubles and the Critical Strike)",
    },
    Parameter {
        section: "rules",
        key: "block",
        default: "[1, 2, 1, 2, 1, 2]",
        doc: "6s needed to block the first six hitting columns; a Critical Strike needs as many as the attacker rolled",
    },
    Parameter {
        section: "rules",
        key: "crit_damage",
        default: "\"add\"",
        doc: "critical damage (dice total + Crit Bonus): add (to the column's damage) or instead (of it); the Critical Damage Table is missing",
    },
    Parameter {
        section: "rules",
        key: "health",
        default: "10",
        doc: "health of a fighter who gives none (the text has no health track)",
    },
    Parameter {
        section: "rules",
        key: "out_at",
        default: "0",
        doc: "out of the fight at this health or below",
    },
    Parameter {
        section: "rules",
        key: "dead_at",
        default: "-5",
        doc: "dead at this health or below (no higher than out_at)",
    },
    Parameter {
        section: "rules",
        key: "stun_loses_attack",
        default: "false",
        doc: "a stunned fighter also loses its next attack (the text only takes SHIELD and PARRY/DODGE)",
    },
    Parameter {
        section: "rules",
        key: "first_strike",
        default: "\"random\"",
        doc: "who strikes first each round: random (a d2 per duel), a, b",
    },
    Parameter {
        section: "rules",
        key: "turn_order",
        default: "\"sides\"",
        doc: "a side of several: sides (the side striking first, each fighter in order, then the other) or alternate (first of each side, then second of each, ...)",
    },
    Parameter {
        section: "rules",
        key: "parry_against",
        default: "\"every\"",
        doc: "a side of several: a fighter rolls its PARRY/DODGE dice against every attack received (every) or only the first since its own last turn (first, whatever rule met it, a stun included; later ones ARMOR + SHIELD)",
    },
    Parameter {
        section: "rules",
        key: "max_attackers",
        default: "0",
        doc: "a side of several: at most this many attackers on one defender (0: no limit, the text's reading); a fighter passes over a foe that many allies attack, and waits when every foe does",
    },
    Parameter {
        section: "healing",
        key: "heal_dice_per_day",
        default: "1",
        doc: "heal dice spent a day after the fight while below full health; each restores its d6 roll",
    },
    Parameter {
        section: "healing",
        key: "natural_days_per_point",
        default: "0",
        doc: "days per health point once the heal dice are spent (0: none: unhealed)",
    },
    Parameter {
        section: "healing",
        key: "horizon_days",
        default: "365",
        doc: "days followed before a survivor below full health counts as unhealed",
    },
    Parameter {
        section: "healing",
        key: "refill_rest_days",
        default: "1",
        doc: "in a campaign, a rest of at least this many days refills the heal dice, luck dice and ammunition at its end (0: never)",
    },
    Parameter {
        section: "a / b",
        key: "name",
        default: "\"a\" / \"b\"",
        doc: "the fighter's name in reports and traces",
    },
    Parameter {
        section: "a / b",
        key: "attack",
        default: "required",
        doc: "ATTACK skill (0-20)",
    },
    Parameter {
        section: "a / b",
        key: "weapon_skill",
        default: "required",
        doc: "WEAPON skill (0-20); attack dice = (ATTACK + WEAPON) / 2, rounded down",
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
        default: "rules.health",
        doc: "health points",
    },
    Parameter {
        section: "a / b",
        key: "luck",
        default: "0",
        doc: "Luck dice in the pool",
    },
    Parameter {
        section: "a / b",
        key: "heal",
        default: "0",
        doc: "Heal dice in the pool, spent after the fight",
    },
    Parameter {
        section: "a / b",
        key: "weapon",
        default: "required",
        doc: "a key of [weapons]: the melee weapon",
    },
    Parameter {
        section: "a / b",
        key: "missile",
        default: "none",
        doc: "a key of [weapons]: thrown (it has a throw_bonus) or shot, used while ammo lasts",
    },
    Parameter {
        section: "a / b",
        key: "missile_skill",
        default: "weapon_skill",
        doc: "WEAPON skill with the missile",
    },
    Parameter {
        section: "a / b",
        key: "ammo",
        default: "0",
        doc: "ammunition for the missile (at least 1 with a missile, none without)",
    },
    Parameter {
        section: "a / b",
        key: "armour",
        default: "none",
        doc: "a key of [armour]",
    },
    Parameter {
        section: "a / b",
        key: "stance",
        default: "\"normal\"",
        doc: "tactic: normal, berserk (+1 die, ARMOR only to defend after) or defensive (-1 die, full defence after)",
    },
    Parameter {
        section: "a / b",
        key: "luck_per_attack",
        default: "0",
        doc: "tactic: Luck dice declared on each attack while the pool lasts",
    },
    Parameter {
        section: "a / b",
        key: "luck_at_health",
        default: "none (always)",
        doc: "tactic: declare Luck dice only at this health or below",
    },
    Parameter {
        section: "weapons.<name>",
        key: "class",
        default: "\"A\"",
        doc: "A, B, C (+1 critical damage die) or D (+2)",
    },
    Parameter {
        section: "weapons.<name>",
        key: "crit_bonus",
        default: "0",
        doc: "the Crit Bonus, added to the critical damage dice total",
    },
    Parameter {
        section: "weapons.<name>",
        key: "throw_bonus",
        default: "none",
        doc: "the Throw Bonus: dice added when thrown as a missile (none: a shot missile)",
    },
    Parameter {
        section: "armour.<name>",
        key: "armor",
        default: "0",
        doc: "ARMOR dice",
    },
    Parameter {
        section: "armour.<name>",
        key: "shield",
        default: "0",
        doc: "SHIELD dice",
    },
];

impl D6Pool {
    /// Compiles a scenario file, resolving the weapons, missiles and armour each fighter names.
    pub fn compile(file: &File, source: &Source) -> Result<Self, InputError> {
        let rules = &file.rules;
        if rules.dead_at.get() > rules.out_at.get() {
            return Err(source.error_at(
                rules.dead_at.span(),
                Some("rules.dead_at"),
                format!(
                    "expected a health no higher than rules.out_at ({}), found {}",
                    rules.out_at.get(),
                    rules.dead_at.get()
                ),
            ));
        }
        let weapon = |spec: &WeaponSpec, skill: u32, attack: u32| Weapon {
            dice: (attack + skill) / 2,
            class_dice: spec.class.critical_dice(),
            crit_bonus: spec.crit_bonus.i32(),
            thrown: spec.throw_bonus.is_some(),
            throw_bonus: spec.throw_bonus.as_ref().map_or(0, Ranged::u32),
        };
        let mut fighters = Vec::with_capacity(2);
        let mut members = Vec::with_capacity(2);
        for side in Side::BOTH {
            for enlisted in file.roster(side, source)? {
                let spec = &file.side(side).entries[enlisted.entry];
                let key = side.key();
                let (melee, armour) = file.equipment_of(side, spec, source)?;
                let attack = spec.attack.u32();
                let health = spec.health.as_ref().unwrap_or(&rules.health);
                if health.get() <= rules.out_at.get() {
                    return Err(source.error_at(
                        health.span(),
                        Some(&format!("{key}.health")),
                        format!(
                            "expected a health above rules.out_at ({}), found {}",
                            rules.out_at.get(),
                            health.get()
                        ),
                    ));
                }
                let missile = match &spec.missile {
                    Some(name) => {
                        let Some(entry) = file.weapons.get(name.get_ref()) else {
                            let known: Vec<&str> =
                                file.weapons.keys().map(String::as_str).collect();
                            return Err(source.error_at(
                                Some(name.span()),
                                Some(&format!("{key}.missile")),
                                unknown_name("weapon", name.get_ref(), &known),
                            ));
                        };
                        if spec.ammo.get() == 0 {
                            return Err(source.error_at(
                            Some(name.span()),
                            Some(&format!("{key}.ammo")),
                            "a missile needs ammunition: expected ammo of at least 1, found none",
                        ));
                        }
                        let skill = spec.missile_skill.as_ref().unwrap_or(&spec.weapon_skill);
                        Some(weapon(entry, skill.u32(), attack))
                    }
                    None => {
                        let stray = [
                            ("ammo", (spec.ammo.get() > 0).then(|| spec.ammo.span())),
                            (
                                "missile_skill",
                                spec.missile_skill.as_ref().map(Ranged::span),
                            ),
                        ];
                        if let Some((field, span)) =
                            stray.into_iter().find_map(|(f, s)| Some((f, s?)))
                        {
                            return Err(source.error_at(
                            span,
                            Some(&format!("{key}.{field}")),
                            "only a fighter with a missile uses it; expected a missile = \"<weapon>\" as well",
                        ));
                        }
                        None
                    }
                };
                fighters.push(Fighter {
                    melee: weapon(melee, spec.weapon_skill.u32(), attack),
                    missile,
                    ammo: spec.ammo.u32(),
                    armor: armour.map_or(0, |a| a.armor.u32()),
                    shield: armour.map_or(0, |a| a.shield.u32()),
                    parry: spec.parry.u32(),
                    health: health.i32(),
                    luck: spec.luck.u32(),
                    heal: spec.heal.u32(),
                    stance: spec.stance,
                    luck_per_attack: spec.luck_per_attack.u32(),
                    luck_at_health: spec.luck_at_health.as_ref().map_or(i32::MAX, Ranged::i32),
                });
                members.push(Enrolled {
                    side,
                    name: enlisted.name,
                    target: enlisted.target,
                });
            }
        }
        Ok(D6Pool::skirmish(
            &members,
            fighters,
            rules.clone(),
            file.healing.clone(),
            file.round_limit.u32(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::d6_pool::test_support::{compiled, parse};

    #[test]
    fn attack_dice_are_the_average_of_attack_and_weapon_rounded_down() {
        let text = r#"
name = "t"
ruleset = "d6-pool"
[a]
attack = 4
weapon_skill = 3
weapon = "sword"
missile = "javelin"
missile_skill = 6
ammo = 2
[b]
attack = 5
weapon_skill = 5
health = 12
weapon = "sword"
[weapons.sword]
class = "C"
crit_bonus = 1
[weapons.javelin]
throw_bonus = 2
"#;
        let m = compiled(text);
        let [a, b] = m.fighters;
        assert_eq!(a.melee.dice, 3, "(4 + 3) / 2 rounds down");
        assert_eq!(
            a.missile.map(|w| (w.dice, w.thrown, w.throw_bonus)),
            Some((5, true, 2))
        );
        assert_eq!((a.ammo, a.health, b.health), (2, 10, 12));
        assert_eq!(
            (b.melee.dice, b.melee.class_dice, b.melee.crit_bonus),
            (5, 1, 1)
        );
    }

    #[test]
    fn compile_rejects_what_cannot_be_fought() {
        let base = "name = \"t\"\nruleset = \"d6-pool\"\n[b]\nattack = 2\nweapon_skill = 2\nweapon = \"w\"\n[weapons.w]\n";
        let bad = [
            (
                "[a]\nattack = 2\nweapon_skill = 2\nweapon = \"w\"\nammo = 3\n",
                "a.ammo",
            ),
            (
                "[a]\nattack = 2\nweapon_skill = 2\nweapon = \"w\"\nmissile = \"bow\"\n",
                "a.missile",
            ),
            (
                "[a]\nattack = 2\nweapon_skill = 2\nweapon = \"w\"\nmissile = \"w\"\n",
                "a.ammo",
            ),
            (
                "[a]\nattack = 2\nweapon_skill = 2\nweapon = \"w\"\n[rules]\ndead_at = 1\n",
                "rules.dead_at",
            ),
            (
                "[a]\nattack = 2\nweapon_skill = 2\nweapon = \"w\"\n[rules]\nout_at = 10\n",
                "a.health",
            ),
        ];
        for (a, field) in bad {
            let text = format!("{base}{a}");
            let e = parse(&text).err().unwrap_or_default();
            assert!(e.contains(field), "{field}: {e}");
        }
        let short = format!(
            "{base}[a]\nattack = 2\nweapon_skill = 2\nweapon = \"w\"\n[rules]\ndamage = [1, 2]\n"
        );
        assert!(parse(&short).is_err());
    }

    #[test]
    fn documented_defaults_are_the_defaults_in_force() {
        crate::rules::assert_documented_defaults(
            PARAMETERS,
            &Rules::default(),
            &Healing::default(),
        );
    }

    #[test]
    fn c_weapons_add_one_critical_die_d_weapons_two_a_and_b_none() {
        // L35: "- Plus 1 die for C Weapons or Plus 2 dice for D Weapons." (A and B: the
        // assumption "class", none)
        assert_eq!(
            [Class::A, Class::B, Class::C, Class::D].map(Class::critical_dice),
            [0, 0, 1, 2]
        );
    }
}
