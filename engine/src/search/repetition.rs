//! Repetitions inside the search: the positions of the game and of the current path, with
//! whether each was reached by a checking move, so a repeated position can be scored by
//! the rules (perpetual check loses, other repetitions draw).

/// One position on the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PathEntry {
    pub key: u64,
    /// The move that reached this position gave check.
    pub check: bool,
    /// Nothing before this entry can repeat it (a capture, a null move, the game start).
    pub barrier: bool,
}

/// How a repetition ends for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionOutcome {
    /// The opponent checked on every one of its moves of the cycle and we did not.
    Win,
    /// We checked on every one of our moves of the cycle and the opponent did not.
    Loss,
    Draw,
}

/// Looks for an earlier occurrence of the last position of `path` and judges the cycle.
/// `path` ends with the current position; entries are checked back to the last barrier.
#[must_use]
#[inline]
pub fn judge(path: &[PathEntry]) -> Option<RepetitionOutcome> {
    let n = path.len().checked_sub(1)?;
    let current = path[n];
    if current.barrier {
        return None;
    }
    let mut back = 2;
    // A cycle needs at least four plies: each side moves away and back.
    while back <= n {
        if path[n - back + 1].barrier {
            return None;
        }
        let earlier = path[n - back];
        if back >= 4 && earlier.key == current.key {
            return Some(cycle_outcome(&path[n - back + 1..=n]));
        }
        if earlier.barrier {
            return None;
        }
        back += 2;
    }
    None
}

/// The moves of the cycle, oldest first, the last one played by the opponent of the
/// side to move.
fn cycle_outcome(cycle: &[PathEntry]) -> RepetitionOutcome {
    let len = cycle.len();
    let theirs_all_check = cycle.iter().rev().step_by(2).all(|e| e.check);
    let ours_all_check = cycle.iter().rev().skip(1).step_by(2).all(|e| e.check);
    debug_assert!(len % 2 == 0);
    match (theirs_all_check, ours_all_check) {
        (true, false) => RepetitionOutcome::Win,
        (false, true) => RepetitionOutcome::Loss,
        _ => RepetitionOutcome::Draw,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(key: u64, check: bool) -> PathEntry {
        PathEntry {
            key,
            check,
            barrier: false,
        }
    }

    #[test]
    fn perpetual_check_by_the_opponent_wins() {
        let mut path = vec![PathEntry {
            key: 1,
            check: false,
            barrier: true,
        }];
        path.extend([
            entry(2, true),
            entry(3, false),
            entry(4, true),
            entry(1, false),
        ]);
        // Keys 1 -> 2 -> 3 -> 4 -> 1: the side to move at the end made the checking moves
        // to 2 and 4, the opponent the quiet moves to 3 and 1.
        assert_eq!(judge(&path), Some(RepetitionOutcome::Loss));
        let quiet: Vec<PathEntry> = [1, 2, 3, 4, 1].iter().map(|&k| entry(k, false)).collect();
        assert_eq!(judge(&quiet), Some(RepetitionOutcome::Draw));
        let none: Vec<PathEntry> = [1, 2, 3, 4, 5].iter().map(|&k| entry(k, false)).collect();
        assert_eq!(judge(&none), None);
    }
}
