//! Tiled maps imported (docs/format.md, "Import", "Tiled maps"), on rs-tiled's test maps
//! (tests/levels/tiled/SOURCE.md). Expected values are worked out by hand from the map text:
//! Tiled's y-down pixels flipped, rotations clockwise in degrees, tile collision objects
//! placed in their cell.

use collidoscope::geometry::{DVec2, Shape};
use collidoscope::import::{Convert, Imported, import};
use collidoscope::scene::SceneShape;
use std::path::Path;

fn imported(path: &str) -> Imported {
    import(Path::new(path), Convert { scale: 1.0 }, false).unwrap()
}

fn shape<'a>(set: &'a Imported, name: &str) -> &'a SceneShape {
    set.scene
        .shapes
        .iter()
        .find(|s| s.name.as_deref() == Some(name))
        .unwrap_or_else(|| panic!("no shape {name:?}"))
}

/// A polygon's corners in the world, sorted.
fn corners(s: &SceneShape) -> Vec<DVec2> {
    let Shape::Polygon(p) = &s.placed.shape else {
        panic!("{:?} is not a polygon", s.name)
    };
    let mut c: Vec<DVec2> = p
        .points()
        .iter()
        .map(|q| s.placed.pose.apply(*q))
        // Within rounding of whole pixels (every corner here is on one).
        .map(|p| {
            assert!((p - p.round()).length() < 1e-9, "{p}");
            p.round()
        })
        .collect();
    c.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    c
}

