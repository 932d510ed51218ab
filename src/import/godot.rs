//! Godot 4 text scenes (`.tscn`) imported: the node tree as Godot builds it (instanced scenes
//! expanded in place, their properties overridden by the instancing file), each Node2D's
//! transform composed from the root down as Godot composes it, and every 2D collision shape
//! turned into collidoscope's (docs/format.md, "Import", "Godot 4 scenes").

use super::convert::{Convert, without_repeats};
use super::godot_text::{self, Section, Value};
use super::{Affine, Imported, Importing, Local, Refusal};
use crate::files::{FileError, Problem};
use crate::geometry::DVec2;
use crate::scene::{Body, Motion};
use crate::text;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// One file's resources: where its `SubResource` and `ExtResource` names lead.
struct Resources {
    file: PathBuf,
    subs: HashMap<String, Section>,
    /// id -> (type, path as written).
    exts: HashMap<String, (String, String)>,
}

/// A property value with the file it was written in (its resources are that file's).
#[derive(Clone)]
struct Given {
    value: Value,
    from: Rc<Resources>,
}

/// A node of the expanded tree.
struct Node {
    /// Its path from the scene root ("" for the root itself).
    path: String,
    name: String,
    kind: String,
    properties: Vec<(String, Given)>,
    /// The section that made it (or last changed it), for messages.
    file: PathBuf,
    /// Why an instancing node stands alone: the scene it instances is missing, or not a file
    /// (a folder, an empty path).
    missing: Option<String>,
}

impl Node {
    fn property(&self, key: &str) -> Option<&Given> {
        self.properties
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    fn set(&mut self, key: String, value: Given) {
        match self.properties.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.properties.push((key, value)),
        }
    }
}

/// Where `res://` paths lead: the nearest folder above `file` that holds `project.godot`.
fn project_root(file: &Path) -> PathBuf {
    let start = file.parent().unwrap_or(Path::new("."));
    start
        .ancestors()
        .find(|dir| dir.join("project.godot").is_file())
        .unwrap_or(start)
        .to_path_buf()
}

struct Reader {
    root: PathBuf,
    /// Scenes being expanded, to refuse one that instances itself.
    open: Vec<PathBuf>,
    /// The text of the file imported, when it is given rather than read.
    given: Option<(PathBuf, Vec<u8>)>,
}

fn document(path: &Path, message: String) -> FileError {
    FileError::new(path, Problem::Document(message))
}

impl Reader {
    fn resolve(&self, from: &Path, written: &str) -> PathBuf {
        match written.strip_prefix("res://") {
            Some(rest) => self.root.join(rest),
            None => from.parent().unwrap_or(Path::new(".")).join(written),
        }
    }

    fn sections(&self, path: &Path) -> Result<Vec<Section>, FileError> {
        let bytes = super::read_file(path, self.given.as_ref())?;
        if bytes.starts_with(b"RSRC") || path.extension().is_some_and(|e| e == "scn") {
            return Err(document(
                path,
                "a binary scene: save the scene as .tscn (Scene > Save Scene As…, text format)"
                    .into(),
            ));
        }
        let text = super::text_of(path, &bytes)?;
        godot_text::parse(text).map_err(|e| {
            FileError::new(
                path,
                Problem::Syntax {
                    line: e.line,
                    column: e.column,
                    message: e.message,
                },
            )
        })
    }

    /// The resources of a file, and its sections past them.
    fn resources(&self, path: &Path, sections: &[Section]) -> Rc<Resources> {
        let mut subs = HashMap::new();
        let mut exts = HashMap::new();
        for s in sections {
            let text = |key: &str| s.attribute(key).and_then(Value::as_str).map(String::from);
            match s.tag.as_str() {
                "sub_resource" => {
                    if let Some(id) = text("id") {
                        subs.insert(id, s.clone());
                    }
                }
                "ext_resource" => {
                    if let (Some(id), Some(path)) = (text("id"), text("path")) {
                        exts.insert(id, (text("type").unwrap_or_default(), path));
                    }
                }
                _ => {}
            }
        }
        Rc::new(Resources {
            file: path.to_path_buf(),
            subs,
            exts,
        })
    }

