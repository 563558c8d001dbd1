//! Proof-number search against plain minimax on random small positions of the win/loss
//! games (Andada in every rule variant, Give-away Afrika): for each position both
//! questions, "does the player to move win?" and "does his opponent?", and every answer's
//! certificate checked.

use mancala_core::afrika::{Afrika, Ending, Repetition, Rules as AfrikaRules};
use mancala_core::andada::index::SeedsOnBoard;
use mancala_core::andada::{Andada, Direction, Endless, Phase, Rules};
use mancala_core::game::{SplitMix, random_line};
use mancala_core::twin::mover_key;
use mancala_core::{Game, Moves, Player};
use mancala_solver::minimax::{minimax, minimax_after};
use mancala_solver::on_search_stack;
use mancala_solver::proof::{
    CheckError, Checked, Limits, ProofSearch, ProofTable, Repair, Verdict, check_disproof,
    check_proof, known_verdict,
};
use mancala_solver::retro::db::Quiet;
use mancala_solver::retro::{Database, Oracle};

/// Gaps in the table (disproofs that rest on a repetition above them are not stored) are
/// filled by searches of at most 100,000 nodes in a table of their own (1 MB).
fn repair(table: &mut ProofTable) -> Option<Repair<'_>> {
    Some(Repair {
        nodes: 100_000,
        table,
    })
}

/// Asks both questions of `g`, with mobility initialisation on and off, and compares with
/// minimax's `truth` (+1, 0 or -1 for the player to move).
fn agrees<G: Game>(g: &G, truth: i32, table_mb: usize) {
    agrees_with(g, truth, table_mb, None);
}

/// [`agrees`], the search and the checks taking exact values from `oracle` where it has
/// them.
fn agrees_with<G: Game>(g: &G, truth: i32, table_mb: usize, oracle: Option<&dyn Oracle<G>>) {
    let questions = [
        (g.to_move(), truth > 0),
        (g.to_move().opponent(), truth < 0),
    ];
    for ((attacker, wins), mobility) in questions.into_iter().flat_map(|q| [(q, true), (q, false)])
    {
        let table = ProofTable::with_mb(table_mb);
        let mut search = ProofSearch::new(&table, attacker, Limits::default()).with_oracle(oracle);
        if !mobility {
            search = search.without_mobility();
        }
        let out = search.run(g);
        let mut side = ProofTable::with_mb(1);
        let quiet = &mut |_: &Checked| {};
        let what = format!("{g:?}, attacker {attacker:?}, mobility {mobility}, minimax {truth}");
        if wins {
            assert_eq!(out.verdict, Verdict::Proven, "{what}");
            let proof = check_proof(g, attacker, &table, oracle, repair(&mut side), quiet, None)
                .unwrap_or_else(|gap| panic!("{what}: {gap}"));
            if g.to_move() == attacker && known_verdict(g, attacker.into(), oracle).is_none() {
                // The strategy's first move must itself win.
                let mv = proof
                    .first_move
                    .unwrap_or_else(|| panic!("{what}: no first move"));
                let c = g.play(mv);
                if let Some(v) = minimax_after(&c, &[*g], 20_000) {
                    let theirs = if c.to_move() == attacker { v } else { -v };
                    assert_eq!(theirs, 1, "{what}: first move {mv:?}");
                }
            } else {
                assert_eq!(proof.first_move, None, "{what}");
            }
        } else {
            assert_eq!(out.verdict, Verdict::Disproven, "{what}");
            check_disproof(g, attacker, &table, oracle, repair(&mut side), quiet, None)
                .unwrap_or_else(|gap| panic!("{what}: {gap}"));
        }
    }
}

/// Checks `want` positions drawn by `draw` that minimax solves within `limit` nodes.
fn check<G: Game>(name: &str, want: usize, limit: u64, mut draw: impl FnMut(&mut SplitMix) -> G) {
    let mut rng = SplitMix(0xD1F0 ^ name.len() as u64);
    let (mut checked, mut tried, mut decided) = (0, 0, [0; 3]);
    while checked < want {
        tried += 1;
        assert!(tried < 50 * want + 1000, "{name}: too few small positions");
        let g = draw(&mut rng);
        let Some(truth) = minimax(&g, limit) else {
            continue;
        };
        agrees(&g, truth, 1);
        decided[(truth + 1) as usize] += 1;
        checked += 1;
    }
    // Both verdicts must be exercised, or one could go unchecked. (Draws are rare in
    // positions this small; the test against the 2 x 3 database seeks them out.)
    assert!(
        decided[0] > 0 && decided[2] > 0,
        "{name}: losses, draws, wins {decided:?}"
    );
}

