//! The common shape of every scenario file, generic over what each ruleset puts in it.
//!
//! A scenario names its ruleset, seed, trial count and round limit, two fighters `a` and `b`,
//! named weapon and armour entries the fighters refer to, `[rules]` overrides of the ruleset's
//! constants and `[healing]` settings. Each ruleset supplies the types of those sections; this
//! module supplies the envelope. Unknown keys are errors everywhere.

use crate::scenario::Precision;
use crate::scenario::error::{InputError, Source, unknown_name};
use crate::scenario::fields::{Name, Ranged};
use crate::stats::Side;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::path::Path;
use toml::Spanned;

/// Trials run when a scenario does not say.
pub const DEFAULT_TRIALS: i64 = 100_000;
/// Rounds before a duel is a draw when a scenario does not say.
pub const DEFAULT_ROUND_LIMIT: i64 = 50;
/// The seed when a scenario does not say.
pub const DEFAULT_SEED: i64 = 1;

/// One documented parameter of a scenario file, as `duelsim rulesets <id>` lists it and a
/// sweep writes its default in.
#[derive(Clone, Copy, Debug)]
pub struct Parameter {
    /// The section it is written in (`rules`, `healing`, `a`/`b`, `weapons.<name>`, ...).
    pub section: &'static str,
    /// Its key.
    pub key: &'static str,
    /// Its default, as TOML (or `required`).
    pub default: &'static str,
    /// What it means and where it comes from.
    pub doc: &'static str,
}

/// A scenario file of one ruleset: `F` fighter, `W` weapon, `A` armour, `R` rules, `H` healing.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile<F, W, A, R, H> {
    /// The scenario's name; also the output folder's name.
    pub name: Spanned<String>,
    /// The ruleset id.
    pub ruleset: Spanned<String>,
    /// `duel` (the default); recovery scenarios have their own schema.
    #[serde(default)]
    pub kind: Option<Spanned<String>>,
    /// Free text shown in reports.
    #[serde(default)]
    pub description: Option<String>,
    /// Catalogue files (paths relative to this file) whose `[weapons]` and `[armour]` entries
    /// the scenario may refer to; its own entries of the same name take precedence.
    #[serde(default)]
    pub catalogues: Vec<Spanned<String>>,
    /// The seed every chunk's dice derive from.
    #[serde(default = "default_seed")]
    pub seed: Ranged<0, { i64::MAX }>,
    /// Trials per sweep point (absent: [`DEFAULT_TRIALS`], or `[precision]` decides).
    #[serde(default)]
    pub trials: Option<Ranged<1, 1_000_000_000_000>>,
    /// Stop each point when the win rates are known this precisely, instead of a fixed count.
    #[serde(default)]
    pub precision: Option<Spanned<PrecisionSpec>>,
    /// Values varied over the points (read by [`crate::scenario::sweep`]).
    #[serde(default)]
    pub sweep: Option<toml::Table>,
    /// The baseline point every other is compared with (read by [`crate::scenario::compare`]).
    #[serde(default)]
    pub compare: Option<toml::Table>,
    /// Paths and steps whose worth is measured (read by [`crate::scenario::compare`]).
    #[serde(default)]
    pub weights: Option<toml::Table>,
    /// A search for the value at which a rate crosses a target (read by
    /// [`crate::scenario::balance`]).
    #[serde(default)]
    pub balance: Option<toml::Table>,
    /// What `duelsim exact` tabulates (read by [`crate::scenario::grid`]).
    #[serde(default)]
    pub exact: Option<toml::Table>,
    /// Rounds before a duel is called a draw.
    #[serde(default = "default_round_limit")]
    pub round_limit: Ranged<1, 10_000>,
    /// Side `a`: one fighter (`[a]`) or a group (`[[a]]`).
    pub a: SideSpec<F>,
    /// Side `b`.
    pub b: SideSpec<F>,
    /// Weapons by name.
    #[serde(default = "BTreeMap::new")]
    pub weapons: BTreeMap<String, W>,
    /// Armour by name.
    #[serde(default = "BTreeMap::new")]
    pub armour: BTreeMap<String, A>,
    /// Overrides of the ruleset's constants.
    #[serde(default)]
    pub rules: R,
    /// Healing timeline settings (`[healing]`, or `[aftermath]`).
    #[serde(default, alias = "aftermath")]
    pub healing: H,
}

