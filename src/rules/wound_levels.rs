//! The `wound-levels` ruleset: a small symmetric roll (4dF) plus skill levels, initiative and
//! declaration order, multiple actions and their penalty, Evasion turning actions into dodges,
//! damage from the margin (or the outcome when undefended) plus the weapon's damage bonus minus
//! armour, accumulating wound levels 1–7 with their penalties, and the Critical and Terminal
//! deterioration checks that decide who lives until help arrives.
//!
//! The text (`shared/rules/wound-levels.txt`) gives damage, wound levels and one long worked
//! example; the duel loop, the dice and every value the example implies are our reading, each a
//! named parameter recorded in `docs/rules/wound-levels.md`. This module owns the schema, the
//! compiled fighters, the duel and the post-fight timeline. It reads no files.

use crate::dice::Dice;
use crate::log::Log;
use crate::rules::{Parameter, Ruleset};
use crate::scenario::error::{InputError, Source};
use crate::scenario::fields::{Name, Ranged};
use crate::scenario::schema::ScenarioFile;
use crate::stats::{DuelOutcome, Extra, ExtraKind, Recovery, Side, Tally, TallyShape};
use serde::{Deserialize, Serialize};

/// The id scenarios use.
pub const ID: &str = "wound-levels";

// ---------------------------------------------------------------------------------------------
// Scenario schema
// ---------------------------------------------------------------------------------------------

/// A skill or Physique level and its bonus.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// +0.
    Untrained,
    /// +1.
    Novice,
    /// +2 (the baseline: Physique above it adds to melee damage).
    #[default]
    Competent,
    /// +3 ("Melee at Professional ... adds +3").
    Professional,
    /// +4.
    Expert,
    /// +5.
    Master,
    /// +6.
    Legendary,
}

impl Level {
    /// The bonus the level adds to a roll.
    pub fn bonus(self) -> i32 {
        self as i32
    }
}

/// What kind of weapon, for its damage bonus.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum WeaponKind {
    /// No bonus.
    Unarmed,
    /// A weak or impractical melee weapon.
    Weak,
    /// A melee weapon.
    Melee,
    /// A ranged weapon.
    Ranged,
    /// A very large ranged weapon.
    Heavy,
}

impl WeaponKind {
    fn is_ranged(self) -> bool {
        matches!(self, WeaponKind::Ranged | WeaponKind::Heavy)
    }
}

/// How an automatic weapon fires.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FireMode {
    /// One shot.
    #[default]
    Single,
    /// A 3-round burst.
    Burst,
    /// Full auto: the whole clip.
    Auto,
}

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

/// A fighter as the scenario writes it (`[a]`, `[b]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FighterSpec {
    /// Shown in reports and traces.
    pub name: Option<String>,
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
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
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

/// The ruleset's own counts.
pub const EXTRAS: &[Extra] = &[
    Extra {
        name: "died_before_help",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "reached_terminal",
        kind: ExtraKind::ShareOfPatients,
    },
];

// ---------------------------------------------------------------------------------------------
// Compiled model
// ---------------------------------------------------------------------------------------------

/// One fighter, compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fighter {
    /// Melee bonus.
    pub melee: i32,
    /// Ranged bonus.
    pub ranged: i32,
    /// Physique bonus.
    pub physique: i32,
    /// Initiative bonus.
    pub initiative: i32,
    /// Has Evasion.
    pub evasion: bool,
    /// Armour points.
    pub armour: i32,
    /// The weapon's kind.
    pub kind: WeaponKind,
    /// Damage bonus with the weapon (Physique included for melee and unarmed).
    pub damage_bonus: i32,
    /// Damage bonus once the weapon is thrown away (unarmed).
    pub unarmed_bonus: i32,
    /// Rounds in a clip.
    pub clip: u32,
    /// Spare clips.
    pub spare_clips: u32,
    /// Automatic weapon.
    pub automatic: bool,
    /// Throwable weapon.
    pub throwable: bool,
    /// Attacks declared.
    pub attacks: u32,
    /// Actions Evasion converts.
    pub evade: u32,
    /// Withdraw tactic.
    pub withdraw: Withdraw,
    /// Fire mode.
    pub fire_mode: FireMode,
    /// Throw tactic.
    pub throw: bool,
}

/// One roll of the fudge dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roll {
    /// The total, −n..+n.
    pub value: i32,
    /// All dice +.
    pub critical: bool,
    /// All dice −.
    pub botch: bool,
}

/// A compiled wound-levels point.
#[derive(Clone, Debug)]
pub struct WoundLevels {
    /// The fighters.
    pub fighters: [Fighter; 2],
    /// Their names.
    pub names: [String; 2],
    /// The rules.
    pub rules: Rules,
    /// Post-fight settings.
    pub healing: Healing,
    /// Turns before a draw.
    pub round_limit: u32,
    /// Penalty by wound level 0..=7.
    penalty: [i32; 8],
    /// Movement roll penalty by wound level 0..=7.
    move_penalty: [i32; 8],
}

/// What a fighter does this turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Plan {
    attacks: u32,
    dodges: u32,
    reload: bool,
    throw: bool,
    /// Withdraw out of melee range at the end of the turn.
    withdraw: bool,
    /// Close into melee range at the end of the turn.
    close: bool,
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
    fn actions(self) -> u32 {
        self.attacks + self.dodges + u32::from(self.reload)
    }
}

/// A fighter's state during the duel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct State {
    damage: u32,
    ammo: u32,
    spare_clips: u32,
    thrown: bool,
}

