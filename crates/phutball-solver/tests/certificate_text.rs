//! The certificate's text read from a string and from a stream: the same
//! certificate or the same error, each error on the line at fault, every
//! quoted field cut short, and the stream read under its budget.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use phutball::{Budget, Interrupt, SearchError};
use phutball_solver::{Certificate, CertificateReadError, MAX_CERTIFICATE_LINE};

/// 1x3, ball on A2, men on A1 and A3, Ohs to move: A2-A4 scores.
const ONE_MOVE: &str = "phutball-proof 1\nrules\nwinner O\nnode 0 #/@/# O\nmove A2-A4 goal\nend\n";

/// Format version 2: 1x3, ball on A2, a man on A3, Eks to move. The pass
/// line answers the placement on A1 (outside its zone, A3) with node 1's
/// A2-A4; A2-A4 itself is Eks's own goal.
const PASS: &str = "phutball-proof 2\nrules\nwinner O\nnode 0 #/@/1 X\npass 1 A3\nnode 1 #/@/1 O\nmove A2-A4 goal\nend\n";

/// The error `text` gets from the string reader and from the stream
/// reader, which must agree; with its line.
fn refusal(text: &str) -> (usize, String) {
    let parsed = text.parse::<Certificate>().expect_err("refused");
    let streamed = Certificate::read_within(text.as_bytes(), &Budget::default());
    assert_eq!(streamed, Err(CertificateReadError::Parse(parsed.clone())));
    (parsed.line, parsed.message)
}

fn gzip(text: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(text).unwrap();
    encoder.finish().unwrap()
}

#[test]
fn plain_and_gzip_streams_read_the_certificate_the_string_does() {
    let cert: Certificate = ONE_MOVE.parse().unwrap();
    let budget = Budget::default();
    assert_eq!(
        Certificate::read_within(ONE_MOVE.as_bytes(), &budget).unwrap(),
        cert
    );
    assert_eq!(
        Certificate::read_within(&gzip(ONE_MOVE.as_bytes())[..], &budget).unwrap(),
        cert
    );
    // CRLF line ends, comments and blank lines read the same.
    let crlf = ONE_MOVE.replace('\n', " ; note\r\n\r\n");
    assert_eq!(
        Certificate::read_within(crlf.as_bytes(), &budget).unwrap(),
        cert
    );
    assert_eq!(crlf.parse::<Certificate>().unwrap(), cert);
}

#[test]
fn a_byte_order_mark_and_a_nul_byte_are_named() {
    let (line, why) = refusal(&format!("\u{feff}{ONE_MOVE}"));
    assert_eq!(line, 1);
    assert!(why.contains("byte-order mark"), "{why}");
    let (line, why) = refusal(&ONE_MOVE.replace("winner O", "winner O\0"));
    assert_eq!(line, 3);
    assert!(why.contains("NUL byte"), "{why}");
}

#[test]
fn a_start_point_that_does_not_fit_the_board_is_blamed_on_the_rules_line() {
    let text = ONE_MOVE.replace("rules\n", "\n; the rules\nrules start-point=A1\n");
    let (line, why) = refusal(&text);
    assert_eq!(line, 4, "{why}");
    assert!(why.contains("the rules do not fit node 0's board"), "{why}");
    assert!(why.contains("A1"), "{why}");
    // A position that is bad on its own is still the node line's fault.
    let (line, why) = refusal(&ONE_MOVE.replace("#/@/#", "#/@/#/Q"));
    assert_eq!(line, 4, "{why}");
    assert!(why.starts_with("bad position"), "{why}");
}

#[test]
fn every_quoted_field_is_cut_to_sixty_characters() {
    let long = "Z".repeat(100_000);
    for text in [
        ONE_MOVE.replace("A2-A4 goal", &format!("{long} goal")),
        ONE_MOVE.replace("A2-A4 goal", &format!("A2-A4 {long}")),
        ONE_MOVE.replace("winner O", &format!("winner {long}")),
        ONE_MOVE.replace("phutball-proof 1", &format!("phutball-proof {long}")),
        ONE_MOVE.replace("phutball-proof 1", &long),
        ONE_MOVE.replace("end", &long),
        ONE_MOVE.replace("node 0", &format!("node {long}")),
    ] {
        let (_, why) = refusal(&text);
        assert!(why.len() < 500, "{} bytes: {}", why.len(), &why[..500]);
        assert!(why.contains("(100000 characters)"), "{why}");
    }
}

