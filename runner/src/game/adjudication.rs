//! Adjudication by the engines' own scores, as cutechess does it: a draw when both
//! engines have seen a level game for a while, a resignation when both agree one side is
//! lost, and a hard cap on the game length.

use serde::{Deserialize, Serialize};

use xq_core::board::Color;

/// Draw when, from move `move_number` on, both engines report `|score| <= score` for
/// `move_count` consecutive moves each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawRule {
    pub move_number: u32,
    pub move_count: u32,
    pub score: i32,
}

/// Resign when for `move_count` consecutive moves the losing side's engine reports at
/// most `-score` and (when `two_sided`) the other engine at least `score`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResignRule {
    pub move_count: u32,
    pub score: i32,
    #[serde(default = "yes")]
    pub two_sided: bool,
}

fn yes() -> bool {
    true
}

/// What adjudication decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Adjudged {
    Draw,
    /// This side is lost.
    Resign(Color),
}

/// Tracks the score streaks of one game.
#[derive(Clone, Debug)]
pub struct Adjudicator {
    draw: Option<DrawRule>,
    resign: Option<ResignRule>,
    /// Consecutive plies with a level score, over both engines.
    level_plies: u32,
    /// Per side: consecutive own moves with the mover reporting itself lost / won.
    losing: [u32; 2],
    winning: [u32; 2],
}

impl Adjudicator {
    /// An adjudicator with the configured rules (either may be off).
    #[must_use]
    pub fn new(draw: Option<DrawRule>, resign: Option<ResignRule>) -> Adjudicator {
        Adjudicator {
            draw,
            resign,
            level_plies: 0,
            losing: [0; 2],
            winning: [0; 2],
        }
    }

    /// Records the score (from the mover's view; `None` if it reported none) of a move by
    /// `mover` at full-move number `move_number`, and says whether the game is adjudged.
    pub fn record(
        &mut self,
        mover: Color,
        move_number: u32,
        score: Option<i32>,
    ) -> Option<Adjudged> {
        let Some(score) = score else {
            self.level_plies = 0;
            self.losing[mover.index()] = 0;
            self.winning[mover.index()] = 0;
            return None;
        };
        if let Some(rule) = self.draw {
            if move_number >= rule.move_number && score.abs() <= rule.score {
                self.level_plies += 1;
            } else {
                self.level_plies = 0;
            }
            if rule.move_count > 0 && self.level_plies >= 2 * rule.move_count {
                return Some(Adjudged::Draw);
            }
        }
        if let Some(rule) = self.resign {
            let me = mover.index();
            self.losing[me] = if score <= -rule.score {
                self.losing[me] + 1
            } else {
                0
            };
            self.winning[me] = if score >= rule.score {
                self.winning[me] + 1
            } else {
                0
            };
            for side in Color::ALL {
                let other = (!side).index();
                let lost = self.losing[side.index()] >= rule.move_count;
                let agreed = !rule.two_sided || self.winning[other] >= rule.move_count;
                if rule.move_count > 0 && lost && agreed {
                    return Some(Adjudged::Resign(side));
                }
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draw_needs_both_engines_level_for_long_enough() {
        let mut a = Adjudicator::new(
            Some(DrawRule {
                move_number: 10,
                move_count: 2,
                score: 10,
            }),
            None,
        );
        assert_eq!(a.record(Color::Red, 9, Some(0)), None, "too early");
        assert_eq!(a.record(Color::Black, 10, Some(5)), None);
        assert_eq!(a.record(Color::Red, 11, Some(-3)), None);
        assert_eq!(
            a.record(Color::Black, 11, Some(50)),
            None,
            "a big score resets"
        );
        for (mover, n) in [(Color::Red, 12), (Color::Black, 12), (Color::Red, 13)] {
            assert_eq!(a.record(mover, n, Some(0)), None);
        }
        assert_eq!(a.record(Color::Black, 13, Some(0)), Some(Adjudged::Draw));
    }

    #[test]
    fn resign_needs_agreement_when_two_sided() {
        let mut a = Adjudicator::new(
            None,
            Some(ResignRule {
                move_count: 2,
                score: 600,
                two_sided: true,
            }),
        );
        assert_eq!(a.record(Color::Red, 20, Some(-700)), None);
        assert_eq!(a.record(Color::Black, 20, Some(100)), None);
        assert_eq!(
            a.record(Color::Red, 21, Some(-700)),
            None,
            "Black does not agree yet"
        );
        assert_eq!(a.record(Color::Black, 21, Some(650)), None);
        assert_eq!(a.record(Color::Red, 22, Some(-800)), None);
        assert_eq!(
            a.record(Color::Black, 22, Some(700)),
            Some(Adjudged::Resign(Color::Red))
        );
    }
}
