//! `xq-runner openings generate`: a balanced suite made with an engine.
//!
//! ```text
//! xq-runner openings generate --count 1100 --plies 6..10 --max-score 60 --depth 8 \
//!     --seed 1 --engine target/release/xq-engine --option evallevel=6 \
//!     -o openings/balanced-1k.epd
//! ```
//! Exit 0 when the file was written; 2 on bad arguments or an engine that does not
//! start; 3 when too few balanced lines were found within `--max-lines` (nothing is
//! written); 4 when the engine failed during the run.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::client::{EngineError, EngineSpec, Protocol, Timeouts};
use crate::exit;
use crate::openings::generate::{
    generate, render_header, write_suite, GenerateError, Generated, PlyRange, Provenance, Settings,
};
use crate::openings::OpeningBook;

/// Arguments of `xq-runner openings generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// How many openings to write.
    #[arg(long)]
    pub count: usize,
    /// Line length in plies from the start position, `A..B` (both included).
    #[arg(long, default_value = "6..10")]
    pub plies: PlyRange,
    /// Keep a line when the engine's score of its final position is within ±this.
    #[arg(long, default_value_t = 60)]
    pub max_score: u32,
    /// Depth of the final search that scores each line.
    #[arg(long, default_value_t = 8)]
    pub depth: u32,
    /// Seed of every random choice: the same command gives the same file.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The engine's command line, split on whitespace (e.g. "target/release/xq-engine").
    #[arg(long)]
    pub engine: String,
    /// One more argument for the engine, kept whole (repeatable).
    #[arg(long = "engine-arg", value_name = "ARG")]
    pub engine_args: Vec<String>,
    /// The engine's protocol.
    #[arg(long, default_value = "ucci")]
    pub protocol: Protocol,
    /// An engine option set after the handshake, e.g. evallevel=6 (repeatable).
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    /// Start each line from a random line of this suite (cut to the drawn length).
    #[arg(long)]
    pub from: Option<PathBuf>,
    /// Depth of the search for the best move at each ply.
    #[arg(long, default_value_t = 3)]
    pub probe_depth: u32,
    /// Random legal moves scored beside the best move at each ply.
    #[arg(long, default_value_t = 4)]
    pub candidates: usize,
    /// Score difference (engine units) that halves a move's chance; 0: best move only.
    #[arg(long, default_value_t = 40)]
    pub temperature: u32,
    /// Give up after this many candidate lines (default: 50 per opening asked for).
    #[arg(long)]
    pub max_lines: Option<u64>,
    /// Engine processes working at once (default: the number of cores). Does not
    /// change the output.
    #[arg(long)]
    pub concurrency: Option<usize>,
    /// The file to write (replaced when it exists).
    #[arg(short = 'o', long = "output")]
    pub output: PathBuf,
}

