//! `import --merge`: static polygons that touch along edges (the tiles of a level) replaced by
//! chains along the boundary of their union, so that nothing is left at the seams between
//! them to catch a sliding body (docs/format.md, "import --merge"). The core only: the command
//! line and the window's "Merge into chains" call [`merge`].
//!
//! Two static polygons are in one group when their boundaries share a segment of positive
//! length and their interiors do not overlap, transitively. Each group of two or more becomes
//! one closed chain per boundary component of its union: the outer ones counter-clockwise and
//! the holes clockwise, so that every piece's front (its right-hand side) faces out of the
//! solid; consecutive collinear pieces are joined into one. Everything else is kept as it was,
//! and so is a shape that overlaps another of its group (a one-way platform sunk into the
//! tiles it lies on): it is left out of the group, with a note, and the rest merged.
//!
//! The boundary is found exactly, without new points: every polygon's edges, counter-clockwise
//! in the world, are split at the group's corners that lie on them (a 64-pixel tile beside two
//! 32-pixel ones), the pieces two shapes share (one each way) cancel, and the rest are linked
//! into loops, at a corner where several leave taking the one that turns most to the right, so
//! that each loop goes round one empty region (the outside, or a hole) and an outside and a
//! hole that meet at a corner stay two loops. Points closer than e = 1e-9 (u + M) are one
//! point, M the largest absolute coordinate of the polygons' boxes and u the length of one of
//! the level's own units (a pixel: the import's scale; 1 for a shape set); every point of a
//! chain is a corner of a polygon, as it was.
//!
//! The decisions are made in the level's own numbers: the points multiplied by the power of
//! two nearest 1 / u, which is exact, so that a level imported at any scale merges as it does
//! at scale 1, its chains the same corners scaled (a tolerance of 1e-9 world units would make
//! every tile of a level imported at 1e-12 one point with all its neighbours), and no product
//! of two coordinates overflows or vanishes at 1e300 or 1e-300.

use super::{Imported, Note};
use crate::geometry::{Chain, DVec2, Placed, Pose, Shape, cross};
use crate::query::collide;
use crate::scene::{Body, Scene, SceneShape, ShapeId, shape_label};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// The relative tolerance of the comparisons: e = `TOLERANCE` · (u + M).
pub const TOLERANCE: f64 = 1e-9;

/// A group of shapes replaced by chains.
#[derive(Clone, Debug, PartialEq)]
pub struct MergedGroup {
    /// `merged 1`, `merged 2`, ...: the chain's name, or with several loops the outside's
    /// (`merged 1`), the others adding `#1`, `#2`, ... (`merged 1#1` around a hole).
    pub name: String,
    /// The shapes it replaced, in the scene's order (the first is where the chains went).
    pub replaced: Vec<ShapeId>,
    /// The name (or `#index`) of its first shape, as people saw it.
    pub first: String,
    /// The loops, world points: the outer ones first (counter-clockwise), then the holes
    /// (clockwise), each from its lowest-leftmost point.
    pub loops: Vec<Chain>,
    /// The chains' ids in the merged scene, one per loop.
    pub chains: Vec<ShapeId>,
}

impl MergedGroup {
    /// How many pieces its loops have together.
    pub fn pieces(&self) -> usize {
        self.loops.iter().map(|c| c.piece_count()).sum()
    }

    /// How many of its loops go round a hole (clockwise).
    pub fn holes(&self) -> usize {
        self.loops.iter().filter(|c| clockwise(c.points())).count()
    }
}

/// Shapes that touch others along edges but were kept as they were, and why: one that
/// overlaps another of its group, a group whose outline could not be traced, or the static
/// polygons too small for the merge's tolerance to find their edges (one group of them all).
#[derive(Clone, Debug, PartialEq)]
pub struct KeptGroup {
    /// Its shapes, in the scene's order.
    pub shapes: Vec<ShapeId>,
    /// The label of its first shape (`shape 3 "wall" (polygon)`).
    pub first: String,
    /// Why: a sentence.
    pub why: String,
}

/// A scene with its groups merged.
#[derive(Clone, Debug, PartialEq)]
pub struct Merged {
    /// The new scene: every kept shape as it was, with its id; each group's chains where its
    /// first shape was, with fresh ids; claims and expectations about a replaced shape
    /// dropped.
    pub scene: Scene,
    /// The groups merged, in the order of their first shapes.
    pub groups: Vec<MergedGroup>,
    /// Shapes that touch others along edges but were kept: one that overlaps another of its
    /// group (left out of it), a group whose outline could not be traced, or the polygons too
    /// small to merge; in the scene's order.
    pub kept: Vec<KeptGroup>,
    /// For each shape of the scene that was merged (by its place in the list), its place in
    /// the new one: its own, moved up, or its group's first chain's.
    pub moved: Vec<usize>,
}

