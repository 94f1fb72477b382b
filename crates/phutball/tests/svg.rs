//! The board pictures: well-formed XML; the moves, removed men, highlights,
//! the turned board and the width they were asked for; errors for moves that
//! are not legal and points off the board.

use std::collections::BTreeSet;
use std::num::NonZeroU32;

use phutball::{
    svg_point_at, svg_point_centre, BoardSize, IllegalMoveError, Move, Point, Position, SvgOptions,
    SVG_CELL,
};

/// The seeds' worked example: three jump paths from K6.
const WORKED: &str = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O";

fn worked() -> Position {
    WORKED.parse().expect("the worked example parses")
}

fn mv(text: &str) -> Move {
    text.parse().expect("a move in notation")
}

fn point(text: &str) -> Point {
    text.parse().expect("a point in notation")
}

fn draw(pos: &Position, options: &SvgOptions) -> String {
    pos.svg(options)
        .expect("the options are fine for this position")
}

/// The elements of `doc` whose class is `class`.
fn by_class<'a>(doc: &'a roxmltree::Document<'_>, class: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .collect()
}

fn number(node: roxmltree::Node<'_, '_>, name: &str) -> f64 {
    node.attribute(name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("a number in attribute {name}"))
}

/// The `data-point` of each element of class `class`.
fn points_of(doc: &roxmltree::Document<'_>, class: &str) -> BTreeSet<Point> {
    by_class(doc, class)
        .iter()
        .map(|n| point(n.attribute("data-point").expect("a data-point")))
        .collect()
}

/// The centre each man and the ball are drawn at, by point.
fn centres(doc: &roxmltree::Document<'_>) -> Vec<(Point, (f64, f64))> {
    let mut out: Vec<_> = by_class(doc, "man")
        .into_iter()
        .chain(by_class(doc, "ball"))
        .map(|n| {
            let p = point(n.attribute("data-point").expect("a data-point"));
            (p, (number(n, "cx"), number(n, "cy")))
        })
        .collect();
    out.sort_by_key(|(p, _)| *p);
    out
}

#[test]
fn every_jump_path_is_one_group_of_arrows_along_its_landings() {
    let pos = worked();
    let paths = pos.jump_paths().expect("a small search");
    let svg = draw(
        &pos,
        &SvgOptions {
            moves: paths.clone(),
            ..SvgOptions::default()
        },
    );
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    let groups = by_class(&doc, "move");
    assert_eq!(groups.len(), paths.len());
    for (group, path) in groups.iter().zip(&paths) {
        assert_eq!(
            group.attribute("data-move"),
            Some(path.to_string().as_str())
        );
        let arrows = group.children().filter(|n| n.has_tag_name("line")).count();
        assert_eq!(arrows, path.path().len() - 1);
    }
    // One arrowhead per colour used, besides the last move's.
    let markers = doc
        .descendants()
        .filter(|n| n.has_tag_name("marker"))
        .count();
    assert_eq!(markers, 1 + paths.len());
}

#[test]
fn the_men_the_jumps_remove_are_crossed_out_once_each() {
    let pos = worked();
    for moves in [
        vec![mv("K6-G9")],
        vec![mv("K6-G9-G11"), mv("K6-G9")],
        pos.jump_paths().unwrap(),
    ] {
        let mut removed = BTreeSet::new();
        for m in &moves {
            let after = pos.play(m).expect("a legal move");
            removed.extend(pos.men().iter().filter(|&p| !after.has_man(p)));
        }
        let svg = draw(
            &pos,
            &SvgOptions {
                moves,
                ..SvgOptions::default()
            },
        );
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        assert_eq!(points_of(&doc, "removed"), removed);
    }
}

#[test]
fn a_placement_is_a_marked_point_and_removes_nobody() {
    let pos = worked();
    let svg = draw(
        &pos,
        &SvgOptions {
            moves: vec![mv("H9"), mv("K6-G9")],
            ..SvgOptions::default()
        },
    );
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    let groups = by_class(&doc, "move");
    assert_eq!(groups.len(), 2);
    assert_eq!(groups[0].attribute("data-move"), Some("H9"));
    assert!(groups[0].children().any(|n| n.has_tag_name("circle")));
    assert_eq!(by_class(&doc, "removed").len(), 2);
}

