//! A `[balance]` with a `[sweep]`: a search at each sweep point, each the search of the file with
//! that point's values written in. Its answers and evaluations are those of separate files of
//! each point; shards merge and a killed run resumes to the same bytes; `check` says the most
//! evaluations it takes; a swept balance path, `[weights]` or `[compare]` with it are refused.

mod common;

use common::duelsim;
use std::path::{Path, PathBuf};
use std::process::Command;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "duelsim-balance-sweep-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn write(path: &Path, contents: &str) {
    std::fs::write(path, contents).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

/// A duel whose a-win rate falls as B's Defense rises: A hits on a die above B's Defense and no
/// higher than A's Attack.
const BASE: &str = r#"
name = "balance-sweep"
ruleset = "twin-d20"
seed = 7
trials = 8192
round_limit = 30
[a]
name = "A"
attack = 13
defense = 6
toughness = 9
weapon = "sword"
[b]
name = "B"
attack = 12
defense = 6
toughness = 9
weapon = "sword"
[weapons.sword]
damage = 3
"#;

const BALANCE: &str =
    "[balance]\npath = \"b.defense\"\nfrom = 0\nto = 19\ntarget = { a_win_rate = 0.5 }\n";

/// The swept values of B's Attack; the search of each is the file with it written in.
const ATTACKS: [u32; 3] = [9, 12, 15];

fn combined(dir: &Path, trials: &str) -> PathBuf {
    let file = dir.join("combined.toml");
    write(
        &file,
        &format!(
            "{}[sweep]\n\"b.attack\" = [9, 12, 15]\n{BALANCE}",
            BASE.replace("trials = 8192", trials)
        ),
    );
    file
}

fn run_json(file: &Path, out: &Path) -> serde_json::Value {
    let o = duelsim(&[
        "run",
        &file.to_string_lossy(),
        "-q",
        "--json",
        "-o",
        &out.to_string_lossy(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o.stdout)))
}