#[test]
fn andada_every_variant_agrees_with_minimax() {
    on_search_stack(|| {
        for direction in [Direction::Counterclockwise, Direction::Clockwise] {
            for endless in [Endless::Illegal, Endless::Draw] {
                let rules = Rules { direction, endless };
                check(
                    &format!("andada {direction:?} {endless:?}"),
                    200,
                    20_000,
                    |rng| {
                        if rng.below(2) == 0 {
                            let plies = 2 + rng.below(12);
                            return *random_line(Andada::start(3, rules), rng, plies)
                                .last()
                                .unwrap();
                        }
                        // A few seeds anywhere on 2 x 3 or 2 x 6.
                        let n = 3 * (1 + rng.below(2));
                        let mut holes = vec![0u8; 2 * n];
                        for _ in 0..2 + rng.below(6) {
                            holes[rng.below(2 * n)] += 1;
                        }
                        let to_move = [Player::First, Player::Second][rng.below(2)];
                        Andada::from_parts(&holes, to_move, Phase::Play, rules).unwrap()
                    },
                );
            }
        }
    });
}

/// A random 2 x 3 position of the regular phase with 9 to 12 seeds (where the draws are).
fn random_2x3(rng: &mut SplitMix, rules: Rules) -> Andada {
    let mut holes = [0u8; 6];
    for _ in 0..9 + rng.below(4) {
        holes[rng.below(6)] += 1;
    }
    let to_move = [Player::First, Player::Second][rng.below(2)];
    Andada::from_parts(&holes, to_move, Phase::Play, rules).unwrap()
}

/// Every draw among random 2 x 3 positions of 9 to 12 seeds (where the strong solution
/// has them: endless play with best play, the case a repetition decides) and as many wins
/// and losses, against the retrograde database (`mancala retro andada:3`).
#[test]
fn andada_2x3_draws_wins_and_losses_agree_with_the_database() {
    on_search_stack(|| {
        let rules = Rules::default();
        let classes: Vec<SeedsOnBoard> = (0..=12)
            .map(|seeds| SeedsOnBoard { n: 3, seeds, rules })
            .collect();
        let mut db = Database::<Andada>::empty("andada", &rules.variant_name());
        db.solve(&classes, &Quiet);
        let mut rng = SplitMix(0xD4A3);
        let mut decided = [0; 3];
        for _ in 0..6000 {
            let g = random_2x3(&mut rng, rules);
            let truth = db
                .value(&g)
                .expect("the database holds every 2 x 3 position");
            let i = (truth + 1) as usize;
            if truth == 0 || decided[i] < decided[1] + 5 {
                agrees(&g, truth, 4);
                decided[i] += 1;
            }
        }
        assert!(decided[1] >= 10, "losses, draws, wins {decided:?}");
    });
}

/// With an endgame database as oracle (the 2 x 3 classes of up to 10 seeds; draws begin
/// at 9), the search and the certificate checks take its values as leaves, the root's
/// too: every answer on random 2 x 3 positions of 9 to 12 seeds (every draw among 6,000, and as many wins and losses) still
/// agrees with the whole database, and the oracle does
/// cut the search (fewer nodes than without it, summed over the positions).
#[test]
fn andada_2x3_with_an_endgame_oracle_agrees_with_the_database() {
    on_search_stack(|| {
        let rules = Rules::default();
        let classes = |top: u8| -> Vec<SeedsOnBoard> {
            (0..=top)
                .map(|seeds| SeedsOnBoard { n: 3, seeds, rules })
                .collect()
        };
        let variant = rules.variant_name();
        let mut whole = Database::<Andada>::empty("andada", &variant);
        whole.solve(&classes(12), &Quiet);
        let mut endgame = Database::<Andada>::empty("andada", &variant);
        endgame.solve(&classes(10), &Quiet);
        let mut rng = SplitMix(0x0DAC);
        let (mut decided, mut nodes) = ([0; 3], [0u64; 2]);
        for _ in 0..6000 {
            let g = random_2x3(&mut rng, rules);
            let truth = whole
                .value(&g)
                .expect("the database holds every 2 x 3 position");
            // Every draw (they are rare), and about as many wins and losses.
            let i = (truth + 1) as usize;
            if truth != 0 && decided[i] >= decided[1] + 5 {
                continue;
            }
            agrees_with(&g, truth, 4, Some(&endgame));
            decided[i] += 1;
            for (i, oracle) in [None, Some(&endgame as &dyn Oracle<Andada>)]
                .into_iter()
                .enumerate()
            {
                let table = ProofTable::with_mb(4);
                let search = ProofSearch::new(&table, g.to_move(), Limits::default());
                nodes[i] += search.with_oracle(oracle).run(&g).nodes;
            }
        }
        assert!(decided[1] >= 10, "losses, draws, wins {decided:?}");
        assert!(
            nodes[1] < nodes[0],
            "nodes without, with the oracle {nodes:?}"
        );
    });
}

