//! Rulesets: which chase definition, at which occurrence a repetition is judged, and
//! how the natural move limit counts.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// A named set of game-end rules. See `docs/rules.md` for the differences.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Ruleset {
    /// Asian Xiangqi Federation rules as programs implement them (Fairy-Stockfish,
    /// Pikafish): perpetual check and perpetual chase lose, judged at the third
    /// occurrence; chases by any piece, discovered ones included.
    #[default]
    Asian,
    /// The simplified rules of the xqbase UCCI computer league (ElephantEye): judged at
    /// the fourth occurrence; only the moved piece chases, only some attacker/target
    /// pairs count; a check move is never also a chase.
    Computer,
    /// Perpetual check loses, every other repetition draws, judged at the third
    /// occurrence: no chase rule at all (fast, unambiguous tests).
    Simple,
}

/// How chases are detected (see [`crate::rules::chase`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ChaseRule {
    /// AXF: a new capture threat by any piece (moved or discovered) on an unprotected
    /// piece, with the AXF exceptions.
    Axf,
    /// Computer league: the moved piece only, restricted attacker/target pairs,
    /// protection ignoring pins.
    League,
    /// No chase rule.
    None,
}

/// The ruleset name was not one of `asian`, `computer`, `simple`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown ruleset `{0}`; expected one of: asian, computer, simple")]
pub struct UnknownRuleset(pub String);

impl Ruleset {
    /// Every ruleset.
    pub const ALL: [Ruleset; 3] = [Ruleset::Asian, Ruleset::Computer, Ruleset::Simple];

    /// Looks a ruleset up by name (case-insensitive; `axf` and `league` are aliases).
    ///
    /// # Errors
    /// [`UnknownRuleset`] for any other name.
    pub fn from_name(name: &str) -> Result<Ruleset, UnknownRuleset> {
        match name.trim().to_ascii_lowercase().as_str() {
            "asian" | "axf" => Ok(Ruleset::Asian),
            "computer" | "league" => Ok(Ruleset::Computer),
            "simple" => Ok(Ruleset::Simple),
            _ => Err(UnknownRuleset(name.to_owned())),
        }
    }

    /// The canonical name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Ruleset::Asian => "asian",
            Ruleset::Computer => "computer",
            Ruleset::Simple => "simple",
        }
    }

    /// The occurrence of a position at which a repetition is judged: 3, 4, 3.
    #[must_use]
    pub const fn repetition_threshold(self) -> u32 {
        match self {
            Ruleset::Asian | Ruleset::Simple => 3,
            Ruleset::Computer => 4,
        }
    }

    /// The chase definition of the ruleset.
    #[must_use]
    pub const fn chase_rule(self) -> ChaseRule {
        match self {
            Ruleset::Asian => ChaseRule::Axf,
            Ruleset::Computer => ChaseRule::League,
            Ruleset::Simple => ChaseRule::None,
        }
    }

    /// Whether a move that checks also counts its chases. The league records a
    /// check move as a check only (ElephantEye computes the chase only when there is
    /// no check); AXF programs count both.
    #[must_use]
    pub const fn check_move_can_chase(self) -> bool {
        matches!(self, Ruleset::Asian)
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Ruleset {
    type Err = UnknownRuleset;

    fn from_str(s: &str) -> Result<Ruleset, UnknownRuleset> {
        Ruleset::from_name(s)
    }
}

/// Which plies count towards the natural move limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum LimitCounting {
    /// Every ply since the last capture counts (the FEN half-move counter).
    #[default]
    AllPlies,
    /// Chinese rules (Pikafish `check10`): a side's checks beyond its tenth since the
    /// last capture, and the replies to them, do not count.
    ChecksBeyondTen,
    /// The computer league (ElephantEye): no check and no reply to a check counts.
    NoChecks,
}

/// The counting name was not one of `all`, `chinese`, `league`.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown move-limit counting `{0}`; expected one of: all, chinese, league")]
pub struct UnknownLimitCounting(pub String);

impl LimitCounting {
    /// Every way of counting.
    pub const ALL: [LimitCounting; 3] = [
        LimitCounting::AllPlies,
        LimitCounting::ChecksBeyondTen,
        LimitCounting::NoChecks,
    ];

    /// Looks a counting up by name: `all`, `chinese` or `league` (case-insensitive).
    ///
    /// # Errors
    /// [`UnknownLimitCounting`] for any other name.
    pub fn from_name(name: &str) -> Result<LimitCounting, UnknownLimitCounting> {
        LimitCounting::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(name.trim()))
            .ok_or_else(|| UnknownLimitCounting(name.to_owned()))
    }

    /// The canonical name.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            LimitCounting::AllPlies => "all",
            LimitCounting::ChecksBeyondTen => "chinese",
            LimitCounting::NoChecks => "league",
        }
    }
}

/// The full configuration of the judge: a ruleset plus the natural move limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Repetition and chase rules.
    pub ruleset: Ruleset,
    /// Counted plies without capture after which the game is drawn; 0 turns it off.
    pub move_limit: u32,
    /// Which plies count towards `move_limit`.
    pub limit_counting: LimitCounting,
}

impl Rules {
    /// The default natural move limit: 120 plies (60 moves) without capture.
    pub const DEFAULT_MOVE_LIMIT: u32 = 120;

    /// A ruleset with the default move limit (120 plies, every ply counts).
    #[must_use]
    pub const fn new(ruleset: Ruleset) -> Rules {
        Rules {
            ruleset,
            move_limit: Rules::DEFAULT_MOVE_LIMIT,
            limit_counting: LimitCounting::AllPlies,
        }
    }

    /// The same rules with another move limit (0 = none).
    #[must_use]
    pub const fn with_move_limit(self, plies: u32) -> Rules {
        Rules {
            move_limit: plies,
            ..self
        }
    }

    /// The same rules with another way of counting the move limit.
    #[must_use]
    pub const fn with_limit_counting(self, counting: LimitCounting) -> Rules {
        Rules {
            limit_counting: counting,
            ..self
        }
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::new(Ruleset::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for ruleset in Ruleset::ALL {
            assert_eq!(Ruleset::from_name(ruleset.name()), Ok(ruleset));
            assert_eq!(ruleset.to_string().parse::<Ruleset>(), Ok(ruleset));
        }
        assert_eq!(Ruleset::from_name(" AXF "), Ok(Ruleset::Asian));
        assert!(Ruleset::from_name("chinese").is_err());
        assert_eq!([3, 4, 3], Ruleset::ALL.map(Ruleset::repetition_threshold));
        assert_eq!(Rules::default().move_limit, 120);
        for counting in LimitCounting::ALL {
            assert_eq!(LimitCounting::from_name(counting.name()), Ok(counting));
        }
        assert!(LimitCounting::from_name("fifty").is_err());
    }
}
