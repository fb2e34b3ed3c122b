//! fastchess's command line (`xq-runner -engine cmd=... -engine cmd=... -each tc=10+0.1
//! -rounds 500 ...`), with fastchess's meanings and defaults. The flags are turned into
//! config keys ([`translate`]) and then read, checked and played exactly as a TOML file
//! is: one meaning for both. `--print-config` prints the TOML a command line amounts to;
//! `--dry-run` prints the plan; `--resume` continues the run of the same command line.
//! The table of flags and keys is `flag_table.rs`; `docs/fastchess-flags.md` shows it.

mod args;
mod engine;
mod flag_table;
#[cfg(test)]
mod flag_table_docs_test;
mod toml_text;
mod translate;

use std::ffi::OsString;

pub(crate) use self::args::{is_flag, shell_quote, split};
pub(crate) use self::toml_text::config_text;
pub(crate) use self::translate::{translate, Mode};

use crate::config;
use crate::exit;
use crate::local_run::{Part, Start};
use crate::store::folder::FolderUse;

/// What `-help` prints.
const HELP: &str = "\
xq-runner in fastchess's command line (the same run a TOML config describes):

  xq-runner -engine cmd=./new name=new -engine cmd=./base name=base \\
    -each proto=ucci tc=10+0.1 option.hashsize=16 \\
    -rounds 500 -repeat -concurrency 2 \\
    -openings file=openings/balanced-1k.epd order=random \\
    -sprt elo0=0 elo1=2 alpha=0.05 beta=0.05 -pgnout file=out.pgn

Engines   -engine KEYS, -each KEYS: cmd= name= args=\"A B\" arg= dir= proto=ucci|uci
          tc=[moves/]min:sec|sec[+inc] st=SEC nodes=N depth=N timemargin=MS
          restart=on|off option.NAME=VALUE coordinates=0-9|1-10 env.NAME=VALUE
Schedule  -rounds N (pairs; default 2) -games 2 -repeat -concurrency N (default 1)
          -tournament roundrobin|gauntlet|ladder -srand SEED -recover -use-affinity
          -log file=F (the engine traffic)
          -openings file= format=epd|pgn order=sequential|random plies=N start=N
Judging   -draw movenumber= movecount= score=  -resign movecount= score= twosided=
          -maxmoves N  -rules ruleset=asian|computer|simple movelimit=PLIES
          counting=all|chinese|league banmoves=true|false  -sprt elo0= elo1= alpha=
          beta= model=normalized|logistic  -startup-ms MS -ping-ms MS
Output    -out DIR (default out/<first>-vs-<second>) -pgnout file= append= notation=
          nodes= seldepth= nps=
          -ratinginterval N -event NAME -output format=fastchess
Here      --print-config (print the TOML, play nothing) --dry-run --resume

Every flag, its TOML key and where the meaning differs: docs/fastchess-flags.md
";

/// Whether a command line is in fastchess's form: its first word (after any of
/// `--print-config`, `--dry-run`, `--resume`) is a single-dash flag like `-engine`.
#[must_use]
pub fn is_fastchess_form(words: &[OsString]) -> bool {
    let first = words
        .iter()
        .filter_map(|w| w.to_str())
        .find(|w| !matches!(*w, "--print-config" | "--dry-run" | "--resume"));
    match first {
        // A single dash and a word: `-engine`, `-rounds`, or a misspelt one (`-enigne`,
        // told so by the translator). `-h` and `-V` stay clap's.
        Some(w) => w.len() > 2 && !w.starts_with("--") && is_flag(w),
        None => false,
    }
}

/// Runs a command line in fastchess's form and returns the exit code.
#[must_use]
pub fn run(words: &[OsString]) -> u8 {
    let mut texts = Vec::with_capacity(words.len());
    for w in words {
        match w.to_str() {
            Some(t) => texts.push(t.to_owned()),
            None => {
                eprintln!("error: `{}`: not UTF-8 text", w.to_string_lossy());
                return exit::USAGE;
            }
        }
    }
    let flags = match split(&texts) {
        Ok(flags) => flags,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    let translation = match translate(&flags) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    match translation.mode {
        Mode::Help => {
            crate::stdout::line(HELP.trim_end_matches('\n'));
            return exit::OK;
        }
        Mode::Version => {
            crate::stdout::line(format_args!("xq-runner {}", env!("CARGO_PKG_VERSION")));
            return exit::OK;
        }
        _ => {}
    }
    let loaded = match config::parse("the command line", "", &translation.overrides) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    match translation.mode {
        Mode::PrintConfig => {
            let table: toml::Table = match loaded.text.parse() {
                Ok(t) => t,
                Err(e) => {
                    eprintln!("error: cannot print the config: {e}");
                    return exit::USAGE;
                }
            };
            let shown: Vec<String> = texts
                .iter()
                .filter(|w| w.as_str() != "--print-config")
                .map(|w| shell_quote(w))
                .collect();
            crate::stdout::line(format_args!(
                "# The config of: xq-runner {}",
                shown.join(" ")
            ));
            // `-log` is a flag of the run, not a key of the config.
            let log = translation.log.as_ref().map_or_else(String::new, |p| {
                format!(" --log {}", shell_quote(&p.display().to_string()))
            });
            crate::stdout::line(format_args!("# Run it with: xq-runner run FILE{log}\n"));
            crate::stdout::line(config_text(&table).trim_end_matches('\n'));
            exit::OK
        }
        Mode::DryRun => super::run::play(&loaded, Start::new_run(), true, None),
        Mode::Play { resume } => {
            let start = Start {
                folder: if resume {
                    FolderUse::Resume
                } else {
                    FolderUse::New
                },
                shard: None,
                part: Part::Alone,
            };
            super::run::play(&loaded, start, false, translation.log.as_deref())
        }
        Mode::Help | Mode::Version => exit::OK,
    }
}
