//! The search: iterative deepening with aspiration windows over a principal variation
//! search with a transposition table, null move, late move reductions, pruning near the
//! leaves, check extension and a quiescence search. Single-threaded; the protocol runs it
//! on its own thread and talks to it through [`Control`].

mod driver;
mod eval_cache;
mod heuristics;
mod limits;
pub mod params;
mod picker;
pub mod score;
mod search_params;
mod searcher;
pub mod see;
mod table_memory;
mod trend;
mod tt;

pub use driver::{GameSoFar, Report, SearchResult};
pub use limits::{Budget, ClockReading, Control, Limits};
pub use search_params::{SearchParams, SEARCH_TUNABLES};
pub use searcher::Searcher;
pub use tt::{Bound, TranspositionTable};
