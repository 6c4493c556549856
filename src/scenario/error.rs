//! Errors in a scenario file, told the way a designer can act on them.
//!
//! Every [`InputError`] prints as one headline line: `file:line:column: field: what was found,
//! what was expected`, with the nearest known name when a name looks misspelled; the command
//! line prints the line of the file it points at under it, with a caret ([`snippet`]). This module turns TOML
//! and serde errors (which carry a byte span) into that form; it does not validate anything itself.

use std::fmt;
use std::ops::Range;
use std::path::Path;

/// A problem with the user's input: exit code 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// `file:line:column` or just `file`, or empty for input that is not from a file.
    pub place: String,
    /// The dotted path of the field, when known (`a.toughness`).
    pub field: Option<String>,
    /// What is wrong and what was expected.
    pub message: String,
}

/// The longest message an error prints; a longer one (a huge value quoted) is cut with "…".
pub const MAX_MESSAGE_CHARS: usize = 400;

/// Text as one safe line: control characters (a newline, a carriage return, an escape) are
/// written as escapes, and past `max` characters the rest is cut with "…".
pub fn one_line(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == max {
            out.push('…');
            break;
        }
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// Text as a terminal shows it safely: every control character but the line break and the tab (an
/// escape, a carriage return, a bell, an OSC sequence's parts) is written as an escape, so a
/// name in a scenario can neither retitle the terminal nor rewrite a line.
pub fn terminal_safe(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.place.is_empty() {
            write!(f, "{}: ", one_line(&self.place, MAX_MESSAGE_CHARS))?;
        }
        if let Some(field) = &self.field {
            write!(f, "{}: ", one_line(field, MAX_MESSAGE_CHARS))?;
        }
        f.write_str(&one_line(&self.message, MAX_MESSAGE_CHARS))
    }
}

/// The largest scenario or catalogue file read (16 MiB).
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Reads a scenario or catalogue file: a regular file of at most [`MAX_FILE_BYTES`], in UTF-8.
/// Anything else (a folder, a device such as `/dev/zero`, a pipe, a huge file, bytes that are
/// not UTF-8) is an input error naming the file, with the line and column of a bad byte.
/// `-` reads the text from stdin (once: a command that reads the file again gets the same
/// text).
pub fn read_text(path: &Path, what: &str) -> Result<String, InputError> {
    let at = |message: String| InputError {
        place: path.display().to_string(),
        field: None,
        message,
    };
    if path == Path::new("-") {
        static STDIN: std::sync::OnceLock<Result<Vec<u8>, String>> = std::sync::OnceLock::new();
        let read = STDIN.get_or_init(|| {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(
                &mut std::io::Read::take(std::io::stdin().lock(), MAX_FILE_BYTES + 1),
                &mut bytes,
            )
            .map(|_| bytes)
            .map_err(|e| e.to_string())
        });
        let bytes = read
            .clone()
            .map_err(|e| at(format!("cannot read the {what} from stdin: {e}")))?;
        return text_of(path, what, bytes);
    }
    let meta = std::fs::metadata(path).map_err(|e| {
        let mut message = format!("cannot read the {what}: {e}");
        if e.kind() == std::io::ErrorKind::NotFound
            && let Some(similar) = similar_file(path)
        {
            message.push_str(&format!(" (did you mean {}?)", similar.display()));
        }
        at(message)
    })?;
    if !meta.is_file() {
        return Err(at(format!(
            "is not a regular file; expected the {what} as a TOML file"
        )));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(at(format!(
            "is {} bytes; expected a {what} of at most {MAX_FILE_BYTES} bytes (16 MiB)",
            meta.len()
        )));
    }
    let mut bytes = Vec::new();
    let file = std::fs::File::open(path).map_err(|e| at(format!("cannot read the {what}: {e}")))?;
    std::io::Read::read_to_end(
        &mut std::io::Read::take(file, MAX_FILE_BYTES + 1),
        &mut bytes,
    )
    .map_err(|e| at(format!("cannot read the {what}: {e}")))?;
    text_of(path, what, bytes)
}

/// A file in the folder of a missing `path` whose name is close to its name (a typo, or the
/// name without its ending), for "did you mean".
fn similar_file(path: &Path) -> Option<std::path::PathBuf> {
    let name = path.file_name()?.to_str()?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let names: Vec<String> = std::fs::read_dir(folder)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().to_str().map(str::to_owned))
        .take(10_000)
        .collect();
    let known: Vec<&str> = names.iter().map(String::as_str).collect();
    let best = nearest(name, &known).or_else(|| nearest(&format!("{name}.toml"), &known))?;
    Some(path.with_file_name(best))
}

