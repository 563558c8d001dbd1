//! The certificate checks on tiny explicit game graphs (cycles, repetition values of
//! either sign, table keys that collide on purpose) against the truth by brute force,
//! with tables whose claims are random or claim everything: no check accepts a wrong
//! answer, and with a table that only orders the moves every true answer is accepted.
//! The graphs come from a review of the checks' going back (2026-11-30). A bounded
//! number of cases by default; `MANCALA_FUZZ_CASES=1000000 cargo test --release -p
//! mancala-solver --test certificate_graphs` runs more.

mod common;

use std::sync::RwLock;

use mancala_core::game::SplitMix;
use mancala_core::{Game, Moves, Player};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use mancala_solver::proof::{
    CheckError, CheckInputs, DisproofCheck, ProofCheck, ProofTable, Step, StretchedCheck,
    check_disproof, check_proof, proof_key,
};

/// One node: who moves, where each move leads, and the final value for the mover (when
/// there are no moves), the repetition value for the mover.
#[derive(Clone, Debug)]
struct Node {
    mover: Player,
    kids: Vec<u16>,
    value: i32,
    rep: i32,
}

#[derive(Clone, Debug)]
struct Graph {
    nodes: Vec<Node>,
    /// Table keys: node % key_mod (collisions on purpose when small).
    key_mod: u16,
}

static GRAPHS: RwLock<Vec<&'static Graph>> = RwLock::new(Vec::new());

fn register(g: Graph) -> u32 {
    let mut all = GRAPHS.write().unwrap();
    all.push(Box::leak(Box::new(g)));
    (all.len() - 1) as u32
}

fn graph(id: u32) -> &'static Graph {
    GRAPHS.read().unwrap()[id as usize]
}

#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
struct Pos {
    gid: u32,
    node: u16,
}

impl Pos {
    fn n(&self) -> &'static Node {
        &graph(self.gid).nodes[self.node as usize]
    }
}

