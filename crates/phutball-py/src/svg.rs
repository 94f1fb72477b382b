//! The notebook picture of a position: an SVG board with coordinates, the
//! goal lines and off-board strips marked, the men, the ball, the side to
//! move and optionally the last move.

use std::fmt::Write;

use phutball::{BoardSize, Move, Point, Position, Side, StepState};

/// Colours: wood board, darker off-board strips, red goal lines.
const BOARD: &str = "#e8c888";
const STRIP: &str = "#c9a66b";
const GRID: &str = "#5a4630";
const GOAL: &str = "#b22222";
const ARROW: &str = "#1f5fbf";

/// The SVG of the board of `state`, `cell` pixels between points, with
/// `last` drawn if given; a jump under way is labelled "(jumping)".
pub(crate) fn position_svg(state: &StepState, last: Option<&Move>, cell: u32) -> String {
    let pos = state.position();
    let frame = Frame::new(pos.size(), cell);
    let mut out = String::new();
    frame.open(&mut out, &pos);
    frame.board(&mut out, pos.size());
    frame.coordinates(&mut out, pos.size());
    frame.men_and_ball(&mut out, &pos);
    if let Some(m) = last {
        frame.last_move(&mut out, m);
    }
    let status = match state.winner() {
        Some(side) => format!("Game over: {} ({side}) has won", side.name()),
        None if state.is_mid_jump() => format!("{} to move (jumping)", side_label(pos.to_move())),
        None => format!("{} to move", side_label(pos.to_move())),
    };
    frame.close(&mut out, &status);
    out
}

/// Where things go: the picture's size and the centre of every point.
struct Frame {
    /// Pixels between points (at least 8).
    s: f64,
    cols: f64,
    rows: f64,
    /// Around the board, for the coordinates.
    margin: f64,
    /// Below the board, for the status line.
    caption: f64,
    width: f64,
    height: f64,
}

// Writing to a `String` cannot fail: the `fmt::Result`s are dropped.
impl Frame {
    fn new(size: BoardSize, cell: u32) -> Frame {
        let s = f64::from(cell.max(8));
        let (cols, rows) = (f64::from(size.cols()), f64::from(size.rows()));
        let margin = s * 1.2;
        let caption = s * 1.1;
        Frame {
            s,
            cols,
            rows,
            margin,
            caption,
            width: margin * 2.0 + (cols - 1.0) * s,
            height: margin * 2.0 + (rows + 1.0) * s + caption,
        }
    }

    /// The x of column `col`.
    fn x(&self, col: f64) -> f64 {
        self.margin + col * self.s
    }

    /// The y of row `row`: row R+1 at the top.
    fn y(&self, row: f64) -> f64 {
        self.margin + (self.rows + 1.0 - row) * self.s
    }

    /// The centre of point `p`.
    fn at(&self, p: Point) -> (f64, f64) {
        (self.x(f64::from(p.col())), self.y(f64::from(p.row())))
    }

    /// The `<svg>` element, its title (the position string), the arrowhead
    /// and the white background.
    fn open(&self, w: &mut String, pos: &Position) {
        let (width, height) = (self.width, self.height);
        let _ = writeln!(
            w,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.1} {height:.1}" font-family="sans-serif" font-size="{fs:.1}">"#,
            fs = self.s * 0.45
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
    }

