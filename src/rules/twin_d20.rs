//! The `twin-d20` ruleset: black and white d20 against Defense, damage from the dice,
//! Coverage/Protection armour, wound circles against Toughness, the Aftermath, and the healing
//! timeline of Recovery rolls helped by Medicine.
//!
//! The rule text (`shared/rules/twin-d20.txt`) describes one attack and the time after the
//! battle; the duel around the attacks is our design, written down with every other reading in
//! `docs/rules/twin-d20.md`. This module owns the scenario schema of the ruleset, its compiled
//! fighters, the duel and the healing timeline. It does not read files or run threads.

use crate::dice::Dice;
use crate::log::Log;
use crate::rules::two_d20::{
    AttackRoll, AttributeDice, HitFaces, attribute_roll, highest_row, lower_highest_row, rows_of,
};
use crate::rules::{FirstStrike, Parameter, Ruleset};
use crate::scenario::error::{InputError, Source};
use crate::scenario::fields::{Name, Ranged};
use crate::scenario::schema::ScenarioFile;
use crate::stats::{DuelOutcome, Recovery, Side, Tally, TallyShape};
use serde::{Deserialize, Serialize};

/// The id scenarios use.
pub const ID: &str = "twin-d20";

// ---------------------------------------------------------------------------------------------
// Scenario schema
// ---------------------------------------------------------------------------------------------

/// A fighter as the scenario writes it (`[a]`, `[b]`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FighterSpec {
    /// Shown in reports and traces; defaults to `a` / `b`.
    pub name: Option<String>,
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
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            hit_on_defense: false,
            zero_digit_counts: Ranged::new(10),
            big_difference: Ranged::new(10),
            big_difference_bonus: Ranged::new(20),
            aftermath: true,
            death_margin: Ranged::new(5),
            wound_circles: Ranged::new(40),
            first_strike: FirstStrike::Random,
            stance_shift: Ranged::new(2),
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
        key: "stance_shift",
        default: "2",
        doc: "Attack/Defense traded by the aggressive and defensive stances",
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

// ---------------------------------------------------------------------------------------------
// Compiled model
// ---------------------------------------------------------------------------------------------

/// One fighter, compiled: flat numbers only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fighter {
    /// Attack after weapon and stance.
    pub attack: i32,
    /// Defense after armour and stance.
    pub defense: i32,
    /// Toughness.
    pub toughness: u32,
    /// The weapon's Damage.
    pub damage: u32,
    /// The armour's Coverage (0 when unarmoured).
    pub coverage: u32,
    /// The armour's Protection.
    pub protection: u32,
}

/// The wound circles of one fighter: bit `n` set when circle `n` is filled. Circle
/// `wound_circles + 1` stands for "beyond the last circle".
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WoundCircles(u64);

impl WoundCircles {
    /// Circles holding the given Wounds (each at its own number; for tests and examples).
    pub fn from_wounds(wounds: &[u32]) -> Self {
        WoundCircles(wounds.iter().fold(0, |bits, &w| bits | 1 << w))
    }

    /// Marks a Wound: its circle, or the nearest empty circle above. Returns the circle marked.
    #[inline]
    pub fn mark(&mut self, wound: u32, circles: u32) -> u32 {
        self.mark_if(wound, circles, true)
    }

    /// Finds the circle a Wound would take and marks it only when `really` (no branch).
    #[inline]
    pub fn mark_if(&mut self, wound: u32, circles: u32, really: bool) -> u32 {
        let beyond = circles + 1;
        let from = wound.clamp(1, beyond);
        let empty_from = !self.0 & (u64::MAX << from);
        let circle = empty_from.trailing_zeros().min(beyond);
        self.0 |= u64::from(really) << circle;
        circle
    }

    /// The most severe Wound, 0 when unwounded.
    #[inline]
    pub fn highest(self) -> u32 {
        highest_row(self.0)
    }

    /// Whether any circle is filled.
    #[inline]
    pub fn any(self) -> bool {
        self.0 != 0
    }

    /// Recovery: lowers the highest Wound by `by`; Wounds passed on the way heal. A Wound landing
    /// on a filled circle merges with it; a Wound lowered to 0 or below heals. `by` 0 (a failed
    /// roll) changes nothing, so callers need no branch.
    #[inline]
    pub fn lower_highest(&mut self, by: u32) {
        self.0 = lower_highest_row(self.0, by);
    }

    /// The filled circles, lowest first.
    pub fn list(self) -> Vec<u32> {
        rows_of(self.0)
    }
}

/// What one attack did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strike {
    /// At least one die hit.
    pub hit: bool,
    /// How many of the two dice hit (0, 1 or 2).
    pub dice_hit: u32,
    /// Damage dealt after armour (0 on a miss or when the armour took it all).
    pub dealt: u32,
}

/// The healing settings compiled to the numbers the timeline loop reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HealingPlan {
    interval: u32,
    horizon: u32,
    /// Medicine value after equipment.
    medicine: i32,
    /// Medicine rolls before each Recovery roll: 0 without a healer.
    medicine_rolls: u32,
}

impl HealingPlan {
    fn new(h: &Healing) -> Self {
        HealingPlan {
            interval: h.interval_days.u32(),
            horizon: h.horizon_days.u32(),
            medicine: h.medicine.i32() + h.equipment.i32(),
            medicine_rolls: if h.medicine.get() > 0 {
                h.medicine_rolls.u32()
            } else {
                0
            },
        }
    }
}

/// A compiled twin-d20 point: both fighters and every table the duel uses.
#[derive(Clone, Debug)]
pub struct TwinD20 {
    /// The fighters, `a` then `b`.
    pub fighters: [Fighter; 2],
    /// Their names, for narration.
    pub names: [String; 2],
    /// `hit_faces[s]`: the faces with which side `s` hits the other.
    hit_faces: [HitFaces; 2],
    /// Damage bonus when one die hits, by the face of the die that missed.
    one_die_bonus: [u32; 32],
    /// Damage bonus when both hit, by the difference between the dice.
    both_dice_bonus: [u32; 32],
    /// The rules as set.
    pub rules: Rules,
    /// `rules.wound_circles`, read on every hit.
    circles: u32,
    /// Per side: the Aftermath kills a fighter whose marked circle is above this.
    death_above: [u32; 2],
    /// The healing settings as flat numbers.
    plan: HealingPlan,
    /// The healing settings.
    pub healing: Healing,
    /// Rounds before the duel is called a draw.
    pub round_limit: u32,
}

