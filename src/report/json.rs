//! The JSON of `run --json` and `merge --json`, for scripts and notebooks: one RUN object per
//! scenario with the keys the README's JSON table lists. Every RUN says what ran (scenario,
//! file, ruleset, seed, the sides' names, the folder written, whether it finished); then its
//! results: every point (its headline rates with intervals, every `summary.csv` column, its
//! differences from a baseline), or a `[balance]` answer, or a shard to merge.

use super::results::rates;
use super::run::RunResult;
use crate::engine::Shard;
use crate::rules::registry::Scenario;
use crate::scenario::balance::{Balance, TARGETS};
use crate::stats::{PAIRED, wilson};
use serde_json::{Map, Value, json};
use std::path::Path;

/// What every RUN says of what ran: `scenario`, `file`, `ruleset`, `seed`, `names` (the sides'
/// names as the report says them) and `output`.
fn what_ran(s: &Scenario, dir: &Path) -> Map<String, Value> {
    let names = s.points.first().map(|p| p.model.names());
    let mut run = Map::new();
    run.insert("scenario".into(), s.name.clone().into());
    run.insert("file".into(), s.path.display().to_string().into());
    run.insert("ruleset".into(), s.ruleset.into());
    run.insert("seed".into(), s.seed.into());
    run.insert(
        "names".into(),
        names.map_or(Value::Null, |[a, b]| json!({ "a": a, "b": b })),
    );
    run.insert("output".into(), dir.display().to_string().into());
    run
}

/// A rate as JSON: its value and 95% interval, as shares from 0 to 1 (`null` with nothing to
/// count).
fn rate_json(successes: u64, n: u64) -> Value {
    if n == 0 {
        return Value::Null;
    }
    let (r, lo, hi) = wilson(successes, n);
    json!({ "rate": r, "lo": lo, "hi": hi })
}

/// A `summary.csv` cell as JSON: a whole number, a number, `null` for an empty cell, else
/// text.
fn cell_json(cell: &str) -> Value {
    if cell.is_empty() {
        Value::Null
    } else if let Ok(n) = cell.parse::<u64>() {
        n.into()
    } else if let Ok(x) = cell.parse::<f64>() {
        x.into()
    } else {
        cell.into()
    }
}

/// One point's differences from the baseline on the same dice; the baseline's own are 0.
fn deltas_json(t: &crate::stats::Tally, baseline: bool) -> Value {
    let deltas: Map<String, Value> = (PAIRED.iter().enumerate())
        .filter_map(|(k, name)| {
            let (d, lo, hi) = if baseline {
                (0.0, 0.0, 0.0)
            } else {
                t.paired.delta(k)?
            };
            Some((
                (*name).to_owned(),
                json!({ "delta": d, "lo": lo, "hi": hi }),
            ))
        })
        .collect();
    Value::Object(deltas)
}

/// A finished (or partly finished) run's RUN: what ran, `complete`, `baseline`, and every
/// point with its swept values (as written in the file), trials, headline rates (by their
/// `summary.csv` names), every `summary.csv` column, and for a `[compare]` or `[weights]` its
/// differences from the baseline.
pub fn points(run: &RunResult, dir: &Path) -> Value {
    let s = run.scenario;
    let rates = rates(run);
    let duel = !s.points.first().is_some_and(|p| p.model.is_recovery());
    let points: Vec<Value> = (s.points.iter().zip(&run.tallies).enumerate())
        .map(|(i, (p, t))| {
            let swept: Map<String, Value> = (p.swept.iter())
                .map(|(k, v)| (k.clone(), Value::String(v.clone())))
                .collect();
            let headline: Map<String, Value> = rates
                .iter()
                .map(|r| {
                    let (c, n) = (r.count)(t);
                    (r.stem.to_owned(), rate_json(c, n))
                })
                .collect();
            let (header, row) = super::csv::summary_row(&[], i, t, duel);
            let summary: Map<String, Value> = header
                .into_iter()
                .zip(&row)
                .filter(|(h, _)| h != "point")
                .map(|(h, cell)| (h, cell_json(cell)))
                .collect();
            let mut point = json!({
                "point": i,
                "swept": swept,
                "trials": t.trials,
                "rates": headline,
                "summary": summary,
            });
            if let Some(baseline) = s.baseline {
                point["deltas"] = deltas_json(t, baseline == i);
            }
            point
        })
        .collect();
    let mut value = what_ran(s, dir);
    value.insert("complete".into(), run.complete().into());
    value.insert("baseline".into(), json!(s.baseline));
    value.insert("points".into(), points.into());
    Value::Object(value)
}

