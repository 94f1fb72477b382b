//! A proof certificate (docs/certificates.md): what parses prints back to an
//! equal certificate, and the checker answers within a small budget; a
//! certificate it accepts is consistent with what it says.
#![no_main]

use libfuzzer_sys::fuzz_target;
use phutball_solver::{Certificate, CertificateError};

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(cert) = text.parse::<Certificate>() else {
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
