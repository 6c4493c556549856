//! Bar charts (a value with its 95% interval per row) and forest plots (differences with their
//! intervals around a zero line), and the row labels they share.

use super::model::Ink;
use super::style::{DrawResult, FONT, axis_number, colour, err, text_width, unit_at};
use anyhow::Result;
use plotters::coord::Shift;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The width the row labels of a bar or forest chart take, in pixels.
fn row_label_width(rows: &[(String, f64, f64, f64)]) -> u32 {
    rows.iter()
        .map(|r| text_width(&r.0, 17))
        .max()
        .unwrap_or(40)
        .clamp(40, 420)
        + 24
}

/// Where row `i` of `n` is drawn (its centre; the first row on top): rows are a unit apart,
/// each from half a unit below its centre to half a unit above.
fn row_at(n: usize, i: usize) -> f64 {
    (n - 1 - i) as f64
}

/// The label of the row centred at `y` of a bar or forest chart, none between rows.
fn row_label(rows: &[(String, f64, f64, f64)], y: f64) -> String {
    unit_at(y, rows.len())
        .map(|at| rows[rows.len() - 1 - at].0.clone())
        .unwrap_or_default()
}

/// The chart area of a row chart (bars, stacked bars, a forest plot): a row a unit high, centred
/// at [`row_at`], the first on top, over `x_range`, with its mesh drawn: the rows' labels on the
/// left (and `y_label` beside them, if any) and `x_format` on the value axis. (Rows on a
/// continuous axis, not plotters' segmented one, which draws a chart of one row at no height.)
fn row_chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    x_label: &str,
    y_label: &str,
    rows: &[(String, f64, f64, f64)],
    x_range: std::ops::Range<f64>,
    x_format: &dyn Fn(&f64) -> String,
) -> Result<RowChart<'a, DB>> {
    let n = rows.len().max(1);
    // The rows' title runs up beside their labels; one longer than the rows are high (two swept
    // values' titles over few rows) goes in lines, one value's title each, rather than past the
    // chart's top.
    let area_height = area.dim_in_pixel().1;
    let (lines, size, one_line) = desc_lines(y_label, area_height);
    let desc_width = (size + 10) * lines.len() as u32;
    let mut chart = ChartBuilder::on(area)
        .margin_right(30)
        .x_label_area_size(60)
        .y_label_area_size(row_label_width(rows) + desc_width)
        .build_cartesian_2d(x_range, -0.5..n as f64 - 0.5)
        .map_err(err)?;
    let y_format = |y: &f64| row_label(rows, *y);
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(if one_line { y_label } else { "" })
        .axis_desc_style((FONT, 20))
        .label_style((FONT, 17))
        .y_labels(n + 1)
        .y_label_formatter(&y_format)
        .x_label_formatter(x_format)
        .disable_y_mesh()
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(205, 205, 205))
        .draw()
        .map_err(err)?;
    if !one_line {
        // Lines centred on the whole chart's height, which they may all use.
        let centre = area_height as i32 / 2;
        let style = TextStyle::from((FONT, size).into_font())
            .transform(FontTransform::Rotate270)
            .pos(Pos::new(HPos::Center, VPos::Center));
        for (k, line) in lines.iter().enumerate() {
            let x = 8 + (size as i32 + 10) * k as i32 + size as i32 / 2;
            area.draw_text(line, &style, (x, centre)).map_err(err)?;
        }
    }
    Ok(chart)
}

/// The size of a row chart's axis titles, in pixels.
const DESC_PX: u32 = 20;

/// The lines a rows' title `label` is drawn in beside a chart area `height` pixels high, their
/// size, and whether it is one line centred on the rows (plotters' own axis title): when it
/// fits beside them (the area less the value axis below). Else a line per swept value's title
/// (they are joined by " / ") centred on the area, smaller if need be but never under 17
/// pixels, the rows' labels' own size, and a line still too long at that size broken between
/// words. None for no title.
fn desc_lines(label: &str, height: u32) -> (Vec<String>, u32, bool) {
    if label.is_empty() {
        return (Vec::new(), DESC_PX, true);
    }
    if text_width(label, DESC_PX) <= height.saturating_sub(60) {
        return (vec![label.to_owned()], DESC_PX, true);
    }
    let room = height.saturating_sub(10);
    let parts: Vec<&str> = label.split(" / ").collect();
    let longest = parts
        .iter()
        .map(|l| text_width(l, DESC_PX))
        .max()
        .unwrap_or(0);
    let size = if longest <= room {
        DESC_PX
    } else {
        (DESC_PX * room / longest.max(1)).max(17)
    };
    let mut lines = Vec::new();
    for part in parts {
        let mut line = String::new();
        for word in part.split(' ') {
            let longer = if line.is_empty() {
                word.to_owned()
            } else {
                format!("{line} {word}")
            };
            if !line.is_empty() && text_width(&longer, size) > room {
                lines.push(std::mem::replace(&mut line, word.to_owned()));
            } else {
                line = longer;
            }
        }
        lines.push(line);
    }
    (lines, size, false)
}

