//! Criterion benchmarks: jump paths (counted and as lists) and distinct
//! outcomes on `jumps-24`, can-score on `score-16`, perft from the start,
//! and move application.
//! Run with `cargo bench -p phutball-benches`.

// criterion_group! defines a `pub fn` that cannot carry a doc comment.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use phutball::{perft, Move, Position};
use phutball_benches::{fixture, plain::PlainBoard, positions, JUMPS_24, SCORE_16};

fn enumeration(c: &mut Criterion) {
    let records = fixture(JUMPS_24);
    let jumps = positions(&records);
    let total_paths: u64 = records.iter().filter_map(|r| r.paths).sum();
    let mut group = c.benchmark_group("jumps-24");
    group.throughput(Throughput::Elements(total_paths));
    group.sample_size(20);
    group.bench_function("count_jump_paths", |b| {
        b.iter(|| {
            jumps
                .iter()
                .map(|p| black_box(p).count_jump_paths())
                .sum::<u64>()
        });
    });
    let mut plain: Vec<PlainBoard> = jumps
        .iter()
        .map(|p| PlainBoard::new(p).expect("standard board"))
        .collect();
    group.bench_function("plain mailbox baseline", |b| {
        b.iter(|| {
            plain
                .iter_mut()
                .map(|p| black_box(p).count_paths())
                .sum::<u64>()
        });
    });
    // The lists themselves, as Position.jump_paths() in Python builds them
    // (benches/python/move_lists.py compares the two).
    group.bench_function("jump_paths (lists)", |b| {
        b.iter(|| {
            jumps
                .iter()
                .map(|p| black_box(p).jump_paths().expect("within the bound").len())
                .sum::<usize>()
        });
    });
    group.bench_function("count_jump_outcomes", |b| {
        b.iter(|| {
            jumps
                .iter()
                .map(|p| {
                    black_box(p)
                        .count_jump_outcomes()
                        .expect("within the bound")
                })
                .sum::<u64>()
        });
    });
    group.finish();

    let score = positions(&fixture(SCORE_16));
    let mut group = c.benchmark_group("score-16");
    group.sample_size(20);
    group.bench_function("can_score", |b| {
        b.iter(|| score.iter().filter(|p| black_box(p).can_score()).count());
    });
    group.bench_function("count_jump_paths", |b| {
        b.iter(|| {
            score
                .iter()
                .map(|p| black_box(p).count_jump_paths())
                .sum::<u64>()
        });
    });
    group.finish();
}

fn perft_from_start(c: &mut Criterion) {
    let start = Position::standard();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    group.bench_function("start depth 2", |b| b.iter(|| perft(black_box(&start), 2)));
    group.bench_function("start depth 3", |b| b.iter(|| perft(black_box(&start), 3)));
    group.finish();
}

fn move_application(c: &mut Criterion) {
    let seeds: Position = "15/15/15/15/15/15/15/15/7#7/6#8/15/7#7/8#6/9@5/15/15/15/15/15 O"
        .parse()
        .expect("valid position");
    let jump: Move = "K6-G9-G11-J11".parse().expect("valid move");
    let placement: Move = "A1".parse().expect("valid move");
    let mut group = c.benchmark_group("play");
    group.bench_function("placement", |b| {
        b.iter(|| black_box(&seeds).play(black_box(&placement)));
    });
    group.bench_function("jump of 3 landings", |b| {
        b.iter(|| black_box(&seeds).play(black_box(&jump)));
    });
    group.bench_function("parse and play", |b| {
        b.iter(|| {
            let m: Move = black_box("K6-G9-G11-J11").parse().expect("valid move");
            seeds.play(&m)
        });
    });
    group.finish();
}

criterion_group!(benches, enumeration, perft_from_start, move_application);
criterion_main!(benches);
