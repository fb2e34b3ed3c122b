//! The machine a worker runs on (`xq.report_machine`, `schema_v8.sql`): its host name,
//! operating system, architecture and cores, for the workers page. A worker reports its
//! own once a connection; the server binds the name to that connection first, so no
//! worker describes another.

use super::{query_error, Db, DbError};

/// What a worker says of its machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    pub host: String,
    pub os: String,
    pub arch: String,
    pub cores: i32,
}

impl Machine {
    /// This machine: its host name (`worker` when unknown), the OS and architecture the
    /// runner was built for, and the cores the process may use.
    #[must_use]
    pub fn here() -> Machine {
        Machine {
            host: host_name(),
            os: std::env::consts::OS.to_owned(),
            arch: std::env::consts::ARCH.to_owned(),
            cores: std::thread::available_parallelism()
                .map_or(1, |n| i32::try_from(n.get()).unwrap_or(i32::MAX)),
        }
    }
}

/// The machine's name as the kernel has it, trimmed and cut to the server's 100
/// characters (control characters dropped: the server refuses them); `worker` when
/// there is none.
#[must_use]
pub fn host_name() -> String {
    let name: String = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .unwrap_or_default()
        .trim()
        .chars()
        .filter(|c| !c.is_control())
        .take(100)
        .collect();
    if name.is_empty() {
        "worker".to_owned()
    } else {
        name
    }
}

impl Db {
    /// Says which machine `worker` runs on.
    ///
    /// # Errors
    /// [`DbError::Refused`] (a text out of bounds), [`DbError::NameInUse`] (another live
    /// connection holds the name), [`DbError::Query`].
    pub async fn report_machine(&self, worker: &str, machine: &Machine) -> Result<(), DbError> {
        self.client()
            .execute(
                "SELECT xq.report_machine($1, $2, $3, $4, $5)",
                &[
                    &worker,
                    &machine.host,
                    &machine.os,
                    &machine.arch,
                    &machine.cores,
                ],
            )
            .await
            .map_err(|e| query_error(&e))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_machine_reads_as_the_server_accepts_it() {
        let m = Machine::here();
        assert!((1..=100).contains(&m.host.chars().count()));
        assert!(!m.host.chars().any(char::is_control));
        assert!(!m.os.is_empty() && !m.arch.is_empty());
        assert!(m.cores >= 1);
    }
}
