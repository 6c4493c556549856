//! `[sweep]`: varying scenario values by their dotted paths, over lists, ranges and their
//! cross product.
//!
//! Each entry of `[sweep]` names a value of the file by its dotted path (`a.skill`,
//! `b.armour`, `rules.stun_threshold`, `rules.attack_table[3][2]`, `weapons.mace.damage`) and
//! gives the values it takes: a list (`["mace", "spear"]`) or a numeric range
//! (`{ from = 8, to = 16, step = 2 }`). The points are the cross product of the entries, the
//! first entry varying slowest. Each point is the file with those values written in (by
//! `toml_edit`, so every other line keeps its place) and then read exactly like a file without
//! a sweep, so a swept value is checked by the same rules as a written one.

use super::schema::Parameter;
use crate::scenario::error::{InputError, Source};
use std::ops::Range;
use toml_edit::{DocumentMut, InlineTable, Item, Table, TableLike, Value};

/// The most points one file may ask for: a guard against a typo in a range, and what keeps a
/// run's tallies, tables and charts of every point well under 1.5 GB (86,000 points of a duel
/// took 2.1 GB).
pub const MAX_POINTS: usize = 10_000;

/// The most text a sweep, a grid or `[weights]` compiles: each point is the file with its
/// values written in (without its `[sweep]`), read with its catalogues, so points × (file +
/// catalogues) is bounded: 64 MiB, about ten seconds of reading at the bound.
pub const MAX_SWEEP_BYTES: usize = 64 << 20;

/// Refuses `points` readings of `bytes` each when together they pass [`MAX_SWEEP_BYTES`];
/// the error is placed at `span` (the table asking for them), `what` naming the points.
pub fn bound_work(
    source: &Source,
    span: Option<Range<usize>>,
    field: &str,
    what: &str,
    points: usize,
    bytes: usize,
) -> Result<(), InputError> {
    if points.saturating_mul(bytes) > MAX_SWEEP_BYTES {
        return Err(source.error_at(
            span,
            Some(field),
            format!(
                "asks for {points} {what} of {bytes} bytes each (the file with its values written in, and its catalogues); expected {what} × bytes of at most {MAX_SWEEP_BYTES} (64 MiB): fewer {what}, or a shorter file"
            ),
        ));
    }
    Ok(())
}

/// Top-level keys a sweep may not vary: they say what the run is, not what is fought.
const RUN_SETTINGS: &[&str] = &[
    "name",
    "ruleset",
    "kind",
    "description",
    "catalogues",
    "seed",
    "trials",
    "precision",
    "sweep",
    "compare",
    "weights",
    "balance",
];

/// One swept value: its path and the values it takes, each with the label of its column.
#[derive(Clone, Debug)]
pub struct Axis {
    /// The dotted path as written, the name of its column in `summary.csv`.
    pub path: String,
    /// The path split into keys and indexes.
    segments: Vec<Segment>,
    /// The values, as TOML.
    pub values: Vec<Value>,
    /// The values as they appear in the swept column.
    pub labels: Vec<String>,
    /// Whether every value is a number (a numeric axis can be drawn as a curve).
    pub numeric: bool,
    /// Where the entry is written, for errors.
    span: Range<usize>,
    /// Where each value is written (a list's elements; a range's values are all at its entry).
    value_spans: Vec<Range<usize>>,
}

impl Axis {
    /// Where the entry is written, as `file:line:column`.
    pub fn place(&self, source: &Source) -> String {
        source.error_at(Some(self.span.clone()), None, "").place
    }

    /// Where its value `index` is written, as `file:line:column`: an error about one value of a
    /// list is marked at that value.
    pub fn place_of_value(&self, source: &Source, index: usize) -> String {
        let span = self.value_spans.get(index).unwrap_or(&self.span);
        source.error_at(Some(span.clone()), None, "").place
    }

    /// Whether this axis sets a value inside the table `field` (`c` for `c.attack`).
    pub fn inside(&self, field: &str) -> bool {
        !field.is_empty() && self.path.starts_with(&format!("{field}."))
    }

