//! How many threads a build runs on: the jobs asked for, capped by the
//! cores, by the memory limit and by the address space the process has
//! left.
//!
//! Past a few threads a core they only wait on one another. Each thread
//! costs its stack and its jump walk's set, counted against the memory
//! limit. Under an address-space limit (`ulimit -v`) each also costs a
//! malloc arena: glibc reserves 64 MiB of address space for every
//! thread's arena. Threads past what the space holds made the build abort
//! ("memory allocation of 41 bytes failed", "failed to allocate an
//! alternative stack") rather than fail, so the space is probed, with a
//! reservation given back at once, before any thread starts.

/// The most threads a build runs per core.
pub(crate) const THREADS_PER_CORE: usize = 4;
/// The stack of a build thread: the jump walks recurse once per man
/// jumped, at most 64 on a tablebase's board.
pub(crate) const STACK_BYTES: usize = 512 << 10;
/// The address space a thread's malloc arena may reserve (glibc's
/// `HEAP_MAX_SIZE` on 64-bit systems).
const ARENA_BYTES: usize = 64 << 20;
/// The address space left to the calling thread once the others run: the
/// progress lines, the table's counts and the file written after it.
const RESERVE_BYTES: usize = 32 << 20;

/// The threads a build runs on, at least 1 (the calling thread): `asked`,
/// at most [`THREADS_PER_CORE`] per core of `cores`, at most what
/// `memory_left` (of the memory limit) holds at `thread_bytes` each, and
/// at most what `fits` says the address space holds (it is asked
/// whether a reservation of that many bytes would succeed).
pub(crate) fn build_threads(
    asked: usize,
    cores: usize,
    memory_left: usize,
    thread_bytes: usize,
    fits: impl Fn(usize) -> bool,
) -> usize {
    let by_cores = cores.max(1).saturating_mul(THREADS_PER_CORE);
    let by_memory = memory_left / thread_bytes.max(1);
    let mut threads = asked.min(by_cores).min(by_memory).max(1);
    while threads > 1 && !fits(address_space(threads, thread_bytes)) {
        threads -= 1;
    }
    threads
}

/// The address space `threads` threads need besides the table: an arena,
/// a stack and a walk for each thread the build starts, and the calling
/// thread's reserve.
fn address_space(threads: usize, thread_bytes: usize) -> usize {
    (threads - 1)
        .saturating_mul(
            ARENA_BYTES
                .saturating_add(STACK_BYTES)
                .saturating_add(thread_bytes),
        )
        .saturating_add(RESERVE_BYTES)
}

/// Whether the allocator would give `bytes` now: reserved and given back
/// at once, never touched (so never resident).
pub(crate) fn allocator_gives(bytes: usize) -> bool {
    Vec::<u8>::new().try_reserve_exact(bytes).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    const WALK: usize = 256 << 10;

    #[test]
    fn the_jobs_asked_for_run_when_everything_holds_them() {
        assert_eq!(build_threads(3, 2, usize::MAX, WALK, |_| true), 3);
        assert_eq!(build_threads(1, 64, usize::MAX, WALK, |_| true), 1);
    }

    #[test]
    fn the_cores_cap_the_threads() {
        assert_eq!(
            build_threads(128, 2, usize::MAX, WALK, |_| true),
            2 * THREADS_PER_CORE
        );
        assert_eq!(
            build_threads(128, 0, usize::MAX, WALK, |_| true),
            THREADS_PER_CORE
        );
    }

    #[test]
    fn the_memory_limit_caps_the_threads() {
        assert_eq!(build_threads(128, 64, 5 * WALK + 1, WALK, |_| true), 5);
        assert_eq!(build_threads(128, 64, 0, WALK, |_| true), 1);
    }

    #[test]
    fn the_address_space_caps_the_threads() {
        let space = 500_000 << 10;
        let threads = build_threads(128, 64, usize::MAX, WALK, |bytes| bytes <= space);
        assert!(address_space(threads, WALK) <= space);
        assert!(address_space(threads + 1, WALK) > space);
        assert_eq!(build_threads(128, 64, usize::MAX, WALK, |_| false), 1);
    }

    #[test]
    fn a_thread_counts_its_arena_stack_and_walk() {
        assert_eq!(address_space(1, WALK), RESERVE_BYTES);
        assert_eq!(
            address_space(3, WALK),
            2 * (ARENA_BYTES + STACK_BYTES + WALK) + RESERVE_BYTES
        );
    }

    #[test]
    fn the_allocator_gives_a_small_reservation_and_refuses_an_impossible_one() {
        assert!(allocator_gives(1 << 20));
        assert!(!allocator_gives(usize::MAX));
    }
}
