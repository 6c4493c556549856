//! Heatmaps: the cells written out with their intervals for the report's table, the size a
//! heatmap needs, and the drawing of its cells, its colour scale and the regions an SVG
//! explains on hover.

use super::model::{Chart, Hover, Plot, Rate, Scale, WIDTH};
use super::style::{FONT, err, text_width, unit_at};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A heatmap's cells as a table: the corner title, the column heads, each row's head and cells.
pub type CellTable = (String, Vec<String>, Vec<(String, Vec<String>)>);

/// The cells of a heatmap written out with their intervals, for the report's table.
pub(super) fn cell_table(chart: &Chart) -> Option<CellTable> {
    let Plot::Heatmap {
        x_label,
        y_label,
        columns,
        rows,
        cells,
        percent,
        ..
    } = &chart.plot
    else {
        return None;
    };
    let written = |v: f64| {
        if *percent {
            format!("{:.1}%", 100.0 * v)
        } else {
            format!("{v:.3}")
        }
    };
    let body = rows
        .iter()
        .zip(cells)
        .map(|(head, row)| {
            let cells = row
                .iter()
                .map(|cell| match cell {
                    Some((v, lo, hi)) => {
                        format!("{} [{}, {}]", written(*v), written(*lo), written(*hi))
                    }
                    None => "–".to_owned(),
                })
                .collect();
            (head.clone(), cells)
        })
        .collect();
    Some((format!("{y_label} \\ {x_label}"), columns.clone(), body))
}

/// Pixels of a heatmap's colour scale strip.
const SCALE_PX: u32 = 126;

/// A heatmap's rows run up the y axis: it is made tall enough for its label written sideways.
pub(super) fn fit_heatmap(chart: &mut Chart) {
    if let Plot::Heatmap { y_label, .. } = &chart.plot {
        chart.height = chart.height.max(text_width(y_label, 20) + 200);
    }
}

/// The width a heatmap needs for its row labels and columns to stay apart.
pub(super) fn heatmap_width(columns: &[String], rows: &[String]) -> u32 {
    let row_px = rows
        .iter()
        .map(|r| text_width(r, 17))
        .max()
        .unwrap_or(40)
        .clamp(40, 360);
    let column_px = columns
        .iter()
        .map(|c| text_width(c, 17))
        .max()
        .unwrap_or(40)
        .max(52)
        + 10;
    (row_px + 130 + SCALE_PX + column_px * columns.len() as u32).max(WIDTH)
}

