//! Plain values shared with C: points, sides, rule options, game results,
//! and their conversions to and from the core's types.

use core::ffi::c_char;

use phutball::{Point, Rules, Side, MAX_COLS, MAX_ROWS};

use crate::buffers::{copy_text, str_arg, write_out};
use crate::guard::ffi_call;
use crate::status::{Failure, FfiResult, PhutballStatus};

/// A point: `col` is 0-based (`A` = 0, `H` = 7, `J` = 8: there is no column I),
/// `row` is the row as written in notation (`0` and `rows + 1` are the
/// off-board strips, `1` and `rows` the goal lines). `H10` is `{7, 10}`.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PhutballPoint {
    /// Column, 0-based, I skipped.
    pub col: u8,
    /// Row as in notation.
    pub row: u8,
}

/// A player, or no player. Values are the `PHUTBALL_SIDE_*` constants; a side
/// passed in that is neither Ohs nor Eks is an invalid argument.
pub type PhutballSide = u8;
/// Ohs (`O`): moves first by default and scores at the top (rows `rows` and `rows + 1`).
pub const PHUTBALL_SIDE_OHS: PhutballSide = 0;
/// Eks (`X`): scores at the bottom (rows 1 and 0).
pub const PHUTBALL_SIDE_EKS: PhutballSide = 1;
/// No side: written by `phutball_position_winner` when nobody has won.
pub const PHUTBALL_SIDE_NONE: PhutballSide = 2;

/// How a game stands. Values are the `PHUTBALL_RESULT_*` constants.
pub type PhutballGameResult = u8;
/// The game goes on.
pub const PHUTBALL_RESULT_ONGOING: PhutballGameResult = 0;
/// Ohs has scored.
pub const PHUTBALL_RESULT_OHS_WON: PhutballGameResult = 1;
/// Eks has scored.
pub const PHUTBALL_RESULT_EKS_WON: PhutballGameResult = 2;
/// The move limit was reached without a goal.
pub const PHUTBALL_RESULT_DRAW: PhutballGameResult = 3;

/// An engine's kind of evaluation. Values are the `PHUTBALL_EVALUATION_*`
/// constants; any other value passed in is an invalid argument.
pub type PhutballEvaluation = u8;
/// The default: the network built in on the standard 15x19 board it
/// serves, the hand evaluation on every other board.
pub const PHUTBALL_EVALUATION_AUTO: PhutballEvaluation = 0;
/// The three hand-written terms.
pub const PHUTBALL_EVALUATION_HAND: PhutballEvaluation = 1;
/// A network, given by `phutball_engine_set_network` (written by
/// `phutball_engine_evaluation` only).
pub const PHUTBALL_EVALUATION_NET: PhutballEvaluation = 2;

/// The rule options (docs/rules.md). Start from `phutball_rules_default()` and
/// change the fields you need; functions taking `const PhutballRules *` accept
/// NULL for the defaults.
#[repr(C)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PhutballRules {
    /// When true, a ball that lands on an off-board strip may jump on, back over
    /// a man on the goal line. Default false: the move ends there.
    pub continue_off_board: bool,
    /// Who moves first from a start position: `PHUTBALL_SIDE_OHS` (default) or `PHUTBALL_SIDE_EKS`.
    pub first_player: PhutballSide,
    /// Whether `start` holds the ball's start point; false (default): the centre.
    pub has_start: bool,
    /// The ball's start point when `has_start` is true (a handicap).
    pub start: PhutballPoint,
}

impl From<Point> for PhutballPoint {
    fn from(p: Point) -> PhutballPoint {
        PhutballPoint {
            col: p.col(),
            row: p.row(),
        }
    }
}

impl PhutballPoint {
    /// The core point, if any board could have it.
    pub(crate) fn to_core(self) -> FfiResult<Point> {
        Point::new(self.col, self.row).ok_or_else(|| {
            Failure::invalid_argument(format!(
                "point {{col {}, row {}}} exists on no board (columns 0-{}, rows 0-{})",
                self.col,
                self.row,
                MAX_COLS - 1,
                MAX_ROWS + 1
            ))
        })
    }
}

pub(crate) fn side_to_c(side: Side) -> PhutballSide {
    match side {
        Side::Ohs => PHUTBALL_SIDE_OHS,
        Side::Eks => PHUTBALL_SIDE_EKS,
    }
}

pub(crate) fn side_from_c(side: PhutballSide) -> FfiResult<Side> {
    match side {
        PHUTBALL_SIDE_OHS => Ok(Side::Ohs),
        PHUTBALL_SIDE_EKS => Ok(Side::Eks),
        other => Err(Failure::invalid_argument(format!(
            "side {other} is neither PHUTBALL_SIDE_OHS (0) nor PHUTBALL_SIDE_EKS (1)"
        ))),
    }
}