/// A table that claims everything: every position reachable from `g` (up to `cap` of
/// them) both proven and disproven. `None` when there are more.
fn lying_table<G: Game>(g: &G, cap: usize) -> Option<ProofTable> {
    let table = ProofTable::with_mb(16);
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![*g];
    let mut moves = Moves::new();
    while let Some(p) = todo.pop() {
        if !seen.insert(p.mover_key()) {
            continue;
        }
        if seen.len() > cap {
            return None;
        }
        table.put(p.mover_key(), 0, 0, 1 << 20);
        p.legal_moves(&mut moves);
        todo.extend(moves.iter().map(|&m| p.play(m)));
    }
    Some(table)
}

/// Random Andada 2 x 3 positions that minimax solves, with its value for the player to
/// move.
fn solved_andada(seed: u64, count: usize) -> impl Iterator<Item = (Andada, i32)> {
    let mut rng = SplitMix(seed);
    (0..count).filter_map(move |_| {
        let plies = 2 + rng.below(12);
        let g = *random_line(Andada::start(3, Rules::default()), &mut rng, plies)
            .last()
            .unwrap();
        Some((g, minimax(&g, 20_000)?))
    })
}

/// Runs both questions' checks of `g` against `table`, without repairs (the table alone
/// must not pass a check), and counts the proofs and disproofs accepted: each only where
/// minimax's `truth` (for the player to move) agrees.
fn checks_follow_minimax<G: Game>(g: &G, truth: i32, table: &ProofTable, tally: &mut Accepted) {
    for (attacker, wins) in [
        (g.to_move(), truth > 0),
        (g.to_move().opponent(), truth < 0),
    ] {
        let what = format!("{g:?}, attacker {attacker:?}, minimax {truth}");
        let quiet = &mut |_: &Checked| {};
        tally.asked[usize::from(!wins)] += 1;
        if check_proof(g, attacker, table, None, None, quiet, None).is_ok() {
            assert!(wins, "proof accepted: {what}");
            tally.accepted[0] += 1;
        }
        if check_disproof(g, attacker, table, None, None, quiet, None).is_ok() {
            assert!(!wins, "disproof accepted: {what}");
            tally.accepted[1] += 1;
        }
    }
}

/// Proofs and disproofs: how many questions minimax answers each way, and how many
/// certificates the checks accepted.
#[derive(Debug, Default)]
struct Accepted {
    asked: [u32; 2],
    accepted: [u32; 2],
}

/// The certificate checks do not take the table's word: with a table that claims every
/// position both won and not won (so that it only decides which move a check follows), a
/// proof is accepted only where minimax says the attacker wins, and a disproof only where
/// he does not. And every one of those is accepted: where the move the table suggests
/// does not win (or the escape does not keep the attacker out), the check goes back and
/// tries another, so a table that only guides still leads to the certificate. (Without
/// going back, the checks of 2026-11-30 accepted 163 of the 199 proofs and 163 of the
/// 199 disproofs.)
#[test]
fn certificates_hold_only_where_minimax_agrees() {
    on_search_stack(|| {
        let mut tally = Accepted::default();
        for (g, truth) in solved_andada(0xCE27, 400) {
            if let Some(table) = lying_table(&g, 50_000) {
                checks_follow_minimax(&g, truth, &table, &mut tally);
            }
        }
        assert!(tally.asked.iter().all(|&n| n > 100), "{tally:?}");
        assert_eq!(tally.accepted, tally.asked);
    });
}

/// Andada whose keys tell only 16 classes of positions apart: the table's keys, and
/// therefore a check that told positions apart by them alone, take most positions for
/// others. Everything else is Andada's.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
struct Coarse(Andada);

/// Methods that take nothing and return Andada's answer.
macro_rules! forward {
    ($($name:ident -> $t:ty),* $(,)?) => {
        $(fn $name(&self) -> $t {
            self.0.$name()
        })*
    };
}

