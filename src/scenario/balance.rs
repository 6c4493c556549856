//! `[balance]`: the value of one path at which a rate crosses a target, found by bisection on
//! common dice rather than a full sweep.
//!
//! ```toml
//! [balance]
//! path = "weapons.mace.impact_modifier"
//! from = 0
//! to = 8
//! target = { a_win_rate = 0.5 }
//! ```
//!
//! Every evaluation runs the scenario with the path set to one value, on the same dice as every
//! other (the seeds do not depend on the point), so the rate moves with the value and not with
//! luck. This module reads the table, builds the model at a value and walks the bisection
//! ([`Balance::search`]); `run` evaluates the values it asks for.
//!
//! A search split over machines (`run --shard K/N`) cannot wait for one value's result before
//! choosing the next, so every shard runs its slice of each value the search could ask for
//! ([`Balance::shard_plan`]), and `merge` walks the same bisection over the merged tallies.
//!
//! With a `[sweep]`, the file holds one search per sweep point ([`Balance::searches`]): each is
//! the search of the file with that point's values written in, on the same seed, so its answer
//! is the one a file of that point alone would give. The bisection itself is this one code.

use super::Rulesets;
use super::error::{InputError, Source};
use std::path::PathBuf;
use toml_edit::Value;

/// The rates a balance can aim at: name, and which count of the tally over its trials.
pub const TARGETS: [&str; 6] = [
    "a_win_rate",
    "b_win_rate",
    "draw_rate",
    "a_dead_rate",
    "b_dead_rate",
    "party_death_rate",
];

/// [`TARGETS`]' campaign rate: the share of campaigns with a death in the party.
pub const PARTY_DEATH: usize = 5;

/// What a search found, with the values and rates it rests on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Found {
    /// The rate is on the target at this value.
    At(f64, Rate),
    /// The rate crosses the target between two neighbouring integers.
    Between([(f64, Rate); 2]),
    /// The crossing of a real-valued path, interpolated between the last two values: the value
    /// with its interval, and the two values around it.
    Interpolated {
        /// The value, and its interval.
        at: (f64, f64, f64),
        /// The values around it, with their rates.
        around: [(f64, Rate); 2],
    },
    /// The rate is on one side of the target at both ends of the range.
    Unreachable([(f64, Rate); 2]),
}

/// The answer of a search: what it found, and a note on how it was found (a split search).
#[derive(Clone, Debug, PartialEq)]
pub struct Answer {
    /// What it found.
    pub found: Found,
    /// Said after the answer, in brackets.
    pub note: Option<String>,
}

impl Answer {
    /// The value found with its interval (value, lo, hi): a value on the target is itself;
    /// a crossing between neighbouring integers is their middle, from one to the other; `None`
    /// when the range does not reach the target.
    pub fn value(&self) -> Option<(f64, f64, f64)> {
        match self.found {
            Found::At(at, _) => Some((at, at, at)),
            Found::Between([(lo, _), (hi, _)]) => Some(((lo + hi) / 2.0, lo, hi)),
            Found::Interpolated { at, .. } => Some(at),
            Found::Unreachable(_) => None,
        }
    }

    /// What reaching the target does, in words: "makes the duel even" (a win rate of one half),
    /// else "brings the share of duels where Knight dies to 25%"; `fight` is what is fought,
    /// "duel" or "fight" (sides of several).
    pub fn goal(b: &Balance, names: [&str; 2], fight: &str) -> String {
        let outcome = Answer::rate_words(b, names, fight);
        if b.rate <= 1 && b.target == 0.5 {
            format!("makes the {fight} even")
        } else {
            let target = format!("{:.4}", 100.0 * b.target);
            let target = target.trim_end_matches('0').trim_end_matches('.');
            format!("brings the share of {fight}s where {outcome} to {target}%")
        }
    }

    /// The rate searched, in words: "Knight wins", "the duel is drawn", "Knight dies".
    pub fn rate_words(b: &Balance, names: [&str; 2], fight: &str) -> String {
        match b.rate {
            0 => format!("{} wins", names[0]),
            1 => format!("{} wins", names[1]),
            2 => format!("the {fight} is drawn"),
            3 => format!("{} dies", names[0]),
            PARTY_DEATH => "a fighter of the party dies".to_owned(),
            _ => format!("{} dies", names[1]),
        }
    }

