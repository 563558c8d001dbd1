//! Self-play statistics: exact answers on games small enough to enumerate, reproducibility,
//! the Wilson interval, and the players.

use mancala_core::afrika::{Afrika, Ending, Repetition, Rules};
use mancala_core::game::SplitMix;
use mancala_core::game::random_line;
use mancala_core::kalah::index::SeedsInPlay;
use mancala_core::kalah::{Kalah, Rules as KalahRules};
use mancala_core::{Game, Moves};
use mancala_solver::retro::Database;
use mancala_solver::retro::db::Quiet;
use mancala_solver::strategies::selfplay::{
    End, GameEnd, Line, Stats, Tally, Z95, game_seed, play_game, play_games, wilson,
};
use mancala_solver::strategies::{PlayerState, Strategy};
use mancala_solver::{Config, Solver};

/// Exact expectations under uniformly random play, by enumerating the whole tree:
/// P(first wins), P(draw), E[length], E[product of branching factors] and the number of
/// leaves (complete games).
#[derive(Default, Debug)]
struct Exact {
    win: f64,
    draw: f64,
    length: f64,
    product: f64,
    leaves: f64,
}

fn enumerate<G: Game>(g: &G, first: mancala_core::Player, depth: usize, prob: f64, e: &mut Exact) {
    let mut moves = Moves::new();
    g.legal_moves(&mut moves);
    if moves.is_empty() {
        let v = g.terminal_value();
        let v = if g.to_move() == first { v } else { -v };
        if v > 0 {
            e.win += prob;
        } else if v == 0 {
            e.draw += prob;
        }
        e.length += prob * depth as f64;
        // The product of branching factors along this path is 1 / prob.
        e.product += prob * (1.0 / prob);
        e.leaves += 1.0;
        return;
    }
    let p = prob / moves.len() as f64;
    for &m in &moves {
        enumerate(&g.play(m), first, depth + 1, p, e);
    }
}

/// A hand-made game: branching factors, margin, score, end, plies until decided.
type Made<'a> = (&'a [u8], f64, (u32, u32), End, Option<usize>);

/// The statistics of hand-made games.
fn summarize(games: &[Made]) -> Stats {
    let mut tally = Tally::default();
    for &(branching, margin, score, end, decided) in games {
        let mut line = Line::new();
        for &b in branching {
            tally.ply(&mut line, b as usize);
        }
        let game = GameEnd {
            end,
            margin,
            score,
            plies: branching.len(),
            decided,
        };
        tally.end(&line, &game);
    }
    tally.stats()
}

fn kalah_small() -> Kalah {
    Kalah::start(3, 2, KalahRules::default())
}

/// The product estimator's expectation is exactly the number of complete games (leaves)
/// under random play, and the simulated figures agree with the exact distribution within
/// five standard errors.
#[test]
fn random_play_matches_enumeration_on_small_kalah() {
    let g = kalah_small();
    let mut e = Exact::default();
    enumerate(&g, g.to_move(), 0, 1.0, &mut e);
    assert!((e.product - e.leaves).abs() < 1e-6 * e.leaves, "{e:?}");
    assert!(e.leaves > 10.0, "{e:?}");

    let n = 20_000;
    let s = play_games(&g, [Strategy::Random; 2], 7, n, 2000, None, &|_| {}).stats();
    assert_eq!(s.games, n);
    assert_eq!(s.capped, 0);
    let close = |got: f64, want: f64, var: f64, what: &str| {
        let se = (var / n as f64).sqrt().max(1e-9);
        assert!(
            (got - want).abs() < 5.0 * se,
            "{what}: simulated {got}, exact {want}, se {se}"
        );
    };
    close(
        s.first_win_rate.rate,
        e.win,
        e.win * (1.0 - e.win),
        "first wins",
    );
    close(s.draw_rate.rate, e.draw, e.draw * (1.0 - e.draw), "draws");
    // Length variance is bounded by the squared range.
    let var_len = ((s.plies.max - s.plies.min) as f64).powi(2) / 4.0;
    close(s.plies.mean, e.length, var_len, "mean length");
    // The product estimator: compare in the linear domain with a loose bound (its
    // variance is bounded by the square of the largest product).
    let est = 10f64.powf(s.product_estimate_log10);
    assert!(
        (est / e.leaves - 1.0).abs() < 0.1,
        "product estimate {est}, leaves {}",
        e.leaves
    );
}

