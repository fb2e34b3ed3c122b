//! What several terms need, computed once per evaluation: piece counts, the attack state
//! and phase material (cheap, from bitboards), and per-side attack maps (built once for
//! levels 3 and up and shared by every term that asks "is this square attacked or
//! protected").

use super::geometry::enemy_half;
use super::weights::{
    ATTACK_STATE_LEAD, ATTACK_STATE_MAJOR, ATTACK_STATE_MAX, ATTACK_STATE_MINOR, PHASE_MINOR,
    PHASE_OTHER, PHASE_ROOK,
};
use crate::board::{BitBoard, Color, PieceKind, Position, Square};
use crate::movegen::tables::{ADVISOR_STEPS, KING_STEPS, PAWN_STEPS};
use crate::movegen::{cannon_control, elephant_attacks, horse_attacks, rook_attacks};

/// Most rooks, horses and cannons a side can have (two of each; FEN validation keeps it).
const MAX_MAJORS: usize = 6;

/// A rook, horse or cannon with its attack sets.
#[derive(Clone, Copy, Debug)]
pub struct Major {
    /// Rook, horse or cannon.
    pub kind: PieceKind,
    /// Where it stands.
    pub sq: Square,
    /// Points it attacks or protects, whoever stands there (for a cannon: the points
    /// behind its screen up to and including the next piece).
    pub attacks: BitBoard,
    /// Points it moves to or captures on, whoever stands there (equal to `attacks`
    /// except for a cannon: its empty points before the screen, and its capture).
    pub moves: BitBoard,
}

/// The attack maps of one side.
#[derive(Clone, Copy, Debug)]
pub struct SideMaps {
    /// Points attacked by at least one piece of each kind, indexed by kind.
    pub by_kind: [BitBoard; PieceKind::COUNT],
    /// Points attacked by any piece of the side (a piece on such a point is protected,
    /// or attacked when it is the other side's).
    pub all: BitBoard,
    majors: [Major; MAX_MAJORS],
    major_count: usize,
}

impl SideMaps {
    /// The maps of one side with the occupancy of the position.
    #[must_use]
    #[inline]
    pub fn new(pos: &Position, color: Color) -> SideMaps {
        let occ = pos.occupied();
        let filler = Major {
            kind: PieceKind::Rook,
            sq: Square::ALL[0],
            attacks: BitBoard::EMPTY,
            moves: BitBoard::EMPTY,
        };
        let mut maps = SideMaps {
            by_kind: [BitBoard::EMPTY; PieceKind::COUNT],
            all: BitBoard::EMPTY,
            majors: [filler; MAX_MAJORS],
            major_count: 0,
        };
        for sq in pos.pieces_of(color, PieceKind::Rook) {
            let attacks = rook_attacks(sq, occ);
            maps.push(PieceKind::Rook, sq, attacks, attacks);
        }
        for sq in pos.pieces_of(color, PieceKind::Horse) {
            let attacks = horse_attacks(sq, occ);
            maps.push(PieceKind::Horse, sq, attacks, attacks);
        }
        for sq in pos.pieces_of(color, PieceKind::Cannon) {
            let (attacks, moves) = cannon_control(sq, occ);
            maps.push(PieceKind::Cannon, sq, attacks, moves);
        }
        let by_kind = &mut maps.by_kind;
        for sq in pos.pieces_of(color, PieceKind::Pawn) {
            by_kind[PieceKind::Pawn.index()] |= PAWN_STEPS[color.index()][sq.index()];
        }
        for sq in pos.pieces_of(color, PieceKind::Advisor) {
            by_kind[PieceKind::Advisor.index()] |= ADVISOR_STEPS[sq.index()];
        }
        for sq in pos.pieces_of(color, PieceKind::Elephant) {
            by_kind[PieceKind::Elephant.index()] |= elephant_attacks(sq, occ);
        }
        by_kind[PieceKind::King.index()] = KING_STEPS[pos.king(color).index()];
        maps.all = by_kind.iter().fold(BitBoard::EMPTY, |acc, &set| acc | set);
        maps
    }

    /// Records a rook, horse or cannon (FEN validation keeps them at six at most).
    #[inline]
    fn push(&mut self, kind: PieceKind, sq: Square, attacks: BitBoard, moves: BitBoard) {
        self.by_kind[kind.index()] |= attacks;
        if let Some(slot) = self.majors.get_mut(self.major_count) {
            *slot = Major {
                kind,
                sq,
                attacks,
                moves,
            };
            self.major_count += 1;
        }
    }

    /// The side's rooks, horses and cannons with their attack sets.
    #[must_use]
    #[inline]
    pub fn majors(&self) -> &[Major] {
        &self.majors[..self.major_count]
    }
}

/// Whether a set has at most `n` squares (clears the lowest `n` bits).
#[must_use]
#[inline]
pub fn at_most(set: BitBoard, n: u32) -> bool {
    let mut bits = set.0;
    for _ in 0..n {
        bits &= bits.wrapping_sub(1);
    }
    bits == 0
}

