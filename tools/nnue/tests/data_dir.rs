//! The trainer's reading of game records: a data folder's chunks are all read with the
//! filters applied; a truncated, damaged (hash mismatch), foreign or missing chunk,
//! and a chunk the manifest does not list, is one note each and is skipped, never a
//! crash; with nothing left the command line says so and exits 2.

mod common;

use std::path::Path;
use std::process::Command;

use common::TempDir;
use xq_core::board::{Position, START_FEN};
use xq_core::movegen::legal_moves;
use xq_core::rng::SplitMix64;
use xq_core::training::{
    sha256_hex, training_positions, write_chunk, FilterCounts, Filters, GameMove, GameResult,
    Manifest, ManifestEntry, SearchScore, SelfPlayGame, MANIFEST_FILE,
};
use xq_nnue::sources::{read_sources, ReadOptions, Source};

/// Games of random moves, the first 8 plies unscored, the rest scored in units.
fn games(count: u64, seed: u64) -> Vec<SelfPlayGame> {
    let mut rng = SplitMix64::new(seed);
    (0..count)
        .map(|index| {
            let mut position = Position::startpos();
            let mut moves = Vec::new();
            for ply in 0..80 {
                let legal = legal_moves(&position);
                if legal.is_empty() {
                    break;
                }
                let mv = legal[rng.index(legal.len())];
                let score = (ply >= 8).then(|| SearchScore::Units(rng.below(3001) as i32 - 1500));
                moves.push(GameMove { mv, score });
                position.make_move(mv);
            }
            SelfPlayGame {
                index,
                start_fen: START_FEN.to_owned(),
                moves,
                red_result: GameResult::Draw,
                ending: "max_plies".to_owned(),
            }
        })
        .collect()
}

/// Writes a chunk of `games` as `name` and returns its manifest row.
fn chunk(dir: &Path, name: &str, games: &[SelfPlayGame]) -> ManifestEntry {
    let bytes = write_chunk(games).expect("a chunk");
    std::fs::write(dir.join(name), &bytes).expect("write");
    ManifestEntry {
        file: name.to_owned(),
        games: games.len() as u64,
        positions: games.iter().map(|g| g.searched() as u64).sum(),
        bench: None,
        commit: "-".to_owned(),
        level: "6".to_owned(),
        net: "-".to_owned(),
        limit: "nodes=300".to_owned(),
        random_plies: 8,
        seed: 1,
        source: "0123456789abcdef".to_owned(),
        first_line: 1,
        last_line: games.len() as u64,
        date: "2026-12-07".to_owned(),
        sha256: sha256_hex(&bytes),
    }
}

fn kept(games: &[SelfPlayGame]) -> u64 {
    let mut counts = FilterCounts::default();
    for game in games {
        training_positions(game, &Filters::default(), &mut Vec::new(), &mut counts)
            .expect("replays");
    }
    counts.kept
}

#[test]
fn every_good_chunk_is_read_and_each_bad_one_is_a_note() {
    let dir = TempDir::new("data-dir");
    let data = &dir.0;
    let (a, b, c) = (games(6, 1), games(5, 2), games(4, 3));
    let rows = vec![
        chunk(data, "a.xqg", &a),
        chunk(data, "b.xqg", &b),
        chunk(data, "cut.xqg", &c),
        chunk(data, "flipped.xqg", &c),
        chunk(data, "foreign.xqg", &c),
        chunk(data, "gone.xqg", &c),
    ];
    let manifest = Manifest { entries: rows };
    std::fs::write(data.join(MANIFEST_FILE), manifest.to_text()).expect("manifest");
    // Cut short, one bit flipped, something else under the name, deleted.
    let bytes = std::fs::read(data.join("cut.xqg")).expect("read");
    std::fs::write(data.join("cut.xqg"), &bytes[..bytes.len() / 2]).expect("cut");
    let mut flipped = bytes.clone();
    flipped[100] ^= 4;
    std::fs::write(data.join("flipped.xqg"), flipped).expect("flip");
    std::fs::write(data.join("foreign.xqg"), "XQNNDATA and more").expect("foreign");
    std::fs::remove_file(data.join("gone.xqg")).expect("remove");
    // A chunk file the manifest does not list.
    chunk(data, "stray.xqg", &c);

    let mut notes = Vec::new();
    let (dataset, report) = read_sources(
        &[Source::Dir(data.clone())],
        &ReadOptions::default(),
        &mut |n| notes.push(n),
    )
    .expect("reads");
    assert_eq!(report.chunks, 2);
    assert_eq!(report.games, 11);
    assert_eq!(dataset.len() as u64, kept(&a) + kept(&b));
    assert_eq!(report.counts.kept, dataset.len() as u64);
    let note = |name: &str| {
        let found: Vec<&String> = notes.iter().filter(|n| n.contains(name)).collect();
        assert_eq!(found.len(), 1, "{name}: {notes:?}");
        found[0].clone()
    };
    assert!(note("cut.xqg").contains(&format!("truncated: {} bytes", bytes.len() / 2)));
    assert!(note("flipped.xqg").contains("damaged: its SHA-256 is"));
    assert!(note("foreign.xqg").contains("not a game-record chunk"));
    assert!(note("gone.xqg").contains("cannot read"));
    assert!(note("stray.xqg").contains("not in manifest.tsv: skipped"));
    assert_eq!(notes.len(), 5, "{notes:?}");
    assert!(notes.iter().all(|n| !n.contains('\n')));

    // A chunk given as a file has no manifest: its own header's hash finds the damage.
    let damaged = data.join("damaged-alone.xqg");
    let mut alone = std::fs::read(data.join("a.xqg")).expect("read");
    let last = alone.len() - 1;
    alone[last] ^= 1;
    std::fs::write(&damaged, alone).expect("write");
    let mut notes = Vec::new();
    let (dataset, _) = read_sources(
        &[Source::File(damaged), Source::File(data.join("b.xqg"))],
        &ReadOptions::default(),
        &mut |n| notes.push(n),
    )
    .expect("reads");
    assert_eq!(dataset.len() as u64, kept(&b));
    assert_eq!(notes.len(), 1);
    assert!(notes[0].contains("damaged: the payload's SHA-256 does not match"));
}

