//! A test engine with one chosen misbehaviour, for the runner's fault-injection tests
//! and overhead benchmarks. Without a fault it is a correct, instant engine: it plays a
//! legal move chosen from a hash of the position, so games are varied but reproducible.
//!
//! ```text
//! fault-engine [--protocol ucci|uci] [--fault <kind>] [--at-ply N] [--sleep-ms MS] [--tag T]
//! ```
//! Faults: `none`, `crash` (exit when asked to move at ply >= N), `silent` (never answers
//! `go`), `sleep` (answer after MS milliseconds), `overtime` (use the whole clock the
//! `go` line gives, or its movetime, and MS milliseconds more), `illegal` (an illegal move),
//! `garbage` (junk lines around a valid move), `unparseable` (bestmove xyz),
//! `brace-move` (bestmove x}0-1{, to break a PGN comment),
//! `no-hello` (never sends the handshake answer), `exit-on-isready`, `flood` (megabytes
//! of output before the move), `nomove` (claims to have no move).
//!
//! Habits of hostile engines (issue 31):
//! - `gbk-stderr`: a GBK line and an invalid byte on stderr at every move; if stderr is
//!   gone the engine exits 13, as a C engine dies of SIGPIPE.
//! - `stderr-flood`: `--mb N` megabytes (default 300) on stderr without a newline at
//!   the first move, then plays on.
//! - `long-line`: at the first move, an `info string` line of 100 KB before `bestmove`.
//! - `ignore-quit`: ignores `quit`, end of input, SIGTERM, SIGINT and SIGHUP (lives
//!   until killed, at most 120 s).
//! - `setsid-child`: at start, starts a child of its own (`--fault orphan`) that moves
//!   into a session of its own and lives 120 s; it carries the same `--tag`.
//! - `exit-child-holds-stdout`: when asked to move at ply >= N, starts a child
//!   (`--fault linger`) that keeps stdout open for 120 s, and exits 3.
//! - `uci-only`: answers only `uci`; to `ucci` it says `Unknown command: 'ucci'` as
//!   the Stockfish family does. `ucci-only`: answers only `ucci`, ignores `uci`.
//! - `double-bestmove`: writes every answer twice. `stale-bestmove`: when given a
//!   position, first repeats its previous answer, as if left over from the last search.
//!
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
    /// The time left on its clock and `--sleep-ms` more: an engine that overshoots.
    Overtime,
    Illegal,
    Garbage,
    Unparseable,
    /// `bestmove x}0-1{`: an answer that would end a PGN comment and forge a result.
    BraceMove,
    NoHello,
    ExitOnIsready,
    Flood,
    NoMove,
    GbkStderr,
    StderrFlood,
    LongLine,
    IgnoreQuit,
    SetsidChild,
    ExitChildHoldsStdout,
    UciOnly,
    UcciOnly,
    DoubleBestmove,
    StaleBestmove,
    /// The child of `setsid-child`: a session of its own, then sleeps.
    Orphan,
    /// The child of `exit-child-holds-stdout`: sleeps with stdout open.
    Linger,
}

struct Config {
    uci: bool,
    fault: Fault,
    at_ply: usize,
    sleep: Duration,
    megabytes: usize,
    tag: String,
    /// What `bench` prints as its node count.
    bench_nodes: Option<String>,
    /// The name it announces (`id name`).
    id_name: String,
}

