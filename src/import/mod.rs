//! Reading the levels people already have: Tiled maps and Godot 4 scenes, turned into shape
//! sets (docs/format.md, "Import"). The core only: no window here.
//!
//! Each reader walks its file and hands every collision object to [`Importing::place`]: the
//! object's shapes in its own frame (source pixels, y down) and the object's transform. Placing
//! is shared: the pose (position where the object's origin lands, angle the direction its x
//! axis takes), the points local to that pose, concave polygons split, and the notes.

pub mod convert;
pub mod godot;
pub mod godot_text;
pub mod merge;
pub mod tiled;

pub use convert::alike_notes;
pub use convert::{Convert, Note, alike, note_lines};
pub use merge::{
    KeptGroup, Merged, MergedGroup, merge, merge_imported, merge_scaled, merge_surface_of,
};

use crate::files::{FileError, Problem};
use crate::geometry::{
    Capsule, Chain, Circle, ConvexPolygon, DVec2, Placed, Pose, Segment, Shape, ShapeError,
    convex_pieces,
};
use crate::scene::{Scene, SceneShape};
use convert::{ellipse_points, without_repeats};
use std::path::Path;

/// A level imported: the shape set, and a note for every object skipped, approximated or
/// split.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The shapes, in source order, every one named.
    pub scene: Scene,
    /// What happened to the objects that did not come through whole.
    pub notes: Vec<Note>,
}

/// Why an object gives nothing: skipped with a note, or refused (a note instead with
/// `--skip-unsupported`).
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    /// Nothing to collide with: a note.
    Skip(String),
    /// Not something collidoscope can hold: the import stops, unless told to skip it.
    Refuse(String),
}

/// An affine map of source coordinates (y down): x and y axes and origin, as Godot's
/// Transform2D keeps them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Affine {
    /// Where the local x axis goes.
    pub x: DVec2,
    /// Where the local y axis goes.
    pub y: DVec2,
    /// Where the local origin goes.
    pub origin: DVec2,
    /// The rotations composed into it, radians: the x axis's direction as the source wrote
    /// it (exact, where `atan2` of the axis would round), when the axis points that way.
    pub turn: f64,
}

impl Affine {
    /// Nothing moved.
    pub const IDENTITY: Affine = Affine {
        x: DVec2::X,
        y: DVec2::Y,
        origin: DVec2::ZERO,
        turn: 0.0,
    };

    /// Godot's `set_rotation_scale_and_skew` with `position`: x axis (cos r · sx, sin r · sx),
    /// y axis (−sin(r + k) · sy, cos(r + k) · sy).
    pub fn from_parts(position: DVec2, rotation: f64, scale: DVec2, skew: f64) -> Self {
        Affine {
            x: DVec2::new(rotation.cos(), rotation.sin()) * scale.x,
            y: DVec2::new(-(rotation + skew).sin(), (rotation + skew).cos()) * scale.y,
            origin: position,
            turn: rotation,
        }
    }

    /// A local point mapped.
    pub fn apply(&self, p: DVec2) -> DVec2 {
        self.origin + self.basis(p)
    }

    /// A local vector mapped (no origin).
    pub fn basis(&self, v: DVec2) -> DVec2 {
        self.x * v.x + self.y * v.y
    }

    /// `self` after `inner`: a child's transform composed under its parent's.
    pub fn then(&self, inner: &Affine) -> Affine {
        Affine {
            x: self.basis(inner.x),
            y: self.basis(inner.y),
            origin: self.apply(inner.origin),
            turn: self.turn + inner.turn,
        }
    }

    /// The direction of the x axis, radians: the composed turn when the axis points that way.
    pub fn angle(&self) -> f64 {
        let direction = self.x.normalize_or_zero();
        let (s, c) = self.turn.sin_cos();
        if (direction - DVec2::new(c, s)).length() <= 1e-12 {
            self.turn
        } else {
            self.x.y.atan2(self.x.x)
        }
    }

    /// Whether the map is a rotation with one scale for both axes (no skew, no stretch, no
    /// mirror): what a circle or capsule survives.
    pub fn uniform(&self) -> bool {
        let (lx, ly) = (self.x.length(), self.y.length());
        let tolerance = 1e-9 * lx.max(ly);
        (lx - ly).abs() <= tolerance
            && self.x.dot(self.y).abs() <= tolerance * lx.max(ly)
            && self.x.perp_dot(self.y) > 0.0
    }
}

