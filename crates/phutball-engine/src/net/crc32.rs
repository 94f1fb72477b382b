//! CRC-32 (IEEE 802.3, reflected, polynomial `0xEDB88320`): the weights
//! file's checksum, the same as Python's `zlib.crc32`. Table-driven; a
//! file is read once, so no faster variant is needed.

/// The remainder of each byte value, computed when the crate is built.
const TABLE: [u32; 256] = {
    let mut table = [0u32; 256];
    let mut byte = 0;
    while byte < 256 {
        let mut crc = byte as u32;
        let mut bit = 0;
        while bit < 8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
            bit += 1;
        }
        table[byte] = crc;
        byte += 1;
    }
    table
};

/// The CRC-32 of `bytes`.
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    !bytes.iter().fold(!0u32, |crc, &b| {
        (crc >> 8) ^ TABLE[((crc ^ u32::from(b)) & 0xFF) as usize]
    })
}

#[cfg(test)]
mod tests {
    use super::crc32;

    #[test]
    fn it_gives_the_check_values_of_zlib() {
        // The standard check value, and two values of Python's zlib.crc32.
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
        assert_eq!(
            crc32(b"The quick brown fox jumps over the lazy dog"),
            0x414F_A339
        );
    }
}
