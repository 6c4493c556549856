//! Mergeable tallies and the estimates drawn from them.
//!
//! Every accumulator is an integer (counts, sums, sums of squares, fixed-bin histograms), so
//! merging chunk tallies is exact and the result does not depend on how chunks were spread over
//! threads or machines. Floating point appears only when estimates are drawn at the end:
//! rates with 95% Wilson intervals, means with standard errors, quantiles from histograms.
//!
//! This module knows nothing of any ruleset; rulesets fill a [`Tally`] through its record methods.

/// Which fighter of the duel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Side {
    /// The fighter of the scenario's `[a]` table.
    #[default]
    A = 0,
    /// The fighter of the scenario's `[b]` table.
    B = 1,
}

impl Side {
    /// Both sides, `A` first.
    pub const BOTH: [Side; 2] = [Side::A, Side::B];

    /// The other fighter.
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }

    /// Index into per-side arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// `"a"` or `"b"`, as in the scenario file.
    pub fn key(self) -> &'static str {
        match self {
            Side::A => "a",
            Side::B => "b",
        }
    }
}

/// Whether `columns` are consecutive numbers in this order (`first`, `first + 1`, ...): what a
/// ruleset asserts at compile time of the counts it records together with
/// [`Tally::record_extras`].
pub const fn consecutive(columns: &[usize]) -> bool {
    let mut k = 0;
    while k < columns.len() {
        if columns[k] != columns[0] + k {
            return false;
        }
        k += 1;
    }
    true
}

/// A fixed-bin histogram of non-negative integers: bin `i` counts the value `i`; the last bin
/// also takes every larger value. Values that land in the last bin are also summed exactly, so
/// the mean and standard error are exact whatever the values. Counting a value is one
/// increment; sums are derived from the bins when an estimate is drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Histogram {
    bins: Vec<u64>,
    /// Sum of the values counted in the last bin.
    last_sum: u128,
    /// Sum of the squares of the values counted in the last bin.
    last_sum_sq: u128,
}

impl Histogram {
    /// A histogram of `bins` bins (values `0..bins-1`, the last one open-ended). Allocates once.
    pub fn new(bins: usize) -> Self {
        Histogram {
            bins: vec![0; bins.max(2)],
            last_sum: 0,
            last_sum_sq: 0,
        }
    }

    /// Counts one value.
    #[inline]
    pub fn add(&mut self, value: u32) {
        self.add_times(value, 1);
    }

    /// Counts `value` `times` times (0 or 1 lets the hot path count without a branch).
    #[inline]
    pub fn add_times(&mut self, value: u32, times: u64) {
        let last = self.bins.len() - 1;
        let bin = (value as usize).min(last);
        self.bins[bin] += times;
        if bin == last {
            let v = u128::from(value);
            self.last_sum += v * u128::from(times);
            self.last_sum_sq += v * v * u128::from(times);
        }
    }

    /// Adds another histogram of the same shape.
    pub fn merge(&mut self, other: &Histogram) {
        debug_assert_eq!(self.bins.len(), other.bins.len());
        for (a, b) in self.bins.iter_mut().zip(&other.bins) {
            *a += b;
        }
        self.last_sum += other.last_sum;
        self.last_sum_sq += other.last_sum_sq;
    }

    /// Values counted.
    pub fn count(&self) -> u64 {
        self.bins.iter().sum()
    }

    /// The counts, bin by bin.
    pub fn bins(&self) -> &[u64] {
        &self.bins
    }

    /// The histogram as words: the last bin's two sums, then every bin.
    fn words(&self) -> impl Iterator<Item = String> + '_ {
        [self.last_sum, self.last_sum_sq]
            .into_iter()
            .map(|v| v.to_string())
            .chain(self.bins.iter().map(u64::to_string))
    }

    /// Reads [`Histogram::words`] back into a histogram of the same number of bins.
    fn read_words(&mut self, words: Vec<u128>) -> Option<()> {
        (words.len() == self.bins.len() + 2).then_some(())?;
        self.last_sum = words[0];
        self.last_sum_sq = words[1];
        for (bin, &w) in self.bins.iter_mut().zip(&words[2..]) {
            *bin = u64::try_from(w).ok()?;
        }
        Some(())
    }

    /// The exact sum and sum of squares of the values counted.
    fn sums(&self) -> (u128, u128) {
        let last = self.bins.len() - 1;
        self.bins[..last].iter().enumerate().fold(
            (self.last_sum, self.last_sum_sq),
            |(sum, sum_sq), (value, &c)| {
                let (v, c) = (value as u128, u128::from(c));
                (sum + v * c, sum_sq + v * v * c)
            },
        )
    }

    /// The exact mean, `None` when empty.
    pub fn mean(&self) -> Option<f64> {
        let count = self.count();
        (count > 0).then(|| self.sums().0 as f64 / count as f64)
    }

    /// The standard error of the mean, `None` with fewer than two values.
    pub fn standard_error(&self) -> Option<f64> {
        let count = self.count();
        if count < 2 {
            return None;
        }
        let (sum, sum_sq) = self.sums();
        let n = count as f64;
        let mean = sum as f64 / n;
        let variance = (sum_sq as f64 - n * mean * mean) / (n - 1.0);
        Some((variance.max(0.0) / n).sqrt())
    }

    /// The smallest value `v` with at least `q` of the counts at or below it (`q` in 0..=1).
    /// A quantile in the open last bin is reported as that bin's value.
    pub fn quantile(&self, q: f64) -> Option<u32> {
        let count = self.count();
        if count == 0 {
            return None;
        }
        let target = ((q * count as f64).ceil() as u64).clamp(1, count);
        let mut seen = 0;
        for (value, &c) in self.bins.iter().enumerate() {
            seen += c;
            if seen >= target {
                return Some(value as u32);
            }
        }
        Some(self.bins.len() as u32 - 1)
    }
}

