//! What a run found, worked out once from the finished tallies for every writer that opens
//! with it: the headline sentence (in words and numbers, saying what does not matter too) and
//! which chart answers it. It draws nothing and writes nothing: the HTML page puts the sentence
//! and the chart first; the charts themselves know nothing of it.

use super::run::RunResult;
use super::words::{
    SideWords, Words, axis_title, point_phrase, point_words, side_words, value_phrase,
};
use crate::stats::{Side, Tally, wilson};

/// A swept value whose largest effect on the headline rate is under this many percentage
/// points is said not to matter.
const MATTERS_POINTS: f64 = 2.0;

/// The headline of a run and the chart that answers it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Findings {
    /// One or two sentences that say what the run found.
    pub headline: String,
    /// The file stem of the chart that answers it (`outcomes`, `win-rate`, `matchup`, ...), in
    /// order of preference: the first one drawn is shown first.
    pub answers: &'static [&'static str],
}

/// What `run` found.
pub(crate) fn of(run: &RunResult) -> Findings {
    let s = run.scenario;
    if run.tallies.is_empty() || s.points.is_empty() {
        return Findings {
            headline: "No point of this run finished.".to_owned(),
            answers: &[],
        };
    }
    let sides = side_words(run);
    if Words::of(run).recovery {
        return Findings {
            headline: recovery(run),
            answers: &["recovery-outcomes", "days-to-whole"],
        };
    }
    if run.balance.is_some() {
        return Findings {
            headline: balance(run),
            answers: &["balance"],
        };
    }
    if let Some(base) = s.baseline {
        return Findings {
            headline: compared(run, base, &sides),
            answers: &["differences", "outcomes"],
        };
    }
    let swept = s.points[0].swept.len();
    if let Some(outline) = s.points[0].model.campaign()
        && swept == 0
    {
        return Findings {
            headline: super::campaign::headline(run, &run.tallies[0], outline),
            answers: &["outcomes"],
        };
    }
    match swept {
        0 => Findings {
            headline: one_fight(run, &run.tallies[0], &sides),
            answers: &["outcomes"],
        },
        1 => Findings {
            headline: swept_effects(run, &sides),
            answers: &["win-rate", "outcomes"],
        },
        _ => Findings {
            headline: swept_effects(run, &sides),
            answers: &["matchup", "win-rate", "outcomes"],
        },
    }
}

/// A share as a sentence says it: "62%" for most, one decimal under 10% or over 90%
/// ("3.4%", "99.2%"), never "0%" for a rate that happened.
fn share(count: u64, of: u64) -> String {
    if of == 0 {
        return "–".to_owned();
    }
    let r = 100.0 * count as f64 / of as f64;
    // None and all are exact ("0%", "100%"), like the middle range.
    if count == 0 || count == of || (10.0..=90.0).contains(&r) {
        format!("{r:.0}%")
    } else if count > 0 && r < 0.05 {
        "under 0.1%".to_owned()
    } else {
        format!("{r:.1}%")
    }
}

/// A share with its 95% interval: "62% [61, 63]".
fn share_within(count: u64, of: u64) -> String {
    if of == 0 {
        return "–".to_owned();
    }
    let (_, lo, hi) = wilson(count, of);
    let decimals = usize::from(!(0.1..=0.9).contains(&(count as f64 / of as f64)));
    format!(
        "{} [{:.decimals$}, {:.decimals$}]",
        share(count, of),
        100.0 * lo,
        100.0 * hi
    )
}

/// The rate the headline of a fight follows: side a's wins.
fn a_wins(t: &Tally) -> f64 {
    t.wins(Side::A) as f64 / t.trials.max(1) as f64
}

