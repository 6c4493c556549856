//! Scenario files: reading, validating and compiling them into the flat models the engine runs.
//!
//! `load` reads a TOML file, finds its ruleset among those a [`Rulesets`] catalogue offers (the
//! registry, `crate::rules::registry`), has the catalogue read the rest with that ruleset's
//! schema (serde, unknown keys refused), expands sweeps, weights and balances, and returns a
//! [`Scenario`] whose points hold compiled models with no strings or maps on the hot path.
//! Every problem is an [`InputError`] naming file, line, column and field. Nothing here names a
//! ruleset or runs a trial.

pub mod balance;
pub mod bounds;
pub mod campaign;
pub mod characters;
pub mod compare;
pub mod error;
pub mod fields;
pub mod grid;
pub mod schema;
pub mod sweep;

use error::{InputError, Source, unknown_name};
use schema::{Envelope, Parameter};
use std::path::{Path, PathBuf};

/// What reading a scenario needs of the rulesets, supplied by the registry
/// (`crate::rules::registry`): which ids exist, each one's documented defaults, and how a
/// document becomes a compiled model. Scenario reading itself knows no ruleset by name.
pub trait Rulesets {
    /// A compiled model of one point.
    type Model: Clone + std::fmt::Debug;

    /// Every ruleset id a scenario may name, in the catalogue's order.
    fn ids() -> Vec<&'static str>;

    /// The ids that also read `kind = "recovery"` scenarios (a patient healing, no duel).
    fn with_recovery() -> Vec<&'static str>;

    /// The documented parameters of ruleset `id` (a sweep writes their defaults in).
    fn parameters(id: &str) -> &'static [Parameter];

    /// The ids that also read `kind = "campaign"` scenarios (encounters in a row).
    fn with_campaign() -> Vec<&'static str>;

    /// Reads the whole of `source` (whose `ruleset` is `id`) with that ruleset's schema and
    /// compiles it into a scenario of one point (or one per healer set, for a recovery).
    fn build(id: &str, kind: Kind, source: &Source) -> Result<Scenario<Self::Model>, InputError>;
}

/// What a scenario runs: `kind = "duel"` (the default: a fight of two fighters or two sides),
/// `"recovery"` (a patient healing, no fight) or `"campaign"` (a party's encounters in a row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A fight, and its survivors' healing.
    Duel,
    /// One patient's healing.
    Recovery,
    /// Encounters in a row, with rest between.
    Campaign,
}

/// One point of a scenario: the values swept to reach it and its compiled model.
#[derive(Clone, Debug)]
pub struct Point<M> {
    /// The swept parameters and their values at this point, in the file's order.
    pub swept: Vec<(String, String)>,
    /// What runs.
    pub model: M,
}

/// A precision target: run each point until the 95% intervals of both win rates are no wider
/// than `half_width` either side, or until `max_trials`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Precision {
    /// The widest acceptable half-width of each win rate's 95% Wilson interval.
    pub half_width: f64,
    /// The trial cap per point.
    pub max_trials: u64,
}

/// The texts a scenario was read from: its file, and each catalogue as the file names it.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    /// The scenario file's text.
    pub text: String,
    /// Each catalogue: the path as written in `catalogues`, and the text read.
    pub catalogues: Vec<(String, String)>,
}

impl Sources {
    /// The bytes of every catalogue read.
    pub fn catalogue_bytes(&self) -> usize {
        self.catalogues.iter().map(|(_, t)| t.len()).sum()
    }
}

/// A validated scenario; `M` is the compiled model of a point (the registry's `Model`).
#[derive(Clone, Debug)]
pub struct Scenario<M> {
    /// The file it came from.
    pub path: PathBuf,
    /// Its name (the output folder's name).
    pub name: String,
    /// Its description, if any.
    pub description: Option<String>,
    /// The ruleset id.
    pub ruleset: &'static str,
    /// The seed.
    pub seed: u64,
    /// Trials per point; with `precision`, the most a point may run.
    pub trials: u64,
    /// Stop each point at the first whole chunk where both win rates are this precise.
    pub precision: Option<Precision>,
    /// SHA-256 of the file's bytes (and its catalogues'), in hex ([`sha256_hex`]).
    pub source_hash: String,
    /// The texts it was read from, which a shard folder carries so that `merge` needs no copy
    /// of the scenario at the same path.
    pub sources: Sources,
    /// The points to run.
    pub points: Vec<Point<M>>,
    /// The point every other is compared with on the same dice (`[compare]`), if any.
    pub baseline: Option<usize>,
    /// A search for the value where a rate crosses a target (`[balance]`), if any.
    pub balance: Option<balance::Balance>,
}

