//! `docs/configuration.md`'s key table against the code: every key the table gives a
//! plain default (a number, a boolean, one name) must, when set to that value, give the
//! same plan as leaving it out. A constant in `defaults.rs` that changes without the
//! table, or a table that changes without the code, fails here.

use crate::config::parse;

/// The key table, read from the repository.
const TABLE: &str = include_str!("../../../../docs/configuration.md");

/// The rows of the key table as (key, default). A cell of several keys
/// (`` `sprt.alpha`, `sprt.beta` ``, `` `output.pgn_nodes`, `pgn_seldepth` ``,
/// `` `[[engine]] dir`, `env` ``) gives one row per key, each with its own of several
/// defaults (`0.05, 0.05`) or the one they share.
fn table_rows() -> Vec<(String, String)> {
    let mut rows = Vec::new();
    for line in TABLE.lines() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 4 || !cells[1].starts_with('`') {
            continue;
        }
        let (mut section, names) = match cells[1].strip_prefix("`[[engine]] ") {
            Some(rest) => ("engine".to_owned(), format!("`{rest}")),
            None => (String::new(), cells[1].to_owned()),
        };
        let mut keys = Vec::new();
        for name in names.split([',', '/']) {
            let name = name.trim().trim_matches('`');
            match name.split_once('.') {
                Some((s, _)) => {
                    section = s.to_owned();
                    keys.push(name.to_owned());
                }
                None => keys.push(format!("{section}.{name}")),
            }
        }
        let defaults: Vec<&str> = cells[2].split(", ").collect();
        for (i, key) in keys.into_iter().enumerate() {
            let default = if defaults.len() == 1 {
                defaults[0]
            } else {
                defaults.get(i).copied().unwrap_or("")
            };
            rows.push((key, default.to_owned()));
        }
    }
    rows
}

/// A default stated as one value, as TOML: a number, a boolean, or one name in backticks
/// (a string). Not `number of cores`, `` `out/<config name>` ``, `off` or a sentence.
fn plain(default: &str) -> Option<toml::Value> {
    if let Ok(b) = default.parse::<bool>() {
        return Some(toml::Value::Boolean(b));
    }
    if let Ok(n) = default.parse::<i64>() {
        return Some(toml::Value::Integer(n));
    }
    if let Ok(x) = default.parse::<f64>() {
        return Some(toml::Value::Float(x));
    }
    let name = default.strip_prefix('`')?.strip_suffix('`')?;
    let word = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-".contains(c));
    word.then(|| toml::Value::String(name.to_owned()))
}

/// A config that sets every section a key of the table may go in, with `key` set to
/// `value` when given.
fn config(set: Option<(&str, &toml::Value)>) -> String {
    let openings = concat!(env!("CARGO_MANIFEST_DIR"), "/../openings/mainlines.epd");
    let mut text: toml::Table = format!(
        r#"
        [tournament]
        pairs = 4
        [time]
        depth = 2
        [openings]
        file = "{openings}"
        [sprt]
        [rules]
        [adjudication]
        [output]
        dir = "out/defaults-test"
        [faults]
        [[engine]]
        command = ["sh"]
        [[engine]]
        command = ["sh"]
        "#
    )
    .parse()
    .expect("the test's own TOML");
    if let Some((key, value)) = set {
        let (section, name) = key.split_once('.').expect("a dotted key");
        let table = match text.get_mut(section).expect("a section of the test config") {
            toml::Value::Table(t) => t,
            toml::Value::Array(engines) => match engines.first_mut() {
                Some(toml::Value::Table(t)) => t,
                _ => panic!("no engine table"),
            },
            _ => panic!("`{section}` is not a table"),
        };
        // The SPRT's numbers are floats: `0` in the table is `0.0` in TOML.
        let value = match value {
            toml::Value::Integer(n) if section == "sprt" => toml::Value::Float(*n as f64),
            v => v.clone(),
        };
        table.insert(name.to_owned(), value);
    }
    text.to_string()
}

fn plan_of(text: &str) -> String {
    match parse("defaults-test.toml", text, &[]) {
        Ok(loaded) => format!("{:?}", loaded.plan),
        Err(e) => panic!("{e}\n{text}"),
    }
}

#[test]
fn the_docs_table_states_the_defaults_of_the_code() {
    let rows = table_rows();
    assert!(
        rows.len() > 40,
        "the key table has only {} rows",
        rows.len()
    );
    let left_out = plan_of(&config(None));
    let mut checked = Vec::new();
    for (key, default) in &rows {
        // `[datagen]` is a datagen config's own table, which a run's plan never reads:
        // `datagen/config.rs` checks its defaults.
        if key.starts_with("datagen.") {
            continue;
        }
        let Some(value) = plain(default) else {
            continue;
        };
        let set = plan_of(&config(Some((key, &value))));
        assert_eq!(
            set, left_out,
            "docs/configuration.md says `{key}` defaults to {default}, but setting it to that gives another plan than leaving it out"
        );
        checked.push(key.as_str());
    }
    // The keys with a plain default, so that a table that lost them (or a parse that
    // skipped them) fails too.
    for key in [
        "tournament.kind",
        "tournament.seed",
        "tournament.event",
        "time.margin",
        "time.margin_mode",
        "openings.order",
        "openings.start",
        "rules.move_limit",
        "rules.limit_counting",
        "sprt.elo1",
        "sprt.beta",
        "output.report_interval",
        "output.pgn_nps",
        "faults.max_time_losses",
        "faults.move_timeout",
        "engine.protocol",
        "engine.coordinates",
    ] {
        assert!(
            checked.contains(&key),
            "`{key}` was not checked: {checked:?}"
        );
    }
}

#[test]
fn a_default_the_table_misstates_is_found() {
    // The check above can fail: a value other than the default gives another plan.
    let left_out = plan_of(&config(None));
    let wrong = plan_of(&config(Some((
        "faults.max_crashes",
        &toml::Value::Integer(6),
    ))));
    assert_ne!(wrong, left_out);
}
