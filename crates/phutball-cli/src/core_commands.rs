//! The rules core's subcommands: `jumps` (every jump move), `play` (the
//! position after some moves), `moves` (every legal move), `show` (a board
//! diagram and whether the side to move can score), `svg` (a picture) and
//! `perft` (move sequences counted), each for a POSITION or for each line
//! of standard input. `count` has a file of its own.

use std::io::Write;
use std::num::NonZeroU32;
use std::ops::ControlFlow;
use std::time::Instant;

use clap::Args;
use phutball::{perft_within, Move, Point, Position, SvgOptions};

use crate::budget::BudgetFlags;
use crate::error::{CliError, CliResult};
use crate::input::{positions_of, RuleArgs};

/// Arguments of `phutball jumps`.
#[derive(Args)]
pub struct JumpsArgs {
    /// One jump per distinct resulting position.
    #[arg(long)]
    outcomes: bool,
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    budget_flags: BudgetFlags,
    /// A position string (e.g. "15/15/.../7@7/... O"), `start`,
    /// `start:COLSxROWS`, or `-`: each line of standard input in turn.
    position: String,
}

/// Arguments of `phutball play`.
#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// A position string, `start`, `start:COLSxROWS`, or `-`: each line
    /// of standard input in turn.
    position: String,
    /// Moves in notation: H10 (a placement) or K6-G9-G11 (a jump).
    #[arg(required = true)]
    moves: Vec<String>,
}

/// A POSITION and the rules and budget it is read and searched under: the
/// arguments of `phutball moves` and `phutball show`, and the last of
/// `svg`'s and `perft`'s.
#[derive(Args)]
pub struct PositionArgs {
    #[command(flatten)]
    rules: RuleArgs,
    #[command(flatten)]
    budget_flags: BudgetFlags,
    /// A position string, `start`, `start:COLSxROWS`, or `-`: each line
    /// of standard input in turn.
    position: String,
}

impl PositionArgs {
    /// The positions POSITION stands for, under the rule options.
    fn positions(&self) -> CliResult<Vec<Position>> {
        positions_of(&self.position, self.rules.rules()?)
    }
}

/// Arguments of `phutball svg`.
#[derive(Args)]
pub struct SvgArgs {
    /// Draw this move, legal in POSITION (repeatable): H10 or K6-G9-G11.
    #[arg(long = "move", value_name = "MOVE")]
    moves: Vec<String>,
    /// Draw every jump move of POSITION (after the --move moves).
    #[arg(long)]
    jumps: bool,
    /// Shade this point (repeatable).
    #[arg(long, value_name = "POINT")]
    highlight: Vec<String>,
    /// Turn the board 180 degrees, as Eks sees it.
    #[arg(long)]
    flip: bool,
    /// The picture's width in pixels (default: 28 pixels between points).
    #[arg(long, value_name = "PX", value_parser = parse_svg_width)]
    size: Option<NonZeroU32>,
    #[command(flatten)]
    position: PositionArgs,
}

/// Arguments of `phutball perft`.
#[derive(Args)]
pub struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Number of moves.
    depth: u32,
}

/// `svg --size PX`: a width the core draws, 1 to [`phutball::SVG_MAX_WIDTH`].
fn parse_svg_width(text: &str) -> Result<NonZeroU32, String> {
    let px: i128 = text
        .trim()
        .parse()
        .map_err(|_| format!("--size must be a width in pixels, not {text}"))?;
    phutball::svg_width(px).map_err(|e| e.to_string())
}

/// `show`'s analysis stops after this many milliseconds unless `--timeout` says otherwise.
const SHOW_TIMEOUT_MS: u64 = 1000;

fn parse_move(text: &str) -> CliResult<Move> {
    text.parse::<Move>()
        .map_err(|e| CliError::Input(e.to_string()))
}

/// `phutball jumps`: every jump path (one per outcome with `--outcomes`),
/// a line each, as the walk finds them.
pub fn jumps(args: &JumpsArgs, out: &mut dyn Write) -> CliResult {
    let what = if args.outcomes {
        "jumps --outcomes"
    } else {
        "jumps"
    };
    for pos in positions_of(&args.position, args.rules.rules()?)? {
        print_jumps(out, &pos, args.outcomes, &args.budget_flags, what)?;
    }
    Ok(())
}

/// `phutball play`: the position string after the moves.
pub fn play(args: &PlayArgs, out: &mut dyn Write) -> CliResult {
    for pos in positions_of(&args.position, args.rules.rules()?)? {
        writeln!(out, "{}", play_moves(&pos, &args.moves)?).map_err(CliError::output)?;
    }
    Ok(())
}

/// `phutball moves`: the placements (at most one per point), then the
/// jumps as the walk finds them: nothing is kept per move.
pub fn moves(args: &PositionArgs, out: &mut dyn Write) -> CliResult {
    for pos in args.positions()? {
        for m in pos.placements() {
            writeln!(out, "{m}").map_err(CliError::output)?;
        }
        print_jumps(out, &pos, true, &args.budget_flags, "moves")?;
    }
    Ok(())
}

/// `phutball show`: each position's diagram and whether it can score now.
pub fn show(args: &PositionArgs, out: &mut dyn Write) -> CliResult {
    for pos in args.positions()? {
        show_one(out, &pos, &args.budget_flags)?;
    }
    Ok(())
}

