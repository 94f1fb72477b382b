//! Pictures of the board for notebooks and files: an SVG with coordinates,
//! the goal lines and off-board strips marked, the men, the ball and the side
//! to move, and on request moves drawn as arrows, the men they remove marked,
//! highlighted points, the last move, and the board turned for Eks.

use core::fmt::Write;
use core::num::NonZeroU32;

use crate::board::bitboard::Bitboard;
use crate::board::board_size::BoardSize;
use crate::board::point::{Point, Side};
use crate::error::IllegalMoveError;
use crate::jumps::jump_in_progress::JumpInProgress;
use crate::rules::moves::Move;
use crate::rules::position::Position;
use crate::step::state::StepState;

/// What a board picture shows besides the board itself
/// ([`StepState::svg`], [`Position::svg`], [`JumpInProgress::svg`]).
///
/// ```
/// use phutball::{Position, SvgOptions};
/// let pos: Position = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O".parse()?;
/// let options = SvgOptions { moves: pos.jump_paths()?, flip: true, ..SvgOptions::default() };
/// let svg = pos.svg(&options)?;
/// assert_eq!(svg.matches(r#"<g class="move""#).count(), 3);
/// assert!(pos.svg(&SvgOptions { moves: vec!["A1-Z9".parse()?], ..SvgOptions::default() }).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SvgOptions {
    /// Moves legal in the position, each drawn in its own colour: a jump as
    /// arrows from the ball along its landing points, a placement as a
    /// marked point. The men the jumps remove are crossed out.
    pub moves: Vec<Move>,
    /// The move that led to the position, drawn as arrows (a jump) or a ring
    /// (a placement) on the board as it is now; for a jump under way, the
    /// jump so far, from its start point to the ball. Only its points are
    /// checked: they must be points of the board.
    pub last_move: Option<Move>,
    /// Points to highlight.
    pub highlight: Vec<Point>,
    /// Draw the board turned 180 degrees, as Eks sees it (Eks's goal, row 1,
    /// at the top); the coordinates turn with it.
    pub flip: bool,
    /// The picture's width in pixels (the height keeps the board's
    /// proportions); `None` draws it [`SVG_CELL`] pixels between points.
    pub width: Option<NonZeroU32>,
}

/// The distance between points, in the picture's own units (and in pixels
/// when [`SvgOptions::width`] is `None`).
pub const SVG_CELL: u32 = 28;

/// The margin around the board (its off-board strips included), in the
/// picture's own units: 1.2 cells, room for the coordinates.
pub const SVG_MARGIN: f64 = 1.2 * SVG_CELL as f64;

/// Where `point` is drawn in the picture of a board of `size` (turned 180
/// degrees when `flip`, as [`SvgOptions::flip`]): the centre of its circle,
/// in the picture's own units (its `viewBox`, whatever its width).
///
/// ```
/// use phutball::{svg_point_at, svg_point_centre, BoardSize, Point, SVG_CELL, SVG_MARGIN};
/// let h10: Point = "H10".parse()?;
/// let (x, y) = svg_point_centre(h10, BoardSize::STANDARD, false)?;
/// assert_eq!(x, SVG_MARGIN + 7.0 * f64::from(SVG_CELL));
/// // A click near it, within half a cell, is on it.
/// assert_eq!(svg_point_at(x + 9.0, y - 9.0, BoardSize::STANDARD, false), Some(h10));
/// assert_eq!(svg_point_at(-50.0, y, BoardSize::STANDARD, false), None);
/// assert!(svg_point_centre("Z9".parse()?, BoardSize::STANDARD, false).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// [`IllegalMoveError::Outside`] for a point that is not one of the board's
/// (strips included).
pub fn svg_point_centre(
    point: Point,
    size: BoardSize,
    flip: bool,
) -> Result<(f64, f64), IllegalMoveError> {
    check_on_canvas(size, point)?;
    Ok(Frame::new(size, flip).at(point))
}

/// The point of a board of `size` (the off-board strips included) drawn
/// nearest to `(x, y)`, in the picture's own units, or `None` when that is
/// off the board: the inverse of [`svg_point_centre`], for a click on the
/// picture.
pub fn svg_point_at(x: f64, y: f64, size: BoardSize, flip: bool) -> Option<Point> {
    Frame::new(size, flip).point_at(x, y)
}

