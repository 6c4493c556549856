//! Comparisons on common dice: the paired differences' intervals cover the true difference at
//! their stated rate, a point compared with itself differs by exactly nothing, a value that
//! does nothing weighs nothing, and compared runs are byte-identical across threads, shards and
//! a kill and resume.

use duelsim::dice::Dice;
use duelsim::engine::{Job, Shard, run_point};
use duelsim::log::Log;
use duelsim::rules::Ruleset;
use duelsim::stats::{DuelOutcome, Side, Tally, TallyShape};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::AtomicBool;

/// A one-die duel whose win chance is known exactly: `a` wins when a d100 falls in `from..=to`.
struct Coin {
    from: u32,
    to: u32,
}

impl Ruleset for Coin {
    fn shape(&self) -> TallyShape {
        TallyShape {
            round_limit: 1,
            max_damage: 1,
            horizon_days: 1,
            extras: &[],
            sides: [1, 1],
        }
    }

    fn trial<D: Dice, L: Log>(&self, dice: &mut D, _log: &mut L, tally: &mut Tally) {
        let roll = dice.d(100, "d100");
        let a_wins = (self.from..=self.to).contains(&roll);
        tally.record_duel(&DuelOutcome {
            winner: Some(if a_wins { Side::A } else { Side::B }),
            rounds: 1,
            dead: [0, 0],
        });
    }
}

#[test]
fn the_paired_interval_covers_the_true_difference_at_its_stated_rate() {
    // a wins on 48..=100 (0.53) against a baseline that wins on 1..=50 (0.50): the true
    // difference is 0.03, and the paired differences take -1, 0 and +1. Over 300 seeds the
    // 95% interval must cover 0.03 in 95% of runs, within 4.5 standard errors of that share.
    let point = Coin { from: 48, to: 100 };
    let baseline = Coin { from: 1, to: 50 };
    let runs = 300;
    let mut covered = 0;
    for seed in 0..runs {
        let t = run_point(
            Job {
                model: &point,
                baseline: Some(&baseline),
                seed,
            },
            8192,
            Shard::WHOLE,
            &ProgressBar::hidden(),
            &AtomicBool::new(false),
        );
        let (_, lo, hi) = t.paired.delta(0).unwrap_or((0.0, 1.0, -1.0));
        covered += u32::from(lo <= 0.03 && 0.03 <= hi);
    }
    let share = f64::from(covered) / runs as f64;
    let se = (0.95 * 0.05 / runs as f64).sqrt();
    assert!(
        (share - 0.95).abs() <= 4.5 * se,
        "covered {share} of {runs}"
    );
}

#[test]
fn a_point_compared_with_itself_differs_by_exactly_nothing() {
    let coin = Coin { from: 1, to: 37 };
    let same = Coin { from: 1, to: 37 };
    let t = run_point(
        Job {
            model: &coin,
            baseline: Some(&same),
            seed: 5,
        },
        20_000,
        Shard::WHOLE,
        &ProgressBar::hidden(),
        &AtomicBool::new(false),
    );
    assert_eq!(t.paired.pairs, 20_000);
    for i in 0..8 {
        assert_eq!(t.paired.delta(i), Some((0.0, 0.0, 0.0)), "outcome {i}");
    }
}

