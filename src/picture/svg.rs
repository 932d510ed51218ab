//! A [`Picture`] as an SVG document: one element per mark in painting order, the labels on
//! top, the caption under the scene, over the background of the picture's theme; the
//! picture's points scaled to its pixels by the `viewBox`. Dashes are `stroke-dasharray`; colours with an
//! opacity get `fill-opacity` / `stroke-opacity` (SVG 1.1, which every viewer and resvg read).

use super::frame::{CAPTION_LINE, CAPTION_MARGIN, Picture};
use super::mark::{Colour, Mark, Stroke, Vec2};
use super::palette::{self, Theme};
use std::fmt::Write;

/// The labels' font: what the window uses (13 points, proportional), with families most
/// systems have before the generic one.
const FONT: &str = "font-family=\"DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif\" \
                    font-size=\"13\"";
/// The same families, for text of another size.
const FONT_FAMILY: &str =
    "font-family=\"DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif\"";

/// The SVG text of `picture`, `picture.scale` pixels per point.
pub fn to_svg(picture: &Picture) -> String {
    to_svg_with(picture, "")
}

/// [`to_svg`] with `attributes` (` data-step="2"`) added to the `<svg>` element.
pub fn to_svg_with(picture: &Picture, attributes: &str) -> String {
    let size = picture.rect.size();
    let (w, h) = (number(size.x), number(size.y));
    let pixels = size * picture.scale;
    let (pw, ph) = (number(pixels.x), number(pixels.y));
    let theme = picture.theme;
    let paint = |what: &str, c: Colour| paint(what, theme.colour(c));
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{pw}\" height=\"{ph}\" \
         viewBox=\"0 0 {w} {h}\"{attributes}>"
    );
    let _ = writeln!(
        svg,
        "<rect width=\"{w}\" height=\"{h}\"{}/>",
        paint("fill", palette::BACKGROUND)
    );
    svg.push_str("<g stroke-linejoin=\"round\">\n");
    for mark in &picture.marks {
        element(mark, theme, &mut svg);
    }
    svg.push_str("</g>\n");
    let _ = writeln!(svg, "<g {FONT} text-anchor=\"middle\">");
    for (label, place) in &picture.labels {
        let c = place.centre();
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" dominant-baseline=\"central\"{}>{}</text>",
            number(c.x),
            number(c.y),
            paint("fill", label.colour),
            escape(&label.text)
        );
    }
    svg.push_str("</g>\n");
    if !picture.left_text.is_empty() {
        let _ = writeln!(svg, "<g {FONT} text-anchor=\"start\">");
        for (at, text, colour) in &picture.left_text {
            let _ = writeln!(
                svg,
                "<text x=\"{}\" y=\"{}\" dominant-baseline=\"central\"{}>{}</text>",
                number(at.x),
                number(at.y),
                paint("fill", *colour),
                escape(text)
            );
        }
        svg.push_str("</g>\n");
    }
    if !picture.caption.is_empty() {
        caption(picture, &mut svg);
    }
    svg.push_str("</svg>\n");
    svg
}

/// The caption: a band across the bottom, a shade off the background, its lines left-aligned.
fn caption(picture: &Picture, svg: &mut String) {
    let theme = picture.theme;
    let size = picture.rect.size();
    let lines = picture.caption.len() as f32;
    let band = lines * CAPTION_LINE + 2.0 * CAPTION_MARGIN;
    let top = size.y - band;
    let shade = match theme {
        Theme::Dark => Colour::gray(40),
        Theme::Light => Colour::gray(242),
    };
    let _ = writeln!(
        svg,
        "<rect y=\"{}\" width=\"{}\" height=\"{}\"{}/>",
        number(top),
        number(size.x),
        number(band),
        paint("fill", shade)
    );
    let ink = theme.colour(palette::RAY);
    let _ = writeln!(
        svg,
        "<g {FONT_FAMILY} font-size=\"13\" data-caption=\"\"{}>",
        paint("fill", ink)
    );
    for (i, line) in picture.caption.iter().enumerate() {
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" dominant-baseline=\"central\">{}</text>",
            number(CAPTION_MARGIN),
            number(top + CAPTION_MARGIN + (i as f32 + 0.5) * CAPTION_LINE),
            escape(line)
        );
    }
    svg.push_str("</g>\n");
}

