//! Training positions from the runner's game journals (`games.jsonl`): each quiet
//! position of a game, its evaluation split into the fixed part (material and placement)
//! and the weighted terms, labelled with the game's result for Red.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;

use thiserror::Error;
use xq_engine::board::{Color, Move, Position};
use xq_engine::eval::{Evaluator, Term, TermWeights, TERM_TUNABLES};
use xq_engine::movegen::{gives_check, in_check, is_legal};

/// The number of weighted terms, the features of a sample.
pub const FEATURES: usize = TERM_TUNABLES.len();

/// One position: Red's view of the fixed part and of each weighted term, and the result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Material plus placement, Red minus Black.
    pub fixed: f64,
    /// Each term of [`TERM_TUNABLES`] at weight 100, Red minus Black.
    pub terms: [f64; FEATURES],
    /// 1 for a Red win, 0.5 for a draw, 0 for a Black win.
    pub result: f64,
}

/// A journal that could not be read; the line number is 1-based.
#[derive(Debug, Error)]
pub enum SampleError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}:{line}: {message}")]
    Line {
        path: String,
        line: usize,
        message: String,
    },
}

/// What was read: the samples to fit, those of every tenth game kept apart to check the
/// fit on games it has not seen, and how many games gave none (a game without a decisive
/// or drawn result, such as an aborted one, is skipped).
#[derive(Debug)]
pub struct Read<S = Sample> {
    pub samples: Vec<S>,
    pub check: Vec<S>,
    pub games: usize,
    pub skipped_games: usize,
}

impl<S> Default for Read<S> {
    fn default() -> Read<S> {
        Read {
            samples: Vec::new(),
            check: Vec::new(),
            games: 0,
            skipped_games: 0,
        }
    }
}

/// Makes the sample of a quiet position labelled with a result for Red (`None` leaves
/// the position out).
pub type MakeSample<S> = fn(&Position, f64) -> Option<S>;

/// Which positions of a game become samples.
#[derive(Clone, Copy, Debug)]
pub struct Filter {
    /// Positions before this many plies of the game (after its opening line) are left out.
    pub min_ply: usize,
}

/// Reads every game of a journal into `read`.
///
/// # Errors
/// The file cannot be read, a line is not JSON, or a game's position or moves are not
/// legal (with the file and line).
pub fn read_journal<S>(
    path: &Path,
    filter: Filter,
    make: MakeSample<S>,
    read: &mut Read<S>,
) -> Result<(), SampleError> {
    let shown = path.display().to_string();
    let file = File::open(path).map_err(|source| SampleError::Io {
        path: shown.clone(),
        source,
    })?;
    for (index, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|source| SampleError::Io {
            path: shown.clone(),
            source,
        })?;
        if line.trim().is_empty() {
            continue;
        }
        let bad = |message: String| SampleError::Line {
            path: shown.clone(),
            line: index + 1,
            message,
        };
        let value: serde_json::Value =
            serde_json::from_str(&line).map_err(|e| bad(format!("not JSON: {e}")))?;
        match game_samples(&value, filter, make).map_err(bad)? {
            Some(samples) => {
                read.games += 1;
                if read.games.is_multiple_of(10) {
                    read.check.extend(samples);
                } else {
                    read.samples.extend(samples);
                }
            }
            None => read.skipped_games += 1,
        }
    }
    Ok(())
}

/// The samples of one journal line, `None` when it is not a finished game.
fn game_samples<S>(
    value: &serde_json::Value,
    filter: Filter,
    make: MakeSample<S>,
) -> Result<Option<Vec<S>>, String> {
    let text = |key: &str| value.get(key).and_then(serde_json::Value::as_str);
    let result = match text("result") {
        Some("1-0") => 1.0,
        Some("0-1") => 0.0,
        Some("1/2-1/2") => 0.5,
        _ => return Ok(None),
    };
    let (Some(fen), Some(moves)) = (text("start_fen"), text("moves")) else {
        return Ok(None);
    };
    let mut pos = Position::from_fen(fen).map_err(|e| format!("start_fen: {e}"))?;
    for m in text("opening_moves").unwrap_or("").split_whitespace() {
        play(&mut pos, parse(m)?, m)?;
    }
    let mut samples = Vec::new();
    let mut last_was_capture = false;
    for (ply, m) in moves.split_whitespace().enumerate() {
        let mv = parse(m)?;
        let capture = pos.piece_at(mv.to()).is_some();
        let quiet = !last_was_capture && !capture && !in_check(&pos);
        if ply >= filter.min_ply && quiet && !gives_check(&pos, mv) {
            samples.extend(make(&pos, result));
        }
        last_was_capture = capture;
        play(&mut pos, mv, m)?;
    }
    Ok(Some(samples))
}

