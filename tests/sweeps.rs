//! Sweeps end to end: interrupted runs resumed to the bytes of an uninterrupted one (SIGKILL
//! and Ctrl-C), precision stopping, the charts and report of every shipped sweep, and bad
//! `[sweep]` entries.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const RESUME: &str = "tests/fixtures/resume-sweep.toml";
const POINTS: usize = 12;

fn duelsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_duelsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("cannot start duelsim: {e}"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duelsim-sweeps-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn finished_points(out: &Path) -> usize {
    std::fs::read_dir(out.join(".partial")).map_or(0, |entries| {
        entries
            .filter_map(Result::ok)
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tally"))
            .count()
    })
}

/// Starts a run into `out`, waits until `points` points are in its journal, then signals it
/// (`kill` for SIGKILL, or the `kill` command's signal name) and waits for it to end.
fn interrupt(out: &Path, points: usize, signal: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_duelsim"))
        .args(["run", RESUME, "-q", "-o", &out.to_string_lossy()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start duelsim: {e}"));
    let started = Instant::now();
    while finished_points(out) < points {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no progress in the journal"
        );
        if let Ok(Some(status)) = child.try_wait() {
            panic!("the run ended ({status}) before it could be interrupted");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    match signal {
        None => child.kill().unwrap_or_else(|e| panic!("cannot kill: {e}")),
        Some(name) => common::signal(&child, name),
    }
    child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("cannot wait: {e}"))
}

fn uninterrupted(dir: &Path) -> PathBuf {
    let out = dir.join("whole");
    let o = duelsim(&["run", RESUME, "-q", "-o", &out.to_string_lossy()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        !out.join(".partial").exists(),
        "a finished run keeps no journal"
    );
    out
}

fn resume_and_compare(out: &Path, whole: &Path) -> String {
    let o = duelsim(&["run", RESUME, "--resume", "-o", &out.to_string_lossy()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for file in ["summary.csv", "distributions.csv"] {
        assert!(
            read(&out.join(file)) == read(&whole.join(file)),
            "{file} differs after --resume"
        );
    }
    assert!(!out.join(".partial").exists());
    text(&o.stderr)
}

#[test]
fn a_sweep_killed_midway_and_resumed_gives_the_bytes_of_an_uninterrupted_run() {
    let dir = scratch("kill");
    let whole = uninterrupted(&dir);
    let out = dir.join("killed");
    let o = interrupt(&out, 2, None);
    assert!(!o.status.success());
    let kept = finished_points(&out);
    assert!(
        (2..POINTS).contains(&kept),
        "killed after {kept} of {POINTS} points"
    );
    let stderr = resume_and_compare(&out, &whole);
    assert!(
        stderr.contains(&format!("resuming: {kept} of {POINTS} points kept")),
        "{stderr}"
    );
}

#[test]
fn ctrl_c_keeps_the_finished_points_and_says_so_and_resume_finishes_the_run() {
    let dir = scratch("ctrl-c");
    let whole = uninterrupted(&dir);
    let out = dir.join("stopped");
    let o = interrupt(&out, 1, Some("INT"));
    assert_eq!(o.status.code(), Some(130), "{}", text(&o.stderr));
    let stderr = text(&o.stderr);
    assert!(stderr.contains("interrupted; kept"), "{stderr}");
    assert!(stderr.contains("--resume"), "{stderr}");
    // What was kept is written out whole: a summary row per finished point.
    let kept = finished_points(&out);
    let summary = text(&read(&out.join("summary.csv")));
    assert_eq!(summary.lines().count(), kept + 1, "{summary}");
    let manifest = text(&read(&out.join("manifest.json")));
    assert!(manifest.contains("\"status\": \"partial\""), "{manifest}");
    resume_and_compare(&out, &whole);
    let manifest = text(&read(&out.join("manifest.json")));
    assert!(manifest.contains("\"status\": \"complete\""), "{manifest}");
}

#[test]
fn a_run_without_resume_starts_over_and_says_so() {
    let dir = scratch("over");
    let out = dir.join("out");
    interrupt(&out, 1, None);
    let kept = finished_points(&out);
    let o = duelsim(&[
        "run",
        RESUME,
        "-o",
        &out.to_string_lossy(),
        "--trials",
        "10000",
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains(&format!("the finished {kept} point")),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn resuming_into_a_run_of_other_settings_is_refused() {
    let dir = scratch("other");
    let out = dir.join("out");
    interrupt(&out, 1, None);
    let o = duelsim(&[
        "run",
        RESUME,
        "--resume",
        "--seed",
        "5",
        "-o",
        &out.to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(err.contains("other settings"), "{err}");
    // One line that says what differs.
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("seed: 5 here, "), "{err}");
}

fn column(header: &str, name: &str) -> usize {
    header
        .split(',')
        .position(|c| c == name)
        .unwrap_or_else(|| panic!("no column {name}"))
}

#[test]
fn a_precision_stopped_run_gives_the_same_bytes_twice_and_meets_its_target() {
    let dir = scratch("precision");
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let out = dir.join(threads);
        let o = duelsim(&[
            "run",
            "tests/fixtures/precision.toml",
            "-q",
            "--threads",
            threads,
            "-o",
            &out.to_string_lossy(),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        outputs.push((
            read(&out.join("summary.csv")),
            read(&out.join("distributions.csv")),
        ));
    }
    assert!(outputs[0] == outputs[1], "two runs differ");
    let summary = text(&outputs[0].0);
    let mut lines = summary.lines();
    let header = lines.next().unwrap_or_default();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 3);
    let mut trial_counts = Vec::new();
    for row in &rows {
        let trials: u64 = row[column(header, "trials")].parse().unwrap_or(0);
        assert_eq!(trials % 8192, 0, "stopped mid-chunk: {trials}");
        assert!(trials < 2_000_000, "hit the cap: {trials}");
        for side in ["a_win", "b_win"] {
            let lo: f64 = row[column(header, &format!("{side}_lo"))]
                .parse()
                .unwrap_or(1.0);
            let hi: f64 = row[column(header, &format!("{side}_hi"))]
                .parse()
                .unwrap_or(0.0);
            // The CSV rounds to 6 decimals: allow that rounding, nothing more.
            assert!((hi - lo) / 2.0 <= 0.004 + 1e-6, "{side}: {lo}..{hi}");
        }
        trial_counts.push(trials);
    }
    // Rates near 50% need more trials than lopsided ones: the counts are not all the same.
    assert!(
        trial_counts.iter().any(|&t| t != trial_counts[0]),
        "{trial_counts:?}"
    );
    let check = duelsim(&["check", "tests/fixtures/precision.toml"]);
    assert!(text(&check.stdout).contains("up to 2,000,000 trials"));
}

/// The axes of a shipped sweep: its `[sweep]` keys.
fn sweep_axes(path: &Path) -> Option<usize> {
    let text = std::fs::read_to_string(path).ok()?;
    let table: toml::Table = toml::from_str(&text).ok()?;
    table.get("sweep")?.as_table().map(|t| t.len())
}

#[test]
fn every_shipped_sweep_runs_as_shipped_and_draws_every_chart_into_its_report() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let mut sweeps = Vec::new();
    for ruleset in std::fs::read_dir(&root).into_iter().flatten().flatten() {
        for file in std::fs::read_dir(ruleset.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if let Some(axes) = sweep_axes(&file.path()) {
                sweeps.push((file.path(), axes, ruleset.file_name()));
            }
        }
    }
    let rulesets: std::collections::BTreeSet<_> = sweeps.iter().map(|s| s.2.clone()).collect();
    assert_eq!(
        rulesets.len(),
        5,
        "a shipped sweep per ruleset: {rulesets:?}"
    );
    let dir = scratch("shipped");
    for (i, (path, axes, _)) in sweeps.iter().enumerate() {
        let out = dir.join(i.to_string());
        let o = duelsim(&[
            "run",
            &path.to_string_lossy(),
            "-q",
            "--trials",
            "4000",
            "-o",
            &out.to_string_lossy(),
        ]);
        assert!(
            o.status.success(),
            "{}: {}",
            path.display(),
            text(&o.stderr)
        );
        // A [balance] at each sweep point draws the values found instead of the win rates.
        let balanced = text(&read(path)).contains("\n[balance]");
        // A search draws what its answer rests on, not the distributions at each value run.
        let mut charts = vec!["outcomes", "recovery-outcomes"];
        if balanced {
            charts.push("balance");
        } else {
            charts.extend(["win-rate", "rounds", "rounds-decided", "days-to-whole"]);
        }
        if *axes >= 2 && !balanced {
            charts.push("matchup");
        }
        if path.to_string_lossy().contains("zone-d100") && !balanced {
            charts.push("injuries");
        }
        if balanced {
            for skipped in ["rounds", "days-to-whole", "injuries"] {
                let file = out.join("charts").join(format!("{skipped}.svg"));
                assert!(!file.exists(), "{}: {skipped} drawn", path.display());
            }
        }
        let report = text(&read(&out.join("report.html")));
        for chart in &charts {
            for ext in ["svg", "png"] {
                let file = out.join("charts").join(format!("{chart}.{ext}"));
                assert!(
                    read(&file).len() > 1000,
                    "{}: {} is missing or empty",
                    path.display(),
                    file.display()
                );
            }
            let drawn = report.contains(&format!("<figure id=\"{chart}\""));
            match *chart {
                // The matchup heatmap draws the same win rates: the report leaves them out.
                "win-rate" if charts.contains(&"matchup") => {
                    assert!(!drawn, "{}: win rates drawn twice", path.display());
                }
                // Healing outcomes all alike are a sentence, not a chart of one colour.
                "recovery-outcomes" => assert!(
                    drawn || report.contains("heals whole within the horizon"),
                    "{}: {chart} neither drawn nor said",
                    path.display()
                ),
                _ => assert!(drawn, "{}: {chart} not in the report", path.display()),
            }
        }
        assert!(read(&out.join("charts/outcomes.png")).starts_with(b"\x89PNG"));
        // Every SVG says what it is; its text names the swept keys in words, never as the
        // raw paths of the file; a heatmap carries its colour scale and each cell's interval.
        let table: toml::Table =
            toml::from_str(&text(&read(path))).unwrap_or_else(|e| panic!("{e}"));
        let paths: Vec<String> = table
            .get("sweep")
            .and_then(|s| s.as_table())
            .map(|t| t.keys().cloned().collect())
            .unwrap_or_default();
        for chart in &charts {
            let svg = text(&read(&out.join("charts").join(format!("{chart}.svg"))));
            assert!(
                svg.contains("<title>") && svg.contains("<desc>"),
                "{}: {chart}.svg has no title",
                path.display()
            );
            let drawn: String = svg
                .split('>')
                .filter_map(|part| part.split_once("</text").map(|(t, _)| t))
                .collect::<Vec<_>>()
                .join("\n");
            assert!(
                !drawn.is_empty(),
                "{}: {chart}.svg has no text",
                path.display()
            );
            for raw in &paths {
                assert!(
                    !drawn.contains(raw.as_str()),
                    "{}: {chart}.svg writes the raw path {raw}: {drawn}",
                    path.display()
                );
            }
            if ["matchup", "injuries"].contains(chart) {
                assert!(
                    drawn.contains("colour scale"),
                    "{}: {chart}",
                    path.display()
                );
                assert!(
                    svg.contains("(95% interval)</title>"),
                    "{}: {chart}",
                    path.display()
                );
            }
        }
        // Self-contained: nothing is fetched.
        assert!(!report.contains("src=\"http"), "{}", path.display());
        assert!(!report.contains("<script"), "{}", path.display());
        assert!(report.contains("Rules in force") && report.contains("Assumptions"));
        let summary = text(&read(&out.join("summary.csv")));
        let header = summary.lines().next().unwrap_or_default();
        let swept = text(&read(&out.join("manifest.json")));
        assert!(swept.contains("\"swept\""), "{swept}");
        assert!(
            header.split(',').nth(1).is_some_and(|c| c.contains('.')),
            "{}: the swept values are named columns: {header}",
            path.display()
        );
    }
}

#[test]
fn bad_sweep_entries_are_input_errors_at_their_line() {
    let dir = scratch("bad");
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/precision.toml"),
    )
    .unwrap_or_default();
    let base = base.replace("[sweep]\n\"a.attack\" = [8, 13, 18]\n", "");
    for (entry, expected) in [
        ("\"a.atack\" = [1, 2]", "did you mean 'attack'"),
        ("\"a.attack\" = [8, 99]", "a.attack"),
        ("seed = [1, 2]", "cannot be swept"),
        ("\"a.attack\" = { from = 9, to = 3 }", "below"),
        ("\"a.weapon\" = [\"broadsword\", \"axe\"]", "axe"),
        ("\"rules.nothing[2]\" = [1]", "cannot be indexed"),
    ] {
        let file = dir.join("bad.toml");
        let text_in = format!("{base}\n[sweep]\n{entry}\n");
        std::fs::write(&file, &text_in).unwrap_or_else(|e| panic!("{e}"));
        let line = text_in.lines().count();
        let o = duelsim(&[
            "run",
            &file.to_string_lossy(),
            "-o",
            &dir.join("out").to_string_lossy(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{entry}: {}", text(&o.stderr));
        let err = text(&o.stderr);
        assert!(err.contains(expected), "{entry}: {err}");
        assert!(
            err.contains(&format!("bad.toml:{line}:")),
            "{entry}: not placed at line {line}: {err}"
        );
        assert!(!dir.join("out").exists(), "{entry}: output written");
    }
}

#[test]
fn shards_run_apart_merge_into_the_bytes_of_one_machine() {
    let dir = scratch("shards");
    let whole = dir.join("whole");
    let o = duelsim(&[
        "run",
        RESUME,
        "-q",
        "--trials",
        "60000",
        "-o",
        &whole.to_string_lossy(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let mut shards = Vec::new();
    for k in 1..=3 {
        let out = dir.join(format!("shard{k}"));
        let o = duelsim(&[
            "run",
            RESUME,
            "-q",
            "--trials",
            "60000",
            "--shard",
            &format!("{k}/3"),
            "--threads",
            &k.to_string(),
            "-o",
            &out.to_string_lossy(),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(out.join("shard").exists() && !out.join("summary.csv").exists());
        shards.push(out.to_string_lossy().into_owned());
    }
    let merged = dir.join("merged");
    let mut args = vec!["merge", "-q", "-o"];
    let merged_text = merged.to_string_lossy().into_owned();
    args.push(&merged_text);
    // In any order.
    args.extend([shards[2].as_str(), shards[0].as_str(), shards[1].as_str()]);
    let o = duelsim(&args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for file in ["summary.csv", "distributions.csv"] {
        assert!(
            read(&merged.join(file)) == read(&whole.join(file)),
            "{file}: the merged shards differ from one machine's run"
        );
    }
    assert!(merged.join("report.html").exists() && merged.join("charts/win-rate.svg").exists());

    // A finished shard run again with --resume (a requeued array task) has nothing to do.
    let before = read(&Path::new(&shards[0]).join("shard"));
    let o = duelsim(&[
        "run", RESUME, "--trials", "60000", "--shard", "1/3", "--resume", "-o", &shards[0],
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("already finished"),
        "{}",
        text(&o.stderr)
    );
    assert!(read(&Path::new(&shards[0]).join("shard")) == before);

    // A missing shard, a shard given twice, a shard of another seed: input errors.
    let o = duelsim(&["merge", "-o", &merged_text, &shards[0], &shards[2]]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("1 shard missing: 2/3"),
        "{}",
        text(&o.stderr)
    );
    let o = duelsim(&[
        "merge",
        "-o",
        &merged_text,
        &shards[0],
        &shards[0],
        &shards[1],
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("expected each shard once"));
    let other = dir.join("other");
    let o = duelsim(&[
        "run",
        RESUME,
        "-q",
        "--trials",
        "60000",
        "--seed",
        "3",
        "--shard",
        "2/3",
        "-o",
        &other.to_string_lossy(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let o = duelsim(&[
        "merge",
        "-o",
        &merged_text,
        &shards[0],
        &other.to_string_lossy(),
        &shards[2],
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("other settings"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("seed: "), "{err}");
    // Precision stopping cannot be sharded.
    let o = duelsim(&[
        "run",
        "tests/fixtures/precision.toml",
        "--shard",
        "1/2",
        "-o",
        &dir.join("p").to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("--shard"));
    let o = duelsim(&["run", RESUME, "--shard", "4/3"]);
    assert_eq!(o.status.code(), Some(2));
}

/// Runs the fixture as shard `k` of 3 into `dir/shardK`; the folder.
fn shard(dir: &Path, k: u32) -> PathBuf {
    let out = dir.join(format!("shard{k}"));
    let o = duelsim(&[
        "run",
        RESUME,
        "-q",
        "--trials",
        "24000",
        "--shard",
        &format!("{k}/3"),
        "-o",
        &out.to_string_lossy(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    out
}

/// Merges the three shard folders: the process output.
fn merge_three(dir: &Path, shards: &[PathBuf]) -> Output {
    let merged = dir.join("merged");
    let mut args = vec![
        "merge".to_owned(),
        "-q".to_owned(),
        "-o".to_owned(),
        merged.to_string_lossy().into_owned(),
    ];
    args.extend(shards.iter().map(|s| s.to_string_lossy().into_owned()));
    duelsim(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn edited_copied_or_missing_tallies_are_refused_by_merge_and_resume() {
    let dir = scratch("tamper");
    let shards: Vec<PathBuf> = (1..=3).map(|k| shard(&dir, k)).collect();
    let victim = shards[1].join("point-00004.tally");
    let original = read(&victim);
    let refused = |what: &str| {
        let o = merge_three(&dir, &shards);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert!(err.contains("point-00004.tally"), "{what}: {err}");
        assert_eq!(err.lines().count(), 1, "{what}: {err}");
        assert!(
            !dir.join("merged").exists(),
            "{what}: an output was written"
        );
    };
    // One more win on a's side.
    let edited = text(&original).replacen("\nends ", "\nends 1", 1);
    std::fs::write(&victim, edited).unwrap_or_else(|e| panic!("{e}"));
    refused("an edited count");
    // Another shard's tally of the same point.
    std::fs::copy(shards[0].join("point-00004.tally"), &victim).unwrap_or_else(|e| panic!("{e}"));
    refused("a copy from shard 1");
    // A deleted tally.
    std::fs::remove_file(&victim).unwrap_or_else(|e| panic!("{e}"));
    refused("a missing tally");
    std::fs::write(&victim, &original).unwrap_or_else(|e| panic!("{e}"));
    let o = merge_three(&dir, &shards);
    assert!(
        o.status.success(),
        "the untouched shards merge: {}",
        text(&o.stderr)
    );

    // The journal of an interrupted run: an edited tally is refused by --resume.
    let out = dir.join("journal");
    interrupt(&out, 2, None);
    let tally = out.join(".partial/point-00000.tally");
    let edited = text(&read(&tally)).replacen("\ntrials ", "\ntrials 9", 1);
    std::fs::write(&tally, edited).unwrap_or_else(|e| panic!("{e}"));
    let o = duelsim(&[
        "run",
        RESUME,
        "--resume",
        "-q",
        "-o",
        &out.to_string_lossy(),
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("point-00000.tally"), "{err}");
}

#[test]
fn temporaries_of_dead_runs_are_removed_and_a_failed_write_leaves_none() {
    let dir = scratch("leftovers");
    let out = dir.join("out");
    interrupt(&out, 1, None);
    // What a killed run (pid 999999999 is no live process) leaves during its final write.
    let stale = [
        out.join(".summary.csv.duelsim-999999999.tmp"),
        out.join(".partial/.point-00003.tally.duelsim-999999999.tmp"),
    ];
    for file in &stale {
        std::fs::write(file, "half").unwrap_or_else(|e| panic!("{e}"));
    }
    // Another program's temporary file in the same folder is not ours to remove.
    let foreign = out.join(".notes.999999999.tmp");
    std::fs::write(&foreign, "theirs").unwrap_or_else(|e| panic!("{e}"));
    let o = duelsim(&[
        "run",
        RESUME,
        "--resume",
        "-q",
        "-o",
        &out.to_string_lossy(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for file in &stale {
        assert!(!file.exists(), "{} left behind", file.display());
    }
    assert!(
        foreign.exists(),
        "another program's temporary file was removed"
    );
    // A write that fails (report.html is a folder here, so it cannot be moved into place) leaves
    // no temporary file.
    let blocked = dir.join("blocked");
    std::fs::create_dir_all(blocked.join("report.html/x")).unwrap_or_else(|e| panic!("{e}"));
    let o = duelsim(&[
        "run",
        RESUME,
        "-q",
        "--trials",
        "2000",
        "-o",
        &blocked.to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o.stderr));
    let mut temporaries = Vec::new();
    for folder in [
        blocked.clone(),
        blocked.join("charts"),
        blocked.join(".partial"),
    ] {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.ends_with(".tmp") {
                temporaries.push(name);
            }
        }
    }
    assert!(temporaries.is_empty(), "left behind: {temporaries:?}");
}

#[test]
fn ctrl_c_stops_a_long_point_at_once_and_resume_goes_on_from_its_finished_chunks() {
    const ONE_POINT: &str = "scenarios/twin-d20/knight-vs-brigand.toml";
    const TRIALS: &str = "12000000";
    let dir = scratch("long-point");
    let whole = dir.join("whole");
    let o = duelsim(&[
        "run",
        ONE_POINT,
        "-q",
        "--trials",
        TRIALS,
        "-o",
        &whole.to_string_lossy(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let out = dir.join("cut");
    // The stop comes once some chunks are done: after 2.5 s, or longer on a machine so busy
    // that no chunk had finished by then (the run is started again from nothing each time).
    let mut interrupted = String::new();
    for wait in [2500, 6000, 15000] {
        let _ = std::fs::remove_dir_all(&out);
        let child = Command::new(env!("CARGO_BIN_EXE_duelsim"))
            .args([
                "run",
                ONE_POINT,
                "-q",
                "--trials",
                TRIALS,
                "-o",
                &out.to_string_lossy(),
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start duelsim: {e}"));
        std::thread::sleep(Duration::from_millis(wait));
        let signalled = Instant::now();
        let status = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .unwrap_or_else(|e| panic!("cannot run kill: {e}"));
        assert!(status.success());
        let o = child
            .wait_with_output()
            .unwrap_or_else(|e| panic!("cannot wait: {e}"));
        let took = signalled.elapsed();
        assert_eq!(o.status.code(), Some(130), "{}", text(&o.stderr));
        assert!(
            took < Duration::from_millis(1500),
            "Ctrl-C took {took:?} to act"
        );
        interrupted = text(&o.stderr);
        if out.join(".partial/point-00000.prefix").exists() {
            break;
        }
    }
    assert!(
        out.join(".partial/point-00000.prefix").exists(),
        "no prefix was kept"
    );
    // The command the interrupted run printed, run as printed: it carries --trials.
    let printed = interrupted
        .split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("no command in: {interrupted}"));
    let words: Vec<&str> = printed.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"duelsim"), "{printed}");
    assert!(printed.contains(&format!("--trials {TRIALS}")), "{printed}");
    // As printed (it keeps -q), but without -q, to read that it resumed.
    let loud: Vec<&str> = words[1..].iter().copied().filter(|w| *w != "-q").collect();
    assert!(
        loud.len() + 2 == words.len(),
        "the run's -q kept: {printed}"
    );
    let o = duelsim(&loud);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("resuming point 0 at chunk"),
        "{}",
        text(&o.stderr)
    );
    for file in ["summary.csv", "distributions.csv"] {
        assert!(
            read(&out.join(file)) == read(&whole.join(file)),
            "{file} differs after resuming the long point"
        );
    }
    assert!(!out.join(".partial").exists());
}

#[test]
fn a_shard_folder_carries_its_scenario_and_merges_from_anywhere() {
    // The shards run a copy of a shipped scenario with its catalogue; then the copy is
    // deleted and the shard folders are moved: merge reads the texts they carry.
    let dir = scratch("carried");
    let shipped = "scenarios/zone-d100/which-weapon-against-mail.toml";
    let work = dir.join("node/scenarios/zone-d100");
    std::fs::create_dir_all(&work).unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir_all(dir.join("node/catalogues")).unwrap_or_else(|e| panic!("{e}"));
    let copy = work.join("which-weapon-against-mail.toml");
    std::fs::copy(shipped, &copy).unwrap_or_else(|e| panic!("{e}"));
    std::fs::copy(
        "catalogues/zone-d100.toml",
        dir.join("node/catalogues/zone-d100.toml"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let trials = ["--trials", "3000"];
    let whole = dir.join("whole");
    let o = duelsim(
        &[
            &["run", shipped, "-q", "-o", &whole.to_string_lossy()],
            &trials[..],
        ]
        .concat(),
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let moved = dir.join("elsewhere");
    std::fs::create_dir_all(&moved).unwrap_or_else(|e| panic!("{e}"));
    let mut shards = Vec::new();
    for k in 1..=2 {
        let out = dir.join(format!("node/shard{k}"));
        let shard = format!("{k}/2");
        let o = duelsim(
            &[
                &[
                    "run",
                    &copy.to_string_lossy(),
                    "-q",
                    "--shard",
                    &shard,
                    "-o",
                    &out.to_string_lossy(),
                ],
                &trials[..],
            ]
            .concat(),
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
        let there = moved.join(format!("shard{k}"));
        std::fs::rename(&out, &there).unwrap_or_else(|e| panic!("{e}"));
        shards.push(there);
    }
    std::fs::remove_dir_all(dir.join("node")).unwrap_or_else(|e| panic!("{e}"));
    let o = merge_three(&moved, &shards);
    assert!(o.status.success(), "{}", text(&o.stderr));
    for file in ["summary.csv", "distributions.csv"] {
        assert!(
            read(&moved.join("merged").join(file)) == read(&whole.join(file)),
            "{file}: the moved shards differ from one machine's run"
        );
    }
    // The copy a shard carries is checked by its hash: an edited catalogue is refused.
    let catalogue = shards[0].join("source/catalogues/zone-d100.toml");
    let edited = text(&read(&catalogue)).replacen("= ", "=  ", 1);
    std::fs::write(&catalogue, edited).unwrap_or_else(|e| panic!("{e}"));
    let o = merge_three(&moved, &shards);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("other settings"),
        "{}",
        text(&o.stderr)
    );
}
