//! Commands from the GUI, parsed from UCCI or UCI lines into one typed form.

use std::time::Duration;

use thiserror::Error;

use crate::board::{FenError, Move, MoveParseError, Position};

/// The two dialects; chosen by the first line (`ucci` or `uci`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Ucci,
    Uci,
}

/// A clock as the GUI sent it, in the GUI's unit already converted to a duration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideClock {
    pub time: Option<Duration>,
    pub increment: Option<Duration>,
    pub moves_to_go: Option<u32>,
}

/// The parameters of `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub ponder: bool,
    /// UCCI `go draw`: the opponent offers a draw.
    pub draw_offered: bool,
    pub infinite: bool,
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    /// The clock of the side to move (UCCI `time`/`increment`/`movestogo`).
    pub own: SideClock,
    /// UCI sends both clocks; the session picks the side to move's.
    pub uci_clocks: Option<UciClocks>,
}

/// A parsed command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `ucci` / `uci` again.
    Hello,
    IsReady,
    SetOption {
        name: String,
        value: Option<String>,
    },
    NewGame,
    Position {
        start: Box<Position>,
        moves: Vec<Move>,
    },
    BanMoves(Vec<Move>),
    Go(Go),
    PonderHit {
        draw: bool,
    },
    Stop,
    Quit,
    /// Commands we accept and do not act on (`probe`, `debug`, `register`).
    Ignored(String),
}

impl Command {
    /// Whether the command is carried out at once even while the engine thinks: the
    /// others wait for the search to end, or are refused while it runs until stopped.
    #[must_use]
    pub fn is_answered_while_thinking(&self) -> bool {
        matches!(
            self,
            Command::IsReady | Command::Stop | Command::PonderHit { .. } | Command::Quit
        )
    }
}

/// Why a line was rejected; the engine answers `info string error: <this>`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CommandError {
    #[error("unknown command `{0}`")]
    Unknown(String),
    #[error("`{keyword}` needs a value")]
    MissingValue { keyword: String },
    #[error("`{value}` is not a valid number for `{keyword}`")]
    BadNumber { keyword: String, value: String },
    #[error("unexpected `{0}` in go")]
    BadGoToken(String),
    #[error("position needs `startpos` or `fen <FEN>`")]
    BadPosition,
    #[error("bad FEN: {0}")]
    Fen(#[from] FenError),
    #[error("bad move: {0}")]
    Move(#[from] MoveParseError),
    #[error("setoption needs a name")]
    NoOptionName,
}

/// Parses one line in a dialect. `millis` says whether UCCI times are milliseconds
/// (`setoption usemillisec true`) or seconds.
///
/// # Errors
/// [`CommandError`] for anything that is not a well-formed command.
pub fn parse(line: &str, dialect: Dialect, millis: bool) -> Result<Command, CommandError> {
    let mut words = line.split_whitespace();
    let Some(head) = words.next() else {
        return Err(CommandError::Unknown(String::new()));
    };
    let rest: Vec<&str> = words.collect();
    match (head, dialect) {
        ("ucci", _) | ("uci", _) => Ok(Command::Hello),
        ("isready", _) => Ok(Command::IsReady),
        ("ucinewgame", _) => Ok(Command::NewGame),
        ("setoption", Dialect::Ucci) => parse_ucci_option(&rest),
        ("setoption", Dialect::Uci) => parse_uci_option(&rest),
        ("position", _) => parse_position(&rest),
        ("banmoves", _) => Ok(Command::BanMoves(
            rest.iter()
                .map(|m| Move::parse(m))
                .collect::<Result<Vec<_>, _>>()?,
        )),
        ("go", Dialect::Ucci) => parse_go_ucci(&rest, millis).map(Command::Go),
        ("go", Dialect::Uci) => parse_go_uci(&rest).map(Command::Go),
        ("ponderhit", _) => Ok(Command::PonderHit {
            draw: rest.first() == Some(&"draw"),
        }),
        ("stop", _) => Ok(Command::Stop),
        ("quit", _) => Ok(Command::Quit),
        ("probe" | "debug" | "register", _) => Ok(Command::Ignored(head.to_owned())),
        (other, _) => Err(CommandError::Unknown(other.chars().take(40).collect())),
    }
}

/// UCCI: `setoption <name> [<value>]`.
fn parse_ucci_option(rest: &[&str]) -> Result<Command, CommandError> {
    let (name, value) = rest.split_first().ok_or(CommandError::NoOptionName)?;
    if *name == "newgame" {
        return Ok(Command::NewGame);
    }
    let value = (!value.is_empty()).then(|| value.join(" "));
    Ok(Command::SetOption {
        name: name.to_ascii_lowercase(),
        value,
    })
}

/// UCI: `setoption name <words...> [value <words...>]`.
fn parse_uci_option(rest: &[&str]) -> Result<Command, CommandError> {
    if rest.first() != Some(&"name") {
        return Err(CommandError::NoOptionName);
    }
    let value_at = rest.iter().position(|&w| w == "value");
    let name_words = &rest[1..value_at.unwrap_or(rest.len())];
    if name_words.is_empty() {
        return Err(CommandError::NoOptionName);
    }
    let name = name_words.join(" ").to_ascii_lowercase();
    if name == "clear hash" {
        return Ok(Command::NewGame);
    }
    let value = value_at.map(|i| rest[i + 1..].join(" "));
    Ok(Command::SetOption { name, value })
}

/// `position {startpos | fen <FEN>} [moves m1 m2 ...]`. Moves are parsed here; their
/// legality is checked against the position by the session.
fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    let moves_at = rest
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(rest.len());
    let (setup, moves) = rest.split_at(moves_at);
    let start = match setup.split_first() {
        Some((&"startpos", [])) => Box::new(Position::startpos()),
        Some((&"fen", fen)) if !fen.is_empty() => Box::new(Position::from_fen(&fen.join(" "))?),
        _ => return Err(CommandError::BadPosition),
    };
    let moves = moves
        .iter()
        .skip(1)
        .map(|m| Move::parse(m))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Command::Position { start, moves })
}

