//! The build: retrograde analysis in rounds, each checked forwards.
//!
//! Round `k` decides the states won or lost in exactly `k` plies:
//!
//! - round 1 goes through every state: a jump that ends on or over Ohs's
//!   goal wins in 1; a state whose every move is an own goal loses in 1;
//! - round `k > 1` first goes through the states decided in round `k - 1`
//!   and generates their parents ([`SmallBoard::for_each_parent`]): a
//!   parent of a loss in `k - 1` not yet decided wins in `k` (the move to
//!   that loss is the shortest win: no shorter one exists, or an earlier
//!   round would have found it); a parent of a win in `k - 1` is marked.
//!   Then every marked state not yet decided is checked forwards with its
//!   children: if each child is a win decided before this round, it loses
//!   in `k` (one more than its longest-resisting child, which is the win
//!   in `k - 1`). When round `k - 1` found more wins than there are states
//!   left undecided, their parents are not marked: every undecided state
//!   is checked instead, which finds the same losses for less.
//! - A round that decides nothing ends the build: no state can then win or
//!   lose in more plies, and the undecided states are draws.
//!
//! Why parents and forward checks rather than counting each state's
//! undecided children (the textbook retrograde): the counts would need a
//! second array as large as the values (2 bytes a state: dense positions
//! have hundreds of children) and exact, duplicate-free parent lists
//! (decrementing twice would be a wrong value, silently). Here a value
//! depends only on children the core's rules produced and on its parents
//! being complete (both checked by `tests/small_board.rs`), and
//! marks are one bit a state. Why not forward rounds alone (every
//! undecided state checked every round): draws would be checked in every
//! round, and the longest wins take dozens of rounds.
//!
//! The states are cut into blocks of about a millisecond of work; threads
//! take blocks in turn, and each block starts by polling the budget.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use phutball::{Budget, SearchError, Side, TooManyOutcomesError};

use super::code::{self, MAX_PLIES};
use super::index::Layout;
use super::threads::{allocator_gives, build_threads, STACK_BYTES};
use crate::error::SolverError;
use crate::small_board::{SmallPosition, SmallScratch};

/// States a block of the scan and mark steps goes through.
const BLOCK_STATES: usize = 1024;
/// Mark words (64 states each) a block of the evaluate step goes through:
/// a marked state costs a forward check, a few hundred nanoseconds.
const BLOCK_WORDS: usize = 16;
/// The main thread reports progress after this many of its blocks.
const REPORT_EVERY: usize = 64;
/// Blocks per thread below which a step runs on fewer threads: starting
/// a thread (and waiting for it to be scheduled, on a busy machine) costs
/// more than a few blocks of work.
const BLOCKS_PER_THREAD: usize = 64;
/// The most positions one jump walk (children or parents) may reach. The
/// largest seen on 5x5 with the continue-off-board rule: 33,634 children
/// (among the positions of 18 men or more) and 266,058 parents (among
/// those of 2 men or fewer); 5x5 builds under it.
const WALK_LIMIT: usize = 1 << 22;
/// The bytes a walk may hold per position it reaches, at most: its hash
/// slots ([`SmallScratch::new`]: 16 bytes, up to 4 per position).
const WALK_BYTES: usize = 64;
/// The fewest positions a walk may be allowed: below it the memory limit
/// is too tight for the board.
const WALK_MIN: usize = 4096;

/// Which step of a round the build is in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum BuildStep {
    /// Round 1: every state checked for a goal in one move.
    Scan,
    /// Round `k > 1`: the parents of the states decided in round `k - 1`
    /// (the parents of losses are wins now; those of wins are marked).
    Mark,
    /// Round `k > 1`: the marked states checked forwards for losses.
    Evaluate,
}

/// How far a build has got, as its progress hook sees it. States are the
/// table's entries: positions with Ohs to move (each stands for itself and
/// for its mirror image top to bottom with Eks to move).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct BuildProgress {
    /// The round: it decides the wins and losses in exactly this many plies.
    pub round: u32,
    /// The step of the round.
    pub step: BuildStep,
    /// States this step has gone through (of [`BuildProgress::states`]).
    pub done: u64,
    /// The states of the table.
    pub states: u64,
    /// States decided (won or lost) so far, every round.
    pub resolved: u64,
    /// States decided in this round so far.
    pub resolved_this_round: u64,
    /// States checked forwards in this round so far (their children read).
    pub evaluated_this_round: u64,
    /// The threads the build runs on, the calling one included: the jobs
    /// asked for, capped by the cores, the memory limit and the address
    /// space left.
    pub threads: usize,
}

