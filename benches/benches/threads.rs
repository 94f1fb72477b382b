//! Criterion benchmark of the threaded engine: the time to search the
//! engine's test positions to a fixed depth with 1 and 2 threads
//! (`Limits::with_threads`). Run with
//! `cargo bench -p phutball-benches --bench threads`; the README has the
//! ratio of one run.

// criterion_group! defines a `pub fn` that cannot carry a doc comment.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use phutball::{Position, Side};
use phutball_engine::suites::random_position;
use phutball_engine::{Engine, Evaluation, Limits, SplitMix64};

/// The depth searched: about a second for all positions on one thread.
const DEPTH: u32 = 5;

/// The positions of the engine's search tests
/// (`crates/phutball-engine/tests/search.rs`) and the seeds' worked example.
fn positions() -> Vec<Position> {
    let mut rng = SplitMix64::new(3);
    let texts = [
        "15/15/15/15/15/15/10#4/9@5/7####4/10#4/7#7/15/15/15/15/15/15/15/15 O",
        "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O",
    ];
    let mut positions: Vec<Position> = texts
        .iter()
        .map(|t| t.parse().expect("a position"))
        .collect();
    positions.push(Position::standard());
    positions.push(random_position(&mut rng, 30, 4, Side::Eks));
    positions
}

fn to_a_fixed_depth(c: &mut Criterion) {
    let positions = positions();
    let mut group = c.benchmark_group("threads");
    group.sample_size(10);
    for threads in [1, 2] {
        // The hand evaluation, as the figures in docs/performance.md were
        // measured (before the network became the default on 15x19).
        let engine = Engine::new(Limits::depth(DEPTH).with_threads(threads), 1)
            .with_evaluation(Evaluation::Hand);
        group.bench_function(format!("depth {DEPTH}, {threads} threads"), |b| {
            b.iter(|| {
                positions
                    .iter()
                    .map(|p| engine.analyse(black_box(p)).expect("a move").depth)
                    .sum::<u32>()
            });
        });
    }
    group.finish();
}

criterion_group!(benches, to_a_fixed_depth);
criterion_main!(benches);
