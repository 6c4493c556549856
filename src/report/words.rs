//! The words a report speaks in, worked out once for every writer (the HTML page, the Markdown
//! tables, the terminal, the charts): what a trial is (duel, fight, patient), each side's name,
//! swept paths and values in the rules' own words, and the label of each point.

use super::run::RunResult;
use crate::stats::Side;

/// The words a report uses for what a trial is: a duel and its wounded survivors, or (for a
/// recovery scenario) a patient.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Words {
    /// A recovery scenario: patients, not duels.
    pub recovery: bool,
    /// A side holds several fighters at some point: fights, not duels.
    pub skirmish: bool,
    /// A campaign: encounters in a row, not one fight.
    pub campaign: bool,
}

/// How the report names one side in its headings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SideWords {
    /// "Knight" for a side of one; "Brigands" for a side that is copies of one fighter at some
    /// point; for a mixed side, its name ("Sergeant + Watchman ×2") when it is the same at every
    /// point, else its kinds of fighter without their counts ("Sergeant + Watchmen").
    pub name: String,
    /// Several fighters at some point.
    pub several: bool,
    /// A campaign's party or foes: the party "comes through", not "wins".
    pub campaign: bool,
}

impl SideWords {
    /// "Knight's", "Brigands'", "Sergeant + Watchmen's".
    pub(crate) fn possessive(&self) -> String {
        if self.several && self.name.ends_with('s') {
            format!("{}'", self.name)
        } else {
            format!("{}'s", self.name)
        }
    }

    /// "Knight's win rate"; a campaign party's "Knights' rate of coming through".
    pub(crate) fn win_rate(&self) -> String {
        if self.campaign {
            format!("{} rate of coming through", self.possessive())
        } else {
            format!("{} win rate", self.possessive())
        }
    }

    /// "Knight wins", "Brigands win"; a campaign's party "comes through" (wins its last
    /// fight), its foes "beat" it.
    pub(crate) fn wins(&self) -> String {
        if self.campaign {
            return match (self.name.as_str(), self.several) {
                ("their foes", _) => "the party is beaten".to_owned(),
                (name, true) => format!("{name} come through"),
                (name, false) => format!("{name} comes through"),
            };
        }
        if self.several {
            format!("{} win", self.name)
        } else {
            format!("{} wins", self.name)
        }
    }

    /// The share a rate counts, in words: "duels Knight wins", "fights the Brigands win".
    pub(crate) fn wins_share(&self, run: &RunResult) -> String {
        let trials = Words::of(run).trials();
        if self.campaign {
            return format!("{trials} where {}", self.wins());
        }
        if self.several {
            format!("{trials} the {} win", self.name)
        } else {
            format!("{trials} {} wins", self.name)
        }
    }

    /// "Knight dies", "each of the Brigands dies" (a share of the side's fighters: the chance
    /// of each, which falls as fighters are added even as more die in all).
    pub(crate) fn dies(&self) -> String {
        if self.campaign && self.name == "their foes" {
            return "each of their foes dies".to_owned();
        }
        if self.several {
            format!("each of the {} dies", self.name)
        } else {
            format!("{} dies", self.name)
        }
    }
}

/// Both sides of a run in words for headings (see [`SideWords`]).
pub(crate) fn side_words(run: &RunResult) -> [SideWords; 2] {
    let points = &run.scenario.points;
    let campaign = Words::of(run).campaign;
    let mut words = Side::BOTH.map(|side| {
        if campaign && side == Side::B {
            return SideWords {
                name: "their foes".to_owned(),
                several: true,
                campaign,
            };
        }
        let k = side.index();
        let size = |p: &crate::scenario::Point<crate::rules::registry::Model>| {
            p.model.shape().sides[k] as usize
        };
        let Some(largest) = points.iter().max_by_key(|p| size(p)) else {
            return SideWords {
                name: String::new(),
                several: false,
                campaign,
            };
        };
        let n = size(largest);
        if n <= 1 {
            return SideWords {
                name: largest.model.names()[k].to_owned(),
                several: false,
                campaign,
            };
        }
        // Each kind of fighter on the side (its fighters' names without their numbers), in
        // order of first appearance over the points, with the most of it at any one point.
        let mut kinds: Vec<(String, usize)> = Vec::new();
        for p in points {
            let size = size(p);
            let names = p.model.fighter_names();
            let start = if k == 0 { 0 } else { names.len() - size };
            let mut here: Vec<(String, usize)> = Vec::new();
            for name in &names[start..start + size] {
                let kind = crate::rules::roster::base_name(name, size);
                match here.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, count)) => *count += 1,
                    None => here.push((kind, 1)),
                }
            }
            for (kind, count) in here {
                match kinds.iter_mut().find(|(k, _)| *k == kind) {
                    Some((_, most)) => *most = (*most).max(count),
                    None => kinds.push((kind, count)),
                }
            }
        }
        let name = match kinds.as_slice() {
            // Copies of one fighter: "Brigands".
            [(kind, _)] => plural(kind),
            // A mixed side the same at every point: its name, counts and all.
            _ if points
                .iter()
                .all(|p| p.model.names()[k] == largest.model.names()[k]) =>
            {
                largest.model.names()[k].to_owned()
            }
            // A mixed side that differs between points: each kind of fighter, in the plural
            // where some point has several, without counts, which are not every point's
            // ("Sergeant + Watchmen", not "Sergeant + Watchman ×3").
            _ => kinds
                .iter()
                .map(|(kind, most)| {
                    if *most > 1 {
                        plural(kind)
                    } else {
                        kind.clone()
                    }
                })
                .collect::<Vec<_>>()
                .join(" + "),
        };
        SideWords {
            name,
            several: true,
            campaign,
        }
    });
    if campaign {
        words[0].campaign = true;
    }
    words
}

