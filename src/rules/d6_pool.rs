//! The `d6-pool` ruleset: a pool of d6 to attack (the average of ATTACK and WEAPON skill, the
//! Throw Bonus, Berserk, Defensively, Luck dice), the highest-die attack table (whiff, damage,
//! Stun, the 6s needed to block), the defence dice by "the first rule that applies", Critical
//! Strikes and their critical damage dice, and the luck, ammo and heal pools.
//!
//! The rule text (`shared/rules/d6-pool.txt`) is a character sheet: it has no health track, no
//! Critical Damage Table, no healing rule and no fight around the attacks. Each of those is our
//! design, a named parameter listed with the sentence it rests on in `docs/rules/d6-pool.md`.
//! This module owns the ruleset's schema, compiled fighters, duel and healing timeline; it does
//! not read files or run threads.

use crate::dice::Dice;
use crate::log::Log;
use crate::rules::{FirstStrike, Parameter, Ruleset};
use crate::scenario::error::{InputError, Source, unknown_name};
use crate::scenario::fields::{Name, Ranged};
use crate::scenario::schema::ScenarioFile;
use crate::stats::{DuelOutcome, Extra, ExtraKind, Recovery, Side, Tally, TallyShape};
use serde::{Deserialize, Serialize};

/// The id scenarios use.
pub const ID: &str = "d6-pool";

// ---------------------------------------------------------------------------------------------
// Scenario schema
// ---------------------------------------------------------------------------------------------

/// A fighter as the scenario writes it (`[a]`, `[b]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FighterSpec {
    /// Shown in reports and traces; defaults to `a` / `b`.
    pub name: Option<String>,
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
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            damage: [1, 1, 2, 2, 3, 3, 3].map(Ranged::new),
            stun: [false, true, false, true, false, true, true],
            block: [1, 2, 1, 2, 1, 2].map(Ranged::new),
            crit_damage: CritDamage::Add,
            health: Ranged::new(10),
            out_at: Ranged::new(0),
            dead_at: Ranged::new(-5),
            stun_loses_attack: false,
            first_strike: FirstStrike::Random,
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
}