/// Implements [`FighterRefs`] for a fighter spec with `name: Option<String>`,
/// `weapon: Name` and `armour: Option<Name>` fields (every ruleset's).
#[macro_export]
macro_rules! fighter_refs {
    ($spec:ty) => {
        impl $crate::scenario::schema::FighterRefs for $spec {
            fn name(&self) -> Option<&str> {
                self.name.as_deref()
            }
            fn count(&self) -> u32 {
                self.count.as_ref().map_or(1, |c| c.get() as u32)
            }
            fn target(&self) -> Option<$crate::scenario::schema::Target> {
                self.target
            }
            fn weapon(&self) -> &$crate::scenario::fields::Name {
                &self.weapon
            }
            fn armour(&self) -> Option<&$crate::scenario::fields::Name> {
                self.armour.as_ref()
            }
        }
    };
}

/// The most fighters a side may hold (copies counted).
pub const MAX_SIDE: i64 = 16;

/// A side as the scenario writes it: one fighter (`[a]`, perhaps with `count = N` copies), or
/// a mixed group (`[[a]]`, an array of fighters, each with its own `count`).
#[derive(Clone, Debug)]
pub struct SideSpec<F> {
    /// The fighters as written, in order.
    pub entries: Vec<F>,
    /// Whether the side was written as an array (`[[a]]`).
    pub grouped: bool,
}

impl<'de, F: Deserialize<'de>> Deserialize<'de> for SideSpec<F> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Either<F>(std::marker::PhantomData<F>);
        impl<'de, F: Deserialize<'de>> serde::de::Visitor<'de> for Either<F> {
            type Value = SideSpec<F>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a fighter ([a]) or a group of fighters ([[a]])")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                map: M,
            ) -> Result<Self::Value, M::Error> {
                let one = F::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(SideSpec {
                    entries: vec![one],
                    grouped: false,
                })
            }
            fn visit_seq<S: serde::de::SeqAccess<'de>>(
                self,
                seq: S,
            ) -> Result<Self::Value, S::Error> {
                let entries =
                    Vec::<F>::deserialize(serde::de::value::SeqAccessDeserializer::new(seq))?;
                if entries.is_empty() {
                    return Err(serde::de::Error::custom(
                        "is an empty group; expected at least one fighter",
                    ));
                }
                Ok(SideSpec {
                    entries,
                    grouped: true,
                })
            }
        }
        deserializer.deserialize_any(Either(std::marker::PhantomData))
    }
}

/// Whom a fighter attacks when several foes are in the fight. Each is decided by the fight's
/// state and, for `random` only, a die: the same dice give the same choice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// A foe in the fight picked by a die, afresh for each attack.
    Random,
    /// The most hurt foe in the fight (the first in the roster among equals).
    Weakest,
    /// The least hurt foe in the fight (the first in the roster among equals).
    Strongest,
    /// One foe until it is out of the fight, then the first foe in the roster still in it.
    #[default]
    Same,
    /// Pairs off: a foe no ally keeps to while there is one (the first in the roster), else the
    /// first foe still in the fight; kept until it is out, as `same`.
    Pair,
}

impl Target {
    /// The word a scenario writes for it.
    pub fn word(self) -> &'static str {
        match self {
            Target::Random => "random",
            Target::Weakest => "weakest",
            Target::Strongest => "strongest",
            Target::Same => "same",
            Target::Pair => "pair",
        }
    }
}

/// One fighter of a side, as [`ScenarioFile::roster`] lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Enlisted {
    /// The entry of the side it comes from (0 for `[a]`; its place in `[[a]]`).
    pub entry: usize,
    /// Its name, numbered when several bear it.
    pub name: String,
    /// Whom it attacks.
    pub target: Target,
}

/// What the envelope needs to know of a ruleset's fighter.
pub trait FighterRefs {
    /// The name the scenario gives, if any.
    fn name(&self) -> Option<&str>;
    /// How many copies of it stand on its side (1 when the file does not say).
    fn count(&self) -> u32;
    /// Whom it attacks, when the file says.
    fn target(&self) -> Option<Target>;
    /// The key of `[weapons]` the fighter wields.
    fn weapon(&self) -> &Name;
    /// The key of `[armour]` the fighter wears, if any.
    fn armour(&self) -> Option<&Name>;
}

