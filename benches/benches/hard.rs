//! Can-score on the hard corpus `hard-32` (`benches/data/hard-32.pos`),
//! each position under a deadline of 1 s (`PHUTBALL_HARD_TIMEOUT_MS`
//! changes it). First one pass prints, per position, the answer (checked
//! against `hard-32.expected` where that is known) and the time, then the
//! decided count, median and worst time; then criterion times whole passes.
//! Run with `cargo bench -p phutball-benches --bench hard`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode};
use phutball_benches::{answers, positions, CorpusRun, HARD_32, HARD_32_EXPECTED};

fn timeout() -> Duration {
    let ms = std::env::var("PHUTBALL_HARD_TIMEOUT_MS")
        .ok()
        .map(|v| {
            v.parse::<u64>()
                .expect("PHUTBALL_HARD_TIMEOUT_MS: milliseconds")
        })
        .unwrap_or(1000);
    Duration::from_millis(ms)
}

fn hard_corpus(c: &mut Criterion) {
    let corpus = positions(HARD_32);
    let expected = answers(HARD_32_EXPECTED);
    assert_eq!(
        corpus.len(),
        expected.len(),
        "hard-32.expected: one answer a line"
    );
    let timeout = timeout();
    let run = CorpusRun::run(&corpus, timeout);
    for (line, ((result, time), known)) in run.results.iter().zip(&expected).enumerate() {
        if let (Ok(answer), Some(known)) = (result, known) {
            assert_eq!(answer, known, "hard-32 line {}: wrong answer", line + 1);
        }
        let answer = match result {
            Ok(true) => "1".to_string(),
            Ok(false) => "0".to_string(),
            Err(e) => format!("? ({e})"),
        };
        println!(
            "hard-32 line {:2}: {answer} in {:.1} ms",
            line + 1,
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
