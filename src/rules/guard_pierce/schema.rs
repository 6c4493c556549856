//! The guard-pierce scenario schema: what a scenario writes (fighters with their wound track and
//! Recover tactic, weapons with Damage, Pierce and the Stun mark, armour with Coverage and a
//! Protection interval, the `[rules]` and `[healing]` constants and every documented parameter)
//! and its compilation into the flat [`Fighter`]s of a [`GuardPierce`] point.
//!
//! The text's weapons table and character sheet are not in `shared/rules/guard-pierce.txt`: the
//! numbers come from the scenario, and the wound track (which rows carry which penalty, which
//! rows are circled) defaults to the sheet recorded in `docs/rules/guard-pierce.md`.

use super::wound_track::{DEFAULT_PENALTIES, Track};
use super::{Fighter, GuardPierce};
use crate::rules::roster::Enrolled;
use crate::rules::{FirstStrike, Parameter};
use crate::scenario::error::{InputError, Source};
use crate::scenario::fields::{Name, Ranged};
use crate::scenario::schema::ScenarioFile;
use crate::stats::Side;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};

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
    /// Who acts in turn within a round when a side has several fighters.
    pub turn_order: TurnOrder,
    /// At most this many attackers on one defender (0: no limit, the texts' reading).
    pub max_attackers: Ranged<0, 16>,
}

pub use crate::rules::roster::TurnOrder;

impl Default for Rules {
    fn default() -> Self {
        Rules {
            max_attackers: Ranged::new(0),
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
            turn_order: TurnOrder::Sides,
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
        section: "rules",
        key: "turn_order",
        default: "\"sides\"",
        doc: "a side of several: sides (the side acting first, each fighter in order, then the other) or alternate (first of each side, then second of each, ...)",
    },
    Parameter {
        section: "rules",
        key: "max_attackers",
        default: "0",
        doc: "a side of several: at most this many attackers on one defender (0: no limit, the text's reading); a fighter passes over a foe that many allies attack, and waits when every foe does",
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

impl GuardPierce {
    /// Compiles a scenario file, resolving names and checking each wound track.
    pub fn compile(file: &File, source: &Source) -> Result<Self, InputError> {
        let rules = file.rules.clone();
        let margin = rules.dead_margin.u32();
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
            let key = side.key();
            let (weapon, armour) = file.equipment_of(side, spec, source)?;
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
            members.push(Enrolled {
                side,
                name: enlisted.name,
                target: enlisted.target,
            });
        }
        Ok(GuardPierce::skirmish(
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
    use crate::rules::guard_pierce::test_support::rows;

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
    fn documented_defaults_are_the_defaults_in_force() {
        crate::rules::assert_documented_defaults(
            PARAMETERS,
            &Rules::default(),
            &Healing::default(),
        );
    }

    // Rule ledger tests (docs/rules/guard-pierce.md, "Rule ledger").

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
}
