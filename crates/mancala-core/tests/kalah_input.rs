//! Bad input: malformed positions, unknown hole letters and illegal moves give clear
//! errors, never a panic.

use mancala_core::game::{Notation, PositionText};
use mancala_core::kalah::{Kalah, KalahMove, Rules};
use proptest::prelude::*;

mod common;
use common::why;

#[test]
fn malformed_positions_name_the_problem() {
    let cases = [
        ("", "empty kalah position"),
        ("andada south:2 north:2", "must start with \"kalah\""),
        (
            "kalah south: north: to-move:south",
            "\"south\" entry 1 is \"\"",
        ),
        (
            "kalah south:1,1,1,1,1,1,1,1,1,1,1,1,1 north:1,1,1,1,1,1,1,1,1,1,1,1,1 \
             to-move:south",
            "2 x 1..12 holes, not 2 x 13",
        ),
        (
            "kalah south:3,3,3 north:3,3 to-move:south",
            "south has 3 holes but north has 2",
        ),
        (
            "kalah south:3,-1,3 north:3,3,3 to-move:south",
            "\"south\" entry 2 is \"-1\"",
        ),
        (
            "kalah south:3,3,3 north:3,3,3 south-store:x to-move:south",
            "\"south-store:x\" is not a valid number",
        ),
        (
            "kalah south:3,3,3 north:3,3,3 north-store:300 to-move:south",
            "\"north-store:300\"",
        ),
        (
            "kalah south:3,3,3 north:3,3,3 to-move:west",
            "\"to-move:west\" must be south or north",
        ),
        (
            "kalah south:3,3,3 north:3,3,3",
            "missing field \"to-move:\"",
        ),
        (
            "kalah south:3,3,3 to-move:south",
            "missing field \"north:\"",
        ),
        (
            "kalah south:3,3,3 north:3,3,3 to-move:south komi:1",
            "unknown field \"komi:\"",
        ),
        (
            "kalah south:3,3,3 north:3,3,3 to-move:south capture:maybe",
            "\"capture:maybe\"",
        ),
        (
            "kalah south:100,100 north:50,0 south-store:10 to-move:south",
            "260 seeds",
        ),
    ];
    common::assert_text_errors::<Kalah>(&cases);
    // Stores default to 0.
    let g = Kalah::from_text("kalah south:1 north:1 to-move:north").unwrap();
    assert_eq!(g.stores(), [0, 0]);
}

#[test]
fn unknown_and_misplaced_move_names() {
    let g = Kalah::start(4, 3, Rules::default());
    common::assert_move_errors(
        &g,
        &[
            (
                "E",
                "unknown hole \"E\": holes are A-D (South) and a-d (North)",
            ),
            ("e", "unknown hole \"e\""),
            ("*", "unknown hole \"*\""),
            (
                "b",
                "South to move sows from its own row; b is North's hole",
            ),
            ("", "is not a Kalah move"),
            ("AB", "\"AB\" is not a Kalah move"),
        ],
    );
    assert_eq!(g.parse_move(" C "), Ok(KalahMove(2)));
}

#[test]
fn illegal_moves_are_explained() {
    let g = Kalah::from_text("kalah south:1,0 north:1,1 to-move:south").unwrap();
    assert!(why(&g, KalahMove(1)).contains("empty"));
    assert!(why(&g, KalahMove(2)).contains("own row"));
    assert!(why(&g, KalahMove(7)).contains("no such hole"));
    let over = Kalah::from_text("kalah south:0,0 north:1,1 to-move:south").unwrap();
    assert!(why(&over, KalahMove(0)).contains("over"));
}

#[test]
fn rule_variants_read_back() {
    for text in ["standard", "standard-capture"] {
        assert_eq!(Rules::parse_variant(text).unwrap().variant_name(), text);
    }
    assert_eq!(
        Rules::parse_variant("empty-capture").unwrap(),
        Rules::default()
    );
    let e = Rules::parse_variant("pie").unwrap_err().0;
    assert!(e.contains("unknown Kalah rule \"pie\""), "{e}");
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(s in ".{0,80}") {
        common::read_arbitrary_text("kalah", &Kalah::start(6, 4, Rules::default()), &s);
    }

    #[test]
    fn arbitrary_fields_never_panic(
        (south, north) in common::rows(14),
        ss in 0u16..300,
        extra in "( capture:standard| capture:empty| x:y|)",
    ) {
        let text = format!("kalah south:{south} north:{north} south-store:{ss} to-move:south{extra}");
        common::check_text_round_trip::<Kalah>(&text)?;
    }
}

/// A Kalah record is a plain move list: nobody writes what a sowing puts in the store.
/// Its captures are not checked; its moves, extra turns and result are. (Before, `C F`
/// failed at once: "rules give: C (+1); correction: none found".)
#[test]
fn a_plain_move_list_verifies() {
    let text = "[Game \"kalah\"]\nC F\n";
    let r = common::verify_text::<Kalah>("plain.txt", text);
    assert!(r.consistent, "{:#?}", r.issues);
    assert!(!r.captures_checked);
    assert_eq!(r.final_score, [2, 0]);
    // C ends in the store, so South moves again: a North move there is an issue.
    let r = common::verify_text::<Kalah>("turn.txt", "[Game \"kalah\"]\nC a\n");
    assert!(!r.consistent);
    assert_eq!(r.issues[0].ply, 2, "{:#?}", r.issues);
    // Annotated, the amounts are checked.
    let r = common::verify_text::<Kalah>("amount.txt", "[Game \"kalah\"]\nC(+1) F(+2)\n");
    assert!(r.captures_checked);
    assert!(r.issues[0].correction.contains("(+1)"), "{:#?}", r.issues);
}