/// The bytes of a build's two arrays for `states` states: a value byte
/// and a mark bit each.
pub(crate) fn table_bytes(states: u64) -> Option<u64> {
    states.checked_add(states.div_ceil(64).checked_mul(8)?)
}

/// An array of `len` zeroed atomics, or the budget's error: the memory
/// limit was checked by the caller, the allocator may still refuse.
fn zeroed<T>(len: u64, what: &'static str, new: impl Fn() -> T) -> Result<Vec<T>, SearchError> {
    let len = usize::try_from(len).map_err(|_| SearchError::OutOfMemory { what })?;
    let mut array = Vec::new();
    array
        .try_reserve_exact(len)
        .map_err(|_| SearchError::OutOfMemory { what })?;
    array.resize_with(len, new);
    Ok(array)
}

/// Builds the values of every state of `layout` on `threads` threads
/// within `budget`, reporting to `progress` from the calling thread.
pub(crate) fn build(
    layout: &Layout,
    threads: usize,
    budget: &Budget<'_>,
    progress: &mut dyn FnMut(&BuildProgress),
) -> Result<Vec<AtomicU8>, SolverError> {
    if let Some(stop) = budget.interrupted() {
        return Err(stop.into());
    }
    let states = layout.states();
    let limit = budget.memory_limit();
    let table = table_bytes(states)
        .and_then(|bytes| usize::try_from(bytes).ok())
        .filter(|&bytes| bytes <= limit)
        .ok_or(SearchError::MemoryLimit {
            limit,
            what: "the tablebase's values and marks",
        })?;
    let walk_min = WALK_MIN * WALK_BYTES;
    if limit - table < walk_min {
        return Err(SearchError::MemoryLimit {
            limit,
            what: "the tablebase's jump walks",
        }
        .into());
    }
    let values = zeroed(states, "the tablebase's values", || {
        AtomicU8::new(code::DRAW)
    })?;
    let marks = zeroed(states.div_ceil(64), "the tablebase's marks", || {
        AtomicU64::new(0)
    })?;
    // After the table is allocated, so that the address space probed is
    // what the threads will find.
    let threads = build_threads(
        threads,
        phutball::default_jobs(),
        limit - table,
        walk_min + STACK_BYTES,
        allocator_gives,
    );
    let walk_limit = ((limit - table) / threads / WALK_BYTES).min(WALK_LIMIT);
    let run = Run {
        layout,
        values: &values,
        marks: &marks,
        budget,
        threads,
        walk_limit,
        walk_by_memory: walk_limit < WALK_LIMIT,
        work: AtomicU64::new(0),
        resolved: AtomicU64::new(0),
    };
    run.rounds(progress)?;
    drop(marks);
    Ok(values)
}

/// One build's shared state.
struct Run<'a, 'b> {
    layout: &'a Layout,
    values: &'a [AtomicU8],
    marks: &'a [AtomicU64],
    budget: &'a Budget<'b>,
    threads: usize,
    /// The most positions a walk may reach.
    walk_limit: usize,
    /// Whether the memory limit, not [`WALK_LIMIT`], set `walk_limit`.
    walk_by_memory: bool,
    /// States gone through, every step: the work the budget limits.
    work: AtomicU64,
    resolved: AtomicU64,
}

/// One round's counts, shared by its threads.
#[derive(Default)]
struct RoundCounts {
    wins: AtomicU64,
    losses: AtomicU64,
    evaluated: AtomicU64,
}

impl RoundCounts {
    /// The states decided this round so far.
    fn resolved(&self) -> u64 {
        self.wins.load(Ordering::Relaxed) + self.losses.load(Ordering::Relaxed)
    }
}

/// Indices of parents waiting to be read together ([`Run::settle`]).
struct Batch {
    indices: [usize; Batch::SIZE],
    len: usize,
}

impl Batch {
    const SIZE: usize = 32;

    /// Adds `index`; whether the batch is full.
    fn push(&mut self, index: usize) -> bool {
        self.indices[self.len] = index;
        self.len += 1;
        self.len == Batch::SIZE
    }
}

impl Default for Batch {
    fn default() -> Self {
        Batch {
            indices: [0; Batch::SIZE],
            len: 0,
        }
    }
}

/// What a block did.
#[derive(Default)]
struct BlockCounts {
    states: u64,
    wins: u64,
    losses: u64,
    evaluated: u64,
}

