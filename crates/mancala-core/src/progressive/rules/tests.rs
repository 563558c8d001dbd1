use super::*;
use crate::game::{Moves, Notation, PositionText};
use crate::test_util::{assert_ends, legal, play};
use crate::twin::twin_mismatch;

fn pos(text: &str) -> Progressive {
    Progressive::from_text(text).unwrap()
}

/// The holes and the goal of `g`.
fn board(g: &Progressive) -> (Vec<u8>, u8) {
    (g.holes().to_vec(), g.goal())
}

/// The position `text` describes after the move named `m`, and how that move sowed.
fn sow(text: &str, m: &str) -> (Progressive, Sowing) {
    let g = pos(text);
    g.play_traced(g.parse_move(m).unwrap())
}

#[test]
fn start_has_five_stones_in_eleven_holes_and_east_moves() {
    // "a one-rank mancala board which numbers eleven holes. Initially there are five
    // stones in each hole. There is also a common goal". "East starts to the game".
    let g = Progressive::standard();
    assert_eq!(g.holes(), &[5u8; 11][..]);
    assert_eq!((g.goal(), g.total()), (0, 55));
    assert_eq!(g.to_move(), Player::First);
    assert_eq!(Progressive::side_name(g.to_move()), "East");
    assert_eq!(g.moves_left(), 1);
    assert_eq!(
        legal(&g),
        vec!["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]
    );
    // "Good players may take a board which has 17 holes. Again, there are five stones in
    // each hole".
    let g = Progressive::start(17, 5, Ending::Majority);
    assert_eq!(g.total(), 85);
    assert_eq!(legal(&g).last().unwrap(), "q");
    // "Draws are impossible because the sum of all stones is odd."
    assert_eq!(Progressive::standard().total() % 2, 1);
    assert_eq!(g.total() % 2, 1);
}

#[test]
fn east_sows_right_to_left() {
    // "East starts to the game and plays from right to left." d (2 stones): c, b.
    let (n, s) = sow("progressive holes:0,0,0,2,0 goal:0 to-move:east", "d");
    assert_eq!(n.holes(), &[0, 1, 1, 0, 0]);
    assert_eq!(s.end, MoveEnd::EmptyHole(1));
    assert_eq!(s.laps, 1);
}

#[test]
fn west_sows_left_to_right() {
    // "West sows from left to right." b (2 stones): c, d.
    let (n, s) = sow("progressive holes:0,2,0,0,0 goal:0 to-move:west", "b");
    assert_eq!(n.holes(), &[0, 0, 1, 1, 0]);
    assert_eq!(s.end, MoveEnd::EmptyHole(3));
}

#[test]
fn sowing_passes_the_goal_and_continues_from_the_opposite_end() {
    // "If he reaches the end of the board, he continues to distribute the stones by first
    // dropping a stone into the Goal, then into the holes starting from the opposite end
    // of the board." East b (3): a, goal, e.
    let (n, s) = sow("progressive holes:0,3,0,0,0 goal:0 to-move:east", "b");
    assert_eq!(board(&n), (vec![1, 0, 0, 0, 1], 1));
    assert_eq!(s.end, MoveEnd::EmptyHole(4));
    assert_eq!(n.stores(), [0, 0]);
    // West d (3): e, goal, a.
    let g = pos("progressive holes:0,0,0,3,0 goal:0 to-move:west");
    let n = play(&g, "d");
    assert_eq!(board(&n), (vec![1, 0, 0, 0, 1], 1));
}

#[test]
fn last_stone_in_a_non_empty_hole_relays() {
    // "If the last stone is dropped into a non-empty hole, its contents (including the
    // last distributed stone) are picked up and then distributed as usual in multi-lap
    // games." East e (2): d, c; c held 1, so its 2 go to b, a; a was empty.
    let (n, s) = sow("progressive holes:0,0,1,0,2 goal:0 to-move:east", "e");
    assert_eq!(n.holes(), &[1, 1, 0, 1, 0]);
    assert_eq!(s.laps, 2);
    assert_eq!(s.drops, 4);
    assert_eq!(s.end, MoveEnd::EmptyHole(0));
}

#[test]
fn last_stone_in_the_goal_captures_the_whole_goal() {
    // "If the last stone is dropped into the goal, the player captures its contents
    // including the last distributed stone. The captured stones are stored." The goal
    // already holds 4 from earlier moves; East b (2): a, goal.
    let (n, s) = sow("progressive holes:0,2,0,1,0 goal:4 to-move:east", "b");
    assert_eq!(s.end, MoveEnd::Goal { captured: 5 });
    assert_eq!(n.goal(), 0);
    assert_eq!(n.stores(), [5, 0]);
    assert_eq!(n.holes(), &[1, 0, 0, 1, 0]);
    // West: d (2): e, goal.
    let g = pos("progressive holes:0,2,0,2,0 goal:3 to-move:west");
    let n = play(&g, "d");
    assert_eq!(n.stores(), [0, 4]);
    assert_eq!(n.goal(), 0);
}

#[test]
fn a_relay_can_end_in_the_goal() {
    // East c (1) into b (1): b's 2 go to a and the goal.
    let (n, s) = sow("progressive holes:0,1,1,0,3 goal:0 to-move:east", "c");
    assert_eq!(s.end, MoveEnd::Goal { captured: 1 });
    assert_eq!(n.holes(), &[1, 0, 0, 0, 3]);
    assert_eq!(n.stores(), [1, 0]);
}

#[test]
fn ending_in_an_empty_hole_gives_the_enemy_a_bonus_move() {
    // "For each move that a player has terminated in an empty hole, his enemy must make a
    // bonus move (bonus moves are compulsory)."
    let g = pos("progressive holes:0,0,0,2,3 goal:0 to-move:east");
    let n = play(&g, "d");
    assert_eq!(n.to_move(), Player::Second);
    assert_eq!((n.moves_left(), n.empties()), (2, 0));
    // West's bonus move is compulsory: still West after the first move.
    let n2 = play(&n, "e");
    assert_eq!(n2.to_move(), Player::Second);
    assert_eq!(n2.moves_left(), 1);
}

#[test]
fn each_empty_ending_of_a_turn_counts_bonus_moves_included() {
    // "For each move": a turn of 1 + k moves, k = the opponent's empty endings in his
    // previous turn, counting every move of that turn. West has 2 moves (one of them a
    // bonus move); both end in an empty hole, so East gets 1 + 2.
    let g = pos("progressive holes:1,0,0,1,0,0,0 goal:0 to-move:west moves-left:2");
    let n = play(&g, "a"); // a -> b, empty
    assert_eq!(
        (n.to_move(), n.moves_left(), n.empties()),
        (Player::Second, 1, 1)
    );
    let n = play(&n, "d"); // d -> e, empty
    assert_eq!(
        (n.to_move(), n.moves_left(), n.empties()),
        (Player::First, 3, 0)
    );
    // Only the second (bonus) move ends empty: still a bonus for the enemy.
    let g = pos("progressive holes:0,0,0,1,0,0,1 goal:3 to-move:west moves-left:2");
    let n = play(&g, "g"); // g -> goal: captures 4
    assert_eq!(n.stores(), [0, 4]);
    let n = play(&n, "d"); // d -> e, empty
    assert_eq!((n.to_move(), n.moves_left()), (Player::First, 2));
}

#[test]
fn a_goal_ending_never_gives_a_bonus_move() {
    // "Dropping the last stone into the goal never results in a bonus move for the
    // opponent."
    let g = pos("progressive holes:1,0,0,1,0 goal:0 to-move:east");
    let n = play(&g, "a");
    assert_eq!(n.stores(), [1, 0]);
    assert_eq!(
        (n.to_move(), n.moves_left(), n.empties()),
        (Player::Second, 1, 0)
    );
}

#[test]
fn a_sowing_of_n_plus_one_stones_ends_in_its_own_emptied_hole() {
    // The start hole is not skipped. East c (6) on 1x5: b, a, goal, e, d, c; c was
    // emptied, so the move ends there and West gets a bonus move.
    let (n, s) = sow("progressive holes:0,0,6,0,1 goal:0 to-move:east", "c");
    assert_eq!(board(&n), (vec![1, 1, 1, 1, 2], 1));
    assert_eq!(s.end, MoveEnd::EmptyHole(2));
    assert_eq!((n.to_move(), n.moves_left()), (Player::Second, 2));
    // Two full circuits (12 stones) leave 2 in c, which relay: c (2) to b, a; a (3) to
    // the goal, e, d; d (3) to c, b, a, which the relay from a had emptied.
    let (n, s) = sow("progressive holes:0,0,12,0,0 goal:0 to-move:east", "c");
    assert_eq!(board(&n), (vec![1, 4, 1, 0, 3], 3));
    assert_eq!((s.laps, s.drops), (4, 12 + 2 + 3 + 3));
    assert_eq!(s.end, MoveEnd::EmptyHole(0));
}

#[test]
fn the_game_ends_at_once_when_a_player_holds_more_than_half() {
    // Game 2 stops at 5:28 of 55 with a bonus move unplayed. West, 2 moves left, holds
    // 27 of 55; the goal holds 2; j (2): k, goal captures 3 -> 30 > 27.5.
    let t = "progressive holes:1,0,0,0,0,0,0,0,0,2,20 goal:2 east-store:3 west-store:27 to-move:west moves-left:2";
    let g = pos(t);
    let n = play(&g, "j");
    assert_ends(&g, &n);
    assert_eq!(n.stores(), [3, 30]);
    assert_eq!((n.to_move(), n.moves_left()), (Player::Second, 1));
    assert_eq!(n.terminal_value(), 27);
    assert_eq!(n.swing(), 22);
    // The `all` variant plays on.
    let g = pos(&format!("{t} ending:all"));
    let n = play(&g, "j");
    assert!(!n.is_terminal());
    assert_eq!(legal(&n), vec!["a", "k"]);
}

#[test]
fn the_all_variant_ends_when_every_stone_is_captured() {
    let g =
        pos("progressive holes:1,0,0,0,0 goal:2 east-store:0 west-store:6 to-move:east ending:all");
    let n = play(&g, "a");
    assert_eq!(n.stores(), [3, 6]);
    assert_ends(&g, &n);
    // West to move, ahead by 3.
    assert_eq!(n.to_move(), Player::Second);
    assert_eq!(n.terminal_value(), 3);
    assert_eq!(n.swing(), 0);
}

#[test]
fn keys_see_the_turn_counters_and_the_stores_where_they_matter() {
    let a = pos("progressive holes:1,2,3 goal:0 east-store:1 west-store:0 to-move:east");
    let b = pos("progressive holes:1,2,3 goal:0 east-store:1 west-store:0 to-move:east empties:1");
    let c =
        pos("progressive holes:1,2,3 goal:0 east-store:1 west-store:0 to-move:east moves-left:2");
    let d = pos("progressive holes:1,2,3 goal:0 east-store:0 west-store:1 to-move:east");
    assert_ne!(a.key(), b.key());
    assert_ne!(a.key(), c.key());
    assert_ne!(a.key(), d.key());
    let all = |g: Progressive| g.with_ending(Ending::All).key();
    assert_eq!(all(a), all(d));
    assert_eq!(a.key(), pos(&a.to_text()).key());
    assert!(!a.can_repeat());
    assert_eq!(d.repetition_value(), -1);
    assert_eq!(std::mem::size_of::<Progressive>(), 32);
}

#[test]
fn a_mirror_image_plays_as_the_mirror_of_the_position() {
    // The key shares one table entry between a position and its mirror image: sound only
    // if every move of one is the mirror of a move of the other, with the same outcome
    // for the player to move. Checked along random games of every ending and size class.
    let mut rng = crate::game::SplitMix(0x5EED_0F0A);
    let mut ms = Moves::new();
    for (n, k) in [(3, 3), (5, 3), (7, 2), (11, 3), (15, 2), (17, 1)] {
        for ending in [Ending::Majority, Ending::All] {
            for _ in 0..20 {
                let mut g = Progressive::start(n, k, ending);
                loop {
                    assert_eq!(twin_mismatch(&g), None);
                    assert_eq!(g.twin().stores(), [g.stores()[1], g.stores()[0]]);
                    assert_eq!(
                        g.twin_move(ProgressiveMove(0)),
                        ProgressiveMove(n as u8 - 1)
                    );
                    g.legal_moves(&mut ms);
                    if ms.is_empty() {
                        break;
                    }
                    g = g.play(ms[rng.below(ms.len())]);
                }
            }
        }
    }
    // A position and its mirror with the same player to move are different positions.
    let a = pos("progressive holes:1,2,3 goal:0 east-store:0 west-store:0 to-move:east");
    let b = pos("progressive holes:3,2,1 goal:0 east-store:0 west-store:0 to-move:east");
    assert_ne!(a.key(), b.key());
}

#[test]
fn keys_see_the_last_hole_and_the_goal_of_the_largest_board() {
    // On 1x17 the last hole and the goal are cells 16 and 17, past the two words the key
    // reads whole.
    let mut holes = [1u8; 17];
    let a = Progressive::from_parts(&holes, 0, [0, 0], Player::First, 1, 0, Ending::All);
    let b = Progressive::from_parts(&holes, 1, [0, 0], Player::First, 1, 0, Ending::All);
    holes[16] = 2;
    let c = Progressive::from_parts(&holes, 0, [0, 0], Player::First, 1, 0, Ending::All);
    let keys: Vec<u64> = [a, b, c].into_iter().map(|g| g.unwrap().key()).collect();
    assert_ne!(keys[0], keys[1]);
    assert_ne!(keys[0], keys[2]);
    assert_ne!(keys[1], keys[2]);
}

#[test]
fn illegal_moves_say_why() {
    let g = pos("progressive holes:1,0,3 goal:0 to-move:east");
    let why = g.why_illegal(ProgressiveMove(1)).unwrap();
    assert!(why.contains("hole b is empty"), "{why}");
    assert!(g.why_illegal(ProgressiveMove(3)).unwrap().contains("a-c"));
    assert_eq!(g.why_illegal(ProgressiveMove(2)), None);
}
