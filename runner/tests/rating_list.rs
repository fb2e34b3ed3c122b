//! Rating lists: exact recovery, anchoring, errors, and the coverage of the
//! 95% intervals on seeded simulated round robins.

use xq_runner::openings::SplitMix64;
use xq_runner::stats::{logistic_score, Anchor, RatingError, RatingList};

/// One fractional "game" per pair with exactly the expected score: the
/// likelihood is maximal at the true ratings.
fn exact_games(elo: &[f64], per_pair: usize) -> Vec<(usize, usize, f64)> {
    let mut games = Vec::new();
    for i in 0..elo.len() {
        for j in i + 1..elo.len() {
            for _ in 0..per_pair {
                games.push((i, j, logistic_score(elo[i] - elo[j])));
            }
        }
    }
    games
}

#[test]
fn recovers_exact_ratings() -> Result<(), RatingError> {
    let elo = [0.0, 35.0, -80.0, 150.0];
    let list = RatingList::fit(&exact_games(&elo, 50), Anchor::Engine(0))?;
    for (got, want) in list.ratings.iter().zip(elo) {
        assert!((got.elo - want).abs() < 1e-6, "{} vs {want}", got.elo);
    }
    assert_eq!(list.ratings[0].ci95, 0.0);
    assert!(list.ratings[1].ci95 > 0.0);
    // Anchored on engine 2 instead: the same differences.
    let list = RatingList::fit(&exact_games(&elo, 50), Anchor::Engine(2))?;
    assert!((list.ratings[3].elo - 230.0).abs() < 1e-6);
    Ok(())
}

#[test]
fn mean_anchor_centres_ratings_and_keeps_differences() -> Result<(), RatingError> {
    let elo = [0.0, 35.0, -80.0, 150.0];
    let games = exact_games(&elo, 20);
    let first = RatingList::fit(&games, Anchor::Engine(0))?;
    let mean = RatingList::fit(&games, Anchor::Mean)?;
    let sum: f64 = mean.ratings.iter().map(|r| r.elo).sum();
    assert!(sum.abs() < 1e-6);
    let shift = mean.ratings[0].elo;
    for (a, b) in first.ratings.iter().zip(&mean.ratings) {
        assert!((a.elo + shift - b.elo).abs() < 1e-6);
    }
    // Differences have the same variance whatever the anchor.
    let var_diff = |l: &RatingList, i: usize, j: usize| {
        l.covariance[i][i] + l.covariance[j][j] - 2.0 * l.covariance[i][j]
    };
    assert!((var_diff(&first, 1, 3) - var_diff(&mean, 1, 3)).abs() < 1e-6);
    assert!((first.los[1][3] - mean.los[1][3]).abs() < 1e-9);
    assert!((mean.los[1][3] + mean.los[3][1] - 1.0).abs() < 1e-12);
    assert!(mean.los[3][2] > 0.99 && mean.los[2][3] < 0.01);
    Ok(())
}

#[test]
fn gauntlet_is_enough() -> Result<(), RatingError> {
    // Engine 0 plays everyone; the others never meet.
    let mut games = Vec::new();
    for (j, elo) in [(1, 50.0), (2, -50.0), (3, 0.0)] {
        for _ in 0..40 {
            games.push((0, j, logistic_score(-elo)));
        }
    }
    let list = RatingList::fit(&games, Anchor::default())?;
    assert!((list.ratings[1].elo - 50.0).abs() < 1e-6);
    assert!((list.ratings[1].games - 40.0).abs() < 1e-12);
    Ok(())
}

