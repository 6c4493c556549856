//! The scenario schema's `[rules]` (the constants of the combat sequences, with the defaults
//! for the pages the text refers to but does not include) and `[healing]` (who tends the
//! wounded, when and where: the HEALING SEQUENCE's care), their compilation, and `PARAMETERS`:
//! every key a zone-d100 scenario can set, with its default, for `duelsim rulesets zone-d100`.

use super::melee::MeleeRules;
use crate::rules::Parameter;
use crate::scenario::fields::Ranged;
use serde::{Deserialize, Serialize};

/// The constants a scenario can override in `[rules]`.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Penalty for aiming at a zone number other than 1.
    pub aim_penalty: Ranged<0, 100>,
    /// Penalty per point of Heft above Strength.
    pub heft_penalty: Ranged<0, 100>,
    /// Penalty while prone.
    pub prone_penalty: Ranged<0, 100>,
    /// Penalty to defence tests per opponent threatening the defender beyond one.
    pub outnumbered_penalty: Ranged<0, 100>,
    /// Reach penalty and Thrust bonus per point of Reach difference.
    pub reach_step: Ranged<0, 100>,
    /// Impairment of a Minor injury once it impairs (immediately after a failed Shock roll).
    pub minor_impairment: Ranged<0, 100>,
    /// Impairment of a Serious injury.
    pub serious_impairment: Ranged<0, 100>,
    /// Penalty of the Shock Reroll.
    pub reroll_penalty: Ranged<0, 100>,
    /// Chance in 100 that a weapon or shield breaks blocking a tied success (page 191).
    pub weapon_damage_chance: Ranged<0, 100>,
    /// Use the face option table.
    pub face_option: bool,
    /// Morale rolls after Serious and Grievous injuries (page 162).
    pub morale: bool,
    /// The victor goes on striking a helpless foe (UNC, or INC in Extended Shock) until it is
    /// dead or the round limit comes; otherwise such a foe has lost and the fight ends.
    pub strike_helpless: bool,
    /// A shield Block is impaired by both arms, not by the shield arm alone (the text: "ARM
    /// IMPAIRED TESTS (RIGHT OR LEFT)"; a right-arm injury leaves "Left arm actions" whole).
    pub shield_block_both_arms: bool,
    /// The fighters start in Close (the Reach penalty and Thrust bonus reverse).
    pub start_in_close: bool,
    /// Feet between the fighters at the start (0: already in melee).
    pub start_distance: Ranged<0, 5000>,
    /// Feet a fighter without a missile closes each round (charging: a Moving target).
    pub approach: Ranged<1, 500>,
    /// Distance at which melee begins.
    pub melee_distance: Ranged<0, 50>,
    /// Windforce of a crosswind (0 none).
    pub windforce: Ranged<0, 4>,
    /// An overhead under ten feet: no Volley.
    pub low_overhead: bool,
    /// An overhead under five feet: no Volley, and bows and crossbows −20 at Direct (not PB).
    pub very_low_overhead: bool,
    /// Bows and crossbows are wet: Base Range halved.
    pub wet_bows: bool,
    /// A spoiled missile attack "occurs but automatically fails (roll against EML05 to check
    /// for CF)" instead of "no attack takes place".
    pub spoiled_shots_roll_for_cf: bool,
    /// At most this many attackers on one defender (0: no limit, the texts' reading).
    pub max_attackers: Ranged<0, 16>,
}

impl Default for Rules {
    fn default() -> Self {
        let m = MeleeRules::default();
        Rules {
            max_attackers: Ranged::new(0),
            aim_penalty: Ranged::new(i64::from(m.aim_penalty)),
            heft_penalty: Ranged::new(i64::from(m.heft_penalty)),
            prone_penalty: Ranged::new(i64::from(m.prone_penalty)),
            outnumbered_penalty: Ranged::new(i64::from(m.outnumbered_penalty)),
            reach_step: Ranged::new(i64::from(m.reach_step)),
            minor_impairment: Ranged::new(i64::from(m.minor_impairment)),
            serious_impairment: Ranged::new(i64::from(m.serious_impairment)),
            reroll_penalty: Ranged::new(i64::from(m.reroll_penalty)),
            weapon_damage_chance: Ranged::new(i64::from(m.weapon_damage_chance)),
            face_option: m.face_option,
            morale: m.morale,
            strike_helpless: m.strike_helpless,
            shield_block_both_arms: m.shield_block_both_arms,
            start_in_close: false,
            start_distance: Ranged::new(0),
            approach: Ranged::new(30),
            melee_distance: Ranged::new(5),
            windforce: Ranged::new(0),
            low_overhead: false,
            very_low_overhead: false,
            wet_bows: false,
            spoiled_shots_roll_for_cf: false,
        }
    }
}

