//! WebAssembly bindings (wasm-bindgen) for the phutball core and engine:
//! the npm package `phutball` that `scripts/build-wasm.sh` builds. Each
//! class lives in its own module; the wrappers read their arguments with
//! the core's notation, call the core or the engine, and format the answer.
//! No rule lives here. Natively the crate is empty (the bindings are for
//! `wasm32-unknown-unknown` only), so the workspace's tests and lints on
//! the host build no JavaScript glue.

// wasm-bindgen hands every argument over by value.
#![allow(clippy::needless_pass_by_value)]

#[cfg(target_arch = "wasm32")]
mod budget;
#[cfg(target_arch = "wasm32")]
mod classes;
#[cfg(target_arch = "wasm32")]
mod clock;
#[cfg(target_arch = "wasm32")]
mod engine;
#[cfg(target_arch = "wasm32")]
mod errors;
#[cfg(target_arch = "wasm32")]
mod game;
#[cfg(target_arch = "wasm32")]
mod jump_in_progress;
#[cfg(target_arch = "wasm32")]
mod network;
#[cfg(target_arch = "wasm32")]
mod position;
#[cfg(target_arch = "wasm32")]
mod prover;
#[cfg(target_arch = "wasm32")]
mod svg;
#[cfg(target_arch = "wasm32")]
mod texts;
