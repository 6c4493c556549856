//! The `d6-pool` ruleset (in progress).
