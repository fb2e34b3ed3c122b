//! Where the database is and how to reach it, resolved the way libpq resolves it, so a
//! setup that works for `psql` works here: the connection string from `--db` or `XQ_DB`
//! (a `postgres://` URL or `key=value` words), the standard `PG*` variables for what it
//! leaves out, the password from `PGPASSWORD` or the password file (`PGPASSFILE`,
//! `~/.pgpass`), and TLS by `sslmode` (`disable`, `prefer`, `require`, `verify-ca`,
//! `verify-full`) with `sslrootcert`. A password is never taken from the command line.

use std::path::PathBuf;
use std::str::FromStr;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, Error as TlsError, RootCertStore, SignatureScheme};
use tokio_postgres::config::{Host, SslMode};

use super::DbError;

/// TLS as `sslmode` asks for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tls {
    Disable,
    /// TLS if the server offers it, without checking its certificate.
    Prefer,
    /// TLS, without checking the certificate (libpq checks it when a root
    /// certificate file is given; so does this).
    Require,
    /// TLS with a certificate signed by the root certificate, any host name.
    VerifyCa,
    /// TLS with a certificate signed by the root certificate, for this host.
    VerifyFull,
}

impl Tls {
    fn from_name(name: &str) -> Result<Tls, DbError> {
        Ok(match name {
            "disable" | "allow" => Tls::Disable,
            "prefer" => Tls::Prefer,
            "require" => Tls::Require,
            "verify-ca" => Tls::VerifyCa,
            "verify-full" => Tls::VerifyFull,
            other => {
                return Err(DbError::Config(format!(
                    "sslmode `{other}`: use disable, prefer, require, verify-ca or verify-full"
                )))
            }
        })
    }
}

/// A resolved database target.
#[derive(Clone, Debug)]
pub struct Target {
    pub config: tokio_postgres::Config,
    pub tls: Tls,
    pub root_cert: Option<PathBuf>,
}

/// Where the connection string came from: a password is refused on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    CommandLine,
    Environment,
}

/// Splits off `sslmode` and `sslrootcert` (which tokio-postgres does not take in their
/// libpq forms) from a connection string, keeping the rest as it was.
fn split_tls(text: &str) -> (String, Option<String>, Option<String>) {
    let mut mode = None;
    let mut root = None;
    let mut take = |key: &str, value: String| match key {
        "sslmode" => {
            mode = Some(value);
            false
        }
        "sslrootcert" => {
            root = Some(value);
            false
        }
        _ => true,
    };
    if text.starts_with("postgres://") || text.starts_with("postgresql://") {
        let Some((base, query)) = text.split_once('?') else {
            return (text.to_owned(), None, None);
        };
        let kept: Vec<&str> = query
            .split('&')
            .filter(|pair| {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                take(k, percent_decode(v))
            })
            .collect();
        let rest = if kept.is_empty() {
            base.to_owned()
        } else {
            format!("{base}?{}", kept.join("&"))
        };
        return (rest, mode, root);
    }
    let kept: Vec<String> = words(text)
        .into_iter()
        .filter(|(k, v)| take(k, v.clone()))
        .map(|(k, v)| format!("{k}='{}'", v.replace('\\', "\\\\").replace('\'', "\\'")))
        .collect();
    (kept.join(" "), mode, root)
}

