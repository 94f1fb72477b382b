//! Finds positions on which can-score works hard: hill-climbs random
//! standard boards (a dense main area, a sparse zone in front of Ohs's goal,
//! the ball low, Ohs to move) on the work `can_score_within` takes, each
//! probe capped by a work limit. Deterministic given the seed (and the
//! search of the core it was built with): work is counted in polls of the
//! budget's interrupt hook, one every `POLL_INTERVAL` landings, not in time.
//!
//! ```text
//! cargo run --release -p phutball-benches --bin hard_positions -- \
//!     --seed 9 --positions 30 --cap 4000000 --steps 300
//! ```
//!
//! Prints the positions found as records of the core's fixture format
//! (`phutball::fixtures`), each `score undecided` (not decided within the
//! cap) after a comment that says so; the work of each probe and the climb
//! go to stderr. `--decide LANDINGS < FILE` reads a fixture file (or bare
//! position strings, one a line) and prints its records with their `score`
//! figure within that work.

use std::process::ExitCode;
use std::sync::atomic::{AtomicU64, Ordering};

use phutball::fixtures::{self, Fixture, ScoreFigure};
use phutball::{
    Bitboard, BoardSize, Budget, Interrupt, Point, Position, Rules, Side, SplitMix64, POLL_INTERVAL,
};

/// The core's `SplitMix64`, with the modulo draw the fixtures were made with
/// (kept so that the same seed still gives the same positions).
struct Rng(SplitMix64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (n > 0; the bias is negligible for small n).
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// True with probability `percent`%.
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

struct Options {
    seed: u64,
    positions: usize,
    cap: u64,
    steps: usize,
    dense: u64,
    sparse: u64,
    sparse_rows: u8,
    /// Instead of climbing, answer the positions on stdin within this work.
    decide: Option<u64>,
}

impl Options {
    fn parse() -> Result<Options, String> {
        let mut options = Options {
            seed: 1,
            positions: 30,
            cap: 4_000_000,
            steps: 300,
            dense: 75,
            sparse: 10,
            sparse_rows: 6,
            decide: None,
        };
        let mut args = std::env::args().skip(1);
        while let Some(flag) = args.next() {
            if flag == "--help" || flag == "-h" {
                return Err(USAGE.to_string());
            }
            let value = args
                .next()
                .ok_or_else(|| format!("{flag} needs a value\n{USAGE}"))?;
            let number = |max: u64| -> Result<u64, String> {
                value
                    .parse::<u64>()
                    .ok()
                    .filter(|&n| n <= max)
                    .ok_or_else(|| format!("{flag}: expected a number up to {max}, got {value:?}"))
            };
            match flag.as_str() {
                "--seed" => options.seed = number(u64::MAX)?,
                "--positions" => options.positions = number(10_000)? as usize,
                "--cap" => options.cap = number(u64::MAX)?.max(1),
                "--steps" => options.steps = number(1_000_000)? as usize,
                "--dense" => options.dense = number(100)?,
                "--sparse" => options.sparse = number(100)?,
                "--sparse-rows" => options.sparse_rows = number(12)? as u8,
                "--decide" => options.decide = Some(number(u64::MAX)?),
                _ => return Err(format!("unknown option {flag}\n{USAGE}")),
            }
        }
        Ok(options)
    }
}

const USAGE: &str = "usage: hard_positions [--seed N] [--positions N] [--cap LANDINGS] \
[--steps N] [--dense PERCENT] [--sparse PERCENT] [--sparse-rows N]
       hard_positions --decide LANDINGS < FILE   (prints each record of FILE with its score figure)";

/// What one probe of can-score found: its work (in landings, rounded down
/// to a poll) and its answer, `None` if the cap ran out.
struct Probe {
    work: u64,
    answer: Option<bool>,
}

fn probe(pos: &Position, cap: u64) -> Probe {
    let polls = AtomicU64::new(0);
    let hook = || -> Option<Interrupt> {
        polls.fetch_add(1, Ordering::Relaxed);
        None
    };
    let budget = Budget::default().with_work_limit(cap).with_interrupt(&hook);
    let answer = pos.can_score_within(&budget).ok();
    // The first poll is at the start, then one every POLL_INTERVAL landings.
    let work = polls.load(Ordering::Relaxed).saturating_sub(1) * POLL_INTERVAL;
    Probe {
        work: if answer.is_none() { cap } else { work },
        answer,
    }
}

const SIZE: BoardSize = BoardSize::STANDARD;

fn point(col: u8, row: u8) -> Point {
    Point::new(col, row).expect("on the standard board")
}

/// A random board: men on `dense`% of rows 1 to 19 - `sparse_rows`, on
/// `sparse`% of the rows above, the ball on a vacant point of rows 2 to 6.
fn random_position(rng: &mut Rng, o: &Options) -> Position {
    loop {
        let mut men = Bitboard::EMPTY;
        for row in 1..=SIZE.rows() {
            let percent = if row > SIZE.rows() - o.sparse_rows {
                o.sparse
            } else {
                o.dense
            };
            for col in 0..SIZE.cols() {
                if rng.chance(percent) {
                    men.insert(point(col, row));
                }
            }
        }
        let ball = point(rng.below(15) as u8, 2 + rng.below(5) as u8);
        men.remove(ball);
        if let Ok(pos) = Position::from_parts(SIZE, Rules::default(), men, ball, Side::Ohs) {
            return pos;
        }
    }
}

/// The position with one to three points toggled, or, one time in eight,
/// the ball moved to another point of rows 2 to 6.
fn mutate(rng: &mut Rng, pos: &Position) -> Option<Position> {
    let mut men = pos.men();
    let mut ball = pos.ball();
    if rng.chance(12) {
        ball = point(rng.below(15) as u8, 2 + rng.below(5) as u8);
        men.remove(ball);
    } else {
        for _ in 0..=rng.below(3) {
            let p = point(rng.below(15) as u8, 1 + rng.below(19) as u8);
            if p != ball {
                men.toggle(p);
            }
        }
    }
    Position::from_parts(SIZE, Rules::default(), men, ball, Side::Ohs).ok()
}

fn main() -> ExitCode {
    let options = match Options::parse() {
        Ok(o) => o,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(1);
        }
    };
    if let Some(cap) = options.decide {
        return decide(cap);
    }
    let mut rng = Rng(SplitMix64::new(options.seed));
    let mut found = 0;
    let mut climbs = 0;
    while found < options.positions {
        climbs += 1;
        let mut pos = random_position(&mut rng, &options);
        let mut best = probe(&pos, options.cap);
        let mut step = 0;
        while best.answer.is_some() && step < options.steps {
            step += 1;
            let Some(next) = mutate(&mut rng, &pos) else {
                continue;
            };
            let p = probe(&next, options.cap);
            if p.work >= best.work {
                pos = next;
                best = p;
            }
        }
        let answer = best
            .answer
            .map_or(ScoreFigure::Undecided, ScoreFigure::from_answer);
        eprintln!(
            "climb {climbs}: {} landings after {step} steps, answer {answer:?}",
            best.work
        );
        if best.answer.is_none() {
            found += 1;
            println!(
                "\n# climb {climbs}: not decided within {} landings",
                options.cap
            );
            print!(
                "{}",
                Fixture {
                    score: Some(answer),
                    ..Fixture::new(pos)
                }
            );
        }
    }
    ExitCode::SUCCESS
}