/// A 95% Wilson score interval for `successes` out of `n`: (rate, low, high).
pub fn wilson(successes: u64, n: u64) -> (f64, f64, f64) {
    if n == 0 {
        return (0.0, 0.0, 1.0);
    }
    const Z: f64 = 1.959_963_984_540_054;
    let n_f = n as f64;
    let p = successes as f64 / n_f;
    let z2 = Z * Z;
    let denominator = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / denominator;
    let half = Z * (p * (1.0 - p) / n_f + z2 / (4.0 * n_f * n_f)).sqrt() / denominator;
    // At 0 or n successes the bound is exactly 0 or 1; rounding would leave a hair off it.
    let low = if successes == 0 {
        0.0
    } else {
        (centre - half).max(0.0)
    };
    let high = if successes == n {
        1.0
    } else {
        (centre + half).min(1.0)
    };
    (p, low, high)
}

/// What happened to one fighter after the duel, in its healing timeline.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recovery {
    /// Days until whole, `None` when still wounded at the horizon or dead.
    pub days_to_whole: Option<u32>,
    /// Died during recovery.
    pub died: bool,
    /// Lasting impairment left (0 when none; the ruleset's own units).
    pub impairment: u32,
}

/// The healing timelines of one side, over many trials.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecoveryTally {
    /// Survivors of the duel who had wounds to heal.
    pub patients: u64,
    /// Days to whole of those who became whole within the horizon.
    pub days_to_whole: Histogram,
    /// Patients still wounded at the horizon.
    pub unhealed: u64,
    /// Patients who died during recovery.
    pub deaths: u64,
    /// Patients left with lasting impairment.
    pub impaired: u64,
    /// Patients whole within the horizon and left with lasting impairment (of `impaired`: the
    /// others died, or were not yet whole, with impairment already lasting).
    pub whole_impaired: u64,
    /// Lasting impairment of the impaired.
    pub impairment: Histogram,
    /// Days to whole summed over those who became whole (the histogram's sum, kept for
    /// per-trial outcomes).
    pub healed_days: u64,
}

impl RecoveryTally {
    fn new(horizon_days: u32) -> Self {
        RecoveryTally {
            patients: 0,
            days_to_whole: Histogram::new(horizon_days as usize + 1),
            unhealed: 0,
            deaths: 0,
            impaired: 0,
            whole_impaired: 0,
            impairment: Histogram::new(101),
            healed_days: 0,
        }
    }

    /// Counts one patient's timeline.
    #[inline]
    pub fn record(&mut self, r: &Recovery) {
        self.patients += 1;
        let whole = r.days_to_whole.is_some();
        self.days_to_whole
            .add_times(r.days_to_whole.unwrap_or(0), u64::from(whole));
        self.healed_days += u64::from(r.days_to_whole.unwrap_or(0));
        self.unhealed += u64::from(!whole & !r.died);
        self.deaths += u64::from(r.died);
        let impaired = r.impairment > 0;
        self.impaired += u64::from(impaired);
        self.whole_impaired += u64::from(impaired & whole);
        self.impairment.add_times(r.impairment, u64::from(impaired));
    }

    fn merge(&mut self, o: &RecoveryTally) {
        self.patients += o.patients;
        self.days_to_whole.merge(&o.days_to_whole);
        self.unhealed += o.unhealed;
        self.deaths += o.deaths;
        self.impaired += o.impaired;
        self.whole_impaired += o.whole_impaired;
        self.impairment.merge(&o.impairment);
        self.healed_days += o.healed_days;
    }

    /// Patients who became whole within the horizon.
    pub fn healed(&self) -> u64 {
        self.patients - self.unhealed - self.deaths
    }
}

