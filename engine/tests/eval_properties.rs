//! Properties of the evaluation over positions from seeded random games (captures
//! preferred now and then, so material comes off and endgames appear):
//! - at every level, `evaluate` is exactly antisymmetric under colour flipping (board
//!   turned top-bottom, colours and side to move swapped) and exactly symmetric under the
//!   left-right mirror; so is every single term of the breakdown;
//! - the breakdown adds up: level L is level L-1 plus the terms of level L;
//! - the incremental material and placement sums equal a from-scratch sum after random
//!   move sequences played and taken back with make/unmake.

use xq_engine::board::{Color, Move, Position, Square};
use xq_engine::eval::{psqt, Evaluator, Term, MAX_LEVEL};
use xq_engine::movegen::{legal_captures, legal_moves};
use xq_engine::rng::SplitMix64;

/// A random legal move, a capture with probability 1 / `capture_odds` when there is one.
fn pick(pos: &Position, rng: &mut SplitMix64, capture_odds: usize) -> Option<Move> {
    let moves = legal_moves(pos);
    if moves.is_empty() {
        return None;
    }
    let captures = legal_captures(pos);
    Some(if !captures.is_empty() && rng.index(capture_odds) == 0 {
        captures[rng.index(captures.len())]
    } else {
        moves[rng.index(moves.len())]
    })
}

/// Positions along seeded random games, every ply kept.
fn random_positions(seed: u64, games: usize, max_plies: usize) -> Vec<Position> {
    let mut rng = SplitMix64::new(seed);
    let mut out = Vec::new();
    for game in 0..games {
        let mut pos = Position::startpos();
        // Alternate how eagerly captures are taken: some games keep material long,
        // others reach bare endgames.
        let capture_odds = 1 + game % 4;
        for _ in 0..max_plies {
            out.push(pos.clone());
            let Some(m) = pick(&pos, &mut rng, capture_odds) else {
                break;
            };
            pos.make_move(m);
        }
    }
    out
}

fn positions() -> Vec<Position> {
    let mut all = random_positions(0x5eed_e7a1, 40, 160);
    for fen in xq_engine::bench::POSITIONS {
        all.push(Position::from_fen(fen).expect("bench fen"));
    }
    all
}

#[test]
fn enough_varied_positions() {
    let all = positions();
    assert!(all.len() >= 5000, "{} positions", all.len());
    let endgames = all
        .iter()
        .filter(|p| {
            let ctx = xq_engine::eval::context::EvalContext::new(p);
            ctx.phase_material <= 32
        })
        .count();
    assert!(endgames >= 500, "{endgames} endgame positions");
}

#[test]
fn every_level_is_antisymmetric_and_mirror_symmetric() {
    for pos in positions() {
        let flipped = pos.color_flipped();
        let mirrored = pos.mirrored();
        for level in 0..=MAX_LEVEL {
            let eval = Evaluator::new(level);
            let score = eval.evaluate(&pos);
            assert_eq!(
                score,
                eval.evaluate(&flipped),
                "level {level} colour flip {pos:?}"
            );
            assert_eq!(
                score,
                eval.evaluate(&mirrored),
                "level {level} mirror {pos:?}"
            );
        }
    }
}

#[test]
fn every_term_is_antisymmetric_and_mirror_symmetric() {
    let mut fired = [0usize; Term::COUNT];
    for pos in positions() {
        let here = Evaluator::breakdown(&pos).scores;
        let flipped = Evaluator::breakdown(&pos.color_flipped()).scores;
        let mirrored = Evaluator::breakdown(&pos.mirrored()).scores;
        for term in Term::ALL {
            for color in Color::ALL {
                let value = here.get(term, color);
                if value != 0 {
                    fired[term.index()] += 1;
                }
                assert_eq!(
                    value,
                    flipped.get(term, !color),
                    "{} colour flip {pos:?}",
                    term.name()
                );
                assert_eq!(
                    value,
                    mirrored.get(term, color),
                    "{} mirror {pos:?}",
                    term.name()
                );
            }
        }
    }
    // Every term fires somewhere in the sample, so the symmetry checks are not vacuous.
    for term in Term::ALL {
        assert!(
            fired[term.index()] > 0,
            "{} never fired in the sample",
            term.name()
        );
    }
}

#[test]
fn levels_add_only_their_own_terms() {
    for pos in positions().iter().step_by(3) {
        let breakdown = Evaluator::breakdown(pos);
        for level in 0..=MAX_LEVEL {
            assert_eq!(
                breakdown.at_level(level),
                Evaluator::new(level).evaluate(pos),
                "level {level} {pos:?}"
            );
        }
    }
}

/// Material and placement summed from scratch over the board.
fn from_scratch(pos: &Position) -> ([i32; 2], [i32; 2]) {
    let (mut material, mut placement) = ([0; 2], [0; 2]);
    for sq in Square::ALL {
        if let Some(piece) = pos.piece_at(sq) {
            material[piece.color().index()] += psqt::material(piece.kind());
            placement[piece.color().index()] += psqt::placement(piece, sq);
        }
    }
    (material, placement)
}

fn incremental(pos: &Position) -> ([i32; 2], [i32; 2]) {
    (
        [pos.material(Color::Red), pos.material(Color::Black)],
        [pos.placement(Color::Red), pos.placement(Color::Black)],
    )
}

#[test]
fn incremental_sums_match_a_fresh_count_through_make_and_unmake() {
    let mut rng = SplitMix64::new(0x1ac4_e3e7);
    let start = Position::startpos().with_values(&psqt::VALUES);
    for game in 0..60 {
        let mut pos = start.clone();
        let mut played = Vec::new();
        for _ in 0..200 {
            let Some(m) = pick(&pos, &mut rng, 1 + game % 3) else {
                break;
            };
            let undo = pos.make_move(m);
            played.push((m, undo));
            assert_eq!(incremental(&pos), from_scratch(&pos), "{pos:?}");
            // Now and then take a few moves back and replay others.
            if rng.index(8) == 0 {
                for _ in 0..rng.index(4).min(played.len()) {
                    let Some((m, undo)) = played.pop() else {
                        break;
                    };
                    pos.unmake_move(m, undo);
                    assert_eq!(incremental(&pos), from_scratch(&pos), "{pos:?}");
                }
            }
        }
        while let Some((m, undo)) = played.pop() {
            pos.unmake_move(m, undo);
        }
        assert_eq!(pos, start);
        assert_eq!(incremental(&pos), from_scratch(&pos));
    }
}