/// Summaries of hand-made records: every figure by hand.
#[test]
fn summary_of_known_records() {
    let s = summarize(&[
        (&[2, 2, 1], 4.0, (6, 2), End::Over, None),
        (&[2, 1], -2.0, (1, 3), End::Over, None),
        (&[2, 4, 2, 1], 0.0, (2, 2), End::Over, None),
        (&[3, 3, 3, 3, 3], 0.0, (0, 0), End::Capped, None),
    ]);
    assert_eq!((s.games, s.finished, s.capped), (4, 3, 1));
    assert_eq!((s.first_wins, s.draws, s.second_wins), (1, 1, 1));
    assert!((s.mean_margin - 2.0 / 3.0).abs() < 1e-12);
    assert_eq!((s.plies.min, s.plies.max), (2, 4));
    assert!((s.plies.mean - 3.0).abs() < 1e-12);
    assert!((s.plies.mean_choices - 2.0).abs() < 1e-12);
    assert_eq!(s.length_histogram, vec![(2, 1), (3, 1), (4, 1)]);
    assert_eq!(s.largest_win, Some((6, 2, 4.0)));
    // Branching over all 14 positions (capped game included): sum 2+2+1+2+1+2+4+2+1+15.
    assert!((s.mean_branching - 32.0 / 14.0).abs() < 1e-12);
    assert!((s.mean_branching_choices - 29.0 / 11.0).abs() < 1e-12);
    assert_eq!((s.max_branching, s.most_common_branching), (4, 2));
    assert!((s.tree_complexity_log10 - 3.0 * (32.0f64 / 14.0).log10()).abs() < 1e-12);
    // Products 4, 2, 16 over the finished games: mean 22/3.
    assert!((s.product_estimate_log10 - (22.0f64 / 3.0).log10()).abs() < 1e-12);
    assert_eq!(s.branching_by_ply[0].positions, 4);
    assert!((s.branching_by_ply[0].mean - 9.0 / 4.0).abs() < 1e-12);
    assert_eq!(s.branching_by_ply[4].positions, 1);
}

/// Same seed, same statistics, whatever the number of threads; another seed differs.
#[test]
fn reproducible_for_any_thread_count() {
    let g = Afrika::start(4, 3, Rules::default());
    let run = |threads: usize, seed: u64| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let tally = pool.install(|| {
            play_games(
                &g,
                [Strategy::Greedy, Strategy::Random],
                seed,
                // More than one chunk, the last one short.
                700,
                2000,
                None,
                &|_| {},
            )
        });
        serde_json::to_string(&tally.stats()).unwrap()
    };
    let a = run(1, 42);
    assert_eq!(a, run(2, 42));
    assert_eq!(a, run(2, 42));
    assert_ne!(a, run(1, 43));
    assert_ne!(game_seed(1, 0), game_seed(1, 1));
}

/// Known values of the 95% Wilson interval, and its coverage on a simulated coin.
#[test]
fn wilson_interval() {
    let (lo, hi) = wilson(5, 10, Z95);
    assert!(
        (lo - 0.236_593).abs() < 1e-5 && (hi - 0.763_407).abs() < 1e-5,
        "{lo} {hi}"
    );
    let (lo, hi) = wilson(0, 10, Z95);
    assert!(
        lo.abs() < 1e-12 && (hi - 0.277_533).abs() < 1e-5,
        "{lo} {hi}"
    );
    let (lo, hi) = wilson(10, 10, Z95);
    assert!(
        (hi - 1.0).abs() < 1e-12 && (lo - 0.722_467).abs() < 1e-5,
        "{lo} {hi}"
    );
    assert_eq!(wilson(0, 0, Z95), (0.0, 1.0));

    let mut rng = SplitMix(99);
    for &(p, n) in &[(0.5, 40usize), (0.1, 100), (0.03, 500)] {
        let reps = 4000;
        let mut covered = 0;
        for _ in 0..reps {
            let k = (0..n)
                .filter(|_| (rng.next_u64() as f64) < p * u64::MAX as f64)
                .count();
            let (lo, hi) = wilson(k, n, Z95);
            if lo <= p && p <= hi {
                covered += 1;
            }
        }
        let c = covered as f64 / reps as f64;
        assert!((0.92..=0.975).contains(&c), "p {p} n {n}: coverage {c}");
    }
}

/// A perfect player never scores below the game's exact value, whoever it meets; the
/// alpha-beta player beats the random one on average.
#[test]
fn perfect_and_alpha_beta_players() {
    let rules = Rules {
        ending: Ending::Empty,
        repetition: Repetition::Shared,
        komi_half: 0,
    };
    let g = Afrika::start(3, 2, rules);
    let value = Solver::new(Config::default()).solve(&g).unwrap().value;
    for i in 0..30 {
        let r = play_game(
            &g,
            [Strategy::Perfect(99), Strategy::Random],
            game_seed(5, i),
            2000,
            None,
        );
        assert_ne!(r.end, End::Capped);
        assert!(r.margin >= value as f64, "game {i}: {} < {value}", r.margin);
    }
    let s = play_games(
        &Kalah::start(4, 3, KalahRules::default()),
        [Strategy::AlphaBeta(3), Strategy::Random],
        3,
        200,
        2000,
        None,
        &|_| {},
    )
    .stats();
    assert!(s.first_win_rate.rate > 0.8, "{:?}", s.first_win_rate);
    assert!(s.mean_margin > 0.0);
}

