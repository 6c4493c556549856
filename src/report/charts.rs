//! The charts of a run, drawn with plotters as SVG (for print) and PNG.
//!
//! Each chart is worked out once from the finished tallies into a [`Chart`] (plain numbers and
//! labels), then drawn twice by the same code on the SVG and the bitmap backend. Which charts
//! a run gets depends on what it varied: a win-rate curve over a numeric swept value, bars over
//! a list, a matchup heatmap for two swept values; every run gets the rounds distribution,
//! days-to-whole curves and lasting impairment when there were wounded survivors, and
//! zone-d100 runs the injuries by zone and severity. PNG text uses the DejaVu Sans shipped in
//! `assets/fonts`, so no system font is needed.

use super::RunResult;
use crate::stats::{ExtraKind, Tally, wilson};
use anyhow::{Result, anyhow};
use plotters::coord::Shift;
use plotters::coord::ranged1d::SegmentValue;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::sync::OnceLock;

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
}

/// A value with its 95% interval: (value, lo, hi).
type Rate = (f64, f64, f64);

/// A heatmap's cells as a table: the corner title, the column heads, each row's head and cells.
pub type CellTable = (String, Vec<String>, Vec<(String, Vec<String>)>);

/// The cells of a heatmap written out with their intervals, for the report's table.
fn cell_table(chart: &Chart) -> Option<CellTable> {
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

/// Colours that stay apart for colour-blind readers (Okabe and Ito), then black.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
    RGBColor(120, 120, 120),
    RGBColor(0, 0, 0),
];

/// The most series one line chart shows.
const MAX_SERIES: usize = 8;
/// The most rows one bar chart or heatmap shows.
const MAX_ROWS: usize = 40;
const FONT: &str = "sans-serif";
const WIDTH: u32 = 1000;
/// Pixels of a heatmap's colour scale strip.
const SCALE_PX: u32 = 120;

/// A line with an optional 95% band.
#[derive(Debug, Clone)]
struct Series {
    label: String,
    points: Vec<(f64, f64)>,
    band: Option<Vec<(f64, f64, f64)>>,
    /// Drawn as a staircase (a cumulative count that changes on whole days).
    step: bool,
}

/// What one chart shows, independent of the backend.
#[derive(Debug, Clone)]
enum Plot {
    Lines {
        /// What the series labels are (drawn above the legend).
        legend_title: String,
        x_label: String,
        y_label: String,
        x_range: (f64, f64),
        y_range: (f64, f64),
        series: Vec<Series>,
        integer_x: bool,
    },
    Bars {
        x_label: String,
        y_label: String,
        rows: Vec<(String, f64, f64, f64)>,
    },
    /// Differences with their intervals around a zero line (a forest plot), in percentage points.
    Forest {
        x_label: String,
        rows: Vec<(String, f64, f64, f64)>,
    },
    Heatmap {
        x_label: String,
        y_label: String,
        columns: Vec<String>,
        rows: Vec<String>,
        /// Cell values with their 95% intervals (value, lo, hi), row by row; `None` for no data.
        cells: Vec<Vec<Option<Rate>>>,
        /// How a cell's value is written.
        percent: bool,
        /// Diverging around 0.5 (win rates) or sequential from 0.
        diverging: bool,
    },
}

#[derive(Debug, Clone)]
struct Chart {
    name: String,
    title: String,
    caption: String,
    plot: Plot,
    width: u32,
    height: u32,
}

/// One rulebook grid of `duelsim exact`, for its heatmap: the paths' titles, the row and
/// column values, and each cell's chance of a hit.
pub struct ExactGrid {
    /// The row path in words.
    pub rows_title: String,
    /// The column path in words ("" for a one-path grid).
    pub columns_title: String,
    /// Row values.
    pub rows: Vec<String>,
    /// Column values.
    pub columns: Vec<String>,
    /// P(hit) per cell, row by row.
    pub hit: Vec<Vec<f64>>,
    /// Who attacks whom.
    pub who: String,
}

/// The charts of `duelsim exact`: per direction, the chance of each hit kind and each value
/// (exact, so no intervals); and the grid's chance to hit as a heatmap with every cell written.
pub fn render_exact(
    directions: &[(String, &crate::exact::Table)],
    grid: Option<&ExactGrid>,
) -> Result<Vec<Rendered>> {
    register_font();
    let mut charts = Vec::new();
    for (k, (who, table)) in directions.iter().enumerate() {
        let mut rows: Vec<(String, f64, f64, f64)> = table
            .results
            .iter()
            .map(|(r, p)| {
                (
                    r.to_string(),
                    percent(p.value()),
                    percent(p.value()),
                    percent(p.value()),
                )
            })
            .collect();
        let values: Vec<_> = table
            .values
            .iter()
            .filter(|(_, p)| p.numerator > 0)
            .collect();
        let room = MAX_ROWS.saturating_sub(rows.len());
        for (v, p) in values.iter().take(room) {
            let p = percent(p.value());
            rows.push((format!("{} {v}", table.unit), p, p, p));
        }
        let cut = if values.len() > room {
            format!(
                " The {} largest values are left out (exact.csv has them).",
                values.len() - room
            )
        } else {
            String::new()
        };
        charts.push(Chart {
            name: format!("exact-{}", ["a", "b"][k.min(1)]),
            title: format!("One exchange, exactly: {who}"),
            caption: format!(
                "The exact chance of each hit kind, then of each {} (0 includes the misses), walking every die outcome through the rules the duel runs.{cut}",
                table.unit
            ),
            height: bar_height(rows.len()),
            width: WIDTH,
            plot: Plot::Bars {
                x_label: "chance (%)".into(),
                y_label: String::new(),
                rows,
            },
        });
    }
    if let Some(g) = grid {
        let columns = if g.columns.is_empty() {
            vec!["P(hit)".to_owned()]
        } else {
            g.columns.clone()
        };
        let cells = g
            .hit
            .iter()
            .take(MAX_ROWS)
            .map(|row| row.iter().map(|&p| Some((p, p, p))).collect())
            .collect();
        let cut = if g.rows.len() > MAX_ROWS {
            format!(
                " The first {MAX_ROWS} of {} rows are drawn; grid.csv has every cell.",
                g.rows.len()
            )
        } else {
            String::new()
        };
        charts.push(Chart {
            name: "grid".into(),
            title: format!("Chance to hit: {}", g.who),
            caption: format!(
                "The exact chance that one attack hits, for each {}{}; every cell is written, for printing.{cut}",
                g.rows_title,
                if g.columns_title.is_empty() {
                    String::new()
                } else {
                    format!(" (rows) and {} (columns)", g.columns_title)
                }
            ),
            height: (190 + 40 * g.rows.len().min(MAX_ROWS) as u32).max(360),
            width: heatmap_width(&columns, &g.rows),
            plot: Plot::Heatmap {
                x_label: g.columns_title.clone(),
                y_label: g.rows_title.clone(),
                columns,
                rows: g.rows.iter().take(MAX_ROWS).cloned().collect(),
                cells,
                percent: true,
                diverging: false,
            },
        });
    }
    for chart in &mut charts {
        fit_heatmap(chart);
    }
    // Exact cells have no interval to list.
    charts.into_iter().map(|c| rendered(c, false)).collect()
}