/// The widest picture [`SvgOptions::width`] asks for, in pixels: the one
/// range of the CLI's `svg --size` and Python's `size=` (C draws no pictures)
/// (1 to this), so that the height of the tallest board (1x25) still fits
/// a `u32`.
pub const SVG_MAX_WIDTH: u32 = 65_536;

/// A picture width outside 1 to [`SVG_MAX_WIDTH`] pixels.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the picture's width must be from 1 to {SVG_MAX_WIDTH} pixels, not {0}")]
pub struct SvgWidthError(pub String);

/// `px` as a picture width, if it is from 1 to [`SVG_MAX_WIDTH`]; `px` is
/// any integer the interface read (its text is in the error).
///
/// ```
/// use phutball::{svg_width, SVG_MAX_WIDTH};
/// assert_eq!(svg_width(600).unwrap().get(), 600);
/// assert!(svg_width(0).is_err());
/// assert!(svg_width(i128::from(SVG_MAX_WIDTH) + 1).is_err());
/// assert_eq!(svg_width(-3).unwrap_err().to_string(),
///            "the picture's width must be from 1 to 65536 pixels, not -3");
/// ```
///
/// # Errors
/// [`SvgWidthError`] for a width outside the range.
pub fn svg_width(px: i128) -> Result<NonZeroU32, SvgWidthError> {
    u32::try_from(px)
        .ok()
        .filter(|w| *w <= SVG_MAX_WIDTH)
        .and_then(NonZeroU32::new)
        .ok_or_else(|| SvgWidthError(px.to_string()))
}

/// Colours: wood board, darker off-board strips, red goal lines.
const BOARD: &str = "#e8c888";
const STRIP: &str = "#c9a66b";
const GRID: &str = "#5a4630";
const GOAL: &str = "#b22222";
const ARROW: &str = "#1f5fbf";
const HIGHLIGHT: &str = "#ffe14d";
const REMOVED: &str = "#d01c1c";
/// The men a jump under way has removed so far: crossed out more faintly
/// than the men the drawn moves would remove.
const JUMPED: &str = "#a07060";
/// The colours of [`SvgOptions::moves`], in turn; the first differs from the
/// last move's blue so both can be told apart.
const MOVE_COLOURS: [&str; 6] = [
    "#e8590c", "#2b8a3e", "#7048e8", "#c2255c", "#0c8599", "#5c940d",
];

impl StepState {
    /// An SVG picture of the board as it stands, with what `options` asks
    /// for; a jump under way is labelled "(jumping)", the men it has removed
    /// so far are crossed out (class `jumped`), its path so far is drawn when
    /// given as [`SvgOptions::last_move`], and its moves continue it from the
    /// ball.
    ///
    /// # Errors
    ///
    /// [`IllegalMoveError`] for the first of [`SvgOptions::moves`] that is not
    /// legal here (a placement while a jump is under way included), or a
    /// point of [`SvgOptions::last_move`] or [`SvgOptions::highlight`] that is
    /// not a point of the board.
    pub fn svg(&self, options: &SvgOptions) -> Result<String, IllegalMoveError> {
        let pos = self.position();
        let size = pos.size();
        let mut removed = Bitboard::EMPTY;
        for m in &options.moves {
            removed |= self.removed_by(m)?;
        }
        let last_points = options.last_move.iter().flat_map(Move::path);
        for &p in last_points.chain(&options.highlight) {
            check_on_canvas(size, p)?;
        }
        let frame = Frame::new(size, options.flip);
        let mut out = String::new();
        frame.open(&mut out, &pos, options.width, options.moves.len());
        frame.board(&mut out, size);
        frame.coordinates(&mut out, size);
        frame.highlights(&mut out, &options.highlight);
        frame.men_and_ball(&mut out, &pos);
        if let StepState::Jump(jump) = self {
            frame.crosses(&mut out, jump.removed(), "jumped", JUMPED);
        }
        frame.crosses(&mut out, removed, "removed", REMOVED);
        if let Some(m) = &options.last_move {
            frame.last_move(&mut out, m);
        }
        for (i, m) in options.moves.iter().enumerate() {
            frame.draw_move(&mut out, m, i, options.moves.len());
        }
        let status = match self.winner() {
            Some(winner) => format!("Game over: {} ({winner}) has won", winner.name()),
            None if self.is_mid_jump() => {
                format!("{} to move (jumping)", side_label(pos.to_move()))
            }
            None => format!("{} to move", side_label(pos.to_move())),
        };
        frame.close(&mut out, &status);
        Ok(out)
    }

