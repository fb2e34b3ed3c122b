//! Level 6: pawn details (`docs/evaluation.md`, T6..T10; seed 002's piece values:
//! 「兵：原位兵50分、未过河通路兵80分 过河兵100分，以后截止到对方生命线为止每下一路就加50分。
//! 双兵过河在中心三条纵线联手400分」, its other knowledge, and its endgame part).
//!
//! - T6: a crossed pawn earns a bonus by its own rank (about the document's values minus
//!   what material and the level-1 table already give);
//! - T7: an uncrossed pawn whose path to the river is free and whose crossing point the
//!   enemy does not attack is worth 80 instead of 50;
//! - T8: a protected crossed pawn earns a little;
//! - T9: two crossed pawns side by side on files d..f are worth at least 400 together;
//! - T10: crossed pawns gain when the enemy has few rooks, horses and cannons left.

use super::context::{few, EvalContext, SideMaps};
use super::geometry::{enemy_half, own_rank, FILES};
use super::weights::{
    CENTRAL_PAWN_PAIR, CROSSED_PAWN_BONUS, CROSSED_PAWN_VALUE, FEW_MAJORS_DIVISOR, FEW_MAJORS_FULL,
    OPEN_PATH_PAWN, PROTECTED_CROSSED_PAWN,
};
use crate::board::{BitBoard, Color, PieceKind, Square};

/// The first own rank across the river.
const RIVER: usize = 5;

/// T7 table: for a pawn of a colour on a square before the river, the points ahead of it
/// up to and including its crossing point, and the crossing point alone.
const OPEN_PATH: [[(BitBoard, BitBoard); Square::COUNT]; 2] = {
    let mut table = [[(BitBoard::EMPTY, BitBoard::EMPTY); Square::COUNT]; 2];
    let mut c = 0;
    while c < 2 {
        let mut sq = 0;
        while sq < Square::COUNT {
            let (file, rank) = (sq % 9, sq / 9);
            let own = if c == 0 { rank } else { 9 - rank };
            if own < RIVER {
                let mut path = 0u128;
                let mut r = own + 1;
                while r <= RIVER {
                    let abs = if c == 0 { r } else { 9 - r };
                    path |= 1u128 << (file + 9 * abs);
                    r += 1;
                }
                let crossing_rank = if c == 0 { RIVER } else { 9 - RIVER };
                table[c][sq] = (
                    BitBoard(path),
                    BitBoard(1u128 << (file + 9 * crossing_rank)),
                );
            }
            sq += 1;
        }
        c += 1;
    }
    table
};

/// Files d..f, and the left squares of the central pairs (files d and e).
const CENTRAL_FILES: BitBoard = BitBoard(FILES[3].0 | FILES[4].0 | FILES[5].0);
const PAIR_LEFT_FILES: BitBoard = BitBoard(FILES[3].0 | FILES[4].0);

/// The pawn score of side `color`.
#[must_use]
pub fn score(ctx: &EvalContext, own: &SideMaps, enemy: &SideMaps, color: Color) -> i32 {
    let pos = ctx.pos;
    let pawns = pos.pieces_of(color, PieceKind::Pawn);
    let crossed = pawns & enemy_half(color);
    let mut total = 0;
    if crossed.any() {
        let them = !color;
        let enemy_majors = 2 * ctx.count(them, PieceKind::Rook)
            + ctx.count(them, PieceKind::Horse)
            + ctx.count(them, PieceKind::Cannon);
        let scarcity = FEW_MAJORS_FULL - enemy_majors.min(FEW_MAJORS_FULL);
        for sq in crossed {
            let step = own_rank(color, sq) - RIVER;
            // T6 and T10
            total +=
                CROSSED_PAWN_BONUS[step] + CROSSED_PAWN_VALUE[step] * scarcity / FEW_MAJORS_DIVISOR;
        }
        // T8
        total += PROTECTED_CROSSED_PAWN * few(crossed & own.all);
        total += central_pairs(crossed, color);
    }
    // T7: the points ahead up to the crossing point are empty, and the crossing point is
    // not attacked.
    for sq in pawns & !crossed {
        let (path, crossing) = OPEN_PATH[color.index()][sq.index()];
        if (path & ctx.occ).is_empty() && (crossing & enemy.all).is_empty() {
            total += OPEN_PATH_PAWN;
        }
    }
    total
}

/// T9: for two crossed pawns side by side on one rank within files d..f, the pair is worth
/// at least [`CENTRAL_PAWN_PAIR`]: the bonus is what their document values lack.
fn central_pairs(crossed: BitBoard, color: Color) -> i32 {
    let central = crossed & CENTRAL_FILES;
    let lefts = BitBoard(central.0 >> 1) & central & PAIR_LEFT_FILES;
    lefts
        .iter()
        .map(|sq| (CENTRAL_PAWN_PAIR - 2 * CROSSED_PAWN_VALUE[own_rank(color, sq) - RIVER]).max(0))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::eval::context::both_maps;

    fn pawns(fen: &str, color: Color) -> i32 {
        let pos = Position::from_fen(fen).expect("fen");
        let maps = both_maps(&pos);
        let ctx = EvalContext::new(&pos);
        score(&ctx, &maps[color.index()], &maps[(!color).index()], color)
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
