//! Step and ray tables, built at compile time by `const` evaluation.
//!
//! Directions are indexed `0..4` as north (+rank), east (+file), south, west. North and
//! east rays run towards higher square numbers, so their first blocker is the lowest set
//! bit; south and west rays find theirs with the highest set bit.

use crate::board::{BitBoard, Color, Square};

/// File and rank steps of the four orthogonal directions: N, E, S, W.
const ORTHOGONAL: [(i32, i32); 4] = [(0, 1), (1, 0), (0, -1), (-1, 0)];
/// File and rank steps of the four diagonal directions: NE, SE, SW, NW.
const DIAGONAL: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, -1), (-1, 1)];

const fn bb(sq: Square) -> u128 {
    1u128 << sq.index()
}

const fn in_palace(sq: Square) -> bool {
    BitBoard::palace(Color::Red).has(sq) || BitBoard::palace(Color::Black).has(sq)
}

const fn same_half(a: Square, b: Square) -> bool {
    (a.rank().index() < 5) == (b.rank().index() < 5)
}

/// Squares on each ray from a square, not including the square itself: `RAYS[dir][sq]`.
pub const RAYS: [[BitBoard; Square::COUNT]; 4] = {
    let mut rays = [[BitBoard::EMPTY; Square::COUNT]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut i = 0;
        while i < Square::COUNT {
            let (df, dr) = ORTHOGONAL[dir];
            let mut bits = 0u128;
            let mut step = 1;
            while let Some(to) = Square::ALL[i].offset(df * step, dr * step) {
                bits |= bb(to);
                step += 1;
            }
            rays[dir][i] = BitBoard(bits);
            i += 1;
        }
        dir += 1;
    }
    rays
};

/// The nine files as masks, `a` first.
pub const FILES: [BitBoard; 9] = {
    let mut out = [BitBoard::EMPTY; 9];
    let mut sq = 0;
    while sq < Square::COUNT {
        out[sq % 9] = BitBoard(out[sq % 9].0 | 1u128 << sq);
        sq += 1;
    }
    out
};

/// King steps inside its palace.
pub const KING_STEPS: [BitBoard; Square::COUNT] = steps_in_palace(ORTHOGONAL);

/// Advisor steps inside its palace.
pub const ADVISOR_STEPS: [BitBoard; Square::COUNT] = steps_in_palace(DIAGONAL);

const fn steps_in_palace(dirs: [(i32, i32); 4]) -> [BitBoard; Square::COUNT] {
    let mut table = [BitBoard::EMPTY; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let from = Square::ALL[i];
        if in_palace(from) {
            let mut bits = 0u128;
            let mut d = 0;
            while d < 4 {
                if let Some(to) = from.offset(dirs[d].0, dirs[d].1) {
                    if in_palace(to) && same_half(from, to) {
                        bits |= bb(to);
                    }
                }
                d += 1;
            }
            table[i] = BitBoard(bits);
        }
        i += 1;
    }
    table
}

/// A step that needs one point to be empty: the horse's leg or the elephant's eye.
#[derive(Clone, Copy, Debug)]
pub struct BlockableStep {
    /// The point that must be empty.
    pub block: Square,
    /// The points reached when it is.
    pub targets: BitBoard,
}

const NO_STEP: BlockableStep = BlockableStep {
    block: Square::ALL[0],
    targets: BitBoard::EMPTY,
};

/// Elephant moves by eye: `ELEPHANT_STEPS[sq][diag]`, never across the river.
pub const ELEPHANT_STEPS: [[BlockableStep; 4]; Square::COUNT] = {
    let mut table = [[NO_STEP; 4]; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let from = Square::ALL[i];
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAGONAL[d];
            if let (Some(eye), Some(to)) = (from.offset(df, dr), from.offset(2 * df, 2 * dr)) {
                if same_half(from, to) {
                    table[i][d] = BlockableStep {
                        block: eye,
                        targets: BitBoard(bb(to)),
                    };
                }
            }
            d += 1;
        }
        i += 1;
    }
    table
};

