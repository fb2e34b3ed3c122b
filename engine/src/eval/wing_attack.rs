//! Level 5: attacks gathered on one wing (`docs/evaluation.md`, K9, K10; seed 002 on king
//! safety and the game phase; seed 001 「三子歸邊」).
//!
//! Wings are files a..e and e..i (file e belongs to both). K9 两子攻势: 「缺仕双车（或车兵）
//! 杀，缺象怕车炮，缺仕怕车马」 — two attackers on one wing near the palace (the defender's
//! own ranks 0..3) against a matching missing defender. K10 三子归边: 「首次有沉底炮、其次车
//! 可做炮架或进入了可以助攻的区域、最后马也进入了可以助攻的区域」 — bottom cannon, then a
//! rook, then a horse in the supporting area (the defender's own ranks 0..3 on that wing);
//! the highest level reached counts.

use super::context::{few, EvalContext};
use super::geometry::{own_rank_mask, WINGS};
use super::king_shape::bottom_cannon_geometry;
use super::weights::{THREE_PIECE_ATTACK, TWO_PIECE_ATTACK};
use crate::board::{BitBoard, Color, PieceKind};

/// The defender's own ranks 0..3: where supporting attackers stand.
fn support_ranks(defender: Color) -> BitBoard {
    own_rank_mask(defender, 0)
        | own_rank_mask(defender, 1)
        | own_rank_mask(defender, 2)
        | own_rank_mask(defender, 3)
}

/// K9 and K10 for `attacker` against the other side.
#[must_use]
pub fn score(ctx: &EvalContext, attacker: Color) -> i32 {
    let pos = ctx.pos;
    let defender = !attacker;
    let lacks_advisor = ctx.count(defender, PieceKind::Advisor) < 2;
    let lacks_elephant = ctx.count(defender, PieceKind::Elephant) < 2;
    let support = support_ranks(defender);
    let of = |kind| pos.pieces_of(attacker, kind);
    let (rooks, horses, cannons, pawns) = (
        of(PieceKind::Rook),
        of(PieceKind::Horse),
        of(PieceKind::Cannon),
        of(PieceKind::Pawn),
    );
    // K9 needs a rook near the defender's palace and a missing advisor or elephant; K10 a
    // cannon on the defender's back rank. Most positions have neither.
    let two_piece_possible = (lacks_advisor || lacks_elephant) && (rooks & support).any();
    let bottom_cannons = cannons & own_rank_mask(defender, 0);
    if !two_piece_possible && bottom_cannons.is_empty() {
        return 0;
    }
    let mut bonus = 0;
    for wing in WINGS {
        // K9 两子攻势: both attackers in the supporting area of the wing.
        let region = wing & support;
        let n = |set: BitBoard| few(set & region);
        let rooks_here = n(rooks);
        let two_piece = two_piece_possible
            && ((lacks_advisor && (rooks_here >= 2 || (rooks_here >= 1 && n(pawns) >= 1)))
                || (lacks_elephant && rooks_here >= 1 && n(cannons) >= 1)
                || (lacks_advisor && rooks_here >= 1 && n(horses) >= 1));
        if two_piece {
            bonus += TWO_PIECE_ATTACK;
        }
        // K10 三子归边
        let bottom = (bottom_cannons & wing)
            .iter()
            .any(|c| bottom_cannon_geometry(ctx, c).is_some());
        if bottom {
            let area = wing & support;
            let level = if (rooks & area).is_empty() {
                0
            } else if (horses & area).is_empty() {
                1
            } else {
                2
            };
            bonus += THREE_PIECE_ATTACK[level];
        }
    }
    bonus
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn wing(fen: &str, attacker: Color) -> i32 {
        let pos = Position::from_fen(fen).expect("fen");
        score(&EvalContext::new(&pos), attacker)
    }

    #[test]
    fn two_rooks_on_a_wing_against_a_missing_advisor() {
        // Black has one advisor; Red rooks on b7 and c6 (left wing, Black's own ranks
        // 0..3): 50.
        assert_eq!(wing("3k5/4a4/1R7/2R6/9/9/9/9/9/4K4 w", Color::Red), 50);
        // One rook on c5 is too far from the palace: nothing.
        assert_eq!(wing("3k5/4a4/1R7/9/2R6/9/9/9/9/4K4 w", Color::Red), 0);
        // Full advisors: nothing.
        assert_eq!(wing("3ak4/4a4/1R7/2R6/9/9/9/9/9/4K4 w", Color::Red), 0);
    }

    #[test]
    fn three_piece_attack_levels() {
        // Black keeps both advisors (e8, f9: door d9 open) and both elephants (g9, e7).
        // Red cannon a9 (bottom cannon), rook b7 in the supporting area: level 2 = 100;
        // with a horse on c7 too: 200; the cannon alone: 50.
        assert_eq!(wing("C3kab2/4a4/1R2b4/9/9/9/9/9/9/3K5 w", Color::Red), 100);
        assert_eq!(wing("C3kab2/4a4/1RN1b4/9/9/9/9/9/9/3K5 w", Color::Red), 200);
        assert_eq!(wing("C3kab2/4a4/4b4/9/9/9/9/9/9/3K5 w", Color::Red), 50);
    }
}
