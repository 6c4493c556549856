//! A fuzz target that stays in the repository: every shipped scenario and catalogue, mutated
//! (bytes, numbers at their type's edges, NaN and infinities, huge counts, unknown keys, deep
//! nesting, unicode and control characters, sweep ranges with zero, negative, tiny and enormous
//! steps), must be accepted or refused as bad input: no panic, an input error (exit 2) in one
//! headline line (with the line of the file it points at under it), and nothing written when
//! refused.
//!
//! CI runs 100,000 cases, split over the cores. A longer run (the note's million cases):
//!
//! ```text
//! DUELSIM_FUZZ_CASES=1000000 cargo test --release --test fuzz -- --nocapture
//! DUELSIM_FUZZ_SECONDS=3600 cargo test --release --test fuzz -- --nocapture   # an hour
//! ```
//!
//! `DUELSIM_FUZZ_SEED` picks another sequence of cases. A failing case is written to
//! `target/fuzz-failure-<n>.toml` with the panic or the bad error.

mod common;
use common::{REFUSAL, is_headline_with_snippet, within};
use duelsim::scenario::error::InputError;
use rand_xoshiro::Xoshiro256PlusPlus;
use rand_xoshiro::rand_core::{Rng, SeedableRng};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn env_number(key: &str) -> Option<u64> {
    std::env::var(key).ok().and_then(|v| v.parse().ok())
}

/// Every shipped scenario and catalogue: (path relative to the root, text).
fn corpus() -> Vec<(String, String)> {
    let mut files = Vec::new();
    for dir in ["scenarios", "catalogues"] {
        let mut stack = vec![Path::new(ROOT).join(dir)];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "toml") {
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    let relative = path
                        .strip_prefix(ROOT)
                        .map_or_else(|_| path.clone(), Path::to_path_buf);
                    files.push((relative.to_string_lossy().into_owned(), text));
                }
            }
        }
    }
    files.sort();
    files
}

/// Values at the edges of what a scenario's numbers can hold.
const EDGES: [&str; 24] = [
    "0",
    "-1",
    "1",
    "-0",
    "9223372036854775807",
    "-9223372036854775808",
    "99999999999999999999999",
    "1e300",
    "-1e300",
    "5e-324",
    "1e-300",
    "nan",
    "inf",
    "-inf",
    "0.5",
    "-0.0",
    "4294967295",
    "4294967296",
    "65536",
    "1000000000000",
    "1000000000001",
    "\"\"",
    "[]",
    "{}",
];

/// Strings that test how errors quote values.
const STRINGS: [&str; 8] = [
    "\"brod\\nsword\"",
    "\"\\u001b[31mred\"",
    "\"\\r\\n\"",
    "\"日本語の剣\"",
    "\"\\u0000\"",
    "\"a\\tb\"",
    "\"🗡️\"",
    "\"x\"",
];

fn pick<'a, T>(rng: &mut Xoshiro256PlusPlus, items: &'a [T]) -> &'a T {
    &items[(rng.next_u64() % items.len() as u64) as usize]
}

fn below(rng: &mut Xoshiro256PlusPlus, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

/// Byte offsets of the numbers in a text (runs of digits, with a sign or a point).
fn numbers(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = if i > 0 && bytes[i - 1] == b'-' {
                i - 1
            } else {
                i
            };
            let mut end = i;
            while end < bytes.len()
                && (bytes[end].is_ascii_digit() || bytes[end] == b'.' || bytes[end] == b'_')
            {
                end += 1;
            }
            found.push((start, end));
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

/// Byte offsets of the double-quoted strings in a text.
fn strings(text: &str) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c == '"' {
            match start.take() {
                None => start = Some(i),
                Some(s) => found.push((s, i + 1)),
            }
        } else if c == '\n' {
            start = None;
        }
    }
    found
}

fn replace(text: &str, (start, end): (usize, usize), with: &str) -> String {
    if !text.is_char_boundary(start) || !text.is_char_boundary(end) {
        return text.to_owned();
    }
    format!("{}{with}{}", &text[..start], &text[end..])
}

