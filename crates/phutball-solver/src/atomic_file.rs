//! Files replaced whole or not at all: written to a temporary file beside
//! the target, flushed to the disk, then renamed over it. The one way the
//! solver's files (certificates, tablebases, checkpoints) are written, for
//! the CLI, C and Python alike.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// `PATH.tmpPID`: where [`write_atomically`] writes before the rename (the
/// process id keeps two processes writing one file apart).
fn temp_path(path: &Path) -> PathBuf {
    let mut temp = path.as_os_str().to_owned();
    temp.push(format!(".tmp{}", std::process::id()));
    PathBuf::from(temp)
}

/// Writes `bytes` to `path` through a temporary file beside it, renamed
/// into place: an interrupted write leaves no half file, and a failed one
/// leaves `path` as it was and no temporary file.
///
/// # Errors
///
/// The file system's error creating, writing or renaming the file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    replace_file(path, &temp_path(path), |file| file.write_all(bytes))
}

/// Fails at once, not after a long search, when [`write_atomically`]
/// could not write `path` (its folder missing or read-only): creates and
/// removes the temporary file it would write.
///
/// # Errors
///
/// The file system's error creating or removing that file.
pub fn check_writable(path: &Path) -> io::Result<()> {
    probe(&temp_path(path))
}

/// Creates `temp` and removes it again: whether a write through it would
/// begin.
pub(crate) fn probe(temp: &Path) -> io::Result<()> {
    File::create(temp).and_then(|_| fs::remove_file(temp))
}

/// Writes `path` through `temp`: `write` fills it, it is flushed to the
/// disk, then renamed over `path` (and the rename flushed with its
/// folder's entry), so a crash at any moment leaves either the old file or
/// the whole new one. On failure `temp` is removed. Returns what `write`
/// returned.
pub(crate) fn replace_file<T>(
    path: &Path,
    temp: &Path,
    write: impl FnOnce(&mut File) -> io::Result<T>,
) -> io::Result<T> {
    let mut file = File::create(temp)?;
    let written = write(&mut file)
        .and_then(|value| {
            file.flush()?;
            file.sync_all()?;
            // The file is closed before it is renamed. (On wasm32, where
            // a File is an empty stand-in without Drop, this does nothing.)
            #[allow(clippy::drop_non_drop)]
            drop(file);
            fs::rename(temp, path)?;
            Ok(value)
        })
        .inspect_err(|_| {
            let _ = fs::remove_file(temp);
        })?;
    // The rename itself reaches the disk with its folder's entry.
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh folder of this test's own under the system's temporary one.
    fn folder(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "phutball-atomic-file-{name}-{}",
            std::process::id()
        ));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// The names in `dir`, sorted.
    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_write_replaces_the_file_and_leaves_no_temporary_one() {
        let dir = folder("replace");
        let file = dir.join("table.bin");
        write_atomically(&file, b"old").unwrap();
        write_atomically(&file, b"new bytes").unwrap();
        assert_eq!(fs::read(&file).unwrap(), b"new bytes");
        assert_eq!(names(&dir), ["table.bin"]);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_failed_write_leaves_the_file_as_it_was_and_no_temporary_one() {
        let dir = folder("fail");
        let file = dir.join("certificate.txt");
        write_atomically(&file, b"kept").unwrap();
        let failed = replace_file(&file, &temp_path(&file), |f| {
            f.write_all(b"half")?;
            Err::<(), _>(io::Error::other("the disk is full"))
        });
        assert_eq!(failed.unwrap_err().to_string(), "the disk is full");
        assert_eq!(fs::read(&file).unwrap(), b"kept");
        assert_eq!(names(&dir), ["certificate.txt"]);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_missing_folder_is_told_before_and_at_the_write() {
        let dir = folder("missing");
        let file = dir.join("no such folder").join("x.txt");
        assert_eq!(
            check_writable(&file).unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        assert_eq!(
            write_atomically(&file, b"x").unwrap_err().kind(),
            io::ErrorKind::NotFound
        );
        check_writable(&dir.join("x.txt")).unwrap();
        assert!(names(&dir).is_empty());
        fs::remove_dir_all(dir).unwrap();
    }
}
