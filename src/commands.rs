//! What each `duelsim` subcommand does, as library functions the binary calls.
//!
//! `run` loads and validates every scenario before any output folder is touched, runs the
//! points on a rayon pool of the asked size, and writes the outputs atomically. `check`
//! validates and tells what would run. `trace` narrates one trial with every die labelled.
//! `rulesets` lists rulesets and their parameters. Argument parsing lives in `main.rs`.

use crate::dice::{Dice, FastDice, ScriptedDice};
use crate::engine::{Budget, Shard};
use crate::journal::Journal;
use crate::log::Log;
use crate::report::{self, RunResult};
use crate::rules::registry::{self, Registry, Scenario};
use crate::rules::{self, Ruleset};
use crate::scenario::error::{InputError, unknown_name};
use crate::stats::Tally;
use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    /// Keep the finished points of an interrupted run into the same folder.
    pub resume: bool,
    /// Run one slice of every point's chunks (`--shard K/N`), for `merge` to combine.
    pub shard: Option<Shard>,
}

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

/// Raised by Ctrl-C: workers finish their chunk and the run keeps its finished points.
static STOP: AtomicBool = AtomicBool::new(false);

/// Installs the Ctrl-C handler once: the first Ctrl-C asks the run to stop cleanly, a second
/// one ends the process at once.
fn catch_ctrl_c() {
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

/// How often the partial outputs of a long run are rewritten.
const PARTIAL_EVERY: Duration = Duration::from_secs(10);

/// The most worker threads a run starts (`--threads`).
pub const MAX_THREADS: usize = 1024;

/// `duelsim run`: runs every scenario and writes its reports. Returns the output folders.
pub fn run(options: &RunOptions) -> Result<Vec<PathBuf>> {
    if options.trials == Some(0) {
        return Err(InputError::plain("--trials: expected at least 1 trial, found 0").into());
    }
    let scenarios = load_all(&options.scenarios, options.trials, options.seed)?;
    let threads = options.threads.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS))
    });
    if threads == 0 || threads > MAX_THREADS {
        return Err(InputError::plain(format!(
            "--threads: expected 1 to {MAX_THREADS}, found {threads}"
        ))
        .into());
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    let dirs: Vec<PathBuf> = scenarios
        .iter()
        .map(|scenario| match (&options.output, scenarios.len()) {
            (Some(dir), 1) => dir.clone(),
            (Some(dir), _) => dir.join(&scenario.name),
            (None, _) => match options.shard {
                Some(shard) => Path::new("reports").join(format!(
                    "{}-shard-{}-of-{}",
                    scenario.name,
                    shard.index + 1,
                    shard.count
                )),
                None => Path::new("reports").join(&scenario.name),
            },
        })
        .collect();
    // Two scenarios of one name would write one folder, the second over the first.
    for (i, dir) in dirs.iter().enumerate() {
        if let Some(j) = dirs[..i].iter().position(|d| d == dir) {
            return Err(InputError::plain(format!(
                "{} and {} would both write {} (both are named '{}'); expected scenarios of different names in one run",
                scenarios[j].path.display(),
                scenarios[i].path.display(),
                dir.display(),
                scenarios[i].name
            ))
            .into());
        }
    }
    catch_ctrl_c();
    for (scenario, dir) in scenarios.iter().zip(&dirs) {
        run_one(scenario, dir, &pool, threads, options)?;
    }
    Ok(dirs)
}

