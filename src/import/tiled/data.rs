//! Tile layer data as Tiled writes it, in either file format: gids as CSV (or a JSON array), or
//! base64 of little-endian u32s, uncompressed, zlib or gzip. zstd is refused by name (the
//! build does not read it).

use std::io::Read;

/// A layer's or chunk's gids as read: how many cells the data holds, and the ones that hold a
/// tile (index in row-major order, gid). Memory follows the tiles, not the cells: a small zlib
/// map of an 8192 x 8192 empty layer took 4.2 GB when every cell was kept.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Gids {
    pub(super) count: u64,
    pub(super) filled: Vec<(u64, u32)>,
}

impl Gids {
    /// Every gid of `all`, counted, the non-zero ones kept.
    pub(super) fn of(all: impl IntoIterator<Item = u32>) -> Self {
        let mut gids = Gids::default();
        for gid in all {
            gids.push(gid);
        }
        gids
    }

    fn push(&mut self, gid: u32) {
        if gid != 0 {
            self.filled.push((self.count, gid));
        }
        self.count += 1;
    }
}

/// The gids of `text`, encoded as `encoding` (`csv`, `base64`) and compressed as
/// `compression` (none, `zlib`, `gzip`), read as they are decoded. `cells` is how many the
/// layer or chunk expects: decompression stops a little past it, so a small file cannot
/// unpack into more than its layer.
pub(super) fn decode(
    encoding: &str,
    compression: &str,
    text: &str,
    cells: u64,
) -> Result<Gids, String> {
    match (encoding, compression) {
        ("csv", "") => csv(text),
        ("csv", c) => Err(format!(
            "CSV tile data with compression \"{c}\": Tiled compresses base64 data only"
        )),
        ("base64", c) => {
            let bytes = super::super::convert::base64(text)
                .ok_or("base64 tile data with a character outside base64")?;
            let limit = cells.saturating_add(1).saturating_mul(4);
            match c {
                // Uncompressed, the data is no larger than the file: counted whole.
                "" => words(&bytes[..], u64::MAX, c),
                "zlib" => words(flate2::read::ZlibDecoder::new(&bytes[..]), limit, c),
                "gzip" => words(flate2::read::GzDecoder::new(&bytes[..]), limit, c),
                "zstd" => Err("zstd-compressed tile data: this build does not read zstd; \
                               save the map with zlib or gzip compression (Map > Map Properties > \
                               Tile Layer Format)"
                    .into()),
                other => Err(format!(
                    "tile data compressed as \"{other}\": Tiled writes zlib, gzip or zstd"
                )),
            }
        }
        (other, _) => Err(format!(
            "tile data encoded as \"{other}\": Tiled writes csv or base64"
        )),
    }
}

/// Little-endian u32 gids read from `reader`, at most `limit` bytes.
fn words(reader: impl Read, limit: u64, how: &str) -> Result<Gids, String> {
    let mut reader = std::io::BufReader::new(reader.take(limit));
    let mut gids = Gids::default();
    let mut word = [0u8; 4];
    loop {
        // A word may come in pieces from a decompressor.
        let mut got = 0;
        while got < 4 {
            match reader.read(&mut word[got..]) {
                Ok(0) => break,
                Ok(k) => got += k,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    return Err(format!(
                        "{how}-compressed tile data that does not unpack: {e}"
                    ));
                }
            }
        }
        match got {
            4 => gids.push(u32::from_le_bytes(word)),
            0 => return Ok(gids),
            _ => {
                return Err(format!(
                    "base64 tile data of {} bytes: not whole 4-byte gids",
                    gids.count * 4 + got as u64
                ));
            }
        }
    }
}

/// `1,2,0,...` (whitespace and a trailing comma allowed).
fn csv(text: &str) -> Result<Gids, String> {
    let text = text.trim();
    let mut gids = Gids::default();
    if text.is_empty() {
        return Ok(gids);
    }
    let text = text.strip_suffix(',').unwrap_or(text);
    for v in text.split(',') {
        gids.push(gid(v.trim())?);
    }
    Ok(gids)
}

/// One gid as text: a whole number 0 to 4294967295.
pub(super) fn gid(v: &str) -> Result<u32, String> {
    v.parse::<u32>().map_err(|_| {
        format!("tile data \"{v}\" is not a gid (a whole number from 0 to 4294967295)")
    })
}

/// The message for data that does not fill its layer or chunk.
pub(super) fn wrong_count(found: u64, width: u64, height: u64) -> String {
    format!(
        "its data holds {found} cells where its {width} x {height} needs {}",
        width * height
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_and_base64_give_the_same_gids() {
        // (zlib and gzip: pytiled_parser's maps in tests/levels/tiled/pytiled, read against
        // their CSV twins by tests/import_tiled.rs.)
        let gids = Gids::of([1, 0, 2_147_483_651, 7]);
        assert_eq!(gids.filled, [(0, 1), (2, 2_147_483_651), (3, 7)]);
        assert_eq!(
            decode("csv", "", "1,0,2147483651,\n7", 4).as_ref(),
            Ok(&gids)
        );
        // The 16 little-endian bytes of those gids.
        assert_eq!(
            decode("base64", "", "AQAAAAAAAAADAACABwAAAA==", 4),
            Ok(gids)
        );
    }

    #[test]
    fn what_does_not_decode_is_named() {
        let e = |enc, comp, text| decode(enc, comp, text, 4).unwrap_err();
        assert!(e("base64", "zstd", "AAAA").starts_with("zstd-compressed tile data"));
        assert_eq!(
            e("csv", "", "1,x,3"),
            "tile data \"x\" is not a gid (a whole number from 0 to 4294967295)"
        );
        assert_eq!(
            e("base64", "", "AQID"),
            "base64 tile data of 3 bytes: not whole 4-byte gids"
        );
        assert!(
            e("base64", "zlib", "AQID")
                .starts_with("zlib-compressed tile data that does not unpack")
        );
        assert_eq!(
            e("xml", "", ""),
            "tile data encoded as \"xml\": Tiled writes csv or base64"
        );
        assert_eq!(
            e("base64", "", "A*"),
            "base64 tile data with a character outside base64"
        );
    }
}