impl Merged {
    /// One note per group merged (how many shapes it replaced, by how many loops and
    /// pieces) and per group kept (why), in the import notes' form, about `file`.
    pub fn notes(&self, file: &Path) -> Vec<Note> {
        let mut notes = Vec::new();
        for group in &self.groups {
            let index = group.chains.first().and_then(|id| self.scene.index_of(*id));
            let shape = index.and_then(|i| self.scene.shapes[i].name.clone());
            notes.push(Note {
                file: file.to_path_buf(),
                place: format!("chain {:?}", group.name),
                what: merged_sentence(group),
                shape,
                index,
            });
        }
        for kept in &self.kept {
            let index = kept.shapes.first().and_then(|id| self.scene.index_of(*id));
            let shape = index.and_then(|i| self.scene.shapes[i].name.clone());
            notes.push(Note {
                file: file.to_path_buf(),
                place: kept.first.clone(),
                what: format!("not merged: {}", kept.why),
                shape,
                index,
            });
        }
        notes
    }
}

impl Merged {
    /// The merge in one sentence, for the window's status bar: `merged 12 static polygons into
    /// 1 chain ("merged 1": 1 loop of 4 pieces)`, or why nothing was.
    pub fn summary(&self) -> String {
        if self.groups.is_empty() {
            return match self.kept.first() {
                Some(kept) => format!("nothing merged: {} {}", kept.first, kept.why),
                None => "nothing to merge: no static polygons touch along an edge".into(),
            };
        }
        let replaced: usize = self.groups.iter().map(|g| g.replaced.len()).sum();
        let chains: usize = self.groups.iter().map(|g| g.chains.len()).sum();
        let groups: Vec<String> = self
            .groups
            .iter()
            .take(3)
            .map(|g| {
                let loops = g.loops.len();
                format!(
                    "{:?}: {}, {}",
                    g.name,
                    plural(loops, "loop"),
                    plural(g.pieces(), "piece")
                )
            })
            .collect();
        let more = self.groups.len().saturating_sub(3);
        let kept = match self.kept.len() {
            0 => String::new(),
            n => format!(
                "; {} kept as {} (see the notes)",
                plural(n, "group"),
                if n == 1 { "it was" } else { "they were" }
            ),
        };
        format!(
            "merged {} into {} ({}{}){kept}",
            plural(replaced, "static polygon"),
            plural(chains, "chain"),
            groups.join("; "),
            if more > 0 {
                format!("; {more} more")
            } else {
                String::new()
            }
        )
    }
}

/// The merge of the one surface `id` belongs to (its group of static polygons touching
/// along edges), every other shape kept: what the window's "Merge into chains" does with a
/// shape selected. Nothing merged when `id` is in no group.
pub fn merge_surface_of(scene: &Scene, id: ShapeId) -> Merged {
    let all = merge(scene, None);
    match all.groups.iter().find(|g| g.replaced.contains(&id)) {
        Some(group) => merge(scene, Some(&group.replaced)),
        None => merge(scene, Some(&[])),
    }
}

/// What a merged group's note says: `replaced 12 static polygons that touch along edges,
/// from "Ground[0,7]/wall": 1 loop of 4 pieces`.
pub fn merged_sentence(group: &MergedGroup) -> String {
    let loops = group.loops.len();
    let holes = group.holes();
    let shape = match loops {
        1 => format!("1 loop of {}", plural(group.pieces(), "piece")),
        _ => format!(
            "{} ({} round {}), {}",
            plural(loops, "loop"),
            holes,
            if holes == 1 { "a hole" } else { "holes" },
            plural(group.pieces(), "piece")
        ),
    };
    format!(
        "replaced {} static polygons that touch along edges, from {:?}: {shape}",
        group.replaced.len(),
        group.first
    )
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// An imported level with its groups merged ([`merge`] on every shape), its notes kept
/// (each pointing at where its shape went: a replaced shape's note at its chain) and a note
/// per group after them, about `file`.
/// `scale` is the import's, world units per pixel: the merge decides in pixels
/// ([`merge_scaled`]).
pub fn merge_imported(imported: Imported, file: &Path, scale: f64) -> Imported {
    let merged = merge_scaled(&imported.scene, None, scale);
    let mut notes: Vec<Note> = imported
        .notes
        .into_iter()
        .map(|mut note| {
            if let Some(&to) = note.index.and_then(|i| merged.moved.get(i)) {
                note.index = Some(to);
                note.shape = merged.scene.shapes[to].name.clone();
            }
            note
        })
        .collect();
    notes.extend(merged.notes(file));
    Imported {
        scene: merged.scene,
        notes,
    }
}

/// A static polygon of the scene, in the level's own numbers (world coordinates times
/// [`own_numbers`]).
struct Tile {
    /// Its place in the scene's list.
    index: usize,
    /// Its corners, counter-clockwise.
    points: Vec<DVec2>,
    lo: DVec2,
    hi: DVec2,
}

/// What became of a shape of the scene.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Fate {
    Kept,
    /// The first shape of merged group `g`: its chains go here.
    First(usize),
    /// Another shape of merged group `g`.
    Replaced(usize),
}

