//! The chart of a `[balance]` with a `[sweep]`: the value each sweep point's search found, with
//! its interval as a whisker, against the first swept value (a number axis, or its names spaced
//! evenly), one line per value of the others. A point whose range does not reach the target is
//! drawn as an open triangle on the end of the searched range it lies beyond, never left out.
//! This module works out and draws that one chart; the search's own probes are in the tables.

use super::labels::value_ink;
use super::model::{
    AnswerSeries, Answered, Chart, Ink, Look, MAX_SERIES, Plot, Series, WIDTH, spread,
};
use super::style::{
    DrawResult, FONT, axis_number, colour, draw_legend_title, err, hollow_marker, legend_label,
    legend_layout, marker,
};
use crate::report::run::{BalanceMarks, RunResult};
use crate::report::words::{axis_title, side_words, value_phrase, value_words};
use crate::scenario::balance::Found;
use plotters::coord::Shift;
use plotters::prelude::*;

/// The legend's words for a point the range does not reach.
const UNREACHED: &str = "out of the range searched";

/// The chart of the answers at every sweep point, or `None` without a sweep.
pub(super) fn answers(run: &RunResult, names: [&str; 2], marks: &BalanceMarks) -> Option<Chart> {
    let first = marks.points.first()?;
    let ruleset = run.scenario.ruleset;
    let (path, _) = run.scenario.points.first()?.swept.last()?;
    let title = axis_title(path, names, ruleset);
    let (x_key, _) = first.swept.first()?;
    let x_title = axis_title(x_key, names, ruleset);
    // The first swept value across: as numbers when every value is one, else by name.
    let mut x_values: Vec<&str> = Vec::new();
    for p in &marks.points {
        let v = p.swept.first().map_or("", |(_, v)| v.as_str());
        if !x_values.contains(&v) {
            x_values.push(v);
        }
    }
    let numeric = x_values.iter().all(|v| v.parse::<f64>().is_ok());
    let x_of = |v: &str| -> f64 {
        if numeric {
            v.parse().unwrap_or(0.0)
        } else {
            x_values.iter().position(|x| *x == v).unwrap_or(0) as f64
        }
    };
    let categories: Vec<String> = if numeric {
        Vec::new()
    } else {
        x_values
            .iter()
            .map(|v| value_words(x_key, v, names, ruleset))
            .collect()
    };
    // A line per combination of the other swept values, in the order they first appear.
    let others_title = first
        .swept
        .iter()
        .skip(1)
        .map(|(k, _)| axis_title(k, names, ruleset))
        .collect::<Vec<_>>()
        .join(" / ");
    // With one other swept value, a line's colour is that value's place among its values.
    let all = run.scenario.swept_values();
    let line_ink = |k: usize| match all.len() {
        2 => value_ink(&all[1].1, k),
        _ => Ink::Category(k),
    };
    let mut lines: Vec<AnswerSeries> = Vec::new();
    let mut unreached = Vec::new();
    for p in &marks.points {
        let label = p
            .swept
            .iter()
            .skip(1)
            .map(|(k, v)| value_words(k, v, names, ruleset))
            .collect::<Vec<_>>()
            .join(" / ");
        // With one swept value, the one line says what it is.
        let label = if label.is_empty() {
            "the value found, with its interval".to_owned()
        } else {
            label
        };
        let x = x_of(p.swept.first().map_or("", |(_, v)| v.as_str()));
        let at = match (p.answer.value(), p.answer.found) {
            (Some((_, lo, hi)), _) if lo.fract() == 0.0 && hi - lo == 1.0 => {
                Answered::Between(lo, hi)
            }
            (Some((v, lo, hi)), _) => Answered::At(v, lo, hi),
            (None, Found::Unreachable([(_, f_lo), (_, f_hi)])) => {
                let words = p
                    .swept
                    .iter()
                    .map(|(k, v)| value_phrase(k, v, names, ruleset))
                    .collect::<Vec<_>>()
                    .join(", ");
                unreached.push(words);
                match crate::scenario::balance::beyond(f_lo.0, f_hi.0, marks.target) {
                    Some(true) => Answered::Above,
                    Some(false) => Answered::Below,
                    None => Answered::Unknown,
                }
            }
            (None, _) => Answered::Unknown,
        };
        match lines.iter_mut().find(|l| l.label == label) {
            Some(line) => line.points.push((x, at)),
            None => lines.push(AnswerSeries {
                ink: line_ink(lines.len()),
                label,
                points: vec![(x, at)],
            }),
        }
    }
    let total = lines.len();
    if total > MAX_SERIES {
        let kept = spread(total, MAX_SERIES);
        lines = kept.into_iter().map(|i| lines[i].clone()).collect();
    }
    for line in &mut lines {
        line.points.sort_by(|a, b| a.0.total_cmp(&b.0));
    }
    let xs: Vec<f64> = x_values.iter().map(|v| x_of(v)).collect();
    let (x0, x1) = xs
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        });
    let x_range = if numeric {
        let span = (x1 - x0).max(1.0);
        (x0 - span * 0.05, x1 + span * 0.05)
    } else {
        (-0.5, x_values.len() as f64 - 0.5)
    };
    let (from, to) = marks.range;
    let y_range = answers_span(&lines, (from, to));
    let reached = if unreached.is_empty() {
        " Every point reaches the target in the range.".to_owned()
    } else {
        format!(
            " Not reachable from {from} to {to}: {} (an open triangle on the end of the range it lies beyond).",
            unreached.join("; ")
        )
    };
    let lines_note = if total > lines.len() {
        format!(
            " {} of the {total} lines are drawn, spread over them; every point is in the table Balance at each point.",
            lines.len()
        )
    } else {
        String::new()
    };
    let legend_entries = legend_series(&lines, (from, to), !unreached.is_empty());
    let legend_px = legend_layout(&legend_entries, &others_title, WIDTH).2;
    let sides = side_words(run);
    Some(Chart {
        name: "balance".into(),
        title: format!(
            "{} against {}: the {title} that {}, by {x_title}",
            sides[0].name, sides[1].name, marks.goal
        ),
        caption: format!(
            "Each mark is the value the search at that sweep point found, its own search on the same dice as every other, with its interval as a whisker (for a whole number, from one to the other of the two values the rate crosses between). The range searched runs from {from} to {to} (its ends dashed where they fall in view).{reached}{lines_note}"
        ),
        height: 620 + legend_px,
        width: WIDTH,
        plot: Plot::Answers {
            legend_title: others_title,
            x_label: x_title,
            y_label: title,
            categories,
            x_range,
            y_range,
            range: (from, to),
            series: lines,
            integer_x: numeric && xs.iter().all(|x| x.fract() == 0.0),
        },
    })
}

