//! The `guard-pierce` ruleset: black and white d20 against Guard (Hit and Full Hit), the damage
//! roll, Pierce against a Protection interval, Injury and Stun marked on a wound track with
//! penalties, dying and death, the Recover action, and the Injury recovery timeline with
//! infection.
//!
//! The rule text is `shared/rules/guard-pierce.txt`; every reading where it is silent is a
//! named parameter, listed with the sentence it rests on in `docs/rules/guard-pierce.md`. The
//! attack dice and the attribute roll come from the two-d20 core shared with `twin-d20`. This
//! module owns the ruleset's schema, compiled fighters, duel and healing timeline; it does not
//! read files or run threads.

use crate::dice::Dice;
use crate::log::Log;
use crate::rules::two_d20::{
    AttackRoll, AttributeDice, HitFaces, attribute_roll, highest_row, lower_highest_row, rows_of,
};
use crate::rules::{FirstStrike, Parameter, Ruleset};
use crate::scenario::error::{InputError, Source};
use crate::scenario::fields::{Name, Ranged};
use crate::scenario::schema::ScenarioFile;
use crate::stats::{DuelOutcome, Extra, ExtraKind, Recovery, Side, Tally, TallyShape};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};

/// The id scenarios use.
pub const ID: &str = "guard-pierce";

// ---------------------------------------------------------------------------------------------
// Scenario schema
// ---------------------------------------------------------------------------------------------

/// A fighter as the scenario writes it (`[a]`, `[b]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FighterSpec {
    /// Shown in reports and traces; defaults to `a` / `b`.
    pub name: Option<String>,
    /// The value used for the attack: a die hits when no higher than it (after penalties).
    pub attack: Ranged<0, 40>,
    /// Guard: a die hits when above it.
    pub guard: Ranged<0, 20>,
    /// Willpower, rolled for the Recover action.
    pub willpower: Ranged<0, 40>,
    /// Strength: an Injury recovery success above it does not heal.
    pub strength: Ranged<0, 40>,
    /// A key of `[weapons]`.
    pub weapon: Name,
    /// A key of `[armour]`; none when absent.
    pub armour: Option<Name>,
    /// Tactic: use the Recover action instead of attacking when the highest Stun is on this row
    /// or higher (0: never).
    #[serde(default)]
    pub recover_at: Ranged<0, 60>,
    /// The wound track: the penalty written beside rows 1, 2, ... up to the worst penalty row.
    #[serde(default)]
    pub penalties: Option<Vec<Ranged<0, 40>>>,
    /// The two circled rows (dying but able to act for half an hour); default: the second and
    /// fourth rows above the worst penalty row.
    #[serde(default)]
    pub circled: Option<Vec<Ranged<1, 60>>>,
}

crate::fighter_refs!(FighterSpec);

/// A weapon entry (`[weapons.<name>]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponSpec {
    /// The attack's Damage, rolled like an attribute.
    pub damage: Ranged<0, 40>,
    /// The attack's Pierce, compared with armour's Protection interval.
    pub pierce: Ranged<0, 40>,
    /// A Stun weapon (marked `*` in the weapons table): its wounds are Stun.
    #[serde(default)]
    pub stun: bool,
    /// Added to the wielder's attack value.
    #[serde(default)]
    pub attack: Ranged<-20, 20>,
}

/// An armour entry (`[armour.<name>]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmourSpec {
    /// Coverage 1–19 is checked with the white die; 20 is sealed; 0 never protects.
    pub coverage: Ranged<0, 20>,
    /// The Protection interval, written `"4-11"` (or `[4, 11]`).
    pub protection: Interval,
    /// Added to the wearer's Guard (a shield, or a penalty for heavy armour).
    #[serde(default)]
    pub guard: Ranged<-20, 20>,
}

/// A Protection interval: Pierce below `low` is deflected, above `high` goes through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interval {
    /// Lowest Pierce the armour stops rather than deflects.
    pub low: u32,
    /// Highest Pierce the armour stops.
    pub high: u32,
}

impl<'de> Deserialize<'de> for Interval {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Written {
            Text(String),
            Pair([i64; 2]),
        }
        let expected = "expected a Protection interval such as \"4-11\" (low-high, 0 to 60)";
        let (low, high) = match Written::deserialize(deserializer)
            .map_err(|_| D::Error::custom(expected))?
        {
            Written::Text(text) => {
                let parsed = text.split_once('-').and_then(|(l, h)| {
                    Some((l.trim().parse::<i64>().ok()?, h.trim().parse::<i64>().ok()?))
                });
                parsed.ok_or_else(|| D::Error::custom(format!("{expected}, found \"{text}\"")))?
            }
            Written::Pair([l, h]) => (l, h),
        };
        if !(0..=60).contains(&low) || !(0..=60).contains(&high) || low > high {
            return Err(D::Error::custom(format!("{expected}, found {low}-{high}")));
        }
        Ok(Interval {
            low: low as u32,
            high: high as u32,
        })
    }
}

/// How a damage roll on a Damage above 20 can exceed 20.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Over20 {
    /// Both dice succeed; the result is the higher die plus the Damage above 20.
    #[default]
    AddExcess,
    /// The Damage counts as 20: results never exceed 20.
    Cap,
}

/// The constants of the ruleset a scenario can override in `[rules]`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Whether a die equal to Guard hits ("above Guard": it does not).
    pub hit_on_guard: bool,
    /// Pierce added by a Full Hit.
    pub full_hit_pierce: Ranged<0, 20>,
    /// Damage added by a Full Hit.
    pub full_hit_damage: Ranged<0, 20>,
    /// Damage added to the separate Injury roll of a Stun weapon's Full Hit ("as with a regular
    /// Hit": none).
    pub stun_injury_roll_bonus: Ranged<0, 20>,
    /// Damage taken off when Pierce falls inside the Protection interval.
    pub interval_damage_cut: Ranged<0, 20>,
    /// How a damage roll on a Damage above 20 exceeds 20.
    pub over_20: Over20,
    /// Whether wound penalties also lower Guard (they apply to "combat actions").
    pub penalty_to_guard: bool,
    /// Dead when an Injury is more than this many rows above the worst penalty row.
    pub dead_margin: Ranged<0, 30>,
    /// Minutes a dying fighter lives without medical attention ("about an hour").
    pub dying_minutes: Ranged<1, 100_000>,
    /// Who strikes first each round.
    pub first_strike: FirstStrike,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            hit_on_guard: false,
            full_hit_pierce: Ranged::new(2),
            full_hit_damage: Ranged::new(5),
            stun_injury_roll_bonus: Ranged::new(0),
            interval_damage_cut: Ranged::new(5),
            over_20: Over20::AddExcess,
            penalty_to_guard: false,
            dead_margin: Ranged::new(5),
            dying_minutes: Ranged::new(60),
            first_strike: FirstStrike::Random,
        }
    }
}

/// The healing settings (`[healing]`).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Healing {
    /// Days between Injury recovery rolls (a month is realistic; a week or a night in many games).
    pub interval_days: Ranged<1, 365>,
    /// Days followed before a still-injured fighter is counted as unhealed.
    pub horizon_days: Ranged<1, 3650>,
    /// The healer's medical Background value; 0 means no healer.
    pub medical: Ranged<0, 40>,
    /// Whether medical attention reaches a dying fighter after the fight.
    pub attention: bool,
    /// Minutes after the fight until medical attention arrives.
    pub attention_minutes: Ranged<0, 100_000>,
}

impl Default for Healing {
    fn default() -> Self {
        Healing {
            interval_days: Ranged::new(7),
            horizon_days: Ranged::new(365),
            medical: Ranged::new(0),
            attention: true,
            attention_minutes: Ranged::new(30),
        }
    }
}

/// A whole guard-pierce scenario file.
pub type File = ScenarioFile<FighterSpec, WeaponSpec, ArmourSpec, Rules, Healing>;

/// The default wound track: penalties of rows 1 to 12 (the worst penalty row is 12).
pub const DEFAULT_PENALTIES: [u8; 12] = [0, 0, 1, 2, 3, 3, 4, 4, 5, 5, 6, 6];

