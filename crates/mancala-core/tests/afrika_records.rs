//! Every Afrika record in positions/ verified, with its exact report pinned: a published
//! error is a fact to keep, not to hide.

use mancala_core::afrika::Afrika;
use mancala_core::record::{Issue, parse_file_lenient, start_position};

mod common;

fn report(file: &str) -> mancala_core::record::Report<mancala_core::afrika::AfrikaMove> {
    common::verify_text::<Afrika>(file, &common::read_positions("afrika", file))
}

/// The one issue of a record whose game is over after `plies` plies with `score`.
fn the_one_issue(file: &str, plies: usize, score: [u32; 2]) -> Issue {
    let r = report(file);
    assert_eq!(r.plies, plies, "{file}");
    assert!(r.game_over, "{file}");
    assert_eq!(r.final_score, score, "{file}");
    assert_eq!(r.issues.len(), 1, "{file}: {:#?}", r.issues);
    r.issues.into_iter().next().unwrap()
}

#[test]
fn game_1_has_two_swapped_capture_amounts() {
    // 64:64 with komi 2.5: "Gering wins by 2 1/2 points" holds once the amounts are swapped.
    let i = the_one_issue("game-1.txt", 66, [64, 64]);
    assert_eq!((i.ply, i.move_number), (20, Some(10)));
    assert_eq!(i.recorded, "xh (+1)");
    assert_eq!(i.actual, "xh (+3)");
    assert_eq!(
        i.correction,
        "swapped amounts: (+1) belongs to ply 21 and (+3) to ply 20"
    );
}

#[test]
fn game_2_result_statement_does_not_follow_from_the_moves() {
    // Every move and amount is right; the moves give North (Gering) 66, South 62.
    let i = the_one_issue("game-2.txt", 77, [66, 62]);
    assert_eq!(i.ply, 0);
    assert_eq!(i.recorded, "- De Leo wins by half a point.");
    assert_eq!(
        i.actual,
        "South does not win: 66:62 for North:South (komi 2.5 to South)"
    );
}

#[test]
fn problem_lines_need_their_lost_start_positions() {
    for f in [
        "problem-1-solution.txt",
        "problem-1-wrong.txt",
        "problem-2-solution.txt",
    ] {
        let rec = parse_file_lenient(f, &common::read_positions("afrika", f)).unwrap();
        let e = start_position::<Afrika>(&rec.tags).unwrap_err();
        assert!(e.0.contains("not known"), "{f}: {e}");
    }
}

/// Give-away names the winner by its rule, not by the totals: "the first player who
/// captures more than half of the stones loses" (the Mancala World page). On 2 x 2 with
/// 2 stones South's capture of 5 of the 8 ends the game and North wins with none (a
/// finding of an independent reimplementation: the statement was judged by the totals).
#[test]
fn giveaway_results_follow_the_giveaway_rule() {
    let record = |statement: &str| {
        format!(
            "[Game \"afrika\"]\n[Board \"2x2\"]\n[Stones \"2\"]\n[Rules \"giveaway\"]\na; A; a; xb (+5) {statement}\n"
        )
    };
    let north = common::verify_text::<Afrika>("north.txt", &record("North wins."));
    assert!(north.game_over);
    assert_eq!(north.final_score, [0, 5]);
    assert!(north.consistent, "{:#?}", north.issues);
    for why in common::result_issues::<Afrika>(record, &["South wins.", "Draw."]) {
        assert!(why.ends_with("North wins under these rules"), "{why}");
    }
}