/// The values the chart's y axis spans: the answers' intervals with a margin, so that they are
/// not squeezed into a sliver of a wide search; a range end is included only when an answer
/// lies out of reach beyond it (its triangle sits on it).
fn answers_span(lines: &[AnswerSeries], (from, to): (f64, f64)) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for (_, a) in lines.iter().flat_map(|l| &l.points) {
        let (a_lo, a_hi) = match *a {
            Answered::At(_, l, h) | Answered::Between(l, h) => (l, h),
            Answered::Above => (to, to),
            Answered::Below => (from, from),
            Answered::Unknown => (from, to),
        };
        (lo, hi) = (lo.min(a_lo), hi.max(a_hi));
    }
    if !lo.is_finite() {
        (lo, hi) = (from, to);
    }
    let margin = ((hi - lo) * 0.12).max((to - from) * 0.01).max(0.5);
    (lo - margin, hi + margin)
}

/// The legend's entries as line series (for [`legend_layout`]): one per line, one for the ends
/// of the range searched, and one for the points the range does not reach, if any.
fn legend_series(lines: &[AnswerSeries], range: (f64, f64), unreached: bool) -> Vec<Series> {
    let entry = |label: &str| Series {
        label: label.to_owned(),
        points: Vec::new(),
        band: None,
        look: Look::Line,
        ink: Ink::Category(0),
        cases: 0,
    };
    let mut entries: Vec<Series> = lines.iter().map(|l| entry(&l.label)).collect();
    entries.push(entry(&format!(
        "ends of the range searched: {} and {}",
        range.0, range.1
    )));
    if unreached {
        entries.push(entry(UNREACHED));
    }
    entries
}