impl<M> Scenario<M> {
    /// The same scenario with every point's model passed through `f` (a ruleset's own model
    /// into the registry's).
    pub fn map_models<N>(self, f: impl Fn(M) -> N) -> Scenario<N> {
        Scenario {
            path: self.path,
            name: self.name,
            description: self.description,
            ruleset: self.ruleset,
            seed: self.seed,
            trials: self.trials,
            precision: self.precision,
            source_hash: self.source_hash,
            sources: self.sources,
            points: self
                .points
                .into_iter()
                .map(|p| Point {
                    swept: p.swept,
                    model: f(p.model),
                })
                .collect(),
            baseline: self.baseline,
            balance: self.balance,
        }
    }

    /// The model point `i` is compared with: the baseline's, for every point but the baseline.
    pub fn baseline_of(&self, i: usize) -> Option<&M> {
        self.baseline
            .filter(|&b| b != i)
            .and_then(|b| self.points.get(b))
            .map(|p| &p.model)
    }

    /// Each swept path with its distinct values in point order (the same order of paths as
    /// every point's `swept`); empty when nothing is swept.
    pub fn swept_values(&self) -> Vec<(String, Vec<String>)> {
        let mut axes: Vec<(String, Vec<String>)> = self
            .points
            .first()
            .map(|p| {
                p.swept
                    .iter()
                    .map(|(k, _)| (k.clone(), Vec::new()))
                    .collect()
            })
            .unwrap_or_default();
        for point in &self.points {
            for ((_, values), (_, v)) in axes.iter_mut().zip(&point.swept) {
                if !values.contains(v) {
                    values.push(v.clone());
                }
            }
        }
        axes
    }
}

/// A duel's scenario text with `count = n` on each side whose `[a]` or `[b]` table names its
/// fighter (the line after `name = ...`): the same fighters, `n` against `n`. For the benches
/// and tests that fight each ruleset's example duel as a skirmish.
pub fn every_side_of(text: &str, n: u32) -> String {
    let mut out = String::with_capacity(text.len() + 32);
    let mut side = false;
    for line in text.lines() {
        out.push_str(line);
        out.push('\n');
        if line == "[a]" || line == "[b]" {
            side = true;
        } else if side && line.starts_with("name = ") {
            out.push_str(&format!("count = {n}\n"));
            side = false;
        }
    }
    out
}

/// Reads, validates and compiles a scenario file with the rulesets of `R`.
pub fn load<R: Rulesets>(path: &Path) -> Result<Scenario<R::Model>, InputError> {
    let text = error::read_text(path, "scenario file")?;
    parse::<R>(path, &text)
}

