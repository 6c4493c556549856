//! `duelsim rulesets [ID]`: the registry's rulesets, or one ruleset's parameters with their
//! defaults, aligned under their section headings.

use crate::rules::registry::{self};
use crate::rules::{self};
use crate::scenario::error::{InputError, unknown_name};
use anyhow::Result;
use std::fmt::Write as _;

/// Parameters as aligned columns under their section headings: key, default, meaning. A key
/// or default too long for its column puts the meaning on the next line, at its column.
fn aligned(listed: &[rules::Parameter]) -> String {
    const KEY_MAX: usize = 28;
    const DEFAULT_MAX: usize = 16;
    let key_width = listed
        .iter()
        .map(|p| p.key.len())
        .filter(|&n| n <= KEY_MAX)
        .max()
        .unwrap_or(0);
    let default_width = listed
        .iter()
        .map(|p| p.default.len())
        .filter(|&n| n <= DEFAULT_MAX)
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    let mut section = "";
    for p in listed {
        if p.section != section {
            section = p.section;
            let heading = if section.contains(' ') && !section.contains('/') {
                section.to_owned()
            } else {
                format!("[{section}]")
            };
            let _ = writeln!(out, "\n{heading}");
        }
        let line = format!("  {:<key_width$} = {:<default_width$}", p.key, p.default);
        if p.key.len() > key_width || p.default.len() > default_width {
            let _ = writeln!(out, "{}", line.trim_end());
            let _ = writeln!(
                out,
                "  {:width$}   {}",
                "",
                p.doc,
                width = key_width + default_width + 2
            );
        } else {
            let _ = writeln!(out, "{line}  {}", p.doc);
        }
    }
    out
}

/// `duelsim rulesets [ID]`: the rulesets, or one ruleset's parameters with their defaults.
/// Quiet (`-q`), for scripts: the ids one a line, or each parameter as `section: key = default`
/// without its meaning.
pub fn rulesets(id: Option<&str>, quiet: bool) -> Result<String> {
    let mut out = String::new();
    let Some(id) = id else {
        for r in registry::RULESETS {
            if quiet {
                let _ = writeln!(out, "{}", r.id);
            } else {
                let _ = writeln!(out, "{:<14} {}", r.id, r.summary);
            }
        }
        return Ok(out);
    };
    let Some(info) = registry::RULESETS.iter().find(|r| r.id == id) else {
        return Err(InputError::plain(unknown_name("ruleset", id, &registry::ids())).into());
    };
    let parameters = info.parameters;
    let _ = writeln!(out, "{}: {}", info.id, info.summary);
    // Every key a scenario can write, by table: the top level and the tables every ruleset
    // reads, then the ruleset's own.
    let shared =
        |section: &'static str, key: &'static str, default: &'static str, doc: &'static str| {
            rules::Parameter {
                section,
                key,
                default,
                doc,
            }
        };
    let mut listed = vec![
        shared(
            "top level",
            "name",
            "required",
            "the scenario's name; also its output folder's name (letters, digits, - _ ., at most 100)",
        ),
        shared("top level", "ruleset", "required", "the ruleset's id"),
        shared(
            "top level",
            "description",
            "none",
            "free text shown in the report",
        ),
        shared(
            "top level",
            "seed",
            "1",
            "the seed every trial's dice derive from",
        ),
        shared(
            "top level",
            "trials",
            "100000",
            "trials per point (or [precision] decides)",
        ),
        shared(
            "top level",
            "round_limit",
            "50",
            "rounds before a duel is called a draw",
        ),
        shared(
            "top level",
            "catalogues",
            "[]",
            "catalogue files (paths from this file) with [weapons] and [armour] entries",
        ),
        shared(
            "top level",
            "kind",
            "\"duel\"",
            if info.recovery.is_some() {
                "\"duel\", or \"recovery\" (one patient healing: see below)"
            } else {
                "\"duel\""
            },
        ),
        shared(
            "analysis tables",
            "[sweep] \"<path>\"",
            "none",
            "[values] or { from, to, step }: one point per combination",
        ),
        shared(
            "analysis tables",
            "[compare] baseline",
            "first point",
            "{ \"<path>\" = value }: the point the others are compared with",
        ),
        shared(
            "analysis tables",
            "[weights] \"<path>\"",
            "none",
            "a step: what +step of each path is worth, on the same dice",
        ),
        shared(
            "analysis tables",
            "[balance] path / from / to / target",
            "none",
            "the value of path where a rate crosses target = { a_win_rate = 0.5 }, at each [sweep] point",
        ),
        shared(
            "analysis tables",
            "[precision] half_width / max_trials",
            "none",
            "stop each point when both win rates are this precise",
        ),
    ];
    for p in parameters {
        // The fighter's name, listed once: in its own words where the ruleset lists it.
        let own_name = parameters
            .iter()
            .any(|q| q.section == "a / b" && q.key == "name");
        if p.section == "a / b" && !own_name && !listed.iter().any(|l| l.section == "a / b") {
            listed.push(shared(
                "a / b",
                "name",
                "\"a\" / \"b\"",
                "the fighter's name in the report and traces",
            ));
        }
        listed.push(*p);
    }
    if let Some(recovery) = info.recovery {
        listed.extend_from_slice(recovery.keys);
    }
    if quiet {
        let mut bare = String::new();
        for p in &listed {
            let _ = writeln!(bare, "{}: {} = {}", p.section, p.key, p.default);
        }
        return Ok(bare);
    }
    out.push_str(&aligned(&listed));
    if let Some(note) = info.listing_note {
        let _ = writeln!(out, "{}", note());
    }
    Ok(out)
}