impl Game for Pos {
    type Move = u8;
    fn to_move(&self) -> Player {
        self.n().mover
    }
    fn legal_moves(&self, moves: &mut Moves<u8>) {
        moves.clear();
        for i in 0..self.n().kids.len() {
            moves.push(i as u8);
        }
    }
    fn play(&self, mv: u8) -> Self {
        Pos {
            gid: self.gid,
            node: self.n().kids[mv as usize],
        }
    }
    fn is_terminal(&self) -> bool {
        self.n().kids.is_empty()
    }
    fn terminal_value(&self) -> i32 {
        self.n().value
    }
    fn banked(&self) -> i32 {
        0
    }
    fn swing(&self) -> i32 {
        1
    }
    fn key(&self) -> u64 {
        let k = (self.node % graph(self.gid).key_mod) as u64;
        (k + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (self.gid as u64) << 40
    }
    fn can_repeat(&self) -> bool {
        true
    }
    fn repetition_value(&self) -> i32 {
        self.n().rep
    }
    fn captured(&self, _: Player) -> u32 {
        0
    }
    fn points(&self, v: i32) -> f64 {
        v as f64
    }
    fn win_loss(&self) -> bool {
        true
    }
    fn material(&self) -> u32 {
        1
    }
    fn history_dependent(&self) -> bool {
        true
    }
}

const A: Player = Player::First;
const D: Player = Player::Second;

fn node(mover: Player, kids: &[u16]) -> Node {
    Node {
        mover,
        kids: kids.to_vec(),
        value: 0,
        rep: 0,
    }
}

fn leaf(mover: Player, value: i32) -> Node {
    Node {
        mover,
        kids: vec![],
        value,
        rep: 0,
    }
}

/// Claims every key of the graph both proven and disproven.
fn lying(gid: u32) -> ProofTable {
    let t = ProofTable::with_mb(4);
    for i in 0..graph(gid).nodes.len() {
        let p = Pos {
            gid,
            node: i as u16,
        };
        t.put(proof_key(&p), 0, 0, 1 << 20);
    }
    t
}

/// How many random graphs each test draws (`MANCALA_FUZZ_CASES`, default 10,000).
fn cases() -> usize {
    std::env::var("MANCALA_FUZZ_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000)
}

/// Value for the attacker (true: reaches goal 1) under "the game ends when a position
/// recurs, with that position's repetition value for its mover".
fn truth(g: &Graph, at: u16, path: &mut Vec<u16>) -> bool {
    let n = &g.nodes[at as usize];
    let att = |mover: Player, v: i32| if mover == A { v } else { -v };
    if path.contains(&at) {
        return att(n.mover, n.rep) >= 1;
    }
    if n.kids.is_empty() {
        return att(n.mover, n.value) >= 1;
    }
    path.push(at);
    let r = if n.mover == A {
        n.kids.iter().any(|&k| truth(g, k, path))
    } else {
        n.kids.iter().all(|&k| truth(g, k, path))
    };
    path.pop();
    r
}

fn random_graph(rng: &mut SplitMix) -> Graph {
    let size = 2 + rng.below(9);
    let mut nodes = Vec::new();
    for _ in 0..size {
        let mover = if rng.below(2) == 0 { A } else { D };
        let kids = if rng.below(4) == 0 {
            vec![]
        } else {
            (0..1 + rng.below(3))
                .map(|_| rng.below(size) as u16)
                .collect()
        };
        let value = rng.below(3) as i32 - 1;
        let rep = if rng.below(3) == 0 {
            rng.below(3) as i32 - 1
        } else {
            0
        };
        nodes.push(Node {
            mover,
            kids,
            value,
            rep,
        });
    }
    let key_mod = if rng.below(2) == 0 {
        u16::MAX
    } else {
        1 + rng.below(3) as u16
    };
    Graph { nodes, key_mod }
}

/// A random graph, registered, and whether the attacker wins from its node 0.
fn drawn_graph(rng: &mut SplitMix) -> (u32, bool) {
    let g = random_graph(rng);
    let wins = truth(&g, 0, &mut Vec::new());
    (register(g), wins)
}

/// A table with random claims for the keys of graph `gid`'s positions: both proven and
/// disproven, proven, disproven, (with `kinds` 5 or more) unsettled numbers, or none.
fn random_claims(gid: u32, rng: &mut SplitMix, kinds: usize) -> ProofTable {
    let table = ProofTable::with_mb(1);
    for i in 0..graph(gid).nodes.len() {
        let p = Pos {
            gid,
            node: i as u16,
        };
        let (pn, dn) = match (rng.below(kinds), kinds) {
            (0, _) => (0, 0),
            (1, _) => (0, 1 << 30),
            (2, _) => (1 << 30, 0),
            (3, 5) => (3, 5),
            _ => continue,
        };
        table.put(proof_key(&p), pn, dn, 1 << 10);
    }
    table
}

#[test]
fn random_graphs_and_random_claims_never_pass_a_wrong_certificate() {
    let mut rng = SplitMix(0x5EED);
    let (mut proofs, mut disproofs, mut drawn, mut split) = (0, 0, 0, 0);
    for _ in 0..cases() {
        let (gid, wins) = drawn_graph(&mut rng);
        let table = random_claims(gid, &mut rng, 5);
        let root = Pos { gid, node: 0 };
        drawn += 1;
        if let Ok(p) = check_proof(&root, A, &table, None, None, &mut |_| {}, None) {
            assert!(wins, "proof accepted: {:?}", graph(gid));
            proofs += 1;
            if let Some(m) = p.first_move {
                let c = root.play(m);
                assert!(
                    truth(graph(gid), c.node, &mut vec![0]),
                    "first move {m} does not win: {:?}",
                    graph(gid)
                );
            }
        }
        if check_disproof(&root, A, &table, None, None, &mut |_| {}, None).is_ok() {
            assert!(!wins, "disproof accepted: {:?}", graph(gid));
            disproofs += 1;
        }
        let plies = 1 + rng.below(3) as u32;
        if split_disproof(&root, &table, None, plies).is_ok() {
            assert!(!wins, "split {plies}: disproof accepted: {:?}", graph(gid));
            split += 1;
        }
    }
    assert!(split * 20 > drawn, "{drawn}: {split}");
    // Both kinds are accepted often, so the assertions above are exercised.
    assert!(
        proofs * 20 > drawn && disproofs * 20 > drawn,
        "{drawn}: {proofs}, {disproofs}"
    );
}

/// Completeness with a table that claims everything (so that it only orders the moves):
/// where a repetition is a draw everywhere, every true answer is accepted.
#[test]
fn a_table_that_claims_everything_leads_to_every_true_certificate() {
    let mut rng = SplitMix(0xC0DE);
    for _ in 0..cases() {
        let mut g = random_graph(&mut rng);
        for n in &mut g.nodes {
            n.rep = 0;
        }
        g.key_mod = u16::MAX;
        let wins = truth(&g, 0, &mut Vec::new());
        let gid = register(g);
        let table = lying(gid);
        let root = Pos { gid, node: 0 };
        let p = check_proof(&root, A, &table, None, None, &mut |_| {}, None);
        let d = check_disproof(&root, A, &table, None, None, &mut |_| {}, None);
        assert_eq!(p.is_ok(), wins, "{p:?} {:?}", graph(gid));
        assert_eq!(d.is_ok(), !wins, "{d:?} {:?}", graph(gid));
        for plies in 1..=3 {
            let d = split_disproof(&root, &table, None, plies);
            assert_eq!(d.is_ok(), !wins, "split {plies}: {d:?} {:?}", graph(gid));
        }
        // Its parts on three threads at once.
        let mut helpers = [ProofTable::with_mb(0), ProofTable::with_mb(0)];
        let d = split_disproof_on(&root, &table, None, 1, &mut helpers);
        assert_eq!(
            d.is_ok(),
            !wins,
            "split 1 on 3 threads: {d:?} {:?}",
            graph(gid)
        );
    }
}

/// k defenders in a row, each with a first move to the attacker's immediate win (which
/// the lying table calls disproven) and a second to the next; the last can only draw.
/// The attacker cannot win. A final position he wins is never taken for an escape, so
/// no rebuild is needed (before, each cost one, and past 64 the true disproof failed).
#[test]
fn an_escape_is_never_a_final_win_for_the_attacker() {
    for k in [1u16, 64, 70] {
        let mut nodes = Vec::new();
        for i in 0..k {
            nodes.push(node(D, &[2 * i + 1, 2 * i + 2])); // D_i = 2i
            nodes.push(leaf(A, 1)); // W_i = 2i+1: the attacker has won
        }
        nodes.push(node(D, &[2 * k + 1])); // D_k
        nodes.push(leaf(A, 0)); // a draw
        let g = Graph {
            nodes,
            key_mod: u16::MAX,
        };
        assert!(!truth(&g, 0, &mut Vec::new()));
        let gid = register(g);
        let table = lying(gid);
        let root = Pos { gid, node: 0 };
        let out = check_disproof(&root, A, &table, None, None, &mut |_| {}, None);
        assert_eq!(out.map(|c| c.retries), Ok(0), "k {k}");
    }
}

#[test]
fn random_graphs_with_repairs_never_pass_a_wrong_certificate() {
    use mancala_solver::proof::Repair;
    let mut rng = SplitMix(0xBEEF);
    let (mut proofs, mut disproofs, mut split, mut threads) = (0, 0, 0, 0);
    for _ in 0..cases() / 2 {
        let (gid, wins) = drawn_graph(&mut rng);
        let table = random_claims(gid, &mut rng, 6);
        let root = Pos { gid, node: 0 };
        let mut side = ProofTable::with_mb(1);
        let repair = Some(Repair {
            nodes: 300,
            table: &mut side,
        });
        if check_proof(&root, A, &table, None, repair, &mut |_| {}, None).is_ok() {
            assert!(wins, "proof accepted: {:?}", graph(gid));
            proofs += 1;
        }
        let mut side = ProofTable::with_mb(1);
        let repair = Some(Repair {
            nodes: 300,
            table: &mut side,
        });
        let whole = check_disproof(&root, A, &table, None, repair, &mut |_| {}, None);
        if whole.is_ok() {
            assert!(!wins, "disproof accepted: {:?}", graph(gid));
            disproofs += 1;
        }
        // In parts, with the same repairs. The answers may differ where the defender
        // holds: a set built in another order may meet a member where the whole set met
        // a position still waiting (and a repair that cannot keep a disproof resting on
        // a repetition found no escape).
        let plies = 1 + rng.below(3) as u32;
        let mut side = ProofTable::with_mb(1);
        if split_disproof(&root, &table, Some(&mut side), plies).is_ok() {
            assert!(!wins, "split {plies}: disproof accepted: {:?}", graph(gid));
            split += 1;
        }
        // The same on two threads, each with repairs of its own.
        let mut side = ProofTable::with_mb(1);
        let mut helper = [ProofTable::with_mb(1)];
        if split_disproof_on(&root, &table, Some(&mut side), plies, &mut helper).is_ok() {
            assert!(
                !wins,
                "split {plies} on 2 threads: disproof accepted: {:?}",
                graph(gid)
            );
            threads += 1;
        }
    }
    assert!(
        proofs > 0 && disproofs > 0 && split > 0 && threads > 0,
        "{proofs}, {disproofs}, {split}, {threads}"
    );
}

/// The disproof check of `root` with `table` (and repairs into `side`), its set in parts
/// below `plies`, run at once.
fn split_disproof(
    root: &Pos,
    table: &ProofTable,
    side: Option<&mut ProofTable>,
    plies: u32,
) -> Result<mancala_solver::proof::Checked, CheckError> {
    split_disproof_on(root, table, side, plies, &mut [])
}

/// [`split_disproof`] with its parts built on `1 + helpers.len()` threads at once, each
/// helper repairing into its own table.
fn split_disproof_on(
    root: &Pos,
    table: &ProofTable,
    side: Option<&mut ProofTable>,
    plies: u32,
    helpers: &mut [ProofTable],
) -> Result<mancala_solver::proof::Checked, CheckError> {
    let inputs = CheckInputs {
        goal: A.into(),
        table,
        oracle: None,
        repair: side.and_then(repair),
        report: &mut |_| {},
        stop: None,
        split: Some(plies),
        helpers: helpers.iter_mut().filter_map(repair).collect(),
    };
    at_once::<DisproofCheck<Pos>>(root, inputs)
}

/// Repairs of up to 300 nodes into `side`.
fn repair(side: &mut ProofTable) -> Option<mancala_solver::proof::Repair<'_>> {
    Some(mancala_solver::proof::Repair {
        nodes: 300,
        table: side,
    })
}

/// A check of kind `C` run at once.
fn at_once<'a, 't, 'r, C: StretchedCheck<'a, 't, 'r, Pos>>(
    root: &Pos,
    inputs: CheckInputs<'a, 't, 'r, Pos>,
) -> Result<C::Found, CheckError> {
    match C::new(root, inputs).run(None) {
        Step::Done(found) => found,
        Step::Paused => unreachable!("a check without a pause runs to its end"),
    }
}

/// Runs a check of kind `$kind` (reporting to `$report`, stopped by `$stop`, a disproof's
/// set in parts below `$split`) of the graph position `$root` with `$table` twice, each
/// with repairs: at once, and in stretches, each run with `$pause` and, where it did not
/// end the check, written to `$path` and read back into a new check (the repairs' table
/// with it), the stop flag lowered after a stop. Gives both results and the number of
/// saves.
macro_rules! compared {
    ($kind:ident, $split:ident, $root:expr, $table:expr, $path:expr, $pause:expr, $stop:expr, $report:ident) => {{
        let mut side = ProofTable::with_mb(0);
        let inputs = CheckInputs {
            goal: A.into(),
            table: &$table,
            oracle: None,
            repair: repair(&mut side),
            report: &mut |_| {},
            stop: None,
            split: $split,
            helpers: Vec::new(),
        };
        let once = at_once::<$kind<Pos>>(&$root, inputs);
        let mut side = ProofTable::with_mb(0);
        let mut state = None;
        let mut saves = 0u32;
        let found = loop {
            let inputs = CheckInputs {
                goal: A.into(),
                table: &$table,
                oracle: None,
                repair: repair(&mut side),
                report: &mut $report,
                stop: $stop,
                split: $split,
                helpers: Vec::new(),
            };
            let check = $kind::new(&$root, inputs);
            let mut check = match state.take() {
                None => check,
                Some(saved) => check.resumed(saved),
            }
            .pause_every(1);
            match check.run($pause) {
                Step::Done(Err(CheckError::Stopped)) => {
                    $stop.unwrap().store(false, Ordering::SeqCst)
                }
                Step::Done(found) => break found,
                Step::Paused => {}
            }
            check.save($path, "q").unwrap();
            saves += 1;
            let live = check.checked();
            drop(check);
            let saved = <$kind<Pos> as StretchedCheck<Pos>>::load($path, "q", &$root).unwrap();
            // The tally read back is the one saved.
            assert_eq!(saved.checked, live, "{}", stringify!($kind));
            side = saved.repair_table.unwrap();
            state = Some(saved.state);
        };
        (found, once, saves)
    }};
}

/// Both checks paused after every position, written to a file and read back into a new
/// check each time (the repairs' table with it), end as the same checks run at once: the
/// same answer (the first move of a proof too), the same gap where one fails, the same
/// tally, a disproof's rebuilds and a proof's going back included.
#[test]
fn checks_saved_and_resumed_after_every_position_end_as_one_run() {
    // Removed when dropped, at the end of the test, pass or fail.
    let path = common::temp_path("check-graphs", "check");
    let mut rng = SplitMix(0x5AFE);
    let no_stop: Option<&'static AtomicBool> = None;
    // For the whole disproof check, the split one, the proof check, and the proof check
    // with a table that claims everything (so that it goes back often): saves, going
    // back, failures, checks that hold.
    let mut seen = [[0u64; 4]; 4];
    let mut count = |kind: usize, n, once: Result<u64, CheckError>| {
        let seen = &mut seen[kind];
        seen[0] += u64::from(n);
        seen[1] += once.unwrap_or(0);
        seen[2] += once.is_err() as u64;
        seen[3] += once.is_ok() as u64;
    };
    for _ in 0..(cases() / 50).max(20) {
        let (gid, _) = drawn_graph(&mut rng);
        let table = random_claims(gid, &mut rng, 6);
        let root = Pos { gid, node: 0 };
        let mut report = |_: &_| {};
        let pause = Some(Instant::now());
        // Each kind of check in stretches against the same check run at once.
        macro_rules! same {
            ($kind:ident, $split:ident, $table:ident, $at:expr, $retries:expr) => {{
                let (found, once, n) =
                    compared!($kind, $split, root, $table, &path, pause, no_stop, report);
                assert_eq!(
                    found,
                    once,
                    "{} {:?}: {:?}",
                    stringify!($kind),
                    $split,
                    graph(gid)
                );
                count($at, n, once.map($retries));
            }};
        }
        let whole: Option<u32> = None;
        same!(DisproofCheck, whole, table, 0, |c| c.retries);
        let parts = Some(1 + rng.below(3) as u32);
        same!(DisproofCheck, parts, table, 1, |c| c.retries);
        same!(ProofCheck, whole, table, 2, |p| p.checked.retries);
        let claims_all = lying(gid);
        same!(ProofCheck, whole, claims_all, 3, |p| p.checked.retries);
    }
    // For each kind the saves, the going back, the failures and the checks that hold
    // all happen, so each is compared.
    for (kind, [saves, retried, failed, held]) in seen.into_iter().enumerate() {
        // Random claims seldom send a proof check back on a check that then holds; the
        // claims of everything do.
        let went_back = retried > 0 || kind == 2;
        assert!(
            saves > 100 && went_back && failed > 0 && held > 0,
            "kind {kind}: {saves} {retried} {failed} {held}"
        );
    }
}

static STOP_AFTER_REPAIRS: AtomicBool = AtomicBool::new(false);

/// The stop flag raised after every repair (up to 30 times for each check), so that a
/// search for a move (a proof's) or an escape (a disproof's) that finds none ends the
/// stretch instead of failing it; each stretch saved and read back. Each check gives the
/// same answer as one run, and never a wrong one.
#[test]
fn checks_stopped_after_every_repair_answer_as_one_run() {
    let stop = Some(&STOP_AFTER_REPAIRS);
    // Removed when dropped, at the end of the test, pass or fail.
    let path = common::temp_path("check-stops", "check");
    let mut rng = SplitMix(0x570B);
    let (mut stops, mut proofs, mut disproofs, mut in_parts, mut stops_in_parts) = (0, 0, 0, 0, 0);
    // At most 30 stops a check: a repair that settles nothing runs again after each.
    let raising = || {
        let mut left = 30;
        move |_: &_| {
            if left > 0 {
                left -= 1;
                STOP_AFTER_REPAIRS.store(true, Ordering::SeqCst);
            }
        }
    };
    // Each kind of check, stopped, against the same check run at once; `holds`: what the
    // attacker's winning makes of the check (a proof holds only if he wins).
    macro_rules! stopped {
        ($kind:ident, $split:ident, $root:expr, $table:expr, $holds:expr, $gid:expr) => {{
            let mut raise = raising();
            let (found, once, n) =
                compared!($kind, $split, $root, $table, &path, None, stop, raise);
            let what = format!("{} {found:?} {once:?} {:?}", stringify!($kind), graph($gid));
            assert_eq!(found.is_ok(), once.is_ok(), "{what}");
            assert!(found.is_err() || $holds, "accepted: {what}");
            stops += n;
            found.is_ok() as u32
        }};
    }
    for _ in 0..(cases() / 50).max(20) {
        let (gid, wins) = drawn_graph(&mut rng);
        let table = random_claims(gid, &mut rng, 6);
        let root = Pos { gid, node: 0 };
        let (whole, parts) = (None, Some(2));
        disproofs += stopped!(DisproofCheck, whole, root, table, !wins, gid);
        let before = stops;
        in_parts += stopped!(DisproofCheck, parts, root, table, !wins, gid);
        stops_in_parts += stops - before;
        proofs += stopped!(ProofCheck, whole, root, table, wins, gid);
    }
    assert!(
        stops > 100 && proofs > 0 && disproofs > 0 && in_parts > 0 && stops_in_parts > 30,
        "{stops} {proofs} {disproofs} {in_parts} {stops_in_parts}"
    );
}