    /// The men `m` removes, or why it is not legal here.
    fn removed_by(&self, m: &Move) -> Result<Bitboard, IllegalMoveError> {
        match (self, m) {
            (StepState::Move(pos), Move::Place(_)) => {
                pos.check_move(m)?;
                Ok(Bitboard::EMPTY)
            }
            (StepState::Move(pos), Move::Jump(path)) => Ok(pos.jump_along(path)?.removed()),
            (StepState::Jump(_), Move::Place(_)) => Err(IllegalMoveError::JumpInProgress),
            (StepState::Jump(jump), Move::Jump(path)) => {
                let landings = crate::rules::moves::landings_from(jump.position().ball(), path)?;
                Ok(jump.jump_along(landings)?.removed() - jump.removed())
            }
        }
    }
}

impl Position {
    /// An SVG picture of the position: [`StepState::svg`].
    ///
    /// # Errors
    ///
    /// As [`StepState::svg`].
    pub fn svg(&self, options: &SvgOptions) -> Result<String, IllegalMoveError> {
        StepState::Move(*self).svg(options)
    }
}

impl JumpInProgress {
    /// An SVG picture of the board as it stands: [`StepState::svg`].
    ///
    /// # Errors
    ///
    /// As [`StepState::svg`].
    pub fn svg(&self, options: &SvgOptions) -> Result<String, IllegalMoveError> {
        StepState::Jump(*self).svg(options)
    }
}

/// `p` is a point of a board of `size` (strips included), or the error.
fn check_on_canvas(size: BoardSize, p: Point) -> Result<(), IllegalMoveError> {
    if size.contains(p) {
        Ok(())
    } else {
        Err(IllegalMoveError::Outside {
            point: p,
            cols: size.cols(),
            rows: size.rows(),
        })
    }
}

/// Where things go: the picture's size and the centre of every point.
struct Frame {
    /// Units between points.
    s: f64,
    cols: f64,
    rows: f64,
    flip: bool,
    /// Around the board, for the coordinates.
    margin: f64,
    /// Below the board, for the status line.
    caption: f64,
    width: f64,
    height: f64,
}

// Writing to a `String` cannot fail: the `fmt::Result`s are dropped.
impl Frame {
    fn new(size: BoardSize, flip: bool) -> Frame {
        let s = f64::from(SVG_CELL);
        let (cols, rows) = (f64::from(size.cols()), f64::from(size.rows()));
        let margin = SVG_MARGIN;
        let caption = s * 1.1;
        Frame {
            s,
            cols,
            rows,
            flip,
            margin,
            caption,
            width: margin * 2.0 + (cols - 1.0) * s,
            height: margin * 2.0 + (rows + 1.0) * s + caption,
        }
    }

    /// The x of the column drawn `col` places from the left.
    fn x(&self, col: f64) -> f64 {
        self.margin + col * self.s
    }

    /// The y of the row drawn `row` places up from the bottom strip.
    fn y(&self, row: f64) -> f64 {
        self.margin + (self.rows + 1.0 - row) * self.s
    }

    /// Where point `p` is drawn: `p` itself, or its turn by 180 degrees.
    fn place(&self, p: Point) -> (f64, f64) {
        let (col, row) = (f64::from(p.col()), f64::from(p.row()));
        if self.flip {
            (self.cols - 1.0 - col, self.rows + 1.0 - row)
        } else {
            (col, row)
        }
    }

    /// The centre of point `p`.
    fn at(&self, p: Point) -> (f64, f64) {
        let (col, row) = self.place(p);
        (self.x(col), self.y(row))
    }

    /// The point whose centre is nearest to `(x, y)`, if it is one of the
    /// board's: [`Frame::x`], [`Frame::y`] and [`Frame::place`] undone.
    fn point_at(&self, x: f64, y: f64) -> Option<Point> {
        let col = ((x - self.margin) / self.s).round();
        let row = self.rows + 1.0 - ((y - self.margin) / self.s).round();
        let (col, row) = if self.flip {
            (self.cols - 1.0 - col, self.rows + 1.0 - row)
        } else {
            (col, row)
        };
        // NaN fails both tests too.
        if !(0.0..self.cols).contains(&col) || !(0.0..=self.rows + 1.0).contains(&row) {
            return None;
        }
        // Whole numbers within the board's range (at most 26): exact in a u8.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Point::new(col as u8, row as u8)
    }

