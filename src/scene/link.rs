//! A window in a link: the query of the web app's address (`?lesson=NAME&slide=K`,
//! `?example=NAME`, `?scene=…`, with what the window shows of a scene or an example: `lab=`,
//! `pair=I,J`, `view=X,Y,WIDTH`, `ray=X1,Y1,X2,Y2`), read into a [`LinkRequest`], and a shape
//! set written into one (the window's Copy link), so a teacher shares a scene and a user a bug
//! in one line, seen as they see it.
//!
//! `scene` holds the shape-set file (docs/format.md) deflated (RFC 1951) and written in
//! URL-safe base64 without padding (RFC 4648 §5), so a link's scene is exactly what a saved
//! file would hold: every number round-trips.

use super::{Scene, parse, to_json};
use crate::files::{FileError, Problem};
use crate::geometry::DVec2;
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
    /// `slide=K` alone: slide K (1-based) of the lesson the page carries (an interactive
    /// lesson page, `lesson export --interactive`); elsewhere a slide without a lesson.
    Slide(usize),
    /// A built-in example, by the name the Examples menu's files have (`default`, ...), shown
    /// as the link says.
    Example(String, Shown),
    /// A shape set carried in the link, shown as the link says.
    Scene(Scene, Shown),
}

/// What the window shows of a scene or an example besides its shapes, as a link carries it;
/// each `None` where the link leaves it as the scene or example opens.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Shown {
    /// The lab (`lab=`).
    pub lab: Option<LinkLab>,
    /// The explained pair, as positions in the shape list (`pair=I,J`: A is I, B is J).
    pub pair: Option<(usize, usize)>,
    /// The view (`view=X,Y,WIDTH`).
    pub view: Option<LinkView>,
    /// The casts lab's ray, from and to (`ray=X1,Y1,X2,Y2`; with `lab=casts` only).
    pub ray: Option<(DVec2, DVec2)>,
}

/// A lab a link can open a scene in: every lab but the capture lab, whose capture is a file
/// a link cannot carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkLab {
    /// The separating-axis test of one pair.
    Pair,
    /// The broad phase.
    Broad,
    /// A ray cast against the scene.
    Casts,
    /// The scene run through time.
    Motion,
    /// Late packets.
    Latency,
}

impl LinkLab {
    /// Every lab a link opens, as `lab=` names them (the lesson files' names).
    pub const ALL: [LinkLab; 5] = [
        LinkLab::Pair,
        LinkLab::Broad,
        LinkLab::Casts,
        LinkLab::Motion,
        LinkLab::Latency,
    ];

    /// Its name in a link.
    pub fn name(self) -> &'static str {
        match self {
            LinkLab::Pair => "pair",
            LinkLab::Broad => "broad",
            LinkLab::Casts => "casts",
            LinkLab::Motion => "motion",
            LinkLab::Latency => "latency",
        }
    }
}

/// A view in a link: the world point at the centre of the scene view, and how many world
/// units fit across its width (the zoom whatever the window's size, as a lesson's slide says).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LinkView {
    /// The world point at the view's centre.
    pub centre: DVec2,
    /// World units across the view; more than 0.
    pub width: f64,
}

impl Shown {
    /// The parameters that carry it, each after a `&` (empty when it carries nothing), in the
    /// order lab, pair, view, ray. Numbers are written as Rust writes them, the shortest text
    /// that reads back to the same number, so a view or a ray comes back exactly.
    pub fn query(&self) -> String {
        let mut out = String::new();
        if let Some(lab) = self.lab {
            out += &format!("&lab={}", lab.name());
        }
        if let Some((a, b)) = self.pair {
            out += &format!("&pair={a},{b}");
        }
        if let Some(v) = self.view {
            out += &format!("&view={},{},{}", v.centre.x, v.centre.y, v.width);
        }
        if let Some((from, to)) = self.ray {
            out += &format!("&ray={},{},{},{}", from.x, from.y, to.x, to.y);
        }
        out
    }

