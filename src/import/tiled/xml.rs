//! `.tmx` maps (with their `.tsx` tilesets and `.tx` templates) read through the `tiled` crate
//! and turned into the import's [`Map`].
//!
//! Every tile layer's `<data>` is read here, not by the crate: `<tile gid="…"/>` elements
//! (which the crate does not read), CSV, base64 and its compressions, in layers and in an
//! infinite map's chunks; data that does not fill its layer or chunk is refused by name (the
//! crate 0.16 would index past the end of a short layer). Only the cells that hold a tile are
//! kept (the crate keeps every cell: 4.2 GB for an empty 8192 x 8192 layer, and a chunk near
//! column 2^31 overflowed its sums and came out empty); the crate sees each layer's data as
//! one empty cell, and the gids are resolved against the map's tilesets as the crate would.

use super::data::{Gids, decode, gid, wrong_count};
use super::model::{
    Alignment, Cell, Flips, Layer, LayerKind, Map, Object, Shape, Tile, TileRef, Tileset,
    TilesetReader, beside, document, grid_tiles, no_such_tile,
};
use crate::files::FileError;
use crate::geometry::DVec2;
use quick_xml::events::{BytesStart, Event};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The map at `path` (its bytes when given); the JSON tilesets it names read by
/// `json_tileset`.
pub(super) fn read(
    path: &Path,
    bytes: Option<Vec<u8>>,
    json_tileset: TilesetReader,
) -> Result<Map, FileError> {
    let given = bytes.map(|b| (path.to_path_buf(), b));
    let raw = crate::import::read_file(path, given.as_ref())?;
    let normal = normalise(&raw).map_err(|e| document(path, e))?;
    let mut model = Model {
        tile_layers: normal.tile_layers.into_iter(),
        first_gids: normal.first_gids,
        ..Model::default()
    };
    for source in normal.json_tilesets {
        let tileset = json_tileset(&beside(path, &source))?;
        model
            .substitutes
            .insert(format!("{JSON_TILESET}{source}"), tileset);
    }
    for source in normal.xml_tilesets {
        // Read alone first, so that a tileset the crate refuses is named in its message (the
        // crate's own messages name no file).
        let file = beside(path, &source);
        tiled::Loader::with_reader(Files { given: None })
            .load_tsx_tileset(&file)
            .map_err(|e| document(&file, e.to_string()))?;
    }
    let files = Files {
        given: Some((path.to_path_buf(), normal.bytes)),
    };
    let map = tiled::Loader::with_reader(files)
        .load_tmx_map(path)
        .map_err(|e| document(path, e.to_string()))?;
    model.map(&map)
}

/// The name a JSON tileset named by an XML map stands under while the crate reads the map
/// (which reads XML tilesets only): `normalise` writes an empty tileset of this name, followed
/// by the file's path, and the model puts the JSON tileset, read here, in its place.
const JSON_TILESET: &str = "collidoscope: JSON tileset ";

/// An XML tileset (`.tsx`) named by a JSON map.
pub(super) fn tsx(path: &Path) -> Result<Rc<Tileset>, FileError> {
    let tileset = tiled::Loader::with_reader(Files { given: None })
        .load_tsx_tileset(path)
        .map_err(|e| document(path, e.to_string()))?;
    Ok(Model::default().tileset(&tileset))
}

/// Reads the map's own (normalised) bytes, and every other file (tilesets, templates) from
/// disk, regular files only.
struct Files {
    given: Option<(PathBuf, Vec<u8>)>,
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
        let raw = std::fs::read(path)?;
        if path.extension().is_some_and(|e| e == "tsx") {
            // A tileset from before Tiled 0.13 has no `tilecount` (see `normalise`).
            let normal = normalise(&raw).map_err(|e| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("{}: {e}", path.display()),
                )
            })?;
            return Ok(std::io::Cursor::new(normal.bytes));
        }
        Ok(std::io::Cursor::new(raw))
    }
}

