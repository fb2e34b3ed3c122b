//! Run-time weights of the evaluation's terms, in percent: the knobs a tuner turns
//! (`xq-engine --tune`, options `EvalMobility`, `EvalKingShape`, ...). Each weight scales
//! one term's net score, `net * weight / 100`; at the default 100 every score is exactly
//! the constant-weight evaluation's, and the weighting is skipped altogether.
//!
//! The terms of levels 2..6 are weighted, except the drawish-ending scaling, which is
//! itself a scale of the rest. Material and placement (levels 0 and 1) are not: they are
//! the evaluation's unit, and kept as incremental sums by the position.

use super::scores::{Scores, Term};
use crate::board::Color;
use crate::tunable::Tunable;

/// The neutral weight.
pub const FULL_WEIGHT: i32 = 100;

/// A weight in percent per term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TermWeights {
    percent: [i32; Term::COUNT],
    /// Every weight is [`FULL_WEIGHT`]: the plain sum is the weighted one.
    neutral: bool,
}

impl Default for TermWeights {
    /// The weights compiled in from `engine/data/term-weights.txt` (see [`tuned`](super::tuned)).
    fn default() -> TermWeights {
        super::tuned::compiled()
    }
}

impl TermWeights {
    /// Every weight 100: the terms as the seeds give them.
    #[must_use]
    pub const fn neutral() -> TermWeights {
        TermWeights {
            percent: [FULL_WEIGHT; Term::COUNT],
            neutral: true,
        }
    }

    /// The weight of a term.
    #[must_use]
    pub fn get(&self, term: Term) -> i32 {
        self.percent[term.index()]
    }

    /// Sets the weight of a term (one of [`TERM_TUNABLES`]; the others stay at 100).
    pub fn set(&mut self, term: Term, percent: i32) {
        if TERM_TUNABLES.iter().any(|t| t.term == term) {
            self.percent[term.index()] = percent;
            self.neutral = self.percent.iter().all(|&w| w == FULL_WEIGHT);
        }
    }

    /// Whether every weight is 100 (the weighted sum is the plain one).
    #[must_use]
    #[inline]
    pub fn is_neutral(&self) -> bool {
        self.neutral
    }

    /// A term's net score for one side at its weight.
    #[must_use]
    pub fn weighted_net(&self, scores: &Scores, term: Term, color: Color) -> i32 {
        scores.net(term, color) * self.percent[term.index()] / FULL_WEIGHT
    }

    /// The weighted sum of every term's net score for one side.
    #[must_use]
    #[inline]
    pub fn total(&self, scores: &Scores, color: Color) -> i32 {
        if self.neutral {
            return scores.total(color);
        }
        Term::ALL
            .iter()
            .map(|&term| self.weighted_net(scores, term, color))
            .sum()
    }
}

/// A term's weight as an option.
#[derive(Debug)]
pub struct TermTunable {
    pub term: Term,
    pub option: Tunable<TermWeights>,
}

/// A term weight from 0 (the term off) to 400 percent.
macro_rules! term_weight {
    ($term:expr, $name:literal) => {
        TermTunable {
            term: $term,
            option: Tunable {
                name: $name,
                min: 0,
                max: 400,
                get: |w| w.get($term),
                set: |w, v| w.set($term, v),
            },
        }
    };
}

/// Every weighted term, with its option name (`Eval` and the term's name).
pub const TERM_TUNABLES: [TermTunable; 15] = [
    term_weight!(Term::Deficiency, "EvalDeficiency"),
    term_weight!(Term::Pairs, "EvalPairs"),
    term_weight!(Term::Protection, "EvalProtection"),
    term_weight!(Term::Threats, "EvalThreats"),
    term_weight!(Term::RookPins, "EvalRookPins"),
    term_weight!(Term::Mobility, "EvalMobility"),
    term_weight!(Term::Obstruction, "EvalObstruction"),
    term_weight!(Term::KingShape, "EvalKingShape"),
    term_weight!(Term::PalaceControl, "EvalPalaceControl"),
    term_weight!(Term::WingAttacks, "EvalWingAttacks"),
    term_weight!(Term::KingPins, "EvalKingPins"),
    term_weight!(Term::PhaseMaterial, "EvalPhaseMaterial"),
    term_weight!(Term::PhaseScaling, "EvalPhaseScaling"),
    term_weight!(Term::Pawns, "EvalPawns"),
    term_weight!(Term::Tempo, "EvalTempo"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_scale_net_scores_and_neutral_weights_change_nothing() {
        let mut s = Scores::default();
        s.set(Term::Material, 1000, 900);
        s.set(Term::Mobility, 37, 12);
        s.set_side(Term::Tempo, Color::Black, 50);
        let mut w = TermWeights::neutral();
        assert_eq!(w.total(&s, Color::Red), s.total(Color::Red));
        w.set(Term::Mobility, 200);
        assert_eq!(w.total(&s, Color::Red), 100 + 50 - 50);
        assert_eq!(w.total(&s, Color::Black), -(100 + 50 - 50));
        w.set(Term::Tempo, 0);
        assert_eq!(w.total(&s, Color::Red), 150);
        // Material is not a weighted term.
        w.set(Term::Material, 0);
        assert_eq!(w.get(Term::Material), FULL_WEIGHT);
        w.set(Term::Mobility, FULL_WEIGHT);
        w.set(Term::Tempo, FULL_WEIGHT);
        assert_eq!(w, TermWeights::neutral());
        assert!(w.is_neutral());
    }

    #[test]
    fn every_tunable_term_is_of_levels_2_to_6_once_and_defaults_to_the_compiled_weight() {
        for (i, t) in TERM_TUNABLES.iter().enumerate() {
            assert!((2..=6).contains(&t.term.level()), "{:?}", t.term);
            assert_ne!(t.term, Term::DrawishEnding);
            assert_eq!(
                t.option.default_value(),
                super::super::tuned::compiled().get(t.term)
            );
            assert!(t.option.name.starts_with("Eval"));
            assert!(TERM_TUNABLES[..i].iter().all(|u| u.term != t.term));
        }
    }
}
