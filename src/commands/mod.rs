//! What each `duelsim` subcommand does, as library functions the binary calls: one file per
//! command (`run.rs` with `merge`, `balance.rs`, `check.rs` with `new`, `trace.rs`,
//! `rulesets.rs`, `exact.rs`), and here what they share: the run's options, loading every
//! scenario first, the progress bar, and the clean stop on Ctrl-C. Argument parsing lives in
//! `main.rs`.

mod balance;
mod check;
mod completion;
mod exact;
mod manual;
mod rulesets;
mod run;
mod trace;

pub use check::{check, new_scenario};
pub use completion::bash_completion;
pub use manual::man_page;
pub use exact::exact;
pub use rulesets::rulesets;
pub use run::{MAX_THREADS, merge, parse_shard, run};
pub use trace::{TraceOptions, trace};

use crate::engine::Shard;
use crate::rules::registry::{self, Scenario};
use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

fn load_all(paths: &[PathBuf], trials: Option<u64>, seed: Option<u64>) -> Result<Vec<Scenario>> {
    paths
        .iter()
        .map(|p| {
            let mut s = registry::load(p)?;
            if let Some(t) = trials {
                s.trials = t;
                s.precision = None;
            }
            if let Some(seed) = seed {
                s.seed = seed;
            }
            Ok(s)
        })
        .collect()
}

fn progress_bar(total: u64, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{msg} [{bar:24}] {percent:>3}%  {rate}  ETA {eta}")
    {
        let style = style
            .with_key(
                "rate",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let _ = write!(w, "{:.0} trials/s", state.per_sec());
                },
            )
            .progress_chars("=> ");
        bar.set_style(style);
    }
    bar
}

/// Options of `duelsim run`.
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    /// Scenario files.
    pub scenarios: Vec<PathBuf>,
    /// Output folder; `reports/<name>` when absent. With several scenarios, each gets `<dir>/<name>`.
    pub output: Option<PathBuf>,
    /// Overrides the scenario's trials per point.
    pub trials: Option<u64>,
    /// Overrides the scenario's seed.
    pub seed: Option<u64>,
    /// Worker threads; all cores when absent.
    pub threads: Option<usize>,
    /// No progress bar and no closing line (stderr); the answer still goes to stdout.
    pub quiet: bool,
    /// Keep the finished points of an interrupted run into the same folder.
    pub resume: bool,
    /// Run one slice of every point's chunks (`--shard K/N`), for `merge` to combine.
    pub shard: Option<Shard>,
    /// Write the results as one JSON document on stdout instead of the answer in words.
    pub json: bool,
}

/// How an interrupted run goes on: the command that resumes it, with every option that
/// decides what it runs.
pub(crate) fn resume_command(scenario: &Scenario, dir: &Path, options: &RunOptions) -> String {
    let mut command = format!("duelsim run {}", scenario.path.display());
    if let Some(trials) = options.trials {
        command.push_str(&format!(" --trials {trials}"));
    }
    if let Some(seed) = options.seed {
        command.push_str(&format!(" --seed {seed}"));
    }
    if let Some(s) = options.shard {
        command.push_str(&format!(" --shard {}/{}", s.index + 1, s.count));
    }
    command.push_str(&format!(" -o {} --resume", dir.display()));
    command
}

/// Raised by Ctrl-C: workers finish their chunk and the run keeps its finished points.
static STOP: AtomicBool = AtomicBool::new(false);

/// Installs the Ctrl-C handler once: the first Ctrl-C asks the run to stop cleanly, a second
/// one ends the process at once.
pub(crate) fn catch_ctrl_c() {
    static INSTALLED: OnceLock<()> = OnceLock::new();
    INSTALLED.get_or_init(|| {
        let _ = ctrlc::set_handler(|| {
            if STOP.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    });
}

/// A run stopped by Ctrl-C; its finished points are kept (exit code 130).
#[derive(Debug)]
pub struct Interrupted {
    /// What was kept and how to go on.
    pub message: String,
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Interrupted {}