    /// The `<svg>` element, its title (the position string), the arrowheads
    /// (the last move's and one per colour of `moves` moves) and the white
    /// background.
    fn open(&self, w: &mut String, pos: &Position, width_px: Option<NonZeroU32>, moves: usize) {
        let (width, height) = (self.width, self.height);
        let (shown_width, shown_height) = match width_px {
            Some(px) => {
                let px = f64::from(px.get());
                (px, (px * height / width).round().max(1.0))
            }
            None => (width.round(), height.round()),
        };
        let _ = writeln!(
            w,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{shown_width:.0}" height="{shown_height:.0}" viewBox="0 0 {width:.1} {height:.1}" font-family="sans-serif" font-size="{fs:.1}">"#,
            fs = self.s * 0.45
        );
        let _ = writeln!(w, "<title>{pos}</title>");
        w.push_str("<defs>");
        arrowhead(w, "arrowhead", ARROW);
        for (i, colour) in MOVE_COLOURS.iter().enumerate().take(moves) {
            arrowhead(w, &format!("arrowhead-{i}"), colour);
        }
        w.push_str("</defs>\n");
        let _ = writeln!(
            w,
            r#"<rect x="0" y="0" width="{width:.1}" height="{height:.1}" fill="white"/>"#
        );
    }

    /// The playing area (rows 1..R), the two off-board strips, and the grid
    /// lines: columns across the whole board, rows; goal lines in red. All
    /// of it looks the same turned by 180 degrees.
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

