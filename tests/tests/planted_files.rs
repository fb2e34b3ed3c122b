//! Files planted in a run folder by someone else: a symbolic link named `run.lock` or
//! `games.jsonl` pointing out of the folder, a FIFO named `games.jsonl`. No command
//! writes through such a link (a resume refused it rather than write its pid over the
//! link's target), `serve DIR` shows no file from outside the served folder, a FIFO
//! neither hangs a page nor keeps `serve` from stopping on SIGTERM.

mod common;

use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::web::{get, serve};
use common::{eventually, fault_config, mainlines, path, runner, scratch, tune_config};

/// A finished run of 2 pairs in `dir/out`.
fn finished_run(dir: &Path) -> PathBuf {
    let config = fault_config(dir, 2, &mainlines(), ["", ""], "");
    let (code, out, err) = runner(&["run", path(&config)]);
    assert_eq!(code, 0, "{out}{err}");
    dir.join("out")
}

/// A file outside the folders, which no command may change.
fn precious(dir: &Path) -> PathBuf {
    let file = dir.join("precious.txt");
    std::fs::write(&file, "keep me\n").expect("write");
    file
}

fn plant_link(target: &Path, at: &Path) {
    let _ = std::fs::remove_file(at);
    symlink(target, at).expect("plant a link");
}

