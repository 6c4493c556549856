//! The `duelsim` command line: argument parsing only. Each subcommand calls the library
//! (`duelsim::commands`); errors map to exit codes: 2 for bad input, 1 for a failure while running.

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueHint};
use duelsim::commands::{self, RunOptions, TraceOptions};
use duelsim::dice::ScriptError;
use duelsim::scenario::error::{InputError, terminal_safe};
use std::path::PathBuf;
use std::process::ExitCode;

/// Monte Carlo balance tool for tabletop combat rules.
#[derive(Parser)]
#[command(name = "duelsim", version = env!("DUELSIM_VERSION"), about, max_term_width = 100)]
struct Cli {
    /// When to colour duelsim's own error lines: auto (a terminal, unless NO_COLOR is set),
    /// always or never.
    #[arg(long, value_enum, global = true, default_value_t = Color::Auto, value_name = "WHEN")]
    color: Color,
    #[command(subcommand)]
    command: Command,
}

/// `--color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Color {
    Auto,
    Always,
    Never,
}

/// `--trials`, read by [`parse_trials`]; a bad value is an input error of one line (exit 2).
fn parse_trials_option(text: Option<&str>) -> anyhow::Result<Option<u64>> {
    text.map(|t| parse_trials(t).map_err(|m| InputError::plain(format!("--trials: {m}")).into()))
        .transpose()
}

/// The most trials a point may run, as the scenario file's `trials` allows.
const MAX_TRIALS: u64 = 1_000_000_000_000;

/// Reads `--trials` as the scenario file writes trials: `1000000`, `1_000_000` or `1e6`, from 1
/// to 10^12.
fn parse_trials(text: &str) -> Result<u64, String> {
    parse_whole(text, "trials", 1..=MAX_TRIALS, "1 to 1000000000000 (10^12)")
}

/// `--seed`, read as `--trials` is (`1000`, `1_000` or `1e3`); a bad value is an input error of
/// one line (exit 2).
fn parse_seed_option(text: Option<&str>) -> anyhow::Result<Option<u64>> {
    text.map(|t| {
        parse_whole(t, "seed", 0..=u64::MAX, "0 to 18446744073709551615")
            .map_err(|m| InputError::plain(format!("--seed: {m}")).into())
    })
    .transpose()
}

/// A whole number written as a scenario file writes one (`1000000`, `1_000_000` or `1e6`) in
/// `range` (said as `range_words`); an error says what was expected and what was found.
fn parse_whole(
    text: &str,
    what: &str,
    range: std::ops::RangeInclusive<u64>,
    range_words: &str,
) -> Result<u64, String> {
    let digits = text.trim().replace('_', "");
    let expected = || {
        format!(
            "expected a whole number from {range_words}, such as 1000000, 1_000_000 or 1e6; found '{text}'"
        )
    };
    let value = if digits.contains(['e', 'E']) {
        // Exact as a whole number up to 2^53.
        let x: f64 = digits.parse().map_err(|_| expected())?;
        if x.fract() != 0.0 || !(0.0..=9_007_199_254_740_992.0).contains(&x) {
            return Err(expected());
        }
        x as u64
    } else if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        // Digits past what 64 bits hold are past the range too.
        match digits.parse::<u64>() {
            Ok(value) => value,
            Err(_) => return Err(format!("expected {range_words} {what}, found '{text}'")),
        }
    } else {
        return Err(expected());
    };
    if !range.contains(&value) {
        return Err(format!("expected {range_words} {what}, found '{text}'"));
    }
    Ok(value)
}