/// Merge the groups of static polygons that touch along edges into chains (see the module's
/// description); with `only`, among those shapes alone (the window's selection), every other
/// shape kept. Never fails: a shape that overlaps another of its group is left out of it and
/// kept, with the reason in [`Merged::kept`]. A scene in world units: [`merge_scaled`] at 1.
pub fn merge(scene: &Scene, only: Option<&[ShapeId]>) -> Merged {
    merge_scaled(scene, only, 1.0)
}

/// [`merge`] of a level imported at `scale` world units per pixel (finite, > 0): decided in
/// the level's pixels, so that it merges at any scale as at scale 1, its chains the same
/// corners scaled.
pub fn merge_scaled(scene: &Scene, only: Option<&[ShapeId]>, scale: f64) -> Merged {
    let only: Option<HashSet<ShapeId>> = only.map(|ids| ids.iter().copied().collect());
    let own = own_numbers(scale);
    let tiles: Vec<Tile> = scene
        .shapes
        .iter()
        .enumerate()
        .filter(|(_, s)| only.as_ref().is_none_or(|ids| ids.contains(&s.id)))
        .filter_map(|(index, s)| tile(index, s, own))
        .collect();
    let m = tiles
        .iter()
        .flat_map(|t| [t.lo.abs().max_element(), t.hi.abs().max_element()])
        .fold(0.0_f64, f64::max);
    let e = TOLERANCE * (scale * own + m);
    // A tile no wider and no taller than e shares no edge longer than 2 e: in no group, said
    // once (a level of 32-pixel tiles made 1e-12 world units across, merged in world units,
    // paired every tile with thousands of neighbours within e and merged nothing, silently).
    let (tiles, specks): (Vec<Tile>, Vec<Tile>) = tiles
        .into_iter()
        .partition(|t| (t.hi - t.lo).max_element() > e);

    // The pairs that share an edge, and those that overlap.
    let mut sharing: Vec<(usize, usize)> = Vec::new();
    let mut overlapping: Vec<(usize, usize, f64)> = Vec::new();
    for (i, j) in box_pairs(&tiles, e) {
        let (a, b) = (&tiles[i], &tiles[j]);
        let depth = collide(&scene.shapes[a.index].placed, &scene.shapes[b.index].placed)
            .map_or(0.0, |c| c.depth * own);
        if depth > e {
            overlapping.push((i, j, depth));
        } else if share_an_edge(&a.points, &b.points, e) {
            sharing.push((i, j));
        }
    }
    // Groups: joined over shared edges. A shape that overlaps another of its group is left
    // out (kept as it was), the one with the most such overlaps first, then the later one,
    // until no group holds two shapes that overlap: the union is then the shapes' edges.
    let mut left_out: Vec<Option<(usize, f64)>> = vec![None; tiles.len()];
    let mut sets = loop {
        let mut sets = UnionFind::new(tiles.len());
        for &(i, j) in &sharing {
            if left_out[i].is_none() && left_out[j].is_none() {
                sets.union(i, j);
            }
        }
        let inside: Vec<(usize, usize, f64)> = overlapping
            .iter()
            .copied()
            .filter(|&(i, j, _)| {
                left_out[i].is_none() && left_out[j].is_none() && sets.find(i) == sets.find(j)
            })
            .collect();
        if inside.is_empty() {
            break sets;
        }
        let mut count = vec![0usize; tiles.len()];
        for &(i, j, _) in &inside {
            count[i] += 1;
            count[j] += 1;
        }
        let Some(worst) = (0..tiles.len()).max_by_key(|&t| (count[t], t)) else {
            break sets;
        };
        let partner = inside
            .iter()
            .find_map(|&(i, j, depth)| match (i == worst, j == worst) {
                (true, _) => Some((j, depth)),
                (_, true) => Some((i, depth)),
                _ => None,
            });
        left_out[worst] = partner.or(Some((worst, 0.0)));
    };
    let mut members: HashMap<usize, Vec<usize>> = HashMap::new();
    for (t, out) in left_out.iter().enumerate() {
        if out.is_none() {
            members.entry(sets.find(t)).or_default().push(t);
        }
    }
    let mut groups: Vec<Vec<usize>> = members.into_values().filter(|g| g.len() > 1).collect();
    groups.sort_by_key(|g| g[0]);

    let label = |index: usize| {
        let s = &scene.shapes[index];
        shape_label(index, s.name.as_deref(), Some(s.placed.shape.kind()))
    };
    let quoted = |index: usize| format!("{:?}", scene.shapes[index].display_name(index));
    let mut next_number = first_free_number(scene);
    let mut next_id = scene.fresh_id().0;
    let mut fates = vec![Fate::Kept; scene.shapes.len()];
    let mut merged: Vec<MergedGroup> = Vec::new();
    let mut kept: Vec<KeptGroup> = Vec::new();
    for group in groups {
        let ids: Vec<ShapeId> = group
            .iter()
            .map(|&t| scene.shapes[tiles[t].index].id)
            .collect();
        let first = tiles[group[0]].index;
        let polygons: Vec<&[DVec2]> = group.iter().map(|&t| tiles[t].points.as_slice()).collect();
        let traced = boundary(&polygons, e, own).map_err(|why| {
            format!(
                "{why}; it is kept with the {} it touches along edges",
                plural(group.len() - 1, "shape")
            )
        });
        match traced {
            Ok(loops) => {
                let name = format!("merged {next_number}");
                next_number = next_number.saturating_add(1);
                let chains = (0..loops.len())
                    .map(|_| {
                        let id = ShapeId(next_id);
                        next_id = next_id.saturating_add(1);
                        id
                    })
                    .collect();
                fates[first] = Fate::First(merged.len());
                for &t in &group[1..] {
                    fates[tiles[t].index] = Fate::Replaced(merged.len());
                }
                merged.push(MergedGroup {
                    name,
                    replaced: ids,
                    first: scene.shapes[first].display_name(first),
                    loops,
                    chains,
                });
            }
            Err(why) => kept.push(KeptGroup {
                shapes: ids,
                first: label(first),
                why,
            }),
        }
    }

    for (t, out) in left_out.iter().enumerate() {
        if let Some((other, depth)) = *out {
            let index = tiles[t].index;
            kept.push(KeptGroup {
                shapes: vec![scene.shapes[index].id],
                first: label(index),
                why: format!(
                    "it overlaps {} (by {}), and merging joins only shapes that touch",
                    quoted(tiles[other].index),
                    crate::text::short_number(depth / own)
                ),
            });
        }
    }
    if let Some(speck) = specks.first() {
        let across = specks
            .iter()
            .map(|t| (t.hi - t.lo).max_element())
            .fold(0.0, f64::max);
        let who = match specks.len() {
            1 => "it is".to_string(),
            n => format!("it and {} other static polygons are", n - 1),
        };
        let hint = if scale == 1.0 {
            "; a level imported at a small --scale merges whole when the import merges it \
             (import LEVEL --scale S --merge), in its pixels"
        } else {
            ""
        };
        kept.push(KeptGroup {
            shapes: specks.iter().map(|t| scene.shapes[t.index].id).collect(),
            first: label(speck.index),
            why: format!(
                "{who} at most {} across, and merging tells points apart only to {} here \
                 (1e-9 of the scale {} plus the largest coordinate {}): too small to find \
                 the edges they share{hint}",
                crate::text::short_number(across / own),
                crate::text::short_number(e / own),
                crate::text::short_number(scale),
                crate::text::short_number(m / own),
            ),
        });
    }
    kept.sort_by_key(|k| scene.index_of(k.shapes[0]));

    // The new list: kept shapes as they were, each group's chains at its first shape.
    let mut shapes: Vec<SceneShape> = Vec::with_capacity(scene.shapes.len());
    let mut moved = Vec::with_capacity(scene.shapes.len());
    let mut at_group: Vec<usize> = vec![0; merged.len()];
    for (index, s) in scene.shapes.iter().enumerate() {
        match fates[index] {
            Fate::Kept => {
                moved.push(shapes.len());
                shapes.push(s.clone());
            }
            Fate::First(g) => {
                at_group[g] = shapes.len();
                moved.push(shapes.len());
                let group = &merged[g];
                // The first loop (the outside) is `merged N`, the others `merged N#1`, ...
                for (k, (chain, id)) in group.loops.iter().zip(&group.chains).enumerate() {
                    let name = if k > 0 {
                        format!("{}#{k}", group.name)
                    } else {
                        group.name.clone()
                    };
                    let mut shape =
                        SceneShape::named(&name, Placed::new(chain.clone(), Pose::IDENTITY));
                    shape.id = *id;
                    shapes.push(shape);
                }
            }
            Fate::Replaced(_) => moved.push(0),
        }
    }
    for (index, fate) in fates.iter().enumerate() {
        if let Fate::Replaced(g) = fate {
            moved[index] = at_group[*g];
        }
    }
    let replaced: HashSet<ShapeId> = merged
        .iter()
        .flat_map(|g| g.replaced.iter().copied())
        .collect();
    let mut out = Scene {
        shapes,
        claims: scene.claims.clone(),
        expect: scene.expect.clone(),
        tolerance: scene.tolerance,
        gravity: scene.gravity,
        precision: scene.precision,
    };
    out.claims
        .retain(|c| !replaced.contains(&c.a) && !replaced.contains(&c.b));
    if let Some(expect) = &mut out.expect {
        expect.retain(|x| !replaced.contains(&x.a) && !replaced.contains(&x.b));
    }
    Merged {
        scene: out,
        groups: merged,
        kept,
        moved,
    }
}

