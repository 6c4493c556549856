//! Helpers shared by the integration tests.
#![allow(dead_code)] // each test binary uses some of them

use std::process::{Command, Output};

/// Runs the `duelsim` binary from the crate's folder.
pub fn duelsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_duelsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("cannot start duelsim: {e}"))
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
            // A long line is shown from near the column, after a "…".
            let windowed = shown.chars().nth(gutter) == Some('…');
            top.trim() == "|"
                && !line_number.is_empty()
                && column
                    .is_some_and(|c| windowed || caret.chars().nth(gutter + c - 1) == Some('^'))
                && caret.contains('^')
        }
        _ => false,
    }
}