/// One shape of an object, in the object's own frame (source pixels, y down).
#[derive(Clone, Debug, PartialEq)]
pub enum Local {
    /// A circle: centre and radius.
    Circle(DVec2, f64),
    /// A capsule: its segment and radius.
    Capsule(DVec2, DVec2, f64),
    /// A polygon; `true` when a concave one may be split into convex pieces.
    Polygon(Vec<DVec2>, bool),
    /// A two-sided segment.
    Segment(DVec2, DVec2),
    /// A one-sided open chain (its first and last points ghost points only) and a local
    /// direction toward its front: placed, the points are ordered so that the front stays
    /// on that side whatever mirror the transform holds.
    Chain(Vec<DVec2>, DVec2),
}

/// The import under way: the shapes placed so far and the notes.
pub(crate) struct Importing {
    convert: Convert,
    skip_unsupported: bool,
    shapes: Vec<SceneShape>,
    notes: Vec<Note>,
}

impl Importing {
    /// An import with `convert`.
    pub fn new(convert: Convert, skip_unsupported: bool) -> Self {
        Self {
            convert,
            skip_unsupported,
            shapes: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// A note about the object at `place` in `file`; `shape`, the name of the first shape it
    /// gave, is the last shape placed under that name (a note follows its object's shapes).
    pub fn note(&mut self, file: &Path, place: String, what: String, shape: Option<String>) {
        let index = shape.as_deref().and_then(|name| {
            self.shapes
                .iter()
                .rposition(|s| s.name.as_deref() == Some(name))
        });
        self.notes.push(Note {
            file: file.to_path_buf(),
            place,
            what,
            shape,
            index,
        });
    }

    /// An object collidoscope cannot hold: the import's error, or with `--skip-unsupported`
    /// a note.
    pub fn refuse(&mut self, file: &Path, place: String, why: String) -> Result<(), FileError> {
        if self.skip_unsupported {
            self.note(file, place, format!("skipped: {why}"), None);
            Ok(())
        } else {
            Err(FileError::new(
                file,
                Problem::Document(format!(
                    "{place}: {why} (pass --skip-unsupported to leave it out)"
                )),
            ))
        }
    }

    /// An object's shapes placed ([`Self::place`]), or what it gives instead: a note for a
    /// skipped object, a refusal ([`Self::refuse`]) for one collidoscope cannot hold.
    pub fn take(
        &mut self,
        file: &Path,
        place: &str,
        name: &str,
        shapes: Result<Vec<Local>, Refusal>,
        to_source: &Affine,
    ) -> Result<(), FileError> {
        match shapes {
            Ok(shapes) => self.place(file, place, name, shapes, to_source),
            Err(Refusal::Skip(why)) => {
                self.note(file, place.to_string(), format!("skipped: {why}"), None);
                Ok(())
            }
            Err(Refusal::Refuse(why)) => self.refuse(file, place.to_string(), why),
        }
    }

    /// Place an object's shapes, named `name` (`name#k` when it gives several), with its
    /// transform `to_source` (the object's frame to the level's, source pixels).
    pub fn place(
        &mut self,
        file: &Path,
        place: &str,
        name: &str,
        shapes: Vec<Local>,
        to_source: &Affine,
    ) -> Result<(), FileError> {
        let c = self.convert;
        if let Some(why) = beyond_the_scale(c.scale, &shapes, to_source) {
            return Err(FileError::new(
                file,
                Problem::Document(format!("{place}: {why}")),
            ));
        }
        // The pose: where the origin lands, the direction the x axis takes; points are local
        // to it (a stretch or skew stays in the points).
        let theta = to_source.angle();
        let pose = Pose::new(
            c.point(to_source.origin.x, to_source.origin.y),
            c.angle(theta),
        );
        // Under a rotation and one scale the points only scale (kept exact: turning them and
        // back would leave rounding in every point); otherwise they take the stretch and skew.
        let uniform = to_source.uniform().then(|| {
            let s = to_source.x.length();
            if (s - 1.0).abs() <= 1e-12 { 1.0 } else { s }
        });
        let unturn = |p: DVec2| {
            let q = match uniform {
                Some(s) => p * s,
                None => convert::rotate(to_source.basis(p), -theta),
            };
            c.point(q.x, q.y)
        };
        let mut placed: Vec<(Shape, Pose)> = Vec::new();
        let mut notes: Vec<String> = Vec::new();
        let several = shapes.len() > 1;
        for local in shapes {
            // A circle's position is its centre; everything else sits at the object's pose.
            let at = match &local {
                Local::Circle(centre, _) => {
                    let p = to_source.apply(*centre);
                    Pose::new(c.point(p.x, p.y), 0.0)
                }
                _ => pose,
            };
            match self.one(local, to_source, &unturn, &mut notes) {
                Ok(more) => placed.extend(more.into_iter().map(|s| match s {
                    Shape::Circle(_) => (s, at),
                    other => (other, pose),
                })),
                Err(Refusal::Skip(why)) => notes.push(format!("skipped: {why}")),
                Err(Refusal::Refuse(why)) => {
                    self.refuse(file, place.to_string(), why)?;
                }
            }
        }
        let names: Vec<String> = if placed.len() == 1 && !several {
            vec![name.to_string()]
        } else {
            (0..placed.len()).map(|k| format!("{name}#{k}")).collect()
        };
        let first = names.first().cloned();
        for ((shape, pose), name) in placed.into_iter().zip(names) {
            self.shapes
                .push(SceneShape::new(Some(name), Placed::new(shape, pose)));
        }
        for what in notes {
            self.note(file, place.to_string(), what, first.clone());
        }
        Ok(())
    }

    fn one(
        &self,
        local: Local,
        to_source: &Affine,
        unturn: &dyn Fn(DVec2) -> DVec2,
        notes: &mut Vec<String>,
    ) -> Result<Vec<Shape>, Refusal> {
        let c = self.convert;
        let failed = |e: ShapeError| Refusal::Skip(e.to_string());
        match local {
            Local::Circle(_, radius) if to_source.uniform() => {
                if radius <= 0.0 {
                    return Err(Refusal::Skip("a circle of radius 0".into()));
                }
                let r = c.length(radius * to_source.x.length());
                Ok(vec![Shape::Circle(Circle::new(r).map_err(failed)?)])
            }
            Local::Circle(centre, radius) => {
                notes.push(
                    "approximated: a circle under a non-uniform scale or skew becomes a 32-point polygon"
                        .into(),
                );
                let points = ellipse_points(centre, radius, radius);
                self.polygon(points.into_iter().map(unturn).collect(), false)
            }
            Local::Capsule(..) if !to_source.uniform() => Err(Refusal::Refuse(
                "a capsule under a non-uniform scale or skew".into(),
            )),
            Local::Capsule(a, b, radius) => {
                let r = c.length(radius * to_source.x.length());
                Capsule::new(unturn(a), unturn(b), r)
                    .map(|k| vec![Shape::Capsule(k)])
                    .map_err(failed)
            }
            Local::Polygon(points, split) => {
                let points = without_repeats(&points);
                if points.len() < 3 {
                    return Err(Refusal::Skip(format!(
                        "a polygon needs 3 points or more, found {}",
                        points.len()
                    )));
                }
                let shapes = self.polygon(points.into_iter().map(unturn).collect(), split)?;
                if shapes.len() > 1 {
                    notes.push(format!("split into {} convex pieces", shapes.len()));
                }
                Ok(shapes)
            }
            Local::Segment(a, b) => {
                if a == b {
                    return Err(Refusal::Skip("a segment of length 0".into()));
                }
                Segment::new(unturn(a), unturn(b))
                    .map(|s| vec![Shape::Segment(s)])
                    .map_err(failed)
            }
            Local::Chain(points, front) => {
                let mut points: Vec<DVec2> = points.into_iter().map(unturn).collect();
                let front = unturn(front);
                // A piece's front is the right-hand side (y, -x) of its direction.
                if let [_, p1, p2, ..] = points[..]
                    && DVec2::new(p2.y - p1.y, p1.x - p2.x).dot(front) < 0.0
                {
                    points.reverse();
                }
                Chain::new(points, false)
                    .map(|k| vec![Shape::Chain(k)])
                    .map_err(failed)
            }
        }
    }

    /// A polygon (points already placed), split when concave and `split` allows.
    fn polygon(&self, points: Vec<DVec2>, split: bool) -> Result<Vec<Shape>, Refusal> {
        match ConvexPolygon::new(points.clone()) {
            Ok(p) => Ok(vec![Shape::Polygon(p)]),
            Err(ShapeError::ZeroArea) => Err(Refusal::Skip("a polygon with no area".into())),
            Err(ShapeError::SelfIntersecting { edge_a, edge_b }) => Err(Refusal::Refuse(format!(
                "self-intersecting polygon (edges {edge_a} and {edge_b} cross)"
            ))),
            Err(ShapeError::NotConvex { .. } | ShapeError::FoldsBack { .. }) if split => {
                let pieces = convex_pieces(&points).map_err(|e| match e {
                    ShapeError::SelfIntersecting { edge_a, edge_b } => Refusal::Refuse(format!(
                        "self-intersecting polygon (edges {edge_a} and {edge_b} cross)"
                    )),
                    too_many @ ShapeError::TooManyToSplit { .. } => {
                        Refusal::Refuse(too_many.to_string())
                    }
                    other => Refusal::Skip(other.to_string()),
                })?;
                pieces
                    .into_iter()
                    .map(|piece| {
                        ConvexPolygon::new(piece)
                            .map(Shape::Polygon)
                            .map_err(|e| Refusal::Skip(format!("a piece of it: {e}")))
                    })
                    .collect()
            }
            Err(ShapeError::NotConvex { point } | ShapeError::FoldsBack { point }) => Err(
                Refusal::Refuse(format!("points that are not convex (at point {point})")),
            ),
            Err(other) => Err(Refusal::Skip(other.to_string())),
        }
    }

    /// The shape set and the notes.
    pub fn finish(self) -> Imported {
        Imported {
            scene: Scene::from_shapes(self.shapes),
            notes: self.notes,
        }
    }
}

/// Why `scale` cannot hold an object's numbers, when it cannot: a size of it (a coordinate
/// about its origin, a radius, its origin's) that is a normal number in pixels but vanishes,
/// or keeps only some of its digits, below the smallest normal number (2.2e-308), or a point
/// past the largest (1.8e308). Polygons came out with NaN corners and circles with radii of a
/// few bits, each skipped or kept without a word about the scale.
fn beyond_the_scale(scale: f64, shapes: &[Local], to_source: &Affine) -> Option<String> {
    if scale == 1.0 {
        return None;
    }
    let number = |x: f64| {
        if x == 0.0 || (1e-4..1e6).contains(&x.abs()) {
            format!("{x}")
        } else {
            format!("{x:e}")
        }
    };
    let mut points: Vec<DVec2> = Vec::new();
    let mut lengths: Vec<f64> = Vec::new();
    for local in shapes {
        match local {
            Local::Circle(centre, r) => {
                points.push(*centre);
                lengths.push(r * to_source.x.length());
            }
            Local::Capsule(a, b, r) => {
                points.extend([*a, *b]);
                lengths.push(r * to_source.x.length());
            }
            Local::Polygon(ps, _) | Local::Chain(ps, _) => points.extend(ps),
            Local::Segment(a, b) => points.extend([*a, *b]),
        }
    }
    let origin = to_source.origin;
    let sizes = points
        .iter()
        .flat_map(|p| {
            let q = to_source.basis(*p);
            [q.x, q.y]
        })
        .chain(lengths)
        .chain([origin.x, origin.y]);
    for size in sizes {
        let scaled = size * scale;
        if size.abs() >= f64::MIN_POSITIVE && size.is_finite() && scaled.abs() < f64::MIN_POSITIVE {
            return Some(format!(
                "--scale {} makes its {} pixels {} world units, below the smallest number held \
                 to all its digits (2.2e-308): give a larger --scale",
                number(scale),
                number(size.abs()),
                number(scaled.abs()),
            ));
        }
    }
    for p in points.iter().map(|p| to_source.apply(*p)).chain([origin]) {
        if p.is_finite() && !(p * scale).is_finite() {
            // The product, past f64, by its logarithm: 16 pixels at 1e308 is 1.6e309.
            let log = p.abs().max_element().log10() + scale.log10();
            return Some(format!(
                "--scale {} puts its point ({}, {}) at {:.1}e{} world units, past the largest \
                 number (1.8e308): give a smaller --scale",
                number(scale),
                number(p.x),
                number(p.y),
                10f64.powf(log - log.floor()),
                log.floor(),
            ));
        }
    }
    None
}

/// Import the level at `path`, by its extension: a Tiled map (`.tmx`; a tileset `.tsx` is
/// refused by name) or a Godot 4 text scene (`.tscn`). A shape set (`.json` with a `"format"`
/// key) is read as it is, to be merged ([`merge_imported`]); it is in world units already, so
/// only a scale of 1 is taken.
pub fn import(
    path: &Path,
    convert: Convert,
    skip_unsupported: bool,
) -> Result<Imported, FileError> {
    read(path, None, convert, skip_unsupported)
}

/// The same, the file's bytes given (`path` names it and says its kind; the files it names
/// are read from beside it): what the fuzz targets feed.
pub fn import_bytes(
    path: &Path,
    bytes: &[u8],
    convert: Convert,
    skip_unsupported: bool,
) -> Result<Imported, FileError> {
    read(path, Some(bytes.to_vec()), convert, skip_unsupported)
}

/// A level's file: its bytes when `given` names it, else read from disk. Only a regular
/// file: a level naming a device (/dev/zero) or a folder is refused, not read for ever.
fn read_file(
    path: &Path,
    given: Option<&(std::path::PathBuf, Vec<u8>)>,
) -> Result<Vec<u8>, FileError> {
    if let Some((given, bytes)) = given
        && given == path
    {
        return Ok(bytes.clone());
    }
    let fail = |e| FileError::new(path, Problem::io("cannot read the file", e));
    if !std::fs::metadata(path).map_err(fail)?.is_file() {
        return Err(FileError::new(path, Problem::Document("not a file".into())));
    }
    std::fs::read(path).map_err(fail)
}

/// Where an imported level's shape set is proposed to go: beside it, `LEVEL.json`; for a
/// Tiled JSON map already named `.json`, `LEVEL.shapes.json`, so that saving never writes
/// over the level.
pub fn shape_set_path(level: &Path) -> std::path::PathBuf {
    if level.extension().is_some_and(|e| e == "json") {
        let stem = level.file_stem().unwrap_or_default().to_string_lossy();
        level.with_file_name(format!("{stem}.shapes.json"))
    } else {
        level.with_extension("json")
    }
}

/// Whether `path` is a file the importers read: a Tiled map, tileset or template (XML, or
/// JSON that says it is one), a Godot scene, resource or project. A shape set is never
/// saved over one (the window's Save, `import -o`).
pub fn is_level_file(path: &Path) -> bool {
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    match ext.to_ascii_lowercase().as_str() {
        "tmx" | "tsx" | "tx" | "tmj" | "tsj" | "tj" | "tscn" | "scn" | "tres" | "godot" => true,
        "json" => std::fs::read(path)
            .ok()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok())
            .is_some_and(|v| {
                matches!(
                    v.get("type").and_then(|t| t.as_str()),
                    Some("map" | "tileset" | "template")
                ) || (v.get("layers").is_some() && v.get("orientation").is_some())
            }),
        _ => false,
    }
}

/// A level file's bytes as text: UTF-8, and not empty.
fn text_of<'a>(path: &Path, bytes: &'a [u8]) -> Result<&'a str, FileError> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        FileError::new(
            path,
            Problem::NotText {
                offset: e.valid_up_to(),
            },
        )
    })?;
    if text.trim().is_empty() {
        return Err(FileError::new(path, Problem::Empty));
    }
    Ok(text)
}

