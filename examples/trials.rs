//! Runs trials of one scenario point on one thread with no output, for counting tools that
//! measure a whole process (valgrind's cachegrind with its branch simulator, `perf stat`):
//! `scripts/instructions` runs it twice, at two trial counts, and divides the difference, so
//! loading the scenario and starting the process cancel out and what is left is one trial.
//!
//! `cargo run --release --example trials -- SCENARIO POINT TRIALS`, where POINT is a point's
//! index or `last` (the bench's recovery point), and SCENARIO may be `d20` to roll that many
//! d20s instead (the cost of one die, as `dice/d20` benches it).

use duelsim::dice::{Dice, FastDice};
use duelsim::engine::trial_seed;
use duelsim::log::NoLog;
use duelsim::rules::Ruleset;
use duelsim::rules::registry;
use duelsim::stats::Tally;
use std::hint::black_box;
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [scenario, point, trials] = args.as_slice() else {
        eprintln!("usage: trials SCENARIO|d20 POINT|last TRIALS");
        return ExitCode::from(2);
    };
    let Ok(trials) = trials.parse::<u64>() else {
        eprintln!("trials: TRIALS must be a whole number, not {trials:?}");
        return ExitCode::from(2);
    };
    if scenario == "d20" {
        let mut dice = FastDice::seed_from_u64(2);
        let mut sum = 0u64;
        for _ in 0..trials {
            sum += u64::from(dice.d(black_box(20), "bench"));
        }
        black_box(sum);
        return ExitCode::SUCCESS;
    }
    let loaded = match registry::load(Path::new(scenario)) {
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
    duelsim::with_model!(&point.model, m => {
        let mut tally = Tally::new(m.shape());
        // Each trial its own dice, as a run and the bench roll them: one source reused across
        // trials would name the same streams again and roll the same trial over and over, which
        // a branch predictor (real or simulated) learns.
        for trial in 0..trials {
            let mut dice = FastDice::seed_from_u64(trial_seed(2, trial));
            m.trial(&mut dice, &mut NoLog, black_box(&mut tally));
        }
        black_box(&tally);
    });
    ExitCode::SUCCESS
}