/// One fight, nothing varied: who wins, how long it lasts, who dies.
fn one_fight(run: &RunResult, t: &Tally, sides: &[SideWords; 2]) -> String {
    let fights = Words::of(run).trials();
    let mut out = format!(
        "{} {} of {fights} {}; {} {}",
        sides[0].wins(),
        share_within(t.wins(Side::A), t.trials),
        against(sides),
        sides[1].wins(),
        share(t.wins(Side::B), t.trials),
    );
    if t.draws() > 0 {
        out.push_str(&format!(", and {} end drawn", share(t.draws(), t.trials)));
    }
    out.push('.');
    if let Some(rounds) = t.rounds.mean() {
        out.push_str(&format!(" A fight lasts {rounds:.1} rounds on average."));
    }
    let deaths: Vec<String> = Side::BOTH
        .iter()
        .filter(|side| t.dead[side.index()] > 0)
        .map(|side| {
            let k = side.index();
            format!(
                "{} in {}",
                sides[k].dies(),
                share(t.dead[k], t.fighter_trials(k))
            )
        })
        .collect();
    if deaths.is_empty() {
        out.push_str(" Nobody dies.");
    } else {
        out.push_str(&format!(" {}.", capitalised(&deaths.join("; "))));
    }
    out
}

/// Side a's headline rate in words: "Knight's win rate", or a campaign's "the share of
/// campaigns the Knights come through".
fn win_rate_words(a: &SideWords) -> String {
    if a.campaign {
        format!("the share of campaigns where {}", a.wins())
    } else {
        a.win_rate()
    }
}

