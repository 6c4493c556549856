//! Criterion benches of the hot path: the cost of one die (`dice/d20`) and of one whole trial
//! of each ruleset in the registry (`duel/<ruleset>`: duel, aftermath and healing timeline, on
//! the ruleset's example duel; `recovery/<ruleset>` on its example recovery). Before benching a
//! ruleset it prints the mean dice rolled per trial, measured with `CountingDice` over the
//! same scenario, so the floor (rolls per trial x cost of one roll) can be computed from one run.
//! `BENCH_SCENARIO=path.toml cargo bench --bench duel` benches another twin-d20 scenario.
//! `exact/grid-<rows>x<columns>-<ruleset>` times the rulebook grid of `duelsim exact` for each
//! ruleset's example grid, `exact/tables-zone-d100` both exact tables of one zone-d100 duel.
//!
//! After the benches it prints the floor table from this run's medians (criterion's
//! `estimates.json`): each trial bench's median, dice per trial, the floor (dice per trial x
//! the median of `dice/d20`, the lesser of its timings at the start and at the end of the run,
//! `dice/d20-again`) and the ratio of the two; then what one mispredicted branch on a
//! die result costs (`dice/d20-coin-branch` against `dice/d20-sure-branch`), which the floor
//! leaves out. `dice/d20-xoshiro` times the die of the fast source before keyed streams
//! (xoshiro256++, the die issue 38's targets were set against), and the floor table gives each
//! bench's ratio to it beside its ratio to `dice/d20`, both from this run.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group};
use duelsim::dice::{CountingDice, Dice, FastDice};
use duelsim::engine::trial_seed;
use duelsim::log::NoLog;
use duelsim::rules::Ruleset;
use duelsim::rules::registry;
use duelsim::stats::Tally;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use std::hint::black_box;
use std::path::Path;

fn bench_dice(c: &mut Criterion) {
    let mut group = c.benchmark_group("dice");
    bench_floor_dice(&mut group, "");
    let mut dice = FastDice::seed_from_u64(1);
    // What a branch on a die result costs when the predictor cannot know it: the same d20 and
    // the same two equally cheap paths, chosen on a coin toss (11 or more) or on a sure thing
    // (1 or more). Half the coin tosses are mispredicted, so one misprediction costs twice the
    // difference of the two medians; the floor table's note prints it.
    for (name, lowest_heads) in [("d20-coin-branch", 11), ("d20-sure-branch", 1)] {
        let mut path = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                let roll = dice.d(black_box(20), "bench");
                path = if roll >= black_box(lowest_heads) {
                    path.wrapping_mul(3).wrapping_add(u64::from(roll))
                } else {
                    path.wrapping_mul(5) ^ u64::from(roll)
                };
                path
            })
        });
    }
    group.finish();
}

/// `dice/d20` and `dice/d20-xoshiro`, each name ending in `suffix`.
fn bench_floor_dice(group: &mut BenchmarkGroup<'_, WallTime>, suffix: &str) {
    let mut dice = FastDice::seed_from_u64(1);
    group.bench_function(format!("d20{suffix}"), |b| {
        b.iter(|| dice.d(black_box(20), "bench"))
    });
    // The fast source's d20 before keyed streams (029b918): xoshiro256++'s next 32 bits reduced
    // with Lemire's method, as `FastDice::d` reduces them now.
    let mut xoshiro = Xoshiro256PlusPlus::seed_from_u64(1);
    group.bench_function(format!("d20-xoshiro{suffix}"), |b| {
        b.iter(|| xoshiro_die(&mut xoshiro, black_box(20)))
    });
}

/// The floor's dice timed again at the end of the run (`dice/d20-again`,
/// `dice/d20-xoshiro-again`): a die's loop is short, and a spell of noise on this machine while
/// it runs moved `dice/d20` from 1.05 to 1.43 ns between runs whose trials did not move, and
/// every ratio with it. The floor takes the lesser median of each die's two timings: noise only
/// adds time.
fn bench_dice_again(c: &mut Criterion) {
    let mut group = c.benchmark_group("dice");
    bench_floor_dice(&mut group, "-again");
    group.finish();
}

/// One die of `sides` from xoshiro256++, as the fast source rolled it before keyed streams.
#[inline]
fn xoshiro_die(rng: &mut Xoshiro256PlusPlus, sides: u32) -> u32 {
    let mut m = u64::from(rng.next_u32()) * u64::from(sides);
    if (m as u32) < sides {
        let threshold = sides.wrapping_neg() % sides;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(sides);
        }
    }
    (m >> 32) as u32 + 1
}

