//! `xq-runner datagen` end to end with the real engine at a few hundred nodes: the
//! positions it writes read back with `xq_core::training` and pass its filters (checked
//! against a replay of the games in its ledger); a datagen killed with SIGKILL resumes
//! without losing or doubling a game; bad configs are refused with one line and exit 2.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{bin, path, runner, scratch, workspace};
use serde_json::Value;
use xq_core::board::{Color, Move, Position};
use xq_core::movegen::in_check;
use xq_core::training::{DataReader, GameResult, Record, HEADER_BYTES, RECORD_BYTES};

const SCORE_LIMIT: i16 = 1500;

/// A datagen config in `dir/datagen.toml`; `datagen` replaces the `[datagen]` table's
/// body, `extra` goes at the end.
fn config(dir: &Path, datagen: &str, extra: &str) -> PathBuf {
    let text = format!(
        r#"[tournament]
concurrency = 2
seed = 3

[time]
nodes = 300

[openings]
file = "{openings}"
order = "random"

[output]
dir = "{out}"

[[engine]]
name = "xq"
command = ["{engine}"]
options = {{ evallevel = "6", hashsize = "8" }}

[datagen]
{datagen}
{extra}"#,
        openings = workspace().join("openings/balanced-1k.epd").display(),
        out = dir.join("out").display(),
        engine = bin("xq-engine").display(),
    );
    let file = dir.join("datagen.toml");
    std::fs::write(&file, text).expect("write config");
    file
}

fn ledger(dir: &Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("out/datagen.jsonl"))
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).expect("a ledger line is JSON"))
        .collect()
}

fn moves(text: &str) -> Vec<Move> {
    text.split_whitespace()
        .map(|m| Move::parse(m).expect("a move"))
        .collect()
}

/// Checks each game's records against a replay of the game: they are, in order,
/// positions an engine moved from, not in check, whose move was not a capture, with a
/// score within the limit and the game's result from the side to move's view.
fn check_against_replay(lines: &[Value], records: &[Record]) {
    let mut next = 0;
    for line in lines {
        let count = usize::try_from(line["records"].as_u64().expect("records")).expect("count");
        let game = &records[next..next + count];
        next += count;
        let mut position =
            Position::from_fen(line["start_fen"].as_str().expect("fen")).expect("start FEN");
        for m in moves(line["opening_moves"].as_str().expect("opening")) {
            position.make_move(m);
        }
        let red = match line["result"].as_str().expect("result") {
            "1-0" => GameResult::Win,
            "0-1" => GameResult::Loss,
            _ => GameResult::Draw,
        };
        let mut kept = game.iter().peekable();
        for m in moves(line["moves"].as_str().expect("moves")) {
            if let Some(record) = kept.peek() {
                let here = record.position().expect("a position");
                if here.key() == position.key() {
                    assert!(!in_check(&position), "in check: {}", position.to_fen());
                    assert!(
                        position.piece_at(m.to()).is_none(),
                        "the move played from {} ({m}) is a capture",
                        position.to_fen()
                    );
                    let result = match position.side_to_move() {
                        Color::Red => red,
                        Color::Black => red.flipped(),
                    };
                    assert_eq!(record.result, result, "{}", position.to_fen());
                    kept.next();
                }
            }
            position.make_move(m);
        }
        assert!(
            kept.next().is_none(),
            "game {}: every record is a position of the game, in order",
            line["game"]
        );
    }
    assert_eq!(next, records.len(), "the ledger counts every record");
    for record in records {
        assert!(record.score.abs() <= SCORE_LIMIT, "score {}", record.score);
    }
}