/// A heatmap's rows run up the y axis: it is made tall enough for its label written sideways.
fn fit_heatmap(chart: &mut Chart) {
    if let Plot::Heatmap { y_label, .. } = &chart.plot {
        chart.height = chart.height.max(text_width(y_label, 20) + 200);
    }
}

/// A chart drawn as SVG and PNG, with a heatmap's cell table when `cell_intervals`.
fn rendered(chart: Chart, cell_intervals: bool) -> Result<Rendered> {
    Ok(Rendered {
        svg: svg(&chart)?,
        png: png(&chart)?,
        table: if cell_intervals {
            cell_table(&chart)
        } else {
            None
        },
        name: chart.name,
        title: chart.title,
        caption: chart.caption,
    })
}

/// Every chart this run calls for, drawn.
pub fn render_all(run: &RunResult) -> Result<Vec<Rendered>> {
    register_font();
    plan(run).into_iter().map(|c| rendered(c, true)).collect()
}

fn register_font() {
    static DONE: OnceLock<()> = OnceLock::new();
    DONE.get_or_init(|| {
        let bytes: &'static [u8] = include_bytes!("../../assets/fonts/DejaVuSans.ttf");
        let _ = plotters::style::register_font(FONT, FontStyle::Normal, bytes);
    });
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

/// A key in words: `melee_ml` is "melee ML", `impact_modifier` "impact modifier".
fn key_words(key: &str) -> String {
    const SHOUTED: [&str; 9] = ["ml", "eml", "hr", "ta", "cf", "ar", "ws", "hp", "sp"];
    key.split('_')
        .map(|w| {
            if SHOUTED.contains(&w) {
                w.to_uppercase()
            } else {
                w.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The label of a swept path in the designer's words, from the ruleset's parameter list:
/// `a.melee_ml` is "Swordsman's melee ML", `weapons.mace.impact_modifier` "mace's impact
/// modifier", and `rules.damage[6]` names the table entry from the key's documentation
/// ("damage for three+ 6s (Critical Strike)").
pub(crate) fn axis_title(path: &str, names: [&str; 2], ruleset: &str) -> String {
    let (section, rest) = path.split_once('.').unwrap_or(("", path));
    match section {
        "a" => return format!("{}'s {}", names[0], key_words(rest)),
        "b" => return format!("{}'s {}", names[1], key_words(rest)),
        "weapons" | "armour" => {
            if let Some((item, key)) = rest.rsplit_once('.') {
                return format!("{}'s {}", item.trim_matches('"'), key_words(key));
            }
        }
        _ => {}
    }
    let (key, index) = match rest.split_once('[') {
        Some((k, i)) => (k, i.trim_end_matches(']').parse::<usize>().ok()),
        None => (rest, None),
    };
    let doc = crate::rules::registry::parameters(ruleset)
        .unwrap_or(&[])
        .iter()
        .find(|p| p.section == section && p.key == key)
        .map(|p| p.doc);
    let entry = index.and_then(|i| {
        // A table's documentation lists its entries after a colon, one per element.
        let (_, list) = doc?.split_once(':')?;
        let entries: Vec<&str> = list.split(", ").map(str::trim).collect();
        (entries.len() > 1)
            .then(|| entries.get(i).copied())
            .flatten()
    });
    match (entry, index) {
        (Some(entry), _) => format!("{} for {entry}", key_words(key)),
        (None, Some(i)) => format!("{} entry {i} ({section})", key_words(key)),
        (None, None) if section.is_empty() => key_words(key),
        (None, None) => format!("{} ({section})", key_words(key)),
    }
}

/// The label of a point: its swept values, or "A vs B" when nothing is swept.
fn point_label(run: &RunResult, i: usize) -> String {
    let swept = &run.scenario.points[i].swept;
    if swept.is_empty() {
        let names = run.scenario.points[i].model.names();
        return format!("{} vs {}", names[0], names[1]);
    }
    let names = run.scenario.points[i].model.names();
    swept
        .iter()
        .map(|(k, v)| value_words(k, v, names, run.scenario.ruleset))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// A swept value as a reader says it: a `[weights]` point's "path +step" with the path in words
/// ("Knight's toughness +1"); any other value as written.
pub(crate) fn value_words(key: &str, value: &str, names: [&str; 2], ruleset: &str) -> String {
    match (key, value.rsplit_once(' ')) {
        ("weights", Some((path, step))) => format!("{} {step}", axis_title(path, names, ruleset)),
        _ => value.to_owned(),
    }
}

/// What the points' labels are: the swept values' titles, in order.
fn swept_title(run: &RunResult) -> String {
    let names = run.scenario.points[0].model.names();
    run.scenario.points[0]
        .swept
        .iter()
        .map(|(k, _)| axis_title(k, names, run.scenario.ruleset))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// At most `n` indexes spread evenly over `0..len`, first and last included.
fn spread(len: usize, n: usize) -> Vec<usize> {
    if len <= n {
        return (0..len).collect();
    }
    let mut v: Vec<usize> = (0..n).map(|i| i * (len - 1) / (n - 1)).collect();
    v.dedup();
    v
}

fn shown_note(shown: usize, total: usize) -> String {
    if shown < total {
        format!(" {shown} of the {total} points are drawn; every point is in distributions.csv.")
    } else {
        String::new()
    }
}

fn percent(x: f64) -> f64 {
    100.0 * x
}

/// Works out which charts the run calls for.
fn plan(run: &RunResult) -> Vec<Chart> {
    let tallies = &run.tallies;
    let mut charts = Vec::new();
    if tallies.is_empty() {
        return charts;
    }
    let names = run.scenario.points[0].model.names();
    let axes: Vec<&str> = run.scenario.points[0]
        .swept
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    let duel = !run.scenario.points[0].model.is_recovery();
    if duel && !axes.is_empty() {
        charts.extend(win_rate(run, names, &axes));
        if axes.len() >= 2 {
            charts.push(matchup(run, names, &axes));
        }
    }
    if duel {
        charts.push(rounds(run));
        charts.push(rounds_decided(run));
        if tallies.iter().any(|t| t.hit_damage.count() > 0) {
            charts.push(damage_per_hit(run));
        }
    }
    if tallies.iter().any(|t| t.recovery_pooled().patients > 0) {
        charts.push(days_to_whole(run));
        if tallies.iter().any(|t| t.recovery_pooled().impaired > 0) {
            charts.push(impairment(run));
        }
    }
    if let Some(chart) = injuries(run) {
        charts.push(chart);
    }
    if let Some(chart) = differences(run, names) {
        charts.push(chart);
    }
    for chart in &mut charts {
        fit_heatmap(chart);
        if let Plot::Lines {
            legend_title,
            series,
            y_range,
            ..
        } = &chart.plot
        {
            // The legend under the plot adds to the height rather than squeezing the plot.
            chart.height += legend_layout(series, legend_title, chart.width).2;
            chart
                .caption
                .push_str(&coinciding_note(series, y_range.1 - y_range.0));
        }
    }
    charts
}

/// Says which curves lie on top of each other (within 1.5% of the axis everywhere), so that a
/// reader who sees fewer lines than the legend lists knows why.
fn coinciding_note(series: &[Series], span: f64) -> String {
    let close = |a: &Series, b: &Series| {
        a.points.len() == b.points.len()
            && a.points
                .iter()
                .zip(&b.points)
                .all(|(p, q)| p.0 == q.0 && (p.1 - q.1).abs() <= 0.015 * span)
    };
    let mut group: Vec<usize> = (0..series.len()).collect();
    for i in 0..series.len() {
        for j in 0..i {
            if group[j] == j && close(&series[i], &series[j]) {
                group[i] = j;
                break;
            }
        }
    }
    let sets: Vec<String> = (0..series.len())
        .filter_map(|g| {
            let members: Vec<&str> = (0..series.len())
                .filter(|&i| group[i] == g)
                .map(|i| series[i].label.as_str())
                .collect();
            (members.len() > 1).then(|| match members.split_last() {
                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                None => String::new(),
            })
        })
        .collect();
    if sets.is_empty() {
        String::new()
    } else {
        format!(
            " Curves that coincide (within 1.5% of the axis everywhere; their markers are shifted so each shows): {}.",
            sets.join("; ")
        )
    }
}

/// Every compared point's a-win difference from the baseline on the same dice, with its 95%
/// interval, largest first.
fn differences(run: &RunResult, names: [&str; 2]) -> Option<Chart> {
    let base = run.scenario.baseline?;
    let mut rows: Vec<(String, f64, f64, f64)> = finished(run)
        .filter(|(i, _)| *i != base)
        .filter_map(|(i, _)| {
            let (d, lo, hi) = run.tallies[i].paired.delta(0)?;
            Some((point_label(run, i), percent(d), percent(lo), percent(hi)))
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    rows.sort_by(|a, b| b.1.total_cmp(&a.1));
    let shown = rows.len().min(MAX_ROWS);
    rows.truncate(shown);
    Some(Chart {
        name: "differences".into(),
        title: format!(
            "{}'s win rate against {}: difference from {}",
            names[0],
            names[1],
            point_label(run, base)
        ),
        caption: format!(
            "Each point's difference in {}'s win rate from the baseline ({}), in percentage points, with its 95% interval from the trial-by-trial differences on the same dice; the line marks no difference.",
            names[0],
            point_label(run, base)
        ),
        height: bar_height(shown),
        width: WIDTH,
        plot: Plot::Forest {
            x_label: format!("difference in {}'s win rate (percentage points)", names[0]),
            rows,
        },
    })
}

/// The distinct values of axis `k` in point order.
fn values_of(run: &RunResult, k: usize) -> Vec<String> {
    run.scenario
        .swept_values()
        .into_iter()
        .nth(k)
        .map(|(_, values)| values)
        .unwrap_or_default()
}

/// The points that have a tally, with their indexes.
fn finished<'r>(
    run: &'r RunResult,
) -> impl Iterator<Item = (usize, &'r crate::rules::registry::Point)> + 'r {
    run.scenario
        .points
        .iter()
        .enumerate()
        .take(run.tallies.len())
}

fn a_win(t: &Tally) -> (f64, f64, f64) {
    wilson(t.ends[0], t.trials)
}

/// Win rate against the first numeric swept value (a curve per combination of the others), or
/// bars per point when nothing numeric is swept.
fn win_rate(run: &RunResult, names: [&str; 2], axes: &[&str]) -> Option<Chart> {
    let numeric = (0..axes.len()).find(|&k| {
        let values = values_of(run, k);
        values.len() > 1 && values.iter().all(|v| v.parse::<f64>().is_ok())
    });
    let Some(k) = numeric else {
        let shown = run.tallies.len().min(MAX_ROWS);
        let rows = (0..shown)
            .map(|i| {
                let (r, lo, hi) = a_win(&run.tallies[i]);
                (point_label(run, i), percent(r), percent(lo), percent(hi))
            })
            .collect::<Vec<_>>();
        return Some(Chart {
            name: "win-rate".into(),
            title: format!("{} win rate at each point", names[0]),
            caption: format!(
                "Share of duels {} wins, with its 95% interval, at each swept combination ({}).{}",
                names[0],
                swept_title(run),
                shown_note(shown, run.tallies.len())
            ),
            height: bar_height(rows.len()),
            width: WIDTH,
            plot: Plot::Bars {
                y_label: swept_title(run),
                x_label: format!("{} wins (% of duels)", names[0]),
                rows,
            },
        });
    };
    // Group the points by the values of the other axes.
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (i, p) in finished(run) {
        let key: Vec<&str> = p
            .swept
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != k)
            .map(|(_, (_, v))| v.as_str())
            .collect();
        let key = key.join(" / ");
        match groups.iter_mut().find(|(g, _)| *g == key) {
            Some((_, members)) => members.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    let total_groups = groups.len();
    let chosen = spread(total_groups, MAX_SERIES);
    let single = total_groups == 1;
    let mut series = Vec::new();
    let mut xs = Vec::new();
    for &g in &chosen {
        let (label, members) = &groups[g];
        let mut sides: Vec<(String, usize)> = vec![(
            if single {
                format!("{} wins", names[0])
            } else {
                label.clone()
            },
            0,
        )];
        if single {
            sides.push((format!("{} wins", names[1]), 1));
            sides.push(("draws".into(), 2));
        }
        for (label, end) in sides {
            let mut points = Vec::new();
            let mut band = Vec::new();
            for &i in members {
                let x: f64 = run.scenario.points[i].swept[k].1.parse().unwrap_or(0.0);
                let t = &run.tallies[i];
                let (r, lo, hi) = wilson(t.ends[end], t.trials);
                points.push((x, percent(r)));
                band.push((x, percent(lo), percent(hi)));
                xs.push(x);
            }
            series.push(Series {
                label,
                points,
                band: Some(band),
                step: false,
            });
        }
    }
    let (x0, x1) = min_max(&xs);
    let ys: Vec<f64> = series
        .iter()
        .flat_map(|s| s.band.iter().flatten().flat_map(|&(_, lo, hi)| [lo, hi]))
        .collect();
    let (y0, y1) = min_max(&ys);
    let y_range = (
        (y0 / 10.0 - 0.5).floor().max(0.0) * 10.0,
        (y1 / 10.0 + 0.5).ceil().min(10.0) * 10.0,
    );
    let others: Vec<&str> = axes
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != k)
        .map(|(_, a)| *a)
        .collect();
    let caption = if single {
        format!(
            "Share of duels won by each side and drawn as {} varies; the shaded bands are 95% intervals.",
            axis_title(axes[k], names, run.scenario.ruleset)
        )
    } else {
        let note = if chosen.len() < total_groups {
            format!(" {} of the {total_groups} curves are drawn.", chosen.len())
        } else {
            String::new()
        };
        format!(
            "Share of duels {} wins as {} varies, one curve per {}; the shaded bands are 95% intervals.{note}",
            names[0],
            axis_title(axes[k], names, run.scenario.ruleset),
            others
                .iter()
                .map(|a| axis_title(a, names, run.scenario.ruleset))
                .collect::<Vec<_>>()
                .join(" / ")
        )
    };
    Some(Chart {
        name: "win-rate".into(),
        title: format!(
            "{} win rate against {}",
            if single { "Each side's" } else { names[0] },
            axis_title(axes[k], names, run.scenario.ruleset)
        ),
        caption,
        height: 620,
        width: WIDTH,
        plot: Plot::Lines {
            legend_title: if single {
                String::new()
            } else {
                others
                    .iter()
                    .map(|a| axis_title(a, names, run.scenario.ruleset))
                    .collect::<Vec<_>>()
                    .join(" / ")
            },
            x_label: axis_title(axes[k], names, run.scenario.ruleset),
            y_label: "share of duels (%)".into(),
            x_range: pad(x0, x1),
            y_range,
            series,
            integer_x: xs.iter().all(|x| x.fract() == 0.0),
        },
    })
}

fn min_max(xs: &[f64]) -> (f64, f64) {
    xs.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
            (a.min(x), b.max(x))
        })
}

fn pad(lo: f64, hi: f64) -> (f64, f64) {
    if !(lo.is_finite() && hi.is_finite()) {
        return (0.0, 1.0);
    }
    let span = (hi - lo).max(1e-9);
    (lo - span * 0.03, hi + span * 0.03)
}

fn bar_height(rows: usize) -> u32 {
    (170 + 34 * rows as u32).max(320)
}

/// Win rate over the first two swept values, the others at their first value.
fn matchup(run: &RunResult, names: [&str; 2], axes: &[&str]) -> Chart {
    let rows = values_of(run, 0);
    let columns = values_of(run, 1);
    let mut cells = vec![vec![None; columns.len()]; rows.len()];
    let first: Vec<String> = (2..axes.len())
        .map(|k| values_of(run, k).into_iter().next().unwrap_or_default())
        .collect();
    for (i, p) in finished(run) {
        if p.swept[2..].iter().map(|(_, v)| v).ne(first.iter()) {
            continue;
        }
        let r = rows.iter().position(|v| *v == p.swept[0].1);
        let c = columns.iter().position(|v| *v == p.swept[1].1);
        if let (Some(r), Some(c)) = (r, c) {
            cells[r][c] = Some(a_win(&run.tallies[i]));
        }
    }
    let fixed = if axes.len() > 2 {
        let parts: Vec<String> = axes[2..]
            .iter()
            .zip(&first)
            .map(|(a, v)| format!("{} = {v}", axis_title(a, names, run.scenario.ruleset)))
            .collect();
        format!(" With {}.", parts.join(", "))
    } else {
        String::new()
    };
    let shown_rows = rows.len().min(MAX_ROWS);
    Chart {
        name: "matchup".into(),
        title: format!(
            "{} win rate: {} against {}",
            names[0],
            axis_title(axes[0], names, run.scenario.ruleset),
            axis_title(axes[1], names, run.scenario.ruleset)
        ),
        caption: format!(
            "Each cell is the share of duels {} wins (blue: {} favoured, red: {} favoured; hover a cell of the SVG for its 95% interval).{fixed}",
            names[0], names[0], names[1]
        ),
        height: (190 + 56 * shown_rows as u32).max(360),
        width: heatmap_width(&columns, &rows[..shown_rows]),
        plot: Plot::Heatmap {
            x_label: axis_title(axes[1], names, run.scenario.ruleset),
            y_label: axis_title(axes[0], names, run.scenario.ruleset),
            columns,
            rows: rows.into_iter().take(MAX_ROWS).collect(),
            cells: cells.into_iter().take(MAX_ROWS).collect(),
            percent: true,
            diverging: true,
        },
    }
}

/// The share of counts at each value of a histogram, one curve per point (spread over at most
/// [`MAX_SERIES`] points), from `first` to the value under which 99.5% of every drawn point's
/// counts fall: the points drawn, the series, the last value and the highest share.
fn share_curves(
    run: &RunResult,
    histogram: impl Fn(&Tally) -> &crate::stats::Histogram,
    first: usize,
) -> (Vec<usize>, Vec<Series>, u32, f64) {
    let chosen = spread(run.tallies.len(), MAX_SERIES);
    let mut last = 1;
    for &i in &chosen {
        last = last.max(histogram(&run.tallies[i]).quantile(0.995).unwrap_or(1));
    }
    let mut series = Vec::new();
    let mut top: f64 = 1.0;
    for &i in &chosen {
        let h = histogram(&run.tallies[i]);
        let n = h.count().max(1) as f64;
        let points: Vec<(f64, f64)> = h
            .bins()
            .iter()
            .enumerate()
            .take(last as usize + 1)
            .skip(first)
            .map(|(v, &c)| (v as f64, 100.0 * c as f64 / n))
            .collect();
        top = points.iter().fold(top, |m, p| m.max(p.1));
        series.push(Series {
            label: point_label(run, i),
            points,
            band: None,
            step: false,
        });
    }
    (chosen, series, last, top)
}

/// How many rounds duels last, one curve per point.
fn rounds(run: &RunResult) -> Chart {
    // A duel lasts at least one round: no point at round 0 (a ramp from nothing).
    let (chosen, series, last, top) = share_curves(run, |t| &t.rounds, 1);
    Chart {
        name: "rounds".into(),
        title: "How many rounds a duel lasts".into(),
        caption: format!(
            "Share of duels ending after each number of rounds (the last bin also holds duels stopped at the round limit).{}",
            shown_note(chosen.len(), run.tallies.len())
        ),
        height: 620,
        width: WIDTH,
        plot: Plot::Lines {
            legend_title: swept_title(run),
            x_label: "rounds".into(),
            y_label: "share of duels (%)".into(),
            x_range: (0.5, f64::from(last) + 0.5),
            y_range: (0.0, top * 1.08),
            series,
            integer_x: true,
        },
    }
}

/// The share of duels decided by each round: how often it is over in N rounds.
fn rounds_decided(run: &RunResult) -> Chart {
    let (chosen, mut series, last, _) = share_curves(run, |t| &t.rounds, 1);
    for s in &mut series {
        let mut total = 0.0;
        for p in &mut s.points {
            total += p.1;
            p.1 = total.min(100.0);
        }
        s.step = true;
    }
    Chart {
        name: "rounds-decided".into(),
        title: "Share of duels over by each round".into(),
        caption: format!(
            "Share of duels that have ended by the end of each round (cumulative; the rest go on, or reach the round limit).{}",
            shown_note(chosen.len(), run.tallies.len())
        ),
        height: 620,
        width: WIDTH,
        plot: Plot::Lines {
            legend_title: swept_title(run),
            x_label: "rounds".into(),
            y_label: "duels over (%)".into(),
            x_range: (0.5, f64::from(last) + 0.5),
            y_range: (0.0, 100.0),
            series,
            integer_x: true,
        },
    }
}

/// What a hit does: the share of hits at each damage after armour, one curve per point (the
/// ruleset's own unit: damage, wound circle, injury level).
fn damage_per_hit(run: &RunResult) -> Chart {
    let (chosen, series, last, top) = share_curves(run, |t| &t.hit_damage, 0);
    // What each ruleset records for a hit, in its own words.
    let (unit, zero) = match run.scenario.ruleset {
        "guard-pierce" => (
            "wound row marked",
            "armour deflected it or nothing was marked",
        ),
        "zone-d100" => (
            "injury level (1-5: M1 to G5)",
            "no injury, or a glancing blow",
        ),
        "d6-pool" => ("damage dealt", "blocked"),
        "wound-levels" => (
            "damage after armour (wound levels)",
            "the armour stopped it all",
        ),
        _ => ("damage after armour", "the armour stopped it all"),
    };
    Chart {
        name: "damage-per-hit".into(),
        title: "What a hit does".into(),
        caption: format!(
            "Share of hits, by either fighter, at each {unit} (0: {zero}); the last bin also holds larger values.{}",
            shown_note(chosen.len(), run.tallies.len())
        ),
        height: 620,
        width: WIDTH,
        plot: Plot::Lines {
            legend_title: swept_title(run),
            x_label: unit.into(),
            y_label: "share of hits (%)".into(),
            x_range: (-0.5, f64::from(last) + 0.5),
            y_range: (0.0, top * 1.08),
            series,
            integer_x: true,
        },
    }
}

/// The share of wounded survivors whole by each day, one curve per point.
fn days_to_whole(run: &RunResult) -> Chart {
    let chosen = spread(run.tallies.len(), MAX_SERIES);
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
            }
        })
        .collect();
    Chart {
        name: "days-to-whole".into(),
        title: "Days until whole, for wounded survivors".into(),
        caption: format!(
            "Share of the duel's wounded survivors (both sides) who are whole by each day; a curve ends below 100% by those who die in recovery or are still wounded at the horizon; drawn to the day by which 99% of those made whole were whole.{}",
            shown_note(chosen.len(), run.tallies.len())
        ),
        height: 620,
        width: WIDTH,
        plot: Plot::Lines {
            legend_title: swept_title(run),
            x_label: "days after the duel".into(),
            y_label: "whole (% of wounded survivors)".into(),
            x_range: (0.0, f64::from(last) * 1.02 + 0.5),
            y_range: (0.0, 100.0),
            series,
            integer_x: true,
        },
    }
}

/// The share of wounded survivors left with lasting impairment, per point.
fn impairment(run: &RunResult) -> Chart {
    let shown = run.tallies.len().min(MAX_ROWS);
    let rows = (0..shown)
        .map(|i| {
            let pooled = run.tallies[i].recovery_pooled();
            let (r, lo, hi) = wilson(pooled.impaired, pooled.patients);
            (point_label(run, i), percent(r), percent(lo), percent(hi))
        })
        .collect::<Vec<_>>();
    Chart {
        name: "impairment".into(),
        title: "Lasting impairment among wounded survivors".into(),
        caption: format!(
            "Share of the duel's wounded survivors (both sides) left with a lasting impairment, with its 95% interval.{}",
            shown_note(shown, run.tallies.len())
        ),
        height: bar_height(rows.len()),
        width: WIDTH,
        plot: Plot::Bars {
            y_label: swept_title(run),
            x_label: "impaired (% of wounded survivors)".into(),
            rows,
        },
    }
}

/// zone-d100: injuries per duel by zone and severity, a row per point.
fn injuries(run: &RunResult) -> Option<Chart> {
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

/// A tick label with as many decimals as the axis's span needs.
fn axis_number(x: f64, span: f64) -> String {
    if span >= 10.0 {
        format!("{x:.0}")
    } else if span >= 1.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// The width a heatmap needs for its row labels and columns to stay apart.
fn heatmap_width(columns: &[String], rows: &[String]) -> u32 {
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
        .max(70)
        + 18;
    (row_px + 130 + SCALE_PX + column_px * columns.len() as u32).max(WIDTH)
}

fn text_width(s: &str, px: u32) -> u32 {
    (s.chars().count() as u32 * px * 56) / 100
}

type DrawResult = Result<()>;

fn err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow!("{e}")
}

/// A region of the drawing (backend pixels: left, top, right, bottom) and what hovering it says.
type Hover = (i32, i32, i32, i32, String);

/// Draws a chart; returns the regions whose details an SVG gives on hover (heatmap cells).
fn draw<DB: DrawingBackend>(root: &DrawingArea<DB, Shift>, chart: &Chart) -> Result<Vec<Hover>> {
    root.fill(&WHITE).map_err(err)?;
    let root = root.margin(10, 14, 14, 24);
    let (title_area, body) = root.split_vertically(54);
    // The title at 26 px, smaller when a long one would run off the chart.
    let room = title_area.dim_in_pixel().0;
    let size = (26..=26)
        .chain((14..26).rev())
        .find(|&px| text_width(&chart.title, px) <= room)
        .unwrap_or(14);
    title_area
        .draw(&Text::new(
            chart.title.clone(),
            (0, 8),
            (FONT, size).into_font().color(&BLACK),
        ))
        .map_err(err)?;
    match &chart.plot {
        Plot::Lines {
            legend_title,
            x_label,
            y_label,
            x_range,
            y_range,
            series,
            integer_x,
        } => draw_lines(
            &body,
            legend_title,
            x_label,
            y_label,
            *x_range,
            *y_range,
            series,
            *integer_x,
        )
        .map(|()| Vec::new()),
        Plot::Bars {
            x_label,
            y_label,
            rows,
        } => draw_bars(&body, x_label, y_label, rows).map(|()| Vec::new()),
        Plot::Forest { x_label, rows } => draw_forest(&body, x_label, rows).map(|()| Vec::new()),
        Plot::Heatmap {
            x_label,
            y_label,
            columns,
            rows,
            cells,
            percent,
            diverging,
        } => draw_heatmap(
            &body, x_label, y_label, columns, rows, cells, *percent, *diverging,
        ),
    }
}

/// Dash patterns (dash, gap in pixels; `None` solid) that tell series apart without colour.
const DASHES: [Option<(u32, u32)>; 8] = [
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
const MARKERS_PER_SERIES: usize = 12;

/// One of five marker shapes, by series: circle, triangle, square, cross, diamond.
fn marker<DB: DrawingBackend>(
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

/// The legend of a line chart laid out in columns under the plot: (columns, rows, height).
fn legend_layout(series: &[Series], title: &str, width: u32) -> (usize, usize, u32) {
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

#[allow(clippy::too_many_arguments)]
fn draw_lines<DB: DrawingBackend>(
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
        if let Some(band) = &s.band {
            let mut outline: Vec<(f64, f64)> = band.iter().map(|&(x, lo, _)| (x, lo)).collect();
            outline.extend(band.iter().rev().map(|&(x, _, hi)| (x, hi)));
            chart
                .draw_series(std::iter::once(Polygon::new(outline, colour.mix(0.22))))
                .map_err(err)?;
        }
    }
    let title_rows = i32::from(!legend_title.is_empty());
    if !legend_title.is_empty() {
        legend
            .draw(&Text::new(
                legend_title.to_owned(),
                (84, 18),
                (FONT, 17)
                    .into_font()
                    .style(FontStyle::Bold)
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            ))
            .map_err(err)?;
    }
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
        match dash {
            None => chart.draw_series(LineSeries::new(line, style)),
            Some((on, off)) => chart.draw_series(DashedLineSeries::new(line, on, off, style)),
        }
        .map_err(err)?;
        // Markers at a few points, shifted by series so that coinciding curves show each.
        let n = s.points.len();
        let every = n.div_ceil(MARKERS_PER_SERIES).max(1);
        for (j, &p) in s.points.iter().enumerate() {
            if n <= MARKERS_PER_SERIES || j % every == (i * every / series.len().max(1)) % every {
                marker(&pixels, at(&p), i, colour)?;
            }
        }
        let (col, row) = ((i % columns) as i32, (i / columns) as i32);
        let (x, y) = (84 + col * column_px, 18 + 26 * (row + title_rows));
        let sample = vec![(x, y), (x + 44, y)];
        match dash {
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

/// The width the row labels of a bar or forest chart take, in pixels.
fn row_label_width(rows: &[(String, f64, f64, f64)]) -> u32 {
    rows.iter()
        .map(|r| text_width(&r.0, 17))
        .max()
        .unwrap_or(40)
        .clamp(40, 420)
        + 24
}

/// The label of the row drawn at a segment of a bar or forest chart (first row on top).
fn row_label(rows: &[(String, f64, f64, f64)], v: &SegmentValue<i32>) -> String {
    let n = rows.len().max(1) as i32;
    match v {
        SegmentValue::CenterOf(i) => rows
            .get((n - 1 - i) as usize)
            .map(|r| r.0.clone())
            .unwrap_or_default(),
        _ => String::new(),
    }
}

fn draw_bars<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    x_label: &str,
    y_label: &str,
    rows: &[(String, f64, f64, f64)],
) -> DrawResult {
    let n = rows.len().max(1) as i32;
    let label_px = row_label_width(rows);
    let top = rows.iter().fold(1.0f64, |m, r| m.max(r.3));
    let x_max = top * 1.15;
    let mut chart = ChartBuilder::on(area)
        .margin_right(30)
        .x_label_area_size(60)
        .y_label_area_size(label_px + if y_label.is_empty() { 0 } else { 30 })
        .build_cartesian_2d(0f64..x_max, (0..n - 1).into_segmented())
        .map_err(err)?;
    let y_format = |v: &SegmentValue<i32>| row_label(rows, v);
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .axis_desc_style((FONT, 20))
        .label_style((FONT, 17))
        .y_labels(rows.len() + 1)
        .y_label_formatter(&y_format)
        .x_label_formatter(&|x| axis_number(*x, x_max))
        .disable_y_mesh()
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(205, 205, 205))
        .draw()
        .map_err(err)?;
    let colour = PALETTE[0];
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let y = n - 1 - i as i32;
            let mut bar = Rectangle::new(
                [
                    (0.0, SegmentValue::Exact(y)),
                    (r.1, SegmentValue::Exact(y + 1)),
                ],
                colour.mix(0.75).filled(),
            );
            bar.set_margin(6, 6, 0, 0);
            bar
        }))
        .map_err(err)?;
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let y = SegmentValue::CenterOf(n - 1 - i as i32);
            PathElement::new(vec![(r.2, y.clone()), (r.3, y)], BLACK.stroke_width(2))
        }))
        .map_err(err)?;
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let y = SegmentValue::CenterOf(n - 1 - i as i32);
            Text::new(
                format!("{:.1}%", r.1),
                (r.3 + x_max * 0.012, y),
                (FONT, 16)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            )
        }))
        .map_err(err)?;
    Ok(())
}

