//! The charts of a run, drawn with plotters as SVG (for print) and PNG.
//!
//! Each chart is worked out once from the finished tallies into a [`Chart`] (plain numbers and
//! labels), then drawn twice by the same code on the SVG and the bitmap backend. Which charts
//! a run gets depends on what it varied: a win-rate curve over a numeric swept value, bars over
//! a list, a matchup heatmap for two swept values; every run gets the rounds distribution,
//! days-to-whole curves and lasting impairment when there were wounded survivors, and
//! zone-d100 runs the injuries by zone and severity. PNG text uses the DejaVu Sans shipped in
//! `assets/fonts`, so no system font is needed.

mod aftermath;
mod answers;
mod bars;
mod exact;
mod heatmap;
mod histograms;
mod labels;
mod lines;
mod model;
mod outcomes;
mod render;
mod style;
mod win_rates;

pub use exact::{ExactGrid, render_exact};
pub use heatmap::CellTable;
pub use render::Rendered;

use super::run::RunResult;
use super::words::{axis_title, side_names, value_words};
use crate::stats::Side;
use aftermath::{days_to_whole, injuries};
use anyhow::Result;
use heatmap::fit_heatmap;
use histograms::{damage_at_least, damage_per_hit, hit_levels, rounds, rounds_decided};
use labels::{alike, coinciding_note, shown_note, value_ink};
use model::{
    Chart, MAX_SERIES, MAX_WIDTH, PAGE_HEIGHT, PANEL_COLUMNS, PANEL_PLOT_HEIGHT, Plot, Series,
    WIDTH, spread,
};
use outcomes::{duel_outcomes, recovery_outcomes};
use render::rendered;
use style::{legend_layout, register_font};
use win_rates::{balance, differences, matchup, win_rate};

/// The charts drawn with one curve per point, which `lay_out_points` lays out.
const PER_POINT_CHARTS: [&str; 5] = [
    "rounds",
    "rounds-decided",
    "damage-per-hit",
    "damage-at-least",
    "days-to-whole",
];

/// Lays out a chart of one curve per point when there are more points than one chart can tell
/// apart ([`MAX_SERIES`]). With one swept value, curves spread over the sweep are drawn (the
/// caption says which). With more, the chart becomes small multiples: a panel per value of the
/// swept value with the fewest values (the later of equals), its curves the points with that
/// value, labelled by the others; so every swept value appears and the curves of a panel differ
/// in the other values only.
fn lay_out_points(run: &RunResult, chart: &mut Chart) {
    let Plot::Lines {
        legend_title: _,
        x_label,
        y_label,
        x_range,
        y_range,
        series,
        integer_x,
    } = &chart.plot
    else {
        return;
    };
    let n = series.len();
    if n <= MAX_SERIES {
        return;
    }
    let names = run.scenario.points[0].model.names();
    let ruleset = run.scenario.ruleset;
    let swept = run.scenario.swept_values();
    if swept.len() < 2 {
        let chosen = spread(n, MAX_SERIES);
        let kept: Vec<Series> = chosen.iter().map(|&i| series[i].clone()).collect();
        chart.caption.push_str(&shown_note(kept.len(), n));
        if let Plot::Lines { series, .. } = &mut chart.plot {
            *series = kept;
        }
        return;
    }
    let panel_key = (0..swept.len())
        .rev()
        .min_by_key(|&k| swept[k].1.len())
        .unwrap_or(0);
    let others: Vec<usize> = (0..swept.len()).filter(|&k| k != panel_key).collect();
    let curves_title = others
        .iter()
        .map(|&k| axis_title(&swept[k].0, names, ruleset))
        .collect::<Vec<_>>()
        .join(" / ");
    let mut panels = Vec::new();
    let mut drawn = 0;
    let mut legend_px = 0;
    for value in &swept[panel_key].1 {
        let members: Vec<usize> = (0..n)
            .filter(|&i| run.scenario.points[i].swept[panel_key].1 == *value)
            .collect();
        let chosen = spread(members.len(), MAX_SERIES);
        let curves: Vec<Series> = chosen
            .iter()
            .map(|&m| {
                let i = members[m];
                let label = others
                    .iter()
                    .map(|&k| {
                        let (key, v) = &run.scenario.points[i].swept[k];
                        value_words(key, v, names, ruleset)
                    })
                    .collect::<Vec<_>>()
                    .join(" / ");
                // One value across the curves: its place among its values, the same in every
                // panel; several: a colour by curve.
                let ink = match others.as_slice() {
                    [k] => {
                        let values = &swept[*k].1;
                        let v = &run.scenario.points[i].swept[*k].1;
                        value_ink(values, values.iter().position(|x| x == v).unwrap_or(0))
                    }
                    _ => model::Ink::Category(m),
                };
                Series {
                    label,
                    ink,
                    ..series[i].clone()
                }
            })
            .collect();
        drawn += curves.len();
        legend_px = legend_px.max(legend_layout(&curves, &curves_title, WIDTH / 2).2);
        panels.push((
            format!(
                "{}: {}",
                axis_title(&swept[panel_key].0, names, ruleset),
                value_words(&swept[panel_key].0, value, names, ruleset)
            ),
            Plot::Lines {
                legend_title: curves_title.clone(),
                x_label: x_label.clone(),
                y_label: y_label.clone(),
                x_range: *x_range,
                y_range: *y_range,
                series: curves,
                integer_x: *integer_x,
            },
        ));
    }
    let rows = panels.len().div_ceil(PANEL_COLUMNS) as u32;
    chart.height = rows * (PANEL_PLOT_HEIGHT + legend_px + 40);
    chart.caption.push_str(&format!(
        " One panel per {}.{}",
        axis_title(&swept[panel_key].0, names, ruleset),
        shown_note(drawn, n)
    ));
    chart.plot = Plot::Panels { panels };
}

