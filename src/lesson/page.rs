//! A lesson as one self-contained web page (docs/format.md, "Lessons"): every slide a
//! `<section class="slide" data-slide="k">` with its title, its text and its pictures, inline
//! SVG drawn as `render` draws them (one per step of step mode, each `<svg data-step="k">`;
//! `data-step="all"` for a slide that shows the whole test). CSS and a small script are
//! inline: no network, and it works from `file://`. Keys and buttons step as the presenter
//! does: through a slide's steps first, then to the next slide.

use super::file::{Lesson, Slide, SlideLab};
use super::stage::{Stage, stage};
use crate::geometry::DVec2;
use crate::picture::BroadShown;
use crate::picture::camera::Camera;
use crate::picture::fit::{Fit, fit_bounds, fitted};
use crate::picture::palette::Theme;
use crate::picture::svg::{self, escape};
use crate::picture::{Look, Picture, Rect, Vec2, caption_band, picture_with};
use std::fmt::Write;

/// The width of the pictures (pixels); their height follows what they show (see
/// [`picture_size`]), and the page scales them to its room.
pub const PICTURE_WIDTH: f32 = 1440.0;

/// Pixels per point in the pictures: text 13 points is 20 px at the pictures' own size, about
/// 15 px where the page shows them 1100 px wide.
const SCALE: f32 = 2.25;

/// The widest and the tallest a picture may be (width over height): a wider scene is drawn
/// letterboxed rather than as a thin band, a taller one likewise.
const ASPECTS: (f64, f64) = (0.8, 2.0);

/// The room (points) a lab's picture leaves around what it draws, for the labels.
const LABEL_ROOM: f64 = 24.0;

/// A picture at least this wide (width over height) stands above the words, the page's whole
/// width; a narrower one beside them. At 1280x800 a picture above the words (about 1240 wide,
/// up to 540 high) shows more than one beside them (about 760 wide) from here on.
const WIDE: f64 = 1.45;

/// The page of `lesson`.
pub fn page(lesson: &Lesson) -> String {
    let n = lesson.slides.len();
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"collidoscope {}\">\n<link rel=\"icon\" href=\"data:,\">\n<title>{}</title>\n<style>{STYLE}{}</style>\n</head>\n<body>\n",
        env!("CARGO_PKG_VERSION"),
        escape(&lesson.title),
        // At its full size a picture's labels are 13 px, as in the window.
        format_args!(
            "@media (max-width: 600px) {{ .pictures.full svg {{ width: {}px; }} }}\n",
            PICTURE_WIDTH / SCALE
        )
    );
    let _ = writeln!(
        html,
        "<header><h1>{}</h1><nav><button id=\"back\" title=\"Left, Page Up\">&#8592; Back</button>\
         <span id=\"where\">slide 1 of {n}</span>\
         <button id=\"next\" title=\"Right, Page Down, Space\">Next &#8594;</button></nav></header>\n<main>",
        escape(&lesson.title)
    );
    for (i, slide) in lesson.slides.iter().enumerate() {
        section(&mut html, i + 1, slide);
    }
    let _ = write!(
        html,
        "</main>\n<footer><span class=\"keys\">Right, Page Down or Space: next step, then next slide. \
         Left or Page Up: back.</span><span class=\"touch\">Next: the next step, then the next slide. \
         Back: the step before.</span> Made with collidoscope.</footer>\n<script>var ENLARGE = {ENLARGE:?}, FIT = {FIT:?};{SCRIPT}</script>\n</body>\n</html>\n"
    );
    html
}

