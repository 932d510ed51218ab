//! Tiled maps: `.tmx` (XML, with `.tsx` tilesets and `.tx` templates) read through the `tiled`
//! crate, and `.tmj` / `.json` (Tiled's JSON format, with `.tsj` tilesets and `.tj` templates)
//! read by serde structs of our own. Both readers give the same [`Map`]; one walk places its
//! object layers (in group layers too), tile objects with their tiles' collision shapes, and
//! tile layers' cells with per-tile collision, each as Tiled itself places it
//! (docs/format.md, "Import", "Tiled maps").

mod data;
mod json;
mod xml;

use super::convert::{Convert, ellipse_points, without_repeats};
use super::{Affine, Imported, Local, Outcome, Refusal};
use crate::files::{FileError, Problem};
use crate::geometry::DVec2;
use std::collections::HashMap;
use std::path::Path;
use std::rc::Rc;

/// A Tiled map as import reads it, whichever format it came from.
#[derive(Debug)]
struct Map {
    /// `orthogonal`, `isometric`, `staggered`, `hexagonal`, `oblique`.
    orientation: String,
    /// The map's `tilewidth` × `tileheight`.
    grid: DVec2,
    layers: Vec<Layer>,
}

#[derive(Debug)]
struct Layer {
    /// The layer's name, or `layer ID` when it has none.
    name: String,
    /// Its own `offsetx`, `offsety` (the enclosing groups' are added by the walk).
    offset: DVec2,
    kind: LayerKind,
}

#[derive(Debug)]
enum LayerKind {
    Objects(Vec<Object>),
    /// The cells that hold a tile, in row-major order.
    Tiles(Vec<Cell>),
    Group(Vec<Layer>),
    Image,
}

#[derive(Debug)]
struct Cell {
    /// Column and row.
    at: (i32, i32),
    tile: TileRef,
}

/// A gid resolved: the tile `id` of `tileset`, and the gid's flip bits.
#[derive(Clone, Debug)]
struct TileRef {
    tileset: Rc<Tileset>,
    id: u32,
    flips: Flips,
}

/// The flip bits of a gid: horizontal 0x80000000, vertical 0x40000000, diagonal 0x20000000.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Flips {
    h: bool,
    v: bool,
    d: bool,
}

impl Flips {
    const H: u32 = 0x8000_0000;
    const V: u32 = 0x4000_0000;
    const D: u32 = 0x2000_0000;
    /// Hexagonal maps' 120° rotation: cleared and ignored.
    const HEX: u32 = 0x1000_0000;

    /// The flips and the bare gid.
    fn split(gid: u32) -> (Flips, u32) {
        let flips = Flips {
            h: gid & Self::H != 0,
            v: gid & Self::V != 0,
            d: gid & Self::D != 0,
        };
        (flips, gid & !(Self::H | Self::V | Self::D | Self::HEX))
    }
}

#[derive(Debug)]
struct Object {
    id: u32,
    name: String,
    /// Its class (`type` before Tiled 1.9).
    class: String,
    /// Its (x, y).
    at: DVec2,
    /// Degrees, clockwise.
    rotation: f64,
    shape: Shape,
    /// A tile object's tile (its shape is then its rectangle).
    tile: Option<TileRef>,
}

#[derive(Debug)]
enum Shape {
    Rect(DVec2),
    Ellipse(DVec2),
    Capsule(DVec2),
    Polygon(Vec<DVec2>),
    Polyline(Vec<DVec2>),
    Point,
    Text,
}

/// Where a tile object's (x, y) sits on it: the tileset's `objectalignment`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Alignment {
    /// Bottom-left on orthogonal maps.
    #[default]
    Unspecified,
    TopLeft,
    Top,
    TopRight,
    Left,
    Center,
    Right,
    BottomLeft,
    Bottom,
    BottomRight,
}