/// Runs one scenario point by point, recording each finished point in the journal.
fn run_one(
    scenario: &Scenario,
    dir: &Path,
    pool: &rayon::ThreadPool,
    threads: usize,
    options: &RunOptions,
) -> Result<()> {
    if let (Some(shard), true) = (options.shard, options.resume)
        && report::shard::finished(dir, scenario, shard)
    {
        if !options.quiet {
            println!(
                "{}: shard {}/{} is already finished in {}; nothing to resume",
                scenario.name,
                shard.index + 1,
                shard.count,
                dir.display()
            );
        }
        return Ok(());
    }
    if let Some(balance) = &scenario.balance {
        return run_balance(scenario, balance, dir, pool, threads, options);
    }
    let shard = options.shard.unwrap_or(Shard::WHOLE);
    if options.shard.is_some() && scenario.precision.is_some() {
        return Err(InputError::plain(format!(
            "--shard: {} stops on [precision], which needs every chunk in order on one machine; expected a fixed trial count (give --trials N, or trials = N in the file)",
            scenario.path.display()
        ))
        .into());
    }
    crate::journal::remove_stale_temporaries(dir);
    let (journal, kept, discarded) = Journal::open(dir, scenario, shard, options.resume)?;
    let points = scenario.points.len();
    if !options.quiet {
        if options.resume && kept.is_empty() {
            eprintln!(
                "{}: --resume: no finished point to keep in {}; running all {points}",
                scenario.name,
                dir.display()
            );
        } else if options.resume {
            eprintln!(
                "{}: resuming: {} of {points} point(s) kept from the interrupted run",
                scenario.name,
                kept.len()
            );
        } else if discarded > 0 {
            eprintln!(
                "{}: starting over; the {discarded} finished point(s) of an interrupted run in {} are discarded (run with --resume to keep them)",
                scenario.name,
                dir.display()
            );
        }
    }
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
    let resumed = kept.len();
    let mut tallies = kept;
    let bar = progress_bar(budget.cap() * (points - resumed) as u64, options.quiet);
    let started = Instant::now();
    let mut last_written = Instant::now();
    let mut done_trials = 0;
    for i in resumed..points {
        bar.set_message(format!("{}: {i}/{points} points done", scenario.name));
        let point = &scenario.points[i];
        // A long point saves its finished prefix every PARTIAL_EVERY and when stopped, so a
        // resumed run goes on from there.
        let from = if options.resume {
            journal.prefix(i, point.model.shape())?
        } else {
            None
        };
        if let (Some((next, _)), false) = (&from, options.quiet) {
            eprintln!(
                "{}: resuming point {i} at chunk {next} of its interrupted run",
                scenario.name
            );
        }
        let mut latest: Option<(u64, Tally)> = None;
        let mut saved = Instant::now();
        let mut save_error = None;
        let mut save = |next: u64, tally: &Tally| {
            if saved.elapsed() >= PARTIAL_EVERY {
                if let Err(e) = journal.record_prefix(i, next, tally) {
                    save_error.get_or_insert(e);
                }
                saved = Instant::now();
            }
            latest = Some((next, tally.clone()));
        };
        let tally = pool.install(|| {
            crate::engine::run_model(
                &point.model,
                scenario.baseline_of(i),
                scenario.seed,
                budget,
                &bar,
                &STOP,
                crate::engine::Prefix {
                    from,
                    save: &mut save,
                },
            )
        });
        if let Some(e) = save_error {
            return Err(e);
        }
        let Some(tally) = tally else {
            if let Some((next, prefix)) = &latest {
                journal.record_prefix(i, *next, prefix)?;
            }
            bar.finish_and_clear();
            let run = RunResult::of(scenario, tallies, threads, started.elapsed());
            report::write_partial(&run, dir)?;
            return Err(Interrupted {
                message: format!(
                    "{}: interrupted; kept {} of {points} point(s) in {} (and, with a fixed trial count, the finished chunks of the point under way); `duelsim run {}{} -o {} --resume` finishes the run",
                    scenario.name,
                    run.tallies.len(),
                    dir.display(),
                    scenario.path.display(),
                    options.shard.map_or_else(String::new, |s| format!(" --shard {}/{}", s.index + 1, s.count)),
                    dir.display()
                ),
            }
            .into());
        };
        journal.record(i, &tally)?;
        journal.drop_prefix(i);
        done_trials += tally.trials;
        // Precision may stop a point before its cap: the bar forgets the trials not needed.
        let left = budget.cap() * (points - i - 1) as u64;
        bar.set_length(done_trials + left);
        bar.set_position(done_trials);
        tallies.push(tally);
        if i + 1 < points && last_written.elapsed() >= PARTIAL_EVERY {
            let run = RunResult::of(
                scenario,
                std::mem::take(&mut tallies),
                threads,
                started.elapsed(),
            );
            report::write_partial(&run, dir)?;
            tallies = run.tallies;
            last_written = Instant::now();
        }
    }
    let duration = started.elapsed();
    bar.finish_and_clear();
    let result = RunResult::of(scenario, tallies, threads, duration);
    match options.shard {
        Some(shard) => report::shard::write(&result, shard, dir)?,
        None => {
            report::write_all(&result, dir)?;
        }
    }
    journal.finish()?;
    if !options.quiet {
        let shard_note = options.shard.map_or_else(String::new, |s| {
            format!(" (shard {}/{}: merge the shards)", s.index + 1, s.count)
        });
        let resumed_note = if resumed > 0 {
            format!(" ({resumed} point(s) resumed)")
        } else {
            String::new()
        };
        println!(
            "{}: {} point(s), {} trials in {:.2} s, {:.0} trials/s, {} threads{resumed_note}{shard_note} -> {}",
            scenario.name,
            points,
            done_trials,
            duration.as_secs_f64(),
            done_trials as f64 / duration.as_secs_f64().max(1e-9),
            threads,
            dir.display()
        );
    }
    Ok(())
}

