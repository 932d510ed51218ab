//! `import --merge` (docs/format.md, "import --merge"): static polygons that touch along edges
//! replaced by chains along the outline of their union, on small sets worked out by hand, on
//! the Godot demo level (288 tiles) checked against the tiles it replaced, on random grids, and
//! in `simulate`: the seam a box catches on between two tiles is gone once they are merged.

use collidoscope::geometry::{Chain, Circle, ConvexPolygon, DVec2, Placed, Pose, Shape, cross};
use collidoscope::import::merge::signed_area;
use collidoscope::import::{Convert, Merged, import, merge, merge_imported, merge_scaled};
use collidoscope::motion::{Config, EventKind, Resolver, Simulation, Substeps};
use collidoscope::query::collide;
use collidoscope::scene::{Body, Motion, Scene, SceneShape, ShapeId};
use proptest::prelude::*;
use std::path::Path;
use std::process::Command;

const WORLD: &str = "tests/levels/godot/kinematic_character/world.tscn";
const ROOM: &str = "tests/levels/godot/room/room.tscn";

/// An axis-aligned box with its lower-left corner at (x, y), `w` by `h`, centred on its pose.
fn rect(name: &str, x: f64, y: f64, w: f64, h: f64) -> SceneShape {
    SceneShape::named(
        name,
        Placed::new(
            ConvexPolygon::rectangle(DVec2::new(w / 2.0, h / 2.0)).unwrap(),
            Pose::at(DVec2::new(x + w / 2.0, y + h / 2.0)),
        ),
    )
}

fn tile(x: f64, y: f64) -> SceneShape {
    rect(&format!("tile {x},{y}"), x, y, 1.0, 1.0)
}

fn tiles(cells: &[(i32, i32)]) -> Scene {
    Scene::from_shapes(
        cells
            .iter()
            .map(|&(x, y)| tile(x as f64, y as f64))
            .collect(),
    )
}

fn p(x: f64, y: f64) -> DVec2 {
    DVec2::new(x, y)
}

/// The chains of the merged scene, by name.
fn chains(merged: &Merged) -> Vec<(&str, &Chain)> {
    merged
        .scene
        .shapes
        .iter()
        .filter_map(|s| Some((s.name.as_deref()?, s.placed.shape.as_chain()?)))
        .collect()
}

/// A chain's pieces in the world: (start, end).
fn pieces(s: &SceneShape) -> Vec<(DVec2, DVec2)> {
    let chain = s.placed.shape.as_chain().unwrap();
    chain
        .pieces()
        .map(|k| (s.placed.pose.apply(k.p1), s.placed.pose.apply(k.p2)))
        .collect()
}

/// The shapes' names, in order.
fn names_of(scene: &Scene) -> Vec<&str> {
    scene
        .shapes
        .iter()
        .map(|s| s.name.as_deref().unwrap())
        .collect()
}

#[test]
fn a_flat_run_of_twelve_tiles_is_one_loop_of_four_pieces() {
    let scene = tiles(&(0..12).map(|x| (x, 0)).collect::<Vec<_>>());
    let merged = merge(&scene, None);
    let found = chains(&merged);
    assert_eq!(found.len(), 1);
    assert_eq!(merged.scene.shapes.len(), 1);
    let (name, chain) = found[0];
    assert_eq!(name, "merged 1");
    assert!(chain.is_loop());
    assert_eq!(chain.piece_count(), 4);
    assert_eq!(
        chain.points(),
        [p(0.0, 0.0), p(12.0, 0.0), p(12.0, 1.0), p(0.0, 1.0)]
    );
    let group = &merged.groups[0];
    assert_eq!(group.replaced.len(), 12);
    assert_eq!(group.replaced[0], ShapeId(0));
    assert_eq!(merged.scene.shapes[0].placed.pose, Pose::IDENTITY);
    assert_eq!(
        merged.scene.shapes[0].motion,
        Motion::default(),
        "a chain is static"
    );
}

#[test]
fn an_l_and_a_staircase_keep_their_corners_and_nothing_else() {
    let l = merge(&tiles(&[(0, 0), (1, 0), (2, 0), (0, 1), (0, 2)]), None);
    let (_, chain) = chains(&l)[0];
    assert_eq!(
        chain.points(),
        [
            p(0.0, 0.0),
            p(3.0, 0.0),
            p(3.0, 1.0),
            p(1.0, 1.0),
            p(1.0, 3.0),
            p(0.0, 3.0)
        ]
    );
    let stairs = merge(
        &tiles(&[(0, 0), (1, 0), (2, 0), (1, 1), (2, 1), (2, 2)]),
        None,
    );
    let (_, chain) = chains(&stairs)[0];
    assert_eq!(
        chain.points(),
        [
            p(0.0, 0.0),
            p(3.0, 0.0),
            p(3.0, 3.0),
            p(2.0, 3.0),
            p(2.0, 2.0),
            p(1.0, 2.0),
            p(1.0, 1.0),
            p(0.0, 1.0)
        ]
    );
    assert_eq!(signed_area(chain.points()), 6.0);
}