/// The power of two nearest `1 / scale` (`scale` world units per pixel): world coordinates
/// times it are the level's own numbers, near its pixels, exactly (a power of two only moves
/// the exponent). 1 at scale 1.
fn own_numbers(scale: f64) -> f64 {
    let exponent = -scale.log2().round();
    // Within the normal numbers, so that neither it nor its inverse is 0 or infinite.
    2f64.powi(exponent.clamp(-1022.0, 1022.0) as i32)
}

/// The shape as a tile, when it is a static polygon at rest: its corners and box times `own`.
fn tile(index: usize, s: &SceneShape, own: f64) -> Option<Tile> {
    let Shape::Polygon(p) = &s.placed.shape else {
        return None;
    };
    if s.motion.body != Body::Static || s.motion.moves() {
        return None;
    }
    let points: Vec<DVec2> = p
        .points()
        .iter()
        .map(|q| s.placed.pose.apply(*q) * own)
        .collect();
    let (lo, hi) = s.placed.aabb();
    Some(Tile {
        index,
        points,
        lo: lo * own,
        hi: hi * own,
    })
}

/// One more than the largest `n` of the names `merged n` (or `merged n#k`) already in the
/// scene: merging twice gives new names.
fn first_free_number(scene: &Scene) -> u64 {
    scene
        .shapes
        .iter()
        .filter_map(|s| {
            let rest = s.name.as_deref()?.strip_prefix("merged ")?;
            let number = rest.split('#').next()?;
            number.parse::<u64>().ok()
        })
        .max()
        .map_or(1, |n| n.saturating_add(1))
}

