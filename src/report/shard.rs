//! The output of one shard of a run spread over machines (`run --shard K/N`), and `merge`,
//! which adds the shards' tallies into the outputs one machine would have written.
//!
//! A shard's folder holds `shard` (the run's identity, as the journal writes it, with the slice,
//! then the scenario file's path, where its copy is, the threads and the duration), one
//! `point-NNNNN.tally` per point (exact integer tallies), and under `source/` the scenario text
//! and the catalogues it ran, laid out so the catalogue paths written in the scenario lead to
//! the copies. `merge` reads the scenario from that copy, so the shards need no shared path, and
//! the identity's hash of those texts must match every shard's. Every chunk belongs to exactly
//! one slice and tallies add exactly, so the merged `summary.csv` and `distributions.csv` are
//! byte-identical to a single machine's. This module reads and writes those folders; it runs
//! no trials.

use super::run::RunResult;
use crate::engine::Shard;
use crate::journal::{identity, point_file, sealed, unseal};
use crate::rules::registry::{self, Model, Scenario};
use crate::scenario::error::InputError;
use crate::scenario::sha256_hex;
use crate::stats::Tally;
use anyhow::Result;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The name of the file that says what a shard is.
pub const FILE: &str = "shard";

/// The folder of a shard that holds the scenario's texts.
const SOURCE: &str = "source";

/// The scenario text and its catalogues as files under [`SOURCE`]: the scenario sits as many
/// folders deep as its catalogue paths climb (`../../catalogues/x.toml` puts it two deep), so
/// each path written in it leads to its copy. Returns the scenario's copy's path and the files.
/// A catalogue named by an absolute path is not copied: merge reads it where it is.
fn source_files(scenario: &Scenario) -> (String, Vec<(String, Vec<u8>)>) {
    use std::path::Component;
    let climb = |written: &str| -> usize {
        let (mut level, mut lowest) = (0i64, 0i64);
        for part in Path::new(written).components() {
            match part {
                Component::ParentDir => level -= 1,
                Component::Normal(_) => level += 1,
                _ => {}
            }
            lowest = lowest.min(level);
        }
        (-lowest) as usize
    };
    let relative = |written: &&(String, String)| Path::new(&written.0).is_relative();
    let catalogues = &scenario.sources.catalogues;
    let depth = catalogues
        .iter()
        .filter(relative)
        .map(|c| climb(&c.0))
        .max()
        .unwrap_or(0);
    let mut folder: Vec<String> = vec![SOURCE.to_owned()];
    folder.extend((0..depth).map(|_| "up.duelsim".to_owned()));
    let name = scenario
        .path
        .file_name()
        .and_then(|n| n.to_str())
        .filter(|n| !n.starts_with('.'))
        .unwrap_or("scenario.toml");
    let at = format!("{}/{name}", folder.join("/"));
    let mut files = vec![(at.clone(), scenario.sources.text.clone().into_bytes())];
    for (written, text) in catalogues.iter().filter(relative) {
        let mut parts = folder.clone();
        for part in Path::new(written).components() {
            match part {
                Component::ParentDir => {
                    parts.pop();
                }
                Component::Normal(p) => parts.push(p.to_string_lossy().into_owned()),
                _ => {}
            }
        }
        files.push((parts.join("/"), text.clone().into_bytes()));
    }
    (at, files)
}

/// Writes a finished shard's tallies, and the texts it ran, into `dir`.
pub fn write(run: &RunResult, shard: Shard, dir: &Path) -> Result<()> {
    let id = identity(run.scenario, shard);
    let (copy, sources) = source_files(run.scenario);
    let description = format!(
        "{id}file {}\nsource {copy}\nthreads {}\nduration_s {}\n",
        run.scenario.path.display(),
        run.threads,
        run.duration.as_secs_f64()
    );
    let mut files = Vec::new();
    for (i, tally) in run.tallies.iter().enumerate() {
        files.push((point_file(i), sealed(&id, i, tally).into_bytes()));
    }
    files.extend(sources);
    // The description goes into place last: a shard with it is whole (a rerun with --resume
    // takes it as finished).
    files.push((
        FILE.to_owned(),
        format!(
            "{description}digest {}\n",
            sha256_hex(description.as_bytes())
        )
        .into_bytes(),
    ));
    super::files::write(files, dir)?;
    Ok(())
}

/// Whether `dir` already holds this shard of this run, finished: a rerun with `--resume` (a
/// requeued array task, a retried pod) then has nothing to do.
pub fn finished(dir: &Path, scenario: &Scenario, shard: Shard) -> bool {
    read(dir).is_ok_and(|s| s.identity == identity(scenario, shard))
}

/// The most missing shards an error names (it counts them all).
const MISSING_NAMED: usize = 10;

/// A shard's folder, read.
#[derive(Debug)]
struct ShardDir {
    dir: PathBuf,
    identity: String,
    shard: Shard,
    file: PathBuf,
    source: PathBuf,
    threads: usize,
    duration: Duration,
}