/// Runs a `[balance]` search on one machine: each value the bisection asks for, on the same
/// dice, journaled as it finishes. Split over shards (`--shard K/N`), runs this shard's slice of
/// every value the search could ask for instead; `merge` then walks the bisection.
fn run_balance(
    scenario: &Scenario,
    balance: &crate::scenario::balance::Balance,
    dir: &Path,
    pool: &rayon::ThreadPool,
    threads: usize,
    options: &RunOptions,
) -> Result<()> {
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
                "{}: interrupted during the [balance] search; `duelsim run {}{} -o {} --resume` goes on from its finished evaluations",
                scenario.name,
                scenario.path.display(),
                options.shard.map_or_else(String::new, |s| format!(" --shard {}/{}", s.index + 1, s.count)),
                dir.display()
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
            println!(
                "{}: [balance] shard {}/{}: {} value(s) of {} run (merge the shards for the answer) -> {}",
                scenario.name,
                shard.index + 1,
                shard.count,
                plan.len(),
                balance.path,
                dir.display()
            );
        }
        return Ok(());
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
    report::balance::write(scenario, balance, evaluated, answer.clone(), ran, dir)?;
    journal.finish()?;
    if !options.quiet {
        println!("{}: {answer} -> {}", scenario.name, dir.display());
    }
    Ok(())
}

/// `duelsim merge`: adds the tallies of every shard of a split run and writes the outputs one
/// machine would have written. Returns the output folder.
pub fn merge(dirs: &[PathBuf], output: &Path, quiet: bool) -> Result<PathBuf> {
    let (name, trials) = report::shard::merge(dirs, output)?;
    if !quiet {
        println!(
            "{name}: merged {} shard(s), {trials} trials -> {}",
            dirs.len(),
            output.display()
        );
    }
    Ok(output.to_owned())
}

/// Reads `K/N` (1 <= K <= N) for `--shard`.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?)));
    match parsed {
        Some((k, n)) if 1 <= k && k <= n => Ok(Shard {
            index: k - 1,
            count: n,
        }),
        _ => Err(format!(
            "expected K/N with 1 <= K <= N (shard K of N), found '{text}'"
        )),
    }
}