/// Every parameter a guard-pierce scenario can set, with its default.
pub const PARAMETERS: &[Parameter] = &[
    Parameter {
        section: "rules",
        key: "hit_on_guard",
        default: "false",
        doc: "a die equal to Guard hits (\"above Guard\": no)",
    },
    Parameter {
        section: "rules",
        key: "full_hit_pierce",
        default: "2",
        doc: "Pierce added by a Full Hit",
    },
    Parameter {
        section: "rules",
        key: "full_hit_damage",
        default: "5",
        doc: "Damage added by a Full Hit",
    },
    Parameter {
        section: "rules",
        key: "stun_injury_roll_bonus",
        default: "0",
        doc: "Damage added to a Stun weapon's separate Injury roll on a Full Hit (\"as with a regular Hit\")",
    },
    Parameter {
        section: "rules",
        key: "interval_damage_cut",
        default: "5",
        doc: "Damage taken off when Pierce is inside the Protection interval (the wound becomes Stun)",
    },
    Parameter {
        section: "rules",
        key: "over_20",
        default: "\"add_excess\"",
        doc: "Damage above 20: add_excess (higher die + Damage - 20) or cap (counts as 20)",
    },
    Parameter {
        section: "rules",
        key: "penalty_to_guard",
        default: "false",
        doc: "wound penalties also lower Guard",
    },
    Parameter {
        section: "rules",
        key: "dead_margin",
        default: "5",
        doc: "dead when an Injury is more than this many rows above the worst penalty row",
    },
    Parameter {
        section: "rules",
        key: "dying_minutes",
        default: "60",
        doc: "minutes a dying fighter lives without medical attention",
    },
    Parameter {
        section: "rules",
        key: "first_strike",
        default: "\"random\"",
        doc: "who strikes first each round: random (a d2 per duel), a, b",
    },
    Parameter {
        section: "healing",
        key: "interval_days",
        default: "7",
        doc: "days between Injury recovery rolls (month, week or night)",
    },
    Parameter {
        section: "healing",
        key: "horizon_days",
        default: "365",
        doc: "days followed before an injured survivor counts as unhealed",
    },
    Parameter {
        section: "healing",
        key: "medical",
        default: "0",
        doc: "the healer's medical Background (0: no healer); its success lowers the Injury rolled",
    },
    Parameter {
        section: "healing",
        key: "attention",
        default: "true",
        doc: "medical attention reaches the dying after the fight",
    },
    Parameter {
        section: "healing",
        key: "attention_minutes",
        default: "30",
        doc: "minutes after the fight until it arrives (before dying_minutes: saved)",
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
        doc: "the value used to attack (0-40): a die hits when no higher",
    },
    Parameter {
        section: "a / b",
        key: "guard",
        default: "required",
        doc: "Guard (0-20): a die hits when above it",
    },
    Parameter {
        section: "a / b",
        key: "willpower",
        default: "required",
        doc: "Willpower, rolled to Recover",
    },
    Parameter {
        section: "a / b",
        key: "strength",
        default: "required",
        doc: "Strength: a recovery success above it does not heal",
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
        key: "recover_at",
        default: "0",
        doc: "tactic: Recover instead of attacking when the highest Stun is on this row or higher (0: never)",
    },
    Parameter {
        section: "a / b",
        key: "penalties",
        default: "[0,0,1,2,3,3,4,4,5,5,6,6]",
        doc: "the wound track: penalty of rows 1, 2, ...; the last is the worst penalty row",
    },
    Parameter {
        section: "a / b",
        key: "circled",
        default: "[worst+2, worst+4]",
        doc: "circled rows: an Injury there is dying but can act for half an hour",
    },
    Parameter {
        section: "weapons.<name>",
        key: "damage",
        default: "required",
        doc: "the attack's Damage (0-40)",
    },
    Parameter {
        section: "weapons.<name>",
        key: "pierce",
        default: "required",
        doc: "the attack's Pierce (0-40)",
    },
    Parameter {
        section: "weapons.<name>",
        key: "stun",
        default: "false",
        doc: "a Stun weapon (* in the weapons table)",
    },
    Parameter {
        section: "weapons.<name>",
        key: "attack",
        default: "0",
        doc: "added to the wielder's attack value",
    },
    Parameter {
        section: "armour.<name>",
        key: "coverage",
        default: "required",
        doc: "Coverage (0-20): struck when the white die is not higher; 20 sealed",
    },
    Parameter {
        section: "armour.<name>",
        key: "protection",
        default: "required",
        doc: "the Protection interval, \"low-high\"",
    },
    Parameter {
        section: "armour.<name>",
        key: "guard",
        default: "0",
        doc: "added to the wearer's Guard",
    },
];

/// The ruleset's own counts in `summary.csv`.
pub const EXTRAS: &[Extra] = &[
    Extra {
        name: "a_dying",
        kind: ExtraKind::ShareOfTrials,
    },
    Extra {
        name: "b_dying",
        kind: ExtraKind::ShareOfTrials,
    },
    Extra {
        name: "died_dying",
        kind: ExtraKind::ShareOfTrials,
    },
    Extra {
        name: "infected",
        kind: ExtraKind::ShareOfPatients,
    },
    Extra {
        name: "infections",
        kind: ExtraKind::MeanPerPatient,
    },
];
const EXTRA_DYING: usize = 0;
const EXTRA_DIED_DYING: usize = 2;
const EXTRA_INFECTED: usize = 3;
const EXTRA_INFECTIONS: usize = 4;

// ---------------------------------------------------------------------------------------------
// Wound track
// ---------------------------------------------------------------------------------------------

/// A fighter's wound track, compiled: penalties by row and the masks the rules test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Track {
    /// The penalty for a highest Wound on each row (rows above the worst take its penalty).
    penalty: [u8; 64],
    /// The worst penalty row.
    pub worst: u32,
    /// Rows on the sheet: up to the first row where an Injury kills; `top + 1` is "beyond".
    pub top: u32,
    /// The first row on which an Injury kills (more than `dead_margin` above the worst).
    pub dead_from: u32,
    /// Rows above the worst penalty row.
    above_worst: u64,
    /// The circled rows.
    circled: u64,
}

impl Track {
    /// Compiles a track from its penalties (rows 1..) and circled rows.
    pub fn new(penalties: &[u8], circled: &[u32], dead_margin: u32) -> Self {
        let worst = penalties.len() as u32;
        let dead_from = worst + dead_margin + 1;
        let mut penalty = [0u8; 64];
        for (row, p) in penalty.iter_mut().enumerate().skip(1) {
            *p = penalties[(row - 1).min(penalties.len() - 1)];
        }
        Track {
            penalty,
            worst,
            top: dead_from,
            dead_from,
            above_worst: u64::MAX << (worst + 1),
            circled: circled.iter().fold(0, |m, &r| m | 1 << r),
        }
    }

    /// The default sheet: [`DEFAULT_PENALTIES`], circled rows worst + 2 and worst + 4.
    pub fn default_sheet(dead_margin: u32) -> Self {
        let worst = DEFAULT_PENALTIES.len() as u32;
        Track::new(&DEFAULT_PENALTIES, &[worst + 2, worst + 4], dead_margin)
    }
}

/// Injury and Stun marks on the wound rows: bit `n` is row `n`; the two sets never overlap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WoundRows {
    /// Rows marked with an Injury (|, or + over a Stun).
    pub injury: u64,
    /// Rows marked with a Stun (-).
    pub stun: u64,
}

/// Which kind of wound an attack marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Injury: kills.
    Injury,
    /// Stun: knocks out.
    Stun,
}

impl WoundRows {
    /// Rows marked with anything.
    #[inline]
    pub fn marked(self) -> u64 {
        self.injury | self.stun
    }

    /// The nearest empty row to `row` (itself when empty); of two equally near, the higher.
    /// Row `top + 1` ("beyond the sheet") always takes a mark.
    #[inline]
    pub fn nearest_empty(self, row: u32, top: u32) -> u32 {
        let beyond = top + 1;
        let row = row.clamp(1, beyond);
        let sheet = (u64::MAX >> (63 - beyond)) & !1;
        let empty = (!self.marked() & sheet) | 1 << beyond;
        let up = (empty & (u64::MAX << row)).trailing_zeros();
        let below = empty & ((1u64 << row) - 1);
        if below == 0 {
            return up;
        }
        let down = highest_row(below);
        if row - down < up - row { down } else { up }
    }

    /// The lowest row with no mark.
    #[inline]
    pub fn lowest_empty(self, top: u32) -> u32 {
        self.nearest_empty(1, top)
    }