    /// Whether an error about `field` is about this axis's value.
    pub fn concerns(&self, field: &str) -> bool {
        let plain: Vec<String> = self
            .segments
            .iter()
            .map(|s| match s {
                Segment::Key(k) => k.clone(),
                Segment::Index(i) => i.to_string(),
            })
            .collect();
        let plain = plain.join(".");
        field == plain || field.starts_with(&format!("{plain}.")) || field == self.path
    }

    /// Whether this axis sets the value at `path` or a value around or inside it (`rules.table`
    /// and `rules.table[2]`): a `[balance]` path may not be swept. A path that does not parse
    /// overlaps nothing (reading it reports it).
    pub fn overlaps(&self, path: &str) -> bool {
        let Ok(other) = parse_path(path) else {
            return false;
        };
        let n = self.segments.len().min(other.len());
        self.segments[..n] == other[..n]
    }
}

/// One step of a dotted path.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Segment {
    Key(String),
    Index(usize),
}

/// The axes of a file's `[sweep]`, in the file's order; empty when it has none.
pub fn axes(source: &Source) -> Result<Vec<Axis>, InputError> {
    let document = toml_edit::Document::parse(source.text)
        .map_err(|e| source.error_at(e.span(), None, e.message().to_owned()))?;
    let Some(sweep) = document.get("sweep") else {
        return Ok(Vec::new());
    };
    let span = sweep.span().unwrap_or(0..0);
    let Some(table) = sweep.as_table_like() else {
        return Err(source.error_at(
            Some(span),
            Some("sweep"),
            "is not a table; expected [sweep] with entries such as \"a.skill\" = { from = 8, to = 16, step = 2 }",
        ));
    };
    let mut axes = Vec::new();
    for (key, item) in table.iter() {
        collect(source, key, item, &mut axes)?;
    }
    if axes.is_empty() {
        return Err(source.error_at(
            Some(span),
            Some("sweep"),
            "is empty; expected entries such as \"a.skill\" = { from = 8, to = 16, step = 2 } or \"b.armour\" = [\"mail\", \"plate\"]",
        ));
    }
    let mut points: usize = 1;
    for axis in &axes {
        points = points.saturating_mul(axis.values.len());
    }
    if points > MAX_POINTS {
        return Err(source.error_at(
            Some(span),
            Some("sweep"),
            format!("asks for {points} points; expected at most {MAX_POINTS}"),
        ));
    }
    for (i, a) in axes.iter().enumerate() {
        if axes[..i].iter().any(|b| b.segments == a.segments) {
            return Err(source.error_at(
                Some(a.span.clone()),
                Some(&format!("sweep.{}", a.path)),
                "is swept twice; expected each path once",
            ));
        }
    }
    Ok(axes)
}

/// Reads one entry (or a table of entries under a dotted prefix) into axes.
fn collect(
    source: &Source,
    path: &str,
    item: &Item,
    axes: &mut Vec<Axis>,
) -> Result<(), InputError> {
    let span = item.span().unwrap_or(0..0);
    let field = format!("sweep.{path}");
    let error = |message: String| source.error_at(Some(span.clone()), Some(&field), message);
    let mut value_spans = Vec::new();
    let values: Vec<Value> = match item {
        Item::Value(Value::Array(list)) => {
            value_spans = list
                .iter()
                .map(|v| v.span().unwrap_or_else(|| span.clone()))
                .collect();
            if list.is_empty() {
                return Err(error(
                    "is an empty list; expected at least one value".into(),
                ));
            }
            if list.len() > MAX_POINTS {
                return Err(error(format!(
                    "has {} values; expected at most {MAX_POINTS}",
                    list.len()
                )));
            }
            list.iter().cloned().collect()
        }
        Item::Value(Value::InlineTable(t)) if t.contains_key("from") || t.contains_key("to") => {
            range(t).map_err(error)?
        }
        Item::Table(_) | Item::Value(Value::InlineTable(_)) => {
            if let Some(t) = item.as_table_like() {
                for (key, inner) in t.iter() {
                    collect(source, &format!("{path}.{key}"), inner, axes)?;
                }
            }
            return Ok(());
        }
        Item::Value(other) => {
            return Err(error(format!(
                "is {}; expected a list of values or a range {{ from = .., to = .., step = .. }}",
                describe(other)
            )));
        }
        _ => return Err(error("expected a list of values or a range".into())),
    };
    let segments = parse_path(path).map_err(error)?;
    if let Some(Segment::Key(first)) = segments.first()
        && RUN_SETTINGS.contains(&first.as_str())
    {
        return Err(error(format!(
            "'{first}' is a setting of the run and cannot be swept; expected a value of the fight (a fighter, weapon, armour, [rules] or [healing] value)"
        )));
    }
    let numeric = values
        .iter()
        .all(|v| matches!(v, Value::Integer(_) | Value::Float(_)));
    let mut converted = Vec::with_capacity(values.len());
    let mut labels = Vec::with_capacity(values.len());
    for v in values {
        let mut v = v;
        v.decor_mut().clear();
        labels.push(text_of(&v));
        converted.push(v);
    }
    axes.push(Axis {
        path: path.to_owned(),
        segments,
        values: converted,
        labels,
        numeric,
        span,
        value_spans,
    });
    Ok(())
}

