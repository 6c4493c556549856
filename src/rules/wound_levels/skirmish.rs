//! A fight of sides of several fighters (the Example of Combat has two; our readings are in
//! `docs/rules/wound-levels.md`, "Sides of several fighters"): each turn every fighter in the
//! fight rolls initiative and they act from the fastest; they declare from the slowest, each
//! against the foe its target policy picks (Evasion turns actions into dodges when a foe
//! attacking it declared attacks); each declared attack picks its foe afresh by the policy, so a
//! fighter's several actions may be split between foes, and a defender spends its declared
//! dodges on the first attacks it receives. Melee range is kept per pair of foes. A fighter at
//! Terminal or worse is out at the end of the turn, as in the duel (the turn's later attacks may
//! still strike it); a side wins when every foe is out. Every declaration, attack, move
//! and aftermath is the duel's own, on the point of the fighter and its foe. A side of one
//! against a side of one never comes here: it is the duel.

use super::actions::Plan;
use super::Purpose;
use super::{State, WoundLevels};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::roster::MAX_FIGHTERS;
use crate::stats::{DuelOutcome, Side, Tally};

impl WoundLevels {
    /// One fight of the point's fighters and the aftermath of every survivor.
    // Out of line: the duel's trial, which tests for a side of several first, stays as tight
    // as it was.
    #[inline(never)]
    pub(super) fn fight<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        let roster = &self.roster;
        let n = roster.len();
        let mut states = [State::default(); MAX_FIGHTERS];
        for (s, f) in states.iter_mut().zip(&self.members) {
            *s = State {
                damage: 0,
                ammo: f.clip,
                spare_clips: f.spare_clips,
                thrown: false,
            };
        }
        // Melee range, per pair of foes: bit `j` of `engaged[i]`.
        let mut engaged = [if self.rules.start_engaged {
            u32::MAX
        } else {
            0
        }; MAX_FIGHTERS];
        let near = |engaged: &[u32; MAX_FIGHTERS], i: usize, j: usize| engaged[i] >> j & 1 == 1;
        let mut out = [false; MAX_FIGHTERS];
        let mut kept = [usize::MAX; MAX_FIGHTERS];
        let mut foe_of = [0usize; MAX_FIGHTERS];
        let mut plans = [Plan::default(); MAX_FIGHTERS];
        let mut dodges_left = [0u32; MAX_FIGHTERS];
        let mut order = [0usize; MAX_FIGHTERS];
        let mut initiative = [(false, 0i32); MAX_FIGHTERS];
        let mut winner = None;
        let mut rounds = 0;
        let mut dead = [false; MAX_FIGHTERS];
        for turn in 1..=self.round_limit {
            if dice.exhausted() {
                break;
            }
            rounds = turn;
            // Initiative: each in the fight rolls; the critical, then the higher total, first.
            let mut k = 0;
            for i in 0..n {
                if out[i] {
                    continue;
                }
                dice.stream(Stream::new(Purpose::Initiative, i, turn));
                let roll = self.roll(dice, "dF (initiative)");
                let total =
                    roll.value + self.members[i].initiative - self.penalty_of(states[i].damage);
                initiative[i] = (roll.critical, total);
                order[k] = i;
                k += 1;
            }
            let acting = &mut order[..k];
            // The order as one number per fighter: the critical, then the higher total, then
            // (among equals) the side acting first, then the order written.
            let key = |i: usize, first: Side| -> u32 {
                let (critical, total) = initiative[i];
                let speed = (u32::from(critical) << 8) | (total + 128).clamp(0, 255) as u32;
                ((511 - speed) << 6) | (u32::from(roster.side_of[i] != first) << 5) | i as u32
            };
            acting.sort_unstable_by_key(|&i| key(i, Side::A));
            // Among equal initiatives of both sides (then side by side in the order), a d2 for
            // the turn says which side goes first.
            let tie = acting.windows(2).any(|w| {
                initiative[w[0]] == initiative[w[1]] && roster.side_of[w[0]] != roster.side_of[w[1]]
            });
            if tie && {
                dice.stream(Stream::new(Purpose::Tie, 0, turn));
                dice.d(2, "d2 (initiative tie)") == 2
            } {
                acting.sort_unstable_by_key(|&i| key(i, Side::B));
            }
            let acting = &order[..k];
            log.say(|| {
                let list: Vec<String> = acting
                    .iter()
                    .map(|&i| {
                        let (critical, total) = initiative[i];
                        format!(
                            "{} {total}{}",
                            roster.fighter_names[i],
                            if critical { " (critical)" } else { "" }
                        )
                    })
                    .collect();
                format!("turn {turn}: initiative {}", list.join(", "))
            });
            // Declarations, the slowest first, each against the foe its policy picks.
            for &i in acting.iter().rev() {
                plans[i] = Plan::default();
                // Most hurt: the most damage taken.
                let hurt = |f: usize| states[f].damage;
                dice.stream(Stream::new(Purpose::Target, i, turn));
                let Some(foe) = roster.choose(i, &out[..n], hurt, &mut kept[..n], dice, log) else {
                    continue;
                };
                foe_of[i] = foe;
                let pair = self.pair(i, foe);
                plans[i] = pair.declare(Side::A, &[states[i], states[foe]], near(&engaged, i, foe));
            }
            // Evasion, the slowest first as in the duel: a fighter whose foes still declare
            // attacks on it turns actions into dodges; a foe that turned all its attacks into
            // dodges no longer counts for the faster.
            let mut attackers = [0u32; MAX_FIGHTERS];
            for &f in acting.iter() {
                attackers[foe_of[f]] += u32::from(plans[f].attacks > 0);
            }
            for &i in acting.iter().rev() {
                let me = &self.members[i];
                if me.evasion && attackers[i] > 0 {
                    let p = &mut plans[i];
                    let attacked = p.attacks > 0;
                    let mut convert = me.evade;
                    if convert > 0 && p.reload {
                        p.reload = false;
                        p.dodges += 1;
                        convert -= 1;
                    }
                    let from_attacks = convert.min(p.attacks);
                    p.attacks -= from_attacks;
                    p.dodges += from_attacks;
                    if attacked && p.attacks == 0 {
                        attackers[foe_of[i]] -= 1;
                    }
                }
                dodges_left[i] = plans[i].dodges;
            }
            log.say(|| {
                let list: Vec<String> = acting
                    .iter()
                    .rev()
                    .map(|&i| {
                        format!(
                            "{} declares {} (against {})",
                            roster.fighter_names[i], plans[i], roster.fighter_names[foe_of[i]]
                        )
                    })
                    .collect();
                format!("  {}", list.join("; "))
            });
            // Actions, the fastest first.
            for &i in acting {
                let me = &self.members[i];
                let plan = plans[i];
                if Self::level(states[i].damage) >= 6 {
                    continue;
                }
                if plan.reload {
                    states[i].ammo = me.clip;
                    states[i].spare_clips -= 1;
                    log.say(|| format!("  {} reloads", roster.fighter_names[i]));
                }
                for k in 0..plan.attacks {
                    // The first attack at the foe declared against while it is in the fight;
                    // each later one picks its foe afresh: several actions may be split.
                    let foe = if k == 0 && !out[foe_of[i]] {
                        foe_of[i]
                    } else {
                        let hurt = |f: usize| states[f].damage;
                        dice.stream(Stream::new(Purpose::Target, i, turn).nth(k + 1));
                        match roster.choose(i, &out[..n], hurt, &mut kept[..n], dice, log) {
                            Some(foe) => foe,
                            None => break,
                        }
                    };
                    let close = near(&engaged, i, foe);
                    let reach = close || me.kind.is_ranged() || plan.throw;
                    let loaded = !me.kind.is_ranged() || plan.throw || states[i].ammo > 0;
                    if !reach || !loaded || Self::level(states[i].damage) >= 6 {
                        break;
                    }
                    let declared = [plan, plans[foe]];
                    let mut dodges = [dodges_left[i], dodges_left[foe]];
                    let mut two = [states[i], states[foe]];
                    let pair = self.pair(i, foe);
                    dice.stream(Stream::new(Purpose::Attack, i, turn).nth(k));
                    let dealt =
                        pair.attack(Side::A, &declared, &mut dodges, &mut two, close, dice, log);
                    [states[i], states[foe]] = two;
                    [dodges_left[i], dodges_left[foe]] = dodges;
                    tally.record_hit(roster.side_of[i], dealt.unwrap_or(0), dealt.is_some());
                    // A foe made Terminal is out at the end of the turn, as in the duel ("6)
                    // Terminal: Actions not possible"): the turn's later attacks may still
                    // strike it.
                }
            }
            // Movement, the fastest first: closing into melee range with its foe, or
            // withdrawing out of every foe's.
            for &i in acting {
                let foe = foe_of[i];
                let plan = plans[i];
                // A move declared towards a foe who fell this turn is lost with it.
                if !(plan.withdraw || plan.close) || out[foe] {
                    continue;
                }
                let still = Plan {
                    withdraw: false,
                    close: false,
                    ..plans[foe]
                };
                let was = near(&engaged, i, foe);
                dice.stream(Stream::new(Purpose::Move, i, turn));
                let pair = self.pair(i, foe);
                let now = pair.movement(
                    [Side::A, Side::B],
                    &[plan, still],
                    &[states[i], states[foe]],
                    was,
                    dice,
                    log,
                );
                if plan.close && now {
                    engaged[i] |= 1 << foe;
                    engaged[foe] |= 1 << i;
                } else if plan.withdraw && !now {
                    for f in roster.team(roster.side_of[i].other()) {
                        engaged[i] &= !(1 << f);
                        engaged[f] &= !(1 << i);
                    }
                }
            }
            for (i, state) in states[..n].iter().enumerate() {
                out[i] = Self::level(state.damage) >= 6;
                let dies = Self::level(state.damage) >= 7;
                if dies && !dead[i] {
                    log.say(|| {
                        format!(
                            "{} is Mortally wounded and dies at the end of the turn",
                            roster.fighter_names[i]
                        )
                    });
                }
                dead[i] = dies;
            }
            let down = |side: Side| roster.team(side).all(|f| out[f]);
            let (a, b) = (down(Side::A), down(Side::B));
            if a || b {
                winner = match (a, b) {
                    (true, false) => Some(Side::B),
                    (false, true) => Some(Side::A),
                    _ => None,
                };
                break;
            }
        }
        let mut deaths = [0u32; 2];
        for i in 0..n {
            deaths[roster.side_of[i].index()] += u32::from(dead[i]);
        }
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead: deaths,
        });
        for i in 0..n {
            tally.record_fighter(i, out[i], dead[i]);
        }
        for i in 0..n {
            let damage = states[i].damage;
            if !dead[i] && damage > 0 {
                let mut terminal = false;
                let foe = roster.team(roster.side_of[i].other()).start;
                dice.stream(Stream::new(Purpose::Aftermath, i, 0));
                let r = self
                    .pair(i, foe)
                    .aftermath(Side::A, damage, dice, log, &mut terminal);
                tally.record_recovery_of(i, roster.side_of[i], &r);
                tally.record_extra(0, u64::from(r.died));
                tally.record_extra(1, u64::from(terminal));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{fighter, fudge, script};
    use super::super::{Fighter, Healing, Rules, WeaponKind};
    use super::*;
    use crate::log::VecLog;
    use crate::rules::Ruleset;
    use crate::rules::roster::Enrolled;
    use crate::scenario::schema::Target;

    /// A fencer (side a: Initiative 3, two attacks) against two thugs (Initiative 0), all
    /// Professional (+3) with +2 weapons and 1 point of armour, in melee range.
    fn fencer_and_thugs(fencer: Fighter, target: Target) -> WoundLevels {
        let thug = Fighter {
            initiative: 0,
            ..fighter(WeaponKind::Melee, 2)
        };
        let members: Vec<Enrolled> = [
            (Side::A, "Fencer", target),
            (Side::B, "Thug 1", Target::Same),
            (Side::B, "Thug 2", Target::Same),
        ]
        .map(|(side, name, target)| Enrolled {
            side,
            name: name.into(),
            target,
        })
        .to_vec();
        let rules = Rules {
            start_engaged: true,
            ..Rules::default()
        };
        WoundLevels::skirmish(
            &members,
            vec![fencer, thug, thug],
            rules,
            Healing::default(),
            5,
        )
    }

    fn fencer(evasion: bool) -> Fighter {
        Fighter {
            attacks: 2,
            evasion,
            ..fighter(WeaponKind::Melee, 2)
        }
    }

    /// The story of one fight on these roll totals, until they run out.
    fn story(model: &WoundLevels, rolls: &[i32]) -> String {
        let mut dice = script(rolls);
        let mut log = VecLog::default();
        let mut tally = Tally::new(model.shape());
        model.trial(&mut dice, &mut log, &mut tally);
        log.lines.join("\n")
    }

    #[test]
    fn several_actions_may_be_split_between_foes() {
        // "He could attack multiple times with a penalty equal to his total number of
        // actions": the Fencer's first attack goes at the thug it declared against, the second
        // at the least hurt (strongest) standing. Initiatives 3, 0, 0: no tie, no d2. Each
        // attack rolls 1: 1 + 3 - 2 (two actions) = 2, undefended: 2 + 2 - 1 armour = 3.
        let model = fencer_and_thugs(fencer(false), Target::Strongest);
        let told = story(&model, &[0, 0, 0, 1, 1, -3, -3]);
        crate::log::assert_in_order(
            &told,
            &[
                "turn 1: initiative Fencer 3, Thug 1 0, Thug 2 0",
                "Fencer declares 2 attacks (against Thug 1)",
                "Fencer attacks: roll 1 + skill 3 + -2 - wound 0 = 2",
                "Thug 1 has 3 (level 3)",
                "Fencer picks Thug 2: the least hurt of 2 foes standing (target = strongest)",
                "Thug 2 has 3 (level 3)",
                "Thug 1 attacks",
                "Thug 2 attacks",
            ],
        );
    }

    #[test]
    fn a_terminal_foe_takes_the_rest_of_the_turns_attacks_as_in_the_duel() {
        // "6) Terminal: Actions not possible", "7) Mortal: Die at the end of the turn": a
        // Terminal fighter is out of the fight at the end of the turn, as in the duel, so the
        // attacker's second attack still goes at the foe it keeps to (target = same), not at
        // another. Fencer +3 weapon: roll 3: 3 + 3 - 2 = 4 undefended, + 3 - 1 armour = 6.
        let strong = Fighter {
            attacks: 2,
            ..fighter(WeaponKind::Melee, 3)
        };
        let model = fencer_and_thugs(strong, Target::Same);
        let told = story(&model, &[0, 0, 0, 3, 0, 0, -3, -3]);
        crate::log::assert_in_order(
            &told,
            &[
                "Fencer declares 2 attacks (against Thug 1)",
                "Thug 1 has 6 (level 6)",
                "Fencer attacks",
                "Thug 1 has",
                "Thug 2 attacks",
            ],
        );
        let first_turn = told.split("turn 2:").next().unwrap_or_default();
        assert!(!first_turn.contains("Thug 2 has"), "{told}");
    }

    #[test]
    fn declared_dodges_meet_the_first_attacks_received() {
        // "Bob has Evasion, so he has the option to change one or both of his actions to a
        // dodge": both thugs declare attacks on the Fencer, who turns one of its two attacks
        // into a dodge; the dodge meets Thug 1's blow, Thug 2's finds none left.
        let model = fencer_and_thugs(fencer(true), Target::Same);
        let told = story(&model, &[0, 0, 0, -3, 0, 0, 0]);
        crate::log::assert_in_order(
            &told,
            &[
                "Fencer declares 1 attack and 1 dodge (against Thug 1)",
                "Thug 1 attacks",
                "Fencer dodges",
                "Thug 2 attacks",
            ],
        );
        assert_eq!(told.matches("Fencer dodges").count(), 1, "{told}");
    }

    #[test]
    fn a_foe_who_turned_every_attack_into_a_dodge_no_longer_calls_for_evasion() {
        // The duel's order (L37, L41): the slower declares and converts first; the faster sees
        // the converted plan. Thug 1 (slower, Evasion, one attack, evade 1) sees the Fencer's
        // attacks and turns its own into a dodge; Thug 2 declares no attack; the Fencer
        // (Evasion) then has no attacker left and keeps both attacks.
        let thugs_evade = Fighter {
            initiative: 0,
            evasion: true,
            ..fighter(WeaponKind::Melee, 2)
        };
        let members: Vec<Enrolled> = [
            (Side::A, "Fencer"),
            (Side::B, "Thug 1"),
            (Side::B, "Thug 2"),
        ]
        .map(|(side, name)| Enrolled {
            side,
            name: name.into(),
            target: Target::Same,
        })
        .to_vec();
        let rules = Rules {
            start_engaged: true,
            ..Rules::default()
        };
        let idle = Fighter {
            attacks: 0,
            ..thugs_evade
        };
        let fighters = vec![fencer(true), thugs_evade, idle];
        let model = WoundLevels::skirmish(&members, fighters, rules, Healing::default(), 5);
        let told = story(&model, &[0, 0, 0]);
        assert!(
            told.contains("Fencer declares 2 attacks (against Thug 1)"),
            "{told}"
        );
        assert!(
            told.contains("Thug 1 declares 1 dodge (against Fencer)"),
            "{told}"
        );
    }

    #[test]
    fn equal_initiatives_of_both_sides_roll_one_d2_for_the_side_first() {
        // The duel's d2 for a tie, once a turn for the group: 2 puts side b first among equals.
        let even = Fighter {
            initiative: 0,
            ..fencer(false)
        };
        let model = fencer_and_thugs(even, Target::Same);
        // Three initiative rolls of 0, then the d2: 2.
        let mut dice: Vec<u32> = (0..3).flat_map(|_| fudge(0)).collect();
        dice.push(2);
        let mut scripted = crate::dice::ScriptedDice::new(dice);
        let mut log = VecLog::default();
        let mut tally = Tally::new(model.shape());
        model.trial(&mut scripted, &mut log, &mut tally);
        let told = log.lines.join("\n");
        assert!(
            told.contains("turn 1: initiative Thug 1 0, Thug 2 0, Fencer 0"),
            "{told}"
        );
    }
}