#[test]
fn a_line_over_the_limit_is_refused_after_reading_only_it() {
    let mut text = ONE_MOVE.replace("end\n", "; ").into_bytes();
    // Past the limit and room for a line end: refused at the next byte.
    text.resize(text.len() + MAX_CERTIFICATE_LINE + 1, b'a');
    // The reader must stop within the long line: what follows is never read.
    let reader = text.as_slice().chain(Poisoned);
    let err = Certificate::read_within(reader, &Budget::default()).unwrap_err();
    assert_eq!(err.to_string(), format!("not a certificate: line 6: longer than {MAX_CERTIFICATE_LINE} bytes (a certificate's lines are short)"));
}

#[test]
fn a_line_of_exactly_the_limit_is_read_whatever_its_end_and_packing() {
    for end in ["\n", "\r\n", ""] {
        for extra in [0, 1] {
            let comment = format!("; {}", "a".repeat(MAX_CERTIFICATE_LINE - 2 + extra));
            assert_eq!(comment.len(), MAX_CERTIFICATE_LINE + extra);
            // The long line last (without a line end when `end` is empty).
            let text = format!("{ONE_MOVE}{comment}{end}");
            for bytes in [text.clone().into_bytes(), gzip(text.as_bytes())] {
                let read = Certificate::read_within(&bytes[..], &Budget::default());
                if extra == 0 {
                    assert!(read.is_ok(), "{end:?}: {read:?}");
                } else {
                    let err = read.unwrap_err().to_string();
                    assert!(err.contains("line 7: longer than"), "{end:?}: {err}");
                }
            }
        }
    }
}

#[test]
fn gzip_is_told_from_a_stream_that_gives_a_byte_a_read() {
    let packed = gzip(ONE_MOVE.as_bytes());
    let cert = Certificate::read_within(OneByte(&packed), &Budget::default()).unwrap();
    assert_eq!(cert, ONE_MOVE.parse().unwrap());
}

/// A reader that gives one byte a read, as a slow pipe may.
struct OneByte<'a>(&'a [u8]);

impl Read for OneByte<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let Some((first, rest)) = self.0.split_first() else {
            return Ok(0);
        };
        if buf.is_empty() {
            return Ok(0);
        }
        buf[0] = *first;
        self.0 = rest;
        Ok(1)
    }
}

#[test]
fn gzip_that_unpacks_to_nothing_ends_with_the_budget() {
    // A header, then empty gzip members without end: the decoder reads on
    // and on without a byte of text.
    let stream = gzip(b"phutball-proof 1\n");
    let reader = stream.as_slice().chain(EndlessCopies(gzip(b""), 0));
    let stop = AtomicBool::new(false);
    let budget = Budget::default().with_cancel_flag(&stop);
    let read = std::thread::scope(|s| {
        let reader = s.spawn(|| Certificate::read_within(reader, &budget));
        std::thread::sleep(std::time::Duration::from_millis(50));
        stop.store(true, Ordering::Relaxed);
        reader.join().unwrap()
    });
    assert_eq!(
        read,
        Err(CertificateReadError::Stopped(SearchError::Cancelled))
    );
}

/// Copies of one byte string, one after another, without end (and where
/// the last read stopped).
struct EndlessCopies(Vec<u8>, usize);

impl Read for EndlessCopies {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let rest = &self.0[self.1..];
        let n = buf.len().min(rest.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.1 = (self.1 + n) % self.0.len();
        Ok(n)
    }
}

/// A reader that fails the test if it is read.
struct Poisoned;

impl Read for Poisoned {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        panic!("read past the line that should have been refused");
    }
}

#[test]
fn an_endless_stream_ends_with_its_budget() {
    // Endless blank lines: a cancel flag set by another thread stops them.
    let stop = AtomicBool::new(false);
    let budget = Budget::default().with_cancel_flag(&stop);
    let read = std::thread::scope(|s| {
        let reader = s.spawn(|| Certificate::read_within(std::io::repeat(b'\n'), &budget));
        std::thread::sleep(std::time::Duration::from_millis(50));
        stop.store(true, Ordering::Relaxed);
        reader.join().unwrap()
    });
    assert_eq!(
        read,
        Err(CertificateReadError::Stopped(SearchError::Cancelled))
    );
    // A deadline's hook, polled as the lines go by.
    let polls = std::sync::atomic::AtomicU32::new(0);
    let hook = || (polls.fetch_add(1, Ordering::Relaxed) >= 3).then_some(Interrupt::TimedOut);
    let budget = Budget::default().with_interrupt(&hook);
    let read = Certificate::read_within(std::io::repeat(b'\n'), &budget);
    assert_eq!(
        read,
        Err(CertificateReadError::Stopped(SearchError::TimedOut))
    );
}

