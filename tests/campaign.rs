//! Campaigns against the fights they are made of: a campaign of one encounter is the fight byte
//! for byte; after a rest that heals every wound the next fight is a fresh one, within noise;
//! and a campaign's outputs are the same bytes whatever the threads, shards or resumes.

mod common;

use common::duelsim;
use std::path::{Path, PathBuf};
use toml_edit::{ArrayOfTables, DocumentMut, Item, Table, value};

/// Each ruleset that runs campaigns: its shipped duel, and a shipped fight of sides of several
/// (its `[sweep]` left out).
const RULESETS: &[(&str, &str, &str)] = &[
    (
        "twin-d20",
        "scenarios/twin-d20/knight-vs-brigand.toml",
        "scenarios/twin-d20/knights-pair-off.toml",
    ),
    (
        "guard-pierce",
        "scenarios/guard-pierce/cudgel-vs-sword.toml",
        "scenarios/guard-pierce/duellists-pair-off.toml",
    ),
    (
        "wound-levels",
        "scenarios/wound-levels/bruiser-vs-fencer.toml",
        "scenarios/wound-levels/fencers-pair-off.toml",
    ),
    (
        "d6-pool",
        "scenarios/d6-pool/berserker-vs-shieldwall.toml",
        "scenarios/d6-pool/berserkers-pair-off.toml",
    ),
    (
        "zone-d100",
        "scenarios/zone-d100/broadsword-vs-spear.toml",
        "scenarios/zone-d100/knight-vs-three-brigands.toml",
    ),
];

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duelsim-campaign-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A fight's file without its `[sweep]`, `[compare]` and `[balance]`, named `name`.
fn fight_document(file: &str, name: &str) -> DocumentMut {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let mut doc: DocumentMut = read(&path)
        .parse()
        .unwrap_or_else(|e| panic!("{file}: {e}"));
    for key in ["sweep", "compare", "balance", "weights"] {
        doc.remove(key);
    }
    doc["name"] = value(name);
    doc
}

/// The campaign of `fight`'s party against `encounters` (each a table of an `[[encounter]]`).
fn campaign_of(fight: &DocumentMut, name: &str, encounters: Vec<Table>) -> DocumentMut {
    let mut doc = fight.clone();
    doc.remove("b");
    doc["name"] = value(name);
    doc["kind"] = value("campaign");
    let mut list = ArrayOfTables::new();
    for e in encounters {
        list.push(e);
    }
    doc.insert("encounter", Item::ArrayOfTables(list));
    doc
}

/// The fight's own foes as an encounter's table, with `extra` keys.
fn encounter(fight: &DocumentMut, extra: &str) -> Table {
    let mut table: Table = extra
        .parse::<DocumentMut>()
        .unwrap_or_else(|e| panic!("{extra}: {e}"))
        .as_table()
        .clone();
    // Written inline, so the table keeps no place of its own in the fight's file.
    let foes = match &fight["b"] {
        Item::Table(t) => Item::Value(t.clone().into_inline_table().into()),
        Item::ArrayOfTables(list) => {
            let mut inline = toml_edit::Array::new();
            for t in list.iter() {
                inline.push(t.clone().into_inline_table());
            }
            Item::Value(inline.into())
        }
        other => other.clone(),
    };
    table.insert("b", foes);
    table
}

/// Runs `doc` (written into `dir`) with `args`; the output folder.
fn run(dir: &Path, doc: &DocumentMut, args: &[&str]) -> PathBuf {
    let name = doc["name"].as_str().unwrap_or("x").to_owned();
    let file = dir.join(format!("{name}.toml"));
    std::fs::write(&file, doc.to_string()).unwrap_or_else(|e| panic!("{e}"));
    let out = dir.join(&name);
    let file = file.to_string_lossy().into_owned();
    let out_text = out.to_string_lossy().into_owned();
    let mut all = vec!["run", file.as_str(), "-q", "-o", out_text.as_str()];
    all.extend_from_slice(args);
    let o = duelsim(&all);
    assert!(
        o.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&o.stderr),
        doc
    );
    out
}