/// How a ruleset-specific count is reported in `summary.csv`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExtraKind {
    /// A share of trials, with its interval (`<name>_rate`, `_lo`, `_hi`).
    ShareOfTrials,
    /// A share of one side's fighters over the trials (its count over the side's fighters
    /// times the trials; for a side of one, a share of trials), with its interval.
    ShareOfSide(Side),
    /// A share of patients (wounded survivors of both sides), with its interval.
    ShareOfPatients,
    /// A mean per patient (`<name>_mean`).
    MeanPerPatient,
    /// A mean per trial (`<name>_mean`).
    MeanPerTrial,
    /// A mean over the count of another extra (its index in [`Tally::extra`]): a campaign's
    /// fighters standing at an encounter's start, over the campaigns that reach it.
    MeanOf(usize),
    /// A share of the count of another extra (its index in [`Tally::extra`]), with its
    /// interval: a ruleset's share of fights, over a campaign's fights.
    ShareOf(usize),
}

/// A ruleset-specific count: what it is called in `summary.csv` and how it is reported.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extra {
    /// Column name (without the `_rate` / `_mean` suffix).
    pub name: &'static str,
    /// How it is reported.
    pub kind: ExtraKind,
}

/// The sizes a tally's histograms need; fixed per scenario point before the loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TallyShape {
    /// The round limit: rounds are counted in bins 0..=limit.
    pub round_limit: u32,
    /// Largest damage binned exactly; larger damage goes in the last bin.
    pub max_damage: u32,
    /// The healing horizon in days.
    pub horizon_days: u32,
    /// The ruleset's own counts, in [`Tally::extra`] order.
    pub extras: &'static [Extra],
    /// The fighters on each side (1 and 1 for a duel).
    pub sides: [u32; 2],
}

impl TallyShape {
    /// The most bytes [`Tally::to_text`] can write for a tally of this shape: every count a
    /// histogram bin or a sum can hold at its widest (40 digits and a space), and the line
    /// names. A tally file larger than this (and its digest line) is not one duelsim wrote.
    pub fn text_cap(&self) -> u64 {
        let bins = u64::from(self.round_limit)
            + 1
            + 2 * (u64::from(self.max_damage) + 1)
            + 2 * (u64::from(self.horizon_days) + 1 + 101 + 5);
        let fighters = 9 * u64::from(self.sides[0] + self.sides[1]); // at most
        let counts =
            bins + self.extras.len() as u64 + 8 + 1 + 3 * PAIRED.len() as u64 + 2 + fighters;
        4096 + 41 * counts
    }
}

/// The unit of a paired dead outcome: a side's dead per trial are counted as a share of its
/// fighters times this (every side size 1 to 16 divides it), so the dead deltas are per
/// fighter, as the dead rates beside them.
pub const DEAD_SHARE: i64 = 720_720;

/// Each [`PAIRED`] outcome's unit in [`Paired`]'s sums: [`DEAD_SHARE`] for the dead, 1 else.
const PAIRED_UNIT: [f64; 8] = [
    1.0,
    1.0,
    1.0,
    DEAD_SHARE as f64,
    DEAD_SHARE as f64,
    1.0,
    1.0,
    1.0,
];

/// The per-trial outcomes compared between a point and its baseline on the same dice, in
/// [`Paired`] order: the column stems of `summary.csv`'s deltas.
pub const PAIRED: [&str; 8] = [
    "a_win",
    "b_win",
    "draw",
    "a_dead",
    "b_dead",
    "rounds",
    "recovery_deaths",
    "impaired",
];

/// Sums of the per-trial differences between a point and its baseline run on the same dice
/// (common random numbers), one per [`PAIRED`] outcome: exact integers, merged like the rest.
/// The mean difference and its standard error come from the sum and the sum of squares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Paired {
    /// Trials compared.
    pub pairs: u64,
    /// Sum of the differences (point − baseline).
    pub sum: [i64; 8],
    /// Sum of the squared differences.
    pub sum_sq: [u128; 8],
    /// For the days to whole of the healed, a ratio (days over patients healed) at the point
    /// and at the baseline: the sums and cross-products of the per-trial (days, healed) of
    /// both, in [`Paired::ratio`] order, for the delta method's interval.
    pub ratio: [u128; 14],
}

/// Per trial: days to whole summed over the healed, and how many healed, at the point (`p`)
/// and at the baseline (`b`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Healed {
    /// Days at the point.
    pub days_p: u64,
    /// Healed at the point.
    pub n_p: u64,
    /// Days at the baseline.
    pub days_b: u64,
    /// Healed at the baseline.
    pub n_b: u64,
}

impl Paired {
    /// Counts one trial's differences.
    #[inline]
    pub fn add(&mut self, difference: [i64; 8], healed: Healed) {
        self.pairs += 1;
        for ((s, q), d) in self.sum.iter_mut().zip(&mut self.sum_sq).zip(difference) {
            *s += d;
            *q += u128::from(d.unsigned_abs()) * u128::from(d.unsigned_abs());
        }
        if healed != Healed::default() {
            let (dp, np, db, nb) = (
                u128::from(healed.days_p),
                u128::from(healed.n_p),
                u128::from(healed.days_b),
                u128::from(healed.n_b),
            );
            for (r, v) in self.ratio.iter_mut().zip([
                dp,
                np,
                db,
                nb,
                dp * dp,
                np * np,
                dp * np,
                db * db,
                nb * nb,
                db * nb,
                dp * db,
                dp * nb,
                np * db,
                np * nb,
            ]) {
                *r += v;
            }
        }
    }

