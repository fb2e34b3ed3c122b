//! Text that others wrote (a worker's name, its reason to refuse a run), made safe to
//! print on a terminal: a control character is shown as its escape (`\n`, `\u{1b}`), so
//! that nobody can move the cursor, clear the screen or forge a line of the output.

use std::borrow::Cow;

/// `text` with every control character escaped; the text itself when it has none.
#[must_use]
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_shown_as_escapes() {
        assert_eq!(printable("w1"), "w1");
        assert_eq!(printable("héllo 象棋"), "héllo 象棋");
        assert_eq!(
            printable("evil\u{1b}[2J\nWorkers:\r\u{7}\u{9b}x"),
            "evil\\u{1b}[2J\\nWorkers:\\r\\u{7}\\u{9b}x"
        );
        assert!(!printable("a\tb\u{0}").chars().any(char::is_control));
    }
}
