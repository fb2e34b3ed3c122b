//! The AXF chase threat: what a side could win by capture in a position.
//!
//! Rules (AXF numbers in brackets, program practice from Fairy-Stockfish and Pikafish):
//! - attackers are rooks, horses, cannons, advisors and elephants; the king and pawns
//!   never chase [28, 29];
//! - targets are all enemy pieces but the king (that is a check) and uncrossed pawns
//!   [25];
//! - the capture must not expose the attacker's king: a pinned attacker threatens only
//!   what it may legally take (in practice the pinning piece). A check the attacker is
//!   already in is ignored: the threats of a side are what it could take if it were to
//!   move with no check to answer, so a king stepping out of check creates none;
//! - a horse or cannon on a rook always threatens [15]; so does an advisor or elephant
//!   on a rook, horse or cannon (a clear gain of material, as both programs count it);
//! - otherwise the target must be unprotected: its owner has no legal recapture on its
//!   square after the capture (fully legal: a recapture that leaves its king in check
//!   does not protect);
//! - an unprotected piece of the attacker's own kind that can legally capture the
//!   attacker back is an offer to exchange, not a threat [24]; if it cannot (a horse
//!   with a blocked leg, a pinned piece) it is threatened.

use crate::board::{BitBoard, Color, PieceKind, Position, Square};
use crate::movegen::tables::ADVISOR_STEPS;
use crate::movegen::{
    cannon_moves, elephant_attacks, horse_attacks, king_attackers, rook_attacks, Attackers,
};

use super::{attackers_to, capture_exposes_king, uncrossed_pawns};

/// The kinds that can chase, with how each reaches its targets.
const CHASERS: [PieceKind; 5] = [
    PieceKind::Rook,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Advisor,
    PieceKind::Elephant,
];

/// The points a chasing piece of `kind` on `sq` could capture on (occupancy `occ`).
#[inline]
fn capture_reach(kind: PieceKind, sq: Square, occ: BitBoard) -> BitBoard {
    match kind {
        PieceKind::Rook => rook_attacks(sq, occ),
        PieceKind::Horse => horse_attacks(sq, occ),
        PieceKind::Cannon => cannon_moves(sq, occ).1,
        PieceKind::Advisor => ADVISOR_STEPS[sq.index()],
        PieceKind::Elephant => elephant_attacks(sq, occ),
        PieceKind::King | PieceKind::Pawn => BitBoard::EMPTY,
    }
}

/// The enemy pieces among `candidates` that `us` threatens to win in `pos`.
pub(super) fn threats(pos: &Position, us: Color, candidates: BitBoard) -> BitBoard {
    let them = !us;
    let targets = candidates
        & pos.color_bb(them)
        & !pos.pieces_of(them, PieceKind::King)
        & !uncrossed_pawns(pos, them);
    if targets.is_empty() {
        return BitBoard::EMPTY;
    }
    let occ = pos.occupied();
    let mut found = BitBoard::EMPTY;
    for kind in CHASERS {
        for from in pos.pieces_of(us, kind) {
            for to in capture_reach(kind, from, occ) & targets & !found {
                if wins(pos, us, kind, from, to) {
                    found = found.with(to);
                }
            }
        }
    }
    found
}

/// Whether capturing on `to` with the `kind` piece of `us` on `from` is a real threat.
#[inline]
fn wins(pos: &Position, us: Color, kind: PieceKind, from: Square, to: Square) -> bool {
    let Some(victim) = pos.piece_at(to).map(|p| p.kind()) else {
        return false;
    };
    if capture_exposes_king(pos, us, from, to) {
        return false;
    }
    let stronger = match kind {
        PieceKind::Horse | PieceKind::Cannon => victim == PieceKind::Rook,
        PieceKind::Advisor | PieceKind::Elephant => matches!(
            victim,
            PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon
        ),
        _ => false,
    };
    if stronger {
        return true;
    }
    if has_legal_recapture(pos, us, from, to) {
        return false;
    }
    !(victim == kind && can_capture_back(pos, !us, kind, to, from))
}

/// Whether, after `us` captures from `from` on `to`, the owner of the captured piece
/// can legally take back on `to`.
fn has_legal_recapture(pos: &Position, us: Color, from: Square, to: Square) -> bool {
    let them = !us;
    let occ = pos.occupied().without(from);
    let defenders = attackers_to(pos, them, to, occ).without(to);
    if defenders.is_empty() {
        return false;
    }
    let ours = Attackers::of(pos, us).without(BitBoard::from_square(from));
    let their_king = pos.king(them);
    defenders.iter().any(|d| {
        let king = if d == their_king { to } else { their_king };
        king_attackers(king, occ.without(d), &ours).is_empty()
    })
}

/// Whether the `kind` piece of `them` on `sq` can capture the piece on `target` without
/// exposing its king (an offer to exchange).
fn can_capture_back(
    pos: &Position,
    them: Color,
    kind: PieceKind,
    sq: Square,
    target: Square,
) -> bool {
    capture_reach(kind, sq, pos.occupied()).has(target)
        && !capture_exposes_king(pos, them, sq, target)
}
