//! Tournaments end to end: a match of our engine at two eval levels through the
//! `xq-runner` binary; journal, PGN and summary agree with each other and with
//! `xq-runner stats`; runs are deterministic; a killed run resumes to the same result;
//! Ctrl-C leaves no engine behind; bad configs start nothing.

mod common;

use std::process::{Command, Stdio};
use std::time::Duration;

use common::{bin, journal, match_config, processes_with, runner, scratch, timeless};
use serde_json::Value;
use xq_core::board::{Move, Position};
use xq_core::movegen::is_legal;

/// Reads the games of a PGN file back: tags and moves, replayed legally.
fn replay_pgn(text: &str) -> usize {
    let mut games = 0;
    for block in text.split("[Game \"Chinese Chess\"]").skip(1) {
        let fen = block
            .lines()
            .find_map(|l| {
                l.strip_prefix("[FEN \"")
                    .and_then(|r| r.strip_suffix("\"]"))
            })
            .map(str::to_owned);
        let mut pos = fen.map_or_else(Position::startpos, |f| {
            Position::from_fen(&f).expect("PGN FEN")
        });
        let movetext: String = block
            .lines()
            .filter(|l| !l.starts_with('['))
            .collect::<Vec<_>>()
            .join(" ");
        // Drop comments, then read the ICCS moves.
        let mut plain = String::new();
        let mut depth = 0;
        for c in movetext.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ if depth == 0 => plain.push(c),
                _ => {}
            }
        }
        for token in plain.split_whitespace() {
            if token.ends_with('.') || ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                continue;
            }
            let m = Move::parse(token).unwrap_or_else(|e| panic!("PGN move {token}: {e}"));
            assert!(
                is_legal(&pos, m),
                "PGN move {token} illegal in {}",
                pos.to_fen()
            );
            pos.make_move(m);
        }
        games += 1;
    }
    games
}

#[test]
fn a_match_writes_consistent_journal_pgn_and_summary() {
    let folder = scratch("match");
    let dir = folder.path();
    let config = match_config(dir, 10, "");
    let (code, stdout, stderr) = runner(&["run", config.to_str().expect("path")]);
    assert_eq!(code, 0, "{stdout}\n{stderr}");
    let out = dir.join("out");
    let entries = journal(&out);
    assert_eq!(entries.len(), 20);
    for e in &entries {
        for key in [
            "pair", "game", "opening", "red", "black", "result", "reason", "plies",
        ] {
            assert!(!e[key].is_null(), "journal line without {key}: {e}");
        }
    }
    let pgn = std::fs::read_to_string(out.join("games.pgn")).expect("games.pgn");
    assert_eq!(
        replay_pgn(&pgn),
        20,
        "every game in the PGN replays legally"
    );

    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).expect("summary"))
            .expect("json");
    assert_eq!(summary["games"], 20);
    assert_eq!(summary["pairs"], 10);
    let penta: Vec<u64> = summary["penta"]
        .as_array()
        .expect("penta")
        .iter()
        .map(|v| v.as_u64().expect("count"))
        .collect();
    assert_eq!(penta.iter().sum::<u64>(), 10);
    let (w, l, d) = (
        summary["wins"].as_u64(),
        summary["losses"].as_u64(),
        summary["draws"].as_u64(),
    );
    assert_eq!(w.zip(l).zip(d).map(|((w, l), d)| w + l + d), Some(20));
    // The journal's results agree with the summary's counts (level6 is the first engine).
    let score_of = |e: &Value| -> f64 {
        let red = match e["result"].as_str() {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            _ => 0.5,
        };
        if e["red"] == "level6" {
            red
        } else {
            1.0 - red
        }
    };
    let wins = entries.iter().filter(|e| score_of(e) == 1.0).count() as u64;
    assert_eq!(Some(wins), w);
    // And xq-runner stats on the same counts gives the same Elo.
    let counts = penta
        .iter()
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let (code, stats, _) = runner(&["stats", "--penta", &counts, "--json"]);
    assert_eq!(code, 0);
    let stats: Value = serde_json::from_str(&stats).expect("stats json");
    let diff =
        (stats["elo"].as_f64().unwrap_or(f64::NAN) - summary["elo"].as_f64().unwrap_or(0.0)).abs();
    assert!(
        diff < 1e-9,
        "stats {} vs summary {}",
        stats["elo"],
        summary["elo"]
    );
    assert!(
        stdout.contains("Ptnml(0-2):"),
        "the result block is printed"
    );
    assert!(
        stdout.contains("Finished game 20") || stdout.contains("Finished game"),
        "per-game lines are printed"
    );
}

#[test]
fn runs_with_the_same_seed_play_the_same_games() {
    let a_folder = scratch("determinism-a");
    let a = a_folder.path();
    let b_folder = scratch("determinism-b");
    let b = b_folder.path();
    for dir in [&a, &b] {
        let config = match_config(dir, 6, "");
        let (code, out, err) = runner(&["run", config.to_str().expect("path")]);
        assert_eq!(code, 0, "{out}{err}");
    }
    assert_eq!(
        timeless(journal(&a.join("out"))),
        timeless(journal(&b.join("out")))
    );
}