#[test]
fn flip_draws_each_point_where_its_half_turn_is_drawn_unflipped() {
    let pos = worked();
    let (cols, rows) = (pos.size().cols(), pos.size().rows());
    let turn = |p: Point| Point::new(cols - 1 - p.col(), rows + 1 - p.row()).expect("on the board");
    let plain = draw(&pos, &SvgOptions::default());
    let flipped = draw(
        &pos,
        &SvgOptions {
            flip: true,
            ..SvgOptions::default()
        },
    );
    let (plain, flipped) = (
        roxmltree::Document::parse(&plain).expect("well-formed XML"),
        roxmltree::Document::parse(&flipped).expect("well-formed XML"),
    );
    let plain_at: std::collections::BTreeMap<Point, (f64, f64)> =
        centres(&plain).into_iter().collect();
    // The turned position, drawn plainly, puts its men where the flipped
    // picture puts the original men.
    let turned = pos.mirror_columns().flip_rows();
    let turned_doc = draw(&turned, &SvgOptions::default());
    let turned_doc = roxmltree::Document::parse(&turned_doc).expect("well-formed XML");
    let turned_at: std::collections::BTreeMap<Point, (f64, f64)> =
        centres(&turned_doc).into_iter().collect();
    let flipped_at = centres(&flipped);
    assert_eq!(flipped_at.len(), plain_at.len());
    for (p, at) in flipped_at {
        assert_eq!(turned_at.get(&turn(p)), Some(&at), "{p}");
        assert_ne!(plain_at.get(&p), Some(&at), "{p} did not move");
    }
    // The coordinates turn too: P first along the top, row 0 first down the left side.
    assert_eq!(first_labels(&plain), ("A".to_string(), "20".to_string()));
    assert_eq!(first_labels(&flipped), ("P".to_string(), "0".to_string()));
}

/// The leftmost column letter along the top and the topmost row number on the left.
fn first_labels(doc: &roxmltree::Document<'_>) -> (String, String) {
    let labels = |anchor: &str| -> Vec<(f64, f64, String)> {
        doc.descendants()
            .filter(|n| n.has_tag_name("text") && n.attribute("text-anchor") == Some(anchor))
            .map(|n| {
                (
                    number(n, "x"),
                    number(n, "y"),
                    n.text().unwrap_or_default().to_string(),
                )
            })
            .collect()
    };
    let letters = labels("middle");
    let top = letters.iter().map(|l| l.1).fold(f64::INFINITY, f64::min);
    let letter = letters
        .iter()
        .filter(|l| (l.1 - top).abs() < 0.01)
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|l| l.2.clone())
        .expect("column letters");
    let row = labels("end")
        .into_iter()
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|l| l.2)
        .expect("row numbers");
    (letter, row)
}

#[test]
fn highlights_are_drawn_one_per_point() {
    let pos = worked();
    let highlight = vec![point("H10"), point("A1"), point("P20")];
    let svg = draw(
        &pos,
        &SvgOptions {
            highlight: highlight.clone(),
            ..SvgOptions::default()
        },
    );
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    assert_eq!(
        points_of(&doc, "highlight"),
        highlight.into_iter().collect()
    );
}

#[test]
fn the_width_sets_the_picture_size_and_keeps_its_proportions() {
    let pos = worked();
    let natural = draw(&pos, &SvgOptions::default());
    let natural = roxmltree::Document::parse(&natural).expect("well-formed XML");
    let root = natural.root_element();
    let view_box: Vec<f64> = root
        .attribute("viewBox")
        .expect("a viewBox")
        .split(' ')
        .map(|v| v.parse().expect("a number"))
        .collect();
    let (w, h) = (view_box[2], view_box[3]);
    for px in [100, 333, 1200] {
        let svg = draw(
            &pos,
            &SvgOptions {
                width: NonZeroU32::new(px),
                ..SvgOptions::default()
            },
        );
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let root = doc.root_element();
        assert_eq!(root.attribute("width"), Some(px.to_string().as_str()));
        assert!((number(root, "height") - f64::from(px) * h / w).abs() <= 0.5);
        assert_eq!(
            root.attribute("viewBox"),
            natural.root_element().attribute("viewBox")
        );
    }
}

#[test]
fn moves_that_are_not_legal_here_are_errors() {
    let pos = worked();
    let cases = [
        (
            "A1-Z9",
            IllegalMoveError::NotFromBall {
                ball: point("K6"),
                start: point("A1"),
            },
        ),
        (
            "K6-Z9",
            IllegalMoveError::Outside {
                point: point("Z9"),
                cols: 15,
                rows: 19,
            },
        ),
        (
            "K6-K8",
            IllegalMoveError::Gap {
                from: point("K6"),
                to: point("K8"),
                gap: point("K7"),
            },
        ),
        ("J7", IllegalMoveError::Occupied(point("J7"))),
        ("H20", IllegalMoveError::PlaceOffBoard(point("H20"))),
    ];
    for (text, error) in cases {
        let options = SvgOptions {
            moves: vec![mv("K6-G9"), mv(text)],
            ..SvgOptions::default()
        };
        assert_eq!(pos.svg(&options), Err(error), "{text}");
    }
    let off = |p: &str| IllegalMoveError::Outside {
        point: point(p),
        cols: 15,
        rows: 19,
    };
    let options = SvgOptions {
        highlight: vec![point("Q3")],
        ..SvgOptions::default()
    };
    assert_eq!(pos.svg(&options), Err(off("Q3")));
    let options = SvgOptions {
        last_move: Some(mv("A1-Z9")),
        ..SvgOptions::default()
    };
    assert_eq!(pos.svg(&options), Err(off("Z9")));
}

