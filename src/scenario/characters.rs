//! The characters a scenario or catalogue file's text may hold where a report prints it: no
//! control character (a bell, an escape, a line feed in a name would break an SVG's XML or
//! forge lines on the terminal) and no character that turns the direction of text (U+202E
//! would make a name read backwards). A description may run over several lines and hold tabs.

use super::error::{InputError, Source};
use toml_edit::{Item, Value};

/// Characters that reorder text: the bidirectional embeddings, overrides and isolates, and the
/// marks.
fn turns_direction(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// The first character of `text` a report may not print, if any; line breaks and tabs are
/// allowed where `lines` is.
fn unprintable(text: &str, lines: bool) -> Option<char> {
    text.chars().find(|&c| {
        (c.is_control() && !(lines && matches!(c, '\n' | '\t' | '\r'))) || turns_direction(c)
    })
}

/// Refuses a key or string anywhere in the file that holds a character a report may not print,
/// at its place, naming the character by its code point. Text that does not parse is left for
/// the parser to refuse.
pub fn check(source: &Source) -> Result<(), InputError> {
    let Ok(document) = toml_edit::Document::parse(source.text) else {
        return Ok(());
    };
    walk_table(source, document.as_table(), "")
}

fn walk_table(
    source: &Source,
    table: &dyn toml_edit::TableLike,
    path: &str,
) -> Result<(), InputError> {
    for (key, item) in table.iter() {
        let here = if path.is_empty() {
            key.to_owned()
        } else {
            format!("{path}.{key}")
        };
        if let Some(c) = unprintable(key, false) {
            let span = table.key(key).and_then(|k| k.span());
            return Err(refusal(source, span, &here, c));
        }
        match item {
            Item::Table(t) => walk_table(source, t, &here)?,
            Item::Value(v) => walk_value(source, v, &here)?,
            Item::ArrayOfTables(tables) => {
                for (i, t) in tables.iter().enumerate() {
                    walk_table(source, t, &format!("{here}[{i}]"))?;
                }
            }
            Item::None => {}
        }
    }
    Ok(())
}

fn walk_value(source: &Source, value: &Value, path: &str) -> Result<(), InputError> {
    match value {
        Value::String(s) => {
            let lines = path == "description";
            match unprintable(s.value(), lines) {
                Some(c) => Err(refusal(source, s.span(), path, c)),
                None => Ok(()),
            }
        }
        Value::Array(values) => {
            for (i, v) in values.iter().enumerate() {
                walk_value(source, v, &format!("{path}[{i}]"))?;
            }
            Ok(())
        }
        Value::InlineTable(t) => walk_table(source, t, path),
        _ => Ok(()),
    }
}

fn refusal(
    source: &Source,
    span: Option<std::ops::Range<usize>>,
    path: &str,
    c: char,
) -> InputError {
    source.error_at(
        span,
        Some(path),
        format!(
            "holds the character U+{:04X}, which a report cannot print; expected text without control or direction characters",
            u32::from(c)
        ),
    )
}
