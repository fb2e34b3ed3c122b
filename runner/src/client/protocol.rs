//! How an engine speaks: UCCI or UCI, and how it numbers ranks.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use xq_core::notation::RankBase;

/// The protocol of an engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// UCCI (ElephantEye and most Chinese engines): `ucci`/`ucciok`, times in ms after
    /// `setoption usemillisec true`.
    #[default]
    Ucci,
    /// UCI as Pikafish and Fairy-Stockfish speak it for Xiangqi.
    Uci,
}

impl Protocol {
    /// The handshake line and its answer.
    #[must_use]
    pub fn hello(self) -> (&'static str, &'static str) {
        match self {
            Protocol::Ucci => ("ucci", "ucciok"),
            Protocol::Uci => ("uci", "uciok"),
        }
    }
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Ucci => "ucci",
            Protocol::Uci => "uci",
        })
    }
}

impl FromStr for Protocol {
    type Err = String;

    fn from_str(s: &str) -> Result<Protocol, String> {
        match s {
            "ucci" => Ok(Protocol::Ucci),
            "uci" => Ok(Protocol::Uci),
            other => Err(format!("unknown protocol `{other}` (expected ucci or uci)")),
        }
    }
}

/// How an engine numbers ranks in its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Coordinates {
    /// Ranks 0-9 (UCCI, Pikafish): `h2e2`.
    #[default]
    #[serde(rename = "0-9")]
    Zero,
    /// Ranks 1-10 (Fairy-Stockfish in UCI mode): `h3e3`.
    #[serde(rename = "1-10")]
    One,
}

impl Coordinates {
    /// The notation module's name for it.
    #[must_use]
    pub fn rank_base(self) -> RankBase {
        match self {
            Coordinates::Zero => RankBase::Zero,
            Coordinates::One => RankBase::One,
        }
    }
}
