//! `report.html`: one self-contained page per run, to read in a browser from disk.
//!
//! The page holds the scenario (its facts, description and file text), the headline table
//! with 95% intervals, every chart as inline SVG (with links to the PNG and SVG files), the
//! parameters in force (each ruleset default and the value this file gives or sweeps), the
//! ruleset's assumptions table as its rules page states them, and the manifest. It loads
//! nothing from the network and runs no script.

use super::RunResult;
use super::charts::Rendered;
use crate::stats::{ExtraKind, Side, Tally, wilson};
use std::fmt::Write as _;

/// The most rows the headline table shows; `summary.csv` has every point.
const MAX_TABLE_ROWS: usize = 500;

/// Escapes text for HTML.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The Markdown tables under every heading that names assumptions (`## Assumptions`,
/// `### Healing assumptions`, ...), each with its heading.
fn assumption_tables(page: &str) -> Vec<(String, Vec<Vec<String>>)> {
    let mut tables: Vec<(String, Vec<Vec<String>>)> = Vec::new();
    let mut heading: Option<String> = None;
    for line in page.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            let title = line.trim_start_matches('#').trim();
            heading = title
                .to_lowercase()
                .contains("assumptions")
                .then(|| title.to_owned());
            continue;
        }
        let Some(title) = &heading else { continue };
        if !line.starts_with('|') {
            continue;
        }
        let cells: Vec<String> = line
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_owned())
            .collect();
        if cells
            .iter()
            .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
        {
            continue;
        }
        match tables.last_mut() {
            Some((t, rows)) if t == title => rows.push(cells),
            _ => tables.push((title.clone(), vec![cells])),
        }
    }
    tables
}

/// Markdown inline code (`x`) as `<code>`, everything else escaped.
fn inline_markdown(s: &str) -> String {
    let mut out = String::new();
    for (i, part) in s.split('`').enumerate() {
        if i % 2 == 1 {
            let _ = write!(out, "<code>{}</code>", escape(part));
        } else {
            out.push_str(&escape(part));
        }
    }
    out
}

fn pct(successes: u64, n: u64) -> String {
    if n == 0 {
        return "–".into();
    }
    let (r, lo, hi) = wilson(successes, n);
    format!(
        "{:.1}%<br><small>{:.1}–{:.1}</small>",
        100.0 * r,
        100.0 * lo,
        100.0 * hi
    )
}

fn mean(x: Option<f64>) -> String {
    x.map_or_else(|| "–".into(), |v| format!("{v:.1}"))
}