fn rolls_per_trial<R: Ruleset>(model: &R) -> (f64, f64) {
    let n = 200_000;
    let mut dice = CountingDice {
        inner: FastDice::seed_from_u64(99),
        rolls: 0,
    };
    let mut tally = Tally::new(model.shape());
    for trial in 0..n {
        dice.inner = FastDice::seed_from_u64(trial_seed(99, trial));
        model.trial(&mut dice, &mut NoLog, &mut tally);
    }
    // Fighter-rounds: every fighter of both sides, every round the fight lasted.
    let shape = model.shape();
    let fighters = f64::from(shape.sides[0] + shape.sides[1]);
    let rounds = tally.rounds.mean().unwrap_or(0.0);
    (dice.rolls as f64 / n as f64, fighters * rounds)
}

fn bench_trial<R: Ruleset>(c: &mut Criterion, name: &str, model: &R) {
    bench_group(c, "duel", name, model);
}

/// Dice per trial of each trial bench (`group/name`), for the floor table.
static DICE_PER_TRIAL: std::sync::Mutex<Vec<(String, f64)>> = std::sync::Mutex::new(Vec::new());

/// Fighter-rounds per trial of each trial bench (`group/name`): the fighters times the mean
/// rounds, for the cost of a skirmish per fighter-round against its duel's.
static FIGHTER_ROUNDS: std::sync::Mutex<Vec<(String, f64)>> = std::sync::Mutex::new(Vec::new());

fn bench_group<R: Ruleset>(c: &mut Criterion, group_name: &str, name: &str, model: &R) {
    let (rolls, fighter_rounds) = rolls_per_trial(model);
    eprintln!(
        "{group_name}/{name}: {rolls:.2} dice rolled, {fighter_rounds:.2} fighter-rounds per trial (CountingDice, 200000 trials)"
    );
    if let Ok(mut list) = DICE_PER_TRIAL.lock() {
        list.push((format!("{group_name}/{name}"), rolls));
    }
    if let Ok(mut list) = FIGHTER_ROUNDS.lock() {
        list.push((format!("{group_name}/{name}"), fighter_rounds));
    }
    let mut group = c.benchmark_group(group_name);
    let mut tally = Tally::new(model.shape());
    // Each trial its own dice, as a run rolls them (`engine::run_chunk_into`).
    let mut trial = 0u64;
    group.bench_function(name, |b| {
        b.iter(|| {
            trial += 1;
            let mut dice = FastDice::seed_from_u64(trial_seed(2, trial));
            model.trial(&mut dice, &mut NoLog, black_box(&mut tally))
        })
    });
    group.finish();
}

/// Each ruleset of the registry, benched with its example duel (`BENCH_SCENARIO` replaces the
/// twin-d20 one) and, where it has one, its example recovery.
fn bench_rulesets(c: &mut Criterion) {
    for entry in registry::RULESETS {
        let name = entry.id;
        let path = match std::env::var("BENCH_SCENARIO") {
            Ok(p) if name == "twin-d20" => std::path::PathBuf::from(p),
            _ => Path::new(env!("CARGO_MANIFEST_DIR")).join(entry.examples.duel),
        };
        let scenario = match registry::load(&path) {
            Ok(s) => s,
            Err(e) => panic!("the bench scenario must load: {e}"),
        };
        duelsim::with_model!(&scenario.points[0].model, m => bench_trial(c, name, m));
        // One healing timeline (zone-d100's: the G4E shoulder bleeder with an ML80 surgeon).
        if let Some(file) = entry.examples.recovery {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
            let scenario = match registry::load(&path) {
                Ok(s) => s,
                Err(e) => panic!("the bench scenario must load: {e}"),
            };
            if let Some(point) = scenario.points.last() {
                duelsim::with_model!(&point.model, m => bench_group(c, "recovery", name, m));
            }
        }
    }
}

/// A skirmish of three against three (`skirmish/<ruleset>`): the ruleset's example duel with
/// `count = 3` on both sides.
fn bench_skirmishes(c: &mut Criterion) {
    for entry in registry::RULESETS {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(entry.examples.duel);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => panic!("the bench scenario must read: {e}"),
        };
        let three = duelsim::scenario::every_side_of(&text, 3);
        let scenario = match registry::parse(&path, &three) {
            Ok(s) => s,
            Err(e) => panic!("every ruleset fights three against three: {e}"),
        };
        duelsim::with_model!(&scenario.points[0].model, m => bench_group(c, "skirmish", entry.id, m));
    }
}

