//! A finished run as every report writer reads it: the scenario, a tally per point, how it was
//! run, and what a `[balance]` search found.

use crate::rules::registry::Scenario;
use crate::stats::Tally;
use std::time::Duration;

/// A finished run: the scenario, one tally per point, and how it was run.
#[derive(Debug)]
pub struct RunResult<'a> {
    /// The scenario that ran.
    pub scenario: &'a Scenario,
    /// One merged tally per point, in point order.
    pub tallies: Vec<Tally>,
    /// Worker threads used.
    pub threads: usize,
    /// Wall time of the trials.
    pub duration: Duration,
    /// Findings said in words at the top of the report (a `[balance]` search's answer).
    pub notes: Vec<String>,
    /// Tables of its own a run adds (`balance.csv`), written with the rest.
    pub extra_files: Vec<(String, Vec<u8>)>,
    /// A `[balance]` search's target and answer, which its chart marks.
    pub balance: Option<BalanceMarks>,
}

/// What a `[balance]` chart marks: the rate searched, its target and the answer.
#[derive(Clone, Debug, PartialEq)]
pub struct BalanceMarks {
    /// The rate in words ("Maceman wins").
    pub rate: String,
    /// Which rate ([`crate::scenario::balance::TARGETS`] index).
    pub index: usize,
    /// The target, a share from 0 to 1.
    pub target: f64,
    /// The value found with its interval (value, lo, hi); `None` when the range does not
    /// reach the target (and with a sweep, whose answers are in `points`).
    pub answer: Option<(f64, f64, f64)>,
    /// The range searched (from, to).
    pub range: (f64, f64),
    /// What reaching the target does, in words ("makes the duel even").
    pub goal: String,
    /// With a `[sweep]`, the answer at each sweep point in point order; empty without one.
    pub points: Vec<BalancePoint>,
}

/// The answer of a `[balance]` search at one sweep point.
#[derive(Clone, Debug, PartialEq)]
pub struct BalancePoint {
    /// The point's swept paths and values, as `summary.csv` writes them.
    pub swept: Vec<(String, String)>,
    /// What its search found.
    pub answer: crate::scenario::balance::Answer,
    /// The answer in words, as the report says it.
    pub words: String,
}

impl<'a> RunResult<'a> {
    /// A run with no notes and no tables of its own.
    pub fn of(
        scenario: &'a Scenario,
        tallies: Vec<Tally>,
        threads: usize,
        duration: Duration,
    ) -> Self {
        RunResult {
            scenario,
            tallies,
            threads,
            duration,
            notes: Vec::new(),
            extra_files: Vec::new(),
            balance: None,
        }
    }

    /// Trials over all points.
    pub fn total_trials(&self) -> u64 {
        self.tallies.iter().map(|t| t.trials).sum()
    }

    /// Whether every point has its tally.
    pub fn complete(&self) -> bool {
        self.tallies.len() == self.scenario.points.len()
    }

    /// Trials per second of wall time.
    pub fn trials_per_second(&self) -> f64 {
        self.total_trials() as f64 / self.duration.as_secs_f64().max(1e-9)
    }
}

/// One output file.
pub trait Export {
    /// The file's name inside the output folder.
    fn file_name(&self) -> &'static str;
    /// The file's whole content.
    fn render(&self, run: &RunResult) -> anyhow::Result<Vec<u8>>;
}