fn bad(dir: &Path, message: impl std::fmt::Display) -> anyhow::Error {
    InputError {
        place: dir.join(FILE).display().to_string(),
        field: None,
        message: message.to_string(),
    }
    .into()
}

fn read(dir: &Path) -> Result<ShardDir> {
    let text = crate::journal::read_capped(&dir.join(FILE), crate::journal::IDENTITY_CAP).map_err(
        |why| {
            bad(
                dir,
                format!(
                    "{}; expected the folder of a `duelsim run --shard K/N`",
                    why.unwrap_or_else(|| "cannot be read (no such file)".to_owned())
                ),
            )
        },
    )?;
    let Some(end) = text.find("\nfile ") else {
        return Err(bad(dir, "is not a shard description"));
    };
    let Some((description, digest)) = text.rsplit_once("digest ") else {
        return Err(bad(
            dir,
            "has no digest line; expected a shard description as duelsim writes it",
        ));
    };
    if digest.trim_end() != sha256_hex(description.as_bytes()) {
        return Err(bad(
            dir,
            "does not match its digest: it was changed; expected the description this shard's run wrote",
        ));
    }
    let identity = text[..=end].to_owned();
    let value = |key: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(key).and_then(|v| v.strip_prefix(' ')))
            .ok_or_else(|| bad(dir, format!("has no '{key}' line")))
    };
    let (k, n) = value("shard")?
        .split_once('/')
        .ok_or_else(|| bad(dir, "the 'shard' line is not K/N"))?;
    let (k, n): (u64, u64) = match (k.parse(), n.parse()) {
        (Ok(_), Ok(n)) if n > crate::engine::MAX_SHARDS => {
            return Err(bad(
                dir,
                format!(
                    "the 'shard' line splits the run into {n} shards; expected at most {}",
                    crate::engine::MAX_SHARDS
                ),
            ));
        }
        (Ok(k), Ok(n)) if 1 <= k && k <= n => (k, n),
        _ => return Err(bad(dir, "the 'shard' line is not K/N with 1 <= K <= N")),
    };
    Ok(ShardDir {
        dir: dir.to_owned(),
        identity,
        shard: Shard {
            index: k - 1,
            count: n,
        },
        file: PathBuf::from(value("file")?),
        source: dir.join(value("source")?),
        threads: value("threads")?.parse().unwrap_or(0),
        duration: Duration::from_secs_f64(
            value("duration_s")?
                .parse::<f64>()
                .unwrap_or(0.0)
                .clamp(0.0, 1e12),
        ),
    })
}

/// The scenario the shards ran, read from the copy the first carries, with the seed and trials
/// they ran it with (and the original path, for the report).
fn scenario_of(first: &ShardDir) -> Result<Scenario> {
    let mut scenario = registry::load(&first.source).map_err(|e| {
        bad(
            &first.dir,
            format!(
                "carries a copy of the scenario {} that cannot be read ({e}); expected the folder as `duelsim run --shard` wrote it",
                first.file.display()
            ),
        )
    })?;
    scenario.path = first.file.clone();
    let number = |key: &str| -> Result<u64> {
        first
            .identity
            .lines()
            .find_map(|l| l.strip_prefix(key).and_then(|v| v.strip_prefix(' ')))
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| bad(&first.dir, format!("has no '{key}' count")))
    };
    scenario.seed = number("seed")?;
    scenario.trials = number("trials")?;
    scenario.precision = None;
    Ok(scenario)
}

/// What a merge wrote: the scenario's name, the trials merged, the answer for the terminal (as
/// `run` prints it) and its RUN for `--json`.
pub struct Merged {
    /// The scenario's name.
    pub name: String,
    /// Trials merged, over every point.
    pub trials: u64,
    /// The answer in words.
    pub text: String,
    /// The RUN of `merge --json`.
    pub json: serde_json::Value,
}

