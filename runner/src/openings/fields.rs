//! The fields after the first `;` of a line: `key "value"` or `key value`,
//! separated by `;`, up to the end of the line or a `#` comment.
//!
//! As in EPD, unknown keys are kept, empty fields (`;;`, a trailing `;`) are
//! allowed, and malformed syntax is rejected with its column. Inside quotes `\"`
//! is a quote and `\\` a backslash; `#` and `;` are plain characters there.

use std::collections::BTreeMap;

use super::error::{FieldError, LineError};

/// The fields of one line: the two the project knows, and all others.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fields {
    /// `name`: a human name of the opening.
    pub name: Option<String>,
    /// `eco`: the ECCO code (`A00`..`E99`).
    pub eco: Option<String>,
    /// Every other key, kept as written.
    pub other: BTreeMap<String, String>,
}

/// Parses the fields of `line` starting at byte `start` (a `;`).
///
/// # Errors
/// [`LineError::UnterminatedQuote`] or [`LineError::MalformedField`] with the column.
pub fn parse_fields(line: &str, start: usize) -> Result<Fields, LineError> {
    let mut cursor = Cursor { line, pos: start };
    let mut fields = Fields::default();
    loop {
        cursor.skip_whitespace();
        match cursor.peek() {
            None | Some('#') => return Ok(fields),
            Some(';') => cursor.bump(),
            Some(_) => {
                let column = cursor.column();
                let (key, value) = parse_field(&mut cursor)?;
                fields.insert(key, value, column)?;
            }
        }
    }
}

impl Fields {
    fn insert(&mut self, key: String, value: String, column: usize) -> Result<(), LineError> {
        let malformed = |reason| LineError::MalformedField { column, reason };
        let taken = match key.as_str() {
            "name" => self.name.replace(value).is_some(),
            "eco" => {
                if !is_ecco_code(&value) {
                    return Err(malformed(FieldError::BadEco(value)));
                }
                self.eco.replace(value).is_some()
            }
            _ => {
                if self.other.contains_key(&key) {
                    true
                } else {
                    self.other.insert(key.clone(), value);
                    false
                }
            }
        };
        if taken {
            return Err(malformed(FieldError::DuplicateKey(key)));
        }
        Ok(())
    }
}

/// Whether `text` is an ECCO code: a letter `A`..`E` and two digits.
#[must_use]
pub fn is_ecco_code(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 3
        && (b'A'..=b'E').contains(&bytes[0])
        && bytes[1].is_ascii_digit()
        && bytes[2].is_ascii_digit()
}

