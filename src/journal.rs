//! The journal of a run in progress: each finished point's tally, kept so an interrupted run
//! can be resumed.
//!
//! The journal lives in `<output>/.partial/`: a `run` file saying exactly what is being run
//! (tool version, scenario hash, seed, trial budget, points, chunk size) and one
//! `point-NNNNN.tally` file per finished point, each written to a temporary file and renamed,
//! so a kill at any instant leaves whole files only. `--resume` keeps the points of a journal
//! whose `run` file matches and runs the rest; the tallies are exact integers, so the finished
//! files are byte-identical to those of a run never interrupted. A finished run removes its
//! journal.
//!
//! Every tally file opens with a digest of the run's identity, its point and its content
//! ([`sealed`]): a file edited by hand, or copied from another run, point or shard, no longer
//! matches and is refused ([`unseal`]) rather than merged into wrong numbers.

use crate::engine::{CHUNK_TRIALS, Shard};
use crate::rules::registry::Scenario;
use crate::scenario::error::InputError;
use crate::scenario::sha256_hex;
use crate::stats::{Tally, TallyShape};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// The journal folder's name inside the output folder.
pub const FOLDER: &str = ".partial";

/// An open journal.
#[derive(Debug)]
pub struct Journal {
    dir: PathBuf,
    identity: String,
}

/// What identifies a run: resuming is allowed only into a journal with the same identity, and
/// shards merge only with shards of the same identity.
pub fn identity(scenario: &Scenario, shard: Shard) -> String {
    let budget = match scenario.precision {
        Some(p) => format!("precision {} max_trials {}", p.half_width, p.max_trials),
        None => format!("trials {}", scenario.trials),
    };
    format!(
        "duelsim {}\nscenario {} {}\nseed {}\n{budget}\npoints {}\nchunk_trials {CHUNK_TRIALS}\nshard {}/{}\n",
        env!("CARGO_PKG_VERSION"),
        scenario.name,
        scenario.source_hash,
        scenario.seed,
        scenario.points.len(),
        shard.index + 1,
        shard.count,
    )
}

