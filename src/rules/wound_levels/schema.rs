//! The wound-levels scenario schema (what a scenario writes): fighters with their skill and
//! Physique levels and tactics, weapons by kind (whose damage bonus the text's "Damage" section
//! gives) with their clips and fire modes, armour points, the `[rules]` constants and the
//! `[healing]` settings, every parameter with its default; and the compilation into the flat
//! fighters: the damage bonus by kind ("Melee weapons grant a +2 bonus to damage", "Most Ranged
//! attacks give a bonus of +3") plus, for melee and unarmed, "1 for each point of Physique
//! above 2".

use super::actions::Withdraw;
use super::attack::{FireMode, WeaponKind};
use super::skill::Level;
use super::{Fighter, WoundLevels};
use crate::rules::Parameter;
use crate::rules::roster::Enrolled;
use crate::scenario::error::{InputError, Source};
use crate::scenario::fields::{Name, Ranged};
use crate::scenario::schema::ScenarioFile;
use crate::stats::Side;
use serde::{Deserialize, Serialize};

/// A fighter as the scenario writes it (`[a]`, `[b]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FighterSpec {
    /// Shown in reports and traces.
    pub name: Option<String>,
    /// Copies of this fighter on its side ("Brigand 1", "Brigand 2", ...); 1 when absent.
    #[serde(default)]
    pub count: Option<crate::scenario::fields::Ranged<1, { crate::scenario::schema::MAX_SIDE }>>,
    /// Whom the fighter attacks when several foes are in the fight.
    #[serde(default)]
    pub target: Option<crate::scenario::schema::Target>,
    /// Melee skill level (also thrown melee weapons).
    #[serde(default)]
    pub melee: Level,
    /// Ranged Combat skill level.
    #[serde(default)]
    pub ranged: Level,
    /// Physique level: dodges, checks, and melee damage above Competent.
    #[serde(default)]
    pub physique: Level,
    /// Added to the initiative roll.
    #[serde(default)]
    pub initiative: Ranged<-10, 10>,
    /// The Evasion ability: may change declared actions into dodges.
    #[serde(default)]
    pub evasion: bool,
    /// A key of `[weapons]`.
    pub weapon: Name,
    /// A key of `[armour]`.
    pub armour: Option<Name>,
    /// Tactic: attacks declared each turn (more than one: the multiple-action penalty).
    #[serde(default = "one_attack")]
    pub attacks: Ranged<1, 5>,
    /// Tactic: declared actions Evasion turns into dodges when the opponent attacks.
    #[serde(default = "one_attack")]
    pub evade: Ranged<0, 5>,
    /// Tactic: when to withdraw out of melee range (a ranged fighter's tactic).
    #[serde(default)]
    pub withdraw: Option<toml::Spanned<Withdraw>>,
    /// Tactic: fire mode of an automatic weapon.
    #[serde(default)]
    pub fire_mode: FireMode,
    /// Tactic: throw a throwable weapon at a foe out of reach when unable to close.
    #[serde(default)]
    pub throw: bool,
}

fn one_attack<const LO: i64, const HI: i64>() -> Ranged<LO, HI> {
    Ranged::new(1)
}

crate::fighter_refs!(FighterSpec);

/// A weapon entry.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponSpec {
    /// Its kind, which sets the damage bonus.
    pub kind: WeaponKind,
    /// Overrides the kind's damage bonus (a weak weapon +1, an M2 +4).
    pub damage_bonus: Option<Ranged<0, 10>>,
    /// Rounds in a clip (ranged weapons).
    #[serde(default)]
    pub clip: Ranged<0, 500>,
    /// Spare clips.
    #[serde(default)]
    pub spare_clips: Ranged<0, 50>,
    /// Can fire bursts and full auto.
    #[serde(default)]
    pub automatic: bool,
    /// Can be thrown (a knife).
    #[serde(default)]
    pub throwable: bool,
}

/// An armour entry.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmourSpec {
    /// Armour points subtracted from damage.
    pub points: Ranged<0, 10>,
}

