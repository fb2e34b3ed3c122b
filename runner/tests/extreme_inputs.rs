//! A run keeps only the openings it plays: a dry run of 2 pairs on a 200,000-line book
//! checks every line (a bad last line still fails it) with a peak memory far below what
//! holding the book takes (about 1.2 kB per opening), and a 10,000-engine round robin is
//! refused in one line instead of building its pairings (and a 500-engine one, over the
//! pairing limit).

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// An engine that answers the handshake and plays nothing: a dry run starts each engine.
const STAND_IN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/stand-in-engine.sh");

fn repo_file(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative)
}

/// Peak resident memory (VmHWM) of a running process, in bytes.
fn peak_rss(pid: u32) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Runs xq-runner, sampling its peak memory: (exit code, stdout, stderr, peak bytes).
fn run_measured(args: &[&str]) -> (i32, String, String, u64) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_xq-runner"))
        .args(args)
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
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        peak,
    )
}

const LINES: usize = 200_000;

#[test]
fn a_two_pair_run_on_a_big_book_keeps_two_openings() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("openings-memory");
    fs::create_dir_all(&dir).expect("dir");
    let source = fs::read_to_string(repo_file("openings/mainlines.epd")).expect("mainlines");
    let lines: Vec<&str> = source
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let book = dir.join("big.epd");
    let mut out = BufWriter::new(fs::File::create(&book).expect("create"));
    for i in 0..LINES {
        writeln!(out, "{}", lines[i % lines.len()]).expect("write");
    }
    out.flush().expect("flush");
    drop(out);
    let config = dir.join("run.toml");
    let text = format!(
        "[tournament]\npairs = 2\n[time]\ndepth = 1\n[openings]\nfile = \"{}\"\norder = \"random\"\n[output]\ndir = \"{}\"\n[[engine]]\nname = \"a\"\ncommand = [{STAND_IN:?}]\n[[engine]]\nname = \"b\"\ncommand = [{STAND_IN:?}]\n",
        book.display(),
        dir.join("out").display()
    );
    fs::write(&config, text).expect("write");
    let (code, stdout, stderr, peak) =
        run_measured(&["run", config.to_str().expect("p"), "--dry-run"]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    eprintln!("dry run on {LINES} openings: peak RSS {peak} bytes");
    if cfg!(target_os = "linux") {
        assert!(peak > 0, "no memory sample taken");
        // Held whole, the book takes about 240 MB; its places take 16 bytes each.
        assert!(peak < 80 * 1024 * 1024, "peak RSS {peak} bytes");
    }
    // Every line is still checked at start: a bad last line fails the run.
    fs::OpenOptions::new()
        .append(true)
        .open(&book)
        .and_then(|mut f| f.write_all(b"not a fen\n"))
        .expect("append");
    let out = Command::new(env!("CARGO_BIN_EXE_xq-runner"))
        .args(["run", config.to_str().expect("p"), "--dry-run"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(&format!("big.epd:{}: bad FEN", LINES + 1)),
        "{err}"
    );
    let _ = fs::remove_dir_all(&dir);
}

/// A round robin config of `n` engines (all the stand-in engine of tests/data: a dry run
/// starts each once).
fn round_robin(dir: &Path, n: usize) -> PathBuf {
    let mut text = format!(
        "[tournament]\nkind = \"round_robin\"\npairs = 1\n[time]\ndepth = 1\n[output]\ndir = \"{}\"\n",
        dir.join("out").display()
    );
    for i in 0..n {
        text.push_str(&format!(
            "[[engine]]\nname = \"e{i}\"\ncommand = [{STAND_IN:?}]\n"
        ));
    }
    let path = dir.join(format!("rr{n}.toml"));
    fs::write(&path, text).expect("write");
    path
}

#[test]
fn huge_round_robins_are_refused_in_one_line() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("round-robin-limits");
    fs::create_dir_all(&dir).expect("dir");
    for (n, want) in [
        (
            10_000,
            "engine: 10000 engines: at most 1000 in one run".to_owned(),
        ),
        (
            500,
            "tournament.kind: a round_robin of 500 engines has 124750 pairings: at most 100000"
                .to_owned(),
        ),
    ] {
        let config = round_robin(&dir, n);
        let (code, stdout, stderr, peak) =
            run_measured(&["run", config.to_str().expect("p"), "--dry-run"]);
        assert_eq!(code, 2, "{n} engines: {stdout}{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(&want), "{n} engines: {stderr}");
        eprintln!("{n} engines refused; peak RSS {peak} bytes");
    }
    // Below the limits a round robin is planned as before.
    let config = round_robin(&dir, 40);
    let out = Command::new(env!("CARGO_BIN_EXE_xq-runner"))
        .args(["run", config.to_str().expect("p"), "--dry-run"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("pairing:")).count(),
        780
    );
    let _ = fs::remove_dir_all(&dir);
}
