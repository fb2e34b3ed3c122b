//! What to tell a user whose engine does not finish the handshake: what it printed, and
//! which protocol it seems to speak.
//!
//! A UCI engine sent `ucci` (the default) answers, in the Stockfish family (Pikafish,
//! Fairy-Stockfish builds without UCCI), `Unknown command: 'ucci'. Type help for more
//! information.` and waits; a UCCI engine sent `uci` usually stays silent. Such an
//! unknown-command line, or the other protocol's `ucciok`/`uciok`, ends the handshake
//! at once; a banner, `id` or `option` lines do not (real engines print them first).

use std::collections::VecDeque;

use super::protocol::Protocol;

/// How many of the engine's last lines an error shows.
const KEPT: usize = 4;
/// How many characters of each.
const WIDTH: usize = 60;

/// The last lines an engine printed, shortened.
#[derive(Clone, Debug, Default)]
pub struct Recent {
    lines: VecDeque<String>,
}

impl Recent {
    /// Remembers a line (blank lines are skipped).
    pub fn push(&mut self, line: &str) {
        let line = line.trim();
        if line.is_empty() {
            return;
        }
        if self.lines.len() == KEPT {
            self.lines.pop_front();
        }
        let mut short: String = line.chars().take(WIDTH).collect();
        if line.chars().count() > WIDTH {
            short.push_str("...");
        }
        self.lines.push_back(short);
    }

    /// `it printed nothing` or `its last lines: `a` | `b``.
    #[must_use]
    pub fn describe(&self) -> String {
        if self.lines.is_empty() {
            return "it printed nothing".to_owned();
        }
        let quoted: Vec<String> = self.lines.iter().map(|l| format!("`{l}`")).collect();
        let what = if self.lines.len() == 1 {
            "it printed"
        } else {
            "its last lines:"
        };
        format!("{what} {}", quoted.join(" | "))
    }

    fn any(&self, test: impl Fn(&str) -> bool) -> bool {
        self.lines.iter().any(|l| test(l))
    }
}

/// Whether `line` shows at once that the engine does not speak `protocol`.
#[must_use]
pub fn refuses(protocol: Protocol, line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    match protocol {
        Protocol::Ucci if first == "uciok" => true,
        Protocol::Uci if first == "ucciok" => true,
        _ => unknown_command(line, protocol.hello().0),
    }
}

/// `Unknown command: 'ucci'` and its variants (any line that says "unknown" and names
/// the command as a word).
fn unknown_command(line: &str, command: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    lower.contains("unknown")
        && lower
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|word| word == command)
}

/// Whether the lines look like the other protocol: its hello answer, an unknown-command
/// line for our hello, or options written its way (UCI: `option name X type ...`;
/// UCCI: `option X type ...`).
fn looks_like(other: Protocol, recent: &Recent) -> bool {
    let (_, answer) = other.hello();
    let ours = match other {
        Protocol::Uci => Protocol::Ucci,
        Protocol::Ucci => Protocol::Uci,
    };
    recent.any(|l| {
        let mut words = l.split_whitespace();
        let first = words.next().unwrap_or("");
        let second = words.next().unwrap_or("");
        first == answer
            || unknown_command(l, ours.hello().0)
            || (first == "option"
                && match other {
                    Protocol::Uci => second == "name",
                    Protocol::Ucci => second != "name" && l.contains(" type "),
                })
    })
}

/// The advice after a failed handshake in `protocol`: the other protocol, firmly when
/// the lines look like it, as a question when the engine printed nothing or only
/// other lines.
#[must_use]
pub fn advice(protocol: Protocol, recent: &Recent) -> String {
    let other = match protocol {
        Protocol::Ucci => Protocol::Uci,
        Protocol::Uci => Protocol::Ucci,
    };
    let name = other.to_string().to_ascii_uppercase();
    if looks_like(other, recent) {
        format!("it looks like a {name} engine: set protocol = \"{other}\" for it")
    } else {
        format!("if it is a {name} engine, set protocol = \"{other}\" for it")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recent(lines: &[&str]) -> Recent {
        let mut r = Recent::default();
        for l in lines {
            r.push(l);
        }
        r
    }

    #[test]
    fn a_uci_engine_is_recognised() {
        let sf = "Unknown command: 'ucci'. Type help for more information.";
        assert!(refuses(Protocol::Ucci, sf));
        assert!(refuses(Protocol::Ucci, "uciok"));
        assert!(advice(Protocol::Ucci, &recent(&["Pikafish 2024", sf]))
            .starts_with("it looks like a UCI engine"));
        assert!(advice(
            Protocol::Ucci,
            &recent(&["option name Hash type spin default 16"])
        )
        .starts_with("it looks like"));
        // A banner is no reason to stop, nor proof.
        assert!(!refuses(
            Protocol::Ucci,
            "ElephantEye 3.31 by Morning Yellow"
        ));
        assert!(advice(Protocol::Ucci, &recent(&["Banner"])).starts_with("if it is a UCI engine"));
    }

    #[test]
    fn a_ucci_engine_is_recognised() {
        assert!(refuses(Protocol::Uci, "ucciok"));
        assert!(!refuses(Protocol::Uci, "uciok"));
        assert!(
            advice(Protocol::Uci, &recent(&["option usemillisec type check"]))
                .starts_with("it looks like a UCCI engine")
        );
        assert!(advice(Protocol::Uci, &recent(&[])).starts_with("if it is a UCCI engine"));
        // "ucci" in an unknown-command line for UCI is not "uci".
        assert!(!refuses(Protocol::Uci, "unknown command ucci"));
    }

    #[test]
    fn lines_are_kept_short_and_few() {
        let long = "x".repeat(500);
        let r = recent(&["a", "b", "c", "d", "e", &long]);
        let text = r.describe();
        assert!(!text.contains("`a`") && !text.contains("`b`") && text.contains("`c`"));
        assert!(text.len() < 200, "{text}");
        assert_eq!(Recent::default().describe(), "it printed nothing");
    }
}
