//! Error messages about huge input stay short: a bad field is quoted up to
//! about 60 characters, then cut with its length, whatever parser met it.

use phutball::{BoardSize, Game, Move, Point, Position};

const START: &str = "15/15/15/15/15/15/15/15/15/7@7/15/15/15/15/15/15/15/15/15 O";

/// Checks that `message` quotes a cut field and says how long it was.
fn assert_cut(message: &str, length: usize) {
    assert!(
        message.len() < 400,
        "{} characters: {}...",
        message.len(),
        &message[..200]
    );
    assert!(
        message.contains(&format!("... ({length} characters)")),
        "{message}"
    );
}

#[test]
fn long_fields_are_quoted_cut() {
    let long = "x".repeat(5000);
    let zeros = "0".repeat(5000);
    for (text, length) in [
        (format!("15/15/15 {long}"), 5000),
        (format!("3/1@1/3 O H1 {long}"), 5000),
        (format!("3/1@1/3 O A{long}"), 5001),
        (format!("3/3/3 O {long}"), 5000),
        (format!("{zeros}#/3/3 O"), 5000),
    ] {
        let e = text.parse::<Position>().unwrap_err();
        assert_cut(&e.to_string(), length);
    }
    assert_cut(&long.parse::<Point>().unwrap_err().to_string(), 5000);
    assert_cut(
        &format!("I{long}").parse::<Point>().unwrap_err().to_string(),
        5001,
    );
    let e = format!("H1-{long}")
        .parse::<Move>()
        .unwrap_err()
        .to_string();
    assert_cut(&e, 5003);
    assert_cut(&long.parse::<BoardSize>().unwrap_err().to_string(), 5000);
    for record in [
        format!("start {START}\nrules {long}\n"),
        format!("start {START}\nrules first-player={long}\n"),
        format!("start {START}\nlimit {long}\n"),
    ] {
        assert_cut(&record.parse::<Game>().unwrap_err().to_string(), 5000);
    }
}

#[test]
fn short_fields_are_quoted_whole_and_cuts_fall_between_characters() {
    let e = "3/1@1/3 Q".parse::<Position>().unwrap_err().to_string();
    assert!(e.contains("not \"Q\""), "{e}");
    assert!(!e.contains("characters)"), "{e}");
    // 61 characters of two bytes each: the cut keeps 60 whole ones.
    let wide = "é".repeat(61);
    let e = format!("3/1@1/3 {wide}")
        .parse::<Position>()
        .unwrap_err()
        .to_string();
    assert!(e.contains(&format!("{:?}...", "é".repeat(60))), "{e}");
    assert!(e.contains("(61 characters)"), "{e}");
    // Exactly 60: quoted whole.
    let e = format!("3/1@1/3 {}", "é".repeat(60))
        .parse::<Position>()
        .unwrap_err()
        .to_string();
    assert!(!e.contains("characters)"), "{e}");
}