impl WoundLevels {
    /// Builds a point.
    pub fn new(
        fighters: [Fighter; 2],
        names: [String; 2],
        rules: Rules,
        healing: Healing,
        round_limit: u32,
    ) -> Self {
        let mut penalty = [0i32; 8];
        for (level, p) in penalty.iter_mut().enumerate().skip(1) {
            *p = rules.wound_penalties.get(level - 1).map_or(0, Ranged::i32);
        }
        let mut move_penalty = [0i32; 8];
        for (level, p) in move_penalty.iter_mut().enumerate().skip(1) {
            *p = rules.move_penalties.get(level - 1).map_or(0, Ranged::i32);
        }
        WoundLevels {
            fighters,
            names,
            rules,
            healing,
            round_limit,
            penalty,
            move_penalty,
        }
    }

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
        for side in Side::BOTH {
            let spec = file.fighter(side);
            let (weapon, armour) = file.equipment(side, source)?;
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
        }
        Ok(WoundLevels::new(
            [fighters[0], fighters[1]],
            [file.fighter_name(Side::A), file.fighter_name(Side::B)],
            rules,
            file.healing.clone(),
            file.round_limit.u32(),
        ))
    }

    /// Rolls the fudge dice (each a d3: 1 is −, 2 is blank, 3 is +).
    #[inline]
    pub fn roll<D: Dice>(&self, dice: &mut D, label: &'static str) -> Roll {
        let n = self.rules.fudge_dice.i32();
        let mut value = 0;
        for _ in 0..n {
            value += dice.d(3, label) as i32 - 2;
        }
        Roll {
            value,
            critical: value == n,
            botch: value == -n,
        }
    }

    /// The wound level of a damage total (1–7; 0 unhurt).
    #[inline]
    pub fn level(damage: u32) -> u32 {
        damage.min(7)
    }

    fn penalty_of(&self, damage: u32) -> i32 {
        self.penalty[Self::level(damage) as usize]
    }

    /// A Physique check: roll + Physique − wound penalty at least the difficulty.
    fn physique_check<D: Dice>(
        &self,
        side: Side,
        damage: u32,
        dice: &mut D,
        label: &'static str,
    ) -> (bool, i32) {
        let r = self.roll(dice, label);
        let total = r.value + self.fighters[side.index()].physique - self.penalty_of(damage);
        (total >= self.rules.check_difficulty.i32(), total)
    }

    /// Adds a wound's damage to a fighter: plainly when unhurt; when already wounded, less the
    /// repeat reduction but at least one level ("the damage is added": a wound never vanishes).
    pub fn add_wound(&self, existing: u32, damage: u32) -> u32 {
        if existing == 0 || damage == 0 {
            existing + damage
        } else {
            existing
                + damage
                    .saturating_sub(self.rules.repeat_wound_reduction.u32())
                    .max(1)
        }
    }

    /// The turn's declarations: the slower declares first; Evasion then turns actions into
    /// dodges against an attacking opponent.
    /// Both fighters as the duel starts them: unhurt, clips full.
    fn start_states(&self) -> [State; 2] {
        self.fighters.map(|f| State {
            damage: 0,
            ammo: f.clip,
            spare_clips: f.spare_clips,
            thrown: false,
        })
    }

    #[inline]
    fn plans(&self, slow: Side, states: &[State; 2], engaged: bool) -> [Plan; 2] {
        let fast = slow.other();
        let mut plans = [Plan::default(); 2];
        for side in [slow, fast] {
            plans[side.index()] = self.declare(side, states, engaged);
        }
        for side in [slow, fast] {
            let me = &self.fighters[side.index()];
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

    fn declare(&self, side: Side, states: &[State; 2], engaged: bool) -> Plan {
        let me = &self.fighters[side.index()];
        let state = &states[side.index()];
        let other_level = Self::level(states[side.other().index()].damage);
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
    fn movement<D: Dice, L: Log>(
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

    /// One attack; returns the damage dealt after armour, `None` on a miss. `declared` are the turn's plans
    /// (for the multiple-action penalties); `dodges_left` the dodges not yet used.
    #[allow(clippy::too_many_arguments)]
    fn attack<D: Dice, L: Log>(
        &self,
        attacker: Side,
        declared: &[Plan; 2],
        dodges_left: &mut [u32; 2],
        states: &mut [State; 2],
        engaged: bool,
        dice: &mut D,
        log: &mut L,
    ) -> Option<u32> {
        let a = &self.fighters[attacker.index()];
        let defender = attacker.other();
        let d = &self.fighters[defender.index()];
        let plan = declared[attacker.index()];
        let ranged = a.kind.is_ranged() && !plan.throw;
        let (skill, mut modifier, bonus) = if ranged {
            let mode = match a.fire_mode {
                FireMode::Single => 0,
                FireMode::Burst => self.rules.burst_bonus.i32(),
                FireMode::Auto if engaged => self.rules.auto_point_blank_bonus.i32(),
                FireMode::Auto => self.rules.auto_bonus.i32(),
            };
            (a.ranged, mode, a.damage_bonus)
        } else if states[attacker.index()].thrown && !plan.throw {
            (a.melee, 0, a.unarmed_bonus)
        } else {
            (a.melee, 0, a.damage_bonus)
        };
        if plan.attacks > 1 || (self.rules.single_attack_takes_action_penalty && plan.actions() > 1)
        {
            modifier -= plan.actions() as i32;
        }
        if ranged {
            let used = match a.fire_mode {
                FireMode::Single => 1,
                FireMode::Burst => self.rules.burst_rounds.u32(),
                // "If he had a very large clip, he might be able to fire on full auto while
                // emptying only half the clip."
                FireMode::Auto if a.clip >= self.rules.large_clip_from.u32() => a.clip.div_ceil(2),
                FireMode::Auto => states[attacker.index()].ammo,
            };
            states[attacker.index()].ammo = states[attacker.index()].ammo.saturating_sub(used);
        }
        if plan.throw {
            states[attacker.index()].thrown = true;
        }
        let wound_penalty = self.penalty_of(states[attacker.index()].damage);
        let roll = self.roll(dice, "dF (attack)");
        let outcome = roll.value + skill + modifier - wound_penalty;
        log.say(|| {
            format!(
                "{} {}: roll {} + skill {skill} + {modifier} - wound {wound_penalty} = {outcome}{}",
                self.names[attacker.index()],
                if plan.throw {
                    "throws"
                } else if ranged {
                    "fires"
                } else {
                    "attacks"
                },
                roll.value,
                if roll.botch && self.rules.botched_attack_misses {
                    " (botch: a miss)"
                } else {
                    ""
                }
            )
        });
        if roll.botch && self.rules.botched_attack_misses {
            return None;
        }
        // A dodge is an action: a Terminal or Mortal defender ("Actions not possible") cannot.
        let can_dodge = Self::level(states[defender.index()].damage) < 6;
        let base = if dodges_left[defender.index()] > 0 && can_dodge {
            dodges_left[defender.index()] -= 1;
            let actions = declared[defender.index()].actions();
            let multi = if actions > 1 { actions as i32 } else { 0 };
            let dr = self.roll(dice, "dF (dodge)");
            let dodge =
                dr.value + d.physique - self.penalty_of(states[defender.index()].damage) - multi;
            if dr.botch {
                log.say(|| {
                    format!(
                        "  {} dodges: botch: ineffective",
                        self.names[defender.index()]
                    )
                });
                outcome
            } else {
                log.say(|| {
                    format!(
                        "  {} dodges: roll {} + Physique {} - penalties = {dodge}",
                        self.names[defender.index()],
                        dr.value,
                        d.physique
                    )
                });
                if outcome > dodge { outcome - dodge } else { 0 }
            }
        } else if outcome >= self.rules.undefended_hit_from.i32() {
            outcome
        } else {
            0
        };
        if base <= 0 {
            log.say(|| "  miss".to_owned());
            return None;
        }
        let damage = (base + bonus - d.armour).max(0) as u32;
        let before = states[defender.index()].damage;
        let after = self.add_wound(before, damage);
        states[defender.index()].damage = after;
        log.say(|| format!("  hit: base {base} + bonus {bonus} - armour {} = {damage}; {} has {after} (level {})", d.armour, self.names[defender.index()], Self::level(after)));
        Some(damage)
    }

    /// The time after the fight for a wounded survivor: deterioration until help, then healing.
    pub fn aftermath<D: Dice, L: Log>(
        &self,
        side: Side,
        mut damage: u32,
        dice: &mut D,
        log: &mut L,
        terminal: &mut bool,
    ) -> Recovery {
        let h = &self.healing;
        let help = h.help_minutes.u32();
        let name = &self.names[side.index()];
        let mut minute = 0u32;
        loop {
            let level = Self::level(damage);
            let step = match level {
                5 => h.critical_check_minutes.u32(),
                6 => h.terminal_check_minutes.u32(),
                _ => break,
            };
            *terminal |= level == 6;
            if minute + step > help || dice.exhausted() {
                break;
            }
            minute += step;
            let (ok, total) = self.physique_check(side, damage, dice, "dF (Physique check)");
            log.say(|| {
                format!(
                    "minute {minute}: {name} at level {level}: Physique check {total}: {}",
                    if ok { "holds" } else { "worsens" }
                )
            });
            if !ok {
                damage = damage.max(level) + 1;
                if Self::level(damage) >= 7 {
                    log.say(|| format!("{name} dies before help arrives"));
                    return Recovery {
                        days_to_whole: None,
                        died: true,
                        impairment: 0,
                    };
                }
            }
        }
        log.say(|| {
            format!(
                "{name} is stabilized at level {} and heals",
                Self::level(damage)
            )
        });
        let every = h.days_per_check.u32();
        let mut day = 0;
        while day + every <= h.horizon_days.u32() && !dice.exhausted() {
            day += every;
            let (ok, total) = self.physique_check(side, damage, dice, "dF (healing check)");
            damage -= u32::from(ok);
            log.say(|| {
                format!(
                    "day {day}: healing check {total}: {}; damage {damage}",
                    if ok { "heals a level" } else { "no healing" }
                )
            });
            if damage == 0 {
                return Recovery {
                    days_to_whole: Some(day),
                    died: false,
                    impairment: 0,
                };
            }
        }
        Recovery {
            days_to_whole: None,
            died: false,
            impairment: 0,
        }
    }
}

impl Ruleset for WoundLevels {
    fn shape(&self) -> TallyShape {
        TallyShape {
            round_limit: self.round_limit,
            max_damage: 20,
            horizon_days: self.healing.horizon_days.u32(),
            extras: EXTRAS,
        }
    }

    fn trial<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        let mut states = self.start_states();
        let mut engaged = self.rules.start_engaged;
        let mut winner = None;
        let mut rounds = 0;
        let mut dead = [false; 2];
        for turn in 1..=self.round_limit {
            if dice.exhausted() {
                break;
            }
            rounds = turn;
            // Initiative: a critical success wins; otherwise the higher total; ties a d2.
            let ia = self.roll(dice, "dF (initiative a)");
            let ib = self.roll(dice, "dF (initiative b)");
            let ta = ia.value + self.fighters[0].initiative - self.penalty_of(states[0].damage);
            let tb = ib.value + self.fighters[1].initiative - self.penalty_of(states[1].damage);
            let fast = match (ia.critical, ib.critical) {
                (true, false) => Side::A,
                (false, true) => Side::B,
                _ if ta > tb => Side::A,
                _ if tb > ta => Side::B,
                _ => Side::BOTH[(dice.d(2, "d2 (initiative tie)") - 1) as usize & 1],
            };
            log.say(|| {
                format!(
                    "turn {turn}: initiative {} {ta}{}, {} {tb}{}: {} is faster",
                    self.names[0],
                    if ia.critical { " (critical)" } else { "" },
                    self.names[1],
                    if ib.critical { " (critical)" } else { "" },
                    self.names[fast.index()]
                )
            });
            let slow = fast.other();
            let plans = self.plans(slow, &states, engaged);
            log.say(|| {
                format!(
                    "  {} declares {}; {} declares {}",
                    self.names[slow.index()],
                    plans[slow.index()],
                    self.names[fast.index()],
                    plans[fast.index()]
                )
            });
            // Actions in initiative order; dodges answer the other's attacks.
            let declared = plans;
            let mut dodges_left = plans.map(|p| p.dodges);
            for side in [fast, slow] {
                let me = &self.fighters[side.index()];
                let plan = declared[side.index()];
                if Self::level(states[side.index()].damage) >= 6 {
                    continue;
                }
                if plan.reload {
                    states[side.index()].ammo = me.clip;
                    states[side.index()].spare_clips -= 1;
                    log.say(|| format!("  {} reloads", self.names[side.index()]));
                }
                for _ in 0..plan.attacks {
                    let reach = engaged || me.kind.is_ranged() || plan.throw;
                    let loaded =
                        !me.kind.is_ranged() || plan.throw || states[side.index()].ammo > 0;
                    if !reach || !loaded || Self::level(states[side.index()].damage) >= 6 {
                        break;
                    }
                    let dealt = self.attack(
                        side,
                        &declared,
                        &mut dodges_left,
                        &mut states,
                        engaged,
                        dice,
                        log,
                    );
                    tally.record_hit(dealt.unwrap_or(0), dealt.is_some());
                }
            }
            // Movement at the end of the turn.
            engaged = self.movement([fast, slow], &declared, &states, engaged, dice, log);
            // End of the turn: Mortal dies; Terminal is out.
            let out = states.map(|s| Self::level(s.damage) >= 6);
            for side in Side::BOTH {
                dead[side.index()] = Self::level(states[side.index()].damage) >= 7;
            }
            if out[0] || out[1] {
                winner = match out {
                    [true, false] => Some(Side::B),
                    [false, true] => Some(Side::A),
                    _ => None,
                };
                for side in Side::BOTH {
                    if dead[side.index()] {
                        log.say(|| {
                            format!(
                                "{} is Mortally wounded and dies at the end of the turn",
                                self.names[side.index()]
                            )
                        });
                    }
                }
                break;
            }
        }
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead,
        });
        for side in Side::BOTH {
            let damage = states[side.index()].damage;
            if !dead[side.index()] && damage > 0 {
                let mut terminal = false;
                let r = self.aftermath(side, damage, dice, log, &mut terminal);
                tally.record_recovery(side, &r);
                tally.record_extra(0, u64::from(r.died));
                tally.record_extra(1, u64::from(terminal));
            }
        }
    }
}

