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

pub use check::{Tried, check, check_and_try, new_scenario};
pub use completion::bash_completion;
pub use exact::exact;
pub use manual::man_page;
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

/// A word as a POSIX shell reads it back: as it is when it holds only characters no shell
/// treats specially, else in single quotes (a quote inside written `'\''`).
pub(crate) fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:=,+@%".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The name, in an interrupted run's journal, of the copy of a scenario read from stdin.
const STDIN_COPY: &str = "stdin.toml";

/// How an interrupted run goes on: the command that resumes it, as a shell runs it (every word
/// quoted), with every file and every option of the run. A scenario read from stdin is kept in
/// the interrupted folder's journal (`dir`) and fed back from there.
pub(crate) fn resume_command(dir: &Path, options: &RunOptions) -> String {
    let mut words: Vec<String> = vec!["duelsim".into(), "run".into()];
    words.extend(
        options
            .scenarios
            .iter()
            .map(|p| shell_word(&p.to_string_lossy())),
    );
    let mut option = |flag: &str, value: Option<String>| {
        if let Some(value) = value {
            words.push(flag.to_owned());
            words.push(shell_word(&value));
        }
    };
    option("--trials", options.trials.map(|t| t.to_string()));
    option("--seed", options.seed.map(|s| s.to_string()));
    option("--threads", options.threads.map(|t| t.to_string()));
    option(
        "--shard",
        options
            .shard
            .map(|s| format!("{}/{}", s.index + 1, s.count)),
    );
    option(
        "-o",
        options
            .output
            .as_ref()
            .map(|o| o.to_string_lossy().into_owned()),
    );
    for (flag, on) in [("--json", options.json), ("-q", options.quiet)] {
        if on {
            words.push(flag.to_owned());
        }
    }
    words.push("--resume".to_owned());
    if options.scenarios.iter().any(|p| p.as_os_str() == "-") {
        let copy = dir.join(crate::journal::FOLDER).join(STDIN_COPY);
        let kept = crate::scenario::error::read_text(Path::new("-"), "scenario")
            .map_err(anyhow::Error::from)
            .and_then(|text| {
                std::fs::create_dir_all(dir.join(crate::journal::FOLDER))?;
                crate::journal::write_atomically(&copy, text.as_bytes())
            });
        if kept.is_ok() {
            words.push("<".to_owned());
            words.push(shell_word(&copy.to_string_lossy()));
        }
    }
    words.join(" ")
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
    /// The scenario's name.
    pub scenario: String,
    /// The command that finishes the run, as a shell runs it.
    pub resume: String,
}

impl Interrupted {
    /// What `--json` says of the stop: the scenario, what was kept, and the command that
    /// finishes the run.
    pub fn json(&self) -> serde_json::Value {
        serde_json::json!({
            "scenario": self.scenario,
            "message": self.message,
            "resume": self.resume,
        })
    }
}

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Interrupted {}
