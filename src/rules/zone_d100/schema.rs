//! The zone-d100 scenario schema: fighters with their Mastery Levels and tactics (the MELEE
//! SEQUENCE's 2 ATTACK & DEFENCE DECLARATION made once for the duel: the strike weapon, Zone
//! Aim, the defence option, the tactical advantages preferred; the missile and its ML for the
//! MISSILE SEQUENCE), and the compilation of a scenario file into the flat melee model (each
//! fighter with its weapon, shield, missile, armour by location and tactics). The file's other
//! tables are beside it: weapons and armour pieces in `equipment.rs`; `[rules]`, `[healing]`
//! and the `PARAMETERS` listing in `parameters.rs` (each re-exported here).

pub use super::equipment::{
    ArmourSpec, LOCATION_NAMES, LocationName, Piece, WeaponSpec, armour_locations_note,
};
pub use super::parameters::{Healing, MAX_HEALERS, PARAMETERS, Rules, healer_sets, healers};

use super::equipment::{PUNCH, armour, weapon};
use super::melee::{Advantage, Cover, Fighter, LOCATIONS, Weapon};
use super::missile::Missile;
use super::skill::Defence;
use crate::scenario::error::{InputError, Source, unknown_name};
use crate::scenario::fields::{Name, Ranged};
use crate::scenario::schema::{Enlisted, ScenarioFile};
use crate::stats::Side;
use serde::Deserialize;

/// A fighter as the scenario writes it.
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
    /// Melee ML with the weapon.
    pub melee_ml: Ranged<0, 150>,
    /// Dodge ML.
    pub dodge_ml: Ranged<0, 150>,
    /// Shock ML.
    pub shock_ml: Ranged<0, 150>,
    /// Initiative ML (order of action; Morale rolls).
    pub initiative_ml: Ranged<0, 150>,
    /// Strength ML (amputation tests).
    #[serde(default = "sixty")]
    pub strength_ml: Ranged<0, 150>,
    /// Strength attribute (against Heft).
    #[serde(default = "twelve")]
    pub strength: Ranged<1, 30>,
    /// Strength Impact Modifier (page 97).
    #[serde(default)]
    pub impact_modifier: Ranged<-10, 10>,
    /// Dexterity ML (Fumble rolls).
    #[serde(default = "sixty")]
    pub dexterity_ml: Ranged<0, 150>,
    /// Agility ML (Stumble rolls).
    #[serde(default = "sixty")]
    pub agility_ml: Ranged<0, 150>,
    /// A key of `[weapons]`.
    pub weapon: Name,
    /// A shield (a key of `[weapons]`) used to Block.
    pub shield: Option<Name>,
    /// The unarmed strike mode (a key of `[weapons]`) designated with no weapon in hand; by
    /// default `punch` if `[weapons]` has one, else [`PUNCH`].
    pub unarmed: Option<Name>,
    /// A key of `[armour]`.
    pub armour: Option<Name>,
    /// The defence used when attacked.
    #[serde(default = "block")]
    pub defence: Defence,
    /// The zone number aimed at (1: the default, no aim penalty).
    #[serde(default = "one")]
    pub aim: Ranged<1, 10>,
    /// Tactical advantages in order of preference.
    #[serde(default = "advantages")]
    pub advantages: Vec<Advantage>,
    /// Wields the weapon in the right hand.
    #[serde(default = "yes")]
    pub right_handed: bool,
    /// A missile weapon (a key of `[weapons]` with a `base_range`), shot before melee.
    pub missile: Option<Name>,
    /// The ML the missile is shot with (Archery, Slings, Throwing).
    #[serde(default)]
    pub missile_ml: Ranged<0, 150>,
    /// Tactic: take the Aim action before each shot when the weapon allows it.
    #[serde(default)]
    pub aim_shots: bool,
    /// Wields the weapon in the off hand.
    #[serde(default)]
    pub off_hand: bool,
    /// Fatigue penalty to every test (the fatigue rules are not in the text).
    #[serde(default)]
    pub fatigue: Ranged<0, 100>,
    /// Tactic: approach a shooter with the Evade action.
    #[serde(default)]
    pub evade_missiles: bool,
    /// Healing Base (Healing, Course Rolls).
    #[serde(default = "thirteen")]
    pub healing_base: Ranged<1, 30>,
    /// Endurance ML (blood regeneration).
    #[serde(default = "sixty")]
    pub endurance_ml: Ranged<0, 150>,
}

