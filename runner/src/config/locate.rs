//! Finds the line of a key in the TOML text, so validation errors can name it.

use toml_edit::{ImDocument, Item, Table};

/// A path to a key: `["engine", "1", "command"]` for the command of the second engine.
pub type KeyPath<'a> = &'a [&'a str];

/// The 1-based line of the key at `path` in `text`, or of its nearest parent present.
#[must_use]
pub fn line_of(text: &str, path: KeyPath<'_>) -> Option<usize> {
    let doc = ImDocument::parse(text).ok()?;
    let offset = offset_in_table(doc.as_table(), path)?;
    Some(text[..offset.min(text.len())].matches('\n').count() + 1)
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
