//! The twin-d20 scenario schema: what a scenario writes (fighters with Attack, Defense, Toughness
//! and a stance, weapons with Damage, armour with Coverage and Protection, the `[rules]` and
//! `[healing]` constants and every documented parameter) and its compilation into the flat
//! [`Fighter`]s of a [`TwinD20`] point.
//!
//! The text (`shared/rules/twin-d20.txt`) names these numbers but has no sheet or tables: the
//! values come from the scenario, and the parameters the text does not fix (stance, weapon
//! attack, armour defense, the number of wound circles) are the designs recorded in
//! `docs/rules/twin-d20.md`.

use super::{Fighter, Member, TwinD20};
use crate::rules::{FirstStrike, Parameter};
use crate::scenario::error::{InputError, Source};
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
    /// The Attack value: a die hits when no higher than it.
    pub attack: Ranged<0, 40>,
    /// The Defense value: a die hits when above it.
    pub defense: Ranged<0, 20>,
    /// Toughness: a Wound above it incapacitates; also the Recovery roll's value.
    pub toughness: Ranged<1, 40>,
    /// A key of `[weapons]`.
    pub weapon: Name,
    /// A key of `[armour]`; none when absent.
    pub armour: Option<Name>,
    /// How the fighter trades Defense for Attack.
    #[serde(default)]
    pub stance: Stance,
}

crate::fighter_refs!(FighterSpec);

/// A fighter's tactic: trade Defense for Attack or the other way round.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stance {
    /// Attack and Defense as written.
    #[default]
    Normal,
    /// Attack + `stance_shift`, Defense − `stance_shift`.
    Aggressive,
    /// Attack − `stance_shift`, Defense + `stance_shift`.
    Defensive,
}

/// A weapon entry (`[weapons.<name>]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeaponSpec {
    /// The weapon's Damage.
    pub damage: Ranged<0, 40>,
    /// Added to the wielder's Attack (a well-balanced or clumsy weapon).
    #[serde(default)]
    pub attack: Ranged<-20, 20>,
}

/// An armour entry (`[armour.<name>]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArmourSpec {
    /// Coverage 1–19 is checked with the white die; 20 is sealed; 0 never protects.
    pub coverage: Ranged<0, 20>,
    /// Subtracted from the Damage when the armour is struck.
    pub protection: Ranged<0, 40>,
    /// Added to the wearer's Defense (a shield, or a penalty for heavy armour).
    #[serde(default)]
    pub defense: Ranged<-20, 20>,
}

impl<const LO: i64, const HI: i64> Default for Ranged<LO, HI> {
    fn default() -> Self {
        Ranged::new(0)
    }
}

/// The constants of the ruleset a scenario can override in `[rules]`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Whether a die equal to Defense hits ("above" read strictly: it does not).
    pub hit_on_defense: bool,
    /// What a last digit of 0 (on a 10 or 20) counts as when one die hits.
    pub zero_digit_counts: Ranged<0, 40>,
    /// When both dice hit and their difference is at least this, the bonus is `big_difference_bonus`.
    pub big_difference: Ranged<1, 20>,
    /// The bonus for a difference of `big_difference` or more (instead of twice the difference).
    pub big_difference_bonus: Ranged<0, 80>,
    /// Play with the Aftermath rules (mark above the worst Wound; death far above Toughness).
    pub aftermath: bool,
    /// Dead in the Aftermath when a Wound is more than this many circles above Toughness.
    pub death_margin: Ranged<0, 40>,
    /// Wound circles on the sheet; a Wound with no empty circle up to the last is marked beyond it.
    pub wound_circles: Ranged<2, 60>,
    /// Who strikes first each round.
    pub first_strike: FirstStrike,
    /// Attack and Defense traded by the aggressive and defensive stances.
    pub stance_shift: Ranged<0, 20>,
    /// Who attacks in turn within a round when a side has several fighters.
    pub turn_order: TurnOrder,
    /// At most this many attackers on one defender (0: no limit, the texts' reading).
    pub max_attackers: Ranged<0, 16>,
}