/// An open triangle at a pixel, pointing up (`up`) or down.
fn triangle<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    up: bool,
    colour: RGBColor,
) -> DrawResult {
    let r = 9;
    let tip = if up { y - r } else { y + r };
    let base = if up { y + r / 2 } else { y - r / 2 };
    area.draw(&PathElement::new(
        vec![(x, tip), (x - r, base), (x + r, base), (x, tip)],
        colour.stroke_width(3),
    ))
    .map_err(err)
}

/// Joins a line's answers where neighbours are both found (a whole-number answer at the middle
/// of its span); a point out of reach breaks the line.
fn join<DB: DrawingBackend>(
    chart: &mut ChartContext<
        '_,
        DB,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    s: &AnswerSeries,
    shift: f64,
    colour: RGBColor,
) -> DrawResult {
    let mut run: Vec<(f64, f64)> = Vec::new();
    let mut runs = Vec::new();
    for &(x, a) in &s.points {
        match a {
            Answered::At(v, _, _) => run.push((x + shift, v)),
            Answered::Between(lo, hi) => run.push((x + shift, (lo + hi) / 2.0)),
            _ => runs.push(std::mem::take(&mut run)),
        }
    }
    runs.push(run);
    for run in runs.into_iter().filter(|r| r.len() > 1) {
        chart
            .draw_series(LineSeries::new(run, colour.stroke_width(2)))
            .map_err(err)?;
    }
    Ok(())
}

/// An interval as an upright whisker between two pixels, with short ends.
fn whisker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    top: (i32, i32),
    bottom: (i32, i32),
    colour: RGBColor,
) -> DrawResult {
    for (x, y) in [top, bottom] {
        area.draw(&PathElement::new(
            vec![(x - 7, y), (x + 7, y)],
            colour.stroke_width(2),
        ))
        .map_err(err)?;
    }
    area.draw(&PathElement::new(vec![top, bottom], colour.stroke_width(2)))
        .map_err(err)
}