/// Parameters as aligned columns under their section headings: key, default, meaning. A key
/// or default too long for its column puts the meaning on the next line, at its column.
fn aligned(listed: &[rules::Parameter]) -> String {
    const KEY_MAX: usize = 28;
    const DEFAULT_MAX: usize = 16;
    let key_width = listed
        .iter()
        .map(|p| p.key.len())
        .filter(|&n| n <= KEY_MAX)
        .max()
        .unwrap_or(0);
    let default_width = listed
        .iter()
        .map(|p| p.default.len())
        .filter(|&n| n <= DEFAULT_MAX)
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    let mut section = "";
    for p in listed {
        if p.section != section {
            section = p.section;
            let heading = if section.contains(' ') && !section.contains('/') {
                section.to_owned()
            } else {
                format!("[{section}]")
            };
            let _ = writeln!(out, "\n{heading}");
        }
        let line = format!("  {:<key_width$} = {:<default_width$}", p.key, p.default);
        if p.key.len() > key_width || p.default.len() > default_width {
            let _ = writeln!(out, "{}", line.trim_end());
            let _ = writeln!(
                out,
                "  {:width$}   {}",
                "",
                p.doc,
                width = key_width + default_width + 2
            );
        } else {
            let _ = writeln!(out, "{line}  {}", p.doc);
        }
    }
    out
}

/// The starter scenario of each ruleset: a shipped scenario that needs no catalogue.
const STARTERS: [(&str, &str, &str); 5] = [
    (
        "twin-d20",
        "scenarios/twin-d20/knight-vs-brigand.toml",
        include_str!("../scenarios/twin-d20/knight-vs-brigand.toml"),
    ),
    (
        "guard-pierce",
        "scenarios/guard-pierce/cudgel-vs-sword.toml",
        include_str!("../scenarios/guard-pierce/cudgel-vs-sword.toml"),
    ),
    (
        "zone-d100",
        "scenarios/zone-d100/broadsword-vs-spear.toml",
        include_str!("../scenarios/zone-d100/broadsword-vs-spear.toml"),
    ),
    (
        "wound-levels",
        "scenarios/wound-levels/bruiser-vs-fencer.toml",
        include_str!("../scenarios/wound-levels/bruiser-vs-fencer.toml"),
    ),
    (
        "d6-pool",
        "scenarios/d6-pool/berserker-vs-shieldwall.toml",
        include_str!("../scenarios/d6-pool/berserker-vs-shieldwall.toml"),
    ),
];

