//! Tables for a rulebook, written beside the CSV files under `tables/`: the headline results as
//! a Markdown table (`tables/results.md`), and for a sweep of two values a pivot per headline
//! rate (`tables/a_win_rate.md` and `.csv`): rows the first swept value, columns the second,
//! each cell the rate (with its 95% interval in the CSV). Swept values and fighters are in
//! words; the raw paths and column names stay in `summary.csv`.

use super::csv::csv_field;
use super::markdown::markdown;
use super::results::{
    BalanceTable, Pivot, balance_table, footnote, percent, pivot_titles, pivots, rates,
};
use super::run::RunResult;
use super::words::{Words, axis_title, side_words, value_words};

use std::fmt::Write as _;

/// A pivot as CSV: its head with a low and a high column after each, its rows' names, and
/// each cell's rate and interval to six decimals (empty where the point did not finish).
fn pivot_csv(pivot: &Pivot) -> String {
    let mut csv = pivot.head.first().map(|h| csv_field(h)).unwrap_or_default();
    for v in pivot.head.iter().skip(1) {
        let _ = write!(
            csv,
            ",{},{},{}",
            csv_field(v),
            csv_field(&format!("{v} lo")),
            csv_field(&format!("{v} hi"))
        );
    }
    csv.push('\n');
    for (row, cells) in pivot.rows.iter().zip(&pivot.cells) {
        csv.push_str(&row.first().map(|name| csv_field(name)).unwrap_or_default());
        for cell in cells {
            match cell {
                Some((r, lo, hi)) => {
                    let _ = write!(csv, ",{r:.6},{lo:.6},{hi:.6}");
                }
                None => csv.push_str(",,,"),
            }
        }
        csv.push('\n');
    }
    csv
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
        for (rate, pivot) in rates.iter().zip(pivots) {
            let Pivot { head, rows, .. } = &pivot;
            files.push((
                format!("tables/{}.md", rate.stem),
                format!(
                    "{}: rows {}, columns {}.\n\n{}\n{}\n",
                    rate.title,
                    pivot_titles(run).0,
                    pivot_titles(run).1,
                    markdown(head, rows, 1),
                    footnote(run, std::slice::from_ref(rate))
                )
                .into_bytes(),
            ));
            files.push((
                format!("tables/{}.csv", rate.stem),
                pivot_csv(&pivot).into_bytes(),
            ));
        }
    }
    files
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::tests::{finished_run, scenario};
    use crate::stats::Side;

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