const RECOVERY_DICE: AttributeDice = AttributeDice {
    black: "black d20 (Recovery)",
    white: "white d20 (Recovery)",
};
const MEDICINE_DICE: AttributeDice = AttributeDice {
    black: "black d20 (Medicine)",
    white: "white d20 (Medicine)",
};

impl TwinD20 {
    /// Builds the compiled point from compiled fighters and settings.
    pub fn new(
        fighters: [Fighter; 2],
        names: [String; 2],
        rules: Rules,
        healing: Healing,
        round_limit: u32,
    ) -> Self {
        let faces = |attacker: &Fighter, defender: &Fighter| {
            HitFaces::new(defender.defense, attacker.attack, rules.hit_on_defense)
        };
        let mut one_die_bonus = [0; 32];
        for (face, bonus) in one_die_bonus.iter_mut().enumerate() {
            *bonus = match face % 10 {
                0 => rules.zero_digit_counts.u32(),
                digit => digit as u32,
            };
        }
        let mut both_dice_bonus = [0; 32];
        for (difference, bonus) in both_dice_bonus.iter_mut().enumerate() {
            *bonus = if difference as u32 >= rules.big_difference.u32() {
                rules.big_difference_bonus.u32()
            } else {
                2 * difference as u32
            };
        }
        TwinD20 {
            circles: rules.wound_circles.u32(),
            death_above: fighters.map(|f| f.toughness + rules.death_margin.u32()),
            plan: HealingPlan::new(&healing),
            hit_faces: [
                faces(&fighters[0], &fighters[1]),
                faces(&fighters[1], &fighters[0]),
            ],
            fighters,
            names,
            one_die_bonus,
            both_dice_bonus,
            rules,
            healing,
            round_limit,
        }
    }

    /// The same point with other healing settings.
    pub fn with_healing(self, healing: Healing) -> Self {
        TwinD20::new(
            self.fighters,
            self.names,
            self.rules,
            healing,
            self.round_limit,
        )
    }

    /// Compiles a scenario file into a point, resolving weapon and armour names.
    pub fn compile(file: &File, source: &Source) -> Result<Self, InputError> {
        let rules = file.rules.clone();
        let mut fighters = [None, None];
        for side in Side::BOTH {
            let spec = file.fighter(side);
            let key = side.key();
            let (weapon, armour) = file.equipment(side, source)?;
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
            fighters[side.index()] = Some(Fighter {
                attack: spec.attack.i32() + weapon.attack.i32() + attack_shift,
                defense: spec.defense.i32() + armour.map_or(0, |a| a.defense.i32()) + defense_shift,
                toughness: spec.toughness.u32(),
                damage: weapon.damage.u32(),
                coverage: armour.map_or(0, |a| a.coverage.u32()),
                protection: armour.map_or(0, |a| a.protection.u32()),
            });
        }
        let [Some(a), Some(b)] = fighters else {
            unreachable!("both sides compiled above")
        };
        Ok(TwinD20::new(
            [a, b],
            [file.fighter_name(Side::A), file.fighter_name(Side::B)],
            rules,
            file.healing.clone(),
            file.round_limit.u32(),
        ))
    }

