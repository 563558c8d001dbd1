//! `solve --at-least POINTS` answers as the exact value does, in every game, with a
//! proven bound on the right side; questions every value answers alike are refused.

mod common;

use common::mancala;
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let o = mancala(args);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
    serde_json::from_slice(&o.stdout).unwrap()
}

/// The exact value, then the tests at it and half a point above it.
fn agrees_with_the_exact_value(position: &[&str]) {
    let mut exact_args = vec![
        "solve",
        "--value-only",
        "--json",
        "-t",
        "1",
        "--tt-mb",
        "64",
    ];
    exact_args.extend(position);
    let exact = json(&exact_args)["value"].as_f64().unwrap();
    for (points, holds) in [(exact, true), (exact + 0.5, false)] {
        let p = points.to_string();
        let mut args = vec!["solve", "--json", "--tt-mb", "64", "--at-least", &p];
        args.extend(position);
        let o = mancala(&args);
        let err = String::from_utf8_lossy(&o.stderr);
        // A value at the end of the range answers its question alike for every value:
        // refused, and the refusal says which way.
        let alike = if holds {
            "every value of this position reaches it"
        } else {
            "no value of this position reaches it"
        };
        if o.status.code() == Some(2) && err.contains(alike) {
            continue;
        }
        assert_eq!(o.status.code(), Some(0), "{args:?}: {err}");
        let out: Value = serde_json::from_slice(&o.stdout).unwrap();
        let at = format!("{position:?} at {points}: {out}");
        assert_eq!(out["holds"].as_bool(), Some(holds), "{at}");
        assert_eq!(out["at_least"].as_f64(), Some(points), "{at}");
        let bound = out["bound"].as_f64().unwrap();
        if holds {
            assert!(bound >= points && bound <= exact, "{at}");
        } else {
            assert!(bound >= exact && bound < points, "{at}");
        }
        assert!(out["nodes"].as_u64().unwrap() > 0, "{at}");
    }
}

#[test]
fn a_test_answers_as_the_exact_value_in_every_game() {
    agrees_with_the_exact_value(&["kalah:4x3"]);
    agrees_with_the_exact_value(&["kalah:4x3", "--rules", "standard-capture"]);
    agrees_with_the_exact_value(&["andada:3"]);
    agrees_with_the_exact_value(&["afrika:4x2", "--komi", "1.5"]);
    agrees_with_the_exact_value(&["afrika:4x1", "--rules", "giveaway"]);
    agrees_with_the_exact_value(&["progressive:7x1"]);
    agrees_with_the_exact_value(&["progressive:7x1", "--rules", "all"]);
    agrees_with_the_exact_value(&["positions/kauri/move-35.txt"]);
    agrees_with_the_exact_value(&["positions/kauri/move-35.txt", "--rules", "tiebreak"]);
}

#[test]
fn a_question_every_value_answers_alike_is_refused() {
    for (points, expect) in [
        (
            "1000",
            "no value of this position reaches it (the most it can end with is",
        ),
        (
            "-1000",
            "every value of this position reaches it (the least it can end with is",
        ),
        ("nan", "a number of points from -1000 to 1000"),
        ("1e9", "a number of points from -1000 to 1000"),
    ] {
        let o = mancala(&["solve", "kalah:4x3", "--at-least", points]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{points}: {err}");
        assert!(err.contains(expect), "{points}: {err}");
        assert!(!err.contains("panicked"), "{points}: {err}");
    }
    let o = mancala(&["solve", "kalah:4x3", "--at-least", "1", "--value-only"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot be used with"));
}
