//! The ladder's record file (`--record FILE`): one JSON line a finished
//! game, written and flushed as the game ends, so that a long ladder can
//! be stopped at any moment and resumed by the same command. Every line
//! carries the options that decide the games (both builds' paths and
//! SHA-256, their extra arguments, the budget, the seed, the move limit);
//! a file of other options is refused and left as it is. A last line
//! without its newline (the ladder was killed while writing it) is
//! dropped with a note before anything is appended.

use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// The options a recorded game was played with: a resumed ladder must
/// have the same, or its games would not be of one match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchOptions {
    pub old: String,
    pub old_sha256: String,
    pub new: String,
    pub new_sha256: String,
    pub old_args: Vec<String>,
    pub new_args: Vec<String>,
    /// Nodes a move (`None` with `time_ms`).
    pub nodes: Option<u64>,
    /// Milliseconds a move, if the budget is a time.
    pub time_ms: Option<u64>,
    pub seed: u64,
    pub limit: u32,
}

impl MatchOptions {
    /// The fields of `self` and `other` that differ, as "name: recorded A, now B".
    fn differences(&self, now: &MatchOptions) -> Vec<String> {
        let (recorded, now) = (to_object(self), to_object(now));
        recorded
            .iter()
            .filter(|(name, value)| now.get(*name) != Some(value))
            .map(|(name, value)| {
                let current = now.get(name).map_or("nothing".into(), ToString::to_string);
                format!("{name}: recorded {value}, now {current}")
            })
            .collect()
    }
}

fn to_object(options: &MatchOptions) -> serde_json::Map<String, serde_json::Value> {
    match serde_json::to_value(options) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    }
}

/// One finished game: its line of the record file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's index from 0 (pair `game / 2`).
    pub game: usize,
    pub pair: usize,
    /// The side the new build played: `"O"` or `"X"`.
    pub new_side: String,
    /// For the new build: `"win"`, `"draw"` or `"loss"`.
    pub result: String,
    /// The plies played.
    pub plies: u32,
    pub options: MatchOptions,
}

impl GameRecord {
    /// The new build's half points: 2 a win, 1 a draw, 0 a loss.
    pub fn half_points(&self) -> Option<u32> {
        match self.result.as_str() {
            "win" => Some(2),
            "draw" => Some(1),
            "loss" => Some(0),
            _ => None,
        }
    }
}

/// The name of `half_points`' result: `"win"`, `"draw"` or `"loss"`.
pub fn result_name(half_points: u32) -> &'static str {
    match half_points {
        2 => "win",
        1 => "draw",
        _ => "loss",
    }
}

/// A record file open for appending, and the games it held.
pub struct Record {
    file: File,
    /// Each recorded game's half points, by game index.
    pub games: BTreeMap<usize, u32>,
    /// What the reader has to say (a dropped partial line), for the user.
    pub notes: Vec<String>,
}

/// Opens (or creates) the record at `path` for a ladder of `options`:
/// its games by index, checked. Refuses, leaving the file untouched, a
/// complete line that is not a game of this ladder's, a game recorded
/// twice, or games of other options (naming each option that differs).
/// Only then is a partial last line cut off, so that the next line
/// appended starts on a line of its own.
pub fn open(path: &Path, options: &MatchOptions) -> Result<Record, String> {
    let shown = path.display();
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(format!("{shown}: {e}")),
    };
    let complete = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let mut games = BTreeMap::new();
    for (number, line) in bytes[..complete].split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let at = || format!("{shown}, line {}", number + 1);
        let game: GameRecord = serde_json::from_slice(line)
            .map_err(|e| format!("{}: not a game of the ladder's record: {e}", at()))?;
        let differences = game.options.differences(options);
        if !differences.is_empty() {
            return Err(format!(
                "{}: recorded with other options ({}); resume with the same options, or record to another file (the file is left as it is)",
                at(),
                differences.join("; ")
            ));
        }
        let half_points = game.half_points().ok_or_else(|| {
            format!(
                "{}: result {:?} is not win, draw or loss",
                at(),
                game.result
            )
        })?;
        if games.insert(game.game, half_points).is_some() {
            return Err(format!(
                "{}: game {} is recorded twice",
                at(),
                game.game + 1
            ));
        }
    }
    let mut notes = Vec::new();
    if complete < bytes.len() {
        notes.push(format!(
            "{shown}: its last line was cut short ({} bytes without a newline: the ladder was stopped while writing it); dropped, and its game will be played again",
            bytes.len() - complete
        ));
        let file = OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| format!("{shown}: {e}"))?;
        file.set_len(complete as u64)
            .map_err(|e| format!("{shown}: cannot cut its partial last line: {e}"))?;
    }
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{shown}: {e}"))?;
    Ok(Record { file, games, notes })
}

