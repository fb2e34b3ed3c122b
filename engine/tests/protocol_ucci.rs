//! A scripted UCCI session through real pipes: handshake, options, positions, every kind
//! of `go`, stop, ponder, banmoves, no-move answers, bad input, quit and end of input.

mod common;

use std::time::{Duration, Instant};

use common::{ucci, Engine};
use xq_engine::board::{Move, Position};
use xq_engine::movegen::is_legal;

const LONG: Duration = Duration::from_secs(30);

fn position_after(fen: Option<&str>, moves: &[&str]) -> Position {
    let mut pos = fen.map_or_else(Position::startpos, |f| Position::from_fen(f).expect("fen"));
    for m in moves {
        pos.make_move(Move::parse(m).expect("move"));
    }
    pos
}

fn assert_legal(pos: &Position, best: Option<String>) -> Move {
    let text = best.expect("a move");
    let m = Move::parse(&text).expect("coordinate move");
    assert!(is_legal(pos, m), "{text} is not legal in {}", pos.to_fen());
    m
}

#[test]
fn handshake_lists_the_options() {
    let mut engine = Engine::start();
    engine.send("ucci");
    let lines = engine.expect("ucciok", LONG);
    assert!(lines[0].starts_with("id name xq-engine"));
    for option in ["usemillisec", "hashsize", "evallevel", "newgame"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option {option} "))),
            "option {option} missing: {lines:?}"
        );
    }
    engine.send("isready");
    engine.expect("readyok", LONG);
    engine.send("quit");
    engine.expect("bye", LONG);
    assert!(
        engine.close_and_wait(Duration::from_secs(5)),
        "engine must exit after quit"
    );
}

#[test]
fn go_depth_nodes_and_options() {
    let mut engine = ucci();
    engine.send("setoption hashsize 32");
    engine.send("setoption evallevel 3");
    engine.send("setoption newgame");
    engine.send("position startpos moves h2e2 h9g7");
    engine.send("go depth 5");
    let lines = engine.expect("bestmove", LONG);
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 5 ")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("info depth 6 ")));
    assert_legal(
        &position_after(None, &["h2e2", "h9g7"]),
        Engine::best_move(&lines),
    );

    engine.send("go nodes 5000");
    let lines = engine.expect("bestmove", LONG);
    let totals = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info time "))
        .expect("totals line");
    let nodes: u64 = totals
        .split_whitespace()
        .nth(4)
        .and_then(|n| n.parse().ok())
        .expect("nodes");
    assert_eq!(nodes, 5000, "go nodes is honoured exactly");
    assert_legal(
        &position_after(None, &["h2e2", "h9g7"]),
        Engine::best_move(&lines),
    );
}

#[test]
fn clock_times_in_milliseconds_and_seconds() {
    let mut engine = ucci();
    engine.send("position startpos");
    let start = Instant::now();
    engine.send("go time 1000 increment 10 opptime 1000 oppincrement 10");
    engine.expect("bestmove", LONG);
    assert!(
        start.elapsed() < Duration::from_millis(1000),
        "spent {:?} of a 1 s clock",
        start.elapsed()
    );

    // Without usemillisec the unit is the second: 2 s left must not be read as 2 ms.
    let mut engine = Engine::start();
    engine.send("ucci");
    engine.expect("ucciok", LONG);
    engine.send("position startpos");
    let start = Instant::now();
    engine.send("go time 2 movestogo 1");
    engine.expect("bestmove", LONG);
    let spent = start.elapsed();
    assert!(
        spent > Duration::from_millis(300) && spent < Duration::from_millis(2000),
        "spent {spent:?}"
    );
}

#[test]
fn stop_ends_an_infinite_search_and_isready_answers_while_thinking() {
    let mut engine = ucci();
    engine.send("position startpos");
    engine.send("go depth infinite");
    std::thread::sleep(Duration::from_millis(200));
    ready_while_thinking(&mut engine, LONG);
    let lines = stop_promptly(&mut engine);
    assert_legal(&Position::startpos(), Engine::best_move(&lines));
}

/// Sends `isready` to a thinking engine: `readyok` comes within `within`, and no
/// `bestmove` before it.
fn ready_while_thinking(engine: &mut Engine, within: Duration) {
    engine.send("isready");
    let lines = engine.expect("readyok", within);
    assert!(
        !lines.iter().any(|l| l.starts_with("bestmove")),
        "the search answered early: {lines:?}"
    );
}

/// Sends `stop`; the lines up to the `bestmove`, which comes within half a second.
fn stop_promptly(engine: &mut Engine) -> Vec<String> {
    let start = Instant::now();
    engine.send("stop");
    let lines = engine.expect("bestmove", LONG);
    assert!(
        start.elapsed() < Duration::from_millis(500),
        "stop took {:?}",
        start.elapsed()
    );
    lines
}

/// Closes the input of an engine that has been thinking for a tenth of a second;
/// whether it exits within two seconds.
fn exits_when_input_closes(engine: &mut Engine) -> bool {
    std::thread::sleep(Duration::from_millis(100));
    engine.close_and_wait(Duration::from_secs(2))
}

