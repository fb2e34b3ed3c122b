//! fastchess's command line as words: flags (`-engine`) each with the words that follow
//! it up to the next flag, and `key=value` parameters. A word starting with `-` ends a
//! flag's parameters unless it is a negative number (`-concurrency -2`), as in fastchess.

/// One flag and its parameters, as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Flag {
    /// With its dash: `-engine`.
    pub name: String,
    pub params: Vec<String>,
}

impl Flag {
    /// The flag as the user typed it, for error lines: `-rounds 500`.
    #[must_use]
    pub fn shown(&self) -> String {
        let mut out = self.name.clone();
        for p in &self.params {
            out.push(' ');
            out.push_str(p);
        }
        out
    }

    /// The flag with one of its parameters: `-engine tc=10+0.1`.
    #[must_use]
    pub fn with(&self, param: &str) -> String {
        format!("{} {param}", self.name)
    }

    /// The parameters as `key=value` pairs.
    ///
    /// # Errors
    /// A parameter without `=`, or with an empty key or value.
    pub fn pairs(&self) -> Result<Vec<(&str, &str)>, String> {
        self.params
            .iter()
            .map(|p| match p.split_once('=') {
                Some((k, v)) if !k.is_empty() && !v.is_empty() => Ok((k, v)),
                _ => Err(format!(
                    "{}: expected key=value parameters, got `{p}`",
                    self.name
                )),
            })
            .collect()
    }

    /// The one value of a flag like `-rounds 500`.
    ///
    /// # Errors
    /// No value, or more than one.
    pub fn single(&self) -> Result<&str, String> {
        match self.params.as_slice() {
            [one] => Ok(one),
            [] => Err(format!("{}: expects a value", self.name)),
            _ => Err(format!(
                "{}: expects one value, got `{}`",
                self.shown(),
                self.params.join(" ")
            )),
        }
    }

    /// Nothing after a flag like `-repeat`... that takes none.
    ///
    /// # Errors
    /// Any parameter.
    pub fn none(&self) -> Result<(), String> {
        if self.params.is_empty() {
            Ok(())
        } else {
            Err(format!("{}: takes no value", self.shown()))
        }
    }
}

/// Whether a word starts a flag: a dash and a letter (or a second dash), not a number.
#[must_use]
pub fn is_flag(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next() == Some('-')
        && chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '-')
}

/// Splits the words of a command line into flags.
///
/// # Errors
/// A first word that is not a flag.
pub fn split(words: &[String]) -> Result<Vec<Flag>, String> {
    let mut flags: Vec<Flag> = Vec::new();
    for word in words {
        if is_flag(word) {
            flags.push(Flag {
                name: word.clone(),
                params: Vec::new(),
            });
        } else {
            match flags.last_mut() {
                Some(flag) => flag.params.push(word.clone()),
                None => return Err(format!("`{word}`: expected a flag like -engine")),
            }
        }
    }
    Ok(flags)
}

/// Splits `args="a b 'c d'"` into words as a shell would: spaces separate, quotes
/// group, a backslash escapes the next character outside single quotes.
///
/// # Errors
/// A quote that is not closed.
pub fn shell_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a ' is not closed".to_owned()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => word.push(c),
                            None => return Err("a \" is not closed".to_owned()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("a \" is not closed".to_owned()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(c) = chars.next() {
                    word.push(c);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// A word quoted for a shell when it needs it (for the header of `--print-config`).
#[must_use]
pub fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=./:+,%@".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(text: &str) -> Vec<String> {
        text.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn flags_take_the_words_up_to_the_next_flag() {
        let flags = split(&words(
            "-engine cmd=a name=b -concurrency -2 -repeat -rounds 5",
        ))
        .expect("split");
        let shown: Vec<String> = flags.iter().map(Flag::shown).collect();
        assert_eq!(
            shown,
            [
                "-engine cmd=a name=b",
                "-concurrency -2",
                "-repeat",
                "-rounds 5"
            ]
        );
        assert!(split(&words("500 -rounds")).is_err());
        assert_eq!(flags[0].pairs(), Ok(vec![("cmd", "a"), ("name", "b")]));
        assert!(flags[3].none().is_err() && flags[2].none().is_ok());
        assert_eq!(flags[1].single(), Ok("-2"));
    }

    #[test]
    fn shell_words_group_quotes() {
        assert_eq!(
            shell_words(r#"--threads 2 "a b" 'c "d"' e\ f"#),
            Ok(vec![
                "--threads".into(),
                "2".into(),
                "a b".into(),
                "c \"d\"".into(),
                "e f".into()
            ])
        );
        assert!(shell_words("'open").is_err());
        assert_eq!(shell_quote("tc=10+0.1"), "tc=10+0.1");
        assert_eq!(shell_quote("name=my engine"), "'name=my engine'");
    }
}
