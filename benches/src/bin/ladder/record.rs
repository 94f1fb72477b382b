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
use sha2::{Digest, Sha256};

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

/// The SHA-256 of the file at `path`, in hex: which build a path held
/// when its games were recorded. Read in pieces (a build is megabytes).
pub fn sha256_file(path: &str) -> Result<String, String> {
    let mut file = File::open(path).map_err(|e| format!("{path}: {e}"))?;
    let mut hasher = Sha256::new();
    std::io::copy(&mut file, &mut hasher).map_err(|e| format!("{path}: {e}"))?;
    Ok(format!("{:x}", hasher.finalize()))
}
