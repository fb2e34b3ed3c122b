//! Score constants and their text forms.

use super::params::MAX_PLY;

/// The score of delivering mate now; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
/// A win by the rules (the opponent's perpetual check or chase), beyond any evaluation
/// but below mate scores.
pub const RULE_WIN: i32 = 20_000;
/// Bigger than every score.
pub const INFINITE: i32 = 32_000;
/// The draw score.
pub const DRAW: i32 = 0;

/// Whether a score announces a mate (for either side).
#[must_use]
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// Whether a score is a mate or a win by the rules (for either side): a result of the
/// line searched, never an estimate of a position's worth.
#[must_use]
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= RULE_WIN - MAX_PLY as i32
}

/// Moves (not plies) to mate for a mate score: positive when the side to move mates.
#[must_use]
pub fn mate_in_moves(score: i32) -> i32 {
    if score > 0 {
        (MATE - score + 1) / 2
    } else {
        -(MATE + score) / 2
    }
}

/// The score as UCI prints it: `cp N` or `mate N`.
#[must_use]
pub fn uci_score(score: i32) -> String {
    if is_mate(score) {
        format!("mate {}", mate_in_moves(score))
    } else {
        format!("cp {score}")
    }
}

/// The score as UCCI prints it: a bare number, mates as `10000 - plies` like ElephantEye
/// so UCCI GUIs recognise them; other scores stay below 9900 in magnitude.
#[must_use]
pub fn ucci_score(score: i32) -> i32 {
    if is_mate(score) {
        let plies = MATE - score.abs();
        score.signum() * (10_000 - plies)
    } else {
        score.clamp(-9_800, 9_800)
    }
}

/// Converts a score from "plies from the root" to "plies from this node" for the
/// transposition table, so mates keep their distance when found through another path.
#[must_use]
pub fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`to_tt`].
#[must_use]
pub fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_print_in_moves() {
        assert_eq!(uci_score(MATE - 1), "mate 1");
        assert_eq!(uci_score(MATE - 3), "mate 2");
        assert_eq!(uci_score(-(MATE - 2)), "mate -1");
        assert_eq!(uci_score(35), "cp 35");
        assert_eq!(ucci_score(MATE - 3), 9_997);
        assert_eq!(ucci_score(-(MATE - 4)), -9_996);
        assert_eq!(from_tt(to_tt(MATE - 10, 4), 4), MATE - 10);
    }
}
