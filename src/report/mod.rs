//! The outputs of a run: one file per output behind the small [`Export`] trait.
//!
//! Every output is rendered to bytes first, then all are written to temporary files in the
//! output folder and renamed into place, so an interrupted run never leaves a half-written
//! report. This module reads finished tallies; it never runs trials.

pub mod answer;
pub mod balance;
pub mod charts;
pub mod csv;
pub mod exact;
pub(crate) mod findings;
pub mod html;
pub mod manifest;
pub mod rulebook;
pub mod shard;
pub(crate) mod table;

use crate::rules::registry::Scenario;
use crate::stats::{Side, Tally};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
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

/// The words a report uses for what a trial is: a duel and its wounded survivors, or (for a
/// recovery scenario) a patient.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Words {
    /// A recovery scenario: patients, not duels.
    pub recovery: bool,
    /// A side holds several fighters at some point: fights, not duels.
    pub skirmish: bool,
}

/// How the report names one side in its headings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SideWords {
    /// "Knight" for a side of one; "Brigands" for a side that is copies of one fighter at some
    /// point; for a mixed side, its name ("Sergeant + Watchman ×2") when it is the same at every
    /// point, else its kinds of fighter without their counts ("Sergeant + Watchmen").
    pub name: String,
    /// Several fighters at some point.
    pub several: bool,
}

impl SideWords {
    /// "Knight's", "Brigands'", "Sergeant + Watchmen's".
    pub(crate) fn possessive(&self) -> String {
        if self.several && self.name.ends_with('s') {
            format!("{}'", self.name)
        } else {
            format!("{}'s", self.name)
        }
    }

    /// "Knight wins", "Brigands win".
    pub(crate) fn wins(&self) -> String {
        if self.several {
            format!("{} win", self.name)
        } else {
            format!("{} wins", self.name)
        }
    }

    /// The share a rate counts, in words: "duels Knight wins", "fights the Brigands win".
    pub(crate) fn wins_share(&self, run: &RunResult) -> String {
        let trials = Words::of(run).trials();
        if self.several {
            format!("{trials} the {} win", self.name)
        } else {
            format!("{trials} {} wins", self.name)
        }
    }

    /// "Knight dies", "each of the Brigands dies" (a share of the side's fighters: the chance
    /// of each, which falls as fighters are added even as more die in all).
    pub(crate) fn dies(&self) -> String {
        if self.several {
            format!("each of the {} dies", self.name)
        } else {
            format!("{} dies", self.name)
        }
    }
}

/// Both sides of a run in words for headings (see [`SideWords`]).
pub(crate) fn side_words(run: &RunResult) -> [SideWords; 2] {
    let points = &run.scenario.points;
    Side::BOTH.map(|side| {
        let k = side.index();
        let size = |p: &crate::scenario::Point<crate::rules::registry::Model>| {
            p.model.shape().sides[k] as usize
        };
        let Some(largest) = points.iter().max_by_key(|p| size(p)) else {
            return SideWords {
                name: String::new(),
                several: false,
            };
        };
        let n = size(largest);
        if n <= 1 {
            return SideWords {
                name: largest.model.names()[k].to_owned(),
                several: false,
            };
        }
        // Each kind of fighter on the side (its fighters' names without their numbers), in
        // order of first appearance over the points, with the most of it at any one point.
        let mut kinds: Vec<(String, usize)> = Vec::new();
        for p in points {
            let size = size(p);
            let names = p.model.fighter_names();
            let start = if k == 0 { 0 } else { names.len() - size };
            let mut here: Vec<(String, usize)> = Vec::new();
            for name in &names[start..start + size] {
                let kind = crate::rules::roster::base_name(name, size);
                match here.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, count)) => *count += 1,
                    None => here.push((kind, 1)),
                }
            }
            for (kind, count) in here {
                match kinds.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, most)) => *most = (*most).max(count),
                    None => kinds.push((kind, count)),
                }
            }
        }
        let name = match kinds.as_slice() {
            // Copies of one fighter: "Brigands".
            [(kind, _)] => charts::plural(kind),
            // A mixed side the same at every point: its name, counts and all.
            _ if points
                .iter()
                .all(|p| p.model.names()[k] == largest.model.names()[k]) =>
            {
                largest.model.names()[k].to_owned()
            }
            // A mixed side that differs between points: each kind of fighter, in the plural
            // where some point has several, without counts, which are not every point's
            // ("Sergeant + Watchmen", not "Sergeant + Watchman ×3").
            _ => kinds
                .iter()
                .map(|(kind, most)| {
                    if *most > 1 {
                        charts::plural(kind)
                    } else {
                        kind.clone()
                    }
                })
                .collect::<Vec<_>>()
                .join(" + "),
        };
        SideWords {
            name,
            several: true,
        }
    })
}