    /// The difference in mean days to whole of the healed (point minus baseline) with its 95%
    /// interval by the delta method over the paired trials; `None` when either side healed
    /// nobody.
    pub fn ratio_delta(&self) -> Option<(f64, f64, f64)> {
        let r = self.ratio.map(|v| v as f64);
        let n = self.pairs as f64;
        if self.pairs < 2 || r[1] == 0.0 || r[3] == 0.0 {
            return None;
        }
        let (rp, rb) = (r[0] / r[1], r[2] / r[3]);
        let (np_mean, nb_mean) = (r[1] / n, r[3] / n);
        let aa = r[4] - 2.0 * rp * r[6] + rp * rp * r[5];
        let bb = r[7] - 2.0 * rb * r[9] + rb * rb * r[8];
        let ab = r[10] - rb * r[11] - rp * r[12] + rp * rb * r[13];
        let zz =
            aa / (np_mean * np_mean) + bb / (nb_mean * nb_mean) - 2.0 * ab / (np_mean * nb_mean);
        let half = 1.959_963_984_540_054 * (zz.max(0.0) / (n * (n - 1.0))).sqrt();
        let d = rp - rb;
        Some((d, d - half, d + half))
    }

    /// Adds another set of sums.
    pub fn merge(&mut self, o: &Paired) {
        self.pairs += o.pairs;
        for i in 0..8 {
            self.sum[i] += o.sum[i];
            self.sum_sq[i] += o.sum_sq[i];
        }
        for (mine, theirs) in self.ratio.iter_mut().zip(&o.ratio) {
            *mine += theirs;
        }
    }

    /// The mean difference of outcome `i` with its 95% interval (normal, from the paired
    /// differences' standard error); `None` with no pairs.
    pub fn delta(&self, i: usize) -> Option<(f64, f64, f64)> {
        if self.pairs == 0 {
            return None;
        }
        let n = self.pairs as f64;
        let unit = PAIRED_UNIT[i];
        let mean = self.sum[i] as f64 / n;
        if self.pairs < 2 {
            return Some((mean / unit, mean / unit, mean / unit));
        }
        let variance = ((self.sum_sq[i] as f64 - n * mean * mean) / (n - 1.0)).max(0.0);
        let half = 1.959_963_984_540_054 * (variance / n).sqrt();
        Some(((mean) / unit, (mean - half) / unit, (mean + half) / unit))
    }

    /// The variance of the paired differences of outcome `i` (0 with fewer than two pairs).
    pub fn variance(&self, i: usize) -> f64 {
        if self.pairs < 2 {
            return 0.0;
        }
        let n = self.pairs as f64;
        let mean = self.sum[i] as f64 / n;
        ((self.sum_sq[i] as f64 - n * mean * mean) / (n - 1.0)).max(0.0)
            / (PAIRED_UNIT[i] * PAIRED_UNIT[i])
    }
}

/// One fighter's counts over a set of trials (`fighters.csv`): how often it was out of the
/// fight, dead, wounded, and its healing as a patient.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FighterTally {
    /// Trials it ended out of the fight: incapacitated (or fled) before the end; a duel's
    /// fighter when its foe won. Dying of its wounds after the fight is `dead`, not `out`.
    pub out: u64,
    /// Trials it ended dead (in the fight or its aftermath).
    pub dead: u64,
    /// Trials it survived wounded: a patient.
    pub patients: u64,
    /// Patients still wounded at the horizon.
    pub unhealed: u64,
    /// Patients dead in recovery.
    pub deaths: u64,
    /// Patients left with lasting impairment.
    pub impaired: u64,
    /// Patients whole within the horizon.
    pub healed: u64,
    /// Their days to whole, summed.
    pub healed_days: u64,
}

impl FighterTally {
    /// The counts in [`Tally::to_text`] order.
    fn counts(&self) -> [u64; 8] {
        [
            self.out,
            self.dead,
            self.patients,
            self.unhealed,
            self.deaths,
            self.impaired,
            self.healed,
            self.healed_days,
        ]
    }

    fn from_counts(c: [u64; 8]) -> Self {
        let [
            out,
            dead,
            patients,
            unhealed,
            deaths,
            impaired,
            healed,
            healed_days,
        ] = c;
        FighterTally {
            out,
            dead,
            patients,
            unhealed,
            deaths,
            impaired,
            healed,
            healed_days,
        }
    }

    /// Counts one patient's healing.
    #[inline]
    fn record(&mut self, r: &Recovery) {
        let whole = r.days_to_whole.is_some();
        self.patients += 1;
        self.unhealed += u64::from(!whole & !r.died);
        self.deaths += u64::from(r.died);
        self.impaired += u64::from(r.impairment > 0);
        self.healed += u64::from(whole);
        self.healed_days += u64::from(r.days_to_whole.unwrap_or(0));
    }
}