    /// The nodes of the scene at `path`, expanded, with paths from its root.
    fn scene(&mut self, path: &Path) -> Result<Vec<Node>, FileError> {
        if self.open.iter().any(|p| p == path) {
            return Err(document(
                path,
                "the scene instances itself (through the scenes it instances)".into(),
            ));
        }
        let sections = self.sections(path)?;
        let Some(head) = sections.first() else {
            return Err(document(
                path,
                "not a Godot scene: no [gd_scene ...] section (only comments)".into(),
            ));
        };
        if head.tag != "gd_scene" {
            return Err(document(
                path,
                format!(
                    "line {}: not a Godot scene: the first section is [{}], not [gd_scene ...]",
                    head.line, head.tag
                ),
            ));
        }
        match head.attribute("format").and_then(Value::as_f64) {
            Some(f) if f == 3.0 || f == 4.0 => {}
            Some(f) if f <= 2.0 => {
                return Err(document(
                    path,
                    format!("a Godot 3 scene (format={f}): open and save it in Godot 4 first"),
                ));
            }
            other => {
                return Err(document(
                    path,
                    format!(
                        "line {}: format={}: collidoscope reads Godot 4's formats 3 and 4",
                        head.line,
                        other.map_or("(none)".to_string(), |f| f.to_string())
                    ),
                ));
            }
        }
        self.open.push(path.to_path_buf());
        let resources = self.resources(path, &sections);
        let mut nodes: Vec<Node> = Vec::new();
        for s in sections.iter().filter(|s| s.tag == "node") {
            // Changes to the nodes of a missing instanced scene: refused with it.
            let under_missing = |p: &str| {
                nodes.iter().any(|n: &Node| {
                    n.missing.is_some() && (p == n.path || p.starts_with(&format!("{}/", n.path)))
                })
            };
            if s.attribute("parent")
                .and_then(Value::as_str)
                .is_some_and(under_missing)
            {
                continue;
            }
            let text = |key: &str| s.attribute(key).and_then(Value::as_str).map(String::from);
            let place = || format!("line {}: [node]", s.line);
            let name = text("name")
                .ok_or_else(|| document(path, format!("{}: a node needs a name", place())))?;
            let node_path = match text("parent") {
                None if nodes.is_empty() => String::new(),
                None => {
                    return Err(document(
                        path,
                        format!(
                            "{}: node {name:?} has no parent, and the scene has a root already",
                            place()
                        ),
                    ));
                }
                Some(p) if p == "." => name.clone(),
                Some(p) => format!("{p}/{name}"),
            };
            let given: Vec<(String, Given)> = s
                .properties
                .iter()
                .map(|(k, v)| {
                    (
                        k.clone(),
                        Given {
                            value: v.clone(),
                            from: resources.clone(),
                        },
                    )
                })
                .collect();
            if let Some(parent) = text("parent")
                && parent != "."
                && !nodes.iter().any(|n| n.path == parent)
            {
                return Err(document(
                    path,
                    format!(
                        "{}: node {name:?}: its parent {parent:?} is not in the scene",
                        place()
                    ),
                ));
            }
            if let Some(instance) = s.attribute("instance") {
                let id = instance.as_str().unwrap_or_default();
                let Some((_, written)) = resources.exts.get(id) else {
                    return Err(document(
                        path,
                        format!(
                            "{}: node {name:?} instances ExtResource({id:?}), which the file does not list",
                            place()
                        ),
                    ));
                };
                let file = self.resolve(path, written);
                // Not a scene to read: said of this node, in this file, with the path as
                // written (a folder was read as the scene, and refused as "./: not a file").
                let not_a_scene = if self.given.as_ref().is_some_and(|(g, _)| *g == file) {
                    None
                } else if written.is_empty() {
                    Some("is an empty path".to_string())
                } else {
                    match std::fs::metadata(&file) {
                        Ok(m) if m.is_file() => None,
                        Ok(m) if m.is_dir() => {
                            Some(format!("is a folder ({}), not a scene", file.display()))
                        }
                        Ok(_) => Some(format!(
                            "is not a file ({}: a device, pipe or socket), not a scene",
                            file.display()
                        )),
                        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                            Some(format!("is missing ({})", file.display()))
                        }
                        Err(e) => Some(format!("cannot be read ({}: {e})", file.display())),
                    }
                };
                if let Some(why) = not_a_scene {
                    nodes.push(Node {
                        path: node_path,
                        name,
                        kind: "instance".into(),
                        properties: given,
                        file: path.to_path_buf(),
                        missing: Some(format!(
                            "the scene it instances, {written:?}, {why}; the nodes under it are left out with it"
                        )),
                    });
                    continue;
                }
                let inner = self.scene(&file)?;
                for mut node in inner {
                    node.path = join(&node_path, &node.path);
                    if node.path == node_path {
                        node.name = name.clone();
                        for (k, v) in &given {
                            node.set(k.clone(), v.clone());
                        }
                    }
                    nodes.push(node);
                }
                continue;
            }
            match nodes.iter_mut().find(|n| n.path == node_path) {
                // A node of an instanced scene, changed by this file.
                Some(node) if text("type").is_none() => {
                    for (k, v) in given {
                        node.set(k, v);
                    }
                    node.file = path.to_path_buf();
                }
                _ => nodes.push(Node {
                    path: node_path,
                    name,
                    kind: text("type").unwrap_or_default(),
                    properties: given,
                    file: path.to_path_buf(),
                    missing: None,
                }),
            }
        }
        self.open.pop();
        if nodes.is_empty() {
            return Err(document(path, "the scene has no nodes".into()));
        }
        Ok(nodes)
    }
}