/// "against the Brigand" or "against the Brigands".
fn against(sides: &[SideWords; 2]) -> String {
    format!("against {}", sides[1].name)
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// How much each swept value moves side a's win rate, largest first: the range of its effect
/// over the other values' combinations, and the ones under [`MATTERS_POINTS`] said not to
/// matter. With one swept value, where the win rate runs from and to.
fn swept_effects(run: &RunResult, sides: &[SideWords; 2]) -> String {
    let s = run.scenario;
    let names = s.points[0].model.names();
    let keys = s.points[0].swept.len();
    let done = run.tallies.len().min(s.points.len());
    let rates: Vec<f64> = run.tallies.iter().map(a_wins).collect();
    let whose = win_rate_words(&sides[0]);
    if keys == 1 {
        let (lo, hi) = extremes(&rates);
        let phrase = |i: usize| {
            let (k, v) = &s.points[i].swept[0];
            value_phrase(k, v, names, s.ruleset)
        };
        let spread = 100.0 * (rates[hi] - rates[lo]);
        let key = axis_title(&s.points[0].swept[0].0, names, s.ruleset);
        if spread < MATTERS_POINTS {
            return format!(
                "{} barely matters: {whose} stays within {spread:.1} points, from {} to {}.",
                capitalised(&key),
                share(run.tallies[lo].wins(Side::A), run.tallies[lo].trials),
                share(run.tallies[hi].wins(Side::A), run.tallies[hi].trials),
            );
        }
        return format!(
            "{} {} with {} and {} with {}: {} moves {whose} by {spread:.0} points.",
            sides[0].wins(),
            share(run.tallies[lo].wins(Side::A), run.tallies[lo].trials),
            phrase(lo),
            share(run.tallies[hi].wins(Side::A), run.tallies[hi].trials),
            phrase(hi),
            key,
        );
    }
    // For each swept value, the spread of the win rate along it at each combination of the
    // others: its least and its most.
    let mut effects: Vec<(String, f64, f64)> = (0..keys)
        .map(|k| {
            let mut groups: Vec<(Vec<&str>, Vec<f64>)> = Vec::new();
            for (i, &rate) in rates.iter().enumerate().take(done) {
                let others: Vec<&str> = (s.points[i].swept.iter().enumerate())
                    .filter(|&(j, _)| j != k)
                    .map(|(_, (_, v))| v.as_str())
                    .collect();
                match groups.iter_mut().find(|(o, _)| *o == others) {
                    Some((_, r)) => r.push(rate),
                    None => groups.push((others, vec![rate])),
                }
            }
            let spreads: Vec<f64> = groups
                .iter()
                .map(|(_, r)| {
                    let (lo, hi) = extremes(r);
                    100.0 * (r[hi] - r[lo])
                })
                .collect();
            let least = spreads.iter().copied().fold(f64::INFINITY, f64::min);
            let most = spreads.iter().copied().fold(0.0, f64::max);
            (
                axis_title(&s.points[0].swept[k].0, names, s.ruleset),
                least,
                most,
            )
        })
        .collect();
    effects.sort_by(|a, b| b.2.total_cmp(&a.2));
    let said: Vec<String> = effects
        .iter()
        .enumerate()
        .map(|(i, (key, least, most))| {
            let by = if most < &MATTERS_POINTS {
                format!("by at most {most:.1} points, which does not matter")
            } else if (most - least) < 1.0 {
                format!("by {most:.0} points")
            } else {
                format!("by {least:.0} to {most:.0} points")
            };
            if i == 0 {
                format!("{} moves {whose} {by}", capitalised(key))
            } else {
                format!("{key} {by}")
            }
        })
        .collect();
    let (lo, hi) = extremes(&rates);
    format!(
        "{}. {} from {} ({}) to {} ({}).",
        said.join("; "),
        sides[0].wins(),
        share(run.tallies[lo].wins(Side::A), run.tallies[lo].trials),
        point_words(run, lo),
        share(run.tallies[hi].wins(Side::A), run.tallies[hi].trials),
        point_words(run, hi),
    )
}

/// The indices of the least and the greatest of `values` (the first of equals).
fn extremes(values: &[f64]) -> (usize, usize) {
    let mut lo = 0;
    let mut hi = 0;
    for (i, v) in values.iter().enumerate() {
        if *v < values[lo] {
            lo = i;
        }
        if *v > values[hi] {
            hi = i;
        }
    }
    (lo, hi)
}

/// A `[compare]` or `[weights]` run: each change's difference from the baseline on the same
/// dice, largest first, the ones under [`MATTERS_POINTS`] said not to matter.
fn compared(run: &RunResult, base: usize, sides: &[SideWords; 2]) -> String {
    let mut deltas: Vec<(usize, f64, f64, f64)> = (run.tallies.iter().enumerate())
        .filter(|&(i, _)| i != base)
        .filter_map(|(i, t)| t.paired.delta(0).map(|(d, lo, hi)| (i, d, lo, hi)))
        .collect();
    deltas.sort_by(|a, b| b.1.abs().total_cmp(&a.1.abs()));
    let whose = win_rate_words(&sides[0]);
    let Some(&(top, d, lo, hi)) = deltas.first() else {
        return format!("Nothing was compared with {}.", point_phrase(run, base));
    };
    let points = |x: f64| format!("{:+.1}", 100.0 * x).replace("-0.0", "+0.0");
    let mut out = format!(
        "Against {}, {} moves {whose} most: {} points [{}, {}]",
        point_phrase(run, base),
        point_phrase(run, top),
        points(d),
        points(lo),
        points(hi),
    );
    let rest: Vec<String> = deltas[1..]
        .iter()
        .map(|&(i, d, ..)| {
            let small = if 100.0 * d.abs() < MATTERS_POINTS {
                ", which does not matter"
            } else {
                ""
            };
            format!("{} {}{small}", point_phrase(run, i), points(d))
        })
        .collect();
    if !rest.is_empty() {
        out.push_str("; then ");
        out.push_str(&rest.join("; "));
    }
    out.push('.');
    out
}

/// A `[balance]` search: its answer as the run's notes say it; with a sweep, where the answers
/// run from and to over the sweep points (each point's answer is in the table that follows).
fn balance(run: &RunResult) -> String {
    let Some(marks) = run.balance.as_ref().filter(|m| !m.points.is_empty()) else {
        return run.notes.first().cloned().unwrap_or_default();
    };
    let s = run.scenario;
    let names = s.points[0].model.names();
    // The value searched is the last of each point's values (as the answers chart draws it).
    let path = (marks.points[0].swept.last())
        .map_or_else(String::new, |(k, _)| axis_title(k, names, s.ruleset));
    // Each answer with its words: a whole number between two as "4–5", never "4.5".
    let found: Vec<(f64, String, usize)> = (marks.points.iter().enumerate())
        .filter_map(|(i, p)| {
            let (v, lo, hi) = p.answer.value()?;
            let words = if lo.fract() == 0.0 && hi - lo == 1.0 {
                format!("{lo:.0}–{hi:.0}")
            } else {
                number(v)
            };
            Some((v, words, i))
        })
        .collect();
    let values = |i: usize| {
        let swept = &marks.points[i].swept;
        (swept[..swept.len().saturating_sub(1)].iter())
            .map(|(k, v)| value_phrase(k, v, names, s.ruleset))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let lo = found.iter().min_by(|a, b| a.0.total_cmp(&b.0));
    let hi = found.iter().max_by(|a, b| a.0.total_cmp(&b.0));
    let missing = marks.points.len() - found.len();
    let mut out = match (lo, hi) {
        (Some((_, lo, i)), Some((_, hi, j))) => format!(
            "The {path} that {} runs from {lo} ({}) to {hi} ({}) over the {} sweep points",
            marks.goal,
            values(*i),
            values(*j),
            marks.points.len()
        ),
        _ => format!(
            "No {path} in the range searched {} at any sweep point",
            marks.goal
        ),
    };
    if missing > 0 && !found.is_empty() {
        out.push_str(&format!(
            "; at {missing} of them the range does not reach it"
        ));
    }
    out.push('.');
    out
}

/// A value found by a search: whole numbers as such, a middle between two as "4.5".
fn number(v: f64) -> String {
    if v.fract() == 0.0 {
        format!("{v:.0}")
    } else {
        format!("{v:.1}")
    }
}

/// A recovery run: how often a patient is whole, dies or keeps an impairment; with a sweep,
/// which value heals best and worst.
fn recovery(run: &RunResult) -> String {
    let s = run.scenario;
    let who = Words::of(run).patients();
    let info = crate::rules::registry::info(s.ruleset);
    let deaths = info.is_none_or(|i| i.recovery_deaths);
    let impairment = info.is_none_or(|i| i.impairment);
    let say = |t: &Tally| {
        let r = t.recovery_pooled();
        let whole = r.days_to_whole.count();
        let mut parts = vec![format!("whole in {}", share(whole, r.patients))];
        if let Some(median) = r.days_to_whole.quantile(0.5) {
            parts[0].push_str(&format!(" (half of them within {median} days)"));
        }
        if deaths {
            parts.push(format!("die in {}", share(r.deaths, r.patients)));
        }
        if impairment {
            parts.push(format!(
                "keep a lasting impairment in {}",
                share(r.impaired, r.patients)
            ));
        }
        parts.join(", ")
    };
    if run.tallies.len() == 1 {
        return format!("{}: {}.", capitalised(who), say(&run.tallies[0]));
    }
    // Best and worst by deaths where the ruleset has them, else by the unhealed.
    let bad: Vec<f64> = run
        .tallies
        .iter()
        .map(|t| {
            let r = t.recovery_pooled();
            let n = r.patients.max(1) as f64;
            if deaths {
                r.deaths as f64 / n
            } else {
                r.unhealed as f64 / n
            }
        })
        .collect();
    let (best, worst) = extremes(&bad);
    // "with Physician ML 80" says its own "with".
    let with = |i: usize| {
        let phrase = point_phrase(run, i);
        if phrase.starts_with("with ") {
            phrase
        } else {
            format!("with {phrase}")
        }
    };
    format!(
        "{}, {who} are {}; {}, {}.",
        capitalised(&with(best)),
        say(&run.tallies[best]),
        with(worst),
        say(&run.tallies[worst]),
    )
}

/// A sentence for healing outcomes that are all alike, which a chart would draw as bars of one
/// colour: every wounded survivor (or patient) whole within the horizon at every point. `None`
/// when they differ, or when nobody was wounded.
pub(crate) fn healing_all_alike(run: &RunResult) -> Option<String> {
    let mut patients = 0;
    for t in &run.tallies {
        let r = t.recovery_pooled();
        if r.unhealed > 0 || r.deaths > 0 || r.impaired > 0 {
            return None;
        }
        patients += r.patients;
    }
    let every_point = if run.tallies.len() > 1 {
        ", at every point"
    } else {
        ""
    };
    (patients > 0).then(|| {
        format!(
            "Every one of the {patients} {} heals whole within the horizon{every_point}, with no death in recovery and no lasting impairment.",
            Words::of(run).patients()
        )
    })
}

/// The charts of a run of several points that draw each point's distributions (how long its
/// fights last, what a hit does, how its wounds heal): detail, for the appendix.
const PER_POINT: [&str; 7] = [
    "rounds",
    "rounds-decided",
    "damage-per-hit",
    "damage-at-least",
    "hit-levels",
    "days-to-whole",
    "injuries",
];

/// Where a drawn chart belongs on a report's page.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// In the results, after the answering chart.
    Results,
    /// In the appendix, as detail at each point.
    Detail,
    /// Not drawn: this sentence says what it would show.
    Said(String),
    /// Not drawn: another chart shows the same numbers.
    Left,
}

/// Where the chart named `chart` belongs, of those `drawn` (names as the chart writer gives
/// them, a part of a split chart "-2", "-3"). The win rate at each point is left out where the
/// matchup heatmap draws the same numbers; healing outcomes that are all one kind (every
/// wounded survivor whole) are said, not drawn; per-point distributions of a run of several
/// points, and how a search's probes end, are detail.
pub(crate) fn place(run: &RunResult, chart: &str, drawn: &[&str]) -> Place {
    let base = chart.trim_end_matches(|ch: char| ch.is_ascii_digit() || ch == '-');
    let several = run.scenario.points.len() > 1 || run.balance.is_some();
    if base == "win-rate" && drawn.contains(&"matchup") {
        return Place::Left;
    }
    if chart == "recovery-outcomes"
        && let Some(sentence) = healing_all_alike(run)
    {
        return Place::Said(sentence);
    }
    // How a search's probes end is what its answer rests on: detail.
    let probes = run.balance.is_some() && matches!(base, "outcomes" | "recovery-outcomes");
    if probes || several && PER_POINT.contains(&base) {
        Place::Detail
    } else {
        Place::Results
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::charts::tests::{finished_run, scenario};
    use crate::rules::registry::parse;
    use std::path::Path;

    #[test]
    fn a_sweep_of_two_values_names_the_one_that_matters_first_and_the_matchup_answers() {
        // The Brigand's attack from 9 to 15 moves the Knight's win rate far more than a
        // sword against a club.
        let s = scenario();
        let run = finished_run(&s);
        let found = of(&run);
        assert_eq!(found.answers[0], "matchup");
        let attack = found
            .headline
            .find("Brigand's attack moves Knight's win rate by");
        let weapon = found.headline.find("; Knight's weapon by");
        assert!(
            matches!((attack, weapon), (Some(a), Some(w)) if a < w),
            "{}",
            found.headline
        );
    }

    #[test]
    fn a_chart_that_repeats_the_matchup_is_left_out_and_distributions_are_detail() {
        let s = scenario();
        let run = finished_run(&s);
        let drawn = [
            "outcomes",
            "win-rate",
            "matchup",
            "rounds",
            "damage-per-hit-2",
        ];
        assert_eq!(place(&run, "win-rate", &drawn), Place::Left);
        assert_eq!(place(&run, "outcomes", &drawn), Place::Results);
        assert_eq!(place(&run, "rounds", &drawn), Place::Detail);
        assert_eq!(place(&run, "damage-per-hit-2", &drawn), Place::Detail);
        // Without the heatmap, the win rates are the results.
        assert_eq!(place(&run, "win-rate", &drawn[..2]), Place::Results);
    }

    #[test]
    fn one_duel_says_who_wins_how_often_with_its_interval() {
        let text = "name = \"t\"\nruleset = \"twin-d20\"\ntrials = 4096\n[a]\nname = \"Knight\"\nattack = 13\ndefense = 6\ntoughness = 9\nweapon = \"sword\"\n[b]\nname = \"Brigand\"\nattack = 12\ndefense = 8\ntoughness = 8\nweapon = \"sword\"\n[weapons.sword]\ndamage = 3\n";
        let s = parse(Path::new("t.toml"), text).unwrap_or_else(|e| panic!("{e}"));
        let run = finished_run(&s);
        let t = &run.tallies[0];
        let found = of(&run);
        assert_eq!(found.answers, ["outcomes"]);
        let expected = format!(
            "Knight wins {} of duels against Brigand",
            share_within(t.wins(Side::A), t.trials)
        );
        assert!(found.headline.starts_with(&expected), "{}", found.headline);
        assert!(
            found.headline.contains("rounds on average"),
            "{}",
            found.headline
        );
    }

    #[test]
    fn shares_are_rounded_as_a_sentence_says_them() {
        assert_eq!(share(623, 1000), "62%");
        assert_eq!(share(34, 1000), "3.4%");
        assert_eq!(share(992, 1000), "99.2%");
        assert_eq!(share(1, 100_000), "under 0.1%");
        // None and all are exact.
        assert_eq!(share(0, 10), "0%");
        assert_eq!(share(10, 10), "100%");
    }
}