/// One slide's section: its words beside its pictures.
fn section(html: &mut String, k: usize, slide: &Slide) {
    let shown = stage(slide);
    let framed = framing(slide, &shown);
    let wide = f64::from(framed.size.x / framed.size.y) >= WIDE;
    let _ = writeln!(
        html,
        "<section class=\"slide{}\" data-slide=\"{k}\"{}>\n<div class=\"pictures\">",
        if wide { " wide" } else { "" },
        if k == 1 { "" } else { " hidden" }
    );
    if shown.steps.is_empty() {
        html.push_str(&picture_svg(slide, &shown, None, framed, "all"));
    } else {
        for (i, step) in shown.steps.iter().enumerate() {
            let mut svg = picture_svg(slide, &shown, Some(*step), framed, &step.to_string());
            if i > 0 {
                svg = svg.replacen("<svg ", "<svg hidden ", 1);
            }
            html.push_str(&svg);
        }
    }
    let _ = writeln!(
        html,
        "</div>\n<p class=\"enlarge\">{ENLARGE}</p>\n<div class=\"words\">\n<h2>{}</h2>",
        escape(&slide.title)
    );
    for paragraph in &slide.text {
        let _ = writeln!(html, "<p>{}</p>", escape(paragraph));
    }
    if let Some(note) = lab_note(slide, &shown) {
        let _ = writeln!(html, "<p class=\"lab\">{}</p>", escape(&note));
    }
    html.push_str("</div>\n</section>\n");
}

/// The picture of `slide` at `step` (`None`: the whole test), as SVG.
fn picture_svg(
    slide: &Slide,
    shown: &Stage,
    step: Option<usize>,
    framing: Framing,
    name: &str,
) -> String {
    let picture = slide_picture_framed(slide, shown, step, framing);
    svg::to_svg_with(&picture, &format!(" data-step=\"{name}\""))
}

/// How a slide's pictures are framed: their size (pixels) and the view they share.
#[derive(Clone, Copy, Debug)]
pub struct Framing {
    /// The pictures' size (pixels): [`PICTURE_WIDTH`] wide.
    pub size: Vec2,
    /// The view every step of the slide is drawn in.
    pub camera: Camera,
}

