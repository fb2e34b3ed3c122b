//! The alpha-beta search: principal variation search with a transposition table,
//! null-move pruning, late move reductions, futility and late-move pruning, check
//! extension, mate-distance pruning, and a quiescence search over captures.
//!
//! This file holds the searcher's state and what both searches use (making moves, the
//! rules' verdict, the parameters in use); `alpha_beta.rs` searches a node in stages,
//! `quiescence.rs` the captures below it.

mod alpha_beta;
mod quiescence;
mod statistics;

use std::sync::Arc;

use super::eval_cache::EvalCache;
use super::heuristics::{Continuation, Heuristics};
use super::limits::{Budget, Control};
use super::params::*;
use super::picker::{MovePicker, PickerBuffers};
use super::score::{DRAW, RULE_WIN};
use super::search_params::SearchParams;
use super::tt::TranspositionTable;
use crate::board::{BitBoard, Move, Piece, PieceKind, Position, Square};
use crate::eval::nnue::{Incremental, Network};
use crate::eval::psqt::material;
use crate::eval::{Evaluator, NNUE_LEVEL};
use crate::movegen::MAX_MOVES;
use crate::rules::chase::new_chases;
use crate::rules::{judge_cycle, ChaseRule, PlyEntry, Rules};

/// The judge's record of a position reached by `mv` (chases are not tracked in search).
#[must_use]
#[inline]
pub(super) fn ply_entry(pos: &Position, mv: Option<Move>, gave_check: bool) -> PlyEntry {
    PlyEntry {
        key: pos.key(),
        mv,
        gave_check,
        chased: BitBoard::EMPTY,
        plies_since_capture: u16::try_from(pos.plies_since_capture()).unwrap_or(u16::MAX),
    }
}

/// The late move reduction factors: entry `i` is `lmr_scale / 100 * ln i` (in 1/1024
/// plies' square root, as it were: a reduction multiplies the factor of the depth and of
/// the move count; the formula is at [`SearchParams::lmr_min_moves`]).
fn lmr_table(params: &SearchParams) -> [i32; LMR_TABLE_SIZE] {
    let scale = f64::from(params.lmr_scale) / 100.0;
    std::array::from_fn(|i| {
        if i == 0 {
            0
        } else {
            (scale * (i as f64).ln()) as i32
        }
    })
}

/// The frames of a line: one per ply, and room for the plies that nodes at `MAX_PLY`
/// write ahead.
const FRAMES: usize = MAX_PLY + 4;

/// Per-ply state of the current path.
#[derive(Clone, Copy, Debug)]
struct Frame {
    eval: i32,
    /// How many moves the node at this ply has searched so far (counting the one being
    /// searched).
    move_count: usize,
    /// How many of the children of the node at this ply failed high in a row.
    cutoff_count: u32,
    /// The history of the move being searched at this ply, as late move reductions read
    /// it (less an offset).
    stat_score: i32,
    /// The move being searched at this ply (`None` for a null move).
    mv: Option<Move>,
    /// Whether that move is a capture.
    captured: bool,
    /// The node's continuation rows (where its quiet moves' histories are).
    cont: Continuation,
    /// Whether the node is in check.
    checked: bool,
    /// Whether the node found its position in the table.
    tt_hit: bool,
    /// The piece that the move being searched at this ply moves, and its destination:
    /// the key of the continuation history of the plies below (`None` for a null move).
    moved: Option<(Piece, Square)>,
}

impl Default for Frame {
    fn default() -> Frame {
        Frame {
            eval: 0,
            moved: None,
            move_count: 0,
            cutoff_count: 0,
            stat_score: 0,
            mv: None,
            captured: false,
            cont: Continuation::NONE,
            checked: false,
            tt_hit: false,
        }
    }
}

