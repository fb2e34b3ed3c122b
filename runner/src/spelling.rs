//! The closest of known names to one that is not known, for a "did you mean" (an
//! unknown fastchess flag, a tune parameter that is not one of the engine's options).

/// The edit distance of two strings (insertions, deletions and substitutions of one
/// character each).
#[must_use]
pub(crate) fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, &cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The known name closest to `name` ignoring case, if a slip of the keys could have
/// made one from the other: at most a third of its letters (and at least two) changed.
#[must_use]
pub(crate) fn closest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let within = (name.chars().count() / 3).max(2);
    known
        .into_iter()
        .map(|k| (levenshtein(&lower, &k.to_lowercase()), k))
        .min_by_key(|&(d, _)| d)
        .filter(|&(d, _)| d <= within)
        .map(|(_, k)| k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_single_character_edits() {
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("", "abc"), 3);
        assert_eq!(levenshtein("same", "same"), 0);
    }

    #[test]
    fn the_closest_name_within_a_third_of_its_letters() {
        let known = ["FutilityMargin", "FutilityMaxDepth", "RfpMargin", "Hash"];
        assert_eq!(closest("FutilityMargn", known), Some("FutilityMargin"));
        assert_eq!(closest("futility_margin", known), Some("FutilityMargin"));
        assert_eq!(closest("hahs", known), Some("Hash"));
        assert_eq!(closest("Contempt", known), None);
    }
}
