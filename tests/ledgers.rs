//! The rule ledgers in `docs/rules/*.md` name the tests that prove each rule sentence: every
//! test name they cite must be a test function in the code, so a ledger cannot rot.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every `fn name` in the crate's sources and tests.
fn functions(root: &Path) -> BTreeSet<String> {
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    rust_files(&root.join("tests"), &mut files);
    rust_files(&root.join("benches"), &mut files);
    let mut names = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        for piece in text.split("fn ").skip(1) {
            let name: String = piece
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                names.insert(name);
            }
        }
    }
    names
}

/// The backticked names in a ledger row's last cell that read as test names: a snake_case
/// last path segment longer than 25 characters, or one cut short with "…".
fn cited_tests(cell: &str) -> Vec<String> {
    cell.split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|quoted| {
            let last = quoted.rsplit("::").next().unwrap_or(quoted);
            let stem = last.trim_end_matches('…');
            let snake = !stem.is_empty()
                && stem
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            let cut = last.ends_with('…');
            (snake && (cut || stem.len() > 25)).then(|| last.to_owned())
        })
        .collect()
}

#[test]
fn every_test_a_rule_ledger_cites_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let functions = functions(root);
    let mut cited = 0;
    let mut missing = Vec::new();
    let mut ledgers = 0;
    for entry in std::fs::read_dir(root.join("docs/rules"))
        .into_iter()
        .flatten()
        .flatten()
    {
        let path = entry.path();
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        ledgers += text
            .lines()
            .filter(|l| l.starts_with('#') && l.to_lowercase().contains("rule ledger"))
            .count();
        // Every table whose last column is "Test" (the ledgers and the rule-to-code maps).
        let mut in_test_table = false;
        let mut previous_row = false;
        for line in text.lines() {
            let row = line.starts_with('|');
            if row && !previous_row {
                in_test_table = line
                    .trim_end()
                    .trim_end_matches('|')
                    .trim_end()
                    .ends_with("Test");
            }
            previous_row = row;
            if !row || !in_test_table {
                continue;
            }
            let cells: Vec<&str> = line.trim_end_matches('|').split(" | ").collect();
            let Some(last) = cells.last() else { continue };
            for name in cited_tests(last) {
                cited += 1;
                let found = match name.strip_suffix('…') {
                    Some(prefix) => functions.iter().any(|f| f.starts_with(prefix)),
                    None => functions.contains(&name),
                };
                if !found {
                    missing.push(format!("{}: {name}", path.display()));
                }
            }
        }
    }
    assert!(
        ledgers >= 5,
        "a rule ledger in each ruleset's page, found {ledgers}"
    );
    assert!(
        cited > 100,
        "only {cited} test names cited: is the parsing right?"
    );
    assert!(
        missing.is_empty(),
        "cited but not found:\n{}",
        missing.join("\n")
    );
}