/// A row chart's drawing context: values across, rows down.
type RowChart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

pub(super) fn draw_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    x_label: &str,
    y_label: &str,
    rows: &[(String, f64, f64, f64)],
) -> DrawResult {
    let n = rows.len();
    let top = rows.iter().fold(1.0f64, |m, r| m.max(r.3));
    let x_max = top * 1.15;
    let mut chart = row_chart(area, x_label, y_label, rows, 0f64..x_max, &|x| {
        axis_number(*x, x_max)
    })?;
    let colour = colour(Ink::Side(0));
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let y = row_at(n, i);
            let mut bar =
                Rectangle::new([(0.0, y - 0.5), (r.1, y + 0.5)], colour.mix(0.75).filled());
            bar.set_margin(6, 6, 0, 0);
            bar
        }))
        .map_err(err)?;
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let y = row_at(n, i);
            PathElement::new(vec![(r.2, y), (r.3, y)], BLACK.stroke_width(2))
        }))
        .map_err(err)?;
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let y = row_at(n, i);
            Text::new(
                format!("{:.1}%", r.1),
                (r.3 + x_max * 0.012, y),
                (FONT, 17)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            )
        }))
        .map_err(err)?;
    Ok(())
}

/// Stacked bars: each row's shares side by side from 0 to 100%, each segment in its colour and
/// labelled inside when it is wide enough, with a legend of the segments above the plot.
pub(super) fn draw_stacked<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    x_label: &str,
    y_label: &str,
    segments: &[(String, Ink)],
    rows: &[(String, Vec<f64>)],
) -> DrawResult {
    // The legend: a swatch and a name per segment, in rows as wide as the chart allows.
    let width = area.dim_in_pixel().0 as i32;
    let mut placed = Vec::new();
    let (mut x, mut y) = (0, 4);
    for (k, (name, _)) in segments.iter().enumerate() {
        let entry = 30 + text_width(name, 17) as i32 + 26;
        if x > 0 && x + entry > width {
            x = 0;
            y += 28;
        }
        placed.push((k, x, y));
        x += entry;
    }
    let (legend, body) = area.split_vertically(y as u32 + 34);
    for (k, x, y) in placed {
        let ink = colour(segments[k].1);
        legend
            .draw(&Rectangle::new(
                [(x, y + 3), (x + 22, y + 19)],
                ink.filled(),
            ))
            .map_err(err)?;
        legend
            .draw(&Text::new(
                segments[k].0.clone(),
                (x + 30, y + 2),
                (FONT, 17).into_font().color(&BLACK),
            ))
            .map_err(err)?;
    }
    let labelled: Vec<(String, f64, f64, f64)> = rows
        .iter()
        .map(|(l, _)| (l.clone(), 0.0, 0.0, 0.0))
        .collect();
    let n = rows.len();
    let mut chart = row_chart(&body, x_label, y_label, &labelled, 0f64..100.0, &|x| {
        format!("{x:.0}%")
    })?;
    for (i, (_, shares)) in rows.iter().enumerate() {
        let y = row_at(n, i);
        let mut from = 0.0;
        for (k, &share) in shares.iter().enumerate() {
            let to = (from + share).min(100.0);
            if share > 0.0 {
                let mut bar = Rectangle::new(
                    [(from, y - 0.5), (to, y + 0.5)],
                    colour(segments[k].1).filled(),
                );
                bar.set_margin(6, 6, 0, 0);
                chart.draw_series(std::iter::once(bar)).map_err(err)?;
                if share >= 7.0 {
                    chart
                        .draw_series(std::iter::once(Text::new(
                            format!("{share:.0}%"),
                            ((from + to) / 2.0, y),
                            (FONT, 17)
                                .into_font()
                                .color(&WHITE)
                                .pos(Pos::new(HPos::Center, VPos::Center)),
                        )))
                        .map_err(err)?;
                }
            }
            from = to;
        }
    }
    Ok(())
}

/// A difference with its interval, to as many decimals as tell its ends apart (at least one,
/// at most four; one for exactly no difference): "+0.9 [+0.7, +1.1]", "+0.003 [-0.002, +0.008]",
/// "0.0 [0.0, 0.0]", never "-0.0".
pub(super) fn interval_label(value: f64, lo: f64, hi: f64) -> String {
    let spread = (hi - lo).abs().max(value.abs());
    // Exactly no difference needs no digits to tell it.
    let decimals = if spread == 0.0 {
        1
    } else {
        (1..4)
            .find(|&d| spread >= 10f64.powi(-d) * 2.0)
            .unwrap_or(4) as usize
    };
    // Zero is said without a sign here: "0.0", as the axis says it.
    let signed = |x: f64| {
        let text = crate::report::words::signed(x, decimals);
        match text.strip_prefix('+') {
            Some(zero) if zero.chars().all(|c| c == '0' || c == '.') => zero.to_owned(),
            _ => text,
        }
    };
    format!("{} [{}, {}]", signed(value), signed(lo), signed(hi))
}

