//! A game record: the start position and the moves, with what the judge needs about
//! every ply kept incrementally, so a judgement costs O(plies since capture).

use thiserror::Error;

use crate::board::{BitBoard, FenError, Move, Position, Undo};
use crate::movegen::{gives_check, has_legal_move, in_check, is_legal};

use super::chase::new_chases;
use super::limit::LimitCounter;
use super::material::insufficient_material;
use super::repetition::{judge_cycle, PlyEntry};
use super::{ChaseRule, Reason, Rules, Verdict};

/// A move that is not legal in the position it was played in.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("illegal move {mv} at ply {ply} (position {fen})")]
pub struct IllegalMove {
    /// The move.
    pub mv: Move,
    /// How many moves had been played before it (its index in the move list).
    pub ply: usize,
    /// The position it was tried in.
    pub fen: String,
}

/// A game under judgement: push moves, ask for the verdict after each.
#[derive(Clone, Debug)]
pub struct GameRecord {
    rules: Rules,
    start: Position,
    pos: Position,
    /// One entry per position, `history[0]` for the start position.
    history: Vec<PlyEntry>,
    limits: Vec<LimitCounter>,
    undos: Vec<Undo>,
}

impl GameRecord {
    /// A game starting at `start`, judged by `rules`.
    #[must_use]
    pub fn new(start: Position, rules: Rules) -> GameRecord {
        let first = PlyEntry {
            key: start.key(),
            mv: None,
            gave_check: in_check(&start),
            chased: BitBoard::EMPTY,
            plies_since_capture: u16::try_from(start.plies_since_capture()).unwrap_or(u16::MAX),
        };
        GameRecord {
            rules,
            pos: start.clone(),
            limits: vec![LimitCounter::from_fen_counter(start.plies_since_capture())],
            start,
            history: vec![first],
            undos: Vec::new(),
        }
    }

    /// A game starting from a FEN.
    ///
    /// # Errors
    /// [`FenError`] when the FEN is not a legal position.
    pub fn from_fen(fen: &str, rules: Rules) -> Result<GameRecord, FenError> {
        Ok(GameRecord::new(Position::from_fen(fen)?, rules))
    }

    /// The rules the game is judged by.
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The start position.
    #[must_use]
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The number of moves played.
    #[must_use]
    pub fn ply(&self) -> usize {
        self.undos.len()
    }

    /// The moves played, in order.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.history.iter().filter_map(|e| e.mv)
    }

    /// One entry per position, the start position first (for the cycle judge).
    #[must_use]
    pub fn history(&self) -> &[PlyEntry] {
        &self.history
    }

    /// Plays a move after checking that it is legal.
    ///
    /// # Errors
    /// [`IllegalMove`] when it is not; the record is unchanged.
    pub fn push(&mut self, m: Move) -> Result<(), IllegalMove> {
        if !is_legal(&self.pos, m) {
            return Err(IllegalMove {
                mv: m,
                ply: self.ply(),
                fen: self.pos.to_fen(),
            });
        }
        let ruleset = self.rules.ruleset;
        let mover = self.pos.side_to_move();
        let gave_check = gives_check(&self.pos, m);
        let capture = self.pos.piece_at(m.to()).is_some();
        let rule = ruleset.chase_rule();
        let wants_chase =
            !capture && rule != ChaseRule::None && (!gave_check || ruleset.check_move_can_chase());
        let before = wants_chase.then(|| self.pos.clone());
        let undo = self.pos.make_move(m);
        let chased = match &before {
            Some(before) => new_chases(before, &self.pos, m, rule),
            None => BitBoard::EMPTY,
        };
        let replied_to_check = self.history.last().is_some_and(|e| e.gave_check);
        let limit = self.limits.last().copied().unwrap_or_default().after_move(
            self.rules.limit_counting,
            mover,
            capture,
            gave_check,
            replied_to_check,
        );
        self.history.push(PlyEntry {
            key: self.pos.key(),
            mv: Some(m),
            gave_check,
            chased,
            plies_since_capture: u16::try_from(self.pos.plies_since_capture()).unwrap_or(u16::MAX),
        });
        self.limits.push(limit);
        self.undos.push(undo);
        Ok(())
    }

    /// Takes back the last move, if any.
    pub fn pop(&mut self) -> Option<Move> {
        let undo = self.undos.pop()?;
        let entry = self.history.pop()?;
        self.limits.pop();
        let m = entry.mv?;
        self.pos.unmake_move(m, undo);
        Some(m)
    }

    /// The verdict on the current position. The tests run in this order: no legal move
    /// (checkmate or stalemate: the side to move loses), repetition (perpetual check,
    /// perpetual chase, draw), insufficient material, natural move limit.
    #[must_use]
    pub fn verdict(&self) -> Verdict {
        let ply = self.ply();
        let side = self.pos.side_to_move();
        if !has_legal_move(&self.pos) {
            let in_check = self.history.last().is_some_and(|e| e.gave_check);
            let reason = if in_check {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            };
            return Verdict::loss(side, reason, ply);
        }
        let threshold = self.rules.ruleset.repetition_threshold();
        if let Some(cycle) = judge_cycle(&self.history, side, threshold) {
            return match cycle.loser {
                Some(loser) => Verdict::loss(loser, cycle.reason, ply),
                None => Verdict::draw(cycle.reason, ply),
            };
        }
        if insufficient_material(&self.pos) {
            return Verdict::draw(Reason::InsufficientMaterial, ply);
        }
        let limit = self.rules.move_limit;
        if limit > 0 && self.limits.last().is_some_and(|c| c.plies() >= limit) {
            return Verdict::draw(Reason::MoveLimit, ply);
        }
        Verdict::ongoing(ply)
    }
}

/// The judgement of a whole move list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameJudgement {
    /// The first final verdict, or "ongoing" after the last move.
    pub verdict: Verdict,
    /// Moves given after the game had ended (checked for legality, not judged).
    pub moves_after_end: usize,
}

/// Plays `moves` from `start`, judging after every ply, and returns the first final
/// verdict (or "ongoing").
///
/// # Errors
/// [`IllegalMove`] for the first illegal move, wherever it is in the list.
pub fn judge_game(
    start: Position,
    moves: &[Move],
    rules: Rules,
) -> Result<GameJudgement, IllegalMove> {
    let mut record = GameRecord::new(start, rules);
    let mut decided = None;
    let first = record.verdict();
    if first.is_final() {
        decided = Some(first);
    }
    for &m in moves {
        record.push(m)?;
        if decided.is_none() {
            let v = record.verdict();
            if v.is_final() {
                decided = Some(v);
            }
        }
    }
    Ok(match decided {
        Some(verdict) => GameJudgement {
            verdict,
            moves_after_end: moves.len() - verdict.ply,
        },
        None => GameJudgement {
            verdict: Verdict::ongoing(moves.len()),
            moves_after_end: 0,
        },
    })
}
