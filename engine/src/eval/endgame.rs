//! Level 6: known drawish endings (`docs/evaluation.md`, T11; seed 002 on the opening and
//! the endgame: 「单车和单车士象全这种子力组合，却是无法通过子力表得知的…可以通过使用知识型
//! 残局来解决」).
//!
//! When the side ahead cannot be expected to win with what it has, the score is pulled
//! toward zero (divided by [`DRAWISH_DIVISOR`]) instead of trusting the material count:
//! - the side ahead has nothing that can cross the river (no rook, horse, cannon or pawn);
//! - the side ahead has a single rook and nothing else that attacks, against a rook
//!   (「单车和单车士象全」: a lone rook does not beat rook and defenders, nor the reverse).

use super::context::EvalContext;
use super::weights::DRAWISH_DIVISOR;
use crate::board::{Color, PieceKind};

/// Whether `strong`, being ahead, has too little to win.
#[must_use]
pub fn is_drawish(ctx: &EvalContext, strong: Color) -> bool {
    let count = |color: Color, kind: PieceKind| ctx.count(color, kind);
    let weak = !strong;
    let (rooks, horses, cannons, pawns) = (
        count(strong, PieceKind::Rook),
        count(strong, PieceKind::Horse),
        count(strong, PieceKind::Cannon),
        count(strong, PieceKind::Pawn),
    );
    if rooks + horses + cannons + pawns == 0 {
        return true;
    }
    rooks == 1 && horses + cannons + pawns == 0 && count(weak, PieceKind::Rook) >= 1
}

/// The score (from the side to move's view) after the drawish-ending rule.
#[must_use]
#[inline]
pub fn scale(ctx: &EvalContext, score: i32) -> i32 {
    let us = ctx.pos.side_to_move();
    let strong = if score > 0 {
        us
    } else if score < 0 {
        !us
    } else {
        return 0;
    };
    if is_drawish(ctx, strong) {
        score / DRAWISH_DIVISOR
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    #[test]
    fn rook_and_defenders_against_a_rook_is_drawish() {
        // Red rook with full defenders against a lone Black rook.
        let pos = Position::from_fen("3k5/9/9/9/r8/9/9/9/9/2BAKAB1R w").expect("fen");
        let ctx = EvalContext::new(&pos);
        assert!(is_drawish(&ctx, Color::Red));
        assert_eq!(scale(&ctx, 800), 200);
        // Black's lone rook ahead (by some other count) cannot win either.
        assert_eq!(scale(&ctx, -801), -200);
        // Add a Red pawn: no longer.
        let pos = Position::from_fen("3k5/9/9/9/r8/9/P8/9/9/2BAKAB1R w").expect("fen");
        assert!(!is_drawish(&EvalContext::new(&pos), Color::Red));
    }

    #[test]
    fn a_side_without_attackers_cannot_win() {
        let pos = Position::from_fen("3k5/9/9/9/9/9/9/9/9/2BAKAB2 w").expect("fen");
        let ctx = EvalContext::new(&pos);
        assert!(is_drawish(&ctx, Color::Red));
        assert_eq!(scale(&ctx, 803), 200);
    }
}
