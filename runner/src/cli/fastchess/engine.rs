//! The keys of `-engine` and `-each` (fastchess's and cutechess-cli's): `cmd`, `name`,
//! `args`/`arg`, `dir`, `proto`, `tc`, `st`, `nodes`, `depth`/`plies`, `timemargin`,
//! `restart`, `option.X`, and the Xiangqi additions `coordinates` and `env.X`. As in
//! fastchess, `-each` is applied after every `-engine`, so its keys win.

use std::path::Path;

use super::args::shell_words;

/// One limit of an engine's search, in the config's terms.
#[derive(Debug, Clone, PartialEq)]
pub enum Limit {
    /// `time.tc`, already in the config's syntax (`40/90+0.5`).
    Clock(String),
    /// `time.movetime` (`0.5s`).
    MoveTime(String),
    Nodes(u64),
    Depth(u32),
}

impl Limit {
    /// The key of `[time]` it sets and its value as TOML.
    #[must_use]
    pub fn key_and_value(&self) -> (&'static str, toml::Value) {
        match self {
            Limit::Clock(tc) => ("tc", toml::Value::String(tc.clone())),
            Limit::MoveTime(t) => ("movetime", toml::Value::String(t.clone())),
            Limit::Nodes(n) => (
                "nodes",
                toml::Value::Integer(i64::try_from(*n).unwrap_or(i64::MAX)),
            ),
            Limit::Depth(d) => ("depth", toml::Value::Integer(i64::from(*d))),
        }
    }
}

/// A value and the flag that set it (`-engine name=new tc=10+0.1`).
#[derive(Debug, Clone, PartialEq)]
pub struct FlagValue<T> {
    pub value: T,
    pub label: String,
}

/// Which limit keys an engine has set; `tc=inf` clears the clock.
#[derive(Debug, Clone, Default, PartialEq)]
struct Limits {
    tc: Option<FlagValue<Option<String>>>,
    st: Option<FlagValue<String>>,
    nodes: Option<FlagValue<u64>>,
    depth: Option<FlagValue<u32>>,
}

/// One engine of the command line, its keys as set so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EngineDraft {
    pub cmd: Option<FlagValue<String>>,
    pub name: Option<FlagValue<String>>,
    /// `args=` (split like a shell) and cutechess's `arg=` (one each), in order.
    pub args: Vec<String>,
    pub args_label: Option<String>,
    pub dir: Option<FlagValue<String>>,
    pub proto: Option<FlagValue<String>>,
    pub coordinates: Option<FlagValue<String>>,
    pub restart: Option<FlagValue<bool>>,
    pub margin_ms: Option<FlagValue<u64>>,
    /// `option.X` and `env.X`, by name, the last setting of each.
    pub options: Vec<(String, FlagValue<String>)>,
    pub env: Vec<(String, FlagValue<String>)>,
    limits: Limits,
}

/// Converts fastchess's `moves/minutes:seconds+increment` (`40/1:30+0.5`, `10+0.1s`)
/// into the config's `moves/seconds+increment`; `None` for `inf` (no clock).
///
/// # Errors
/// A text that is no such clock.
pub fn clock(text: &str) -> Result<Option<String>, String> {
    if matches!(text, "inf" | "infinite") {
        return Ok(None);
    }
    if text.contains("hg") {
        return Err("hourglass clocks are not supported".to_owned());
    }
    let seconds = |part: &str| -> Result<f64, String> {
        let p = part.strip_suffix('s').unwrap_or(part);
        match p.parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
            _ => Err(format!("`{part}` is not a number of seconds")),
        }
    };
    let (moves, rest) = match text.split_once('/') {
        Some((m, rest)) => match m.parse::<u32>() {
            Ok(n) if n > 0 => (Some(n), rest),
            _ => return Err(format!("`{m}` is not a number of moves")),
        },
        None => (None, text),
    };
    let (base, increment) = match rest.split_once('+') {
        Some((b, i)) => (b, Some(seconds(i)?)),
        None => (rest, None),
    };
    let base = match base.split_once(':') {
        Some((min, sec)) => {
            let minutes = min
                .parse::<f64>()
                .ok()
                .filter(|m| m.is_finite() && *m >= 0.0)
                .ok_or_else(|| format!("`{min}` is not a number of minutes"))?;
            minutes * 60.0 + seconds(sec)?
        }
        None => seconds(base)?,
    };
    let mut out = String::new();
    if let Some(m) = moves {
        out.push_str(&format!("{m}/"));
    }
    out.push_str(&format!("{base}"));
    if let Some(i) = increment {
        out.push_str(&format!("+{i}"));
    }
    Ok(Some(out))
}

