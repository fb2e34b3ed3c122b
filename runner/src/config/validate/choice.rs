//! A key that takes one of a few names.

use super::problem;
use crate::config::plan::Problem;

/// The value of the name at `key` among `names`, or `default` when the key is left out;
/// an unknown name is a problem saying what was `expected` (`iccs or wxf`).
pub(super) fn choice<T: Copy>(
    key: &str,
    name: Option<&str>,
    default: T,
    names: &[(&str, T)],
    expected: &str,
) -> Result<T, Problem> {
    let Some(name) = name else {
        return Ok(default);
    };
    if let Some((_, value)) = names.iter().find(|(n, _)| *n == name) {
        return Ok(*value);
    }
    Err(problem(key, format!("`{name}`: expected {expected}")))
}