impl Alignment {
    /// The alignment point of a tile object of size (w, h).
    fn point(self, w: f64, h: f64) -> DVec2 {
        match self {
            Alignment::TopLeft => DVec2::ZERO,
            Alignment::Top => DVec2::new(w / 2.0, 0.0),
            Alignment::TopRight => DVec2::new(w, 0.0),
            Alignment::Left => DVec2::new(0.0, h / 2.0),
            Alignment::Center => DVec2::new(w / 2.0, h / 2.0),
            Alignment::Right => DVec2::new(w, h / 2.0),
            Alignment::Bottom => DVec2::new(w / 2.0, h),
            Alignment::BottomRight => DVec2::new(w, h),
            Alignment::Unspecified | Alignment::BottomLeft => DVec2::new(0.0, h),
        }
    }
}

#[derive(Debug)]
struct Tileset {
    name: String,
    /// `tilewidth` × `tileheight`.
    tile: DVec2,
    /// `tileoffset`.
    offset: DVec2,
    alignment: Alignment,
    /// `tilerendersize="grid"`: tiles drawn scaled to the map's cell.
    grid_render: bool,
    /// `tilecount` (0 when the file leaves it out, as Tiled before 0.13 did).
    count: u32,
    /// The tiles of its image's grid, as Tiled cuts the image ([`grid_tiles`]); 0 for an
    /// image collection.
    grid: u32,
    /// The tiles that hold anything import reads (an image of their own, collision objects).
    tiles: HashMap<u32, Tile>,
}

impl Tileset {
    /// Whether tile `id` is one of the tileset's: a cell of its image's grid, below its
    /// `tilecount`, or a tile of its own (an image collection's ids may pass the count).
    fn holds(&self, id: u32) -> bool {
        id < self.count.max(self.grid) || self.tiles.contains_key(&id)
    }

    /// Tile `id`'s box: its image (or sub-rectangle) in an image collection, else the
    /// tileset's tile size.
    fn tile_box(&self, id: u32) -> DVec2 {
        self.tiles
            .get(&id)
            .and_then(|t| t.size)
            .unwrap_or(self.tile)
    }

    /// Tile `id`'s collision objects (none when it has none).
    fn collision(&self, id: u32) -> &[Object] {
        self.tiles.get(&id).map_or(&[], |t| &t.collision)
    }
}

#[derive(Debug, Default)]
struct Tile {
    /// Its own image's size (or its sub-rectangle's), in an image collection.
    size: Option<DVec2>,
    collision: Vec<Object>,
}

/// The message for a tile id its tileset does not have.
fn no_such_tile(tileset: &Tileset, id: u32) -> String {
    let tiles = match tileset.count.max(tileset.grid) {
        0 => {
            // An image collection: its own tiles' ids.
            let mut ids: Vec<u32> = tileset.tiles.keys().copied().collect();
            ids.sort_unstable();
            match ids.as_slice() {
                [] => "it has no tiles".to_string(),
                [one] => format!("its one tile is {one}"),
                [few @ .., last] if few.len() < 8 => {
                    let few: Vec<String> = few.iter().map(u32::to_string).collect();
                    format!("its tiles are {} and {last}", few.join(", "))
                }
                [first, .., last] => {
                    format!("its {} tiles have ids from {first} to {last}", ids.len())
                }
            }
        }
        1 => "its one tile is 0".to_string(),
        n => format!("its tiles are 0 to {}", n - 1),
    };
    format!("tileset \"{}\" has no tile {id} ({tiles})", tileset.name)
}

/// The tiles of an image `image` wide and high cut into tiles of `tile` with `margin` and
/// `spacing`, as Tiled cuts it (`Tileset::columnCountForWidth`: (width − margin + spacing) /
/// (tile width + spacing) columns, rows likewise). 0 when any size is missing.
fn grid_tiles(image: DVec2, tile: DVec2, margin: f64, spacing: f64) -> u32 {
    let cells = |length: f64, tile: f64| {
        let n = ((length - margin + spacing) / (tile + spacing)).floor();
        if tile > 0.0 && n.is_finite() && n > 0.0 {
            n.min(f64::from(u32::MAX))
        } else {
            0.0
        }
    };
    (cells(image.x, tile.x) * cells(image.y, tile.y)).min(f64::from(u32::MAX)) as u32
}

