//! The charts of `duelsim exact`: each direction's exact chance of every result, and apart from
//! it of every value dealt, as bars; and the rulebook grid's chance to hit as a heatmap with
//! every cell written.

use super::heatmap::{fit_heatmap, heatmap_width};
use super::model::{Chart, MAX_ROWS, Plot, Scale, WIDTH, bar_height, percent};
use super::render::{Rendered, rendered};
use super::style::register_font;
use anyhow::Result;

/// One rulebook grid of `duelsim exact`, for its heatmap: the paths' titles, the row and
/// column values, and each cell's chance of a hit.
pub struct ExactGrid {
    /// The row path in words.
    pub rows_title: String,
    /// The column path in words ("" for a one-path grid).
    pub columns_title: String,
    /// Row values.
    pub rows: Vec<String>,
    /// Column values.
    pub columns: Vec<String>,
    /// P(hit) per cell, row by row.
    pub hit: Vec<Vec<f64>>,
    /// Who attacks whom.
    pub who: String,
}

/// A bar chart of exact chances (in percent; no intervals).
fn chances(
    name: String,
    title: String,
    caption: String,
    rows: Vec<(String, f64, f64, f64)>,
) -> Chart {
    Chart {
        name,
        title,
        caption,
        height: bar_height(rows.len()),
        width: WIDTH,
        plot: Plot::Bars {
            x_label: "chance (%)".into(),
            y_label: String::new(),
            rows,
        },
    }
}

/// The charts of `duelsim exact`: per direction, the chance of each result, and in a chart of
/// its own of each value dealt (exact, so no intervals); and the grid's chance to hit as a
/// heatmap with every cell written.
pub fn render_exact(
    directions: &[(String, &crate::exact::Table)],
    grid: Option<&ExactGrid>,
) -> Result<Vec<Rendered>> {
    register_font();
    let mut charts = Vec::new();
    for (k, (who, table)) in directions.iter().enumerate() {
        let side = ["a", "b"][k.min(1)];
        // How the exchange ends (each result, the hit kinds last): shares of one whole.
        let rows: Vec<(String, f64, f64, f64)> = table
            .results
            .iter()
            .map(|(r, p)| {
                let p = percent(p.value());
                (r.to_string(), p, p, p)
            })
            .collect();
        charts.push(chances(
            format!("exact-{side}"),
            format!("How one exchange ends, exactly: {who}"),
            "The exact chance of each result of one exchange (they add up to 100%), walking every die outcome through the rules the duel runs.".into(),
            rows,
        ));
        // What it deals: each value above nothing; the rest of the exchanges deal nothing.
        let dealt: Vec<_> = table
            .values
            .iter()
            .filter(|(v, p)| *v > 0 && p.numerator > 0)
            .collect();
        if dealt.is_empty() {
            continue;
        }
        let nothing = table
            .values
            .iter()
            .find(|(v, _)| *v == 0)
            .map_or(0.0, |(_, p)| percent(p.value()));
        let rows: Vec<(String, f64, f64, f64)> = dealt
            .iter()
            .take(MAX_ROWS)
            .map(|(v, p)| {
                let p = percent(p.value());
                (format!("{} {v}", table.unit), p, p, p)
            })
            .collect();
        let cut = if dealt.len() > MAX_ROWS {
            format!(
                " The {} largest values are left out (exact.csv has them).",
                dealt.len() - MAX_ROWS
            )
        } else {
            String::new()
        };
        charts.push(chances(
            format!("exact-{side}-values"),
            format!("What one exchange deals, exactly: {who}"),
            format!(
                "The exact chance that one exchange deals each {unit} above 0; the other {nothing:.2}% deal none (no hit, or nothing through the armour).{cut}",
                unit = table.unit
            ),
            rows,
        ));
    }
    if let Some(g) = grid {
        let columns = if g.columns.is_empty() {
            vec!["P(hit)".to_owned()]
        } else {
            g.columns.clone()
        };
        let cells: Vec<Vec<Option<(f64, f64, f64)>>> = g
            .hit
            .iter()
            .take(MAX_ROWS)
            .map(|row| row.iter().map(|&p| Some((p, p, p))).collect())
            .collect();
        let cut = if g.rows.len() > MAX_ROWS {
            format!(
                " The first {MAX_ROWS} of {} rows are drawn; grid.csv has every cell.",
                g.rows.len()
            )
        } else {
            String::new()
        };
        charts.push(Chart {
            name: "grid".into(),
            title: format!("Chance to hit: {}", g.who),
            caption: format!(
                "The exact chance that one attack hits, for each {}{}; every cell is written, for printing.{cut}",
                g.rows_title,
                if g.columns_title.is_empty() {
                    String::new()
                } else {
                    format!(" (rows) and {} (columns)", g.columns_title)
                }
            ),
            // Rows 32 px apart (17 px numbers), so that the grid prints under its headline on
            // one landscape page with its text at 7 pt or more.
            height: (190 + 32 * g.rows.len().min(MAX_ROWS) as u32).max(360),
            width: heatmap_width(&columns, &g.rows),
            plot: Plot::Heatmap {
                x_label: g.columns_title.clone(),
                y_label: g.rows_title.clone(),
                columns,
                rows: g.rows.iter().take(MAX_ROWS).cloned().collect(),
                scale: Scale::sequential(&cells),
                cells,
                percent: true,
            },
        });
    }
    for chart in &mut charts {
        fit_heatmap(chart);
    }
    // Exact cells have no interval to list.
    charts.into_iter().map(|c| rendered(c, false)).collect()
}