#[test]
fn quiet_positions_are_written_and_read_back() {
    let folder = scratch("datagen");
    let dir = folder.path();
    let cfg = config(
        dir,
        &format!("positions = 400\nrandom_plies = 6\nscore_limit = {SCORE_LIMIT}\nply_limit = 160\nseed = 9\ndedup = true"),
        "",
    );
    let (code, out, err) = runner(&["datagen", path(&cfg)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("400 of 400 positions"), "{out}");
    let records = DataReader::read_all(&dir.join("out/positions.bin")).expect("a data file");
    assert_eq!(records.len(), 400);
    let lines = ledger(dir);
    let games: HashSet<u64> = lines
        .iter()
        .map(|l| l["game"].as_u64().expect("game"))
        .collect();
    assert_eq!(games.len(), lines.len(), "each game once");
    check_against_replay(&lines, &records);
    let distinct: HashSet<u64> = records
        .iter()
        .map(|r| r.position().expect("position").key())
        .collect();
    assert_eq!(distinct.len(), records.len(), "dedup: each position once");
    // Each game starts from its own random plies.
    let starts: HashSet<&str> = lines
        .iter()
        .map(|l| l["opening_moves"].as_str().expect("opening"))
        .collect();
    assert_eq!(starts.len(), lines.len());

    // The folder holds a datagen: a second start is refused, pointing at resume.
    let (code, _, err) = runner(&["datagen", path(&cfg)]);
    assert_eq!(code, 2);
    assert!(err.contains("xq-runner resume"), "{err}");
}

fn wait_for_lines(file: &Path, n: usize) {
    let began = Instant::now();
    while began.elapsed() < Duration::from_secs(120) {
        let text = std::fs::read_to_string(file).unwrap_or_default();
        if text.lines().count() >= n {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("{} never reached {n} lines", file.display());
}

#[test]
fn a_killed_datagen_resumes_without_losing_or_doubling_a_game() {
    let folder = scratch("datagen-kill");
    let dir = folder.path();
    // The config asks for more; `--positions` sets the target, and the resume keeps it.
    let target = 1500;
    let cfg = config(
        dir,
        &format!("positions = 100000\nscore_limit = {SCORE_LIMIT}\nseed = 4"),
        "",
    );
    let mut child = Command::new(bin("xq-runner"))
        .args(["datagen", path(&cfg), "--positions", &target.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the datagen");
    let ledger_file = dir.join("out/datagen.jsonl");
    wait_for_lines(&ledger_file, 3);
    child.kill().expect("kill -9");
    let _ = child.wait();
    let before = std::fs::read_to_string(&ledger_file).expect("ledger");
    let complete = before
        .rfind('\n')
        .map_or("", |end| &before[..=end])
        .to_owned();
    let kept: u64 = ledger(dir)
        .iter()
        .map(|l| l["records"].as_u64().expect("n"))
        .sum();
    assert!(kept < target, "killed midway: {kept} positions");
    // As a kill between the two writes of a game leaves them: records no line counts
    // (half a record among them) and a torn line.
    let data = dir.join("out/positions.bin");
    let mut bytes = std::fs::read(&data).expect("data");
    bytes.extend_from_slice(&[7u8; RECORD_BYTES * 3 + 5]);
    std::fs::write(&data, bytes).expect("append");
    std::fs::write(&ledger_file, format!("{complete}{{\"game\":99,\"rec")).expect("tear");

    let (code, out, err) = runner(&["resume", path(&dir.join("out"))]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Resuming"), "{out}");
    let after = std::fs::read_to_string(&ledger_file).expect("ledger");
    assert!(
        after.starts_with(&complete),
        "the games done are kept as they were"
    );
    let lines = ledger(dir);
    let games: HashSet<u64> = lines
        .iter()
        .map(|l| l["game"].as_u64().expect("game"))
        .collect();
    assert_eq!(games.len(), lines.len(), "each game once");
    let sum: u64 = lines
        .iter()
        .map(|l| l["records"].as_u64().expect("n"))
        .sum();
    assert_eq!(sum, target);
    let len = std::fs::metadata(&data).expect("data").len();
    assert_eq!(len, (HEADER_BYTES + RECORD_BYTES * target as usize) as u64);
    let records = DataReader::read_all(&data).expect("a data file");
    check_against_replay(&lines, &records);
}

#[test]
fn bad_configs_are_refused_with_one_line() {
    let folder = scratch("datagen-bad");
    let dir = folder.path();
    let engine = bin("xq-engine").display().to_string();
    let second = format!("[[engine]]\nname = \"b\"\ncommand = [\"{engine}\"]\n");
    for (datagen, extra, expected) in [
        ("positions = 0", "", "datagen.toml:21: datagen.positions: must be at least 1"),
        (
            "positions = 10",
            second.as_str(),
            "datagen.toml:22: engine.1: datagen plays exactly one [[engine]] against itself; found 2",
        ),
        (
            "random_plies = 3",
            "",
            "datagen.toml:20: datagen.positions: missing: how many positions to write",
        ),
        ("positions = 10\ncolour = 1", "", "datagen.toml:22"),
    ] {
        let cfg = config(dir, datagen, extra);
        let (code, out, err) = runner(&["datagen", path(&cfg)]);
        assert_eq!(code, 2, "{expected}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with(&format!("error: {}", dir.join(expected).display())),
            "{err}"
        );
        assert!(!dir.join("out").exists(), "nothing written for {expected}");
    }
    let cfg = config(dir, "positions = 10", "");
    let text = std::fs::read_to_string(&cfg).expect("config");
    let no_table = text.replace("[datagen]\npositions = 10\n", "");
    std::fs::write(&cfg, no_table).expect("write");
    let (code, _, err) = runner(&["datagen", path(&cfg)]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        format!(
            "error: {}: datagen: missing: a [datagen] table with `positions` (see docs/nnue.md)",
            cfg.display()
        )
    );
    std::fs::write(&cfg, text.replace("nodes = 300", "tc = \"1+0.1\"")).expect("write");
    let (code, _, err) = runner(&["datagen", path(&cfg)]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(&format!(
            "error: {}:5: time: datagen searches at fixed nodes or depth",
            cfg.display()
        )),
        "{err}"
    );
    assert!(!dir.join("out").exists());
}