pub use crate::rules::roster::TurnOrder;

impl Default for Rules {
    fn default() -> Self {
        Rules {
            max_attackers: Ranged::new(0),
            hit_on_defense: false,
            zero_digit_counts: Ranged::new(10),
            big_difference: Ranged::new(10),
            big_difference_bonus: Ranged::new(20),
            aftermath: true,
            death_margin: Ranged::new(5),
            wound_circles: Ranged::new(40),
            first_strike: FirstStrike::Random,
            stance_shift: Ranged::new(2),
            turn_order: TurnOrder::Sides,
        }
    }
}

/// The healing timeline's settings (`[healing]`).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Healing {
    /// Days between Recovery rolls (the text: a month, a week or a night; the group chooses).
    pub interval_days: Ranged<1, 365>,
    /// Days followed before a still-wounded fighter is counted as unhealed.
    pub horizon_days: Ranged<1, 3650>,
    /// The healer's Medicine value; 0 means no healer.
    pub medicine: Ranged<0, 40>,
    /// Equipment bonus (or penalty for improvised tools) added to the Medicine value.
    pub equipment: Ranged<-20, 20>,
    /// Medicine rolls before each Recovery roll; the highest success counts.
    pub medicine_rolls: Ranged<1, 10>,
}

impl Default for Healing {
    fn default() -> Self {
        Healing {
            interval_days: Ranged::new(7),
            horizon_days: Ranged::new(365),
            medicine: Ranged::new(0),
            equipment: Ranged::new(0),
            medicine_rolls: Ranged::new(1),
        }
    }
}

/// A whole twin-d20 scenario file.
pub type File = ScenarioFile<FighterSpec, WeaponSpec, ArmourSpec, Rules, Healing>;

/// Every parameter a twin-d20 scenario can set, with its default.
pub const PARAMETERS: &[Parameter] = &[
    Parameter {
        section: "rules",
        key: "hit_on_defense",
        default: "false",
        doc: "a die equal to Defense hits (\"above\" read strictly: no)",
    },
    Parameter {
        section: "rules",
        key: "zero_digit_counts",
        default: "10",
        doc: "one die hits: a missing die's last digit 0 counts as this",
    },
    Parameter {
        section: "rules",
        key: "big_difference",
        default: "10",
        doc: "both dice hit: a difference this large or more...",
    },
    Parameter {
        section: "rules",
        key: "big_difference_bonus",
        default: "20",
        doc: "...adds this instead of twice the difference",
    },
    Parameter {
        section: "rules",
        key: "aftermath",
        default: "true",
        doc: "play with the Aftermath: mark the circle above the worst Wound after the battle",
    },
    Parameter {
        section: "rules",
        key: "death_margin",
        default: "5",
        doc: "Aftermath: dead when a Wound is more than this many circles above Toughness",
    },
    Parameter {
        section: "rules",
        key: "wound_circles",
        default: "40",
        doc: "wound circles on the sheet; a Wound finding none empty is marked beyond the last",
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
        key: "stance_shift",
        default: "2",
        doc: "Attack/Defense traded by the aggressive and defensive stances",
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
        doc: "days between Recovery rolls (month, week or night: the group chooses)",
    },
    Parameter {
        section: "healing",
        key: "horizon_days",
        default: "365",
        doc: "days followed before a wounded survivor counts as unhealed",
    },
    Parameter {
        section: "healing",
        key: "medicine",
        default: "0",
        doc: "the healer's Medicine value (0: no healer)",
    },
    Parameter {
        section: "healing",
        key: "equipment",
        default: "0",
        doc: "equipment bonus (+) or improvised-tools penalty (-) to Medicine",
    },
    Parameter {
        section: "healing",
        key: "medicine_rolls",
        default: "1",
        doc: "Medicine rolls before each Recovery roll; the highest success adds to Toughness",
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
        doc: "Attack (0-40): a die hits when no higher than it",
    },
    Parameter {
        section: "a / b",
        key: "defense",
        default: "required",
        doc: "Defense (0-20): a die hits when above it",
    },
    Parameter {
        section: "a / b",
        key: "toughness",
        default: "required",
        doc: "Toughness (1-40): a Wound above it incapacitates",
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
        key: "stance",
        default: "\"normal\"",
        doc: "normal, aggressive (+Attack -Defense) or defensive (-Attack +Defense)",
    },
    Parameter {
        section: "a / b",
        key: "count",
        default: "1",
        doc: "copies of this fighter on its side (1-16): \"Brigand 1\", \"Brigand 2\", ...; [[a]] makes a mixed side",
    },
    Parameter {
        section: "a / b",
        key: "target",
        default: "\"same\"",
        doc: "whom it attacks while several foes stand: same (one foe until out), weakest, strongest, random (a die)",
    },
    Parameter {
        section: "weapons.<name>",
        key: "damage",
        default: "required",
        doc: "the weapon's Damage (0-40)",
    },
    Parameter {
        section: "weapons.<name>",
        key: "attack",
        default: "0",
        doc: "added to the wielder's Attack",
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
        doc: "Protection subtracted from the Damage when struck",
    },
    Parameter {
        section: "armour.<name>",
        key: "defense",
        default: "0",
        doc: "added to the wearer's Defense",
    },
];

