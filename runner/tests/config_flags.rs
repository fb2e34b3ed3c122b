//! The flags of `xq-runner run` that change the config (`--set`, `--pairs`,
//! `--concurrency`, `--out`): an error in a value a flag set names that flag (not the
//! config file's line), `--pairs -1` gets a proper message, and `--set` replaces time
//! limits, takes one path as a command and adds engines.

use std::path::{Path, PathBuf};
use std::process::Command;

/// A match config of two engines, written into `dir`. `--dry-run` starts each engine
/// once: the engines `dir/bin/sh` and `dir/bin/true` are the stand-in engine of
/// tests/data (they answer the handshake and play nothing).
fn config(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("bin folder");
    for name in ["sh", "true"] {
        std::fs::copy(STAND_IN, bin.join(name)).expect("stand-in engine");
    }
    let sh = bin.join("sh");
    let text = format!("[tournament]\nkind = \"match\"\npairs = 4\nconcurrency = 2\n\n[time]\ndepth = 4\n\n[output]\ndir = \"out\"\n\n[[engine]]\nname = \"a\"\ncommand = [{sh:?}]\n\n[[engine]]\nname = \"b\"\ncommand = [{sh:?}]\n");
    let path = dir.join("m.toml");
    std::fs::write(&path, text).expect("write config");
    path
}

const STAND_IN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/stand-in-engine.sh");

/// A stand-in engine's path in the folder of [`config`]: `sh` or `true`.
fn engine(path: &Path, name: &str) -> String {
    let dir = path.parent().expect("the config's folder");
    dir.join("bin").join(name).display().to_string()
}

/// Runs `xq-runner run <config> --dry-run <args>`: (exit code, stdout, stderr).
fn dry_run(config: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xq-runner"))
        .arg("run")
        .arg(config)
        .arg("--dry-run")
        .args(args)
        .output()
        .expect("run xq-runner");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("xq-config-flags-")
        .tempdir()
        .expect("scratch")
}

#[test]
fn errors_name_the_flag_that_set_the_value() {
    let folder = scratch();
    let path = config(folder.path());
    let cases: &[(&[&str], &str)] = &[
        (
            &["--concurrency", "0"],
            "error: --concurrency 0: tournament.concurrency: must be at least 1",
        ),
        (
            &["--pairs", "0"],
            "error: --pairs 0: tournament.pairs: must be at least 1",
        ),
        (
            &["--pairs", "-1"],
            "error: --pairs -1: tournament.pairs: -1 is negative",
        ),
        (
            &["--pairs", "many"],
            "error: --pairs many: tournament.pairs: ",
        ),
        (
            &["--set", "tournament.seed=7", "--set", "time.tc=ten"],
            "error: --set time.tc=ten: time.tc: ",
        ),
        (
            &["--set", "engine.b.command=/nonexistent/engine"],
            "error: --set engine.b.command=/nonexistent/engine: engine.1.command: ",
        ),
        (
            &["--set", "engine.+.command=/bin/sh"],
            "error: --set engine.+.command=/bin/sh: engine: a match needs exactly 2 [[engine]] tables, found 3 (1 added by the command line to the config's 2; to change an engine instead, name it (engine.a, engine.b) or give its index)",
        ),
        (
            &["--set", "engine.new.command=/bin/sh"],
            "error: --set engine.new.command=/bin/sh: no engine `new` (the engines are a, b; engine.+ adds one)",
        ),
        (
            &["--set", "engine.c.name=x"],
            "error: --set engine.c.name=x: no engine `c` (the engines are a, b",
        ),
        (
            &["--set", "engine.a.name=+"],
            "error: --set engine.a.name=+: engine.0.name: `+` adds an engine",
        ),
        (
            &["--set", "tournament.pairs"],
            "error: --set tournament.pairs: expected key=value",
        ),
        (&["--out", ""], "error: --out : output.dir: empty"),
    ];
    for (args, want) in cases {
        let (code, out, err) = dry_run(&path, args);
        assert_eq!(code, 2, "{args:?}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
        assert!(
            err.starts_with(want),
            "{args:?}: `{err}` should start with `{want}`"
        );
        assert!(
            !err.contains("m.toml"),
            "{args:?}: the file is not blamed: {err}"
        );
        assert!(!err.contains("'-- "), "{args:?}: no clap hint: {err}");
    }
    // A bad value in the file itself still names the file and its line.
    let text = std::fs::read_to_string(&path).expect("read");
    std::fs::write(&path, text.replace("concurrency = 2", "concurrency = 0")).expect("write");
    let (code, _, err) = dry_run(&path, &["--pairs", "3"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("m.toml:4: tournament.concurrency: must be at least 1"),
        "{err}"
    );
}

#[test]
fn set_replaces_time_takes_a_path_and_adds_engines() {
    let folder = scratch();
    let path = config(folder.path());
    let (sh, true_) = (engine(&path, "sh"), engine(&path, "true"));
    let (code, out, err) = dry_run(&path, &["--set", "time.tc=10+0.1"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("engine a: {sh} (ucci; 10+0.1;")),
        "{out}"
    );
    let (code, out, err) = dry_run(&path, &["--set", "engine.1.time.nodes=500"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("engine b: {sh} (ucci; nodes 500;")),
        "{out}"
    );
    let (code, out, err) = dry_run(&path, &["--set", &format!("engine.0.command={true_}")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("engine a: {true_} ")), "{out}");
    let (code, out, err) = dry_run(
        &path,
        &[
            "--set",
            "tournament.kind=gauntlet",
            "--set",
            &format!("engine.+.command={true_}"),
            "--set",
            "engine.+.name=c",
            "--set",
            &format!("engine.3.command={sh}"),
        ],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("engine c: {true_}")), "{out}");
    assert!(
        out.contains("pairing: a vs c") && out.contains("pairing: a vs sh-4"),
        "{out}"
    );
    // pairs and games replace each other.
    let (code, out, err) = dry_run(&path, &["--set", "tournament.games=10"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("1 pairing(s) x 5 pairs"), "{out}");
}

#[test]
fn a_key_of_thousands_of_levels_is_one_line_not_a_crash() {
    let folder = scratch();
    let path = config(folder.path());
    let key = vec!["a"; 30_000].join(".");
    let (code, _, err) = dry_run(&path, &["--set", &format!("{key}=1")]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("the key has 30000 levels"), "{err}");
    assert_eq!(err.lines().count(), 1);
    assert!(
        err.len() < 300,
        "the key is not echoed whole: {} bytes",
        err.len()
    );
}

#[test]
fn an_engine_named_new_takes_the_readme_s_submit_override() {
    // README's `submit configs/patch-sprt.toml --set 'engine.new.command=["./new"]'`:
    // the config's engine `new` gets the command (the program is not there, so the
    // error names engine 0's command), not a third engine.
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = Command::new(env!("CARGO_BIN_EXE_xq-runner"))
        .args([
            "run",
            "configs/patch-sprt.toml",
            "--set",
            r#"engine.new.command=["./new"]"#,
            "--dry-run",
        ])
        .current_dir(&repo)
        .output()
        .expect("run xq-runner");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with(r#"error: --set engine.new.command=["./new"]: engine.0.command: engine program `./new` not found"#),
        "{err}"
    );
}
