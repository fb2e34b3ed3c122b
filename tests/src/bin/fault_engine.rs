//! A test engine with one chosen misbehaviour, for the runner's fault-injection tests
//! and overhead benchmarks. Without a fault it is a correct, instant engine: it plays a
//! legal move chosen from a hash of the position, so games are varied but reproducible.
//!
//! ```text
//! fault-engine [--protocol ucci|uci] [--fault <kind>] [--at-ply N] [--sleep-ms MS] [--tag T]
//! ```
//! Faults: `none`, `crash` (exit when asked to move at ply >= N), `silent` (never answers
//! `go`), `sleep` (answer after MS milliseconds), `illegal` (an illegal move),
//! `garbage` (junk lines around a valid move), `unparseable` (bestmove xyz),
//! `no-hello` (never sends the handshake answer), `exit-on-isready`, `flood` (megabytes
//! of output before the move), `nomove` (claims to have no move).
//! `--tag` is ignored; tests use it to find their processes in the process table.

use std::io::{BufRead, Write};
use std::time::Duration;

use xq_core::board::Position;
use xq_core::movegen::legal_moves;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    None,
    Crash,
    Silent,
    Sleep,
    Illegal,
    Garbage,
    Unparseable,
    NoHello,
    ExitOnIsready,
    Flood,
    NoMove,
}

struct Config {
    uci: bool,
    fault: Fault,
    at_ply: usize,
    sleep: Duration,
}

fn parse_args() -> Result<Config, String> {
    let mut config = Config {
        uci: false,
        fault: Fault::None,
        at_ply: 0,
        sleep: Duration::ZERO,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--protocol" => config.uci = value()? == "uci",
            "--at-ply" => config.at_ply = value()?.parse().map_err(|_| "bad --at-ply")?,
            "--sleep-ms" => {
                config.sleep =
                    Duration::from_millis(value()?.parse().map_err(|_| "bad --sleep-ms")?)
            }
            "--tag" => {
                value()?;
            }
            "--fault" => {
                config.fault = match value()?.as_str() {
                    "none" => Fault::None,
                    "crash" => Fault::Crash,
                    "silent" => Fault::Silent,
                    "sleep" => Fault::Sleep,
                    "illegal" => Fault::Illegal,
                    "garbage" => Fault::Garbage,
                    "unparseable" => Fault::Unparseable,
                    "no-hello" => Fault::NoHello,
                    "exit-on-isready" => Fault::ExitOnIsready,
                    "flood" => Fault::Flood,
                    "nomove" => Fault::NoMove,
                    other => return Err(format!("unknown fault {other}")),
                }
            }
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(config)
}

#[path = "../position_line.rs"]
mod position_line;

/// The position of a `position` line and its ply number.
fn position(line: &str) -> Option<(Position, usize)> {
    let pos = position_line::position(line)?;
    // Plies since the game start, from the move counter of the final position.
    let ply = (pos.fullmove_number() as usize - 1) * 2
        + usize::from(pos.side_to_move() == xq_core::board::Color::Black);
    Some((pos, ply))
}

fn main() {
    let config = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("fault-engine: {e}");
            std::process::exit(2);
        }
    };
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut current: Option<(Position, usize)> = None;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let say = |out: &mut std::io::StdoutLock<'_>, text: &str| {
            let _ = writeln!(out, "{text}");
            let _ = out.flush();
        };
        match line.split_whitespace().next() {
            Some("ucci" | "uci") if config.fault != Fault::NoHello => {
                say(&mut out, "id name fault-engine");
                say(&mut out, if config.uci { "uciok" } else { "ucciok" });
            }
            Some("isready") => {
                if config.fault == Fault::ExitOnIsready {
                    std::process::exit(0);
                }
                say(&mut out, "readyok");
            }
            Some("position") => current = position(&line),
            Some("go") => {
                let Some((pos, ply)) = current.clone() else {
                    say(&mut out, "info string no position");
                    continue;
                };
                let moves = legal_moves(&pos);
                let pick = moves
                    .get((pos.key() % moves.len().max(1) as u64) as usize)
                    .copied();
                match config.fault {
                    Fault::Crash if ply >= config.at_ply => std::process::exit(3),
                    Fault::Silent => continue,
                    Fault::Sleep => std::thread::sleep(config.sleep),
                    Fault::Flood => {
                        let junk = "info string ".to_owned() + &"x".repeat(1000);
                        for _ in 0..5_000 {
                            say(&mut out, &junk);
                        }
                    }
                    Fault::Garbage => {
                        say(&mut out, "Hello, world!");
                        say(&mut out, "info depth notanumber score cp");
                        say(&mut out, "\u{0}\u{7}garbage");
                    }
                    _ => {}
                }
                let answer = match (config.fault, pick) {
                    (Fault::NoMove, _) | (_, None) => {
                        if config.uci {
                            "bestmove (none)".to_owned()
                        } else {
                            "nobestmove".to_owned()
                        }
                    }
                    (Fault::Illegal, Some(_)) => "bestmove a0a9".to_owned(),
                    (Fault::Unparseable, Some(_)) => "bestmove xyz".to_owned(),
                    (_, Some(m)) => format!("info depth 1 score 0 nodes 1 pv {m}\nbestmove {m}"),
                };
                say(&mut out, &answer);
                if config.fault == Fault::Garbage {
                    say(&mut out, "more garbage after the move");
                }
            }
            Some("quit") => {
                say(&mut out, "bye");
                break;
            }
            _ => {}
        }
    }
}