/// An attribute's value, if the element has it.
fn attribute(e: &BytesStart, key: &str) -> Option<String> {
    e.attributes()
        .flatten()
        .find(|a| a.key.as_ref() == key.as_bytes())
        .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
}

/// A whole-number attribute (absent: 0).
fn count(e: &BytesStart, key: &str) -> Result<u64, String> {
    match attribute(e, key) {
        None => Ok(0),
        Some(v) => v
            .trim()
            .parse::<u64>()
            .map_err(|_| format!("{key}=\"{v}\" is not a whole number")),
    }
}

/// One `<data>` or `<chunk>` being gathered: its text and its `<tile>` elements.
#[derive(Default)]
struct Gathered {
    text: String,
    tiles: Vec<u32>,
    elements: bool,
}

/// A `<data>` element being read: where it starts in the file, how it is encoded, its own
/// content and its chunks' (each with x, y, width, height).
struct Data {
    start: usize,
    encoding: Option<String>,
    compression: Option<String>,
    own: Gathered,
    chunks: Vec<((i64, i64, u64, u64), Gathered)>,
    in_chunk: bool,
}

impl Data {
    /// Where text and `<tile>` elements go: the open chunk, else the data itself.
    fn target(&mut self) -> &mut Gathered {
        match self.chunks.last_mut() {
            Some((_, chunk)) if self.in_chunk => chunk,
            _ => &mut self.own,
        }
    }

    /// A `<tile>` or `<chunk>` inside; `opens` when it has content of its own.
    fn element(&mut self, e: &BytesStart, opens: bool) -> Result<(), String> {
        match e.name().as_ref() {
            b"tile" => {
                let g = attribute(e, "gid").map_or(Ok(0), |v| gid(v.trim()))?;
                let target = self.target();
                target.tiles.push(g);
                target.elements = true;
            }
            b"chunk" => {
                let at = |k| match attribute(e, k) {
                    None => Ok(0),
                    Some(v) => v
                        .trim()
                        .parse::<i64>()
                        .map_err(|_| format!("chunk {k}=\"{v}\" is not a whole number")),
                };
                let size = |k| count(e, k).map_err(|m| format!("chunk {m}"));
                let key = (at("x")?, at("y")?, size("width")?, size("height")?);
                self.chunks.push((key, Gathered::default()));
                self.in_chunk = opens;
            }
            _ => {}
        }
        Ok(())
    }

    /// The gids of `g`, decoded as this data says; its `<tile>` elements when it has no
    /// encoding.
    fn gids(&self, g: &Gathered, cells: u64) -> Result<Gids, String> {
        match &self.encoding {
            None if g.elements || g.text.trim().is_empty() => Ok(Gids::of(g.tiles.iter().copied())),
            None => Err("tile data without an encoding holds text, not <tile> elements".into()),
            Some(e) => decode(e, self.compression.as_deref().unwrap_or(""), &g.text, cells),
        }
    }

    /// The cells that hold a tile (column, row, gid), every layer's (`size`) or chunk's cell
    /// count checked.
    fn cells(&self, size: (u64, u64)) -> Result<Vec<Filled>, String> {
        let mut out = Vec::new();
        let mut put = |gids: Gids, (x, y): (i64, i64), width: u64| {
            out.extend(gids.filled.into_iter().map(|(i, gid)| {
                // Both below 2^64 / 2 (a chunk's size is a u64 read from the file, but its
                // data fills it): i64 holds the sums for any map that was read.
                let c = x.saturating_add((i % width) as i64);
                let r = y.saturating_add((i / width) as i64);
                ((c, r), gid)
            }));
        };
        if self.chunks.is_empty() {
            let (w, h) = size;
            let gids = self.gids(&self.own, w.saturating_mul(h))?;
            if gids.count != w.saturating_mul(h) {
                return Err(wrong_count(gids.count, w, h));
            }
            put(gids, (0, 0), w);
        } else {
            for ((x, y, w, h), g) in &self.chunks {
                let at = format!("chunk at ({x},{y})");
                let gids = self
                    .gids(g, w.saturating_mul(*h))
                    .map_err(|m| format!("{at}: {m}"))?;
                if gids.count != w.saturating_mul(*h) {
                    return Err(format!("{at}: {}", wrong_count(gids.count, *w, *h)));
                }
                put(gids, (*x, *y), *w);
            }
        }
        Ok(out)
    }
}

