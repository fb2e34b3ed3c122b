//! Whether a move gives check: a cheap test for the moves far from the enemy king, and
//! the exact one (the king's attackers with the occupancy after the move) for those that
//! start or land near it or may uncover an attack. Used by the search (check extensions,
//! move ordering) and by the generator of quiet checks.

use super::attacks::{horse_attacks, king_attackers, Attackers};
use super::tables::{LINES_AND_LEGS, PAWN_STEPS, RAYS};
use crate::board::{BitBoard, Move, PieceKind, Position, Square};

/// Whether the legal move `m` gives check.
#[must_use]
#[inline]
pub fn gives_check(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let (from, to) = (m.from(), m.to());
    let king = pos.king(!us);
    // A move far from the enemy king can neither attack it nor open a line to it.
    let relevant = super::tables::CHECK_RELEVANT[us.index()][king.index()];
    // One branch on both tests (`|`, not `||`): the first alone was mispredicted often.
    if !(relevant.has(from) | relevant.has(to)) {
        return false;
    }
    checks_near_king(pos, from, to, king)
}

/// `gives_check` for a move that starts or ends near the enemy king. Kept out of line:
/// most moves are decided by the cheap test above, which then needs no stack frame.
#[inline(never)]
fn checks_near_king(pos: &Position, from: Square, to: Square, king: Square) -> bool {
    let us = pos.side_to_move();
    let Some(piece) = pos.piece_at(from) else {
        return false;
    };
    if !may_discover_check(pos, from, king) {
        return checks_from_off_line(pos, piece.kind(), to, king);
    }
    checks_after(pos, piece.kind(), from, to, king, Attackers::of(pos, us))
}

/// Whether our piece of `kind` moving `from` -> `to` attacks the enemy king on `king`,
/// or opens an attack of another piece on it; `ours` are our attacking pieces before
/// the move. The exact test, for moves that may uncover a check.
#[inline]
pub(super) fn checks_after(
    pos: &Position,
    kind: PieceKind,
    from: Square,
    to: Square,
    king: Square,
    mut ours: Attackers,
) -> bool {
    let moved = BitBoard::from_square(from) | BitBoard::from_square(to);
    match kind {
        PieceKind::Rook | PieceKind::King => ours.rook_like ^= moved,
        PieceKind::Cannon => ours.cannons ^= moved,
        PieceKind::Horse => ours.horses ^= moved,
        PieceKind::Pawn => ours.pawns ^= moved,
        PieceKind::Advisor | PieceKind::Elephant => {}
    }
    let occ = pos.occupied().without(from).with(to);
    king_attackers(king, occ, &ours).any()
}

/// Whether a piece leaving `from` may open an attack on the enemy king on `king`: it
/// stands on one of the king's lines with fewer than two pieces between them, or on a
/// horse leg of it. Any other piece can give check only by where it arrives.
#[inline]
pub(super) fn may_discover_check(pos: &Position, from: Square, king: Square) -> bool {
    LINES_AND_LEGS[king.index()].has(from) && !behind_two(pos, from, king)
}

/// Whether `from` is on a line of the king with at least two pieces between them. Its
/// piece is then neither the only piece in front of a rook nor one of the two in front
/// of a cannon, and no horse leg: leaving it opens no attack, as for a piece off the
/// lines, and sliding along the line it cannot pass the nearer pieces.
#[inline]
fn behind_two(pos: &Position, from: Square, king: Square) -> bool {
    direction(king, from).is_some_and(|dir| {
        let between = RAYS[dir][king.index()] ^ RAYS[dir][from.index()];
        (between & pos.occupied()).without(from).has_several()
    })
}

/// `gives_check` for a move whose start square is on no line and no horse leg of the
/// enemy king, or behind two pieces on a line: leaving it changes no attack, so only the
/// piece arriving on `to` can check, directly or by becoming the screen of one of our
/// cannons.
#[inline]
fn checks_from_off_line(pos: &Position, kind: PieceKind, to: Square, king: Square) -> bool {
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let direct = match kind {
        PieceKind::Horse => horse_attacks(to, occ).has(king),
        PieceKind::Pawn => PAWN_STEPS[us.index()][to.index()].has(king),
        PieceKind::Advisor
        | PieceKind::Elephant
        | PieceKind::Rook
        | PieceKind::Cannon
        | PieceKind::King => false,
    };
    if direct {
        return true;
    }
    let Some(dir) = direction(king, to) else {
        return false;
    };
    let between = RAYS[dir][king.index()] ^ RAYS[dir][to.index()] ^ BitBoard::from_square(to);
    // None or exactly one piece between, told without `count_ones` (a long sequence
    // without the popcnt feature).
    let pieces_between = between & occ;
    let none_between = pieces_between.is_empty();
    let one_between = pieces_between.any() && !pieces_between.has_several();
    match kind {
        PieceKind::Rook if none_between => return true,
        PieceKind::King if none_between && king.file() == to.file() => return true,
        PieceKind::Cannon if one_between => return true,
        _ => {}
    }
    // A piece landing on an empty point between the king and our cannon, alone there.
    if occ.has(to) || !none_between {
        return false;
    }
    let beyond = RAYS[dir][to.index()] & occ;
    let first = if dir < 2 {
        beyond.first()
    } else {
        beyond.last()
    };
    first.is_some_and(|sq| pos.pieces_of(us, PieceKind::Cannon).has(sq))
}

/// The ray direction (N, E, S, W as in the tables) from `from` towards `to` when they
/// share a file or a rank.
#[inline]
fn direction(from: Square, to: Square) -> Option<usize> {
    if from.file() == to.file() {
        Some(if to.rank() > from.rank() { 0 } else { 2 })
    } else if from.rank() == to.rank() {
        Some(if to.file() > from.file() { 1 } else { 3 })
    } else {
        None
    }
}
