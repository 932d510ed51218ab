//! Tiled's JSON format: maps (`.tmj`, `.json`), tilesets (`.tsj`, `.json`, or an XML `.tsx`
//! read through the `tiled` crate) and templates (`.tj`, `.json`), read by serde structs of
//! our own (the crate has no JSON loader) into the import's [`Map`]. Every key is optional,
//! as Tiled leaves defaults out; the keys import does not use are ignored.

use super::data::{Gids, decode, wrong_count};
use super::model::{
    Alignment, Cell, Flips, Layer, LayerKind, Map, Object, Shape, Tile, TileRef, Tileset,
    TilesetReader, beside, document, grid_tiles, no_such_tile,
};
use crate::files::FileError;
use crate::geometry::DVec2;
use serde::Deserialize;
use serde::de::{DeserializeOwned, IgnoredAny};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

#[derive(Deserialize, Default)]
#[serde(default)]
struct JMap {
    #[serde(rename = "type")]
    kind: Option<String>,
    orientation: Option<String>,
    tilewidth: f64,
    tileheight: f64,
    layers: Option<Vec<JLayer>>,
    tilesets: Vec<JTileset>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct JLayer {
    #[serde(rename = "type")]
    kind: String,
    id: u32,
    name: String,
    offsetx: f64,
    offsety: f64,
    width: u64,
    height: u64,
    data: Option<JData>,
    encoding: Option<String>,
    compression: Option<String>,
    chunks: Option<Vec<JChunk>>,
    objects: Vec<JObject>,
    layers: Vec<JLayer>,
}

/// A layer's or chunk's data: gids (CSV), or a base64 string.
#[derive(Deserialize)]
#[serde(untagged)]
enum JData {
    Gids(Vec<u32>),
    Text(String),
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct JChunk {
    x: i64,
    y: i64,
    width: u64,
    height: u64,
    data: Option<JData>,
}

#[derive(Deserialize, Clone, Copy)]
struct JPoint {
    x: f64,
    y: f64,
}

/// An object; every key optional so that a template instance says only what it overrides.
#[derive(Deserialize, Default, Clone)]
#[serde(default)]
struct JObject {
    id: Option<u32>,
    name: Option<String>,
    /// The class (Tiled before 1.9, and again from 1.10).
    #[serde(rename = "type")]
    kind: Option<String>,
    /// The class (Tiled 1.9).
    class: Option<String>,
    x: Option<f64>,
    y: Option<f64>,
    width: Option<f64>,
    height: Option<f64>,
    rotation: Option<f64>,
    gid: Option<u32>,
    ellipse: Option<bool>,
    point: Option<bool>,
    capsule: Option<bool>,
    polygon: Option<Vec<JPoint>>,
    polyline: Option<Vec<JPoint>>,
    text: Option<IgnoredAny>,
    template: Option<String>,
}

impl JObject {
    /// The instance's own keys over the template's.
    fn over(self, template: JObject) -> JObject {
        JObject {
            id: self.id.or(template.id),
            name: self.name.or(template.name),
            kind: self.kind.or(template.kind),
            class: self.class.or(template.class),
            x: self.x.or(template.x),
            y: self.y.or(template.y),
            width: self.width.or(template.width),
            height: self.height.or(template.height),
            rotation: self.rotation.or(template.rotation),
            gid: self.gid.or(template.gid),
            ellipse: self.ellipse.or(template.ellipse),
            point: self.point.or(template.point),
            capsule: self.capsule.or(template.capsule),
            polygon: self.polygon.or(template.polygon),
            polyline: self.polyline.or(template.polyline),
            text: self.text.or(template.text),
            template: None,
        }
    }
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct JTileset {
    #[serde(rename = "type")]
    kind: Option<String>,
    firstgid: u32,
    source: Option<String>,
    name: String,
    tilewidth: f64,
    tileheight: f64,
    tilecount: u32,
    imagewidth: f64,
    imageheight: f64,
    margin: f64,
    spacing: f64,
    tileoffset: Option<JPoint>,
    objectalignment: Option<String>,
    tilerendersize: Option<String>,
    tiles: Vec<JTile>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct JTile {
    id: u32,
    imagewidth: Option<f64>,
    imageheight: Option<f64>,
    /// The tile's sub-rectangle of its image (Tiled 1.9).
    width: Option<f64>,
    height: Option<f64>,
    objectgroup: Option<JObjectGroup>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct JObjectGroup {
    objects: Vec<JObject>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct JTemplate {
    #[serde(rename = "type")]
    kind: Option<String>,
    object: Option<JObject>,
    tileset: Option<JTileset>,
}

/// A JSON file of `path` as `T`; its bytes when `given` names it.
fn parse<T: DeserializeOwned>(
    path: &Path,
    given: Option<&(PathBuf, Vec<u8>)>,
) -> Result<T, FileError> {
    let bytes = crate::import::read_file(path, given)?;
    let text = crate::import::text_of(path, &bytes)?;
    serde_json::from_str(text).map_err(|e| FileError::new(path, crate::files::syntax_problem(e)))
}

/// A map's tilesets: each with its first gid, in the map's order.
type Tilesets = Vec<(u32, Rc<Tileset>)>;

/// Reads a map and the tilesets and templates it names, each once.
struct Reader<'a> {
    map: &'a Path,
    given: Option<(PathBuf, Vec<u8>)>,
    /// Reads an XML tileset (`.tsx`) the map names.
    xml_tileset: Option<TilesetReader>,
    tilesets: HashMap<PathBuf, Rc<Tileset>>,
    templates: HashMap<PathBuf, Rc<(JObject, Tilesets)>>,
}

/// The map at `path` (its bytes when given); the XML tilesets it names read by `xml_tileset`.
pub(super) fn read(
    path: &Path,
    bytes: Option<Vec<u8>>,
    xml_tileset: TilesetReader,
) -> Result<Map, FileError> {
    let mut reader = Reader {
        map: path,
        given: bytes.map(|b| (path.to_path_buf(), b)),
        xml_tileset: Some(xml_tileset),
        tilesets: HashMap::new(),
        templates: HashMap::new(),
    };
    let map: JMap = parse(path, reader.given.as_ref())?;
    match map.kind.as_deref() {
        Some("map") => {}
        Some("tileset") => {
            return Err(document(
                path,
                "a tileset, not a map: import the map that uses it".into(),
            ));
        }
        Some("template") => {
            return Err(document(
                path,
                "a template, not a map: import the map that uses it".into(),
            ));
        }
        // Files older than the "type" key: a map has layers and an orientation.
        None if map.layers.is_some() && map.orientation.is_some() => {}
        _ => {
            return Err(document(
                path,
                "not a Tiled map (a JSON map has \"type\": \"map\")".into(),
            ));
        }
    }
    let tilesets = reader.tilesets(path, map.tilesets)?;
    let layers = reader.layers(&tilesets, map.layers.unwrap_or_default())?;
    Ok(Map {
        orientation: map.orientation.unwrap_or_else(|| "orthogonal".into()),
        grid: DVec2::new(map.tilewidth, map.tileheight),
        layers,
    })
}

/// A JSON tileset named by an XML map.
pub(super) fn tileset_file(path: &Path) -> Result<Rc<Tileset>, FileError> {
    Reader {
        map: path,
        given: None,
        xml_tileset: None,
        tilesets: HashMap::new(),
        templates: HashMap::new(),
    }
    .external(path)
}

impl Reader<'_> {
    fn fail(&self, message: String) -> FileError {
        document(self.map, message)
    }

    /// The tilesets `from` lists, external ones read from beside it.
    fn tilesets(&mut self, from: &Path, list: Vec<JTileset>) -> Result<Tilesets, FileError> {
        let mut out = Vec::new();
        for t in list {
            let first = t.firstgid;
            let tileset = match &t.source {
                Some(source) => self.external(&beside(from, source))?,
                None => Rc::new(self.tileset(from, t)?),
            };
            out.push((first, tileset));
        }
        Ok(out)
    }

    /// An external tileset: JSON, or XML (`.tsx`) through the `tiled` crate.
    fn external(&mut self, path: &Path) -> Result<Rc<Tileset>, FileError> {
        if let Some(done) = self.tilesets.get(path) {
            return Ok(done.clone());
        }
        let tileset = if path.extension().is_some_and(|e| e == "tsx") {
            match self.xml_tileset {
                Some(read) => read(path)?,
                None => {
                    return Err(document(
                        path,
                        "an XML tileset named by a JSON tileset: not a thing Tiled writes".into(),
                    ));
                }
            }
        } else {
            let t: JTileset = parse(path, None)?;
            if t.kind.as_deref().is_some_and(|k| k != "tileset") {
                return Err(document(path, "not a Tiled tileset".into()));
            }
            Rc::new(self.tileset(path, t)?)
        };
        self.tilesets.insert(path.to_path_buf(), tileset.clone());
        Ok(tileset)
    }

    fn tileset(&mut self, file: &Path, t: JTileset) -> Result<Tileset, FileError> {
        let alignment = match t.objectalignment.as_deref().unwrap_or("unspecified") {
            "unspecified" => Alignment::Unspecified,
            "topleft" => Alignment::TopLeft,
            "top" => Alignment::Top,
            "topright" => Alignment::TopRight,
            "left" => Alignment::Left,
            "center" => Alignment::Center,
            "right" => Alignment::Right,
            "bottomleft" => Alignment::BottomLeft,
            "bottom" => Alignment::Bottom,
            "bottomright" => Alignment::BottomRight,
            other => {
                return Err(document(
                    file,
                    format!(
                        "tileset \"{}\": objectalignment \"{other}\" is not one of Tiled's",
                        t.name
                    ),
                ));
            }
        };
        let mut tiles = HashMap::new();
        for tile in t.tiles {
            let size = match (tile.width, tile.height, tile.imagewidth, tile.imageheight) {
                (Some(w), Some(h), _, _) | (_, _, Some(w), Some(h)) => Some(DVec2::new(w, h)),
                _ => None,
            };
            let mut collision = Vec::new();
            for o in tile.objectgroup.map(|g| g.objects).unwrap_or_default() {
                collision.push(self.object(file, &Vec::new(), o)?);
            }
            tiles.insert(tile.id, Tile { size, collision });
        }
        Ok(Tileset {
            name: t.name,
            tile: DVec2::new(t.tilewidth, t.tileheight),
            offset: t.tileoffset.map_or(DVec2::ZERO, |p| DVec2::new(p.x, p.y)),
            alignment,
            grid_render: t.tilerendersize.as_deref() == Some("grid"),
            count: t.tilecount,
            grid: grid_tiles(
                DVec2::new(t.imagewidth, t.imageheight),
                DVec2::new(t.tilewidth, t.tileheight),
                t.margin,
                t.spacing,
            ),
            tiles,
        })
    }

    /// A template (`.tj`, `.json`): its object and its tilesets.
    fn template(&mut self, path: &Path) -> Result<Rc<(JObject, Tilesets)>, FileError> {
        if let Some(done) = self.templates.get(path) {
            return Ok(done.clone());
        }
        let t: JTemplate = parse(path, None)?;
        if t.kind.as_deref().is_some_and(|k| k != "template") {
            return Err(document(path, "not a Tiled template".into()));
        }
        let Some(object) = t.object else {
            return Err(document(path, "a template without an \"object\"".into()));
        };
        let tilesets = self.tilesets(path, t.tileset.into_iter().collect())?;
        let done = Rc::new((object, tilesets));
        self.templates.insert(path.to_path_buf(), done.clone());
        Ok(done)
    }

    /// A gid resolved in `tilesets`.
    fn tile(&self, tilesets: &Tilesets, gid: u32) -> Result<Option<TileRef>, String> {
        let (flips, bare) = Flips::split(gid);
        if bare == 0 {
            return Ok(None);
        }
        let Some((first, tileset)) = tilesets.iter().rev().find(|(first, _)| *first <= bare) else {
            return Err(match tilesets.first() {
                Some((first, t)) => format!(
                    "gid {bare} is in no tileset (the first, \"{}\", starts at gid {first})",
                    t.name
                ),
                None => format!("gid {bare} is in no tileset (the map has none)"),
            });
        };
        let id = bare - first;
        if !tileset.holds(id) {
            return Err(no_such_tile(tileset, id));
        }
        Ok(Some(TileRef {
            tileset: tileset.clone(),
            id,
            flips,
        }))
    }

    /// An object of `file`, its gid read in `tilesets`; a template instance over its
    /// template (a gid from the template read in the template's tilesets).
    fn object(
        &mut self,
        file: &Path,
        tilesets: &Tilesets,
        o: JObject,
    ) -> Result<Object, FileError> {
        let (o, template) = match &o.template {
            Some(name) => {
                let t = self.template(&beside(file, name))?;
                let from_template = o.gid.is_none() && t.0.gid.is_some();
                (o.over(t.0.clone()), from_template.then_some(t))
            }
            None => (o, None),
        };
        let shape = if o.point == Some(true) {
            Shape::Point
        } else if o.text.is_some() {
            Shape::Text
        } else if let Some(points) = &o.polygon {
            Shape::Polygon(points.iter().map(|p| DVec2::new(p.x, p.y)).collect())
        } else if let Some(points) = &o.polyline {
            Shape::Polyline(points.iter().map(|p| DVec2::new(p.x, p.y)).collect())
        } else {
            let size = DVec2::new(o.width.unwrap_or(0.0), o.height.unwrap_or(0.0));
            if o.ellipse == Some(true) {
                Shape::Ellipse(size)
            } else if o.capsule == Some(true) {
                Shape::Capsule(size)
            } else {
                Shape::Rect(size)
            }
        };
        let mut object = Object {
            id: o.id.unwrap_or(0),
            name: o.name.unwrap_or_default(),
            class: o
                .kind
                .filter(|k| !k.is_empty())
                .or(o.class)
                .unwrap_or_default(),
            at: DVec2::new(o.x.unwrap_or(0.0), o.y.unwrap_or(0.0)),
            rotation: o.rotation.unwrap_or(0.0),
            shape,
            tile: None,
        };
        if let Some(gid) = o.gid {
            let tilesets = template.as_ref().map_or(tilesets, |t| &t.1);
            object.tile = self
                .tile(tilesets, gid)
                .map_err(|m| document(file, format!("{}: {m}", object.place())))?;
            if object.tile.is_some() {
                object.shape = match object.shape {
                    Shape::Rect(size) => Shape::Rect(size),
                    _ => Shape::Rect(DVec2::ZERO),
                };
            }
        }
        Ok(object)
    }

    /// The cells of `data`, the first at `at`, `width` a row; checked against its size.
    fn cells(
        &self,
        tilesets: &Tilesets,
        layer: &JLayer,
        data: Option<&JData>,
        (at, width, height): ((i64, i64), u64, u64),
        place: &str,
        cells: &mut Vec<Cell>,
    ) -> Result<(), FileError> {
        let fail = |m: String| self.fail(format!("{place}: {m}"));
        let need = width.saturating_mul(height);
        let gids = match data {
            None => Gids::default(),
            Some(JData::Gids(gids)) => Gids::of(gids.iter().copied()),
            Some(JData::Text(text)) => decode(
                layer.encoding.as_deref().unwrap_or("csv"),
                layer.compression.as_deref().unwrap_or(""),
                text,
                need,
            )
            .map_err(fail)?,
        };
        if gids.count != need {
            return Err(fail(wrong_count(gids.count, width, height)));
        }
        for (i, gid) in gids.filled {
            let (c, r) = (at.0 + (i % width) as i64, at.1 + (i / width) as i64);
            let (Ok(c), Ok(r)) = (i32::try_from(c), i32::try_from(r)) else {
                return Err(fail(format!("cell ({c},{r}) is out of range")));
            };
            if let Some(tile) = self
                .tile(tilesets, gid)
                .map_err(|m| self.fail(format!("layer \"{}\" cell ({c},{r}): {m}", label(layer))))?
            {
                cells.push(Cell { at: (c, r), tile });
            }
        }
        Ok(())
    }

    fn layers(
        &mut self,
        tilesets: &Tilesets,
        layers: Vec<JLayer>,
    ) -> Result<Vec<Layer>, FileError> {
        let mut out = Vec::new();
        for layer in layers {
            let name = label(&layer);
            let place = format!("layer \"{name}\"");
            let kind = match layer.kind.as_str() {
                "objectgroup" => {
                    let mut objects = Vec::new();
                    let map = self.map;
                    for o in layer.objects.iter().cloned() {
                        objects.push(self.object(map, tilesets, o)?);
                    }
                    LayerKind::Objects(objects)
                }
                "tilelayer" => {
                    let mut cells = Vec::new();
                    match &layer.chunks {
                        None => self.cells(
                            tilesets,
                            &layer,
                            layer.data.as_ref(),
                            ((0, 0), layer.width, layer.height),
                            &place,
                            &mut cells,
                        )?,
                        Some(chunks) => {
                            for chunk in chunks {
                                self.cells(
                                    tilesets,
                                    &layer,
                                    chunk.data.as_ref(),
                                    ((chunk.x, chunk.y), chunk.width, chunk.height),
                                    &format!("{place}, chunk at ({},{})", chunk.x, chunk.y),
                                    &mut cells,
                                )?;
                            }
                            cells.sort_by_key(|c| (c.at.1, c.at.0));
                        }
                    }
                    LayerKind::Tiles(cells)
                }
                "group" => LayerKind::Group(self.layers(tilesets, layer.layers)?),
                "imagelayer" => LayerKind::Image,
                other => {
                    return Err(self.fail(format!(
                        "{place}: \"type\": \"{other}\" is not a Tiled layer (tilelayer, objectgroup, imagelayer, group)"
                    )));
                }
            };
            out.push(Layer {
                name,
                offset: DVec2::new(layer.offsetx, layer.offsety),
                kind,
            });
        }
        Ok(out)
    }
}

/// A layer's name, or `layer ID`.
fn label(layer: &JLayer) -> String {
    if layer.name.is_empty() {
        format!("layer {}", layer.id)
    } else {
        layer.name.clone()
    }
}
