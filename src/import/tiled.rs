//! Tiled maps (`.tmx`, with their `.tsx` tilesets and `.tx` templates) imported through the
//! `tiled` crate: object layers (in group layers too), tile objects with their tiles'
//! collision shapes, and tile layers' cells with per-tile collision, each placed as Tiled
//! itself places it (docs/format.md, "Import", "Tiled maps").

use super::convert::{Convert, ellipse_points};
use super::{Affine, Imported, Local, Outcome, Refusal};
use crate::files::{FileError, Problem};
use crate::geometry::DVec2;
use std::path::Path;
use tiled::{
    LayerTile, LayerType, Map, ObjectAlignment, ObjectData, ObjectShape, Orientation, TileLayer,
    TileRenderSize, Tileset,
};

fn document(path: &Path, message: String) -> FileError {
    FileError::new(path, Problem::Document(message))
}

/// A translation.
fn moved(by: DVec2) -> Affine {
    Affine {
        origin: by,
        ..Affine::IDENTITY
    }
}

/// An object's own frame: origin at its (x, y), turned by its rotation (degrees, clockwise).
fn object_frame(o: &ObjectData, offset: DVec2) -> Affine {
    let turn = f64::from(o.rotation).to_radians();
    Affine::from_parts(
        DVec2::new(f64::from(o.x), f64::from(o.y)) + offset,
        turn,
        DVec2::ONE,
        0.0,
    )
}

/// The shape word Tiled's editor would show.
fn shape_word(shape: &ObjectShape, tile: bool) -> &'static str {
    if tile {
        return "tile";
    }
    match shape {
        ObjectShape::Rect { .. } => "rectangle",
        ObjectShape::Ellipse { .. } => "ellipse",
        ObjectShape::Capsule { .. } => "capsule",
        ObjectShape::Polyline { .. } => "polyline",
        ObjectShape::Polygon { .. } => "polygon",
        ObjectShape::Point(..) => "point",
        ObjectShape::Text { .. } => "text",
    }
}

/// An object's label: its name; else its class and id; else its shape word and id.
fn label(o: &ObjectData) -> String {
    let word = shape_word(&o.shape, o.tile_data().is_some());
    if !o.name.is_empty() {
        o.name.clone()
    } else if !o.user_type.is_empty() {
        format!("{} {}", o.user_type, o.id())
    } else {
        format!("{word} {}", o.id())
    }
}

/// `object 37 "player-start" (point)`.
fn place_of(o: &ObjectData) -> String {
    let word = shape_word(&o.shape, o.tile_data().is_some());
    format!("object {} \"{}\" ({word})", o.id(), label(o))
}

/// An object's shapes in its own frame (source pixels, y down).
fn local_shapes(o: &ObjectData) -> Result<Vec<Local>, Refusal> {
    let point = |(x, y): (f32, f32)| DVec2::new(f64::from(x), f64::from(y));
    match &o.shape {
        ObjectShape::Rect { width, height } => {
            let (w, h) = (f64::from(*width), f64::from(*height));
            if w <= 0.0 || h <= 0.0 {
                return Err(Refusal::Skip(format!(
                    "a rectangle of size {w} x {h}: nothing to collide with"
                )));
            }
            Ok(vec![Local::Polygon(
                vec![
                    DVec2::ZERO,
                    DVec2::new(w, 0.0),
                    DVec2::new(w, h),
                    DVec2::new(0.0, h),
                ],
                false,
            )])
        }
        ObjectShape::Ellipse { width, height } => {
            let (w, h) = (f64::from(*width), f64::from(*height));
            if w <= 0.0 || h <= 0.0 {
                return Err(Refusal::Skip(format!(
                    "an ellipse of size {w} x {h}: nothing to collide with"
                )));
            }
            let centre = DVec2::new(w / 2.0, h / 2.0);
            if w == h {
                Ok(vec![Local::Circle(centre, w / 2.0)])
            } else {
                Ok(vec![Local::Polygon(
                    ellipse_points(centre, w / 2.0, h / 2.0),
                    false,
                )])
            }
        }
        ObjectShape::Capsule { width, height } => {
            let (w, h) = (f64::from(*width), f64::from(*height));
            if w <= 0.0 || h <= 0.0 {
                return Err(Refusal::Skip(format!(
                    "a capsule of size {w} x {h}: nothing to collide with"
                )));
            }
            let r = w.min(h) / 2.0;
            let (a, b) = if w >= h {
                (DVec2::new(r, r), DVec2::new(w - r, r))
            } else {
                (DVec2::new(r, r), DVec2::new(r, h - r))
            };
            Ok(vec![Local::Capsule(a, b, r)])
        }
        ObjectShape::Polygon { points } => Ok(vec![Local::Polygon(
            points.iter().copied().map(point).collect(),
            true,
        )]),
        ObjectShape::Polyline { points } => {
            let p: Vec<DVec2> = super::convert::without_repeats(
                &points.iter().copied().map(point).collect::<Vec<_>>(),
            );
            if p.len() < 2 {
                return Err(Refusal::Skip(format!(
                    "a polyline needs 2 points or more, found {}",
                    p.len()
                )));
            }
            Ok(p.windows(2).map(|w| Local::Segment(w[0], w[1])).collect())
        }
        ObjectShape::Point(..) => Err(Refusal::Skip(
            "a point object has no collision shape".into(),
        )),
        ObjectShape::Text { .. } => {
            Err(Refusal::Skip("a text object has no collision shape".into()))
        }
    }
}