/// The tables whose entries are named (`[weapons.mace]`): a sweep of a value inside one names
/// an entry the file must write.
const NAMED_ENTRIES: [(&str, &str); 2] = [("weapons", "weapon"), ("armour", "armour")];

/// Refuses, at its entry, a sweep of a value of a weapon or armour the file does not write:
/// the sweep would add an entry no fighter reads, or half an entry, and change nothing.
pub fn check_entries(source: &Source, axes: &[Axis]) -> Result<(), InputError> {
    let document = toml_edit::Document::parse(source.text)
        .map_err(|e| source.error_at(e.span(), None, e.message().to_owned()))?;
    for axis in axes {
        let [Segment::Key(table), Segment::Key(name), _, ..] = axis.segments.as_slice() else {
            continue;
        };
        if !NAMED_ENTRIES.iter().any(|(t, _)| t == table) {
            continue;
        }
        let entries = document.get(table).and_then(Item::as_table_like);
        if entries.is_some_and(|t| t.contains_key(name)) {
            continue;
        }
        let known: Vec<&str> =
            entries.map_or_else(Vec::new, |t| t.iter().map(|(k, _)| k).collect());
        let known = if known.is_empty() {
            format!("the file writes no [{table}]")
        } else {
            format!("its {table}: {}", known.join(", "))
        };
        return Err(source.error_at(
            Some(axis.span.clone()),
            Some(&format!("sweep.{}", axis.path)),
            format!(
                "sweeps a value of [{table}.{name}], but the file has no [{table}.{name}] ({known}); expected an entry the file writes (one from a catalogue: copy it into the file to sweep it)"
            ),
        ));
    }
    Ok(())
}

/// A value as its swept column shows it: strings without quotes, numbers as written.
pub(crate) fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.value().clone(),
        Value::Float(f) => format!("{}", f.value()),
        other => other.to_string().trim().to_owned(),
    }
}

fn describe(v: &Value) -> &'static str {
    match v {
        Value::String(_) => "a string",
        Value::Integer(_) | Value::Float(_) => "a number",
        Value::Boolean(_) => "a boolean",
        Value::Datetime(_) => "a date",
        Value::Array(_) => "a list",
        Value::InlineTable(_) => "a table",
    }
}