    /// One attack of `attacker` on the other fighter, marking the Wound it deals.
    ///
    /// Written without data-dependent branches (the dice decide which table cell is read, not
    /// which code runs), because mispredicted branches cost more than the dice on this path.
    #[inline]
    pub fn strike<D: Dice, L: Log>(
        &self,
        attacker: Side,
        wounds: &mut WoundCircles,
        dice: &mut D,
        log: &mut L,
    ) -> Strike {
        let atk = &self.fighters[attacker.index()];
        let def = &self.fighters[attacker.other().index()];
        log.say(|| {
            format!(
                "{} attacks {}: Attack {} vs Defense {}, Damage {}",
                self.names[attacker.index()],
                self.names[attacker.other().index()],
                atk.attack,
                def.defense,
                atk.damage
            )
        });
        let roll = AttackRoll::roll(dice);
        let faces = self.hit_faces[attacker.index()];
        // 0: both miss; 1: only black hits; 2: only white hits; 3: both hit.
        let case = usize::from(faces.hits(roll.black)) | usize::from(faces.hits(roll.white)) << 1;
        let bonuses = [
            0,
            self.one_die_bonus[roll.white as usize & 31],
            self.one_die_bonus[roll.black as usize & 31],
            self.both_dice_bonus[roll.black.abs_diff(roll.white) as usize & 31],
        ];
        let hit = case != 0;
        let damage = (atk.damage + bonuses[case]) * u32::from(hit);
        // Coverage 20 is sealed; otherwise a white die above Coverage bypasses the armour.
        let struck = roll.white <= def.coverage;
        let dealt = damage.saturating_sub(def.protection * u32::from(struck));
        let circle = wounds.mark_if(dealt, self.circles, dealt > 0);
        if L::ON {
            self.narrate_strike(
                attacker, roll, case, damage, struck, dealt, circle, *wounds, log,
            );
        }
        Strike {
            hit,
            dice_hit: case.count_ones(),
            dealt,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn narrate_strike<L: Log>(
        &self,
        attacker: Side,
        roll: AttackRoll,
        case: usize,
        damage: u32,
        struck: bool,
        dealt: u32,
        circle: u32,
        wounds: WoundCircles,
        log: &mut L,
    ) {
        let (black, white) = (roll.black, roll.white);
        let def = &self.fighters[attacker.other().index()];
        let how = match case {
            0 => return log.say(|| format!("  black {black} and white {white} both miss")),
            1 => "white missed: its last digit",
            2 => "black missed: its last digit",
            _ => "both hit: twice the difference",
        };
        let bonus = damage - self.fighters[attacker.index()].damage;
        log.say(|| format!("  black {black} white {white}: {how} adds {bonus}: Damage {damage}"));
        if def.coverage > 0 {
            log.say(|| {
                if struck {
                    format!(
                        "  armour struck (white {white} vs Coverage {}): Protection {} leaves {dealt}",
                        def.coverage, def.protection
                    )
                } else {
                    format!("  armour bypassed (white {white} above Coverage {})", def.coverage)
                }
            });
        }
        if dealt > 0 {
            log.say(|| {
                format!(
                    "  {} marks Wound {circle}; wounds now {:?}",
                    self.names[attacker.other().index()],
                    wounds.list()
                )
            });
        }
    }

    /// The Aftermath for one fighter: marks the circle above the worst Wound; true when dead.
    pub fn aftermath<L: Log>(&self, side: Side, wounds: &mut WoundCircles, log: &mut L) -> bool {
        let fighter = &self.fighters[side.index()];
        let applies = self.rules.aftermath && wounds.any();
        let circle = wounds.mark_if(wounds.highest() + 1, self.circles, applies);
        let dead = applies & (circle > self.death_above[side.index()]);
        if applies {
            log.say(|| {
                format!(
                    "Aftermath: {} marks circle {circle} (Toughness {}): {}",
                    self.names[side.index()],
                    fighter.toughness,
                    if dead { "dead" } else { "alive" }
                )
            });
        }
        dead
    }

    /// The healing timeline of a wounded survivor: a Recovery roll every `interval_days`, with
    /// the healer's Medicine first, until whole or past the horizon.
    pub fn recover<D: Dice, L: Log>(
        &self,
        side: Side,
        mut wounds: WoundCircles,
        dice: &mut D,
        log: &mut L,
    ) -> Recovery {
        let HealingPlan {
            interval,
            horizon,
            medicine,
            medicine_rolls,
        } = self.plan;
        let toughness = self.fighters[side.index()].toughness as i32;
        log.say(|| {
            format!(
                "{} recovers: Toughness {toughness}, wounds {:?}, a Recovery roll every {interval} days",
                self.names[side.index()],
                wounds.list()
            )
        });
        let mut day = 0;
        while day + interval <= horizon && !dice.exhausted() {
            day += interval;
            let mut bonus = 0;
            for _ in 0..medicine_rolls {
                bonus = bonus.max(attribute_roll(dice, medicine, MEDICINE_DICE));
            }
            let value = toughness + bonus as i32;
            let result = attribute_roll(dice, value, RECOVERY_DICE);
            let highest = wounds.highest();
            wounds.lower_highest(result);
            if L::ON {
                if medicine_rolls > 0 {
                    log.say(|| format!("day {day}: Medicine {medicine} adds {bonus} to Toughness"));
                }
                log.say(|| match result {
                    0 => format!("day {day}: Recovery roll with {value} fails: no healing"),
                    _ => format!(
                        "day {day}: Recovery roll with {value}: {result} success; Wound {highest} lowered to {}; wounds now {:?}",
                        highest.saturating_sub(result),
                        wounds.list()
                    ),
                });
            }
            if !wounds.any() {
                log.say(|| format!("{} is whole after {day} days", self.names[side.index()]));
                return Recovery {
                    days_to_whole: Some(day),
                    died: false,
                    impairment: 0,
                };
            }
        }
        log.say(|| {
            format!(
                "{} still has wounds {:?} at the horizon ({horizon} days)",
                self.names[side.index()],
                wounds.list()
            )
        });
        Recovery {
            days_to_whole: None,
            died: false,
            impairment: 0,
        }
    }
}

impl Ruleset for TwinD20 {
    fn shape(&self) -> TallyShape {
        TallyShape {
            round_limit: self.round_limit,
            max_damage: 80,
            horizon_days: self.healing.horizon_days.u32(),
            extras: &[],
        }
    }

    fn trial<D: Dice, L: Log>(&self, dice: &mut D, log: &mut L, tally: &mut Tally) {
        let mut wounds = [WoundCircles::default(); 2];
        let first = self.rules.first_strike.roll(dice);
        log.say(|| format!("{} strikes first", self.names[first.index()]));
        let mut winner = None;
        let mut rounds = 0;
        'duel: for round in 1..=self.round_limit {
            rounds = round;
            log.say(|| format!("round {round}"));
            for attacker in [first, first.other()] {
                if dice.exhausted() {
                    break 'duel;
                }
                let defender = attacker.other();
                let strike = self.strike(attacker, &mut wounds[defender.index()], dice, log);
                tally.record_hit(strike.dealt, strike.hit);
                let fighter = &self.fighters[defender.index()];
                if wounds[defender.index()].highest() > fighter.toughness {
                    log.say(|| {
                        format!(
                            "{} is incapacitated (Wound {} above Toughness {}): {} wins",
                            self.names[defender.index()],
                            wounds[defender.index()].highest(),
                            fighter.toughness,
                            self.names[attacker.index()]
                        )
                    });
                    winner = Some(attacker);
                    break 'duel;
                }
            }
        }
        if winner.is_none() && !dice.exhausted() {
            log.say(|| format!("the round limit ({}) is reached: a draw", self.round_limit));
        }
        let mut dead = [false; 2];
        for side in Side::BOTH {
            dead[side.index()] = self.aftermath(side, &mut wounds[side.index()], log);
        }
        tally.record_duel(&DuelOutcome {
            winner,
            rounds,
            dead,
        });
        for side in Side::BOTH {
            if !dead[side.index()] && wounds[side.index()].any() {
                let recovery = self.recover(side, wounds[side.index()], dice, log);
                tally.record_recovery(side, &recovery);
            }
        }
    }
}

/// One exchange for exact tables: `strike`, the very attack the duel rolls, on an unwounded
/// defender.
impl crate::exact::Exchange for TwinD20 {
    const UNIT: &'static str = "damage";
    const RESULTS: &'static [&'static str] = &["miss", "one die hits", "both dice hit"];

