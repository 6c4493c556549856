//! `--json` against the README's table: every kind of run (one point, a sweep with a baseline,
//! `[weights]`, `[balance]` with and without a sweep, a shard, a merge, a run stopped by
//! Ctrl-C) prints only keys the table documents, and together they print every key it
//! documents; the values agree with `summary.csv`.

mod common;
use common::duelsim;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duelsim-json-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

/// The key paths the README's JSON table documents.
fn documented() -> BTreeSet<String> {
    let readme = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md"))
        .unwrap_or_else(|e| panic!("{e}"));
    let section = readme
        .split("### JSON\n")
        .nth(1)
        .and_then(|s| s.split("\n#").next())
        .unwrap_or_else(|| panic!("the README has no JSON section"));
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once("` |"))
        .map(|(key, _)| key.to_owned())
        .collect()
}

/// Objects keyed by names a run decides (their keys are not paths of the schema), and answers,
/// whose three keys the table gives inline.
const NOT_DESCENDED: [&str; 5] = ["swept", "rates", "summary", "deltas", "answer"];

/// Every key path of a JSON value (`runs[].points[].swept`).
fn paths(value: &Value, at: &str, out: &mut BTreeSet<String>) {
    match value {
        Value::Object(map) => {
            for (key, inner) in map {
                let path = if at.is_empty() {
                    key.clone()
                } else {
                    format!("{at}.{key}")
                };
                // A list is documented as its elements (`runs[]`).
                if !inner.is_array() {
                    out.insert(path.clone());
                }
                if !NOT_DESCENDED.contains(&key.as_str()) {
                    paths(inner, &path, out);
                }
            }
        }
        Value::Array(items) => {
            let path = format!("{at}[]");
            if !items.is_empty() {
                out.insert(path.clone());
            }
            for item in items {
                paths(item, &path, out);
            }
        }
        _ => {}
    }
}

/// Runs duelsim and reads its stdout as one JSON document.
fn json_of(args: &[&str]) -> Value {
    let o = duelsim(args);
    assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", text(&o.stdout)))
}

/// A run stopped by Ctrl-C while its one point runs: its document.
fn interrupted_json(out: &Path) -> Value {
    let out_text = out.to_string_lossy();
    let args = [
        "run",
        "scenarios/twin-d20/knight-vs-brigand.toml",
        "--json",
        "-q",
        "--trials",
        "1e11",
        "-o",
        &out_text,
    ];
    let o = common::interrupted_run(&args, "", &out.join(".partial"), Duration::from_millis(300));
    assert_eq!(o.status.code(), Some(130), "{}", text(&o.stderr));
    serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("a stopped run's JSON ({e}): {}", text(&o.stdout)))
}

#[test]
fn every_kind_of_run_prints_the_documented_keys_and_only_those() {
    let dir = scratch("kinds");
    let out = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let mut documents = Vec::new();
    for (name, file, trials) in [
        ("one", "scenarios/twin-d20/knight-vs-brigand.toml", "2000"),
        (
            "compare",
            "scenarios/zone-d100/which-weapon-against-mail.toml",
            "2000",
        ),
        (
            "weights",
            "scenarios/twin-d20/what-is-plus-one-worth.toml",
            "2000",
        ),
        (
            "balance",
            "scenarios/zone-d100/even-with-the-knight.toml",
            "2000",
        ),
        (
            "balance-swept",
            "scenarios/twin-d20/fair-damage-by-attack.toml",
            "1000",
        ),
    ] {
        let o = out(name);
        documents.push(json_of(&[
            "run", file, "--json", "-q", "--trials", trials, "-o", &o,
        ]));
    }
    let knight = "scenarios/twin-d20/knight-vs-brigand.toml";
    let (s1, s2) = (out("s1"), out("s2"));
    for (shard, o) in [("1/2", &s1), ("2/2", &s2)] {
        documents.push(json_of(&[
            "run", knight, "--json", "-q", "--trials", "2000", "--shard", shard, "-o", o,
        ]));
    }
    let merged = json_of(&["merge", &s1, &s2, "--json", "-q", "-o", &out("merged")]);
    documents.push(merged.clone());
    documents.push(interrupted_json(&dir.join("stopped")));
    let mut printed = BTreeSet::new();
    for document in &documents {
        let mut one = BTreeSet::new();
        paths(document, "", &mut one);
        printed.extend(one);
    }
    let documented = documented();
    let undocumented: Vec<&String> = printed.difference(&documented).collect();
    assert!(
        undocumented.is_empty(),
        "printed but not in the README's table: {undocumented:?}"
    );
    let never: Vec<&String> = documented.difference(&printed).collect();
    assert!(
        never.is_empty(),
        "in the README's table but never printed: {never:?}"
    );
    // A merge says what one machine would have: its points, every summary column.
    let run = &merged["runs"][0];
    assert_eq!(run["complete"], true);
    assert_eq!(run["names"]["a"], "Knight");
    let summary = std::fs::read_to_string(dir.join("merged").join("summary.csv"))
        .unwrap_or_else(|e| panic!("{e}"));
    let mut lines = summary.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    for (column, cell) in header.iter().zip(&row).filter(|(c, _)| **c != "point") {
        let value = &run["points"][0]["summary"][*column];
        match cell.parse::<f64>() {
            Ok(x) => assert!(
                value.as_f64().is_some_and(|v| (v - x).abs() < 1e-9),
                "{column}: {value} in JSON, {cell} in summary.csv"
            ),
            Err(_) => assert!(
                value.is_null() || value.as_str() == Some(cell),
                "{column}: {value} in JSON, '{cell}' in summary.csv"
            ),
        }
    }
}
