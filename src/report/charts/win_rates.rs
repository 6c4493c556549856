//! The win-rate charts of a duel: the win rate against a swept value (curves, or bars per point
//! when nothing numeric is swept), the matchup heatmap over two swept values, and each compared
//! point's difference from the baseline on the same dice.

use super::heatmap::heatmap_width;
use super::labels::{shown_note, value_ink};
use super::model::{
    Chart, Ink, Look, MAX_ROWS, MAX_SERIES, Plot, Scale, Series, WIDTH, bar_height, percent, spread,
};
use crate::report::run::{BalanceMarks, RunResult};
use crate::report::words::{axis_title, point_label, side_words, swept_title};
use crate::stats::{Tally, wilson};

/// Every compared point's a-win difference from the baseline on the same dice, with its 95%
/// interval, largest first.
pub(super) fn differences(run: &RunResult) -> Option<Chart> {
    let base = run.scenario.baseline?;
    let side_words = side_words(run);
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
            "{} against {}: difference from {}",
            side_words[0].win_rate(),
            side_words[1].name,
            point_label(run, base)
        ),
        caption: format!(
            "Each point's difference in {} from the baseline ({}), in percentage points, with its 95% interval from the trial-by-trial differences on the same dice; the line marks no difference.",
            side_words[0].win_rate(),
            point_label(run, base)
        ),
        height: bar_height(shown),
        width: WIDTH,
        plot: Plot::Forest {
            x_label: format!(
                "difference in {} (percentage points)",
                side_words[0].win_rate()
            ),
            rows,
        },
    })
}

