//! The engine's fixed cost per call: a position won in one (no search
//! needed) analysed by an engine kept between calls (its table reused)
//! and by a fresh engine per call (a table allocated each time, as every
//! call did before the engine kept its table). Run with
//! `cargo bench -p phutball-benches --bench engine`.

// criterion_group! defines a `pub fn` that cannot carry a doc comment.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use phutball::Position;
use phutball_engine::{Engine, Limits};

/// Ball H10, men H11..H19: Ohs scores at once.
const WIN_IN_ONE: &str = "15/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7#7/7@7/15/15/15/15/15/15/15/15/15 O";

fn win_in_one(c: &mut Criterion) {
    let pos: Position = WIN_IN_ONE.parse().expect("a position");
    let limits = Limits::nodes(1000);
    let mut group = c.benchmark_group("engine win in one");
    let kept = Engine::new(limits, 1);
    group.bench_function("kept engine", |b| {
        b.iter(|| kept.analyse(black_box(&pos)).expect("a move"));
    });
    group.bench_function("fresh engine per call", |b| {
        b.iter(|| {
            Engine::new(limits, 1)
                .analyse(black_box(&pos))
                .expect("a move");
        });
    });
    group.finish();
}

criterion_group!(benches, win_in_one);
criterion_main!(benches);
