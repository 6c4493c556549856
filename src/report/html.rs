//! `report.html`: one self-contained page per run, to read in a browser from disk.
//!
//! The page holds the scenario (its facts, description and file text), the headline table
//! with 95% intervals, every chart as inline SVG (with links to the PNG and SVG files), the
//! parameters in force (each ruleset default and the value this file gives or sweeps), the
//! ruleset's assumptions table as its rules page states them, and the manifest. It loads
//! nothing from the network and runs no script. The page is written with maud's `html!`
//! templates, checked at compile time: every value spliced in is escaped unless it is
//! markup already (a chart's SVG, a cell built by a template, a rules page read by
//! pulldown-cmark).

use super::charts::Rendered;
use super::page::{HtmlTable, figure, page_head};
use super::run::RunResult;
use super::words::{SideWords, Words, mean_words, point_phrase, side_words, signed};
use crate::stats::{ExtraKind, Side, Tally, wilson};
use maud::{DOCTYPE, Markup, PreEscaped, html};

/// The most rows the headline table shows; `summary.csv` has every point.
const MAX_TABLE_ROWS: usize = 500;

/// One row of an assumptions table: each cell as HTML, and the code spans of its first cell
/// (the parameters the row names).
struct AssumptionRow {
    cells: Vec<String>,
    codes: Vec<String>,
}

/// The Markdown tables under every heading that names assumptions (`## Assumptions`,
/// `### Healing assumptions`, ...), each with its heading as HTML, read with pulldown-cmark:
/// escaped pipes, code spans, emphasis and links in a cell come out as Markdown means them.
/// Raw HTML in the page is written as text.
fn assumption_tables(page: &str) -> Vec<(String, Vec<AssumptionRow>)> {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let mut tables: Vec<(String, Vec<AssumptionRow>)> = Vec::new();
    // The heading being read (its events), and the last one if it names assumptions.
    let mut heading: Option<Vec<Event>> = None;
    let mut under: Option<String> = None;
    let mut row: Option<AssumptionRow> = None;
    let mut cell: Option<Vec<Event>> = None;
    let as_html = |events: Vec<Event>| {
        let mut out = String::new();
        pulldown_cmark::html::push_html(&mut out, events.into_iter());
        out.trim().to_owned()
    };
    for event in Parser::new_ext(page, Options::ENABLE_TABLES) {
        // Raw HTML is text here: nothing in a rules page becomes markup by accident.
        let event = match event {
            Event::Html(t) | Event::InlineHtml(t) => Event::Text(t),
            e => e,
        };
        match event {
            Event::Start(Tag::Heading { .. }) => heading = Some(Vec::new()),
            Event::End(TagEnd::Heading(_)) => {
                let events = heading.take().unwrap_or_default();
                let plain: String = events
                    .iter()
                    .filter_map(|e| match e {
                        Event::Text(t) | Event::Code(t) => Some(t.as_ref()),
                        _ => None,
                    })
                    .collect();
                under = plain
                    .to_lowercase()
                    .contains("assumptions")
                    .then(|| as_html(events));
            }
            Event::Start(Tag::TableHead | Tag::TableRow) if under.is_some() => {
                row = Some(AssumptionRow {
                    cells: Vec::new(),
                    codes: Vec::new(),
                });
            }
            Event::End(TagEnd::TableHead | TagEnd::TableRow) => {
                if let (Some(title), Some(done)) = (&under, row.take()) {
                    match tables.last_mut() {
                        Some((t, rows)) if t == title => rows.push(done),
                        _ => tables.push((title.clone(), vec![done])),
                    }
                }
            }
            Event::Start(Tag::TableCell) if row.is_some() => cell = Some(Vec::new()),
            Event::End(TagEnd::TableCell) => {
                if let (Some(events), Some(r)) = (cell.take(), row.as_mut()) {
                    if r.cells.is_empty() {
                        r.codes = events
                            .iter()
                            .filter_map(|e| match e {
                                Event::Code(c) => Some(c.to_string()),
                                _ => None,
                            })
                            .collect();
                    }
                    r.cells.push(as_html(events));
                }
            }
            e => {
                if let Some(events) = cell.as_mut().or(heading.as_mut()) {
                    events.push(e);
                }
            }
        }
    }
    tables
}

