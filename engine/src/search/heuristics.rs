//! Move-ordering memory: killer moves per ply, a counter move per previous move, the
//! history of quiet moves, their continuation history (the history of a quiet move after
//! a given move 1, 2, 4 or 6 plies before), and the history of captures.

use super::params::{
    CAPTURE_HISTORY_MAX, CONTINUATION_HISTORY_MAX, HISTORY_MAX, MAX_PLY, STAT_BONUS_CAP,
    STAT_BONUS_LINEAR, STAT_BONUS_MIN, STAT_BONUS_OFFSET, STAT_BONUS_QUADRATIC,
};
use crate::board::{Move, Piece, PieceKind, Square};

/// Keys of a previous move in the continuation table: its piece and its destination.
const PREVIOUS_KEYS: usize = Piece::INDEX_COUNT * Square::COUNT;
/// The key that stands for no previous move (the root, a null move): its rows stay zero,
/// so a node without one reads 0 without a branch and never updates them.
const NO_PREVIOUS: usize = PREVIOUS_KEYS;
/// The first row of the absent previous move.
const NO_PREVIOUS_ROW: usize = NO_PREVIOUS * Piece::INDEX_COUNT;
/// Rows of the continuation table: one per (previous key, piece), the absent key's included.
const CONTINUATION_ROWS: usize = (PREVIOUS_KEYS + 1) * Piece::INDEX_COUNT;
/// How far back the continuation history looks: the moves 1, 2, 4 and 6 plies before a
/// node's move (Stockfish's choice: the odd plies beyond the first are the opponent's
/// moves, which say less about ours).
pub const CONTINUATION_PLIES: [usize; 4] = [1, 2, 4, 6];

const _: () = assert!(CONTINUATION_HISTORY_MAX <= i16::MAX as i32);
const _: () = assert!(CAPTURE_HISTORY_MAX <= i16::MAX as i32);

/// Where a node's quiet moves read their continuation history: the first row of the
/// table for each previous move of [`CONTINUATION_PLIES`] (a piece's row is this plus its
/// index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Continuation {
    rows: [usize; 4],
}

impl Continuation {
    /// A node with no previous moves (the continuation terms are 0 and not updated).
    pub const NONE: Continuation = Continuation {
        rows: [NO_PREVIOUS_ROW; 4],
    };

    /// The rows of a node whose moves 1, 2, 4 and 6 plies back moved these pieces to
    /// these squares (`None`: a null move, or before the root).
    #[must_use]
    #[inline]
    pub fn new(previous: [Option<(Piece, Square)>; 4]) -> Self {
        Continuation {
            rows: previous.map(|previous| {
                previous.map_or(NO_PREVIOUS_ROW, |(piece, to)| {
                    (piece.index() * Square::COUNT + to.index()) * Piece::INDEX_COUNT
                })
            }),
        }
    }
}

/// The history rows of one piece's quiet moves at a node (see [`Heuristics::rows`]).
#[derive(Clone, Copy, Debug)]
pub struct HistoryRows<'a> {
    butterfly: &'a [i32; Square::COUNT],
    continuation: [&'a [i16; Square::COUNT]; 4],
}

impl HistoryRows<'_> {
    /// The continuation history of the move 1, 2, 4 or 6 plies back (by index).
    #[inline(always)]
    fn back(&self, i: usize, to: usize) -> i32 {
        i32::from(self.continuation[i][to])
    }

    /// The ordering score of the piece's quiet move to `to`: twice its butterfly history
    /// and its continuation after the previous move, and its other continuations once.
    #[must_use]
    #[inline(always)]
    pub fn score(&self, to: Square) -> i32 {
        let to = to.index();
        2 * self.butterfly[to]
            + 2 * self.back(0, to)
            + self.back(1, to)
            + self.back(2, to)
            + self.back(3, to)
    }

    /// The history late move reductions read: twice the butterfly history and the
    /// continuations after the moves 1, 2 and 4 plies back (Stockfish's `statScore`).
    #[must_use]
    #[inline(always)]
    pub fn stat(&self, to: Square) -> i32 {
        let to = to.index();
        2 * self.butterfly[to] + self.back(0, to) + self.back(1, to) + self.back(2, to)
    }

    /// The continuations after the moves 1, 2 and 4 plies back (history pruning's).
    #[must_use]
    #[inline(always)]
    pub fn continuation(&self, to: Square) -> i32 {
        let to = to.index();
        self.back(0, to) + self.back(1, to) + self.back(2, to)
    }
}

