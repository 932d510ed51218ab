//! What import reads a Tiled map into, whichever format it came from (`xml.rs`, `json.rs`):
//! the map, its layers, objects and cells, and the tilesets their gids name, with what an object
//! or a tileset says of itself. The walk that places them is in `mod.rs`.

use super::super::convert::{ellipse_points, without_repeats};
use super::super::{Affine, Local, Refusal};
use crate::files::{FileError, Problem};
use crate::geometry::DVec2;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A Tiled map as import reads it, whichever format it came from.
#[derive(Debug)]
pub(super) struct Map {
    /// `orthogonal`, `isometric`, `staggered`, `hexagonal`, `oblique`.
    pub(super) orientation: String,
    /// The map's `tilewidth` × `tileheight`.
    pub(super) grid: DVec2,
    pub(super) layers: Vec<Layer>,
}

#[derive(Debug)]
pub(super) struct Layer {
    /// The layer's name, or `layer ID` when it has none.
    pub(super) name: String,
    /// Its own `offsetx`, `offsety` (the enclosing groups' are added by the walk).
    pub(super) offset: DVec2,
    pub(super) kind: LayerKind,
}

#[derive(Debug)]
pub(super) enum LayerKind {
    Objects(Vec<Object>),
    /// The cells that hold a tile, in row-major order.
    Tiles(Vec<Cell>),
    Group(Vec<Layer>),
    Image,
}

#[derive(Debug)]
pub(super) struct Cell {
    /// Column and row.
    pub(super) at: (i32, i32),
    pub(super) tile: TileRef,
}

/// A gid resolved: the tile `id` of `tileset`, and the gid's flip bits.
#[derive(Clone, Debug)]
pub(super) struct TileRef {
    pub(super) tileset: Rc<Tileset>,
    pub(super) id: u32,
    pub(super) flips: Flips,
}

/// The flip bits of a gid: horizontal 0x80000000, vertical 0x40000000, diagonal 0x20000000.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Flips {
    pub(super) h: bool,
    pub(super) v: bool,
    pub(super) d: bool,
}

impl Flips {
    pub(super) const H: u32 = 0x8000_0000;
    pub(super) const V: u32 = 0x4000_0000;
    pub(super) const D: u32 = 0x2000_0000;
    /// Hexagonal maps' 120° rotation: cleared and ignored.
    pub(super) const HEX: u32 = 0x1000_0000;

    /// The flips and the bare gid.
    pub(super) fn split(gid: u32) -> (Flips, u32) {
        let flips = Flips {
            h: gid & Self::H != 0,
            v: gid & Self::V != 0,
            d: gid & Self::D != 0,
        };
        (flips, gid & !(Self::H | Self::V | Self::D | Self::HEX))
    }
}

#[derive(Debug)]
pub(super) struct Object {
    pub(super) id: u32,
    pub(super) name: String,
    /// Its class (`type` before Tiled 1.9).
    pub(super) class: String,
    /// Its (x, y).
    pub(super) at: DVec2,
    /// Degrees, clockwise.
    pub(super) rotation: f64,
    pub(super) shape: Shape,
    /// A tile object's tile (its shape is then its rectangle).
    pub(super) tile: Option<TileRef>,
}

#[derive(Debug)]
pub(super) enum Shape {
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
pub(super) enum Alignment {
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
    pub(super) fn point(self, w: f64, h: f64) -> DVec2 {
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
pub(super) struct Tileset {
    pub(super) name: String,
    /// `tilewidth` × `tileheight`.
    pub(super) tile: DVec2,
    /// `tileoffset`.
    pub(super) offset: DVec2,
    pub(super) alignment: Alignment,
    /// `tilerendersize="grid"`: tiles drawn scaled to the map's cell.
    pub(super) grid_render: bool,
    /// `tilecount` (0 when the file leaves it out, as Tiled before 0.13 did).
    pub(super) count: u32,
    /// The tiles of its image's grid, as Tiled cuts the image ([`grid_tiles`]); 0 for an
    /// image collection.
    pub(super) grid: u32,
    /// The tiles that hold anything import reads (an image of their own, collision objects).
    pub(super) tiles: HashMap<u32, Tile>,
}

impl Tileset {
    /// Whether tile `id` is one of the tileset's: a cell of its image's grid, below its
    /// `tilecount`, or a tile of its own (an image collection's ids may pass the count).
    pub(super) fn holds(&self, id: u32) -> bool {
        id < self.count.max(self.grid) || self.tiles.contains_key(&id)
    }

    /// Tile `id`'s box: its image (or sub-rectangle) in an image collection, else the
    /// tileset's tile size.
    pub(super) fn tile_box(&self, id: u32) -> DVec2 {
        self.tiles
            .get(&id)
            .and_then(|t| t.size)
            .unwrap_or(self.tile)
    }

    /// Tile `id`'s collision objects (none when it has none).
    pub(super) fn collision(&self, id: u32) -> &[Object] {
        self.tiles.get(&id).map_or(&[], |t| &t.collision)
    }
}

#[derive(Debug, Default)]
pub(super) struct Tile {
    /// Its own image's size (or its sub-rectangle's), in an image collection.
    pub(super) size: Option<DVec2>,
    pub(super) collision: Vec<Object>,
}

/// The message for a tile id its tileset does not have.
pub(super) fn no_such_tile(tileset: &Tileset, id: u32) -> String {
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
pub(super) fn grid_tiles(image: DVec2, tile: DVec2, margin: f64, spacing: f64) -> u32 {
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

impl Object {
    /// Its own frame: origin at its (x, y) plus `offset`, turned by its rotation.
    pub(super) fn frame(&self, offset: DVec2) -> Affine {
        Affine::from_parts(
            self.at + offset,
            self.rotation.to_radians(),
            DVec2::ONE,
            0.0,
        )
    }

    /// The shape word Tiled's editor would show.
    pub(super) fn word(&self) -> &'static str {
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
    pub(super) fn label(&self) -> String {
        self.label_as(self.id)
    }

    /// Its label under the id `id`.
    pub(super) fn label_as(&self, id: u32) -> String {
        if !self.name.is_empty() {
            self.name.clone()
        } else if !self.class.is_empty() {
            format!("{} {id}", self.class)
        } else {
            format!("{} {id}", self.word())
        }
    }

    /// `object 37 "player-start" (point)`.
    pub(super) fn place(&self) -> String {
        self.place_as(self.id, &self.label())
    }

    /// Its place under the id `id` and the label `label`.
    pub(super) fn place_as(&self, id: u32, label: &str) -> String {
        format!("object {id} \"{label}\" ({})", self.word())
    }

    /// Its shapes in its own frame (source pixels, y down).
    pub(super) fn local_shapes(&self) -> Result<Vec<Local>, Refusal> {
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

pub(super) fn document(path: &Path, message: String) -> FileError {
    FileError::new(path, Problem::Document(message))
}

/// `file`, named from inside `from`: relative to `from`'s folder.
pub(super) fn beside(from: &Path, file: &str) -> PathBuf {
    from.parent().unwrap_or(Path::new(".")).join(file)
}

/// Reads a tileset file of the other format than the map naming it (an XML map may name a
/// JSON tileset, and a JSON map an XML one): given to each reader by `mod.rs`, which knows
/// both, so that neither reader knows the other.
pub(super) type TilesetReader = fn(&Path) -> Result<Rc<Tileset>, FileError>;