/// The wound levels by name, 0 unhurt.
const LEVEL_NAMES: [&str; 8] = [
    "unhurt",
    "1 Negligible",
    "2 Light",
    "3 Moderate",
    "4 Serious",
    "5 Critical",
    "6 Terminal",
    "7 Mortal",
];

/// One exchange for exact tables: the attacker's first attack of its first turn, declared as
/// the duel declares it (in melee for a melee fighter, at range for a shooter), answered by the
/// defender's declared dodge, through armour to the damage and the wound level it leaves; the
/// same `attack` the duel rolls.
impl crate::exact::Exchange for WoundLevels {
    const UNIT: &'static str = "damage";
    const RESULTS: &'static [&'static str] = &["miss", "no attack", "hit"];
    const MISSES: usize = 2;

    fn exchange<D: Dice>(&self, attacker: Side, dice: &mut D) -> crate::exact::Outcome {
        let mut states = self.start_states();
        let engaged = !self.fighters[attacker.index()].kind.is_ranged();
        let plans = self.plans(attacker.other(), &states, engaged);
        if plans[attacker.index()].attacks == 0 {
            return crate::exact::Outcome {
                result: "no attack",
                value: 0,
                kind: "",
            };
        }
        let mut dodges_left = plans.map(|p| p.dodges);
        let dealt = self.attack(
            attacker,
            &plans,
            &mut dodges_left,
            &mut states,
            engaged,
            dice,
            &mut crate::log::NoLog,
        );
        let level = Self::level(states[attacker.other().index()].damage) as usize;
        crate::exact::Outcome {
            result: if dealt.is_some() { "hit" } else { "miss" },
            value: dealt.unwrap_or(0),
            kind: if dealt.is_some() {
                LEVEL_NAMES[level.min(7)]
            } else {
                ""
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::{NoLog, VecLog};

    /// Four fudge dice (d3: 1 −, 2 blank, 3 +) that total `value`.
    fn fudge(value: i32) -> [u32; 4] {
        let mut dice = [2u32; 4];
        for d in dice.iter_mut().take(value.unsigned_abs() as usize) {
            *d = if value > 0 { 3 } else { 1 };
        }
        dice
    }

    fn script(values: &[i32]) -> ScriptedDice {
        ScriptedDice::new(values.iter().flat_map(|&v| fudge(v)).collect::<Vec<_>>())
    }

    fn fighter(kind: WeaponKind, damage_bonus: i32) -> Fighter {
        Fighter {
            melee: 3,
            ranged: 3,
            physique: 3,
            initiative: 3,
            evasion: false,
            armour: 1,
            kind,
            damage_bonus,
            unarmed_bonus: 1,
            clip: 0,
            spare_clips: 0,
            automatic: false,
            throwable: false,
            attacks: 1,
            evade: 1,
            withdraw: Withdraw::Never,
            fire_mode: FireMode::Single,
            throw: false,
        }
    }

    /// Bob (a) and Adam (b) as the text describes them: both Professional (+3) in their combat
    /// skill and Physique, 1 point of armour; Bob has Evasion and an automatic pistol (+3
    /// damage), Adam a knife (+2 melee, +1 for Professional Physique).
    fn bob_and_adam(healing: Healing) -> WoundLevels {
        let mut bob = fighter(WeaponKind::Ranged, 3);
        bob.evasion = true;
        bob.clip = 15;
        bob.spare_clips = 1;
        bob.automatic = true;
        bob.attacks = 2;
        bob.withdraw = Withdraw::WhenOpponentCannotWalk;
        bob.fire_mode = FireMode::Auto;
        let mut adam = fighter(WeaponKind::Melee, 3);
        adam.throwable = true;
        adam.throw = true;
        WoundLevels::new(
            [bob, adam],
            ["Bob".into(), "Adam".into()],
            Rules::default(),
            healing,
            20,
        )
    }

    #[test]
    fn example_of_combat_bob_and_adam_turn_by_turn() {
        let healing = Healing {
            help_minutes: Ranged::new(0),
            horizon_days: Ranged::new(1),
            ..Healing::default()
        };
        let model = bob_and_adam(healing);
        let mut dice = script(&[
            // Turn 1: initiative Bob 1 (+3 = 4), Adam 3 (+3 = 6). Adam stabs: 2 (+3 = 5);
            // Bob dodges 3 (+3 - 2 for two actions = 4). Bob fires full auto: -1 (+3 +2 -1 = 3).
            1, 3, 2, 3, -1,
            // Turn 2: initiative Bob 2 (+3 -1 = 4), Adam 1 (+3 -3 = 1). Adam slashes: 2 (+3 -3 = 2);
            // Bob dodges -1 (+3 -1 = 1). Bob's Physique check to move away: 1 (+3 -3 = 1).
            2, 1, 2, -1, 1,
            // Turn 3: initiative Bob 3 (+3 -3 = 3), Adam 4: a critical success. Adam throws: 2
            // (+3 -3 = 2); Bob's dodge is a botch.
            3, 4, 2, -4,
        ]);
        let mut log = VecLog::default();
        let mut tally = Tally::new(model.shape());
        model.trial(&mut dice, &mut log, &mut tally);
        assert!(
            dice.finish().is_ok(),
            "{:?}\n{}",
            dice.error(),
            log.lines.join("\n")
        );
        let story = log.lines.join("\n");
        let steps = [
            "turn 1: initiative Bob 4, Adam 6: Adam is faster",
            "Adam attacks: roll 2 + skill 3 + 0 - wound 0 = 5",
            "Bob dodges: roll 3 + Physique 3 - penalties = 4",
            "hit: base 1 + bonus 3 - armour 1 = 3; Bob has 3 (level 3)",
            "Bob fires: roll -1 + skill 3 + 2 - wound 1 = 3",
            "hit: base 3 + bonus 3 - armour 1 = 5; Adam has 5 (level 5)",
            "turn 2: initiative Bob 4, Adam 1: Bob is faster",
            "Adam attacks: roll 2 + skill 3 + 0 - wound 3 = 2",
            "Bob dodges: roll -1 + Physique 3 - penalties = 1",
            "hit: base 1 + bonus 3 - armour 1 = 3; Bob has 5 (level 5)",
            "Bob cannot walk: Physique check 1 to move: succeeds",
            "Bob withdraws out of melee range",
            "turn 3: initiative Bob 3, Adam 4 (critical): Adam is faster",
            "Adam throws: roll 2 + skill 3 + 0 - wound 3 = 2",
            "Bob dodges: botch: ineffective",
            "hit: base 2 + bonus 3 - armour 1 = 4; Bob has 8 (level 7)",
            "Bob is Mortally wounded and dies at the end of the turn",
        ];
        let mut from = 0;
        for step in steps {
            match story[from..].find(step) {
                Some(at) => from += at + step.len(),
                None => panic!("step not found in order: {step}\n{story}"),
            }
        }
        assert!(story.contains("Bob declares") || story.contains("Adam declares"));
        assert_eq!(tally.ends, [0, 1, 0], "Adam wins");
        assert_eq!(tally.dead, [1, 0], "Bob is dead");
        assert_eq!(tally.rounds.bins()[3], 1);
    }

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
    fn wound_levels_and_their_penalties() {
        let model = bob_and_adam(Healing::default());
        let penalties: Vec<i32> = (0..=8).map(|d| model.penalty_of(d)).collect();
        assert_eq!(penalties, vec![0, 0, 1, 1, 2, 3, 3, 3, 3]);
        assert_eq!(WoundLevels::level(12), 7);
        assert_eq!(model.add_wound(0, 4), 4, "a first wound adds in full");
        assert_eq!(model.add_wound(3, 3), 5, "the example: 3 + 3 -> 5");
        let plain = WoundLevels::new(
            model.fighters,
            model.names.clone(),
            Rules {
                repeat_wound_reduction: Ranged::new(0),
                ..Rules::default()
            },
            Healing::default(),
            20,
        );
        assert_eq!(plain.add_wound(3, 3), 6, "plain addition");
    }

    #[test]
    fn the_roll_is_4df_with_critical_success_and_botch() {
        let model = bob_and_adam(Healing::default());
        let r = model.roll(&mut script(&[4]), "t");
        assert_eq!(
            r,
            Roll {
                value: 4,
                critical: true,
                botch: false
            }
        );
        let r = model.roll(&mut script(&[-4]), "t");
        assert_eq!(
            r,
            Roll {
                value: -4,
                critical: false,
                botch: true
            }
        );
        let r = model.roll(&mut ScriptedDice::new([3, 1, 2, 3]), "t");
        assert_eq!(
            r,
            Roll {
                value: 1,
                critical: false,
                botch: false
            }
        );
    }

    #[test]
    fn multiple_attacks_take_a_penalty_equal_to_the_actions() {
        let mut a = fighter(WeaponKind::Melee, 3);
        a.attacks = 2;
        let b = fighter(WeaponKind::Melee, 3);
        let model = WoundLevels::new(
            [a, b],
            ["a".into(), "b".into()],
            Rules::default(),
            Healing::default(),
            1,
        );
        let declared = [
            Plan {
                attacks: 2,
                ..Plan::default()
            },
            Plan {
                attacks: 1,
                ..Plan::default()
            },
        ];
        let mut states = [State::default(); 2];
        let mut log = VecLog::default();
        // Roll 0: 0 + 3 - 2 = 1: undefended, a hit for 1 + 3 - 1 = 3.
        let dealt = model.attack(
            Side::A,
            &declared,
            &mut [0, 0],
            &mut states,
            true,
            &mut script(&[0]),
            &mut log,
        );
        assert_eq!(dealt, Some(3));
        assert!(
            log.lines[0].contains("roll 0 + skill 3 + -2 - wound 0 = 1"),
            "{:?}",
            log.lines
        );
        // Roll -2: 0 after the penalty: undefended outcome below 1 misses.
        let dealt = model.attack(
            Side::A,
            &declared,
            &mut [0, 0],
            &mut states,
            true,
            &mut script(&[-2]),
            &mut NoLog,
        );
        assert_eq!(dealt, None);
    }

    #[test]
    fn burst_and_full_auto_spend_ammunition_and_reload_takes_an_action() {
        let mut a = fighter(WeaponKind::Ranged, 3);
        a.automatic = true;
        a.clip = 10;
        a.fire_mode = FireMode::Burst;
        let b = fighter(WeaponKind::Melee, 3);
        let model = WoundLevels::new(
            [a, b],
            ["a".into(), "b".into()],
            Rules::default(),
            Healing::default(),
            1,
        );
        let declared = [
            Plan {
                attacks: 1,
                ..Plan::default()
            },
            Plan::default(),
        ];
        let mut states = [
            State {
                ammo: 10,
                ..State::default()
            },
            State::default(),
        ];
        let mut log = VecLog::default();
        model.attack(
            Side::A,
            &declared,
            &mut [0, 0],
            &mut states,
            false,
            &mut script(&[0]),
            &mut log,
        );
        assert_eq!(states[0].ammo, 7, "a burst is 3 rounds");
        assert!(
            log.lines[0].contains("+ 1 - wound"),
            "burst bonus: {:?}",
            log.lines
        );
        let mut auto = model.clone();
        auto.fighters[0].fire_mode = FireMode::Auto;
        auto.attack(
            Side::A,
            &declared,
            &mut [0, 0],
            &mut states,
            true,
            &mut script(&[0]),
            &mut NoLog,
        );
        assert_eq!(states[0].ammo, 0, "full auto empties the clip");
        let plan = auto.declare(
            Side::A,
            &[
                State {
                    ammo: 0,
                    spare_clips: 1,
                    ..State::default()
                },
                State::default(),
            ],
            true,
        );
        assert!(plan.reload && plan.attacks == 0);
    }

    #[test]
    fn critical_checks_every_hour_and_terminal_every_minute_until_help() {
        let healing = Healing {
            help_minutes: Ranged::new(120),
            horizon_days: Ranged::new(1),
            ..Healing::default()
        };
        let model = bob_and_adam(healing);
        // Critical (5): hour 1 fails (-3 + 3 - 3 < 1): Terminal. Minute 61: fails: Mortal: dead.
        let mut terminal = false;
        let r = model.aftermath(
            Side::B,
            5,
            &mut script(&[-3, -3]),
            &mut NoLog,
            &mut terminal,
        );
        assert!(r.died && terminal);
        // Hours 1 and 2 hold (1 + 3 - 3 = 1): help arrives at 120 minutes: stabilized.
        let mut terminal = false;
        let mut dice = script(&[1, 1]);
        let r = model.aftermath(Side::B, 5, &mut dice, &mut NoLog, &mut terminal);
        assert!(!r.died && !terminal);
        assert!(dice.finish().is_ok());
        assert_eq!(dice.used(), 8, "two hourly checks of four dice");
    }

    #[test]
    fn stabilized_wounds_heal_a_level_per_successful_check() {
        let healing = Healing {
            help_minutes: Ranged::new(0),
            ..Healing::default()
        };
        let model = bob_and_adam(healing);
        // Damage 2 (penalty 1): week 1 holds (0 + 3 - 1 = 2 >= 1): 1 left; week 2 fails
        // (-3 + 3 - 0 = 0); week 3 heals: whole after 21 days.
        let r = model.aftermath(Side::A, 2, &mut script(&[0, -3, 1]), &mut NoLog, &mut false);
        assert_eq!(r.days_to_whole, Some(21));
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
    fn a_terminal_or_mortal_defender_cannot_dodge() {
        // "6) Terminal: Actions not possible." A dodge is an action: a Terminal defender with a
        // dodge declared takes the attack undefended. Adam attacks: roll 2 + 3 = 5, no dodge
        // die; 5 + 3 − 1 armour = 7 more.
        let model = bob_and_adam(Healing::default());
        let mut plans = [Plan::default(); 2];
        plans[0].dodges = 1;
        plans[1].attacks = 1;
        for damage in [6, 7] {
            let mut states = [State::default(); 2];
            states[0].damage = damage;
            let mut dodges_left = [1, 0];
            let mut dice = script(&[2]);
            let mut log = VecLog::default();
            let dealt = model.attack(
                Side::B,
                &plans,
                &mut dodges_left,
                &mut states,
                true,
                &mut dice,
                &mut log,
            );
            assert!(dice.finish().is_ok(), "no dodge die: {:?}", log.lines);
            assert_eq!(dealt, Some(7), "{:?}", log.lines);
            assert!(
                !log.lines.iter().any(|l| l.contains("dodges")),
                "{:?}",
                log.lines
            );
        }
        // At Critical (5) the dodge still answers: −1 against 5 − 3 (wound) ... a dodge die.
        let mut states = [State::default(); 2];
        states[0].damage = 5;
        let mut dodges_left = [1, 0];
        let mut dice = script(&[2, 0]);
        model.attack(
            Side::B,
            &plans,
            &mut dodges_left,
            &mut states,
            true,
            &mut dice,
            &mut NoLog,
        );
        assert!(dice.finish().is_ok() && dodges_left[0] == 0);
    }

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
    fn a_botched_attack_misses_by_the_named_choice() {
        // The text: a botched dodge "is ineffective"; of a botched attack it says nothing. By
        // default (`rules.botched_attack_misses`) it misses as well: a Legendary (+6) attacker's
        // botch (−4) would otherwise total 2, a hit on an undefended foe (2 + 3 − 1 = 4).
        let mut model = bob_and_adam(Healing::default());
        model.fighters[1].melee = 6;
        let mut plans = [Plan::default(); 2];
        plans[1].attacks = 1;
        let attack = |model: &WoundLevels| {
            let mut states = [State::default(); 2];
            let mut dice = script(&[-4]);
            model.attack(
                Side::B,
                &plans,
                &mut [0, 0],
                &mut states,
                true,
                &mut dice,
                &mut NoLog,
            )
        };
        assert_eq!(attack(&model), None);
        model.rules.botched_attack_misses = false;
        assert_eq!(attack(&model), Some(4));
    }

    // -----------------------------------------------------------------------------------------
    // Rule ledger tests (docs/rules/wound-levels.md, "Rule ledger"). Paste at the end of
    // `mod tests` in src/rules/wound_levels.rs: they use `fudge`, `script` and `fighter` above.
    // Expected values come from the sentences of shared/rules/wound-levels.txt (L = line).
    // -----------------------------------------------------------------------------------------

    /// Help at once and no healing checks: a trial spends no die after the duel.
    fn ledger_quiet() -> Healing {
        Healing {
            help_minutes: Ranged::new(0),
            horizon_days: Ranged::new(1),
            ..Healing::default()
        }
    }

    fn ledger_model_with(a: Fighter, b: Fighter, rules: Rules, round_limit: u32) -> WoundLevels {
        WoundLevels::new(
            [a, b],
            ["a".into(), "b".into()],
            rules,
            ledger_quiet(),
            round_limit,
        )
    }

    fn ledger_model(a: Fighter, b: Fighter, round_limit: u32) -> WoundLevels {
        ledger_model_with(a, b, Rules::default(), round_limit)
    }

    fn ledger_plan(attacks: u32, dodges: u32) -> Plan {
        Plan {
            attacks,
            dodges,
            ..Plan::default()
        }
    }

    /// The d3 results of fudge rolls with these totals, in order.
    fn ledger_fudge(values: &[i32]) -> Vec<u32> {
        values.iter().flat_map(|&v| fudge(v)).collect()
    }

    /// One attack of `attacker` (engaged), the fighters at these damages, with these declared
    /// plans (each plan's dodges are its dodges left); every scripted roll must be used.
    fn ledger_strike(
        model: &WoundLevels,
        attacker: Side,
        damage: [u32; 2],
        declared: [Plan; 2],
        rolls: &[i32],
    ) -> (Option<u32>, [State; 2]) {
        let mut states = [
            State {
                damage: damage[0],
                ..State::default()
            },
            State {
                damage: damage[1],
                ..State::default()
            },
        ];
        let mut dodges_left = declared.map(|p| p.dodges);
        let mut dice = script(rolls);
        let mut log = VecLog::default();
        let dealt = model.attack(
            attacker,
            &declared,
            &mut dodges_left,
            &mut states,
            true,
            &mut dice,
            &mut log,
        );
        let story = log.lines.join("\n");
        assert!(dice.finish().is_ok(), "{:?}\n{story}", dice.error());
        assert_eq!(dice.used(), rolls.len() * 4, "dice left over:\n{story}");
        (dealt, states)
    }

    /// A whole trial on exactly these dice (all must be used); the tally and the narration.
    fn ledger_duel(model: &WoundLevels, dice: Vec<u32>) -> (Tally, String) {
        let mut scripted = ScriptedDice::new(dice.clone());
        let mut log = VecLog::default();
        let mut tally = Tally::new(model.shape());
        model.trial(&mut scripted, &mut log, &mut tally);
        let story = log.lines.join("\n");
        assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
        assert_eq!(scripted.used(), dice.len(), "dice left over:\n{story}");
        (tally, story)
    }

    /// The damage bonus `[a]` gets with a weapon of `kind` at this Physique.
    fn ledger_bonus(kind: &str, physique: &str, damage_bonus: Option<i32>) -> i32 {
        let over = damage_bonus.map_or(String::new(), |b| format!("damage_bonus = {b}\n"));
        let text = format!(
            "name = \"t\"\nruleset = \"wound-levels\"\n[a]\nphysique = \"{physique}\"\nweapon = \"w\"\n[b]\nweapon = \"w\"\n[weapons.w]\nkind = \"{kind}\"\n{over}"
        );
        ledger_compile(&text).fighters[0].damage_bonus
    }

    fn ledger_compile(text: &str) -> WoundLevels {
        let file: File = match toml::from_str(text) {
            Ok(f) => f,
            Err(e) => panic!("{e}"),
        };
        let source = Source {
            path: std::path::Path::new("t.toml"),
            text,
        };
        match WoundLevels::compile(&file, &source) {
            Ok(m) => m,
            Err(e) => panic!("{e}"),
        }
    }

    /// The penalty a fighter at `damage` takes on its attack roll, its dodge roll and a
    /// Physique check, read back from the numbers each produces (Melee and Physique 3, no
    /// damage bonus, no armour).
    fn ledger_penalties_at(damage: u32) -> [i32; 3] {
        let plain = Fighter {
            armour: 0,
            ..fighter(WeaponKind::Melee, 0)
        };
        let model = ledger_model(plain, plain, 1);
        // Attack: a (at `damage`) rolls 1: 1 + 3 - penalty, undefended: that many levels.
        let (dealt, _) = ledger_strike(
            &model,
            Side::A,
            [damage, 0],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[1],
        );
        let attack = 4 - dealt.map_or(0, |d| d as i32);
        // Dodge: b (unhurt) rolls 3: 6, against a's dodge 0 + 3 - penalty: a margin 3 + penalty.
        let (dealt, _) = ledger_strike(
            &model,
            Side::B,
            [damage, 0],
            [ledger_plan(0, 1), ledger_plan(1, 0)],
            &[3, 0],
        );
        let dodge = dealt.map_or(0, |d| d as i32) - 3;
        // Physique check: 0 + 3 - penalty.
        let mut dice = script(&[0]);
        let (_, total) = model.physique_check(Side::A, damage, &mut dice, "t");
        assert!(dice.finish().is_ok());
        [attack, dodge, 3 - total]
    }

    #[test]
    fn a_hit_deals_its_final_outcome_plus_the_damage_bonus() {
        // L3: "If a hit is scored, the final outcome of the attack roll is the amount of base
        // damage dealt to the target. This amount is increased by the damage bonus."
        let b = Fighter {
            armour: 0,
            ..fighter(WeaponKind::Melee, 3)
        };
        let model = ledger_model(fighter(WeaponKind::Melee, 3), b, 1);
        // Undefended: roll 1 + Melee 3 = 4 base damage, + bonus 3 = 7 (no armour).
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[1],
        );
        assert_eq!(dealt, Some(7));
        assert_eq!(states[1].damage, 7);
        // Against a dodge the final outcome is the margin (L43: "Adam's outcome of 5 - Bob's
        // outcome of 4 = 1"): roll 2 + 3 = 5 against 0 + Physique 3 = 3: 2, + bonus 3 = 5.
        let (dealt, _) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(0, 1)],
            &[2, 0],
        );
        assert_eq!(dealt, Some(5));
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

    #[test]
    fn professional_adds_3_and_each_level_above_adds_1() {
        // L43: "adds +3, since he has Melee at Professional"; "adds +3, since he has a
        // Professional Physique"; L49: "He has Ranged Combat at Professional, so he adds +3."
        let model = ledger_compile(
            "name = \"t\"\nruleset = \"wound-levels\"\n[a]\nmelee = \"professional\"\nranged = \"professional\"\nphysique = \"professional\"\nweapon = \"w\"\n[b]\nweapon = \"w\"\n[weapons.w]\nkind = \"melee\"\n",
        );
        let a = model.fighters[0];
        assert_eq!((a.melee, a.ranged, a.physique), (3, 3, 3));
        // L13: "each point of Physique above 2": Professional is 1 above, Expert 2, Master 3,
        // Legendary 4.
        assert_eq!(
            [
                Level::Professional,
                Level::Expert,
                Level::Master,
                Level::Legendary
            ]
            .map(Level::bonus),
            [3, 4, 5, 6]
        );
    }

    #[test]
    fn armour_is_subtracted_after_damage_two_levels_against_one_point_is_one() {
        // L15: "Armor is subtracted after damage is determined. For example, if you take 2
        // levels of damage and are wearing 1 point of armor, you take 1 level of damage."
        let a = fighter(WeaponKind::Unarmed, 0);
        let b = fighter(WeaponKind::Melee, 3); // 1 point of armour
        let model = ledger_model(a, b, 1);
        // Roll -1 + 3 = 2, undefended: 2 levels, no bonus; 1 armour: 1 level.
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[-1],
        );
        assert_eq!(dealt, Some(1));
        assert_eq!(states[1].damage, 1);
        // Armour does not decide whether a hit is scored (L17): 5 points against 2 levels is
        // a hit for no levels.
        let model = ledger_model(a, Fighter { armour: 5, ..b }, 1);
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[-1],
        );
        assert_eq!(dealt, Some(0));
        assert_eq!(states[1].damage, 0);
    }

    #[test]
    fn damage_modifiers_do_not_affect_the_chance_of_scoring_a_hit() {
        // L17: "Note that damage modifiers do not affect the chance of scoring a hit, since
        // they are not applied unless a hit is scored."
        let a = fighter(WeaponKind::Melee, 10);
        let b = Fighter {
            armour: 0,
            ..fighter(WeaponKind::Melee, 3)
        };
        let model = ledger_model(a, b, 1);
        // Roll 0 + 3 = 3 against a dodge of 1 + 3 = 4: dodged, whatever the +10.
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(0, 1)],
            &[0, 1],
        );
        assert_eq!(dealt, None);
        assert_eq!(states[1].damage, 0);
        // Undefended with Melee 0: roll -2 is an outcome of -2: no base damage, no hit, +10 or not.
        let model = ledger_model(Fighter { melee: 0, ..a }, b, 1);
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[-2],
        );
        assert_eq!(dealt, None);
        assert_eq!(states[1].damage, 0);
    }

    #[test]
    fn a_new_wound_is_added_to_the_existing_damage() {
        // L19: "If you are already injured and are wounded again, the damage is added to your
        // existing damage." L57: "Bob previously had 3 levels of damage; he now has 5." (the
        // text's example does not add plainly: `rules.repeat_wound_reduction` reads it).
        let a = fighter(WeaponKind::Melee, 3);
        let b = fighter(WeaponKind::Melee, 3);
        // Roll -2 + 3 = 1, undefended: 1 + 3 - 1 armour = 3 levels on a fighter who has 3.
        let plain = ledger_model_with(
            a,
            b,
            Rules {
                repeat_wound_reduction: Ranged::new(0),
                ..Rules::default()
            },
            1,
        );
        let (dealt, states) = ledger_strike(
            &plain,
            Side::A,
            [0, 3],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[-2],
        );
        assert_eq!((dealt, states[1].damage), (Some(3), 6), "L19 alone: 3 + 3");
        let example = ledger_model(a, b, 1);
        let (dealt, states) = ledger_strike(
            &example,
            Side::A,
            [0, 3],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[-2],
        );
        assert_eq!(
            (dealt, states[1].damage),
            (Some(3), 5),
            "L57: 3 then 3 is 5"
        );
    }

    #[test]
    fn a_one_level_wound_on_an_injured_fighter_still_adds_a_level() {
        // L19: "If you are already injured and are wounded again, the damage is added to your
        // existing damage."
        // With `rules.repeat_wound_reduction` (1) a wound after the first adds its damage less 1
        // (the example's 3 + 3 -> 5, L57), but at least one level: a wound of 1 does not vanish.
        let a = fighter(WeaponKind::Unarmed, 0);
        let b = fighter(WeaponKind::Melee, 3); // 1 point of armour
        let model = ledger_model(a, b, 1);
        // Roll -1 + 3 = 2, undefended, no bonus, 1 armour: 1 level on a Light (2) fighter.
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 2],
            [ledger_plan(1, 0), ledger_plan(0, 0)],
            &[-1],
        );
        assert_eq!(dealt, Some(1));
        assert_eq!(states[1].damage, 3, "2 + 1: Moderate");
    }

    #[test]
    fn negligible_wounds_are_cosmetic_no_penalty() {
        // L25: "1) Negligible: Cosmetic damage only."
        assert_eq!(
            ledger_penalties_at(1),
            [0, 0, 0],
            "attack, dodge, Physique check"
        );
    }

    #[test]
    fn light_wounds_take_1_from_all_rolls() {
        // L26: "2) Light: -1 to all rolls."
        assert_eq!(
            ledger_penalties_at(2),
            [1, 1, 1],
            "attack, dodge, Physique check"
        );
    }

    #[test]
    fn moderate_wounds_take_1_from_all_other_rolls() {
        // L27: "3) Moderate: -2 to move; -1 to all other rolls." (the move part: item 3)
        assert_eq!(
            ledger_penalties_at(3),
            [1, 1, 1],
            "attack, dodge, Physique check"
        );
    }

    #[test]
    fn serious_wounds_take_2_from_all_rolls() {
        // L28: "4) Serious: -2 to all rolls; cannot run." (cannot run: item 3)
        assert_eq!(
            ledger_penalties_at(4),
            [2, 2, 2],
            "attack, dodge, Physique check"
        );
    }

    #[test]
    fn critical_wounds_take_3_from_all_rolls() {
        // L29: "5) Critical: -3 to all rolls"; L49: "suffers -3 to all actions".
        assert_eq!(
            ledger_penalties_at(5),
            [3, 3, 3],
            "attack, dodge, Physique check"
        );
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
        assert_eq!(tally.hit_damage.bins()[5], 1, "{story}");
        assert!(!story.contains("a withdraws out of melee range"), "{story}");
        assert_eq!(tally.ends, [0, 0, 1]);
        // The same turn with a check of 1 + 3 - 3 = 1: a withdraws.
        let (_, story) = ledger_duel(&model, ledger_fudge(&[0, 1, 3, 0, 1]));
        assert!(story.contains("a withdraws out of melee range"), "{story}");
    }

    #[test]
    fn a_terminal_fighter_takes_no_action_and_is_out_of_the_fight() {
        // L30: "6) Terminal: Actions not possible." (dodges later in the turn: item 2)
        let model = ledger_model(
            fighter(WeaponKind::Melee, 3),
            fighter(WeaponKind::Melee, 3),
            3,
        );
        // Initiative a 4, b 3. a rolls 1: 4 undefended + 3 - 1 = 6: b is Terminal and makes
        // no attack (no die is left for one); the duel ends with the turn: a wins, b lives.
        let (tally, story) = ledger_duel(&model, ledger_fudge(&[1, 0, 1]));
        assert_eq!(tally.hit_damage.bins()[6], 1, "{story}");
        assert_eq!(tally.ends, [1, 0, 0], "{story}");
        assert_eq!(tally.dead, [0, 0], "{story}");
        assert_eq!(tally.rounds.bins()[1], 1);
    }

    #[test]
    fn a_mortal_wound_kills_at_the_end_of_the_turn() {
        // L31: "7) Mortal: Die at the end of the turn." L63: "Bob drops to the ground, dead."
        let model = ledger_model(
            fighter(WeaponKind::Melee, 3),
            fighter(WeaponKind::Melee, 3),
            3,
        );
        // Initiative a 4, b 3. a rolls 2: 5 undefended + 3 - 1 = 7: Mortal; b does not act,
        // and is dead when the turn ends.
        let (tally, story) = ledger_duel(&model, ledger_fudge(&[1, 0, 2]));
        assert_eq!(tally.hit_damage.bins()[7], 1, "{story}");
        assert_eq!(tally.ends, [1, 0, 0], "{story}");
        assert_eq!(tally.dead, [0, 1], "{story}");
        assert_eq!(tally.rounds.bins()[1], 1);
    }

    #[test]
    fn terminal_checks_physique_every_minute_and_a_failure_drops_to_mortal() {
        // L30: "6) Terminal: ... Physique checks every minute; on failure, drop to Mortal."
        // L31: "7) Mortal: Die ..."
        let healing = Healing {
            help_minutes: Ranged::new(60),
            horizon_days: Ranged::new(1),
            ..Healing::default()
        };
        let model = WoundLevels::new(
            [fighter(WeaponKind::Melee, 3); 2],
            ["a".into(), "b".into()],
            Rules::default(),
            healing,
            1,
        );
        // Minutes 1 and 2 hold (2 + 3 - 3 = 2); minute 3 fails (-4 + 3 - 3): Mortal: dead,
        // long before the hour when help comes (an hourly clock would check once and hold).
        let mut dice = script(&[2, 2, -4]);
        let mut terminal = false;
        let r = model.aftermath(Side::B, 6, &mut dice, &mut NoLog, &mut terminal);
        assert!(dice.finish().is_ok());
        assert_eq!(dice.used(), 12, "three checks of four dice");
        assert!(r.died && terminal);
    }

    #[test]
    fn a_critical_success_wins_initiative_even_with_the_lower_total() {
        // L59: "Bob ends up with an initiative of 3 ... Adam rolls a 4 and scores a critical
        // success; he wins initiative." (In the example Adam's total, 4 + 3 - 3 = 4, beats 3
        // anyway; here the critical success has the lower total.)
        let a = fighter(WeaponKind::Melee, 3);
        let b = Fighter {
            initiative: -3,
            ..fighter(WeaponKind::Melee, 3)
        };
        let model = ledger_model(a, b, 1);
        // a: 0 + 3 = 3; b: 4 - 3 = 1, a critical success: b acts first. Both attacks roll -3:
        // 0, undefended: misses.
        let (tally, story) = ledger_duel(&model, ledger_fudge(&[0, 4, -3, -3]));
        crate::log::assert_in_order(&story, &["b attacks:", "a attacks:"]);
        assert_eq!(tally.ends, [0, 0, 1]);
    }

    #[test]
    fn initiative_tie_is_broken_by_a_d2_1_for_a_2_for_b() {
        // Item 7. The text has no tie rule (assumptions: "Ties in initiative: A d2.").
        let model = ledger_model(
            fighter(WeaponKind::Melee, 3),
            fighter(WeaponKind::Melee, 3),
            1,
        );
        for (initiative, d2, order) in [
            // 1 + 3 = 4 each: a tie; the d2 decides.
            ([1, 1], Some(1), ["a attacks:", "b attacks:"]),
            ([1, 1], Some(2), ["b attacks:", "a attacks:"]),
            // Two critical successes with equal totals (7 each): still a tie, still the d2.
            ([4, 4], Some(2), ["b attacks:", "a attacks:"]),
            ([4, 4], Some(1), ["a attacks:", "b attacks:"]),
            // No tie: no d2 is rolled (a die left over would fail the script check).
            ([1, 0], None, ["a attacks:", "b attacks:"]),
            ([-1, 0], None, ["b attacks:", "a attacks:"]),
        ] {
            let mut dice = ledger_fudge(&initiative);
            dice.extend(d2);
            // Both attacks roll -3: 0, undefended: misses; nobody is hurt.
            dice.extend(ledger_fudge(&[-3, -3]));
            let (tally, story) = ledger_duel(&model, dice);
            crate::log::assert_in_order(&story, &order);
            assert_eq!(tally.ends, [0, 0, 1], "{story}");
        }
    }

    #[test]
    fn multiple_attacks_take_a_penalty_equal_to_the_total_number_of_actions() {
        // L39: "He could attack multiple times with a penalty equal to his total number of
        // actions". L43: "he must apply a -2 penalty because he is taking two actions".
        let model = ledger_model(
            fighter(WeaponKind::Melee, 3),
            fighter(WeaponKind::Melee, 3),
            1,
        );
        let busy = Plan {
            attacks: 2,
            dodges: 1,
            ..Plan::default()
        };
        // Two attacks and a dodge are 3 actions: roll 1 + 3 - 3 = 1, undefended: 1 + 3 - 1 = 3
        // (with -2 it would be 4).
        let (dealt, _) = ledger_strike(&model, Side::A, [0, 0], [busy, ledger_plan(0, 0)], &[1]);
        assert_eq!(dealt, Some(3));
        // Its dodge takes -3 too: b rolls 0: 3; a dodges 2 + 3 - 3 = 2: margin 1: 1 + 3 - 1 = 3
        // (with -2 the dodge would be 3 and hold).
        let (dealt, _) = ledger_strike(&model, Side::B, [0, 0], [busy, ledger_plan(1, 0)], &[0, 2]);
        assert_eq!(dealt, Some(3));
    }

    #[test]
    fn a_dodge_above_the_outcome_avoids_the_hit_and_two_actions_take_2_from_it() {
        // L43: "He rolls a 2, and adds +3 ... for a total of 5. Bob rolls a 3 on his dodge, and
        // adds +3 ... giving him a 6. He would successfully dodge, but he must apply a -2
        // penalty because he is taking two actions, so his final result is 4. Adam hits, but
        // just barely (... 5 - ... 4 = 1)." L45: 1 + 3 - 1 armour = 3.
        let model = ledger_model(
            fighter(WeaponKind::Melee, 3),
            fighter(WeaponKind::Melee, 3),
            1,
        );
        // b's only action is the dodge: 6 against 5: dodged.
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(0, 1)],
            &[2, 3],
        );
        assert_eq!((dealt, states[1].damage), (None, 0));
        // b also attacks: two actions: 6 - 2 = 4: hit by 1: 3 levels.
        let (dealt, states) = ledger_strike(
            &model,
            Side::A,
            [0, 0],
            [ledger_plan(1, 0), ledger_plan(1, 1)],
            &[2, 3],
        );
        assert_eq!((dealt, states[1].damage), (Some(3), 3));
    }

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
        assert_eq!(tally.hit_damage.bins()[3], 1, "{story}");
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
        let plan = model.declare(Side::B, &[State::default(); 2], false);
        assert_eq!((plan.attacks, plan.close), (0, true));
        // A whole turn out of range: initiative only, no attack roll.
        let (tally, story) = ledger_duel(&model, ledger_fudge(&[1, 0]));
        assert!(!story.contains("attacks:"), "{story}");
        assert_eq!(tally.ends, [0, 0, 1]);
    }

    #[test]
    fn a_thrown_away_weapon_leaves_its_thrower_unarmed() {
        // Assumptions, "Thrown weapons": "the thrower is unarmed after" (L61-L63 throw the
        // knife; the text does not say what the thrower fights with next).
        let mut a = fighter(WeaponKind::Melee, 3); // knife +3; unarmed +1
        a.throwable = true;
        let model = ledger_model(a, fighter(WeaponKind::Melee, 3), 1);
        let mut states = [
            State {
                thrown: true,
                ..State::default()
            },
            State::default(),
        ];
        let mut dice = script(&[1]);
        // Roll 1 + Melee 3 = 4, undefended; the unarmed bonus 1, not the knife's 3; armour 1.
        let dealt = model.attack(
            Side::A,
            &[ledger_plan(1, 0), ledger_plan(0, 0)],
            &mut [0, 0],
            &mut states,
            true,
            &mut dice,
            &mut NoLog,
        );
        assert!(dice.finish().is_ok());
        assert_eq!(dealt, Some(4));
    }

    #[test]
    fn full_auto_from_a_very_large_clip_empties_only_half_of_it() {
        // "If he had a very large clip, he might be able to fire on full auto while emptying only
        // half the clip." A 60-round clip (`rules.large_clip_from`) keeps 30 after a burst of
        // full auto; the example's 15-round clip empties.
        let mut model = bob_and_adam(Healing::default());
        let mut plans = [Plan::default(); 2];
        plans[0].attacks = 1;
        for (clip, left) in [(60, 30), (15, 0)] {
            model.fighters[0].clip = clip;
            let mut states = [State::default(); 2];
            states[0].ammo = clip;
            let mut dice = script(&[0]);
            model.attack(
                Side::A,
                &plans,
                &mut [0, 0],
                &mut states,
                true,
                &mut dice,
                &mut NoLog,
            );
            assert_eq!(states[0].ammo, left, "clip {clip}");
        }
    }
}