/// A campaign (`campaign/<ruleset>`, the ruleset's shipped one) and each of its encounters
/// alone (`campaign/<ruleset>-encounter-<k>`, a fresh fight with its healing): a campaign costs
/// what its fights and healing cost, encounter by encounter, as far as it gets.
fn bench_campaigns(c: &mut Criterion) {
    for entry in registry::RULESETS {
        let Some(file) = entry.examples.campaign else {
            continue;
        };
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let scenario = match registry::load(&path) {
            Ok(s) => s,
            Err(e) => panic!("the bench campaign must load: {e}"),
        };
        let model = &scenario.points[0].model;
        duelsim::with_model!(model, m => bench_group(c, "campaign", entry.id, m));
        let mut k = 0;
        while let Some(fight) = model.encounter(k) {
            let name = format!("{}-encounter-{}", entry.id, k + 1);
            duelsim::with_model!(&fight, m => bench_group(c, "campaign", &name, m));
            k += 1;
        }
    }
}

/// One chunk of 8192 trials of twin-d20 as `run` runs them (`engine::run_chunk_into`: each trial
/// starts its own dice from the chunk's seed), to see what the engine adds to the trials.
fn bench_chunk(c: &mut Criterion) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/twin-d20/knight-vs-brigand.toml");
    let scenario = match registry::load(&path) {
        Ok(s) => s,
        Err(e) => panic!("the bench scenario must load: {e}"),
    };
    let mut group = c.benchmark_group("chunk");
    duelsim::with_model!(&scenario.points[0].model, m => {
        let mut tally = Tally::new(m.shape());
        let mut seed = 0u64;
        group.bench_function("twin-d20", |b| {
            b.iter(|| {
                seed += 1;
                duelsim::engine::run_chunk_into(m, black_box(seed), 8192, &mut tally);
            })
        });
    });
    group.finish();
}