/// The map from a tile's own frame (top-left origin, y down, its box `size`) to where the
/// flips and the tileset's offset put it: diagonal flip first, then horizontal, then vertical.
/// Gives the map and the box after the diagonal flip.
fn flipped(size: DVec2, (h, v, d): (bool, bool, bool), offset: DVec2) -> (Affine, DVec2) {
    let mut m = Affine::IDENTITY;
    let mut bx = size;
    if d {
        m = Affine {
            x: DVec2::Y,
            y: DVec2::X,
            ..Affine::IDENTITY
        };
        bx = DVec2::new(size.y, size.x);
    }
    if h {
        let mirror = Affine {
            x: DVec2::NEG_X,
            origin: DVec2::new(bx.x, 0.0),
            ..Affine::IDENTITY
        };
        m = mirror.then(&m);
    }
    if v {
        let mirror = Affine {
            y: DVec2::NEG_Y,
            origin: DVec2::new(0.0, bx.y),
            ..Affine::IDENTITY
        };
        m = mirror.then(&m);
    }
    (moved(offset).then(&m), bx)
}

/// A scale by `s` per axis.
fn scaled(s: DVec2) -> Affine {
    Affine {
        x: DVec2::new(s.x, 0.0),
        y: DVec2::new(0.0, s.y),
        ..Affine::IDENTITY
    }
}

/// A tile's box: the tileset's tile size, or in an image collection the tile's image (or its
/// sub-rectangle).
fn tile_box(tileset: &Tileset, tile: Option<&tiled::Tile>) -> DVec2 {
    if let Some(tile) = tile {
        if let Some(rect) = &tile.image_rect {
            return DVec2::new(f64::from(rect.width), f64::from(rect.height));
        }
        if let Some(image) = &tile.image {
            return DVec2::new(f64::from(image.width), f64::from(image.height));
        }
    }
    DVec2::new(
        f64::from(tileset.tile_width),
        f64::from(tileset.tile_height),
    )
}

/// The alignment point of a tile object of size (w, h).
fn alignment(a: ObjectAlignment, w: f64, h: f64) -> DVec2 {
    match a {
        ObjectAlignment::TopLeft => DVec2::ZERO,
        ObjectAlignment::Top => DVec2::new(w / 2.0, 0.0),
        ObjectAlignment::TopRight => DVec2::new(w, 0.0),
        ObjectAlignment::Left => DVec2::new(0.0, h / 2.0),
        ObjectAlignment::Center => DVec2::new(w / 2.0, h / 2.0),
        ObjectAlignment::Right => DVec2::new(w, h / 2.0),
        ObjectAlignment::Bottom => DVec2::new(w / 2.0, h),
        ObjectAlignment::BottomRight => DVec2::new(w, h),
        ObjectAlignment::Unspecified | ObjectAlignment::BottomLeft => DVec2::new(0.0, h),
    }
}

