//! What a node teaches the move ordering once its moves are searched, or once the table
//! has decided it (Stockfish's `update_all_stats` and the updates around its table
//! cutoff): the histories, killers and counter moves of `heuristics.rs`.

use super::Searcher;
use crate::board::Move;
use crate::search::heuristics::{stat_bonus, BestMove, Continuation};
use crate::search::params::{
    EVAL_DIFFERENCE_CAP, EVAL_DIFFERENCE_SCALE, FAIL_LOW_BONUS_MARGIN, QUIET_BONUS_MARGIN,
};

/// What the statistics need to know of the node that was searched.
#[derive(Clone, Copy, Debug)]
pub(super) struct Searched {
    pub ply: usize,
    pub depth: i32,
    pub pv_node: bool,
    pub cut_node: bool,
    pub checked: bool,
    pub cont: Continuation,
    /// The window's lower bound the node was searched with.
    pub alpha: i32,
    pub beta: i32,
}

impl Searcher {
    /// The move that led to the node at `ply`, if it was quiet: its piece and square and
    /// the parent's continuation rows and check state, to update its continuation
    /// history.
    fn quiet_previous(
        &self,
        ply: usize,
    ) -> Option<(
        Continuation,
        crate::board::Piece,
        crate::board::Square,
        bool,
    )> {
        let parent = self.frames.get(ply.checked_sub(1)?)?;
        let (piece, to) = parent.moved?;
        (!parent.captured).then_some((parent.cont, piece, to, parent.checked))
    }

    /// After the move loop: the best move's histories when it raised alpha (and the
    /// parent's early quiet move that it refutes loses some), else, when every move
    /// failed low, the parent's quiet move that caused it gains some.
    pub(super) fn update_statistics(
        &mut self,
        node: Searched,
        best_score: i32,
        best_move: Option<Move>,
    ) {
        let ply = node.ply;
        let previous = self.frames[ply.saturating_sub(1)].moved.filter(|_| ply > 0);
        let Some(best) = best_move else {
            let fail_low = node.depth >= 5
                || node.pv_node
                || best_score < node.alpha - FAIL_LOW_BONUS_MARGIN * node.depth;
            if let Some((cont, piece, to, checked)) = self.quiet_previous(ply) {
                if fail_low {
                    let bonus =
                        stat_bonus(node.depth) * (1 + i32::from(node.pv_node || node.cut_node));
                    self.heuristics
                        .update_continuation(cont, piece, to, bonus, checked);
                }
            }
            return;
        };
        let (Some(mover), victim) = (self.pos.piece_at(best.from()), self.pos.piece_at(best.to()))
        else {
            return;
        };
        let best_kind = match victim {
            Some(victim) => BestMove::Capture(mover, best.to(), victim.kind()),
            None => BestMove::Quiet(best, mover),
        };
        let capture_bonus = stat_bonus(node.depth + 1);
        let quiet_bonus = if best_score > node.beta + QUIET_BONUS_MARGIN {
            capture_bonus
        } else {
            stat_bonus(node.depth)
        };
        let quiets = std::mem::take(&mut self.tried_quiets[ply]);
        let captures = std::mem::take(&mut self.tried_captures[ply]);
        self.heuristics.record_best(
            ply,
            node.cont,
            previous,
            best_kind,
            &quiets,
            &captures,
            quiet_bonus,
            capture_bonus,
            node.checked,
        );
        self.tried_quiets[ply] = quiets;
        self.tried_captures[ply] = captures;
        // The parent's quiet move, searched first (or its killer), is refuted here.
        if let Some((cont, piece, to, checked)) = self.quiet_previous(ply) {
            let parent = self.frames[ply - 1];
            let early = parent.move_count == 1 + usize::from(parent.tt_hit)
                || (parent.mv.is_some() && self.heuristics.killers(ply - 1)[0] == parent.mv);
            if early {
                self.heuristics
                    .update_continuation(cont, piece, to, -capture_bonus, checked);
            }
        }
    }

    /// A node decided by the table's result: a quiet hash move that fails high gains as
    /// a best move would (and the parent's quiet move, if it was among the first two,
    /// loses some); one that fails low loses.
    pub(super) fn update_on_table_cutoff(
        &mut self,
        ply: usize,
        depth: i32,
        hash_move: Move,
        fails_high: bool,
    ) {
        if self.pos.piece_at(hash_move.to()).is_some() {
            return;
        }
        let Some(piece) = self.pos.piece_at(hash_move.from()) else {
            return;
        };
        let (cont, checked) = (self.frames[ply].cont, self.frames[ply].checked);
        if fails_high {
            let previous = self.frames[ply.saturating_sub(1)].moved.filter(|_| ply > 0);
            self.heuristics.record_quiet(
                ply,
                cont,
                previous,
                hash_move,
                piece,
                stat_bonus(depth),
                checked,
            );
            if let Some((parent_cont, parent_piece, to, parent_checked)) = self.quiet_previous(ply)
            {
                if self.frames[ply - 1].move_count <= 2 {
                    self.heuristics.update_continuation(
                        parent_cont,
                        parent_piece,
                        to,
                        -stat_bonus(depth + 1),
                        parent_checked,
                    );
                }
            }
        } else {
            self.heuristics
                .update_quiet(cont, piece, hash_move.to(), -stat_bonus(depth), checked);
        }
    }

    /// The static evaluation's verdict on the opponent's quiet move that led here: the
    /// more the evaluation rose for its mover (ours fell), the more its butterfly history
    /// gains.
    pub(super) fn judge_previous_by_evaluation(&mut self, ply: usize, eval: i32) {
        let Some((_, piece, to, checked)) = self.quiet_previous(ply) else {
            return;
        };
        if checked {
            return;
        }
        let parent_eval = self.frames[ply - 1].eval;
        let bonus = (-EVAL_DIFFERENCE_SCALE * (parent_eval + eval))
            .clamp(-EVAL_DIFFERENCE_CAP, EVAL_DIFFERENCE_CAP);
        self.heuristics.update_butterfly(piece, to, bonus);
    }
}