impl Game for Coarse {
    type Move = <Andada as Game>::Move;
    forward!(
        to_move -> Player,
        is_terminal -> bool,
        terminal_value -> i32,
        banked -> i32,
        swing -> i32,
        value_range -> (i32, i32),
        can_repeat -> bool,
        repetition_value -> i32,
        win_loss -> bool,
        material -> u32,
        history_dependent -> bool,
    );
    fn legal_moves(&self, moves: &mut Moves<Self::Move>) {
        self.0.legal_moves(moves)
    }
    fn play(&self, mv: Self::Move) -> Self {
        Coarse(self.0.play(mv))
    }
    fn key(&self) -> u64 {
        (self.0.key() & 0xF) << 20
    }
    fn captured(&self, player: Player) -> u32 {
        self.0.captured(player)
    }
    fn points(&self, value: i32) -> f64 {
        self.0.points(value)
    }
}

/// The checks tell positions apart by more than the table's key: with keys that merge
/// nearly every position (so a lying table's claims land everywhere) they still accept
/// only what minimax says. Told apart by the key alone, a disproof check takes a
/// position whose key is already in its set for a member of the set and passes.
#[test]
fn certificates_hold_where_table_keys_collide() {
    on_search_stack(|| {
        // Every key a Coarse position can have, claimed both won and not won.
        let lies = ProofTable::with_mb(1);
        for k in 0..16u64 {
            for p in [Player::First, Player::Second] {
                lies.put(mover_key(k << 20, p), 0, 0, 1 << 20);
            }
        }
        let mut tally = Accepted::default();
        for (g, truth) in solved_andada(0xC0A5, 300) {
            checks_follow_minimax(&Coarse(g), truth, &lies, &mut tally);
        }
        assert!(tally.accepted.iter().all(|&n| n > 10), "{tally:?}");
    });
}

#[test]
fn giveaway_afrika_agrees_with_minimax() {
    on_search_stack(|| {
        check("afrika giveaway", 300, 20_000, |rng| {
            let m = 1 + rng.below(3);
            let mut holes = vec![0u8; 2 * m];
            for _ in 0..1 + rng.below(2 * m + 3) {
                holes[rng.below(2 * m)] += 1;
            }
            let to_move = [Player::First, Player::Second][rng.below(2)];
            let rules = AfrikaRules {
                ending: Ending::GiveAway,
                repetition: Repetition::Shared,
                komi_half: 0,
            };
            let stores = [rng.below(4) as u8, rng.below(4) as u8];
            Afrika::from_parts(&holes, stores, to_move, rules).unwrap()
        });
    });
}

/// Andada 2 x 3 (README and docs/solutions.md row 18: the opener loses): "does the second
/// player win?" is proven and "does the first?" disproven, and both certificates hold;
/// with the stop flag raised both checks end with `Stopped`, never a gap or a verdict.
#[test]
fn andada_2x3_is_won_by_the_second_player_and_a_stop_flag_stops_its_checks() {
    use std::sync::atomic::{AtomicBool, Ordering};
    static STOP: AtomicBool = AtomicBool::new(false);
    on_search_stack(|| {
        let start = Andada::start(3, Rules::default());
        for (attacker, verdict) in [
            (Player::Second, Verdict::Proven),
            (Player::First, Verdict::Disproven),
        ] {
            let table = ProofTable::with_mb(16);
            let out = ProofSearch::new(&table, attacker, Limits::default()).run(&start);
            assert_eq!(out.verdict, verdict);
            let check = |stop: &'static AtomicBool| {
                let mut side = ProofTable::with_mb(1);
                let (report, stop) = (&mut |_: &Checked| {}, Some(stop));
                let (root, side) = (&start, repair(&mut side));
                match verdict {
                    Verdict::Proven => {
                        check_proof(root, attacker, &table, None, side, report, stop)
                            .map(|p| p.checked)
                    }
                    _ => check_disproof(root, attacker, &table, None, side, report, stop),
                }
            };
            STOP.store(true, Ordering::Relaxed);
            assert_eq!(check(&STOP), Err(CheckError::Stopped), "{attacker:?}");
            STOP.store(false, Ordering::Relaxed);
            assert!(check(&STOP).unwrap().positions > 1, "{attacker:?}");
        }
    });
}

