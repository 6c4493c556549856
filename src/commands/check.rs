//! `duelsim new` (a starter scenario of a ruleset) and `duelsim check` (validates scenarios and
//! says what `run` would do).

use super::load_all;
use crate::report::words::{counted, grouped};
use crate::rules::registry::{self, Scenario};
use crate::scenario::error::InputError;
use anyhow::Result;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// `duelsim new`: a commented starter scenario of a ruleset that runs as written, printed, or
/// written to `file` (never over an existing file). Its name is the file's stem.
pub fn new_scenario(ruleset: &str, file: Option<&Path>) -> Result<String> {
    let Some(entry) = registry::info(ruleset) else {
        return Err(InputError::plain(format!(
            "new: {}",
            crate::scenario::error::unknown_name(
                "ruleset",
                &crate::scenario::error::one_line(ruleset, 60),
                &registry::ids()
            )
        ))
        .into());
    };
    let (id, (source, text)) = (entry.id, entry.examples.starter);
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

/// What a `[balance]` search split over shards runs, for `check`: every value of its shard
/// plan at each of its `points` sweep points, on every shard (or why it cannot be split).
fn shard_note(b: &crate::scenario::balance::Balance, points: u64) -> String {
    match b.shard_plan() {
        Ok(plan) if points > 1 => format!(
            "with --shard, each of its {} values at every point on every shard, {} in all",
            plan.len(),
            plan.len() as u64 * points
        ),
        Ok(plan) => format!(
            "with --shard, each of its {} values on every shard",
            plan.len()
        ),
        Err(_) => format!(
            "too wide for --shard, which takes at most {} values",
            crate::scenario::balance::SHARD_MAX_VALUES
        ),
    }
}

/// Trials of each point `check` runs to find sweeps the fight does not read.
const CHECK_TRIALS: u64 = 10_000;

/// Warnings for the sweeps of `s` whose values the fight does not tell apart, from a short run
/// of every point on the same dice ([`CHECK_TRIALS`] each, fewer for a sweep of many points).
fn unread_sweeps(s: &Scenario) -> Vec<String> {
    if s.points.len() < 2 || s.balance.is_some() {
        return Vec::new();
    }
    let trials = (2_000_000 / s.points.len() as u64).clamp(1_000, CHECK_TRIALS);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let bar = indicatif::ProgressBar::hidden();
    let tallies: Vec<Option<crate::stats::Tally>> = (0..s.points.len())
        .map(|i| {
            let mut ignore = |_: u64, _: &crate::stats::Tally| {};
            crate::engine::run_model(
                &s.points[i].model,
                s.baseline_of(i),
                s.seed,
                crate::engine::Budget::Trials(trials),
                &bar,
                &stop,
                crate::engine::Prefix::none(&mut ignore),
            )
        })
        .collect();
    let swept: Vec<Vec<(String, String)>> = s.points.iter().map(|p| p.swept.clone()).collect();
    crate::scenario::sweep::unread(&swept, |p, q| {
        tallies[p].is_some() && tallies[p] == tallies[q]
    })
    .into_iter()
    .map(|w| format!("{w} (in {} trials of each point)", grouped(trials)))
    .collect()
}

/// `duelsim check`: validates every scenario and describes what `run` would do; a sweep whose
/// values the fight does not tell apart is said on stderr as a warning.
pub fn check(paths: &[PathBuf]) -> Result<String> {
    let scenarios = load_all(paths, None, None)?;
    let mut out = String::new();
    for s in &scenarios {
        let names = s.points[0].model.names();
        let n = s.points.len() as u64;
        let budget = match s.precision {
            Some(p) => format!(
                "{} x up to {} trials (each until both win rates are within +/-{} at 95%) = up to {}",
                counted(n, "point", "points"),
                grouped(p.max_trials),
                p.half_width,
                counted(p.max_trials.saturating_mul(n), "trial", "trials")
            ),
            None => format!(
                "{} x {} = {}",
                counted(n, "point", "points"),
                counted(s.trials, "trial", "trials"),
                counted(s.trials.saturating_mul(n), "trial", "trials")
            ),
        };
        let budget = match &s.balance {
            Some(b) if b.swept() => {
                let per_point = b.evaluations_at_most();
                let all = b.evaluations_in_all();
                let each = match s.precision {
                    Some(p) => format!(
                        "each of up to {} trials (until both win rates are within +/-{} at 95%) = up to {} trials",
                        grouped(p.max_trials),
                        p.half_width,
                        grouped(p.max_trials.saturating_mul(all))
                    ),
                    None => format!(
                        "each of {} trials = up to {} trials",
                        grouped(s.trials),
                        grouped(s.trials.saturating_mul(all))
                    ),
                };
                format!(
                    "a [balance] search of {} from {} to {} for {} = {} at each of {} sweep point{}: at most {n} x {per_point} = {all} evaluations ({}), {each}",
                    b.path,
                    b.label(b.from),
                    b.label(b.to),
                    crate::scenario::balance::TARGETS[b.rate],
                    b.target,
                    n,
                    if n == 1 { "" } else { "s" },
                    shard_note(b, n),
                )
            }
            Some(b) => format!(
                "a [balance] search of {} from {} to {} for {} = {}: at most {} evaluations ({}), {budget}",
                b.path,
                b.label(b.from),
                b.label(b.to),
                crate::scenario::balance::TARGETS[b.rate],
                b.target,
                b.evaluations_at_most(),
                shard_note(b, 1),
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
        for warning in unread_sweeps(s) {
            eprintln!(
                "warning: {}: {}",
                s.path.display(),
                crate::scenario::error::terminal_safe(&warning)
            );
        }
        // `duelsim exact` reads the [exact] grid: check refuses what it would refuse.
        let source = crate::scenario::error::Source {
            path: &s.path,
            text: &s.sources.text,
        };
        if let Some(grid) =
            crate::scenario::grid::read::<registry::Registry>(&source, s.sources.catalogue_bytes())?
        {
            let sizes: Vec<String> = grid.axes.iter().map(|(_, v)| v.len().to_string()).collect();
            let paths: Vec<&str> = grid.axes.iter().map(|(p, _)| p.as_str()).collect();
            let _ = writeln!(
                out,
                "  [exact] grid: {} ({} cells)",
                paths.join(" x "),
                sizes.join(" x ")
            );
        }
    }
    Ok(out)
}
