//! Exact tables: the distribution of one exchange (an attack and its defence, through armour to
//! its consequence) computed by walking every die outcome through the very rules code the duel
//! runs, with [`EnumeratingDice`] in place of the random source.
//!
//! Each ruleset that has its exchange written as one entry point implements [`Exchange`] (its
//! duel calls the same function); [`walk`] walks it and adds the exact probabilities as
//! fractions, so the totals are exactly 1. The walk covers the tree of die outcomes, with a
//! pool of dice whose faces are only counted ([`Dice::count_faces`]) walked as its distinct
//! counts (merged states) rather than every ordered roll; a tree larger than [`MAX_OUTCOMES`]
//! is refused rather than run for hours.

use crate::dice::{Dice, EnumeratingDice};
use crate::stats::Side;
use std::collections::BTreeMap;

/// The most die outcomes one exchange's walk visits.
pub const MAX_OUTCOMES: u64 = 20_000_000;

/// What one exchange did, in the ruleset's words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The hit kind: one of the ruleset's [`Exchange::RESULTS`].
    pub result: &'static str,
    /// What the hit left, in the ruleset's [`Exchange::UNIT`] (0 on a miss).
    pub value: u32,
    /// What kind of mark it left ("Stun", "Injury"), or "" where the ruleset has no kinds.
    pub kind: &'static str,
}

/// One exchange of a ruleset, from fighters unhurt at its start.
pub trait Exchange {
    /// What [`Outcome::value`] counts ("damage", "wound row").
    const UNIT: &'static str;
    /// The results, those that are not hits first (a miss, a block, no attack), then the hit
    /// kinds up to the best (last).
    const RESULTS: &'static [&'static str];
    /// How many of the first [`Exchange::RESULTS`] are not hits.
    const MISSES: usize = 1;
    /// Rolls one exchange of `attacker` on the other fighter.
    fn exchange<D: Dice>(&self, attacker: Side, dice: &mut D) -> Outcome;
}

/// An exact probability: a reduced fraction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fraction {
    /// The numerator.
    pub numerator: u128,
    /// The denominator (at least 1).
    pub denominator: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl Fraction {
    /// Nothing.
    pub const ZERO: Fraction = Fraction {
        numerator: 0,
        denominator: 1,
    };

    /// `numerator / denominator`, reduced.
    pub fn new(numerator: u128, denominator: u128) -> Fraction {
        let g = gcd(numerator, denominator).max(1);
        Fraction {
            numerator: numerator / g,
            denominator: denominator / g,
        }
    }

    /// The sum, or `None` past 128 bits.
    pub fn checked_add(self, other: Fraction) -> Option<Fraction> {
        let g = gcd(self.denominator, other.denominator).max(1);
        let lcm = (self.denominator / g).checked_mul(other.denominator)?;
        let a = self.numerator.checked_mul(lcm / self.denominator)?;
        let b = other.numerator.checked_mul(lcm / other.denominator)?;
        Some(Fraction::new(a.checked_add(b)?, lcm))
    }

    /// As a floating-point probability.
    pub fn value(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }
}