impl Journal {
    /// Opens the journal of a run into `output`. With `resume`, returns the tallies of the
    /// points an earlier run finished (a prefix of the points); without, discards any journal
    /// there and returns how many points it had.
    pub fn open(
        output: &Path,
        scenario: &Scenario,
        shard: Shard,
        resume: bool,
    ) -> Result<(Journal, Vec<Tally>, usize)> {
        remove_stale_temporaries(output);
        let dir = output.join(FOLDER);
        // A journal that is a symlink would write through it wherever it points.
        if std::fs::symlink_metadata(&dir).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(InputError {
                place: dir.display().to_string(),
                field: None,
                message: "is a symbolic link; expected the journal folder duelsim writes (a plain folder), or none".to_owned(),
            }
            .into());
        }
        let identity = identity(scenario, shard);
        let run_file = dir.join("run");
        let mut kept = Vec::new();
        let mut discarded = 0;
        let run_text = match read_capped(&run_file, IDENTITY_CAP) {
            // Only a run that resumes needs to read it: any other clears the journal.
            Err(Some(why)) if resume => {
                return Err(InputError {
                    place: run_file.display().to_string(),
                    field: None,
                    message: format!("{why}; expected the journal of a run duelsim wrote"),
                }
                .into());
            }
            Err(Some(_)) => Ok(String::new()),
            Err(None) => Err(()),
            Ok(text) => Ok(text),
        };
        match run_text {
            Ok(found) if resume => {
                if found != identity {
                    return Err(InputError::plain(format!(
                        "--resume: the interrupted run in {} was of other settings or another version of the scenario file ({}); run without --resume to start over",
                        output.display(),
                        identity_difference(&identity, &found)
                    ))
                    .into());
                }
                // A [balance] search reads its evaluations itself, each with its own shape.
                let kept_points = if scenario.balance.is_some() {
                    &scenario.points[..0]
                } else {
                    &scenario.points[..]
                };
                for (i, point) in kept_points.iter().enumerate() {
                    let path = dir.join(point_file(i));
                    if !path.exists() {
                        break;
                    }
                    kept.push(unseal(&path, &identity, i, point.model.shape())?);
                }
            }
            Ok(_) => {
                discarded = count_points(&dir);
                std::fs::remove_dir_all(&dir)
                    .with_context(|| format!("cannot clear {}", dir.display()))?;
            }
            Err(_) => {}
        }
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        write_atomically(&run_file, identity.as_bytes())?;
        Ok((Journal { dir, identity }, kept, discarded))
    }

    /// Records a finished point.
    pub fn record(&self, point: usize, tally: &Tally) -> Result<()> {
        self.record_keyed(point, "", tally)
    }

    /// Records a finished `[balance]` evaluation as file `point`, sealed with `key` as well
    /// (the sweep point and the value it ran: `point 3 b.melee_ml = 50`), so that a file is
    /// taken back only for that point and value. An empty key seals as [`Journal::record`].
    pub fn record_keyed(&self, point: usize, key: &str, tally: &Tally) -> Result<()> {
        write_atomically(
            &self.dir.join(point_file(point)),
            sealed(&keyed(&self.identity, key), point, tally).as_bytes(),
        )
    }

    /// The tally a run into this journal recorded for point `point` (a `[balance]` evaluation),
    /// if there is one; a file that does not match its digest is an input error naming it.
    pub fn recorded(&self, point: usize, shape: TallyShape) -> Result<Option<Tally>> {
        self.recorded_keyed(point, "", shape)
    }

    /// [`Journal::recorded`] of a file written by [`Journal::record_keyed`] with `key`: one
    /// sealed with another key (another sweep point or value) is refused.
    pub fn recorded_keyed(
        &self,
        point: usize,
        key: &str,
        shape: TallyShape,
    ) -> Result<Option<Tally>> {
        let path = self.dir.join(point_file(point));
        if !path.exists() {
            return Ok(None);
        }
        unseal(&path, &keyed(&self.identity, key), point, shape).map(Some)
    }

    /// Records the finished prefix of a long point: the chunks before `next_chunk`.
    pub fn record_prefix(&self, point: usize, next_chunk: u64, tally: &Tally) -> Result<()> {
        let id = format!("{}prefix {next_chunk}\n", self.identity);
        write_atomically(
            &self.dir.join(prefix_file(point)),
            format!("chunks {next_chunk}\n{}", sealed(&id, point, tally)).as_bytes(),
        )
    }

    /// The saved prefix of a point (the next chunk and the tally before it), if there is one;
    /// one that does not match its digest is an input error naming it.
    pub fn prefix(&self, point: usize, shape: TallyShape) -> Result<Option<(u64, Tally)>> {
        let path = self.dir.join(prefix_file(point));
        let text = match read_capped(&path, shape.text_cap() + 4096) {
            Ok(text) => text,
            Err(None) => return Ok(None),
            Err(Some(why)) => {
                return Err(InputError {
                    place: path.display().to_string(),
                    field: None,
                    message: format!("{why}; expected a prefix as duelsim writes it"),
                }
                .into());
            }
        };
        let (first, rest) = text.split_once('\n').unwrap_or((&text, ""));
        let Some(next) = first
            .strip_prefix("chunks ")
            .and_then(|n| n.parse::<u64>().ok())
        else {
            return Err(InputError {
                place: path.display().to_string(),
                field: None,
                message: "has no chunk count; expected a prefix as duelsim writes it".to_owned(),
            }
            .into());
        };
        // Check the digest through a file of the sealed part alone.
        let id = format!("{}prefix {next}\n", self.identity);
        let tally = unseal_text(&path, rest, &id, point, shape)?;
        Ok(Some((next, tally)))
    }

    /// Forgets a point's prefix once the point is whole.
    pub fn drop_prefix(&self, point: usize) {
        let _ = std::fs::remove_file(self.dir.join(prefix_file(point)));
    }

    /// Removes the journal of a finished run.
    pub fn finish(self) -> Result<()> {
        std::fs::remove_dir_all(&self.dir)
            .with_context(|| format!("cannot remove {}", self.dir.display()))
    }
}

