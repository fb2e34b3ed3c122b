//! Which of the options the runner sets an engine never announced in its handshake.
//! Such an option is most likely a typo or another engine's (Pikafish logs `No such
//! option: Repetition Rule` and plays on), so the run warns, as fastchess does.
//!
//! Names are compared without regard to ASCII case: UCI engines of the Stockfish family
//! match option names so, and UCCI's names are lowercase words that some configs
//! capitalise. Only the config's options are checked: `usemillisec` and `newgame`,
//! which the runner sends itself as UCCI's protocol, are not the user's to fix.

/// The option name of an `option ...` line: UCI's `option name Clear Hash type button`
/// and UCCI's `option hashsize type spin ...` (some UCCI engines write `name` too).
/// `None` for a line that names no option.
#[must_use]
pub fn announced_name(line: &str) -> Option<String> {
    let mut words = line.split_whitespace().peekable();
    if words.next() != Some("option") {
        return None;
    }
    words.next_if_eq(&"name");
    let name: Vec<&str> = words.take_while(|w| *w != "type").collect();
    (!name.is_empty()).then(|| name.join(" "))
}

/// The names of `set` that no line of `announced` names, in the order given.
pub fn unannounced<'a>(
    announced: &[String],
    set: impl IntoIterator<Item = &'a str>,
) -> Vec<String> {
    let names: Vec<String> = announced.iter().filter_map(|l| announced_name(l)).collect();
    set.into_iter()
        .filter(|wanted| {
            // As the engine compares: the words of the name, whatever the spaces.
            let wanted: Vec<&str> = wanted.split_whitespace().collect();
            !names.iter().any(|n| {
                let n: Vec<&str> = n.split_whitespace().collect();
                n.len() == wanted.len()
                    && n.iter()
                        .zip(&wanted)
                        .all(|(a, b)| a.eq_ignore_ascii_case(b))
            })
        })
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[&str]) -> Vec<String> {
        text.iter().map(|&l| l.to_owned()).collect()
    }

    #[test]
    fn names_are_read_in_both_dialects() {
        assert_eq!(
            announced_name("option name Clear Hash type button").as_deref(),
            Some("Clear Hash")
        );
        assert_eq!(
            announced_name("option hashsize type spin min 1 max 1024 default 16").as_deref(),
            Some("hashsize")
        );
        assert_eq!(
            announced_name("option name usebook type check default true").as_deref(),
            Some("usebook")
        );
        assert_eq!(announced_name("option type spin"), None);
        assert_eq!(announced_name("info string option x"), None);
    }

    #[test]
    fn an_option_is_unknown_only_when_no_name_matches_it_in_any_case() {
        let uci = lines(&[
            "option name Hash type spin default 16 min 1 max 33554432",
            "option name Repetition Rule type combo default AsianRule var AsianRule var ChineseRule",
            "option name EvalFile type string default pikafish.nnue",
        ]);
        let set = ["hash", "Repetition  Rule", "Threads", "Foo"];
        assert_eq!(unannounced(&uci, set), ["Threads", "Foo"]);
        let ucci = lines(&[
            "option usemillisec type check default false",
            "option hashsize type spin",
        ]);
        assert_eq!(unannounced(&ucci, ["HashSize", "usebook"]), ["usebook"]);
        assert_eq!(
            unannounced(&[], ["x"]),
            ["x"],
            "an engine that announces nothing"
        );
    }
}
