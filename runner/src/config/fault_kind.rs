//! Which fault limit an end reason counts against (`faults.max_crashes`,
//! `max_time_losses`, `max_illegal_moves`): one rule for local runs, fleet runs and
//! tunes, so that the same game cannot count as a crash in one and an illegal move in
//! another.

use super::plan::FaultLimits;
use crate::game::EndReason;

/// The three fault limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// `faults.max_crashes`: the engine died or stopped answering.
    Crash,
    /// `faults.max_time_losses`.
    TimeLoss,
    /// `faults.max_illegal_moves`: the engine answered, wrongly.
    Illegal,
}

impl FaultKind {
    pub const ALL: [FaultKind; 3] = [FaultKind::Crash, FaultKind::TimeLoss, FaultKind::Illegal];

    /// The limit a game that ended by `reason` counts against; `None` for an ending that
    /// is no engine's fault.
    #[must_use]
    pub fn of(reason: EndReason) -> Option<FaultKind> {
        match reason {
            EndReason::Crash | EndReason::Stall => Some(FaultKind::Crash),
            EndReason::TimeForfeit => Some(FaultKind::TimeLoss),
            // `nobestmove` with legal moves on the board is an answer, and a wrong one:
            // the engine is alive and talking, as after an illegal move.
            EndReason::IllegalMove | EndReason::NoMove => Some(FaultKind::Illegal),
            EndReason::Checkmate
            | EndReason::Stalemate
            | EndReason::PerpetualCheck
            | EndReason::PerpetualChase
            | EndReason::Repetition
            | EndReason::MoveLimit
            | EndReason::InsufficientMaterial
            | EndReason::AdjudicationDraw
            | EndReason::AdjudicationResign
            | EndReason::MaxPlies => None,
        }
    }

    /// The place of the kind in [`FaultKind::ALL`].
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The end reasons that count against this limit.
    pub fn reasons(self) -> impl Iterator<Item = EndReason> {
        EndReason::ALL
            .into_iter()
            .filter(move |&r| FaultKind::of(r) == Some(self))
    }

    /// The config key of the limit.
    #[must_use]
    pub fn key(self) -> &'static str {
        match self {
            FaultKind::Crash => "faults.max_crashes",
            FaultKind::TimeLoss => "faults.max_time_losses",
            FaultKind::Illegal => "faults.max_illegal_moves",
        }
    }

    /// What is counted, in words (`illegal or missing moves`).
    #[must_use]
    pub fn what(self) -> &'static str {
        match self {
            FaultKind::Crash => "crashes or stalls",
            FaultKind::TimeLoss => "losses on time",
            FaultKind::Illegal => "illegal or missing moves",
        }
    }
}

impl FaultLimits {
    /// The most faults of `kind` an engine may have before the run stops.
    #[must_use]
    pub fn limit(&self, kind: FaultKind) -> u32 {
        match kind {
            FaultKind::Crash => self.max_crashes,
            FaultKind::TimeLoss => self.max_time_losses,
            FaultKind::Illegal => self.max_illegal_moves,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fault_counts_against_one_limit_and_nothing_else_does() {
        for reason in EndReason::ALL {
            assert_eq!(
                reason.is_fault(),
                FaultKind::of(reason).is_some(),
                "{reason}"
            );
        }
        assert_eq!(FaultKind::of(EndReason::NoMove), Some(FaultKind::Illegal));
        assert!(FaultKind::ALL
            .iter()
            .enumerate()
            .all(|(i, k)| k.index() == i));
        let illegal: Vec<_> = FaultKind::Illegal.reasons().collect();
        assert_eq!(illegal, [EndReason::IllegalMove, EndReason::NoMove]);
    }
}