#[test]
fn unbounded_and_bad_inputs_are_errors() {
    // Engine 1 won every game.
    let games = [(0, 1, 0.0), (1, 0, 1.0), (0, 2, 0.5)];
    assert!(matches!(
        RatingList::fit(&games, Anchor::Mean),
        Err(RatingError::Unbounded { other: 1, .. })
    ));
    // Two groups that never met.
    let games = [(0, 1, 0.5), (2, 3, 0.5)];
    assert!(matches!(
        RatingList::fit(&games, Anchor::Mean),
        Err(RatingError::Unbounded { .. })
    ));
    assert!(matches!(
        RatingList::fit(&[], Anchor::Mean),
        Err(RatingError::NoGames)
    ));
    assert!(matches!(
        RatingList::fit(&[(0, 0, 0.5)], Anchor::Mean),
        Err(RatingError::SelfPlay { .. })
    ));
    assert!(matches!(
        RatingList::fit(&[(0, 1, 1.5)], Anchor::Mean),
        Err(RatingError::InvalidScore { .. })
    ));
    assert!(matches!(
        RatingList::fit(&[(0, 1, 0.5)], Anchor::Engine(2)),
        Err(RatingError::Anchor { .. })
    ));
}

#[test]
fn lopsided_but_finite_results_converge() -> Result<(), RatingError> {
    // 99 wins and one draw: about +900 Elo.
    let mut games = vec![(0, 1, 1.0); 99];
    games.push((0, 1, 0.5));
    let list = RatingList::fit(&games, Anchor::Engine(1))?;
    let want = -400.0 * (1.0f64 / 0.995 - 1.0).log10();
    assert!((list.ratings[0].elo - want).abs() < 1e-6);
    Ok(())
}

/// A round robin of `games` games per pairing, with a 30% draw rate and the
/// expected score of the logistic model.
fn simulate(elo: &[f64], games: usize, rng: &mut SplitMix64) -> Vec<(usize, usize, f64)> {
    let draw = 0.3;
    let mut out = Vec::new();
    for i in 0..elo.len() {
        for j in i + 1..elo.len() {
            let s = logistic_score(elo[i] - elo[j]);
            let (win, loss) = (s - draw / 2.0, 1.0 - s - draw / 2.0);
            assert!(win > 0.0 && loss > 0.0);
            for g in 0..games {
                let u = rng.next_f64();
                let score = if u < win {
                    1.0
                } else if u < win + draw {
                    0.5
                } else {
                    0.0
                };
                // Alternate who is listed first, as colours would.
                if g % 2 == 0 {
                    out.push((i, j, score));
                } else {
                    out.push((j, i, 1.0 - score));
                }
            }
        }
    }
    out
}

#[test]
fn intervals_cover_the_true_ratings() -> Result<(), RatingError> {
    let truth = [0.0, 40.0, -60.0, 100.0, 150.0];
    let mean = truth.iter().sum::<f64>() / truth.len() as f64;
    let trials = 200;
    let mut covered_first = [0usize; 5];
    let mut covered_mean = [0usize; 5];
    let mut rng = SplitMix64::new(0x5EED_2024);
    for _ in 0..trials {
        let games = simulate(&truth, 60, &mut rng);
        let first = RatingList::fit(&games, Anchor::Engine(0))?;
        let centred = RatingList::fit(&games, Anchor::Mean)?;
        for i in 0..truth.len() {
            let r = first.ratings[i];
            if (r.elo - truth[i]).abs() <= r.ci95 {
                covered_first[i] += 1;
            }
            let r = centred.ratings[i];
            if (r.elo - (truth[i] - mean)).abs() <= r.ci95 {
                covered_mean[i] += 1;
            }
        }
    }
    // The anchor itself is exact (interval 0); every other rating must lie in
    // its 95% interval in at least 90% of the trials.
    assert_eq!(covered_first[0], trials);
    for i in 0..truth.len() {
        assert!(
            covered_first[i] * 10 >= trials * 9,
            "engine {i}: {covered_first:?}"
        );
        assert!(
            covered_mean[i] * 10 >= trials * 9,
            "engine {i}: {covered_mean:?}"
        );
    }
    eprintln!("coverage (first = 0): {covered_first:?}; (mean = 0): {covered_mean:?} of {trials}");
    Ok(())
}
