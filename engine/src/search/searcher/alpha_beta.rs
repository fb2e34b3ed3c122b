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

use super::statistics::Searched;
use super::{ply_entry, Searcher};
use crate::board::{Move, Piece, PieceKind};
use crate::eval::psqt::material;
use crate::movegen::gives_check;
use crate::search::heuristics::{Continuation, CONTINUATION_PLIES};
use crate::search::params::{
    CAPTURE_FUTILITY_HISTORY_DIVISOR, CHECK_EXTENSION_MAX_PLY, EARLY_FETCH_MIN_DEPTH,
    LMR_CHILD_CUTOFFS, LMR_CUT_NODE_DEPTH_OFFSET, LMR_DEEPER_MARGIN, LMR_DEEPER_PER_PLY,
    LMR_MUCH_DEEPER_MARGIN, LMR_MUCH_DEEPER_PER_PLY, LMR_PARENT_MOVE_COUNT, LMR_PV_DEPTH_OFFSET,
    LMR_TABLE_SIZE, LMR_TT_PV_DEPTH_OFFSET, MAX_PLY,
};
use crate::search::picker::MovePicker;
use crate::search::score::{
    from_tt, is_decisive, is_mate, to_tt, DRAW, INFINITE, MATE, MATE_BOUND,
};
use crate::search::see::see_ge;
use crate::search::tt::{Bound, Hit, DEPTH_UNSEARCHED};

/// What the move loop and the store know of a node once it has been probed, evaluated and
/// not pruned.
#[derive(Clone, Copy)]
struct Node {
    ply: usize,
    /// The remaining depth, after internal iterative reduction.
    depth: i32,
    beta: i32,
    pv_node: bool,
    /// Expected to fail high (see `search`).
    cut_node: bool,
    root: bool,
    checked: bool,
    /// The hash move is a capture.
    tt_capture: bool,
    /// A principal-variation node whose hash move failed low at least as deep before.
    likely_fail_low: bool,
    /// The node is or was on a principal variation (a PV node, or the table says so).
    tt_pv: bool,
    /// The static evaluation, or the table's score where its bound makes it the better
    /// estimate (`-INFINITE` in check).
    eval: i32,
    /// Whether `eval` is above that of two plies before.
    improving: bool,
    hash_move: Option<Move>,
    /// The moves 1 and 2 plies back, whose continuation history scores the quiet moves.
    cont: Continuation,
}

