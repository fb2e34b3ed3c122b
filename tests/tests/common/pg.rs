//! A throwaway PostgreSQL cluster for one test: `initdb` into a temporary folder, a
//! server on a free port and a Unix socket in that folder, removed when the value is
//! dropped. A real server, never a mock; a test that needs it fails (never skips) when it
//! cannot start, naming what is missing. As root (CI) the server runs as the `postgres`
//! user, since initdb and postgres refuse to run as root.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A running cluster.
pub struct Cluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    pub port: u16,
    server: Option<Child>,
    as_postgres: bool,
}

/// The folder of the server binaries: `XQ_PG_BIN`, Debian's `/usr/lib/postgresql/N/bin`
/// (newest first), or the `PATH`.
fn server_bin() -> PathBuf {
    if let Ok(dir) = std::env::var("XQ_PG_BIN") {
        return PathBuf::from(dir);
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .map(|d| {
            d.filter_map(Result::ok)
                .map(|e| e.path().join("bin"))
                .collect()
        })
        .unwrap_or_default();
    versions.retain(|p| p.join("initdb").is_file());
    versions.sort();
    if let Some(newest) = versions.pop() {
        return newest;
    }
    let on_path = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).find(|d| d.join("initdb").is_file()))
        .unwrap_or_default();
    on_path.unwrap_or_else(|| {
        panic!(
            "PostgreSQL's server binaries (initdb, postgres) are not installed: \
             apt-get install postgresql (or set XQ_PG_BIN to their folder)"
        )
    })
}

fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("address").port()
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
        .unwrap_or(false)
}

impl Cluster {
    /// Starts a cluster with a superuser `xqsuper`, a database `xq` owned by the role
    /// `xq_owner`, and the role `xq_worker` (password `worker-secret`, no rights yet).
    pub fn start() -> Cluster {
        Cluster::start_with(&[])
    }

    /// As [`Cluster::start`], with extra `postgresql.conf` lines.
    pub fn start_with(settings: &[&str]) -> Cluster {
        let dir = tempfile::Builder::new()
            .prefix("xq-pg-")
            .tempdir()
            .expect("temporary folder");
        let as_postgres = is_root();
        if as_postgres {
            let ok = Command::new("chown")
                .args(["-R", "postgres:postgres", &dir.path().display().to_string()])
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "cannot give the cluster folder to the postgres user");
        }
        let mut cluster = Cluster {
            bin: server_bin(),
            port: free_port(),
            dir,
            server: None,
            as_postgres,
        };
        let data = cluster.data().display().to_string();
        let out = cluster
            .command("initdb")
            .args([
                "-D",
                &data,
                "-U",
                "xqsuper",
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-sync",
            ])
            .output()
            .expect("run initdb");
        assert!(
            out.status.success(),
            "initdb failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut conf = format!(
            "\nlisten_addresses = '127.0.0.1'\nport = {}\nunix_socket_directories = '{}'\nfsync = off\nmax_connections = 60\n",
            cluster.port,
            cluster.socket_dir().display()
        );
        for s in settings {
            conf.push_str(s);
            conf.push('\n');
        }
        cluster.append(&cluster.data().join("postgresql.conf"), &conf);
        // Sockets trust; TCP wants a password (the worker role's tests use it).
        std::fs::write(
            cluster.data().join("pg_hba.conf"),
            "local all all trust\nhost all xqsuper 127.0.0.1/32 trust\nhost all all 127.0.0.0/8 scram-sha-256\n",
        )
        .expect("pg_hba.conf");
        cluster.launch();
        for sql in [
            "CREATE ROLE xq_owner LOGIN PASSWORD 'owner-secret'",
            "CREATE ROLE xq_worker LOGIN PASSWORD 'worker-secret'",
            "CREATE DATABASE xq OWNER xq_owner",
        ] {
            cluster.sql_as("xqsuper", "postgres", sql);
        }
        cluster
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// The server's main process (the first line of `postmaster.pid`), whose children
    /// are its backends: what a bench reads the server's CPU time from.
    pub fn server_pid(&self) -> Option<u32> {
        let text = std::fs::read_to_string(self.data().join("postmaster.pid")).ok()?;
        text.lines().next()?.trim().parse().ok()
    }

    /// The folder of the server's Unix socket.
    pub fn socket_dir(&self) -> PathBuf {
        self.dir.path().to_path_buf()
    }

    fn append(&self, path: &Path, text: &str) {
        use std::io::Write as _;
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .expect("open config");
        file.write_all(text.as_bytes()).expect("write config");
    }

    fn command(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        }
    }

    /// Starts the server and waits until it accepts connections.
    pub fn launch(&mut self) {
        let log = self.dir.path().join("server.log");
        let log_file = std::fs::File::create(&log).expect("server log");
        if self.as_postgres {
            let _ = Command::new("chown")
                .args(["postgres:postgres", &log.display().to_string()])
                .status();
        }
        let child = self
            .command("postgres")
            .args(["-D", &self.data().display().to_string()])
            .stdout(Stdio::null())
            .stderr(log_file)
            .spawn()
            .expect("start postgres");
        self.server = Some(child);
        let started = Instant::now();
        loop {
            let ok = Command::new(self.bin.join("pg_isready"))
                .args([
                    "-h",
                    &self.socket_dir().display().to_string(),
                    "-p",
                    &self.port.to_string(),
                ])
                .stdout(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
            if ok {
                return;
            }
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "the PostgreSQL server did not start: {}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the server at once (as a crash or a lost machine would), keeping the data.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.server.take() {
            // The postmaster's own pid: under runuser the child is runuser, which does
            // not pass SIGQUIT on.
            let pid = std::fs::read_to_string(self.data().join("postmaster.pid"))
                .ok()
                .and_then(|text| text.lines().next().map(str::to_owned))
                .unwrap_or_else(|| child.id().to_string());
            let _ = Command::new("kill").args(["-QUIT", &pid]).status();
            let _ = child.wait();
        }
    }

    /// A connection string over the socket, as `user` on database `xq`.
    pub fn url(&self, user: &str) -> String {
        format!(
            "host={} port={} user={user} dbname=xq",
            self.socket_dir().display(),
            self.port
        )
    }

    /// A connection string over TCP (password needed), as `user` on database `xq`.
    pub fn tcp_url(&self, user: &str) -> String {
        format!("host=127.0.0.1 port={} user={user} dbname=xq", self.port)
    }

    /// Runs SQL as `user` on `db` through psql; panics with its error when it fails.
    pub fn sql_as(&self, user: &str, db: &str, sql: &str) -> String {
        let out = self.psql(user, db, sql);
        assert!(
            out.status.success(),
            "psql as {user}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    }

    /// Runs SQL as `user` on `db` and returns psql's output, failed or not.
    pub fn psql(&self, user: &str, db: &str, sql: &str) -> Output {
        Command::new("psql")
            .args([
                "-X",
                "-q",
                "-t",
                "-A",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                &self.socket_dir().display().to_string(),
                "-p",
                &self.port.to_string(),
                "-U",
                user,
                "-d",
                db,
                "-c",
                sql,
            ])
            .output()
            .expect("run psql")
    }

    /// SQL on the test database `xq` as its superuser.
    pub fn sql(&self, sql: &str) -> String {
        self.sql_as("xqsuper", "xq", sql)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop();
    }
}
