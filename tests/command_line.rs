//! The command line in its details, as a new user meets it: argument errors in one line and in
//! the asked colour, help that fits a terminal, `-q` meaning quiet in every subcommand, closing
//! lines on stderr, the thread count from the environment, a man page with every option, and a
//! bash completion that offers scenario files and ruleset ids.

mod common;
use common::duelsim;
use std::process::{Command, Output};

const SCENARIO: &str = "scenarios/twin-d20/knight-vs-brigand.toml";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs duelsim with extra environment variables.
fn duelsim_with(env: &[(&str, &str)], args: &[&str]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_duelsim"));
    command.args(args).current_dir(env!("CARGO_MANIFEST_DIR"));
    for (key, value) in env {
        command.env(key, value);
    }
    command
        .output()
        .unwrap_or_else(|e| panic!("cannot start duelsim: {e}"))
}

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("duelsim-cl-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

#[test]
fn argument_errors_are_one_line_exit_2_and_say_where_help_is() {
    for args in [
        vec!["run", "--shard", "3/2", SCENARIO],
        vec!["run", "--bogus", SCENARIO],
        vec!["run"],
        vec!["bogus"],
        vec!["new"],
        vec!["run", "--threads", "many", SCENARIO],
    ] {
        let o = duelsim(&args);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?} takes one line:\n{err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(err.contains("--help"), "{args:?} says where help is: {err}");
        assert!(o.stdout.is_empty(), "{args:?}");
    }
    // A value the scenario decides is read once the scenario is: one line, exit 2.
    let o = duelsim(&["trace", "--point", "-1", SCENARIO]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stderr).lines().count(), 1);
    assert!(
        text(&o.stderr).contains("--point: knight-vs-brigand has one point, 0; found '-1'"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn the_colour_asked_for_holds_for_argument_errors_too() {
    // CLICOLOR_FORCE makes the argument parser colour its own errors unless told not to.
    let o = duelsim_with(
        &[("CLICOLOR_FORCE", "1")],
        &["--color", "never", "run", "--bogus", SCENARIO],
    );
    assert!(
        !o.stderr.contains(&0x1b),
        "--color never: {:?}",
        text(&o.stderr)
    );
    let o = duelsim_with(
        &[("CLICOLOR_FORCE", "1")],
        &["run", "--bogus", SCENARIO, "--color", "never"],
    );
    assert!(
        !o.stderr.contains(&0x1b),
        "--color never after the subcommand: {:?}",
        text(&o.stderr)
    );
    let o = duelsim(&["--color", "always", "run", "--bogus", SCENARIO]);
    assert!(
        text(&o.stderr).starts_with("\x1b[1;31merror"),
        "--color always: {:?}",
        text(&o.stderr)
    );
}

#[test]
fn help_is_wrapped_to_100_columns() {
    for command in [
        "run",
        "merge",
        "check",
        "trace",
        "exact",
        "new",
        "rulesets",
        "completions",
        "man",
    ] {
        let o = duelsim_with(&[("COLUMNS", "300")], &[command, "--help"]);
        assert!(o.status.success(), "{command} --help");
        for line in text(&o.stdout).lines() {
            assert!(
                line.chars().count() <= 100,
                "{command} --help has a line of {} characters: {line}",
                line.chars().count()
            );
        }
    }
}

#[test]
fn a_point_past_the_scenario_says_how_many_points_it_has() {
    let o = duelsim(&["trace", "--point", "3", SCENARIO]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("--point: knight-vs-brigand has one point, 0; found '3'"),
        "{err}"
    );
    let o = duelsim(&[
        "trace",
        "--point",
        "99",
        "scenarios/twin-d20/weapon-armour-matrix.toml",
    ]);
    let err = text(&o.stderr);
    assert!(
        err.contains("--point: weapon-armour-matrix has 16 points, 0 to 15; found '99'"),
        "{err}"
    );
}

#[test]
fn quiet_means_quiet_in_every_subcommand() {
    // check -q: nothing on stdout when every file is good; an error still said.
    let o = duelsim(&["check", "-q", SCENARIO]);
    assert!(o.status.success());
    assert!(o.stdout.is_empty(), "check -q: {}", text(&o.stdout));
    assert!(o.stderr.is_empty(), "check -q: {}", text(&o.stderr));
    // rulesets -q: the ids, one a line, for scripts.
    let o = duelsim(&["rulesets", "-q"]);
    assert_eq!(
        text(&o.stdout),
        "twin-d20\nguard-pierce\nzone-d100\nwound-levels\nd6-pool\n"
    );
    // trace -q: the story without a line for each die.
    let full = text(&duelsim(&["trace", SCENARIO]).stdout);
    let quiet = text(&duelsim(&["trace", "-q", SCENARIO]).stdout);
    assert!(full.contains("die #1:"), "{full}");
    assert!(!quiet.contains("die #"), "trace -q: {quiet}");
    assert!(quiet.lines().count() >= 3, "trace -q still tells: {quiet}");
    assert_eq!(
        full.lines().last(),
        quiet.lines().last(),
        "trace -q ends as trace does"
    );
    // new FILE says it wrote on stderr; new -q FILE says nothing.
    let dir = scratch("new");
    let file = dir.join("starter.toml");
    let file = file.to_string_lossy();
    let o = duelsim(&["new", "twin-d20", &file]);
    assert!(o.status.success());
    assert!(o.stdout.is_empty(), "new FILE: {}", text(&o.stdout));
    assert!(text(&o.stderr).contains("written"), "{}", text(&o.stderr));
    std::fs::remove_file(&*file).unwrap_or_else(|e| panic!("{e}"));
    let o = duelsim(&["new", "-q", "twin-d20", &file]);
    assert!(o.status.success());
    assert!(o.stdout.is_empty() && o.stderr.is_empty(), "new -q FILE");
    assert!(std::path::Path::new(&*file).exists());
}

#[test]
fn exact_says_its_closing_line_on_stderr_as_run_and_merge_do() {
    let dir = scratch("exact");
    let out = dir.join("out");
    let out = out.to_string_lossy();
    let o = duelsim(&["exact", "scenarios/twin-d20/to-hit-table.toml", "-o", &out]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(o.stdout.is_empty(), "exact: {}", text(&o.stdout));
    assert!(text(&o.stderr).contains("-> "), "{}", text(&o.stderr));
    let o = duelsim(&[
        "exact",
        "-q",
        "scenarios/twin-d20/to-hit-table.toml",
        "-o",
        &out,
    ]);
    assert!(o.stdout.is_empty() && o.stderr.is_empty());
}

/// The thread count a run's closing line names.
fn threads_said(env: &[(&str, &str)], extra: &[&str]) -> String {
    let dir = scratch(&format!("threads-{}", env.len() + extra.len()));
    let out = dir.to_string_lossy();
    let mut args = vec!["run", SCENARIO, "--trials", "1000", "-o", &out];
    args.extend_from_slice(extra);
    let o = duelsim_with(env, &args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    text(&o.stderr)
}

#[test]
fn the_thread_count_comes_from_the_environment_when_not_given() {
    assert!(threads_said(&[("DUELSIM_THREADS", "3")], &[]).contains("3 threads"));
    assert!(threads_said(&[("RAYON_NUM_THREADS", "1")], &[]).contains("1 thread "));
    // --threads over DUELSIM_THREADS over RAYON_NUM_THREADS.
    let both = [("DUELSIM_THREADS", "3"), ("RAYON_NUM_THREADS", "1")];
    assert!(threads_said(&both, &[]).contains("3 threads"));
    assert!(threads_said(&both, &["--threads", "2"]).contains("2 threads"));
    let o = duelsim_with(&[("DUELSIM_THREADS", "lots")], &["run", SCENARIO]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("DUELSIM_THREADS: expected 1 to 1024, found 'lots'"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn the_man_page_has_every_option_exit_status_environment_and_examples() {
    let o = duelsim(&["man"]);
    assert!(o.status.success());
    let page = text(&o.stdout);
    for section in [".SH NAME", ".SH SYNOPSIS", ".SH OPTIONS", ".SH COMMANDS"] {
        assert!(page.contains(section), "man page lacks {section}");
    }
    for section in [".SH \"EXIT STATUS\"", ".SH ENVIRONMENT", ".SH EXAMPLES"] {
        assert!(page.contains(section), "man page lacks {section}");
    }
    assert!(
        !page.contains("duelsim\\-run"),
        "no page of its own for a subcommand"
    );
    for option in [
        "\\-\\-trials",
        "\\-\\-seed",
        "\\-\\-threads",
        "\\-\\-resume",
        "\\-\\-shard",
        "\\-\\-json",
        "\\-\\-dice",
        "\\-\\-point",
        "\\-\\-output",
        "\\-\\-quiet",
        "DUELSIM_THREADS",
        "NO_COLOR",
    ] {
        assert!(page.contains(option), "man page lacks {option}");
    }
    for status in ["130", "\n2\n", "\n1\n"] {
        assert!(
            page.contains(status),
            "man page lacks exit status {status:?}"
        );
    }
}

/// What bash completes for `words` (the last the one being typed), with duelsim's completion.
fn bash_completes(words: &[&str]) -> Vec<String> {
    let script = text(&duelsim(&["completions", "bash"]).stdout);
    let dir = scratch(&format!("bash-{}", words.len()));
    let file = dir.join("duelsim.bash");
    std::fs::write(&file, script).unwrap_or_else(|e| panic!("{e}"));
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        "PATH=\"{bin}:$PATH\"; source '{file}'; COMP_WORDS=({words}); COMP_CWORD={last}; \
         COMP_LINE=\"${{COMP_WORDS[*]}}\"; COMP_POINT=${{#COMP_LINE}}; \
         _duelsim duelsim '{cur}' '{prev}'; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        bin = std::path::Path::new(env!("CARGO_BIN_EXE_duelsim"))
            .parent()
            .map(|p| p.display().to_string())
            .unwrap_or_default(),
        file = file.display(),
        words = quoted.join(" "),
        last = words.len() - 1,
        cur = words[words.len() - 1],
        prev = words[words.len() - 2],
    );
    let o = Command::new("bash")
        .args(["--norc", "-c", &program])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("cannot start bash: {e}"));
    assert!(o.status.success(), "bash: {}", text(&o.stderr));
    text(&o.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

#[test]
fn bash_completes_scenario_files_ruleset_ids_and_flags_where_each_belongs() {
    let after_run = bash_completes(&["duelsim", "run", "scenarios/twin-d20/knight-vs-b"]);
    assert_eq!(after_run, ["scenarios/twin-d20/knight-vs-brigand.toml"]);
    let after_run = bash_completes(&["duelsim", "run", ""]);
    assert!(
        !after_run.iter().any(|w| w.starts_with('-')),
        "no flags before a dash: {after_run:?}"
    );
    assert!(
        after_run
            .iter()
            .any(|w| w.trim_end_matches('/') == "scenarios"),
        "{after_run:?}"
    );
    let after_new = bash_completes(&["duelsim", "new", ""]);
    assert_eq!(
        after_new,
        [
            "twin-d20",
            "guard-pierce",
            "zone-d100",
            "wound-levels",
            "d6-pool"
        ]
    );
    let after_new = bash_completes(&["duelsim", "new", "zo"]);
    assert_eq!(after_new, ["zone-d100"]);
    let flags = bash_completes(&["duelsim", "run", "--re"]);
    assert_eq!(flags, ["--resume"]);
    let commands = bash_completes(&["duelsim", "ex"]);
    assert_eq!(commands, ["exact"]);
    let toml_only = bash_completes(&["duelsim", "check", "Cargo."]);
    assert_eq!(toml_only, ["Cargo.toml"]);
}

#[test]
fn check_says_how_long_the_run_will_take_from_this_machines_speed() {
    let o = duelsim(&["check", SCENARIO]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let said = text(&o.stdout);
    let time = said
        .lines()
        .find_map(|l| l.strip_prefix("  time: "))
        .unwrap_or_else(|| panic!("no time in {said}"));
    assert!(time.contains(" on ") && time.contains("thread"), "{time}");
    // A trillion trials take hours on any machine.
    let body = std::fs::read_to_string(SCENARIO).unwrap_or_else(|e| panic!("{e}"));
    let dir = scratch("estimate");
    let file = dir.join("long.toml");
    std::fs::write(
        &file,
        body.replace("trials = 1_000_000", "trials = 1_000_000_000_000"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let o = duelsim(&["check", &file.to_string_lossy()]);
    let said = text(&o.stdout);
    assert!(
        said.lines()
            .any(|l| l.starts_with("  time: about") && l.contains(" h on ")),
        "{said}"
    );
}

#[test]
fn the_readmes_annotated_example_is_the_shipped_file() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap_or_else(|e| panic!("{e}"));
    let block = readme
        .split("## Scenario files")
        .nth(1)
        .and_then(|s| s.split("```toml\n").nth(1))
        .and_then(|s| s.split("\n```").next())
        .unwrap_or_else(|| panic!("no annotated example in the README"));
    let annotated: toml::Table = toml::from_str(block).unwrap_or_else(|e| panic!("{e}"));
    let shipped: toml::Table = toml::from_str(
        &std::fs::read_to_string(root.join(SCENARIO)).unwrap_or_else(|e| panic!("{e}")),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        annotated, shipped,
        "README's annotated example and {SCENARIO}"
    );
    // The quick start says once how duelsim gets on the PATH.
    let start: String = readme.lines().take(25).collect::<Vec<_>>().join("\n");
    assert!(start.contains("cargo install --path ."), "{start}");
}
