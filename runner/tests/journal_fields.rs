//! The journal keeps what the PGN needs of each move (score, depth, time, nodes, nps,
//! selective depth) and still reads journals written before nodes, nps and seldepth
//! were recorded.

use xq_core::board::{Move, START_FEN};
use xq_runner::client::Score;
use xq_runner::game::{EndReason, Outcome, OverClock, PlayedGame, PlayedMove};
use xq_runner::store::journal::JournalEntry;

fn played(nodes: [Option<u64>; 2]) -> PlayedGame {
    let mv = |t: &str| Move::parse(t).unwrap_or_else(|e| panic!("{t}: {e}"));
    let one = |m: &str, n: Option<u64>| PlayedMove {
        mv: mv(m),
        time_ms: 50,
        score: Some(Score::Mate(-2)),
        depth: Some(7),
        nodes: n,
        nps: n.map(|n| n * 10),
        seldepth: n.map(|_| 11),
    };
    PlayedGame {
        red: "a".to_owned(),
        black: "b".to_owned(),
        start_fen: START_FEN.to_owned(),
        opening_moves: Vec::new(),
        moves: vec![one("h2e2", nodes[0]), one("h9g7", nodes[1])],
        outcome: Outcome::Draw,
        reason: EndReason::Repetition,
        faulted: None,
        detail: None,
        over_clock: [OverClock { moves: 2, ms: 70 }, OverClock::default()],
    }
}

#[test]
fn a_move_keeps_its_nodes_nps_and_seldepth_through_the_journal() {
    let game = played([Some(1000), None]);
    let entry = JournalEntry::new(0, 0, None, &game, 10);
    let line = serde_json::to_string(&entry).expect("json");
    let back: JournalEntry = serde_json::from_str(&line).expect("entry");
    assert_eq!(back.to_played(), Some(game));
}

#[test]
fn an_engine_that_never_says_adds_nothing_and_old_journals_still_load() {
    let game = played([None, None]);
    let line = serde_json::to_string(&JournalEntry::new(0, 0, None, &game, 10)).expect("json");
    for key in ["\"nodes\"", "\"nps\"", "\"seldepths\""] {
        assert!(!line.contains(key), "{key} in {line}");
    }
    let old = include_str!("data/report/match/games.jsonl")
        .lines()
        .next()
        .unwrap_or_default();
    let entry: JournalEntry = serde_json::from_str(old).expect("an old journal line");
    let back = entry.to_played().expect("moves");
    assert!(!back.moves.is_empty());
    assert!(back
        .moves
        .iter()
        .all(|m| m.nodes.is_none() && m.nps.is_none()));
}
