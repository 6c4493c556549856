//! The missile sequence: actions (load, aim, span, shoot, throw), range bands with their
//! modifier, Zone Die and impact change, the situational modifiers of the missile test, spoiled
//! attacks, and Direct and Volley resolution (precision against still targets, deviation,
//! potential strikes with a target count, volley precision, the d10 Impact TA roll).

use super::skill::{SuccessLevel, Test};
use crate::dice::Dice;

/// A missile weapon and its projectile.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Missile {
    /// Base Range in feet.
    pub base_range: u32,
    /// Projectile impact die sides.
    pub impact_die: u32,
    /// Projectile impact modifier.
    pub impact_modifier: i32,
    /// The projectile's aspect.
    pub aspect: super::injury::Aspect,
    /// Impact per Impact TA (the projectile's Impact TA bonus).
    pub impact_ta: i32,
    /// Armour Reduction: taken off the target's AV.
    pub armour_reduction: i32,
    /// Rounds to load (0: a free action, projectiles in hand).
    pub load_rounds: u32,
    /// Rounds to span (crossbows).
    pub span_rounds: u32,
    /// The Aim action is allowed (a bow's Pull exceeding Draw by 75; crossbows; thrown).
    pub aim_allowed: bool,
    /// An arrow or bolt: impales on S3 or worse.
    pub impales: bool,
    /// A broadhead arrow (the BRD row of the Projectile treatment table).
    pub broadhead: bool,
    /// A thrown weapon (no shooter-moving penalty; its Heft penalty applies).
    pub thrown: bool,
    /// Heft, for thrown weapons.
    pub heft: i32,
}

/// Whether the attack flies straight or arcs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trajectory {
    /// Direct.
    Direct,
    /// Volley: at a 15-foot area.
    Volley,
}

/// One row of the MISSILE RANGE table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RangeBand {
    /// Multiple of Base Range (PB is ½, written as 0).
    pub name: &'static str,
    /// Direct or Volley.
    pub trajectory: Trajectory,
    /// Test modifier.
    pub modifier: i32,
    /// Zone Die sides.
    pub zone_die: u32,
    /// Impact change.
    pub impact: i32,
}

/// The MISSILE RANGE table, in order of distance (halves of Base Range: ½, 1, 2, 3, 4).
pub const RANGE_BANDS: [(u32, RangeBand); 5] = [
    (
        1,
        RangeBand {
            name: "Direct PB",
            trajectory: Trajectory::Direct,
            modifier: 10,
            zone_die: 6,
            impact: 2,
        },
    ),
    (
        2,
        RangeBand {
            name: "Direct",
            trajectory: Trajectory::Direct,
            modifier: 0,
            zone_die: 8,
            impact: 0,
        },
    ),
    (
        4,
        RangeBand {
            name: "Volley 2",
            trajectory: Trajectory::Volley,
            modifier: 0,
            zone_die: 10,
            impact: -2,
        },
    ),
    (
        6,
        RangeBand {
            name: "Volley 3",
            trajectory: Trajectory::Volley,
            modifier: -20,
            zone_die: 10,
            impact: -3,
        },
    ),
    (
        8,
        RangeBand {
            name: "Volley 4",
            trajectory: Trajectory::Volley,
            modifier: -40,
            zone_die: 10,
            impact: -4,
        },
    ),
];

/// The band for a range: the shortest multiple of Base Range at or beyond it; `None` past ×4.
pub fn range_band(base_range: u32, range: u32) -> Option<RangeBand> {
    RANGE_BANDS
        .iter()
        .find(|(halves, _)| range * 2 <= base_range * halves)
        .map(|(_, b)| *b)
}

/// How the target moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TargetMotion {
    /// Still: standing, shooting, walking.
    Still,
    /// Moving: charging, running (−10).
    Moving,
    /// Evading: in melee or the Evade action (−5 × Dodge index).
    Evading,
}

/// The situation of a missile test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Situation {
    /// Target motion.
    pub target: TargetMotion,
    /// The target's Dodge EML (for Evading).
    pub target_dodge_eml: i32,
    /// The shooter moved this turn (not for throwers).
    pub shooter_moving: bool,
    /// Windforce of a crosswind (0 none).
    pub windforce: i32,
    /// The shooter took the Aim action last round.
    pub aimed: bool,
    /// Fatigue and impairment.
    pub trauma: i32,
}