fn duelsim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_duelsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("cannot start duelsim: {e}"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duelsim-compare-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn rows(path: &Path) -> Vec<Vec<(String, String)>> {
    let text = String::from_utf8_lossy(&read(path)).into_owned();
    let mut lines = text.lines();
    let header: Vec<String> = lines
        .next()
        .unwrap_or_default()
        .split(',')
        .map(str::to_owned)
        .collect();
    lines
        .map(|l| {
            header
                .iter()
                .cloned()
                .zip(l.split(',').map(str::to_owned))
                .collect()
        })
        .collect()
}

fn cell(row: &[(String, String)], name: &str) -> f64 {
    row.iter()
        .find(|(k, _)| k == name)
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or(f64::NAN)
}

#[test]
fn a_value_that_does_nothing_weighs_nothing_and_a_real_one_is_seen() {
    // twin-d20: without the Aftermath nobody dies after the battle, so its death margin does
    // nothing; a's Attack does count.
    let dir = scratch("weights");
    let file = dir.join("w.toml");
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/twin-d20/knight-vs-brigand.toml"),
    )
    .unwrap_or_default();
    let text = text.replacen("aftermath = true", "aftermath = false\ndeath_margin = 5", 1);
    assert!(
        text.contains("death_margin = 5"),
        "the file sets the death margin"
    );
    std::fs::write(
        &file,
        format!("{text}\n[weights]\n\"rules.death_margin\" = 1\n\"a.attack\" = 1\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let out = dir.join("out");
    let o = duelsim(&[
        "run",
        &file.to_string_lossy(),
        "-q",
        "--trials",
        "40000",
        "-o",
        &out.to_string_lossy(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let weights = rows(&out.join("weights.csv"));
    assert_eq!(weights.len(), 2);
    let nothing = &weights[0];
    for name in [
        "a_win",
        "b_win",
        "a_dead",
        "b_dead",
        "rounds",
        "recovery_deaths",
        "impaired",
    ] {
        let (d, lo, hi) = (
            cell(nothing, &format!("{name}_delta")),
            cell(nothing, &format!("{name}_delta_lo")),
            cell(nothing, &format!("{name}_delta_hi")),
        );
        assert!(lo <= 0.0 && 0.0 <= hi, "{name}: {d} [{lo}, {hi}]");
    }
    let attack = &weights[1];
    assert!(cell(attack, "a_win_delta_lo") > 0.0, "{attack:?}");
    // Relative to a first entry that weighs nothing there is no ratio: the cell is empty.
    assert!(cell(attack, "a_win_relative").is_nan());
}

/// The fixture sweep compared with its first point.
fn compared_fixture(dir: &Path) -> PathBuf {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/resume-sweep.toml"),
    )
    .unwrap_or_default()
    .replace("trials = 300_000", "trials = 40_000");
    let file = dir.join("compared.toml");
    std::fs::write(
        &file,
        format!("{text}\n[compare]\nbaseline = {{ \"b.attack\" = 12 }}\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    file
}

#[test]
fn compared_runs_are_byte_identical_across_threads_shards_and_resume() {
    let dir = scratch("bytes");
    let file = compared_fixture(&dir);
    let file = file.to_string_lossy().into_owned();
    let run = |out: &Path, extra: &[&str]| {
        let mut args = vec!["run", file.as_str(), "-q", "-o"];
        let out = out.to_string_lossy().into_owned();
        args.push(&out);
        args.extend_from_slice(extra);
        let o = duelsim(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    let one = dir.join("one");
    run(&one, &["--threads", "1"]);
    let two = dir.join("two");
    run(&two, &["--threads", "2"]);
    let summary = rows(&one.join("summary.csv"));
    // The baseline is the point with b.attack 12 (point 4): its own deltas are 0; others not.
    let base = &summary[4];
    assert_eq!(cell(base, "a_win_delta"), 0.0);
    assert_eq!(cell(base, "a_win_delta_lo"), 0.0);
    assert!(
        cell(&summary[0], "a_win_delta_lo") > 0.0,
        "b.attack 8 against 12"
    );
    let mut shards = Vec::new();
    for k in 1..=3 {
        let out = dir.join(format!("shard{k}"));
        run(&out, &["--shard", &format!("{k}/3")]);
        shards.push(out.to_string_lossy().into_owned());
    }
    let merged = dir.join("merged");
    let merged_text = merged.to_string_lossy().into_owned();
    let mut args = vec!["merge", "-q", "-o", merged_text.as_str()];
    args.extend(shards.iter().map(String::as_str));
    let o = duelsim(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A run killed once two points are in its journal, then resumed.
    let resumed = dir.join("resumed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_duelsim"))
        .args(["run", &file, "-q", "-o", &resumed.to_string_lossy()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start duelsim: {e}"));
    let started = std::time::Instant::now();
    loop {
        let done = std::fs::read_dir(resumed.join(".partial")).map_or(0, |entries| {
            entries
                .flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".tally"))
                .count()
        });
        if done >= 2 || started.elapsed().as_secs() > 120 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let _ = child.kill();
    let _ = child.wait();
    run(&resumed, &["--resume"]);
    for file in ["summary.csv", "distributions.csv"] {
        let whole = read(&one.join(file));
        assert!(whole == read(&two.join(file)), "{file}: threads");
        assert!(whole == read(&merged.join(file)), "{file}: merged shards");
        assert!(
            whole == read(&resumed.join(file)),
            "{file}: killed and resumed"
        );
    }
}

const KNOWN: &str = r#"
name = "balance-known"
ruleset = "twin-d20"
seed = 1
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

#[test]
fn balance_finds_a_known_crossing_and_says_when_there_is_none() {
    // A die hits when above the Defense and no higher than the Attack: against Defense 13,
    // Attack 13 cannot hit and A never wins; against 12, a 13 hits. A's win rate crosses
    // 0.0005 between b.defense 12 and 13, whatever the dice.
    let dir = scratch("balance");
    let file = dir.join("known.toml");
    std::fs::write(
        &file,
        format!("{KNOWN}[balance]\npath = \"b.defense\"\nfrom = 0\nto = 19\ntarget = {{ a_win_rate = 0.0005 }}\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let check = duelsim(&["check", &file.to_string_lossy()]);
    let said = String::from_utf8_lossy(&check.stdout).into_owned();
    assert!(said.contains("at most 7 evaluations"), "{said}");
    let out = dir.join("out");
    let o = duelsim(&["run", &file.to_string_lossy(), "-o", &out.to_string_lossy()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The answer in words on stdout; the closing line, with the path, on stderr.
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(said.contains("B's defense 12–13"), "{said}");
    let closing = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(
        closing.contains("between b.defense = 12") && closing.contains("and b.defense = 13"),
        "{closing}"
    );
    let csv = String::from_utf8_lossy(&read(&out.join("balance.csv"))).into_owned();
    assert!(csv.lines().count() <= 8, "{csv}");
    assert!(csv.contains("\n13,8192,0.000000,"), "{csv}");
    // A target the range cannot reach.
    std::fs::write(
        &file,
        format!("{KNOWN}[balance]\npath = \"b.defense\"\nfrom = 12\nto = 19\ntarget = {{ a_win_rate = 0.9999 }}\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let o = duelsim(&["run", &file.to_string_lossy(), "-o", &out.to_string_lossy()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(said.contains("No B's defense from 12 to 19"), "{said}");
    let closing = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(closing.contains("not reachable"), "{closing}");
}

#[test]
fn a_killed_balance_search_resumes_from_its_finished_evaluations_to_the_same_bytes() {
    let dir = scratch("balance-resume");
    let file = dir.join("known.toml");
    let text = KNOWN.replace("trials = 8192", "trials = 200_000");
    std::fs::write(
        &file,
        format!("{text}[balance]\npath = \"b.defense\"\nfrom = 0\nto = 19\ntarget = {{ a_win_rate = 0.0005 }}\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let file = file.to_string_lossy().into_owned();
    let whole = dir.join("whole");
    let o = duelsim(&["run", &file, "-q", "-o", &whole.to_string_lossy()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let cut = dir.join("cut");
    let mut child = Command::new(env!("CARGO_BIN_EXE_duelsim"))
        .args(["run", &file, "-q", "-o", &cut.to_string_lossy()])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start duelsim: {e}"));
    let started = std::time::Instant::now();
    while !cut.join(".partial/point-00001.tally").exists() && started.elapsed().as_secs() < 120 {
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let _ = child.kill();
    let _ = child.wait();
    let o = duelsim(&["run", &file, "-q", "--resume", "-o", &cut.to_string_lossy()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for name in ["summary.csv", "distributions.csv", "balance.csv"] {
        assert!(
            read(&whole.join(name)) == read(&cut.join(name)),
            "{name} differs"
        );
    }
    assert!(!cut.join(".partial").exists());
}

#[test]
fn a_balance_search_split_over_shards_merges_into_the_answer_of_one_machine() {
    let dir = scratch("balance-shards");
    let file = dir.join("known.toml");
    std::fs::write(
        &file,
        format!("{KNOWN}[balance]\npath = \"b.defense\"\nfrom = 0\nto = 19\ntarget = {{ a_win_rate = 0.0005 }}\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let file = file.to_string_lossy().into_owned();
    let check = duelsim(&["check", &file]);
    let said = String::from_utf8_lossy(&check.stdout).into_owned();
    assert!(
        said.contains("with --shard, each of its 20 values"),
        "{said}"
    );
    let whole = dir.join("whole");
    let o = duelsim(&["run", &file, "-q", "-o", &whole.to_string_lossy()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut args = vec!["merge".to_owned(), "-q".to_owned(), "-o".to_owned()];
    let merged = dir.join("merged");
    args.push(merged.to_string_lossy().into_owned());
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
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(!out.join("balance.csv").exists());
        args.push(out.to_string_lossy().into_owned());
    }
    let o = duelsim(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for name in ["summary.csv", "distributions.csv", "balance.csv"] {
        assert!(
            read(&whole.join(name)) == read(&merged.join(name)),
            "{name}: the merged search differs from one machine's"
        );
    }
    let report = String::from_utf8_lossy(&read(&merged.join("report.html"))).into_owned();
    // The answer, in words, as the report's headline: the fighter's name and the rate, not the
    // path and column name.
    let answer = report
        .split("<p class=\"headline\">")
        .nth(1)
        .and_then(|rest| rest.split("</p>").next())
        .unwrap_or_default();
    assert!(
        answer.contains("B's defense 12–13 brings the share of duels where A wins to 0.05%:")
            && !answer.contains("b.defense")
            && !answer.contains("a_win_rate"),
        "the answer is in the report, in words: {answer}"
    );
    // Its chart marks the probes as points with the target and the answer, not a win-rate curve.
    let chart = String::from_utf8_lossy(&read(&merged.join("charts/balance.svg"))).into_owned();
    assert!(
        chart.contains("target: 0.05%")
            && chart.contains("answer: B&apos;s defense between 12 and 13"),
        "the balance chart marks the target and the answer"
    );
    assert!(!merged.join("charts/win-rate.svg").exists());
    // A range too wide to run every value on every shard is refused, with the limit.
    std::fs::write(
        dir.join("wide.toml"),
        format!("{KNOWN}[balance]\npath = \"round_limit\"\nfrom = 1\nto = 1000\ntarget = {{ a_win_rate = 0.5 }}\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let o = duelsim(&[
        "run",
        &dir.join("wide.toml").to_string_lossy(),
        "--shard",
        "1/2",
        "-o",
        &dir.join("wide").to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("at most 257 values"));
}
