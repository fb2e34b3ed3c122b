//! Before anything is played (and in a dry run): every engine started once, so that a
//! wrong command stops the run with a clear message instead of a column of losses, and
//! its handshake read for the options of the config it never announced. Those are
//! found here, once per engine, however many processes of it the games start later.

use super::tournament::RunError;
use crate::client::EngineSession;
use crate::config::Plan;
pub use crate::output::summary::UnknownOptions;

/// Starts each engine once and quits it.
///
/// # Errors
/// [`RunError::EngineStart`] for the first engine that cannot be started.
pub async fn preflight(plan: &Plan) -> Result<UnknownOptions, RunError> {
    let mut unknown = UnknownOptions::new();
    for engine in &plan.engines {
        let session = EngineSession::start(&engine.spec, plan.timeouts)
            .await
            .map_err(|e| RunError::EngineStart {
                name: engine.spec.name.clone(),
                why: e.to_string(),
            })?;
        let options = session.unknown_options();
        session.quit().await;
        if !options.is_empty() {
            unknown.insert(engine.spec.name.clone(), options);
        }
    }
    Ok(unknown)
}

/// What the terminal says of an engine's unknown options, in one line.
#[must_use]
pub fn unknown_options_line(engine: &str, options: &[String]) -> String {
    let list: Vec<String> = options.iter().map(|o| format!("`{o}`")).collect();
    let (noun, pronoun) = if options.len() == 1 {
        ("option", "it")
    } else {
        ("options", "them")
    };
    format!(
        "engine `{engine}` did not announce the {noun} {}: sent anyway, it may ignore {pronoun} \
         (a typo, or another engine's {noun}?)",
        list.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_the_engine_and_each_option() {
        let one = unknown_options_line("pikafish", &["Repetition Rule".to_owned()]);
        assert_eq!(
            one,
            "engine `pikafish` did not announce the option `Repetition Rule`: sent anyway, it \
             may ignore it (a typo, or another engine's option?)"
        );
        let two = unknown_options_line("e", &["A".to_owned(), "b c".to_owned()]);
        assert!(
            two.contains("the options `A`, `b c`: sent anyway, it may ignore them"),
            "{two}"
        );
    }
}