/// The move the loop is searching.
#[derive(Clone, Copy)]
struct Candidate {
    m: Move,
    mover: Piece,
    check: bool,
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
    /// `gives_check`, which is cheaper than asking again), and `cut_node` whether the node
    /// is expected to fail high (a null-window node whose parent expects to fail low:
    /// Stockfish's `cutNode`), which makes its late moves reduced more.
    pub(in crate::search) fn search<const DEFAULTS: bool>(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        checked: bool,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        if depth <= 0 {
            return self.quiescence::<DEFAULTS>(alpha, beta, ply, checked);
        }
        // The counters the plies below read start afresh at each node.
        self.frames[ply].move_count = 0;
        self.frames[ply + 2].cutoff_count = 0;
        self.frames[ply + 2].stat_score = 0;
        let cont = self.continuation(ply);
        self.frames[ply].cont = cont;
        self.frames[ply].checked = checked;
        if ply == 0 {
            self.root_delta = (beta - alpha).max(1);
        }
        // Steps 2 and 3.
        let (alpha, beta) = match self.early_exit(alpha, beta, ply) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(window) => window,
        };
        // Step 4.
        let key = self.pos.key();
        let hit = match self.probe_table(key, alpha, beta, depth, ply, pv_node) {
            ControlFlow::Break((score, hash_move)) => {
                if let Some(m) = hash_move {
                    self.update_on_table_cutoff(ply, depth, m, score >= beta);
                }
                return score;
            }
            ControlFlow::Continue(hit) => hit,
        };
        self.frames[ply].tt_hit = hit.is_some();
        let tt_pv = pv_node || hit.is_some_and(|h| h.pv);
        // Step 6.
        let (eval, improving) = self.static_eval(key, hit, ply, checked, tt_pv);
        // Steps 8 and 9.
        if !pv_node && !checked {
            if let ControlFlow::Break(score) = self.prune_before_moves::<DEFAULTS>(
                alpha, beta, depth, ply, eval, improving, tt_pv, cut_node,
            ) {
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
            cut_node,
            root: ply == 0,
            checked,
            tt_pv,
            tt_capture: hash_move.is_some_and(|m| self.pos.piece_at(m.to()).is_some()),
            likely_fail_low: pv_node
                && hit.is_some_and(|h| {
                    h.mv.is_some() && h.depth >= depth && h.bound.bounds_from(false)
                }),
            eval,
            improving,
            hash_move,
            cont,
        };
        // Steps 12 to 19.
        match self.move_loop::<DEFAULTS>(&node, alpha) {
            LoopEnd::Aborted => DRAW,
            LoopEnd::NoMoveSearched => -MATE + ply as i32,
            LoopEnd::Searched {
                best_score,
                best_move,
            } => {
                let searched = Searched {
                    ply,
                    depth: node.depth,
                    pv_node,
                    cut_node,
                    checked,
                    cont,
                    alpha,
                    beta,
                };
                self.update_statistics(searched, best_score, best_move);
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

    /// Step 4: the table's entry for the node, or its stored score (and move) when that
    /// decides a node off the principal variation (not the root) searched at least as
    /// deep.
    #[inline(always)]
    fn probe_table(
        &self,
        key: u64,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        pv_node: bool,
    ) -> ControlFlow<(i32, Option<Move>), Option<Hit>> {
        let hit = self.tt.probe(key);
        if let Some(h) = hit {
            let score = from_tt(h.score, ply);
            if !pv_node && ply != 0 && h.depth >= depth && h.bound.settles(score, alpha, beta) {
                return ControlFlow::Break((score, h.mv));
            }
        }
        ControlFlow::Continue(hit)
    }

    /// Step 6: the static evaluation (the table's when it has one; none in check), kept
    /// for the plies below, whether it improved on that of two plies before, and the
    /// estimate the pruning reads: the table's score where its bound says it is nearer
    /// the truth than the evaluation. A new evaluation is stored at once, so that a node
    /// that ends without a result (reverse futility, the null move) still saves it.
    #[inline(always)]
    fn static_eval(
        &mut self,
        key: u64,
        hit: Option<Hit>,
        ply: usize,
        checked: bool,
        tt_pv: bool,
    ) -> (i32, bool) {
        if checked {
            self.frames[ply].eval = -INFINITE;
            return (-INFINITE, false);
        }
        let eval = match hit {
            Some(h) => h.eval,
            None => {
                let eval = self.evaluate();
                self.tt
                    .store(key, None, 0, eval, DEPTH_UNSEARCHED, Bound::None, tt_pv);
                eval
            }
        };
        self.frames[ply].eval = eval;
        if ply > 0 {
            self.judge_previous_by_evaluation(ply, eval);
        }
        let improving = ply >= 2 && eval > self.frames[ply - 2].eval;
        let estimate = match hit {
            Some(h) if !is_decisive(h.score) && h.bound.bounds_from(h.score > eval) => h.score,
            _ => eval,
        };
        (estimate, improving)
    }

    /// Steps 8 and 9, at a node neither on the principal variation nor in check: reverse
    /// futility and the null move, each of which may end the node with a score.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn prune_before_moves<const DEFAULTS: bool>(
        &mut self,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
        eval: i32,
        improving: bool,
        tt_pv: bool,
        cut_node: bool,
    ) -> ControlFlow<i32> {
        // Razoring: so far below alpha that only captures could help; if they do not, the
        // node fails low.
        if !improving
            && eval
                < alpha
                    - self.knobs::<DEFAULTS>().razor_margin
                    - self.knobs::<DEFAULTS>().razor_depth_margin * depth * depth
        {
            let score = self.quiescence::<DEFAULTS>(alpha - 1, alpha, ply, false);
            if self.aborted {
                return ControlFlow::Break(DRAW);
            }
            if score < alpha {
                return ControlFlow::Break(score);
            }
        }
        // Reverse futility: far above beta with little depth left (less far when the
        // evaluation improved, or when the opponent's move had a poor history).
        let parent_stat = if ply > 0 {
            self.frames[ply - 1].stat_score
        } else {
            0
        };
        if !tt_pv
            && depth <= self.knobs::<DEFAULTS>().rfp_max_depth
            && eval
                - self.knobs::<DEFAULTS>().rfp_margin * (depth - i32::from(improving))
                - parent_stat / self.knobs::<DEFAULTS>().rfp_history_divisor
                >= beta
            && eval >= beta
            && !is_mate(beta)
        {
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
            self.fetch_node(self.pos.key());
            let saved_window = self.window_start;
            self.window_start = self.path.len();
            self.path.push(ply_entry(&self.pos, None, false));
            self.line.push(None);
            self.frames[ply].moved = None;
            self.frames[ply].mv = None;
            self.frames[ply].captured = false;
            let score = -self.search::<DEFAULTS>(
                -beta,
                -beta + 1,
                depth - 1 - reduction,
                ply + 1,
                false,
                !cut_node,
            );
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

    /// The moves 1, 2, 4 and 6 plies back, whose continuation history scores the quiet
    /// moves (none before the root).
    #[inline(always)]
    fn continuation(&self, ply: usize) -> Continuation {
        Continuation::new(
            CONTINUATION_PLIES.map(|back| ply.checked_sub(back).and_then(|i| self.frames[i].moved)),
        )
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
        let previous = ply.checked_sub(1).and_then(|i| self.frames[i].moved);
        let mut picker = MovePicker::main(
            &self.pos,
            checked,
            hash_move,
            &self.heuristics,
            ply,
            cont,
            self.heuristics.counter_move(previous),
            buffers,
        );
        let mut best_score = -INFINITE;
        let mut best_move = None;
        let mut searched = 0usize;
        // Every move that came up, pruned or searched (Stockfish's `moveCount`), and the
        // quiet ones among them: late move pruning and reductions count them.
        let mut move_count = 0usize;
        let mut quiets_seen = 0usize;
        let mut quiets = std::mem::take(&mut self.tried_quiets[ply]);
        quiets.clear();
        let mut captures = std::mem::take(&mut self.tried_captures[ply]);
        captures.clear();
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
            let Some((m, _)) = next else {
                break;
            };
            if root && self.banned.contains(&m) {
                continue;
            }
            let Some(mover) = self.pos.piece_at(m.from()) else {
                continue;
            };
            let victim = self.pos.piece_at(m.to()).map(|p| p.kind());
            let capture = victim.is_some();
            move_count += 1;

            // Step 14, pruning at shallow depth. Late move pruning: enough quiet moves
            // came up at a shallow node; the rest of them (checks included) are not even
            // generated.
            if !capture {
                quiets_seen += 1;
                if prunable
                    && depth <= self.knobs::<DEFAULTS>().lmp_max_depth
                    && quiets_seen > lmp_limit
                {
                    picker.skip_quiets();
                    continue;
                }
            }
            let check = gives_check(&self.pos, m);
            let quiet = !capture && !check;
            // Futility: a quiet move cannot lift a hopeless eval to alpha this close to the leaves.
            if prunable && quiet && futile {
                continue;
            }
            if prunable
                && self
                    .prune_late_move::<DEFAULTS>(node, alpha, move_count, m, mover, victim, check)
            {
                continue;
            }
            // Captures and checks that lose material in their exchange, by more the
            // shallower the node.
            if !root
                && (capture || check)
                && best_score > -MATE_BOUND
                && !see_ge(
                    &self.pos,
                    m,
                    -self.knobs::<DEFAULTS>().see_capture_margin * depth,
                )
            {
                continue;
            }

            // Step 15, the check extension.
            let extension = i32::from(
                check
                    && ply < CHECK_EXTENSION_MAX_PLY
                    && depth >= self.knobs::<DEFAULTS>().check_extension_min_depth,
            );
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
            self.frames[ply].mv = Some(m);
            self.frames[ply].captured = capture;
            let undo = self.play(m, check, !fetch_early);
            let candidate = Candidate { m, mover, check };
            self.frames[ply].move_count = move_count;
            let score = self.search_move::<DEFAULTS>(
                node, alpha, best_score, searched, move_count, candidate, capture, new_depth,
            );
            self.take_back(m, undo);
            if self.aborted {
                self.return_buffers(ply, picker);
                self.tried_quiets[ply] = quiets;
                self.tried_captures[ply] = captures;
                return LoopEnd::Aborted;
            }
            searched += 1;

            // Step 19, a new best move.
            if score <= best_score {
                self.frames[ply].cutoff_count = 0;
            }
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
                        self.frames[ply].cutoff_count += 1;
                        break;
                    }
                    alpha = score;
                }
            }
            if let Some(victim) = victim {
                captures.push((mover, m.to(), victim));
            } else {
                quiets.push((m, mover));
            }
        }

        self.return_buffers(ply, picker);
        self.tried_quiets[ply] = quiets;
        self.tried_captures[ply] = captures;
        if searched == 0 {
            return LoopEnd::NoMoveSearched;
        }
        LoopEnd::Searched {
            best_score,
            best_move,
        }
    }

