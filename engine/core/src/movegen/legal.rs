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
//!
//! The search, which plays few of the moves it generates, can instead generate with
//! [`LegalFilter::untested`] (the pseudo-legal moves) and test each move only when it
//! comes up, with [`LegalFilter::admits`] or [`capture_keeps_king_safe`].

use super::attacks::{
    before, cannon_hits, cannon_moves, elephant_attacks, horse_attacks, king_attackers, nearest,
    rook_attacks, rook_hits, Attackers,
};
use super::movelist::MoveList;
use super::tables::{
    ADVISOR_STEPS, ELEPHANT_REACH, FILES, HORSE_ATTACKERS, HORSE_REACH, KING_STEPS, LINES_AND_LEGS,
    PAWN_STEPS, RAYS,
};
use crate::board::{BitBoard, Color, Move, PieceKind, Position, Square};

/// Per-position facts for the legality filter. Computed once per position, it serves
/// every generation of that position (captures first, quiet moves later).
#[derive(Clone, Debug)]
pub struct LegalFilter {
    king: Square,
    occ: BitBoard,
    enemy: Attackers,
    in_check: bool,
    pinned: BitBoard,
    screens: BitBoard,
    /// When in check, the points a non-king move must reach to possibly be legal: the
    /// checkers, the points between a checking line piece and the king, and the legs of
    /// checking horses.
    evasions: BitBoard,
    /// The screens of checking cannons: moving one of them away may end the check
    /// wherever it goes.
    checking_screens: BitBoard,
    /// A filter that tests nothing, not even king moves (see [`LegalFilter::untested`]).
    untested: bool,
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
    #[must_use]
    #[inline]
    pub fn new(pos: &Position) -> LegalFilter {
        let us = pos.side_to_move();
        let king = pos.king(us);
        let occ = pos.occupied();
        let own = pos.color_bb(us);
        let enemy = Attackers::of(pos, !us);
        let mut checkers = super::tables::PAWN_ATTACKERS[(!us).index()][king.index()] & enemy.pawns;
        let mut pinned = BitBoard::EMPTY;
        let mut evasions = checkers;

        // With no enemy horse within a horse's reach of the king, no leg matters.
        let horse_steps: &[_] = if (HORSE_REACH[king.index()] & enemy.horses).any() {
            &HORSE_ATTACKERS[king.index()]
        } else {
            &[]
        };
        for step in horse_steps {
            let aimed = step.targets & enemy.horses;
            if aimed.any() {
                if !occ.has(step.block) {
                    checkers |= aimed;
                    evasions |= aimed.with(step.block);
                } else if own.has(step.block) {
                    pinned = pinned.with(step.block);
                }
            }
        }
        let mut lines = LineFacts::default();
        lines.add::<0>(king, occ, own, &enemy);
        lines.add::<1>(king, occ, own, &enemy);
        lines.add::<2>(king, occ, own, &enemy);
        lines.add::<3>(king, occ, own, &enemy);
        checkers.0 |= lines.checkers;
        pinned.0 |= lines.pinned;
        evasions.0 |= lines.evasions;
        LegalFilter {
            king,
            occ,
            enemy,
            in_check: checkers.any(),
            pinned,
            screens: BitBoard(lines.screens),
            evasions,
            checking_screens: BitBoard(lines.checking_screens),
            untested: false,
        }
    }

    /// A filter that lets every move through untested: generation with it yields the
    /// pseudo-legal moves, for callers that test only the moves they play (with
    /// [`LegalFilter::admits`] or [`capture_keeps_king_safe`]). Most generated moves are
    /// never played: a cutoff comes first.
    #[must_use]
    #[inline]
    pub fn untested(pos: &Position) -> LegalFilter {
        let us = pos.side_to_move();
        LegalFilter {
            king: pos.king(us),
            occ: pos.occupied(),
            enemy: Attackers::of(pos, !us),
            in_check: false,
            pinned: BitBoard::EMPTY,
            screens: BitBoard::EMPTY,
            evasions: BitBoard::EMPTY,
            checking_screens: BitBoard::EMPTY,
            untested: true,
        }
    }

    /// Exact test: the king is safe after moving `from` -> `to`.
    #[inline]
    pub(super) fn king_safe_after(&self, from: Square, to: Square) -> bool {
        let occ = self.occ.without(from).with(to);
        let king = if from == self.king { to } else { self.king };
        let enemy = self.enemy.without(BitBoard::from_square(to));
        king_attackers(king, occ, &enemy).is_empty()
    }

    /// Whether `m` is legal in `pos`, the position this filter was made for: the answer
    /// of [`is_legal`], found without recomputing the king's attackers for most moves.
    #[must_use]
    pub fn allows(&self, pos: &Position, m: Move) -> bool {
        is_pseudo_legal(pos, m) && self.admits(m)
    }