/// Horse moves by leg: `HORSE_STEPS[sq][dir]` is the orthogonal neighbour that must be
/// empty and the (up to two) points beyond it.
pub const HORSE_STEPS: [[BlockableStep; 4]; Square::COUNT] = {
    let mut table = [[NO_STEP; 4]; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let from = Square::ALL[i];
        let mut d = 0;
        while d < 4 {
            let (df, dr) = ORTHOGONAL[d];
            if let Some(leg) = from.offset(df, dr) {
                // Two points beyond the leg, one to each side of the direction.
                let (sf, sr) = (dr, df);
                let mut bits = 0u128;
                if let Some(to) = from.offset(2 * df + sf, 2 * dr + sr) {
                    bits |= bb(to);
                }
                if let Some(to) = from.offset(2 * df - sf, 2 * dr - sr) {
                    bits |= bb(to);
                }
                table[i][d] = BlockableStep {
                    block: leg,
                    targets: BitBoard(bits),
                };
            }
            d += 1;
        }
        i += 1;
    }
    table
};

/// Every point a horse or an elephant on a square reaches when nothing blocks it: the
/// union of the targets of its steps. Lets the generator skip a piece with nothing to
/// capture before looking at its legs or eyes.
pub const HORSE_REACH: [BitBoard; Square::COUNT] = reach(&HORSE_STEPS);
/// See [`HORSE_REACH`].
pub const ELEPHANT_REACH: [BitBoard; Square::COUNT] = reach(&ELEPHANT_STEPS);

const fn reach(steps: &[[BlockableStep; 4]; Square::COUNT]) -> [BitBoard; Square::COUNT] {
    let mut table = [BitBoard::EMPTY; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let mut bits = 0u128;
        let mut d = 0;
        while d < 4 {
            bits |= steps[i][d].targets.0;
            d += 1;
        }
        table[i] = BitBoard(bits);
        i += 1;
    }
    table
}

/// Horses that attack a square, by the diagonal neighbour that serves as their leg:
/// `HORSE_ATTACKERS[sq][diag]` (a horse two files and one rank away, or one file and two
/// ranks away, jumps towards `sq` past the diagonal neighbour between them).
pub const HORSE_ATTACKERS: [[BlockableStep; 4]; Square::COUNT] = {
    let mut table = [[NO_STEP; 4]; Square::COUNT];
    let mut i = 0;
    while i < Square::COUNT {
        let target = Square::ALL[i];
        let mut d = 0;
        while d < 4 {
            let (df, dr) = DIAGONAL[d];
            if let Some(leg) = target.offset(df, dr) {
                let mut bits = 0u128;
                if let Some(h) = target.offset(2 * df, dr) {
                    bits |= bb(h);
                }
                if let Some(h) = target.offset(df, 2 * dr) {
                    bits |= bb(h);
                }
                table[i][d] = BlockableStep {
                    block: leg,
                    targets: BitBoard(bits),
                };
            }
            d += 1;
        }
        i += 1;
    }
    table
};

/// Pawn steps: `PAWN_STEPS[color][sq]`, forward, and sideways once across the river.
pub const PAWN_STEPS: [[BitBoard; Square::COUNT]; 2] = {
    let mut table = [[BitBoard::EMPTY; Square::COUNT]; 2];
    let mut c = 0;
    while c < 2 {
        let color = Color::ALL[c];
        let mut i = 0;
        while i < Square::COUNT {
            let from = Square::ALL[i];
            let mut bits = 0u128;
            if let Some(to) = from.offset(0, color.forward()) {
                bits |= bb(to);
            }
            if !BitBoard::home_half(color).has(from) {
                if let Some(to) = from.offset(1, 0) {
                    bits |= bb(to);
                }
                if let Some(to) = from.offset(-1, 0) {
                    bits |= bb(to);
                }
            }
            table[c][i] = BitBoard(bits);
            i += 1;
        }
        c += 1;
    }
    table
};

/// Squares from which a pawn of `color` attacks a square: `PAWN_ATTACKERS[color][sq]`.
pub const PAWN_ATTACKERS: [[BitBoard; Square::COUNT]; 2] = {
    let mut table = [[BitBoard::EMPTY; Square::COUNT]; 2];
    let mut c = 0;
    while c < 2 {
        let mut from = 0;
        while from < Square::COUNT {
            let mut to = 0;
            while to < Square::COUNT {
                if PAWN_STEPS[c][from].has(Square::ALL[to]) {
                    table[c][to] = BitBoard(table[c][to].0 | 1u128 << from);
                }
                to += 1;
            }
            from += 1;
        }
        c += 1;
    }
    table
};

