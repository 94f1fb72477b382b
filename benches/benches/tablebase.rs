//! Tablebase builds: states per second of whole retrograde builds (every
//! round, both threads' worth of work on the calling thread and one more)
//! for 1x12, 3x4, 4x4 and 3x5 under both off-board rules. Run with
//! `cargo bench -p phutball-benches --bench tablebase`; the figures of
//! larger boards, timed with the CLI, are in docs/solver.md.

// criterion_group! defines a `pub fn` that cannot carry a doc comment.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use phutball::{BoardSize, Budget};
use phutball_solver::Tablebase;

fn builds(c: &mut Criterion) {
    let mut group = c.benchmark_group("tablebase build");
    group.sample_size(10);
    for (cols, rows) in [(1, 12), (3, 4), (4, 4), (3, 5)] {
        let size = BoardSize::new(cols, rows).expect("a size");
        let states = Tablebase::states_of(size).expect("a small board");
        group.throughput(Throughput::Elements(states));
        for continue_off_board in [false, true] {
            let rule = if continue_off_board {
                "continue"
            } else {
                "stop"
            };
            group.bench_function(format!("{size} {rule}"), |b| {
                b.iter(|| {
                    Tablebase::build_within(
                        black_box(size),
                        continue_off_board,
                        &Budget::unlimited(),
                        &mut |_| {},
                    )
                    .expect("a small build")
                });
            });
        }
    }
    group.finish();
}

criterion_group!(benches, builds);
criterion_main!(benches);
