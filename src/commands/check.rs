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

/// Trials of each point `check` runs to time the run and find sweeps the fight does not read.
const CHECK_TRIALS: u64 = 10_000;

/// How long `check` times trials at least, for a clock that moves by steps to see them.
const MIN_TIMED: std::time::Duration = std::time::Duration::from_millis(50);

/// The most trials `check` runs to time them.
const MAX_TIMED_TRIALS: u64 = 4_000_000;

/// The most trials `check` runs in all, over every point (a sweep of thousands of points gets
/// fewer trials of each, down to 100).
const CHECK_TRIALS_IN_ALL: u64 = 500_000;

/// What `check` learns by running a scenario briefly: how long the run would take, and the
/// sweeps whose values the fight does not tell apart.
pub struct Tried {
    /// "about 3 min on 2 threads", said after the scenario's description.
    pub time: String,
    /// Each sweep the fight does not read, as a warning.
    pub warnings: Vec<String>,
}

/// A duration in words, rounded as an estimate: "under a second", "about 40 s", "about 3 min",
/// "about 2.5 h".
fn duration_words(seconds: f64) -> String {
    if seconds < 1.0 {
        "under a second".to_owned()
    } else if seconds < 90.0 {
        format!("about {} s", seconds.round())
    } else if seconds < 90.0 * 60.0 {
        format!("about {} min", (seconds / 60.0).round())
    } else {
        format!("about {:.1} h", seconds / 3600.0)
    }
}

/// The most trials a run of `s` takes: every point (or every evaluation of its searches) at
/// its trial count, or at `[precision]`'s cap.
fn trials_at_most(s: &Scenario) -> u64 {
    let each = s.precision.map_or(s.trials, |p| p.max_trials);
    let runs = match &s.balance {
        Some(b) => b.evaluations_in_all(),
        None => s.points.len() as u64,
    };
    each.saturating_mul(runs)
}

/// Runs a few thousand trials of every point of `s` on the same dice (of its first point for
/// a `[balance]`, whose values the search decides): the run's time from this machine's speed,
/// and a warning for each sweep whose values give the same fights trial for trial.
fn try_out(s: &Scenario) -> Tried {
    let points = if s.balance.is_some() {
        1
    } else {
        s.points.len()
    };
    let trials = (CHECK_TRIALS_IN_ALL / points as u64).clamp(100, CHECK_TRIALS);
    let run = |i: usize, trials: u64| {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut ignore = |_: u64, _: &crate::stats::Tally| {};
        crate::engine::run_model(
            &s.points[i].model,
            s.baseline_of(i),
            s.seed,
            crate::engine::Budget::Trials(trials),
            &indicatif::ProgressBar::hidden(),
            &stop,
            crate::engine::Prefix::none(&mut ignore),
        )
    };
    let started = std::time::Instant::now();
    let tallies: Vec<Option<crate::stats::Tally>> = (0..points).map(|i| run(i, trials)).collect();
    // A run too short for the clock to see is timed longer, on the first point, until it is.
    let mut timed = trials * points as u64;
    let mut more = trials;
    while started.elapsed() < MIN_TIMED && timed < MAX_TIMED_TRIALS {
        more *= 2;
        let _ = run(0, more);
        timed += more;
    }
    let time = time_words(s, started.elapsed(), timed);
    let warnings = if s.balance.is_some() {
        Vec::new()
    } else {
        unread_sweeps(s, &tallies, trials)
    };
    Tried { time, warnings }
}

/// How long a run of `s` would take, from `timed` trials that took `elapsed` here.
fn time_words(s: &Scenario, elapsed: std::time::Duration, timed: u64) -> String {
    if elapsed.is_zero() {
        return "not measured: this machine's clock did not move while trials ran".to_owned();
    }
    let up_to = if s.precision.is_some() || s.balance.is_some() {
        "up to "
    } else {
        ""
    };
    let per_trial = elapsed.as_secs_f64() / timed as f64;
    format!(
        "{up_to}{} on {} (timed on {} here)",
        duration_words(per_trial * trials_at_most(s) as f64),
        counted(rayon::current_num_threads() as u64, "thread", "threads"),
        counted(timed, "trial", "trials")
    )
}

/// A warning for each sweep of `s` whose values give the same `tallies` (of `trials` each, on
/// the same dice).
fn unread_sweeps(
    s: &Scenario,
    tallies: &[Option<crate::stats::Tally>],
    trials: u64,
) -> Vec<String> {
    let swept: Vec<Vec<(String, String)>> = s.points.iter().map(|p| p.swept.clone()).collect();
    crate::scenario::sweep::unread(&swept, |p, q| {
        tallies[p].is_some() && tallies[p] == tallies[q]
    })
    .into_iter()
    .map(|w| {
        format!(
            "{w} (in {} of each point)",
            counted(trials, "trial", "trials")
        )
    })
    .collect()
}

/// `duelsim check`: validates every scenario and describes what `run` would do, without
/// running a trial ([`check_and_try`] also runs a few).
pub fn check(paths: &[PathBuf]) -> Result<String> {
    let scenarios = load_all(paths, None, None)?;
    let mut out = String::new();
    for s in &scenarios {
        out.push_str(&describe(s)?);
    }
    Ok(out)
}

/// `duelsim check` of one file, read once: what `run` would do, and what a short run of it
/// says ([`try_out`]).
pub fn check_and_try(path: &Path) -> Result<(String, Tried)> {
    let s = registry::load(path)?;
    Ok((describe(&s)?, try_out(&s)))
}

/// What `run` would do with `s`: its fighters, points and trials, its sweep, its `[exact]`
/// grid (refused here as `duelsim exact` would refuse it).
fn describe(s: &Scenario) -> Result<String> {
    let mut out = String::new();
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
    Ok(out)
}