/// Draws an answers chart: the ends of the range, each line's answers joined where both are
/// found, whiskers, markers, the open triangles of points out of reach, and the legend.
#[allow(clippy::too_many_arguments)]
pub(super) fn draw_answers<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    legend_title: &str,
    x_label: &str,
    y_label: &str,
    categories: &[String],
    x_range: (f64, f64),
    y_range: (f64, f64),
    range: (f64, f64),
    series: &[AnswerSeries],
    integer_x: bool,
) -> DrawResult {
    let unreached = series.iter().any(|s| {
        (s.points.iter()).any(|(_, a)| !matches!(a, Answered::At(..) | Answered::Between(..)))
    });
    let entries = legend_series(series, range, unreached);
    let (width, height) = area.dim_in_pixel();
    let (columns, _, legend_px) = legend_layout(&entries, legend_title, width);
    let (plot_area, legend) = area.split_vertically(height.saturating_sub(legend_px));
    let mut chart = ChartBuilder::on(&plot_area)
        .margin_right(20)
        .x_label_area_size(60)
        .y_label_area_size(80)
        .build_cartesian_2d(x_range.0..x_range.1, y_range.0..y_range.1)
        .map_err(err)?;
    let x_format = |x: &f64| {
        if !categories.is_empty() {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                categories.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        } else if integer_x {
            if x.fract().abs() < 1e-9 {
                format!("{x:.0}")
            } else {
                String::new()
            }
        } else {
            axis_number(*x, x_range.1 - x_range.0)
        }
    };
    let y_span = y_range.1 - y_range.0;
    let y_format = |y: &f64| axis_number(*y, y_span);
    let mut mesh = chart.configure_mesh();
    mesh.x_desc(x_label)
        .y_desc(y_label)
        .axis_desc_style((FONT, 20))
        .label_style((FONT, 17))
        .x_label_formatter(&x_format)
        .y_label_formatter(&y_format)
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(205, 205, 205));
    if !categories.is_empty() {
        // A tick at each name and none between: the finest step that gives at most one more
        // tick than names is one.
        mesh.x_labels(categories.len() + 1).disable_x_mesh();
    }
    mesh.draw().map_err(err)?;
    for end in [range.0, range.1]
        .into_iter()
        .filter(|e| (y_range.0..=y_range.1).contains(e))
    {
        chart
            .draw_series(DashedLineSeries::new(
                vec![(x_range.0, end), (x_range.1, end)],
                10,
                6,
                colour(Ink::Reference).stroke_width(2),
            ))
            .map_err(err)?;
    }
    let plotted = chart.plotting_area().clone();
    let pixels = plotted.strip_coord_spec();
    let base = pixels.get_base_pixel();
    let at = |p: &(f64, f64)| {
        let (x, y) = plotted.map_coordinate(p);
        (x - base.0, y - base.1)
    };
    // Lines at one x are set a little apart, so that their whiskers do not hide each other.
    let gap = {
        let mut xs: Vec<f64> = series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0))
            .collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup();
        xs.windows(2)
            .map(|w| w[1] - w[0])
            .fold(x_range.1 - x_range.0, f64::min)
    };
    let n = series.len() as f64;
    for (i, s) in series.iter().enumerate() {
        let colour = colour(s.ink);
        let shift = (i as f64 - (n - 1.0) / 2.0) * gap * 0.06;
        // Names in no order (armours, weapons) are not joined.
        if categories.is_empty() {
            join(&mut chart, s, shift, colour)?;
        }
        for &(x, a) in &s.points {
            let x = x + shift;
            match a {
                Answered::At(v, lo, hi) => {
                    hollow_marker(&pixels, at(&(x, v)), i, colour)?;
                    whisker(&pixels, at(&(x, lo)), at(&(x, hi)), colour)?;
                }
                Answered::Between(lo, hi) => {
                    let (top, bottom) = (at(&(x, hi)), at(&(x, lo)));
                    pixels
                        .draw(&Rectangle::new(
                            [(top.0 - 5, top.1), (bottom.0 + 5, bottom.1)],
                            colour.filled(),
                        ))
                        .map_err(err)?;
                }
                Answered::Above => triangle(&pixels, at(&(x, range.1)), true, colour)?,
                Answered::Below => triangle(&pixels, at(&(x, range.0)), false, colour)?,
                Answered::Unknown => {
                    triangle(&pixels, at(&(x, range.1)), true, colour)?;
                    triangle(&pixels, at(&(x, range.0)), false, colour)?;
                }
            }
        }
    }
    // The legend under the plot, as a line chart's.
    let title_rows = draw_legend_title(&legend, legend_title)?;
    let column_px = (width as i32 - 84) / columns as i32;
    for (i, entry) in entries.iter().enumerate() {
        let (col, row) = ((i % columns) as i32, (i / columns) as i32);
        let (x, y) = (84 + col * column_px, 18 + 26 * (row + title_rows));
        if let Some(line) = series.get(i) {
            let colour = colour(line.ink);
            legend
                .draw(&PathElement::new(
                    vec![(x, y), (x + 44, y)],
                    colour.stroke_width(2),
                ))
                .map_err(err)?;
            // The mark the line's points are drawn with: a span between two whole numbers,
            // or a marker.
            if (line.points.iter()).any(|(_, a)| matches!(a, Answered::Between(..))) {
                legend
                    .draw(&Rectangle::new(
                        [(x + 17, y - 10), (x + 27, y + 10)],
                        colour.filled(),
                    ))
                    .map_err(err)?;
            } else {
                marker(&legend, (x + 22, y), i, colour)?;
            }
        } else if i == series.len() {
            legend
                .draw(&plotters::element::DashedPathElement::new(
                    vec![(x, y), (x + 44, y)],
                    10,
                    6,
                    colour(Ink::Reference).stroke_width(2),
                ))
                .map_err(err)?;
        } else {
            triangle(&legend, (x + 22, y), true, colour(Ink::Reference))?;
        }
        legend_label(&legend, &entry.label, (x + 54, y))?;
    }
    Ok(())
}
