//! Legal move generation.
//!
//! Moves are generated per piece from the attack tables and filtered for legality with
//! sets computed once per position instead of playing every move:
//! - `pinned`: own pieces whose leaving could expose the king: the only piece between
//!   the king and an enemy rook (or the facing enemy king), one of the two pieces
//!   between the king and an enemy cannon, or the leg of an enemy horse aimed at the
//!   king;
//! - `screens`: empty points between the king and an enemy cannon with nothing in
//!   between, where any piece would become the cannon's screen.
//!
//! When the side to move is not in check, a non-king move from outside `pinned` to a
//! point outside `screens` is legal without further test (see the proof in
//! `LegalFilter::new`). Every other move — king moves, moves of pinned pieces, moves onto
//! screens and every move while in check — gets an exact test: the king's attackers are
//! recomputed with the occupancy after the move.

use super::attacks::{
    cannon_moves, elephant_attacks, horse_attacks, king_attackers, rook_attacks, Attackers,
};
use super::movelist::MoveList;
use super::tables::{ADVISOR_STEPS, HORSE_ATTACKERS, KING_STEPS, PAWN_STEPS, RAYS};
use crate::board::{BitBoard, Move, PieceKind, Position, Square};

/// Per-position facts for the legality filter.
struct LegalFilter {
    king: Square,
    occ: BitBoard,
    enemy: Attackers,
    in_check: bool,
    pinned: BitBoard,
    screens: BitBoard,
}

impl LegalFilter {
    /// Why the fast path is exact when not in check. After a non-king move from `f` to
    /// `t` the king can only become attacked if the move changes one of the attack
    /// conditions, since the attackers themselves did not move:
    /// - a line to an enemy rook or king opens: `f` was the only piece on it (pinned);
    /// - a cannon line gets exactly one screen: either `f` was one of two pieces on it
    ///   (pinned), or `t` is an empty point on a line with no piece yet (screens); a
    ///   capture on `t` leaves the occupancy of `t` unchanged;
    /// - a horse leg empties: `f` was that leg (pinned);
    /// - pawns are not blocked by anything.
    #[inline]
    fn new(pos: &Position) -> LegalFilter {
        let us = pos.side_to_move();
        let king = pos.king(us);
        let occ = pos.occupied();
        let own = pos.color_bb(us);
        let enemy = Attackers::of(pos, !us);
        let mut checkers = super::tables::PAWN_ATTACKERS[(!us).index()][king.index()] & enemy.pawns;
        let mut pinned = BitBoard::EMPTY;
        let mut screens = BitBoard::EMPTY;

        for step in &HORSE_ATTACKERS[king.index()] {
            let aimed = step.targets & enemy.horses;
            if aimed.any() {
                if !occ.has(step.block) {
                    checkers |= aimed;
                } else if own.has(step.block) {
                    pinned = pinned.with(step.block);
                }
            }
        }
        for (dir, rays) in RAYS.iter().enumerate() {
            let ray = rays[king.index()];
            let mut blockers = (ray & occ).0;
            let Some(b1) = pop_first(dir, &mut blockers) else {
                continue;
            };
            if enemy.rook_like.has(b1) {
                checkers = checkers.with(b1);
            }
            if enemy.cannons.has(b1) {
                screens |= ray ^ RAYS[dir][b1.index()] ^ BitBoard::from_square(b1);
            }
            let Some(b2) = pop_first(dir, &mut blockers) else {
                continue;
            };
            if enemy.rook_like.has(b2) && own.has(b1) {
                pinned = pinned.with(b1);
            }
            if enemy.cannons.has(b2) {
                checkers = checkers.with(b2);
            }
            if let Some(b3) = pop_first(dir, &mut blockers) {
                if enemy.cannons.has(b3) {
                    pinned |= (BitBoard::from_square(b1) | BitBoard::from_square(b2)) & own;
                }
            }
        }
        LegalFilter {
            king,
            occ,
            enemy,
            in_check: checkers.any(),
            pinned,
            screens,
        }
    }

    /// Exact test: the king is safe after moving `from` -> `to`.
    #[inline]
    fn king_safe_after(&self, from: Square, to: Square) -> bool {
        let occ = self.occ.without(from).with(to);
        let king = if from == self.king { to } else { self.king };
        let enemy = self.enemy.without(BitBoard::from_square(to));
        king_attackers(king, occ, &enemy).is_empty()
    }

    /// Whether moves of the piece on `from` need the exact test.
    #[inline]
    fn needs_test(&self, from: Square) -> bool {
        self.in_check || self.pinned.has(from)
    }
}

/// Removes and returns the first blocker on a ray (see `first_on_ray`).
#[inline(always)]
fn pop_first(dir: usize, blockers: &mut u128) -> Option<Square> {
    if *blockers == 0 {
        return None;
    }
    let index = if dir < 2 {
        blockers.trailing_zeros()
    } else {
        127 - blockers.leading_zeros()
    };
    *blockers &= !(1u128 << index);
    Square::new(index as u8)
}

/// Where generated moves go: a list, or just a count.
trait Sink {
    fn add(&mut self, from: Square, to: Square);
    /// Adds moves from `from` to every point of `targets`.
    fn add_all(&mut self, from: Square, targets: BitBoard);
}

impl Sink for MoveList {
    #[inline]
    fn add(&mut self, from: Square, to: Square) {
        self.push(Move::new(from, to));
    }