/// A rate with its 95% Wilson interval in small type beneath it.
/// How a table's rates are printed: the results plain (one footnote gives the widest
/// interval), the appendix's reference tables each with its 95% interval beneath it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Precision {
    Plain,
    WithInterval,
}

fn pct(successes: u64, n: u64, precision: Precision) -> Markup {
    if n == 0 {
        return html! { "–" };
    }
    let (r, lo, hi) = wilson(successes, n);
    html! {
        (format!("{:.1}%", 100.0 * r))
        @if precision == Precision::WithInterval {
            br;
            small { (format!("{:.1}–{:.1}", 100.0 * lo, 100.0 * hi)) }
        }
    }
}

fn mean(x: Option<f64>, cases: u64) -> Markup {
    html! { (mean_words(x, cases)) }
}

/// Half the widest 95% interval of the rates a results table prints, in percentage points.
fn widest_interval(run: &RunResult) -> f64 {
    let mut widest: f64 = 0.0;
    let mut add = |c: u64, n: u64| {
        if n > 0 {
            let (_, lo, hi) = wilson(c, n);
            widest = widest.max(50.0 * (hi - lo));
        }
    };
    for t in &run.tallies {
        for (c, n) in [
            (t.wins(Side::A), t.trials),
            (t.wins(Side::B), t.trials),
            (t.draws(), t.trials),
            (t.dead[0], t.fighter_trials(0)),
            (t.dead[1], t.fighter_trials(1)),
        ] {
            if c > 0 {
                add(c, n);
            }
        }
        let pooled = t.recovery_pooled();
        for c in [pooled.unhealed, pooled.deaths, pooled.impaired] {
            if c > 0 {
                add(c, pooled.patients);
            }
        }
    }
    widest
}

/// Text as a table cell.
fn text(s: impl AsRef<str>) -> Markup {
    html! { (s.as_ref()) }
}

/// The charts after the answering one, where [`super::findings::place`] puts them: those that
/// belong in the results, the per-point detail (for the appendix), and the sentences that
/// stand for charts that would show nothing.
fn arrange<'c>(
    run: &RunResult,
    charts: Vec<&'c Rendered>,
    drawn: &[&str],
) -> (Vec<&'c Rendered>, Vec<&'c Rendered>, Vec<String>) {
    use super::findings::Place;
    let mut more = Vec::new();
    let mut detail = Vec::new();
    let mut said = Vec::new();
    for c in charts {
        match super::findings::place(run, &c.name, drawn) {
            Place::Results => more.push(c),
            Place::Detail => detail.push(c),
            Place::Said(sentence) => said.push(sentence),
            Place::Left => {}
        }
    }
    (more, detail, said)
}

/// The results of a sweep of two values as a rulebook prints them: side a's wins pivoted (rows
/// the first value, columns the second), and each side's deaths where any die; `None` for
/// any other run.
fn pivot_results(run: &RunResult) -> Option<Markup> {
    let pivots = super::results::pivots(run)?;
    let rates = super::results::rates(run);
    let shown: Vec<(String, super::results::Pivot)> = rates
        .into_iter()
        .zip(pivots)
        .filter(|(r, _)| {
            r.stem == "a_win_rate"
                || (r.stem.ends_with("dead_rate") || r.stem == "recovery_death_rate")
                    && run.tallies.iter().any(|t| (r.count)(t).0 > 0)
        })
        .map(|(r, p)| (r.title, p))
        .collect();
    Some(html! {
        h2 { "Results" }
        p {
            "Percentages of " (Words::of(run).trials())
            " (of a side's fighters for its dead, of wounded survivors for deaths in recovery); each point's 95% interval is under Every point, in the appendix."
        }
        @for (title, pivot) in shown {
            h3 { (title) }
            (HtmlTable {
                head: pivot.head.iter().map(text).collect(),
                rows: pivot.rows.iter().map(|r| r.iter().map(text).collect()).collect(),
                keys: 1,
                key_headers: true,
            }
            .markup())
        }
        (campaign_tables(run, Precision::Plain))
    })
}

/// A chart and, where it has them, its numbers with their intervals (on screen only).
fn chart_block(c: &Rendered) -> Markup {
    html! {
        (figure(c))
        @if let Some((corner, columns, rows)) = &c.table {
            details.cells {
                summary { "The numbers of this chart, with 95% intervals" }
                (HtmlTable {
                    head: std::iter::once(corner).chain(columns).map(text).collect(),
                    rows: rows
                        .iter()
                        .map(|(head, cells)| std::iter::once(head).chain(cells).map(text).collect())
                        .collect(),
                    keys: 1,
                    key_headers: true,
                }
                .markup())
            }
        }
    }
}