/// The constants a scenario can override in `[rules]`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Fudge dice in a roll (4dF: −4..+4; all + is a critical success, all − a botch).
    pub fudge_dice: Ranged<1, 8>,
    /// An undefended attack hits when its outcome is at least this.
    pub undefended_hit_from: Ranged<-10, 10>,
    /// Whether a single attack also takes the multiple-action penalty (the example: no).
    pub single_attack_takes_action_penalty: bool,
    /// A new wound on an already wounded fighter adds its damage less this (the example: 1).
    pub repeat_wound_reduction: Ranged<0, 5>,
    /// Damage bonus of unarmed attacks.
    pub bonus_unarmed: Ranged<0, 10>,
    /// Damage bonus of weak melee weapons.
    pub bonus_weak: Ranged<0, 10>,
    /// Damage bonus of melee weapons.
    pub bonus_melee: Ranged<0, 10>,
    /// Damage bonus of ranged weapons.
    pub bonus_ranged: Ranged<0, 10>,
    /// Damage bonus of very large ranged weapons.
    pub bonus_heavy: Ranged<0, 10>,
    /// Physique above this level adds to unarmed and melee damage.
    pub physique_damage_from: Ranged<0, 6>,
    /// Attack bonus of a burst.
    pub burst_bonus: Ranged<-5, 5>,
    /// Rounds a burst uses.
    pub burst_rounds: Ranged<1, 10>,
    /// Attack bonus of full auto at point-blank (melee) range.
    pub auto_point_blank_bonus: Ranged<-5, 5>,
    /// Attack bonus of full auto beyond point blank.
    pub auto_bonus: Ranged<-5, 5>,
    /// A clip of at least this many rounds is "very large": full auto empties only half of it.
    pub large_clip_from: Ranged<1, 10_000>,
    /// Penalty to rolls at wound levels 1 to 7.
    pub wound_penalties: Vec<Ranged<0, 10>>,
    /// A Physique check succeeds when roll + Physique − penalty is at least this.
    pub check_difficulty: Ranged<-10, 10>,
    /// The fighters start within melee range.
    pub start_engaged: bool,
    /// Penalty to movement rolls at wound levels 1 to 7 ("Moderate: -2 to move").
    pub move_penalties: Vec<Ranged<0, 10>>,
    /// A melee fighter follows a foe who withdraws, if it can keep pace.
    pub pursue: bool,
    /// A botched attack misses whatever its total, as a botched dodge "is ineffective".
    pub botched_attack_misses: bool,
    /// At most this many attackers on one defender (0: no limit, the texts' reading).
    pub max_attackers: Ranged<0, 16>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            max_attackers: Ranged::new(0),
            fudge_dice: Ranged::new(4),
            undefended_hit_from: Ranged::new(1),
            single_attack_takes_action_penalty: false,
            repeat_wound_reduction: Ranged::new(1),
            bonus_unarmed: Ranged::new(0),
            bonus_weak: Ranged::new(1),
            bonus_melee: Ranged::new(2),
            bonus_ranged: Ranged::new(3),
            bonus_heavy: Ranged::new(4),
            physique_damage_from: Ranged::new(2),
            burst_bonus: Ranged::new(1),
            burst_rounds: Ranged::new(3),
            auto_point_blank_bonus: Ranged::new(2),
            auto_bonus: Ranged::new(0),
            large_clip_from: Ranged::new(60),
            wound_penalties: [0, 1, 1, 2, 3, 3, 3].map(Ranged::new).to_vec(),
            check_difficulty: Ranged::new(1),
            start_engaged: true,
            move_penalties: [0, 1, 2, 2, 3, 3, 3].map(Ranged::new).to_vec(),
            pursue: true,
            botched_attack_misses: true,
        }
    }
}

/// The time after the fight (`[healing]`).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Healing {
    /// Minutes after the fight until help stabilizes the wounded (Critical and Terminal stop
    /// deteriorating).
    pub help_minutes: Ranged<0, 1_000_000>,
    /// Minutes between Physique checks at Critical ("every hour").
    pub critical_check_minutes: Ranged<1, 100_000>,
    /// Minutes between Physique checks at Terminal ("every minute").
    pub terminal_check_minutes: Ranged<1, 100_000>,
    /// Days between healing checks once stabilized (a success heals one level).
    pub days_per_check: Ranged<1, 365>,
    /// Days followed before a still wounded fighter counts as unhealed.
    pub horizon_days: Ranged<1, 3650>,
}

