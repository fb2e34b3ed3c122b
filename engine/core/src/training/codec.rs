//! A game's bytes inside a chunk (before compression), in this order:
//!
//! | field | bytes |
//! |---|---|
//! | game index | varint |
//! | start FEN | varint length, then its ASCII bytes |
//! | result from Red's side | 1: 0 Red wins, 1 Black wins, 2 draw |
//! | ending (reason code) | varint length, then its ASCII bytes |
//! | moves `n` | varint |
//! | each move | 1: its index among the legal moves of its position, sorted ascending by destination square, then origin square |
//! | each move's score | one varint token (below) |
//!
//! A score token is 0 for no score; `1 + 2 · zigzag(s - p)` for a score of `s` units,
//! where the prediction `p` is minus the previous move's score when that one was in
//! units (the opponent's view of nearly the same position), else 0; and
//! `2 + 2 · zigzag(m)` for a mate in `m` moves. A move is one byte since no Xiangqi
//! position has more than 128 legal moves ([`MAX_MOVES`]).

use thiserror::Error;

use crate::board::{Move, Position};
use crate::movegen::{legal_moves, MoveList, MAX_MOVES};

use super::game::{GameMove, SearchScore, SelfPlayGame};
use super::record::GameResult;
use super::varint::{self, Cursor, VarintError};

/// The longest start FEN or ending a record holds (longer text is not one of ours).
const MAX_TEXT: u64 = 256;
/// The most moves of a game (the runner's games end far sooner).
const MAX_GAME_MOVES: u64 = 100_000;

/// Why a game cannot be written or read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CodecError {
    #[error("game {index}: start FEN `{fen}`: {why}")]
    BadStart {
        index: u64,
        fen: String,
        why: String,
    },
    #[error("game {index}: move {ply} ({mv}) is not legal")]
    IllegalMove { index: u64, ply: usize, mv: Move },
    #[error("game {index}: move {ply} is number {pick} of {legal} legal moves")]
    BadMoveIndex {
        index: u64,
        ply: usize,
        pick: u8,
        legal: usize,
    },
    #[error("byte {offset}: {what}: {source}")]
    Bytes {
        offset: usize,
        what: &'static str,
        #[source]
        source: VarintError,
    },
    #[error("byte {offset}: {what} {value} is out of range")]
    OutOfRange {
        offset: usize,
        what: &'static str,
        value: u64,
    },
    #[error("byte {offset}: {what} is not ASCII text")]
    NotText { offset: usize, what: &'static str },
}

/// Appends the bytes of `game`.
///
/// # Errors
/// [`CodecError::BadStart`] or [`CodecError::IllegalMove`]: the game does not replay
/// (a record names moves by their place among the legal ones).
pub fn encode_game(game: &SelfPlayGame, out: &mut Vec<u8>) -> Result<(), CodecError> {
    let mut position = start(game.index, &game.start_fen)?;
    varint::put_u64(out, game.index);
    put_text(out, &game.start_fen);
    out.push(result_byte(game.red_result));
    put_text(out, &game.ending);
    varint::put_u64(out, game.moves.len() as u64);
    let mut legal = MoveList::new();
    for (ply, m) in game.moves.iter().enumerate() {
        sorted_legal(&position, &mut legal);
        let pick = legal
            .iter()
            .position(|&l| l == m.mv)
            .ok_or(CodecError::IllegalMove {
                index: game.index,
                ply: ply + 1,
                mv: m.mv,
            })?;
        // Below MAX_MOVES (128), so one byte.
        out.push(pick as u8);
        position.make_move(m.mv);
    }
    let mut previous = None;
    for m in &game.moves {
        varint::put_u64(out, score_token(m.score, previous));
        previous = m.score;
    }
    Ok(())
}

