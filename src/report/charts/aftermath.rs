//! What the duels leave behind: how soon their wounded survivors are whole, and (zone-d100)
//! the injuries per duel by zone and severity.

use super::heatmap::heatmap_width;
use super::labels::{point_label, shown_note, swept_title};
use super::model::{Chart, MAX_ROWS, Plot, Rate, Series, WIDTH};
use crate::report::{RunResult, Words};
use crate::stats::ExtraKind;

/// The share of wounded survivors whole by each day, one curve per point.
pub(super) fn days_to_whole(run: &RunResult) -> Chart {
    let words = Words::of(run);
    let (who, from, sides) = (words.patients(), words.from(), words.sides());
    let chosen: Vec<usize> = (0..run.tallies.len()).collect();
    let mut last = 1;
    for &i in &chosen {
        let pooled = run.tallies[i].recovery_pooled();
        if let Some(q) = pooled.days_to_whole.quantile(0.99) {
            last = last.max(q);
        }
    }
    let series = chosen
        .iter()
        .map(|&i| {
            let pooled = run.tallies[i].recovery_pooled();
            let n = pooled.patients.max(1) as f64;
            let mut whole = 0;
            let points = pooled
                .days_to_whole
                .bins()
                .iter()
                .enumerate()
                .take(last as usize + 1)
                .map(|(d, &c)| {
                    whole += c;
                    (d as f64, 100.0 * whole as f64 / n)
                })
                .collect();
            Series {
                label: point_label(run, i),
                points,
                band: None,
                step: true,
                points_only: false,
            }
        })
        .collect();
    Chart {
        name: "days-to-whole".into(),
        title: format!("Days until whole, for {who}"),
        caption: format!(
            "Share of {who}{sides} who are whole by each day after the {from}; a curve ends below 100% by those who die in recovery or are still wounded at the horizon; drawn to the day by which 99% of those made whole were whole."
        ),
        height: 620,
        width: WIDTH,
        plot: Plot::Lines {
            legend_title: swept_title(run),
            x_label: format!("days after the {from}"),
            y_label: format!("whole (% of {who})"),
            x_range: (0.0, f64::from(last) * 1.02 + 0.5),
            y_range: (0.0, 100.0),
            series,
            integer_x: true,
        },
    }
}

/// zone-d100: injuries per duel by zone and severity, a row per point.
pub(super) fn injuries(run: &RunResult) -> Option<Chart> {
    let t0 = run.tallies.first()?;
    let columns: Vec<(usize, String)> = t0
        .extras
        .iter()
        .enumerate()
        .filter(|(_, e)| e.name.starts_with("injuries_") && e.kind == ExtraKind::MeanPerTrial)
        .map(|(i, e)| (i, e.name["injuries_".len()..].replace('_', " ")))
        .collect();
    if columns.is_empty() {
        return None;
    }
    let shown = run.tallies.len().min(MAX_ROWS);
    let column_names: Vec<String> = columns.iter().map(|(_, c)| c.clone()).collect();
    let row_names: Vec<String> = (0..shown).map(|i| point_label(run, i)).collect();
    let row_title = swept_title(run);
    // A mean count per duel, with a normal interval on the count (Poisson: its variance is
    // about the count itself).
    let cells: Vec<Vec<Option<Rate>>> = run.tallies[..shown]
        .iter()
        .map(|t| {
            columns
                .iter()
                .map(|&(i, _)| {
                    (t.trials > 0).then(|| {
                        let (count, n) = (t.extra[i] as f64, t.trials as f64);
                        let half = 1.96 * count.sqrt() / n;
                        (count / n, (count / n - half).max(0.0), count / n + half)
                    })
                })
                .collect()
        })
        .collect();
    let mut x_label = "zone and severity".to_owned();
    let (mut column_names, mut row_names, mut cells, mut row_title) =
        (column_names, row_names, cells, row_title);
    // Points as columns when that keeps the chart narrower (few points, short labels).
    let wide = heatmap_width(&column_names, &row_names);
    if wide > 1200 && heatmap_width(&row_names, &column_names) < wide {
        cells = (0..column_names.len())
            .map(|c| cells.iter().map(|row| row[c]).collect())
            .collect();
        std::mem::swap(&mut column_names, &mut row_names);
        std::mem::swap(&mut x_label, &mut row_title);
    }
    Some(Chart {
        name: "injuries".into(),
        title: "Injuries per duel by zone and severity".into(),
        caption: format!(
            "Mean number of injuries of each zone and severity per duel, both fighters together (hover a cell of the SVG for its 95% interval, from the count).{}",
            shown_note(shown, run.tallies.len())
        ),
        height: (230 + 48 * row_names.len() as u32).max(360),
        width: heatmap_width(&column_names, &row_names),
        plot: Plot::Heatmap {
            x_label,
            y_label: row_title,
            columns: column_names,
            rows: row_names,
            cells,
            percent: false,
            diverging: false,
        },
    })
}