/// The pairs of tiles whose boxes, grown by `e`, overlap: sorted by their left sides and
/// swept.
fn box_pairs(tiles: &[Tile], e: f64) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..tiles.len()).collect();
    order.sort_by(|&a, &b| tiles[a].lo.x.total_cmp(&tiles[b].lo.x));
    let mut active: Vec<usize> = Vec::new();
    let mut pairs = Vec::new();
    for &t in &order {
        let x = tiles[t].lo.x;
        active.retain(|&a| tiles[a].hi.x + e >= x);
        for &a in &active {
            if tiles[a].lo.y <= tiles[t].hi.y + e && tiles[t].lo.y <= tiles[a].hi.y + e {
                pairs.push((a.min(t), a.max(t)));
            }
        }
        active.push(t);
    }
    pairs.sort_unstable();
    pairs
}

/// Whether two counter-clockwise polygons' boundaries share a segment longer than `2 e`: an
/// edge of each on one line (within `e`), running opposite ways, overlapping.
fn share_an_edge(p: &[DVec2], q: &[DVec2], e: f64) -> bool {
    let edges = |points: &[DVec2]| {
        let n = points.len();
        (0..n)
            .map(|i| (points[i], points[(i + 1) % n]))
            .collect::<Vec<_>>()
    };
    let (ep, eq) = (edges(p), edges(q));
    ep.iter().any(|&(a, b)| {
        let length = a.distance(b);
        if length <= e {
            return false;
        }
        let u = (b - a) / length;
        eq.iter().any(|&(c, d)| {
            let on_line = cross(u, c - a).abs() <= e && cross(u, d - a).abs() <= e;
            if !on_line || u.dot(d - c) >= 0.0 {
                return false;
            }
            let (tc, td) = (u.dot(c - a), u.dot(d - a));
            let shared = length.min(tc.max(td)) - 0.0_f64.max(tc.min(td));
            shared > 2.0 * e
        })
    })
}

