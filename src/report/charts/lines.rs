//! Line charts: the curves with their 95% bands, each in its colour, dash pattern and markers,
//! and the legend laid out in columns under the plot.

use super::model::{Look, Series};
use super::style::{
    DASHES, DrawResult, FONT, MARKERS_PER_SERIES, axis_number, colour, draw_legend_title, err,
    hollow_marker, legend_label, legend_layout, marker,
};
use plotters::coord::Shift;
use plotters::prelude::*;

/// Pixels kept clear between the ranges' edges and the plot's frame: a marker's reach (6 px
/// and its outline) and a little air.
const EDGE_PX: f64 = 10.0;
/// The plot's margins, in pixels: its right margin, and the areas of the x and y axes' labels.
const RIGHT_MARGIN_PX: u32 = 20;
const X_LABELS_PX: u32 = 60;
const Y_LABELS_PX: u32 = 80;

#[allow(clippy::too_many_arguments)]
pub(super) fn draw_lines<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    legend_title: &str,
    x_label: &str,
    y_label: &str,
    x_range: (f64, f64),
    y_range: (f64, f64),
    series: &[Series],
    integer_x: bool,
) -> DrawResult {
    // The legend sits under the plot, in as many columns as fit, so the plot keeps its width.
    let (width, height) = area.dim_in_pixel();
    let (columns, _, legend_px) = legend_layout(series, legend_title, width);
    let (plot_area, legend) = area.split_vertically(height.saturating_sub(legend_px));
    // The plot reaches a few pixels past the ranges on every side, so that a marker or a line
    // on a range's edge (a rate of 0% or 100%, the first or last value swept, day 0) is drawn
    // whole, not cut in half by the plot's frame.
    let (plot_width, plot_height) = plot_area.dim_in_pixel();
    let clear = |(from, to): (f64, f64), pixels: u32, taken: u32| {
        let inner = f64::from(pixels.saturating_sub(taken).max(1));
        let margin = (to - from) * EDGE_PX / (inner - 2.0 * EDGE_PX).max(1.0);
        (from - margin)..(to + margin)
    };
    let mut chart = ChartBuilder::on(&plot_area)
        .margin_right(RIGHT_MARGIN_PX)
        .x_label_area_size(X_LABELS_PX)
        .y_label_area_size(Y_LABELS_PX)
        .build_cartesian_2d(
            clear(x_range, plot_width, Y_LABELS_PX + RIGHT_MARGIN_PX),
            clear(y_range, plot_height, X_LABELS_PX),
        )
        .map_err(err)?;
    let x_format = |x: &f64| {
        if integer_x {
            if x.fract().abs() < 1e-9 {
                format!("{x:.0}")
            } else {
                String::new()
            }
        } else {
            axis_number(*x, x_range.1 - x_range.0)
        }
    };
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .axis_desc_style((FONT, 20))
        .label_style((FONT, 17))
        .x_label_formatter(&x_format)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(205, 205, 205))
        .draw()
        .map_err(err)?;
    for s in series {
        let colour = colour(s.ink);
        if let Some(band) = s.band.as_ref().filter(|_| s.look == Look::Line) {
            let mut outline: Vec<(f64, f64)> = band.iter().map(|&(x, lo, _)| (x, lo)).collect();
            outline.extend(band.iter().rev().map(|&(x, _, hi)| (x, hi)));
            chart
                .draw_series(std::iter::once(Polygon::new(outline, colour.mix(0.22))))
                .map_err(err)?;
        }
    }
    let plotted = chart.plotting_area().clone();
    let pixels = plotted.strip_coord_spec();
    let base = pixels.get_base_pixel();
    let at = |p: &(f64, f64)| {
        let (x, y) = plotted.map_coordinate(p);
        (x - base.0, y - base.1)
    };
    let alone = series.iter().filter(|s| s.look == Look::Bins).count() == 1;
    for (i, s) in series.iter().enumerate() {
        let colour = colour(s.ink);
        let style = colour.stroke_width(3);
        let dash = DASHES[i % DASHES.len()];
        match s.look {
            Look::Points => {
                // Each point's interval as a whisker with its ends; a hollow marker on every
                // point, so that a short whisker shows through it.
                for p in &s.points {
                    hollow_marker(&pixels, at(p), i, colour)?;
                }
                for &(x, lo, hi) in s.band.iter().flatten() {
                    whisker(&pixels, &at, (x, lo, hi), colour)?;
                }
                continue;
            }
            Look::Span => {
                span(&pixels, &at, &s.points, colour)?;
                continue;
            }
            Look::Reference => {
                chart
                    .draw_series(DashedLineSeries::new(
                        s.points.clone(),
                        10,
                        6,
                        colour.stroke_width(2),
                    ))
                    .map_err(err)?;
                continue;
            }
            Look::Bins if alone => {
                for &(x, y) in &s.points {
                    let mut bar =
                        Rectangle::new([(x - 0.5, 0.0), (x + 0.5, y)], colour.mix(0.75).filled());
                    bar.set_margin(0, 0, 3, 3);
                    chart.draw_series(std::iter::once(bar)).map_err(err)?;
                }
                // The bars are the marks: no markers on them.
                continue;
            }
            Look::Line | Look::Step | Look::Bins => {
                let line = path(s);
                match dash {
                    None => chart.draw_series(LineSeries::new(line, style)),
                    Some((on, off)) => {
                        chart.draw_series(DashedLineSeries::new(line, on, off, style))
                    }
                }
                .map_err(err)?;
            }
        }
        // Markers at a few points, shifted by series so that coinciding curves show each.
        let n = s.points.len();
        let every = n.div_ceil(MARKERS_PER_SERIES).max(1);
        for (j, &p) in s.points.iter().enumerate() {
            if n <= MARKERS_PER_SERIES || j % every == (i * every / series.len().max(1)) % every {
                marker(&pixels, at(&p), i, colour)?;
            }
        }
    }
    let title_rows = draw_legend_title(&legend, legend_title)?;
    let column_px = (width as i32 - 84) / columns as i32;
    for (i, s) in series.iter().enumerate() {
        let (col, row) = ((i % columns) as i32, (i / columns) as i32);
        let at = (84 + col * column_px, 18 + 26 * (row + title_rows));
        legend_entry(&legend, at, i, s, alone)?;
    }
    Ok(())
}