impl TwinD20 {
    /// Compiles a scenario file into a point, resolving weapon and armour names.
    pub fn compile(file: &File, source: &Source) -> Result<Self, InputError> {
        let rules = file.rules.clone();
        let mut members = Vec::new();
        for side in Side::BOTH {
            let roster = file.roster(side, source)?;
            for enlisted in roster {
                let spec = &file.side(side).entries[enlisted.entry];
                let key = side.key();
                let (weapon, armour) = file.equipment_of(side, spec, source)?;
                let shift = rules.stance_shift.i32();
                let (attack_shift, defense_shift) = match spec.stance {
                    Stance::Normal => (0, 0),
                    Stance::Aggressive => (shift, -shift),
                    Stance::Defensive => (-shift, shift),
                };
                if spec.toughness.get() >= rules.wound_circles.get() {
                    return Err(source.error_at(
                        spec.toughness.span(),
                        Some(&format!("{key}.toughness")),
                        format!(
                            "Toughness {} leaves no circle above it on a sheet of {} wound circles; expected less than rules.wound_circles",
                            spec.toughness.get(),
                            rules.wound_circles.get()
                        ),
                    ));
                }
                members.push(Member {
                    side,
                    fighter: Fighter {
                        attack: spec.attack.i32() + weapon.attack.i32() + attack_shift,
                        defense: spec.defense.i32()
                            + armour.map_or(0, |a| a.defense.i32())
                            + defense_shift,
                        toughness: spec.toughness.u32(),
                        damage: weapon.damage.u32(),
                        coverage: armour.map_or(0, |a| a.coverage.u32()),
                        protection: armour.map_or(0, |a| a.protection.u32()),
                    },
                    name: enlisted.name,
                    target: enlisted.target,
                });
            }
        }
        Ok(TwinD20::skirmish(
            members,
            rules,
            file.healing.clone(),
            file.round_limit.u32(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::NoLog;
    use crate::rules::twin_d20::WoundCircles;
    use crate::rules::twin_d20::test_support::strike_with;

    #[test]
    fn documented_defaults_are_the_defaults_in_force() {
        crate::rules::assert_documented_defaults(
            PARAMETERS,
            &Rules::default(),
            &Healing::default(),
        );
    }

    // Rule ledger tests (docs/rules/twin-d20.md, "Rule ledger").

    /// Compiles scenario text (for the fighter fields only `compile` reads, such as `stance`).
    fn ledger_compile(text: &str) -> TwinD20 {
        let file: File = toml::from_str(text).unwrap_or_else(|e| panic!("{e}"));
        let source = Source {
            path: std::path::Path::new("t.toml"),
            text,
        };
        TwinD20::compile(&file, &source).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn weapon_attack_and_armour_defense_add_to_the_fighters_attack_and_defense() {
        // Design (assumptions, "Weapon attack, armour defense (0)"): a weapon's attack adds to
        // the wielder's Attack, an armour's defense to the wearer's Defense.
        let m = ledger_compile(
            "name = \"t\"\nruleset = \"twin-d20\"\n\
             [a]\nattack = 10\ndefense = 6\ntoughness = 8\nweapon = \"w\"\narmour = \"shield\"\n\
             [b]\nattack = 10\ndefense = 6\ntoughness = 8\nweapon = \"w\"\n\
             [weapons.w]\ndamage = 2\nattack = 1\n\
             [armour.shield]\ncoverage = 12\nprotection = 3\ndefense = 2\n",
        );
        assert_eq!((m.fighters[0].attack, m.fighters[0].defense), (11, 8));
        assert_eq!((m.fighters[0].coverage, m.fighters[0].protection), (12, 3));
        assert_eq!((m.fighters[1].attack, m.fighters[1].defense), (11, 6));
        assert_eq!((m.fighters[1].coverage, m.fighters[1].protection), (0, 0));
    }

    // ---- Item 7: parameters the text does not have ------------------------------------------

    #[test]
    fn stance_aggressive_trades_defense_for_attack_and_defensive_the_reverse() {
        // Design (assumptions, rules.stance_shift = 2): aggressive Attack +2 Defense -2;
        // defensive the reverse.
        let scenario = |a: &str, b: &str, rules: &str| {
            format!(
                "name = \"t\"\nruleset = \"twin-d20\"\n\
                 [a]\nattack = 10\ndefense = 6\ntoughness = 8\nweapon = \"w\"\nstance = \"{a}\"\n\
                 [b]\nattack = 10\ndefense = 6\ntoughness = 8\nweapon = \"w\"\nstance = \"{b}\"\n\
                 [weapons.w]\ndamage = 2\n{rules}"
            )
        };
        let normal = ledger_compile(&scenario("normal", "normal", ""));
        let shifted = ledger_compile(&scenario("aggressive", "defensive", ""));
        assert_eq!(
            (shifted.fighters[0].attack, shifted.fighters[0].defense),
            (12, 4)
        );
        assert_eq!(
            (shifted.fighters[1].attack, shifted.fighters[1].defense),
            (8, 8)
        );
        // a on b, 3 and 11: normal (Attack 10 vs Defense 6) both miss; aggressive on defensive
        // (12 vs 8): 11 hits, 3 missed: 2 + 3 = 5.
        assert_eq!(strike_with(&normal, &[3, 11]).0, None);
        assert_eq!(strike_with(&shifted, &[3, 11]).0, Some(5));
        // b on a, 5 and 9: normal (10 vs 6): 9 hits, 5 missed: 7; defensive on aggressive
        // (8 vs 4): 5 hits, 9 missed (above 8): 2 + 9 = 11.
        for (model, expected) in [(&normal, 7), (&shifted, 11)] {
            let mut wounds = WoundCircles::default();
            let mut dice = ScriptedDice::new([5, 9]);
            let strike = model.strike(Side::B, &mut wounds, &mut dice, &mut NoLog);
            assert!(dice.finish().is_ok());
            assert_eq!(strike.dealt, expected);
        }
        // rules.stance_shift = 3 trades 3.
        let three = ledger_compile(&scenario(
            "aggressive",
            "defensive",
            "[rules]\nstance_shift = 3\n",
        ));
        assert_eq!(
            (three.fighters[0].attack, three.fighters[0].defense),
            (13, 3)
        );
        assert_eq!(
            (three.fighters[1].attack, three.fighters[1].defense),
            (7, 9)
        );
    }
}
