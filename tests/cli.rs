//! The `duelsim` binary as a designer uses it: outputs, determinism across threads and seeds,
//! the text's worked examples through `trace --dice`, and clear exit-2 errors for bad input.

mod common;
use common::is_headline_with_snippet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const SCENARIO: &str = "scenarios/twin-d20/knight-vs-brigand.toml";

fn duelsim(args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_duelsim"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output();
    match output {
        Ok(o) => o,
        Err(e) => panic!("cannot start duelsim: {e}"),
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duelsim-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)
        .unwrap_or_else(|e| panic!("cannot create {}: {e}", dir.display()));
    dir
}

fn run_to(dir: &Path, extra: &[&str]) -> (Vec<u8>, Vec<u8>) {
    let out = dir.to_string_lossy().into_owned();
    let mut args = vec!["run", SCENARIO, "-q", "--trials", "100000", "-o", &out];
    args.extend_from_slice(extra);
    let o = duelsim(&args);
    assert!(o.status.success(), "run failed: {}", text(&o.stderr));
    let read = |f: &str| std::fs::read(dir.join(f)).unwrap_or_else(|e| panic!("{f}: {e}"));
    (read("summary.csv"), read("distributions.csv"))
}

#[test]
fn run_writes_the_tables_manifest_charts_and_report_with_the_contract_columns() {
    let dir = scratch("files");
    let (summary, distributions) = run_to(&dir.join("out"), &[]);
    let summary = text(&summary);
    let header = summary.lines().next().unwrap_or_default();
    for column in [
        "point",
        "trials",
        "a_win_rate",
        "a_win_lo",
        "a_win_hi",
        "b_win_rate",
        "b_win_lo",
        "b_win_hi",
        "draw_rate",
        "a_dead_rate",
        "b_dead_rate",
        "rounds_mean",
        "recovery_days_mean",
        "recovery_days_p50",
        "recovery_days_p90",
        "recovery_death_rate",
        "impairment_rate",
        "impairment_mean",
        "unhealed_rate",
    ] {
        assert!(
            header.split(',').any(|c| c == column),
            "missing column {column} in {header}"
        );
    }
    assert_eq!(summary.lines().count(), 2);
    assert!(text(&distributions).starts_with("point,metric,bin,count\n0,rounds,1,"));
    let manifest = std::fs::read_to_string(dir.join("out/manifest.json")).unwrap_or_default();
    assert!(manifest.contains("\"trials\": 100000"), "{manifest}");
    assert!(manifest.contains("\"trials_per_s\""));
    let mut leftovers: Vec<String> = std::fs::read_dir(dir.join("out"))
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    leftovers.sort();
    assert_eq!(
        leftovers,
        [
            "charts",
            "distributions.csv",
            "fighters.csv",
            "manifest.json",
            "report.html",
            "summary.csv",
            "tables"
        ],
        "only the outputs: no temporary files, no journal"
    );
    let mut charts: Vec<String> = std::fs::read_dir(dir.join("out/charts"))
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    charts.sort();
    assert_eq!(
        charts,
        [
            "damage-at-least.png",
            "damage-at-least.svg",
            "damage-per-hit.png",
            "damage-per-hit.svg",
            "days-to-whole.png",
            "days-to-whole.svg",
            "outcomes.png",
            "outcomes.svg",
            "recovery-outcomes.png",
            "recovery-outcomes.svg",
            "rounds-decided.png",
            "rounds-decided.svg",
            "rounds.png",
            "rounds.svg"
        ],
        "a single point draws the outcome shares, rounds, rounds-decided, damage-per-hit and days-to-whole charts"
    );
}

#[test]
fn output_is_byte_identical_across_thread_counts_and_repeats_and_changes_with_the_seed() {
    let dir = scratch("determinism");
    let one = run_to(&dir.join("t1"), &["--threads", "1"]);
    let two = run_to(&dir.join("t2"), &["--threads", "2"]);
    let again = run_to(&dir.join("t2-again"), &["--threads", "2"]);
    assert_eq!(one, two, "--threads 1 and --threads 2 differ");
    assert_eq!(two, again, "the same seed twice differs");
    let other = run_to(&dir.join("seed"), &["--seed", "7"]);
    assert_ne!(one.0, other.0, "a different seed gave the same summary");
    assert_ne!(one.1, other.1);
}

fn trace(fixture: &str, dice: &str) -> String {
    let o = duelsim(&[
        "trace",
        &format!("tests/fixtures/{fixture}"),
        "--dice",
        dice,
    ]);
    assert!(o.status.success(), "trace failed: {}", text(&o.stderr));
    text(&o.stdout)
}

#[test]
fn trace_replays_the_one_die_damage_example() {
    let t = trace("example-one-die.toml", "3,11,1,1,5,1");
    assert!(t.contains("die #1: black d20 (attack) = 3"), "{t}");
    assert!(t.contains("die #2: white d20 (attack) = 11"), "{t}");
    assert!(
        t.contains("black missed: its last digit adds 3: Damage 5"),
        "{t}"
    );
    assert!(t.contains("b marks Wound 5"), "{t}");
}

