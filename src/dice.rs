//! Dice: the one door through which every ruleset gets its randomness.
//!
//! Rules are written against the [`Dice`] trait and are generic over it, so the hot path is
//! monomorphized for the fast source and no draw goes through dynamic dispatch. Three sources
//! implement it:
//!
//! - [`FastDice`]: counter-based keyed streams (wyrand from a stream's own start) with unbiased
//!   bounded rolls (Lemire's multiply-and-reject), and d6 pools eight dice to a draw, for runs;
//! - [`ScriptedDice`]: replays given results, for worked examples and `duelsim trace --dice`;
//!   running out of results is reported as an error, never a panic;
//! - [`EnumeratingDice`]: walks every outcome of a short sequence, for exact probabilities.
//!
//! This module does not know any rule: labels passed to [`Dice::d`] are only for narration.
//!
//! **Streams.** Two variants of a point are compared on common dice (trial *i* of both starts
//! from the same seed). They stay in step only while they draw the same dice for the same
//! purpose: one more ATTACK die in a pool must not shift the next round's dice. So the rules
//! name what they are about to roll ([`Dice::stream`]: a purpose, a fighter and a round, from
//! [`Stream::new`]; a roll that follows another in its turn names the turn's key with its own
//! purpose, [`Stream::with_purpose`]), and the fast source
//! draws each stream's dice from its own place in a counter-based generator: a die is a mix of
//! the trial's seed, the stream's key and the die's place in the stream, so an extra die in one
//! stream moves no die of another. A stream's dice must be drawn once a trial (the rules pick
//! an `nth` when one purpose recurs); [`StreamCheck`] asserts that in the tests. The scripted and enumerating
//! sources ignore streams: they replay or walk one order.

use std::fmt;

