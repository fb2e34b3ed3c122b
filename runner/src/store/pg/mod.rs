//! PostgreSQL as the store of runs played on many machines: the schema (`schema.sql`),
//! connecting as libpq would (`connect.rs`), runs (`runs.rs`: submit, cancel, status,
//! games), batches (`batches.rs`: claim, renew, release, submit under a lease), tune
//! runs (`tune.rs`: their SPSA state, a batch of iterations submitted, their records) and
//! workers (`workers.rs`: each worker's stored games counted, the owner's purge).
//!
//! Every statement a worker runs is a function of the schema, called in short
//! transactions. A worker hands in the games of a batch it holds and nothing else: the
//! server checks them, counts them from what it stores and decides the run's end, under
//! the run's row lock, so every batch's games and their count commit together or not at
//! all, and no worker can set a count or a verdict.

pub(crate) mod artifacts;
pub(crate) mod batches;
pub(crate) mod committed;
pub mod connect;
pub(crate) mod game_rules;
pub(crate) mod machine;
pub(crate) mod reader;
pub(crate) mod role_limits;
pub(crate) mod runs;
pub(crate) mod schema;
pub(crate) mod tune;
pub(crate) mod workers;

use std::sync::Arc;

use thiserror::Error;
use tokio::sync::Notify;
use tokio_postgres::error::SqlState;
use tokio_postgres::{AsyncMessage, Client};

pub use connect::{resolve, Source, Target};

/// Why the database could not be used.
#[derive(Debug, Error)]
pub enum DbError {
    /// The address, the TLS settings or a password given where it must not be.
    #[error("database: {0}")]
    Config(String),
    /// The server cannot be reached, or refused the login.
    #[error("cannot connect to {target}: {why}")]
    Connect { target: String, why: String },
    /// No schema, or one of another version.
    #[error("{0}")]
    Schema(String),
    /// A statement failed: the server's answer, which will not change.
    #[error("database: {0}")]
    Query(String),
    /// The connection broke (closed, an I/O error): the server may come back.
    #[error("database: connection: {0}")]
    Connection(String),
    /// The connected role may not run a statement (a role other than the one the
    /// command needs: `fleet::roles` names it).
    #[error("database: {0}")]
    Denied(String),
    /// The batch is no longer this worker's: its lease was lost and it went to another.
    #[error("{0}")]
    LeaseLost(String),
    /// The run is closed (a verdict, cancelled, aborted).
    #[error("{0}")]
    RunClosed(String),
    /// The server refused what a worker sent (a game that does not belong to the batch,
    /// a lease out of bounds): nothing of it is stored.
    #[error("refused by the server: {0}")]
    Refused(String),
    /// No run with this id.
    #[error("no run {0} in the database")]
    NoRun(i64),
    /// The server undid the statement for a conflict with another transaction (a
    /// deadlock or a serialization failure): nothing of it took effect, and the same
    /// statement again may go through.
    #[error("database: {0} (undone; trying again)")]
    Conflict(String),
    /// A lock another session holds was waited for as long as allowed (a transaction
    /// left open, by a worker or anyone): nothing of the statement took effect.
    #[error("database: {0}: another session holds a lock this needs (a transaction left open? see pg_stat_activity); nothing was changed")]
    Locked(String),
    /// The worker's name is bound to another live connection (the server's
    /// `xq.bind_worker`): another process uses it, or this one's old connection has not
    /// been given up yet.
    #[error("{0}")]
    NameInUse(String),
}

impl DbError {
    /// Whether trying again later may help: the server went away or the connection
    /// broke, as opposed to an answer that will not change.
    #[must_use]
    pub fn is_transient(&self) -> bool {
        matches!(
            self,
            DbError::Connect { .. }
                | DbError::Connection(_)
                | DbError::Conflict(_)
                | DbError::Locked(_)
                | DbError::NameInUse(_)
        )
    }
}

/// The longest a statement of the runner waits for a lock another session holds.
pub const LOCK_WAIT_S: u32 = 30;

/// A statement's error in one line: the server's message, or the connection's.
fn query_error(e: &tokio_postgres::Error) -> DbError {
    if let Some(db) = e.as_db_error() {
        let code = db.code().code();
        let message = db.message().to_owned();
        return match code {
            "XQ001" => DbError::LeaseLost(message),
            "XQ002" => DbError::RunClosed(message),
            "XQ003" => DbError::Refused(message),
            "XQ004" => DbError::NameInUse(message),
            _ if *db.code() == SqlState::LOCK_NOT_AVAILABLE => DbError::Locked(message),
            _ if *db.code() == SqlState::T_R_DEADLOCK_DETECTED
                || *db.code() == SqlState::T_R_SERIALIZATION_FAILURE =>
            {
                DbError::Conflict(message)
            }
            _ if *db.code() == SqlState::INSUFFICIENT_PRIVILEGE => DbError::Denied(message),
            _ => DbError::Query(message),
        };
    }
    // Closed connections, I/O errors and the like: the server may come back.
    DbError::Connection(e.to_string())
}