/// How `slide`'s pictures are framed, so a wide scene is a wide picture, not a band across a
/// 16:10 one: a picture with a pair's axis ring takes the shape of the ring's room (the
/// opening view fits it); any other (the broad phase, a lab without a pair) is drawn once as
/// it opens, then sized and viewed to what that drew; a slide that sets its view keeps that view's width and centre, as tall as what it
/// draws reaches above and below. Within [`ASPECTS`], plus room for the tallest caption of
/// its steps.
pub fn framing(slide: &Slide, shown: &Stage) -> Framing {
    let width = PICTURE_WIDTH / SCALE;
    let steps: Vec<Option<usize>> = if shown.steps.is_empty() {
        vec![None]
    } else {
        shown.steps.iter().map(|s| Some(*s)).collect()
    };
    let band = steps
        .iter()
        .map(|step| caption_band(&shown.scene, shown.pair, look(slide, shown, *step), width))
        .fold(0.0f32, f32::max);
    // Measured tall, so that nothing is cut off above or below.
    let measure = Vec2::new(PICTURE_WIDTH, (width / ASPECTS.0 as f32 + band) * SCALE);
    let view = slide.view.map(|v| Camera {
        centre: v.center,
        scale: f64::from(width) / v.width,
        ..Camera::default()
    });
    let last = look(slide, shown, steps.last().copied().flatten());
    let drawn = picture_with(&shown.scene, shown.pair, measure, view, last);
    let world = drawn.drawn_bounds().map(|(lo, hi)| {
        let (p, q) = (
            drawn.camera.to_world(drawn.rect, lo),
            drawn.camera.to_world(drawn.rect, hi),
        );
        (p.min(q), p.max(q))
    });
    let clamp = |aspect: f64| aspect.clamp(ASPECTS.0, ASPECTS.1);
    // Every lab but the broad phase draws the explained pair's axis ring.
    let ring = shown.pair.is_some() && !matches!(slide.lab, SlideLab::Broad { .. });
    if view.is_none() && ring {
        // The pair's axis ring is a circle around it, its lines on whichever side is clear:
        // the picture takes the shape of the ring's room, and the opening view fits it.
        let report = shown.pair.map(|(a, b)| {
            crate::query::pair_report(&shown.scene.shapes[a].placed, &shown.scene.shapes[b].placed)
        });
        let explained = shown.pair.zip(report.as_ref());
        let mut aspect = 1.6;
        for _ in 0..4 {
            let rect = Rect::from_min_size(
                Vec2::ZERO,
                Vec2::new(width, (f64::from(width) / aspect) as f32),
            );
            let camera = fitted(Fit::Scene, Camera::default(), rect, &shown.scene, explained);
            if let Some((lo, hi)) = fit_bounds(Fit::Scene, &shown.scene, explained, camera.scale) {
                let size = (hi - lo).max(DVec2::splat(1e-9));
                aspect = clamp(size.x / size.y);
            }
        }
        let size = Vec2::new(PICTURE_WIDTH, (width / aspect as f32 + band) * SCALE);
        let room = Rect::from_min_size(Vec2::ZERO, Vec2::new(width, width / aspect as f32));
        let camera = fitted(Fit::Scene, Camera::default(), room, &shown.scene, explained);
        return Framing { size, camera };
    }
    let (aspect, camera) = match (view, world) {
        (Some(camera), Some((lo, hi))) => {
            let reach = (hi.y - camera.centre.y)
                .max(camera.centre.y - lo.y)
                .max(1e-9);
            // The view's width over what it draws above and below its centre, with the room
            // the opening fit leaves (0.85).
            let aspect = clamp(0.85 * f64::from(width) / camera.scale / (2.0 * reach));
            (aspect, camera)
        }
        (None, Some((lo, hi))) => {
            let size = (hi - lo).max(DVec2::splat(1e-9));
            let aspect = clamp(size.x / size.y);
            let room = Rect::from_min_size(
                Vec2::ZERO,
                Vec2::new(width, (f64::from(width) / aspect) as f32),
            );
            // Room for the labels beside what is drawn.
            let mut camera = drawn.camera;
            camera.fit_with_margin(room, (lo, hi), LABEL_ROOM);
            (aspect, camera)
        }
        (view, None) => (1.6, view.unwrap_or(drawn.camera)),
    };
    Framing {
        size: Vec2::new(PICTURE_WIDTH, (width / aspect as f32 + band) * SCALE),
        camera,
    }
}

/// How the page draws `slide` at `step`: the projector's light look, every axis labelled, the
/// caption under a pair's picture, the lab's overlay.
fn look<'a>(slide: &Slide, shown: &'a Stage, step: Option<usize>) -> Look<'a> {
    Look {
        step,
        label_axes: true,
        caption: shown.pair.is_some() && matches!(slide.lab, SlideLab::Pair),
        naive: slide.naive,
        theme: Theme::Light,
        scale: SCALE,
        // The lab's own overlay, as the window draws it.
        broad: match slide.lab {
            SlideLab::Broad { show, .. } => Some(show.unwrap_or(BroadShown {
                cells: true,
                candidates: true,
                hits: true,
            })),
            _ => None,
        },
        cell_size: match slide.lab {
            SlideLab::Broad { cell, .. } => cell,
            _ => None,
        },
        // A motion slide shows a run's frame: its step's sweeps, not the pair's own motion.
        claim_and_motion: !matches!(slide.lab, SlideLab::Motion { .. }),
        sweeps: &shown.sweeps,
        ray: match slide.lab {
            SlideLab::Casts { ray } => ray.or_else(|| {
                Some(crate::broad::ray_across(&crate::broad::boxes_of(
                    &shown.scene,
                )))
            }),
            _ => None,
        },
    }
}

/// The picture of `slide` (set up as `shown`) at `step` (`None`: the whole test), as the page
/// draws it ([`look`], framed by [`framing`]).
pub fn slide_picture(slide: &Slide, shown: &Stage, step: Option<usize>) -> Picture {
    slide_picture_framed(slide, shown, step, framing(slide, shown))
}

