//! The outputs of a `[balance]` search: every value it evaluated becomes a point of the usual
//! outputs, with `balance.csv` (value, trials, rate and interval) and the answer in words at
//! the top of the report. One machine's search and `merge` of a split one both end here.

use super::RunResult;
use crate::rules::registry::{Model, Point, Scenario};
use crate::scenario::balance::{Answer, Balance, Rate, TARGETS};
use crate::stats::Tally;
use anyhow::Result;
use std::path::Path;
use std::time::Duration;

/// One value the search evaluated: the value, its model and its tally.
pub type Evaluation = (f64, Model, Tally);

/// The rate a `[balance]` aims at, from a point's tally: its count over the trials, with the
/// 95% Wilson interval.
pub fn rate(tally: &Tally, rate: usize) -> Rate {
    // Win and draw rates are shares of the trials; dead rates of each side's fighters.
    let counts = [
        (tally.ends[0], tally.trials),
        (tally.ends[1], tally.trials),
        (tally.ends[2], tally.trials),
        (tally.dead[0], tally.fighter_trials(0)),
        (tally.dead[1], tally.fighter_trials(1)),
    ];
    let (count, of) = counts[rate.min(counts.len() - 1)];
    crate::stats::wilson(count, of)
}

/// How the search ran, for the report's header.
pub struct Ran {
    /// Worker threads (summed over shards).
    pub threads: usize,
    /// Wall time (summed over shards).
    pub duration: Duration,
}

/// Writes the outputs of a finished search into `dir`: the evaluations in increasing value.
/// Returns the answer in words, as the report says it.
pub fn write(
    scenario: &Scenario,
    balance: &Balance,
    mut evaluated: Vec<Evaluation>,
    answer: &Answer,
    ran: Ran,
    dir: &Path,
) -> Result<String> {
    evaluated.sort_by(|a, b| a.0.total_cmp(&b.0));
    let rate_name = TARGETS[balance.rate];
    let mut csv = format!(
        "{},trials,{rate_name},lo,hi\n",
        balance.path.replace(',', " ")
    );
    for (value, _, tally) in &evaluated {
        let (r, l, h) = rate(tally, balance.rate);
        csv.push_str(&format!(
            "{},{},{r:.6},{l:.6},{h:.6}\n",
            balance.label(*value),
            tally.trials
        ));
    }
    let (words, marks) = match evaluated.first() {
        Some((_, model, _)) => {
            let names = model.names();
            let title = super::charts::axis_title(&balance.path, names, scenario.ruleset);
            let marks = super::BalanceMarks {
                rate: Answer::rate_words(balance, names),
                index: balance.rate,
                target: balance.target,
                answer: answer.value(),
            };
            (answer.words(balance, &title, names), Some(marks))
        }
        None => (answer.text(balance), None),
    };
    let mut points = Vec::new();
    let mut tallies = Vec::new();
    for (value, model, tally) in evaluated {
        points.push(Point {
            swept: vec![(balance.path.clone(), balance.label(value))],
            model,
        });
        tallies.push(tally);
    }
    let searched = Scenario {
        points,
        balance: None,
        baseline: None,
        ..scenario.clone()
    };
    let result = RunResult {
        scenario: &searched,
        tallies,
        threads: ran.threads,
        duration: ran.duration,
        notes: vec![words],
        extra_files: vec![("balance.csv".to_owned(), csv.into_bytes())],
        balance: marks,
    };
    super::write_all(&result, dir)?;
    Ok(result.notes.first().cloned().unwrap_or_default())
}