#[test]
fn trace_replays_the_both_dice_damage_example() {
    let t = trace("example-both-dice.toml", "10,6,1,1,11,1");
    assert!(
        t.contains("both hit: twice the difference adds 8: Damage 11"),
        "{t}"
    );
    assert!(t.contains("b marks Wound 11"), "{t}");
}

#[test]
fn trace_replays_the_recovery_example() {
    let t = trace("example-recovery.toml", "6,15,1,1,7,15,1,1,11,4,3,20");
    assert!(t.contains("b recovers: Toughness 8, wounds [6, 7]"), "{t}");
    assert!(t.contains("die #9: black d20 (Recovery) = 11"), "{t}");
    assert!(t.contains("die #10: white d20 (Recovery) = 4"), "{t}");
    assert!(
        t.contains("Recovery roll with 8: 4 success; Wound 7 lowered to 3; wounds now [3]"),
        "{t}"
    );
    assert!(t.contains("b is whole after 14 days"), "{t}");
}

#[test]
fn trace_with_a_seed_prints_dice_that_replay_to_the_same_story() {
    // d6-pool's pools come eight dice to a draw from the fast source: the trace narrates each
    // die, and replayed one by one they tell the same story.
    for (scenario, seed) in [
        (SCENARIO, "5"),
        ("scenarios/d6-pool/berserker-vs-shieldwall.toml", "5"),
        ("scenarios/d6-pool/berserker-vs-shieldwall.toml", "9"),
    ] {
        let seeded = duelsim(&["trace", scenario, "--seed", seed]);
        assert!(seeded.status.success());
        let seeded = text(&seeded.stdout);
        let dice = seeded
            .lines()
            .find_map(|l| l.strip_prefix("dice used ("))
            .and_then(|l| l.split("--dice ").nth(1))
            .unwrap_or_default()
            .to_owned();
        assert!(!dice.is_empty(), "{seeded}");
        let replayed = text(&duelsim(&["trace", scenario, "--dice", &dice]).stdout);
        let story = |t: &str| t.lines().skip(2).map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(story(&seeded), story(&replayed), "{scenario} seed {seed}");
    }
}

