//! Tests of a side of several fighters in twin-d20 (our design: the text has one attack and
//! no turns, see `docs/rules/twin-d20.md`): the fight is [`super::TwinD20`]'s trial on the
//! shared roster ([`crate::rules::roster`]), which for a side of one against a side of one is
//! the duel, die for die (no choice, no die).

mod tests {
    use super::super::test_support::fighter;
    use super::super::{Healing, Member, Rules, TurnOrder, TwinD20};
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::{FirstStrike, Ruleset};
    use crate::scenario::fields::Ranged;
    use crate::scenario::schema::Target;
    use crate::stats::Side;
    use crate::stats::Tally;

    /// Knights (side a) against brigands (side b): Attack 12, Defense 6, Damage 2; a knight has
    /// Toughness 8, a brigand 5. Side a strikes first; no Recovery roll falls in the horizon.
    fn knights_and_brigands(knights: &[Target], brigands: usize, turn_order: TurnOrder) -> TwinD20 {
        let mut members = Vec::new();
        for (k, &target) in knights.iter().enumerate() {
            members.push(Member {
                side: Side::A,
                fighter: fighter(12, 6, 8, 2),
                name: if knights.len() == 1 {
                    "Knight".into()
                } else {
                    format!("Knight {}", k + 1)
                },
                target,
            });
        }
        for k in 0..brigands {
            members.push(Member {
                side: Side::B,
                fighter: fighter(12, 6, 5, 2),
                name: format!("Brigand {}", k + 1),
                target: Target::Same,
            });
        }
        let rules = Rules {
            first_strike: FirstStrike::A,
            turn_order,
            ..Rules::default()
        };
        let healing = Healing {
            horizon_days: Ranged::new(1),
            ..Healing::default()
        };
        TwinD20::skirmish(members, rules, healing, 50)
    }

    use super::super::test_support::scripted_trial as fight;

    // black 3 misses Defense 6, white 11 hits: Damage 2 + 3 = Wound 5; black 3, white 7: 5
    // again, circle 5 taken, Wound 6 above Toughness 5. 1 and 2 both miss.
    const WOUND_5: [u32; 2] = [3, 11];
    const WOUND_6: [u32; 2] = [3, 7];
    const MISS: [u32; 2] = [1, 2];

    #[test]
    fn a_side_wins_when_every_foe_is_out_and_same_keeps_to_one_foe() {
        let model = knights_and_brigands(&[Target::Same], 2, TurnOrder::Sides);
        assert_eq!(model.names, ["Knight".to_owned(), "Brigand ×2".to_owned()]);
        let dice: Vec<u32> = [WOUND_5, MISS, MISS, WOUND_6, MISS, WOUND_5, MISS, WOUND_6].concat();
        let (tally, story) = fight(&model, &dice);
        assert_eq!(tally.ends, [1, 0, 0]);
        assert_eq!(tally.rounds.bins()[4], 1);
        assert_eq!(tally.recovery[1].patients, 2, "both brigands wounded");
        assert_eq!(tally.fighter_trials(1), 2);
        crate::log::assert_in_order(
            &story,
            &[
                "Knight strikes first",
                "round 1",
                "Knight picks Brigand 1: the first foe standing, kept while it stands of 2 foes standing (target = same)",
                "Brigand 1 marks Wound 5",
                "Brigand 1 attacks Knight",
                "Brigand 2 attacks Knight",
                "round 2",
                "Brigand 1 marks Wound 6",
                "Brigand 1 is incapacitated (Wound 6 above Toughness 5)\n",
                "Brigand 2 attacks Knight",
                "round 3",
                "Knight attacks Brigand 2",
                "round 4",
                "Brigand 2 is incapacitated (Wound 6 above Toughness 5): Knight wins",
            ],
        );
        assert!(!story.contains("Brigand 1 attacks Knight: Attack 12 vs Defense 6, Damage 2\n  black 1 white 2 both miss\nround 3"), "{story}");
    }

    #[test]
    fn random_rolls_a_die_only_when_there_is_a_choice() {
        let model = knights_and_brigands(&[Target::Random], 2, TurnOrder::Sides);
        // Round 1: a d2 picks Brigand 2; round 2: Brigand 2 out with the d2 picking it again;
        // round 3: one foe standing, no die.
        let dice: Vec<u32> = [
            &[2][..],
            &WOUND_5,
            &MISS,
            &MISS,
            &[2],
            &WOUND_6,
            &MISS,
            &WOUND_5,
            &MISS,
            &WOUND_6,
        ]
        .concat();
        let (tally, story) = fight(&model, &dice);
        assert_eq!(tally.ends, [1, 0, 0]);
        crate::log::assert_in_order(
            &story,
            &[
                "Knight picks Brigand 2: picked by a die of 2 foes standing (target = random)",
                "Brigand 2 is incapacitated",
                "round 3",
                "Knight attacks Brigand 1",
                "Brigand 1 is incapacitated (Wound 6 above Toughness 5): Knight wins",
            ],
        );
    }