/// A source of die results.
pub trait Dice {
    /// Rolls one die with `sides` faces and returns a result in `1..=sides`.
    /// `label` says what the die is for ("black d20 (attack)"); only narration uses it.
    fn d(&mut self, sides: u32, label: &'static str) -> u32;

    /// Rolls two dice of `sides` faces, first then second: the same as two calls of [`Dice::d`],
    /// which is what every source but the fast one does. The fast source draws both from one
    /// 64-bit output (each half reduced without bias), since most rules roll dice in pairs.
    #[inline]
    fn pair(&mut self, sides: u32, first: &'static str, second: &'static str) -> (u32, u32) {
        let a = self.d(sides, first);
        let b = self.d(sides, second);
        (a, b)
    }

    /// Rolls `n` dice of `sides` faces and counts how many show each of the `K` highest faces:
    /// `counts[k]` is the number showing `sides - K + 1 + k` (a d6 pool's 4s, 5s and 6s with
    /// `K = 3`). It counts the dice of [`Dice::faces`]: `n` calls of [`Dice::d`] for every
    /// source but the fast one (whose d6 come eight to a draw, counted by table) and the
    /// enumerating one, which walks the distinct counts, each with its multinomial weight,
    /// instead of every ordered roll.
    #[inline]
    fn count_faces<const K: usize>(&mut self, n: u32, sides: u32, label: &'static str) -> [u32; K]
    where
        Self: Sized,
    {
        count_one_by_one(self, n, sides, label)
    }

    /// Rolls `n` dice of `sides` faces and hands each result to `each`, in order: the dice of
    /// [`Dice::count_faces`] one by one, for narration (`duelsim trace`). The same as `n` calls
    /// of [`Dice::d`] for every source but the fast one, whose d6 pools come eight dice to a
    /// draw ([`FastDice`]); its `count_faces` counts exactly these dice.
    #[inline]
    fn faces(&mut self, n: u32, sides: u32, label: &'static str, each: impl FnMut(u32))
    where
        Self: Sized,
    {
        roll_each(self, n, sides, label, each);
    }

    /// The pair [`Dice::pair`] will roll first from `stream` once the rules name it, worked
    /// out ahead, before branches that come first (a miss or hit of the turn before), without
    /// drawing it: `None` for every source but the fast one, whose dice depend only on their
    /// stream and their place in it. The rules still name the stream when its turn comes and
    /// roll the pair there if this was `None`, so the scripted, traced and enumerating
    /// sources read their dice in the order they always did.
    #[inline]
    fn pair_ahead(&self, stream: Stream, sides: u32) -> Option<(u32, u32)>
    where
        Self: Sized,
    {
        let _ = (stream, sides);
        None
    }

    /// Whether [`Dice::faces`] draws a pool otherwise than die by die (the fast source's d6
    /// pools): a source wrapping this one then takes its pools through `faces` to roll the
    /// same dice.
    const POOLS: bool = false;

    /// Rolls one die of `sides` faces whose result the caller tells apart only by `class`:
    /// everything it does next depends on the face through `class(face)` alone (a d100 test's
    /// success level and mishap digit, a Zone Die's zone). The same as [`Dice::d`] for every
    /// source but the enumerating one, which walks one face per distinct class (the lowest),
    /// weighted by how many faces share it (merged states), instead of every face.
    #[inline]
    fn d_by<K: PartialEq>(
        &mut self,
        sides: u32,
        label: &'static str,
        class: impl Fn(u32) -> K,
    ) -> u32
    where
        Self: Sized,
    {
        let _ = class;
        self.d(sides, label)
    }

    /// Draws the next dice from `stream`'s own dice (from its first). Only the fast source
    /// does anything: the others replay or walk one order.
    #[inline]
    fn stream(&mut self, stream: Stream) {
        let _ = stream;
    }

    /// Draws from now on the dice of the next encounter of a campaign: every stream named after
    /// it starts from the encounter's own seed, so an encounter's fight and the rest after it
    /// never roll the dice of an encounter before (which names the same streams). The first
    /// encounter draws the trial's own dice, so a campaign of one encounter is the fight die
    /// for die. Only the fast source does anything: the others replay or walk one order.
    #[inline]
    fn next_encounter(&mut self) {}

    /// True once a scripted source has run out: rules stop their loops when it is set.
    /// Always false for random sources, so the check compiles away.
    #[inline]
    fn exhausted(&self) -> bool {
        false
    }
}

/// [`Dice::faces`] die by die: `n` calls of [`Dice::d`], each result handed to `each`.
#[inline]
pub fn roll_each<D: Dice>(
    dice: &mut D,
    n: u32,
    sides: u32,
    label: &'static str,
    mut each: impl FnMut(u32),
) {
    for _ in 0..n {
        each(dice.d(sides, label));
    }
}

/// [`Dice::count_faces`] die by die: the dice of [`Dice::faces`] (`n` calls of [`Dice::d`] but
/// for the fast source's d6), counting the `K` highest faces.
#[inline]
fn count_one_by_one<D: Dice, const K: usize>(
    dice: &mut D,
    n: u32,
    sides: u32,
    label: &'static str,
) -> [u32; K] {
    let mut counts = [0u32; K];
    let lowest = sides.saturating_sub(K as u32) + 1;
    dice.faces(n, sides, label, |face| {
        // Branch-free: whether a die is counted is a coin toss the branch predictor would
        // miss half the time.
        for (k, count) in (lowest..).zip(counts.iter_mut()) {
            *count += u32::from(face == k);
        }
    });
    counts
}

/// What a ruleset's dice are for, in its own words: each ruleset names its purposes as an
/// enum (`zone_d100::Purpose::EndOfTurn`), whose code keys the stream, so a rule says which
/// dice it rolls and a purpose cannot be swapped for a fighter or a round.
pub trait Purpose: Copy {
    /// The purpose's number in the stream's key (below 64).
    fn code(self) -> u32;
}

/// What a run of dice is for, and whose: the key of a stream of the fast source. Packs a
/// purpose (below 64, a ruleset's own numbering), a fighter (below 64), an `nth` (below 256, for
/// a purpose that recurs within one round) and a round (below 2^23; higher bits are dropped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stream(u64);

impl Stream {
    const PURPOSE: u64 = 0x3f;
    const FIGHTER: u64 = 0x3f << 6;
    const NTH: u64 = 0xff << 12;
    const ROUND_BITS: u32 = 23;
    /// The stream a trial draws from before the rules name one.
    const OPENING: Stream = Stream(u64::MAX);

    /// The stream of `purpose` for fighter `fighter` in round `round`.
    #[inline]
    pub fn new<P: Purpose>(purpose: P, fighter: usize, round: u32) -> Stream {
        Self::from_code(purpose.code(), fighter, round)
    }

    /// The stream of the purpose numbered `purpose` for `fighter` in `round`.
    #[inline]
    const fn from_code(purpose: u32, fighter: usize, round: u32) -> Stream {
        let round = round as u64 & ((1 << Self::ROUND_BITS) - 1);
        let fighter = (fighter as u64) << 6 & Self::FIGHTER;
        Stream((purpose as u64 & Self::PURPOSE) | fighter | (round << 20))
    }

    /// The `n`th stream of the same purpose, fighter and round (from 0).
    #[inline]
    pub const fn nth(self, n: u32) -> Stream {
        Stream((self.0 & !Self::NTH) | ((n as u64 & 0xff) << 12))
    }

    /// The same fighter, round and `nth`, another purpose.
    #[inline]
    pub fn with_purpose<P: Purpose>(self, purpose: P) -> Stream {
        Stream((self.0 & !Self::PURPOSE) | (u64::from(purpose.code()) & Self::PURPOSE))
    }

    /// Where the stream starts from the trial's seed: each field times its own odd 64-bit
    /// constant, summed. Two streams then start a random-looking distance apart (wyrand's
    /// outputs from states a power of two apart would share their low bits), at the cost of
    /// four independent multiplies, not a chain of mixes before the first die.
    #[inline]
    const fn start(self) -> u64 {
        let s = self.0;
        (s & Self::PURPOSE)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .wrapping_add(((s >> 6) & 0x3f).wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
            .wrapping_add(((s >> 12) & 0xff).wrapping_mul(0x1656_67b1_9e37_79f9))
            .wrapping_add((s >> 20).wrapping_mul(0xd6e8_feb8_6659_fd93))
    }
}

/// wyrand's output function: the two halves of a 128-bit product of the state and the state
/// with wyrand's second constant, folded.
#[inline]
fn wyrand(state: u64) -> u64 {
    let t = u128::from(state) * u128::from(state ^ 0xe703_7ed1_a0b4_28db);
    (t >> 64) as u64 ^ t as u64
}

/// The d6 a draw of the fast source gives a pool: 6^8 < 2^21, so one 64-bit draw reduced to
/// `0..6^8` without bias gives eight independent d6 as its base-6 digits.
const D6_GROUP: u32 = 8;

/// 6^0 to 6^8: the values of zero to eight base-6 digits.
const POWERS_OF_6: [u64; 9] = [1, 6, 36, 216, 1296, 7776, 46656, 279_936, 1_679_616];

/// For each value of four base-6 digits (four d6, a digit `f` showing face `f + 1`), how many
/// show each face: face `f + 1`'s count in bits `5f..5f + 5`.
const D6_FOUR_DICE: [u32; 1296] = {
    let mut table = [0u32; 1296];
    let mut v = 0;
    while v < 1296 {
        let mut digits = v;
        let mut i = 0;
        while i < 4 {
            table[v] += 1 << (5 * (digits % 6));
            digits /= 6;
            i += 1;
        }
        v += 1;
    }
    table
};

/// wyrand's increment: odd, so a stream's `k`th state is its start plus `k` of these.
const GAMMA: u64 = 0xa076_1d64_78bd_642f;

/// The fast source: counter-based keyed streams, one source per trial (a source reused across
/// trials would name the same streams again and roll the same dice: seed each trial's own,
/// as `engine::trial_seed` does). A stream starts at the trial's seed plus its key's fields
/// spread by their own constants ([`Stream::start`]), and its `k`th die is wyrand's output at
/// that start plus `k` increments: naming a stream costs a few independent multiplies, a die one
/// 128-bit multiply (a short chain, which matters where the rules branch on the die at once). Each 64-bit output gives one die (or two, for
/// [`Dice::pair`], or up to eight d6 of a pool, for [`Dice::faces`] and [`Dice::count_faces`])
/// with Lemire's unbiased reduction.
#[derive(Clone, Debug)]
pub struct FastDice {
    /// The trial's seed: the opening stream's start.
    seed: u64,
    /// wyrand's state at the last draw.
    state: u64,
}

impl FastDice {
    /// The dice of one trial, from its seed.
    #[inline]
    pub fn seed_from_u64(seed: u64) -> Self {
        FastDice { seed, state: seed }
    }

    /// The next 64 random bits of the current stream.
    #[inline]
    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(GAMMA);
        wyrand(self.state)
    }

    /// `dice` d6 (at most [`D6_GROUP`]) from one draw: a value of `0..6^dice` without bias
    /// (Lemire's reduction of the whole 64-bit draw; the rejection zone is below 2^-43 of it),
    /// whose base-6 digits are the dice, least significant first.
    #[inline]
    fn d6_digits(&mut self, dice: u32) -> u32 {
        let values = POWERS_OF_6[dice as usize];
        let mut m = u128::from(self.next_u64()) * u128::from(values);
        if (m as u64) < values {
            let threshold = values.wrapping_neg() % values;
            while (m as u64) < threshold {
                m = u128::from(self.next_u64()) * u128::from(values);
            }
        }
        (m >> 64) as u32
    }

    /// Reduces a uniform 32-bit value to `1..=sides` without bias (Lemire, "Fast random
    /// integer generation in an interval", 2019): the high half of `x * sides` is uniform once
    /// the low half is outside the biased zone below `2^32 mod sides`; inside it, draw again.
    #[inline]
    fn bounded(&mut self, x: u32, sides: u32) -> u32 {
        debug_assert!(sides > 0);
        let mut m = u64::from(x) * u64::from(sides);
        if (m as u32) < sides {
            let threshold = sides.wrapping_neg() % sides;
            while (m as u32) < threshold {
                m = (self.next_u64() >> 32) * u64::from(sides);
            }
        }
        (m >> 32) as u32 + 1
    }
}

impl Dice for FastDice {
    const POOLS: bool = true;

    #[inline]
    fn d(&mut self, sides: u32, _label: &'static str) -> u32 {
        let x = (self.next_u64() >> 32) as u32;
        self.bounded(x, sides)
    }

    /// A d6 pool comes eight dice to a draw ([`FastDice::d6_digits`]): the dice are the draw's
    /// base-6 digits, least significant first; the last draw has as many digits as dice left.
    /// Other dice come one by one, as [`Dice::d`] rolls them.
    #[inline]
    fn faces(&mut self, n: u32, sides: u32, label: &'static str, mut each: impl FnMut(u32)) {
        if sides != 6 {
            return roll_each(self, n, sides, label, each);
        }
        let mut left = n;
        while left > 0 {
            let dice = left.min(D6_GROUP);
            let mut digits = self.d6_digits(dice);
            for _ in 0..dice {
                each(digits % 6 + 1);
                digits /= 6;
            }
            left -= dice;
        }
    }

    /// The dice of [`FastDice::faces`], counted without looking at them one by one: each draw's
    /// low and high four digits index a table of the faces four dice show
    /// ([`D6_FOUR_DICE`]); the digits past a draw's last die are 0s, which read as 1s and are
    /// taken off.
    #[inline]
    fn count_faces<const K: usize>(&mut self, n: u32, sides: u32, label: &'static str) -> [u32; K] {
        if sides != 6 || K > 6 {
            return count_one_by_one(self, n, sides, label);
        }
        let mut counts = [0u32; K];
        // The field of the lowest face counted.
        let lowest = 6 - K;
        let mut left = n;
        while left > 0 {
            let dice = left.min(D6_GROUP);
            let digits = self.d6_digits(dice);
            // A draw of four dice or fewer is one value of the table (`digits` is below 6^4),
            // read without the division that splits eight dice into two halves: the division
            // would lengthen the chain from the draw to the count.
            let (shown, padding) = if dice <= 4 {
                let shown = D6_FOUR_DICE.get(digits as usize).copied().unwrap_or(0);
                (shown, 4 - dice)
            } else {
                let shown =
                    D6_FOUR_DICE[(digits % 1296) as usize] + D6_FOUR_DICE[(digits / 1296) as usize];
                (shown, D6_GROUP - dice)
            };
            for (k, count) in counts.iter_mut().enumerate() {
                *count += shown >> (5 * (lowest + k)) & 31;
            }
            if K == 6 {
                counts[0] -= padding;
            }
            left -= dice;
        }
        counts
    }

    /// The pair drawn by a copy of the source, so the source's own stream is untouched.
    #[inline]
    fn pair_ahead(&self, stream: Stream, sides: u32) -> Option<(u32, u32)> {
        let mut ahead = self.clone();
        ahead.stream(stream);
        Some(ahead.pair(sides, "", ""))
    }

    #[inline]
    fn pair(&mut self, sides: u32, _first: &'static str, _second: &'static str) -> (u32, u32) {
        let x = self.next_u64();
        let first = self.bounded((x >> 32) as u32, sides);
        let second = self.bounded(x as u32, sides);
        (first, second)
    }

    #[inline]
    fn stream(&mut self, stream: Stream) {
        self.state = self.seed.wrapping_add(stream.start());
    }

    /// The next encounter's seed is wyrand's output from this one's, moved by a constant of its
    /// own (no stream's start is that far from a seed in the same few bits): as far from the
    /// seeds of other trials and encounters as two trials' seeds are from each other.
    #[inline]
    fn next_encounter(&mut self) {
        self.seed = wyrand(self.seed ^ ENCOUNTER_MIX);
        self.state = self.seed;
    }
}

/// What [`FastDice::next_encounter`] mixes into a seed before wyrand's output.
const ENCOUNTER_MIX: u64 = 0x8ebc_6af0_9c88_c6e3;

/// Checks that the rules never draw a stream's dice twice in a trial (a stream named again
/// after dice were drawn from it would roll the same dice again), around another source (for
/// tests). Call [`StreamCheck::next_trial`] between trials.
#[derive(Clone, Debug)]
pub struct StreamCheck<D> {
    /// The source that actually rolls.
    pub inner: D,
    current: Option<Stream>,
    drawn: u64,
    /// The streams dice were drawn from this trial.
    used: std::collections::HashSet<Stream>,
    /// The first stream named again in a trial after its dice were drawn.
    pub problem: Option<(Stream, &'static str)>,
}

impl<D: Dice> StreamCheck<D> {
    /// Checks `inner`'s streams.
    pub fn new(inner: D) -> Self {
        StreamCheck {
            inner,
            current: None,
            drawn: 0,
            used: Default::default(),
            problem: None,
        }
    }

    /// Forgets the streams named so far, with a new trial's source.
    pub fn next_trial(&mut self, inner: D) {
        self.inner = inner;
        self.current = None;
        self.drawn = 0;
        self.used.clear();
    }

    fn name(&mut self, stream: Stream) {
        if self.used.contains(&stream) {
            self.problem
                .get_or_insert((stream, "named again after its dice were drawn"));
        }
        self.current = Some(stream);
        self.drawn = 0;
    }

    fn drew(&mut self, dice: u64) {
        if self.drawn == 0 {
            self.used.insert(self.current.unwrap_or(Stream::OPENING));
        }
        self.drawn += dice;
    }
}

impl<D: Dice> Dice for StreamCheck<D> {
    fn d(&mut self, sides: u32, label: &'static str) -> u32 {
        self.drew(1);
        self.inner.d(sides, label)
    }

    fn pair(&mut self, sides: u32, first: &'static str, second: &'static str) -> (u32, u32) {
        self.drew(1);
        self.inner.pair(sides, first, second)
    }

    const POOLS: bool = D::POOLS;

    fn count_faces<const K: usize>(&mut self, n: u32, sides: u32, label: &'static str) -> [u32; K] {
        // An empty pool draws nothing from the stream.
        if n > 0 {
            self.drew(u64::from(n));
        }
        self.inner.count_faces(n, sides, label)
    }

    fn faces(&mut self, n: u32, sides: u32, label: &'static str, each: impl FnMut(u32)) {
        if n > 0 {
            self.drew(u64::from(n));
        }
        self.inner.faces(n, sides, label, each);
    }

    fn stream(&mut self, stream: Stream) {
        self.name(stream);
        self.inner.stream(stream);
    }

    fn next_encounter(&mut self) {
        // Another encounter's streams are other dice: each may be named once again.
        self.current = None;
        self.drawn = 0;
        self.used.clear();
        self.inner.next_encounter();
    }

    fn exhausted(&self) -> bool {
        self.inner.exhausted()
    }
}

/// Why a script of die results could not be replayed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScriptError {
    /// The script ended before the rules asked for die number `index` (1-based).
    RanOut {
        index: usize,
        sides: u32,
        label: &'static str,
    },
    /// Die number `index` was given a result its die cannot show.
    OutOfRange {
        index: usize,
        sides: u32,
        label: &'static str,
        value: u32,
    },
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptError::RanOut {
                index,
                sides,
                label,
            } => write!(
                f,
                "the given dice ran out: die #{index} ({label}, d{sides}) has no result; give more results"
            ),
            ScriptError::OutOfRange {
                index,
                sides,
                label,
                value,
            } => write!(
                f,
                "die #{index} ({label}) is a d{sides} but the given result is {value}; expected 1 to {sides}"
            ),
        }
    }
}

impl std::error::Error for ScriptError {}

/// Replays given results in order. After the first problem it keeps answering (with the die's
/// highest face) so the rules can unwind, and [`ScriptedDice::finish`] reports the problem.
#[derive(Clone, Debug, Default)]
pub struct ScriptedDice {
    results: Vec<u32>,
    next: usize,
    error: Option<ScriptError>,
}

impl ScriptedDice {
    /// A source that will answer with `results`, in order.
    pub fn new(results: impl Into<Vec<u32>>) -> Self {
        ScriptedDice {
            results: results.into(),
            next: 0,
            error: None,
        }
    }

