//! fastchess's flags as data: every flag the translator reads, with the config key it
//! sets and a note, one [`Row`] per row of the table in `docs/fastchess-flags.md`; the
//! flags it refuses, with the reason; and the flags that choose what to do rather than
//! set a key. The translator accepts exactly the flags listed here (any other is unknown,
//! with a suggestion from these), and a test checks the doc against this table, so the
//! code, the table and the doc cannot drift apart. To change a flag: change its arm in
//! `translate.rs`, its row here, and the doc's row (the test prints the table as it
//! should read).

/// A row of the doc's flag table.
#[derive(Debug, Clone, Copy)]
// The translator reads `flags`; the columns are read by the test that checks the doc.
#[cfg_attr(not(test), allow(dead_code))]
pub(crate) struct Row {
    /// The flags the row documents, which the translator accepts; none for a row about a
    /// key of the flag above it (`format=epd|pgn` of `-openings`).
    pub(crate) flags: &'static [&'static str],
    /// What is written on the command line (first column, Markdown).
    pub(crate) usage: &'static str,
    /// The config key it amounts to (second column; empty when none).
    pub(crate) key: &'static str,
    /// Words that use the row, after two `-engine` flags: the test checks that their
    /// translation sets every key the row names (empty for a row that names none).
    pub(crate) example: &'static str,
    /// Defaults, differences from fastchess, what else is accepted (third column).
    pub(crate) notes: &'static str,
}