    /// Marks a wound of `kind` on `row` by the marking rules; returns the row marked.
    /// An Injury on a Stun replaces it; on an Injury it goes to the nearest empty row.
    /// A Stun on any mark goes to the nearest empty row.
    #[inline]
    pub fn mark(&mut self, kind: Kind, row: u32, top: u32) -> u32 {
        let row = row.clamp(1, top + 1);
        match kind {
            Kind::Injury => {
                let at = if self.injury >> row & 1 == 1 {
                    self.nearest_empty(row, top)
                } else {
                    row
                };
                self.injury |= 1 << at;
                self.stun &= !(1 << at);
                at
            }
            Kind::Stun => {
                let at = self.nearest_empty(row, top);
                self.stun |= (1 << at) & !self.injury;
                at
            }
        }
    }

    /// The highest row marked, 0 when none.
    #[inline]
    pub fn highest(self) -> u32 {
        highest_row(self.marked())
    }

    /// The penalty to combat actions: that of the highest Wound.
    #[inline]
    pub fn penalty(self, track: &Track) -> i32 {
        i32::from(track.penalty[self.highest() as usize])
    }

    /// Able to act: no Stun above the worst penalty row, and no Injury there outside the
    /// circled rows.
    #[inline]
    pub fn can_act(self, track: &Track) -> bool {
        (self.stun & track.above_worst) == 0
            && (self.injury & track.above_worst & !track.circled) == 0
    }

    /// Dying: an Injury above the worst penalty row.
    #[inline]
    pub fn dying(self, track: &Track) -> bool {
        self.injury & track.above_worst != 0
    }

    /// Dead: an Injury more than `dead_margin` rows above the worst penalty row.
    #[inline]
    pub fn dead(self, track: &Track) -> bool {
        self.injury >> track.dead_from != 0
    }
}

// ---------------------------------------------------------------------------------------------
// Compiled model
// ---------------------------------------------------------------------------------------------

/// One fighter, compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fighter {
    /// Attack value with the weapon's bonus, before penalties.
    pub attack: i32,
    /// Guard with the armour's bonus, before penalties.
    pub guard: i32,
    /// Willpower.
    pub willpower: i32,
    /// Strength.
    pub strength: u32,
    /// The weapon's Damage.
    pub damage: u32,
    /// The weapon's Pierce.
    pub pierce: u32,
    /// Whether the weapon deals Stun.
    pub stun_weapon: bool,
    /// Armour Coverage (0 unarmoured).
    pub coverage: u32,
    /// Armour Protection interval.
    pub protection: Interval,
    /// Recover when the highest Stun is on this row or higher (0 never).
    pub recover_at: u32,
    /// The wound track.
    pub track: Track,
}

/// A compiled guard-pierce point.
#[derive(Clone, Debug)]
pub struct GuardPierce {
    /// The fighters, `a` then `b`.
    pub fighters: [Fighter; 2],
    /// Their names, for narration.
    pub names: [String; 2],
    /// The rules as set.
    pub rules: Rules,
    /// The healing settings.
    pub healing: Healing,
    /// Rounds before a draw.
    pub round_limit: u32,
    /// Whether a dying fighter is saved by attention in time.
    dying_saved: bool,
}

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
const RECOVERY_DICE: AttributeDice = AttributeDice {
    black: "black d20 (Injury recovery)",
    white: "white d20 (Injury recovery)",
};
const MEDICAL_DICE: AttributeDice = AttributeDice {
    black: "black d20 (medical Background)",
    white: "white d20 (medical Background)",
};

impl GuardPierce {
    /// Builds a point from compiled fighters and settings.
    pub fn new(
        fighters: [Fighter; 2],
        names: [String; 2],
        rules: Rules,
        healing: Healing,
        round_limit: u32,
    ) -> Self {
        let dying_saved =
            healing.attention && healing.attention_minutes.get() < rules.dying_minutes.get();
        GuardPierce {
            fighters,
            names,
            rules,
            healing,
            round_limit,
            dying_saved,
        }
    }

    /// Compiles a scenario file, resolving names and checking each wound track.
    pub fn compile(file: &File, source: &Source) -> Result<Self, InputError> {
        let rules = file.rules.clone();
        let margin = rules.dead_margin.u32();
        let mut fighters = Vec::with_capacity(2);
        for side in Side::BOTH {
            let spec = file.fighter(side);
            let key = side.key();
            let (weapon, armour) = file.equipment(side, source)?;
            let penalties: Vec<u8> = match &spec.penalties {
                Some(p) => p.iter().map(|r| r.u32() as u8).collect(),
                None => DEFAULT_PENALTIES.to_vec(),
            };
            let worst = penalties.len() as u32;
            let place = || {
                spec.penalties
                    .as_ref()
                    .and_then(|p| p.first())
                    .and_then(Ranged::span)
                    .or_else(|| source.span_of(&[key, "penalties"]))
            };
            if penalties.is_empty() || worst + margin + 2 > 62 {
                return Err(source.error_at(
                    place(),
                    Some(&format!("{key}.penalties")),
                    format!("expected 1 to {} rows of penalties (with rules.dead_margin {margin}), found {worst}", 60 - margin),
                ));
            }
            let circled: Vec<u32> = match &spec.circled {
                Some(c) => c.iter().map(Ranged::u32).collect(),
                None => vec![worst + 2, worst + 4],
            };
            if let Some(bad) = spec
                .circled
                .iter()
                .flatten()
                .find(|r| r.u32() <= worst || r.u32() > worst + margin)
            {
                return Err(source.error_at(
                    bad.span(),
                    Some(&format!("{key}.circled")),
                    format!("expected rows above the worst penalty row {worst} and no higher than {}, found {}", worst + margin, bad.get()),
                ));
            }
            fighters.push(Fighter {
                attack: spec.attack.i32() + weapon.attack.i32(),
                guard: spec.guard.i32() + armour.map_or(0, |a| a.guard.i32()),
                willpower: spec.willpower.i32(),
                strength: spec.strength.u32(),
                damage: weapon.damage.u32(),
                pierce: weapon.pierce.u32(),
                stun_weapon: weapon.stun,
                coverage: armour.map_or(0, |a| a.coverage.u32()),
                protection: armour.map_or(Interval { low: 0, high: 0 }, |a| a.protection),
                recover_at: spec.recover_at.u32(),
                track: Track::new(&penalties, &circled, margin),
            });
        }
        Ok(GuardPierce::new(
            [fighters[0], fighters[1]],
            [file.fighter_name(Side::A), file.fighter_name(Side::B)],
            rules,
            file.healing.clone(),
            file.round_limit.u32(),
        ))
    }

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
        let row = if result > 0 {
            target.mark(kind, result, track.top)
        } else {
            let lowest = target.lowest_empty(track.top);
            if lowest as i32 > damage {
                log.say(|| format!("  damage roll on {damage} fails; the lowest empty row {lowest} is above the Damage: nothing"));
                return 0;
            }
            target.mark(kind, lowest, track.top)
        };
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

    /// One attack of `attacker` on the other fighter.
    pub fn attack<D: Dice, L: Log>(
        &self,
        attacker: Side,
        rows: &mut [WoundRows; 2],
        dice: &mut D,
        log: &mut L,
    ) -> Attack {
        let atk = &self.fighters[attacker.index()];
        let def = &self.fighters[attacker.other().index()];
        let penalty = rows[attacker.index()].penalty(&atk.track);
        let value = atk.attack - penalty;
        let guard_penalty = if self.rules.penalty_to_guard {
            rows[attacker.other().index()].penalty(&def.track)
        } else {
            0
        };
        let guard = def.guard - guard_penalty;
        log.say(|| {
            format!(
                "{} attacks {}: value {} (penalty {penalty}) vs Guard {guard}",
                self.names[attacker.index()],
                self.names[attacker.other().index()],
                value
            )
        });
        let roll = AttackRoll::roll(dice);
        let faces = HitFaces::new(guard, value, self.rules.hit_on_guard);
        let hits = u32::from(faces.hits(roll.black)) + u32::from(faces.hits(roll.white));
        if hits == 0 {
            log.say(|| format!("  black {} white {}: miss", roll.black, roll.white));
            return Attack {
                hits,
                marked: [0, 0],
            };
        }
        let full = hits == 2;
        let pierce = atk.pierce
            + if full {
                self.rules.full_hit_pierce.u32()
            } else {
                0
            };
        let mut damage = atk.damage as i32
            + if full {
                self.rules.full_hit_damage.i32()
            } else {
                0
            };
        let mut injury_damage = atk.damage as i32 + self.rules.stun_injury_roll_bonus.i32();
        let mut kind = if atk.stun_weapon {
            Kind::Stun
        } else {
            Kind::Injury
        };
        let mut injury_kind = Kind::Injury;
        log.say(|| {
            format!(
                "  black {} white {}: {}; Pierce {pierce}, Damage {damage}",
                roll.black,
                roll.white,
                if full { "Full Hit" } else { "Hit" }
            )
        });
        if def.coverage > 0 && roll.white <= def.coverage {
            let Interval { low, high } = def.protection;
            if pierce < low {
                log.say(|| format!("  armour struck (white {} vs Coverage {}): Pierce {pierce} below {low}-{high}: deflected", roll.white, def.coverage));
                return Attack {
                    hits,
                    marked: [0, 0],
                };
            }
            if pierce <= high {
                let cut = self.rules.interval_damage_cut.i32();
                damage -= cut;
                injury_damage -= cut;
                kind = Kind::Stun;
                injury_kind = Kind::Stun;
                log.say(|| {
                    format!(
                        "  armour struck: Pierce {pierce} inside {low}-{high}: Damage -{cut}, Stun"
                    )
                });
            } else {
                log.say(|| {
                    format!("  armour struck: Pierce {pierce} above {low}-{high}: straight through")
                });
            }
        } else if def.coverage > 0 {
            log.say(|| {
                format!(
                    "  armour bypassed (white {} above Coverage {})",
                    roll.white, def.coverage
                )
            });
        }
        let target = &mut rows[attacker.other().index()];
        let first = self.wound(target, &def.track, (damage, kind, DAMAGE_DICE), dice, log);
        let second = if full && atk.stun_weapon {
            log.say(|| "  a Stun weapon's Full Hit: a separate Injury roll".to_owned());
            let roll = (injury_damage, injury_kind, INJURY_DICE);
            self.wound(target, &def.track, roll, dice, log)
        } else {
            0
        };
        Attack {
            hits,
            marked: [first, second],
        }
    }