/// The missile test's EML: ML + range modifier + situational modifiers.
pub fn missile_eml(ml: i32, band: &RangeBand, missile: &Missile, s: &Situation) -> i32 {
    let mut eml = ml + band.modifier - s.trauma;
    eml -= match s.target {
        TargetMotion::Still => 0,
        TargetMotion::Moving => 10,
        TargetMotion::Evading => 5 * (s.target_dodge_eml / 10),
    };
    if s.shooter_moving && !missile.thrown {
        eml -= 10;
    }
    // "Crosswind (Direct) -10 penalty per Windforce (2-4)"; "Crosswind (Volley) -20 penalty
    // per Windforce (1-4)".
    eml -= match band.trajectory {
        Trajectory::Volley if s.windforce >= 1 => 20 * s.windforce,
        Trajectory::Direct if s.windforce >= 2 => 10 * s.windforce,
        _ => 0,
    };
    if s.aimed {
        eml += 10;
    }
    eml
}

/// A missile attack's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shot {
    /// Spoiled (EML −40 or worse): no attack.
    Spoiled,
    /// A CF: the shooter's mishap; the attack does not take place.
    Mishap(Test),
    /// A miss (no other target near in a duel).
    Miss(Test),
    /// A strike with this many stars (1 + TAs) and a still target's free Precision TA.
    Strike {
        /// The test.
        test: Test,
        /// Stars.
        stars: u32,
        /// Free Precision TA (a still target, Direct).
        precision: bool,
        /// Impact TA from the d10 rolled with the potential-strike d20 (a 5 or 0).
        bonus_impact: bool,
    },
}

/// The shooter's state for its missile test, an Impaired test (Archery, Throwing: H A T L).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shooter {
    /// Stunned: one Success Level lower.
    pub stunned: bool,
    /// A Grievous injury prohibits the test: an automatic CF (this test, no roll).
    pub prohibited: Option<Test>,
    /// A spoiled attack "occurs but automatically fails (roll against EML05 to check for CF)";
    /// otherwise "no attack takes place".
    pub spoiled_rolls_for_cf: bool,
}

/// A spoiled attack (EML −40 or worse): none, or an automatic failure that rolls against EML05
/// for a CF.
fn spoiled<D: Dice>(dice: &mut D, shooter: Shooter) -> Shot {
    if !shooter.spoiled_rolls_for_cf {
        return Shot::Spoiled;
    }
    let mut test = Test::roll(
        dice,
        super::skill::EML_FLOOR,
        "d100 (spoiled attack: CF check)",
    );
    if test.level == SuccessLevel::CriticalFailure {
        Shot::Mishap(test)
    } else {
        test.level = SuccessLevel::Failure;
        Shot::Miss(test)
    }
}

/// The test of a shot: an automatic CF, or the roll, one level lower while stunned.
fn shot_test<D: Dice>(dice: &mut D, eml: i32, shooter: Shooter, label: &'static str) -> Test {
    if let Some(t) = shooter.prohibited {
        return t;
    }
    let mut test = Test::roll(dice, eml, label);
    if shooter.stunned {
        test.level = test.level.lowered();
    }
    test
}

/// Resolves a Direct missile test.
pub fn direct<D: Dice>(dice: &mut D, eml: i32, still: bool, shooter: Shooter) -> Shot {
    if eml <= super::skill::SPOILED_MISSILE_EML {
        return spoiled(dice, shooter);
    }
    let test = shot_test(dice, eml, shooter, "d100 (missile test, Direct)");
    match test.level {
        SuccessLevel::CriticalFailure => Shot::Mishap(test),
        SuccessLevel::Failure => Shot::Miss(test),
        SuccessLevel::Success => Shot::Strike {
            test,
            stars: 1,
            precision: still,
            bonus_impact: false,
        },
        SuccessLevel::CriticalSuccess => Shot::Strike {
            test,
            stars: 2,
            precision: still,
            bonus_impact: false,
        },
    }
}

