//! Opening books in PGN: the shipped EPD suite written as PGN in ICCS and in WXF moves
//! (with the comments, variations and move numbers real files have) reads back as the
//! same openings, `openings check` checks PGN files with `file:line` problems, and a
//! run accepts a PGN book.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use xq_core::board::{Color, START_FEN};
use xq_core::notation::format_wxf;
use xq_runner::openings::{BookFormat, Opening, OpeningBook};

/// An engine that answers the handshake and plays nothing: a dry run starts each engine.
const STAND_IN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/stand-in-engine.sh");

fn repo_file(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(relative)
}

fn runner(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xq-runner"))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run xq-runner: {e}"))
}

#[derive(Clone, Copy)]
enum Notation {
    Iccs,
    Wxf,
}

/// The openings as a PGN file, XQ Wizard style, in one notation.
fn to_pgn(openings: &[Opening], notation: Notation) -> String {
    let mut out = String::new();
    for (i, o) in openings.iter().enumerate() {
        let _ = writeln!(out, "[Game \"Chinese Chess\"]\n[Event \"book\"]");
        if let Some(name) = &o.name {
            let _ = writeln!(out, "[Opening \"{}\"]", name.replace('"', "\\\""));
        }
        if let Some(eco) = &o.eco {
            let _ = writeln!(out, "[ECCO \"{eco}\"]");
        }
        if o.start.to_fen() != START_FEN {
            let _ = writeln!(out, "[FEN \"{}\"]", o.start.to_fen());
        }
        let format = match notation {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
        };
        let _ = writeln!(out, "[Format \"{format}\"]\n");
        let mut position = o.start.clone();
        for (ply, &m) in o.moves.iter().enumerate() {
            let number = position.fullmove_number();
            match position.side_to_move() {
                Color::Red => {
                    let _ = write!(out, "{number}. ");
                }
                Color::Black if ply == 0 => {
                    let _ = write!(out, "{number}... ");
                }
                Color::Black => {}
            }
            let text = match notation {
                Notation::Iccs => m.to_iccs_pgn(),
                Notation::Wxf => format_wxf(&position, m),
            };
            out.push_str(&text);
            // What real files carry between the moves.
            match (i + ply) % 5 {
                0 => out.push_str(" {a comment (with parentheses)}"),
                1 => out.push_str(" $1"),
                2 => out.push_str(" (1. h0g2 {a side line})"),
                _ => {}
            }
            out.push(if ply % 6 == 5 { '\n' } else { ' ' });
            position.make_move(m);
        }
        out.push_str(if i % 2 == 0 { "*\n\n" } else { "1/2-1/2\n\n" });
    }
    out
}

fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("xq-openings-pgn-")
        .tempdir()
        .expect("scratch")
}

fn same(a: &Opening, b: &Opening) -> bool {
    a.start == b.start && a.moves == b.moves && a.name == b.name && a.eco == b.eco
}

#[test]
fn iccs_and_wxf_books_give_the_same_openings_as_the_epd() {
    let epd = repo_file("openings/mainlines.epd");
    let book = OpeningBook::load(&epd).expect("mainlines");
    assert!(book.len() >= 60);
    let folder = scratch();
    for (notation, name) in [(Notation::Iccs, "iccs.pgn"), (Notation::Wxf, "wxf.pgn")] {
        let path = folder.path().join(name);
        std::fs::write(&path, to_pgn(book.openings(), notation)).expect("write");
        assert_eq!(BookFormat::of_path(&path), BookFormat::Pgn);
        let pgn = OpeningBook::load(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(pgn.len(), book.len(), "{name}");
        for (i, (a, b)) in book.openings().iter().zip(pgn.openings()).enumerate() {
            assert!(same(a, b), "{name}: opening {i}: {a:?} vs {b:?}");
        }
        let out = runner(&["openings", "check", path.to_str().expect("path")]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(0), "{name}: {text}");
        assert_eq!(
            text.trim_end(),
            format!("{} openings, 0 problems", book.len()),
            "{name}"
        );
    }
}

#[test]
fn openings_check_names_the_line_of_each_bad_game() {
    let folder = scratch();
    let path = folder.path().join("bad.pgn");
    let text = "[Event \"ok\"]\n1. h2e2 h9g7 *\n\n[Event \"illegal\"]\n1. h2e2\n2. h9h0 *\n\n[Event \"duplicate\"]\n1. C2.5 H8+7 *\n\n[Event \"unknown\"]\n1. C2.5 Z1+1 *\n\n[Event \"mirror\"]\n1. b2e2 b9c7 *\n";
    std::fs::write(&path, text).expect("write");
    let out = runner(&["openings", "check", path.to_str().expect("path")]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(2), "{stdout}");
    let name = path.display().to_string();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    assert!(
        lines[0].starts_with(&format!("{name}:6: move 2 `h9h0` is illegal")),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with(&format!("{name}:8: duplicate: the same position as line 1")),
        "{stdout}"
    );
    assert!(
        lines[2].starts_with(&format!("{name}:12: move 2 `Z1+1`")),
        "{stdout}"
    );
    assert!(
        lines[3].starts_with(&format!("{name}:14: duplicate: the left-right mirror")),
        "{stdout}"
    );
    assert_eq!(lines[4], "5 openings, 4 problems");
    // The format can be named when the extension does not say it.
    let renamed = folder.path().join("book.txt");
    std::fs::copy(&path, &renamed).expect("copy");
    let out = runner(&[
        "openings",
        "check",
        "--format",
        "pgn",
        renamed.to_str().expect("p"),
    ]);
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 5);
    let out = runner(&[
        "openings",
        "check",
        "--format",
        "xqf",
        renamed.to_str().expect("p"),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "error: --format xqf: expected epd or pgn"
    );
}

#[test]
fn a_run_checks_a_pgn_book_at_start_and_names_the_bad_line() {
    let folder = scratch();
    let book = folder.path().join("book.pgn");
    std::fs::write(&book, "1. h2e2 h9g7 *\n1. b2e2 b9c7 *\n1. h0g2 h0g2 *\n").expect("write");
    let config = folder.path().join("run.toml");
    let text = format!(
        "[tournament]\npairs = 2\n[time]\ndepth = 1\n[openings]\nfile = \"{}\"\n[output]\ndir = \"{}\"\n[[engine]]\nname = \"a\"\ncommand = [{STAND_IN:?}]\n[[engine]]\nname = \"b\"\ncommand = [{STAND_IN:?}]\n",
        book.display(),
        folder.path().join("out").display()
    );
    std::fs::write(&config, text).expect("write");
    let out = runner(&["run", config.to_str().expect("p"), "--dry-run"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err.trim_end(),
        format!(
            "error: {}:3: move 2 `h0g2` is illegal (Black to move)",
            book.display()
        )
    );
    std::fs::write(&book, "1. h2e2 h9g7 *\n1. b2e2 b9c7 *\n").expect("write");
    let out = runner(&["run", config.to_str().expect("p"), "--dry-run"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("book.pgn"));
}