fn join(outer: &str, inner: &str) -> String {
    match (outer.is_empty(), inner.is_empty()) {
        (_, true) => outer.to_string(),
        (true, false) => inner.to_string(),
        (false, false) => format!("{outer}/{inner}"),
    }
}

fn parent_of(path: &str) -> Option<&str> {
    if path.is_empty() {
        return None;
    }
    Some(path.rfind('/').map_or("", |i| &path[..i]))
}

/// A node's own transform (Godot's defaults for what the file leaves out).
fn local(node: &Node) -> Affine {
    let vector = |key: &str, default: DVec2| {
        node.property(key)
            .and_then(|g| g.value.numbers_of("Vector2"))
            .and_then(|n| (n.len() == 2).then(|| DVec2::new(n[0], n[1])))
            .unwrap_or(default)
    };
    let number = |key: &str| {
        node.property(key)
            .and_then(|g| g.value.as_f64())
            .unwrap_or(0.0)
    };
    if let Some(t) = node
        .property("transform")
        .and_then(|g| g.value.numbers_of("Transform2D"))
        .filter(|t| t.len() == 6)
    {
        let x = DVec2::new(t[0], t[1]);
        return Affine {
            x,
            y: DVec2::new(t[2], t[3]),
            origin: DVec2::new(t[4], t[5]),
            turn: x.y.atan2(x.x),
        };
    }
    Affine::from_parts(
        vector("position", DVec2::ZERO),
        number("rotation"),
        vector("scale", DVec2::ONE),
        number("skew"),
    )
}

/// The points of a `PackedVector2Array(...)` (or an array of `Vector2(...)`).
fn points(value: &Value) -> Option<Vec<DVec2>> {
    if let Some(n) = value.numbers_of("PackedVector2Array") {
        return (n.len() % 2 == 0).then(|| n.chunks(2).map(|c| DVec2::new(c[0], c[1])).collect());
    }
    match value {
        Value::Array(items) => items
            .iter()
            .map(|v| {
                v.numbers_of("Vector2")
                    .filter(|n| n.len() == 2)
                    .map(|n| DVec2::new(n[0], n[1]))
            })
            .collect(),
        _ => None,
    }
}

