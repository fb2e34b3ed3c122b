//! Differential test against pyffish (Fairy-Stockfish's Xiangqi rules): over seeded
//! random games from `tests/oracle/movegen_oracle.py`, every position must have the same
//! legal moves, the same check status and the same FEN, and every game end the same
//! reason. Needs `pip install -r tests/oracle/requirements.txt` (CI does it); without
//! pyffish the test fails rather than passing silently.
//!
//! `XQ_PYFFISH_GAMES` sets the number of games (default 200; run thousands by hand).

use std::collections::BTreeSet;
use std::process::Command;

use serde_json::Value;
use xq_core::board::{Move, Position};
use xq_core::movegen::{in_check, legal_moves};

fn oracle_output(games: u32, seed: u32) -> String {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/oracle/movegen_oracle.py"
    );
    let output = Command::new("python3")
        .args([
            script,
            "--games",
            &games.to_string(),
            "--max-plies",
            "200",
            "--seed",
            &seed.to_string(),
        ])
        .arg("--no-history")
        .output()
        .expect("python3 must be installed to run the pyffish differential test");
    assert!(
        output.status.success(),
        "the pyffish oracle failed (is pyffish installed? pip install -r tests/oracle/requirements.txt):\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("oracle writes UTF-8")
}

fn text(v: &Value, key: &str) -> String {
    v[key]
        .as_str()
        .unwrap_or_else(|| panic!("`{key}` missing in {v}"))
        .to_owned()
}

#[test]
fn legal_moves_checks_and_game_ends_agree_with_pyffish() {
    let games: u32 = std::env::var("XQ_PYFFISH_GAMES")
        .ok()
        .and_then(|g| g.parse().ok())
        .unwrap_or(200);
    let out = oracle_output(games, 1);
    let (mut positions, mut ends, mut checks, mut no_move_ends) = (0, 0, 0, 0);
    let mut ours: Option<Position> = None;
    for (index, line) in out.lines().enumerate() {
        let v: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("oracle line {}: {e}", index + 1));
        match v["type"].as_str() {
            Some("ply") => {
                let fen = text(&v, "fen");
                if v["ply"] == 0 {
                    ours = Some(Position::from_fen(&text(&v, "start_fen")).expect("start FEN"));
                }
                let pos = ours.as_mut().expect("a game starts at ply 0");
                let theirs = Position::from_fen(&fen)
                    .unwrap_or_else(|e| panic!("pyffish FEN {fen} rejected: {e}"));
                assert_eq!(
                    pos.to_fen(),
                    theirs.to_fen(),
                    "positions diverged (game {})",
                    v["game"]
                );
                let expected: BTreeSet<String> = v["legal"]
                    .as_array()
                    .expect("legal list")
                    .iter()
                    .map(|m| m.as_str().expect("move").to_owned())
                    .collect();
                let got: BTreeSet<String> = legal_moves(pos).iter().map(Move::to_string).collect();
                assert_eq!(got, expected, "legal moves of {fen}");
                let check = v["in_check"].as_bool().expect("in_check");
                assert_eq!(in_check(pos), check, "check status of {fen}");
                checks += usize::from(check);
                positions += 1;
                if let Some(played) = v["played"].as_str() {
                    pos.make_move(Move::parse(played).expect("played move"));
                }
            }
            Some("end") => {
                let pos = ours.take().expect("an end follows a game");
                let reason = text(&v, "reason");
                let no_move = legal_moves(&pos).is_empty();
                match reason.as_str() {
                    "checkmate" => {
                        assert!(no_move && in_check(&pos), "checkmate in {}", pos.to_fen())
                    }
                    "stalemate" => {
                        assert!(no_move && !in_check(&pos), "stalemate in {}", pos.to_fen())
                    }
                    _ => assert!(!no_move, "{reason} but no move in {}", pos.to_fen()),
                }
                no_move_ends += usize::from(no_move);
                ends += 1;
            }
            other => panic!("oracle line {}: unknown type {other:?}", index + 1),
        }
    }
    assert_eq!(ends, games as usize, "every game ends");
    assert!(
        positions > 100 * games as usize / 2,
        "too few positions compared: {positions}"
    );
    assert!(
        checks > 0 && no_move_ends > 0,
        "the games must reach checks ({checks}) and mates ({no_move_ends})"
    );
    eprintln!("pyffish agreed on {positions} positions ({checks} in check) and {ends} game ends ({no_move_ends} without a move)");
}