/// Bytes read for `path` as UTF-8 text of at most [`MAX_FILE_BYTES`].
fn text_of(path: &Path, what: &str, bytes: Vec<u8>) -> Result<String, InputError> {
    let at = |message: String| InputError {
        place: path.display().to_string(),
        field: None,
        message,
    };
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(at(format!(
            "grew past {MAX_FILE_BYTES} bytes while read; expected a {what} of at most 16 MiB"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        let good = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = good.iter().filter(|&&b| b == b'\n').count() + 1;
        let start = good.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&good[start..]).chars().count() + 1;
        InputError {
            place: format!("{}:{line}:{column}", path.display()),
            field: None,
            message: format!("is not UTF-8 text here; expected the {what} in UTF-8"),
        }
    })
}

impl std::error::Error for InputError {}

/// The line an error's `file:line:column` place points at, with a caret under the column
/// (and under the rest of the word there), for the lines after the error's headline:
///
/// ```text
///    |
/// 29 | damage = 99
///    |          ^^
/// ```
///
/// `None` when the place has no line and column, or the file cannot be read again.
pub fn snippet(place: &str) -> Option<String> {
    let mut parts = place.rsplitn(3, ':');
    let column: usize = parts.next()?.parse().ok()?;
    let line: usize = parts.next()?.parse().ok()?;
    let path = parts.next()?;
    let text = read_text(Path::new(path), "file").ok()?;
    let written = text.lines().nth(line.checked_sub(1)?)?;
    let skip = column.checked_sub(1)?;
    // Each character as shown: a tab as four spaces, a control character escaped; the caret
    // line gives each the same width, so the caret stays under its column.
    let shown_char = |c: char| -> String {
        match c {
            '\t' => "    ".to_owned(),
            c if c.is_control() => c.escape_debug().collect(),
            c => c.to_string(),
        }
    };
    // A long line is shown from a little before the column, marked "…".
    let from = skip.saturating_sub(60) * usize::from(skip > 100);
    let window: Vec<char> = written.chars().skip(from).take(skip - from + 100).collect();
    let shown = format!(
        "{}{}",
        if from > 0 { "…" } else { "" },
        window.iter().map(|&c| shown_char(c)).collect::<String>()
    );
    let word = written
        .chars()
        .skip(skip)
        .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | ']' | '}'))
        .count()
        .clamp(1, 60);
    let lead: String = (if from > 0 { " " } else { "" }).to_owned()
        + &" ".repeat(
            window
                .iter()
                .take(skip - from)
                .map(|&c| shown_char(c).chars().count())
                .sum::<usize>(),
        );
    let number = line.to_string();
    let gutter = " ".repeat(number.len());
    Some(format!(
        "{gutter} |\n{number} | {shown}\n{gutter} | {lead}{}",
        "^".repeat(word)
    ))
}

impl InputError {
    /// An error about a command-line value or another input without a file position.
    pub fn plain(message: impl Into<String>) -> Self {
        InputError {
            place: String::new(),
            field: None,
            message: message.into(),
        }
    }
}

/// One scenario file's text, to place errors in it.
#[derive(Clone, Copy, Debug)]
pub struct Source<'a> {
    /// The file's path as the user gave it.
    pub path: &'a Path,
    /// The whole text of the file.
    pub text: &'a str,
}

impl<'a> Source<'a> {
    /// Where the value at a dotted path of keys is written (`["a", "penalties"]`), if it is.
    pub fn span_of(&self, keys: &[&str]) -> Option<Range<usize>> {
        let document = toml_edit::Document::parse(self.text).ok()?;
        let mut item = document.as_item();
        for key in keys {
            item = item.get(key)?;
        }
        item.span()
    }

    /// An error at a byte span of the file; the field is named from the text when not given.
    pub fn error_at(
        &self,
        span: Option<Range<usize>>,
        field: Option<&str>,
        message: impl Into<String>,
    ) -> InputError {
        let place = match &span {
            Some(span) => {
                let (line, column) = self.line_column(span.start);
                format!("{}:{line}:{column}", self.path.display())
            }
            None => self.path.display().to_string(),
        };
        let field = field
            .map(str::to_owned)
            .or_else(|| span.and_then(|s| self.field_at(s.start)));
        InputError {
            place,
            field,
            message: message.into(),
        }
    }

