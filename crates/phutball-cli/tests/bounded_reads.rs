//! Reading files under the command's limits: a gzip bomb (4 MB that unpack
//! to 4 GiB, made here), an endless stream (`/dev/zero`) and a table file
//! with bytes after its values each end within 2 s of a 1 s `--timeout`,
//! under 300 MB of address space (`ulimit -v`), with a short message.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use flate2::write::GzEncoder;
use flate2::Compression;

mod common;
use common::text;

/// The address space the commands get: 300 MB.
const ADDRESS_SPACE_KIB: u64 = 300_000;
/// How long a command given `--timeout 1000` may take.
const WITHIN: Duration = Duration::from_secs(2);

/// Runs `phutball ARGS` under `ulimit -v`, with how long it took.
fn run_bounded(args: &[&str]) -> (Output, Duration) {
    let started = Instant::now();
    let out = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" \"$@\""
        ))
        .arg(env!("CARGO_BIN_EXE_phutball"))
        .args(args)
        .output()
        .expect("sh runs");
    (out, started.elapsed())
}

/// Runs `args`, expecting `status` within [`WITHIN`] and a message of
/// under 1 kB that contains `needle`.
fn ends_quickly(args: &[&str], status: i32, needle: &str) {
    let (out, took) = run_bounded(args);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(status), "{args:?}: {stderr}");
    assert!(took < WITHIN, "{args:?} took {took:?}");
    assert!(stderr.contains(needle), "{args:?}: {stderr}");
    assert!(
        stderr.len() < 1000,
        "{args:?}: {} bytes of message",
        stderr.len()
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

fn temp(name: &str) -> PathBuf {
    let pid = std::process::id();
    std::env::temp_dir().join(format!("phutball-bounded-reads-{pid}-{name}"))
}

/// A certificate's header, then `block` repeated until the text is 4 GiB:
/// gzip members of 64 MiB each, one compressed and copied, so that the
/// file is made in a second.
fn gzip_bomb(path: &Path, block: &[u8]) {
    let mut header = GzEncoder::new(Vec::new(), Compression::best());
    header
        .write_all(b"phutball-proof 1\nrules\nwinner O\n")
        .unwrap();
    let header = header.finish().unwrap();
    let member_bytes = 64 << 20;
    let mut member = GzEncoder::new(Vec::new(), Compression::best());
    for _ in 0..member_bytes / block.len() {
        member.write_all(block).unwrap();
    }
    let member = member.finish().unwrap();
    let mut file = fs::File::create(path).unwrap();
    file.write_all(&header).unwrap();
    for _ in 0..(4u64 << 30) / member_bytes as u64 {
        file.write_all(&member).unwrap();
    }
}

/// Checks a certificate bomb of `block`s with `check-proof --timeout 1000`.
fn bomb_ends_quickly(name: &str, block: &[u8], status: i32, needle: &str) {
    let bomb = temp(name);
    gzip_bomb(&bomb, block);
    assert!(
        fs::metadata(&bomb).unwrap().len() < 32 << 20,
        "a bomb is small"
    );
    let path = bomb.to_str().unwrap();
    ends_quickly(&["check-proof", "--timeout", "1000", path], status, needle);
    fs::remove_file(&bomb).unwrap();
}

#[test]
fn a_gzip_bomb_of_one_endless_line_is_refused_at_once() {
    let mut block = b"; a comment that never ends ".to_vec();
    block.resize(4096, b'a');
    bomb_ends_quickly(
        "one-line.txt.gz",
        &block,
        1,
        "line 4: longer than 1048576 bytes",
    );
}

#[test]
fn a_gzip_bomb_of_endless_comment_lines_ends_with_the_timeout() {
    let mut block = b"; a comment line ".to_vec();
    block.resize(63, b'a');
    block.push(b'\n');
    bomb_ends_quickly(
        "many-lines.txt.gz",
        &block,
        3,
        "reading timed out after 1000 ms",
    );
}

#[test]
fn endless_zeros_are_refused_as_a_certificate_and_as_a_table() {
    ends_quickly(
        &["check-proof", "--timeout", "2000", "/dev/zero"],
        1,
        "line 1: a NUL byte",
    );
    ends_quickly(
        &[
            "tablebase",
            "probe",
            "--timeout",
            "1000",
            "--file",
            "/dev/zero",
            "start:3x4",
        ],
        1,
        "not a tablebase file",
    );
}

#[test]
fn a_table_file_with_a_gigabyte_after_its_values_is_refused_without_reading_it() {
    let table = temp("3x4.tb");
    let path = table.to_str().unwrap();
    let (built, _) = run_bounded(&["tablebase", "build", "3x4", "--jobs", "1", "--out", path]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    let (probed, _) = run_bounded(&["tablebase", "probe", "--file", path, "start:3x4"]);
    assert!(probed.status.success(), "{}", text(&probed.stderr));
    let len = fs::metadata(&table).unwrap().len();
    // A sparse gigabyte: nothing is written, every byte reads as 0.
    fs::OpenOptions::new()
        .write(true)
        .open(&table)
        .unwrap()
        .set_len(len + (1 << 30))
        .unwrap();
    ends_quickly(
        &[
            "tablebase",
            "probe",
            "--timeout",
            "1000",
            "--file",
            path,
            "start:3x4",
        ],
        1,
        &format!("goes on after its {len} bytes"),
    );
    fs::remove_file(&table).unwrap();
}

#[test]
fn a_huge_field_is_quoted_in_a_short_message() {
    let file = temp("huge-move.txt");
    for (bytes, said) in [
        // Under the line limit: the parser meets the move and quotes it cut.
        (900_000, "line 5: bad move: invalid move \"AAAA"),
        // Over it: the line is refused as too long.
        (48_000_000, "line 5: longer than 1048576 bytes"),
    ] {
        let huge = "A".repeat(bytes);
        fs::write(
            &file,
            format!("phutball-proof 1\nrules\nwinner O\nnode 0 #/@/# O\nmove {huge} goal\nend\n"),
        )
        .unwrap();
        ends_quickly(&["check-proof", file.to_str().unwrap()], 1, said);
    }
    fs::remove_file(&file).unwrap();
}
