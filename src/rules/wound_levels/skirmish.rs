//! A fight of sides of several fighters (the Example of Combat has two; our readings are in
//! `docs/rules/wound-levels.md`, "Sides of several fighters"): each turn every fighter in the
//! fight rolls initiative and they act from the fastest; they declare from the slowest, each
//! against the foe its target policy picks (Evasion turns actions into dodges when a foe
//! attacking it declared attacks); each declared attack picks its foe afresh by the policy, so a
//! fighter's several actions may be split between foes, and a defender spends its declared
//! dodges on the first attacks it receives. Melee range is kept per pair of foes. A fighter at
//! Terminal or worse is out at the end of the turn, as in the duel (the turn's later attacks may
//! still strike it); a side wins when every foe is out. Every declaration, attack, move
//! and aftermath is the duel's own, on the fighter's and its foe's places in the fight. A side of one
//! against a side of one never comes here: it is the duel.

use super::Purpose;
use super::actions::Plan;
use super::attack::Sheets;
use super::{State, WoundLevels};
use crate::dice::{Dice, Stream};
use crate::log::Log;
use crate::rules::roster::{Blow, MAX_FIGHTERS, Pick};
use crate::stats::{DuelOutcome, Side, Tally};

/// Where a fight of several stands between its phases: every fighter's wounds and
/// ammunition, melee range per pair of foes, who is out or dead, and this turn's initiative
/// order, foes, declarations and dodges left.
pub(super) struct Fight {
    /// Each fighter's wounds and ammunition.
    pub(super) states: [State; MAX_FIGHTERS],
    /// Melee range, per pair of foes: bit `j` of `engaged[i]`.
    engaged: [u32; MAX_FIGHTERS],
    /// Out of the fight (Terminal or worse at the end of a turn).
    pub(super) out: [bool; MAX_FIGHTERS],
    /// Dead (Mortal at the end of a turn).
    pub(super) dead: [bool; MAX_FIGHTERS],
    /// The foe each keeps to, for the target policies that keep one.
    kept: [usize; MAX_FIGHTERS],
    /// The foe each declared against this turn.
    foe_of: [usize; MAX_FIGHTERS],
    /// What each declared this turn.
    plans: [Plan; MAX_FIGHTERS],
    /// The dodges each has left this turn.
    dodges_left: [u32; MAX_FIGHTERS],
    /// Each one's initiative this turn: a critical, then its total.
    initiative: [(bool, i32); MAX_FIGHTERS],
    /// Those in the fight this turn, the fastest first: `order[..acting]`.
    order: [usize; MAX_FIGHTERS],
    /// How many are in the fight this turn.
    acting: usize,
}

impl Fight {
    /// Whether `i` and its foe `j` are in melee range.
    fn near(&self, i: usize, j: usize) -> bool {
        self.engaged[i] >> j & 1 == 1
    }
}