fn number<T: std::str::FromStr>(keyword: &str, value: Option<&&str>) -> Result<T, CommandError> {
    let value = value.ok_or_else(|| CommandError::MissingValue {
        keyword: keyword.to_owned(),
    })?;
    value.parse().map_err(|_| CommandError::BadNumber {
        keyword: keyword.to_owned(),
        value: (*value).to_owned(),
    })
}

/// The longest time taken from a command: a larger one (a GUI's "no limit") is read as
/// this, so that no sum or multiple of clock times can overflow.
const MAX_TIME: Duration = Duration::from_secs(1_000_000_000);

fn duration(keyword: &str, value: Option<&&str>, millis: bool) -> Result<Duration, CommandError> {
    let amount: f64 = number(keyword, value)?;
    if !amount.is_finite() {
        return Err(CommandError::BadNumber {
            keyword: keyword.to_owned(),
            value: amount.to_string(),
        });
    }
    let seconds = if millis { amount / 1000.0 } else { amount };
    Ok(Duration::from_secs_f64(
        seconds.clamp(0.0, MAX_TIME.as_secs_f64()),
    ))
}

/// UCCI: `go [ponder|draw] depth N|infinite | nodes N | time T [movestogo N|increment I] [opptime ...]`.
fn parse_go_ucci(rest: &[&str], millis: bool) -> Result<Go, CommandError> {
    let mut go = Go::default();
    let mut words = rest.iter().peekable();
    while let Some(&word) = words.next() {
        match word {
            "ponder" => go.ponder = true,
            "draw" => go.draw_offered = true,
            "infinite" => go.infinite = true,
            "depth" => {
                if words.peek() == Some(&&"infinite") {
                    words.next();
                    go.infinite = true;
                } else {
                    go.depth = Some(number("depth", words.next())?);
                }
            }
            "nodes" => go.nodes = Some(number("nodes", words.next())?),
            "time" => go.own.time = Some(duration("time", words.next(), millis)?),
            "movestogo" => go.own.moves_to_go = Some(number("movestogo", words.next())?),
            "increment" => go.own.increment = Some(duration("increment", words.next(), millis)?),
            "opptime" | "oppmovestogo" | "oppincrement" => {
                let _: f64 = number(word, words.next())?;
            }
            "movetime" => go.movetime = Some(duration("movetime", words.next(), millis)?),
            other => return Err(CommandError::BadGoToken(other.to_owned())),
        }
    }
    Ok(go)
}

/// UCI: `go [ponder] [wtime T] [btime T] [winc I] [binc I] [movestogo N] [depth N]
/// [nodes N] [movetime T] [infinite]`, times in milliseconds. The side to move's clock is
/// chosen by the session; here both are kept in `own` by colour order (see `uci_clocks`).
fn parse_go_uci(rest: &[&str]) -> Result<Go, CommandError> {
    let mut go = Go::default();
    let mut words = rest.iter();
    let mut clocks = UciClocks::default();
    while let Some(&word) = words.next() {
        match word {
            "ponder" => go.ponder = true,
            "infinite" => go.infinite = true,
            "depth" => go.depth = Some(number("depth", words.next())?),
            "nodes" => go.nodes = Some(number("nodes", words.next())?),
            "movetime" => go.movetime = Some(duration("movetime", words.next(), true)?),
            "movestogo" => clocks.moves_to_go = Some(number("movestogo", words.next())?),
            "wtime" => clocks.red_time = Some(duration("wtime", words.next(), true)?),
            "btime" => clocks.black_time = Some(duration("btime", words.next(), true)?),
            "winc" => clocks.red_inc = Some(duration("winc", words.next(), true)?),
            "binc" => clocks.black_inc = Some(duration("binc", words.next(), true)?),
            other => return Err(CommandError::BadGoToken(other.to_owned())),
        }
    }
    go.uci_clocks = Some(clocks);
    Ok(go)
}

/// Both clocks of a UCI `go`; the session picks the side to move's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UciClocks {
    pub red_time: Option<Duration>,
    pub black_time: Option<Duration>,
    pub red_inc: Option<Duration>,
    pub black_inc: Option<Duration>,
    pub moves_to_go: Option<u32>,
}
