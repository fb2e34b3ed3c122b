//! Trinomial game counts `[L, D, W]`.

use serde::{Deserialize, Serialize};

use super::counts::{CountKind, Counts, WinDrawLoss};
use super::error::CountsError;

/// Trinomial game counts `[L, D, W]` from the first engine's point of view.
/// Serialized as that array.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "[u64; 3]", into = "[u64; 3]")]
pub struct Wdl {
    /// Games lost.
    pub losses: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games won.
    pub wins: u64,
}

impl Wdl {
    /// Counts from the array `[L, D, W]` (losses first, as fishtest orders them).
    #[must_use]
    pub const fn new(counts: [u64; 3]) -> Self {
        let [losses, draws, wins] = counts;
        Self {
            losses,
            draws,
            wins,
        }
    }

    /// The array `[L, D, W]`.
    #[must_use]
    pub const fn to_array(self) -> [u64; 3] {
        [self.losses, self.draws, self.wins]
    }

    /// Counts one game.
    pub fn add_game(&mut self, outcome: WinDrawLoss) {
        match outcome {
            WinDrawLoss::Loss => self.losses += 1,
            WinDrawLoss::Draw => self.draws += 1,
            WinDrawLoss::Win => self.wins += 1,
        }
    }

    /// Counts one game given its score (0, 0.5 or 1).
    ///
    /// # Errors
    /// [`CountsError::InvalidScore`] if the score is not 0, 0.5 or 1.
    pub fn add_score(&mut self, score: f64) -> Result<(), CountsError> {
        self.add_game(WinDrawLoss::from_score(score)?);
        Ok(())
    }

    /// Counts of a list of game scores.
    ///
    /// # Errors
    /// [`CountsError::InvalidScore`] if a score is not 0, 0.5 or 1.
    pub fn from_scores(scores: &[f64]) -> Result<Self, CountsError> {
        let mut wdl = Self::default();
        for &s in scores {
            wdl.add_score(s)?;
        }
        Ok(wdl)
    }

    /// Number of games.
    #[must_use]
    pub const fn games(&self) -> u64 {
        self.losses + self.draws + self.wins
    }

    /// Total points of the first engine.
    #[must_use]
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// fastchess's `DrawRatio` for games: `D / games` (a fraction; NaN without games).
    #[must_use]
    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games() as f64
    }

    /// The same counts seen from the second engine.
    #[must_use]
    pub const fn mirrored(self) -> Self {
        Self::new([self.wins, self.draws, self.losses])
    }
}

impl From<[u64; 3]> for Wdl {
    fn from(counts: [u64; 3]) -> Self {
        Self::new(counts)
    }
}

impl From<Wdl> for [u64; 3] {
    fn from(wdl: Wdl) -> Self {
        wdl.to_array()
    }
}

impl Counts for Wdl {
    fn kind(&self) -> CountKind {
        CountKind::Trinomial
    }

    fn frequencies(&self) -> Vec<u64> {
        self.to_array().to_vec()
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_counted() -> Result<(), CountsError> {
        let wdl = Wdl::from_scores(&[1.0, 0.5, 0.5, 0.0, 1.0])?;
        assert_eq!(wdl.to_array(), [1, 2, 2]);
        assert_eq!(wdl.games(), 5);
        assert!((wdl.points() - 3.0).abs() < 1e-12);
        assert!((wdl.draw_ratio() - 0.4).abs() < 1e-12);
        assert_eq!(wdl.mirrored().to_array(), [2, 2, 1]);
        assert!(Wdl::from_scores(&[0.7]).is_err());
        Ok(())
    }
}
