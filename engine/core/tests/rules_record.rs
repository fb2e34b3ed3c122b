//! The game record beyond single verdicts: banned moves, take-back, the judgement of a
//! whole move list, and agreement of the judge under colour flip and mirror.

use xq_core::board::{Move, Position};
use xq_core::movegen::legal_moves;
use xq_core::rules::{judge_game, GameRecord, GameResult, Reason, Rules, Ruleset};

fn mv(text: &str) -> Move {
    Move::parse(text).unwrap_or_else(|e| panic!("{e}"))
}

fn record(fen: &str, ruleset: Ruleset, moves: &str) -> GameRecord {
    let start = Position::from_fen(fen).unwrap_or_else(|e| panic!("{e}"));
    let mut record = GameRecord::new(start, Rules::new(ruleset));
    for text in moves.split_whitespace() {
        record.push(mv(text)).unwrap_or_else(|e| panic!("{e}"));
    }
    record
}

/// Black to move, in check from the rook on a9; Red checks on every move.
const CHECKING: &str = "R3k4/9/9/9/9/9/9/9/9/5K3 b";

#[test]
fn banned_moves_are_the_ones_that_complete_a_forbidden_perpetual() {
    // Plies 1..7: the start position (after Red's check) has come back once; Red's
    // a8a9 would bring it back a third time with Red checking throughout.
    let moves = "e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9";
    let asian = record(CHECKING, Ruleset::Asian, moves);
    assert_eq!(asian.banned_moves(), vec![mv("a8a9")]);
    // The league waits for the fourth occurrence: nothing is banned yet...
    let computer = record(CHECKING, Ruleset::Computer, moves);
    assert!(computer.banned_moves().is_empty());
    // ...until one more cycle.
    let longer = format!("{moves} a8a9 e9e8 a9a8 e8e9");
    let computer = record(CHECKING, Ruleset::Computer, &longer);
    assert_eq!(computer.banned_moves(), vec![mv("a8a9")]);
    // Black's moves are never banned: Black would win by the repetition.
    let black = record(CHECKING, Ruleset::Asian, "e9e8 a9a8 e8e9 a8a9 e9e8 a9a8");
    assert!(black.banned_moves().is_empty());
    // A plain repetition draws: nothing is banned.
    let quiet = record(
        "5k2r/9/9/9/9/9/9/9/9/R2K5 w",
        Ruleset::Asian,
        "a0a1 i9i8 a1a0 i8i9 a0a1 i9i8 a1a0",
    );
    assert!(quiet.banned_moves().is_empty());
}

#[test]
fn pop_restores_the_record_exactly() {
    let start = Position::startpos();
    let mut game = GameRecord::new(start.clone(), Rules::default());
    let mut seed = 7u64;
    let mut played = Vec::new();
    for _ in 0..60 {
        let legal = legal_moves(game.position());
        if legal.is_empty() {
            break;
        }
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let m = legal[(seed >> 33) as usize % legal.len()];
        let before = (
            game.position().clone(),
            game.history().to_vec(),
            game.verdict(),
        );
        game.push(m).unwrap_or_else(|e| panic!("{e}"));
        played.push(before);
    }
    while let Some((pos, history, verdict)) = played.pop() {
        assert!(game.pop().is_some());
        assert_eq!(game.position(), &pos);
        assert_eq!(game.history(), &history[..]);
        assert_eq!(game.verdict(), verdict);
    }
    assert_eq!(game.pop(), None);
    assert_eq!(game.position(), &start);
}

#[test]
fn illegal_moves_are_refused_and_leave_the_record_unchanged() {
    let mut game = GameRecord::new(Position::startpos(), Rules::default());
    // The rook on a0 is blocked by its own pawn on a3.
    let err = game
        .push(mv("a0a5"))
        .err()
        .unwrap_or_else(|| panic!("a0a5 accepted"));
    assert_eq!((err.mv, err.ply), (mv("a0a5"), 0));
    assert!(err.to_string().contains("a0a5"));
    assert_eq!(game.ply(), 0);
    game.push(mv("h2e2")).unwrap_or_else(|e| panic!("{e}"));
    let err = game
        .push(mv("e2e6"))
        .err()
        .unwrap_or_else(|| panic!("Red moved twice"));
    assert_eq!(err.ply, 1);
    assert_eq!(game.moves().collect::<Vec<_>>(), vec![mv("h2e2")]);
}

#[test]
fn judge_game_stops_at_the_first_verdict_and_counts_what_follows() {
    let start = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/5K3 w").unwrap_or_else(|e| panic!("{e}"));
    let moves: Vec<Move> = "a8a9 e9e8 a9a8 e8e9 a8a9 e9e8 a9a8 e8e9 a8a9 e9e8"
        .split_whitespace()
        .map(mv)
        .collect();
    let judged = judge_game(start.clone(), &moves, Rules::new(Ruleset::Asian))
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (
            judged.verdict.result,
            judged.verdict.reason,
            judged.verdict.ply,
            judged.moves_after_end
        ),
        (GameResult::BlackWins, Reason::PerpetualCheck, 8, 2)
    );
    // A move after the end is still checked for legality.
    let mut bad = moves.clone();
    bad.push(mv("a9a8"));
    bad.push(mv("a0a1"));
    let err = judge_game(start, &bad, Rules::new(Ruleset::Asian)).err();
    assert_eq!(err.map(|e| e.ply), Some(11));
}

#[test]
fn verdicts_are_symmetric_under_colour_flip_and_mirror() {
    // The same random games played on the flipped and the mirrored board get the same
    // verdict (with colours swapped for the flip).
    let mut seed = 99u64;
    for _ in 0..40 {
        let mut a = GameRecord::new(Position::startpos(), Rules::default());
        let mut flipped = GameRecord::new(Position::startpos().color_flipped(), Rules::default());
        let mut mirrored = GameRecord::new(Position::startpos().mirrored(), Rules::default());
        let mut loop_from = None;
        for ply in 0..200 {
            let v = a.verdict();
            let f = flipped.verdict();
            let m = mirrored.verdict();
            let swap = |r: GameResult| match r {
                GameResult::RedWins => GameResult::BlackWins,
                GameResult::BlackWins => GameResult::RedWins,
                other => other,
            };
            assert_eq!(
                (swap(f.result), f.reason, f.ply),
                (v.result, v.reason, v.ply)
            );
            assert_eq!(m, v);
            if v.is_final() {
                break;
            }
            let legal = legal_moves(a.position());
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            if loop_from.is_none() && (seed >> 40).is_multiple_of(50) {
                loop_from = Some(ply);
            }
            let history: Vec<Move> = a.moves().collect();
            let back = loop_from
                .and_then(|_| history.len().checked_sub(2))
                .map(|i| Move::new(history[i].to(), history[i].from()))
                .filter(|m| legal.contains(m));
            let m = back.unwrap_or(legal[(seed >> 33) as usize % legal.len()]);
            a.push(m).unwrap_or_else(|e| panic!("{e}"));
            flipped.push(m.flip()).unwrap_or_else(|e| panic!("{e}"));
            mirrored.push(m.mirror()).unwrap_or_else(|e| panic!("{e}"));
        }
    }
}