/// Answers each record of the fixture file on stdin within `cap` landings
/// and prints it with that `score` figure (its other figures kept), an
/// `undecided` one after a comment giving the cap; the work goes to stderr.
/// A `yes` is checked by playing the scoring jump `scoring_jump_within`
/// finds.
fn decide(cap: u64) -> ExitCode {
    let text = match std::io::read_to_string(std::io::stdin()) {
        Ok(text) => text,
        Err(e) => {
            eprintln!("reading stdin: {e}");
            return ExitCode::from(1);
        }
    };
    let records = match fixtures::parse(&text) {
        Ok(records) => records,
        Err(e) => {
            eprintln!("stdin: {e}");
            return ExitCode::from(1);
        }
    };
    for record in records {
        let pos = record.position;
        let p = probe(&pos, cap);
        if p.answer == Some(true) {
            // A "yes" comes with its proof: a scoring jump, played here.
            let jump = pos
                .scoring_jump_within(&Budget::default().with_work_limit(cap))
                .ok()
                .flatten();
            let scores = jump
                .as_ref()
                .and_then(|jump| pos.play(jump).ok())
                .is_some_and(|after| after.winner() == Some(pos.to_move()));
            if !scores {
                eprintln!("line {}: can score, but no scoring jump found", record.line);
                return ExitCode::from(2);
            }
        }
        eprintln!("line {}: {} landings", record.line, p.work);
        let score = p
            .answer
            .map_or(ScoreFigure::Undecided, ScoreFigure::from_answer);
        if score == ScoreFigure::Undecided {
            println!("\n# not decided within {cap} landings");
        } else {
            println!();
        }
        print!(
            "{}",
            Fixture {
                score: Some(score),
                ..record
            }
        );
    }
    ExitCode::SUCCESS
}
