//! The learned evaluation against its specification (docs/network.md): the
//! weights file written here by hand, byte by byte, with a checksum of the
//! test's own, is the crate's; every damaged or cut file is refused; a
//! network's value is the one the page's formula gives by hand; and an
//! engine that evaluates with a network keeps its guarantees and refuses
//! the board sizes it has no network for.

// The features are exact: small integers divided by 100, compared bit for bit.
#![allow(clippy::float_cmp)]

use std::sync::Arc;

use phutball::{BoardSize, Budget, Position, Side};
use phutball_engine::suites::{defend_positions, random_position, win_now_positions};
use phutball_engine::{
    analyse_many, is_safe, BoardNetwork, Decision, Engine, EngineError, Evaluation, Limits,
    Network, NetworkError, OpeningError, Score, SelfPlay, SplitMix64, MAX_FILE_BYTES,
};

/// CRC-32 (IEEE 802.3, as zlib's), bit by bit: the test's own.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// One network of a file as the page lays it out: columns, rows, hidden
/// units, then `W1`, `b1`, `w2` and `b2` in that order.
struct Layer {
    cols: u8,
    rows: u8,
    hidden: u16,
    weights: Vec<f32>,
}

/// The body of a weights file (everything but its checksum), written by
/// hand from the page's table.
fn body(version: u32, description: &[u8], layers: &[Layer]) -> Vec<u8> {
    let mut out = b"phbnet\n\0".to_vec();
    out.extend(version.to_le_bytes());
    out.extend((description.len() as u32).to_le_bytes());
    out.extend(description);
    out.extend((layers.len() as u32).to_le_bytes());
    for layer in layers {
        out.extend([layer.cols, layer.rows]);
        out.extend(layer.hidden.to_le_bytes());
        for w in &layer.weights {
            out.extend(w.to_le_bytes());
        }
    }
    out
}

/// `body` and its checksum: a whole file.
fn sealed(mut body: Vec<u8>) -> Vec<u8> {
    let checksum = crc32(&body);
    body.extend(checksum.to_le_bytes());
    body
}

fn size(text: &str) -> BoardSize {
    text.parse().unwrap()
}

/// The hand-made network of 5x7 boards with three hidden units: every
/// weight zero but those the position of [`two_jumps`] reads.
fn tiny_layer() -> BoardNetwork {
    const H: usize = 3;
    let inputs = 2 * 5 * 7 + 3;
    let mut w1 = vec![0.0; inputs * H];
    let mut row = |i: usize, ws: [f32; H]| w1[i * H..(i + 1) * H].copy_from_slice(&ws);
    row(11, [0.25, -0.5, 0.5]);
    row(22, [0.5, 0.125, 0.25]);
    row(52, [0.125, 0.25, 0.125]);
    row(70, [3.0, 1.0, -2.0]);
    row(71, [0.0625, -0.25, 0.125]);
    row(72, [-0.125, -0.5, -0.0625]);
    // Weights the position does not read: they must not count.
    row(12, [9.0, 9.0, 9.0]);
    row(53, [-9.0, -9.0, -9.0]);
    BoardNetwork {
        size: size("5x7"),
        w1,
        b1: vec![0.5, 0.25, -0.25],
        w2: vec![100.0, 1000.0, -60.0],
        b2: 7.25,
    }
}

fn tiny() -> Network {
    Network::new("tiny: by hand", vec![tiny_layer()]).unwrap()
}

/// `layer`'s weights in the file's order.
fn file_weights(layer: &BoardNetwork) -> Vec<f32> {
    let mut weights = layer.w1.clone();
    weights.extend(&layer.b1);
    weights.extend(&layer.w2);
    weights.push(layer.b2);
    weights
}

/// The tiny network's file, written by hand.
fn tiny_file() -> Vec<u8> {
    let layer = tiny_layer();
    sealed(body(
        1,
        b"tiny: by hand",
        &[Layer {
            cols: 5,
            rows: 7,
            hidden: 3,
            weights: file_weights(&layer),
        }],
    ))
}

/// A 5x7 board: ball C4 (the centre row), men C5 and B3, Ohs to move:
/// sparse features 11 (B3), 22 (C5) and 35 + 17 = 52 (the ball); dense
/// features 0 (the centre), 2 (the jump to C6) and 2 (Eks's to A2).
fn two_jumps() -> Position {
    "5/5/2#2/2@2/1#3/5/5 O".parse().unwrap()
}

