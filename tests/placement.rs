//! Errors where the mistake is and in a designer's words, and sweeps that do nothing said so:
//! a `[balance]` typo at its own line, an out-of-range sweep value at that value, a sweep of a
//! weapon or armour the file does not have refused at the entry, parser jargon translated, and
//! a warning for a sweep whose values the fight never tells apart.

mod common;
use common::duelsim;
use std::path::PathBuf;

const KNIGHT: &str = "scenarios/twin-d20/knight-vs-brigand.toml";
const FAIR: &str = "scenarios/twin-d20/fair-damage-by-attack.toml";

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duelsim-place-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

/// A shipped file with `edit` applied, written to a scratch file.
fn edited(shipped: &str, name: &str, edit: impl Fn(String) -> String) -> String {
    let original = std::fs::read_to_string(shipped).unwrap_or_else(|e| panic!("{e}"));
    let changed = edit(original.clone());
    assert_ne!(changed, original, "the edit of {name} changed nothing");
    let file = scratch(name).join(format!("{name}.toml"));
    std::fs::write(&file, changed).unwrap_or_else(|e| panic!("{e}"));
    file.to_string_lossy().into_owned()
}

/// The 1-based line and column of the first occurrence of `needle` in `file`.
fn place_of(file: &str, needle: &str) -> (usize, usize) {
    let body = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{e}"));
    let at = body
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} not in {file}"));
    let line = body[..at].matches('\n').count() + 1;
    let column = at - body[..at].rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}