impl Default for Healing {
    fn default() -> Self {
        Healing {
            help_minutes: Ranged::new(60),
            critical_check_minutes: Ranged::new(60),
            terminal_check_minutes: Ranged::new(1),
            days_per_check: Ranged::new(7),
            horizon_days: Ranged::new(365),
        }
    }
}

/// A whole wound-levels scenario file.
pub type File = ScenarioFile<FighterSpec, WeaponSpec, ArmourSpec, Rules, Healing>;

/// Every parameter a wound-levels scenario can set, with its default.
pub const PARAMETERS: &[Parameter] = &[
    Parameter {
        section: "rules",
        key: "fudge_dice",
        default: "4",
        doc: "Fudge dice per roll (4dF: -4..+4; all + critical success, all - botch)",
    },
    Parameter {
        section: "rules",
        key: "undefended_hit_from",
        default: "1",
        doc: "an undefended attack hits when its outcome is at least this",
    },
    Parameter {
        section: "rules",
        key: "single_attack_takes_action_penalty",
        default: "false",
        doc: "a single attack also takes the multiple-action penalty (the example: no)",
    },
    Parameter {
        section: "rules",
        key: "repeat_wound_reduction",
        default: "1",
        doc: "a new wound on a wounded fighter adds its damage less this (the example: 3 + 3 -> 5)",
    },
    Parameter {
        section: "rules",
        key: "bonus_unarmed",
        default: "0",
        doc: "damage bonus of unarmed attacks",
    },
    Parameter {
        section: "rules",
        key: "bonus_weak",
        default: "1",
        doc: "damage bonus of weak melee weapons",
    },
    Parameter {
        section: "rules",
        key: "bonus_melee",
        default: "2",
        doc: "damage bonus of melee weapons",
    },
    Parameter {
        section: "rules",
        key: "bonus_ranged",
        default: "3",
        doc: "damage bonus of ranged weapons",
    },
    Parameter {
        section: "rules",
        key: "bonus_heavy",
        default: "4",
        doc: "damage bonus of very large ranged weapons (an M2)",
    },
    Parameter {
        section: "rules",
        key: "physique_damage_from",
        default: "2",
        doc: "Physique levels above this add to unarmed and melee damage",
    },
    Parameter {
        section: "rules",
        key: "burst_bonus",
        default: "1",
        doc: "attack bonus of a 3-round burst",
    },
    Parameter {
        section: "rules",
        key: "burst_rounds",
        default: "3",
        doc: "rounds a burst uses",
    },
    Parameter {
        section: "rules",
        key: "auto_point_blank_bonus",
        default: "2",
        doc: "attack bonus of full auto at point blank",
    },
    Parameter {
        section: "rules",
        key: "auto_bonus",
        default: "0",
        doc: "attack bonus of full auto beyond point blank",
    },
    Parameter {
        section: "rules",
        key: "large_clip_from",
        default: "60",
        doc: "a clip of at least this many rounds is very large: full auto empties only half of it",
    },
    Parameter {
        section: "rules",
        key: "wound_penalties",
        default: "[0, 1, 1, 2, 3, 3, 3]",
        doc: "penalty to rolls at wound levels 1 to 7",
    },
    Parameter {
        section: "rules",
        key: "move_penalties",
        default: "[0, 1, 2, 2, 3, 3, 3]",
        doc: "penalty to movement rolls (a pursuit) at wound levels 1 to 7: Moderate's -2 to move",
    },
    Parameter {
        section: "rules",
        key: "botched_attack_misses",
        default: "true",
        doc: "a botched attack misses whatever its total (as a botched dodge is ineffective)",
    },
    Parameter {
        section: "rules",
        key: "pursue",
        default: "true",
        doc: "a melee fighter follows a foe who withdraws: the faster pace wins (Serious cannot run, Critical cannot walk), equal paces an opposed movement roll",
    },
    Parameter {
        section: "rules",
        key: "check_difficulty",
        default: "1",
        doc: "a Physique check succeeds at roll + Physique - penalty >= this",
    },
    Parameter {
        section: "rules",
        key: "start_engaged",
        default: "true",
        doc: "the fighters start within melee range",
    },
    Parameter {
        section: "rules",
        key: "max_attackers",
        default: "0",
        doc: "a side of several: at most this many attackers on one defender (0: no limit, the text's reading); a fighter passes over a foe that many allies attack, and waits when every foe does",
    },
    Parameter {
        section: "healing",
        key: "help_minutes",
        default: "60",
        doc: "minutes after the fight until help stabilizes the wounded",
    },
    Parameter {
        section: "healing",
        key: "critical_check_minutes",
        default: "60",
        doc: "minutes between Physique checks at Critical (every hour)",
    },
    Parameter {
        section: "healing",
        key: "terminal_check_minutes",
        default: "1",
        doc: "minutes between Physique checks at Terminal (every minute)",
    },
    Parameter {
        section: "healing",
        key: "days_per_check",
        default: "7",
        doc: "days between healing checks once stabilized; a success heals one level",
    },
    Parameter {
        section: "healing",
        key: "horizon_days",
        default: "365",
        doc: "days followed before a wounded survivor counts as unhealed",
    },
    Parameter {
        section: "a / b",
        key: "name",
        default: "\"a\" / \"b\"",
        doc: "the fighter's name",
    },
    Parameter {
        section: "a / b",
        key: "melee",
        default: "\"competent\"",
        doc: "Melee level: untrained 0, novice 1, competent 2, professional 3, expert 4, master 5, legendary 6",
    },
    Parameter {
        section: "a / b",
        key: "ranged",
        default: "\"competent\"",
        doc: "Ranged Combat level",
    },
    Parameter {
        section: "a / b",
        key: "physique",
        default: "\"competent\"",
        doc: "Physique level: dodges, checks; above competent adds to melee damage",
    },
    Parameter {
        section: "a / b",
        key: "initiative",
        default: "0",
        doc: "added to the initiative roll",
    },
    Parameter {
        section: "a / b",
        key: "evasion",
        default: "false",
        doc: "may change declared actions into dodges",
    },
    Parameter {
        section: "a / b",
        key: "weapon",
        default: "required",
        doc: "a key of [weapons]",
    },
    Parameter {
        section: "a / b",
        key: "armour",
        default: "none",
        doc: "a key of [armour]",
    },
    Parameter {
        section: "a / b",
        key: "attacks",
        default: "1",
        doc: "attacks declared each turn",
    },
    Parameter {
        section: "a / b",
        key: "evade",
        default: "1",
        doc: "actions Evasion turns into dodges when attacked",
    },
    Parameter {
        section: "a / b",
        key: "withdraw",
        default: "\"never\"",
        doc: "never, when_opponent_cannot_walk, always",
    },
    Parameter {
        section: "a / b",
        key: "fire_mode",
        default: "\"single\"",
        doc: "single, burst, auto (automatic weapons)",
    },
    Parameter {
        section: "a / b",
        key: "throw",
        default: "false",
        doc: "throw a throwable weapon at a foe out of reach when unable to close",
    },
    Parameter {
        section: "weapons.<name>",
        key: "kind",
        default: "required",
        doc: "unarmed, weak, melee, ranged, heavy",
    },
    Parameter {
        section: "weapons.<name>",
        key: "damage_bonus",
        default: "by kind",
        doc: "overrides the kind's damage bonus",
    },
    Parameter {
        section: "weapons.<name>",
        key: "clip",
        default: "0",
        doc: "rounds in a clip",
    },
    Parameter {
        section: "weapons.<name>",
        key: "spare_clips",
        default: "0",
        doc: "spare clips",
    },
    Parameter {
        section: "weapons.<name>",
        key: "automatic",
        default: "false",
        doc: "can fire bursts and full auto",
    },
    Parameter {
        section: "weapons.<name>",
        key: "throwable",
        default: "false",
        doc: "can be thrown",
    },
    Parameter {
        section: "armour.<name>",
        key: "points",
        default: "required",
        doc: "armour points subtracted from damage",
    },
];

