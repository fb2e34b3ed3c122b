//! The engine as the generator uses it: one fixed-depth search at a time, each
//! from a cleared state (a new game), so that a search's result depends only on
//! the position and the depth, never on the searches before it.

use xq_core::board::{Move, Position};
use xq_core::movegen;
use xq_core::notation::parse_coords;

use super::GenerateError;
use crate::client::{Answer, EngineError, EngineSession, EngineSpec, GoLimit, Timeouts};

/// The outcome of one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Searched {
    /// The engine's move (checked to be legal).
    pub best: Move,
    /// Its score for the side to move, mates as ±(100000 - moves).
    pub score: i32,
    /// The depth of the iteration that gave the score.
    pub depth: u32,
}

/// One engine process, ready for searches.
#[derive(Debug)]
pub struct Analyst {
    session: EngineSession,
    spec: EngineSpec,
    timeouts: Timeouts,
    /// Searches done (for the statistics).
    pub searches: u64,
}

impl Analyst {
    /// Starts the engine.
    ///
    /// # Errors
    /// [`GenerateError::Engine`] when it cannot be started or does not answer.
    pub async fn start(spec: &EngineSpec, timeouts: Timeouts) -> Result<Analyst, GenerateError> {
        let session = EngineSession::start(spec, timeouts)
            .await
            .map_err(engine_error)?;
        Ok(Analyst {
            session,
            spec: spec.clone(),
            timeouts,
            searches: 0,
        })
    }

    /// The engine's own name (`id name`).
    #[must_use]
    pub fn id_name(&self) -> Option<&str> {
        self.session.id_name.as_deref()
    }

    /// Kills the engine and starts a new one (after a fault).
    ///
    /// # Errors
    /// As [`Analyst::start`].
    pub async fn restart(&mut self) -> Result<(), GenerateError> {
        self.session.kill().await;
        self.session = EngineSession::start(&self.spec, self.timeouts)
            .await
            .map_err(engine_error)?;
        Ok(())
    }

    /// Searches the position after `moves` from `start` to `depth`, from a new game.
    ///
    /// # Errors
    /// The engine failed, answered no move, a move that is not legal, or no score.
    pub async fn search(
        &mut self,
        start: &Position,
        moves: &[Move],
        depth: u32,
    ) -> Result<Searched, GenerateError> {
        let fen = start.to_fen();
        self.session.new_game().await.map_err(engine_error)?;
        let thought = self
            .session
            .think(&fen, moves, &[], GoLimit::Depth(depth), None)
            .await
            .map_err(engine_error)?;
        self.searches += 1;
        let position = replay(start, moves);
        let where_ = || describe(&fen, moves);
        let text = match thought.answer {
            Answer::Move { text, .. } => text,
            Answer::NoMove => return Err(GenerateError::NoMove { position: where_() }),
        };
        let best = parse_coords(&text, self.session.coordinates().rank_base())
            .ok()
            .filter(|&m| movegen::is_legal(&position, m))
            .ok_or_else(|| GenerateError::IllegalMove {
                text: text.clone(),
                position: where_(),
            })?;
        let info = thought
            .last_scored
            .ok_or_else(|| GenerateError::NoScore { position: where_() })?;
        let score = info
            .score
            .ok_or_else(|| GenerateError::NoScore { position: where_() })?
            .as_units();
        Ok(Searched {
            best,
            score,
            depth: info.depth.unwrap_or(depth),
        })
    }

    /// Ends the engine politely.
    pub async fn quit(self) {
        self.session.quit().await;
    }
}

fn engine_error(source: EngineError) -> GenerateError {
    GenerateError::Engine { source }
}

/// The position after `moves` (already known to be legal).
fn replay(start: &Position, moves: &[Move]) -> Position {
    let mut position = start.clone();
    for &m in moves {
        position.make_move(m);
    }
    position
}

/// `FEN moves a b c` for error messages.
fn describe(fen: &str, moves: &[Move]) -> String {
    let mut out = fen.to_owned();
    if !moves.is_empty() {
        out.push_str(" moves");
        for m in moves {
            out.push(' ');
            out.push_str(&m.to_string());
        }
    }
    out
}