    /// The answer with its file's path and column names, for the terminal and scripts:
    /// "a_win_rate crosses 0.5 between b.melee_ml = 50 (0.5066 [0.5035, 0.5097]) and ...".
    pub fn text(&self, b: &Balance) -> String {
        let rate_name = TARGETS[b.rate];
        let target = b.target;
        let path = &b.path;
        let shown = |r: Rate| format!("{:.4} [{:.4}, {:.4}]", r.0, r.1, r.2);
        let mut text = match self.found {
            Found::Unreachable([(lo, f_lo), (hi, f_hi)]) => format!(
                "{rate_name} does not reach {target} for {path} from {} to {}: it is {} at {} and {} at {}; the target is not reachable in the range",
                b.label(lo),
                b.label(hi),
                shown(f_lo),
                b.label(lo),
                shown(f_hi),
                b.label(hi)
            ),
            Found::At(at, f) => {
                format!(
                    "{rate_name} is {target} at {path} = {} ({})",
                    b.label(at),
                    shown(f)
                )
            }
            Found::Between([(lo, f_lo), (hi, f_hi)]) => format!(
                "{rate_name} crosses {target} between {path} = {} ({}) and {path} = {} ({})",
                b.label(lo),
                shown(f_lo),
                b.label(hi),
                shown(f_hi)
            ),
            Found::Interpolated {
                at: (at, at_lo, at_hi),
                around: [(lo, f_lo), (hi, f_hi)],
            } => format!(
                "{rate_name} crosses {target} at {path} = {at:.4} [{at_lo:.4}, {at_hi:.4}] (interpolated between {} at {} and {} at {})",
                b.label(lo),
                shown(f_lo),
                b.label(hi),
                shown(f_hi)
            ),
        };
        if let Some(note) = &self.note {
            text.push_str(&format!(" ({note})"));
        }
        text
    }

    /// The answer as a designer reads it in a rulebook: "Spearman's melee ML 50-51 makes the
    /// duel even: Knight wins 50.7% [50.4, 51.0] at 50, 49.7% [49.4, 50.0] at 51". `title` is
    /// the path in words ("Spearman's melee ML"), `names` the fighters', `fight` what they fight
    /// ("duel", or "fight" for sides of several).
    pub fn words(&self, b: &Balance, title: &str, names: [&str; 2], fight: &str) -> String {
        let pct = |r: Rate| {
            format!(
                "{:.1}% [{:.1}, {:.1}]",
                100.0 * r.0,
                100.0 * r.1,
                100.0 * r.2
            )
        };
        let outcome = Answer::rate_words(b, names, fight);
        let goal = Answer::goal(b, names, fight);
        let mut words = match self.found {
            Found::Unreachable([(lo, f_lo), (hi, f_hi)]) => format!(
                "No {title} from {} to {} {goal}: {outcome} {} at {} and {} at {}.",
                b.label(lo),
                b.label(hi),
                pct(f_lo),
                b.label(lo),
                pct(f_hi),
                b.label(hi)
            ),
            Found::At(at, f) => format!("{title} {} {goal}: {outcome} {}.", b.label(at), pct(f)),
            Found::Between([(lo, f_lo), (hi, f_hi)]) => format!(
                "{title} {}–{} {goal}: {outcome} {} at {}, {} at {}.",
                b.label(lo),
                b.label(hi),
                pct(f_lo),
                b.label(lo),
                pct(f_hi),
                b.label(hi)
            ),
            Found::Interpolated {
                at: (at, at_lo, at_hi),
                around: [(lo, f_lo), (hi, f_hi)],
            } => format!(
                "{title} {at:.2} [{at_lo:.2}, {at_hi:.2}] {goal} (between {}, where {outcome} {}, and {}, {}).",
                b.label(lo),
                pct(f_lo),
                b.label(hi),
                pct(f_hi)
            ),
        };
        if let Some(note) = &self.note {
            words.push_str(&format!(" ({note}.)"));
        }
        words
    }
}

/// A `[balance]` search.
#[derive(Clone, Debug)]
pub struct Balance {
    /// The dotted path whose value is searched.
    pub path: String,
    /// The range searched.
    pub from: f64,
    /// The range searched.
    pub to: f64,
    /// Whether the value is an integer (from and to are both integers).
    pub integer: bool,
    /// Which rate ([`TARGETS`] index).
    pub rate: usize,
    /// The rate aimed at.
    pub target: f64,
    /// The scenario's text and file, to build a model at a value.
    text: String,
    file: PathBuf,
    /// With a `[sweep]`: each sweep point's text (the file with its values written in, without
    /// its `[sweep]`), in point order; empty without one.
    points: Vec<String>,
}

/// Bisection steps for a real-valued path after the two ends.
pub const REAL_STEPS: u32 = 12;