fn draw_forest<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    x_label: &str,
    rows: &[(String, f64, f64, f64)],
) -> DrawResult {
    let n = rows.len().max(1) as i32;
    let label_px = row_label_width(rows);
    let lo = rows.iter().fold(0.0f64, |m, r| m.min(r.2));
    let hi = rows.iter().fold(0.0f64, |m, r| m.max(r.3));
    let span = (hi - lo).max(0.1);
    let (x_lo, x_hi) = (lo - span * 0.08, hi + span * 0.22);
    let mut chart = ChartBuilder::on(area)
        .margin_right(30)
        .x_label_area_size(60)
        .y_label_area_size(label_px)
        .build_cartesian_2d(x_lo..x_hi, (0..n - 1).into_segmented())
        .map_err(err)?;
    let y_format = |v: &SegmentValue<i32>| row_label(rows, v);
    chart
        .configure_mesh()
        .x_desc(x_label)
        .axis_desc_style((FONT, 20))
        .label_style((FONT, 17))
        .y_labels(rows.len() + 1)
        .y_label_formatter(&y_format)
        .x_label_formatter(&|x| axis_number(*x, x_hi - x_lo))
        .disable_y_mesh()
        .light_line_style(RGBColor(235, 235, 235))
        .bold_line_style(RGBColor(205, 205, 205))
        .draw()
        .map_err(err)?;
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(0.0, SegmentValue::Exact(0)), (0.0, SegmentValue::Exact(n))],
            PALETTE[6].stroke_width(2),
        )))
        .map_err(err)?;
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let y = SegmentValue::CenterOf(n - 1 - i as i32);
            PathElement::new(vec![(r.2, y.clone()), (r.3, y)], PALETTE[0].stroke_width(3))
        }))
        .map_err(err)?;
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let y = SegmentValue::CenterOf(n - 1 - i as i32);
            Circle::new((r.1, y), 6, PALETTE[0].filled())
        }))
        .map_err(err)?;
    chart
        .draw_series(rows.iter().enumerate().map(|(i, r)| {
            let y = SegmentValue::CenterOf(n - 1 - i as i32);
            Text::new(
                format!("{:+.1} [{:+.1}, {:+.1}]", r.1, r.2, r.3),
                (r.3 + (x_hi - x_lo) * 0.012, y),
                (FONT, 16)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Left, VPos::Center)),
            )
        }))
        .map_err(err)?;
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn draw_heatmap<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    x_label: &str,
    y_label: &str,
    columns: &[String],
    rows: &[String],
    cells: &[Vec<Option<Rate>>],
    percent: bool,
    diverging: bool,
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
        .build_cartesian_2d((0..nx - 1).into_segmented(), (0..ny - 1).into_segmented())
        .map_err(err)?;
    let x_format = |v: &SegmentValue<i32>| match v {
        SegmentValue::CenterOf(i) => columns.get(*i as usize).cloned().unwrap_or_default(),
        _ => String::new(),
    };
    let y_format = |v: &SegmentValue<i32>| match v {
        SegmentValue::CenterOf(i) => rows.get((ny - 1 - i) as usize).cloned().unwrap_or_default(),
        _ => String::new(),
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
    let top = cells
        .iter()
        .flatten()
        .flatten()
        .fold(1e-12f64, |m, &(v, _, _)| m.max(v));
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
                    (33.0, 102.0, 172.0),
                    ((v - 0.5) * 2.0).clamp(0.0, 1.0),
                )
            } else {
                mix(
                    white,
                    (178.0, 24.0, 43.0),
                    ((0.5 - v) * 2.0).clamp(0.0, 1.0),
                )
            }
        } else {
            mix(white, (203.0, 24.0, 29.0), (v / top).clamp(0.0, 1.0))
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
            let corner = |x: i32, y: i32| {
                chart
                    .plotting_area()
                    .map_coordinate(&(SegmentValue::Exact(x), SegmentValue::Exact(y)))
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
            let mut rect = Rectangle::new(
                [
                    (SegmentValue::Exact(x), SegmentValue::Exact(y)),
                    (SegmentValue::Exact(x + 1), SegmentValue::Exact(y + 1)),
                ],
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
    let label_style = (FONT, 15).into_font().color(&BLACK);
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
            (10, bar_top - 24),
            label_style.pos(Pos::new(HPos::Left, VPos::Center)),
        ))
        .map_err(err)?;
    chart
        .draw_series(texts.into_iter().map(|(text, x, y, ink)| {
            Text::new(
                text,
                (SegmentValue::CenterOf(x), SegmentValue::CenterOf(y)),
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
    use super::*;
    use crate::engine::{Budget, run_model};
    use crate::rules::registry::{Scenario, parse};
    use indicatif::ProgressBar;
    use std::path::Path;
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    const SWEEP: &str = r#"
name = "t"
ruleset = "twin-d20"
trials = 8192
[a]
name = "Knight"
attack = 13
defense = 6
toughness = 9
weapon = "sword"
[b]
name = "Brigand"
attack = 12
defense = 8
toughness = 8
weapon = "sword"
[weapons.sword]
damage = 3
[weapons.club]
damage = 2
[sweep]
"a.weapon" = ["sword", "club"]
"b.attack" = [9, 12, 15]
"#;

    fn scenario() -> Scenario {
        parse(Path::new("t.toml"), SWEEP).unwrap_or_else(|e| panic!("{e}"))
    }

    fn tallies(s: &Scenario) -> Vec<Tally> {
        s.points
            .iter()
            .enumerate()
            .filter_map(|(i, p)| {
                run_model(
                    &p.model,
                    s.baseline_of(i),
                    s.seed,
                    Budget::Trials(s.trials),
                    &ProgressBar::hidden(),
                    &AtomicBool::new(false),
                    crate::engine::Prefix::none(&mut |_, _| {}),
                )
            })
            .collect()
    }

    fn finished_run(s: &Scenario) -> RunResult<'_> {
        RunResult {
            scenario: s,
            tallies: tallies(s),
            threads: 1,
            duration: Duration::from_secs(1),
            notes: Vec::new(),
            extra_files: Vec::new(),
        }
    }

    #[test]
    fn a_two_axis_sweep_gets_curves_per_list_value_and_a_heatmap_whose_cells_are_its_points() {
        let s = scenario();
        let run = finished_run(&s);
        let charts = plan(&run);
        let names: Vec<&str> = charts.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "win-rate",
                "matchup",
                "rounds",
                "rounds-decided",
                "damage-per-hit",
                "days-to-whole"
            ]
        );
        let Plot::Lines { series, .. } = &charts[0].plot else {
            panic!("win-rate is not a line chart");
        };
        // One curve per weapon, over the three Attack values, at the points' own rates.
        assert_eq!(series.len(), 2);
        assert_eq!(series[1].label, "club");
        let rate = |i: usize| 100.0 * wilson(run.tallies[i].ends[0], run.tallies[i].trials).0;
        assert_eq!(
            series[1].points,
            [(9.0, rate(3)), (12.0, rate(4)), (15.0, rate(5))]
        );
        let Plot::Heatmap {
            rows,
            columns,
            cells,
            ..
        } = &charts[1].plot
        else {
            panic!("matchup is not a heatmap");
        };
        assert_eq!(rows, &["sword", "club"]);
        assert_eq!(columns, &["9", "12", "15"]);
        for (r, row) in cells.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                assert_eq!(cell.map(|c| c.0), Some(rate(3 * r + c) / 100.0));
            }
        }
    }

    #[test]
    fn swept_paths_are_labelled_in_the_rules_words() {
        let names = ["Swordsman", "Knight"];
        assert_eq!(
            axis_title("a.melee_ml", names, "zone-d100"),
            "Swordsman's melee ML"
        );
        assert_eq!(
            axis_title("b.armour", names, "zone-d100"),
            "Knight's armour"
        );
        assert_eq!(
            axis_title("weapons.mace.impact_modifier", names, "zone-d100"),
            "mace's impact modifier"
        );
        assert_eq!(
            axis_title("rules.damage[6]", names, "d6-pool"),
            "damage for three+ 6s (Critical Strike)"
        );
        assert_eq!(axis_title("round_limit", names, "twin-d20"), "round limit");
    }

    #[test]
    fn curves_that_coincide_are_named_in_the_caption() {
        let curve = |label: &str, lift: f64| Series {
            label: label.into(),
            points: (0..5)
                .map(|x| (f64::from(x), 10.0 * f64::from(x) + lift))
                .collect(),
            band: None,
            step: false,
        };
        let series = [
            curve("sword", 0.0),
            curve("mace", 5.0),
            curve("axe", 1.0),
            curve("club", 5.5),
        ];
        let note = coinciding_note(&series, 100.0);
        assert!(note.contains("sword and axe; mace and club"), "{note}");
        assert_eq!(coinciding_note(&series[..2], 100.0), "");
    }

    #[test]
    fn every_chart_renders_as_svg_and_png() {
        let s = scenario();
        let run = finished_run(&s);
        let rendered = render_all(&run).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rendered.len(), 6);
        for r in &rendered {
            // The title up to any apostrophe (which SVG text escapes).
            let title = r.title.split('\'').next().unwrap_or_default();
            assert!(
                r.svg.starts_with("<svg") && r.svg.contains(title),
                "{}",
                r.name
            );
            assert!(r.png.starts_with(b"\x89PNG\r\n\x1a\n"), "{}", r.name);
        }
    }

    #[test]
    fn spread_keeps_the_ends_and_at_most_n() {
        assert_eq!(spread(3, 8), [0, 1, 2]);
        let s = spread(22, 8);
        assert_eq!(s.len(), 8);
        assert_eq!((s[0], s[7]), (0, 21));
    }

    #[test]
    fn the_rounds_chart_starts_at_round_one() {
        let s = scenario();
        let run = finished_run(&s);
        let chart = rounds(&run);
        let Plot::Lines {
            series, x_range, ..
        } = &chart.plot
        else {
            panic!("rounds is a line chart");
        };
        assert!(x_range.0 > 0.0);
        for line in series {
            assert!(line.points.iter().all(|(x, _)| *x >= 1.0), "{}", line.label);
        }
    }

    #[test]
    fn a_duel_with_hits_draws_what_a_hit_does() {
        let s = scenario();
        let run = finished_run(&s);
        let charts = plan(&run);
        let chart = charts
            .iter()
            .find(|c| c.name == "damage-per-hit")
            .unwrap_or_else(|| panic!("no damage-per-hit chart"));
        let Plot::Lines { series, .. } = &chart.plot else {
            panic!("a line chart");
        };
        assert_eq!(series.len(), run.tallies.len().min(MAX_SERIES));
        for line in series {
            let total: f64 = line.points.iter().map(|p| p.1).sum();
            assert!(total > 50.0 && total <= 100.0 + 1e-9, "{total}");
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