/// Writes a value so that [`parse_fields`] reads it back: bare when it is a
/// plain token, quoted (with `\"` and `\\` escapes) otherwise.
#[must_use]
pub fn quote_value(value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .chars()
            .all(|c| !c.is_whitespace() && !matches!(c, ';' | '#' | '"' | '\\'));
    if plain {
        return value.to_owned();
    }
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        if matches!(c, '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

fn parse_field(cursor: &mut Cursor<'_>) -> Result<(String, String), LineError> {
    let key_column = cursor.column();
    let key_start = cursor.pos;
    cursor.take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    let key = &cursor.line[key_start..cursor.pos];
    let starts_well = key
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    let after_key = cursor.peek();
    let key_ends = matches!(after_key, None | Some(';' | '#' | '"'))
        || after_key.is_some_and(char::is_whitespace);
    if !starts_well || !key_ends {
        cursor.pos = key_start;
        let token = cursor.take_while(|c| !c.is_whitespace() && !matches!(c, ';' | '#'));
        return Err(LineError::MalformedField {
            column: key_column,
            reason: FieldError::BadKey(token.to_owned()),
        });
    }
    let key = key.to_owned();
    cursor.skip_whitespace();
    let value_column = cursor.column();
    let value = match cursor.peek() {
        None | Some(';' | '#') => {
            return Err(LineError::MalformedField {
                column: key_column,
                reason: FieldError::MissingValue(key),
            })
        }
        Some('"') => cursor
            .quoted()
            .ok_or_else(|| LineError::UnterminatedQuote {
                key: key.clone(),
                column: value_column,
            })?,
        Some(_) => {
            let bare = cursor.take_while(|c| !c.is_whitespace() && !matches!(c, ';' | '#'));
            if bare.contains('"') {
                return Err(LineError::MalformedField {
                    column: value_column,
                    reason: FieldError::StrayQuote(bare.to_owned()),
                });
            }
            bare.to_owned()
        }
    };
    cursor.skip_whitespace();
    if let Some(c) = cursor.peek() {
        if !matches!(c, ';' | '#') {
            let column = cursor.column();
            let text = cursor.take_while(|c| !matches!(c, ';' | '#')).trim_end();
            return Err(LineError::MalformedField {
                column,
                reason: FieldError::TrailingText {
                    key,
                    text: text.to_owned(),
                },
            });
        }
    }
    Ok((key, value))
}

/// A position in the line, on a character boundary.
struct Cursor<'a> {
    line: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn peek(&self) -> Option<char> {
        self.line[self.pos..].chars().next()
    }

    fn bump(&mut self) {
        if let Some(c) = self.peek() {
            self.pos += c.len_utf8();
        }
    }

    /// 1-based character column of the cursor.
    fn column(&self) -> usize {
        self.line[..self.pos].chars().count() + 1
    }

    fn skip_whitespace(&mut self) {
        self.take_while(char::is_whitespace);
    }

    fn take_while(&mut self, keep: impl Fn(char) -> bool) -> &'a str {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if !keep(c) {
                break;
            }
            self.pos += c.len_utf8();
        }
        &self.line[start..self.pos]
    }

    /// Reads a quoted value (the cursor is on its opening quote); `None` when
    /// the line ends first.
    fn quoted(&mut self) -> Option<String> {
        self.bump();
        let mut value = String::new();
        loop {
            let c = self.peek()?;
            self.bump();
            match c {
                '"' => return Some(value),
                '\\' => {
                    let escaped = self.peek()?;
                    self.bump();
                    value.push(escaped);
                }
                _ => value.push(c),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(text: &str) -> Result<Fields, LineError> {
        parse_fields(text, 0)
    }

    #[test]
    fn reads_quoted_and_bare_values_and_keeps_unknown_keys() {
        let f = fields(r#"; name "Central cannon; screen horses #1" ; eco C00;id 7;"#).expect("ok");
        assert_eq!(f.name.as_deref(), Some("Central cannon; screen horses #1"));
        assert_eq!(f.eco.as_deref(), Some("C00"));
        assert_eq!(f.other.get("id").map(String::as_str), Some("7"));
    }

    #[test]
    fn escapes_round_trip() {
        for value in [
            "plain",
            "two words",
            r#"say "hi""#,
            r"back\slash",
            "",
            "a;b#c",
            "中炮",
        ] {
            let text = format!("; k {}", quote_value(value));
            let f = fields(&text).expect("reads back");
            assert_eq!(f.other.get("k").map(String::as_str), Some(value), "{text}");
        }
    }

    #[test]
    fn comment_ends_the_fields() {
        let f = fields("; eco A10 # eco B00 is wrong").expect("ok");
        assert_eq!(f.eco.as_deref(), Some("A10"));
        assert!(f.other.is_empty());
    }

    #[test]
    fn malformed_fields_are_rejected_with_columns() {
        let column = |text: &str| match fields(text) {
            Err(
                LineError::MalformedField { column, .. }
                | LineError::UnterminatedQuote { column, .. },
            ) => column,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(column(r#"; name "open"#), 8);
        assert_eq!(column("; 9lives x"), 3);
        assert_eq!(column("; name"), 3);
        assert_eq!(column("; name x y"), 10);
        assert_eq!(column("; name a\"b"), 8);
        assert_eq!(column("; eco Z99"), 3);
        assert_eq!(column("; eco C01; eco C02"), 12);
        assert_eq!(column("; name! x"), 3);
    }

    #[test]
    fn error_kinds_name_the_problem() {
        assert_eq!(
            fields("; name"),
            Err(LineError::MalformedField {
                column: 3,
                reason: FieldError::MissingValue("name".into())
            })
        );
        assert_eq!(
            fields(r#"; name "x" extra"#),
            Err(LineError::MalformedField {
                column: 12,
                reason: FieldError::TrailingText {
                    key: "name".into(),
                    text: "extra".into()
                }
            })
        );
        assert!(matches!(
            fields(r#"; name "x"#),
            Err(LineError::UnterminatedQuote { .. })
        ));
    }

    #[test]
    fn ecco_codes() {
        assert!(is_ecco_code("A00") && is_ecco_code("E99") && is_ecco_code("C45"));
        assert!(
            !is_ecco_code("F00")
                && !is_ecco_code("c45")
                && !is_ecco_code("C4")
                && !is_ecco_code("C456")
        );
    }
}