    /// Step 14's pruning of one move by its own merits, at a node whose quiet moves may
    /// be pruned (not the root, not in check, after a first move), Stockfish's: the
    /// depth it would be searched at after late move reductions (`lmr_depth`) decides. A
    /// quiet move that gives no check is pruned when its continuation history is poor,
    /// when the evaluation plus a margin and its history cannot reach alpha, or when it
    /// loses material in its exchange; a capture that gives no check when even its victim
    /// and a margin leave the evaluation below alpha.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn prune_late_move<const DEFAULTS: bool>(
        &self,
        node: &Node,
        alpha: i32,
        move_count: usize,
        m: Move,
        mover: Piece,
        victim: Option<PieceKind>,
        check: bool,
    ) -> bool {
        if check {
            return false;
        }
        let p = self.knobs::<DEFAULTS>();
        let depth = node.depth;
        let table = self.lmr[(depth as usize).min(LMR_TABLE_SIZE - 1)]
            * self.lmr[move_count.min(LMR_TABLE_SIZE - 1)];
        let window = (node.beta - alpha) * 1024 / self.root_delta;
        let r = (table + p.lmr_base - window) / 1024
            + i32::from(!node.improving && table > p.lmr_not_improving);
        let lmr_depth = (depth - 1 - r).max(0);
        match victim {
            Some(victim) => {
                !node.pv_node
                    && lmr_depth < p.capture_futility_max_depth
                    && node.eval
                        + p.capture_futility_margin
                        + p.capture_futility_depth_margin * lmr_depth
                        + material(victim)
                        + self.heuristics.capture_history(mover, m.to(), victim)
                            / CAPTURE_FUTILITY_HISTORY_DIVISOR
                        < alpha
            }
            None => {
                let rows = self.heuristics.rows(node.cont, mover);
                if lmr_depth < p.history_prune_max_depth
                    && rows.continuation(m.to()) < -p.history_prune_margin * (depth - 1)
                {
                    return true;
                }
                if lmr_depth < p.futility_max_lmr_depth
                    && node.eval
                        + p.futility_base
                        + p.futility_lmr_margin * lmr_depth
                        + rows.stat(m.to()) / p.futility_history_divisor
                        <= alpha
                {
                    return true;
                }
                !see_ge(
                    &self.pos,
                    m,
                    -p.see_quiet_margin * lmr_depth * lmr_depth - p.see_quiet_linear * lmr_depth,
                )
            }
        }
    }

    /// Steps 17 and 18: the score of a move already made, `searched` moves after the
    /// node's first. The first move of a principal-variation node is searched with the
    /// full window; every other move with the null window, reduced when late (and then,
    /// if it beats alpha, again a little deeper or shallower than planned, as the reduced
    /// score suggests), and at principal-variation nodes again with the full window while
    /// it beats alpha.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn search_move<const DEFAULTS: bool>(
        &mut self,
        node: &Node,
        alpha: i32,
        best_score: i32,
        searched: usize,
        move_count: usize,
        candidate: Candidate,
        capture: bool,
        mut new_depth: i32,
    ) -> i32 {
        let (beta, ply, check) = (node.beta, node.ply, candidate.check);
        let reduced = node.depth >= self.knobs::<DEFAULTS>().lmr_min_depth
            && searched > 0
            && (!check || self.knobs::<DEFAULTS>().lmr_checks != 0)
            && move_count
                > self.knobs::<DEFAULTS>().lmr_min_moves + usize::from(node.pv_node && ply <= 1)
            && (!node.tt_pv
                || !capture
                || (node.cut_node && ply > 0 && self.frames[ply - 1].move_count > 1));
        let mut score = -INFINITE;
        if reduced {
            let r =
                self.late_move_reduction::<DEFAULTS>(node, alpha, move_count, candidate, capture);
            let d =
                (new_depth - r).clamp(1, new_depth + self.knobs::<DEFAULTS>().lmr_max_extension);
            score = -self.search::<DEFAULTS>(-alpha - 1, -alpha, d, ply + 1, check, true);
            if score > alpha && d < new_depth {
                // The reduced search beat alpha: search again, deeper when it beat it by a
                // margin, shallower when it did not beat the best score by much.
                let shortfall = new_depth - d;
                let deeper = score > alpha + LMR_DEEPER_MARGIN + LMR_DEEPER_PER_PLY * shortfall;
                let much_deeper =
                    score > alpha + LMR_MUCH_DEEPER_MARGIN + LMR_MUCH_DEEPER_PER_PLY * shortfall;
                let shallower = score < best_score + new_depth;
                new_depth += i32::from(deeper) + i32::from(much_deeper) - i32::from(shallower);
                if new_depth > d {
                    score = -self.search::<DEFAULTS>(
                        -alpha - 1,
                        -alpha,
                        new_depth,
                        ply + 1,
                        check,
                        !node.cut_node,
                    );
                }
            }
        } else if !node.pv_node || searched > 0 {
            score = -self.search::<DEFAULTS>(
                -alpha - 1,
                -alpha,
                new_depth,
                ply + 1,
                check,
                !node.cut_node,
            );
        }
        if node.pv_node && (searched == 0 || (score > alpha && (node.root || score < beta))) {
            score = -self.search::<DEFAULTS>(-beta, -alpha, new_depth, ply + 1, check, false);
        }
        score
    }

    /// Step 17's reduction of a late move, in plies (the formula is at
    /// [`SearchParams::lmr_min_moves`](crate::search::SearchParams::lmr_min_moves)); it
    /// may be negative (an extension of one ply at most, applied by the caller's clamp).
    #[inline(always)]
    fn late_move_reduction<const DEFAULTS: bool>(
        &mut self,
        node: &Node,
        alpha: i32,
        move_count: usize,
        candidate: Candidate,
        capture: bool,
    ) -> i32 {
        let (depth, ply) = (node.depth, node.ply);
        let p = self.knobs::<DEFAULTS>();
        let table = self.lmr[(depth as usize).min(LMR_TABLE_SIZE - 1)]
            * self.lmr[move_count.min(LMR_TABLE_SIZE - 1)];
        let window = (node.beta - alpha) * 1024 / self.root_delta;
        let mut r = (table + p.lmr_base - window) / 1024
            + i32::from(!node.improving && table > p.lmr_not_improving);
        if node.tt_pv && !node.likely_fail_low {
            r -= 1 + p.lmr_tt_pv / (LMR_TT_PV_DEPTH_OFFSET + depth);
        }
        if ply > 0 && self.frames[ply - 1].move_count > LMR_PARENT_MOVE_COUNT {
            r -= 1;
        }
        if node.cut_node {
            r += p.lmr_cut_node_base + p.lmr_cut_node / (LMR_CUT_NODE_DEPTH_OFFSET + depth);
        }
        if node.tt_capture {
            r += 1;
        }
        if node.pv_node {
            r -= 1 + p.lmr_pv / (LMR_PV_DEPTH_OFFSET + depth);
        }
        if !node.pv_node && self.frames[ply + 1].cutoff_count > LMR_CHILD_CUTOFFS {
            r += 1;
        }
        let history = if capture {
            0
        } else {
            let Candidate { m, mover, .. } = candidate;
            self.heuristics.stat_score(node.cont, mover, m.to())
        };
        let stat_score = history - p.lmr_stat_offset;
        self.frames[ply].stat_score = stat_score;
        r - stat_score / p.lmr_history_divisor
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
        let stored_eval = if node.checked {
            0
        } else {
            self.frames[node.ply].eval
        };
        self.tt.store(
            key,
            best_move,
            to_tt(best_score, node.ply),
            stored_eval,
            node.depth,
            bound,
            node.tt_pv,
        );
    }
}