/// Everything counted over a set of trials. Allocated once per chunk, merged exactly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Trials run.
    pub trials: u64,
    /// Duels won by `a`, won by `b`, and drawn (the round limit reached with both still in
    /// the fight), indexed by [`DuelOutcome::end`].
    pub ends: [u64; 3],
    /// Fighters dead by the end of the duel and its aftermath.
    pub dead: [u64; 2],
    /// Each side's fighters, as many as the point's [`TallyShape::sides`].
    pub sides: [u32; 2],
    /// Each fighter's counts in a skirmish, side `a`'s first; empty for a duel, whose two
    /// fighters are its sides ([`Tally::fighter`]).
    pub fighters: Vec<FighterTally>,
    /// Rounds each duel lasted.
    pub rounds: Histogram,
    /// Damage dealt by each hit, after armour (0 when the armour stopped it all), by the
    /// striking side.
    pub hit_damage: [Histogram; 2],
    /// Healing timelines of each side's wounded survivors.
    pub recovery: [RecoveryTally; 2],
    /// The ruleset's own counts, one per [`TallyShape::extras`] entry.
    pub extra: Vec<u64>,
    /// What the extra counts are.
    pub extras: &'static [Extra],
    /// Rounds fought over all duels (the rounds histogram's sum, kept for per-trial outcomes).
    pub rounds_fought: u64,
    /// Differences from the baseline on the same dice, when the point is compared with one.
    pub paired: Paired,
}

/// How one duel ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DuelOutcome {
    /// The side still in the fight, `None` for a draw at the round limit.
    pub winner: Option<Side>,
    /// Rounds fought.
    pub rounds: u32,
    /// How many of each side's fighters are dead after the fight and its aftermath.
    pub dead: [u32; 2],
}

impl DuelOutcome {
    /// 0 when `a` won, 1 when `b` won, 2 for a draw: the index into [`Tally::ends`].
    #[inline]
    pub fn end(&self) -> usize {
        self.winner.map_or(2, Side::index)
    }
}

impl Tally {
    /// Duels won by `side`.
    pub fn wins(&self, side: Side) -> u64 {
        self.ends[side.index()]
    }

    /// Duels drawn at the round limit.
    pub fn draws(&self) -> u64 {
        self.ends[2]
    }

    /// An empty tally with histograms of the given shape.
    pub fn new(shape: TallyShape) -> Self {
        Tally {
            trials: 0,
            ends: [0; 3],
            dead: [0; 2],
            sides: shape.sides,
            // A duel's fighters are its sides: none counted apart ([`Tally::fighter`]).
            fighters: if shape.sides == [1, 1] {
                Vec::new()
            } else {
                vec![FighterTally::default(); (shape.sides[0] + shape.sides[1]) as usize]
            },
            rounds: Histogram::new(shape.round_limit as usize + 1),
            hit_damage: [
                Histogram::new(shape.max_damage as usize + 1),
                Histogram::new(shape.max_damage as usize + 1),
            ],
            recovery: [
                RecoveryTally::new(shape.horizon_days),
                RecoveryTally::new(shape.horizon_days),
            ],
            extra: vec![0; shape.extras.len()],
            extras: shape.extras,
            rounds_fought: 0,
            paired: Paired::default(),
        }
    }

    /// Days to whole summed over the healed, and how many healed, so far (both sides).
    #[inline]
    pub fn healed_counts(&self) -> (u64, u64) {
        let r = &self.recovery;
        (
            r[0].healed_days + r[1].healed_days,
            r[0].healed() + r[1].healed(),
        )
    }

    /// The running counts of the [`PAIRED`] outcomes: the difference across one trial is that
    /// trial's outcome.
    #[inline]
    pub fn outcome_counts(&self) -> [i64; 8] {
        let r = &self.recovery;
        [
            self.ends[0] as i64,
            self.ends[1] as i64,
            self.ends[2] as i64,
            // Dead as shares of the side's fighters, in units of 1 / DEAD_SHARE, so a point
            // and a baseline with sides of other sizes compare per fighter.
            self.dead[0] as i64 * (DEAD_SHARE / i64::from(self.sides[0].max(1))),
            self.dead[1] as i64 * (DEAD_SHARE / i64::from(self.sides[1].max(1))),
            self.rounds_fought as i64,
            (r[0].deaths + r[1].deaths) as i64,
            (r[0].impaired + r[1].impaired) as i64,
        ]
    }

    /// Fighters fought on one side over all trials (trials × the side's fighters): what the
    /// side's pooled rates (dead) are shares of; the trials for a side of one.
    pub fn fighter_trials(&self, side: usize) -> u64 {
        self.trials * u64::from(self.sides[side])
    }

    /// Counts one duel's outcome.
    #[inline]
    pub fn record_duel(&mut self, outcome: &DuelOutcome) {
        self.trials += 1;
        self.ends[outcome.end()] += 1;
        for side in Side::BOTH {
            self.dead[side.index()] += u64::from(outcome.dead[side.index()]);
        }

        self.rounds.add(outcome.rounds);
        self.rounds_fought += u64::from(outcome.rounds);
    }