    #[inline]
    fn add_all(&mut self, from: Square, targets: BitBoard) {
        for to in targets {
            self.push(Move::new(from, to));
        }
    }
}

struct Counter(usize);

impl Sink for Counter {
    #[inline]
    fn add(&mut self, _from: Square, _to: Square) {
        self.0 += 1;
    }

    #[inline]
    fn add_all(&mut self, _from: Square, targets: BitBoard) {
        self.0 += targets.count() as usize;
    }
}

/// Emits the legal moves among `targets` of the piece on `from`.
#[inline(always)]
fn emit<S: Sink>(filter: &LegalFilter, from: Square, targets: BitBoard, sink: &mut S) {
    if filter.needs_test(from) {
        for to in targets {
            if filter.king_safe_after(from, to) {
                sink.add(from, to);
            }
        }
    } else {
        sink.add_all(from, targets & !filter.screens);
        for to in targets & filter.screens {
            if filter.king_safe_after(from, to) {
                sink.add(from, to);
            }
        }
    }
}

/// Generates legal moves whose target is in `allowed` (all non-own points, or enemy
/// pieces only for captures).
#[inline(always)]
fn generate<S: Sink>(pos: &Position, captures_only: bool, sink: &mut S) {
    let us = pos.side_to_move();
    let filter = LegalFilter::new(pos);
    let occ = filter.occ;
    let enemy_pieces = pos.color_bb(!us);
    let allowed = if captures_only {
        enemy_pieces
    } else {
        !pos.color_bb(us)
    };

    for from in pos.pieces_of(us, PieceKind::Rook) {
        emit(&filter, from, rook_attacks(from, occ) & allowed, sink);
    }
    for from in pos.pieces_of(us, PieceKind::Cannon) {
        let (quiet, captures) = cannon_moves(from, occ);
        let targets = if captures_only {
            captures & enemy_pieces
        } else {
            quiet | captures & enemy_pieces
        };
        emit(&filter, from, targets, sink);
    }
    for from in pos.pieces_of(us, PieceKind::Horse) {
        emit(&filter, from, horse_attacks(from, occ) & allowed, sink);
    }
    for from in pos.pieces_of(us, PieceKind::Pawn) {
        emit(
            &filter,
            from,
            PAWN_STEPS[us.index()][from.index()] & allowed,
            sink,
        );
    }
    for from in pos.pieces_of(us, PieceKind::Elephant) {
        emit(&filter, from, elephant_attacks(from, occ) & allowed, sink);
    }
    for from in pos.pieces_of(us, PieceKind::Advisor) {
        emit(&filter, from, ADVISOR_STEPS[from.index()] & allowed, sink);
    }
    let king = filter.king;
    for to in KING_STEPS[king.index()] & allowed {
        if filter.king_safe_after(king, to) {
            sink.add(king, to);
        }
    }
}

/// All legal moves of the side to move.
#[must_use]
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, false, &mut list);
    list
}

/// The legal captures of the side to move (a subset of [`legal_moves`]).
#[must_use]
pub fn legal_captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, true, &mut list);
    list
}

/// The number of legal moves, without listing them.
#[must_use]
pub fn count_legal(pos: &Position) -> usize {
    let mut counter = Counter(0);
    generate(pos, false, &mut counter);
    counter.0
}

/// Whether the side to move has at least one legal move.
#[must_use]
pub fn has_legal_move(pos: &Position) -> bool {
    count_legal(pos) > 0
}

/// Whether `m` is legal in `pos` (for moves from outside: engines, files, hash tables).
#[must_use]
pub fn is_legal(pos: &Position, m: Move) -> bool {
    let (from, to) = (m.from(), m.to());
    let us = pos.side_to_move();
    let Some(piece) = pos.piece_at(from) else {
        return false;
    };
    if piece.color() != us || pos.color_bb(us).has(to) {
        return false;
    }
    let occ = pos.occupied();
    let reachable = match piece.kind() {
        PieceKind::Cannon => {
            let (quiet, captures) = cannon_moves(from, occ);
            quiet | captures & pos.color_bb(!us)
        }
        kind => super::attacks::piece_attacks(kind, us, from, occ),
    };
    if !reachable.has(to) {
        return false;
    }
    let king = if piece.kind() == PieceKind::King {
        to
    } else {
        pos.king(us)
    };
    let enemy = Attackers::of(pos, !us).without(BitBoard::from_square(to));
    king_attackers(king, occ.without(from).with(to), &enemy).is_empty()
}

/// Whether the legal move `m` gives check.
#[must_use]
pub fn gives_check(pos: &Position, m: Move) -> bool {
    let us = pos.side_to_move();
    let (from, to) = (m.from(), m.to());
    let Some(piece) = pos.piece_at(from) else {
        return false;
    };
    let moved = BitBoard::from_square(from) | BitBoard::from_square(to);
    let mut ours = Attackers::of(pos, us);
    match piece.kind() {
        PieceKind::Rook | PieceKind::King => ours.rook_like ^= moved,
        PieceKind::Cannon => ours.cannons ^= moved,
        PieceKind::Horse => ours.horses ^= moved,
        PieceKind::Pawn => ours.pawns ^= moved,
        PieceKind::Advisor | PieceKind::Elephant => {}
    }
    let occ = pos.occupied().without(from).with(to);
    king_attackers(pos.king(!us), occ, &ours).any()
}