    /// Whether it fits a scene of `shapes` shapes.
    ///
    /// # Errors
    /// A pair that names a shape past the last, in a sentence.
    pub fn check(&self, shapes: usize) -> Result<(), String> {
        match self.pair {
            Some((a, b)) if a.max(b) >= shapes => Err(format!(
                "the link's `pair` is `{a},{b}`, and the scene has {shapes} shapes (0 to {})",
                shapes.saturating_sub(1)
            )),
            _ => Ok(()),
        }
    }
}

/// Read a link's query (with or without its leading `?`; a `#…` fragment is ignored).
///
/// # Errors
/// What is wrong, in a sentence that names the parameter: an unknown one, a repeated one,
/// two that cannot go together, a slide that is not a number from 1, a scene that cannot
/// be read (with where in it), an unknown lab, a pair, view or ray that is not numbers, a
/// pair past the scene's shapes.
pub fn parse_query(query: &str) -> Result<LinkRequest, String> {
    let query = query.strip_prefix('?').unwrap_or(query);
    let query = query.split('#').next().unwrap_or_default();
    let mut lesson = None;
    let mut slide = None;
    let mut example = None;
    let mut scene = None;
    let [mut lab, mut pair, mut view, mut ray]: [Option<String>; 4] = Default::default();
    for param in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = param.split_once('=').unwrap_or((param, ""));
        let key = percent_decode(key)?;
        let value = percent_decode(value)?;
        let slot = match key.as_str() {
            "lesson" => &mut lesson,
            "slide" => &mut slide,
            "example" => &mut example,
            "scene" => &mut scene,
            "lab" => &mut lab,
            "pair" => &mut pair,
            "view" => &mut view,
            "ray" => &mut ray,
            other => {
                return Err(format!(
                    "the link's parameter `{other}` is not one the window takes (lesson, slide, example, scene, lab, pair, view, ray)"
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
    let shown = Shown {
        lab: lab.as_deref().map(lab_from_param).transpose()?,
        pair: pair.as_deref().map(pair_from_param).transpose()?,
        view: view.as_deref().map(view_from_param).transpose()?,
        ray: ray.as_deref().map(ray_from_param).transpose()?,
    };
    if shown.ray.is_some() && shown.lab != Some(LinkLab::Casts) {
        return Err("the link's `ray` goes with `lab=casts` only".to_string());
    }
    let shows = shown != Shown::default();
    match (lesson, example, scene) {
        (None, None, None) if shows => Err(
            "the link gives a `lab`, `pair`, `view` or `ray` but no `scene` or `example`"
                .to_string(),
        ),
        (None, None, None) => Ok(slide.map_or(LinkRequest::Default, LinkRequest::Slide)),
        (Some(_), None, None) if shows => Err(
            "the link's `lab`, `pair`, `view` and `ray` go with a `scene` or an `example` only: a lesson's slide sets its own"
                .to_string(),
        ),
        (Some(name), None, None) => Ok(LinkRequest::Lesson { name, slide }),
        (None, Some(name), None) if slide.is_none() => Ok(LinkRequest::Example(name, shown)),
        (None, None, Some(text)) if slide.is_none() => {
            let scene = scene_from_param(&text).map_err(|e| e.to_string())?;
            shown.check(scene.shapes.len())?;
            Ok(LinkRequest::Scene(scene, shown))
        }
        _ if slide.is_some() => Err("the link's `slide` goes with a `lesson` only".to_string()),
        _ => Err(
            "the link asks for more than one thing: a link takes one of lesson, example or scene"
                .to_string(),
        ),
    }
}

/// The sentence for a `slide` given without a lesson where no page carries one.
pub const SLIDE_WITHOUT_LESSON: &str = "the link gives a `slide` but no `lesson`";

/// A link's `lab`: a lab's name; the capture lab's is refused with why.
fn lab_from_param(text: &str) -> Result<LinkLab, String> {
    if text == "capture" {
        return Err(
            "the link's `lab` is `capture`: the capture lab cannot be linked (its capture is a file a link cannot carry)"
                .to_string(),
        );
    }
    LinkLab::ALL
        .into_iter()
        .find(|lab| lab.name() == text)
        .ok_or_else(|| {
            let names: Vec<&str> = LinkLab::ALL.iter().map(|l| l.name()).collect();
            format!(
                "the link's `lab` is `{text}`, which is not one of the window's labs ({})",
                names.join(", ")
            )
        })
}

/// A link's `pair`: two different shape indices from 0.
fn pair_from_param(text: &str) -> Result<(usize, usize), String> {
    let indices: Vec<Option<usize>> = text.split(',').map(|k| k.parse().ok()).collect();
    match indices[..] {
        [Some(a), Some(b)] if a != b => Ok((a, b)),
        [Some(a), Some(_)] => Err(format!(
            "the link's `pair` names shape {a} twice: a pair is two shapes"
        )),
        _ => Err(format!(
            "the link's `pair` is `{text}`: a pair is two shape indices from 0, as `0,1`"
        )),
    }
}

/// `count` finite numbers separated by commas, or `None`.
fn numbers(text: &str, count: usize) -> Option<Vec<f64>> {
    let numbers: Vec<f64> = text
        .split(',')
        .map(|n| n.parse::<f64>().ok().filter(|n| n.is_finite()))
        .collect::<Option<_>>()?;
    (numbers.len() == count).then_some(numbers)
}

/// A link's `view`: the centre's x and y, and the width shown (more than 0).
fn view_from_param(text: &str) -> Result<LinkView, String> {
    match numbers(text, 3).as_deref() {
        Some(&[x, y, width]) if width > 0.0 => Ok(LinkView {
            centre: DVec2::new(x, y),
            width,
        }),
        _ => Err(format!(
            "the link's `view` is `{text}`: a view is three finite numbers, the centre's x and y and the width shown (more than 0), as `0,0,10`"
        )),
    }
}

/// A link's `ray`: where it starts and ends, x and y each.
fn ray_from_param(text: &str) -> Result<(DVec2, DVec2), String> {
    match numbers(text, 4).as_deref() {
        Some(&[x1, y1, x2, y2]) => Ok((DVec2::new(x1, y1), DVec2::new(x2, y2))),
        _ => Err(format!(
            "the link's `ray` is `{text}`: a ray is four finite numbers, from x and y to x and y, as `-5,0,5,0`"
        )),
    }
}

/// The query (`?scene=…`) that carries `scene`.
pub fn scene_query(scene: &Scene) -> String {
    format!("?scene={}", scene_to_param(scene))
}

/// The query that carries `scene` shown as `shown` says (`?scene=…&lab=…&pair=…&view=…`).
pub fn scene_query_shown(scene: &Scene, shown: &Shown) -> String {
    scene_query(scene) + &shown.query()
}

/// The query of built-in lesson `name` at `slide` (1-based).
pub fn lesson_query(name: &str, slide: usize) -> String {
    format!("?lesson={}&slide={slide}", percent_encode(name))
}

/// `text` with every byte but letters, digits and `-._~` written `%XX` (RFC 3986's
/// unreserved characters stay as they are).
fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
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
            LinkRequest::Example("capsules and more".into(), Shown::default())
        );
        for (query, words) in [
            ("?lessons=x", "`lessons` is not one"),
            ("?lesson=a&lesson=b", "`lesson` twice"),
            ("?lesson=a&slide=0", "a number from 1"),
            ("?lesson=a&slide=two", "`two`"),
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
        let LinkRequest::Scene(back, shown) = parse_query(&query).unwrap() else {
            panic!("not a scene");
        };
        assert_eq!(to_json(&back), to_json(&scene));
        assert_eq!(shown, Shown::default());
        assert!(query.len() < 4096, "{} characters", query.len());
    }

    #[test]
    fn a_link_carries_the_lab_the_pair_and_the_view_exactly() {
        let scene = generated(5);
        // Numbers whose shortest text is long, and a width far from 1: each comes back bit
        // for bit.
        let shown = Shown {
            lab: Some(LinkLab::Casts),
            pair: Some((4, 1)),
            view: Some(LinkView {
                centre: DVec2::new(0.1 + 0.2, -1.0 / 3.0),
                width: 1.5e-7,
            }),
            ray: Some((DVec2::new(-5.25, 0.0), DVec2::new(1e300, -2.0f64.sqrt()))),
        };
        let query = scene_query_shown(&scene, &shown);
        assert!(
            query.contains("&lab=casts&pair=4,1&view=0.30000000000000004,"),
            "{query}"
        );
        let LinkRequest::Scene(back, read) = parse_query(&query).unwrap() else {
            panic!("not a scene");
        };
        assert_eq!(to_json(&back), to_json(&scene));
        assert_eq!(read, shown);
        // Each goes with an example too, and in any order.
        assert_eq!(
            parse_query("?view=0,0,10&example=ghost-bumps&lab=broad").unwrap(),
            LinkRequest::Example(
                "ghost-bumps".into(),
                Shown {
                    lab: Some(LinkLab::Broad),
                    view: Some(LinkView {
                        centre: DVec2::ZERO,
                        width: 10.0
                    }),
                    ..Shown::default()
                }
            )
        );
        // `slide` alone: the page's own lesson's slide (refused where no page carries one).
        assert_eq!(parse_query("?slide=3").unwrap(), LinkRequest::Slide(3));
        assert_eq!(
            lesson_query("sat-polygons", 2),
            "?lesson=sat-polygons&slide=2"
        );
        assert_eq!(lesson_query("a b&c", 1), "?lesson=a%20b%26c&slide=1");
        assert!(matches!(
            parse_query(&lesson_query("a b&c", 1)).unwrap(),
            LinkRequest::Lesson { name, slide: Some(1) } if name == "a b&c"
        ));
    }

    #[test]
    fn what_a_link_shows_is_refused_in_a_sentence() {
        let scene = scene_query(&generated(3));
        for (rest, words) in [
            (
                "&pair=1,3",
                "`pair` is `1,3`, and the scene has 3 shapes (0 to 2)",
            ),
            ("&pair=2,2", "names shape 2 twice: a pair is two shapes"),
            (
                "&pair=1",
                "`pair` is `1`: a pair is two shape indices from 0, as `0,1`",
            ),
            ("&pair=-1,0", "`pair` is `-1,0`"),
            (
                "&view=0,0",
                "`view` is `0,0`: a view is three finite numbers",
            ),
            ("&view=0,0,0", "the width shown (more than 0)"),
            ("&view=0,0,-3", "`view` is `0,0,-3`"),
            ("&view=inf,0,1", "`view` is `inf,0,1`"),
            ("&view=NaN,0,1", "three finite numbers"),
            ("&view=1,2,3,4", "`view` is `1,2,3,4`"),
            (
                "&lab=sat",
                "`lab` is `sat`, which is not one of the window's labs (pair, broad, casts, motion, latency)",
            ),
            (
                "&lab=capture",
                "the capture lab cannot be linked (its capture is a file a link cannot carry)",
            ),
            (
                "&lab=casts&ray=0,0,1",
                "`ray` is `0,0,1`: a ray is four finite numbers",
            ),
            ("&ray=0,0,1,1", "`ray` goes with `lab=casts` only"),
            ("&lab=pair&lab=broad", "the link gives `lab` twice"),
            ("&view=", "the link's `view` is empty"),
        ] {
            let query = format!("{scene}{rest}");
            let e = parse_query(&query).unwrap_err();
            assert!(e.contains(words), "{rest}: {e}");
        }
        for (query, words) in [
            (
                "?lab=pair",
                "a `lab`, `pair`, `view` or `ray` but no `scene` or `example`",
            ),
            (
                "?lesson=sat-polygons&view=0,0,1",
                "go with a `scene` or an `example` only",
            ),
            ("?slide=2&pair=0,1", "no `scene` or `example`"),
            (
                "?zoom=2",
                "(lesson, slide, example, scene, lab, pair, view, ray)",
            ),
        ] {
            let e = parse_query(query).unwrap_err();
            assert!(e.contains(words), "{query}: {e}");
        }
        // A pair past an example's shapes is known only once the example is: the window
        // checks it with the same sentence.
        let shown = Shown {
            pair: Some((0, 11)),
            ..Shown::default()
        };
        assert_eq!(
            shown.check(11).unwrap_err(),
            "the link's `pair` is `0,11`, and the scene has 11 shapes (0 to 10)"
        );
        assert!(shown.check(12).is_ok());
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
