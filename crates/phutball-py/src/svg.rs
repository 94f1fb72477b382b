//! The notebook picture of a position: an SVG board with coordinates, the
//! goal lines and off-board strips marked, the men, the ball, the side to
//! move and optionally the last move.

use std::fmt::Write;

use phutball::{Move, Point, Side, StepState};

/// Colours: wood board, darker off-board strips, red goal lines.
const BOARD: &str = "#e8c888";
const STRIP: &str = "#c9a66b";
const GRID: &str = "#5a4630";
const GOAL: &str = "#b22222";
const ARROW: &str = "#1f5fbf";

/// The SVG of the board of `state`, `cell` pixels between points, with
/// `last` drawn if given; a jump under way is labelled "(jumping)".
// Long: issue 10 item 5 splits the long functions (another branch).
// s (the cell size), x, y (its coordinates) and w (the writer) are the
// drawing's short names, read more easily than long ones in the formulas.
#[allow(clippy::too_many_lines, clippy::many_single_char_names)]
pub(crate) fn position_svg(state: &StepState, last: Option<&Move>, cell: u32) -> String {
    let pos = &state.position();
    let s = f64::from(cell.max(8));
    let (cols, rows) = (f64::from(pos.size().cols()), f64::from(pos.size().rows()));
    let margin = s * 1.2;
    let caption = s * 1.1;
    let width = margin * 2.0 + (cols - 1.0) * s;
    let height = margin * 2.0 + (rows + 1.0) * s + caption;
    // Centre of point (col, row): row R+1 at the top.
    let x = |col: f64| margin + col * s;
    let y = |row: f64| margin + (rows + 1.0 - row) * s;
    let at = |p: Point| (x(f64::from(p.col())), y(f64::from(p.row())));

    let mut out = String::new();
    let w = &mut out;
    let _ = writeln!(
        w,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}" font-family="sans-serif" font-size="{fs:.1}">"#,
        fs = s * 0.45
    );
    let _ = writeln!(w, "<title>{pos}</title>");
    let _ = writeln!(
        w,
        r#"<defs><marker id="arrowhead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{ARROW}"/></marker></defs>"#
    );
    let _ = writeln!(
        w,
        r#"<rect x="0" y="0" width="{width:.1}" height="{height:.1}" fill="white"/>"#
    );
    // The playing area (rows 1..R) and the two off-board strips.
    let half = s / 2.0;
    let left = x(0.0) - half;
    let span = (cols - 1.0) * s + s;
    let _ = writeln!(
        w,
        r#"<rect x="{left:.1}" y="{:.1}" width="{span:.1}" height="{:.1}" fill="{BOARD}"/>"#,
        y(rows) - half,
        rows * s
    );
    for row in [rows + 1.0, 0.0] {
        let _ = writeln!(
            w,
            r#"<rect class="off-board" x="{left:.1}" y="{:.1}" width="{span:.1}" height="{s:.1}" fill="{STRIP}"/>"#,
            y(row) - half
        );
    }
    // Grid lines: columns across the whole board, rows; goal lines in red.
    for c in 0..pos.size().cols() {
        let _ = writeln!(
            w,
            r#"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="{GRID}" stroke-width="1"/>"#,
            x(f64::from(c)),
            y(rows + 1.0),
            y(0.0)
        );
    }
    for r in 0..=pos.size().rows() + 1 {
        let goal = r == 1 || r == pos.size().rows();
        let (colour, width_px, class) = if goal {
            (GOAL, 3.0, r#" class="goal-line""#)
        } else {
            (GRID, 1.0, "")
        };
        let _ = writeln!(
            w,
            r#"<line{class} x1="{:.1}" y1="{2:.1}" x2="{:.1}" y2="{2:.1}" stroke="{colour}" stroke-width="{width_px}"/>"#,
            x(0.0),
            x(cols - 1.0),
            y(f64::from(r))
        );
    }
    // Coordinates on all four sides.
    for c in 0..pos.size().cols() {
        let letter = Point::new(c, 1).map_or('?', Point::column_letter);
        for ty in [margin * 0.45, y(0.0) + margin * 0.75] {
            let _ = writeln!(
                w,
                r#"<text x="{:.1}" y="{ty:.1}" text-anchor="middle" fill="{GRID}">{letter}</text>"#,
                x(f64::from(c))
            );
        }
    }
    for r in 0..=pos.size().rows() + 1 {
        let ty = y(f64::from(r)) + s * 0.15;
        let _ = writeln!(
            w,
            r#"<text x="{:.1}" y="{ty:.1}" text-anchor="end" fill="{GRID}">{r}</text>"#,
            margin - s * 0.6
        );
        let _ = writeln!(
            w,
            r#"<text x="{:.1}" y="{ty:.1}" text-anchor="start" fill="{GRID}">{r}</text>"#,
            x(cols - 1.0) + s * 0.6
        );
    }
    // Men and ball.
    let radius = s * 0.42;
    for p in pos.men() {
        let (cx, cy) = at(p);
        let _ = writeln!(
            w,
            r#"<circle class="man" cx="{cx:.1}" cy="{cy:.1}" r="{radius:.1}" fill="rgb(34,34,34)" stroke="black"/>"#
        );
    }
    let (bx, by) = at(pos.ball());
    let _ = writeln!(
        w,
        r#"<circle class="ball" cx="{bx:.1}" cy="{by:.1}" r="{radius:.1}" fill="white" stroke="black" stroke-width="2"/>"#
    );
    let _ = writeln!(
        w,
        r#"<circle cx="{bx:.1}" cy="{by:.1}" r="{:.1}" fill="none" stroke="black" stroke-width="1"/>"#,
        radius * 0.45
    );
    // The last move: arrows along the jump path, or a ring round the placement.
    match last {
        Some(Move::Jump(path)) => {
            for pair in path.windows(2) {
                let ((x1, y1), (x2, y2)) = (at(pair[0]), at(pair[1]));
                // Stop short of the landing point so the head stays visible.
                let (dx, dy) = (x2 - x1, y2 - y1);
                let len = (dx * dx + dy * dy).sqrt().max(1.0);
                let shorten = radius * 1.05 / len;
                let _ = writeln!(
                    w,
                    r#"<line class="last-move" x1="{x1:.1}" y1="{y1:.1}" x2="{:.1}" y2="{:.1}" stroke="{ARROW}" stroke-width="{:.1}" marker-end="url(#arrowhead)"/>"#,
                    x2 - dx * shorten,
                    y2 - dy * shorten,
                    s * 0.12
                );
            }
        }
        Some(Move::Place(p)) => {
            let (cx, cy) = at(*p);
            let _ = writeln!(
                w,
                r#"<circle class="last-move" cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="none" stroke="{ARROW}" stroke-width="{:.1}"/>"#,
                radius * 1.2,
                s * 0.1
            );
        }
        None => {}
    }
    let status = match state.winner() {
        Some(side) => format!("Game over: {} ({side}) has won", side.name()),
        None if state.is_mid_jump() => format!("{} to move (jumping)", side_label(pos.to_move())),
        None => format!("{} to move", side_label(pos.to_move())),
    };
    let _ = writeln!(
        w,
        r#"<text class="status" x="{:.1}" y="{:.1}" text-anchor="middle" font-size="{:.1}" fill="black">{status}</text>"#,
        width / 2.0,
        height - caption * 0.4,
        s * 0.55
    );
    out.push_str("</svg>\n");
    out
}

fn side_label(side: Side) -> String {
    let goal = match side {
        Side::Ohs => "top",
        Side::Eks => "bottom",
    };
    format!("{} ({side}, attacks the {goal})", side.name())
}