    #[test]
    fn weakest_turns_on_the_most_hurt_and_strongest_on_the_least() {
        for (target, second) in [
            (Target::Weakest, "Brigand 1"),
            (Target::Strongest, "Brigand 2"),
        ] {
            let model = knights_and_brigands(&[Target::Same, target], 2, TurnOrder::Sides);
            // Knight 1 wounds Brigand 1 (Wound 5); Knight 2 then picks by its policy and
            // misses; both brigands miss. Then the round limit... cut short: scripted dice run out.
            let dice: Vec<u32> = [WOUND_5, MISS, MISS, MISS].concat();
            let mut scripted = ScriptedDice::new(dice.clone());
            let mut tally = Tally::new(model.shape());
            let mut log = VecLog::default();
            model.trial(&mut scripted, &mut log, &mut tally);
            let story = log.lines.join("\n");
            assert!(
                story.contains(&format!("Knight 2 picks {second}:")),
                "{target:?}: {story}"
            );
        }
    }

    #[test]
    fn alternate_interleaves_the_sides_and_sides_strikes_as_a_volley() {
        for (order, expected) in [
            (
                TurnOrder::Alternate,
                [
                    "Knight 1 attacks",
                    "Brigand 1 attacks",
                    "Knight 2 attacks",
                    "Brigand 2 attacks",
                ],
            ),
            (
                TurnOrder::Sides,
                [
                    "Knight 1 attacks",
                    "Knight 2 attacks",
                    "Brigand 1 attacks",
                    "Brigand 2 attacks",
                ],
            ),
        ] {
            let model = knights_and_brigands(&[Target::Same, Target::Same], 2, order);
            let dice: Vec<u32> = [MISS, MISS, MISS, MISS].concat();
            let mut scripted = ScriptedDice::new(dice);
            let mut tally = Tally::new(model.shape());
            let mut log = VecLog::default();
            model.trial(&mut scripted, &mut log, &mut tally);
            let story = log.lines.join("\n");
            crate::log::assert_in_order(&story, &expected);
        }
    }

    #[test]
    fn the_dead_of_a_side_are_pooled_over_its_fighters() {
        let mut model = knights_and_brigands(&[Target::Same], 2, TurnOrder::Sides);
        model.rules.death_margin = Ranged::new(0);
        let model = TwinD20::skirmish(
            (0..3)
                .map(|i| Member {
                    side: if i == 0 { Side::A } else { Side::B },
                    fighter: model.fighters[i],
                    name: model.roster.fighter_names[i].clone(),
                    target: Target::Same,
                })
                .collect(),
            model.rules.clone(),
            model.healing.clone(),
            50,
        );
        // As the first test: both brigands end at Wound 6, the Aftermath marks 7, above
        // Toughness 5 + margin 0: both dead.
        let dice: Vec<u32> = [WOUND_5, MISS, MISS, WOUND_6, MISS, WOUND_5, MISS, WOUND_6].concat();
        let (tally, _) = fight(&model, &dice);
        assert_eq!(tally.dead, [0, 2]);
        assert_eq!(tally.fighter_trials(1), 2, "a dead rate of 2 in 2");
    }

    #[test]
    fn a_side_of_one_fought_as_a_skirmish_is_the_duel_die_for_die() {
        use crate::dice::FastDice;
        // The shipped duel's numbers, random first strike, the Aftermath and healing on.
        let model = TwinD20::new(
            [fighter(13, 7, 9, 3), fighter(15, 6, 8, 2)],
            ["Knight".into(), "Brigand".into()],
            Rules::default(),
            Healing::default(),
            30,
        );
        for seed in 0..3000 {
            let (mut duel, mut fight) = (Tally::new(model.shape()), Tally::new(model.shape()));
            let (mut duel_log, mut fight_log) = (VecLog::default(), VecLog::default());
            model.duel(&mut FastDice::seed_from_u64(seed), &mut duel_log, &mut duel);
            model.fight::<2, _, _>(
                &mut FastDice::seed_from_u64(seed),
                &mut fight_log,
                &mut fight,
            );
            assert_eq!(duel, fight, "seed {seed}");
            assert_eq!(duel_log.lines, fight_log.lines, "seed {seed}");
        }
    }
}