/// Validates and compiles scenario text read from `path`: the file as written, then each
/// point of its `[sweep]` (the file with the point's values written in).
pub fn parse<R: Rulesets>(path: &Path, text: &str) -> Result<Scenario<R::Model>, InputError> {
    let source = Source { path, text };
    bounds::check(&source)?;
    characters::check(&source)?;
    let _catalogues = schema::CatalogueScope::open();
    let base = parse_one::<R>(path, text)?;
    let axes = sweep::axes(&source)?;
    sweep::check_entries(&source, &axes)?;
    let weights = compare::weights(&source)?;
    let balance = balance::read(&source)?;
    if let Some(balance) = &balance {
        if let Some(weight) = weights.first() {
            return Err(source.error_at(
                Some(weight.span.clone()),
                Some("weights"),
                "cannot be combined with [balance]; expected one of [weights] or [balance] in a file",
            ));
        }
        let compared = toml_edit::Document::parse(text).is_ok_and(|d| d.get("compare").is_some());
        if compared {
            return Err(source.error_at(
                source.span_of(&["compare"]),
                Some("compare"),
                "cannot be combined with [balance] (every value a search runs, at every sweep point, is on the same dice already); expected one of [compare] or [balance] in a file",
            ));
        }
        if axes.is_empty() {
            // Each value the search tries is the file with it written in, read again.
            sweep::bound_work(
                &source,
                source.span_of(&["balance"]),
                "balance",
                "evaluations",
                balance.evaluations_at_most() as usize,
                text.len() + base.sources.catalogue_bytes(),
            )?;
            // The ends must compile: a bad path or value is an error now, not after a long run.
            check_ends::<R>(balance).map_err(|e| placed_in_file(&source, e, None))?;
            return Ok(Scenario {
                balance: Some(balance.clone()),
                ..base
            });
        }
        if let Some(axis) = axes.iter().find(|a| a.overlaps(&balance.path)) {
            return Err(InputError {
                place: axis.place(&source),
                field: Some(format!("sweep.{}", axis.path)),
                message: format!(
                    "sweeps the value [balance] searches (path = \"{}\"), which each search sets itself; expected the sweep to vary other values",
                    balance.path
                ),
            });
        }
    }
    if !weights.is_empty() {
        if !axes.is_empty() {
            return Err(source.error_at(
                Some(weights[0].span.clone()),
                Some("weights"),
                "cannot be combined with a [sweep]; expected one of [weights] or [sweep] in a file",
            ));
        }
        return weigh::<R>(&source, base, &weights);
    }
    if axes.is_empty() {
        let _ = compare::baseline(&source, &[Vec::new()])?;
        return Ok(base);
    }
    let mut document: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e| source.error_at(None, None, format!("cannot read for the sweep: {e}")))?;
    sweep::fill_defaults(&mut document, &axes, R::parameters(base.ruleset));
    // A point is the file with its values written in; its `[sweep]` (as long as the file
    // itself, for a long list) is not read again for each point, so checking a sweep takes
    // time in proportion to its points, not their square.
    let sweep_span = source.span_of(&["sweep"]);
    document.remove("sweep");
    let combinations = sweep::combinations(&axes);
    sweep::bound_work(
        &source,
        sweep_span,
        "sweep",
        "points",
        combinations.len(),
        document.to_string().len() + base.sources.catalogue_bytes(),
    )?;
    let mut points = Vec::new();
    // With a [balance], each point's text: its search is the search of that file.
    let mut texts = Vec::new();
    for choice in combinations {
        let written = sweep::apply(&source, &document, &axes, &choice)?;
        let values: Vec<(String, String)> = axes
            .iter()
            .zip(&choice)
            .map(|(axis, &i)| (axis.path.clone(), axis.labels[i].clone()))
            .collect();
        let at = values
            .iter()
            .map(|(k, v)| format!("{k} = {v}"))
            .collect::<Vec<_>>()
            .join(", ");
        let point = parse_one::<R>(path, &written).map_err(|e| {
            // An error about a swept value is placed at its [sweep] entry.
            let entry = e
                .field
                .as_deref()
                .and_then(|f| axes.iter().zip(&choice).find(|(a, _)| a.concerns(f)));
            // Any other at its key in the file as written (the point's text has no [sweep],
            // so its lines after where the [sweep] was are not the file's).
            let place = match entry {
                Some((a, &value)) => a.place_of_value(&source, value),
                None => {
                    let field = e.field.as_deref().unwrap_or_default();
                    let written = source.span_of(&field.split('.').collect::<Vec<_>>());
                    match (written, axes.iter().find(|a| a.inside(field))) {
                        (Some(span), _) => source.error_at(Some(span), None, "").place,
                        // A table the file does not write, which only the sweep adds.
                        (None, Some(a)) => a.place(&source),
                        (None, None) => e.place,
                    }
                }
            };
            InputError {
                place,
                field: e.field,
                message: format!("{} (at the sweep point {at})", e.message),
            }
        })?;
        if balance.is_some() && point.points.len() != 1 {
            return Err(source.error_at(
                source.span_of(&["balance"]),
                Some("balance"),
                format!(
                    "searches one duel at each sweep point, but the point {at} has {} points (a patient with several sets of healers); expected a duel",
                    point.points.len()
                ),
            ));
        }
        for p in point.points {
            let mut swept = values.clone();
            swept.extend(p.swept);
            points.push(Point {
                swept,
                model: p.model,
            });
        }
        if balance.is_some() {
            texts.push((at, written));
        }
    }
    if let Some(balance) = balance {
        return balance_at_points::<R>(&source, base, balance, points, texts);
    }
    let swept: Vec<Vec<(String, String)>> = points.iter().map(|p| p.swept.clone()).collect();
    let baseline = compare::baseline(&source, &swept)?;
    Ok(Scenario {
        points,
        baseline,
        ..base
    })
}

