//! The combat log: how a duel narrates itself for `duelsim trace`.
//!
//! Rules take a `L: Log` generic parameter and describe what happens through it. In runs the
//! parameter is [`NoLog`], whose methods are empty and inline away, so narration costs nothing
//! on the hot path. The closures passed to [`Log::say`] are never called there.

/// Where a duel tells its story.
pub trait Log {
    /// Whether anything is listening; rules may skip work that only narration needs.
    const ON: bool;
    /// Records one line of narration, built only when someone listens.
    fn say(&mut self, line: impl FnOnce() -> String);
}

/// The silent log of production runs.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoLog;

impl Log for NoLog {
    const ON: bool = false;
    #[inline(always)]
    fn say(&mut self, _line: impl FnOnce() -> String) {}
}

/// A log that keeps every line, for tests.
#[derive(Clone, Debug, Default)]
pub struct VecLog {
    /// The lines said so far.
    pub lines: Vec<String>,
}

impl Log for VecLog {
    const ON: bool = true;
    fn say(&mut self, line: impl FnOnce() -> String) {
        self.lines.push(line());
    }
}

/// Asserts that a narration holds these steps in this order (a test's view of a trace).
#[cfg(test)]
pub fn assert_in_order(story: &str, steps: &[&str]) {
    let mut from = 0;
    for step in steps {
        match story[from..].find(step) {
            Some(at) => from += at + step.len(),
            None => panic!("not found in order: {step}\n---\n{story}"),
        }
    }
}
