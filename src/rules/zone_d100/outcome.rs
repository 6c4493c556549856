//! The MELEE SEQUENCE's step 3 OUTCOME: the opposed test that opens an exchange (the defence
//! taken, both d100 tests with Setup, stun and a helpless defender), the MELEE TEST RESULTS
//! (victory stars from the star table; a Block winning ties with its Weapon Damage roll), what
//! the winner gets (a strike or a Counterstrike with its Tactical Advantages: Action, Impact,
//! Precision, Setup), the mishaps of a CF (Fumble, Stumble) and the Bonus Action TA's new
//! exchange.

use super::injury::ShockState;
use super::melee::{Advantage, Against, Arms, Fighter, Melee, Pair, StrikeReport};
pub use super::melee::{Choice, Chosen};
use super::skill::{Defence, Mishap, Stars, SuccessLevel, Test};
use crate::dice::Dice;
use crate::log::Log;
use crate::stats::Side;

impl Melee {
    /// The opposed test that opens an exchange: the defence the other fighter takes (Ignore
    /// when it cannot act; Dodge when disarmed with nothing to Block with), both d100 tests
    /// with their modifiers (Setup, stun, a helpless defender) and the victory stars.
    pub fn contest<D: Dice, L: Log>(
        &self,
        attacker: Side,
        states: &mut impl Pair,
        close: bool,
        dice: &mut D,
        log: &mut L,
    ) -> Contest {
        let defender = attacker.other();
        let a = &self.fighter(states.place(attacker));
        let d = &self.fighter(states.place(defender));
        let (defence, against) = self.defence_taken(defender, states, d);
        let opposed = Opposed {
            defence,
            against,
            close,
        };
        let a_test = self.attack_test(attacker, states, a, opposed, dice);
        let d_test = if defence == Defence::Ignore {
            None
        } else {
            Some(self.defence_test(defender, states, d, opposed, a_test.roll, dice))
        };
        let outcome = self.rules.stars.outcome(defence, &a_test, d_test.as_ref());
        let contest = Contest {
            defence,
            attacker: a_test,
            defender: d_test,
            stars: outcome,
        };
        log.say(|| self.contest_text(attacker, states, &contest));
        contest
    }

    /// The defence the fighter `d` on side `defender` takes: its own; Ignore when it cannot act
    /// (unaware or helpless); Dodge when disarmed with nothing to Block with (but a shield) or
    /// to Counterstrike with. And what it designates for the attacker's Reach Penalty and
    /// Thrust Bonus.
    #[inline(always)]
    fn defence_taken(&self, defender: Side, states: &impl Pair, d: &Fighter) -> (Defence, Against) {
        // The defence: unaware or helpless fighters Ignore.
        let mut defence = if states[defender].can_act() {
            d.defence
        } else {
            Defence::Ignore
        };
        // Without a weapon in hand there is nothing to Block (but a shield) or Counterstrike
        // with: the defender Dodges.
        let unarmed = states[defender].disarmed;
        let shield = self.blocks_with_shield(states.place(defender), &states[defender]);
        if unarmed && (defence == Defence::Counterstrike || (defence == Defence::Block && !shield))
        {
            defence = Defence::Dodge;
        }
        // "Neither Reach Penalty nor Thrust Bonus apply to the attacker's test" against Ignore.
        // Otherwise the defender designates its readied weapon, or with none in hand ("An
        // unarmed defender may designate punch, bite, or claw") its unarmed strike mode.
        let against = match defence {
            Defence::Ignore => Against::Nothing,
            _ if unarmed => Against::Unarmed,
            _ => Against::Weapon,
        };
        (defence, against)
    }

