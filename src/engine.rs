//! The deterministic parallel runner: trials in fixed-size chunks, one generator per chunk,
//! rayon across chunks, chunk tallies merged exactly.
//!
//! Each chunk's dice are seeded from (scenario seed, point index, chunk index) by
//! [`chunk_seed`], so a chunk's trials are the same whichever thread runs it, and the merged
//! tally is the same whatever the thread count: every accumulator is an integer, so adding
//! chunk tallies in any order gives the bytes that adding them in chunk order gives. Workers
//! count into one tally each, so memory does not grow with the trial count.
//! The engine knows no ruleset: it runs anything that implements [`Ruleset`].

use crate::dice::FastDice;
use crate::log::NoLog;
use crate::rules::Ruleset;
use crate::rules::registry::Model;
use crate::stats::{Tally, wilson};
use indicatif::ProgressBar;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};

/// Trials in one chunk. Part of the output's identity: changing it changes every number.
pub const CHUNK_TRIALS: u64 = 8192;

/// The fewest paired trials after which `[precision]` trusts a compared point's differences.
pub const MIN_PAIRED_TRIALS: u64 = 4 * CHUNK_TRIALS;

/// Chunks a point runs between two looks at Ctrl-C and two saved prefixes (about a million
/// trials). Not part of the output's identity: tallies add exactly, in any grouping.
pub const SEGMENT_CHUNKS: u64 = 128;

/// The progress of a long point: where it starts (`from`: the next chunk and the tally of the
/// chunks before it, from a journal) and `save`, called with every longer finished prefix.
pub struct Prefix<'a> {
    /// A saved prefix to start from.
    pub from: Option<(u64, Tally)>,
    /// Called after every segment with the next chunk and the tally of the chunks before it.
    pub save: &'a mut dyn FnMut(u64, &Tally),
}

impl Prefix<'_> {
    /// From the start, saving nothing.
    pub fn none(save: &mut dyn FnMut(u64, &Tally)) -> Prefix<'_> {
        Prefix { from: None, save }
    }
}

/// SplitMix64's output function: a bijective 64-bit mix.
#[inline]
pub fn mix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The seed of one chunk: `mix64(mix64(seed) ^ chunk)`. It does not depend on the point:
/// every point of a scenario rolls the same dice (common random numbers), so two points are
/// compared on the same luck and their difference is known far more precisely.
pub fn chunk_seed(seed: u64, chunk: u64) -> u64 {
    mix64(mix64(seed) ^ chunk)
}

/// The seed of trial `trial` of a chunk: `mix64(chunk_seed + trial)`, the key of the trial's
/// dice streams ([`FastDice`]). Each trial starts its own dice, so trial `i` of two points
/// begins from the same dice even when earlier trials rolled different numbers of them.
#[inline]
pub fn trial_seed(chunk_seed: u64, trial: u64) -> u64 {
    mix64(chunk_seed.wrapping_add(trial))
}

/// The most slices a run may be split into: far more machines than any cluster gives one run,
/// and few enough that merging counts them at once.
pub const MAX_SHARDS: u64 = 1_000_000;

/// One slice of every point's chunks, for a run spread over machines (`--shard K/N`): chunk
/// `c` belongs to the slice `c % count`. The slices' tallies add up to the whole run's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// Which slice, from 0.
    pub index: u64,
    /// How many slices.
    pub count: u64,
}

impl Shard {
    /// The whole run.
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Whether chunk `chunk` is in this slice.
    #[inline]
    pub fn has(self, chunk: u64) -> bool {
        chunk % self.count == self.index
    }

    /// The trials this slice runs of a point of `trials`.
    pub fn trials(self, trials: u64) -> u64 {
        (0..trials.div_ceil(CHUNK_TRIALS))
            .filter(|&c| self.has(c))
            .map(|c| CHUNK_TRIALS.min(trials - c * CHUNK_TRIALS))
            .sum()
    }
}

/// How long one point runs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// Exactly this many trials.
    Trials(u64),
    /// One slice of the chunks of a point of this many trials.
    Slice {
        /// The whole point's trials.
        trials: u64,
        /// The slice.
        shard: Shard,
    },
    /// Whole chunks until both win rates' 95% Wilson intervals are no wider than `half_width`
    /// either side, checked after every chunk in chunk order, or until `max_trials`.
    Precision {
        /// The target half-width.
        half_width: f64,
        /// The cap.
        max_trials: u64,
    },
}

impl Budget {
    /// The most trials the point may run.
    pub fn cap(self) -> u64 {
        match self {
            Budget::Trials(n) => n,
            Budget::Slice { trials, shard } => shard.trials(trials),
            Budget::Precision { max_trials, .. } => max_trials,
        }
    }
}