/// The boundary of the union of counter-clockwise `polygons` that only touch (in the level's
/// own numbers, world coordinates times `own`): one loop of world points per component, outer
/// loops first. Err says why it cannot be traced.
fn boundary(polygons: &[&[DVec2]], e: f64, own: f64) -> Result<Vec<Chain>, String> {
    let world = |p: DVec2| p / own;
    // Corners: closer than e is one corner (the first one met).
    let all: Vec<DVec2> = polygons.iter().flat_map(|p| p.iter().copied()).collect();
    let (ids, corners) = weld(&all, e);
    let mut offset = 0;
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for p in polygons {
        let n = p.len();
        for k in 0..n {
            let (u, v) = (ids[offset + k], ids[offset + (k + 1) % n]);
            if u != v {
                edges.push((u, v));
            }
        }
        offset += n;
    }
    // Split every edge at the corners lying on it.
    let mut by_x: Vec<usize> = (0..corners.len()).collect();
    by_x.sort_by(|&a, &b| corners[a].x.total_cmp(&corners[b].x));
    let xs: Vec<f64> = by_x.iter().map(|&c| corners[c].x).collect();
    let mut pieces: Vec<(usize, usize)> = Vec::new();
    for &(u, v) in &edges {
        let (a, b) = (corners[u], corners[v]);
        let length = a.distance(b);
        let dir = (b - a) / length;
        let (lo, hi) = (a.min(b) - DVec2::splat(e), a.max(b) + DVec2::splat(e));
        let from = xs.partition_point(|&x| x < lo.x);
        let to = xs.partition_point(|&x| x <= hi.x);
        let mut on: Vec<(f64, usize)> = by_x[from..to]
            .iter()
            .filter(|&&w| w != u && w != v)
            .filter_map(|&w| {
                let p = corners[w];
                if p.y < lo.y || p.y > hi.y {
                    return None;
                }
                let t = dir.dot(p - a);
                (t > e && t < length - e && cross(dir, p - a).abs() <= e).then_some((t, w))
            })
            .collect();
        on.sort_by(|x, y| x.0.total_cmp(&y.0));
        let mut at = u;
        for (_, w) in on {
            if w != at {
                pieces.push((at, w));
                at = w;
            }
        }
        if at != v {
            pieces.push((at, v));
        }
    }
    // What two shapes share, one piece each way, is inside the union.
    let mut count: HashMap<(usize, usize), i64> = HashMap::new();
    for &(u, v) in &pieces {
        match count.get_mut(&(v, u)) {
            Some(c) if *c > 0 => *c -= 1,
            _ => *count.entry((u, v)).or_insert(0) += 1,
        }
    }
    let mut outline: Vec<(usize, usize)> = Vec::new();
    for (&(u, v), &c) in &count {
        if c > 1 {
            return Err(format!(
                "two of its edges run the same way from {} to {} (the shapes overlap there)",
                crate::text::short_point(world(corners[u])),
                crate::text::short_point(world(corners[v]))
            ));
        }
        if c == 1 {
            outline.push((u, v));
        }
    }
    outline.sort_unstable();
    // Link: at each corner, the piece leaving that turns most to the right (round the empty
    // side: the outside and a hole that meet at a corner stay two loops).
    let mut leaving: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut arriving: HashMap<usize, usize> = HashMap::new();
    for (k, &(u, v)) in outline.iter().enumerate() {
        leaving.entry(u).or_default().push(k);
        *arriving.entry(v).or_insert(0) += 1;
    }
    for (&c, out) in &leaving {
        if arriving.get(&c).copied().unwrap_or(0) != out.len() {
            return Err(format!(
                "its outline does not close at {}",
                crate::text::short_point(world(corners[c]))
            ));
        }
    }
    if arriving.keys().any(|c| !leaving.contains_key(c)) {
        return Err("its outline does not close".into());
    }
    let next = |k: usize| -> usize {
        let (u, v) = outline[k];
        let din = corners[v] - corners[u];
        let turn = |j: usize| {
            let (_, w) = outline[j];
            let dout = corners[w] - corners[v];
            let a = cross(din, dout).atan2(din.dot(dout));
            // Straight back is the last choice, not the first.
            if a <= -std::f64::consts::PI {
                std::f64::consts::PI
            } else {
                a
            }
        };
        leaving[&v]
            .iter()
            .copied()
            .min_by(|&x, &y| turn(x).total_cmp(&turn(y)).then(x.cmp(&y)))
            .unwrap_or(k)
    };
    let mut used = vec![false; outline.len()];
    let mut loops: Vec<Vec<DVec2>> = Vec::new();
    for start in 0..outline.len() {
        if used[start] {
            continue;
        }
        let mut points = Vec::new();
        let mut k = start;
        loop {
            if used[k] {
                return Err("its outline crosses itself".into());
            }
            used[k] = true;
            points.push(corners[outline[k].0]);
            k = next(k);
            if k == start {
                break;
            }
        }
        loops.push(joined(points, e));
    }
    // Outer loops first, largest first; then the holes, largest first. Areas closer than
    // 1e-9 of the extent squared are alike, in the order traced: two holes of one size stay in
    // that order at every scale, however the scaled corners round.
    let extent = corners
        .iter()
        .map(|p| p.abs().max_element())
        .fold(0.0, f64::max);
    let size = |area: f64| (area.abs() / (TOLERANCE * extent * extent)).round();
    let mut measured: Vec<(f64, Vec<DVec2>)> =
        loops.into_iter().map(|l| (signed_area(&l), l)).collect();
    measured.sort_by(|(a, _), (b, _)| {
        (*a < 0.0)
            .cmp(&(*b < 0.0))
            .then(size(*b).total_cmp(&size(*a)))
    });
    // The union's area is the shapes' areas added up: a check that nothing was lost.
    let total: f64 = polygons.iter().map(|p| signed_area(p)).sum();
    let traced: f64 = measured.iter().map(|(a, _)| a).sum();
    let rounding = 1e-15 * all.len() as f64 * extent * extent;
    if (total - traced).abs() > 1e-9 * total.abs() + rounding {
        return Err(format!(
            "its outline holds an area of {}, not the {} of its shapes",
            crate::text::short_number(traced / own / own),
            crate::text::short_number(total / own / own)
        ));
    }
    measured
        .into_iter()
        .map(|(area, points)| {
            if points.len() < 3 || area == 0.0 {
                return Err("a loop of its outline has no area".to_string());
            }
            let points = points.into_iter().map(world).collect();
            Chain::new(points, true).map_err(|why| format!("a loop of its outline: {why}"))
        })
        .collect()
}