/// A chart of one curve per point for each side (`chart` makes it, with its panel title, or
/// `None` when the side has nothing to show): both sides are panels of one chart (`title`) on one
/// scale,
/// side by side. With more points than one chart tells apart, each side is first laid out by
/// `lay_out_points`, and its panels follow one another (titled by side, then value).
fn each_side(
    run: &RunResult,
    title: String,
    chart: impl Fn(Side) -> Option<(String, Chart)>,
) -> Vec<Chart> {
    let mut sides: Vec<(String, Chart)> = Side::BOTH.into_iter().filter_map(chart).collect();
    if sides.len() < 2 {
        return sides.into_iter().map(|(_, c)| c).collect();
    }
    for (_, c) in &mut sides {
        lay_out_points(run, c);
    }
    let first = &sides[0].1;
    let (name, caption) = (first.name.clone(), first.caption.clone());
    let mut panels: Vec<(String, Plot)> = Vec::new();
    for (panel, c) in sides {
        match c.plot {
            Plot::Panels { panels: inner } => panels.extend(
                inner
                    .into_iter()
                    .map(|(value, plot)| (format!("{panel} · {value}"), plot)),
            ),
            plot => panels.push((panel, plot)),
        }
    }
    // One scale for every panel, so the sides compare at a glance.
    let (right, top) = panels
        .iter()
        .filter_map(|(_, plot)| match plot {
            Plot::Lines {
                x_range, y_range, ..
            } => Some((x_range.1, y_range.1)),
            _ => None,
        })
        .fold((f64::MIN, 0.0_f64), |(r, t), (x, y)| (r.max(x), t.max(y)));
    let mut legend_px = 0;
    for (_, plot) in &mut panels {
        if let Plot::Lines {
            x_range,
            y_range,
            series,
            legend_title,
            ..
        } = plot
        {
            (x_range.1, y_range.1) = (right, top);
            legend_px = legend_px.max(legend_layout(series, legend_title, WIDTH / 2).2);
        }
    }
    let rows = panels.len().div_ceil(PANEL_COLUMNS) as u32;
    vec![Chart {
        name,
        title,
        caption,
        height: rows * (PANEL_PLOT_HEIGHT + legend_px + 40),
        width: WIDTH,
        plot: Plot::Panels { panels },
    }]
}

/// What a chart says when every point draws the same curve.
const ALIKE_NOTE: &str = " Where every point draws the same curve (no difference the trials can tell: within 4.5 standard errors, or 1.5% of the axis), it is drawn once: what is swept does not change it.";

