//! What the duels leave behind: how soon each side's wounded survivors are whole, and
//! (zone-d100) each fighter's injuries per duel (or fight) by zone and severity.

use super::heatmap::heatmap_width;
use super::labels::{point_ink, shown_note};
use super::model::{Chart, Look, MAX_ROWS, MAX_WIDTH, Plot, Rate, Scale, Series, WIDTH, spread};
use crate::report::run::RunResult;
use crate::report::words::Words;
use crate::report::words::{point_label, side_names, swept_title};
use crate::stats::{ExtraKind, RecoveryTally, Side, Tally};

/// The share of the wounded survivors of side `side` (of both, or a recovery scenario's
/// patients, for `None`) whole by each day, one curve per point; `None` when there were none.
/// With the panel title that names whose wounds they are.
pub(super) fn days_to_whole(run: &RunResult, side: Option<Side>) -> Option<(String, Chart)> {
    let words = Words::of(run);
    let (who, from) = (words.patients(), words.from());
    let recovery = |t: &Tally| match side {
        Some(s) => t.recovery[s.index()].clone(),
        None => t.recovery_pooled(),
    };
    let tallies: Vec<RecoveryTally> = run.tallies.iter().map(recovery).collect();
    if tallies.iter().all(|r| r.patients == 0) {
        return None;
    }
    let mut last = 1;
    for r in &tallies {
        if let Some(q) = r.days_to_whole.quantile(0.99) {
            last = last.max(q);
        }
    }
    let series = tallies
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let n = r.patients.max(1) as f64;
            let mut whole = 0;
            let points = r
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
                look: Look::Step,
                ink: point_ink(run, i),
                cases: r.patients,
            }
        })
        .collect();
    let sides = side_names(run);
    let (title, panel) = match side {
        Some(s) => {
            let side = &sides[s.index()];
            let is = if side.several { "are" } else { "is" };
            (
                format!("Days until {} {is} whole", side.name),
                format!("{} wounded", side.name),
            )
        }
        None => (
            format!(
                "Days until whole, for {who}: {}",
                super::outcomes::whose(run)
            ),
            who.to_owned(),
        ),
    };
    let whose = match side {
        Some(_) => format!("Of the {from}s a fighter survived wounded, the share in which it is"),
        None => format!("Share of {who}{} who are", words.sides()),
    };
    let chart = Chart {
        name: "days-to-whole".into(),
        title,
        caption: format!(
            "{whose} whole by each day after the {from}; a curve ends below 100% by those who die in recovery or are still wounded at the horizon; drawn to the day by which 99% of those made whole were whole."
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
    };
    Some((panel, chart))
}

/// zone-d100: each fighter's injuries per duel (or fight) by zone and severity, a row per fighter and
/// point.
pub(super) fn injuries(run: &RunResult) -> Option<Chart> {
    let t0 = run.tallies.first()?;
    let names = side_names(run).map(|side| side.name);
    let trial = Words::of(run).trial();
    // The columns of each side: `a_injuries_head_minor` is the head, minor, of a's fighter.
    let of_side = |side: &str| -> Vec<(usize, String)> {
        let prefix = format!("{side}_injuries_");
        (t0.extras.iter().enumerate())
            .filter(|(_, e)| e.name.starts_with(&prefix) && e.kind == ExtraKind::MeanPerTrial)
            .map(|(i, e)| {
                // "head_serious" is "head S", as the INJURY table writes severities.
                let (zone, severity) = e.name[prefix.len()..].split_once('_').unwrap_or_default();
                let letter = severity.chars().next().unwrap_or(' ').to_ascii_uppercase();
                (i, format!("{zone} {letter}"))
            })
            .collect()
    };
    let sides = [of_side("a"), of_side("b")];
    if sides[0].is_empty() || sides[0].len() != sides[1].len() {
        return None;
    }
    let column_names: Vec<String> = sides[0].iter().map(|(_, c)| c.clone()).collect();
    let points = spread(run.tallies.len(), (MAX_ROWS / 2).max(1));
    let swept = !run.scenario.points[0].swept.is_empty();
    let mut row_names = Vec::new();
    let mut cells: Vec<Vec<Option<Rate>>> = Vec::new();
    for (s, columns) in sides.iter().enumerate() {
        for &p in &points {
            let t = &run.tallies[p];
            row_names.push(if swept {
                format!("{}: {}", names[s], point_label(run, p))
            } else {
                names[s].to_owned()
            });
            // A mean count per duel, with a normal interval on the count (Poisson: its variance
            // is about the count itself).
            cells.push(
                columns
                    .iter()
                    .map(|&(i, _)| {
                        (t.trials > 0).then(|| {
                            let (count, n) = (t.extra[i] as f64, t.trials as f64);
                            let half = 1.96 * count.sqrt() / n;
                            (count / n, (count / n - half).max(0.0), count / n + half)
                        })
                    })
                    .collect(),
            );
        }
    }
    let mut row_title = if swept {
        format!("fighter: {}", swept_title(run))
    } else {
        "fighter".to_owned()
    };
    let mut x_label = "zone and severity".to_owned();
    let (mut column_names, mut row_names) = (column_names, row_names);
    // Fighters and points as columns when that keeps the chart narrower (short labels).
    let wide = heatmap_width(&column_names, &row_names);
    if wide > MAX_WIDTH && heatmap_width(&row_names, &column_names) < wide {
        cells = (0..column_names.len())
            .map(|c| cells.iter().map(|row| row[c]).collect())
            .collect();
        std::mem::swap(&mut column_names, &mut row_names);
        std::mem::swap(&mut x_label, &mut row_title);
    }
    Some(Chart {
        name: "injuries".into(),
        title: format!(
            "Injuries per {trial} by zone and severity: {} and {}",
            names[0], names[1]
        ),
        caption: format!(
            "Mean number of injuries each fighter takes per {trial}, by zone and severity (M minor, S serious, G grievous).{}",
            shown_note(points.len(), run.tallies.len())
        ),
        height: (230 + 40 * row_names.len() as u32).max(360),
        width: heatmap_width(&column_names, &row_names),
        plot: Plot::Heatmap {
            x_label,
            y_label: row_title,
            columns: column_names,
            rows: row_names,
            scale: Scale::sequential(&cells),
            cells,
            percent: false,
        },
    })
}
