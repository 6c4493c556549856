//! A [`Chart`] drawn into a [`Rendered`]: its title, then its plot by kind, by the same code on
//! the SVG backend (with the title and caption as the document's own, and hover regions) and
//! on the bitmap written as PNG.

use super::answers::draw_answers;
use super::bars::{draw_bars, draw_forest, draw_stacked};
use super::heatmap::{CellTable, cell_table, draw_heatmap};
use super::lines::draw_lines;
use super::model::{Chart, Hover, PANEL_COLUMNS, Plot, WIDTH};
use super::style::{FONT, err, text_width};
use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::prelude::*;

/// A drawn chart: its file stem, title and caption, and both renderings.
#[derive(Debug)]
pub struct Rendered {
    /// File stem inside `charts/` (`win-rate`, `matchup`, ...).
    pub name: String,
    /// The chart's title.
    pub title: String,
    /// One sentence on how to read it.
    pub caption: String,
    /// The SVG text.
    pub svg: String,
    /// A heatmap's numbers with their 95% intervals: the corner title, the column heads, and
    /// each row's head and cells (written "value [lo, hi]").
    pub table: Option<CellTable>,
    /// The PNG bytes.
    pub png: Vec<u8>,
    /// Drawn taller than wide (small multiples): printed larger than the others.
    pub tall: bool,
    /// Drawn wider than a page takes at the usual scale (a heatmap of many columns): printed
    /// across the page's full width, so that its cell numbers stay legible.
    pub wide: bool,
}

/// A chart drawn as SVG and PNG, with a heatmap's cell table when `cell_intervals`.
pub(super) fn rendered(chart: Chart, cell_intervals: bool) -> Result<Rendered> {
    Ok(Rendered {
        svg: svg(&chart)?,
        png: png(&chart)?,
        table: if cell_intervals {
            cell_table(&chart)
        } else {
            None
        },
        tall: chart.height > chart.width,
        wide: chart.width > WIDTH + WIDTH / 5,
        name: chart.name,
        title: chart.title,
        caption: chart.caption,
    })
}

/// Text made safe inside an SVG element.
fn escaped(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The chart as SVG, with its title and caption as the document's `<title>` and `<desc>` (what
/// a screen reader or a browser tab shows), and each heatmap cell's interval on hover.
fn svg(chart: &Chart) -> Result<String> {
    let mut out = String::new();
    let hovers = {
        let root =
            SVGBackend::with_string(&mut out, (chart.width, chart.height)).into_drawing_area();
        let hovers = draw(&root, chart)?;
        root.present().map_err(|e| anyhow!("{e}"))?;
        hovers
    };
    let opened = out
        .find("<svg")
        .and_then(|at| out[at..].find('>').map(|end| at + end + 1))
        .ok_or_else(|| anyhow!("the SVG of {} has no <svg> element", chart.name))?;
    out.insert_str(
        opened,
        &format!(
            "\n<title>{}</title>\n<desc>{}</desc>",
            escaped(&chart.title),
            escaped(&chart.caption)
        ),
    );
    if let Some(closing) = out.rfind("</svg>") {
        let cells: String = hovers
            .iter()
            .map(|(x0, y0, x1, y1, text)| {
                format!(
                    "<rect x=\"{x0}\" y=\"{y0}\" width=\"{}\" height=\"{}\" fill=\"transparent\"><title>{}</title></rect>\n",
                    x1 - x0,
                    y1 - y0,
                    escaped(text)
                )
            })
            .collect();
        out.insert_str(closing, &cells);
    }
    Ok(out)
}

fn png(chart: &Chart) -> Result<Vec<u8>> {
    let mut pixels = vec![0u8; (chart.width * chart.height * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, (chart.width, chart.height))
            .into_drawing_area();
        draw(&root, chart)?;
        root.present().map_err(|e| anyhow!("{e}"))?;
    }
    let image = image::RgbImage::from_raw(chart.width, chart.height, pixels)
        .ok_or_else(|| anyhow!("the bitmap of {} has the wrong size", chart.name))?;
    let mut bytes = std::io::Cursor::new(Vec::new());
    image.write_to(&mut bytes, image::ImageOutputFormat::Png)?;
    Ok(bytes.into_inner())
}

/// Draws a chart; returns the regions whose details an SVG gives on hover (heatmap cells).
fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, chart: &Chart) -> Result<Vec<Hover>> {
    root.fill(&WHITE).map_err(err)?;
    let root = root.margin(10, 14, 14, 24);
    let (title_area, body) = root.split_vertically(54);
    // The title at 26 px, smaller when a long one would run off the chart, down to 20 px; one
    // longer still is written on two lines.
    let room = title_area.dim_in_pixel().0;
    let size = (20..=26)
        .rev()
        .find(|&px| text_width(&chart.title, px) <= room)
        .unwrap_or(20);
    let lines = if text_width(&chart.title, size) <= room {
        vec![chart.title.clone()]
    } else {
        title_lines(&chart.title, room, 20)
    };
    let top = if lines.len() > 1 { -4 } else { 8 };
    for (k, line) in lines.iter().enumerate() {
        title_area
            .draw(&Text::new(
                line.clone(),
                (0, top + 24 * k as i32),
                (FONT, size).into_font().color(&BLACK),
            ))
            .map_err(err)?;
    }
    draw_plot(&body, &chart.plot)
}

