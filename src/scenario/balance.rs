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
//! luck. This module reads the table and builds the model at a value; `run` does the search.

use super::error::{InputError, Source};
use super::{Model, parse_one};
use std::path::PathBuf;
use toml_edit::{DocumentMut, Value};

/// The rates a balance can aim at: name, and which count of the tally over its trials.
pub const TARGETS: [&str; 5] = [
    "a_win_rate",
    "b_win_rate",
    "draw_rate",
    "a_dead_rate",
    "b_dead_rate",
];

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
}

/// Bisection steps for a real-valued path after the two ends.
pub const REAL_STEPS: u32 = 12;

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

    /// The value as written in a column.
    pub fn label(&self, value: f64) -> String {
        if self.integer {
            format!("{}", value as i64)
        } else {
            format!("{value}")
        }
    }

    /// The scenario's model with the path set to `value`.
    pub fn model_at(&self, value: f64) -> Result<Model, InputError> {
        let mut document: DocumentMut = self.text.parse().map_err(|e| InputError {
            place: self.file.display().to_string(),
            field: Some("balance".into()),
            message: format!("cannot read for the balance: {e}"),
        })?;
        let v = if self.integer {
            Value::from(value as i64)
        } else {
            Value::from(value)
        };
        super::sweep::set_path(&mut document, &self.path, v).map_err(|m| InputError {
            place: self.file.display().to_string(),
            field: Some(format!("balance.path ({})", self.path)),
            message: m,
        })?;
        let scenario = parse_one(&self.file, &document.to_string()).map_err(|e| InputError {
            message: format!("{} (at {} = {})", e.message, self.path, self.label(value)),
            ..e
        })?;
        scenario
            .points
            .into_iter()
            .next()
            .map(|p| p.model)
            .ok_or_else(|| InputError::plain("the balance scenario has no point"))
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
    let bad = |field: &str, message: String| source.error_at(span.clone(), Some(field), message);
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
    }))
}
