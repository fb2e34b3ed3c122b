//! Lines from an engine, parsed into typed messages. Anything unexpected is kept as
//! `Other` so a chatty engine never breaks the client.

use super::protocol::Protocol;

/// A score as the engine reported it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns (UCI `cp`) or the bare number of UCCI, from the engine's side.
    Units(i32),
    /// Mate in this many moves (negative: being mated), from the engine's side.
    Mate(i32),
}

/// UCCI engines print mates as bare numbers near 10000 (ElephantEye: `10000 - plies`);
/// scores at least this large in magnitude are read as mates.
pub const UCCI_MATE_THRESHOLD: i32 = 9_000;

/// The farthest mate a score names, in moves. An engine may print any number after
/// `mate` (`-2147483648` from a buggy one); farther than this it means nothing, and the
/// sums made with it (plies in the PGN, units for adjudication) would overflow.
pub const MAX_MATE_MOVES: i32 = 10_000;

impl Score {
    /// A mate in `moves` as an engine said it, bounded by [`MAX_MATE_MOVES`].
    #[must_use]
    pub fn mate(moves: i64) -> Score {
        let bound = i64::from(MAX_MATE_MOVES);
        Score::Mate(i32::try_from(moves.clamp(-bound, bound)).unwrap_or(MAX_MATE_MOVES))
    }

    /// Units as an engine said them, within `±i32::MAX` (so that negating one, or
    /// taking its size, never overflows).
    #[must_use]
    pub fn units(units: i64) -> i32 {
        let bound = i64::from(i32::MAX);
        i32::try_from(units.clamp(-bound, bound)).unwrap_or(i32::MAX)
    }

    /// A bare UCCI number, reading ElephantEye-style mate numbers as mates.
    #[must_use]
    pub fn from_ucci(raw: i32) -> Score {
        if raw.abs() >= UCCI_MATE_THRESHOLD && raw.abs() <= 10_000 {
            let plies = 10_000 - raw.abs();
            Score::Mate(raw.signum() * (plies + 1) / 2)
        } else {
            Score::Units(raw)
        }
    }

    /// The score as a number for adjudication: mates beyond every evaluation.
    #[must_use]
    pub fn as_units(self) -> i32 {
        match self {
            Score::Units(u) => u,
            Score::Mate(m) if m > 0 => 100_000 - m,
            Score::Mate(m) => -100_000 - m,
        }
    }

    /// The PGN comment form: `+0.35` style is chess habit; Xiangqi GUIs print units,
    /// so `35`, `-120`, `M3`, `-M2`.
    #[must_use]
    pub fn to_comment(self) -> String {
        match self {
            Score::Units(u) => u.to_string(),
            Score::Mate(m) if m >= 0 => format!("M{m}"),
            Score::Mate(m) => format!("-M{}", -m),
        }
    }
}

/// The fields of an `info` line the runner uses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    pub depth: Option<u32>,
    pub seldepth: Option<u32>,
    pub score: Option<Score>,
    pub nodes: Option<u64>,
    pub nps: Option<u64>,
    pub time_ms: Option<u64>,
    /// The principal variation as the engine wrote it (its coordinates).
    pub pv: Vec<String>,
}

/// A parsed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FromEngine {
    /// `ucciok` / `uciok`.
    HelloOk,
    ReadyOk,
    IdName(String),
    /// `option ...` lines (kept raw).
    Option(String),
    Info(Info),
    /// `bestmove <m> [ponder <m>] [draw] [resign]`; `(none)` and `nobestmove` are `NoMove`.
    BestMove {
        mv: String,
        ponder: Option<String>,
        draw: bool,
        resign: bool,
    },
    NoMove,
    Bye,
    Other(String),
}

impl FromEngine {
    /// Parses one line (already trimmed).
    #[must_use]
    pub fn parse(line: &str, protocol: Protocol) -> FromEngine {
        let mut words = line.split_whitespace();
        match words.next() {
            Some("ucciok" | "uciok") => FromEngine::HelloOk,
            Some("readyok") => FromEngine::ReadyOk,
            Some("bye") => FromEngine::Bye,
            Some("nobestmove") => FromEngine::NoMove,
            Some("id") if words.next() == Some("name") => {
                FromEngine::IdName(words.collect::<Vec<_>>().join(" "))
            }
            Some("option") => FromEngine::Option(line.to_owned()),
            Some("info") => FromEngine::Info(parse_info(words, protocol)),
            Some("bestmove") => match words.next() {
                None | Some("(none)" | "none" | "0000" | "nomove") => FromEngine::NoMove,
                Some(mv) => {
                    let rest: Vec<&str> = words.collect();
                    let ponder = rest
                        .iter()
                        .position(|&w| w == "ponder")
                        .and_then(|i| rest.get(i + 1));
                    FromEngine::BestMove {
                        mv: mv.to_owned(),
                        ponder: ponder.map(|p| (*p).to_owned()),
                        draw: rest.contains(&"draw"),
                        resign: rest.contains(&"resign"),
                    }
                }
            },
            _ => FromEngine::Other(line.to_owned()),
        }
    }
}

