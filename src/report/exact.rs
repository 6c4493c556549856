//! The outputs of `duelsim exact`: `exact.csv` (tidy: direction, outcome, value, probability,
//! numerator, denominator), `grid.csv` for an `[exact] grid`, a chart per direction and the
//! grid's heatmap, and `report.html` with the tables. Written together, atomically, like a
//! run's outputs. This module formats finished tables; it walks no dice.

use super::charts::{ExactGrid, Rendered};
use super::html::{STYLE, escape};
use crate::exact::{Fraction, Table};
use crate::rules::registry::Scenario;
use anyhow::Result;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// A finished `duelsim exact`.
pub struct Exact<'a> {
    /// The scenario tabulated (its first point).
    pub scenario: &'a Scenario,
    /// The fighters' names.
    pub names: [String; 2],
    /// a's exchange on b, then b's on a.
    pub tables: [Table; 2],
    /// The grid: its chart data and each cell's table (row by row), when the file has one.
    pub grid: Option<(ExactGrid, Vec<Table>, Vec<String>)>,
    /// `[exact] fractions`: the grid's cells as exact fractions rather than percentages.
    pub fractions: bool,
}

/// A cell's chance to hit as the report and the rulebook table write it: a percentage to two
/// decimals (exact for d20 and d100 grids), or the exact fraction when the scenario asks.
fn hit_text(table: &Table, fractions: bool) -> String {
    match (fractions, table.hit_fraction()) {
        (true, Some(f)) => format!("{}/{}", f.numerator, f.denominator),
        _ => format!("{:.2}%", 100.0 * table.hit()),
    }
}

/// `tables/grid.md`: the rulebook grid as Markdown tables to paste into a rulebook: the chance
/// to hit (percentages, or fractions when asked), the chance of the best hit kind, the mean
/// value; rows and columns the grid's values, headed in words.
fn grid_markdown(grid: &ExactGrid, tables: &[Table], fractions: bool) -> String {
    let columns = grid.columns.len().max(1);
    let mut head = vec![if grid.columns_title.is_empty() {
        grid.rows_title.clone()
    } else {
        format!("{} \\ {}", grid.rows_title, grid.columns_title)
    }];
    if grid.columns.is_empty() {
        head.push("chance".to_owned());
    } else {
        head.extend(grid.columns.iter().cloned());
    }
    let table = |cell: &dyn Fn(&Table) -> String| {
        let rows: Vec<Vec<String>> = (grid.rows.iter().enumerate())
            .map(|(r, row)| {
                std::iter::once(row.clone())
                    .chain((0..columns).filter_map(|c| tables.get(r * columns + c).map(cell)))
                    .collect()
            })
            .collect();
        super::rulebook::markdown(&head, &rows, 1)
    };
    let best = tables.first().map_or("", |t| t.best_name());
    let unit = tables.first().map_or("", |t| t.unit);
    format!(
        "# Chance to hit: {who}\n\nOne exchange, computed exactly. Rows: {rows}{columns}.\n\n{hit}\n## Chance of {best}: {who}\n\n{best_table}\n## Mean {unit}: {who}\n\n{mean}",
        who = grid.who,
        rows = grid.rows_title,
        columns = if grid.columns_title.is_empty() {
            String::new()
        } else {
            format!("; columns: {}", grid.columns_title)
        },
        hit = table(&|t| hit_text(t, fractions)),
        best_table = table(&|t| format!("{:.2}%", 100.0 * t.best())),
        mean = table(&|t| format!("{:.2}", t.mean())),
    )
}

impl Exact<'_> {
    fn directions(&self) -> [String; 2] {
        [
            format!("{} attacks {}", self.names[0], self.names[1]),
            format!("{} attacks {}", self.names[1], self.names[0]),
        ]
    }
}

fn fraction_cells(p: &Fraction) -> String {
    format!("{:.9},{},{}", p.value(), p.numerator, p.denominator)
}

/// `exact.csv`: every outcome of both directions, with its probability and exact fraction.
pub fn exact_csv(exact: &Exact) -> String {
    let mut out = String::from("direction,outcome,value,probability,numerator,denominator\n");
    for (direction, table) in ["a->b", "b->a"].iter().zip(&exact.tables) {
        for (result, p) in &table.results {
            let _ = writeln!(out, "{direction},result,{result},{}", fraction_cells(p));
        }
        for (value, p) in &table.values {
            let unit = table.unit.replace(' ', "_");
            let _ = writeln!(out, "{direction},{unit},{value},{}", fraction_cells(p));
        }
        for (kind, p) in &table.kinds {
            let _ = writeln!(out, "{direction},mark,{kind},{}", fraction_cells(p));
        }
    }
    out
}

/// `grid.csv`: one row per cell: the paths' values, P(hit), P(best hit kind), mean value.
fn grid_csv(paths: &[String], cells: &[(Vec<i64>, &Table)]) -> String {
    let Some((_, first)) = cells.first() else {
        return String::new();
    };
    let best = first.best_name().replace(' ', "_");
    let unit = first.unit.replace(' ', "_");
    let mut out = format!(
        "{},p_hit,p_hit_fraction,p_{best},mean_{unit}\n",
        paths
            .iter()
            .map(|p| p.replace(',', " "))
            .collect::<Vec<_>>()
            .join(",")
    );
    for (values, table) in cells {
        let written: Vec<String> = values.iter().map(i64::to_string).collect();
        let fraction = table.hit_fraction().map_or_else(String::new, |f| {
            format!("{}/{}", f.numerator, f.denominator)
        });
        let _ = writeln!(
            out,
            "{},{:.9},{fraction},{:.9},{:.9}",
            written.join(","),
            table.hit(),
            table.best(),
            table.mean()
        );
    }
    out
}

