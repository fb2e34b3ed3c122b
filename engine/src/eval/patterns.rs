//! Level 3: same-kind pairs that protect each other (`docs/evaluation.md`, P1..P4; seed 002
//! on special patterns): 「霸王车、连环马、担子炮、兄弟兵」 — rook pair, connected horses,
//! cannon pair, linked pawns. Seed 001: 「當兩個馬踏成連環馬時，威力比兩個單馬要大」.

use super::context::{few, SideMaps};
use super::geometry::{enemy_half, FILES};
use super::weights::{
    CANNON_PAIR, CONNECTED_HORSES_MUTUAL, CONNECTED_HORSES_ONE_WAY, LINKED_PAWNS, ROOK_PAIR,
};
use crate::board::{BitBoard, Color, PieceKind, Position, Square};

/// The two squares of a kind when the side has both pieces of it.
#[inline]
fn pair(set: BitBoard) -> Option<(Square, Square)> {
    if set.has_several() {
        set.first().zip(set.last())
    } else {
        None
    }
}

/// The pair bonuses of one side. With two pieces of a kind, the union of their attack
/// sets holds one of them exactly when the other attacks it (a piece never attacks its
/// own point), so the maps answer every test.
#[must_use]
pub fn score(pos: &Position, maps: &SideMaps, color: Color) -> i32 {
    let piece = |kind| pos.pieces_of(color, kind);
    let attacks = |kind: PieceKind| maps.by_kind[kind.index()];
    let mut bonus = 0;
    // P1 霸王车: nothing between two rooks on a line.
    if let Some((_, b)) = pair(piece(PieceKind::Rook)) {
        if attacks(PieceKind::Rook).has(b) {
            bonus += ROOK_PAIR;
        }
    }
    // P2 连环马: each horse reaches the other (legs free), or only one does.
    if let Some((a, b)) = pair(piece(PieceKind::Horse)) {
        let reach = attacks(PieceKind::Horse);
        bonus += match (reach.has(a), reach.has(b)) {
            (true, true) => CONNECTED_HORSES_MUTUAL,
            (false, false) => 0,
            _ => CONNECTED_HORSES_ONE_WAY,
        };
    }
    // P3 担子炮: one piece between, each protects the other.
    if let Some((_, b)) = pair(piece(PieceKind::Cannon)) {
        if attacks(PieceKind::Cannon).has(b) {
            bonus += CANNON_PAIR;
        }
    }
    // P4 兄弟兵: crossed pawns side by side on one rank.
    let crossed = piece(PieceKind::Pawn) & enemy_half(color);
    let linked = BitBoard((crossed & !FILES[8]).0 << 1) & crossed;
    bonus + LINKED_PAWNS * few(linked)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(fen: &str, color: Color) -> i32 {
        let pos = Position::from_fen(fen).expect("fen");
        score(&pos, &SideMaps::new(&pos, color), color)
    }

    #[test]
    fn start_position_has_no_pairs() {
        assert_eq!(pairs(crate::board::START_FEN, Color::Red), 0);
    }

    #[test]
    fn rook_pair_and_cannon_pair() {
        // Red rooks a1 and i1 on an empty rank see each other: 霸王车; an advisor on e1
        // between them breaks it.
        assert_eq!(pairs("3k5/9/9/9/9/9/9/9/R7R/4K4 w", Color::Red), 30);
        assert_eq!(pairs("3k5/9/9/9/9/9/9/9/R3A3R/4K4 w", Color::Red), 0);
        // Cannons b2 and h2 with one piece (the elephant on e2) between: 担子炮.
        assert_eq!(pairs("3k5/9/9/9/9/9/9/1C2B2C1/9/4K4 w", Color::Red), 20);
        assert_eq!(pairs("3k5/9/9/9/9/9/9/1C5C1/9/4K4 w", Color::Red), 0);
    }

    #[test]
    fn connected_horses_mutual_and_one_way() {
        // Horses c2 and d4 reach each other (legs c3 and d3 free).
        assert_eq!(pairs("3k5/9/9/9/9/3N5/9/2N6/9/4K4 w", Color::Red), 30);
        // A pawn on c3 blocks the leg of c2 toward d4: only d4 reaches c2.
        assert_eq!(pairs("3k5/9/9/9/9/3N5/2P6/2N6/9/4K4 w", Color::Red), 15);
    }

    #[test]
    fn linked_pawns_count_pairs_across_the_river() {
        // Black pawns on c4, d4, e4 (crossed for Black): two pairs. Red pawns on a5 and
        // b5: one pair.
        let fen = "4k4/9/9/9/PP7/2ppp4/9/9/9/4K4 w";
        assert_eq!(pairs(fen, Color::Black), 40);
        assert_eq!(pairs(fen, Color::Red), 20);
        // Pawns on i5 and a6 are not neighbours (no wrap-around).
        let fen = "3k5/9/9/P8/8P/9/9/9/9/4K4 w";
        assert_eq!(pairs(fen, Color::Red), 0);
    }
}
