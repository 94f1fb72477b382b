//! Can-score on the hard corpus `hard-32` (the core's fixture file
//! `crates/phutball/tests/data/hard-32.fixture`), each position under a
//! deadline of 1 s (`PHUTBALL_HARD_TIMEOUT_MS` changes it). First one pass
//! prints, per position, the answer (checked against the file's `score`
//! figure where that is decided) and the time, then the
//! decided count, median and worst time; then criterion times whole passes.
//! Run with `cargo bench -p phutball-benches --bench hard`.

// criterion_group! defines a `pub fn` that cannot carry a doc comment.
#![allow(missing_docs)]

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use phutball::fixtures::ScoreFigure;
use phutball_benches::{fixture, positions, CorpusRun, HARD_32};

fn timeout() -> Duration {
    let ms = std::env::var("PHUTBALL_HARD_TIMEOUT_MS")
        .ok()
        .map_or(1000, |v| {
            v.parse::<u64>()
                .expect("PHUTBALL_HARD_TIMEOUT_MS: milliseconds")
        });
    Duration::from_millis(ms)
}

fn hard_corpus(c: &mut Criterion) {
    let records = fixture(HARD_32);
    let corpus = positions(&records);
    let expected: Vec<Option<bool>> = records
        .iter()
        .map(|r| r.score.and_then(ScoreFigure::known))
        .collect();
    let timeout = timeout();
    let run = CorpusRun::run(&corpus, timeout);
    for (index, ((result, time), known)) in run.results.iter().zip(&expected).enumerate() {
        if let (Ok(answer), Some(known)) = (result, known) {
            assert_eq!(answer, known, "hard-32 record {}: wrong answer", index + 1);
        }
        let answer = match result {
            Ok(true) => "yes".to_string(),
            Ok(false) => "no".to_string(),
            Err(e) => format!("undecided ({e})"),
        };
        println!(
            "hard-32 record {:2}: {answer} in {:.1} ms",
            index + 1,
            time.as_secs_f64() * 1e3
        );
    }
    println!(
        "hard-32, {} ms each: {}",
        timeout.as_millis(),
        run.summary()
    );

    let mut group = c.benchmark_group("hard-32");
    // A pass can take seconds: ten samples of one pass each.
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.bench_function(
        format!("can_score_within {} ms each", timeout.as_millis()),
        |b| b.iter(|| black_box(CorpusRun::run(black_box(&corpus), timeout)).decided()),
    );
    group.finish();
}

criterion_group!(benches, hard_corpus);
criterion_main!(benches);
