//! The evaluation's terms (described in `docs/evaluation.md`), the level each belongs to,
//! and the per-side scores of one evaluation, from which both the score and the debug
//! breakdown ([`Breakdown`](super::Breakdown)) are read.

use crate::board::Color;

/// One named term (or group of closely related terms, one module each) of the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Term {
    /// Level 0: piece values (seed 002).
    Material,
    /// Level 1: piece-square tables (seed 000).
    Placement,
    /// Level 2: defensive deficiencies by piece counts (seed 002).
    Deficiency,
    /// Level 3: rook pair, connected horses, cannon pair, linked pawns.
    Pairs,
    /// Level 3: protected pieces.
    Protection,
    /// Level 3: attacked pieces of the side to move.
    Threats,
    /// Level 3: pins with an enemy rook as target.
    RookPins,
    /// Level 4: per-move mobility of rooks, horses and cannons.
    Mobility,
    /// Level 4: cramped rooks, trapped and edge horses, blocked palace centre.
    Obstruction,
    /// Level 5: hollow, central and bottom cannons, the king's door, advisor opening.
    KingShape,
    /// Level 5: attacks on the enemy palace, weighted by seed 002's table.
    PalaceControl,
    /// Level 5: two- and three-piece attacks on one wing.
    WingAttacks,
    /// Level 5: pins on the king.
    KingPins,
    /// Level 6: horse and cannon values by game phase.
    PhaseMaterial,
    /// Level 6: placement and hollow-cannon weights by game phase.
    PhaseScaling,
    /// Level 6: crossed-pawn ranks, open paths, protection, central pair, few enemy majors.
    Pawns,
    /// Level 6: the side to move's tempo.
    Tempo,
    /// Level 6: known drawish endings pull the score toward zero.
    DrawishEnding,
}

impl Term {
    /// Number of terms.
    pub const COUNT: usize = 18;

    /// Every term, in level order.
    pub const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::Placement,
        Term::Deficiency,
        Term::Pairs,
        Term::Protection,
        Term::Threats,
        Term::RookPins,
        Term::Mobility,
        Term::Obstruction,
        Term::KingShape,
        Term::PalaceControl,
        Term::WingAttacks,
        Term::KingPins,
        Term::PhaseMaterial,
        Term::PhaseScaling,
        Term::Pawns,
        Term::Tempo,
        Term::DrawishEnding,
    ];

    /// Index 0..COUNT.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The evaluation level that adds this term.
    #[must_use]
    pub const fn level(self) -> u8 {
        match self {
            Term::Material => 0,
            Term::Placement => 1,
            Term::Deficiency => 2,
            Term::Pairs | Term::Protection | Term::Threats | Term::RookPins => 3,
            Term::Mobility | Term::Obstruction => 4,
            Term::KingShape | Term::PalaceControl | Term::WingAttacks | Term::KingPins => 5,
            Term::PhaseMaterial
            | Term::PhaseScaling
            | Term::Pawns
            | Term::Tempo
            | Term::DrawishEnding => 6,
        }
    }

    /// A short name for the breakdown.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Term::Material => "material",
            Term::Placement => "placement",
            Term::Deficiency => "deficiency",
            Term::Pairs => "pairs",
            Term::Protection => "protection",
            Term::Threats => "threats",
            Term::RookPins => "rook pins",
            Term::Mobility => "mobility",
            Term::Obstruction => "obstruction",
            Term::KingShape => "king shape",
            Term::PalaceControl => "palace control",
            Term::WingAttacks => "wing attacks",
            Term::KingPins => "king pins",
            Term::PhaseMaterial => "phase material",
            Term::PhaseScaling => "phase scaling",
            Term::Pawns => "pawns",
            Term::Tempo => "tempo",
            Term::DrawishEnding => "drawish ending",
        }
    }
}

/// The per-side scores of one evaluation: `values[term][color]` is what the term gives
/// that side (positive is good for it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scores {
    values: [[i32; 2]; Term::COUNT],
}

impl Scores {
    /// Sets a term's scores for both sides.
    #[inline]
    pub fn set(&mut self, term: Term, red: i32, black: i32) {
        self.values[term.index()] = [red, black];
    }

    /// Sets a term's score for one side (the other keeps its value).
    #[inline]
    pub fn set_side(&mut self, term: Term, color: Color, value: i32) {
        self.values[term.index()][color.index()] = value;
    }

    /// A term's score for one side.
    #[must_use]
    #[inline]
    pub fn get(&self, term: Term, color: Color) -> i32 {
        self.values[term.index()][color.index()]
    }

    /// A term's net score for one side (its score minus the other side's).
    #[must_use]
    #[inline]
    pub fn net(&self, term: Term, color: Color) -> i32 {
        let [red, black] = self.values[term.index()];
        match color {
            Color::Red => red - black,
            Color::Black => black - red,
        }
    }

    /// The sum of every term's net score for one side.
    #[must_use]
    #[inline(always)]
    pub fn total(&self, color: Color) -> i32 {
        let (red, black) = self
            .values
            .iter()
            .fold((0, 0), |(r, b), [tr, tb]| (r + tr, b + tb));
        match color {
            Color::Red => red - black,
            Color::Black => black - red,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_are_in_level_order_and_indexed() {
        for (i, term) in Term::ALL.iter().enumerate() {
            assert_eq!(term.index(), i);
            if i > 0 {
                assert!(Term::ALL[i - 1].level() <= term.level());
            }
        }
    }

    #[test]
    fn net_and_total_are_antisymmetric() {
        let mut s = Scores::default();
        s.set(Term::Material, 100, 40);
        s.set_side(Term::Tempo, Color::Black, 50);
        assert_eq!(s.net(Term::Material, Color::Red), 60);
        assert_eq!(s.total(Color::Red), 10);
        assert_eq!(s.total(Color::Black), -10);
    }
}