/// Merges shard folders into the full outputs in `output`.
pub fn merge(dirs: &[PathBuf], output: &Path) -> Result<Merged> {
    let shards = dirs.iter().map(|d| read(d)).collect::<Result<Vec<_>>>()?;
    let Some(first) = shards.first() else {
        return Err(InputError::plain("merge: expected at least one shard folder").into());
    };
    let count = first.shard.count;
    let mut seen = vec![None; count as usize];
    for s in &shards {
        if s.shard.count != count {
            return Err(bad(
                &s.dir,
                format!(
                    "is shard {}/{} but {} is one of {count}; expected shards of one split",
                    s.shard.index + 1,
                    s.shard.count,
                    first.dir.display()
                ),
            ));
        }
        if let Some(other) = seen[s.shard.index as usize].replace(&s.dir) {
            return Err(bad(
                &s.dir,
                format!(
                    "is shard {}/{count}, as {} is; expected each shard once",
                    s.shard.index + 1,
                    other.display()
                ),
            ));
        }
    }
    // Counted, and the first few named: a split of many shards is not listed in full.
    let missing_count = seen.iter().filter(|s| s.is_none()).count();
    if missing_count > 0 {
        let named: Vec<String> = (0..count)
            .filter(|&k| seen[k as usize].is_none())
            .take(MISSING_NAMED)
            .map(|k| format!("{}/{count}", k + 1))
            .collect();
        let more = missing_count - named.len();
        let more = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        return Err(InputError::plain(format!(
            "merge: {} missing: {}{more}; expected all {count} shards of the split",
            super::words::counted(missing_count as u64, "shard", "shards"),
            named.join(", ")
        ))
        .into());
    }
    let scenario = scenario_of(first)?;
    for s in &shards {
        let expected = identity(&scenario, s.shard);
        if s.identity != expected {
            return Err(bad(
                &s.dir,
                format!(
                    "is a shard of other settings or another version of {} ({}); expected shards of one run",
                    first.file.display(),
                    crate::journal::identity_difference(&expected, &s.identity)
                ),
            ));
        }
    }
    let sum = |i: usize, model: &Model| -> Result<Tally> {
        let mut sum = Tally::new(model.shape());
        for s in &shards {
            let path = s.dir.join(point_file(i));
            let part = unseal(&path, &s.identity, i, model.shape())?;
            sum.merge(&part);
        }
        Ok(sum)
    };
    let threads = shards.iter().map(|s| s.threads).sum();
    let duration = shards.iter().map(|s| s.duration).sum();
    let _lock = crate::folder_lock::FolderLock::take(output)?;
    crate::journal::remove_stale_temporaries(output);
    if let Some(balance) = &scenario.balance {
        return merge_balance(&scenario, balance, sum, threads, duration, output);
    }
    let mut tallies = Vec::with_capacity(scenario.points.len());
    for (i, point) in scenario.points.iter().enumerate() {
        tallies.push(sum(i, &point.model)?);
    }
    let run = RunResult::of(&scenario, tallies, threads, duration);
    super::write_all(&run, output)?;
    Ok(Merged {
        name: scenario.name.clone(),
        trials: run.total_trials(),
        text: super::answer::text(&run),
        json: super::json::points(&run, output),
    })
}

/// Merges a split `[balance]` search: sums every value's slices, then walks the bisection one
/// machine walks over those sums, and writes what it would have written (for a real path, with
/// the split's fewer halvings, said in the answer). With a sweep, the same at each point: point
/// p's value k is the shards' file p * (values in the plan) + k.
fn merge_balance(
    scenario: &Scenario,
    balance: &crate::scenario::balance::Balance,
    sum: impl Fn(usize, &Model) -> Result<Tally>,
    threads: usize,
    duration: Duration,
    output: &Path,
) -> Result<Merged> {
    let plan = balance
        .shard_plan()
        .map_err(|m| InputError::plain(format!("merge: {m}")))?;
    let mut trials = 0;
    let mut searched = Vec::new();
    for (p, search) in balance.searches().iter().enumerate() {
        let mut merged = Vec::with_capacity(plan.len());
        for (k, &value) in plan.iter().enumerate() {
            let model = search.model_at::<registry::Registry>(value)?;
            let tally = sum(p * plan.len() + k, &model)?;
            merged.push((value, model, tally));
        }
        trials += merged.iter().map(|e| e.2.trials).sum::<u64>();
        let mut evaluated = Vec::new();
        let mut answer = search.search(search.real_steps(true), |value| {
            let Some(found) = merged.iter().find(|e| e.0.total_cmp(&value).is_eq()) else {
                return Err(InputError::plain(format!(
                    "merge: the search asked for {} = {value}, which the shards did not run",
                    balance.path
                )));
            };
            evaluated.push(found.clone());
            Ok(crate::scenario::balance::rate(&found.2, balance.rate))
        })?;
        if !balance.integer {
            answer.note = Some(format!(
                "split over shards: {} halvings of the range rather than {}",
                crate::scenario::balance::SHARD_REAL_STEPS,
                crate::scenario::balance::REAL_STEPS
            ));
        }
        let swept = match (balance.swept(), scenario.points.get(p)) {
            (true, Some(point)) => point.swept.clone(),
            _ => Vec::new(),
        };
        searched.push(super::balance::Searched {
            swept,
            evaluated,
            answer,
        });
    }
    let found: Vec<super::json::Found> = searched
        .iter()
        .map(|s| super::json::Found {
            swept: s.swept.clone(),
            answer: s.answer.value(),
        })
        .collect();
    let ran = super::balance::Ran { threads, duration };
    let words = super::balance::write(scenario, balance, searched, ran, output)?;
    Ok(Merged {
        name: scenario.name.clone(),
        trials,
        text: super::balance::terminal(scenario, balance, &words),
        json: super::json::balance(scenario, balance, &found, &words, output),
    })
}