/// The whole page.
pub fn render(run: &RunResult, charts: &[Rendered], tables: &[String], manifest: &str) -> String {
    let s = run.scenario;
    let names = s.points[0].model.names();
    let sides = side_words(run);
    let budget = match s.precision {
        Some(p) => format!(
            "each point until both win rates are within ±{} (95%), at most {} trials",
            p.half_width, p.max_trials
        ),
        None => format!("{} per point", s.trials),
    };
    let swept: Vec<String> = (s.points[0].swept.iter())
        .map(|(k, _)| super::words::axis_title(k, names, s.ruleset))
        .collect();
    // The run's facts in one line each way they are read: what varied, how much was run.
    let facts = [
        ("scenario file", s.path.display().to_string()),
        (
            "varied",
            if swept.is_empty() {
                "nothing".to_owned()
            } else {
                format!("{} ({} points)", swept.join(", "), s.points.len())
            },
        ),
        ("trials", budget),
        ("trials run", run.total_trials().to_string()),
        ("seed", s.seed.to_string()),
    ];
    // What the run found, and the chart that answers it first; the others after the tables.
    let findings = super::findings::of(run);
    let answering =
        (findings.answers.iter()).find_map(|name| charts.iter().find(|c| c.name == *name));
    let rest: Vec<&Rendered> = charts
        .iter()
        .filter(|c| answering.is_none_or(|a| !std::ptr::eq(*c, a)))
        .collect();
    let drawn: Vec<&str> = charts.iter().map(|c| c.name.as_str()).collect();
    let (more, detail, said) = arrange(run, rest, &drawn);
    let pivot = pivot_results(run);
    // A search's results are its answer; every value it ran is in the appendix.
    let searched = run.balance.is_some();
    // A search's first note is the headline.
    let other_notes = &run.notes[usize::from(run.balance.is_some()).min(run.notes.len())..];
    // The text it ran (which a merge reads from the shards, not from the path).
    let scenario_text = (!s.sources.text.is_empty()).then_some(s.sources.text.as_str());
    html! {
        (DOCTYPE)
        html lang="en" {
            (page_head(&format!("{} — duelsim report", s.name), ""))
            body {
                h1 { (s.name) }
                @if Words::of(run).recovery {
                    p {
                        "The healing of " strong { (names[0]) } ", a patient under the "
                        code { (s.ruleset) } " rules."
                    }
                } @else {
                    p {
                        strong { (sides[0].name) } " against " strong { (sides[1].name) }
                        " under the " code { (s.ruleset) } " rules."
                    }
                }
                @if let Some(d) = &s.description {
                    p { (d) }
                }
                p.headline { (findings.headline) }
                @if let Some(c) = answering {
                    (chart_block(c))
                }
                @for note in other_notes {
                    p { strong { (note) } }
                }
                @if run.balance.is_some() {
                    p { "Every value was run on the same dice; each value run is a row of Every value run, in the appendix." }
                }
                @if let Some(super::results::BalanceTable { head, rows, keys, note }) = super::results::balance_table(run) {
                    h2 { "Balance at each point" }
                    p {
                        "Each sweep point has a search of its own, on the same dice as every other: its answer is the one a file of that point alone gives."
                        (note)
                    }
                    (HtmlTable {
                        head: head.iter().map(text).collect(),
                        rows: rows.iter().map(|r| r.iter().map(text).collect()).collect(),
                        keys,
                        key_headers: false,
                    }
                    .markup())
                }
                @if !run.complete() {
                    p.over {
                        strong { "Partial run:" } " "
                        (run.tallies.len()) " of " (s.points.len()) " points finished."
                    }
                }
                @if let Some(pivot) = &pivot {
                    (pivot)
                } @else if !searched {
                    (headline(run, &sides, Precision::Plain))
                }
                (differences(run, &sides))
                @if pivot.is_none() && !searched {
                    (recovery_detail(run, Precision::Plain))
                    (fighters_detail(run, Precision::Plain))
                }
                @if !more.is_empty() {
                    h2 { "More charts" }
                }
                @for c in &more {
                    (chart_block(c))
                }
                @for sentence in &said {
                    p { (sentence) }
                }
                // What follows is reference, printed as an appendix from a new page.
                div.appendix {
                    @if pivot.is_some() || searched {
                        h2 { (if searched { "Every value run" } else { "Every point" }) }
                        (headline(run, &sides, Precision::WithInterval))
                        (recovery_detail(run, Precision::WithInterval))
                        (fighters_detail(run, Precision::WithInterval))
                    }
                    @if !detail.is_empty() {
                        h2 { "Detail at each point" }
                        p { "How each point's fights run and heal: the distributions behind the results above." }
                        @for c in &detail {
                            (chart_block(c))
                        }
                    }
                    h2 { "How this was run" }
                    p.facts {
                        @for (i, (k, v)) in facts.iter().enumerate() {
                            @if i > 0 { " · " }
                            strong { (k) } " " (v)
                        }
                    }
                    @if !tables.is_empty() {
                        h2 { "Tables for the rulebook" }
                        p { "The headline results as Markdown tables to paste into a rulebook (and as CSV with their 95% intervals):" }
                        ul {
                            @for name in tables {
                                li { a href=(name) { (name) } }
                            }
                        }
                    }
                    (parameters(run, scenario_text))
                    h2 { "Manifest" }
                    pre { (manifest) }
                    @if let Some(text) = scenario_text {
                        h2 { "Scenario file" }
                        pre { (text) }
                    }
                }
                p {
                    small {
                        "Written by duelsim " (env!("CARGO_PKG_VERSION"))
                        ". Every number here is in summary.csv and distributions.csv beside this page."
                    }
                }
            }
        }
    }
    .into_string()
}

