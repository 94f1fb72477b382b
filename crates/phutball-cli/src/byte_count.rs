//! `--memory-limit BYTES` of `prove` and `tablebase build`: a byte count
//! with an optional unit, read by both commands' flags.

/// A byte count: digits, optionally followed by K, M or G (KiB, MiB, GiB).
pub fn parse_bytes(text: &str) -> Result<usize, String> {
    let t = text.trim();
    let (digits, shift) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        None => (t, 0),
        Some((i, _)) => {
            let shift = match t[i..].to_ascii_uppercase().as_str() {
                "K" | "KB" | "KIB" => 10,
                "M" | "MB" | "MIB" => 20,
                "G" | "GB" | "GIB" => 30,
                "B" => 0,
                other => {
                    return Err(format!(
                        "unknown unit `{other}` in `{text}` (a byte count, or with K, M or G)"
                    ))
                }
            };
            (&t[..i], shift)
        }
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("`{text}` is not a byte count (e.g. 500000000, 512M or 2G)"))?;
    if n == 0 {
        return Err("the memory limit must be at least 1 byte".into());
    }
    n.checked_mul(1 << shift)
        .and_then(|b| usize::try_from(b).ok())
        .ok_or_else(|| format!("`{text}` is too large"))
}

#[cfg(test)]
mod tests {
    use super::parse_bytes;

    #[test]
    fn byte_counts_take_units_and_refuse_nonsense() {
        assert_eq!(parse_bytes("1000"), Ok(1000));
        assert_eq!(parse_bytes("2K"), Ok(2048));
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("1GiB"), Ok(1 << 30));
        assert!(parse_bytes("0").is_err());
        assert!(parse_bytes("12Q").unwrap_err().contains("unknown unit"));
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("99999999999999999999G").is_err());
    }
}
