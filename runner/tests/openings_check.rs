//! `xq-runner openings check` as a user runs it: the shipped suite passes, a
//! file with one defect of each kind is rejected with every problem at its
//! line, and a 100,000-line file is checked while streaming (peak memory far
//! below the file size). Also checks the shipped suite's promises (depth,
//! names, ECCO codes) through the library.

use std::collections::HashSet;
use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use xq_engine::board::{Position, START_FEN};
use xq_engine::movegen::legal_moves;
use xq_runner::openings::{is_ecco_code, Opening, OpeningReader, SplitMix64};

fn repo_file(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative)
}

fn check(path: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xq-runner"))
        .args(["openings", "check"])
        .arg(path)
        .output()
        .unwrap_or_else(|e| panic!("cannot run xq-runner: {e}"))
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn shipped_mainlines_pass() {
    let path = repo_file("openings/mainlines.epd");
    let out = check(&path);
    let text = stdout(&out);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let last = text.lines().last().unwrap_or_default();
    assert!(last.ends_with("openings, 0 problems"), "{text}");
}

#[test]
fn shipped_mainlines_keep_their_promises() {
    let path = repo_file("openings/mainlines.epd");
    let file = File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let openings: Vec<Opening> = OpeningReader::new(BufReader::new(file))
        .map(|r| r.unwrap_or_else(|e| panic!("{e}")))
        .collect();
    assert!(openings.len() >= 60, "only {} openings", openings.len());
    let start = Position::from_fen(START_FEN).expect("start");
    let mut families = HashSet::new();
    for o in &openings {
        let at = format!("line {}", o.line);
        assert_eq!(o.start, start, "{at}: starts from the standard position");
        assert!(
            (4..=12).contains(&o.moves.len()),
            "{at}: {} plies",
            o.moves.len()
        );
        let eco = o.eco.as_deref().unwrap_or_else(|| panic!("{at}: no eco"));
        assert!(is_ecco_code(eco), "{at}: eco {eco}");
        let name = o.name.as_deref().unwrap_or_else(|| panic!("{at}: no name"));
        assert!(
            name.contains('(') && !name.is_ascii(),
            "{at}: English (Chinese) name: {name}"
        );
        families.insert(&eco[..1]);
    }
    assert_eq!(families.len(), 5, "all ECCO volumes A-E: {families:?}");
}

#[test]
fn every_kind_of_defect_is_reported_at_its_line() {
    let path = repo_file("runner/tests/data/openings/defects.epd");
    let out = check(&path);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(2), "{text}");
    let name = path.display().to_string();
    let expected: [(usize, &str); 9] = [
        (3, "bad FEN: row 10 (rank 0): unknown piece letter 'X'"),
        (4, "move 2 `h9z7` is not a move"),
        (5, "move 3 `h2h8` is illegal (Red to move)"),
        (6, "the game is already over: Black to move is checkmated"),
        (7, "duplicate: the same position as line 2"),
        (8, "duplicate: the left-right mirror of line 2"),
        (
            9,
            "malformed field: unexpected `extra` after the value of `name`",
        ),
        (10, "unterminated quote in the value of `name`"),
        (14, "duplicate: the same position as line 12"),
    ];
    let problems: Vec<&str> = text.lines().filter(|l| l.starts_with(&name)).collect();
    assert_eq!(problems.len(), expected.len(), "{text}");
    for ((line, what), got) in expected.iter().zip(&problems) {
        let prefix = format!("{name}:{line}: ");
        assert!(got.starts_with(&prefix), "want line {line}, got: {got}");
        assert!(got.contains(what), "line {line}: want `{what}`, got: {got}");
    }
    assert_eq!(
        text.lines().last(),
        Some("12 openings, 9 problems"),
        "{text}"
    );
}

#[test]
fn unreadable_file_exits_2() {
    let out = check(Path::new("/nonexistent/suite.epd"));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: cannot read /nonexistent/suite.epd"),
        "{err}"
    );
}

/// `count` distinct openings (mirrors included), by seeded random walks of
/// 6 to 10 plies from the start position.
fn write_random_suite(path: &Path, count: usize) -> u64 {
    let mut rng = SplitMix64::new(7);
    let mut seen = HashSet::new();
    let mut out = BufWriter::new(File::create(path).expect("create suite"));
    let padding = "x".repeat(100);
    let mut written = 0;
    while written < count {
        let mut pos = Position::from_fen(START_FEN).expect("start");
        let mut moves = Vec::new();
        let plies = 6 + rng.below(5);
        for _ in 0..plies {
            let legal = legal_moves(&pos);
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len() as u64) as usize];
            pos.make_move(m);
            moves.push(m);
        }
        let opening =
            Opening::new(Position::from_fen(START_FEN).expect("start"), moves).expect("legal walk");
        if opening.game_over().is_some() || !seen.insert(opening.canonical_key()) {
            continue;
        }
        written += 1;
        let mut line = opening.to_line();
        line.push_str(&format!(" ; name \"walk {written} {padding}\"\n"));
        out.write_all(line.as_bytes()).expect("write");
    }
    out.flush().expect("flush");
    fs::metadata(path).expect("metadata").len()
}

/// Peak resident memory (VmHWM) of a running process, in bytes.
fn peak_rss(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[test]
fn a_100k_line_file_is_streamed() {
    let path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("openings-100k.epd");
    let size = write_random_suite(&path, 100_000);
    let mut child = Command::new(env!("CARGO_BIN_EXE_xq-runner"))
        .args(["openings", "check"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn xq-runner");
    let mut peak = 0;
    while child.try_wait().expect("wait").is_none() {
        if let Some(rss) = peak_rss(child.id()) {
            peak = peak.max(rss);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let out = child.wait_with_output().expect("output");
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert_eq!(text.trim_end(), "100000 openings, 0 problems");
    eprintln!("checked {size} bytes; peak RSS {peak} bytes");
    if cfg!(target_os = "linux") {
        assert!(peak > 0, "no memory sample taken");
        // Reading the file whole would need at least its size; the checker keeps
        // one line and 16 bytes per opening.
        assert!(
            peak < size / 2,
            "peak RSS {peak} bytes for a {size}-byte file"
        );
    }
    let _ = fs::remove_file(&path);
}