fn headline(run: &RunResult, sides: &[SideWords; 2], precision: Precision) -> Markup {
    let s = run.scenario;
    let shown = Columns::of(run);
    let words = Words::of(run);
    let shown_points = s.points.len().min(run.tallies.len()).min(MAX_TABLE_ROWS);
    let rows = |cells: &dyn Fn(&Tally) -> Vec<Markup>| -> Vec<Vec<Markup>> {
        (s.points.iter().zip(&run.tallies))
            .take(shown_points)
            .map(|(p, t)| {
                let mut row = point_cells(p, s.ruleset);
                row.extend(cells(t));
                row
            })
            .collect()
    };
    let keys = point_header(s).len();
    let duel = shown.duel.then(|| {
        // The duel's rates, less any that is zero at every point (no draws, nobody dies).
        type Count = fn(&Tally) -> (u64, u64);
        let columns: Vec<(String, Count)> = [
            (sides[0].wins(), (|t| (t.wins(Side::A), t.trials)) as Count),
            (sides[1].wins(), |t| (t.wins(Side::B), t.trials)),
            (
                if words.campaign {
                    "turns back or last fight drawn".to_owned()
                } else {
                    "draws".to_owned()
                },
                |t| (t.draws(), t.trials),
            ),
            (sides[0].dies(), |t| (t.dead[0], t.fighter_trials(0))),
            (sides[1].dies(), |t| (t.dead[1], t.fighter_trials(1))),
        ]
        .into_iter()
        .filter(|(_, count)| run.tallies.iter().any(|t| count(t).0 > 0))
        .collect();
        let mut head = point_header(s);
        head.extend(columns.iter().map(|(title, _)| text(title)));
        head.push(text("rounds (mean)"));
        HtmlTable {
            head,
            rows: rows(&|t: &Tally| {
                let mut cells: Vec<Markup> = (columns.iter())
                    .map(|(_, count)| {
                        let (c, n) = count(t);
                        pct(c, n, precision)
                    })
                    .collect();
                cells.push(mean(t.rounds.mean(), t.rounds.count()));
                cells
            }),
            keys,
            key_headers: false,
        }
    });
    let mut head = point_header(s);
    head.push(text(words.patients()));
    head.extend(
        [
            "days to whole (mean)",
            "days to whole (median)",
            "days to whole (90%)",
            "unhealed at the horizon",
        ]
        .map(text),
    );
    if shown.recovery_deaths {
        head.push(text("die in recovery"));
    }
    if shown.impairment {
        head.push(text("lasting impairment"));
    }
    let healing = HtmlTable {
        head,
        rows: rows(&|t: &Tally| healing_cells(t, shown, precision)),
        keys,
        key_headers: false,
    };
    html! {
        h2 { "Results" }
        p {
            "Each rate is a percentage of "
            (if shown.duel {
                format!("{} (of wounded survivors, for their healing; of a side's fighters, for its dead)", words.trials())
            } else {
                "patients".to_owned()
            })
            (match precision {
                Precision::WithInterval => ", with its 95% Wilson interval (low–high) in small type beneath it.".to_owned(),
                Precision::Plain => format!(
                    "; each is within ±{:.1} points of the true rate (95% Wilson interval), and each point's own interval is in the appendix.",
                    widest_interval(run)
                ),
            })
        }
        @if let Some(duel) = duel {
            h3 {
                (if words.campaign {
                    "How the campaign ends"
                } else if words.skirmish {
                    "The fight"
                } else {
                    "The duel"
                })
            }
            (duel.markup())
        }
        (campaign_tables(run, precision))
        h3 { (if shown.duel { "Wounded survivors" } else { "Patients" }) }
        (healing.markup())
        @if run.tallies.len() > MAX_TABLE_ROWS {
            p {
                "The first " (MAX_TABLE_ROWS) " of " (run.tallies.len())
                " points are shown; the CSV tables beside this page have them all."
            }
        }
    }
}

