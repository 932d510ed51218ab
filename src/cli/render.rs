//! `collidoscope render FILE [--pair I J] -o OUT.svg|OUT.png [--size W H]`: the scene as the
//! window opens on it, without a window. The picture is [`crate::picture::picture`], the
//! window's own drawing description; SVG is [`crate::picture::svg`]; PNG is that SVG
//! rasterised by resvg, with the system's fonts (text is left out where none is found).

use crate::picture::{self, Vec2, svg};
use crate::scene;
use resvg::{tiny_skia, usvg};
use std::path::Path;
use std::path::PathBuf;

/// The size of a picture when none is asked for (pixels).
pub const DEFAULT_SIZE: (u32, u32) = (960, 640);
/// The sizes a picture may have, either side (pixels): big enough to show a pair, small
/// enough that a PNG's pixels fit in memory.
const SIZES: std::ops::RangeInclusive<u32> = 16..=8192;

/// What the picture is written as, from the output's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Svg,
    Png,
}

/// `.svg` or `.png`, in any case.
fn format_of(out: &Path) -> Option<Format> {
    let extension = out.extension()?.to_str()?.to_ascii_lowercase();
    match extension.as_str() {
        "svg" => Some(Format::Svg),
        "png" => Some(Format::Png),
        _ => None,
    }
}

/// Render one file to `out`: 0 when written; 1 when the file is refused or the picture
/// cannot be written; 2 for wrong usage (an output that is neither .svg nor .png, a size out
/// of range, a pair that is not in the file).
pub fn run(path: &Path, pair: Option<(usize, usize)>, out: &Path, (w, h): (u32, u32)) -> u8 {
    let Some(format) = format_of(out) else {
        eprintln!(
            "collidoscope render: {}: the picture's name must end in .svg or .png",
            out.display()
        );
        return 2;
    };
    if !SIZES.contains(&w) || !SIZES.contains(&h) {
        eprintln!(
            "collidoscope render: --size {w} {h}: give a width and a height from {} to {} pixels",
            SIZES.start(),
            SIZES.end()
        );
        return 2;
    }
    let scene = match scene::load(path) {
        Ok(scene) => scene,
        Err(e) => {
            eprintln!("{e}");
            return 1;
        }
    };
    let pair = match pair.map(|p| super::check_pair(p, scene.shapes.len())) {
        Some(Err(message)) => {
            eprintln!("{}: {message}", path.display());
            return 2;
        }
        Some(Ok(pair)) => Some(pair),
        None => None,
    };
    let picture = picture::picture(&scene, pair, Vec2::new(w as f32, h as f32));
    let text = svg::to_svg(&picture);
    let bytes = match format {
        Format::Svg => text.into_bytes(),
        Format::Png => match png(&text, w, h) {
            Ok(bytes) => bytes,
            Err(message) => {
                eprintln!("{}: cannot rasterise the picture: {message}", out.display());
                return 1;
            }
        },
    };
    if let Err(e) = crate::files::write_atomically(out, &bytes) {
        eprintln!("{}: cannot write the picture: {e}", out.display());
        return 1;
    }
    println!("wrote {} ({w}x{h})", out.display());
    0
}

/// `svg` as a `w` x `h` PNG, its text set in the system's fonts.
fn png(svg: &str, w: u32, h: u32) -> Result<Vec<u8>, String> {
    rasterise(svg, w, h, &with_system_fonts())
}

/// Options that find the system's fonts (read from disk, never fetched).
fn with_system_fonts() -> usvg::Options<'static> {
    let mut options = usvg::Options::default();
    let fonts = options.fontdb_mut();
    fonts.load_system_fonts();
    // The SVG names common families, then `sans-serif`; where none of them is installed,
    // `sans-serif` is whatever font there is.
    let sans = usvg::fontdb::Query {
        families: &[usvg::fontdb::Family::SansSerif],
        ..Default::default()
    };
    let any = fonts
        .faces()
        .find_map(|face| face.families.first())
        .map(|(family, _)| family.clone());
    if fonts.query(&sans).is_none()
        && let Some(family) = any
    {
        fonts.set_sans_serif_family(family);
    }
    options
}

/// `svg` as a `w` x `h` PNG. Text for which `options` has no font is left out.
fn rasterise(svg: &str, w: u32, h: u32, options: &usvg::Options) -> Result<Vec<u8>, String> {
    let tree = usvg::Tree::from_str(svg, options).map_err(|e| e.to_string())?;
    let mut pixmap = tiny_skia::Pixmap::new(w, h).ok_or("no room for the pixels")?;
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Without any font the picture is still drawn, only its text is missing.
    #[test]
    fn no_font_leaves_the_text_out_and_draws_the_rest() {
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"10\">\
                   <rect width=\"20\" height=\"10\" fill=\"#ff0000\"/>\
                   <text x=\"2\" y=\"8\" font-size=\"13\">label</text></svg>";
        let no_fonts = usvg::Options::default();
        assert!(no_fonts.fontdb.is_empty());
        let bytes = rasterise(svg, 20, 10, &no_fonts).expect("drawn without fonts");
        let pixmap = tiny_skia::Pixmap::decode_png(&bytes).unwrap();
        assert!(
            pixmap
                .pixels()
                .iter()
                .all(|p| (p.red(), p.green(), p.blue()) == (255, 0, 0))
        );
    }

    #[test]
    fn the_format_is_the_extension_in_any_case() {
        assert_eq!(format_of(Path::new("a/b.SVG")), Some(Format::Svg));
        assert_eq!(format_of(Path::new("b.png")), Some(Format::Png));
        assert_eq!(format_of(Path::new("b.jpg")), None);
        assert_eq!(format_of(Path::new("png")), None);
    }
}

/// The options of `collidoscope render`.
#[derive(Debug, clap::Args)]
pub struct RenderArgs {
    /// A shape-set file.
    pub file: PathBuf,
    /// The pair to explain (default: the first intersecting pair, else 0 1).
    #[arg(long, num_args = 2, value_names = ["I", "J"])]
    pub pair: Option<Vec<usize>>,
    /// Where to write the picture: OUT.svg or OUT.png.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// The picture's width and height in pixels [default: 960 640].
    #[arg(long, num_args = 2, value_names = ["W", "H"])]
    pub size: Option<Vec<u32>>,
}