/// Whether `bytes` are a JSON object with a `"format"` key: a collidoscope file (a shape set,
/// or a lesson or capture, which reading it as a shape set names), never a Tiled map.
fn says_its_format(bytes: &[u8]) -> bool {
    serde_json::from_slice::<serde_json::Value>(bytes)
        .ok()
        .is_some_and(|v| v.get("format").is_some())
}

/// Whether `path` is a `.json` file that says its format (a shape set, for `import --merge`).
pub fn is_shape_set_file(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "json")
        && read_file(path, None).is_ok_and(|bytes| says_its_format(&bytes))
}

fn read(
    path: &Path,
    bytes: Option<Vec<u8>>,
    convert: Convert,
    skip_unsupported: bool,
) -> Result<Imported, FileError> {
    if path.extension().is_some_and(|e| e == "json") {
        let given = bytes.map(|b| (path.to_path_buf(), b));
        let read = read_file(path, given.as_ref());
        let bytes = given.map(|(_, b)| b);
        if let Ok(read) = read {
            if says_its_format(&read) {
                if convert.scale != 1.0 {
                    return Err(FileError::new(
                        path,
                        Problem::Document(
                            "a shape set is in world units already: --scale is for a level's pixels".into(),
                        ),
                    ));
                }
                let scene = crate::scene::parse(path, &read)?;
                return Ok(Imported {
                    scene,
                    notes: Vec::new(),
                });
            }
            return tiled::import_from(path, Some(read), convert, skip_unsupported);
        }
        return tiled::import_from(path, bytes, convert, skip_unsupported);
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some("tscn" | "scn") => godot::import_from(path, bytes, convert, skip_unsupported),
        Some("tmx" | "tsx" | "tx" | "tmj" | "tsj" | "tj" | "json") => {
            tiled::import_from(path, bytes, convert, skip_unsupported)
        }
        _ => Err(FileError::new(
            path,
            Problem::Document(
                "not a level collidoscope imports: give a Tiled map (.tmx, .tmj, .json) or a Godot 4 text scene (.tscn)".into(),
            ),
        )),
    }
}