/// The table of `docs/fastchess-flags.md`, in its order.
pub(crate) const ROWS: &[Row] = &[
    Row {
        flags: &["-engine", "-each"],
        usage: "`-engine`/`-each cmd=PROGRAM`",
        key: r#"`engine.N.command = ["PROGRAM", ...]`"#,
        example: "-engine cmd=c",
        notes: "",
    },
    Row {
        flags: &[],
        usage: r#"`args="A B"`"#,
        key: "the rest of `command`",
        example: "",
        notes: "split like a shell; cutechess's `arg=A` adds one",
    },
    Row {
        flags: &[],
        usage: "`name=NAME`",
        key: "`engine.N.name`",
        example: "-each name=x",
        notes: "default: the program's file name without extension; a name used again gets `_2`, `_3` (fastchess)",
    },
    Row {
        flags: &[],
        usage: "`dir=DIR`",
        key: "`engine.N.dir`",
        example: "-each dir=d",
        notes: "",
    },
    Row {
        flags: &[],
        usage: r#"`proto=ucci\|uci`"#,
        key: "`engine.N.protocol`",
        example: "-each proto=uci",
        notes: "default `ucci` (fastchess knows only uci)",
    },
    Row {
        flags: &[],
        usage: r#"`coordinates=0-9\|1-10`"#,
        key: "`engine.N.coordinates`",
        example: "-each coordinates=1-10",
        notes: "Xiangqi addition",
    },
    Row {
        flags: &[],
        usage: "`env.NAME=VALUE`",
        key: "`engine.N.env.NAME`",
        example: "-each env.NAME=1",
        notes: "addition",
    },
    Row {
        flags: &[],
        usage: "`option.NAME=VALUE`",
        key: r#"`engine.N.options.NAME = "VALUE"`"#,
        example: "-each option.NAME=1",
        notes: "names with spaces are fine",
    },
    Row {
        flags: &[],
        usage: r#"`tc=[moves/]min:sec\|sec[+inc]`"#,
        key: "`time.tc` (`engine.N.time.tc` when engines differ)",
        example: "-each tc=10+0.1",
        notes: "`40/1:30+0.5` becomes `40/90+0.5`; `tc=inf` is no clock",
    },
    Row {
        flags: &[],
        usage: "`st=SEC`",
        key: r#"`time.movetime = "SECs"`"#,
        example: "-each st=1",
        notes: "",
    },
    Row {
        flags: &[],
        usage: "`nodes=N`",
        key: "`time.nodes`",
        example: "-each nodes=1000",
        notes: "",
    },
    Row {
        flags: &[],
        usage: "`depth=N`, `plies=N`",
        key: "`time.depth`",
        example: "-each depth=5",
        notes: "",
    },
    Row {
        flags: &[],
        usage: "`timemargin=MS`",
        key: r#"`time.margin = "MSms"`"#,
        example: "-each timemargin=10",
        notes: "one margin for all engines; default 50 ms (fastchess: 0)",
    },
    Row {
        flags: &[],
        usage: r#"`restart=on\|off`"#,
        key: r#"`engine.N.restart = true\|false`"#,
        example: "-each restart=on",
        notes: "a new process for every game",
    },
    Row {
        flags: &["-rounds"],
        usage: "`-rounds N`",
        key: "`tournament.pairs = N`",
        example: "-rounds 3",
        notes: "a round of 2 games on one opening, colours swapped, is a pair; default 2",
    },
    Row {
        flags: &["-games", "-repeat"],
        usage: "`-games 2`, `-repeat`",
        key: "(pairs)",
        example: "",
        notes: "only 2 games per round: `-games 1` is refused; `-games 500 -rounds 2` is read as `-rounds 500 -games 2`, as fastchess does",
    },
    Row {
        flags: &["-concurrency"],
        usage: "`-concurrency N`",
        key: "`tournament.concurrency`",
        example: "-concurrency 1",
        notes: r#"default 1 (the TOML default is the number of cores); 0 or less: hardware threads minus \|N\|"#,
    },
    Row {
        flags: &["-force-concurrency"],
        usage: "`-force-concurrency`",
        key: "",
        example: "",
        notes: "accepted; there is no limit to lift",
    },
    Row {
        flags: &["-tournament"],
        usage: r#"`-tournament roundrobin\|gauntlet\|ladder`"#,
        key: "`tournament.kind`",
        example: "-tournament gauntlet",
        notes: "two engines always play a `match`; more default to `round_robin`",
    },
    Row {
        flags: &["-seeds"],
        usage: "`-seeds 1`",
        key: "",
        example: "",
        notes: "a gauntlet's seed is the first engine; other counts are refused",
    },
    Row {
        flags: &["-srand"],
        usage: "`-srand SEED`",
        key: "`tournament.seed`",
        example: "-srand 7",
        notes: "default 1 (fastchess draws one at random; a fixed default keeps a command line reproducible and resumable)",
    },
    Row {
        flags: &["-openings"],
        usage: "`-openings file=`",
        key: "`openings.file`",
        example: "-openings file=x.epd",
        notes: "",
    },
    Row {
        flags: &[],
        usage: r#"`format=epd\|pgn`"#,
        key: "`openings.format`",
        example: "-openings file=x.epd format=epd",
        notes: "default by the extension (`.pgn`), else epd",
    },
    Row {
        flags: &[],
        usage: r#"`order=sequential\|random`"#,
        key: "`openings.order`",
        example: "-openings file=x.epd order=random",
        notes: "",
    },
    Row {
        flags: &[],
        usage: "`plies=N`",
        key: "`openings.plies`",
        example: "-openings file=x.epd plies=4",
        notes: "the first N plies of each opening; `-1` (fastchess's default) keeps all",
    },
    Row {
        flags: &[],
        usage: "`start=N`",
        key: "`openings.start`",
        example: "-openings file=x.epd start=2",
        notes: "1-based",
    },
    Row {
        flags: &[],
        usage: "`policy=round`",
        key: "",
        example: "",
        notes: "the only policy: both games of a pair play the same opening",
    },
    Row {
        flags: &["-sprt"],
        usage: "`-sprt elo0= elo1= alpha= beta=`",
        key: "`sprt.elo0` ... `sprt.beta`",
        example: "-sprt elo0=0 elo1=2 alpha=0.05 beta=0.05",
        notes: "keys left out take the TOML defaults (0, 2, 0.05, 0.05)",
    },
    Row {
        flags: &[],
        usage: r#"`model=normalized\|logistic`"#,
        key: "`sprt.model`",
        example: "-sprt model=logistic",
        notes: "no `bayesian`",
    },
    Row {
        flags: &["-rounds", "-sprt"],
        usage: "`-rounds 0` with `-sprt`",
        key: "`tournament.pairs = 500000`",
        example: "-rounds 0 -sprt elo0=0",
        notes: "fastchess's open-ended SPRT",
    },
    Row {
        flags: &["-draw"],
        usage: "`-draw movenumber= movecount= score=`",
        key: "`adjudication.draw = { move_number, move_count, score }`",
        example: "-draw movenumber=40 movecount=8 score=10",
        notes: "fastchess's defaults 0, 1, 0",
    },
    Row {
        flags: &["-resign"],
        usage: "`-resign movecount= score= twosided=`",
        key: "`adjudication.resign = { move_count, score, two_sided }`",
        example: "-resign movecount=3 score=600 twosided=true",
        notes: "defaults 1, 0, false (a score of 0 is refused: set one)",
    },
    Row {
        flags: &["-maxmoves"],
        usage: "`-maxmoves N`",
        key: "`adjudication.max_plies = 2N`",
        example: "-maxmoves 100",
        notes: "",
    },
    Row {
        flags: &["-recover"],
        usage: "`-recover`",
        key: "`faults.max_crashes = 4294967295`",
        example: "-recover",
        notes: "without it `faults.max_crashes = 0`: the run stops at the first crash or stall, as fastchess does",
    },
    Row {
        flags: &["-startup-ms", "-ping-ms"],
        usage: "`-startup-ms MS`, `-ping-ms MS`",
        key: "`faults.startup_timeout`, `faults.ping_timeout`",
        example: "-startup-ms 100 -ping-ms 100",
        notes: "",
    },
    Row {
        flags: &["-use-affinity"],
        usage: "`-use-affinity`",
        key: "`tournament.affinity = true`",
        example: "-use-affinity",
        notes: "a CPU list is refused",
    },
    Row {
        flags: &["-log"],
        usage: "`-log file=F [engine=true]`",
        key: "`run --log F`",
        example: "",
        notes: "every line to and from every engine, with its time, to F; `level=`, `compress=`, `realtime=` are refused",
    },
    Row {
        flags: &["-pgnout"],
        usage: "`-pgnout file=F` (cutechess: `-pgnout F`)",
        key: r#"`output.pgnout = "F"`"#,
        example: "-pgnout file=x.pgn",
        notes: "`games.pgn` also written to F at the end of the run",
    },
    Row {
        flags: &[],
        usage: r#"`append=true\|false`"#,
        key: "`output.pgnout_append`",
        example: "-pgnout file=x.pgn append=false",
        notes: "default true: F keeps what it held; a resumed run rewrites its own games, never twice",
    },
    Row {
        flags: &[],
        usage: "`notation=`",
        key: "`output.pgn_format`",
        example: "-pgnout file=x.pgn notation=san",
        notes: "`iccs` or `wxf`; fastchess's `san` is `wxf`, `lan` and `uci` are `iccs`; default `iccs` (fastchess: san)",
    },
    Row {
        flags: &[],
        usage: "`nodes=`, `seldepth=`, `nps=`",
        key: "`output.pgn_nodes`, `output.pgn_seldepth`, `output.pgn_nps`",
        example: "-pgnout file=x.pgn nodes=true seldepth=true nps=true",
        notes: "`n=`, `sd=`, `nps=` in each move's comment",
    },
    Row {
        flags: &[],
        usage: "`hashfull=`, `tbhits=`, `pv=`, `timeleft=`, `latency=`, `min=`",
        key: "",
        example: "",
        notes: "`=false` accepted, `=true` refused",
    },
    Row {
        flags: &["-ratinginterval"],
        usage: "`-ratinginterval N`",
        key: "`output.report_interval`",
        example: "-ratinginterval 5",
        notes: "the result block every N pairs; 0: only at the end",
    },
    Row {
        flags: &["-event"],
        usage: "`-event NAME`",
        key: "`tournament.event`",
        example: "-event X",
        notes: "",
    },
    Row {
        flags: &["-output"],
        usage: "`-output format=fastchess`",
        key: "",
        example: "",
        notes: "the only format; `cutechess` is refused",
    },
    Row {
        flags: &["-report"],
        usage: "`-report penta=true`",
        key: "",
        example: "",
        notes: "always",
    },
    Row {
        flags: &["-autosaveinterval"],
        usage: "`-autosaveinterval N`",
        key: "",
        example: "",
        notes: "accepted: every game is saved as it ends",
    },
    Row {
        flags: &["-quick"],
        usage: "`-quick cmd=A cmd=B book=F`",
        key: "",
        example: "",
        notes: "fastchess's quick match: 10+0.1, random openings from F, 25000 rounds, concurrency = threads - 2, `-recover`, draw 30/8/8",
    },
    Row {
        flags: &["-out"],
        usage: "`-out DIR`",
        key: "`output.dir`",
        example: "-out d",
        notes: "addition",
    },
    Row {
        flags: &["-rules"],
        usage: "`-rules ruleset= movelimit= counting= banmoves=`",
        key: "`rules.ruleset`, `rules.move_limit`, `rules.limit_counting`, `rules.banmoves`",
        example: "-rules ruleset=asian movelimit=100 counting=all banmoves=true",
        notes: "Xiangqi addition",
    },
    Row {
        flags: &["-help", "-version"],
        usage: "`-help`, `-version`",
        key: "",
        example: "",
        notes: "also `--help`, `--version`",
    },
];