/// `phutball svg`: each position's picture.
pub fn svg(args: &SvgArgs, out: &mut dyn Write) -> CliResult {
    for pos in args.position.positions()? {
        svg_one(out, &pos, args)?;
    }
    Ok(())
}

/// `phutball perft`: each position's count.
pub fn perft(args: &PerftArgs, out: &mut dyn Write) -> CliResult {
    for pos in args.position.positions()? {
        perft_one(out, &pos, args.depth, &args.position.budget_flags)?;
    }
    Ok(())
}

/// Prints the jump paths of `pos` (one per outcome with `outcomes`) as
/// lines of `out`, as the walk finds them, under `budget_flags`. A failed write
/// stops the walk and comes first (a closed pipe is why the walk stopped),
/// then the search's own error, as `what` failed.
fn print_jumps(
    out: &mut dyn Write,
    pos: &Position,
    outcomes: bool,
    budget_flags: &BudgetFlags,
    what: &str,
) -> CliResult {
    let check = budget_flags.deadline().hook();
    let budget = budget_flags.budget(&check);
    let mut failed = None;
    let print = |path: &[Point]| match writeln!(out, "{}", Move::Jump(path.to_vec())) {
        Ok(()) => ControlFlow::Continue(()),
        Err(e) => {
            failed = Some(e);
            ControlFlow::Break(())
        }
    };
    let result = if outcomes {
        pos.for_each_jump_outcome_within(&budget, print)
    } else {
        pos.for_each_jump_path_within(&budget, print)
    };
    if let Some(e) = failed {
        return Err(CliError::output(e));
    }
    result.map(drop).map_err(|e| budget_flags.failure(what, &e))
}

/// `play`: `pos` after `moves`, in the notation, each legal in turn.
fn play_moves(pos: &Position, moves: &[String]) -> CliResult<Position> {
    let mut pos = *pos;
    for (i, text) in moves.iter().enumerate() {
        let m = parse_move(text)?;
        pos = pos
            .play(&m)
            .map_err(|e| format!("move {} ({text}) is illegal: {e}", i + 1))?;
    }
    Ok(pos)
}

/// `show`: the diagram of `pos`, then whether the side to move can score
/// now, decided within `budget_flags` (by default within [`SHOW_TIMEOUT_MS`]).
fn show_one(out: &mut dyn Write, pos: &Position, budget_flags: &BudgetFlags) -> CliResult {
    write!(out, "{}", pos.diagram()).map_err(CliError::output)?;
    if !pos.is_finished() {
        // The board first, while the analysis runs.
        out.flush().map_err(CliError::output)?;
        let budget_flags = BudgetFlags {
            timeout: budget_flags.timeout.or(SHOW_TIMEOUT_MS),
            ..*budget_flags
        };
        let check = budget_flags.deadline().hook();
        let side = format!("{} ({})", pos.to_move().name(), pos.to_move());
        match pos.scoring_jump_within(&budget_flags.budget(&check)) {
            Ok(Some(m)) => writeln!(out, "{side} can score now: {m}"),
            Ok(None) => writeln!(out, "{side} cannot score now"),
            Err(e) => {
                writeln!(out, "{side} can score now: not decided")
                    .and_then(|()| out.flush())
                    .map_err(CliError::output)?;
                return Err(budget_flags.failure("show: can-score", &e));
            }
        }
        .map_err(CliError::output)?;
    }
    Ok(())
}

/// `svg`: the picture of `pos` with what `args` ask for.
fn svg_one(out: &mut dyn Write, pos: &Position, args: &SvgArgs) -> CliResult {
    let mut options = SvgOptions {
        moves: args
            .moves
            .iter()
            .map(|m| parse_move(m))
            .collect::<CliResult<_>>()?,
        highlight: args
            .highlight
            .iter()
            .map(|p| {
                p.parse::<Point>()
                    .map_err(|e| CliError::Input(e.to_string()))
            })
            .collect::<CliResult<_>>()?,
        flip: args.flip,
        width: args.size,
        ..SvgOptions::default()
    };
    if args.jumps {
        let budget_flags = &args.position.budget_flags;
        let check = budget_flags.deadline().hook();
        let paths = pos.jump_paths_within(&budget_flags.budget(&check));
        options
            .moves
            .extend(paths.map_err(|e| budget_flags.failure("svg --jumps", &e))?);
    }
    let svg = pos.svg(&options).map_err(|e| format!("svg: {e}"))?;
    write!(out, "{svg}").map_err(CliError::output)
}

/// `perft`: the count on stdout, the time on stderr.
fn perft_one(
    out: &mut dyn Write,
    pos: &Position,
    depth: u32,
    budget_flags: &BudgetFlags,
) -> CliResult {
    let check = budget_flags.deadline().hook();
    let started = Instant::now();
    let n = perft_within(pos, depth, &budget_flags.budget(&check))
        .map_err(|e| budget_flags.failure(&format!("perft {depth}"), &e))?;
    writeln!(out, "{n}").map_err(CliError::output)?;
    eprintln!(
        "perft {depth}: {n} in {:.3} s",
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