    /// Counts the damage of one attack by `striker` when it hit (`hit` false counts nothing),
    /// without a branch.
    #[inline]
    pub fn record_hit(&mut self, striker: Side, damage: u32, hit: bool) {
        self.hit_damage[striker.index()].add_times(damage, u64::from(hit));
    }

    /// The damage of every hit, by either side.
    pub fn hit_damage_pooled(&self) -> Histogram {
        let mut pooled = self.hit_damage[0].clone();
        pooled.merge(&self.hit_damage[1]);
        pooled
    }

    /// Counts one wounded survivor's healing timeline.
    #[inline]
    pub fn record_recovery(&mut self, side: Side, recovery: &Recovery) {
        self.recovery[side.index()].record(recovery);
    }

    /// Fighter `i`'s counts (side `a`'s first). A duel's two fighters are its sides, so theirs
    /// are read from the side counts (nothing more is counted per trial on a duel's hot path);
    /// a skirmish counts each fighter ([`Tally::record_fighter`]).
    pub fn fighter(&self, i: usize) -> FighterTally {
        if let Some(f) = self.fighters.get(i) {
            return *f;
        }
        let side = i.min(1);
        let r = &self.recovery[side];
        FighterTally {
            out: self.ends[1 - side],
            dead: self.dead[side],
            patients: r.patients,
            unhealed: r.unhealed,
            deaths: r.deaths,
            impaired: r.impaired,
            healed: r.healed(),
            healed_days: r.healed_days,
        }
    }

    /// Counts how one fighter of a side of several (fighter `i`, side `a`'s first) ended a
    /// fight: out of it, dead.
    #[inline]
    pub fn record_fighter(&mut self, i: usize, out: bool, dead: bool) {
        // A duel's fighters are its sides: nothing to count apart.
        if let Some(f) = self.fighters.get_mut(i) {
            f.out += u64::from(out);
            f.dead += u64::from(dead);
        }
    }

    /// Counts the healing timeline of fighter `i` of `side`, a side of several.
    #[inline]
    pub fn record_recovery_of(&mut self, i: usize, side: Side, recovery: &Recovery) {
        self.recovery[side.index()].record(recovery);
        if let Some(f) = self.fighters.get_mut(i) {
            f.record(recovery);
        }
    }

    /// Adds `n` to the ruleset's own count number `index`.
    #[inline]
    pub fn record_extra(&mut self, index: usize, n: u64) {
        self.extra[index] += n;
    }

    /// Adds `counts` to the ruleset's own counts number `first`, `first + 1`, ...: the same as
    /// a [`Tally::record_extra`] for each, with one bounds check for them all. A ruleset keeps
    /// such columns together with a `const` assertion of [`consecutive`].
    #[inline]
    pub fn record_extras<const N: usize>(&mut self, first: usize, counts: [u64; N]) {
        for (count, n) in self.extra[first..first + N].iter_mut().zip(counts) {
            *count += n;
        }
    }

    /// Adds another tally of the same shape.
    pub fn merge(&mut self, o: &Tally) {
        for (mine, theirs) in self.extra.iter_mut().zip(&o.extra) {
            *mine += theirs;
        }
        self.trials += o.trials;
        for (mine, theirs) in self.fighters.iter_mut().zip(&o.fighters) {
            let mut counts = mine.counts();
            for (m, t) in counts.iter_mut().zip(theirs.counts()) {
                *m += t;
            }
            *mine = FighterTally::from_counts(counts);
        }
        for i in 0..2 {
            self.dead[i] += o.dead[i];
            self.recovery[i].merge(&o.recovery[i]);
        }
        for (mine, theirs) in self.ends.iter_mut().zip(&o.ends) {
            *mine += theirs;
        }
        self.rounds.merge(&o.rounds);
        for (mine, theirs) in self.hit_damage.iter_mut().zip(&o.hit_damage) {
            mine.merge(theirs);
        }
        self.rounds_fought += o.rounds_fought;
        self.paired.merge(&o.paired);
    }

