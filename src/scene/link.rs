//! A window in a link: the query of the web app's address (`?lesson=NAME&slide=K`,
//! `?example=NAME`, `?scene=…`), read into a [`LinkRequest`], and a shape set written into
//! one (the window's Copy link), so a teacher shares a scene and a user a bug in one line.
//!
//! `scene` holds the shape-set file (docs/format.md) deflated (RFC 1951) and written in
//! URL-safe base64 without padding (RFC 4648 §5), so a link's scene is exactly what a saved
//! file would hold: every number round-trips.

use super::{Scene, parse, to_json};
use crate::files::{FileError, Problem};
use std::io::{Read as _, Write as _};
use std::path::Path;

/// How messages name what a link carries.
pub const LINK: &str = "the link";

/// A scene in a link is at most this big unpacked: a link is a few kilobytes, and a hostile
/// one must not unpack into gigabytes.
const LARGEST_SCENE: u64 = 8 << 20;

/// What a link asks the window to open.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkRequest {
    /// No parameters: the default scene.
    Default,
    /// A built-in lesson in presenter mode, at slide `slide` (1-based; the first if `None`).
    Lesson {
        /// As `lesson list` prints it.
        name: String,
        /// 1-based.
        slide: Option<usize>,
    },
    /// A built-in example, by the name the Examples menu's files have (`default`, ...).
    Example(String),
    /// A shape set carried in the link.
    Scene(Scene),
}

/// Read a link's query (with or without its leading `?`; a `#…` fragment is ignored).
///
/// # Errors
/// What is wrong, in a sentence that names the parameter: an unknown one, a repeated one,
/// two that cannot go together, a slide that is not a number from 1, a scene that cannot
/// be read (with where in it).
pub fn parse_query(query: &str) -> Result<LinkRequest, String> {
    let query = query.strip_prefix('?').unwrap_or(query);
    let query = query.split('#').next().unwrap_or_default();
    let mut lesson = None;
    let mut slide = None;
    let mut example = None;
    let mut scene = None;
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = percent_decode(key)?;
        let value = percent_decode(value)?;
        let slot = match key.as_str() {
            "lesson" => &mut lesson,
            "slide" => &mut slide,
            "example" => &mut example,
            "scene" => &mut scene,
            other => {
                return Err(format!(
                    "the link's parameter `{other}` is not one the window takes (lesson, slide, example, scene)"
                ));
            }
        };
        if slot.is_some() {
            return Err(format!("the link gives `{key}` twice"));
        }
        if value.is_empty() {
            return Err(format!("the link's `{key}` is empty"));
        }
        *slot = Some(value);
    }
    let slide = slide
        .map(|s| match s.parse::<usize>() {
            Ok(k) if k >= 1 => Ok(k),
            _ => Err(format!(
                "the link's `slide` is `{s}`: a slide is a number from 1"
            )),
        })
        .transpose()?;
    match (lesson, example, scene) {
        (None, None, None) if slide.is_some() => {
            Err("the link gives a `slide` but no `lesson`".to_string())
        }
        (None, None, None) => Ok(LinkRequest::Default),
        (Some(name), None, None) => Ok(LinkRequest::Lesson { name, slide }),
        (None, Some(name), None) if slide.is_none() => Ok(LinkRequest::Example(name)),
        (None, None, Some(text)) if slide.is_none() => scene_from_param(&text)
            .map(LinkRequest::Scene)
            .map_err(|e| e.to_string()),
        _ if slide.is_some() => Err("the link's `slide` goes with a `lesson` only".to_string()),
        _ => Err(
            "the link asks for more than one thing: a link takes one of lesson, example or scene"
                .to_string(),
        ),
    }
}

/// The query (`?scene=…`) that carries `scene`.
pub fn scene_query(scene: &Scene) -> String {
    format!("?scene={}", scene_to_param(scene))
}

/// `scene`'s file, deflated, in URL-safe base64.
pub fn scene_to_param(scene: &Scene) -> String {
    let json = to_json(scene);
    let mut packer = flate2::write::DeflateEncoder::new(
        Vec::with_capacity(json.len() / 3),
        flate2::Compression::best(),
    );
    packer
        .write_all(json.as_bytes())
        .expect("writing to memory does not fail");
    let packed = packer.finish().expect("writing to memory does not fail");
    base64_url(&packed)
}

/// The scene a link's `scene` parameter carries.
///
/// # Errors
/// Named as [`LINK`]'s: not base64 (where), not deflate data, too big unpacked, or the
/// shape set's own problem (the shape and the field).
pub fn scene_from_param(text: &str) -> Result<Scene, FileError> {
    let path = Path::new(LINK);
    let packed = from_base64_url(text).map_err(|e| FileError::new(path, Problem::Document(e)))?;
    let mut json = Vec::new();
    let unpacked = flate2::read::DeflateDecoder::new(packed.as_slice())
        .take(LARGEST_SCENE + 1)
        .read_to_end(&mut json);
    if let Err(e) = unpacked {
        return Err(FileError::new(
            path,
            Problem::Document(format!(
                "the scene in it is damaged (it is not deflate data: {e}); was the link cut short?"
            )),
        ));
    }
    if json.len() as u64 > LARGEST_SCENE {
        return Err(FileError::new(
            path,
            Problem::Document(format!(
                "the scene in it unpacks to more than {} MiB",
                LARGEST_SCENE >> 20
            )),
        ));
    }
    parse(path, &json)
}

