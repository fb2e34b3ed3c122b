//! Move notation: UCCI/ICCS coordinates (with the 1-10 rank variant some UCI engines use),
//! WXF move names for PGN, and Chinese move names.

mod chinese;
mod coords;
mod wxf;

pub use chinese::format_chinese;
pub use coords::{format_coords, parse_coords, RankBase};
pub use wxf::{format_wxf, parse_wxf, WxfError};