/// The flags that say what to do with the run rather than set a key; the doc names them
/// in its text above the table.
pub(crate) const MODES: &[&str] = &[
    "--print-config",
    "--dry-run",
    "--resume",
    "--help",
    "--version",
];

/// Flags that mean something in fastchess or cutechess-cli but not here, and why: a
/// refusal names the flag and gives the reason. The doc's "Refused with a reason" lists
/// the same flags (a test checks it).
pub(crate) const REFUSED: &[(&str, &str)] = &[
    ("-variant", "xq-runner plays Xiangqi only"),
    ("-tb", "there are no Xiangqi tablebases to adjudicate with"),
    ("-tbpieces", "there are no Xiangqi tablebases to adjudicate with"),
    ("-tbignore50", "there are no Xiangqi tablebases to adjudicate with"),
    ("-tbadjudicate", "there are no Xiangqi tablebases to adjudicate with"),
    ("-noswap", "xq-runner plays every opening twice with colours swapped (a pair)"),
    ("-reverse", "xq-runner plays every opening twice with colours swapped (a pair)"),
    ("-epdout", "not supported; games.pgn has every game"),
    ("-config", "fastchess's JSON config is not read: --print-config gives the TOML config of a command line, `xq-runner run FILE --resume` continues a run"),
    ("-debug", "not supported: RUST_LOG=trace shows engine traffic on stderr"),
    ("-site", "not supported: games.pgn's Site is xq-runner"),
    ("-wait", "not supported"),
    ("-scoreinterval", "belongs to cutechess's output, which xq-runner does not print"),
    ("-outcomeinterval", "belongs to cutechess's output, which xq-runner does not print"),
    ("-resultformat", "belongs to cutechess's output, which xq-runner does not print"),
    ("-bookmode", "not supported: openings are read from the file, not a book"),
    ("-crc32", "not supported"),
    ("-check-mate-pvs", "not supported"),
    ("-show-latency", "not supported"),
    ("-testEnv", "not supported"),
    ("-strict", "not supported"),
    ("-ucinewgame-ms", "not separate here: -ping-ms covers the answer after a new game"),
];

/// Every flag the translator reads: those of the table, then the modes.
pub(crate) fn known_flags() -> impl Iterator<Item = &'static str> {
    ROWS.iter()
        .flat_map(|row| row.flags.iter().copied())
        .chain(MODES.iter().copied())
}

/// Whether the translator reads `name`.
pub(crate) fn is_known(name: &str) -> bool {
    known_flags().any(|flag| flag == name)
}

/// Why `name` is refused, when it is one of [`REFUSED`].
pub(crate) fn refusal(name: &str) -> Option<&'static str> {
    REFUSED
        .iter()
        .find(|(flag, _)| *flag == name)
        .map(|(_, why)| *why)
}

/// A row as the doc's Markdown table has it.
#[cfg(test)]
pub(crate) fn markdown(row: &Row) -> String {
    let cell = |text: &str| {
        if text.is_empty() {
            " ".to_owned()
        } else {
            format!(" {text} ")
        }
    };
    format!(
        "|{}|{}|{}|",
        cell(row.usage),
        cell(row.key),
        cell(row.notes)
    )
}