#[allow(clippy::too_many_arguments)]
pub(super) fn draw_heatmap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    x_label: &str,
    y_label: &str,
    columns: &[String],
    rows: &[String],
    cells: &[Vec<Option<Rate>>],
    percent: bool,
    colours: Scale,
) -> Result<Vec<Hover>> {
    let (nx, ny) = (columns.len().max(1) as i32, rows.len().max(1) as i32);
    let label_px = rows
        .iter()
        .map(|r| text_width(r, 17))
        .max()
        .unwrap_or(40)
        .clamp(40, 360)
        + 24;
    let x_area = 60;
    // A strip on the right for the colour scale.
    let (width, height) = area.dim_in_pixel();
    let (area, scale) = area.split_horizontally(width.saturating_sub(SCALE_PX));
    let area = &area;
    let mut chart = ChartBuilder::on(area)
        .margin_right(20)
        .x_label_area_size(x_area)
        .y_label_area_size(label_px + if y_label.is_empty() { 0 } else { 30 })
        // Cells a unit wide and high, centred on whole numbers: continuous axes, not plotters'
        // segmented ones, which draw a heatmap of one row or one column at no height or width.
        .build_cartesian_2d(-0.5..f64::from(nx) - 0.5, -0.5..f64::from(ny) - 0.5)
        .map_err(err)?;
    // The labels at the cells' centres: the columns from the left, the rows from the top.
    let x_format = |x: &f64| {
        unit_at(*x, columns.len())
            .map(|c| columns[c].clone())
            .unwrap_or_default()
    };
    let y_format = |y: &f64| {
        unit_at(*y, rows.len())
            .map(|r| rows[rows.len() - 1 - r].clone())
            .unwrap_or_default()
    };
    let x_style = (FONT, 17).into_font().color(&BLACK);
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .axis_desc_style((FONT, 20))
        .x_label_style(x_style)
        .y_label_style((FONT, 17))
        .x_labels(columns.len() + 1)
        .y_labels(rows.len() + 1)
        .x_label_formatter(&x_format)
        .y_label_formatter(&y_format)
        .disable_mesh()
        .draw()
        .map_err(err)?;
    let (diverging, top) = match colours {
        Scale::Diverging => (true, 1.0),
        Scale::Sequential { top } => (false, top.max(1e-12)),
    };
    let colour = |v: f64| -> RGBColor {
        let mix = |a: (f64, f64, f64), b: (f64, f64, f64), t: f64| {
            RGBColor(
                (a.0 + (b.0 - a.0) * t) as u8,
                (a.1 + (b.1 - a.1) * t) as u8,
                (a.2 + (b.2 - a.2) * t) as u8,
            )
        };
        let white = (255.0, 255.0, 255.0);
        if diverging {
            if v >= 0.5 {
                mix(
                    white,
                    (0.0, 114.0, 178.0),
                    ((v - 0.5) * 2.0).clamp(0.0, 1.0),
                )
            } else {
                mix(white, (213.0, 94.0, 0.0), ((0.5 - v) * 2.0).clamp(0.0, 1.0))
            }
        } else {
            mix(white, (68.0, 1.0, 84.0), (v / top).clamp(0.0, 1.0))
        }
    };
    let dark = |v: f64| {
        if diverging {
            (v - 0.5).abs() > 0.3
        } else {
            v / top > 0.6
        }
    };
    let mut rects = Vec::new();
    let mut texts = Vec::new();
    let mut hovers = Vec::new();
    let written = |v: f64, decimals: usize| {
        if percent {
            format!("{:.*}%", decimals, 100.0 * v)
        } else {
            format!("{v:.*}", decimals + 1)
        }
    };
    for (r, row) in cells.iter().enumerate() {
        let y = ny - 1 - r as i32;
        for (c, cell) in row.iter().enumerate() {
            let x = c as i32;
            let Some((v, lo, hi)) = *cell else { continue };
            // The corner at the low edges of cell (x, y).
            let corner = |x: i32, y: i32| {
                chart
                    .plotting_area()
                    .map_coordinate(&(f64::from(x) - 0.5, f64::from(y) - 0.5))
            };
            let (a, b) = (corner(x, y + 1), corner(x + 1, y));
            hovers.push((
                a.0.min(b.0),
                a.1.min(b.1),
                a.0.max(b.0),
                a.1.max(b.1),
                if lo == hi {
                    format!(
                        "{y_label}: {}; {x_label}: {}. {} (exact)",
                        rows.get(r).map_or("", String::as_str),
                        columns.get(c).map_or("", String::as_str),
                        written(v, 2)
                    )
                } else {
                    format!(
                        "{y_label}: {}; {x_label}: {}. {} [{}, {}] (95% interval)",
                        rows.get(r).map_or("", String::as_str),
                        columns.get(c).map_or("", String::as_str),
                        written(v, 1),
                        written(lo, 1),
                        written(hi, 1)
                    )
                },
            ));
            let (cx, cy) = (f64::from(x), f64::from(y));
            let mut rect = Rectangle::new(
                [(cx - 0.5, cy - 0.5), (cx + 0.5, cy + 0.5)],
                colour(v).filled(),
            );
            rect.set_margin(1, 1, 1, 1);
            rects.push(rect);
            let text = if percent {
                format!("{:.1}%", 100.0 * v)
            } else {
                format!("{v:.2}")
            };
            let ink = if dark(v) { WHITE } else { BLACK };
            texts.push((text, x, y, ink));
        }
    }
    chart.draw_series(rects).map_err(err)?;
    // The colour scale: the colours from the lowest value (bottom) to the highest, with the
    // ends and the middle written.
    let (lowest, highest) = if diverging { (0.0, 1.0) } else { (0.0, top) };
    let bar_top = 40i32;
    let bar_bottom = (height as i32 - x_area - 10).max(bar_top + 40);
    let steps = 60;
    for k in 0..steps {
        let t0 = k as f64 / steps as f64;
        let y0 = bar_bottom - ((bar_bottom - bar_top) as f64 * (t0 + 1.0 / steps as f64)) as i32;
        let y1 = bar_bottom - ((bar_bottom - bar_top) as f64 * t0) as i32;
        let v = lowest + (highest - lowest) * (t0 + 0.5 / steps as f64);
        scale
            .draw(&Rectangle::new([(20, y0), (44, y1)], colour(v).filled()))
            .map_err(err)?;
    }
    scale
        .draw(&Rectangle::new(
            [(20, bar_top), (44, bar_bottom)],
            BLACK.stroke_width(1),
        ))
        .map_err(err)?;
    let written = |v: f64| {
        if percent {
            format!("{:.0}%", 100.0 * v)
        } else {
            format!("{v:.2}")
        }
    };
    let label_style = (FONT, 17).into_font().color(&BLACK);
    for (v, y) in [
        (highest, bar_top),
        ((lowest + highest) / 2.0, (bar_top + bar_bottom) / 2),
        (lowest, bar_bottom),
    ] {
        scale
            .draw(&Text::new(
                written(v),
                (50, y),
                label_style.clone().pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(err)?;
    }
    scale
        .draw(&Text::new(
            "colour scale",
            (2, bar_top - 24),
            label_style.pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(err)?;
    chart
        .draw_series(texts.into_iter().map(|(text, x, y, ink)| {
            Text::new(
                text,
                (f64::from(x), f64::from(y)),
                (FONT, 17)
                    .into_font()
                    .color(&ink)
                    .pos(Pos::new(HPos::Center, VPos::Center)),
            )
        }))
        .map_err(err)?;
    Ok(hovers)
}

#[cfg(test)]
mod tests {
    use super::draw_heatmap;
    use crate::report::charts::model::Scale;
    use crate::report::charts::render_all;
    use crate::report::charts::tests::{finished_run, scenario};
    use plotters::prelude::*;

    #[test]
    fn a_heatmap_of_one_row_or_one_column_draws_whole_cells() {
        // plotters' segmented axis drew a single row (or column) at no height: its cells, and
        // the regions an SVG gives their intervals on hover, were lines.
        let names = |n: usize| (0..n).map(|i| format!("value {i}")).collect::<Vec<_>>();
        for (nx, ny) in [(3, 1), (1, 3), (1, 1), (4, 3)] {
            let cells = vec![vec![Some((0.5, 0.4, 0.6)); nx]; ny];
            let mut svg = String::new();
            let root = SVGBackend::with_string(&mut svg, (1000, 400)).into_drawing_area();
            let hovers = draw_heatmap(
                &root,
                "x",
                "y",
                &names(nx),
                &names(ny),
                &cells,
                true,
                Scale::Sequential { top: 1.0 },
            )
            .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(hovers.len(), nx * ny);
            for &(x0, y0, x1, y1, _) in &hovers {
                assert!(
                    x1 - x0 > 100 && y1 - y0 > 50,
                    "{nx} x {ny}: {:?}",
                    (x0, y0, x1, y1)
                );
            }
        }
    }

    #[test]
    fn a_heatmap_has_a_colour_scale() {
        let s = scenario();
        let run = finished_run(&s);
        let rendered = render_all(&run).unwrap_or_else(|e| panic!("{e}"));
        let heatmap = rendered
            .iter()
            .find(|r| r.name == "matchup")
            .unwrap_or_else(|| panic!("no heatmap"));
        assert!(heatmap.svg.contains("colour scale"), "no scale");
        assert!(
            heatmap.svg.contains("\n100%\n") && heatmap.svg.contains("\n0%\n"),
            "scale ends"
        );
    }
}
