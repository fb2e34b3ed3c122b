//! Which of the database's roles a command needs (docs/fleet.md, "Roles"): the owner
//! submits, cancels and purges, the worker role claims and submits batches, a reader
//! role reads. A statement the connected role may not run is named with the role to
//! connect as, rather than the server's "permission denied for table runs" alone.

use crate::store::pg::{DbError, Target};

/// The role a command must connect as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The role `db init` ran as, which owns the schema.
    Owner,
    /// A role `db init --worker-role NAME` granted what workers need.
    Worker,
}

impl Role {
    fn connect_as(self) -> &'static str {
        match self {
            Role::Owner => "the database's owner role (the role `xq-runner db init` ran as)",
            Role::Worker => "the worker role (`xq-runner db init --worker-role NAME` grants one)",
        }
    }
}

/// The line of an error of a command that `does` something (`submit runs`) as `role`:
/// a refused statement names the role connected and the one to connect as; any other
/// error is its own line.
#[must_use]
pub fn explain(e: &DbError, target: &Target, does: &str, role: Role) -> String {
    match e {
        DbError::Denied(why) => format!(
            "role {} may not {does} ({why}): connect as {}",
            target.config.get_user().unwrap_or("?"),
            role.connect_as()
        ),
        other => other.to_string(),
    }
}
