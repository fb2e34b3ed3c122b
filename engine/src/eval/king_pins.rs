//! Level 5: pins on the king (`docs/evaluation.md`, K11..K14; seed 002's king safety and its
//! steps on pins on the king).
//!
//! 「车牵制：我方车用炮吃子的方式能吃到对方将则构成牵制」 (a rook with one piece between it and
//! the king), 「炮牵制：我方炮用超级远程炮吃子的方式能吃到对方将则构成牵制」 (a cannon with two
//! pieces between: the second one is pinned), 「炮对炮造不成牵制」, 「马牵制：马脚有对方子，移动
//! 该子就可吃到对方将军」, 「将帅互相牵制」. A pinned piece counts when it is worth something
//! and unprotected (protection by the king does not count, as seed 002 says of pins).

use super::context::few;
use super::geometry::{between, line_distance, lines};
use super::pins::{line_pin_value, unprotected};
use super::weights::{HORSE_PIN_ON_KING, KINGS_FACING_PIN};
use crate::board::{BitBoard, Color, PieceKind, Position, Square};
use crate::movegen::tables::HORSE_ATTACKERS;

/// The piece between `from` and the defender's king that a pin by `pinner_kind` holds:
/// the only piece between for a rook, the one nearer the king of exactly two for a cannon.
fn pinned_piece(
    pos: &Position,
    from: Square,
    king: Square,
    pinner_kind: PieceKind,
) -> Option<Square> {
    let inside = between(from, king) & pos.occupied();
    match (pinner_kind, few(inside)) {
        (PieceKind::Rook, 1) => inside.first(),
        (PieceKind::Cannon, 2) => inside
            .iter()
            .find(|&sq| (between(sq, king) & pos.occupied()).is_empty()),
        _ => None,
    }
}

/// K11..K13: the king-pin bonus of `attacker`.
#[must_use]
pub fn score(pos: &Position, attacker: Color) -> i32 {
    let defender = !attacker;
    let king = pos.king(defender);
    let king_bb = BitBoard::from_square(king);
    let on_lines = lines(king);
    let mut bonus = 0;
    for (pinner_kind, valuable) in [
        // K11 rook pin: the pinned piece is a horse or cannon.
        (PieceKind::Rook, [PieceKind::Horse, PieceKind::Cannon]),
        // K12 cannon pin: the pinned piece is a rook or horse, never a cannon.
        (PieceKind::Cannon, [PieceKind::Rook, PieceKind::Horse]),
    ] {
        for from in pos.pieces_of(attacker, pinner_kind) & on_lines {
            let Some(sq) = pinned_piece(pos, from, king, pinner_kind) else {
                continue;
            };
            let worth = pos
                .piece_at(sq)
                .is_some_and(|p| p.color() == defender && valuable.contains(&p.kind()));
            if worth && unprotected(pos, sq, defender, king_bb) {
                bonus += line_pin_value(line_distance(sq, king));
            }
        }
    }
    // K13 horse pin: a defending rook, horse or cannon on the leg of a horse aimed at the
    // king (the legs of horses attacking a point are its diagonal neighbours).
    let horses = pos.pieces_of(attacker, PieceKind::Horse);
    if horses.any() {
        let majors = pos.pieces_of(defender, PieceKind::Rook)
            | pos.pieces_of(defender, PieceKind::Horse)
            | pos.pieces_of(defender, PieceKind::Cannon);
        for step in &HORSE_ATTACKERS[king.index()] {
            if majors.has(step.block) {
                bonus += HORSE_PIN_ON_KING * few(step.targets & horses);
            }
        }
    }
    bonus
}

/// K14: the penalty (zero or negative) of each side, Red first, for a rook, horse or
/// cannon that is the only piece between the two kings on one file.
#[must_use]
pub fn kings_facing(pos: &Position) -> [i32; 2] {
    let mut out = [0; 2];
    let (red, black) = (pos.king(Color::Red), pos.king(Color::Black));
    if red.file() != black.file() {
        return out;
    }
    let inside = between(red, black) & pos.occupied();
    if inside.any() && !inside.has_several() {
        if let Some(piece) = inside.first().and_then(|sq| pos.piece_at(sq)) {
            if matches!(
                piece.kind(),
                PieceKind::Rook | PieceKind::Horse | PieceKind::Cannon
            ) {
                out[piece.color().index()] -= KINGS_FACING_PIN;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pins(fen: &str, attacker: Color) -> i32 {
        score(&Position::from_fen(fen).expect("fen"), attacker)
    }

    #[test]
    fn rook_pins_a_horse_to_the_king() {
        // Red rook e2, Black horse e7, Black king e9 (d = 2): 220 - 40.
        assert_eq!(pins("4k4/9/4n4/9/9/9/9/4R4/9/3K5 w", Color::Red), 180);
        // A Black rook on a7 protects the horse along the rank: no pin.
        assert_eq!(pins("4k4/9/r3n4/9/9/9/9/4R4/9/3K5 w", Color::Red), 0);
    }

    #[test]
    fn cannon_pins_the_second_piece() {
        // Red cannon e2, Red pawn e5 as screen, Black rook e7, king e9: rook pinned, d = 2.
        assert_eq!(pins("4k4/9/4r4/9/4P4/9/9/4C4/9/3K5 w", Color::Red), 180);
        // A Black cannon there instead: 炮对炮造不成牵制.
        assert_eq!(pins("4k4/9/4c4/9/4P4/9/9/4C4/9/3K5 w", Color::Red), 0);
    }

    #[test]
    fn horse_leg_pin_and_facing_kings() {
        // Red horse d6 aims at the king on e8, its leg d7 held by a Black cannon: 60.
        assert_eq!(pins("9/4k4/3c5/3N5/9/9/9/9/9/5K3 w", Color::Red), 60);
        // A Red horse alone between the kings on the e-file: -40 to Red.
        let pos = Position::from_fen("4k4/9/9/9/9/4N4/9/9/9/4K4 w").expect("fen");
        assert_eq!(kings_facing(&pos), [-40, 0]);
    }
}