#[test]
fn a_ring_of_tiles_round_a_hole_is_an_outer_loop_and_a_clockwise_hole() {
    let mut cells = Vec::new();
    for x in 0..4 {
        for y in 0..3 {
            if !(x == 1 || x == 2) || y != 1 {
                cells.push((x, y));
            }
        }
    }
    let merged = merge(&tiles(&cells), None);
    let found = chains(&merged);
    let names: Vec<&str> = found.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ["merged 1", "merged 1#1"]);
    let (outer, hole) = (found[0].1, found[1].1);
    assert_eq!(signed_area(outer.points()), 12.0, "counter-clockwise");
    assert_eq!(signed_area(hole.points()), -2.0, "clockwise");
    assert_eq!(outer.piece_count(), 4);
    assert_eq!(
        hole.points(),
        [p(1.0, 1.0), p(1.0, 2.0), p(3.0, 2.0), p(3.0, 1.0)]
    );
    // Every piece's front faces out of the solid: just in front of it is empty.
    let solid = |q: DVec2| cells.iter().any(|&(x, y)| inside_cell(q, x, y));
    for (_, chain) in &found {
        for k in chain.pieces() {
            let mid = k.p1.lerp(k.p2, 0.3);
            assert!(!solid(mid + k.normal() * 1e-3));
            assert!(solid(mid - k.normal() * 1e-3));
        }
    }
    let group = &merged.groups[0];
    assert_eq!((group.holes(), group.pieces()), (1, 8));
    let notes = merged.notes(Path::new("ring.json"));
    assert_eq!(
        notes[0].to_string(),
        "ring.json: chain \"merged 1\": replaced 10 static polygons that touch along edges, from \"tile 0,0\": 2 loops (1 round a hole), 8 pieces"
    );
}

fn inside_cell(q: DVec2, x: i32, y: i32) -> bool {
    q.x > x as f64 && q.x < x as f64 + 1.0 && q.y > y as f64 && q.y < y as f64 + 1.0
}

#[test]
fn tiles_that_only_touch_at_a_corner_stay_apart() {
    let scene = tiles(&[(0, 0), (1, 1), (2, 2)]);
    let merged = merge(&scene, None);
    assert!(merged.groups.is_empty());
    assert!(merged.kept.is_empty());
    assert_eq!(merged.scene, scene);
    // Two runs that meet only at a corner: two chains, no bridge between them.
    let merged = merge(&tiles(&[(0, 0), (1, 0), (2, 1), (3, 1)]), None);
    let found = chains(&merged);
    assert_eq!(found.len(), 2);
    assert_eq!(
        found[0].1.points(),
        [p(0.0, 0.0), p(2.0, 0.0), p(2.0, 1.0), p(0.0, 1.0)]
    );
    assert_eq!(
        found[1].1.points(),
        [p(2.0, 1.0), p(4.0, 1.0), p(4.0, 2.0), p(2.0, 2.0)]
    );
}

#[test]
fn overlapping_boxes_are_kept_and_a_group_with_an_overlap_is_kept_with_a_note() {
    // Overlapping, their tops on one line: no edge shared (both run the same way).
    let scene = Scene::from_shapes(vec![
        rect("a", 0.0, 0.0, 2.0, 1.0),
        rect("b", 1.0, 0.0, 2.0, 1.0),
        rect("c", 5.0, 5.0, 2.0, 2.0),
        rect("d", 6.0, 6.0, 2.0, 2.0),
    ]);
    let merged = merge(&scene, None);
    assert!(merged.groups.is_empty() && merged.kept.is_empty());
    assert_eq!(merged.scene, scene);
    // A, B, C, D touch along edges; D also overlaps A by 0.1: D is left out, said why, and
    // A, B, C merged (an L).
    let scene = Scene::from_shapes(vec![
        rect("A", 0.0, 0.0, 1.0, 1.0),
        rect("B", 1.0, 0.0, 1.0, 1.0),
        rect("C", 1.0, 1.0, 1.0, 1.0),
        rect("D", 0.5, 0.9, 0.5, 1.1),
    ]);
    let merged = merge(&scene, None);
    let names = names_of(&merged.scene);
    assert_eq!(names, ["merged 1", "D"]);
    assert_eq!(merged.scene.shapes[1], scene.shapes[3]);
    assert_eq!(merged.groups[0].pieces(), 6);
    assert_eq!(merged.kept.len(), 1);
    assert_eq!(merged.kept[0].shapes, [ShapeId(3)]);
    let notes = merged.notes(Path::new("level.json"));
    assert_eq!(
        notes[1].to_string(),
        "level.json: shape 3 \"D\" (polygon): not merged: it overlaps \"A\" (by 0.1), and merging joins only shapes that touch"
    );
    assert_eq!(notes[1].index, Some(1));
}

#[test]
fn moving_bodies_circles_and_other_kinds_are_kept_as_they_were() {
    let mut crate_box = rect("crate", 2.0, 0.0, 1.0, 1.0);
    crate_box.motion = Motion {
        body: Body::Dynamic,
        ..Motion::default()
    };
    let mut lift = rect("lift", 0.0, 1.0, 1.0, 1.0);
    lift.motion = Motion {
        body: Body::Kinematic,
        velocity: DVec2::Y,
        angular_velocity: 0.0,
    };
    let ball = SceneShape::named(
        "ball",
        Placed::new(Circle::new(0.5).unwrap(), Pose::at(p(0.5, 1.5))),
    );
    let ball2 = SceneShape::named(
        "ball 2",
        Placed::new(Circle::new(0.5).unwrap(), Pose::at(p(1.5, 1.5))),
    );
    let scene = Scene::from_shapes(vec![
        ball,
        tile(0.0, 0.0),
        crate_box.clone(),
        tile(1.0, 0.0),
        lift.clone(),
        ball2,
    ]);
    let merged = merge(&scene, None);
    let names = names_of(&merged.scene);
    assert_eq!(names, ["ball", "merged 1", "crate", "lift", "ball 2"]);
    // Kept shapes keep their ids and everything else.
    for kept in [0, 2, 4, 5] {
        let s = &scene.shapes[kept];
        assert_eq!(merged.scene.get(s.id), Some(s));
    }
    assert_eq!(merged.scene.shapes[2].placed, crate_box.placed);
    assert_eq!(merged.scene.shapes[3].motion, lift.motion);
    assert_eq!(merged.moved, [0, 1, 2, 1, 3, 4]);
    // The chain's id is new.
    let id = merged.groups[0].chains[0];
    assert!(scene.get(id).is_none());
    assert_eq!(merged.scene.index_of(id), Some(1));
}