/// A network of `sizes` with `hidden` units and weights drawn from `seed`
/// (a quarter either side of zero, the output's up to 200).
fn random_network(sizes: &[BoardSize], hidden: usize, seed: u64) -> Network {
    let mut rng = SplitMix64::new(seed);
    let mut draw = |scale: f32| (rng.below(2001) as f32 - 1000.0) / 1000.0 * scale;
    let layers = sizes
        .iter()
        .map(|&size| BoardNetwork {
            size,
            w1: (0..BoardNetwork::input_count(size) * hidden)
                .map(|_| draw(0.25))
                .collect(),
            b1: (0..hidden).map(|_| draw(0.25)).collect(),
            w2: (0..hidden).map(|_| draw(200.0)).collect(),
            b2: draw(10.0),
        })
        .collect();
    Network::new(format!("random, seed {seed}"), layers).unwrap()
}

#[test]
fn the_crates_file_is_the_one_the_page_describes() {
    let written = tiny().to_bytes();
    assert_eq!(written, tiny_file());
    let read = Network::from_bytes(&written).unwrap();
    assert_eq!(read, tiny());
    assert_eq!(read.description(), "tiny: by hand");
    assert_eq!(read.sizes(), [size("5x7")]);
    assert!(read.serves(size("5x7")) && !read.serves(size("7x5")));
}

#[test]
fn bytes_read_and_written_back_are_the_same_bytes() {
    let network = random_network(&[size("5x7"), size("9x9"), BoardSize::STANDARD], 8, 3);
    let bytes = network.to_bytes();
    let again = Network::from_bytes(&bytes).unwrap();
    assert_eq!(again.to_bytes(), bytes);
    assert_eq!(again, network);
}

#[test]
fn every_damaged_byte_is_refused() {
    let bytes = tiny_file();
    for i in 0..bytes.len() {
        for flip in [0x01, 0x80, 0xFF] {
            let mut damaged = bytes.clone();
            damaged[i] ^= flip;
            let refused = Network::from_bytes(&damaged);
            assert!(refused.is_err(), "byte {i} ^ {flip:#x} was read");
        }
    }
    // A weight's byte, a checksum's byte: the checksum says so.
    let mut damaged = bytes.clone();
    damaged[100] ^= 0x10;
    let message = Network::from_bytes(&damaged).unwrap_err().to_string();
    assert!(
        message.starts_with("the weights file is damaged: checksum "),
        "{message}"
    );
    assert!(message.contains(", the file says "), "{message}");
}

#[test]
fn every_cut_file_is_refused_as_truncated() {
    let bytes = tiny_file();
    for len in 0..bytes.len() {
        match Network::from_bytes(&bytes[..len]) {
            Err(NetworkError::Truncated { len: got, needed }) => {
                assert_eq!(got, len);
                assert!(needed > len, "{len}: needs {needed}");
            }
            other => panic!("{len} bytes: {other:?}"),
        }
    }
    let message = Network::from_bytes(&bytes[..40]).unwrap_err().to_string();
    assert!(message.contains("truncated"), "{message}");
}

#[test]
fn bytes_after_the_checksum_are_refused() {
    let mut bytes = tiny_file();
    bytes.extend([0, 0]);
    assert_eq!(
        Network::from_bytes(&bytes),
        Err(NetworkError::TrailingBytes { extra: 2 })
    );
}

#[test]
fn another_magic_or_version_is_refused() {
    let mut bytes = tiny_file();
    bytes[0] = b'P';
    assert_eq!(
        Network::from_bytes(&bytes),
        Err(NetworkError::NotAWeightsFile)
    );
    assert_eq!(
        Network::from_bytes(b"PK\x03\x04 a zip file"),
        Err(NetworkError::NotAWeightsFile)
    );
    let layer = tiny_layer();
    let version_2 = sealed(body(
        2,
        b"",
        &[Layer {
            cols: 5,
            rows: 7,
            hidden: 3,
            weights: file_weights(&layer),
        }],
    ));
    let refused = Network::from_bytes(&version_2).unwrap_err();
    assert_eq!(refused, NetworkError::Version { version: 2 });
    assert_eq!(
        refused.to_string(),
        "the weights file is format version 2; this build reads version 1"
    );
}