    /// Turns a TOML or serde error into an [`InputError`], suggesting the nearest known name
    /// for an unknown key or variant.
    pub fn from_toml(&self, error: &toml::de::Error) -> InputError {
        let message = error.message().trim().replace('\n', " ");
        // `damage = ` with nothing after it: say the value is missing, not how to quote it.
        if let Some(span) = error.span() {
            let start = floor_char_boundary(self.text, span.start.min(self.text.len()));
            let rest = self.text[start..].lines().next().unwrap_or("").trim();
            let before = self.text[..start].lines().last().unwrap_or("").trim_end();
            if before.ends_with('=') && (rest.is_empty() || rest.starts_with('#')) {
                return self.error_at(
                    Some(span),
                    None,
                    "has no value after '='; expected a value: a number, true or false, \"text\" in quotes, or a [list]",
                );
            }
        }
        // `weapon = broadsword`: say how to write it, with the word found.
        if message.contains("string values must be quoted")
            && let Some(span) = error.span()
        {
            let start = floor_char_boundary(self.text, span.start.min(self.text.len()));
            let end = floor_char_boundary(self.text, span.end.min(self.text.len())).max(start);
            let word = self.text[start..end].trim();
            return self.error_at(
                Some(span),
                None,
                format!("expected text in quotes, such as \"{word}\""),
            );
        }
        self.error_at(error.span(), None, explain_serde_message(&message))
    }

    /// 1-based line and column of a byte offset (columns count characters).
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let before = &self.text[..floor_char_boundary(self.text, offset)];
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        (line, before[line_start..].chars().count() + 1)
    }

    /// The dotted path of the key written on the line holding `offset`, inside the nearest
    /// table header above it.
    pub fn field_at(&self, offset: usize) -> Option<String> {
        let offset = floor_char_boundary(self.text, offset.min(self.text.len()));
        let line_start = self.text[..offset].rfind('\n').map_or(0, |i| i + 1);
        let line_end = self.text[offset..]
            .find('\n')
            .map_or(self.text.len(), |i| offset + i);
        let line = self.text[line_start..line_end].trim();
        if let Some(header) = table_header(line) {
            return Some(header);
        }
        let key = line
            .split_once('=')
            .map(|(k, _)| clean_key(k))
            .filter(|k| !k.is_empty() && !k.starts_with('#'));
        let table = self.text[..line_start]
            .lines()
            .rev()
            .find_map(|l| table_header(l.trim()));
        match (table, key) {
            (Some(t), Some(k)) => Some(format!("{t}.{k}")),
            (None, Some(k)) => Some(k),
            (Some(t), None) => Some(t),
            (None, None) => None,
        }
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

fn table_header(line: &str) -> Option<String> {
    let inner = line.strip_prefix('[')?;
    let inner = inner.strip_prefix('[').unwrap_or(inner);
    // A header missing its `]` (a syntax error being reported) still names its table.
    let end = inner.find(']').unwrap_or(inner.len());
    Some(clean_key(&inner[..end]))
}

fn clean_key(key: &str) -> String {
    key.split('.')
        .map(|part| part.trim().trim_matches('"').trim_matches('\''))
        .collect::<Vec<_>>()
        .join(".")
}

/// What serde says it expected, in a designer's words ("a boolean": "true or false").
fn expected_words(expected: &str) -> String {
    let expected = expected.trim();
    let whole = [
        "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize",
    ];
    if expected == "a boolean" {
        "true or false".to_owned()
    } else if expected.contains("string") || expected.contains("char") {
        "text in quotes".to_owned()
    } else if whole.contains(&expected) || expected.contains("integer") {
        "a whole number".to_owned()
    } else if matches!(expected, "f32" | "f64") || expected.contains("float") {
        "a number".to_owned()
    } else if expected.contains("sequence") {
        "a [list]".to_owned()
    } else if expected.contains("map") || expected.starts_with("struct") {
        "a table".to_owned()
    } else {
        expected.to_owned()
    }
}

/// What serde says it found, in a designer's words ("string \"yes\"": "the text \"yes\"").
fn found_words(found: &str) -> String {
    let found = found.trim();
    let quoted = |rest: &str| rest.trim().trim_matches('`').to_owned();
    if let Some(rest) = found.strip_prefix("string ") {
        format!("the text {}", rest.trim())
    } else if let Some(rest) = found
        .strip_prefix("integer ")
        .or_else(|| found.strip_prefix("floating point "))
    {
        format!("the number {}", quoted(rest))
    } else if let Some(rest) = found.strip_prefix("boolean ") {
        quoted(rest)
    } else if found == "sequence" {
        "a list".to_owned()
    } else if found == "map" {
        "a table".to_owned()
    } else {
        found.to_owned()
    }
}

/// Rewrites serde's "unknown field `x`, expected one of `a`, `b`" so it suggests the nearest
/// name, and its "invalid type: string \"yes\", expected a boolean" as "expected true or
/// false, found the text \"yes\"".
fn explain_serde_message(message: &str) -> String {
    for prefix in ["invalid type: ", "invalid value: "] {
        if let Some((found, expected)) = message
            .strip_prefix(prefix)
            .and_then(|rest| rest.rsplit_once(", expected "))
        {
            return format!(
                "expected {}, found {}",
                expected_words(expected),
                found_words(found)
            );
        }
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        let key = rest.trim_end_matches('`');
        return format!("missing the required key '{key}'");
    }
    for (prefix, what) in [("unknown field `", "key"), ("unknown variant `", "value")] {
        let Some(rest) = message.strip_prefix(prefix) else {
            continue;
        };
        let Some((found, expected)) = rest.split_once('`') else {
            continue;
        };
        let known: Vec<&str> = expected
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|s| !s.is_empty())
            .collect();
        return unknown_name(what, found, &known);
    }
    message.to_owned()
}