#[test]
fn a_64_tile_beside_two_32_tiles_is_split_where_they_meet() {
    let scene = Scene::from_shapes(vec![
        rect("big", 0.0, 0.0, 64.0, 64.0),
        rect("low", 64.0, 0.0, 32.0, 32.0),
        rect("high", 64.0, 32.0, 32.0, 32.0),
    ]);
    let merged = merge(&scene, None);
    let (_, chain) = chains(&merged)[0];
    assert_eq!(
        chain.points(),
        [p(0.0, 0.0), p(96.0, 0.0), p(96.0, 64.0), p(0.0, 64.0)]
    );
    // Only the low one: the big tile's right side is split at (64, 32).
    let merged = merge(&Scene::from_shapes(scene.shapes[..2].to_vec()), None);
    let (_, chain) = chains(&merged)[0];
    assert_eq!(
        chain.points(),
        [
            p(0.0, 0.0),
            p(96.0, 0.0),
            p(96.0, 32.0),
            p(64.0, 32.0),
            p(64.0, 64.0),
            p(0.0, 64.0)
        ]
    );
    // And two 32 tiles on a 64 one's top, turned: the same outline, turned.
    let turn = 0.7_f64;
    let r = |q: DVec2| DVec2::from_angle(turn).rotate(q);
    let turned: Vec<SceneShape> = scene
        .shapes
        .iter()
        .map(|s| {
            let mut s = s.clone();
            s.placed.pose = Pose::new(r(s.placed.pose.position), turn);
            s
        })
        .collect();
    let merged = merge(&Scene::from_shapes(turned), None);
    assert_eq!(merged.groups.len(), 1, "{:?}", merged.kept);
    let (_, chain) = chains(&merged)[0];
    assert_eq!(chain.piece_count(), 4);
    assert!((signed_area(chain.points()) - 64.0 * 96.0).abs() < 1e-9);
}

#[test]
fn groups_are_named_in_the_order_of_their_first_shapes_and_the_notes_count_them() {
    let circle = SceneShape::named(
        "coin",
        Placed::new(Circle::new(0.25).unwrap(), Pose::at(p(20.0, 20.0))),
    );
    let scene = Scene::from_shapes(vec![
        circle,
        rect("a1", 0.0, 0.0, 1.0, 1.0),
        rect("b1", 10.0, 0.0, 1.0, 1.0),
        rect("a2", 1.0, 0.0, 1.0, 1.0),
        rect("lone", 30.0, 0.0, 1.0, 1.0),
        rect("b2", 10.0, 1.0, 1.0, 1.0),
        rect("a3", 2.0, 0.0, 1.0, 1.0),
        rect("b3", 11.0, 1.0, 1.0, 1.0),
    ]);
    let merged = merge(&scene, None);
    let names = names_of(&merged.scene);
    assert_eq!(names, ["coin", "merged 1", "merged 2", "lone"]);
    let replaced: Vec<Vec<u32>> = merged
        .groups
        .iter()
        .map(|g| g.replaced.iter().map(|id| id.0).collect())
        .collect();
    assert_eq!(replaced, [vec![1, 3, 6], vec![2, 5, 7]]);
    let notes: Vec<String> = merged
        .notes(Path::new("level.json"))
        .iter()
        .map(|n| n.to_string())
        .collect();
    assert_eq!(
        notes,
        [
            "level.json: chain \"merged 1\": replaced 3 static polygons that touch along edges, from \"a1\": 1 loop of 4 pieces",
            "level.json: chain \"merged 2\": replaced 3 static polygons that touch along edges, from \"b1\": 1 loop of 6 pieces",
        ]
    );
    let note = &merged.notes(Path::new("level.json"))[1];
    assert_eq!(
        (note.shape.as_deref(), note.index),
        (Some("merged 2"), Some(2))
    );
    // Merging the merged set again finds nothing; merging with more tiles numbers on.
    let again = merge(&merged.scene, None);
    assert_eq!(again.scene, merged.scene);
    let mut more = merged.scene.clone();
    more.add(rect("c1", 40.0, 0.0, 1.0, 1.0));
    more.add(rect("c2", 41.0, 0.0, 1.0, 1.0));
    let more = merge(&more, None);
    assert_eq!(more.groups[0].name, "merged 3");
    // Only some shapes: the others stay.
    let some = merge(&scene, Some(&[ShapeId(1), ShapeId(3), ShapeId(2)]));
    let names = names_of(&some.scene);
    assert_eq!(names, ["coin", "merged 1", "b1", "lone", "b2", "a3", "b3"]);
}

#[test]
fn claims_about_replaced_shapes_go_with_them() {
    let text = r#"{"format": "collidoscope-shapes", "version": 2, "shapes": [
        {"name": "l", "kind": "polygon", "points": [[0, 0], [1, 0], [1, 1], [0, 1]]},
        {"name": "r", "kind": "polygon", "points": [[1, 0], [2, 0], [2, 1], [1, 1]]},
        {"name": "ball", "kind": "circle", "position": [0.5, 1.4], "radius": 0.5, "body": "dynamic"},
        {"name": "rock", "kind": "circle", "position": [5, 5], "radius": 0.5}],
      "claims": [
        {"a": 0, "b": 2, "intersecting": true, "depth": 0.1, "normal": [0, 1]},
        {"a": 2, "b": 3, "intersecting": false}]}"#;
    let scene = collidoscope::scene::parse(Path::new("c.json"), text.as_bytes()).unwrap();
    let merged = merge(&scene, None);
    assert_eq!(merged.scene.shapes.len(), 3);
    assert_eq!(merged.scene.claims.len(), 1);
    assert_eq!(
        (merged.scene.claims[0].a, merged.scene.claims[0].b),
        (ShapeId(2), ShapeId(3))
    );
    // It saves and reads back (version 3: it holds a chain).
    let json = collidoscope::scene::to_json(&merged.scene);
    let back = collidoscope::scene::parse(Path::new("m.json"), json.as_bytes()).unwrap();
    assert_eq!(back.shapes.len(), 3);
    assert!(json.contains("\"version\": 3"), "{json}");
}