/// `summary.csv`'s first row as (column, cell) pairs.
fn summary(out: &Path) -> Vec<(String, String)> {
    let text = read(&out.join("summary.csv"));
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let row: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    head.iter()
        .zip(row)
        .map(|(h, c)| ((*h).to_owned(), c.to_owned()))
        .collect()
}

fn cell(row: &[(String, String)], name: &str) -> f64 {
    row.iter()
        .find(|(k, _)| k == name)
        .and_then(|(_, v)| v.parse().ok())
        .unwrap_or_else(|| panic!("no column {name}"))
}

#[test]
fn a_campaign_of_one_encounter_with_no_rest_is_the_fight_byte_for_byte() {
    let dir = scratch("one");
    for &(ruleset, duel, several) in RULESETS {
        for (k, file) in [duel, several].into_iter().enumerate() {
            let fight = fight_document(file, &format!("{ruleset}-{k}-fight"));
            let campaign = campaign_of(
                &fight,
                &format!("{ruleset}-{k}-campaign"),
                vec![encounter(&fight, "")],
            );
            let args = ["--trials", "20000"];
            let (f, c) = (run(&dir, &fight, &args), run(&dir, &campaign, &args));
            // Every column of the fight's summary is the campaign's, cell for cell, but one
            // count: a drawn fight in which the whole party died is a beaten party (zone-d100's
            // duel, where both can die at once: 1 in 20,000 here), so b_win rises by what draw
            // falls, at most by the party's deaths.
            let (fight_row, campaign_row) = (summary(&f), summary(&c));
            let moved = cell(&campaign_row, "b_win_rate") - cell(&fight_row, "b_win_rate");
            let fewer = cell(&fight_row, "draw_rate") - cell(&campaign_row, "draw_rate");
            assert!(
                (moved - fewer).abs() < 1e-9 && moved >= 0.0,
                "{ruleset} {file}: b_win up {moved}, draw down {fewer}"
            );
            assert!(moved <= cell(&fight_row, "a_dead_rate"), "{ruleset} {file}");
            for (column, value) in &fight_row {
                if moved > 0.0 && (column.starts_with("b_win") || column.starts_with("draw")) {
                    continue;
                }
                let theirs = campaign_row.iter().find(|(h, _)| h == column);
                assert_eq!(
                    theirs.map(|(_, v)| v),
                    Some(value),
                    "{ruleset} {file}: column {column}"
                );
            }
            assert!(
                fight_row.len() > 30,
                "{ruleset}: {} columns",
                fight_row.len()
            );
            // Its distributions (rounds, damage per hit, days to whole) and fighters too (the
            // party's dead in a draw out of it, as above).
            for table in ["distributions.csv", "fighters.csv"] {
                if f.join(table).exists() {
                    let (ours, theirs) = (read(&f.join(table)), read(&c.join(table)));
                    for (a, b) in ours.lines().zip(theirs.lines()) {
                        let party_out = a.contains(",a,") && a.contains(",out_rate,");
                        if moved > 0.0 && party_out {
                            let rate = |line: &str| -> f64 {
                                line.split(',')
                                    .nth(4)
                                    .and_then(|v| v.parse().ok())
                                    .unwrap_or(0.0)
                            };
                            assert!((rate(b) - rate(a) - moved).abs() < 1e-9, "{a} / {b}");
                        } else {
                            assert_eq!(a, b, "{ruleset} {file}: {table}");
                        }
                    }
                    assert_eq!(ours.lines().count(), theirs.lines().count());
                }
            }
            // And the campaign says it was reached by every campaign.
            assert_eq!(cell(&campaign_row, "encounter1_reached_rate"), 1.0);
        }
    }
}