/// A campaign's own results: how many of the party survive, at every point; and, for one point,
/// encounter by encounter, who reaches it, stands at its start and end, dies or is beaten there.
/// Nothing for a fight.
fn campaign_tables(run: &RunResult, precision: Precision) -> Markup {
    let s = run.scenario;
    let Some(outline) = s.points.first().and_then(|p| p.model.campaign()) else {
        return html! {};
    };
    let (c, party) = (outline.columns, outline.party);
    let shown = s.points.len().min(run.tallies.len()).min(MAX_TABLE_ROWS);
    let mut head = point_header(s);
    let keys = head.len();
    head.extend((0..=party).rev().map(|alive| {
        text(match party - alive {
            0 => "all alive".to_owned(),
            lost if lost == party => "none alive".to_owned(),
            lost => format!("{} lost", super::campaign::number(lost)),
        })
    }));
    let survivors = HtmlTable {
        head,
        rows: (s.points.iter().zip(&run.tallies))
            .take(shown)
            .map(|(p, t)| {
                let mut row = point_cells(p, s.ruleset);
                row.extend(
                    (0..=party)
                        .rev()
                        .map(|alive| pct(t.extra[c.survivors(alive)], t.trials, precision)),
                );
                row
            })
            .collect(),
        keys,
        key_headers: false,
    };
    let one = (run.tallies.len() == 1).then(|| &run.tallies[0]);
    let encounters = one.map(|t| {
        let head = [
            "encounter",
            "reached",
            "standing at its start (mean)",
            "standing at its end (mean)",
            "a death in the party",
            "the party beaten",
            "deaths in the rest after (mean)",
        ]
        .map(text)
        .to_vec();
        let of = |e: usize, k: usize| t.extra[c.of(e, k)];
        let per_reached = |e: usize, k: usize| {
            let reached = of(e, 0);
            mean(
                (reached > 0).then(|| of(e, k) as f64 / reached as f64),
                reached,
            )
        };
        let rows = (outline.encounters.iter().enumerate())
            .map(|(e, (name, rest))| {
                let rest_cell = if e + 1 == outline.encounters.len() {
                    text("(the last)")
                } else if *rest == 0 {
                    text("(no rest)")
                } else {
                    per_reached(e, 5)
                };
                vec![
                    text(format!("{}. {name}", e + 1)),
                    pct(of(e, 0), t.trials, precision),
                    per_reached(e, 1),
                    per_reached(e, 2),
                    pct(of(e, 4), t.trials, precision),
                    pct(of(e, 6), t.trials, precision),
                    rest_cell,
                ]
            })
            .collect();
        HtmlTable {
            head,
            rows,
            keys: 1,
            key_headers: false,
        }
    });
    html! {
        h3 { "How many of the party live" }
        p {
            "The share of campaigns that end with all of the party alive, one lost, and so on: a death in a fight, in a rest, or in the healing after the last encounter."
        }
        (survivors.markup())
        @if let Some(table) = encounters {
            h3 { "Encounter by encounter" }
            p {
                "Reached, a death and beaten are shares of every campaign; the party standing and the deaths in a rest are means over the campaigns that reach the encounter."
            }
            (table.markup())
        }
    }
}

