//! A tablebase file (docs/solver.md): the bytes reader and the stream
//! reader agree on every input; a table either reads writes back to the
//! same bytes; the stream reader never reads past the values.
#![no_main]

use libfuzzer_sys::fuzz_target;
use phutball::Budget;
use phutball_solver::{Tablebase, TablebaseReadError};

fuzz_target!(|data: &[u8]| {
    let budget = Budget::default().with_memory_limit(16 << 20);
    let from_bytes = Tablebase::from_bytes(data);
    let streamed = Tablebase::read_within(data, &budget);
    match (&from_bytes, &streamed) {
        (Ok(table), Ok(again)) => {
            assert_eq!(table, again);
            assert_eq!(table.to_bytes(), data, "a table that reads writes back its bytes");
        }
        // The stream reader names bytes after the values itself; the
        // bytes reader calls them a wrong length.
        (Err(_), Err(TablebaseReadError::TrailingBytes { expected })) => {
            assert!(data.len() as u64 > *expected);
        }
        // Over the memory limit: refused before the values are read.
        (_, Err(TablebaseReadError::Stopped(_))) => {}
        (Err(e), Err(TablebaseReadError::File(f))) => assert_eq!(e, f),
        (a, b) => panic!("the readers disagree: {a:?} against {b:?}"),
    }
});
