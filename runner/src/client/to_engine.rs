//! Messages from the runner to an engine, rendered per protocol.

use std::time::Duration;

use xq_core::board::Move;
use xq_core::notation::format_coords;

use super::protocol::{Coordinates, Protocol};

/// Clock fields of a `go`, from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoClock {
    pub own_time: Duration,
    pub own_increment: Duration,
    pub opp_time: Duration,
    pub opp_increment: Duration,
    pub moves_to_go: Option<u32>,
    /// Whether the side to move is Red (UCI names clocks by colour).
    pub red_to_move: bool,
    /// The depth the search also stops at (`go ... depth N`), if any.
    pub depth: Option<u32>,
}

/// What limits one search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoLimit {
    Clock(GoClock),
    MoveTime(Duration),
    Depth(u32),
    Nodes(u64),
}

/// A line to send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ToEngine {
    Hello,
    IsReady,
    SetOption { name: String, value: String },
    NewGame,
    Position { fen: String, moves: Vec<Move> },
    BanMoves(Vec<Move>),
    Go(GoLimit),
    Stop,
    Quit,
}

impl ToEngine {
    /// The text of the line (without the newline).
    #[must_use]
    pub fn render(&self, protocol: Protocol, coordinates: Coordinates) -> String {
        let mv = |m: &Move| format_coords(*m, coordinates.rank_base());
        match (self, protocol) {
            (ToEngine::Hello, _) => protocol.hello().0.to_owned(),
            (ToEngine::IsReady, _) => "isready".to_owned(),
            (ToEngine::SetOption { name, value }, Protocol::Ucci) => {
                format!("setoption {name} {value}")
            }
            (ToEngine::SetOption { name, value }, Protocol::Uci) => {
                format!("setoption name {name} value {value}")
            }
            (ToEngine::NewGame, Protocol::Ucci) => "setoption newgame".to_owned(),
            (ToEngine::NewGame, Protocol::Uci) => "ucinewgame".to_owned(),
            (ToEngine::Position { fen, moves }, _) => {
                let mut line = format!("position fen {fen}");
                if !moves.is_empty() {
                    line.push_str(" moves");
                    for m in moves {
                        line.push(' ');
                        line.push_str(&mv(m));
                    }
                }
                line
            }
            (ToEngine::BanMoves(moves), _) => {
                let list: Vec<String> = moves.iter().map(mv).collect();
                format!("banmoves {}", list.join(" "))
            }
            (ToEngine::Go(limit), Protocol::Ucci) => render_go_ucci(limit),
            (ToEngine::Go(limit), Protocol::Uci) => render_go_uci(limit),
            (ToEngine::Stop, _) => "stop".to_owned(),
            (ToEngine::Quit, _) => "quit".to_owned(),
        }
    }
}

/// UCCI: times in milliseconds (the runner always sets `usemillisec true`).
fn render_go_ucci(limit: &GoLimit) -> String {
    match limit {
        GoLimit::Depth(d) => format!("go depth {d}"),
        GoLimit::Nodes(n) => format!("go nodes {n}"),
        // UCCI has no movetime: a single move to go with that much time does the same.
        GoLimit::MoveTime(t) => format!("go time {} movestogo 1", t.as_millis()),
        GoLimit::Clock(c) => {
            let mut line = format!("go time {}", c.own_time.as_millis());
            match c.moves_to_go {
                Some(n) => line.push_str(&format!(" movestogo {n}")),
                None => line.push_str(&format!(" increment {}", c.own_increment.as_millis())),
            }
            line.push_str(&format!(" opptime {}", c.opp_time.as_millis()));
            match c.moves_to_go {
                Some(n) => line.push_str(&format!(" oppmovestogo {n}")),
                None => line.push_str(&format!(" oppincrement {}", c.opp_increment.as_millis())),
            }
            if let Some(d) = c.depth {
                line.push_str(&format!(" depth {d}"));
            }
            line
        }
    }
}

fn render_go_uci(limit: &GoLimit) -> String {
    match limit {
        GoLimit::Depth(d) => format!("go depth {d}"),
        GoLimit::Nodes(n) => format!("go nodes {n}"),
        GoLimit::MoveTime(t) => format!("go movetime {}", t.as_millis()),
        GoLimit::Clock(c) => {
            let own = (c.own_time, c.own_increment);
            let opp = (c.opp_time, c.opp_increment);
            let ((wtime, winc), (btime, binc)) = if c.red_to_move {
                (own, opp)
            } else {
                (opp, own)
            };
            let mut line = format!(
                "go wtime {} btime {} winc {} binc {}",
                wtime.as_millis(),
                btime.as_millis(),
                winc.as_millis(),
                binc.as_millis()
            );
            if let Some(n) = c.moves_to_go {
                line.push_str(&format!(" movestogo {n}"));
            }
            if let Some(d) = c.depth {
                line.push_str(&format!(" depth {d}"));
            }
            line
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_both_protocols() {
        let m = Move::parse("h2e2").expect("move");
        let pos = ToEngine::Position {
            fen: "F".to_owned(),
            moves: vec![m],
        };
        assert_eq!(
            pos.render(Protocol::Ucci, Coordinates::Zero),
            "position fen F moves h2e2"
        );
        assert_eq!(
            pos.render(Protocol::Uci, Coordinates::One),
            "position fen F moves h3e3"
        );
        let opt = ToEngine::SetOption {
            name: "Hash".to_owned(),
            value: "16".to_owned(),
        };
        assert_eq!(
            opt.render(Protocol::Uci, Coordinates::Zero),
            "setoption name Hash value 16"
        );
        assert_eq!(
            opt.render(Protocol::Ucci, Coordinates::Zero),
            "setoption Hash 16"
        );
        let ms = Duration::from_millis;
        let clock = GoClock {
            own_time: ms(1000),
            own_increment: ms(10),
            opp_time: ms(900),
            opp_increment: ms(10),
            moves_to_go: None,
            red_to_move: false,
            depth: None,
        };
        assert_eq!(
            ToEngine::Go(GoLimit::Clock(clock)).render(Protocol::Ucci, Coordinates::Zero),
            "go time 1000 increment 10 opptime 900 oppincrement 10"
        );
        assert_eq!(
            ToEngine::Go(GoLimit::Clock(clock)).render(Protocol::Uci, Coordinates::Zero),
            "go wtime 900 btime 1000 winc 10 binc 10"
        );
        // A clock capped at a depth (`tc` with `depth`): the depth after the clock.
        let capped = GoClock {
            depth: Some(6),
            ..clock
        };
        assert_eq!(
            ToEngine::Go(GoLimit::Clock(capped)).render(Protocol::Ucci, Coordinates::Zero),
            "go time 1000 increment 10 opptime 900 oppincrement 10 depth 6"
        );
        assert_eq!(
            ToEngine::Go(GoLimit::Clock(capped)).render(Protocol::Uci, Coordinates::Zero),
            "go wtime 900 btime 1000 winc 10 binc 10 depth 6"
        );
    }
}