impl Record {
    /// Appends `game` as one line and hands it to the system at once (a
    /// ladder killed after this keeps the game).
    pub fn append(&mut self, game: &GameRecord) -> Result<(), String> {
        let mut line = serde_json::to_string(game).map_err(|e| e.to_string())?;
        line.push('\n');
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .and_then(|()| self.file.sync_data())
            .map_err(|e| format!("cannot record game {}: {e}", game.game + 1))?;
        if let Some(half_points) = game.half_points() {
            self.games.insert(game.game, half_points);
        }
        Ok(())
    }
}

/// The SHA-256 of the file at `path`, in hex (FIPS 180-4): which build a
/// path held when its games were recorded.
pub fn sha256_file(path: &str) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    Ok(sha256(&bytes).iter().map(|b| format!("{b:02x}")).collect())
}

/// SHA-256's round constants.
#[rustfmt::skip]
const K: [u32; 64] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
    0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
    0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
    0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
    0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
    0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
    0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
];

/// SHA-256's initial state.
#[rustfmt::skip]
const H0: [u32; 8] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
];

/// SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    let mut message = bytes.to_vec();
    message.push(0x80);
    while message.len() % 64 != 56 {
        message.push(0);
    }
    message.extend_from_slice(&((bytes.len() as u64).wrapping_mul(8)).to_be_bytes());
    let mut state = H0;
    for block in message.chunks_exact(64) {
        compress(&mut state, block);
    }
    let mut out = [0u8; 32];
    for (chunk, word) in out.chunks_exact_mut(4).zip(state) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// One 64-byte block into the state: FIPS 180-4's 64 rounds, the working
/// variables a to h as `v[0]` to `v[7]`.
fn compress(state: &mut [u32; 8], block: &[u8]) {
    let mut schedule = [0u32; 64];
    for (word, bytes) in schedule.iter_mut().zip(block.chunks_exact(4)) {
        *word = u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
    }
    for i in 16..64 {
        let (x, y) = (schedule[i - 15], schedule[i - 2]);
        let s0 = x.rotate_right(7) ^ x.rotate_right(18) ^ (x >> 3);
        let s1 = y.rotate_right(17) ^ y.rotate_right(19) ^ (y >> 10);
        schedule[i] = schedule[i - 16]
            .wrapping_add(s0)
            .wrapping_add(schedule[i - 7])
            .wrapping_add(s1);
    }
    let mut v = *state;
    for (k, word) in K.iter().zip(schedule) {
        let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
        let choice = (v[4] & v[5]) ^ (!v[4] & v[6]);
        let t1 = v[7]
            .wrapping_add(s1)
            .wrapping_add(choice)
            .wrapping_add(*k)
            .wrapping_add(word);
        let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
        let majority = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
        // b..h take a..g; e is d + t1, a is t1 + t2.
        v.rotate_right(1);
        v[4] = v[4].wrapping_add(t1);
        v[0] = t1.wrapping_add(s0.wrapping_add(majority));
    }
    for (x, y) in state.iter_mut().zip(v) {
        *x = x.wrapping_add(y);
    }
}