    /// How many results have been consumed so far.
    pub fn used(&self) -> usize {
        self.next
    }

    /// The first problem met while replaying, if any.
    pub fn error(&self) -> Option<&ScriptError> {
        self.error.as_ref()
    }

    /// Ok when every die asked for had a valid result.
    pub fn finish(&self) -> Result<(), ScriptError> {
        match &self.error {
            Some(e) => Err(e.clone()),
            None => Ok(()),
        }
    }
}

impl Dice for ScriptedDice {
    fn d(&mut self, sides: u32, label: &'static str) -> u32 {
        let index = self.next + 1;
        let Some(&value) = self.results.get(self.next) else {
            self.error.get_or_insert(ScriptError::RanOut {
                index,
                sides,
                label,
            });
            return sides;
        };
        self.next += 1;
        if value == 0 || value > sides {
            self.error.get_or_insert(ScriptError::OutOfRange {
                index,
                sides,
                label,
                value,
            });
            return sides;
        }
        value
    }

    fn exhausted(&self) -> bool {
        self.error.is_some()
    }
}

/// Walks every outcome of a sequence of rolls whose length and dice may depend on earlier
/// results (a depth-first odometer). Each run of the experiment sees one outcome; its
/// probability is the product over its rolls of 1/sides for a die, and of the multinomial
/// weight over sides^n for a pool whose face counts it walks ([`Dice::count_faces`]).
#[derive(Clone, Debug, Default)]
pub struct EnumeratingDice {
    /// Every roll of the current outcome.
    path: Vec<Step>,
    position: usize,
    /// The face-count tables of the pools met so far.
    pools: Vec<Pool>,
}

/// One roll of an outcome: the choice made (0-based) among `options`; `pool` 0 for one die of
/// `options` sides, [`CLASSED`] for a die walked by classes, else the 1-based index of the
/// pool's table.
#[derive(Clone, Copy, Debug)]
struct Step {
    choice: u32,
    options: u32,
    pool: u32,
    /// For a die walked by classes: the faces in the chosen class, and the die's sides.
    faces: u32,
    sides: u32,
}

/// [`Step::pool`] of a die walked by classes ([`Dice::d_by`]).
const CLASSED: u32 = u32::MAX;

/// The distinct face counts of `n` dice of `sides` faces, counting the `counted` highest faces:
/// each with how many ordered rolls give it.
#[derive(Clone, Debug)]
struct Pool {
    n: u32,
    sides: u32,
    counted: u32,
    /// (counts of the counted faces, lowest first; ordered rolls giving them)
    outcomes: Vec<(Vec<u32>, u128)>,
    /// sides^n.
    total: u128,
}

/// The most dice one pool table takes (with more, or weights past 128 bits, the dice are walked
/// one by one).
pub const MAX_POOL_DICE: u32 = 40;

impl Pool {
    /// The table, or `None` when its weights would outgrow 128 bits.
    fn new(n: u32, sides: u32, counted: u32) -> Option<Pool> {
        let binomial = |n: u32, k: u32| -> u128 {
            (0..k).fold(1u128, |acc, i| acc * u128::from(n - i) / u128::from(i + 1))
        };
        let others = u128::from(sides - counted);
        let mut outcomes = Vec::new();
        // Every split of n over the counted faces; the rest show the other faces.
        fn splits(left: u32, parts: u32, prefix: &mut Vec<u32>, out: &mut Vec<Vec<u32>>) {
            if parts == 0 {
                out.push(prefix.clone());
                return;
            }
            for c in 0..=left {
                prefix.push(c);
                splits(left - c, parts - 1, prefix, out);
                prefix.pop();
            }
        }
        let mut all = Vec::new();
        splits(n, counted, &mut Vec::new(), &mut all);
        for counts in all {
            let used: u32 = counts.iter().sum();
            let rest = n - used;
            if others == 0 && rest > 0 {
                continue;
            }
            let mut weight = binomial(n, rest).checked_mul(others.checked_pow(rest)?)?;
            let mut left = used;
            for &c in &counts {
                weight = weight.checked_mul(binomial(left, c))?;
                left -= c;
            }
            outcomes.push((counts, weight));
        }
        Some(Pool {
            n,
            sides,
            counted,
            outcomes,
            total: u128::from(sides).checked_pow(n)?,
        })
    }
}

impl EnumeratingDice {
    /// Runs `experiment` once per outcome and passes each result with its exact probability.
    pub fn for_each<T>(experiment: impl FnMut(&mut Self) -> T, mut visit: impl FnMut(T, f64)) {
        Self::for_each_exact(experiment, |result, numerator, denominator| {
            visit(result, numerator as f64 / denominator as f64);
            true
        });
    }

