//! The notes and colours a chart adds to the report's words: how many points are drawn, which
//! curves coincide or are alike, and the ink of each point's curve.

use super::model::{Ink, Series};
use crate::report::run::RunResult;

/// The ink of the `at`-th of `values` of a swept value: a sequential scale when every value
/// is a number (an ordered value), else a categorical colour.
pub(super) fn value_ink(values: &[String], at: usize) -> Ink {
    if values.len() > 1 && values.iter().all(|v| v.parse::<f64>().is_ok()) {
        Ink::Ordered {
            at,
            of: values.len(),
        }
    } else {
        Ink::Category(at)
    }
}

/// The ink of point `i`'s curve: with one value swept, that value's place among its values
/// (ordered or not); with several or none, a categorical colour by point.
pub(super) fn point_ink(run: &RunResult, i: usize) -> Ink {
    let swept = run.scenario.swept_values();
    match (swept.as_slice(), run.scenario.points[i].swept.first()) {
        ([(_, values)], Some((_, v))) => {
            value_ink(values, values.iter().position(|x| x == v).unwrap_or(0))
        }
        _ => Ink::Category(i),
    }
}

pub(super) fn shown_note(shown: usize, total: usize) -> String {
    if shown < total {
        format!(" {shown} of the {total} points are drawn; every point is in distributions.csv.")
    } else {
        String::new()
    }
}

/// Whether two curves lie on top of each other: within 1.5% of the axis's `span` everywhere,
/// or, for shares of a known number of cases, within 4.5 standard errors of their difference
/// (no difference the trials can tell).
pub(super) fn alike(a: &Series, b: &Series, span: f64) -> bool {
    let noise = |p: f64, n: u64| {
        let p = (p / 100.0).clamp(0.0, 1.0);
        if n == 0 {
            0.0
        } else {
            p * (1.0 - p) / n as f64
        }
    };
    let known = a.cases > 0 && b.cases > 0;
    a.points.len() == b.points.len()
        && (a.points.iter().zip(&b.points)).all(|(p, q)| {
            let sigma = 100.0 * (noise(p.1, a.cases) + noise(q.1, b.cases)).sqrt();
            let within = if known { 4.5 * sigma } else { 0.0 };
            p.0 == q.0 && (p.1 - q.1).abs() <= within.max(0.015 * span)
        })
}

/// Says which curves lie on top of each other (within 1.5% of the axis everywhere), so that a
/// reader who sees fewer lines than the legend lists knows why.
pub(super) fn coinciding_note(series: &[Series], span: f64) -> String {
    let close = |a: &Series, b: &Series| alike(a, b, span);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::model::Look;

    #[test]
    fn curves_that_coincide_are_named_in_the_caption() {
        let curve = |label: &str, lift: f64| Series {
            label: label.into(),
            points: (0..5)
                .map(|x| (f64::from(x), 10.0 * f64::from(x) + lift))
                .collect(),
            band: None,
            look: Look::Line,
            ink: Ink::Category(0),
            cases: 0,
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
}