/// Reads one game's bytes from `cursor`, replaying its moves.
///
/// # Errors
/// [`CodecError`] naming the byte offset or the game and move that do not decode.
pub fn decode_game(cursor: &mut Cursor<'_>) -> Result<SelfPlayGame, CodecError> {
    let index = number(cursor, "game index")?;
    let start_fen = text(cursor, "start FEN")?;
    let mut position = start(index, &start_fen)?;
    let at = cursor.offset();
    let red_result = match cursor.byte().map_err(bytes(at, "result"))? {
        0 => GameResult::Win,
        1 => GameResult::Loss,
        2 => GameResult::Draw,
        other => {
            return Err(CodecError::OutOfRange {
                offset: at,
                what: "result",
                value: u64::from(other),
            })
        }
    };
    let ending = text(cursor, "ending")?;
    let at = cursor.offset();
    let count = number(cursor, "move count")?;
    if count > MAX_GAME_MOVES {
        return Err(CodecError::OutOfRange {
            offset: at,
            what: "move count",
            value: count,
        });
    }
    let at = cursor.offset();
    let picks = cursor.take(count as usize).map_err(bytes(at, "moves"))?;
    let mut moves = Vec::with_capacity(picks.len());
    let mut legal = MoveList::new();
    for (ply, &pick) in picks.iter().enumerate() {
        sorted_legal(&position, &mut legal);
        let mv = *legal
            .get(usize::from(pick))
            .ok_or(CodecError::BadMoveIndex {
                index,
                ply: ply + 1,
                pick,
                legal: legal.len(),
            })?;
        position.make_move(mv);
        moves.push(GameMove::unscored(mv));
    }
    let mut previous = None;
    for m in &mut moves {
        let at = cursor.offset();
        let token = number(cursor, "score")?;
        m.score = score_of(token, previous).ok_or(CodecError::OutOfRange {
            offset: at,
            what: "score",
            value: token,
        })?;
        previous = m.score;
    }
    Ok(SelfPlayGame {
        index,
        start_fen,
        moves,
        red_result,
        ending,
    })
}

/// The legal moves of `position` in the record's order (ascending move bits: by
/// destination square, then origin square).
pub(crate) fn sorted_legal(position: &Position, list: &mut MoveList) {
    *list = legal_moves(position);
    list.as_mut_slice().sort_unstable();
    debug_assert!(list.len() <= MAX_MOVES);
}

fn start(index: u64, fen: &str) -> Result<Position, CodecError> {
    Position::from_fen(fen).map_err(|e| CodecError::BadStart {
        index,
        fen: fen.chars().take(100).collect(),
        why: e.to_string(),
    })
}

fn result_byte(red: GameResult) -> u8 {
    match red {
        GameResult::Win => 0,
        GameResult::Loss => 1,
        GameResult::Draw => 2,
    }
}

/// What a score is predicted to be from the previous move's: the same position seen
/// by the other side, nearly.
fn predicted(previous: Option<SearchScore>) -> i64 {
    match previous {
        Some(SearchScore::Units(u)) => -i64::from(u),
        _ => 0,
    }
}

fn score_token(score: Option<SearchScore>, previous: Option<SearchScore>) -> u64 {
    match score {
        None => 0,
        Some(SearchScore::Units(u)) => 1 + 2 * varint::zigzag(i64::from(u) - predicted(previous)),
        Some(SearchScore::Mate(m)) => 2 + 2 * varint::zigzag(i64::from(m)),
    }
}

/// The score of a token; `None` inside when there is none, `None` outside for a token
/// whose value does not fit a score.
#[allow(clippy::option_option)]
fn score_of(token: u64, previous: Option<SearchScore>) -> Option<Option<SearchScore>> {
    if token == 0 {
        return Some(None);
    }
    let value = varint::unzigzag((token - 1) / 2);
    if token % 2 == 1 {
        let units = value.checked_add(predicted(previous))?;
        Some(Some(SearchScore::Units(i32::try_from(units).ok()?)))
    } else {
        Some(Some(SearchScore::Mate(i32::try_from(value).ok()?)))
    }
}

fn put_text(out: &mut Vec<u8>, text: &str) {
    varint::put_u64(out, text.len() as u64);
    out.extend_from_slice(text.as_bytes());
}

fn bytes(offset: usize, what: &'static str) -> impl Fn(VarintError) -> CodecError {
    move |source| CodecError::Bytes {
        offset,
        what,
        source,
    }
}

fn number(cursor: &mut Cursor<'_>, what: &'static str) -> Result<u64, CodecError> {
    let at = cursor.offset();
    cursor.u64().map_err(bytes(at, what))
}

fn text(cursor: &mut Cursor<'_>, what: &'static str) -> Result<String, CodecError> {
    let at = cursor.offset();
    let len = number(cursor, what)?;
    if len > MAX_TEXT {
        return Err(CodecError::OutOfRange {
            offset: at,
            what,
            value: len,
        });
    }
    let raw = cursor.take(len as usize).map_err(bytes(at, what))?;
    if !raw.is_ascii() {
        return Err(CodecError::NotText { offset: at, what });
    }
    Ok(String::from_utf8_lossy(raw).into_owned())
}
