//! The words on the charts: swept paths and values in the rules' own words, the label of each
//! point, and the notes a caption adds (how many points are drawn, which curves coincide).

use super::model::{Ink, Series};
use crate::report::{RunResult, SideWords, Words};

/// A key in words: `melee_ml` is "melee ML", `impact_modifier` "impact modifier".
fn key_words(key: &str) -> String {
    const SHOUTED: [&str; 9] = ["ml", "eml", "hr", "ta", "cf", "ar", "ws", "hp", "sp"];
    key.split('_')
        .map(|w| {
            if SHOUTED.contains(&w) {
                w.to_uppercase()
            } else {
                w.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The plural of a fighter's name by the common English rules: "Brigand" "Brigands",
/// "Spearman" "Spearmen", "Harpy" "Harpies", "Lynx" "Lynxes". Other irregular plurals are not
/// known: "Wolf" gives "Wolfs".
pub(crate) fn plural(name: &str) -> String {
    let lower = name.to_lowercase();
    if let Some(stem) = name
        .strip_suffix("man")
        .or_else(|| name.strip_suffix("Man"))
    {
        let man = &name[stem.len()..];
        return format!("{stem}{}en", &man[..1]);
    }
    let vowel_before_y = lower
        .strip_suffix('y')
        .and_then(|stem| stem.chars().last())
        .is_some_and(|c| "aeiou".contains(c));
    if lower.ends_with('y') && !vowel_before_y && name.len() > 1 {
        return format!("{}ies", &name[..name.len() - 1]);
    }
    if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|end| lower.ends_with(end))
    {
        return format!("{name}es");
    }
    format!("{name}s")
}

/// The label of a swept path in the designer's words, from the ruleset's parameter list:
/// `a.melee_ml` is "Swordsman's melee ML", `weapons.mace.impact_modifier` "mace's impact
/// modifier", and `rules.damage[6]` names the table entry from the key's documentation
/// ("damage for three+ 6s (Critical Strike)").
pub(crate) fn axis_title(path: &str, names: [&str; 2], ruleset: &str) -> String {
    let (section, rest) = path.split_once('.').unwrap_or(("", path));
    match section {
        // zone-d100's healers are named by their skill, as the text names them.
        "healing" if rest == "physicians" => return "healers (Physician ML)".to_owned(),
        // A side's size: "Brigands on the side", not "Brigand's count".
        "a" | "b" if rest == "count" => {
            return format!("{} on the side", plural(names[usize::from(section == "b")]));
        }
        // An entry of a mixed side ("b[1].count"): its group of the side's name ("Sergeant +
        // Watchman" names entry 1 "Watchman").
        _ if rest == "count" && (section.starts_with("a[") || section.starts_with("b[")) => {
            let side = usize::from(section.starts_with('b'));
            let entry = section[2..].trim_end_matches(']').parse::<usize>().ok();
            let group = entry.and_then(|k| names[side].split(" + ").nth(k));
            if let Some(group) = group {
                let base = group.split(" ×").next().unwrap_or(group);
                return format!("{} on the side", plural(base));
            }
        }
        "a" => return format!("{}'s {}", names[0], key_words(rest)),
        "b" => return format!("{}'s {}", names[1], key_words(rest)),
        "weapons" | "armour" => {
            if let Some((item, key)) = rest.rsplit_once('.') {
                return format!("{}'s {}", item.trim_matches('"'), key_words(key));
            }
        }
        _ => {}
    }
    let (key, index) = match rest.split_once('[') {
        Some((k, i)) => (k, i.trim_end_matches(']').parse::<usize>().ok()),
        None => (rest, None),
    };
    let doc = crate::rules::registry::parameters(ruleset)
        .unwrap_or(&[])
        .iter()
        .find(|p| p.section == section && p.key == key)
        .map(|p| p.doc);
    let entry = index.and_then(|i| {
        // A table's documentation lists its entries after a colon, one per element.
        let (_, list) = doc?.split_once(':')?;
        let entries: Vec<&str> = list.split(", ").map(str::trim).collect();
        (entries.len() > 1)
            .then(|| entries.get(i).copied())
            .flatten()
    });
    match (entry, index) {
        (Some(entry), _) => format!("{} for {entry}", key_words(key)),
        (None, Some(i)) => format!("{} entry {i} ({section})", key_words(key)),
        (None, None) if section.is_empty() => key_words(key),
        (None, None) => format!("{} ({section})", key_words(key)),
    }
}

/// The label of a point: its swept values, or "A vs B" when nothing is swept.
pub(super) fn point_label(run: &RunResult, i: usize) -> String {
    let swept = &run.scenario.points[i].swept;
    if swept.is_empty() {
        let names = run.scenario.points[i].model.names();
        return format!("{} vs {}", names[0], names[1]);
    }
    let names = run.scenario.points[i].model.names();
    swept
        .iter()
        .map(|(k, v)| value_words(k, v, names, run.scenario.ruleset))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The ink of the `at`-th of `values` of a swept value: a sequential scale when every value
/// is a number (an ordered value), else a categorical colour.
pub(super) fn value_ink(values: &[String], at: usize) -> Ink {
    if values.len() > 1 && values.iter().all(|v| v.parse::<f64>().is_ok()) {
        Ink::Ordered {
            at,
            of: values.len(),
        }
    } else {
        Ink::Category(at)
    }
}

/// The ink of point `i`'s curve: with one value swept, that value's place among its values
/// (ordered or not); with several or none, a categorical colour by point.
pub(super) fn point_ink(run: &RunResult, i: usize) -> Ink {
    let swept = run.scenario.swept_values();
    match (swept.as_slice(), run.scenario.points[i].swept.first()) {
        ([(_, values)], Some((_, v))) => {
            value_ink(values, values.iter().position(|x| x == v).unwrap_or(0))
        }
        _ => Ink::Category(i),
    }
}

/// A swept value as a reader says it: a `[weights]` point's "path +step" with the path in words
/// ("Knight's toughness +1"); any other value as written.
pub(crate) fn value_words(key: &str, value: &str, names: [&str; 2], ruleset: &str) -> String {
    let items = |list: &str| -> Vec<String> {
        (list.split([',', ' ']))
            .map(|i| i.trim().trim_matches('"').to_owned())
            .filter(|i| !i.is_empty())
            .collect()
    };
    match (key, value.rsplit_once(' ')) {
        ("weights", Some((path, step))) => format!("{} {step}", axis_title(path, names, ruleset)),
        // The healers at hand: "no healer", "Physician ML 40", "Physicians ML 40 and 80".
        ("healing.physicians", _) => {
            let list = value.trim_start_matches('[').trim_end_matches(']');
            match items(list).as_slice() {
                [] => "no healer".to_owned(),
                [one] => format!("Physician ML {one}"),
                [rest @ .., last] => format!("Physicians ML {} and {last}", rest.join(", ")),
            }
        }
        _ => match value.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
            // A list (the healers' MLs) as its items, or "none".
            Some(items) if items.trim().is_empty() => "none".to_owned(),
            Some(list) => items(list).join(", "),
            None => value.trim_matches('"').to_owned(),
        },
    }
}

/// A swept value said in a sentence: "Swordsman with a broadsword" for what a fighter carries,
/// "Knight in mail" for what it wears, "Swordsman's melee ML 55" for any other value.
pub(crate) fn value_phrase(key: &str, value: &str, names: [&str; 2], ruleset: &str) -> String {
    let (section, rest) = key.split_once('.').unwrap_or(("", key));
    let fighter = match section {
        "a" => Some(names[0]),
        "b" => Some(names[1]),
        _ => None,
    };
    match (fighter, rest) {
        _ if key == "healing.physicians" => {
            format!("with {}", value_words(key, value, names, ruleset))
        }
        (Some(name), "weapon" | "shield" | "missile") => format!("{name} with {value}"),
        (Some(name), "armour") => format!("{name} in {value}"),
        _ if key == "weights" => value_words(key, value, names, ruleset),
        _ => format!("{} {value}", axis_title(key, names, ruleset)),
    }
}

/// Each side in words for a chart's titles and labels, as the report's headings name it
/// ([`crate::report::side_words`]: "Brigands" for a side of one to three brigands, where the
/// first point's fighter is one "Brigand"), or a recovery scenario's patient on both.
pub(super) fn side_names(run: &RunResult) -> [SideWords; 2] {
    if Words::of(run).recovery {
        run.scenario.points[0].model.names().map(|name| SideWords {
            name: name.to_owned(),
            several: false,
        })
    } else {
        crate::report::side_words(run)
    }
}

/// What the points' labels are: the swept values' titles, in order.
pub(super) fn swept_title(run: &RunResult) -> String {
    let names = run.scenario.points[0].model.names();
    run.scenario.points[0]
        .swept
        .iter()
        .map(|(k, _)| axis_title(k, names, run.scenario.ruleset))
        .collect::<Vec<_>>()
        .join(" / ")
}

pub(super) fn shown_note(shown: usize, total: usize) -> String {
    if shown < total {
        format!(" {shown} of the {total} points are drawn; every point is in distributions.csv.")
    } else {
        String::new()
    }
}

/// Whether two curves lie on top of each other: within 1.5% of the axis's `span` everywhere,
/// or, for shares of a known number of cases, within 4.5 standard errors of their difference
/// (no difference the trials can tell).
pub(super) fn alike(a: &Series, b: &Series, span: f64) -> bool {
    let noise = |p: f64, n: u64| {
        let p = (p / 100.0).clamp(0.0, 1.0);
        if n == 0 {
            0.0
        } else {
            p * (1.0 - p) / n as f64
        }
    };
    let known = a.cases > 0 && b.cases > 0;
    a.points.len() == b.points.len()
        && (a.points.iter().zip(&b.points)).all(|(p, q)| {
            let sigma = 100.0 * (noise(p.1, a.cases) + noise(q.1, b.cases)).sqrt();
            let within = if known { 4.5 * sigma } else { 0.0 };
            p.0 == q.0 && (p.1 - q.1).abs() <= within.max(0.015 * span)
        })
}

/// Says which curves lie on top of each other (within 1.5% of the axis everywhere), so that a
/// reader who sees fewer lines than the legend lists knows why.
pub(super) fn coinciding_note(series: &[Series], span: f64) -> String {
    let close = |a: &Series, b: &Series| alike(a, b, span);
    let mut group: Vec<usize> = (0..series.len()).collect();
    for i in 0..series.len() {
        for j in 0..i {
            if group[j] == j && close(&series[i], &series[j]) {
                group[i] = j;
                break;
            }
        }
    }
    let sets: Vec<String> = (0..series.len())
        .filter_map(|g| {
            let members: Vec<&str> = (0..series.len())
                .filter(|&i| group[i] == g)
                .map(|i| series[i].label.as_str())
                .collect();
            (members.len() > 1).then(|| match members.split_last() {
                Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
                None => String::new(),
            })
        })
        .collect();
    if sets.is_empty() {
        String::new()
    } else {
        format!(
            " Curves that coincide (within 1.5% of the axis everywhere; their markers are shifted so each shows): {}.",
            sets.join("; ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::model::Look;

    #[test]
    fn swept_paths_are_labelled_in_the_rules_words() {
        let names = ["Swordsman", "Knight"];
        assert_eq!(
            axis_title("a.melee_ml", names, "zone-d100"),
            "Swordsman's melee ML"
        );
        assert_eq!(
            axis_title("b.armour", names, "zone-d100"),
            "Knight's armour"
        );
        assert_eq!(
            axis_title("weapons.mace.impact_modifier", names, "zone-d100"),
            "mace's impact modifier"
        );
        assert_eq!(
            axis_title("rules.damage[6]", names, "d6-pool"),
            "damage for three+ 6s (Critical Strike)"
        );
        assert_eq!(axis_title("round_limit", names, "twin-d20"), "round limit");
    }

    #[test]
    fn curves_that_coincide_are_named_in_the_caption() {
        let curve = |label: &str, lift: f64| Series {
            label: label.into(),
            points: (0..5)
                .map(|x| (f64::from(x), 10.0 * f64::from(x) + lift))
                .collect(),
            band: None,
            look: Look::Line,
            ink: Ink::Category(0),
            cases: 0,
        };
        let series = [
            curve("sword", 0.0),
            curve("mace", 5.0),
            curve("axe", 1.0),
            curve("club", 5.5),
        ];
        let note = coinciding_note(&series, 100.0);
        assert!(note.contains("sword and axe; mace and club"), "{note}");
        assert_eq!(coinciding_note(&series[..2], 100.0), "");
    }

    #[test]
    fn a_swept_side_size_is_said_in_words() {
        assert_eq!(
            axis_title("b.count", ["Knight", "Brigand"], "twin-d20"),
            "Brigands on the side"
        );
        assert_eq!(
            axis_title("b.count", ["Berserker", "Spearman"], "d6-pool"),
            "Spearmen on the side"
        );
        assert_eq!(
            axis_title(
                "b[1].count",
                ["Duellist", "Sergeant + Watchman"],
                "guard-pierce"
            ),
            "Watchmen on the side"
        );
        let plurals = [
            "Archers", "Harpies", "Lynxes", "Watchmen", "Monkeys", "Wolfs",
        ];
        for (name, many) in ["Archer", "Harpy", "Lynx", "Watchman", "Monkey", "Wolf"]
            .iter()
            .zip(plurals)
        {
            assert_eq!(plural(name), many);
        }
    }
}
