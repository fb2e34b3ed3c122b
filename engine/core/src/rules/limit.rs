//! The natural move limit: counted plies since the last capture.

use crate::board::Color;

use super::LimitCounting;

/// The move-limit count of one position, kept incrementally ply by ply.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LimitCounter {
    counted: u16,
    /// Checks given by each side since the last capture (for `ChecksBeyondTen`).
    checks: [u8; 2],
}

/// The checks a side may give before further checks stop counting (Chinese rules).
const FREE_CHECKS: u8 = 10;

impl LimitCounter {
    /// The count of a start position whose FEN says `plies_since_capture` (the plies
    /// before the start are assumed to count).
    #[must_use]
    pub fn from_fen_counter(plies_since_capture: u32) -> LimitCounter {
        LimitCounter {
            counted: u16::try_from(plies_since_capture).unwrap_or(u16::MAX),
            checks: [0; 2],
        }
    }

    /// The counted plies.
    #[must_use]
    pub fn plies(self) -> u32 {
        u32::from(self.counted)
    }

    /// The count after a move by `mover`; `replied_to_check` says the mover was in
    /// check before the move.
    #[must_use]
    pub fn after_move(
        self,
        counting: LimitCounting,
        mover: Color,
        capture: bool,
        gave_check: bool,
        replied_to_check: bool,
    ) -> LimitCounter {
        if capture {
            return LimitCounter::default();
        }
        let mut next = self;
        let counts = match counting {
            LimitCounting::AllPlies => true,
            LimitCounting::NoChecks => !gave_check && !replied_to_check,
            LimitCounting::ChecksBeyondTen => {
                let us = mover.index();
                if gave_check {
                    next.checks[us] = next.checks[us].saturating_add(1);
                }
                let own_extra_check = gave_check && next.checks[us] > FREE_CHECKS;
                let reply_to_extra_check = replied_to_check && next.checks[1 - us] > FREE_CHECKS;
                !own_extra_check && !reply_to_extra_check
            }
        };
        if counts {
            next.counted = next.counted.saturating_add(1);
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_counting_skips_checks_beyond_ten_and_their_replies() {
        let mut c = LimitCounter::from_fen_counter(0);
        for _ in 0..12 {
            // Red checks, Black replies.
            c = c.after_move(
                LimitCounting::ChecksBeyondTen,
                Color::Red,
                false,
                true,
                false,
            );
            c = c.after_move(
                LimitCounting::ChecksBeyondTen,
                Color::Black,
                false,
                false,
                true,
            );
        }
        assert_eq!(c.plies(), 20);
        let mut e = LimitCounter::from_fen_counter(5);
        e = e.after_move(LimitCounting::NoChecks, Color::Red, false, true, false);
        e = e.after_move(LimitCounting::NoChecks, Color::Black, false, false, true);
        e = e.after_move(LimitCounting::NoChecks, Color::Red, false, false, false);
        assert_eq!(e.plies(), 6);
        let all = e.after_move(LimitCounting::AllPlies, Color::Black, false, true, false);
        assert_eq!(all.plies(), 7);
        assert_eq!(
            all.after_move(LimitCounting::AllPlies, Color::Red, true, false, true)
                .plies(),
            0
        );
    }
}
