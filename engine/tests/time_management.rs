//! Time management measured from outside: 300 searches in a row on two running clocks
//! of 1 s with 10 ms increments never exceed the time left. (Alone in its binary so no
//! other test competes for the CPU meanwhile.)

mod common;

use std::time::{Duration, Instant};

use common::{ucci, Engine};
use xq_engine::board::{Move, Position};
use xq_engine::movegen::is_legal;

const LONG: Duration = Duration::from_secs(30);

fn assert_legal(pos: &Position, best: Option<String>) -> Move {
    let text = best.expect("a move");
    let m = Move::parse(&text).expect("coordinate move");
    assert!(is_legal(pos, m), "{text} is not legal in {}", pos.to_fen());
    m
}

#[test]
fn never_exceeds_a_running_clock() {
    // Two clocks of 1 s with 10 ms increments, 300 searches in a row, measured from here.
    let mut engine = ucci();
    let mut clocks = [Duration::from_millis(1000); 2];
    let increment = Duration::from_millis(10);
    let mut pos = Position::startpos();
    let mut moves: Vec<String> = Vec::new();
    for search in 0..300 {
        let side = search % 2;
        let (own, opp) = (clocks[side], clocks[1 - side]);
        engine.send(&format!("position startpos moves {}", moves.join(" ")));
        let start = Instant::now();
        engine.send(&format!(
            "go time {} increment 10 opptime {} oppincrement 10",
            own.as_millis(),
            opp.as_millis()
        ));
        let lines = engine.expect_answer(LONG);
        let spent = start.elapsed();
        assert!(
            spent < own,
            "search {search} spent {spent:?} with {own:?} left"
        );
        clocks[side] = own - spent + increment;
        match Engine::best_move(&lines) {
            Some(text) => {
                let m = assert_legal(&pos, Some(text.clone()));
                pos.make_move(m);
                moves.push(text);
            }
            None => {
                pos = Position::startpos();
                moves.clear();
            }
        }
        if moves.len() >= 100 {
            pos = Position::startpos();
            moves.clear();
        }
    }
}
