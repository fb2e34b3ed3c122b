//! Plays one game between two engine sessions and judges it move by move.
//!
//! The runner trusts nothing an engine says about the game: every move is checked
//! against the legal moves, the rules judge decides after every move, the runner's own
//! clock decides time losses, and draw offers or resignations in `bestmove` lines are
//! ignored (use score adjudication instead). Every engine failure becomes a result with
//! its reason code.

use std::time::Duration;

use xq_core::board::{Color, Move, Position};
use xq_core::movegen::is_legal;
use xq_core::notation::parse_coords;
use xq_core::rules::{GameRecord, GameResult, Rules};

use super::adjudication::{Adjudged, Adjudicator, DrawRule, ResignRule};
use super::outcome::{EndReason, Outcome, OverClock, PlayedGame, PlayedMove};
use super::time_control::{Clock, MarginMode, TimeControl};
use crate::client::{Answer, EngineError, EngineSession, GoClock, GoLimit};

/// The rules and limits of every game of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSettings {
    pub rules: Rules,
    /// Extra time a move may take beyond the clock before it loses (pipe latency).
    pub time_margin: Duration,
    /// Whether the time taken within the margin is forgiven or owed.
    pub margin_mode: MarginMode,
    /// Send `banmoves` (UCCI) for moves that would complete a forbidden perpetual.
    pub banmoves: bool,
    pub draw: Option<DrawRule>,
    pub resign: Option<ResignRule>,
    /// Plies played by the engines after which the game is a draw (`max_plies`).
    pub max_plies: Option<u32>,
}

impl Default for GameSettings {
    fn default() -> GameSettings {
        GameSettings {
            rules: Rules::default(),
            time_margin: Duration::from_millis(50),
            margin_mode: MarginMode::Clamp,
            banmoves: true,
            draw: None,
            resign: None,
            max_plies: None,
        }
    }
}

/// Where a game starts: a FEN and the opening's moves (played before the engines move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStart {
    pub fen: String,
    pub moves: Vec<Move>,
}

/// One side of a game: its engine and its clock.
#[derive(Debug)]
pub struct Player<'a> {
    pub engine: &'a mut EngineSession,
    pub time_control: TimeControl,
    /// The depth a clocked search also stops at.
    pub depth_cap: Option<u32>,
}

/// Why a game could not start.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    #[error("bad opening FEN `{fen}`: {why}")]
    Fen { fen: String, why: String },
    #[error("opening move {index} ({mv}) is illegal")]
    Move { index: usize, mv: Move },
}

/// The game in progress: the judge's record, what the engines are told, and the output.
struct Table {
    record: GameRecord,
    /// The position after the last capture and the moves since, as sent to engines
    /// (the UCCI convention: no repetition can reach across a capture).
    anchor_fen: String,
    since_anchor: Vec<Move>,
    game: PlayedGame,
    /// Things an engine did that did not end the game but belong in its detail.
    notes: Vec<String>,
    /// Per side: moves over the clock and the time beyond it (kept exact until the end).
    beyond: [(u32, Duration); 2],
}

impl Table {
    fn finish(
        mut self,
        outcome: Outcome,
        reason: EndReason,
        faulted: Option<Color>,
        detail: Option<String>,
    ) -> PlayedGame {
        self.game.outcome = outcome;
        self.game.reason = reason;
        self.game.faulted = faulted;
        self.game.over_clock = self.beyond.map(|(moves, time)| OverClock {
            moves,
            ms: u64::try_from(time.as_millis()).unwrap_or(u64::MAX),
        });
        self.game.detail = detail
            .into_iter()
            .chain(self.notes)
            .reduce(|a, b| format!("{a}; {b}"));
        self.game
    }

    fn play(&mut self, m: Move) -> bool {
        let capture = self.record.position().piece_at(m.to()).is_some();
        if self.record.push(m).is_err() {
            return false;
        }
        if capture {
            self.anchor_fen = self.record.position().to_fen();
            self.since_anchor.clear();
        } else {
            self.since_anchor.push(m);
        }
        true
    }
}