/// A translation.
fn moved(by: DVec2) -> Affine {
    Affine {
        origin: by,
        ..Affine::IDENTITY
    }
}

/// A scale by `s` per axis.
fn scaled(s: DVec2) -> Affine {
    Affine {
        x: DVec2::new(s.x, 0.0),
        y: DVec2::new(0.0, s.y),
        ..Affine::IDENTITY
    }
}

/// The map from a tile's own frame (top-left origin, y down, its box `size`) to where the
/// flips and the tileset's offset put it: diagonal flip first, then horizontal, then vertical.
/// Gives the map and the box after the diagonal flip.
fn flipped(size: DVec2, flips: Flips, offset: DVec2) -> (Affine, DVec2) {
    let mut m = Affine::IDENTITY;
    let mut bx = size;
    if flips.d {
        m = Affine {
            x: DVec2::Y,
            y: DVec2::X,
            ..Affine::IDENTITY
        };
        bx = DVec2::new(size.y, size.x);
    }
    if flips.h {
        let mirror = Affine {
            x: DVec2::NEG_X,
            origin: DVec2::new(bx.x, 0.0),
            ..Affine::IDENTITY
        };
        m = mirror.then(&m);
    }
    if flips.v {
        let mirror = Affine {
            y: DVec2::NEG_Y,
            origin: DVec2::new(0.0, bx.y),
            ..Affine::IDENTITY
        };
        m = mirror.then(&m);
    }
    (moved(offset).then(&m), bx)
}

impl Object {
    /// Its own frame: origin at its (x, y) plus `offset`, turned by its rotation.
    fn frame(&self, offset: DVec2) -> Affine {
        Affine::from_parts(
            self.at + offset,
            self.rotation.to_radians(),
            DVec2::ONE,
            0.0,
        )
    }

    /// The shape word Tiled's editor would show.
    fn word(&self) -> &'static str {
        if self.tile.is_some() {
            return "tile";
        }
        match self.shape {
            Shape::Rect(_) => "rectangle",
            Shape::Ellipse(_) => "ellipse",
            Shape::Capsule(_) => "capsule",
            Shape::Polygon(_) => "polygon",
            Shape::Polyline(_) => "polyline",
            Shape::Point => "point",
            Shape::Text => "text",
        }
    }

    /// Its label: its name; else its class and id; else its shape word and id.
    fn label(&self) -> String {
        if !self.name.is_empty() {
            self.name.clone()
        } else if !self.class.is_empty() {
            format!("{} {}", self.class, self.id)
        } else {
            format!("{} {}", self.word(), self.id)
        }
    }

    /// `object 37 "player-start" (point)`.
    fn place(&self) -> String {
        format!("object {} \"{}\" ({})", self.id, self.label(), self.word())
    }

    /// Its shapes in its own frame (source pixels, y down).
    fn local_shapes(&self) -> Result<Vec<Local>, Refusal> {
        let empty = |what: &str, s: DVec2| {
            Refusal::Skip(format!(
                "{what} of size {} x {}: nothing to collide with",
                s.x, s.y
            ))
        };
        let sized = |s: DVec2| s.x > 0.0 && s.y > 0.0;
        match &self.shape {
            Shape::Rect(s) if !sized(*s) => Err(empty("a rectangle", *s)),
            Shape::Rect(s) => Ok(vec![Local::Polygon(
                vec![DVec2::ZERO, DVec2::new(s.x, 0.0), *s, DVec2::new(0.0, s.y)],
                false,
            )]),
            Shape::Ellipse(s) if !sized(*s) => Err(empty("an ellipse", *s)),
            Shape::Ellipse(s) => {
                let centre = *s / 2.0;
                if s.x == s.y {
                    Ok(vec![Local::Circle(centre, s.x / 2.0)])
                } else {
                    Ok(vec![Local::Polygon(
                        ellipse_points(centre, s.x / 2.0, s.y / 2.0),
                        false,
                    )])
                }
            }
            Shape::Capsule(s) if !sized(*s) => Err(empty("a capsule", *s)),
            Shape::Capsule(s) => {
                let r = s.x.min(s.y) / 2.0;
                let b = if s.x >= s.y {
                    DVec2::new(s.x - r, r)
                } else {
                    DVec2::new(r, s.y - r)
                };
                Ok(vec![Local::Capsule(DVec2::splat(r), b, r)])
            }
            Shape::Polygon(points) => Ok(vec![Local::Polygon(points.clone(), true)]),
            Shape::Polyline(points) => {
                let p = without_repeats(points);
                if p.len() < 2 {
                    return Err(Refusal::Skip(format!(
                        "a polyline needs 2 points or more, found {}",
                        p.len()
                    )));
                }
                Ok(p.windows(2).map(|w| Local::Segment(w[0], w[1])).collect())
            }
            Shape::Point => Err(Refusal::Skip(
                "a point object has no collision shape".into(),
            )),
            Shape::Text => Err(Refusal::Skip("a text object has no collision shape".into())),
        }
    }
}