/// Killers, counter moves and histories, kept between iterations of one search and
/// cleared per game.
#[derive(Clone, Debug)]
pub struct Heuristics {
    killers: Box<[[Option<Move>; 2]; MAX_PLY + 2]>,
    /// `counter[previous piece][previous to]`: the quiet move that last refuted it.
    counter: Box<[Option<Move>; PREVIOUS_KEYS]>,
    /// `history[piece][to]`: how often a quiet move of this piece to this square was the
    /// best move, with gravity so old successes fade.
    history: Box<[[i32; Square::COUNT]; Piece::INDEX_COUNT]>,
    /// The same for a quiet move after a given earlier move, by row `(previous piece * 90
    /// + previous to) * 16 + piece`, then `to`; one table for every distance back.
    continuation: Box<[[i16; Square::COUNT]; CONTINUATION_ROWS]>,
    /// `capture[piece][to][victim kind]`: how often a capture of this piece on this square
    /// of this kind of piece was the best move (with gravity).
    capture: Box<[[[i16; PieceKind::COUNT]; Square::COUNT]; Piece::INDEX_COUNT]>,
}

// The tables are arrays of fixed lengths, not vectors: an index the compiler knows to be
// in bounds (a piece's) needs no test, and no other index needs the length read.

/// A table of `N` rows on the heap, zeroed (built there: the continuation table is too
/// large for the stack).
fn boxed_rows<T: Clone, const N: usize>(row: T) -> Box<[T; N]> {
    match vec![row; N].into_boxed_slice().try_into() {
        Ok(table) => table,
        Err(_) => unreachable!("a vector of N rows makes an array of N rows"),
    }
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: boxed_rows([None; 2]),
            counter: boxed_rows(None),
            history: boxed_rows([0; Square::COUNT]),
            continuation: boxed_rows([0; Square::COUNT]),
            capture: boxed_rows([[0; PieceKind::COUNT]; Square::COUNT]),
        }
    }
}

/// The history bonus of a result found at `depth`: `(STAT_BONUS_QUADRATIC * depth +
/// STAT_BONUS_LINEAR) * depth - STAT_BONUS_OFFSET` within `[STAT_BONUS_MIN,
/// STAT_BONUS_CAP]`, Stockfish's shape (whose formula turns negative at depth 1: a best
/// move there still gains a little here).
#[must_use]
#[inline]
pub fn stat_bonus(depth: i32) -> i32 {
    ((STAT_BONUS_QUADRATIC * depth + STAT_BONUS_LINEAR) * depth - STAT_BONUS_OFFSET)
        .clamp(STAT_BONUS_MIN, STAT_BONUS_CAP)
}

/// `entry += bonus - entry * |bonus| / max`: moves toward the bound by a share of the way
/// (gravity), so it stays in `[-max, max]` for any bonus up to `max`.
#[inline]
fn gravity(entry: i32, bonus: i32, max: i32) -> i32 {
    let bonus = bonus.clamp(-max, max);
    (entry + bonus - entry * bonus.abs() / max).clamp(-max, max)
}

