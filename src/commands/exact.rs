//! `duelsim exact`: the exact tables of one exchange each way and the rulebook grid, written
//! as CSV, charts and a report.

use crate::report::{self};
use crate::rules::registry::{self, Registry};
use crate::scenario::error::InputError;
use anyhow::Result;
use std::path::{Path, PathBuf};

/// `duelsim exact`: the exact distribution of one exchange each way (a on b, b on a) of the
/// scenario's first point, and the rulebook grid of its `[exact] grid`, written to `output` (or
/// `reports/<name>-exact`). Returns the folder.
pub fn exact(path: &Path, output: Option<&Path>, quiet: bool) -> Result<PathBuf> {
    use crate::stats::Side;
    let text = crate::scenario::error::read_text(path, "scenario file")?;
    let scenario = registry::parse(path, &text)?;
    let Some(first) = scenario.points.first() else {
        return Err(InputError::plain(format!("{}: no point to tabulate", path.display())).into());
    };
    let bad = |m: String| InputError::plain(format!("{}: exact: {m}", path.display()));
    let model = &first.model;
    // One exchange is between two fighters: a side of several has no one exchange.
    let sides = model.shape().sides;
    if sides != [1, 1] {
        return Err(bad(format!(
            "tabulates one exchange between two fighters, and the sides hold {} and {}; expected one fighter on each side (count = 1)",
            sides[0], sides[1]
        ))
        .into());
    }
    let tables = [
        crate::rules::registry::exact_table(model, Side::A).map_err(bad)?,
        crate::rules::registry::exact_table(model, Side::B).map_err(bad)?,
    ];
    let names = model.names().map(str::to_owned);
    let source = crate::scenario::error::Source { path, text: &text };
    let mut grid_values = Vec::new();
    let mut fractions = false;
    let grid =
        match crate::scenario::grid::read::<Registry>(&source, scenario.sources.catalogue_bytes())?
        {
            None => None,
            Some(g) => {
                fractions = g.fractions;
                let title = |k: usize| {
                    g.axes.get(k).map_or_else(String::new, |(p, _)| {
                        report::words::axis_title(p, model.names(), scenario.ruleset)
                    })
                };
                let rows = &g.axes[0].1;
                let columns = g.axes.get(1).map_or(&[][..], |(_, v)| &v[..]);
                let cell_tables = crate::rules::registry::grid_tables(&g)?;
                let width = columns.len().max(1);
                let mut hit = Vec::new();
                for (r, &rv) in rows.iter().enumerate() {
                    hit.push(
                        cell_tables[r * width..(r + 1) * width]
                            .iter()
                            .map(crate::exact::Table::hit)
                            .collect::<Vec<_>>(),
                    );
                    for c in 0..width {
                        let mut values = vec![rv];
                        values.extend(columns.get(c));
                        grid_values.push((values, r * width + c));
                    }
                }
                let chart = report::charts::ExactGrid {
                    rows_title: title(0),
                    columns_title: title(1),
                    rows: rows.iter().map(i64::to_string).collect(),
                    columns: columns.iter().map(i64::to_string).collect(),
                    hit,
                    who: format!("{} attacks {}", names[0], names[1]),
                };
                let paths = g.axes.iter().map(|(p, _)| p.clone()).collect();
                Some((chart, cell_tables, paths))
            }
        };
    let dir = output.map_or_else(
        || Path::new("reports").join(format!("{}-exact", scenario.name)),
        Path::to_owned,
    );
    let cells = grid.as_ref().map_or(0, |g| g.1.len());
    let exact = report::exact::Exact {
        scenario: &scenario,
        names,
        tables,
        grid,
        fractions,
    };
    let _lock = crate::folder_lock::FolderLock::take(&dir)?;
    crate::journal::remove_stale_temporaries(&dir);
    report::exact::write(&exact, &grid_values, &dir)?;
    if !quiet {
        eprintln!(
            "{}: one exchange each way, exactly ({} and {} die outcomes){} -> {}",
            scenario.name,
            exact.tables[0].outcomes,
            exact.tables[1].outcomes,
            if cells > 0 {
                format!(", and a grid of {cells} cells")
            } else {
                String::new()
            },
            dir.display()
        );
    }
    Ok(dir)
}