/// `duelsim new`: a commented starter scenario of a ruleset that runs as written, printed, or
/// written to `file` (never over an existing file). Its name is the file's stem.
pub fn new_scenario(ruleset: &str, file: Option<&Path>) -> Result<String> {
    let Some((id, source, text)) = STARTERS.iter().find(|(id, _, _)| *id == ruleset) else {
        let ids: Vec<&str> = STARTERS.iter().map(|(id, _, _)| *id).collect();
        return Err(InputError::plain(format!(
            "new: '{}' is not a ruleset; expected one of: {}",
            crate::scenario::error::one_line(ruleset, 60),
            ids.join(", ")
        ))
        .into());
    };
    let name = file
        .and_then(|f| f.file_stem())
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| {
            !s.is_empty()
                && !s.starts_with('.')
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        })
        .unwrap_or_else(|| format!("my-{id}-duel"));
    // The shipped file's own header comment gives way to the starter's; the first `name`
    // (the scenario's, before the fighters') takes the file's stem.
    let mut renamed = false;
    let body: String = text
        .lines()
        .skip_while(|l| l.starts_with('#'))
        .map(|l| {
            if !renamed && l.starts_with("name = \"") {
                renamed = true;
                format!("name = \"{name}\"")
            } else {
                l.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let starter = format!(
        "# A starter {id} scenario, copied from {source}.\n\
         # Two fighters, their weapons and armour, and the rules' constants: change what you\n\
         # like, then\n\
         #   duelsim check FILE    validates it and says what would run\n\
         #   duelsim run FILE      writes reports/<name>/ (tables, charts, report.html)\n\
         # `duelsim rulesets {id}` lists every [rules] and [healing] parameter with its default;\n\
         # docs/rules/{id}.md maps the rule text to them. Add a [sweep] to vary a value, [compare]\n\
         # to compare sweep points on the same dice, [weights] or [balance] (see the README).\n{body}\n"
    );
    if let Some(path) = file {
        if path.exists() {
            return Err(InputError {
                place: path.display().to_string(),
                field: None,
                message: "already exists; expected a new file name (nothing was written)".into(),
            }
            .into());
        }
        crate::journal::write_atomically(path, starter.as_bytes())?;
        return Ok(format!(
            "{} written: a {id} scenario named '{name}'\n",
            path.display()
        ));
    }
    Ok(starter)
}

/// `duelsim check`: validates every scenario and describes what `run` would do.
pub fn check(paths: &[PathBuf]) -> Result<String> {
    let scenarios = load_all(paths, None, None)?;
    let mut out = String::new();
    for s in &scenarios {
        let names = s.points[0].model.names();
        let n = s.points.len() as u64;
        let budget = match s.precision {
            Some(p) => format!(
                "{n} point(s) x up to {} trials (each until both win rates are within +/-{} at 95%) = up to {} trials",
                p.max_trials,
                p.half_width,
                p.max_trials * n
            ),
            None => format!(
                "{n} point(s) x {} trials = {} trials",
                s.trials,
                s.trials * n
            ),
        };
        let budget = match &s.balance {
            Some(b) => format!(
                "a [balance] search of {} from {} to {} for {} = {}: at most {} evaluations ({}), {budget}",
                b.path,
                b.label(b.from),
                b.label(b.to),
                crate::scenario::balance::TARGETS[b.rate],
                b.target,
                b.evaluations_at_most(),
                match b.shard_plan() {
                    Ok(plan) => format!(
                        "with --shard, each of its {} values on every shard",
                        plan.len()
                    ),
                    Err(_) => format!(
                        "too wide for --shard, which takes at most {} values",
                        crate::scenario::balance::SHARD_MAX_VALUES
                    ),
                }
            ),
            None => budget,
        };
        let _ = writeln!(
            out,
            "{}: ok: '{}' ({}), {} vs {}, {budget}, seed {}",
            s.path.display(),
            s.name,
            s.ruleset,
            names[0],
            names[1],
            s.seed
        );
        let axes: Vec<String> = s
            .swept_values()
            .iter()
            .map(|(path, values)| format!("{path} ({}: {})", values.len(), values.join(", ")))
            .collect();
        if !axes.is_empty() {
            let _ = writeln!(out, "  sweep: {}", axes.join(" x "));
        }
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
    /// Set at the first die with no valid result: the rules go on with a stand-in value, so
    /// nothing after it is narrated.
    stopped: &'a Cell<bool>,
    results: Vec<u32>,
}

impl<D: Dice> Dice for TraceDice<'_, D> {
    fn d(&mut self, sides: u32, label: &'static str) -> u32 {
        let value = self.inner.d(sides, label);
        let n = self.results.len() + 1;
        if self.stopped.get() {
            return value;
        }
        if self.inner.exhausted() {
            self.stopped.set(true);
            self.lines.borrow_mut().push(format!(
                "    die #{n}: {label}: no valid result given; the trace stops here"
            ));
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
        if self.stopped.get() {
            return (a, b);
        }
        if self.inner.exhausted() {
            self.stopped.set(true);
            self.lines.borrow_mut().push(format!(
                "    dice #{n} and #{}: {first}, {second}: not both given as valid results; the trace stops here",
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
    stopped: &'a Cell<bool>,
}

impl Log for TraceLog<'_> {
    const ON: bool = true;
    fn say(&mut self, line: impl FnOnce() -> String) {
        if !self.stopped.get() {
            self.lines.borrow_mut().push(line());
        }
    }
}

fn trace_with<R: Ruleset, D: Dice>(model: &R, dice: D) -> (Vec<String>, Vec<u32>, D) {
    let lines = RefCell::new(Vec::new());
    let stopped = Cell::new(false);
    let mut traced = TraceDice {
        inner: dice,
        lines: &lines,
        stopped: &stopped,
        results: Vec::new(),
    };
    let mut log = TraceLog {
        lines: &lines,
        stopped: &stopped,
    };
    let mut tally = Tally::new(model.shape());
    model.trial(&mut traced, &mut log, &mut tally);
    let TraceDice { inner, results, .. } = traced;
    (lines.into_inner(), results, inner)
}

/// `duelsim trace`: one trial narrated blow by blow. Scripted dice that run out or do not fit
/// are an input error (exit 2) reported after the narration so far.
pub fn trace(options: &TraceOptions) -> Result<String> {
    let scenario = registry::load(&options.scenario)?;
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
    let swept: Vec<String> = point
        .swept
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    let at = if swept.is_empty() {
        String::new()
    } else {
        format!(" ({})", swept.join(", "))
    };
    let _ = writeln!(
        out,
        "trace of '{}' ({}), point {}{at}",
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
        for r in registry::RULESETS {
            let _ = writeln!(out, "{:<14} {}", r.id, r.summary);
        }
        return Ok(out);
    };
    let Some(info) = registry::RULESETS.iter().find(|r| r.id == id) else {
        return Err(InputError::plain(unknown_name("ruleset", id, &registry::ids())).into());
    };
    let parameters = info.parameters;
    let _ = writeln!(out, "{}: {}", info.id, info.summary);
    // Every key a scenario can write, by table: the top level and the tables every ruleset
    // reads, then the ruleset's own.
    let shared =
        |section: &'static str, key: &'static str, default: &'static str, doc: &'static str| {
            rules::Parameter {
                section,
                key,
                default,
                doc,
            }
        };
    let mut listed = vec![
        shared(
            "top level",
            "name",
            "required",
            "the scenario's name; also its output folder's name",
        ),
        shared("top level", "ruleset", "required", "the ruleset's id"),
        shared(
            "top level",
            "description",
            "none",
            "free text shown in the report",
        ),
        shared(
            "top level",
            "seed",
            "1",
            "the seed every trial's dice derive from",
        ),
        shared(
            "top level",
            "trials",
            "100000",
            "trials per point (or [precision] decides)",
        ),
        shared(
            "top level",
            "round_limit",
            "50",
            "rounds before a duel is called a draw",
        ),
        shared(
            "top level",
            "catalogues",
            "[]",
            "catalogue files (paths from this file) with [weapons] and [armour] entries",
        ),
        shared(
            "top level",
            "kind",
            "\"duel\"",
            if info.recovery.is_some() {
                "\"duel\", or \"recovery\" (one patient healing: see below)"
            } else {
                "\"duel\""
            },
        ),
        shared(
            "analysis tables",
            "[sweep] \"<path>\"",
            "none",
            "[values] or { from, to, step }: one point per combination",
        ),
        shared(
            "analysis tables",
            "[compare] baseline",
            "first point",
            "{ \"<path>\" = value }: the point the others are compared with",
        ),
        shared(
            "analysis tables",
            "[weights] \"<path>\"",
            "none",
            "a step: what +step of each path is worth, on the same dice",
        ),
        shared(
            "analysis tables",
            "[balance] path / from / to / target",
            "none",
            "the value of path where a rate crosses target = { a_win_rate = 0.5 }",
        ),
        shared(
            "analysis tables",
            "[precision] half_width / max_trials",
            "none",
            "stop each point when both win rates are this precise",
        ),
    ];
    for p in parameters {
        if p.section == "a / b" && !listed.iter().any(|l| l.section == "a / b") {
            listed.push(shared(
                "a / b",
                "name",
                "\"a\" / \"b\"",
                "the fighter's name in the report and traces",
            ));
        }
        listed.push(*p);
    }
    if let Some(recovery) = info.recovery {
        listed.extend_from_slice(recovery.keys);
    }
    out.push_str(&aligned(&listed));
    if let Some(note) = info.listing_note {
        let _ = writeln!(out, "{}", note());
    }
    Ok(out)
}

/// `duelsim exact`: the exact distribution of one exchange each way (a on b, b on a) of the
/// scenario's first point, and the rulebook grid of its `[exact] grid`, written to `output` (or
/// `reports/<name>-exact`). Returns the folder.
pub fn exact(path: &Path, output: Option<&Path>, quiet: bool) -> Result<PathBuf> {
    use crate::stats::Side;
    let text = crate::scenario::error::read_text(path, "scenario file")?;
    let scenario = registry::parse(path, &text)?;
    let Some(first) = scenario.points.first() else {
        return Err(InputError::plain(format!("{}: no point to tabulate", path.display())).into());
    };
    let bad = |m: String| InputError::plain(format!("{}: exact: {m}", path.display()));
    let model = &first.model;
    let tables = [
        crate::rules::registry::exact_table(model, Side::A).map_err(bad)?,
        crate::rules::registry::exact_table(model, Side::B).map_err(bad)?,
    ];
    let names = model.names().map(str::to_owned);
    let source = crate::scenario::error::Source { path, text: &text };
    let mut grid_values = Vec::new();
    let grid = match crate::scenario::grid::read::<Registry>(&source)? {
        None => None,
        Some(g) => {
            let title = |k: usize| {
                g.axes.get(k).map_or_else(String::new, |(p, _)| {
                    report::charts::axis_title(p, model.names(), scenario.ruleset)
                })
            };
            let rows = &g.axes[0].1;
            let columns = g.axes.get(1).map_or(&[][..], |(_, v)| &v[..]);
            let cell_tables = crate::rules::registry::grid_tables(&g)?;
            let width = columns.len().max(1);
            let mut hit = Vec::new();
            for (r, &rv) in rows.iter().enumerate() {
                hit.push(
                    cell_tables[r * width..(r + 1) * width]
                        .iter()
                        .map(crate::exact::Table::hit)
                        .collect::<Vec<_>>(),
                );
                for c in 0..width {
                    let mut values = vec![rv];
                    values.extend(columns.get(c));
                    grid_values.push((values, r * width + c));
                }
            }
            let chart = report::charts::ExactGrid {
                rows_title: title(0),
                columns_title: title(1),
                rows: rows.iter().map(i64::to_string).collect(),
                columns: columns.iter().map(i64::to_string).collect(),
                hit,
                who: format!("{} attacks {}", names[0], names[1]),
            };
            let paths = g.axes.iter().map(|(p, _)| p.clone()).collect();
            Some((chart, cell_tables, paths))
        }
    };
    let dir = output.map_or_else(
        || Path::new("reports").join(format!("{}-exact", scenario.name)),
        Path::to_owned,
    );
    let cells = grid.as_ref().map_or(0, |g| g.1.len());
    let exact = report::exact::Exact {
        scenario: &scenario,
        names,
        tables,
        grid,
    };
    crate::journal::remove_stale_temporaries(&dir);
    report::exact::write(&exact, &grid_values, &dir)?;
    if !quiet {
        println!(
            "{}: one exchange each way, exactly ({} and {} die outcomes){} -> {}",
            scenario.name,
            exact.tables[0].outcomes,
            exact.tables[1].outcomes,
            if cells > 0 {
                format!(", and a grid of {cells} cells")
            } else {
                String::new()
            },
            dir.display()
        );
    }
    Ok(dir)
}