/// Writes every output into `dir`; returns the files written.
pub fn write(exact: &Exact, grid_values: &[(Vec<i64>, usize)], dir: &Path) -> Result<Vec<PathBuf>> {
    let directions = exact.directions();
    let charts = super::charts::render_exact(
        &[
            (directions[0].clone(), &exact.tables[0]),
            (directions[1].clone(), &exact.tables[1]),
        ],
        exact.grid.as_ref().map(|g| &g.0),
    )?;
    let mut files = vec![("exact.csv".to_owned(), exact_csv(exact).into_bytes())];
    if let Some((grid, tables, paths)) = &exact.grid {
        let cells: Vec<(Vec<i64>, &Table)> = grid_values
            .iter()
            .map(|(values, i)| (values.clone(), &tables[*i]))
            .collect();
        files.push(("grid.csv".to_owned(), grid_csv(paths, &cells).into_bytes()));
        files.push((
            "tables/grid.md".to_owned(),
            grid_markdown(grid, tables, exact.fractions).into_bytes(),
        ));
    }
    for chart in &charts {
        files.push((
            format!("charts/{}.svg", chart.name),
            chart.svg.clone().into_bytes(),
        ));
        files.push((format!("charts/{}.png", chart.name), chart.png.clone()));
    }
    files.push(("report.html".to_owned(), html(exact, &charts).into_bytes()));
    super::write(files, dir)
}

fn html(exact: &Exact, charts: &[Rendered]) -> String {
    let s = exact.scenario;
    let mut h = String::new();
    let _ = writeln!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{} — duelsim exact tables</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{} — exact tables</h1>",
        escape(&s.name),
        escape(&s.name)
    );
    let _ = writeln!(
        h,
        "<p>One exchange of the <code>{}</code> rules (an attack and its defence, through armour to what it leaves), computed exactly by walking every die outcome through the rules code the duel runs, from unhurt fighters. Probabilities are exact fractions; every number is in exact.csv{}.</p>",
        escape(s.ruleset),
        if exact.grid.is_some() {
            " and grid.csv"
        } else {
            ""
        }
    );
    for (who, table) in exact.directions().iter().zip(&exact.tables) {
        let _ = writeln!(
            h,
            "<h2>{}</h2>\n<p>{} die outcomes walked. Hits: {:.2}%; {}: {:.2}%; mean {}: {:.3}.</p>\n<table><tr><th>outcome</th><th>value</th><th>probability</th><th>exact</th></tr>",
            escape(who),
            table.outcomes,
            100.0 * table.hit(),
            escape(table.best_name()),
            100.0 * table.best(),
            escape(table.unit),
            table.mean()
        );
        let rows = table
            .results
            .iter()
            .map(|(r, p)| ("result".to_owned(), r.to_string(), *p))
            .chain(
                table
                    .values
                    .iter()
                    .map(|(v, p)| (table.unit.to_owned(), v.to_string(), *p)),
            )
            .chain(
                table
                    .kinds
                    .iter()
                    .map(|(k, p)| ("mark".to_owned(), k.to_string(), *p)),
            );
        for (outcome, value, p) in rows {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td class=\"n\">{:.4}%</td><td class=\"n\">{}/{}</td></tr>",
                escape(&outcome),
                escape(&value),
                100.0 * p.value(),
                p.numerator,
                p.denominator
            );
        }
        let _ = writeln!(h, "</table>");
    }
    if let Some((grid, tables, _)) = &exact.grid {
        let _ = writeln!(
            h,
            "<h2>The rulebook table: {}</h2>\n<p>Each cell: the chance to hit ({}), and beneath it the chance of {} and the mean {}. Rows: {}; columns: {}. As Markdown to paste into a rulebook: <a href=\"tables/grid.md\">tables/grid.md</a>.</p>",
            escape(&grid.who),
            if exact.fractions {
                "the exact fraction"
            } else {
                "exact to two decimals on d20 and d100 grids; <code>fractions = true</code> in <code>[exact]</code> writes exact fractions"
            },
            escape(tables.first().map_or("", |t| t.best_name())),
            escape(tables.first().map_or("", |t| t.unit)),
            escape(&grid.rows_title),
            escape(&grid.columns_title)
        );
        let columns = grid.columns.len().max(1);
        let mut head = vec![format!(
            "{} \\ {}",
            escape(&grid.rows_title),
            escape(&grid.columns_title)
        )];
        head.extend(grid.columns.iter().map(|c| escape(c)));
        if grid.columns.is_empty() {
            head.push("value".to_owned());
        }
        let rows = (grid.rows.iter().enumerate())
            .map(|(r, row)| {
                std::iter::once(escape(row))
                    .chain((0..columns).filter_map(|c| {
                        tables.get(r * columns + c).map(|t| {
                            format!(
                                "{}<br><small>{:.1}% · {:.2}</small>",
                                hit_text(t, exact.fractions),
                                100.0 * t.best(),
                                t.mean()
                            )
                        })
                    }))
                    .collect()
            })
            .collect();
        super::table::HtmlTable {
            head,
            rows,
            keys: 1,
            key_headers: true,
        }
        .write(&mut h);
    }
    let _ = writeln!(h, "<h2>Charts</h2>");
    for c in charts {
        super::html::figure(&mut h, c);
    }
    let _ = writeln!(
        h,
        "<h2>Scenario file</h2>\n<pre>{}</pre>\n<p><small>Written by duelsim {}.</small></p>\n</body>\n</html>",
        escape(&s.sources.text),
        env!("CARGO_PKG_VERSION")
    );
    h
}
