//! The hot path allocates nothing: a counting global allocator watches thousands of trials of
//! every shipped scenario of every ruleset in the registry (`scenarios/<id>/`), after their
//! tallies were made, and must see no allocation at all.

mod common;

use duelsim::dice::FastDice;
use duelsim::engine::trial_seed;
use duelsim::log::NoLog;
use duelsim::rules::Ruleset;
use duelsim::rules::registry;
use duelsim::stats::Tally;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::path::Path;

struct Counting;

thread_local! {
    /// Allocations made by this thread: the test harness's threads (another test, its report)
    /// are not counted against the trials.
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
}

/// Counts one allocation of this thread (none while the thread is being torn down).
fn count() {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

/// Allocations this thread has made so far.
fn allocations() -> u64 {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: forwards the caller's layout to the system allocator unchanged.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with this layout in `alloc`.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: `ptr` was allocated by `System` with `layout`; the contract is the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_in_trials<R: Ruleset>(model: &R, trials: u32) -> u64 {
    let mut tally = Tally::new(model.shape());
    let before = allocations();
    for trial in 0..trials {
        let mut dice = FastDice::seed_from_u64(trial_seed(5, u64::from(trial)));
        model.trial(&mut dice, &mut NoLog, &mut tally);
    }
    let after = allocations();
    assert_eq!(tally.trials, u64::from(trials));
    after - before
}

#[test]
fn trials_of_every_shipped_scenario_allocate_nothing() {
    // The counter sees allocations at all: a tally allocates its histograms.
    let before = allocations();
    let shape = duelsim::stats::TallyShape {
        round_limit: 5,
        max_damage: 5,
        horizon_days: 5,
        extras: &[],
        sides: [1, 1],
    };
    std::hint::black_box(Tally::new(shape));
    assert!(
        allocations() > before,
        "the counting allocator is not in use"
    );

    // Every ruleset of the registry, with every shipped scenario of its folder.
    for entry in registry::RULESETS {
        let mut checked = 0;
        for path in common::shipped_scenarios(entry.id) {
            let scenario = match registry::load(&path) {
                Ok(s) => s,
                Err(e) => panic!("{e}"),
            };
            for point in &scenario.points {
                let allocations =
                    duelsim::with_model!(&point.model, m => allocations_in_trials(m, 20_000));
                assert_eq!(
                    allocations,
                    0,
                    "{}: {allocations} allocations in 20000 trials",
                    path.display()
                );
                checked += 1;
            }
        }
        assert!(checked >= 1, "{}: no shipped scenario checked", entry.id);
    }
}

#[test]
fn trials_of_three_against_three_allocate_nothing_in_every_ruleset() {
    for entry in registry::RULESETS {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(entry.examples.duel);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{e}"));
        let three = duelsim::scenario::every_side_of(&text, 3);
        let scenario = registry::parse(&path, &three).unwrap_or_else(|e| panic!("{e}"));
        let model = &scenario.points[0].model;
        assert_eq!(model.shape().sides, [3, 3], "{}", entry.id);
        let allocations = duelsim::with_model!(model, m => allocations_in_trials(m, 20_000));
        assert_eq!(
            allocations, 0,
            "{}: {allocations} allocations in 20000 trials of three against three",
            entry.id
        );
    }
}