pub(super) fn draw_forest<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    x_label: &str,
    rows: &[(String, f64, f64, f64)],
) -> DrawResult {
    let n = rows.len();
    let lo = rows.iter().fold(0.0f64, |m, r| m.min(r.2));
    let hi = rows.iter().fold(0.0f64, |m, r| m.max(r.3));
    let span = (hi - lo).max(0.1);
    let (x_lo, x_hi) = (lo - span * 0.08, hi + span * 0.22);
    let mut chart = row_chart(area, x_label, "", rows, x_lo..x_hi, &|x| {
        axis_number(*x, x_hi - x_lo)
    })?;
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(0.0, -0.5), (0.0, n.max(1) as f64 - 0.5)],
            colour(Ink::Reference).stroke_width(2),
        )))
        .map_err(err)?;
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let y = row_at(n, i);
            PathElement::new(
                vec![(r.2, y), (r.3, y)],
                colour(Ink::Side(0)).stroke_width(3),
            )
        }))
        .map_err(err)?;
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let y = row_at(n, i);
            Circle::new((r.1, y), 6, colour(Ink::Side(0)).filled())
        }))
        .map_err(err)?;
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let y = row_at(n, i);
            Text::new(
                interval_label(r.1, r.2, r.3),
                (r.3 + (x_hi - x_lo) * 0.012, y),
                (FONT, 17)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            )
        }))
        .map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The heights of the rectangles of `colour` in a stacked chart of `rows` drawn as SVG.
    fn bar_heights(rows: &[(String, Vec<f64>)], colour: RGBColor) -> Vec<f64> {
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (1000, 300)).into_drawing_area();
            let segments = [
                ("wins".to_owned(), Ink::Side(0)),
                ("loses".to_owned(), Ink::Side(1)),
            ];
            assert!(draw_stacked(&root, "share", "", &segments, rows).is_ok());
            assert!(root.present().is_ok());
        }
        let fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", colour.0, colour.1, colour.2);
        svg.lines()
            .filter(|l| l.starts_with("<rect") && l.contains(&fill))
            .filter_map(|l| {
                let height = l.split(" height=\"").nth(1)?.split('"').next()?;
                height.parse().ok()
            })
            .collect()
    }

    #[test]
    fn a_chart_of_one_row_draws_its_bar_across_the_plot() {
        // One point (every scenario that sweeps nothing): plotters' segmented axis drew its
        // row at no height, at the plot's top edge, so "How the duel ends" showed no bar.
        let one = [("Knight vs Brigand".to_owned(), vec![77.0, 23.0])];
        let heights = bar_heights(&one, colour(Ink::Side(0)));
        // The legend's swatch (16 px) and the bar, most of the plot's 200-odd px high.
        assert!(heights.iter().any(|&h| h > 100.0), "{heights:?}");
        // Three rows share the plot's height.
        let three: Vec<(String, Vec<f64>)> = (0..3)
            .map(|i| (format!("point {i}"), vec![50.0, 50.0]))
            .collect();
        let heights = bar_heights(&three, colour(Ink::Side(0)));
        let bars: Vec<f64> = heights.into_iter().filter(|&h| h > 20.0).collect();
        assert_eq!(bars.len(), 3, "{bars:?}");
        assert!(bars.iter().all(|&h| (h - bars[0]).abs() <= 1.0), "{bars:?}");
    }

    #[test]
    fn interval_labels_carry_the_digits_that_tell_their_ends_apart() {
        assert_eq!(interval_label(0.93, 0.74, 1.11), "+0.9 [+0.7, +1.1]");
        assert_eq!(
            interval_label(0.003, -0.002, 0.008),
            "+0.003 [-0.002, +0.008]"
        );
        assert_eq!(
            interval_label(-0.0001, -0.00004, 0.00002),
            "-0.0001 [0.0000, 0.0000]"
        );
        assert_eq!(interval_label(0.0, 0.0, 0.0), "0.0 [0.0, 0.0]");
    }

    #[test]
    fn a_rows_title_too_long_for_the_rows_goes_in_lines_that_fit_the_chart() {
        // Fits beside the rows: plotters' own title, one line.
        assert_eq!(
            desc_lines("fighter", 320),
            (vec!["fighter".to_owned()], 20, true)
        );
        // Two swept values' titles over few rows: a line each, drawn by us.
        let (lines, size, one) = desc_lines("Brigand ×5's target / max attackers (rules)", 320);
        assert_eq!((lines.len(), size, one), (2, 20, false));
        // One title longer than the rows are high but not the chart: still ours, centred on
        // the chart, not plotters' centred on the rows.
        let title = "fighter: Brigands on side";
        assert!(text_width(title, 20) > 260 && text_width(title, 20) <= 310);
        assert!(!desc_lines(title, 320).2);
        // Too long even at 17 pixels: broken between words, every line within the chart.
        let long = "the most gallant and long-named Knight of the Order's melee skill level";
        let (lines, size, _) = desc_lines(long, 200);
        assert_eq!(size, 17);
        assert!(lines.len() > 1, "{lines:?}");
        assert!(
            lines.iter().all(|l| text_width(l, size) <= 190),
            "{lines:?}"
        );
    }
}