    fn exchange<D: Dice>(&self, attacker: Side, dice: &mut D) -> crate::exact::Outcome {
        let mut wounds = WoundCircles::default();
        let strike = self.strike(attacker, &mut wounds, dice, &mut crate::log::NoLog);
        crate::exact::Outcome {
            result: Self::RESULTS[strike.dice_hit as usize],
            value: strike.dealt,
            kind: "",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{EnumeratingDice, FastDice, ScriptedDice};
    use crate::log::{NoLog, VecLog};

    fn fighter(attack: i32, defense: i32, toughness: u32, damage: u32) -> Fighter {
        Fighter {
            attack,
            defense,
            toughness,
            damage,
            coverage: 0,
            protection: 0,
        }
    }

    fn point(a: Fighter, b: Fighter, rules: Rules) -> TwinD20 {
        TwinD20::new(
            [a, b],
            ["a".into(), "b".into()],
            rules,
            Healing::default(),
            50,
        )
    }

    fn strike_with(model: &TwinD20, dice: &[u32]) -> (Option<u32>, WoundCircles) {
        let mut wounds = WoundCircles::default();
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let strike = model.strike(Side::A, &mut wounds, &mut scripted, &mut NoLog);
        assert!(scripted.finish().is_ok());
        (strike.hit.then_some(strike.dealt), wounds)
    }

    #[test]
    fn example_one_die_hits_attack_12_defense_6_damage_2_black_3_white_11_is_5() {
        let model = point(fighter(12, 0, 8, 2), fighter(0, 6, 8, 0), Rules::default());
        let (dealt, wounds) = strike_with(&model, &[3, 11]);
        assert_eq!(dealt, Some(5));
        assert_eq!(wounds.list(), vec![5]);
    }

    #[test]
    fn example_both_dice_hit_attack_15_defense_5_damage_3_black_10_white_6_is_11() {
        let model = point(fighter(15, 0, 8, 3), fighter(0, 5, 20, 0), Rules::default());
        assert_eq!(strike_with(&model, &[10, 6]).0, Some(11));
    }

    #[test]
    fn a_missing_ten_or_twenty_counts_as_ten_and_a_big_difference_counts_as_twenty() {
        let model = point(
            fighter(20, 0, 8, 2),
            fighter(0, 10, 30, 0),
            Rules::default(),
        );
        // White 20 hits, black 10 equals Defense 10 and misses: its digit 0 counts 10.
        assert_eq!(strike_with(&model, &[10, 20]).0, Some(12));
        let wide = point(fighter(20, 0, 8, 2), fighter(0, 1, 30, 0), Rules::default());
        // Both hit, difference 17: counts as 20.
        assert_eq!(strike_with(&wide, &[3, 20]).0, Some(22));
        // Difference 9: twice is 18.
        assert_eq!(strike_with(&wide, &[3, 12]).0, Some(20));
    }

    #[test]
    fn both_dice_missing_is_no_hit() {
        let model = point(fighter(12, 0, 8, 2), fighter(0, 6, 8, 0), Rules::default());
        assert_eq!(strike_with(&model, &[3, 13]).0, None);
    }

    #[test]
    fn coverage_is_checked_with_the_white_die_even_when_it_misses() {
        let mut b = fighter(0, 6, 30, 0);
        b.coverage = 11;
        b.protection = 3;
        let model = point(fighter(12, 0, 8, 2), b, Rules::default());
        // White 11 hits and is not above Coverage 11: struck, 5 - 3 = 2.
        assert_eq!(strike_with(&model, &[3, 11]).0, Some(2));
        // White 4 misses, still checked: struck. Black 9 hits, white's digit 4: 6 - 3 = 3.
        assert_eq!(strike_with(&model, &[9, 4]).0, Some(3));
        // White 12 hits and is above Coverage 11: bypassed. Black 3 missed: 2 + 3 = 5.
        assert_eq!(strike_with(&model, &[3, 12]).0, Some(5));
    }

    #[test]
    fn coverage_20_is_sealed_and_protection_can_stop_everything() {
        let mut b = fighter(0, 6, 30, 0);
        b.coverage = 20;
        b.protection = 30;
        let model = point(fighter(20, 0, 8, 2), b, Rules::default());
        let (dealt, wounds) = strike_with(&model, &[3, 20]);
        assert_eq!(dealt, Some(0));
        assert!(!wounds.any());
    }

    #[test]
    fn a_filled_circle_moves_the_wound_to_the_nearest_empty_circle_above() {
        let mut w = WoundCircles::from_wounds(&[11, 12, 14]);
        assert_eq!(w.mark(11, 40), 13);
        assert_eq!(w.mark(11, 40), 15);
        assert_eq!(w.mark(3, 40), 3);
        let mut full = WoundCircles::from_wounds(&[39, 40]);
        assert_eq!(full.mark(39, 40), 41, "beyond the last circle");
        assert_eq!(full.mark(45, 40), 41);
    }

    #[test]
    fn example_recovery_wounds_6_and_7_result_4_leaves_3() {
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default());
        let mut dice = ScriptedDice::new([11, 4, 20, 20]);
        let mut log = VecLog::default();
        let mut wounds = WoundCircles::from_wounds(&[6, 7]);
        // One Recovery roll: Toughness 8, black 11 white 4: result 4.
        let result = crate::rules::two_d20::attribute_roll(&mut dice, 8, RECOVERY_DICE);
        assert_eq!(result, 4);
        wounds.lower_highest(4);
        assert_eq!(wounds.list(), vec![3]);
        // Through the timeline: the same roll, then a failure (20, 20) leaves the 3.
        let mut dice = ScriptedDice::new([11, 4, 20, 20]);
        let short = model.clone().with_healing(Healing {
            horizon_days: Ranged::new(14),
            ..Healing::default()
        });
        let r = short.recover(
            Side::A,
            WoundCircles::from_wounds(&[6, 7]),
            &mut dice,
            &mut log,
        );
        assert!(dice.finish().is_ok());
        assert_eq!(r.days_to_whole, None);
        assert!(
            log.lines
                .iter()
                .any(|l| l.contains("Wound 7 lowered to 3; wounds now [3]")),
            "{:?}",
            log.lines
        );
    }

    #[test]
    fn lowering_merges_on_a_filled_circle_and_a_failed_roll_changes_nothing() {
        let mut w = WoundCircles::from_wounds(&[2, 7]);
        w.lower_highest(5);
        assert_eq!(w.list(), vec![2]);
        let mut w = WoundCircles::from_wounds(&[2, 7]);
        w.lower_highest(0);
        assert_eq!(w.list(), vec![2, 7]);
        let mut w = WoundCircles::from_wounds(&[2, 7, 9]);
        w.lower_highest(20);
        assert!(!w.any());
        let mut empty = WoundCircles::default();
        empty.lower_highest(4);
        assert!(!empty.any());
    }

    #[test]
    fn recovery_heals_when_the_result_clears_the_highest_wound() {
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default());
        // Wounds 2 and 5; failure in week 1 (both above 8), then result 8 clears both in week 2.
        let mut dice = ScriptedDice::new([9, 12, 8, 1]);
        let r = model.recover(
            Side::A,
            WoundCircles::from_wounds(&[2, 5]),
            &mut dice,
            &mut NoLog,
        );
        assert_eq!(r.days_to_whole, Some(14));
    }

