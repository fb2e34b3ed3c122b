//! The bench signature: the node count of `xq-engine bench` at its default depth and
//! level. The default search parameters and evaluation weights are the constants the
//! signature was taken with; a change of search or evaluation changes it on purpose (and
//! then this number, with the commit that says why).

#[test]
fn bench_prints_the_signature_of_the_default_search() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_xq-engine"))
        .arg("bench")
        .output()
        .expect("run xq-engine bench");
    assert!(output.status.success());
    let stdout = String::from_utf8_lossy(&output.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    assert!(last.starts_with("277262 nodes "), "{last}");
}

#[test]
fn a_searcher_given_the_default_parameters_searches_the_bench_tree() {
    use xq_engine::eval::{Evaluator, TermWeights};
    use xq_engine::search::{Control, GameSoFar, Limits, SearchParams, Searcher};

    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let nodes = |searcher: &mut Searcher| {
        let mut total = 0;
        for fen in &xq_engine::bench::POSITIONS[..8] {
            searcher.clear();
            let game = GameSoFar {
                start: xq_engine::board::Position::from_fen(fen).expect("bench fen"),
                moves: Vec::new(),
            };
            let control = std::sync::Arc::new(Control::new(false));
            total += searcher
                .think(&game, &limits, &[], control, &mut |_| {})
                .nodes;
        }
        total
    };
    let mut plain = Searcher::new(16, Evaluator::new(6));
    let mut explicit = Searcher::new(16, Evaluator::new(6).with_weights(TermWeights::default()));
    explicit.set_params(SearchParams::default());
    assert_eq!(explicit.params(), SearchParams::default());
    assert_eq!(nodes(&mut explicit), nodes(&mut plain));
}
