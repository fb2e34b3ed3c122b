//! The principal variation search of one node, in the stages Stockfish's `search()`
//! has them (its step numbers in the comments): the early exits (stop, the rules, mate
//! distance), the transposition table probe, the static evaluation, pruning before the
//! moves (reverse futility, null move) and internal iterative reduction, the move loop
//! (pruning at shallow depth, late move reductions and the principal variation search of
//! each move, the new best move), and storing the result.
//!
//! Each stage is a function inlined into [`Searcher::search`], so that a node still
//! compiles to one function, as it did before it was split (the bench's speed depends
//! on it); only `search` itself recurses.

use std::ops::ControlFlow;

use super::{ply_entry, Searcher};
use crate::board::{Move, Piece};
use crate::movegen::gives_check;
use crate::search::heuristics::Continuation;
use crate::search::params::{
    CHECK_EXTENSION_MAX_PLY, EARLY_FETCH_MIN_DEPTH, LMR_TABLE_MOVES, MAX_PLY,
};
use crate::search::picker::MovePicker;
use crate::search::score::{from_tt, is_mate, to_tt, DRAW, INFINITE, MATE, MATE_BOUND};
use crate::search::tt::{Bound, Hit};

/// What the move loop and the store know of a node once it has been probed, evaluated and
/// not pruned.
#[derive(Clone, Copy)]
struct Node {
    ply: usize,
    /// The remaining depth, after internal iterative reduction.
    depth: i32,
    beta: i32,
    pv_node: bool,
    root: bool,
    checked: bool,
    /// The static evaluation (`-INFINITE` in check).
    eval: i32,
    /// Whether `eval` is above that of two plies before.
    improving: bool,
    hash_move: Option<Move>,
    /// The moves 1 and 2 plies back, whose continuation history scores the quiet moves.
    cont: Continuation,
    killers: [Option<Move>; 2],
}

/// The move the loop is searching.
#[derive(Clone, Copy)]
struct Candidate {
    m: Move,
    mover: Piece,
    check: bool,
    /// Neither a capture nor a check.
    quiet: bool,
}

/// How the move loop of a node ended.
enum LoopEnd {
    /// The search was stopped: the node's result means nothing and is not stored.
    Aborted,
    /// No move was searched: checkmate or stalemate (both lose for the side to move in
    /// Xiangqi), or every root move banned.
    NoMoveSearched,
    /// The best score, and the move that raised alpha if one did.
    Searched {
        best_score: i32,
        best_move: Option<Move>,
    },
}

