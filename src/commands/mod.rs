//! What each `duelsim` subcommand does, as library functions the binary calls: one file per
//! command (`run.rs` with `merge`, `balance.rs`, `check.rs` with `new`, `trace.rs`,
//! `rulesets.rs`, `exact.rs`), and here what they share (loading every scenario first, the
//! progress bar). Argument parsing lives in `main.rs`.

mod balance;
mod check;
mod exact;
mod rulesets;
mod run;
mod trace;

pub use check::{check, new_scenario};
pub use exact::exact;
pub use rulesets::rulesets;
pub use run::{Interrupted, MAX_THREADS, RunOptions, merge, parse_shard, run};
pub use trace::{TraceOptions, trace};

use crate::rules::registry::{self, Scenario};
use anyhow::Result;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;

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
