//! The outputs of a `[balance]` search: every value it evaluated becomes a point of the usual
//! outputs, with `balance.csv` (value, trials, rate and interval) and the answer in words at
//! the top of the report. One machine's search and `merge` of a split one both end here.
//!
//! A file that also sweeps runs a search per sweep point: its `balance.csv` has a `row` column,
//! an `answer` row per sweep point (the value found with its interval, or `reachable` "no")
//! and then an `evaluation` row per value run, each with the point's swept values; the report
//! gets a table of the answers and a chart of them against the swept values. A file without a
//! sweep writes what it always has.

use super::run::RunResult;
use crate::rules::registry::{Model, Point, Scenario};
use crate::scenario::balance::{Answer, Balance, TARGETS};
use crate::stats::Tally;
use anyhow::Result;
use std::path::Path;
use std::time::Duration;

/// One value the search evaluated: the value, its model and its tally.
pub type Evaluation = (f64, Model, Tally);

/// How the search ran, for the report's header.
pub struct Ran {
    /// Worker threads (summed over shards).
    pub threads: usize,
    /// Wall time (summed over shards).
    pub duration: Duration,
}

/// One search of a run: the sweep point's values (none without a sweep), every value it
/// evaluated, and its answer.
pub struct Searched {
    /// The sweep point's values, as `summary.csv` writes them (empty without a sweep).
    pub swept: Vec<(String, String)>,
    /// Every value the search evaluated.
    pub evaluated: Vec<Evaluation>,
    /// What it found.
    pub answer: Answer,
}

/// What a search's points fight, in words: "campaign" for a campaign, "fight" when any has a
/// side of several or the search is over a side's number, else "duel".
fn fought(scenario: &Scenario, balance: &Balance) -> &'static str {
    if (scenario.points.first()).is_some_and(|p| p.model.campaign().is_some()) {
        return "campaign";
    }
    let several = (scenario.points.iter()).any(|p| p.model.shape().sides.iter().any(|&n| n > 1));
    if several || balance.path.ends_with("count") {
        "fight"
    } else {
        "duel"
    }
}

/// Writes the outputs of a finished run of searches into `dir` (one search, or one per sweep
/// point in point order). Returns each search's answer in words, as the report says it.
pub fn write(
    scenario: &Scenario,
    balance: &Balance,
    mut searched: Vec<Searched>,
    ran: Ran,
    dir: &Path,
) -> Result<Vec<String>> {
    if !balance.swept()
        && searched.len() == 1
        && let Some(one) = searched.pop()
    {
        return write_one(scenario, balance, one.evaluated, &one.answer, ran, dir).map(|w| vec![w]);
    }
    let names = scenario
        .points
        .first()
        .map_or(["a", "b"], |p| p.model.names());
    let title = super::words::axis_title(&balance.path, names, scenario.ruleset);
    let fight = fought(scenario, balance);
    let rate_name = TARGETS[balance.rate];
    let keys: Vec<&str> = searched
        .first()
        .map(|s| s.swept.iter().map(|(k, _)| k.as_str()).collect())
        .unwrap_or_default();
    let path = balance.path.replace(',', " ");
    let mut csv = String::from("row,");
    for key in &keys {
        csv.push_str(&super::csv::csv_field(key));
        csv.push(',');
    }
    csv.push_str(&format!(
        "{path},{path}_lo,{path}_hi,reachable,trials,{rate_name},lo,hi\n"
    ));
    let swept_cells = |swept: &[(String, String)]| -> String {
        swept
            .iter()
            .map(|(_, v)| format!("{},", super::csv::csv_field(v)))
            .collect()
    };
    for s in &searched {
        let cells = swept_cells(&s.swept);
        match s.answer.value() {
            Some((v, lo, hi)) => csv.push_str(&format!(
                "answer,{cells}{},{},{},yes,,,,\n",
                number(v),
                number(lo),
                number(hi)
            )),
            None => csv.push_str(&format!("answer,{cells},,,no,,,,\n")),
        }
    }
    let mut points = Vec::new();
    let mut tallies = Vec::new();
    let mut answers = Vec::new();
    for s in searched {
        let cells = swept_cells(&s.swept);
        let mut evaluated = s.evaluated;
        evaluated.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (value, model, tally) in evaluated {
            let (r, l, h) = crate::scenario::balance::rate(&tally, balance.rate);
            csv.push_str(&format!(
                "evaluation,{cells}{},,,,{},{r:.6},{l:.6},{h:.6}\n",
                balance.label(value),
                tally.trials
            ));
            let mut swept = s.swept.clone();
            swept.push((balance.path.clone(), balance.label(value)));
            points.push(Point { swept, model });
            tallies.push(tally);
        }
        answers.push(super::run::BalancePoint {
            words: s.answer.words(balance, &title, names, fight),
            swept: s.swept,
            answer: s.answer,
        });
    }
    let words: Vec<String> = answers.iter().map(|a| a.words.clone()).collect();
    let marks = super::run::BalanceMarks {
        rate: Answer::rate_words(balance, names, fight),
        index: balance.rate,
        target: balance.target,
        answer: None,
        range: (balance.from, balance.to),
        goal: Answer::goal(balance, names, fight),
        points: answers,
    };
    let evaluations = Evaluations {
        points,
        tallies,
        csv,
    };
    evaluations.write(scenario, ran, Vec::new(), Some(marks), dir)?;
    Ok(words)
}

