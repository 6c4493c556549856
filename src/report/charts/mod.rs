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
pub(crate) use labels::{axis_title, value_phrase, value_words};
pub use render::Rendered;

use super::RunResult;
use aftermath::{days_to_whole, injuries};
use anyhow::Result;
use heatmap::fit_heatmap;
use histograms::{damage_per_hit, rounds, rounds_decided};
use labels::coinciding_note;
use model::{Chart, Plot};
use outcomes::{duel_outcomes, recovery_outcomes};
use render::rendered;
use style::{legend_layout, register_font};
use win_rates::{balance, differences, matchup, win_rate};

/// Every chart this run calls for, drawn.
pub fn render_all(run: &RunResult) -> Result<Vec<Rendered>> {
    register_font();
    plan(run).into_iter().map(|c| rendered(c, true)).collect()
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
    // The outcome shares lead: who wins, and how the wounded end.
    if duel {
        charts.push(duel_outcomes(run, names));
    }
    charts.extend(recovery_outcomes(run));
    if let Some(marks) = &run.balance {
        // A search's probes are points, not a curve: its own chart instead of the win rates.
        charts.extend(balance(run, names, marks));
    } else if duel && !axes.is_empty() {
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
        // Lasting impairment is a part of the recovery outcomes above.
        charts.push(days_to_whole(run));
    }
    if duel && let Some(chart) = injuries(run) {
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

    #[test]
    fn every_chart_renders_as_svg_and_png() {
        let s = scenario();
        let run = finished_run(&s);
        let rendered = render_all(&run).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(rendered.len(), 8);
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
