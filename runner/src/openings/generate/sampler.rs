//! One candidate line: sampled ply by ply among the engine's best move and a few
//! random legal moves, weighted by their scores, then judged at the final depth.
//!
//! At every ply the engine searches the position to the probe depth `P` for its
//! best move `b` and its score. `K` other legal moves are drawn at random; each is
//! played and the position after it searched to depth `P - 1`, which scores the
//! move at the same depth as `b` (negated: the score is the opponent's). One of the
//! `K + 1` moves is then drawn with weight `2^(-(best - score) / T)`: equal moves
//! are equally likely, a move `T` units worse half as likely.
//!
//! Some moves are never played: one that repeats a position of the line, one that
//! undoes one of the side's earlier moves in the line (a piece going straight back
//! to where it came from), and, as the line's last move, a capture or a check, so
//! that no game starts in the middle of an exchange or in check.

use xq_core::board::{Move, Position};
use xq_core::movegen;
use xq_core::rules::Rules;

use super::analyst::Analyst;
use super::choice::{line_seed, pick_distinct, pick_weighted, uniform_in};
use super::{GenerateError, Settings};
use crate::openings::{Opening, SplitMix64};

/// The score given to a move that leaves the opponent without a legal move.
const WINNING_MOVE: i32 = 100_000;

/// What became of one candidate line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineOutcome {
    /// A playable line whose final position scores within the window.
    Balanced {
        /// The line, with its `depth` and `score` fields set.
        opening: Box<Opening>,
        /// The final score for the side to move.
        score: i32,
    },
    /// The final position scores outside the window.
    Unbalanced {
        /// The final score for the side to move.
        score: i32,
    },
    /// The final position has no legal move.
    GameOver,
    /// No move could be played (see the module documentation).
    DeadEnd,
}

/// Samples candidate line `index` of the run: the result depends only on the
/// settings, the index and the engine (every search starts from a new game).
///
/// # Errors
/// The engine failed or answered nonsense.
pub async fn sample_line(
    analyst: &mut Analyst,
    settings: &Settings,
    index: u64,
) -> Result<LineOutcome, GenerateError> {
    let mut rng = SplitMix64::new(line_seed(settings.seed, index));
    let length = uniform_in(&mut rng, settings.plies.min, settings.plies.max);
    let (start, mut moves) = match settings.starts.len() {
        0 => (Position::startpos(), Vec::new()),
        n => {
            let from = &settings.starts[rng.below(n as u64) as usize];
            let prefix = from.moves.len().min(length);
            (from.start.clone(), from.moves[..prefix].to_vec())
        }
    };
    let mut position = start.clone();
    let mut seen = vec![position.key()];
    for &m in &moves {
        position.make_move(m);
        seen.push(position.key());
    }
    while moves.len() < length {
        let last = moves.len() + 1 == length;
        let chosen = choose_move(analyst, settings, &mut rng, &start, &moves, &seen, last).await?;
        let Some(m) = chosen else {
            return Ok(LineOutcome::DeadEnd);
        };
        position.make_move(m);
        seen.push(position.key());
        moves.push(m);
    }
    // Every move was legal where it was played (the prefix was checked on load).
    let mut opening = Opening::from_parts(start, moves, position);
    if opening.game_over(Rules::default()).is_some() {
        return Ok(LineOutcome::GameOver);
    }
    let judged = analyst
        .search(&opening.start, &opening.moves, settings.depth)
        .await?;
    if judged.score.unsigned_abs() > settings.max_score {
        return Ok(LineOutcome::Unbalanced {
            score: judged.score,
        });
    }
    opening
        .fields
        .insert("score".to_owned(), judged.score.to_string());
    opening
        .fields
        .insert("depth".to_owned(), judged.depth.to_string());
    Ok(LineOutcome::Balanced {
        opening: Box::new(opening),
        score: judged.score,
    })
}