/// One mark as an element, on its own line, in `theme`'s colours.
fn element(mark: &Mark, theme: Theme, svg: &mut String) {
    let paint = |what: &str, c: Colour| paint(what, theme.colour(c));
    let outline = |stroke: Stroke| {
        outline(Stroke {
            colour: theme.colour(stroke.colour),
            ..stroke
        })
    };
    let _ = match mark {
        Mark::Polygon {
            points,
            fill,
            stroke,
        } => writeln!(
            svg,
            "<polygon points=\"{}\"{}{}/>",
            points_list(points),
            paint("fill", *fill),
            outline(*stroke)
        ),
        Mark::Shape { fill, stroke, .. } => writeln!(
            svg,
            "<polygon points=\"{}\"{}{}/>",
            points_list(&mark.shape_outline()),
            paint("fill", *fill),
            outline(*stroke)
        ),
        Mark::Segment { points, stroke } => writeln!(
            svg,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{}/>",
            number(points[0].x),
            number(points[0].y),
            number(points[1].x),
            number(points[1].y),
            outline(*stroke)
        ),
        Mark::Line {
            points,
            closed,
            stroke,
        } => writeln!(
            svg,
            "<{} points=\"{}\" fill=\"none\"{}/>",
            if *closed { "polygon" } else { "polyline" },
            points_list(points),
            outline(*stroke)
        ),
        Mark::Dashed {
            points,
            stroke,
            dash,
            gap,
        } => writeln!(
            svg,
            "<polyline points=\"{}\" fill=\"none\"{} stroke-dasharray=\"{} {}\"/>",
            points_list(points),
            outline(*stroke),
            number(*dash),
            number(*gap)
        ),
        Mark::Circle {
            centre,
            radius,
            fill,
            stroke,
        } => writeln!(
            svg,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"{}{}/>",
            number(centre.x),
            number(centre.y),
            number(*radius),
            paint("fill", *fill),
            outline(*stroke)
        ),
        Mark::Rect {
            rect,
            corner,
            fill,
            stroke,
        } => writeln!(
            svg,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\"{}{}/>",
            number(rect.min.x),
            number(rect.min.y),
            number(rect.width()),
            number(rect.height()),
            number(*corner),
            paint("fill", *fill),
            outline(*stroke)
        ),
    };
}

/// ` fill="#rrggbb"` (or `stroke`), with its opacity when not opaque; `none` when transparent.
fn paint(what: &str, c: Colour) -> String {
    if c.is_transparent() {
        return format!(" {what}=\"none\"");
    }
    let mut text = format!(" {what}=\"#{:02x}{:02x}{:02x}\"", c.r, c.g, c.b);
    if c.a < 255 {
        let _ = write!(text, " {what}-opacity=\"{:.3}\"", c.a as f32 / 255.0);
    }
    text
}

/// The stroke attributes of a line, or nothing when it draws nothing.
fn outline(stroke: Stroke) -> String {
    if stroke.is_none() {
        return String::new();
    }
    format!(
        "{} stroke-width=\"{}\"",
        paint("stroke", stroke.colour),
        number(stroke.width)
    )
}

/// `x,y x,y ...`
fn points_list(points: &[Vec2]) -> String {
    let pairs: Vec<String> = points
        .iter()
        .map(|p| format!("{},{}", number(p.x), number(p.y)))
        .collect();
    pairs.join(" ")
}

/// A coordinate to a hundredth of a point, without trailing zeros; 0 for a non-finite one
/// (the camera keeps points finite; this is so the document stays valid whatever comes).
fn number(x: f32) -> String {
    if !x.is_finite() {
        return "0".into();
    }
    let text = format!("{x:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    match text {
        "-0" | "" => "0".into(),
        t => t.into(),
    }
}

/// `text` with the characters XML gives a meaning to replaced by their entities (which HTML
/// reads the same: the lesson page uses it too).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Control characters are not allowed in XML 1.0 at all.
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_short_and_never_negative_zero() {
        assert_eq!(number(12.0), "12");
        assert_eq!(number(-0.001), "0");
        assert_eq!(number(1.23456), "1.23");
        assert_eq!(number(f32::NAN), "0");
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\"\n"), "a&lt;b &amp; &quot;c&quot; ");
    }
}