/// Each fighter of a fight of sides of several, by name (fighters.csv in words): how often it
/// is out of the fight, dies, is wounded, and how its wounds heal. Nothing for duels.
fn fighters_detail(run: &RunResult, precision: Precision) -> Markup {
    let s = run.scenario;
    let words = Words::of(run);
    let Some(fighters) = super::results::fighters(run) else {
        return html! {};
    };
    let mut head = point_header(s);
    let keys = head.len() + 1;
    head.push(text("fighter"));
    head.extend(fighters.head.iter().map(text));
    let rows = (fighters.rows.iter())
        .take(MAX_TABLE_ROWS)
        .map(|(k, name, cells)| {
            let mut row = point_cells(&s.points[*k], s.ruleset);
            row.push(text(name));
            row.extend(cells.iter().map(|&cell| match cell {
                super::results::Cell::Rate(c, n) => pct(c, n, precision),
                super::results::Cell::Mean(v, cases) => mean(v, cases),
            }));
            row
        })
        .collect();
    let table = HtmlTable {
        head,
        rows,
        keys,
        key_headers: false,
    };
    html! {
        h3 { "Each fighter" }
        p {
            "Each fighter by name, as a share of " (words.trials())
            " (out of the fight, dies, wounded survivor) and of its wounded survivals (unhealed, dies in recovery, impairment)"
            (if precision == Precision::WithInterval { ", with 95% intervals." } else { "." })
        }
        (table.markup())
    }
}

/// How the wounded survivors fare, where the ruleset counts more than deaths: the unhealed and
/// each of its shares of patients (deaths by cause, infection, coma...), with intervals.
fn recovery_detail(run: &RunResult, precision: Precision) -> Markup {
    let s = run.scenario;
    let Some(first) = run.tallies.first() else {
        return html! {};
    };
    let shares: Vec<usize> = (first.extras.iter().enumerate())
        .filter(|(_, e)| e.kind == ExtraKind::ShareOfPatients)
        .map(|(i, _)| i)
        .collect();
    if shares.is_empty() {
        return html! {};
    }
    let words = Words::of(run);
    let mut head = point_header(s);
    let keys = head.len();
    head.push(text(words.patients()));
    head.push(text("unhealed"));
    for &i in &shares {
        head.push(text(first.extras[i].name.replace('_', " ")));
    }
    let rows = (s.points.iter().zip(&run.tallies))
        .take(MAX_TABLE_ROWS)
        .map(|(p, t)| {
            let pooled = t.recovery_pooled();
            let mut row = point_cells(p, s.ruleset);
            row.push(text(pooled.patients.to_string()));
            row.push(pct(pooled.unhealed, pooled.patients, precision));
            row.extend((shares.iter()).map(|&i| pct(t.extra[i], pooled.patients, precision)));
            row
        })
        .collect();
    html! {
        h3 { (if words.recovery { "Patients" } else { "Wounded survivors" }) " in detail" }
        p {
            "Percentages of " (words.patients())
            ", with their 95% Wilson intervals: alive but not whole at the horizon, and the ruleset's own counts (see its rules page)."
        }
        (HtmlTable { head, rows, keys, key_headers: false }.markup())
    }
}

/// A results table's first header cells: the point and each swept path, in words.
fn point_header(s: &crate::rules::registry::Scenario) -> Vec<Markup> {
    let names = s.points[0].model.names();
    (s.points[0].swept.iter())
        .map(|(k, _)| text(super::words::axis_title(k, names, s.ruleset)))
        .collect()
}

/// A results row's first cells: the point's swept values in words (a `[weights]` path too).
fn point_cells(p: &crate::rules::registry::Point, ruleset: &str) -> Vec<Markup> {
    let names = p.model.names();
    p.swept
        .iter()
        .map(|(k, v)| text(super::words::value_words(k, v, names, ruleset)))
        .collect()
}

/// Which of the results table's columns mean something here: the duel's (not for a recovery
/// scenario), deaths in recovery and lasting impairment (only where the ruleset's text has
/// them; elsewhere they would always read 0.0%).
#[derive(Clone, Copy, Debug)]
struct Columns {
    duel: bool,
    recovery_deaths: bool,
    impairment: bool,
}

impl Columns {
    fn of(run: &RunResult) -> Columns {
        let info = crate::rules::registry::info(run.scenario.ruleset);
        Columns {
            duel: !Words::of(run).recovery,
            recovery_deaths: info.is_none_or(|i| i.recovery_deaths),
            impairment: info.is_none_or(|i| i.impairment),
        }
    }
}

