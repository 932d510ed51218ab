//! Fuzz the lesson reader (`collidoscope::lesson::Lesson::parse`): arbitrary bytes as a lesson
//! file, whose named files are served from a small table (a shape set, a packet log, and a
//! file that is not JSON). It must never panic, and every lesson it takes must hold what the
//! reader promises: a slide at least, each slide's pair two different shapes of its scene,
//! each motion frame within its steps, each latency `arrived` within its log. A lesson taken
//! is then staged (a motion run stopped at its frame, packets pushed) when that is cheap.

#![no_main]

use collidoscope::lesson::{Lesson, SlideLab, stage};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

const SHAPES: &str = include_str!("../../shapes/corner-false-positive.json");
const MOVING: &str = include_str!("../../shapes/bullet-and-wall.json");
const LOG: &str = include_str!("../../logs/late-dodge.json");

fuzz_target!(|data: &[u8]| {
    let read = |path: &Path| -> std::io::Result<Vec<u8>> {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        match name {
            "s.json" => Ok(SHAPES.as_bytes().to_vec()),
            "m.json" => Ok(MOVING.as_bytes().to_vec()),
            "log.json" => Ok(LOG.as_bytes().to_vec()),
            "bad.json" => Ok(b"{\"format\": 1".to_vec()),
            _ => Err(std::io::Error::new(
                std::io::ErrorKind::NotFound,
                "not there",
            )),
        }
    };
    let Ok(lesson) = Lesson::parse(Path::new("lessons/fuzz.json"), data, &read) else {
        return;
    };
    assert!(!lesson.slides.is_empty());
    for slide in &lesson.slides {
        let n = slide.scene.shapes.len();
        if let Some((i, j)) = slide.pair {
            assert!(i < n && j < n && i != j, "pair {i} {j} of {n}");
        }
        let cheap = match &slide.lab {
            SlideLab::Motion { frame, steps, .. } => {
                if let (Some(f), Some(s)) = (frame, steps) {
                    assert!(f <= s);
                }
                frame.unwrap_or(0) <= 200 && n <= 50
            }
            SlideLab::Latency { log, arrived, .. } => {
                if let (Some(log), Some(a)) = (log, arrived) {
                    assert!(*a <= log.packets.len());
                }
                true
            }
            _ => n <= 200,
        };
        if cheap {
            let shown = stage(slide);
            if let Some((i, j)) = shown.pair {
                assert!(i < shown.scene.shapes.len() && j < shown.scene.shapes.len());
            }
        }
    }
});
