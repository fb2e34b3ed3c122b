//! The search itself, as a pure function of what is known so far: which build to test
//! next, given the builds' count and the verdicts (and failed builds) of the steps
//! before. A resumed bisection replays it from `bisect.json` and lands on the same step.
//!
//! Builds are numbered `0..=last`, oldest first: build 0 is good, build `last` is
//! taken as bad once the confirmation (the first step, build `last` against build 0)
//! finds it worse. Then each step tests a build strictly between the last known good
//! one and the first known bad one; a build that does not build is skipped, as
//! `git bisect skip` skips a commit (the candidate nearest the middle is tested).

use std::collections::BTreeSet;

/// What a step found about its build (against build 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finding {
    /// Not worse: the SPRT accepted H1 (nElo 0).
    AsGood,
    /// Worse: the SPRT accepted H0 (nElo -X).
    Worse,
}

/// What the search does next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Next {
    /// Test this build against build 0 (the first step tests the bad end).
    Test(usize),
    /// The bad end is not worse than the good one: nothing to search.
    NotWorse,
    /// The first bad build; `untested` lists the builds before it, after the last
    /// good one, that could not be built (any of them may be the first bad one).
    Found {
        first_bad: usize,
        untested: Vec<usize>,
    },
}

/// The next step of a search over builds `0..=last`, after `steps` (each a tested
/// build and its finding, in order; the first is the confirmation of `last`) and with
/// the builds in `skipped` known not to build.
#[must_use]
pub fn next(last: usize, steps: &[(usize, Finding)], skipped: &BTreeSet<usize>) -> Next {
    let Some(&(_, confirmation)) = steps.first() else {
        return Next::Test(last);
    };
    if confirmation == Finding::AsGood {
        return Next::NotWorse;
    }
    let (good, bad) = range(last, steps);
    let candidates: Vec<usize> = (good + 1..bad).filter(|b| !skipped.contains(b)).collect();
    if candidates.is_empty() {
        return Next::Found {
            first_bad: bad,
            untested: (good + 1..bad).collect(),
        };
    }
    let middle = good + (bad - good) / 2;
    let pick = candidates
        .iter()
        .copied()
        .min_by_key(|&b| (b.abs_diff(middle), b))
        .unwrap_or(middle);
    Next::Test(pick)
}

/// The last build known good and the first known bad after `steps` (the confirmation
/// included): the range left is the builds strictly between them.
#[must_use]
pub fn range(last: usize, steps: &[(usize, Finding)]) -> (usize, usize) {
    let mut good = 0;
    let mut bad = last;
    for &(build, finding) in steps.iter().skip(1) {
        match finding {
            Finding::AsGood => good = good.max(build),
            Finding::Worse => bad = bad.min(build),
        }
    }
    (good, bad)
}

/// The number of SPRTs a search over builds `0..=last` takes when no build fails:
/// the confirmation and then `ceil(log2(last))` at most.
#[must_use]
pub fn planned_steps(last: usize) -> u32 {
    1 + usize::BITS - last.saturating_sub(1).leading_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The search run to its end against builds that are worse from `k` on.
    fn search(last: usize, k: usize, skipped: &BTreeSet<usize>) -> (Next, usize) {
        let mut steps = Vec::new();
        loop {
            match next(last, &steps, skipped) {
                Next::Test(b) => {
                    assert!(!skipped.contains(&b) && b <= last, "tested {b}");
                    let finding = if b >= k {
                        Finding::Worse
                    } else {
                        Finding::AsGood
                    };
                    steps.push((b, finding));
                }
                done => return (done, steps.len()),
            }
        }
    }

    #[test]
    fn finds_every_first_bad_build_in_at_most_the_planned_steps() {
        for last in 1..40 {
            for k in 1..=last {
                let (found, steps) = search(last, k, &BTreeSet::new());
                assert_eq!(
                    found,
                    Next::Found {
                        first_bad: k,
                        untested: vec![]
                    },
                    "last {last} k {k}"
                );
                assert!(steps as u32 <= planned_steps(last), "last {last} k {k}");
            }
        }
        assert_eq!(planned_steps(9), 5);
        assert_eq!(planned_steps(15), 5);
        assert_eq!(planned_steps(1), 1);
    }

    #[test]
    fn a_bad_end_that_is_not_worse_stops_the_search() {
        let steps = [(9, Finding::AsGood)];
        assert_eq!(next(9, &steps, &BTreeSet::new()), Next::NotWorse);
    }

    #[test]
    fn skipped_builds_are_stepped_around_and_named_when_they_hide_the_answer() {
        let skipped: BTreeSet<usize> = [4, 5].into_iter().collect();
        let (found, _) = search(9, 7, &skipped);
        assert_eq!(
            found,
            Next::Found {
                first_bad: 7,
                untested: vec![]
            }
        );
        // Build 5 is the first bad one, but it does not build: 4 and 5 lie between the
        // last good (3) and the first bad tested (6).
        let (found, _) = search(9, 5, &skipped);
        assert_eq!(
            found,
            Next::Found {
                first_bad: 6,
                untested: vec![4, 5]
            }
        );
    }
}
