//! Perft suite from `tests/data/perft.txt`: move generation must reproduce the
//! published leaf counts exactly.

use xq_core::board::Position;
use xq_core::movegen::{perft, perft_divide};

struct Case {
    fen: String,
    depth: u32,
    nodes: u64,
    line: usize,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    let mut fen = String::new();
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("fen ") {
            fen = rest.to_owned();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut parts = rest.split_whitespace();
            let depth = parts.next().and_then(|d| d.parse().ok());
            let nodes = parts.next().and_then(|n| n.parse().ok());
            match (depth, nodes) {
                (Some(depth), Some(nodes)) => out.push(Case {
                    fen: fen.clone(),
                    depth,
                    nodes,
                    line: line_no,
                }),
                _ => panic!("perft.txt line {line_no}: expected `perft <depth> <nodes>`"),
            }
        } else if !line.is_empty() && !line.starts_with('#') {
            panic!("perft.txt line {line_no}: unknown line `{line}`");
        }
    }
    out
}

fn run(max_depth: u32, min_depth: u32) {
    let selected: Vec<Case> = cases()
        .into_iter()
        .filter(|c| c.depth >= min_depth && c.depth <= max_depth)
        .collect();
    assert!(!selected.is_empty());
    for case in selected {
        let mut pos =
            Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("line {}: {e}", case.line));
        let before = pos.clone();
        let nodes = perft(&mut pos, case.depth);
        assert_eq!(
            nodes, case.nodes,
            "perft {} of {} (line {})",
            case.depth, case.fen, case.line
        );
        assert_eq!(pos, before, "perft must leave the position unchanged");
    }
}

#[test]
fn perft_up_to_depth_4() {
    run(4, 1);
}

/// Seconds in a release build (CI's), minutes in a debug one.
#[test]
#[cfg_attr(
    debug_assertions,
    ignore = "deep perft: minutes in a debug build; run in release"
)]
fn perft_depth_5() {
    run(5, 5);
}

#[test]
fn divide_sums_to_perft() {
    let mut pos = Position::startpos();
    let split = perft_divide(&mut pos, 3);
    assert_eq!(split.len(), 44);
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 79_666);
}
