//! Writing a shape-set file: one shape per line (so a diff shows which shapes changed), numbers
//! in their shortest exact form (they read back bit-identical), polygons in the winding they
//! were given, and the file replaced atomically.

use super::{FORMAT, FileError, Problem, Scene, VERSION};
use crate::geometry::{DVec2, Shape};
use serde::Serialize;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

#[derive(Serialize)]
struct ShapeOut<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'a str>,
    kind: &'static str,
    position: [f64; 2],
    #[serde(skip_serializing_if = "Option::is_none")]
    angle: Option<f64>,
    #[serde(flatten)]
    geometry: GeometryOut,
}

#[derive(Serialize)]
#[serde(untagged)]
enum GeometryOut {
    Circle {
        radius: f64,
    },
    Capsule {
        a: [f64; 2],
        b: [f64; 2],
        radius: f64,
    },
    Polygon {
        points: Vec<[f64; 2]>,
    },
}

fn pair(p: DVec2) -> [f64; 2] {
    [p.x, p.y]
}

/// The text of a shape-set file for `scene`.
pub fn to_json(scene: &Scene) -> String {
    let mut text =
        format!("{{\n  \"format\": {FORMAT:?},\n  \"version\": {VERSION},\n  \"shapes\": [");
    for (i, shape) in scene.shapes.iter().enumerate() {
        let pose = shape.placed.pose;
        let geometry = match &shape.placed.shape {
            Shape::Circle(c) => GeometryOut::Circle { radius: c.radius() },
            Shape::Capsule(c) => GeometryOut::Capsule {
                a: pair(c.a()),
                b: pair(c.b()),
                radius: c.radius(),
            },
            Shape::Polygon(p) => GeometryOut::Polygon {
                points: p.points_as_given().into_iter().map(pair).collect(),
            },
        };
        let out = ShapeOut {
            name: shape.name.as_deref(),
            kind: shape.placed.shape.kind().name(),
            position: pair(pose.position),
            // Omitted when it is the default; -0.0 is written, so it reads back as itself.
            angle: (pose.angle().to_bits() != 0).then_some(pose.angle()),
            geometry,
        };
        let line = serde_json::to_string(&out).expect("shapes serialise");
        text.push_str(if i == 0 { "\n    " } else { ",\n    " });
        text.push_str(&line);
    }
    text.push_str(if scene.shapes.is_empty() {
        "]\n}\n"
    } else {
        "\n  ]\n}\n"
    });
    text
}

/// Write `scene` to `path` atomically: a temporary file in the same folder is written and
/// flushed to disk, then renamed over `path`. If anything fails, `path` is left as it was.
pub fn save(scene: &Scene, path: &Path) -> Result<(), FileError> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let failed = |e: io::Error| FileError::new(path, Problem::Io(format!("cannot save: {e}")));
    let name = path.file_name().ok_or_else(|| {
        failed(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a file name",
        ))
    })?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let temporary = folder.join(format!(
        ".{}.{}-{}.tmp",
        name.to_string_lossy(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let text = to_json(scene);
    let written = File::create_new(&temporary).and_then(|mut file| {
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        drop(file);
        fs::rename(&temporary, path)
    });
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written.map_err(failed)
}
