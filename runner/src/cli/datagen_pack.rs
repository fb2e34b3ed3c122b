//! `xq-runner datagen pack DIR [--into DATA] [--live] [--max-mb N]`: adds the games of
//! the datagen folder DIR that the data folder does not hold yet, as one chunk, and
//! prints what the data folder holds then.

use std::path::PathBuf;

use clap::Args;

use crate::datagen::data_folder::DEFAULT_MAX_BYTES;
use crate::datagen::pack::{pack, PackOptions};
use crate::exit;

/// Arguments of `datagen pack`.
#[derive(Debug, Args)]
pub struct PackArgs {
    /// The datagen's output folder.
    pub dir: PathBuf,
    /// The data folder that takes the chunk.
    #[arg(long, default_value = "engine/data/selfplay")]
    pub into: PathBuf,
    /// Pack the games a running datagen has written so far (its lock is not taken).
    #[arg(long)]
    pub live: bool,
    /// The data folder's bound in MB (10^6 bytes): a pack that would pass it is refused.
    #[arg(long, default_value_t = DEFAULT_MAX_BYTES / 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_mb: u64,
}

/// Runs `datagen pack`.
#[must_use]
pub fn run(args: &PackArgs) -> u8 {
    let options = PackOptions {
        live: args.live,
        max_bytes: args.max_mb.saturating_mul(1_000_000),
    };
    let packed = match pack(&args.dir, &args.into, options) {
        Ok(packed) => packed,
        Err(e) => {
            eprintln!("error: {e}");
            return if e.is_io() {
                exit::ABORTED
            } else {
                exit::USAGE
            };
        }
    };
    if packed.added.is_empty() {
        crate::stdout::line(format_args!(
            "Nothing to pack: {} holds the {} games of {} already",
            args.into.display(),
            packed.before,
            args.dir.display()
        ));
    }
    for (entry, bytes) in packed.added.iter().zip(&packed.chunk_bytes) {
        crate::stdout::line(format_args!(
            "Packed {} games ({} positions, ledger lines {}..{}) into {}: {bytes} bytes, {:.2} bytes a position",
            entry.games,
            entry.positions,
            entry.first_line,
            entry.last_line,
            args.into.join(&entry.file).display(),
            *bytes as f64 / entry.positions.max(1) as f64
        ));
    }
    crate::stdout::line(format_args!(
        "{}: {} chunks, {} positions, {:.1} of {} MB",
        args.into.display(),
        packed.chunks,
        packed.positions,
        packed.bytes as f64 / 1e6,
        args.max_mb
    ));
    exit::OK
}