/// Decode `%XX` and `+` (a space) in a query's key or value.
fn percent_decode(text: &str) -> Result<String, String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut k = 0;
    while k < bytes.len() {
        match bytes[k] {
            b'%' => {
                let hex = bytes
                    .get(k + 1..k + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                    .ok_or_else(|| {
                        format!(
                            "the link has a `%` at character {} that is not `%` and two hex digits",
                            k + 1
                        )
                    })?;
                out.push(hex);
                k += 3;
            }
            b'+' => {
                out.push(b' ');
                k += 1;
            }
            b => {
                out.push(b);
                k += 1;
            }
        }
    }
    String::from_utf8(out)
        .map_err(|_| "the link's text is not UTF-8 once its `%XX` are decoded".to_string())
}

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// RFC 4648 §5 base64 (`-` and `_`), without padding.
fn base64_url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (k, &b)| n | u32::from(b) << (16 - 8 * k));
        for k in 0..=chunk.len() {
            out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
        }
    }
    out
}

/// The bytes of [`base64_url`]'s text (`=` padding and the standard alphabet's `+` and `/`
/// are taken too: a link passed through another tool may have them).
fn from_base64_url(text: &str) -> Result<Vec<u8>, String> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut n, mut bits) = (0u32, 0u32);
    for (k, c) in text.bytes().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => {
                return Err(format!(
                    "the scene in it has `{}` at character {}, which base64 does not use; was the link cut or changed?",
                    char::from(c).escape_default(),
                    k + 1
                ));
            }
        };
        n = n << 6 | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((n >> bits) as u8);
            n &= (1 << bits) - 1;
        }
    }
    if bits >= 6 {
        return Err("the scene in it ends part-way through a byte; was the link cut short?".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn generated(count: usize) -> Scene {
        crate::scene::generate::random_scene(crate::scene::generate::Generate {
            count,
            seed: 7,
            overlaps: 2.0,
        })
    }

    #[test]
    fn base64_round_trips_every_length() {
        for len in 0..40usize {
            let bytes: Vec<u8> = (0..len).map(|k| (k * 37 + 11) as u8).collect();
            let text = base64_url(&bytes);
            assert!(!text.contains(['+', '/', '=']), "{text}");
            assert_eq!(from_base64_url(&text).unwrap(), bytes, "length {len}");
        }
        // RFC 4648 §10's vectors, in the URL-safe alphabet.
        assert_eq!(base64_url(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64_url(b"fo"), "Zm8");
        assert_eq!(from_base64_url("Zm8=").unwrap(), b"fo");
    }

    #[test]
    fn a_query_names_what_is_wrong() {
        assert_eq!(parse_query("").unwrap(), LinkRequest::Default);
        assert_eq!(parse_query("?").unwrap(), LinkRequest::Default);
        assert_eq!(
            parse_query("?lesson=sat-polygons&slide=3").unwrap(),
            LinkRequest::Lesson {
                name: "sat-polygons".into(),
                slide: Some(3)
            }
        );
        assert_eq!(
            parse_query("example=capsules%20and+more").unwrap(),
            LinkRequest::Example("capsules and more".into())
        );
        for (query, words) in [
            ("?lessons=x", "`lessons` is not one"),
            ("?lesson=a&lesson=b", "`lesson` twice"),
            ("?lesson=a&slide=0", "a number from 1"),
            ("?lesson=a&slide=two", "`two`"),
            ("?slide=2", "no `lesson`"),
            ("?example=a&slide=2", "with a `lesson` only"),
            ("?lesson=a&example=b", "more than one thing"),
            ("?lesson=", "`lesson` is empty"),
            ("?lesson=%zz", "two hex digits"),
            ("?scene=abc*def", "`*` at character 4"),
        ] {
            let e = parse_query(query).unwrap_err();
            assert!(e.contains(words), "{query}: {e}");
        }
    }

    #[test]
    fn a_scene_goes_through_a_link_exactly() {
        let scene = generated(12);
        let query = scene_query(&scene);
        let LinkRequest::Scene(back) = parse_query(&query).unwrap() else {
            panic!("not a scene");
        };
        assert_eq!(to_json(&back), to_json(&scene));
        assert!(query.len() < 4096, "{} characters", query.len());
    }

    #[test]
    fn a_damaged_scene_is_named() {
        let scene = generated(3);
        let param = scene_to_param(&scene);
        let cut = &param[..param.len() / 2];
        let e = scene_from_param(cut).unwrap_err().to_string();
        assert!(e.starts_with(LINK) && e.contains("cut short"), "{e}");
        // Valid deflate data that is not a shape set: the shape-set reader's own words.
        let mut packer =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        packer.write_all(br#"{"format": "collidoscope-shapes", "version": 1, "shapes": [{"kind": "circle"}]}"#).unwrap();
        let e = scene_from_param(&base64_url(&packer.finish().unwrap()))
            .unwrap_err()
            .to_string();
        assert!(e.starts_with(LINK) && e.contains("shape 0"), "{e}");
        // A bomb: a megabyte of zeros times nine unpacks past the limit.
        let mut packer =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::best());
        for _ in 0..9 {
            packer.write_all(&[b' '; 1 << 20]).unwrap();
        }
        let e = scene_from_param(&base64_url(&packer.finish().unwrap()))
            .unwrap_err()
            .to_string();
        assert!(e.contains("more than 8 MiB"), "{e}");
    }
}