/// A sweep entry with extreme ranges or lists.
fn sweep_entry(rng: &mut Xoshiro256PlusPlus) -> String {
    let keys = [
        "a.attack",
        "b.defense",
        "a.melee_ml",
        "rules.damage[6]",
        "a.weapon",
        "healing.interval_days",
        "seed",
        "a",
    ];
    let key = pick(rng, keys.as_slice());
    let value = match below(rng, 5) {
        0 => format!(
            "{{ from = {}, to = {}, step = {} }}",
            pick(rng, EDGES.as_slice()),
            pick(rng, EDGES.as_slice()),
            pick(rng, EDGES.as_slice())
        ),
        1 => format!(
            "{{ from = {}, to = {} }}",
            pick(rng, EDGES.as_slice()),
            pick(rng, EDGES.as_slice())
        ),
        2 => format!(
            "[{}]",
            (0..below(rng, 40))
                .map(|_| *pick(rng, EDGES.as_slice()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        // A list just past the cap (refused at once), or a short one: a valid list of many
        // thousand values compiles as many points, which is slow by design, not a finding.
        3 => {
            let count = if rng.next_u64().is_multiple_of(2) {
                10_001 + below(rng, 100_000)
            } else {
                1 + below(rng, 300)
            };
            format!("[{}]", vec!["7"; count].join(","))
        }
        _ => format!(
            "{{ from = 0, to = {}, step = 0.{} }}",
            below(rng, 1000),
            "0".repeat(below(rng, 30)) + "1"
        ),
    };
    format!("\n[sweep]\n\"{key}\" = {value}\n")
}

/// One to three mutations of `text`.
fn mutate(rng: &mut Xoshiro256PlusPlus, text: &str) -> Vec<u8> {
    let mut text = text.to_owned();
    let mut raw: Option<Vec<u8>> = None;
    for _ in 0..1 + below(rng, 3) {
        match below(rng, 12) {
            0 | 1 => {
                let spots = numbers(&text);
                if !spots.is_empty() {
                    let spot = *pick(rng, &spots);
                    text = replace(&text, spot, pick::<&str>(rng, EDGES.as_slice()));
                }
            }
            2 => {
                let spots = strings(&text);
                if !spots.is_empty() {
                    let spot = *pick(rng, &spots);
                    text = replace(&text, spot, pick::<&str>(rng, STRINGS.as_slice()));
                }
            }
            3 => {
                // An unknown key in some table.
                let lines: Vec<&str> = text.lines().collect();
                let at = below(rng, lines.len() + 1);
                let mut out: Vec<String> = lines.iter().map(|l| (*l).to_owned()).collect();
                out.insert(
                    at.min(out.len()),
                    format!(
                        "unknown_key_{} = {}",
                        below(rng, 9),
                        pick(rng, EDGES.as_slice())
                    ),
                );
                text = out.join("\n");
            }
            4 => {
                // Deep nesting.
                let depth = 1 + below(rng, 3000);
                let nested = if rng.next_u64().is_multiple_of(2) {
                    format!("{}1{}", "[".repeat(depth), "]".repeat(depth))
                } else {
                    format!("{}1{}", "{ a = ".repeat(depth), " }".repeat(depth))
                };
                text = format!("deep = {nested}\n{text}");
            }
            5 => text.push_str(&sweep_entry(rng)),
            11 => {
                // A name (the scenario's or a fighter's) that carries control characters.
                let names: Vec<(usize, usize)> = strings(&text)
                    .into_iter()
                    .filter(|&(start, _)| text[..start].trim_end().ends_with("name ="))
                    .collect();
                if !names.is_empty() {
                    let spot = *pick(rng, &names);
                    let hostile = [
                        "\"Kn\\u001b]0;owned\\u0007ight\"",
                        "\"A\\rB\"",
                        "\"x\\u001b[2J\"",
                        "\"a\\u009bb\"",
                    ];
                    text = replace(&text, spot, pick::<&str>(rng, hostile.as_slice()));
                }
            }
            6 => {
                // A huge count.
                let keys = ["trials", "round_limit", "seed", "horizon_days"];
                let key = pick(rng, keys.as_slice());
                text = format!("{key} = {}\n{text}", pick(rng, EDGES.as_slice()));
            }
            7 => {
                // Delete a line.
                let lines: Vec<&str> = text.lines().collect();
                if !lines.is_empty() {
                    let at = below(rng, lines.len());
                    text = lines
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| *i != at)
                        .map(|(_, l)| *l)
                        .collect::<Vec<_>>()
                        .join("\n");
                }
            }
            8 => {
                // Duplicate a line (a key written twice).
                let lines: Vec<&str> = text.lines().collect();
                if !lines.is_empty() {
                    let at = below(rng, lines.len());
                    let mut out: Vec<&str> = lines.clone();
                    out.insert(at, lines[at]);
                    text = out.join("\n");
                }
            }
            _ => {
                // Raw bytes: flip, insert control or non-UTF-8 bytes, cut.
                let mut bytes = raw.take().unwrap_or_else(|| text.clone().into_bytes());
                for _ in 0..1 + below(rng, 4) {
                    if bytes.is_empty() {
                        break;
                    }
                    let at = below(rng, bytes.len());
                    match below(rng, 4) {
                        0 => bytes[at] ^= 1 << below(rng, 8),
                        1 => {
                            let odd = [0u8, 0x1b, b'\r', 0xff, 0xc3, b'"', b'[', b'=', b'\n'];
                            bytes.insert(at, *pick(rng, odd.as_slice()));
                        }
                        2 => bytes.truncate(at),
                        _ => {
                            let end = (at + below(rng, 64)).min(bytes.len());
                            bytes.drain(at..end);
                        }
                    }
                }
                raw = Some(bytes);
                if let Ok(t) = String::from_utf8(raw.clone().unwrap_or_default()) {
                    text = t;
                    raw = None;
                }
            }
        }
    }
    raw.unwrap_or_else(|| text.into_bytes())
}

/// A scratch copy of the repository's scenarios and catalogues, so that relative catalogue
/// paths resolve and a mutated catalogue can stand in for its original.
fn scratch(name: &str, corpus: &[(String, String)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duelsim-fuzz-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in corpus {
        let file = dir.join(path);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
        }
        std::fs::write(&file, text).unwrap_or_else(|e| panic!("{e}"));
    }
    dir
}

fn keep_failure(n: u64, bytes: &[u8], why: &str) -> String {
    let path = Path::new(ROOT).join(format!("target/fuzz-failure-{n}.toml"));
    let _ = std::fs::write(&path, bytes);
    format!("case {n}: {why} (input kept in {})", path.display())
}

/// What one worker of the fuzz test saw.
#[derive(Default)]
struct Seen {
    run: u64,
    accepted: u64,
    refused: u64,
    failures: Vec<String>,
}

/// One worker's share of the cases: its own copy of the corpus and its own sequence of
/// mutations; a panic's message is found in `panics` under the worker's thread.
fn fuzz_worker(
    worker: u64,
    seed: u64,
    cases: u64,
    deadline: Option<Duration>,
    corpus: &[(String, String)],
    panics: &Mutex<std::collections::HashMap<std::thread::ThreadId, String>>,
) -> Seen {
    let dir = scratch(&format!("check-{worker}"), corpus);
    let scenarios: Vec<&(String, String)> = corpus
        .iter()
        .filter(|(p, _)| p.starts_with("scenarios"))
        .collect();
    let mut rng =
        Xoshiro256PlusPlus::seed_from_u64(seed ^ worker.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let started = Instant::now();
    let mut seen = Seen::default();
    while deadline.map_or(seen.run < cases, |d| started.elapsed() < d) {
        seen.run += 1;
        let case = seen.run * 1000 + worker;
        let (scenario, text) = *pick(&mut rng, &scenarios);
        // One case in four mutates a catalogue the scenario may name instead.
        let (target, original) = if rng.next_u64().is_multiple_of(4) {
            let (p, t) = pick(&mut rng, corpus);
            (p.clone(), t.clone())
        } else {
            (scenario.clone(), text.clone())
        };
        let bytes = mutate(&mut rng, &original);
        let target_path = dir.join(&target);
        std::fs::write(&target_path, &bytes).unwrap_or_else(|e| panic!("{e}"));
        let scenario_path = dir.join(scenario);
        let outcome = std::panic::catch_unwind(|| duelsim::commands::check(&[scenario_path]));
        match outcome {
            Err(_) => {
                let message = panics
                    .lock()
                    .ok()
                    .and_then(|mut p| p.remove(&std::thread::current().id()))
                    .unwrap_or_default();
                seen.failures
                    .push(keep_failure(case, &bytes, &format!("panic: {message}")));
            }
            Ok(Ok(_)) => seen.accepted += 1,
            Ok(Err(e)) => {
                seen.refused += 1;
                let shown = format!("{e:#}");
                if e.downcast_ref::<InputError>().is_none() {
                    seen.failures.push(keep_failure(
                        case,
                        &bytes,
                        &format!("not an input error: {shown}"),
                    ));
                } else if shown.contains('\n') || shown.contains('\r') || shown.len() > 2000 {
                    seen.failures.push(keep_failure(
                        case,
                        &bytes,
                        &format!("not one short line: {shown:?}"),
                    ));
                }
            }
        }
        // Put the original back for the next case.
        std::fs::write(&target_path, original.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        if seen.failures.len() >= 5 {
            break;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    seen
}

#[test]
fn mutated_scenarios_and_catalogues_are_accepted_or_refused_in_one_line_never_a_panic() {
    let corpus = corpus();
    assert!(corpus.len() >= 15, "the corpus: {}", corpus.len());
    let seed = env_number("DUELSIM_FUZZ_SEED").unwrap_or(2026);
    let cases = env_number("DUELSIM_FUZZ_CASES").unwrap_or(100_000);
    let deadline = env_number("DUELSIM_FUZZ_SECONDS").map(Duration::from_secs);
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get() as u64);
    let panics = Arc::new(Mutex::new(std::collections::HashMap::new()));
    let seen_by_hook = Arc::clone(&panics);
    std::panic::set_hook(Box::new(move |info| {
        if let Ok(mut slot) = seen_by_hook.lock() {
            slot.insert(std::thread::current().id(), info.to_string());
        }
    }));
    let started = Instant::now();
    let seen: Vec<Seen> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                // The cases split between the workers, the first taking what does not divide.
                let share = cases / workers + u64::from(w < cases % workers);
                let (corpus, panics) = (&corpus, &panics);
                scope.spawn(move || fuzz_worker(w, seed, share, deadline, corpus, panics))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_default())
            .collect()
    });
    let _ = std::panic::take_hook();
    let run: u64 = seen.iter().map(|s| s.run).sum();
    let accepted: u64 = seen.iter().map(|s| s.accepted).sum();
    let refused: u64 = seen.iter().map(|s| s.refused).sum();
    let failures: Vec<&String> = seen.iter().flat_map(|s| &s.failures).collect();
    println!(
        "fuzz (seed {seed}, {workers} workers): {run} cases in {:.1} s: {accepted} accepted, {refused} refused, {} failures",
        started.elapsed().as_secs_f64(),
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    if deadline.is_none() {
        assert_eq!(run, cases, "every case ran");
    }
}

#[test]
fn a_run_of_a_refused_file_writes_nothing_and_says_why_in_one_line() {
    let corpus = corpus();
    let dir = scratch("run", &corpus);
    let scenarios: Vec<&(String, String)> = corpus
        .iter()
        .filter(|(p, _)| p.starts_with("scenarios"))
        .collect();
    let cases = env_number("DUELSIM_FUZZ_RUN_CASES").unwrap_or(60);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(env_number("DUELSIM_FUZZ_SEED").unwrap_or(7));
    let mut failures = Vec::new();
    for n in 0..cases {
        let (scenario, text) = *pick(&mut rng, &scenarios);
        let bytes = mutate(&mut rng, text);
        let path = dir.join(scenario);
        std::fs::write(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
        let out = dir.join(format!("out-{n}"));
        let o = Command::new(env!("CARGO_BIN_EXE_duelsim"))
            .args([
                "run",
                &path.to_string_lossy(),
                "-q",
                "--trials",
                "64",
                "--threads",
                "1",
                "-o",
                &out.to_string_lossy(),
            ])
            .output()
            .unwrap_or_else(|e| panic!("cannot start duelsim: {e}"));
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        let said = format!("{err}{}", String::from_utf8_lossy(&o.stdout));
        if said.chars().any(|c| c.is_control() && c != '\n') {
            failures.push(keep_failure(
                1_000_000 + n,
                &bytes,
                &format!("a raw control character reached the terminal: {said:?}"),
            ));
        }
        match o.status.code() {
            Some(0) => {}
            Some(2) => {
                if !is_headline_with_snippet(&err) {
                    failures.push(keep_failure(
                        1_000_000 + n,
                        &bytes,
                        &format!("not one headline (and the line it points at): {err}"),
                    ));
                }
                if out.exists() {
                    failures.push(keep_failure(
                        1_000_000 + n,
                        &bytes,
                        "an output folder was written",
                    ));
                }
            }
            other => failures.push(keep_failure(
                1_000_000 + n,
                &bytes,
                &format!("exit {other:?}: {err}"),
            )),
        }
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A copy of the regular files and folders under `from` in `to` (a shard folder, a journal).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap_or_else(|e| panic!("{e}"));
    for entry in std::fs::read_dir(from).into_iter().flatten().flatten() {
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}

/// Damages `file` one way (`other` is another file of the same kind, to swap in), and says how.
fn damage(rng: &mut Xoshiro256PlusPlus, file: &Path, other: &Path) -> &'static str {
    let kept = std::fs::read(file).unwrap_or_default();
    let _ = std::fs::remove_file(file);
    let made = match below(rng, 10) {
        0 => std::os::unix::fs::symlink("/dev/zero", file).map(|()| "a link to /dev/zero"),
        1 => {
            let status = Command::new("mkfifo").arg(file).status();
            assert!(status.is_ok_and(|s| s.success()), "mkfifo");
            Ok("a FIFO")
        }
        2 => std::fs::File::create(file)
            .and_then(|f| f.set_len(3 << 30))
            .map(|()| "a 3 GB file"),
        3 => std::fs::write(file, b"").map(|()| "an empty file"),
        4 => std::fs::write(file, &kept[..below(rng, kept.len().max(1))]).map(|()| "cut short"),
        5 => {
            let mut bytes = kept.clone();
            if !bytes.is_empty() {
                let at = below(rng, bytes.len());
                bytes[at] ^= 1 << below(rng, 8);
            }
            std::fs::write(file, bytes).map(|()| "a bit flipped")
        }
        6 => std::fs::copy(other, file).map(|_| "another file of its kind"),
        7 => std::fs::create_dir(file).map(|()| "a folder"),
        8 => std::os::unix::fs::symlink(file.with_extension("gone"), file)
            .map(|()| "a dangling link"),
        _ => std::fs::write(file, "\u{1b}]0;owned\u{7}\r\n").map(|()| "control characters"),
    };
    made.unwrap_or_else(|e| panic!("{e}"))
}

/// Runs duelsim on a damaged folder: it must end within 10 s, and either succeed (only when
/// the damage leaves nothing to refuse, such as a journal's tally gone: that point is run again)
/// or refuse the input (exit 2) within 2 s (in a release build), in one headline naming the damaged file or its
/// folder, printing no raw control character and writing nothing.
fn damaged_run(
    args: &[&str],
    named: &[String],
    written: &Path,
    how: &str,
    may_succeed: bool,
) -> Option<String> {
    let started = Instant::now();
    let Some(o) = within(args, Duration::from_secs(10)) else {
        return Some(format!("{how}: {args:?} did not end within 10 s"));
    };
    let took = started.elapsed();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    if err
        .chars()
        .chain(String::from_utf8_lossy(&o.stdout).chars())
        .any(|c| c.is_control() && c != '\n')
    {
        return Some(format!(
            "{how}: a raw control character reached the terminal: {err:?}"
        ));
    }
    match o.status.code() {
        Some(0) if may_succeed => None,
        Some(2) if !is_headline_with_snippet(&err) => {
            Some(format!("{how}: not one headline: {err}"))
        }
        Some(2) if !named.iter().any(|n| err.contains(n.as_str())) => {
            Some(format!("{how}: the error names none of {named:?}: {err}"))
        }
        Some(2) if took > REFUSAL => Some(format!("{how}: refused after {took:?}")),
        Some(2) if written.exists() => Some(format!("{how}: {} was written", written.display())),
        Some(2) => None,
        other => Some(format!("{how}: exit {other:?}: {err}")),
    }
}

#[test]
fn damaged_shard_folders_and_journals_are_refused_at_once_never_read_forever() {
    let scenario = "scenarios/twin-d20/what-is-plus-one-worth.toml";
    let dir = std::env::temp_dir().join(format!("duelsim-fuzz-{}-folders", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = |p: &Path| p.to_string_lossy().into_owned();
    // Two finished shards.
    for (k, name) in [("1/2", "s1"), ("2/2", "s2")] {
        let o = within(
            &[
                "run",
                scenario,
                "-q",
                "--trials",
                "2000",
                "--shard",
                k,
                "-o",
                &path(&dir.join("pristine").join(name)),
            ],
            Duration::from_secs(120),
        )
        .unwrap_or_else(|| panic!("the shard run did not end"));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    // A journal of every point: the run stops when it cannot write its charts.
    let journaled = dir.join("pristine").join("out");
    std::fs::create_dir_all(&journaled).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(journaled.join("charts"), "").unwrap_or_else(|e| panic!("{e}"));
    let o = within(
        &[
            "run",
            scenario,
            "-q",
            "--trials",
            "2000",
            "-o",
            &path(&journaled),
        ],
        Duration::from_secs(120),
    )
    .unwrap_or_else(|| panic!("the run did not end"));
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let _ = std::fs::remove_file(journaled.join("charts"));
    let _ = std::fs::remove_dir_all(journaled.join("tables"));
    let journal: Vec<String> = std::fs::read_dir(journaled.join(".partial"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(journal.len() >= 3, "{journal:?}");
    let cases = env_number("DUELSIM_FUZZ_FOLDER_CASES").unwrap_or(40);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(env_number("DUELSIM_FUZZ_SEED").unwrap_or(35));
    let mut failures = Vec::new();
    for n in 0..cases {
        let case = dir.join(format!("case-{n}"));
        copy_tree(&dir.join("pristine"), &case);
        let failure = if n % 2 == 0 {
            // A shard folder: a tally, or the shard's description.
            let shard = case.join(pick(&mut rng, ["s1", "s2"].as_slice()));
            let names = [
                "shard",
                "point-00000.tally",
                "point-00001.tally",
                "point-00002.tally",
            ];
            let file = shard.join(pick(&mut rng, names.as_slice()));
            let other = case.join("s2").join("point-00003.tally");
            let how = damage(&mut rng, &file, &other);
            let merged = case.join("merged");
            damaged_run(
                &[
                    "merge",
                    &path(&case.join("s1")),
                    &path(&case.join("s2")),
                    "-o",
                    &path(&merged),
                ],
                &[path(&file), path(&shard)],
                &merged,
                &format!("shard {}: {how}", path(&file)),
                false,
            )
        } else {
            // A journal: its `run` file or a point's tally; --resume must refuse or run again.
            let out = case.join("out");
            let name = pick(&mut rng, journal.as_slice()).clone();
            let file = out.join(".partial").join(&name);
            let other = out.join(".partial").join(if name == "point-00000.tally" {
                "point-00001.tally"
            } else {
                "point-00000.tally"
            });
            let how = damage(&mut rng, &file, &other);
            damaged_run(
                &[
                    "run",
                    scenario,
                    "-q",
                    "--trials",
                    "2000",
                    "-o",
                    &path(&out),
                    "--resume",
                ],
                &[path(&file), path(&out)],
                &out.join("summary.csv"),
                &format!("journal {}: {how}", path(&file)),
                how == "a dangling link",
            )
        };
        if let Some(f) = failure {
            failures.push(f);
        }
        let _ = std::fs::remove_dir_all(&case);
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