#[test]
fn player_names() {
    assert_eq!("random".parse(), Ok(Strategy::Random));
    assert_eq!("Greedy".parse(), Ok(Strategy::Greedy));
    assert_eq!("ab:4".parse(), Ok(Strategy::AlphaBeta(4)));
    assert_eq!("perfect".parse(), Ok(Strategy::Perfect(10)));
    assert_eq!("perfect:14".parse(), Ok(Strategy::Perfect(14)));
    for bad in ["", "foo", "ab", "ab:0", "ab:x", "random:3", "ab:99"] {
        assert!(bad.parse::<Strategy>().is_err(), "{bad}");
    }
    assert_eq!(Strategy::AlphaBeta(6).to_string(), "ab:6");
}

/// "Until decided": plies until a player held more than half of the stones, over the
/// finished games where that happened.
#[test]
fn decided_lengths_are_summarised_over_decided_games_only() {
    use mancala_solver::strategies::selfplay::Decided;
    let s = summarize(&[
        (&[2, 2, 2], 1.0, (1, 0), End::Over, Some(2)),
        (&[2, 2, 2, 2, 2], 1.0, (1, 0), End::Over, Some(4)),
        (&[2, 2], 1.0, (1, 0), End::Over, None),
        (&[2, 2, 2, 2], 1.0, (1, 0), End::Capped, Some(1)),
    ]);
    assert_eq!(
        s.decided,
        Some(Decided {
            games: 2,
            min: 2,
            mean: 3.0,
            max: 4
        })
    );
    assert!((s.decided_complexity_log10.unwrap() - 3.0 * 2f64.log10()).abs() < 1e-12);
    // A real game: Kauri random play is decided before or when it ends.
    let g = mancala_core::kauri::Kauri::start(mancala_core::kauri::Rules::Current);
    for seed in 0..20 {
        let r = play_game(&g, ["random".parse().unwrap(); 2], seed, 2000, None);
        if let Some(d) = r.decided {
            assert!(d <= r.plies);
            assert!(2 * r.score.0.max(r.score.1) > 60);
        }
    }
}

/// With an endgame database the `perfect` player plays a best move in every position the
/// database holds, whatever its stone threshold (`perfect:0` would never solve alone);
/// without one it falls back to a shallow search, which misses some of them.
#[test]
fn the_perfect_player_uses_the_database() {
    let classes: Vec<SeedsInPlay> = (2..=10)
        .map(|seeds| SeedsInPlay {
            m: 4,
            seeds,
            capture: Default::default(),
        })
        .collect();
    let mut db = Database::<Kalah>::empty("kalah", "test");
    db.solve(&classes, &Quiet);
    // Every move's value, no principal variation needed.
    let config = Config {
        threads: 1,
        tt_mb: 16,
        max_pv: 0,
        ..Config::default()
    };
    let solver = Solver::new(config);
    let perfect = Strategy::Perfect(0);
    let (mut checked, mut fallback_misses) = (0, 0);
    let mut rng = SplitMix(11);
    for i in 0..300 {
        let line = random_line(Kalah::start(4, 3, KalahRules::default()), &mut rng, 200);
        let Some(g) = line
            .iter()
            .find(|g| !g.is_terminal() && (4..=10).contains(&g.material()))
        else {
            continue;
        };
        let sol = solver.solve(g).unwrap();
        let value_of = |m| sol.moves.iter().find(|x| x.0 == m).unwrap().1;
        let choose = |oracle: Option<&Database<Kalah>>| {
            let oracle = oracle.map(|d| d as &dyn mancala_solver::retro::Oracle<Kalah>);
            perfect.choose(
                (g, &[]),
                &mut SplitMix(i),
                &mut PlayerState::default(),
                oracle,
            )
        };
        assert_eq!(value_of(choose(Some(&db))), sol.value, "{g:?}");
        if value_of(choose(None)) != sol.value {
            fallback_misses += 1;
        }
        checked += 1;
    }
    assert!(checked > 100, "only {checked} positions");
    assert!(
        fallback_misses > 0,
        "ab:4 chose a best move everywhere: the check cannot tell it from the database"
    );
}
