//! Tables for a rulebook, written beside the CSV files under `tables/`: the headline results as
//! a Markdown table (`tables/results.md`), and for a sweep of two values a pivot per headline
//! rate (`tables/a_win_rate.md` and `.csv`): rows the first swept value, columns the second,
//! each cell the rate (with its 95% interval in the CSV). Swept values and fighters are in
//! words; the raw paths and column names stay in `summary.csv`.

use super::charts::{axis_title, value_words};
use super::{RunResult, Words, side_words};
use crate::stats::{Side, Tally, wilson};
use std::fmt::Write as _;

/// A headline rate: its file stem, its heading in words, and its count and base in a tally.
pub(super) struct Rate {
    pub(super) stem: &'static str,
    pub(super) title: String,
    pub(super) count: fn(&Tally) -> (u64, u64),
}

/// The headline rates of this run: the duel's (not for a recovery scenario) and the healing's
/// where the ruleset has them.
pub(super) fn rates(run: &RunResult) -> Vec<Rate> {
    let sides = side_words(run);
    let recovery = Words::of(run).recovery;
    let who = Words::of(run).patients();
    let info = crate::rules::registry::info(run.scenario.ruleset);
    let mut rates = Vec::new();
    if !recovery {
        rates.extend([
            Rate {
                stem: "a_win_rate",
                title: sides[0].wins(),
                count: |t| (t.wins(Side::A), t.trials),
            },
            Rate {
                stem: "b_win_rate",
                title: sides[1].wins(),
                count: |t| (t.wins(Side::B), t.trials),
            },
            Rate {
                stem: "draw_rate",
                title: "draws".to_owned(),
                count: |t| (t.draws(), t.trials),
            },
            Rate {
                stem: "a_dead_rate",
                title: sides[0].dies(),
                count: |t| (t.dead[0], t.fighter_trials(0)),
            },
            Rate {
                stem: "b_dead_rate",
                title: sides[1].dies(),
                count: |t| (t.dead[1], t.fighter_trials(1)),
            },
        ]);
    }
    rates.push(Rate {
        stem: "unhealed_rate",
        title: format!("{who} unhealed at the horizon"),
        count: |t| {
            let r = t.recovery_pooled();
            (r.unhealed, r.patients)
        },
    });
    if info.is_none_or(|i| i.recovery_deaths) {
        rates.push(Rate {
            stem: "recovery_death_rate",
            title: format!("{who} who die in recovery"),
            count: |t| {
                let r = t.recovery_pooled();
                (r.deaths, r.patients)
            },
        });
    }
    if info.is_none_or(|i| i.impairment) {
        rates.push(Rate {
            stem: "impairment_rate",
            title: format!("{who} left with lasting impairment"),
            count: |t| {
                let r = t.recovery_pooled();
                (r.impaired, r.patients)
            },
        });
    }
    rates
}

/// A rate as a rulebook prints it: "51.0%" (or "–" with nothing to count).
fn percent(count: u64, of: u64) -> String {
    if of == 0 {
        return "–".to_owned();
    }
    format!("{:.1}%", 100.0 * count as f64 / of as f64)
}

/// A Markdown cell: pipes escaped, lines joined.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// A Markdown table of `head` and `rows`, the first `left` columns left-aligned, the rest right.
pub(super) fn markdown(head: &[String], rows: &[Vec<String>], left: usize) -> String {
    let mut out = String::new();
    let line = |cells: &[String]| {
        format!(
            "| {} |\n",
            cells
                .iter()
                .map(|c| cell(c))
                .collect::<Vec<_>>()
                .join(" | ")
        )
    };
    out.push_str(&line(head));
    let rule: Vec<String> = (0..head.len())
        .map(|c| if c < left { "---" } else { "---:" }.to_owned())
        .collect();
    out.push_str(&line(&rule));
    for row in rows {
        out.push_str(&line(row));
    }
    out
}