/// The values of `{ from, to, step }`: integers when all three are, else decimals.
fn range(t: &InlineTable) -> Result<Vec<Value>, String> {
    for (key, _) in t.iter() {
        if !matches!(key, "from" | "to" | "step") {
            return Err(format!(
                "has the unknown key '{key}'; a range has 'from', 'to' and 'step'"
            ));
        }
    }
    let get = |key: &str| -> Result<Option<&Value>, String> {
        match t.get(key) {
            None => Ok(None),
            Some(v @ (Value::Integer(_) | Value::Float(_))) => Ok(Some(v)),
            Some(other) => Err(format!("{key}: is {}; expected a number", describe(other))),
        }
    };
    let (Some(from), Some(to)) = (get("from")?, get("to")?) else {
        return Err("a range needs both 'from' and 'to'".into());
    };
    let step = get("step")?;
    if let (Some(from), Some(to), Some(step)) = (
        from.as_integer(),
        to.as_integer(),
        step.map_or(Some(1), Value::as_integer),
    ) {
        if step <= 0 {
            return Err(format!("step: is {step}; expected a positive step"));
        }
        if to < from {
            return Err(format!(
                "'to' ({to}) is below 'from' ({from}); expected from <= to"
            ));
        }
        // In i128: `to - from` of two i64 always fits.
        let count = (i128::from(to) - i128::from(from)) / i128::from(step) + 1;
        if count > MAX_POINTS as i128 {
            return Err(format!("has {count} values; expected at most {MAX_POINTS}"));
        }
        return Ok((0..count as i64)
            .map(|i| Value::from(from + i * step))
            .collect());
    }
    let number = |v: &Value| v.as_float().or(v.as_integer().map(|i| i as f64));
    let (from, to) = (
        number(from).unwrap_or(f64::NAN),
        number(to).unwrap_or(f64::NAN),
    );
    let step = step.and_then(number).unwrap_or(1.0);
    if !(step > 0.0 && step.is_finite()) {
        return Err(format!("step: is {step}; expected a positive step"));
    }
    if !(from.is_finite() && to.is_finite()) || to < from {
        return Err(format!(
            "'to' ({to}) is below 'from' ({from}); expected from <= to"
        ));
    }
    // Counted in floating point and compared before any conversion, so that no width or step
    // (1e300 over 1e-300, a subnormal step) can wrap the count.
    let steps = ((to - from) / step + 1e-9).floor();
    if steps.is_nan() || steps >= MAX_POINTS as f64 {
        return Err(format!(
            "has {} values; expected at most {MAX_POINTS}",
            if steps.is_finite() {
                format!("{}", steps + 1.0)
            } else {
                "too many".to_owned()
            }
        ));
    }
    let count = steps as i64 + 1;
    let values: Vec<f64> = (0..count)
        .map(|i| ((from + i as f64 * step) * 1e9).round() / 1e9)
        .collect();
    // Values are written to nine decimals: a step below that would repeat points.
    if values.windows(2).any(|w| w[0] == w[1]) {
        return Err(format!(
            "step: is {step}; expected a step that keeps the points distinct when written to nine decimals"
        ));
    }
    Ok(values.into_iter().map(Value::from).collect())
}

/// Sets the value at a dotted path of a document (for `[balance]`).
pub(crate) fn set_path(document: &mut DocumentMut, path: &str, value: Value) -> Result<(), String> {
    let segments = parse_path(path)?;
    set_item(document.as_item_mut(), &segments, value)
}

/// The file with the number at `path` moved by `step` (for `[weights]`): the new text and the
/// value it was given. Errors say why not (not written in the file, not a number).
pub(crate) fn stepped(
    document: &DocumentMut,
    plain: &toml::Table,
    path: &str,
    step: &Value,
) -> Result<(String, Value), String> {
    let segments = parse_path(path)?;
    let mut at: Option<&toml::Value> = None;
    for (n, segment) in segments.iter().enumerate() {
        at = match (n, segment, at) {
            (0, Segment::Key(k), _) => plain.get(k),
            (_, Segment::Key(k), Some(v)) => v.get(k.as_str()),
            (_, Segment::Index(i), Some(v)) => v.as_array().and_then(|a| a.get(*i)),
            _ => None,
        };
    }
    let old = at.ok_or_else(|| {
        format!("'{path}' is not written in the file; expected the path of a number the file sets")
    })?;
    let new = match (old, step) {
        (toml::Value::Integer(o), Value::Integer(s)) => o
            .checked_add(*s.value())
            .map(Value::from)
            .ok_or_else(|| format!("{o} + {} does not fit an integer", s.value()))?,
        (toml::Value::Integer(o), Value::Float(s)) => Value::from(*o as f64 + s.value()),
        (toml::Value::Float(o), Value::Integer(s)) => Value::from(o + *s.value() as f64),
        (toml::Value::Float(o), Value::Float(s)) => Value::from(o + s.value()),
        (toml::Value::Integer(_) | toml::Value::Float(_), other) => {
            return Err(format!(
                "the step is {}; expected a number",
                describe(other)
            ));
        }
        _ => {
            return Err(format!(
                "'{path}' is not a number; expected the path of a number"
            ));
        }
    };
    let mut doc = document.clone();
    set_item(doc.as_item_mut(), &segments, new.clone())?;
    Ok((doc.to_string(), new))
}

