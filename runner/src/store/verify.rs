//! Whether a stored game's recorded ending follows from its moves: the game replayed
//! with the rules judge, as the runner judged it while it was played. What a worker sent
//! is checked here by the owner (`xq-runner verify`): a "checkmate" that is not one, an
//! illegal move counted as legal, a game that went on after it was over, a fault blamed
//! on the side that was not to move; and an ending the run's config cannot produce (an
//! adjudication it does not make, a time loss without a clock: the same rules as the
//! server's `xq.ending_problem`). What the moves cannot show (a clock's readings, a
//! crash, an adjudication's scores) is the worker's word.

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
    ending_follows(entry, verdict, to_move)
}

/// Whether the recorded result and reason are those of the final position.
fn ending_follows(entry: &JournalEntry, verdict: Verdict, to_move: Color) -> Result<(), String> {
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
    // The engine to move is the one that ran out of time or said it had none. Before
    // the first move either engine may crash, stall or garble its answer while it
    // starts (`newgame`, `isready`); after it, only the engine asked to move is asked
    // anything.
    let the_movers = match entry.reason {
        EndReason::TimeForfeit | EndReason::NoMove => true,
        EndReason::IllegalMove | EndReason::Crash | EndReason::Stall => entry.plies > 0,
        _ => false,
    };
    if the_movers && entry.faulted.as_ref() != Some(mover(to_move)) {
        return Err(format!(
            "recorded {recorded} of {}, but {} was to move",
            entry.faulted.as_deref().unwrap_or("nobody"),
            mover(to_move)
        ));
    }
    Ok(())
}

/// Why the run's config cannot produce `entry`'s ending, `clocked` saying whether Red's
/// and Black's engines play on a clock; `None` when it can. The server refuses the same
/// endings at submit (`xq.ending_problem`): an adjudication the config does not make,
/// `max_plies` anywhere but at its value, a time loss or moves over the clock by an
/// engine without one.
#[must_use]
pub fn config_problem(
    entry: &JournalEntry,
    settings: &GameSettings,
    clocked: [bool; 2],
) -> Option<String> {
    let side = |name: &str| usize::from(name != entry.red);
    match entry.reason {
        EndReason::AdjudicationDraw if settings.draw.is_none() => {
            return Some("a draw by adjudication, which the run's config does not make (no [adjudication] draw rule)".to_owned());
        }
        EndReason::AdjudicationResign if settings.resign.is_none() => {
            return Some("a loss by adjudication, which the run's config does not make (no [adjudication] resign rule)".to_owned());
        }
        EndReason::MaxPlies => match settings.max_plies {
            None => return Some("a draw at the maximum length, which the run's config does not set (no adjudication.max_plies)".to_owned()),
            Some(max) if entry.plies != max as usize => {
                return Some(format!(
                    "a draw at the maximum length after {} plies: adjudication.max_plies is {max}",
                    entry.plies
                ));
            }
            Some(_) => {}
        },
        EndReason::TimeForfeit => {
            let faulted = entry.faulted.as_deref().unwrap_or_default();
            if !clocked[side(faulted)] {
                return Some(format!(
                    "a loss on time by {faulted}, which plays without a clock"
                ));
            }
        }
        _ => {}
    }
    let names = [&entry.red, &entry.black];
    (0..2)
        .find(|&i| !entry.over_clock[i].is_zero() && !clocked[i])
        .map(|i| {
            format!(
                "moves over the clock of {}, which plays without a clock",
                names[i]
            )
        })
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

    #[test]
    fn before_the_first_move_either_engine_may_crash_after_it_only_the_one_to_move() {
        let settings = GameSettings::default();
        // Red is to move at the start: Black's engine may still fail while it starts.
        let mut e = game("", Outcome::RedWins, EndReason::Crash);
        e.faulted = Some(e.black.clone());
        assert_eq!(problem(&e, &settings), None);
        e.reason = EndReason::IllegalMove;
        assert_eq!(problem(&e, &settings), None);
        // After a8a7 Black is to move: only Black's engine is asked anything.
        let mut e = game("a8a7", Outcome::BlackWins, EndReason::Crash);
        e.faulted = Some(e.red.clone());
        let why = problem(&e, &settings).unwrap_or_default();
        assert!(why.contains("was to move"), "{why}");
        e.reason = EndReason::Stall;
        assert!(problem(&e, &settings).is_some());
    }

    #[test]
    fn endings_the_config_does_not_make_are_named() {
        let plain = GameSettings::default();
        let ended = |reason| {
            let mut e = game("a8a7", Outcome::Draw, reason);
            e.plies = 1;
            e
        };
        let no_clock = [false, false];
        for (reason, words) in [
            (EndReason::AdjudicationDraw, "no [adjudication] draw rule"),
            (
                EndReason::AdjudicationResign,
                "no [adjudication] resign rule",
            ),
            (EndReason::MaxPlies, "no adjudication.max_plies"),
        ] {
            let why = config_problem(&ended(reason), &plain, no_clock).unwrap_or_default();
            assert!(why.contains(words), "{reason}: {why}");
        }
        let mut lost_on_time = ended(EndReason::TimeForfeit);
        lost_on_time.result = Outcome::RedWins;
        lost_on_time.faulted = Some(lost_on_time.black.clone());
        let why = config_problem(&lost_on_time, &plain, no_clock).unwrap_or_default();
        assert!(
            why.contains("a loss on time by b, which plays without a clock"),
            "{why}"
        );
        assert_eq!(config_problem(&lost_on_time, &plain, [false, true]), None);
        let mut over = ended(EndReason::Repetition);
        over.over_clock[1] = crate::game::OverClock { moves: 1, ms: 20 };
        let why = config_problem(&over, &plain, [true, false]).unwrap_or_default();
        assert!(why.contains("moves over the clock of b"), "{why}");
        assert_eq!(config_problem(&over, &plain, [false, true]), None);
        // Where the config makes them, they are not named.
        let made = GameSettings {
            draw: Some(crate::game::adjudication::DrawRule {
                move_number: 40,
                move_count: 8,
                score: 10,
            }),
            max_plies: Some(1),
            ..GameSettings::default()
        };
        assert_eq!(
            config_problem(&ended(EndReason::AdjudicationDraw), &made, no_clock),
            None
        );
        assert_eq!(
            config_problem(&ended(EndReason::MaxPlies), &made, no_clock),
            None
        );
        let mut longer = ended(EndReason::MaxPlies);
        longer.plies = 2;
        let why = config_problem(&longer, &made, no_clock).unwrap_or_default();
        assert!(
            why.contains("after 2 plies: adjudication.max_plies is 1"),
            "{why}"
        );
    }
}