#[test]
fn no_command_writes_through_a_link_planted_as_its_lock_or_its_journal() {
    let dir = scratch("planted-links");
    let out = finished_run(dir.path());
    let outside = scratch("planted-links-outside");
    let target = precious(outside.path());
    let journal = std::fs::read(out.join("games.jsonl")).expect("journal");

    // `resume` of a folder whose run.lock is a link: it wrote its pid over the target.
    plant_link(&target, &out.join("run.lock"));
    let (code, stdout, stderr) = runner(&["resume", path(&out), "--pairs", "3"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line: {stderr}");
    assert!(
        stderr.contains("cannot open run.lock: a symbolic link, not followed"),
        "{stderr}"
    );
    assert_eq!(
        std::fs::read_to_string(&target).expect("target"),
        "keep me\n"
    );
    assert_eq!(
        std::fs::read(out.join("games.jsonl")).expect("journal"),
        journal
    );

    // The journal a link to a file outside: never appended to.
    std::fs::remove_file(out.join("run.lock")).expect("unplant");
    let moved = outside.path().join("games.jsonl");
    std::fs::rename(out.join("games.jsonl"), &moved).expect("move the journal out");
    plant_link(&moved, &out.join("games.jsonl"));
    let (code, stdout, stderr) = runner(&["resume", path(&out), "--pairs", "3"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(
        stderr.contains("games.jsonl: a symbolic link, not followed"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(&moved).expect("journal"), journal);

    // A new tune into a folder where a link waits as run.lock.
    let tune_dir = scratch("planted-links-tune");
    let config = tune_config(tune_dir.path(), 2, 40.0, "", "", None);
    let tune_out = tune_dir.path().join("out");
    std::fs::create_dir_all(&tune_out).expect("tune folder");
    plant_link(&target, &tune_out.join("run.lock"));
    let (code, stdout, stderr) = runner(&["tune", path(&config)]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("a symbolic link, not followed"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&target).expect("target"),
        "keep me\n"
    );
}

/// A GET answered within `limit`: its status and body; `None` when no answer came.
fn get_within(base: &str, path: &str, limit: Duration) -> Option<(u16, String)> {
    let host = base.trim_start_matches("http://");
    let mut s = TcpStream::connect(host).ok()?;
    s.set_read_timeout(Some(limit)).ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    let start = Instant::now();
    let mut raw = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => raw.extend_from_slice(&buf[..n]),
            Err(_) => return None,
        }
        if start.elapsed() > limit {
            return None;
        }
    }
    let text = String::from_utf8_lossy(&raw).into_owned();
    let code = text.split_whitespace().nth(1)?.parse().ok()?;
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_owned())?;
    Some((code, body))
}

/// The served folder: the finished run `out`, a copy `linked` whose journal is a link
/// to a journal outside, a copy `fifo` whose journal is a FIFO.
fn planted_folder(dir: &Path, outside: &Path) -> String {
    let out = finished_run(dir);
    let secret = outside.join("games.jsonl");
    std::fs::copy(out.join("games.jsonl"), &secret).expect("a journal outside");
    for name in ["linked", "fifo"] {
        let copy = dir.join(name);
        std::fs::create_dir_all(&copy).expect("mkdir");
        std::fs::copy(out.join("run.json"), copy.join("run.json")).expect("copy run.json");
    }
    symlink(&secret, dir.join("linked/games.jsonl")).expect("symlink");
    let made = Command::new("mkfifo")
        .arg(dir.join("fifo/games.jsonl"))
        .status()
        .is_ok_and(|s| s.success());
    assert!(made, "mkfifo");
    std::fs::read_to_string(&secret).expect("secret")
}

#[test]
fn serve_dir_shows_no_file_through_a_link_and_a_fifo_hangs_no_page() {
    let dir = scratch("planted-serve");
    let outside = scratch("planted-serve-outside");
    let secret = planted_folder(dir.path(), outside.path());
    let first_line = secret.lines().next().expect("a game").to_owned();
    let served = serve(&[path(dir.path())], &[]);

    let (code, _, jsonl) = get(&served.base, "/runs/out/games.jsonl");
    assert_eq!(code, 200);
    assert_eq!(jsonl.lines().count(), 4, "the run's own journal is served");

    let limit = Duration::from_secs(10);
    for page in [
        "/runs/linked/games.jsonl",
        "/runs/linked/games.pgn",
        "/runs/linked",
        "/api/runs/linked",
        "/runs/fifo/games.jsonl",
        "/runs/fifo/games.pgn",
        "/runs/fifo",
        "/api/runs/fifo",
        "/",
        "/api/runs",
    ] {
        let Some((code, body)) = get_within(&served.base, page, limit) else {
            panic!("{page}: no answer in {limit:?}");
        };
        assert!(
            !body.contains(&first_line),
            "{page} showed the file outside"
        );
        if page.contains("/linked") || page.contains("/fifo") {
            assert_eq!(code, 500, "{page}: {body}");
            assert_eq!(body.trim_end().lines().count(), 1, "{page}: {body}");
            let why = if page.contains("/linked") {
                "games.jsonl: a symbolic link, not followed"
            } else {
                "games.jsonl: a FIFO, not a regular file"
            };
            assert!(body.contains(why), "{page}: {body}");
        } else {
            assert_eq!(code, 200, "{page}: {body}");
        }
    }
}

#[test]
fn a_sigterm_stops_serve_dir_with_a_fifo_planted_and_its_readers_waiting() {
    let dir = scratch("planted-sigterm");
    let outside = scratch("planted-sigterm-outside");
    planted_folder(dir.path(), outside.path());
    let mut served = serve(&[path(dir.path())], &[]);
    // Readers of the FIFO's pages, left waiting while serve is asked to stop.
    let waiting: Vec<std::thread::JoinHandle<()>> = ["/runs/fifo", "/runs/fifo/games.jsonl"]
        .iter()
        .map(|page| {
            let base = served.base.clone();
            std::thread::spawn(move || {
                let _ = get_within(&base, page, Duration::from_secs(30));
            })
        })
        .collect();
    std::thread::sleep(Duration::from_secs(1));
    let _ = Command::new("kill")
        .args(["-TERM", &served.child.id().to_string()])
        .status();
    let stopped = eventually(Duration::from_secs(5), || {
        served.child.try_wait().ok().flatten().is_some()
    });
    assert!(stopped, "serve still runs 5 s after SIGTERM");
    assert_eq!(served.child.wait().expect("ended").code(), Some(0));
    for w in waiting {
        let _ = w.join();
    }
}