/// Where the segments `a`-`b` and `c`-`d` overlap or cross other than at shared ends: the
/// length they share on one line, or a crossing.
fn pieces_meet_badly(a: DVec2, b: DVec2, c: DVec2, d: DVec2) -> bool {
    let u = b - a;
    let (s, t) = (cross(u, c - a), cross(u, d - a));
    if s == 0.0 && t == 0.0 {
        let l = u.length();
        let dir = u / l;
        let (tc, td) = (dir.dot(c - a), dir.dot(d - a));
        let shared = l.min(tc.max(td)) - 0.0_f64.max(tc.min(td));
        return shared > 1e-9;
    }
    let v = d - c;
    let (q, r) = (cross(v, a - c), cross(v, b - c));
    s * t < 0.0 && q * r < 0.0
}

/// Whether `q` is in the solid of `loops` (the winding numbers added: outer loops count +1,
/// holes -1).
fn in_loops(q: DVec2, loops: &[Vec<(DVec2, DVec2)>]) -> bool {
    let mut winding = 0;
    for pieces in loops {
        for &(a, b) in pieces {
            if a.y <= q.y {
                if b.y > q.y && cross(b - a, q - a) > 0.0 {
                    winding += 1;
                }
            } else if b.y <= q.y && cross(b - a, q - a) < 0.0 {
                winding -= 1;
            }
        }
    }
    winding != 0
}

fn in_polygon(q: DVec2, s: &SceneShape) -> bool {
    let (lo, hi) = s.placed.aabb();
    q.x >= lo.x
        && q.x <= hi.x
        && q.y >= lo.y
        && q.y <= hi.y
        && collidoscope::query::distance_to_point(&s.placed, q) == 0.0
}