/// Resolves a Volley missile test at an area holding `target_count` targets (counting large
/// creatures by TAR), of which `ours` are the counts of the intended target. A Deviation lands
/// in one of eight neighbouring areas (a d8), empty in a duel.
pub fn volley<D: Dice>(
    dice: &mut D,
    eml: i32,
    target_count: u32,
    ours: &[u32],
    shooter: Shooter,
) -> Shot {
    if eml <= super::skill::SPOILED_MISSILE_EML {
        return spoiled(dice, shooter);
    }
    let test = shot_test(dice, eml, shooter, "d100 (missile test, Volley)");
    let precision_dice = match test.level {
        SuccessLevel::CriticalFailure => return Shot::Mishap(test),
        SuccessLevel::Failure => {
            if eml > 5 {
                dice.d(8, "d8 (deviation: neighbouring area)");
            }
            return Shot::Miss(test);
        }
        SuccessLevel::Success => 0,
        SuccessLevel::CriticalSuccess => 1,
    };
    // The potential strike: a d20 against the target count (with Volley Precision a d10, the
    // attacker keeping the result it likes); the die names the creature struck.
    let strikes_ours = |d: u32| d <= target_count && ours.contains(&d);
    let hit = if precision_dice == 0 {
        strikes_ours(dice.d(20, "d20 (potential strike)"))
    } else {
        let mut any = false;
        for _ in 0..precision_dice {
            any |= strikes_ours(dice.d(10, "d10 (Volley Precision)"));
        }
        any
    };
    let impact_die = dice.d(10, "d10 (Impact TA: 5 or 0)");
    if hit {
        Shot::Strike {
            test,
            stars: 1,
            precision: false,
            bonus_impact: impact_die.is_multiple_of(5),
        }
    } else {
        Shot::Miss(test)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;

    const BOW: Missile = Missile {
        base_range: 100,
        impact_die: 12,
        impact_modifier: 4,
        aspect: super::super::injury::Aspect::Point,
        impact_ta: 4,
        armour_reduction: 4,
        load_rounds: 1,
        span_rounds: 0,
        aim_allowed: true,
        impales: true,
        broadhead: false,
        thrown: false,
        heft: 0,
    };

    const STILL: Situation = Situation {
        target: TargetMotion::Still,
        target_dodge_eml: 0,
        shooter_moving: false,
        windforce: 0,
        aimed: false,
        trauma: 0,
    };

    #[test]
    fn range_bands_take_the_shortest_multiple_of_base_range_at_or_beyond_the_range() {
        let names: Vec<&str> = [10, 50, 51, 100, 150, 200, 250, 300, 400]
            .iter()
            .map(|&r| range_band(100, r).map_or("none", |b| b.name))
            .collect();
        assert_eq!(
            names,
            vec![
                "Direct PB",
                "Direct PB",
                "Direct",
                "Direct",
                "Volley 2",
                "Volley 2",
                "Volley 3",
                "Volley 3",
                "Volley 4"
            ]
        );
        assert_eq!(range_band(100, 401), None);
    }

    #[test]
    fn direct_example_nolora_ml75_point_blank_still_target_rolls_45_for_cs() {
        let band = range_band(100, 20).unwrap_or(RANGE_BANDS[0].1);
        assert_eq!(band.zone_die, 6);
        let eml = missile_eml(75, &band, &BOW, &STILL);
        assert_eq!(eml, 85);
        let shot = direct(&mut ScriptedDice::new([45]), eml, true, Shooter::default());
        // CS: base impact, one TA of choice, and the still target's free Precision TA; she
        // takes precision again: three d6 Zone Dice in all.
        match shot {
            Shot::Strike {
                test,
                stars,
                precision,
                ..
            } => {
                assert_eq!(test.level, SuccessLevel::CriticalSuccess);
                assert_eq!(stars, 2);
                assert!(precision);
                let zone_dice = 1 + u32::from(precision) + (stars - 1);
                assert_eq!(zone_dice, 3);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn volley_example_nolora_eml35_rolls_25_cs_and_strikes_the_horse_then_misses_with_16() {
        let band = range_band(200, 500).unwrap_or(RANGE_BANDS[4].1);
        assert_eq!(band.name, "Volley 3");
        let windy = Situation {
            windforce: 1,
            ..STILL
        };
        let eml = missile_eml(75, &band, &BOW, &windy);
        assert_eq!(eml, 35);
        // CS: a potential strike with Volley Precision: a d10 (7) against the target count of
        // seven; the horse counts 6 and 7. The other d10 is 2: no Impact TA.
        let shot = volley(
            &mut ScriptedDice::new([25, 7, 2]),
            eml,
            7,
            &[6, 7],
            Shooter::default(),
        );
        assert!(
            matches!(
                shot,
                Shot::Strike {
                    bonus_impact: false,
                    ..
                }
            ),
            "{shot:?}"
        );
        // The bodkin's d12+4, -3 at Volley 3, AR4 takes all of AV3: d12+1; a 6 makes 7: S2P.
        let impact = 6 + BOW.impact_modifier + band.impact - (3 - BOW.armour_reduction).max(0);
        assert_eq!(impact, 7);
        assert_eq!(super::super::injury::injury_level(impact), 2);
        // Next round: 16 is a success: a d20 against the count: 14 misses (the d10 is moot).
        let shot = volley(
            &mut ScriptedDice::new([16, 14, 3]),
            eml,
            7,
            &[6, 7],
            Shooter::default(),
        );
        assert!(matches!(shot, Shot::Miss(_)), "{shot:?}");
    }

    #[test]
    fn situational_modifiers_and_spoiled_attacks() {
        let band = range_band(100, 80).unwrap_or(RANGE_BANDS[1].1);
        let moving = Situation {
            target: TargetMotion::Moving,
            shooter_moving: true,
            aimed: true,
            ..STILL
        };
        assert_eq!(missile_eml(60, &band, &BOW, &moving), 60 - 10 - 10 + 10);
        let evading = Situation {
            target: TargetMotion::Evading,
            target_dodge_eml: 47,
            ..STILL
        };
        assert_eq!(missile_eml(60, &band, &BOW, &evading), 60 - 20);
        let thrown = Missile {
            thrown: true,
            ..BOW
        };
        let running_thrower = Situation {
            shooter_moving: true,
            ..STILL
        };
        assert_eq!(missile_eml(60, &band, &thrown, &running_thrower), 60);
        assert_eq!(
            direct(&mut ScriptedDice::new([]), -40, false, Shooter::default()),
            Shot::Spoiled
        );
        assert!(
            matches!(
                direct(&mut ScriptedDice::new([50]), -39, false, Shooter::default()),
                Shot::Mishap(_)
            ),
            "EML05 minimum: 50 is a CF"
        );
    }

    #[test]
    fn crosswind_costs_10_a_windforce_from_2_at_direct_and_20_a_windforce_from_1_at_volley() {
        // "Crosswind (Direct) -10 penalty per Windforce (2-4)"; "Crosswind (Volley) -20
        // penalty per Windforce (1-4)".
        let eml = |range: u32, windforce: i32| {
            let band = range_band(100, range).map_or(RANGE_BANDS[0].1, |b| b);
            let s = Situation { windforce, ..STILL };
            missile_eml(50, &band, &BOW, &s) - 50 - band.modifier
        };
        assert_eq!([eml(100, 1), eml(100, 2), eml(100, 4)], [0, -20, -40]);
        assert_eq!([eml(300, 1), eml(300, 2)], [-20, -40]);
    }

    #[test]
    fn a_stunned_shooter_is_one_level_lower_and_a_prohibited_shot_is_its_automatic_cf() {
        // "Such Impaired tests also suffer –1 Success Level when performed while Stunned":
        // Nolora's CS (45 at EML85) is an S. A prohibited test "automatically achieves a CF"
        // with no roll.
        let stunned = Shooter {
            stunned: true,
            ..Shooter::default()
        };
        match direct(&mut ScriptedDice::new([45]), 85, true, stunned) {
            Shot::Strike { stars, test, .. } => {
                assert_eq!((stars, test.level), (1, SuccessLevel::Success));
            }
            other => panic!("{other:?}"),
        }
        let cf = Test {
            roll: 95,
            eml: 85,
            level: SuccessLevel::CriticalFailure,
        };
        let prohibited = Shooter {
            prohibited: Some(cf),
            ..Shooter::default()
        };
        let mut none = ScriptedDice::new(Vec::<u32>::new());
        assert_eq!(direct(&mut none, 85, true, prohibited), Shot::Mishap(cf));
        assert_eq!(none.used(), 0);
    }

    #[test]
    fn the_missile_range_table_is_the_texts() {
        // DIRECT PB BR×½ +10 d6 +2; DIRECT BR×1 0 d8 0; VOLLEY 2 BR×2 0 d10 −2; VOLLEY 3 BR×3
        // −20 d10 −3; VOLLEY 4 BR×4 −40 d10 −4.
        let rows: Vec<(u32, &str, i32, u32, i32)> = RANGE_BANDS
            .iter()
            .map(|(h, b)| (*h, b.name, b.modifier, b.zone_die, b.impact))
            .collect();
        assert_eq!(
            rows,
            [
                (1, "Direct PB", 10, 6, 2),
                (2, "Direct", 0, 8, 0),
                (4, "Volley 2", 0, 10, -2),
                (6, "Volley 3", -20, 10, -3),
                (8, "Volley 4", -40, 10, -4),
            ]
        );
    }

    #[test]
    fn a_volley_cf_is_a_mishap_an_f_deviates_an_s_strikes_on_the_d20_with_the_d10s_impact_ta() {
        // "AREA CF MISHAP · F DEVIATION · S ★ · CS ★★"; "DEVIATION ... If EML was greater than
        // 05, the missile lands nearby ... d8 ... If the attack EML was 05 or less, the missile
        // lands harmlessly"; "ROLL D20 & D10. If the d20 roll is less than or equal to the target
        // count, then one creature within the 15-foot area is hit"; "if the d10 rolled with the
        // d20 is a 5 or 0, add the projectile's Impact TA bonus".
        let mut dice = ScriptedDice::new([50]);
        let shot = volley(&mut dice, 35, 7, &[6, 7], Shooter::default());
        assert!(matches!(shot, Shot::Mishap(_)), "{shot:?}");
        let mut dice = ScriptedDice::new([61, 3]);
        let shot = volley(&mut dice, 35, 1, &[1], Shooter::default());
        assert!(
            matches!(shot, Shot::Miss(_)) && dice.finish().is_ok(),
            "{shot:?}"
        );
        let mut dice = ScriptedDice::new([61]);
        let shot = volley(&mut dice, 5, 1, &[1], Shooter::default());
        assert!(
            matches!(shot, Shot::Miss(_)) && dice.finish().is_ok(),
            "at EML05: no d8"
        );
        let mut dice = ScriptedDice::new([16, 6, 2]);
        let shot = volley(&mut dice, 35, 7, &[6, 7], Shooter::default());
        let strike = |bonus| move |s: &Shot| matches!(s, Shot::Strike { stars: 1, bonus_impact, .. } if *bonus_impact == bonus);
        assert!(strike(false)(&shot) && dice.finish().is_ok(), "{shot:?}");
        let mut dice = ScriptedDice::new([16, 6, 10]);
        assert!(strike(true)(&volley(
            &mut dice,
            35,
            7,
            &[6, 7],
            Shooter::default()
        )));
        // The d20 past the target count, or on another creature: no strike on ours.
        let mut dice = ScriptedDice::new([16, 8, 10]);
        let shot = volley(&mut dice, 35, 7, &[6, 7], Shooter::default());
        assert!(matches!(shot, Shot::Miss(_)), "{shot:?}");
        let mut dice = ScriptedDice::new([16, 5, 10]);
        let shot = volley(&mut dice, 35, 7, &[6, 7], Shooter::default());
        assert!(matches!(shot, Shot::Miss(_)), "{shot:?}");
    }

    #[test]
    fn a_direct_f_misses_and_a_spoiled_attack_is_wasted_or_rolls_for_cf_at_eml05() {
        // "F MISS"; "Spoiled Attack: ... either no attack takes place (the action is wasted), or
        // the attack occurs but automatically fails (roll against EML05 to check for CF)".
        let mut dice = ScriptedDice::new([61]);
        let shot = direct(&mut dice, 60, true, Shooter::default());
        assert!(matches!(shot, Shot::Miss(_)), "{shot:?}");
        let mut dice = ScriptedDice::new(Vec::<u32>::new());
        let shot = direct(&mut dice, -40, true, Shooter::default());
        assert!(matches!(shot, Shot::Spoiled) && dice.finish().is_ok());
        let rolls = Shooter {
            spoiled_rolls_for_cf: true,
            ..Shooter::default()
        };
        for (roll, mishap) in [(50, true), (51, false), (3, false)] {
            let mut dice = ScriptedDice::new([roll]);
            let shot = direct(&mut dice, -45, true, rolls);
            assert_eq!(matches!(shot, Shot::Mishap(_)), mishap, "{roll}: {shot:?}");
            assert!(!matches!(shot, Shot::Strike { .. }), "{roll}: {shot:?}");
            let mut dice = ScriptedDice::new([roll]);
            let shot = volley(&mut dice, -45, 1, &[1], rolls);
            assert_eq!(matches!(shot, Shot::Mishap(_)), mishap, "{roll}: {shot:?}");
            assert!(
                dice.finish().is_ok(),
                "no deviation die: it lands harmlessly"
            );
        }
    }
}
