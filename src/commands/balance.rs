//! `[balance]` runs: the bisection of a value on common dice, one machine or split over
//! shards; with a `[sweep]`, the search of each sweep point in turn.

use super::progress_bar;
use super::{Interrupted, RunOptions, STOP};
use crate::engine::{Budget, Shard};
use crate::journal::Journal;
use crate::report::{self, RunResult};
use crate::rules::registry::{Registry, Scenario};
use crate::scenario::balance::Balance;
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
    balance: &Balance,
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
    let searches = balance.searches();
    if let Some(plan) = &plan {
        // Every value of every point's plan is a tally a shard keeps, as a sweep's points are.
        let all = plan.len().saturating_mul(searches.len());
        if all > crate::scenario::sweep::MAX_POINTS {
            return Err(InputError::plain(format!(
                "{}: --shard: a [balance] split over shards runs each of its {} values at each of {} sweep points, {all} in all; expected at most {} (narrow the range, sweep fewer points, or run on one machine, which bisects)",
                scenario.path.display(),
                plan.len(),
                searches.len(),
                crate::scenario::sweep::MAX_POINTS
            ))
            .into());
        }
    }
    let shard = options.shard.unwrap_or(Shard::WHOLE);
    // Each evaluation is journaled as it finishes: the search is the same sequence of values
    // every time, so a resumed search takes the recorded ones and runs the rest. With a sweep,
    // point p's k-th evaluation is file p * stride + k, sealed with the point and the value.
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
    let stride = plan
        .as_ref()
        .map_or(balance.evaluations_at_most() as usize, Vec::len);
    let count = (stride * searches.len()) as u64;
    let bar = progress_bar(budget.cap() * count, options.quiet);
    let started = Instant::now();
    let interrupted = || -> anyhow::Error {
        let resume = super::resume_command(dir, options);
        Interrupted {
            message: format!(
                "{}: interrupted during the [balance] search; `{resume}` goes on from its finished evaluations",
                scenario.name,
            ),
            scenario: scenario.name.clone(),
            resume,
        }
        .into()
    };
    let swept = balance.swept();
    let at = |p: usize| -> String {
        scenario.points.get(p).map_or_else(String::new, |point| {
            point
                .swept
                .iter()
                .map(|(k, v)| format!("{k} = {v}, "))
                .collect()
        })
    };
    let evaluate = |p: usize,
                    k: usize,
                    search: &Balance,
                    value: f64|
     -> Result<(crate::rules::registry::Model, Tally)> {
        let point = if swept { at(p) } else { String::new() };
        bar.set_message(format!(
            "{}: {point}{} = {}",
            scenario.name,
            balance.path,
            balance.label(value)
        ));
        let model = search.model_at::<Registry>(value)?;
        let (file, key) = if swept {
            (
                p * stride + k,
                format!("point {p} {} = {}", balance.path, balance.label(value)),
            )
        } else {
            (k, String::new())
        };
        let tally = match journal.recorded_keyed(file, &key, model.shape())? {
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
        journal.record_keyed(file, &key, &tally)?;
        Ok((model, tally))
    };
    if let (Some(plan), Some(shard)) = (&plan, options.shard) {
        let mut tallies = Vec::with_capacity(plan.len() * searches.len());
        for (p, search) in searches.iter().enumerate() {
            for (k, &value) in plan.iter().enumerate() {
                tallies.push(evaluate(p, k, search, value)?.1);
            }
        }
        bar.finish_and_clear();
        let result = RunResult::of(scenario, tallies, threads, started.elapsed());
        report::shard::write(&result, shard, dir)?;
        journal.finish()?;
        if !options.quiet {
            let points = if swept {
                format!(" at each of {} sweep points", searches.len())
            } else {
                String::new()
            };
            eprintln!(
                "{}: [balance] shard {}/{}: {} of {}{points} run (merge the shards for the answer) -> {}",
                scenario.name,
                shard.index + 1,
                shard.count,
                crate::report::words::counted(plan.len() as u64, "value", "values"),
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
    let mut searched = Vec::with_capacity(searches.len());
    for (p, search) in searches.iter().enumerate() {
        let mut evaluated = Vec::new();
        let answer = search.search(search.real_steps(false), |value| {
            let (model, tally) = evaluate(p, evaluated.len(), search, value)?;
            let rate = crate::scenario::balance::rate(&tally, balance.rate);
            evaluated.push((value, model, tally));
            Ok::<_, anyhow::Error>(rate)
        })?;
        searched.push(report::balance::Searched {
            swept: scenario
                .points
                .get(p)
                .filter(|_| swept)
                .map_or_else(Vec::new, |point| point.swept.clone()),
            evaluated,
            answer,
        });
    }
    let ran = report::balance::Ran {
        threads,
        duration: started.elapsed(),
    };
    bar.finish_and_clear();
    let answers: Vec<_> = searched
        .iter()
        .map(|s| (s.swept.clone(), s.answer.value(), s.answer.text(balance)))
        .collect();
    let evaluations: usize = searched.iter().map(|s| s.evaluated.len()).sum();
    let trials: u64 = searched
        .iter()
        .flat_map(|s| &s.evaluated)
        .map(|e| e.2.trials)
        .sum();
    let words = report::balance::write(scenario, balance, searched, ran, dir)?;
    journal.finish()?;
    if !options.json {
        print!(
            "{}",
            crate::scenario::error::terminal_safe(&report::balance::terminal(
                scenario, balance, &words
            ))
        );
    }
    if !options.quiet {
        if swept {
            eprintln!(
                "{}: [balance] at {} sweep points: {}, {} in {:.2} s -> {}",
                scenario.name,
                searches.len(),
                crate::report::words::counted(evaluations as u64, "evaluation", "evaluations"),
                crate::report::words::counted(trials, "trial", "trials"),
                started.elapsed().as_secs_f64(),
                dir.display()
            );
        } else if let Some((_, _, text)) = answers.first() {
            eprintln!("{}: {text} -> {}", scenario.name, dir.display());
        }
    }
    let found: Vec<report::json::Found> = answers
        .into_iter()
        .map(|(swept, answer, _)| report::json::Found { swept, answer })
        .collect();
    Ok(report::json::balance(
        scenario, balance, &found, &words, dir,
    ))
}