    /// Whether the pseudo-legal move `m` of the position this filter was made for is
    /// legal (for moves generated with [`LegalFilter::untested`]).
    #[must_use]
    #[inline]
    pub fn admits(&self, m: Move) -> bool {
        let (from, to) = (m.from(), m.to());
        if from == self.king {
            return self.king_safe_after(from, to);
        }
        if self.needs_test(from) {
            let target = BitBoard::from_square(to);
            return self.candidates(from, target).any() && self.king_safe_after(from, to);
        }
        !self.screens.has(to) || self.king_safe_after(from, to)
    }

    /// Whether moves of the piece on `from` need the exact test.
    #[inline]
    fn needs_test(&self, from: Square) -> bool {
        self.in_check || self.pinned.has(from)
    }

    /// The targets of a non-king piece on `from` worth the exact test: all of them,
    /// except in check, when a move that neither captures a checker, nor blocks a line
    /// or a leg of one, nor moves a checking cannon's screen away leaves the king in
    /// check.
    #[inline]
    fn candidates(&self, from: Square, targets: BitBoard) -> BitBoard {
        if self.in_check && !self.checking_screens.has(from) {
            targets & self.evasions
        } else {
            targets
        }
    }
}

/// What the lines through the king contribute to a [`LegalFilter`], as bit sets.
#[derive(Default)]
struct LineFacts {
    checkers: u128,
    pinned: u128,
    screens: u128,
    evasions: u128,
    checking_screens: u128,
}

impl LineFacts {
    /// Adds the facts of the ray `DIR` from the king, from its first three pieces.
    #[inline(always)]
    fn add<const DIR: usize>(
        &mut self,
        king: Square,
        occ: BitBoard,
        own: BitBoard,
        enemy: &Attackers,
    ) {
        let ray = RAYS[DIR][king.index()].0;
        let (rook_like, cannons) = (enemy.rook_like.0, enemy.cannons.0);
        let blockers = ray & occ.0;
        // Checks, pins and screens all need an enemy rook, king or cannon on the ray.
        if ray & (rook_like | cannons) == 0 {
            return;
        }
        let b1 = nearest::<DIR>(blockers);
        if b1 & rook_like != 0 {
            self.checkers |= b1;
            self.evasions |= before::<DIR>(ray, b1) | b1;
        }
        if b1 & cannons != 0 {
            self.screens |= before::<DIR>(ray, b1);
        }
        let beyond = blockers ^ b1;
        if beyond == 0 {
            return;
        }
        let b2 = nearest::<DIR>(beyond);
        if b2 & cannons != 0 {
            self.checkers |= b2;
            self.evasions |= before::<DIR>(ray, b2) | b2;
            self.checking_screens |= b1;
        }
        if b2 & rook_like != 0 {
            self.pinned |= b1 & own.0;
        }
        let b3 = nearest::<DIR>(beyond ^ b2);
        if b3 & cannons != 0 {
            self.pinned |= (b1 | b2) & own.0;
        }
    }
}

/// Where generated moves go: a list, just a count, or a caller's scored list.
pub trait MoveSink {
    fn add(&mut self, from: Square, to: Square);
    /// Adds moves from `from` to every point of `targets`.
    fn add_all(&mut self, from: Square, targets: BitBoard);
    /// Whether the sink wants no more moves: generation then stops after the piece at
    /// hand. Constant `false` for lists and counts, so their generation tests nothing.
    #[inline(always)]
    fn done(&self) -> bool {
        false
    }
}

impl MoveSink for MoveList {
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

/// Whether any move was emitted: [`has_legal_move`] stops at the first.
struct AnyMove(bool);

impl MoveSink for AnyMove {
    #[inline]
    fn add(&mut self, _from: Square, _to: Square) {
        self.0 = true;
    }

    #[inline]
    fn add_all(&mut self, _from: Square, targets: BitBoard) {
        self.0 |= targets.any();
    }

    #[inline(always)]
    fn done(&self) -> bool {
        self.0
    }
}

struct Counter(usize);

impl MoveSink for Counter {
    #[inline]
    fn add(&mut self, _from: Square, _to: Square) {
        self.0 += 1;
    }