#[test]
fn a_weight_that_is_not_finite_is_refused() {
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        let mut weights = file_weights(&tiny_layer());
        weights[7] = bad;
        let file = sealed(body(
            1,
            b"",
            &[Layer {
                cols: 5,
                rows: 7,
                hidden: 3,
                weights,
            }],
        ));
        match Network::from_bytes(&file) {
            Err(NetworkError::NotFinite {
                network: 0,
                array: "W1",
                index: 7,
                ..
            }) => {}
            other => panic!("{bad}: {other:?}"),
        }
        // The same weights given to `new`.
        let mut layer = tiny_layer();
        layer.b2 = bad;
        let refused = Network::new("", vec![layer]).unwrap_err();
        assert!(matches!(
            refused,
            NetworkError::NotFinite { array: "b2", .. }
        ));
    }
}

#[test]
fn two_networks_for_one_size_are_refused() {
    let layer = || Layer {
        cols: 5,
        rows: 7,
        hidden: 3,
        weights: file_weights(&tiny_layer()),
    };
    let file = sealed(body(1, b"", &[layer(), layer()]));
    let refused = Network::from_bytes(&file).unwrap_err();
    assert_eq!(refused, NetworkError::DuplicateSize { size: size("5x7") });
    assert_eq!(
        refused.to_string(),
        "two networks serve 5x7: a file has one network per board size"
    );
}

#[test]
fn sizes_and_counts_out_of_range_are_refused() {
    let weights =
        |cols: usize, rows: usize, hidden: usize| vec![0.0; (2 * cols * rows + 5) * hidden + 1];
    let one = |cols: u8, rows: u8, hidden: u16| {
        sealed(body(
            1,
            b"",
            &[Layer {
                cols,
                rows,
                hidden,
                weights: weights(cols.into(), rows.into(), hidden.into()),
            }],
        ))
    };
    assert_eq!(
        Network::from_bytes(&one(5, 7, 0)),
        Err(NetworkError::Hidden {
            network: 0,
            hidden: 0
        })
    );
    assert_eq!(
        Network::from_bytes(&one(1, 3, 1025)),
        Err(NetworkError::Hidden {
            network: 0,
            hidden: 1025
        })
    );
    assert_eq!(
        Network::from_bytes(&one(26, 7, 1)),
        Err(NetworkError::BoardSize {
            network: 0,
            cols: 26,
            rows: 7
        })
    );
    assert_eq!(
        Network::from_bytes(&one(5, 2, 1)),
        Err(NetworkError::BoardSize {
            network: 0,
            cols: 5,
            rows: 2
        })
    );
    assert_eq!(
        Network::from_bytes(&sealed(body(1, b"", &[]))),
        Err(NetworkError::NetworkCount { count: 0 })
    );
    let layers: Vec<Layer> = (3..20)
        .map(|rows| Layer {
            cols: 1,
            rows,
            hidden: 1,
            weights: vec![0.0; 2 * usize::from(rows) + 3 + 3],
        })
        .collect();
    assert_eq!(
        Network::from_bytes(&sealed(body(1, b"", &layers))),
        Err(NetworkError::NetworkCount { count: 17 })
    );
    assert_eq!(
        Network::from_bytes(&sealed(body(1, &[b'x'; 4097], &layers[..1]))),
        Err(NetworkError::DescriptionTooLong { len: 4097 })
    );
    assert_eq!(
        Network::from_bytes(&sealed(body(1, b"\xff\xfe", &layers[..1]))),
        Err(NetworkError::DescriptionNotUtf8)
    );
    // The same, a file damaged so: the checksum speaks first.
    let mut damaged = one(5, 7, 0);
    let last = damaged.len() - 1;
    damaged[last] ^= 1;
    assert!(matches!(
        Network::from_bytes(&damaged),
        Err(NetworkError::Checksum { .. })
    ));
}

#[test]
fn a_file_over_64_mib_is_refused_before_it_is_read() {
    let mut bytes = tiny_file();
    bytes.resize(MAX_FILE_BYTES + 1, 0);
    assert_eq!(
        Network::from_bytes(&bytes),
        Err(NetworkError::TooLarge {
            len: MAX_FILE_BYTES + 1,
            max: MAX_FILE_BYTES
        })
    );
}