impl Rules {
    /// The melee settings these rules make.
    pub fn melee(&self) -> MeleeRules {
        MeleeRules {
            aim_penalty: self.aim_penalty.i32(),
            heft_penalty: self.heft_penalty.i32(),
            prone_penalty: self.prone_penalty.i32(),
            outnumbered_penalty: self.outnumbered_penalty.i32(),
            reach_step: self.reach_step.i32(),
            minor_impairment: self.minor_impairment.i32(),
            serious_impairment: self.serious_impairment.i32(),
            reroll_penalty: self.reroll_penalty.i32(),
            weapon_damage_chance: self.weapon_damage_chance.u32(),
            face_option: self.face_option,
            morale: self.morale,
            strike_helpless: self.strike_helpless,
            shield_block_both_arms: self.shield_block_both_arms,
            ..MeleeRules::default()
        }
    }
}

/// The most healers a patient can have: the Care's four slots.
pub const MAX_HEALERS: usize = 4;

/// A list of healers' Physician MLs, at most [`MAX_HEALERS`] of them.
pub fn healers<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<Ranged<0, 150>>, D::Error> {
    let list = Vec::<Ranged<0, 150>>::deserialize(d)?;
    if list.len() > MAX_HEALERS {
        return Err(serde::de::Error::invalid_length(
            list.len(),
            &"at most 4 healers (a Physician ML each)",
        ));
    }
    Ok(list)
}

/// Lists of healers (one point each), each at most [`MAX_HEALERS`] long.
pub fn healer_sets<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Vec<Vec<Ranged<0, 150>>>, D::Error> {
    #[derive(Deserialize)]
    struct Set(#[serde(deserialize_with = "healers")] Vec<Ranged<0, 150>>);
    Ok(Vec::<Set>::deserialize(d)?
        .into_iter()
        .map(|s| s.0)
        .collect())
}

/// The aftermath (`[healing]`): who tends the wounded, when, where, for how long.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct Healing {
    /// Physician ML of each healer present (up to four; none: no healer).
    #[serde(deserialize_with = "healers")]
    pub physicians: Vec<Ranged<0, 150>>,
    /// The healers' DEX secondary modifier (surgery, extraction).
    pub dexterity_modifier: Ranged<-20, 20>,
    /// Whether help comes at all.
    pub help: bool,
    /// Minutes after the fight until the healer reaches the patient.
    pub help_minutes: Ranged<0, 100_000>,
    /// Cauterisation (+30, infection risk) instead of Staunch for bleeders.
    pub cauterise: bool,
    /// A tourniquet on limb bleeders (+20).
    pub tourniquet: bool,
    /// Days between the end of bleeding and shock and the treatment (−5 a day).
    pub treatment_delay_days: Ranged<0, 365>,
    /// A restful, sheltered place (a coma outside: −20).
    pub shelter: bool,
    /// Days followed.
    pub horizon_days: Ranged<1, 3650>,
    /// Healing periods of d3+3 days instead of five.
    pub random_period: bool,
    /// A frozen compress (+10 to Compress treatment rolls).
    pub frozen_compress: bool,
    /// Healers amputate a limb whose wound is infected, defeating the infection.
    pub amputate_infected_limbs: bool,
}

impl Default for Healing {
    fn default() -> Self {
        Healing {
            physicians: vec![Ranged::new(50)],
            dexterity_modifier: Ranged::new(0),
            help: true,
            help_minutes: Ranged::new(5),
            cauterise: false,
            tourniquet: true,
            treatment_delay_days: Ranged::new(0),
            shelter: true,
            horizon_days: Ranged::new(365),
            random_period: false,
            frozen_compress: false,
            amputate_infected_limbs: false,
        }
    }
}

impl Healing {
    /// The compiled care.
    pub fn care(&self) -> super::healing::Care {
        let mut physicians = [0; 4];
        for (slot, ml) in physicians.iter_mut().zip(&self.physicians) {
            *slot = ml.i32();
        }
        super::healing::Care {
            healers: super::healing::Healers::of(physicians),
            dexterity_modifier: self.dexterity_modifier.i32(),
            help_minutes: self.help.then(|| self.help_minutes.u32()),
            cauterise: self.cauterise,
            tourniquet: self.tourniquet,
            treatment_delay_days: self.treatment_delay_days.u32(),
            shelter: self.shelter,
            horizon_days: self.horizon_days.u32(),
            random_period: self.random_period,
            reroll_penalty: 20,
            frozen_compress: self.frozen_compress,
            amputate_infected_limbs: self.amputate_infected_limbs,
        }
    }
}

