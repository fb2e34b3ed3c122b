//! Finds the line of a key in the TOML text, so validation errors can name it.

use std::ops::Range;

use toml_edit::{ImDocument, Item, Table};

/// A path to a key: `["engine", "1", "command"]` for the command of the second engine.
pub type KeyPath<'a> = &'a [&'a str];

/// The 1-based line of a byte offset of `text`.
#[must_use]
pub fn line_at(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The 1-based line of the key at `path` in `text`, or of its nearest parent present;
/// `None` when the file does not have even its top-level key (a section set by `--set`,
/// or left to its default, has no line to show).
#[must_use]
pub fn line_of(text: &str, path: KeyPath<'_>) -> Option<usize> {
    let doc = ImDocument::parse(text).ok()?;
    if !doc.as_table().contains_key(path.first()?) {
        return None;
    }
    let offset = offset_in_table(doc.as_table(), path)?;
    Some(line_at(text, offset))
}

fn offset_in_table(table: &Table, path: KeyPath<'_>) -> Option<usize> {
    let (first, rest) = path.split_first()?;
    let here = table
        .key(first)
        .and_then(toml_edit::Key::span)
        .map(|s| s.start)
        .or_else(|| table.span().map(|s| s.start));
    let Some(item) = table.get(first) else {
        return here;
    };
    if rest.is_empty() {
        return here.or_else(|| item.span().map(|s| s.start));
    }
    match item {
        Item::Table(inner) => offset_in_table(inner, rest).or(here),
        Item::ArrayOfTables(array) => {
            let (index, deeper) = rest.split_first()?;
            let inner = array.get(index.parse().ok()?)?;
            if deeper.is_empty() {
                return inner.span().map(|s| s.start).or(here);
            }
            offset_in_table(inner, deeper)
                .or_else(|| inner.span().map(|s| s.start))
                .or(here)
        }
        Item::Value(toml_edit::Value::InlineTable(inline)) => {
            let key = rest.first()?;
            inline
                .key(key)
                .and_then(toml_edit::Key::span)
                .map(|s| s.start)
                .or(here)
        }
        _ => here,
    }
}

/// The dotted path of the key set on the 1-based `line` of `text` (`output.dir`,
/// `engine.1.options.hash`), for errors that know the line but not the key.
#[must_use]
pub fn key_on_line(text: &str, line: usize) -> Option<String> {
    let Ok(doc) = ImDocument::parse(text) else {
        return key_on_line_as_written(text, line);
    };
    // The bytes of that line: a key is on it when its span starts there.
    let start = text
        .split_inclusive('\n')
        .take(line.checked_sub(1)?)
        .map(str::len)
        .sum::<usize>();
    let end = start + text[start..].find('\n').unwrap_or(text.len() - start);
    let mut found = None;
    find_key(doc.as_table(), "", &(start..end), &mut found);
    found
}

/// [`key_on_line`] for a text that does not parse: the `name = ` of the line under the
/// nearest table header above it (arrays of tables counted).
fn key_on_line_as_written(text: &str, line: usize) -> Option<String> {
    let mut table = String::new();
    let mut arrays: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for (index, raw) in text.lines().enumerate().take(line) {
        let trimmed = raw.trim();
        if let Some(name) = trimmed
            .strip_prefix("[[")
            .and_then(|r| r.split("]]").next())
        {
            let name = name.trim().to_owned();
            let count = arrays.entry(name.clone()).or_insert(0);
            table = format!("{name}.{count}");
            *count += 1;
        } else if let Some(name) = trimmed.strip_prefix('[').and_then(|r| r.split(']').next()) {
            table = name.trim().to_owned();
        } else if index + 1 == line {
            let (key, _) = trimmed.split_once('=')?;
            let key = key.trim().trim_matches('"');
            if key.is_empty() || key.starts_with('#') {
                return None;
            }
            return Some(if table.is_empty() {
                key.to_owned()
            } else {
                format!("{table}.{key}")
            });
        }
    }
    None
}

fn find_key(table: &Table, prefix: &str, line: &Range<usize>, found: &mut Option<String>) {
    let on_line = |span: Option<Range<usize>>| span.is_some_and(|s| line.contains(&s.start));
    for (name, item) in table {
        let path = if prefix.is_empty() {
            name.to_owned()
        } else {
            format!("{prefix}.{name}")
        };
        let key_here = on_line(table.key(name).and_then(toml_edit::Key::span));
        match item {
            Item::Table(inner) => find_key(inner, &path, line, found),
            Item::ArrayOfTables(array) => {
                for (index, inner) in array.iter().enumerate() {
                    find_key(inner, &format!("{path}.{index}"), line, found);
                }
            }
            Item::Value(toml_edit::Value::InlineTable(inline)) if key_here => {
                // The deepest key of the line: the inline table's own keys come later.
                *found = Some(path.clone());
                for (inner, _) in inline.iter() {
                    if on_line(inline.key(inner).and_then(toml_edit::Key::span)) {
                        *found = Some(format!("{path}.{inner}"));
                    }
                }
            }
            _ if key_here => *found = Some(path),
            _ => {}
        }
    }
}

/// The text with every line of the table `name` and its subtables (`[name]`,
/// `[name.*]`) commented out, so that a workload's own section can be set aside while
/// the run's config code reads the rest with its lines where they were.
#[must_use]
pub fn without_table(text: &str, name: &str) -> String {
    let nested = format!("{name}.");
    let mut inside = false;
    text.split_inclusive('\n')
        .map(|line| {
            let trimmed = line.trim_start();
            if trimmed.starts_with('[') {
                let header = trimmed.trim_start_matches('[');
                let header = header.split(']').next().unwrap_or_default().trim();
                inside = header == name || header.starts_with(&nested);
            }
            if inside {
                format!("#{line}")
            } else {
                line.to_owned()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_key_of_a_line() {
        let text = "[tournament]\npairs = 10\n\n[[engine]]\nname = \"a\"\n\n[[engine]]\nname = \"b\"\noptions = { hash = \"16\" }\n[output]\nreport_interval = {}\n";
        assert_eq!(key_on_line(text, 2).as_deref(), Some("tournament.pairs"));
        assert_eq!(key_on_line(text, 8).as_deref(), Some("engine.1.name"));
        assert_eq!(
            key_on_line(text, 9).as_deref(),
            Some("engine.1.options.hash")
        );
        assert_eq!(
            key_on_line(text, 11).as_deref(),
            Some("output.report_interval")
        );
        assert_eq!(key_on_line(text, 3), None);
        // Text TOML cannot read: found as written.
        let bad = "[tournament]\nseed = 99999999999999999999\n[[engine]]\n[[engine]]\nname = [\n";
        assert_eq!(key_on_line(bad, 2).as_deref(), Some("tournament.seed"));
        assert_eq!(key_on_line(bad, 5).as_deref(), Some("engine.1.name"));
    }

    #[test]
    fn finds_keys_in_tables_and_arrays() {
        let text = "[tournament]\npairs = 10\n\n[[engine]]\nname = \"a\"\n\n[[engine]]\nname = \"b\"\ncommand = [\"x\"]\noptions = { hash = \"16\" }\n";
        assert_eq!(line_of(text, &["tournament", "pairs"]), Some(2));
        assert_eq!(line_of(text, &["engine", "1", "command"]), Some(9));
        assert_eq!(line_of(text, &["engine", "1", "options", "hash"]), Some(10));
        assert_eq!(line_of(text, &["engine", "0", "name"]), Some(5));
        assert_eq!(line_of(text, &["tournament", "missing"]), Some(1));
        assert_eq!(line_of("not toml [", &["x"]), None);
    }

    #[test]
    fn a_table_and_its_subtables_are_commented_out_and_lines_kept() {
        let text = "[time]\ndepth = 2\n[tune]\na = 1\n[tune.x]\nb = 2\n[tuner]\nc = 3\n";
        assert_eq!(
            without_table(text, "tune"),
            "[time]\ndepth = 2\n#[tune]\n#a = 1\n#[tune.x]\n#b = 2\n[tuner]\nc = 3\n"
        );
    }
}
