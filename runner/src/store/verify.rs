//! Whether a stored game's recorded ending follows from its moves: the game replayed
//! with the rules judge, as the runner judged it while it was played. What a worker sent
//! is checked here by the owner (`xq-runner verify`): a "checkmate" that is not one, an
//! illegal move counted as legal, a game that went on after it was over, a fault blamed
//! on the side that was not to move. What the moves cannot show (a clock, a crash, an
//! adjudication's scores) is the worker's word.

use xq_core::board::{Color, Move};
use xq_core::rules::{GameRecord, Reason, Verdict};

use crate::game::{EndReason, GameSettings};
use crate::store::journal::JournalEntry;

/// What is wrong with `entry` under the run's `settings`; `None` when its ending follows
/// from its moves.
#[must_use]
pub fn problem(entry: &JournalEntry, settings: &GameSettings) -> Option<String> {
    replay(entry, settings).err()
}

fn moves(text: &str, what: &str) -> Result<Vec<Move>, String> {
    text.split_whitespace()
        .enumerate()
        .map(|(i, m)| Move::parse(m).map_err(|_| format!("{what} {} (`{m}`) is not a move", i + 1)))
        .collect()
}

fn replay(entry: &JournalEntry, settings: &GameSettings) -> Result<(), String> {
    let mut record = GameRecord::from_fen(&entry.start_fen, settings.rules)
        .map_err(|e| format!("start FEN `{}`: {e}", entry.start_fen))?;
    for (i, m) in moves(&entry.opening_moves, "opening move")?
        .into_iter()
        .enumerate()
    {
        record
            .push(m)
            .map_err(|_| format!("opening move {} ({m}) is illegal", i + 1))?;
    }
    let played = moves(&entry.moves, "move")?;
    if played.len() != entry.plies {
        return Err(format!(
            "{} plies recorded, {} moves",
            entry.plies,
            played.len()
        ));
    }
    let mut verdict = record.verdict();
    for (i, &m) in played.iter().enumerate() {
        if verdict.is_final() {
            return Err(format!(
                "the game was over before move {} ({} at ply {}), yet went on",
                i + 1,
                verdict.reason.code(),
                verdict.ply
            ));
        }
        record
            .push(m)
            .map_err(|_| format!("move {} ({m}) is illegal, and was played", i + 1))?;
        verdict = record.verdict();
    }
    let to_move = record.position().side_to_move();
    ending_follows(entry, settings, verdict, to_move)
}

/// Whether the recorded result and reason are those of the final position.
fn ending_follows(
    entry: &JournalEntry,
    settings: &GameSettings,
    verdict: Verdict,
    to_move: Color,
) -> Result<(), String> {
    let recorded = format!("{} by {}", entry.result.as_pgn(), entry.reason.code());
    if verdict.is_final() {
        let judged = EndReason::from_code(verdict.reason.code());
        if judged != Some(entry.reason) || verdict.result.as_pgn() != entry.result.as_pgn() {
            return Err(format!(
                "recorded {recorded}, the rules say {} by {}",
                verdict.result.as_pgn(),
                verdict.reason.code()
            ));
        }
        return Ok(());
    }
    let over_by_rules = Reason::ALL
        .iter()
        .any(|r| r.code() == entry.reason.code() && *r != Reason::Ongoing);
    if over_by_rules {
        return Err(format!(
            "recorded {recorded}, but the game is not over after its moves"
        ));
    }
    let mover = |side: Color| match side {
        Color::Red => &entry.red,
        Color::Black => &entry.black,
    };
    match entry.reason {
        // The engine to move is the one that ran out of time, moved illegally or said
        // it had none (a crash or a stall may be found at an engine's start instead).
        EndReason::TimeForfeit | EndReason::IllegalMove | EndReason::NoMove
            if entry.faulted.as_ref() != Some(mover(to_move)) =>
        {
            Err(format!(
                "recorded {recorded} of {}, but {} was to move",
                entry.faulted.as_deref().unwrap_or("nobody"),
                mover(to_move)
            ))
        }
        EndReason::MaxPlies
            if settings
                .max_plies
                .is_some_and(|max| entry.plies < max as usize) =>
        {
            Err(format!(
                "recorded {recorded} after {} plies, the limit is {}",
                entry.plies,
                settings.max_plies.unwrap_or_default()
            ))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;

    /// Black's king on d9, Red's rook on a8 holding rank 8: the other rook's b0b9 mates.
    const MATE_IN_ONE: &str = "3k5/R8/9/9/9/9/9/9/9/1R2K4 w";

    fn game(moves: &str, result: Outcome, reason: EndReason) -> JournalEntry {
        let mut e = JournalEntry::sample(0, 0, result);
        e.start_fen = MATE_IN_ONE.to_owned();
        e.moves = moves.to_owned();
        e.plies = moves.split_whitespace().count();
        e.reason = reason;
        e
    }

    #[test]
    fn a_real_checkmate_follows_from_its_moves() {
        let settings = GameSettings::default();
        let e = game("b0b9", Outcome::RedWins, EndReason::Checkmate);
        assert_eq!(problem(&e, &settings), None);
    }

    #[test]
    fn forged_endings_are_named() {
        let settings = GameSettings::default();
        let not_mate = game("a8a7", Outcome::RedWins, EndReason::Checkmate);
        let why = problem(&not_mate, &settings).unwrap_or_default();
        assert!(why.contains("not over"), "{why}");
        let wrong_side = game("b0b9", Outcome::BlackWins, EndReason::Checkmate);
        let why = problem(&wrong_side, &settings).unwrap_or_default();
        assert!(why.contains("the rules say 1-0 by checkmate"), "{why}");
        let illegal = game("b0c1", Outcome::RedWins, EndReason::AdjudicationResign);
        let why = problem(&illegal, &settings).unwrap_or_default();
        assert!(why.contains("move 1 (b0c1) is illegal"), "{why}");
        let went_on = game("b0b9 d9e9", Outcome::RedWins, EndReason::Checkmate);
        let why = problem(&went_on, &settings).unwrap_or_default();
        assert!(why.contains("over before move 2"), "{why}");
        let mut miscounted = game("b0b9", Outcome::RedWins, EndReason::Checkmate);
        miscounted.plies = 3;
        assert!(problem(&miscounted, &settings).is_some());
    }

    #[test]
    fn a_fault_is_the_side_to_moves() {
        let settings = GameSettings::default();
        // After a8a7 Black is to move: Black's engine may lose on time, Red's may not.
        let mut e = game("a8a7", Outcome::RedWins, EndReason::TimeForfeit);
        e.faulted = Some(e.black.clone());
        assert_eq!(problem(&e, &settings), None);
        e.faulted = Some(e.red.clone());
        e.result = Outcome::BlackWins;
        let why = problem(&e, &settings).unwrap_or_default();
        assert!(why.contains("was to move"), "{why}");
    }
}
