//! Runs trials of one scenario point on one thread with no output, for counting tools that
//! measure a whole process (valgrind's cachegrind with its branch simulator, `perf stat`):
//! `scripts/instructions` runs it twice, at two trial counts, and divides the difference, so
//! loading the scenario and starting the process cancel out and what is left is one trial.
//!
//! `cargo run --release --example trials -- SCENARIO POINT TRIALS [LEARNED]`, where POINT is a
//! point's index or `last` (the bench's recovery point), and SCENARIO may be `d20` to roll that
//! many d20s instead (the cost of one die, as `dice/d20` benches it).
//!
//! With `TRIALS_ENCOUNTER=K` a campaign's encounter K (from 0) runs alone, a fresh fight with
//! its healing; with `TRIALS_REPORT=1` a campaign prints the share of its trials reaching each
//! encounter (`scripts/instructions` sets a campaign against its fights alone).
//!
//! With `TRIALS_SIDES=N` in the environment every side of the scenario is N fighters (as the
//! `skirmish/<ruleset>` benches fight three against three), and with `TRIALS_REPORT=1` the
//! fighter-rounds of a trial on average (every fighter of both sides, every round fought) are
//! printed on stderr, for the cost of a fighter-round.
//!
//! With LEARNED = K (the fourth argument) the trials come in blocks of K seeds, each block
//! rolled [`REPEATS`] times over before the next: a branch predictor learns the paths of a few
//! dozen trials it sees again and again, so the trials' branches on their dice are then
//! foreseen, and the time a trial takes with few mispredictions can be read beside the time
//! with them (`scripts/learned-branches` runs both). The blocks' seeds are fresh ones, so over
//! many blocks the trials are close to the same mix as without LEARNED (512,000 trials in
//! blocks of 32 are 2,000 seeds).

use duelsim::dice::{Dice, FastDice};
use duelsim::engine::trial_seed;
use duelsim::log::NoLog;
use duelsim::rules::Ruleset;
use duelsim::rules::registry;
use duelsim::stats::Tally;
use std::hint::black_box;
use std::path::Path;
use std::process::ExitCode;

/// How many times a block of LEARNED seeds is rolled over before the next block.
const REPEATS: u64 = 256;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (scenario, point, trials, learned) = match args.as_slice() {
        [scenario, point, trials] => (scenario, point, trials, None),
        [scenario, point, trials, learned] => (scenario, point, trials, Some(learned)),
        _ => {
            eprintln!("usage: trials SCENARIO|d20 POINT|last TRIALS [LEARNED]");
            return ExitCode::from(2);
        }
    };
    let Ok(trials) = trials.parse::<u64>() else {
        eprintln!("trials: TRIALS must be a whole number, not {trials:?}");
        return ExitCode::from(2);
    };
    // LEARNED's K, or 0 for each trial its own seed.
    let learned = match learned.map(|k| k.parse::<u64>()) {
        None => 0,
        Some(Ok(k)) if k > 0 => k,
        Some(_) => {
            eprintln!("trials: LEARNED must be a whole number above 0");
            return ExitCode::from(2);
        }
    };
    if scenario == "d20" {
        if learned > 0 {
            eprintln!("trials: LEARNED is for a scenario's trials, not the d20s");
            return ExitCode::from(2);
        }
        let mut dice = FastDice::seed_from_u64(2);
        let mut sum = 0u64;
        for _ in 0..trials {
            sum += u64::from(dice.d(black_box(20), "bench"));
        }
        black_box(sum);
        return ExitCode::SUCCESS;
    }
    let sides = std::env::var("TRIALS_SIDES").ok().filter(|n| !n.is_empty());
    let loaded = match sides.map(|n| n.parse::<u32>()) {
        None => registry::load(Path::new(scenario)),
        Some(Ok(n)) => match std::fs::read_to_string(scenario) {
            Ok(text) => registry::parse(
                Path::new(scenario),
                &duelsim::scenario::every_side_of(&text, n),
            ),
            Err(e) => {
                eprintln!("trials: {scenario}: {e}");
                return ExitCode::from(2);
            }
        },
        Some(Err(_)) => {
            eprintln!("trials: TRIALS_SIDES must be a whole number");
            return ExitCode::from(2);
        }
    };
    let loaded = match loaded {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let index = if point == "last" {
        loaded.points.len().saturating_sub(1)
    } else {
        match point.parse::<usize>() {
            Ok(i) => i,
            Err(_) => {
                eprintln!("trials: POINT must be an index or `last`, not {point:?}");
                return ExitCode::from(2);
            }
        }
    };
    let Some(point) = loaded.points.get(index) else {
        eprintln!("trials: {scenario} has {} points", loaded.points.len());
        return ExitCode::from(2);
    };
    // With TRIALS_ENCOUNTER=K, a campaign's encounter K (from 0) alone: a fresh fight with its
    // healing, what the campaign's cost is set against.
    let encounter = std::env::var("TRIALS_ENCOUNTER")
        .ok()
        .filter(|k| !k.is_empty());
    let model = match encounter.map(|k| {
        k.parse::<usize>()
            .ok()
            .and_then(|k| point.model.encounter(k))
    }) {
        None => point.model.clone(),
        Some(Some(fight)) => fight,
        Some(None) => {
            eprintln!("trials: TRIALS_ENCOUNTER must name an encounter of a campaign");
            return ExitCode::from(2);
        }
    };
    duelsim::with_model!(&model, m => {
        let mut tally = Tally::new(m.shape());
        // Each trial its own dice, as a run and the bench roll them: one source reused across
        // trials would name the same streams again and roll the same trial over and over, which
        // a branch predictor (real or simulated) learns.
        // With LEARNED, trial `i` takes seed `i % K` of its block, counted rather than divided
        // out so that the learnt side pays no division a trial. The branches on LEARNED go the
        // same way every trial, and the block's end comes every K trials, so neither side pays
        // a misprediction for them.
        let (mut block, mut place, mut rolled_over) = (0u64, 0u64, 0u64);
        for trial in 0..trials {
            let seed = if learned == 0 { trial } else { block + place };
            let mut dice = FastDice::seed_from_u64(trial_seed(2, seed));
            m.trial(&mut dice, &mut NoLog, black_box(&mut tally));
            if learned > 0 {
                place += 1;
                if place == learned {
                    place = 0;
                    rolled_over += 1;
                    if rolled_over == REPEATS {
                        rolled_over = 0;
                        block += learned;
                    }
                }
            }
        }
        black_box(&tally);
        if std::env::var_os("TRIALS_REPORT").is_some() {
            let sides = m.shape().sides;
            let fighters = f64::from(sides[0] + sides[1]);
            let rounds = tally.rounds.mean().unwrap_or(0.0);
            eprintln!("fighter-rounds per trial: {}", fighters * rounds);
            // A campaign's share reaching each encounter, for the cost of its fights alone.
            if let Some(outline) = model.campaign() {
                let reached: Vec<String> = (0..outline.encounters.len())
                    .map(|e| {
                        let n = tally.extra[outline.columns.of(e, 0)];
                        format!("{}", n as f64 / tally.trials.max(1) as f64)
                    })
                    .collect();
                eprintln!("encounters reached per trial: {}", reached.join(" "));
            }
        }
    });
    ExitCode::SUCCESS
}
