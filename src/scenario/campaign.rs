//! `kind = "campaign"`: a party and the encounters it meets in a row, read into one scenario
//! text per encounter. Scenario reading knows no ruleset: each encounter's text is the file as
//! written with that encounter's foes as side `b` (and its round limit and `[rules]` switches
//! written in), which the ruleset then reads exactly as a fight's file, so an encounter's
//! values are checked by the same rules as a fight's. An error in one is placed at the
//! encounter's own key in the file.
//!
//! ```toml
//! kind = "campaign"
//! [a]                      # the party: one fighter, or [[a]] groups
//! [campaign]
//! turn_back_below = 2      # the party turns back when fewer than two stand (1: never)
//! [[encounter]]
//! name = "goblin ambush"
//! rest_days = 0            # straight into the next
//! b = { name = "Goblin", count = 3, ... }
//! [[encounter]]
//! round_limit = 20
//! rules = { first_strike = "b" }
//! [encounter.b]
//! ...
//! ```

use super::error::{InputError, Source};
use std::ops::Range;
use toml_edit::{DocumentMut, Item};

/// The most encounters a campaign may have: each is a fight's model and seven columns of
/// `summary.csv`.
pub const MAX_ENCOUNTERS: usize = 64;

/// The keys an `[[encounter]]` may have.
const ENCOUNTER_KEYS: &[&str] = &["name", "b", "rest_days", "round_limit", "rules"];

/// The keys `[campaign]` may have.
const CAMPAIGN_KEYS: &[&str] = &["turn_back_below"];

/// Keys of the file only a campaign reads, left out of each encounter's text.
const CAMPAIGN_ONLY: &[&str] = &["kind", "campaign", "encounter"];

/// One encounter read: its name, the rest after it and the text of its fight.
#[derive(Clone, Debug)]
pub struct EncounterText {
    /// Its name: as written, or "encounter K".
    pub name: String,
    /// Days of rest after it (0 after the last).
    pub rest_days: u32,
    /// The file as a fight's file of this encounter.
    pub text: String,
}

/// A campaign file read: the encounters' texts and when the party turns back.
#[derive(Clone, Debug)]
pub struct CampaignText {
    /// The encounters, in order.
    pub encounters: Vec<EncounterText>,
    /// The party turns back when fewer than this many stand before an encounter.
    pub turn_back_below: usize,
}

/// Reads a campaign file into one fight's text per encounter.
pub fn read(source: &Source) -> Result<CampaignText, InputError> {
    let mut document: DocumentMut = source
        .text
        .parse()
        .map_err(|e| source.error_at(None, None, format!("cannot read the campaign: {e}")))?;
    if document.contains_key("b") {
        return Err(source.error_at(
            source.span_of(&["b"]),
            Some("b"),
            "is not read in a campaign; expected each [[encounter]] to give its foes as its own b",
        ));
    }
    let turn_back_below = read_campaign_table(source, &document)?;
    let Some(list) = document.get("encounter").and_then(Item::as_array_of_tables) else {
        return Err(source.error_at(
            source.span_of(&["encounter"]).or(Some(0..0)),
            Some("encounter"),
            "missing; expected a campaign's encounters as [[encounter]] tables, each with its foes as b",
        ));
    };
    let list: Vec<toml_edit::Table> = list.iter().cloned().collect();
    if list.len() > MAX_ENCOUNTERS {
        return Err(source.error_at(
            encounter_span(source, MAX_ENCOUNTERS, &[]),
            Some("encounter"),
            format!(
                "has {} encounters; expected at most {MAX_ENCOUNTERS}",
                list.len()
            ),
        ));
    }
    for key in CAMPAIGN_ONLY {
        document.remove(key);
    }
    let mut encounters = Vec::with_capacity(list.len());
    for (k, table) in list.iter().enumerate() {
        encounters.push(read_encounter(source, &document, k, table, list.len())?);
    }
    Ok(CampaignText {
        encounters,
        turn_back_below,
    })
}

/// `[campaign]`'s `turn_back_below` (1 when absent).
fn read_campaign_table(source: &Source, document: &DocumentMut) -> Result<usize, InputError> {
    let Some(item) = document.get("campaign") else {
        return Ok(1);
    };
    let Some(table) = item.as_table_like() else {
        return Err(source.error_at(
            source.span_of(&["campaign"]),
            Some("campaign"),
            "is not a table; expected [campaign] with turn_back_below",
        ));
    };
    for (key, _) in table.iter() {
        if !CAMPAIGN_KEYS.contains(&key) {
            return Err(source.error_at(
                source.span_of(&["campaign", key]),
                Some(&format!("campaign.{key}")),
                format!(
                    "is not a [campaign] setting; expected {}",
                    CAMPAIGN_KEYS.join(", ")
                ),
            ));
        }
    }
    match table.get("turn_back_below") {
        None => Ok(1),
        Some(v) => match v.as_integer() {
            Some(n) if (1..=super::schema::MAX_SIDE).contains(&n) => Ok(n as usize),
            _ => Err(source.error_at(
                source.span_of(&["campaign", "turn_back_below"]),
                Some("campaign.turn_back_below"),
                format!(
                    "is {}; expected a whole number of fighters from 1 (the party goes on while anyone stands) to {}",
                    v.to_string().trim(),
                    super::schema::MAX_SIDE
                ),
            )),
        },
    }
}

