//! The `duelsim` command line: argument parsing only. Each subcommand calls the library
//! (`duelsim::commands`); errors map to exit codes: 2 for bad input, 1 for a failure while running.

use clap::{Parser, Subcommand};
use duelsim::commands::{self, RunOptions, TraceOptions};
use duelsim::dice::ScriptError;
use duelsim::scenario::error::InputError;
use std::path::PathBuf;
use std::process::ExitCode;

/// Monte Carlo balance tool for tabletop combat rules.
#[derive(Parser)]
#[command(name = "duelsim", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
        #[arg(required = true)]
        scenarios: Vec<PathBuf>,
        /// Output folder (default: reports/<scenario name>).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// Trials per point, overriding the scenario.
        #[arg(long)]
        trials: Option<u64>,
        /// Seed, overriding the scenario.
        #[arg(long)]
        seed: Option<u64>,
        /// Worker threads (default: all cores). The output does not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// No progress bar and no closing line.
        #[arg(short, long)]
        quiet: bool,
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
        #[arg(required = true)]
        shards: Vec<PathBuf>,
        /// Output folder.
        #[arg(short, long)]
        output: PathBuf,
        /// No closing line.
        #[arg(short, long)]
        quiet: bool,
    },
    /// Validate scenarios and print what would run.
    #[command(after_help = "Example:\n  duelsim check scenarios/zone-d100/*.toml")]
    Check {
        /// Scenario files (TOML).
        #[arg(required = true)]
        scenarios: Vec<PathBuf>,
    },
    /// Narrate one duel blow by blow, every die with its label.
    #[command(
        after_help = "Example:\n  duelsim trace tests/fixtures/example-one-die.toml --dice 3,11,1,1,5,1"
    )]
    Trace {
        /// Scenario file (TOML).
        scenario: PathBuf,
        /// Seed of the dice (default: the scenario's).
        #[arg(long)]
        seed: Option<u64>,
        /// Which sweep point.
        #[arg(long, default_value_t = 0)]
        point: usize,
        /// Die results to replay, in the order the trace prints them: --dice 1,3,11
        #[arg(long, value_delimiter = ',')]
        dice: Option<Vec<u32>>,
    },
    /// Write the exact distribution of one exchange each way (exact.csv, charts, report.html),
    /// and the rulebook grid of the file's [exact] grid (grid.csv and its heatmap).
    #[command(
        after_help = "Example:\n  duelsim exact scenarios/twin-d20/to-hit-table.toml -o reports/to-hit"
    )]
    Exact {
        /// Scenario file (TOML); its first point is tabulated.
        scenario: PathBuf,
        /// Output folder (default: reports/<scenario name>-exact).
        #[arg(short, long)]
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
        ruleset: String,
        /// The file to write (it must not exist); without it the scenario is printed.
        file: Option<PathBuf>,
    },
    /// List the rulesets, or one ruleset's parameters and defaults.
    #[command(after_help = "Example:\n  duelsim rulesets zone-d100")]
    Rulesets {
        /// A ruleset id.
        id: Option<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Run {
            scenarios,
            output,
            trials,
            seed,
            threads,
            quiet,
            resume,
            shard,
        } => commands::run(&RunOptions {
            scenarios,
            output,
            trials,
            seed,
            threads,
            quiet,
            resume,
            shard,
        })
        .map(|_| ()),
        Command::Merge {
            shards,
            output,
            quiet,
        } => commands::merge(&shards, &output, quiet).map(|_| ()),
        Command::Exact {
            scenario,
            output,
            quiet,
        } => commands::exact(&scenario, output.as_deref(), quiet).map(|_| ()),
        Command::Check { scenarios } => commands::check(&scenarios).map(|s| print!("{s}")),
        Command::New { ruleset, file } => {
            commands::new_scenario(&ruleset, file.as_deref()).map(|s| print!("{s}"))
        }
        Command::Trace {
            scenario,
            seed,
            point,
            dice,
        } => commands::trace(&TraceOptions {
            scenario,
            seed,
            point,
            dice,
        })
        .map(|s| print!("{s}")),
        Command::Rulesets { id } => commands::rulesets(id.as_deref()).map(|s| print!("{s}")),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) if error.downcast_ref::<commands::Interrupted>().is_some() => {
            eprintln!("{error}");
            ExitCode::from(130)
        }
        Err(error) => {
            eprintln!("error: {error:#}");
            // Under the headline, the line of the file it points at, with a caret.
            if let Some(lines) = error
                .downcast_ref::<InputError>()
                .and_then(|e| duelsim::scenario::error::snippet(&e.place))
            {
                eprintln!("{lines}");
            }
            if error.downcast_ref::<InputError>().is_some()
                || error.downcast_ref::<ScriptError>().is_some()
            {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