impl Words {
    /// The words of this run.
    pub(crate) fn of(run: &RunResult) -> Words {
        Words {
            recovery: run
                .scenario
                .points
                .first()
                .is_some_and(|p| p.model.is_recovery()),
            skirmish: run
                .scenario
                .points
                .iter()
                .any(|p| p.model.shape().sides.iter().any(|&n| n > 1)),
        }
    }

    /// One trial: "duel", "fight" (sides of several) or "patient".
    pub(crate) fn trial(self) -> &'static str {
        match (self.recovery, self.skirmish) {
            (true, _) => "patient",
            (false, true) => "fight",
            (false, false) => "duel",
        }
    }

    /// Trials: "duels", "fights" or "patients".
    pub(crate) fn trials(self) -> &'static str {
        match (self.recovery, self.skirmish) {
            (true, _) => "patients",
            (false, true) => "fights",
            (false, false) => "duels",
        }
    }

    /// Who heals: "wounded survivors" or "patients".
    pub(crate) fn patients(self) -> &'static str {
        if self.recovery {
            "patients"
        } else {
            "wounded survivors"
        }
    }

    /// What the healing days count from: "duel" or "injury".
    pub(crate) fn from(self) -> &'static str {
        if self.recovery {
            "injury"
        } else {
            self.trial()
        }
    }

    /// Whose wounds are pooled: " (both sides)" after a duel, nothing for patients.
    pub(crate) fn sides(self) -> &'static str {
        if self.recovery { "" } else { " (both sides)" }
    }
}

/// One output file.
pub trait Export {
    /// The file's name inside the output folder.
    fn file_name(&self) -> &'static str;
    /// The file's whole content.
    fn render(&self, run: &RunResult) -> Result<Vec<u8>>;
}

/// Every output a run writes, in writing order.
pub fn exports() -> Vec<Box<dyn Export>> {
    vec![
        Box::new(csv::Summary),
        Box::new(csv::Distributions),
        Box::new(csv::Fighters),
        Box::new(manifest::Manifest),
    ]
}

/// The outputs rewritten while a long run is going, and when it is interrupted: the tables
/// and the manifest of the points finished so far (the manifest says the run is partial).
pub fn write_partial(run: &RunResult, dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = render_tables(run)?;
    // The files of an earlier whole run still there stay listed, so a later run can tidy them.
    let mut names = written_by_earlier_run(dir);
    names.extend(files.iter().map(|(name, _)| name.clone()));
    list_files_in_manifest(&mut files, names)?;
    write(files, dir)
}

/// Renders every output (tables, manifest, charts as SVG and PNG, `report.html`) and moves them
/// into `dir` (created if needed). Returns the files written.
pub fn write_all(run: &RunResult, dir: &Path) -> Result<Vec<PathBuf>> {
    let earlier = written_by_earlier_run(dir);
    let mut files = render_tables(run)?;
    files.extend(run.extra_files.iter().cloned());
    let tables = rulebook::tables(run);
    let table_names: Vec<String> = tables.iter().map(|(name, _)| name.clone()).collect();
    files.extend(tables);
    let charts = charts::render_all(run)?;
    let mut names: Vec<String> = files.iter().map(|(name, _)| name.clone()).collect();
    names.push("report.html".to_owned());
    for chart in &charts {
        names.push(format!("charts/{}.svg", chart.name));
        names.push(format!("charts/{}.png", chart.name));
    }
    list_files_in_manifest(&mut files, names.clone())?;
    let manifest = files
        .iter()
        .find(|(name, _)| name == "manifest.json")
        .map(|(_, bytes)| String::from_utf8_lossy(bytes).into_owned())
        .unwrap_or_default();
    files.push((
        "report.html".to_owned(),
        html::render(run, &charts, &table_names, &manifest).into_bytes(),
    ));
    for chart in charts {
        files.push((format!("charts/{}.svg", chart.name), chart.svg.into_bytes()));
        files.push((format!("charts/{}.png", chart.name), chart.png));
    }
    let written = write(files, dir)?;
    remove_stale_charts(dir, &earlier, &names);
    Ok(written)
}

