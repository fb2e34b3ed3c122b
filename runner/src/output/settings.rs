//! What a pairing is played with, in one line: time control, hash and openings, as
//! fastchess heads its result block (`Results of A vs B (10+0.1, 1t, 16MB, book.epd)`).
//! The terminal prints it per pairing before the first game (from the plan); the report
//! shows it in its header (from the config recorded in `run.json`), so both say the
//! same in the same words.

use std::path::Path;
use std::time::Duration;

use super::over_clock::base_time;
use crate::config::{Plan, RawConfig};
use crate::game::TimeControl;
use crate::openings::Order;

/// Most pairings listed before a run starts; a round robin of many engines gets a count
/// of the rest.
pub const MAX_HEADER_LINES: usize = 20;

/// One engine's settings as shown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSettings {
    pub name: String,
    /// `10+0.1`, `0.2s/move`, `depth 6`, `nodes 20000`; `?` when unknown.
    pub time_control: String,
    /// The value of the engine's hash option (`hashsize` in UCCI, `Hash` in UCI), in MB.
    pub hash: Option<String>,
    /// The time a game gives it, which its moves over the clock are measured against
    /// ([`base_time`]); `None` without a clock or when unknown.
    pub base: Option<Duration>,
}

/// The settings of every engine of a run and its openings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunSettings {
    pub engines: Vec<EngineSettings>,
    /// The opening file's name and order (`balanced-1k.epd, random`), if any.
    pub openings: Option<String>,
}

/// The hash option among engine options, by the names UCCI and UCI give it.
fn hash_option<'a>(options: impl IntoIterator<Item = (&'a str, String)>) -> Option<String> {
    options
        .into_iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("hashsize") || k.eq_ignore_ascii_case("hash"))
        .map(|(_, v)| v)
}

fn openings_text(path: &Path, order: &str) -> String {
    let name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into(),
    );
    format!("{name}, {order}")
}

/// The time control of a `[time]` table as the plan would show it; the text as written
/// when it does not parse.
fn time_text(
    tc: Option<&String>,
    movetime: Option<&String>,
    depth: Option<u32>,
    nodes: Option<u64>,
) -> Option<String> {
    if let Some(tc) = tc {
        return Some(TimeControl::parse(tc).map_or_else(|_| tc.clone(), |tc| tc.to_string()));
    }
    if let Some(m) = movetime {
        return Some(
            crate::game::parse_duration(m)
                .map_or_else(|_| m.clone(), |d| TimeControl::MoveTime(d).to_string()),
        );
    }
    depth
        .map(|d| TimeControl::Depth(d).to_string())
        .or_else(|| nodes.map(|n| TimeControl::Nodes(n).to_string()))
}

/// The [`base_time`] of a `[time]` table's clock or time per move, if it reads.
fn clock_base(tc: Option<&String>, movetime: Option<&String>) -> Option<Duration> {
    let control = match (tc, movetime) {
        (Some(tc), _) => TimeControl::parse(tc).ok()?,
        (None, Some(m)) => TimeControl::MoveTime(crate::game::parse_duration(m).ok()?),
        (None, None) => return None,
    };
    base_time(control)
}

fn order_name(order: Order) -> &'static str {
    match order {
        Order::Sequential => "sequential",
        Order::Random => "random",
    }
}

impl RunSettings {
    /// The settings of a validated run.
    #[must_use]
    pub fn from_plan(plan: &Plan) -> RunSettings {
        RunSettings {
            engines: plan
                .engines
                .iter()
                .map(|e| EngineSettings {
                    name: e.spec.name.clone(),
                    time_control: e.time_control.to_string(),
                    base: base_time(e.time_control),
                    hash: hash_option(e.spec.options.iter().map(|(k, v)| (k.as_str(), v.clone()))),
                })
                .collect(),
            openings: plan
                .openings
                .as_ref()
                .map(|o| openings_text(&o.path, order_name(o.order))),
        }
    }

