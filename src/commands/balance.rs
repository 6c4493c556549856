//! `[balance]` runs: the bisection of a value on common dice, one machine or split over
//! shards.

use super::progress_bar;
use super::{Interrupted, RunOptions, STOP};
use crate::engine::{Budget, Shard};
use crate::journal::Journal;
use crate::report::{self, RunResult};
use crate::rules::registry::{Registry, Scenario};
use crate::scenario::error::InputError;
use crate::stats::Tally;
use anyhow::Result;
use std::path::Path;
use std::time::Instant;

/// Runs a `[balance]` search on one machine: each value the bisection asks for, on the same
/// dice, journaled as it finishes. Split over shards (`--shard K/N`), runs this shard's slice of
/// every value the search could ask for instead; `merge` then walks the bisection.
pub(super) fn run_balance(
    scenario: &Scenario,
    balance: &crate::scenario::balance::Balance,
    dir: &Path,
    pool: &rayon::ThreadPool,
    threads: usize,
    options: &RunOptions,
) -> Result<serde_json::Value> {
    if options.shard.is_some() && scenario.precision.is_some() {
        return Err(InputError::plain(format!(
            "--shard: {} stops on [precision], which needs every chunk in order on one machine; expected a fixed trial count (give --trials N, or trials = N in the file)",
            scenario.path.display()
        ))
        .into());
    }
    let plan = match options.shard {
        Some(_) => Some(balance.shard_plan().map_err(|m| {
            InputError::plain(format!("{}: --shard: {m}", scenario.path.display()))
        })?),
        None => None,
    };
    let shard = options.shard.unwrap_or(Shard::WHOLE);
    // Each evaluation is journaled as it finishes: the search is the same sequence of values
    // every time, so a resumed search takes the recorded ones and runs the rest.
    crate::journal::remove_stale_temporaries(dir);
    let (journal, _, _) = Journal::open(dir, scenario, shard, options.resume)?;
    let budget = match (scenario.precision, options.shard) {
        (Some(p), _) => Budget::Precision {
            half_width: p.half_width,
            max_trials: p.max_trials,
        },
        (None, Some(shard)) => Budget::Slice {
            trials: scenario.trials,
            shard,
        },
        (None, None) => Budget::Trials(scenario.trials),
    };
    let count = plan
        .as_ref()
        .map_or(u64::from(balance.evaluations_at_most()), |p| p.len() as u64);
    let bar = progress_bar(budget.cap() * count, options.quiet);
    let started = Instant::now();
    let interrupted = || -> anyhow::Error {
        Interrupted {
            message: format!(
                "{}: interrupted during the [balance] search; `{}` goes on from its finished evaluations",
                scenario.name,
                super::resume_command(scenario, dir, options),
            ),
        }
        .into()
    };
    let evaluate = |k: usize, value: f64| -> Result<(crate::rules::registry::Model, Tally)> {
        bar.set_message(format!(
            "{}: {} = {}",
            scenario.name,
            balance.path,
            balance.label(value)
        ));
        let model = balance.model_at::<Registry>(value)?;
        let tally = match journal.recorded(k, model.shape())? {
            Some(t) => t,
            None => pool
                .install(|| {
                    crate::engine::run_model(
                        &model,
                        None,
                        scenario.seed,
                        budget,
                        &bar,
                        &STOP,
                        crate::engine::Prefix::none(&mut |_, _| {}),
                    )
                })
                .ok_or_else(interrupted)?,
        };
        journal.record(k, &tally)?;
        Ok((model, tally))
    };
    if let (Some(plan), Some(shard)) = (&plan, options.shard) {
        let mut tallies = Vec::with_capacity(plan.len());
        for (k, &value) in plan.iter().enumerate() {
            tallies.push(evaluate(k, value)?.1);
        }
        bar.finish_and_clear();
        let result = RunResult::of(scenario, tallies, threads, started.elapsed());
        report::shard::write(&result, shard, dir)?;
        journal.finish()?;
        if !options.quiet {
            eprintln!(
                "{}: [balance] shard {}/{}: {} value(s) of {} run (merge the shards for the answer) -> {}",
                scenario.name,
                shard.index + 1,
                shard.count,
                plan.len(),
                balance.path,
                dir.display()
            );
        }
        return Ok(serde_json::json!({
            "scenario": scenario.name,
            "file": scenario.path.display().to_string(),
            "output": dir.display().to_string(),
            "shard": format!("{}/{}", shard.index + 1, shard.count),
        }));
    }
    let mut evaluated = Vec::new();
    let answer = balance.search(balance.real_steps(false), |value| {
        let (model, tally) = evaluate(evaluated.len(), value)?;
        let rate = report::balance::rate(&tally, balance.rate);
        evaluated.push((value, model, tally));
        Ok::<_, anyhow::Error>(rate)
    })?;
    let ran = report::balance::Ran {
        threads,
        duration: started.elapsed(),
    };
    bar.finish_and_clear();
    let words = report::balance::write(scenario, balance, evaluated, &answer, ran, dir)?;
    journal.finish()?;
    if !options.json {
        println!(
            "{}",
            crate::scenario::error::terminal_safe(&format!("{}: {words}", scenario.name))
        );
    }
    if !options.quiet {
        eprintln!(
            "{}: {} -> {}",
            scenario.name,
            answer.text(balance),
            dir.display()
        );
    }
    let value = answer
        .value()
        .map(|(v, lo, hi)| serde_json::json!({ "value": v, "lo": lo, "hi": hi }));
    Ok(serde_json::json!({
        "scenario": scenario.name,
        "file": scenario.path.display().to_string(),
        "ruleset": scenario.ruleset,
        "seed": scenario.seed,
        "output": dir.display().to_string(),
        "balance": {
            "path": balance.path,
            "rate": crate::scenario::balance::TARGETS[balance.rate],
            "target": balance.target,
            "answer": value,
            "words": words,
        },
    }))
}