#[test]
fn new_refuses_arrays_of_the_wrong_length() {
    let mut layer = tiny_layer();
    layer.w1.pop();
    let refused = Network::new("", vec![layer]).unwrap_err();
    assert_eq!(
        refused,
        NetworkError::Shape {
            network: 0,
            array: "W1",
            len: 73 * 3 - 1,
            expected: 73 * 3
        }
    );
    let mut layer = tiny_layer();
    layer.w2.push(1.0);
    assert!(matches!(
        Network::new("", vec![layer]),
        Err(NetworkError::Shape { array: "w2", .. })
    ));
}

#[test]
fn the_value_is_the_pages_formula_worked_by_hand() {
    // docs/network.md, "Arithmetic", for two_jumps(): sparse 11, 22, 52;
    // dense x = (0, 2, 2).
    //   h0 = clamp(0.5 + 0.25 + 0.5 + 0.125 + 0 * 3 + 2 * 0.0625 + 2 * -0.125)
    //      = clamp(1.25) = 1
    //   h1 = clamp(0.25 - 0.5 + 0.125 + 0.25 + 0 * 1 + 2 * -0.25 + 2 * -0.5)
    //      = clamp(-1.375) = 0
    //   h2 = clamp(-0.25 + 0.5 + 0.25 + 0.125 + 0 * -2 + 2 * 0.125 + 2 * -0.0625)
    //      = clamp(0.75) = 0.75
    //   out = 7.25 + 100 * 1 + 1000 * 0 - 60 * 0.75 = 62.25, rounded: 62.
    let net = tiny();
    assert_eq!(net.evaluate(&two_jumps(), &Budget::default()), Ok(62));
    let features = Network::features(&two_jumps(), &Budget::default()).unwrap();
    assert_eq!(features.sparse(), [11, 22, 52]);
    assert_eq!(features.dense(), [0.0, 2.0, 2.0]);
    // A position in play only.
    let over: Position = "5/5/5/5/5/5/2@2 O".parse().unwrap();
    assert_eq!(
        net.evaluate(&over, &Budget::default()),
        Err(NetworkError::Finished { winner: Side::Eks })
    );
}

#[test]
fn an_engine_refuses_a_board_its_network_does_not_serve() {
    let net = Arc::new(random_network(&[BoardSize::STANDARD], 4, 1));
    let engine = Engine::new(Limits::nodes(200), 1).with_evaluation(Evaluation::Net(net.clone()));
    let small: Position = "start:9x9".parse().unwrap();
    let refused = engine.analyse(&small).unwrap_err();
    assert_eq!(
        refused,
        EngineError::Network(NetworkError::NotServed {
            size: size("9x9"),
            served: vec![BoardSize::STANDARD]
        })
    );
    assert_eq!(
        refused.to_string(),
        "the engine's network cannot judge this position: the network serves 15x19, not 9x9"
    );
    assert!(engine.analyse(&Position::standard()).is_ok());
    // A batch answers per position; a clone keeps the network.
    let answers = engine.analyse_many(&[small, Position::standard()], 2, &Budget::default());
    assert!(matches!(answers[0], Err(EngineError::Network(_))));
    assert!(answers[1].is_ok());
    assert_eq!(engine.clone().evaluation(), &Evaluation::Net(net));
}

#[test]
fn the_search_evaluates_with_the_network() {
    // Every weight zero but the output's bias: every quiet position is
    // worth 1234 to its side to move, so each move of the start is worth
    // -1234 one ply deep.
    let layer = BoardNetwork {
        size: BoardSize::STANDARD,
        w1: vec![0.0; 573],
        b1: vec![0.0],
        w2: vec![0.0],
        b2: 1234.0,
    };
    let net = Arc::new(Network::new("constant", vec![layer]).unwrap());
    let engine = Engine::new(Limits::depth(1), 1).with_evaluation(Evaluation::Net(net));
    let analysis = engine.analyse(&Position::standard()).unwrap();
    assert_eq!(analysis.score, Score::Eval(-1234));
    let hand = Engine::new(Limits::depth(1), 1)
        .with_evaluation(Evaluation::Hand)
        .analyse(&Position::standard())
        .unwrap();
    assert_ne!(hand.score, analysis.score);
}

