//! Benchmark of the rules judge: 1,000 seeded random games with forced repetitions,
//! replayed through `GameRecord` with a verdict after every move.
//!
//! `cargo bench -p xq-engine --bench judge` (release profile). Prints the median of 5
//! runs in nanoseconds per move for `push` (legality, check, chase detection), for
//! `verdict` (mate/stalemate, repetition, material, move limit) and for both.

use std::collections::BTreeMap;
use std::time::Instant;

use xq_core::board::{Move, Position};
use xq_core::movegen::{gives_check, legal_moves};
use xq_core::rng::SplitMix64;
use xq_core::rules::{GameRecord, Rules, Ruleset};

const GAMES: usize = 1_000;
const MAX_PLIES: usize = 400;
const RUNS: usize = 5;

/// A random game until the judge ends it. A third of the moves are checks when there
/// are some. From time to time the players enter a "loop": each plays the reverse of
/// its previous move, which forces repetitions (plain, perpetual check or chase,
/// depending on what the moves do).
fn random_game(rng: &mut SplitMix64, rules: Rules) -> (Vec<Move>, String) {
    let mut record = GameRecord::new(Position::startpos(), rules);
    let mut moves: Vec<Move> = Vec::new();
    let mut looping = false;
    while moves.len() < MAX_PLIES {
        let verdict = record.verdict();
        if verdict.is_final() {
            return (moves, verdict.reason.to_string());
        }
        let legal = legal_moves(record.position());
        if !looping && rng.index(90) == 0 {
            looping = true;
        }
        let back = moves
            .len()
            .checked_sub(2)
            .map(|i| Move::new(moves[i].to(), moves[i].from()))
            .filter(|m| looping && legal.contains(m));
        let checks: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|&m| gives_check(record.position(), m))
            .collect();
        let m = match back {
            Some(m) => m,
            None if !checks.is_empty() && rng.index(3) == 0 => checks[rng.index(checks.len())],
            None => legal[rng.index(legal.len())],
        };
        if record.push(m).is_err() {
            break;
        }
        moves.push(m);
    }
    (moves, "cut".to_owned())
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let rules = Rules::new(Ruleset::Asian);
    let mut rng = SplitMix64::new(0x5eed_1234);
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let games: Vec<Vec<Move>> = (0..GAMES)
        .map(|_| {
            let (moves, reason) = random_game(&mut rng, rules);
            *reasons.entry(reason).or_default() += 1;
            moves
        })
        .collect();
    let plies: usize = games.iter().map(Vec::len).sum();
    println!("{GAMES} games, {plies} plies, endings: {reasons:?}");

    for ruleset in Ruleset::ALL {
        let rules = Rules::new(ruleset);
        let (mut push_ns, mut verdict_ns, mut total_ns) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..RUNS {
            let (mut push, mut judge) = (0u128, 0u128);
            let start = Instant::now();
            let mut finals = 0usize;
            for game in &games {
                let mut record = GameRecord::new(Position::startpos(), rules);
                for &m in game {
                    let t0 = Instant::now();
                    if record.push(m).is_err() {
                        break;
                    }
                    let t1 = Instant::now();
                    finals += usize::from(record.verdict().is_final());
                    let t2 = Instant::now();
                    push += (t1 - t0).as_nanos();
                    judge += (t2 - t1).as_nanos();
                }
            }
            let total = start.elapsed().as_nanos();
            std::hint::black_box(finals);
            push_ns.push(push as f64 / plies as f64);
            verdict_ns.push(judge as f64 / plies as f64);
            total_ns.push(total as f64 / plies as f64);
        }
        println!(
            "{:<8} push {:>7.0} ns/move  verdict {:>7.0} ns/move  push+verdict (wall) {:>7.0} ns/move  (median of {RUNS})",
            ruleset.name(),
            median(push_ns),
            median(verdict_ns),
            median(total_ns)
        );
    }
}
