//! The files a run carries (`xq.artifacts`, `xq.artifact_chunks`, `xq.run_files`):
//! written by `submit` in the transaction that stores the run, each file once by its
//! SHA-256 and a chunk at a time; read by a worker a few chunks at a time, so that
//! neither side ever holds a whole 100 MB engine in memory.

use std::io::Read;
use std::path::PathBuf;

use tokio_postgres::Transaction;

use super::{query_error, Db, DbError};
use crate::store::artifact::{Hasher, Identity};

/// The size of a stored chunk.
pub const CHUNK: usize = 1 << 20;

/// Chunks read per query when downloading.
const CHUNKS_PER_READ: i64 = 4;

/// What a stored file is to its run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileRole {
    /// An engine's program.
    Program,
    /// A file an engine needs beside its program.
    File,
    /// The run's opening file.
    Openings,
}

impl FileRole {
    fn as_str(self) -> &'static str {
        match self {
            FileRole::Program => "program",
            FileRole::File => "file",
            FileRole::Openings => "openings",
        }
    }

    fn parse(text: &str) -> Option<FileRole> {
        match text {
            "program" => Some(FileRole::Program),
            "file" => Some(FileRole::File),
            "openings" => Some(FileRole::Openings),
            _ => None,
        }
    }
}

/// A file of a run: which engine (by its `[[engine]]` index; `None` for the opening
/// file), what it is, where it goes in the engine's folder, and what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunFile {
    pub engine: Option<usize>,
    pub role: FileRole,
    pub name: String,
    pub identity: Identity,
}

/// A file to store with a new run: the run's view of it, and where it is here.
#[derive(Clone, Debug)]
pub struct Upload {
    pub file: RunFile,
    pub path: PathBuf,
}

/// Stores the uploads of run `run` in `tx`: each artifact that is not stored yet, read
/// from its file a chunk at a time (and hashed again as it is read, so a file changed
/// since it was identified is refused), and the run's list of files.
pub(super) async fn store(
    tx: &Transaction<'_>,
    run: i64,
    uploads: &[Upload],
) -> Result<(), DbError> {
    let q = |e: tokio_postgres::Error| query_error(&e);
    let insert_chunk = tx
        .prepare("INSERT INTO xq.artifact_chunks (sha256, seq, data) VALUES ($1, $2, $3)")
        .await
        .map_err(q)?;
    for upload in uploads {
        let id = &upload.file.identity;
        let new = tx
            .query_opt(
                "INSERT INTO xq.artifacts (sha256, size, platform) VALUES ($1, $2, $3)
                 ON CONFLICT (sha256) DO NOTHING RETURNING sha256",
                &[
                    &id.sha256,
                    &i64::try_from(id.size).unwrap_or(i64::MAX),
                    &id.platform,
                ],
            )
            .await
            .map_err(q)?
            .is_some();
        if new {
            let path = upload.path.display();
            let fail = |e: std::io::Error| DbError::Query(format!("{path}: cannot read: {e}"));
            let mut file = std::fs::File::open(&upload.path).map_err(fail)?;
            let mut hasher = Hasher::default();
            let mut buffer = vec![0u8; CHUNK];
            let mut seq = 0i32;
            loop {
                let n = read_full(&mut file, &mut buffer).map_err(fail)?;
                if n == 0 {
                    break;
                }
                hasher.update(&buffer[..n]);
                tx.execute(&insert_chunk, &[&id.sha256, &seq, &&buffer[..n]])
                    .await
                    .map_err(q)?;
                seq += 1;
            }
            if hasher.finish() != id.sha256 {
                return Err(DbError::Query(format!(
                    "{path}: changed while it was stored: submit again"
                )));
            }
        }
        tx.execute(
            "INSERT INTO xq.run_files (run_id, engine, role, name, sha256) VALUES ($1, $2, $3, $4, $5)",
            &[
                &run,
                &upload.file.engine.map(|e| i32::try_from(e).unwrap_or(i32::MAX)),
                &upload.file.role.as_str(),
                &upload.file.name,
                &id.sha256,
            ],
        )
        .await
        .map_err(q)?;
    }
    // Each engine's build, as the pages and `status` name it: the same rule as the
    // upgrade to schema 7 applies to older runs (`schema_v7.sql`).
    tx.execute(
        "UPDATE xq.runs SET builds = coalesce(
             (SELECT jsonb_object_agg(f.engine::text, left(f.sha256, 12))
              FROM xq.run_files AS f WHERE f.run_id = $1 AND f.role = 'program'),
             '{}'::jsonb)
         WHERE id = $1",
        &[&run],
    )
    .await
    .map_err(q)?;
    Ok(())
}

/// Reads until `buffer` is full or the file ends: chunks are whole but the last.
fn read_full(file: &mut impl Read, buffer: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buffer.len() {
        match file.read(&mut buffer[got..])? {
            0 => break,
            n => got += n,
        }
    }
    Ok(got)
}

impl Db {
    /// The files run `run` carries (none for a run whose engines are installed on
    /// every worker).
    ///
    /// # Errors
    /// [`DbError::Query`], also for a row this runner cannot read.
    pub async fn run_files(&self, run: i64) -> Result<Vec<RunFile>, DbError> {
        let rows = self
            .client()
            .query(
                "SELECT f.engine, f.role, f.name, a.sha256, a.size, a.platform
                 FROM xq.run_files AS f JOIN xq.artifacts AS a USING (sha256)
                 WHERE f.run_id = $1 ORDER BY f.engine NULLS FIRST, f.role, f.name",
                &[&run],
            )
            .await
            .map_err(|e| query_error(&e))?;
        rows.iter()
            .map(|row| {
                let role: &str = row.get(1);
                let role = FileRole::parse(role)
                    .ok_or_else(|| DbError::Query(format!("run {run}: a file of role {role:?}")))?;
                Ok(RunFile {
                    engine: row
                        .get::<_, Option<i32>>(0)
                        .map(|e| usize::try_from(e).unwrap_or(usize::MAX)),
                    role,
                    name: row.get(2),
                    identity: Identity {
                        sha256: row.get(3),
                        size: u64::try_from(row.get::<_, i64>(4)).unwrap_or(0),
                        platform: row.get(5),
                    },
                })
            })
            .collect()
    }

    /// Streams artifact `sha256` to `write`, a few chunks at a time, in order.
    ///
    /// # Errors
    /// [`DbError::Query`]; what `write` returns, as a query error naming it.
    pub async fn download(
        &self,
        sha256: &str,
        mut write: impl FnMut(&[u8]) -> std::io::Result<()>,
    ) -> Result<u64, DbError> {
        let mut next = 0i32;
        let mut bytes = 0u64;
        loop {
            let rows = self
                .client()
                .query(
                    "SELECT seq, data FROM xq.artifact_chunks WHERE sha256 = $1 AND seq >= $2
                     ORDER BY seq LIMIT $3",
                    &[&sha256, &next, &CHUNKS_PER_READ],
                )
                .await
                .map_err(|e| query_error(&e))?;
            if rows.is_empty() {
                return Ok(bytes);
            }
            for row in &rows {
                let seq: i32 = row.get(0);
                if seq != next {
                    return Err(DbError::Query(format!(
                        "artifact {sha256}: chunk {next} is missing"
                    )));
                }
                let data: &[u8] = row.get(1);
                write(data)
                    .map_err(|e| DbError::Query(format!("writing artifact {sha256}: {e}")))?;
                bytes += data.len() as u64;
                next += 1;
            }
        }
    }
}
