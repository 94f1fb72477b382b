//! `VecEnv::with_opponent`: the agent's turn in every observation, the
//! agent's rewards, the opponent's moves (random, engine, external).

// Rewards are exactly -1.0, 0.0 or 1.0.
#![allow(clippy::float_cmp)]

use phutball::{Action, BoardSize, Budget, Position, Rules, SearchError, Side, StepState};
use phutball_engine::Limits;
use phutball_env::{Opponent, StepBuffers, VecEnv, VecEnvError};

struct Outputs {
    planes: Vec<f32>,
    masks: Vec<bool>,
    rewards: Vec<f32>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
}

impl Outputs {
    fn new(n: usize, size: BoardSize) -> Outputs {
        Outputs {
            planes: vec![0.0; n * size.planes_len()],
            masks: vec![false; n * size.action_count()],
            rewards: vec![0.0; n],
            terminated: vec![false; n],
            truncated: vec![false; n],
        }
    }

    fn buffers(&mut self) -> StepBuffers<'_> {
        StepBuffers {
            planes: &mut self.planes,
            masks: &mut self.masks,
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
        }
    }
}

fn small_start() -> Position {
    Position::start_with(BoardSize::new(5, 7).unwrap(), Rules::default()).unwrap()
}

/// A batch of `n` games on the small board against `opponent`, reset.
fn batch(n: usize, opponent: Opponent, agent: Side, jobs: usize) -> (VecEnv, Outputs) {
    let start = small_start();
    let mut env = VecEnv::new(start, n, Some(30), 9, jobs)
        .unwrap()
        .with_min_games_per_job(16)
        .with_opponent(opponent, agent)
        .unwrap();
    let mut out = Outputs::new(n, start.size());
    env.reset(None, &mut out.planes, &mut out.masks).unwrap();
    (env, out)
}

/// The action index of `text` (`"place A1"`, `"jump to C8"`, `"end jump"`).
fn index(size: BoardSize, text: &str) -> usize {
    size.action_index(text.parse::<Action>().unwrap()).unwrap()
}

#[test]
fn against_a_random_opponent_every_observation_is_the_agents_turn() {
    for agent in [Side::Ohs, Side::Eks] {
        let (mut env, mut out) = batch(200, Opponent::Random, agent, 2);
        let (mut wins, mut losses) = (0, 0);
        for _ in 0..60 {
            let actions = env.sample_actions();
            env.step(&actions, &mut out.buffers()).unwrap();
            for (i, state) in env.states().enumerate() {
                assert_eq!(state.to_move(), agent, "game {i}: {state}");
                // The planes show the agent to act too (channel 2 is Ohs' turn).
                let size = small_start().size();
                let planes = &out.planes[i * size.planes_len()..][..size.planes_len()];
                assert_eq!(planes, state.planes(false).as_slice());
                let reward = out.rewards[i];
                assert_eq!(reward != 0.0, out.terminated[i], "game {i}");
            }
            wins += out.rewards.iter().filter(|&&r| r == 1.0).count();
            losses += out.rewards.iter().filter(|&&r| r == -1.0).count();
            assert!(env.waiting().is_empty());
        }
        assert!(
            wins > 0 && losses > 0,
            "{agent}: wins {wins}, losses {losses}"
        );
    }
}

#[test]
fn the_reward_is_the_agents_for_its_goal_its_own_goal_and_the_opponents_goal() {
    // Ohs attack the top: a man on the top row, the ball under it.
    let near_goal =
        |side: &str| -> Position { format!("2#2/2@2/5/5/5/5/5 {side}").parse().unwrap() };
    let engine = Opponent::Engine(Limits::nodes(200));
    let run = |start: Position, agent: Side, actions: &[&str]| -> (f32, bool) {
        let size = start.size();
        let mut env = VecEnv::new(start, 1, None, 1, 1)
            .unwrap()
            .with_opponent(engine, agent)
            .unwrap();
        let mut out = Outputs::new(1, size);
        env.reset(None, &mut out.planes, &mut out.masks).unwrap();
        for action in actions {
            env.step(&[index(size, action)], &mut out.buffers())
                .unwrap();
        }
        (out.rewards[0], out.terminated[0])
    };
    // Ohs' own goal.
    assert_eq!(
        run(near_goal("O"), Side::Ohs, &["jump to C8", "end jump"]),
        (1.0, true)
    );
    // Eks jumps into the top goal: an own goal.
    assert_eq!(
        run(near_goal("X"), Side::Eks, &["jump to C8", "end jump"]),
        (-1.0, true)
    );
    // Eks places far away; the engine (Ohs) scores in the same step.
    assert_eq!(run(near_goal("X"), Side::Eks, &["place A1"]), (-1.0, true));
    // A jump keeps the turn: the opponent does not move, nothing ends.
    assert_eq!(
        run(near_goal("O"), Side::Ohs, &["jump to C8"]),
        (0.0, false)
    );
}