impl Default for Healing {
    fn default() -> Self {
        Healing {
            heal_dice_per_day: Ranged::new(1),
            natural_days_per_point: Ranged::new(0),
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

/// The ruleset's own counts in `summary.csv`.
pub const EXTRAS: &[Extra] = &[
    Extra {
        name: "criticals",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "blocks",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "whiffs",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "stuns",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "luck_spent",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "ammo_spent",
        kind: ExtraKind::MeanPerTrial,
    },
    Extra {
        name: "heal_dice_spent",
        kind: ExtraKind::MeanPerPatient,
    },
];
const EXTRA_CRITICALS: usize = 0;
const EXTRA_BLOCKS: usize = 1;
const EXTRA_WHIFFS: usize = 2;
const EXTRA_STUNS: usize = 3;
const EXTRA_LUCK: usize = 4;
const EXTRA_AMMO: usize = 5;
const EXTRA_HEAL: usize = 6;

// ---------------------------------------------------------------------------------------------
// The attack table
// ---------------------------------------------------------------------------------------------

/// The whiff column: the highest die is 3 or less.
pub const WHIFF: usize = 0;
/// The Critical Strike column: three or more 6s.
pub const CRITICAL: usize = 7;

/// The attack table's columns, in order, for narration.
pub const COLUMNS: [&str; 8] = [
    "3 or less (whiff)",
    "one 4",
    "double 4",
    "one 5",
    "double 5",
    "one 6",
    "double 6",
    "three+ 6s (Critical Strike)",
];

/// The column of a roll, from its counts of 4s, 5s and 6s: the highest die, doubled or not.
/// A lookup by the counts capped where the rule stops telling them apart (three 6s, two of a
/// lower face): the counts are random, so branches on them would be mispredicted often.
#[inline]
pub fn column(fours: u32, fives: u32, sixes: u32) -> usize {
    let index = (sixes.min(3) * 9 + fives.min(2) * 3 + fours.min(2)) as usize;
    usize::from(COLUMN_BY_COUNTS[index])
}

/// [`column`] for every capped count: index `sixes * 9 + fives * 3 + fours`.
const COLUMN_BY_COUNTS: [u8; 36] = {
    let mut table = [0u8; 36];
    let mut i = 0;
    while i < 36 {
        let (sixes, fives, fours) = (i / 9, i / 3 % 3, i % 3);
        table[i] = column_by_rule(fours, fives, sixes) as u8;
        i += 1;
    }
    table
};

/// The column as the rule says it: three 6s are a Critical Strike; otherwise the highest face
/// rolled among 4, 5 and 6, doubled or single.
const fn column_by_rule(fours: usize, fives: usize, sixes: usize) -> usize {
    let (count, single) = if sixes >= 3 {
        return CRITICAL;
    } else if sixes > 0 {
        (sixes, 5)
    } else if fives > 0 {
        (fives, 3)
    } else if fours > 0 {
        (fours, 1)
    } else {
        return WHIFF;
    };
    if count >= 2 { single + 1 } else { single }
}

/// The attack table compiled from `[rules]`: index 0 is the whiff, 7 the Critical Strike.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttackTable {
    /// Damage by column.
    pub damage: [i32; 8],
    /// Whether a hit stuns, by column.
    pub stun: [bool; 8],
    /// 6s needed to block, by column (the Critical Strike's comes from the roll).
    pub block: [u32; 8],
}

impl AttackTable {
    /// The table of a `[rules]` section.
    pub fn new(rules: &Rules) -> Self {
        let mut table = AttackTable {
            damage: [0; 8],
            stun: [false; 8],
            block: [0; 8],
        };
        for c in 1..=CRITICAL {
            table.damage[c] = rules.damage[c - 1].i32();
            table.stun[c] = rules.stun[c - 1];
        }
        for c in 1..CRITICAL {
            table.block[c] = rules.block[c - 1].u32();
        }
        table
    }

    /// 6s the defender needs to block a hit of `column` with `sixes` 6s rolled.
    #[inline]
    pub fn needed(&self, column: usize, sixes: u32) -> u32 {
        if column == CRITICAL {
            sixes
        } else {
            self.block[column]
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Defence: the first rule that applies
// ---------------------------------------------------------------------------------------------

/// What a fighter did on its last turn and whether it is stunned: what the defence rules test.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Standing {
    /// Stunned by the last attack against it (until the next attack against it is resolved).
    pub stunned: bool,
    /// The stance of its last attack (`Normal` when it did not attack).
    pub stance: Stance,
    /// Threw its weapon on its last turn.
    pub threw: bool,
    /// Whiffed on its last turn.
    pub whiffed: bool,
}

/// One rule of the defence list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefenceRule {
    /// "If stunned, only roll ARMOR dice."
    Stunned,
    /// "If you attacked 'berserk' last turn, only roll ARMOR dice to defend."
    Berserk,
    /// "If you attacked 'defensively' last turn, roll ARMOR + SHIELD + PARRY/DODGE."
    Defensive,
    /// "If you threw your weapon last turn, roll ARMOR + SHIELD + PARRY/DODGE."
    Threw,
    /// "If you 'Whiffed' your attack last turn, You lose Parry/DODGE. Roll ARMOR+SHIELD."
    Whiffed,
    /// "None of the above (normal defense roll): Roll ARMOR + SHIELD + PARRY/DODGE."
    Normal,
}

impl DefenceRule {
    /// Whether the rule applies to a fighter standing so.
    #[inline]
    pub fn applies(self, s: &Standing) -> bool {
        match self {
            DefenceRule::Stunned => s.stunned,
            DefenceRule::Berserk => s.stance == Stance::Berserk,
            DefenceRule::Defensive => s.stance == Stance::Defensive,
            DefenceRule::Threw => s.threw,
            DefenceRule::Whiffed => s.whiffed,
            DefenceRule::Normal => true,
        }
    }
}

/// Which of the defender's dice a rule lets it roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DefenceDice {
    /// ARMOR dice.
    pub armor: bool,
    /// SHIELD dice.
    pub shield: bool,
    /// PARRY/DODGE dice.
    pub parry: bool,
}

const ARMOR_ONLY: DefenceDice = DefenceDice {
    armor: true,
    shield: false,
    parry: false,
};
const ARMOR_SHIELD: DefenceDice = DefenceDice {
    armor: true,
    shield: true,
    parry: false,
};
const ALL_DICE: DefenceDice = DefenceDice {
    armor: true,
    shield: true,
    parry: true,
};

/// The defence rules in the text's order: the first that applies decides the dice.
pub const DEFENCE_RULES: [(DefenceRule, DefenceDice); 6] = [
    (DefenceRule::Stunned, ARMOR_ONLY),
    (DefenceRule::Berserk, ARMOR_ONLY),
    (DefenceRule::Defensive, ALL_DICE),
    (DefenceRule::Threw, ALL_DICE),
    (DefenceRule::Whiffed, ARMOR_SHIELD),
    (DefenceRule::Normal, ALL_DICE),
];

/// The first defence rule that applies to a fighter standing so, with the dice it allows.
#[inline]
pub fn defence_rule(s: &Standing) -> (DefenceRule, DefenceDice) {
    DEFENCE_RULES
        .iter()
        .find(|(rule, _)| rule.applies(s))
        .copied()
        .unwrap_or((DefenceRule::Normal, ALL_DICE))
}

// ---------------------------------------------------------------------------------------------
// Compiled model
// ---------------------------------------------------------------------------------------------

/// A weapon in a fighter's hand, compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weapon {
    /// Attack dice with it: (ATTACK + WEAPON skill) / 2, rounded down.
    pub dice: u32,
    /// Critical damage dice its class adds.
    pub class_dice: u32,
    /// Its Crit Bonus.
    pub crit_bonus: i32,
    /// Thrown (it has a Throw Bonus) rather than shot or swung.
    pub thrown: bool,
    /// Its Throw Bonus (0 when not thrown).
    pub throw_bonus: u32,
}

/// One fighter, compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fighter {
    /// The melee weapon.
    pub melee: Weapon,
    /// The missile, used while ammunition lasts.
    pub missile: Option<Weapon>,
    /// Ammunition at the start.
    pub ammo: u32,
    /// ARMOR dice.
    pub armor: u32,
    /// SHIELD dice.
    pub shield: u32,
    /// PARRY/DODGE dice.
    pub parry: u32,
    /// Full health.
    pub health: i32,
    /// Luck dice at the start.
    pub luck: u32,
    /// Heal dice at the start.
    pub heal: u32,
    /// The declared stance.
    pub stance: Stance,
    /// Luck dice declared per attack.
    pub luck_per_attack: u32,
    /// Luck dice are declared only at this health or below.
    pub luck_at_health: i32,
}

impl Fighter {
    /// The defence dice a rule allows this fighter.
    #[inline]
    pub fn defence_dice(&self, allowed: DefenceDice) -> u32 {
        u32::from(allowed.armor) * self.armor
            + u32::from(allowed.shield) * self.shield
            + u32::from(allowed.parry) * self.parry
    }
}

/// A fighter's state during the duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Current health.
    pub health: i32,
    /// Luck dice left.
    pub luck: u32,
    /// Ammunition left.
    pub ammo: u32,
    /// What the defence rules look at.
    pub standing: Standing,
}

impl State {
    /// A fighter's state at the start of the duel.
    pub fn start(f: &Fighter) -> Self {
        State {
            health: f.health,
            luck: f.luck,
            ammo: f.ammo,
            standing: Standing::default(),
        }
    }
}

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

