//! The piece-square tables of the full evaluation (level 6): `engine/data/tables.txt`,
//! fitted by `xq-texel --tables` to game results together with level 6's terms, and read
//! by the build. Levels 1..5 keep seed 000's tables ([`psqt`](super::psqt)); both stay
//! side by side, so what the fit changed reads square by square.
//!
//! The file has one line per kind and rank, Red's view (rank 0 is Red's back rank), nine
//! placement values in the engine's unit (a rook is 1000) relative to the kind's
//! material, files a to i: `horse 3: 6 30 60 ...`; `#` starts a comment.

use std::sync::OnceLock;

use thiserror::Error;

use super::psqt::{self, MATERIAL};
use crate::board::{Color, Piece, PieceKind, PieceValues, Square};

/// The file compiled into the engine.
const COMPILED: &str = include_str!("../../data/tables.txt");

/// Placement values `[kind][rank][file]`, Red's view.
pub type Tables = [[[i32; 9]; 10]; PieceKind::COUNT];

/// The names of the kinds in the file, by [`PieceKind::index`].
const NAMES: [&str; PieceKind::COUNT] = [
    "king", "advisor", "elephant", "horse", "rook", "cannon", "pawn",
];

/// A tables file that cannot be read; lines are 1-based.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TablesFileError {
    #[error("line {line}: `{text}` is not `kind rank: nine values`")]
    Syntax { line: usize, text: String },
    #[error("line {line}: `{name}` is not a piece kind ({})", NAMES.join(", "))]
    UnknownKind { line: usize, name: String },
    #[error("line {line}: {kind} {rank} is given twice")]
    Twice {
        line: usize,
        kind: &'static str,
        rank: usize,
    },
    #[error("{kind} {rank} is missing")]
    Missing { kind: &'static str, rank: usize },
}

/// The tables of a file's text: every kind's ten ranks, each once.
///
/// # Errors
/// [`TablesFileError`] for the first line that is not a rank of values, or the first
/// rank that no line gives.
pub fn parse(text: &str) -> Result<Tables, TablesFileError> {
    let mut tables = [[[0; 9]; 10]; PieceKind::COUNT];
    let mut seen = [[false; 10]; PieceKind::COUNT];
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let syntax = || TablesFileError::Syntax {
            line,
            text: content.chars().take(60).collect(),
        };
        let (head, values) = content.split_once(':').ok_or_else(syntax)?;
        let mut words = head.split_whitespace();
        let (Some(name), Some(rank), None) = (words.next(), words.next(), words.next()) else {
            return Err(syntax());
        };
        let kind = NAMES
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| TablesFileError::UnknownKind {
                line,
                name: name.chars().take(20).collect(),
            })?;
        let rank = rank
            .parse::<usize>()
            .ok()
            .filter(|r| *r < 10)
            .ok_or_else(syntax)?;
        let row: Vec<i32> = values
            .split_whitespace()
            .map(str::parse::<i32>)
            .collect::<Result<_, _>>()
            .map_err(|_| syntax())?;
        let row: [i32; 9] = row.try_into().map_err(|_| syntax())?;
        if std::mem::replace(&mut seen[kind][rank], true) {
            return Err(TablesFileError::Twice {
                line,
                kind: NAMES[kind],
                rank,
            });
        }
        tables[kind][rank] = row;
    }
    for (kind, ranks) in seen.iter().enumerate() {
        if let Some(rank) = ranks.iter().position(|s| !s) {
            return Err(TablesFileError::Missing {
                kind: NAMES[kind],
                rank,
            });
        }
    }
    Ok(tables)
}

/// The text of a tables file: the header as comment lines, then every kind's ranks.
#[must_use]
pub fn format(tables: &Tables, header: &str) -> String {
    let mut text = String::new();
    for line in header.lines() {
        text.push_str("# ");
        text.push_str(line);
        text.push('\n');
    }
    for (kind, ranks) in tables.iter().enumerate() {
        for (rank, row) in ranks.iter().enumerate() {
            let values: Vec<String> = row.iter().map(|v| format!("{v:>5}")).collect();
            text.push_str(&format!("{:<8} {rank}:{}\n", NAMES[kind], values.join("")));
        }
    }
    text
}

/// Seed 000's tables (the ones levels 1..5 use), in the file's form.
#[must_use]
pub fn seeds() -> Tables {
    let mut tables = [[[0; 9]; 10]; PieceKind::COUNT];
    for kind in PieceKind::ALL {
        for sq in Square::ALL {
            tables[kind.index()][sq.rank().index()][sq.file().index()] =
                psqt::placement(Piece::new(Color::Red, kind), sq);
        }
    }
    tables
}

/// The values a position sums for tables: the seeds' material, and each piece's
/// placement from its owner's view (Black's tables are Red's flipped top to bottom).
#[must_use]
pub fn values(tables: &Tables) -> PieceValues {
    let mut placement = [[0; Square::COUNT]; Piece::INDEX_COUNT];
    for piece in Piece::ALL {
        for sq in Square::ALL {
            let own = match piece.color() {
                Color::Red => sq,
                Color::Black => sq.flip(),
            };
            placement[piece.index()][sq.index()] =
                tables[piece.kind().index()][own.rank().index()][own.file().index()];
        }
    }
    PieceValues {
        material: MATERIAL,
        placement,
    }
}

/// The values of the tables compiled in from `engine/data/tables.txt`: level 6's.
#[must_use]
pub fn compiled() -> &'static PieceValues {
    static VALUES: OnceLock<PieceValues> = OnceLock::new();
    VALUES.get_or_init(|| {
        // The file is part of the source; the test below keeps it readable.
        let tables = parse(COMPILED).unwrap_or_else(|e| panic!("engine/data/tables.txt: {e}"));
        values(&tables)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_compiled_file_reads_and_is_left_right_symmetric() {
        let tables = parse(COMPILED).expect("engine/data/tables.txt");
        for (kind, ranks) in tables.iter().enumerate() {
            for (rank, row) in ranks.iter().enumerate() {
                for file in 0..9 {
                    assert_eq!(row[file], row[8 - file], "{} {rank}", NAMES[kind]);
                }
            }
        }
    }

    #[test]
    fn the_seeds_tables_written_and_read_back_are_the_seeds_values() {
        let text = format(&seeds(), "the seeds\nof 000");
        assert!(text.starts_with("# the seeds\n# of 000\nking     0:"));
        let read = parse(&text).expect("written tables");
        assert_eq!(values(&read), psqt::VALUES);
    }

    #[test]
    fn bad_lines_are_named_by_number() {
        let good = format(&seeds(), "");
        let error = |text: &str| parse(text).expect_err(text).to_string();
        assert!(error(&good.replacen("horse    3:", "horse 3 3:", 1))
            .starts_with("line 34: `horse 3 3:"));
        assert!(error(&good.replacen("rook ", "tower", 1))
            .starts_with("line 41: `tower` is not a piece kind (king, advisor"));
        assert_eq!(
            error(&good.replacen("pawn     9:", "pawn     8:", 1)),
            "line 70: pawn 8 is given twice"
        );
        let short: String = good.lines().take(69).map(|l| format!("{l}\n")).collect();
        assert_eq!(error(&short), "pawn 9 is missing");
        assert!(error("king 0: 1 2 3").starts_with("line 1: `king 0: 1 2 3` is not"));
    }
}