#[test]
fn an_engine_opponent_at_a_node_budget_is_deterministic_on_any_threads() {
    let runs: Vec<Vec<StepState>> = [1, 2]
        .into_iter()
        .map(|jobs| {
            let (mut env, mut out) =
                batch(48, Opponent::Engine(Limits::nodes(60)), Side::Ohs, jobs);
            for _ in 0..12 {
                let actions = env.sample_actions();
                env.step(&actions, &mut out.buffers()).unwrap();
                assert!(env.states().all(|s| s.to_move() == Side::Ohs));
            }
            env.states().collect()
        })
        .collect();
    assert_eq!(runs[0], runs[1]);
    // The engine's replies were played: the games are not all at the start.
    assert!(runs[0].iter().any(|s| s.position() != small_start()));
}

#[test]
fn with_the_agent_as_eks_the_opponent_moves_first() {
    for opponent in [Opponent::Random, Opponent::Engine(Limits::nodes(50))] {
        let (env, _) = batch(20, opponent, Side::Eks, 1);
        for game in env.episodes() {
            assert_eq!(game.state().to_move(), Side::Eks);
            assert_eq!(game.moves(), 1, "{opponent:?}: one move played");
        }
    }
    // The random opponent's openings differ between games; the engine's agree.
    let (random, _) = batch(20, Opponent::Random, Side::Eks, 1);
    let first = random.episodes()[0];
    assert!(random.episodes().iter().any(|g| *g != first));
}

#[test]
fn an_external_opponent_is_stepped_by_step_waiting() {
    let (mut env, mut out) = batch(30, Opponent::External, Side::Ohs, 1);
    let size = small_start().size();
    assert!(env.waiting().is_empty());
    let actions = env.sample_actions();
    env.step(&actions, &mut out.buffers()).unwrap();
    let waiting = env.waiting();
    assert_eq!(waiting.len(), 30, "every placement passes the turn");
    // The agent cannot act while the opponent is to.
    let err = env.step(&actions, &mut out.buffers()).unwrap_err();
    assert!(matches!(err, VecEnvError::Waiting { game: 0 }), "{err}");
    // A bad opponent action changes no game.
    let before: Vec<StepState> = env.states().collect();
    let mut replies: Vec<usize> = env.sample_actions();
    replies[4] = index(size, "end jump");
    let err = env
        .step_waiting(&replies, &mut out.buffers(), &Budget::unlimited())
        .unwrap_err();
    assert!(matches!(err, VecEnvError::Action { game: 4, .. }), "{err}");
    assert!(env.states().eq(before.iter().copied()));
    let err = env.step_waiting(&replies[1..], &mut out.buffers(), &Budget::unlimited());
    assert!(matches!(
        err,
        Err(VecEnvError::Length {
            expected: 30,
            got: 29,
            ..
        })
    ));
    let replies = env.sample_actions();
    env.step_waiting(&replies, &mut out.buffers(), &Budget::unlimited())
        .unwrap();
    assert!(env.waiting().is_empty());
    assert!(env.states().all(|s| s.to_move() == Side::Ohs));
}