    /// The attacker's d100 Melee test (fighter `a`) against the defence taken: an automatic CF
    /// when a Grievous injury prohibits it; an unspent Setup TA one level higher, a stun one
    /// lower; a helpless defender (UNC or dead) a CS Ignore result at least.
    #[inline(always)]
    fn attack_test<D: Dice>(
        &self,
        attacker: Side,
        states: &mut impl Pair,
        a: &Fighter,
        opposed: Opposed,
        dice: &mut D,
    ) -> Test {
        let defence = opposed.defence;
        let (a_eml, a_prohibited) =
            self.strike_eml_against(attacker, states, opposed.against, opposed.close);
        let a_arms = if a.weapon.two_handed {
            Arms::Both
        } else {
            Arms::Weapon
        };
        let mut a_test = if a_prohibited {
            self.automatic_cf(states.place(attacker), &states[attacker], a_arms, a_eml)
        } else {
            // Against a Dodge the roll itself breaks tied successes; otherwise only its level
            // and mishap digit are read.
            if defence == Defence::Dodge {
                Test::roll(dice, a_eml, "d100 (attack: Melee)")
            } else {
                Test::roll_level(dice, a_eml, "d100 (attack: Melee)")
            }
        };
        let a_state = &states[attacker];
        if a_state.setup && a_state.round <= a_state.setup_until && !a_prohibited {
            states[attacker].setup = false;
            a_test.level = a_test.level.raised();
        }
        if states[attacker].shock == ShockState::Stunned {
            a_test.level = a_test.level.lowered();
        }
        let d_state = &states[attacker.other()];
        if (d_state.shock == ShockState::Unconscious) | d_state.dead {
            // Helpless: a CS Ignore result.
            a_test.level = SuccessLevel::CriticalSuccess.max(a_test.level);
        }
        a_test
    }

    /// The defender's d100 test of its defence (fighter `d`; not Ignore): an automatic CF when
    /// a Grievous injury prohibits it; a Dodge rolled against the attacker's roll `a_roll` (the
    /// higher breaks tied successes); an unspent Setup TA one level higher, a stun one lower.
    #[inline(always)]
    fn defence_test<D: Dice>(
        &self,
        defender: Side,
        states: &mut impl Pair,
        d: &Fighter,
        opposed: Opposed,
        a_roll: u32,
        dice: &mut D,
    ) -> Test {
        let defence = opposed.defence;
        let (eml, prohibited) = self.defence_eml(defender, states, defence, opposed.close);
        let mut t = if prohibited {
            // A defence with a Grievously injured zone is an automatic CF.
            let arms = match defence {
                Defence::Dodge => Arms::None,
                Defence::Block => self.block_arms(states.place(defender), &states[defender]),
                Defence::Counterstrike if d.weapon.two_handed => Arms::Both,
                _ => Arms::Weapon,
            };
            self.automatic_cf(states.place(defender), &states[defender], arms, eml)
        } else {
            match defence {
                Defence::Block => Test::roll_level(dice, eml, "d100 (defence: Block)"),
                Defence::Dodge => Test::roll_against(dice, eml, "d100 (defence: Dodge)", a_roll),
                _ => Test::roll_level(dice, eml, "d100 (defence: Counterstrike)"),
            }
        };
        let d_state = &states[defender];
        if d_state.setup
            && !prohibited
            && d_state.round <= d_state.setup_until
            && matches!(
                defence,
                Defence::Dodge | Defence::Counterstrike | Defence::Block
            )
        {
            states[defender].setup = false;
            t.level = t.level.raised();
        }
        if states[defender].shock == ShockState::Stunned {
            t.level = t.level.lowered();
        }
        t
    }

    /// The narration of an opposed test: both fighters, their rolls against their EMLs (the
    /// defender's Outnumbered penalty) and who won by how many stars.
    fn contest_text(&self, attacker: Side, states: &impl Pair, contest: &Contest) -> String {
        let defender = attacker.other();
        let (defence, a_test) = (contest.defence, contest.attacker);
        let threatened = states[defender].outnumbered;
        let penalty = self.rules.outnumbered_penalty * threatened as i32;
        let outnumbered = if penalty != 0 {
            format!(
                " (Outnumbered -{penalty}: {} foes threaten)",
                threatened + 1
            )
        } else {
            String::new()
        };
        let d_text = contest.defender.map_or("ignores".to_owned(), |t| {
            format!(
                "{defence:?} {} vs EML{}{outnumbered}: {}",
                t.roll,
                t.eml,
                t.level.abbreviation()
            )
        });
        format!(
            "{} attacks {}: {} vs EML{}: {}; {} {d_text}: {}",
            self.names[states.place(attacker)],
            self.names[states.place(defender)],
            a_test.roll,
            a_test.eml,
            a_test.level.abbreviation(),
            self.names[states.place(defender)],
            contest.stars
        )
    }