/// Points closer than `e` (in both coordinates, transitively) made one: each point's corner,
/// and the corners (each the first of its points met).
fn weld(points: &[DVec2], e: f64) -> (Vec<usize>, Vec<DVec2>) {
    let mut order: Vec<usize> = (0..points.len()).collect();
    order.sort_by(|&a, &b| points[a].x.total_cmp(&points[b].x));
    let mut sets = UnionFind::new(points.len());
    for (k, &i) in order.iter().enumerate() {
        for &j in &order[k + 1..] {
            if points[j].x - points[i].x > e {
                break;
            }
            if (points[j].y - points[i].y).abs() <= e {
                sets.union(i, j);
            }
        }
    }
    let mut corner_of: HashMap<usize, usize> = HashMap::new();
    let mut corners = Vec::new();
    let ids = (0..points.len())
        .map(|i| {
            let root = sets.find(i);
            *corner_of.entry(root).or_insert_with(|| {
                corners.push(points[i]);
                corners.len() - 1
            })
        })
        .collect();
    (ids, corners)
}

/// A loop without the corners where it goes straight on (consecutive collinear pieces
/// joined), from its lowest-leftmost point (within `e`).
fn joined(points: Vec<DVec2>, e: f64) -> Vec<DVec2> {
    let straight = |a: DVec2, b: DVec2, c: DVec2| {
        let d = c - a;
        let length = d.length();
        length > 0.0
            && (cross(d, b - a) / length).abs() <= e
            && d.dot(b - a) > 0.0
            && d.dot(c - b) > 0.0
    };
    let start = lowest_leftmost(&points, e);
    let mut out: Vec<DVec2> = Vec::with_capacity(points.len());
    for k in 0..=points.len() {
        let p = points[(start + k) % points.len()];
        while out.len() >= 2 && straight(out[out.len() - 2], out[out.len() - 1], p) {
            out.pop();
        }
        out.push(p);
    }
    out.pop();
    // The first point may be a straight one too, within e: round once more.
    while out.len() > 3 && straight(out[out.len() - 1], out[0], out[1]) {
        out.remove(0);
    }
    let start = lowest_leftmost(&out, e);
    out.rotate_left(start);
    out
}