/// An error from compiling a `[balance]` search's text, placed in the file as written: at the
/// key it names when the file writes it, else at the `path` the search sets (the search's text
/// is the file with that value written in: its lines are not the file's).
fn placed_in_file(source: &Source, e: InputError, at_point: Option<&str>) -> InputError {
    let span = e
        .field
        .as_deref()
        .and_then(|f| source.span_of(&f.split('.').collect::<Vec<_>>()))
        .or_else(|| source.span_of(&["balance", "path"]))
        .or_else(|| source.span_of(&["balance"]));
    InputError {
        place: source.error_at(span, None, "").place,
        field: e.field,
        message: match at_point {
            Some(at) => format!("{} (at the sweep point {at})", e.message),
            None => e.message,
        },
    }
}

/// Checks that a search's ends (and a real range's middle) compile: a bad path or value is an
/// error now, not after a long run.
fn check_ends<R: Rulesets>(balance: &balance::Balance) -> Result<(), InputError> {
    balance.model_at::<R>(balance.from)?;
    balance.model_at::<R>(balance.to)?;
    if !balance.integer {
        balance.model_at::<R>((balance.from + balance.to) / 2.0)?;
    }
    Ok(())
}

/// A `[balance]` with a `[sweep]`: the sweep's points, each with its own search (the file with
/// the point's values written in, searched as a file of that point alone would be). `texts` are
/// the points' values in words (`b.armour = plate`) and texts, in point order. The work is
/// bounded by every evaluation of every point, and each point's ends must compile.
fn balance_at_points<R: Rulesets>(
    source: &Source,
    base: Scenario<R::Model>,
    balance: balance::Balance,
    points: Vec<Point<R::Model>>,
    texts: Vec<(String, String)>,
) -> Result<Scenario<R::Model>, InputError> {
    let span = source.span_of(&["balance"]);
    let longest = texts.iter().map(|(_, t)| t.len()).max().unwrap_or(0);
    let per_point = balance.evaluations_at_most() as usize;
    let evaluations = texts.len().saturating_mul(per_point);
    // Every evaluation of every point is a tally the run keeps for its report.
    if evaluations > sweep::MAX_POINTS {
        return Err(source.error_at(
            span.clone(),
            Some("balance"),
            format!(
                "searches at {} sweep points of up to {per_point} evaluations each, {evaluations} in all; expected at most {} evaluations (fewer sweep points, or a narrower range)",
                texts.len(),
                sweep::MAX_POINTS
            ),
        ));
    }
    sweep::bound_work(
        source,
        span.clone(),
        "balance",
        "evaluations",
        evaluations,
        longest + base.sources.catalogue_bytes(),
    )?;
    let (at, texts): (Vec<String>, Vec<String>) = texts.into_iter().unzip();
    let balance = balance.at_points(texts);
    for (search, at) in balance.searches().iter().zip(&at) {
        check_ends::<R>(search).map_err(|e| placed_in_file(source, e, Some(at)))?;
    }
    Ok(Scenario {
        points,
        baseline: None,
        balance: Some(balance),
        ..base
    })
}