#[test]
fn the_default_is_the_built_in_network_on_the_standard_board_and_hand_elsewhere() {
    let search = |evaluation: Option<Evaluation>, pos: &Position| {
        let engine = Engine::new(Limits::depth(2), 3);
        let engine = match evaluation {
            Some(evaluation) => engine.with_evaluation(evaluation),
            None => engine,
        };
        let a = engine.analyse(pos).unwrap();
        (a.best_move, a.score, a.depth, a.nodes, a.pv)
    };
    let built_in = Evaluation::Net(Network::built_in().unwrap());
    let mut rng = SplitMix64::new(21);
    let mut differ = 0;
    for side in [Side::Ohs, Side::Eks].repeat(4) {
        let pos = random_position(&mut rng, 12, 4, side);
        if pos.is_finished() {
            continue;
        }
        let default = search(None, &pos);
        assert_eq!(default, search(Some(built_in.clone()), &pos), "{pos}");
        differ += usize::from(default != search(Some(Evaluation::Hand), &pos));
    }
    // Were the default the hand evaluation, no search would differ.
    assert!(differ > 0);
    // 9x9, which the network does not serve: the hand evaluation, where
    // the network itself is refused.
    let small: Position = "9/9/9/4#4/3#@4/4#4/9/9/9 O".parse().unwrap();
    assert_eq!(search(None, &small), search(Some(Evaluation::Hand), &small));
    let refused = Engine::new(Limits::depth(2), 3)
        .with_evaluation(built_in)
        .analyse(&small);
    assert!(matches!(refused, Err(EngineError::Network(_))));
}

#[test]
fn an_engine_with_a_network_keeps_the_guarantees() {
    let net = Arc::new(random_network(&[BoardSize::STANDARD], 16, 7));
    let engine = Engine::new(Limits::nodes(300), 5).with_evaluation(Evaluation::Net(net));
    for pos in win_now_positions(11, 10) {
        let analysis = engine.analyse(&pos).unwrap();
        assert_eq!(analysis.decision, Decision::Scores, "{pos}");
        let after = pos.play(&analysis.best_move).unwrap();
        assert_eq!(after.winner(), Some(pos.to_move()), "{pos}");
    }
    for pos in defend_positions(12, 10, 3) {
        let m = engine.best_move(&pos).unwrap();
        assert!(is_safe(&pos, &m), "{pos}: {m} lets them score");
    }
    // Quiet positions: a legal move, whatever the weights.
    let mut rng = SplitMix64::new(13);
    for side in [Side::Ohs, Side::Eks].repeat(5) {
        let pos = random_position(&mut rng, 30, 5, side);
        if pos.is_finished() {
            continue;
        }
        let m = engine.best_move(&pos).unwrap();
        assert!(pos.is_legal(&m), "{pos}: {m}");
    }
}

#[test]
fn batches_and_self_play_carry_the_evaluation() {
    let small: Position = "start:5x7".parse().unwrap();
    let net = Evaluation::Net(Arc::new(random_network(&[size("5x7")], 4, 2)));
    let run = SelfPlay::new(vec![small], Limits::nodes(100), 3, 20)
        .unwrap()
        .with_evaluation(net.clone())
        .unwrap();
    assert_eq!(run.evaluation(), &net);
    let games = run.play(2, 2, &Budget::default(), |_, _| true);
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(Result::is_ok));
    // An opening the network does not serve is refused before any game.
    let refused = SelfPlay::new(vec![small, Position::standard()], Limits::nodes(100), 3, 20)
        .unwrap()
        .with_evaluation(net)
        .unwrap_err();
    assert!(matches!(refused, OpeningError::NotServed { index: 1, .. }));
    assert_eq!(
        refused.to_string(),
        "openings[1]: the network serves 5x7, not 15x19"
    );
    // The free function is the hand engine's batch.
    let hand = analyse_many(&[small], Limits::nodes(100), 3, 1, &Budget::default());
    let same = Engine::new(Limits::nodes(100), 3).analyse_many(&[small], 1, &Budget::default());
    assert_eq!(
        hand[0].as_ref().unwrap().best_move,
        same[0].as_ref().unwrap().best_move
    );
}
