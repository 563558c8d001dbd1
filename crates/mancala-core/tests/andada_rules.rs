//! One test per rule sentence of seed 004 (and per documented decision), on tiny
//! hand-made positions.

use mancala_core::rows::Seated;
use std::collections::HashSet;

use mancala_core::andada::{Andada, AndadaMove, Direction, Endless, Phase, Rules, Sowing};
use mancala_core::diagram::Diagram;
use mancala_core::game::{Game, Moves, PositionText};
use mancala_core::player::Player;
use mancala_core::twin::Twin;

mod common;
use common::{legal, play};

fn pos(text: &str) -> Andada {
    common::pos(text)
}

const DRAW: Rules = Rules {
    direction: Direction::Counterclockwise,
    endless: Endless::Draw,
};
const CLOCKWISE: Rules = Rules {
    direction: Direction::Clockwise,
    endless: Endless::Illegal,
};

/// "Andada is based on two long rows of any multiple of three [...] Initially there are two
/// seeds in each hole".
#[test]
fn start_position() {
    for n in [3, 6, 9, 12, 15, 18, 21, 24] {
        let g = Andada::start(n, Rules::default());
        assert_eq!(g.holes(), vec![2u8; 2 * n].as_slice());
        assert_eq!(g.to_move(), Player::First);
        assert_eq!(Andada::row(Player::First).name(), "South");
        assert_eq!(g.phase(), Phase::Opening);
        assert_eq!(legal(&g).len(), n);
    }
    assert_eq!(
        Andada::start(3, Rules::default()).to_text(),
        "andada south:2,2,2 north:2,2,2 to-move:south phase:opening"
    );
}

#[test]
#[should_panic(expected = "multiple of 3")]
fn start_rejects_a_row_that_is_no_multiple_of_three() {
    Andada::start(4, Rules::default());
}

/// "On his first turn a player picks up the contents of any hole of his row and drops them
/// one by one in the next two holes, after which he takes up the next pair of seeds, and
/// proceeds in this way, until a 3,3,0 pattern results."
#[test]
fn opening_pattern_from_every_hole() {
    for rules in [Rules::default(), CLOCKWISE] {
        for n in [3, 6, 9] {
            let g = Andada::start(n, rules);
            assert_eq!(
                legal(&g),
                (0..n)
                    .map(|i| ((b'A' + i as u8) as char).to_string())
                    .collect::<Vec<_>>()
            );
            for i in 0..n {
                let a = g.play(AndadaMove::Open(i as u8));
                for h in 0..2 * n {
                    let want = if h % 3 == i % 3 { 0 } else { 3 };
                    assert_eq!(a.holes()[h], want, "n={n} opening {i} hole {h}");
                }
                // Openings three holes apart give the same board.
                if i >= 3 {
                    assert_eq!(a, g.play(AndadaMove::Open(i as u8 - 3)));
                }
                assert_eq!(a.on_board() as usize, 4 * n);
            }
        }
    }
    let a = play(&Andada::start(3, Rules::default()), "B");
    assert_eq!(
        a.to_text(),
        "andada south:3,0,3 north:3,0,3 to-move:north phase:pie"
    );
}

/// "[...] the second player would choose not to swap because the board position after the
/// first move is always symmetrical": each player's row reads the same from its owner's
/// side, so the second player can imitate.
#[test]
fn position_after_the_opening_is_symmetrical() {
    for rules in [Rules::default(), CLOCKWISE] {
        for n in [3, 6, 9, 12, 24] {
            let g = Andada::start(n, rules);
            for i in 0..n {
                let a = g.play(AndadaMove::Open(i as u8));
                let h = a.holes();
                assert_eq!(h[..n], h[n..], "n={n} opening {i}");
            }
        }
    }
}

/// "After the opening, the other player decides whether he or his opponent should play the
/// next move (the first regular move of the game)."
#[test]
fn pie_decision() {
    let a = play(&Andada::start(6, Rules::default()), "A");
    assert_eq!(a.phase(), Phase::Pie);
    assert_eq!(a.to_move(), Player::Second);
    assert_eq!(legal(&a), ["play", "pass"]);
    assert!(!a.is_terminal());
    let p = play(&a, "play");
    assert_eq!((p.phase(), p.to_move()), (Phase::Play, Player::Second));
    assert_eq!(p.holes(), a.holes());
    let q = play(&a, "pass");
    assert_eq!((q.phase(), q.to_move()), (Phase::Play, Player::First));
    assert_eq!(q.holes(), a.holes());
    // North may also open (a position, not the standard start); South then decides.
    let b = pos("andada south:2,2,2 north:2,2,2 to-move:north phase:opening");
    assert_eq!(legal(&b), ["a", "b", "c"]);
    let b = play(&b, "c");
    assert_eq!((b.phase(), b.to_move()), (Phase::Pie, Player::First));
}

