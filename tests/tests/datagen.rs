//! `xq-runner datagen` and `datagen pack` end to end with the real engine at a few
//! hundred nodes: every game is kept whole in the ledger (each engine move with its
//! score), a pack makes one chunk that decodes to the ledger's games, and the trainer
//! reads it with its filters; a datagen killed with SIGKILL resumes without losing or
//! doubling a game, and is packed in parts (stopped, then live) with no game twice;
//! pack refuses a running datagen, a chunk packed already and a folder past its bound;
//! bad configs are refused with one line and exit 2.

mod common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{bin, path, runner, scratch, workspace};
use serde_json::Value;
use xq_core::board::{Move, Position};
use xq_core::movegen::is_legal;
use xq_core::training::{
    read_chunk_file, read_manifest, training_positions, FilterCounts, Filters, Manifest,
    SearchScore, SelfPlayGame,
};

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

fn positions(lines: &[Value]) -> u64 {
    lines
        .iter()
        .map(|l| l["positions"].as_u64().expect("positions"))
        .sum()
}

/// Each line is a whole game: its moves replay from its start, each engine move has
/// its score (null where the engine gave none: a move forced at once, say), and the
/// positions it counts are its scored moves.
fn check_lines(lines: &[Value]) {
    for line in lines {
        let mut position =
            Position::from_fen(line["start_fen"].as_str().expect("fen")).expect("start FEN");
        let played = moves(line["moves"].as_str().expect("moves"));
        for m in moves(line["opening_moves"].as_str().expect("opening"))
            .into_iter()
            .chain(played.iter().copied())
        {
            assert!(is_legal(&position, m), "{m} in {}", position.to_fen());
            position.make_move(m);
        }
        let scores = line["scores"].as_array().expect("scores");
        assert_eq!(scores.len(), played.len(), "a score per engine move");
        let scored = scores.iter().filter(|s| s.is_string()).count();
        assert!(
            scored * 10 > played.len() * 9,
            "nearly every move scored: {line}"
        );
        assert_eq!(line["positions"].as_u64(), Some(scored as u64));
        assert!(
            line["bench"].as_u64().is_some(),
            "the engine's bench signature"
        );
    }
}

/// The games of a data folder's chunks, in the manifest's order.
fn packed_games(data: &Path) -> (Manifest, Vec<SelfPlayGame>) {
    let manifest = read_manifest(data).expect("a manifest");
    let mut games = Vec::new();
    for entry in &manifest.entries {
        let (header, chunk) = read_chunk_file(&data.join(&entry.file)).expect("a chunk");
        assert_eq!(header.games, entry.games);
        assert_eq!(header.positions, entry.positions);
        games.extend(chunk);
    }
    (manifest, games)
}

/// The chunks hold exactly the ledger's games, in its order, moves and scores alike.
fn assert_same_games(lines: &[Value], games: &[SelfPlayGame]) {
    assert_eq!(games.len(), lines.len(), "every game once");
    for (line, game) in lines.iter().zip(games) {
        assert_eq!(Some(game.index), line["game"].as_u64());
        let opening = moves(line["opening_moves"].as_str().expect("opening"));
        let played = moves(line["moves"].as_str().expect("moves"));
        let all: Vec<Move> = opening.iter().chain(&played).copied().collect();
        assert_eq!(game.moves.iter().map(|m| m.mv).collect::<Vec<_>>(), all);
        assert!(game.moves[..opening.len()]
            .iter()
            .all(|m| m.score.is_none()));
        for (m, score) in game.moves[opening.len()..]
            .iter()
            .zip(line["scores"].as_array().expect("scores"))
        {
            let expected = score.as_str().map(|text| {
                match text.strip_prefix('M').or(text.strip_prefix("-M")) {
                    Some(n) => {
                        let n: i32 = n.parse().expect("mate");
                        SearchScore::Mate(if text.starts_with('-') { -n } else { n })
                    }
                    None => SearchScore::Units(text.parse().expect("units")),
                }
            });
            assert_eq!(m.score, expected);
        }
        assert_eq!(game.ending, line["reason"].as_str().expect("reason"));
    }
}