impl Heuristics {
    /// Forgets everything (new game). In place: the continuation table is 4 MB, and a
    /// new game need not allocate it again.
    pub fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.counter.fill(None);
        self.history.fill([0; Square::COUNT]);
        self.continuation.fill([0; Square::COUNT]);
        self.capture.fill([[0; PieceKind::COUNT]; Square::COUNT]);
    }

    /// Killers are position-specific; drop them between searches, keep history.
    pub fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
    }

    /// The killer moves of a ply.
    #[must_use]
    #[inline]
    pub fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers[ply]
    }

    /// The quiet move that last refuted `previous` (a piece's move to a square).
    #[must_use]
    #[inline]
    pub fn counter_move(&self, previous: Option<(Piece, Square)>) -> Option<Move> {
        previous.and_then(|(piece, to)| self.counter[piece.index() * Square::COUNT + to.index()])
    }

    /// The ordering score of a quiet move at a node (see [`HistoryRows::score`]).
    #[must_use]
    #[inline]
    pub fn history(&self, cont: Continuation, piece: Piece, to: Square) -> i32 {
        self.rows(cont, piece).score(to)
    }

    /// The history late move reductions read (see [`HistoryRows::stat`]).
    #[must_use]
    #[inline]
    pub fn stat_score(&self, cont: Continuation, piece: Piece, to: Square) -> i32 {
        self.rows(cont, piece).stat(to)
    }

    /// The history rows of a piece at a node, looked up once for all its moves.
    #[must_use]
    #[inline(always)]
    pub fn rows(&self, cont: Continuation, piece: Piece) -> HistoryRows<'_> {
        HistoryRows {
            butterfly: &self.history[piece.index()],
            continuation: cont.rows.map(|row| &self.continuation[row + piece.index()]),
        }
    }

    /// The capture history of a capture by `piece` on `to` of a piece of kind `victim`.
    #[must_use]
    #[inline]
    pub fn capture_history(&self, piece: Piece, to: Square, victim: PieceKind) -> i32 {
        i32::from(self.capture[piece.index()][to.index()][victim.index()])
    }

    /// Records the best move of a node whose search raised alpha, Stockfish's
    /// `update_all_stats`: a quiet best move becomes a killer and the counter move of
    /// `previous`, and gains `quiet_bonus` of history while the quiet moves tried before
    /// it lose as much; a capture gains capture history; every other capture tried loses
    /// `capture_bonus` of it. `in_check` limits the continuations updated to the moves
    /// 1 and 2 plies back.
    #[allow(clippy::too_many_arguments)]
    pub fn record_best(
        &mut self,
        ply: usize,
        cont: Continuation,
        previous: Option<(Piece, Square)>,
        best: BestMove,
        tried_quiets: &[(Move, Piece)],
        tried_captures: &[(Piece, Square, PieceKind)],
        quiet_bonus: i32,
        capture_bonus: i32,
        in_check: bool,
    ) {
        match best {
            BestMove::Quiet(mv, piece) => {
                self.record_quiet(ply, cont, previous, mv, piece, quiet_bonus, in_check);
                for &(other, other_piece) in tried_quiets {
                    if other != mv {
                        self.update_quiet(cont, other_piece, other.to(), -quiet_bonus, in_check);
                    }
                }
            }
            BestMove::Capture(piece, to, victim) => {
                self.update_capture(piece, to, victim, capture_bonus);
            }
        }
        for &(piece, to, victim) in tried_captures {
            if best != BestMove::Capture(piece, to, victim) {
                self.update_capture(piece, to, victim, -capture_bonus);
            }
        }
    }

    /// A quiet move that proved best (or whose stored result cut a node off): a killer of
    /// its ply, the counter move of `previous`, and `bonus` of history.
    #[allow(clippy::too_many_arguments)]
    pub fn record_quiet(
        &mut self,
        ply: usize,
        cont: Continuation,
        previous: Option<(Piece, Square)>,
        mv: Move,
        piece: Piece,
        bonus: i32,
        in_check: bool,
    ) {
        let slot = &mut self.killers[ply];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
        if let Some((previous_piece, previous_to)) = previous {
            self.counter[previous_piece.index() * Square::COUNT + previous_to.index()] = Some(mv);
        }
        self.update_quiet(cont, piece, mv.to(), bonus, in_check);
    }

    /// Adds `bonus` (negative: a malus) to a quiet move's butterfly and continuation
    /// histories.
    pub fn update_quiet(
        &mut self,
        cont: Continuation,
        piece: Piece,
        to: Square,
        bonus: i32,
        in_check: bool,
    ) {
        let entry = &mut self.history[piece.index()][to.index()];
        *entry = gravity(*entry, bonus, HISTORY_MAX);
        self.update_continuation(cont, piece, to, bonus, in_check);
    }

    /// Adds `bonus` to a quiet move's continuation histories alone (after the moves 1 and
    /// 2 plies back only when the node is in check, as Stockfish does).
    pub fn update_continuation(
        &mut self,
        cont: Continuation,
        piece: Piece,
        to: Square,
        bonus: i32,
        in_check: bool,
    ) {
        let plies = if in_check { 2 } else { 4 };
        // The absent previous move's rows stay zero (see `NO_PREVIOUS`): a branch here,
        // where a node's end updates a few moves, saves one wherever the scores are read.
        for &row in &cont.rows[..plies] {
            if row != NO_PREVIOUS_ROW {
                let entry = &mut self.continuation[row + piece.index()][to.index()];
                *entry = gravity(i32::from(*entry), bonus, CONTINUATION_HISTORY_MAX) as i16;
            }
        }
    }

    /// Adds `bonus` to the butterfly history alone (the static evaluation's verdict on
    /// the previous move).
    pub fn update_butterfly(&mut self, piece: Piece, to: Square, bonus: i32) {
        let entry = &mut self.history[piece.index()][to.index()];
        *entry = gravity(*entry, bonus, HISTORY_MAX);
    }

    fn update_capture(&mut self, piece: Piece, to: Square, victim: PieceKind, bonus: i32) {
        let entry = &mut self.capture[piece.index()][to.index()][victim.index()];
        *entry = gravity(i32::from(*entry), bonus, CAPTURE_HISTORY_MAX) as i16;
    }
}

