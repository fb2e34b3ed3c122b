//! Synthetic training data for the tests: positions of random games, scored by the
//! engine's level-6 evaluation (the side to move's view), the result the sign of the
//! last position's evaluation.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use xq_core::training::{DataWriter, GameResult, Record};
use xq_engine::board::Position;
use xq_engine::eval::Evaluator;
use xq_engine::movegen::legal_moves;
use xq_engine::rng::SplitMix64;

/// The positions of `games` random games of up to `plies` plies each.
pub fn random_games(games: usize, plies: usize, seed: u64) -> Vec<Vec<Position>> {
    let mut rng = SplitMix64::new(seed);
    (0..games)
        .map(|_| {
            let mut pos = Position::startpos();
            let mut line = vec![pos.clone()];
            for _ in 0..plies {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.make_move(moves[rng.index(moves.len())]);
                line.push(pos.clone());
            }
            line
        })
        .collect()
}

/// Records of random games scored by level 6.
pub fn scored_records(games: usize, plies: usize, seed: u64) -> Vec<Record> {
    let level6 = Evaluator::new(6);
    let mut records = Vec::new();
    for line in random_games(games, plies, seed) {
        let Some(last) = line.last() else { continue };
        let final_eval = level6.evaluate(last);
        let red_result = match (final_eval, last.side_to_move()) {
            (e, side) if e.abs() < 200 => (GameResult::Draw, side),
            (e, side) if e > 0 => (GameResult::Win, side),
            (_, side) => (GameResult::Loss, side),
        };
        for pos in &line {
            let score = level6.evaluate(pos).clamp(-3000, 3000) as i16;
            let result = if pos.side_to_move() == red_result.1 {
                red_result.0
            } else {
                red_result.0.flipped()
            };
            records.push(Record::new(pos, score, result));
        }
    }
    records
}

/// A temporary folder, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("xq-nnue-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        TempDir(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Writes records to a data file.
pub fn write_data(path: &Path, records: &[Record]) {
    let mut writer = DataWriter::create(path).expect("create");
    for record in records {
        writer.write(record).expect("write");
    }
    writer.finish().expect("flush");
}