    /// One exchange: `attacker` strikes at the other fighter, who defends by its tactic.
    /// Every strike that lands (the attack, a counterstrike, the strikes of bonus actions) is
    /// handed to `on_strike`. After the injury: 1) mishaps, 2) Free Press Rolls (not
    /// simulated), 3) the Bonus Action TA.
    pub fn exchange<S: Pair, D: Dice, L: Log, F: FnMut(&StrikeReport)>(
        &self,
        attacker: Side,
        states: &mut S,
        close: bool,
        dice: &mut D,
        log: &mut L,
        on_strike: &mut F,
    ) {
        let defender = attacker.other();
        let contest = self.contest(attacker, states, close, dice, log);
        let Contest {
            defence,
            attacker: a_test,
            defender: d_test,
            stars: outcome,
        } = contest;
        match self.victory(attacker, states, defence, outcome) {
            Victory::Strike {
                counter: false,
                tas,
                ..
            } => {
                on_strike(&self.strike(attacker, states, tas, dice, log));
                if tas.setup > 0 {
                    states[attacker].take_setup();
                }
                self.mishaps(attacker, &contest, states, log);
                let target = &states[defender];
                if tas.action > 0
                    && states[attacker].can_act()
                    && !target.dead
                    && (self.rules.strike_helpless || !target.helpless())
                {
                    log.say(|| {
                        format!(
                            "  {} takes a bonus action: another attack",
                            self.names[states.place(attacker)]
                        )
                    });
                    self.exchange(attacker, states, close, dice, log, on_strike);
                }
            }
            Victory::Strike { tas, .. } => {
                on_strike(&self.strike(defender, states, tas, dice, log));
                self.mishaps(attacker, &contest, states, log);
            }
            Victory::Defended { tas } => {
                if tas.setup > 0 {
                    states[defender].take_setup();
                }
                if defence == Defence::Block && d_test.is_some_and(|t| t.level == a_test.level) {
                    self.weapon_damage(defender, states, dice, log);
                }
                self.mishaps(attacker, &contest, states, log);
                if tas.action > 0 && states[defender].can_act() && !states[defender].disarmed {
                    log.say(|| {
                        format!(
                            "  {} takes a bonus action: an attack",
                            self.names[states.place(defender)]
                        )
                    });
                    self.exchange(defender, states, close, dice, log, on_strike);
                }
            }
            Victory::NoStrike => self.mishaps(attacker, &contest, states, log),
        }
    }

    /// The MISHAPs of an exchange's CFs, after the injury and before a bonus action: the
    /// attacker's (a Fumble on 0, a Stumble on 5) and the defender's (a Dodge only stumbles).
    #[inline(always)]
    fn mishaps<L: Log>(
        &self,
        attacker: Side,
        contest: &Contest,
        states: &mut impl Pair,
        log: &mut L,
    ) {
        if let Some(m) = contest.attacker.mishap() {
            self.mishap(attacker, m, states, log);
        }
        if let Some(m) = contest.defender.and_then(|t| t.mishap()) {
            let m = if contest.defence == Defence::Dodge {
                Mishap::Stumble
            } else {
                m
            };
            self.mishap(attacker.other(), m, states, log);
        }
    }

    /// What the winner of an opposed test gets: the attacker's strike with its TAs (Action,
    /// Impact, Precision or Setup by preference; against Ignore only Impact and Precision), the
    /// defender's Counterstrike with Impact or Precision TAs, a Block or Dodge that won with
    /// Action or Setup TAs, or nothing. One TA fewer than the stars.
    pub fn victory(
        &self,
        attacker: Side,
        states: &impl Pair,
        defence: Defence,
        stars: Stars,
    ) -> Victory {
        let defender = attacker.other();
        let (attacker_at, defender_at) = (states.place(attacker), states.place(defender));
        match stars {
            Stars::Attacker(n) => Victory::Strike {
                striker: attacker,
                counter: false,
                tas: self.chosen(
                    attacker_at,
                    if defence == Defence::Ignore {
                        Choice::ImpactOrPrecision
                    } else {
                        Choice::Strike
                    },
                    n - 1,
                ),
            },
            Stars::Defender(n) if defence == Defence::Counterstrike => Victory::Strike {
                striker: defender,
                counter: true,
                tas: self.chosen(defender_at, Choice::ImpactOrPrecision, n - 1),
            },
            Stars::Defender(n) => Victory::Defended {
                tas: self.chosen(defender_at, Choice::Defended, n - 1),
            },
            Stars::NoStrike => Victory::NoStrike,
        }
    }