/// Import the level at `path`; its bytes when given (the files it names are read from
/// beside it).
pub(super) fn import_from(
    path: &Path,
    bytes: Option<Vec<u8>>,
    convert: Convert,
    skip_unsupported: bool,
) -> Result<Imported, FileError> {
    let mut reader = Reader {
        root: project_root(path),
        open: Vec::new(),
        given: bytes.map(|b| (path.to_path_buf(), b)),
    };
    let nodes = reader.scene(path)?;
    let gravity = project_gravity(&reader)?;
    let by_path: HashMap<&str, &Node> = nodes.iter().map(|n| (n.path.as_str(), n)).collect();
    let mut global: HashMap<String, Affine> = HashMap::new();
    let mut out = Importing::new(convert, skip_unsupported);
    let root_name = nodes[0].name.clone();
    // Each node's type by its path: a shape under an Area2D is a trigger.
    let mut kinds: HashMap<&str, &str> = HashMap::new();
    for node in &nodes {
        kinds.insert(node.path.as_str(), node.kind.as_str());
        let own = local(node);
        let top_level = node
            .property("top_level")
            .is_some_and(|g| g.value == Value::Bool(true));
        let transform = match parent_of(&node.path) {
            Some(parent) if !top_level => global
                .get(parent)
                .copied()
                .unwrap_or(Affine::IDENTITY)
                .then(&own),
            _ => own,
        };
        global.insert(node.path.clone(), transform);
        let name = if node.path.is_empty() {
            root_name.clone()
        } else {
            node.path.clone()
        };
        let place = format!("node {name:?} ({})", node.kind);
        if let Some(why) = &node.missing {
            out.refuse(&node.file, place, why.clone())?;
            continue;
        }
        if node.kind == "TileMapLayer" {
            let cells = match tile_cells(node, &reader) {
                Ok(cells) => cells,
                Err(refusal) => {
                    out.take(&node.file, &place, &name, Err(refusal), &transform)?;
                    continue;
                }
            };
            for cell in cells {
                let at = transform.then(&Affine {
                    origin: cell.centre,
                    ..Affine::IDENTITY
                });
                let cell_name = format!("{name}[{},{}]/{}", cell.x, cell.y, cell.label);
                let cell_place = format!(
                    "node {name:?} (TileMapLayer) cell ({},{}), {}",
                    cell.x, cell.y, cell.label
                );
                let shape = vec![Local::Polygon(cell.points, true)];
                out.place(&node.file, &cell_place, &cell_name, shape, &at)?;
            }
            continue;
        }
        let shapes = match shapes_of(node, &reader) {
            Ok(None) => continue,
            Ok(Some(shapes)) => Ok(shapes),
            Err(refusal) => Err(refusal),
        };
        let parent = parent_of(&node.path);
        // The body the shapes belong to: their parent, as Godot registers them.
        let body = parent.and_then(|p| Some(body_of(by_path.get(p)?, global.get(p)?)));
        let one_way = one_way(node);
        let placed = shapes.is_ok();
        let before = out.shapes.len();
        out.take(&node.file, &place, &name, shapes, &transform)?;
        let first = out.shapes.get(before).and_then(|s| s.name.clone());
        if let Some(what) = one_way {
            out.note(&node.file, place.clone(), what, first.clone());
        }
        if let Some(body) = &body {
            move_with(&mut out, before, body, &node.file, &place);
        }
        if placed && parent.and_then(|p| kinds.get(p)) == Some(&"Area2D") {
            out.note(&node.file, place, text::GODOT_TRIGGER.into(), first);
        }
    }
    if out.shapes.is_empty() && out.notes.is_empty() {
        // Nothing said yet: say why there is nothing.
        let collision = nodes
            .iter()
            .filter(|n| {
                matches!(
                    n.kind.as_str(),
                    "CollisionShape2D" | "CollisionPolygon2D" | "TileMapLayer" | "TileMap"
                )
            })
            .count();
        let scripted: Vec<&str> = nodes
            .iter()
            .filter(|n| n.property("script").is_some())
            .map(|n| {
                if n.path.is_empty() {
                    root_name.as_str()
                } else {
                    n.path.as_str()
                }
            })
            .collect();
        out.note(
            path,
            format!("scene {root_name:?} ({})", nodes[0].kind),
            text::godot_no_shapes(nodes.len(), collision, &scripted),
            None,
        );
    }
    let mut imported = out.finish();
    imported.scene.gravity = Some(convert.point(gravity.x, gravity.y));
    Ok(imported)
}

/// The physics body a collision node gives its shapes to (its parent), with the velocity the
/// scene gives it, in source units: pixels per second (y down), radians per second (clockwise
/// on screen).
struct Body2D<'a> {
    /// Its node type: `RigidBody2D`, `CharacterBody2D`, ...
    kind: &'a str,
    body: Body,
    velocity: DVec2,
    angular_velocity: f64,
    /// The point it turns about: its origin, or its `center_of_mass` when
    /// `center_of_mass_mode` is 1 (custom).
    pivot: DVec2,
    /// A StaticBody2D's `constant_linear_velocity` / `constant_angular_velocity` when not
    /// zero: it moves what touches the body, not the body.
    conveyor: Option<&'static str>,
}

/// `node` as a body, its global transform `to_source`: a RigidBody2D (or PhysicalBone2D) is
/// dynamic with its `linear_velocity` and `angular_velocity`, or when `freeze`d static
/// (`freeze_mode` 0) or kinematic (1), at rest; a CharacterBody2D is kinematic with its
/// `velocity`; an AnimatableBody2D kinematic at rest; anything else static.
fn body_of<'a>(node: &'a Node, to_source: &Affine) -> Body2D<'a> {
    let on = |key: &str| {
        node.property(key)
            .is_some_and(|g| g.value == Value::Bool(true))
    };
    let vector = |key: &str| {
        node.property(key)
            .and_then(|g| vec2(&g.value))
            .unwrap_or(DVec2::ZERO)
    };
    let number = |key: &str| {
        node.property(key)
            .and_then(|g| g.value.as_f64())
            .unwrap_or(0.0)
    };
    let rigid = matches!(node.kind.as_str(), "RigidBody2D" | "PhysicalBone2D");
    let (body, velocity, angular_velocity) = match node.kind.as_str() {
        _ if rigid && on("freeze") && number("freeze_mode") == 1.0 => {
            (Body::Kinematic, DVec2::ZERO, 0.0)
        }
        _ if rigid && on("freeze") => (Body::Static, DVec2::ZERO, 0.0),
        _ if rigid => (
            Body::Dynamic,
            vector("linear_velocity"),
            number("angular_velocity"),
        ),
        "CharacterBody2D" => (Body::Kinematic, vector("velocity"), 0.0),
        "AnimatableBody2D" => (Body::Kinematic, DVec2::ZERO, 0.0),
        _ => (Body::Static, DVec2::ZERO, 0.0),
    };
    let pivot = if rigid && number("center_of_mass_mode") == 1.0 {
        to_source.apply(vector("center_of_mass"))
    } else {
        to_source.origin
    };
    let conveyor = if node.kind != "StaticBody2D" {
        None
    } else if vector("constant_linear_velocity") != DVec2::ZERO {
        Some("constant_linear_velocity")
    } else if number("constant_angular_velocity") != 0.0 {
        Some("constant_angular_velocity")
    } else {
        None
    };
    Body2D {
        kind: node.kind.as_str(),
        body,
        velocity,
        angular_velocity,
        pivot,
        conveyor,
    }
}