/// A run's identity with an evaluation's key after it (itself when the key is empty).
fn keyed(identity: &str, key: &str) -> String {
    if key.is_empty() {
        identity.to_owned()
    } else {
        format!("{identity}evaluation {key}\n")
    }
}

/// Reads a file duelsim wrote into a journal or shard folder: a regular file (a symlink to
/// one is followed) of at most `cap` bytes, in UTF-8. A folder, a device such as `/dev/zero`,
/// a FIFO (never opened, so never waited on) or a larger file is refused: the message says
/// why. `Err(None)` when there is no such file.
pub fn read_capped(path: &Path, cap: u64) -> std::result::Result<String, Option<String>> {
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(None),
        Err(e) => return Err(Some(format!("cannot be read ({e})"))),
    };
    if !meta.is_file() {
        return Err(Some(
            "is not a regular file (a folder, device, FIFO or socket)".to_owned(),
        ));
    }
    if meta.len() > cap {
        return Err(Some(format!(
            "is {} bytes, more than the {cap} a file of this kind can hold",
            meta.len()
        )));
    }
    let mut bytes = Vec::new();
    let file = std::fs::File::open(path).map_err(|e| Some(format!("cannot be read ({e})")))?;
    std::io::Read::read_to_end(&mut std::io::Read::take(file, cap + 1), &mut bytes)
        .map_err(|e| Some(format!("cannot be read ({e})")))?;
    if bytes.len() as u64 > cap {
        return Err(Some(format!(
            "grew past the {cap} bytes a file of this kind can hold while read"
        )));
    }
    String::from_utf8(bytes).map_err(|_| Some("is not UTF-8 text".to_owned()))
}

/// The most bytes a run's identity file (`run`, or a shard's description) can hold: its
/// settings and the texts of the scenario file and its catalogues, each at most 16 MiB.
pub const IDENTITY_CAP: u64 = 4 * crate::scenario::error::MAX_FILE_BYTES + (1 << 20);

/// The digest of a tally file: the run's identity, the point and the tally's text.
fn digest(identity: &str, point: usize, body: &str) -> String {
    sha256_hex(format!("{identity}point {point}\n{body}").as_bytes())
}

/// A tally file's text: `digest <hex>`, then the tally.
pub fn sealed(identity: &str, point: usize, tally: &Tally) -> String {
    let body = tally.to_text();
    format!("digest {}\n{body}", digest(identity, point, &body))
}

/// Reads a tally file written by [`sealed`] for this run and point; a missing file, one whose
/// digest does not match, or one that is not a whole tally is an input error naming it.
pub fn unseal(path: &Path, identity: &str, point: usize, shape: TallyShape) -> Result<Tally> {
    let text = read_capped(path, shape.text_cap() + 4096).map_err(|why| -> anyhow::Error {
        InputError {
            place: path.display().to_string(),
            field: None,
            message: format!(
                "{}; expected the tally of point {point} this run wrote",
                why.unwrap_or_else(|| "cannot be read (no such file)".to_owned())
            ),
        }
        .into()
    })?;
    unseal_text(path, &text, identity, point, shape)
}

/// [`unseal`] of text already read from `path`.
fn unseal_text(
    path: &Path,
    text: &str,
    identity: &str,
    point: usize,
    shape: TallyShape,
) -> Result<Tally> {
    let refuse = |message: String| -> anyhow::Error {
        InputError {
            place: path.display().to_string(),
            field: None,
            message,
        }
        .into()
    };
    let (first, body) = text.split_once('\n').unwrap_or((text, ""));
    let Some(found) = first.strip_prefix("digest ") else {
        return Err(refuse(format!(
            "has no digest line; expected the tally of point {point} as duelsim writes it"
        )));
    };
    if found != digest(identity, point, body) {
        return Err(refuse(format!(
            "does not match its digest: it was changed, or belongs to another run, point or shard; expected the tally of point {point} this run wrote"
        )));
    }
    Tally::from_text(body, shape)
        .ok_or_else(|| refuse(format!("is not a whole tally of point {point}")))
}

