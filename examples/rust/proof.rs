//! A proof from Rust: who wins the 5 x 7 board's start with best play,
//! proved by the solver within a budget, and its certificate checked with
//! nothing but the core's plain rules, as anyone can check it again.
//!
//! Run: `cargo run --example proof` (`tests/run_examples.rs` checks what it
//! prints).

use phutball::{Budget, Position};
use phutball_solver::{prove_within, Certificate, Value};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let start: Position = "start:5x7".parse()?;
    // The budget bounds the work (the prover counts nodes) and the memory
    // (its tables and the certificate); when either runs out the prover
    // answers "unknown" with `proof.stopped` set, never a wrong answer.
    // This board takes a few hundred nodes.
    let budget = Budget::default()
        .with_work_limit(100_000)
        .with_memory_limit(64 << 20);
    let proof = prove_within(&start, &budget)?;
    let value = proof
        .value
        .ok_or_else(|| format!("not proved: {:?}", proof.stopped))?;
    println!(
        "start:5x7: {} ({value:?}), {} nodes searched",
        proof.verdict(),
        proof.nodes
    );
    let line: Vec<String> = proof.line.iter().map(ToString::to_string).collect();
    println!("line: {}", line.join(" "));

    // The certificate is the proof as a graph of positions; its text form
    // (docs/certificates.md) is what `phutball prove --certificate` writes.
    let certificate = proof
        .certificate
        .ok_or("a proof comes with its certificate")?;
    let text = certificate.to_string();
    let checked = text.parse::<Certificate>()?.check(&Budget::default())?;
    println!(
        "certificate: {} lines, checked: {:?} wins within {} plies ({} nodes)",
        text.lines().count(),
        checked.winner,
        checked.plies,
        checked.nodes
    );
    assert!(matches!(value, Value::Win { .. }));
    Ok(())
}