#[test]
fn a_killed_run_resumes_to_the_same_result() {
    let whole_folder = scratch("resume-whole");
    let whole = whole_folder.path();
    let config = match_config(whole, 12, "");
    assert_eq!(runner(&["run", config.to_str().expect("path")]).0, 0);
    let expected = timeless(journal(&whole.join("out")));

    let cut_folder = scratch("resume-cut");
    let cut = cut_folder.path();
    let config = match_config(cut, 12, "");
    let mut child = Command::new(bin("xq-runner"))
        .args(["run", config.to_str().expect("path")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start runner");
    // Kill -9 once a few games are in the journal.
    let journal_path = cut.join("out").join("games.jsonl");
    for _ in 0..400 {
        let lines = std::fs::read_to_string(&journal_path)
            .map(|t| t.lines().count())
            .unwrap_or(0);
        if lines >= 5 {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("kill -9");
    let _ = child.wait();
    let partial = journal(&cut.join("out")).len();
    assert!(partial < 24, "the run was cut short ({partial} games)");
    let (code, out, err) = runner(&["run", config.to_str().expect("path"), "--resume"]);
    assert_eq!(code, 0, "{out}{err}");
    let resumed = timeless(journal(&cut.join("out")));
    assert_eq!(resumed.len(), 24, "no game lost, none duplicated");
    assert_eq!(resumed, expected);
}

#[test]
fn ctrl_c_leaves_no_engine_and_a_resumable_journal() {
    let folder = scratch("ctrl-c");
    let dir = folder.path();
    let tag = format!("ctrlc-{}", std::process::id());
    // Engines marked with a tag argument are found in the process table afterwards.
    let engine = bin("xq-engine").display().to_string();
    let config = match_config(dir, 30, "");
    let text = std::fs::read_to_string(&config).expect("config");
    let fault = common::fault_engine().display().to_string();
    let text = text.replacen(&format!("command = [\"{engine}\"]"), &format!("command = [\"{fault}\", \"--fault\", \"sleep\", \"--sleep-ms\", \"20\", \"--tag\", \"{tag}\"]"), 1);
    std::fs::write(&config, text).expect("write");
    let mut child = Command::new(bin("xq-runner"))
        .args(["run", config.to_str().expect("path")])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start runner");
    std::thread::sleep(Duration::from_millis(1500));
    let pid = nix_pid(child.id());
    assert!(!processes_with(&tag).is_empty(), "engines were running");
    let _ = Command::new("kill").args(["-INT", &pid]).status();
    let status = child.wait().expect("runner ends");
    assert_eq!(status.code(), Some(4), "interrupted runs exit 4");
    std::thread::sleep(Duration::from_millis(200));
    assert!(
        processes_with(&tag).is_empty(),
        "engines left behind: {:?}",
        processes_with(&tag)
    );
    let (code, out, err) = runner(&["run", config.to_str().expect("path"), "--resume"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(journal(&dir.join("out")).len(), 60);
}

fn nix_pid(id: u32) -> String {
    id.to_string()
}

#[test]
fn bad_configs_start_nothing_and_name_file_and_line() {
    let folder = scratch("bad");
    let dir = folder.path();
    let good = match_config(dir, 2, "");
    let text = std::fs::read_to_string(&good).expect("config");
    let cases: [(&str, String, &str); 4] = [
        (
            "unknown key",
            text.replace("seed = 7", "seed = 7\ncolour = \"red\""),
            ":6:",
        ),
        (
            "missing engine",
            text.replacen(
                bin("xq-engine").to_str().expect("p"),
                "/nonexistent/xq-engine",
                1,
            ),
            "engine.0.command",
        ),
        (
            "bad tc",
            text.replace("depth = 2", "tc = \"ten minutes\""),
            "time.tc",
        ),
        (
            "bad depth type",
            text.replace("depth = 2", "depth = \"deep\""),
            ":8:",
        ),
    ];
    for (what, body, expect) in cases {
        let path = dir.join(format!("{}.toml", what.replace(' ', "-")));
        std::fs::write(&path, body).expect("write");
        let (code, out, err) = runner(&["run", path.to_str().expect("path")]);
        assert_eq!(code, 2, "{what}: {out}{err}");
        assert!(
            err.contains(path.to_str().expect("path")) && err.contains(expect),
            "{what}: message `{err}` lacks {expect}"
        );
        assert!(!dir.join("out").exists(), "{what}: nothing is written");
    }
    // A bad opening line: exit 2 naming the opening file and its line.
    let openings = dir.join("bad.epd");
    std::fs::write(&openings, "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2\nnot a fen at all\n")
        .expect("write");
    let body = text.replace(
        common::mainlines().to_str().expect("p"),
        openings.to_str().expect("p"),
    );
    let path = dir.join("bad-openings.toml");
    std::fs::write(&path, body).expect("write");
    let (code, _, err) = runner(&["run", path.to_str().expect("path")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad.epd") && err.contains('2'), "{err}");
    assert!(!dir.join("out").join("games.jsonl").exists());
    // An existing run is never overwritten.
    assert_eq!(runner(&["run", good.to_str().expect("path")]).0, 0);
    let before = std::fs::read_to_string(dir.join("out").join("games.jsonl")).expect("journal");
    let (code, _, err) = runner(&["run", good.to_str().expect("path")]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("out").join("games.jsonl")).expect("journal"),
        before
    );
}
