//! A scripted UCI (Pikafish dialect) session through real pipes.

mod common;

use std::time::{Duration, Instant};

use common::Engine;
use xq_engine::board::{Move, Position};
use xq_engine::movegen::{is_legal, legal_moves};

const LONG: Duration = Duration::from_secs(30);

#[test]
fn uci_session() {
    let mut engine = Engine::start();
    engine.send("uci");
    let lines = engine.expect("uciok", LONG);
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Hash type spin")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name EvalLevel type spin")));
    engine.send("setoption name Hash value 32");
    engine.send("setoption name EvalLevel value 2");
    engine.send("setoption name Clear Hash");
    engine.send("ucinewgame");
    engine.send("isready");
    let lines = engine.expect("readyok", LONG);
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");

    engine.send("position startpos moves h2e2 h9g7 h0g2");
    engine.send("go depth 4");
    let lines = engine.expect("bestmove", LONG);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth 4 ") && l.contains(" score cp ")),
        "{lines:?}"
    );
    let mut pos = Position::startpos();
    for m in ["h2e2", "h9g7", "h0g2"] {
        pos.make_move(Move::parse(m).expect("move"));
    }
    let best = Move::parse(&Engine::best_move(&lines).expect("a move")).expect("coordinates");
    assert!(is_legal(&pos, best));

    engine.send("position startpos");
    let start = Instant::now();
    engine.send("go wtime 1000 btime 1000 winc 10 binc 10");
    engine.expect("bestmove", LONG);
    assert!(start.elapsed() < Duration::from_millis(1000));

    let start = Instant::now();
    engine.send("go movetime 200");
    engine.expect("bestmove", LONG);
    let spent = start.elapsed();
    assert!(
        spent >= Duration::from_millis(150) && spent < Duration::from_millis(400),
        "movetime 200 took {spent:?}"
    );

    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("stop");
    engine.expect("bestmove", LONG);

    // A `go` without limits runs until stopped, like `go infinite`: a command that
    // would wait for it is refused, and `stop` and `isready` are answered.
    engine.send("go");
    engine.send("position startpos moves h2e2");
    let lines = engine.expect("info string error", LONG);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "{lines:?}"
    );
    engine.send("stop");
    engine.expect("bestmove", LONG);
    engine.send("isready");
    engine.expect("readyok", LONG);

    // Mated: `bestmove (none)`; a mate in one is announced as `score mate 1`.
    engine.send("position fen R3k4/9/4R4/9/9/9/9/9/9/3K5 b");
    engine.send("go depth 3");
    let lines = engine.expect("bestmove", LONG);
    assert_eq!(lines.last().map(String::as_str), Some("bestmove (none)"));
    // Red king f0 guards f8/f9 (facing kings), the rook on d1 guards d8/d9: a0e0 mates,
    // and a0a8 stalemates, which in Xiangqi wins as well. Which of the two the engine
    // plays depends on what the timed search before left in its tables; either must end
    // the game at once.
    let fen = "4k4/9/9/9/9/9/9/9/3R5/R4K3 w";
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 3");
    let lines = engine.expect("bestmove", LONG);
    assert!(
        lines.iter().any(|l| l.contains("score mate 1")),
        "{lines:?}"
    );
    let best = Engine::best_move(&lines).expect("a move");
    let mut pos = Position::from_fen(fen).expect("fen");
    let m = Move::parse(&best).expect("coordinate move");
    assert!(is_legal(&pos, m), "{best}");
    pos.make_move(m);
    assert!(legal_moves(&pos).is_empty(), "{best} leaves Black a move");

    engine.send("setoption name Nonsense value 1");
    engine.expect("info string error", LONG);
    engine.send("go mate 3");
    engine.expect("info string error", LONG);
    engine.send("quit");
    assert!(engine.close_and_wait(Duration::from_secs(5)));
}
