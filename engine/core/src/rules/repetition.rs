//! The cycle judge: a pure function over a slice of ply entries, so that the game
//! record and the engine's search judge repetitions with the same code.
//!
//! # What is judged
//! Let `n` be the last entry (the current position). The judge walks back by two plies
//! (same side to move) over the positions since the last capture, counting those with
//! the current key. When the count, the current position included, reaches the
//! threshold (3 for AXF, 4 for the computer league), the span is every move from the
//! EARLIEST counted occurrence to now: all the cycles, not only the last one. This is
//! the AXF "same offending pattern throughout" and what Pikafish (`rule_judge`),
//! Fairy-Stockfish (`is_optional_game_end`) and ElephantEye (`RepStatus`) all do.
//!
//! For each side, over its own moves in the span:
//! - it checked perpetually if every one of them gave check;
//! - it chased perpetually if one enemy piece was in the chased set of every one of
//!   them. The sets are intersected while walking back; when the chased side moves a
//!   piece from `s` to `t`, the bit on `t` goes back to `s` with it, so a bit always
//!   names one piece (no capture lies inside a span).
//!
//! Offences are ordered none < chase < check, and the side with the greater offence
//! loses: check against nothing or against a chase loses (the checker loses against
//! a chaser), chase against nothing loses, equal offences draw (mutual perpetual check,
//! mutual chase, plain repetition). This is exactly ElephantEye's mask comparison (a
//! check is `0x10000`, any chase `0xffff`, nothing 0) and the AXF table.

use crate::board::{BitBoard, Color, Move};

use super::Reason;

/// What the cycle judge needs to know about one position of a game and the move that
/// produced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlyEntry {
    /// The Zobrist key of the position.
    pub key: u64,
    /// The move that produced the position (`None` for the start position).
    pub mv: Option<Move>,
    /// Whether that move gave check (the side to move here is in check).
    pub gave_check: bool,
    /// The enemy pieces newly chased by that move, as squares of this position.
    pub chased: BitBoard,
    /// Plies since the last capture in this position (the FEN half-move counter). The
    /// judge never looks further back than this, nor past the start of the slice.
    pub plies_since_capture: u16,
}

/// How bad a side's conduct over a repetition span was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Offence {
    /// Nothing forbidden.
    None,
    /// Chased the same piece on every move.
    Chase,
    /// Checked on every move.
    Check,
}

/// The judgement of a repetition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CycleVerdict {
    /// The side that loses, `None` for a draw.
    pub loser: Option<Color>,
    /// [`Reason::PerpetualCheck`], [`Reason::PerpetualChase`] or [`Reason::Repetition`].
    pub reason: Reason,
    /// Index in the slice of the earliest counted occurrence (the span starts after it).
    pub first_occurrence: usize,
    /// Each side's offence over the span, indexed by [`Color::index`].
    pub offences: [Offence; 2],
}

/// Judges the current position (the last entry of `history`) for repetition: `None`
/// while the position has occurred fewer than `threshold` times since the last capture.
///
/// `side_to_move` is the side to move in the current position. `history` must not hold
/// null moves inside the window (a search passes the slice after its last null move).
#[must_use]
pub fn judge_cycle(
    history: &[PlyEntry],
    side_to_move: Color,
    threshold: u32,
) -> Option<CycleVerdict> {
    let n = history.len().checked_sub(1)?;
    let current = history[n];
    let lowest = n - usize::from(current.plies_since_capture).min(n);
    let mut count = 1;
    // A position cannot come back after two plies: start four plies back.
    let mut j = n.checked_sub(4)?;
    loop {
        if j < lowest {
            return None;
        }
        if history[j].key == current.key {
            count += 1;
            if count >= threshold.max(2) {
                return Some(judge_span(history, j, side_to_move));
            }
        }
        j = j.checked_sub(2)?;
    }
}

/// Judges the moves after `first` up to the end of `history`.
fn judge_span(history: &[PlyEntry], first: usize, side_to_move: Color) -> CycleVerdict {
    let n = history.len() - 1;
    let mut all_check = [true; 2];
    let mut chased = [BitBoard::FULL; 2];
    let mut mover = !side_to_move;
    for entry in history[first + 1..].iter().rev() {
        let (us, them) = (mover.index(), (!mover).index());
        all_check[us] &= entry.gave_check;
        chased[us] &= entry.chased;
        // Step back over this move: the opponent's chased set holds our pieces.
        if let Some(m) = entry.mv {
            if chased[them].has(m.to()) {
                chased[them] = chased[them].without(m.to()).with(m.from());
            }
        }
        mover = !mover;
    }
    let offence = |c: usize| {
        if all_check[c] {
            Offence::Check
        } else if chased[c].any() {
            Offence::Chase
        } else {
            Offence::None
        }
    };
    let offences = [offence(0), offence(1)];
    let (red, black) = (offences[0], offences[1]);
    let (loser, worst) = match red.cmp(&black) {
        std::cmp::Ordering::Greater => (Some(Color::Red), red),
        std::cmp::Ordering::Less => (Some(Color::Black), black),
        std::cmp::Ordering::Equal => (None, Offence::None),
    };
    let reason = match worst {
        Offence::Check => Reason::PerpetualCheck,
        Offence::Chase => Reason::PerpetualChase,
        Offence::None => Reason::Repetition,
    };
    debug_assert!(first < n);
    CycleVerdict {
        loser,
        reason,
        first_occurrence: first,
        offences,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Square;

    fn mv(text: &str) -> Option<Move> {
        Move::parse(text).ok()
    }

    fn entry(key: u64, m: &str, check: bool, chased: &[&str]) -> PlyEntry {
        let chased = chased
            .iter()
            .filter_map(|s| Square::parse(s))
            .fold(BitBoard::EMPTY, BitBoard::with);
        PlyEntry {
            key,
            mv: mv(m),
            gave_check: check,
            chased,
            plies_since_capture: 0,
        }
    }

    /// Numbers the half-move counters from 0 like a game after a capture.
    fn game(mut entries: Vec<PlyEntry>) -> Vec<PlyEntry> {
        for (i, e) in entries.iter_mut().enumerate() {
            e.plies_since_capture = i as u16;
        }
        entries
    }

    #[test]
    fn counts_occurrences_and_follows_the_chased_piece() {
        // Red (to move at keys 1) chases a piece that Black moves a0<->a1 each cycle.
        let cycle = |_: usize| {
            [
                entry(2, "b2b3", false, &["a1"]),
                entry(3, "a1a0", false, &[]),
                entry(4, "b3b2", false, &["a0"]),
                entry(1, "a0a1", false, &[]),
            ]
        };
        let mut h = vec![entry(1, "e0e1", false, &[])];
        h.extend(cycle(0));
        assert_eq!(judge_cycle(&game(h.clone()), Color::Red, 3), None);
        h.extend(cycle(1));
        let v = judge_cycle(&game(h.clone()), Color::Red, 3).expect("third occurrence");
        assert_eq!(
            (v.loser, v.reason, v.first_occurrence),
            (Some(Color::Red), Reason::PerpetualChase, 0)
        );
        assert_eq!(judge_cycle(&game(h.clone()), Color::Red, 4), None);
        // The window stops at the last capture.
        let mut cut = game(h);
        cut[8].plies_since_capture = 4;
        assert_eq!(judge_cycle(&cut, Color::Red, 3), None);
    }
}
