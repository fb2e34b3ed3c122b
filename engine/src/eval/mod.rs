//! Evaluation: levels 0..6 of knowledge, one module per term. `docs/evaluation.md` gives
//! every term with its formula, its weights and the design document it comes from.
//!
//! Scores are in seed 002's unit (an unadvanced pawn = 50, a crossed pawn = 100, a rook =
//! 1000) and are given from the view of the side to move.
//!
//! | level | adds | modules |
//! |---|---|---|
//! | 0 | material | [`psqt`] (incremental) |
//! | 1 | piece-square tables of seed 000 | [`psqt`] (incremental) |
//! | 2 | defensive deficiencies by piece counts | [`deficiency`] |
//! | 3 | pairs, protection, threats, pins on rooks | [`patterns`], [`threats`], [`pins`] |
//! | 4 | mobility, obstruction | [`mobility`], [`obstruction`] |
//! | 5 | king safety | [`king_shape`], [`palace`], [`wing_attack`], [`king_pins`] |
//! | 6 | phase scaling, pawn details, tempo, drawish endings | [`phase`], [`pawns`], [`tempo`], [`endgame`] |
//! | 7 | a learned network instead of the terms (needs a network file) | [`nnue`] |
//!
//! Level 7 is evaluated by the search with the network it was given (see
//! [`crate::search::Searcher::set_network`]); an [`Evaluator`] alone has no network and
//! evaluates level 7 as level 6.
//!
//! Every weight is in [`weights`]. Levels 0 and 1 read the incremental sums kept by
//! [`Position`] and nothing else; levels 2..6 compute every term for both sides with the
//! same colour-generic code (rules written with "own" ranks), so the evaluation is exactly
//! antisymmetric under [`Position::color_flipped`] and symmetric under
//! [`Position::mirrored`] — the property tests in `tests/eval_properties.rs` check it.

mod breakdown;
pub mod context;
pub mod deficiency;
pub mod endgame;
mod full;
pub mod geometry;
pub mod king_pins;
pub mod king_shape;
pub mod mobility;
pub mod nnue;
pub mod obstruction;
pub mod palace;
pub mod patterns;
pub mod pawns;
pub mod phase;
pub mod pins;
pub mod psqt;
pub mod scores;
pub mod tables;
pub mod tempo;
pub mod term_weights;
pub mod threats;
pub mod tuned;
pub mod weights;
pub mod wing_attack;

pub use breakdown::Breakdown;
pub use scores::{Scores, Term};
pub use term_weights::{TermWeights, TERM_TUNABLES};

use crate::board::{Color, PieceValues, Position};

/// The highest hand-made evaluation level (all knowledge), the default.
pub const MAX_LEVEL: u8 = 6;
pub use nnue::NNUE_LEVEL;
/// The first level whose evaluation builds attack maps (see `full.rs`): from it on, an
/// evaluation costs far more than a look in a cache of them.
pub const ATTACK_MAPS_LEVEL: u8 = 3;

/// An evaluation function at a fixed level of knowledge, with weights for its terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Evaluator {
    level: u8,
    /// All ones from level 1 on, zero at level 0: the placement sum is added branch-free.
    placement_mask: i32,
    /// Percent weights of the terms of levels 2..6 (all 100 by default).
    weights: TermWeights,
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator::new(MAX_LEVEL)
    }
}

/// The values positions sum for a level (see [`Evaluator::values`]).
#[inline]
fn level_values(level: u8) -> &'static PieceValues {
    if level >= MAX_LEVEL {
        tables::compiled()
    } else {
        &psqt::VALUES
    }
}

/// A score for Red turned into the view of the side to move.
#[inline(always)]
fn for_side_to_move(pos: &Position, red: i32) -> i32 {
    match pos.side_to_move() {
        Color::Red => red,
        Color::Black => -red,
    }
}

impl Evaluator {
    /// The evaluator of a level with the default weights; levels above [`NNUE_LEVEL`]
    /// are clamped to it.
    #[must_use]
    pub fn new(level: u8) -> Evaluator {
        Evaluator {
            level: level.min(NNUE_LEVEL),
            placement_mask: if level >= 1 { -1 } else { 0 },
            weights: TermWeights::default(),
        }
    }

    /// The same level with other term weights.
    #[must_use]
    pub fn with_weights(self, weights: TermWeights) -> Evaluator {
        Evaluator { weights, ..self }
    }

    /// The term weights in use.
    #[must_use]
    pub fn weights(&self) -> TermWeights {
        self.weights
    }

    /// The level in use.
    #[must_use]
    pub fn level(self) -> u8 {
        self.level
    }

