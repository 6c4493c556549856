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
    /// A miss, with no other creature near the target (a duel) or in the area it fell in.
    Miss(Test),
    /// A miss of the target (or of its area) that rolled for the creatures near it or in the
    /// area: the `roll` (a d20, or a Volley Precision d10) against their `count`, in `area`
    /// (0: within five feet of the target, or its own 15-foot area; 1 to 8: the neighbouring
    /// area a Deviation's d8 chose); `struck` when it names one (the `roll`-th counted), with
    /// the d10's Impact TA.
    Stray {
        /// The test.
        test: Test,
        /// Where the creatures counted stand.
        area: u8,
        /// The die naming the creature.
        roll: u32,
        /// The target count.
        count: u32,
        /// A creature is struck.
        struck: bool,
        /// Impact TA from the d10 rolled with the d20 (a 5 or 0).
        bonus_impact: bool,
    },
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

/// Resolves a Direct missile test at a target alone (no other creature within five feet).
pub fn direct<D: Dice>(dice: &mut D, eml: i32, still: bool, shooter: Shooter) -> Shot {
    direct_near(dice, eml, still, shooter, 0)
}

/// Resolves a Direct missile test at a target with `near` other creatures within five feet of
/// it: a miss above EML05 rolls a d20 and a d10 against them (MISS, "ROLL D20 & D10").
pub fn direct_near<D: Dice>(
    dice: &mut D,
    eml: i32,
    still: bool,
    shooter: Shooter,
    near: u32,
) -> Shot {
    if eml <= super::skill::SPOILED_MISSILE_EML {
        return spoiled(dice, shooter);
    }
    let test = shot_test(dice, eml, shooter, "d100 (missile test, Direct)");
    match test.level {
        SuccessLevel::CriticalFailure => Shot::Mishap(test),
        SuccessLevel::Failure if eml > 5 && near > 0 => {
            let roll = dice.d(20, "d20 (a miss: a creature near the target?)");
            let impact_die = dice.d(10, "d10 (Impact TA: 5 or 0)");
            Shot::Stray {
                test,
                area: 0,
                roll,
                count: near,
                struck: roll <= near,
                bonus_impact: impact_die.is_multiple_of(5),
            }
        }
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

/// The 15-foot area a Volley aims at: its target count (counting large creatures by TAR) and
/// which counts are the intended target's (bit `k - 1` for count `k`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Aimed {
    /// The target count.
    pub count: u32,
    /// The counts of the intended target.
    pub ours: u32,
}

impl Aimed {
    /// The area of a target alone in it: a count of one, its own.
    pub fn alone() -> Aimed {
        Aimed { count: 1, ours: 1 }
    }
}

/// Resolves a Volley missile test at an area holding `target_count` targets (counting large
/// creatures by TAR), of which `ours` are the counts of the intended target, with nothing in
/// the areas around it.
pub fn volley<D: Dice>(
    dice: &mut D,
    eml: i32,
    target_count: u32,
    ours: &[u32],
    shooter: Shooter,
) -> Shot {
    let ours = ours.iter().fold(0, |mask, &k| mask | 1 << (k - 1));
    let aimed = Aimed {
        count: target_count,
        ours,
    };
    volley_over(dice, eml, aimed, &[0; 8], shooter)
}

/// Resolves a Volley missile test at the `aimed` area, the eight areas around it holding
/// `beside` targets each (by the d8 that picks one): a Potential Strike names the creature hit
/// among the area's count (ours: a strike; another: a stray); a Deviation lands in one of the
/// eight and, when it holds a target, resolves as a Potential Strike there.
pub fn volley_over<D: Dice>(
    dice: &mut D,
    eml: i32,
    aimed: Aimed,
    beside: &[u32; 8],
    shooter: Shooter,
) -> Shot {
    if eml <= super::skill::SPOILED_MISSILE_EML {
        return spoiled(dice, shooter);
    }
    let test = shot_test(dice, eml, shooter, "d100 (missile test, Volley)");
    let (area, count, roll) = match test.level {
        SuccessLevel::CriticalFailure => return Shot::Mishap(test),
        SuccessLevel::Failure => {
            if eml <= 5 {
                return Shot::Miss(test);
            }
            let area = dice.d(8, "d8 (deviation: neighbouring area)");
            let count = beside[(area as usize - 1) & 7];
            if count == 0 {
                return Shot::Miss(test);
            }
            (area, count, dice.d(20, "d20 (potential strike)"))
        }
        // The potential strike: a d20 against the target count (with Volley Precision a
        // d10); the die names the creature struck.
        SuccessLevel::Success => (0, aimed.count, dice.d(20, "d20 (potential strike)")),
        SuccessLevel::CriticalSuccess => (0, aimed.count, dice.d(10, "d10 (Volley Precision)")),
    };
    let impact_die = dice.d(10, "d10 (Impact TA: 5 or 0)");
    let struck = roll <= count;
    let bonus_impact = impact_die.is_multiple_of(5);
    if area == 0 && struck && aimed.ours & (1 << (roll - 1)) != 0 {
        Shot::Strike {
            test,
            stars: 1,
            precision: false,
            bonus_impact,
        }
    } else if area == 0 && !struck {
        // "If the d20 roll does not indicate a hit, then the attack misses."
        Shot::Miss(test)
    } else {
        Shot::Stray {
            test,
            area: area as u8,
            roll,
            count,
            struck,
            bonus_impact,
        }
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
        // The d20 past the target count: no strike; on another creature: that creature is
        // struck ("The d20 roll itself indicates the precise target struck among several").
        let mut dice = ScriptedDice::new([16, 8, 10]);
        let shot = volley(&mut dice, 35, 7, &[6, 7], Shooter::default());
        assert!(matches!(shot, Shot::Miss(_)), "{shot:?}");
        let mut dice = ScriptedDice::new([16, 5, 10]);
        let shot = volley(&mut dice, 35, 7, &[6, 7], Shooter::default());
        assert!(
            matches!(
                shot,
                Shot::Stray {
                    area: 0,
                    roll: 5,
                    count: 7,
                    struck: true,
                    bonus_impact: true,
                    ..
                }
            ),
            "{shot:?}"
        );
    }

    #[test]
    fn a_direct_miss_above_eml05_may_strike_a_creature_within_five_feet_of_the_target() {
        // "MISS the attack misses the target. If the EML was greater than 05, the attack might
        // strike a nearby target. Count how many other targets are within five feet of the
        // intended one ... The total is the target count." "ROLL D20 & D10. If the d20 result
        // is less than or equal to the target count, then a nearby creature is hit. The d20
        // roll itself can be used to indicate the precise target hit among several." "if the
        // d10 rolled with the d20 is a 5 or 0, add the projectile's Impact TA bonus."
        let near = |dice: &[u32], eml, count| {
            let mut dice = ScriptedDice::new(dice.to_vec());
            let shot = direct_near(&mut dice, eml, false, Shooter::default(), count);
            assert!(dice.finish().is_ok(), "{shot:?}: dice left");
            shot
        };
        // Two others near: a d20 of 2 strikes the second, with the d10's 10 an Impact TA.
        assert!(matches!(
            near(&[71, 2, 10], 60, 2),
            Shot::Stray {
                area: 0,
                roll: 2,
                count: 2,
                struck: true,
                bonus_impact: true,
                ..
            }
        ));
        assert!(matches!(
            near(&[71, 1, 4], 60, 2),
            Shot::Stray {
                roll: 1,
                struck: true,
                bonus_impact: false,
                ..
            }
        ));
        // Past the count: the d20 and d10 rolled, no one hit.
        assert!(matches!(
            near(&[71, 3, 5], 60, 2),
            Shot::Stray {
                roll: 3,
                count: 2,
                struck: false,
                ..
            }
        ));
        // No one within five feet (a duel), or an EML of 05: a plain miss, no dice.
        assert!(matches!(near(&[71], 60, 0), Shot::Miss(_)));
        assert!(matches!(near(&[71], 5, 2), Shot::Miss(_)));
    }

    #[test]
    fn a_volley_deviation_lands_in_one_of_eight_areas_and_strikes_what_it_holds_on_the_d20() {
        // "DEVIATION the attack misses the area. If EML was greater than 05, the missile lands
        // nearby—assume eight adjacent 15-foot areas and randomly select the one with a d8
        // roll. If this new 15-foot area contains a target, resolve as for a Potential Strike".
        let aimed = Aimed::alone();
        let mut beside = [0; 8];
        beside[4] = 3;
        let mut dice = ScriptedDice::new([61, 5, 2, 10]);
        let shot = volley_over(&mut dice, 35, aimed, &beside, Shooter::default());
        assert!(
            matches!(
                shot,
                Shot::Stray {
                    area: 5,
                    roll: 2,
                    count: 3,
                    struck: true,
                    bonus_impact: true,
                    ..
                }
            ) && dice.finish().is_ok(),
            "{shot:?}"
        );
        // An empty area: the d8 only.
        let mut dice = ScriptedDice::new([61, 4]);
        let shot = volley_over(&mut dice, 35, aimed, &beside, Shooter::default());
        assert!(
            matches!(shot, Shot::Miss(_)) && dice.finish().is_ok(),
            "{shot:?}"
        );
        // "POTENTIAL STRIKE ... Count the targets within it": the target and two others; a d20
        // of 3 strikes the third counted.
        let aimed = Aimed {
            count: 3,
            ours: 0b1,
        };
        let mut dice = ScriptedDice::new([16, 3, 1]);
        let shot = volley_over(&mut dice, 35, aimed, &[0; 8], Shooter::default());
        assert!(
            matches!(
                shot,
                Shot::Stray {
                    area: 0,
                    roll: 3,
                    struck: true,
                    ..
                }
            ),
            "{shot:?}"
        );
        // "VOLLEY PRECISION when determining a potential strike against the target count, roll
        // d10 instead of d20": a CS's d10 of 2 strikes the second counted.
        let mut dice = ScriptedDice::new([5, 2, 7]);
        let shot = volley_over(&mut dice, 35, aimed, &[0; 8], Shooter::default());
        assert!(
            matches!(
                shot,
                Shot::Stray {
                    roll: 2,
                    struck: true,
                    ..
                }
            ),
            "{shot:?}"
        );
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
