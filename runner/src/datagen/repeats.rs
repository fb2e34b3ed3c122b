//! Games that a data folder holds already under another datagen folder's id. At fixed
//! nodes or depth the engine plays the same game from the same start, and a game's
//! start follows from the seeds and its index alone: two datagens of one config (the
//! ready config on two machines, say) play the same games, which would count twice.
//! So a pack compares its games with those of the chunks made by the same engine build
//! at the same settings, and refuses a repeat.

use std::collections::HashSet;
use std::path::Path;

use xq_core::board::Move;
use xq_core::training::{read_chunk_file, Manifest, ManifestEntry, SelfPlayGame};

/// A game's identity for the comparison: its start and moves.
fn key(game: &SelfPlayGame) -> (String, Vec<Move>) {
    (
        game.start_fen.clone(),
        game.moves.iter().map(|m| m.mv).collect(),
    )
}

/// Whether two rows were generated alike: the same known build, level, network,
/// limit, random plies and seed, from another datagen folder.
fn alike(a: &ManifestEntry, b: &ManifestEntry) -> bool {
    a.bench.is_some()
        && a.bench == b.bench
        && a.source != b.source
        && (&a.level, &a.net, &a.limit, a.random_plies, a.seed)
            == (&b.level, &b.net, &b.limit, b.random_plies, b.seed)
}

/// The first of `games` (to be packed as `entry`) that a chunk of `dir` holds already,
/// with that chunk's file name. Chunks that cannot be read are left out here (the
/// trainer names them).
#[must_use]
pub fn first_repeat(
    dir: &Path,
    manifest: &Manifest,
    entry: &ManifestEntry,
    games: &[SelfPlayGame],
) -> Option<(String, u64)> {
    for other in manifest.entries.iter().filter(|e| alike(e, entry)) {
        let Ok((_, theirs)) = read_chunk_file(&dir.join(&other.file)) else {
            continue;
        };
        let known: HashSet<_> = theirs.iter().map(key).collect();
        if let Some(game) = games.iter().find(|g| known.contains(&key(g))) {
            return Some((other.file.clone(), game.index));
        }
    }
    None
}