/// Splits `a.skill`, `rules.table[2][3]`, `weapons."long sword".damage` or `rules.table.2`.
fn parse_path(path: &str) -> Result<Vec<Segment>, String> {
    let mut segments = Vec::new();
    let mut chars = path.chars().peekable();
    let bad = || {
        format!(
            "'{path}' is not a dotted path; expected keys joined by '.', with [n] for a list entry"
        )
    };
    loop {
        let mut key = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next() {
                    Some('"') => break,
                    Some(c) => key.push(c),
                    None => return Err(bad()),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c == '.' || c == '[' {
                    break;
                }
                key.push(c);
                chars.next();
            }
        }
        if key.is_empty() {
            return Err(bad());
        }
        match key.parse::<usize>() {
            Ok(i) if !segments.is_empty() => segments.push(Segment::Index(i)),
            _ => segments.push(Segment::Key(key)),
        }
        while chars.peek() == Some(&'[') {
            chars.next();
            let mut digits = String::new();
            for c in chars.by_ref() {
                if c == ']' {
                    break;
                }
                digits.push(c);
            }
            segments.push(Segment::Index(digits.trim().parse().map_err(|_| bad())?));
        }
        match chars.next() {
            None => return Ok(segments),
            Some('.') => {}
            Some(_) => return Err(bad()),
        }
    }
}

/// The points of a sweep: for each, the index of each axis's value (first axis slowest).
pub fn combinations(axes: &[Axis]) -> Vec<Vec<usize>> {
    let mut all = vec![Vec::new()];
    for axis in axes {
        all = all
            .into_iter()
            .flat_map(|prefix| {
                (0..axis.values.len()).map(move |i| {
                    let mut next = prefix.clone();
                    next.push(i);
                    next
                })
            })
            .collect();
    }
    all
}

/// Writes in the ruleset's documented default of every `[rules]` or `[healing]` table whose
/// cell a sweep indexes but the file does not write, so `rules.damage[6]` can be swept
/// without copying the whole table into the file.
pub fn fill_defaults(document: &mut DocumentMut, axes: &[Axis], parameters: &[Parameter]) {
    for axis in axes {
        let [
            Segment::Key(section),
            Segment::Key(key),
            Segment::Index(_),
            ..,
        ] = axis.segments.as_slice()
        else {
            continue;
        };
        let written = document
            .get(section)
            .and_then(Item::as_table_like)
            .is_some_and(|t| t.contains_key(key));
        if written {
            continue;
        }
        let default = parameters
            .iter()
            .find(|p| p.section == section && p.key == key)
            .and_then(|p| p.default.parse::<Value>().ok());
        if let Some(value) = default {
            let _ = set_item(
                document.as_item_mut(),
                &[Segment::Key(section.clone()), Segment::Key(key.clone())],
                value,
            );
        }
    }
}

/// The file's text with each axis set to the chosen value.
pub fn apply(
    source: &Source,
    document: &DocumentMut,
    axes: &[Axis],
    choice: &[usize],
) -> Result<String, InputError> {
    let mut doc = document.clone();
    for (axis, &i) in axes.iter().zip(choice) {
        set_item(doc.as_item_mut(), &axis.segments, axis.values[i].clone()).map_err(|message| {
            source.error_at(
                Some(axis.span.clone()),
                Some(&format!("sweep.{}", axis.path)),
                message,
            )
        })?;
    }
    Ok(doc.to_string())
}

/// Replaces a value keeping the spacing and comment around it.
fn replace(old: &mut Value, new: Value) {
    let decor = old.decor().clone();
    *old = new;
    *old.decor_mut() = decor;
}

fn set_item(item: &mut Item, segments: &[Segment], value: Value) -> Result<(), String> {
    let Some((first, rest)) = segments.split_first() else {
        return match item {
            Item::Value(old) => {
                replace(old, value);
                Ok(())
            }
            _ => Err("names a whole table; expected the path of a single value in it".into()),
        };
    };
    match (first, item) {
        (Segment::Index(i), Item::ArrayOfTables(array)) => {
            let len = array.len();
            let table = array
                .get_mut(*i)
                .ok_or_else(|| format!("index {i} is past the end of a list of {len} tables"))?;
            if rest.is_empty() {
                return Err(
                    "names a whole table; expected the path of a single value in it".into(),
                );
            }
            set_in_table(table, rest, value)
        }
        (_, Item::Value(v)) => set_value(v, segments, value),
        (Segment::Key(_), item) => match item.as_table_like_mut() {
            Some(table) => set_in_table(table, segments, value),
            None => Err("goes through a value that is not a table".into()),
        },
        (Segment::Index(i), _) => Err(format!("[{i}] indexes something that is not a list")),
    }
}