struct Walk<'a> {
    out: Outcome,
    file: &'a Path,
    grid: DVec2,
}

impl Walk<'_> {
    /// Place `shapes` (in a frame that `frame` maps to the map), or note why not.
    fn put(
        &mut self,
        place: &str,
        name: &str,
        shapes: Result<Vec<Local>, Refusal>,
        frame: &Affine,
    ) -> Result<(), FileError> {
        self.out.take(self.file, place, name, shapes, frame)
    }

    /// Every collision object of `tile`, each mapped by `tile_frame` (the tile's own frame to
    /// the map); named `OWNER/COLLISION`. False when the tile has none.
    fn tile_collision(
        &mut self,
        tile: &TileRef,
        owner: &str,
        place: &str,
        tile_frame: &Affine,
    ) -> Result<bool, FileError> {
        let collision = tile.tileset.collision(tile.id);
        for c in collision {
            let frame = tile_frame.then(&c.frame(DVec2::ZERO));
            let name = format!("{owner}/{}", c.label());
            let at = format!("{place}, tile collision {}", c.place());
            self.approximated(c, &at, &name);
            self.put(&at, &name, c.local_shapes(), &frame)?;
        }
        Ok(!collision.is_empty())
    }

    /// The note for an ellipse of unequal axes, which becomes a polygon.
    fn approximated(&mut self, o: &Object, place: &str, name: &str) {
        if let Shape::Ellipse(s) = o.shape
            && s.x != s.y
            && s.x > 0.0
            && s.y > 0.0
        {
            self.out.note(
                self.file,
                place.to_string(),
                "approximated: an ellipse of unequal axes becomes the inscribed 32-point polygon (0.64% less area)".into(),
                Some(name.to_string()),
            );
        }
    }

    fn object(&mut self, o: &Object, offset: DVec2) -> Result<(), FileError> {
        let place = o.place();
        let name = o.label();
        let frame = o.frame(offset);
        let Some(tile) = &o.tile else {
            self.approximated(o, &place, &name);
            return self.put(&place, &name, o.local_shapes(), &frame);
        };
        let size = match o.shape {
            Shape::Rect(s) => s,
            _ => DVec2::ZERO,
        };
        // Older versions of Tiled wrote tile objects without a size; Tiled reads a width or height
        // left out (0) as its tile's.
        let tile_size = tile.tileset.tile_box(tile.id);
        let or_tile = |given: f64, tile: f64| if given == 0.0 { tile } else { given };
        let (w, h) = (or_tile(size.x, tile_size.x), or_tile(size.y, tile_size.y));
        if w <= 0.0 || h <= 0.0 {
            return self.put(
                &place,
                &name,
                Err(Refusal::Skip(format!(
                    "a tile object of size {w} x {h}: nothing to collide with"
                ))),
                &frame,
            );
        }
        let tileset = &tile.tileset;
        let (flip, bx) = flipped(tileset.tile_box(tile.id), tile.flips, tileset.offset);
        let fit =
            moved(-tileset.alignment.point(w, h)).then(&scaled(DVec2::new(w / bx.x, h / bx.y)));
        if !self.tile_collision(tile, &name, &place, &frame.then(&fit).then(&flip))? {
            // No collision objects: the object's own rectangle, placed the same way.
            let rect = Local::Polygon(
                vec![
                    DVec2::ZERO,
                    DVec2::new(bx.x, 0.0),
                    bx,
                    DVec2::new(0.0, bx.y),
                ],
                false,
            );
            self.put(&place, &name, Ok(vec![rect]), &frame.then(&fit))?;
        }
        Ok(())
    }

    fn cell(&mut self, layer: &str, cell: &Cell, offset: DVec2) -> Result<(), FileError> {
        let (c, r) = cell.at;
        let tile = &cell.tile;
        let tileset = &tile.tileset;
        let (flip, bx) = flipped(tileset.tile_box(tile.id), tile.flips, tileset.offset);
        let grid = self.grid;
        let (fit, height) = if tileset.grid_render {
            (scaled(grid / bx), grid.y)
        } else {
            (Affine::IDENTITY, bx.y)
        };
        let corner = DVec2::new(f64::from(c) * grid.x, f64::from(r + 1) * grid.y - height);
        let tile_frame = moved(corner + offset).then(&fit).then(&flip);
        let owner = format!("{layer}[{c},{r}]");
        let place = format!("layer \"{layer}\" cell ({c},{r})");
        self.tile_collision(tile, &owner, &place, &tile_frame)?;
        Ok(())
    }

    fn layers(&mut self, layers: &[Layer], offset: DVec2) -> Result<(), FileError> {
        for layer in layers {
            let offset = offset + layer.offset;
            match &layer.kind {
                LayerKind::Objects(objects) => {
                    for o in objects {
                        self.object(o, offset)?;
                    }
                }
                LayerKind::Tiles(cells) => {
                    for cell in cells {
                        self.cell(&layer.name, cell, offset)?;
                    }
                }
                LayerKind::Group(inner) => self.layers(inner, offset)?,
                LayerKind::Image => self.out.note(
                    self.file,
                    format!("layer \"{}\" (image layer)", layer.name),
                    "skipped: an image layer has no collision shapes".into(),
                    None,
                ),
            }
        }
        Ok(())
    }
}

