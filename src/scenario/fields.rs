//! Field types of scenario files that check themselves as they are read.
//!
//! A [`Ranged`] integer refuses values outside its bounds while serde reads it, so the TOML
//! reader attaches the value's line and column to the error. A [`Name`] keeps its span so a
//! reference to an unknown weapon or armour can be reported where it was written.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::ops::Range;
use toml::Spanned;

/// An integer that must lie in `LO..=HI`, with where it was written.
#[derive(Clone, Debug)]
pub struct Ranged<const LO: i64, const HI: i64> {
    value: i64,
    span: Option<Range<usize>>,
}

impl<const LO: i64, const HI: i64> Ranged<LO, HI> {
    /// A default value (not written in any file).
    ///
    /// # Panics
    /// In debug builds, when `value` is outside the bounds: defaults are code, not input.
    pub const fn new(value: i64) -> Self {
        debug_assert!(value >= LO && value <= HI);
        Ranged { value, span: None }
    }

    /// The value.
    #[inline]
    pub fn get(&self) -> i64 {
        self.value
    }

    /// The value as `u32` (bounds are chosen so it fits where this is used).
    #[inline]
    pub fn u32(&self) -> u32 {
        self.value.clamp(0, i64::from(u32::MAX)) as u32
    }

    /// The value as `i32`.
    #[inline]
    pub fn i32(&self) -> i32 {
        self.value.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// Where the value was written, if it came from a file.
    pub fn span(&self) -> Option<Range<usize>> {
        self.span.clone()
    }
}

impl<const LO: i64, const HI: i64> PartialEq for Ranged<LO, HI> {
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
    }
}

impl<'de, const LO: i64, const HI: i64> Deserialize<'de> for Ranged<LO, HI> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let spanned = Spanned::<IntegerValue>::deserialize(deserializer)?;
        let span = spanned.span();
        let found = spanned.into_inner();
        let value = match found {
            IntegerValue::Integer(v) => v,
            IntegerValue::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => f as i64,
            other => {
                return Err(D::Error::custom(format!(
                    "expected a whole number from {LO} to {HI}, found {}",
                    other.describe()
                )));
            }
        };
        if !(LO..=HI).contains(&value) {
            return Err(D::Error::custom(format!(
                "expected a whole number from {LO} to {HI}, found {value}"
            )));
        }
        Ok(Ranged {
            value,
            span: Some(span),
        })
    }
}

impl<const LO: i64, const HI: i64> Serialize for Ranged<LO, HI> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i64(self.value)
    }
}

/// Any TOML value, read only to say what was found instead of a number.
#[derive(Deserialize)]
#[serde(untagged)]
enum IntegerValue {
    Integer(i64),
    Float(f64),
    Bool(bool),
    Text(String),
    Other(toml::Value),
}

impl IntegerValue {
    fn describe(&self) -> String {
        match self {
            IntegerValue::Integer(v) => v.to_string(),
            IntegerValue::Float(v) => v.to_string(),
            IntegerValue::Bool(v) => v.to_string(),
            IntegerValue::Text(s) => format!("the text \"{s}\""),
            IntegerValue::Other(v) => format!("a {}", v.type_str()),
        }
    }
}

/// A name written in the file (a weapon or armour reference), with where it was written.
pub type Name = Spanned<String>;
