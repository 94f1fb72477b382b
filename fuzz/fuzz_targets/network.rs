//! A weights file (docs/network.md): `Network::from_bytes` never panics; a
//! network it accepts writes back its bytes, reads them back equal, serves
//! the sizes it names, and judges positions of each (the start and after a
//! few placements, both sides to move) with a value in range, within a
//! small budget; a size it does not serve and a finished game are refused.
#![no_main]

use libfuzzer_sys::fuzz_target;
use phutball::{BoardSize, Position, Rules};
use phutball_engine::{Network, NetworkError};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(network) = Network::from_bytes(data) else {
        return;
    };
    assert_eq!(network.to_bytes(), data, "a network that reads writes back its bytes");
    assert_eq!(Network::from_bytes(&network.to_bytes()).ok().as_ref(), Some(&network));
    let sizes = network.sizes();
    assert!(!sizes.is_empty());
    for size in &sizes {
        assert!(network.serves(*size));
        let start = Position::start_with(*size, Rules::default()).expect("a served size has a start");
        let mut positions = vec![start];
        positions.extend(start.placements().iter().take(3).filter_map(|m| start.play(m).ok()));
        for pos in positions.iter().filter(|p| p.winner().is_none()) {
            let value = common::with_budget(|budget| network.evaluate(pos, budget))
                .expect("a served size's position is judged");
            assert!((-30_000..=30_000).contains(&value), "value {value} out of range");
        }
    }
    // The standard board or a 3x3 one: whichever it does not serve is refused.
    for (cols, rows) in [(15, 19), (3, 3)] {
        let size = BoardSize::new(cols, rows).expect("a board size");
        if !sizes.contains(&size) {
            let pos = Position::start_with(size, Rules::default()).expect("a start");
            let refused = common::with_budget(|budget| network.evaluate(&pos, budget));
            assert!(matches!(refused, Err(NetworkError::NotServed { .. })), "{refused:?}");
        }
    }
});
