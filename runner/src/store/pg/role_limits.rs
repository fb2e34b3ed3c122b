//! The timeouts of the worker and reader roles (`db init --worker-role/--reader-role`):
//! defaults every session of the role starts with, so that a client left open (a psql
//! in a transaction, a stuck process) cannot hold a run's lock or a connection's work
//! for good. A session can set them off again for itself; the functions a worker calls
//! bound their own lock waits (`schema_v6.sql`) and every runner's statement waits for
//! a lock at most [`super::LOCK_WAIT_S`] s, so no one waits for such a session forever.

use tokio_postgres::error::SqlState;

use super::schema::quote_identifier;
use super::{query_error, Db, DbError};

/// The defaults set, and why each: the runner never leaves a transaction open (each of
/// its statements is one); its longest statement, a submit of the largest batch, takes
/// seconds; the functions' own lock waits are 5 s.
pub const ROLE_TIMEOUTS: [(&str, &str); 3] = [
    ("idle_in_transaction_session_timeout", "10s"),
    ("statement_timeout", "120s"),
    ("lock_timeout", "10s"),
];

/// Whether a role's timeouts were set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoleLimits {
    Set,
    /// Only a superuser, or a role with CREATEROLE, sets another role's defaults: the
    /// statements its administrator runs instead.
    NotAllowed {
        sql: String,
    },
}

impl Db {
    /// Sets [`ROLE_TIMEOUTS`] as the defaults of `role`'s sessions.
    ///
    /// # Errors
    /// [`DbError::Query`] for an unknown role or a broken connection (a missing right is
    /// [`RoleLimits::NotAllowed`]).
    pub async fn limit_role(&self, role: &str) -> Result<RoleLimits, DbError> {
        let quoted = quote_identifier(role);
        let sql: String = ROLE_TIMEOUTS
            .iter()
            .map(|(name, value)| format!("ALTER ROLE {quoted} SET {name} = '{value}';"))
            .collect::<Vec<_>>()
            .join(" ");
        match self.client().batch_execute(&sql).await {
            Ok(()) => Ok(RoleLimits::Set),
            Err(e) if e.code() == Some(&SqlState::INSUFFICIENT_PRIVILEGE) => {
                Ok(RoleLimits::NotAllowed { sql })
            }
            Err(e) => Err(query_error(&e)),
        }
    }
}
