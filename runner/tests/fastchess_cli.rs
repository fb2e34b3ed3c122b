//! fastchess's command line as a user types it: the issue's command line and the TOML
//! `--print-config` prints for it give the same plan (and config hash); every flag error
//! is one line naming the flag; `--help` mentions the form.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Runs xq-runner in `dir`: (exit code, stdout, stderr).
fn runner_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xq-runner"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run xq-runner");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The words of a command line; `~` stands for a space inside a word.
fn words(text: &str) -> Vec<String> {
    text.split_whitespace()
        .map(|w| w.replace('~', " "))
        .collect()
}

/// The issue's command line, with `/bin/sh` as both engines ([`both_plans`] has the
/// stand-in engine play them).
const ISSUE: &str = "-engine cmd=/bin/sh name=new -engine cmd=/bin/sh name=base \
    -each proto=ucci tc=10+0.1 option.hashsize=16 \
    -rounds 500 -games 2 -repeat -concurrency 2 \
    -openings file=openings/balanced-1k.epd format=epd order=random \
    -sprt elo0=0 elo1=2 alpha=0.05 beta=0.05 model=normalized \
    -pgnout file=out.pgn -ratinginterval 10 -srand 1 \
    -draw movenumber=40 movecount=8 score=10 -resign movecount=3 score=600 -maxmoves 200";

fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("xq-fastchess-")
        .tempdir()
        .expect("scratch")
}

/// The command line's plan, and the plan of the TOML it prints. A dry run starts each
/// engine once: the line's `/bin/sh` and `/bin/true` are played by copies of the
/// stand-in engine of tests/data, of the same names, in a scratch folder.
fn both_plans(line: &str) -> (String, String, String) {
    let folder = scratch();
    let bin = folder.path().join("bin");
    std::fs::create_dir_all(&bin).expect("bin folder");
    let mut line = line.to_owned();
    for name in ["sh", "true"] {
        let stand_in = repo().join("runner/tests/data/stand-in-engine.sh");
        std::fs::copy(stand_in, bin.join(name)).expect("stand-in engine");
        let program = bin.join(name).display().to_string();
        line = line.replace(&format!("cmd=/bin/{name}"), &format!("cmd={program}"));
    }
    let line = line.as_str();
    let mut args = words(line);
    args.push("--print-config".to_owned());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, toml, err) = runner_in(&repo(), &args);
    assert_eq!(code, 0, "{line}: {err}");
    let file = folder.path().join("printed.toml");
    std::fs::write(&file, &toml).expect("write");
    let mut dry: Vec<&str> = args[..args.len() - 1].to_vec();
    dry.push("--dry-run");
    let (code, from_flags, err) = runner_in(&repo(), &dry);
    assert_eq!(code, 0, "{line}: {err}");
    let (code, from_file, err) =
        runner_in(&repo(), &["run", file.to_str().expect("path"), "--dry-run"]);
    assert_eq!(code, 0, "{toml}: {err}");
    (toml, from_flags, from_file)
}

#[test]
fn the_issue_command_line_is_the_run_its_printed_config_describes() {
    let (toml, from_flags, from_file) = both_plans(ISSUE);
    assert_eq!(from_flags, from_file, "the same plan and config hash");
    for want in [
        "kind = \"match\"",
        "pairs = 500",
        "concurrency = 2",
        "seed = 1",
        "tc = \"10+0.1\"",
        "file = \"openings/balanced-1k.epd\"",
        "order = \"random\"",
        "draw = { move_count = 8, move_number = 40, score = 10 }",
        "resign = { move_count = 3, score = 600, two_sided = false }",
        "max_plies = 400",
        "elo1 = 2.0",
        "model = \"normalized\"",
        "max_crashes = 0",
        "dir = \"out/new-vs-base\"",
        "report_interval = 10",
        "pgnout = \"out.pgn\"",
        "protocol = \"ucci\"",
        "options = { hashsize = \"16\" }",
    ] {
        assert!(toml.contains(want), "`{want}` missing from:\n{toml}");
    }
    assert!(toml.starts_with("# The config of: xq-runner -engine cmd="));
    assert!(toml.contains("/bin/sh name=new -engine cmd="), "{toml}");
    assert!(
        from_flags.contains("1 pairing(s) x 500 pairs = 1000 games at most, concurrency 2, seed 1"),
        "{from_flags}"
    );
    assert!(
        from_flags.contains("sprt: [0, 2] normalized alpha 0.05 beta 0.05"),
        "{from_flags}"
    );
}