/// A compiled d6-pool point.
#[derive(Clone, Debug)]
pub struct D6Pool {
    /// The fighters, `a` then `b`.
    pub fighters: [Fighter; 2],
    /// Their names, for narration.
    pub names: [String; 2],
    /// The rules as set.
    pub rules: Rules,
    /// The attack table compiled from the rules.
    pub table: AttackTable,
    /// The healing settings.
    pub healing: Healing,
    /// Rounds before a draw.
    pub round_limit: u32,
}

/// Rolls `n` d6 and counts the 4s, 5s and 6s (an exact walk takes the distinct counts).
#[inline]
fn roll_counts<D: Dice>(dice: &mut D, n: u32, label: &'static str) -> [u32; 3] {
    dice.count_faces::<3>(n, 6, label)
}

impl D6Pool {
    /// Builds a point from compiled fighters and settings.
    pub fn new(
        fighters: [Fighter; 2],
        names: [String; 2],
        rules: Rules,
        healing: Healing,
        round_limit: u32,
    ) -> Self {
        D6Pool {
            fighters,
            names,
            table: AttackTable::new(&rules),
            rules,
            healing,
            round_limit,
        }
    }

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
        let mut fighters = [None, None];
        for side in Side::BOTH {
            let spec = file.fighter(side);
            let key = side.key();
            let (melee, armour) = file.equipment(side, source)?;
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
                        let known: Vec<&str> = file.weapons.keys().map(String::as_str).collect();
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
                    if let Some((field, span)) = stray.into_iter().find_map(|(f, s)| Some((f, s?)))
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
            fighters[side.index()] = Some(Fighter {
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
        }
        let [Some(a), Some(b)] = fighters else {
            return Err(source.error_at(None, None, "both fighters are needed"));
        };
        Ok(D6Pool::new(
            [a, b],
            [file.fighter_name(Side::A), file.fighter_name(Side::B)],
            rules.clone(),
            file.healing.clone(),
            file.round_limit.u32(),
        ))
    }

    /// One attack of `attacker` on the other fighter: the weapon (the missile while ammunition
    /// lasts), the Luck dice, the attack dice, the column, the defence roll by the first rule
    /// that applies, the block, the critical damage dice, the damage and the stun.
    pub fn attack<D: Dice, L: Log>(
        &self,
        attacker: Side,
        states: &mut [State; 2],
        dice: &mut D,
        log: &mut L,
    ) -> Attack {
        let (ai, di) = (attacker.index(), attacker.other().index());
        let me = &self.fighters[ai];
        let foe = &self.fighters[di];
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
        let skill = roll_counts(dice, base, "d6 (attack)");
        let luck = roll_counts(dice, out.luck, "d6 (luck, rolled with the attack)");
        let [fours, fives, sixes] = [0, 1, 2].map(|i| skill[i] + luck[i]);
        out.sixes = sixes;
        out.column = column(fours, fives, sixes);
        log.say(|| {
            format!(
                "{} {} with {} dice ({}{}{}): 4s {fours}, 5s {fives}, 6s {sixes}: {}",
                self.names[ai],
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
                    format!(", {} Luck dice, {} left", out.luck, states[ai].luck)
                } else {
                    String::new()
                },
                COLUMNS[out.column]
            )
        });

        // The defender's standing as this attack finds it; its stun ends with this attack.
        let standing = states[di].standing;
        states[di].standing.stunned = false;
        // The attacker's last turn, for its own next defence.
        states[ai].standing = Standing {
            stunned: states[ai].standing.stunned,
            stance: me.stance,
            threw,
            whiffed: out.column == WHIFF,
        };
        if out.column == WHIFF {
            // What the whiff costs depends on the first defence rule that applies to its next
            // defence: a defensive stance or a throw keeps the PARRY/DODGE dice.
            let (rule, _) = defence_rule(&states[ai].standing);
            log.say(|| {
                let (me, foe) = (&self.names[ai], &self.names[di]);
                match rule {
                    DefenceRule::Whiffed => format!(
                        "  a whiff: {me} loses its PARRY/DODGE dice when {foe} attacks back"
                    ),
                    DefenceRule::Defensive => format!(
                        "  a whiff: {me} attacked defensively, so it keeps its PARRY/DODGE dice when {foe} attacks back"
                    ),
                    DefenceRule::Threw => format!(
                        "  a whiff: {me} threw its weapon, so it keeps its PARRY/DODGE dice when {foe} attacks back"
                    ),
                    DefenceRule::Berserk => format!(
                        "  a whiff: {me} attacked berserk: only its ARMOR dice when {foe} attacks back"
                    ),
                    DefenceRule::Stunned => format!(
                        "  a whiff: {me} is stunned: only its ARMOR dice when {foe} attacks back"
                    ),
                    DefenceRule::Normal => format!(
                        "  a whiff: {me} keeps its PARRY/DODGE dice when {foe} attacks back"
                    ),
                }
            });
            return out;
        }

        let needed = self.table.needed(out.column, sixes);
        let (rule, allowed) = defence_rule(&standing);
        out.defence_dice = foe.defence_dice(allowed);
        // Only the 6s block.
        let [blocks] = dice.count_faces::<1>(out.defence_dice, 6, "d6 (defence)");
        out.defence_sixes = blocks;
        out.blocked = blocks >= needed;
        log.say(|| {
            format!(
                "  {} defends with {} dice ({rule:?}: ARMOR {}{}{}): 6s {blocks} of {needed} needed: {}",
                self.names[di],
                out.defence_dice,
                foe.armor,
                if allowed.shield { format!(" + SHIELD {}", foe.shield) } else { String::new() },
                if allowed.parry { format!(" + PARRY/DODGE {}", foe.parry) } else { String::new() },
                if out.blocked { "blocked" } else { "the hit connects" }
            )
        });
        if out.blocked {
            return out;
        }

        out.damage = self.table.damage[out.column];
        if out.column == CRITICAL {
            out.critical_dice = (sixes + weapon.class_dice).saturating_sub(out.defence_dice);
            // The dice are summed: how many show each face is all that matters.
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
        out.stunned = self.table.stun[out.column];
        states[di].standing.stunned |= out.stunned;
        states[di].health -= out.damage;
        log.say(|| {
            format!(
                "  {} takes {} damage: health {}{}",
                self.names[di],
                out.damage,
                states[di].health,
                if out.stunned { ", stunned" } else { "" }
            )
        });
        out
    }

    /// The heal dice after the fight: each day up to `heal_dice_per_day` dice from the pool,
    /// each restoring its roll, while below full health; then natural healing if set. Returns
    /// the timeline and the heal dice spent.
    pub fn recover<D: Dice, L: Log>(
        &self,
        side: Side,
        mut health: i32,
        mut pool: u32,
        dice: &mut D,
        log: &mut L,
    ) -> (Recovery, u32) {
        let name = &self.names[side.index()];
        let full = self.fighters[side.index()].health;
        let per_day = self.healing.heal_dice_per_day.u32();
        let horizon = self.healing.horizon_days.u32();
        let natural = self.healing.natural_days_per_point.u32();
        log.say(|| format!("{name} recovers from health {health} of {full} with {pool} heal dice"));
        let mut day = 0;
        let mut spent = 0;
        while health < full && pool > 0 && day < horizon && !dice.exhausted() {
            day += 1;
            let mut today = 0;
            while today < per_day && pool > 0 && health < full {
                health += dice.d(6, "d6 (heal die)") as i32;
                pool -= 1;
                today += 1;
            }
            spent += today;
            log.say(|| {
                format!(
                    "day {day}: {today} heal dice: health {}, {pool} heal dice left",
                    health.min(full)
                )
            });
        }
        let whole_on = if health >= full {
            Some(day)
        } else if natural > 0 {
            let (days, deficit) = (
                natural.saturating_mul((full - health) as u32),
                full - health,
            );
            log.say(|| {
                format!("the heal dice are spent: {deficit} points of natural healing, {natural} days each")
            });
            Some(day.saturating_add(days)).filter(|&d| d <= horizon)
        } else {
            None
        };
        match whole_on {
            Some(d) => log.say(|| format!("{name} is whole after {d} days")),
            None => log.say(|| format!("{name} is not whole at the horizon ({horizon} days)")),
        }
        (
            Recovery {
                days_to_whole: whole_on,
                died: false,
                impairment: 0,
            },
            spent,
        )
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
        let mut states = [
            State::start(&self.fighters[0]),
            State::start(&self.fighters[1]),
        ];
        let out_at = self.rules.out_at.i32();
        let first = self.rules.first_strike.roll(dice);
        log.say(|| format!("{} strikes first", self.names[first.index()]));
        let mut winner = None;
        let mut rounds = 0;
        'duel: for round in 1..=self.round_limit {
            rounds = round;
            log.say(|| format!("round {round}"));
            for actor in [first, first.other()] {
                if dice.exhausted() {
                    break 'duel;
                }
                let i = actor.index();
                if self.rules.stun_loses_attack && states[i].standing.stunned {
                    log.say(|| format!("{} is stunned and loses its attack", self.names[i]));
                    states[i].standing = Standing {
                        stunned: true,
                        ..Standing::default()
                    };
                    continue;
                }
                let attack = self.attack(actor, &mut states, dice, log);
                tally.record_hit(attack.damage.max(0) as u32, attack.column != WHIFF);
                tally.record_extra(EXTRA_CRITICALS, u64::from(attack.column == CRITICAL));
                tally.record_extra(EXTRA_BLOCKS, u64::from(attack.blocked));
                tally.record_extra(EXTRA_WHIFFS, u64::from(attack.column == WHIFF));
                tally.record_extra(EXTRA_STUNS, u64::from(attack.stunned));
                tally.record_extra(EXTRA_LUCK, u64::from(attack.luck));
                tally.record_extra(EXTRA_AMMO, u64::from(attack.missile));
                let foe = actor.other().index();
                if states[foe].health <= out_at {
                    log.say(|| {
                        format!(
                            "{} is out of the fight at health {}: {} wins",
                            self.names[foe], states[foe].health, self.names[i]
                        )
                    });
                    winner = Some(actor);
                    break 'duel;
                }
            }
        }
        if winner.is_none() && !dice.exhausted() {
            log.say(|| format!("the round limit ({}) is reached: a draw", self.round_limit));
        }
        let dead_at = self.rules.dead_at.i32();
        let dead = states.map(|s| s.health <= dead_at);
        for side in Side::BOTH {
            if dead[side.index()] {
                log.say(|| {
                    format!(
                        "{} is dead at health {}",
                        self.names[side.index()],
                        states[side.index()].health
                    )
                });
            }
        }
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead,
        });
        for side in Side::BOTH {
            let i = side.index();
            if !dead[i] && states[i].health < self.fighters[i].health {
                let heal = self.fighters[i].heal;
                let (recovery, spent) = self.recover(side, states[i].health, heal, dice, log);
                tally.record_recovery(side, &recovery);
                tally.record_extra(EXTRA_HEAL, u64::from(spent));
            }
        }
    }
}