impl<F: FighterRefs, W, A, R, H> ScenarioFile<F, W, A, R, H> {
    /// The weapon and armour entries a fighter refers to; an unknown name is an error at the
    /// place it was written, suggesting the nearest known name.
    pub fn equipment(&self, side: Side, source: &Source) -> Result<(&W, Option<&A>), InputError> {
        self.equipment_of(side, self.fighter(side), source)
    }

    /// The weapon and armour entries one fighter of `side` refers to (one of a group).
    pub fn equipment_of(
        &self,
        side: Side,
        fighter: &F,
        source: &Source,
    ) -> Result<(&W, Option<&A>), InputError> {
        let key = side.key();
        let weapon = lookup(
            &self.weapons,
            fighter.weapon(),
            "weapon",
            &format!("{key}.weapon"),
            source,
        )?;
        // `none` is no armour, unless the file or a catalogue defines an armour of that name.
        let armour = match fighter.armour() {
            Some(name) if name.get_ref() == "none" && !self.armour.contains_key("none") => None,
            Some(name) => Some(lookup(
                &self.armour,
                name,
                "armour",
                &format!("{key}.armour"),
                source,
            )?),
            None => None,
        };
        Ok((weapon, armour))
    }

    /// The fighter of one side (the first of a group).
    pub fn fighter(&self, side: Side) -> &F {
        &self.side(side).entries[0]
    }

    /// One side as written.
    pub fn side(&self, side: Side) -> &SideSpec<F> {
        match side {
            Side::A => &self.a,
            Side::B => &self.b,
        }
    }

    /// Every fighter of one side, copies expanded, in the order written: each with the entry
    /// it comes from, its name (a name borne by several is numbered: "Brigand 1", "Brigand 2")
    /// and whom it attacks. More than [`MAX_SIDE`] is an error at the side.
    pub fn roster(&self, side: Side, source: &Source) -> Result<Vec<Enlisted>, InputError> {
        let spec = self.side(side);
        let mut roster = Vec::new();
        for (entry, fighter) in spec.entries.iter().enumerate() {
            let name = fighter
                .name()
                .map_or_else(|| side.key().to_owned(), str::to_owned);
            for _ in 0..fighter.count() {
                roster.push(Enlisted {
                    entry,
                    name: name.clone(),
                    target: fighter.target().unwrap_or_default(),
                });
            }
        }
        if roster.len() as i64 > MAX_SIDE {
            return Err(source.error_at(
                source.span_of(&[side.key()]),
                Some(side.key()),
                format!(
                    "holds {} fighters; expected at most {MAX_SIDE} on a side",
                    roster.len()
                ),
            ));
        }
        let borne = |name: &str| roster.iter().filter(|e| e.name == name).count();
        let shared: Vec<bool> = roster.iter().map(|e| borne(&e.name) > 1).collect();
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for (e, shared) in roster.iter_mut().zip(shared) {
            if shared {
                let n = seen.entry(e.name.clone()).or_insert(0);
                *n += 1;
                e.name = format!("{} {n}", e.name);
            }
        }
        Ok(roster)
    }

    /// The fighter's name, or `a` / `b` when the file gives none.
    pub fn fighter_name(&self, side: Side) -> String {
        self.fighter(side)
            .name()
            .map_or_else(|| side.key().to_owned(), str::to_owned)
    }
}

fn lookup<'f, T>(
    table: &'f BTreeMap<String, T>,
    name: &Name,
    what: &str,
    field: &str,
    source: &Source,
) -> Result<&'f T, InputError> {
    table.get(name.get_ref()).ok_or_else(|| {
        let known: Vec<&str> = table.keys().map(String::as_str).collect();
        source.error_at(
            Some(name.span()),
            Some(field),
            unknown_name(what, name.get_ref(), &known),
        )
    })
}

fn default_seed() -> Ranged<0, { i64::MAX }> {
    Ranged::new(DEFAULT_SEED)
}