impl Run<'_, '_> {
    /// Every round until one decides nothing.
    fn rounds(&self, progress: &mut dyn FnMut(&BuildProgress)) -> Result<(), SolverError> {
        let states = self.values.len();
        let scan_blocks = states.div_ceil(BLOCK_STATES);
        let counts = RoundCounts::default();
        self.step(
            1,
            BuildStep::Scan,
            scan_blocks,
            &counts,
            progress,
            |block, scratch| self.scan(block, scratch),
        )?;
        let mut last = counts;
        let mut round = 1;
        while last.resolved() > 0 {
            round += 1;
            if round > MAX_PLIES {
                return Err(SolverError::TooManyPlies { max: MAX_PLIES });
            }
            // Marking the parents of the wins just found costs their
            // parents; checking every undecided state costs its children,
            // most of them stopped at the first. When the wins outnumber
            // the undecided states (round 2 of wide boards, where most
            // states win in one), the second is the cheaper.
            let undecided = self.values.len() as u64 - self.resolved.load(Ordering::Relaxed);
            let forward = last.wins.load(Ordering::Relaxed) > undecided;
            let counts = RoundCounts::default();
            self.step(
                round,
                BuildStep::Mark,
                scan_blocks,
                &counts,
                progress,
                |block, scratch| self.mark(round, !forward, block, scratch),
            )?;
            if forward {
                self.step(
                    round,
                    BuildStep::Evaluate,
                    scan_blocks,
                    &counts,
                    progress,
                    |block, scratch| self.evaluate_all(round, block, scratch),
                )?;
            } else {
                let evaluate_blocks = self.marks.len().div_ceil(BLOCK_WORDS);
                self.step(
                    round,
                    BuildStep::Evaluate,
                    evaluate_blocks,
                    &counts,
                    progress,
                    |block, scratch| self.evaluate(round, block, scratch),
                )?;
            }
            last = counts;
        }
        Ok(())
    }

    /// Runs `job` on blocks `0..blocks` on every thread, the calling one
    /// reporting progress; the first error stops every thread.
    fn step<J>(
        &self,
        round: u32,
        step: BuildStep,
        blocks: usize,
        counts: &RoundCounts,
        progress: &mut dyn FnMut(&BuildProgress),
        job: J,
    ) -> Result<(), SolverError>
    where
        J: Fn(usize, &mut SmallScratch) -> Result<BlockCounts, SolverError> + Sync,
    {
        let next = AtomicUsize::new(0);
        let done = AtomicU64::new(0);
        let halt = AtomicBool::new(false);
        let failure: Mutex<Option<SolverError>> = Mutex::new(None);
        let states = self.values.len() as u64;
        let report = |done: u64, progress: &mut dyn FnMut(&BuildProgress)| {
            progress(&BuildProgress {
                round,
                step,
                done: done.min(states),
                states,
                resolved: self.resolved.load(Ordering::Relaxed),
                resolved_this_round: counts.resolved(),
                evaluated_this_round: counts.evaluated.load(Ordering::Relaxed),
                threads: self.threads,
            });
        };
        let work = |mut progress: Option<&mut dyn FnMut(&BuildProgress)>| {
            let mut scratch = SmallScratch::new(self.walk_limit);
            let mut mine = 0usize;
            while !halt.load(Ordering::Relaxed) {
                let block = next.fetch_add(1, Ordering::Relaxed);
                if block >= blocks {
                    break;
                }
                let result = self.poll().and_then(|()| job(block, &mut scratch));
                match result.and_then(|did| self.count(&did, counts)) {
                    Ok(states) => {
                        let total = done.fetch_add(states, Ordering::Relaxed) + states;
                        mine += 1;
                        if let Some(progress) = progress.as_deref_mut() {
                            if mine % REPORT_EVERY == 0 {
                                report(total, progress);
                            }
                        }
                    }
                    Err(e) => {
                        halt.store(true, Ordering::Relaxed);
                        let mut first = failure.lock().unwrap_or_else(PoisonError::into_inner);
                        first.get_or_insert(e);
                        break;
                    }
                }
            }
        };
        let threads = self.threads.min(blocks / BLOCKS_PER_THREAD).max(1);
        std::thread::scope(|scope| {
            for _ in 1..threads {
                // A thread the system refuses leaves its share to those
                // running, and so do the ones after it.
                let thread = std::thread::Builder::new().stack_size(STACK_BYTES);
                if thread.spawn_scoped(scope, || work(None)).is_err() {
                    break;
                }
            }
            work(Some(&mut *progress));
        });
        if let Some(e) = failure.into_inner().unwrap_or_else(PoisonError::into_inner) {
            return Err(e);
        }
        report(done.load(Ordering::Relaxed), progress);
        Ok(())
    }

    /// The budget's verdict before a block.
    fn poll(&self) -> Result<(), SolverError> {
        match self.budget.interrupted() {
            Some(stop) => Err(stop.into()),
            None => Ok(()),
        }
    }