/// The index of the point with the least y (within `e`), and of those the least x: the same
/// point of a loop at every scale, however its corners round.
fn lowest_leftmost(points: &[DVec2], e: f64) -> usize {
    let lowest = points.iter().map(|p| p.y).fold(f64::INFINITY, f64::min);
    (0..points.len())
        .filter(|&k| points[k].y <= lowest + e)
        .min_by(|&a, &b| points[a].x.total_cmp(&points[b].x))
        .unwrap_or(0)
}

/// The signed area of a closed loop (positive counter-clockwise): the shoelace sum.
pub fn signed_area(points: &[DVec2]) -> f64 {
    let n = points.len();
    if n < 3 {
        return 0.0;
    }
    let o = points[0];
    (1..n - 1)
        .map(|i| cross(points[i] - o, points[i + 1] - o))
        .sum::<f64>()
        / 2.0
}

/// Whether a closed loop goes clockwise (negative signed area), measured on its points times
/// the power of two that brings its largest coordinate near 1 (exact): the area of a loop at
/// 1e-300 vanishes, at 1e300 overflows, its sign does not.
fn clockwise(points: &[DVec2]) -> bool {
    let largest = points
        .iter()
        .fold(0.0_f64, |m, p| m.max(p.abs().max_element()));
    let own = if largest > 0.0 && largest.is_finite() {
        own_numbers(largest)
    } else {
        1.0
    };
    let scaled: Vec<DVec2> = points.iter().map(|p| *p * own).collect();
    signed_area(&scaled) < 0.0
}

/// Disjoint sets with path halving.
struct UnionFind {
    parent: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        Self {
            parent: (0..n).collect(),
        }
    }

    fn find(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    /// Join the sets of `a` and `b`; the smaller root stays the root.
    fn union(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let (lo, hi) = (ra.min(rb), ra.max(rb));
            self.parent[hi] = lo;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::ConvexPolygon;

    fn square(x: f64, y: f64, size: f64) -> SceneShape {
        let h = size / 2.0;
        SceneShape::named(
            &format!("tile {x},{y}"),
            Placed::new(
                ConvexPolygon::rectangle(DVec2::splat(h)).unwrap(),
                Pose::at(DVec2::new(x + h, y + h)),
            ),
        )
    }

    #[test]
    fn two_tiles_side_by_side_become_one_loop_of_four_pieces() {
        let scene = Scene::from_shapes(vec![square(0.0, 0.0, 1.0), square(1.0, 0.0, 1.0)]);
        let merged = merge(&scene, None);
        assert_eq!(merged.groups.len(), 1);
        assert_eq!(merged.scene.shapes.len(), 1);
        let chain = merged.scene.shapes[0].placed.shape.as_chain().unwrap();
        assert!(chain.is_loop());
        assert_eq!(
            chain.points(),
            [
                DVec2::new(0.0, 0.0),
                DVec2::new(2.0, 0.0),
                DVec2::new(2.0, 1.0),
                DVec2::new(0.0, 1.0)
            ]
        );
        assert_eq!(merged.moved, [0, 0]);
    }

    #[test]
    fn an_outside_and_a_hole_that_meet_at_a_corner_stay_two_loops() {
        // Tiles round an empty cell (1, 1) whose corner (2, 2) meets the empty cell (2, 2):
        // the outside and the hole touch at (2, 2), and each loop turns right there.
        let cells = [(0, 0), (1, 0), (2, 0), (0, 1), (2, 1), (0, 2), (1, 2)];
        let scene = Scene::from_shapes(
            cells
                .iter()
                .map(|&(x, y)| square(x as f64, y as f64, 1.0))
                .collect(),
        );
        let merged = merge(&scene, None);
        assert_eq!(merged.groups.len(), 1, "{:?}", merged.kept);
        let loops = &merged.groups[0].loops;
        let areas: Vec<f64> = loops.iter().map(|c| signed_area(c.points())).collect();
        assert_eq!(areas, [8.0, -1.0]);
    }

    #[test]
    fn weld_makes_near_points_one() {
        let (ids, corners) = weld(
            &[
                DVec2::new(0.0, 0.0),
                DVec2::new(1.0, 0.0),
                DVec2::new(1e-12, -1e-12),
            ],
            1e-9,
        );
        assert_eq!(ids, [0, 1, 0]);
        assert_eq!(corners.len(), 2);
    }
}
