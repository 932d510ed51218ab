//! `collidoscope render FILE [--pair I J] -o OUT.svg|OUT.png [--size W H] [--theme T]
//! [--step K] [--label-axes] [--caption] [--naive]`: the scene as the window opens on it,
//! without a window, or as a slide shows it. The picture is [`crate::picture::picture`], the
//! window's own drawing description; SVG is [`crate::picture::svg`]; PNG is that SVG
//! rasterised by resvg, with the system's fonts (text is left out where none is found).

use crate::picture::{self, Look, Vec2, palette::Theme, svg};
use crate::scene;
use resvg::{tiny_skia, usvg};
use std::path::Path;
use std::path::PathBuf;

/// The size of a picture when none is asked for (pixels).
pub const DEFAULT_SIZE: (u32, u32) = (960, 640);
/// The sizes a picture may have, either side (pixels): big enough to show a pair, small
/// enough that a PNG's pixels fit in memory.
pub(super) const SIZES: std::ops::RangeInclusive<u32> = 16..=8192;

/// What the picture is written as, from the output's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Format {
    Svg,
    Png,
}

/// `.svg` or `.png`, in any case.
pub(super) fn format_of(out: &Path) -> Option<Format> {
    let extension = out.extension()?.to_str()?.to_ascii_lowercase();
    match extension.as_str() {
        "svg" => Some(Format::Svg),
        "png" => Some(Format::Png),
        _ => None,
    }
}

/// Render one file to `out`: 0 when written; 1 when the file is refused or the picture
/// cannot be written; 2 for wrong usage (an output that is neither .svg nor .png, a size out
/// of range, a pair that is not in the file, a theme or step that does not exist).
pub fn run(args: &RenderArgs) -> u8 {
    let (path, out) = (args.file.as_path(), args.output.as_path());
    let pair = args.pair.as_ref().map(|p| (p[0], p[1]));
    let (w, h) = args.size.as_ref().map_or(DEFAULT_SIZE, |s| (s[0], s[1]));
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
    let Some(theme) = Theme::from_name(&args.theme) else {
        eprintln!(
            "collidoscope render: --theme {}: the themes are dark and light",
            args.theme
        );
        return 2;
    };
    let size = Vec2::new(w as f32, h as f32);
    if let Some(k) = args.step {
        let shown = pair.or_else(|| picture::opening_pair(&scene));
        let Some((a, b)) = shown else {
            eprintln!(
                "{}: --step needs a pair, and the file has fewer than two shapes",
                path.display()
            );
            return 2;
        };
        let report = crate::query::pair_report(&scene.shapes[a].placed, &scene.shapes[b].placed);
        let steps = picture::step_count(&report);
        if k == 0 || k > steps {
            eprintln!(
                "{}: --step {k}: pair {a} {b} has steps 1 to {steps} (one per axis, then the verdict)",
                path.display()
            );
            return 2;
        }
    }
    let look = Look {
        step: args.step,
        label_axes: args.label_axes,
        caption: args.caption,
        naive: args.naive,
        theme,
        scale: Look::scale_for(size),
        ..Look::default()
    };
    let picture = picture::picture_with(&scene, pair, size, None, look);
    if let Err(status) = write_picture(&picture, out, format, (w, h), "picture") {
        return status;
    }
    0
}

/// Write `picture` to `out` as `format`, `w` x `h` pixels, and say so (`what` names it in a
/// refusal: `picture`, `plot`); 1 when it cannot be rasterised or written, said on stderr.
pub(super) fn write_picture(
    picture: &picture::Picture,
    out: &Path,
    format: Format,
    (w, h): (u32, u32),
    what: &str,
) -> Result<(), u8> {
    let text = svg::to_svg(picture);
    let bytes = match format {
        Format::Svg => text.into_bytes(),
        Format::Png => png(&text, w, h).map_err(|message| {
            eprintln!("{}: cannot rasterise the {what}: {message}", out.display());
            1u8
        })?,
    };
    crate::files::write_atomically(out, &bytes).map_err(|e| {
        eprintln!("{}: cannot write the {what}: {e}", out.display());
        1u8
    })?;
    println!("wrote {} ({w}x{h})", out.display());
    Ok(())
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
    /// The picture's width and height in pixels [default: 960 640]; text and lines grow with
    /// a picture larger than that.
    #[arg(long, num_args = 2, value_names = ["W", "H"])]
    pub size: Option<Vec<u32>>,
    /// dark (the window's) or light (for paper and projectors).
    #[arg(long, value_name = "T", default_value = "dark")]
    pub theme: String,
    /// Step K of step mode: axes 1 to K, the K-th in focus, the verdict hidden until the
    /// step after the last axis.
    #[arg(long, value_name = "K")]
    pub step: Option<usize>,
    /// Label every axis with its number and overlap or gap, not only the deciding one.
    #[arg(long)]
    pub label_axes: bool,
    /// The verdict (or the step's sentence) as a caption under the picture.
    #[arg(long)]
    pub caption: bool,
    /// Draw the naive MTV too (least overlap, axis sign as it comes).
    #[arg(long)]
    pub naive: bool,
}