    #[test]
    fn medicine_adds_its_highest_success_to_toughness_for_the_next_roll() {
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default()).with_healing(
            Healing {
                medicine: Ranged::new(10),
                equipment: Ranged::new(2),
                ..Healing::default()
            },
        );
        // Medicine 12: black 12, white 15 -> 12. Recovery with 8 + 12 = 20: black 17 white 19 -> 19.
        let mut dice = ScriptedDice::new([12, 15, 17, 19]);
        let r = model.recover(
            Side::A,
            WoundCircles::from_wounds(&[18]),
            &mut dice,
            &mut NoLog,
        );
        assert!(dice.finish().is_ok());
        assert_eq!(r.days_to_whole, Some(7));
    }

    #[test]
    fn aftermath_marks_above_the_worst_wound_and_kills_beyond_the_margin() {
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default());
        let mut wounds = WoundCircles::from_wounds(&[9]);
        assert!(!model.aftermath(Side::A, &mut wounds, &mut NoLog));
        assert_eq!(wounds.list(), vec![9, 10]);
        let mut wounds = WoundCircles::from_wounds(&[13]);
        // Circle 14 is 6 above Toughness 8: dead.
        assert!(model.aftermath(Side::A, &mut wounds, &mut NoLog));
        let rules = Rules {
            aftermath: false,
            ..Rules::default()
        };
        let off = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), rules);
        let mut wounds = WoundCircles::from_wounds(&[20]);
        assert!(!off.aftermath(Side::A, &mut wounds, &mut NoLog));
        assert_eq!(wounds.list(), vec![20]);
    }

    /// Exact distribution of the damage of one attack (0 = miss) over the 400 dice pairs.
    fn exact_damage_distribution(model: &TwinD20) -> Vec<f64> {
        let mut probability = vec![0.0; 81];
        EnumeratingDice::for_each(
            |dice| model.strike(Side::A, &mut WoundCircles::default(), dice, &mut NoLog),
            |strike, p| probability[strike.dealt as usize] += p,
        );
        probability
    }

    #[test]
    fn enumeration_walks_exactly_400_dice_pairs() {
        let model = point(fighter(12, 0, 8, 2), fighter(0, 6, 8, 0), Rules::default());
        let mut outcomes = 0;
        EnumeratingDice::for_each(
            |dice| model.strike(Side::A, &mut WoundCircles::default(), dice, &mut NoLog),
            |_, p| {
                outcomes += 1;
                assert!((p - 1.0 / 400.0).abs() < 1e-15);
            },
        );
        assert_eq!(outcomes, 400);
    }

    #[test]
    fn sampled_exchange_damage_matches_exact_enumeration_within_4_5_sigma() {
        let mut b = fighter(0, 6, 40, 0);
        b.coverage = 12;
        b.protection = 3;
        let model = point(fighter(15, 0, 8, 3), b, Rules::default());
        let exact = exact_damage_distribution(&model);
        let exact_mean: f64 = exact.iter().enumerate().map(|(d, p)| d as f64 * p).sum();
        let exact_var: f64 = exact
            .iter()
            .enumerate()
            .map(|(d, p)| (d as f64 - exact_mean).powi(2) * p)
            .sum();
        let n = 200_000;
        let mut dice = FastDice::seed_from_u64(2026);
        let mut counts = vec![0u64; 81];
        let mut sum = 0u64;
        for _ in 0..n {
            let d = model
                .strike(Side::A, &mut WoundCircles::default(), &mut dice, &mut NoLog)
                .dealt;
            counts[d as usize] += 1;
            sum += u64::from(d);
        }
        let mean = sum as f64 / n as f64;
        let se = (exact_var / n as f64).sqrt();
        assert!(
            (mean - exact_mean).abs() < 4.5 * se,
            "mean {mean} vs exact {exact_mean} (se {se})"
        );
        for (d, &p) in exact.iter().enumerate() {
            let share = counts[d] as f64 / n as f64;
            let se = (p * (1.0 - p) / n as f64).sqrt().max(1e-9);
            assert!(
                (share - p).abs() < 4.5 * se + 1e-12,
                "damage {d}: {share} vs {p}"
            );
        }
    }

    #[test]
    fn a_full_duel_replays_from_scripted_dice() {
        let model = point(fighter(12, 6, 8, 2), fighter(12, 6, 8, 2), Rules::default());
        // d2 = 1: a first. a: 3, 11 -> b Wound 5. b: 1, 2 miss. a: 20, 9 -> 2 + 10... white 9 hits,
        // black 20 above Attack misses: digit 0 counts 10: Damage 12 -> b incapacitated.
        // Aftermath: b marks 13 (5 above 8: alive). b's Recovery rolls: 8, 1 -> 8: 13 becomes 5
        // and the 12 heals on the way; then 5, 2 -> 5: whole after 14 days. a is unwounded.
        let mut dice = ScriptedDice::new([1, 3, 11, 1, 2, 20, 9, 8, 1, 5, 2]);
        let mut tally = Tally::new(model.shape());
        let mut log = VecLog::default();
        model.trial(&mut dice, &mut log, &mut tally);
        assert!(dice.finish().is_ok(), "{:?} {:?}", dice.error(), log.lines);
        assert_eq!(dice.used(), 11);
        assert_eq!(tally.ends, [1, 0, 0]);
        assert_eq!(tally.dead, [0, 0]);
        assert_eq!(tally.rounds.bins()[2], 1);
        assert_eq!(tally.recovery[1].days_to_whole.bins()[14], 1);
        assert_eq!(tally.recovery[0].patients, 0);
    }

    #[test]
    fn documented_defaults_are_the_defaults_in_force() {
        crate::rules::assert_documented_defaults(
            PARAMETERS,
            &Rules::default(),
            &Healing::default(),
        );
    }

    // -----------------------------------------------------------------------------------------
    // Rule ledger tests (docs/rules/twin-d20.md, "Rule ledger"). Paste at the end of
    // `mod tests` in src/rules/twin_d20.rs: they use `fighter`, `point` and `strike_with` from
    // above. Expected numbers come from the sentences of shared/rules/twin-d20.txt (quoted).
    // -----------------------------------------------------------------------------------------

    fn ledger_point(
        a: Fighter,
        b: Fighter,
        rules: Rules,
        healing: Healing,
        round_limit: u32,
    ) -> TwinD20 {
        TwinD20::new(
            [a, b],
            ["a".into(), "b".into()],
            rules,
            healing,
            round_limit,
        )
    }

    fn ledger_first(first_strike: FirstStrike) -> Rules {
        Rules {
            first_strike,
            ..Rules::default()
        }
    }

    /// Healing whose horizon comes before the first Recovery roll: a trial rolls no healing dice.
    fn ledger_no_recovery() -> Healing {
        Healing {
            horizon_days: Ranged::new(1),
            ..Healing::default()
        }
    }

    fn ledger_healing(
        interval: i64,
        horizon: i64,
        medicine: i64,
        equipment: i64,
        rolls: i64,
    ) -> Healing {
        Healing {
            interval_days: Ranged::new(interval),
            horizon_days: Ranged::new(horizon),
            medicine: Ranged::new(medicine),
            equipment: Ranged::new(equipment),
            medicine_rolls: Ranged::new(rolls),
        }
    }

    /// One whole trial on scripted dice; every die must be used. Returns the tally and the story.
    fn ledger_trial(model: &TwinD20, dice: &[u32]) -> (Tally, String) {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut tally = Tally::new(model.shape());
        let mut log = VecLog::default();
        model.trial(&mut scripted, &mut log, &mut tally);
        let story = log.lines.join("\n");
        assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
        assert_eq!(scripted.used(), dice.len(), "dice left over\n{story}");
        (tally, story)
    }

    /// One healing timeline on scripted dice; every die must be used.
    fn ledger_recover(
        model: &TwinD20,
        side: Side,
        wounds: &[u32],
        dice: &[u32],
    ) -> (Recovery, String) {
        let mut scripted = ScriptedDice::new(dice.to_vec());
        let mut log = VecLog::default();
        let r = model.recover(
            side,
            WoundCircles::from_wounds(wounds),
            &mut scripted,
            &mut log,
        );
        let story = log.lines.join("\n");
        assert!(scripted.finish().is_ok(), "{:?}\n{story}", scripted.error());
        assert_eq!(scripted.used(), dice.len(), "dice left over\n{story}");
        (r, story)
    }

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
    fn one_die_hit_adds_the_last_digit_of_the_die_that_missed_even_above_the_attack() {
        // L1: "If the attack hit with one die, the last digit of the die that missed is added to
        // the weapon's Damage. When the last digit is 0, as in 10 or 20, it counts as 10."
        // Attack 12, Defense 6, Damage 2.
        let model = point(fighter(12, 0, 8, 2), fighter(0, 6, 30, 0), Rules::default());
        // Black 9 hits; white 17 missed (above the Attack): its digit 7: 2 + 7 = 9.
        let (dealt, wounds) = strike_with(&model, &[9, 17]);
        assert_eq!(dealt, Some(9));
        assert_eq!(wounds.list(), vec![9]);
        // Black 15 missed (above the Attack): digit 5; white 8 hits: 2 + 5 = 7.
        assert_eq!(strike_with(&model, &[15, 8]).0, Some(7));
        // Black 20 missed (above the Attack): digit 0 counts as 10; white 9 hits: 2 + 10 = 12.
        assert_eq!(strike_with(&model, &[20, 9]).0, Some(12));
        // Black 4 missed (below Defense): digit 4; white 11 hits: 2 + 4 = 6.
        assert_eq!(strike_with(&model, &[4, 11]).0, Some(6));
    }

    #[test]
    fn both_dice_hit_add_twice_the_difference_and_a_difference_of_10_or_more_counts_as_20() {
        // L5: "If both dice hit, twice the difference between them is added to the weapon's
        // Damage. If the difference is 10 or greater, it counts as 20."
        // Attack 20, Defense 1, Damage 3: every face from 2 to 20 hits.
        let model = point(fighter(20, 0, 8, 3), fighter(0, 1, 30, 0), Rules::default());
        // Equal dice: difference 0 adds nothing.
        assert_eq!(strike_with(&model, &[7, 7]).0, Some(3));
        // Difference 1: + 2.
        assert_eq!(strike_with(&model, &[8, 7]).0, Some(5));
        // Difference 9 (white higher): + 18.
        assert_eq!(strike_with(&model, &[2, 11]).0, Some(21));
        // READING (assumptions table, rules.big_difference_bonus = 20): "it counts as 20" is read
        // as "the doubled difference counts as 20". Read literally ("the difference counts as
        // 20", doubled) these two would be 3 + 40 = 43.
        // Difference exactly 10: + 20.
        assert_eq!(strike_with(&model, &[15, 5]).0, Some(23));
        // Difference 18: + 20.
        assert_eq!(strike_with(&model, &[20, 2]).0, Some(23));
    }

    #[test]
    fn coverage_1_and_19_are_checked_against_the_white_die_at_their_edges() {
        // L10: "For Coverage 1-19, check the white die of the attack roll against Coverage. If the
        // white die is higher, the attack bypasses the armor. ... If the armor is struck, reduce
        // the incoming Damage by the Armor's Protection."
        // Attack 20, Defense 0 (every face hits), Damage 2; Protection 30 stops any struck blow.
        let armoured = |coverage: u32| {
            let mut b = fighter(0, 0, 30, 0);
            b.coverage = coverage;
            b.protection = 30;
            point(fighter(20, 0, 8, 2), b, Rules::default())
        };
        let top = armoured(19);
        // White 20 is higher than Coverage 19: bypassed. Difference 15: 2 + 20 = 22.
        assert_eq!(strike_with(&top, &[5, 20]).0, Some(22));
        // White 19 is not higher: struck, 22 - 30: nothing left (still a hit).
        let (dealt, wounds) = strike_with(&top, &[5, 19]);
        assert_eq!(dealt, Some(0));
        assert!(!wounds.any());
        let bottom = armoured(1);
        // White 1 is not higher than Coverage 1: struck. Difference 4: 2 + 8 = 10, all stopped.
        assert_eq!(strike_with(&bottom, &[5, 1]).0, Some(0));
        // White 2 is higher: bypassed. Difference 3: 2 + 6 = 8.
        assert_eq!(strike_with(&bottom, &[5, 2]).0, Some(8));
    }

    #[test]
    fn a_strike_whose_circle_is_filled_marks_the_nearest_empty_circle_above() {
        // L13: "If the circle is already filled from a previous Wound, mark the nearest empty
        // circle above it instead."
        let model = point(fighter(12, 0, 8, 2), fighter(0, 6, 30, 0), Rules::default());
        let mut wounds = WoundCircles::from_wounds(&[5, 6, 8]);
        // Black 3 misses, white 11 hits: Damage 5. Circles 5 and 6 are filled: 7 (not 4 below).
        let mut dice = ScriptedDice::new([3, 11]);
        let strike = model.strike(Side::A, &mut wounds, &mut dice, &mut NoLog);
        assert!(dice.finish().is_ok());
        assert_eq!(strike.dealt, 5);
        assert_eq!(wounds.list(), vec![5, 6, 7, 8]);
    }

    #[test]
    fn a_wound_equal_to_toughness_leaves_the_fighter_fighting_one_above_incapacitates() {
        // L13: "Wounds higher than your Toughness means you're incapacitated."
        let model = ledger_point(
            fighter(12, 6, 8, 2),
            fighter(12, 6, 5, 2),
            ledger_first(FirstStrike::A),
            ledger_no_recovery(),
            50,
        );
        // a: 3, 11 -> b Wound 5, equal to Toughness 5: b still strikes (1, 2: miss).
        // a: 3, 7 -> Damage 5, circle 5 filled: Wound 6, above Toughness 5: b is out, a wins in
        // round 2 and b does not strike again.
        let (tally, story) = ledger_trial(&model, &[3, 11, 1, 2, 3, 7]);
        assert_eq!(tally.ends, [1, 0, 0]);
        assert_eq!(tally.rounds.bins()[2], 1);
        crate::log::assert_in_order(
            &story,
            &[
                "round 1",
                "b marks Wound 5",
                "b attacks a",
                "round 2",
                "b marks Wound 6",
                "b is incapacitated (Wound 6 above Toughness 5): a wins",
            ],
        );
    }

    #[test]
    fn aftermath_marks_the_circle_above_the_most_severe_wound_and_exactly_5_above_toughness_lives()
    {
        // L15: "After the battle, mark the circle above your most severe Wound. If a Wound is more
        // than 5 circles above your Toughness, you're dead."
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default());
        // Most severe 12: circle 13 is marked; 13 is 5 above Toughness 8, not more: alive.
        let mut wounds = WoundCircles::from_wounds(&[3, 9, 12]);
        assert!(!model.aftermath(Side::A, &mut wounds, &mut NoLog));
        assert_eq!(wounds.list(), vec![3, 9, 12, 13]);
        // Most severe 13: circle 14, 6 above: dead.
        let mut wounds = WoundCircles::from_wounds(&[13]);
        assert!(model.aftermath(Side::A, &mut wounds, &mut NoLog));
        // A Wound already 12 above (20): dead.
        let mut wounds = WoundCircles::from_wounds(&[20]);
        assert!(model.aftermath(Side::A, &mut wounds, &mut NoLog));
        // No Wound: nothing to mark, alive.
        let mut none = WoundCircles::default();
        assert!(!model.aftermath(Side::A, &mut none, &mut NoLog));
        assert!(!none.any());
    }

    #[test]
    fn after_the_battle_the_winner_marks_the_aftermath_too_and_only_survivors_make_recovery_rolls()
    {
        // L15: "After the battle, mark the circle above your most severe Wound. If a Wound is more
        // than 5 circles above your Toughness, you're dead." Design (assumptions, "Aftermath for
        // whom"; the duel step 6): every wounded fighter marks; every wounded survivor heals.
        let model = ledger_point(
            fighter(12, 6, 8, 2),
            fighter(12, 6, 3, 2),
            ledger_first(FirstStrike::B),
            Healing::default(),
            50,
        );
        // b: 3, 11 -> a Wound 5. a: 20, 9 -> b Wound 12, above Toughness 3: a wins.
        // Aftermath: a marks 6 (alive); b marks 13, 10 above Toughness 3: dead.
        // a's Recovery roll with Toughness 8: 6, 20 -> 6: the 6 goes, the 5 heals on the way.
        let (tally, story) = ledger_trial(&model, &[3, 11, 20, 9, 6, 20]);
        assert_eq!(tally.ends, [1, 0, 0]);
        assert_eq!(tally.dead, [0, 1]);
        assert_eq!(tally.recovery[0].patients, 1);
        assert_eq!(tally.recovery[0].days_to_whole.bins()[7], 1);
        assert_eq!(
            tally.recovery[1].patients, 0,
            "the dead make no Recovery roll"
        );
        crate::log::assert_in_order(
            &story,
            &[
                "Aftermath: a marks circle 6 (Toughness 8): alive",
                "Aftermath: b marks circle 13 (Toughness 3): dead",
                "a is whole after 7 days",
            ],
        );
    }

    #[test]
    fn the_round_limit_ends_a_duel_with_both_standing_in_a_draw() {
        // Design (the duel, step 4): "After round_limit rounds with both standing the duel is a
        // draw."
        let model = ledger_point(
            fighter(12, 6, 8, 2),
            fighter(12, 6, 8, 2),
            ledger_first(FirstStrike::A),
            ledger_no_recovery(),
            1,
        );
        let (tally, story) = ledger_trial(&model, &[1, 1, 1, 1]);
        assert_eq!(tally.ends, [0, 0, 1]);
        assert!(
            story.contains("the round limit (1) is reached: a draw"),
            "{story}"
        );
    }

    #[test]
    fn the_recovery_roll_is_made_against_toughness() {
        // L18: "Recovery rolls are made using your Toughness."
        let model = ledger_point(
            fighter(0, 0, 8, 0),
            fighter(0, 0, 7, 0),
            Rules::default(),
            ledger_healing(7, 7, 0, 0, 1),
            50,
        );
        // Toughness 8: black 9 fails, white 8 succeeds: 8 lowers the Wound 8 to nothing.
        let (r, _) = ledger_recover(&model, Side::A, &[8], &[9, 8]);
        assert_eq!(r.days_to_whole, Some(7));
        // Toughness 7: the same dice both fail.
        let (r, story) = ledger_recover(&model, Side::B, &[8], &[9, 8]);
        assert_eq!(r.days_to_whole, None);
        assert!(
            story.contains("Recovery roll with 7 fails: no healing"),
            "{story}"
        );
    }

    #[test]
    fn a_failed_recovery_roll_heals_nothing_that_time() {
        // L18: "If the roll fails, you do not heal this time. If the roll succeeds, lower your
        // highest Wound by the result."
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default())
            .with_healing(ledger_healing(7, 14, 0, 0, 1));
        // Week 1: 9 and 12 both above Toughness 8: fails. Week 2: 2, 15 -> 2: the 3, untouched by
        // week 1, is lowered to 1.
        let (r, story) = ledger_recover(&model, Side::A, &[3], &[9, 12, 2, 15]);
        assert_eq!(r.days_to_whole, None);
        crate::log::assert_in_order(
            &story,
            &[
                "day 7: Recovery roll with 8 fails: no healing",
                "day 14: Recovery roll with 8: 2 success; Wound 3 lowered to 1; wounds now [1]",
            ],
        );
    }

    #[test]
    fn recovery_lowers_only_the_highest_wound_heals_those_passed_and_keeps_those_below() {
        // L18: "If the roll succeeds, lower your highest Wound by the result. Any other Wounds
        // along the way are healed."
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default())
            .with_healing(ledger_healing(7, 7, 0, 0, 1));
        // Wounds 2, 9, 12; 5, 12 -> 5: the 12 becomes 7, the 9 on the way heals, the 2 stays.
        let (r, story) = ledger_recover(&model, Side::A, &[2, 9, 12], &[5, 12]);
        assert_eq!(r.days_to_whole, None);
        assert!(
            story.contains("Wound 12 lowered to 7; wounds now [2, 7]"),
            "{story}"
        );
    }

    #[test]
    fn the_highest_of_several_medicine_results_adds_to_toughness() {
        // L24: "add the highest successful Medicine result to your Toughness in your next
        // Recovery roll." (healing.medicine_rolls = 2)
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default())
            .with_healing(ledger_healing(7, 7, 10, 0, 2));
        // Medicine 10: 9, 15 -> 9; then 3, 4 -> 4. The highest, 9, counts (the last would be 4):
        // Recovery with 8 + 9 = 17: 17, 20 -> 17 heals the Wound 17.
        let (r, story) = ledger_recover(&model, Side::A, &[17], &[9, 15, 3, 4, 17, 20]);
        assert_eq!(r.days_to_whole, Some(7));
        assert!(
            story.contains("day 7: Medicine 10 adds 9 to Toughness"),
            "{story}"
        );
    }

    #[test]
    fn a_medicine_result_counts_for_the_next_recovery_roll_only() {
        // L24: "add the highest successful Medicine result to your Toughness in your next
        // Recovery roll."
        let model = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default())
            .with_healing(ledger_healing(7, 14, 10, 0, 1));
        // Week 1: Medicine 9, 15 -> 9; Recovery with 17: 5, 20 -> 5: 17 becomes 12.
        // Week 2: Medicine 15, 16 fails; Recovery with 8 (not 17): 9, 12 fail.
        let (r, story) = ledger_recover(&model, Side::A, &[17], &[9, 15, 5, 20, 15, 16, 9, 12]);
        assert_eq!(r.days_to_whole, None);
        crate::log::assert_in_order(
            &story,
            &[
                "day 7: Medicine 10 adds 9 to Toughness",
                "day 7: Recovery roll with 17: 5 success; Wound 17 lowered to 12; wounds now [12]",
                "day 14: Medicine 10 adds 0 to Toughness",
                "day 14: Recovery roll with 8 fails: no healing",
            ],
        );
    }

    #[test]
    fn improvised_tools_lower_the_medicine_value_rolled_against() {
        // L24: "Bonus for better equipment, penalties for improvised tools."
        // Medicine 10 with equipment -3: rolled against 7. 9 and 8 both fail: nothing added,
        // the Recovery roll is with 8: 9, 20 fail.
        let poor = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default())
            .with_healing(ledger_healing(7, 7, 10, -3, 1));
        let (r, story) = ledger_recover(&poor, Side::A, &[10], &[9, 8, 9, 20]);
        assert_eq!(r.days_to_whole, None);
        crate::log::assert_in_order(
            &story,
            &[
                "day 7: Medicine 7 adds 0 to Toughness",
                "day 7: Recovery roll with 8 fails: no healing",
            ],
        );
        // The same dice with decent instruments (equipment 0): 9 succeeds, Recovery with 17: 9.
        let decent = poor.clone().with_healing(ledger_healing(7, 7, 10, 0, 1));
        let (_, story) = ledger_recover(&decent, Side::A, &[10], &[9, 8, 9, 20]);
        assert!(
            story.contains("Recovery roll with 17: 9 success; Wound 10 lowered to 1"),
            "{story}"
        );
    }

    #[test]
    fn the_recovery_rate_sets_the_days_between_rolls() {
        // L18: "Every group needs to agree on the recovery rate. While it can be argued that one
        // roll every month is quite realistic, this is often shortened to once a week or even
        // after each good night's sleep." (healing.interval_days)
        let base = point(fighter(0, 0, 8, 0), fighter(0, 0, 8, 0), Rules::default());
        // Wound 3; 3, 20 -> 3: whole after the first roll, on the day of the first roll.
        let nightly = base.clone().with_healing(ledger_healing(1, 1, 0, 0, 1));
        assert_eq!(
            ledger_recover(&nightly, Side::A, &[3], &[3, 20])
                .0
                .days_to_whole,
            Some(1)
        );
        let monthly = base.with_healing(ledger_healing(30, 30, 0, 0, 1));
        assert_eq!(
            ledger_recover(&monthly, Side::A, &[3], &[3, 20])
                .0
                .days_to_whole,
            Some(30)
        );
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

    #[test]
    fn first_strike_a_b_or_a_d2_picks_who_strikes_first_and_the_order_holds_every_round() {
        // Design (assumptions, rules.first_strike = "random"): a d2 per duel (1: a, 2: b), "that
        // order holds every round"; "a" or "b" fixes it and rolls no d2.
        let with = |first| {
            ledger_point(
                fighter(12, 6, 8, 2),
                fighter(12, 6, 8, 2),
                ledger_first(first),
                ledger_no_recovery(),
                50,
            )
        };
        // 20 (missed: 10) and 9 (hits): Damage 12 takes the defender out at once.
        let (tally, _) = ledger_trial(&with(FirstStrike::A), &[20, 9]);
        assert_eq!(tally.ends, [1, 0, 0]);
        let (tally, _) = ledger_trial(&with(FirstStrike::B), &[20, 9]);
        assert_eq!(tally.ends, [0, 1, 0]);
        let (tally, story) = ledger_trial(&with(FirstStrike::Random), &[1, 20, 9]);
        assert_eq!(tally.ends, [1, 0, 0]);
        assert!(story.contains("a strikes first"), "{story}");
        // d2 = 2: b first; round 1 both miss; round 2 b strikes first again and wins.
        let (tally, story) = ledger_trial(&with(FirstStrike::Random), &[2, 1, 1, 1, 1, 20, 9]);
        assert_eq!(tally.ends, [0, 1, 0]);
        assert_eq!(tally.rounds.bins()[2], 1);
        crate::log::assert_in_order(
            &story,
            &[
                "b strikes first",
                "round 1",
                "b attacks a",
                "a attacks b",
                "round 2",
                "b attacks a",
                "a is incapacitated (Wound 12 above Toughness 8): b wins",
            ],
        );
    }

    #[test]
    fn hit_on_defense_true_lets_a_die_equal_to_defense_hit() {
        // Design (assumptions, rules.hit_on_defense = false): "The black die missed, by being lower
        // than the target's Defense." With the option on, a die equal to Defense hits.
        let strict = point(fighter(12, 0, 8, 2), fighter(0, 6, 30, 0), Rules::default());
        // Black 6 equals Defense 6: misses by default; white 13 is above the Attack.
        assert_eq!(strike_with(&strict, &[6, 13]).0, None);
        let equal = point(
            fighter(12, 0, 8, 2),
            fighter(0, 6, 30, 0),
            Rules {
                hit_on_defense: true,
                ..Rules::default()
            },
        );
        // Black 6 hits, white 13 missed: 2 + 3 = 5.
        assert_eq!(strike_with(&equal, &[6, 13]).0, Some(5));
        // Both hit (6 and 9): difference 3: 2 + 6 = 8.
        assert_eq!(strike_with(&equal, &[6, 9]).0, Some(8));
        // A die below Defense still misses.
        assert_eq!(strike_with(&equal, &[5, 13]).0, None);
    }
}
