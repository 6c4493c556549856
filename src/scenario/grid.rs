//! `[exact] grid`: the one or two whole-number values `duelsim exact` varies to print a rulebook
//! table, one cell per pair.
//!
//! ```toml
//! [exact]
//! grid = { "a.attack" = { from = 5, to = 20 }, "b.defense" = { from = 0, to = 15 } }
//! ```
//!
//! This module reads the table and builds the model of a cell (the file with the cell's values
//! written in, compiled as any scenario); `duelsim exact` walks each cell's exchange.

use super::error::{InputError, Source};
use super::{Model, parse_one};
use std::path::PathBuf;
use toml_edit::{DocumentMut, Value};

/// The most cells a grid may have.
pub const MAX_CELLS: usize = 4096;

/// A grid of one or two paths.
#[derive(Clone, Debug)]
pub struct Grid {
    /// Each varied path with its values, in the order written: rows, then columns.
    pub axes: Vec<(String, Vec<i64>)>,
    text: String,
    file: PathBuf,
}

impl Grid {
    /// The scenario's model with each axis set to the value of `cell` (one index per axis).
    pub fn model_at(&self, cell: &[usize]) -> Result<Model, InputError> {
        let mut document: DocumentMut = self.text.parse().map_err(|e| InputError {
            place: self.file.display().to_string(),
            field: Some("exact.grid".into()),
            message: format!("cannot read for the grid: {e}"),
        })?;
        let mut written = Vec::new();
        for ((path, values), &i) in self.axes.iter().zip(cell) {
            let value = values.get(i).copied().unwrap_or_default();
            super::sweep::set_path(&mut document, path, Value::from(value)).map_err(|m| {
                InputError {
                    place: self.file.display().to_string(),
                    field: Some(format!("exact.grid.{path}")),
                    message: m,
                }
            })?;
            written.push(format!("{path} = {value}"));
        }
        let scenario = parse_one(&self.file, &document.to_string()).map_err(|e| InputError {
            message: format!("{} (at {})", e.message, written.join(", ")),
            ..e
        })?;
        scenario
            .points
            .into_iter()
            .next()
            .map(|p| p.model)
            .ok_or_else(|| InputError::plain("the grid scenario has no point"))
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
pub fn read(source: &Source) -> Result<Option<Grid>, InputError> {
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
        if key != "grid" {
            return Err(bad(
                item,
                &format!("exact.{key}"),
                "is not an [exact] setting; expected grid".into(),
            ));
        }
    }
    let Some(grid) = table.get("grid") else {
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
        if step < 1 || to < from || (to - from) / step >= MAX_CELLS as i64 {
            return Err(bad(
                item,
                &field,
                format!(
                    "is from {from} to {to} by {step}; expected from <= to, a step of 1 or more and at most {MAX_CELLS} values"
                ),
            ));
        }
        let values: Vec<i64> = (0..=(to - from) / step).map(|k| from + k * step).collect();
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
    // The corners must compile: a bad path or value is an error now, not after the walk.
    let last: Vec<usize> = grid.axes.iter().map(|(_, v)| v.len() - 1).collect();
    grid.model_at(&vec![0; grid.axes.len()])?;
    grid.model_at(&last)?;
    Ok(Some(grid))
}
