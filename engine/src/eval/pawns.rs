//! Level 6: pawn details (002 §4.1) 「兵：原位兵50分、未过河通路兵80分 过河兵100分，以后截止到
//! 对方生命线为止每下一路就加50分。双兵过河在中心三条纵线联手400分」, §4.7), §5 c); spec T6..T10).
//!
//! - T6: a crossed pawn earns a bonus by its own rank (the document's values minus what
//!   material and the level-1 table already give);
//! - T7: an uncrossed pawn whose path to the river is free and whose crossing point the
//!   enemy does not attack is worth 80 instead of 50;
//! - T8: a protected crossed pawn earns a little;
//! - T9: two crossed pawns side by side on files d..f are worth at least 400 together;
//! - T10: crossed pawns gain when the enemy has few rooks, horses and cannons left.

use super::context::SideMaps;
use super::geometry::{own_rank, own_square};
use super::weights::{
    CENTRAL_PAWN_PAIR, CROSSED_PAWN_BONUS, CROSSED_PAWN_VALUE, FEW_MAJORS_DIVISOR, FEW_MAJORS_FULL,
    OPEN_PATH_PAWN, PROTECTED_CROSSED_PAWN,
};
use crate::board::{BitBoard, Color, PieceKind, Position};

/// The first own rank across the river.
const RIVER: usize = 5;

/// The pawn score of side `color`.
#[must_use]
pub fn score(pos: &Position, own: &SideMaps, enemy: &SideMaps, color: Color) -> i32 {
    let occ = pos.occupied();
    let pawns = pos.pieces_of(color, PieceKind::Pawn);
    let enemy_majors = (2 * pos.pieces_of(!color, PieceKind::Rook).count()
        + pos.pieces_of(!color, PieceKind::Horse).count()
        + pos.pieces_of(!color, PieceKind::Cannon).count()) as i32;
    let scarcity = (FEW_MAJORS_FULL - enemy_majors.min(FEW_MAJORS_FULL)).max(0);
    let mut total = 0;
    for sq in pawns {
        let rank = own_rank(color, sq);
        if rank >= RIVER {
            let step = rank - RIVER;
            // T6
            total += CROSSED_PAWN_BONUS[step];
            // T8
            if own.all.has(sq) {
                total += PROTECTED_CROSSED_PAWN;
            }
            // T10
            total += CROSSED_PAWN_VALUE[step] * scarcity / FEW_MAJORS_DIVISOR;
        } else {
            // T7: the points ahead up to the crossing point are empty, and the crossing
            // point is not attacked.
            let file = sq.file().index();
            let crossing = own_square(color, file, RIVER);
            let path_free = (rank + 1..=RIVER).all(|r| !occ.has(own_square(color, file, r)));
            if path_free && !enemy.all.has(crossing) {
                total += OPEN_PATH_PAWN;
            }
        }
    }
    total + central_pairs(pawns, color)
}

/// T9: for two crossed pawns side by side on one rank within files d..f, the pair is worth
/// at least [`CENTRAL_PAWN_PAIR`]: the bonus is what their document values lack.
fn central_pairs(pawns: BitBoard, color: Color) -> i32 {
    let mut bonus = 0;
    for rank in RIVER..=9 {
        let value = CROSSED_PAWN_VALUE[rank - RIVER];
        for left in 3..=4 {
            let (a, b) = (
                own_square(color, left, rank),
                own_square(color, left + 1, rank),
            );
            if pawns.has(a) && pawns.has(b) {
                bonus += (CENTRAL_PAWN_PAIR - 2 * value).max(0);
            }
        }
    }
    bonus
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::context::both_maps;

    fn pawns(fen: &str, color: Color) -> i32 {
        let pos = Position::from_fen(fen).expect("fen");
        let maps = both_maps(&pos);
        score(&pos, &maps[color.index()], &maps[(!color).index()], color)
    }

    #[test]
    fn start_position_pawns_have_no_open_path() {
        // Every crossing point is attacked by the facing enemy pawn.
        assert_eq!(pawns(crate::board::START_FEN, Color::Red), 0);
    }

    #[test]
    fn crossed_pawn_ranks_and_few_enemy_majors() {
        // Red pawn on a7 (own rank 7): bonus 70. Black has one rook (E = 2): T10 adds
        // 200 * 2 / 8 = 50.
        assert_eq!(pawns("3k5/9/P8/9/9/9/9/9/8r/4K4 w", Color::Red), 70 + 50);
        // Black with two rooks (E = 4): no T10.
        assert_eq!(pawns("r2k5/9/P8/9/9/9/9/9/8r/4K4 w", Color::Red), 70);
    }

    #[test]
    fn open_path_and_central_pair() {
        // Red pawn a3 with a4, a5 empty and a5 unattacked: 30.
        assert_eq!(pawns("1r1k5/9/9/9/9/9/P8/9/8r/4K4 w", Color::Red), 30);
        // The Black rook on a9 watches a5: no bonus.
        assert_eq!(pawns("r2k5/9/9/9/9/9/P8/9/8r/4K4 w", Color::Red), 0);
        // Red pawns d5 and e5 side by side: each 30 (T6) and protected by the other
        // (T8, 20), the pair 400 - 2 * 100 = 200 (T9). Black keeps two rooks (no T10).
        let fen = "1r1k5/9/9/9/3PP4/9/9/9/8r/4K4 w";
        assert_eq!(pawns(fen, Color::Red), 2 * 30 + 2 * 20 + 200);
    }
}
