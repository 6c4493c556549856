//! Line charts: the curves with their 95% bands, each in its colour, dash pattern and markers,
//! and the legend laid out in columns under the plot.

use super::model::Series;
use super::style::{
    DASHES, DrawResult, FONT, MARKERS_PER_SERIES, PALETTE, axis_number, draw_legend_title, err,
    legend_layout, marker,
};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

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
    let mut chart = ChartBuilder::on(&plot_area)
        .margin_right(20)
        .x_label_area_size(60)
        .y_label_area_size(80)
        .build_cartesian_2d(x_range.0..x_range.1, y_range.0..y_range.1)
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
    for (i, s) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        if let Some(band) = s.band.as_ref().filter(|_| !s.points_only) {
            let mut outline: Vec<(f64, f64)> = band.iter().map(|&(x, lo, _)| (x, lo)).collect();
            outline.extend(band.iter().rev().map(|&(x, _, hi)| (x, hi)));
            chart
                .draw_series(std::iter::once(Polygon::new(outline, colour.mix(0.22))))
                .map_err(err)?;
        }
    }
    let title_rows = draw_legend_title(&legend, legend_title)?;
    let column_px = (width as i32 - 84) / columns as i32;
    let plotted = chart.plotting_area().clone();
    let pixels = plotted.strip_coord_spec();
    let base = pixels.get_base_pixel();
    let at = |p: &(f64, f64)| {
        let (x, y) = plotted.map_coordinate(p);
        (x - base.0, y - base.1)
    };
    for (i, s) in series.iter().enumerate() {
        let colour = PALETTE[i % PALETTE.len()];
        let style = colour.stroke_width(3);
        let mut line = Vec::with_capacity(s.points.len() * 2);
        for (j, &(x, y)) in s.points.iter().enumerate() {
            if s.step && j > 0 {
                line.push((x, s.points[j - 1].1));
            }
            line.push((x, y));
        }
        let dash = DASHES[i % DASHES.len()];
        if s.points_only {
            // Each point's interval as a whisker; a marker on every point.
            for &(x, lo, hi) in s.band.iter().flatten() {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(x, lo), (x, hi)],
                        colour.stroke_width(2),
                    )))
                    .map_err(err)?;
            }
            for p in &s.points {
                marker(&pixels, at(p), i, colour)?;
            }
        } else {
            match dash {
                None => chart.draw_series(LineSeries::new(line, style)),
                Some((on, off)) => chart.draw_series(DashedLineSeries::new(line, on, off, style)),
            }
            .map_err(err)?;
        }
        // Markers at a few points, shifted by series so that coinciding curves show each.
        let n = s.points.len();
        let every = n.div_ceil(MARKERS_PER_SERIES).max(1);
        for (j, &p) in s.points.iter().enumerate() {
            if !s.points_only
                && (n <= MARKERS_PER_SERIES
                    || j % every == (i * every / series.len().max(1)) % every)
            {
                marker(&pixels, at(&p), i, colour)?;
            }
        }
        let (col, row) = ((i % columns) as i32, (i / columns) as i32);
        let (x, y) = (84 + col * column_px, 18 + 26 * (row + title_rows));
        let sample = vec![(x, y), (x + 44, y)];
        match dash.filter(|_| !s.points_only) {
            None => legend.draw(&PathElement::new(sample, style)),
            Some((on, off)) => legend.draw(&plotters::element::DashedPathElement::new(
                sample, on, off, style,
            )),
        }
        .map_err(err)?;
        marker(&legend, (x + 22, y), i, colour)?;
        legend
            .draw(&Text::new(
                s.label.clone(),
                (x + 54, y),
                (FONT, 17)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(err)?;
    }
    Ok(())
}
