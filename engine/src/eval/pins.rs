//! Level 3: pins with the enemy rook as target (`docs/evaluation.md`, S1..S5; seed 002 on
//! special patterns):
//! 「车对车炮、车对车马、炮对车马及马象弱牵制、车对炮兵、马兵的弱牵制」.
//!
//! Names read "pinner against target + pinned piece": 车对车炮 = our rook pins an enemy
//! cannon to an enemy rook behind it. A pin counts only when the pinned piece X is
//! unprotected (protection by the target T does not count) and the target rook is
//! unprotected too (seed 002: 「如果牵制目标子是车…要求车也没有保护时才有牵制价值」).
//! Geometry first, so the exact protection test ([`protectors`]) runs only for the
//! rare candidates. Also holds the shared helper [`unprotected`] used by the king pins.

use super::context::SideMaps;
use super::geometry::{first_on_ray, line_distance, lines, ray};
use super::weights::{LEG_PIN_ON_ROOK, PIN_BASE, PIN_PER_STEP, ROOK_PIN_PAWN};
use crate::board::{BitBoard, Color, PieceKind, Position, Square};
use crate::movegen::attackers_to;
use crate::movegen::tables::{ELEPHANT_STEPS, HORSE_REACH, HORSE_STEPS};

/// The pieces of `owner` that protect `sq` (could capture on it), pins ignored: the
/// attackers of the square, asked of the move generator.
#[must_use]
#[inline]
pub fn protectors(pos: &Position, sq: Square, owner: Color) -> BitBoard {
    attackers_to(pos, sq, owner, pos.occupied())
}

/// Whether no piece of `owner` other than those in `except` protects `sq`.
#[must_use]
#[inline]
pub fn unprotected(pos: &Position, sq: Square, owner: Color, except: BitBoard) -> bool {
    (protectors(pos, sq, owner) & !except).is_empty()
}

/// The value of a line pin at `d` steps from the pinned piece to the target.
#[must_use]
#[inline]
pub const fn line_pin_value(d: i32) -> i32 {
    PIN_BASE - PIN_PER_STEP * d
}

/// The direction (0..4) in which `to` lies from `from` on a line.
#[inline]
fn direction(from: Square, to: Square) -> Option<usize> {
    (0..4).find(|&dir| ray(dir, from).has(to))
}

/// The piece right behind `x`, seen from `from` through `x`, if any.
#[inline]
fn behind(pos: &Position, from: Square, x: Square) -> Option<Square> {
    direction(from, x).and_then(|dir| first_on_ray(dir, x, pos.occupied()))
}