fn square(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<DVec2> {
    vec![
        DVec2::new(x0, y0),
        DVec2::new(x0, y1),
        DVec2::new(x1, y0),
        DVec2::new(x1, y1),
    ]
}

#[test]
fn objects_become_shapes_where_tiled_draws_them() {
    let set = imported("tests/levels/tiled/tiled_csv.tmx");
    // Object 1: a 285 x 135 rectangle at (14, 9).
    assert_eq!(
        corners(shape(&set, "rectangle 1")),
        square(14.0, -144.0, 299.0, -9.0)
    );
    // Object 2: an ellipse 102 x 109 at (329, 217): 32 points about its centre.
    let ellipse = shape(&set, "ellipse 2");
    let Shape::Polygon(p) = &ellipse.placed.shape else {
        panic!("a polygon")
    };
    assert_eq!(p.points().len(), 32);
    // Its rightmost point: the centre (380, 271.5) plus the half-width 51.
    let right = DVec2::new(329.0 + 102.0, -(217.0 + 54.5));
    assert!(
        p.points()
            .iter()
            .any(|q| (ellipse.placed.pose.apply(*q) - right).length() < 1e-9)
    );
    // Object 3: a polyline of 6 points at (314, 376): 5 segments.
    let first = shape(&set, "polyline 3#0");
    let Shape::Segment(s) = &first.placed.shape else {
        panic!("a segment")
    };
    assert_eq!(first.placed.pose.apply(s.a()), DVec2::new(314.0, -376.0));
    assert_eq!(first.placed.pose.apply(s.b()), DVec2::new(203.0, -313.0));
    assert!(
        set.scene
            .shapes
            .iter()
            .any(|s| s.name.as_deref() == Some("polyline 3#4"))
    );
    // The ellipse approximated and object 4, a concave polygon, split: the notes say so.
    let file = "tests/levels/tiled/tiled_csv.tmx";
    assert_eq!(
        set.notes
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>(),
        [
            format!(
                "{file}: object 2 \"ellipse 2\" (ellipse): approximated: an ellipse of unequal axes becomes the inscribed 32-point polygon (0.64% less area)"
            ),
            format!("{file}: object 4 \"polygon 4\" (polygon): split into 3 convex pieces"),
        ]
    );
    // The same objects in an infinite map with compressed chunks.
    let infinite = imported("tests/levels/tiled/tiled_base64_zlib_infinite.tmx");
    assert_eq!(infinite.scene.shapes.len(), set.scene.shapes.len());
}

#[test]
fn a_capsule_object_is_a_capsule() {
    let set = imported("tests/levels/tiled/tiled_object_capsule.tmx");
    // 16 x 48 at (8, 8): radius 8, from (16, 16) to (16, 48) on the map.
    let c = shape(&set, "capsule 1");
    let Shape::Capsule(k) = &c.placed.shape else {
        panic!("a capsule")
    };
    assert_eq!(k.radius(), 8.0);
    assert_eq!(c.placed.pose.apply(k.a()), DVec2::new(16.0, -16.0));
    assert_eq!(c.placed.pose.apply(k.b()), DVec2::new(16.0, -48.0));
}

#[test]
fn tile_collision_from_templates_lands_in_its_cell() {
    let set = imported("tests/levels/tiled/templates/example.tmx");
    // Cell (0, 0), tile 0: one 32 x 32 wall.
    assert_eq!(
        corners(shape(&set, "Tile Layer 1[0,0]/wall 1")),
        square(0.0, -32.0, 32.0, 0.0)
    );
    // Cell (98, 4), tile 1: corner walls (templates, 16 x 16) at (0, 16), (0, 0), (16, 0).
    assert_eq!(
        corners(shape(&set, "Tile Layer 1[98,4]/wall 2")),
        square(3136.0, -160.0, 3152.0, -144.0)
    );
    // Cell (99, 4), tile 2: a 16 x 32 edge at (0, 16) turned 270 degrees clockwise: it covers
    // the cell's top half, (0..32, 0..16) in the cell.
    assert_eq!(
        corners(shape(&set, "Tile Layer 1[99,4]/wall 2")),
        square(3168.0, -144.0, 3200.0, -128.0)
    );
    // Tile objects from a template (no collision in their tile): each its 32 x 32 rectangle,
    // its (x, y) the bottom-left corner; object 3 is at (1384, 2206).
    let figures: Vec<Vec<DVec2>> = set
        .scene
        .shapes
        .iter()
        .filter(|s| s.name.as_deref() == Some("simple_figure"))
        .filter(|s| s.placed.pose.position.y == -2174.0)
        .map(corners)
        .collect();
    assert_eq!(
        set.scene
            .shapes
            .iter()
            .filter(|s| s.name.as_deref() == Some("simple_figure"))
            .count(),
        4
    );
    assert!(figures.contains(&square(1384.0, -2206.0, 1416.0, -2174.0)));
}

#[test]
fn what_is_not_a_level_or_not_orthogonal_is_refused_and_text_is_a_note() {
    let e = import(
        Path::new("tests/levels/tiled/tiled_oblique.tmx"),
        Convert { scale: 1.0 },
        false,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "tests/levels/tiled/tiled_oblique.tmx: an oblique map: collidoscope imports orthogonal maps only"
    );
    let e = import(
        Path::new("tests/levels/tiled/tilesheet.tsx"),
        Convert { scale: 1.0 },
        false,
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "tests/levels/tiled/tilesheet.tsx: a tileset, not a map: import the map that uses it"
    );
    let text = imported("tests/levels/tiled/tiled_text_object.tmx");
    assert!(text.scene.shapes.is_empty());
    assert_eq!(
        text.notes[0].to_string(),
        "tests/levels/tiled/tiled_text_object.tmx: object 1 \"text 1\" (text): skipped: a text object has no collision shape"
    );
}

#[test]
fn a_tile_layer_cut_short_is_refused_not_a_crash() {
    // Found by the fuzz target: the tiled crate indexes past the cells it read.
    let dir = tempfile::tempdir().unwrap();
    let map = dir.path().join("short.tmx");
    std::fs::write(
        &map,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="2" height="2" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" name="t" tilewidth="16" tileheight="16" tilecount="1" columns="1"/>
 <layer id="1" name="Ground" width="2" height="2">
  <data encoding="csv">1,1,1</data>
 </layer>
</map>"#,
    )
    .unwrap();
    let e = import(&map, Convert { scale: 1.0 }, false).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: a tile layer's data has fewer cells than its width x height (the map is cut short or edited by hand)",
            map.display()
        )
    );
}

mod generated {
    //! Maps generated with tile objects of random size, rotation, flips and alignment: every
    //! corner of their tiles' collision polygon lands where Tiled's own order of operations
    //! puts it (flips, diagonal first; the tileset's offset; the scale to the object's size;
    //! the alignment point; the rotation about (x, y)), worked out here step by step.

    use collidoscope::geometry::{DVec2, Shape};
    use collidoscope::import::{Convert, import_bytes};
    use proptest::prelude::*;
    use std::path::Path;

    const ALIGNMENTS: [(&str, (f64, f64)); 9] = [
        ("topleft", (0.0, 0.0)),
        ("top", (0.5, 0.0)),
        ("topright", (1.0, 0.0)),
        ("left", (0.0, 0.5)),
        ("center", (0.5, 0.5)),
        ("right", (1.0, 0.5)),
        ("bottomleft", (0.0, 1.0)),
        ("bottom", (0.5, 1.0)),
        ("bottomright", (1.0, 1.0)),
    ];
    /// The tile's collision polygon, in the tile (24 wide, 16 high), corners clockwise on
    /// screen.
    const POLYGON: [(f64, f64); 4] = [(2.0, 3.0), (20.0, 1.0), (22.0, 14.0), (5.0, 12.0)];
    const TILE: (f64, f64) = (24.0, 16.0);