/// `exact/grid-<rows>x<columns>-<ruleset>`: the rulebook grid of `duelsim exact` (each cell a
/// compiled model and an exact walk of one exchange), for each ruleset's example grid.
fn bench_exact_grid(c: &mut Criterion) {
    let mut group = c.benchmark_group("exact");
    group.sample_size(10);
    for entry in registry::RULESETS {
        let Some(file) = entry.examples.grid else {
            continue;
        };
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => panic!("the bench scenario {file} must read: {e}"),
        };
        let source = duelsim::scenario::error::Source {
            path: &path,
            text: &text,
        };
        let grid = match duelsim::scenario::grid::read::<registry::Registry>(&source, 0) {
            Ok(Some(g)) => g,
            other => panic!("{file} must have an [exact] grid: {other:?}"),
        };
        let shape: Vec<String> = grid.axes.iter().map(|(_, v)| v.len().to_string()).collect();
        let name = format!("grid-{}-{}", shape.join("x"), entry.id);
        group.bench_function(&name, |b| {
            b.iter(
                || match duelsim::rules::registry::grid_tables(black_box(&grid)) {
                    Ok(tables) => tables.len(),
                    Err(e) => panic!("{e}"),
                },
            )
        });
    }
    // One table each way of zone-d100's exchange for two fighters (the acceptance's "under a
    // minute"): the opposed tests, the TAs and the strike through the armour.
    let file = "scenarios/zone-d100/broadsword-vs-spear.toml";
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let model = match std::fs::read_to_string(&path)
        .map_err(|e| e.to_string())
        .and_then(|text| registry::parse(&path, &text).map_err(|e| e.to_string()))
    {
        Ok(s) => s.points[0].model.clone(),
        Err(e) => panic!("the bench scenario {file} must compile: {e}"),
    };
    group.bench_function("tables-zone-d100", |b| {
        b.iter(|| {
            for side in duelsim::stats::Side::BOTH {
                if let Err(e) = registry::exact_table(black_box(&model), side) {
                    panic!("{e}");
                }
            }
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    // No criterion plots: plotters is built with duelsim's bundled-font feature, and the
    // figures this bench is read for are the printed medians.
    config = Criterion::default().without_plots();
    targets = bench_dice, bench_rulesets, bench_skirmishes, bench_campaigns, bench_chunk,
        bench_exact_grid, bench_dice_again
}

/// The median (ns) criterion saved for `group/name`, if this run measured it (written after
/// `since`).
fn median_ns(id: &str, since: std::time::SystemTime) -> Option<f64> {
    let home = std::env::var("CRITERION_HOME")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| {
            std::env::var("CARGO_TARGET_DIR")
                .map(std::path::PathBuf::from)
                .unwrap_or_else(|_| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
                .join("criterion")
        });
    let file = home.join(id).join("new/estimates.json");
    if std::fs::metadata(&file).ok()?.modified().ok()? < since {
        return None;
    }
    let text = std::fs::read_to_string(file).ok()?;
    let median = &text[text.find("\"median\"")?..];
    let value = &median[median.find("\"point_estimate\":")? + "\"point_estimate\":".len()..];
    value[..value.find([',', '}'])?].trim().parse().ok()
}

fn main() {
    let started = std::time::SystemTime::now();
    benches();
    Criterion::default().final_summary();
    // The floor table, from this run's medians.
    // Each die's lesser median of its two timings (see `bench_dice_again`).
    let least = |id: &str| {
        [
            median_ns(id, started),
            median_ns(&format!("{id}-again"), started),
        ]
        .into_iter()
        .flatten()
        .reduce(f64::min)
    };
    let Some(die) = least("dice/d20") else {
        return;
    };
    // The die the targets of issue 38 were set against, when this run timed it.
    let xoshiro = least("dice/d20-xoshiro");
    let list = DICE_PER_TRIAL.lock().map(|l| l.clone()).unwrap_or_default();
    let rows: Vec<String> = list
        .iter()
        .filter_map(|(id, dice)| {
            let median = median_ns(id, started)?;
            let floor = dice * die;
            let against_xoshiro = xoshiro.map_or_else(
                || "-".to_string(),
                |old| format!("{:.1}x", median / (dice * old)),
            );
            Some(format!(
                "| {id} | {} | {dice:.1} | {} | {:.1}x | {against_xoshiro} |",
                shown_ns(median),
                shown_ns(floor),
                median / floor
            ))
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    let old = xoshiro.map_or_else(String::new, |x| format!("; dice/d20-xoshiro {x:.2} ns"));
    println!(
        "\nThe floor of each trial bench, this run (dice/d20 {die:.2} ns{old}; each die the \
         lesser of its timings at the start and at the end of the run):\n"
    );
    println!(
        "| bench | median | dice per trial | floor | ratio | ratio to the xoshiro die |\n\
         |---|---|---|---|---|---|"
    );
    for row in rows {
        println!("{row}");
    }
    // A skirmish's time per fighter-round against its duel's.
    let rounds = FIGHTER_ROUNDS.lock().map(|l| l.clone()).unwrap_or_default();
    let per = |id: &str| -> Option<f64> {
        let (_, fr) = rounds.iter().find(|(i, _)| i == id)?;
        Some(median_ns(id, started)? / fr)
    };
    let skirmishes: Vec<String> = (rounds.iter())
        .filter_map(|(id, _)| id.strip_prefix("skirmish/"))
        .filter_map(|ruleset| {
            let (duel, band) = (
                per(&format!("duel/{ruleset}"))?,
                per(&format!("skirmish/{ruleset}"))?,
            );
            Some(format!(
                "| {ruleset} | {duel:.1} ns | {band:.1} ns | {:.2}x |",
                band / duel
            ))
        })
        .collect();
    if !skirmishes.is_empty() {
        println!("\nThree against three per fighter-round against the duel's, this run:\n");
        println!(
            "| ruleset | duel per fighter-round | skirmish per fighter-round | ratio |\n|---|---|---|---|"
        );
        for row in skirmishes {
            println!("{row}");
        }
    }
    if let (Some(coin), Some(sure)) = (
        median_ns("dice/d20-coin-branch", started),
        median_ns("dice/d20-sure-branch", started),
    ) {
        // Half the coin tosses are mispredicted.
        let miss = 2.0 * (coin - sure);
        println!(
            "\nA mispredicted branch on a die result, this run: {miss:.1} ns, the price of {:.1} \
             dice (dice/d20-coin-branch {coin:.2} ns against dice/d20-sure-branch {sure:.2} ns).\n\
             The floor counts dice only: a ruleset that branches on its dice pays this beside it.",
            miss / die
        );
    }
}

fn shown_ns(ns: f64) -> String {
    if ns >= 1000.0 {
        format!("{:.2} µs", ns / 1000.0)
    } else {
        format!("{ns:.0} ns")
    }
}