/// Adds `files` (the names a run writes, relative to its folder) to the rendered manifest.
fn list_files_in_manifest(files: &mut [(String, Vec<u8>)], mut names: Vec<String>) -> Result<()> {
    names.sort();
    names.dedup();
    for (name, bytes) in files.iter_mut() {
        if name == "manifest.json" {
            let mut value: serde_json::Value = serde_json::from_slice(bytes)?;
            if let Some(object) = value.as_object_mut() {
                object.insert("files".to_owned(), serde_json::json!(names));
            }
            *bytes = serde_json::to_vec_pretty(&value)?;
            bytes.push(b'\n');
        }
    }
    Ok(())
}

/// The files an earlier run into `dir` listed in its manifest (none when there is none).
fn written_by_earlier_run(dir: &Path) -> Vec<String> {
    let path = dir.join("manifest.json");
    let small = std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() < 1 << 24);
    let Some(value) = small
        .then(|| std::fs::read(&path).ok())
        .flatten()
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
    else {
        return Vec::new();
    };
    value["files"]
        .as_array()
        .map(|list| {
            list.iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn render_tables(run: &RunResult) -> Result<Vec<(String, Vec<u8>)>> {
    let mut files: Vec<(String, Vec<u8>)> = exports()
        .iter()
        .map(|e| Ok((e.file_name().to_owned(), e.render(run)?)))
        .collect::<Result<_>>()?;
    if let Some(bytes) = csv::weights(run)? {
        files.push(("weights.csv".to_owned(), bytes));
    }
    Ok(files)
}

/// Outputs an earlier run into the same folder wrote (its manifest lists them) that this run did
/// not: its charts, `weights.csv` and `balance.csv`. Nothing else is touched: a file the user
/// put there stays.
fn remove_stale_charts(dir: &Path, earlier: &[String], now: &[String]) {
    for name in earlier {
        let ours = match name.strip_prefix("charts/") {
            Some(chart) => {
                !chart.is_empty()
                    && !chart.contains(['/', '\\'])
                    && !chart.starts_with('.')
                    && (chart.ends_with(".svg") || chart.ends_with(".png"))
            }
            None => match name.strip_prefix("tables/") {
                Some(table) => {
                    !table.is_empty()
                        && !table.contains(['/', '\\'])
                        && !table.starts_with('.')
                        && (table.ends_with(".md") || table.ends_with(".csv"))
                }
                None => matches!(name.as_str(), "weights.csv" | "balance.csv"),
            },
        };
        if ours && !now.contains(name) {
            let _ = std::fs::remove_file(dir.join(name));
        }
    }
}

/// Writes every file to a temporary name in its folder, then renames them all into place.
pub(crate) fn write(files: Vec<(String, Vec<u8>)>, dir: &Path) -> Result<Vec<PathBuf>> {
    let mut staged = Vec::new();
    let result = stage_and_move(&files, dir, &mut staged);
    if result.is_err() {
        // A failure (a full disk) leaves no temporary file behind to fail the next run.
        for (temporary, _) in &staged {
            let _ = std::fs::remove_file(temporary);
        }
    }
    result?;
    Ok(staged.into_iter().map(|(_, p)| p).collect())
}

fn stage_and_move(
    files: &[(String, Vec<u8>)],
    dir: &Path,
    staged: &mut Vec<(PathBuf, PathBuf)>,
) -> Result<()> {
    for (name, bytes) in files {
        let path = dir.join(name);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder)
                .with_context(|| format!("cannot create the output folder {}", folder.display()))?;
        }
        let temporary = crate::journal::temporary_path(&path);
        staged.push((temporary.clone(), path));
        std::fs::write(&temporary, bytes)
            .with_context(|| format!("cannot write {}", temporary.display()))?;
    }
    for (temporary, path) in staged.iter() {
        std::fs::rename(temporary, path)
            .with_context(|| format!("cannot move {} into place", path.display()))?;
    }
    Ok(())
}
