//! Perft: the number of leaf nodes of the legal move tree, to verify move generation.

use super::{count_legal, legal_moves};
use crate::board::{Move, Position};

/// Counts the leaves of the legal move tree of `depth` plies. The last ply is counted
/// without playing its moves (as Pikafish does); every other ply plays every move.
#[must_use]
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count_legal(pos) as u64,
        _ => {
            let mut nodes = 0;
            for &m in &legal_moves(pos) {
                let undo = pos.make_move(m);
                nodes += perft(pos, depth - 1);
                pos.unmake_move(m, undo);
            }
            nodes
        }
    }
}

/// Perft split by the first move: each legal move with the leaf count below it.
#[must_use]
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut out: Vec<(Move, u64)> = legal_moves(pos)
        .iter()
        .map(|&m| {
            let undo = pos.make_move(m);
            let nodes = perft(pos, depth - 1);
            pos.unmake_move(m, undo);
            (m, nodes)
        })
        .collect();
    out.sort_by_key(|(m, _)| m.to_string());
    out
}
