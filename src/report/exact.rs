//! The outputs of `duelsim exact`: `exact.csv` (tidy: direction, outcome, value, probability,
//! numerator, denominator), `grid.csv` and `tables/grid.md` for an `[exact] grid`, two charts
//! per direction and the grid's heatmap, and `report.html` (a maud template) with the tables.
//! Written together, atomically, like a run's outputs. This module formats finished tables; it
//! walks no dice.

use super::charts::{ExactGrid, Rendered};
use super::page::{figure, page_head};
use crate::exact::{Fraction, Table};
use crate::rules::registry::Scenario;
use anyhow::Result;
use maud::{DOCTYPE, html};
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
        super::markdown::markdown(&head, &rows, 1)
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
    super::files::write(files, dir)
}

/// The exact tables' headline: how often each fighter's exchange hits, its best result and its
/// mean; with a grid, where the chance to hit runs from and to.
fn headline(exact: &Exact) -> String {
    let mut out: Vec<String> = exact
        .directions()
        .iter()
        .zip(&exact.tables)
        .map(|(who, t)| {
            format!(
                "{who} and hits {:.1}% of the time ({} {:.1}%, a mean of {:.2} {})",
                100.0 * t.hit(),
                t.best_name(),
                100.0 * t.best(),
                t.mean(),
                t.unit
            )
        })
        .collect();
    if let Some((grid, tables, _)) = &exact.grid {
        let columns = grid.columns.len().max(1);
        let cell = |i: usize| {
            let row = &grid.rows[i / columns];
            match grid.columns.get(i % columns) {
                Some(column) => {
                    format!("{} {row}, {} {column}", grid.rows_title, grid.columns_title)
                }
                None => format!("{} {row}", grid.rows_title),
            }
        };
        let hits: Vec<f64> = tables.iter().map(Table::hit).collect();
        let lo = (0..hits.len()).min_by(|&a, &b| hits[a].total_cmp(&hits[b]));
        let hi = (0..hits.len()).max_by(|&a, &b| hits[a].total_cmp(&hits[b]));
        if let (Some(lo), Some(hi)) = (lo, hi) {
            out.push(format!(
                "across the rulebook table ({}), the chance to hit runs from {:.1}% ({}) to {:.1}% ({})",
                grid.who,
                100.0 * hits[lo],
                cell(lo),
                100.0 * hits[hi],
                cell(hi)
            ));
        }
    }
    let mut sentence = out.join("; ");
    sentence.push('.');
    sentence
}

/// The page opens in landscape: the title, the headline and the rulebook grid's heatmap on one
/// page, the heatmap across its width, so that every cell's number prints at 7 pt or more (on
/// a portrait page it would be nearer 5 pt), and no first page holds a headline alone.
const GRID_PRINT: &str = "
@media print {
  @page landscape { size: A4 landscape; margin: 12mm; }
  section.opening { page: landscape; }
  section.opening figure#grid svg { width: 100%; height: auto; max-height: 135mm; }
}
";

fn html(exact: &Exact, charts: &[Rendered]) -> String {
    let s = exact.scenario;
    let text = |t: String| html! { (t) };
    // Each direction's table rows: outcome, value, probability.
    let rows = |table: &Table| -> Vec<(String, String, Fraction)> {
        table
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
            )
            .collect()
    };
    let grid = exact.grid.as_ref().map(|(grid, tables, _)| {
        let columns = grid.columns.len().max(1);
        let mut head = vec![text(format!(
            "{} \\ {}",
            grid.rows_title, grid.columns_title
        ))];
        head.extend(grid.columns.iter().map(|c| text(c.clone())));
        if grid.columns.is_empty() {
            head.push(text("value".to_owned()));
        }
        let rows = (grid.rows.iter().enumerate())
            .map(|(r, row)| {
                std::iter::once(text(row.clone()))
                    .chain((0..columns).filter_map(|c| {
                        tables.get(r * columns + c).map(|t| {
                            html! {
                                (hit_text(t, exact.fractions))
                                br;
                                small { (format!("{:.1}% · {:.2}", 100.0 * t.best(), t.mean())) }
                            }
                        })
                    }))
                    .collect()
            })
            .collect();
        let table = super::page::HtmlTable {
            head,
            rows,
            keys: 1,
            key_headers: true,
        };
        (grid, tables, table)
    });
    // The grid's heatmap answers where there is one; else a's exchange.
    let answering = ["grid", "exact-a"]
        .iter()
        .find_map(|name| charts.iter().find(|c| c.name == *name));
    html! {
        (DOCTYPE)
        html lang="en" {
            (page_head(&format!("{} — duelsim exact tables", s.name), GRID_PRINT))
            body {
                section.opening {
                    h1 { (s.name) " — exact tables" }
                    p.headline { (headline(exact)) }
                    @if let Some(c) = answering {
                        (figure(c))
                    }
                }
                @if let Some((grid, tables, table)) = &grid {
                    h2 { "The rulebook table: " (grid.who) }
                    p {
                        "Each cell: the chance to hit ("
                        @if exact.fractions {
                            "as an exact fraction"
                        } @else {
                            "exact to two decimals on d20 and d100 grids"
                        }
                        "), and beneath it the chance of "
                        (tables.first().map_or("", |t| t.best_name()))
                        " and the mean " (tables.first().map_or("", |t| t.unit))
                        ". Rows: " (grid.rows_title) "; columns: " (grid.columns_title)
                        ". The same "
                        a href="tables/grid.md" { "as Markdown" }
                        ", to paste into a rulebook."
                    }
                    (table.markup())
                }
                p {
                    "One exchange of the " code { (s.ruleset) }
                    " rules (an attack and its defence, through armour to what it leaves), computed exactly by walking every die outcome through the rules code the duel runs, from unhurt fighters."
                }
                @for (who, table) in exact.directions().iter().zip(&exact.tables) {
                    h2 { (who) }
                    p {
                        (table.outcomes) " die outcomes walked. Hits: "
                        (format!("{:.2}%", 100.0 * table.hit())) "; "
                        (table.best_name()) ": " (format!("{:.2}%", 100.0 * table.best()))
                        "; mean " (table.unit) ": " (format!("{:.3}", table.mean())) "."
                    }
                    table {
                        tr { th { "outcome" } th { "value" } th { "chance" } }
                        @for (outcome, value, p) in rows(table) {
                            tr {
                                td { (outcome) }
                                td { (value) }
                                td.n { (format!("{:.2}%", 100.0 * p.value())) }
                            }
                        }
                    }
                }
                @if charts.len() > usize::from(answering.is_some()) {
                    h2 { "More charts" }
                }
                @for c in charts.iter().filter(|c| answering.is_none_or(|a| !std::ptr::eq(*c, a))) {
                    (figure(c))
                }
                div.appendix {
                    h2 { "Exact fractions" }
                    p { "Every probability above as an exact fraction (also in exact.csv" @if exact.grid.is_some() { " and grid.csv" } ")." }
                    @for (who, table) in exact.directions().iter().zip(&exact.tables) {
                        h3 { (who) }
                        table {
                            tr { th { "outcome" } th { "value" } th { "exact" } }
                            @for (outcome, value, p) in rows(table) {
                                tr {
                                    td { (outcome) }
                                    td { (value) }
                                    td.n { (p.numerator) "/" (p.denominator) }
                                }
                            }
                        }
                    }
                    h2 { "Scenario file" }
                    pre { (s.sources.text) }
                }
                p { small { "Written by duelsim " (env!("CARGO_PKG_VERSION")) "." } }
            }
        }
    }
    .into_string()
}