/// The shapes placed from `from` on take their body's type and velocity: each the velocity
/// its position has as the body moves and turns about its pivot. A segment or chain stays
/// static (collidoscope's static geometry), with a note.
fn move_with(out: &mut Importing, from: usize, body: &Body2D, file: &Path, place: &str) {
    let first = out.shapes.get(from).and_then(|s| s.name.clone());
    if let Some(key) = body.conveyor {
        out.note(
            file,
            place.to_string(),
            text::godot_conveyor(key),
            first.clone(),
        );
    }
    if body.body == Body::Static {
        return;
    }
    let c = out.convert;
    let pivot = c.point(body.pivot.x, body.pivot.y);
    let velocity = c.point(body.velocity.x, body.velocity.y);
    let angular_velocity = c.angle(body.angular_velocity);
    let mut kept = None;
    for shape in &mut out.shapes[from..] {
        let kind = shape.placed.shape.kind();
        if kind.is_static_only() {
            kept.get_or_insert(kind);
            continue;
        }
        // v + ω × r, r from the pivot to the shape's position (about which it turns).
        let r = shape.placed.pose.position - pivot;
        shape.motion = Motion {
            body: body.body,
            velocity: if angular_velocity == 0.0 {
                velocity
            } else {
                velocity + angular_velocity * DVec2::new(-r.y, r.x)
            },
            angular_velocity,
        };
    }
    if let Some(kind) = kept {
        let what = text::godot_kept_static(kind, body.kind, body.body);
        out.note(file, place.to_string(), what, first);
    }
}

/// A shape with `one_way_collision`: kept whole, as docs/format.md says (collidoscope has no
/// one-way shape), with the note that says so. Returns the note to give.
fn one_way(node: &Node) -> Option<String> {
    node.property("one_way_collision")
        .is_some_and(|g| g.value == Value::Bool(true))
        .then(|| text::GODOT_ONE_WAY_KEPT.to_string())
}

/// Gravity as the project at `root` sets it, source pixels per second squared (y down):
/// `physics/2d/default_gravity` (980 when not set) times `2d/default_gravity_vector` ((0, 1)
/// when not set), as Godot's default space takes them; Godot's defaults without a
/// `project.godot`.
fn project_gravity(reader: &Reader) -> Result<DVec2, FileError> {
    let file = reader.root.join("project.godot");
    if !file.is_file() {
        return Ok(DVec2::new(0.0, 980.0));
    }
    let bytes = super::read_file(&file, None)?;
    project_gravity_of(&file, &bytes)
}

/// The gravity a `project.godot` (its bytes, `file` naming it in messages) sets, as
/// [`project_gravity`] takes it: the reader the `godot_project` fuzz target feeds.
pub fn project_gravity_of(file: &std::path::Path, bytes: &[u8]) -> Result<DVec2, FileError> {
    let (mut gravity, mut direction) = (980.0, DVec2::new(0.0, 1.0));
    let text = super::text_of(file, bytes)?;
    let section = godot_text::project_section(text, "physics").map_err(|e| {
        FileError::new(
            file,
            Problem::Syntax {
                line: e.line,
                column: e.column,
                message: e.message,
            },
        )
    })?;
    let Some(section) = section else {
        return Ok(gravity * direction);
    };
    // The line a key is on, for messages (properties keep no line of their own).
    let refuse = |key: &str, wanted: &str| {
        let (line, written) = text
            .lines()
            .enumerate()
            .skip(section.line)
            .find_map(|(k, l)| {
                let (left, right) = l.split_once('=')?;
                (left.trim() == key).then(|| (k + 1, right.trim().to_string()))
            })
            .unwrap_or((section.line, String::new()));
        document(
            file,
            format!("line {line}: [physics] {key} must be {wanted}, found {written}"),
        )
    };
    if let Some(v) = section.property("2d/default_gravity") {
        gravity = v
            .as_f64()
            .ok_or_else(|| refuse("2d/default_gravity", "a number"))?;
    }
    if let Some(v) = section.property("2d/default_gravity_vector") {
        direction =
            vec2(v).ok_or_else(|| refuse("2d/default_gravity_vector", "a Vector2(x, y)"))?;
    }
    let g = gravity * direction;
    if !g.is_finite() {
        return Err(refuse(
            "2d/default_gravity",
            "a gravity whose product with 2d/default_gravity_vector is finite",
        ));
    }
    Ok(g)
}

