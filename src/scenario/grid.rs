//! `[exact] grid`: the one or two whole-number values `duelsim exact` varies to print a rulebook
//! table, one cell per pair.
//!
//! ```toml
//! [exact]
//! grid = { "a.attack" = { from = 5, to = 20 }, "b.defense" = { from = 0, to = 15 } }
//! fractions = true   # cells as exact fractions (39/400) rather than percentages
//! ```
//!
//! This module reads the table and builds the model of a cell (the file with the cell's values
//! written in, compiled as any scenario); `duelsim exact` walks each cell's exchange.

use super::Rulesets;
use super::error::{InputError, Source};
use std::path::PathBuf;
use toml_edit::Value;

/// The most cells a grid may have.
pub const MAX_CELLS: usize = 4096;

/// A grid of one or two paths.
#[derive(Clone, Debug)]
pub struct Grid {
    /// Each varied path with its values, in the order written: rows, then columns.
    pub axes: Vec<(String, Vec<i64>)>,
    /// `fractions = true`: the report and the rulebook tables write each cell's chance as its
    /// exact fraction (`39/400`) rather than a percentage.
    pub fractions: bool,
    text: String,
    file: PathBuf,
}

impl Grid {
    /// The scenario's model with each axis set to the value of `cell` (one index per axis).
    pub fn model_at<R: Rulesets>(&self, cell: &[usize]) -> Result<R::Model, InputError> {
        let values: Vec<(&str, Value)> = self
            .axes
            .iter()
            .zip(cell)
            .map(|((path, values), &i)| {
                (
                    path.as_str(),
                    Value::from(values.get(i).copied().unwrap_or_default()),
                )
            })
            .collect();
        super::model_with::<R>(&self.file, &self.text, "exact.grid", &values)
    }

    /// The scenario file the grid is written in.
    pub fn file(&self) -> &std::path::Path {
        &self.file
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.axes.iter().map(|(_, v)| v.len()).product()
    }
}

/// Reads `[exact] grid`; `None` when the file has none.
pub fn read<R: Rulesets>(
    source: &Source,
    catalogue_bytes: usize,
) -> Result<Option<Grid>, InputError> {
    let document = toml_edit::Document::parse(source.text)
        .map_err(|e| source.error_at(e.span(), None, e.message().to_owned()))?;
    let Some(exact) = document.get("exact") else {
        return Ok(None);
    };
    let bad = |item: &toml_edit::Item, field: &str, message: String| {
        source.error_at(item.span(), Some(field), message)
    };
    let Some(table) = exact.as_table_like() else {
        return Err(bad(
            exact,
            "exact",
            "is not a table; expected grid = { ... }".into(),
        ));
    };
    for (key, item) in table.iter() {
        if key != "grid" && key != "fractions" {
            return Err(bad(
                item,
                &format!("exact.{key}"),
                "is not an [exact] setting; expected grid or fractions".into(),
            ));
        }
    }
    let fractions = match table.get("fractions") {
        None => false,
        Some(item) => item
            .as_value()
            .and_then(toml_edit::Value::as_bool)
            .ok_or_else(|| {
                bad(
                    item,
                    "exact.fractions",
                    "is not true or false; expected fractions = true to write exact fractions"
                        .into(),
                )
            })?,
    };
    let Some(grid) = table.get("grid") else {
        if let Some(item) = table.get("fractions") {
            return Err(bad(
                item,
                "exact.fractions",
                "is set without a grid; expected grid = { ... } beside it (fractions apply to its cells)".into(),
            ));
        }
        return Ok(None);
    };
    let Some(entries) = grid.as_table_like() else {
        return Err(bad(
            grid,
            "exact.grid",
            "is not a table; expected one or two paths, such as { \"a.attack\" = { from = 5, to = 20 } }".into(),
        ));
    };
    let mut axes = Vec::new();
    for (path, item) in entries.iter() {
        let field = format!("exact.grid.{path}");
        let range = item.as_table_like();
        let number = |key: &str| -> Option<i64> { range?.get(key)?.as_value()?.as_integer() };
        let (Some(from), Some(to)) = (number("from"), number("to")) else {
            return Err(bad(
                item,
                &field,
                "expected { from = N, to = M } with whole numbers (and step = S if not 1)".into(),
            ));
        };
        let step = number("step").unwrap_or(1);
        let span = i128::from(to) - i128::from(from);
        if step < 1 || span < 0 || span / i128::from(step) >= MAX_CELLS as i128 {
            return Err(bad(
                item,
                &field,
                format!(
                    "is from {from} to {to} by {step}; expected from <= to, a step of 1 or more and at most {MAX_CELLS} values"
                ),
            ));
        }
        // At most MAX_CELLS values, each between from and to: no overflow.
        let count = (span / i128::from(step)) as i64;
        let values: Vec<i64> = (0..=count).map(|k| from + k * step).collect();
        axes.push((path.to_owned(), values));
    }
    if axes.is_empty() || axes.len() > 2 {
        return Err(bad(
            grid,
            "exact.grid",
            format!("has {} paths; expected one or two", axes.len()),
        ));
    }
    let grid = Grid {
        axes,
        fractions,
        text: source.text.to_owned(),
        file: source.path.to_owned(),
    };
    if grid.cells() > MAX_CELLS {
        return Err(bad(
            exact,
            "exact.grid",
            format!("has {} cells; expected at most {MAX_CELLS}", grid.cells()),
        ));
    }
    // Each cell is the file with its values written in, read again.
    super::sweep::bound_work(
        source,
        exact.span(),
        "exact.grid",
        "cells",
        grid.cells(),
        source.text.len() + catalogue_bytes,
    )?;
    // The corners must compile: a bad path or value is an error now, not after the walk.
    let last: Vec<usize> = grid.axes.iter().map(|(_, v)| v.len() - 1).collect();
    grid.model_at::<R>(&vec![0; grid.axes.len()])?;
    grid.model_at::<R>(&last)?;
    Ok(Some(grid))
}
