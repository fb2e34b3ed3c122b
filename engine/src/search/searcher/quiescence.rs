//! The quiescence search: captures only (every evasion when in check), with delta
//! pruning, so that the static evaluation is taken only in quiet positions.

use super::Searcher;
use crate::board::BitBoard;
use crate::eval::psqt::material;
use crate::movegen::{capture_keeps_king_safe, gives_check, has_legal_move};
use crate::search::params::MAX_PLY;
use crate::search::picker::{is_losing_capture, MovePicker};
use crate::search::score::{DRAW, INFINITE, MATE};

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
        let stand_pat = if checked { -INFINITE } else { self.evaluate() };
        // Read once: the loop's recursive calls would make it a load from `self` per move.
        let delta_margin = self.knobs::<DEFAULTS>().delta_margin;
        let mut best = stand_pat;
        let mut victims = BitBoard::EMPTY;
        if !checked {
            if stand_pat >= beta {
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
        let mut picker = MovePicker::quiescence(&self.pos, checked, victims, buffers);
        if checked && picker.is_empty() {
            self.return_buffers(ply, picker);
            return -MATE + ply as i32;
        }
        while let Some((m, _)) = picker.next_move(&self.pos, &self.heuristics) {
            if !checked {
                let victim = self.pos.piece_at(m.to()).map_or(0, |p| material(p.kind()));
                if stand_pat + victim + delta_margin <= alpha
                    || is_losing_capture(&self.pos, m)
                    || !capture_keeps_king_safe(&self.pos, m)
                {
                    continue;
                }
            }
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
        best
    }
}
