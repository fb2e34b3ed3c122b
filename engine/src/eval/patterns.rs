//! Level 3: same-kind pairs that protect each other (002 §3 3) a), §4.3)):
//! 「霸王车、连环马、担子炮、兄弟兵」 — rook pair, connected horses, cannon pair, linked
//! pawns (spec P1..P4). 001: 「當兩個馬踏成連環馬時，威力比兩個單馬要大」.

use super::context::SideMaps;
use super::geometry::{enemy_half, FILES};
use super::weights::{
    CANNON_PAIR, CONNECTED_HORSES_MUTUAL, CONNECTED_HORSES_ONE_WAY, LINKED_PAWNS, ROOK_PAIR,
};
use crate::board::{BitBoard, Color, PieceKind, Position};

/// The pair bonuses of one side.
#[must_use]
pub fn score(pos: &Position, maps: &SideMaps, color: Color) -> i32 {
    let mut bonus = 0;
    let majors = maps.majors();
    for (i, a) in majors.iter().enumerate() {
        for b in &majors[i + 1..] {
            if a.kind != b.kind {
                continue;
            }
            let (ab, ba) = (a.attacks.has(b.sq), b.attacks.has(a.sq));
            bonus += match a.kind {
                // P1 霸王车: nothing between two rooks on a line.
                PieceKind::Rook if ab => ROOK_PAIR,
                // P2 连环马: each horse reaches the other (legs free), or only one does.
                PieceKind::Horse if ab && ba => CONNECTED_HORSES_MUTUAL,
                PieceKind::Horse if ab || ba => CONNECTED_HORSES_ONE_WAY,
                // P3 担子炮: one piece between, each protects the other.
                PieceKind::Cannon if ab => CANNON_PAIR,
                _ => 0,
            };
        }
    }
    // P4 兄弟兵: crossed pawns side by side on one rank.
    let crossed = pos.pieces_of(color, PieceKind::Pawn) & enemy_half(color);
    let linked = BitBoard((crossed & !FILES[8]).0 << 1) & crossed;
    bonus + LINKED_PAWNS * linked.count() as i32
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