/// Whether both win rates of `tally` are known to within `half_width` (95% Wilson interval);
/// for a point compared with a baseline, whether both win-rate differences are (the paired
/// differences' interval).
pub fn precise_enough(tally: &Tally, half_width: f64) -> bool {
    if tally.paired.pairs > 0 {
        // Differences that have not yet varied give a zero-width interval: trust them only
        // after a few chunks.
        if tally.paired.pairs < MIN_PAIRED_TRIALS {
            return false;
        }
        return (0..2).all(|i| {
            tally
                .paired
                .delta(i)
                .is_some_and(|(_, lo, hi)| (hi - lo) / 2.0 <= half_width)
        });
    }
    [tally.ends[0], tally.ends[1]].iter().all(|&wins| {
        let (_, lo, hi) = wilson(wins, tally.trials);
        (hi - lo) / 2.0 <= half_width
    })
}

/// What one point runs: its model, the baseline it is compared with on the same dice (if any),
/// and the scenario's seed.
pub struct Job<'a, R> {
    /// The point's model.
    pub model: &'a R,
    /// The baseline point's model: each trial is also run on it, on the same dice, and the
    /// differences are summed in [`Tally::paired`].
    pub baseline: Option<&'a R>,
    /// The scenario's seed.
    pub seed: u64,
}

impl<R> Clone for Job<'_, R> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<R> Copy for Job<'_, R> {}

impl<'a, R> Job<'a, R> {
    /// A point on its own.
    pub fn alone(model: &'a R, seed: u64) -> Self {
        Job {
            model,
            baseline: None,
            seed,
        }
    }
}

/// Runs one point within its budget; `None` when `stop` was raised before it finished (the
/// point's finished prefix went to `prefix.save`).
pub fn run_budget<R: Ruleset>(
    job: Job<R>,
    budget: Budget,
    progress: &ProgressBar,
    stop: &AtomicBool,
    prefix: Prefix,
) -> Option<Tally> {
    let tally = match budget {
        Budget::Trials(trials) => run_segments(job, trials, Shard::WHOLE, progress, stop, prefix),
        Budget::Slice { trials, shard } => run_segments(job, trials, shard, progress, stop, prefix),
        Budget::Precision {
            half_width,
            max_trials,
        } => run_until_precise(job, half_width, max_trials, progress, stop)?,
    };
    (!stop.load(Ordering::Relaxed)).then_some(tally)
}

/// Runs chunks in batches across the pool, then adds them in chunk order, stopping at the
/// first chunk after which the target is met. The batch size only decides how much work past
/// that chunk is wasted; the tally is the same whatever the thread count.
fn run_until_precise<R: Ruleset>(
    job: Job<R>,
    half_width: f64,
    max_trials: u64,
    progress: &ProgressBar,
    stop: &AtomicBool,
) -> Option<Tally> {
    let shape = job.model.shape();
    let chunks = max_trials.div_ceil(CHUNK_TRIALS);
    let batch = 4 * rayon::current_num_threads() as u64;
    let mut total = Tally::new(shape);
    let mut first = 0;
    while first < chunks {
        let end = (first + batch).min(chunks);
        let parts: Vec<Option<Tally>> = (first..end)
            .into_par_iter()
            .map(|chunk| {
                if stop.load(Ordering::Relaxed) {
                    return None;
                }
                let mut part = Tally::new(shape);
                let mut scratch = job.baseline.map(|b| Tally::new(b.shape()));
                let n = CHUNK_TRIALS.min(max_trials - chunk * CHUNK_TRIALS);
                run_chunk(
                    job,
                    chunk_seed(job.seed, chunk),
                    n,
                    &mut part,
                    scratch.as_mut(),
                );
                progress.inc(n);
                Some(part)
            })
            .collect();
        for part in parts {
            total.merge(&part?);
            if precise_enough(&total, half_width) {
                return Some(total);
            }
        }
        first = end;
    }
    Some(total)
}

/// Runs `trials` trials of one point and returns their merged tally.
///
/// Chunks are spread over the pool with rayon's fold and reduce: each worker counts its chunks'
/// trials straight into its own tally, and the tallies are added at the end. Every accumulator
/// is an integer, so the sum is exact and does not depend on which worker ran which chunk or in
/// what order the tallies were added: the bytes are the same as merging chunk by chunk in chunk
/// order, without a barrier between batches and with memory bounded by the number of workers.
pub fn run_point<R: Ruleset>(
    job: Job<R>,
    trials: u64,
    shard: Shard,
    progress: &ProgressBar,
    stop: &AtomicBool,
) -> Tally {
    let mut ignore = |_: u64, _: &Tally| {};
    run_segments(
        job,
        trials,
        shard,
        progress,
        stop,
        Prefix::none(&mut ignore),
    )
}