struct Walk<'a> {
    out: Outcome,
    file: &'a Path,
    map: &'a Map,
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
    /// the map); named `OWNER/COLLISION`. `None` when the tile has none.
    fn tile_collision(
        &mut self,
        tile: Option<&tiled::Tile>,
        owner: &str,
        place: &str,
        tile_frame: &Affine,
    ) -> Result<bool, FileError> {
        let Some(collision) = tile.and_then(|t| t.collision.as_ref()) else {
            return Ok(false);
        };
        for c in collision.object_data() {
            let frame = tile_frame.then(&object_frame(c, DVec2::ZERO));
            let name = format!("{owner}/{}", label(c));
            let at = format!("{place}, tile collision {}", place_of(c));
            self.approximated(c, &at, &name);
            self.put(&at, &name, local_shapes(c), &frame)?;
        }
        Ok(true)
    }

    /// The note for an ellipse of unequal axes, which becomes a polygon.
    fn approximated(&mut self, o: &ObjectData, place: &str, name: &str) {
        if let ObjectShape::Ellipse { width, height } = o.shape
            && width != height
            && width > 0.0
            && height > 0.0
        {
            self.out.note(
                self.file,
                place.to_string(),
                "approximated: an ellipse of unequal axes becomes the inscribed 32-point polygon (0.64% less area)".into(),
                Some(name.to_string()),
            );
        }
    }

    fn object(&mut self, o: &tiled::Object, offset: DVec2) -> Result<(), FileError> {
        let place = place_of(o);
        let name = label(o);
        let frame = object_frame(o, offset);
        let Some(tile_data) = o.tile_data() else {
            self.approximated(o, &place, &name);
            return self.put(&place, &name, local_shapes(o), &frame);
        };
        let (w, h) = match &o.shape {
            ObjectShape::Rect { width, height } => (f64::from(*width), f64::from(*height)),
            _ => (0.0, 0.0),
        };
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
        let Some(tile) = o.get_tile() else {
            return self.put(&place, &name, local_shapes(o), &frame);
        };
        let tileset: &Tileset = tile.get_tileset();
        let data = tile.get_tile();
        let size = tile_box(tileset, data.as_ref());
        let flips = (tile_data.flip_h, tile_data.flip_v, tile_data.flip_d);
        let offset_t = DVec2::new(f64::from(tileset.offset_x), f64::from(tileset.offset_y));
        let (flip, bx) = flipped(size, flips, offset_t);
        let to_object = moved(-alignment(tileset.object_alignment, w, h))
            .then(&scaled(DVec2::new(w / bx.x, h / bx.y)))
            .then(&flip);
        let tile_frame = frame.then(&to_object);
        if !self.tile_collision(data.as_ref(), &name, &place, &tile_frame)? {
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
            let unflipped = moved(-alignment(tileset.object_alignment, w, h))
                .then(&scaled(DVec2::new(w / bx.x, h / bx.y)));
            self.put(&place, &name, Ok(vec![rect]), &frame.then(&unflipped))?;
        }
        Ok(())
    }

    fn cell(
        &mut self,
        layer: &str,
        (c, r): (i32, i32),
        cell: &LayerTile,
        offset: DVec2,
    ) -> Result<(), FileError> {
        let tileset = cell.get_tileset();
        let tile = cell.get_tile();
        let size = tile_box(tileset, tile.as_ref());
        let offset_t = DVec2::new(f64::from(tileset.offset_x), f64::from(tileset.offset_y));
        let (flip, bx) = flipped(size, (cell.flip_h, cell.flip_v, cell.flip_d), offset_t);
        let (tw, th) = (
            f64::from(self.map.tile_width),
            f64::from(self.map.tile_height),
        );
        let (fit, height) = match tileset.tile_render_size {
            TileRenderSize::Grid => (scaled(DVec2::new(tw / bx.x, th / bx.y)), th),
            TileRenderSize::Tile => (Affine::IDENTITY, bx.y),
        };
        let corner = DVec2::new(f64::from(c) * tw, f64::from(r + 1) * th - height);
        let tile_frame = moved(corner + offset).then(&fit).then(&flip);
        let owner = format!("{layer}[{c},{r}]");
        let place = format!("layer \"{layer}\" cell ({c},{r})");
        self.tile_collision(tile.as_ref(), &owner, &place, &tile_frame)?;
        Ok(())
    }

    fn layers<'m>(
        &mut self,
        layers: impl Iterator<Item = tiled::Layer<'m>>,
        offset: DVec2,
    ) -> Result<(), FileError> {
        for layer in layers {
            let offset = offset + DVec2::new(f64::from(layer.offset_x), f64::from(layer.offset_y));
            let name = if layer.name.is_empty() {
                format!("layer {}", layer.id())
            } else {
                layer.name.clone()
            };
            match layer.layer_type() {
                LayerType::Objects(objects) => {
                    for o in objects.objects() {
                        self.object(&o, offset)?;
                    }
                }
                LayerType::Tiles(TileLayer::Finite(tiles)) => {
                    for r in 0..tiles.height() as i32 {
                        for c in 0..tiles.width() as i32 {
                            if let Some(cell) = tiles.get_tile(c, r) {
                                self.cell(&name, (c, r), &cell, offset)?;
                            }
                        }
                    }
                }
                LayerType::Tiles(TileLayer::Infinite(tiles)) => {
                    let mut cells: Vec<(i32, i32)> = Vec::new();
                    for ((cx, cy), chunk) in tiles.chunks() {
                        let (w, h) = (
                            tiled::ChunkData::WIDTH as i32,
                            tiled::ChunkData::HEIGHT as i32,
                        );
                        for i in 0..w * h {
                            let (x, y) = (cx * w + i % w, cy * h + i / w);
                            if chunk.get_tile(i % w, i / w).is_some() {
                                cells.push((x, y));
                            }
                        }
                    }
                    // Row-major, as a finite layer's.
                    cells.sort_by_key(|&(x, y)| (y, x));
                    for (x, y) in cells {
                        if let Some(cell) = tiles.get_tile(x, y) {
                            self.cell(&name, (x, y), &cell, offset)?;
                        }
                    }
                }
                LayerType::Group(group) => self.layers(group.layers(), offset)?,
                LayerType::Image(_) => {
                    self.out.note(
                        self.file,
                        format!("layer \"{name}\" (image layer)"),
                        "skipped: an image layer has no collision shapes".into(),
                        None,
                    );
                }
            }
        }
        Ok(())
    }
}