#[test]
fn after_a_rest_that_heals_every_wound_the_next_fight_is_a_fresh_one_within_noise() {
    let dir = scratch("rest");
    for &(ruleset, duel, _) in RULESETS {
        let mut fight = fight_document(duel, &format!("{ruleset}-fresh"));
        // d6-pool heals only by its heal dice unless natural healing is on: with it, ten years
        // heal every wound.
        if ruleset == "d6-pool" {
            fight["healing"]["natural_days_per_point"] = value(7);
        }
        // Whoever reaches the second fight lived through the first and the rest after it, and
        // ten years of rest heal every wound: the second fight is a fresh one.
        let first = encounter(&fight, "rest_days = 3650\n");
        let campaign = campaign_of(
            &fight,
            &format!("{ruleset}-rested"),
            vec![first, encounter(&fight, "")],
        );
        let trials = ["--trials", "100000"];
        let fresh = summary(&run(&dir, &fight, &trials));
        let rested = summary(&run(&dir, &campaign, &trials));
        let n_fresh = cell(&fresh, "trials");
        let reached = cell(&rested, "encounter2_reached_rate") * cell(&rested, "trials");
        assert!(
            reached > 10_000.0,
            "{ruleset}: {reached} campaigns reach the second fight"
        );
        // The share of second fights the party loses, against the fresh fight's b wins; and
        // its deaths in the second fight, against the fresh fight's (a party of one).
        let checks = [
            (
                "beaten",
                cell(&rested, "encounter2_beaten_rate") * cell(&rested, "trials") / reached,
                cell(&fresh, "b_win_rate"),
            ),
            (
                "a death",
                cell(&rested, "encounter2_death_rate") * cell(&rested, "trials") / reached,
                cell(&fresh, "a_dead_rate"),
            ),
        ];
        for (what, p_rested, p_fresh) in checks {
            let pooled = (p_rested * reached + p_fresh * n_fresh) / (reached + n_fresh);
            let se = (pooled * (1.0 - pooled) * (1.0 / reached + 1.0 / n_fresh)).sqrt();
            let z = (p_rested - p_fresh) / se.max(1e-12);
            assert!(
                z.abs() < 4.5,
                "{ruleset} {what}: {p_rested:.4} after the rest against {p_fresh:.4} fresh (z = {z:.2})"
            );
        }
        // The first fight did wound: the healing had work to do.
        assert!(cell(&rested, "rest_days_mean") > 0.0);
    }
}

#[test]
fn a_campaign_is_the_same_bytes_across_threads_shards_and_resume() {
    // twin-d20's shipped campaign, and zone-d100's, whose rests pause its healing sequence and
    // whose fights run as a duel and as a fight of several.
    for (name, trials) in [
        ("twin-d20/knights-ride-out", "trials = 100_000"),
        ("zone-d100/knight-on-the-pilgrim-road", "trials = 50_000"),
    ] {
        same_bytes(name, trials);
    }
}

