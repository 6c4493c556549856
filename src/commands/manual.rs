//! `duelsim man`: one man page (roff) for the whole command, written from the argument parser's
//! own description so that it never drifts from `--help`: every subcommand with its synopsis,
//! its options and its example, then EXIT STATUS, ENVIRONMENT and EXAMPLES.

use clap::Command;
use std::fmt::Write as _;

/// What each exit status means, as `main.rs` gives them.
const EXIT_STATUS: [(&str, &str); 4] = [
    ("0", "Success."),
    (
        "1",
        "A failure while running: an output folder that cannot be written, a full disk.",
    ),
    (
        "2",
        "Bad input: an argument, a scenario file, a catalogue, scripted dice or a shard folder \
         that is not what was expected. The error names the file, line and field. Nothing is \
         written.",
    ),
    (
        "130",
        "Interrupted (Ctrl-C). Finished points are kept; the line printed says how to resume.",
    ),
];

/// The environment variables duelsim reads.
const ENVIRONMENT: [(&str, &str); 5] = [
    (
        "DUELSIM_THREADS",
        "Worker threads of a run when --threads is not given (1 to 1024).",
    ),
    (
        "RAYON_NUM_THREADS",
        "Worker threads when neither --threads nor DUELSIM_THREADS is given; empty or 0 means \
         every core.",
    ),
    (
        "NO_COLOR",
        "When set and not empty, --color auto does not colour error lines.",
    ),
    (
        "CLICOLOR_FORCE",
        "When set, help is coloured even when not written to a terminal (--color never wins).",
    ),
    (
        "COLUMNS",
        "The width help is wrapped to when it is not written to a terminal (at most 100).",
    ),
];

/// Text escaped for roff: backslashes and dashes, and a line that would start a request.
fn roff(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    escaped
        .lines()
        .map(|line| {
            if line.starts_with(['.', '\'']) {
                format!("\\&{line}")
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Help text as a sentence: the argument parser drops the final full stop of a doc comment.
fn sentence(text: &str) -> String {
    let text = text.trim_end();
    if text.is_empty() || text.ends_with(['.', ':', '!', '?']) {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

/// An argument as its option line says it: `\-o, \-\-output <OUTPUT>` or `SCENARIOS...`.
fn option_label(arg: &clap::Arg) -> String {
    let value = arg
        .get_value_names()
        .and_then(|names| names.first())
        .map_or_else(|| arg.get_id().as_str().to_uppercase(), ToString::to_string);
    if arg.is_positional() {
        let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1);
        return format!("\\fI{}\\fR{}", roff(&value), if many { "..." } else { "" });
    }
    let mut names = Vec::new();
    if let Some(short) = arg.get_short() {
        names.push(format!("\\fB\\-{short}\\fR"));
    }
    if let Some(long) = arg.get_long() {
        names.push(format!("\\fB\\-\\-{}\\fR", roff(long)));
    }
    let mut label = names.join(", ");
    if arg.get_action().takes_values() {
        let _ = write!(label, " \\fI{}\\fR", roff(&value));
    }
    label
}

/// The `.TP` items of a command's arguments.
fn options(out: &mut String, command: &Command) {
    for arg in command.get_arguments().filter(|a| !a.is_hide_set()) {
        let help = arg
            .get_long_help()
            .or_else(|| arg.get_help())
            .map(ToString::to_string)
            .unwrap_or_default();
        let mut said = roff(&sentence(&help));
        let choices: Vec<String> = (if arg.get_action().takes_values() {
            arg.get_possible_values()
        } else {
            Vec::new()
        })
        .iter()
        .map(|v| v.get_name().to_owned())
        .collect();
        if !choices.is_empty() {
            let _ = write!(said, " One of: {}.", roff(&choices.join(", ")));
        }
        let _ = writeln!(out, ".TP\n{}\n{said}", option_label(arg));
    }
}

/// A subcommand's usage line without its "Usage: ".
fn usage(command: &Command, name: &str) -> String {
    let mut command = command.clone().bin_name(format!("duelsim {name}"));
    let usage = command.render_usage().to_string();
    usage.trim_start_matches("Usage: ").trim().to_owned()
}

/// The man page of `command` (the whole `duelsim`), in roff.
pub fn man_page(command: &Command, version: &str) -> String {
    let mut out = String::new();
    let about = command
        .get_about()
        .map(ToString::to_string)
        .unwrap_or_default();
    let _ = writeln!(
        out,
        ".TH DUELSIM 1 \"\" \"duelsim {}\" \"User Commands\"",
        roff(version)
    );
    let _ = writeln!(out, ".SH NAME\nduelsim \\- {}", roff(&about));
    let _ = writeln!(
        out,
        ".SH SYNOPSIS\n\\fBduelsim\\fR [\\fB\\-\\-color\\fR \\fIWHEN\\fR] \\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIARGS\\fR]"
    );
    let _ = writeln!(
        out,
        ".SH DESCRIPTION\nA designer writes a scenario file (the ruleset, the fighters, their weapons \
         and armour, the rules' constants, what to vary); \\fBduelsim run\\fR runs it and writes \
         tables (CSV and Markdown), charts and an HTML report: who wins, how often someone dies, \
         how long a fight lasts, how long wounds take to heal and what they leave behind, every \
         rate with its 95% interval, reproducible from a seed. The README and docs/rules/ of the \
         source describe the scenario file and each ruleset."
    );
    let _ = writeln!(out, ".SH OPTIONS");
    options(&mut out, command);
    let _ = writeln!(
        out,
        ".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nPrint help (of a command, after it).\n\
         .TP\n\\fB\\-V\\fR, \\fB\\-\\-version\\fR\nPrint the version."
    );
    let _ = writeln!(out, ".SH COMMANDS");
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub.get_name();
        let _ = writeln!(out, ".SS \"{}\"", roff(&usage(sub, name)));
        let about = sub
            .get_long_about()
            .or_else(|| sub.get_about())
            .map(ToString::to_string)
            .unwrap_or_default();
        let _ = writeln!(out, "{}", roff(&sentence(&about)));
        options(&mut out, sub);
    }
    let _ = writeln!(out, ".SH \"EXIT STATUS\"");
    for (status, meaning) in EXIT_STATUS {
        let _ = writeln!(out, ".TP\n{status}\n{}", roff(meaning));
    }
    let _ = writeln!(out, ".SH ENVIRONMENT");
    for (variable, meaning) in ENVIRONMENT {
        let _ = writeln!(out, ".TP\n\\fB{}\\fR\n{}", roff(variable), roff(meaning));
    }
    let _ = writeln!(out, ".SH EXAMPLES");
    for sub in command.get_subcommands() {
        let Some(example) = sub.get_after_help().map(ToString::to_string) else {
            continue;
        };
        for line in example
            .lines()
            .map(str::trim)
            .filter(|l| l.starts_with("duelsim"))
        {
            let _ = writeln!(out, ".PP\n.nf\n{}\n.fi", roff(line));
        }
    }
    let _ = writeln!(
        out,
        ".SH FILES\nA run writes into its output folder (default \\fIreports/<scenario name>\\fR): \
         summary.csv, distributions.csv, manifest.json, tables/, charts/ and report.html."
    );
    out
}