fn document(path: &Path, message: String) -> FileError {
    FileError::new(path, Problem::Document(message))
}

/// Import the Tiled map at `path` (`.tmx`, `.tmj`, `.json`); its bytes when given (the
/// files it names are read from beside it).
pub(super) fn import_from(
    path: &Path,
    bytes: Option<Vec<u8>>,
    convert: Convert,
    skip_unsupported: bool,
) -> Result<Imported, FileError> {
    let map = match path.extension().and_then(|e| e.to_str()) {
        Some("tsx" | "tsj") => {
            return Err(document(
                path,
                "a tileset, not a map: import the map that uses it".into(),
            ));
        }
        Some("tx" | "tj") => {
            return Err(document(
                path,
                "a template, not a map: import the map that uses it".into(),
            ));
        }
        Some("tmx") => xml::read(path, bytes)?,
        _ => json::read(path, bytes)?,
    };
    if map.orientation != "orthogonal" {
        return Err(document(
            path,
            format!(
                "{} {} map: collidoscope imports orthogonal maps only",
                if map.orientation.starts_with(['a', 'e', 'i', 'o', 'u']) {
                    "an"
                } else {
                    "a"
                },
                map.orientation
            ),
        ));
    }
    let mut walk = Walk {
        out: Outcome::new(convert, skip_unsupported),
        file: path,
        grid: map.grid,
    };
    walk.layers(&map.layers, DVec2::ZERO)?;
    Ok(walk.out.finish())
}