/// Encounter `k` (from 0) of `count`: its keys checked, its fight's text written.
fn read_encounter(
    source: &Source,
    document: &DocumentMut,
    k: usize,
    table: &toml_edit::Table,
    count: usize,
) -> Result<EncounterText, InputError> {
    let field = |key: &str| format!("encounter[{k}].{key}");
    for (key, _) in table.iter() {
        if !ENCOUNTER_KEYS.contains(&key) {
            return Err(source.error_at(
                encounter_span(source, k, &[key]),
                Some(&field(key)),
                format!(
                    "is not an encounter's setting; expected {}",
                    ENCOUNTER_KEYS.join(", ")
                ),
            ));
        }
    }
    let name = match table.get("name") {
        None => format!("encounter {}", k + 1),
        Some(item) => match item.as_str() {
            Some(s) if !s.trim().is_empty() && s.chars().count() <= 80 => s.to_owned(),
            _ => {
                return Err(source.error_at(
                    encounter_span(source, k, &["name"]),
                    Some(&field("name")),
                    "expected a name of 1 to 80 characters, in quotes",
                ));
            }
        },
    };
    let rest_days = match table.get("rest_days") {
        None => 0,
        Some(item) => match item.as_integer() {
            Some(_) if k + 1 == count => {
                return Err(source.error_at(
                    encounter_span(source, k, &["rest_days"]),
                    Some(&field("rest_days")),
                    "is set on the last encounter; expected rest only between encounters (the survivors' healing after the last runs to its end, as after a fight)",
                ));
            }
            Some(n) if (0..=3650).contains(&n) => n as u32,
            _ => {
                return Err(source.error_at(
                    encounter_span(source, k, &["rest_days"]),
                    Some(&field("rest_days")),
                    "expected whole days of rest from 0 (straight into the next encounter) to 3650",
                ));
            }
        },
    };
    let Some(foes) = table.get("b") else {
        return Err(source.error_at(
            encounter_span(source, k, &[]),
            Some(&field("b")),
            "missing; expected the encounter's foes as b, as a fight's side b",
        ));
    };
    let mut fight = document.clone();
    fight.insert("b", foes.clone());
    if let Some(limit) = table.get("round_limit") {
        fight.insert("round_limit", limit.clone());
    }
    if let Some(rules) = table.get("rules") {
        let Some(rules) = rules.as_table_like() else {
            return Err(source.error_at(
                encounter_span(source, k, &["rules"]),
                Some(&field("rules")),
                "is not a table; expected the [rules] switches this encounter sets",
            ));
        };
        if !fight.contains_key("rules") {
            fight.insert("rules", Item::Table(toml_edit::Table::new()));
        }
        if let Some(into) = fight.get_mut("rules").and_then(Item::as_table_like_mut) {
            for (key, value) in rules.iter() {
                into.insert(key, value.clone());
            }
        }
    }
    Ok(EncounterText {
        name,
        rest_days,
        text: fight.to_string(),
    })
}

/// Where `keys` of encounter `k` are written (the encounter's own table without keys), when
/// the file writes them.
pub fn encounter_span(source: &Source, k: usize, keys: &[&str]) -> Option<Range<usize>> {
    let document = toml_edit::Document::parse(source.text).ok()?;
    let list = document.get("encounter")?.as_array_of_tables()?;
    let table = list.get(k)?;
    let mut item: Option<&Item> = None;
    for key in keys {
        item = Some(match item {
            None => table.get(key)?,
            Some(i) => i.get(key)?,
        });
    }
    match item {
        Some(i) => i.span(),
        None => table.span(),
    }
}

/// An error of encounter `k`'s fight (read from its text), placed in the file as written: at
/// the encounter's own key for its foes, round limit and rules switches, at the file's key for
/// the rest, else at the encounter.
pub fn placed(source: &Source, k: usize, name: &str, e: InputError) -> InputError {
    let field = e.field.clone().unwrap_or_default();
    let keys: Vec<&str> = field
        .split(['.', '['])
        .filter(|s| !s.is_empty() && !s.ends_with(']'))
        .collect();
    // The encounter's own keys: its foes and round limit, and a rules switch it writes itself
    // (one from the file's own [rules] is the file's).
    let own = match keys.first() {
        Some(&"b" | &"round_limit") => true,
        Some(&"rules") => encounter_span(source, k, &keys).is_some(),
        _ => false,
    };
    let at_encounter = (1..=keys.len())
        .rev()
        .find_map(|n| encounter_span(source, k, &keys[..n]));
    let (span, field) = match (own, at_encounter) {
        (true, Some(span)) => (Some(span), format!("encounter[{k}].{field}")),
        _ => match source.span_of(&keys) {
            Some(span) if !keys.is_empty() && keys[0] != "b" => (Some(span), field),
            _ => (
                encounter_span(source, k, &[]),
                format!("encounter[{k}].{field}"),
            ),
        },
    };
    let field = field.trim_end_matches('.').to_owned();
    let mut placed = source.error_at(span, Some(&field), format!("{} (in {name})", e.message));
    if placed.field.as_deref() == Some("") {
        placed.field = None;
    }
    placed
}
