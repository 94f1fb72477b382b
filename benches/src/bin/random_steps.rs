//! The core's own random-action step loop, the baseline of `phutball.VecEnv`
//! (`benches/python/vecenv_bench.py`): `--games` games of step-by-step play on
//! the standard board, stepped in turn, each taking a uniformly random legal
//! action (`StepState::random_legal_action_index`, as `VecEnv::sample_actions`)
//! and restarting after a goal or 200 whole moves. With `--observe 1` every
//! step also writes the observation planes and the legal-action mask (into
//! one reused buffer), the work `VecEnv` does for each game. One thread;
//! prints the steps per second.
//!
//! With `--threads T` it steps the engine's `VecEnv` of `--games` games on
//! up to `T` threads instead (`sample_actions`, then `step` into buffers
//! allocated once): the same work as `--observe 1`, batched. `--min-games M`
//! lets a thread start for every `M` games (`VecEnv::with_min_games_per_thread`;
//! default `MIN_GAMES_PER_THREAD`, 512).
//!
//! Usage: `random_steps [--steps N] [--games G] [--seed S] [--observe 0|1] [--threads T] [--min-games M]`

use std::process::ExitCode;
use std::time::Instant;

use phutball::{Position, SplitMix64, StepState};
use phutball_engine::{StepBuffers, VecEnv, MIN_GAMES_PER_THREAD};

/// Whole moves after which a game restarts, as `VecEnv`'s default.
const MOVE_LIMIT: u32 = 200;

const USAGE: &str = "random_steps: usage: random_steps [--steps N] [--games G] [--seed S] \
[--observe 0|1] [--threads T] [--min-games M]";

fn main() -> ExitCode {
    let mut steps: usize = 2_000_000;
    let mut games: usize = 256;
    let mut seed: u64 = 1;
    let mut observe = false;
    let mut threads = None;
    let mut min_games = MIN_GAMES_PER_THREAD;
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).and_then(|v| v.parse::<u64>().ok());
        match (pair[0].as_str(), value) {
            ("--steps", Some(v)) => steps = v as usize,
            ("--games", Some(v)) if v > 0 => games = v as usize,
            ("--seed", Some(v)) => seed = v,
            ("--observe", Some(v @ (0 | 1))) => observe = v == 1,
            ("--threads", Some(v)) if v > 0 => threads = Some(v as usize),
            ("--min-games", Some(v)) if v > 0 => min_games = v as usize,
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let result = match threads {
        Some(threads) => vec_env_steps(steps, games, seed, threads, min_games),
        None => core_steps(steps, games, seed, observe),
    };
    match result {
        Ok(report) => {
            println!("{report}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("random_steps: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The core's loop: one game after the other, one action each.
fn core_steps(steps: usize, games: usize, seed: u64, observe: bool) -> Result<String, String> {
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
        let action = state
            .random_legal_action_index(&mut rng)
            .ok_or_else(|| format!("a game with no action: {state}"))?;
        let after = state
            .apply_action_index(action)
            .map_err(|e| format!("a legal action failed: {e}"))?;
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
    Ok(format!(
        "core random steps{}: {steps} steps of {games} games in {seconds:.3} s ({finished} games ended, {ones} ones last): {:.0} steps/s",
        if observe { " with observations" } else { "" },
        steps as f64 / seconds
    ))
}

/// The engine's `VecEnv`: every game one action a call.
fn vec_env_steps(
    steps: usize,
    games: usize,
    seed: u64,
    threads: usize,
    min_games: usize,
) -> Result<String, String> {
    let start = Position::standard();
    let size = start.size();
    let mut env = VecEnv::new(start, games, Some(MOVE_LIMIT), seed, threads)
        .map_err(|e| e.to_string())?
        .with_min_games_per_thread(min_games);
    let mut planes = vec![0.0; games * size.planes_len()];
    let mut masks = vec![false; games * size.action_count()];
    let (mut rewards, mut terminated, mut truncated) =
        (vec![0.0; games], vec![false; games], vec![false; games]);
    env.reset(None, &mut planes, &mut masks)
        .map_err(|e| e.to_string())?;
    let calls = steps.div_ceil(games);
    let mut finished = 0usize;
    let clock = Instant::now();
    for _ in 0..calls {
        let actions = env.sample_actions();
        let finals = env
            .step(
                &actions,
                &mut StepBuffers {
                    planes: &mut planes,
                    masks: &mut masks,
                    rewards: &mut rewards,
                    terminated: &mut terminated,
                    truncated: &mut truncated,
                },
            )
            .map_err(|e| e.to_string())?;
        finished += finals.len();
    }
    let seconds = clock.elapsed().as_secs_f64();
    let steps = calls * games;
    Ok(format!(
        "VecEnv random steps, {} threads: {steps} steps of {games} games in {seconds:.3} s ({finished} games ended): {:.0} steps/s",
        env.threads(),
        steps as f64 / seconds
    ))
}
