//! Iterative deepening with aspiration windows: the entry point of a search.

use std::sync::Arc;
use std::time::Duration;

use super::limits::{Control, Limits};
use super::params::{
    ASPIRATION_MAX_WINDOW, INFINITE_WAIT_POLL, MAX_ITERATION_DEPTH, NEW_ITERATION_SHARE,
};
use super::score::{is_mate, INFINITE, MATE};
use super::searcher::{ply_entry, Searcher};
use super::trend::IterationTrend;
use crate::board::{Move, Position};
use crate::movegen::{gives_check, in_check, legal_moves};

/// What a search reports after each iteration.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: i32,
    pub sel_depth: usize,
    /// Score for the side to move.
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
    pub hashfull: usize,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` when the side to move has no legal (or no unbanned) move.
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub nodes: u64,
    pub time: Duration,
}

/// The game so far: the start position and the moves played from it.
#[derive(Clone, Debug)]
pub struct GameSoFar {
    pub start: Position,
    pub moves: Vec<Move>,
}

impl Searcher {
    /// Searches the position reached by `game` within `limits`, never playing a move of
    /// `banned`, and calls `report` after each finished iteration. Returns when a limit
    /// is reached or `control` says stop (in infinite or ponder mode only on stop).
    pub fn think(
        &mut self,
        game: &GameSoFar,
        limits: &Limits,
        banned: &[Move],
        control: Arc<Control>,
        report: &mut dyn FnMut(&Report),
    ) -> SearchResult {
        self.prepare(game, limits, banned, control);
        let root_moves: Vec<Move> = legal_moves(&self.pos)
            .iter()
            .copied()
            .filter(|m| !banned.contains(m))
            .collect();
        let mut result = SearchResult {
            best: root_moves.first().copied(),
            ponder: None,
            score: 0,
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
        };
        if root_moves.is_empty() {
            result.score = -MATE;
            self.wait_while_infinite(limits);
            return result;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_ITERATION_DEPTH)
            .clamp(1, MAX_ITERATION_DEPTH);
        let timed = self.budget.is_some();
        let mut score = 0;
        let mut trend = IterationTrend::default();
        for depth in 1..=max_depth {
            self.sel_depth = 0;
            self.root_best = None;
            let value = self.aspiration(depth, score);
            if let Some((m, s)) = self.root_best {
                if !self.aborted || depth > 1 {
                    result.best = Some(m);
                    result.score = s;
                    result.ponder = if self.root_pv().first() == Some(&m) {
                        self.root_pv().get(1).copied()
                    } else {
                        None
                    };
                }
            }
            if self.aborted {
                break;
            }
            score = value;
            result.depth = depth;
            result.score = value;
            let pv = self.root_pv().to_vec();
            result.ponder = pv.get(1).copied();
            report(&Report {
                depth,
                sel_depth: self.sel_depth,
                score: value,
                nodes: self.nodes,
                time: self.control.elapsed(),
                pv,
                hashfull: self.tt.hashfull(),
            });
            if let Some(best) = result.best {
                trend.record(best, value);
            }
            if let Some(budget) = self.budget {
                let only_move = root_moves.len() == 1;
                let elapsed = self.control.clock_elapsed();
                let (share, of) = NEW_ITERATION_SHARE;
                let threshold = (budget.soft * share / of)
                    .mul_f64(trend.time_scale())
                    .min(budget.hard);
                let enough = !budget.fixed && elapsed >= threshold;
                if !self.control.pondering() && (only_move || enough) {
                    break;
                }
            }
            // A forced mate found with room to spare will not change with more depth.
            if is_mate(value) && (MATE - value.abs()) < depth && timed {
                break;
            }
        }
        result.nodes = self.nodes;
        result.time = self.control.elapsed();
        self.wait_while_infinite(limits);
        result
    }

    fn prepare(
        &mut self,
        game: &GameSoFar,
        limits: &Limits,
        banned: &[Move],
        control: Arc<Control>,
    ) {
        self.tt.new_search();
        self.heuristics.new_search();
        self.reset_frames();
        self.pos = game.start.with_values(self.evaluator.values());
        self.path.clear();
        self.line.clear();
        self.window_start = 0;
        self.path
            .push(ply_entry(&self.pos, None, in_check(&self.pos)));
        for &m in &game.moves {
            let check = gives_check(&self.pos, m);
            let undo = self.pos.make_move(m);
            self.path.push(ply_entry(&self.pos, Some(m), check));
            self.line.push(Some((m, undo)));
        }
        self.nodes = 0;
        self.aborted = false;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.budget = if limits.infinite {
            None
        } else {
            limits.budget()
        };
        self.control = control;
        self.banned = banned.to_vec();
        self.root_in_check = in_check(&self.pos);
        self.refresh_network();
    }

    /// One iteration, first with a narrow window around the last score, widening on failure.
    fn aspiration(&mut self, depth: i32, previous: i32) -> i32 {
        if depth < self.params.aspiration_min_depth || is_mate(previous) {
            return self.search_root(-INFINITE, INFINITE, depth);
        }
        let mut delta = self.params.aspiration_window;
        let (mut alpha, mut beta) = (previous - delta, previous + delta);
        loop {
            let score = self.search_root(alpha, beta, depth);
            if self.aborted {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return score;
            }
            delta += delta;
            if delta > ASPIRATION_MAX_WINDOW {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// In infinite and ponder mode the answer waits for `stop` (or `ponderhit`).
    fn wait_while_infinite(&self, limits: &Limits) {
        while (limits.infinite || self.control.pondering()) && !self.control.stopped() {
            if limits.ponder && !self.control.pondering() && !limits.infinite {
                // Ponderhit arrived after the search had already finished: answer now.
                return;
            }
            std::thread::sleep(INFINITE_WAIT_POLL);
        }
    }
}