    /// The settings from a config as `run.json` records it, for engines `names` (in
    /// config order). Read leniently: a report shows what it can of any config.
    #[must_use]
    pub fn from_config(config: &RawConfig, names: &[String]) -> RunSettings {
        let t = &config.time;
        let global = time_text(t.tc.as_ref(), t.movetime.as_ref(), t.depth, t.nodes);
        let global_base = clock_base(t.tc.as_ref(), t.movetime.as_ref());
        let engines = names
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let raw = config.engines.get(i);
                let own_time = raw.and_then(|e| e.time.as_ref());
                let own = own_time
                    .and_then(|t| time_text(t.tc.as_ref(), t.movetime.as_ref(), t.depth, t.nodes));
                // An engine's own `time` table replaces the global limit, clock or not.
                let base = match own_time {
                    Some(t) => clock_base(t.tc.as_ref(), t.movetime.as_ref()),
                    None => global_base,
                };
                let options = raw.into_iter().flat_map(|e| {
                    e.options.iter().map(|(k, v)| {
                        let text = match v {
                            toml::Value::String(s) => s.clone(),
                            other => other.to_string(),
                        };
                        (k.as_str(), text)
                    })
                });
                EngineSettings {
                    name: name.clone(),
                    time_control: own
                        .or_else(|| global.clone())
                        .unwrap_or_else(|| "?".to_owned()),
                    hash: hash_option(options),
                    base,
                }
            })
            .collect();
        let openings = config.openings.as_ref().and_then(|o| {
            let file = o.file.as_ref()?;
            Some(openings_text(
                Path::new(file),
                o.order.as_deref().unwrap_or("sequential"),
            ))
        });
        RunSettings { engines, openings }
    }

    /// `tc 10+0.1, hash 16 MB, openings balanced-1k.epd, random` for the pairing of
    /// engines `a` and `b`; a setting that differs shows both (`tc 10+0.1 vs 5+0.05`).
    #[must_use]
    pub fn pairing_text(&self, a: usize, b: usize) -> String {
        let none = EngineSettings::default();
        let (first, second) = (
            self.engines.get(a).unwrap_or(&none),
            self.engines.get(b).unwrap_or(&none),
        );
        let both = |x: &str, y: &str| {
            if x == y {
                x.to_owned()
            } else {
                format!("{x} vs {y}")
            }
        };
        let hash = |e: &EngineSettings| {
            e.hash
                .as_ref()
                .map_or_else(|| "engine default".to_owned(), |h| format!("{h} MB"))
        };
        let openings = self.openings.as_ref().map_or_else(
            || "no openings (start position)".to_owned(),
            |o| format!("openings {o}"),
        );
        format!(
            "tc {}, hash {}, {openings}",
            both(&first.time_control, &second.time_control),
            both(&hash(first), &hash(second))
        )
    }

    /// The same for every pairing of a run when it is the same for all (the common
    /// case); `None` when pairings differ.
    #[must_use]
    pub fn common_text(&self, pairings: &[(usize, usize)]) -> Option<String> {
        let mut texts = pairings.iter().map(|&(a, b)| self.pairing_text(a, b));
        let first = texts.next()?;
        texts.all(|t| t == first).then_some(first)
    }
}

/// The lines printed before the first game: one per pairing (at most
/// [`MAX_HEADER_LINES`], then how many more),
/// `Pairing 1 of 2: new vs base (tc 10+0.1, hash 16 MB, openings book.epd, random)`.
#[must_use]
pub fn pairing_header(plan: &Plan) -> String {
    let settings = RunSettings::from_plan(plan);
    let total = plan.pairings.len();
    let mut out = String::new();
    for (k, &(a, b)) in plan.pairings.iter().enumerate().take(MAX_HEADER_LINES) {
        let name = |i: usize| settings.engines.get(i).map_or("?", |e| e.name.as_str());
        out.push_str(&format!(
            "Pairing {} of {total}: {} vs {} ({})\n",
            k + 1,
            name(a),
            name(b),
            settings.pairing_text(a, b)
        ));
    }
    if total > MAX_HEADER_LINES {
        out.push_str(&format!(
            "... and {} more pairings\n",
            total - MAX_HEADER_LINES
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(extra: &str, engines: usize) -> Plan {
        let program = std::env::current_exe().expect("test binary");
        let mut text = format!(
            "[tournament]\nkind = \"round_robin\"\npairs = 2\n[time]\ntc = \"10+0.1\"\n{extra}\n"
        );
        for i in 0..engines {
            text.push_str(&format!(
                "[[engine]]\nname = \"e{i}\"\ncommand = [{:?}]\n[engine.options]\nhashsize = 16\n",
                program.display().to_string()
            ));
        }
        crate::config::parse("test.toml", &text, &[])
            .unwrap_or_else(|e| panic!("{e}"))
            .plan
    }

    #[test]
    fn one_line_per_pairing_with_tc_hash_and_openings() {
        let header = pairing_header(&plan("", 3));
        assert_eq!(
            header,
            "Pairing 1 of 3: e0 vs e1 (tc 10+0.1, hash 16 MB, no openings (start position))\n\
             Pairing 2 of 3: e0 vs e2 (tc 10+0.1, hash 16 MB, no openings (start position))\n\
             Pairing 3 of 3: e1 vs e2 (tc 10+0.1, hash 16 MB, no openings (start position))\n"
        );
    }

    #[test]
    fn many_pairings_are_counted_not_listed() {
        let header = pairing_header(&plan("", 8));
        assert_eq!(header.lines().count(), MAX_HEADER_LINES + 1);
        assert!(header.ends_with("... and 8 more pairings\n"), "{header}");
    }

    #[test]
    fn settings_that_differ_show_both_and_the_config_reads_the_same() {
        let config: RawConfig = toml::from_str(
            "[time]\ndepth = 4\n[openings]\nfile = \"books/b.epd\"\norder = \"random\"\n\
             [[engine]]\ncommand = [\"x\"]\n[engine.options]\nHash = 64\n\
             [[engine]]\ncommand = [\"x\"]\ntime = { nodes = 5000 }\n",
        )
        .expect("config");
        let names = ["a".to_owned(), "b".to_owned()];
        let settings = RunSettings::from_config(&config, &names);
        assert_eq!(
            settings.pairing_text(0, 1),
            "tc depth 4 vs nodes 5000, hash 64 MB vs engine default, openings b.epd, random"
        );
        let book = concat!(env!("CARGO_MANIFEST_DIR"), "/../openings/mainlines.epd");
        let p = plan(&format!("[openings]\nfile = {book:?}"), 2);
        let from_plan = RunSettings::from_plan(&p);
        assert_eq!(
            from_plan.pairing_text(0, 1),
            "tc 10+0.1, hash 16 MB, openings mainlines.epd, sequential"
        );
        assert_eq!(
            from_plan.common_text(&p.pairings).as_deref(),
            Some("tc 10+0.1, hash 16 MB, openings mainlines.epd, sequential")
        );
    }
}
