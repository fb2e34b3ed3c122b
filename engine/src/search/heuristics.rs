//! Move-ordering memory: killer moves per ply, the history of quiet moves, and their
//! continuation history (the history of a quiet move after a given previous move).

use super::params::{
    CONTINUATION_HISTORY_MAX, HISTORY_BONUS_MAX_DEPTH_SQUARED, HISTORY_BONUS_SCALE, HISTORY_MAX,
    MAX_PLY,
};
use crate::board::{Move, Piece, Square};

/// Keys of a previous move in the continuation tables: its piece and its destination.
const PREVIOUS_KEYS: usize = Piece::INDEX_COUNT * Square::COUNT;
/// The key that stands for no previous move (the root, a null move): its rows stay zero,
/// so a node without one reads 0 without a branch and never updates them.
const NO_PREVIOUS: usize = PREVIOUS_KEYS;
/// The first row of the absent previous move.
const NO_PREVIOUS_ROW: usize = NO_PREVIOUS * Piece::INDEX_COUNT;
/// Rows of a continuation table: one per (previous key, piece), the absent key's included.
const CONTINUATION_ROWS: usize = (PREVIOUS_KEYS + 1) * Piece::INDEX_COUNT;

const _: () = assert!(CONTINUATION_HISTORY_MAX <= i16::MAX as i32);

/// Where a node's quiet moves read their continuation history: the first row of the
/// counter-move table for the move one ply back, and of the follow-up table for the move
/// two plies back (a piece's row is this plus its index).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Continuation {
    counter: usize,
    follow_up: usize,
}

impl Continuation {
    /// A node with no previous moves (the continuation terms are 0 and not updated).
    pub const NONE: Continuation = Continuation {
        counter: NO_PREVIOUS_ROW,
        follow_up: NO_PREVIOUS_ROW,
    };

    /// The rows of a node whose moves 1 and 2 plies back moved these pieces to these
    /// squares (`None`: a null move, or before the root).
    #[must_use]
    #[inline]
    pub fn new(one_back: Option<(Piece, Square)>, two_back: Option<(Piece, Square)>) -> Self {
        let row = |previous: Option<(Piece, Square)>| {
            previous.map_or(NO_PREVIOUS_ROW, |(piece, to)| {
                (piece.index() * Square::COUNT + to.index()) * Piece::INDEX_COUNT
            })
        };
        Continuation {
            counter: row(one_back),
            follow_up: row(two_back),
        }
    }
}

/// The three history rows of one piece's quiet moves at a node (see
/// [`Heuristics::rows`]).
#[derive(Clone, Copy, Debug)]
pub struct HistoryRows<'a> {
    butterfly: &'a [i32; Square::COUNT],
    counter: &'a [i16; Square::COUNT],
    follow_up: &'a [i16; Square::COUNT],
}

impl HistoryRows<'_> {
    /// The history score of the piece's quiet move to `to`.
    #[must_use]
    #[inline(always)]
    pub fn score(&self, to: Square) -> i32 {
        let to = to.index();
        self.butterfly[to] + i32::from(self.counter[to]) + i32::from(self.follow_up[to])
    }
}

/// Killers and history, kept between iterations of one search and cleared per game.
#[derive(Clone, Debug)]
pub struct Heuristics {
    killers: Vec<[Option<Move>; 2]>,
    /// `history[piece][to]`: how often a quiet move of this piece to this square caused a
    /// cutoff, with gravity so old successes fade.
    history: Vec<[i32; Square::COUNT]>,
    /// The same for a quiet move right after a given move of the opponent (the counter
    /// move), by row `(previous piece * 90 + previous to) * 16 + piece`, then `to`.
    counter: Vec<[i16; Square::COUNT]>,
    /// The same after a given move of our own two plies back (the follow-up).
    follow_up: Vec<[i16; Square::COUNT]>,
}

impl Default for Heuristics {
    fn default() -> Heuristics {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![[0; Square::COUNT]; Piece::INDEX_COUNT],
            counter: vec![[0; Square::COUNT]; CONTINUATION_ROWS],
            follow_up: vec![[0; Square::COUNT]; CONTINUATION_ROWS],
        }
    }
}

impl Heuristics {
    /// Forgets everything (new game). In place: the continuation tables are 8 MB, and a
    /// new game need not allocate them again.
    pub fn clear(&mut self) {
        self.killers.fill([None; 2]);
        self.history.fill([0; Square::COUNT]);
        self.counter.fill([0; Square::COUNT]);
        self.follow_up.fill([0; Square::COUNT]);
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

    /// The history score of a quiet move at a node: its butterfly history plus its
    /// counter-move and follow-up history after the node's previous moves.
    #[must_use]
    #[inline]
    pub fn history(&self, cont: Continuation, piece: Piece, to: Square) -> i32 {
        self.rows(cont, piece).score(to)
    }

    /// The history rows of a piece at a node, looked up once for all its moves.
    #[must_use]
    #[inline(always)]
    pub fn rows(&self, cont: Continuation, piece: Piece) -> HistoryRows<'_> {
        HistoryRows {
            butterfly: &self.history[piece.index()],
            counter: &self.counter[cont.counter + piece.index()],
            follow_up: &self.follow_up[cont.follow_up + piece.index()],
        }
    }