#[test]
fn the_nodes_read_count_against_the_memory_limit() {
    let mut text = String::from("phutball-proof 1\nrules\nwinner O\n");
    for i in 0..2000 {
        text += &format!("node {i} #/@/# O\nmove A2-A4 goal\n");
    }
    text += "end\n";
    let roomy = Budget::default();
    assert_eq!(
        Certificate::read_within(text.as_bytes(), &roomy)
            .unwrap()
            .nodes
            .len(),
        2000
    );
    let tight = Budget::default().with_memory_limit(10_000);
    assert_eq!(
        Certificate::read_within(text.as_bytes(), &tight),
        Err(CertificateReadError::Stopped(SearchError::MemoryLimit {
            limit: 10_000,
            what: "the certificate's nodes"
        }))
    );
}

#[test]
fn a_broken_gzip_stream_is_unreadable() {
    let mut packed = gzip(ONE_MOVE.as_bytes());
    let middle = packed.len() / 2;
    packed.truncate(middle);
    let err = Certificate::read_within(&packed[..], &Budget::default()).unwrap_err();
    assert!(
        matches!(err, CertificateReadError::Unreadable { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("gzip"), "{err}");
}

#[test]
fn pass_lines_read_and_write_as_version_2() {
    let cert: Certificate = PASS.parse().unwrap();
    let pass = cert.nodes[0].pass.as_ref().expect("a pass line");
    assert_eq!(pass.target, 1);
    assert_eq!(format!("{:?}", pass.zone), "Bitboard {A3}");
    assert_eq!(cert.to_string(), PASS);
    assert_eq!(
        Certificate::read_within(&gzip(PASS.as_bytes())[..], &Budget::default()).unwrap(),
        cert
    );
    // An empty zone is the target alone; several points are in the
    // bitboard's order, whatever order they were read in.
    for (zone, written) in [
        ("", "pass 1\n"),
        ("   ", "pass 1\n"),
        ("a3,A1", "pass 1 A1,A3\n"),
        ("A3, A2 ,A1", "pass 1 A1,A2,A3\n"),
    ] {
        let text = PASS.replace("pass 1 A3\n", &format!("pass 1 {zone} ; a comment\n"));
        let cert: Certificate = text.parse().unwrap();
        assert_eq!(
            Certificate::read_within(text.as_bytes(), &Budget::default()).unwrap(),
            cert
        );
        let again = cert.to_string();
        assert!(again.contains(written), "{zone:?}: {again}");
        assert_eq!(again.parse::<Certificate>().unwrap(), cert);
    }
    // Without its pass line it is written as version 1, as before.
    let mut v1 = cert;
    v1.nodes[0].pass = None;
    assert!(v1.to_string().starts_with("phutball-proof 1\n"));
    assert_eq!(v1.to_string().parse::<Certificate>().unwrap(), v1);
    // Version 1 still reads; versions 0 and 3 are refused.
    assert!(ONE_MOVE.parse::<Certificate>().is_ok());
    for version in ["0", "3", "02"] {
        let (line, why) = refusal(&PASS.replace("proof 2", &format!("proof {version}")));
        assert_eq!(line, 1);
        assert!(why.contains("unsupported version"), "{why}");
    }
}

#[test]
fn bad_pass_lines_are_refused_with_their_line() {
    for (text, line, expected) in [
        (
            PASS.replace("proof 2", "proof 1"),
            5,
            "a `pass` line needs format version 2",
        ),
        (PASS.replace("A3\n", "A3\npass 1\n"), 6, "a second `pass`"),
        (PASS.replace("A3\n", "A3 A2\n"), 5, "bad point"),
        (PASS.replace("A3\n", "A3,,A2\n"), 5, "bad point"),
        (PASS.replace("A3\n", "A3,\n"), 5, "bad point"),
        (PASS.replace("A3\n", "I3\n"), 5, "bad point"),
        (PASS.replace("A3\n", "A3,A3\n"), 5, "A3 twice"),
        (
            PASS.replace("A3\n", "A4\n"),
            5,
            "A4, which is not a point of node 0's board",
        ),
        (PASS.replace("A3\n", "B2\n"), 5, "B2, which is not a point"),
        (
            PASS.replace("pass 1", "pass one"),
            5,
            "target must be a node number",
        ),
        (
            PASS.replace("pass 1 A3", "pass"),
            5,
            "target must be a node number",
        ),
        (
            PASS.replace("pass 1", "pass -1"),
            5,
            "target must be a node number",
        ),
        (
            PASS.replace("move A2-A4 goal", "move A2-A4 goal\npass 0"),
            8,
            "`pass` at a node where the winner is to move",
        ),
        (
            PASS.replace("node 0 #/@/1 X\npass 1 A3\n", "pass 1 A3\nnode 0 #/@/1 X\n"),
            4,
            "`pass` before the first node",
        ),
    ] {
        let (at, why) = refusal(&text);
        assert_eq!(at, line, "{text}: {why}");
        assert!(why.contains(expected), "{text}: {why}");
    }
}