/// A node's collision shape in its own frame; `None` for a node that has none.
fn shapes_of(node: &Node, reader: &Reader) -> Result<Option<Vec<Local>>, Refusal> {
    let disabled = node
        .property("disabled")
        .is_some_and(|g| g.value == Value::Bool(true));
    match node.kind.as_str() {
        "CollisionShape2D" => {
            if disabled {
                return Err(Refusal::Skip("disabled".into()));
            }
            let Some(given) = node.property("shape") else {
                return Err(Refusal::Skip("a CollisionShape2D without a shape".into()));
            };
            let resource = resource(given, reader)?;
            shape_resource(&resource).map(Some)
        }
        "CollisionPolygon2D" => {
            if disabled {
                return Err(Refusal::Skip("disabled".into()));
            }
            let outline = node
                .property("polygon")
                .and_then(|g| points(&g.value))
                .unwrap_or_default();
            let segments = node
                .property("build_mode")
                .is_some_and(|g| g.value.as_f64() == Some(1.0));
            if segments {
                let ring = without_repeats(&outline);
                let n = ring.len();
                if n < 2 {
                    return Err(Refusal::Skip(format!(
                        "a ring of segments needs 2 points or more, found {n}"
                    )));
                }
                return Ok(Some(
                    (0..n)
                        .map(|k| Local::Segment(ring[k], ring[(k + 1) % n]))
                        .collect(),
                ));
            }
            Ok(Some(vec![Local::Polygon(outline, true)]))
        }
        "TileMap" => Err(Refusal::Refuse(
            "a TileMap node (Godot 4.0 to 4.2): open the scene in Godot 4.3 or later, which turns it into TileMapLayer nodes, and save it".into(),
        )),
        _ => Ok(None),
    }
}

/// One polygon of one cell of a TileMapLayer: the cell, the cell's centre (layer pixels),
/// the polygon relative to it with the cell's flips applied, and its label.
struct CellPolygon {
    x: i32,
    y: i32,
    centre: DVec2,
    points: Vec<DVec2>,
    /// `physics_layer_L/polygon_P`.
    label: String,
}

/// A `Vector2(...)` or `Vector2i(...)`.
fn vec2(value: &Value) -> Option<DVec2> {
    value
        .numbers_of("Vector2")
        .or_else(|| value.numbers_of("Vector2i"))
        .filter(|n| n.len() == 2)
        .map(|n| DVec2::new(n[0], n[1]))
}

/// A section a `SubResource(...)` / `ExtResource(...)` value names, as [`resource`] does for
/// a shape.
fn named(value: &Value, from: &Rc<Resources>, reader: &Reader) -> Result<Section, Refusal> {
    resource(
        &Given {
            value: value.clone(),
            from: from.clone(),
        },
        reader,
    )
}