#[test]
fn an_engine_opponents_step_stops_at_the_budget_and_changes_no_game() {
    let (mut env, mut out) = batch(
        4,
        Opponent::Engine(Limits::time(std::time::Duration::from_secs(60))),
        Side::Ohs,
        1,
    );
    let before: Vec<StepState> = env.states().collect();
    let cancelled = std::sync::atomic::AtomicBool::new(false);
    let budget = Budget::default().with_cancel_flag(&cancelled);
    let started = std::time::Instant::now();
    let actions = env.sample_actions();
    let err = std::thread::scope(|scope| {
        scope.spawn(|| {
            std::thread::sleep(std::time::Duration::from_millis(200));
            cancelled.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        env.step_within(&actions, &mut out.buffers(), &budget)
            .unwrap_err()
    });
    assert_eq!(err, VecEnvError::Interrupted(SearchError::Cancelled));
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
    assert!(env.states().eq(before.iter().copied()));
}

#[test]
fn an_opponent_that_could_end_the_game_before_the_agent_acts_is_refused() {
    let start = small_start();
    let one_move = VecEnv::new(start, 1, Some(1), 0, 1).unwrap();
    let err = one_move
        .with_opponent(Opponent::Random, Side::Eks)
        .unwrap_err();
    assert!(
        err.to_string().contains("move limit must be at least 2"),
        "{err}"
    );
    let jump: Position = "2#2/2@2/5/5/5/5/5 O".parse().unwrap();
    let err = VecEnv::new(jump, 1, None, 0, 1)
        .unwrap()
        .with_opponent(Opponent::Random, Side::Eks)
        .unwrap_err();
    assert!(err.to_string().contains("no jump"), "{err}");
    let env = VecEnv::new(start, 1, Some(1), 0, 1).unwrap();
    assert!(env.with_opponent(Opponent::Random, Side::Ohs).is_ok());
}

#[test]
fn a_reset_with_a_seed_reseeds_the_opponent() {
    // The engine's seed breaks ties between equal moves: on the standard
    // board its first move depends on it with the hand evaluation, whose
    // values are mirror images (on 5x7 it does not).
    for (start, opponent, steps) in [
        (small_start(), Opponent::Random, 6),
        (
            Position::standard(),
            Opponent::Engine(Limits::nodes(100)),
            0,
        ),
    ] {
        let runs: Vec<Vec<StepState>> = [1, 2]
            .into_iter()
            .map(|first_seed| {
                let n = 4;
                let mut env = VecEnv::new(start, n, Some(30), first_seed, 1)
                    .unwrap()
                    .with_opponent(opponent, Side::Eks)
                    .unwrap()
                    .with_opponent_evaluation(phutball_engine::Evaluation::Hand)
                    .unwrap();
                let mut out = Outputs::new(n, start.size());
                env.reset(Some(7), &mut out.planes, &mut out.masks).unwrap();
                for _ in 0..steps {
                    let actions = env.sample_actions();
                    env.step(&actions, &mut out.buffers()).unwrap();
                }
                env.states().collect()
            })
            .collect();
        assert_eq!(runs[0], runs[1], "{opponent:?}");
    }
}

/// A network of one hidden unit for `size` that values the ball's progress
/// (input `2 * C * R`, in rows) at `rows_weight` times 100.
fn ball_network(size: BoardSize, rows_weight: f32) -> phutball_engine::Evaluation {
    use phutball_engine::{BoardNetwork, Evaluation, Network};
    let mut w1 = vec![0.0; BoardNetwork::input_count(size)];
    w1[2 * size.cols() as usize * size.rows() as usize] = rows_weight;
    let layer = BoardNetwork {
        size,
        w1,
        b1: vec![0.5],
        w2: vec![100.0],
        b2: 0.0,
    };
    let network = Network::new("ball", vec![layer]).unwrap();
    Evaluation::Net(std::sync::Arc::new(network))
}

#[test]
fn an_engine_opponent_searches_with_its_evaluation_from_the_opening_on() {
    use phutball_engine::{Engine, Evaluation};
    // 7x7: the engine searches its start (it finds 5x7's win in 23 at
    // once, whatever its evaluation).
    let start = Position::start_with(BoardSize::new(7, 7).unwrap(), Rules::default()).unwrap();
    let limits = Limits::nodes(60);
    // A network that likes the ball going back: far from the hand evaluation.
    let net = ball_network(start.size(), -0.25);
    let opening = |seed: u64, evaluation: &Evaluation| -> Position {
        let engine = Engine::new(limits, seed).with_evaluation(evaluation.clone());
        start
            .play(&engine.analyse(&start).unwrap().best_move)
            .unwrap()
    };
    assert_ne!(opening(9, &net), opening(9, &Evaluation::Hand));
    // The evaluation before or after the opponent: the same batch.
    let made = [
        VecEnv::new(start, 4, Some(30), 9, 1)
            .unwrap()
            .with_opponent(Opponent::Engine(limits), Side::Eks)
            .unwrap()
            .with_opponent_evaluation(net.clone())
            .unwrap(),
        VecEnv::new(start, 4, Some(30), 9, 1)
            .unwrap()
            .with_opponent_evaluation(net.clone())
            .unwrap()
            .with_opponent(Opponent::Engine(limits), Side::Eks)
            .unwrap(),
    ];
    for mut env in made {
        assert_eq!(env.opponent_evaluation(), &net);
        let mut out = Outputs::new(4, start.size());
        env.reset(None, &mut out.planes, &mut out.masks).unwrap();
        for state in env.states() {
            assert_eq!(state.position(), opening(9, &net));
        }
        // A new seed is a new engine, with the same evaluation.
        env.reset(Some(5), &mut out.planes, &mut out.masks).unwrap();
        for state in env.states() {
            assert_eq!(state.position(), opening(5, &net));
        }
        for _ in 0..10 {
            let actions = env.sample_actions();
            env.step(&actions, &mut out.buffers()).unwrap();
        }
    }
    // Without it, the default's opening: on 7x7, which the built-in
    // network does not serve, the hand evaluation's.
    let mut env = VecEnv::new(start, 2, Some(30), 9, 1)
        .unwrap()
        .with_opponent(Opponent::Engine(limits), Side::Eks)
        .unwrap();
    assert_eq!(env.opponent_evaluation(), &Evaluation::Auto);
    let mut out = Outputs::new(2, start.size());
    env.reset(None, &mut out.planes, &mut out.masks).unwrap();
    assert_eq!(
        env.states().next().unwrap().position(),
        opening(9, &Evaluation::Hand)
    );
}

#[test]
fn a_network_without_the_batchs_board_size_is_refused_at_once() {
    let other = ball_network(BoardSize::new(9, 9).unwrap(), 0.25);
    let refused = VecEnv::new(small_start(), 2, Some(30), 1, 1)
        .unwrap()
        .with_opponent(Opponent::Engine(Limits::nodes(50)), Side::Ohs)
        .unwrap()
        .with_opponent_evaluation(other)
        .unwrap_err();
    assert!(matches!(refused, VecEnvError::Network(_)));
    assert_eq!(
        refused.to_string(),
        "the engine opponent's network cannot judge this batch's board: the network serves 9x9, not 5x7"
    );
}