/// The shipped campaign `name` at 30,000 trials, swept over the rest after its second
/// encounter: the same bytes across threads, shards and a resume.
fn same_bytes(name: &str, trials: &str) {
    let dir = scratch(&format!("bytes-{}", name.replace('/', "-")));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let shipped = root.join(format!("scenarios/{name}.toml"));
    let catalogues = root.join("catalogues").to_string_lossy().replace('\\', "/");
    let text = read(&shipped)
        .replace(trials, "trials = 30_000")
        .replace("../../catalogues", &catalogues)
        + "\n[sweep]\n\"encounter[1].rest_days\" = [0, 7, 28]\n";
    let file = dir.join("ride.toml");
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    let file = file.to_string_lossy().into_owned();
    let go = |out: &Path, extra: &[&str]| {
        let out = out.to_string_lossy().into_owned();
        let mut args = vec!["run", file.as_str(), "-q", "-o", out.as_str()];
        args.extend_from_slice(extra);
        let o = duelsim(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    let one = dir.join("one");
    go(&one, &["--threads", "1"]);
    let two = dir.join("two");
    go(&two, &["--threads", "2"]);
    let mut shards = Vec::new();
    for k in 1..=3 {
        let out = dir.join(format!("shard{k}"));
        go(&out, &["--shard", &format!("{k}/3")]);
        shards.push(out.to_string_lossy().into_owned());
    }
    let merged = dir.join("merged");
    let merged_text = merged.to_string_lossy().into_owned();
    let mut args = vec!["merge", "-q", "-o", merged_text.as_str()];
    args.extend(shards.iter().map(String::as_str));
    let o = duelsim(&args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // A run stopped by Ctrl-C once its journal is written, then resumed.
    let resumed = dir.join("resumed");
    let resumed_text = resumed.to_string_lossy().into_owned();
    let journal = resumed.join(".partial");
    let _ = common::interrupted_run(
        &["run", &file, "-q", "--threads", "1", "-o", &resumed_text],
        "",
        &journal,
        std::time::Duration::from_millis(150),
    );
    go(&resumed, &["--resume"]);
    for table in ["summary.csv", "distributions.csv", "fighters.csv"] {
        let whole = read(&one.join(table));
        assert!(whole == read(&two.join(table)), "{table}: threads");
        assert!(whole == read(&merged.join(table)), "{table}: merged shards");
        assert!(
            whole == read(&resumed.join(table)),
            "{table}: stopped and resumed"
        );
    }
    // Other encounters' dice: with no rest the third encounter is fought on other dice (and
    // wounds) than with a week's, and the later encounters' rates move with it.
    let text = read(&one.join("summary.csv"));
    let rows: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(rows.len(), 3);
    assert_ne!(rows[0], rows[1]);
}

/// The shipped knights' campaign with `extra` tables, at 20,000 trials, written into `dir`.
fn knights_with(dir: &Path, name: &str, extra: &str) -> String {
    let shipped =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/twin-d20/knights-ride-out.toml");
    let text = read(&shipped)
        .replace("trials = 100_000", "trials = 20_000")
        .replace("name = \"knights-ride-out\"", &format!("name = \"{name}\""))
        + extra;
    let file = dir.join(format!("{name}.toml"));
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    file.to_string_lossy().into_owned()
}

#[test]
fn a_campaign_is_swept_compared_weighed_and_balanced_on_any_value_of_any_encounter() {
    let dir = scratch("tools");
    // The sign of a compared line's difference: "  foes in encounter 2 +1:  -13.3 [...]".
    let sign = |l: &str| {
        l.rsplit(':')
            .next()
            .unwrap_or("")
            .trim_start()
            .chars()
            .next()
    };
    let said = |file: &str, out: &str| {
        let out = dir.join(out).to_string_lossy().into_owned();
        let o = duelsim(&["run", file, "-o", &out]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    // A sweep of the rest after encounter 2 (counted from 0 in the path) and of the foes in
    // encounter 2, in words; more brigands in the wood bring the party through less often.
    let swept = knights_with(
        &dir,
        "swept",
        "\n[sweep]\n\"encounter[1].b.count\" = [1, 5]\n\"encounter[1].rest_days\" = [0, 7]\n",
    );
    let text = said(&swept, "swept");
    assert!(
        text.contains("foes in encounter 2") && text.contains("days of rest after encounter 2"),
        "{text}"
    );
    let rows = read(&dir.join("swept/summary.csv"));
    let through: Vec<f64> = rows
        .lines()
        .skip(1)
        .map(|l| {
            let head: Vec<&str> = rows.lines().next().unwrap_or_default().split(',').collect();
            let at = head.iter().position(|h| *h == "a_win_rate").unwrap_or(0);
            l.split(',')
                .nth(at)
                .and_then(|v| v.parse().ok())
                .unwrap_or(f64::NAN)
        })
        .collect();
    assert!(through[0] > through[2] + 0.1, "{through:?}");
    // Compared on the same dice: a week's rest against none.
    let compared = knights_with(
        &dir,
        "compared",
        "\n[sweep]\n\"encounter[1].rest_days\" = [0, 7]\n[compare]\nbaseline = { \"encounter[1].rest_days\" = 0 }\n",
    );
    let text = said(&compared, "compared");
    let line = text
        .lines()
        .find(|l| l.contains("7 days of rest after encounter 2:"));
    assert_eq!(line.and_then(sign), Some('+'), "{text}");
    // Weighed: one more brigand in the wood costs the party.
    let weighed = knights_with(
        &dir,
        "weighed",
        "\n[weights]\n\"encounter[1].b.count\" = 1\n",
    );
    let text = said(&weighed, "weighed");
    let line = text.lines().find(|l| l.contains("foes in encounter 2 +1:"));
    assert_eq!(line.and_then(sign), Some('-'), "{text}");
    // Balanced: how many brigands in the wood give a 10% chance of a death in the party.
    let balanced = knights_with(
        &dir,
        "balanced",
        "\n[balance]\npath = \"encounter[1].b.count\"\nfrom = 1\nto = 8\ntarget = { party_death_rate = 0.1 }\n",
    );
    let text = said(&balanced, "balanced");
    assert!(
        text.contains("brings the share of campaigns where a fighter of the party dies to 10%"),
        "{text}"
    );
    // A fight has no party_death_rate: a_dead_rate is its rate.
    let fight =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/twin-d20/knight-vs-brigand.toml");
    let text = read(&fight).replace("name = \"knight-vs-brigand\"", "name = \"kvb\"")
        + "\n[balance]\npath = \"b.attack\"\nfrom = 1\nto = 20\ntarget = { party_death_rate = 0.1 }\n";
    let file = dir.join("kvb.toml");
    std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    let o = duelsim(&["check", &file.to_string_lossy()]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("balance.target.party_death_rate") && err.contains("campaign"),
        "{err}"
    );
}

#[test]
fn a_campaign_file_with_a_mistake_in_an_encounter_is_refused_at_the_encounter() {
    let dir = scratch("errors");
    let shipped =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/twin-d20/knights-ride-out.toml");
    let good = read(&shipped);
    for (from, to, field, expected) in [
        // An unknown weapon in encounter 2's foes: named at that encounter's key.
        (
            "count = 3, attack = 12, defense = 8, toughness = 8, weapon = \"spear\"",
            "count = 3, attack = 12, defense = 8, toughness = 8, weapon = \"speer\"",
            "encounter[1].b.weapon",
            "speer",
        ),
        // A rest after the last encounter.
        (
            "rules = { first_strike = \"b\" }",
            "rules = { first_strike = \"b\" }\nrest_days = 3",
            "encounter[2].rest_days",
            "last encounter",
        ),
        // A key no encounter has.
        (
            "rest_days = 0           # straight",
            "rest_dayz = 0           # straight",
            "encounter[0].rest_dayz",
            "expected name, b",
        ),
        // turn_back_below past a side.
        (
            "turn_back_below = 2",
            "turn_back_below = 0",
            "campaign.turn_back_below",
            "from 1",
        ),
        // turn_back_below above the party: it would never set out.
        (
            "turn_back_below = 2",
            "turn_back_below = 4",
            "campaign.turn_back_below",
            "at most 3",
        ),
    ] {
        assert!(good.contains(from), "{from}");
        let file = dir.join("bad.toml");
        std::fs::write(&file, good.replacen(from, to, 1)).unwrap_or_else(|e| panic!("{e}"));
        let o = duelsim(&["check", &file.to_string_lossy()]);
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains(field) && err.contains(expected),
            "{field}: {err}"
        );
        assert!(err.contains("bad.toml:"), "the file and line: {err}");
        assert!(common::is_headline_with_snippet(&err), "{err}");
    }
}
