//! The slab-proved search for the closest edges of two polygons, or of a polygon and a
//! capsule's core (`closest.rs`), against the search over every pair of edges. Apart from
//! `closest.rs`, which the scene's own code uses, so that its tests' random shapes (the
//! scene's generator) make no circle of imports.
use super::closest::{
    PolygonHint, closest_cores_with_pair, closest_polygon_cores, proves_closest_edges,
};
use super::fast_path::tests::{polygon, spot};
use crate::geometry::{Capsule, ConvexPolygon, DVec2, Pose, Rounded, Shape};
use crate::scene::generate::Random;

/// On 300,000 random pairs (a polygon with a polygon, or with a capsule's core either way
/// round; either winding, four scales, many near touching), asked with no hint, with the
/// hint the pair left a little earlier in a turn (as a time of impact's steps ask it) and
/// with a hint of random edges and direction, the slab-proved search finds the distance
/// that trying every pair of edges finds, within 1e-9 of the pair's size (the proof allows
/// a few ulps of the coordinates): for two polygons apart, and for a polygon and a segment
/// whether apart or not (`None` where one holds the other).
#[test]
fn the_proved_search_finds_the_distance_every_pair_finds() {
    let mut r = Random::new(0x00c1_05e5_7ed9);
    let (mut asked, mut with_segment, mut worst) = (0, 0, 0.0f64);
    for k in 0..300_000 {
        let size = [1.0, 0.01, 100.0, 1e4][k % 4];
        let pa = polygon(&mut r, size);
        let (sa, sb) = match k % 3 {
            0 => (
                Shape::Polygon(pa.clone()),
                Shape::Polygon(polygon(&mut r, size)),
            ),
            kind => {
                let half = DVec2::from_angle(r.between(0.0, 6.3)) * size * r.between(0.2, 2.0);
                let capsule = Capsule::new(-half, half, 0.1 * size).unwrap();
                let (p, c) = (Shape::Polygon(pa.clone()), Shape::Capsule(capsule));
                if kind == 1 { (p, c) } else { (c, p) }
            }
        };
        let segment = k % 3 != 0;
        let pose_a = Pose::new(spot(&mut r, size), r.between(-4.0, 4.0));
        let reach = 3.0 * pa.bounding_radius();
        let gap = if k % 2 == 0 {
            r.between(0.1, 0.6)
        } else {
            r.between(0.6, 1.2)
        };
        let angle = r.between(-4.0, 4.0);
        let at = pose_a.position + DVec2::from_angle(r.between(0.0, 6.3)) * gap * reach;
        let pose_b = Pose::new(at, angle);
        let origin = pose_a.position;
        let (va, vb) = (
            Rounded::at(&sa, pose_a, origin),
            Rounded::at(&sb, pose_b, origin),
        );
        assert!(proves_closest_edges(&va, &vb));
        let every = closest_cores_with_pair(&va, &vb).map(|(c, _)| c);
        if every.is_none_or(|c| c.distance == 0.0) && !segment {
            continue;
        }
        let earlier = Pose::new(at, angle - r.between(1e-6, 0.05));
        let turned = Rounded::at(&sb, earlier, origin);
        let stepped = closest_polygon_cores(&va, &turned, None).map(|(_, h)| h);
        let random = PolygonHint {
            edge_a: (r.unit() * va.segment_count() as f64) as usize,
            edge_b: (r.unit() * vb.segment_count() as f64) as usize,
            direction: DVec2::from_angle(r.between(0.0, 6.3)),
        };
        for hint in [None, stepped, Some(random)] {
            let found = closest_polygon_cores(&va, &vb, hint).map(|(c, _)| c);
            asked += 1;
            with_segment += usize::from(segment);
            let (Some(found), Some(every)) = (found, every) else {
                assert_eq!(found, every, "pair {k}, hint {hint:?}");
                continue;
            };
            let off = (found.distance - every.distance).abs() / size;
            worst = worst.max(off);
            assert!(
                off <= 1e-9,
                "pair {k}, hint {hint:?}: {} against {} over every pair",
                found.distance,
                every.distance
            );
            let between = (found.point_b - found.point_a).length();
            assert!((between - found.distance).abs() <= 1e-9 * size);
        }
    }
    assert!(
        asked > 600_000 && with_segment > 500_000,
        "{asked} asked, {with_segment} with a segment"
    );
    eprintln!("{asked} searches ({with_segment} with a segment), worst {worst:e} of the size");
}