#[test]
fn a_jump_in_progress_draws_continuations_from_the_ball() {
    let jump = worked().apply_jump(point("G9")).expect("a legal jump");
    let options = SvgOptions {
        moves: vec![mv("G9-G11-J11")],
        ..SvgOptions::default()
    };
    let svg = jump.svg(&options).expect("a continuation");
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    assert_eq!(by_class(&doc, "move").len(), 1);
    assert_eq!(
        points_of(&doc, "removed"),
        [point("G10"), point("H11")].into_iter().collect()
    );
    assert!(svg.contains("(jumping)"));
    let place = SvgOptions {
        moves: vec![mv("A5")],
        ..SvgOptions::default()
    };
    assert_eq!(jump.svg(&place), Err(IllegalMoveError::JumpInProgress));
    let from_start = SvgOptions {
        moves: vec![mv("K6-G9")],
        ..SvgOptions::default()
    };
    assert!(matches!(
        jump.svg(&from_start),
        Err(IllegalMoveError::NotFromBall { .. })
    ));
}

#[test]
fn a_jump_in_progress_shows_the_men_it_removed_and_the_path_it_is_given() {
    let jump = worked()
        .apply_jump(point("G9"))
        .and_then(|j| j.apply_jump(point("G11")))
        .expect("a legal jump");
    let plain = jump.svg(&SvgOptions::default()).expect("a picture");
    let doc = roxmltree::Document::parse(&plain).expect("well-formed XML");
    assert_eq!(points_of(&doc, "jumped"), jump.removed().iter().collect());
    assert_eq!(points_of(&doc, "jumped").len(), 3);
    assert!(by_class(&doc, "last-move").is_empty());
    assert!(points_of(&doc, "removed").is_empty());
    let so_far = SvgOptions {
        last_move: Some(mv("K6-G9-G11")),
        ..SvgOptions::default()
    };
    let svg = jump.svg(&so_far).expect("the path so far");
    let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
    // One arrow a landing, starting where the ball started.
    let arrows = by_class(&doc, "last-move");
    assert_eq!(arrows.len(), 2);
    let start = centres(
        &roxmltree::Document::parse(&draw(&worked(), &SvgOptions::default())).expect("XML"),
    )
    .into_iter()
    .find(|(p, _)| *p == jump.start())
    .expect("the ball drawn at the start")
    .1;
    assert_eq!((number(arrows[0], "x1"), number(arrows[0], "y1")), start);
    let off = SvgOptions {
        last_move: Some(mv("K6-G9-Z9")),
        ..SvgOptions::default()
    };
    assert!(matches!(
        jump.svg(&off),
        Err(IllegalMoveError::Outside { .. })
    ));
}

#[test]
fn the_point_mapping_is_where_the_picture_draws_and_undoes_itself() {
    let pos = worked();
    for flip in [false, true] {
        let svg = draw(
            &pos,
            &SvgOptions {
                flip,
                ..SvgOptions::default()
            },
        );
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        for (p, (x, y)) in centres(&doc) {
            let (cx, cy) = svg_point_centre(p, pos.size(), flip).unwrap();
            assert!(
                (cx - x).abs() < 0.05 && (cy - y).abs() < 0.05,
                "{p}: {x},{y}"
            );
        }
    }
    let half = f64::from(SVG_CELL) / 2.0 - 0.5;
    for size in [
        BoardSize::STANDARD,
        BoardSize::new(1, 3).unwrap(),
        BoardSize::new(25, 25).unwrap(),
    ] {
        for flip in [false, true] {
            for col in 0..size.cols() {
                for row in 0..=size.rows() + 1 {
                    let p = Point::new(col, row).unwrap();
                    let (x, y) = svg_point_centre(p, size, flip).unwrap();
                    for (dx, dy) in [(0.0, 0.0), (half, -half), (-half, half)] {
                        assert_eq!(svg_point_at(x + dx, y + dy, size, flip), Some(p), "{p}");
                    }
                }
            }
            // A cell beyond the first and last columns and strips is off the board.
            let (left, top) =
                svg_point_centre(Point::new(0, size.rows() + 1).unwrap(), size, false).unwrap();
            let cell = f64::from(SVG_CELL);
            assert_eq!(svg_point_at(left - cell, top, size, flip), None);
            assert_eq!(svg_point_at(left, top - cell, size, flip), None);
            assert_eq!(svg_point_at(f64::NAN, top, size, flip), None);
            // A point of a wider board is refused.
            if let Some(beyond) = Point::new(size.cols(), 0) {
                assert!(matches!(
                    svg_point_centre(beyond, size, flip),
                    Err(IllegalMoveError::Outside { .. })
                ));
            }
        }
    }
}