fn nnue(args: &[&str]) -> (i32, String, String) {
    let output = Command::new(bin("xq-nnue"))
        .args(args)
        .output()
        .expect("xq-nnue runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn every_position_is_kept_packed_into_a_chunk_and_read_by_the_trainer() {
    let folder = scratch("datagen");
    let dir = folder.path();
    let cfg = config(
        dir,
        "positions = 400\nrandom_plies = 6\nscore_limit = 1500\nply_limit = 160\nseed = 9",
        "",
    );
    let (code, out, err) = runner(&["datagen", path(&cfg)]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Datagen finished"), "{out}");
    let lines = ledger(dir);
    check_lines(&lines);
    let total = positions(&lines);
    let last = lines.last().expect("a game")["positions"]
        .as_u64()
        .expect("n");
    assert!(
        total >= 400 && total - last < 400,
        "stops at the game that reaches 400: {total}"
    );
    let starts: HashSet<&str> = lines
        .iter()
        .map(|l| l["opening_moves"].as_str().expect("opening"))
        .collect();
    assert_eq!(starts.len(), lines.len(), "each game its own random plies");

    let data = dir.join("data");
    let (code, out, err) = runner(&[
        "datagen",
        "pack",
        path(&dir.join("out")),
        "--into",
        path(&data),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!("Packed {} games ({total} positions", lines.len())),
        "{out}"
    );
    let (manifest, games) = packed_games(&data);
    assert_eq!(manifest.entries.len(), 1);
    let row = &manifest.entries[0];
    assert_eq!((row.first_line, row.last_line), (1, lines.len() as u64));
    assert_eq!(
        (row.level.as_str(), row.limit.as_str(), row.seed),
        ("6", "nodes=300", 9)
    );
    assert_eq!(row.bench, lines[0]["bench"].as_u64());
    assert_same_games(&lines, &games);
    // Well under the 32 bytes a position of the older format, even on so few games.
    let bytes = std::fs::metadata(data.join(&row.file))
        .expect("chunk")
        .len();
    assert!(
        bytes * 8 < total * 32,
        "{bytes} bytes for {total} positions"
    );

    // Nothing new: nothing packed, the manifest as it was.
    let before = std::fs::read_to_string(data.join("manifest.tsv")).expect("manifest");
    let (code, out, _) = runner(&[
        "datagen",
        "pack",
        path(&dir.join("out")),
        "--into",
        path(&data),
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("Nothing to pack"), "{out}");
    assert_eq!(
        std::fs::read_to_string(data.join("manifest.tsv")).expect("manifest"),
        before
    );

    // The trainer reads the folder, keeping what the reader's filters keep.
    let mut kept = Vec::new();
    let mut counts = FilterCounts::default();
    for game in &games {
        training_positions(game, &Filters::default(), &mut kept, &mut counts).expect("replays");
    }
    let net = dir.join("net.nnue");
    let (code, out, err) = nnue(&[
        "train",
        "--data-dir",
        path(&data),
        "--out",
        path(&net),
        "--hidden",
        "16",
        "--epochs",
        "1",
        "--batch",
        "256",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!("1 chunks, {} games, ", lines.len()))
            && out.contains(&format!("kept {};", counts.kept)),
        "{out}"
    );
    assert!(counts.kept > 0 && counts.kept < total);
    assert!(net.is_file());

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
fn a_killed_datagen_resumes_without_losing_or_doubling_a_game_and_packs_in_parts() {
    let folder = scratch("datagen-kill");
    let dir = folder.path();
    let out_dir = dir.join("out");
    let data = dir.join("data");
    // The config asks for more; `--positions` sets the target, and the resume keeps it
    // (far more than the test plays: it stops the resume itself).
    let target = 1_000_000;
    let cfg = config(dir, "positions = 100000\nscore_limit = 1500\nseed = 4", "");
    let mut child = Command::new(bin("xq-runner"))
        .args(["datagen", path(&cfg), "--positions", &target.to_string()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the datagen");
    let ledger_file = out_dir.join("datagen.jsonl");
    wait_for_lines(&ledger_file, 3);
    child.kill().expect("kill -9");
    let _ = child.wait();
    let before = std::fs::read_to_string(&ledger_file).expect("ledger");
    let complete = before
        .rfind('\n')
        .map_or("", |end| &before[..=end])
        .to_owned();
    assert!(positions(&ledger(dir)) < target, "killed midway");
    // As a kill in the middle of a line leaves the ledger: a torn last line.
    std::fs::write(&ledger_file, format!("{complete}{{\"game\":99,\"pos")).expect("tear");

    // Stopped: packed up to its last whole line.
    let (code, out, err) = runner(&["datagen", "pack", path(&out_dir), "--into", path(&data)]);
    assert_eq!(code, 0, "{out}{err}");
    let first_part = complete.lines().count() as u64;
    assert!(
        out.contains(&format!("ledger lines 1..{first_part})")),
        "{out}"
    );

    // Resumed: refused while it runs, packed live, then packed once it is stopped.
    let mut resumed = Command::new(bin("xq-runner"))
        .args(["resume", path(&out_dir)])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("resume");
    wait_for_lines(&ledger_file, first_part as usize + 2);
    let (code, _, err) = runner(&["datagen", "pack", path(&out_dir), "--into", path(&data)]);
    assert_eq!(code, 2, "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("is in use by another xq-runner") && err.contains("--live"),
        "{err}"
    );
    let (code, out, err) = runner(&[
        "datagen",
        "pack",
        path(&out_dir),
        "--into",
        path(&data),
        "--live",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let live_part = out
        .split_once(&format!("ledger lines {}..", first_part + 1))
        .and_then(|(_, rest)| rest.split(')').next())
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or_else(|| panic!("the lines packed live: {out}"));
    wait_for_lines(&ledger_file, live_part + 2);
    let pid = nix::unistd::Pid::from_raw(i32::try_from(resumed.id()).expect("pid"));
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).expect("Ctrl-C");
    let status = resumed.wait().expect("the resume ends");
    assert_eq!(status.code(), Some(4), "interrupted");
    let (code, out, err) = runner(&["datagen", "pack", path(&out_dir), "--into", path(&data)]);
    assert_eq!(code, 0, "{out}{err}");

    let after = std::fs::read_to_string(&ledger_file).expect("ledger");
    assert!(
        after.starts_with(&complete),
        "the games done are kept as they were"
    );
    let lines = ledger(dir);
    check_lines(&lines);
    let games: HashSet<u64> = lines
        .iter()
        .map(|l| l["game"].as_u64().expect("game"))
        .collect();
    assert_eq!(games.len(), lines.len(), "each game once");
    // Three chunks, one after the other, holding every game of the ledger once.
    let (manifest, packed) = packed_games(&data);
    assert_eq!(manifest.entries.len(), 3, "{manifest:?}");
    for pair in manifest.entries.windows(2) {
        assert_eq!(pair[1].first_line, pair[0].last_line + 1);
    }
    assert_same_games(&lines, &packed);
}

#[test]
fn pack_refuses_no_datagen_a_folder_past_its_bound_repeated_games_and_a_chunk_packed_already() {
    let folder = scratch("datagen-pack");
    let dir = folder.path();
    let cfg = config(dir, "positions = 150\nseed = 2", "");
    let (code, out, err) = runner(&["datagen", path(&cfg)]);
    assert_eq!(code, 0, "{out}{err}");
    let out_dir = dir.join("out");

    let refused = |args: &[&str], expected: &str| {
        let (code, out, err) = runner(args);
        assert_eq!(code, 2, "{out}{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(expected), "{err}");
    };
    refused(
        &["datagen", "pack", path(dir), "--into", path(&dir.join("a"))],
        "holds no datagen (datagen-run.json is missing)",
    );
    // Past the bound: a folder that holds 2 MB already, bound 1 MB.
    let full = dir.join("full");
    std::fs::create_dir_all(&full).expect("dir");
    std::fs::File::create(full.join("other.bin"))
        .and_then(|f| f.set_len(2_000_000))
        .expect("filler");
    refused(
        &[
            "datagen",
            "pack",
            path(&out_dir),
            "--into",
            path(&full),
            "--max-mb",
            "1",
        ],
        "more than its bound of 1000000 (--max-mb): nothing packed",
    );
    assert!(!full.join("manifest.tsv").exists());

    // Another datagen of the same config plays the same games: refused as repeats.
    let a = dir.join("a");
    let (code, out, err) = runner(&["datagen", "pack", path(&out_dir), "--into", path(&a)]);
    assert_eq!(code, 0, "{out}{err}");
    let again = dir.join("again");
    let (code, out, err) = runner(&[
        "datagen",
        path(&cfg),
        "--out",
        path(&again),
        "--positions",
        "250",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    refused(
        &["datagen", "pack", path(&again), "--into", path(&a)],
        "played by the same engine build at the same settings in another datagen",
    );

    // The same games in another data folder, whose manifest names them by another
    // folder id: the same bytes, refused by their hash.
    let b = dir.join("b");
    std::fs::create_dir_all(&b).expect("dir");
    let manifest = read_manifest(&a).expect("manifest");
    let mut copied = manifest.clone();
    copied.entries[0].source = "feedfacefeedface".to_owned();
    std::fs::write(b.join("manifest.tsv"), copied.to_text()).expect("manifest");
    refused(
        &["datagen", "pack", path(&out_dir), "--into", path(&b)],
        &format!(
            "this chunk is packed already: {} in the manifest has the same SHA-256",
            manifest.entries[0].file
        ),
    );
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
        (
            "positions = 10\ndedup = true",
            "",
            "datagen.toml:22: datagen.dedup: datagen keeps every position now",
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

#[test]
fn a_ledger_planted_as_a_link_is_never_written_through() {
    let folder = scratch("datagen-planted");
    let dir = folder.path();
    let cfg = config(dir, "positions = 200\nseed = 5", "");
    let (code, stdout, stderr) = runner(&["datagen", path(&cfg)]);
    assert_eq!(code, 0, "{stdout}{stderr}");
    // The ledger moved out and a link to it planted in its place: a resume neither reads
    // nor appends through it.
    let out = dir.join("out");
    let moved = dir.join("elsewhere.jsonl");
    std::fs::rename(out.join("datagen.jsonl"), &moved).expect("move the ledger out");
    let before = std::fs::read(&moved).expect("ledger");
    std::os::unix::fs::symlink(&moved, out.join("datagen.jsonl")).expect("plant a link");
    let (code, stdout, stderr) = runner(&["resume", path(&out)]);
    assert_ne!(code, 0, "{stdout}{stderr}");
    assert!(stderr.contains("a symbolic link, not followed"), "{stderr}");
    assert_eq!(std::fs::read(&moved).expect("ledger"), before);
}
