//! The outputs of a run: one file per output behind the small [`Export`] trait.
//!
//! Every output is rendered to bytes first, then all are written to temporary files in the
//! output folder and renamed into place, so an interrupted run never leaves a half-written
//! report. This module reads finished tallies; it never runs trials.

pub mod answer;
pub mod balance;
pub(crate) mod campaign;
pub mod charts;
pub mod csv;
pub mod exact;
pub(crate) mod files;
pub(crate) mod findings;
pub mod html;
pub mod json;
pub mod manifest;
pub(crate) mod markdown;
pub(crate) mod page;
pub(crate) mod results;
pub mod rulebook;
pub mod run;
pub mod shard;
pub mod words;

pub(crate) use files::write;
pub use run::{BalanceMarks, BalancePoint, Export, RunResult};

use anyhow::Result;
use std::path::{Path, PathBuf};

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
    // A run that finished nothing has nothing of its own to write: an earlier run's outputs in
    // the folder stay whole until this run's own replace them.
    if run.tallies.is_empty() {
        return Ok(Vec::new());
    }
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