/// The best move of a node, as the histories see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BestMove {
    Quiet(Move, Piece),
    Capture(Piece, Square, PieceKind),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(name: &str) -> Square {
        let Some(sq) = Square::parse(name) else {
            panic!("square {name}");
        };
        sq
    }

    /// A quiet move of a piece and the piece.
    fn quiet(from: &str, to: &str, piece: Piece) -> (Move, Piece) {
        (Move::new(square(from), square(to)), piece)
    }

    /// The continuation part of a move's history at a node.
    fn continuation_score(h: &Heuristics, cont: Continuation, (m, piece): (Move, Piece)) -> i32 {
        h.history(cont, piece, m.to()) - h.history(Continuation::NONE, piece, m.to())
    }

    fn record(
        h: &mut Heuristics,
        cont: Continuation,
        best: (Move, Piece),
        tried: &[(Move, Piece)],
    ) {
        let previous = Some((Piece::BlackCannon, square("e7")));
        h.record_best(
            3,
            cont,
            previous,
            BestMove::Quiet(best.0, best.1),
            tried,
            &[],
            stat_bonus(5),
            stat_bonus(6),
            false,
        );
    }

    #[test]
    fn a_best_move_raises_its_continuations_after_each_previous_move_and_lowers_those_tried_before()
    {
        let mut h = Heuristics::default();
        let one_back = (Piece::BlackCannon, square("e7"));
        let two_back = (Piece::RedHorse, square("c2"));
        let four_back = (Piece::RedRook, square("a1"));
        let cont = Continuation::new([Some(one_back), Some(two_back), Some(four_back), None]);
        let best = quiet("h2", "e2", Piece::RedCannon);
        let tried = [
            quiet("b0", "c2", Piece::RedHorse),
            quiet("a0", "a1", Piece::RedRook),
        ];
        record(&mut h, cont, best, &tried);

        assert!(continuation_score(&h, cont, best) > 0);
        for &other in &tried {
            assert!(continuation_score(&h, cont, other) < 0);
        }
        // Each previous move on its own.
        for only in [
            Continuation::new([Some(one_back), None, None, None]),
            Continuation::new([None, Some(two_back), None, None]),
            Continuation::new([None, None, Some(four_back), None]),
        ] {
            assert!(continuation_score(&h, only, best) > 0);
            assert!(continuation_score(&h, only, tried[0]) < 0);
        }
        // After another previous move, nothing was learnt.
        let other = Continuation::new([Some((Piece::BlackRook, square("e7"))), None, None, None]);
        assert_eq!(continuation_score(&h, other, best), 0);
        // The best move is the killer and the counter move of the previous move.
        assert_eq!(h.killers(3)[0], Some(best.0));
        assert_eq!(h.counter_move(Some(one_back)), Some(best.0));
        // The rows of the absent previous move are never written.
        let mut fresh = Heuristics::default();
        record(&mut fresh, Continuation::NONE, best, &tried);
        assert!(fresh.continuation.iter().all(|row| *row == [0; 90]));
        assert!(fresh.history(Continuation::NONE, best.1, best.0.to()) > 0);
    }

    #[test]
    fn history_values_stay_within_their_bounds() {
        let mut h = Heuristics::default();
        let cont = Continuation::new([Some((Piece::BlackPawn, square("e6"))), None, None, None]);
        let best = quiet("h2", "e2", Piece::RedCannon);
        let tried = [quiet("b2", "d2", Piece::RedCannon)];
        for _ in 0..200 {
            record(&mut h, cont, best, &[]);
            record(&mut h, cont, tried[0], &[best]);
        }
        for m in [best, tried[0]] {
            assert!(continuation_score(&h, cont, m).abs() <= 5 * CONTINUATION_HISTORY_MAX);
            assert!(h.history(Continuation::NONE, m.1, m.0.to()).abs() <= 2 * HISTORY_MAX);
        }
        assert_eq!(stat_bonus(1), STAT_BONUS_MIN);
        assert!(stat_bonus(3) > STAT_BONUS_MIN && stat_bonus(60) == STAT_BONUS_CAP);
    }
}