    /// The playing area (rows 1..R), the two off-board strips, and the grid
    /// lines: columns across the whole board, rows; goal lines in red.
    fn board(&self, w: &mut String, size: BoardSize) {
        let (s, cols, rows) = (self.s, self.cols, self.rows);
        let half = s / 2.0;
        let left = self.x(0.0) - half;
        let span = (cols - 1.0) * s + s;
        let _ = writeln!(
            w,
            r#"<rect x="{left:.1}" y="{:.1}" width="{span:.1}" height="{:.1}" fill="{BOARD}"/>"#,
            self.y(rows) - half,
            rows * s
        );
        for row in [rows + 1.0, 0.0] {
            let _ = writeln!(
                w,
                r#"<rect class="off-board" x="{left:.1}" y="{:.1}" width="{span:.1}" height="{s:.1}" fill="{STRIP}"/>"#,
                self.y(row) - half
            );
        }
        for c in 0..size.cols() {
            let _ = writeln!(
                w,
                r#"<line x1="{0:.1}" y1="{1:.1}" x2="{0:.1}" y2="{2:.1}" stroke="{GRID}" stroke-width="1"/>"#,
                self.x(f64::from(c)),
                self.y(rows + 1.0),
                self.y(0.0)
            );
        }
        for r in 0..=size.rows() + 1 {
            let goal = r == 1 || r == size.rows();
            let (colour, width_px, class) = if goal {
                (GOAL, 3.0, r#" class="goal-line""#)
            } else {
                (GRID, 1.0, "")
            };
            let _ = writeln!(
                w,
                r#"<line{class} x1="{:.1}" y1="{2:.1}" x2="{:.1}" y2="{2:.1}" stroke="{colour}" stroke-width="{width_px}"/>"#,
                self.x(0.0),
                self.x(cols - 1.0),
                self.y(f64::from(r))
            );
        }
    }

    /// Coordinates on all four sides.
    fn coordinates(&self, w: &mut String, size: BoardSize) {
        let (s, margin) = (self.s, self.margin);
        for c in 0..size.cols() {
            let letter = Point::new(c, 1).map_or('?', phutball::Point::column_letter);
            for ty in [margin * 0.45, self.y(0.0) + margin * 0.75] {
                let _ = writeln!(
                    w,
                    r#"<text x="{:.1}" y="{ty:.1}" text-anchor="middle" fill="{GRID}">{letter}</text>"#,
                    self.x(f64::from(c))
                );
            }
        }
        for r in 0..=size.rows() + 1 {
            let ty = self.y(f64::from(r)) + s * 0.15;
            let _ = writeln!(
                w,
                r#"<text x="{:.1}" y="{ty:.1}" text-anchor="end" fill="{GRID}">{r}</text>"#,
                margin - s * 0.6
            );
            let _ = writeln!(
                w,
                r#"<text x="{:.1}" y="{ty:.1}" text-anchor="start" fill="{GRID}">{r}</text>"#,
                self.x(self.cols - 1.0) + s * 0.6
            );
        }
    }

    /// The radius of a man or the ball.
    fn radius(&self) -> f64 {
        self.s * 0.42
    }

    fn men_and_ball(&self, w: &mut String, pos: &Position) {
        let radius = self.radius();
        for p in pos.men() {
            let (cx, cy) = self.at(p);
            let _ = writeln!(
                w,
                r#"<circle class="man" cx="{cx:.1}" cy="{cy:.1}" r="{radius:.1}" fill="rgb(34,34,34)" stroke="black"/>"#
            );
        }
        let (bx, by) = self.at(pos.ball());
        let _ = writeln!(
            w,
            r#"<circle class="ball" cx="{bx:.1}" cy="{by:.1}" r="{radius:.1}" fill="white" stroke="black" stroke-width="2"/>"#
        );
        let _ = writeln!(
            w,
            r#"<circle cx="{bx:.1}" cy="{by:.1}" r="{:.1}" fill="none" stroke="black" stroke-width="1"/>"#,
            radius * 0.45
        );
    }

    /// The last move: arrows along the jump path, or a ring round the placement.
    fn last_move(&self, w: &mut String, last: &Move) {
        let (s, radius) = (self.s, self.radius());
        match last {
            Move::Jump(path) => {
                for pair in path.windows(2) {
                    let ((x1, y1), (x2, y2)) = (self.at(pair[0]), self.at(pair[1]));
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
            Move::Place(p) => {
                let (cx, cy) = self.at(*p);
                let _ = writeln!(
                    w,
                    r#"<circle class="last-move" cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="none" stroke="{ARROW}" stroke-width="{:.1}"/>"#,
                    radius * 1.2,
                    s * 0.1
                );
            }
        }
    }

    /// The status line under the board, and the end of the `<svg>`.
    fn close(&self, w: &mut String, status: &str) {
        let _ = writeln!(
            w,
            r#"<text class="status" x="{:.1}" y="{:.1}" text-anchor="middle" font-size="{:.1}" fill="black">{status}</text>"#,
            self.width / 2.0,
            self.height - self.caption * 0.4,
            self.s * 0.55
        );
        w.push_str("</svg>\n");
    }
}

fn side_label(side: Side) -> String {
    let goal = match side {
        Side::Ohs => "top",
        Side::Eks => "bottom",
    };
    format!("{} ({side}, attacks the {goal})", side.name())
}