/// Plays a game from `start` with `players` (Red first).
///
/// # Errors
/// [`StartError`] when the start FEN or an opening move is bad (the opening file is
/// checked when the run starts, so this means a bug or a changed file).
pub async fn play_game(
    start: &GameStart,
    players: [Player<'_>; 2],
    settings: &GameSettings,
) -> Result<PlayedGame, StartError> {
    let position = Position::from_fen(&start.fen).map_err(|e| StartError::Fen {
        fen: start.fen.clone(),
        why: e.to_string(),
    })?;
    let [red, black] = players;
    let mut table = Table {
        record: GameRecord::new(position.clone(), settings.rules),
        anchor_fen: position.to_fen(),
        since_anchor: Vec::new(),
        game: PlayedGame {
            red: red.engine.name().to_owned(),
            black: black.engine.name().to_owned(),
            start_fen: start.fen.clone(),
            opening_moves: start.moves.clone(),
            moves: Vec::new(),
            outcome: Outcome::Draw,
            reason: EndReason::MaxPlies,
            faulted: None,
            detail: None,
            over_clock: [OverClock::default(); 2],
        },
        notes: Vec::new(),
        beyond: [(0, Duration::ZERO); 2],
    };
    for (index, &mv) in start.moves.iter().enumerate() {
        if !table.play(mv) {
            return Err(StartError::Move {
                index: index + 1,
                mv,
            });
        }
    }
    let mut clocks = [red.time_control, black.time_control]
        .map(|control| Clock::with_mode(control, settings.margin_mode));
    let caps = [red.depth_cap, black.depth_cap];
    let mut engines = [red.engine, black.engine];
    for color in Color::ALL {
        if let Err(e) = engines[color.index()].new_game().await {
            let reason = fault_reason(&e, false);
            return Ok(table.finish(
                Outcome::loss_for(color),
                reason,
                Some(color),
                Some(e.to_string()),
            ));
        }
    }
    let mut adjudicator = Adjudicator::new(settings.draw, settings.resign);
    // Each side's last answer, to name a stale or doubled `bestmove` taken as the next.
    let mut last_answer: [Option<String>; 2] = [None, None];
    loop {
        let verdict = table.record.verdict();
        if verdict.is_final() {
            let outcome = match verdict.result {
                GameResult::RedWins => Outcome::RedWins,
                GameResult::BlackWins => Outcome::BlackWins,
                GameResult::Draw | GameResult::Ongoing => Outcome::Draw,
            };
            let reason =
                EndReason::from_code(verdict.reason.code()).unwrap_or(EndReason::Repetition);
            return Ok(table.finish(outcome, reason, None, None));
        }
        if settings
            .max_plies
            .is_some_and(|max| table.game.moves.len() >= max as usize)
        {
            return Ok(table.finish(Outcome::Draw, EndReason::MaxPlies, None, None));
        }
        let side = table.record.position().side_to_move();
        let clock = clocks[side.index()];
        let (limit, deadline) = go_limit(
            &clock,
            &clocks[(!side).index()],
            side,
            settings.time_margin,
            caps[side.index()],
        );
        let banned = if settings.banmoves {
            table.record.banned_moves()
        } else {
            Vec::new()
        };
        let engine = &mut engines[side.index()];
        let thought = match engine
            .think(
                &table.anchor_fen,
                &table.since_anchor,
                &banned,
                limit,
                deadline,
            )
            .await
        {
            Ok(thought) => thought,
            Err(e) => {
                if !matches!(e, EngineError::Exited { .. }) {
                    engine.kill().await;
                }
                let reason = fault_reason(&e, clock.control().is_clock());
                return Ok(table.finish(
                    Outcome::loss_for(side),
                    reason,
                    Some(side),
                    Some(e.to_string()),
                ));
            }
        };
        for line in &thought.stale {
            table.notes.push(format!(
                "ignored `{}` that {} wrote before it was asked to move (a stale or doubled bestmove)",
                line.chars().take(40).collect::<String>(),
                engine.name()
            ));
        }
        if clock.flag_fell(thought.elapsed, settings.time_margin) {
            let mut detail = format!(
                "answered after {} ms with {} ms left",
                thought.elapsed.as_millis(),
                clock.left().unwrap_or_default().as_millis()
            );
            if !clock.owed().is_zero() {
                detail.push_str(&format!(
                    " and {} ms owed from earlier moves (time.margin_mode = \"cumulative\")",
                    clock.owed().as_millis()
                ));
            }
            return Ok(table.finish(
                Outcome::loss_for(side),
                EndReason::TimeForfeit,
                Some(side),
                Some(detail),
            ));
        }
        let text = match &thought.answer {
            Answer::Move { text, .. } => text.clone(),
            Answer::NoMove => {
                let detail = "said it has no move while it has legal moves".to_owned();
                return Ok(table.finish(
                    Outcome::loss_for(side),
                    EndReason::NoMove,
                    Some(side),
                    Some(detail),
                ));
            }
        };
        let legal = parse_coords(&text, engine.coordinates().rank_base())
            .ok()
            .filter(|&m| is_legal(table.record.position(), m));
        let repeated = last_answer[side.index()].as_deref() == Some(text.as_str());
        last_answer[side.index()] = Some(text.clone());
        let Some(mv) = legal else {
            let mut detail = format!(
                "illegal move `{}`",
                text.chars().take(40).collect::<String>()
            );
            if repeated {
                detail.push_str(
                    " (the same as its previous answer: a stale or doubled bestmove taken as the answer to this move)",
                );
            }
            return Ok(table.finish(
                Outcome::loss_for(side),
                EndReason::IllegalMove,
                Some(side),
                Some(detail),
            ));
        };
        table.play(mv);
        let beyond = clocks[side.index()].charge(thought.elapsed);
        if !beyond.is_zero() {
            let (moves, time) = &mut table.beyond[side.index()];
            *moves += 1;
            *time += beyond;
        }
        let info = thought.last_scored.as_ref();
        table.game.moves.push(PlayedMove {
            mv,
            time_ms: u64::try_from(thought.elapsed.as_millis()).unwrap_or(u64::MAX),
            score: info.and_then(|i| i.score),
            depth: info.and_then(|i| i.depth),
            nodes: info.and_then(|i| i.nodes),
            nps: info.and_then(|i| i.nps),
            seldepth: info.and_then(|i| i.seldepth),
        });
        if table.record.verdict().is_final() {
            continue;
        }
        let move_number = table.record.position().fullmove_number();
        let score = info
            .and_then(|i| i.score)
            .map(crate::client::Score::as_units);
        match adjudicator.record(side, move_number, score) {
            Some(Adjudged::Draw) => {
                return Ok(table.finish(Outcome::Draw, EndReason::AdjudicationDraw, None, None))
            }
            Some(Adjudged::Resign(loser)) => {
                return Ok(table.finish(
                    Outcome::loss_for(loser),
                    EndReason::AdjudicationResign,
                    None,
                    None,
                ))
            }
            None => {}
        }
    }
}

/// The `go` limit of a side and the deadline after which the runner sends `stop`.
fn go_limit(
    own: &Clock,
    opp: &Clock,
    side: Color,
    margin: Duration,
    depth_cap: Option<u32>,
) -> (GoLimit, Option<Duration>) {
    match own.control() {
        TimeControl::Clock { .. } => {
            let left = own.left().unwrap_or_default();
            let deadline = own.deadline(margin).unwrap_or_default();
            let clock = GoClock {
                own_time: left,
                own_increment: own.increment(),
                opp_time: opp.left().unwrap_or_default(),
                opp_increment: opp.increment(),
                moves_to_go: own.moves_to_go(),
                red_to_move: side == Color::Red,
                depth: depth_cap,
            };
            (GoLimit::Clock(clock), Some(deadline))
        }
        TimeControl::MoveTime(t) => (GoLimit::MoveTime(t), Some(t + margin)),
        TimeControl::Depth(d) => (GoLimit::Depth(d), None),
        TimeControl::Nodes(n) => (GoLimit::Nodes(n), None),
    }
}

/// The reason code of an engine failure.
fn fault_reason(error: &EngineError, clocked: bool) -> EndReason {
    match error {
        EngineError::Exited { .. } | EngineError::Spawn { .. } => EndReason::Crash,
        EngineError::NoAnswer { .. } if clocked => EndReason::TimeForfeit,
        EngineError::NoAnswer { .. } | EngineError::Timeout { .. } => EndReason::Stall,
        // A garbled answer (a line too long to be a message) is a move nobody can read.
        EngineError::Protocol(_) => EndReason::IllegalMove,
    }
}
