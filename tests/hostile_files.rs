//! Files in a shard folder or a run's journal that duelsim did not write, and that would make a
//! careless reader wait forever or read until memory runs out: a symlink to `/dev/zero`, a
//! FIFO, a file far larger than a tally can be. Each is refused at once with exit 2, naming it.

mod common;
use common::{REFUSAL, within, within_memory};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SCENARIO: &str = "scenarios/twin-d20/knight-vs-brigand.toml";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("duelsim-hostile-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    dir
}

/// Runs `file` into `out` with `trials` trials; it must finish within two minutes, and well.
fn run_ok(file: &str, out: &Path, trials: &str) {
    let o = within(
        &[
            "run",
            file,
            "-q",
            "--trials",
            trials,
            "-o",
            &out.to_string_lossy(),
        ],
        Duration::from_secs(120),
    )
    .unwrap_or_else(|| panic!("the run did not finish"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap_or_else(|e| panic!("cannot run mkfifo: {e}"));
    assert!(status.success());
}

fn symlink_to_zero(path: &Path) {
    let _ = std::fs::remove_file(path);
    std::os::unix::fs::symlink("/dev/zero", path).unwrap_or_else(|e| panic!("{e}"));
}

/// Two finished shards of the shipped duel, in `dir/s1` and `dir/s2`.
fn shards(dir: &Path) -> [String; 2] {
    let out = |k: &str| dir.join(k).to_string_lossy().into_owned();
    for (k, name) in [("1/2", "s1"), ("2/2", "s2")] {
        let o = within(
            &[
                "run",
                SCENARIO,
                "-q",
                "--trials",
                "4000",
                "--shard",
                k,
                "-o",
                &out(name),
            ],
            Duration::from_secs(60),
        )
        .unwrap_or_else(|| panic!("the shard run did not finish"));
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    [out("s1"), out("s2")]
}

/// `merge` of the shards is refused at once, with exit 2 and an error naming `file`.
fn refused(shards: &[String; 2], merged: &str, file: &Path, what: &str) {
    let started = Instant::now();
    let o = within(
        &["merge", &shards[0], &shards[1], "-o", merged],
        Duration::from_secs(10),
    )
    .unwrap_or_else(|| panic!("{what}: merge did not finish: it waits or reads forever"));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{what}: {err}");
    assert!(
        err.contains(&file.display().to_string()),
        "{what}: the error names the file: {err}"
    );
    assert!(
        started.elapsed() < REFUSAL,
        "{what}: took {:?}",
        started.elapsed()
    );
}

#[test]
fn a_shard_folder_of_devices_fifos_and_huge_files_is_refused_at_once() {
    let dir = scratch("shards");
    let shards = shards(&dir);
    let merged = dir.join("merged").to_string_lossy().into_owned();
    let tally = Path::new(&shards[0]).join("point-00000.tally");
    let kept = std::fs::read(&tally).unwrap_or_else(|e| panic!("{e}"));
    symlink_to_zero(&tally);
    refused(&shards, &merged, &tally, "a tally linked to /dev/zero");
    mkfifo(&tally);
    refused(&shards, &merged, &tally, "a FIFO tally");
    // A tally far larger than its shape can hold (sparse: it costs no disk).
    let _ = std::fs::remove_file(&tally);
    let file = std::fs::File::create(&tally).unwrap_or_else(|e| panic!("{e}"));
    file.set_len(3 << 30).unwrap_or_else(|e| panic!("{e}"));
    refused(&shards, &merged, &tally, "a 3 GB tally");
    std::fs::write(&tally, kept).unwrap_or_else(|e| panic!("{e}"));
    // The shard's description.
    let description = Path::new(&shards[1]).join("shard");
    mkfifo(&description);
    refused(&shards, &merged, &description, "a FIFO description");
    assert!(!Path::new(&merged).exists(), "nothing was written");
}

#[test]
fn a_journal_of_a_fifo_is_refused_on_resume_and_cleared_without() {
    let dir = scratch("journal");
    let out = dir.join("out");
    let partial = out.join(".partial");
    std::fs::create_dir_all(&partial).unwrap_or_else(|e| panic!("{e}"));
    let run = partial.join("run");
    mkfifo(&run);
    let out_text = out.to_string_lossy().into_owned();
    let args = ["run", SCENARIO, "-q", "--trials", "2000", "-o", &out_text];
    let mut resume = args.to_vec();
    resume.push("--resume");
    let o = within(&resume, Duration::from_secs(10))
        .unwrap_or_else(|| panic!("--resume waits on the FIFO"));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(&run.display().to_string()), "{err}");
    // Without --resume the journal is not read: it is cleared, and the run goes on.
    let o = within(&args, Duration::from_secs(60)).unwrap_or_else(|| panic!("the run waits"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(out.join("summary.csv").exists());
}

#[test]
fn check_refuses_what_run_and_exact_would_refuse() {
    let dir = scratch("check");
    let shipped = std::fs::read_to_string("scenarios/twin-d20/to-hit-table.toml")
        .unwrap_or_else(|e| panic!("{e}"));
    let cases = [
        (
            shipped.replace("name = \"to-hit-table\"", &format!("name = \"{}\"", "n".repeat(300))),
            "expected at most 100",
        ),
        (
            shipped.replace("[exact]\n", "[exact]\ncolour = 3\n"),
            "exact.colour",
        ),
        (
            shipped
                .lines()
                .map(|l| {
                    if l.starts_with("grid = ") {
                        "grid = { \"a.attack\" = { from = 1, to = 99999 }, \"b.defense\" = { from = 1, to = 99999 } }"
                    } else {
                        l
                    }
                })
                .collect::<Vec<_>>()
                .join("\n"),
            "exact.grid",
        ),
        (
            shipped
                .lines()
                .map(|l| {
                    if l.starts_with("grid = ") {
                        "grid = { \"a.attack\" = { from = 9, to = 1 } }"
                    } else {
                        l
                    }
                })
                .collect::<Vec<_>>()
                .join("\n"),
            "expected from <= to",
        ),
    ];
    for (text, expected) in cases {
        let file = dir.join("bad.toml");
        std::fs::write(&file, &text).unwrap_or_else(|e| panic!("{e}"));
        let o = within(&["check", &file.to_string_lossy()], Duration::from_secs(10))
            .unwrap_or_else(|| panic!("check did not finish"));
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{expected}: {err}");
        assert!(err.contains(expected), "{expected}: {err}");
        assert!(err.contains("bad.toml:"), "{err}");
    }
    // The shipped grid passes and check says what exact will tabulate.
    let o = within(
        &["check", "scenarios/twin-d20/to-hit-table.toml"],
        Duration::from_secs(10),
    )
    .unwrap_or_else(|| panic!("check did not finish"));
    assert!(
        String::from_utf8_lossy(&o.stdout)
            .contains("[exact] grid: a.attack x b.defense (16 x 16 cells)")
    );
}

#[test]
fn names_with_control_characters_are_refused_and_never_reach_the_terminal_raw() {
    let dir = scratch("escapes");
    let shipped = std::fs::read_to_string(SCENARIO).unwrap_or_else(|e| panic!("{e}"));
    // An OSC sequence that would retitle the terminal, a carriage return, a bell.
    let hostile = shipped.replace(
        "name = \"Knight\"",
        "name = \"Kn\\u001b]0;owned\\u0007ight\\rX\"",
    );
    assert_ne!(hostile, shipped, "the fighter's name line");
    let file = dir.join("hostile.toml");
    std::fs::write(&file, hostile).unwrap_or_else(|e| panic!("{e}"));
    let file = file.to_string_lossy().into_owned();
    let out = dir.join("out");
    let out_text = out.to_string_lossy().into_owned();
    for args in [
        vec!["check", file.as_str()],
        vec!["trace", file.as_str()],
        vec![
            "run",
            file.as_str(),
            "--trials",
            "500",
            "-o",
            out_text.as_str(),
        ],
    ] {
        let o = within(&args, Duration::from_secs(30))
            .unwrap_or_else(|| panic!("{args:?} did not finish"));
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        for stream in [&o.stdout, &o.stderr] {
            let said = String::from_utf8_lossy(stream);
            assert!(
                !said.chars().any(|c| c.is_control() && c != '\n'),
                "{args:?}: a raw control character reached the terminal: {said:?}"
            );
        }
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("a.name: holds the character U+001B"),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    assert!(!out.exists(), "a refused run wrote its folder");
}

#[test]
fn a_swept_name_a_spreadsheet_would_run_is_written_as_text() {
    let dir = scratch("formula");
    let shipped = std::fs::read_to_string(SCENARIO).unwrap_or_else(|e| panic!("{e}"));
    let file = dir.join("formula.toml");
    std::fs::write(
        &file,
        format!(
            "{shipped}\n[weapons.\"=HYPERLINK(1)\"]\ndamage = 2\n\n[sweep]\n\"a.weapon\" = [\"=HYPERLINK(1)\"]\n\"a.attack\" = [11, 12]\n"
        ),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let out = dir.join("out");
    run_ok(&file.to_string_lossy(), &out, "500");
    let summary = std::fs::read_to_string(out.join("summary.csv")).unwrap_or_default();
    let rows: Vec<&str> = summary.lines().skip(1).collect();
    // The formula is text; the number stays a number.
    assert!(rows[0].starts_with("0,'=HYPERLINK(1),11,"), "{}", rows[0]);
    let pivot = std::fs::read_to_string(out.join("tables/a_win_rate.csv")).unwrap_or_default();
    assert!(pivot.contains("'=HYPERLINK(1)"), "{pivot}");
    assert!(
        !pivot.contains(",=HYPERLINK") && !pivot.starts_with('='),
        "{pivot}"
    );
}

/// 200 MiB of address space: what a refused input may cost.
const REFUSAL_KIB: u64 = 200 << 10;

#[test]
fn a_huge_list_inside_a_sweep_list_is_refused_without_building_it() {
    let dir = scratch("huge-list");
    let shipped = std::fs::read_to_string(SCENARIO).unwrap_or_else(|e| panic!("{e}"));
    let ones = vec!["1"; 1_000_000].join(", ");
    let file = dir.join("huge.toml");
    std::fs::write(
        &file,
        format!("{shipped}\n[sweep]\n\"a.weapon\" = [\"broadsword\", [{ones}]]\n"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let started = Instant::now();
    let o = within_memory(
        &["check", &file.to_string_lossy()],
        REFUSAL_KIB,
        Duration::from_secs(20),
    )
    .unwrap_or_else(|| panic!("check did not finish"));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("huge.toml:"), "{err}");
    assert!(err.contains("expected at most"), "{err}");
    assert!(started.elapsed() < REFUSAL, "took {:?}", started.elapsed());
}

#[test]
fn a_catalogue_named_a_hundred_times_is_read_once_and_catalogues_are_bounded() {
    let dir = scratch("catalogues");
    let shipped = std::fs::read_to_string(SCENARIO).unwrap_or_else(|e| panic!("{e}"));
    // A big catalogue: 20,000 weapons (about 600 KB).
    let mut catalogue = String::new();
    for i in 0..20_000 {
        catalogue.push_str(&format!("[weapons.w{i}]\ndamage = {}\n", 1 + i % 4));
    }
    std::fs::write(dir.join("big.toml"), &catalogue).unwrap_or_else(|e| panic!("{e}"));
    let named = vec!["\"big.toml\""; 100].join(", ");
    let file = dir.join("hundred.toml");
    std::fs::write(
        &file,
        shipped.replace(
            "round_limit = 30",
            &format!("round_limit = 30\ncatalogues = [{named}]"),
        ),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let o = within_memory(
        &["check", &file.to_string_lossy()],
        1 << 20,
        Duration::from_secs(30),
    )
    .unwrap_or_else(|| panic!("check did not finish"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // Read once: the scenario's identity (its manifest digest) holds the catalogue once.
    let out = dir.join("out");
    run_ok(&file.to_string_lossy(), &out, "200");
    let mut identity = std::fs::read(&file).unwrap_or_default();
    identity.push(0);
    identity.extend(catalogue.as_bytes());
    std::fs::write(dir.join("identity"), identity).unwrap_or_else(|e| panic!("{e}"));
    let sum = Command::new("sha256sum")
        .arg(dir.join("identity"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run sha256sum: {e}"));
    let sum = String::from_utf8_lossy(&sum.stdout).into_owned();
    let hex = sum.split_whitespace().next().unwrap_or_default();
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap_or_default();
    assert!(
        manifest.contains(&format!("\"sha256\": \"{hex}\"")),
        "the catalogue named 100 times is in the identity once: {manifest}"
    );
    // Too many catalogues, or too many bytes in all, are refused at `catalogues`.
    let padding = format!("# {}\n", "x".repeat(1000)).repeat(6 << 10);
    let mut names = Vec::new();
    for i in 0..3 {
        std::fs::write(dir.join(format!("pad{i}.toml")), &padding)
            .unwrap_or_else(|e| panic!("{e}"));
        names.push(format!("\"pad{i}.toml\""));
    }
    let many: Vec<String> = (0..40).map(|i| format!("\"c{i}.toml\"")).collect();
    for i in 0..40 {
        std::fs::write(dir.join(format!("c{i}.toml")), "").unwrap_or_else(|e| panic!("{e}"));
    }
    for (list, what) in [(names, "in all"), (many, "catalogues")] {
        let file = dir.join("bounded.toml");
        std::fs::write(
            &file,
            shipped.replace(
                "round_limit = 30",
                &format!("round_limit = 30\ncatalogues = [{}]", list.join(", ")),
            ),
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let started = Instant::now();
        let o = within_memory(
            &["check", &file.to_string_lossy()],
            REFUSAL_KIB,
            Duration::from_secs(20),
        )
        .unwrap_or_else(|| panic!("check did not finish"));
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert!(err.contains("catalogues"), "{what}: {err}");
        assert!(err.contains(what), "{what}: {err}");
        assert!(started.elapsed() < REFUSAL, "{what}");
    }
}

#[test]
fn check_of_a_long_sweep_list_takes_time_in_proportion_to_it() {
    let dir = scratch("long-sweep");
    let shipped = std::fs::read_to_string(SCENARIO).unwrap_or_else(|e| panic!("{e}"));
    let values: Vec<String> = (0..5001).map(|i| (i % 20 + 1).to_string()).collect();
    let file = dir.join("long.toml");
    std::fs::write(
        &file,
        format!(
            "{shipped}\n[sweep]\n\"a.attack\" = [{}]\n",
            values.join(", ")
        ),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // Quadratic (each point re-reading the 5,001 values) took 8 to 12 s in a release build.
    let o = within(&["check", &file.to_string_lossy()], Duration::from_secs(8))
        .unwrap_or_else(|| panic!("check of 5,001 points took more than 8 s"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn a_second_run_into_a_busy_folder_is_refused_and_a_killed_runs_lock_never_blocks() {
    let dir = scratch("lock");
    let out = dir.join("out").to_string_lossy().into_owned();
    let long = ["run", SCENARIO, "-q", "--trials", "1000000000", "-o", &out];
    let mut first = Command::new(env!("CARGO_BIN_EXE_duelsim"))
        .args(long)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start duelsim: {e}"));
    let started = Instant::now();
    while !Path::new(&out).join(".partial/run").exists() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the first run never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let second = within(
        &["run", SCENARIO, "-q", "--trials", "1000", "-o", &out],
        Duration::from_secs(10),
    );
    let exact = within(
        &["exact", SCENARIO, "-q", "-o", &out],
        Duration::from_secs(10),
    );
    let pid = first.id().to_string();
    let _ = first.kill();
    let _ = first.wait();
    let second = second.unwrap_or_else(|| panic!("the second run waited"));
    let err = String::from_utf8_lossy(&second.stderr).into_owned();
    assert_eq!(second.status.code(), Some(1), "{err}");
    assert!(err.contains(&out), "names the folder: {err}");
    assert!(err.contains(&pid), "names the holder: {err}");
    // exact into the busy folder is refused the same way.
    let exact = exact.unwrap_or_else(|| panic!("exact waited"));
    let err = String::from_utf8_lossy(&exact.stderr).into_owned();
    assert_eq!(exact.status.code(), Some(1), "{err}");
    assert!(err.contains(&pid), "names the holder: {err}");
    // The killed run's lock went with it: the next run goes ahead, and lets go as it ends.
    let o = within(
        &["run", SCENARIO, "-q", "--trials", "1000", "-o", &out],
        Duration::from_secs(60),
    )
    .unwrap_or_else(|| panic!("the run after a kill waited"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        !Path::new(&out).join(".lock").exists(),
        "the lock file is removed"
    );
    // A `.lock` that links elsewhere (a folder copied from another machine) is not followed:
    // taking the lock would empty the file it points at.
    let victim = dir.join("victim");
    std::fs::write(&victim, "keep me").unwrap_or_else(|e| panic!("{e}"));
    std::os::unix::fs::symlink(&victim, Path::new(&out).join(".lock"))
        .unwrap_or_else(|e| panic!("{e}"));
    let o = within(
        &["run", SCENARIO, "-q", "--trials", "1000", "-o", &out],
        Duration::from_secs(60),
    )
    .unwrap_or_else(|| panic!("the run waited"));
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains(".lock: is not a regular file"), "{err}");
    assert_eq!(
        std::fs::read_to_string(&victim).unwrap_or_default(),
        "keep me"
    );
}

#[test]
fn digests_are_sha256() {
    let dir = scratch("digest");
    let out = dir.join("out");
    run_ok(SCENARIO, &out, "500");
    let sum = Command::new("sha256sum")
        .arg(SCENARIO)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap_or_else(|e| panic!("cannot run sha256sum: {e}"));
    let sum = String::from_utf8_lossy(&sum.stdout);
    let hex = sum.split_whitespace().next().unwrap_or_default();
    assert_eq!(hex.len(), 64);
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap_or_default();
    assert!(
        manifest.contains(&format!("\"sha256\": \"{hex}\"")),
        "the manifest gives the scenario file's SHA-256: {manifest}"
    );
}