/// Draws once what every point draws alike: a line chart whose curves all coincide keeps one,
/// and small multiples whose panels of one side (the title before " · ") all show one and the
/// same curve keep one panel, titled for every value. The caption says so.
fn draw_alike_once(chart: &mut Chart) {
    let panel_rows = |plot: &Plot| match plot {
        Plot::Panels { panels } => panels.len().div_ceil(PANEL_COLUMNS) as u32,
        _ => 1,
    };
    let rows_before = panel_rows(&chart.plot);
    let mut merged = false;
    match &mut chart.plot {
        Plot::Lines {
            series, y_range, ..
        } => merged = one_if_alike(series, y_range.1 - y_range.0),
        Plot::Panels { panels } => {
            for (_, plot) in panels.iter_mut() {
                if let Plot::Lines {
                    series, y_range, ..
                } = plot
                {
                    merged |= one_if_alike(series, y_range.1 - y_range.0);
                }
            }
            merged |= one_panel_if_alike(panels);
        }
        _ => {}
    }
    if merged {
        chart.caption.push_str(ALIKE_NOTE);
        chart.height = chart.height * panel_rows(&chart.plot) / rows_before.max(1);
    }
}

/// Keeps one of `series` when they all coincide, labelled for every point.
fn one_if_alike(series: &mut Vec<Series>, span: f64) -> bool {
    if series.len() < 2 || !series.iter().all(|s| alike(s, &series[0], span)) {
        return false;
    }
    series.truncate(1);
    series[0].label = "every point".into();
    series[0].ink = model::Ink::Category(0);
    true
}

/// Whether two panels draw the same curves: as many, with the same labels, each alike.
fn panels_alike(a: &Plot, b: &Plot) -> bool {
    match (a, b) {
        (
            Plot::Lines {
                series, y_range, ..
            },
            Plot::Lines { series: other, .. },
        ) => {
            series.len() == other.len()
                && (series.iter().zip(other))
                    .all(|(s, o)| s.label == o.label && alike(s, o, y_range.1 - y_range.0))
        }
        _ => false,
    }
}

/// Keeps one panel of each side whose panels all draw the same curves.
fn one_panel_if_alike(panels: &mut Vec<(String, Plot)>) -> bool {
    let side = |title: &str| title.split(" · ").next().unwrap_or(title).to_owned();
    let mut kept: Vec<(String, Plot)> = Vec::new();
    let mut merged = false;
    let mut k = 0;
    while k < panels.len() {
        let who = side(&panels[k].0);
        let end = (k..panels.len())
            .find(|&j| side(&panels[j].0) != who)
            .unwrap_or(panels.len());
        let group = &panels[k..end];
        let all_alike =
            group.len() > 1 && (group.iter()).all(|(_, p)| panels_alike(&group[0].1, p));
        if all_alike {
            // "Hits by Knight · Brigand's attack: any".
            let title = &group[0].0;
            let value = title.split(" · ").nth(1).unwrap_or(title);
            let axis = value.rsplit_once(": ").map_or(value, |(axis, _)| axis);
            kept.push((format!("{who} · {axis}: any"), group[0].1.clone()));
            merged = true;
        } else {
            kept.extend(group.iter().cloned());
        }
        k = end;
    }
    *panels = kept;
    merged
}

/// Every chart this run calls for, drawn.
pub fn render_all(run: &RunResult) -> Result<Vec<Rendered>> {
    register_font();
    (plan(run).into_iter())
        .flat_map(by_page)
        .map(|c| rendered(c, true))
        .collect()
}

/// Small multiples taller than a page ([`PAGE_HEIGHT`]) as several charts, each as many rows of
/// panels as a page holds, titled "(1 of 3)" and so on; the first keeps the chart's name, the
/// others add "-2", "-3". Panels wrap onto more pages rather than shrink.
fn by_page(chart: Chart) -> Vec<Chart> {
    if let Plot::Heatmap { .. } = &chart.plot {
        return heatmap_by_page(chart);
    }
    let Plot::Panels { panels } = &chart.plot else {
        return vec![chart];
    };
    let rows = panels.len().div_ceil(PANEL_COLUMNS) as u32;
    if chart.height <= PAGE_HEIGHT || rows < 2 {
        return vec![chart];
    }
    let row_height = chart.height / rows;
    let rows_a_page = (PAGE_HEIGHT / row_height).max(1) as usize;
    let chunks: Vec<&[(String, Plot)]> = panels.chunks(rows_a_page * PANEL_COLUMNS).collect();
    let pages = chunks.len();
    chunks
        .into_iter()
        .enumerate()
        .map(|(k, chunk)| Chart {
            name: part_name(&chart.name, k),
            title: format!("{} ({} of {pages})", chart.title, k + 1),
            caption: chart.caption.clone(),
            height: row_height * chunk.len().div_ceil(PANEL_COLUMNS) as u32,
            width: chart.width,
            plot: Plot::Panels {
                panels: chunk.to_vec(),
            },
        })
        .collect()
}