#[test]
fn other_command_lines_round_trip_too() {
    for line in [
        // Engines with their own limits, names by default (and made unique), options with
        // spaces, cutechess's arg=, a PGN book, rules, a gauntlet, -recover, affinity.
        "-engine cmd=/bin/sh nodes=5000 option.Skill~Level=5 arg=-c arg=true \
         -engine cmd=/bin/sh depth=3 restart=on coordinates=1-10 proto=uci \
         -engine cmd=/bin/sh st=0.5 timemargin=20 -each timemargin=20 \
         -tournament gauntlet -recover -use-affinity -rounds 3 \
         -rules ruleset=computer movelimit=200 counting=league banmoves=false \
         -pgnout notation=san file=x/all.pgn append=false -out somewhere -event Nightly",
        // -games and -rounds swapped as fastchess reads them; a minutes:seconds clock.
        "-engine cmd=/bin/sh -engine cmd=/bin/sh -each tc=40/1:30+0.5 -games 7 -rounds 2",
        // fastchess's quick match.
        "-quick cmd=/bin/sh cmd=/bin/true book=openings/mainlines.epd",
    ] {
        let (toml, from_flags, from_file) = both_plans(line);
        assert_eq!(from_flags, from_file, "{line}\n{toml}");
    }
    let (toml, plan, _) = both_plans(
        "-engine cmd=/bin/sh -engine cmd=/bin/sh -engine cmd=/bin/sh -each depth=2 -rounds 1",
    );
    assert!(toml.contains("kind = \"round_robin\""), "{toml}");
    assert!(
        plan.contains("engine sh_3: /") && plan.contains("/bin/sh (ucci"),
        "{plan}"
    );
    assert!(toml.contains("dir = \"out/sh-and-2-more\""), "{toml}");
    let (toml, _, _) = both_plans(
        "-engine cmd=/bin/sh -engine cmd=/bin/sh -each tc=40/1:30+0.5 -games 7 -rounds 2",
    );
    assert!(
        toml.contains("pairs = 7") && toml.contains("tc = \"40/90+0.5\""),
        "{toml}"
    );
}