/// Every physics polygon of a TileMapLayer's cells, in cell order.
fn tile_cells(node: &Node, reader: &Reader) -> Result<Vec<CellPolygon>, Refusal> {
    let off = |key: &str| {
        node.property(key)
            .is_some_and(|g| g.value == Value::Bool(false))
    };
    if off("enabled") || off("collision_enabled") {
        return Err(Refusal::Skip("the layer's collision is off".into()));
    }
    let Some(data) = node.property("tile_map_data") else {
        return Ok(Vec::new());
    };
    let bytes = match &data.value {
        Value::Call(kind, args) if kind == "PackedByteArray" => match args.as_slice() {
            [Value::Str(text)] => super::convert::base64(text),
            numbers => numbers
                .iter()
                .map(|v| {
                    v.as_f64()
                        .filter(|x| (0.0..256.0).contains(x))
                        .map(|x| x as u8)
                })
                .collect(),
        },
        _ => None,
    }
    .ok_or_else(|| Refusal::Refuse("tile_map_data does not decode".into()))?;
    if bytes.len() < 2 || (bytes.len() - 2) % 12 != 0 || bytes[..2] != [0, 0] {
        return Err(Refusal::Refuse(format!(
            "tile_map_data does not decode ({} bytes: a format 0, then 12 bytes a cell)",
            bytes.len()
        )));
    }
    let Some(set) = node.property("tile_set") else {
        return Err(Refusal::Skip("a TileMapLayer without a tile_set".into()));
    };
    let tile_set = named(&set.value, &set.from, reader)?;
    if tile_set
        .property("tile_shape")
        .and_then(Value::as_f64)
        .is_some_and(|shape| shape != 0.0)
    {
        return Err(Refusal::Refuse(
            "the tile set's tiles are not squares (tile_shape other than 0)".into(),
        ));
    }
    let size = tile_set
        .property("tile_size")
        .and_then(vec2)
        .unwrap_or(DVec2::splat(16.0));
    // The file the tile set came from, for its sources.
    let set_from = match &set.value {
        Value::Call(kind, _) if kind == "ExtResource" => {
            let id = set.value.as_str().unwrap_or_default();
            let Some((_, written)) = set.from.exts.get(id) else {
                return Err(Refusal::Refuse(format!("ExtResource({id:?}) is missing")));
            };
            let file = reader.resolve(&set.from.file, written);
            let sections = reader
                .sections(&file)
                .map_err(|e| Refusal::Refuse(e.to_string()))?;
            reader.resources(&file, &sections)
        }
        _ => set.from.clone(),
    };
    let mut sources: std::collections::HashMap<u16, Section> = Default::default();
    let word = |b: &[u8], k: usize| u16::from_le_bytes([b[k], b[k + 1]]);
    let mut out = Vec::new();
    for cell in bytes[2..].chunks(12) {
        let (x, y) = (word(cell, 0) as i16, word(cell, 2) as i16);
        let (source, ax, ay, alt) = (word(cell, 4), word(cell, 6), word(cell, 8), word(cell, 10));
        if source == u16::MAX {
            continue;
        }
        let (flip_h, flip_v, transpose) = (alt & 0x1000 != 0, alt & 0x2000 != 0, alt & 0x4000 != 0);
        let alt = alt & 0x0fff;
        if let std::collections::hash_map::Entry::Vacant(slot) = sources.entry(source) {
            let Some(value) = tile_set.property(&format!("sources/{source}")) else {
                return Err(Refusal::Refuse(format!(
                    "cell ({x},{y}) uses source {source}, which the tile set does not have"
                )));
            };
            slot.insert(named(value, &set_from, reader)?);
        }
        let atlas = &sources[&source];
        let prefix = format!("{ax}:{ay}/{alt}/");
        let centre = DVec2::new((f64::from(x) + 0.5) * size.x, (f64::from(y) + 0.5) * size.y);
        for (key, value) in &atlas.properties {
            let Some(label) = key
                .strip_prefix(&prefix)
                .and_then(|k| k.strip_suffix("/points"))
                .filter(|k| k.starts_with("physics_layer_"))
            else {
                continue;
            };
            let Some(points) = points(value) else {
                continue;
            };
            let points = points
                .into_iter()
                .map(|p| {
                    let p = if transpose { DVec2::new(p.y, p.x) } else { p };
                    let p = if flip_h { DVec2::new(-p.x, p.y) } else { p };
                    if flip_v { DVec2::new(p.x, -p.y) } else { p }
                })
                .collect();
            out.push(CellPolygon {
                x: i32::from(x),
                y: i32::from(y),
                centre,
                points,
                label: label.to_string(),
            });
        }
    }
    Ok(out)
}

/// The section a `shape = SubResource(...)` / `ExtResource(...)` names.
fn resource(given: &Given, reader: &Reader) -> Result<Section, Refusal> {
    let missing = |what: String| Refusal::Refuse(format!("{what} is missing"));
    match &given.value {
        Value::Call(kind, _) if kind == "SubResource" => {
            let id = given.value.as_str().unwrap_or_default();
            given
                .from
                .subs
                .get(id)
                .cloned()
                .ok_or_else(|| missing(format!("SubResource({id:?})")))
        }
        Value::Call(kind, _) if kind == "ExtResource" => {
            let id = given.value.as_str().unwrap_or_default();
            let (_, written) = given
                .from
                .exts
                .get(id)
                .ok_or_else(|| missing(format!("ExtResource({id:?})")))?;
            let file = reader.resolve(&given.from.file, written);
            let sections = reader
                .sections(&file)
                .map_err(|e| Refusal::Refuse(format!("ExtResource({id:?}): {e}")))?;
            // A .tres names its type in its [gd_resource] header; its values are under
            // [resource].
            let head = sections.first().cloned();
            let body = sections.into_iter().find(|s| s.tag == "resource");
            match (head, body) {
                (Some(head), Some(mut body)) => {
                    body.attributes = head.attributes;
                    Ok(body)
                }
                _ => Err(missing(format!("the [resource] of {written:?}"))),
            }
        }
        other => Err(Refusal::Refuse(format!(
            "\"shape\" must be SubResource(...) or ExtResource(...), found {other:?}"
        ))),
    }
}