/// A number of seconds for `st=` (`0.5`, `2s`), as the config's `movetime`.
fn move_time(text: &str) -> Result<String, String> {
    let t = text.strip_suffix('s').unwrap_or(text);
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(format!("{v}s")),
        _ => Err(format!("`{text}` is not a positive number of seconds")),
    }
}

fn number<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("`{text}` is not {what}"))
}

impl EngineDraft {
    /// Sets one key; `label` is the flag with this parameter, for errors.
    ///
    /// # Errors
    /// An unknown key, a key that does not apply here, or a bad value; the message
    /// starts with `label`.
    pub fn set(&mut self, key: &str, value: &str, label: &str) -> Result<(), String> {
        let fail = |why: String| format!("{label}: {why}");
        let set = |v: String| FlagValue {
            value: v,
            label: label.to_owned(),
        };
        if let Some(option) = key.strip_prefix("option.") {
            if option.is_empty() {
                return Err(fail("option. needs a name: option.Hash=16".to_owned()));
            }
            self.options.retain(|(k, _)| k != option);
            self.options
                .push((option.to_owned(), set(value.to_owned())));
            return Ok(());
        }
        if let Some(var) = key.strip_prefix("env.") {
            self.env.retain(|(k, _)| k != var);
            self.env.push((var.to_owned(), set(value.to_owned())));
            return Ok(());
        }
        match key {
            "cmd" => self.cmd = Some(set(value.to_owned())),
            "name" => self.name = Some(set(value.to_owned())),
            "args" => {
                self.args = shell_words(value).map_err(fail)?;
                self.args_label = Some(label.to_owned());
            }
            "arg" => {
                self.args.push(value.to_owned());
                self.args_label = Some(label.to_owned());
            }
            "dir" => self.dir = Some(set(value.to_owned())),
            "proto" => match value {
                "ucci" | "uci" => self.proto = Some(set(value.to_owned())),
                other => {
                    return Err(fail(format!(
                        "protocol `{other}`: xq-runner speaks ucci (the default) and uci"
                    )))
                }
            },
            "coordinates" => self.coordinates = Some(set(value.to_owned())),
            "restart" => {
                let on = match value {
                    "on" => true,
                    "off" | "auto" => false,
                    other => return Err(fail(format!("`{other}`: expected on or off"))),
                };
                self.restart = Some(FlagValue {
                    value: on,
                    label: label.to_owned(),
                });
            }
            "timemargin" => {
                self.margin_ms = Some(FlagValue {
                    value: number(value, "a number of milliseconds").map_err(fail)?,
                    label: label.to_owned(),
                });
            }
            "tc" => {
                self.limits.tc = Some(FlagValue {
                    value: clock(value).map_err(fail)?,
                    label: label.to_owned(),
                });
            }
            "st" => self.limits.st = Some(set(move_time(value).map_err(fail)?)),
            "nodes" => {
                let n: u64 = number(value, "a number of nodes").map_err(fail)?;
                self.limits.nodes = (n > 0).then(|| FlagValue {
                    value: n,
                    label: label.to_owned(),
                });
            }
            "depth" | "plies" => {
                let d: u32 = number(value, "a depth").map_err(fail)?;
                self.limits.depth = (d > 0).then(|| FlagValue {
                    value: d,
                    label: label.to_owned(),
                });
            }
            "conf" | "initstr" | "trust" | "whitepov" | "ponder" | "book" | "bookdepth"
            | "stderr" | "tscale" | "tmargin" => {
                return Err(fail(format!("`{key}` is not supported by xq-runner")))
            }
            other => {
                return Err(fail(format!(
                    "unknown engine key `{other}` (cmd, name, args, arg, dir, proto, tc, st, nodes, depth, timemargin, restart, option.X, coordinates, env.X)"
                )))
            }
        }
        Ok(())
    }

