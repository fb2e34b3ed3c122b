//! `xq-runner submit <config.toml> --db URL [--set ...] [--dry-run]`: validates the
//! config as `run` does (nothing is stored when it is bad), stores the run, and prints
//! its id alone on the last line; `--dry-run` checks and says what it would store,
//! without a database.

use std::path::PathBuf;

use clap::Args;

use crate::config::load;
use crate::exit;
use crate::fleet::roles::{explain, Role};
use crate::fleet::submit::{new_run, DEFAULT_BATCH_PAIRS};
use crate::fleet::uploads::{parse_size, size_text, UploadPolicy};
use crate::store::pg::schema::Init;
use crate::store::pg::Db;

/// Arguments of `submit`.
#[derive(Debug, Args)]
pub struct SubmitArgs {
    /// The run configuration (TOML).
    pub config: PathBuf,
    /// The database (postgres:// URL or key=value words); else XQ_DB, else the PG*
    /// variables. Never put the password here: use ~/.pgpass or PGPASSWORD.
    #[arg(long)]
    pub db: Option<String>,
    /// Change a key of the config, as for `run`.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    pub set: Vec<String>,
    /// Pairs per batch handed to a worker.
    #[arg(long, default_value_t = DEFAULT_BATCH_PAIRS)]
    pub batch_pairs: u32,
    /// For a tune config: more parameters in fishtest's format, as for `tune`.
    #[arg(long, value_name = "FILE")]
    pub params: Option<PathBuf>,
    /// Check the config (and a tune's engine options) and say what would be stored;
    /// store nothing, connect to no database.
    #[arg(long)]
    pub dry_run: bool,
    /// Store no file with the run: every worker has the engines and the opening file at
    /// the paths the config names.
    #[arg(long)]
    pub no_upload: bool,
    /// The largest file the run may carry (bytes, or with KB, MB, GB).
    #[arg(long, value_name = "SIZE", default_value = "256MB", value_parser = parse_size)]
    pub max_artifact: u64,
    /// Who asks for the run, as the pages and `status` name them (one line, at most
    /// 100 characters); default: this OS user and machine, `user@host`.
    #[arg(long, value_name = "NAME", value_parser = crate::fleet::submitter::given)]
    pub submitter: Option<String>,
}

impl SubmitArgs {
    /// Records `--submitter` in `new`, when given.
    pub(crate) fn sign(&self, new: &mut crate::store::pg::runs::NewRun) {
        if let Some(name) = &self.submitter {
            new.submitter = Some(name.clone());
        }
    }

    /// What the run carries.
    #[must_use]
    pub fn uploads(&self) -> UploadPolicy {
        UploadPolicy {
            enabled: !self.no_upload,
            max_size: self.max_artifact,
        }
    }
}

/// What `--dry-run` says of a run it would store.
pub(crate) fn describe(new: &crate::store::pg::runs::NewRun, unit: &str) -> String {
    format!(
        "would submit: {}, {} {unit}, {} pairs a batch at first, {}; the config is valid (nothing stored)",
        new.title,
        new.total_pairs,
        new.batch_pairs,
        carried(new)
    )
}

/// The files a run carries, for people: `3 files, 12.3 MB`.
pub(crate) fn carried(new: &crate::store::pg::runs::NewRun) -> String {
    let bytes: u64 = new.uploads.iter().map(|u| u.file.identity.size).sum();
    match new.uploads.len() {
        0 => "no files carried (the workers have them)".to_owned(),
        1 => format!("1 file carried, {}", size_text(bytes)),
        n => format!("{n} files carried, {}", size_text(bytes)),
    }
}

/// Stores the run and returns its id, creating the schema at first use.
pub(crate) async fn store(
    db: &mut Db,
    run: &crate::store::pg::runs::NewRun,
) -> Result<i64, String> {
    init(db).await?;
    db.submit(run)
        .await
        .map_err(|e| explain(&e, db.target(), "submit runs", Role::Owner))
}

/// Creates (or upgrades) the schema at first use, and says so.
pub(crate) async fn init(db: &mut Db) -> Result<(), String> {
    let init = db
        .init()
        .await
        .map_err(|e| explain(&e, db.target(), "create or upgrade the schema", Role::Owner))?;
    match init {
        Init::Created => eprintln!("created the xq-runner schema in {}", db.target().describe()),
        Init::Upgraded { from } => eprintln!(
            "upgraded the xq-runner schema from version {from} to {} in {}",
            crate::store::pg::schema::VERSION,
            db.target().describe()
        ),
        Init::UpToDate => {}
    }
    Ok(())
}

/// Runs `submit`.
#[must_use]
pub fn run(args: &SubmitArgs) -> u8 {
    let is_tune = std::fs::read_to_string(&args.config)
        .ok()
        .and_then(|text| crate::tune::config::tune_line(&text))
        .is_some();
    if is_tune || args.params.is_some() {
        return super::submit_tune::run(args);
    }
    let sets: Vec<crate::config::Override> = args
        .set
        .iter()
        .map(|s| crate::config::Override::set(s))
        .collect();
    let loaded = match load(Some(&args.config), &sets) {
        Ok(loaded) => loaded,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    let mut new = match new_run(&loaded, args.batch_pairs, args.uploads()) {
        Ok(new) => new,
        Err(e) => {
            eprintln!("error: {e}");
            return exit::USAGE;
        }
    };
    args.sign(&mut new);
    if args.dry_run {
        crate::stdout::line(describe(&new, "pairs"));
        return exit::OK;
    }
    let (target, runtime) = match super::database(args.db.as_deref()) {
        Ok(both) => both,
        Err(code) => return code,
    };
    runtime.block_on(async {
        let mut db = match Db::connect(&target).await {
            Ok(db) => db,
            Err(e) => {
                eprintln!("error: {e}");
                return exit::USAGE;
            }
        };
        match store(&mut db, &new).await {
            Ok(id) => {
                eprintln!(
                    "submitted run {id}: {}, {} pairs, {}",
                    new.title,
                    new.total_pairs,
                    carried(&new)
                );
                crate::stdout::line(id);
                exit::OK
            }
            Err(e) => {
                eprintln!("error: {e}");
                exit::USAGE
            }
        }
    })
}
