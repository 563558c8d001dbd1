//! The readings of the Progressive Mancala bonus-move rule that `docs/rules-progressive.md`
//! compares, checked against the turn grouping of the two published games (seed 002).
//!
//! Where a move ends (goal or empty hole) depends only on the board and on who sows, not on
//! the bonus rule, so the engine's replay of each record, with the recorded player of every
//! ply, gives the sequence of (player, ended in an empty hole). Each reading is then a small
//! turn machine written here that predicts who moves at every ply.

use mancala_core::progressive::{MoveEnd, Progressive};
use mancala_core::record::{parse_file, start_position};
use mancala_core::{Game, Notation, Player};

/// (recorded player, ended in an empty hole) for every ply of a record. Groups alternate
/// East, West, ... (a group is one player's turn).
fn plies(file: &str) -> Vec<(Player, bool)> {
    let path = format!(
        "{}/../../positions/progressive/{file}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let rec = parse_file(file, &text).unwrap();
    let mut g: Progressive = start_position(&rec.tags).unwrap();
    let mut out = Vec::new();
    let mut player = Player::First;
    for group in &rec.body.groups {
        for m in &group.moves {
            // The implemented reading (A) agrees with the grouping at every ply.
            assert_eq!(g.to_move(), player, "{file} ply {}", out.len() + 1);
            let (next, s) = g.play_traced(g.parse_move(&m.name).unwrap());
            out.push((player, matches!(s.end, MoveEnd::EmptyHole(_))));
            g = next;
        }
        player = player.opponent();
    }
    out
}

/// How many moves the next turn has, from the ends of the opponent's previous turn.
type TurnRule = fn(&[bool]) -> u32;

/// The first ply (from 1) whose recorded player differs from the one a turn rule predicts.
fn first_mismatch(plies: &[(Player, bool)], rule: TurnRule) -> Option<usize> {
    let (mut to_move, mut left, mut ends) = (Player::First, 1u32, Vec::new());
    for (i, &(player, empty)) in plies.iter().enumerate() {
        if player != to_move {
            return Some(i + 1);
        }
        ends.push(empty);
        left -= 1;
        if left == 0 {
            to_move = to_move.opponent();
            left = rule(&ends);
            ends.clear();
        }
    }
    None
}

/// Reading A: one bonus move per move of the previous turn that ended empty.
fn reading_a(ends: &[bool]) -> u32 {
    1 + ends.iter().filter(|&&e| e).count() as u32
}
/// Two moves if any move of the previous turn ended empty.
fn any_empty(ends: &[bool]) -> u32 {
    1 + u32::from(ends.contains(&true))
}
/// Only the last move of the previous turn grants a bonus.
fn last_only(ends: &[bool]) -> u32 {
    1 + u32::from(*ends.last().unwrap())
}
/// Only the first move of the previous turn grants a bonus.
fn first_only(ends: &[bool]) -> u32 {
    1 + u32::from(ends[0])
}

/// No bonus moves: strict alternation. The plies whose recorded player is not the one
/// alternation gives.
fn alternation_mismatches(plies: &[(Player, bool)]) -> Vec<usize> {
    (0..plies.len())
        .filter(|&i| plies[i].0 != Player::from_index(i % 2))
        .map(|i| i + 1)
        .collect()
}

/// The enemy makes each bonus move at once, then play goes on with whoever was due: a
/// stack of pending (player, ordinary) moves.
fn immediate_mismatch(plies: &[(Player, bool)]) -> Option<usize> {
    let mut due = vec![(Player::First, true)];
    for (i, &(player, empty)) in plies.iter().enumerate() {
        let (p, ordinary) = due.pop().unwrap();
        if p != player {
            return Some(i + 1);
        }
        if ordinary {
            due.push((p.opponent(), true));
        }
        if empty {
            due.push((p.opponent(), false));
        }
    }
    None
}

#[test]
fn game_1_never_ends_in_an_empty_hole_so_every_reading_fits() {
    let g1 = plies("game-1.txt");
    assert_eq!(g1.len(), 11);
    assert!(g1.iter().all(|&(_, empty)| !empty));
    assert!(alternation_mismatches(&g1).is_empty());
    for rule in [reading_a, any_empty, last_only, first_only] {
        assert_eq!(first_mismatch(&g1, rule), None);
    }
    assert_eq!(immediate_mismatch(&g1), None);
}

#[test]
fn game_2_grouping_against_each_reading() {
    let g2 = plies("game-2.txt");
    assert_eq!(g2.len(), 15);
    // Plies 7, 10, 11 and 14 end in an empty hole.
    let empties: Vec<usize> = (0..15).filter(|&i| g2[i].1).map(|i| i + 1).collect();
    assert_eq!(empties, vec![7, 10, 11, 14]);
    // Reading A fits every ply (checked in `plies` too).
    assert_eq!(first_mismatch(&g2, reading_a), None);
    // No bonus moves: these plies are played by the other player than alternation gives.
    assert_eq!(alternation_mismatches(&g2), vec![9, 10, 11, 14, 15]);
    // Only the last move of a turn grants a bonus: in turn 5 West's f (ply 11), not his
    // last move, ends empty, yet East plays two moves, i(+2)-a: a (ply 14) is a mismatch.
    assert_eq!(first_mismatch(&g2, last_only), Some(14));
    // Bonus at once: after West's f (ply 11) ends empty East would move; West's e follows.
    assert_eq!(immediate_mismatch(&g2), Some(12));
    // These fit: no turn has two empty endings, and the game ends before West's owed second
    // move would tell "first only" apart.
    assert_eq!(first_mismatch(&g2, any_empty), None);
    assert_eq!(first_mismatch(&g2, first_only), None);
}
