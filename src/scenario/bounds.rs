//! What a scenario or catalogue file may hold, checked on its text before any TOML parser
//! builds it: a parsed value costs hundreds of bytes for each byte written, so a 16 MiB file of
//! `1, 1, 1, ...` would take gigabytes before its (correct) refusal. A cheap pass over the
//! bytes counts values and list entries and how deep lists and inline tables nest, skipping
//! strings and comments, and refuses a file past the bounds at the line where it passes them.

use super::error::{InputError, Source};

/// The most entries one list or inline table holds: the longest sweep list
/// (`sweep::MAX_POINTS`, which this module does not name: `sweep` reads files through it).
pub const MAX_LIST_ENTRIES: usize = 10_000;
/// The most values a file holds in all (each key-value pair, part of a dotted key, table
/// header, list or inline table, and list entry counts one): a sweep list of
/// [`MAX_LIST_ENTRIES`] values, and a catalogue of tens of thousands of weapons, with room to
/// spare. A 16 MiB file of 49,000 weapons (`[weapons.wN]` and `damage = 2`: 147,000 values)
/// takes 153 MB to read, so any file within the bounds is read, or refused, well under 200 MB.
pub const MAX_VALUES: usize = 150_000;
/// How deep lists and inline tables may nest inside one another.
pub const MAX_NESTING: usize = 16;
/// The most lines a file has: the parser builds a token for each line break, so sixteen million
/// blank lines took 820 MB; a million take about 100 MB.
pub const MAX_LINES: usize = 1_000_000;

/// Refuses a text that holds more than [`MAX_VALUES`] values, [`MAX_LINES`] lines, a list or
/// inline table of more than [`MAX_LIST_ENTRIES`] entries, or nesting deeper than
/// [`MAX_NESTING`]; the error is placed where the bound is passed. Text the scan does not
/// understand is left for the parser to refuse (the scan only counts).
pub fn check(source: &Source) -> Result<(), InputError> {
    /// An open list or inline table: where it opens, its entries so far, and whether the next
    /// token starts an entry (after the opening or a comma; a trailing comma starts none).
    struct Open {
        start: usize,
        entries: usize,
        pending: bool,
    }
    let bytes = source.text.as_bytes();
    let mut open: Vec<Open> = Vec::new();
    let mut values = 0usize;
    let mut lines = 1usize;
    // After a top-level `=`, until its value ends: a `[` opens a list, not a table header.
    let mut in_value = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        // A token that starts an entry of the innermost open list or table.
        if !matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'#' | b',' | b']' | b'}')
            && let Some(top) = open.last_mut()
            && top.pending
        {
            top.pending = false;
            top.entries += 1;
            if top.entries > MAX_LIST_ENTRIES {
                return Err(source.error_at(
                    Some(top.start..top.start + 1),
                    None,
                    format!("holds more than {MAX_LIST_ENTRIES} entries in one list or table; expected at most {MAX_LIST_ENTRIES} (the most values a sweep list takes)"),
                ));
            }
        }
        match b {
            b'#' => {
                i = end_of_line(bytes, i);
                continue;
            }
            b'"' | b'\'' => {
                i = end_of_string(bytes, i);
                continue;
            }
            // Each key-value pair, each part of a dotted key and each table header is a value
            // the parser builds.
            b'=' | b'.' => values += 1,
            b'[' | b'{' if in_value || !open.is_empty() => {
                if open.len() == MAX_NESTING {
                    return Err(source.error_at(
                        Some(i..i + 1),
                        None,
                        format!("nests lists or tables more than {MAX_NESTING} deep; expected at most {MAX_NESTING}"),
                    ));
                }
                open.push(Open {
                    start: i,
                    entries: 0,
                    pending: true,
                });
                values += 1;
            }
            b'[' => values += 1,
            b',' => {
                if let Some(top) = open.last_mut() {
                    top.pending = true;
                    values += 1;
                }
            }
            b']' | b'}' if open.pop().is_some() && open.is_empty() => in_value = false,
            b'\n' => {
                lines += 1;
                if lines > MAX_LINES {
                    return Err(source.error_at(
                        Some(i..i + 1),
                        None,
                        format!("has more than {MAX_LINES} lines; expected at most {MAX_LINES}"),
                    ));
                }
                if open.is_empty() {
                    in_value = false;
                }
            }
            _ => {}
        }
        if b == b'=' && open.is_empty() {
            in_value = true;
        }
        if values > MAX_VALUES {
            return Err(source.error_at(
                Some(i..i + 1),
                None,
                format!("the file holds more than {MAX_VALUES} values by here (keys, table headers and list entries); expected at most {MAX_VALUES}"),
            ));
        }
        i += 1;
    }
    Ok(())
}

/// The offset of the line break ending the line at `i` (or the end of the text).
fn end_of_line(bytes: &[u8], i: usize) -> usize {
    bytes[i..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |n| i + n)
}

