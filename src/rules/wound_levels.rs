//! The `wound-levels` ruleset (in progress).
