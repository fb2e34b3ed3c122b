//! Times the engine's output layer alone (the activation, the bucket's dot product and
//! the scaling) on the sums of positions of random games, for each network file named:
//! the cost per evaluation that a search's nodes per second mixes with everything else.
//!
//! `cargo run --release -p xq-nnue --example output_speed -- <net>...`

use std::hint::black_box;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use xq_engine::board::Position;
use xq_engine::eval::nnue::{Accumulators, Network};
use xq_engine::movegen::legal_moves;
use xq_engine::rng::SplitMix64;

/// Positions timed, and passes over them.
const POSITIONS: usize = 4000;
const PASSES: usize = 250;

fn positions() -> Vec<Position> {
    let mut rng = SplitMix64::new(1);
    let mut out = Vec::with_capacity(POSITIONS);
    while out.len() < POSITIONS {
        let mut pos = Position::startpos();
        for _ in 0..200 {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.index(moves.len())]);
            out.push(pos.clone());
        }
    }
    out.truncate(POSITIONS);
    out
}

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: output_speed <net>...");
        return ExitCode::from(2);
    }
    let positions = positions();
    for path in &paths {
        let net = match Network::load(Path::new(path)) {
            Ok(net) => net,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        let sums: Vec<(Accumulators, _)> = positions
            .iter()
            .map(|p| (Accumulators::refresh(&net, p), p.side_to_move()))
            .collect();
        let start = Instant::now();
        let mut total = 0i64;
        for _ in 0..PASSES {
            for (acc, side) in &sums {
                total += i64::from(black_box(acc).evaluate(&net, *side));
            }
        }
        let ns = start.elapsed().as_secs_f64() * 1e9 / (POSITIONS * PASSES) as f64;
        println!(
            "{path}: {} hidden, buckets {}, {}: {ns:.1} ns an output (checksum {total})",
            net.hidden(),
            net.buckets(),
            net.activation()
        );
    }
    ExitCode::SUCCESS
}