    /// The engine's one limit, if it has one.
    ///
    /// # Errors
    /// More than one (fastchess combines `tc` with `nodes`; the config has one limit).
    pub fn limit(&self) -> Result<Option<FlagValue<Limit>>, String> {
        let l = &self.limits;
        let mut found: Vec<FlagValue<Limit>> = Vec::new();
        if let Some(FlagValue {
            value: Some(tc),
            label,
        }) = &l.tc
        {
            found.push(FlagValue {
                value: Limit::Clock(tc.clone()),
                label: label.clone(),
            });
        }
        if let Some(s) = &l.st {
            found.push(FlagValue {
                value: Limit::MoveTime(s.value.clone()),
                label: s.label.clone(),
            });
        }
        if let Some(n) = &l.nodes {
            found.push(FlagValue {
                value: Limit::Nodes(n.value),
                label: n.label.clone(),
            });
        }
        if let Some(d) = &l.depth {
            found.push(FlagValue {
                value: Limit::Depth(d.value),
                label: d.label.clone(),
            });
        }
        match found.len() {
            0 | 1 => Ok(found.pop()),
            _ => Err(format!(
                "{}: xq-runner plays one limit per engine (tc, st, nodes or depth); this engine also has `{}`",
                found[1].label, found[0].label
            )),
        }
    }

    /// The program and its arguments.
    #[must_use]
    pub fn command(&self) -> Option<Vec<String>> {
        let cmd = self.cmd.as_ref()?;
        let mut all = vec![cmd.value.clone()];
        all.extend(self.args.iter().cloned());
        Some(all)
    }

    /// fastchess's default name: the program's file name without its extension.
    #[must_use]
    pub fn default_name(&self) -> String {
        self.cmd
            .as_ref()
            .and_then(|c| Path::new(&c.value).file_stem())
            .map_or_else(|| "engine".to_owned(), |s| s.to_string_lossy().into_owned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_convert_to_the_config_syntax() {
        assert_eq!(clock("10+0.1"), Ok(Some("10+0.1".to_owned())));
        assert_eq!(clock("40/1:30+0.5s"), Ok(Some("40/90+0.5".to_owned())));
        assert_eq!(clock("2:00"), Ok(Some("120".to_owned())));
        assert_eq!(clock("inf"), Ok(None));
        assert!(clock("ten").is_err() && clock("0/10").is_err() && clock("1hg").is_err());
        assert_eq!(move_time("0.5"), Ok("0.5s".to_owned()));
        assert!(move_time("0").is_err());
    }

    #[test]
    fn keys_replace_and_limits_conflict() {
        let mut e = EngineDraft::default();
        e.set("cmd", "./bin/new.exe", "-engine cmd=./bin/new.exe")
            .expect("cmd");
        e.set("args", "--threads 1 'x y'", "-engine args=...")
            .expect("args");
        e.set("arg", "z", "-engine arg=z").expect("arg");
        e.set("option.Hash", "16", "-engine option.Hash=16")
            .expect("option");
        e.set("option.Hash", "32", "-each option.Hash=32")
            .expect("option again");
        assert_eq!(e.options.len(), 1);
        assert_eq!(e.options[0].1.value, "32");
        assert_eq!(e.default_name(), "new");
        assert_eq!(
            e.command(),
            Some(vec![
                "./bin/new.exe".into(),
                "--threads".into(),
                "1".into(),
                "x y".into(),
                "z".into()
            ])
        );
        e.set("tc", "10+0.1", "-each tc=10+0.1").expect("tc");
        assert_eq!(
            e.limit().map(|l| l.map(|s| s.value)),
            Ok(Some(Limit::Clock("10+0.1".into())))
        );
        e.set("nodes", "5000", "-engine nodes=5000").expect("nodes");
        let err = e.limit().expect_err("two limits");
        assert!(
            err.starts_with("-engine nodes=5000: xq-runner plays one limit"),
            "{err}"
        );
        e.set("tc", "inf", "-engine tc=inf").expect("inf");
        assert_eq!(
            e.limit().map(|l| l.map(|s| s.value)),
            Ok(Some(Limit::Nodes(5000)))
        );
        assert!(e.set("proto", "xboard", "-engine proto=xboard").is_err());
        assert!(e.set("ponder", "true", "-engine ponder").is_err());
        let err = e
            .set("colour", "red", "-engine colour=red")
            .expect_err("unknown");
        assert!(
            err.starts_with("-engine colour=red: unknown engine key"),
            "{err}"
        );
    }
}