/// `key=value` words of a libpq connection string (values may be single-quoted).
fn words(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let key: String =
            std::iter::from_fn(|| chars.next_if(|&c| c != '=' && !c.is_whitespace())).collect();
        if key.is_empty() {
            break;
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.next_if_eq(&'=').is_none() {
            out.push((key, String::new()));
            continue;
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let mut value = String::new();
        if chars.next_if_eq(&'\'').is_some() {
            while let Some(c) = chars.next() {
                match c {
                    '\\' => value.extend(chars.next()),
                    '\'' => break,
                    c => value.push(c),
                }
            }
        } else {
            value.extend(std::iter::from_fn(|| chars.next_if(|c| !c.is_whitespace())));
        }
        out.push((key, value));
    }
    out
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn env(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The connection string: `--db`, else `XQ_DB`, else the `PG*` variables alone.
///
/// # Errors
/// [`DbError::Config`] for a string that does not parse, a password on the command
/// line, or an unknown `sslmode`.
pub fn resolve(db: Option<&str>) -> Result<Target, DbError> {
    let (text, source) = match (db, env("XQ_DB")) {
        (Some(text), _) => (text.to_owned(), Source::CommandLine),
        (None, Some(text)) => (text, Source::Environment),
        (None, None) => (String::new(), Source::Environment),
    };
    parse(&text, source)
}

/// Reads a connection string and fills in what it leaves out as libpq does.
///
/// # Errors
/// As [`resolve`].
pub fn parse(text: &str, source: Source) -> Result<Target, DbError> {
    let (rest, mode, root) = split_tls(text.trim());
    let mut config = if rest.is_empty() {
        tokio_postgres::Config::new()
    } else {
        tokio_postgres::Config::from_str(&rest)
            .map_err(|e| DbError::Config(format!("the database address does not parse: {e}")))?
    };
    if source == Source::CommandLine && config.get_password().is_some() {
        return Err(DbError::Config(
            "a password on the command line is visible to every user of the machine: put it in ~/.pgpass (or PGPASSFILE) or PGPASSWORD, and leave it out of --db".to_owned(),
        ));
    }
    if config.get_hosts().is_empty() {
        match env("PGHOST") {
            Some(hosts) => {
                for host in hosts.split(',') {
                    config.host(host);
                }
            }
            None => {
                // libpq's default: the local socket folder, else the loopback address.
                let socket = "/var/run/postgresql";
                config.host(if std::path::Path::new(socket).is_dir() {
                    socket
                } else {
                    "localhost"
                });
            }
        }
    }
    if config.get_ports().is_empty() {
        if let Some(port) = env("PGPORT") {
            let port: u16 = port
                .parse()
                .map_err(|_| DbError::Config(format!("PGPORT `{port}` is not a port number")))?;
            config.port(port);
        }
    }
    if config.get_user().is_none() {
        let user = env("PGUSER")
            .or_else(|| env("USER"))
            .or_else(|| {
                nix::unistd::User::from_uid(nix::unistd::getuid())
                    .ok()
                    .flatten()
                    .map(|u| u.name)
            })
            .unwrap_or_else(|| "postgres".to_owned());
        config.user(&user);
    }
    if config.get_dbname().is_none() {
        let db = env("PGDATABASE").or_else(|| config.get_user().map(str::to_owned));
        if let Some(db) = db {
            config.dbname(&db);
        }
    }
    if config.get_password().is_none() {
        if let Some(password) = env("PGPASSWORD").or_else(|| password_file(&config)) {
            config.password(password);
        }
    }
    let tls = Tls::from_name(
        &mode
            .or_else(|| env("PGSSLMODE"))
            .unwrap_or_else(|| "prefer".to_owned()),
    )?;
    config.ssl_mode(match tls {
        Tls::Disable => SslMode::Disable,
        Tls::Prefer => SslMode::Prefer,
        Tls::Require | Tls::VerifyCa | Tls::VerifyFull => SslMode::Require,
    });
    let root_cert = root
        .filter(|r| !r.is_empty())
        .or_else(|| env("PGSSLROOTCERT"))
        .map(PathBuf::from)
        .or_else(|| {
            let default = home()?.join(".postgresql/root.crt");
            default.is_file().then_some(default)
        });
    if matches!(tls, Tls::VerifyCa | Tls::VerifyFull) && root_cert.is_none() {
        return Err(DbError::Config(
            "sslmode verify-ca/verify-full needs the server's root certificate: give sslrootcert=FILE (or PGSSLROOTCERT, or ~/.postgresql/root.crt)".to_owned(),
        ));
    }
    Ok(Target {
        config,
        tls,
        root_cert,
    })
}

fn home() -> Option<PathBuf> {
    env("HOME").map(PathBuf::from)
}

/// The password for this host, port, database and user in the password file
/// (`hostname:port:database:username:password`, `*` matching anything), as libpq reads it.
fn password_file(config: &tokio_postgres::Config) -> Option<String> {
    let path = env("PGPASSFILE")
        .map(PathBuf::from)
        .or_else(|| Some(home()?.join(".pgpass")))?;
    let text = std::fs::read_to_string(path).ok()?;
    let host = match config.get_hosts().first()? {
        Host::Tcp(name) => name.clone(),
        // A socket folder matches `localhost`, as in libpq.
        Host::Unix(_) => "localhost".to_owned(),
    };
    let port = config
        .get_ports()
        .first()
        .copied()
        .unwrap_or(5432)
        .to_string();
    let db = config.get_dbname().unwrap_or_default();
    let user = config.get_user().unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .find_map(|line| {
            let fields = split_pgpass(line);
            let [h, p, d, u, password] = fields.as_slice() else {
                return None;
            };
            let matches = |pattern: &str, value: &str| pattern == "*" || pattern == value;
            (matches(h, &host) && matches(p, &port) && matches(d, db) && matches(u, user))
                .then(|| password.clone())
        })
}

/// The fields of a password-file line (`:` separates, `\` escapes).
fn split_pgpass(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => fields
                .last_mut()
                .into_iter()
                .for_each(|f| f.extend(chars.next())),
            ':' if fields.len() < 5 => fields.push(String::new()),
            c => fields.last_mut().into_iter().for_each(|f| f.push(c)),
        }
    }
    fields
}

/// The certificate verifier of the sslmodes that check less than `verify-full`: the
/// handshake's signatures are always checked (with the provider's algorithms, as
/// webpki's verifier checks them), the certificate itself only as far as the mode says.
#[derive(Debug)]
struct Lenient {
    /// `None`: any certificate (`sslmode` prefer and require without a root certificate:
    /// encryption, not authentication, as in libpq). `Some`: the chain is checked
    /// against the root certificate but not the host name (`verify-ca`).
    chain: Option<Arc<WebPkiServerVerifier>>,
    provider: Arc<rustls::crypto::CryptoProvider>,
}

impl ServerCertVerifier for Lenient {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, TlsError> {
        let Some(chain) = &self.chain else {
            return Ok(ServerCertVerified::assertion());
        };
        match chain.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now) {
            Err(TlsError::InvalidCertificate(rustls::CertificateError::NotValidForName))
            | Err(TlsError::InvalidCertificate(
                rustls::CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, TlsError> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, TlsError> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

impl Target {
    /// The TLS connector this target asks for.
    ///
    /// # Errors
    /// [`DbError::Config`] when the root certificate cannot be read.
    pub fn tls_connector(&self) -> Result<tokio_postgres_rustls::MakeRustlsConnect, DbError> {
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        let builder = rustls::ClientConfig::builder_with_provider(Arc::clone(&provider))
            .with_safe_default_protocol_versions()
            .map_err(|e| DbError::Config(format!("TLS: {e}")))?;
        let roots = match &self.root_cert {
            Some(path) => Some(read_roots(path)?),
            None => None,
        };
        let verifier: Arc<dyn ServerCertVerifier> = match (self.tls, roots) {
            (Tls::Disable | Tls::Prefer, _) | (Tls::Require, None) => Arc::new(Lenient {
                chain: None,
                provider,
            }),
            (Tls::Require | Tls::VerifyCa, Some(roots)) => Arc::new(Lenient {
                chain: Some(web_pki(roots, &provider)?),
                provider,
            }),
            (Tls::VerifyFull, Some(roots)) => web_pki(roots, &provider)?,
            (Tls::VerifyCa | Tls::VerifyFull, None) => {
                return Err(DbError::Config(
                    "sslmode verify-ca/verify-full needs sslrootcert".to_owned(),
                ))
            }
        };
        let config = builder
            .dangerous()
            .with_custom_certificate_verifier(verifier)
            .with_no_client_auth();
        Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
    }

    /// The target for messages: user, host, port and database, never the password.
    #[must_use]
    pub fn describe(&self) -> String {
        let host = match self.config.get_hosts().first() {
            Some(Host::Tcp(h)) => h.clone(),
            Some(Host::Unix(p)) => p.display().to_string(),
            None => "?".to_owned(),
        };
        let port = self.config.get_ports().first().copied().unwrap_or(5432);
        format!(
            "{}@{host}:{port}/{}",
            self.config.get_user().unwrap_or("?"),
            self.config.get_dbname().unwrap_or("?")
        )
    }
}

fn web_pki(
    roots: RootCertStore,
    provider: &Arc<rustls::crypto::CryptoProvider>,
) -> Result<Arc<WebPkiServerVerifier>, DbError> {
    WebPkiServerVerifier::builder_with_provider(Arc::new(roots), Arc::clone(provider))
        .build()
        .map_err(|e| DbError::Config(format!("TLS: {e}")))
}

fn read_roots(path: &PathBuf) -> Result<RootCertStore, DbError> {
    let bad = |why: String| DbError::Config(format!("sslrootcert {}: {why}", path.display()));
    let text = std::fs::read(path).map_err(|e| bad(e.to_string()))?;
    let mut roots = RootCertStore::empty();
    for cert in rustls_pemfile::certs(&mut text.as_slice()) {
        roots
            .add(cert.map_err(|e| bad(e.to_string()))?)
            .map_err(|e| bad(e.to_string()))?;
    }
    if roots.is_empty() {
        return Err(bad("no certificate in the file".to_owned()));
    }
    Ok(roots)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn libpq_tls_words_are_taken_out_of_either_form() {
        let (rest, mode, root) = split_tls(
            "postgres://u@h:5/d?sslmode=verify-full&sslrootcert=%2Ftmp%2Fca.pem&application_name=x",
        );
        assert_eq!(rest, "postgres://u@h:5/d?application_name=x");
        assert_eq!(
            (mode.as_deref(), root.as_deref()),
            (Some("verify-full"), Some("/tmp/ca.pem"))
        );
        let (rest, mode, _) = split_tls("host=/tmp port=5433 sslmode=require dbname='my db'");
        assert_eq!(rest, "host='/tmp' port='5433' dbname='my db'");
        assert_eq!(mode.as_deref(), Some("require"));
    }

    #[test]
    fn a_password_is_refused_on_the_command_line_only() {
        let text = "postgres://u:secret@localhost/d";
        assert!(
            matches!(parse(text, Source::CommandLine), Err(DbError::Config(m)) if m.contains("pgpass"))
        );
        let target = parse(text, Source::Environment).expect("from the environment");
        assert_eq!(target.config.get_password(), Some(&b"secret"[..]));
        assert!(!target.describe().contains("secret"));
    }

    #[test]
    fn password_file_lines_split_on_unescaped_colons() {
        assert_eq!(
            split_pgpass(r"h:5432:*:u:pa\:ss:word"),
            vec!["h", "5432", "*", "u", "pa:ss:word"]
        );
    }

    #[test]
    fn an_unknown_sslmode_is_named() {
        assert!(
            matches!(parse("host=h sslmode=bogus", Source::CommandLine), Err(DbError::Config(m)) if m.contains("bogus"))
        );
    }
}
