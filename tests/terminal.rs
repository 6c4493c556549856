//! What `duelsim` says on the terminal and to scripts: the answer on stdout (the progress and
//! the closing line on stderr), `--json` checked against `summary.csv`, shell completions and
//! the man page, `-` for stdin and stdout, the forms and bounds of `--trials`, "did you mean",
//! `--version`, `--color` and `NO_COLOR`, and a recovery scenario's `summary.csv` without duel
//! columns.

mod common;
use common::duelsim;
use std::path::PathBuf;
use std::process::Command;

const SCENARIO: &str = "scenarios/twin-d20/knight-vs-brigand.toml";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duelsim-terminal-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

/// Runs duelsim with `input` on its stdin.
fn with_stdin(args: &[&str], input: &str) -> std::process::Output {
    (common::spawn_with_stdin(args, input).wait_with_output()).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn run_answers_on_stdout_and_keeps_the_closing_line_on_stderr() {
    let dir = scratch("answer");
    let out = dir.join("one").to_string_lossy().into_owned();
    let o = duelsim(&["run", SCENARIO, "--trials", "20_000", "-o", &out]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let said = text(&o.stdout);
    assert!(
        said.starts_with("knight-vs-brigand: Knight against Brigand, 20000 trials\n"),
        "{said}"
    );
    // Each headline rate in words with its interval, as summary.csv has it.
    let summary = text(&std::fs::read(dir.join("one/summary.csv")).unwrap_or_default());
    let (head, row) = summary.split_once('\n').unwrap_or_default();
    let cell = |name: &str| -> f64 {
        let at = head
            .split(',')
            .position(|h| h == name)
            .unwrap_or(usize::MAX);
        row.split(',')
            .nth(at)
            .and_then(|v| v.parse().ok())
            .unwrap_or(f64::NAN)
    };
    let knight = said
        .lines()
        .find(|l| l.trim_start().starts_with("Knight wins"))
        .unwrap_or_else(|| panic!("{said}"));
    let shown = format!(
        "{:.1}% [{:.1}, {:.1}]",
        100.0 * cell("a_win_rate"),
        100.0 * cell("a_win_lo"),
        100.0 * cell("a_win_hi")
    );
    assert!(knight.ends_with(&shown), "{knight} vs {shown}");
    // The closing line (how many trials, how long, where) is on stderr, not stdout. A run this
    // short may take under 0.01 s, when no rate is given, so the test reads the part always said.
    let closing = "20,000 trials in ";
    assert!(!said.contains(closing), "the closing line is not on stdout");
    let told = text(&o.stderr);
    assert!(
        told.starts_with("knight-vs-brigand: 1 point, 20,000 trials in ")
            && (told.contains(" trials/s, ") || told.contains("under 0.01 s, ")),
        "{told}"
    );
    // -q silences stderr only.
    let o = duelsim(&["run", SCENARIO, "-q", "--trials", "2000", "-o", &out]);
    assert!(o.status.success());
    assert!(o.stderr.is_empty(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("Knight wins"));
}

#[test]
fn a_long_sweep_prints_twenty_lines_and_says_where_the_rest_are() {
    let dir = scratch("sweep");
    let file = dir.join("long.toml");
    let shipped = std::fs::read_to_string(SCENARIO).unwrap_or_default();
    std::fs::write(
        &file,
        format!("{shipped}\n[sweep]\n\"a.attack\" = {{ from = 1, to = 25 }}\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let out = dir.join("out").to_string_lossy().into_owned();
    let o = duelsim(&[
        "run",
        &file.to_string_lossy(),
        "-q",
        "--trials",
        "1e3",
        "-o",
        &out,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let said = text(&o.stdout);
    let lines: Vec<&str> = said.lines().collect();
    // The title, the header, 20 points and the note.
    assert_eq!(lines.len(), 23, "{said}");
    assert!(lines[1].contains("Knight's attack") && lines[1].contains("Brigand wins"));
    assert!(lines[2].trim_start().starts_with("1 "), "{}", lines[2]);
    assert_eq!(lines[22], "  ... 5 more in summary.csv");
}

#[test]
fn json_is_one_document_that_agrees_with_summary_csv() {
    let dir = scratch("json");
    let out = dir.join("out").to_string_lossy().into_owned();
    let o = duelsim(&[
        "run",
        "scenarios/twin-d20/what-is-plus-one-worth.toml",
        "--json",
        "-q",
        "--trials",
        "4000",
        "-o",
        &out,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let doc: serde_json::Value =
        serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o.stdout)));
    let run = &doc["runs"][0];
    assert_eq!(run["output"], out.as_str());
    let summary = text(&std::fs::read(dir.join("out/summary.csv")).unwrap_or_default());
    let mut lines = summary.lines();
    let head: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let points = run["points"].as_array().cloned().unwrap_or_default();
    assert_eq!(points.len(), rows.len());
    for (point, row) in points.iter().zip(&rows) {
        let cell = |name: &str| -> f64 {
            let at = head.iter().position(|h| *h == name).unwrap_or(usize::MAX);
            row.get(at).and_then(|v| v.parse().ok()).unwrap_or(f64::NAN)
        };
        for (rate, lo) in [("a_win_rate", "a_win_lo"), ("b_win_rate", "b_win_lo")] {
            let json_rate = point["rates"][rate]["rate"].as_f64().unwrap_or(f64::NAN);
            let json_lo = point["rates"][rate]["lo"].as_f64().unwrap_or(f64::NAN);
            assert!((json_rate - cell(rate)).abs() < 1e-6, "{rate}");
            assert!((json_lo - cell(lo)).abs() < 1e-6, "{lo}");
        }
        assert_eq!(point["trials"].as_f64(), Some(cell("trials")));
        if point["point"] != 0 {
            let delta = point["deltas"]["a_win"]["delta"]
                .as_f64()
                .unwrap_or(f64::NAN);
            assert!((delta - cell("a_win_delta")).abs() < 1e-6);
        }
    }
}

#[test]
fn completions_and_the_man_page_come_from_the_command_line_definitions() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let o = duelsim(&["completions", shell]);
        assert!(o.status.success(), "{shell}");
        let script = text(&o.stdout);
        assert!(
            script.contains("duelsim") && script.contains("resume"),
            "{shell}"
        );
    }
    let o = duelsim(&["man"]);
    assert!(o.status.success());
    let page = text(&o.stdout);
    assert!(page.starts_with(".ie") || page.starts_with(".TH"), "{page}");
    assert!(page.contains(".TH DUELSIM 1") && page.contains("completions"));
}

#[test]
fn a_dash_reads_the_scenario_from_stdin_and_new_writes_to_stdout() {
    let shipped = std::fs::read_to_string(SCENARIO).unwrap_or_default();
    let o = with_stdin(&["check", "-"], &shipped);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("ok: 'knight-vs-brigand'"));
    let dir = scratch("stdin");
    let out = dir.join("out").to_string_lossy().into_owned();
    let o = with_stdin(
        &["run", "-", "-q", "--trials", "1000", "-o", &out],
        &shipped,
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(dir.join("out/report.html").exists());
    // An error in text from stdin still names its line.
    let o = with_stdin(
        &["check", "-"],
        &shipped.replace("attack = 13", "attack = -4"),
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).starts_with("error: -:"),
        "{}",
        text(&o.stderr)
    );
    // `new <ruleset> -` prints the starter and writes no file named "-".
    let o = Command::new(env!("CARGO_BIN_EXE_duelsim"))
        .args(["new", "twin-d20", "-"])
        .current_dir(&dir)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(o.status.success());
    assert!(text(&o.stdout).starts_with("# A starter twin-d20 scenario"));
    assert!(!dir.join("-").exists());
}

#[test]
fn trials_take_the_files_forms_and_bounds() {
    let dir = scratch("trials");
    let out = dir.join("out").to_string_lossy().into_owned();
    for form in ["1500", "1_500", "1.5e3"] {
        let o = duelsim(&["run", SCENARIO, "-q", "--trials", form, "-o", &out]);
        assert!(o.status.success(), "{form}: {}", text(&o.stderr));
        let summary = text(&std::fs::read(dir.join("out/summary.csv")).unwrap_or_default());
        assert!(
            summary
                .lines()
                .nth(1)
                .is_some_and(|l| l.starts_with("0,1500,")),
            "{form}"
        );
    }
    for bad in [
        "0",
        "1e13",
        "1000000000001",
        "18446744073709551615",
        "1.5",
        "lots",
    ] {
        let o = duelsim(&["run", SCENARIO, "-q", "--trials", bad, "-o", &out]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        assert!(
            text(&o.stderr).contains("--trials"),
            "{bad}: {}",
            text(&o.stderr)
        );
    }
}

#[test]
fn near_misses_are_named() {
    let o = duelsim(&["rulesets", "twin"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("did you mean 'twin-d20'"));
    let o = duelsim(&["check", "scenarios/twin-d20/knight-vs-brigan.toml"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("did you mean scenarios/twin-d20/knight-vs-brigand.toml?"),
        "{}",
        text(&o.stderr)
    );
    // The fighter's name is listed once in every ruleset's parameters.
    for id in [
        "twin-d20",
        "guard-pierce",
        "zone-d100",
        "wound-levels",
        "d6-pool",
    ] {
        let listed = text(&duelsim(&["rulesets", id]).stdout);
        let fighter: Vec<&str> = listed
            .split("\n\n")
            .filter(|section| section.starts_with("[a / b]"))
            .flat_map(|section| section.lines())
            .filter(|l| l.trim_start().starts_with("name "))
            .collect();
        assert_eq!(fighter.len(), 1, "{id}: {fighter:?}");
    }
}

#[test]
fn version_colour_and_no_color() {
    let o = duelsim(&["--version"]);
    let version = text(&o.stdout);
    assert!(
        version.starts_with(&format!("duelsim {}", env!("CARGO_PKG_VERSION"))),
        "{version}"
    );
    // Built from a git checkout, the version names its commit.
    if std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(".git")
        .exists()
    {
        assert!(version.contains("(commit "), "{version}");
    }
    let o = duelsim(&["--color", "always", "rulesets", "nope"]);
    assert!(text(&o.stderr).starts_with("\x1b[1;31merror\x1b[0m: "));
    // Not a terminal: no colour, whatever NO_COLOR says.
    let o = duelsim(&["rulesets", "nope"]);
    assert!(text(&o.stderr).starts_with("error: "));
    let o = duelsim(&["--color", "never", "rulesets", "nope"]);
    assert!(text(&o.stderr).starts_with("error: "));
    for command in ["check", "trace", "rulesets", "new", "exact", "merge", "run"] {
        let o = duelsim(&[command, "--help"]);
        assert!(text(&o.stdout).contains("--quiet"), "{command} takes -q");
    }
}

#[test]
fn a_recovery_summary_has_no_duel_columns() {
    let dir = scratch("recovery");
    let out = dir.join("out").to_string_lossy().into_owned();
    let o = duelsim(&[
        "run",
        "scenarios/zone-d100/recovery-g4-shoulder-healers.toml",
        "-q",
        "--trials",
        "500",
        "-o",
        &out,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let summary = text(&std::fs::read(dir.join("out/summary.csv")).unwrap_or_default());
    let head = summary.lines().next().unwrap_or_default();
    for column in head.split(',') {
        assert!(
            !(column.starts_with("end_")
                || column.contains("injuries")
                || column.starts_with("bleeders")
                || column.starts_with("amputations")
                || column.starts_with("glancing")
                || column.starts_with("a_")
                || column.starts_with("b_")
                || column.contains("win")),
            "{column} in {head}"
        );
    }
    assert!(head.contains("recovery_death_rate") && head.contains("died_blood_loss_rate"));
}

#[test]
fn merge_prints_the_answer_one_machine_prints() {
    let dir = scratch("merge");
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let whole = duelsim(&[
        "run",
        SCENARIO,
        "-q",
        "--trials",
        "4000",
        "-o",
        &path("whole"),
    ]);
    assert!(whole.status.success(), "{}", text(&whole.stderr));
    for k in ["1/2", "2/2"] {
        let o = duelsim(&[
            "run",
            SCENARIO,
            "-q",
            "--trials",
            "4000",
            "--shard",
            k,
            "-o",
            &path(&k.replace('/', "-")),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert!(o.stdout.is_empty(), "a shard has no answer yet");
    }
    let o = duelsim(&["merge", &path("1-2"), &path("2-2"), "-o", &path("merged")]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(text(&o.stdout), text(&whole.stdout));
    assert!(text(&o.stderr).contains("merged 2 shards"));
}

#[test]
fn a_mixed_side_whose_size_is_swept_is_named_without_a_count() {
    // duellist-vs-the-watch sweeps the watchmen behind the sergeant from one to three: a
    // heading "Sergeant + Watchman ×3 win" over the row of one watchman would say what that
    // row is not. The side is "Sergeant + Watchmen" at every point.
    let dir = scratch("mixed-side");
    let out = dir.join("watch").to_string_lossy().into_owned();
    let o = duelsim(&[
        "run",
        "scenarios/guard-pierce/duellist-vs-the-watch.toml",
        "--trials",
        "2_000",
        "-o",
        &out,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let said = text(&o.stdout);
    assert!(
        said.starts_with("duellist-vs-the-watch: Duellist against Sergeant + Watchmen, 3 points\n"),
        "{said}"
    );
    assert!(said.contains("Sergeant + Watchmen win"), "{said}");
    assert!(!said.contains('×'), "{said}");
    let report = text(&std::fs::read(dir.join("watch/report.html")).unwrap_or_default());
    assert!(
        report.contains("Sergeant + Watchmen"),
        "the report names the side alike"
    );
    assert!(
        !report.contains("Watchman ×"),
        "no count in the report's headings either"
    );
}

#[test]
fn counts_are_said_as_people_say_them() {
    let dir = std::env::temp_dir().join(format!("duelsim-counts-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let file = "scenarios/twin-d20/knight-vs-brigand.toml";
    let out = dir.join("out").to_string_lossy().into_owned();
    let o = common::duelsim(&[
        "run",
        file,
        "--trials",
        "2000",
        "--threads",
        "1",
        "-o",
        &out,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let said = text(&o.stderr);
    assert!(said.contains(": 1 point, 2,000 trials in "), "{said}");
    assert!(said.contains(", 1 thread -> "), "{said}");
    assert!(!said.contains("(s)"), "{said}");
    let o = common::duelsim(&["check", file]);
    let said = text(&o.stdout);
    assert!(said.contains("1 point x 1,000,000 trials"), "{said}");
    assert!(!said.contains("(s)"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}
