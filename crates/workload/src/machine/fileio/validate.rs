//! `--validate` (sysbench's checksums validation): every block written carries, in its last 12
//! bytes, the CRC-32 of the rest (zlib's) and its own offset in the file, both little-endian;
//! every block read is checked, its checksum first, then its offset. A file written without
//! it (zeros) fails the first check, as under sysbench.

use dbpress_core::personality::is_sysbench;
use dbpress_core::rand::Rng;

/// The checksum and the offset at the end of each block.
pub const TRAILER: usize = 12;

/// Fill `buf`, whole blocks of `block` bytes the first of which lies at `offset` in its file,
/// with random bytes and each block's trailer.
pub fn seal(buf: &mut [u8], block: usize, offset: u64, rng: &mut Rng) {
    for (i, b) in buf.chunks_exact_mut(block).enumerate() {
        let (data, trailer) = b.split_at_mut(block - TRAILER);
        for word in data.chunks_mut(8) {
            let r = rng.next_u64().to_le_bytes();
            word.copy_from_slice(&r[..word.len()]);
        }
        let at = offset + (i * block) as u64;
        trailer[..4].copy_from_slice(&crc32fast::hash(data).to_le_bytes());
        trailer[4..].copy_from_slice(&at.to_le_bytes());
    }
}

/// Check the blocks of `buf` read from `offset` of file number `file` (`name` names it): Err
/// is what to say (under sysbench's personality its three `FATAL:` lines, the first without its
/// prefix).
pub fn check(
    buf: &[u8],
    block: usize,
    offset: u64,
    file: usize,
    name: impl Fn(usize) -> String,
) -> Result<(), String> {
    for (i, b) in buf.chunks_exact(block).enumerate() {
        let (data, trailer) = b.split_at(block - TRAILER);
        let at = offset + (i * block) as u64;
        let calculated = crc32fast::hash(data);
        let stored = u32::from_le_bytes(trailer[..4].try_into().unwrap_or_default());
        let stored_at = u64::from_le_bytes(trailer[4..].try_into().unwrap_or_default());
        let failed = if calculated != stored {
            format!(
                "Checksum mismatch in block with offset: {at}\nFATAL:     Calculated value: 0x{calculated:x}    Stored value: 0x{stored:x}"
            )
        } else if stored_at != at {
            format!("Offset mismatch in block:\nFATAL:    Actual offset: {at}    Stored offset: {stored_at}")
        } else {
            continue;
        };
        if is_sysbench() {
            return Err(format!(
                "{failed}\nFATAL: Validation failed on file {file}, block offset {at}, exiting..."
            ));
        }
        let why = if calculated != stored {
            format!("its CRC-32 is 0x{calculated:x} where 0x{stored:x} is stored")
        } else {
            format!("it says it belongs at offset {stored_at}")
        };
        return Err(format!(
            "--validate: the block at offset {at} of {} fails its check ({why}): the file was written without --validate, or changed under the test; prepare the files again with --validate",
            name(file)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sealed_block_passes_and_a_moved_or_zeroed_one_does_not() {
        let mut buf = vec![0u8; 3 * 4096];
        let name = |n: usize| format!("test_file.{n}");
        assert!(check(&buf, 4096, 0, 0, name)
            .unwrap_err()
            .contains("CRC-32 is 0x8131530 where 0x0 is stored"));
        seal(&mut buf, 4096, 8192, &mut Rng::new(1, 2));
        assert_eq!(check(&buf, 4096, 8192, 0, name), Ok(()));
        let e = check(&buf[4096..], 4096, 0, 1, name).unwrap_err();
        assert!(e.contains("block at offset 0 of test_file.1"), "{e}");
        assert!(e.contains("belongs at offset 12288"), "{e}");
    }
}
