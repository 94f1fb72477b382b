//! The notation of a memory limit: a number of bytes with an optional unit
//! (`512M`, `2G`, `64KiB`, `1000B`), read the same way by the CLI's
//! `--memory-limit`, Python's `memory_limit="8M"` and the distributed
//! command's flag.

use core::fmt;
use core::str::FromStr;

use crate::error::{backticked, ParseError};

/// A size of memory in bytes, as a memory limit is written: digits, then
/// optionally a unit, `B` (bytes), `K`, `M` or `G` (KiB, MiB, GiB; `KB`,
/// `KiB` and the like, in any case). Zero, a negative number, an unknown
/// unit and a size the machine cannot address are refused
/// ([`ParseError::Size`], saying which).
///
/// Its `Display` is the size in words, as messages write it: `1000 bytes`,
/// `64 KiB`, `1 MiB`; a size that is no whole number of its unit is rounded
/// to a tenth (`1.5 GiB`), a form for people that does not read back.
///
/// ```
/// use phutball::ByteSize;
///
/// let size: ByteSize = "512M".parse()?;
/// assert_eq!(size.bytes(), 512 << 20);
/// assert_eq!(size.to_string(), "512 MiB");
/// assert_eq!("64 KiB".parse::<ByteSize>()?.bytes(), 65536);
/// assert_eq!(
///     "12Q".parse::<ByteSize>().unwrap_err().to_string(),
///     "unknown unit `Q` in `12Q` (a number of bytes, or with a unit K, M or G, \
///      e.g. 512M or 2G; B for bytes)"
/// );
/// # Ok::<(), phutball::ParseError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ByteSize(usize);

/// What every refusal suggests instead.
const SIZE_EXAMPLE: &str = "a number of bytes, or with a unit K, M or G, e.g. 512M or 2G";

/// The units, by the power of two they stand for, with every spelling read
/// (in upper case: the text's unit is compared upper-cased).
const UNITS: [(u32, &[&str]); 4] = [
    (0, &["", "B", "BYTE", "BYTES"]),
    (10, &["K", "KB", "KIB"]),
    (20, &["M", "MB", "MIB"]),
    (30, &["G", "GB", "GIB"]),
];

/// The units `Display` writes, largest first.
const DISPLAY_UNITS: [(u32, &str); 3] = [(30, "GiB"), (20, "MiB"), (10, "KiB")];

impl ByteSize {
    /// `bytes` bytes.
    pub const fn new(bytes: usize) -> ByteSize {
        ByteSize(bytes)
    }

    /// The size in bytes.
    pub const fn bytes(self) -> usize {
        self.0
    }
}

impl From<ByteSize> for usize {
    fn from(size: ByteSize) -> usize {
        size.0
    }
}

impl FromStr for ByteSize {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<ByteSize, ParseError> {
        let refuse = |reason: String| ParseError::Size {
            text: text.to_string(),
            reason,
        };
        let quote = backticked(text);
        let t = text.trim();
        if t.starts_with('-') {
            return Err(refuse(format!(
                "{quote} is not a size: a memory limit cannot be negative ({SIZE_EXAMPLE})"
            )));
        }
        let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
        let (digits, unit) = t.split_at(split);
        if digits.is_empty() {
            return Err(refuse(format!("{quote} is not a size ({SIZE_EXAMPLE})")));
        }
        let unit = unit.trim().to_ascii_uppercase();
        let Some(&(shift, _)) = UNITS
            .iter()
            .find(|(_, spellings)| spellings.contains(&unit.as_str()))
        else {
            return Err(refuse(format!(
                "unknown unit {} in {quote} ({SIZE_EXAMPLE}; B for bytes)",
                backticked(&unit)
            )));
        };
        let too_large = || refuse(format!("{quote} is too large a size"));
        // Only digits here: a number that does not fit is too large, not malformed.
        let n: u64 = digits.parse().map_err(|_| too_large())?;
        if n == 0 {
            return Err(refuse("the memory limit must be at least 1 byte".into()));
        }
        n.checked_mul(1 << shift)
            .and_then(|b| usize::try_from(b).ok())
            .map(ByteSize)
            .ok_or_else(too_large)
    }
}

