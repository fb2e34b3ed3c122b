//! The xqbase computer league's chase (ElephantEye `ChasedBy`, league rule text 5.4-5.7).
//!
//! - Only the piece just moved chases, and only by attacks it did not have along the
//!   line it moved on: a rook or cannon that moved along a file counts its attacks
//!   along the rank it reached, and the other way round (along its own line of travel
//!   a slider attacks the same piece before and after a non-capturing move); a horse
//!   counts every attack from its new point. No discovered attacks.
//! - The pairs: horse or cannon on a rook (always); rook on a horse or cannon; horse on
//!   a cannon; cannon on a horse; rook, horse or cannon on a crossed pawn. Every pair
//!   but the first needs the target unprotected. Same-kind attacks (offers to
//!   exchange) never count, advisors, elephants, kings and pawns never chase.
//! - "Protected" ignores pins and legality (rule 5.7: a protector that cannot leave
//!   still protects, an attacker that cannot leave still chases): some piece of the
//!   target's side attacks the target's point once the attacker has moved onto it.

use crate::board::{BitBoard, Move, PieceKind, Position, Square};
use crate::movegen::tables::RAYS;
use crate::movegen::{cannon_moves, horse_attacks, rook_attacks};

use super::{attackers_to, uncrossed_pawns};

/// The enemy pieces chased by the moved piece after the non-capturing move `m`.
pub(super) fn chases(after: &Position, m: Move) -> BitBoard {
    let sq = m.to();
    let Some(piece) = after.piece_at(sq) else {
        return BitBoard::EMPTY;
    };
    let (us, kind) = (piece.color(), piece.kind());
    let them = !us;
    let occ = after.occupied();
    let travel = if m.from().file() == sq.file() {
        RAYS[0][sq.index()] | RAYS[2][sq.index()]
    } else {
        RAYS[1][sq.index()] | RAYS[3][sq.index()]
    };
    let reach = match kind {
        PieceKind::Horse => horse_attacks(sq, occ),
        PieceKind::Cannon => cannon_moves(sq, occ).1 & !travel,
        PieceKind::Rook => rook_attacks(sq, occ) & !travel,
        _ => return BitBoard::EMPTY,
    };
    let targets = reach & after.color_bb(them) & !uncrossed_pawns(after, them);
    let mut found = BitBoard::EMPTY;
    for t in targets {
        let Some(victim) = after.piece_at(t).map(|p| p.kind()) else {
            continue;
        };
        let counted = match pair(kind, victim) {
            Pair::Always => true,
            Pair::IfUnprotected => !protected(after, sq, t),
            Pair::Never => false,
        };
        if counted {
            found = found.with(t);
        }
    }
    found
}

/// Whether an attacker/target pair can be a chase in the league rules.
enum Pair {
    Always,
    IfUnprotected,
    Never,
}

fn pair(attacker: PieceKind, victim: PieceKind) -> Pair {
    use PieceKind::{Cannon, Horse, Pawn, Rook};
    match (attacker, victim) {
        (Horse | Cannon, Rook) => Pair::Always,
        (Rook, Horse | Cannon | Pawn) | (Horse, Cannon | Pawn) | (Cannon, Horse | Pawn) => {
            Pair::IfUnprotected
        }
        _ => Pair::Never,
    }
}

/// Whether the target on `t` has a protector once the attacker from `a` stands on `t`.
fn protected(pos: &Position, a: Square, t: Square) -> bool {
    let Some(target) = pos.piece_at(t) else {
        return false;
    };
    attackers_to(pos, target.color(), t, pos.occupied().without(a))
        .without(t)
        .any()
}