/// The points of a series' line: through them, as a staircase, or over each whole value's bin.
fn path(s: &Series) -> Vec<(f64, f64)> {
    let mut line = Vec::with_capacity(s.points.len() * 2 + 2);
    match s.look {
        Look::Step => {
            for (j, &(x, y)) in s.points.iter().enumerate() {
                if j > 0 {
                    line.push((x, s.points[j - 1].1));
                }
                line.push((x, y));
            }
        }
        Look::Bins => {
            let mut last = 0.0;
            for &(x, y) in &s.points {
                line.push((x - 0.5, last));
                line.push((x - 0.5, y));
                line.push((x + 0.5, y));
                last = y;
            }
            if let Some(&(x, _)) = s.points.last() {
                line.push((x + 0.5, 0.0));
            }
        }
        _ => line.extend_from_slice(&s.points),
    }
    line
}

/// An interval as a vertical whisker with short ends, in pixels.
fn whisker<DB: DrawingBackend>(
    pixels: &DrawingArea<DB, Shift>,
    at: &impl Fn(&(f64, f64)) -> (i32, i32),
    (x, lo, hi): (f64, f64, f64),
    colour: RGBColor,
) -> DrawResult {
    for end in [lo, hi] {
        let (px, py) = at(&(x, end));
        pixels
            .draw(&PathElement::new(
                vec![(px - 7, py), (px + 7, py)],
                colour.stroke_width(2),
            ))
            .map_err(err)?;
    }
    pixels
        .draw(&PathElement::new(
            vec![at(&(x, lo)), at(&(x, hi))],
            colour.stroke_width(2),
        ))
        .map_err(err)
}

/// An interval on a line (its first and last point) as a thick span with upright ends.
fn span<DB: DrawingBackend>(
    pixels: &DrawingArea<DB, Shift>,
    at: &impl Fn(&(f64, f64)) -> (i32, i32),
    points: &[(f64, f64)],
    colour: RGBColor,
) -> DrawResult {
    let (Some(first), Some(last)) = (points.first(), points.last()) else {
        return Ok(());
    };
    let (a, b) = (at(first), at(last));
    pixels
        .draw(&PathElement::new(vec![a, b], colour.stroke_width(5)))
        .map_err(err)?;
    for (x, y) in [a, b] {
        pixels
            .draw(&PathElement::new(
                vec![(x, y - 11), (x, y + 11)],
                colour.stroke_width(3),
            ))
            .map_err(err)?;
    }
    Ok(())
}

