//! The engine's clock: [`std::time::Instant`] natively; on wasm32, where
//! `Instant::now` panics, the time of a source the embedder sets with
//! [`set_clock`] (the wasm bindings give it `performance.now()`).

#[cfg(not(target_arch = "wasm32"))]
pub(crate) use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use hooked::set_clock;
#[cfg(target_arch = "wasm32")]
pub(crate) use hooked::Instant;

#[cfg(target_arch = "wasm32")]
mod hooked {
    use std::sync::OnceLock;
    use std::time::Duration;

    /// The embedder's clock: the time since some fixed origin.
    static SOURCE: OnceLock<fn() -> Duration> = OnceLock::new();

    /// Sets the clock the engine reads on wasm32 (the first call wins; the
    /// answer says whether this one did). Until it is set the time stands
    /// still: deadlines never pass, and only the other limits stop a search.
    pub fn set_clock(now: fn() -> Duration) -> bool {
        SOURCE.set(now).is_ok()
    }

    /// A point in time of the embedder's clock: the few calls of
    /// [`std::time::Instant`] the engine makes.
    #[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
    pub(crate) struct Instant(Duration);

    impl Instant {
        pub(crate) fn now() -> Instant {
            Instant(SOURCE.get().map_or(Duration::ZERO, |now| now()))
        }

        pub(crate) fn elapsed(&self) -> Duration {
            Instant::now().saturating_duration_since(*self)
        }

        pub(crate) fn checked_add(&self, d: Duration) -> Option<Instant> {
            self.0.checked_add(d).map(Instant)
        }

        pub(crate) fn saturating_duration_since(&self, earlier: Instant) -> Duration {
            self.0.saturating_sub(earlier.0)
        }
    }
}