#[test]
fn every_flag_error_is_one_line_naming_the_flag() {
    let base = "-engine cmd=/bin/sh name=a -engine cmd=/bin/sh name=b -each depth=2";
    let cases: &[(&str, &str)] = &[
        (
            "-variant fischerandom",
            "error: -variant: xq-runner plays Xiangqi only",
        ),
        ("-tb /syzygy", "error: -tb: "),
        ("-noswap", "error: -noswap: "),
        (
            "-enigne cmd=x",
            "error: -enigne: unknown flag (did you mean -engine?)",
        ),
        (
            "-rounds x",
            "error: -rounds x: `x` is not a number of rounds",
        ),
        ("-rounds -3", "error: -rounds -3: "),
        ("-rounds 1 2", "error: -rounds 1 2: expects one value"),
        (
            "-games 1",
            "error: -games 1: xq-runner plays each opening twice",
        ),
        (
            "-games 500 -rounds 500",
            "error: -games 500: at most 2 games per round",
        ),
        ("-concurrency many", "error: -concurrency many: "),
        (
            "-concurrency 5000",
            "error: -concurrency 5000: tournament.concurrency: at most 1024",
        ),
        ("-concurrency -500", "error: -concurrency -500: "),
        (
            "-openings file=nothere.epd",
            "error: -openings file=nothere.epd: openings.file: ",
        ),
        (
            "-openings file=openings/mainlines.epd format=xqf",
            "error: -openings format=xqf: ",
        ),
        (
            "-openings file=openings/mainlines.epd start=0",
            "error: -openings start=0: openings.start: ",
        ),
        ("-sprt elo0=2 elo1=1", "error: -sprt elo1=1: sprt: "),
        (
            "-sprt elo0=0 elo1=5 alpha=0.5 beta=0.9",
            "error: -sprt alpha=0.5: sprt.alpha: alpha must lie in (0, 0.5), got 0.5",
        ),
        (
            "-sprt elo0=0 elo1=5 alpha=0.05 beta=0.9",
            "error: -sprt beta=0.9: sprt.beta: beta must lie in (0, 0.5), got 0.9",
        ),
        (
            "-openings file=openings/mainlines.epd format=pgn",
            "error: -openings format=pgn: openings.format: `pgn`, but `openings/mainlines.epd` is epd: its first line is a FEN",
        ),
        ("-sprt model=bayesian", "error: -sprt model=bayesian: "),
        ("-sprt", "error: -sprt: expects"),
        (
            "-pgnout hashfull=true",
            "error: -pgnout hashfull=true: not supported",
        ),
        ("-pgnout notation=fancy", "error: -pgnout notation=fancy: "),
        (
            "-draw movecount=0",
            "error: -draw movecount=0: adjudication.draw: ",
        ),
        ("-draw bogus=1", "error: -draw bogus=1: unknown key"),
        (
            "-resign movecount=3",
            "error: -resign movecount=3: adjudication.resign: ",
        ),
        (
            "-maxmoves 0",
            "error: -maxmoves 0: adjudication.max_plies: ",
        ),
        ("-maxmoves ten", "error: -maxmoves ten: "),
        ("-tournament knockout", "error: -tournament knockout: "),
        ("-seeds 2", "error: -seeds 2: "),
        (
            "-output format=cutechess",
            "error: -output format=cutechess: ",
        ),
        (
            "-use-affinity 0-3",
            "error: -use-affinity 0-3: a CPU list is not supported",
        ),
        (
            "-rules ruleset=fide",
            "error: -rules ruleset=fide: rules.ruleset: ",
        ),
        ("-rules movelimit=x", "error: -rules movelimit=x: "),
        ("-out ''", "error: -out '': "),
        ("-each nodes=5", "error: -each "),
        ("-each tc=ten", "error: -each tc=ten: "),
        (
            "-each ponder=on",
            "error: -each ponder=on: `ponder` is not supported",
        ),
        ("-each timemargin=-5", "error: -each timemargin=-5: "),
        (
            "-engine name=c",
            "error: -engine (engine 3): needs cmd=PROGRAM",
        ),
        (
            "-engine cmd=/nonexistent name=c -tournament gauntlet",
            "error: -engine name=c cmd=/nonexistent: engine.2.command: ",
        ),
        (
            "-log level=info file=x",
            "error: -log level=info: not supported",
        ),
        (
            "-log engine=true",
            "error: -log engine=true: expects file=F",
        ),
        ("-config file=x.json", "error: -config: "),
        ("-srand -1", "error: -srand -1: "),
    ];
    for (extra, want) in cases {
        let line = format!("{base} {extra} --dry-run");
        let mut args = words(&line);
        if extra.contains("''") {
            args = args
                .into_iter()
                .map(|a| if a == "''" { String::new() } else { a })
                .collect();
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = runner_in(&repo(), &args);
        assert_eq!(code, 2, "{extra}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{extra}: one line: {err}");
        let want = want.replace("''", "");
        assert!(
            err.starts_with(&want),
            "{extra}: `{}` should start with `{want}`",
            err.trim_end()
        );
        assert!(out.is_empty(), "{extra}: nothing printed: {out}");
    }
    // Too few engines, before anything else.
    let (code, _, err) = runner_in(&repo(), &["-engine", "cmd=/bin/sh", "-rounds", "2"]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        "error: -engine: a run needs at least two engines, found 1"
    );
}

#[test]
fn help_mentions_the_form_and_lists_the_flags() {
    let (code, out, _) = runner_in(&repo(), &["--help"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("xq-runner -engine cmd=") && out.contains("docs/fastchess-flags.md"),
        "{out}"
    );
    let (code, out, _) = runner_in(&repo(), &["-help"]);
    assert_eq!(code, 0);
    for flag in [
        "-engine",
        "-each",
        "-rounds",
        "-openings",
        "-sprt",
        "-pgnout",
        "--print-config",
        "-rules",
    ] {
        assert!(out.contains(flag), "{flag} missing from -help:\n{out}");
    }
    // The subcommands still work as before.
    let (code, out, _) = runner_in(&repo(), &["stats", "--penta", "1,2,3,2,1"]);
    assert_eq!(code, 0, "{out}");
}