#[derive(Subcommand)]
enum Command {
    /// Run scenarios and write summary.csv, distributions.csv, manifest.json, the charts and
    /// report.html.
    #[command(
        after_help = "Example:\n  duelsim run scenarios/twin-d20/knight-vs-brigand.toml -o reports/knights --trials 200000"
    )]
    Run {
        /// Scenario files (TOML).
        #[arg(required = true, value_hint = ValueHint::FilePath)]
        scenarios: Vec<PathBuf>,
        /// Output folder (default: reports/<scenario name>).
        #[arg(short, long, value_hint = ValueHint::DirPath)]
        output: Option<PathBuf>,
        /// Trials per point, overriding the scenario (1 to 10^12: 1000000, 1_000_000 or 1e6).
        #[arg(long, value_name = "N")]
        trials: Option<String>,
        /// Seed, overriding the scenario (1000, 1_000 or 1e3).
        #[arg(long, value_name = "N")]
        seed: Option<String>,
        /// Worker threads (default: all cores). The output does not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// No progress bar and no closing line on stderr (the answer still goes to stdout).
        #[arg(short, long)]
        quiet: bool,
        /// Write the results as one JSON document on stdout instead of the answer in words.
        #[arg(long)]
        json: bool,
        /// Keep the finished points of an interrupted run of the same file into the same
        /// folder and run only the rest; the outputs are those of an uninterrupted run.
        #[arg(long)]
        resume: bool,
        /// Run only shard K of N of every point's chunks (K/N), for `duelsim merge`: the
        /// folder gets the shard's tallies, not a report.
        #[arg(long, value_parser = commands::parse_shard, value_name = "K/N")]
        shard: Option<duelsim::engine::Shard>,
    },
    /// Combine the folders of every shard of a split run into the outputs one machine would
    /// have written (byte-identical summary.csv and distributions.csv).
    #[command(
        after_help = "Example:\n  duelsim run FILE --shard 1/2 -o s1 && duelsim run FILE --shard 2/2 -o s2\n  duelsim merge s1 s2 -o merged"
    )]
    Merge {
        /// The shards' output folders.
        #[arg(required = true, value_hint = ValueHint::DirPath)]
        shards: Vec<PathBuf>,
        /// Output folder.
        #[arg(short, long, value_hint = ValueHint::DirPath)]
        output: PathBuf,
        /// No closing line.
        #[arg(short, long)]
        quiet: bool,
        /// Write the merged results as one JSON document on stdout, as `run --json` does.
        #[arg(long)]
        json: bool,
    },
    /// Validate scenarios and print what would run.
    #[command(after_help = "Example:\n  duelsim check scenarios/zone-d100/*.toml")]
    Check {
        /// Scenario files (TOML); - reads one from stdin.
        #[arg(required = true, value_hint = ValueHint::FilePath)]
        scenarios: Vec<PathBuf>,
        /// Nothing on stdout: the exit status says whether every file is good, and errors are
        /// said on stderr.
        #[arg(short, long)]
        quiet: bool,
    },
    /// Narrate one duel blow by blow, every die with its label.
    #[command(
        after_help = "Example:\n  duelsim trace tests/fixtures/example-one-die.toml --dice 3,11,1,1,5,1"
    )]
    Trace {
        /// Scenario file (TOML).
        #[arg(value_hint = ValueHint::FilePath)]
        scenario: PathBuf,
        /// Seed of the dice (default: the scenario's; 1000, 1_000 or 1e3).
        #[arg(long, value_name = "N")]
        seed: Option<String>,
        /// Which sweep point, from 0 (check lists them).
        #[arg(
            long,
            default_value = "0",
            allow_hyphen_values = true,
            value_name = "I"
        )]
        point: String,
        /// Die results to replay, in the order the trace prints them: --dice 1,3,11
        #[arg(long, value_delimiter = ',')]
        dice: Option<Vec<u32>>,
        /// The story without a line for each die.
        #[arg(short, long)]
        quiet: bool,
    },
    /// Write the exact distribution of one exchange each way (exact.csv, charts, report.html),
    /// and the rulebook grid of the file's [exact] grid (grid.csv and its heatmap).
    #[command(
        after_help = "Example:\n  duelsim exact scenarios/twin-d20/to-hit-table.toml -o reports/to-hit"
    )]
    Exact {
        /// Scenario file (TOML); its first point is tabulated.
        #[arg(value_hint = ValueHint::FilePath)]
        scenario: PathBuf,
        /// Output folder (default: reports/<scenario name>-exact).
        #[arg(short, long, value_hint = ValueHint::DirPath)]
        output: Option<PathBuf>,
        /// No closing line.
        #[arg(short, long)]
        quiet: bool,
    },
    /// Write a commented starter scenario of a ruleset that runs as written.
    #[command(
        after_help = "Example:\n  duelsim new zone-d100 my-duel.toml && duelsim run my-duel.toml"
    )]
    New {
        /// A ruleset id (duelsim rulesets lists them).
        #[arg(value_name = "RULESET")]
        ruleset: String,
        /// The file to write (it must not exist); without it, or with -, the scenario is
        /// printed.
        #[arg(value_hint = ValueHint::FilePath)]
        file: Option<PathBuf>,
        /// No line saying the file was written.
        #[arg(short, long)]
        quiet: bool,
    },
    /// List the rulesets, or one ruleset's parameters and defaults.
    #[command(after_help = "Example:\n  duelsim rulesets zone-d100")]
    Rulesets {
        /// A ruleset id.
        #[arg(value_name = "RULESET")]
        id: Option<String>,
        /// For scripts: the ids one a line, or an id's parameters without their meanings.
        #[arg(short, long)]
        quiet: bool,
    },
    /// Print a shell completion script: duelsim completions bash > ~/.local/share/bash-completion/completions/duelsim
    #[command(after_help = "Example:\n  duelsim completions zsh > ~/.zfunc/_duelsim")]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print the man page (roff): duelsim man > ~/.local/share/man/man1/duelsim.1
    Man,
}