impl Searcher {
    /// Principal variation search of `depth` plies at distance `ply` from the root;
    /// `checked` says whether the side to move is in check (the parent knows it from
    /// `gives_check`, which is cheaper than asking again).
    pub(in crate::search) fn search<const DEFAULTS: bool>(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        checked: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        if depth <= 0 {
            return self.quiescence::<DEFAULTS>(alpha, beta, ply, checked);
        }
        // Steps 2 and 3.
        let (alpha, beta) = match self.early_exit(alpha, beta, ply) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(window) => window,
        };
        // Step 4.
        let key = self.pos.key();
        let hit = match self.probe_table(key, alpha, beta, depth, ply, pv_node) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(hit) => hit,
        };
        // Step 6.
        let (eval, improving) = self.static_eval(hit, ply, checked);
        // Steps 8 and 9.
        if !pv_node && !checked {
            if let ControlFlow::Break(score) =
                self.prune_before_moves::<DEFAULTS>(beta, depth, ply, eval)
            {
                return score;
            }
        }
        // Step 11, internal iterative reduction: without a hash move this node is
        // probably new.
        let hash_move = hit.and_then(|h| h.mv);
        let mut depth = depth;
        if depth >= self.knobs::<DEFAULTS>().iir_min_depth && hash_move.is_none() {
            depth -= 1;
        }
        let node = Node {
            ply,
            depth,
            beta,
            pv_node,
            root: ply == 0,
            checked,
            eval,
            improving,
            hash_move,
            cont: self.continuation(ply),
            killers: self.heuristics.killers(ply),
        };
        // Steps 12 to 19.
        match self.move_loop::<DEFAULTS>(&node, alpha) {
            LoopEnd::Aborted => DRAW,
            LoopEnd::NoMoveSearched => -MATE + ply as i32,
            LoopEnd::Searched {
                best_score,
                best_move,
            } => {
                self.store_result(key, &node, alpha, best_score, best_move);
                best_score
            }
        }
    }

    /// Steps 2 and 3: a stopped search, the rules' verdict at an inner node, mate distance
    /// pruning (which narrows the window it returns: no line from here beats a faster
    /// mate already found) and the deepest ply end the node at once.
    #[inline(always)]
    fn early_exit(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> ControlFlow<i32, (i32, i32)> {
        if self.out_of_budget() {
            return ControlFlow::Break(DRAW);
        }
        self.sel_depth = self.sel_depth.max(ply);
        if ply == 0 {
            return ControlFlow::Continue((alpha, beta));
        }
        if let Some(score) = self.rule_score(ply) {
            return ControlFlow::Break(score);
        }
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return ControlFlow::Break(alpha);
        }
        if ply >= MAX_PLY - 2 {
            return ControlFlow::Break(self.evaluate());
        }
        ControlFlow::Continue((alpha, beta))
    }

    /// Step 4: the table's entry for the node, or its stored score when that decides a
    /// node off the principal variation (not the root) searched at least as deep.
    #[inline(always)]
    fn probe_table(
        &self,
        key: u64,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> ControlFlow<i32, Option<Hit>> {
        let hit = self.tt.probe(key);
        if let Some(h) = hit {
            let score = from_tt(h.score, ply);
            let usable = match h.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if !pv_node && ply != 0 && h.depth >= depth && usable {
                return ControlFlow::Break(score);
            }
        }
        ControlFlow::Continue(hit)
    }

    /// Step 6: the static evaluation (the table's when it has one; none in check), kept
    /// for the plies below, and whether it improved on that of two plies before.
    #[inline(always)]
    fn static_eval(&mut self, hit: Option<Hit>, ply: usize, checked: bool) -> (i32, bool) {
        let eval = if checked {
            -INFINITE
        } else {
            hit.map_or_else(|| self.evaluate(), |h| h.eval)
        };
        self.frames[ply].eval = eval;
        let improving = !checked && ply >= 2 && eval > self.frames[ply - 2].eval;
        (eval, improving)
    }

    /// Steps 8 and 9, at a node neither on the principal variation nor in check: reverse
    /// futility and the null move, each of which may end the node with a score.
    #[inline(always)]
    fn prune_before_moves<const DEFAULTS: bool>(
        &mut self,
        beta: i32,
        depth: i32,
        ply: usize,
        eval: i32,
    ) -> ControlFlow<i32> {
        // Reverse futility: far above beta with little depth left.
        let rfp = depth <= self.knobs::<DEFAULTS>().rfp_max_depth;
        if rfp && eval - self.knobs::<DEFAULTS>().rfp_margin * depth >= beta && !is_mate(beta) {
            return ControlFlow::Break(eval);
        }
        // Null move: give the opponent a free move; if we still beat beta, prune.
        let after_null = ply > 0 && self.frames[ply - 1].moved.is_none();
        if depth >= self.knobs::<DEFAULTS>().null_min_depth
            && eval >= beta
            && !after_null
            && self.attacking_material() >= self.knobs::<DEFAULTS>().null_min_material
        {
            let p = self.knobs::<DEFAULTS>();
            let reduction = p.null_base
                + depth / p.null_depth_divisor
                + ((eval - beta) / p.null_eval_divisor).min(p.null_eval_max_reduction);
            let undo = self.pos.make_null();
            // The child probes the table first thing, like the child of a move.
            self.tt.prefetch(self.pos.key());
            let saved_window = self.window_start;
            self.window_start = self.path.len();
            self.path.push(ply_entry(&self.pos, None, false));
            self.line.push(None);
            self.frames[ply].moved = None;
            let score =
                -self.search::<DEFAULTS>(-beta, -beta + 1, depth - 1 - reduction, ply + 1, false);
            self.path.pop();
            self.line.pop();
            self.window_start = saved_window;
            self.pos.unmake_null(undo);
            if self.aborted {
                return ControlFlow::Break(DRAW);
            }
            if score >= beta {
                return ControlFlow::Break(if is_mate(score) { beta } else { score });
            }
        }
        ControlFlow::Continue(())
    }

    /// The moves 1 and 2 plies back, whose continuation history scores the quiet moves
    /// (none before the root).
    #[inline(always)]
    fn continuation(&self, ply: usize) -> Continuation {
        match ply {
            0 => Continuation::NONE,
            1 => Continuation::new(self.frames[0].moved, None),
            _ => Continuation::new(self.frames[ply - 1].moved, self.frames[ply - 2].moved),
        }
    }

    /// Steps 12 to 19: the moves in order, each pruned at shallow depth or searched (with
    /// late move reductions past the first), until one fails high.
    #[inline(always)]
    fn move_loop<const DEFAULTS: bool>(&mut self, node: &Node, mut alpha: i32) -> LoopEnd {
        let Node {
            ply,
            depth,
            beta,
            pv_node,
            root,
            checked,
            eval,
            improving,
            hash_move,
            cont,
            ..
        } = *node;
        let buffers = self.borrow_buffers(ply);
        let mut picker = MovePicker::main(
            &self.pos,
            checked,
            hash_move,
            &self.heuristics,
            ply,
            cont,
            buffers,
        );
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets = std::mem::take(&mut self.tried_quiets[ply]);
        quiets.clear();
        // Against a side without rook, horse or cannon a quiet move may stalemate it (a
        // win): such nodes prune no quiet move.
        let may_stalemate = !self.has_attacking_pieces(!self.pos.side_to_move());
        // Halved unless improving (a shift: a division here would cost more than the
        // rest of the move's bookkeeping).
        let lmp_limit = self.knobs::<DEFAULTS>().lmp_base
            + ((depth * depth) as usize >> usize::from(!improving));
        // From depth 2 on, every child searched probes the table (reductions leave it a
        // ply): its cluster is fetched before the move is played, because the fetch from
        // memory takes longer than the child takes to reach its probe. It is fetched when
        // the move is picked ahead (below), else as soon as the move comes up, before the
        // legality, check and pruning tests.
        let fetch_early = depth >= EARLY_FETCH_MIN_DEPTH;
        // The move after the one being searched, picked ahead (see below).
        let mut ahead: Option<(Move, i32)> = None;

        loop {
            let prunable = !root && !checked && !may_stalemate && best_score > -MATE_BOUND;
            // The parameters are read where they are used, as the constants were: a
            // comparison with a field of `self` is one instruction, as with a constant,
            // and copies kept across the recursive calls would be spilled to the stack.
            let futile = depth <= self.knobs::<DEFAULTS>().futility_max_depth
                && eval + self.knobs::<DEFAULTS>().futility_margin * depth <= alpha;
            if prunable && futile {
                // Futility (below) would prune every quiet move but checks.
                picker.only_checking_quiets();
            }
            let next = ahead.take().or_else(|| {
                let picked = picker.next_move(&self.pos, &self.heuristics);
                if fetch_early {
                    self.fetch_child(picked);
                }
                picked
            });
            let Some((m, order)) = next else {
                break;
            };
            if root && self.banned.contains(&m) {
                continue;
            }
            let Some(mover) = self.pos.piece_at(m.from()) else {
                continue;
            };
            let capture = self.pos.piece_at(m.to()).is_some();

            // Step 14, pruning at shallow depth. Late move pruning: enough quiet moves
            // tried at a shallow node; the rest of them (checks included) are not even
            // generated.
            if prunable
                && !capture
                && depth <= self.knobs::<DEFAULTS>().lmp_max_depth
                && quiets.len() >= lmp_limit
            {
                picker.skip_quiets();
                continue;
            }
            let check = gives_check(&self.pos, m);
            let quiet = !capture && !check;
            // Futility: a quiet move cannot lift a hopeless eval to alpha this close to the leaves.
            if prunable && quiet && futile {
                continue;
            }
            if !root
                && !checked
                && capture
                && !check
                && depth <= self.knobs::<DEFAULTS>().bad_capture_max_depth
                && best_score > -MATE_BOUND
                && MovePicker::is_bad_capture_score(order)
                && eval + self.knobs::<DEFAULTS>().futility_margin * depth <= alpha
            {
                continue;
            }

            // Step 15, the check extension.
            let extension = i32::from(check && ply < CHECK_EXTENSION_MAX_PLY);
            let new_depth = depth - 1 + extension;
            if fetch_early {
                // Fetched when its move comes up, a child's cluster is still on its way
                // when the child probes it; fetched now, it has this move's whole subtree
                // to come. Picking the next move early changes no choice: it is a selection
                // from a list already scored, in the same position, and the tests it skips
                // now (futility turning on) are made again when its turn comes. Only a pick
                // that would generate moves waits for its turn: a cutoff here saves it, and
                // quiet moves are scored by a history this move's subtree still changes.
                ahead = picker.next_listed(&self.pos, &self.heuristics);
                self.fetch_child(ahead);
            }
            // Step 16, the move is made.
            self.frames[ply].moved = Some((mover, m.to()));
            let undo = self.play(m, check, new_depth > 0 && !fetch_early);
            let candidate = Candidate {
                m,
                mover,
                check,
                quiet,
            };
            let score = self.search_move::<DEFAULTS>(node, alpha, searched, candidate, new_depth);
            self.take_back(m, undo);
            if self.aborted {
                self.return_buffers(ply, picker);
                self.tried_quiets[ply] = quiets;
                return LoopEnd::Aborted;
            }
            searched += 1;

            // Step 19, a new best move.
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    // Only principal-variation nodes report a line; a null window's
                    // result is never shown.
                    if pv_node || root {
                        self.update_pv(ply, m);
                    }
                    if root {
                        self.root_best = Some((m, score));
                    }
                    if score >= beta {
                        if !capture {
                            self.heuristics
                                .record_cutoff(ply, cont, (m, mover), &quiets, depth);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if !capture {
                quiets.push((m, mover));
            }
        }

        self.return_buffers(ply, picker);
        self.tried_quiets[ply] = quiets;
        if searched == 0 {
            return LoopEnd::NoMoveSearched;
        }
        LoopEnd::Searched {
            best_score,
            best_move,
        }
    }

    /// Steps 17 and 18: the score of a move already made, `searched` moves after the
    /// node's first. The first is searched with the full window; the others with the
    /// null window, reduced when late and quiet, then again unreduced and with the full
    /// window while they beat alpha.
    #[inline(always)]
    fn search_move<const DEFAULTS: bool>(
        &mut self,
        node: &Node,
        alpha: i32,
        searched: usize,
        candidate: Candidate,
        new_depth: i32,
    ) -> i32 {
        let (beta, ply, check) = (node.beta, node.ply, candidate.check);
        if searched == 0 {
            return -self.search::<DEFAULTS>(-beta, -alpha, new_depth, ply + 1, check);
        }
        let reduction = self.late_move_reduction::<DEFAULTS>(node, searched, candidate, new_depth);
        let mut score =
            -self.search::<DEFAULTS>(-alpha - 1, -alpha, new_depth - reduction, ply + 1, check);
        if score > alpha && reduction > 0 {
            score = -self.search::<DEFAULTS>(-alpha - 1, -alpha, new_depth, ply + 1, check);
        }
        if score > alpha && score < beta {
            score = -self.search::<DEFAULTS>(-beta, -alpha, new_depth, ply + 1, check);
        }
        score
    }

    /// Step 17's reduction of a late quiet move, in plies (the formula is at
    /// [`SearchParams::lmr_min_moves`](crate::search::SearchParams::lmr_min_moves)); 0
    /// for the moves it does not reduce.
    #[inline(always)]
    fn late_move_reduction<const DEFAULTS: bool>(
        &self,
        node: &Node,
        searched: usize,
        candidate: Candidate,
        new_depth: i32,
    ) -> i32 {
        let depth = node.depth;
        if !(depth >= self.knobs::<DEFAULTS>().lmr_min_depth
            && searched >= self.knobs::<DEFAULTS>().lmr_min_moves
            && candidate.quiet
            && !node.checked)
        {
            return 0;
        }
        let Candidate { m, mover, .. } = candidate;
        let mut reduction = i32::from(
            self.lmr[depth.min(MAX_PLY as i32 - 1) as usize][searched.min(LMR_TABLE_MOVES - 1)],
        );
        reduction -= i32::from(node.pv_node);
        reduction += i32::from(!node.improving);
        if node.killers.contains(&Some(m)) {
            reduction -= 1;
        }
        reduction -= self.heuristics.history(node.cont, mover, m.to())
            / self.knobs::<DEFAULTS>().lmr_history_divisor;
        reduction.clamp(0, new_depth - 1)
    }

    /// The node's result into the table, with the bound the window `original_alpha..beta`
    /// it was searched with gives it (no static evaluation in check).
    #[inline(always)]
    fn store_result(
        &mut self,
        key: u64,
        node: &Node,
        original_alpha: i32,
        best_score: i32,
        best_move: Option<Move>,
    ) {
        let bound = if best_score >= node.beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_eval = if node.checked { 0 } else { node.eval };
        self.tt.store(
            key,
            best_move,
            to_tt(best_score, node.ply),
            stored_eval,
            node.depth,
            bound,
        );
    }
}