/// The next move of a line (`last`: its final move), or `None` when no legal
/// move may be played.
async fn choose_move(
    analyst: &mut Analyst,
    settings: &Settings,
    rng: &mut SplitMix64,
    start: &Position,
    moves: &[Move],
    seen: &[u64],
    last: bool,
) -> Result<Option<Move>, GenerateError> {
    let mut position = start.clone();
    for &m in moves {
        position.make_move(m);
    }
    // The mover's earlier moves: every other one, back from the one before last.
    let own: Vec<Move> = moves.iter().rev().skip(1).step_by(2).copied().collect();
    let playable: Vec<Move> = movegen::legal_moves(&position)
        .iter()
        .copied()
        .filter(|&m| may_play(&position, m, &own, seen, last))
        .collect();
    if playable.is_empty() {
        return Ok(None);
    }
    let best = analyst.search(start, moves, settings.probe_depth).await?;
    let mut candidates = Vec::with_capacity(settings.candidates + 1);
    let mut values = Vec::with_capacity(settings.candidates + 1);
    if playable.contains(&best.best) {
        candidates.push(best.best);
        values.push(best.score);
    }
    let others: Vec<Move> = playable
        .iter()
        .copied()
        .filter(|&m| m != best.best)
        .collect();
    let mut line = moves.to_vec();
    for m in pick_distinct(rng, &others, settings.candidates) {
        let mut after = position.clone();
        after.make_move(m);
        let value = if movegen::has_legal_move(&after) {
            line.push(m);
            let reply = analyst
                .search(start, &line, settings.probe_depth.saturating_sub(1).max(1))
                .await?;
            line.pop();
            -reply.score
        } else {
            WINNING_MOVE
        };
        candidates.push(m);
        values.push(value);
    }
    let pick = pick_weighted(rng, &values, settings.temperature.into());
    Ok(pick.map(|i| candidates[i]))
}

/// Whether the sampler may play legal move `m` in `position` (see the module
/// documentation); `own` are the mover's earlier moves in the line, `seen` the
/// keys of the line's positions so far.
fn may_play(position: &Position, m: Move, own: &[Move], seen: &[u64], last: bool) -> bool {
    let takes_back = own.iter().any(|p| p.from() == m.to() && p.to() == m.from());
    let loud = last && (position.piece_at(m.to()).is_some() || movegen::gives_check(position, m));
    !takes_back && !loud && !seen.contains(&position.key_after(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(text: &str) -> Move {
        Move::parse(text).expect("move")
    }

    #[test]
    fn repeats_takebacks_and_loud_last_moves_are_not_played() {
        let mut position = Position::startpos();
        let mut seen = vec![position.key()];
        for m in ["h0g2", "h9g7"] {
            position.make_move(mv(m));
            seen.push(position.key());
        }
        let own = [mv("h0g2"), mv("b0c2")];
        assert!(
            !may_play(&position, mv("g2h0"), &own, &seen, false),
            "takes back"
        );
        assert!(may_play(&position, mv("g2h0"), &[], &[], false));
        assert!(may_play(&position, mv("b2e2"), &own, &seen, true), "quiet");
        assert!(may_play(&position, mv("b2b9"), &own, &seen, false));
        assert!(
            !may_play(&position, mv("b2b9"), &own, &seen, true),
            "a capture"
        );
        // The rook to d0 checks the king on d9.
        let rooks = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w").expect("fen");
        assert!(may_play(&rooks, mv("a0d0"), &[], &[], false));
        assert!(!may_play(&rooks, mv("a0d0"), &[], &[], true), "a check");
        assert!(may_play(&rooks, mv("a0b0"), &[], &[], true));
        // A move back into a position already on the line.
        let mut back = Position::startpos();
        let mut keys = vec![back.key()];
        for m in ["h0g2", "h9g7", "g2h0"] {
            back.make_move(mv(m));
            keys.push(back.key());
        }
        assert!(
            !may_play(&back, mv("g7h9"), &[], &keys, false),
            "repeats the start"
        );
    }
}