/// "Seeds are now distributed one by one in the usual manner": one per hole from the next
/// hole on, and the start hole is not skipped.
#[test]
fn sowing_one_by_one_including_the_start_hole() {
    common::assert_plays::<Andada>(&[
        // Six seeds go round a 2x3 board: the last falls in the emptied start hole A, which
        // was empty, on South's side: the opposite hole c is cleared.
        (
            "andada south:6,0,0 north:0,0,0 to-move:south phase:play",
            "A",
            "andada south:1,1,1 north:1,1,0 to-move:north phase:play",
        ),
        // A short single lap into an empty hole of the opponent: no relay, no capture.
        (
            "andada south:0,0,2 north:0,0,2 to-move:south phase:play",
            "C",
            "andada south:0,0,0 north:1,1,2 to-move:north phase:play",
        ),
    ]);
}

/// "If the last seed falls in a non-empty hole, its contents are picked up and distributed
/// in another lap. The move ends when the last seed falls in an empty hole."
#[test]
fn relay_sowing() {
    let played = common::assert_plays::<Andada>(&[
        // A falls into B (non-empty): B's 2 seeds go to C and a; a was empty: the move ends
        // on North's side, with no capture.
        (
            "andada south:1,1,0 north:0,0,2 to-move:south phase:play",
            "A",
            "andada south:0,0,1 north:1,0,2 to-move:north phase:play",
        ),
        // Several laps, across both rows. B: C=1, a=2 (relay) -> b=1, c=2 (relay) -> A=1,
        // B=1. B was emptied at the start, so the move ends there, on South's side, and b
        // (opposite B) is removed.
        (
            "andada south:0,2,0 north:1,0,1 to-move:south phase:play",
            "B",
            "andada south:1,1,1 north:0,0,0 to-move:north phase:play",
        ),
    ]);
    assert_eq!(played[0].0.sowing(0).unwrap().0, Sowing::Ended(3));
}

/// "If the last seed falls in an empty hole on the player's own side, all seeds in the
/// opposite hole of the opponent are removed. The captured seeds are not counted at the
/// end [...]"
#[test]
fn capture_removes_the_opposite_hole_only_on_the_own_side() {
    let played = common::assert_plays::<Andada>(&[
        // South: A into B (empty, own side): b (opposite B) is removed.
        (
            "andada south:1,0,0 north:2,5,2 to-move:south phase:play",
            "A",
            "andada south:0,1,0 north:2,0,2 to-move:north phase:play",
        ),
        // North: a into b (empty, North's side): B (opposite b) is removed.
        (
            "andada south:2,3,2 north:1,0,0 to-move:north phase:play",
            "a",
            "andada south:2,0,2 north:0,1,0 to-move:south phase:play",
        ),
        // Ending in an empty hole of the opponent removes nothing.
        (
            "andada south:0,0,1 north:0,2,2 to-move:south phase:play",
            "C",
            "andada south:0,0,0 north:1,2,2 to-move:north phase:play",
        ),
    ]);
    let (g, a) = &played[0];
    assert_eq!(g.on_board() - a.on_board(), 5);
    assert_eq!(a.captured(Player::First) + a.captured(Player::Second), 0);
    // An empty opposite hole: nothing to remove.
    let g = pos("andada south:1,0,0 north:2,0,2 to-move:south phase:play");
    let a = play(&g, "A");
    assert_eq!(a.on_board(), g.on_board());
}