    /// The Recover action: a Willpower roll with penalties; a success clears the highest Stun.
    pub fn recover_action<D: Dice, L: Log>(
        &self,
        side: Side,
        rows: &mut WoundRows,
        dice: &mut D,
        log: &mut L,
    ) -> bool {
        let f = &self.fighters[side.index()];
        let value = f.willpower - rows.penalty(&f.track);
        let result = attribute_roll(dice, value, RECOVER_DICE);
        let highest_stun = highest_row(rows.stun);
        if result > 0 {
            rows.stun &= !(1u64 << highest_stun);
        }
        log.say(|| {
            format!(
                "{} uses Recover: Willpower {value}: {}",
                self.names[side.index()],
                if result > 0 {
                    format!("{result} success, Stun on row {highest_stun} clears")
                } else {
                    "fails".to_owned()
                }
            )
        });
        result > 0
    }

    /// The Injury recovery timeline of a survivor; `infections` counts the infections.
    pub fn recover<D: Dice, L: Log>(
        &self,
        side: Side,
        mut rows: WoundRows,
        dice: &mut D,
        log: &mut L,
        infections: &mut u64,
    ) -> Recovery {
        let f = &self.fighters[side.index()];
        let track = &f.track;
        let interval = self.healing.interval_days.u32();
        let horizon = self.healing.horizon_days.u32();
        let medical = self.healing.medical.i32();
        let name = &self.names[side.index()];
        log.say(|| {
            format!(
                "{name} recovers: Strength {}, Injury {:?}, a recovery roll every {interval} days",
                f.strength,
                rows_of(rows.injury)
            )
        });
        let mut day = 0;
        while day + interval <= horizon && !dice.exhausted() {
            day += interval;
            let help = if medical > 0 {
                attribute_roll(dice, medical, MEDICAL_DICE)
            } else {
                0
            };
            let highest = highest_row(rows.injury);
            let value = highest as i32 - help as i32;
            let result = attribute_roll(dice, value, RECOVERY_DICE);
            if result > 0 && rows.injury >> result & 1 == 1 {
                *infections += 1;
                let at = rows.mark(Kind::Injury, result, track.top);
                log.say(|| format!("day {day}: recovery roll on {value} (Injury {highest}, medical {help}): {result} equals an Injury: infected, new Injury on row {at}; Injury {:?}", rows_of(rows.injury)));
                // Where the new Injury lands decides: more than 5 rows above the worst penalty
                // row kills; above it the patient is dying, and dies without a healer.
                let died = at >= track.dead_from || (at > track.worst && medical == 0);
                if died {
                    log.say(|| format!("{name} dies of the infection"));
                    return Recovery {
                        days_to_whole: None,
                        died: true,
                        impairment: 0,
                    };
                }
            } else if result > f.strength {
                log.say(|| format!("day {day}: recovery roll on {value}: {result} success above Strength {}: no healing", f.strength));
            } else {
                rows.injury = lower_highest_row(rows.injury, 5);
                log.say(|| format!("day {day}: recovery roll on {value}: {}: Injury {highest} drops five rows; Injury {:?}", if result > 0 { format!("{result}") } else { "fails".to_owned() }, rows_of(rows.injury)));
                if rows.injury == 0 {
                    log.say(|| format!("{name} is whole after {day} days"));
                    return Recovery {
                        days_to_whole: Some(day),
                        died: false,
                        impairment: 0,
                    };
                }
            }
        }
        log.say(|| {
            format!(
                "{name} still has Injury {:?} at the horizon ({horizon} days)",
                rows_of(rows.injury)
            )
        });
        Recovery {
            days_to_whole: None,
            died: false,
            impairment: 0,
        }
    }
}

impl Ruleset for GuardPierce {
    fn shape(&self) -> TallyShape {
        TallyShape {
            round_limit: self.round_limit,
            max_damage: 63,
            horizon_days: self.healing.horizon_days.u32(),
            extras: EXTRAS,
        }
    }

    fn trial<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        let mut rows = [WoundRows::default(); 2];
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
                let me = &self.fighters[actor.index()];
                let stun = highest_row(rows[actor.index()].stun);
                if me.recover_at > 0 && stun >= me.recover_at {
                    self.recover_action(actor, &mut rows[actor.index()], dice, log);
                    continue;
                }
                let attack = self.attack(actor, &mut rows, dice, log);
                if attack.hits > 0 {
                    tally.record_hit(attack.marked[0].max(attack.marked[1]), true);
                }
                let target = rows[actor.other().index()];
                let track = &self.fighters[actor.other().index()].track;
                if !target.can_act(track) || target.dead(track) {
                    log.say(|| {
                        format!(
                            "{} is out of the fight: {} wins",
                            self.names[actor.other().index()],
                            self.names[actor.index()]
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
        let mut dead = [false; 2];
        for side in Side::BOTH {
            let r = &mut rows[side.index()];
            let track = &self.fighters[side.index()].track;
            let killed = r.dead(track);
            let dying = !killed && r.dying(track);
            tally.record_extra(EXTRA_DYING + side.index(), u64::from(dying));
            let died_dying = dying && !self.dying_saved;
            tally.record_extra(EXTRA_DIED_DYING, u64::from(died_dying));
            dead[side.index()] = killed || died_dying;
            if dying {
                log.say(|| {
                    format!(
                        "{} is dying: {}",
                        self.names[side.index()],
                        if died_dying {
                            "no medical attention in time: dead"
                        } else {
                            "medical attention arrives in time"
                        }
                    )
                });
            } else if killed {
                log.say(|| format!("{} is dead", self.names[side.index()]));
            }
            // A minute's rest clears all Stun.
            r.stun = 0;
        }
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead,
        });
        for side in Side::BOTH {
            if !dead[side.index()] && rows[side.index()].injury != 0 {
                let mut infections = 0;
                let recovery = self.recover(side, rows[side.index()], dice, log, &mut infections);
                tally.record_recovery(side, &recovery);
                tally.record_extra(EXTRA_INFECTED, u64::from(infections > 0));
                tally.record_extra(EXTRA_INFECTIONS, infections);
            }
        }
    }
}

/// One exchange for exact tables: `attack`, the very attack the duel rolls, from two unwounded
/// fighters; its outcome is the hit (Hit or Full Hit), the row the damage roll marks and
/// whether that mark is a Stun or an Injury.
impl crate::exact::Exchange for GuardPierce {
    const UNIT: &'static str = "wound row";
    const RESULTS: &'static [&'static str] = &["miss", "Hit", "Full Hit"];