/// "unknown weapon 'brodsword' (did you mean 'broadsword'?); known: broadsword, mace, spear"
pub fn unknown_name(what: &str, found: &str, known: &[&str]) -> String {
    let mut message = format!("unknown {what} '{found}'");
    if let Some(best) = nearest(found, known) {
        message.push_str(&format!(" (did you mean '{best}'?)"));
    }
    if known.is_empty() {
        message.push_str("; none are defined");
    } else {
        message.push_str(&format!("; known: {}", known.join(", ")));
    }
    message
}

/// The known name closest to `found` by edit distance, if it is close enough to be a typo.
/// A name the known one begins with counts too ("twin" for "twin-d20").
pub fn nearest<'k>(found: &str, known: &[&'k str]) -> Option<&'k str> {
    let limit = (found.chars().count() / 3).max(2);
    let found = found.to_lowercase();
    let close = known
        .iter()
        .map(|k| (edit_distance(&found, &k.to_lowercase()), *k))
        .filter(|&(d, _)| d <= limit)
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k);
    close.or_else(|| {
        let mut begun = known
            .iter()
            .filter(|k| found.chars().count() >= 3 && k.to_lowercase().starts_with(&found));
        // Only when one name begins so: "d" would say nothing useful.
        match (begun.next(), begun.next()) {
            (Some(k), None) => Some(*k),
            _ => None,
        }
    })
}

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(above + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caret_stays_under_its_column_past_tabs_and_control_characters() {
        let file =
            std::env::temp_dir().join(format!("duelsim-snippet-{}.toml", std::process::id()));
        std::fs::write(&file, "name = \"x\"\n\tattack =\t99 \u{1b}\n")
            .unwrap_or_else(|e| panic!("{e}"));
        let place = format!("{}:2:11", file.display());
        let lines = snippet(&place).unwrap_or_default();
        let _ = std::fs::remove_file(&file);
        let rows: Vec<&str> = lines.lines().collect();
        assert_eq!(rows.len(), 3, "{lines}");
        let shown = rows[1].find("99").unwrap_or(0);
        assert_eq!(rows[2].find('^'), Some(shown), "{lines}");
        assert!(rows[2].ends_with("^^"), "{lines}");
        assert!(
            rows[1].contains("\\u{1b}"),
            "the escape is written out: {lines}"
        );
    }

    #[test]
    fn nearest_name_finds_typos_only() {
        let known = ["broadsword", "mace", "spear"];
        assert_eq!(nearest("brodsword", &known), Some("broadsword"));
        assert_eq!(nearest("Mace", &known), Some("mace"));
        assert_eq!(nearest("halberd", &known), None);
        let rulesets = [
            "twin-d20",
            "guard-pierce",
            "zone-d100",
            "wound-levels",
            "d6-pool",
        ];
        assert_eq!(nearest("twin", &rulesets), Some("twin-d20"));
        assert_eq!(nearest("zone", &rulesets), Some("zone-d100"));
    }

    #[test]
    fn field_path_comes_from_table_and_key() {
        let text = "name = \"x\"\n[a]\nattack = 12\ntoughness = -3\n";
        let source = Source {
            path: Path::new("s.toml"),
            text,
        };
        let offset = text.find("-3").unwrap_or(0);
        assert_eq!(source.field_at(offset).as_deref(), Some("a.toughness"));
        assert_eq!(source.line_column(offset), (4, 13));
        assert_eq!(source.field_at(2).as_deref(), Some("name"));
    }

    #[test]
    fn unknown_field_message_suggests() {
        let m = explain_serde_message("unknown field `wepon`, expected one of `name`, `weapon`");
        assert_eq!(
            m,
            "unknown key 'wepon' (did you mean 'weapon'?); known: name, weapon"
        );
    }
}