impl fmt::Display for ByteSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let bytes = self.0;
        let Some(&(shift, unit)) = DISPLAY_UNITS.iter().find(|(shift, _)| bytes >> shift > 0)
        else {
            return write!(f, "{bytes} bytes");
        };
        if bytes % (1 << shift) == 0 {
            write!(f, "{} {unit}", bytes >> shift)
        } else {
            // A rounded figure for people; the exact one is `bytes()`.
            let units = bytes as f64 / f64::from(1u32 << shift);
            write!(f, "{units:.1} {unit}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(text: &str) -> Result<usize, String> {
        text.parse::<ByteSize>()
            .map(ByteSize::bytes)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn sizes_take_every_spelling_of_their_unit_in_any_case() {
        for (text, bytes) in [
            ("1000", 1000),
            ("1000B", 1000),
            ("64b", 64),
            ("1000 bytes", 1000),
            ("2K", 2 << 10),
            ("2kb", 2 << 10),
            ("2KiB", 2 << 10),
            ("512M", 512 << 20),
            ("512mib", 512 << 20),
            ("512MB", 512 << 20),
            ("1G", 1 << 30),
            ("1GiB", 1 << 30),
            ("1gb", 1 << 30),
            (" 8 M ", 8 << 20),
        ] {
            assert_eq!(size(text), Ok(bytes), "{text}");
        }
    }

    #[test]
    fn zero_negative_and_malformed_sizes_are_refused_saying_why() {
        for (text, says) in [
            ("0", "the memory limit must be at least 1 byte"),
            ("0M", "the memory limit must be at least 1 byte"),
            (
                "-1",
                "`-1` is not a size: a memory limit cannot be negative",
            ),
            ("-5M", "cannot be negative"),
            ("lots", "`lots` is not a size (a number of bytes"),
            ("", "`` is not a size"),
            ("M", "`M` is not a size"),
            ("1.5G", "unknown unit `.5G` in `1.5G`"),
            ("12Q", "unknown unit `Q` in `12Q`"),
            ("12 TB", "unknown unit `TB` in `12 TB` (a number of bytes"),
        ] {
            let e = size(text).unwrap_err();
            assert!(e.contains(says), "{text:?}: {e}");
        }
        let e = "12Q".parse::<ByteSize>().unwrap_err();
        assert!(
            matches!(e, ParseError::Size { ref text, .. } if text == "12Q"),
            "{e:?}"
        );
    }

    #[test]
    fn sizes_past_the_machine_are_too_large() {
        assert_eq!(
            size("99999999999999999999G"),
            Err("`99999999999999999999G` is too large a size".to_string())
        );
        assert!(size("99999999999999999999")
            .unwrap_err()
            .contains("too large"));
        assert!(size(&format!("{}G", u64::MAX >> 10))
            .unwrap_err()
            .contains("too large"));
        assert_eq!(size(&usize::MAX.to_string()), Ok(usize::MAX));
    }

    #[test]
    fn a_huge_bad_size_is_quoted_cut() {
        let e = size(&"x".repeat(1000)).unwrap_err();
        assert!(e.contains("...` (1000 characters) is not a size"), "{e}");
        assert!(e.len() < 200, "{e}");
    }

    #[test]
    fn sizes_read_back_in_words() {
        for (bytes, words) in [
            (1, "1 bytes"),
            (1000, "1000 bytes"),
            (64 << 10, "64 KiB"),
            (1 << 20, "1 MiB"),
            (3 << 29, "1.5 GiB"),
            ((1 << 30) + 1, "1.0 GiB"),
        ] {
            assert_eq!(ByteSize::new(bytes).to_string(), words);
        }
        // Whole sizes read back as they are written.
        for bytes in [1000, 64 << 10, 1 << 20, 3 << 30] {
            let size = ByteSize::new(bytes);
            assert_eq!(size.to_string().parse::<ByteSize>(), Ok(size));
        }
    }
}