    fn exchange<D: Dice>(&self, attacker: Side, dice: &mut D) -> crate::exact::Outcome {
        let mut rows = [WoundRows::default(); 2];
        let attack = self.attack(attacker, &mut rows, dice, &mut crate::log::NoLog);
        let target = rows[attacker.other().index()];
        let row = attack.marked[0];
        let kind = match row {
            0 if attack.hits > 0 => "no mark",
            0 => "",
            r if target.injury >> r & 1 == 1 => "Injury",
            _ => "Stun",
        };
        crate::exact::Outcome {
            result: Self::RESULTS[attack.hits.min(2) as usize],
            value: row,
            kind,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::{NoLog, VecLog};

    const NO_ARMOUR: Interval = Interval { low: 0, high: 0 };

    fn fighter(attack: i32, guard: i32, damage: u32, pierce: u32) -> Fighter {
        Fighter {
            attack,
            guard,
            willpower: 10,
            strength: 10,
            damage,
            pierce,
            stun_weapon: false,
            coverage: 0,
            protection: NO_ARMOUR,
            recover_at: 0,
            track: Track::default_sheet(5),
        }
    }

    fn model(a: Fighter, b: Fighter) -> GuardPierce {
        GuardPierce::new(
            [a, b],
            ["a".into(), "b".into()],
            Rules::default(),
            Healing::default(),
            40,
        )
    }

    /// `a` attacks `b` with scripted dice; returns the attack and b's wounds.
    fn attack_with(m: &GuardPierce, before: WoundRows, dice: &[u32]) -> (Attack, WoundRows) {
        let mut rows = [WoundRows::default(), before];
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let attack = m.attack(Side::A, &mut rows, &mut scripted, &mut log);
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
        (attack, rows[1])
    }

    fn rows(injury: &[u32], stun: &[u32]) -> WoundRows {
        let set = |r: &[u32]| r.iter().fold(0u64, |m, &x| m | 1 << x);
        WoundRows {
            injury: set(injury),
            stun: set(stun),
        }
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
    fn example_8_damage_marks_row_8_as_injury_and_star_10_marks_row_10_as_stun() {
        let mut w = WoundRows::default();
        assert_eq!(w.mark(Kind::Injury, 8, 18), 8);
        assert_eq!(w.mark(Kind::Stun, 10, 18), 10);
        assert_eq!(w, rows(&[8], &[10]));
        // The same through attacks: a Stun weapon's damage roll of 10 marks Stun on row 10.
        let mut cudgel = fighter(14, 5, 12, 2);
        cudgel.stun_weapon = true;
        let m = model(cudgel, fighter(10, 5, 5, 5));
        let (_, wounds) = attack_with(&m, WoundRows::default(), &[8, 20, 10, 15]);
        assert_eq!(wounds, rows(&[], &[10]));
    }

    #[test]
    fn an_injury_on_an_injury_goes_to_the_nearest_empty_row_and_ties_go_higher() {
        // Row 8 filled, 7 and 9 empty: equally near, the higher (9).
        let mut w = rows(&[8], &[]);
        assert_eq!(w.mark(Kind::Injury, 8, 18), 9);
        // Rows 8, 9, 10 filled, an Injury on 8: 7 is one away, 11 three away: 7.
        let mut w = rows(&[8, 9, 10], &[]);
        assert_eq!(w.mark(Kind::Injury, 8, 18), 7);
        // The same rows, an Injury on 9: 7 and 11 are both two away: 11.
        let mut w = rows(&[8, 9, 10], &[]);
        assert_eq!(w.mark(Kind::Injury, 9, 18), 11);
        // Rows 1 to 3 filled: nothing below, 4 above.
        let mut w = rows(&[1, 2, 3], &[]);
        assert_eq!(w.mark(Kind::Injury, 1, 18), 4);
    }

    #[test]
    fn an_injury_over_a_stun_replaces_it_and_a_stun_moves_on() {
        let mut w = rows(&[], &[10]);
        assert_eq!(w.mark(Kind::Injury, 10, 18), 10);
        assert_eq!(w, rows(&[10], &[]), "the + counts as Injury");
        let mut w = rows(&[10], &[]);
        assert_eq!(w.mark(Kind::Stun, 10, 18), 11);
        assert_eq!(w, rows(&[10], &[11]));
        let mut w = rows(&[], &[10]);
        assert_eq!(w.mark(Kind::Stun, 10, 18), 11, "a Stun on a Stun moves too");
    }

    fn armoured(low: u32, high: u32) -> Fighter {
        let mut f = fighter(10, 5, 5, 5);
        f.coverage = 20;
        f.protection = Interval { low, high };
        f
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
    fn example_a_wound_on_row_5_with_3_written_beside_it_is_minus_3_to_attack() {
        let track = Track::default_sheet(5);
        assert_eq!(rows(&[5], &[]).penalty(&track), 3);
        assert_eq!(
            rows(&[2, 5], &[1]).penalty(&track),
            3,
            "the highest Wound counts"
        );
        // Attack 12 with the penalty is 9: a 10 no longer hits Guard 5.
        let m = model(fighter(12, 5, 10, 5), fighter(10, 5, 5, 5));
        let mut both = [rows(&[5], &[]), WoundRows::default()];
        let mut dice = ScriptedDice::new([10, 20]);
        let attack = m.attack(Side::A, &mut both, &mut dice, &mut NoLog);
        assert_eq!(attack.hits, 0);
    }

    #[test]
    fn above_the_worst_penalty_row_unable_to_act_dying_dead_and_the_circled_rows() {
        let t = Track::default_sheet(5);
        assert_eq!((t.worst, t.dead_from), (12, 18));
        assert!(rows(&[12], &[]).can_act(&t));
        assert!(
            !rows(&[], &[13]).can_act(&t),
            "Stun above the worst: knocked out"
        );
        let injury_13 = rows(&[13], &[]);
        assert!(!injury_13.can_act(&t) && injury_13.dying(&t) && !injury_13.dead(&t));
        let circled = rows(&[14], &[]);
        assert!(
            circled.can_act(&t) && circled.dying(&t),
            "row 14 is circled"
        );
        assert!(rows(&[16], &[]).can_act(&t), "row 16 is circled");
        assert!(
            !rows(&[17], &[]).dead(&t),
            "17 is 5 above 12: not more than 5"
        );
        assert!(rows(&[18], &[]).dead(&t));
    }

    #[test]
    fn recover_clears_the_highest_stun_on_a_willpower_success_with_penalties() {
        let m = model(fighter(12, 5, 10, 5), fighter(10, 5, 5, 5));
        // Stun on 5 and 9: penalty 5 (row 9); Willpower 10 - 5 = 5: 4 succeeds.
        let mut w = rows(&[], &[5, 9]);
        assert!(m.recover_action(Side::A, &mut w, &mut ScriptedDice::new([4, 17]), &mut NoLog));
        assert_eq!(w, rows(&[], &[5]));
        // 6 and 7 are above 5: fails, nothing clears.
        let mut w = rows(&[], &[5, 9]);
        assert!(!m.recover_action(Side::A, &mut w, &mut ScriptedDice::new([6, 7]), &mut NoLog));
        assert_eq!(w, rows(&[], &[5, 9]));
    }

    fn recover_with(m: &GuardPierce, injury: &[u32], dice: &[u32]) -> (Recovery, u64, Vec<String>) {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let mut infections = 0;
        let r = m.recover(
            Side::A,
            rows(injury, &[]),
            &mut scripted,
            &mut log,
            &mut infections,
        );
        (r, infections, log.lines)
    }

    fn short_horizon(m: GuardPierce, days: i64, medical: i64) -> GuardPierce {
        let healing = Healing {
            horizon_days: Ranged::new(days),
            medical: Ranged::new(medical),
            ..Healing::default()
        };
        GuardPierce::new(m.fighters, m.names, m.rules, healing, m.round_limit)
    }

    #[test]
    fn recovery_infection_when_the_result_equals_an_injury_marks_it_and_does_not_heal() {
        let m = short_horizon(model(fighter(12, 5, 10, 5), fighter(10, 5, 5, 5)), 7, 0);
        // Injuries 8 and 12: roll on 12: 8 and 15: 8 equals the Injury on 8: infected, a new
        // Injury goes to the nearest empty row (7 and 9: the higher, 9).
        let (r, infections, log) = recover_with(&m, &[8, 12], &[8, 15]);
        assert_eq!(infections, 1);
        assert_eq!(r.days_to_whole, None);
        assert!(
            log.iter()
                .any(|l| l.contains("infected, new Injury on row 9; Injury [8, 9, 12]")),
            "{log:?}"
        );
    }

    #[test]
    fn recovery_success_above_strength_does_not_heal_otherwise_the_highest_drops_five() {
        let m = short_horizon(model(fighter(12, 5, 10, 5), fighter(10, 5, 5, 5)), 14, 0);
        // Strength 10, Injury 12: 11 is above Strength: no healing. Then 9: 12 drops to 7.
        let (r, _, log) = recover_with(&m, &[12], &[11, 20, 9, 20]);
        assert_eq!(r.days_to_whole, None);
        assert!(
            log.iter()
                .any(|l| l.contains("11 success above Strength 10: no healing")),
            "{log:?}"
        );
        assert!(
            log.iter()
                .any(|l| l.contains("Injury 12 drops five rows; Injury [7]")),
            "{log:?}"
        );
        // Injuries 3 and 5 heal in one step: 5 drops to 0 and the 3 on the way heals.
        let (r, _, _) = recover_with(&m, &[3, 5], &[20, 20]);
        assert_eq!(r.days_to_whole, Some(7));
    }

    #[test]
    fn a_medical_success_lowers_the_injury_rolled_for_that_roll() {
        let m = short_horizon(model(fighter(12, 5, 10, 5), fighter(10, 5, 5, 5)), 7, 12);
        // Medical 12: 4. Injury 12 rolled as 8: 10 and 9 both fail: neither rule applies: heals five.
        let (_, _, log) = recover_with(&m, &[12], &[4, 20, 10, 9]);
        assert!(
            log.iter()
                .any(|l| l
                    .contains("recovery roll on 8: fails: Injury 12 drops five rows; Injury [7]")),
            "{log:?}"
        );
    }

    #[test]
    fn the_dying_die_without_attention_in_time() {
        let mut a = fighter(14, 5, 15, 5);
        a.track = Track::default_sheet(5);
        let b = fighter(10, 5, 5, 5);
        for (attention, minutes, dead) in [(true, 30, false), (true, 60, true), (false, 0, true)] {
            let healing = Healing {
                attention,
                attention_minutes: Ranged::new(minutes),
                horizon_days: Ranged::new(1),
                ..Healing::default()
            };
            let rules = Rules {
                first_strike: FirstStrike::A,
                ..Rules::default()
            };
            let m = GuardPierce::new([a, b], ["a".into(), "b".into()], rules, healing, 40);
            // a hits (8, 20), damage roll on 15: 13, 14 -> 14: circled row, dying, can act.
            // b misses (1, 1). a hits again: 13 -> row 13 (not circled): out of the fight.
            let mut dice = ScriptedDice::new([8, 20, 13, 14, 1, 1, 8, 20, 13, 2]);
            let mut tally = Tally::new(m.shape());
            let mut log = VecLog::default();
            m.trial(&mut dice, &mut log, &mut tally);
            assert!(dice.finish().is_ok(), "{:?} {:?}", dice.error(), log.lines);
            assert_eq!(tally.ends, [1, 0, 0]);
            assert_eq!(tally.extra[EXTRA_DYING + 1], 1);
            assert_eq!(
                tally.dead[1],
                u64::from(dead),
                "attention {attention} at {minutes} minutes"
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
    fn an_infection_kills_by_where_the_new_injury_lands() {
        // "If the result is equal to an Injury you already have, the wound is infected. Mark the
        // result as a new Injury, as per the usual rules"; "An Injury above the highest wound
        // penalty means the character is dying and, without medical attention, dead in about an
        // hour"; "If an Injury is more than 5 rows above the highest wound penalty, the character
        // is dead." The default sheet: worst penalty row 12, dead from row 18.
        let no_healer = short_horizon(model(fighter(12, 5, 10, 5), fighter(10, 5, 5, 5)), 7, 0);
        // Injuries 3 and 13 (saved from dying after the fight), no healer: roll on 13, 3 and 15:
        // infected, the new Injury on row 4, below the worst row: the patient lives.
        let (r, infections, log) = recover_with(&no_healer, &[3, 13], &[3, 15]);
        assert_eq!(infections, 1);
        assert!(!r.died, "{log:?}");
        assert!(
            log.iter().any(|l| l.contains("new Injury on row 4")),
            "{log:?}"
        );
        // Injuries 12, 13 and 14, roll 13 (and 20): the new Injury on row 15 (11 and 15 are
        // equally near: the higher), above the worst row: dying, dead without a healer.
        let (r, _, log) = recover_with(&no_healer, &[12, 13, 14], &[13, 20]);
        assert!(
            log.iter().any(|l| l.contains("new Injury on row 15")),
            "{log:?}"
        );
        assert!(r.died, "{log:?}");
        // With a healer (medical 5; its roll 20 and 20 fails, so the value stays 14): lives.
        let healer = short_horizon(model(fighter(12, 5, 10, 5), fighter(10, 5, 5, 5)), 7, 5);
        let (r, _, log) = recover_with(&healer, &[12, 13, 14], &[20, 20, 13, 20]);
        assert!(
            log.iter().any(|l| l.contains("new Injury on row 15")),
            "{log:?}"
        );
        assert!(!r.died, "{log:?}");
        // Injuries 16 and 17, roll 17: the new Injury on row 18, more than 5 above the worst:
        // dead, healer or not.
        let (r, _, log) = recover_with(&healer, &[16, 17], &[20, 20, 17, 20]);
        assert!(
            log.iter().any(|l| l.contains("new Injury on row 18")),
            "{log:?}"
        );
        assert!(r.died, "{log:?}");
        let (r, _, log) = recover_with(&no_healer, &[16, 17], &[17, 20]);
        assert!(r.died, "{log:?}");
    }

    // -----------------------------------------------------------------------------------------
    // Rule ledger tests (docs/rules/guard-pierce.md, "Rule ledger"). Paste at the end of
    // `mod tests` in src/rules/guard_pierce.rs: they use `fighter`, `model`, `attack_with`,
    // `rows` and `armoured` from above. Expected numbers come from the sentences of
    // shared/rules/guard-pierce.txt (quoted). Default sheet: penalties of rows 1-12
    // [0,0,1,2,3,3,4,4,5,5,6,6], worst row 12, circled 14 and 16, dead from 18.
    // -----------------------------------------------------------------------------------------

    fn ledger_point(
        a: Fighter,
        b: Fighter,
        rules: Rules,
        healing: Healing,
        round_limit: u32,
    ) -> GuardPierce {
        GuardPierce::new(
            [a, b],
            ["a".into(), "b".into()],
            rules,
            healing,
            round_limit,
        )
    }

    fn ledger_first(first_strike: FirstStrike) -> Rules {
        Rules {
            first_strike,
            ..Rules::default()
        }
    }

    /// Healing with the given rate, horizon and medical Background (attention as by default).
    fn ledger_healing(interval: i64, horizon: i64, medical: i64) -> Healing {
        Healing {
            interval_days: Ranged::new(interval),
            horizon_days: Ranged::new(horizon),
            medical: Ranged::new(medical),
            ..Healing::default()
        }
    }

    /// A Stun weapon (marked * in the weapons table).
    fn ledger_cudgel(damage: u32, pierce: u32) -> Fighter {
        let mut f = fighter(14, 5, damage, pierce);
        f.stun_weapon = true;
        f
    }

    /// `a` attacks `b`, both with wounds before; every die must be used.
    fn ledger_attack(
        m: &GuardPierce,
        before: [WoundRows; 2],
        dice: &[u32],
    ) -> (Attack, [WoundRows; 2], String) {
        let mut both = before;
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let attack = m.attack(Side::A, &mut both, &mut scripted, &mut log);
        let story = log.lines.join("\n");
        assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
        assert_eq!(scripted.used(), dice.len(), "dice left over\n{story}");
        (attack, both, story)
    }

    /// One whole trial on scripted dice; every die must be used.
    fn ledger_trial(m: &GuardPierce, dice: &[u32]) -> (Tally, String) {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut tally = Tally::new(m.shape());
        let mut log = VecLog::default();
        m.trial(&mut scripted, &mut log, &mut tally);
        let story = log.lines.join("\n");
        assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
        assert_eq!(scripted.used(), dice.len(), "dice left over\n{story}");
        (tally, story)
    }

    /// `a`'s Injury recovery timeline; every die must be used.
    fn ledger_recover(m: &GuardPierce, injury: &[u32], dice: &[u32]) -> (Recovery, u64, String) {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let mut infections = 0;
        let r = m.recover(
            Side::A,
            rows(injury, &[]),
            &mut scripted,
            &mut log,
            &mut infections,
        );
        let story = log.lines.join("\n");
        assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
        assert_eq!(scripted.used(), dice.len(), "dice left over\n{story}");
        (r, infections, story)
    }

    /// Compiles scenario text (for what only `compile` reads: weapon and armour bonuses, sheets).
    fn ledger_compile(text: &str) -> GuardPierce {
        let file: File = toml::from_str(text).unwrap_or_else(|e| panic!("{e}"));
        let source = Source {
            path: std::path::Path::new("t.toml"),
            text,
        };
        GuardPierce::compile(&file, &source).unwrap_or_else(|e| panic!("{e}"))
    }

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
    fn through_an_attack_a_filled_row_sends_the_wound_to_the_nearest_empty_row_ties_higher() {
        // L35-36: "If the circle is already filled from a previous Injury, mark the nearest empty
        // circle. If two circles are equally close, mark the higher number. ... An incoming Stun
        // moves to a different row, as described above."
        // A Stun of 10 on Injuries 9-12: 8 is two away, 13 three: row 8 (below).
        let m = model(ledger_cudgel(10, 2), fighter(10, 5, 5, 5));
        let before = rows(&[9, 10, 11, 12], &[]);
        let (attack, wounds) = attack_with(&m, before, &[8, 20, 10, 15]);
        assert_eq!(attack.marked, [8, 0]);
        assert_eq!(wounds, rows(&[9, 10, 11, 12], &[8]));
        // An Injury of 13 on an Injury 13: 12 and 14 are equally close: the higher, 14.
        let m = model(fighter(14, 5, 15, 5), fighter(10, 5, 5, 5));
        let (attack, wounds) = attack_with(&m, rows(&[13], &[]), &[8, 20, 9, 13]);
        assert_eq!(attack.marked, [14, 0]);
        assert_eq!(wounds, rows(&[13, 14], &[]));
    }

    #[test]
    fn a_stun_as_the_highest_wound_sets_the_penalty() {
        // L40: "Most of your combat actions ... suffer the penalty of the highest Wound you've
        // sustained." A Stun is a Wound.
        let m = model(fighter(14, 5, 15, 5), fighter(10, 5, 5, 5));
        let track = Track::default_sheet(5);
        assert_eq!(rows(&[3], &[9]).penalty(&track), 5);
        // Injury 3 only: penalty 1, value 13: 10 hits. Damage roll 9, 13 -> 13.
        let (attack, _, _) = ledger_attack(
            &m,
            [rows(&[3], &[]), WoundRows::default()],
            &[10, 20, 9, 13],
        );
        assert_eq!(attack.hits, 1);
        // Injury 3 and Stun 9: the Stun is the highest, penalty 5, value 9: 10 misses.
        let (attack, _, story) =
            ledger_attack(&m, [rows(&[3], &[9]), WoundRows::default()], &[10, 20]);
        assert_eq!(attack.hits, 0);
        assert!(story.contains("value 9 (penalty 5)"), "{story}");
    }

    #[test]
    fn acting_from_a_circled_row_takes_the_worst_rows_penalty() {
        // Design (assumptions, "Penalty above the worst row"): "suffer the penalty of the highest
        // Wound you've sustained"; row 14 has none written: the worst row's 6.
        let track = Track::default_sheet(5);
        assert_eq!(rows(&[14], &[]).penalty(&track), 6);
        let m = model(fighter(14, 5, 15, 5), fighter(10, 5, 5, 5));
        // Value 14 - 6 = 8: 9 misses.
        let (attack, _, _) = ledger_attack(&m, [rows(&[14], &[]), WoundRows::default()], &[9, 20]);
        assert_eq!(attack.hits, 0);
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
    fn too_much_stun_knocks_out_and_a_minutes_rest_clears_it_after_the_fight() {
        // L7: "Too much Stun knocks your character out". L44: "If you mark any Wound higher up
        // than your worst penalty, you're unable to act." L53: "If you rest for a minute, all
        // Stun clears."
        let m = ledger_point(
            ledger_cudgel(15, 2),
            fighter(10, 5, 5, 5),
            ledger_first(FirstStrike::A),
            Healing::default(),
            40,
        );
        // a: 8, 20 a Hit; Stun roll on 15: 13, 2 -> Stun on row 13, above the worst row 12:
        // b is out and never acts. After the fight the Stun clears: b is neither dying nor dead,
        // and has no Injury to recover from.
        let (tally, story) = ledger_trial(&m, &[8, 20, 13, 2]);
        assert_eq!(tally.ends, [1, 0, 0]);
        assert_eq!(tally.dead, [0, 0]);
        assert_eq!(tally.extra[EXTRA_DYING + 1], 0);
        assert_eq!(tally.recovery[1].patients, 0);
        assert!(!story.contains("b attacks a"), "{story}");
    }

    #[test]
    fn an_injury_5_rows_above_the_worst_is_dying_and_6_rows_above_is_dead() {
        // L48: "An Injury above the highest wound penalty means the character is dying and,
        // without medical attention, dead in about an hour." L49: "If an Injury is more than 5
        // rows above the highest wound penalty, the character is dead."
        // Attention arrives at 30 minutes (default): the dying are saved, the dead are not.
        let m = ledger_point(
            fighter(14, 5, 18, 5),
            fighter(10, 5, 5, 5),
            ledger_first(FirstStrike::A),
            ledger_healing(7, 1, 0),
            40,
        );
        // Damage roll on 18: 17, 2 -> Injury 17, 5 above row 12: dying, unable to act, saved.
        let (tally, story) = ledger_trial(&m, &[8, 20, 17, 2]);
        assert_eq!(tally.ends, [1, 0, 0]);
        assert_eq!(tally.dead, [0, 0]);
        assert_eq!(tally.extra[EXTRA_DYING + 1], 1);
        assert_eq!(tally.extra[EXTRA_DIED_DYING], 0);
        assert_eq!(tally.recovery[1].patients, 1);
        assert!(
            story.contains("b is dying: medical attention arrives in time"),
            "{story}"
        );
        // 18, 2 -> Injury 18, 6 above: dead, whatever the attention.
        let (tally, story) = ledger_trial(&m, &[8, 20, 18, 2]);
        assert_eq!(tally.dead, [0, 1]);
        assert_eq!(tally.extra[EXTRA_DYING + 1], 0);
        assert_eq!(tally.recovery[1].patients, 0);
        assert!(story.contains("b is dead"), "{story}");
    }

    #[test]
    fn first_strike_random_d2_of_2_lets_b_act_first_and_the_round_limit_draws() {
        // Design (assumptions, rules.first_strike = "random"): a d2 per duel, 2 is b; after
        // round_limit rounds a draw.
        let m = ledger_point(
            fighter(14, 5, 15, 5),
            fighter(14, 5, 15, 5),
            ledger_first(FirstStrike::Random),
            Healing::default(),
            1,
        );
        let (tally, story) = ledger_trial(&m, &[2, 1, 1, 1, 1]);
        assert_eq!(tally.ends, [0, 0, 1]);
        crate::log::assert_in_order(
            &story,
            &[
                "b strikes first",
                "b attacks a",
                "a attacks b",
                "the round limit (1) is reached: a draw",
            ],
        );
    }

    #[test]
    fn the_recovery_roll_is_made_on_the_highest_injury() {
        // L57: "Recovery rolls are made using the highest Injury sustained, as if it was an
        // Attribute." L60: "If the result is a "success" higher than your Strength, you do not
        // heal this time."
        let mut a = fighter(14, 5, 15, 5);
        a.strength = 5;
        let m = short_horizon(model(a, fighter(10, 5, 5, 5)), 7, 0);
        // Injuries 3 and 9: rolled on 9: 8 succeeds (on 3 it would fail), and 8 is above
        // Strength 5: no healing.
        let (r, infections, story) = ledger_recover(&m, &[3, 9], &[8, 20]);
        assert_eq!(r.days_to_whole, None);
        assert_eq!(infections, 0);
        assert!(
            story.contains("day 7: recovery roll on 9: 8 success above Strength 5: no healing"),
            "{story}"
        );
    }

    #[test]
    fn a_success_equal_to_strength_heals_five_steps() {
        // L60: "If the result is a "success" higher than your Strength, you do not heal this
        // time." L62: "If neither of the above applies, your highest Injury is lowered five steps."
        let m = short_horizon(model(fighter(14, 5, 15, 5), fighter(10, 5, 5, 5)), 7, 0);
        // Strength 10, Injury 12: 10, 20 -> 10, not higher than 10: 12 drops to 7.
        let (_, _, story) = ledger_recover(&m, &[12], &[10, 20]);
        assert!(
            story.contains("recovery roll on 12: 10: Injury 12 drops five rows; Injury [7]"),
            "{story}"
        );
    }

    #[test]
    fn lowering_five_steps_heals_injuries_on_the_way_and_keeps_those_below_the_landing_row() {
        // L62: "your highest Injury is lowered five steps. Any Injuries along the way are also
        // healed."
        let m = short_horizon(model(fighter(14, 5, 15, 5), fighter(10, 5, 5, 5)), 7, 0);
        // Injuries 2, 6, 10, 12; 5, 20 -> 5 (no Injury on 5, not above Strength 10): 12 drops
        // to 7; the 10 on the way heals; 6 and 2 are below 7 and stay.
        let (_, _, story) = ledger_recover(&m, &[2, 6, 10, 12], &[5, 20]);
        assert!(
            story.contains("Injury 12 drops five rows; Injury [2, 6, 7]"),
            "{story}"
        );
    }

    #[test]
    fn dropping_five_rows_onto_an_injury_merges_with_it() {
        // Design (assumptions, "Dropping onto a marked row"): the lowered Injury merges with the
        // Injury there. L62: "Any Injuries along the way are also healed."
        let m = short_horizon(model(fighter(14, 5, 15, 5), fighter(10, 5, 5, 5)), 7, 0);
        let (r, _, story) = ledger_recover(&m, &[7, 12], &[5, 20]);
        assert_eq!(r.days_to_whole, None);
        assert!(
            story.contains("Injury 12 drops five rows; Injury [7]"),
            "{story}"
        );
    }

    #[test]
    fn the_medical_reduction_holds_for_that_roll_only() {
        // L64: "A successful roll using a suitable medical Background reduces the Injury with its
        // result for this particular roll (not permanently)."
        let mut a = fighter(14, 5, 15, 5);
        a.strength = 5;
        let m = short_horizon(model(a, fighter(10, 5, 5, 5)), 14, 12);
        // Week 1: medical 4, 20 -> 4: Injury 12 rolled as 8: 6, 20 -> 6, above Strength 5.
        // Week 2: medical 20, 20 fails: rolled as 12 again: 9, 20 -> 9, above Strength 5.
        let (r, _, story) = ledger_recover(&m, &[12], &[4, 20, 6, 20, 20, 20, 9, 20]);
        assert_eq!(r.days_to_whole, None);
        crate::log::assert_in_order(
            &story,
            &[
                "day 7: recovery roll on 8: 6 success above Strength 5: no healing",
                "day 14: recovery roll on 12: 9 success above Strength 5: no healing",
            ],
        );
    }

    #[test]
    fn the_recovery_interval_sets_the_days_between_rolls() {
        // L55: "A realistic setting allows an Injury recovery roll every month. In many games this
        // is shortened to once a week or even after each good night's sleep."
        // Injury 3; 2, 20 -> 2 (no Injury there, not above Strength 10): 3 drops five: whole.
        for (interval, day) in [(1, 1), (7, 7), (30, 30)] {
            let m = ledger_point(
                fighter(14, 5, 15, 5),
                fighter(10, 5, 5, 5),
                Rules::default(),
                ledger_healing(interval, interval, 0),
                40,
            );
            let (r, _, _) = ledger_recover(&m, &[3], &[2, 20]);
            assert_eq!(r.days_to_whole, Some(day), "every {interval} days");
        }
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

    #[test]
    fn a_wound_beyond_the_last_row_is_marked_beyond_it_and_an_injury_there_kills() {
        // Design (assumptions, "Rows on the sheet": up to row 18, worst + 6; a mark with no
        // empty row left goes beyond the last row). L49: "If an Injury is more than 5 rows above
        // the highest wound penalty, the character is dead."
        let t = Track::default_sheet(5);
        assert_eq!((t.top, t.dead_from), (18, 18));
        let mut w = WoundRows::default();
        assert_eq!(w.mark(Kind::Injury, 25, t.top), 19);
        assert!(w.dead(&t));
        let mut s = WoundRows::default();
        assert_eq!(s.mark(Kind::Stun, 30, t.top), 19);
        assert!(
            !s.can_act(&t) && !s.dead(&t),
            "a Stun knocks out, it does not kill"
        );
        // Every row filled: an Injury on 18 finds nothing below, beyond above: 19.
        let all: Vec<u32> = (1..=18).collect();
        let mut full = rows(&all, &[]);
        assert_eq!(full.mark(Kind::Injury, 18, t.top), 19);
    }

    #[test]
    fn weapon_attack_and_armour_guard_add_up_and_a_sheet_defaults_to_12_rows_circled_14_and_16() {
        // Design (assumptions, "Wound track", "circled", "Rows on the sheet"): the default sheet
        // has penalties on rows 1-12 (row 5: 3), circled rows worst + 2 and worst + 4; a fighter
        // may bring its own sheet. L29: "Each type of armor has a Protection interval, for example
        // "4-11"."
        let m = ledger_compile(
            "name = \"t\"\nruleset = \"guard-pierce\"\n\
             [a]\nattack = 12\nguard = 5\nwillpower = 10\nstrength = 10\nweapon = \"w\"\narmour = \"mail\"\n\
             [b]\nattack = 12\nguard = 5\nwillpower = 10\nstrength = 10\nweapon = \"w\"\npenalties = [0, 1, 2, 3]\n\
             [weapons.w]\ndamage = 10\npierce = 6\nattack = 1\n\
             [armour.mail]\ncoverage = 15\nprotection = \"4-11\"\nguard = -1\n",
        );
        let [a, b] = m.fighters;
        assert_eq!((a.attack, a.guard), (13, 4));
        assert_eq!(
            (a.coverage, a.protection),
            (15, Interval { low: 4, high: 11 })
        );
        assert_eq!((a.track.worst, a.track.dead_from), (12, 18));
        assert_eq!(rows(&[5], &[]).penalty(&a.track), 3);
        assert!(rows(&[14], &[]).can_act(&a.track) && rows(&[16], &[]).can_act(&a.track));
        assert!(!rows(&[15], &[]).can_act(&a.track));
        // b's own sheet of 4 rows: worst row 4 (penalty 3), circled 6 and 8, dead from 10.
        assert_eq!((b.attack, b.guard), (13, 5));
        assert_eq!((b.track.worst, b.track.dead_from), (4, 10));
        assert_eq!(rows(&[9], &[]).penalty(&b.track), 3);
        assert!(rows(&[6], &[]).can_act(&b.track) && !rows(&[5], &[]).can_act(&b.track));
        assert!(!rows(&[9], &[]).dead(&b.track) && rows(&[10], &[]).dead(&b.track));
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

    #[test]
    fn recover_at_spends_the_turn_on_recover_when_the_highest_stun_reaches_that_row() {
        // L53: "The Action "Recover" requires your character be able to act. Roll Willpower,
        // taking your penalties into account. A success clears your highest Stun." Design
        // (assumptions, recover_at): Recover instead of attacking when the highest Stun is on
        // that row or higher.
        let with = |recover_at: u32| {
            let mut a = fighter(14, 5, 5, 5);
            a.recover_at = recover_at;
            ledger_point(
                a,
                ledger_cudgel(12, 2),
                ledger_first(FirstStrike::B),
                ledger_healing(7, 1, 0),
                1,
            )
        };
        // b: 8, 20 a Hit; Stun roll on 12: 10, 15 -> Stun on a's row 10 (penalty 5).
        // recover_at 9: 10 >= 9: a Recovers: Willpower 10 - 5 = 5: 3, 15 -> 3: the Stun clears.
        let (tally, story) = ledger_trial(&with(9), &[8, 20, 10, 15, 3, 15]);
        assert_eq!(tally.ends, [0, 0, 1]);
        assert!(
            story.contains("a uses Recover: Willpower 5: 3 success, Stun on row 10 clears"),
            "{story}"
        );
        assert!(!story.contains("a attacks b"), "{story}");
        // recover_at 11: 10 < 11: a attacks with value 14 - 5 = 9 (1, 1: a miss).
        let (tally, story) = ledger_trial(&with(11), &[8, 20, 10, 15, 1, 1]);
        assert_eq!(tally.ends, [0, 0, 1]);
        assert!(
            story.contains("a attacks b: value 9 (penalty 5) vs Guard 5"),
            "{story}"
        );
        assert!(!story.contains("uses Recover"), "{story}");
    }
}
