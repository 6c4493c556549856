//! `duelsim exact` end to end: the shipped table scenarios write exact.csv (whose fractions sum
//! to exactly 1 each way), grid.csv and the print-ready heatmap, for every ruleset with a shipped
//! grid; a recovery scenario (no exchange) and bad grids are input errors.

mod common;
use common::duelsim;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duelsim-exact-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

fn text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}

/// Adds fractions exactly: (numerator, denominator).
fn add(a: (u128, u128), b: (u128, u128)) -> (u128, u128) {
    let d = a.1 / gcd(a.1, b.1) * b.1;
    let n = a.0 * (d / a.1) + b.0 * (d / b.1);
    let g = gcd(n, d);
    (n / g, d / g)
}

#[test]
fn exact_tables_sum_to_one_exactly_and_the_grid_is_written_for_print() {
    for (file, cells, rows) in [
        ("scenarios/twin-d20/to-hit-table.toml", 256, "a.attack,"),
        ("scenarios/guard-pierce/guard-table.toml", 256, "a.attack,"),
        (
            "scenarios/zone-d100/mace-strike-table.toml",
            196,
            "a.melee_ml,",
        ),
    ] {
        let dir = scratch(&file.replace('/', "-"));
        let o = duelsim(&["exact", file, "-q", "-o", &dir.to_string_lossy()]);
        assert!(
            o.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let csv = text(&dir.join("exact.csv"));
        let mut lines = csv.lines();
        assert_eq!(
            lines.next(),
            Some("direction,outcome,value,probability,numerator,denominator")
        );
        let mut sums = std::collections::BTreeMap::new();
        for line in lines {
            let cells: Vec<&str> = line.split(',').collect();
            assert_eq!(cells.len(), 6, "{line}");
            let (n, d): (u128, u128) = match (cells[4].parse(), cells[5].parse()) {
                (Ok(n), Ok(d)) => (n, d),
                _ => panic!("{line}"),
            };
            let p: f64 = cells[3].parse().unwrap_or(f64::NAN);
            assert!((p - n as f64 / d as f64).abs() < 1e-8, "{line}");
            if cells[1] != "mark" {
                let sum = sums
                    .entry((cells[0].to_owned(), cells[1].to_owned()))
                    .or_insert((0, 1));
                *sum = add(*sum, (n, d));
            }
        }
        assert_eq!(
            sums.len(),
            4,
            "{file}: result and value, each way: {sums:?}"
        );
        for (key, sum) in &sums {
            assert_eq!(*sum, (1, 1), "{file}: {key:?} sums to {sum:?}");
        }
        let grid = text(&dir.join("grid.csv"));
        assert_eq!(grid.lines().count(), cells + 1, "{file}");
        assert!(grid.starts_with(rows), "{grid}");
        let svg = text(&dir.join("charts/grid.svg"));
        assert!(svg.contains("<title>") && svg.contains("colour scale"));
        assert!(
            svg.contains("(exact)</title>"),
            "each cell's hover says it is exact"
        );
        // Every cell's number is printed in it.
        assert!(
            svg.matches("%\n</text>").count() >= cells,
            "{file}: numbers in the cells"
        );
        for chart in [
            "exact-a",
            "exact-a-values",
            "exact-b",
            "exact-b-values",
            "grid",
        ] {
            assert!(dir.join(format!("charts/{chart}.png")).exists(), "{chart}");
        }
        let report = text(&dir.join("report.html"));
        assert!(report.contains("The rulebook table"), "{file}");
        assert!(report.contains("href=\"tables/grid.md\""), "{file}");
        // The rulebook grid as Markdown: a row per row value, a column per column value, each
        // cell a percentage; three tables (hit, best hit kind, mean).
        let md = text(&dir.join("tables/grid.md"));
        let first_cells: Vec<&str> = grid
            .lines()
            .skip(1)
            .map(|l| l.split(',').next().unwrap_or_default())
            .collect();
        let row_count = {
            let mut v = first_cells.clone();
            v.dedup();
            v.len()
        };
        let table_rows = md.lines().filter(|l| l.starts_with("| ")).count();
        assert_eq!(table_rows, 3 * (row_count + 2), "{file}: {md}");
        assert_eq!(md.matches("\n# ").count() + 1, 1, "{file}: one title");
        assert!(
            !md.contains("a.attack") && !md.contains("a.melee_ml"),
            "{md}"
        );
    }
}

#[test]
fn fractions_on_request_write_each_cells_exact_chance() {
    let dir = scratch("fractions");
    let scenario = dir.join("fractions.toml");
    let shipped = text(Path::new("scenarios/twin-d20/to-hit-table.toml"));
    std::fs::write(
        &scenario,
        shipped.replace("[exact]\n", "[exact]\nfractions = true\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let out = dir.join("out");
    let o = duelsim(&[
        "exact",
        &scenario.to_string_lossy(),
        "-q",
        "-o",
        &out.to_string_lossy(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Attack 5 against Defense 4: 39 of the 400 pairs of d20 hit (9.75%, never "9.8%").
    let grid = text(&out.join("grid.csv"));
    let cell = grid
        .lines()
        .find(|l| l.starts_with("5,4,"))
        .unwrap_or_else(|| panic!("{grid}"));
    assert!(cell.contains(",39/400,"), "{cell}");
    let md = text(&out.join("tables/grid.md"));
    let row = md
        .lines()
        .find(|l| l.starts_with("| 5 |"))
        .unwrap_or_else(|| panic!("{md}"));
    assert_eq!(row.split(" | ").nth(5), Some("39/400"), "{row}");
    assert!(text(&out.join("report.html")).contains("39/400<br>"));
    // Without the request, the same cell is a percentage to two decimals.
    let plain = dir.join("plain");
    let o = duelsim(&[
        "exact",
        "scenarios/twin-d20/to-hit-table.toml",
        "-q",
        "-o",
        &plain.to_string_lossy(),
    ]);
    assert!(o.status.success());
    let md = text(&plain.join("tables/grid.md"));
    let row = md
        .lines()
        .find(|l| l.starts_with("| 5 |"))
        .unwrap_or_else(|| panic!("{md}"));
    assert_eq!(row.split(" | ").nth(5), Some("9.75%"), "{row}");
}

#[test]
fn a_scenario_without_an_exchange_and_a_bad_grid_are_input_errors() {
    let dir = scratch("refused");
    let o = duelsim(&[
        "exact",
        "scenarios/zone-d100/recovery-g4-shoulder-healers.toml",
        "-o",
        &dir.join("recovery").to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(err.contains("recovery scenario has no exchange"), "{err}");
    assert!(!dir.join("recovery").exists());
    let shipped = text(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios/twin-d20/to-hit-table.toml")
            .as_path(),
    );
    for (grid, expected) in [
        (
            "grid = { \"a.attack\" = { from = 5, to = 99 } }",
            "a.attack",
        ),
        (
            "grid = { \"a.attack\" = { from = 5 } }",
            "expected { from = N, to = M }",
        ),
        (
            "grid = { \"a.attack\" = { from = 1, to = 2 }, \"a.defense\" = { from = 1, to = 2 }, \"b.defense\" = { from = 1, to = 2 } }",
            "expected one or two",
        ),
        (
            "grid = { \"a.attack\" = { from = 1, to = 2 } }\nfractions = \"yes\"",
            "exact.fractions",
        ),
        ("fractions = true", "set without a grid"),
    ] {
        let file = dir.join("bad.toml");
        let written = shipped
            .lines()
            .map(|l| if l.starts_with("grid = ") { grid } else { l })
            .collect::<Vec<_>>()
            .join("\n");
        std::fs::write(&file, written).unwrap_or_else(|e| panic!("{e}"));
        let o = duelsim(&[
            "exact",
            &file.to_string_lossy(),
            "-o",
            &dir.join("out").to_string_lossy(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{grid}: {err}");
        assert!(err.contains(expected), "{grid}: {err}");
        assert!(
            err.lines().next().is_some_and(|l| l.contains("bad.toml:")),
            "{err}"
        );
        assert!(!dir.join("out").exists());
    }
}