    /// Adds a block's counts; fails past the budget's work limit. Returns
    /// the states the block went through.
    fn count(&self, did: &BlockCounts, counts: &RoundCounts) -> Result<u64, SolverError> {
        counts.wins.fetch_add(did.wins, Ordering::Relaxed);
        counts.losses.fetch_add(did.losses, Ordering::Relaxed);
        counts.evaluated.fetch_add(did.evaluated, Ordering::Relaxed);
        self.resolved
            .fetch_add(did.wins + did.losses, Ordering::Relaxed);
        let work = self.work.fetch_add(did.states, Ordering::Relaxed) + did.states;
        let limit = self.budget.work_limit();
        if work > limit {
            return Err(SearchError::WorkLimit { limit }.into());
        }
        Ok(did.states)
    }

    /// The error for a walk that stopped: out of memory when the
    /// allocator refused `scratch` more room, else past its limit: the
    /// memory limit's when the memory left set the walk's limit.
    fn walk_error(&self, e: TooManyOutcomesError, scratch: &SmallScratch) -> SolverError {
        SolverError::Search(if scratch.refused() {
            SearchError::OutOfMemory {
                what: "the tablebase's jump walks",
            }
        } else if self.walk_by_memory {
            SearchError::MemoryLimit {
                limit: self.budget.memory_limit(),
                what: "the tablebase's jump walks",
            }
        } else {
            SearchError::TooManyOutcomes(e)
        })
    }

    /// The states of scan or mark block `block`.
    fn block_range(&self, block: usize) -> core::ops::Range<usize> {
        let start = block * BLOCK_STATES;
        start..(start + BLOCK_STATES).min(self.values.len())
    }

    /// Round 1 on one block: the wins and losses in one ply.
    fn scan(&self, block: usize, scratch: &mut SmallScratch) -> Result<BlockCounts, SolverError> {
        let range = self.block_range(block);
        let mut did = BlockCounts {
            states: range.len() as u64,
            evaluated: range.len() as u64,
            ..BlockCounts::default()
        };
        for index in range {
            let found = self
                .in_one(self.layout.state(index), scratch)
                .map_err(|e| self.walk_error(e, scratch))?;
            if found != code::DRAW {
                self.values[index].store(found, Ordering::Relaxed);
                if code::is_win(found) {
                    did.wins += 1;
                } else {
                    did.losses += 1;
                }
            }
        }
        Ok(did)
    }

    /// A win in 1 (a jump ends on or over Ohs's goal), a loss in 1 (every
    /// move is a jump onto or over Eks's goal), or undecided.
    fn in_one(
        &self,
        state: SmallPosition,
        scratch: &mut SmallScratch,
    ) -> Result<u8, TooManyOutcomesError> {
        let board = &self.layout.board;
        let mut moves = board.placements(state) != 0;
        let mut only_own_goals = !moves;
        let mut scores = false;
        let _ = board.for_each_jump_outcome(state, scratch, |child| {
            moves = true;
            match board.winner_at(child.ball) {
                Some(Side::Ohs) => {
                    scores = true;
                    return core::ops::ControlFlow::Break(());
                }
                Some(Side::Eks) => {}
                None => only_own_goals = false,
            }
            core::ops::ControlFlow::Continue(())
        })?;
        Ok(if scores {
            code::win(1)
        } else if moves && only_own_goals {
            code::loss(1)
        } else {
            code::DRAW
        })
    }

    /// Round `round`'s first step on one block: the parents of the states
    /// decided in the round before: those of losses win now; those of
    /// wins are marked if `mark_wins` (else every undecided state will be
    /// checked).
    fn mark(
        &self,
        round: u32,
        mark_wins: bool,
        block: usize,
        scratch: &mut SmallScratch,
    ) -> Result<BlockCounts, SolverError> {
        let range = self.block_range(block);
        let mut did = BlockCounts {
            states: range.len() as u64,
            ..BlockCounts::default()
        };
        let wins_now = code::win(round);
        let mut batch = Batch::default();
        for index in range {
            let found = self.values[index].load(Ordering::Relaxed);
            if found == code::DRAW || code::plies(found) != round - 1 {
                continue;
            }
            let lost = !code::is_win(found);
            if !lost && !mark_wins {
                continue;
            }
            let state = self.layout.state(index);
            let _ = self
                .layout
                .board
                .for_each_parent(state, scratch, |parent| {
                    // Parents are never over: they have a move.
                    if let Some(p) = self.layout.index_of_turned(parent) {
                        if batch.push(p) {
                            did.wins += self.settle(&mut batch, lost, wins_now);
                        }
                    }
                    core::ops::ControlFlow::Continue(())
                })
                .map_err(|e| self.walk_error(e, scratch))?;
            did.wins += self.settle(&mut batch, lost, wins_now);
        }
        Ok(did)
    }