/// The exact distribution of one exchange in one direction.
#[derive(Clone, Debug)]
pub struct Table {
    /// What the values count.
    pub unit: &'static str,
    /// Each result with its probability: the non-hits first, the best hit kind last.
    pub results: Vec<(&'static str, Fraction)>,
    /// How many of the first results are not hits.
    pub misses: usize,
    /// Each value with its probability (0 includes the misses).
    pub values: Vec<(u32, Fraction)>,
    /// Each mark kind with its probability, where the ruleset has kinds.
    pub kinds: Vec<(&'static str, Fraction)>,
    /// Die outcomes walked.
    pub outcomes: u64,
}

impl Table {
    /// The chance of any hit (a result past the misses).
    pub fn hit(&self) -> f64 {
        self.results
            .iter()
            .skip(self.misses)
            .map(|r| r.1.value())
            .sum()
    }

    /// The chance of any hit as an exact fraction; `None` past 128 bits.
    pub fn hit_fraction(&self) -> Option<Fraction> {
        self.results
            .iter()
            .skip(self.misses)
            .try_fold(Fraction::ZERO, |sum, r| sum.checked_add(r.1))
    }

    /// The chance of the best hit kind.
    pub fn best(&self) -> f64 {
        self.results.last().map_or(0.0, |r| r.1.value())
    }

    /// The mean value.
    pub fn mean(&self) -> f64 {
        self.values
            .iter()
            .map(|(v, p)| f64::from(*v) * p.value())
            .sum()
    }

    /// The name of the best hit kind.
    pub fn best_name(&self) -> &'static str {
        self.results.last().map_or("", |r| r.0)
    }
}

/// An exchange walked in two stages: the dice that decide what happens (an opposed test and
/// the advantages it wins) merged into their distinct setups, then each setup's own dice. The
/// exact chance of an outcome is the sum over setups of P(setup) x P(outcome | setup), which
/// holds because the second stage's dice depend on the first only through the setup.
pub trait StagedExchange: Exchange {
    /// What the first stage leads to.
    type Setup: Ord + Copy;
    /// Rolls the first stage of `attacker`'s exchange.
    fn setup<D: Dice>(&self, attacker: Side, dice: &mut D) -> Self::Setup;
    /// Rolls the rest of the exchange from `setup`.
    fn resolve<D: Dice>(&self, attacker: Side, setup: Self::Setup, dice: &mut D) -> Outcome;
}

/// A walk of every leaf of one exchange, each passed with its chance as `numerator /
/// denominator` to a visitor that returns false to stop; the walk returns false when a chance
/// outgrows 128 bits.
type Leaves<'a> = dyn FnMut(Outcome, u128, u128) -> bool + 'a;

pub fn walk<M: Exchange>(model: &M, attacker: Side) -> Result<Table, String> {
    tabulate::<M>(|visit| {
        EnumeratingDice::for_each_exact(|dice| model.exchange(attacker, dice), visit)
    })
}

pub fn walk_staged<M: StagedExchange>(model: &M, attacker: Side) -> Result<Table, String> {
    let mut setups: BTreeMap<M::Setup, Fraction> = BTreeMap::new();
    let mut first_stage = 0u64;
    let mut sums = true;
    let fits = EnumeratingDice::for_each_exact(
        |dice| model.setup(attacker, dice),
        |setup, numerator, denominator| {
            first_stage += 1;
            let sum = setups.entry(setup).or_insert(Fraction::ZERO);
            match sum.checked_add(Fraction::new(numerator, denominator)) {
                Some(p) => *sum = p,
                None => sums = false,
            }
            sums && first_stage <= MAX_OUTCOMES
        },
    );
    if first_stage > MAX_OUTCOMES {
        return Err(too_many());
    }
    if !fits || !sums {
        return Err(TOO_MANY_DICE.to_owned());
    }
    let mut table = tabulate::<M>(|visit| {
        for (&setup, p) in &setups {
            let mut going = true;
            let fits = EnumeratingDice::for_each_exact(
                |dice| model.resolve(attacker, setup, dice),
                |outcome, numerator, denominator| {
                    going = match (
                        numerator.checked_mul(p.numerator),
                        denominator.checked_mul(p.denominator),
                    ) {
                        (Some(n), Some(d)) => visit(outcome, n, d),
                        _ => false,
                    };
                    going
                },
            );
            if !fits || !going {
                return fits && going;
            }
        }
        true
    })?;
    table.outcomes += first_stage;
    Ok(table)
}

fn too_many() -> String {
    format!(
        "the exchange has more than {MAX_OUTCOMES} die outcomes; expected a smaller one (fewer dice) for an exact table"
    )
}

const TOO_MANY_DICE: &str = "an outcome rolls too many dice for exact fractions (its probability's denominator outgrows 128 bits)";

/// Adds up the leaves `leaves` walks into the table of `M`'s outcomes.
fn tabulate<M: Exchange>(leaves: impl FnOnce(&mut Leaves) -> bool) -> Result<Table, String> {
    // Leaves are counted by outcome and by the denominator of their chance (1 over the product
    // of their dice's sides): integer counts in the walk, fractions only at the end.
    let mut counts: BTreeMap<(usize, u32, &'static str, u128), u128> = BTreeMap::new();
    let mut outcomes = 0u64;
    let mut overflow = false;
    let fits = leaves(
        &mut |outcome: Outcome, numerator: u128, denominator: u128| {
            outcomes += 1;
            let i = M::RESULTS
                .iter()
                .position(|r| *r == outcome.result)
                .unwrap_or(0);
            let sum = counts
                .entry((i, outcome.value, outcome.kind, denominator))
                .or_default();
            match sum.checked_add(numerator) {
                Some(n) => *sum = n,
                None => overflow = true,
            }
            outcomes <= MAX_OUTCOMES && !overflow
        },
    );
    if outcomes > MAX_OUTCOMES {
        return Err(too_many());
    }
    if !fits || overflow {
        return Err(TOO_MANY_DICE.to_owned());
    }
    let too_big = || "the exact fractions outgrow 128 bits; expected fewer dice".to_owned();
    let mut results = vec![Fraction::ZERO; M::RESULTS.len()];
    let mut values: BTreeMap<u32, Fraction> = BTreeMap::new();
    let mut kinds: BTreeMap<&'static str, Fraction> = BTreeMap::new();
    for (&(i, value, kind, denominator), &count) in &counts {
        let p = Fraction::new(count, denominator);
        let add = |to: &mut Fraction| -> Result<(), String> {
            *to = to.checked_add(p).ok_or_else(too_big)?;
            Ok(())
        };
        add(&mut results[i])?;
        add(values.entry(value).or_insert(Fraction::ZERO))?;
        if !kind.is_empty() {
            add(kinds.entry(kind).or_insert(Fraction::ZERO))?;
        }
    }
    Ok(Table {
        unit: M::UNIT,
        results: M::RESULTS.iter().copied().zip(results).collect(),
        misses: M::MISSES,
        values: values.into_iter().collect(),
        kinds: kinds.into_iter().collect(),
        outcomes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::FastDice;
    use crate::rules::registry::{Model, exact_table as table};
    use std::path::Path;

    fn model(text: &str) -> Model {
        let scenario = crate::rules::registry::parse(Path::new("scenarios/zone-d100/t.toml"), text)
            .unwrap_or_else(|e| panic!("{e}"));
        scenario.points[0].model.clone()
    }

    const TWIN: &str = r#"
name = "t"
ruleset = "twin-d20"
[a]
attack = 12
defense = 6
toughness = 9
weapon = "w"
[b]
attack = 15
defense = 6
toughness = 9
weapon = "w"
[weapons.w]
damage = 2
"#;

    fn sums_to_one(t: &Table) {
        let one = Fraction::new(1, 1);
        let total = |parts: Vec<Fraction>| {
            parts
                .into_iter()
                .try_fold(Fraction::ZERO, |s, p| s.checked_add(p))
        };
        assert_eq!(total(t.results.iter().map(|r| r.1).collect()), Some(one));
        assert_eq!(total(t.values.iter().map(|r| r.1).collect()), Some(one));
    }

    fn p_value(t: &Table, value: u32) -> Fraction {
        t.values
            .iter()
            .find(|(v, _)| *v == value)
            .map_or(Fraction::ZERO, |(_, p)| *p)
    }

    #[test]
    fn the_texts_examples_are_outcomes_with_their_exact_chances() {
        // "The Attack is 12 against Defense 6, Damage 2. The black die comes up 3 and the
        // white one 11 ... for a total of 5." Damage 5 needs one die hitting (7-12: six faces)
        // and the other missing with last digit 3 (3 or 13): 2 x 6 x 2 = 24 of 400.
        let t = table(&model(TWIN), Side::A).unwrap_or_else(|e| panic!("{e}"));
        sums_to_one(&t);
        assert_eq!(p_value(&t, 5), Fraction::new(3, 50));
        assert_eq!(t.outcomes, 400);
        // "Attack 15 vs Defense 5, Damage 3 ... 10 Black, 6 White ... The Damage is 11."
        // 11 = 3 + 2 x 4: both hit (6-15) four apart, 12 ordered pairs; or one hits and the
        // other misses with last digit 8 (only 18 misses: 8 hits): 2 x 10 = 20. 32 of 400.
        let text = TWIN
            .replace("attack = 12\ndefense = 6", "attack = 15\ndefense = 6")
            .replace(
                "[b]\nattack = 15\ndefense = 6",
                "[b]\nattack = 15\ndefense = 5",
            )
            .replace("damage = 2", "damage = 3");
        let t = table(&model(&text), Side::A).unwrap_or_else(|e| panic!("{e}"));
        sums_to_one(&t);
        assert_eq!(p_value(&t, 11), Fraction::new(2, 25));
    }

    /// Rolls `n` exchanges with random dice and checks every outcome with an expected count of
    /// 20 or more against the exact table within 4.5 standard errors.
    fn agrees_with_monte_carlo(model: &Model, n: u64) {
        for side in [Side::A, Side::B] {
            let t = table(model, side).unwrap_or_else(|e| panic!("{e}"));
            sums_to_one(&t);
            let mut results: BTreeMap<&str, u64> = BTreeMap::new();
            let mut values: BTreeMap<u32, u64> = BTreeMap::new();
            for i in 0..n {
                // Each exchange its own trial's dice, as a run rolls them.
                let mut dice = FastDice::seed_from_u64(crate::engine::trial_seed(2026, i));
                let o = match model {
                    Model::TwinD20(m) => m.exchange(side, &mut dice),
                    Model::GuardPierce(m) => m.exchange(side, &mut dice),
                    Model::WoundLevels(m) => m.exchange(side, &mut dice),
                    Model::D6Pool(m) => m.exchange(side, &mut dice),
                    Model::ZoneD100(m) => m.exchange(side, &mut dice),
                    _ => panic!("no exchange"),
                };
                *results.entry(o.result).or_default() += 1;
                *values.entry(o.value).or_default() += 1;
            }
            let check = |what: String, p: f64, count: u64| {
                let expected = p * n as f64;
                if expected < 20.0 {
                    return;
                }
                let se = (n as f64 * p * (1.0 - p)).sqrt();
                assert!(
                    (count as f64 - expected).abs() <= 4.5 * se,
                    "{what}: {count} of {n} against {expected:.1} exactly"
                );
            };
            for (r, p) in &t.results {
                check(
                    format!("{side:?} {r}"),
                    p.value(),
                    results.get(r).copied().unwrap_or(0),
                );
            }
            for (v, p) in &t.values {
                check(
                    format!("{side:?} {} {v}", t.unit),
                    p.value(),
                    values.get(v).copied().unwrap_or(0),
                );
            }
        }
    }

    #[test]
    fn twin_d20_exact_tables_agree_with_rolled_exchanges() {
        let text = include_str!("../scenarios/twin-d20/knight-vs-brigand.toml");
        agrees_with_monte_carlo(&model(text), 200_000);
    }

    #[test]
    fn guard_pierce_exact_tables_agree_with_rolled_exchanges() {
        let text = include_str!("../scenarios/guard-pierce/cudgel-vs-sword.toml");
        let m = model(text);
        let t = table(&m, Side::A).unwrap_or_else(|e| panic!("{e}"));
        assert!(t.kinds.iter().any(|k| k.0 == "Injury" || k.0 == "Stun"));
        agrees_with_monte_carlo(&m, 200_000);
    }

    #[test]
    fn wound_levels_exact_tables_agree_with_rolled_exchanges() {
        for text in [
            include_str!("../scenarios/wound-levels/bruiser-vs-fencer.toml"),
            include_str!("../scenarios/wound-levels/knife-vs-pistol.toml"),
        ] {
            agrees_with_monte_carlo(&model(text), 200_000);
        }
    }

    #[test]
    fn d6_pool_exact_tables_agree_with_rolled_exchanges() {
        for text in [
            include_str!("../scenarios/d6-pool/berserker-vs-shieldwall.toml"),
            include_str!("../scenarios/d6-pool/javelineer-vs-brawler.toml"),
        ] {
            agrees_with_monte_carlo(&model(text), 200_000);
        }
        // A blocked attack is not a hit.
        let text = include_str!("../scenarios/d6-pool/berserker-vs-shieldwall.toml");
        let t = table(&model(text), Side::A).unwrap_or_else(|e| panic!("{e}"));
        let p = |r: &str| {
            t.results
                .iter()
                .find(|x| x.0 == r)
                .map_or(0.0, |x| x.1.value())
        };
        assert!(p("blocked") > 0.0);
        assert!((t.hit() - p("hit") - p("Critical Strike")).abs() < 1e-12);
    }

    #[test]
    fn a_pool_walked_by_its_face_counts_has_the_chances_of_every_ordered_roll() {
        // Four d6, counting 4s, 5s and 6s: the merged walk against the raw one, exactly.
        let merged = |dice: &mut EnumeratingDice| dice.count_faces::<3>(4, 6, "d6");
        let raw = |dice: &mut EnumeratingDice| {
            let mut counts = [0u32; 3];
            for _ in 0..4 {
                let face = dice.d(6, "d6");
                if face >= 4 {
                    counts[face as usize - 4] += 1;
                }
            }
            counts
        };
        let mut tables: [BTreeMap<[u32; 3], Fraction>; 2] = Default::default();
        let mut walked = [0; 2];
        for (k, table) in tables.iter_mut().enumerate() {
            let mut add = |counts: [u32; 3], n: u128, d: u128| {
                walked[k] += 1;
                let sum = table.entry(counts).or_insert(Fraction::ZERO);
                *sum = sum
                    .checked_add(Fraction::new(n, d))
                    .unwrap_or(Fraction::ZERO);
                true
            };
            if k == 0 {
                EnumeratingDice::for_each_exact(merged, &mut add);
            } else {
                EnumeratingDice::for_each_exact(raw, &mut add);
            }
        }
        assert_eq!(tables[0], tables[1]);
        assert_eq!(walked, [35, 1296]);
    }

    const ZONE_BLOCK_VS_COUNTER: &str =
        include_str!("../scenarios/zone-d100/broadsword-vs-spear.toml");
    const ZONE_DODGE: &str =
        include_str!("../scenarios/zone-d100/archer-vs-charging-spearman.toml");

    #[test]
    fn zone_d100_exact_tables_agree_with_rolled_exchanges() {
        // Block against Counterstrike, Dodge (the tie break compares rolls) against
        // Counterstrike, and Ignore against a precision-first attacker (up to four Zone Dice).
        let ignore = ZONE_BLOCK_VS_COUNTER
            .replace("defence = \"block\"", "defence = \"ignore\"")
            .replace("defence = \"counterstrike\"", "defence = \"ignore\"");
        for text in [ZONE_BLOCK_VS_COUNTER, ZONE_DODGE, &ignore] {
            let m = model(text);
            agrees_with_monte_carlo(&m, 200_000);
        }
        let t = table(&model(&ignore), Side::B).unwrap_or_else(|e| panic!("{e}"));
        // More than one Zone Die was walked: a precision TA against Ignore.
        assert!(
            t.results
                .iter()
                .any(|r| r.0 == "Grievous" && r.1 != Fraction::ZERO)
        );
    }

    #[test]
    fn zone_d100_against_ignore_only_a_critical_failure_fails_to_strike() {
        // "Against Ignore ... S earns three stars; a CF still earns none": the chance of no
        // strike is the chance of a CF, a roll above the EML ending in 0 or 5.
        for ml in [40, 52, 65, 71, 100] {
            let text = ZONE_BLOCK_VS_COUNTER
                .replace("defence = \"block\"", "defence = \"ignore\"")
                .replace("melee_ml = 65", &format!("melee_ml = {ml}"));
            let m = model(&text);
            let Model::ZoneD100(z) = &m else {
                panic!("not zone-d100")
            };
            // The EML the attacker rolls against, as the duel computes it.
            let mut states = [crate::rules::zone_d100::melee::State::default(); 2];
            let eml = z
                .melee
                .contest(
                    Side::B,
                    &mut states,
                    z.start_in_close,
                    &mut crate::dice::ScriptedDice::new([50]),
                    &mut crate::log::NoLog,
                )
                .attacker
                .eml;
            let t = table(&m, Side::B).unwrap_or_else(|e| panic!("{e}"));
            sums_to_one(&t);
            let expected = (1..=100u32)
                .filter(|r| *r as i32 > eml && r % 5 == 0)
                .count() as u128;
            let no_strike = t.results.iter().find(|r| r.0 == "no strike").map(|r| r.1);
            assert_eq!(no_strike, Some(Fraction::new(expected, 100)), "EML {eml}");
        }
    }

    #[test]
    fn zone_d100_the_staged_walk_equals_the_walk_of_every_die_in_one_go() {
        // The staged walk sums P(setup) x P(outcome | setup); walking the whole exchange as one
        // tree of dice must give the same fractions.
        let m = model(ZONE_DODGE);
        let Model::ZoneD100(z) = &m else {
            panic!("not zone-d100")
        };
        for side in [Side::A, Side::B] {
            let staged = walk_staged(z.as_ref(), side).unwrap_or_else(|e| panic!("{e}"));
            let whole = walk(z.as_ref(), side).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(staged.results, whole.results);
            assert_eq!(staged.values, whole.values);
            assert_eq!(staged.kinds, whole.kinds);
            assert!(staged.outcomes < whole.outcomes);
        }
    }

    #[test]
    fn a_recovery_scenario_has_no_exchange() {
        let text = include_str!("../scenarios/zone-d100/recovery-g4-shoulder-healers.toml");
        let e = table(&model(text), Side::A).err().unwrap_or_default();
        assert!(e.contains("no exchange"), "{e}");
    }
}
