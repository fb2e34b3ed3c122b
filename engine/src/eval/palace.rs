//! Level 5: control of the enemy palace and its surroundings (`docs/evaluation.md`, K7;
//! seed 002 on king safety: 「王威胁模型，对9宫的威胁，通过攻击点的个数和程度来表示」).
//!
//! Seed 002's table, x10, for the defender's own ranks (rank 0 = its back rank):
//! ```text
//!            c   d   e   f   g
//! rank 4     1   1   1   1   1
//! rank 3     1   1   1   1   1
//! rank 2     1   2   2   2   1
//! rank 1     1   2   5   2   1
//! rank 0     1   5  10   5   1
//! ```
//! Each attack of a rook, horse, cannon or pawn on one of these points counts its weight
//! (several attackers count several times, occupied points count too); the sum times
//! [`PALACE_CONTROL_SCALE`] is capped at [`PALACE_CONTROL_MAX`] 「最高分值 200」. The
//! weights are [`PALACE_CONTROL_WEIGHTS`]: the ring outside the palace (the 1s) is
//! weighted 0 there (why: `docs/engine-log.md`), and left out of the region.

use super::context::SideMaps;
use super::weights::{PALACE_CONTROL_MAX, PALACE_CONTROL_SCALE, PALACE_CONTROL_WEIGHTS};
use crate::board::{BitBoard, Color, PieceKind, Position, Square};
use crate::movegen::tables::PAWN_STEPS;

/// A mask of points given as (file, own rank) pairs of the defender.
const fn mask(color: Color, points: &[(usize, usize)]) -> BitBoard {
    let mut bits = 0u128;
    let mut i = 0;
    while i < points.len() {
        let (file, rank) = points[i];
        let rank = match color {
            Color::Red => rank,
            Color::Black => 9 - rank,
        };
        bits |= 1u128 << (file + 9 * rank);
        i += 1;
    }
    BitBoard(bits)
}

/// The ring: files c..g, own ranks 0..4, without the palace.
const fn ring(color: Color) -> BitBoard {
    let mut bits = 0u128;
    let mut rank = 0;
    while rank < 5 {
        let mut file = 2;
        while file <= 6 {
            if !(rank <= 2 && file >= 3 && file <= 5) {
                bits |= mask(color, &[(file, rank)]).0;
            }
            file += 1;
        }
        rank += 1;
    }
    BitBoard(bits)
}

const fn classes(color: Color) -> [BitBoard; 4] {
    [
        mask(color, &[(4, 0)]),
        mask(color, &[(3, 0), (5, 0), (4, 1)]),
        mask(color, &[(3, 1), (5, 1), (3, 2), (4, 2), (5, 2)]),
        ring(color),
    ]
}

/// The defender's points by weight class (10, 5, 2, 1), indexed by defender colour.
pub const CLASSES: [[BitBoard; 4]; 2] = [classes(Color::Red), classes(Color::Black)];

/// The points of a defender with a weight above zero.
pub const REGION: [BitBoard; 2] = [region(Color::Red), region(Color::Black)];

const fn region(color: Color) -> BitBoard {
    let c = classes(color);
    let mut bits = 0;
    let mut class = 0;
    while class < 4 {
        if PALACE_CONTROL_WEIGHTS[class] != 0 {
            bits |= c[class].0;
        }
        class += 1;
    }
    BitBoard(bits)
}

/// The weight of every point for a defender (zero outside the 25 points).
const WEIGHTS: [[i32; Square::COUNT]; 2] = {
    let mut table = [[0; Square::COUNT]; 2];
    let mut c = 0;
    while c < 2 {
        let mut class = 0;
        while class < 4 {
            let mut sq = 0;
            while sq < Square::COUNT {
                if CLASSES[c][class].0 >> sq & 1 != 0 {
                    table[c][sq] = PALACE_CONTROL_WEIGHTS[class];
                }
                sq += 1;
            }
            class += 1;
        }
        c += 1;
    }
    table
};

/// The weighted count of the points of `set` for a defender.
#[must_use]
#[inline]
pub fn weigh(set: BitBoard, defender: Color) -> i32 {
    let weights = &WEIGHTS[defender.index()];
    (set & REGION[defender.index()])
        .iter()
        .map(|sq| weights[sq.index()])
        .sum()
}

/// K7: the palace-control bonus of `attacker` (0..=200).
#[must_use]
pub fn score(pos: &Position, attacker_maps: &SideMaps, attacker: Color) -> i32 {
    let defender = !attacker;
    let majors: i32 = attacker_maps
        .majors()
        .iter()
        .map(|m| weigh(m.attacks, defender))
        .sum();
    let pawns: i32 = (pos.pieces_of(attacker, PieceKind::Pawn) & BitBoard::home_half(defender))
        .iter()
        .map(|sq: Square| weigh(PAWN_STEPS[attacker.index()][sq.index()], defender))
        .sum();
    (PALACE_CONTROL_SCALE * (majors + pawns)).min(PALACE_CONTROL_MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_weights_cover_the_palace_only() {
        for color in Color::ALL {
            // 10 + 3 x 5 + 5 x 2: the ring counts 0.
            assert_eq!(weigh(BitBoard::FULL, color), 35);
            let all = CLASSES[color.index()]
                .iter()
                .fold(BitBoard::EMPTY, |a, &c| a | c);
            assert_eq!(all.count(), 25);
            assert_eq!(REGION[color.index()].count(), 9);
        }
        let e9 = Square::parse("e9").expect("e9");
        assert_eq!(weigh(BitBoard::from_square(e9), Color::Black), 10);
    }

    #[test]
    fn a_rook_on_the_palace_file() {
        // Red rook e4 against Black king d9 (e-file open up to e9): e5, e6 (ring, 0),
        // e7 (2), e8 (5), e9 (10); along rank 4 nothing of Black's half: 17.
        let pos = Position::from_fen("3k5/9/9/9/9/4R4/9/9/9/5K3 w").expect("fen");
        let maps = SideMaps::new(&pos, Color::Red);
        assert_eq!(score(&pos, &maps, Color::Red), 17 * PALACE_CONTROL_SCALE);
        // A crossed pawn on e6 attacks e7 (2), d6 and f6 (ring, 0), and it stops the rook
        // at e6 (e5, e6: ring only): 2.
        let pos = Position::from_fen("3k5/9/9/4P4/9/4R4/9/9/9/5K3 w").expect("fen");
        let maps = SideMaps::new(&pos, Color::Red);
        assert_eq!(score(&pos, &maps, Color::Red), 2 * PALACE_CONTROL_SCALE);
    }
}
