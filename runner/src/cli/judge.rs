//! `xq-runner judge --fen <FEN> --moves <m1 m2 ...> [--ruleset NAME] [--json]`: the
//! verdict of the rules judge ([`xq_core::rules`]) on a game.
//!
//! Prints `{"result":"1-0"|"0-1"|"1/2-1/2"|"*","reason":"...","ply":N}` with `--json`,
//! a readable line otherwise. The verdict is the first one reached while playing the
//! moves; moves given after the end of the game are still checked for legality. Exit
//! code 0 when judged, 2 for a bad FEN, ruleset or move (the message names the move and
//! its index, counted from 0).

use clap::Args;
use thiserror::Error;
use xq_core::board::{FenError, Move, MoveParseError, Position, START_FEN};
use xq_core::rules::{judge_game, GameJudgement, IllegalMove, LimitCounting, Rules, Ruleset};

use crate::exit;

/// Arguments of `xq-runner judge`.
#[derive(Debug, Args)]
pub struct JudgeArgs {
    /// Start position as FEN (default: the standard start position).
    #[arg(long, default_value = START_FEN)]
    pub fen: String,
    /// Moves in UCCI coordinates (`h2e2`), as separate arguments or one quoted string.
    #[arg(long, num_args = 0.., value_name = "MOVE")]
    pub moves: Vec<String>,
    /// Ruleset: asian (default), computer or simple.
    #[arg(long, default_value = "asian", value_parser = Ruleset::from_name)]
    pub ruleset: Ruleset,
    /// Natural move limit in plies without capture (0 = none).
    #[arg(long, default_value_t = Rules::DEFAULT_MOVE_LIMIT, value_name = "PLIES")]
    pub move_limit: u32,
    /// Which plies count towards the move limit: all, chinese (a side's checks beyond
    /// ten and the replies to them do not count) or league (no check and no reply to a
    /// check counts).
    #[arg(long, default_value = "all", value_parser = LimitCounting::from_name, value_name = "COUNTING")]
    pub limit_counting: LimitCounting,
    /// Print the verdict as one line of JSON.
    #[arg(long)]
    pub json: bool,
}

/// Why a game could not be judged.
#[derive(Debug, Error)]
pub enum JudgeError {
    /// The FEN was rejected.
    #[error("bad FEN: {0}")]
    Fen(#[from] FenError),
    /// A move is not in coordinate form.
    #[error("move {index} (`{text}`): {source}")]
    Syntax {
        /// Index of the move in the list, from 0.
        index: usize,
        /// The text given.
        text: String,
        /// What is wrong with it.
        source: MoveParseError,
    },
    /// A move is not legal where it was played.
    #[error("illegal move `{}` at index {} (position {})", .0.mv, .0.ply, .0.fen)]
    Illegal(#[from] IllegalMove),
}

/// Parses the move arguments: each argument may hold several moves separated by spaces.
///
/// # Errors
/// [`JudgeError::Syntax`] naming the first malformed move and its index.
pub fn parse_moves(args: &[String]) -> Result<Vec<Move>, JudgeError> {
    args.iter()
        .flat_map(|arg| arg.split_whitespace())
        .enumerate()
        .map(|(index, text)| {
            Move::parse(text).map_err(|source| JudgeError::Syntax {
                index,
                text: MoveParseError::shown(text),
                source,
            })
        })
        .collect()
}

/// Judges the game described by the arguments.
///
/// # Errors
/// [`JudgeError`] for a bad FEN or a malformed or illegal move.
pub fn judge(args: &JudgeArgs) -> Result<GameJudgement, JudgeError> {
    let start = Position::from_fen(&args.fen)?;
    let moves = parse_moves(&args.moves)?;
    let rules = Rules::new(args.ruleset)
        .with_move_limit(args.move_limit)
        .with_limit_counting(args.limit_counting);
    Ok(judge_game(start, &moves, rules)?)
}

/// Runs `xq-runner judge` and returns the exit code.
pub fn run(args: &JudgeArgs) -> u8 {
    match judge(args) {
        Ok(judged) => {
            if args.json {
                crate::stdout::line(judged.verdict.to_json());
            } else {
                crate::stdout::line(format_args!(
                    "{} (ruleset {})",
                    judged.verdict, args.ruleset
                ));
            }
            if judged.moves_after_end > 0 {
                eprintln!(
                    "note: the game ended at ply {}; the {} moves after it were not judged",
                    judged.verdict.ply, judged.moves_after_end
                );
            }
            exit::OK
        }
        Err(err) => {
            eprintln!("error: {err}");
            exit::USAGE
        }
    }
}
