//! Who submits a run, as the pages and `status` name them: `--submitter NAME`, else the
//! OS user and the machine (`user@host`). One line of at most [`MAX_SUBMITTER`]
//! characters, as the database's check (`schema_v7.sql`) takes it.

use nix::unistd::{Uid, User};

/// The longest submitter name (`xq.runs.submitter`'s check).
pub const MAX_SUBMITTER: usize = 100;

/// `--submitter`'s value, checked.
///
/// # Errors
/// One line: blank, a control character, or too long.
pub fn given(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("--submitter: a name, not blank".to_owned());
    }
    if name.chars().any(char::is_control) {
        return Err("--submitter: one line, without control characters".to_owned());
    }
    let length = name.chars().count();
    if length > MAX_SUBMITTER {
        return Err(format!(
            "--submitter: {length} characters: at most {MAX_SUBMITTER}"
        ));
    }
    Ok(name.to_owned())
}

/// `user@host` of this process; `None` when neither is known. The user is the account
/// of the process's uid (not `$USER`, which any caller sets), the host the kernel's.
#[must_use]
pub fn this_machine() -> Option<String> {
    let user = User::from_uid(Uid::current())
        .ok()
        .flatten()
        .map(|u| u.name)
        .unwrap_or_else(|| Uid::current().to_string());
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_owned())
        .unwrap_or_default();
    let both = if host.is_empty() {
        user
    } else {
        format!("{user}@{host}")
    };
    // A name the check refuses is no name.
    given(&both).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_submitter_is_one_bounded_line() {
        assert_eq!(given(" ann ").ok().as_deref(), Some("ann"));
        assert!(given("").is_err());
        assert!(given("a\nb").is_err());
        assert!(given(&"x".repeat(MAX_SUBMITTER + 1)).is_err());
        assert!(this_machine().is_some_and(|m| !m.is_empty()));
    }
}