fn thirteen() -> Ranged<1, 30> {
    Ranged::new(13)
}

fn sixty() -> Ranged<0, 150> {
    Ranged::new(60)
}
fn twelve() -> Ranged<1, 30> {
    Ranged::new(12)
}
fn one() -> Ranged<1, 10> {
    Ranged::new(1)
}
fn yes() -> bool {
    true
}
fn block() -> Defence {
    Defence::Block
}
fn advantages() -> Vec<Advantage> {
    vec![
        Advantage::Impact,
        Advantage::Precision,
        Advantage::Setup,
        Advantage::Action,
    ]
}

crate::fighter_refs!(FighterSpec);

/// A whole zone-d100 scenario file.
pub type File = ScenarioFile<FighterSpec, WeaponSpec, ArmourSpec, Rules, Healing>;

/// The weapon a fighter's `field` names: a key of `[weapons]`, or an error at the name.
fn named_weapon(
    file: &File,
    source: &Source,
    side: Side,
    field: &str,
    name: &Name,
) -> Result<Weapon, InputError> {
    file.weapons.get(name.get_ref()).map(weapon).ok_or_else(|| {
        let known: Vec<&str> = file.weapons.keys().map(String::as_str).collect();
        source.error_at(
            Some(name.span()),
            Some(&format!("{}.{field}", side.key())),
            unknown_name("weapon", name.get_ref(), &known),
        )
    })
}

/// Compiles every fighter of both sides, side `a`'s first, each with its roster entry (name,
/// target) and the spec it was written from.
pub fn roster<'f>(
    file: &'f File,
    source: &Source,
) -> Result<Vec<(Side, Enlisted, Fighter, &'f FighterSpec)>, InputError> {
    let mut out = Vec::with_capacity(2);
    for side in Side::BOTH {
        for enlisted in file.roster(side, source)? {
            let spec = &file.side(side).entries[enlisted.entry];
            let fighter = fighter(file, source, side, spec)?;
            out.push((side, enlisted, fighter, spec));
        }
    }
    Ok(out)
}

