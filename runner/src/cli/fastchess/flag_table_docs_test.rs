//! `docs/fastchess-flags.md` against the flag table and the translator: the doc's table
//! is the table's rows as Markdown, its list of refusals is [`REFUSED`], and every flag
//! of the table reaches an arm of the translator (none is "unknown"). A flag added to the
//! code without the table, or to the table without the doc, fails here.

use super::args::Flag;
use super::flag_table::{is_known, known_flags, markdown, MODES, REFUSED, ROWS};
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
    let outside_parentheses: String = paragraph
        .split('(')
        .map(|part| part.split_once(')').map_or(part, |(_, after)| after))
        .collect();
    let mut documented: Vec<&str> = outside_parentheses
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
