// fishtest's published check table, as `docs/statistics.md` prints it, read by the
// statistics unit test (`runner/src/stats/fishtest_checks.rs`) and the CLI test
// (`runner/tests/stats_cli.rs`) with `include!`: one table, two ways in.

/// One row: counts, logistic bounds, normalized bounds, then Elo, ±, LOS,
/// nElo, ±, LLR logistic, LLR normalized.
type FishtestCheckRow = ([u64; 5], [f64; 2], [f64; 2], [f64; 7]);

/// The published check table, as `docs/statistics.md` prints it (rounded to 6 or 7 digits).
const FISHTEST_CHECK_TABLE: [FishtestCheckRow; 4] = [
    (
        [120, 2950, 5700, 3100, 130],
        [0.0, 2.0],
        [0.0, 2.0],
        [
            2.461043,
            2.382101,
            0.978567,
            4.541478,
            4.396377,
            1.977_920_0,
            1.407_944_1,
        ],
    ),
    (
        [10789, 19328, 33806, 19402, 10543],
        [-3.0, 1.0],
        [-1.75, 0.25],
        [
            -0.773577,
            1.277580,
            0.117659,
            -0.951629,
            1.571623,
            2.131_067_8,
            -0.627_167_9,
        ],
    ),
    (
        [1, 2, 3, 3, 1],
        [0.0, 5.0],
        [0.0, 5.0],
        [
            17.386278,
            128.150885,
            0.609656,
            21.630395,
            153.761705,
            0.018_797_7,
            0.015_688_1,
        ],
    ),
    (
        [0, 0, 50, 0, 0],
        [0.0, 2.0],
        [0.0, 2.0],
        [
            0.0,
            0.680908,
            0.5,
            0.0,
            68.093400,
            -0.282_412_5,
            -0.002_077_4,
        ],
    ),
];
