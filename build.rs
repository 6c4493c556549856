//! Build script: `duelsim --version` names the commit when duelsim is built from a git
//! checkout ("0.1.0 (commit 1a2b3c4d5e6f)"), and just the version otherwise.

use std::process::Command;

/// `git` with `args` in the crate's folder, its output trimmed; `None` without git or a checkout.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_owned())
}

fn main() {
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let text = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(commit) => format!("{version} (commit {commit})"),
        None => version,
    };
    println!("cargo:rustc-env=DUELSIM_VERSION={text}");
    // Built again when the checkout moves to another commit.
    if let Some(dir) = git(&["rev-parse", "--git-dir"]) {
        println!("cargo:rerun-if-changed={dir}/HEAD");
        if let Some(head) = git(&["symbolic-ref", "-q", "HEAD"]) {
            println!("cargo:rerun-if-changed={dir}/{head}");
        }
        let packed = format!("{dir}/packed-refs");
        if std::path::Path::new(&packed).exists() {
            println!("cargo:rerun-if-changed={packed}");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