/// "When both players have only singletons left, seeds reaching the end of the row are
/// removed from the board, instead of moving across on to the opponent's side."
#[test]
fn bear_off_when_only_singletons_are_left() {
    let played = common::assert_plays::<Andada>(&[
        // South's C (its last hole) would cross to a: the seed is removed, no capture.
        (
            "andada south:0,1,1 north:1,0,1 to-move:south phase:play",
            "C",
            "andada south:0,1,0 north:1,0,1 to-move:north phase:play",
        ),
        // The same move while North still has a 2 crosses normally (a was empty: no
        // capture).
        (
            "andada south:0,1,1 north:0,0,2 to-move:south phase:play",
            "C",
            "andada south:0,1,0 north:1,0,2 to-move:north phase:play",
        ),
        // A relay stays inside the mover's row; its last seed removed ends the move.
        (
            "andada south:1,1,0 north:1,0,1 to-move:south phase:play",
            "A",
            "andada south:0,0,1 north:1,0,1 to-move:north phase:play",
        ),
        // A relay ending in an own empty hole still captures. A -> B (2) -> C, D: D was
        // empty and South's, so c (opposite D) is removed.
        (
            "andada south:1,1,0,0,0,0 north:1,1,1,1,1,1 to-move:south phase:play",
            "A",
            "andada south:0,0,1,1,0,0 north:1,1,0,1,1,1 to-move:north phase:play",
        ),
        // North bears off at its own end (its last hole, c).
        (
            "andada south:1,0,1 north:0,1,1 to-move:north phase:play",
            "c",
            "andada south:1,0,1 north:0,1,0 to-move:south phase:play",
        ),
    ]);
    let (bearing_off, crossing) = (&played[0].0, &played[1].0);
    assert!(bearing_off.bear_off());
    assert_eq!(bearing_off.sowing(2).unwrap().0, Sowing::BornOff);
    assert!(!crossing.bear_off());
}

/// Decision: the singleton test is made at the start of every move, so a relay that leaves
/// a 2 behind switches the bear-off off again.
#[test]
fn bear_off_is_checked_at_every_move() {
    let g = pos("andada south:1,1,1,0,0,0 north:0,1,0,1,0,1 to-move:south phase:play");
    assert!(g.bear_off());
    // A -> B (2) -> C=2, D=1: D was empty: capture the hole opposite D (c, empty).
    let a = play(&g, "A");
    assert_eq!(
        a.to_text(),
        "andada south:0,0,2,1,0,0 north:0,1,0,1,0,1 to-move:north phase:play"
    );
    assert!(!a.bear_off());
    // North's f now crosses to South's A instead of being removed.
    let b = play(&a, "f");
    assert_eq!(
        b.to_text(),
        "andada south:1,0,2,1,0,0 north:0,1,0,1,0,0 to-move:south phase:play"
    );
}

/// "The player who could move last is declared the winner. A draw is not possible."
#[test]
fn the_last_mover_wins() {
    let g = pos("andada south:0,0,0 north:1,0,0 to-move:south phase:play");
    common::assert_game_over(&g, -1);
    // South's last move leaves North without seeds: North cannot move and loses.
    let g = pos("andada south:0,1,0 north:2,0,0 to-move:south phase:play");
    let a = play(&g, "B");
    assert_eq!(
        a.to_text(),
        "andada south:0,0,1 north:0,0,0 to-move:north phase:play"
    );
    assert!(a.is_terminal());
    assert_eq!(a.terminal_value(), -1);
    assert_eq!((a.banked(), a.swing()), (0, 1));
    assert!(a.can_repeat());
    assert_eq!(a.repetition_value(), 0);
}

/// Independent check: a sowing is endless iff its pickup states repeat (a plain set).
fn endless_by_set(g: &Andada, h: usize) -> bool {
    let n = g.holes_per_row();
    let n2 = 2 * n;
    let cw = g.rules().direction == Direction::Clockwise;
    let mut b = g.holes().to_vec();
    let mut seen = HashSet::new();
    let mut from = h;
    loop {
        if !seen.insert((b.clone(), from)) {
            return true;
        }
        let s = b[from];
        b[from] = 0;
        let mut i = from;
        for _ in 0..s {
            i = if cw { (i + n2 - 1) % n2 } else { (i + 1) % n2 };
            b[i] += 1;
        }
        if b[i] == 1 {
            return false;
        }
        from = i;
    }
}

/// Decision: "The move ends when the last seed falls in an empty hole" - a sowing that
/// never does is not a legal move (default), or a legal move that draws (endless-draw).
#[test]
fn endless_sowing_on_2x3() {
    let text = "andada south:0,1,2 north:0,2,1 to-move:south phase:play";
    let g = pos(text);
    assert!(g.is_endless(2));
    assert!(endless_by_set(&g, 2));
    assert_eq!(g.sowing(2).unwrap().0, Sowing::Endless);
    assert!(!g.is_endless(1));
    assert_eq!(legal(&g), ["B"]);
    let e = g.why_illegal(AndadaMove::Sow(2)).unwrap();
    assert!(e.contains("never ends"), "{e}");
    // Under endless-draw it is legal and ends the game as a draw.
    let d = g.with_rules(DRAW);
    assert_eq!(legal(&d), ["B", "C"]);
    let a = play(&d, "C");
    assert_eq!(a.phase(), Phase::Drawn);
    common::assert_game_over(&a, 0);
    assert_eq!(
        a.to_text(),
        "andada south:0,1,2 north:0,2,1 to-move:north phase:drawn endless:draw"
    );
    assert_eq!(Andada::from_text(&a.to_text()).unwrap(), a);
    // A position whose every sowing is endless: South has seeds but no legal move, and
    // loses.
    let g = pos("andada south:3,5,0 north:1,2,1 to-move:south phase:play");
    assert!(g.is_endless(0) && g.is_endless(1));
    common::assert_game_over(&g, -1);
    assert_eq!(legal(&g.with_rules(DRAW)), ["A", "B"]);
}

