//! Writing a certificate file: its text format, gzip-compressed for a name
//! ending in `.gz`, replaced atomically. The CLI's `--certificate FILE`,
//! Python's `Certificate.save` and `Proof.save` all write through here.

use std::io::{self, Write};
use std::path::Path;

use flate2::write::GzEncoder;
use flate2::Compression;

use super::Certificate;
use crate::atomic_file::write_atomically;

/// Whether `path` names a gzip file: its extension is `gz`.
fn is_gzip_name(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "gz")
}

impl Certificate {
    /// Writes the text format (`docs/certificates.md`) to `path`,
    /// gzip-compressed if its name ends in `.gz`, through a temporary file
    /// renamed into place (an interrupted write leaves no half file).
    /// [`Certificate::read_within`] reads either back.
    ///
    /// # Errors
    ///
    /// The file system's error writing `path` (the compression itself,
    /// into memory, does not fail).
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let text = self.to_string();
        if is_gzip_name(path) {
            let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
            encoder.write_all(text.as_bytes())?;
            write_atomically(path, &encoder.finish()?)
        } else {
            write_atomically(path, text.as_bytes())
        }
    }
}

#[cfg(test)]
mod tests {
    use std::fs;

    use phutball::Budget;

    use super::*;
    use crate::prove_within;

    #[test]
    fn a_saved_certificate_reads_back_plain_or_gzip() {
        let pos = "1/@/1 O".parse().unwrap();
        let proof = prove_within(&pos, &Budget::default()).unwrap();
        let certificate = proof.certificate.expect("a win has a certificate");
        let dir = std::env::temp_dir().join(format!("phutball-save-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        for (name, gzip) in [("c.txt", false), ("c.txt.gz", true)] {
            let file = dir.join(name);
            certificate.save(&file).unwrap();
            let bytes = fs::read(&file).unwrap();
            assert_eq!(bytes.starts_with(&[0x1f, 0x8b]), gzip, "{name}");
            let back = Certificate::read_within(&bytes[..], &Budget::default()).unwrap();
            assert_eq!(back, certificate, "{name}");
        }
        fs::remove_dir_all(dir).unwrap();
    }
}