impl WoundLevels {
    /// Compiles a scenario file.
    pub fn compile(file: &File, source: &Source) -> Result<Self, InputError> {
        let rules = file.rules.clone();
        for (key, list) in [
            ("rules.wound_penalties", &rules.wound_penalties),
            ("rules.move_penalties", &rules.move_penalties),
        ] {
            if list.len() != 7 {
                let place = list.first().and_then(Ranged::span);
                return Err(source.error_at(
                    place,
                    Some(key),
                    format!(
                        "expected 7 penalties (wound levels 1 to 7), found {}",
                        list.len()
                    ),
                ));
            }
        }
        let mut fighters = Vec::with_capacity(2);
        let mut members = Vec::with_capacity(2);
        for (side, enlisted) in Side::BOTH
            .into_iter()
            .map(|side| file.roster(side, source).map(|r| (side, r)))
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .flat_map(|(side, roster)| roster.into_iter().map(move |e| (side, e)))
        {
            let spec = &file.side(side).entries[enlisted.entry];
            let (weapon, armour) = file.equipment_of(side, spec, source)?;
            let withdraw = spec
                .withdraw
                .as_ref()
                .map_or(Withdraw::Never, |w| *w.get_ref());
            if withdraw != Withdraw::Never && !weapon.kind.is_ranged() {
                return Err(source.error_at(
                    spec.withdraw.as_ref().map(toml::Spanned::span),
                    Some(&format!("{}.withdraw", side.key())),
                    "expected \"never\" for a fighter without a ranged weapon: withdrawing out of melee range is a ranged fighter's tactic (out of reach a melee fighter cannot attack)",
                ));
            }
            let physique = spec.physique.bonus();
            let above = (physique - rules.physique_damage_from.i32()).max(0);
            let kind_bonus = |kind: WeaponKind| match kind {
                WeaponKind::Unarmed => rules.bonus_unarmed.i32(),
                WeaponKind::Weak => rules.bonus_weak.i32(),
                WeaponKind::Melee => rules.bonus_melee.i32(),
                WeaponKind::Ranged => rules.bonus_ranged.i32(),
                WeaponKind::Heavy => rules.bonus_heavy.i32(),
            };
            let base = weapon
                .damage_bonus
                .as_ref()
                .map_or_else(|| kind_bonus(weapon.kind), Ranged::i32);
            let damage_bonus = if weapon.kind.is_ranged() {
                base
            } else {
                base + above
            };
            fighters.push(Fighter {
                melee: spec.melee.bonus(),
                ranged: spec.ranged.bonus(),
                physique,
                initiative: spec.initiative.i32(),
                evasion: spec.evasion,
                armour: armour.map_or(0, |a| a.points.i32()),
                kind: weapon.kind,
                damage_bonus,
                unarmed_bonus: rules.bonus_unarmed.i32() + above,
                clip: weapon.clip.u32(),
                spare_clips: weapon.spare_clips.u32(),
                automatic: weapon.automatic,
                throwable: weapon.throwable,
                attacks: spec.attacks.u32(),
                evade: spec.evade.u32(),
                withdraw,
                fire_mode: if weapon.automatic {
                    spec.fire_mode
                } else {
                    FireMode::Single
                },
                throw: spec.throw,
            });
            members.push(Enrolled {
                side,
                name: enlisted.name,
                target: enlisted.target,
            });
        }
        Ok(WoundLevels::skirmish(
            &members,
            fighters,
            rules,
            file.healing.clone(),
            file.round_limit.u32(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::wound_levels::test_support::ledger_compile;

    #[test]
    fn damage_bonuses_by_kind_with_physique_above_competent_for_melee() {
        let rules = Rules::default();
        let spec = |kind: &str, physique: &str| {
            format!(
                "name = \"t\"\nruleset = \"wound-levels\"\n[a]\nphysique = \"{physique}\"\nweapon = \"w\"\n[b]\nweapon = \"w\"\n[weapons.w]\nkind = \"{kind}\"\n"
            )
        };
        for (kind, physique, expected) in [
            ("unarmed", "professional", 1),
            ("melee", "competent", 2),
            ("melee", "professional", 3),
            ("melee", "expert", 4),
            ("melee", "legendary", 6),
            ("weak", "master", 4),
            ("ranged", "master", 3),
            ("heavy", "novice", 4),
        ] {
            let text = spec(kind, physique);
            let file: File = match toml::from_str(&text) {
                Ok(f) => f,
                Err(e) => panic!("{e}"),
            };
            let source = Source {
                path: std::path::Path::new("t.toml"),
                text: &text,
            };
            let model = match WoundLevels::compile(&file, &source) {
                Ok(m) => m,
                Err(e) => panic!("{e}"),
            };
            assert_eq!(
                model.fighters[0].damage_bonus, expected,
                "{kind} with {physique}"
            );
            assert_eq!(model.rules, rules);
        }
    }

    #[test]
    fn documented_defaults_are_the_defaults_in_force() {
        crate::rules::assert_documented_defaults(
            PARAMETERS,
            &Rules::default(),
            &Healing::default(),
        );
    }

    /// The damage bonus `[a]` gets with a weapon of `kind` at this Physique.
    fn ledger_bonus(kind: &str, physique: &str, damage_bonus: Option<i32>) -> i32 {
        let over = damage_bonus.map_or(String::new(), |b| format!("damage_bonus = {b}\n"));
        let text = format!(
            "name = \"t\"\nruleset = \"wound-levels\"\n[a]\nphysique = \"{physique}\"\nweapon = \"w\"\n[b]\nweapon = \"w\"\n[weapons.w]\nkind = \"{kind}\"\n{over}"
        );
        ledger_compile(&text).fighters[0].damage_bonus
    }

    #[test]
    fn damage_bonus_by_weapon_kind_and_physique_above_2() {
        for (kind, physique, over, expected, sentence) in [
            // L5: "There is normally no bonus to damage for Unarmed attacks"
            ("unarmed", "competent", None, 0, "L5"),
            // L7: "Melee weapons grant a +2 bonus to damage."
            ("melee", "competent", None, 2, "L7"),
            // L13 adds only "for each point of Physique above 2": nothing is taken below it.
            ("melee", "novice", None, 2, "L13 below 2"),
            // L7: "A particularly weak or impractical weapon may grant a bonus of +1, or none at all."
            ("weak", "competent", None, 1, "L7 weak"),
            ("weak", "competent", Some(0), 0, "L7 none at all"),
            // L9: "Most Ranged attacks give a bonus of +3 to damage."
            ("ranged", "competent", None, 3, "L9"),
            // L13: Physique adds to "Melee and Unarmed attacks" only.
            ("ranged", "legendary", None, 3, "L13 not ranged"),
            // L11: "A heavy machine gun such as an M2 provides a damage bonus of +4."
            ("heavy", "competent", None, 4, "L11"),
            // L11: "Very large Ranged weapons may have a higher damage bonus."
            ("ranged", "competent", Some(4), 4, "L11 override"),
            // L13: "a Professional Physique increases the damage bonus by 1, an Expert Physique
            // increases the damage bonus by 2, and a Master Physique ... increases it by 3. A
            // Legendary Physique ... increases the damage bonus by 4."
            ("melee", "professional", None, 3, "L13 professional"),
            ("melee", "expert", None, 4, "L13 expert"),
            ("melee", "master", None, 5, "L13 master"),
            ("melee", "legendary", None, 6, "L13 legendary"),
            ("unarmed", "master", None, 3, "L13 unarmed master"),
            ("unarmed", "legendary", None, 4, "L13 unarmed legendary"),
            ("weak", "professional", Some(1), 2, "L7 + L13"),
        ] {
            assert_eq!(
                ledger_bonus(kind, physique, over),
                expected,
                "{sentence}: {kind} with {physique} Physique, damage_bonus {over:?}"
            );
        }
    }
}
