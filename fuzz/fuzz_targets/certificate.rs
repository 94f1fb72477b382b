//! A proof certificate (docs/certificates.md): the stream reader and the
//! text parser agree; what parses prints back to an equal certificate, and
//! the checker answers within a small budget; a certificate it accepts is
//! consistent with what it says.
#![no_main]

use libfuzzer_sys::fuzz_target;
use phutball::Budget;
use phutball_solver::{Certificate, CertificateError, CertificateReadError};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let streamed = Certificate::read_within(data, &Budget::default());
    let Ok(text) = std::str::from_utf8(data) else {
        assert!(streamed.is_err(), "bytes that are not UTF-8 read as a certificate");
        return;
    };
    let parsed = text.parse::<Certificate>();
    // A gzip stream's first bytes are not text the parser reads.
    if !data.starts_with(&[0x1f, 0x8b]) {
        match (&parsed, &streamed) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(a), Err(CertificateReadError::Parse(b))) => assert_eq!(a, b),
            (a, b) => panic!("the readers disagree: {a:?} against {b:?}"),
        }
    }
    let Ok(cert) = parsed else {
        return;
    };
    let printed = cert.to_string();
    let back = printed
        .parse::<Certificate>()
        .unwrap_or_else(|e| panic!("{printed:?} does not parse back: {e}"));
    assert_eq!(back, cert, "{printed:?}");
    assert_eq!(back.to_string(), printed);

    match common::with_budget(|budget| cert.check(budget)) {
        Ok(proof) => {
            let root = cert.root().expect("an accepted certificate has a root");
            assert_eq!(proof.root, *root);
            assert_eq!(proof.winner, cert.winner);
            assert_eq!(proof.nodes, cert.nodes.len());
            assert!(
                proof.plies >= 1,
                "a proof of a goal in 0 plies: {printed:?}"
            );
            assert!(!root.is_finished());
        }
        Err(CertificateError::Empty) => assert!(cert.nodes.is_empty()),
        Err(_) => {}
    }
});
