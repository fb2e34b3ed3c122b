//! `xq-engine bench`: a fixed list of positions searched to a fixed depth from a cleared
//! state. The total node count is a signature of the build: the same on every run and
//! every machine, different as soon as search or evaluation changes.

use std::time::Duration;

use crate::board::Position;
use crate::eval::{Evaluator, MAX_LEVEL};
use crate::search::{Control, Game, Limits, Searcher};

/// Default depth of `bench`.
pub const DEFAULT_DEPTH: i32 = 9;

/// The bench positions: the start position, the four published perft positions, and
/// thirty positions from self-play (openings, middlegames and endgames).
pub const POSITIONS: [&str; 35] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "3akabnr/9/2n1b2c1/p1p1p1p1p/4c4/P3C4/1rP1P1P1P/RCN5R/9/2BAKABN1 b - - 13 7",
    "3aka1r1/9/2n1b4/2p1p1p1p/9/9/3RP1PcP/1Cc6/9/2BAKABN1 b - - 0 16",
    "2b1ka3/9/2n2a3/2p1p1p1p/7r1/4RC2P/6c2/4B1N2/9/3AKAB2 w - - 4 29",
    "2bakab2/9/rcn3ncr/p1p1p1p1p/1C5C1/2P6/P3P1P1P/N5N1R/R8/2BAKAB2 b - - 13 7",
    "3akaC2/1c7/r1n1b1ncr/p3p3p/1CpN5/9/P3Pp2P/R1R6/8N/2BAKAB2 b - - 0 16",
    "3akab2/1c7/6n2/pC2p1N1p/3R5/4r4/P3p2rP/2R6/9/2BAKABc1 w - - 4 29",
    "r2akab1r/9/1Cc1b1nc1/p1p1pnp1p/9/9/P1P1P1P1P/1RN3C1R/9/2BAKABN1 b - - 13 7",
    "1r1akabr1/4n4/1C2b1n2/p1pcp3p/9/1R4R2/P3P1P1P/2N1B3C/7c1/3AKABN1 b - - 2 16",
    "3R1ab2/4k4/4b1C2/p1p1p3p/9/9/Pr2P1P1P/4B4/7cC/3K1ABN1 w - - 1 29",
    "rnba1kb2/1C5c1/7r1/p1p1p1p1p/9/9/P1P1P1P1P/6N2/4A2cR/RNBAK1B2 b - - 5 7",
    "C1ba1kb2/7c1/2n6/p1p1p1p1p/7r1/9/P1r1P1P1P/R1N3N1R/4A2c1/2BAK1B2 b - - 9 16",
    "C1ba5/4k4/9/p1R1r3p/9/9/P2rP1P1P/1c4N2/4A4/2BAK1B2 w - - 0 29",
    "r1b1kab1r/9/n3ca2n/p1p1p1p1p/9/3C5/PCP1P1PcP/6N2/9/RNBAKAB1R b - - 13 7",
    "2b1kab1r/9/n4a2n/p1p1p1p1p/1c7/4r4/P1PC2P1P/R1N3NR1/4A4/2B1KAB2 b - - 0 16",
    "2b1k1b2/4a4/n4R2n/p1p1p1p1p/1r7/9/P1P1C1P1P/N8/4A4/2B1KA3 w - - 3 29",
    "1rba1ab2/4k2r1/1c4n1c/p1p1p1pCp/9/9/P1P1P1P1P/N5NR1/9/R1BAKAB2 b - - 7 7",
    "3akab2/7r1/4b2CR/p1p1p4/9/P2r2pn1/2P1P1P1P/Nc4N2/7R1/2BAKAB2 b - - 0 16",
    "3akab2/9/4b2C1/p1p1p2R1/9/P5r2/2P1r3P/N2RB1n2/9/c1BAKA3 w - - 0 29",
    "rnbakab2/9/4c4/p1p1p1p1p/9/9/P1P1P1PrP/C1N3N2/4K4/R1BA1ABR1 b - - 3 7",
    "3akab2/9/rcn1b4/p5R1p/2p1p4/9/P1P1P1P1P/C1N1B3N/9/3AKAB2 b - - 0 16",
    "4kab2/4a4/2N1b4/8p/p3R4/1c1r5/PCn1P1P1P/2p1B3N/9/3AKAB2 w - - 17 29",
    "1rbakabn1/9/9/p1p1p1p1p/9/P8/R1P1P1P1P/2N4R1/7c1/1cBAKABN1 b - - 5 7",
    "2baka3/9/9/pcp5p/4pRp2/P8/2P1P1P1P/9/9/2B1KA1N1 b - - 6 16",
    "5a3/4k4/4b4/p8/2p1R1p1p/P8/2P1P1P1P/4B1N2/9/1c2KA3 w - - 9 29",
    "r1bakab1C/9/n6r1/pcp1p1p1p/9/C1P6/P3P1PcP/6N2/8R/RNBAKAB2 b - - 8 7",
    "2bakab1C/7r1/n8/pRp1p1p1p/2P2r3/P3P4/4R1P1P/6N2/9/2BAKAB2 b - - 8 16",
    "1nba1abnr/4k4/1r7/p1p1p1p1p/1C7/9/P1P1P1P1P/6N2/9/1RBAKAB1R b - - 1 7",
    "2bakab2/9/9/p3C3p/2P2R3/6PN1/4P3P/7n1/3KAr3/2B3B2 w - - 4 29",
    "3k2b2/9/3ab4/6N2/8p/p2nC1P2/8P/9/9/2B1KAB2 b - - 8 46",
    "2bakab1r/9/n5nc1/Crp1p3p/6p2/9/P1P1P1P1P/1R4NC1/1c7/1NBAKAB1R b - - 8 7",
];

/// What one bench run measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchResult {
    pub nodes: u64,
    pub time: Duration,
}

impl BenchResult {
    /// Nodes per second.
    #[must_use]
    pub fn nps(&self) -> u64 {
        (u128::from(self.nodes) * 1000 / self.time.as_millis().max(1)) as u64
    }
}

/// Searches every bench position to `depth` at an evaluation level, each from a cleared
/// table and cleared heuristics; `progress` is called after each position.
#[must_use]
pub fn run(depth: i32, level: u8, progress: &mut dyn FnMut(usize, &str, u64)) -> BenchResult {
    let mut searcher = Searcher::new(16, Evaluator::new(level.min(MAX_LEVEL)));
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut total = 0;
    let mut time = Duration::ZERO;
    for (index, fen) in POSITIONS.iter().enumerate() {
        let Ok(start_pos) = Position::from_fen(fen) else {
            continue;
        };
        searcher.clear();
        let game = Game {
            start: start_pos,
            moves: Vec::new(),
        };
        let result = searcher.think(
            &game,
            &limits,
            &[],
            std::sync::Arc::new(Control::new(false)),
            &mut |_| {},
        );
        total += result.nodes;
        time += result.time;
        progress(index + 1, fen, result.nodes);
    }
    BenchResult { nodes: total, time }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bench_positions_are_valid_and_the_count_is_deterministic() {
        for fen in POSITIONS {
            assert!(Position::from_fen(fen).is_ok(), "{fen}");
        }
        let first = run(3, MAX_LEVEL, &mut |_, _, _| {});
        let second = run(3, MAX_LEVEL, &mut |_, _, _| {});
        assert_eq!(first.nodes, second.nodes);
        assert!(first.nodes > 0);
    }
}