/// A CSV field, quoted when it needs to be.
pub(super) fn csv_field(text: &str) -> String {
    let text = super::csv::text_cell(text);
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// The footnote under a table of `rates`: what they are percentages of, and the widest half
/// interval among them, so that no cell needs its own.
fn footnote(run: &RunResult, rates: &[Rate]) -> String {
    let words = Words::of(run);
    let widest = (run.tallies.iter())
        .flat_map(|t| rates.iter().map(move |r| (r.count)(t)))
        .filter(|&(c, n)| c > 0 && n > 0)
        .map(|(c, n)| {
            let (_, lo, hi) = wilson(c, n);
            50.0 * (hi - lo)
        })
        .fold(0.0_f64, f64::max);
    let of = if words.recovery {
        "patients".to_owned()
    } else {
        format!(
            "{} (of a side's fighters for its dead, of wounded survivors for their healing)",
            words.trials()
        )
    };
    format!("Percentages of {of}; each within ±{widest:.1} points (95% interval).")
}

/// Every table file of this run, as (name under the output folder, bytes).
pub fn tables(run: &RunResult) -> Vec<(String, Vec<u8>)> {
    let s = run.scenario;
    let Some(first) = s.points.first() else {
        return Vec::new();
    };
    let names = first.model.names();
    let rates = rates(run);
    let finished = s.points.iter().zip(&run.tallies);
    // The headline results: one row per point.
    let mut head: Vec<String> = if first.swept.is_empty() {
        vec![Words::of(run).trial().to_owned()]
    } else {
        (first.swept.iter())
            .map(|(k, _)| axis_title(k, names, s.ruleset))
            .collect()
    };
    head.extend(rates.iter().map(|r| r.title.clone()));
    let keys = head.len() - rates.len();
    let rows: Vec<Vec<String>> = finished
        .clone()
        .map(|(p, t)| {
            let mut row: Vec<String> = if p.swept.is_empty() {
                let [a, b] = side_words(run);
                vec![format!("{} against {}", a.name, b.name)]
            } else {
                (p.swept.iter())
                    .map(|(k, v)| value_words(k, v, names, s.ruleset))
                    .collect()
            };
            row.extend(rates.iter().map(|r| {
                let (c, n) = (r.count)(t);
                percent(c, n)
            }));
            row
        })
        .collect();
    let mut files = vec![(
        "tables/results.md".to_owned(),
        format!(
            "{}\n\n{}\n",
            markdown(&head, &rows, keys).trim_end(),
            footnote(run, &rates)
        )
        .into_bytes(),
    )];
    if let Some(BalanceTable {
        head,
        rows,
        keys,
        note,
    }) = balance_table(run)
    {
        files.push((
            "tables/balance.md".to_owned(),
            format!(
                "{}\n\nEach row is the search of its sweep point alone, on the same dice as every other.{note}\n",
                markdown(&head, &rows, keys).trim_end()
            )
            .into_bytes(),
        ));
    }
    // A pivot per rate for a sweep of two values (not of a [balance]'s values run, which
    // differ from one sweep point to the next).
    if let Some(pivots) = pivots(run) {
        for (rate, Pivot { head, rows, csv }) in rates.iter().zip(pivots) {
            files.push((
                format!("tables/{}.md", rate.stem),
                format!(
                    "{}: rows {}, columns {}.\n\n{}\n{}\n",
                    rate.title,
                    pivot_titles(run).0,
                    pivot_titles(run).1,
                    markdown(&head, &rows, 1),
                    footnote(run, std::slice::from_ref(rate))
                )
                .into_bytes(),
            ));
            files.push((format!("tables/{}.csv", rate.stem), csv.into_bytes()));
        }
    }
    files
}

/// One headline rate of a sweep of two values as a rulebook prints it: rows the first swept
/// value, columns the second, each cell the rate ("–" where the point did not finish); and the
/// same as CSV with each cell's 95% interval.
pub(super) struct Pivot {
    pub(super) head: Vec<String>,
    pub(super) rows: Vec<Vec<String>>,
    pub(super) csv: String,
}

/// The two swept values of a pivot in words: (rows, columns).
fn pivot_titles(run: &RunResult) -> (String, String) {
    let s = run.scenario;
    let names = s.points[0].model.names();
    let swept = s.swept_values();
    (
        axis_title(&swept[0].0, names, s.ruleset),
        axis_title(&swept[1].0, names, s.ruleset),
    )
}

/// A pivot per headline rate ([`rates`], in their order) for a sweep of exactly two values; not
/// for a `[balance]`'s values run, which differ from one sweep point to the next.
pub(super) fn pivots(run: &RunResult) -> Option<Vec<Pivot>> {
    let s = run.scenario;
    let first = s.points.first()?;
    if first.swept.len() != 2 || run.balance.is_some() {
        return None;
    }
    let names = first.model.names();
    let finished = s.points.iter().zip(&run.tallies);
    let swept = s.swept_values();
    let (row_key, row_values) = &swept[0];
    let (column_key, column_values) = &swept[1];
    let (row_title, column_title) = pivot_titles(run);
    let words = |k: &str, v: &String| value_words(k, v, names, s.ruleset);
    let pivot = |rate: &Rate| {
        let mut rows = Vec::new();
        let mut csv = csv_field(&format!("{row_title} \\ {column_title}"));
        for v in column_values {
            let v = words(column_key, v);
            let _ = write!(
                csv,
                ",{},{},{}",
                csv_field(&v),
                csv_field(&format!("{v} lo")),
                csv_field(&format!("{v} hi"))
            );
        }
        csv.push('\n');
        for rv in row_values {
            let mut row = vec![words(row_key, rv)];
            csv.push_str(&csv_field(&words(row_key, rv)));
            for cv in column_values {
                let found = finished
                    .clone()
                    .find(|(p, _)| p.swept[0].1 == *rv && p.swept[1].1 == *cv);
                match found {
                    Some((_, t)) => {
                        let (c, n) = (rate.count)(t);
                        row.push(percent(c, n));
                        let (r, lo, hi) = wilson(c, n);
                        let _ = write!(csv, ",{r:.6},{lo:.6},{hi:.6}");
                    }
                    None => {
                        row.push("–".to_owned());
                        csv.push_str(",,,");
                    }
                }
            }
            csv.push('\n');
            rows.push(row);
        }
        let mut head = vec![format!("{row_title} \\ {column_title}")];
        head.extend(column_values.iter().map(|v| words(column_key, v)));
        Pivot { head, rows, csv }
    };
    Some(rates(run).iter().map(pivot).collect())
}

/// Where a target the range does not reach lies, from the rate at its two ends: above the range
/// (`Some(true)`), below it (`Some(false)`), or unknown when the rate is the same at both.
pub(crate) fn beyond(at_from: f64, at_to: f64, target: f64) -> Option<bool> {
    let trend = at_to - at_from;
    (trend != 0.0).then_some(trend * (target - at_to) > 0.0)
}

/// The answers of a `[balance]` with a `[sweep]` as a table in words.
pub(super) struct BalanceTable {
    /// The column heads.
    pub(super) head: Vec<String>,
    /// A row per sweep point: its values, the value found, and the searched rate at the values
    /// around it.
    pub(super) rows: Vec<Vec<String>>,
    /// How many leading columns are the point's values.
    pub(super) keys: usize,
    /// A sentence to say under it (a split search's fewer halvings), or nothing.
    pub(super) note: String,
}

/// The answers of a `[balance]` with a `[sweep]` as a table in words; `None` for any other run.
pub(super) fn balance_table(run: &RunResult) -> Option<BalanceTable> {
    use crate::scenario::balance::Found;
    let marks = run.balance.as_ref().filter(|m| !m.points.is_empty())?;
    let s = run.scenario;
    let first = s.points.first()?;
    let names = first.model.names();
    let (path, _) = first.swept.last()?;
    let title = axis_title(path, names, s.ruleset);
    let mut head: Vec<String> = marks.points[0]
        .swept
        .iter()
        .map(|(k, _)| axis_title(k, names, s.ruleset))
        .collect();
    let keys = head.len();
    head.push(format!("{title} that {}", marks.goal));
    head.push(format!(
        "{} (95% interval), at the values around it",
        marks.rate
    ));
    let pct = |r: (f64, f64, f64)| {
        format!(
            "{:.1}% [{:.1}, {:.1}]",
            100.0 * r.0,
            100.0 * r.1,
            100.0 * r.2
        )
    };
    let (from, to) = marks.range;
    let mut notes: Vec<String> = Vec::new();
    let rows = marks
        .points
        .iter()
        .map(|point| {
            let mut row: Vec<String> = point
                .swept
                .iter()
                .map(|(k, v)| value_words(k, v, names, s.ruleset))
                .collect();
            let (value, rates) = match point.answer.found {
                Found::At(at, f) => (format!("{at}"), format!("{} at {at}", pct(f))),
                Found::Between([(lo, f_lo), (hi, f_hi)]) => (
                    format!("{lo}–{hi}"),
                    format!("{} at {lo}, {} at {hi}", pct(f_lo), pct(f_hi)),
                ),
                Found::Interpolated {
                    at: (at, at_lo, at_hi),
                    around: [(lo, f_lo), (hi, f_hi)],
                } => (
                    format!("{at:.2} [{at_lo:.2}, {at_hi:.2}]"),
                    format!("{} at {lo}, {} at {hi}", pct(f_lo), pct(f_hi)),
                ),
                Found::Unreachable([(lo, f_lo), (hi, f_hi)]) => {
                    let side = match beyond(f_lo.0, f_hi.0, marks.target) {
                        Some(true) => format!(" (it lies above {to})"),
                        Some(false) => format!(" (it lies below {from})"),
                        None => String::new(),
                    };
                    (
                        format!("not reachable from {from} to {to}{side}"),
                        format!("{} at {lo}, {} at {hi}", pct(f_lo), pct(f_hi)),
                    )
                }
            };
            if let Some(note) = &point.answer.note
                && !notes.contains(note)
            {
                notes.push(note.clone());
            }
            row.push(value);
            row.push(rates);
            row
        })
        .collect();
    let note = if notes.is_empty() {
        String::new()
    } else {
        format!(" The search was {}.", notes.join("; "))
    };
    Some(BalanceTable {
        head,
        rows,
        keys,
        note,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::tests::{finished_run, scenario};

    #[test]
    fn a_two_value_sweep_gets_a_pivot_per_rate_naming_every_value() {
        let s = scenario();
        let run = finished_run(&s);
        let files = tables(&run);
        let get = |name: &str| {
            files
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
                .unwrap_or_else(|| panic!("no {name}"))
        };
        let pivot = get("tables/a_win_rate.md");
        // Rows: the Knight's weapons; columns: the Brigand's attacks; no raw path.
        assert!(
            pivot.contains("| Knight's weapon \\ Brigand's attack | 9 | 12 | 15 |"),
            "{pivot}"
        );
        assert!(
            pivot.contains("| sword |") && pivot.contains("| club |"),
            "{pivot}"
        );
        assert!(
            !pivot.contains("a.weapon") && !pivot.contains("_rate"),
            "{pivot}"
        );
        // The club row at Attack 12 is point 4's rate.
        let t = &run.tallies[4];
        let cell = percent(t.wins(Side::A), t.trials);
        let club = pivot
            .lines()
            .find(|l| l.starts_with("| club |"))
            .unwrap_or_default();
        assert_eq!(club.split(" | ").nth(2), Some(cell.as_str()), "{club}");
        let csv = get("tables/a_win_rate.csv");
        assert_eq!(csv.lines().count(), 3, "{csv}");
        let results = get("tables/results.md");
        assert_eq!(
            results.lines().filter(|l| l.starts_with('|')).count(),
            2 + 6
        );
    }
}
