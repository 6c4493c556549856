//! Nothing lost and nothing written where it should not be: an interrupted rerun leaves the
//! folder's earlier outputs whole, a planted symlink redirects no write, a symlinked journal is
//! refused, and a shard count too large for any split is refused where it is given and where it
//! is read, without running out of memory.

mod common;
use common::{duelsim, interrupted_run};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SCENARIO: &str = "scenarios/twin-d20/knight-vs-brigand.toml";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duelsim-lost-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

/// Runs the scenario quietly into `out` with `extra` arguments.
fn run_into(out: &Path, extra: &[&str]) -> std::process::Output {
    let out = out.to_string_lossy();
    let mut args = vec!["run", SCENARIO, "-q"];
    args.extend_from_slice(extra);
    args.extend(["-o", &out]);
    duelsim(&args)
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn a_rerun_interrupted_before_a_point_finishes_leaves_the_earlier_outputs_whole() {
    let dir = scratch("ctrl-c");
    let out = dir.join("out");
    let o = run_into(&out, &["--trials", "4000"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let earlier: Vec<(String, Vec<u8>)> = ["summary.csv", "distributions.csv", "manifest.json"]
        .iter()
        .map(|f| (f.to_string(), read(&out.join(f))))
        .collect();
    // The same scenario again, far longer: interrupted while its one point runs.
    let out_text = out.to_string_lossy();
    let o = interrupted_run(
        &[
            "run",
            SCENARIO,
            "-q",
            "--trials",
            "100000000000",
            "-o",
            &out_text,
        ],
        "",
        &out.join(".partial"),
        Duration::from_millis(1500),
    );
    assert!(!o.status.success(), "the run was not interrupted");
    for (file, bytes) in &earlier {
        assert!(
            read(&out.join(file)) == *bytes,
            "{file} was replaced by a run that finished nothing"
        );
    }
}

#[cfg(unix)]
#[test]
fn a_symlink_planted_at_a_temporary_name_redirects_no_write() {
    let dir = scratch("symlink");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap_or_else(|e| panic!("{e}"));
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, b"keep me\n").unwrap_or_else(|e| panic!("{e}"));
    // The temporary names the next few hundred processes would use for every output.
    let me = std::process::id();
    for pid in me..me + 400 {
        for name in [
            "summary.csv",
            "manifest.json",
            "report.html",
            "distributions.csv",
        ] {
            let planted = out.join(format!(".{name}.duelsim-{pid}.tmp"));
            let _ = std::os::unix::fs::symlink(&victim, planted);
        }
    }
    let o = run_into(&out, &["--trials", "2000"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(
        read(&victim),
        b"keep me\n",
        "a write went through a planted symlink"
    );
    for name in [
        "summary.csv",
        "manifest.json",
        "report.html",
        "distributions.csv",
    ] {
        let meta = std::fs::symlink_metadata(out.join(name)).unwrap_or_else(|e| panic!("{e}"));
        assert!(meta.file_type().is_file(), "{name} is not a plain file");
    }
}

#[cfg(unix)]
#[test]
fn a_symlinked_journal_is_refused() {
    let dir = scratch("journal");
    let out = dir.join("out");
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&out).unwrap_or_else(|e| panic!("{e}"));
    std::fs::create_dir_all(&elsewhere).unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(&elsewhere, out.join(".partial")).unwrap_or_else(|e| panic!("{e}"));
    let o = run_into(&out, &["--trials", "2000"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains(".partial"), "{}", text(&o.stderr));
    let written = std::fs::read_dir(&elsewhere).map_or(0, |d| d.count());
    assert_eq!(written, 0, "the journal was written through the symlink");
}

#[test]
fn a_shard_count_past_any_split_is_refused_where_it_is_given() {
    let dir = scratch("shard-count");
    let out = dir.join("out");
    let o = run_into(&out, &["--shard", "1/18446744073709551615"]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("at most"), "{}", text(&o.stderr));
}

#[test]
fn merge_counts_the_missing_shards_of_a_large_split_without_listing_them_all() {
    let dir = scratch("merge-count");
    let shard = dir.join("shard");
    let o = run_into(&shard, &["--trials", "2000", "--shard", "1/1000000"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let merged = dir.join("merged");
    let started = Instant::now();
    let o = duelsim(&[
        "merge",
        &shard.to_string_lossy(),
        "-o",
        &merged.to_string_lossy(),
    ]);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "merge took {:?}",
        started.elapsed()
    );
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("999,999 shards missing: 2/1000000, 3/1000000"),
        "{err}"
    );
    assert!(err.contains("and 999989 more"), "{err}");
    assert!(err.len() < 400, "{} bytes of error", err.len());
}

#[test]
fn a_catalogue_that_is_not_toml_is_named_but_never_quoted() {
    let dir = scratch("catalogue");
    let secret = dir.join("secrets.env");
    std::fs::write(&secret, "SECRET=hunter2\nTOKEN=abc123\n").unwrap_or_else(|e| panic!("{e}"));
    let scenario_text = std::fs::read_to_string(SCENARIO).unwrap_or_else(|e| panic!("{e}"));
    let scenario_text = scenario_text.replacen(
        "ruleset = ",
        &format!(
            "catalogues = [{:?}]\nruleset = ",
            secret.display().to_string()
        ),
        1,
    );
    let file = dir.join("scenario.toml");
    std::fs::write(&file, scenario_text).unwrap_or_else(|e| panic!("{e}"));
    let o = duelsim(&["check", &file.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(err.contains("secrets.env") && err.contains("TOML"), "{err}");
    for quoted in ["hunter2", "abc123", "SECRET", "TOKEN"] {
        assert!(!err.contains(quoted), "the error quotes the file: {err}");
    }
}

#[test]
fn a_name_with_a_control_or_direction_character_is_refused_at_check() {
    let dir = scratch("names");
    let original = std::fs::read_to_string(SCENARIO).unwrap_or_else(|e| panic!("{e}"));
    for (name, shown) in [
        ("Knight\\u0007", "U+0007"),
        ("Knight\\nforged line", "U+000A"),
        ("Knight\\u202Eevil", "U+202E"),
    ] {
        let renamed = original.replacen("name = \"Knight\"", &format!("name = \"{name}\""), 1);
        assert_ne!(renamed, original, "no Knight to rename");
        let file = dir.join("scenario.toml");
        std::fs::write(&file, renamed).unwrap_or_else(|e| panic!("{e}"));
        let o = duelsim(&["check", &file.to_string_lossy()]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", text(&o.stderr));
        let err = text(&o.stderr);
        assert!(
            err.contains(shown) && err.contains("a.name"),
            "{name}: {err}"
        );
        assert!(
            !err.contains('\u{7}') && !err.contains('\u{202E}'),
            "{name}: {err}"
        );
    }
}

#[test]
fn check_of_several_files_checks_them_all_then_exits_2() {
    let dir = scratch("check-all");
    let bad = |name: &str| {
        let file = dir.join(name);
        std::fs::write(&file, "name = \"x\"\nruleset = \"no-such-rules\"\n")
            .unwrap_or_else(|e| panic!("{e}"));
        file.to_string_lossy().into_owned()
    };
    let (first, last) = (bad("first.toml"), bad("last.toml"));
    let o = duelsim(&["check", &first, SCENARIO, &last]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(
        err.contains("first.toml") && err.contains("last.toml"),
        "{err}"
    );
    assert!(
        text(&o.stdout).contains("knight-vs-brigand"),
        "{}",
        text(&o.stdout)
    );
}

#[test]
fn the_ctrl_c_hint_runs_as_printed_with_every_file_stdin_and_option() {
    let dir = scratch("hint").join("runs with space");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let copied = dir.join("knight's duel.toml");
    std::fs::copy(SCENARIO, &copied).unwrap_or_else(|e| panic!("{e}"));
    let piped = std::fs::read_to_string(SCENARIO)
        .unwrap_or_else(|e| panic!("{e}"))
        .replace("name = \"knight-vs-brigand\"", "name = \"from-stdin\"");
    let out = dir.join("out");
    let (copied, out_text) = (copied.to_string_lossy(), out.to_string_lossy());
    let o = interrupted_run(
        &[
            "run",
            &copied,
            "-",
            "--trials",
            "3e6",
            "--threads",
            "1",
            "--json",
            "-q",
            "-o",
            &out_text,
        ],
        &piped,
        &out.join("knight-vs-brigand").join(".partial"),
        Duration::from_millis(500),
    );
    assert_eq!(o.status.code(), Some(130), "{}", text(&o.stderr));
    let said = text(&o.stderr);
    let hint = said
        .split('`')
        .nth(1)
        .unwrap_or_else(|| panic!("no command in {said}"));
    for part in [
        "--trials 3000000",
        "--threads 1",
        "--json",
        "-q",
        "--resume",
    ] {
        assert!(hint.contains(part), "{part} kept: {hint}");
    }
    // As printed, in a shell: both scenarios finish, the JSON says both.
    let o = Command::new("bash")
        .args(["-c", &hint.replace("duelsim ", "\"$DUELSIM\" ")])
        .env("DUELSIM", env!("CARGO_BIN_EXE_duelsim"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .unwrap_or_else(|e| panic!("cannot run bash: {e}"));
    assert!(o.status.success(), "{hint}: {}", text(&o.stderr));
    let json = text(&o.stdout);
    assert!(
        json.contains("\"from-stdin\"") && json.contains("\"knight-vs-brigand\""),
        "{json}"
    );
    for name in ["knight-vs-brigand", "from-stdin"] {
        assert!(out.join(name).join("summary.csv").exists(), "{name}");
    }
}
