//! Static exchange evaluation: what a move wins or loses on its destination once both
//! sides have captured there as long as it pays, each with its least valuable piece that
//! can legally capture.
//!
//! Xiangqi's exchanges are not chess's: taking a piece off a line can open a cannon's
//! screen or close one (a cannon needs exactly one piece between it and its target), a
//! horse is stopped by a piece on its leg and an elephant by one on its eye, kings may
//! not face each other on an open file, and a piece pinned to its king may not capture.
//! So after each capture the attackers of the square are found again from the occupancy
//! as it now is ([`attackers_to`]), and each candidate capture is tested for leaving its
//! own king attacked (pins, the flying general and a king capturing into an attack alike)
//! before it is taken. The least valuable attacker goes first (ties in the order of
//! [`EXCHANGE_ORDER`], then by square); each side may stop instead of capturing.

use crate::board::{BitBoard, Color, Move, PieceKind, Position, Square};
use crate::eval::psqt::material;
use crate::movegen::tables::{CHECK_RELEVANT, LINES_AND_LEGS};
use crate::movegen::{attackers_to, king_attackers, Attackers};

/// The order in which a side brings its attackers into an exchange: by material, the
/// cheaper first; the king last (it only captures when nothing recaptures).
pub const EXCHANGE_ORDER: [PieceKind; PieceKind::COUNT] = [
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Rook,
    PieceKind::King,
];

/// Exchanges longer than this are cut off (no square has more attackers).
const MAX_EXCHANGE: usize = 32;

/// The value of a piece in exchanges: its material, the king's above any exchange.
#[must_use]
#[inline]
pub fn exchange_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::King => 10_000,
        other => material(other),
    }
}

/// Whether `side`, with the pieces of `occ` on the board, may capture on `to` with its
/// piece on `from` without leaving its king attacked; the piece now on `to` (the
/// opponent's) is taken off. `changed` holds every square whose occupant changed in the
/// exchange so far (the move's squares and each capturer's square).
///
/// The king is looked at only when the capture could matter to it: a king's capture, a
/// capturer that leaves the file, rank or a horse leg of its king (a pin), or an exchange
/// that has touched a square from which the opponent could check that king (a check
/// given by an earlier capture, that this one must answer).
fn capture_is_legal(
    pos: &Position,
    side: Color,
    capture: (Square, PieceKind),
    to: Square,
    occ: BitBoard,
    changed: BitBoard,
) -> bool {
    let (from, kind) = capture;
    let home = pos.king(side);
    if kind != PieceKind::King
        && !LINES_AND_LEGS[home.index()].has(from)
        && (changed & CHECK_RELEVANT[(!side).index()][home.index()]).is_empty()
    {
        return true;
    }
    let after = occ.without(from).with(to);
    let king = if kind == PieceKind::King { to } else { home };
    // The opponent's pieces still on the board: in `occ`, not the one just taken on `to`
    // (their original squares are out of `occ` once they have captured).
    let theirs = pos.color_bb(!side) & after.without(to);
    let by = Attackers::of(pos, !side).without(!theirs);
    !king_attackers(king, after, &by).any()
}

/// The least valuable piece of `side` that can legally capture on `to`, with the board's
/// pieces `occ` (`changed` as for [`capture_is_legal`]): its square and kind.
#[inline(always)]
fn least_valuable_capture(
    pos: &Position,
    side: Color,
    to: Square,
    occ: BitBoard,
    changed: BitBoard,
) -> Option<(Square, PieceKind)> {
    let attackers = attackers_to(pos, to, side, occ);
    if attackers.is_empty() {
        return None;
    }
    for kind in EXCHANGE_ORDER {
        for from in attackers & pos.pieces_of(side, kind) {
            if capture_is_legal(pos, side, (from, kind), to, occ, changed) {
                return Some((from, kind));
            }
        }
    }
    None
}

/// The exchange's balance for the side to move after `m` (a legal move, a capture or
/// not): the victim's value, less what the exchange on `m`'s destination costs, each side
/// stopping when going on would lose.
#[must_use]
pub fn see(pos: &Position, m: Move) -> i32 {
    let (from, to) = (m.from(), m.to());
    let Some(mover) = pos.piece_at(from) else {
        return 0;
    };
    // `gain[d]`: the balance of the side that makes capture `d + 1` (the move is capture
    // 1), counted as if every capture were made; written before it is known whether that
    // capture can be made, and dropped when it cannot.
    let mut gain = [0i32; MAX_EXCHANGE];
    gain[0] = pos.piece_at(to).map_or(0, |p| exchange_value(p.kind()));
    let mut occ = pos.occupied().without(from).with(to);
    let mut changed = BitBoard::from_square(from).with(to);
    let mut on_square = exchange_value(mover.kind());
    let mut side = !mover.color();
    let mut depth = 0;
    while depth + 1 < MAX_EXCHANGE {
        depth += 1;
        gain[depth] = on_square - gain[depth - 1];
        let Some((attacker, kind)) = least_valuable_capture(pos, side, to, occ, changed) else {
            break;
        };
        occ = occ.without(attacker);
        changed = changed.with(attacker);
        on_square = exchange_value(kind);
        side = !side;
    }
    // The last entry is the answer that did not come (or need not be looked at).
    while depth > 1 {
        depth -= 1;
        gain[depth - 1] = -(-gain[depth - 1]).max(gain[depth]);
    }
    gain[0]
}

