//! Level 2: defensive deficiencies from piece counts (`docs/evaluation.md`, level 2; seed
//! 002 on defensive deficiencies):
//! 「兑子后形成无车怕有车，缺仕(士)怕双车，缺相(象)怕炮攻等棋子数量变化带来的防守缺陷」.
//!
//! Only counts (and which pawns crossed) are looked at, so the term is cheap. Every rule
//! is a penalty to the defending side D against the attacker X (D1..D7 of the doc).

use super::context::EvalContext;
use super::weights::{
    ADVISOR_VS_ROOKS_BASE, ADVISOR_VS_ROOKS_PER_ATTACK, LONE_ELEPHANT, MISSING_ADVISOR_PER_HORSE,
    MISSING_ADVISOR_PER_PAWN, MISSING_ADVISOR_PER_ROOK, MISSING_ELEPHANT_PER_CANNON,
    NO_ROOK_PER_ENEMY_ROOK, PHASE_ENDGAME, TWO_HORSES_NO_CANNON, WEAK_LONE_ADVISOR,
};
use crate::board::{Color, PieceKind};

/// The deficiency score of side `defender` (zero or negative).
#[must_use]
pub fn score(ctx: &EvalContext, defender: Color) -> i32 {
    let attacker = !defender;
    let own = |kind| ctx.count(defender, kind);
    let enemy = |kind| ctx.count(attacker, kind);
    let (advisors, elephants) = (own(PieceKind::Advisor), own(PieceKind::Elephant));
    let (rooks, horses, cannons) = (
        enemy(PieceKind::Rook),
        enemy(PieceKind::Horse),
        enemy(PieceKind::Cannon),
    );
    let crossed_pawns = ctx.crossed_pawns[attacker.index()];
    let missing_advisors = (2 - advisors).max(0);
    let missing_elephants = (2 - elephants).max(0);
    let mut penalty = 0;

    // D1 缺仕怕双车
    if advisors < 2 && rooks >= 2 {
        penalty += ADVISOR_VS_ROOKS_BASE
            + ADVISOR_VS_ROOKS_PER_ATTACK * ctx.attack_state[attacker.index()];
    }
    // D2 缺士怕车、马、卒
    penalty += missing_advisors
        * (MISSING_ADVISOR_PER_ROOK * rooks
            + MISSING_ADVISOR_PER_HORSE * horses
            + MISSING_ADVISOR_PER_PAWN * crossed_pawns);
    // D3 弱士
    if advisors == 1 {
        penalty += WEAK_LONE_ADVISOR;
    }
    // D4 单缺象
    if elephants == 1 {
        penalty += LONE_ELEPHANT;
    }
    // D5 缺象怕炮
    penalty += MISSING_ELEPHANT_PER_CANNON * missing_elephants * cannons;
    // D6 无车怕有车
    if own(PieceKind::Rook) == 0 {
        penalty += NO_ROOK_PER_ENEMY_ROOK * rooks;
    }
    // D7 兵种配置不佳: two horses and no cannon against a cannon, before the endgame.
    if own(PieceKind::Horse) == 2
        && own(PieceKind::Cannon) == 0
        && cannons > 0
        && ctx.phase_material > PHASE_ENDGAME
    {
        penalty += TWO_HORSES_NO_CANNON;
    }
    -penalty
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;

    fn deficiency(fen: &str, color: Color) -> i32 {
        let pos = Position::from_fen(fen).expect("fen");
        score(&EvalContext::new(&pos), color)
    }

    #[test]
    fn full_defence_costs_nothing() {
        let start = crate::board::START_FEN;
        assert_eq!(deficiency(start, Color::Red), 0);
        assert_eq!(deficiency(start, Color::Black), 0);
    }

    #[test]
    fn missing_advisor_against_two_rooks() {
        // Black lacks the f9 advisor; Red has two rooks at home (attack state 0) and two
        // horses, no crossed pawn. D1 100 + 40 * 0, D2 1 * (2 * 30 + 2 * 20), D3 40.
        let fen = "rnbak1bnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w";
        assert_eq!(deficiency(fen, Color::Black), -(100 + (60 + 40) + 40));
        assert_eq!(deficiency(fen, Color::Red), 0);
        // With one rook gone D1 no longer applies, D2 shrinks by one rook.
        let fen = "rnbak1bnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/1NBAKABNR w";
        assert_eq!(deficiency(fen, Color::Black), -((30 + 40) + 40));
    }

    #[test]
    fn missing_advisors_grow_with_the_attack_state() {
        // Both rooks of Red across the river, Black without advisors or rooks: attack
        // state 2 * 2 + 2 * (4 - 0) capped at 8; D1 100 + 40 * 8, D2 2 * (2 * 30), D6 200.
        let fen = "2b1k1b2/R7R/9/9/9/9/4P4/9/9/4K4 w";
        assert_eq!(deficiency(fen, Color::Black), -(100 + 320 + 2 * 60 + 200));
        // One rook at home instead: attack state 2 + 2 * 4 = 10 -> 8, the same.
        let fen = "2b1k1b2/R8/9/9/9/9/4P4/9/9/4K3R w";
        assert_eq!(deficiency(fen, Color::Black), -(100 + 320 + 2 * 60 + 200));
    }

    #[test]
    fn elephants_against_cannons_and_no_rook() {
        // Black: one elephant, no rook; Red: two cannons and a rook.
        // D4 30, D5 1 * 2 * 40, D6 100, D2 none (two advisors).
        let fen = "3akab2/9/9/9/9/9/4P4/1C5C1/9/R3K4 w";
        assert_eq!(deficiency(fen, Color::Black), -(30 + 80 + 100));
        // Red has no advisors or elephants but Black has no attacker: nothing.
        assert_eq!(deficiency(fen, Color::Red), 0);
    }

    #[test]
    fn two_horses_without_cannon_before_the_endgame() {
        let fen = "rnbakabnr/9/7c1/p1p1p1p1p/9/9/P1P1P1P1P/9/9/RNBAKABNR w";
        assert_eq!(deficiency(fen, Color::Red), -40);
        assert_eq!(deficiency(fen, Color::Black), 0);
    }
}