    /// Coordinates on all four sides, where their points are drawn.
    fn coordinates(&self, w: &mut String, size: BoardSize) {
        let (s, margin) = (self.s, self.margin);
        for c in 0..size.cols() {
            let Some(p) = Point::new(c, 1) else { continue };
            let letter = p.column_letter();
            let (x, _) = self.at(p);
            for ty in [margin * 0.45, self.y(0.0) + margin * 0.75] {
                let _ = writeln!(
                    w,
                    r#"<text x="{x:.1}" y="{ty:.1}" text-anchor="middle" fill="{GRID}">{letter}</text>"#
                );
            }
        }
        for r in 0..=size.rows() + 1 {
            let Some(p) = Point::new(0, r) else { continue };
            let (_, y) = self.at(p);
            let ty = y + s * 0.15;
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

    /// A square behind each highlighted point.
    fn highlights(&self, w: &mut String, points: &[Point]) {
        let half = self.s * 0.5;
        for &p in points {
            let (cx, cy) = self.at(p);
            let _ = writeln!(
                w,
                r#"<rect class="highlight" data-point="{p}" x="{:.1}" y="{:.1}" width="{side:.1}" height="{side:.1}" fill="{HIGHLIGHT}" fill-opacity="0.75"/>"#,
                cx - half,
                cy - half,
                side = self.s
            );
        }
    }

    fn men_and_ball(&self, w: &mut String, pos: &Position) {
        let radius = self.radius();
        for p in pos.men() {
            let (cx, cy) = self.at(p);
            let _ = writeln!(
                w,
                r#"<circle class="man" data-point="{p}" cx="{cx:.1}" cy="{cy:.1}" r="{radius:.1}" fill="rgb(34,34,34)" stroke="black"/>"#
            );
        }
        let ball = pos.ball();
        let (bx, by) = self.at(ball);
        let _ = writeln!(
            w,
            r#"<circle class="ball" data-point="{ball}" cx="{bx:.1}" cy="{by:.1}" r="{radius:.1}" fill="white" stroke="black" stroke-width="2"/>"#
        );
        let _ = writeln!(
            w,
            r#"<circle cx="{bx:.1}" cy="{by:.1}" r="{:.1}" fill="none" stroke="black" stroke-width="1"/>"#,
            radius * 0.45
        );
    }

    /// A cross of `colour` and `class` over each point of `points` (men removed).
    fn crosses(&self, w: &mut String, points: Bitboard, class: &str, colour: &str) {
        let d = self.radius() * 0.7;
        for p in points {
            let (cx, cy) = self.at(p);
            let _ = writeln!(
                w,
                r#"<path class="{class}" data-point="{p}" d="M{:.1},{:.1} L{:.1},{:.1} M{0:.1},{3:.1} L{2:.1},{1:.1}" stroke="{colour}" stroke-width="{:.1}" stroke-linecap="round"/>"#,
                cx - d,
                cy - d,
                cx + d,
                cy + d,
                self.s * 0.14
            );
        }
    }

    /// Arrows along a jump path, each stopping short of its landing point so
    /// its head stays visible, and moved `offset` units to its left so that
    /// moves sharing a jump show side by side.
    fn arrows(&self, w: &mut String, path: &[Point], attributes: &str, style: (&str, &str, f64)) {
        let (colour, head, offset) = style;
        let radius = self.radius();
        for pair in path.windows(2) {
            let ((x1, y1), (x2, y2)) = (self.at(pair[0]), self.at(pair[1]));
            let (dx, dy) = (x2 - x1, y2 - y1);
            let len = (dx * dx + dy * dy).sqrt().max(1.0);
            let shorten = radius * 1.05 / len;
            let (ox, oy) = (dy / len * offset, -dx / len * offset);
            let _ = writeln!(
                w,
                r#"<line{attributes} x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="{colour}" stroke-width="{:.1}" marker-end="url(#{head})"/>"#,
                x1 + ox,
                y1 + oy,
                x2 - dx * shorten + ox,
                y2 - dy * shorten + oy,
                self.s * 0.12
            );
        }
    }

    /// A ring round a placement point.
    fn ring(&self, w: &mut String, p: Point, attributes: &str, colour: &str) {
        let (cx, cy) = self.at(p);
        let _ = writeln!(
            w,
            r#"<circle{attributes} cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="none" stroke="{colour}" stroke-width="{:.1}"/>"#,
            self.radius() * 1.2,
            self.s * 0.1
        );
    }

    /// The last move: arrows along the jump path, or a ring round the placement.
    fn last_move(&self, w: &mut String, last: &Move) {
        let class = r#" class="last-move""#;
        match last {
            Move::Jump(path) => self.arrows(w, path, class, (ARROW, "arrowhead", 0.0)),
            Move::Place(p) => self.ring(w, *p, class, ARROW),
        }
    }

    /// Move number `i` of `count`, one group: its arrows, or a ring round
    /// its placement point with a dot in it. Each colour has its own lane.
    fn draw_move(&self, w: &mut String, m: &Move, i: usize, count: usize) {
        let slot = i % MOVE_COLOURS.len();
        let lanes = count.min(MOVE_COLOURS.len());
        let colour = MOVE_COLOURS[slot];
        let _ = writeln!(w, r#"<g class="move" data-move="{m}">"#);
        match m {
            Move::Jump(path) => {
                let head = format!("arrowhead-{slot}");
                let offset = (slot as f64 - (lanes as f64 - 1.0) / 2.0) * self.s * 0.1;
                self.arrows(w, path, "", (colour, &head, offset));
            }
            Move::Place(p) => {
                self.ring(w, *p, "", colour);
                let (cx, cy) = self.at(*p);
                let _ = writeln!(
                    w,
                    r#"<circle cx="{cx:.1}" cy="{cy:.1}" r="{:.1}" fill="{colour}"/>"#,
                    self.radius() * 0.35
                );
            }
        }
        w.push_str("</g>\n");
    }

    /// The status line under the board, and the end of the `<svg>`. Its
    /// letters shrink to fit narrow boards (about 0.55 em a letter).
    fn close(&self, w: &mut String, status: &str) {
        let fits = self.width * 0.95 / (status.chars().count().max(1) as f64 * 0.55);
        let _ = writeln!(
            w,
            r#"<text class="status" x="{:.1}" y="{:.1}" text-anchor="middle" font-size="{:.1}" fill="black">{status}</text>"#,
            self.width / 2.0,
            self.height - self.caption * 0.4,
            (self.s * 0.55).min(fits)
        );
        w.push_str("</svg>\n");
    }
}

/// An arrowhead marker `id` in `colour`.
fn arrowhead(w: &mut String, id: &str, colour: &str) {
    let _ = write!(
        w,
        r#"<marker id="{id}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>"#
    );
}

fn side_label(side: Side) -> String {
    let goal = match side {
        Side::Ohs => "top",
        Side::Eks => "bottom",
    };
    format!("{} ({side}, attacks the {goal})", side.name())
}