/// Runs `openings generate` and returns the exit code.
#[must_use]
pub fn run(args: &GenerateArgs) -> u8 {
    let prepared = match prepare(args) {
        Ok(prepared) => prepared,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    let Some(runtime) = super::async_runtime() else {
        return exit::ABORTED;
    };
    let concurrency = args
        .concurrency
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let bar = progress_bar(args.count);
    let started = Instant::now();
    let mut on_progress = |stats: &crate::openings::generate::Stats| {
        bar.set_position(stats.kept);
        bar.set_message(format!("{} lines tried", stats.tried));
    };
    let result = runtime.block_on(generate(
        &prepared.spec,
        Timeouts::default(),
        &prepared.settings,
        concurrency,
        &mut on_progress,
    ));
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    let generated = match result {
        Ok(generated) => generated,
        Err(e) => {
            eprintln!("error: {e}");
            return exit_code(&e);
        }
    };
    let provenance = Provenance {
        command: recorded_command(std::env::args_os()),
        engine: generated
            .engine_name
            .clone()
            .unwrap_or_else(|| prepared.spec.command.join(" ")),
        engine_setup: engine_setup(&prepared.spec),
        from: args.from.as_ref().map(|p| p.display().to_string()),
    };
    let header = render_header(&provenance, &prepared.settings);
    if let Err(e) = write_suite(&args.output, &header, &generated.openings) {
        eprintln!("error: {e}");
        return exit::USAGE;
    }
    print_summary(&args.output, &generated, elapsed.as_secs_f64());
    exit::OK
}

/// The validated engine and settings.
struct GenerateSetup {
    spec: EngineSpec,
    settings: Settings,
}

fn prepare(args: &GenerateArgs) -> Result<GenerateSetup, String> {
    let mut command: Vec<String> = args.engine.split_whitespace().map(str::to_owned).collect();
    command.extend(args.engine_args.iter().cloned());
    if command.is_empty() {
        return Err("--engine is empty".to_owned());
    }
    let options = args
        .options
        .iter()
        .map(|o| match o.split_once('=') {
            Some((name, value)) if !name.trim().is_empty() => {
                Ok((name.trim().to_owned(), value.trim().to_owned()))
            }
            _ => Err(format!("--option `{o}` is not NAME=VALUE")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let starts = match &args.from {
        Some(path) => OpeningBook::load(path)
            .map_err(|e| e.to_string())?
            .openings()
            .to_vec(),
        None => Vec::new(),
    };
    check_output_dir(&args.output)?;
    let settings = Settings {
        count: args.count,
        plies: args.plies,
        max_score: args.max_score,
        depth: args.depth,
        seed: args.seed,
        probe_depth: args.probe_depth,
        candidates: args.candidates,
        temperature: args.temperature,
        max_lines: args
            .max_lines
            .unwrap_or_else(|| (args.count as u64).saturating_mul(50)),
        starts,
    };
    settings.validate().map_err(|e| e.to_string())?;
    let spec = EngineSpec {
        name: "engine".to_owned(),
        command,
        working_dir: None,
        env: Vec::new(),
        protocol: args.protocol,
        coordinates: crate::client::Coordinates::default(),
        options,
    };
    Ok(GenerateSetup { spec, settings })
}

/// Fails early (not after an hour of searching) when the output cannot be written.
fn check_output_dir(output: &Path) -> Result<(), String> {
    let dir = match output.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if dir.is_dir() {
        Ok(())
    } else {
        Err(format!(
            "cannot write {}: {} is not a directory",
            output.display(),
            dir.display()
        ))
    }
}

fn exit_code(error: &GenerateError) -> u8 {
    match error {
        GenerateError::Settings(_)
        | GenerateError::Write { .. }
        | GenerateError::Engine {
            source: EngineError::Spawn { .. },
        } => exit::USAGE,
        GenerateError::NotEnough { .. } => exit::NO_VERDICT,
        _ => exit::ABORTED,
    }
}

fn progress_bar(count: usize) -> ProgressBar {
    let bar = ProgressBar::new(count as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} openings  {msg}")
    {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// `ucci, options evallevel=6` or `ucci, engine defaults`.
fn engine_setup(spec: &EngineSpec) -> String {
    if spec.options.is_empty() {
        return format!("{}, engine defaults", spec.protocol);
    }
    let options: Vec<String> = spec
        .options
        .iter()
        .map(|(name, value)| format!("{name}={value}"))
        .collect();
    format!("{}, options {}", spec.protocol, options.join(" "))
}

/// The command line as typed, program name as `xq-runner`, arguments quoted for a
/// POSIX shell where needed.
fn recorded_command(args: impl Iterator<Item = OsString>) -> String {
    let mut words = vec!["xq-runner".to_owned()];
    words.extend(args.skip(1).map(|a| shell_quote(&a.to_string_lossy())));
    words.join(" ")
}

fn shell_quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./=:,+@%".contains(c));
    if plain {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

fn print_summary(output: &Path, generated: &Generated, seconds: f64) {
    let s = &generated.stats;
    crate::stdout::line(format_args!(
        "wrote {} openings to {} in {seconds:.1} s",
        generated.openings.len(),
        output.display()
    ));
    crate::stdout::line(format_args!(
        "{} lines tried: {} kept, {} out of the score window, {} duplicates, \
         {} game over, {} dead ends; {} searches",
        s.tried, s.kept, s.unbalanced, s.duplicates, s.game_over, s.dead_ends, s.searches
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_recorded_as_typed() {
        let args = [
            "/x/xq-runner",
            "openings",
            "generate",
            "--engine",
            "a b",
            "it's",
        ]
        .map(OsString::from);
        assert_eq!(
            recorded_command(args.into_iter()),
            r"xq-runner openings generate --engine 'a b' 'it'\''s'"
        );
        assert_eq!(shell_quote(""), "''");
        assert_eq!(shell_quote("6..10"), "6..10");
    }
}
