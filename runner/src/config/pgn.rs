//! The PGN settings of `[output]`: how moves are written and what a move comment adds.
//! They are the config's types, so that the config never imports the outputs above it.

use serde::{Deserialize, Serialize};

/// How moves are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MoveFormat {
    /// ICCS coordinates with a dash and capitals: `H2-E2`.
    #[default]
    Iccs,
    /// WXF names: `C2.5`.
    Wxf,
}

/// The optional fields of a move comment, fastchess's `-pgnout nodes=true
/// seldepth=true nps=true`; each is written only where the engine gave it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PgnExtras {
    /// `n=<nodes>`.
    pub nodes: bool,
    /// `sd=<selective depth>`.
    pub seldepth: bool,
    /// `nps=<nodes per second>`, as the engine reported it.
    pub nps: bool,
}
