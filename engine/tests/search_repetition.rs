//! The game before the root counts for repetitions: a check after which the opponent's
//! reply brings back a position for the third time (a perpetual check, lost under the
//! asian rules) is never played, however it looks without the history.
//!
//! Every perpetual-check loss of xq-engine against ElephantEye examined for issue 29 had
//! this shape: xq-engine checked, and ElephantEye's reply completed the repetition (the
//! runner's `banmoves` only bans moves that complete it themselves). The position below
//! makes that check the engine's first choice when the history is dropped (it sees a
//! mate after it at depth 2), so these tests fail if the `position ... moves` history
//! stops reaching the search's repetition window.

mod common;

use std::time::Duration;

use common::{ucci, Engine};
use xq_engine::board::Move;
use xq_engine::rules::{GameRecord, GameResult, Reason, Rules, Ruleset};

const LONG: Duration = Duration::from_secs(60);

/// Red: rooks a8 and b0, king f0; Black: king e9, rook g2, horse a1.
const FEN: &str = "4k4/R8/9/9/9/9/9/6r2/H8/1R3K3 w - - 0 1";
/// Red's rook checks on rank 9 and rank 8 as Black's king steps e9-e8-e9-e8.
const HISTORY: [&str; 6] = ["a8a9", "e9e8", "a9a8", "e8e9", "a8a9", "e9e8"];
/// The check after which `e8e9` is the third occurrence of the start position.
const LOSING_CHECK: &str = "a9a8";

fn moves(texts: &[&str]) -> Vec<Move> {
    texts
        .iter()
        .map(|t| Move::parse(t).expect("move"))
        .collect()
}

/// The premise, from the rules judge: after the history, the check and Black's only
/// sensible reply, Red has lost by perpetual check.
#[test]
fn the_check_loses_by_the_rules() {
    let mut game = GameRecord::from_fen(FEN, Rules::new(Ruleset::Asian)).expect("fen");
    for m in moves(&HISTORY) {
        game.push(m).expect("legal");
        assert!(!game.verdict().is_final());
    }
    game.push(moves(&[LOSING_CHECK])[0]).expect("legal");
    assert!(!game.verdict().is_final(), "the check itself is not judged");
    // Not banned either: `banmoves` names only moves that complete the cycle.
    game.pop();
    assert!(game.banned_moves().is_empty());
    game.push(moves(&[LOSING_CHECK])[0]).expect("legal");
    game.push(moves(&["e8e9"])[0]).expect("legal");
    let verdict = game.verdict();
    assert_eq!(
        (verdict.result, verdict.reason),
        (GameResult::BlackWins, Reason::PerpetualCheck)
    );
}

fn best_move(engine: &mut Engine, position: &str, depth: u32) -> String {
    engine.send(position);
    engine.send(&format!("go depth {depth}"));
    let lines = engine.expect("bestmove", LONG);
    Engine::best_move(&lines).unwrap_or_default()
}

#[test]
fn a_check_that_lets_the_opponent_complete_a_perpetual_is_not_played() {
    let position = format!("position fen {FEN} moves {}", HISTORY.join(" "));
    for depth in 1..=8 {
        // A fresh engine per depth: nothing learnt at another depth helps.
        let mut engine = ucci();
        let best = best_move(&mut engine, &position, depth);
        assert!(!best.is_empty(), "depth {depth}: no move");
        assert_ne!(best, LOSING_CHECK, "depth {depth}");
    }
}

#[test]
fn nor_after_the_cycle_was_searched_as_a_game_went_on() {
    // One session, one position per Red move as a GUI sends them, the table kept from
    // one search to the next: the history still decides at the last one.
    let mut engine = ucci();
    for plies in [0, 2, 4] {
        let position = if plies == 0 {
            format!("position fen {FEN}")
        } else {
            format!("position fen {FEN} moves {}", HISTORY[..plies].join(" "))
        };
        best_move(&mut engine, &position, 6);
    }
    let position = format!("position fen {FEN} moves {}", HISTORY.join(" "));
    for depth in [2, 4, 6] {
        assert_ne!(
            best_move(&mut engine, &position, depth),
            LOSING_CHECK,
            "depth {depth}"
        );
    }
}
