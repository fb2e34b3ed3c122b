//! A finished game as the ledger keeps it, and the game record (`xq_core::training`)
//! that `pack` makes of a ledger line. Every position is kept: which ones a trainer
//! learns from is the reader's choice (`xq_core::training::positions`).

use xq_core::board::Move;
use xq_core::training::{GameMove, GameResult, SearchScore, SelfPlayGame};

use super::engine_build::EngineBuild;
use super::ledger::LedgerLine;
use crate::client::Score;
use crate::game::Outcome;
use crate::store::journal::{parse_score, JournalEntry};

/// The ledger line of a finished game, played by `build`.
#[must_use]
pub fn ledger_line(entry: &JournalEntry, build: &EngineBuild) -> LedgerLine {
    // A fault's result says nothing about the positions: they count for nothing.
    let positions = if entry.reason.is_fault() {
        0
    } else {
        entry
            .scores
            .iter()
            .filter(|s| s.as_deref().and_then(parse_score).is_some())
            .count() as u64
    };
    LedgerLine {
        game: entry.pair,
        positions,
        result: entry.result.as_pgn().to_owned(),
        reason: entry.reason.code().to_owned(),
        start_fen: entry.start_fen.clone(),
        opening_moves: entry.opening_moves.clone(),
        moves: entry.moves.clone(),
        scores: entry.scores.clone(),
        bench: build.bench,
        commit: build.commit.clone(),
    }
}

/// The game record of a ledger line.
///
/// # Errors
/// One line naming the game: a move or the result that is not one.
pub fn game_of(line: &LedgerLine) -> Result<SelfPlayGame, String> {
    let bad = |why: String| format!("game {}: {why}", line.game);
    let red_result = match Outcome::from_pgn(&line.result) {
        Some(Outcome::RedWins) => GameResult::Win,
        Some(Outcome::BlackWins) => GameResult::Loss,
        Some(Outcome::Draw) => GameResult::Draw,
        None => return Err(bad(format!("result `{}` is not one", line.result))),
    };
    let mut moves: Vec<GameMove> = parse_moves(&line.opening_moves)
        .map_err(&bad)?
        .into_iter()
        .map(GameMove::unscored)
        .collect();
    for (i, mv) in parse_moves(&line.moves)
        .map_err(&bad)?
        .into_iter()
        .enumerate()
    {
        let score = line
            .scores
            .get(i)
            .and_then(|s| s.as_deref())
            .and_then(parse_score)
            .map(|s| match s {
                Score::Units(u) => SearchScore::Units(u),
                Score::Mate(m) => SearchScore::Mate(m),
            });
        moves.push(GameMove { mv, score });
    }
    Ok(SelfPlayGame {
        index: line.game,
        start_fen: line.start_fen.clone(),
        moves,
        red_result,
        ending: line.reason.clone(),
    })
}

fn parse_moves(text: &str) -> Result<Vec<Move>, String> {
    text.split_whitespace()
        .map(|m| Move::parse(m).map_err(|e| e.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::EndReason;

    #[test]
    fn the_runners_faults_are_the_endings_the_reader_leaves_out() {
        let faults: Vec<&str> = EndReason::ALL
            .into_iter()
            .filter(|r| r.is_fault())
            .map(EndReason::code)
            .collect();
        let mut reader = xq_core::training::FAULT_ENDINGS.to_vec();
        reader.sort_unstable();
        let mut ours = faults;
        ours.sort_unstable();
        assert_eq!(reader, ours);
    }

    #[test]
    fn a_ledger_line_becomes_the_game_it_records() {
        let line = LedgerLine {
            game: 7,
            positions: 2,
            result: "0-1".to_owned(),
            reason: "adjudication_resign".to_owned(),
            start_fen: xq_core::board::START_FEN.to_owned(),
            opening_moves: "h2e2 h9g7".to_owned(),
            moves: "h0g2 i9h9 i0h0".to_owned(),
            scores: vec![Some("35".to_owned()), None, Some("-M2".to_owned())],
            bench: Some(1),
            commit: None,
        };
        let game = game_of(&line).expect("a game");
        assert_eq!(game.index, 7);
        assert_eq!(game.red_result, GameResult::Loss);
        assert_eq!(game.moves.len(), 5);
        let scores: Vec<_> = game.moves.iter().map(|m| m.score).collect();
        assert_eq!(
            scores,
            [
                None,
                None,
                Some(SearchScore::Units(35)),
                None,
                Some(SearchScore::Mate(-2))
            ]
        );
        let bad = LedgerLine {
            moves: "h0g2 zz".to_owned(),
            ..line.clone()
        };
        assert!(game_of(&bad).expect_err("bad").starts_with("game 7: "));
        let bad = LedgerLine {
            result: "*".to_owned(),
            ..line
        };
        assert_eq!(
            game_of(&bad).expect_err("bad"),
            "game 7: result `*` is not one"
        );
    }
}