/// Compiles one fighter of `side` as written in `spec`.
fn fighter(
    file: &File,
    source: &Source,
    side: Side,
    spec: &FighterSpec,
) -> Result<Fighter, InputError> {
    {
        let (w, a) = file.equipment_of(side, spec, source)?;
        let shield = match &spec.shield {
            Some(name) => Some(named_weapon(file, source, side, "shield", name)?),
            None => None,
        };
        let unarmed = match &spec.unarmed {
            Some(name) => named_weapon(file, source, side, "unarmed", name)?,
            None => file.weapons.get("punch").map_or(PUNCH, weapon),
        };
        let missile = match &spec.missile {
            Some(name) => {
                let Some(m) = file.weapons.get(name.get_ref()) else {
                    let known: Vec<&str> = file.weapons.keys().map(String::as_str).collect();
                    return Err(source.error_at(
                        Some(name.span()),
                        Some(&format!("{}.missile", side.key())),
                        unknown_name("weapon", name.get_ref(), &known),
                    ));
                };
                let Some(base_range) = &m.base_range else {
                    return Err(source.error_at(
                        Some(name.span()),
                        Some(&format!("{}.missile", side.key())),
                        format!(
                            "'{}' is not a missile weapon; expected a weapon with a base_range",
                            name.get_ref()
                        ),
                    ));
                };
                let default_ta = weapon(m).impact_ta;
                Some((
                    Missile {
                        base_range: base_range.u32(),
                        impact_die: m.impact_die.u32(),
                        impact_modifier: m.impact_modifier.i32(),
                        aspect: m.aspect,
                        impact_ta: default_ta,
                        armour_reduction: m.armour_reduction.i32(),
                        load_rounds: m.load_rounds.u32(),
                        span_rounds: m.span_rounds.u32(),
                        aim_allowed: m.aim_allowed,
                        impales: m.impales,
                        broadhead: m.broadhead,
                        thrown: m.thrown,
                        heft: m.heft.i32(),
                    },
                    spec.missile_ml.i32(),
                ))
            }
            None => None,
        };
        let cover = match (a, &spec.armour) {
            (Some(a), Some(_)) => armour(a),
            _ => [Cover::default(); LOCATIONS],
        };
        // The listed preferences first, then the others in the default order.
        let mut order: Vec<Advantage> = Vec::with_capacity(4);
        for a in spec.advantages.iter().chain(advantages().iter()) {
            if !order.contains(a) {
                order.push(*a);
            }
        }
        let prefs = [order[0], order[1], order[2], order[3]];
        Ok(Fighter {
            melee_ml: spec.melee_ml.i32(),
            dodge_ml: spec.dodge_ml.i32(),
            shock_ml: spec.shock_ml.i32(),
            initiative_ml: spec.initiative_ml.i32(),
            strength_ml: spec.strength_ml.i32(),
            strength: spec.strength.i32(),
            impact_modifier: spec.impact_modifier.i32(),
            dexterity_ml: spec.dexterity_ml.i32(),
            agility_ml: spec.agility_ml.i32(),
            weapon: weapon(w),
            shield,
            unarmed,
            armour: cover,
            defence: spec.defence,
            aim: spec.aim.u32(),
            advantages: prefs,
            right_handed: spec.right_handed,
            missile,
            aim_shots: spec.aim_shots,
            off_hand: spec.off_hand,
            fatigue: spec.fatigue.i32(),
            evade_missiles: spec.evade_missiles,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::rules::registry::{self, Model};
    use std::path::Path;

    const BASE: &str = r#"
name = "t"
ruleset = "zone-d100"
[a]
melee_ml = 60
dodge_ml = 50
shock_ml = 60
initiative_ml = 60
weapon = "sword"
[b]
melee_ml = 60
dodge_ml = 50
shock_ml = 60
initiative_ml = 60
weapon = "sword"
[weapons.sword]
impact_die = 10
aspect = "E"
reach = 4
[weapons.claw]
impact_die = 6
aspect = "E"
zone_die = 4
reach = 1
"#;

    fn unarmed_reaches(text: &str) -> Result<[i32; 2], String> {
        let scenario = registry::parse(Path::new("t.toml"), text).map_err(|e| e.to_string())?;
        match &scenario.points[0].model {
            Model::ZoneD100(m) => Ok(m.melee.fighters.map(|f| f.unarmed.reach)),
            _ => Err("not a zone-d100 duel".to_owned()),
        }
    }

    #[test]
    fn an_unarmed_defender_designates_punch_or_the_named_mode() {
        // No `punch` in [weapons]: the text's punch (Reach 0).
        assert_eq!(unarmed_reaches(BASE), Ok([0, 0]));
        // The scenario's own punch, and a fighter who names its claw.
        let text = BASE.replace(
            "[weapons.sword]",
            "[weapons.punch]\nimpact_die = 4\naspect = \"B\"\nreach = 2\n[weapons.sword]",
        );
        assert_eq!(unarmed_reaches(&text), Ok([2, 2]));
        let text = BASE.replacen(
            "weapon = \"sword\"",
            "weapon = \"sword\"\nunarmed = \"claw\"",
            1,
        );
        assert_eq!(unarmed_reaches(&text), Ok([1, 0]));
        let text = BASE.replacen(
            "weapon = \"sword\"",
            "weapon = \"sword\"\nunarmed = \"bite\"",
            1,
        );
        let error = unarmed_reaches(&text).expect_err("an unknown unarmed mode is refused");
        assert!(
            error.contains("a.unarmed") && error.contains("bite"),
            "{error}"
        );
    }
}