/// The exact test agrees with a plain set of visited states on every sowing of every 2x3
/// board with up to 9 seeds, in both directions.
#[test]
fn endless_detection_is_exact_on_small_boards() {
    fn boards(i: usize, left: u8, b: &mut [u8; 6], out: &mut Vec<[u8; 6]>) {
        if i == 6 {
            out.push(*b);
            return;
        }
        for x in 0..=left {
            b[i] = x;
            boards(i + 1, left - x, b, out);
        }
        b[i] = 0;
    }
    let mut all = Vec::new();
    boards(0, 9, &mut [0; 6], &mut all);
    let mut endless = 0;
    for rules in [Rules::default(), CLOCKWISE] {
        for b in &all {
            if b.iter().all(|&x| x <= 1) {
                continue; // bear-off: no relay crosses the board
            }
            let g = Andada::from_parts(b, Player::First, Phase::Play, rules).unwrap();
            for (h, &seeds) in b.iter().enumerate() {
                if seeds > 0 {
                    let e = g.is_endless(h);
                    assert_eq!(e, endless_by_set(&g, h), "{} hole {h}", g.to_text());
                    endless += e as u32;
                }
            }
        }
    }
    assert!(endless > 0);
}

/// "The game can be also played by agreement in a clockwise direction": sowing runs to
/// decreasing indices, and seeds bear off at the mover's left end (A for South, a for
/// North).
#[test]
fn clockwise_play() {
    let played = common::assert_plays::<Andada>(&[
        // C: B, A; A was empty, South's side: the hole opposite A (c) is removed.
        (
            "andada south:0,0,2 north:0,0,1 to-move:south phase:play direction:clockwise",
            "C",
            "andada south:1,1,0 north:0,0,0 to-move:north phase:play direction:clockwise",
        ),
        // From A the seeds cross to North's c.
        (
            "andada south:2,0,0 north:0,0,0 to-move:south phase:play direction:clockwise",
            "A",
            "andada south:0,0,0 north:0,1,1 to-move:north phase:play direction:clockwise",
        ),
        // Bear-off: South's A would cross to c: removed.
        (
            "andada south:1,0,0 north:0,1,0 to-move:south phase:play direction:clockwise",
            "A",
            "andada south:0,0,0 north:0,1,0 to-move:north phase:play direction:clockwise",
        ),
        // North bears off at a.
        (
            "andada south:0,1,0 north:1,0,1 to-move:north phase:play direction:clockwise",
            "a",
            "andada south:0,1,0 north:0,0,1 to-move:south phase:play direction:clockwise",
        ),
    ]);
    // Counterclockwise, the same A as in the bear-off reaches B (empty, own side) and
    // removes b.
    let a = play(&played[2].0.with_rules(Rules::default()), "A");
    assert_eq!(
        a.to_text(),
        "andada south:0,1,0 north:0,0,0 to-move:north phase:play"
    );
    // The clockwise opening runs backwards but leaves the same pattern.
    let o = Andada::start(6, CLOCKWISE).play(AndadaMove::Open(4));
    assert_eq!(o.holes(), &[3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0, 3]);
}