#[test]
fn ponder_then_ponderhit() {
    let mut engine = ucci();
    engine.send("position startpos moves h2e2");
    engine.send("go ponder time 2000 increment 0");
    std::thread::sleep(Duration::from_millis(300));
    assert!(engine
        .drain(Duration::from_millis(50))
        .iter()
        .all(|l| !l.starts_with("bestmove")));
    engine.send("ponderhit");
    let lines = engine.expect("bestmove", Duration::from_secs(5));
    assert_legal(&position_after(None, &["h2e2"]), Engine::best_move(&lines));
}

#[test]
fn banmoves_are_respected() {
    // Red's rook on a0 can take the undefended black rook on a9; ban that capture.
    let fen = "r3k4/9/9/9/9/9/9/9/9/R2K5 w";
    let mut engine = ucci();
    engine.send(&format!("position fen {fen}"));
    engine.send("go depth 3");
    let lines = engine.expect("bestmove", LONG);
    assert_eq!(Engine::best_move(&lines).as_deref(), Some("a0a9"));
    engine.send(&format!("position fen {fen}"));
    engine.send("banmoves a0a9");
    engine.send("go depth 3");
    let lines = engine.expect("bestmove", LONG);
    let best = assert_legal(
        &Position::from_fen(fen).expect("fen"),
        Engine::best_move(&lines),
    );
    assert_ne!(best.to_string(), "a0a9");
}

#[test]
fn no_move_answers_nobestmove() {
    let mut engine = ucci();
    // Checkmate: Black's king on e9 is checked by the rook on e7, the rook on a9 covers
    // rank 9. Stalemate: Black's king on d9 is not in check but d8 and e9 are covered.
    for fen in [
        "R3k4/9/4R4/9/9/9/9/9/9/3K5 b",
        "3k5/4R4/9/9/9/9/9/9/9/4K4 b",
    ] {
        engine.send(&format!("position fen {fen}"));
        engine.send("go depth 4");
        let lines = engine.expect("nobestmove", LONG);
        assert_eq!(Engine::best_move(&lines), None, "{fen}");
    }
}

#[test]
fn bad_input_is_answered_and_survived() {
    let mut engine = ucci();
    let bad = [
        "fly to the moon",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABN w",
        "position fen 4k4/9/9/9/9/9/9/9/9/4K4 w",
        "position startpos moves h2e2 h2e2",
        "position startpos moves h2e9",
        "position sideways",
        "go depth abc",
        "go nodes -5",
        "go time",
        "go wtime 100",
        "setoption hashsize abc",
        "setoption hashsize 0",
        "setoption evallevel 9",
        "setoption nonsense 1",
        "banmoves zz99",
        &"x".repeat(10_000),
    ];
    for line in bad {
        engine.send(line);
        let lines = engine.expect("info string error", LONG);
        assert!(
            lines.last().is_some_and(|l| l.len() < 300),
            "error line too long"
        );
        engine.send("isready");
        engine.expect("readyok", LONG);
    }
    engine.send_bytes(b"\xff\xfe garbage \x00\r\n");
    engine.expect("info string error", LONG);
    // A rejected position command keeps the previous position.
    engine.send("position startpos moves h2e2");
    engine.send("position startpos moves h9g7");
    engine.expect("info string error", LONG);
    engine.send("go depth 2");
    let lines = engine.expect("bestmove", LONG);
    assert_legal(&position_after(None, &["h2e2"]), Engine::best_move(&lines));
    engine.send("quit");
    engine.expect("bye", LONG);
}

#[test]
fn end_of_input_ends_the_engine_even_while_thinking() {
    let mut engine = ucci();
    engine.send("position startpos");
    engine.send("go infinite");
    assert!(
        exits_when_input_closes(&mut engine),
        "engine must exit when stdin closes"
    );
}

#[test]
fn a_command_behind_a_long_search_waits_while_stop_isready_and_the_end_of_input_do_not() {
    let mut engine = ucci();
    engine.send("position startpos");
    engine.send("go depth 60");
    // It has to wait for that search, in order; the engine keeps answering meanwhile.
    engine.send("position startpos moves h2e2");
    ready_while_thinking(&mut engine, Duration::from_secs(2));
    let lines = stop_promptly(&mut engine);
    assert_legal(&Position::startpos(), Engine::best_move(&lines));
    // The held position was set after the search: Black is to move.
    engine.send("go depth 2");
    let lines = engine.expect("bestmove", LONG);
    assert_legal(&position_after(None, &["h2e2"]), Engine::best_move(&lines));

    engine.send("go depth 60");
    engine.send("position startpos");
    assert!(
        exits_when_input_closes(&mut engine),
        "engine must exit when stdin closes, even with a command held back"
    );
}

#[test]
fn clock_times_too_large_for_any_clock_are_survived() {
    let mut engine = ucci();
    // In seconds, 1e20 s is beyond what a duration holds.
    engine.send("setoption usemillisec false");
    engine.send("position startpos");
    engine.send("go time 99999999999999999999 increment 99999999999999999999");
    std::thread::sleep(Duration::from_millis(100));
    engine.send("stop");
    let lines = engine.expect("bestmove", LONG);
    assert_legal(&Position::startpos(), Engine::best_move(&lines));
    engine.send("isready");
    engine.expect("readyok", LONG);
}