/// The points of `[weights]`: the file as written (the base, the baseline), then each entry's
/// value moved by its step; each point's swept value says which (`weights = "a.attack +1"`).
fn weigh<R: Rulesets>(
    source: &Source,
    base: Scenario<R::Model>,
    weights: &[compare::Weight],
) -> Result<Scenario<R::Model>, InputError> {
    let document: toml_edit::DocumentMut = source
        .text
        .parse()
        .map_err(|e| source.error_at(None, None, format!("cannot read for the weights: {e}")))?;
    sweep::bound_work(
        source,
        Some(weights[0].span.clone()),
        "weights",
        "entries",
        weights.len(),
        source.text.len() + base.sources.catalogue_bytes(),
    )?;
    let plain: toml::Table = toml::from_str(source.text).map_err(|e| source.from_toml(&e))?;
    let mut points = Vec::with_capacity(weights.len() + 1);
    for p in base.points {
        points.push(Point {
            swept: vec![("weights".to_owned(), "base".to_owned())],
            model: p.model,
        });
    }
    for w in weights {
        let field = format!("weights.{}", w.path);
        let (written, value) = sweep::stepped(&document, &plain, &w.path, &w.step)
            .map_err(|m| source.error_at(Some(w.span.clone()), Some(&field), m))?;
        let step = sweep::text_of(&w.step);
        let label = if step.starts_with('-') {
            format!("{} {step}", w.path)
        } else {
            format!("{} +{step}", w.path)
        };
        let point = parse_one::<R>(source.path, &written).map_err(|e| InputError {
            place: source.error_at(Some(w.span.clone()), None, "").place,
            field: Some(field.clone()),
            message: format!(
                "{} (with {} = {})",
                e.message,
                w.path,
                sweep::text_of(&value)
            ),
        })?;
        for p in point.points {
            points.push(Point {
                swept: vec![("weights".to_owned(), label.clone())],
                model: p.model,
            });
        }
    }
    Ok(Scenario {
        points,
        baseline: Some(0),
        ..base
    })
}

/// The model of a file with values written in at dotted paths (a `[balance]` value, a grid
/// cell): the text with each set, compiled as any scenario; `table` names the table asking
/// (`balance`, `exact.grid`) in errors.
pub(crate) fn model_with<R: Rulesets>(
    file: &Path,
    text: &str,
    table: &str,
    values: &[(&str, toml_edit::Value)],
) -> Result<R::Model, InputError> {
    let mut document: toml_edit::DocumentMut = text.parse().map_err(|e| InputError {
        place: file.display().to_string(),
        field: Some(table.to_owned()),
        message: format!("cannot read the file again: {e}"),
    })?;
    let mut written = Vec::new();
    for (path, value) in values {
        sweep::set_path(&mut document, path, value.clone()).map_err(|m| InputError {
            place: file.display().to_string(),
            field: Some(format!("{table} ({path})")),
            message: m,
        })?;
        written.push(format!("{path} = {}", value.to_string().trim()));
    }
    let scenario = parse_one::<R>(file, &document.to_string()).map_err(|e| InputError {
        message: format!("{} (at {})", e.message, written.join(", ")),
        ..e
    })?;
    scenario
        .points
        .into_iter()
        .next()
        .map(|p| p.model)
        .ok_or_else(|| InputError::plain(format!("{}: no point to compile", file.display())))
}

