//! One opening: a start position, the moves played from it, and its fields.

use std::collections::BTreeMap;
use std::fmt;

use xq_core::board::{Color, Move, Position};
use xq_core::movegen;
use xq_core::rules::{GameRecord, GameResult, Reason, Rules};

use super::fields::quote_value;

/// An opening read from one line of a file.
///
/// The moves were checked to be legal when the line was read, so
/// [`Opening::position`] (the position after them) is always reachable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opening {
    /// 1-based line number in the file it came from (0 when built in code).
    pub line: usize,
    /// The position given by the FEN.
    pub start: Position,
    /// The moves played from `start`, all legal.
    pub moves: Vec<Move>,
    /// The `name` field.
    pub name: Option<String>,
    /// The `eco` field (an ECCO code).
    pub eco: Option<String>,
    /// Every other field, kept as written.
    pub fields: BTreeMap<String, String>,
    position: Position,
}

/// How an opening ends the game before the engines play a move, as the rules judge
/// (`xq_core::rules`) rules on the position after its moves, with the moves before it:
/// the side to move has no legal move (it loses, in check or not), a position repeated
/// by the opening's moves, no attacking piece left on either side, or the move limit.
/// A game from it would be a 0-ply game, so no run plays it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameOver {
    /// The side to move in the final position.
    pub to_move: Color,
    /// Why the judge ends the game there.
    pub reason: Reason,
    /// The result it gives, from Red's side.
    pub result: GameResult,
}

impl fmt::Display for GameOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the game is already over: ")?;
        let side = self.to_move;
        match self.reason {
            Reason::Checkmate => write!(f, "{side:?} to move is checkmated"),
            Reason::Stalemate => write!(f, "{side:?} to move is stalemated (no legal move)"),
            Reason::PerpetualCheck | Reason::PerpetualChase | Reason::Repetition => write!(
                f,
                "its moves repeat a position ({}: {})",
                self.reason, self.result
            ),
            Reason::InsufficientMaterial => write!(
                f,
                "neither side has a rook, horse, cannon or pawn left (insufficient_material: {})",
                self.result
            ),
            Reason::MoveLimit => write!(
                f,
                "the move limit of plies without capture is reached (move_limit: {})",
                self.result
            ),
            Reason::Ongoing => f.write_str("ongoing"),
        }
    }
}

impl Opening {
    /// An opening from a start position and moves that are legal in sequence.
    ///
    /// # Errors
    /// The 0-based index of the first move that is not legal where it is played.
    pub fn new(start: Position, moves: Vec<Move>) -> Result<Opening, usize> {
        let mut position = start.clone();
        for (index, &m) in moves.iter().enumerate() {
            if !movegen::is_legal(&position, m) {
                return Err(index);
            }
            position.make_move(m);
        }
        Ok(Opening::from_parts(start, moves, position))
    }

    /// An opening whose `position` is `start` after `moves` (checked by the caller).
    pub(super) fn from_parts(start: Position, moves: Vec<Move>, position: Position) -> Opening {
        Opening {
            line: 0,
            start,
            moves,
            name: None,
            eco: None,
            fields: BTreeMap::new(),
            position,
        }
    }

    /// Keeps only the first `plies` moves (fastchess's `plies=` of an opening book).
    pub fn truncate(&mut self, plies: usize) {
        if self.moves.len() <= plies {
            return;
        }
        self.moves.truncate(plies);
        let mut position = self.start.clone();
        for &m in &self.moves {
            position.make_move(m);
        }
        self.position = position;
    }

    /// The position after all moves: where the game starts.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The key that identifies the opening up to a left-right mirror: the
    /// smaller Zobrist key of the final position and of its mirror image.
    /// Two openings with equal keys are the same opening (barring a 64-bit
    /// collision).
    #[must_use]
    pub fn canonical_key(&self) -> u64 {
        self.position.key().min(self.position.mirrored().key())
    }

    /// `Some` when a game from this opening is over before its first move, judged by
    /// `rules` (the run's; `openings check` takes the default rules) over the start
    /// position and the opening's moves: the judge the games are played by, so that an
    /// opening refused here is exactly one that would give a 0-ply game.
    #[must_use]
    pub fn game_over(&self, rules: Rules) -> Option<GameOver> {
        let mut record = GameRecord::new(self.start.clone(), rules);
        for &m in &self.moves {
            // The moves were checked when the opening was made; a move the judge
            // refuses leaves no game to rule on, and the run refuses it as illegal.
            record.push(m).ok()?;
        }
        let verdict = record.verdict();
        verdict.is_final().then(|| GameOver {
            to_move: self.position.side_to_move(),
            reason: verdict.reason,
            result: verdict.result,
        })
    }

    /// The line that describes this opening in the file format (see
    /// `openings/README.md`): the start FEN, `moves ...` when there are any, then
    /// `name`, `eco` and the other fields.
    #[must_use]
    pub fn to_line(&self) -> String {
        let mut out = self.start.to_fen();
        if !self.moves.is_empty() {
            out.push_str(" moves");
            for m in &self.moves {
                out.push(' ');
                out.push_str(&m.to_string());
            }
        }
        let known = [("name", &self.name), ("eco", &self.eco)];
        let known = known
            .into_iter()
            .filter_map(|(key, value)| Some((key, value.as_deref()?)));
        let other = self.fields.iter().map(|(k, v)| (k.as_str(), v.as_str()));
        for (key, value) in known.chain(other) {
            out.push_str(" ; ");
            out.push_str(key);
            out.push(' ');
            out.push_str(&quote_value(value));
        }
        out
    }
}