#[test]
fn the_godot_demo_level_merged_covers_what_its_tiles_did_with_no_seams() {
    let imported = import(Path::new(WORLD), Convert { scale: 1.0 }, false).unwrap();
    let before = imported.scene.clone();
    let merged = merge(&before, None);
    // The platforms are CharacterBody2Ds, kinematic: never merged (OneWay4, 1 px into the
    // tile under it, is not even a candidate).
    assert!(merged.kept.is_empty(), "{:?}", merged.kept);
    // 285 of the 288 tiles (three touch others only at corners) and the princess's trigger
    // that sits on tiles: ten groups, the first round two holes.
    let replaced: Vec<&str> = merged
        .groups
        .iter()
        .flat_map(|g| &g.replaced)
        .map(|id| before.get(*id).unwrap().name.as_deref().unwrap())
        .collect();
    assert_eq!(replaced.len(), 286);
    let not_tiles: Vec<&str> = replaced
        .iter()
        .copied()
        .filter(|n| !n.starts_with("TileMapLayer["))
        .collect();
    assert_eq!(not_tiles, ["Princess/Collision"]);
    let shape_of_loops: Vec<usize> = merged.groups.iter().map(|g| g.loops.len()).collect();
    assert_eq!(shape_of_loops, [3, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    assert_eq!(merged.groups[0].holes(), 2);
    assert_eq!(merged.scene.shapes.len(), before.shapes.len() - 286 + 12);
    let with = merge_imported(imported, Path::new(WORLD), 1.0);
    assert_eq!(with.scene, merged.scene);
    let said: Vec<String> = with.notes.iter().map(|n| n.to_string()).collect();
    // The import's five notes (the princess, the four one-way platforms), then the groups.
    assert_eq!(said.len(), 5 + 10, "{said:#?}");
    assert_eq!(
        said[5],
        format!(
            "{WORLD}: chain \"merged 1\": replaced 253 static polygons that touch along edges, from \"TileMapLayer[0,0]/physics_layer_0/polygon_0\": 3 loops (2 round holes), 32 pieces"
        )
    );
    for platform in ["MovingPlatform1/Collision", "OneWay4/CollisionShape2D"] {
        let kept = with
            .scene
            .shapes
            .iter()
            .find(|s| s.name.as_deref() == Some(platform))
            .unwrap();
        assert_eq!(kept.motion.body, collidoscope::scene::Body::Kinematic);
    }
    // The princess's note (a trigger imported as a solid) follows her shape into its chain.
    let princess = &with.notes[0];
    assert!(princess.place.contains("Princess"));
    let at = princess.index.unwrap();
    assert_eq!(with.scene.shapes[at].name, princess.shape);
    assert!(with.scene.shapes[at].placed.shape.as_chain().is_some());

    let loops: usize = merged.groups.iter().map(|g| g.loops.len()).sum();
    let chains: Vec<&SceneShape> = merged
        .scene
        .shapes
        .iter()
        .filter(|s| s.placed.shape.as_chain().is_some())
        .collect();
    assert_eq!(chains.len(), loops);
    for c in &chains {
        assert!(c.placed.shape.as_chain().unwrap().is_loop());
    }
    // No two pieces overlap or cross, and no piece is followed by one going straight on.
    let all: Vec<(DVec2, DVec2)> = chains.iter().flat_map(|c| pieces(c)).collect();
    for i in 0..all.len() {
        for j in i + 1..all.len() {
            let ((a, b), (c, d)) = (all[i], all[j]);
            assert!(!pieces_meet_badly(a, b, c, d), "{:?} {:?}", all[i], all[j]);
        }
    }
    for c in &chains {
        let ps = pieces(c);
        for k in 0..ps.len() {
            let (e1, e2) = (
                ps[k].1 - ps[k].0,
                ps[(k + 1) % ps.len()].1 - ps[(k + 1) % ps.len()].0,
            );
            assert!(
                cross(e1, e2) != 0.0 || e1.dot(e2) < 0.0,
                "collinear pieces not joined"
            );
        }
    }
    // The boundary's length: each tile edge's parts with nothing of the group beyond them.
    for group in &merged.groups {
        let shapes: Vec<&SceneShape> = group
            .replaced
            .iter()
            .map(|id| before.get(*id).unwrap())
            .collect();
        let corners: Vec<DVec2> = shapes.iter().flat_map(|s| world_corners(s)).collect();
        let mut expected = 0.0;
        for s in &shapes {
            let c = world_corners(s);
            for k in 0..c.len() {
                let (a, b) = (c[k], c[(k + 1) % c.len()]);
                let d = (b - a).normalize();
                let n = DVec2::new(d.y, -d.x);
                let mut ts: Vec<f64> = corners
                    .iter()
                    .map(|q| d.dot(*q - a))
                    .filter(|t| *t > 0.0 && *t < a.distance(b))
                    .collect();
                ts.push(0.0);
                ts.push(a.distance(b));
                ts.sort_by(f64::total_cmp);
                for w in ts.windows(2) {
                    let mid = a + d * (w[0] + w[1]) / 2.0 + n * 1e-6;
                    if w[1] > w[0] && !shapes.iter().any(|o| in_polygon(mid, o)) {
                        expected += w[1] - w[0];
                    }
                }
            }
        }
        let length: f64 = group
            .loops
            .iter()
            .flat_map(|c| c.pieces())
            .map(|k| k.p1.distance(k.p2))
            .sum();
        assert!((length - expected).abs() < 1e-9, "{length} {expected}");
        // Area: the loops' signed areas add up to the tiles'.
        let area: f64 = group.loops.iter().map(|c| signed_area(c.points())).sum();
        let tiles: f64 = shapes.iter().map(|s| signed_area(&world_corners(s))).sum();
        assert!((area - tiles).abs() < 1e-9, "{area} {tiles}");
    }
    // Inside the tiles exactly where inside the merged loops: sampled every 4 px (off the
    // grid lines by a little).
    let loops: Vec<Vec<(DVec2, DVec2)>> = chains.iter().map(|c| pieces(c)).collect();
    let replaced_shapes: Vec<&SceneShape> = merged
        .groups
        .iter()
        .flat_map(|g| g.replaced.iter().map(|id| before.get(*id).unwrap()))
        .collect();
    let (mut lo, mut hi) = (DVec2::splat(f64::MAX), DVec2::splat(f64::MIN));
    for s in &replaced_shapes {
        let (a, b) = s.placed.aabb();
        lo = lo.min(a);
        hi = hi.max(b);
    }
    let mut inside = 0;
    let mut y = lo.y - 8.0 + 0.37;
    while y < hi.y + 8.0 {
        let mut x = lo.x - 8.0 + 0.61;
        while x < hi.x + 8.0 {
            let q = p(x, y);
            let in_tiles = replaced_shapes.iter().any(|s| in_polygon(q, s));
            assert_eq!(in_tiles, in_loops(q, &loops), "{q}");
            inside += usize::from(in_tiles);
            x += 4.0;
        }
        y += 4.0;
    }
    assert!(inside > 1000, "{inside}");
}

fn world_corners(s: &SceneShape) -> Vec<DVec2> {
    let Shape::Polygon(poly) = &s.placed.shape else {
        panic!("not a polygon")
    };
    poly.points()
        .iter()
        .map(|q| s.placed.pose.apply(*q))
        .collect()
}

#[test]
fn the_command_merges_a_shape_set_atomically_and_says_what_it_replaced() {
    let bin = env!("CARGO_BIN_EXE_collidoscope");
    let dir = tempfile::tempdir().unwrap();
    let level = dir.path().join("level.json");
    let floor: Vec<String> = (0..12)
        .map(|x| {
            format!(
                r#"{{"name": "floor {x}", "kind": "polygon", "position": [{}, 0.5], "points": [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]]}}"#,
                x as f64 + 0.5
            )
        })
        .collect();
    std::fs::write(
        &level,
        format!(
            r#"{{"format": "collidoscope-shapes", "version": 2, "shapes": [{}, {{"name": "ball", "kind": "circle", "position": [2, 3], "radius": 0.5, "body": "dynamic"}}]}}"#,
            floor.join(", ")
        ),
    )
    .unwrap();
    let out = dir.path().join("merged.json");
    let run = Command::new(bin)
        .arg("import")
        .arg(&level)
        .arg("--merge")
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert_eq!(
        stderr.trim(),
        format!(
            "{}: chain \"merged 1\": replaced 12 static polygons that touch along edges, from \"floor 0\": 1 loop of 4 pieces",
            level.display()
        )
    );
    let merged = collidoscope::scene::load(&out).unwrap();
    assert_eq!(merged.shapes.len(), 2);
    assert_eq!(merged.shapes[0].name.as_deref(), Some("merged 1"));
    let chain = merged.shapes[0].placed.shape.as_chain().unwrap();
    assert_eq!(chain.piece_count(), 4);
    assert_eq!(merged.shapes[1].motion.body, Body::Dynamic);
    // Only the two files: the temporary one is gone.
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["level.json", "merged.json"]);
    // To stdout without -o.
    let printed = Command::new(bin)
        .arg("import")
        .arg(&level)
        .arg("--merge")
        .output()
        .unwrap();
    assert_eq!(printed.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&printed.stdout),
        std::fs::read_to_string(&out).unwrap()
    );
    // A broken shape set: refused by name, OUT left as it was.
    let broken = dir.path().join("broken.json");
    std::fs::write(
        &broken,
        r#"{"format": "collidoscope-shapes", "version": 1, "shapes": [{"kind": "circle", "radius": -1}]}"#,
    )
    .unwrap();
    let before = std::fs::read(&out).unwrap();
    let refused = Command::new(bin)
        .arg("import")
        .arg(&broken)
        .arg("--merge")
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    let message = String::from_utf8_lossy(&refused.stderr);
    assert!(message.contains("broken.json: shape 0"), "{message}");
    assert_eq!(std::fs::read(&out).unwrap(), before);
    // A shape set without --merge, or with --scale: wrong usage, said so.
    let plain = Command::new(bin)
        .arg("import")
        .arg(&level)
        .output()
        .unwrap();
    assert_eq!(plain.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&plain.stderr).contains("pass --merge"));
    let scaled = Command::new(bin)
        .arg("import")
        .arg(&level)
        .args(["--merge", "--scale", "2"])
        .output()
        .unwrap();
    assert_eq!(scaled.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&scaled.stderr).contains("--scale"));
    // A level merged straight from the import: the room's three groups.
    let room = Command::new(bin)
        .args(["import", ROOM, "--merge", "-o"])
        .arg(dir.path().join("room.json"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&room.stderr);
    assert_eq!(room.status.code(), Some(0), "{stderr}");
    assert_eq!(stderr.lines().count(), 3, "{stderr}");
    assert!(
        stderr.contains("chain \"merged 1\": replaced 64 static polygons"),
        "{stderr}"
    );
}

