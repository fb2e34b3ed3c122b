//! Chase detection: which enemy pieces a move newly threatens, per chase rule.
//!
//! The result of a move is a [`BitBoard`] of target squares in the position AFTER the
//! move. A chase can only matter inside a repetition, and a capture can never be part
//! of one, so captures chase nothing here (and cost nothing).
//!
//! - [`ChaseRule::Axf`] (module `axf`): the set of enemy pieces the mover could win by
//!   capture after the move minus the set it could win before it. "Could win" is
//!   [`threatened`]: a legal capture by a rook, horse, cannon, advisor or elephant (never
//!   the king or a pawn) of a piece other than the king and an uncrossed pawn, which
//!   the owner cannot legally recapture; a horse or cannon on a rook, and an advisor or
//!   elephant on a rook, horse or cannon, count even when the target is protected; a
//!   piece of the attacker's own kind that can legally capture back is an offer to
//!   exchange, not a threat. Taking the difference of whole sets makes attacks
//!   discovered by moving a screen or a blocker count, and so does cutting off the
//!   target's last protector.
//! - [`ChaseRule::League`] (module `league`): the xqbase computer league's definition,
//!   the moved piece only, see there.

mod axf;
mod league;

use crate::board::{BitBoard, Color, Move, PieceKind, Position, Square};
use crate::movegen::tables::{ADVISOR_STEPS, HORSE_ATTACKERS, KING_STEPS, PAWN_ATTACKERS};
use crate::movegen::{cannon_moves, elephant_attacks, king_attackers, rook_attacks, Attackers};

use super::ChaseRule;

/// The enemy pieces newly chased by `m`, as squares after the move.
///
/// `before` is the position in which `m` was played (a legal move) and `after` the
/// position it produced. Captures return the empty set (they never lie inside a
/// repetition cycle).
#[must_use]
pub fn new_chases(before: &Position, after: &Position, m: Move, rule: ChaseRule) -> BitBoard {
    if before.piece_at(m.to()).is_some() {
        return BitBoard::EMPTY;
    }
    match rule {
        ChaseRule::Axf => {
            let mover = before.side_to_move();
            let now = axf::threats(after, mover, BitBoard::FULL);
            if now.is_empty() {
                return now;
            }
            now & !axf::threats(before, mover, now)
        }
        ChaseRule::League => league::chases(after, m),
        ChaseRule::None => BitBoard::EMPTY,
    }
}

/// The pieces of `attacker`'s opponent that `attacker` threatens to win in `pos` under
/// the AXF definition (see the module documentation), whoever is to move.
#[must_use]
pub fn threatened(pos: &Position, attacker: Color) -> BitBoard {
    axf::threats(pos, attacker, BitBoard::FULL)
}

/// Whether the capture from `from` to `to` by `color` exposes its king to an attack it
/// was not under before: legality that ignores a check `color` is already in. A threat
/// is judged as if the threatening side were to move with no check to answer, so that
/// stepping out of check does not "create" the attacks its other pieces already had.
#[inline]
pub(crate) fn capture_exposes_king(pos: &Position, color: Color, from: Square, to: Square) -> bool {
    let after = king_attackers_after_capture(pos, color, from, to);
    if after.is_empty() {
        return false;
    }
    if pos.pieces_of(color, PieceKind::King).has(from) {
        return true;
    }
    let before = king_attackers(pos.king(color), pos.occupied(), &Attackers::of(pos, !color));
    (after & !before).any()
}

/// The enemy pieces attacking `color`'s king after its piece on `from` takes on `to`.
#[inline]
fn king_attackers_after_capture(
    pos: &Position,
    color: Color,
    from: Square,
    to: Square,
) -> BitBoard {
    let king = if pos.pieces_of(color, PieceKind::King).has(from) {
        to
    } else {
        pos.king(color)
    };
    let occ = pos.occupied().without(from).with(to);
    let enemy = Attackers::of(pos, !color).without(BitBoard::from_square(to));
    king_attackers(king, occ, &enemy)
}

/// The pieces of `color` that attack `sq` with occupancy `occ` (pseudo-legally: pins
/// are not considered). Every kind counts, the king by its palace steps.
#[inline]
pub(crate) fn attackers_to(pos: &Position, color: Color, sq: Square, occ: BitBoard) -> BitBoard {
    let mut found = rook_attacks(sq, occ) & pos.pieces_of(color, PieceKind::Rook);
    found |= cannon_moves(sq, occ).1 & pos.pieces_of(color, PieceKind::Cannon);
    let horses = pos.pieces_of(color, PieceKind::Horse);
    if horses.any() {
        for step in &HORSE_ATTACKERS[sq.index()] {
            if !occ.has(step.block) {
                found |= step.targets & horses;
            }
        }
    }
    found |= PAWN_ATTACKERS[color.index()][sq.index()] & pos.pieces_of(color, PieceKind::Pawn);
    found |= elephant_attacks(sq, occ) & pos.pieces_of(color, PieceKind::Elephant);
    found |= ADVISOR_STEPS[sq.index()] & pos.pieces_of(color, PieceKind::Advisor);
    found |= KING_STEPS[sq.index()] & pos.pieces_of(color, PieceKind::King);
    found
}

/// Pawns of `color` that have not crossed the river (never a chase target).
#[inline]
pub(crate) fn uncrossed_pawns(pos: &Position, color: Color) -> BitBoard {
    pos.pieces_of(color, PieceKind::Pawn) & BitBoard::home_half(color)
}