#[test]
fn trace_with_too_few_dice_exits_2_and_says_which_die_was_missing() {
    let o = duelsim(&[
        "trace",
        "tests/fixtures/example-one-die.toml",
        "--dice",
        "3,11,1",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("die #4 (white d20 (attack), d20) has no result"),
        "{err}"
    );
    // The narration stops at the missing die: no made-up result follows it.
    let out = text(&o.stdout);
    let story: Vec<&str> = out.lines().collect();
    let stop = story
        .iter()
        .position(|l| l.contains("the trace stops here"))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(story[stop + 1].starts_with("dice used"), "{out}");
    assert!(!out.contains("both miss"), "{out}");
    // Every ruleset stops the same way.
    for scenario in [
        "scenarios/guard-pierce/pick-vs-plate.toml",
        "scenarios/wound-levels/knife-vs-pistol.toml",
        "scenarios/d6-pool/berserker-vs-shieldwall.toml",
        "scenarios/zone-d100/broadsword-vs-spear.toml",
    ] {
        let o = duelsim(&["trace", scenario, "--dice", "1,1,1"]);
        assert_eq!(o.status.code(), Some(2), "{scenario}");
        let out = text(&o.stdout);
        let story: Vec<&str> = out.lines().collect();
        let stop = story
            .iter()
            .position(|l| l.contains("the trace stops here"))
            .unwrap_or_else(|| panic!("{scenario}: {out}"));
        assert!(
            story[stop + 1].starts_with("dice used"),
            "{scenario}: {out}"
        );
    }
    let o = duelsim(&[
        "trace",
        "tests/fixtures/example-one-die.toml",
        "--dice",
        "3,25",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("is a d20 but the given result is 25"));
}

#[test]
fn rulesets_lists_every_parameter_with_its_default() {
    let all = text(&duelsim(&["rulesets"]).stdout);
    for id in [
        "twin-d20",
        "guard-pierce",
        "zone-d100",
        "wound-levels",
        "d6-pool",
    ] {
        assert!(all.contains(id), "{all}");
    }
    let one = text(&duelsim(&["rulesets", "twin-d20"]).stdout);
    for key in [
        "hit_on_defense",
        "death_margin",
        "interval_days",
        "first_strike",
        "round_limit",
        "catalogues",
        "[weights]",
        "[balance]",
    ] {
        assert!(
            one.contains(&format!("  {key} ")),
            "missing '{key}' in\n{one}"
        );
    }
    for id in [
        "twin-d20",
        "guard-pierce",
        "zone-d100",
        "wound-levels",
        "d6-pool",
    ] {
        let listed = text(&duelsim(&["rulesets", id]).stdout);
        assert!(!listed.contains("in progress"), "{listed}");
        // Every key line has its '=' and its meaning in the same columns (a key too long for
        // the column puts the meaning on the next line, at the meaning's column).
        let keyed: Vec<&str> = listed.lines().filter(|l| l.contains(" = ")).collect();
        let equals = keyed
            .iter()
            .filter_map(|l| l.find(" = "))
            .min()
            .unwrap_or(0);
        let mut meaning = None;
        for line in &keyed {
            let at = line.find(" = ").unwrap_or(0);
            if at == equals {
                let after = &line[at + 3..];
                let gap = after
                    .find("  ")
                    .map(|g| at + 3 + g + after[g..].len() - after[g..].trim_start().len());
                if let Some(column) = gap {
                    assert_eq!(*meaning.get_or_insert(column), column, "{id}: '{line}'");
                }
            }
        }
        let a_b = listed.split("[a / b]").nth(1).unwrap_or_default();
        assert!(
            a_b.trim_start().starts_with("name "),
            "{id}: the fighter's name is listed: {a_b}"
        );
    }
    let zone = text(&duelsim(&["rulesets", "zone-d100"]).stdout);
    for name in [
        "skull",
        "upper_arm",
        "foot",
        "[patient]",
        "compare_physicians",
    ] {
        assert!(zone.contains(name), "{name} missing in\n{zone}");
    }
    let o = duelsim(&["rulesets", "twin-d2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("did you mean 'twin-d20'?"));
}

#[test]
fn check_describes_what_would_run() {
    let o = duelsim(&["check", SCENARIO]);
    assert!(o.status.success());
    let out = text(&o.stdout);
    assert!(
        out.contains(
            "ok: 'knight-vs-brigand' (twin-d20), Knight vs Brigand, 1 point x 1,000,000 trials"
        ),
        "{out}"
    );
}

/// One kind of bad input: how to break the shipped scenario, and what the error must say.
struct Bad {
    name: &'static str,
    from: &'static str,
    to: &'static str,
    expect: &'static [&'static str],
}

const BAD_INPUTS: &[Bad] = &[
    Bad {
        name: "misspelled-weapon",
        from: "weapon = \"broadsword\"",
        to: "weapon = \"brodsword\"",
        expect: &[
            ":17:10: a.weapon: unknown weapon 'brodsword' (did you mean 'broadsword'?); known: broadsword, spear",
        ],
    },
    Bad {
        name: "negative-toughness",
        from: "toughness = 9",
        to: "toughness = -3",
        expect: &[":16:13: a.toughness: expected a whole number from 1 to 40, found -3"],
    },
    Bad {
        name: "unknown-key",
        from: "defense = 6\n",
        to: "defense = 6\nwepon = \"spear\"\n",
        expect: &[":16:1: a.wepon: unknown key 'wepon' (did you mean 'weapon'?)"],
    },
    Bad {
        name: "empty-value",
        from: "toughness = 9",
        to: "toughness = ",
        expect: &[
            ":16:13: a.toughness: has no value after '='; expected a value",
            "\n16 | toughness = \n   |             ^",
        ],
    },
    Bad {
        name: "broken-toml",
        from: "[b]",
        to: "[b",
        expect: &[":20:", "b: "],
    },
    Bad {
        name: "unknown-ruleset",
        from: "ruleset = \"twin-d20\"",
        to: "ruleset = \"twin-d2\"",
        expect: &[":6:11: ruleset: unknown ruleset 'twin-d2' (did you mean 'twin-d20'?)"],
    },
    Bad {
        name: "unknown-stance",
        from: "stance = \"aggressive\"",
        to: "stance = \"agressive\"",
        expect: &["b.stance: unknown value 'agressive' (did you mean 'aggressive'?)"],
    },
    Bad {
        name: "text-for-number",
        from: "toughness = 8",
        to: "toughness = \"eight\"",
        expect: &["b.toughness: expected a whole number from 1 to 40, found the text \"eight\""],
    },
    Bad {
        name: "missing-key",
        from: "toughness = 8\n",
        to: "",
        expect: &[":20:1: b: missing the required key 'toughness'"],
    },
    Bad {
        name: "wrong-type-bool",
        from: "aftermath = true",
        to: "aftermath = \"yes\"",
        expect: &["rules.aftermath: expected true or false, found the text \"yes\""],
    },
    Bad {
        name: "zero-interval",
        from: "interval_days = 7",
        to: "interval_days = 0",
        expect: &["healing.interval_days: expected a whole number from 1 to 365, found 0"],
    },
    Bad {
        name: "unknown-section",
        from: "[rules]",
        to: "[rulez]",
        expect: &["rulez: unknown key 'rulez' (did you mean 'rules'?)"],
    },
    Bad {
        name: "unknown-armour",
        from: "armour = \"mail and shield\"",
        to: "armour = \"plate\"",
        expect: &["a.armour: unknown armour 'plate'; known: mail and shield"],
    },
    Bad {
        name: "bad-name",
        from: "name = \"knight-vs-brigand\"",
        to: "name = \"../escape\"",
        expect: &["name: '../escape' cannot name the output folder"],
    },
    Bad {
        name: "toughness-above-sheet",
        from: "[rules]",
        to: "[rules]\nwound_circles = 9",
        expect: &[":16:13: a.toughness: Toughness 9 leaves no circle above it"],
    },
];

#[test]
fn bad_input_exits_2_with_one_line_naming_line_and_field_and_creates_nothing() {
    let original = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(SCENARIO))
        .unwrap_or_else(|e| panic!("{e}"));
    let dir = scratch("bad");
    for bad in BAD_INPUTS {
        assert!(
            original.contains(bad.from),
            "{}: the shipped scenario no longer contains {:?}",
            bad.name,
            bad.from
        );
        let file = dir.join(format!("{}.toml", bad.name));
        std::fs::write(&file, original.replacen(bad.from, bad.to, 1))
            .unwrap_or_else(|e| panic!("{e}"));
        let file = file.to_string_lossy().into_owned();
        let out = dir.join(format!("{}-out", bad.name));
        for args in [
            vec!["check", &file],
            vec!["run", &file, "-q", "-o", &out.to_string_lossy()],
        ] {
            let o = duelsim(&args.iter().map(|s| s.as_ref()).collect::<Vec<&str>>());
            let err = text(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{}: {err}", bad.name);
            assert!(
                is_headline_with_snippet(&err),
                "{}: not one headline with the line it points at: {err}",
                bad.name
            );
            assert!(
                err.lines().count() == 4 || !err.lines().next().unwrap_or("").contains(".toml:"),
                "{}: an error at a line shows the line: {err}",
                bad.name
            );
            assert!(
                err.starts_with(&format!("error: {file}:")),
                "{}: {err}",
                bad.name
            );
            for expected in bad.expect {
                assert!(
                    err.contains(expected),
                    "{}: expected {expected:?} in {err}",
                    bad.name
                );
            }
            assert!(
                !err.contains("panicked") && !err.contains("backtrace"),
                "{err}"
            );
            assert!(!out.exists(), "{}: an output folder was created", bad.name);
        }
    }
}

#[test]
fn bad_command_line_values_exit_2() {
    for args in [
        vec!["run", SCENARIO, "--trials", "0", "-q"],
        vec!["run", SCENARIO, "--threads", "0", "-q", "--trials", "10"],
        vec!["run", "no/such/file.toml"],
        vec!["trace", SCENARIO, "--point", "3"],
    ] {
        let o = duelsim(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert_eq!(text(&o.stderr).lines().count(), 1, "{args:?}");
    }
}

/// Every scenario under `scenarios/`, recursively.
fn shipped_scenarios() -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "toml") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios"),
        &mut out,
    );
    out.sort();
    out
}

#[test]
fn every_shipped_scenario_runs_as_shipped_with_the_healing_columns() {
    let scenarios = shipped_scenarios();
    assert!(scenarios.len() >= 4, "{scenarios:?}");
    let dir = scratch("shipped");
    // Two at a time: each run is its own process, and the machine has two cores.
    let half = scenarios.len() / 2;
    let (early, late) = scenarios.split_at(half);
    std::thread::scope(|scope| {
        let dir = &dir;
        let other = scope.spawn(move || run_shipped_with_healing_columns(early, 0, dir));
        run_shipped_with_healing_columns(late, half, dir);
        if other.join().is_err() {
            panic!("a shipped scenario failed (see above)");
        }
    });
}

/// Runs `scenarios` (numbered from `from`) into `dir` and checks their healing columns.
fn run_shipped_with_healing_columns(scenarios: &[PathBuf], from: usize, dir: &Path) {
    for (i, path) in scenarios.iter().enumerate() {
        let out = dir.join((from + i).to_string());
        let o = duelsim(&[
            "run",
            &path.to_string_lossy(),
            "-q",
            "--trials",
            "20000",
            "-o",
            &out.to_string_lossy(),
        ]);
        assert!(
            o.status.success(),
            "{}: {}",
            path.display(),
            text(&o.stderr)
        );
        let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap_or_default();
        let header = summary.lines().next().unwrap_or_default();
        for column in [
            "recovery_days_mean",
            "recovery_days_p90",
            "recovery_death_rate",
            "unhealed_rate",
            "impairment_rate",
        ] {
            assert!(header.contains(column), "{}: no {column}", path.display());
        }
    }
}

#[test]
fn guard_pierce_scenarios_report_dying_and_infection_and_list_their_parameters() {
    let dir = scratch("guard-pierce");
    let o = duelsim(&[
        "run",
        "scenarios/guard-pierce/recovery-ward.toml",
        "-q",
        "--trials",
        "20000",
        "-o",
        &dir.to_string_lossy(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap_or_default();
    let mut lines = summary.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let value = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .and_then(|i| row.get(i))
            .and_then(|v| v.parse::<f64>().ok())
    };
    for column in [
        "a_dying_rate",
        "b_dying_rate",
        "died_dying_rate",
        "infected_rate",
        "infections_mean",
    ] {
        assert!(value(column).is_some(), "no {column} in {summary}");
    }
    assert!(
        value("a_dying_rate").unwrap_or(0.0) > 0.0,
        "falchions leave some fighters dying"
    );
    assert!(
        value("recovery_days_mean").unwrap_or(0.0) >= 30.0,
        "monthly rolls take at least a month"
    );
    let params = text(&duelsim(&["rulesets", "guard-pierce"]).stdout);
    for key in [
        "full_hit_pierce        = 2",
        "interval_damage_cut    = 5",
        "dying_minutes          = 60",
        "attention_minutes      = 30",
    ] {
        assert!(params.contains(key), "missing {key} in {params}");
    }
}

#[test]
fn a_malformed_protection_interval_is_an_error_at_its_line() {
    let dir = scratch("interval");
    let original = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/guard-pierce/pick-vs-plate.toml"),
    )
    .unwrap_or_default();
    let file = dir.join("bad.toml");
    let _ = std::fs::write(
        &file,
        original.replacen("protection = \"6-13\"", "protection = \"13-6\"", 1),
    );
    let o = duelsim(&["check", &file.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(
        err.contains("armour.plate.protection: expected a Protection interval such as \"4-11\""),
        "{err}"
    );
    assert!(err.contains("bad.toml:38:14: "), "{err}");
}

#[test]
fn a_melee_fighter_who_would_withdraw_is_an_error_at_its_line() {
    // wound-levels: withdrawing out of melee range is a ranged fighter's tactic; set on a melee
    // fighter it would do nothing, so it is refused where it is written.
    let dir = scratch("withdraw");
    let original = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/wound-levels/bruiser-vs-fencer.toml"),
    )
    .unwrap_or_default();
    let file = dir.join("bad.toml");
    let _ = std::fs::write(
        &file,
        original.replacen(
            "weapon = \"club\"\n",
            "weapon = \"club\"\nwithdraw = \"always\"\n",
            1,
        ),
    );
    let o = duelsim(&["check", &file.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2));
    let err = text(&o.stderr);
    assert!(err.contains("bad.toml:17:12: "), "{err}");
    assert!(
        err.contains("a.withdraw: expected \"never\" for a fighter without a ranged weapon"),
        "{err}"
    );
}

#[test]
fn catalogue_entries_are_found_and_their_errors_name_the_catalogue_file() {
    let dir = scratch("catalogue");
    let catalogue = dir.join("weapons.toml");
    let write =
        |path: &Path, text: &str| std::fs::write(path, text).unwrap_or_else(|e| panic!("{e}"));
    write(
        &catalogue,
        "[weapons.sword]\nimpact_die = 10\nimpact_modifier = 3\naspect = \"E\"\n\n[armour.coat]\npieces = [{ locations = [\"thorax\"], B = 1, E = 1, P = 1 }]\n",
    );
    let scenario = dir.join("s.toml");
    let body = "name = \"s\"\nruleset = \"zone-d100\"\ncatalogues = [\"weapons.toml\"]\n[a]\nmelee_ml = 60\ndodge_ml = 50\nshock_ml = 60\ninitiative_ml = 60\nweapon = \"sword\"\narmour = \"coat\"\n[b]\nmelee_ml = 60\ndodge_ml = 50\nshock_ml = 60\ninitiative_ml = 60\nweapon = \"swrod\"\n";
    write(&scenario, body);
    let o = duelsim(&["check", &scenario.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("b.weapon: unknown weapon 'swrod' (did you mean 'sword'?)"),
        "{}",
        text(&o.stderr)
    );
    write(&scenario, &body.replace("swrod", "sword"));
    let o = duelsim(&["check", &scenario.to_string_lossy()]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    write(
        &catalogue,
        "[weapons.sword]\nimpact_die = 10\naspect = \"E\"\n\n[armour.coat]\npieces = [{ locations = [\"thorx\"], B = 1, E = 1, P = 1 }]\n",
    );
    let o = duelsim(&["check", &scenario.to_string_lossy()]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("weapons.toml:6:"),
        "the error is placed in the catalogue: {err}"
    );
    assert!(
        err.contains("unknown location 'thorx' (did you mean 'thorax'?)"),
        "{err}"
    );
}

#[test]
fn recovery_scenarios_compare_healers_and_are_for_zone_d100_only() {
    let dir = scratch("recovery");
    let o = duelsim(&[
        "run",
        "scenarios/zone-d100/recovery-g4-shoulder-healers.toml",
        "-q",
        "--trials",
        "5000",
        "-o",
        &dir.to_string_lossy(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let summary = std::fs::read_to_string(dir.join("summary.csv")).unwrap_or_default();
    assert!(
        summary.starts_with("point,healing.physicians,trials,"),
        "{summary}"
    );
    assert_eq!(
        summary.lines().count(),
        4,
        "one row per healer set: {summary}"
    );
    let file = dir.join("twin.toml");
    let original = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(SCENARIO))
        .unwrap_or_default();
    let _ = std::fs::write(
        &file,
        original.replacen(
            "ruleset = \"twin-d20\"",
            "ruleset = \"twin-d20\"\nkind = \"recovery\"",
            1,
        ),
    );
    let o = duelsim(&["check", &file.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("kind: recovery scenarios are supported for zone-d100 only"),
        "{}",
        text(&o.stderr)
    );
}

#[test]
fn recovery_patients_take_at_most_four_healers_arrow_and_area_wounds_and_report_comas() {
    let dir = scratch("recovery-healers");
    let base = "name = \"healers\"\nruleset = \"zone-d100\"\nkind = \"recovery\"\n";
    let patient = "[patient]\ninjuries = [ { location = \"thigh\", aspect = \"P\", level = 3, broadhead = true }, { location = \"thorax\", aspect = \"F\", level = 2, area = true } ]\n";
    // "Physician ML of each healer present (up to 4)": five are refused, at their line.
    for (name, body, at) in [
        (
            "five-sets.toml",
            format!("{base}compare_physicians = [[40], [10, 20, 30, 40, 50]]\n{patient}"),
            ":4:",
        ),
        (
            "five-healers.toml",
            format!("{base}[healing]\nphysicians = [10, 20, 30, 40, 50]\n{patient}"),
            ":5:",
        ),
    ] {
        let file = dir.join(name);
        let _ = std::fs::write(&file, body);
        let o = duelsim(&["check", &file.to_string_lossy()]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains(at) && err.contains("at most 4 healers"),
            "{err}"
        );
    }
    // An Area injury must be fire or frost.
    let file = dir.join("area-edge.toml");
    let _ = std::fs::write(
        &file,
        format!(
            "{base}{}",
            patient.replace("\"F\", level = 2", "\"E\", level = 2")
        ),
    );
    let o = duelsim(&["check", &file.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("patient.injuries.area"),
        "{}",
        text(&o.stderr)
    );
    // Broadhead arrows and Area burns heal; the coma at the horizon is a column.
    let file = dir.join("ok.toml");
    let _ = std::fs::write(&file, format!("{base}trials = 2000\n{patient}"));
    let out = dir.join("ok-out");
    let o = duelsim(&[
        "run",
        &file.to_string_lossy(),
        "-q",
        "-o",
        &out.to_string_lossy(),
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap_or_default();
    assert!(summary.contains(",comatose_at_horizon_rate,"), "{summary}");
}

#[test]
fn traces_narrate_in_the_rules_words_with_no_rust_debug_output() {
    // No `Plan { .. }`, `Attacker(2)`, `Some(..)` or `UpperArm` in any ruleset's trace.
    let debug_like = |line: &str| {
        let words: Vec<&str> = line.split_whitespace().collect();
        line.contains(" { ")
            || line.contains("Some(")
            || line.contains("None")
            || words.iter().any(|w| {
                let w = w.trim_matches(|c: char| !c.is_alphanumeric() && c != '(' && c != ')');
                // CamelCase words, or a capitalised word followed by "(digits)".
                let camel = w.chars().skip(1).any(|c| c.is_ascii_uppercase())
                    && w.chars().any(|c| c.is_ascii_lowercase())
                    && w.chars().all(|c| c.is_ascii_alphabetic());
                let call = w.starts_with(|c: char| c.is_ascii_uppercase())
                    && w.ends_with(')')
                    && w.contains('(');
                camel || call
            })
    };
    for file in shipped_scenarios() {
        for seed in ["1", "2", "3", "4", "5", "6", "7"] {
            let o = duelsim(&["trace", &file.to_string_lossy(), "--seed", seed]);
            assert!(o.status.success(), "{}", text(&o.stderr));
            let story = text(&o.stdout);
            for line in story
                .lines()
                .filter(|l| !l.trim_start().starts_with("die #"))
            {
                assert!(!debug_like(line), "{}: {line}", file.display());
            }
        }
    }
}

#[test]
fn inputs_past_their_bounds_are_one_line_errors_at_their_place() {
    let dir = scratch("bounds");
    let base = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/twin-d20/knight-vs-brigand.toml"),
    )
    .unwrap_or_default()
    .replace("\"../../", &format!("\"{}/", env!("CARGO_MANIFEST_DIR")));
    let write = |name: &str, bytes: &[u8]| {
        let file = dir.join(name);
        std::fs::write(&file, bytes).unwrap_or_else(|e| panic!("{e}"));
        file.to_string_lossy().into_owned()
    };
    let check = |file: &str, expected: &[&str]| {
        let started = std::time::Instant::now();
        let o = duelsim(&["check", file]);
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{file}: {err}");
        assert!(
            is_headline_with_snippet(&err),
            "{file}: not one headline: {err}"
        );
        assert!(err.len() < 1000, "{file}: {} bytes of error", err.len());
        for e in expected {
            assert!(err.contains(e), "{file}: expected {e:?} in {err}");
        }
        assert!(started.elapsed().as_secs() < 20, "{file}: too slow");
    };
    // Not a regular file, as the scenario or as a catalogue.
    check("/dev/zero", &["/dev/zero: is not a regular file"]);
    check(&dir.to_string_lossy(), &["is not a regular file"]);
    let zero = base.replacen("\nruleset", "\ncatalogues = [\"/dev/zero\"]\nruleset", 1);
    check(
        &write("zero.toml", zero.as_bytes()),
        &["catalogues: cannot use the catalogue /dev/zero"],
    );
    // Past 16 MiB.
    let mut huge = base.clone().into_bytes();
    huge.extend(std::iter::repeat_n(b'#', 17 << 20));
    check(
        &write("huge.toml", &huge),
        &["expected a scenario file of at most"],
    );
    // Not UTF-8: the line and column of the bad byte.
    let mut latin = b"name = \"x\"\n# caf".to_vec();
    latin.push(0xe9);
    check(
        &write("latin.toml", &latin),
        &["latin.toml:2:6: is not UTF-8"],
    );
    // A control character in a value is refused at its place, named by its code point.
    let newline = base.replacen("weapon = \"", "weapon = \"brod\\nsword\\u001b", 1);
    check(
        &write("newline.toml", newline.as_bytes()),
        &["a.weapon", "U+000A"],
    );
    // A missing ruleset is placed at the top of the file.
    let no_ruleset: String = base
        .lines()
        .filter(|l| !l.starts_with("ruleset"))
        .map(|l| format!("{l}\n"))
        .collect();
    check(
        &write("no-ruleset.toml", no_ruleset.as_bytes()),
        &["no-ruleset.toml:1:1: ruleset: missing"],
    );
    // A huge sweep list is refused at once, and the error quotes no value.
    let values = vec!["5"; 10_001].join(", ");
    let long_list = format!("{base}\n[sweep]\n\"a.attack\" = [{values}]\n");
    check(
        &write("long-list.toml", long_list.as_bytes()),
        &["holds more than 10000 entries in one list or table; expected at most 10000"],
    );
    // guard-pierce: an empty penalty list has a place.
    let gp = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/guard-pierce/pick-vs-plate.toml"),
    )
    .unwrap_or_default()
    .replace("\"../../", &format!("\"{}/", env!("CARGO_MANIFEST_DIR")))
    .replacen("[a]\n", "[a]\npenalties = []\n", 1);
    check(
        &write("penalties.toml", gp.as_bytes()),
        &["penalties.toml:", "a.penalties: expected 1 to"],
    );
}

#[test]
fn a_run_removes_only_what_an_earlier_run_wrote_and_refuses_two_scenarios_of_one_name() {
    let dir = scratch("own-files");
    let out = dir.join("out");
    let out_text = out.to_string_lossy().into_owned();
    // A sweep draws its heatmap; the user adds a chart of their own.
    let o = duelsim(&[
        "run",
        "scenarios/twin-d20/weapon-armour-matrix.toml",
        "-q",
        "--trials",
        "2000",
        "-o",
        &out_text,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let drawn: Vec<String> = std::fs::read_dir(out.join("charts"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let mine = out.join("charts/mine.svg");
    std::fs::write(&mine, "<svg/>").unwrap_or_else(|e| panic!("{e}"));
    // A scenario without a sweep into the same folder: the sweep's own charts go, the user's stays.
    let o = duelsim(&[
        "run",
        "scenarios/twin-d20/knight-vs-brigand.toml",
        "-q",
        "--trials",
        "2000",
        "-o",
        &out_text,
    ]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(mine.exists(), "the user's chart was removed");
    let now: Vec<String> = std::fs::read_dir(out.join("charts"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        drawn.iter().any(|c| !now.contains(c)),
        "no chart of the sweep was removed: {drawn:?} {now:?}"
    );
    let manifest = text(&std::fs::read(out.join("manifest.json")).unwrap_or_default());
    assert!(manifest.contains("\"charts/rounds.svg\""), "{manifest}");
    assert!(!manifest.contains("mine.svg"), "{manifest}");

    // Two scenarios of one name in one run: refused before anything is written.
    let copy = dir.join("copy.toml");
    let original = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/twin-d20/knight-vs-brigand.toml"),
    )
    .unwrap_or_default();
    std::fs::write(&copy, original).unwrap_or_else(|e| panic!("{e}"));
    let both = dir.join("both");
    let o = duelsim(&[
        "run",
        "scenarios/twin-d20/knight-vs-brigand.toml",
        &copy.to_string_lossy(),
        "-q",
        "-o",
        &both.to_string_lossy(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(
        text(&o.stderr).contains("would both write"),
        "{}",
        text(&o.stderr)
    );
    assert!(!both.exists());
    // --threads is bounded.
    let o = duelsim(&[
        "run",
        "scenarios/twin-d20/knight-vs-brigand.toml",
        "--threads",
        "100000",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("--threads: expected 1 to 1024"));
}

#[test]
fn none_armour_is_no_armour_in_every_ruleset() {
    // `armour = "none"` needs no [armour.none] entry: it is no armour at all.
    let dir = scratch("none-armour");
    for (scenario, fighter) in [
        ("scenarios/twin-d20/knight-vs-brigand.toml", "[a]"),
        ("scenarios/guard-pierce/cudgel-vs-sword.toml", "[a]"),
        ("scenarios/wound-levels/knife-vs-pistol.toml", "[a]"),
        ("scenarios/d6-pool/berserker-vs-shieldwall.toml", "[a]"),
        ("scenarios/zone-d100/broadsword-vs-spear.toml", "[a]"),
    ] {
        let original =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(scenario))
                .unwrap_or_default()
                .replace("\"../../", &format!("\"{}/", env!("CARGO_MANIFEST_DIR")));
        let start = original
            .find(&format!("{fighter}\n"))
            .unwrap_or_else(|| panic!("{scenario}"));
        let end = original[start + 1..]
            .find("\n[")
            .map_or(original.len(), |e| start + 1 + e);
        let section: String = original[start..end]
            .lines()
            .filter(|l| !l.starts_with("armour"))
            .map(|l| format!("{l}\n"))
            .collect();
        let section = section.replacen(
            &format!("{fighter}\n"),
            &format!("{fighter}\narmour = \"none\"\n"),
            1,
        );
        let edited = format!("{}{section}{}", &original[..start], &original[end..]);
        let file = dir.join(scenario.replace('/', "-"));
        std::fs::write(&file, edited).unwrap_or_else(|e| panic!("{e}"));
        let o = duelsim(&["check", &file.to_string_lossy()]);
        assert!(o.status.success(), "{scenario}: {}", text(&o.stderr));
    }
}

#[test]
fn every_subcommand_help_ends_with_an_example() {
    for sub in ["run", "merge", "check", "trace", "exact", "new", "rulesets"] {
        let o = duelsim(&[sub, "--help"]);
        let help = text(&o.stdout);
        assert!(o.status.success(), "{sub}");
        assert!(help.contains("Example:\n  duelsim "), "{sub}: {help}");
    }
    let help = text(&duelsim(&["run", "--help"]).stdout);
    assert!(help.contains("report.html"), "{help}");
}

#[test]
fn new_writes_a_starter_scenario_that_checks_for_every_ruleset() {
    let dir = scratch("new");
    for id in [
        "twin-d20",
        "guard-pierce",
        "zone-d100",
        "wound-levels",
        "d6-pool",
    ] {
        let file = dir.join(format!("starter-{id}.toml"));
        let file_text = file.to_string_lossy().into_owned();
        let o = duelsim(&["new", id, &file_text]);
        assert!(o.status.success(), "{id}: {}", text(&o.stderr));
        let o = duelsim(&["check", &file_text]);
        let said = text(&o.stdout);
        assert!(o.status.success(), "{id}: {}", text(&o.stderr));
        assert!(
            said.contains(&format!("ok: 'starter-{id}' ({id})")),
            "{said}"
        );
        // Never over an existing file.
        let o = duelsim(&["new", id, &file_text]);
        assert_eq!(o.status.code(), Some(2), "{id}");
        assert!(text(&o.stderr).contains("already exists"));
        // Printed without a file.
        let o = duelsim(&["new", id]);
        assert!(text(&o.stdout).starts_with(&format!("# A starter {id} scenario")));
    }
    let o = duelsim(&["new", "chess"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("known: twin-d20"));
}

#[test]
fn columns_that_mean_nothing_are_left_out() {
    let dir = scratch("columns");
    let run = |scenario: &str, name: &str| {
        let out = dir.join(name);
        let o = duelsim(&[
            "run",
            scenario,
            "-q",
            "--trials",
            "2000",
            "-o",
            &out.to_string_lossy(),
        ]);
        assert!(o.status.success(), "{scenario}: {}", text(&o.stderr));
        out
    };
    // A recovery scenario runs no duel: no win, draw, death or rounds columns.
    let recovery = run(
        "scenarios/zone-d100/recovery-g4-shoulder-healers.toml",
        "recovery",
    );
    let summary = text(&std::fs::read(recovery.join("summary.csv")).unwrap_or_default());
    let header = summary.lines().next().unwrap_or_default();
    for absent in [
        "a_win_rate",
        "draw_rate",
        "rounds_mean",
        "damage_per_hit_mean",
    ] {
        assert!(
            !header.split(',').any(|c| c == absent),
            "{absent} in {header}"
        );
    }
    assert!(header.contains("recovery_death_rate"), "{header}");
    let report = text(&std::fs::read(recovery.join("report.html")).unwrap_or_default());
    assert!(
        !report.contains("wins</th>"),
        "a recovery report shows wins"
    );
    // twin-d20 has no death in recovery and no lasting impairment; zone-d100 has both.
    let twin = run("scenarios/twin-d20/knight-vs-brigand.toml", "twin");
    let report = text(&std::fs::read(twin.join("report.html")).unwrap_or_default());
    assert!(
        !report.contains("<th>die in recovery</th>"),
        "twin-d20 report"
    );
    assert!(
        !report.contains("<th>lasting impairment</th>"),
        "twin-d20 report"
    );
    let zone = run("scenarios/zone-d100/broadsword-vs-spear.toml", "zone");
    let report = text(&std::fs::read(zone.join("report.html")).unwrap_or_default());
    assert!(
        report.contains("<th>die in recovery</th>")
            && report.contains("<th>lasting impairment</th>")
    );
}

#[test]
fn trials_and_seed_read_numbers_alike_and_say_their_range() {
    let file = "scenarios/twin-d20/knight-vs-brigand.toml";
    let o = duelsim(&["check", file]);
    assert!(o.status.success());
    let dir = scratch("numbers");
    let out = dir.join("out").to_string_lossy().into_owned();
    // Past the range, even past what a 64-bit number holds: the range is said.
    let o = duelsim(&["run", file, "--trials", "99999999999999999999", "-o", &out]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("10^12"), "{}", text(&o.stderr));
    // A seed is written as trials are: 1_000 and 1e3 are 1000, and give the same bytes.
    let mut summaries = Vec::new();
    for seed in ["1000", "1_000", "1e3"] {
        let o = duelsim(&[
            "run", file, "-q", "--trials", "500", "--seed", seed, "-o", &out,
        ]);
        assert!(o.status.success(), "{seed}: {}", text(&o.stderr));
        summaries.push(std::fs::read(dir.join("out/summary.csv")).unwrap_or_default());
    }
    assert!(summaries.windows(2).all(|w| w[0] == w[1]));
    let o = duelsim(&["run", file, "--seed", "1.5", "-o", &out]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(text(&o.stderr).lines().count(), 1, "{}", text(&o.stderr));
}
