//! `docs/fastchess-flags.md` against the flag table and the translator: the doc's table
//! is the table's rows as Markdown, its list of refusals is [`REFUSED`], every flag of
//! the table reaches an arm of the translator (none is "unknown"), and each row's example
//! sets the config keys the row names; `-help`'s text names only flags the table reads,
//! and every flag and parameter of a row that sets a key. A flag added to the code
//! without the table, to the table without the doc, or a key that the code and the
//! table name differently, fails here.

use super::args::{split, Flag};
use super::flag_table::{is_known, known_flags, markdown, Row, MODES, REFUSED, ROWS};
use super::translate::translate;

/// The doc, read from the repository.
const DOC: &str = include_str!("../../../../docs/fastchess-flags.md");

/// The lines of the doc's flag table, header and separator left out.
fn doc_rows() -> Vec<&'static str> {
    DOC.lines()
        .skip_while(|line| *line != "| flag | TOML key | notes |")
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .collect()
}

/// The translator's verdict on a flag given alone, without parameters.
fn verdict(name: &str) -> Result<(), String> {
    let flag = Flag {
        name: name.to_owned(),
        params: Vec::new(),
    };
    translate(&[flag]).map(|_| ())
}

/// `text` without what it says in parentheses.
fn outside_parentheses(text: &str) -> String {
    text.split('(')
        .enumerate()
        .map(|(i, part)| match part.split_once(')') {
            Some((_, after)) if i > 0 => after,
            _ => part,
        })
        .collect()
}

/// The config keys a row names: its key column's words in backticks that are dotted
/// keys (up to a space or `=`), outside parentheses, the engine's `N` as engine 0.
fn named_keys(row: &Row) -> Vec<String> {
    outside_parentheses(row.key)
        .split('`')
        .skip(1)
        .step_by(2)
        .filter_map(|span| {
            let key = span.split([' ', '=']).next()?;
            let dotted = key.contains('.')
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
            dotted.then(|| key.replace("engine.N.", "engine.0."))
        })
        .collect()
}

#[test]
fn each_row_example_sets_the_keys_the_row_names() {
    for row in ROWS {
        let keys = named_keys(row);
        if keys.is_empty() {
            continue;
        }
        assert!(!row.example.is_empty(), "{}: no example", row.usage);
        // A run needs a time control; the rows about one give their own.
        let limits = ["tc=", "st=", "nodes=", "depth="];
        let gives_limit = row.example.starts_with("-each")
            && row
                .example
                .split_whitespace()
                .any(|word| limits.iter().any(|limit| word.starts_with(limit)));
        let clock = if gives_limit { "" } else { "-each tc=10+0.1" };
        let line = format!("-engine cmd=a -engine cmd=b {clock} {}", row.example);
        let words: Vec<String> = line.split_whitespace().map(str::to_owned).collect();
        let flags = split(&words).unwrap_or_else(|e| panic!("{line}: {e}"));
        let translation = translate(&flags).unwrap_or_else(|e| panic!("{line}: {e}"));
        let set: Vec<&str> = translation
            .overrides
            .iter()
            .filter_map(|o| o.assignment.split_once('=').map(|(key, _)| key))
            .collect();
        for key in keys {
            assert!(
                set.iter()
                    .any(|s| *s == key || s.starts_with(&format!("{key}."))),
                "{}: `{line}` does not set {key} (it sets {set:?})",
                row.usage
            );
        }
    }
}

#[test]
fn the_doc_table_is_the_flag_table() {
    let expected: Vec<String> = ROWS.iter().map(markdown).collect();
    assert_eq!(
        doc_rows(),
        expected,
        "docs/fastchess-flags.md's table should read:\n{}",
        expected.join("\n")
    );
}

#[test]
fn the_doc_refuses_the_flags_the_table_refuses() {
    let paragraph = DOC
        .split("Refused with a reason:")
        .nth(1)
        .and_then(|rest| rest.split("; engine keys").next())
        .expect("the doc's list of refused flags");
    // The flags, not the advice in parentheses (`-config` (use `--print-config` ...)).
    let flags = outside_parentheses(paragraph);
    let mut documented: Vec<&str> = flags
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| word.starts_with('-'))
        .collect();
    let mut refused: Vec<&str> = REFUSED.iter().map(|(flag, _)| *flag).collect();
    documented.sort_unstable();
    refused.sort_unstable();
    assert_eq!(documented, refused);
}

#[test]
fn every_row_names_its_flags_and_the_doc_names_the_modes() {
    for row in ROWS {
        for flag in row.flags {
            assert!(
                row.usage.contains(&format!("`{flag}")),
                "{flag}: {}",
                row.usage
            );
        }
    }
    for mode in MODES {
        assert!(
            DOC.contains(&format!("`{mode}`")),
            "{mode} is not in the doc"
        );
    }
}

#[test]
fn every_flag_of_the_table_is_read_and_no_other() {
    for flag in known_flags() {
        if let Err(error) = verdict(flag) {
            assert!(!error.contains("unknown flag"), "{flag}: {error}");
        }
    }
    for (flag, why) in REFUSED {
        assert!(!is_known(flag), "{flag} is both read and refused");
        assert_eq!(verdict(flag), Err(format!("{flag}: {why}")));
    }
    assert_eq!(
        verdict("-enigne"),
        Err("-enigne: unknown flag (did you mean -engine?)".to_owned())
    );
    assert_eq!(
        verdict("-nosuchflag"),
        Err("-nosuchflag: unknown flag (xq-runner -help lists them)".to_owned())
    );
}

/// The words of `-help`'s text, without the punctuation around them.
fn help_words() -> Vec<&'static str> {
    super::HELP
        .split_whitespace()
        .map(|word| word.trim_matches(|c| matches!(c, '(' | ')' | ',')))
        .collect()
}

/// The `key=` parameters a row's usage writes (`name=NAME` gives `name=`).
fn parameters(row: &Row) -> Vec<&'static str> {
    row.usage
        .split('`')
        .skip(1)
        .step_by(2)
        .flat_map(str::split_whitespace)
        .filter_map(|word| {
            let (key, _) = word.split_once('=')?;
            let plain = !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
            plain.then(|| &word[..=key.len()])
        })
        .collect()
}

#[test]
fn the_help_names_only_flags_the_table_reads_and_every_one_that_sets_a_key() {
    let words = help_words();
    for word in &words {
        let flag = word.starts_with('-')
            && word[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '-');
        if flag {
            assert!(
                is_known(word),
                "-help names {word}, which the table does not read"
            );
        }
    }
    // Rows without a key (flags accepted as no-ops, `-quick`, `-help`) may be left out.
    for row in ROWS.iter().filter(|row| !row.key.is_empty()) {
        for flag in row.flags {
            assert!(words.contains(flag), "-help does not name {flag}");
        }
        for parameter in parameters(row) {
            assert!(
                words.iter().any(|word| word.starts_with(parameter)),
                "-help does not name {parameter} ({})",
                row.usage
            );
        }
    }
}
