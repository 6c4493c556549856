//! Tables for a rulebook, written beside the CSV files under `tables/`: the headline results as
//! a Markdown table (`tables/results.md`), and for a sweep of two values a pivot per headline
//! rate (`tables/a_win_rate.md` and `.csv`): rows the first swept value, columns the second,
//! each cell the rate (with its 95% interval in the CSV). Swept values and fighters are in
//! words; the raw paths and column names stay in `summary.csv`.

use super::csv::csv_field;
use super::markdown::markdown;
use super::results::{
    BalanceTable, Cell, Differences, Fighters, Pivot, balance_table, differences, fighters,
    footnote, percent, pivot_titles, pivots, rates,
};
use super::run::RunResult;
use super::words::{Words, axis_title, mean_words, point_phrase, side_words, signed, value_words};

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

/// Each fighter as Markdown: the point's values, the fighter's name and its rates.
fn fighters_md(run: &RunResult, table: &Fighters) -> String {
    let s = run.scenario;
    let names = s.points[0].model.names();
    let mut head: Vec<String> = match s.points[0].swept.as_slice() {
        [] => vec![Words::of(run).trial().to_owned()],
        swept => (swept.iter())
            .map(|(k, _)| axis_title(k, names, s.ruleset))
            .collect(),
    };
    let keys = head.len() + 1;
    head.push("fighter".to_owned());
    head.extend(table.head.iter().cloned());
    let rows: Vec<Vec<String>> = (table.rows.iter())
        .map(|(k, name, cells)| {
            let p = &s.points[*k];
            let mut row: Vec<String> = if p.swept.is_empty() {
                let [a, b] = side_words(run);
                vec![format!("{} against {}", a.name, b.name)]
            } else {
                (p.swept.iter())
                    .map(|(key, v)| value_words(key, v, p.model.names(), s.ruleset))
                    .collect()
            };
            row.push(name.clone());
            row.extend(cells.iter().map(|&cell| match cell {
                Cell::Rate(c, n) => percent(c, n),
                Cell::Mean(v, cases) => mean_words(v, cases),
            }));
            row
        })
        .collect();
    format!(
        "{}\nPercentages of {} for a fighter's fate, of its wounded survivals for its healing.\n",
        markdown(&head, &rows, keys),
        Words::of(run).trials()
    )
}

/// The differences from the baseline as Markdown, each with its 95% interval in brackets.
fn differences_md(run: &RunResult, table: &Differences) -> String {
    let rows: Vec<Vec<String>> = (table.rows.iter())
        .map(|(_, what, cells)| {
            let mut row = vec![what.clone()];
            row.extend(cells.iter().map(|cell| match cell {
                Some((d, lo, hi)) => {
                    format!("{} [{}, {}]", signed(*d, 2), signed(*lo, 2), signed(*hi, 2))
                }
                None => "baseline".to_owned(),
            }));
            row
        })
        .collect();
    format!(
        "Differences from {} on the same dice.\n\n{}\nWins and draws in percentage points, rounds and deaths in recovery per {}; each with its 95% interval.\n",
        point_phrase(run, table.base),
        markdown(&table.head, &rows, 1),
        Words::of(run).trial()
    )
}

/// The answers of a balance over two swept values as a pivot: rows the first value, columns
/// the second, each cell the value found (from the rows of [`balance_table`], whose third
/// column it is).
fn balance_pivot(head: &[String], rows: &[Vec<String>]) -> (Vec<String>, Vec<Vec<String>>) {
    let mut columns: Vec<&str> = Vec::new();
    let mut row_names: Vec<&str> = Vec::new();
    for row in rows {
        if !row_names.contains(&row[0].as_str()) {
            row_names.push(&row[0]);
        }
        if !columns.contains(&row[1].as_str()) {
            columns.push(&row[1]);
        }
    }
    let found = |r: &str, c: &str| {
        (rows.iter())
            .find(|row| row[0] == r && row[1] == c)
            .map_or_else(|| "–".to_owned(), |row| row[2].clone())
    };
    let mut pivot_head = vec![format!("{}: {} \\ {}", head[2], head[0], head[1])];
    pivot_head.extend(columns.iter().map(|c| (*c).to_owned()));
    let pivot_rows = (row_names.iter())
        .map(|r| {
            let mut row = vec![(*r).to_owned()];
            row.extend(columns.iter().map(|c| found(r, c)));
            row
        })
        .collect();
    (pivot_head, pivot_rows)
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
    if let Some(table) = fighters(run) {
        files.push((
            "tables/fighters.md".to_owned(),
            fighters_md(run, &table).into_bytes(),
        ));
    }
    if let Some(table) = differences(run) {
        files.push((
            "tables/differences.md".to_owned(),
            differences_md(run, &table).into_bytes(),
        ));
    }
    if let Some(BalanceTable {
        head,
        rows,
        keys,
        note,
    }) = balance_table(run)
    {
        // Over two swept values, the answers pivoted as a rulebook prints them first.
        let pivot = (keys == 2)
            .then(|| balance_pivot(&head, &rows))
            .map_or_else(String::new, |(head, rows)| {
                format!("{}\n", markdown(&head, &rows, 1))
            });
        files.push((
            "tables/balance.md".to_owned(),
            format!(
                "{pivot}{}\n\nEach row is the search of its sweep point alone, on the same dice as every other.{note}\n",
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

    /// The file `name` of a run's tables, as text.
    fn table_file(run: &RunResult, name: &str) -> String {
        let files = tables(run);
        let (_, bytes) = (files.iter())
            .find(|(n, _)| n == name)
            .unwrap_or_else(|| panic!("no {name}"));
        String::from_utf8_lossy(bytes).into_owned()
    }

    #[test]
    fn weights_write_their_differences_largest_first_without_empty_columns() {
        let text = "name = \"t\"\nruleset = \"twin-d20\"\ntrials = 8192\n[a]\nname = \"Knight\"\nattack = 13\ndefense = 6\ntoughness = 9\nweapon = \"sword\"\n[b]\nname = \"Brigand\"\nattack = 12\ndefense = 8\ntoughness = 8\nweapon = \"sword\"\n[weapons.sword]\ndamage = 3\n[weights]\n\"a.attack\" = 4\n\"a.defense\" = 1\n";
        let s = crate::rules::registry::parse(std::path::Path::new("t.toml"), text)
            .unwrap_or_else(|e| panic!("{e}"));
        let run = finished_run(&s);
        let md = table_file(&run, "tables/differences.md");
        assert!(md.starts_with("Differences from the baseline"), "{md}");
        // Attack +4 moves the win rate more than defense +1: it comes first, after the
        // baseline's own row.
        let attack = md.find("| Knight's attack +4 |");
        let defense = md.find("| Knight's defense +1 |");
        assert!(
            matches!((attack, defense), (Some(a), Some(d)) if a < d),
            "{md}"
        );
        // twin-d20 duels here have no draws and no deaths in recovery: no such columns.
        let head = md
            .lines()
            .find(|l| l.starts_with("| what changes"))
            .unwrap_or("");
        assert!(
            !head.contains("draws") && !head.contains("deaths"),
            "{head}"
        );
        assert!(
            head.contains("Knight wins") && head.contains("rounds"),
            "{head}"
        );
    }

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
