//! The output of one shard of a run spread over machines (`run --shard K/N`), and `merge`,
//! which adds the shards' tallies into the outputs one machine would have written.
//!
//! A shard's folder holds `shard` (the run's identity, as the journal writes it, with the slice,
//! then the scenario file's path, the threads and the duration) and one `point-NNNNN.tally` per
//! point: exact integer tallies. Every chunk belongs to exactly one slice and tallies add
//! exactly, so the merged `summary.csv` and `distributions.csv` are byte-identical to a
//! single machine's. This module reads and writes those folders; it runs no trials.

use super::RunResult;
use crate::engine::Shard;
use crate::journal::{identity, point_file, sealed, unseal};
use crate::scenario::error::InputError;
use crate::scenario::fnv1a64_hex;
use crate::scenario::{self, Scenario};
use crate::stats::Tally;
use anyhow::Result;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The name of the file that says what a shard is.
pub const FILE: &str = "shard";

/// Writes a finished shard's tallies into `dir`.
pub fn write(run: &RunResult, shard: Shard, dir: &Path) -> Result<()> {
    let id = identity(run.scenario, shard);
    let description = format!(
        "{id}file {}\nthreads {}\nduration_s {}\n",
        run.scenario.path.display(),
        run.threads,
        run.duration.as_secs_f64()
    );
    let mut files = vec![(
        FILE.to_owned(),
        format!(
            "{description}digest {}\n",
            fnv1a64_hex(description.as_bytes())
        )
        .into_bytes(),
    )];
    for (i, tally) in run.tallies.iter().enumerate() {
        files.push((point_file(i), sealed(&id, i, tally).into_bytes()));
    }
    super::write(files, dir)?;
    Ok(())
}

/// A shard's folder, read.
#[derive(Debug)]
struct ShardDir {
    dir: PathBuf,
    identity: String,
    shard: Shard,
    file: PathBuf,
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
    let text = std::fs::read_to_string(dir.join(FILE)).map_err(|e| {
        bad(
            dir,
            format!("cannot read it ({e}); expected the folder of a `duelsim run --shard K/N`"),
        )
    })?;
    let Some(end) = text.find("\nfile ") else {
        return Err(bad(dir, "is not a shard description"));
    };
    let Some((description, digest)) = text.rsplit_once("digest ") else {
        return Err(bad(
            dir,
            "has no digest line; expected a shard description as duelsim writes it",
        ));
    };
    if digest.trim_end() != fnv1a64_hex(description.as_bytes()) {
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
        threads: value("threads")?.parse().unwrap_or(0),
        duration: Duration::from_secs_f64(
            value("duration_s")?
                .parse::<f64>()
                .unwrap_or(0.0)
                .clamp(0.0, 1e12),
        ),
    })
}

/// The scenario the shards ran, with the seed and trials they ran it with.
fn scenario_of(first: &ShardDir) -> Result<Scenario> {
    let mut scenario = scenario::load(&first.file).map_err(|e| {
        bad(
            &first.dir,
            format!(
                "names the scenario file {}, which cannot be read here ({e}); run merge where that path leads to the file",
                first.file.display()
            ),
        )
    })?;
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

/// Merges shard folders into the full outputs in `output`. Returns the scenario's name and the
/// trials merged.
pub fn merge(dirs: &[PathBuf], output: &Path) -> Result<(String, u64)> {
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
    let missing: Vec<String> = (0..count)
        .filter(|&k| seen[k as usize].is_none())
        .map(|k| format!("{}/{count}", k + 1))
        .collect();
    if !missing.is_empty() {
        return Err(InputError::plain(format!(
            "merge: missing shard(s) {}; expected all {count} shards of the split",
            missing.join(", ")
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
    let mut tallies = Vec::with_capacity(scenario.points.len());
    for (i, point) in scenario.points.iter().enumerate() {
        let mut sum = Tally::new(point.model.shape());
        for s in &shards {
            let path = s.dir.join(point_file(i));
            let part = unseal(&path, &s.identity, i, point.model.shape())?;
            sum.merge(&part);
        }
        tallies.push(sum);
    }
    let run = RunResult {
        scenario: &scenario,
        tallies,
        threads: shards.iter().map(|s| s.threads).sum(),
        duration: shards.iter().map(|s| s.duration).sum(),
        notes: Vec::new(),
        extra_files: Vec::new(),
    };
    crate::journal::remove_stale_temporaries(output);
    super::write_all(&run, output)?;
    Ok((scenario.name.clone(), run.total_trials()))
}
