//! A campaign in words: its headline rates (how many of the party live, and where they die or
//! are beaten, encounter by encounter) and the sentence a report and the terminal open with,
//! worked out from the campaign's own columns of the tally ([`crate::rules::campaign`]).

use super::run::RunResult;
use super::words::side_words;
use crate::rules::campaign::Outline;
use crate::stats::{Side, Tally, wilson};

/// A count of the party in words: "one", "two" ... "ten", then digits.
pub(crate) fn number(n: usize) -> String {
    const WORDS: [&str; 11] = [
        "none", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| (*w).to_owned())
}

/// The party as a sentence names it: "the party of three Knights", "the Knight",
/// "the party (Sergeant + Watchman ×2)".
fn party(run: &RunResult, outline: &Outline) -> String {
    let name = side_words(run)[0].name.clone();
    match outline.party {
        1 => name,
        n if !name.contains(['+', '×']) => format!("the party of {} {name}", number(n)),
        _ => format!("the party ({name})"),
    }
}

/// An encounter as a sentence names it: "encounter 2 of 3, the wood".
fn encounter_words(outline: &Outline, e: usize) -> String {
    let count = outline.encounters.len();
    let name = &outline.encounters[e].0;
    if name.starts_with("encounter ") {
        format!("{name} of {count}")
    } else {
        format!("encounter {} of {count}, {name}", e + 1)
    }
}

/// A share as a sentence says it, with its 95% interval: "38% [37, 39]".
fn share_within(count: u64, of: u64) -> String {
    let (r, lo, hi) = wilson(count, of.max(1));
    let decimals = usize::from(!(0.1..=0.9).contains(&r));
    format!(
        "{:.decimals$}% [{:.decimals$}, {:.decimals$}]",
        100.0 * r,
        100.0 * lo,
        100.0 * hi
    )
}

/// A share without its interval: "41%", "3.2%".
fn share(count: u64, of: u64) -> String {
    let r = 100.0 * count as f64 / of.max(1) as f64;
    if count == 0 || count == of || (10.0..=90.0).contains(&r) {
        format!("{r:.0}%")
    } else if r < 0.05 {
        "under 0.1%".to_owned()
    } else {
        format!("{r:.1}%")
    }
}

/// The sentence a campaign's report and answer open with: how often the party all live,
/// loses one, two...; how often it is beaten or turns back; where most deaths fall.
pub(crate) fn headline(run: &RunResult, t: &Tally, outline: &Outline) -> String {
    let c = outline.columns;
    let p = outline.party;
    let n = t.trials;
    let who = party(run, outline);
    // The likeliest outcomes, most survivors first: "ends the campaign with everyone alive in
    // 38% [37, 39],
    // loses one in 41% and two in 12%".
    let mut told: Vec<String> = Vec::new();
    let mut covered = 0;
    for alive in (0..=p).rev() {
        let count = t.extra[c.survivors(alive)];
        if count == 0 || told.len() == 3 || covered * 100 >= n * 95 {
            continue;
        }
        covered += count;
        let lost = p - alive;
        // "loses" once, before the first count of the lost: "loses one in 41% and two in 12%".
        let loses_said = told.len() > usize::from(t.extra[c.survivors(p)] > 0);
        let what = match (p, lost, loses_said) {
            (1, 0, _) => "lives".to_owned(),
            (1, _, _) => "dies".to_owned(),
            (_, 0, _) => "ends the campaign with everyone alive".to_owned(),
            (_, l, false) if l == p => "loses every fighter".to_owned(),
            (_, l, false) => format!("loses {}", number(l)),
            (_, l, true) if l == p => "every fighter".to_owned(),
            (_, l, true) => number(l),
        };
        let rate = if told.is_empty() {
            share_within(count, n)
        } else {
            share(count, n)
        };
        told.push(format!("{what} in {rate}"));
    }
    let mut sentence = format!("{} {}", capitalised(&who), joined(&told));
    let beaten = t.wins(Side::B);
    let turned = t.extra[c.turned_back()];
    let mut ends = Vec::new();
    if beaten > 0 {
        ends.push(format!("is beaten in {}", share(beaten, n)));
    }
    if turned > 0 {
        ends.push(format!("turns back in {}", share(turned, n)));
    }
    if !ends.is_empty() {
        sentence.push_str(&format!("; it {}", joined(&ends)));
    }
    sentence.push('.');
    // Where the deaths fall: the encounter (its fight, or the rest after it) with the most.
    let deaths: Vec<(u64, u64)> = (0..outline.encounters.len())
        .map(|e| (t.extra[c.of(e, 3)], t.extra[c.of(e, 5)]))
        .collect();
    let total: u64 = deaths.iter().map(|(f, r)| f + r).sum();
    if total == 0 {
        sentence.push_str(" No one of the party dies.");
        return sentence;
    }
    if let Some((e, &(fight, rest))) = deaths
        .iter()
        .enumerate()
        .max_by_key(|(e, (f, r))| (f + r, std::cmp::Reverse(*e)))
        && outline.encounters.len() > 1
    {
        let place = if rest > fight {
            format!("the rest after {}", encounter_words(outline, e))
        } else {
            encounter_words(outline, e)
        };
        let most = if (fight + rest) * 2 > total {
            "Most deaths come"
        } else {
            "Deaths come most often"
        };
        sentence.push_str(&format!(
            " {most} in {place}: {} of them.",
            share(fight + rest, total)
        ));
    }
    sentence
}

/// "a", "a and b", "a, b and c".
fn joined(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
