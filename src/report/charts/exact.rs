//! The charts of `duelsim exact`: each direction's exact chance of every hit kind and value as
//! bars, and the rulebook grid's chance to hit as a heatmap with every cell written.

use super::heatmap::{fit_heatmap, heatmap_width};
use super::model::{Chart, MAX_ROWS, Plot, WIDTH, bar_height, percent};
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

/// The charts of `duelsim exact`: per direction, the chance of each hit kind and each value
/// (exact, so no intervals); and the grid's chance to hit as a heatmap with every cell written.
pub fn render_exact(
    directions: &[(String, &crate::exact::Table)],
    grid: Option<&ExactGrid>,
) -> Result<Vec<Rendered>> {
    register_font();
    let mut charts = Vec::new();
    for (k, (who, table)) in directions.iter().enumerate() {
        let mut rows: Vec<(String, f64, f64, f64)> = table
            .results
            .iter()
            .map(|(r, p)| {
                (
                    r.to_string(),
                    percent(p.value()),
                    percent(p.value()),
                    percent(p.value()),
                )
            })
            .collect();
        let values: Vec<_> = table
            .values
            .iter()
            .filter(|(_, p)| p.numerator > 0)
            .collect();
        let room = MAX_ROWS.saturating_sub(rows.len());
        for (v, p) in values.iter().take(room) {
            let p = percent(p.value());
            rows.push((format!("{} {v}", table.unit), p, p, p));
        }
        let cut = if values.len() > room {
            format!(
                " The {} largest values are left out (exact.csv has them).",
                values.len() - room
            )
        } else {
            String::new()
        };
        charts.push(Chart {
            name: format!("exact-{}", ["a", "b"][k.min(1)]),
            title: format!("One exchange, exactly: {who}"),
            caption: format!(
                "The exact chance of each hit kind, then of each {} (0 includes the misses), walking every die outcome through the rules the duel runs.{cut}",
                table.unit
            ),
            height: bar_height(rows.len()),
            width: WIDTH,
            plot: Plot::Bars {
                x_label: "chance (%)".into(),
                y_label: String::new(),
                rows,
            },
        });
    }
    if let Some(g) = grid {
        let columns = if g.columns.is_empty() {
            vec!["P(hit)".to_owned()]
        } else {
            g.columns.clone()
        };
        let cells = g
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
            height: (190 + 40 * g.rows.len().min(MAX_ROWS) as u32).max(360),
            width: heatmap_width(&columns, &g.rows),
            plot: Plot::Heatmap {
                x_label: g.columns_title.clone(),
                y_label: g.rows_title.clone(),
                columns,
                rows: g.rows.iter().take(MAX_ROWS).cloned().collect(),
                cells,
                percent: true,
                diverging: false,
            },
        });
    }
    for chart in &mut charts {
        fit_heatmap(chart);
    }
    // Exact cells have no interval to list.
    charts.into_iter().map(|c| rendered(c, false)).collect()
}