impl From<Rules> for PhutballRules {
    fn from(rules: Rules) -> PhutballRules {
        PhutballRules {
            continue_off_board: rules.continue_off_board,
            first_player: side_to_c(rules.first_player),
            has_start: rules.start.is_some(),
            start: rules
                .start
                .map_or(PhutballPoint { col: 0, row: 0 }, Into::into),
        }
    }
}

impl PhutballRules {
    pub(crate) fn to_core(self) -> FfiResult<Rules> {
        Ok(Rules {
            continue_off_board: self.continue_off_board,
            first_player: side_from_c(self.first_player)?,
            start: if self.has_start {
                Some(self.start.to_core()?)
            } else {
                None
            },
        })
    }
}

/// The core rules for an optional C rules pointer: NULL means the defaults.
///
/// # Safety
/// `rules` must be NULL or point to a readable `PhutballRules`.
pub(crate) unsafe fn rules_arg(rules: *const PhutballRules) -> FfiResult<Rules> {
    // SAFETY: the caller promises rules is NULL or readable.
    match unsafe { rules.as_ref() } {
        None => Ok(Rules::default()),
        Some(rules) => rules.to_core(),
    }
}

/// The default rules: the move ends off the board, Ohs moves first, the ball
/// starts on the centre point.
#[no_mangle]
pub extern "C" fn phutball_rules_default() -> PhutballRules {
    Rules::default().into()
}

/// Parses a point in notation (`"H10"`, `"a1"`, `"P20"`) into `*out`.
/// `PHUTBALL_STATUS_PARSE_ERROR` for anything else, such as `"I5"` (there is no column I).
///
/// # Safety
/// `text` must be NULL or a NUL-terminated string; `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_point_parse(
    text: *const c_char,
    out: *mut PhutballPoint,
) -> PhutballStatus {
    ffi_call(|| {
        // SAFETY: the caller's promise about text.
        let text = unsafe { str_arg(text, "text") }?;
        let point: Point = text.parse()?;
        // SAFETY: the caller's promise about out.
        unsafe { write_out(out, point.into(), "out") }
    })
}

/// Writes `point` in notation (`"H10"`) into `buf` (buffer convention: see the
/// top of this header).
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `written` must be NULL
/// or writable.
#[no_mangle]
pub unsafe extern "C" fn phutball_point_to_string(
    point: PhutballPoint,
    buf: *mut c_char,
    len: usize,
    written: *mut usize,
) -> PhutballStatus {
    ffi_call(|| {
        let text = point.to_core()?.to_string();
        // SAFETY: the caller's promises about buf, len and written.
        unsafe { copy_text(&text, buf, len, written) }
    })
}

/// The major version of the library this header came with (Cargo's
/// `version`, as are the two below); `phutball_version()` gives the version
/// of the library loaded at run time.
pub const PHUTBALL_VERSION_MAJOR: u32 = 0;
/// The minor version of the library this header came with.
pub const PHUTBALL_VERSION_MINOR: u32 = 1;
/// The patch version of the library this header came with.
pub const PHUTBALL_VERSION_PATCH: u32 = 0;

// cbindgen copies only literals into the header, so the numbers are written
// out above; a version bump that forgets them fails to compile here.
const _: () = assert!(
    PHUTBALL_VERSION_MAJOR == decimal(env!("CARGO_PKG_VERSION_MAJOR"))
        && PHUTBALL_VERSION_MINOR == decimal(env!("CARGO_PKG_VERSION_MINOR"))
        && PHUTBALL_VERSION_PATCH == decimal(env!("CARGO_PKG_VERSION_PATCH")),
    "PHUTBALL_VERSION_* differ from the crate's version in Cargo.toml"
);

/// The value of a decimal number of Cargo's version (digits only).
#[allow(
    dead_code,
    reason = "Rust 1.85 (the rust-version) does not count a use in a const assertion"
)]
const fn decimal(digits: &str) -> u32 {
    let bytes = digits.as_bytes();
    let mut value = 0;
    let mut i = 0;
    while i < bytes.len() {
        value = value * 10 + (bytes[i] - b'0') as u32;
        i += 1;
    }
    value
}

/// The library's version, such as `"0.1.0"` (`PHUTBALL_VERSION_MAJOR.MINOR.PATCH`
/// of the header it was built with): a static string that must not be freed.
#[no_mangle]
pub extern "C" fn phutball_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}
