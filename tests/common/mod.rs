//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test binary uses some of them

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Runs the `duelsim` binary from the crate's folder.
pub fn duelsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_duelsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("cannot start duelsim: {e}"))
}

/// The shipped scenario files of a ruleset (`scenarios/<id>/*.toml`), in name order.
pub fn shipped_scenarios(ruleset: &str) -> Vec<PathBuf> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(ruleset);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
        .filter_map(Result::ok)
        .map(|f| f.path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    files.sort();
    files
}

/// Whether an error is one headline line, optionally followed by the three lines of the file
/// line it points at (`  |`, `N | text`, `  | ^^`) with the caret at the headline's column.
pub fn is_headline_with_snippet(err: &str) -> bool {
    let lines: Vec<&str> = err.lines().collect();
    match lines.as_slice() {
        [_] => true,
        [headline, top, shown, caret] => {
            let line_number = shown.split(" | ").next().unwrap_or("").trim();
            let column = headline
                .split(':')
                .skip_while(|p| *p != line_number)
                .nth(1)
                .and_then(|c| c.trim().parse::<usize>().ok());
            let gutter = line_number.len() + 3;
            // A long line is shown from near the column, after a "…"; a control character
            // before the column is shown escaped (`\u{1b}`), moving the caret right with it.
            let windowed = shown.chars().nth(gutter) == Some('…')
                || (shown.contains("\\u{")
                    && column.is_some_and(|c| {
                        caret.chars().position(|ch| ch == '^') >= Some(gutter + c - 1)
                    }));
            top.trim() == "|"
                && !line_number.is_empty()
                && column
                    .is_some_and(|c| windowed || caret.chars().nth(gutter + c - 1) == Some('^'))
                && caret.contains('^')
        }
        _ => false,
    }
}

/// Waits for a started child, killing it after `limit`: `None` when it had not finished by then.
fn wait_within(mut child: std::process::Child, limit: Duration) -> Option<Output> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if let Ok(Some(_)) = child.try_wait() {
            return child.wait_with_output().ok();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

/// Runs duelsim, killing it after `limit`: `None` when it had not finished by then.
pub fn within(args: &[&str], limit: Duration) -> Option<Output> {
    let child = Command::new(env!("CARGO_BIN_EXE_duelsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start duelsim: {e}"));
    wait_within(child, limit)
}

/// Runs duelsim under a limit on its address space (`ulimit -v`, in KiB), killing it after
/// `limit`: an input that would need more memory fails instead of taking the machine.
pub fn within_memory(args: &[&str], kib: u64, limit: Duration) -> Option<Output> {
    let child = Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_duelsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start duelsim: {e}"));
    wait_within(child, limit)
}

/// How soon a refused input must be refused in a test: 2 s in a release build (as
/// `scripts/memory-bounds` measures), with room for an unoptimised build on a busy machine.
pub const REFUSAL: Duration = if cfg!(debug_assertions) {
    Duration::from_secs(5)
} else {
    Duration::from_secs(2)
};

/// Starts duelsim with `args` from the crate's folder, `stdin` fed in and closed, its stdout
/// and stderr kept.
pub fn spawn_with_stdin(args: &[&str], stdin: &str) -> std::process::Child {
    let mut child = Command::new(env!("CARGO_BIN_EXE_duelsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start duelsim: {e}"));
    if let Some(mut input) = child.stdin.take() {
        std::io::Write::write_all(&mut input, stdin.as_bytes())
            .unwrap_or_else(|e| panic!("cannot feed stdin: {e}"));
    }
    child
}

/// Sends `child` the signal the `kill` command names `name` ("INT", "TERM").
pub fn signal(child: &std::process::Child, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .unwrap_or_else(|e| panic!("cannot run kill: {e}"));
    assert!(status.success());
}

/// Runs duelsim with `args` (and `stdin` fed in), waits until `journal` exists and then
/// `settle` more, stops it with Ctrl-C (SIGINT) and returns what it said.
pub fn interrupted_run(args: &[&str], stdin: &str, journal: &Path, settle: Duration) -> Output {
    let child = spawn_with_stdin(args, stdin);
    let started = Instant::now();
    while !journal.exists() && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(settle);
    signal(&child, "INT");
    child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("cannot wait: {e}"))
}