    /// Runs `experiment` once per outcome and passes each result with its exact probability as
    /// `numerator / denominator` (not reduced), until `visit` returns false. Returns false when
    /// a product would not fit in 128 bits (an experiment rolling too many dice for exact
    /// fractions); the walk stops there.
    pub fn for_each_exact<T>(
        mut experiment: impl FnMut(&mut Self) -> T,
        mut visit: impl FnMut(T, u128, u128) -> bool,
    ) -> bool {
        let mut dice = EnumeratingDice::default();
        loop {
            dice.position = 0;
            let result = experiment(&mut dice);
            dice.path.truncate(dice.position);
            let mut numerator = 1u128;
            let mut denominator = 1u128;
            for step in &dice.path {
                let (weight, total) = match step.pool {
                    0 => (1, u128::from(step.options)),
                    CLASSED => (u128::from(step.faces), u128::from(step.sides)),
                    k => {
                        let pool = &dice.pools[k as usize - 1];
                        (pool.outcomes[step.choice as usize].1, pool.total)
                    }
                };
                match (
                    numerator.checked_mul(weight),
                    denominator.checked_mul(total),
                ) {
                    (Some(n), Some(d)) => (numerator, denominator) = (n, d),
                    _ => return false,
                }
            }
            if !visit(result, numerator, denominator) || !dice.advance() {
                return true;
            }
        }
    }

