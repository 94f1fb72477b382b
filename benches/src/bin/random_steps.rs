//! The core's own random-action step loop, the baseline of `phutball.VecEnv`
//! (`benches/python/vecenv_bench.py`): `--games` games of step-by-step play on
//! the standard board, stepped in turn, each taking a uniformly random legal
//! action (`StepState::random_legal_action_index`, as `VecEnv::sample_actions`)
//! and restarting after a goal or 200 whole moves. With `--observe 1` every
//! step also writes the observation planes and the legal-action mask (into
//! one reused buffer), the work `VecEnv` does for each game. One thread;
//! prints the steps per second.
//!
//! Usage: `random_steps [--steps N] [--games G] [--seed S] [--observe 0|1]`

use std::process::ExitCode;
use std::time::Instant;

use phutball::{Position, SplitMix64, StepState};

/// Whole moves after which a game restarts, as `VecEnv`'s default.
const MOVE_LIMIT: u32 = 200;

fn main() -> ExitCode {
    let mut steps: usize = 2_000_000;
    let mut games: usize = 256;
    let mut seed: u64 = 1;
    let mut observe = false;
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).and_then(|v| v.parse::<u64>().ok());
        match (pair[0].as_str(), value) {
            ("--steps", Some(v)) => steps = v as usize,
            ("--games", Some(v)) if v > 0 => games = v as usize,
            ("--seed", Some(v)) => seed = v,
            ("--observe", Some(v @ (0 | 1))) => observe = v == 1,
            _ => {
                eprintln!("random_steps: usage: random_steps [--steps N] [--games G] [--seed S] [--observe 0|1]");
                return ExitCode::from(2);
            }
        }
    }
    let start = Position::standard();
    let mut states = vec![(StepState::from(start), 0u32); games];
    let mut rng = SplitMix64::new(seed);
    let size = start.size();
    let (mut planes, mut mask) = (
        vec![0.0; size.planes_len()],
        vec![false; size.action_count()],
    );
    let mut finished = 0usize;
    let clock = Instant::now();
    for step in 0..steps {
        let (state, moves) = &mut states[step % games];
        let Some(action) = state.random_legal_action_index(&mut rng) else {
            eprintln!("random_steps: a game with no action: {state}");
            return ExitCode::FAILURE;
        };
        let after = match state.apply_action_index(action) {
            Ok(after) => after,
            Err(e) => {
                eprintln!("random_steps: a legal action failed: {e}");
                return ExitCode::FAILURE;
            }
        };
        *moves += u32::from(after.to_move() != state.to_move());
        if after.is_finished() || *moves >= MOVE_LIMIT {
            (*state, *moves) = (start.into(), 0);
            finished += 1;
        } else {
            *state = after;
        }
        if observe {
            state.write_planes(false, &mut planes);
            state.write_legal_action_mask(&mut mask);
        }
    }
    // The buffers are read, so the writes are not optimised away.
    let ones = planes.iter().sum::<f32>() as usize + mask.iter().filter(|&&m| m).count();
    let seconds = clock.elapsed().as_secs_f64();
    println!(
        "core random steps{}: {steps} steps of {games} games in {seconds:.3} s ({finished} games ended, {ones} ones last): {:.0} steps/s",
        if observe { " with observations" } else { "" },
        steps as f64 / seconds
    );
    ExitCode::SUCCESS
}