/// The pins on enemy rooks (and the weak pins on horses and cannons) of side `us`.
#[must_use]
pub fn score(pos: &Position, maps: &SideMaps, us: Color) -> i32 {
    let them = !us;
    let their = |kind| pos.pieces_of(them, kind);
    let (rooks, horses, cannons) = (
        their(PieceKind::Rook),
        their(PieceKind::Horse),
        their(PieceKind::Cannon),
    );
    let pawns = their(PieceKind::Pawn);
    // Every pin here has an enemy rook, or (S5) an enemy horse or cannon, as target.
    let targets = rooks | horses | cannons;
    if targets.is_empty() {
        return 0;
    }
    let mut bonus = 0;
    // A valid pin: X unprotected apart from T, T unprotected.
    let valid = |x: Square, t: Square| {
        unprotected(pos, x, them, BitBoard::from_square(t))
            && unprotected(pos, t, them, BitBoard::EMPTY)
    };
    for major in maps.majors() {
        match major.kind {
            PieceKind::Rook => {
                // S1 车对车炮, S2 车对车马; S5 车对炮兵、马兵 (a pawn before a cannon or horse).
                if (lines(major.sq) & targets).is_empty() {
                    continue;
                }
                for x in major.attacks & (horses | cannons | pawns) {
                    let Some(t) = behind(pos, major.sq, x) else {
                        continue;
                    };
                    if pawns.has(x) {
                        if (horses | cannons).has(t) && valid(x, t) {
                            bonus += ROOK_PIN_PAWN;
                        }
                    } else if rooks.has(t) && valid(x, t) {
                        bonus += line_pin_value(line_distance(x, t));
                    }
                }
            }
            PieceKind::Cannon => {
                // S3 炮对车马: the cannon's capture is a horse or rook, a rook behind it.
                if (lines(major.sq) & rooks).is_empty() {
                    continue;
                }
                for x in major.attacks & pos.occupied() & (horses | rooks) {
                    if let Some(t) = behind(pos, major.sq, x) {
                        if rooks.has(t) && valid(x, t) {
                            bonus += line_pin_value(line_distance(x, t));
                        }
                    }
                }
            }
            PieceKind::Horse => {
                // S4 马象弱牵制: an enemy piece on our horse's leg shields its rook.
                if (HORSE_REACH[major.sq.index()] & rooks).is_empty() {
                    continue;
                }
                for step in &HORSE_STEPS[major.sq.index()] {
                    bonus += leg_pin(pos, them, step.block, step.targets & rooks);
                }
            }
            _ => {}
        }
    }
    // Elephants never leave their half: only rooks there can be targets.
    if (rooks & BitBoard::home_half(us)).is_empty() {
        return bonus;
    }
    for sq in pos.pieces_of(us, PieceKind::Elephant) {
        for step in &ELEPHANT_STEPS[sq.index()] {
            bonus += leg_pin(pos, them, step.block, step.targets & rooks);
        }
    }
    bonus
}

/// S4 for one leg (or eye): an enemy piece on `leg` keeps an enemy rook in `targets`
/// from being attacked.
fn leg_pin(pos: &Position, them: Color, leg: Square, targets: BitBoard) -> i32 {
    if targets.is_empty() || !pos.color_bb(them).has(leg) {
        return 0;
    }
    let pinned_ok = pos
        .piece_at(leg)
        .is_some_and(|p| p.kind() != PieceKind::King);
    targets
        .iter()
        .filter(|&t| {
            pinned_ok
                && unprotected(pos, leg, them, BitBoard::from_square(t))
                && unprotected(pos, t, them, BitBoard::EMPTY)
        })
        .count() as i32
        * LEG_PIN_ON_ROOK
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pins(fen: &str, color: Color) -> i32 {
        let pos = Position::from_fen(fen).expect("fen");
        score(&pos, &SideMaps::new(&pos, color), color)
    }

    #[test]
    fn rook_pins_cannon_to_rook() {
        // Red rook a4, Black cannon c4, Black rook g4 (d = 4 steps): 220 - 80.
        assert_eq!(pins("3k5/9/9/9/9/2c3r2/9/9/9/R3K4 w", Color::Red), 0);
        assert_eq!(pins("3k5/9/9/9/9/R1c3r2/9/9/9/4K4 w", Color::Red), 140);
        // The black rook protected by a horse (h6 reaches g4): no pin.
        assert_eq!(pins("3k5/9/9/7n1/9/R1c3r2/9/9/9/4K4 w", Color::Red), 0);
    }

    #[test]
    fn cannon_pins_horse_to_rook() {
        // Red cannon e2, screen e3, Black horse e6, Black rook e8 (d = 2): 220 - 40.
        assert_eq!(pins("3k5/4r4/9/4n4/9/9/4P4/4C4/9/4K4 w", Color::Red), 180);
    }

    #[test]
    fn weak_pins_by_leg_and_pawn() {
        // Red horse c4, Black pawn on its leg c5, Black rook b6 / d6 behind: one rook.
        assert_eq!(pins("3k5/9/9/1r7/2p6/2N6/9/9/9/4K4 w", Color::Red), 60);
        // Red rook a0, Black pawn a4 with a Black horse a6 behind it: 车对马兵.
        assert_eq!(pins("3k5/9/9/n8/9/p8/9/9/9/R3K4 w", Color::Red), 40);
    }
}
