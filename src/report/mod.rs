//! The outputs of a run: one file per output behind the small [`Export`] trait.
//!
//! Every output is rendered to bytes first, then all are written to temporary files in the
//! output folder and renamed into place, so an interrupted run never leaves a half-written
//! report. This module reads finished tallies; it never runs trials.

pub mod charts;
pub mod csv;
pub mod html;
pub mod manifest;
pub mod shard;

use crate::scenario::Scenario;
use crate::stats::Tally;
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
}

impl RunResult<'_> {
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
        Box::new(manifest::Manifest),
    ]
}

/// The outputs rewritten while a long run is going, and when it is interrupted: the tables
/// and the manifest of the points finished so far (the manifest says the run is partial).
pub fn write_partial(run: &RunResult, dir: &Path) -> Result<Vec<PathBuf>> {
    let files = render_tables(run)?;
    write(files, dir)
}

/// Renders every output (tables, manifest, charts as SVG and PNG, `report.html`) and moves them
/// into `dir` (created if needed). Returns the files written.
pub fn write_all(run: &RunResult, dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files = render_tables(run)?;
    let manifest = files
        .iter()
        .find(|(name, _)| name == "manifest.json")
        .map(|(_, bytes)| String::from_utf8_lossy(bytes).into_owned())
        .unwrap_or_default();
    let charts = charts::render_all(run)?;
    files.push((
        "report.html".to_owned(),
        html::render(run, &charts, &manifest).into_bytes(),
    ));
    for chart in charts {
        files.push((format!("charts/{}.svg", chart.name), chart.svg.into_bytes()));
        files.push((format!("charts/{}.png", chart.name), chart.png));
    }
    let written = write(files, dir)?;
    remove_stale_charts(dir, &written);
    Ok(written)
}

fn render_tables(run: &RunResult) -> Result<Vec<(String, Vec<u8>)>> {
    exports()
        .iter()
        .map(|e| Ok((e.file_name().to_owned(), e.render(run)?)))
        .collect()
}

/// Charts of an earlier run into the same folder that this run did not draw.
fn remove_stale_charts(dir: &Path, written: &[PathBuf]) {
    let Ok(entries) = std::fs::read_dir(dir.join("charts")) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let chart = matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("svg" | "png")
        );
        if chart && !written.contains(&path) {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Writes every file to a temporary name in its folder, then renames them all into place.
pub(crate) fn write(files: Vec<(String, Vec<u8>)>, dir: &Path) -> Result<Vec<PathBuf>> {
    let mut staged = Vec::new();
    for (name, bytes) in &files {
        let path = dir.join(name);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder)
                .with_context(|| format!("cannot create the output folder {}", folder.display()))?;
        }
        let temporary = crate::journal::temporary_path(&path);
        std::fs::write(&temporary, bytes)
            .with_context(|| format!("cannot write {}", temporary.display()))?;
        staged.push((temporary, path));
    }
    for (temporary, path) in &staged {
        std::fs::rename(temporary, path)
            .with_context(|| format!("cannot move {} into place", path.display()))?;
    }
    Ok(staged.into_iter().map(|(_, p)| p).collect())
}
