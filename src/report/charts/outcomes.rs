//! The outcome shares of a run, each a whole split into parts, one stacked bar per point: who
//! wins the duel (or draws), and how the wounded survivors (a recovery scenario's patients) end:
//! dead in recovery by cause, still wounded at the horizon, whole with a lasting impairment, or
//! whole.

use super::labels::shown_note;
use super::model::{Chart, Ink, MAX_ROWS, Plot, WIDTH, bar_height, death_ink};
use crate::report::run::RunResult;
use crate::report::words::Words;
use crate::report::words::{point_label, side_words, swept_title};
use crate::stats::ExtraKind;

/// The height of a stacked-bar chart of `rows` rows, with room for a legend of two lines.
fn stacked_height(rows: usize) -> u32 {
    bar_height(rows) + 60
}

/// Whose wounds these are, for a title: both fighters of a duel ("Knight and Brigand"), or a
/// recovery scenario's patient (named the same on both sides) once.
pub(super) fn whose(run: &RunResult) -> String {
    let names = run.scenario.points[0].model.names();
    if Words::of(run).recovery || names[0] == names[1] {
        names[0].to_owned()
    } else {
        let [a, b] = side_words(run);
        format!("{} and {}", a.name, b.name)
    }
}

/// Who wins each point's duels: a's wins, b's wins, draws.
pub(super) fn duel_outcomes(run: &RunResult) -> Chart {
    let (sides, words) = (side_words(run), Words::of(run));
    let shown = run.tallies.len().min(MAX_ROWS);
    let rows = (0..shown)
        .map(|i| {
            let t = &run.tallies[i];
            let n = t.trials.max(1) as f64;
            let share = |c: u64| 100.0 * c as f64 / n;
            (
                point_label(run, i),
                t.ends.iter().map(|&c| share(c)).collect(),
            )
        })
        .collect::<Vec<_>>();
    Chart {
        name: "outcomes".into(),
        title: format!(
            "How the {} ends: {} against {}",
            words.trial(),
            sides[0].name,
            sides[1].name
        ),
        caption: if words.campaign {
            format!(
                "Share of campaigns the party comes through (its last fight won), is beaten in, or turns back from or ends held to a draw, at each point.{}",
                shown_note(shown, run.tallies.len())
            )
        } else {
            format!(
                "Share of {} won by each side and drawn (at the round limit), at each point.{}",
                words.trials(),
                shown_note(shown, run.tallies.len())
            )
        },
        height: stacked_height(rows.len()),
        width: WIDTH,
        plot: Plot::Stacked {
            x_label: format!("share of {}", words.trials()),
            y_label: swept_title(run),
            segments: vec![
                (sides[0].wins(), Ink::Side(0)),
                (sides[1].wins(), Ink::Side(1)),
                (
                    if words.campaign {
                        "turns back or drawn".into()
                    } else {
                        "draw".into()
                    },
                    Ink::Draw,
                ),
            ],
            rows,
        },
    }
}

/// How the wounded survivors (or patients) end, at each point: died in recovery (by cause where
/// the ruleset counts causes), unhealed at the horizon, whole with a lasting impairment, whole.
/// Parts no point has are left out.
pub(super) fn recovery_outcomes(run: &RunResult) -> Option<Chart> {
    let first = run.tallies.first()?;
    let words = Words::of(run);
    let (who, sides) = (words.patients(), words.sides());
    let causes: Vec<(usize, String, Ink)> = (first.extras.iter().enumerate())
        .filter(|(_, e)| e.kind == ExtraKind::ShareOfPatients && e.name.starts_with("died_"))
        .map(|(i, e)| {
            (
                i,
                format!("died: {}", e.name["died_".len()..].replace('_', " ")),
                death_ink(e.name),
            )
        })
        .collect();
    let mut segments: Vec<(String, Ink)> =
        causes.iter().map(|(_, c, ink)| (c.clone(), *ink)).collect();
    let other = if causes.is_empty() {
        "died in recovery"
    } else {
        "died: other causes"
    };
    segments.extend([
        (other.to_owned(), Ink::Died(0)),
        ("unhealed at the horizon".to_owned(), Ink::Unhealed),
        ("whole, lasting impairment".to_owned(), Ink::WholeImpaired),
        ("whole".to_owned(), Ink::Whole),
    ]);
    let shown = run.tallies.len().min(MAX_ROWS);
    let mut rows: Vec<(String, Vec<f64>)> = (0..shown)
        .map(|i| {
            let t = &run.tallies[i];
            let r = t.recovery_pooled();
            let n = r.patients.max(1) as f64;
            let by_cause: Vec<u64> = causes.iter().map(|&(k, _, _)| t.extra[k]).collect();
            let other = r.deaths.saturating_sub(by_cause.iter().sum());
            let whole = r.days_to_whole.count();
            let counts = by_cause.into_iter().chain([
                other,
                r.unhealed,
                r.whole_impaired,
                whole.saturating_sub(r.whole_impaired),
            ]);
            (
                point_label(run, i),
                counts.map(|c| 100.0 * c as f64 / n).collect(),
            )
        })
        .collect();
    if rows
        .iter()
        .all(|(_, shares)| shares.iter().all(|&s| s == 0.0))
    {
        return None;
    }
    // Leave out the parts no point has.
    let used: Vec<bool> = (0..segments.len())
        .map(|k| rows.iter().any(|(_, shares)| shares[k] > 0.0))
        .collect();
    segments = (segments.into_iter().zip(&used))
        .filter_map(|(s, &u)| u.then_some(s))
        .collect();
    for (_, shares) in &mut rows {
        *shares = (shares.iter().zip(&used))
            .filter_map(|(&s, &u)| u.then_some(s))
            .collect();
    }
    Some(Chart {
        name: "recovery-outcomes".into(),
        title: format!("How the {who} end: {}", whose(run)),
        caption: format!(
            "Share of all {who}{sides} who died in recovery, were still wounded at the horizon, or were whole, with or without a lasting impairment, at each point.{}",
            shown_note(shown, run.tallies.len())
        ),
        height: stacked_height(rows.len()),
        width: WIDTH,
        plot: Plot::Stacked {
            x_label: format!("share of {who}"),
            y_label: swept_title(run),
            segments,
            rows,
        },
    })
}
