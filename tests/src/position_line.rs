//! The `position` command of the test engines (a module of each binary, by path).

use xq_core::board::{Move, Position};

/// Parses `position {startpos|fen F} [moves ...]` into the position it names; `None` for
/// a line the test engines do not understand.
pub fn position(line: &str) -> Option<Position> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let moves_at = words
        .iter()
        .position(|&w| w == "moves")
        .unwrap_or(words.len());
    let mut pos = match words.get(1) {
        Some(&"startpos") => Position::startpos(),
        Some(&"fen") => Position::from_fen(&words[2..moves_at].join(" ")).ok()?,
        _ => return None,
    };
    for text in words.iter().skip(moves_at + 1) {
        pos.make_move(Move::parse(text).ok()?);
    }
    Some(pos)
}