/// Bisection steps for a real-valued path split over shards: every shard runs each of the
/// 2^6 + 1 values the search could reach.
pub const SHARD_REAL_STEPS: u32 = 6;

/// The most values of an integer range a split search runs (each on every shard).
pub const SHARD_MAX_VALUES: u64 = 257;

/// A rate with its 95% interval: (rate, lo, hi).
pub type Rate = (f64, f64, f64);

impl Balance {
    /// The most evaluations the search can take: the two ends and the bisection steps.
    pub fn evaluations_at_most(&self) -> u32 {
        let steps = if self.integer {
            let width = (self.to - self.from).max(1.0);
            width.log2().ceil().max(0.0) as u32
        } else {
            REAL_STEPS
        };
        2 + steps
    }

    /// Whether the file sweeps: a search at each sweep point.
    pub fn swept(&self) -> bool {
        !self.points.is_empty()
    }

    /// The searches a run makes, in point order: one per sweep point (the search of the file
    /// with that point's values written in, exactly as a file of that point alone), or the
    /// file's own when it does not sweep.
    pub fn searches(&self) -> Vec<Balance> {
        if self.points.is_empty() {
            return vec![self.clone()];
        }
        self.points
            .iter()
            .map(|text| Balance {
                text: text.clone(),
                ..self.clone_spec()
            })
            .collect()
    }

    /// The same search with no text (the settings alone), for [`Balance::searches`].
    fn clone_spec(&self) -> Balance {
        Balance {
            path: self.path.clone(),
            from: self.from,
            to: self.to,
            integer: self.integer,
            rate: self.rate,
            target: self.target,
            text: String::new(),
            file: self.file.clone(),
            points: Vec::new(),
        }
    }

    /// The same search run at each of these sweep points' texts (see [`Balance::searches`]).
    pub(crate) fn at_points(self, points: Vec<String>) -> Balance {
        Balance { points, ..self }
    }

    /// The searches of the file: one per sweep point, or one.
    pub fn search_count(&self) -> usize {
        self.points.len().max(1)
    }

    /// The most evaluations of the whole file: each search's most, times the searches.
    pub fn evaluations_in_all(&self) -> u64 {
        self.search_count() as u64 * u64::from(self.evaluations_at_most())
    }

    /// Bisection steps after the two ends for a real path: fewer when split over shards.
    pub fn real_steps(&self, split: bool) -> u32 {
        if split { SHARD_REAL_STEPS } else { REAL_STEPS }
    }

    /// Every value a search split over shards could ask for, in increasing order: each integer
    /// of the range, or each value [`SHARD_REAL_STEPS`] halvings can reach (computed as the
    /// search computes them, so each is the same `f64`). An error names the limit when an
    /// integer range is too wide to run every value.
    pub fn shard_plan(&self) -> Result<Vec<f64>, String> {
        if self.integer {
            let count = (self.to - self.from) as u64 + 1;
            if count > SHARD_MAX_VALUES {
                return Err(format!(
                    "a [balance] range split over shards runs every value on every shard, and {} from {} to {} has {count}; expected at most {SHARD_MAX_VALUES} values with --shard (narrow the range, or run the search on one machine, which bisects)",
                    self.path,
                    self.label(self.from),
                    self.label(self.to)
                ));
            }
            return Ok((0..count).map(|k| self.from + k as f64).collect());
        }
        fn halve(lo: f64, hi: f64, depth: u32, out: &mut Vec<f64>) {
            if depth == 0 {
                return;
            }
            let mid = (lo + hi) / 2.0;
            out.push(mid);
            halve(lo, mid, depth - 1, out);
            halve(mid, hi, depth - 1, out);
        }
        let mut values = vec![self.from, self.to];
        halve(self.from, self.to, SHARD_REAL_STEPS, &mut values);
        values.sort_by(f64::total_cmp);
        values.dedup();
        Ok(values)
    }

