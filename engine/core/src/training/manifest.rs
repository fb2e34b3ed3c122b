//! `manifest.tsv`, the list of a data folder's chunks: a comment, a header row, then one
//! row a chunk, fields separated by tabs (one line a chunk keeps merges of two
//! machines' additions simple). `-` stands for a value not known.

use std::fmt::Write as _;

use thiserror::Error;

/// The manifest's file name in a data folder.
pub const MANIFEST_FILE: &str = "manifest.tsv";
/// The extension of chunk files.
pub const CHUNK_EXTENSION: &str = "xqg";

/// The header row: the fields of a row, in order.
pub const COLUMNS: [&str; 15] = [
    "file",
    "games",
    "positions",
    "bench",
    "commit",
    "level",
    "net",
    "limit",
    "random_plies",
    "seed",
    "source",
    "first_line",
    "last_line",
    "date",
    "sha256",
];

const COMMENT: &str =
    "# Self-play game records for the learned evaluation: docs/nnue.md. One row a chunk,\n\
# fields separated by tabs. Added to by `xq-runner datagen pack`; read by `xq-nnue train`.\n";

/// One chunk as the manifest lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ManifestEntry {
    /// The chunk's file name in the folder.
    pub file: String,
    pub games: u64,
    /// Positions an engine searched (the chunk header's count; the trainer keeps fewer).
    pub positions: u64,
    /// The engine's `bench` node count (its build's signature).
    pub bench: Option<u64>,
    /// The git commit of the engine's checkout when the datagen started or resumed.
    pub commit: String,
    /// The engine's `evallevel` option, `-` when the config sets none.
    pub level: String,
    /// The engine's `evalfile` option, `-` when the config sets none.
    pub net: String,
    /// `nodes=N` or `depth=D`.
    pub limit: String,
    pub random_plies: u32,
    pub seed: u64,
    /// The datagen folder's id: with the lines, which of its games this chunk holds.
    pub source: String,
    /// The datagen ledger's lines this chunk holds, 1-based, both included.
    pub first_line: u64,
    pub last_line: u64,
    /// When it was packed, `YYYY-MM-DD` (UTC).
    pub date: String,
    /// SHA-256 of the chunk file, lowercase hex (as `sha256sum` prints it).
    pub sha256: String,
}

/// Why a manifest cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ManifestError {
    #[error("line {line}: not the header row of a manifest (expected: {})", COLUMNS.join(" "))]
    Header { line: usize },
    #[error("no header row")]
    NoHeader,
    #[error("line {line}: {why}")]
    Row { line: usize, why: String },
}

/// A data folder's manifest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    pub entries: Vec<ManifestEntry>,
}

impl Manifest {
    /// Reads a manifest's text. A bad row fails the whole: a writer must not add to a
    /// manifest it cannot read back.
    ///
    /// # Errors
    /// [`ManifestError`] naming the first bad line (1-based).
    pub fn parse(text: &str) -> Result<Manifest, ManifestError> {
        let mut entries = Vec::new();
        let mut header = false;
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split('\t').collect();
            if !header {
                if fields != COLUMNS {
                    return Err(ManifestError::Header { line: line_no });
                }
                header = true;
                continue;
            }
            entries.push(row(&fields).map_err(|why| ManifestError::Row { line: line_no, why })?);
        }
        if !header {
            return Err(ManifestError::NoHeader);
        }
        Ok(Manifest { entries })
    }

    /// The manifest's text: the comment, the header row, a row per entry.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = String::from(COMMENT);
        out.push_str(&COLUMNS.join("\t"));
        out.push('\n');
        for e in &self.entries {
            let bench = e.bench.map_or_else(|| "-".to_owned(), |b| b.to_string());
            let _ = writeln!(
                out,
                "{}\t{}\t{}\t{bench}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                e.file,
                e.games,
                e.positions,
                e.commit,
                e.level,
                e.net,
                e.limit,
                e.random_plies,
                e.seed,
                e.source,
                e.first_line,
                e.last_line,
                e.date,
                e.sha256
            );
        }
        out
    }

    /// The entry of a chunk whose file has this SHA-256.
    #[must_use]
    pub fn with_sha256(&self, sha256: &str) -> Option<&ManifestEntry> {
        self.entries.iter().find(|e| e.sha256 == sha256)
    }

    /// The last ledger line of `source` that a chunk holds (0 when none).
    #[must_use]
    pub fn packed_lines(&self, source: &str) -> u64 {
        self.entries
            .iter()
            .filter(|e| e.source == source)
            .map(|e| e.last_line)
            .max()
            .unwrap_or(0)
    }

    /// Positions in all chunks.
    #[must_use]
    pub fn positions(&self) -> u64 {
        self.entries.iter().map(|e| e.positions).sum()
    }
}