/// Sets a value below a `[table]` (inline tables are values: [`set_value`]).
fn set_in_table(
    table: &mut dyn TableLike,
    segments: &[Segment],
    value: Value,
) -> Result<(), String> {
    let Some((Segment::Key(key), rest)) = segments.split_first() else {
        return Err("indexes a table; expected a key".into());
    };
    if table.get(key).is_none() {
        if rest.is_empty() {
            table.insert(key, Item::Value(value));
            return Ok(());
        }
        if matches!(rest.first(), Some(Segment::Index(_))) {
            return Err(format!(
                "'{key}' is not in the file, so it cannot be indexed"
            ));
        }
        table.insert(key, Item::Table(Table::new()));
    }
    match table.get_mut(key) {
        Some(item) => set_item(item, rest, value),
        None => Err(format!("cannot add '{key}'")),
    }
}

fn set_value(target: &mut Value, segments: &[Segment], value: Value) -> Result<(), String> {
    let Some((first, rest)) = segments.split_first() else {
        replace(target, value);
        return Ok(());
    };
    match (first, target) {
        (Segment::Index(i), Value::Array(array)) => {
            let len = array.len();
            let inner = array
                .get_mut(*i)
                .ok_or_else(|| format!("index {i} is past the end of a list of {len}"))?;
            set_value(inner, rest, value)
        }
        (Segment::Key(key), Value::InlineTable(table)) => {
            if table.get(key).is_none() {
                if rest.is_empty() {
                    table.insert(key, value);
                    return Ok(());
                }
                table.insert(key, Value::InlineTable(InlineTable::new()));
            }
            match table.get_mut(key) {
                Some(inner) => set_value(inner, rest, value),
                None => Err(format!("cannot add '{key}'")),
            }
        }
        (Segment::Index(i), _) => Err(format!("[{i}] indexes something that is not a list")),
        (Segment::Key(key), _) => Err(format!(
            "'{key}' is looked up in a value that is not a table"
        )),
    }
}

/// The sweeps whose values the fight does not tell apart, said as warnings: points that differ
/// only in one swept value and give the same fights, trial for trial, on the same dice (`same`
/// compares two points' results). "b.attack: 20 and 40 give the same fights ..." for some of a
/// sweep's values, "weapons.dagger.damage changes nothing the fight reads ..." for all of them.
pub fn unread(swept: &[Vec<(String, String)>], same: impl Fn(usize, usize) -> bool) -> Vec<String> {
    let Some(first) = swept.first() else {
        return Vec::new();
    };
    let mut warnings = Vec::new();
    for (k, (key, _)) in first.iter().enumerate() {
        let classes = alike_values(swept, k, &same);
        let values = distinct_values(swept, k).len();
        let said = |class: &[&str]| match class {
            [init @ .., last] => format!("{} and {last}", init.join(", ")),
            [] => String::new(),
        };
        match classes.as_slice() {
            [all] if all.len() == values => warnings.push(format!(
                "{key} changes nothing the fight reads: its values {} give the same fights, trial for trial, on the same dice",
                said(all)
            )),
            _ => warnings.extend(classes.iter().map(|class| {
                format!(
                    "{key}: {} give the same fights, trial for trial, on the same dice; the fight does not tell them apart",
                    said(class)
                )
            })),
        }
    }
    warnings
}

/// The values of the `k`th swept path, in order of first appearance.
fn distinct_values(swept: &[Vec<(String, String)>], k: usize) -> Vec<&str> {
    let mut values: Vec<&str> = Vec::new();
    for point in swept {
        if let Some((_, v)) = point.get(k)
            && !values.contains(&v.as_str())
        {
            values.push(v);
        }
    }
    values
}

