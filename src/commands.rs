//! What each `duelsim` subcommand does, as library functions the binary calls.
//!
//! `run` loads and validates every scenario before any output folder is touched, runs the
//! points on a rayon pool of the asked size, and writes the outputs atomically. `check`
//! validates and tells what would run. `trace` narrates one trial with every die labelled.
//! `rulesets` lists rulesets and their parameters. Argument parsing lives in `main.rs`.

use crate::dice::{Dice, FastDice, ScriptedDice};
use crate::log::Log;
use crate::report::{self, RunResult};
use crate::rules::{self, Ruleset};
use crate::scenario::error::{InputError, unknown_name};
use crate::scenario::{self, Scenario};
use crate::stats::Tally;
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::cell::RefCell;
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

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
    /// No progress bar and no closing line.
    pub quiet: bool,
}

fn load_all(paths: &[PathBuf], trials: Option<u64>, seed: Option<u64>) -> Result<Vec<Scenario>> {
    paths
        .iter()
        .map(|p| {
            let mut s = scenario::load(p)?;
            if let Some(t) = trials {
                s.trials = t;
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
    if let Ok(style) = ProgressStyle::with_template(
        "{msg} [{bar:30}] {human_pos}/{human_len} trials  {rate}  ETA {eta}",
    ) {
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

/// `duelsim run`: runs every scenario and writes its reports. Returns the output folders.
pub fn run(options: &RunOptions) -> Result<Vec<PathBuf>> {
    if options.trials == Some(0) {
        return Err(InputError::plain("--trials: expected at least 1 trial, found 0").into());
    }
    let scenarios = load_all(&options.scenarios, options.trials, options.seed)?;
    let threads = options
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        return Err(InputError::plain("--threads: expected at least 1, found 0").into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    let mut folders = Vec::new();
    for scenario in &scenarios {
        let dir = match (&options.output, scenarios.len()) {
            (Some(dir), 1) => dir.clone(),
            (Some(dir), _) => dir.join(&scenario.name),
            (None, _) => Path::new("reports").join(&scenario.name),
        };
        let total = scenario.trials * scenario.points.len() as u64;
        let bar = progress_bar(total, options.quiet);
        bar.set_message(scenario.name.clone());
        let started = Instant::now();
        let tallies: Vec<Tally> = pool.install(|| {
            scenario
                .points
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    crate::engine::run_model(
                        &p.model,
                        scenario.seed,
                        i as u64,
                        scenario.trials,
                        &bar,
                    )
                })
                .collect()
        });
        let duration = started.elapsed();
        bar.finish_and_clear();
        let result = RunResult {
            scenario,
            tallies,
            threads,
            duration,
        };
        report::write_all(&result, &dir)?;
        if !options.quiet {
            println!(
                "{}: {} trials in {:.2} s, {:.0} trials/s, {} threads -> {}",
                scenario.name,
                result.total_trials(),
                duration.as_secs_f64(),
                result.trials_per_second(),
                threads,
                dir.display()
            );
        }
        folders.push(dir);
    }
    Ok(folders)
}

/// `duelsim check`: validates every scenario and describes what `run` would do.
pub fn check(paths: &[PathBuf]) -> Result<String> {
    let scenarios = load_all(paths, None, None)?;
    let mut out = String::new();
    for s in &scenarios {
        let names = s.points[0].model.names();
        let _ = writeln!(
            out,
            "{}: ok: '{}' ({}), {} vs {}, {} point(s) x {} trials = {} trials, seed {}",
            s.path.display(),
            s.name,
            s.ruleset,
            names[0],
            names[1],
            s.points.len(),
            s.trials,
            s.trials * s.points.len() as u64,
            s.seed
        );
    }
    Ok(out)
}

/// Options of `duelsim trace`.
#[derive(Clone, Debug, Default)]
pub struct TraceOptions {
    /// The scenario file.
    pub scenario: PathBuf,
    /// Seed of the dice when no `dice` are given; the scenario's seed when absent.
    pub seed: Option<u64>,
    /// Which point of a sweep.
    pub point: usize,
    /// Die results to replay, in the order the trace prints them.
    pub dice: Option<Vec<u32>>,
}

/// Dice that narrate every roll into the trace, numbered as `--dice` replays them.
struct TraceDice<'a, D> {
    inner: D,
    lines: &'a RefCell<Vec<String>>,
    results: Vec<u32>,
}

impl<D: Dice> Dice for TraceDice<'_, D> {
    fn d(&mut self, sides: u32, label: &'static str) -> u32 {
        let value = self.inner.d(sides, label);
        let n = self.results.len() + 1;
        if self.inner.exhausted() {
            self.lines
                .borrow_mut()
                .push(format!("    die #{n}: {label}: no result given"));
        } else {
            self.results.push(value);
            self.lines
                .borrow_mut()
                .push(format!("    die #{n}: {label} = {value}"));
        }
        value
    }

    fn pair(&mut self, sides: u32, first: &'static str, second: &'static str) -> (u32, u32) {
        let (a, b) = self.inner.pair(sides, first, second);
        let n = self.results.len() + 1;
        if self.inner.exhausted() {
            self.lines.borrow_mut().push(format!(
                "    dice #{n} and #{}: {first}, {second}: not enough results given",
                n + 1
            ));
        } else {
            self.results.extend([a, b]);
            let mut lines = self.lines.borrow_mut();
            lines.push(format!("    die #{n}: {first} = {a}"));
            lines.push(format!("    die #{}: {second} = {b}", n + 1));
        }
        (a, b)
    }

    fn exhausted(&self) -> bool {
        self.inner.exhausted()
    }
}

/// The narration half of the trace, sharing the dice's lines so both stay in order.
struct TraceLog<'a> {
    lines: &'a RefCell<Vec<String>>,
}

impl Log for TraceLog<'_> {
    const ON: bool = true;
    fn say(&mut self, line: impl FnOnce() -> String) {
        self.lines.borrow_mut().push(line());
    }
}