fn main() -> ExitCode {
    let color = color_asked(std::env::args_os());
    let choice = match color {
        Color::Auto => clap::ColorChoice::Auto,
        Color::Always => clap::ColorChoice::Always,
        Color::Never => clap::ColorChoice::Never,
    };
    let cli = match Cli::command()
        .color(choice)
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
    {
        Ok(cli) => cli,
        Err(error) => return argument_error(&error, color),
    };
    let outcome = match cli.command {
        Command::Run {
            scenarios,
            output,
            trials,
            seed,
            threads,
            quiet,
            json,
            resume,
            shard,
        } => parse_trials_option(trials.as_deref()).and_then(|trials| {
            let seed = parse_seed_option(seed.as_deref())?;
            commands::run(&RunOptions {
                scenarios,
                output,
                trials,
                seed,
                threads,
                quiet,
                resume,
                shard,
                json,
            })
            .map(|_| ())
        }),
        Command::Merge {
            shards,
            output,
            quiet,
            json,
        } => commands::merge(&shards, &output, quiet, json).map(|_| ()),
        Command::Exact {
            scenario,
            output,
            quiet,
        } => commands::exact(&scenario, output.as_deref(), quiet).map(|_| ()),
        Command::Check { scenarios, quiet } => {
            // Every file is checked and each error said; the first error's status is the
            // exit status.
            let mut status = None;
            for file in &scenarios {
                match commands::check_and_try(file) {
                    Ok((said, tried)) => {
                        if !quiet {
                            print!("{}", terminal_safe(&said));
                            println!("  time: {}", terminal_safe(&tried.time));
                        }
                        for warning in &tried.warnings {
                            eprintln!("warning: {}: {}", file.display(), terminal_safe(warning));
                        }
                    }
                    Err(error) => {
                        let code = report_error(&error, color);
                        status.get_or_insert(code);
                    }
                }
            }
            return status.unwrap_or(ExitCode::SUCCESS);
        }
        Command::New {
            ruleset,
            file,
            quiet,
        } => {
            // `-` is stdout, as for every path duelsim reads or writes.
            let file = file.filter(|f| f.as_os_str() != "-");
            commands::new_scenario(&ruleset, file.as_deref()).map(|said| match file {
                // A file written: its closing line on stderr, as run's.
                Some(_) if quiet => {}
                Some(_) => eprint!("{}", terminal_safe(&said)),
                None => print!("{}", terminal_safe(&said)),
            })
        }
        Command::Completions { shell } => {
            let mut command = Cli::command();
            if shell == clap_complete::Shell::Bash {
                let ids = duelsim::rules::registry::ids();
                print!("{}", commands::bash_completion(&command, &ids));
            } else {
                clap_complete::generate(shell, &mut command, "duelsim", &mut std::io::stdout());
            }
            Ok(())
        }
        Command::Man => {
            print!(
                "{}",
                commands::man_page(&Cli::command(), env!("DUELSIM_VERSION"))
            );
            Ok(())
        }
        Command::Trace {
            scenario,
            seed,
            point,
            dice,
            quiet,
        } => parse_seed_option(seed.as_deref())
            .and_then(|seed| {
                commands::trace(&TraceOptions {
                    scenario,
                    seed,
                    point,
                    dice,
                    quiet,
                })
            })
            .map(|s| print!("{}", terminal_safe(&s))),
        Command::Rulesets { id, quiet } => {
            commands::rulesets(id.as_deref(), quiet).map(|s| print!("{}", terminal_safe(&s)))
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.downcast_ref::<commands::Interrupted>().is_some() => {
            eprintln!("{}", terminal_safe(&error.to_string()));
            ExitCode::from(130)
        }
        Err(error) => report_error(&error, color),
    }
}

/// Says an error on stderr (its headline, and under it the line of the file it points at) and
/// gives its exit status: 2 for bad input, 1 for anything else.
fn report_error(error: &anyhow::Error, color: Color) -> ExitCode {
    eprintln!(
        "{}: {}",
        error_word(color),
        terminal_safe(&format!("{error:#}"))
    );
    if let Some(lines) = error
        .downcast_ref::<InputError>()
        .and_then(|e| duelsim::scenario::error::snippet(&e.place))
    {
        eprintln!("{lines}");
    }
    if error.downcast_ref::<InputError>().is_some() || error.downcast_ref::<ScriptError>().is_some()
    {
        ExitCode::from(2)
    } else {
        ExitCode::from(1)
    }
}

/// The `--color` a command line asks for, read before the arguments are parsed so that the
/// argument parser's own errors follow it; `auto` when absent or not understood.
fn color_asked(args: impl Iterator<Item = std::ffi::OsString>) -> Color {
    let mut asked = Color::Auto;
    let mut args = args.skip(1);
    while let Some(arg) = args.next() {
        let value = match arg.to_str() {
            Some("--") => break,
            Some("--color") => args.next(),
            Some(a) => a.strip_prefix("--color=").map(Into::into),
            None => None,
        };
        asked = match value.as_ref().and_then(|v| v.to_str()) {
            Some("always") => Color::Always,
            Some("never") => Color::Never,
            Some("auto") => Color::Auto,
            _ => asked,
        };
    }
    asked
}

/// Says an argument error as every other error is said: one line, `error: ` in the asked
/// colour, and where help is; exit status 2. `--help` and `--version` print as asked, status 0.
fn argument_error(error: &clap::Error, color: Color) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = error.print();
        return if error.use_stderr() {
            ExitCode::from(2)
        } else {
            ExitCode::SUCCESS
        };
    }
    let rendered = error.render().to_string();
    // The first paragraph is the error; the rest is a tip and the usage.
    let said: Vec<&str> = rendered
        .lines()
        .take_while(|l| !l.trim().is_empty())
        .map(str::trim)
        .collect();
    let said = said.join(" ");
    let said = said.strip_prefix("error: ").unwrap_or(&said);
    let command = rendered
        .lines()
        .find_map(|l| l.strip_prefix("Usage: "))
        .map(|usage| {
            usage
                .split_whitespace()
                .take_while(|w| !w.starts_with(['[', '<', '-']))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|| "duelsim".to_owned());
    eprintln!(
        "{}: {} (see '{command} --help')",
        error_word(color),
        terminal_safe(said)
    );
    ExitCode::from(2)
}

/// "error", in bold red when `--color` asks for colour: always, or auto on a terminal with
/// `NO_COLOR` unset or empty (https://no-color.org).
fn error_word(color: Color) -> &'static str {
    use std::io::IsTerminal;
    let colour = match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            std::io::stderr().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    if colour {
        "\x1b[1;31merror\x1b[0m"
    } else {
        "error"
    }
}