/// The file and rank through a square and its four diagonal neighbours: the only
/// squares whose emptying can open an attack on a king there (lines for rooks, cannons
/// and the facing king; diagonal neighbours are the legs of horses aimed at it).
pub const LINES_AND_LEGS: [BitBoard; Square::COUNT] = {
    let mut table = [BitBoard::EMPTY; Square::COUNT];
    let mut k = 0;
    while k < Square::COUNT {
        let mut bits = RAYS[0][k].0 | RAYS[1][k].0 | RAYS[2][k].0 | RAYS[3][k].0;
        let mut d = 0;
        while d < 4 {
            if let Some(leg) = Square::ALL[k].offset(DIAGONAL[d].0, DIAGONAL[d].1) {
                bits |= bb(leg);
            }
            d += 1;
        }
        table[k] = BitBoard(bits);
        k += 1;
    }
    table
};

/// Squares where a move must start or end to possibly give check to a king of the other
/// colour on a square: `CHECK_RELEVANT[attacker colour][king square]`. They are the king's
/// file and rank (rooks, cannons, screens, facing kings), the horse squares around it and
/// their legs, and the squares from which the attacker's pawns reach it.
pub const CHECK_RELEVANT: [[BitBoard; Square::COUNT]; 2] = {
    let mut table = [[BitBoard::EMPTY; Square::COUNT]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < Square::COUNT {
            let mut bits = PAWN_ATTACKERS[c][k].0;
            let mut d = 0;
            while d < 4 {
                bits |= RAYS[d][k].0;
                let step = HORSE_ATTACKERS[k][d];
                if step.targets.0 != 0 {
                    bits |= step.targets.0 | 1u128 << step.block.index();
                }
                d += 1;
            }
            table[c][k] = BitBoard(bits);
            k += 1;
        }
        c += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).expect("square")
    }

    #[test]
    fn step_tables_match_the_rules() {
        assert_eq!(KING_STEPS[sq("e0").index()].count(), 3);
        assert_eq!(KING_STEPS[sq("e1").index()].count(), 4);
        assert_eq!(KING_STEPS[sq("d2").index()].count(), 2);
        assert_eq!(ADVISOR_STEPS[sq("e8").index()].count(), 4);
        assert_eq!(ADVISOR_STEPS[sq("d9").index()].count(), 1);
        let c4: BitBoard = ELEPHANT_STEPS[sq("c4").index()]
            .iter()
            .fold(BitBoard::EMPTY, |a, s| a | s.targets);
        assert_eq!(c4, BitBoard::EMPTY.with(sq("a2")).with(sq("e2")));
        assert_eq!(ELEPHANT_REACH[sq("c4").index()], c4);
        assert_eq!(HORSE_REACH[sq("e4").index()].count(), 8);
        let h0: BitBoard = HORSE_STEPS[sq("b0").index()]
            .iter()
            .fold(BitBoard::EMPTY, |a, s| a | s.targets);
        assert_eq!(
            h0,
            BitBoard::EMPTY.with(sq("a2")).with(sq("c2")).with(sq("d1"))
        );
        assert_eq!(
            PAWN_STEPS[0][sq("e3").index()],
            BitBoard::EMPTY.with(sq("e4"))
        );
        assert_eq!(PAWN_STEPS[0][sq("e5").index()].count(), 3);
        assert_eq!(PAWN_STEPS[1][sq("e4").index()].count(), 3);
        assert_eq!(PAWN_STEPS[0][sq("e9").index()].count(), 2);
        assert_eq!(RAYS[0][sq("a0").index()].count(), 9);
        assert_eq!(RAYS[1][sq("a0").index()].count(), 8);
    }

    #[test]
    fn horse_attackers_invert_horse_steps() {
        for target in Square::ALL {
            let mut from_steps = BitBoard::EMPTY;
            for from in Square::ALL {
                for step in HORSE_STEPS[from.index()] {
                    if step.targets.has(target) {
                        from_steps = from_steps.with(from);
                    }
                }
            }
            let attackers = HORSE_ATTACKERS[target.index()]
                .iter()
                .fold(BitBoard::EMPTY, |a, s| a | s.targets);
            assert_eq!(attackers, from_steps, "horse attackers of {target}");
            // Horse moves are symmetric (`king_attackers` relies on it).
            assert_eq!(
                attackers,
                HORSE_REACH[target.index()],
                "horse reach of {target}"
            );
        }
    }
}