impl Words {
    /// The words of this run.
    pub(crate) fn of(run: &RunResult) -> Words {
        Words {
            recovery: run
                .scenario
                .points
                .first()
                .is_some_and(|p| p.model.is_recovery()),
            skirmish: run
                .scenario
                .points
                .iter()
                .any(|p| p.model.shape().sides.iter().any(|&n| n > 1)),
            campaign: (run.scenario.points.first()).is_some_and(|p| p.model.campaign().is_some()),
        }
    }

    /// One trial: "duel", "fight" (sides of several) or "patient".
    pub(crate) fn trial(self) -> &'static str {
        match (self.recovery, self.skirmish) {
            _ if self.campaign => "campaign",
            (true, _) => "patient",
            (false, true) => "fight",
            (false, false) => "duel",
        }
    }

    /// Trials: "duels", "fights" or "patients".
    pub(crate) fn trials(self) -> &'static str {
        match (self.recovery, self.skirmish) {
            _ if self.campaign => "campaigns",
            (true, _) => "patients",
            (false, true) => "fights",
            (false, false) => "duels",
        }
    }

    /// Who heals: "wounded survivors" or "patients".
    pub(crate) fn patients(self) -> &'static str {
        if self.recovery {
            "patients"
        } else {
            "wounded survivors"
        }
    }

    /// What the healing days count from: "duel" or "injury".
    pub(crate) fn from(self) -> &'static str {
        if self.recovery {
            "injury"
        } else {
            self.trial()
        }
    }

    /// Whose wounds are pooled: " (both sides)" after a duel, nothing for patients.
    pub(crate) fn sides(self) -> &'static str {
        if self.recovery { "" } else { " (both sides)" }
    }
}

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
    if let Some((k, rest)) = in_encounter(path) {
        return encounter_title(k, rest, ruleset);
    }
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

/// A campaign's path into one encounter (`encounter[1].b.count`): the encounter's number from 1
/// and the path within it.
fn in_encounter(path: &str) -> Option<(usize, &str)> {
    let rest = path.strip_prefix("encounter[")?;
    let (k, rest) = rest.split_once("].")?;
    Some((k.parse::<usize>().ok()? + 1, rest))
}

/// A path into encounter `k` in words: "foes in encounter 2" (`b.count`), "days of rest after
/// encounter 2", "foes' attack in encounter 3", "max attackers in encounter 3".
fn encounter_title(k: usize, rest: &str, ruleset: &str) -> String {
    let (section, key) = rest.split_once('.').unwrap_or(("", rest));
    match (section, key) {
        ("", "rest_days") => format!("days of rest after encounter {k}"),
        ("b", "count") => format!("foes in encounter {k}"),
        (group, "count") if group.starts_with("b[") => {
            let entry = group[2..]
                .trim_end_matches(']')
                .parse::<usize>()
                .unwrap_or(0);
            format!("foes of group {} in encounter {k}", entry + 1)
        }
        ("b", key) => format!("foes' {} in encounter {k}", key_words(key)),
        (group, key) if group.starts_with("b[") => {
            let entry = group[2..]
                .trim_end_matches(']')
                .parse::<usize>()
                .unwrap_or(0);
            format!(
                "foes' {} (group {}) in encounter {k}",
                key_words(key),
                entry + 1
            )
        }
        _ => format!(
            "{} in encounter {k}",
            axis_title(rest, ["party", "foes"], ruleset)
        ),
    }
}

