//! `duelsim run` and `duelsim merge`: every scenario loaded and validated before any output
//! folder is touched, its points run on a rayon pool of the asked size with a progress bar,
//! journaled as they finish (so a stopped run resumes), partial outputs rewritten as it goes,
//! Ctrl-C kept clean; and the merge of a run split over shards.

use super::balance::run_balance;
use super::{Interrupted, RunOptions, STOP, catch_ctrl_c, load_all, progress_bar, resume_command};
use crate::engine::{Budget, Shard};
use crate::journal::Journal;
use crate::report::words::{counted, grouped};
use crate::report::{self, RunResult};
use crate::rules::registry::Scenario;
use crate::scenario::error::{InputError, terminal_safe};
use crate::stats::Tally;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

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
    let threads = worker_threads(options.threads)?;
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
    let mut answers = Vec::new();
    for (scenario, dir) in scenarios.iter().zip(&dirs) {
        match run_one(scenario, dir, &pool, threads, options) {
            Ok(answer) => answers.push(answer),
            Err(error) => {
                // A stopped --json run still says what finished and how to go on.
                if let (true, Some(stop)) = (options.json, error.downcast_ref::<Interrupted>()) {
                    let document = report::json::document(answers, Some(stop.json()));
                    println!("{}", serde_json::to_string_pretty(&document)?);
                }
                return Err(error);
            }
        }
    }
    if options.json {
        let document = report::json::document(answers, None);
        println!("{}", serde_json::to_string_pretty(&document)?);
    }
    Ok(dirs)
}

/// How many worker threads a run starts: `--threads`, else `DUELSIM_THREADS`, else
/// `RAYON_NUM_THREADS`, else every core; from 1 to [`MAX_THREADS`].
fn worker_threads(given: Option<usize>) -> Result<usize> {
    let in_range = |n: usize| (1..=MAX_THREADS).contains(&n);
    if let Some(n) = given {
        if !in_range(n) {
            return Err(InputError::plain(format!(
                "--threads: expected 1 to {MAX_THREADS}, found {n}"
            ))
            .into());
        }
        return Ok(n);
    }
    for variable in ["DUELSIM_THREADS", "RAYON_NUM_THREADS"] {
        let Some(value) = std::env::var_os(variable) else {
            continue;
        };
        let text = value.to_string_lossy();
        // rayon's own reading: empty or 0 means every core.
        if variable == "RAYON_NUM_THREADS" && matches!(text.trim(), "" | "0") {
            continue;
        }
        return match text.trim().parse::<usize>() {
            Ok(n) if in_range(n) => Ok(n),
            _ => Err(InputError::plain(format!(
                "{variable}: expected 1 to {MAX_THREADS}, found '{text}'"
            ))
            .into()),
        };
    }
    Ok(std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_THREADS)))
}