/// Every parameter a zone-d100 scenario can set, with its default.
pub const PARAMETERS: &[Parameter] = &[
    Parameter {
        section: "rules",
        key: "aim_penalty",
        default: "10",
        doc: "penalty for aiming at a zone number other than 1",
    },
    Parameter {
        section: "rules",
        key: "heft_penalty",
        default: "5",
        doc: "penalty per point of Heft above Strength (two-handed: Heft -5)",
    },
    Parameter {
        section: "rules",
        key: "prone_penalty",
        default: "20",
        doc: "penalty while prone",
    },
    Parameter {
        section: "rules",
        key: "outnumbered_penalty",
        default: "10",
        doc: "a side of several: penalty to a defence test per foe threatening the defender beyond one (not prone, not Ignored)",
    },
    Parameter {
        section: "rules",
        key: "reach_step",
        default: "5",
        doc: "Reach penalty and Thrust bonus per point of Reach difference",
    },
    Parameter {
        section: "rules",
        key: "minor_impairment",
        default: "5",
        doc: "impairment of a Minor injury after a failed Shock roll",
    },
    Parameter {
        section: "rules",
        key: "serious_impairment",
        default: "10",
        doc: "impairment of a Serious injury",
    },
    Parameter {
        section: "rules",
        key: "reroll_penalty",
        default: "20",
        doc: "penalty of the Shock Reroll",
    },
    Parameter {
        section: "rules",
        key: "weapon_damage_chance",
        default: "5",
        doc: "chance in 100 that a blocking weapon or shield breaks on a tied success (page 191 missing)",
    },
    Parameter {
        section: "rules",
        key: "face_option",
        default: "true",
        doc: "use the FACE OPTION table",
    },
    Parameter {
        section: "rules",
        key: "morale",
        default: "true",
        doc: "Morale rolls (Initiative ML) after Serious and Grievous injuries; a failure quits the fight (page 162 missing)",
    },
    Parameter {
        section: "rules",
        key: "strike_helpless",
        default: "false",
        doc: "the victor strikes a helpless foe (UNC, or INC in Extended Shock) until dead; false: such a foe has lost and the fight ends (an INC foe is fought on either way)",
    },
    Parameter {
        section: "rules",
        key: "shield_block_both_arms",
        default: "false",
        doc: "a shield Block is impaired by both arms; false: by the shield arm alone (ARM IMPAIRED TESTS (RIGHT OR LEFT))",
    },
    Parameter {
        section: "rules",
        key: "start_in_close",
        default: "false",
        doc: "the fighters start in Close: Reach penalty and Thrust bonus reverse",
    },
    Parameter {
        section: "rules",
        key: "start_distance",
        default: "0",
        doc: "feet between the fighters at the start (0: in melee)",
    },
    Parameter {
        section: "rules",
        key: "approach",
        default: "30",
        doc: "feet a fighter without a missile closes each round (a Moving target)",
    },
    Parameter {
        section: "rules",
        key: "melee_distance",
        default: "5",
        doc: "distance at which melee begins",
    },
    Parameter {
        section: "rules",
        key: "windforce",
        default: "0",
        doc: "crosswind Windforce (-10 Direct / -20 Volley per point)",
    },
    Parameter {
        section: "rules",
        key: "low_overhead",
        default: "false",
        doc: "an overhead under ten feet: no Volley",
    },
    Parameter {
        section: "rules",
        key: "very_low_overhead",
        default: "false",
        doc: "an overhead under five feet: no Volley, and bows and crossbows -20 at Direct (not PB)",
    },
    Parameter {
        section: "rules",
        key: "wet_bows",
        default: "false",
        doc: "wet bows and crossbows: Base Range halved",
    },
    Parameter {
        section: "rules",
        key: "spoiled_shots_roll_for_cf",
        default: "false",
        doc: "a spoiled missile attack (EML -40 or worse) still rolls against EML05 for a CF mishap, instead of not taking place",
    },
    Parameter {
        section: "rules",
        key: "max_attackers",
        default: "0",
        doc: "a side of several: at most this many attackers on one defender (0: no limit, the text's reading); a fighter passes over a foe that many allies attack, and waits when every foe does",
    },
    Parameter {
        section: "healing",
        key: "physicians",
        default: "[50]",
        doc: "Physician ML of each healer present (up to 4; [] no healer)",
    },
    Parameter {
        section: "healing",
        key: "dexterity_modifier",
        default: "0",
        doc: "the healers' DEX secondary modifier (surgery, extraction)",
    },
    Parameter {
        section: "healing",
        key: "help",
        default: "true",
        doc: "whether a healer comes at all",
    },
    Parameter {
        section: "healing",
        key: "help_minutes",
        default: "5",
        doc: "minutes after the fight until the healer reaches the patient",
    },
    Parameter {
        section: "healing",
        key: "cauterise",
        default: "false",
        doc: "Cauterisation (+30; failed Healing Rolls ending 3, 5, 8, 0 are CF) instead of Staunch",
    },
    Parameter {
        section: "healing",
        key: "tourniquet",
        default: "true",
        doc: "a tourniquet on limb bleeders (+20)",
    },
    Parameter {
        section: "healing",
        key: "treatment_delay_days",
        default: "0",
        doc: "days before treatment (-5 a day)",
    },
    Parameter {
        section: "healing",
        key: "shelter",
        default: "true",
        doc: "a restful, sheltered place (a coma outside: -20)",
    },
    Parameter {
        section: "healing",
        key: "horizon_days",
        default: "365",
        doc: "days followed",
    },
    Parameter {
        section: "healing",
        key: "random_period",
        default: "false",
        doc: "healing periods of d3+3 days instead of 5",
    },
    Parameter {
        section: "healing",
        key: "frozen_compress",
        default: "false",
        doc: "the Compress treatment uses a frozen compress (+10)",
    },
    Parameter {
        section: "healing",
        key: "amputate_infected_limbs",
        default: "false",
        doc: "healers amputate an infected limb (the Amputation treatment; defeats the infection)",
    },
    Parameter {
        section: "a / b",
        key: "melee_ml / dodge_ml / shock_ml / initiative_ml",
        default: "required",
        doc: "Mastery Levels",
    },
    Parameter {
        section: "a / b",
        key: "strength_ml / dexterity_ml / agility_ml",
        default: "60",
        doc: "amputation tests and blood loss; Fumble rolls; Stumble rolls",
    },
    Parameter {
        section: "a / b",
        key: "strength",
        default: "12",
        doc: "Strength against Heft",
    },
    Parameter {
        section: "a / b",
        key: "impact_modifier",
        default: "0",
        doc: "Strength Impact Modifier",
    },
    Parameter {
        section: "a / b",
        key: "healing_base / endurance_ml",
        default: "13 / 60",
        doc: "Healing Base; Endurance ML (blood regeneration)",
    },
    Parameter {
        section: "a / b",
        key: "weapon / shield / armour",
        default: "required / none / none",
        doc: "keys of [weapons] and [armour]",
    },
    Parameter {
        section: "a / b",
        key: "unarmed",
        default: "\"punch\"",
        doc: "the unarmed strike mode designated with no weapon in hand (a key of [weapons]; without a punch entry: d4 B, Zone Die d4, Reach 0)",
    },
    Parameter {
        section: "a / b",
        key: "defence",
        default: "\"block\"",
        doc: "block, dodge, counterstrike, ignore",
    },
    Parameter {
        section: "a / b",
        key: "aim",
        default: "1",
        doc: "zone number aimed at",
    },
    Parameter {
        section: "a / b",
        key: "advantages",
        default: "[\"impact\", \"precision\", \"setup\", \"action\"]",
        doc: "tactical advantages in order of preference",
    },
    Parameter {
        section: "a / b",
        key: "missile / missile_ml / aim_shots",
        default: "none / 0 / false",
        doc: "a missile weapon, its ML, and whether to Aim before each shot",
    },
    Parameter {
        section: "a / b",
        key: "off_hand / fatigue",
        default: "false / 0",
        doc: "off-hand use (Heft +5, at least -10); fatigue penalty to every test",
    },
    Parameter {
        section: "a / b",
        key: "evade_missiles",
        default: "false",
        doc: "approach a shooter with the Evade action: half the approach, missiles -5 x Dodge index",
    },
    Parameter {
        section: "weapons.<name>",
        key: "impact_die / impact_modifier / aspect",
        default: "required / 0 / required",
        doc: "base impact d<die>+<modifier> of aspect B, E, P or F",
    },
    Parameter {
        section: "weapons.<name>",
        key: "zone_die / reach / heft",
        default: "6 / 0 / 0",
        doc: "Zone Die sides, Reach, Heft",
    },
    Parameter {
        section: "weapons.<name>",
        key: "thrust / two_handed / impact_ta",
        default: "false / false / by aspect",
        doc: "Thrust bonus; two-handed; impact per Impact TA (3B 5E 4P 2F)",
    },
    Parameter {
        section: "weapons.<name>",
        key: "base_range / armour_reduction",
        default: "none / 0",
        doc: "a missile weapon's Base Range (feet) and its projectile's Armour Reduction",
    },
    Parameter {
        section: "weapons.<name>",
        key: "load_rounds / span_rounds / aim_allowed / impales / thrown",
        default: "1 / 0 / false / false / false",
        doc: "missile actions and projectile",
    },
    Parameter {
        section: "armour.<name>",
        key: "pieces",
        default: "required",
        doc: "[{ locations = [...], B, E, P, F, rigid }]",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_rules_and_healing_defaults_are_the_defaults_in_force() {
        crate::rules::assert_documented_defaults(
            PARAMETERS,
            &Rules::default(),
            &Healing::default(),
        );
    }
}
