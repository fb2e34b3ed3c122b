//! The quiescence search: captures only (every evasion when in check), with delta
//! pruning, so that the static evaluation is taken only in quiet positions. It probes the
//! transposition table (its results are stored at depth [`DEPTH_QUIESCENCE`], so they
//! decide only other quiescence nodes) and reads the static evaluation stored there.

use super::Searcher;
use crate::board::BitBoard;
use crate::eval::psqt::material;
use crate::movegen::{capture_keeps_king_safe, gives_check, has_legal_move};
use crate::search::params::MAX_PLY;
use crate::search::picker::MovePicker;
use crate::search::score::{from_tt, is_decisive, to_tt, DRAW, INFINITE, MATE};
use crate::search::see::see_ge;
use crate::search::tt::{Bound, DEPTH_QUIESCENCE, DEPTH_UNSEARCHED};

impl Searcher {
    /// Quiescence search: captures only (every evasion when in check), so the static
    /// evaluation is taken only in quiet positions.
    pub(super) fn quiescence<const DEFAULTS: bool>(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        checked: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        if self.out_of_budget() {
            return DRAW;
        }
        self.sel_depth = self.sel_depth.max(ply);
        if ply >= MAX_PLY - 2 {
            return self.evaluate();
        }
        // With only king, advisors, elephants and pawns a side can be stalemated, which
        // loses in Xiangqi: the static evaluation would miss it.
        if !checked
            && !self.has_attacking_pieces(self.pos.side_to_move())
            && !has_legal_move(&self.pos)
        {
            return -MATE + ply as i32;
        }
        let key = self.pos.key();
        let hit = self.tt.probe(key);
        if let Some(h) = hit {
            let score = from_tt(h.score, ply);
            if !pv_node && h.depth >= DEPTH_QUIESCENCE && h.bound.settles(score, alpha, beta) {
                return score;
            }
        }
        let original_alpha = alpha;
        let static_eval = match (checked, hit) {
            (true, _) => -INFINITE,
            (false, Some(h)) => h.eval,
            (false, None) => self.evaluate(),
        };
        // The table's score, where its bound makes it nearer the truth, stands in for the
        // evaluation.
        let stand_pat = match hit {
            Some(h)
                if !checked
                    && !is_decisive(h.score)
                    && h.bound.bounds_from(h.score > static_eval) =>
            {
                h.score
            }
            _ => static_eval,
        };
        // Read once: the loop's recursive calls would make it a load from `self` per move.
        let delta_margin = self.knobs::<DEFAULTS>().delta_margin;
        let mut best = stand_pat;
        let mut best_move = None;
        let mut victims = BitBoard::EMPTY;
        if !checked {
            if stand_pat >= beta {
                if hit.is_none() {
                    self.tt.store(
                        key,
                        None,
                        to_tt(stand_pat, ply),
                        static_eval,
                        DEPTH_UNSEARCHED,
                        Bound::Lower,
                        false,
                    );
                }
                return stand_pat;
            }
            // Delta pruning: only captures of pieces that may lift the score to alpha are
            // generated; when there are none, no capture will reach it.
            victims = self.victims_above(alpha - stand_pat - delta_margin);
            if victims.is_empty() {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
        }
        let buffers = self.borrow_buffers(ply);
        let mut picker =
            MovePicker::quiescence(&self.pos, checked, victims, &self.heuristics, buffers);
        if checked && picker.is_empty() {
            self.return_buffers(ply, picker);
            return -MATE + ply as i32;
        }
        while let Some((m, _)) = picker.next_move(&self.pos, &self.heuristics) {
            if !checked {
                // Delta pruning, then captures that lose material in the exchange; one
                // that cannot lift the score to alpha even with the margin must win it.
                let victim = self.pos.piece_at(m.to()).map_or(0, |p| material(p.kind()));
                let futile = stand_pat + delta_margin <= alpha;
                if stand_pat + victim + delta_margin <= alpha
                    || !see_ge(&self.pos, m, i32::from(futile))
                    || !capture_keeps_king_safe(&self.pos, m)
                {
                    continue;
                }
            }
            // The child probes the table first thing: its cluster is fetched now, while
            // the check test, the move and the child's first tests run.
            self.fetch_node(self.pos.key_after(m));
            let check = gives_check(&self.pos, m);
            let undo = self.play_in_quiescence(m);
            let score = -self.quiescence::<DEFAULTS>(-beta, -alpha, ply + 1, check);
            self.pos.unmake_move(m, undo);
            self.network_unmake();
            if self.aborted {
                self.return_buffers(ply, picker);
                return DRAW;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = Some(m);
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.return_buffers(ply, picker);
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let stored_eval = if checked { 0 } else { static_eval };
        self.tt.store(
            key,
            best_move,
            to_tt(best, ply),
            stored_eval,
            DEPTH_QUIESCENCE,
            bound,
            false,
        );
        best
    }
}
