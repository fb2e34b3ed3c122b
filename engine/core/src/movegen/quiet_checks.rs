//! The quiet moves that give check, generated without the others: at a node where
//! futility pruning drops every quiet move but checks, the search needs only these.

use super::attacks::Attackers;
use super::attacks::{
    before, cannon_moves, elephant_attacks, horse_attacks, nearest, rook_attacks,
};
use super::check::{checks_after, may_discover_check};
use super::legal::{emit, LegalFilter};
use super::movelist::MoveList;
use super::tables::{ADVISOR_STEPS, HORSE_ATTACKERS, KING_STEPS, PAWN_ATTACKERS, PAWN_STEPS, RAYS};
use crate::board::{BitBoard, Move, PieceKind, Position};

/// Empty points where a piece of our side arriving from outside the enemy king's lines
/// and horse legs gives check, per kind.
struct CheckPoints {
    rook: BitBoard,
    cannon: BitBoard,
    horse: BitBoard,
    pawn: BitBoard,
    /// Between the king and our cannon, with nothing in between: any piece there
    /// becomes the cannon's screen.
    screen: BitBoard,
}

impl CheckPoints {
    fn new(pos: &Position, occ: BitBoard) -> CheckPoints {
        let us = pos.side_to_move();
        let king = pos.king(!us);
        let empty = BitBoard(!occ.0 & BitBoard::FULL.0);
        let cannons = pos.pieces_of(us, PieceKind::Cannon).0;
        let mut horse = BitBoard::EMPTY;
        for step in &HORSE_ATTACKERS[king.index()] {
            if !occ.has(step.block) {
                horse |= step.targets;
            }
        }
        let (mut cannon, mut screen) = (0u128, 0u128);
        add_lines::<0>(king.index(), occ.0, cannons, &mut cannon, &mut screen);
        add_lines::<1>(king.index(), occ.0, cannons, &mut cannon, &mut screen);
        add_lines::<2>(king.index(), occ.0, cannons, &mut cannon, &mut screen);
        add_lines::<3>(king.index(), occ.0, cannons, &mut cannon, &mut screen);
        CheckPoints {
            rook: rook_attacks(king, occ) & empty,
            cannon: BitBoard(cannon) & empty,
            horse: horse & empty,
            pawn: PAWN_ATTACKERS[us.index()][king.index()] & empty,
            screen: BitBoard(screen),
        }
    }
}

/// On the ray `DIR` from the king: the points behind exactly one piece (a cannon there
/// checks) and, when the first piece is our cannon, the points before it (screens).
#[inline(always)]
fn add_lines<const DIR: usize>(
    king: usize,
    occ: u128,
    cannons: u128,
    cannon: &mut u128,
    screen: &mut u128,
) {
    let ray = RAYS[DIR][king].0;
    let blockers = ray & occ;
    let first = nearest::<DIR>(blockers);
    if first == 0 {
        return;
    }
    let second = nearest::<DIR>(blockers ^ first);
    *cannon |= before::<DIR>(ray, second) & !before::<DIR>(ray, first) & !first;
    if first & cannons != 0 {
        *screen |= before::<DIR>(ray, first);
    }
}

/// Replaces the contents of `list` with the legal quiet moves that give check, as
/// `legal_quiets` filtered by `gives_check` would (in another order). A piece whose
/// leaving uncovers nothing (see `may_discover_check`) gives check exactly when it
/// arrives on a check point of its kind or on a screen point: only those targets are
/// generated for it, untested. Every other piece's quiet moves are generated and each
/// is tested.
pub fn generate_quiet_checks(pos: &Position, filter: &LegalFilter, list: &mut MoveList) {
    list.clear();
    let us = pos.side_to_move();
    let occ = pos.occupied();
    let quiet = BitBoard(!occ.0 & BitBoard::FULL.0);
    let points = CheckPoints::new(pos, occ);
    let enemy_king = pos.king(!us);
    let ours = Attackers::of(pos, us);
    let mut add = |kind, from, moves: BitBoard, own: BitBoard| {
        if may_discover_check(pos, from, enemy_king) {
            let start = list.len();
            emit(filter, from, moves & quiet, list);
            list.retain_from(start, |m| {
                checks_after(pos, kind, from, m.to(), enemy_king, ours)
            });
        } else {
            emit(filter, from, moves & (own | points.screen) & quiet, list);
        }
    };
    for from in pos.pieces_of(us, PieceKind::Rook) {
        add(PieceKind::Rook, from, rook_attacks(from, occ), points.rook);
    }
    for from in pos.pieces_of(us, PieceKind::Cannon) {
        add(
            PieceKind::Cannon,
            from,
            cannon_moves(from, occ).0,
            points.cannon,
        );
    }
    for from in pos.pieces_of(us, PieceKind::Horse) {
        add(
            PieceKind::Horse,
            from,
            horse_attacks(from, occ),
            points.horse,
        );
    }
    for from in pos.pieces_of(us, PieceKind::Pawn) {
        let steps = PAWN_STEPS[us.index()][from.index()];
        add(PieceKind::Pawn, from, steps, points.pawn);
    }
    for from in pos.pieces_of(us, PieceKind::Elephant) {
        let steps = elephant_attacks(from, occ);
        add(PieceKind::Elephant, from, steps, BitBoard::EMPTY);
    }
    for from in pos.pieces_of(us, PieceKind::Advisor) {
        let steps = ADVISOR_STEPS[from.index()];
        add(PieceKind::Advisor, from, steps, BitBoard::EMPTY);
    }
    // The king only checks by uncovering: its moves are tested for both (the filter
    // passes every king move untested).
    let king = pos.king(us);
    if may_discover_check(pos, king, enemy_king) {
        for to in KING_STEPS[king.index()] & quiet {
            if checks_after(pos, PieceKind::King, king, to, enemy_king, ours)
                && filter.king_safe_after(king, to)
            {
                list.push(Move::new(king, to));
            }
        }
    }
}
