//! A lesson as one self-contained web page (docs/format.md, "Lessons"): every slide a
//! `<section class="slide" data-slide="k">` with its title, its text and its pictures, inline
//! SVG drawn as `render` draws them (one per step of step mode, each `<svg data-step="k">`;
//! `data-step="all"` for a slide that shows the whole test). CSS and a small script are
//! inline: no network, and it works from `file://`. Keys and buttons step as the presenter
//! does: through a slide's steps first, then to the next slide.

use super::file::{Lesson, Slide, SlideLab};
use super::stage::{Stage, stage};
use crate::picture::camera::Camera;
use crate::picture::palette::Theme;
use crate::picture::svg::{self, escape};
use crate::picture::{Look, Picture, Vec2, picture_with};
use std::fmt::Write;

/// The size of the pictures (pixels); the page scales them to its width.
pub const PICTURE: Vec2 = Vec2::new(960.0, 600.0);

/// Pixels per point in the pictures: text 13 points is 20 px at the pictures' own size, about
/// 15 px where the page shows them 730 px wide beside the words.
const SCALE: f32 = 1.5;

/// The page of `lesson`.
pub fn page(lesson: &Lesson) -> String {
    let n = lesson.slides.len();
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"collidoscope {}\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n",
        env!("CARGO_PKG_VERSION"),
        escape(&lesson.title)
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
        "</main>\n<footer>Right, Page Down or Space: next step, then next slide. Left or Page Up: back. \
         Made with collidoscope.</footer>\n<script>{SCRIPT}</script>\n</body>\n</html>\n"
    );
    html
}

/// One slide's section: its words beside its pictures.
fn section(html: &mut String, k: usize, slide: &Slide) {
    let shown = stage(slide);
    let _ = writeln!(
        html,
        "<section class=\"slide\" data-slide=\"{k}\"{}>\n<div class=\"pictures\">",
        if k == 1 { "" } else { " hidden" }
    );
    if shown.steps.is_empty() {
        html.push_str(&picture_svg(slide, &shown, None, "all"));
    } else {
        for (i, step) in shown.steps.iter().enumerate() {
            let mut svg = picture_svg(slide, &shown, Some(*step), &step.to_string());
            if i > 0 {
                svg = svg.replacen("<svg ", "<svg hidden ", 1);
            }
            html.push_str(&svg);
        }
    }
    let _ = writeln!(
        html,
        "</div>\n<div class=\"words\">\n<h2>{}</h2>",
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
fn picture_svg(slide: &Slide, shown: &Stage, step: Option<usize>, name: &str) -> String {
    let picture = slide_picture(slide, shown, step);
    svg::to_svg_with(&picture, &format!(" data-step=\"{name}\""))
}

/// The picture of `slide` (set up as `shown`) at `step` (`None`: the whole test), as the page
/// draws it: the projector's light look, every axis labelled, the lab's overlay.
pub fn slide_picture(slide: &Slide, shown: &Stage, step: Option<usize>) -> Picture {
    let look = Look {
        step,
        label_axes: true,
        caption: shown.pair.is_some() && matches!(slide.lab, SlideLab::Pair),
        naive: slide.naive,
        theme: Theme::Light,
        scale: SCALE,
        // The lab's own overlay, as the window draws it.
        broad: matches!(slide.lab, SlideLab::Broad),
        ray: match slide.lab {
            SlideLab::Casts { ray } => ray.or_else(|| {
                Some(crate::broad::ray_across(&crate::broad::boxes_of(
                    &shown.scene,
                )))
            }),
            _ => None,
        },
    };
    let camera = slide.view.map(|v| Camera {
        centre: v.center,
        scale: f64::from(PICTURE.x / SCALE) / v.width,
        ..Camera::default()
    });
    picture_with(&shown.scene, shown.pair, PICTURE, camera, look)
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
header { display: flex; align-items: center; justify-content: space-between; gap: 1em;
  padding: 0.5em 1.2em; border-bottom: 1px solid #ddd; }
header h1 { font-size: 1.3em; margin: 0; }
nav { display: flex; align-items: center; gap: 0.8em; white-space: nowrap; }
nav button { font-size: 1em; padding: 0.3em 0.9em; cursor: pointer; }
#where { min-width: 7em; text-align: center; }
section.slide { display: flex; gap: 2em; padding: 1em 1.2em; align-items: flex-start; }
section.slide[hidden], svg[hidden] { display: none; }
.pictures { flex: 3; min-width: 0; }
.pictures svg { width: 100%; height: auto; border: 1px solid #ddd; }
.words { flex: 2; font-size: 1.35em; line-height: 1.45; }
.words h2 { font-size: 1.45em; margin: 0 0 0.6em 0; }
.words p.lab { color: #555; font-size: 0.85em; }
footer { color: #777; font-size: 0.9em; padding: 0.5em 1.2em 1.5em; }
@media (max-width: 900px) { section.slide { flex-direction: column; } }
";

/// Stepping: the visible slide's step pictures first, then the next slide.
const SCRIPT: &str = "
(function () {
  var slides = Array.prototype.slice.call(document.querySelectorAll('section.slide'));
  var where = document.getElementById('where');
  var at = 0;
  function steps(s) { return Array.prototype.slice.call(s.querySelectorAll('svg[data-step]')); }
  function stepOf(s) { var all = steps(s); for (var i = 0; i < all.length; i++) { if (!all[i].hasAttribute('hidden')) { return i; } } return 0; }
  function showStep(s, k) { steps(s).forEach(function (svg, i) { if (i === k) { svg.removeAttribute('hidden'); } else { svg.setAttribute('hidden', ''); } }); }
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