    #[derive(Clone, Debug)]
    struct Placed {
        x: f64,
        y: f64,
        w: f64,
        h: f64,
        rotation: f64,
        flips: (bool, bool, bool),
    }

    fn placed() -> impl Strategy<Value = Placed> {
        (
            (-300.0f64..300.0, -300.0f64..300.0),
            (4.0f64..80.0, 4.0f64..80.0),
            -360.0f64..360.0,
            (any::<bool>(), any::<bool>(), any::<bool>()),
        )
            .prop_map(|((x, y), (w, h), rotation, flips)| Placed {
                x: x.round(),
                y: y.round(),
                w: w.round(),
                h: h.round(),
                rotation: (rotation * 4.0).round() / 4.0,
                flips,
            })
    }

    /// Where Tiled puts tile point `p` of the object, on the map (y down).
    fn tiled_point(p: DVec2, o: &Placed, offset: DVec2, align: (f64, f64)) -> DVec2 {
        let (h, v, d) = o.flips;
        let (mut q, mut size) = (p, DVec2::new(TILE.0, TILE.1));
        if d {
            q = DVec2::new(q.y, q.x);
            size = DVec2::new(size.y, size.x);
        }
        if h {
            q.x = size.x - q.x;
        }
        if v {
            q.y = size.y - q.y;
        }
        q += offset;
        q = DVec2::new(q.x * o.w / size.x, q.y * o.h / size.y);
        q -= DVec2::new(align.0 * o.w, align.1 * o.h);
        let (s, c) = o.rotation.to_radians().sin_cos();
        DVec2::new(o.x + c * q.x - s * q.y, o.y + s * q.x + c * q.y)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn tile_objects_land_where_tiled_puts_them(
            objects in proptest::collection::vec(placed(), 1..4),
            alignment in 0usize..9,
            offset in (-6i32..6, -6i32..6),
        ) {
            let (align_name, align) = ALIGNMENTS[alignment];
            let offset = DVec2::new(f64::from(offset.0), f64::from(offset.1));
            let points: Vec<String> = POLYGON.iter().map(|(x, y)| format!("{x},{y}")).collect();
            let mut map = format!(
                r#"<?xml version="1.0" encoding="UTF-8"?>
<map version="1.10" orientation="orthogonal" renderorder="right-down" width="4" height="4" tilewidth="16" tileheight="16" infinite="0">
 <tileset firstgid="1" name="t" tilewidth="24" tileheight="16" tilecount="1" columns="1" objectalignment="{align_name}">
  <tileoffset x="{}" y="{}"/>
  <tile id="0">
   <objectgroup>
    <object id="1" name="hull" x="0" y="0"><polygon points="{}"/></object>
   </objectgroup>
  </tile>
 </tileset>
 <objectgroup id="1" name="Things">
"#,
                offset.x, offset.y, points.join(" ")
            );
            for (k, o) in objects.iter().enumerate() {
                let (h, v, d) = o.flips;
                let gid = 1u32 | (u32::from(h) << 31) | (u32::from(v) << 30) | (u32::from(d) << 29);
                map.push_str(&format!(
                    "  <object id=\"{}\" name=\"thing{k}\" gid=\"{gid}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rotation=\"{}\"/>\n",
                    k + 1, o.x, o.y, o.w, o.h, o.rotation
                ));
            }
            map.push_str(" </objectgroup>\n</map>\n");
            let set = import_bytes(Path::new("generated.tmx"), map.as_bytes(), Convert { scale: 1.0 }, false)
                .map_err(|e| TestCaseError::fail(e.to_string()))?;
            for (k, o) in objects.iter().enumerate() {
                let name = format!("thing{k}/hull");
                let s = set.scene.shapes.iter().find(|s| s.name.as_deref() == Some(name.as_str()));
                let s = s.ok_or_else(|| TestCaseError::fail(format!("no {name}")))?;
                let Shape::Polygon(p) = &s.placed.shape else { panic!("a polygon") };
                let got: Vec<DVec2> = p.points().iter().map(|q| s.placed.pose.apply(*q)).collect();
                for (x, y) in POLYGON {
                    let at = tiled_point(DVec2::new(x, y), o, offset, align);
                    let want = DVec2::new(at.x, -at.y);
                    prop_assert!(
                        got.iter().any(|g| (*g - want).length() < 1e-9),
                        "{name}: {want} not in {got:?}"
                    );
                }
            }
        }
    }
}