/// The name of part `k` (from 0) of a chart drawn in several: the first keeps the chart's name,
/// the others add "-2", "-3".
fn part_name(name: &str, k: usize) -> String {
    if k == 0 {
        name.to_owned()
    } else {
        format!("{name}-{}", k + 1)
    }
}

/// A heatmap wider than a page prints legibly ([`MAX_WIDTH`]) as several, each with as many of
/// its columns as fit, every one with all its rows; titled and named as [`by_page`] does.
fn heatmap_by_page(chart: Chart) -> Vec<Chart> {
    let Plot::Heatmap {
        x_label,
        y_label,
        columns,
        rows,
        cells,
        percent,
        scale,
    } = &chart.plot
    else {
        return vec![chart];
    };
    if chart.width <= MAX_WIDTH || columns.len() < 2 {
        return vec![chart];
    }
    // Columns taken in order while the part still fits.
    let mut ranges: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    for end in 1..=columns.len() {
        if end - start > 1 && heatmap::heatmap_width(&columns[start..end], rows) > MAX_WIDTH {
            ranges.push(start..end - 1);
            start = end - 1;
        }
    }
    ranges.push(start..columns.len());
    let pages = ranges.len();
    (ranges.into_iter().enumerate())
        .map(|(k, range)| Chart {
            name: part_name(&chart.name, k),
            title: format!("{} ({} of {pages})", chart.title, k + 1),
            caption: chart.caption.clone(),
            height: chart.height,
            width: heatmap::heatmap_width(&columns[range.clone()], rows),
            plot: Plot::Heatmap {
                x_label: x_label.clone(),
                y_label: y_label.clone(),
                columns: columns[range.clone()].to_vec(),
                rows: rows.clone(),
                cells: cells.iter().map(|r| r[range.clone()].to_vec()).collect(),
                percent: *percent,
                scale: *scale,
            },
        })
        .collect()
}

/// Works out which charts the run calls for.
fn plan(run: &RunResult) -> Vec<Chart> {
    let tallies = &run.tallies;
    let mut charts = Vec::new();
    if tallies.is_empty() {
        return charts;
    }
    let names = run.scenario.points[0].model.names();
    // The sides as the report's headings name them, for titles (`names`, the first point's,
    // are what the swept keys' titles are worked out from).
    let sides = side_names(run);
    let axes: Vec<&str> = run.scenario.points[0]
        .swept
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    let duel = !run.scenario.points[0].model.is_recovery();
    // The outcome shares lead: who wins, and how the wounded end.
    if duel {
        charts.push(duel_outcomes(run));
    }
    charts.extend(recovery_outcomes(run));
    if let Some(marks) = run.balance.as_ref().filter(|m| !m.points.is_empty()) {
        // A search at each sweep point: the values found against the swept values.
        charts.extend(answers::answers(run, names, marks));
    } else if let Some(marks) = &run.balance {
        // A search's probes are points, not a curve: its own chart instead of the win rates.
        charts.extend(balance(run, names, marks));
    } else if duel && !axes.is_empty() {
        charts.extend(win_rate(run, names, &axes));
        if axes.len() >= 2 {
            charts.push(matchup(run, names, &axes));
        }
    }
    // A search's probes are values run on the way to an answer: the rate at each is what the
    // answer rests on (its own chart and table); their distributions are not drawn.
    if run.balance.is_some() {
        return finish(run, charts);
    }
    if duel {
        charts.push(rounds(run));
        charts.push(rounds_decided(run));
        let levels = crate::rules::registry::info(run.scenario.ruleset).and_then(|r| r.hit_levels);
        match levels {
            Some(levels) => charts.push(hit_levels(run, levels)),
            None => charts.extend(each_side(
                run,
                format!("What a hit does: {} and {}", sides[0].name, sides[1].name),
                |side| damage_per_hit(run, side),
            )),
        }
        if levels.is_none() {
            charts.extend(each_side(
                run,
                format!(
                    "How likely a hit does at least each amount: {} and {}",
                    sides[0].name, sides[1].name
                ),
                |side| damage_at_least(run, side),
            ));
        }
    }
    // Lasting impairment is a part of the recovery outcomes above.
    if duel {
        charts.extend(each_side(
            run,
            format!("Days until whole: {} and {}", sides[0].name, sides[1].name),
            |side| days_to_whole(run, Some(side)),
        ));
    } else {
        charts.extend(days_to_whole(run, None).map(|(_, chart)| chart));
    }
    if duel && let Some(chart) = injuries(run) {
        charts.push(chart);
    }
    if let Some(chart) = differences(run) {
        charts.push(chart);
    }
    finish(run, charts)
}