/// The sets of two or more values of the `k`th swept path that `same` cannot tell apart: two
/// values are alike when, in every group of points that differ only in that path, the points
/// with those values are the same (and some group has both).
fn alike_values(
    swept: &[Vec<(String, String)>],
    k: usize,
    same: impl Fn(usize, usize) -> bool,
) -> Vec<Vec<&str>> {
    let values = distinct_values(swept, k);
    if values.len() < 2 {
        return Vec::new();
    }
    // Each group (the point without path k): the first point of each value in it.
    let mut groups: std::collections::BTreeMap<Vec<&(String, String)>, Vec<Option<usize>>> =
        std::collections::BTreeMap::new();
    for (p, point) in swept.iter().enumerate() {
        let Some((_, v)) = point.get(k) else { continue };
        let rest: Vec<&(String, String)> = (point.iter().enumerate())
            .filter(|&(j, _)| j != k)
            .map(|(_, kv)| kv)
            .collect();
        let slots = groups
            .entry(rest)
            .or_insert_with(|| vec![None; values.len()]);
        if let Some(i) = values.iter().position(|x| x == v) {
            slots[i].get_or_insert(p);
        }
    }
    let alike = |i: usize, j: usize| {
        let mut both = groups
            .values()
            .filter_map(|slots| Some((slots[i]?, slots[j]?)))
            .peekable();
        both.peek().is_some() && both.all(|(p, q)| same(p, q))
    };
    let mut classed = vec![false; values.len()];
    let mut classes = Vec::new();
    for i in 0..values.len() {
        if classed[i] {
            continue;
        }
        let mut class = vec![values[i]];
        for j in i + 1..values.len() {
            if !classed[j] && alike(i, j) {
                classed[j] = true;
                class.push(values[j]);
            }
        }
        if class.len() > 1 {
            classes.push(class);
        }
    }
    classes
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn source(text: &str) -> Source<'_> {
        Source {
            path: Path::new("s.toml"),
            text,
        }
    }

    #[test]
    fn paths_split_into_keys_and_indexes() {
        assert_eq!(
            parse_path("rules.table[2][3]"),
            Ok(vec![
                Segment::Key("rules".into()),
                Segment::Key("table".into()),
                Segment::Index(2),
                Segment::Index(3)
            ])
        );
        assert_eq!(
            parse_path("weapons.\"long sword\".damage.1"),
            Ok(vec![
                Segment::Key("weapons".into()),
                Segment::Key("long sword".into()),
                Segment::Key("damage".into()),
                Segment::Index(1)
            ])
        );
        assert!(parse_path("a..b").is_err());
        assert!(parse_path("a[x]").is_err());
    }

    #[test]
    fn lists_and_ranges_make_a_cross_product_first_axis_slowest() {
        let text = "[a]\nskill = 10\n[sweep]\n\"b.armour\" = [\"mail\", \"plate\"]\na.skill = { from = 8, to = 12, step = 2 }\n";
        let axes = axes(&source(text)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(axes.len(), 2);
        assert_eq!(axes[0].path, "b.armour");
        assert_eq!(axes[0].labels, ["mail", "plate"]);
        assert!(!axes[0].numeric);
        assert_eq!(axes[1].path, "a.skill");
        assert_eq!(axes[1].labels, ["8", "10", "12"]);
        assert!(axes[1].numeric);
        let c = combinations(&axes);
        assert_eq!(c.len(), 6);
        assert_eq!(c[0], [0, 0]);
        assert_eq!(c[1], [0, 1]);
        assert_eq!(c[3], [1, 0]);
    }

    #[test]
    fn decimal_ranges_land_on_their_end() {
        let t: InlineTable = "{ from = 0.1, to = 0.5, step = 0.1 }"
            .parse::<Value>()
            .ok()
            .and_then(|v| v.as_inline_table().cloned())
            .unwrap_or_default();
        let v = range(&t).unwrap_or_default();
        let labels: Vec<String> = v.iter().map(text_of).collect();
        assert_eq!(labels, ["0.1", "0.2", "0.3", "0.4", "0.5"]);
    }

    #[test]
    fn applying_a_point_rewrites_values_in_place_and_adds_missing_ones() {
        let text = "name = \"x\"\n[a]\nskill = 10 # kept\n[rules]\ntable = [[1, 2], [3, 4]]\n[sweep]\na.skill = [14]\n\"rules.table[1][0]\" = [9]\n\"rules.extra\" = [true]\n\"healing.days\" = [5]\n";
        let src = source(text);
        let axes = axes(&src).unwrap_or_else(|e| panic!("{e}"));
        let doc: DocumentMut = text.parse().unwrap_or_default();
        let out = apply(&src, &doc, &axes, &[0, 0, 0, 0]).unwrap_or_else(|e| panic!("{e}"));
        let back: toml::Table = toml::from_str(&out).unwrap_or_else(|e| panic!("{e}\n{out}"));
        assert_eq!(back["a"]["skill"].as_integer(), Some(14));
        assert_eq!(back["rules"]["table"][1][0].as_integer(), Some(9));
        assert_eq!(back["rules"]["extra"].as_bool(), Some(true));
        assert_eq!(back["healing"]["days"].as_integer(), Some(5));
        assert!(out.contains("skill = 14 # kept"), "{out}");
        assert_eq!(
            out.lines().position(|l| l.starts_with("skill")),
            text.lines().position(|l| l.starts_with("skill"))
        );
    }

    #[test]
    fn bad_sweeps_are_errors_at_their_entry() {
        for (text, expected) in [
            ("[sweep]\nseed = [1, 2]\n", "cannot be swept"),
            ("[sweep]\n\"a.skill\" = []\n", "empty list"),
            ("[sweep]\n\"a.skill\" = { from = 5, to = 1 }\n", "below"),
            ("[sweep]\n\"a.skill\" = { from = 5 }\n", "both"),
            ("[sweep]\n\"a.skill\" = 5\n", "expected a list"),
            ("[sweep]\n", "is empty"),
            (
                "[sweep]\n\"a.skill\" = { from = 1, to = 1000000 }\n",
                "at most",
            ),
        ] {
            let e = match axes(&source(text)) {
                Ok(_) => panic!("{text} was accepted"),
                Err(e) => e,
            };
            assert!(e.message.contains(expected), "{text}: {e}");
            assert!(e.place.starts_with("s.toml:"), "{e}");
        }
    }

    #[test]
    fn extreme_ranges_are_refused_not_wrapped() {
        // Point counts past any integer, and points that would not be distinct when written.
        for (text, expected) in [
            (
                "[sweep]\n\"a.skill\" = { from = 0, to = 1e300, step = 1e-300 }\n",
                "at most",
            ),
            (
                "[sweep]\n\"a.skill\" = { from = -9223372036854775808, to = 9223372036854775807 }\n",
                "at most",
            ),
            (
                "[sweep]\n\"a.skill\" = { from = 0, to = 1, step = 5e-324 }\n",
                "at most",
            ),
            (
                "[sweep]\n\"a.skill\" = { from = 1.0, to = 1.0000000000000002, step = 4e-18 }\n",
                "distinct",
            ),
        ] {
            let e = match axes(&source(text)) {
                Ok(a) => panic!(
                    "{text} was accepted: {:?}",
                    a.first().map(|a| a.labels.len())
                ),
                Err(e) => e,
            };
            assert!(e.message.contains(expected), "{text}: {e}");
        }
    }

    #[test]
    fn a_path_overlaps_itself_as_written_and_what_lies_around_or_inside_it() {
        let text = "[sweep]\n\"rules.table[2]\" = [[1, 2]]\n\"b.melee_ml\" = [50]\n";
        let axes = axes(&source(text)).unwrap_or_else(|e| panic!("{e}"));
        assert!(axes[0].overlaps("rules.table.2"));
        assert!(axes[0].overlaps("rules.table[2][1]"));
        assert!(axes[0].overlaps("rules.table"));
        assert!(!axes[0].overlaps("rules.table[3]"));
        assert!(axes[1].overlaps("\"b\".melee_ml"));
        assert!(!axes[1].overlaps("a.melee_ml"));
        assert!(!axes[1].overlaps("b.melee"));
    }

    #[test]
    fn an_index_past_the_end_is_an_error() {
        let text = "[rules]\ntable = [1, 2]\n[sweep]\n\"rules.table[5]\" = [1]\n";
        let src = source(text);
        let axes = axes(&src).unwrap_or_else(|e| panic!("{e}"));
        let doc: DocumentMut = text.parse().unwrap_or_default();
        let e = apply(&src, &doc, &axes, &[0]).err().map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.contains("past the end") && e.contains("s.toml:4")));
    }
}