    /// The values positions must sum for this level: seed 000's tables up to level 5,
    /// the fitted ones of [`tables`] at level 6.
    #[must_use]
    #[inline]
    pub fn values(self) -> &'static PieceValues {
        level_values(self.level)
    }

    /// Whether this level builds attack maps ([`ATTACK_MAPS_LEVEL`] and above): its
    /// evaluations are worth caching.
    #[must_use]
    #[inline]
    pub fn builds_attack_maps(self) -> bool {
        self.level >= ATTACK_MAPS_LEVEL
    }

    /// The score of the position for the side to move.
    ///
    /// Levels 0 and 1 are a few additions of incrementally kept sums; the level is looked
    /// at once, here (levels 2..6 continue out of line).
    #[must_use]
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        if self.level >= 2 {
            if !std::ptr::eq(pos.values(), self.values()) {
                return self.evaluate_unvalued(pos);
            }
            return full::evaluate(pos, self.level, &self.weights);
        }
        if !std::ptr::eq(pos.values(), &psqt::VALUES) {
            return self.evaluate_unvalued(pos);
        }
        let material = pos.material(Color::Red) - pos.material(Color::Black);
        let placement = pos.placement(Color::Red) - pos.placement(Color::Black);
        for_side_to_move(pos, material + (placement & self.placement_mask))
    }

    /// [`Evaluator::evaluate`] of a position that does not sum this level's
    /// [`Evaluator::values`] (one from outside the search): its sums are computed first.
    #[cold]
    #[inline(never)]
    fn evaluate_unvalued(&self, pos: &Position) -> i32 {
        self.evaluate(&pos.with_values(self.values()))
    }

    /// Every term of every level for a position, from the side to move's view,
    /// independent of this evaluator's level (for `xq-engine eval` and the tests): each
    /// term as the seeds give it and its share of the evaluation at the compiled weights.
    #[must_use]
    pub fn breakdown(pos: &Position) -> Breakdown {
        Evaluator::breakdown_at(pos, TermWeights::default())
    }

    /// [`Evaluator::breakdown`] at other weights (the drawish-ending term scales the
    /// weighted total, so it depends on them; the other terms' scores do not).
    #[must_use]
    pub fn breakdown_at(pos: &Position, weights: TermWeights) -> Breakdown {
        let scores = full::scores(pos, MAX_LEVEL, &weights);
        // Levels 1..5 sum seed 000's tables and level 6 its fitted ones: the lower levels
        // are read from their own scores, and level 6 adds the rest, its terms and what
        // its tables change.
        let below = full::scores(pos, MAX_LEVEL - 1, &weights);
        let stm = pos.side_to_move();
        let mut levels = [0; 7];
        for term in Term::ALL.into_iter().filter(|t| t.level() < MAX_LEVEL) {
            levels[usize::from(term.level())] += weights.weighted_net(&below, term, stm);
        }
        let total: i32 = Term::ALL
            .into_iter()
            .map(|term| weights.weighted_net(&scores, term, stm))
            .sum();
        levels[usize::from(MAX_LEVEL)] = total - levels.iter().sum::<i32>();
        Breakdown {
            side_to_move: stm,
            scores,
            weights,
            levels,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_balanced_up_to_the_tempo() {
        let pos = Position::startpos();
        for level in 0..=5 {
            assert_eq!(Evaluator::new(level).evaluate(&pos), 0, "level {level}");
        }
        let seeds = Evaluator::new(6).with_weights(TermWeights::neutral());
        assert_eq!(seeds.evaluate(&pos), weights::TEMPO);
        let tempo = TermWeights::default().get(Term::Tempo);
        assert_eq!(
            Evaluator::new(6).evaluate(&pos),
            weights::TEMPO * tempo / 100
        );
    }

    #[test]
    fn breakdown_levels_add_up_to_each_level() {
        let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
        let pos = Position::from_fen(fen).expect("fen");
        let breakdown = Evaluator::breakdown(&pos);
        for level in 0..=MAX_LEVEL {
            assert_eq!(
                breakdown.at_level(level),
                Evaluator::new(level).evaluate(&pos),
                "level {level}"
            );
        }
        assert!(breakdown.to_string().contains("palace control"));
    }

    #[test]
    fn term_weights_scale_their_term_and_leave_the_default_evaluation_alone() {
        let pos = Position::startpos();
        let seeds = Evaluator::new(6).with_weights(TermWeights::neutral());
        let mut weights = TermWeights::neutral();
        weights.set(Term::Tempo, 0);
        assert_eq!(Evaluator::new(6).with_weights(weights).evaluate(&pos), 0);
        assert_eq!(seeds.evaluate(&pos), weights::TEMPO);

        // Twice the mobility adds the mobility term once more (no drawish ending here).
        let fen = "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1";
        let pos = Position::from_fen(fen).expect("fen");
        let breakdown = Evaluator::breakdown(&pos);
        let mobility = breakdown.scores.net(Term::Mobility, pos.side_to_move());
        assert_ne!(mobility, 0);
        let mut weights = TermWeights::neutral();
        weights.set(Term::Mobility, 200);
        let plain = seeds.evaluate(&pos);
        let weighted = Evaluator::new(6).with_weights(weights);
        assert_ne!(weighted, seeds);
        assert_eq!(weighted.evaluate(&pos), plain + mobility);
        // The default evaluation is the breakdown's, at the compiled weights.
        assert_eq!(Evaluator::new(6).evaluate(&pos), breakdown.at_level(6));
        // Level 1 has no weighted term.
        let level1 = Evaluator::new(1);
        assert_eq!(
            level1.with_weights(weights).evaluate(&pos),
            level1.evaluate(&pos)
        );
    }
}
