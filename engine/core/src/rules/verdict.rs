//! The outcome of a game: who won, why, and at which ply it was decided.

use std::fmt;

use crate::board::Color;

/// The result of a game, from Red's side as PGN writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// Red won: `1-0`.
    RedWins,
    /// Black won: `0-1`.
    BlackWins,
    /// Draw: `1/2-1/2`.
    Draw,
    /// Not decided yet: `*`.
    Ongoing,
}

impl GameResult {
    /// The result in which `color` wins.
    #[must_use]
    pub const fn win_for(color: Color) -> GameResult {
        match color {
            Color::Red => GameResult::RedWins,
            Color::Black => GameResult::BlackWins,
        }
    }

    /// The result in which `color` loses.
    #[must_use]
    pub const fn loss_for(color: Color) -> GameResult {
        match color {
            Color::Red => GameResult::BlackWins,
            Color::Black => GameResult::RedWins,
        }
    }

    /// The PGN text: `1-0`, `0-1`, `1/2-1/2` or `*`.
    #[must_use]
    pub const fn as_pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Ongoing => "*",
        }
    }

    /// The winner, if there is one.
    #[must_use]
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameResult::RedWins => Some(Color::Red),
            GameResult::BlackWins => Some(Color::Black),
            GameResult::Draw | GameResult::Ongoing => None,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_pgn())
    }
}

/// Why a game ended (or that it has not). [`Reason::code`] gives the stable snake_case
/// names used in JSON output and journals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move is in check and has no legal move: it loses.
    Checkmate,
    /// The side to move is not in check and has no legal move: it loses (Xiangqi rule).
    Stalemate,
    /// One side checked on every one of its moves of the repeated span: it loses.
    PerpetualCheck,
    /// One side chased the same piece on every one of its moves of the repeated span
    /// (and the other side did nothing forbidden): it loses.
    PerpetualChase,
    /// Repetition with nothing forbidden, or the same offence by both sides: draw.
    Repetition,
    /// The natural move limit (plies without capture) was reached: draw.
    MoveLimit,
    /// Neither side has a rook, horse, cannon or pawn: draw.
    InsufficientMaterial,
    /// The game goes on.
    Ongoing,
}

impl Reason {
    /// Every reason, in the order the judge tests them (`Ongoing` last).
    pub const ALL: [Reason; 8] = [
        Reason::Checkmate,
        Reason::Stalemate,
        Reason::PerpetualCheck,
        Reason::PerpetualChase,
        Reason::Repetition,
        Reason::InsufficientMaterial,
        Reason::MoveLimit,
        Reason::Ongoing,
    ];

    /// The stable snake_case code: `checkmate`, `stalemate`, `perpetual_check`,
    /// `perpetual_chase`, `repetition`, `move_limit`, `insufficient_material`, `ongoing`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::PerpetualCheck => "perpetual_check",
            Reason::PerpetualChase => "perpetual_chase",
            Reason::Repetition => "repetition",
            Reason::MoveLimit => "move_limit",
            Reason::InsufficientMaterial => "insufficient_material",
            Reason::Ongoing => "ongoing",
        }
    }

    /// Reads a code written by [`Reason::code`].
    #[must_use]
    pub fn from_code(code: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.code() == code)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A judgement of a game at one ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    /// Who won.
    pub result: GameResult,
    /// Why.
    pub reason: Reason,
    /// The ply (number of moves played from the start position) at which the verdict
    /// was reached; for an ongoing game, the current ply.
    pub ply: usize,
}

impl Verdict {
    /// The game goes on at `ply`.
    #[must_use]
    pub const fn ongoing(ply: usize) -> Verdict {
        Verdict {
            result: GameResult::Ongoing,
            reason: Reason::Ongoing,
            ply,
        }
    }

    /// `loser` lost for `reason` at `ply`.
    #[must_use]
    pub const fn loss(loser: Color, reason: Reason, ply: usize) -> Verdict {
        Verdict {
            result: GameResult::loss_for(loser),
            reason,
            ply,
        }
    }

    /// A draw for `reason` at `ply`.
    #[must_use]
    pub const fn draw(reason: Reason, ply: usize) -> Verdict {
        Verdict {
            result: GameResult::Draw,
            reason,
            ply,
        }
    }

    /// Whether the game is over.
    #[must_use]
    pub const fn is_final(&self) -> bool {
        !matches!(self.result, GameResult::Ongoing)
    }

    /// The verdict as one line of JSON:
    /// `{"result":"1-0","reason":"checkmate","ply":31}`.
    #[must_use]
    pub fn to_json(&self) -> String {
        format!(
            r#"{{"result":"{}","reason":"{}","ply":{}}}"#,
            self.result.as_pgn(),
            self.reason.code(),
            self.ply
        )
    }
}

impl fmt::Display for Verdict {
    /// A readable line: `1-0 checkmate at ply 31`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} at ply {}", self.result, self.reason, self.ply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_json_has_the_contract_shape() {
        for reason in Reason::ALL {
            assert_eq!(Reason::from_code(reason.code()), Some(reason));
        }
        let v = Verdict::loss(Color::Black, Reason::PerpetualCheck, 12);
        assert_eq!(
            v.to_json(),
            r#"{"result":"1-0","reason":"perpetual_check","ply":12}"#
        );
        assert_eq!(
            Verdict::ongoing(3).to_json(),
            r#"{"result":"*","reason":"ongoing","ply":3}"#
        );
        assert_eq!(
            Verdict::draw(Reason::MoveLimit, 120).result.as_pgn(),
            "1/2-1/2"
        );
        assert_eq!(v.to_string(), "1-0 perpetual_check at ply 12");
    }
}
