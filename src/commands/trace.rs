//! `duelsim trace`: one trial narrated blow by blow, every die labelled and numbered as
//! `--dice` replays them.

use crate::dice::{Dice, FastDice, ScriptedDice, roll_each};
use crate::log::Log;
use crate::rules::Ruleset;
use crate::rules::registry::{self};
use crate::scenario::error::InputError;
use crate::stats::Tally;
use anyhow::Result;
use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Options of `duelsim trace`.
#[derive(Clone, Debug, Default)]
pub struct TraceOptions {
    /// The scenario file.
    pub scenario: PathBuf,
    /// Seed of the dice when no `dice` are given; the scenario's seed when absent.
    pub seed: Option<u64>,
    /// Which point of a sweep, as given (`0` when not given): read once the scenario says how
    /// many points it has.
    pub point: String,
    /// The story without a line for each die.
    pub quiet: bool,
    /// Die results to replay, in the order the trace prints them.
    pub dice: Option<Vec<u32>>,
}

/// Whether a trace line is one die's result (`    die #3: white d20 = 11`), which `-q` leaves
/// out; a die that stops the trace is said even then.
fn is_die_line(line: &str) -> bool {
    line.starts_with("    die #") && !line.contains("no valid result")
}

/// Dice that narrate every roll into the trace, numbered as `--dice` replays them.
struct TraceDice<'a, D> {
    inner: D,
    lines: &'a RefCell<Vec<String>>,
    /// Set at the first die with no valid result: the rules go on with a stand-in value, so
    /// nothing after it is narrated.
    stopped: &'a Cell<bool>,
    results: Vec<u32>,
}

impl<D> TraceDice<'_, D> {
    /// Keeps a die's result for `--dice` and narrates it under the next number.
    fn narrate(&mut self, label: &'static str, value: u32) {
        self.results.push(value);
        let n = self.results.len();
        self.lines
            .borrow_mut()
            .push(format!("    die #{n}: {label} = {value}"));
    }
}

impl<D: Dice> Dice for TraceDice<'_, D> {
    fn d(&mut self, sides: u32, label: &'static str) -> u32 {
        let value = self.inner.d(sides, label);
        let n = self.results.len() + 1;
        if self.stopped.get() {
            return value;
        }
        if self.inner.exhausted() {
            self.stopped.set(true);
            self.lines.borrow_mut().push(format!(
                "    die #{n}: {label}: no valid result given; the trace stops here"
            ));
        } else {
            self.narrate(label, value);
        }
        value
    }

    fn pair(&mut self, sides: u32, first: &'static str, second: &'static str) -> (u32, u32) {
        let (a, b) = self.inner.pair(sides, first, second);
        let n = self.results.len() + 1;
        if self.stopped.get() {
            return (a, b);
        }
        if self.inner.exhausted() {
            self.stopped.set(true);
            self.lines.borrow_mut().push(format!(
                "    dice #{n} and #{}: {first}, {second}: not both given as valid results; the trace stops here",
                n + 1
            ));
        } else {
            self.narrate(first, a);
            self.narrate(second, b);
        }
        (a, b)
    }

    // A pool goes to the source whole when the source rolls pools its own way (the fast
    // source's d6 pools, eight dice to a draw), so `trace --seed` rolls the dice a run does;
    // each die is narrated in the order `--dice` replays it. Counted pools come through here
    // (the default `count_faces` counts the dice of `faces`).
    const POOLS: bool = D::POOLS;

    fn faces(&mut self, n: u32, sides: u32, label: &'static str, mut each: impl FnMut(u32)) {
        if !D::POOLS {
            return roll_each(self, n, sides, label, each);
        }
        let mut rolled = Vec::with_capacity(n as usize);
        self.inner.faces(n, sides, label, |face| rolled.push(face));
        for face in rolled {
            if !self.stopped.get() {
                self.narrate(label, face);
            }
            each(face);
        }
    }

    // The streams go to the source: `trace --seed` rolls each purpose from its own stream, as
    // a run does.
    fn stream(&mut self, stream: crate::dice::Stream) {
        self.inner.stream(stream);
    }

    // A campaign's next encounter draws from its own seed, as in a run.
    fn next_encounter(&mut self) {
        self.inner.next_encounter();
    }

    fn exhausted(&self) -> bool {
        self.inner.exhausted()
    }
}

/// The narration half of the trace, sharing the dice's lines so both stay in order.
struct TraceLog<'a> {
    lines: &'a RefCell<Vec<String>>,
    stopped: &'a Cell<bool>,
}