/// `[precision]`: a target 95% interval half-width on the win rates, and a trial cap.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrecisionSpec {
    /// The widest acceptable half-width of the 95% interval of each side's win rate (0.005 is
    /// plus or minus half a percentage point).
    pub half_width: f64,
    /// The most trials one point may run before it stops regardless.
    #[serde(default = "default_max_trials")]
    pub max_trials: Ranged<1, 1_000_000_000_000>,
}

/// The trial cap of `[precision]` when the file gives none.
pub const DEFAULT_MAX_TRIALS: i64 = 10_000_000;

fn default_max_trials() -> Ranged<1, 1_000_000_000_000> {
    Ranged::new(DEFAULT_MAX_TRIALS)
}

fn default_round_limit() -> Ranged<1, 10_000> {
    Ranged::new(DEFAULT_ROUND_LIMIT)
}

/// Only the ruleset id, read first to know which schema the rest follows.
#[derive(Deserialize)]
pub(crate) struct RulesetOnly {
    pub ruleset: Option<Spanned<String>>,
    pub kind: Option<Spanned<String>>,
}

/// The envelope's fields, whatever the ruleset.
pub trait Envelope {
    /// The scenario's name as written.
    fn name(&self) -> &Spanned<String>;
    /// Its description.
    fn description(&self) -> Option<&str>;
    /// Its seed.
    fn seed(&self) -> u64;
    /// Its trials per point.
    fn trials(&self) -> u64;
    /// Its precision target, checked: `None` for a fixed trial count.
    fn precision(&self, source: &Source) -> Result<Option<Precision>, InputError>;
    /// Reads the catalogues the file names and adds their entries; returns each as written in
    /// the file with its text (they
    /// belong to the scenario's identity in the manifest).
    fn load_catalogues(&mut self, source: &Source) -> Result<Vec<(String, String)>, InputError>;
}

/// The most catalogue files a scenario names (a file named twice counts once).
pub const MAX_CATALOGUES: usize = 16;

thread_local! {
    /// The catalogues read while a [`CatalogueScope`] is open on this thread.
    static CATALOGUES: std::cell::RefCell<Option<std::collections::HashMap<std::path::PathBuf, std::sync::Arc<str>>>> =
        const { std::cell::RefCell::new(None) };
}

/// While alive, each catalogue is read from disk once on this thread, however many sweep
/// points, `[weights]` entries or grid corners read the scenario again (each is the file with
/// its values written in, catalogues and all). Opened for one scenario's reading
/// ([`crate::scenario::parse`]): a catalogue changed between two readings is read afresh.
pub struct CatalogueScope {
    opened: bool,
}

impl CatalogueScope {
    /// Opens a scope (nested scopes share the outermost).
    pub fn open() -> CatalogueScope {
        let opened = CATALOGUES.with(|c| {
            let mut c = c.borrow_mut();
            let opened = c.is_none();
            if opened {
                *c = Some(std::collections::HashMap::new());
            }
            opened
        });
        CatalogueScope { opened }
    }
}

impl Drop for CatalogueScope {
    fn drop(&mut self) {
        if self.opened {
            CATALOGUES.with(|c| *c.borrow_mut() = None);
        }
    }
}

/// A catalogue's text: from the open [`CatalogueScope`] if it read it already, else from disk.
fn catalogue_text(path: &Path) -> Result<std::sync::Arc<str>, InputError> {
    let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    let known = CATALOGUES.with(|c| c.borrow().as_ref().and_then(|m| m.get(&key).cloned()));
    if let Some(text) = known {
        return Ok(text);
    }
    let text: std::sync::Arc<str> = super::error::read_text(path, "catalogue")?.into();
    CATALOGUES.with(|c| {
        if let Some(m) = c.borrow_mut().as_mut() {
            m.insert(key, text.clone());
        }
    });
    Ok(text)
}

/// A catalogue file: weapons and armour entries of one ruleset.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Catalogue<W, A> {
    #[serde(default)]
    #[allow(dead_code)]
    description: Option<String>,
    #[serde(default = "BTreeMap::new")]
    weapons: BTreeMap<String, W>,
    #[serde(default = "BTreeMap::new")]
    armour: BTreeMap<String, A>,
}

