//! The core's own random-action step loop, the baseline of `phutball.VecEnv`
//! (`benches/python/vecenv_bench.py`): `--games` games of step-by-step play on
//! the standard board, stepped in turn, each taking a uniformly random legal
//! action (`StepState::random_legal_action_index`, as `VecEnv::sample_actions`)
//! through the core's `Episode`, restarting after a goal or 200 whole moves. With `--observe 1` every
//! step also writes the observation planes and the legal-action mask (into
//! one reused buffer), the work `VecEnv` does for each game. One thread;
//! prints the steps per second.
//!
//! With `--jobs J` it steps `phutball_env::VecEnv` of `--games` games on
//! up to `J` threads instead (`sample_actions`, then `step` into buffers
//! allocated once): the same work as `--observe 1`, batched. `--min-games M`
//! lets a job start for every `M` games (`VecEnv::with_min_games_per_job`;
//! default `MIN_GAMES_PER_JOB`, 128).
//!
//! Usage: `random_steps [--steps N] [--games G] [--seed S] [--observe 0|1] [--jobs J] [--min-games M]`

use std::process::ExitCode;
use std::time::Instant;

use phutball::{Episode, Position, SplitMix64};
use phutball_env::{StepBuffers, VecEnv, MIN_GAMES_PER_JOB};

/// Whole moves after which a game restarts, as `VecEnv`'s default.
const MOVE_LIMIT: u32 = 200;

const USAGE: &str = "random_steps: usage: random_steps [--steps N] [--games G] [--seed S] \
[--observe 0|1] [--jobs J] [--min-games M]";

fn main() -> ExitCode {
    let mut steps: usize = 2_000_000;
    let mut games: usize = 256;
    let mut seed: u64 = 1;
    let mut observe = false;
    let mut jobs = None;
    let mut min_games = MIN_GAMES_PER_JOB;
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).and_then(|v| v.parse::<u64>().ok());
        match (pair[0].as_str(), value) {
            ("--steps", Some(v)) => steps = v as usize,
            ("--games", Some(v)) if v > 0 => games = v as usize,
            ("--seed", Some(v)) => seed = v,
            ("--observe", Some(v @ (0 | 1))) => observe = v == 1,
            ("--jobs", Some(v)) if v > 0 => jobs = Some(v as usize),
            ("--min-games", Some(v)) if v > 0 => min_games = v as usize,
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let result = match jobs {
        Some(jobs) => vec_env_steps(steps, games, seed, jobs, min_games),
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
    let fresh = Episode::new(start.into(), Some(MOVE_LIMIT)).map_err(|e| e.to_string())?;
    let mut episodes = vec![fresh; games];
    let mut rng = SplitMix64::new(seed);
    let size = start.size();
    let (mut planes, mut mask) = (
        vec![0.0; size.planes_len()],
        vec![false; size.action_count()],
    );
    let mut finished = 0usize;
    let clock = Instant::now();
    for step in 0..steps {
        let episode = &mut episodes[step % games];
        let state = episode.state();
        let action = state
            .random_legal_action_index(&mut rng)
            .ok_or_else(|| format!("a game with no action: {state}"))?;
        let step = episode
            .step(action)
            .map_err(|e| format!("a legal action failed: {e}"))?;
        if step.is_over() {
            *episode = fresh;
            finished += 1;
        }
        if observe {
            episode.state().write_planes(false, &mut planes);
            episode.state().write_legal_action_mask(&mut mask);
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

/// `VecEnv`: every game one action a call.
fn vec_env_steps(
    steps: usize,
    games: usize,
    seed: u64,
    jobs: usize,
    min_games: usize,
) -> Result<String, String> {
    let start = Position::standard();
    let size = start.size();
    let mut env = VecEnv::new(start, games, Some(MOVE_LIMIT), seed, jobs)
        .map_err(|e| e.to_string())?
        .with_min_games_per_job(min_games);
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
        "VecEnv random steps, {} jobs: {steps} steps of {games} games in {seconds:.3} s ({finished} games ended): {:.0} steps/s",
        env.jobs(),
        steps as f64 / seconds
    ))
}
