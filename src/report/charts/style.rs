//! The drawing pieces every chart shares: the palette, the font, tick labels and text widths,
//! the dash patterns and markers that tell line series apart without colour, and the layout of
//! a line chart's legend.

use super::model::Series;
use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor;
use std::sync::OnceLock;

/// Colours that stay apart for colour-blind readers (Okabe and Ito), then black.
pub(super) const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(120, 120, 120),
    RGBColor(0, 0, 0),
];

pub(super) const FONT: &str = "sans-serif";

pub(super) fn register_font() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        let bytes: &'static [u8] = include_bytes!("../../../assets/fonts/DejaVuSans.ttf");
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, bytes);
    });
}

/// The row or column of `n` centred at `at` on a chart whose rows (or a heatmap's columns) are
/// a unit each, centred on 0 to `n - 1`: `None` between them, where a tick has no label.
pub(super) fn unit_at(at: f64, n: usize) -> Option<usize> {
    let unit = at.round();
    ((at - unit).abs() < 1e-6 && unit >= 0.0 && unit < n as f64).then_some(unit as usize)
}

/// A tick label with as many decimals as the axis's span needs.
pub(super) fn axis_number(x: f64, span: f64) -> String {
    if span >= 10.0 {
        format!("{x:.0}")
    } else if span >= 1.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

pub(super) fn text_width(s: &str, px: u32) -> u32 {
    (s.chars().count() as u32 * px * 56) / 100
}

pub(super) type DrawResult = Result<()>;

pub(super) fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("{e}")
}

/// Dash patterns (dash, gap in pixels; `None` solid) that tell series apart without colour.
pub(super) const DASHES: [Option<(u32, u32)>; 8] = [
    None,
    Some((14, 7)),
    Some((4, 5)),
    Some((24, 8)),
    None,
    Some((14, 7)),
    Some((4, 5)),
    Some((24, 8)),
];
/// The most markers drawn on one series (spread along it).
pub(super) const MARKERS_PER_SERIES: usize = 12;

/// One of five marker shapes, by series: circle, triangle, square, cross, diamond.
pub(super) fn marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    i: usize,
    colour: RGBColor,
) -> DrawResult {
    let (x, y) = at;
    let r = 6;
    match i % 5 {
        0 => area.draw(&Circle::new(at, r, colour.filled())),
        1 => area.draw(&Polygon::new(
            vec![(x, y - r - 1), (x - r - 1, y + r), (x + r + 1, y + r)],
            colour.filled(),
        )),
        2 => area.draw(&Rectangle::new(
            [(x - r + 1, y - r + 1), (x + r - 1, y + r - 1)],
            colour.filled(),
        )),
        3 => {
            area.draw(&PathElement::new(
                vec![(x - r, y - r), (x + r, y + r)],
                colour.stroke_width(3),
            ))
            .map_err(err)?;
            area.draw(&PathElement::new(
                vec![(x - r, y + r), (x + r, y - r)],
                colour.stroke_width(3),
            ))
        }
        _ => area.draw(&Polygon::new(
            vec![
                (x, y - r - 1),
                (x + r + 1, y),
                (x, y + r + 1),
                (x - r - 1, y),
            ],
            colour.filled(),
        )),
    }
    .map_err(err)
}

/// Draws a legend's title (bold, at its top left) when it has one; returns the rows it takes.
pub(super) fn draw_legend_title<DB: DrawingBackend>(
    legend: &DrawingArea<DB, Shift>,
    title: &str,
) -> Result<i32> {
    if title.is_empty() {
        return Ok(0);
    }
    legend
        .draw(&Text::new(
            title.to_owned(),
            (84, 18),
            (FONT, 17)
                .into_font()
                .style(FontStyle::Bold)
                .color(&BLACK)
                .pos(text_anchor::Pos::new(
                    text_anchor::HPos::Left,
                    text_anchor::VPos::Center,
                )),
        ))
        .map_err(err)?;
    Ok(1)
}

/// The legend of a line chart laid out in columns under the plot: (columns, rows, height).
pub(super) fn legend_layout(series: &[Series], title: &str, width: u32) -> (usize, usize, u32) {
    let entry = series
        .iter()
        .map(|s| text_width(&s.label, 17))
        .max()
        .unwrap_or(0)
        .clamp(80, 420)
        + 76;
    let columns = ((width / entry) as usize).clamp(1, series.len().max(1));
    let rows = series.len().div_ceil(columns);
    let height = 26 * (rows + usize::from(!title.is_empty())) as u32 + 12;
    (columns, rows, height)
}
