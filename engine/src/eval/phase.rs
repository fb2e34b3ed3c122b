//! Level 6: the game phase and what it scales (`docs/evaluation.md`, T1..T3; seed 002 on the
//! game phase: 「预评估当前局势处于开、中、殘哪一阶段，相应调整某些分值。如殘棋马胜炮」, its piece
//! values and its principles).
//!
//! Phase material M = 6R + 3(H + C) + (A + E + P) over both sides (seed 002), 0..66.
//! The opening share t = clamp((M - 32) / 22, 0, 1) is kept as the integer
//! `t22 = clamp(M, 32, 54) - 32` in 0..=22 so every scaled term is exact integer
//! arithmetic computed the same way for both sides (which keeps the evaluation exactly
//! antisymmetric).

use super::psqt::MATERIAL;
use super::weights::{
    CANNON_ENDGAME, CANNON_OPENING, HORSE_ENDGAME, HORSE_OPENING, PHASE_ENDGAME, PHASE_OPENING,
    PLACEMENT_OPENING_DIVISOR,
};
use crate::board::PieceKind;

/// Width of the middlegame in phase material: t = t22 / SPAN.
pub const SPAN: i32 = PHASE_OPENING - PHASE_ENDGAME;

/// The opening share in 0..=SPAN (SPAN: opening, 0: endgame).
#[must_use]
#[inline]
pub const fn t22(phase_material: i32) -> i32 {
    let m = if phase_material < PHASE_ENDGAME {
        PHASE_ENDGAME
    } else if phase_material > PHASE_OPENING {
        PHASE_OPENING
    } else {
        phase_material
    };
    m - PHASE_ENDGAME
}

/// Interpolates between an endgame and an opening value.
#[must_use]
#[inline]
const fn taper(endgame: i32, opening: i32, t: i32) -> i32 {
    endgame + (opening - endgame) * t / SPAN
}

/// T1: what the phase adds to one side's material: each horse and cannon at its phase
/// value (seed 002: horse 400 / 450 / 500, cannon 500 / 450 / 400) instead of the level-0
/// 450.
#[must_use]
pub fn material_adjustment(horses: i32, cannons: i32, t: i32) -> i32 {
    let horse = taper(HORSE_ENDGAME, HORSE_OPENING, t) - MATERIAL[PieceKind::Horse.index()];
    let cannon = taper(CANNON_ENDGAME, CANNON_OPENING, t) - MATERIAL[PieceKind::Cannon.index()];
    horses * horse + cannons * cannon
}

/// T3: what the phase adds to one side's placement sum (x (1 + t/4): the opening
/// values position more, 「开局注重占据有利位置」).
#[must_use]
pub fn placement_adjustment(placement: i32, t: i32) -> i32 {
    placement * t / (SPAN * PLACEMENT_OPENING_DIVISOR)
}

/// T2: what the phase adds to one side's hollow-cannon bonus (x (1 + t)/2: 「空头炮在子力
/// 充沛时，分数很高，但是子力减少，则威力降低」).
#[must_use]
pub fn hollow_adjustment(hollow: i32, t: i32) -> i32 {
    hollow * (SPAN + t) / (2 * SPAN) - hollow
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phase_share() {
        assert_eq!(t22(66), 22);
        assert_eq!(t22(54), 22);
        assert_eq!(t22(43), 11);
        assert_eq!(t22(32), 0);
        assert_eq!(t22(0), 0);
    }

    #[test]
    fn horse_and_cannon_values_follow_the_document() {
        // Opening: horse 400 (-50), cannon 500 (+50); middlegame 450 / 450; endgame 500 / 400.
        assert_eq!(material_adjustment(1, 0, 22), -50);
        assert_eq!(material_adjustment(0, 1, 22), 50);
        assert_eq!(material_adjustment(1, 1, 11), 0);
        assert_eq!(material_adjustment(2, 0, 0), 100);
        assert_eq!(material_adjustment(0, 2, 0), -100);
    }

    #[test]
    fn scaling_of_placement_and_hollow_cannon() {
        assert_eq!(placement_adjustment(400, 22), 100);
        assert_eq!(placement_adjustment(400, 0), 0);
        assert_eq!(placement_adjustment(-400, 22), -100);
        assert_eq!(hollow_adjustment(400, 22), 0);
        assert_eq!(hollow_adjustment(400, 0), -200);
        assert_eq!(hollow_adjustment(400, 11), -100);
    }
}