/// `check` of `file`: exit 2, and the error's headline.
fn check_error(file: &str) -> String {
    let o = duelsim(&["check", file]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    assert!(common::is_headline_with_snippet(&err), "{err}");
    err.lines().next().unwrap_or_default().to_owned()
}

fn assert_at(headline: &str, file: &str, needle: &str) {
    let (line, column) = place_of(file, needle);
    assert!(
        headline.starts_with(&format!("error: {file}:{line}:{column}:")),
        "expected the error at {line}:{column} ({needle}): {headline}"
    );
}

fn with_balance(body: String, balance: &str) -> String {
    format!("{body}\n[balance]\n{balance}\n")
}

#[test]
fn a_balance_typo_is_reported_at_its_own_line() {
    // No sweep: the path typo at the path, not at a line of the file the search writes.
    let file = edited(KNIGHT, "path-typo", |t| {
        with_balance(
            t,
            "path = \"b.atack\"\nfrom = 8\nto = 16\ntarget = { a_win_rate = 0.5 }",
        )
    });
    let headline = check_error(&file);
    assert_at(&headline, &file, "\"b.atack\"");
    assert!(headline.contains("'atack'"), "{headline}");
    // At every sweep point: the same.
    let file = edited(FAIR, "path-typo-swept", |t| {
        t.replace(
            "path = \"weapons.blade.damage\"",
            "path = \"weapons.blade.damag\"",
        )
    });
    assert_at(&check_error(&file), &file, "\"weapons.blade.damag\"");
    // A target that is not a rate, at the target's entry.
    let file = edited(FAIR, "target-typo", |t| {
        t.replace("{ a_win_rate = 0.5 }", "{ a_win_rat = 0.5 }")
    });
    assert_at(&check_error(&file), &file, "0.5 }");
    // A key [balance] does not have, at that key.
    let file = edited(FAIR, "balance-key", |t| t.replace("from = 0", "form = 0"));
    assert_at(&check_error(&file), &file, "0\nto = 12");
}

#[test]
fn an_out_of_range_sweep_value_is_marked_where_it_is_written() {
    let file = edited(KNIGHT, "range", |t| {
        t.replace("[rules]", "[sweep]\n\"b.attack\" = [10, 12, 60]\n\n[rules]")
    });
    let headline = check_error(&file);
    assert_at(&headline, &file, "60]");
    assert!(headline.contains("b.attack = 60"), "{headline}");
}

#[test]
fn a_sweep_of_a_weapon_or_armour_the_file_lacks_is_refused_at_the_entry() {
    for (table, entry, known) in [
        ("weapons", "mace", "broadsword, spear"),
        ("armour", "plate", "mail and shield"),
    ] {
        let key = if table == "weapons" {
            "damage"
        } else {
            "coverage"
        };
        let file = edited(KNIGHT, &format!("lacks-{entry}"), |t| {
            t.replace(
                "[rules]",
                &format!("[sweep]\n\"{table}.{entry}.{key}\" = [2, 3]\n\n[rules]"),
            )
        });
        let headline = check_error(&file);
        assert_at(&headline, &file, "[2, 3]");
        assert!(
            headline.contains(&format!("no [{table}.{entry}]")) && headline.contains(known),
            "{headline}"
        );
    }
}

#[test]
fn parser_jargon_is_said_in_a_designers_words() {
    let file = edited(KNIGHT, "unquoted", |t| {
        t.replace("weapon = \"broadsword\"", "weapon = broadsword")
    });
    let headline = check_error(&file);
    assert!(
        headline.contains("expected text in quotes, such as \"broadsword\""),
        "{headline}"
    );
    assert!(!headline.contains("literal string"), "{headline}");
    let file = edited(KNIGHT, "yes", |t| {
        t.replace("aftermath = true", "aftermath = \"yes\"")
    });
    let headline = check_error(&file);
    assert!(
        headline.contains("expected true or false, found the text \"yes\""),
        "{headline}"
    );
    assert!(!headline.contains("invalid type"), "{headline}");
    let file = edited(KNIGHT, "number-for-text", |t| {
        t.replace("weapon = \"broadsword\"", "weapon = 3")
    });
    let headline = check_error(&file);
    assert!(
        headline.contains("expected text in quotes, found the number 3"),
        "{headline}"
    );
    let file = edited(KNIGHT, "text-for-number", |t| {
        t.replace("attack = 13", "attack = \"13\"")
    });
    let headline = check_error(&file);
    assert!(
        headline.contains("found the text \"13\"") && !headline.contains("invalid type"),
        "{headline}"
    );
}

#[test]
fn a_sweep_whose_values_the_fight_never_tells_apart_gets_a_warning() {
    // Both above what the die can show: the same fights, trial for trial.
    let capped = edited(KNIGHT, "capped", |t| {
        t.replace("[rules]", "[sweep]\n\"b.attack\" = [12, 20, 40]\n\n[rules]")
    });
    // A weapon nobody carries.
    let unused = edited(KNIGHT, "unused", |t| {
        t.replace(
            "[rules]",
            "[weapons.dagger]\ndamage = 1\n\n[sweep]\n\"weapons.dagger.damage\" = [1, 5]\n\"a.attack\" = [12, 13]\n\n[rules]",
        )
    });
    for (file, said) in [
        (&capped, "b.attack: 20 and 40 give the same fights"),
        (
            &unused,
            "weapons.dagger.damage changes nothing the fight reads",
        ),
    ] {
        let o = duelsim(&["check", file]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let err = text(&o.stderr);
        assert!(
            err.contains("warning: ") && err.contains(said),
            "check: {err}"
        );
        let out = scratch("warned").join("out");
        let o = duelsim(&[
            "run",
            file,
            "-q",
            "--trials",
            "20000",
            "-o",
            &out.to_string_lossy(),
        ]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let err = text(&o.stderr);
        assert!(
            err.contains("warning: ") && err.contains(said),
            "run: {err}"
        );
    }
    // The unused weapon's warning does not touch the sweep that matters.
    let o = duelsim(&["check", &unused]);
    assert!(!text(&o.stderr).contains("a.attack"), "{}", text(&o.stderr));
    // A sweep that changes the fight: no warning.
    let o = duelsim(&["check", "scenarios/twin-d20/weapon-armour-matrix.toml"]);
    assert!(o.status.success());
    assert!(!text(&o.stderr).contains("warning"), "{}", text(&o.stderr));
}

#[test]
fn a_sweep_of_a_table_the_rules_do_not_have_is_refused_at_its_entry() {
    let file = edited(KNIGHT, "table-typo", |t| {
        t.replace("[rules]", "[sweep]\n\"c.attack\" = [20, 40]\n\n[rules]")
    });
    let headline = check_error(&file);
    assert_at(&headline, &file, "[20, 40]");
    assert!(headline.contains("unknown key 'c'"), "{headline}");
}