/// What differs between two run identities, in one line: "seed: 5 here, 300 there; ...".
pub fn identity_difference(here: &str, there: &str) -> String {
    let split = |line: &str| {
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        (key.to_owned(), value.to_owned())
    };
    let theirs: Vec<(String, String)> = there.lines().map(split).collect();
    let mut differences = Vec::new();
    for (key, value) in here.lines().map(split) {
        match theirs.iter().find(|(k, _)| *k == key) {
            Some((_, other)) if *other == value => {}
            Some((_, other)) => differences.push(format!("{key}: {value} here, {other} there")),
            None => differences.push(format!("{key}: {value} here, none there")),
        }
    }
    if differences.is_empty() {
        "the descriptions differ".to_owned()
    } else {
        differences.join("; ")
    }
}

/// The file of the finished prefix of a long point in the journal.
pub fn prefix_file(point: usize) -> String {
    format!("point-{point:05}.prefix")
}

/// The file of one point's tally, in a journal or a shard's output.
pub fn point_file(point: usize) -> String {
    format!("point-{point:05}.tally")
}

fn count_points(dir: &Path) -> usize {
    std::fs::read_dir(dir).map_or(0, |entries| {
        entries
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tally"))
            .count()
    })
}

/// The most names [`create_temporary`] tries for one file before it gives up.
const TEMPORARY_TRIES: u32 = 64;

/// Creates the hidden temporary file beside `path` that is renamed onto it once written:
/// `.name.duelsim-PID.tmp`, or `.name.duelsim-PID-K.tmp` when that name is taken. It is
/// created exclusively: never through a symlink planted at its name, never onto a file already
/// there.
pub fn create_temporary(path: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let pid = std::process::id();
    let mut taken = None;
    for k in 1..=TEMPORARY_TRIES {
        let file = if k == 1 {
            format!(".{name}.duelsim-{pid}.tmp")
        } else {
            format!(".{name}.duelsim-{pid}-{k}.tmp")
        };
        let candidate = path.with_file_name(file);
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&candidate)
        {
            Ok(opened) => return Ok((candidate, opened)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => taken = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(taken.unwrap_or_else(|| std::io::Error::other("no temporary name is free")))
}

/// The process that wrote a temporary file named by [`create_temporary`], if the name is one.
fn temporary_owner(name: &str) -> Option<u32> {
    let inner = name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (_, owner) = inner.rsplit_once(".duelsim-")?;
    owner.split('-').next()?.parse().ok()
}

/// Whether a process is alive (Linux: it has a `/proc` entry); elsewhere, assumed alive.
fn alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.is_dir() || proc.join(pid.to_string()).exists()
}

/// Removes the temporary files a run that died (a kill, a full disk) left in an output folder,
/// its `charts/` and its journal: those of this process or of a process no longer alive.
pub fn remove_stale_temporaries(output: &Path) {
    for dir in [
        output.to_owned(),
        output.join("charts"),
        output.join(FOLDER),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = temporary_owner(&name) else {
                continue;
            };
            if (pid == std::process::id() || !alive(pid))
                && entry.file_type().is_ok_and(|t| t.is_file())
            {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}

/// Writes `bytes` to a temporary file beside `path` and renames it into place; on failure the
/// temporary file is removed.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let (temporary, mut file) = create_temporary(path)
        .with_context(|| format!("cannot create a temporary file beside {}", path.display()))?;
    let written = std::io::Write::write_all(&mut file, bytes).and_then(|()| file.sync_all());
    drop(file);
    let moved = written
        .with_context(|| format!("cannot write {}", temporary.display()))
        .and_then(|()| {
            std::fs::rename(&temporary, path)
                .with_context(|| format!("cannot move {} into place", path.display()))
        });
    if moved.is_err() {
        let _ = std::fs::remove_file(&temporary);
    }
    moved?;
    // The rename itself reaches the disk only when the folder is synced (a power cut).
    if let Some(dir) = path.parent()
        && let Ok(folder) = std::fs::File::open(dir)
    {
        let _ = folder.sync_all();
    }
    Ok(())
}