/// One exchange for exact tables: `attack`, the very attack the duel rolls, from fighters at
/// the start of the duel; its outcome is the hit (a whiff, blocked, a hit or a Critical
/// Strike), the damage dealt, and whether it stunned.
impl crate::exact::Exchange for D6Pool {
    const UNIT: &'static str = "damage";
    const RESULTS: &'static [&'static str] = &["whiff", "blocked", "hit", "Critical Strike"];
    const MISSES: usize = 2;

    fn exchange<D: Dice>(&self, attacker: Side, dice: &mut D) -> crate::exact::Outcome {
        let mut states = self.fighters.map(|f| State::start(&f));
        let attack = self.attack(attacker, &mut states, dice, &mut crate::log::NoLog);
        let result = match (attack.column, attack.blocked) {
            (WHIFF, _) => "whiff",
            (_, true) => "blocked",
            (CRITICAL, _) => "Critical Strike",
            _ => "hit",
        };
        crate::exact::Outcome {
            result,
            value: attack.damage.max(0) as u32,
            kind: match (attack.hit(), attack.stunned) {
                (false, _) => "",
                (true, true) => "stunned",
                (true, false) => "not stunned",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{FastDice, ScriptedDice};
    use crate::log::{NoLog, VecLog};

    const MELEE: Weapon = Weapon {
        dice: 3,
        class_dice: 0,
        crit_bonus: 0,
        thrown: false,
        throw_bonus: 0,
    };

    /// Three attack dice; ARMOR 1, SHIELD 1, PARRY/DODGE 1; health 10.
    fn fighter() -> Fighter {
        Fighter {
            melee: MELEE,
            missile: None,
            ammo: 0,
            armor: 1,
            shield: 1,
            parry: 1,
            health: 10,
            luck: 0,
            heal: 0,
            stance: Stance::Normal,
            luck_per_attack: 0,
            luck_at_health: i32::MAX,
        }
    }

    /// A defender with no defence dice: nothing is ever blocked.
    fn bare() -> Fighter {
        Fighter {
            armor: 0,
            shield: 0,
            parry: 0,
            ..fighter()
        }
    }

    fn model(a: Fighter, b: Fighter) -> D6Pool {
        model_with(a, b, Rules::default(), Healing::default())
    }

    fn model_with(a: Fighter, b: Fighter, rules: Rules, healing: Healing) -> D6Pool {
        D6Pool::new([a, b], ["a".into(), "b".into()], rules, healing, 20)
    }

    fn start(m: &D6Pool) -> [State; 2] {
        [State::start(&m.fighters[0]), State::start(&m.fighters[1])]
    }

    /// `side` attacks with exactly these dice (all must be used).
    fn attack_by(m: &D6Pool, side: Side, states: &mut [State; 2], dice: &[u32]) -> Attack {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let attack = m.attack(side, states, &mut scripted, &mut log);
        assert!(
            scripted.finish().is_ok(),
            "{:?} {:?}",
            scripted.error(),
            log.lines
        );
        assert_eq!(
            scripted.used(),
            dice.len(),
            "dice left over: {:?}",
            log.lines
        );
        attack
    }

    /// `a` attacks `b` from the start of the duel.
    fn a_attacks(m: &D6Pool, dice: &[u32]) -> (Attack, [State; 2]) {
        let mut states = start(m);
        let attack = attack_by(m, Side::A, &mut states, dice);
        (attack, states)
    }

    #[test]
    fn the_attack_table_columns_are_the_highest_die_single_or_doubled() {
        for ((fours, fives, sixes), expected) in [
            ((0, 0, 0), WHIFF),
            ((1, 0, 0), 1),
            ((2, 0, 0), 2),
            ((3, 0, 0), 2),
            ((2, 1, 0), 3),
            ((0, 2, 0), 4),
            ((3, 3, 0), 4),
            ((4, 4, 1), 5),
            ((0, 0, 2), 6),
            ((0, 0, 3), CRITICAL),
            ((1, 1, 5), CRITICAL),
        ] {
            assert_eq!(
                column(fours, fives, sixes),
                expected,
                "4s {fours} 5s {fives} 6s {sixes}"
            );
        }
    }

    #[test]
    fn the_column_lookup_is_the_rule_for_every_count() {
        for fours in 0..8 {
            for fives in 0..8 {
                for sixes in 0..8 {
                    assert_eq!(
                        column(fours, fives, sixes),
                        column_by_rule(fours as usize, fives as usize, sixes as usize),
                        "{fours} 4s, {fives} 5s, {sixes} 6s"
                    );
                }
            }
        }
        assert_eq!(column(0, 0, 0), WHIFF);
        assert_eq!(column(5, 0, 3), CRITICAL);
        assert_eq!(column(2, 1, 0), 3);
    }

    #[test]
    fn each_column_deals_its_damage_and_the_doubles_stun() {
        let m = model(fighter(), bare());
        // Three attack dice against no defence dice; the Critical Strike (class A, Crit Bonus 0)
        // rolls its three 6s as critical dice: 2 + 3 + 4 = 9, + the column's 3 = 12.
        for (roll, col, damage, stun) in [
            (vec![1, 2, 3], WHIFF, 0, false),
            (vec![4, 1, 3], 1, 1, false),
            (vec![4, 4, 2], 2, 1, true),
            (vec![5, 4, 4], 3, 2, false),
            (vec![5, 5, 1], 4, 2, true),
            (vec![6, 5, 5], 5, 3, false),
            (vec![6, 6, 5], 6, 3, true),
            (vec![6, 6, 6, 2, 3, 4], CRITICAL, 12, true),
        ] {
            let (attack, states) = a_attacks(&m, &roll);
            assert_eq!(attack.column, col, "{roll:?}");
            assert_eq!(attack.damage, damage, "{roll:?}");
            assert_eq!(attack.stunned, stun, "{roll:?}");
            assert_eq!(states[1].standing.stunned, stun, "{roll:?}");
            assert_eq!(states[1].health, 10 - damage, "{roll:?}");
            assert_eq!(attack.hit(), col != WHIFF);
        }
    }

    #[test]
    fn each_column_is_blocked_by_its_number_of_sixes() {
        // The defender rolls its three dice (ARMOR + SHIELD + PARRY/DODGE).
        let m = model(fighter(), fighter());
        for (roll, needed) in [
            ([4, 1, 1], 1),
            ([4, 4, 1], 2),
            ([5, 1, 1], 1),
            ([5, 5, 1], 2),
            ([6, 1, 1], 1),
            ([6, 6, 1], 2),
        ] {
            let enough = [6u32; 3];
            let mut blocking = vec![1u32; 3];
            blocking[..needed].copy_from_slice(&enough[..needed]);
            let (attack, states) = a_attacks(&m, &[&roll[..], &blocking].concat());
            assert!(attack.blocked, "{roll:?} blocked by {needed} 6s");
            assert_eq!((attack.damage, states[1].health), (0, 10));
            assert!(
                !states[1].standing.stunned,
                "a blocked double does not stun"
            );
            let mut short = vec![1u32; 3];
            short[..needed - 1].copy_from_slice(&enough[..needed - 1]);
            let (attack, _) = a_attacks(&m, &[&roll[..], &short].concat());
            assert!(!attack.blocked, "{roll:?} not blocked by {} 6s", needed - 1);
            assert_eq!(m.table.needed(attack.column, attack.sixes), needed as u32);
        }
    }

    #[test]
    fn a_critical_is_blocked_only_by_as_many_sixes_as_the_attacker_rolled() {
        let c = Fighter {
            melee: Weapon {
                dice: 4,
                class_dice: 1,
                crit_bonus: 2,
                ..MELEE
            },
            ..fighter()
        };
        let m = model(c, fighter());
        // Four 6s: the defender's three dice cannot block even with three 6s.
        // Critical dice: 4 6s + 1 (C) - 3 defence dice = 2: 5 + 4 = 9, + Crit Bonus 2, + 3 = 14.
        let (attack, states) = a_attacks(&m, &[6, 6, 6, 6, 6, 6, 6, 5, 4]);
        assert!(!attack.blocked);
        assert_eq!((attack.critical_dice, attack.damage), (2, 14));
        assert_eq!(states[1].health, -4);
        // Three 6s and three 6s to block: blocked, no critical damage dice.
        let (attack, states) = a_attacks(&m, &[6, 6, 6, 1, 6, 6, 6]);
        assert!(attack.blocked);
        assert_eq!((attack.critical_dice, states[1].health), (0, 10));
    }

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
    fn the_defence_rules_apply_in_order_the_first_that_applies() {
        let f = Fighter {
            armor: 2,
            shield: 3,
            parry: 4,
            ..fighter()
        };
        let s = |stunned, stance, threw, whiffed| Standing {
            stunned,
            stance,
            threw,
            whiffed,
        };
        use DefenceRule::*;
        use Stance::{Berserk as B, Defensive as D, Normal as N};
        for (standing, rule, dice) in [
            // Stunned comes first, whatever else holds.
            (s(true, D, true, true), Stunned, 2),
            (s(true, N, false, false), Stunned, 2),
            // Berserk before the rest.
            (s(false, B, true, true), Berserk, 2),
            // Defensively: full defence, even after a whiff.
            (s(false, D, false, true), Defensive, 9),
            // A throw: full defence, even after a whiff.
            (s(false, N, true, true), Threw, 9),
            // A whiff alone: PARRY/DODGE lost.
            (s(false, N, false, true), Whiffed, 5),
            (s(false, N, false, false), Normal, 9),
        ] {
            let (found, allowed) = defence_rule(&standing);
            assert_eq!(found, rule, "{standing:?}");
            assert_eq!(f.defence_dice(allowed), dice, "{standing:?}");
        }
        assert_eq!(
            DEFENCE_RULES.map(|(r, _)| r),
            [Stunned, Berserk, Defensive, Threw, Whiffed, Normal]
        );
    }

    #[test]
    fn a_whiff_loses_parry_dice_when_the_opponent_attacks_back() {
        let m = model(fighter(), fighter());
        let mut states = start(&m);
        let whiff = attack_by(&m, Side::A, &mut states, &[1, 2, 3]);
        assert_eq!((whiff.column, whiff.defence_dice), (WHIFF, 0));
        // b attacks back: a rolls ARMOR + SHIELD, 2 dice, not 3.
        let back = attack_by(&m, Side::B, &mut states, &[4, 1, 1, 1, 1]);
        assert_eq!(back.defence_dice, 2);
        // a's next attack hits, so b's attack after it meets the full 3 dice.
        attack_by(&m, Side::A, &mut states, &[4, 1, 1, 1, 1, 1]);
        let again = attack_by(&m, Side::B, &mut states, &[4, 1, 1, 1, 1, 1]);
        assert_eq!(again.defence_dice, 3);
    }

    #[test]
    fn a_stun_takes_shield_and_parry_from_the_next_defence_only() {
        let m = model(fighter(), fighter());
        let mut states = start(&m);
        // a: double 5, b's three dice show no 6: 2 damage and a stun.
        let hit = attack_by(&m, Side::A, &mut states, &[5, 5, 1, 1, 1, 1]);
        assert!(hit.stunned && states[1].standing.stunned);
        // b attacks while stunned (it still may): a whiff.
        attack_by(&m, Side::B, &mut states, &[1, 1, 1]);
        // a attacks: b defends stunned: ARMOR only (the first rule, before the whiff).
        let next = attack_by(&m, Side::A, &mut states, &[4, 1, 1, 1]);
        assert_eq!(next.defence_dice, 1);
        assert!(
            !states[1].standing.stunned,
            "the stun ends with that attack"
        );
        // b attacks normally; a's following attack meets all three dice.
        attack_by(&m, Side::B, &mut states, &[4, 1, 1, 1, 1, 1]);
        let after = attack_by(&m, Side::A, &mut states, &[4, 1, 1, 1, 1, 1]);
        assert_eq!(after.defence_dice, 3);
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

    fn compiled(text: &str) -> D6Pool {
        match parse(text) {
            Ok(m) => m,
            Err(e) => panic!("{e}"),
        }
    }

    fn parse(text: &str) -> Result<D6Pool, String> {
        let file: File = toml::from_str(text).map_err(|e| e.to_string())?;
        let source = Source {
            path: std::path::Path::new("t.toml"),
            text,
        };
        D6Pool::compile(&file, &source).map_err(|e| e.to_string())
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

    fn run(m: &D6Pool, dice: &[u32]) -> (Tally, Vec<String>) {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let mut tally = Tally::new(m.shape());
        m.trial(&mut scripted, &mut log, &mut tally);
        assert!(
            scripted.finish().is_ok(),
            "{:?} {:?}",
            scripted.error(),
            log.lines
        );
        assert_eq!(
            scripted.used(),
            dice.len(),
            "dice left over: {:?}",
            log.lines
        );
        (tally, log.lines)
    }

    fn a_first() -> Rules {
        Rules {
            first_strike: FirstStrike::A,
            ..Rules::default()
        }
    }

    #[test]
    fn the_health_track_out_of_the_fight_at_zero_dead_at_minus_five() {
        let b = Fighter {
            health: 3,
            ..bare()
        };
        // Double 6: 3 damage: health 0: out of the fight, alive; no heal dice: unhealed.
        let m = model_with(fighter(), b, a_first(), Healing::default());
        let (t, log) = run(&m, &[6, 6, 1]);
        assert_eq!((t.ends, t.dead), ([1, 0, 0], [0, 0]), "{log:?}");
        assert_eq!((t.recovery[1].patients, t.recovery[1].unhealed), (1, 1));
        // One 5 first: 2 damage, health 1, still fighting; b whiffs; then a Critical: three 6s,
        // critical dice 1 + 1 + 1: 3 + 3 = 6 damage: health -5: dead.
        let (t, log) = run(&m, &[5, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 1]);
        assert_eq!(
            (t.ends, t.dead, t.rounds.bins()[2]),
            ([1, 0, 0], [0, 1], 1),
            "{log:?}"
        );
        assert_eq!(t.recovery[1].patients, 0, "the dead do not heal");
        assert_eq!(t.extra[EXTRA_CRITICALS], 1);
        // One 4 first (health 2), then the same Critical: 6 damage: health -4: out, alive;
        // with a critical die showing 2 instead: 7 damage: health -5: dead.
        let (t, log) = run(&m, &[4, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 1]);
        assert_eq!((t.ends, t.dead), ([1, 0, 0], [0, 0]), "{log:?}");
        let (t, log) = run(&m, &[4, 1, 1, 1, 1, 1, 6, 6, 6, 1, 1, 2]);
        assert_eq!(t.dead, [0, 1], "{log:?}");
    }

    #[test]
    fn heal_dice_restore_their_roll_a_day_until_whole_or_the_pool_runs_out() {
        let m = model(
            Fighter {
                heal: 3,
                ..fighter()
            },
            bare(),
        );
        // Health 2 of 10: day 1 a 5 (7), day 2 a 4 (11): whole on day 2, one die left.
        let (r, spent) = m.recover(Side::A, 2, 3, &mut ScriptedDice::new([5, 4]), &mut NoLog);
        assert_eq!((r.days_to_whole, r.died, spent), (Some(2), false, 2));
        // From -3: 1 + 2 + 3 = 6 restores only to 3: unhealed when the pool runs out.
        let (r, spent) = m.recover(
            Side::A,
            -3,
            3,
            &mut ScriptedDice::new([1, 2, 3]),
            &mut NoLog,
        );
        assert_eq!((r.days_to_whole, spent), (None, 3));
        // Two dice a day: the same three dice whole on day 2.
        let two = Healing {
            heal_dice_per_day: Ranged::new(2),
            ..Healing::default()
        };
        let m2 = model_with(fighter(), bare(), Rules::default(), two);
        let (r, _) = m2.recover(Side::A, 2, 3, &mut ScriptedDice::new([5, 1, 4]), &mut NoLog);
        assert_eq!(r.days_to_whole, Some(2));
        // Natural healing once the pool is spent: from 1, 1 + 2 + 3 = 7, 3 short, 7 days a
        // point: day 3 + 21.
        let natural = Healing {
            natural_days_per_point: Ranged::new(7),
            horizon_days: Ranged::new(30),
            ..Healing::default()
        };
        let m3 = model_with(fighter(), bare(), Rules::default(), natural.clone());
        let (r, _) = m3.recover(Side::A, 1, 3, &mut ScriptedDice::new([1, 2, 3]), &mut NoLog);
        assert_eq!(r.days_to_whole, Some(24));
        // Beyond the horizon (30 days): from 0, 4 short is 3 + 28 = 31: unhealed.
        let (r, _) = m3.recover(Side::A, 0, 3, &mut ScriptedDice::new([1, 2, 3]), &mut NoLog);
        assert_eq!(r.days_to_whole, None);
        // Through a trial: a survivor spends its heal dice; the tally counts them.
        let a = Fighter {
            heal: 3,
            ..fighter()
        };
        let b = Fighter {
            health: 3,
            ..bare()
        };
        let m = model_with(a, b, a_first(), Healing::default());
        // a hits for 1 (one 4); b hits a for 2 (one 5; a's 3 defence dice show no 6);
        // a finishes b with a double 6 (b at -1). a heals: a 1 then a 2: whole on day 2.
        let (t, log) = run(&m, &[4, 1, 1, 5, 1, 1, 1, 1, 1, 6, 6, 1, 1, 2]);
        assert_eq!(t.ends, [1, 0, 0], "{log:?}");
        assert_eq!(t.recovery[0].days_to_whole.bins()[2], 1, "{log:?}");
        assert_eq!(t.recovery[1].unhealed, 1, "b has no heal dice");
        assert_eq!(t.extra[EXTRA_HEAL], 2);
    }

    #[test]
    fn the_duel_alternates_from_the_first_striker_and_is_a_draw_at_the_round_limit() {
        let rules = Rules {
            first_strike: FirstStrike::B,
            ..Rules::default()
        };
        let mut m = model_with(fighter(), fighter(), rules, Healing::default());
        m.round_limit = 2;
        // b, a, b, a: all whiffs: a draw after 2 rounds, nobody hurt.
        let (t, log) = run(&m, &[1; 12]);
        assert_eq!(
            (t.ends, t.rounds.bins()[2], t.extra[EXTRA_WHIFFS]),
            ([0, 0, 1], 1, 4)
        );
        assert!(log[0].starts_with("b strikes first"), "{log:?}");
        assert!(log.iter().any(|l| l.contains("a draw")));
        // Random: the d2 picks (2 = b).
        let mut r = model(fighter(), fighter());
        r.round_limit = 1;
        let (_, log) = run(&r, &[2, 1, 1, 1, 1, 1, 1]);
        assert!(log[0].starts_with("b strikes first"), "{log:?}");
    }

    #[test]
    fn a_stunned_fighter_loses_its_attack_when_the_rule_is_set() {
        let rules = Rules {
            stun_loses_attack: true,
            ..a_first()
        };
        let mut m = model_with(fighter(), bare(), rules, Healing::default());
        m.round_limit = 2;
        // a: double 4 stuns b (1 damage); b loses its attack; a whiffs (the stun ends);
        // b attacks (whiff).
        let (t, log) = run(&m, &[4, 4, 1, 1, 1, 1, 1, 1, 1]);
        assert!(
            log.iter()
                .any(|l| l.contains("b is stunned and loses its attack")),
            "{log:?}"
        );
        assert_eq!((t.ends, t.extra[EXTRA_STUNS]), ([0, 0, 1], 1));
    }

    #[test]
    fn the_shipped_scenarios_compile_and_run() {
        for text in [
            include_str!("../../scenarios/d6-pool/berserker-vs-shieldwall.toml"),
            include_str!("../../scenarios/d6-pool/javelineer-vs-brawler.toml"),
        ] {
            let m = compiled(text);
            let mut tally = Tally::new(m.shape());
            let mut dice = FastDice::seed_from_u64(5);
            for _ in 0..2000 {
                m.trial(&mut dice, &mut NoLog, &mut tally);
            }
            assert_eq!(tally.trials, 2000);
            assert_eq!(tally.ends.iter().sum::<u64>(), 2000);
            assert!(
                tally.wins(Side::A) > 0 && tally.wins(Side::B) > 0,
                "{:?}",
                tally.ends
            );
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
        let whiff = m.attack(Side::A, &mut states, &mut dice, &mut log);
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
            Side::A,
            &mut states,
            &mut ScriptedDice::new(vec![1, 2, 3]),
            &mut log,
        );
        assert!(log.lines.join("\n").contains("loses its PARRY/DODGE dice"));
    }

    // -----------------------------------------------------------------------------------------
    // Rule ledger tests (docs/rules/d6-pool.md, "Rule ledger"). Paste at the end of
    // `mod tests` in src/rules/d6_pool.rs: they use `fighter`, `bare`, `model`, `start`,
    // `attack_by`, `a_attacks` and `compiled` above. Expected values come from the sentences of
    // shared/rules/d6-pool.txt (L = line).
    // -----------------------------------------------------------------------------------------

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

    #[test]
    fn a_berserk_thrower_defends_with_armor_only_the_berserk_rule_comes_before_the_throw() {
        // L25: "Use the first rule that applies:" L27: "If you attacked 'berserk' last turn,
        // only roll ARMOR dice to defend." comes before L29: "If you threw your weapon last
        // turn, roll ARMOR + SHIELD + PARRY/DODGE."
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
            ..fighter()
        };
        let m = model(thrower, fighter());
        let mut states = start(&m);
        // 2 + 1 + 1 = 4 dice, a whiff.
        let throw = attack_by(&m, Side::A, &mut states, &[1, 1, 1, 1]);
        assert_eq!((throw.dice, throw.missile, throw.column), (4, true, WHIFF));
        // b attacks back with one 4: a rolls its ARMOR die only (1 of its 3 dice).
        let back = attack_by(&m, Side::B, &mut states, &[4, 1, 1, 1]);
        assert_eq!(back.defence_dice, 1);
    }

    #[test]
    fn defence_dice_are_the_armours_armor_and_shield_plus_the_fighters_parry() {
        // L22: "(2) Before the hit connects, opponent can block the attack by rolling enough
        // 6s on his DEFENSE roll (ARMOR + SHIELD + PARRY/DODGE)"
        let text = r#"
name = "t"
ruleset = "d6-pool"
[a]
attack = 2
weapon_skill = 2
parry = 3
weapon = "w"
armour = "mail"
[b]
attack = 2
weapon_skill = 2
weapon = "w"
[weapons.w]
[armour.mail]
armor = 2
shield = 1
"#;
        let m = compiled(text);
        let a = m.fighters[0];
        assert_eq!((a.armor, a.shield, a.parry), (2, 1, 3));
        // b: (2 + 2) / 2 = 2 dice, one 4: one 6 blocks. a rolls 2 + 1 + 3 = 6 dice, the last a 6.
        let mut states = start(&m);
        let attack = attack_by(&m, Side::B, &mut states, &[4, 1, 1, 1, 1, 1, 1, 6]);
        assert_eq!(attack.defence_dice, 6);
        assert!(attack.blocked);
        assert_eq!(states[0].health, a.health, "blocked: no damage");
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
