//! The lexical side of PGN: a line at a time, what is at the top level of the movetext
//! (tags, words) once comments (`{...}`, `; ...`), variations (`(...)`, nested), NAGs
//! (`$12`) and escape lines (`%...`) are taken out. Comments and variations may run over
//! several lines; the scanner remembers where it is between lines.

/// Something the scanner found at the top level of a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Event<'a> {
    /// `[Name "value"]`.
    Tag {
        name: String,
        value: String,
        column: usize,
    },
    /// A tag that is not `[Name "value"]`; the rest of the line is skipped.
    BadTag { text: String },
    /// A word of the movetext: a move, a move number or a result.
    Word { text: &'a str, column: usize },
    /// The start of a comment or variation (it may begin a game).
    Aside { column: usize },
    /// A `)` without its `(`.
    Unmatched { column: usize },
}

/// Where the scanner is between lines.
#[derive(Debug, Default, Clone)]
pub(super) struct Scanner {
    /// In a `{` comment, opened on this line.
    comment: Option<usize>,
    /// Open variations, and the line the outermost opened on.
    depth: usize,
    variation_line: usize,
}

/// Characters that end a word.
fn ends_word(c: char) -> bool {
    c.is_whitespace() || matches!(c, '{' | '}' | '(' | ')' | '[' | ']' | ';')
}

impl Scanner {
    /// The comment or variation still open at the end of the file, if any: (what, line).
    pub(super) fn unclosed(&self) -> Option<(&'static str, usize)> {
        match (self.comment, self.depth) {
            (Some(line), _) => Some(("comment", line)),
            (None, d) if d > 0 => Some(("variation", self.variation_line)),
            _ => None,
        }
    }

    /// Forgets an open comment or variation (after it was reported).
    pub(super) fn reset(&mut self) {
        *self = Scanner::default();
    }

    /// Scans `text` (line `line`) from byte `from`, calling `on` for each top-level event.
    pub(super) fn scan<'a>(
        &mut self,
        text: &'a str,
        line: usize,
        from: usize,
        mut on: impl FnMut(Event<'a>),
    ) {
        if from == 0 && self.comment.is_none() && text.starts_with('%') {
            return; // an escape line
        }
        let mut rest = text
            .char_indices()
            .skip_while(|&(i, _)| i < from)
            .peekable();
        while let Some((i, c)) = rest.next() {
            if self.comment.is_some() {
                if c == '}' {
                    self.comment = None;
                }
                continue;
            }
            match c {
                '{' => {
                    if self.depth == 0 {
                        on(Event::Aside { column: i });
                    }
                    self.comment = Some(line);
                }
                ';' => {
                    if self.depth == 0 {
                        on(Event::Aside { column: i });
                    }
                    return; // the rest of the line is a comment
                }
                '(' => {
                    if self.depth == 0 {
                        on(Event::Aside { column: i });
                        self.variation_line = line;
                    }
                    self.depth += 1;
                }
                ')' if self.depth > 0 => self.depth -= 1,
                ')' => on(Event::Unmatched { column: i }),
                _ if self.depth > 0 || c.is_whitespace() => {}
                '[' => match tag(&text[i..]) {
                    Some((name, value, len)) => {
                        on(Event::Tag {
                            name,
                            value,
                            column: i,
                        });
                        while rest.peek().is_some_and(|&(j, _)| j < i + len) {
                            rest.next();
                        }
                    }
                    None => {
                        on(Event::BadTag {
                            text: text[i..].trim_end().to_owned(),
                        });
                        return;
                    }
                },
                _ => {
                    let mut end = text.len();
                    while let Some(&(j, d)) = rest.peek() {
                        if ends_word(d) {
                            end = j;
                            break;
                        }
                        rest.next();
                    }
                    let word = &text[i..end];
                    // NAGs ($12) say how good a move is: nothing to play.
                    let nag = word.len() > 1
                        && word.starts_with('$')
                        && word[1..].bytes().all(|b| b.is_ascii_digit());
                    if !nag {
                        on(Event::Word {
                            text: word,
                            column: i,
                        });
                    }
                }
            }
        }
    }
}

/// Reads `[Name "value"]` at the start of `text`: the name, the value (with `\"` and
/// `\\` unescaped) and the length in bytes; `None` when it is not a tag.
fn tag(text: &str) -> Option<(String, String, usize)> {
    let inner = text.strip_prefix('[')?;
    let name_len = inner
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(inner.len());
    let name = &inner[..name_len];
    if name.is_empty() {
        return None;
    }
    let after = inner[name_len..].trim_start();
    let mut chars = after.strip_prefix('"')?.char_indices();
    let mut value = String::new();
    let close = loop {
        let (i, c) = chars.next()?;
        match c {
            '"' => break i,
            '\\' => value.push(chars.next()?.1),
            other => value.push(other),
        }
    };
    let tail = &after[1 + close + 1..];
    let end = tail.trim_start().strip_prefix(']')?;
    Some((name.to_owned(), value, text.len() - end.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn events(scanner: &mut Scanner, text: &str) -> Vec<String> {
        let mut out = Vec::new();
        scanner.scan(text, 1, 0, |e| {
            out.push(match e {
                Event::Tag { name, value, .. } => format!("tag {name}={value}"),
                Event::BadTag { text } => format!("bad {text}"),
                Event::Word { text, column } => format!("{text}@{column}"),
                Event::Aside { column } => format!("aside@{column}"),
                Event::Unmatched { column } => format!("unmatched@{column}"),
            });
        });
        out
    }

    #[test]
    fn tags_words_and_what_is_skipped() {
        let mut s = Scanner::default();
        assert_eq!(
            events(&mut s, r#"[Event "a \"b\" c"] [Format "WXF"]"#),
            ["tag Event=a \"b\" c", "tag Format=WXF"]
        );
        assert_eq!(
            events(
                &mut s,
                "1. h2e2 $1 {best (x)} h9g7 (1... b9c7 (2. x)) ; rest"
            ),
            ["1.@0", "h2e2@3", "aside@11", "h9g7@22", "aside@27", "aside@46"]
        );
        assert_eq!(events(&mut s, "% escape line h2e2"), Vec::<String>::new());
        assert_eq!(events(&mut s, "[Bad value]"), ["bad [Bad value]"]);
        assert_eq!(events(&mut s, ") 1-0"), ["unmatched@0", "1-0@2"]);
    }

    #[test]
    fn comments_and_variations_run_over_lines() {
        let mut s = Scanner::default();
        assert_eq!(
            events(&mut s, "1. h2e2 { a long"),
            ["1.@0", "h2e2@3", "aside@8"]
        );
        assert_eq!(s.unclosed(), Some(("comment", 1)));
        assert_eq!(events(&mut s, "comment } h9g7 ("), ["h9g7@10", "aside@15"]);
        assert_eq!(s.unclosed(), Some(("variation", 1)));
        assert_eq!(events(&mut s, "2. x ) *"), ["*@7"]);
        assert_eq!(s.unclosed(), None);
    }
}