/// A resource's `Vector2(x, y)` property `key`, when it has one.
fn vector2(resource: &Section, key: &str) -> Option<DVec2> {
    resource
        .property(key)
        .and_then(|v| v.numbers_of("Vector2"))
        .filter(|n| n.len() == 2)
        .map(|n| DVec2::new(n[0], n[1]))
}

/// A RectangleShape2D's `size` (Godot 3's `extents` doubled; (20, 20) when not given).
fn rectangle_size(resource: &Section) -> DVec2 {
    vector2(resource, "size")
        .or_else(|| vector2(resource, "extents").map(|e| e * 2.0))
        .unwrap_or(DVec2::splat(20.0))
}

/// A Shape2D resource, in the node's frame.
fn shape_resource(resource: &Section) -> Result<Vec<Local>, Refusal> {
    let kind = resource
        .attribute("type")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let number = |key: &str, default: f64| {
        resource
            .property(key)
            .and_then(Value::as_f64)
            .unwrap_or(default)
    };
    let vector = |key: &str| vector2(resource, key);
    match kind.as_str() {
        "CircleShape2D" => Ok(vec![Local::Circle(DVec2::ZERO, number("radius", 10.0))]),
        "CapsuleShape2D" => {
            // Godot's setters, in file order: a radius above height/2 raises the height; a
            // height below 2·radius lowers the radius.
            let (mut radius, mut height) = (10.0f64, 30.0f64);
            for (key, value) in &resource.properties {
                let Some(x) = value.as_f64() else { continue };
                match key.as_str() {
                    "radius" => {
                        radius = x;
                        if height < 2.0 * radius {
                            height = 2.0 * radius;
                        }
                    }
                    "height" => {
                        height = x;
                        if radius > height / 2.0 {
                            radius = height / 2.0;
                        }
                    }
                    _ => {}
                }
            }
            let half = height / 2.0 - radius;
            Ok(vec![Local::Capsule(
                DVec2::new(0.0, -half),
                DVec2::new(0.0, half),
                radius,
            )])
        }
        "RectangleShape2D" => {
            let size = rectangle_size(resource);
            if size.x <= 0.0 || size.y <= 0.0 {
                return Err(Refusal::Skip(format!(
                    "a rectangle of size {} x {}: nothing to collide with",
                    size.x, size.y
                )));
            }
            let h = size / 2.0;
            Ok(vec![Local::Polygon(
                vec![
                    DVec2::new(-h.x, -h.y),
                    DVec2::new(h.x, -h.y),
                    DVec2::new(h.x, h.y),
                    DVec2::new(-h.x, h.y),
                ],
                false,
            )])
        }
        // Not split: points that are not convex are refused, as Godot's own shape requires.
        "ConvexPolygonShape2D" => Ok(vec![Local::Polygon(
            resource
                .property("points")
                .and_then(points)
                .unwrap_or_default(),
            false,
        )]),
        "ConcavePolygonShape2D" => {
            let p = resource
                .property("segments")
                .and_then(points)
                .unwrap_or_default();
            Ok(p.chunks(2)
                .filter(|c| c.len() == 2)
                .map(|c| Local::Segment(c[0], c[1]))
                .collect())
        }
        "SegmentShape2D" => Ok(vec![Local::Segment(
            vector("a").unwrap_or(DVec2::ZERO),
            vector("b").unwrap_or(DVec2::new(0.0, 10.0)),
        )]),
        other => Err(Refusal::Refuse(format!(
            "{} has no collidoscope kind",
            if other.is_empty() {
                "this shape"
            } else {
                other
            }
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::import::Affine;

    #[test]
    fn a_transform_is_godots_rotation_scale_and_skew() {
        let t = Affine::from_parts(DVec2::new(5.0, 6.0), 0.0, DVec2::new(2.0, 3.0), 0.0);
        assert_eq!(t.apply(DVec2::new(1.0, 1.0)), DVec2::new(7.0, 9.0));
        let r = Affine::from_parts(DVec2::ZERO, std::f64::consts::FRAC_PI_2, DVec2::ONE, 0.0);
        // A quarter turn (clockwise on Godot's y-down screen) takes +x to +y.
        assert!((r.apply(DVec2::X) - DVec2::Y).length() < 1e-15);
        let child = Affine::from_parts(DVec2::new(10.0, 0.0), 0.0, DVec2::ONE, 0.0);
        assert!((r.then(&child).origin - DVec2::new(0.0, 10.0)).length() < 1e-14);
        assert!(r.uniform());
        assert!(!t.uniform());
    }

    // Shapes, refusals and instancing are tested on whole scenes in tests/import_godot.rs.
}
