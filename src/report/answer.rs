//! The answer of a finished run, for the terminal and for scripts: the headline rates with
//! their 95% intervals for a single point, a compact table for a sweep (capped, the rest in
//! `summary.csv`), each point's difference from the baseline for a `[compare]` or `[weights]`.
//! Swept values and rates are in words (the same results as JSON: [`super::json`]).

use super::results::rates;
use super::run::RunResult;
use super::words::{axis_title, point_phrase, value_words};
use crate::stats::wilson;
use std::fmt::Write as _;

/// The most points a sweep's terminal table lists; `summary.csv` has them all.
pub const MAX_LINES: usize = 20;

/// A rate with its interval as the terminal writes it: "51.3% [51.2, 51.4]".
fn percent(successes: u64, n: u64) -> String {
    if n == 0 {
        return "–".to_owned();
    }
    let (r, lo, hi) = wilson(successes, n);
    format!("{:.1}% [{:.1}, {:.1}]", 100.0 * r, 100.0 * lo, 100.0 * hi)
}

/// A difference in percentage points with its sign, never "-0.0".
fn points(x: f64) -> String {
    let text = format!("{:+.1}", 100.0 * x);
    if text == "-0.0" {
        "+0.0".to_owned()
    } else {
        text
    }
}

/// Columns padded to their widest cell, two spaces apart, each line indented by two.
fn aligned(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .map(|t| t.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let mut line = String::from(" ");
        for (cell, width) in row.iter().zip(&widths) {
            let _ = write!(line, " {cell:<width$} ");
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The run's answer for the terminal (stdout), ending with a newline.
pub fn text(run: &RunResult) -> String {
    let s = run.scenario;
    let Some(first) = s.points.first() else {
        return String::new();
    };
    let names = first.model.names();
    let rates = rates(run);
    let mut out = String::new();
    let who = if first.model.is_recovery() {
        format!("the healing of {}", names[0])
    } else if let Some(outline) = first.model.campaign() {
        let [a, _] = super::words::side_words(run);
        format!(
            "{} through {}",
            a.name,
            super::words::counted(outline.encounters.len() as u64, "encounter", "encounters")
        )
    } else {
        let [a, b] = super::words::side_words(run);
        format!("{} against {}", a.name, b.name)
    };
    if run.tallies.len() == 1 && first.swept.is_empty() {
        let t = &run.tallies[0];
        let _ = writeln!(out, "{}: {who}, {} trials", s.name, t.trials);
        if let Some(outline) = first.model.campaign() {
            let _ = writeln!(out, "  {}", super::campaign::headline(run, t, outline));
        }
        let rows: Vec<Vec<String>> = rates
            .iter()
            .map(|r| {
                let (c, n) = (r.count)(t);
                vec![r.title.clone(), percent(c, n)]
            })
            .collect();
        out.push_str(&aligned(&rows));
        return out;
    }
    if let Some(base) = s.baseline {
        let base_words = point_phrase(run, base);
        let _ = writeln!(
            out,
            "{}: {who}, each point against {base_words} on the same dice ({}, in percentage points, with 95% intervals)",
            s.name,
            super::words::side_words(run)[0].wins()
        );
        let mut rows = Vec::new();
        for (i, t) in run.tallies.iter().enumerate() {
            if i == base {
                continue;
            }
            if let Some((d, lo, hi)) = t.paired.delta(0) {
                rows.push(vec![
                    format!("{}:", point_phrase(run, i)),
                    format!("{} [{}, {}]", points(d), points(lo), points(hi)),
                ]);
            }
        }
        out.push_str(&aligned(&rows));
        return out;
    }
    // A sweep: the swept values in words, then the first three headline rates.
    let shown = &rates[..rates.len().min(3)];
    let mut head: Vec<String> = (first.swept.iter())
        .map(|(k, _)| axis_title(k, names, s.ruleset))
        .collect();
    head.extend(shown.iter().map(|r| r.title.clone()));
    let mut rows = vec![head];
    for (p, t) in s.points.iter().zip(&run.tallies).take(MAX_LINES) {
        let mut row: Vec<String> = (p.swept.iter())
            .map(|(k, v)| value_words(k, v, names, s.ruleset))
            .collect();
        row.extend(shown.iter().map(|r| {
            let (c, n) = (r.count)(t);
            percent(c, n)
        }));
        rows.push(row);
    }
    let _ = writeln!(out, "{}: {who}, {} points", s.name, s.points.len());
    out.push_str(&aligned(&rows));
    if run.tallies.len() > MAX_LINES {
        let _ = writeln!(
            out,
            "  ... {} more in summary.csv",
            run.tallies.len() - MAX_LINES
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::tests::{finished_run, scenario};

    #[test]
    fn a_sweep_prints_a_line_per_point_in_words_with_intervals() {
        let s = scenario();
        let run = finished_run(&s);
        let text = text(&run);
        let lines: Vec<&str> = text.lines().collect();
        // A title, a header, a line per point.
        assert_eq!(lines.len(), 2 + run.tallies.len(), "{text}");
        assert!(lines[0].starts_with("t: Knight against Brigand, 6 points"));
        assert!(lines[1].contains("Knight's weapon") && lines[1].contains("Knight wins"));
        assert!(
            !text.contains("a.weapon") && !text.contains("a_win"),
            "{text}"
        );
        let (c, n) = (
            run.tallies[0].wins(crate::stats::Side::A),
            run.tallies[0].trials,
        );
        assert!(lines[2].contains(&percent(c, n)), "{}", lines[2]);
    }

    #[test]
    fn a_difference_rounding_to_nothing_is_plus_zero() {
        assert_eq!(points(-0.0001), "+0.0");
        assert_eq!(points(0.123), "+12.3");
    }
}