/// Validates and compiles one file's text, without expanding its sweep.
pub(crate) fn parse_one<R: Rulesets>(
    path: &Path,
    text: &str,
) -> Result<Scenario<R::Model>, InputError> {
    let source = Source { path, text };
    let envelope: schema::RulesetOnly = toml::from_str(text).map_err(|e| source.from_toml(&e))?;
    let ids = R::ids();
    let Some(ruleset) = envelope.ruleset else {
        // A missing top-level key is placed at the top of the file.
        return Err(source.error_at(
            Some(0..0),
            Some("ruleset"),
            format!("missing; expected one of: {}", ids.join(", ")),
        ));
    };
    let Some(&id) = ids.iter().find(|&&id| id == ruleset.get_ref()) else {
        return Err(source.error_at(
            Some(ruleset.span()),
            Some("ruleset"),
            unknown_name("ruleset", ruleset.get_ref(), &ids),
        ));
    };
    let kinds = ["duel", "recovery", "campaign"];
    let kind = match &envelope.kind {
        None => Kind::Duel,
        Some(k) if k.get_ref() == "duel" => Kind::Duel,
        Some(k) if k.get_ref() == "recovery" && R::with_recovery().contains(&id) => Kind::Recovery,
        Some(k) if k.get_ref() == "campaign" && R::with_campaign().contains(&id) => Kind::Campaign,
        Some(k) if k.get_ref() == "recovery" || k.get_ref() == "campaign" => {
            let which = if k.get_ref() == "recovery" {
                R::with_recovery()
            } else {
                R::with_campaign()
            };
            return Err(source.error_at(
                Some(k.span()),
                Some("kind"),
                format!(
                    "{} scenarios are supported for {} only, not '{id}'",
                    k.get_ref(),
                    which.join(", ")
                ),
            ));
        }
        Some(k) => {
            return Err(source.error_at(
                Some(k.span()),
                Some("kind"),
                unknown_name("kind", k.get_ref(), &kinds),
            ));
        }
    };
    R::build(id, kind, &source)
}

/// Reads the whole file with one ruleset's schema `F` and compiles it with `compile`: the
/// scenario of one point that a ruleset's entry in the registry returns.
pub fn build<F, M>(
    source: &Source,
    ruleset: &'static str,
    compile: impl Fn(&F, &Source) -> Result<M, InputError>,
) -> Result<Scenario<M>, InputError>
where
    F: for<'de> serde::Deserialize<'de> + Envelope,
{
    let mut file: F = toml::from_str(source.text).map_err(|e| source.from_toml(&e))?;
    let name = check_name(file.name(), source)?;
    let catalogues = file.load_catalogues(source)?;
    let mut identity = source.text.to_owned();
    for (_, text) in &catalogues {
        identity.push('\u{0}');
        identity.push_str(text);
    }
    let model = compile(&file, source)?;
    let precision = file.precision(source)?;
    Ok(Scenario {
        path: source.path.to_owned(),
        name,
        description: file.description().map(str::to_owned),
        ruleset,
        seed: file.seed(),
        trials: file.trials(),
        precision,
        source_hash: sha256_hex(identity.as_bytes()),
        sources: Sources {
            text: source.text.to_owned(),
            catalogues,
        },
        points: vec![Point {
            swept: Vec::new(),
            model,
        }],
        baseline: None,
        balance: None,
    })
}

/// The longest scenario name: it names the output folder, with room for `-exact` or
/// `-shard-K-of-N` within a file system's 255 bytes.
pub const MAX_NAME_CHARS: usize = 100;

/// The scenario name becomes a folder name: letters, digits, `-`, `_` and `.` only, at most
/// [`MAX_NAME_CHARS`].
pub(crate) fn check_name(
    name: &toml::Spanned<String>,
    source: &Source,
) -> Result<String, InputError> {
    let n = name.get_ref();
    if n.chars().count() > MAX_NAME_CHARS {
        return Err(source.error_at(
            Some(name.span()),
            Some("name"),
            format!(
                "is {} characters; expected at most {MAX_NAME_CHARS} (it names the output folder)",
                n.chars().count()
            ),
        ));
    }
    let ok = !n.is_empty()
        && !n.starts_with('.')
        && n.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(n.clone())
    } else {
        Err(source.error_at(
            Some(name.span()),
            Some("name"),
            format!("'{n}' cannot name the output folder; expected letters, digits, '-', '_' or '.', not starting with '.'"),
        ))
    }
}

/// SHA-256 of `bytes` as 64 hex digits: the digest of a scenario file (and its catalogues), a
/// tally, a journal and a shard description. It detects a damaged, truncated, edited or
/// foreign file; it does not authenticate one (anyone who rewrites a file on purpose can
/// recompute its digest).
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    let digest = sha2::Sha256::digest(bytes);
    let mut hex = String::with_capacity(64);
    for b in digest {
        hex.push_str(&format!("{b:02x}"));
    }
    hex
}