pub(crate) const STYLE: &str = "
body { font-family: 'DejaVu Sans', Verdana, sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; color: #222; line-height: 1.45; }
h1 { margin-bottom: 0.2rem; } h2 { margin-top: 2.2rem; border-bottom: 1px solid #ccc; padding-bottom: 0.2rem; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.85rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.5rem; vertical-align: top; text-align: left; }
th { background: #f2f2f2; }
td.n { text-align: right; white-space: nowrap; }
small { color: #666; }
.scroll { overflow-x: auto; }
figure { margin: 1.5rem 0; } figure svg { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.9rem; color: #444; max-width: 60rem; }
pre { background: #f7f7f7; padding: 0.8rem; overflow-x: auto; font-size: 0.8rem; }
code { background: #f3f3f3; padding: 0 0.2rem; }
.over { background: #fff4d6; }
details.cells { margin: -0.8rem 0 1.5rem; font-size: 0.9rem; }
@media print {
  @page { size: A4; margin: 14mm 12mm; }
  body { max-width: none; margin: 0; padding: 0; font-size: 9pt; }
  .scroll { overflow: visible; }
  table { font-size: 6.5pt; max-width: 100%; }
  th, td { padding: 0.05rem 0.15rem; }
  th { font-weight: 600; }
  td.n { white-space: nowrap; }
  td.n small { font-size: 5.5pt; }
  tr, figure, pre { break-inside: avoid; page-break-inside: avoid; }
  figure svg { max-height: 230mm; width: auto; }
  h1, h2, h3 { break-after: avoid; page-break-after: avoid; break-inside: avoid; }
  /* A heading reserves room for what follows: at the foot of a page it moves to the next. */
  h2::after, h3::after { content: \"\"; display: block; height: 60mm; margin-bottom: -60mm; }
  details.cells, figcaption .links { display: none; }
}
";

/// A chart as a figure: its SVG inline, its caption, links to its files.
pub(crate) fn figure(h: &mut String, c: &Rendered) {
    let svg = c
        .svg
        .trim_start_matches(|ch: char| ch != '<')
        .trim_start_matches("<?xml version=\"1.0\" encoding=\"UTF-8\"?>")
        .trim();
    let _ = writeln!(
        h,
        "<figure id=\"{name}\" aria-label=\"{title}\">\n{svg}\n<figcaption>{caption} <span class=\"links\"><a href=\"charts/{name}.svg\">SVG</a> · <a href=\"charts/{name}.png\">PNG</a></span></figcaption>\n</figure>",
        name = escape(&c.name),
        title = escape(&c.title),
        caption = escape(&c.caption),
    );
}

/// The whole page.
pub fn render(run: &RunResult, charts: &[Rendered], manifest: &str) -> String {
    let s = run.scenario;
    let names = s.points[0].model.names();
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{} — duelsim report</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        escape(&s.name)
    );
    let _ = writeln!(h, "<h1>{}</h1>", escape(&s.name));
    let _ = writeln!(
        h,
        "<p><strong>{}</strong> against <strong>{}</strong> under the <code>{}</code> rules.</p>",
        escape(names[0]),
        escape(names[1]),
        escape(s.ruleset)
    );
    if let Some(d) = &s.description {
        let _ = writeln!(h, "<p>{}</p>", escape(d));
    }
    for note in &run.notes {
        let _ = writeln!(
            h,
            "<h2>Balance</h2>\n<p><strong>{}</strong></p>\n<p>Every value was run on the same dice; each evaluation is a row below (and in balance.csv).</p>",
            escape(note)
        );
    }
    if !run.complete() {
        let _ = writeln!(
            h,
            "<p class=\"over\"><strong>Partial run:</strong> {} of {} points finished.</p>",
            run.tallies.len(),
            s.points.len()
        );
    }
    let budget = match s.precision {
        Some(p) => format!(
            "each point until both win rates are within ±{} (95%), at most {} trials",
            p.half_width, p.max_trials
        ),
        None => format!("{} per point", s.trials),
    };
    let swept: Vec<&str> = s.points[0].swept.iter().map(|(k, _)| k.as_str()).collect();
    let _ = writeln!(h, "<table>");
    for (k, v) in [
        ("scenario file", s.path.display().to_string()),
        ("ruleset", s.ruleset.to_owned()),
        ("points", s.points.len().to_string()),
        (
            "swept",
            if swept.is_empty() {
                "nothing".to_owned()
            } else {
                swept.join(", ")
            },
        ),
        ("trials", budget),
        ("trials run", run.total_trials().to_string()),
        ("seed", s.seed.to_string()),
    ] {
        let _ = writeln!(h, "<tr><th>{k}</th><td>{}</td></tr>", escape(&v));
    }
    let _ = writeln!(h, "</table>");

    headline(&mut h, run, names);
    differences(&mut h, run, names);
    recovery_detail(&mut h, run);

    let _ = writeln!(h, "<h2>Charts</h2>");
    if charts.is_empty() {
        let _ = writeln!(h, "<p>This run calls for no charts.</p>");
    }
    for c in charts {
        figure(&mut h, c);
        if let Some((corner, columns, rows)) = &c.table {
            let _ = write!(
                h,
                "<details class=\"cells\"><summary>The numbers of this chart, with 95% intervals</summary>\n<div class=\"scroll\"><table>\n<tr><th>{}</th>",
                escape(corner)
            );
            for column in columns {
                let _ = write!(h, "<th>{}</th>", escape(column));
            }
            let _ = writeln!(h, "</tr>");
            for (head, cells) in rows {
                let _ = write!(h, "<tr><th>{}</th>", escape(head));
                for cell in cells {
                    let _ = write!(h, "<td class=\"n\">{}</td>", escape(cell));
                }
                let _ = writeln!(h, "</tr>");
            }
            let _ = writeln!(h, "</table></div></details>");
        }
    }

    // The text it ran (which a merge reads from the shards, not from the path).
    let text = (!s.sources.text.is_empty()).then_some(s.sources.text.as_str());
    parameters(&mut h, run, text);

    let _ = writeln!(h, "<h2>Manifest</h2>\n<pre>{}</pre>", escape(manifest));
    if let Some(text) = &text {
        let _ = writeln!(h, "<h2>Scenario file</h2>\n<pre>{}</pre>", escape(text));
    }
    let _ = writeln!(
        h,
        "<p><small>Written by duelsim {}. Every number here is in summary.csv and distributions.csv beside this page.</small></p>\n</body>\n</html>",
        env!("CARGO_PKG_VERSION")
    );
    h
}

fn headline(h: &mut String, run: &RunResult, names: [&str; 2]) {
    let s = run.scenario;
    let _ = writeln!(
        h,
        "<h2>Results</h2>\n<p>Rates are shares of duels (or of wounded survivors, for recovery) with their 95% Wilson intervals in brackets.</p>\n<div class=\"scroll\"><table>"
    );
    point_header(h, s);
    let shown = Columns::of(run);
    let _ = write!(h, "<th>trials</th>");
    if shown.duel {
        let _ = write!(
            h,
            "<th>{a} wins</th><th>{b} wins</th><th>draws</th><th>{a} dead</th><th>{b} dead</th><th>rounds (mean)</th>",
            a = escape(names[0]),
            b = escape(names[1])
        );
    }
    let _ = write!(
        h,
        "<th>wounded survivors</th><th>days to whole (mean)</th><th>days to whole (median)</th><th>days to whole (90%)</th><th>unhealed at the horizon</th>"
    );
    if shown.recovery_deaths {
        let _ = write!(h, "<th>die in recovery</th>");
    }
    if shown.impairment {
        let _ = write!(h, "<th>lasting impairment</th>");
    }
    let _ = writeln!(h, "</tr>");
    for (i, (p, t)) in s
        .points
        .iter()
        .zip(&run.tallies)
        .enumerate()
        .take(MAX_TABLE_ROWS)
    {
        point_cells(h, i, p, run.scenario.ruleset);
        row(h, t, shown);
    }
    let _ = writeln!(h, "</table></div>");
    if run.tallies.len() > MAX_TABLE_ROWS {
        let _ = writeln!(
            h,
            "<p>The first {MAX_TABLE_ROWS} of {} points are shown; summary.csv has them all.</p>",
            run.tallies.len()
        );
    }
}

/// How the wounded survivors fare, where the ruleset counts more than deaths: the unhealed and
/// each of its shares of patients (deaths by cause, infection, coma...), with intervals.
fn recovery_detail(h: &mut String, run: &RunResult) {
    let s = run.scenario;
    let Some(first) = run.tallies.first() else {
        return;
    };
    let shares: Vec<usize> = (first.extras.iter().enumerate())
        .filter(|(_, e)| e.kind == ExtraKind::ShareOfPatients)
        .map(|(i, _)| i)
        .collect();
    if shares.is_empty() {
        return;
    }
    let _ = writeln!(
        h,
        "<h3>Wounded survivors in detail</h3>\n<p>Shares of wounded survivors, with their 95% Wilson intervals: alive but not whole at the horizon, and the ruleset's own counts (see its rules page).</p>\n<div class=\"scroll\"><table>"
    );
    point_header(h, s);
    let _ = write!(h, "<th>wounded survivors</th><th>unhealed</th>");
    for &i in &shares {
        let _ = write!(
            h,
            "<th>{}</th>",
            escape(&first.extras[i].name.replace('_', " "))
        );
    }
    let _ = writeln!(h, "</tr>");
    for (n, (p, t)) in s
        .points
        .iter()
        .zip(&run.tallies)
        .enumerate()
        .take(MAX_TABLE_ROWS)
    {
        let pooled = t.recovery_pooled();
        point_cells(h, n, p, run.scenario.ruleset);
        let _ = write!(
            h,
            "<td class=\"n\">{}</td><td class=\"n\">{}</td>",
            pooled.patients,
            pct(pooled.unhealed, pooled.patients)
        );
        for &i in &shares {
            let _ = write!(
                h,
                "<td class=\"n\">{}</td>",
                pct(t.extra[i], pooled.patients)
            );
        }
        let _ = writeln!(h, "</tr>");
    }
    let _ = writeln!(h, "</table></div>");
}

/// A results table's first header cells: the point and each swept path, in words with the
/// path as the file writes it under them.
fn point_header(h: &mut String, s: &crate::rules::registry::Scenario) {
    let _ = write!(h, "<tr><th>point</th>");
    let names = s.points[0].model.names();
    for (k, _) in &s.points[0].swept {
        let words = super::charts::axis_title(k, names, s.ruleset);
        if words == *k {
            let _ = write!(h, "<th>{}</th>", escape(k));
        } else {
            let _ = write!(
                h,
                "<th>{}<br><small><code>{}</code></small></th>",
                escape(&words),
                escape(k)
            );
        }
    }
}

/// A results row's first cells: the point's number and its swept values (a `[weights]` path in
/// words).
fn point_cells(h: &mut String, i: usize, p: &crate::rules::registry::Point, ruleset: &str) {
    let _ = write!(h, "<tr><td class=\"n\">{i}</td>");
    let names = p.model.names();
    for (k, v) in &p.swept {
        let shown = super::charts::value_words(k, v, names, ruleset);
        let _ = write!(h, "<td>{}</td>", escape(&shown));
    }
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
            duel: !run
                .scenario
                .points
                .first()
                .is_some_and(|p| p.model.is_recovery()),
            recovery_deaths: info.is_none_or(|i| i.recovery_deaths),
            impairment: info.is_none_or(|i| i.impairment),
        }
    }
}

fn row(h: &mut String, t: &Tally, shown: Columns) {
    let pooled = t.recovery_pooled();
    let mut cells = vec![t.trials.to_string()];
    if shown.duel {
        cells.extend([
            pct(t.wins(Side::A), t.trials),
            pct(t.wins(Side::B), t.trials),
            pct(t.draws(), t.trials),
            pct(t.dead[0], t.trials),
            pct(t.dead[1], t.trials),
            mean(t.rounds.mean()),
        ]);
    }
    cells.extend([
        pooled.patients.to_string(),
        mean(pooled.days_to_whole.mean()),
        pooled
            .days_to_whole
            .quantile(0.5)
            .map_or_else(String::new, |d| d.to_string()),
        pooled
            .days_to_whole
            .quantile(0.9)
            .map_or_else(String::new, |d| d.to_string()),
        pct(pooled.unhealed, pooled.patients),
    ]);
    if shown.recovery_deaths {
        cells.push(pct(pooled.deaths, pooled.patients));
    }
    if shown.impairment {
        cells.push(pct(pooled.impaired, pooled.patients));
    }
    for c in cells {
        let _ = write!(h, "<td class=\"n\">{c}</td>");
    }
    let _ = writeln!(h, "</tr>");
}

/// The parameters in force and the assumptions tables; `text` is the scenario file's text.
fn parameters(h: &mut String, run: &RunResult, text: Option<&str>) {
    let s = run.scenario;
    let written: toml::Table = text
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
    let _ = writeln!(
        h,
        "<h2>Rules in force</h2>\n<p>Every <code>[rules]</code> and <code>[healing]</code> parameter of <code>{}</code>: its default and what this scenario sets (highlighted when it differs from the default).</p>\n<div class=\"scroll\"><table>\n<tr><th>parameter</th><th>default</th><th>in this scenario</th><th>meaning</th></tr>",
        escape(s.ruleset)
    );
    for p in crate::rules::registry::parameters(s.ruleset)
        .unwrap_or(&[])
        .iter()
        .filter(|p| matches!(p.section, "rules" | "healing"))
    {
        let path = format!("{}.{}", p.section, p.key);
        let in_force = if let Some((_, values)) = swept.iter().find(|(k, _)| *k == path) {
            Some(format!("swept: {}", values.join(", ")))
        } else {
            section(p.section)
                .and_then(|t| t.get(p.key))
                .map(|v| v.to_string())
        };
        let changed = in_force.as_deref().is_some_and(|v| v != p.default);
        let _ = writeln!(
            h,
            "<tr{}><td><code>{}</code></td><td><code>{}</code></td><td><code>{}</code></td><td>{}</td></tr>",
            if changed { " class=\"over\"" } else { "" },
            escape(&path),
            escape(p.default),
            escape(in_force.as_deref().unwrap_or(p.default)),
            escape(p.doc)
        );
    }
    let _ = writeln!(h, "</table></div>");
    // The ruleset's page, built into the binary by the registry, for its assumptions table.
    let Some(page) = crate::rules::registry::info(s.ruleset).map(|r| r.rules_page) else {
        return;
    };
    let tables = assumption_tables(page);
    if tables.is_empty() {
        return;
    }
    let _ = writeln!(
        h,
        "<h2>Assumptions</h2>\n<p>Where the rule text is silent or unclear, duelsim reads it as below (from <code>docs/rules/{}.md</code>); highlighted rows name a parameter this scenario sets.</p>",
        escape(s.ruleset)
    );
    for (title, rows) in tables {
        let _ = writeln!(
            h,
            "<h3>{}</h3>\n<div class=\"scroll\"><table>",
            inline_markdown(&title)
        );
        for (i, cells) in rows.iter().enumerate() {
            let tag = if i == 0 { "th" } else { "td" };
            let set = i > 0
                && cells.first().is_some_and(|c| {
                    c.split('`').skip(1).step_by(2).any(|code| {
                        let (section_name, key) = code.split_once('.').unwrap_or(("", code));
                        section(section_name).is_some_and(|t| t.contains_key(key))
                            || swept.iter().any(|(k, _)| k == code)
                    })
                });
            let _ = write!(h, "<tr{}>", if set { " class=\"over\"" } else { "" });
            for c in cells {
                let _ = write!(h, "<{tag}>{}</{tag}>", inline_markdown(c));
            }
            let _ = writeln!(h, "</tr>");
        }
        let _ = writeln!(h, "</table></div>");
    }
}

/// The label of a point in words: its swept values.
fn point_words(run: &RunResult, i: usize) -> String {
    let names = run.scenario.points[i].model.names();
    run.scenario.points[i]
        .swept
        .iter()
        .map(|(k, v)| {
            if k == "weights" {
                super::charts::value_words(k, v, names, run.scenario.ruleset)
            } else {
                format!("{k} = {v}")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Points compared with a baseline on the same dice: each difference said in words, then a
/// table of the differences with their 95% intervals.
fn differences(h: &mut String, run: &RunResult, names: [&str; 2]) {
    let Some(base) = run.scenario.baseline else {
        return;
    };
    let _ = writeln!(
        h,
        "<h2>Differences from the baseline</h2>\n<p>Every point's trials were also run on the baseline ({}) with the same dice; these are the differences, point minus baseline, with their 95% intervals from the trial-by-trial differences.</p>\n<ul>",
        escape(&point_words(run, base))
    );
    let points = |x: f64| format!("{:.1}", 100.0 * x.abs());
    for (i, t) in run.tallies.iter().enumerate() {
        if i == base {
            continue;
        }
        let Some((d, lo, hi)) = t.paired.delta(0) else {
            continue;
        };
        let how = if lo > 0.0 {
            format!("{} wins {} points more", names[0], points(d))
        } else if hi < 0.0 {
            format!("{} wins {} points less", names[0], points(d))
        } else {
            format!(
                "no clear difference in {}'s win rate ({:+.1} points)",
                names[0],
                100.0 * d
            )
        };
        let _ = writeln!(
            h,
            "<li>{} against {}: {} [{:+.1}, {:+.1}]</li>",
            escape(&point_words(run, i)),
            escape(&point_words(run, base)),
            escape(&how),
            100.0 * lo,
            100.0 * hi
        );
    }
    let _ = writeln!(
        h,
        "</ul>\n<div class=\"scroll\"><table>\n<tr><th>point</th><th>{} wins</th><th>{} wins</th><th>draws</th><th>rounds</th><th>deaths in recovery per duel</th></tr>",
        escape(names[0]),
        escape(names[1])
    );
    for (i, t) in run.tallies.iter().enumerate() {
        let cell = |k: usize, scale: f64| match t.paired.delta(k) {
            Some((d, lo, hi)) if i != base => {
                format!("{:+.2} [{:+.2}, {:+.2}]", scale * d, scale * lo, scale * hi)
            }
            _ => "baseline".to_owned(),
        };
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&point_words(run, i)),
            cell(0, 100.0),
            cell(1, 100.0),
            cell(2, 100.0),
            cell(5, 1.0),
            cell(6, 1.0)
        );
    }
    let _ = writeln!(
        h,
        "</table></div>\n<p>Win and draw differences are in percentage points; rounds and deaths in recovery are per duel.</p>"
    );
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
                    rows.iter().all(|row| row.len() == rows[0].len()),
                    "{}: {title}",
                    r.id
                );
            }
        }
    }

    #[test]
    fn text_is_escaped_and_code_marked() {
        assert_eq!(escape("<a & \"b\">"), "&lt;a &amp; &quot;b&quot;&gt;");
        assert_eq!(
            inline_markdown("`rules.x` (<5)"),
            "<code>rules.x</code> (&lt;5)"
        );
    }
}