/// Two polygons a hair apart, a corner of B 1.6e-5 from an edge of A, asked with the hint
/// of a step before in which B had turned 1e-4 rad: the direction between the points is
/// good to about 1e-11 and the hint's is off by the turn, so neither proves the pair; the
/// normal of A's edge does, and the pair asked is the answer. (A search over every pair
/// would name B's corner by its edge before, 0, where the pair asked names it by 1.) Both
/// ways round.
#[test]
fn a_corner_a_hair_from_an_edge_is_proved_by_the_edge_normal() {
    let a = ConvexPolygon::new(vec![
        DVec2::new(1.965859144435558, 1.1323798961933507),
        DVec2::new(1.4358766712428443, 1.7140709411267865),
        DVec2::new(1.3317320648991564, 1.7909095138818965),
        DVec2::new(-2.0903784783999306, 0.9949951473981444),
        DVec2::new(-2.2445633690234783, 0.5844284450098768),
        DVec2::new(-2.3013066290541664, -0.18229051783745465),
        DVec2::new(-0.026840771501134064, -2.2223765348263065),
        DVec2::new(0.8265743406410546, -2.0930769130368763),
    ])
    .unwrap();
    let b = ConvexPolygon::new(vec![
        DVec2::new(1.9936612072380144, 1.0511413928261066),
        DVec2::new(1.912797788746311, 0.9821093819748312),
        DVec2::new(1.0602631520323276, -3.8287898634929864),
        DVec2::new(4.3093880037348375, -0.6232411547312758),
    ])
    .unwrap();
    let (sa, sb) = (Shape::Polygon(a), Shape::Polygon(b));
    let (va, vb) = (
        Rounded::at(&sa, Pose::IDENTITY, DVec2::ZERO),
        Rounded::at(&sb, Pose::IDENTITY, DVec2::ZERO),
    );
    let (every, pair) = closest_cores_with_pair(&va, &vb).unwrap();
    assert_eq!(pair, (7, 0));
    let normal = va.normal(7);
    let hint = PolygonHint {
        edge_a: 7,
        edge_b: 1,
        direction: DVec2::from_angle(normal.to_angle() + 1e-4),
    };
    let (found, next) = closest_polygon_cores(&va, &vb, Some(hint)).unwrap();
    assert_eq!(
        (next.edge_a, next.edge_b),
        (7, 1),
        "proved where it was asked"
    );
    assert!((next.direction - normal).length() <= 1e-15, "{next:?}");
    assert!((found.distance - every.distance).abs() <= 1e-18);
    assert!((found.distance - 1.5728208e-5).abs() < 1e-12);
    // The other way round: the edge is B's, its normal turned to point from A toward B.
    let (every, pair) = closest_cores_with_pair(&vb, &va).unwrap();
    assert_eq!(pair, (0, 7));
    let hint = PolygonHint {
        edge_a: 1,
        edge_b: 7,
        direction: -hint.direction,
    };
    let (found, next) = closest_polygon_cores(&vb, &va, Some(hint)).unwrap();
    assert_eq!(
        (next.edge_a, next.edge_b),
        (1, 7),
        "proved where it was asked"
    );
    assert!((next.direction + normal).length() <= 1e-15, "{next:?}");
    assert!((found.distance - every.distance).abs() <= 1e-18);
}