    /// Walks the search: both ends, then bisection until the two values around the crossing are
    /// neighbours (integers) or after `real_steps` (reals), asking `evaluate` for the rate at each
    /// value in turn. Returns the answer ([`Answer::text`] and [`Answer::words`] say it).
    pub fn search<E>(
        &self,
        real_steps: u32,
        mut evaluate: impl FnMut(f64) -> Result<Rate, E>,
    ) -> Result<Answer, E> {
        let target = self.target;
        let (mut lo, mut hi) = (self.from, self.to);
        let mut f_lo = evaluate(lo)?;
        let mut f_hi = evaluate(hi)?;
        let found = |found: Found| Ok(Answer { found, note: None });
        if (f_lo.0 - target) * (f_hi.0 - target) > 0.0 {
            return found(Found::Unreachable([(lo, f_lo), (hi, f_hi)]));
        }
        let mut steps = 0;
        loop {
            let done = if self.integer {
                hi - lo <= 1.0
            } else {
                steps >= real_steps
            };
            if done || f_lo.0 == target || f_hi.0 == target {
                break;
            }
            steps += 1;
            let mid = if self.integer {
                ((lo + hi) / 2.0).floor()
            } else {
                (lo + hi) / 2.0
            };
            let f = evaluate(mid)?;
            if (f.0 - target) * (f_lo.0 - target) > 0.0 {
                (lo, f_lo) = (mid, f);
            } else {
                (hi, f_hi) = (mid, f);
            }
        }
        if f_lo.0 == target {
            return found(Found::At(lo, f_lo));
        }
        if f_hi.0 == target {
            return found(Found::At(hi, f_hi));
        }
        if self.integer {
            return found(Found::Between([(lo, f_lo), (hi, f_hi)]));
        }
        let slope = (f_hi.0 - f_lo.0) / (hi - lo);
        let at = if slope == 0.0 {
            (lo + hi) / 2.0
        } else {
            lo + (target - f_lo.0) / slope
        };
        // The rate's interval near the crossing, carried through the slope.
        let half = ((f_lo.2 - f_lo.1) + (f_hi.2 - f_hi.1)) / 4.0;
        let spread = if slope == 0.0 {
            hi - lo
        } else {
            (half / slope).abs()
        };
        found(Found::Interpolated {
            at: (at, at - spread, at + spread),
            around: [(lo, f_lo), (hi, f_hi)],
        })
    }

    /// The value as written in a column.
    pub fn label(&self, value: f64) -> String {
        if self.integer {
            format!("{}", value as i64)
        } else {
            format!("{value}")
        }
    }

    /// The scenario's model with the path set to `value`.
    pub fn model_at<R: Rulesets>(&self, value: f64) -> Result<R::Model, InputError> {
        let v = if self.integer {
            Value::from(value as i64)
        } else {
            Value::from(value)
        };
        super::model_with::<R>(&self.file, &self.text, "balance.path", &[(&self.path, v)])
    }
}

/// Reads `[balance]`; `None` when the file has none.
pub fn read(source: &Source) -> Result<Option<Balance>, InputError> {
    let document = toml_edit::Document::parse(source.text)
        .map_err(|e| source.error_at(e.span(), None, e.message().to_owned()))?;
    let Some(item) = document.get("balance") else {
        return Ok(None);
    };
    let span = item.span();
    // An error is placed at the value it is about, or at the table when that is missing.
    let bad = |field: &str, message: String| {
        let keys: Vec<&str> = field.split('.').collect();
        let at = source.span_of(&keys).or_else(|| span.clone());
        source.error_at(at, Some(field), message)
    };
    let Some(table) = item.as_table_like() else {
        return Err(bad(
            "balance",
            "is not a table; expected path, from, to and target".into(),
        ));
    };
    for (key, _) in table.iter() {
        if !matches!(key, "path" | "from" | "to" | "target") {
            return Err(bad(
                &format!("balance.{key}"),
                "is not a [balance] setting; expected path, from, to or target".into(),
            ));
        }
    }
    let path = table
        .get("path")
        .and_then(|i| i.as_str())
        .ok_or_else(|| {
            bad(
                "balance.path",
                "missing; expected the dotted path of a number, such as \"a.attack\"".into(),
            )
        })?
        .to_owned();
    let number = |key: &str| -> Result<(f64, bool), InputError> {
        match table.get(key).and_then(|i| i.as_value()) {
            Some(Value::Integer(i)) => Ok((*i.value() as f64, true)),
            Some(Value::Float(f)) if f.value().is_finite() => Ok((*f.value(), false)),
            _ => Err(bad(
                &format!("balance.{key}"),
                "missing or not a finite number; expected the end of the range searched".into(),
            )),
        }
    };
    let ((from, int_from), (to, int_to)) = (number("from")?, number("to")?);
    if to <= from || (to - from) > 1e15 {
        return Err(bad(
            "balance.to",
            format!("is {to} with from {from}; expected from < to (a range of at most 1e15)"),
        ));
    }
    let target = table
        .get("target")
        .and_then(|i| i.as_table_like())
        .ok_or_else(|| bad("balance.target", format!("missing; expected one rate and its value, such as {{ a_win_rate = 0.5 }}; rates: {}", TARGETS.join(", "))))?;
    let mut entries = target.iter();
    let (Some((name, value)), None) = (entries.next(), entries.next()) else {
        return Err(bad(
            "balance.target",
            "expected exactly one rate, such as { a_win_rate = 0.5 }".into(),
        ));
    };
    let rate = TARGETS.iter().position(|t| *t == name).ok_or_else(|| {
        bad(
            &format!("balance.target.{name}"),
            format!(
                "is not a rate balance can aim at; expected one of: {}",
                TARGETS.join(", ")
            ),
        )
    })?;
    let campaign = toml_edit::Document::parse(source.text)
        .ok()
        .and_then(|d| {
            d.get("kind")
                .and_then(|k| k.as_str())
                .map(|k| k == "campaign")
        })
        .unwrap_or(false);
    if rate == PARTY_DEATH && !campaign {
        return Err(bad(
            &format!("balance.target.{name}"),
            "is a campaign's rate (kind = \"campaign\"); expected a_dead_rate for a fight".into(),
        ));
    }
    let value = match value.as_value() {
        Some(Value::Float(f)) => *f.value(),
        Some(Value::Integer(i)) => *i.value() as f64,
        _ => f64::NAN,
    };
    if !(0.0..=1.0).contains(&value) {
        return Err(bad(
            &format!("balance.target.{name}"),
            "expected a rate from 0 to 1".into(),
        ));
    }
    Ok(Some(Balance {
        path,
        from,
        to,
        integer: int_from && int_to,
        rate,
        target: value,
        text: source.text.to_owned(),
        file: source.path.to_owned(),
        points: Vec::new(),
    }))
}