/// Runs one scenario point by point, recording each finished point in the journal; prints
/// its answer on stdout (unless `--json`, when it is returned for the JSON document).
fn run_one(
    scenario: &Scenario,
    dir: &Path,
    pool: &rayon::ThreadPool,
    threads: usize,
    options: &RunOptions,
) -> Result<serde_json::Value> {
    // Held to the end of the run: a second run into this folder is refused, not let clear
    // this one's journal.
    let _lock = crate::folder_lock::FolderLock::take(dir)?;
    if let (Some(shard), true) = (options.shard, options.resume)
        && report::shard::finished(dir, scenario, shard)
    {
        if !options.quiet {
            eprintln!(
                "{}: shard {}/{} is already finished in {}; nothing to resume",
                scenario.name,
                shard.index + 1,
                shard.count,
                dir.display()
            );
        }
        return Ok(report::json::shard(scenario, dir, shard));
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
                "{}: resuming: {} of {} kept from the interrupted run",
                scenario.name,
                kept.len(),
                counted(points as u64, "point", "points")
            );
        } else if discarded > 0 {
            eprintln!(
                "{}: starting over; the finished {} of an interrupted run in {} discarded (run with --resume to keep them)",
                scenario.name,
                counted(discarded as u64, "point", "points"),
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
    let kept_trials: u64 = kept.iter().map(|t| t.trials).sum();
    let mut tallies = kept;
    // A resumed run's bar starts at what the interrupted run finished; its rate and ETA come
    // from this run's own speed.
    let bar = progress_bar(
        kept_trials + budget.cap() * (points - resumed) as u64,
        options.quiet,
    );
    bar.set_position(kept_trials);
    bar.reset_eta();
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
            let resume = resume_command(dir, options);
            return Err(Interrupted {
                message: format!(
                    "{}: interrupted; kept {} of {} in {} (and, with a fixed trial count, the finished chunks of the point under way); `{resume}` finishes the run",
                    scenario.name,
                    run.tallies.len(),
                    counted(points as u64, "point", "points"),
                    dir.display(),
                ),
                scenario: scenario.name.clone(),
                resume,
            }
            .into());
        };
        journal.record(i, &tally)?;
        journal.drop_prefix(i);
        done_trials += tally.trials;
        // Precision may stop a point before its cap: the bar forgets the trials not needed.
        let left = budget.cap() * (points - i - 1) as u64;
        bar.set_length(kept_trials + done_trials + left);
        bar.set_position(kept_trials + done_trials);
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
    // A shard holds a slice of each point's trials: the merge compares whole points.
    if options.shard.is_none() {
        let swept: Vec<Vec<(String, String)>> =
            scenario.points.iter().map(|p| p.swept.clone()).collect();
        let tallies = &result.tallies;
        for warning in crate::scenario::sweep::unread(&swept, |p, q| tallies[p] == tallies[q]) {
            eprintln!("warning: {}: {}", scenario.name, terminal_safe(&warning));
        }
    }
    let answer = match options.shard {
        Some(shard) => {
            report::shard::write(&result, shard, dir)?;
            report::json::shard(scenario, dir, shard)
        }
        None => {
            report::write_all(&result, dir)?;
            if !options.json {
                print!("{}", terminal_safe(&report::answer::text(&result)));
            }
            report::json::points(&result, dir)
        }
    };
    journal.finish()?;
    if !options.quiet {
        let shard_note = options.shard.map_or_else(String::new, |s| {
            format!(" (shard {}/{}: merge the shards)", s.index + 1, s.count)
        });
        let resumed_note = if resumed > 0 {
            format!(" ({} resumed)", counted(resumed as u64, "point", "points"))
        } else {
            String::new()
        };
        eprintln!(
            "{}: {}, {} in {}, {}{resumed_note}{shard_note} -> {}",
            scenario.name,
            counted(points as u64, "point", "points"),
            counted(done_trials, "trial", "trials"),
            seconds_and_rate(done_trials, duration),
            counted(threads as u64, "thread", "threads"),
            dir.display()
        );
    }
    Ok(answer)
}

/// How long a run took, with its rate when it took long enough to measure one: "1.52 s,
/// 658,000 trials/s", or "under 0.01 s".
fn seconds_and_rate(trials: u64, duration: std::time::Duration) -> String {
    let seconds = duration.as_secs_f64();
    if seconds < 0.01 {
        return "under 0.01 s".to_owned();
    }
    format!(
        "{seconds:.2} s, {} trials/s",
        grouped((trials as f64 / seconds).round() as u64)
    )
}

/// `duelsim merge`: adds the tallies of every shard of a split run and writes the outputs one
/// machine would have written; prints the answer on stdout as `run` does, the closing line on
/// stderr. Returns the output folder.
pub fn merge(dirs: &[PathBuf], output: &Path, quiet: bool, json: bool) -> Result<PathBuf> {
    let merged = report::shard::merge(dirs, output)?;
    if json {
        let document = report::json::document(vec![merged.json], None);
        println!("{}", serde_json::to_string_pretty(&document)?);
    } else {
        print!("{}", terminal_safe(&merged.text));
    }
    if !quiet {
        eprintln!(
            "{}: merged {}, {} -> {}",
            merged.name,
            counted(dirs.len() as u64, "shard", "shards"),
            counted(merged.trials, "trial", "trials"),
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
        Some((_, n)) if n > crate::engine::MAX_SHARDS => Err(format!(
            "expected N at most {} (shards of a split), found '{text}'",
            crate::engine::MAX_SHARDS
        )),
        Some((k, n)) if 1 <= k && k <= n => Ok(Shard {
            index: k - 1,
            count: n,
        }),
        _ => Err(format!(
            "expected K/N with 1 <= K <= N (shard K of N), found '{text}'"
        )),
    }
}
