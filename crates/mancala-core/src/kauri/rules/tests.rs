use super::*;
use crate::game::{Notation, PositionText};
use crate::test_util::{assert_ends, assert_over, legal};

const N: Player = Player::First;
const S: Player = Player::Second;

fn pos(text: &str) -> Kauri {
    Kauri::from_text(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn mv(g: &Kauri, m: &str) -> Kauri {
    let mv = g.parse_move(m).unwrap();
    assert_eq!(g.why_illegal(mv), None, "{m} in {}", g.to_text());
    g.play(mv)
}

/// Plays the move named `m` in the position `before` and asserts the position after it;
/// returns that position.
fn assert_move(before: &str, m: &str, after: &str) -> Kauri {
    let n = mv(&pos(before), m);
    assert_eq!(n.to_text(), after, "{m} in {before}");
    n
}

/// [`assert_move`] for a capture, and the seeds it gains on balance (the mover's captures
/// less the opponent's), the move's ordering hint.
fn assert_capture(before: &str, m: &str, after: &str, gain: i32) {
    let g = pos(before);
    let hint = g.move_order_hint(g.parse_move(m).unwrap());
    assert_eq!(hint, gain, "{m} in {before}");
    assert_move(before, m, after);
}

/// Asserts that the tie-break phase has begun in `g` and the game goes on.
fn assert_tie_break_goes_on(g: &Kauri) {
    assert!(g.in_tie_break(), "{}", g.to_text());
    assert!(!g.is_terminal(), "{}", g.to_text());
}

#[test]
fn start_has_five_seeds_and_a_cowrie_in_every_hole_and_north_moves() {
    // "The game is played on a standard mancala board of 2 x 6 holes." "Initially there
    // are six counters in each hole: five "seeds" [...] and one "cowrie"."
    let g = Kauri::start(Rules::Current);
    assert_eq!(g.seeds(), &[5; 12]);
    assert_eq!(g.cowries(), &[1; 12]);
    assert_eq!((g.total(), g.total_cowries()), (60, 12));
    assert_eq!(g.to_move(), N);
    assert_eq!(Kauri::row(N), Row::North);
    assert_eq!(legal(&g), vec!["a", "b", "c", "d", "e", "f"]);
    // Each row named from its owner's left: A faces f, F faces a.
    assert_eq!(
        letter(crate::rows::opposite(0, HOLES_PER_ROW), HOLES_PER_ROW),
        'f'
    );
    assert_eq!(
        letter(crate::rows::opposite(5, HOLES_PER_ROW), HOLES_PER_ROW),
        'a'
    );
    assert_eq!(std::mem::size_of::<Kauri>(), 28);
}

#[test]
fn only_holes_with_a_cowrie_can_be_moved() {
    // "The hole contains at least one cowrie." A hole of cowries only is a move.
    let t = "kauri south:3+0,0+1,0+0,2+2,0+0,0+0 north:1+1,0+0,0+0,0+0,0+0,0+0 to-move:south";
    let g = pos(t);
    assert_eq!(legal(&g), vec!["B", "D"]);
    let why = g.why_illegal(g.parse_move("A").unwrap()).unwrap();
    assert!(why.contains("hole A holds no cowrie (3+0)"), "{why}");
    let why = g.why_illegal(KauriMove(6)).unwrap();
    assert!(why.contains("a is North's hole"), "{why}");
    assert!(
        g.why_illegal(KauriMove(12))
            .unwrap()
            .contains("no such hole")
    );
    // The waiting move: B's cowrie goes to C, nothing else changes.
    assert_move(
        t,
        "B",
        "kauri south:3+0,0+0,0+1,2+2,0+0,0+0 north:1+1,0+0,0+0,0+0,0+0,0+0 south-store:0 north-store:0 to-move:north",
    );
}

#[test]
fn seeds_are_sown_first_then_the_cowries_anticlockwise() {
    // "He distributes the seeds first, one by one, in the anti-clockwise direction into
    // the succeeding holes. Eventually he distributes the cowries, also one by one,
    // continuing in the same direction." South's D (2+2): seeds to E, F, cowries to
    // North's a, b (a..f follows F).
    assert_move(
        "kauri south:0+0,0+0,0+0,2+2,0+0,0+0 north:0+0,0+0,0+0,0+0,0+0,1+1 to-move:south",
        "D",
        "kauri south:0+0,0+0,0+0,0+0,1+0,1+0 north:0+1,0+1,0+0,0+0,0+0,1+1 south-store:0 north-store:0 to-move:north",
    );
    // North's e (3+1): f, then South's A, B; the cowrie to C. "The move ends after one
    // lap."
    assert_move(
        "kauri south:0+0,0+0,0+0,0+1,0+0,0+0 north:0+0,0+0,0+0,0+0,3+1,0+0 to-move:north",
        "e",
        "kauri south:1+0,1+0,0+1,0+1,0+0,0+0 north:0+0,0+0,0+0,0+0,0+0,1+0 south-store:0 north-store:0 to-move:south",
    );
}

#[test]
fn a_cowrie_into_an_opponent_hole_without_cowries_captures_its_seeds() {
    // (B) "Seeds are captured from opponent's holes that have no cowries. The capture is
    // effected when a cowrie is dropped into such a hole. The seeds are captured by the
    // moving player. The cowries effecting the capture remain on the board." South's F
    // (1+2): the seed into a (3+0) stays; the cowries take b's 4 seeds and stay, and
    // capture nothing in c, which holds a cowrie.
    assert_capture(
        "kauri south:0+0,0+0,0+0,0+0,0+0,1+2 north:3+0,4+0,2+1,1+1,0+0,0+0 to-move:south",
        "F",
        "kauri south:0+0,0+0,0+0,0+0,0+0,0+0 north:4+0,0+1,2+2,1+1,0+0,0+0 south-store:4 north-store:0 to-move:north",
        4,
    );
}

#[test]
fn a_direct_capture_takes_the_seeds_sown_there_in_the_same_move() {
    // Game 2, 8...C and game 3, 7.f: the seeds the move itself dropped into the hole are
    // captured with the rest. North's f (11+2): the seeds go into A..F and a..e, the
    // first cowrie into f (its own emptied hole), the second into A, which holds only
    // the seed this move sowed there.
    assert_move(
        "kauri south:0+0,0+0,0+0,0+0,0+0,0+0 north:0+0,0+0,0+0,0+0,0+0,11+2 to-move:north",
        "f",
        "kauri south:0+1,1+0,1+0,1+0,1+0,1+0 north:1+0,1+0,1+0,1+0,1+0,0+1 south-store:0 north-store:1 to-move:south",
    );
}

#[test]
fn a_cowrie_into_an_empty_opponent_hole_captures_nothing_and_stays() {
    // Game 3: 1...E drops a cowrie into the empty e, and North moves it with 2.e. South's
    // F (0+1) into the empty a: nothing is captured, and a is now a North move.
    let n = assert_move(
        "kauri south:0+0,0+0,0+0,0+0,0+0,0+1 north:0+0,0+0,0+0,0+0,0+0,1+1 to-move:south",
        "F",
        "kauri south:0+0,0+0,0+0,0+0,0+0,0+0 north:0+1,0+0,0+0,0+0,0+0,1+1 south-store:0 north-store:0 to-move:north",
    );
    assert_eq!(legal(&n), vec!["a", "f"]);
}

#[test]
fn a_seed_into_an_opponent_cowrie_only_hole_goes_to_its_owner() {
    // (C) "Seeds are captured when they are dropped into opponent's holes that contain
    // only cowries. The seeds are captured by the opponent. The cowries are not removed
    // from the board." North's f (3+1): the seeds into A (0+1) and B (0+2) go to South,
    // the one into C (1+1) stays; the cowrie into the empty D takes nothing.
    assert_capture(
        "kauri south:0+1,0+2,1+1,0+0,0+0,0+0 north:0+0,0+0,0+0,0+0,0+0,3+1 to-move:north",
        "f",
        "kauri south:0+1,0+2,2+1,0+1,0+0,0+0 north:0+0,0+0,0+0,0+0,0+0,0+0 south-store:2 north-store:0 to-move:south",
        -2,
    );
}

#[test]
fn every_seed_into_a_still_cowrie_only_hole_is_captured() {
    // Untested by the records; the literal reading of (C): the hole still "contains only
    // cowries" when a second seed of the same sowing arrives. South's F (13+1) sows
    // a..f, A..E, F (its own emptied hole, the 12th) and a again: both seeds into a
    // (0+1) go to North. The cowrie then lands in b, which holds only the seed this
    // move sowed there: South takes it.
    assert_capture(
        "kauri south:0+0,0+0,0+0,0+0,0+0,13+1 north:0+1,0+0,0+0,0+0,0+0,0+0 to-move:south",
        "F",
        "kauri south:1+0,1+0,1+0,1+0,1+0,1+0 north:0+1,0+1,1+0,1+0,1+0,1+0 south-store:1 north-store:2 to-move:north",
        -1,
    );
}

#[test]
fn a_seed_into_the_movers_own_cowrie_only_hole_stays() {
    // Games 2 (5...A into D) and 4 (5...A into E): neither side captures. South's A
    // (2+1) sows into B (0+1) and C (0+2); the cowrie goes to D.
    assert_move(
        "kauri south:2+1,0+1,0+2,0+0,0+0,0+0 north:1+1,0+0,0+0,0+0,0+0,0+0 to-move:south",
        "A",
        "kauri south:0+0,1+1,1+2,0+1,0+0,0+0 north:1+1,0+0,0+0,0+0,0+0,0+0 south-store:0 north-store:0 to-move:north",
    );
}

#[test]
fn a_sowing_of_twelve_or_more_counters_drops_into_its_start_hole() {
    // "The move ends after one lap", but the start hole is not skipped: the 12th
    // counter falls back into it (game 2, 4...D then 5.a (-1); game 4, 5...A then
    // 6.a (-1)). South's D (10+2): seeds into E, F, a..f (each a cowrie-only hole of
    // North: North takes all six), A, B; the cowries into C and back into D.
    assert_move(
        "kauri south:0+0,0+0,0+0,10+2,0+0,0+0 north:0+1,0+1,0+1,0+1,0+1,0+1 to-move:south",
        "D",
        "kauri south:1+0,1+0,0+1,0+1,1+0,1+0 north:0+1,0+1,0+1,0+1,0+1,0+1 south-store:0 north-store:6 to-move:north",
    );
    // 26 counters (game 4, 18...B: 22 seeds and 4 cowries) pass the start hole twice:
    // seeds into C..F, a..f, A, B (the 12th), C..F, a..f; cowries into A, B, C, D.
    // North has no cowrie: South moves again ("B-B-A").
    assert_move(
        "kauri south:0+0,22+4,0+0,0+0,0+0,0+0 north:0+0,0+0,0+0,0+0,0+0,0+0 to-move:south",
        "B",
        "kauri south:1+1,1+1,2+1,2+1,2+0,2+0 north:2+0,2+0,2+0,2+0,2+0,2+0 south-store:0 north-store:0 to-move:south",
    );
}

#[test]
fn a_player_without_cowries_passes_and_the_mover_moves_again() {
    // "A player must move, if he can. If a player still has seeds, but no cowries, he
    // must pass until he can move again." Game 3, "7. d-a-f (+34)": North moves three
    // times. North's e (0+1): the cowrie goes to f; South has seeds but no cowrie, so
    // North moves again.
    let g = pos("kauri south:2+0,0+0,0+0,0+0,0+0,0+0 north:0+0,0+0,0+0,0+0,0+1,0+0 to-move:north");
    let n = mv(&g, "e");
    assert_eq!(n.to_move(), N);
    assert!(!n.is_terminal());
    assert_eq!(legal(&n), vec!["f"]);
    // f's cowrie takes A's 2 seeds: the board is empty, the game over.
    let n = mv(&n, "f");
    assert_eq!(n.stores(), [2, 0]);
    assert!(n.is_terminal());
    // The player who must pass is never the one to move.
    let e = Kauri::from_text(
        "kauri south:2+0,0+0,0+0,0+0,0+0,0+0 north:0+0,0+0,0+0,0+0,0+1,0+0 to-move:south",
    )
    .unwrap_err();
    assert!(e.0.contains("South is to move but has no cowrie"), "{e}");
    // As soon as South has a cowrie again, he moves.
    let g = pos("kauri south:1+0,0+0,0+0,0+0,0+0,0+0 north:1+0,0+0,0+0,0+0,0+0,0+1 to-move:north");
    let n = mv(&g, "f");
    assert_eq!(n.stores(), [1, 0]);
    assert_eq!(n.to_move(), S);
    assert_eq!(legal(&n), vec!["A"]);
}

#[test]
fn the_game_ends_when_no_seeds_are_left_and_most_seeds_wins() {
    // "The game ends when no seeds are left on the board. The player who captured most
    // seeds wins the game. If the number of captured seeds is equal, the game is a draw."
    // South's F (0+1) takes a's last 3 seeds: 31:29.
    let g = pos(
        "kauri south:0+0,0+0,0+0,0+0,0+0,0+1 north:3+0,0+0,0+0,0+0,0+0,0+1 south-store:28 north-store:29 to-move:south",
    );
    assert_eq!((g.banked(), g.swing()), (-1, 3));
    let n = mv(&g, "F");
    assert_ends(&g, &n);
    assert_eq!(n.to_move(), N);
    assert_eq!(n.terminal_value(), -2);
    assert_eq!(n.points(n.terminal_value()), -2.0);
    assert_eq!((n.banked(), n.swing()), (-2, 0));
    let draw = pos(
        "kauri south:0+1,0+0,0+0,0+0,0+0,0+0 north:0+0,0+0,0+0,0+0,0+0,0+1 south-store:30 north-store:30 to-move:north",
    );
    assert_over(&draw, 0);
}

#[test]
fn the_tie_breaker_plays_on_with_cowries_until_a_player_cannot_move() {
    // "If both players have captured the same number, the game continues until one
    // player can't move. His adversary is then declared the winner of the game."
    let g = pos(
        "kauri south:0+1,0+0,0+0,0+0,0+0,0+0 north:0+0,0+0,0+0,0+0,0+0,0+1 south-store:30 north-store:30 to-move:north rules:tiebreak",
    );
    assert_tie_break_goes_on(&g);
    assert_eq!((g.banked(), g.swing()), (0, 1));
    assert_eq!(legal(&g), vec!["f"]);
    // f's cowrie joins South's A: South moves A (0+2) into B and C, and North, to move
    // without a cowrie, cannot move and loses (no passing in this phase).
    let n = mv(&g, "f");
    assert_eq!(n.to_move(), S);
    assert_eq!(legal(&n), vec!["A"]);
    let n = mv(&n, "A");
    assert_eq!(n.to_move(), N);
    assert!(n.is_terminal());
    assert!(legal(&n).is_empty());
    assert_eq!(n.terminal_value(), -1);
    assert_eq!(n.points(n.terminal_value()), -0.5);
    assert_eq!(n.points(1), 0.5);
    // Unequal totals end the game with the seeds, in half points.
    let won = pos(
        "kauri south:0+1,0+0,0+0,0+0,0+0,0+0 north:0+0,0+0,0+0,0+0,0+0,0+1 south-store:28 north-store:32 to-move:north rules:tiebreak",
    );
    assert_over(&won, 8);
    assert_eq!(won.points(won.terminal_value()), 4.0);
    // The last capture makes the totals equal and the tie-break phase begins. North's f
    // (1+1): the seed into A (0+1) goes to South (30:30), the cowrie into B. South is
    // to move; whatever he does, North then has no cowrie and loses.
    let g = pos(
        "kauri south:0+1,0+0,0+0,0+0,0+0,0+0 north:0+0,0+0,0+0,0+0,0+0,1+1 south-store:29 north-store:30 to-move:north rules:tiebreak",
    );
    assert_eq!((g.banked(), g.swing()), (2, 3));
    let n = mv(&g, "f");
    assert_eq!(n.stores(), [30, 30]);
    assert_tie_break_goes_on(&n);
    assert_eq!(
        (n.to_move(), legal(&n)),
        (S, vec!["A".to_string(), "B".to_string()])
    );
    let n = mv(&n, "A");
    assert_eq!(n.to_move(), N);
    assert_over(&n, -1);
    // Under the current rules the same move ends in a draw.
    let n = mv(&g.with_rules(Rules::Current), "f");
    assert_over(&n, 0);
}

#[test]
fn repetition_gains_nothing_more() {
    // The project's rule (the seed has none): a recurring position ends the game at the
    // captured margin; in the tie-break phase that is a draw.
    let g = pos(
        "kauri south:0+1,0+0,0+0,0+0,0+0,0+0 north:0+1,0+0,0+0,0+0,0+0,0+0 south-store:30 north-store:30 to-move:south rules:tiebreak",
    );
    assert!(g.can_repeat());
    assert_eq!(g.repetition_value(), 0);
    let g = pos(
        "kauri south:1+1,0+0,0+0,0+0,0+0,0+0 north:0+1,0+0,0+0,0+0,0+0,0+0 south-store:20 north-store:25 to-move:south",
    );
    assert_eq!(g.repetition_value(), -5);
    assert_eq!(g.with_rules(Rules::TieBreak).repetition_value(), -10);
    assert_eq!(g.material(), 1);
}

#[test]
fn keys_see_the_stores_only_under_the_tie_breaker() {
    let a = pos(
        "kauri south:1+1,0+0,0+0,0+0,0+0,0+0 north:0+1,0+0,0+0,0+0,0+0,0+0 south-store:20 north-store:25 to-move:south",
    );
    let b = pos(
        "kauri south:1+1,0+0,0+0,0+0,0+0,0+0 north:0+1,0+0,0+0,0+0,0+0,0+0 south-store:25 north-store:20 to-move:south",
    );
    assert_eq!(a.key(), b.key());
    let tb = |g: Kauri| g.with_rules(Rules::TieBreak).key();
    assert_ne!(tb(a), tb(b));
    assert_ne!(a.key(), tb(a));
    // Seeds and cowries are told apart.
    let c = pos("kauri south:0+1,1+0,0+0,0+0,0+0,0+0 north:0+1,0+0,0+0,0+0,0+0,0+0 to-move:south");
    let d = pos("kauri south:0+1,0+1,0+0,0+0,0+0,0+0 north:0+1,1+0,0+0,0+0,0+0,0+0 to-move:south");
    assert_ne!(c.key(), d.key());
    assert_eq!(a.key(), pos(&a.to_text()).key());
    assert_eq!(a.move_slot(KauriMove(0)), 0);
}