/// Reads the map's own bytes when given, and every other file (tilesets, templates) from
/// disk, regular files only (a map naming a device or a folder is refused, not read for ever).
struct Files {
    given: Option<(std::path::PathBuf, Vec<u8>)>,
}

impl tiled::ResourceReader for Files {
    type Resource = std::io::Cursor<Vec<u8>>;
    type Error = std::io::Error;

    fn read_from(&mut self, path: &Path) -> Result<Self::Resource, Self::Error> {
        if let Some((given, bytes)) = &self.given
            && given == path
        {
            return Ok(std::io::Cursor::new(bytes.clone()));
        }
        if !std::fs::metadata(path)?.is_file() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{} is not a file", path.display()),
            ));
        }
        std::fs::read(path).map(std::io::Cursor::new)
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
    if path.extension().is_some_and(|e| e == "tsx") {
        return Err(document(
            path,
            "a tileset, not a map: import the map that uses it".into(),
        ));
    }
    let files = Files {
        given: bytes.map(|b| (path.to_path_buf(), b)),
    };
    let map = tiled::Loader::with_reader(files)
        .load_tmx_map(path)
        .map_err(|e| document(path, e.to_string()))?;
    if map.orientation != Orientation::Orthogonal {
        return Err(document(
            path,
            format!(
                "an {} map: collidoscope imports orthogonal maps only",
                format!("{:?}", map.orientation).to_lowercase()
            ),
        ));
    }
    let mut walk = Walk {
        out: Outcome::new(convert, skip_unsupported),
        file: path,
        map: &map,
    };
    // The tiled crate (0.16) indexes a finite layer's cells without a bounds check: layer
    // data with fewer cells than the layer's width x height panics inside it. Caught here and
    // refused by name, so a truncated map is an error, never a crash.
    let walked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        walk.layers(map.layers(), DVec2::ZERO)
    }));
    match walked {
        Ok(result) => result?,
        Err(_) => {
            return Err(document(
                path,
                "a tile layer's data has fewer cells than its width x height (the map is cut short or edited by hand)".into(),
            ));
        }
    }
    Ok(walk.out.finish())
}
