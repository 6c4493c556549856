//! The charts drawn from a histogram of each point, one curve per point: how many rounds a duel
//! lasts, the share of duels over by each round, and what a hit of each fighter does (stacked
//! bars when a hit records a named level).

use super::labels::{point_ink, shown_note};
use super::model::{Chart, Ink, Look, MAX_ROWS, Plot, Series, WIDTH, bar_height, spread};
use crate::report::run::RunResult;
use crate::report::words::{Words, point_label, side_names, side_words, swept_title};
use crate::stats::{Side, Tally};

/// The share of counts at each value of a histogram, one curve per point (laid out by
/// `lay_out_points` when there are many), from `first` to the value under which 99.5% of every
/// point's counts fall: the series, the last value and the highest share.
fn share_curves(
    run: &RunResult,
    histogram: impl Fn(&Tally) -> &crate::stats::Histogram,
    first: usize,
) -> (Vec<Series>, u32, f64) {
    let chosen: Vec<usize> = (0..run.tallies.len()).collect();
    let mut last = 1;
    for &i in &chosen {
        last = last.max(histogram(&run.tallies[i]).quantile(0.995).unwrap_or(1));
    }
    let mut series = Vec::new();
    let mut top: f64 = 1.0;
    for &i in &chosen {
        let h = histogram(&run.tallies[i]);
        let n = h.count().max(1) as f64;
        let mut points: Vec<(f64, f64)> = h
            .bins()
            .iter()
            .enumerate()
            .take(last as usize + 1)
            .skip(first)
            .map(|(v, &c)| (v as f64, 100.0 * c as f64 / n))
            .collect();
        // The last bin also holds the values above it, as the captions say.
        let above: u64 = h.bins().iter().skip(last as usize + 1).sum();
        if let Some(p) = points.last_mut() {
            p.1 += 100.0 * above as f64 / n;
        }
        top = points.iter().fold(top, |m, p| m.max(p.1));
        series.push(Series {
            label: point_label(run, i),
            points,
            band: None,
            look: Look::Bins,
            ink: point_ink(run, i),
            cases: h.count(),
        });
    }
    (series, last, top)
}

/// "Knight against Brigand": who fights, for a chart's title.
fn against(run: &RunResult) -> String {
    let [a, b] = side_words(run);
    format!("{} against {}", a.name, b.name)
}

/// "duel" or "fight" (sides of several).
fn trial(run: &RunResult) -> &'static str {
    Words::of(run).trial()
}

/// "duels" or "fights" (sides of several).
fn trials(run: &RunResult) -> &'static str {
    Words::of(run).trials()
}

/// How many rounds duels last, one curve per point.
pub(super) fn rounds(run: &RunResult) -> Chart {
    // A duel lasts at least one round: no point at round 0 (a ramp from nothing).
    let (series, last, top) = share_curves(run, |t| &t.rounds, 1);
    Chart {
        name: "rounds".into(),
        title: format!("How many rounds a {} lasts: {}", trial(run), against(run)),
        caption: format!(
            "Share of {0} ending after each number of rounds (the last bin also holds {0} stopped at the round limit).",
            trials(run)
        ),
        height: 620,
        width: WIDTH,
        plot: Plot::Lines {
            legend_title: swept_title(run),
            x_label: "rounds".into(),
            y_label: format!("share of {} (%)", trials(run)),
            x_range: (0.5, f64::from(last) + 0.5),
            y_range: (0.0, top * 1.08),
            series,
            integer_x: true,
        },
    }
}

/// The share of duels decided by each round: how often it is over in N rounds.
pub(super) fn rounds_decided(run: &RunResult) -> Chart {
    let (mut series, last, _) = share_curves(run, |t| &t.rounds, 1);
    for s in &mut series {
        let mut total = 0.0;
        for p in &mut s.points {
            total += p.1;
            p.1 = total.min(100.0);
        }
        s.look = Look::Step;
    }
    Chart {
        name: "rounds-decided".into(),
        title: format!(
            "Share of {} over by each round: {}",
            trials(run),
            against(run)
        ),
        caption: format!(
            "Share of {} that have ended by the end of each round (cumulative; the rest go on, or reach the round limit).",
            trials(run)
        ),
        height: 620,
        width: WIDTH,
        plot: Plot::Lines {
            legend_title: swept_title(run),
            x_label: "rounds".into(),
            y_label: format!("{} over (%)", trials(run)),
            x_range: (0.5, f64::from(last) + 0.5),
            y_range: (0.0, 100.0),
            series,
            integer_x: true,
        },
    }
}