/// A disproof that rests on a repetition above its position is counted, not stored: on
/// the draws among random 2 x 3 positions (9 to 12 seeds) some are met, and in Kalah,
/// whose positions never repeat, none.
#[test]
fn disproofs_resting_on_the_path_are_counted() {
    on_search_stack(|| {
        let mut rng = SplitMix(0x9A7D);
        let mut met = 0;
        for _ in 0..300 {
            let g = random_2x3(&mut rng, Rules::default());
            let table = ProofTable::with_mb(1);
            met += ProofSearch::new(&table, g.to_move(), Limits::default())
                .run(&g)
                .path_disproofs;
        }
        assert!(met > 0, "no disproof rested on the path");
        let kalah = mancala_core::kalah::Kalah::start(4, 3, Default::default());
        let table = ProofTable::with_mb(4);
        let out = ProofSearch::new(&table, kalah.to_move(), Limits::default()).run(&kalah);
        assert_ne!(out.verdict, Verdict::Open);
        assert_eq!(out.path_disproofs, 0);
    });
}

/// A check reports as it goes: on a certificate of thousands of positions (Give-away
/// 2 x 8 x 3: South wins, 13,377 positions; North does not, 11,885, by `mancala prove
/// afrika:8x3 --rules giveaway`) it reports more than once, the counts never fall and
/// never pass the end's.
#[test]
fn the_checks_report_their_progress() {
    on_search_stack(|| {
        let rules = AfrikaRules {
            ending: Ending::GiveAway,
            repetition: Repetition::Shared,
            komi_half: 0,
        };
        let start = Afrika::start(8, 3, rules);
        for (attacker, verdict) in [
            (Player::Second, Verdict::Proven),
            (Player::First, Verdict::Disproven),
        ] {
            let table = ProofTable::with_mb(64);
            let mut side = ProofTable::with_mb(1);
            let out = ProofSearch::new(&table, attacker, Limits::default()).run(&start);
            assert_eq!(out.verdict, verdict);
            let mut seen: Vec<Checked> = Vec::new();
            let mut report = |c: &Checked| seen.push(*c);
            let (table, repair) = (&table, repair(&mut side));
            let end = match verdict {
                Verdict::Proven => {
                    check_proof(&start, attacker, table, None, repair, &mut report, None)
                        .map(|p| p.checked)
                }
                _ => check_disproof(&start, attacker, table, None, repair, &mut report, None),
            }
            .unwrap();
            assert!(
                seen.len() >= 2,
                "{attacker:?}: {} reports, {end:?}",
                seen.len()
            );
            assert!(seen.windows(2).all(|w| w[0].positions <= w[1].positions));
            assert!(seen.iter().all(|c| c.positions <= end.positions));
            assert!(seen.iter().all(|c| c.repairs <= end.repairs));
        }
    });
}

/// A search with a base table reads it (and cannot write it: it holds a `&ProofTable`):
/// on top of a table that settled the root it answers at once; on top of a table that
/// searched half the work it answers as a search alone does, in fewer nodes.
#[test]
fn a_search_reads_its_base_table() {
    on_search_stack(|| {
        let kalah = mancala_core::kalah::Kalah::start(4, 3, Default::default());
        let attacker = kalah.to_move();
        let search =
            |table: &mut ProofTable, limits, g| ProofSearch::new(table, attacker, limits).run(g);
        let on_top_of = |base: &ProofTable, g| {
            ProofSearch::new(&ProofTable::with_mb(4), attacker, Limits::default())
                .with_base(base)
                .run(g)
        };
        let mut base = ProofTable::with_mb(4);
        let alone = search(&mut base, Limits::default(), &kalah);
        assert_ne!(alone.verdict, Verdict::Open);
        let out = on_top_of(&base, &kalah);
        assert_eq!(out.verdict, alone.verdict);
        assert_eq!(out.nodes, 0, "the base's root entry is settled");
        // The same question after the opening, on top of a base that searched half as
        // many nodes as the question takes alone.
        let mut child = None;
        kalah.for_each_child(|_, c| {
            child.get_or_insert(c);
        });
        let child = child.expect("the start has moves");
        let fresh = search(&mut ProofTable::with_mb(4), Limits::default(), &child);
        let mut partial = ProofTable::with_mb(4);
        let half = Limits {
            nodes: Some(fresh.nodes / 2),
            ..Limits::default()
        };
        assert_eq!(search(&mut partial, half, &child).verdict, Verdict::Open);
        let on_top = on_top_of(&partial, &child);
        assert_eq!(on_top.verdict, fresh.verdict);
        let (fewer, alone) = (on_top.nodes, fresh.nodes);
        assert!(fewer < alone, "{fewer} >= {alone}");
    });
}
