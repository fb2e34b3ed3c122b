//! The evaluation of one position split by term and by level, for `xq-engine eval`: each
//! term's scores as the seeds give them, its weight, and what it adds at that weight.

use std::fmt;

use super::scores::{Scores, Term};
use super::term_weights::TermWeights;
use crate::board::Color;

/// The evaluation of a position split by term and by level, from the side to move's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Breakdown {
    /// The side the scores are for.
    pub side_to_move: Color,
    /// Per-side scores of every term (all levels computed), as the seeds give them.
    pub scores: Scores,
    /// The weights the evaluation applies to them.
    pub weights: TermWeights,
    /// `levels[l]`: what level `l` adds to level `l - 1` at the weights, net for the side
    /// to move; the sum of `levels[..=l]` is the evaluation at level `l`. Level 6 also adds
    /// what its fitted tables change from seed 000's (`scores` are level 6's).
    pub levels: [i32; 7],
}

impl Breakdown {
    /// The evaluation at a level, from the side to move's view.
    #[must_use]
    pub fn at_level(&self, level: u8) -> i32 {
        self.levels[..=usize::from(level.min(6))].iter().sum()
    }
}

impl fmt::Display for Breakdown {
    /// A table: one line per term with Red's, Black's and the net score as the seeds give
    /// them, the term's weight in percent and the net score at that weight, then the
    /// evaluation at each level.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stm = self.side_to_move;
        writeln!(
            f,
            "{:<16} {:>5} {:>7} {:>7} {:>7} {:>7} {:>9}",
            "term", "level", "red", "black", "net", "weight", "weighted"
        )?;
        for term in Term::ALL {
            let (red, black) = (
                self.scores.get(term, Color::Red),
                self.scores.get(term, Color::Black),
            );
            writeln!(
                f,
                "{:<16} {:>5} {:>7} {:>7} {:>7} {:>6}% {:>9}",
                term.name(),
                term.level(),
                red,
                black,
                self.scores.net(term, stm),
                self.weights.get(term),
                self.weights.weighted_net(&self.scores, term, stm)
            )?;
        }
        let side = match stm {
            Color::Red => "red",
            Color::Black => "black",
        };
        write!(f, "evaluation for the side to move ({side}) by level:")?;
        for level in 0..=6 {
            write!(f, " L{level} {}", self.at_level(level))?;
        }
        Ok(())
    }
}