/// What the hits of `striker` do: the share of its hits at each damage after armour, one curve
/// per point (the ruleset's own unit: damage, wound circle, injury level); `None` when it never
/// hit. With the panel title that names the striker.
pub(super) fn damage_per_hit(run: &RunResult, striker: Side) -> Option<(String, Chart)> {
    let s = striker.index();
    if run.tallies.iter().all(|t| t.hit_damage[s].count() == 0) {
        return None;
    }
    let name = &side_names(run)[s].name;
    let (series, last, top) = share_curves(run, |t| &t.hit_damage[s], 0);
    // What each ruleset records for a hit, in its own words.
    let (unit, zero) = crate::rules::registry::info(run.scenario.ruleset)
        .map_or(("damage after armour", "the armour stopped it all"), |r| {
            r.hit_words
        });
    let chart = Chart {
        name: "damage-per-hit".into(),
        title: format!("What a hit by {name} does"),
        caption: format!(
            "Share of hits at each {unit} (0: {zero}); the last bin also holds larger values."
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
    };
    Some((format!("Hits by {name}"), chart))
}

/// How likely a hit of `striker` is to do at least each amount (1 and up): the shares of
/// [`damage_per_hit`] summed from the top, as AnyDice's "at least" view; `None` when it never
/// hit. With the panel title that names the striker.
pub(super) fn damage_at_least(run: &RunResult, striker: Side) -> Option<(String, Chart)> {
    let (panel, mut chart) = damage_per_hit(run, striker)?;
    let name = &side_names(run)[striker.index()].name;
    let (unit, _) = crate::rules::registry::info(run.scenario.ruleset)
        .map_or(("damage after armour", ""), |r| r.hit_words);
    if let Plot::Lines {
        series,
        x_range,
        y_range,
        y_label,
        ..
    } = &mut chart.plot
    {
        for s in series.iter_mut() {
            let mut total = 0.0;
            for p in s.points.iter_mut().rev() {
                total += p.1;
                p.1 = total.min(100.0);
            }
            s.points.retain(|p| p.0 >= 1.0);
        }
        x_range.0 = 0.5;
        *y_range = (0.0, 100.0);
        *y_label = "hits doing at least this (%)".into();
    }
    chart.name = "damage-at-least".into();
    chart.title = format!("How likely a hit by {name} does at least each {unit}");
    chart.caption =
        format!("Share of hits that do at least each {unit}: at 3, the hits that do 3 or more.");
    Some((panel, chart))
}

/// What a hit does when a hit records a level with a name (zone-d100's injury levels, `levels`
/// value by value): the shares of each fighter's hits at each level as stacked bars, a bar per
/// fighter and point, so the ordinal levels read by name rather than as points on a line.
pub(super) fn hit_levels(run: &RunResult, levels: &[&str]) -> Chart {
    let names = side_names(run).map(|side| side.name);
    let (unit, zero) = crate::rules::registry::info(run.scenario.ruleset)
        .map_or(("level", "none"), |r| r.hit_words);
    let unit = unit.split(" (").next().unwrap_or(unit);
    let per_side = (MAX_ROWS / 2).max(1);
    let shown = spread(run.tallies.len(), per_side);
    let swept = !run.scenario.points[0].swept.is_empty();
    let mut rows = Vec::new();
    for side in Side::BOTH {
        let s = side.index();
        for &i in &shown {
            let h = &run.tallies[i].hit_damage[s];
            let n = h.count().max(1) as f64;
            let mut shares: Vec<f64> = (0..levels.len())
                .map(|v| 100.0 * h.bins().get(v).copied().unwrap_or(0) as f64 / n)
                .collect();
            // Anything above the last named level counts with it.
            let above: u64 = h.bins().iter().skip(levels.len()).sum();
            if let Some(last) = shares.last_mut() {
                *last += 100.0 * above as f64 / n;
            }
            let label = if swept {
                format!("{}: {}", names[s], point_label(run, i))
            } else {
                names[s].to_owned()
            };
            rows.push((label, shares));
        }
    }
    Chart {
        name: "damage-per-hit".into(),
        title: format!("What a hit does: {}", against(run)),
        caption: format!(
            "Share of each fighter's hits at each {unit} ({}: {zero}), a bar per fighter{}.{}",
            levels.first().copied().unwrap_or("0"),
            if swept { " and point" } else { "" },
            shown_note(shown.len(), run.tallies.len())
        ),
        height: bar_height(rows.len()) + 60,
        width: WIDTH,
        plot: Plot::Stacked {
            x_label: "share of hits".into(),
            y_label: if swept {
                format!("fighter: {}", swept_title(run))
            } else {
                "fighter".into()
            },
            segments: (levels.iter().enumerate())
                .map(|(k, &l)| {
                    let ink = Ink::Ordered {
                        at: k,
                        of: levels.len(),
                    };
                    (l.to_owned(), ink)
                })
                .collect(),
            rows,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::plan;
    use crate::report::charts::tests::{finished_run, scenario};

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
    fn a_duel_with_hits_draws_what_each_fighters_hits_do() {
        let s = scenario();
        let run = finished_run(&s);
        let charts = plan(&run);
        let chart = charts
            .iter()
            .find(|c| c.name == "damage-per-hit")
            .unwrap_or_else(|| panic!("no damage-per-hit chart"));
        let Plot::Panels { panels } = &chart.plot else {
            panic!("a panel per fighter");
        };
        let titles: Vec<&str> = panels.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(titles, ["Hits by Knight", "Hits by Brigand"]);
        for (side, (_, plot)) in panels.iter().enumerate() {
            let Plot::Lines { series, .. } = plot else {
                panic!("a line chart");
            };
            assert_eq!(series.len(), run.tallies.len());
            for (line, t) in series.iter().zip(&run.tallies) {
                let total: f64 = line.points.iter().map(|p| p.1).sum();
                assert!(total > 50.0 && total <= 100.0 + 1e-9, "{total}");
                // Each panel's shares are of that fighter's hits alone.
                let h = &t.hit_damage[side];
                let expected = 100.0 * h.bins()[3] as f64 / h.count() as f64;
                let drawn = line.points.iter().find(|p| p.0 == 3.0).map_or(0.0, |p| p.1);
                assert!((drawn - expected).abs() < 1e-9, "{drawn} {expected}");
            }
        }
    }
}
