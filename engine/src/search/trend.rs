//! How the iterations of one search went, as a factor on the time within which the
//! next one may start: a best move that stays through several iterations needs less
//! thought, one that just changed or a falling score needs more (params.rs,
//! [`STABILITY_SCALE`]).

use super::params::{SCORE_DROP_FULL, SCORE_DROP_LOOKBACK, SCORE_DROP_MAX_SCALE, STABILITY_SCALE};
use super::score::is_mate;
use crate::board::Move;

/// The best move and score of each finished iteration, as far as the factor needs them.
#[derive(Debug, Default)]
pub struct IterationTrend {
    best: Option<Move>,
    /// Finished iterations since the best move last changed.
    unchanged: usize,
    /// The last iterations' scores, oldest first (at most `SCORE_DROP_LOOKBACK + 1`).
    scores: Vec<i32>,
}

impl IterationTrend {
    /// Records a finished iteration.
    pub fn record(&mut self, best: Move, score: i32) {
        if self.best == Some(best) {
            self.unchanged += 1;
        } else {
            self.best = Some(best);
            self.unchanged = 0;
        }
        if self.scores.len() > SCORE_DROP_LOOKBACK {
            self.scores.remove(0);
        }
        self.scores.push(score);
    }

    /// The factor on the new-iteration threshold.
    pub fn time_scale(&self) -> f64 {
        let stability = STABILITY_SCALE[self.unchanged.min(STABILITY_SCALE.len() - 1)];
        stability * self.score_drop_scale()
    }

    /// 1 unless the score fell against the oldest one kept; mate scores say nothing
    /// about a slow fall.
    fn score_drop_scale(&self) -> f64 {
        let (Some(&then), Some(&now)) = (self.scores.first(), self.scores.last()) else {
            return 1.0;
        };
        if is_mate(then) || is_mate(now) {
            return 1.0;
        }
        let fall = (then - now).clamp(0, SCORE_DROP_FULL);
        1.0 + (SCORE_DROP_MAX_SCALE - 1.0) * f64::from(fall) / f64::from(SCORE_DROP_FULL)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::movegen::legal_moves;

    fn two_moves() -> (Move, Move) {
        let moves = legal_moves(&Position::startpos());
        (moves[0], moves[1])
    }

    #[test]
    fn a_settled_best_move_shortens_the_threshold_and_a_new_one_lengthens_it() {
        let (a, b) = two_moves();
        let mut trend = IterationTrend::default();
        trend.record(a, 20);
        assert_eq!(trend.time_scale(), STABILITY_SCALE[0]);
        for _ in 0..6 {
            trend.record(a, 20);
        }
        assert_eq!(trend.time_scale(), STABILITY_SCALE[4]);
        trend.record(b, 20);
        assert_eq!(trend.time_scale(), STABILITY_SCALE[0]);
    }

    #[test]
    fn a_falling_score_lengthens_the_threshold_up_to_its_cap() {
        let (a, _) = two_moves();
        let mut trend = IterationTrend::default();
        for score in [100, 100, 100, 100] {
            trend.record(a, score);
        }
        let settled = trend.time_scale();
        trend.record(a, 0); // 100 below the score three iterations back
        let halfway = trend.time_scale() / STABILITY_SCALE[4];
        assert!((halfway - (1.0 + (SCORE_DROP_MAX_SCALE - 1.0) / 2.0)).abs() < 1e-9);
        trend.record(a, -900);
        let capped = trend.time_scale() / STABILITY_SCALE[4];
        assert!((capped - SCORE_DROP_MAX_SCALE).abs() < 1e-9);
        assert!(settled < trend.time_scale());
    }
}