fn parse_info<'a>(mut words: impl Iterator<Item = &'a str>, protocol: Protocol) -> Info {
    let mut info = Info::default();
    while let Some(word) = words.next() {
        match word {
            "depth" => info.depth = words.next().and_then(|v| v.parse().ok()),
            "seldepth" => info.seldepth = words.next().and_then(|v| v.parse().ok()),
            "nodes" => info.nodes = words.next().and_then(|v| v.parse().ok()),
            "nps" => info.nps = words.next().and_then(|v| v.parse().ok()),
            "time" => info.time_ms = words.next().and_then(|v| v.parse().ok()),
            "score" => info.score = parse_score(&mut words, protocol),
            "pv" => {
                info.pv = words.map(str::to_owned).collect();
                break;
            }
            // Strings run to the end of the line.
            "string" => break,
            _ => {}
        }
    }
    info
}

fn parse_score<'a>(words: &mut impl Iterator<Item = &'a str>, protocol: Protocol) -> Option<Score> {
    // Read wide, then bounded: `mate -2147483648` is a mate, not an overflow.
    match words.next()? {
        "cp" => words
            .next()?
            .parse()
            .ok()
            .map(|u| Score::Units(Score::units(u))),
        "mate" => words.next()?.parse().ok().map(Score::mate),
        raw => {
            let value = Score::units(raw.parse().ok()?);
            Some(match protocol {
                Protocol::Ucci => Score::from_ucci(value),
                Protocol::Uci => Score::Units(value),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_at_the_ends_of_i32_are_bounded_not_wrapped() {
        let score = |line: &str, p: Protocol| match FromEngine::parse(line, p) {
            FromEngine::Info(info) => info.score,
            other => panic!("{other:?}"),
        };
        let mated = score("info depth 3 score mate -2147483648 pv h2e2", Protocol::Uci);
        assert_eq!(mated, Some(Score::Mate(-MAX_MATE_MOVES)));
        let mated = mated.expect("a score");
        assert!(mated.as_units() <= -90_000, "being mated is losing");
        assert_eq!(mated.to_comment(), "-M10000");
        let mating = score("info score mate 2147483647", Protocol::Uci);
        assert_eq!(mating, Some(Score::Mate(MAX_MATE_MOVES)));
        for line in ["info score cp -2147483648", "info score -2147483648"] {
            let s = score(line, Protocol::Ucci).expect("a score");
            assert_eq!(s, Score::Units(-i32::MAX), "{line}");
            assert_eq!(s.as_units().unsigned_abs(), i32::MAX.unsigned_abs());
        }
    }

    #[test]
    fn parses_bestmove_and_info_in_both_conventions() {
        let p = Protocol::Ucci;
        assert_eq!(
            FromEngine::parse("bestmove h2e2 ponder h9g7 draw", p),
            FromEngine::BestMove {
                mv: "h2e2".into(),
                ponder: Some("h9g7".into()),
                draw: true,
                resign: false
            }
        );
        assert_eq!(FromEngine::parse("nobestmove", p), FromEngine::NoMove);
        assert_eq!(
            FromEngine::parse("bestmove (none)", Protocol::Uci),
            FromEngine::NoMove
        );
        let FromEngine::Info(info) = FromEngine::parse("info depth 6 score 4 pv b0c2 b9c7", p)
        else {
            panic!("info expected");
        };
        assert_eq!(
            (info.depth, info.score, info.pv.len()),
            (Some(6), Some(Score::Units(4)), 2)
        );
        let FromEngine::Info(mate) = FromEngine::parse("info depth 9 score 9997 pv a0a9", p) else {
            panic!("info expected");
        };
        assert_eq!(mate.score, Some(Score::Mate(2)));
        let FromEngine::Info(fsf) =
            FromEngine::parse("info depth 9 score mate -3 nodes 100 pv a0a9", p)
        else {
            panic!("info expected");
        };
        assert_eq!((fsf.score, fsf.nodes), (Some(Score::Mate(-3)), Some(100)));
        let FromEngine::Info(junk) =
            FromEngine::parse("info depth x score cp y nodes", Protocol::Uci)
        else {
            panic!("info expected");
        };
        assert_eq!(junk, Info::default());
        assert!(matches!(
            FromEngine::parse("hello there", p),
            FromEngine::Other(_)
        ));
    }
}