/// A `[balance]` search: the rate at each value it ran, as points with their 95% intervals
/// (nothing is known between them, so no line joins them), the target as a line across, and
/// the answer with its interval on the target line.
pub(super) fn balance(run: &RunResult, names: [&str; 2], marks: &BalanceMarks) -> Option<Chart> {
    let side_words = side_words(run);
    let (path, _) = run.scenario.points.first()?.swept.first()?;
    let title = axis_title(path, names, run.scenario.ruleset);
    let target = percent(marks.target);
    let mut points = Vec::new();
    let mut band = Vec::new();
    for (i, p) in finished(run) {
        let x: f64 = p.swept.first()?.1.parse().ok()?;
        let (r, lo, hi) = crate::scenario::balance::rate(&run.tallies[i], marks.index);
        points.push((x, percent(r)));
        band.push((x, percent(lo), percent(hi)));
    }
    let xs: Vec<f64> = points.iter().map(|p| p.0).collect();
    let (x0, x1) = min_max(&xs);
    let x_range = pad(x0, x1);
    let mut series = vec![
        Series {
            label: format!("{}, at each value run", marks.rate),
            points,
            band: Some(band),
            look: Look::Points,
            ink: Ink::Side(0),
            cases: 0,
        },
        Series::new(
            format!("target: {target}%"),
            vec![(x_range.0, target), (x_range.1, target)],
            Look::Reference,
            Ink::Reference,
        ),
    ];
    let found = match marks.answer {
        Some((at, lo, hi)) => {
            series.push(Series {
                label: if lo.fract() == 0.0 && hi - lo == 1.0 {
                    format!("answer: {title} between {lo} and {hi}")
                } else {
                    format!("answer: {title} {at:.2} [{lo:.2}, {hi:.2}]")
                },
                points: vec![(lo, target), (hi, target)],
                band: None,
                look: Look::Span,
                ink: Ink::Answer,
                cases: 0,
            });
            format!("; the answer's interval is drawn on the target line, from {lo:.2} to {hi:.2}")
        }
        None => "; the range does not reach the target".to_owned(),
    };
    Some(Chart {
        name: "balance".into(),
        title: format!(
            "{} against {}: where {} crosses {target}% as {title} varies",
            side_words[0].name, side_words[1].name, marks.rate
        ),
        caption: format!(
            "Each point is a value the search ran, with its 95% interval (every value on the same dice); nothing was run between them, so no line joins them. The line across is the target{found}."
        ),
        height: 620,
        width: WIDTH,
        plot: Plot::Lines {
            legend_title: String::new(),
            x_label: title,
            y_label: format!(
                "share of {} (%)",
                crate::report::words::Words::of(run).trials()
            ),
            x_range,
            y_range: (0.0, 100.0),
            series,
            integer_x: xs.iter().all(|x| x.fract() == 0.0),
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
pub(super) fn win_rate(run: &RunResult, names: [&str; 2], axes: &[&str]) -> Option<Chart> {
    let side_words = side_words(run);
    // The numeric swept value with the most values goes across (the first of equals): the
    // curves are then the fewer values of the others.
    let numeric = (0..axes.len())
        .filter(|&k| {
            let values = values_of(run, k);
            values.len() > 1 && values.iter().all(|v| v.parse::<f64>().is_ok())
        })
        .min_by_key(|&k| std::cmp::Reverse(values_of(run, k).len()));
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
            title: format!(
                "{} against {}: {} at each point",
                side_words[0].name,
                side_words[1].name,
                side_words[0].win_rate()
            ),
            caption: format!(
                "Share of {}, with its 95% interval, at each swept combination ({}).{}",
                side_words[0].wins_share(run),
                swept_title(run),
                shown_note(shown, run.tallies.len())
            ),
            height: bar_height(rows.len()),
            width: WIDTH,
            plot: Plot::Bars {
                y_label: swept_title(run),
                x_label: format!(
                    "{} (% of {})",
                    side_words[0].wins(),
                    crate::report::words::Words::of(run).trials()
                ),
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
    // With one other value, a group's colour is its value's place among that value's values.
    let all = run.scenario.swept_values();
    let group_ink = |g: usize| match all.len() {
        2 => value_ink(&all[1 - k].1, g),
        _ => Ink::Category(g),
    };
    let chosen = spread(total_groups, MAX_SERIES);
    let single = total_groups == 1;
    let mut series = Vec::new();
    let mut xs = Vec::new();
    for &g in &chosen {
        let (label, members) = &groups[g];
        let mut sides: Vec<(String, usize)> = vec![(
            if single {
                side_words[0].wins()
            } else {
                label.clone()
            },
            0,
        )];
        if single {
            sides.push((side_words[1].wins(), 1));
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
            let ink = match (single, end) {
                (true, 2) => Ink::Draw,
                (true, side) => Ink::Side(side),
                (false, _) => group_ink(g),
            };
            series.push(Series {
                label,
                points,
                band: Some(band),
                look: Look::Line,
                ink,
                cases: 0,
            });
        }
    }
    let (x0, x1) = min_max(&xs);
    // Shares of duels on their whole scale, 0 to 100%, so no difference looks larger than it is.
    let y_range = (0.0, 100.0);
    let others: Vec<&str> = axes
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != k)
        .map(|(_, a)| *a)
        .collect();
    let caption = if single {
        let words = crate::report::words::Words::of(run);
        let ends = if words.campaign {
            "the party comes through, is beaten, or turns back or ends drawn"
        } else {
            "won by each side and drawn"
        };
        format!(
            "Share of {} {ends} as {} varies; the shaded bands are 95% intervals.",
            words.trials(),
            axis_title(axes[k], names, run.scenario.ruleset)
        )
    } else {
        let note = if chosen.len() < total_groups {
            format!(" {} of the {total_groups} curves are drawn.", chosen.len())
        } else {
            String::new()
        };
        format!(
            "Share of {} as {} varies, one curve per {}; the shaded bands are 95% intervals.{note}",
            side_words[0].wins_share(run),
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
            "{} against {}: {} by {}",
            side_words[0].name,
            side_words[1].name,
            if single {
                "each side's win rate".to_owned()
            } else {
                side_words[0].win_rate()
            },
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
            y_label: format!(
                "share of {} (%)",
                crate::report::words::Words::of(run).trials()
            ),
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

/// Win rate over the first two swept values, the others at their first value.
pub(super) fn matchup(run: &RunResult, names: [&str; 2], axes: &[&str]) -> Chart {
    let side_words = side_words(run);
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
            "{} against {}: {} by {} and {}",
            side_words[0].name,
            side_words[1].name,
            side_words[0].win_rate(),
            axis_title(axes[0], names, run.scenario.ruleset),
            axis_title(axes[1], names, run.scenario.ruleset)
        ),
        caption: format!(
            "Each cell is the share of {} (blue: {} favoured, vermillion: {} favoured).{fixed}",
            side_words[0].wins_share(run),
            side_words[0].name,
            side_words[1].name
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
            scale: Scale::Diverging,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::plan;
    use crate::report::charts::tests::{finished_run, scenario};

    #[test]
    fn a_two_axis_sweep_gets_curves_per_list_value_and_a_heatmap_whose_cells_are_its_points() {
        let s = scenario();
        let run = finished_run(&s);
        let charts = plan(&run);
        let names: Vec<&str> = charts.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "outcomes",
                "recovery-outcomes",
                "win-rate",
                "matchup",
                "rounds",
                "rounds-decided",
                "damage-per-hit",
                "damage-at-least",
                "days-to-whole"
            ]
        );
        // The outcome shares lead: each point's ends, and how its wounded survivors end, each
        // adding up to the whole.
        let Plot::Stacked { rows, .. } = &charts[0].plot else {
            panic!("outcomes is not a stacked bar chart");
        };
        for (i, (_, shares)) in rows.iter().enumerate() {
            let t = &run.tallies[i];
            let share = |c: u64| 100.0 * c as f64 / t.trials as f64;
            assert_eq!(shares, &t.ends.map(share));
        }
        let Plot::Stacked { rows, .. } = &charts[1].plot else {
            panic!("recovery-outcomes is not a stacked bar chart");
        };
        for (_, shares) in rows {
            assert!(
                (shares.iter().sum::<f64>() - 100.0).abs() < 1e-9,
                "{shares:?}"
            );
        }
        let Plot::Lines { series, .. } = &charts[2].plot else {
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
        } = &charts[3].plot
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
}
