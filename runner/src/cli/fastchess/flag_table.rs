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

/// Writes [`ROWS`] one row a line: `[flags] usage, key, example, notes;`.
macro_rules! rows {
    ($([$($flag:literal),*] $usage:literal, $key:literal, $example:literal, $notes:literal;)*) => {
        &[$(Row { flags: &[$($flag),*], usage: $usage, key: $key, example: $example, notes: $notes }),*]
    };
}

/// The table of `docs/fastchess-flags.md`, in its order.
#[rustfmt::skip]
pub(crate) const ROWS: &[Row] = rows! {
    ["-engine", "-each"] "`-engine`/`-each cmd=PROGRAM`", r#"`engine.N.command = ["PROGRAM", ...]`"#, "-engine cmd=c", "";
    [] r#"`args="A B"`"#, "the rest of `command`", "", "split like a shell; cutechess's `arg=A` adds one";
    [] "`name=NAME`", "`engine.N.name`", "-each name=x", "default: the program's file name without extension; a name used again gets `_2`, `_3` (fastchess)";
    [] "`dir=DIR`", "`engine.N.dir`", "-each dir=d", "";
    [] r#"`proto=ucci\|uci`"#, "`engine.N.protocol`", "-each proto=uci", "default `ucci` (fastchess knows only uci)";
    [] r#"`coordinates=0-9\|1-10`"#, "`engine.N.coordinates`", "-each coordinates=1-10", "Xiangqi addition";
    [] "`env.NAME=VALUE`", "`engine.N.env.NAME`", "-each env.NAME=1", "addition";
    [] "`option.NAME=VALUE`", r#"`engine.N.options.NAME = "VALUE"`"#, "-each option.NAME=1", "names with spaces are fine";
    [] r#"`tc=[moves/]min:sec\|sec[+inc]`"#, "`time.tc` (`engine.N.time.tc` when engines differ)", "-each tc=10+0.1", "`40/1:30+0.5` becomes `40/90+0.5`; `tc=inf` is no clock";
    [] "`st=SEC`", r#"`time.movetime = "SECs"`"#, "-each st=1", "";
    [] "`nodes=N`", "`time.nodes`", "-each nodes=1000", "";
    [] "`depth=N`, `plies=N`", "`time.depth`", "-each depth=5", "";
    [] "`timemargin=MS`", r#"`time.margin = "MSms"`"#, "-each timemargin=10", "one margin for all engines; default 50 ms (fastchess: 0)";
    [] r#"`restart=on\|off`"#, r#"`engine.N.restart = true\|false`"#, "-each restart=on", "a new process for every game";
    ["-rounds"] "`-rounds N`", "`tournament.pairs = N`", "-rounds 3", "a round of 2 games on one opening, colours swapped, is a pair; default 2";
    ["-games", "-repeat"] "`-games 2`, `-repeat`", "(pairs)", "", "only 2 games per round: `-games 1` is refused; `-games 500 -rounds 2` is read as `-rounds 500 -games 2`, as fastchess does";
    ["-concurrency"] "`-concurrency N`", "`tournament.concurrency`", "-concurrency 1", r#"default 1 (the TOML default is the number of cores); 0 or less: hardware threads minus \|N\|"#;
    ["-force-concurrency"] "`-force-concurrency`", "", "", "accepted; there is no limit to lift";
    ["-tournament"] r#"`-tournament roundrobin\|gauntlet\|ladder`"#, "`tournament.kind`", "-tournament gauntlet", "two engines always play a `match`; more default to `round_robin`";
    ["-seeds"] "`-seeds 1`", "", "", "a gauntlet's seed is the first engine; other counts are refused";
    ["-srand"] "`-srand SEED`", "`tournament.seed`", "-srand 7", "default 1 (fastchess draws one at random; a fixed default keeps a command line reproducible and resumable)";
    ["-openings"] "`-openings file=`", "`openings.file`", "-openings file=x.epd", "";
    [] r#"`format=epd\|pgn`"#, "`openings.format`", "-openings file=x.epd format=epd", "default by the extension (`.pgn`), else epd";
    [] r#"`order=sequential\|random`"#, "`openings.order`", "-openings file=x.epd order=random", "";
    [] "`plies=N`", "`openings.plies`", "-openings file=x.epd plies=4", "the first N plies of each opening; `-1` (fastchess's default) keeps all";
    [] "`start=N`", "`openings.start`", "-openings file=x.epd start=2", "1-based";
    [] "`policy=round`", "", "", "the only policy: both games of a pair play the same opening";
    ["-sprt"] "`-sprt elo0= elo1= alpha= beta=`", "`sprt.elo0` ... `sprt.beta`", "-sprt elo0=0 elo1=2 alpha=0.05 beta=0.05", "keys left out take the TOML defaults (0, 2, 0.05, 0.05)";
    [] r#"`model=normalized\|logistic`"#, "`sprt.model`", "-sprt model=logistic", "no `bayesian`";
    ["-rounds", "-sprt"] "`-rounds 0` with `-sprt`", "`tournament.pairs = 500000`", "-rounds 0 -sprt elo0=0", "fastchess's open-ended SPRT";
    ["-draw"] "`-draw movenumber= movecount= score=`", "`adjudication.draw = { move_number, move_count, score }`", "-draw movenumber=40 movecount=8 score=10", "fastchess's defaults 0, 1, 0";
    ["-resign"] "`-resign movecount= score= twosided=`", "`adjudication.resign = { move_count, score, two_sided }`", "-resign movecount=3 score=600 twosided=true", "defaults 1, 0, false (a score of 0 is refused: set one)";
    ["-maxmoves"] "`-maxmoves N`", "`adjudication.max_plies = 2N`", "-maxmoves 100", "";
    ["-recover"] "`-recover`", "`faults.max_crashes = 4294967295`", "-recover", "without it `faults.max_crashes = 0`: the run stops at the first crash or stall, as fastchess does";
    ["-startup-ms", "-ping-ms"] "`-startup-ms MS`, `-ping-ms MS`", "`faults.startup_timeout`, `faults.ping_timeout`", "-startup-ms 100 -ping-ms 100", "";
    ["-use-affinity"] "`-use-affinity`", "`tournament.affinity = true`", "-use-affinity", "a CPU list is refused";
    ["-log"] "`-log file=F [engine=true]`", "`run --log F`", "", "every line to and from every engine, with its time, to F; `level=`, `compress=`, `realtime=` are refused";
    ["-pgnout"] "`-pgnout file=F` (cutechess: `-pgnout F`)", r#"`output.pgnout = "F"`"#, "-pgnout file=x.pgn", "`games.pgn` also written to F at the end of the run";
    [] r#"`append=true\|false`"#, "`output.pgnout_append`", "-pgnout file=x.pgn append=false", "default true: F keeps what it held; a resumed run rewrites its own games, never twice";
    [] "`notation=`", "`output.pgn_format`", "-pgnout file=x.pgn notation=san", "`iccs` or `wxf`; fastchess's `san` is `wxf`, `lan` and `uci` are `iccs`; default `iccs` (fastchess: san)";
    [] "`nodes=`, `seldepth=`, `nps=`", "`output.pgn_nodes`, `output.pgn_seldepth`, `output.pgn_nps`", "-pgnout file=x.pgn nodes=true seldepth=true nps=true", "`n=`, `sd=`, `nps=` in each move's comment";
    [] "`hashfull=`, `tbhits=`, `pv=`, `timeleft=`, `latency=`, `min=`", "", "", "`=false` accepted, `=true` refused";
    ["-ratinginterval"] "`-ratinginterval N`", "`output.report_interval`", "-ratinginterval 5", "the result block every N pairs; 0: only at the end";
    ["-event"] "`-event NAME`", "`tournament.event`", "-event X", "";
    ["-output"] "`-output format=fastchess`", "", "", "the only format; `cutechess` is refused";
    ["-report"] "`-report penta=true`", "", "", "always";
    ["-autosaveinterval"] "`-autosaveinterval N`", "", "", "accepted: every game is saved as it ends";
    ["-quick"] "`-quick cmd=A cmd=B book=F`", "", "", "fastchess's quick match: 10+0.1, random openings from F, 25000 rounds, concurrency = threads - 2, `-recover`, draw 30/8/8";
    ["-out"] "`-out DIR`", "`output.dir`", "-out d", "addition";
    ["-rules"] "`-rules ruleset= movelimit= counting= banmoves=`", "`rules.ruleset`, `rules.move_limit`, `rules.limit_counting`, `rules.banmoves`", "-rules ruleset=asian movelimit=100 counting=all banmoves=true", "Xiangqi addition";
    ["-help", "-version"] "`-help`, `-version`", "", "", "also `--help`, `--version`";
};

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