/// A series' entry in the legend, at a pixel: a sample of its line (or bar, span, reference)
/// with its marker, and its label.
fn legend_entry<DB: DrawingBackend>(
    legend: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    i: usize,
    s: &Series,
    alone: bool,
) -> DrawResult {
    let colour = colour(s.ink);
    let sample = vec![(x, y), (x + 44, y)];
    match (s.look, DASHES[i % DASHES.len()]) {
        (Look::Bins, _) if alone => legend
            .draw(&Rectangle::new(
                [(x + 12, y - 9), (x + 32, y + 9)],
                colour.mix(0.75).filled(),
            ))
            .map_err(err)?,
        (Look::Points, _) => {
            whisker(
                legend,
                &|p| (p.0 as i32, p.1 as i32),
                (f64::from(x + 22), f64::from(y - 10), f64::from(y + 10)),
                colour,
            )?;
            hollow_marker(legend, (x + 22, y), i, colour)?;
        }
        (Look::Span, _) => span(
            legend,
            &|p| (p.0 as i32, p.1 as i32),
            &[
                (f64::from(x + 4), f64::from(y)),
                (f64::from(x + 40), f64::from(y)),
            ],
            colour,
        )?,
        (Look::Reference, _) => legend
            .draw(&plotters::element::DashedPathElement::new(
                sample,
                10,
                6,
                colour.stroke_width(2),
            ))
            .map(|_| ())
            .map_err(err)?,
        (_, None) => {
            legend
                .draw(&PathElement::new(sample, colour.stroke_width(3)))
                .map_err(err)?;
            marker(legend, (x + 22, y), i, colour)?;
        }
        (_, Some((on, off))) => {
            legend
                .draw(&plotters::element::DashedPathElement::new(
                    sample,
                    on,
                    off,
                    colour.stroke_width(3),
                ))
                .map_err(err)?;
            marker(legend, (x + 22, y), i, colour)?;
        }
    }
    legend_label(legend, &s.label, (x + 54, y))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::model::Ink;

    /// The colour of the second series, whose markers are triangles.
    const SECOND: RGBColor = RGBColor(213, 94, 0);

    /// The triangle markers (the second series') of a line chart drawn as SVG, each as its
    /// vertices.
    fn triangles(series: &[Series], y_range: (f64, f64)) -> Vec<Vec<(i32, i32)>> {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (1000, 620)).into_drawing_area();
            let drawn = draw_lines(&root, "", "x", "y", (1.0, 3.0), y_range, series, true);
            assert!(drawn.is_ok());
            assert!(root.present().is_ok());
        }
        let fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", SECOND.0, SECOND.1, SECOND.2);
        svg.lines()
            .filter(|l| l.starts_with("<polygon") && l.contains(&fill))
            .map(|l| {
                let points = l.split("points=\"").nth(1).unwrap_or("");
                points
                    .split('"')
                    .next()
                    .unwrap_or("")
                    .split_whitespace()
                    .filter_map(|p| {
                        let (x, y) = p.split_once(',')?;
                        Some((x.parse().ok()?, y.parse().ok()?))
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn markers_on_the_edges_of_the_ranges_are_drawn_whole() {
        // A rate of 100% at the last value swept and of 0% at the first: the plot's corners.
        // Each triangle is 13 px tall (6 px each way and one more at its apex) and 14 px wide
        // when whole; the plot's frame cut the ones on its edges before the plot reached past
        // the ranges.
        let line = |label: &str, points: Vec<(f64, f64)>, ink: Ink| {
            Series::new(label.to_owned(), points, Look::Line, ink)
        };
        let series = [
            line("first", vec![(1.0, 50.0), (3.0, 50.0)], Ink::Side(0)),
            line(
                "second",
                vec![(1.0, 0.0), (2.0, 60.0), (3.0, 100.0)],
                Ink::Side(1),
            ),
        ];
        let drawn = triangles(&series, (0.0, 100.0));
        // Three on the plot, one in the legend.
        assert_eq!(drawn.len(), 4, "{drawn:?}");
        let extent = |values: Vec<i32>| {
            values.iter().max().unwrap_or(&0) - values.iter().min().unwrap_or(&0)
        };
        for triangle in &drawn {
            let width = extent(triangle.iter().map(|p| p.0).collect());
            let height = extent(triangle.iter().map(|p| p.1).collect());
            assert_eq!((triangle.len(), width, height), (3, 14, 13), "{triangle:?}");
        }
    }
}