    /// The TAs `side` takes for `count` TAs of a victory of this kind: [`Melee::choose`] with
    /// the kind's allowed TAs, read from the table [`Melee::new`] fills with it (every count a
    /// star table gives; a larger one is chosen here).
    #[inline]
    pub(super) fn chosen(&self, me: usize, choice: Choice, count: u32) -> Chosen {
        let Some(&tas) = self.tas[me][choice as usize].get(count as usize) else {
            return self.choose_for(me, choice, count);
        };
        debug_assert_eq!(
            tas,
            self.choose_for(me, choice, count),
            "fighters changed after Melee::new"
        );
        tas
    }

    /// [`Melee::choose`] with the TAs a victory of this kind allows.
    pub(super) fn choose_for(&self, me: usize, choice: Choice, count: u32) -> Chosen {
        match choice {
            Choice::Strike => self.choose(
                me,
                count,
                &[
                    Advantage::Action,
                    Advantage::Impact,
                    Advantage::Precision,
                    Advantage::Setup,
                ],
            ),
            Choice::ImpactOrPrecision => {
                self.choose(me, count, &[Advantage::Impact, Advantage::Precision])
            }
            Choice::Defended => self.choose(me, count, &[Advantage::Action, Advantage::Setup]),
        }
    }

    /// The TAs to take: the fighter's preferences among those the result allows ([`Melee::new`]
    /// tabulates them for every kind of victory: [`Melee::chosen`] reads them).
    pub fn choose(&self, me: usize, count: u32, allowed: &[Advantage]) -> Chosen {
        let mut chosen = Chosen::default();
        let prefs = self.members[me].advantages;
        // The allowed preferences in order, found once.
        let mut order = [Advantage::Action; 4];
        let mut allowed_count = 0;
        for a in prefs.iter().filter(|a| allowed.contains(a)) {
            order[allowed_count] = *a;
            allowed_count += 1;
        }
        if allowed_count == 0 {
            return chosen;
        }
        for i in 0..count as usize {
            // Take each allowed preference once in order, then repeat the first.
            let pick = if i < allowed_count {
                order[i]
            } else {
                order[0]
            };
            match pick {
                Advantage::Action => chosen.action += 1,
                Advantage::Impact => chosen.impact += 1,
                Advantage::Precision => chosen.precision += 1,
                Advantage::Setup => chosen.setup += 1,
            }
        }
        chosen
    }

    /// A Fumble drops the weapon; a Stumble throws the fighter prone.
    pub fn mishap<L: Log>(&self, side: Side, mishap: Mishap, states: &mut impl Pair, log: &mut L) {
        let s = &mut states[side];
        match mishap {
            Mishap::Fumble => s.disarmed = true,
            Mishap::Stumble => s.prone = true,
        }
        log.say(|| {
            format!(
                "  {} {}",
                self.names[states.place(side)],
                match mishap {
                    Mishap::Fumble => "fumbles: drops the weapon",
                    Mishap::Stumble => "stumbles: falls prone",
                }
            )
        });
    }

    fn weapon_damage<D: Dice, L: Log>(
        &self,
        side: Side,
        states: &mut impl Pair,
        dice: &mut D,
        log: &mut L,
    ) {
        let roll = dice.d(100, "d100 (Weapon Damage)");
        if roll <= self.rules.weapon_damage_chance {
            if self.fighter(states.place(side)).shield.is_some() {
                states[side].shield_broken = true;
            } else {
                states[side].disarmed = true;
            }
            log.say(|| {
                format!(
                    "  the block breaks {}'s {}",
                    self.names[states.place(side)],
                    if self.fighter(states.place(side)).shield.is_some() {
                        "shield"
                    } else {
                        "weapon"
                    }
                )
            });
        }
    }
}

/// What the winner of an opposed test gets ([`Melee::victory`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Victory {
    /// A strike: the attacker's, or the defender's Counterstrike (`counter`), with its TAs.
    Strike {
        /// Who strikes.
        striker: Side,
        /// The defender strikes back.
        counter: bool,
        /// The TAs taken.
        tas: Chosen,
    },
    /// A Block or Dodge won: no strike, the defender's TAs.
    Defended {
        /// The TAs taken (Action, Setup).
        tas: Chosen,
    },
    /// Both failed: no strike.
    NoStrike,
}

/// What both tests of an exchange's opposed test depend on ([`Melee::contest`]): the defence
/// taken, what the defender designates for the Reach Penalty and Thrust Bonus, and whether
/// the fighters are in Close.
#[derive(Clone, Copy, Debug)]
struct Opposed {
    /// The defence taken.
    defence: Defence,
    /// What the defender designates.
    against: Against,
    /// In Close.
    close: bool,
}

