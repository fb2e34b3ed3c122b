//! A config table written as a TOML file a person would write: the sections in the order
//! of the shipped configs, the usual keys first, nested tables inline
//! (`options = { hashsize = "16" }`), `[[engine]]` last.

use std::fmt::Write as _;

use toml::{Table, Value};

/// Sections and the order of their keys (others follow in alphabetical order).
const SECTIONS: &[(&str, &[&str])] = &[
    (
        "tournament",
        &["kind", "pairs", "games", "concurrency", "seed", "event"],
    ),
    ("time", &["tc", "movetime", "depth", "nodes", "margin"]),
    (
        "openings",
        &["file", "format", "order", "seed", "start", "plies"],
    ),
    (
        "rules",
        &["ruleset", "move_limit", "limit_counting", "banmoves"],
    ),
    ("adjudication", &["draw", "resign", "max_plies"]),
    ("sprt", &["elo0", "elo1", "alpha", "beta", "model"]),
    ("faults", &[]),
    (
        "output",
        &[
            "dir",
            "report_interval",
            "pgn_format",
            "pgnout",
            "pgnout_append",
        ],
    ),
];

const ENGINE_KEYS: &[&str] = &[
    "name",
    "command",
    "protocol",
    "coordinates",
    "dir",
    "restart",
    "options",
    "time",
    "env",
];

/// A key as TOML writes it: bare when it can be.
fn key(name: &str) -> String {
    if !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        name.to_owned()
    } else {
        Value::String(name.to_owned()).to_string()
    }
}

fn write_keys(out: &mut String, table: &Table, first: &[&str]) {
    let mut names: Vec<&String> = table.keys().collect();
    names.sort_by_key(|k| {
        (
            first.iter().position(|f| f == k).unwrap_or(first.len()),
            (*k).clone(),
        )
    });
    for name in names {
        let _ = writeln!(out, "{} = {}", key(name), table[name]);
    }
}

/// The table as TOML text.
#[must_use]
pub fn config_text(table: &Table) -> String {
    let mut out = String::new();
    for (section, first) in SECTIONS {
        if let Some(Value::Table(t)) = table.get(*section) {
            let _ = writeln!(out, "[{section}]");
            write_keys(&mut out, t, first);
            out.push('\n');
        }
    }
    // Anything else at the top (there is nothing else today; kept, not lost).
    for (name, value) in table {
        if SECTIONS.iter().any(|(s, _)| s == name) || name == "engine" {
            continue;
        }
        match value {
            Value::Table(t) => {
                let _ = writeln!(out, "[{}]", key(name));
                write_keys(&mut out, t, &[]);
                out.push('\n');
            }
            other => {
                let _ = writeln!(out, "{} = {other}\n", key(name));
            }
        }
    }
    if let Some(Value::Array(engines)) = table.get("engine") {
        for engine in engines {
            if let Value::Table(t) = engine {
                out.push_str("[[engine]]\n");
                write_keys(&mut out, t, ENGINE_KEYS);
                out.push('\n');
            }
        }
    }
    out.trim_end().to_owned() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_sections_in_order_and_reads_back() {
        let text = "[output]\ndir = \"o\"\n[tournament]\nseed = 1\nkind = \"match\"\n[adjudication]\ndraw = { score = 10, move_count = 8, move_number = 40 }\n[[engine]]\ncommand = [\"a\"]\nname = \"x\"\noptions = { \"Skill Level\" = \"5\" }\n";
        let table: Table = text.parse().expect("toml");
        let written = config_text(&table);
        assert!(
            written.starts_with("[tournament]\nkind = \"match\"\nseed = 1\n"),
            "{written}"
        );
        assert!(
            written.contains("draw = { move_count = 8, move_number = 40, score = 10 }"),
            "{written}"
        );
        assert!(
            written.contains("[[engine]]\nname = \"x\"\ncommand = [\"a\"]\n"),
            "{written}"
        );
        assert!(written.find("[adjudication]") < written.find("[output]"));
        let back: Table = written.parse().expect("reads back");
        assert_eq!(back, table);
    }
}
