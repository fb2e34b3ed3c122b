//! Writes a synthetic training data file for measuring the trainer's speed (not for a
//! network to play with): positions of random games from the start position, each
//! scored by the engine's level-6 evaluation, the result the sign of the last
//! position's evaluation.
//!
//! `cargo run --release -p xq-nnue --example synthetic_data -- <out> <positions> [seed]`

use std::path::Path;
use std::process::ExitCode;

use xq_core::training::{DataWriter, GameResult, Record};
use xq_engine::board::Position;
use xq_engine::eval::Evaluator;
use xq_engine::movegen::legal_moves;
use xq_engine::rng::SplitMix64;

const PLIES: usize = 120;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(out), Some(Ok(count))) = (args.first(), args.get(1).map(|n| n.parse::<usize>()))
    else {
        eprintln!("usage: synthetic_data <out> <positions> [seed]");
        return ExitCode::from(2);
    };
    let seed = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    match write(Path::new(out), count, seed) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn write(out: &Path, count: usize, seed: u64) -> Result<(), Box<dyn std::error::Error>> {
    let level6 = Evaluator::new(6);
    let mut rng = SplitMix64::new(seed);
    let mut writer = DataWriter::create(out)?;
    while (writer.written() as usize) < count {
        let mut pos = Position::startpos();
        let mut line = vec![(pos.clone(), level6.evaluate(&pos))];
        for _ in 0..PLIES {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.index(moves.len())]);
            line.push((pos.clone(), level6.evaluate(&pos)));
        }
        let Some((last, last_eval)) = line.last().cloned() else {
            continue;
        };
        let last_result = match last_eval {
            e if e.abs() < 200 => GameResult::Draw,
            e if e > 0 => GameResult::Win,
            _ => GameResult::Loss,
        };
        for (pos, eval) in line.iter().take(count - writer.written() as usize) {
            let result = if pos.side_to_move() == last.side_to_move() {
                last_result
            } else {
                last_result.flipped()
            };
            writer.write(&Record::new(pos, (*eval).clamp(-3000, 3000) as i16, result))?;
        }
    }
    writer.finish()?;
    Ok(())
}
