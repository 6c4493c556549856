//! The drawing pieces every chart shares: the palette, the font, tick labels and text widths,
//! the dash patterns and markers that tell line series apart without colour, and the layout of
//! a line chart's legend.

use super::model::{Ink, Series};
use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor;
use std::sync::OnceLock;

/// The colour of each meaning ([`Ink`]), the same in every chart.
pub(super) fn colour(ink: Ink) -> RGBColor {
    match ink {
        Ink::Side(0) => RGBColor(0, 114, 178),
        Ink::Side(1) => RGBColor(213, 94, 0),
        Ink::Side(k) => CATEGORIES[k % CATEGORIES.len()],
        Ink::Draw => RGBColor(128, 128, 128),
        Ink::Whole => RGBColor(0, 128, 96),
        Ink::WholeImpaired => RGBColor(176, 118, 0),
        Ink::Unhealed => RGBColor(170, 68, 136),
        Ink::Died(cause) => DEATH_COLOURS[cause % DEATH_COLOURS.len()],
        Ink::Ordered { at, of } => sequential(at, of),
        Ink::Category(k) => CATEGORIES[k % CATEGORIES.len()],
        Ink::Reference => RGBColor(120, 120, 120),
        Ink::Answer => RGBColor(0, 0, 0),
    }
}

/// Deaths in recovery, by cause ([`super::model::DEATHS`]): dark, apart from every other
/// outcome, white labels readable on each.
const DEATH_COLOURS: [RGBColor; 6] = [
    RGBColor(40, 40, 40),
    RGBColor(140, 20, 20),
    RGBColor(70, 50, 140),
    RGBColor(95, 95, 20),
    RGBColor(100, 55, 25),
    RGBColor(140, 20, 20),
];

/// Colours for the values of an unordered value: Okabe and Ito's, without the two the sides
/// take, so a point's colour never reads as a side.
const CATEGORIES: [RGBColor; 6] = [
    RGBColor(86, 180, 233),
    RGBColor(230, 159, 0),
    RGBColor(204, 121, 167),
    RGBColor(0, 158, 115),
    RGBColor(0, 0, 0),
    RGBColor(150, 130, 0),
];

/// Viridis from its darkest to a green still seen on white, for ordered values.
const VIRIDIS: [(f64, f64, f64); 7] = [
    (68.0, 1.0, 84.0),
    (70.0, 51.0, 127.0),
    (54.0, 92.0, 141.0),
    (39.0, 127.0, 142.0),
    (31.0, 161.0, 135.0),
    (74.0, 193.0, 109.0),
    (150.0, 208.0, 60.0),
];

/// The `at`-th of `of` ordered values on the sequential scale: the lowest lightest, the
/// highest darkest.
fn sequential(at: usize, of: usize) -> RGBColor {
    let t = if of < 2 {
        0.5
    } else {
        1.0 - at.min(of - 1) as f64 / (of - 1) as f64
    };
    let scaled = t * (VIRIDIS.len() - 1) as f64;
    let k = (scaled.floor() as usize).min(VIRIDIS.len() - 2);
    let f = scaled - k as f64;
    let (a, b) = (VIRIDIS[k], VIRIDIS[k + 1]);
    let mix = |x: f64, y: f64| (x + (y - x) * f).round() as u8;
    RGBColor(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

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

/// A marker left open: its shape in `colour` with a white inside, so that a whisker through it
/// shows.
pub(super) fn hollow_marker<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    at: (i32, i32),
    i: usize,
    colour: RGBColor,
) -> DrawResult {
    marker(area, at, i, colour)?;
    area.draw(&Circle::new(at, 3, WHITE.filled())).map_err(err)
}

/// Draws a legend entry's label, left-aligned at a pixel (its middle height).
pub(super) fn legend_label<DB: DrawingBackend>(
    legend: &DrawingArea<DB, Shift>,
    label: &str,
    at: (i32, i32),
) -> DrawResult {
    legend
        .draw(&Text::new(
            label.to_owned(),
            at,
            (FONT, 17)
                .into_font()
                .color(&BLACK)
                .pos(text_anchor::Pos::new(
                    text_anchor::HPos::Left,
                    text_anchor::VPos::Center,
                )),
        ))
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::model::DEATHS;

    #[test]
    fn every_outcome_has_a_colour_of_its_own() {
        // Died before help and of blood loss are one way to die (bleeding out): one colour.
        let mut outcomes = vec![
            Ink::Side(0),
            Ink::Side(1),
            Ink::Draw,
            Ink::Whole,
            Ink::WholeImpaired,
            Ink::Unhealed,
        ];
        outcomes.extend((0..DEATHS.len() - 1).map(Ink::Died));
        let colours: Vec<RGBColor> = outcomes.iter().map(|&i| colour(i)).collect();
        for (k, c) in colours.iter().enumerate() {
            assert!(
                !colours[..k].contains(c),
                "{:?} shares its colour",
                outcomes[k]
            );
            // No point of an unordered value reads as an outcome.
            assert!(!CATEGORIES.contains(c), "{:?} is a category", outcomes[k]);
        }
    }

    #[test]
    fn ordered_values_darken_from_the_lowest_to_the_highest() {
        let lightness = |c: RGBColor| u32::from(c.0) + u32::from(c.1) + u32::from(c.2);
        let scale: Vec<u32> = (0..5)
            .map(|at| lightness(colour(Ink::Ordered { at, of: 5 })))
            .collect();
        assert!(scale.windows(2).all(|w| w[0] > w[1]), "{scale:?}");
    }
}
