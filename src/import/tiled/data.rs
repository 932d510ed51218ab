//! Tile layer data as Tiled writes it, in either file format: gids as CSV (or a JSON array), or
//! base64 of little-endian u32s, uncompressed, zlib or gzip. zstd is refused by name (the
//! build does not read it).

use std::io::Read;

/// The gids of `text`, encoded as `encoding` (`csv`, `base64`) and compressed as
/// `compression` (none, `zlib`, `gzip`). `cells` is how many the layer or chunk expects:
/// decompression stops a little past it, so a small file cannot unpack into gigabytes.
pub(super) fn decode(
    encoding: &str,
    compression: &str,
    text: &str,
    cells: u64,
) -> Result<Vec<u32>, String> {
    match (encoding, compression) {
        ("csv", "") => csv(text),
        ("csv", c) => Err(format!(
            "CSV tile data with compression \"{c}\": Tiled compresses base64 data only"
        )),
        ("base64", c) => {
            let bytes = super::super::convert::base64(text)
                .ok_or("base64 tile data with a character outside base64")?;
            let limit = cells.saturating_add(1).saturating_mul(4);
            let bytes = match c {
                "" => bytes,
                "zlib" => unpack(flate2::read::ZlibDecoder::new(&bytes[..]), limit, c)?,
                "gzip" => unpack(flate2::read::GzDecoder::new(&bytes[..]), limit, c)?,
                "zstd" => {
                    return Err("zstd-compressed tile data: this build does not read zstd; \
                                save the map with zlib or gzip compression (Map > Map Properties > \
                                Tile Layer Format)"
                        .into());
                }
                other => {
                    return Err(format!(
                        "tile data compressed as \"{other}\": Tiled writes zlib, gzip or zstd"
                    ));
                }
            };
            if bytes.len() % 4 != 0 {
                return Err(format!(
                    "base64 tile data of {} bytes: not whole 4-byte gids",
                    bytes.len()
                ));
            }
            Ok(bytes
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect())
        }
        (other, _) => Err(format!(
            "tile data encoded as \"{other}\": Tiled writes csv or base64"
        )),
    }
}

/// `1,2,0,...` (whitespace and a trailing comma allowed).
fn csv(text: &str) -> Result<Vec<u32>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Vec::new());
    }
    let text = text.strip_suffix(',').unwrap_or(text);
    text.split(',')
        .map(|v| gid(v.trim()))
        .collect::<Result<Vec<u32>, String>>()
}

/// One gid as text: a whole number 0 to 4294967295.
pub(super) fn gid(v: &str) -> Result<u32, String> {
    v.parse::<u32>().map_err(|_| {
        format!("tile data \"{v}\" is not a gid (a whole number from 0 to 4294967295)")
    })
}

/// Decompressed bytes, at most `limit`.
fn unpack(reader: impl Read, limit: u64, how: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    reader
        .take(limit)
        .read_to_end(&mut out)
        .map_err(|e| format!("{how}-compressed tile data that does not unpack: {e}"))?;
    Ok(out)
}

/// The message for data that does not fill its layer or chunk.
pub(super) fn wrong_count(found: usize, width: u64, height: u64) -> String {
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
        let gids: Vec<u32> = vec![1, 0, 2_147_483_651, 7];
        assert_eq!(decode("csv", "", "1,0,2147483651,\n7", 4), Ok(gids.clone()));
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