impl Log for TraceLog<'_> {
    const ON: bool = true;
    fn say(&mut self, line: impl FnOnce() -> String) {
        if !self.stopped.get() {
            self.lines.borrow_mut().push(line());
        }
    }
}

fn trace_with<R: Ruleset, D: Dice>(model: &R, dice: D) -> (Vec<String>, Vec<u32>, D) {
    let lines = RefCell::new(Vec::new());
    let stopped = Cell::new(false);
    let mut traced = TraceDice {
        inner: dice,
        lines: &lines,
        stopped: &stopped,
        results: Vec::new(),
    };
    let mut log = TraceLog {
        lines: &lines,
        stopped: &stopped,
    };
    let mut tally = Tally::new(model.shape());
    model.trial(&mut traced, &mut log, &mut tally);
    let TraceDice { inner, results, .. } = traced;
    (lines.into_inner(), results, inner)
}

/// `duelsim trace`: one trial narrated blow by blow. Scripted dice that run out or do not fit
/// are an input error (exit 2) reported after the narration so far.
pub fn trace(options: &TraceOptions) -> Result<String> {
    let scenario = registry::load(&options.scenario)?;
    let points = scenario.points.len();
    let chosen = options.point.trim().parse::<usize>().ok();
    let Some((index, point)) = chosen.and_then(|i| scenario.points.get(i).map(|p| (i, p))) else {
        let has = match points {
            1 => "one point, 0".to_owned(),
            n => format!("{n} points, 0 to {}", n - 1),
        };
        return Err(InputError::plain(format!(
            "--point: {} has {has}; found '{}'",
            scenario.name, options.point
        ))
        .into());
    };
    let seed = options.seed.unwrap_or(scenario.seed);
    let mut out = String::new();
    let swept: Vec<String> = point
        .swept
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    let at = if swept.is_empty() {
        String::new()
    } else {
        format!(" ({})", swept.join(", "))
    };
    let _ = writeln!(
        out,
        "trace of '{}' ({}), point {}{at}",
        scenario.name, scenario.ruleset, index
    );
    let (lines, used, problem) = match &options.dice {
        Some(given) => {
            let _ = writeln!(out, "dice: the {} given results", given.len());
            let (lines, used, dice) = crate::with_model!(&point.model, m => trace_with(m, ScriptedDice::new(given.clone())));
            (lines, used, dice.finish().err())
        }
        None => {
            let _ = writeln!(out, "dice: seed {seed}");
            let (lines, used, _) =
                crate::with_model!(&point.model, m => trace_with(m, FastDice::seed_from_u64(seed)));
            (lines, used, None)
        }
    };
    for line in lines {
        if options.quiet && is_die_line(&line) {
            continue;
        }
        let _ = writeln!(out, "{line}");
    }
    let replay: Vec<String> = used.iter().map(u32::to_string).collect();
    let _ = writeln!(
        out,
        "dice used ({}): --dice {}",
        used.len(),
        replay.join(",")
    );
    if let Some(problem) = problem {
        print!("{out}");
        return Err(InputError::plain(format!("--dice: {problem}")).into());
    }
    if let Some(given) = &options.dice
        && given.len() > used.len()
    {
        let _ = writeln!(
            out,
            "note: {} not needed",
            crate::report::words::counted(
                (given.len() - used.len()) as u64,
                "given result was",
                "given results were"
            )
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    //! The trace rolls the dice a run rolls from the same seed.
    use super::*;
    use crate::log::NoLog;

    #[test]
    fn a_seeded_trace_counts_the_trial_a_run_rolls_from_that_seed() {
        // d6-pool's pools come eight dice to a draw from the fast source; the trace must take
        // them whole, as a run does, or its story is another trial's.
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios/d6-pool/berserker-vs-shieldwall.toml");
        let scenario = registry::load(&path).expect("the shipped scenario loads");
        let point = &scenario.points[0];
        for seed in 0..50 {
            crate::with_model!(&point.model, m => {
                let (_, used, _) = trace_with(m, FastDice::seed_from_u64(seed));
                let mut traced = Tally::new(m.shape());
                m.trial(&mut ScriptedDice::new(used), &mut NoLog, &mut traced);
                let mut run = Tally::new(m.shape());
                m.trial(&mut FastDice::seed_from_u64(seed), &mut NoLog, &mut run);
                assert_eq!(traced, run, "seed {seed}");
            });
        }
    }
}