impl<F, W: DeserializeOwned, A: DeserializeOwned, R, H> Envelope for ScenarioFile<F, W, A, R, H> {
    fn load_catalogues(&mut self, source: &Source) -> Result<Vec<(String, String)>, InputError> {
        let mut texts = Vec::new();
        let mut read: Vec<std::path::PathBuf> = Vec::new();
        let mut bytes = 0usize;
        for written in &self.catalogues {
            let dir = source.path.parent().unwrap_or_else(|| Path::new("."));
            let path = dir.join(written.get_ref());
            // A catalogue named again (by the same path, or another path to the same file) is
            // read once: its entries are in already.
            let same = std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone());
            if read.contains(&same) {
                continue;
            }
            if read.len() == MAX_CATALOGUES {
                return Err(source.error_at(
                    Some(written.span()),
                    Some("catalogues"),
                    format!("names more than {MAX_CATALOGUES} catalogues; expected at most {MAX_CATALOGUES}"),
                ));
            }
            read.push(same);
            let text = catalogue_text(&path).map_err(|e| {
                // A bad byte is placed in the catalogue itself; anything else at the entry.
                if e.place != path.display().to_string() {
                    return e;
                }
                source.error_at(
                    Some(written.span()),
                    Some("catalogues"),
                    format!("cannot use the catalogue {}: {}", path.display(), e.message),
                )
            })?;
            bytes += text.len();
            if bytes as u64 > super::error::MAX_FILE_BYTES {
                return Err(source.error_at(
                    Some(written.span()),
                    Some("catalogues"),
                    format!(
                        "the catalogues hold more than {} bytes in all by {}; expected at most 16 MiB of catalogues in all",
                        super::error::MAX_FILE_BYTES,
                        path.display()
                    ),
                ));
            }
            let catalogue_source = Source {
                path: &path,
                text: &text,
            };
            // A file that is not TOML at all (a `.env`, `/proc/self/environ`) is named at the
            // entry, never quoted: what it holds is none of the error's business.
            let not_a_catalogue = |why: &str| {
                source.error_at(
                    Some(written.span()),
                    Some("catalogues"),
                    format!(
                        "cannot use the catalogue {}: {why}; expected a TOML file of [weapons] and [armour] tables",
                        path.display()
                    ),
                )
            };
            if let Err(e) = super::bounds::check(&catalogue_source) {
                return Err(not_a_catalogue(&e.message));
            }
            if text.parse::<toml::Table>().is_err() {
                return Err(not_a_catalogue("it does not read as TOML"));
            }
            super::characters::check(&catalogue_source)?;
            let catalogue: Catalogue<W, A> =
                toml::from_str(&text).map_err(|e| catalogue_source.from_toml(&e))?;
            for (name, weapon) in catalogue.weapons {
                self.weapons.entry(name).or_insert(weapon);
            }
            for (name, armour) in catalogue.armour {
                self.armour.entry(name).or_insert(armour);
            }
            texts.push((written.get_ref().clone(), text.to_string()));
        }
        Ok(texts)
    }

    fn name(&self) -> &Spanned<String> {
        &self.name
    }
    fn description(&self) -> Option<&str> {
        self.description.as_deref()
    }
    fn seed(&self) -> u64 {
        self.seed.get() as u64
    }
    fn trials(&self) -> u64 {
        match (&self.trials, &self.precision) {
            (Some(t), _) => t.get() as u64,
            (None, Some(p)) => p.get_ref().max_trials.get() as u64,
            (None, None) => DEFAULT_TRIALS as u64,
        }
    }
    fn precision(&self, source: &Source) -> Result<Option<Precision>, InputError> {
        let Some(spec) = &self.precision else {
            return Ok(None);
        };
        if self.trials.is_some() {
            return Err(source.error_at(
                Some(spec.span()),
                Some("precision"),
                "is given with 'trials'; expected one of them: a fixed trial count, or a precision target with its cap 'max_trials'",
            ));
        }
        let p = spec.get_ref();
        if !(p.half_width > 0.0 && p.half_width <= 0.5) {
            return Err(source.error_at(
                Some(spec.span()),
                Some("precision.half_width"),
                format!("is {}; expected a half-width above 0 and at most 0.5 (0.005 is plus or minus half a percentage point)", p.half_width),
            ));
        }
        Ok(Some(Precision {
            half_width: p.half_width,
            max_trials: p.max_trials.get() as u64,
        }))
    }
}