/// The healing columns of a results row.
fn healing_cells(t: &Tally, shown: Columns, precision: Precision) -> Vec<Markup> {
    let pooled = t.recovery_pooled();
    let day = |q: f64| {
        text(
            pooled
                .days_to_whole
                .quantile(q)
                .map_or_else(String::new, |d| d.to_string()),
        )
    };
    let mut cells = vec![
        text(pooled.patients.to_string()),
        mean(pooled.days_to_whole.mean(), pooled.days_to_whole.count()),
        day(0.5),
        day(0.9),
        pct(pooled.unhealed, pooled.patients, precision),
    ];
    if shown.recovery_deaths {
        cells.push(pct(pooled.deaths, pooled.patients, precision));
    }
    if shown.impairment {
        cells.push(pct(pooled.impaired, pooled.patients, precision));
    }
    cells
}

/// The parameters in force and the assumptions tables; `text` is the scenario file's text.
fn parameters(run: &RunResult, scenario_text: Option<&str>) -> Markup {
    let s = run.scenario;
    let written: toml::Table = scenario_text
        .and_then(|t| toml::from_str(t).ok())
        .unwrap_or_default();
    let swept = s.swept_values();
    let section = |name: &str| -> Option<&toml::Table> {
        written
            .get(name)
            .or_else(|| {
                (name == "healing")
                    .then(|| written.get("aftermath"))
                    .flatten()
            })
            .and_then(toml::Value::as_table)
    };
    // Each parameter: its path, default, the value in force and whether it differs.
    let in_force: Vec<(String, &crate::scenario::schema::Parameter, String, bool)> =
        crate::rules::registry::parameters(s.ruleset)
            .unwrap_or(&[])
            .iter()
            .filter(|p| matches!(p.section, "rules" | "healing"))
            .map(|p| {
                let path = format!("{}.{}", p.section, p.key);
                let value = if let Some((_, values)) = swept.iter().find(|(k, _)| *k == path) {
                    Some(format!("swept: {}", values.join(", ")))
                } else {
                    section(p.section)
                        .and_then(|t| t.get(p.key))
                        .map(|v| v.to_string())
                };
                let changed = value.as_deref().is_some_and(|v| v != p.default);
                let value = value.unwrap_or_else(|| p.default.to_owned());
                (path, p, value, changed)
            })
            .collect();
    // The ruleset's page, built into the binary by the registry, for its assumptions tables.
    let tables = crate::rules::registry::info(s.ruleset)
        .map(|r| assumption_tables(r.rules_page))
        .unwrap_or_default();
    let names_set = |row: &AssumptionRow| {
        row.codes.iter().any(|code| {
            let (section_name, key) = code.split_once('.').unwrap_or(("", code));
            section(section_name).is_some_and(|t| t.contains_key(key))
                || swept.iter().any(|(k, _)| k == code)
        })
    };
    html! {
        h2 { "Rules in force" }
        p {
            "Every " code { "[rules]" } " and " code { "[healing]" } " parameter of "
            code { (s.ruleset) }
            ": its default and what this scenario sets (highlighted when it differs from the default)."
        }
        table {
            tr { th { "parameter" } th { "default" } th { "in this scenario" } th { "meaning" } }
            @for (path, p, value, changed) in &in_force {
                tr class=[changed.then_some("over")] {
                    td { code { (path) } }
                    td { code { (p.default) } }
                    td { code { (value) } }
                    td { (p.doc) }
                }
            }
        }
        @if !tables.is_empty() {
            h2 { "Assumptions" }
            p {
                "Where the rule text is silent or unclear, duelsim reads it as below (from "
                code { "docs/rules/" (s.ruleset) ".md" }
                "); highlighted rows name a parameter this scenario sets."
            }
            @for (title, rows) in &tables {
                // Headings and cells are HTML from pulldown-cmark, its raw HTML made text.
                h3 { (PreEscaped(title)) }
                table {
                    @for (i, row) in rows.iter().enumerate() {
                        tr class=[(i > 0 && names_set(row)).then_some("over")] {
                            @for c in &row.cells {
                                @if i == 0 { th { (PreEscaped(c)) } } @else { td { (PreEscaped(c)) } }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Points compared with a baseline on the same dice: each difference said in words, then a
/// table of the differences with their 95% intervals.
fn differences(run: &RunResult, sides: &[SideWords; 2]) -> Markup {
    let words = Words::of(run);
    let Some(table) = super::results::differences(run) else {
        return html! {};
    };
    let base = table.base;
    let points = |x: f64| format!("{:.1}", x.abs());
    // Each change in a sentence, in the table's order (largest difference first).
    let said: Vec<(String, String, f64, f64)> = (table.rows.iter())
        .filter_map(|(_, what, cells)| {
            let (d, lo, hi) = cells.first().copied().flatten()?;
            let how = if lo > 0.0 {
                format!("{} {} points more often", sides[0].wins(), points(d))
            } else if hi < 0.0 {
                format!("{} {} points less often", sides[0].wins(), points(d))
            } else {
                format!(
                    "no clear difference in how often {} ({} points)",
                    sides[0].wins(),
                    signed(d, 1)
                )
            };
            Some((what.clone(), how, lo, hi))
        })
        .collect();
    let rows = (table.rows.iter())
        .map(|(_, what, cells)| {
            let mut row = vec![text(what)];
            row.extend(cells.iter().map(|cell| match cell {
                Some((d, lo, hi)) => html! {
                    (signed(*d, 2))
                    br;
                    small { (signed(*lo, 2)) " to " (signed(*hi, 2)) }
                },
                None => text("baseline"),
            }));
            row
        })
        .collect();
    let table = HtmlTable {
        head: table.head.iter().map(text).collect(),
        rows,
        keys: 1,
        key_headers: false,
    };
    let base_words = point_phrase(run, base);
    html! {
        h2 { "Differences from the baseline" }
        p {
            "Every point's trials were also run on the baseline (" (base_words)
            ") with the same dice; these are the differences, point minus baseline, with their 95% intervals from the trial-by-trial differences."
        }
        ul {
            @for (words, how, lo, hi) in &said {
                li {
                    (words) " instead of " (base_words) ": " (how) " "
                    "[" (signed(*lo, 1)) ", " (signed(*hi, 1)) "]"
                }
            }
        }
        (table.markup())
        p { "Win and draw differences are in percentage points; rounds and deaths in recovery are per " (words.trial()) "; each with its 95% interval beneath it." }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rules_page_has_an_assumptions_table() {
        for r in crate::rules::registry::RULESETS {
            let page = r.rules_page;
            let tables = assumption_tables(page);
            let rows: usize = tables.iter().map(|(_, rows)| rows.len()).sum();
            assert!(rows > 8, "{}: {rows} rows", r.id);
            for (title, rows) in &tables {
                assert!(
                    rows.iter()
                        .all(|row| row.cells.len() == rows[0].cells.len()),
                    "{}: {title}",
                    r.id
                );
            }
        }
    }

    #[test]
    fn a_difference_that_rounds_to_nothing_is_plus_zero() {
        assert_eq!(signed(-0.00001, 2), "+0.00");
        assert_eq!(signed(-0.004, 1), "+0.0");
        assert_eq!(signed(-0.006, 2), "-0.01");
        assert_eq!(signed(17.95, 2), "+17.95");
        assert_eq!(signed(0.0, 1), "+0.0");
    }

    #[test]
    fn text_is_escaped_and_code_marked() {
        assert_eq!(
            text("<a & \"b\">").into_string(),
            "&lt;a &amp; &quot;b&quot;&gt;"
        );
        let page = "# Rules\n\n| not | this |\n|---|---|\n| x | y |\n\n## Assumptions: `combat`\n\n\
            | Reading | The sentence |\n|---|---|\n\
            | `rules.x` (<5) is **read** as `a \\| b` | \"<script>x</script>\" |\n";
        let tables = assumption_tables(page);
        assert_eq!(
            tables.len(),
            1,
            "only the table under an assumptions heading"
        );
        let (title, rows) = &tables[0];
        assert_eq!(title, "Assumptions: <code>combat</code>");
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].cells, ["Reading", "The sentence"]);
        // An escaped pipe stays in its cell; code, emphasis and raw HTML come out safe.
        assert_eq!(
            rows[1].cells,
            [
                "<code>rules.x</code> (&lt;5) is <strong>read</strong> as <code>a | b</code>",
                "\"&lt;script&gt;x&lt;/script&gt;\""
            ]
        );
        assert_eq!(rows[1].codes, ["rules.x", "a | b"]);
    }
}