/// The number of squares in a set known to be small (a piece kind of one side, a few
/// crossed pawns): clearing bits one by one beats a software popcount of 128 bits, which
/// is what the default x86-64 target compiles `count_ones` to.
#[must_use]
#[inline]
pub fn few(set: BitBoard) -> i32 {
    let (mut bits, mut n) = (set.0, 0);
    while bits != 0 {
        bits &= bits - 1;
        n += 1;
    }
    n
}

/// Per-evaluation facts shared by the terms.
#[derive(Clone, Copy, Debug)]
pub struct EvalContext<'a> {
    /// The position evaluated.
    pub pos: &'a Position,
    /// All occupied points.
    pub occ: BitBoard,
    /// Number of each side's pawns across the river.
    pub crossed_pawns: [i32; 2],
    /// Attack state A_S of each side, 0..=8 (`docs/evaluation.md`, shared quantities).
    pub attack_state: [i32; 2],
    /// Phase material M over both sides, 0..=66 (`docs/evaluation.md`, shared quantities).
    pub phase_material: i32,
}

impl<'a> EvalContext<'a> {
    /// The cheap facts of a position (no attack maps).
    #[must_use]
    pub fn new(pos: &'a Position) -> EvalContext<'a> {
        let mut crossed_pawns = [0; 2];
        for c in Color::ALL {
            crossed_pawns[c.index()] = few(pos.pieces_of(c, PieceKind::Pawn) & enemy_half(c));
        }
        let simple = |c: Color| {
            let n = |kind: PieceKind| pos.count_of(c, kind);
            2 * n(PieceKind::Rook) + n(PieceKind::Horse) + n(PieceKind::Cannon)
        };
        let attack_state = Color::ALL.map(|c| {
            let across = |kind: PieceKind| few(pos.pieces_of(c, kind) & enemy_half(c));
            let raw = ATTACK_STATE_MAJOR * (across(PieceKind::Rook) + across(PieceKind::Horse))
                + ATTACK_STATE_MINOR * (across(PieceKind::Cannon) + crossed_pawns[c.index()])
                + ATTACK_STATE_LEAD * (simple(c) - simple(!c)).max(0);
            raw.min(ATTACK_STATE_MAX)
        });
        let phase_material = Color::ALL
            .iter()
            .map(|&c| {
                let k = |kind: PieceKind| pos.count_of(c, kind);
                PHASE_ROOK * k(PieceKind::Rook)
                    + PHASE_MINOR * (k(PieceKind::Horse) + k(PieceKind::Cannon))
                    + PHASE_OTHER
                        * (k(PieceKind::Advisor) + k(PieceKind::Elephant) + k(PieceKind::Pawn))
            })
            .sum();
        EvalContext {
            pos,
            occ: pos.occupied(),
            crossed_pawns,
            attack_state,
            phase_material,
        }
    }

    /// How many pieces of a kind a side has (kept by the position).
    #[must_use]
    #[inline]
    pub fn count(&self, color: Color, kind: PieceKind) -> i32 {
        self.pos.count_of(color, kind)
    }
}

/// The attack maps of both sides, Red first.
#[must_use]
pub fn both_maps(pos: &Position) -> [SideMaps; 2] {
    [
        SideMaps::new(pos, Color::Red),
        SideMaps::new(pos, Color::Black),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).expect("square")
    }

    #[test]
    fn start_position_facts() {
        let pos = Position::startpos();
        let ctx = EvalContext::new(&pos);
        assert_eq!(ctx.phase_material, 66);
        assert_eq!(ctx.attack_state, [0, 0]);
        let [red, black] = both_maps(&pos);
        assert_eq!(red.majors().len(), 6);
        // The cannon on b2 does not protect the horse on b0 (no screen between them) but
        // attacks the horse on b9 over Black's cannon on b7.
        assert!(!red.by_kind[PieceKind::Cannon.index()].has(sq("b0")));
        assert!(red.by_kind[PieceKind::Cannon.index()].has(sq("b9")));
        assert!(red.all.has(sq("e1")) && black.all.has(sq("e8")));
    }

    #[test]
    fn attack_state_counts_crossed_pieces_and_lead() {
        // Red: rook and horse across the river, a pawn across; Black: nothing but a rook.
        let pos = Position::from_fen("3k5/9/4R4/2N6/4P4/9/9/9/9/4K3r w").expect("fen");
        let ctx = EvalContext::new(&pos);
        // 2*(1 + 1) + 1 + 2*max(0, 3 - 2) = 7
        assert_eq!(ctx.attack_state[0], 7);
        // Black's rook on i0 is across the river too.
        assert_eq!(ctx.attack_state[1], 2);
        assert_eq!(ctx.phase_material, 6 + 3 + 1 + 6);
    }
}
