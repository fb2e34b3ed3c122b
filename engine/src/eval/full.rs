//! Levels 2..6: every term computed for both sides into [`Scores`], each level adding its
//! terms to the previous one. Attack maps are built once (level 3 and up) and shared.

use super::context::{both_maps, EvalContext};
use super::scores::{Scores, Term};
use super::term_weights::TermWeights;
use super::{
    deficiency, endgame, king_pins, king_shape, mobility, obstruction, palace, patterns, pawns,
    phase, pins, tempo, threats,
};
use crate::board::{Color, PieceKind, Position};

/// A term computed for Red and for Black.
#[inline]
fn both(f: impl Fn(Color) -> i32) -> (i32, i32) {
    (f(Color::Red), f(Color::Black))
}

/// How the terms' scores add up: [`Plain`] (the default weights, all 100) or weighted
/// by a [`TermWeights`]. Generic, so that the plain evaluation is compiled without a
/// trace of the weights.
pub trait Weighting: Copy {
    /// The total of `scores` for one side.
    fn total(self, scores: &Scores, color: Color) -> i32;
}

/// The plain sum: every weight 100.
#[derive(Clone, Copy, Debug)]
pub struct Plain;

impl Weighting for Plain {
    #[inline(always)]
    fn total(self, scores: &Scores, color: Color) -> i32 {
        scores.total(color)
    }
}

impl Weighting for &TermWeights {
    #[inline(always)]
    fn total(self, scores: &Scores, color: Color) -> i32 {
        TermWeights::total(self, scores, color)
    }
}

/// The evaluation at a level of 2 or more with term weights, for the side to move. Kept
/// out of line, weights and all, so the search's inlined level-0/1 path stays as small
/// as it was.
#[inline(never)]
#[must_use]
pub fn evaluate(pos: &Position, level: u8, weights: &TermWeights) -> i32 {
    if weights.is_neutral() {
        Plain.total(&scores(pos, level, Plain), pos.side_to_move())
    } else {
        evaluate_weighted(pos, level, weights)
    }
}

/// [`evaluate`] with weights other than 100, apart: inlined, its larger frame was set up
/// for the plain evaluation too. Not marked cold: the fitted weights of
/// `engine/data/term-weights.txt` make this the default path.
#[inline(never)]
fn evaluate_weighted(pos: &Position, level: u8, weights: &TermWeights) -> i32 {
    weights.total(&scores(pos, level, weights), pos.side_to_move())
}

/// The per-side scores of every term up to `level` (terms of higher levels stay zero),
/// unweighted; `weighting` only decides the total that the drawish-ending term scales.
#[must_use]
pub fn scores(pos: &Position, level: u8, weighting: impl Weighting) -> Scores {
    use Color::{Black, Red};
    let pos = &*super::psqt::valued(pos, super::level_values(level));
    let mut s = Scores::default();
    s.set(Term::Material, pos.material(Red), pos.material(Black));
    if level < 1 {
        return s;
    }
    s.set(Term::Placement, pos.placement(Red), pos.placement(Black));
    if level < 2 {
        return s;
    }
    let ctx = EvalContext::new(pos);
    let (r, b) = both(|c| deficiency::score(&ctx, c));
    s.set(Term::Deficiency, r, b);
    if level < super::ATTACK_MAPS_LEVEL {
        return s;
    }

    let maps = both_maps(pos);
    let own = |c: Color| &maps[c.index()];
    let enemy = |c: Color| &maps[(!c).index()];
    let (r, b) = both(|c| patterns::score(pos, own(c), c));
    s.set(Term::Pairs, r, b);
    let (r, b) = both(|c| threats::protection(pos, own(c), c));
    s.set(Term::Protection, r, b);
    let stm = pos.side_to_move();
    s.set_side(
        Term::Threats,
        stm,
        threats::threats(pos, own(stm), enemy(stm), stm),
    );
    let (r, b) = both(|c| pins::score(pos, own(c), c));
    s.set(Term::RookPins, r, b);
    if level < 4 {
        return s;
    }

    let (r, b) = both(|c| mobility::score(own(c), pos.color_bb(c)));
    s.set(Term::Mobility, r, b);
    let (r, b) = both(|c| obstruction::score(&ctx, own(c), enemy(c), c));
    s.set(Term::Obstruction, r, b);
    if level < 5 {
        return s;
    }

    let shapes = Color::ALL.map(|c| king_shape::attack(&ctx, own(c), c));
    let (r, b) = both(|c| shapes[c.index()].bonus + king_shape::advisor_opening(pos, c));
    s.set(Term::KingShape, r, b);
    let (r, b) = both(|c| palace::score(pos, own(c), c));
    s.set(Term::PalaceControl, r, b);
    let (r, b) = both(|c| super::wing_attack::score(&ctx, c));
    s.set(Term::WingAttacks, r, b);
    let facing = king_pins::kings_facing(pos);
    let (r, b) = both(|c| king_pins::score(pos, c) + facing[c.index()]);
    s.set(Term::KingPins, r, b);
    if level < 6 {
        return s;
    }

    let t = phase::t22(ctx.phase_material);
    let (r, b) = both(|c| {
        phase::material_adjustment(
            ctx.count(c, PieceKind::Horse),
            ctx.count(c, PieceKind::Cannon),
            t,
        )
    });
    s.set(Term::PhaseMaterial, r, b);
    let (r, b) = both(|c| {
        phase::placement_adjustment(pos.placement(c), t)
            + phase::hollow_adjustment(shapes[c.index()].hollow, t)
    });
    s.set(Term::PhaseScaling, r, b);
    let (r, b) = both(|c| pawns::score(&ctx, own(c), enemy(c), c));
    s.set(Term::Pawns, r, b);
    s.set_side(Term::Tempo, stm, tempo::score(pos, stm));
    let before = weighting.total(&s, stm);
    s.set_side(
        Term::DrawishEnding,
        stm,
        endgame::scale(&ctx, before) - before,
    );
    s
}
