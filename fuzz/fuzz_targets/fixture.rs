//! The fixture files' format (`phutball::fixtures`): every record that
//! parses prints back to an equal record.
#![no_main]

use libfuzzer_sys::fuzz_target;
use phutball::fixtures;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(records) = fixtures::parse(text) else {
        return;
    };
    for record in records {
        let printed = record.to_string();
        let back = fixtures::parse(&printed)
            .unwrap_or_else(|e| panic!("{printed:?} does not parse back: {e}"));
        assert_eq!(back.len(), 1, "{printed:?}");
        let mut back = back.into_iter().next().expect("one record");
        back.line = record.line;
        assert_eq!(back, record, "{printed:?}");
    }
});
