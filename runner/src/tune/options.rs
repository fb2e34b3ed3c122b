//! The engine's side of a tune: the spin options it announces in its handshake, and the
//! check that every parameter is one of them. The announced `min`/`max` bound a
//! parameter too: its range is the part of both.

use super::params::{ParamError, TuneParam};
use crate::client::EngineSession;
use crate::config::EnginePlan;

/// One announced option.
#[derive(Clone, Debug, PartialEq)]
pub struct Announced {
    pub name: String,
    pub kind: String,
    pub min: Option<f64>,
    pub max: Option<f64>,
}

/// Reads an `option` line of either dialect: UCI `option name N type spin default D min
/// A max B` (the name may have spaces), UCCI `option n type spin min A max B default D`.
#[must_use]
pub fn parse_option(line: &str) -> Option<Announced> {
    let mut words = line.split_whitespace().peekable();
    if words.next()? != "option" {
        return None;
    }
    let name = if words.peek() == Some(&"name") {
        words.next();
        let mut parts = Vec::new();
        while let Some(w) = words.peek() {
            if *w == "type" {
                break;
            }
            parts.push(*w);
            words.next();
        }
        parts.join(" ")
    } else {
        words.next()?.to_owned()
    };
    let mut option = Announced {
        name,
        kind: String::new(),
        min: None,
        max: None,
    };
    while let Some(key) = words.next() {
        match key {
            "type" => option.kind = words.next().unwrap_or_default().to_owned(),
            "min" => option.min = words.next().and_then(|v| v.parse().ok()),
            "max" => option.max = words.next().and_then(|v| v.parse().ok()),
            _ => {}
        }
    }
    Some(option)
}

/// Starts the engine once for its handshake and returns the options it announced.
///
/// # Errors
/// One line when the engine cannot be started.
pub async fn announced(
    engine: &EnginePlan,
    timeouts: crate::client::Timeouts,
) -> Result<Vec<Announced>, String> {
    let session = EngineSession::start(&engine.spec, timeouts)
        .await
        .map_err(|e| {
            format!(
                "engine `{}` cannot be used: {e}",
                engine.spec.name.trim_end_matches('+')
            )
        })?;
    let options = session
        .announced
        .iter()
        .filter_map(|l| parse_option(l))
        .collect();
    session.quit().await;
    Ok(options)
}

/// The refusal of a parameter that is none of the engine's spin options: the closest
/// one first, if a slip could have made the name, then every one (an engine may have
/// dozens; the right name must be among them).
fn unknown_param(name: &str, spins: &[&Announced]) -> String {
    let names: Vec<&str> = spins.iter().map(|o| o.name.as_str()).collect();
    if names.is_empty() {
        return format!("{name} is not a spin option of the engine; it announces no spin option (xq-engine announces its tunables when started with --tune)");
    }
    let guess = crate::spelling::closest(name, names.iter().copied())
        .map(|n| format!(" (did you mean {n}?)"))
        .unwrap_or_default();
    // The count only where there are several to count.
    let its = match names.len() {
        1 => "its spin options".to_owned(),
        n => format!("its {n} spin options"),
    };
    format!(
        "{name} is not a spin option of the engine{guess}; {its}: {}",
        names.join(", ")
    )
}

/// Checks each parameter against the announced options and narrows its range to the
/// announced one. Returns a warning line for each range narrowed.
///
/// # Errors
/// A parameter that is not an announced spin option, or whose start lies outside the
/// announced range, named where it was written.
pub fn fit(params: &mut [TuneParam], options: &[Announced]) -> Result<Vec<String>, ParamError> {
    let spins: Vec<&Announced> = options.iter().filter(|o| o.kind == "spin").collect();
    let mut warnings = Vec::new();
    for p in params.iter_mut() {
        let origin = p.origin();
        let error = |message: String| origin.error(message);
        let Some(option) = spins.iter().find(|o| o.name.eq_ignore_ascii_case(&p.name)) else {
            return Err(error(unknown_param(&p.name, &spins)));
        };
        p.name.clone_from(&option.name);
        if let Some(lo) = option.min.filter(|&lo| lo > p.min) {
            warnings.push(format!(
                "warning: {origin}: {}: min {} is below the engine's {lo}: using {lo}",
                p.name, p.min
            ));
            p.min = lo;
        }
        if let Some(hi) = option.max.filter(|&hi| hi < p.max) {
            warnings.push(format!(
                "warning: {origin}: {}: max {} is above the engine's {hi}: using {hi}",
                p.name, p.max
            ));
            p.max = hi;
        }
        if p.min >= p.max || p.start < p.min || p.start > p.max {
            return Err(error(format!(
                "{}: start {} is outside the engine's range [{}, {}]",
                p.name, p.start, p.min, p.max
            )));
        }
    }
    Ok(warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_dialects() {
        let uci = parse_option("option name Futility Margin type spin default 130 min 0 max 400")
            .expect("uci");
        assert_eq!(uci.name, "Futility Margin");
        assert_eq!(
            (uci.kind.as_str(), uci.min, uci.max),
            ("spin", Some(0.0), Some(400.0))
        );
        let ucci = parse_option("option futilitymargin type spin min 0 max 400 default 130")
            .expect("ucci");
        assert_eq!(ucci.name, "futilitymargin");
        assert_eq!((ucci.min, ucci.max), (Some(0.0), Some(400.0)));
        assert_eq!(
            parse_option("option usemillisec type check default true").map(|o| o.kind),
            Some("check".to_owned())
        );
        assert_eq!(parse_option("info depth 1"), None);
    }

    #[test]
    fn a_parameter_must_be_an_announced_spin_and_is_bounded_by_it() {
        let options = vec![
            parse_option("option name Hash type spin default 16 min 1 max 1024").expect("o"),
            parse_option("option name Ponder type check default false").expect("o"),
        ];
        let param = |name: &str, start, min, max| TuneParam {
            name: name.to_owned(),
            start,
            min,
            max,
            c_end: 1.0,
            r_end: 0.01,
            origin: Some(crate::tune::params::Origin {
                file: "t.toml".into(),
                line: Some(3),
                key: None,
            }),
        };
        let mut ok = vec![param("hash", 16.0, 0.0, 2000.0)];
        let warnings = fit(&mut ok, &options).expect("fits");
        assert_eq!(warnings.len(), 2);
        assert_eq!(
            (ok[0].name.as_str(), ok[0].min, ok[0].max),
            ("Hash", 1.0, 1024.0)
        );
        let mut unknown = vec![param("Ponder", 0.0, 0.0, 1.0)];
        let e = fit(&mut unknown, &options)
            .expect_err("refused")
            .to_string();
        assert_eq!(
            e,
            "t.toml:3: Ponder is not a spin option of the engine; its spin options: Hash"
        );
        let mut outside = vec![param("Hash", 0.5, 0.0, 10.0)];
        assert!(fit(&mut outside, &options)
            .expect_err("refused")
            .to_string()
            .contains("outside the engine's range [1, 10]"));
    }
}
