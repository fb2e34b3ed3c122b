//! A test engine for `xq-runner tune` whose strength depends on one option with a known
//! best value: at each move it plays, with probability `1 - |skill - best| / 50`
//! (at least 0), a greedy move (a mate in one, else the most valuable capture), and
//! otherwise a random legal move. Its expected score against itself at another `skill`
//! is therefore higher the nearer its own `skill` is to `best`.
//!
//! ```text
//! tune-engine [--best B] [--move-ms MS] [--seed S] [--tag T]
//! ```
//! `--move-ms` makes each move take that long (for tests that interrupt a tune).
//! `--seed` makes it deterministic: each move's draws are seeded by `S` and the
//! `position` line alone, so a position reached the same way gets the same move
//! (without it the draws are seeded by the process id and the time).
//! Announces `skill` (UCCI) / `Skill` (UCI) as `type spin min 0 max 100 default 50`.
//! `--tag` is ignored; tests use it to find their processes.

use std::io::{BufRead, Write};

use xq_core::board::{Move, PieceKind, Position};
use xq_core::movegen::legal_moves;
use xq_core::rng::SplitMix64;

fn value(kind: PieceKind) -> u32 {
    match kind {
        PieceKind::Rook => 90,
        PieceKind::Cannon => 45,
        PieceKind::Horse => 40,
        PieceKind::Advisor | PieceKind::Elephant => 20,
        PieceKind::Pawn => 10,
        PieceKind::King => 1000,
    }
}

/// A mate (or stalemate: a loss in Xiangqi) in one, else the most valuable capture.
fn greedy(pos: &Position, moves: &[Move]) -> Option<Move> {
    let mut best: Option<(u32, Move)> = None;
    for &m in moves {
        let gain = pos.piece_at(m.to()).map_or(0, |p| value(p.kind()));
        let mut after = pos.clone();
        after.make_move(m);
        let gain = if legal_moves(&after).is_empty() {
            10_000
        } else {
            gain
        };
        if gain > 0 && best.is_none_or(|(g, _)| gain > g) {
            best = Some((gain, m));
        }
    }
    best.map(|(_, m)| m)
}

/// FNV-1a of some bytes: the same in every process (a `--seed` engine's draws).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[path = "../position_line.rs"]
mod position_line;

use position_line::position;

/// The value of `setoption skill V` / `setoption name Skill value V`.
fn skill_of(line: &str) -> Option<i64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let named = words.iter().position(|w| w.eq_ignore_ascii_case("skill"))?;
    let value = if words.get(named + 1) == Some(&"value") {
        words.get(named + 2)
    } else {
        words.get(named + 1)
    };
    value?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut best = 70i64;
    let mut move_time = std::time::Duration::ZERO;
    let mut fixed_seed: Option<u64> = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match (arg.as_str(), it.next()) {
            ("--best", Some(v)) => best = v.parse().unwrap_or(best),
            ("--move-ms", Some(v)) => {
                move_time = std::time::Duration::from_millis(v.parse().unwrap_or(0));
            }
            ("--seed", Some(v)) => fixed_seed = v.parse().ok(),
            ("--tag", Some(_)) => {}
            _ => {
                eprintln!(
                    "tune-engine: usage: tune-engine [--best B] [--move-ms MS] [--seed S] [--tag T]"
                );
                std::process::exit(2);
            }
        }
    }
    let seed = u64::from(std::process::id())
        ^ std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
    let mut rng = SplitMix64::new(seed);
    let mut skill = 50i64;
    let mut current: Option<Position> = None;
    let mut position_line = String::new();
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let mut say = |text: &str| {
            let _ = writeln!(out, "{text}");
            let _ = out.flush();
        };
        match line.split_whitespace().next() {
            Some("ucci") => {
                say("id name tune-engine");
                say("option skill type spin min 0 max 100 default 50");
                say("ucciok");
            }
            Some("uci") => {
                say("id name tune-engine");
                say("option name Skill type spin default 50 min 0 max 100");
                say("uciok");
            }
            Some("setoption") => {
                if let Some(v) = skill_of(&line) {
                    skill = v;
                }
            }
            Some("isready") => say("readyok"),
            Some("position") => {
                current = position(&line);
                position_line.clone_from(&line);
            }
            Some("go") => {
                let Some(pos) = current.clone() else {
                    say("nobestmove");
                    continue;
                };
                let moves = legal_moves(&pos);
                if let Some(seed) = fixed_seed {
                    rng = SplitMix64::new(seed ^ fnv1a(position_line.trim().as_bytes()));
                }
                let good = 1.0 - (skill - best).abs() as f64 / 50.0;
                let pick = if rng.next_f64() < good {
                    greedy(&pos, &moves)
                } else {
                    None
                }
                .or_else(|| moves.get(rng.index(moves.len())).copied());
                std::thread::sleep(move_time);
                match pick {
                    Some(m) => say(&format!("bestmove {m}")),
                    None => say("nobestmove"),
                }
            }
            Some("quit") => break,
            _ => {}
        }
    }
}