/// Mirroring the board left-right turns counterclockwise play into clockwise play, move by
/// move (opening, relays, captures and bear-off alike).
#[test]
fn clockwise_is_the_mirror_image_of_counterclockwise() {
    fn mirror(h: usize, n: usize) -> usize {
        if h < n { n - 1 - h } else { 3 * n - 1 - h }
    }
    fn mirrored(g: &Andada, rules: Rules) -> Andada {
        let n = g.holes_per_row();
        let mut b = vec![0; 2 * n];
        for h in 0..2 * n {
            b[mirror(h, n)] = g.holes()[h];
        }
        Andada::from_parts(&b, g.to_move(), g.phase(), rules).unwrap()
    }
    let mut rng = mancala_core::game::SplitMix(4);
    let mut moves = Moves::new();
    for n in [3, 6, 9] {
        for _ in 0..100 {
            let mut g = Andada::start(n, DRAW);
            for _ in 0..200 {
                g.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len())];
                let mm = match mv {
                    AndadaMove::Open(h) => AndadaMove::Open(mirror(h as usize, n) as u8),
                    AndadaMove::Sow(h) => AndadaMove::Sow(mirror(h as usize, n) as u8),
                    other => other,
                };
                let cw = Rules {
                    direction: Direction::Clockwise,
                    ..DRAW
                };
                let next = g.play(mv);
                assert_eq!(mirrored(&g, cw).play(mm), mirrored(&next, cw));
                g = next;
            }
        }
    }
}

/// "the board position after the first move is always symmetrical", on every board and
/// after every opening: the pie decision's two choices leave twins. Their value is one
/// number v for the player to move, so the decider gets |v| and the opener -|v|: the
/// opener never wins (the seed's "ultra-weakly solved"), and the game is a draw exactly
/// when some opening leaves a drawn board.
#[test]
fn every_opening_leaves_twins_at_the_pie() {
    let mut ms = Moves::new();
    for n in (3..=24).step_by(3) {
        for rules in [Rules::default(), DRAW, CLOCKWISE] {
            let g = Andada::start(n, rules);
            g.legal_moves(&mut ms);
            assert_eq!(ms.len(), n);
            for &open in &ms {
                let pie = g.play(open);
                let (play, pass) = (pie.play(AndadaMove::Play), pie.play(AndadaMove::Pass));
                assert_eq!(play.twin(), pass, "2 x {n}, {open:?}");
            }
        }
    }
}

#[test]
fn values_keys_and_sizes() {
    assert_eq!(std::mem::size_of::<Andada>(), 49);
    let g = Andada::start(3, Rules::default());
    assert_eq!(g.captured(Player::First), 0);
    assert_ne!(g.key(), g.with_rules(DRAW).key());
    assert_ne!(g.key(), g.with_rules(CLOCKWISE).key());
    let a = g.play(AndadaMove::Open(0));
    assert_ne!(a.key(), a.play(AndadaMove::Play).key());
    // "the board position after the first move is always symmetrical": the two pie
    // decisions leave twins (the rows alike, the other player to move), which share one
    // key and are told apart only where repetitions are checked.
    let (play, pass) = (a.play(AndadaMove::Play), a.play(AndadaMove::Pass));
    assert_eq!(play.twin(), pass);
    assert_eq!(play.key(), pass.key());
    assert_ne!(play.recurrence_id(), pass.recurrence_id());
}

#[test]
fn diagram() {
    let l = common::assert_diagram(
        &pos("andada south:0,1,2 north:3,4,5 to-move:north phase:play"),
        "Andada 2x3",
        &[("c", 5), ("b", 4), ("a", 3)],
        "North to move",
    );
    assert!(!l.rows[0].left_to_right && l.rows[1].left_to_right);
    let t = l.to_text();
    assert!(t.contains("North to move"), "{t}");
    let o = Andada::start(3, CLOCKWISE).layout();
    assert!(o.status.contains("opening"));
    assert!(o.rows[0].left_to_right && !o.rows[1].left_to_right);
    let over = pos("andada south:0,0,0 north:1,0,0 to-move:south phase:play").layout();
    assert!(
        over.status.contains("North moved last and wins"),
        "{}",
        over.status
    );
    let b = pos("andada south:0,1,1 north:1,0,1 to-move:south phase:play").layout();
    assert!(b.notes.iter().any(|n| n.contains("singletons")));
}

/// The endless sowings of the rules document: no child under the default rules (the
/// mover has no legal move), a drawn child each under `endless-draw`, as `play` gives.
#[test]
fn children_leave_out_endless_sowings_unless_they_draw() {
    let blocked = pos("andada south:3,5,0 north:1,2,1 to-move:south phase:play");
    let mut seen = Vec::new();
    blocked.for_each_child(|mv, c| seen.push((mv, c)));
    assert!(seen.is_empty(), "{seen:?}");
    let drawn = pos("andada south:3,5,0 north:1,2,1 to-move:south phase:play endless:draw");
    drawn.for_each_child(|mv, c| seen.push((mv, c)));
    assert_eq!(seen.len(), 2);
    for (mv, c) in seen {
        assert_eq!(c, drawn.play(mv));
        assert_eq!(c.phase(), Phase::Drawn);
    }
}
