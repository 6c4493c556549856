//! `manifest.json`: what ran, from which file, with which seed, how long it took.
//! The only output that may differ between identical runs (duration, threads, throughput).

use super::run::Export;
use super::run::RunResult;
use crate::engine::CHUNK_TRIALS;
use anyhow::Result;
use serde_json::json;

/// `manifest.json`.
pub struct Manifest;

impl Export for Manifest {
    fn file_name(&self) -> &'static str {
        "manifest.json"
    }

    fn render(&self, run: &RunResult) -> Result<Vec<u8>> {
        let s = run.scenario;
        let value = json!({
            "tool": "duelsim",
            "version": env!("CARGO_PKG_VERSION"),
            "scenario": {
                "name": s.name,
                "file": s.path.display().to_string(),
                "sha256": s.source_hash,
                "ruleset": s.ruleset,
                "description": s.description,
            },
            "status": if run.complete() { "complete" } else { "partial" },
            "seed": s.seed,
            "points": s.points.len(),
            "points_done": run.tallies.len(),
            "swept": s.points.first().map(|p| p.swept.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>()),
            "trials_per_point": if s.precision.is_some() { None } else { Some(s.trials) },
            "precision": s.precision.map(|p| json!({
                "half_width_95": p.half_width,
                "max_trials": p.max_trials,
                "rule": "each point stops after the first whole chunk at which the 95% Wilson intervals of both win rates are no wider than half_width either side",
            })),
            "trials": run.total_trials(),
            "chunk_trials": CHUNK_TRIALS,
            "chunk_seed": "mix64(mix64(seed) ^ chunk), the same for every point (common random numbers); trial i of a chunk rolls from mix64(chunk_seed + i); mix64 = SplitMix64 output function",
            "threads": run.threads,
            "duration_s": run.duration.as_secs_f64(),
            "trials_per_s": run.trials_per_second(),
        });
        let mut bytes = serde_json::to_vec_pretty(&value)?;
        bytes.push(b'\n');
        Ok(bytes)
    }
}
