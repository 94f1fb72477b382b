//! The rules' text form (`phutball::Rules`, "Text form"): what parses
//! prints back to equal rules, and fits a board exactly when a start
//! position can be made under it.
#![no_main]

use libfuzzer_sys::fuzz_target;
use phutball::{BoardSize, Position, Rules};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(rules) = text.parse::<Rules>() else {
        return;
    };
    let printed = rules.to_string();
    assert_eq!(printed.parse(), Ok(rules), "{printed:?}");
    let sizes = [(15, 19), (1, 3), (9, 9), (25, 25), (25, 3)];
    for (cols, rows) in sizes {
        let size = BoardSize::new(cols, rows).expect("a board size");
        let start = Position::start_with(size, rules);
        assert_eq!(
            start.is_ok(),
            rules.validate(size).is_ok(),
            "{printed:?} on {size}"
        );
        if let Ok(pos) = start {
            assert_eq!(pos.rules(), rules);
            assert_eq!(pos.to_move(), rules.first_player);
            let text = pos.to_string();
            assert_eq!(
                Position::parse_with_rules(&text, rules),
                Ok(pos),
                "{text:?}"
            );
            if let Some(point) = rules.start {
                assert_eq!(pos.ball(), point);
            }
        }
    }
});