fn trace_with<R: Ruleset, D: Dice>(model: &R, dice: D) -> (Vec<String>, Vec<u32>, D) {
    let lines = RefCell::new(Vec::new());
    let mut traced = TraceDice {
        inner: dice,
        lines: &lines,
        results: Vec::new(),
    };
    let mut log = TraceLog { lines: &lines };
    let mut tally = Tally::new(model.shape());
    model.trial(&mut traced, &mut log, &mut tally);
    let TraceDice { inner, results, .. } = traced;
    (lines.into_inner(), results, inner)
}

/// `duelsim trace`: one trial narrated blow by blow. Scripted dice that run out or do not fit
/// are an input error (exit 2) reported after the narration so far.
pub fn trace(options: &TraceOptions) -> Result<String> {
    let scenario = scenario::load(&options.scenario)?;
    let Some(point) = scenario.points.get(options.point) else {
        return Err(InputError::plain(format!(
            "--point: expected 0 to {}, found {}",
            scenario.points.len() - 1,
            options.point
        ))
        .into());
    };
    let seed = options.seed.unwrap_or(scenario.seed);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "trace of '{}' ({}), point {}",
        scenario.name, scenario.ruleset, options.point
    );
    let (lines, used, problem) = match &options.dice {
        Some(given) => {
            let _ = writeln!(out, "dice: the {} given results", given.len());
            let (lines, used, dice) = crate::with_model!(&point.model, m => trace_with(m, ScriptedDice::new(given.clone())));
            (lines, used, dice.finish().err())
        }
        None => {
            let _ = writeln!(out, "dice: seed {seed}");
            let (lines, used, _) =
                crate::with_model!(&point.model, m => trace_with(m, FastDice::seed_from_u64(seed)));
            (lines, used, None)
        }
    };
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
    let replay: Vec<String> = used.iter().map(u32::to_string).collect();
    let _ = writeln!(
        out,
        "dice used ({}): --dice {}",
        used.len(),
        replay.join(",")
    );
    if let Some(problem) = problem {
        print!("{out}");
        return Err(InputError::plain(format!("--dice: {problem}")).into());
    }
    if let Some(given) = &options.dice
        && given.len() > used.len()
    {
        let _ = writeln!(
            out,
            "note: {} given result(s) were not needed",
            given.len() - used.len()
        );
    }
    Ok(out)
}

/// `duelsim rulesets [ID]`: the rulesets, or one ruleset's parameters with their defaults.
pub fn rulesets(id: Option<&str>) -> Result<String> {
    let mut out = String::new();
    let Some(id) = id else {
        for r in rules::RULESETS {
            let state = if r.implemented {
                ""
            } else {
                "  (not implemented yet)"
            };
            let _ = writeln!(out, "{:<14} {}{state}", r.id, r.summary);
        }
        return Ok(out);
    };
    let Some(info) = rules::RULESETS.iter().find(|r| r.id == id) else {
        return Err(InputError::plain(unknown_name("ruleset", id, &rules::ids())).into());
    };
    let Some(parameters) = rules::parameters(info.id) else {
        return Err(InputError::plain(format!(
            "the ruleset '{id}' is not implemented in this version of duelsim"
        ))
        .into());
    };
    let _ = writeln!(out, "{}: {}", info.id, info.summary);
    let mut section = "";
    for p in parameters {
        if p.section != section {
            section = p.section;
            let _ = writeln!(out, "\n[{section}]");
        }
        let _ = writeln!(out, "  {:<22} = {:<12} {}", p.key, p.default, p.doc);
    }
    Ok(out)
}