/// [`slide_picture`] with the slide's framing already worked out.
fn slide_picture_framed(
    slide: &Slide,
    shown: &Stage,
    step: Option<usize>,
    framing: Framing,
) -> Picture {
    picture_with(
        &shown.scene,
        shown.pair,
        framing.size,
        Some(framing.camera),
        look(slide, shown, step),
    )
}

/// What the lab's state is, in words, for a slide outside the pair lab.
fn lab_note(slide: &Slide, shown: &Stage) -> Option<String> {
    let t = shown.time?;
    Some(match &slide.lab {
        SlideLab::Motion { frame, .. } => format!(
            "Motion: frame {} (t = {} s).",
            frame.unwrap_or(0),
            crate::text::number(t)
        ),
        SlideLab::Latency { arrived, log, .. } => format!(
            "Latency: {} of {} packets arrived; the players at t = {} ms.",
            arrived.unwrap_or_else(|| log.as_ref().map_or(0, |l| l.packets.len())),
            log.as_ref().map_or(0, |l| l.packets.len()),
            crate::text::ms(t)
        ),
        _ => return None,
    })
}

/// The page's look: light, large type, one slide at a time, words beside the picture (under
/// it on a narrow screen).
const STYLE: &str = "
:root { color-scheme: light; }
body { margin: 0; font-family: 'DejaVu Sans', 'Liberation Sans', Arial, Helvetica, sans-serif;
  background: #fff; color: #1e1e23; }
header { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between;
  gap: 0.5em 1em; padding: 0.5em 1.2em; border-bottom: 1px solid #ddd; }
header h1 { font-size: 1.3em; margin: 0; }
nav { display: flex; align-items: center; gap: 0.8em; white-space: nowrap; }
nav button { font-size: 1em; padding: 0.3em 0.9em; cursor: pointer; }
#where { min-width: 7em; text-align: center; }
section.slide { display: flex; gap: 2em; padding: 1em 1.2em; align-items: flex-start; }
section.slide.wide { flex-direction: column; gap: 0.8em; }
.pictures { flex: 5; min-width: 0; }
section.slide.wide .pictures { flex: none; width: 100%; }
.pictures svg { display: block; box-sizing: border-box; margin: 0 auto; width: auto; height: auto; max-width: 100%;
  max-height: calc(100vh - 6.5em); border: 1px solid #ddd; }
section.slide.wide .pictures svg { max-height: calc(100vh - 14em); }
/* Last, and more specific than the rules above: a hidden slide or step stays hidden. */
section.slide[hidden], .pictures svg[hidden] { display: none; }
.words { flex: 3; font-size: 1.35em; line-height: 1.45; }
section.slide.wide .words { flex: none; max-width: 48em; }
.words h2 { font-size: 1.45em; margin: 0 0 0.6em 0; }
.words p.lab { color: #555; font-size: 0.85em; }
footer { color: #777; font-size: 0.9em; padding: 0.5em 1.2em 1.5em; }
@media (max-width: 900px) { section.slide { flex-direction: column; } }
/* What moves the slides, in the words of the screen's pointer: keys at a desk, buttons under
   a finger. */
footer .touch { display: none; }
@media (pointer: coarse) { footer .keys { display: none; } footer .touch { display: inline; } }
@media (max-width: 600px) { header, section.slide { padding: 0.5em 0.8em; }
  .words { font-size: 1.1em; } .words h2 { font-size: 1.3em; } }
/* A phone shrinks a picture to its width, its labels to 7 px: a tap shows it at its full size
   (its labels 13 px), swiped sideways, and a second tap fits it again. */
.enlarge { display: none; }
section.slide .enlarge { margin: 0; }
@media (max-width: 600px) { .pictures { overflow-x: auto; align-self: stretch; max-width: 100%;
  cursor: zoom-in; }
  .pictures.full { cursor: zoom-out; } .pictures.full svg { max-width: none; max-height: none; }
  .enlarge { display: block; color: #777; font-size: 0.85em; text-align: center; }
  .pictures.full + .enlarge { color: #222; font-size: 1em; text-align: left; font-style: italic;
    order: -1; } }
";

/// Under a picture on a phone: how to see it whole, and how to fit it again.
const ENLARGE: &str = "Tap the picture for its full size.";
const FIT: &str = "Swipe sideways to see all of it; tap it to fit it to the screen.";

/// Stepping: the visible slide's step pictures first, then the next slide.
const SCRIPT: &str = "
(function () {
  var slides = Array.prototype.slice.call(document.querySelectorAll('section.slide'));
  var where = document.getElementById('where');
  var at = 0;
  function steps(s) { return Array.prototype.slice.call(s.querySelectorAll('svg[data-step]')); }
  function stepOf(s) { var all = steps(s); for (var i = 0; i < all.length; i++) { if (!all[i].hasAttribute('hidden')) { return i; } } return 0; }
  function showStep(s, k) { steps(s).forEach(function (svg, i) { if (i === k) { svg.removeAttribute('hidden'); } else { svg.setAttribute('hidden', ''); } }); say(s); }
  // Under a picture shown at its full size on a phone: its caption as the page's own words,
  // fitted to the screen, above it at full size (the picture's own caption scrolls sideways with it).
  function say(s) {
    var box = s.querySelector('.pictures'), under = s.querySelector('.enlarge');
    if (!box || !under) { return; }
    if (!box.classList.contains('full')) { under.textContent = ENLARGE; return; }
    var band = box.querySelector('svg[data-step]:not([hidden]) [data-caption]');
    var words = band ? Array.prototype.map.call(band.querySelectorAll('text'), function (t) { return t.textContent; }).join(' ') : '';
    under.textContent = (words ? words + ' ' : '') + '(' + FIT + ')';
  }
  function show(k, step) {
    at = Math.max(0, Math.min(slides.length - 1, k));
    slides.forEach(function (s, i) { if (i === at) { s.removeAttribute('hidden'); } else { s.setAttribute('hidden', ''); } });
    var n = steps(slides[at]).length;
    showStep(slides[at], step === 'last' ? n - 1 : 0);
    where.textContent = 'slide ' + (at + 1) + ' of ' + slides.length;
    if (history.replaceState) { history.replaceState(null, '', '#' + (at + 1)); }
  }
  function next() {
    var s = slides[at], k = stepOf(s);
    if (k + 1 < steps(s).length) { showStep(s, k + 1); } else if (at + 1 < slides.length) { show(at + 1, 'first'); }
  }
  function back() {
    var s = slides[at], k = stepOf(s);
    if (k > 0) { showStep(s, k - 1); } else if (at > 0) { show(at - 1, 'last'); }
  }
  // A tap on a picture on a phone: its full size, the point tapped kept under the finger.
  slides.forEach(function (s) {
    var box = s.querySelector('.pictures'), under = s.querySelector('.enlarge');
    box.addEventListener('click', function (e) {
      if (getComputedStyle(under).display === 'none') { return; }
      var r = box.getBoundingClientRect(), x = e.clientX - r.left;
      var f = (x + box.scrollLeft) / box.scrollWidth;
      var full = box.classList.toggle('full');
      say(s);
      box.scrollLeft = full ? f * box.scrollWidth - x : 0;
    });
  });
  document.getElementById('next').addEventListener('click', next);
  document.getElementById('back').addEventListener('click', back);
  document.addEventListener('keydown', function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (e.key === 'ArrowRight' || e.key === 'PageDown' || e.key === ' ') { next(); e.preventDefault(); }
    else if (e.key === 'ArrowLeft' || e.key === 'PageUp') { back(); e.preventDefault(); }
    else if (e.key === 'Home') { show(0, 'first'); e.preventDefault(); }
    else if (e.key === 'End') { show(slides.length - 1, 'first'); e.preventDefault(); }
  });
  var start = parseInt((location.hash || '#1').slice(1), 10);
  show(isNaN(start) ? 0 : start - 1, 'first');
})();
";