/// A `[balance]` answer: its value with the interval, `null` when the range does not reach the
/// target.
fn answer_json(value: Option<(f64, f64, f64)>) -> Value {
    value.map_or(
        Value::Null,
        |(v, lo, hi)| json!({ "value": v, "lo": lo, "hi": hi }),
    )
}

/// What a `[balance]` search found, at one sweep point (or the file's one search): the point's
/// swept values and the answer.
pub struct Found {
    /// The sweep point's values (empty without a sweep).
    pub swept: Vec<(String, String)>,
    /// The answer with its interval; `None` when the range does not reach the target.
    pub answer: Option<(f64, f64, f64)>,
}

/// A `[balance]` run's RUN: what ran, `complete`, `baseline` (`null`), and `balance`: the
/// path, rate and target, and the answer with its words, or with a sweep one per point.
pub fn balance(
    scenario: &Scenario,
    balance: &Balance,
    found: &[Found],
    words: &[String],
    dir: &Path,
) -> Value {
    let mut answer = json!({
        "path": balance.path,
        "rate": TARGETS[balance.rate],
        "target": balance.target,
    });
    if balance.swept() {
        let points: Vec<Value> = found
            .iter()
            .zip(words)
            .enumerate()
            .map(|(p, (found, words))| {
                let swept: Map<String, Value> = found
                    .swept
                    .iter()
                    .map(|(k, v)| (k.clone(), Value::from(v.clone())))
                    .collect();
                json!({
                    "point": p,
                    "swept": swept,
                    "answer": answer_json(found.answer),
                    "words": words,
                })
            })
            .collect();
        answer["points"] = points.into();
    } else {
        answer["answer"] = answer_json(found.first().and_then(|f| f.answer));
        answer["words"] = words.first().cloned().unwrap_or_default().into();
    }
    let mut value = what_ran(scenario, dir);
    value.insert("complete".into(), true.into());
    value.insert("baseline".into(), Value::Null);
    value.insert("balance".into(), answer);
    Value::Object(value)
}

/// A shard's RUN: what ran, `complete`, `baseline` (`null`) and `shard` ("K/N"): its results
/// are those of the merge.
pub fn shard(scenario: &Scenario, dir: &Path, shard: Shard) -> Value {
    let mut value = what_ran(scenario, dir);
    value.insert("complete".into(), true.into());
    value.insert("baseline".into(), Value::Null);
    value.insert(
        "shard".into(),
        format!("{}/{}", shard.index + 1, shard.count).into(),
    );
    Value::Object(value)
}

/// The document `--json` prints: the version, every RUN, and for a run stopped by Ctrl-C what
/// was kept and the command that finishes it.
pub fn document(runs: Vec<Value>, interrupted: Option<Value>) -> Value {
    let mut document = json!({
        "duelsim": env!("CARGO_PKG_VERSION"),
        "runs": runs,
    });
    if let Some(stopped) = interrupted {
        document["interrupted"] = stopped;
    }
    document
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::tests::{finished_run, scenario};

    #[test]
    fn json_holds_every_point_with_its_rates_intervals_and_summary_columns() {
        let s = scenario();
        let run = finished_run(&s);
        let value = points(&run, Path::new("out"));
        let points = value["points"].as_array().map_or(0, Vec::len);
        assert_eq!(points, run.tallies.len());
        let first = &value["points"][0];
        assert_eq!(first["swept"]["a.weapon"], "sword");
        let rate = first["rates"]["a_win_rate"]["rate"]
            .as_f64()
            .unwrap_or(-1.0);
        let t = &run.tallies[0];
        let expected = t.wins(crate::stats::Side::A) as f64 / t.trials as f64;
        assert!((rate - expected).abs() < 1e-12, "{rate} {expected}");
        let mean = first["summary"]["rounds_mean"].as_f64().unwrap_or(-1.0);
        let expected = t.rounds.mean().unwrap_or(-2.0);
        assert!((mean - expected).abs() < 1e-6, "{mean} {expected}");
        assert_eq!(value["output"], "out");
        assert_eq!(value["names"]["a"], run.scenario.points[0].model.names()[0]);
    }
}