/// Why a connection could not be made, with its cause: the driver's own message says
/// only "error connecting to server", the cause under it (refused, no such socket,
/// timed out) is what the user can act on.
fn connect_cause(e: &tokio_postgres::Error) -> String {
    let mut why = e.to_string();
    let mut source = std::error::Error::source(e);
    let mut nothing_listens = false;
    while let Some(cause) = source {
        if let Some(io) = cause.downcast_ref::<std::io::Error>() {
            nothing_listens |= matches!(
                io.kind(),
                std::io::ErrorKind::ConnectionRefused | std::io::ErrorKind::NotFound
            );
        }
        why.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    if nothing_listens {
        why.push_str(" (is a PostgreSQL server running at that host and port?)");
    }
    why
}

/// Drives a connection until it ends (the client's statements go through it), and
/// passes on each notification of the `xq_runs` channel (a run submitted, a batch given
/// back, a run closed) as a permit on `runs_changed`.
async fn drive<S, T>(mut connection: tokio_postgres::Connection<S, T>, runs_changed: Arc<Notify>)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
    T: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    loop {
        match std::future::poll_fn(|cx| connection.poll_message(cx)).await {
            Some(Ok(AsyncMessage::Notification(_))) => runs_changed.notify_one(),
            Some(Ok(_)) => {}
            Some(Err(e)) => {
                tracing::debug!("database connection ended: {e}");
                break;
            }
            None => break,
        }
    }
}

/// An open connection to the runner's database.
#[derive(Debug)]
pub struct Db {
    client: Client,
    target: Target,
    runs_changed: Arc<Notify>,
}

impl Db {
    /// Connects and checks the schema's version (see [`schema::check`]).
    ///
    /// # Errors
    /// [`DbError::Connect`] when the server cannot be reached or refuses the login,
    /// [`DbError::Schema`] for a missing schema or another version.
    pub async fn open(target: &Target) -> Result<Db, DbError> {
        let db = Db::connect(target).await?;
        schema::check(&db.client).await?;
        Ok(db)
    }

    /// Connects without looking at the schema (`db init`, and a submit creating it).
    ///
    /// # Errors
    /// [`DbError::Connect`].
    pub async fn connect(target: &Target) -> Result<Db, DbError> {
        let failed = |e: tokio_postgres::Error| DbError::Connect {
            target: target.describe(),
            why: e
                .as_db_error()
                .map_or_else(|| connect_cause(&e), |d| d.message().to_owned()),
        };
        // libpq uses no TLS on a Unix socket: the connection never leaves the machine.
        let local = matches!(
            target.config.get_hosts().first(),
            Some(tokio_postgres::config::Host::Unix(_))
        );
        let runs_changed = Arc::new(Notify::new());
        let client = if local {
            let (client, connection) = target
                .config
                .connect(tokio_postgres::NoTls)
                .await
                .map_err(failed)?;
            tokio::spawn(drive(connection, Arc::clone(&runs_changed)));
            client
        } else {
            let (client, connection) = target
                .config
                .connect(target.tls_connector()?)
                .await
                .map_err(failed)?;
            tokio::spawn(drive(connection, Arc::clone(&runs_changed)));
            client
        };
        // No statement of this connection waits for a lock without end: a session that
        // leaves a transaction open (or holds an advisory lock) costs a waiter at most
        // this, then an error that says so (the worker's functions wait 5 s at most).
        client
            .batch_execute(&format!("SET lock_timeout = '{LOCK_WAIT_S}s'"))
            .await
            .map_err(|e| query_error(&e))?;
        Ok(Db {
            client,
            target: target.clone(),
            runs_changed,
        })
    }

    /// Whether the connection is gone (the server restarted, the network dropped).
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.client.is_closed()
    }

    /// The same target, connected again.
    ///
    /// # Errors
    /// As [`Db::open`].
    pub async fn reopen(&self) -> Result<Db, DbError> {
        Db::open(&self.target).await
    }

    /// The target, for messages.
    #[must_use]
    pub fn target(&self) -> &Target {
        &self.target
    }

    /// Subscribes this connection to the news of runs (see [`Db::runs_changed`]).
    ///
    /// # Errors
    /// [`DbError::Query`].
    pub async fn listen(&self) -> Result<(), DbError> {
        self.client
            .batch_execute("LISTEN xq_runs")
            .await
            .map_err(|e| query_error(&e))
    }

    /// Resolves when, after [`Db::listen`], a run was submitted, a batch given back or
    /// a run closed (or at once, if that happened since the last call).
    pub async fn runs_changed(&self) {
        self.runs_changed.notified().await;
    }

    pub(crate) fn client(&self) -> &Client {
        &self.client
    }
}