/// The label of a point: its swept values, or "A vs B" when nothing is swept.
pub(crate) fn point_label(run: &RunResult, i: usize) -> String {
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
        // A side's size: "3 Brigands", "1 Brigand".
        (Some(name), "count") => {
            let base = name.split(" ×").next().unwrap_or(name);
            match value {
                "1" => format!("1 {base}"),
                _ => format!("{value} {}", plural(base)),
            }
        }
        _ if key == "weights" => value_words(key, value, names, ruleset),
        // A campaign's encounter: "3 foes in encounter 2", "7 days of rest after encounter 2".
        _ if in_encounter(key).is_some() => {
            let title = axis_title(key, names, ruleset);
            match title.strip_prefix("foes in ") {
                Some(rest) => format!("{value} foes in {rest}"),
                None if title.starts_with("days of rest") => format!("{value} {title}"),
                None => format!("{title} {value}"),
            }
        }
        _ => format!("{} {value}", axis_title(key, names, ruleset)),
    }
}

/// Each side in words for a chart's titles and labels, as the report's headings name it
/// ([`side_words`]: "Brigands" for a side of one to three brigands, where the
/// first point's fighter is one "Brigand"), or a recovery scenario's patient on both.
pub(crate) fn side_names(run: &RunResult) -> [SideWords; 2] {
    if Words::of(run).recovery {
        run.scenario.points[0].model.names().map(|name| SideWords {
            name: name.to_owned(),
            several: false,
            campaign: false,
        })
    } else {
        side_words(run)
    }
}

/// What the points' labels are: the swept values' titles, in order.
pub(crate) fn swept_title(run: &RunResult) -> String {
    let names = run.scenario.points[0].model.names();
    run.scenario.points[0]
        .swept
        .iter()
        .map(|(k, _)| axis_title(k, names, run.scenario.ruleset))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// A point's swept values in words: "broadsword, plate".
pub(crate) fn point_words(run: &RunResult, i: usize) -> String {
    let p = &run.scenario.points[i];
    let names = p.model.names();
    (p.swept.iter())
        .map(|(k, v)| value_words(k, v, names, run.scenario.ruleset))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A point's swept values as a phrase: "Knight with a mace, Brigand in mail", or "the
/// baseline" for a point that changes nothing.
pub(crate) fn point_phrase(run: &RunResult, i: usize) -> String {
    if run.scenario.baseline == Some(i) {
        return "the baseline".to_owned();
    }
    let p = &run.scenario.points[i];
    let names = p.model.names();
    let words: Vec<String> = (p.swept.iter())
        .map(|(k, v)| value_phrase(k, v, names, run.scenario.ruleset))
        .collect();
    if words.is_empty() {
        "the baseline".to_owned()
    } else {
        words.join(", ")
    }
}

/// A difference with its sign, to `decimals` places; one that rounds to nothing is +0, never
/// -0 (a tiny negative difference would otherwise print as "-0.00").
pub(crate) fn signed(x: f64, decimals: usize) -> String {
    let text = format!("{x:+.decimals$}");
    if text
        .trim_start_matches(['+', '-'])
        .chars()
        .all(|c| c == '0' || c == '.')
    {
        format!("{:+.decimals$}", 0.0)
    } else {
        text
    }
}

/// The fewest cases a mean is printed to a decimal from; below, it is rounded and its count
/// said ("about 21 (3 cases)"), so that a mean of almost nothing does not read as precise.
const FEW_CASES: u64 = 30;

/// A mean as a table prints it: "21.4", "about 21 (3 cases)" from few cases, "–" from none.
pub(crate) fn mean_words(x: Option<f64>, cases: u64) -> String {
    match x {
        None => "–".to_owned(),
        Some(v) if cases < FEW_CASES => {
            let s = if cases == 1 { "" } else { "s" };
            format!("about {v:.0} ({cases} case{s})")
        }
        Some(v) => format!("{v:.1}"),
    }
}

/// A whole number as people write it, its thousands set apart: "861,000,000".
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A count with its noun: "1 point", "3 points", "1,000 trials".
pub fn counted(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", grouped(n), if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn counts_are_grouped_and_their_nouns_agree() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1,000");
        assert_eq!(grouped(861_000_000), "861,000,000");
        assert_eq!(counted(1, "point", "points"), "1 point");
        assert_eq!(counted(1200, "thread", "threads"), "1,200 threads");
    }

    #[test]
    fn a_swept_side_size_is_said_in_words() {
        let names = ["Knight", "Brigand"];
        assert_eq!(
            value_phrase("b.count", "3", names, "twin-d20"),
            "3 Brigands"
        );
        assert_eq!(value_phrase("b.count", "1", names, "twin-d20"), "1 Brigand");
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