    /// The parents in `batch` of a state decided in the round before: if
    /// it was `lost`, those not decided win now (`wins_now`), else they are
    /// marked. Returns the wins found. The values are read first, all of
    /// them, so that their cache misses overlap.
    fn settle(&self, batch: &mut Batch, lost: bool, wins_now: u8) -> u64 {
        let parents = &batch.indices[..batch.len];
        let mut found = [0u8; Batch::SIZE];
        for (found, &p) in found.iter_mut().zip(parents) {
            *found = self.values[p].load(Ordering::Relaxed);
        }
        let mut wins = 0;
        for (&found, &p) in found.iter().zip(parents) {
            if found != code::DRAW {
                continue;
            }
            if lost {
                let won = self.values[p].compare_exchange(
                    code::DRAW,
                    wins_now,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                );
                wins += u64::from(won.is_ok());
            } else {
                let (word, bit) = (p / 64, 1u64 << (p % 64));
                if self.marks[word].load(Ordering::Relaxed) & bit == 0 {
                    self.marks[word].fetch_or(bit, Ordering::Relaxed);
                }
            }
        }
        batch.len = 0;
        wins
    }

    /// Round `round`'s second step on one block of marks: the marked states
    /// not yet decided, checked forwards for a loss.
    fn evaluate(
        &self,
        round: u32,
        block: usize,
        scratch: &mut SmallScratch,
    ) -> Result<BlockCounts, SolverError> {
        let first = block * BLOCK_WORDS;
        let words = first..(first + BLOCK_WORDS).min(self.marks.len());
        let mut did = BlockCounts {
            states: (words.len() * 64) as u64,
            ..BlockCounts::default()
        };
        for word in words {
            let mut bits = self.marks[word].swap(0, Ordering::Relaxed);
            while bits != 0 {
                let index = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if self.values[index].load(Ordering::Relaxed) != code::DRAW {
                    continue;
                }
                self.check_loss(index, round, scratch, &mut did)?;
            }
        }
        Ok(did)
    }

    /// Round `round`'s second step on one block of states, when every
    /// undecided state is checked (see [`Run::rounds`]).
    fn evaluate_all(
        &self,
        round: u32,
        block: usize,
        scratch: &mut SmallScratch,
    ) -> Result<BlockCounts, SolverError> {
        let range = self.block_range(block);
        let mut did = BlockCounts {
            states: range.len() as u64,
            ..BlockCounts::default()
        };
        for index in range {
            if self.values[index].load(Ordering::Relaxed) == code::DRAW {
                self.check_loss(index, round, scratch, &mut did)?;
            }
        }
        Ok(did)
    }

    /// Checks the undecided state `index` forwards: a loss in `round` if
    /// every child is a win decided before.
    fn check_loss(
        &self,
        index: usize,
        round: u32,
        scratch: &mut SmallScratch,
        did: &mut BlockCounts,
    ) -> Result<(), SolverError> {
        did.evaluated += 1;
        let state = self.layout.state(index);
        if let Some(plies) = self
            .loss_in(state, round, scratch)
            .map_err(|e| self.walk_error(e, scratch))?
        {
            self.values[index].store(code::loss(plies), Ordering::Relaxed);
            did.losses += 1;
        }
        Ok(())
    }

    /// The plies of a loss if every child of `state` is a win decided
    /// before round `round` (one more than the longest), else `None`.
    fn loss_in(
        &self,
        state: SmallPosition,
        round: u32,
        scratch: &mut SmallScratch,
    ) -> Result<Option<u32>, TooManyOutcomesError> {
        let board = &self.layout.board;
        let mut longest = 0;
        let mut children = false;
        let flow = board.for_each_child(state, scratch, |child| {
            children = true;
            let plies = match self.layout.index_of_turned(child) {
                Some(c) => {
                    let found = self.values[c].load(Ordering::Relaxed);
                    if !code::is_win(found) || code::plies(found) >= round {
                        return core::ops::ControlFlow::Break(());
                    }
                    code::plies(found)
                }
                // An own goal: the child has won, in 0 plies.
                None if board.winner_at(child.ball) == Some(Side::Eks) => 0,
                None => return core::ops::ControlFlow::Break(()),
            };
            longest = longest.max(plies);
            core::ops::ControlFlow::Continue(())
        })?;
        Ok((flow.is_continue() && children).then_some(longest + 1))
    }
}