    /// The whole tally as lines of integers, for the journal of a run in progress: reading it
    /// back with [`Tally::from_text`] gives an equal tally, so a resumed run ends with the bytes
    /// of one never interrupted.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let mut line = |name: &str, values: &mut dyn Iterator<Item = String>| {
            out.push_str(name);
            for v in values {
                out.push(' ');
                out.push_str(&v);
            }
            out.push('\n');
        };
        line("trials", &mut std::iter::once(self.trials.to_string()));
        line("ends", &mut self.ends.iter().map(u64::to_string));
        line("dead", &mut self.dead.iter().map(u64::to_string));
        line("rounds", &mut self.rounds.words());
        for h in &self.hit_damage {
            line("hit_damage", &mut h.words());
        }
        for r in &self.recovery {
            line(
                "recovery",
                &mut [
                    r.patients,
                    r.unhealed,
                    r.deaths,
                    r.impaired,
                    r.whole_impaired,
                ]
                .into_iter()
                .map(|v| v.to_string()),
            );
            line("days_to_whole", &mut r.days_to_whole.words());
            line("impairment", &mut r.impairment.words());
        }
        line("extra", &mut self.extra.iter().map(u64::to_string));
        for f in &self.fighters {
            line("fighter", &mut f.counts().iter().map(u64::to_string));
        }
        let p = &self.paired;
        line(
            "paired",
            &mut std::iter::once(p.pairs.to_string())
                .chain(p.sum.iter().map(i64::to_string))
                .chain(p.sum_sq.iter().map(u128::to_string))
                .chain(p.ratio.iter().map(u128::to_string)),
        );
        out
    }

    /// Reads [`Tally::to_text`] back for a point of this shape; `None` when the text is not a
    /// whole tally of that shape.
    pub fn from_text(text: &str, shape: TallyShape) -> Option<Tally> {
        let mut t = Tally::new(shape);
        let mut lines = text.lines();
        let mut next = |name: &str| -> Option<Vec<u128>> {
            let line = lines.next()?;
            let mut words = line.split(' ');
            (words.next()? == name).then_some(())?;
            words.map(|w| w.parse().ok()).collect()
        };
        let fixed = |v: Vec<u128>, out: &mut [u64]| -> Option<()> {
            (v.len() == out.len()).then_some(())?;
            for (o, x) in out.iter_mut().zip(v) {
                *o = u64::try_from(x).ok()?;
            }
            Some(())
        };
        let mut trials = [0];
        fixed(next("trials")?, &mut trials)?;
        t.trials = trials[0];
        fixed(next("ends")?, &mut t.ends)?;
        fixed(next("dead")?, &mut t.dead)?;
        t.rounds.read_words(next("rounds")?)?;
        for h in &mut t.hit_damage {
            h.read_words(next("hit_damage")?)?;
        }
        for r in &mut t.recovery {
            let mut counts = [0; 5];
            fixed(next("recovery")?, &mut counts)?;
            [
                r.patients,
                r.unhealed,
                r.deaths,
                r.impaired,
                r.whole_impaired,
            ] = counts;
            r.days_to_whole.read_words(next("days_to_whole")?)?;
            r.impairment.read_words(next("impairment")?)?;
        }
        fixed(next("extra")?, &mut t.extra)?;
        for f in &mut t.fighters {
            let mut counts = [0; 8];
            fixed(next("fighter")?, &mut counts)?;
            *f = FighterTally::from_counts(counts);
        }
        let paired = lines.next()?;
        let mut words = paired.split(' ');
        (words.next()? == "paired").then_some(())?;
        let words: Vec<&str> = words.collect();
        (words.len() == 31).then_some(())?;
        t.paired.pairs = words[0].parse().ok()?;
        for i in 0..8 {
            t.paired.sum[i] = words[1 + i].parse().ok()?;
            t.paired.sum_sq[i] = words[9 + i].parse().ok()?;
        }
        for i in 0..14 {
            t.paired.ratio[i] = words[17 + i].parse().ok()?;
        }
        // Rounds fought, and days to whole, are their histograms' sums.
        t.rounds_fought = u64::try_from(t.rounds.sums().0).ok()?;
        for r in &mut t.recovery {
            r.healed_days = u64::try_from(r.days_to_whole.sums().0).ok()?;
        }
        (lines.next().is_none()).then_some(t)
    }

    /// Both sides' healing timelines pooled.
    pub fn recovery_pooled(&self) -> RecoveryTally {
        let mut pooled = self.recovery[0].clone();
        pooled.merge(&self.recovery[1]);
        pooled
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_columns_are_first_then_one_more_each() {
        assert!(consecutive(&[3, 4, 5]));
        assert!(consecutive(&[7]));
        assert!(consecutive(&[]));
        assert!(!consecutive(&[3, 5]));
        assert!(!consecutive(&[4, 3]));
    }

    #[test]
    fn a_tally_read_back_from_its_text_is_equal() {
        const EXTRAS: &[Extra] = &[Extra {
            name: "x",
            kind: ExtraKind::MeanPerTrial,
        }];
        let shape = TallyShape {
            round_limit: 5,
            max_damage: 3,
            horizon_days: 10,
            extras: EXTRAS,
            sides: [1, 1],
        };
        let mut t = Tally::new(shape);
        t.record_duel(&DuelOutcome {
            winner: Some(Side::B),
            dead: [1, 0],
            rounds: 9,
        });
        t.record_hit(Side::A, 7, true);
        t.record_recovery(
            Side::B,
            &Recovery {
                days_to_whole: Some(4),
                died: false,
                impairment: 3,
            },
        );
        t.record_extra(0, 5);
        let back = Tally::from_text(&t.to_text(), shape);
        assert_eq!(back.as_ref(), Some(&t));
        let other = TallyShape {
            horizon_days: 11,
            ..shape
        };
        assert_eq!(Tally::from_text(&t.to_text(), other), None);
        let cut = t.to_text();
        assert_eq!(Tally::from_text(&cut[..cut.len() - 4], shape), None);
    }

    #[test]
    fn histogram_mean_quantiles_and_overflow() {
        let mut h = Histogram::new(5);
        for v in [1, 2, 2, 3, 10] {
            h.add(v);
        }
        assert_eq!(h.bins(), &[0, 1, 2, 1, 1]);
        assert_eq!(h.mean(), Some(18.0 / 5.0));
        assert_eq!(h.quantile(0.5), Some(2));
        assert_eq!(h.quantile(0.9), Some(4));
        assert_eq!(h.quantile(0.2), Some(1));
        assert_eq!(Histogram::new(3).quantile(0.5), None);
    }

    #[test]
    fn histogram_standard_error_matches_formula() {
        let mut h = Histogram::new(10);
        for v in [2, 4, 4, 4, 5, 5, 7, 9] {
            h.add(v);
        }
        // Sample variance of these eight values is 32/7.
        let expected = (32.0f64 / 7.0 / 8.0).sqrt();
        let se = h.standard_error().unwrap_or(f64::NAN);
        assert!((se - expected).abs() < 1e-12, "{se} vs {expected}");
    }

    #[test]
    fn wilson_interval_known_values() {
        // 8 of 10: the 95% Wilson interval is (0.4902, 0.9433).
        let (p, lo, hi) = wilson(8, 10);
        assert!((p - 0.8).abs() < 1e-12);
        assert!((lo - 0.4902).abs() < 1e-4, "{lo}");
        assert!((hi - 0.9433).abs() < 1e-4, "{hi}");
        let (_, lo0, hi0) = wilson(0, 100);
        assert_eq!(lo0, 0.0);
        assert!(hi0 > 0.03 && hi0 < 0.04);
    }

    #[test]
    fn a_skirmish_tallys_fighters_merge_and_read_back() {
        let shape = TallyShape {
            round_limit: 3,
            max_damage: 3,
            horizon_days: 3,
            extras: &[],
            sides: [1, 2],
        };
        let (mut one, mut two) = (Tally::new(shape), Tally::new(shape));
        one.record_fighter(2, true, true);
        two.record_fighter(2, true, false);
        two.record_fighter(0, false, false);
        one.merge(&two);
        assert_eq!((one.fighters[2].out, one.fighters[2].dead), (2, 1));
        assert_eq!(Tally::from_text(&one.to_text(), shape), Some(one));
    }

    #[test]
    fn merging_is_the_same_as_counting_together() {
        let shape = TallyShape {
            round_limit: 10,
            max_damage: 20,
            horizon_days: 30,
            extras: &[],
            sides: [1, 1],
        };
        let outcomes = [
            DuelOutcome {
                winner: Some(Side::A),
                rounds: 3,
                dead: [0, 1],
            },
            DuelOutcome {
                winner: None,
                rounds: 10,
                dead: [0, 0],
            },
            DuelOutcome {
                winner: Some(Side::B),
                rounds: 1,
                dead: [0, 0],
            },
        ];
        let mut whole = Tally::new(shape);
        let mut first = Tally::new(shape);
        let mut second = Tally::new(shape);
        for (i, o) in outcomes.iter().enumerate() {
            whole.record_duel(o);
            whole.record_hit(Side::B, i as u32 * 7, true);
            let part = if i == 0 { &mut first } else { &mut second };
            part.record_duel(o);
            part.record_hit(Side::B, i as u32 * 7, true);
        }
        let r = Recovery {
            days_to_whole: Some(14),
            died: false,
            impairment: 0,
        };
        whole.record_recovery(Side::B, &r);
        second.record_recovery(Side::B, &r);
        first.merge(&second);
        assert_eq!(first, whole);
        assert_eq!(whole.ends, [1, 1, 1]);
        assert_eq!(whole.recovery[1].patients, 1);
    }

    #[test]
    fn the_days_to_whole_difference_is_a_ratio_of_the_healed() {
        // Every healed patient takes 10 days at the point and 8 at the baseline: the mean days
        // differ by exactly 2, with no spread; a trial where nobody heals counts only as a pair.
        let mut p = Paired::default();
        for (np, nb) in [(1, 2), (2, 1), (0, 0), (3, 3)] {
            p.add(
                [0; 8],
                Healed {
                    days_p: 10 * np,
                    n_p: np,
                    days_b: 8 * nb,
                    n_b: nb,
                },
            );
        }
        let (d, lo, hi) = p.ratio_delta().unwrap_or((0.0, -1.0, 1.0));
        assert!(
            (d - 2.0).abs() < 1e-12 && (hi - lo).abs() < 1e-9,
            "{d} [{lo}, {hi}]"
        );
        // Nobody healed at the baseline: no difference to give.
        let mut none = Paired::default();
        none.add(
            [0; 8],
            Healed {
                days_p: 5,
                n_p: 1,
                days_b: 0,
                n_b: 0,
            },
        );
        none.add(
            [0; 8],
            Healed {
                days_p: 5,
                n_p: 1,
                days_b: 0,
                n_b: 0,
            },
        );
        assert_eq!(none.ratio_delta(), None);
    }
}