    /// Records a quiet move that caused a cutoff, and punishes the quiet moves tried
    /// before it at the same node.
    pub fn record_cutoff(
        &mut self,
        ply: usize,
        cont: Continuation,
        best: (Move, Piece),
        tried: &[(Move, Piece)],
        depth: i32,
    ) {
        let (mv, piece) = best;
        let slot = &mut self.killers[ply];
        if slot[0] != Some(mv) {
            slot[1] = slot[0];
            slot[0] = Some(mv);
        }
        let bonus = (depth * depth).min(HISTORY_BONUS_MAX_DEPTH_SQUARED) * HISTORY_BONUS_SCALE;
        self.update(cont, piece, mv.to(), bonus);
        for &(other, other_piece) in tried {
            if other != mv {
                self.update(cont, other_piece, other.to(), -bonus);
            }
        }
    }

    #[inline]
    fn update(&mut self, cont: Continuation, piece: Piece, to: Square, bonus: i32) {
        let entry = &mut self.history[piece.index()][to.index()];
        *entry += bonus - *entry * bonus.abs() / HISTORY_MAX;
        // The absent previous move's rows stay zero (see `NO_PREVIOUS`): a branch here,
        // where a cutoff updates a few moves, saves one wherever the scores are read.
        for (table, row) in [
            (&mut self.counter, cont.counter),
            (&mut self.follow_up, cont.follow_up),
        ] {
            if row != NO_PREVIOUS_ROW {
                let entry = &mut table[row + piece.index()][to.index()];
                let value = i32::from(*entry);
                let updated = value + bonus - value * bonus.abs() / CONTINUATION_HISTORY_MAX;
                // Gravity keeps it in range for any bonus up to the bound; the clamp
                // makes the narrowing lossless whatever the bonus.
                *entry = updated.clamp(-CONTINUATION_HISTORY_MAX, CONTINUATION_HISTORY_MAX) as i16;
            }
        }
    }
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

    #[test]
    fn a_cutoff_raises_its_continuation_after_the_previous_move_and_lowers_those_tried_before() {
        let mut h = Heuristics::default();
        let one_back = (Piece::BlackCannon, square("e7"));
        let two_back = (Piece::RedHorse, square("c2"));
        let cont = Continuation::new(Some(one_back), Some(two_back));
        let best = quiet("h2", "e2", Piece::RedCannon);
        let tried = [
            quiet("b0", "c2", Piece::RedHorse),
            quiet("a0", "a1", Piece::RedRook),
        ];
        h.record_cutoff(3, cont, best, &tried, 5);

        assert!(continuation_score(&h, cont, best) > 0);
        for &other in &tried {
            assert!(continuation_score(&h, cont, other) < 0);
        }
        // Each table on its own: after the same move one ply back alone, and two back alone.
        let counter_only = Continuation::new(Some(one_back), None);
        let follow_up_only = Continuation::new(None, Some(two_back));
        for only in [counter_only, follow_up_only] {
            assert!(continuation_score(&h, only, best) > 0);
            assert!(continuation_score(&h, only, tried[0]) < 0);
        }
        // After another previous move, nothing was learnt.
        let other = Continuation::new(Some((Piece::BlackRook, square("e7"))), None);
        assert_eq!(continuation_score(&h, other, best), 0);
        // The rows of the absent previous move are never written.
        let mut fresh = Heuristics::default();
        fresh.record_cutoff(3, Continuation::NONE, best, &tried, 5);
        assert!(fresh
            .counter
            .iter()
            .chain(&fresh.follow_up)
            .all(|row| *row == [0; 90]));
        assert!(fresh.history(Continuation::NONE, best.1, best.0.to()) > 0);
    }

    #[test]
    fn continuation_values_stay_within_their_bound() {
        let mut h = Heuristics::default();
        let cont = Continuation::new(Some((Piece::BlackPawn, square("e6"))), None);
        let best = quiet("h2", "e2", Piece::RedCannon);
        let tried = [quiet("b2", "d2", Piece::RedCannon)];
        for _ in 0..200 {
            h.record_cutoff(0, cont, best, &[], 40);
            h.record_cutoff(0, cont, tried[0], &[best], 40);
        }
        let bound = HISTORY_MAX + CONTINUATION_HISTORY_MAX;
        for m in [best, tried[0]] {
            assert!(continuation_score(&h, cont, m).abs() <= CONTINUATION_HISTORY_MAX);
            assert!(h.history(cont, m.1, m.0.to()).abs() <= bound);
        }
    }
}
