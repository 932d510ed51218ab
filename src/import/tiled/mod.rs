//! Tiled maps: `.tmx` (XML, with `.tsx` tilesets and `.tx` templates) read through the `tiled`
//! crate, and `.tmj` / `.json` (Tiled's JSON format, with `.tsj` tilesets and `.tj` templates)
//! read by serde structs of our own. Both readers give the same [`model::Map`]; one walk places its
//! object layers (in group layers too), tile objects with their tiles' collision shapes, and
//! tile layers' cells with per-tile collision, each as Tiled itself places it
//! (docs/format.md, "Import", "Tiled maps").

mod data;
mod json;
mod model;
mod xml;

use super::convert::Convert;
use super::{Affine, Imported, Importing, Local, Refusal};
use crate::files::FileError;
use crate::geometry::DVec2;
use model::{Cell, Flips, Layer, LayerKind, Object, Shape, TileRef, document};
use std::path::Path;

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

struct Walk<'a> {
    out: Importing,
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
        // A tile's collision objects from a Tiled before 0.11 have no ids: each takes the next
        // free id in the tile's order, as Tiled gives them.
        let mut next = collision.iter().map(|c| c.id).max().unwrap_or(0);
        for c in collision {
            let frame = tile_frame.then(&c.frame(DVec2::ZERO));
            let id = if c.id == 0 {
                next = next.saturating_add(1);
                next
            } else {
                c.id
            };
            let label = c.label_as(id);
            let name = format!("{owner}/{label}");
            let at = format!("{place}, tile collision {}", c.place_as(id, &label));
            self.put(&at, &name, c.local_shapes(), &frame)?;
            self.approximated(c, &at, &name);
        }
        Ok(!collision.is_empty())
    }

    /// The note for an ellipse of unequal axes, which became a polygon (the shape placed last).
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
        let name = o.label();
        let place = o.place_as(o.id, &name);
        let frame = o.frame(offset);
        let Some(tile) = &o.tile else {
            self.put(&place, &name, o.local_shapes(), &frame)?;
            self.approximated(o, &place, &name);
            return Ok(());
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
        Some("tmx") => xml::read(path, bytes, json::tileset_file)?,
        _ => json::read(path, bytes, xml::tsx)?,
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
    let mut layers = map.layers;
    number_objects(&mut layers);
    let mut walk = Walk {
        out: Importing::new(convert, skip_unsupported),
        file: path,
        grid: map.grid,
    };
    walk.layers(&layers, DVec2::ZERO)?;
    Ok(walk.out.finish())
}

/// Give every object without an id (maps from Tiled before 0.11 wrote none) one, as Tiled does
/// when it opens such a map: the next free id, in the map's order.
fn number_objects(layers: &mut [Layer]) {
    fn most(layers: &[Layer]) -> u32 {
        layers
            .iter()
            .map(|l| match &l.kind {
                LayerKind::Objects(objects) => objects.iter().map(|o| o.id).max().unwrap_or(0),
                LayerKind::Group(inner) => most(inner),
                LayerKind::Tiles(_) | LayerKind::Image => 0,
            })
            .max()
            .unwrap_or(0)
    }
    fn give(layers: &mut [Layer], next: &mut u32) {
        for layer in layers {
            match &mut layer.kind {
                LayerKind::Objects(objects) => {
                    for o in objects.iter_mut().filter(|o| o.id == 0) {
                        o.id = *next;
                        *next = next.saturating_add(1);
                    }
                }
                LayerKind::Group(inner) => give(inner, next),
                LayerKind::Tiles(_) | LayerKind::Image => {}
            }
        }
    }
    let mut next = most(layers).saturating_add(1);
    give(layers, &mut next);
}