#[test]
fn dedup_keeps_the_first_of_each_position_and_the_score_limit_is_the_readers() {
    let dir = TempDir::new("data-dedup");
    let once = games(3, 7);
    let rows = vec![
        chunk(&dir.0, "a.xqg", &once),
        chunk(&dir.0, "b.xqg", &once[..1]),
    ];
    std::fs::write(
        dir.path(MANIFEST_FILE),
        Manifest { entries: rows }.to_text(),
    )
    .expect("manifest");
    let source = [Source::Dir(dir.0.clone())];
    let (all, _) = read_sources(&source, &ReadOptions::default(), &mut |_| {}).expect("reads");
    let dedup = ReadOptions {
        dedup: true,
        ..ReadOptions::default()
    };
    let (once_each, report) = read_sources(&source, &dedup, &mut |_| {}).expect("reads");
    assert!(report.repeats >= kept(&once[..1]), "{}", report.repeats);
    assert_eq!(once_each.len() as u64 + report.repeats, all.len() as u64);
    let tight = ReadOptions {
        filters: Filters { score_limit: 100 },
        dedup: false,
    };
    let (few, report) = read_sources(&source, &tight, &mut |_| {}).expect("reads");
    assert!(few.len() < all.len() / 4, "{} of {}", few.len(), all.len());
    assert!(report.counts.beyond_limit > 0);
}

#[test]
fn the_command_line_notes_bad_chunks_trains_on_the_rest_and_refuses_nothing_left() {
    let dir = TempDir::new("data-cli");
    let good = games(8, 4);
    let mut rows = vec![
        chunk(&dir.0, "good.xqg", &good),
        chunk(&dir.0, "bad.xqg", &good[..2]),
    ];
    rows[1].sha256 = "0".repeat(64);
    std::fs::write(
        dir.path(MANIFEST_FILE),
        Manifest {
            entries: rows.clone(),
        }
        .to_text(),
    )
    .expect("manifest");
    let exe = env!("CARGO_BIN_EXE_xq-nnue");
    let net = dir.path("net.nnue");
    let output = Command::new(exe)
        .args(["train", "--data-dir"])
        .arg(&dir.0)
        .args(["--hidden", "16", "--epochs", "1", "--batch", "64", "--out"])
        .arg(&net)
        .output()
        .expect("runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert_eq!(output.status.code(), Some(0), "{stdout}{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("note: ") && stderr.contains("bad.xqg: damaged"),
        "{stderr}"
    );
    assert!(stdout.contains("1 chunks, 8 games, "), "{stdout}");
    assert!(
        stdout.contains(&format!("kept {};", kept(&good))),
        "{stdout}"
    );
    assert!(net.is_file());

    // Nothing usable: one note, then the refusal, exit 2.
    std::fs::write(
        dir.path(MANIFEST_FILE),
        Manifest {
            entries: rows[1..].to_vec(),
        }
        .to_text(),
    )
    .expect("manifest");
    let output = Command::new(exe)
        .args(["train", "--data-dir"])
        .arg(&dir.0)
        .args(["--out"])
        .arg(&net)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    // good.xqg is listed no more: a note too.
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert!(
        lines[0].contains("good.xqg: not in manifest.tsv"),
        "{stderr}"
    );
    assert!(lines[1].contains("bad.xqg: damaged"), "{stderr}");
    assert_eq!(
        lines[2], "error: no positions in the data files",
        "{stderr}"
    );

    // A manifest that is not one stops the load with its line.
    std::fs::write(dir.path(MANIFEST_FILE), "file\tgames\n").expect("manifest");
    let output = Command::new(exe)
        .args(["train", "--data-dir"])
        .arg(&dir.0)
        .args(["--out"])
        .arg(&net)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.starts_with(&format!(
            "error: {}: line 1: not the header row of a manifest",
            dir.path(MANIFEST_FILE).display()
        )),
        "{stderr}"
    );
}