fn parse_args() -> Result<Config, String> {
    let mut config = Config {
        uci: false,
        fault: Fault::None,
        at_ply: 0,
        sleep: Duration::ZERO,
        megabytes: 300,
        tag: String::new(),
        bench_nodes: None,
        id_name: "fault-engine".to_owned(),
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
            "--tag" => config.tag = value()?,
            "--bench-nodes" => config.bench_nodes = Some(value()?),
            "--id-name" => config.id_name = value()?,
            // `<command> bench`: the node count of a fixed benchmark, as xq-engine prints
            // it; `--bench-nodes varies` gives another count in every process.
            "bench" => {
                let nodes = match config.bench_nodes.as_deref() {
                    Some("varies") => 1000 + u64::from(std::process::id()),
                    Some(n) => n.parse().map_err(|_| "bad --bench-nodes")?,
                    None => 4242,
                };
                println!("{nodes} nodes {} nps", nodes * 10);
                std::process::exit(0);
            }
            "--mb" => config.megabytes = value()?.parse().map_err(|_| "bad --mb")?,
            "--fault" => {
                config.fault = match value()?.as_str() {
                    "none" => Fault::None,
                    "crash" => Fault::Crash,
                    "silent" => Fault::Silent,
                    "sleep" => Fault::Sleep,
                    "overtime" => Fault::Overtime,
                    "illegal" => Fault::Illegal,
                    "garbage" => Fault::Garbage,
                    "unparseable" => Fault::Unparseable,
                    "brace-move" => Fault::BraceMove,
                    "no-hello" => Fault::NoHello,
                    "exit-on-isready" => Fault::ExitOnIsready,
                    "flood" => Fault::Flood,
                    "nomove" => Fault::NoMove,
                    "gbk-stderr" => Fault::GbkStderr,
                    "stderr-flood" => Fault::StderrFlood,
                    "long-line" => Fault::LongLine,
                    "ignore-quit" => Fault::IgnoreQuit,
                    "setsid-child" => Fault::SetsidChild,
                    "exit-child-holds-stdout" => Fault::ExitChildHoldsStdout,
                    "uci-only" => Fault::UciOnly,
                    "ucci-only" => Fault::UcciOnly,
                    "double-bestmove" => Fault::DoubleBestmove,
                    "stale-bestmove" => Fault::StaleBestmove,
                    "orphan" => Fault::Orphan,
                    "linger" => Fault::Linger,
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

/// The time a `go` line gives the side to move: UCCI's `time`, UCI's `wtime` or
/// `btime`, or `movetime`; zero when it gives none.
fn time_left(go: &str, red_to_move: bool) -> Duration {
    let own = if red_to_move { "wtime" } else { "btime" };
    let words: Vec<&str> = go.split_whitespace().collect();
    words
        .windows(2)
        .find(|w| w[0] == "time" || w[0] == own || w[0] == "movetime")
        .and_then(|w| w[1].parse().ok())
        .map_or(Duration::ZERO, Duration::from_millis)
}

/// How long the children of `setsid-child` and `exit-child-holds-stdout` live (and an
/// `ignore-quit` engine after its input ends) when nobody kills them: long enough to be
/// found, short enough that a failed test does not leave them for good.
const LIFETIME: Duration = Duration::from_secs(120);

/// Starts this program again as `fault` with the same tag; stdout inherited or not.
fn start_child(config: &Config, fault: &str, keep_stdout: bool) {
    let Ok(exe) = std::env::current_exe() else {
        return;
    };
    let mut command = std::process::Command::new(exe);
    command
        .args(["--fault", fault, "--tag", &config.tag])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    if !keep_stdout {
        command.stdout(std::process::Stdio::null());
    }
    // Not waited for: it is meant to outlive this process.
    let _ = command.spawn();
}

/// Blocks the signals that would end the process (they stay pending, never delivered).
fn ignore_stop_signals() {
    use nix::sys::signal::{SigSet, Signal};
    let mut set = SigSet::empty();
    for signal in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP] {
        set.add(signal);
    }
    let _ = set.thread_block();
}

/// Writes to stderr; on failure exits 13 like a C engine killed by SIGPIPE.
fn to_stderr(bytes: &[u8]) {
    let mut err = std::io::stderr().lock();
    if err.write_all(bytes).and_then(|()| err.flush()).is_err() {
        std::process::exit(13);
    }
}

fn main() {
    let config = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("fault-engine: {e}");
            std::process::exit(2);
        }
    };
    match config.fault {
        Fault::Orphan => {
            let _ = nix::unistd::setsid();
            std::thread::sleep(LIFETIME);
            return;
        }
        Fault::Linger => {
            std::thread::sleep(LIFETIME);
            return;
        }
        Fault::IgnoreQuit => ignore_stop_signals(),
        Fault::SetsidChild => start_child(&config, "orphan", false),
        _ => {}
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut current: Option<(Position, usize)> = None;
    let mut previous: Option<String> = None;
    let mut flooded = false;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        // One write per answer, all its lines together: through the line-buffered stdout,
        // `writeln!` writes a two-line answer in two writes, and the runner can tell a
        // doubled `bestmove` is stale only if it arrives before the next `position`.
        let say = |out: &mut std::io::StdoutLock<'_>, text: &str| {
            let _ = out.write_all(format!("{text}\n").as_bytes());
            let _ = out.flush();
        };
        match line.split_whitespace().next() {
            Some("ucci") if config.fault == Fault::UciOnly => {
                say(
                    &mut out,
                    "Unknown command: 'ucci'. Type help for more information.",
                );
            }
            Some("uci") if config.fault == Fault::UcciOnly => {}
            Some("ucci" | "uci") if config.fault != Fault::NoHello => {
                say(&mut out, &format!("id name {}", config.id_name));
                say(&mut out, if config.uci { "uciok" } else { "ucciok" });
            }
            Some("isready") => {
                if config.fault == Fault::ExitOnIsready {
                    std::process::exit(0);
                }
                say(&mut out, "readyok");
            }
            Some("position") => {
                current = position(&line);
                if config.fault == Fault::StaleBestmove {
                    if let Some(m) = &previous {
                        say(&mut out, &format!("bestmove {m}"));
                    }
                }
            }
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
                    Fault::ExitChildHoldsStdout if ply >= config.at_ply => {
                        start_child(&config, "linger", true);
                        std::process::exit(3);
                    }
                    Fault::Silent => continue,
                    Fault::Sleep => std::thread::sleep(config.sleep),
                    Fault::Overtime => {
                        let red = pos.side_to_move() == xq_core::board::Color::Red;
                        std::thread::sleep(time_left(&line, red) + config.sleep);
                    }
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
                    Fault::GbkStderr => {
                        // "搜索深度 1" in GBK, then a byte that is no encoding's.
                        to_stderr(b"\xcb\xd1\xcb\xf7\xc9\xee\xb6\xc8 1\n\xff\xfe debug\n");
                    }
                    Fault::StderrFlood if !flooded => {
                        flooded = true;
                        let block = vec![b'x'; 1 << 20];
                        for _ in 0..config.megabytes {
                            to_stderr(&block);
                        }
                        to_stderr(b"\n");
                    }
                    Fault::LongLine if !flooded => {
                        flooded = true;
                        say(&mut out, &format!("info string {}", "x".repeat(100_000)));
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
                    (Fault::BraceMove, Some(_)) => "bestmove x}0-1{".to_owned(),
                    // Both in one write, so both are in the pipe when the first is read.
                    (Fault::DoubleBestmove, Some(m)) => format!("bestmove {m}\nbestmove {m}"),
                    (_, Some(m)) => format!("info depth 1 score 0 nodes 1 pv {m}\nbestmove {m}"),
                };
                previous = pick.map(|m| m.to_string());
                say(&mut out, &answer);
                if config.fault == Fault::Garbage {
                    say(&mut out, "more garbage after the move");
                }
            }
            Some("quit") if config.fault == Fault::IgnoreQuit => {}
            Some("quit") => {
                say(&mut out, "bye");
                break;
            }
            _ => {}
        }
    }
    if config.fault == Fault::IgnoreQuit {
        std::thread::sleep(LIFETIME);
    }
}
