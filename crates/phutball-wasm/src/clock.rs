//! The engine's clock on wasm32: `performance.now()` (a browser page, a Web
//! Worker and Node all have it), set once as the module starts.

use std::time::Duration;

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = performance, js_name = now)]
    fn performance_now() -> f64;
}

/// The time since the page (or worker, or Node process) started.
fn now() -> Duration {
    Duration::try_from_secs_f64(performance_now() / 1000.0).unwrap_or(Duration::ZERO)
}

/// Runs as the module is instantiated: the engine's deadlines need a clock
/// (`std::time::Instant::now` panics on this target). wasm-bindgen also
/// exports it; calling it again changes nothing.
#[wasm_bindgen(start)]
fn set_engine_clock() {
    phutball_engine::set_clock(now);
}