/// A text field that the manifest can hold: no tab, no line break, not empty.
#[must_use]
pub fn field(text: &str) -> String {
    let clean: String = text
        .chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect();
    if clean.is_empty() {
        "-".to_owned()
    } else {
        clean
    }
}

fn row(fields: &[&str]) -> Result<ManifestEntry, String> {
    if fields.len() != COLUMNS.len() {
        return Err(format!(
            "{} fields, a row has {}",
            fields.len(),
            COLUMNS.len()
        ));
    }
    let text = |i: usize| -> Result<String, String> {
        if fields[i].is_empty() {
            Err(format!("{} is empty", COLUMNS[i]))
        } else {
            Ok(fields[i].to_owned())
        }
    };
    let number = |i: usize| -> Result<u64, String> {
        fields[i]
            .parse()
            .map_err(|_| format!("{} `{}` is not a number", COLUMNS[i], fields[i]))
    };
    let file = text(0)?;
    if file.contains('/') || file.contains('\\') || file.starts_with('.') {
        return Err(format!("file `{file}` is not a file name in the folder"));
    }
    let sha256 = text(14)?;
    if sha256.len() != 64
        || !sha256
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return Err(format!("sha256 `{sha256}` is not 64 lowercase hex digits"));
    }
    Ok(ManifestEntry {
        file,
        games: number(1)?,
        positions: number(2)?,
        bench: if fields[3] == "-" {
            None
        } else {
            Some(number(3)?)
        },
        commit: text(4)?,
        level: text(5)?,
        net: text(6)?,
        limit: text(7)?,
        random_plies: u32::try_from(number(8)?)
            .map_err(|_| "random_plies is too large".to_owned())?,
        seed: number(9)?,
        source: text(10)?,
        first_line: number(11)?,
        last_line: number(12)?,
        date: text(13)?,
        sha256,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(file: &str) -> ManifestEntry {
        ManifestEntry {
            file: file.to_owned(),
            games: 12,
            positions: 1234,
            bench: Some(604_757),
            commit: "f390714".to_owned(),
            level: "6".to_owned(),
            net: "-".to_owned(),
            limit: "nodes=5000".to_owned(),
            random_plies: 8,
            seed: 1,
            source: "0123456789abcdef".to_owned(),
            first_line: 1,
            last_line: 12,
            date: "2026-12-07".to_owned(),
            sha256: "ab".repeat(32),
        }
    }

    #[test]
    fn a_manifest_round_trips_through_its_text() {
        let mut second = entry("b.xqg");
        second.bench = None;
        second.first_line = 13;
        second.last_line = 20;
        let manifest = Manifest {
            entries: vec![entry("a.xqg"), second],
        };
        let text = manifest.to_text();
        assert_eq!(Manifest::parse(&text), Ok(manifest.clone()));
        assert_eq!(manifest.packed_lines("0123456789abcdef"), 20);
        assert_eq!(manifest.packed_lines("other"), 0);
        assert_eq!(manifest.positions(), 2468);
        assert!(Manifest::parse(&Manifest::default().to_text()).is_ok());
    }

    #[test]
    fn bad_rows_name_their_line() {
        let good = Manifest {
            entries: vec![entry("a.xqg")],
        }
        .to_text();
        let header_line = 3;
        assert_eq!(
            Manifest::parse("# only a comment\n"),
            Err(ManifestError::NoHeader)
        );
        assert_eq!(
            Manifest::parse(&good.replace("positions", "records")),
            Err(ManifestError::Header { line: header_line })
        );
        let err = Manifest::parse(&good.replace("\t1234\t", "\tmany\t")).expect_err("bad");
        assert_eq!(err.to_string(), "line 4: positions `many` is not a number");
        let err = Manifest::parse(&good.replace("a.xqg", "../a.xqg")).expect_err("bad");
        assert!(err.to_string().starts_with("line 4: file"), "{err}");
        let err = Manifest::parse(&format!("{good}x\ty\n")).expect_err("bad");
        assert_eq!(err.to_string(), "line 5: 2 fields, a row has 15");
        assert_eq!(field("a b\tc"), "a_b_c");
        assert_eq!(field(""), "-");
    }
}