/// Everything one search thread owns. The table and the heuristics live across
/// searches; the rest is reset by each search.
#[derive(Debug)]
pub struct Searcher {
    pub(super) tt: TranspositionTable,
    pub(super) heuristics: Heuristics,
    pub(super) evaluator: Evaluator,
    /// Scores of the evaluation levels that build attack maps (3..6), by position key.
    eval_cache: EvalCache,
    /// The network of evaluation level 7, if one was given.
    network: Option<Arc<Network>>,
    /// The network's sums along the current line, while level 7 evaluates with it
    /// (`None` at levels 0..6: their search pays one untaken branch per move).
    nnue: Option<Box<Incremental>>,
    pub(super) pos: Position,
    /// The positions of the game and of the current line, for repetitions.
    pub(super) path: Vec<PlyEntry>,
    /// Where the repetition window starts: after the last null move of the line.
    pub(super) window_start: usize,
    /// The move and undo record that produced each entry of `path` after the first
    /// (`None` for a null move), to rebuild the positions of a cycle when judging it.
    pub(super) line: Vec<Option<(Move, crate::board::Undo)>>,
    /// One frame per ply of the line and a few beyond (nodes write two plies ahead); a
    /// fixed length, so that the bounds of the many reads of a node are known to the
    /// compiler from its first.
    frames: Box<[Frame; FRAMES]>,
    pv: Vec<Vec<Move>>,
    /// The margins, reductions and thresholds in use.
    pub(super) params: SearchParams,
    /// Whether `params` are the defaults (see `knobs`).
    default_params: bool,
    /// Late move reduction factors, from `params`.
    /// (An array: its indices are clamped to its length, so they need no bounds check.)
    lmr: [i32; LMR_TABLE_SIZE],
    /// The width of the root's window in this iteration (late move reductions reduce
    /// less at nodes whose window is a larger share of it).
    pub(super) root_delta: i32,
    pub(super) nodes: u64,
    pub(super) sel_depth: usize,
    pub(super) node_limit: u64,
    pub(super) budget: Option<Budget>,
    pub(super) control: Arc<Control>,
    pub(super) aborted: bool,
    pub(super) banned: Vec<Move>,
    pub(super) root_best: Option<(Move, i32)>,
    pub(super) root_in_check: bool,
    /// Move lists per ply, lent to each node's picker.
    buffers: Vec<Option<Box<PickerBuffers>>>,
    /// The quiet moves tried at the node of each ply (for history updates), kept so
    /// that no node allocates its own list.
    tried_quiets: Vec<Vec<(Move, Piece)>>,
    /// The captures tried at the node of each ply (mover, square, victim), for the
    /// capture history.
    tried_captures: Vec<Vec<(Piece, Square, PieceKind)>>,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` MiB, the given evaluation and the default
    /// search parameters.
    #[must_use]
    pub fn new(hash_mb: usize, evaluator: Evaluator) -> Searcher {
        let params = SearchParams::default();
        Searcher {
            tt: TranspositionTable::new(hash_mb),
            heuristics: Heuristics::default(),
            evaluator,
            eval_cache: EvalCache::default(),
            network: None,
            nnue: None,
            pos: Position::startpos().with_values(evaluator.values()),
            path: Vec::with_capacity(1024),
            window_start: 0,
            line: Vec::with_capacity(1024),
            frames: Box::new([Frame::default(); FRAMES]),
            pv: (0..MAX_PLY + 4)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            lmr: lmr_table(&params),
            root_delta: 1,
            params,
            default_params: true,
            nodes: 0,
            sel_depth: 0,
            node_limit: u64::MAX,
            budget: None,
            control: Arc::new(Control::new(false)),
            aborted: false,
            banned: Vec::new(),
            root_best: None,
            root_in_check: false,
            buffers: (0..MAX_PLY + 4)
                .map(|_| Some(PickerBuffers::boxed()))
                .collect(),
            tried_quiets: (0..MAX_PLY + 4)
                .map(|_| Vec::with_capacity(MAX_MOVES))
                .collect(),
            tried_captures: (0..MAX_PLY + 4)
                .map(|_| Vec::with_capacity(MAX_MOVES))
                .collect(),
        }
    }

    /// Forgets the path of the last search: what a node reads of the plies above it
    /// (their evaluations, move counts, histories) is written by this search only.
    pub(super) fn reset_frames(&mut self) {
        self.frames.fill(Frame::default());
    }

    /// Forgets everything learnt (new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heuristics.clear();
    }

    /// Replaces the table with one of a new size.
    pub fn resize_hash(&mut self, hash_mb: usize) {
        self.tt = TranspositionTable::new(hash_mb);
    }

    /// Changes the evaluation, and then forgets what was learnt with the old one, as a
    /// new game does: left in the table, another level's scores and static evaluations
    /// steered the next search (a level-6 search after a level-3 one differed from a
    /// fresh one).
    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        if evaluator != self.evaluator {
            self.evaluator = evaluator;
            self.eval_cache.clear();
            self.clear();
            self.sync_network();
        }
    }

    /// Gives the network that evaluation level 7 evaluates with (`None`: level 7 then
    /// evaluates as level 6). A new network forgets what was learnt, as a new level does.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        let same = match (&self.network, &network) {
            (Some(old), Some(new)) => Arc::ptr_eq(old, new),
            (None, None) => true,
            _ => false,
        };
        if !same {
            self.network = network;
            self.eval_cache.clear();
            self.clear();
            self.sync_network();
        }
    }

    /// Whether the search evaluates with a network (level 7 with one given).
    #[must_use]
    pub fn uses_network(&self) -> bool {
        self.nnue.is_some()
    }

    /// Starts or drops the network's sums after a change of level or network.
    fn sync_network(&mut self) {
        self.nnue = match &self.network {
            Some(net) if self.evaluator.level() == NNUE_LEVEL => {
                Some(Box::new(Incremental::new(Arc::clone(net), &self.pos)))
            }
            _ => None,
        };
    }

    /// Recomputes the network's sums from the position (the root of a search).
    pub(super) fn refresh_network(&mut self) {
        if let Some(nnue) = &mut self.nnue {
            nnue.refresh(&self.pos);
        }
    }

    /// Updates the network's sums for a move just made on `pos`.
    #[inline]
    fn network_make(&mut self, m: Move, captured: Option<Piece>) {
        if let Some(nnue) = &mut self.nnue {
            nnue.make(&self.pos, m, captured);
        }
    }

    /// Returns the network's sums to those before the last move.
    #[inline]
    fn network_unmake(&mut self) {
        if let Some(nnue) = &mut self.nnue {
            nnue.unmake();
        }
    }

    /// Changes the search parameters. What the table and the move-ordering history learnt
    /// stays, as it does between the moves of a game (options are set before a game, and
    /// `newgame` clears them).
    pub fn set_params(&mut self, params: SearchParams) {
        self.lmr = lmr_table(&params);
        self.params = params;
        self.default_params = params == SearchParams::DEFAULT;
    }

    /// The search parameters in use.
    #[must_use]
    pub fn params(&self) -> SearchParams {
        self.params
    }

    /// The evaluation in use.
    #[must_use]
    pub fn evaluator(&self) -> Evaluator {
        self.evaluator
    }

    /// The static evaluation of the current position, for the side to move.
    #[inline]
    fn evaluate(&mut self) -> i32 {
        if let Some(nnue) = &self.nnue {
            let score = nnue.evaluate(self.pos.side_to_move());
            // Debug builds (and so every test) check each incremental evaluation against
            // one from scratch: make, unmake, null moves and quiescence all pass here.
            debug_assert_eq!(score, nnue.network().evaluate(&self.pos));
            return score;
        }
        let (evaluator, pos) = (&self.evaluator, &self.pos);
        // Levels 0 and 1 add two kept sums, level 2 a few counts: cheaper than the
        // lookup, whose slot is rarely in the nearest caches.
        if !evaluator.builds_attack_maps() {
            return evaluator.evaluate(pos);
        }
        self.eval_cache
            .get_or_insert_with(pos.key(), || evaluator.evaluate(pos))
    }

    /// The principal variation found at the root.
    pub(super) fn root_pv(&self) -> &[Move] {
        &self.pv[0]
    }

    /// Whether the search must stop now: told to, out of nodes, or out of time.
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else if self.nodes.is_multiple_of(CHECK_INTERVAL) {
            let late = match self.budget {
                Some(budget) if !self.control.pondering() => {
                    self.control.clock_elapsed() >= budget.hard
                }
                _ => false,
            };
            self.aborted = late || self.control.stopped();
        }
        self.aborted
    }

    /// Plays a move of the main search; `prefetch` says whether to fetch the child's
    /// table cluster now: its cluster was not fetched when the move came up (see
    /// `fetch_early` in `search`). Every child probes the table, a child left with no
    /// depth too (the quiescence search probes it).
    #[inline]
    fn play(&mut self, m: Move, check: bool, prefetch: bool) -> crate::board::Undo {
        let undo = self.pos.make_move(m);
        self.network_make(m, undo.captured);
        // The child's first act is to probe its cluster. Its key is at hand now: after
        // the move, rather than computed ahead with `key_after`. A load the child never
        // uses would only take a line of the cache and a slot of the memory queue.
        if prefetch {
            self.fetch_node(self.pos.key());
        }
        self.nodes += 1;
        self.path.push(ply_entry(&self.pos, Some(m), check));
        self.line.push(Some((m, undo)));
        undo
    }

    /// Fetches what the node of `key` will read first: its table cluster, and the slot
    /// of the evaluation cache where the evaluation levels that build attack maps look
    /// its evaluation up when the table does not have it.
    #[inline]
    pub(super) fn fetch_node(&self, key: u64) {
        self.tt.prefetch(key);
        if self.nnue.is_none() && self.evaluator.builds_attack_maps() {
            self.eval_cache.prefetch(key);
        }
    }

    /// Fetches the table cluster of the child that a picked move leads to (nothing when
    /// no move was picked), ahead of the child's probe.
    #[inline]
    fn fetch_child(&self, picked: Option<(Move, i32)>) {
        if let Some((m, _)) = picked {
            self.fetch_node(self.pos.key_after(m));
        }
    }

    /// [`Self::play`] inside the quiescence search, whose nodes do not judge
    /// repetitions: the move is made and counted, no more (take it back with
    /// `unmake_move` alone; the caller fetches the child's table cluster).
    #[inline]
    fn play_in_quiescence(&mut self, m: Move) -> crate::board::Undo {
        self.nodes += 1;
        let undo = self.pos.make_move(m);
        self.network_make(m, undo.captured);
        undo
    }

    #[inline]
    fn take_back(&mut self, m: Move, undo: crate::board::Undo) {
        self.path.pop();
        self.line.pop();
        self.pos.unmake_move(m, undo);
        self.network_unmake();
    }

    fn borrow_buffers(&mut self, ply: usize) -> Box<PickerBuffers> {
        self.buffers[ply]
            .take()
            .unwrap_or_else(PickerBuffers::boxed)
    }

    fn return_buffers(&mut self, ply: usize, picker: MovePicker) {
        self.buffers[ply] = Some(picker.into_buffers());
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// Material of the side to move apart from king, advisors, elephants and pawns.
    fn attacking_material(&self) -> i32 {
        self.attacking_material_of(self.pos.side_to_move())
    }

    /// Whether a side has a rook, horse or cannon: whether its attacking material is not
    /// zero, without counting it (`count_ones` is a long sequence on CPUs without
    /// `popcnt`, which the default x86-64 target does not assume).
    fn has_attacking_pieces(&self, us: crate::board::Color) -> bool {
        let pieces = |kind| self.pos.pieces_of(us, kind);
        (pieces(PieceKind::Rook) | pieces(PieceKind::Horse) | pieces(PieceKind::Cannon)).any()
    }

    /// Material of a side apart from king, advisors, elephants and pawns.
    fn attacking_material_of(&self, us: crate::board::Color) -> i32 {
        [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon]
            .iter()
            .map(|&k| self.pos.count_of(us, k) * material(k))
            .sum()
    }

    /// The enemy pieces worth more than `value`: the only captures that delta pruning
    /// lets through.
    fn victims_above(&self, value: i32) -> BitBoard {
        let them = !self.pos.side_to_move();
        let mut victims = BitBoard::EMPTY;
        for kind in [
            PieceKind::Rook,
            PieceKind::Cannon,
            PieceKind::Horse,
            PieceKind::Advisor,
            PieceKind::Elephant,
            PieceKind::Pawn,
        ] {
            if material(kind) > value {
                victims |= self.pos.pieces_of(them, kind);
            }
        }
        victims
    }

    /// Draws and wins by the rules at an inner node, from the side to move's view.
    #[inline(always)]
    fn rule_score(&self, ply: usize) -> Option<i32> {
        // The rules judge, at the first repetition inside the tree. Checks are recorded
        // on every move; chases only when a repetition is found (they are costly).
        let us = self.pos.side_to_move();
        if let Some(first) =
            judge_cycle(&self.path[self.window_start..], us, SEARCH_REPETITION_COUNT)
        {
            let verdict = self
                .judge_with_chases(self.window_start + first.first_occurrence)
                .unwrap_or(first);
            return Some(match verdict.loser {
                Some(loser) if loser == us => -RULE_WIN + ply as i32,
                Some(_) => RULE_WIN - ply as i32,
                None => DRAW,
            });
        }
        let pos = &self.pos;
        if pos.plies_since_capture() >= Rules::DEFAULT_MOVE_LIMIT {
            return Some(DRAW);
        }
        if !pos.has_attackers(crate::board::Color::Red)
            && !pos.has_attackers(crate::board::Color::Black)
        {
            return Some(DRAW);
        }
        None
    }

    /// Judges the repetition whose span starts after `path[first]` again, with the AXF
    /// chases of every move of the span, computed on positions rebuilt by taking the
    /// span's moves back on a copy of the current position.
    fn judge_with_chases(&self, first: usize) -> Option<crate::rules::CycleVerdict> {
        let mut window: Vec<PlyEntry> = self.path[first..].to_vec();
        let mut after = self.pos.clone();
        for k in (1..window.len()).rev() {
            let (m, undo) = self.line.get(first + k - 1).copied().flatten()?;
            let mut before = after.clone();
            before.unmake_move(m, undo);
            window[k].chased = new_chases(&before, &after, m, ChaseRule::Axf);
            after = before;
        }
        judge_cycle(&window, self.pos.side_to_move(), SEARCH_REPETITION_COUNT)
    }

    /// The search of the root with the window `alpha..beta`: the instance of [`Self::search`]
    /// for the default parameters when they are in use, else the one that reads them.
    pub(super) fn search_root(&mut self, alpha: i32, beta: i32, depth: i32) -> i32 {
        let checked = self.root_in_check;
        if self.default_params {
            self.search::<true>(alpha, beta, depth, 0, checked, false)
        } else {
            self.search::<false>(alpha, beta, depth, 0, checked, false)
        }
    }

    /// The parameters an instance of the search reads: with `DEFAULTS` the constants, so
    /// that the default search compiles as it did with constants (read from `self`, each
    /// is loaded again after every recursive call); the other instance reads `params`.
    #[inline(always)]
    fn knobs<const DEFAULTS: bool>(&self) -> SearchParams {
        if DEFAULTS {
            SearchParams::DEFAULT
        } else {
            self.params
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{GameSoFar, Limits};

    fn search_nodes(searcher: &mut Searcher) -> u64 {
        let game = GameSoFar {
            start: Position::startpos(),
            moves: Vec::new(),
        };
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        let control = Arc::new(Control::new(false));
        searcher
            .think(&game, &limits, &[], control, &mut |_| {})
            .nodes
    }

    #[test]
    fn the_search_that_reads_the_parameters_is_the_default_one_at_default_values() {
        let mut constants = Searcher::new(1, Evaluator::new(6));
        let mut read = Searcher::new(1, Evaluator::new(6));
        read.default_params = false;
        assert_eq!(search_nodes(&mut read), search_nodes(&mut constants));
        // And it does read them.
        let mut changed = Searcher::new(1, Evaluator::new(6));
        changed.set_params(SearchParams {
            futility_margin: 40,
            ..SearchParams::default()
        });
        assert!(!changed.default_params);
        assert_ne!(search_nodes(&mut changed), search_nodes(&mut constants));
    }

    #[test]
    fn a_search_after_a_change_of_level_is_that_of_a_fresh_searcher() {
        let mut fresh = Searcher::new(1, Evaluator::new(6));
        let expected = search_nodes(&mut fresh);
        let mut changed = Searcher::new(1, Evaluator::new(3));
        search_nodes(&mut changed);
        changed.set_evaluator(Evaluator::new(6));
        assert_eq!(search_nodes(&mut changed), expected);
    }
}