    fn advance(&mut self) -> bool {
        while let Some(last) = self.path.last_mut() {
            if last.choice + 1 < last.options {
                last.choice += 1;
                return true;
            }
            self.path.pop();
        }
        false
    }

    /// The step at the current position if it is the same kind of roll, else a new first
    /// choice (the rolls after a changed one are a new branch).
    fn step(&mut self, options: u32, pool: u32) -> u32 {
        let choice = match self.path.get(self.position) {
            Some(step) if step.options == options && step.pool == pool => step.choice,
            _ => {
                self.path.truncate(self.position);
                self.path.push(Step {
                    choice: 0,
                    options,
                    pool,
                    faces: 0,
                    sides: 0,
                });
                0
            }
        };
        self.position += 1;
        choice
    }
}

impl Dice for EnumeratingDice {
    fn d(&mut self, sides: u32, _label: &'static str) -> u32 {
        self.step(sides, 0) + 1
    }

    fn d_by<K: PartialEq>(
        &mut self,
        sides: u32,
        _label: &'static str,
        class: impl Fn(u32) -> K,
    ) -> u32 {
        // The distinct classes in order of their lowest face: (class, lowest face, faces).
        let mut classes: Vec<(K, u32, u32)> = Vec::new();
        for face in 1..=sides {
            let k = class(face);
            match classes.iter_mut().find(|c| c.0 == k) {
                Some(c) => c.2 += 1,
                None => classes.push((k, face, 1)),
            }
        }
        if classes.is_empty() {
            return self.d(sides, _label);
        }
        let choice = self.step(classes.len() as u32, CLASSED) as usize;
        let (_, face, faces) = classes[choice];
        if let Some(step) = self.path.get_mut(self.position - 1) {
            step.faces = faces;
            step.sides = sides;
        }
        face
    }

    fn count_faces<const K: usize>(&mut self, n: u32, sides: u32, label: &'static str) -> [u32; K] {
        let counted = K as u32;
        let known = self
            .pools
            .iter()
            .position(|p| p.n == n && p.sides == sides && p.counted == counted);
        let index = match known {
            Some(i) => Some(i),
            None if n <= MAX_POOL_DICE && counted <= sides => {
                Pool::new(n, sides, counted).map(|pool| {
                    self.pools.push(pool);
                    self.pools.len() - 1
                })
            }
            None => None,
        };
        let Some(index) = index else {
            // Too many dice for one table (or a nonsense split): walk them one by one.
            return count_one_by_one(self, n, sides, label);
        };
        let options = self.pools[index].outcomes.len() as u32;
        let choice = self.step(options, index as u32 + 1);
        let mut counts = [0u32; K];
        for (to, from) in counts
            .iter_mut()
            .zip(&self.pools[index].outcomes[choice as usize].0)
        {
            *to = *from;
        }
        counts
    }
}

/// Counts the dice another source rolls: used to measure rolls per duel for the bench floor.
#[derive(Clone, Debug)]
pub struct CountingDice<D> {
    /// The source that actually rolls.
    pub inner: D,
    /// Dice rolled so far.
    pub rolls: u64,
}

impl<D: Dice> Dice for CountingDice<D> {
    #[inline]
    fn d(&mut self, sides: u32, label: &'static str) -> u32 {
        self.rolls += 1;
        self.inner.d(sides, label)
    }

    #[inline]
    fn pair(&mut self, sides: u32, first: &'static str, second: &'static str) -> (u32, u32) {
        self.rolls += 2;
        self.inner.pair(sides, first, second)
    }

    const POOLS: bool = D::POOLS;

    #[inline]
    fn count_faces<const K: usize>(&mut self, n: u32, sides: u32, label: &'static str) -> [u32; K] {
        self.rolls += u64::from(n);
        self.inner.count_faces(n, sides, label)
    }

    #[inline]
    fn faces(&mut self, n: u32, sides: u32, label: &'static str, each: impl FnMut(u32)) {
        self.rolls += u64::from(n);
        self.inner.faces(n, sides, label, each);
    }

    #[inline]
    fn stream(&mut self, stream: Stream) {
        self.inner.stream(stream);
    }

    #[inline]
    fn next_encounter(&mut self) {
        self.inner.next_encounter();
    }