/// A set of tiles no larger than the merge's tolerance (a level imported at 1e-12 without
/// --merge, then merged in the window or as a shape set): nothing can be told to share an
/// edge, and one note says so, naming the size and the tolerance. Each tile was paired with
/// its thousands of neighbours within the tolerance (200 x 200 tiles: 10 s and 1.1 GB) and
/// kept without a word.
#[test]
fn tiles_smaller_than_the_tolerance_are_kept_with_one_note_that_says_why() {
    let size = 3.2e-11;
    let cells: Vec<SceneShape> = (0..20)
        .flat_map(|y| (0..20).map(move |x| (x, y)))
        .map(|(x, y)| {
            let (x, y) = (f64::from(x) * size, f64::from(y) * size);
            rect(&format!("tile {x},{y}"), x, y, size, size)
        })
        .collect();
    let scene = Scene::from_shapes(cells);
    let merged = merge(&scene, None);
    assert!(merged.groups.is_empty());
    assert_eq!(merged.scene, scene);
    assert_eq!(merged.kept.len(), 1, "{:?}", merged.kept);
    assert_eq!(merged.kept[0].shapes.len(), 400);
    assert_eq!(
        merged.summary(),
        "nothing merged: shape 0 \"tile 0,0\" (polygon) it and 399 other static polygons are at \
         most 3.2e-11 across, and merging tells points apart only to 1.0e-9 here (1e-9 of the \
         scale 1 plus the largest coordinate 6.4e-10): too small to find the edges they share; \
         a level imported at a small --scale merges whole when the import merges it (import \
         LEVEL --scale S --merge), in its pixels"
    );
    // Imported at that scale and merged by the import, the same tiles are one chain.
    let scaled = merge_scaled(&scene, None, 1e-12);
    assert!(scaled.kept.is_empty(), "{:?}", scaled.kept);
    assert_eq!(scaled.scene.shapes.len(), 1);
}

/// A Tiled map of `w` x `h` 32-pixel cells: full tiles, bottom and left halves, slopes and
/// empty cells (holes) in a fixed scatter, so that it merges into groups with holes, half-tile
/// steps and T-junctions.
fn scattered_map(w: usize, h: usize) -> String {
    let mut state: u32 = 7;
    let cells: Vec<String> = (0..w * h)
        .map(|_| {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            // gids 1-4 the four tiles, 0 empty; full tiles half the time.
            ["1", "1", "1", "1", "2", "3", "4", "0"][(state >> 16) as usize % 8].to_string()
        })
        .collect();
    let rows: Vec<String> = cells.chunks(w).map(|r| r.join(",")).collect();
    format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="{w}" height="{h}" tilewidth="32" tileheight="32" infinite="0" nextlayerid="2" nextobjectid="1">
 <tileset firstgid="1" name="solid" tilewidth="32" tileheight="32" tilecount="4" columns="4">
  <tile id="0"><objectgroup id="2"><object id="1" x="0" y="0" width="32" height="32"/></objectgroup></tile>
  <tile id="1"><objectgroup id="2"><object id="1" x="0" y="16" width="32" height="16"/></objectgroup></tile>
  <tile id="2"><objectgroup id="2"><object id="1" x="0" y="0" width="16" height="32"/></objectgroup></tile>
  <tile id="3"><objectgroup id="2"><object id="1" x="0" y="0"><polygon points="0,32 32,32 32,0"/></object></objectgroup></tile>
 </tileset>
 <layer id="1" name="Ground" width="{w}" height="{h}">
  <data encoding="csv">
{}
</data>
 </layer>
</map>
"#,
        rows.join(",\n")
    )
}

