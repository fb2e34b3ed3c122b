//! Level 3: protection and threat between pieces (`docs/evaluation.md`, P5, P6; seed 002 on
//! special patterns: 「我方不同兵种之间的保护评估；双方兵种之间的相互威胁评估」; seed 001:
//! 「當一個棋子收到對方棋子的攻擊時…應該減分」).
//!
//! P5: every protected rook, horse, cannon or crossed pawn earns a little. P6: the pieces
//! of the side to move that the enemy attacks cost a tenth of what they would lose; the
//! opponent's hanging pieces are left to the quiescence search, which sees them anyway.

use super::context::SideMaps;
use super::geometry::enemy_half;
use super::psqt::MATERIAL;
use super::weights::{PROTECTED_PIECE, THREAT_DIVISOR};
use crate::board::{BitBoard, Color, PieceKind, Position};

/// Attacker kinds from the cheapest, with the value used to compare (the king last: it
/// can only take an unprotected piece).
const ATTACKERS_BY_VALUE: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Rook,
    PieceKind::King,
];

/// The pieces a side keeps protected: rooks, horses, cannons and crossed pawns.
fn protectable(pos: &Position, color: Color) -> BitBoard {
    pos.pieces_of(color, PieceKind::Rook)
        | pos.pieces_of(color, PieceKind::Horse)
        | pos.pieces_of(color, PieceKind::Cannon)
        | (pos.pieces_of(color, PieceKind::Pawn) & enemy_half(color))
}

/// P5: the protection bonus of one side.
#[must_use]
pub fn protection(pos: &Position, own: &SideMaps, color: Color) -> i32 {
    PROTECTED_PIECE * (protectable(pos, color) & own.all).count() as i32
}

/// The value a piece of `color` on `sq` would lose (a crossed pawn counts 100).
fn value_at(kind: PieceKind, crossed: bool) -> i32 {
    match kind {
        PieceKind::Pawn if crossed => 2 * MATERIAL[PieceKind::Pawn.index()],
        _ => MATERIAL[kind.index()],
    }
}

/// P6: the threat penalty of the side to move `color` (zero or negative): for each of its
/// pieces the enemy attacks, a tenth of the value if unprotected, else a tenth of what
/// the cheapest attacker would win in the exchange.
#[must_use]
pub fn threats(pos: &Position, own: &SideMaps, enemy: &SideMaps, color: Color) -> i32 {
    let attacked = pos.color_bb(color) & enemy.all & !pos.pieces_of(color, PieceKind::King);
    let mut penalty = 0;
    for sq in attacked {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let value = value_at(piece.kind(), enemy_half(color).has(sq));
        if !own.all.has(sq) {
            penalty += value / THREAT_DIVISOR;
            continue;
        }
        let cheapest = ATTACKERS_BY_VALUE
            .iter()
            .find(|&&kind| enemy.by_kind[kind.index()].has(sq))
            .map_or(i32::MAX, |&kind| match kind {
                PieceKind::King => i32::MAX,
                _ => MATERIAL[kind.index()],
            });
        if cheapest < value {
            penalty += (value - cheapest) / THREAT_DIVISOR;
        }
    }
    -penalty
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both(fen: &str) -> (Position, [SideMaps; 2]) {
        let pos = Position::from_fen(fen).expect("fen");
        let maps = super::super::context::both_maps(&pos);
        (pos, maps)
    }

    #[test]
    fn protected_pieces_earn_the_bonus() {
        // Rook a0 and horse a1: the horse is protected (the rook sees a1), the rook is
        // not (a horse on a1 does not reach a0).
        let (pos, [red, _]) = both("3k5/9/9/9/9/9/9/9/N8/R3K4 w");
        assert_eq!(protection(&pos, &red, Color::Red), 5);
    }

    #[test]
    fn hanging_and_underdefended_pieces_of_the_side_to_move() {
        // Red to move, Red rook on e5 attacked by the black horse d7 and unprotected:
        // -1000 / 10.
        let (pos, [red, black]) = both("3k5/9/3n5/9/4R4/9/9/9/9/3K5 w");
        assert_eq!(threats(&pos, &red, &black, Color::Red), -100);
        // Protected by a rook on e0 (Red king on d0): a horse attacker still wins
        // (1000 - 450) / 10.
        let (pos, [red, black]) = both("3k5/9/3n5/9/4R4/9/9/9/9/3KR4 w");
        assert_eq!(threats(&pos, &red, &black, Color::Red), -55);
        // A protected horse attacked by a rook costs nothing.
        let (pos, [red, black]) = both("3k5/9/9/9/r3N4/9/9/9/9/4RK3 w");
        assert_eq!(threats(&pos, &red, &black, Color::Red), 0);
    }
}