/// The rate a `[balance]` aims at, from a point's tally: its count over the trials, with the
/// 95% Wilson interval.
pub fn rate(tally: &crate::stats::Tally, rate: usize) -> Rate {
    // Win and draw rates are shares of the trials; dead rates of each side's fighters.
    // A campaign's party death: the campaigns that do not end with the whole party alive.
    let whole = format!("survivors{}", tally.sides[0]);
    let party_whole = (tally.extras.iter().zip(&tally.extra))
        .find(|(e, _)| e.name == whole)
        .map_or(tally.trials, |(_, &n)| n);
    let counts = [
        (tally.ends[0], tally.trials),
        (tally.ends[1], tally.trials),
        (tally.ends[2], tally.trials),
        (tally.dead[0], tally.fighter_trials(0)),
        (tally.dead[1], tally.fighter_trials(1)),
        (tally.trials - party_whole.min(tally.trials), tally.trials),
    ];
    let (count, of) = counts[rate.min(counts.len() - 1)];
    crate::stats::wilson(count, of)
}

/// Where a target the range does not reach lies, from the rate at its two ends: above the range
/// (`Some(true)`), below it (`Some(false)`), or unknown when the rate is the same at both.
pub fn beyond(at_from: f64, at_to: f64, target: f64) -> Option<bool> {
    let trend = at_to - at_from;
    (trend != 0.0).then_some(trend * (target - at_to) > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn balance(from: f64, to: f64, integer: bool) -> Balance {
        Balance {
            path: "a.attack".into(),
            from,
            to,
            integer,
            rate: 0,
            target: 0.5,
            text: String::new(),
            file: PathBuf::new(),
            points: Vec::new(),
        }
    }

    #[test]
    fn a_split_search_runs_every_value_the_bisection_can_ask_for_and_no_other() {
        for b in [balance(0.0, 19.0, true), balance(0.3, 2.9, false)] {
            let plan = b.shard_plan().unwrap_or_else(|e| panic!("{e}"));
            let expected = if b.integer {
                20
            } else {
                (1 << SHARD_REAL_STEPS) + 1
            };
            assert_eq!(plan.len(), expected);
            // Crossings everywhere in the range: every value asked for is in the plan, bit for bit.
            for crossing in 0..=64 {
                let at = b.from + (b.to - b.from) * f64::from(crossing) / 64.0;
                let mut asked = 0;
                let answer = b.search(b.real_steps(true), |v| {
                    asked += 1;
                    assert!(
                        plan.iter().any(|p| p.total_cmp(&v).is_eq()),
                        "{v} not in the plan"
                    );
                    let r = if v < at { 0.0 } else { 1.0 };
                    Ok::<_, ()>((r, r, r))
                });
                assert!(answer.is_ok());
                assert!(asked <= 2 + if b.integer { 5 } else { SHARD_REAL_STEPS });
            }
        }
        let wide = balance(0.0, SHARD_MAX_VALUES as f64, true);
        assert!(
            wide.shard_plan()
                .is_err_and(|m| m.contains("at most 257 values"))
        );
    }
}
