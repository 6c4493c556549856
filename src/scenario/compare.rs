//! `[compare]` and `[weights]`: which point every other is compared with on the same dice, and
//! the points that measure what a step of a value is worth.
//!
//! `[compare] baseline = { "a.weapon" = "sword" }` names the baseline point by its swept
//! values (without `baseline`, the first point). `[weights] "a.attack" = 1` makes the scenario's
//! points the file as written (the base) and one point per entry with that value moved by its
//! step, compared with the base: their differences are what each step is worth. This module
//! reads the two tables; the engine runs the comparisons.

use super::error::{InputError, Source};
use super::sweep::text_of;
use std::ops::Range;
use toml_edit::{Item, Value};

/// One `[weights]` entry: a path and the step it is moved by.
#[derive(Clone, Debug)]
pub struct Weight {
    /// The dotted path as written.
    pub path: String,
    /// The step.
    pub step: Value,
    /// Where the entry is written.
    pub span: Range<usize>,
}

/// The `[weights]` entries, in the file's order; empty when there are none.
pub fn weights(source: &Source) -> Result<Vec<Weight>, InputError> {
    let document = toml_edit::Document::parse(source.text)
        .map_err(|e| source.error_at(e.span(), None, e.message().to_owned()))?;
    let Some(item) = document.get("weights") else {
        return Ok(Vec::new());
    };
    let span = item.span().unwrap_or(0..0);
    let Some(table) = item.as_table_like() else {
        return Err(source.error_at(
            Some(span),
            Some("weights"),
            "is not a table; expected [weights] with entries such as \"a.attack\" = 1",
        ));
    };
    let mut out = Vec::new();
    for (key, value) in table.iter() {
        let place = value.span().or_else(|| item.span());
        match value {
            Item::Value(v @ (Value::Integer(_) | Value::Float(_))) => {
                let step = match v {
                    Value::Float(f) => f.value().is_finite() && *f.value() != 0.0,
                    Value::Integer(i) => *i.value() != 0,
                    _ => false,
                };
                if !step {
                    return Err(source.error_at(
                        place,
                        Some(&format!("weights.{key}")),
                        "is 0 or not finite; expected a step such as 1 or -0.5",
                    ));
                }
                out.push(Weight {
                    path: key.to_owned(),
                    step: v.clone(),
                    span: place.unwrap_or(0..0),
                });
            }
            _ => {
                return Err(source.error_at(
                    place,
                    Some(&format!("weights.{key}")),
                    "is not a number; expected the step of the value, such as \"a.attack\" = 1",
                ));
            }
        }
    }
    if out.is_empty() {
        return Err(source.error_at(
            Some(span),
            Some("weights"),
            "is empty; expected entries such as \"a.attack\" = 1",
        ));
    }
    // Each entry is a point of the run, with the base.
    if out.len() >= super::sweep::MAX_POINTS {
        return Err(source.error_at(
            Some(span),
            Some("weights"),
            format!(
                "has {} entries; expected at most {} (each is a point of the run, with the base)",
                out.len(),
                super::sweep::MAX_POINTS - 1
            ),
        ));
    }
    Ok(out)
}

/// The baseline point named by `[compare]`: `None` without `[compare]`, the first point when it
/// names none, else the point whose swept values are those it names.
pub fn baseline(
    source: &Source,
    swept: &[Vec<(String, String)>],
) -> Result<Option<usize>, InputError> {
    let document = toml_edit::Document::parse(source.text)
        .map_err(|e| source.error_at(e.span(), None, e.message().to_owned()))?;
    let Some(item) = document.get("compare") else {
        return Ok(None);
    };
    let span = item.span().unwrap_or(0..0);
    let Some(table) = item.as_table_like() else {
        return Err(source.error_at(
            Some(span),
            Some("compare"),
            "is not a table; expected [compare] with baseline = { \"a.weapon\" = \"sword\" } (or nothing: the first point)",
        ));
    };
    if swept.len() < 2 {
        return Err(source.error_at(
            Some(span),
            Some("compare"),
            "compares the points of a [sweep], but this file has one point; expected a [sweep]",
        ));
    }
    for (key, _) in table.iter() {
        if key != "baseline" {
            return Err(source.error_at(
                Some(span.clone()),
                Some(&format!("compare.{key}")),
                "is not a [compare] setting; expected baseline",
            ));
        }
    }
    let Some(wanted) = table.get("baseline") else {
        return Ok(Some(0));
    };
    let place = wanted.span().or(Some(span));
    let Some(wanted) = wanted.as_table_like() else {
        return Err(source.error_at(
            place,
            Some("compare.baseline"),
            "is not a table; expected the swept values of one point, such as { \"a.weapon\" = \"sword\" }",
        ));
    };
    let paths: Vec<&str> = swept[0].iter().map(|(k, _)| k.as_str()).collect();
    let mut required = Vec::new();
    for (key, value) in wanted.iter() {
        if !paths.contains(&key) {
            return Err(source.error_at(
                place.clone(),
                Some(&format!("compare.baseline.{key}")),
                format!("is not swept; expected one of: {}", paths.join(", ")),
            ));
        }
        let label = value.as_value().map(text_of).unwrap_or_default();
        required.push((key.to_owned(), label));
    }
    swept
        .iter()
        .position(|point| {
            required
                .iter()
                .all(|(k, v)| point.iter().any(|(pk, pv)| pk == k && pv == v))
        })
        .map(Some)
        .ok_or_else(|| {
            let asked: Vec<String> = required.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            source.error_at(
                place,
                Some("compare.baseline"),
                format!(
                    "no point has {}; expected the swept values of one point",
                    asked.join(", ")
                ),
            )
        })
}
