//! `[tournament]`: the kind, how many engines and pairings it may have, and the schedule
//! (pairs, concurrency, affinity, seed, event, description).

use super::defaults;
use super::problem;
use crate::config::plan::{Problem, TournamentKind, MAX_ENGINES, MAX_PAIRINGS};
use crate::config::raw::RawTournament;

/// `tournament.kind`.
pub(super) fn kind(raw: &RawTournament) -> Result<TournamentKind, Problem> {
    match raw.kind.as_deref() {
        None => Ok(defaults::KIND),
        Some(name) => TournamentKind::from_name(name).ok_or_else(|| {
            problem(
                "tournament.kind",
                format!("`{name}`: expected match, gauntlet, round_robin or ladder"),
            )
        }),
    }
}

/// Refuses more engines, or more pairings, than one run may have.
pub(super) fn size(kind: TournamentKind, engines: usize) -> Result<(), Problem> {
    if engines > MAX_ENGINES {
        return Err(problem(
            "engine",
            format!("{engines} engines: at most {MAX_ENGINES} in one run"),
        ));
    }
    let count = kind.pairing_count(engines);
    if count > MAX_PAIRINGS {
        return Err(problem(
            "tournament.kind",
            format!(
                "a {} of {engines} engines has {count} pairings: at most {MAX_PAIRINGS} in one run (a gauntlet or ladder has one per engine)",
                kind.name(),
            ),
        ));
    }
    Ok(())
}

/// The rest of `[tournament]`, resolved.
pub(super) struct TournamentSection {
    pub pairs: u64,
    pub concurrency: usize,
    pub affinity: bool,
    pub seed: u64,
    pub event: String,
    pub description: Option<String>,
}

/// The longest `tournament.description`: a line of a list, not a document.
pub(crate) const MAX_DESCRIPTION: usize = 200;

/// `tournament.description`: one line of at most [`MAX_DESCRIPTION`] characters, no
/// control character (it is printed by `status` and shown on the pages); blank is none.
fn description(raw: Option<&str>) -> Result<Option<String>, Problem> {
    let Some(text) = raw.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    if text.chars().any(char::is_control) {
        return Err(problem(
            "tournament.description",
            "one line, without control characters",
        ));
    }
    let length = text.chars().count();
    if length > MAX_DESCRIPTION {
        return Err(problem(
            "tournament.description",
            format!("{length} characters: at most {MAX_DESCRIPTION}"),
        ));
    }
    Ok(Some(text.to_owned()))
}

/// Pairs (from `pairs` or `games`; an SPRT run may leave both out), concurrency,
/// affinity, seed, event and description.
pub(super) fn tournament_section(
    raw: &RawTournament,
    has_sprt: bool,
) -> Result<TournamentSection, Problem> {
    let pairs = match (raw.pairs, raw.games) {
        (Some(_), Some(_)) => {
            return Err(problem("tournament.games", "set pairs or games, not both"))
        }
        (Some(0), None) => return Err(problem("tournament.pairs", "must be at least 1")),
        (Some(p), None) => p,
        (None, Some(g)) if g == 0 || g % 2 == 1 => {
            return Err(problem(
                "tournament.games",
                "an even number of games (each opening is played twice)",
            ))
        }
        (None, Some(g)) => g / 2,
        (None, None) if has_sprt => defaults::SPRT_PAIRS,
        (None, None) => {
            return Err(problem(
                "tournament.pairs",
                "missing: how many pairs to play (or games, or an [sprt] section)",
            ))
        }
    };
    let concurrency = match raw.concurrency {
        Some(0) => return Err(problem("tournament.concurrency", "must be at least 1")),
        Some(c) if c > defaults::MAX_CONCURRENCY => {
            return Err(problem(
                "tournament.concurrency",
                format!("at most {}", defaults::MAX_CONCURRENCY),
            ))
        }
        Some(c) => c,
        None => std::thread::available_parallelism()
            .map_or(defaults::CONCURRENCY_FALLBACK, std::num::NonZero::get),
    };
    let affinity = raw.affinity.unwrap_or(defaults::AFFINITY);
    if affinity {
        crate::client::affinity::check().map_err(|why| problem("tournament.affinity", why))?;
    }
    Ok(TournamentSection {
        pairs,
        concurrency,
        affinity,
        seed: raw.seed.unwrap_or(defaults::SEED),
        event: raw
            .event
            .clone()
            .unwrap_or_else(|| defaults::EVENT.to_owned()),
        description: description(raw.description.as_deref())?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_description_is_one_bounded_line() {
        assert_eq!(description(None).ok(), Some(None));
        assert_eq!(description(Some("  ")).ok(), Some(None));
        assert_eq!(
            description(Some(" LMR tweak </script> ")).ok(),
            Some(Some("LMR tweak </script>".to_owned()))
        );
        assert!(description(Some("two\nlines")).is_err());
        assert!(description(Some("bell\u{7}")).is_err());
        assert!(description(Some(&"x".repeat(MAX_DESCRIPTION))).is_ok());
        assert!(description(Some(&"x".repeat(MAX_DESCRIPTION + 1))).is_err());
    }
}