/// A move in coordinates.
fn parse(text: &str) -> Result<Move, String> {
    Move::parse(text).map_err(|e| format!("move {text}: {e}"))
}

/// Plays a move (`text` as the journal wrote it), checking that it is legal.
fn play(pos: &mut Position, mv: Move, text: &str) -> Result<(), String> {
    if !is_legal(pos, mv) {
        return Err(format!("move {text} is not legal here"));
    }
    pos.make_move(mv);
    Ok(())
}

/// A position's sample; `None` in a drawish ending, whose scaling of the whole score is
/// not a weighted sum.
pub fn sample(pos: &Position, result: f64) -> Option<Sample> {
    // At the seeds' weights: the features must not depend on the weights compiled in.
    let breakdown = Evaluator::breakdown_at(pos, TermWeights::neutral());
    let net = |term: Term| f64::from(breakdown.scores.net(term, Color::Red));
    if net(Term::DrawishEnding) != 0.0 {
        return None;
    }
    let mut terms = [0.0; FEATURES];
    for (value, t) in terms.iter_mut().zip(TERM_TUNABLES.iter()) {
        *value = net(t.term);
    }
    Some(Sample {
        fixed: net(Term::Material) + net(Term::Placement),
        terms,
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A journal of these lines in a temporary file.
    fn journal(lines: &[&str]) -> tempfile::NamedTempFile {
        let file = tempfile::NamedTempFile::new().expect("temporary file");
        std::fs::write(file.path(), lines.join("\n")).expect("write journal");
        file
    }

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

    #[test]
    fn quiet_positions_of_finished_games_become_samples_labelled_for_red() {
        // After the opening line h2e2: four quiet moves, then the capture b7b0.
        let game = format!(
            r#"{{"start_fen":"{START}","opening_moves":"h2e2","moves":"h9g7 h0g2 i9h9 i0h0 b7b0","result":"0-1"}}"#
        );
        let unfinished = format!(r#"{{"start_fen":"{START}","moves":"h2e2","result":"*"}}"#);
        let j = journal(&[&game, &unfinished]);
        let mut read = Read::default();
        read_journal(j.path(), Filter { min_ply: 0 }, sample, &mut read).expect("read");
        assert_eq!((read.games, read.skipped_games), (1, 1));
        // Four quiet moves before the capture b7b0; the capture's position is left out.
        assert_eq!(read.samples.len(), 4);
        assert!(read.samples.iter().all(|s| s.result == 0.0));
        let mut skip = Read::default();
        read_journal(j.path(), Filter { min_ply: 2 }, sample, &mut skip).expect("read");
        assert_eq!(skip.samples.len(), 2);
    }

    #[test]
    fn a_bad_line_is_reported_with_its_file_and_line() {
        let illegal = format!(r#"{{"start_fen":"{START}","moves":"a0a5","result":"1-0"}}"#);
        let error = |lines: &[&str]| {
            let j = journal(lines);
            read_journal(
                j.path(),
                Filter { min_ply: 0 },
                sample,
                &mut Read::default(),
            )
            .expect_err("a bad line")
            .to_string()
        };
        let bad_json = error(&["", "{not json", &illegal]);
        assert!(
            bad_json.ends_with(":2: not JSON: key must be a string at line 1 column 2"),
            "{bad_json}"
        );
        let bad_move = error(&[&illegal]);
        assert!(
            bad_move.ends_with(":1: move a0a5 is not legal here"),
            "{bad_move}"
        );
    }
}
