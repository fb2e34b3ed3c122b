//! Command-line overrides: `--set key=value` changes any key of the config before it is
//! read, e.g. `--set tournament.pairs=50`, `--set time.tc=10+0.1`,
//! `--set engine.1.options.hashsize=64` (engines by index, or by name:
//! `--set engine.level6.options.evallevel=5`).

use thiserror::Error;
use toml::Value;

/// Why an override could not be applied.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("--set {text}: {why}")]
pub struct OverrideError {
    pub text: String,
    pub why: String,
}

/// Reads a value as TOML (`20`, `true`, `"x"`, `[1, 2]`), else as a plain string.
fn value_of(text: &str) -> Value {
    let probe = format!("v = {text}");
    match probe.parse::<toml::Table>() {
        Ok(mut table) => table
            .remove("v")
            .unwrap_or_else(|| Value::String(text.to_owned())),
        Err(_) => Value::String(text.to_owned()),
    }
}

/// Applies one `key=value` override to the parsed config.
///
/// # Errors
/// [`OverrideError`] when the text has no `=`, or the path does not fit the config.
pub fn apply(config: &mut toml::Table, text: &str) -> Result<(), OverrideError> {
    let error = |why: &str| OverrideError {
        text: text.to_owned(),
        why: why.to_owned(),
    };
    let (path, value) = text
        .split_once('=')
        .ok_or_else(|| error("expected key=value"))?;
    let parts: Vec<&str> = path.trim().split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(error("empty key"));
    }
    let value = value_of(value.trim());
    let mut table = config;
    let mut index = 0;
    while index + 1 < parts.len() {
        let part = parts[index];
        if part == "engine" {
            let engines = table
                .get_mut("engine")
                .and_then(Value::as_array_mut)
                .ok_or_else(|| error("no [[engine]] in the config"))?;
            let which = parts
                .get(index + 1)
                .ok_or_else(|| error("which engine? use engine.<index or name>.<key>"))?;
            let found = match which.parse::<usize>() {
                Ok(i) => engines.get_mut(i),
                Err(_) => engines
                    .iter_mut()
                    .find(|e| e.get("name").and_then(Value::as_str) == Some(which)),
            };
            table = found
                .and_then(Value::as_table_mut)
                .ok_or_else(|| error(&format!("no engine `{which}`")))?;
            index += 2;
            continue;
        }
        let entry = table
            .entry(part.to_owned())
            .or_insert_with(|| Value::Table(toml::Table::new()));
        table = entry
            .as_table_mut()
            .ok_or_else(|| error(&format!("`{part}` is not a table")))?;
        index += 1;
    }
    let last = parts
        .get(index)
        .ok_or_else(|| error("missing key after the engine"))?;
    table.insert((*last).to_owned(), value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_nested_keys_and_engines() {
        let mut config: toml::Table =
            "[tournament]\npairs = 1\n[[engine]]\nname = \"a\"\n[[engine]]\nname = \"b\"\n"
                .parse()
                .expect("toml");
        apply(&mut config, "tournament.pairs=20").expect("pairs");
        apply(&mut config, "time.tc=10+0.1").expect("tc");
        apply(&mut config, "engine.b.options.hash=64").expect("by name");
        apply(&mut config, "engine.0.protocol=uci").expect("by index");
        assert_eq!(config["tournament"]["pairs"].as_integer(), Some(20));
        assert_eq!(config["time"]["tc"].as_str(), Some("10+0.1"));
        assert_eq!(
            config["engine"][1]["options"]["hash"].as_integer(),
            Some(64)
        );
        assert_eq!(config["engine"][0]["protocol"].as_str(), Some("uci"));
        assert!(apply(&mut config, "nothing").is_err());
        assert!(apply(&mut config, "engine.zz.x=1").is_err());
        assert!(apply(&mut config, "tournament.pairs.x=1").is_err());
    }
}
