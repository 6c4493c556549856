//! Sides of several fighters (issue 36), end to end, in every ruleset: a side of one written
//! with `count = 1` is the duel, byte for byte; more foes beat side a more often; zone-d100's
//! Outnumbered Penalty in a trace; names and bounds; fighters.csv; exact and deltas.

mod common;
use common::duelsim;
use std::path::{Path, PathBuf};

const DUEL: &str = "scenarios/twin-d20/knight-vs-brigand.toml";
const BAND: &str = "scenarios/twin-d20/knight-vs-three-brigands.toml";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duelsim-skirmish-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `summary.csv` as its header and its rows of cells.
fn summary(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = read(path);
    let mut lines = text.lines();
    let header = lines
        .next()
        .unwrap_or_default()
        .split(',')
        .map(str::to_owned)
        .collect();
    let rows = lines
        .map(|l| l.split(',').map(str::to_owned).collect())
        .collect();
    (header, rows)
}

/// The place of a column in a header.
fn column(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("{name}: {header:?}"))
}

fn run(file: &Path, out: &Path, trials: &str) {
    let o = duelsim(&[
        "run",
        &file.to_string_lossy(),
        "-q",
        "--trials",
        trials,
        "-o",
        &out.to_string_lossy(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// `run` of `file` into `out` with `trials` a point, not quiet: what it says on the terminal.
fn run_told(file: &Path, out: &Path, trials: &str) -> String {
    let o = duelsim(&[
        "run",
        &file.to_string_lossy(),
        "--trials",
        trials,
        "-o",
        &out.to_string_lossy(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The shipped duel of every ruleset with sides of several.
const DUELS: &[&str] = &[
    "scenarios/twin-d20/knight-vs-brigand.toml",
    "scenarios/guard-pierce/cudgel-vs-sword.toml",
    "scenarios/zone-d100/broadsword-vs-spear.toml",
    "scenarios/d6-pool/berserker-vs-shieldwall.toml",
    "scenarios/wound-levels/bruiser-vs-fencer.toml",
];

/// A shipped duel rewritten into `dir` with side b's first line followed by `extra`
/// (catalogues still found).
fn rewritten(duel: &str, dir: &Path, extra: &str, tail: &str) -> PathBuf {
    let text = read(Path::new(env!("CARGO_MANIFEST_DIR")).join(duel).as_path());
    assert!(
        text.contains("[b]\n") && !text.contains("[sweep]"),
        "{duel}"
    );
    let text = text
        .replacen("[b]\n", &format!("[b]\n{extra}"), 1)
        .replace("\"../../", &format!("\"{}/", env!("CARGO_MANIFEST_DIR")))
        + tail;
    let file = dir.join(
        Path::new(duel)
            .file_name()
            .unwrap_or_else(|| panic!("{duel}")),
    );
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    file
}

#[test]
fn a_side_of_one_written_with_count_1_is_the_duel_byte_for_byte() {
    for duel in DUELS {
        let dir = scratch("one");
        let counted = rewritten(duel, &dir, "count = 1\ntarget = \"random\"\n", "");
        run(Path::new(duel), &dir.join("duel"), "20000");
        run(&counted, &dir.join("counted"), "20000");
        for table in ["summary.csv", "distributions.csv", "tables/results.md"] {
            assert_eq!(
                read(&dir.join("duel").join(table)),
                read(&dir.join("counted").join(table)),
                "{duel}: {table}"
            );
        }
    }
}

#[test]
fn each_foe_more_lowers_side_as_win_rate_in_every_ruleset() {
    let n = 10_000.0;
    for duel in DUELS {
        let dir = scratch("band");
        let band = rewritten(duel, &dir, "", "\n[sweep]\n\"b.count\" = [1, 2, 3]\n");
        run(&band, &dir.join("out"), "10000");
        let (header, rows) = summary(&dir.join("out/summary.csv"));
        let (count, win) = (column(&header, "b.count"), column(&header, "a_win_rate"));
        let rates: Vec<(String, f64)> = rows
            .iter()
            .map(|r| (r[count].clone(), r[win].parse().unwrap_or(f64::NAN)))
            .collect();
        assert_eq!(
            rates.iter().map(|(c, _)| c.as_str()).collect::<Vec<_>>(),
            ["1", "2", "3"],
            "{duel}"
        );
        for pair in rates.windows(2) {
            let (p, q) = (pair[0].1, pair[1].1);
            // The standard error of a difference of two independent rates: larger than that
            // of rates on common dice, so 4.5 of them is a strict margin.
            let se = (p * (1.0 - p) / n + q * (1.0 - q) / n).sqrt();
            assert!(p - q > 4.5 * se, "{duel}: {rates:?}");
        }
    }
}

#[test]
fn the_shipped_band_beats_the_knight_more_often_with_each_brigand() {
    let dir = scratch("shipped-band");
    run(Path::new(BAND), &dir.join("out"), "20000");
    let (header, rows) = summary(&dir.join("out/summary.csv"));
    let (count, win) = (column(&header, "b.count"), column(&header, "a_win_rate"));
    let counts: Vec<&str> = rows.iter().map(|r| r[count].as_str()).collect();
    assert_eq!(counts, ["1", "2", "3", "4"]);
    let rates: Vec<f64> = rows
        .iter()
        .map(|r| r[win].parse().unwrap_or(f64::NAN))
        .collect();
    assert!(rates.windows(2).all(|w| w[0] > w[1]), "{rates:?}");
}

#[test]
fn two_against_two_pairing_off_take_a_foe_each_in_every_ruleset() {
    // Issue 66: `target = "pair"`: "each fighter takes a foe nobody else fights while there is
    // one". Both fighters of a side take a foe each, not the same one.
    for duel in DUELS {
        let dir = scratch("pair");
        let file = rewritten(duel, &dir, "count = 2\ntarget = \"pair\"\n", "");
        let text = read(&file).replacen("[a]\n", "[a]\ncount = 2\ntarget = \"pair\"\n", 1);
        std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
        let o = duelsim(&["trace", &file.to_string_lossy(), "--seed", "1"]);
        let story = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(
            o.status.success(),
            "{duel}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        // (picker's name without its number, picker, foe) of each pick of a foe no ally fights.
        let picks: Vec<(String, String, String)> = story
            .lines()
            .filter(|l| l.contains("a foe no ally fights, kept while it stands"))
            .filter_map(|l| {
                let (picker, rest) = l.trim().split_once(" picks ")?;
                let foe = rest.split(':').next()?;
                let base = picker.rsplit_once(' ')?.0;
                Some((base.to_owned(), picker.to_owned(), foe.to_owned()))
            })
            .collect();
        let paired = picks.iter().any(|(base, picker, foe)| {
            picks
                .iter()
                .any(|(b, p, f)| b == base && p != picker && f != foe)
        });
        assert!(paired, "{duel}: {picks:?}\n{story}");
        run(&file, &dir.join("out"), "2000");
    }
}

#[test]
fn zone_d100s_trace_of_one_against_two_shows_the_outnumbered_penalty() {
    // The shipped knight against two brigands (point 1): a brigand's attack meets the knight's
    // Block at his Melee ML75 less 10 for the second brigand threatening him.
    let o = duelsim(&[
        "trace",
        "scenarios/zone-d100/knight-vs-three-brigands.toml",
        "--point",
        "1",
        "--seed",
        "2",
    ]);
    let story = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        story.contains("order of action: Knight, Brigand 1, Brigand 2"),
        "{story}"
    );
    assert!(
        story.lines().any(|l| l.contains("attacks Knight")
            && l.contains("Knight Block")
            && l.contains("vs EML65 (Outnumbered -10: 2 foes threaten)")),
        "{story}"
    );
}

#[test]
fn a_mixed_side_is_numbered_by_name_and_a_side_is_bounded() {
    let dir = scratch("mixed");
    let shipped = read(Path::new(env!("CARGO_MANIFEST_DIR")).join(DUEL).as_path());
    let brigand = shipped
        .split("[b]\n")
        .nth(1)
        .and_then(|rest| rest.split("\n\n").next())
        .unwrap_or_default()
        .to_owned();
    let mixed = shipped.replace(
        &format!("[b]\n{brigand}"),
        &format!(
            "[[b]]\n{brigand}\ncount = 2\n\n[[b]]\n{}\n",
            brigand.replace("Brigand", "Archer")
        ),
    );
    let file = dir.join("mixed.toml");
    std::fs::write(&file, &mixed).unwrap_or_else(|e| panic!("{e}"));
    let o = duelsim(&["trace", &file.to_string_lossy(), "--seed", "5"]);
    let story = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for name in ["Brigand 1", "Brigand 2", "Archer"] {
        assert!(story.contains(name), "{name}: {story}");
    }
    assert!(
        !story.contains("Archer 1"),
        "a name borne once is not numbered"
    );
    // 17 on a side is past the bound: refused at the side.
    let many = shipped.replace("name = \"Brigand\"", "name = \"Brigand\"\ncount = 17");
    std::fs::write(&file, many).unwrap_or_else(|e| panic!("{e}"));
    let o = duelsim(&["check", &file.to_string_lossy()]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("b.count"), "{err}");
}

#[test]
fn fighters_csv_gives_each_fighter_and_adds_up_to_its_side() {
    let dir = scratch("fighters");
    run(Path::new(BAND), &dir.join("out"), "4000");
    let (header, rows) = summary(&dir.join("out/summary.csv"));
    let fighters = read(&dir.join("out/fighters.csv"));
    let col = |name: &str| column(&header, name);
    let value = |point: usize, fighter: &str, metric: &str| -> f64 {
        fighters
            .lines()
            .find(|l| {
                l.starts_with(&format!("{point},")) && l.contains(&format!(",{fighter},{metric},"))
            })
            .and_then(|l| l.split(',').nth(4))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{point} {fighter} {metric}\n{fighters}"))
    };
    for (point, row) in rows.iter().enumerate() {
        let count: usize = row[col("b.count")].parse().unwrap_or(0);
        // The knight, alone on its side, is out of the fight exactly when side b wins.
        let b_wins: f64 = row[col("b_win_rate")].parse().unwrap_or(f64::NAN);
        let out = value(point, "Knight", "out_rate");
        assert!((out - b_wins).abs() < 1e-9, "{point}: {out} vs {b_wins}");
        // The side's dead rate is its fighters' dead, pooled.
        let names: Vec<String> = if count == 1 {
            vec!["Brigand".to_owned()]
        } else {
            (1..=count).map(|k| format!("Brigand {k}")).collect()
        };
        let pooled: f64 = names
            .iter()
            .map(|n| value(point, n, "dead_rate"))
            .sum::<f64>()
            / count as f64;
        let b_dead: f64 = row[col("b_dead_rate")].parse().unwrap_or(f64::NAN);
        assert!(
            (pooled - b_dead).abs() < 1e-5,
            "{point}: {pooled} vs {b_dead}"
        );
    }
}

#[test]
fn exact_refuses_a_side_of_several_and_dead_deltas_are_per_fighter() {
    let dir = scratch("deltas");
    // The band of three without its sweep (whose first point is one brigand).
    let band = read(Path::new(env!("CARGO_MANIFEST_DIR")).join(BAND).as_path());
    let three = band.split("[sweep]").next().unwrap_or_default();
    let file = dir.join("three.toml");
    std::fs::write(&file, three).unwrap_or_else(|e| panic!("{e}"));
    let out = dir.join("no-exact").to_string_lossy().into_owned();
    let o = duelsim(&["exact", &file.to_string_lossy(), "-q", "-o", &out]);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("expected one fighter on each side"), "{err}");
    // Compared with the duel on common dice, side b's dead delta is per brigand, as its dead
    // rate: the delta equals the difference of the rates beside it (the same trials' dice).
    let text = read(Path::new(env!("CARGO_MANIFEST_DIR")).join(BAND).as_path()).replace(
        "[sweep]",
        "[compare]\nbaseline = { \"b.count\" = 1 }\n\n[sweep]",
    );
    let file = dir.join("compared.toml");
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    run(&file, &dir.join("out"), "4000");
    let (header, rows) = summary(&dir.join("out/summary.csv"));
    let col = |name: &str| column(&header, name);
    let rows: Vec<Vec<f64>> = rows
        .iter()
        .map(|r| r.iter().map(|c| c.parse().unwrap_or(f64::NAN)).collect())
        .collect();
    let base = rows[0][col("b_dead_rate")];
    for row in &rows[1..] {
        let difference = row[col("b_dead_rate")] - base;
        assert!(
            (row[col("b_dead_delta")] - difference).abs() < 1e-5,
            "{} vs {difference}",
            row[col("b_dead_delta")]
        );
    }
}

#[test]
fn a_limit_of_attackers_on_one_defender_is_swept_and_keeps_the_rest_waiting_in_every_ruleset() {
    // Issue 66: "Add an optional limit of attackers on one defender (off by default, which is
    // the texts' reading), sweepable like any value." One against three, the limit swept from
    // none (0) to one: with one, the lone fighter meets one foe at a time and the others wait,
    // so the fight lasts longer (and in most rulesets it wins more often).
    for duel in DUELS {
        let dir = scratch("limit");
        let tail = "\n[sweep]\n\"rules.max_attackers\" = [0, 1]\n";
        let band = rewritten(duel, &dir, "count = 3\n", tail);
        run(&band, &dir.join("out"), "10000");
        let (header, rows) = summary(&dir.join("out/summary.csv"));
        let (limit, mean, se) = (
            column(&header, "rules.max_attackers"),
            column(&header, "rounds_mean"),
            column(&header, "rounds_se"),
        );
        let rounds: Vec<(String, f64, f64)> = rows
            .iter()
            .map(|r| {
                let num = |k: usize| r[k].parse().unwrap_or(f64::NAN);
                (r[limit].clone(), num(mean), num(se))
            })
            .collect();
        assert_eq!(rounds.len(), 2, "{duel}: {rounds:?}");
        let ((_, none, se_none), (_, one, se_one)) = (&rounds[0], &rounds[1]);
        let se = (se_none * se_none + se_one * se_one).sqrt();
        assert!(one - none > 4.5 * se, "{duel}: {rounds:?}");
        let o = duelsim(&[
            "trace",
            &band.to_string_lossy(),
            "--point",
            "1",
            "--seed",
            "3",
        ]);
        let story = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(
            o.status.success(),
            "{duel}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            story.contains(
                "attacks no one: every foe standing already faces an attacker (max_attackers = 1)"
            ),
            "{duel}\n{story}"
        );
        if duel.contains("wound-levels") {
            // Its declarations say who waits, not a stale foe.
            assert!(story.contains(" waits"), "{duel}\n{story}");
        }
    }
}

#[test]
fn zone_d100s_trace_of_an_archer_shooting_into_the_melee_shows_the_stray_roll_and_the_ally_hit() {
    // Issue 66: "`trace` of an archer shooting at a foe engaged with the archer's ally shows the
    // stray-missile roll and, when it comes, the ally hit". The shipped knight and archer
    // against three brigands: the Archer's misses at a brigand fighting the Knight roll against
    // the creatures within five feet, and some seed's roll strikes the Knight.
    let mut rolled = false;
    let mut ally_hit = false;
    for seed in 1..=60 {
        let o = duelsim(&[
            "trace",
            "scenarios/zone-d100/knight-and-archer-vs-brigands.toml",
            "--point",
            "1",
            "--seed",
            &seed.to_string(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let story = String::from_utf8_lossy(&o.stdout).into_owned();
        let lines: Vec<&str> = story.lines().collect();
        for (k, line) in lines.iter().enumerate() {
            if line.starts_with("Archer shoots")
                && line.contains("a miss of the target; ")
                && line.contains(" on the die against a target count of ")
            {
                rolled = true;
                if line.ends_with("a creature there is hit")
                    && lines.get(k + 1) == Some(&"the missile strikes Knight")
                {
                    ally_hit = true;
                }
            }
        }
        if rolled && ally_hit {
            break;
        }
    }
    assert!(
        rolled && ally_hit,
        "rolled {rolled}, the Knight hit {ally_hit}"
    );
}

#[test]
fn the_target_policy_and_the_limit_are_compared_and_the_limit_balanced() {
    // Issue 66: "The new target policy and the attacker limit work in every ruleset, can be
    // swept, compared and balanced". The fencer against three thugs: every point of the target
    // policy and the limit against the baseline of neither, on the same dice; then a search
    // over the limit for the fencers' even fight.
    let dir = scratch("compare-limit");
    let duel = "scenarios/wound-levels/bruiser-vs-fencer.toml";
    let tail = "\n[sweep]\n\"a.target\" = [\"same\", \"pair\"]\n\"rules.max_attackers\" = [0, 1]\n[compare]\nbaseline = { \"a.target\" = \"same\", \"rules.max_attackers\" = 0 }\n";
    let file = rewritten(duel, &dir, "count = 3\n", tail);
    let said = run_told(&file, &dir.join("cmp"), "4000");
    assert!(said.contains("on the same dice"), "{said}");
    let (header, rows) = summary(&dir.join("cmp/summary.csv"));
    let delta = column(&header, "a_win_delta");
    let limit = column(&header, "rules.max_attackers");
    let baseline: Vec<&Vec<String>> = rows.iter().filter(|r| r[limit] == "0").collect();
    assert_eq!(rows.len(), 4, "{rows:?}");
    assert!(
        baseline.iter().any(|r| r[delta].parse::<f64>() == Ok(0.0)),
        "the baseline's own delta is 0: {rows:?}"
    );
    let dir = scratch("balance-limit");
    let tail = "\n[balance]\npath = \"rules.max_attackers\"\nfrom = 1\nto = 3\ntarget = { b_win_rate = 0.5 }\n";
    let file = rewritten(duel, &dir, "count = 3\n", tail);
    let said = run_told(&file, &dir.join("bal"), "4000");
    assert!(
        said.contains("max attackers (rules) from 1 to 3 makes the fight even")
            && said.contains("Fencer ×3 wins"),
        "{said}"
    );
}
