//! Benchmark data helpers.