/// The offset just past the string opening at `i` (basic or literal, one line or several);
/// an unclosed one-line string ends at its line's end.
fn end_of_string(bytes: &[u8], i: usize) -> usize {
    let quote = bytes[i];
    let escapes = quote == b'"';
    let triple = bytes[i..].starts_with(&[quote; 3]);
    let mut j = if triple { i + 3 } else { i + 1 };
    while j < bytes.len() {
        let b = bytes[j];
        // A one-line string ends at its line's end, escaped or not (as the parser ends it).
        if b == b'\n' && !triple {
            return j;
        }
        if escapes && b == b'\\' {
            if !triple && bytes.get(j + 1) == Some(&b'\n') {
                return j + 1;
            }
            j += 2;
            continue;
        }
        if b == quote {
            if !triple {
                return j + 1;
            }
            if bytes[j..].starts_with(&[quote; 3]) {
                // Up to two more quotes belong to the string's content.
                let mut end = j + 3;
                while end < bytes.len() && end < j + 5 && bytes[end] == quote {
                    end += 1;
                }
                return end;
            }
        }
        j += 1;
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn scan(text: &str) -> Result<(), InputError> {
        check(&Source {
            path: Path::new("f.toml"),
            text,
        })
    }

    #[test]
    fn a_list_may_hold_the_longest_sweep() {
        assert_eq!(MAX_LIST_ENTRIES, crate::scenario::sweep::MAX_POINTS);
    }

    #[test]
    fn ordinary_files_pass() {
        for text in [
            "a = 1\n[b]\nc = [1, 2, [3, 4]]\nd = { e = 1, f = [\"]\", '[' ] }\n",
            "[[x]]\ny = \"\"\"\n[[[[\n\"\"\"\nz = '''\n{{{'''\n# [[[[[[\n",
            "[armour.\"mail, [plate]\"]\nv = 1\n",
        ] {
            assert_eq!(scan(text), Ok(()), "{text}");
        }
    }

    #[test]
    fn a_long_list_is_refused_at_its_opening() {
        let text = format!(
            "a = 1\n[sweep]\n\"a.x\" = [1, [{}]]\n",
            vec!["1"; MAX_LIST_ENTRIES + 1].join(",")
        );
        let e = scan(&text).expect_err("refused");
        assert_eq!(e.place, "f.toml:3:13");
        assert!(
            e.message.contains("expected at most 10000"),
            "{}",
            e.message
        );
        // Exactly at the bound, it passes.
        let text = format!("x = [{}]\n", vec!["1"; MAX_LIST_ENTRIES].join(","));
        assert_eq!(scan(&text), Ok(()));
    }

    #[test]
    fn too_many_values_or_too_deep_are_refused() {
        let many = "k = 1\n".repeat(MAX_VALUES + 1);
        let e = scan(&many).expect_err("refused");
        assert_eq!(e.place, format!("f.toml:{}:3", MAX_VALUES + 1));
        assert!(e.message.contains("table headers"), "{}", e.message);
        let deep = format!(
            "x = {}{}\n",
            "[".repeat(MAX_NESTING + 1),
            "]".repeat(MAX_NESTING + 1)
        );
        let e = scan(&deep).expect_err("refused");
        assert!(e.message.contains("deep"), "{}", e.message);
        let fine = format!(
            "x = {}{}\n",
            "[".repeat(MAX_NESTING),
            "]".repeat(MAX_NESTING)
        );
        assert_eq!(scan(&fine), Ok(()));
    }

    #[test]
    fn a_trailing_comma_or_an_empty_list_adds_no_entry() {
        let list = |n: usize, tail: &str| format!("x = [{}{tail}]\n", vec!["1"; n].join(","));
        assert_eq!(scan(&list(MAX_LIST_ENTRIES, ",")), Ok(()));
        assert_eq!(scan(&list(MAX_LIST_ENTRIES, ",\n  # the end\n")), Ok(()));
        assert!(scan(&list(MAX_LIST_ENTRIES + 1, ",")).is_err());
        assert_eq!(scan("x = []\ny = [[], [], {}]\n"), Ok(()));
    }

    #[test]
    fn an_escaped_line_break_does_not_hide_what_follows_from_the_scan() {
        // The parser ends a one-line string at its line's end, backslash or not.
        let text = format!(
            "name = \"x\\\ny = [{}]\n",
            vec!["1"; MAX_LIST_ENTRIES + 1].join(",")
        );
        assert!(scan(&text).is_err());
    }

    #[test]
    fn headers_dotted_keys_and_lines_are_counted() {
        let headers = "[[x]]\n".repeat(MAX_VALUES + 1);
        assert!(scan(&headers).is_err());
        let dotted = format!("a{} = 1\n", ".b".repeat(MAX_VALUES));
        assert!(scan(&dotted).is_err());
        let blank = "\n".repeat(MAX_LINES);
        let e = scan(&blank).expect_err("refused");
        assert!(e.message.contains("lines"), "{}", e.message);
        assert_eq!(scan(&"\n".repeat(MAX_LINES - 1)), Ok(()));
    }

    #[test]
    fn brackets_in_strings_and_comments_are_not_counted() {
        let text = format!("x = \"{}\" # {}\n", "[".repeat(100), "[".repeat(100));
        assert_eq!(scan(&text), Ok(()));
        let text = format!("x = 'a\\' # {}\n", "[".repeat(100));
        assert_eq!(scan(&text), Ok(()), "a literal string has no escapes");
    }
}