/// Runs a point's chunks segment by segment ([`SEGMENT_CHUNKS`]) from a saved prefix, saving
/// each longer prefix; a stop is seen between chunks and ends the point at the last whole
/// segment (the caller drops the point or keeps the saved prefix).
fn run_segments<R: Ruleset>(
    job: Job<R>,
    trials: u64,
    shard: Shard,
    progress: &ProgressBar,
    stop: &AtomicBool,
    prefix: Prefix,
) -> Tally {
    let chunks = trials.div_ceil(CHUNK_TRIALS);
    let (mut next, mut total) = prefix
        .from
        .unwrap_or_else(|| (0, Tally::new(job.model.shape())));
    progress.inc(total.trials);
    while next < chunks && !stop.load(Ordering::Relaxed) {
        let end = (next + SEGMENT_CHUNKS).min(chunks);
        let part = run_chunks(job, next..end, trials, shard, progress, stop);
        if stop.load(Ordering::Relaxed) {
            // Some chunks of this segment may have been skipped: it is not a prefix.
            break;
        }
        total.merge(&part);
        next = end;
        (prefix.save)(next, &total);
    }
    total
}

/// The merged tally of the chunks `range` of a point of `trials` in this slice.
fn run_chunks<R: Ruleset>(
    job: Job<R>,
    range: std::ops::Range<u64>,
    trials: u64,
    shard: Shard,
    progress: &ProgressBar,
    stop: &AtomicBool,
) -> Tally {
    let shape = job.model.shape();
    let scratch_shape = job.baseline.map(|b| b.shape());
    range
        .into_par_iter()
        .filter(|&chunk| shard.has(chunk))
        .fold(
            || (Tally::new(shape), scratch_shape.map(Tally::new)),
            |(mut tally, mut scratch), chunk| {
                if stop.load(Ordering::Relaxed) {
                    return (tally, scratch);
                }
                let first = chunk * CHUNK_TRIALS;
                let n = CHUNK_TRIALS.min(trials - first);
                run_chunk(
                    job,
                    chunk_seed(job.seed, chunk),
                    n,
                    &mut tally,
                    scratch.as_mut(),
                );
                progress.inc(n);
                (tally, scratch)
            },
        )
        .map(|(tally, _)| tally)
        .reduce(
            || Tally::new(shape),
            |mut a, b| {
                a.merge(&b);
                a
            },
        )
}

/// Runs `n` trials with dice seeded by `seed` into `tally`: the unit of reproducibility.
pub fn run_chunk_into<R: Ruleset>(model: &R, seed: u64, n: u64, tally: &mut Tally) {
    for trial in 0..n {
        let mut dice = FastDice::seed_from_u64(trial_seed(seed, trial));
        model.trial(&mut dice, &mut NoLog, tally);
    }
}

/// Runs one chunk of a job: alone, or each trial on the point and then on its baseline with
/// the same dice, adding the differences of their outcomes to `tally.paired` (`scratch`
/// collects the baseline's trials and is otherwise unused).
#[inline]
fn run_chunk<R: Ruleset>(
    job: Job<R>,
    seed: u64,
    n: u64,
    tally: &mut Tally,
    scratch: Option<&mut Tally>,
) {
    let (Some(baseline), Some(scratch)) = (job.baseline, scratch) else {
        run_chunk_into(job.model, seed, n, tally);
        return;
    };
    for trial in 0..n {
        let s = trial_seed(seed, trial);
        let (before, healed_before) = (tally.outcome_counts(), tally.healed_counts());
        job.model
            .trial(&mut FastDice::seed_from_u64(s), &mut NoLog, tally);
        let (after, healed_after) = (tally.outcome_counts(), tally.healed_counts());
        let (base_before, base_healed_before) = (scratch.outcome_counts(), scratch.healed_counts());
        baseline.trial(&mut FastDice::seed_from_u64(s), &mut NoLog, scratch);
        let (base_after, base_healed_after) = (scratch.outcome_counts(), scratch.healed_counts());
        let mut difference = [0i64; 8];
        for (i, d) in difference.iter_mut().enumerate() {
            *d = (after[i] - before[i]) - (base_after[i] - base_before[i]);
        }
        let healed = crate::stats::Healed {
            days_p: healed_after.0 - healed_before.0,
            n_p: healed_after.1 - healed_before.1,
            days_b: base_healed_after.0 - base_healed_before.0,
            n_b: base_healed_after.1 - base_healed_before.1,
        };
        tally.paired.add(difference, healed);
    }
}