/// The same map imported at 1e-10, 1e-12, 1e6, 1e-300 and 1e300 merges as at scale 1: the
/// same shapes in the same order, the same notes, every corner the scale-1 corner scaled (to
/// 1e-9 of it). Merging decided in world units made a 32-pixel tile at 1e-12 one point with its
/// neighbours (nothing merged, in 10 s and 1.1 GB for 200 x 200 tiles), and at 1e-10 left out
/// the half tiles' 16-pixel sides (692 shapes where scale 1 gives 222).
#[test]
fn a_map_merges_at_any_scale_as_at_scale_1_its_chains_scaled() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("scattered.tmx");
    std::fs::write(&map, scattered_map(40, 30)).unwrap();
    let at = |scale: f64| {
        let imported = import(&map, Convert { scale }, false).unwrap();
        merge_imported(imported, &map, scale)
    };
    let one = at(1.0);
    // 11 groups, with holes, as 201 chains; 21 tiles touch none along an edge.
    let groups = one
        .notes
        .iter()
        .filter(|n| n.place.starts_with("chain"))
        .count();
    let chains = one
        .scene
        .shapes
        .iter()
        .filter(|s| s.placed.shape.as_chain().is_some())
        .count();
    assert_eq!((groups, chains, one.scene.shapes.len()), (11, 201, 222));
    let said = |notes: &[collidoscope::import::Note]| -> Vec<String> {
        notes
            .iter()
            .map(|n| format!("{}: {}", n.place, n.what))
            .collect()
    };
    let corners = |s: &SceneShape| -> Vec<DVec2> {
        match &s.placed.shape {
            Shape::Chain(c) => c.points().iter().map(|p| s.placed.pose.apply(*p)).collect(),
            _ => world_corners(s),
        }
    };
    for scale in [1e-10, 1e-12, 1e6, 1e-300, 1e300] {
        let scaled = at(scale);
        assert_eq!(
            names_of(&scaled.scene),
            names_of(&one.scene),
            "at scale {scale}"
        );
        assert_eq!(said(&scaled.notes), said(&one.notes), "at scale {scale}");
        for (a, b) in one.scene.shapes.iter().zip(&scaled.scene.shapes) {
            let (pa, pb) = (corners(a), corners(b));
            assert_eq!(pa.len(), pb.len(), "{:?} at scale {scale}", a.name);
            for (p, q) in pa.iter().zip(&pb) {
                let off = (*q / scale - *p).abs().max_element();
                assert!(
                    off <= 1e-9 * (1.0 + p.abs().max_element()),
                    "{:?} at scale {scale}: {q} is not {p} scaled",
                    a.name
                );
            }
        }
    }
}

/// A --scale the numbers cannot hold a level at is refused, naming the scale, the object and
/// its number: at 1e-310 a 32-pixel tile's corners were NaN ("skipped: point 0 must be a
/// finite number, found [NaN, NaN]", an empty set and exit 0), at 1e308 past the largest
/// number ("found [inf, 0]").
#[test]
fn a_scale_the_numbers_cannot_hold_a_level_at_is_refused_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("scattered.tmx");
    std::fs::write(&map, scattered_map(40, 30)).unwrap();
    let bin = env!("CARGO_BIN_EXE_collidoscope");
    for (scale, said) in [
        (
            "1e-310",
            "--scale 1e-310 makes its 32 pixels 3.19999999999999e-309 world units, below the smallest number held to all its digits (2.2e-308): give a larger --scale",
        ),
        (
            "1e308",
            "--scale 1e308 puts its point (0, 16) at 1.6e309 world units, past the largest number (1.8e308): give a smaller --scale",
        ),
    ] {
        for merge in [false, true] {
            let mut command = Command::new(bin);
            command
                .arg("import")
                .arg(&map)
                .args(["--scale", scale, "--skip-unsupported"]);
            if merge {
                command.arg("--merge");
            }
            let run = command.output().unwrap();
            let stderr = String::from_utf8_lossy(&run.stderr);
            assert_eq!(run.status.code(), Some(1), "{stderr}");
            assert!(run.stdout.is_empty());
            assert!(
                stderr.starts_with(&format!("{}: layer \"Ground\" cell (", map.display())),
                "{stderr}"
            );
            assert!(stderr.trim_end().ends_with(said), "{stderr}");
        }
    }
}

/// The room imported, with gravity, a 24 x 32 box sunk 2 px into the floor and moving left
/// at 60 px/s with its left side 0.1 px short of the seam at x = 160, and a ball rolling.
fn room_with_a_box(merged: bool) -> Scene {
    let imported = import(Path::new(ROOM), Convert { scale: 1.0 }, false).unwrap();
    assert_eq!(imported.scene.shapes.len(), 73);
    let mut scene = if merged {
        merge_imported(imported, Path::new(ROOM), 1.0).scene
    } else {
        imported.scene
    };
    scene.gravity = Some(p(0.0, -980.0));
    // The floor's top is y = -352 (row 11 of 32 px tiles, y flipped).
    let mut crate_box = SceneShape::named(
        "box",
        Placed::new(
            ConvexPolygon::rectangle(p(12.0, 16.0)).unwrap(),
            Pose::at(p(160.0 + 12.0 + 0.1, -352.0 + 16.0 - 2.0)),
        ),
    );
    crate_box.motion = Motion {
        body: Body::Dynamic,
        velocity: p(-60.0, 0.0),
        angular_velocity: 0.0,
    };
    scene.add(crate_box);
    let mut ball = SceneShape::named(
        "ball",
        Placed::new(
            Circle::new(10.0).unwrap(),
            Pose::at(p(400.0, -352.0 + 10.0)),
        ),
    );
    ball.motion = Motion {
        body: Body::Dynamic,
        velocity: p(60.0, 0.0),
        angular_velocity: 0.0,
    };
    scene.add(ball);
    scene
}