impl WoundLevels {
    /// One fight of the point's fighters and the aftermath of every survivor.
    // Out of line: the duel's trial, which tests for a side of several first, stays as tight
    // as it was.
    #[inline(never)]
    pub(super) fn fight<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        let mut f = self.start_fight();
        let (winner, rounds) = self.fight_turns(&mut f, dice, log, tally);
        self.record_fight(&f, winner, rounds, tally);
        self.aftermath_of_all(&f, dice, log, tally);
    }

    /// The turns of a fight from where `f` stands, until a side has no one left in it or the
    /// turn limit: the winner (none on a draw) and the turns fought. In line in each fight
    /// that runs it (a fight's and a campaign's).
    #[inline(always)]
    pub(super) fn fight_turns<D: Dice, L: Log>(
        &self,
        f: &mut Fight,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) -> (Option<Side>, u32) {
        let mut winner = None;
        let mut rounds = 0;
        for turn in 1..=self.round_limit {
            if dice.exhausted() {
                break;
            }
            rounds = turn;
            self.roll_initiative(f, turn, dice, log);
            self.declare_all(f, turn, dice, log);
            self.evade(f, log);
            self.act_all(f, turn, dice, log, tally);
            self.move_all(f, turn, dice, log);
            if let Some(end) = self.end_of_fight_turn(f, log) {
                winner = end;
                break;
            }
        }
        (winner, rounds)
    }

    /// The fight before its first turn: every fighter whole, with its clip and spare clips, in
    /// melee range of every foe when the rules start them engaged.
    pub(super) fn start_fight(&self) -> Fight {
        let states = self.members.map(|f| State::start(&f));
        Fight {
            states,
            engaged: [if self.rules.start_engaged {
                u32::MAX
            } else {
                0
            }; MAX_FIGHTERS],
            out: [false; MAX_FIGHTERS],
            dead: [false; MAX_FIGHTERS],
            kept: [usize::MAX; MAX_FIGHTERS],
            foe_of: [0; MAX_FIGHTERS],
            plans: [Plan::default(); MAX_FIGHTERS],
            dodges_left: [0; MAX_FIGHTERS],
            initiative: [(false, 0); MAX_FIGHTERS],
            order: [0; MAX_FIGHTERS],
            acting: 0,
        }
    }

    /// Initiative: each in the fight rolls; the critical, then the higher total, first; among
    /// equal initiatives of both sides a d2 for the turn says which side goes first.
    #[inline(always)]
    fn roll_initiative<D: Dice, L: Log>(
        &self,
        f: &mut Fight,
        turn: u32,
        dice: &mut D,
        log: &mut L,
    ) {
        let roster = &self.roster;
        let mut k = 0;
        for i in 0..roster.len() {
            if f.out[i] {
                continue;
            }
            dice.stream(Stream::new(Purpose::Initiative, i, turn));
            let roll = self.roll(dice, "dF (initiative)");
            let total =
                roll.value + self.members[i].initiative - self.penalty_of(f.states[i].damage);
            f.initiative[i] = (roll.critical, total);
            f.order[k] = i;
            k += 1;
        }
        f.acting = k;
        let initiative = &f.initiative;
        // The order as one number per fighter: the critical, then the higher total, then
        // (among equals) the side acting first, then the order written.
        let key = |i: usize, first: Side| -> u32 {
            let (critical, total) = initiative[i];
            let speed = (u32::from(critical) << 8) | (total + 128).clamp(0, 255) as u32;
            ((511 - speed) << 6) | (u32::from(roster.side_of[i] != first) << 5) | i as u32
        };
        let acting = &mut f.order[..k];
        acting.sort_unstable_by_key(|&i| key(i, Side::A));
        let tie = acting.windows(2).any(|w| {
            initiative[w[0]] == initiative[w[1]] && roster.side_of[w[0]] != roster.side_of[w[1]]
        });
        if tie && {
            dice.stream(Stream::new(Purpose::Tie, 0, turn));
            dice.d(2, "d2 (initiative tie)") == 2
        } {
            acting.sort_unstable_by_key(|&i| key(i, Side::B));
        }
        let acting = &f.order[..k];
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
    }

    /// Declarations, the slowest first, each against the foe its policy picks.
    #[inline(always)]
    fn declare_all<D: Dice, L: Log>(&self, f: &mut Fight, turn: u32, dice: &mut D, log: &mut L) {
        let n = self.roster.len();
        for slot in (0..f.acting).rev() {
            let i = f.order[slot];
            f.plans[i] = Plan::default();
            // Most hurt: the most damage taken.
            let hurt = |foe: usize| f.states[foe].damage;
            let target = Stream::new(Purpose::Target, i, turn);
            let field = (&f.out[..n], |_| true);
            let chosen =
                (self.roster).choose(i, field, hurt, &mut f.kept[..n], (dice, target), log);
            let Pick::Foe(foe) = chosen else {
                // It waits: no foe (its own place stands for none).
                f.foe_of[i] = i;
                continue;
            };
            f.foe_of[i] = foe;
            f.plans[i] = self.declare(i, foe, &f.states, f.near(i, foe));
        }
    }

    /// Evasion, the slowest first as in the duel: a fighter whose foes still declare attacks
    /// on it turns actions into dodges; a foe that turned all its attacks into dodges no
    /// longer counts for the faster.
    #[inline(always)]
    fn evade<L: Log>(&self, f: &mut Fight, log: &mut L) {
        let acting = &f.order[..f.acting];
        let mut attackers = [0u32; MAX_FIGHTERS];
        for &i in acting {
            attackers[f.foe_of[i]] += u32::from(f.plans[i].attacks > 0);
        }
        for &i in acting.iter().rev() {
            let me = &self.members[i];
            if me.evasion && attackers[i] > 0 {
                let p = &mut f.plans[i];
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
                    attackers[f.foe_of[i]] -= 1;
                }
            }
            f.dodges_left[i] = f.plans[i].dodges;
        }
        let roster = &self.roster;
        log.say(|| {
            let list: Vec<String> = acting
                .iter()
                .rev()
                .map(|&i| match f.foe_of[i] {
                    foe if foe == i => format!("{} waits", roster.fighter_names[i]),
                    foe => format!(
                        "{} declares {} (against {})",
                        roster.fighter_names[i], f.plans[i], roster.fighter_names[foe]
                    ),
                })
                .collect();
            format!("  {}", list.join("; "))
        });
    }

    /// Actions, the fastest first.
    #[inline(always)]
    fn act_all<D: Dice, L: Log>(
        &self,
        f: &mut Fight,
        turn: u32,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        for slot in 0..f.acting {
            let i = f.order[slot];
            if Self::level(f.states[i].damage) >= 6 {
                continue;
            }
            if f.plans[i].reload {
                f.states[i].ammo = self.members[i].clip;
                f.states[i].spare_clips -= 1;
                log.say(|| format!("  {} reloads", self.roster.fighter_names[i]));
            }
            self.attacks_of(f, i, turn, dice, log, tally);
        }
    }

    /// Fighter `i`'s declared attacks: the first at the foe declared against while it is in
    /// the fight, each later one at the foe its policy picks afresh (several actions may be
    /// split). A foe made Terminal is out at the end of the turn, as in the duel ("6)
    /// Terminal: Actions not possible"): the turn's later attacks may still strike it.
    fn attacks_of<D: Dice, L: Log>(
        &self,
        f: &mut Fight,
        i: usize,
        turn: u32,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        let (me, plan, n) = (&self.members[i], f.plans[i], self.roster.len());
        for k in 0..plan.attacks {
            let foe = if k == 0 && !f.out[f.foe_of[i]] {
                f.foe_of[i]
            } else {
                let hurt = |foe: usize| f.states[foe].damage;
                let target = Stream::new(Purpose::Target, i, turn).nth(k + 1);
                let kept = &mut f.kept[..n];
                let field = (&f.out[..n], |_| true);
                match (self.roster).choose(i, field, hurt, kept, (dice, target), log) {
                    Pick::Foe(foe) => foe,
                    Pick::CrowdedOut | Pick::NoFoeLeft => break,
                }
            };
            let close = f.near(i, foe);
            let reach = close || me.kind.is_ranged() || plan.throw;
            let loaded = !me.kind.is_ranged() || plan.throw || f.states[i].ammo > 0;
            if !reach || !loaded || Self::level(f.states[i].damage) >= 6 {
                break;
            }
            let key = Stream::new(Purpose::Attack, i, turn).nth(k);
            dice.stream(key);
            let sheets = &mut Sheets {
                declared: &f.plans,
                dodges_left: &mut f.dodges_left,
                states: &mut f.states,
            };
            let blow = Blow {
                attacker: i,
                defender: foe,
            };
            let dealt = self.attack_on(blow, close, key, sheets, dice, log);
            tally.record_hit(self.roster.side_of[i], dealt.unwrap_or(0), dealt.is_some());
        }
    }

    /// Movement, the fastest first: closing into melee range with its foe, or withdrawing out
    /// of every foe's. A move declared towards a foe who fell this turn is lost with it.
    #[inline(always)]
    fn move_all<D: Dice, L: Log>(&self, f: &mut Fight, turn: u32, dice: &mut D, log: &mut L) {
        for slot in 0..f.acting {
            let i = f.order[slot];
            let (foe, plan) = (f.foe_of[i], f.plans[i]);
            if !(plan.withdraw || plan.close) || f.out[foe] {
                continue;
            }
            let still = Plan {
                withdraw: false,
                close: false,
                ..f.plans[foe]
            };
            let was = f.near(i, foe);
            let now = self.movement([(i, plan), (foe, still)], &f.states, was, turn, dice, log);
            if plan.close && now {
                f.engaged[i] |= 1 << foe;
                f.engaged[foe] |= 1 << i;
            } else if plan.withdraw && !now {
                for foe in self.roster.team(self.roster.side_of[i].other()) {
                    f.engaged[i] &= !(1 << foe);
                    f.engaged[foe] &= !(1 << i);
                }
            }
        }
    }

    /// The end of the turn: Terminal or worse is out, Mortal dies. Returns the fight's end
    /// when a side has no one left in it: the winner, or `None` for a draw.
    #[inline(always)]
    fn end_of_fight_turn<L: Log>(&self, f: &mut Fight, log: &mut L) -> Option<Option<Side>> {
        let roster = &self.roster;
        for i in 0..roster.len() {
            let level = Self::level(f.states[i].damage);
            f.out[i] = level >= 6;
            let dies = level >= 7;
            if dies && !f.dead[i] {
                log.say(|| {
                    format!(
                        "{} is Mortally wounded and dies at the end of the turn",
                        roster.fighter_names[i]
                    )
                });
            }
            f.dead[i] = dies;
        }
        let down = |side: Side| roster.team(side).all(|i| f.out[i]);
        match (down(Side::A), down(Side::B)) {
            (false, false) => None,
            (true, false) => Some(Some(Side::B)),
            (false, true) => Some(Some(Side::A)),
            (true, true) => Some(None),
        }
    }

    /// Counts the fight: who won, how many turns, each side's dead, each fighter's end.
    fn record_fight(&self, f: &Fight, winner: Option<Side>, rounds: u32, tally: &mut Tally) {
        let roster = &self.roster;
        let mut deaths = [0u32; 2];
        for i in 0..roster.len() {
            deaths[roster.side_of[i].index()] += u32::from(f.dead[i]);
        }
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead: deaths,
        });
        for i in 0..roster.len() {
            tally.record_fighter(i, f.out[i], f.dead[i]);
        }
    }

    /// Every wounded survivor's aftermath: the duel's, on its own dice.
    fn aftermath_of_all<D: Dice, L: Log>(
        &self,
        f: &Fight,
        dice: &mut D,
        log: &mut L,
        tally: &mut Tally,
    ) {
        for i in 0..self.roster.len() {
            let damage = f.states[i].damage;
            if !f.dead[i] && damage > 0 {
                self.aftermath_counted(i, (i, damage), (dice, log), tally);
            }
        }
    }

    /// The aftermath of the wounded survivor at place `i` with `damage`, counted at the
    /// tally's place `seat`: deterioration until help, healing, and whether it died or reached
    /// Terminal.
    pub(super) fn aftermath_counted<D: Dice, L: Log>(
        &self,
        i: usize,
        (seat, damage): (usize, u32),
        (dice, log): (&mut D, &mut L),
        tally: &mut Tally,
    ) -> bool {
        let mut terminal = false;
        dice.stream(Stream::new(Purpose::Aftermath, i, 0));
        let r = self.aftermath(i, damage, dice, log, &mut terminal);
        tally.record_recovery_of(seat, self.roster.side_of[i], &r);
        tally.record_extra(0, u64::from(r.died));
        tally.record_extra(1, u64::from(terminal));
        r.died
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