/// Runs one point of any ruleset (the match is the only dispatch; the loop is monomorphized),
/// compared with `baseline` on the same dice when one is given.
pub fn run_model(
    model: &Model,
    baseline: Option<&Model>,
    seed: u64,
    budget: Budget,
    progress: &ProgressBar,
    stop: &AtomicBool,
    prefix: Prefix,
) -> Option<Tally> {
    match baseline {
        Some(base) => crate::with_model_pair!(
            model, base, m, b => run_budget(Job { model: m, baseline: Some(b), seed }, budget, progress, stop, prefix),
            crate::with_model!(model, m => run_budget(Job::alone(m, seed), budget, progress, stop, prefix))
        ),
        None => {
            crate::with_model!(model, m => run_budget(Job::alone(m, seed), budget, progress, stop, prefix))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::twin_d20::{Fighter, Healing, Rules, TwinD20};

    #[test]
    fn the_merged_tally_is_the_same_as_chunks_added_one_by_one_in_order() {
        let model = model();
        let trials = 5 * CHUNK_TRIALS + 123;
        let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build();
        let parallel = match pool {
            Ok(pool) => pool.install(|| {
                run_point(
                    Job::alone(&model, 9),
                    trials,
                    Shard::WHOLE,
                    &ProgressBar::hidden(),
                    &AtomicBool::new(false),
                )
            }),
            Err(e) => panic!("{e}"),
        };
        let mut in_order = Tally::new(model.shape());
        for chunk in 0..trials.div_ceil(CHUNK_TRIALS) {
            let mut part = Tally::new(model.shape());
            let n = CHUNK_TRIALS.min(trials - chunk * CHUNK_TRIALS);
            run_chunk_into(&model, chunk_seed(9, chunk), n, &mut part);
            in_order.merge(&part);
        }
        assert_eq!(parallel, in_order);
        assert_eq!(parallel.trials, trials);
    }

    fn model() -> TwinD20 {
        let f = Fighter {
            attack: 12,
            defense: 6,
            toughness: 8,
            damage: 2,
            coverage: 10,
            protection: 2,
        };
        TwinD20::new(
            [f, f],
            ["a".into(), "b".into()],
            Rules::default(),
            Healing::default(),
            30,
        )
    }

    fn precise(threads: usize, half_width: f64, max_trials: u64) -> Option<Tally> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .ok()?;
        pool.install(|| {
            run_budget(
                Job::alone(&model(), 4),
                Budget::Precision {
                    half_width,
                    max_trials,
                },
                &ProgressBar::hidden(),
                &AtomicBool::new(false),
                Prefix::none(&mut |_, _| {}),
            )
        })
    }

    #[test]
    fn precision_stops_at_the_first_chunk_that_meets_the_target_whatever_the_threads() {
        let Some(t) = precise(2, 0.004, 10_000_000) else {
            panic!("the run stopped");
        };
        assert_eq!(precise(1, 0.004, 10_000_000).as_ref(), Some(&t));
        assert_eq!(t.trials % CHUNK_TRIALS, 0);
        assert!(precise_enough(&t, 0.004));
        // One chunk fewer would not have met the target.
        let mut fewer = Tally::new(model().shape());
        for chunk in 0..t.trials / CHUNK_TRIALS - 1 {
            run_chunk_into(&model(), chunk_seed(4, chunk), CHUNK_TRIALS, &mut fewer);
        }
        assert!(!precise_enough(&fewer, 0.004));
        // A cap that comes first wins, and gives the tally of a fixed run of that many trials.
        let capped = precise(2, 0.0001, 3 * CHUNK_TRIALS + 5);
        let fixed = run_point(
            Job::alone(&model(), 4),
            3 * CHUNK_TRIALS + 5,
            Shard::WHOLE,
            &ProgressBar::hidden(),
            &AtomicBool::new(false),
        );
        assert_eq!(capped, Some(fixed));
    }

    #[test]
    fn the_slices_of_a_point_add_up_to_the_whole_point() {
        let trials = 7 * CHUNK_TRIALS + 99;
        let run = |shard| {
            run_budget(
                Job::alone(&model(), 2),
                Budget::Slice { trials, shard },
                &ProgressBar::hidden(),
                &AtomicBool::new(false),
                Prefix::none(&mut |_, _| {}),
            )
        };
        let whole = run(Shard::WHOLE);
        let mut sum = Tally::new(model().shape());
        let mut counted = 0;
        for index in 0..3 {
            let shard = Shard { index, count: 3 };
            let part = run(shard).unwrap_or_else(|| panic!("stopped"));
            assert_eq!(part.trials, shard.trials(trials));
            counted += shard.trials(trials);
            sum.merge(&part);
        }
        assert_eq!(counted, trials);
        assert_eq!(Some(sum), whole);
    }

    #[test]
    fn a_raised_stop_drops_the_point() {
        let stop = AtomicBool::new(true);
        let r = run_budget(
            Job::alone(&model(), 1),
            Budget::Trials(100_000),
            &ProgressBar::hidden(),
            &stop,
            Prefix::none(&mut |_, _| {}),
        );
        assert_eq!(r, None);
    }

    #[test]
    fn chunk_and_trial_seeds_differ_by_every_coordinate_but_not_by_point() {
        let base = chunk_seed(1, 0);
        assert_ne!(base, chunk_seed(2, 0));
        assert_ne!(base, chunk_seed(1, 1));
        assert_eq!(base, chunk_seed(1, 0));
        assert_ne!(trial_seed(base, 0), trial_seed(base, 1));
        assert_ne!(trial_seed(base, 1), trial_seed(chunk_seed(1, 1), 1));
    }

    #[test]
    fn a_point_resumed_from_a_saved_prefix_gives_the_tally_of_one_run() {
        // A point of a segment and two chunks saves its prefix after the segment; stopped
        // there, it resumes from that prefix to the tally of an uninterrupted run.
        let trials = (SEGMENT_CHUNKS + 2) * CHUNK_TRIALS - 7;
        let whole = run_point(
            Job::alone(&model(), 6),
            trials,
            Shard::WHOLE,
            &ProgressBar::hidden(),
            &AtomicBool::new(false),
        );
        let stop = AtomicBool::new(false);
        let mut saved: Vec<(u64, Tally)> = Vec::new();
        let mut save = |next: u64, t: &Tally| {
            saved.push((next, t.clone()));
            stop.store(true, Ordering::Relaxed);
        };
        let stopped = run_budget(
            Job::alone(&model(), 6),
            Budget::Trials(trials),
            &ProgressBar::hidden(),
            &stop,
            Prefix {
                from: None,
                save: &mut save,
            },
        );
        assert!(stopped.is_none(), "a stopped point is not whole");
        assert_eq!(saved.len(), 1);
        assert_eq!(saved[0].0, SEGMENT_CHUNKS);
        assert_eq!(saved[0].1.trials, SEGMENT_CHUNKS * CHUNK_TRIALS);
        let resumed = run_budget(
            Job::alone(&model(), 6),
            Budget::Trials(trials),
            &ProgressBar::hidden(),
            &AtomicBool::new(false),
            Prefix {
                from: saved.pop(),
                save: &mut |_, _| {},
            },
        );
        assert_eq!(resumed, Some(whole));
    }

    #[test]
    fn a_compared_point_stops_when_its_differences_are_precise_enough() {
        // With a baseline, [precision] applies to the win-rate differences on the same dice:
        // the run stops at the first chunk where both differences' intervals are within the
        // target, and one chunk fewer would not have been.
        let stronger = {
            let mut m = model();
            m.fighters[0].attack = 13;
            m
        };
        let base = model();
        let job = Job {
            model: &stronger,
            baseline: Some(&base),
            seed: 8,
        };
        let budget = Budget::Precision {
            half_width: 0.004,
            max_trials: 5_000_000,
        };
        let t = run_budget(
            job,
            budget,
            &ProgressBar::hidden(),
            &AtomicBool::new(false),
            Prefix::none(&mut |_, _| {}),
        )
        .unwrap_or_else(|| panic!("stopped"));
        assert!(t.trials < 5_000_000 && t.trials.is_multiple_of(CHUNK_TRIALS));
        assert!(t.trials >= MIN_PAIRED_TRIALS);
        assert!(precise_enough(&t, 0.004));
        let fewer = run_point(
            job,
            t.trials - CHUNK_TRIALS,
            Shard::WHOLE,
            &ProgressBar::hidden(),
            &AtomicBool::new(false),
        );
        assert!(!precise_enough(&fewer, 0.004));
        // The same target on the win rates alone needs far more trials.
        let alone = run_budget(
            Job::alone(&stronger, 8),
            budget,
            &ProgressBar::hidden(),
            &AtomicBool::new(false),
            Prefix::none(&mut |_, _| {}),
        )
        .unwrap_or_else(|| panic!("stopped"));
        assert!(alone.trials > t.trials, "{} vs {}", alone.trials, t.trials);
    }
}