#[test]
fn a_box_caught_on_a_seam_of_the_room_slides_on_once_its_tiles_are_merged() {
    let config = Config {
        resolver: Resolver::Sat,
        substeps: Substeps::Fixed(1),
        ccd: false,
        ..Config::new(1.0 / 60.0).unwrap()
    };
    // Separate tiles: at step 1 its left side crosses the seam by less than it is sunk, and
    // the face the next tile covers stops it.
    let scene = room_with_a_box(false);
    let the_box = scene.shapes.len() - 2;
    let mut simulation = Simulation::new(scene, config);
    let events = simulation.step().events;
    let seam = events
        .iter()
        .find(|e| e.kind() == EventKind::Seam)
        .unwrap_or_else(|| panic!("{events:?}"));
    assert_eq!((seam.step(), seam.shape()), (1, Some(the_box)));
    assert_eq!(seam.seam().map(|s| s.caught), Some(true));
    assert_eq!(seam.what.normal(), Some(DVec2::X));
    assert_eq!(simulation.scene().shapes[the_box].motion.velocity.x, 0.0);

    // Merged: no seam, and the box keeps sliding at 60 px/s along the floor.
    let scene = room_with_a_box(true);
    let names: Vec<&str> = scene
        .shapes
        .iter()
        .filter_map(|s| s.name.as_deref())
        .filter(|n| n.starts_with("merged"))
        .collect();
    assert_eq!(names, ["merged 1", "merged 1#1", "merged 2", "merged 3"]);
    let the_box = scene.shapes.len() - 2;
    let the_ball = scene.shapes.len() - 1;
    let start = scene.shapes[the_box].placed.pose.position;
    let mut simulation = Simulation::new(scene, config);
    for step in 1..=60 {
        let events = simulation.step().events;
        assert!(
            events
                .iter()
                .all(|e| e.kind() != EventKind::Seam && e.kind() != EventKind::Caught),
            "step {step}: {events:?}"
        );
        let v = simulation.scene().shapes[the_box].motion.velocity;
        assert!((v.x + 60.0).abs() < 1e-9, "step {step}: {v}");
    }
    let shapes = &simulation.scene().shapes;
    let end = shapes[the_box].placed.pose.position;
    assert!((end.x - (start.x - 60.0)).abs() < 1e-6, "{end}");
    // Resting on the floor: its bottom at the floor's top, within a step of gravity.
    assert!((end.y - 16.0 + 352.0).abs() < 0.5, "{end}");
    let ball = shapes[the_ball].placed.pose.position;
    assert!((ball.x - 460.0).abs() < 1e-6, "{ball}");
    // Nothing ends inside the room's walls.
    for k in [the_box, the_ball] {
        for s in shapes
            .iter()
            .filter(|s| s.placed.shape.as_chain().is_some())
        {
            let depth = collide(&s.placed, &shapes[k].placed).map_or(0.0, |c| c.depth);
            assert!(depth < 0.5, "{depth}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Random grids of unit tiles: the loops hold exactly the tiles' area, each group is one
    /// edge-connected set of tiles (tiles meeting only at a corner never merge), and every
    /// lone tile stays as it was.
    #[test]
    fn merged_grids_hold_the_tiles_area_and_never_join_corners(
        mask in proptest::collection::vec(any::<bool>(), 36),
        width in 2usize..=6,
    ) {
        let height = mask.len() / width;
        let cells: Vec<(i32, i32)> = (0..width * height)
            .filter(|&k| mask[k])
            .map(|k| ((k % width) as i32, (k / width) as i32))
            .collect();
        let scene = tiles(&cells);
        let merged = merge(&scene, None);
        prop_assert!(merged.kept.is_empty());
        let mut area = 0.0;
        for s in &merged.scene.shapes {
            area += match &s.placed.shape {
                Shape::Chain(c) => signed_area(c.points()),
                Shape::Polygon(_) => 1.0,
                _ => unreachable!(),
            };
        }
        prop_assert_eq!(area, cells.len() as f64);
        // The groups are the 4-connected components of two tiles or more.
        let index = |c: (i32, i32)| cells.iter().position(|&d| d == c);
        let mut component = vec![usize::MAX; cells.len()];
        let mut components = 0;
        for start in 0..cells.len() {
            if component[start] != usize::MAX {
                continue;
            }
            let mut stack = vec![start];
            component[start] = components;
            while let Some(k) = stack.pop() {
                let (x, y) = cells[k];
                for n in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)] {
                    if let Some(j) = index(n)
                        && component[j] == usize::MAX
                    {
                        component[j] = components;
                        stack.push(j);
                    }
                }
            }
            components += 1;
        }
        let mut expected: Vec<Vec<u32>> = (0..components)
            .map(|c| (0..cells.len()).filter(|&k| component[k] == c).map(|k| k as u32).collect())
            .filter(|g: &Vec<u32>| g.len() > 1)
            .collect();
        expected.sort();
        let found: Vec<Vec<u32>> = merged
            .groups
            .iter()
            .map(|g| g.replaced.iter().map(|id| id.0).collect())
            .collect();
        prop_assert_eq!(found, expected);
        // Every loop closed, counter-clockwise outside, clockwise round a hole, pieces never
        // collinear with the next.
        for g in &merged.groups {
            prop_assert!(signed_area(g.loops[0].points()) > 0.0);
            for c in &g.loops[1..] {
                prop_assert!(signed_area(c.points()) < 0.0);
            }
            for c in &g.loops {
                prop_assert!(c.is_loop());
                let ps: Vec<_> = c.pieces().collect();
                for k in 0..ps.len() {
                    let next = ps[(k + 1) % ps.len()];
                    prop_assert!(cross(ps[k].p2 - ps[k].p1, next.p2 - next.p1) != 0.0);
                }
            }
        }
    }
}