/// A cell that holds a tile: its column and row, and its gid with the flip bits.
type Filled = ((i64, i64), u32);

/// The map's bytes with every tile layer's `<data>` read into the cells that hold a tile and
/// written back as one empty cell (see the module's note), every
/// JSON tileset it names standing in as an empty one ([`JSON_TILESET`]), and every tileset
/// without a `tilecount` (Tiled wrote none before 0.13; the crate requires it) given
/// `tilecount="0"`, its tiles then counted from its image's grid as Tiled counts them
/// ([`super::grid_tiles`]); everything else byte for byte as it was. Gives the JSON tilesets'
/// paths too. A tileset file (`.tsx`) goes through the same.
fn normalise(raw: &[u8]) -> Result<Normal, String> {
    let mut reader = quick_xml::Reader::from_reader(raw);
    let line = |at: usize| {
        raw[..at.min(raw.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    };
    let mut out: Vec<u8> = Vec::with_capacity(raw.len());
    let mut copied = 0;
    // The tile layer we are in: its label and size.
    let mut layer: (String, u64, u64) = Default::default();
    let mut data: Option<Data> = None;
    let mut json_tilesets = Vec::new();
    let mut xml_tilesets = Vec::new();
    let mut tile_layers: Vec<Vec<Filled>> = Vec::new();
    let mut first_gids = Vec::new();
    let mut in_layer = false;
    loop {
        let before = reader.buffer_position();
        let event = reader
            .read_event()
            .map_err(|e| format!("line {}: {e}", line(reader.buffer_position())))?;
        let at =
            |layer: &(String, u64, u64)| format!("line {}: layer \"{}\"", line(before), layer.0);
        let within = |m: String| format!("{}: {m}", at(&layer));
        if let (Event::Start(e) | Event::Empty(e), None) = (&event, &data)
            && e.name().as_ref() == b"tileset"
        {
            // The map's tilesets in order, as the crate finds a gid's: the last whose first
            // gid is not past it.
            let first = attribute(e, "firstgid").and_then(|v| v.trim().parse::<u32>().ok());
            first_gids.push(first.unwrap_or(0));
        }
        match (event, &mut data) {
            (Event::Eof, _) => break,
            (Event::Start(e), Some(d)) => d.element(&e, true).map_err(within)?,
            (Event::Empty(e), Some(d)) => d.element(&e, false).map_err(within)?,
            (Event::Text(t), Some(d)) => {
                let text = t.unescape().map_err(|e| within(e.to_string()))?;
                d.target().text.push_str(&text);
            }
            (Event::CData(t), Some(d)) => {
                d.target().text.push_str(&String::from_utf8_lossy(&t));
            }
            (Event::End(e), Some(d)) if e.name().as_ref() == b"chunk" => d.in_chunk = false,
            (Event::End(e), Some(d)) if e.name().as_ref() == b"data" => {
                let cells = d.cells((layer.1, layer.2)).map_err(within)?;
                if in_layer && let Some(kept) = tile_layers.last_mut() {
                    *kept = cells;
                }
                out.extend_from_slice(&raw[copied..d.start]);
                out.extend_from_slice(b"<data encoding=\"csv\">0</data>");
                copied = reader.buffer_position();
                data = None;
            }
            (Event::Empty(e), None) if e.name().as_ref() == b"layer" => {
                tile_layers.push(Vec::new())
            }
            (Event::End(e), None) if e.name().as_ref() == b"layer" => in_layer = false,
            (Event::Start(e), None) if e.name().as_ref() == b"layer" => {
                let name = attribute(&e, "name").filter(|n| !n.is_empty());
                let name = name.unwrap_or_else(|| {
                    format!("layer {}", attribute(&e, "id").unwrap_or_default())
                });
                let here = format!("line {}: layer \"{name}\"", line(before));
                let size = |k| count(&e, k).map_err(|m| format!("{here}: {m}"));
                layer = (name.clone(), size("width")?, size("height")?);
                tile_layers.push(Vec::new());
                in_layer = true;
            }
            (Event::Start(e), None) if e.name().as_ref() == b"data" => {
                data = Some(Data {
                    start: before,
                    encoding: attribute(&e, "encoding"),
                    compression: attribute(&e, "compression"),
                    own: Gathered::default(),
                    chunks: Vec::new(),
                    in_chunk: false,
                });
            }
            (Event::Start(e) | Event::Empty(e), None)
                if e.name().as_ref() == b"tileset"
                    && attribute(&e, "source").is_none()
                    && attribute(&e, "tilecount").is_none() =>
            {
                let at = before + "<tileset".len();
                out.extend_from_slice(&raw[copied..at]);
                out.extend_from_slice(b" tilecount=\"0\"");
                copied = at;
            }
            (Event::Empty(e), None) if e.name().as_ref() == b"tileset" => {
                let json = |s: &String| s.ends_with(".json") || s.ends_with(".tsj");
                let source = attribute(&e, "source");
                if let Some(source) = source.clone().filter(|s| !json(s)) {
                    xml_tilesets.push(source);
                }
                if let Some(source) = source.filter(json) {
                    let first = attribute(&e, "firstgid").unwrap_or_default();
                    let stand_in = format!(
                        "<tileset firstgid=\"{}\" name=\"{}\" tilewidth=\"1\" tileheight=\"1\" tilecount=\"0\" columns=\"0\"/>",
                        escape(&first),
                        escape(&format!("{JSON_TILESET}{source}"))
                    );
                    out.extend_from_slice(&raw[copied..before]);
                    out.extend_from_slice(stand_in.as_bytes());
                    copied = reader.buffer_position();
                    json_tilesets.push(source);
                }
            }
            (Event::Empty(e), None)
                if e.name().as_ref() == b"data" && layer.1.saturating_mul(layer.2) > 0 =>
            {
                return Err(within(wrong_count(0, layer.1, layer.2)));
            }
            _ => {}
        }
    }
    out.extend_from_slice(&raw[copied..]);
    Ok(Normal {
        bytes: out,
        json_tilesets,
        xml_tilesets,
        tile_layers,
        first_gids,
    })
}

/// A map or tileset as [`normalise`] gives it back.
struct Normal {
    bytes: Vec<u8>,
    /// The JSON tilesets it names (standing in as empty ones), as written.
    json_tilesets: Vec<String>,
    /// The XML tilesets it names, as written.
    xml_tilesets: Vec<String>,
    /// Each `<layer>`'s cells that hold a tile, in the order of the file.
    tile_layers: Vec<Vec<Filled>>,
    /// The first gid of each of the map's tilesets, in order.
    first_gids: Vec<u32>,
}

/// Text as an XML attribute value.
fn escape(text: &str) -> String {
    quick_xml::escape::escape(text).into_owned()
}

/// The crate's map turned into the import's: each tileset converted once.
#[derive(Default)]
struct Model {
    tilesets: HashMap<*const tiled::Tileset, Rc<Tileset>>,
    /// The JSON tilesets, by the name their stand-ins have.
    substitutes: HashMap<String, Rc<Tileset>>,
    /// The tile layers' cells, in the order the crate gives the layers (the file's).
    tile_layers: std::vec::IntoIter<Vec<Filled>>,
    /// See [`Normal::first_gids`].
    first_gids: Vec<u32>,
}

fn point((x, y): (f32, f32)) -> DVec2 {
    DVec2::new(f64::from(x), f64::from(y))
}

impl Model {
    fn map(mut self, map: &tiled::Map) -> Result<Map, FileError> {
        let orientation = format!("{:?}", map.orientation).to_lowercase();
        let layers = self.layers(map, map.layers())?;
        Ok(Map {
            orientation,
            grid: DVec2::new(f64::from(map.tile_width), f64::from(map.tile_height)),
            layers,
        })
    }

    fn tileset(&mut self, t: &tiled::Tileset) -> Rc<Tileset> {
        if let Some(done) = self.tilesets.get(&(t as *const _)) {
            return done.clone();
        }
        if let Some(json) = self.substitutes.get(&t.name) {
            return json.clone();
        }
        let tiles = t
            .tiles()
            .map(|(id, tile)| {
                let size = tile
                    .image_rect
                    .as_ref()
                    .map(|r| DVec2::new(f64::from(r.width), f64::from(r.height)))
                    .or_else(|| {
                        tile.image
                            .as_ref()
                            .map(|i| DVec2::new(f64::from(i.width), f64::from(i.height)))
                    });
                let collision = tile
                    .collision
                    .as_ref()
                    .map(|c| {
                        c.object_data()
                            .iter()
                            .map(|o| self.object(o, None))
                            .collect()
                    })
                    .unwrap_or_default();
                (id, Tile { size, collision })
            })
            .collect();
        let converted = Rc::new(Tileset {
            name: t.name.clone(),
            tile: DVec2::new(f64::from(t.tile_width), f64::from(t.tile_height)),
            offset: DVec2::new(f64::from(t.offset_x), f64::from(t.offset_y)),
            alignment: match t.object_alignment {
                tiled::ObjectAlignment::Unspecified => Alignment::Unspecified,
                tiled::ObjectAlignment::TopLeft => Alignment::TopLeft,
                tiled::ObjectAlignment::Top => Alignment::Top,
                tiled::ObjectAlignment::TopRight => Alignment::TopRight,
                tiled::ObjectAlignment::Left => Alignment::Left,
                tiled::ObjectAlignment::Center => Alignment::Center,
                tiled::ObjectAlignment::Right => Alignment::Right,
                tiled::ObjectAlignment::BottomLeft => Alignment::BottomLeft,
                tiled::ObjectAlignment::Bottom => Alignment::Bottom,
                tiled::ObjectAlignment::BottomRight => Alignment::BottomRight,
            },
            grid_render: t.tile_render_size == tiled::TileRenderSize::Grid,
            count: t.tilecount,
            grid: t.image.as_ref().map_or(0, |image| {
                grid_tiles(
                    DVec2::new(f64::from(image.width), f64::from(image.height)),
                    DVec2::new(f64::from(t.tile_width), f64::from(t.tile_height)),
                    f64::from(t.margin),
                    f64::from(t.spacing),
                )
            }),
            tiles,
        });
        self.tilesets.insert(t as *const _, converted.clone());
        converted
    }

    /// An object; a tile object's tile through `tile` (its tileset and the gid's tile data).
    fn object(
        &mut self,
        o: &tiled::ObjectData,
        tile: Option<(&tiled::Tileset, tiled::ObjectTileData)>,
    ) -> Object {
        use tiled::ObjectShape as S;
        let shape = match &o.shape {
            S::Rect { width, height } => Shape::Rect(point((*width, *height))),
            S::Ellipse { width, height } => Shape::Ellipse(point((*width, *height))),
            S::Capsule { width, height } => Shape::Capsule(point((*width, *height))),
            S::Polygon { points } => Shape::Polygon(points.iter().copied().map(point).collect()),
            S::Polyline { points } => Shape::Polyline(points.iter().copied().map(point).collect()),
            S::Point(..) => Shape::Point,
            S::Text { .. } => Shape::Text,
        };
        let tile = tile.map(|(tileset, data)| TileRef {
            tileset: self.tileset(tileset),
            id: data.id(),
            flips: Flips {
                h: data.flip_h,
                v: data.flip_v,
                d: data.flip_d,
            },
        });
        Object {
            id: o.id(),
            name: o.name.clone(),
            class: o.user_type.clone(),
            at: point((o.x, o.y)),
            rotation: f64::from(o.rotation),
            shape,
            tile,
        }
    }

    /// The cell at `at` holding `bits` (a gid with its flip bits), resolved as the crate
    /// resolves a layer's gids; `None` for a gid before every tileset's first.
    fn cell(
        &mut self,
        map: &tiled::Map,
        ((c, r), bits): Filled,
        layer: &str,
    ) -> Result<Option<Cell>, String> {
        let (Ok(c), Ok(r)) = (i32::try_from(c), i32::try_from(r)) else {
            return Err(format!("layer \"{layer}\" cell ({c},{r}) is out of range"));
        };
        const FLIPS: u32 = 0x8000_0000 | 0x4000_0000 | 0x2000_0000;
        let gid = bits & !FLIPS;
        let Some((k, first)) = self
            .first_gids
            .iter()
            .enumerate()
            .rev()
            .find(|(_, first)| **first <= gid)
            .map(|(k, first)| (k, *first))
        else {
            return Ok(None);
        };
        let Some(tileset) = map.tilesets().get(k) else {
            return Ok(None);
        };
        let tileset = self.tileset(tileset);
        let id = gid - first;
        if !tileset.holds(id) {
            return Err(format!(
                "layer \"{layer}\" cell ({c},{r}): {}",
                no_such_tile(&tileset, id)
            ));
        }
        Ok(Some(Cell {
            at: (c, r),
            tile: TileRef {
                tileset,
                id,
                flips: Flips {
                    h: bits & 0x8000_0000 != 0,
                    v: bits & 0x4000_0000 != 0,
                    d: bits & 0x2000_0000 != 0,
                },
            },
        }))
    }

    fn layers<'m>(
        &mut self,
        map: &'m tiled::Map,
        layers: impl Iterator<Item = tiled::Layer<'m>>,
    ) -> Result<Vec<Layer>, FileError> {
        let fail = |m: String| document(&map.source, m);
        let mut out = Vec::new();
        for layer in layers {
            let name = if layer.name.is_empty() {
                format!("layer {}", layer.id())
            } else {
                layer.name.clone()
            };
            let kind = match layer.layer_type() {
                tiled::LayerType::Objects(objects) => {
                    let mut list = Vec::new();
                    for o in objects.objects() {
                        let tile = o.tile_data().map(|data| {
                            let tileset = match data.tileset_location() {
                                tiled::TilesetLocation::Map(i) => map.tilesets()[*i].clone(),
                                tiled::TilesetLocation::Template(t) => t.clone(),
                            };
                            (tileset, data)
                        });
                        let converted =
                            self.object(&o, tile.as_ref().map(|(t, d)| (&**t, d.clone())));
                        if let Some(t) = &converted.tile
                            && !t.tileset.holds(t.id)
                        {
                            return Err(fail(format!(
                                "{}: {}",
                                converted.place(),
                                no_such_tile(&t.tileset, t.id)
                            )));
                        }
                        list.push(converted);
                    }
                    LayerKind::Objects(list)
                }
                tiled::LayerType::Tiles(_) => {
                    // Read from the file's <data> (see `normalise`), finite or infinite.
                    let mut cells = Vec::new();
                    for filled in self.tile_layers.next().unwrap_or_default() {
                        if let Some(cell) = self.cell(map, filled, &name).map_err(fail)? {
                            cells.push(cell);
                        }
                    }
                    // Row-major, chunks or not.
                    cells.sort_by_key(|c| (c.at.1, c.at.0));
                    LayerKind::Tiles(cells)
                }
                tiled::LayerType::Group(group) => {
                    LayerKind::Group(self.layers(map, group.layers())?)
                }
                tiled::LayerType::Image(_) => LayerKind::Image,
            };
            out.push(Layer {
                name,
                offset: point((layer.offset_x, layer.offset_y)),
                kind,
            });
        }
        Ok(out)
    }
}