/// Lays out the planned charts: per-point curves into what one chart tells apart, curves drawn
/// alike once, heatmaps fitted, legends and notes added.
fn finish(run: &RunResult, mut charts: Vec<Chart>) -> Vec<Chart> {
    for chart in &mut charts {
        if PER_POINT_CHARTS.contains(&chart.name.as_str()) {
            lay_out_points(run, chart);
        }
        draw_alike_once(chart);
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::engine::{Budget, run_model};
    use crate::rules::registry::{Scenario, parse};
    use crate::stats::Tally;
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

    pub(crate) fn scenario() -> Scenario {
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

    pub(crate) fn finished_run(s: &Scenario) -> RunResult<'_> {
        RunResult {
            scenario: s,
            tallies: tallies(s),
            threads: 1,
            duration: Duration::from_secs(1),
            notes: Vec::new(),
            extra_files: Vec::new(),
            balance: None,
        }
    }

    /// A Knight against side `b` of `side`'s fighters (`[[b]]` tables), its points made by
    /// `points` (a `[sweep]` or `[weights]` table): the sides as the headings name them.
    fn sides_named(side: &str, points: &str) -> [String; 2] {
        let text = format!(
            "name = \"t\"\nruleset = \"twin-d20\"\n[a]\nname = \"Knight\"\nattack = 13\ndefense = 6\ntoughness = 9\nweapon = \"sword\"\n{side}\n[weapons.sword]\ndamage = 3\n{points}\n"
        );
        let s = parse(Path::new("t.toml"), &text).unwrap_or_else(|e| panic!("{e}"));
        // The names need no tallies.
        let run = RunResult {
            scenario: &s,
            tallies: Vec::new(),
            threads: 1,
            duration: Duration::from_secs(1),
            notes: Vec::new(),
            extra_files: Vec::new(),
            balance: None,
        };
        crate::report::words::side_words(&run).map(|side| side.name)
    }

    #[test]
    fn a_side_that_differs_between_points_is_named_by_its_kinds_of_fighter() {
        let fighter = |name: &str, count: u32| {
            format!(
                "[[b]]\nname = \"{name}\"\ncount = {count}\nattack = 12\ndefense = 8\ntoughness = 8\nweapon = \"sword\"\n"
            )
        };
        // The same at every point: its name, counts and all.
        let same = format!("{}{}", fighter("Sergeant", 1), fighter("Watchman", 2));
        assert_eq!(
            sides_named(&same, "[sweep]\n\"a.attack\" = [12, 13]"),
            ["Knight", "Sergeant + Watchman ×2"]
        );
        // One to three watchmen: no count, which would be the largest point's only.
        assert_eq!(
            sides_named(&same, "[sweep]\n\"b[1].count\" = [1, 2, 3]"),
            ["Knight", "Sergeant + Watchmen"]
        );
        // Copies of one fighter at some point: in the plural.
        assert_eq!(
            sides_named(&fighter("Brigand", 1), "[sweep]\n\"b[0].count\" = [1, 3]"),
            ["Knight", "Brigands"]
        );
        // Watchmen on both sides of the sergeant: one kind, named once.
        let around = format!(
            "{}{}{}",
            fighter("Watchman", 1),
            fighter("Sergeant", 1),
            fighter("Watchman", 1)
        );
        assert_eq!(
            sides_named(&around, "[sweep]\n\"b[0].count\" = [1, 2]"),
            ["Knight", "Watchmen + Sergeant"]
        );
        // One step up each, on the same dice: two sergeants at one point, three watchmen at
        // another, as large; the sergeants in the plural too, though the last of the largest
        // points has one.
        assert_eq!(
            sides_named(&same, "[weights]\n\"b[0].count\" = 1\n\"b[1].count\" = 1"),
            ["Knight", "Sergeants + Watchmen"]
        );
    }

    #[test]
    fn many_points_of_two_swept_values_are_drawn_as_panels_naming_every_value() {
        // 3 weapons x 3 attacks = 9 points, more than one chart tells apart: a panel per value
        // of the swept value with the fewest values, the later of equals (the attack), and in
        // each a curve per weapon.
        let text = SWEEP
            .replace(
                "\"a.weapon\" = [\"sword\", \"club\"]",
                "\"a.weapon\" = [\"sword\", \"club\", \"axe\"]",
            )
            .replace(
                "[weapons.club]",
                "[weapons.axe]\ndamage = 4\n[weapons.club]",
            );
        let s = parse(Path::new("t.toml"), &text).unwrap_or_else(|e| panic!("{e}"));
        let run = finished_run(&s);
        assert_eq!(run.tallies.len(), 9);
        for chart in plan(&run)
            .iter()
            .filter(|c| PER_POINT_CHARTS.contains(&c.name.as_str()))
        {
            let Plot::Panels { panels } = &chart.plot else {
                panic!("{} is not drawn as panels", chart.name);
            };
            let titles: Vec<&str> = panels.iter().map(|(t, _)| t.as_str()).collect();
            let values = [
                "Brigand's attack: 9",
                "Brigand's attack: 12",
                "Brigand's attack: 15",
            ];
            // A chart of each fighter's own hits or wounds has those panels for each side.
            let per_side = match chart.name.as_str() {
                "days-to-whole" => Some(["Knight wounded", "Brigand wounded"]),
                _ => None,
            };
            let expected: Vec<String> = match per_side {
                Some(sides) => sides
                    .iter()
                    .flat_map(|side| values.iter().map(move |v| format!("{side} · {v}")))
                    .collect(),
                None => values.iter().map(|v| v.to_string()).collect(),
            };
            // What the Knight's hit does depends on its weapon, not on the Brigand's attack:
            // its panels are alike and drawn once. The Brigand's hit (margin over the Guard
            // added) changes with its attack, not with the Knight's weapon: a panel per attack,
            // its curves alike and drawn once.
            if chart.name.starts_with("damage-") {
                let mut titles_once = vec!["Hits by Knight · Brigand's attack: any".to_owned()];
                titles_once.extend(values.iter().map(|v| format!("Hits by Brigand · {v}")));
                assert_eq!(titles, titles_once, "{}", chart.name);
                assert!(chart.caption.contains("drawn once"), "{}", chart.caption);
                let labels = |k: usize| {
                    let Plot::Lines { series, .. } = &panels[k].1 else {
                        panic!("a panel is a line chart");
                    };
                    series.iter().map(|s| s.label.clone()).collect::<Vec<_>>()
                };
                assert_eq!(labels(0), ["sword", "club", "axe"], "{}", chart.name);
                assert_eq!(labels(1), ["every point"], "{}", chart.name);
                continue;
            }
            assert_eq!(titles, expected, "{}", chart.name);
            for (_, plot) in panels {
                let Plot::Lines { series, .. } = plot else {
                    panic!("a panel is a line chart");
                };
                // A curve per weapon, or one where the weapons' curves are alike.
                let labels: Vec<&str> = series.iter().map(|s| s.label.as_str()).collect();
                assert!(
                    labels == ["sword", "club", "axe"] || labels == ["every point"],
                    "{}: {labels:?}",
                    chart.name
                );
            }
        }
    }

    #[test]
    fn the_parts_of_a_split_heatmap_share_one_colour_scale() {
        // Twenty columns, the highest value in the first: every part keeps the whole chart's
        // top, so one colour means one value across the parts.
        let columns: Vec<String> = (0..20).map(|k| format!("column {k}")).collect();
        let cells = vec![
            (0..20)
                .map(|k| Some((if k == 0 { 9.0 } else { 1.0 }, 0.0, 0.0)))
                .collect(),
        ];
        let chart = Chart {
            name: "injuries".into(),
            title: "t".into(),
            caption: String::new(),
            height: 400,
            width: heatmap::heatmap_width(&columns, &["row".to_owned()]),
            plot: Plot::Heatmap {
                x_label: "x".into(),
                y_label: "y".into(),
                columns,
                rows: vec!["row".into()],
                scale: model::Scale::sequential(&cells),
                cells,
                percent: false,
            },
        };
        let parts = heatmap_by_page(chart);
        assert!(parts.len() > 1, "{} parts", parts.len());
        for part in &parts {
            let Plot::Heatmap { scale, .. } = &part.plot else {
                panic!("a part is a heatmap");
            };
            assert_eq!(
                *scale,
                model::Scale::Sequential { top: 9.0 },
                "{}",
                part.name
            );
        }
    }

    #[test]
    fn every_chart_renders_as_svg_and_png() {
        let s = scenario();
        let run = finished_run(&s);
        let rendered = render_all(&run).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rendered.len(), 9);
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
}