    #[inline]
    fn add_all(&mut self, _from: Square, targets: BitBoard) {
        self.0 += targets.count() as usize;
    }
}

/// Emits the moves among `targets` of the piece on `from` that `filter` passes.
#[inline(always)]
pub(super) fn emit<S: MoveSink>(
    filter: &LegalFilter,
    from: Square,
    targets: BitBoard,
    sink: &mut S,
) {
    // Most pieces have no capture at all: skip the legality bookkeeping for them.
    if targets.is_empty() {
        return;
    }
    if filter.needs_test(from) {
        for to in filter.candidates(from, targets) {
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

/// Which legal moves to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GenKind {
    All,
    Captures,
    Quiets,
}

/// Generates the legal moves of one kind.
#[inline(always)]
fn generate<S: MoveSink>(pos: &Position, kind: GenKind, sink: &mut S) {
    let victims = pos.color_bb(!pos.side_to_move());
    generate_filtered(pos, &LegalFilter::new(pos), kind, victims, sink);
}

/// Generates the moves of one kind that `filter` passes; captures only of `victims`
/// (enemy pieces).
#[inline(always)]
fn generate_filtered<S: MoveSink>(
    pos: &Position,
    filter: &LegalFilter,
    kind: GenKind,
    victims: BitBoard,
    sink: &mut S,
) {
    let us = pos.side_to_move();
    let occ = filter.occ;
    let allowed = match kind {
        GenKind::All => !pos.color_bb(us),
        GenKind::Captures => victims,
        GenKind::Quiets => !occ,
    };

    for from in pos.pieces_of(us, PieceKind::Rook) {
        let targets = match kind {
            GenKind::Captures => rook_hits(from, occ),
            GenKind::All | GenKind::Quiets => rook_attacks(from, occ),
        };
        emit(filter, from, targets & allowed, sink);
        if sink.done() {
            return;
        }
    }
    for from in pos.pieces_of(us, PieceKind::Cannon) {
        let targets = match kind {
            GenKind::All => {
                let (quiet, captures) = cannon_moves(from, occ);
                quiet | captures & victims
            }
            GenKind::Captures => cannon_hits(from, occ) & victims,
            GenKind::Quiets => cannon_moves(from, occ).0,
        };
        emit(filter, from, targets, sink);
        if sink.done() {
            return;
        }
    }
    // A horse or elephant that could take nothing even unblocked is skipped before its
    // legs or eyes are looked at (most of them, when generating captures).
    let may_capture = |reach: &[BitBoard; Square::COUNT], from: Square| {
        kind != GenKind::Captures || (reach[from.index()] & victims).any()
    };
    for from in pos.pieces_of(us, PieceKind::Horse) {
        if may_capture(&HORSE_REACH, from) {
            emit(filter, from, horse_attacks(from, occ) & allowed, sink);
            if sink.done() {
                return;
            }
        }
    }
    if kind == GenKind::Captures {
        emit_pawn_captures(pos, filter, victims, sink);
    } else {
        for from in pos.pieces_of(us, PieceKind::Pawn) {
            emit(
                filter,
                from,
                PAWN_STEPS[us.index()][from.index()] & allowed,
                sink,
            );
            if sink.done() {
                return;
            }
        }
    }
    for from in pos.pieces_of(us, PieceKind::Elephant) {
        if may_capture(&ELEPHANT_REACH, from) {
            emit(filter, from, elephant_attacks(from, occ) & allowed, sink);
            if sink.done() {
                return;
            }
        }
    }
    // Advisors and the king never leave the palace: with no victim in it, they take
    // nothing (the usual case when generating captures).
    if kind == GenKind::Captures && (victims & BitBoard::palace(us)).is_empty() {
        return;
    }
    for from in pos.pieces_of(us, PieceKind::Advisor) {
        emit(filter, from, ADVISOR_STEPS[from.index()] & allowed, sink);
        if sink.done() {
            return;
        }
    }
    let king = filter.king;
    let steps = KING_STEPS[king.index()] & allowed;
    if filter.untested {
        sink.add_all(king, steps);
        return;
    }
    for to in steps {
        if filter.king_safe_after(king, to) {
            sink.add(king, to);
        }
    }
}

/// The captures of `victims` by the pawns of the side to move. The pawns that can take
/// something are found for all of them at once by shifting the victims back along the
/// pawn steps: most pawns have nothing to take, and one test for the lot costs less than
/// a look per pawn.
#[inline(always)]
fn emit_pawn_captures<S: MoveSink>(
    pos: &Position,
    filter: &LegalFilter,
    victims: BitBoard,
    sink: &mut S,
) {
    let us = pos.side_to_move();
    let pawns = pos.pieces_of(us, PieceKind::Pawn);
    // Square `n` is file `n % 9` of rank `n / 9`: a step forward is nine squares; the
    // sideways steps (across the river only) never wrap around the edge files.
    let v = victims.0;
    let behind = match us {
        Color::Red => v >> 9,
        Color::Black => v << 9,
    };
    let beside = (v & !FILES[8].0) << 1 | (v & !FILES[0].0) >> 1;
    let crossed = pawns.0 & !BitBoard::home_half(us).0;
    let takers = BitBoard(pawns.0 & behind | crossed & beside);
    for from in takers {
        emit(
            filter,
            from,
            PAWN_STEPS[us.index()][from.index()] & victims,
            sink,
        );
    }
}

/// Replaces the contents of `list` with the legal moves of one kind (for callers that
/// keep their lists between positions).
#[inline]
pub fn generate_into(pos: &Position, kind: GenKind, list: &mut MoveList) {
    list.clear();
    generate(pos, kind, list);
}

/// Like [`generate_into`], reusing a [`LegalFilter`] made for this very position.
#[inline]
pub fn generate_with(pos: &Position, filter: &LegalFilter, kind: GenKind, list: &mut MoveList) {
    list.clear();
    generate_to(pos, filter, kind, list);
}

/// Adds the moves of one kind that `filter` (made for this very position) passes to
/// `sink`: the legal ones, or with [`LegalFilter::untested`] the pseudo-legal ones.
#[inline]
pub fn generate_to<S: MoveSink>(pos: &Position, filter: &LegalFilter, kind: GenKind, sink: &mut S) {
    let victims = pos.color_bb(!pos.side_to_move());
    generate_filtered(pos, filter, kind, victims, sink);
}

/// Replaces the contents of `list` with the captures of the enemy pieces in `victims`
/// by the side to move, which must not be in check. None is tested for legality: the
/// search cuts most captures before playing them, and tests the others with
/// [`capture_keeps_king_safe`], cheaper than a [`LegalFilter`] for a few moves.
///
/// Out of line: both searches call it at most of their nodes, and the generator
/// inlined into each made the search's hot code outgrow the instruction cache.
#[inline(never)]
pub fn generate_captures_unchecked(pos: &Position, victims: BitBoard, list: &mut MoveList) {
    list.clear();
    let victims = victims & pos.color_bb(!pos.side_to_move());
    generate_filtered(
        pos,
        &LegalFilter::untested(pos),
        GenKind::Captures,
        victims,
        list,
    );
}

/// Whether a capture from [`generate_captures_unchecked`] is legal. Out of check, a
/// capture changes the occupancy only on its start point (its target stays occupied and
/// the piece taken attacks nothing any more), so only the king itself, or a piece
/// leaving a line or a horse leg of its own king, can expose it; anything else needs no
/// look at the attackers.
#[must_use]
#[inline]
pub fn capture_keeps_king_safe(pos: &Position, m: Move) -> bool {
    let king = pos.king(pos.side_to_move());
    let from = m.from();
    (from != king && !LINES_AND_LEGS[king.index()].has(from)) || king_safe_after(pos, m)
}

/// All legal moves of the side to move.
#[must_use]
pub fn legal_moves(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, GenKind::All, &mut list);
    list
}

/// The legal captures of the side to move (a subset of [`legal_moves`]).
#[must_use]
pub fn legal_captures(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, GenKind::Captures, &mut list);
    list
}

/// The legal moves that capture nothing: [`legal_moves`] minus [`legal_captures`].
#[must_use]
pub fn legal_quiets(pos: &Position) -> MoveList {
    let mut list = MoveList::new();
    generate(pos, GenKind::Quiets, &mut list);
    list
}

/// The number of legal moves, without listing them.
#[must_use]
pub fn count_legal(pos: &Position) -> usize {
    let mut counter = Counter(0);
    generate(pos, GenKind::All, &mut counter);
    counter.0
}

/// Whether the side to move has at least one legal move.
#[must_use]
pub fn has_legal_move(pos: &Position) -> bool {
    let mut any = AnyMove(false);
    generate(pos, GenKind::All, &mut any);
    any.0
}

/// Whether `m` is legal in `pos` (for moves from outside: engines, files, hash tables).
#[must_use]
pub fn is_legal(pos: &Position, m: Move) -> bool {
    is_pseudo_legal(pos, m) && king_safe_after(pos, m)
}

/// Whether the piece on the start of `m` belongs to the side to move and moves or
/// captures by its rules onto the target, whether its king is safe then or not.
#[inline]
fn is_pseudo_legal(pos: &Position, m: Move) -> bool {
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
    reachable.has(to)
}

/// Whether the king of the side to move is safe after the pseudo-legal move `m`.
#[inline]
fn king_safe_after(pos: &Position, m: Move) -> bool {
    let (from, to) = (m.from(), m.to());
    let us = pos.side_to_move();
    let own_king = pos.king(us);
    let king = if from == own_king { to } else { own_king };
    let enemy = Attackers::of(pos, !us).without(BitBoard::from_square(to));
    king_attackers(king, pos.occupied().without(from).with(to), &enemy).is_empty()
}