    fn exhausted(&self) -> bool {
        self.inner.exhausted()
    }
}

/// Pearson's chi-square of the counts `observed` against cells whose chances are in the
/// proportions of `weights`: the statistic of the dice tests' goodness-of-fit checks.
#[cfg(test)]
pub(crate) fn chi_square(observed: &[u64], weights: &[u64]) -> f64 {
    let (total, weight) = (observed.iter().sum::<u64>(), weights.iter().sum::<u64>());
    observed
        .iter()
        .zip(weights)
        .map(|(&o, &w)| {
            let expected = total as f64 * w as f64 / weight as f64;
            (o as f64 - expected).powi(2) / expected
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A purpose numbered as a test needs it.
    #[derive(Clone, Copy)]
    struct P(u32);

    impl Purpose for P {
        fn code(self) -> u32 {
            self.0
        }
    }

    #[test]
    fn fast_dice_stay_in_range_and_hit_every_face() {
        let mut dice = FastDice::seed_from_u64(7);
        for sides in [1u32, 2, 3, 6, 10, 20, 100, 1000] {
            let mut seen = vec![0u32; sides as usize + 1];
            for _ in 0..sides * 200 {
                let r = dice.d(sides, "test");
                assert!((1..=sides).contains(&r), "d{sides} gave {r}");
                seen[r as usize] += 1;
            }
            assert!(seen[1..].iter().all(|&c| c > 0), "d{sides} missed a face");
        }
    }

    /// Pearson's chi-square of `counts` against the same count in every cell.
    fn chi_square_uniform(counts: &[u64]) -> f64 {
        super::chi_square(counts, &vec![1; counts.len()])
    }

    #[test]
    fn fast_d20_is_uniform_within_chi_square_bound() {
        // 20 faces, 19 degrees of freedom: the 0.9999 quantile of chi-square(19) is about 49.5.
        let mut dice = FastDice::seed_from_u64(12345);
        let n = 400_000u32;
        let mut counts = [0u64; 21];
        for _ in 0..n {
            counts[dice.d(20, "test") as usize] += 1;
        }
        let chi2 = chi_square_uniform(&counts[1..]);
        assert!(chi2 < 49.5, "chi-square {chi2}");
    }

    #[test]
    fn fast_pairs_are_uniform_and_independent_within_chi_square_bound() {
        // 400 cells (black, white), 399 degrees of freedom: the 0.9999 quantile is about 510.
        let mut dice = FastDice::seed_from_u64(99);
        let n = 800_000u32;
        let mut counts = vec![0u64; 400];
        for _ in 0..n {
            let (b, w) = dice.pair(20, "black", "white");
            assert!((1..=20).contains(&b) && (1..=20).contains(&w));
            counts[((b - 1) * 20 + (w - 1)) as usize] += 1;
        }
        let chi2 = chi_square_uniform(&counts);
        assert!(chi2 < 510.0, "chi-square {chi2}");
    }

    #[test]
    fn a_streams_dice_do_not_depend_on_how_many_another_drew() {
        let attack = Stream::new(P(3), 0, 1);
        let damage = Stream::new(P(4), 1, 1);
        let run = |attack_dice: u32| {
            let mut dice = FastDice::seed_from_u64(77);
            dice.stream(attack);
            for _ in 0..attack_dice {
                dice.d(6, "attack");
            }
            dice.stream(damage);
            (0..8).map(|_| dice.d(20, "damage")).collect::<Vec<_>>()
        };
        assert_eq!(run(3), run(4));
        // Another purpose of the same fighter, round and `nth` is naming that stream.
        let mut dice = FastDice::seed_from_u64(77);
        dice.stream(Stream::new(P(4), 1, 0).nth(0));
        let other_round: Vec<u32> = (0..8).map(|_| dice.d(20, "damage")).collect();
        assert_ne!(other_round, run(0), "round 0 is not round 1");
        dice.stream(Stream::new(P(3), 1, 1).with_purpose(P(4)));
        let switched: Vec<u32> = (0..8).map(|_| dice.d(20, "damage")).collect();
        assert_eq!(switched, run(0));
        // Another seed, other dice.
        let mut other = FastDice::seed_from_u64(78);
        other.stream(damage);
        assert_ne!((0..8).map(|_| other.d(20, "d")).collect::<Vec<_>>(), run(3));
    }

    #[test]
    fn the_first_dice_of_many_streams_are_uniform_and_independent_within_chi_square_bound() {
        // The first d20 of stream (purpose, fighter, round r) against that of round r + 1, and
        // of the next fighter: 400 cells each, 399 degrees of freedom, 0.9999 quantile ~510.
        for (seed, next) in [
            (
                3u64,
                (|r: u32| (Stream::new(P(5), 2, r), Stream::new(P(5), 2, r + 1))) as fn(u32) -> _,
            ),
            (4, |r: u32| {
                (Stream::new(P(5), 2, r), Stream::new(P(5), 3, r))
            }),
            (5, |r: u32| {
                (Stream::new(P(5), 2, r), Stream::new(P(6), 2, r))
            }),
            (6, |r: u32| {
                (Stream::new(P(5), 2, r), Stream::new(P(5), 2, r + 64))
            }),
            (7, |r: u32| {
                (Stream::new(P(5), 2, r), Stream::new(P(5), 2, r).nth(1))
            }),
            (8, |r: u32| {
                (Stream::new(P(5), 2, r), Stream::new(P(5), 2, r + (1 << 16)))
            }),
        ] {
            let n = 400_000u32;
            let mut counts = vec![0u64; 400];
            let mut dice = FastDice::seed_from_u64(seed);
            for r in 0..n {
                let (s, t) = next(r);
                dice.stream(s);
                let x = dice.d(20, "x");
                dice.stream(t);
                let y = dice.d(20, "y");
                counts[((x - 1) * 20 + (y - 1)) as usize] += 1;
            }
            let chi2 = chi_square_uniform(&counts);
            assert!(chi2 < 510.0, "seed {seed}: chi-square {chi2}");
        }
    }

    #[test]
    fn no_two_streams_of_a_trial_run_into_each_other() {
        // Two streams' states are a fixed distance apart, Δstart, the same in every trial: they
        // would roll the same dice, shifted by m, if Δstart = m × GAMMA for a small m. Every
        // difference of purposes, fighters and nth (below 64, 64 and 16) and of rounds (below
        // 10,000, the round limit's most) is checked against a million draws either way, by
        // meeting in the middle: Δstart / GAMMA (mod 2^64) must be farther than that from 0.
        let inverse = {
            // Newton's iteration for GAMMA's inverse modulo 2^64.
            let mut x = GAMMA;
            for _ in 0..6 {
                x = x.wrapping_mul(2u64.wrapping_sub(GAMMA.wrapping_mul(x)));
            }
            x
        };
        assert_eq!(GAMMA.wrapping_mul(inverse), 1);
        let start = |p: i64, f: i64, n: i64, r: i64| {
            (p as u64)
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .wrapping_add((f as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f))
                .wrapping_add((n as u64).wrapping_mul(0x1656_67b1_9e37_79f9))
                .wrapping_add((r as u64).wrapping_mul(0xd6e8_feb8_6659_fd93))
        };
        // The constants are the ones Stream::start uses.
        let s = Stream::new(P(5), 7, 9).nth(3);
        assert_eq!(s.start(), start(5, 7, 3, 9));
        let mut small: Vec<u64> = Vec::new();
        for p in -63..=63 {
            for f in -63..=63 {
                for n in -15..=15 {
                    small.push(start(p, f, n, 0).wrapping_mul(inverse));
                }
            }
        }
        small.sort_unstable();
        let reach: u64 = 1 << 20;
        for r in -9_999i64..=9_999 {
            let b = start(0, 0, 0, r).wrapping_mul(inverse);
            // a + b within ±reach of 0: a in [-b - reach, -b + reach] (mod 2^64).
            let low = b.wrapping_neg().wrapping_sub(reach);
            let from = small.partition_point(|&a| a < low);
            let near = small[from..]
                .iter()
                .chain(&small[..from])
                .take_while(|&&a| a.wrapping_sub(low) <= 2 * reach)
                .count();
            // Only the stream with itself (every difference 0) is that close.
            assert_eq!(near, usize::from(r == 0), "round difference {r}");
        }
    }

    #[test]
    fn the_stream_check_sees_a_streams_dice_drawn_twice() {
        let mut dice = StreamCheck::new(FastDice::seed_from_u64(1));
        let s = Stream::new(P(1), 0, 1);
        // Named twice before any die: fine.
        dice.stream(s);
        dice.stream(s);
        dice.d(6, "a");
        dice.stream(s.with_purpose(P(2)));
        dice.d(6, "b");
        assert!(dice.problem.is_none());
        dice.stream(s);
        assert_eq!(
            dice.problem,
            Some((s, "named again after its dice were drawn"))
        );
        // A new trial forgets the streams drawn.
        dice.problem = None;
        dice.next_trial(FastDice::seed_from_u64(2));
        dice.stream(s);
        dice.d(6, "a");
        assert!(dice.problem.is_none());
    }

    #[test]
    fn scripted_pairs_replay_in_order() {
        let mut dice = ScriptedDice::new([3, 11]);
        assert_eq!(dice.pair(20, "black", "white"), (3, 11));
    }

    #[test]
    fn same_seed_same_rolls_other_seed_other_rolls() {
        let roll = |seed| {
            let mut d = FastDice::seed_from_u64(seed);
            (0..32).map(|_| d.d(20, "t")).collect::<Vec<_>>()
        };
        assert_eq!(roll(1), roll(1));
        assert_ne!(roll(1), roll(2));
    }

    #[test]
    fn scripted_dice_replay_then_report_running_out() {
        let mut dice = ScriptedDice::new([3, 11]);
        assert_eq!(dice.d(20, "black"), 3);
        assert_eq!(dice.d(20, "white"), 11);
        assert!(dice.finish().is_ok());
        assert!(!dice.exhausted());
        dice.d(20, "next");
        assert!(dice.exhausted());
        assert_eq!(
            dice.finish(),
            Err(ScriptError::RanOut {
                index: 3,
                sides: 20,
                label: "next"
            })
        );
    }

    #[test]
    fn scripted_dice_reject_impossible_results() {
        let mut dice = ScriptedDice::new([21]);
        dice.d(20, "black");
        assert!(matches!(
            dice.finish(),
            Err(ScriptError::OutOfRange {
                value: 21,
                sides: 20,
                ..
            })
        ));
    }

    #[test]
    fn enumeration_covers_every_outcome_once_with_total_probability_one() {
        // Roll a d2; on a 2 roll a d3 as well: outcomes (1), (2,1), (2,2), (2,3).
        let mut seen = Vec::new();
        let mut total = 0.0;
        EnumeratingDice::for_each(
            |d| {
                let first = d.d(2, "a");
                if first == 2 {
                    (first, d.d(3, "b"))
                } else {
                    (first, 0)
                }
            },
            |outcome, p| {
                seen.push(outcome);
                total += p;
            },
        );
        assert_eq!(seen, vec![(1, 0), (2, 1), (2, 2), (2, 3)]);
        assert!((total - 1.0).abs() < 1e-12);
    }

    /// `count_faces::<K>` of `n` d`sides` against counting the same faces one by one.
    fn counts_as_rolled<const K: usize>(n: u32, sides: u32) {
        let mut fast = FastDice::seed_from_u64(u64::from(n * 131 + sides));
        let faces: Vec<u32> = (0..n).map(|_| fast.d(sides, "d")).collect();
        let mut expected = [0u32; K];
        let lowest = sides.saturating_sub(K as u32) + 1;
        for &f in &faces {
            if f >= lowest {
                expected[(f - lowest) as usize] += 1;
            }
        }
        let mut scripted = ScriptedDice::new(faces);
        assert_eq!(
            scripted.count_faces::<K>(n, sides, "d"),
            expected,
            "{n} d{sides}, the {K} highest faces"
        );
        assert!(scripted.finish().is_ok());
    }

    #[test]
    fn the_fast_sources_counts_are_the_faces_it_rolls() {
        // Its d6 pools come eight to a draw; counting them by table must count exactly the
        // dice `faces` hands out, for any pool size (whole draws, a part draw, none), any number
        // of faces counted, and the dice of other sizes one by one as `d` rolls them.
        fn check<const K: usize>(n: u32, sides: u32, seed: u64) {
            let mut counted = FastDice::seed_from_u64(seed);
            let mut rolled = FastDice::seed_from_u64(seed);
            let mut faces = Vec::new();
            rolled.faces(n, sides, "d", |f| faces.push(f));
            assert_eq!(faces.len(), n as usize);
            assert!(faces.iter().all(|f| (1..=sides).contains(f)), "{faces:?}");
            let lowest = sides.saturating_sub(K as u32) + 1;
            let mut expected = [0u32; K];
            for &f in &faces {
                if f >= lowest {
                    expected[(f - lowest) as usize] += 1;
                }
            }
            let got = counted.count_faces::<K>(n, sides, "d");
            assert_eq!(
                got, expected,
                "{n} d{sides}, seed {seed}, {K} highest faces"
            );
            // The next die of both sources is the same: they drew alike.
            assert_eq!(counted.d(20, "next"), rolled.d(20, "next"));
            if sides != 6 {
                let mut one_by_one = FastDice::seed_from_u64(seed);
                let by_d: Vec<u32> = (0..n).map(|_| one_by_one.d(sides, "d")).collect();
                assert_eq!(faces, by_d, "d{sides} pools are rolled die by die");
            }
        }
        for seed in 0..40 {
            for n in (0..=20).chain([40, 1023, 2000]) {
                check::<1>(n, 6, seed);
                check::<3>(n, 6, seed);
                check::<6>(n, 6, seed);
                check::<7>(n, 6, seed);
                check::<2>(n, 20, seed);
            }
        }
    }

    #[test]
    fn a_pair_worked_out_ahead_is_the_pair_its_stream_rolls_and_draws_nothing() {
        let next = Stream::new(P(3), 1, 7);
        for seed in 0..200 {
            let mut fast = FastDice::seed_from_u64(seed);
            fast.stream(Stream::new(P(2), 0, 7));
            let ahead = fast.pair_ahead(next, 20);
            // The source goes on as if nothing had been worked out.
            let mut untouched = FastDice::seed_from_u64(seed);
            untouched.stream(Stream::new(P(2), 0, 7));
            assert_eq!(fast.d(20, "d"), untouched.d(20, "d"), "seed {seed}");
            fast.stream(next);
            assert_eq!(ahead, Some(fast.pair(20, "black", "white")), "seed {seed}");
        }
        // Every other source rolls its dice where the rules come to them.
        assert_eq!(ScriptedDice::new(vec![4, 5]).pair_ahead(next, 20), None);
    }

    #[test]
    fn one_more_die_in_a_fast_d6_pool_keeps_the_pools_other_dice() {
        // Common random numbers: a point with one more attack die must roll the same dice
        // and one more. A draw's `k` dice are the digits of floor(u * 6^k), so the `k - 1`
        // dice of the same draw are its top `k - 1` digits: as a count, the same dice plus one.
        for seed in 0..200 {
            let mut before = FastDice::seed_from_u64(seed).count_faces::<6>(0, 6, "d6");
            for n in 1..=30 {
                let counts = FastDice::seed_from_u64(seed).count_faces::<6>(n, 6, "d6");
                let more: Vec<i64> = (0..6)
                    .map(|f| i64::from(counts[f]) - i64::from(before[f]))
                    .collect();
                assert!(
                    more.iter().all(|&m| m >= 0) && more.iter().sum::<i64>() == 1,
                    "seed {seed}: {n} dice {counts:?} against {} dice {before:?}",
                    n - 1
                );
                before = counts;
            }
        }
    }

    #[test]
    fn fast_d6_pools_are_uniform_and_independent_within_chi_square_bound() {
        // Three neighbouring dice of a pool of eight (one draw) and of a pool of five (the
        // fourth and fifth die come from the draw's last digits): 216 cells, 215 degrees of
        // freedom, whose 0.9999 quantile is about 301; and the last die of a draw against the
        // first of the next (a pool of nine): 36 cells, 35 degrees of freedom, about 75.6.
        let mut dice = FastDice::seed_from_u64(2024);
        let pools = 300_000;
        let mut first = vec![0u64; 216];
        let mut last = vec![0u64; 216];
        let mut part = vec![0u64; 216];
        let mut across = vec![0u64; 36];
        let cell = |f: &[u32]| f.iter().fold(0, |c, &x| c * 6 + (x - 1) as usize);
        let mut faces = Vec::with_capacity(9);
        for _ in 0..pools {
            faces.clear();
            dice.faces(8, 6, "d6", |f| faces.push(f));
            first[cell(&faces[..3])] += 1;
            last[cell(&faces[5..])] += 1;
            faces.clear();
            dice.faces(5, 6, "d6", |f| faces.push(f));
            part[cell(&faces[2..])] += 1;
            faces.clear();
            dice.faces(9, 6, "d6", |f| faces.push(f));
            across[cell(&faces[7..])] += 1;
        }
        for (what, counts, bound) in [
            ("first three of eight", &first, 301.0),
            ("last three of eight", &last, 301.0),
            ("last three of five", &part, 301.0),
            ("eighth and ninth of nine", &across, 75.6),
        ] {
            let chi2 = chi_square_uniform(counts);
            assert!(chi2 < bound, "{what}: chi-square {chi2}");
        }
    }

    #[test]
    fn counted_faces_are_the_faces_rolled() {
        for n in [0, 1, 2, 7, 40, 1023, 1024, 2000] {
            counts_as_rolled::<1>(n, 6);
            counts_as_rolled::<3>(n, 6);
            counts_as_rolled::<6>(n, 6);
            counts_as_rolled::<7>(n, 6);
            counts_as_rolled::<2>(n, 20);
            counts_as_rolled::<4>(n, 2);
        }
    }

    #[test]
    fn a_die_walked_by_classes_has_the_chances_of_its_faces() {
        // A d100 test at EML 37 told apart by success and a ones digit of 0, then a d6 only on
        // a success: the classed walk against the raw one, as exact sums per outcome.
        let class = |r: u32| (r <= 37, r.is_multiple_of(10));
        let experiment = |d: &mut EnumeratingDice, classed: bool| {
            let r = if classed {
                d.d_by(100, "d100", class)
            } else {
                d.d(100, "d100")
            };
            let extra = if r <= 37 { d.d(6, "d6") } else { 0 };
            (class(r), extra)
        };
        type Sixhundredths = std::collections::BTreeMap<((bool, bool), u32), u128>;
        let mut sums: [Sixhundredths; 2] = Default::default();
        let mut walked = [0; 2];
        for (k, sum) in sums.iter_mut().enumerate() {
            EnumeratingDice::for_each_exact(
                |d| experiment(d, k == 0),
                |outcome, n, den| {
                    walked[k] += 1;
                    // Every outcome's denominator here is 100 or 600: count in 600ths.
                    *sum.entry(outcome).or_default() += n * (600 / den);
                    true
                },
            );
        }
        assert_eq!(sums[0], sums[1]);
        assert_eq!(walked, [2 * 6 + 2, 37 * 6 + 63]);
        // Scripted and fast sources roll the die itself.
        let mut scripted = ScriptedDice::new([42]);
        assert_eq!(scripted.d_by(100, "d100", class), 42);
    }
}