/// Whether the exchange after `m` gains at least `threshold`: `see(pos, m) >=
/// threshold`, found without playing the exchange out. Cheap answers first: a capture
/// whose victim is worth less than the threshold cannot reach it, one whose victim still
/// beats it after losing the mover is enough. Then the captures come as in [`see`] (the
/// same pieces in the same order), and it stops as soon as the side to capture can no
/// longer change the answer (Stockfish's `see_ge`): `balance` is what that side would
/// have to win back by capturing, and the exchange ends when its piece's value cannot
/// pay for it, or when it has no legal capture.
#[must_use]
#[inline]
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    let (from, to) = (m.from(), m.to());
    let victim = pos.piece_at(to).map_or(0, |p| exchange_value(p.kind()));
    if victim < threshold {
        return false;
    }
    let Some(mover) = pos.piece_at(from) else {
        return true;
    };
    // By how much the mover's side would fall short of the threshold should the opponent
    // take the mover and the exchange stop there.
    let mut balance = exchange_value(mover.kind()) - (victim - threshold);
    if balance <= 0 {
        return true;
    }
    let mut occ = pos.occupied().without(from).with(to);
    let mut side = !mover.color();
    let mut changed = BitBoard::from_square(from).with(to);
    // Whether the answer, as things stand, is yes: the side that moved last wins it.
    let mut holds = true;
    for _ in 1..MAX_EXCHANGE {
        let Some((attacker, kind)) = least_valuable_capture(pos, side, to, occ, changed) else {
            break;
        };
        holds = !holds;
        // `side` has captured: `balance` is now by how much `side` would fall short of its
        // goal should it lose this piece in turn and the exchange stop there; when it
        // would not, the answer stands.
        balance = exchange_value(kind) - balance;
        if balance < i32::from(holds) {
            break;
        }
        occ = occ.without(attacker);
        changed = changed.with(attacker);
        side = !side;
    }
    holds
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e:?}"))
    }

    fn mv(text: &str) -> Move {
        Move::parse(text).unwrap_or_else(|_| panic!("move {text}"))
    }

    const HORSE: i32 = material(PieceKind::Horse);
    const ROOK: i32 = material(PieceKind::Rook);

    #[test]
    fn a_defended_piece_taken_by_a_rook_loses_the_rook() {
        // Red's rook a0 takes the black horse on a5, which the black rook on a9 defends.
        let p = pos("r4k3/9/9/9/n8/9/9/9/9/R2K5 w - - 0 1");
        assert_eq!(see(&p, mv("a0a5")), HORSE - ROOK);
        assert!(!see_ge(&p, mv("a0a5"), 0));
        assert!(see_ge(&p, mv("a0a5"), HORSE - ROOK));
        // Undefended, it wins the horse.
        let p = pos("5k3/9/9/9/n8/9/9/9/9/R2K5 w - - 0 1");
        assert_eq!(see(&p, mv("a0a5")), HORSE);
    }

    #[test]
    fn a_cannon_recaptures_over_its_screen_and_not_once_the_screen_has_left() {
        // The black cannon on a9 sees a5 over its screen, the black horse on a7.
        let p = pos("c4k3/9/n8/9/r8/9/9/9/9/R2K5 w - - 0 1");
        // Rook takes rook: the cannon recaptures (the horse on a7 cannot reach a5).
        assert_eq!(see(&p, mv("a0a5")), ROOK - ROOK);
        // With a second piece on the file the cannon sees nothing.
        let p = pos("c4k3/n8/n8/9/r8/9/9/9/9/R2K5 w - - 0 1");
        assert_eq!(see(&p, mv("a0a5")), ROOK);
    }

    #[test]
    fn a_horse_with_a_blocked_leg_and_an_elephant_with_a_blocked_eye_do_not_recapture() {
        // The black horse on b7 defends a5 over its leg b6; the black elephant on c9
        // defends a7 over its eye b8.
        let p = pos("2b2k3/9/1n7/9/n8/9/9/9/9/R2K5 w - - 0 1");
        assert_eq!(see(&p, mv("a0a5")), HORSE - ROOK);
        let p = pos("2b2k3/9/1n7/1p7/n8/9/9/9/9/R2K5 w - - 0 1");
        assert_eq!(see(&p, mv("a0a5")), HORSE);
        let p = pos("2b2k3/9/n8/9/9/9/9/9/9/R2K5 w - - 0 1");
        assert_eq!(see(&p, mv("a0a7")), HORSE - ROOK);
        let p = pos("2b2k3/1P7/n8/9/9/9/9/9/9/R2K5 w - - 0 1");
        assert_eq!(see(&p, mv("a0a7")), HORSE);
    }

    #[test]
    fn a_pinned_defender_does_not_recapture() {
        // The black rook on d8 defends d5 down its file, but the red rook on a8 pins it
        // to its king on f8.
        let p = pos("9/R2r1k3/9/9/3n5/9/9/9/9/3RK4 w - - 0 1");
        assert_eq!(see(&p, mv("d0d5")), HORSE);
        let p = pos("9/3r1k3/9/9/3n5/9/9/9/9/3RK4 w - - 0 1");
        assert_eq!(see(&p, mv("d0d5")), HORSE - ROOK);
    }

    #[test]
    fn a_piece_between_the_kings_does_not_leave_their_file() {
        // The black rook on e6 would take back on d6, but the kings would then face.
        let p = pos("4k4/9/9/3nr4/9/9/9/9/9/3RK4 w - - 0 1");
        assert_eq!(see(&p, mv("d0d6")), HORSE);
        let p = pos("5k3/9/9/3nr4/9/9/9/9/9/3RK4 w - - 0 1");
        assert_eq!(see(&p, mv("d0d6")), HORSE - ROOK);
    }
}