/// The opposed test of an exchange ([`Melee::contest`]).
#[derive(Clone, Copy, Debug)]
pub struct Contest {
    /// The defence taken.
    pub defence: Defence,
    /// The attacker's test.
    pub attacker: Test,
    /// The defender's test (none against Ignore).
    pub defender: Option<Test>,
    /// Who won, by how many stars.
    pub stars: Stars,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::ScriptedDice;
    use crate::log::VecLog;
    use crate::rules::zone_d100::body::Location;
    use crate::rules::zone_d100::melee::State;
    use crate::rules::zone_d100::melee::tests::{fighter, melee, quilt};

    fn run(m: &Melee, dice: &[u32]) -> ([State; 2], Vec<String>) {
        let mut states = [State::default(); 2];
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        m.exchange(
            Side::A,
            &mut states,
            false,
            &mut scripted,
            &mut log,
            &mut |_| {},
        );
        assert!(
            scripted.finish().is_ok(),
            "{:?}\n{}",
            scripted.error(),
            log.lines.join("\n")
        );
        assert_eq!(
            scripted.used(),
            dice.len(),
            "dice left over:\n{}",
            log.lines.join("\n")
        );
        (states, log.lines)
    }

    #[test]
    fn block_example_cs_against_f_is_two_stars_with_an_impact_ta_of_5e() {
        let mut b = fighter(Defence::Block);
        b.armour = quilt();
        let m = melee(fighter(Defence::Block), b);
        // 35 (CS) vs Block 71 (F): two stars, one Impact TA. ZD 5 (torso), LD 7 (abdomen),
        // impact 8: 8 + 3 + 1 + 5 = 17E, AV4: 13: S3E. Shock 4 + 3 + S (48) = 7: STN.
        let (states, log) = run(&m, &[35, 71, 5, 7, 8, 48]);
        let text = log.join("\n");
        assert!(text.contains("the attacker wins, 2 stars"), "{text}");
        assert!(
            text.contains("impact 8 + 4 + 5 TA = 17E, AV 4 = 13"),
            "{text}"
        );
        assert!(text.contains("injury S3E"), "{text}");
        assert_eq!(states[1].shock, ShockState::Stunned);
    }

    #[test]
    fn dodge_example_tied_successes_go_to_the_higher_roll() {
        let m = melee(fighter(Defence::Block), fighter(Defence::Dodge));
        let (states, log) = run(&m, &[36, 51]);
        assert!(log[0].contains("the defender wins, 1 star"), "{log:?}");
        assert!(states[1].injuries.is_empty());
    }

    #[test]
    fn counterstrike_example_the_attacker_wins_tied_successes_with_base_impact() {
        let m = melee(fighter(Defence::Block), fighter(Defence::Counterstrike));
        // 36 vs 51, both S: attacker one star, no TA: ZD 1 (head), LD 2 (skull), impact 4:
        // 4 + 3 + 1 = 8E: S2E. Shock 5 + 2 + S = 7: STN.
        let (states, log) = run(&m, &[36, 51, 1, 2, 4, 40]);
        assert!(log[0].contains("the attacker wins, 1 star"), "{log:?}");
        assert!(
            log.join("\n").contains("impact 4 + 4 + 0 TA = 8E"),
            "{log:?}"
        );
        assert_eq!(
            states[1].injuries.iter().next().map(|i| (i.location, i.il)),
            Some((Location::Skull, 2))
        );
    }

    #[test]
    fn ignore_example_s_is_three_stars_a_precision_and_an_impact_ta() {
        let mut a = fighter(Defence::Block);
        a.advantages = [
            Advantage::Precision,
            Advantage::Impact,
            Advantage::Setup,
            Advantage::Action,
        ];
        let m = melee(a, fighter(Defence::Ignore));
        // 36 (S) vs Ignore: three stars: precision (a second d6 ZD) and impact (+5E).
        // ZD 6 (torso) and 1 (head): the head is preferred. LD 3: skull. Impact 5: 5+3+1+5 = 14E:
        // S3E. Shock 5 + 3 + S = 8: INC.
        let (states, log) = run(&m, &[36, 6, 1, 3, 5, 41]);
        let text = log.join("\n");
        assert!(text.contains("the attacker wins, 3 stars"), "{text}");
        assert!(
            text.contains("hits ZN1 skull: impact 5 + 4 + 5 TA = 14E"),
            "{text}"
        );
        assert_eq!(states[1].shock, ShockState::Incapacitated);
    }
}