/// Every value a run evaluated, as the points of a sweep: the scenario's outputs are written
/// for them, with `balance.csv`.
struct Evaluations {
    points: Vec<Point>,
    tallies: Vec<Tally>,
    csv: String,
}

impl Evaluations {
    /// Writes the outputs of `scenario` as these evaluations, with `notes` and the chart's
    /// `marks`.
    fn write(
        self,
        scenario: &Scenario,
        ran: Ran,
        notes: Vec<String>,
        marks: Option<super::run::BalanceMarks>,
        dir: &Path,
    ) -> Result<()> {
        let searched = Scenario {
            points: self.points,
            balance: None,
            baseline: None,
            ..scenario.clone()
        };
        let result = RunResult {
            scenario: &searched,
            tallies: self.tallies,
            threads: ran.threads,
            duration: ran.duration,
            notes,
            extra_files: vec![("balance.csv".to_owned(), self.csv.into_bytes())],
            balance: marks,
        };
        super::write_all(&result, dir)?;
        Ok(())
    }
}

/// A value found, as `balance.csv` writes it: an integer as one, else to six decimals at most.
fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        let text = format!("{v:.6}");
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// The answers for the terminal, as `run` prints them and `merge` returns them: one line
/// `name: words` for one search; with a sweep a line per point, its values in words first
/// (`name: Brigand in plate: ...`), the first [`super::answer::MAX_LINES`] of them.
pub fn terminal(scenario: &Scenario, balance: &Balance, words: &[String]) -> String {
    let name = &scenario.name;
    if !balance.swept() {
        return words.iter().map(|w| format!("{name}: {w}\n")).collect();
    }
    let names = scenario
        .points
        .first()
        .map_or(["a", "b"], |p| p.model.names());
    let mut out = String::new();
    for (point, w) in scenario
        .points
        .iter()
        .zip(words)
        .take(super::answer::MAX_LINES)
    {
        let at = point
            .swept
            .iter()
            .map(|(k, v)| super::words::value_phrase(k, v, names, scenario.ruleset))
            .collect::<Vec<_>>()
            .join(", ");
        out.push_str(&format!("{name}: {at}: {w}\n"));
    }
    if words.len() > super::answer::MAX_LINES {
        out.push_str(&format!(
            "  ... {} more in balance.csv\n",
            words.len() - super::answer::MAX_LINES
        ));
    }
    out
}

/// Writes the outputs of one search (a file without a sweep) into `dir`: the evaluations in
/// increasing value. Returns the answer in words, as the report says it.
fn write_one(
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
        let (r, l, h) = crate::scenario::balance::rate(tally, balance.rate);
        csv.push_str(&format!(
            "{},{},{r:.6},{l:.6},{h:.6}\n",
            balance.label(*value),
            tally.trials
        ));
    }
    let (words, marks) = match evaluated.first() {
        Some((_, model, _)) => {
            let names = model.names();
            let title = super::words::axis_title(&balance.path, names, scenario.ruleset);
            let fight = fought(scenario, balance);
            let marks = super::run::BalanceMarks {
                rate: Answer::rate_words(balance, names, fight),
                index: balance.rate,
                target: balance.target,
                answer: answer.value(),
                range: (balance.from, balance.to),
                goal: Answer::goal(balance, names, fight),
                points: Vec::new(),
            };
            (answer.words(balance, &title, names, fight), Some(marks))
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
    let evaluations = Evaluations {
        points,
        tallies,
        csv,
    };
    evaluations.write(scenario, ran, vec![words.clone()], marks, dir)?;
    Ok(words)
}