/// A title in lines that fit `room` pixels at `px`: broken at spaces, as few lines as fit (a
/// long swept value's name takes two or three).
fn title_lines(title: &str, room: u32, px: u32) -> Vec<String> {
    let fits = |line: &str| text_width(line, px) <= room;
    let mut lines: Vec<String> = Vec::new();
    for word in title.split(' ') {
        match lines.last_mut() {
            Some(line) if fits(&format!("{line} {word}")) => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}

/// Draws a plot into an area; returns the regions an SVG explains on hover (heatmap cells).
fn draw_plot<DB: DrawingBackend>(body: &DrawingArea<DB, Shift>, plot: &Plot) -> Result<Vec<Hover>> {
    match plot {
        Plot::Panels { panels } => {
            let rows = panels.len().div_ceil(PANEL_COLUMNS);
            let cells = body.split_evenly((rows, PANEL_COLUMNS));
            for ((title, plot), cell) in panels.iter().zip(&cells) {
                // Bold text runs a little wider than `text_width`'s estimate.
                let lines = title_lines(title, cell.dim_in_pixel().0.saturating_sub(20), 22);
                for (k, line) in lines.iter().enumerate() {
                    cell.draw(&Text::new(
                        line.clone(),
                        (10, 4 + 24 * k as i32),
                        (FONT, 20).into_font().style(FontStyle::Bold).color(&BLACK),
                    ))
                    .map_err(err)?;
                }
                draw_plot(&cell.margin(8 + 24 * lines.len() as u32, 0, 0, 0), plot)?;
            }
            Ok(Vec::new())
        }
        Plot::Lines {
            legend_title,
            x_label,
            y_label,
            x_range,
            y_range,
            series,
            integer_x,
        } => draw_lines(
            body,
            legend_title,
            x_label,
            y_label,
            *x_range,
            *y_range,
            series,
            *integer_x,
        )
        .map(|()| Vec::new()),
        Plot::Answers {
            legend_title,
            x_label,
            y_label,
            categories,
            x_range,
            y_range,
            range,
            series,
            integer_x,
        } => draw_answers(
            body,
            legend_title,
            x_label,
            y_label,
            categories,
            *x_range,
            *y_range,
            *range,
            series,
            *integer_x,
        )
        .map(|()| Vec::new()),
        Plot::Bars {
            x_label,
            y_label,
            rows,
        } => draw_bars(body, x_label, y_label, rows).map(|()| Vec::new()),
        Plot::Forest { x_label, rows } => draw_forest(body, x_label, rows).map(|()| Vec::new()),
        Plot::Stacked {
            x_label,
            y_label,
            segments,
            rows,
        } => draw_stacked(body, x_label, y_label, segments, rows).map(|()| Vec::new()),
        Plot::Heatmap {
            x_label,
            y_label,
            columns,
            rows,
            cells,
            percent,
            scale,
        } => draw_heatmap(
            body, x_label, y_label, columns, rows, cells, *percent, *scale,
        ),
    }
}