#[test]
fn each_sweep_points_answer_is_the_answer_of_its_own_file_byte_for_byte() {
    let dir = scratch("separate");
    let file = combined(&dir, "trials = 8192");
    let whole = dir.join("whole");
    let o = duelsim(&[
        "run",
        &file.to_string_lossy(),
        "-o",
        &whole.to_string_lossy(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let said = text(&o.stdout);
    assert_eq!(
        said.lines().count(),
        ATTACKS.len(),
        "a line per point: {said}"
    );
    let json = run_json(&file, &dir.join("whole-json"));
    let points = json["runs"][0]["balance"]["points"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(points.len(), ATTACKS.len(), "{json}");
    let csv = text(&read(&whole.join("balance.csv")));
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("row,b.attack,b.defense,b.defense_lo,b.defense_hi,reachable,trials,a_win_rate,lo,hi")
    );
    for (p, attack) in ATTACKS.iter().enumerate() {
        // The point's file: the values written in, no [sweep].
        let single = dir.join(format!("single-{attack}.toml"));
        write(
            &single,
            &format!(
                "{}{BALANCE}",
                BASE.replace("attack = 12\n", &format!("attack = {attack}\n"))
            ),
        );
        let out = dir.join(format!("single-{attack}"));
        let alone = run_json(&single, &out);
        let alone = &alone["runs"][0]["balance"];
        assert_eq!(points[p]["answer"], alone["answer"], "b.attack = {attack}");
        assert_eq!(points[p]["words"], alone["words"], "b.attack = {attack}");
        assert_eq!(points[p]["swept"]["b.attack"], attack.to_string());
        // The terminal line of the point ends with the words of the file alone.
        let words = alone["words"].as_str().unwrap_or_default();
        assert!(
            said.lines()
                .nth(p)
                .is_some_and(|l| l.ends_with(&format!(": {words}"))
                    && l.contains(&format!("B's attack {attack}"))),
            "{said}"
        );
        // Every evaluation, byte for byte: the point's rows of the combined balance.csv are the
        // rows of the file alone.
        let prefix = format!("evaluation,{attack},");
        let ours: Vec<String> = csv
            .lines()
            .filter_map(|l| l.strip_prefix(&prefix))
            .map(|rest| rest.replacen(",,,,", ",", 1))
            .collect();
        let theirs = text(&read(&out.join("balance.csv")));
        let theirs: Vec<&str> = theirs.lines().skip(1).collect();
        assert!(!ours.is_empty());
        assert_eq!(ours, theirs, "b.attack = {attack}");
        // The answer row: the value with its interval, as the file alone's JSON says it.
        let answer = csv
            .lines()
            .find(|l| l.starts_with(&format!("answer,{attack},")))
            .unwrap_or_default();
        let cells: Vec<&str> = answer.split(',').collect();
        match alone["answer"].as_object() {
            Some(a) => {
                assert_eq!(cells.get(5), Some(&"yes"), "{answer}");
                for (i, key) in [(2, "value"), (3, "lo"), (4, "hi")] {
                    let cell = cells.get(i).and_then(|c| c.parse::<f64>().ok());
                    assert_eq!(cell, a[key].as_f64(), "{answer}: {key}");
                }
            }
            None => assert_eq!(cells.get(5), Some(&"no"), "{answer}"),
        }
    }
    // The rulebook's table and the chart: in words, every point, no raw path.
    let table = text(&read(&whole.join("tables/balance.md")));
    assert!(
        table.contains("| B's attack | B's defense that makes the duel even |"),
        "{table}"
    );
    assert_eq!(table.lines().filter(|l| l.starts_with("| ")).count(), 2 + 3);
    assert!(!table.contains("b.defense") && !table.contains("a_win_rate"));
    let svg = text(&read(&whole.join("charts/balance.svg")));
    assert!(
        svg.contains("B&apos;s defense that makes the duel even"),
        "the chart's title"
    );
    let png = read(&whole.join("charts/balance.png"));
    assert!(png.starts_with(b"\x89PNG"));
    let report = text(&read(&whole.join("report.html")));
    assert!(report.contains("<h2>Balance at each point</h2>"));
    assert!(report.contains("<figure id=\"balance\""));
}

#[test]
fn a_point_out_of_reach_is_said_and_marked_not_dropped() {
    let dir = scratch("unreachable");
    // Against B's Attack 1, B never hits, and A (hitting on 9 to 13 at worst) wins most duels
    // whatever B's Defense up to 8.
    let file = dir.join("reach.toml");
    write(
        &file,
        &format!(
            "{BASE}[sweep]\n\"b.attack\" = [1, 16]\n[balance]\npath = \"b.defense\"\nfrom = 0\nto = 8\ntarget = {{ a_win_rate = 0.5 }}\n"
        ),
    );
    let out = dir.join("out");
    let o = duelsim(&["run", &file.to_string_lossy(), "-o", &out.to_string_lossy()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let said = text(&o.stdout);
    assert!(said.contains("No B's defense from 0 to 8"), "{said}");
    let csv = text(&read(&out.join("balance.csv")));
    assert!(csv.contains("\nanswer,1,,,,no,,,,\n"), "{csv}");
    let table = text(&read(&out.join("tables/balance.md")));
    assert!(table.contains("not reachable from 0 to 8"), "{table}");
    let svg = text(&read(&out.join("charts/balance.svg")));
    assert!(
        svg.contains("out of the range searched"),
        "the legend says it"
    );
    assert!(
        svg.contains("Not reachable from 0 to 8: B's attack 1 ("),
        "the caption names it, and it alone"
    );
    assert!(said.contains("B's attack 16: B's defense "), "{said}");
}

#[test]
fn shards_merge_into_the_bytes_of_one_machine() {
    let dir = scratch("shards");
    let file = combined(&dir, "trials = 8192");
    let file = file.to_string_lossy().into_owned();
    let whole = dir.join("whole");
    let o = duelsim(&["run", &file, "-o", &whole.to_string_lossy()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let answer = o.stdout;
    let merged = dir.join("merged");
    let mut args = vec![
        "merge".to_owned(),
        "-q".to_owned(),
        "-o".to_owned(),
        merged.to_string_lossy().into_owned(),
    ];
    for k in 1..=2 {
        let out = dir.join(format!("shard{k}"));
        let o = duelsim(&[
            "run",
            &file,
            "-q",
            "--shard",
            &format!("{k}/2"),
            "-o",
            &out.to_string_lossy(),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(!out.join("balance.csv").exists());
        args.push(out.to_string_lossy().into_owned());
    }
    let o = duelsim(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        text(&o.stdout),
        text(&answer),
        "the merge says the run's answers"
    );
    for name in [
        "balance.csv",
        "summary.csv",
        "distributions.csv",
        "tables/balance.md",
        "tables/results.md",
    ] {
        assert!(
            read(&whole.join(name)) == read(&merged.join(name)),
            "{name}: the merged searches differ from one machine's"
        );
    }
}

#[test]
fn a_killed_run_resumes_from_its_finished_evaluations_to_the_same_bytes() {
    let dir = scratch("resume");
    let file = combined(&dir, "trials = 100_000");
    let file = file.to_string_lossy().into_owned();
    let whole = dir.join("whole");
    let o = duelsim(&["run", &file, "-q", "-o", &whole.to_string_lossy()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let cut = dir.join("cut");
    let mut child = Command::new(env!("CARGO_BIN_EXE_duelsim"))
        .args(["run", &file, "-q", "-o", &cut.to_string_lossy()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start duelsim: {e}"));
    // Into the second sweep point's search: point 1's evaluations are files 7 on (at most 7 a
    // point, for a range of 20 values).
    let started = std::time::Instant::now();
    while !cut.join(".partial/point-00008.tally").exists() && started.elapsed().as_secs() < 300 {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let _ = child.kill();
    let _ = child.wait();
    // Killed midway: its journal holds the evaluations finished, not a finished run's outputs.
    assert!(cut.join(".partial/point-00008.tally").exists());
    assert!(!cut.join("balance.csv").exists());
    let o = duelsim(&["run", &file, "-q", "--resume", "-o", &cut.to_string_lossy()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for name in [
        "balance.csv",
        "summary.csv",
        "distributions.csv",
        "tables/balance.md",
    ] {
        assert!(
            read(&whole.join(name)) == read(&cut.join(name)),
            "{name} differs"
        );
    }
    assert!(!cut.join(".partial").exists());
}

#[test]
fn check_says_the_most_evaluations_the_searches_take() {
    let dir = scratch("check");
    let file = combined(&dir, "trials = 8192");
    let o = duelsim(&["check", &file.to_string_lossy()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let said = text(&o.stdout);
    // 20 values: both ends and five halvings, at each of three points.
    assert!(
        said.contains("at each of 3 sweep points: at most 3 x 7 = 21 evaluations"),
        "{said}"
    );
    assert!(
        said.contains("each of its 20 values at every point on every shard, 60 in all"),
        "{said}"
    );
    assert!(
        said.contains("each of 8,192 trials = up to 172,032 trials"),
        "{said}"
    );
    assert!(said.contains("sweep: b.attack (3: 9, 12, 15)"), "{said}");
}

#[test]
fn a_swept_balance_path_weights_or_compare_with_a_balance_are_refused_at_their_line() {
    let dir = scratch("errors");
    for (name, extra, place, field) in [
        (
            "swept",
            "[sweep]\n\"b.defense\" = [5, 6]\n",
            ":22:",
            "sweep.b.defense",
        ),
        (
            "weights",
            "[weights]\n\"a.attack\" = 1\n",
            ":22:",
            "weights",
        ),
        (
            "compare",
            "[sweep]\n\"b.attack\" = [9, 12]\n[compare]\n",
            ":23:",
            "compare",
        ),
    ] {
        let file = dir.join(format!("{name}.toml"));
        write(&file, &format!("{BASE}{extra}{BALANCE}"));
        let o = duelsim(&["check", &file.to_string_lossy()]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", text(&o.stderr));
        let err = text(&o.stderr);
        let headline = err.lines().next().unwrap_or_default();
        assert!(
            headline.contains(&format!("{name}.toml{place}"))
                && headline.contains(&format!(": {field}: ")),
            "{name}: {err}"
        );
        let o = duelsim(&[
            "run",
            &file.to_string_lossy(),
            "-o",
            &dir.join(name).to_string_lossy(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{name}");
        assert!(!dir.join(name).exists(), "{name}: nothing is written");
    }
}
