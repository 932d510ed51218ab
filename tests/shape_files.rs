//! Every example in shapes/ loads and shows the verdict shapes/README.md documents.

use collidoscope::geometry::{DVec2, Feature, ShapeKind};
use collidoscope::query::{AxisSource, PairReport, Side, Verdict, pair_report};
use collidoscope::scene::{self, Scene};
use std::path::Path;

fn load(name: &str) -> Scene {
    scene::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("shapes")
            .join(name),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

fn pair(scene: &Scene, i: usize, j: usize) -> PairReport {
    pair_report(&scene.shapes[i].placed, &scene.shapes[j].placed)
}

#[track_caller]
fn close(a: f64, b: f64, tolerance: f64) {
    assert!((a - b).abs() <= tolerance, "{a} != {b}");
}

#[track_caller]
fn close_vec(a: DVec2, b: DVec2, tolerance: f64) {
    assert!(a.distance(b) <= tolerance, "{a} != {b}");
}

fn check(name: &str) {
    match name {
        "corner-false-positive.json" => {
            let r = pair(&load(name), 0, 1);
            let Verdict::Separated { first, gap, .. } = r.sat.verdict else {
                panic!("{name}")
            };
            assert_eq!(
                r.sat.axes[first].source,
                AxisSource::VertexToCentre {
                    polygon: Side::A,
                    vertex: 2
                }
            );
            assert!(r.sat.axes[..4].iter().all(|t| !t.separating));
            close(gap, 0.4 * 2f64.sqrt() - 0.5, 1e-12);
        }
        "clockwise-obstacle.json" | "far-from-origin.json" => {
            let r = pair(&load(name), 0, 1);
            let mtv = r.sat.mtv.expect(name);
            close(mtv.depth, 1.0, 1e-9);
            close_vec(mtv.normal, DVec2::new(1.0, 2.0).normalize(), 1e-9);
            assert!(r.naive.unwrap().pushes_inward);
        }
        "clockwise-rectangle-mtv.json" => {
            let r = pair(&load(name), 0, 1);
            let mtv = r.sat.mtv.unwrap();
            close(mtv.depth, 0.2, 1e-12);
            close_vec(mtv.normal, DVec2::Y, 1e-12);
            let naive = r.naive.unwrap();
            close_vec(naive.normal, -DVec2::Y, 1e-12);
            assert!(naive.pushes_inward);
        }
        "capsule-vs-circle.json" => {
            let s = load(name);
            let end = pair(&s, 0, 1);
            let mtv = end.sat.mtv.unwrap();
            close(mtv.depth, 1.0 - 0.45f64.sqrt(), 1e-12);
            assert_eq!(
                end.sat.axes[mtv.axis].source,
                AxisSource::ClosestFeatures {
                    a: Feature::Vertex(1),
                    b: Feature::Vertex(0)
                }
            );
            let top = pair(&s, 0, 2);
            assert!(top.contact.is_none());
            close(top.proximity.distance, 0.3, 1e-12);
        }
        "triangles-slanted-gap.json" => {
            let r = pair(&load(name), 0, 1);
            let separating: Vec<usize> = (0..r.sat.axes.len())
                .filter(|&k| r.sat.axes[k].separating)
                .collect();
            assert_eq!(separating, vec![1]);
            assert_eq!(
                r.sat.axes[1].source,
                AxisSource::EdgeNormal {
                    of: Side::A,
                    edge: 1
                }
            );
            let Verdict::Separated { gap, .. } = r.sat.verdict else {
                panic!("{name}")
            };
            close(gap, 0.4 / 2f64.sqrt(), 1e-12);
        }
        "every-pair.json" => {
            let s = load(name);
            let n = s.shapes.len();
            let mut intersecting = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if pair(&s, i, j).contact.is_some() {
                        intersecting.push((i, j));
                    }
                }
            }
            assert_eq!(
                intersecting,
                vec![(0, 1), (2, 3), (4, 5), (6, 7), (8, 9), (10, 11)]
            );
            let kinds: Vec<(ShapeKind, ShapeKind)> = intersecting
                .iter()
                .map(|&(i, j)| {
                    (
                        s.shapes[i].placed.shape.kind(),
                        s.shapes[j].placed.shape.kind(),
                    )
                })
                .collect();
            use ShapeKind::*;
            assert_eq!(
                kinds,
                vec![
                    (Circle, Circle),
                    (Circle, Capsule),
                    (Circle, Polygon),
                    (Capsule, Capsule),
                    (Capsule, Polygon),
                    (Polygon, Polygon)
                ]
            );
        }
        "ghost-seam.json" => {
            use collidoscope::query::{ChainRule, chain_pieces};
            let s = load(name);
            let pieces = chain_pieces(&s.shapes[0].placed, &s.shapes[2].placed);
            let rules: Vec<ChainRule> = pieces.iter().map(|p| p.rule).collect();
            use ChainRule::*;
            assert_eq!(rules, [Apart, Snap, Admit, Apart]);
            close(pieces[1].summary.depth, 0.002, 1e-15);
            close_vec(pieces[1].summary.normal.unwrap(), DVec2::Y, 0.0);
            close(pieces[1].two_sided.depth, 0.0005, 1e-15);
            close_vec(pieces[1].two_sided.normal.unwrap(), DVec2::NEG_X, 0.0);
            let claim = &s.claims[0];
            assert_eq!(claim.reported.piece, Some(2));
            close(
                claim.reported.depth.unwrap(),
                pieces[1].two_sided.depth,
                1e-12,
            );
        }
        "ghost-bumps.json" => {
            use collidoscope::event::{EventKind, What};
            use collidoscope::motion::{Config, Resolver, Simulation};
            let run = |resolver: Resolver| {
                let config = Config {
                    resolver,
                    ..Config::new(1.0 / 60.0).unwrap()
                };
                let mut simulation = Simulation::new(load(name), config);
                let events: Vec<_> = (0..240).flat_map(|_| simulation.step().events).collect();
                (simulation, events)
            };
            let (sat, events) = run(Resolver::Sat);
            // The catch on tile 2's end is also a seam at its corner with tile 1: the floor
            // they make faces up, the contact's normal (-1, 0) leans from it.
            let (events, corners): (Vec<_>, Vec<_>) = events
                .into_iter()
                .partition(|e| e.kind() != EventKind::Seam);
            assert_eq!(corners.len(), 1, "{corners:?}");
            assert_eq!(
                (
                    corners[0].step(),
                    corners[0].seam().and_then(|s| s.corner).map(|c| c.corner),
                    corners[0]
                        .seam()
                        .and_then(|s| s.corner)
                        .map(|c| c.surface_normal)
                ),
                (12, Some(DVec2::new(1.0, -2.0)), Some(DVec2::Y))
            );
            let caught: Vec<(u64, usize, usize, Option<usize>)> = events
                .iter()
                .map(|e| (e.step(), e.a, e.b, e.what.piece()))
                .collect();
            assert!(events.iter().all(|e| e.kind() == EventKind::Caught));
            // Tile 2 (shape 7) against the crate on the tiles (shape 10).
            assert_eq!(caught, [(12, 7, 10, None)]);
            let What::Caught { lost, .. } = events[0].what else {
                panic!("{:?}", events[0])
            };
            close(lost, 1.5, 1e-12);
            let crate_on_chain = &sat.scene().shapes[9];
            close_vec(
                crate_on_chain.placed.pose.position,
                DVec2::new(6.451, 0.25),
                1e-9,
            );
            close_vec(crate_on_chain.motion.velocity, DVec2::new(1.5, 0.0), 1e-12);
            let (_, events) = run(Resolver::Mistake(
                collidoscope::query::Mistake::InternalEdge,
            ));
            let caught: Vec<(u64, usize, usize, Option<usize>)> = events
                .iter()
                .filter(|e| e.kind() == EventKind::Caught)
                .map(|e| (e.step(), e.a, e.b, e.what.piece()))
                .collect();
            assert_eq!(caught, [(12, 0, 9, Some(7)), (12, 7, 10, None)]);
        }
        "rounded-crate-seam.json" => {
            use collidoscope::motion::{Config, EventKind, SeamAt, Simulation};
            let scene = load(name);
            assert_eq!(scene.version_needed(), 4);
            let mut simulation = Simulation::new(scene, Config::new(1.0 / 60.0).unwrap());
            let events: Vec<_> = (0..240).flat_map(|_| simulation.step().events).collect();
            assert!(
                events.iter().all(|e| e.kind() == EventKind::Seam),
                "{events:?}"
            );
            // The square crate (shape 16) is caught on the face of tile 2 (shape 1).
            let faces: Vec<_> = events
                .iter()
                .filter(|e| e.seam().map(|s| s.at()) == Some(SeamAt::Face))
                .collect();
            assert_eq!(faces.len(), 1, "{events:?}");
            assert_eq!(
                (
                    faces[0].step(),
                    faces[0].shape(),
                    faces[0].seam().map(|s| s.face_of)
                ),
                (12, Some(16), Some(1))
            );
            assert_eq!(faces[0].seam().map(|s| s.caught), Some(true));
            // The rounded crate (shape 17) is bumped on each shared corner it passes, leaning
            // 1.213 degrees, and rides on.
            let corners: Vec<_> = events
                .iter()
                .filter(|e| e.seam().map(|s| s.at()) == Some(SeamAt::Corner))
                .collect();
            let steps: Vec<u64> = corners.iter().map(|e| e.step()).collect();
            assert_eq!(steps, [30, 70, 110, 150, 190, 230]);
            for (k, e) in corners.iter().enumerate() {
                assert_eq!(e.shape(), Some(17));
                close_vec(
                    e.seam().and_then(|s| s.corner).map(|c| c.corner).unwrap(),
                    DVec2::new(1.0 + k as f64, -2.0),
                    1e-12,
                );
                close_vec(
                    e.seam()
                        .and_then(|s| s.corner)
                        .map(|c| c.surface_normal)
                        .unwrap(),
                    DVec2::Y,
                    0.0,
                );
                let lean = e
                    .what
                    .normal()
                    .unwrap()
                    .angle_to(DVec2::Y)
                    .abs()
                    .to_degrees();
                close(lean, 1.213, 1e-3);
            }
            let shapes = &simulation.scene().shapes;
            close_vec(
                shapes[16].placed.pose.position,
                DVec2::new(0.75, 0.25),
                1e-9,
            );
            close_vec(shapes[16].motion.velocity, DVec2::ZERO, 1e-12);
            close_vec(
                shapes[17].placed.pose.position,
                DVec2::new(6.451, -1.75),
                1e-9,
            );
            close_vec(shapes[17].motion.velocity, DVec2::new(1.5, 0.0), 1e-12);
        }
        "touching-boxes.json" => {
            let r = pair(&load(name), 0, 1);
            assert!(matches!(r.sat.verdict, Verdict::Touching { .. }));
            assert_eq!(r.proximity.distance, 0.0);
        }
        "box-resting-on-floor.json" => {
            let r = pair(&load(name), 0, 1);
            let c = r.contact.unwrap();
            close(c.depth, 0.1, 1e-12);
            close_vec(c.normal, DVec2::Y, 1e-12);
            assert_eq!(c.points.len(), 2);
            close_vec(c.points[0].point, DVec2::new(-0.5, -0.05), 1e-12);
            close_vec(c.points[1].point, DVec2::new(1.5, -0.05), 1e-12);
        }
        "zero-length-capsule.json" => {
            let c = pair(&load(name), 0, 1).contact.unwrap();
            close(c.depth, 0.5, 1e-12);
            close_vec(c.normal, DVec2::X, 1e-12);
        }
        "default-scene.json" => {
            let s = load(name);
            let mtv = pair(&s, 0, 1).sat.mtv.expect(name);
            close(mtv.depth, 0.3, 1e-12);
            close_vec(mtv.normal, DVec2::new(1.0, 2.0).normalize(), 1e-12);
            let corner = pair(&s, 2, 3);
            let Verdict::Separated { first, .. } = corner.sat.verdict else {
                panic!("{name}")
            };
            assert!(matches!(
                corner.sat.axes[first].source,
                AxisSource::VertexToCentre { .. }
            ));
        }
        "apart-capsules.json" => {
            let r = pair(&load(name), 0, 1);
            assert!(r.contact.is_none());
            close(r.proximity.distance, 0.468427, 1e-6);
            let c = r.proximity.closest.unwrap();
            close(c.point_a.distance(c.point_b), r.proximity.distance, 1e-12);
        }
        "bullet-and-wall.json" => {
            use collidoscope::query::{ToiState, time_of_impact};
            let s = load(name);
            let velocity = |i: usize| s.shapes[i].motion.velocity();
            let toi = |i: usize, j: usize| {
                time_of_impact(
                    &s.shapes[i].placed,
                    velocity(i),
                    &s.shapes[j].placed,
                    velocity(j),
                    1.0,
                )
            };
            let hit = toi(0, 1);
            assert_eq!(hit.state, ToiState::Hit);
            // A hair short of touching (1.7e-15 here: the search aims there).
            close(hit.toi.unwrap(), 0.044, 1e-13);
            assert_eq!(toi(0, 2).state, ToiState::Separated);
            assert_eq!(toi(1, 2).state, ToiState::Hit);
        }
        "clockwise-obstacle-run.json" => {
            // Apart by 1 outside side 0, heading in at 30 units/s (and sliding at 5):
            // tests/simulate.rs runs it with each resolver.
            let s = load(name);
            let r = pair(&s, 0, 1);
            assert!(r.contact.is_none());
            close(r.proximity.distance, 1.0, 1e-6);
            let n = DVec2::new(1.0, 2.0).normalize();
            close(s.shapes[1].motion.velocity.dot(n), -30.0, 1e-5);
        }
        "crossing-players.json" => {
            // All apart at the start, all kinematic: their paths cross (the latency lab and
            // tests/latency.rs make packet logs from their run).
            let s = load(name);
            for i in 0..4 {
                assert_eq!(
                    s.shapes[i].motion.body,
                    collidoscope::scene::Body::Kinematic
                );
                for j in i + 1..4 {
                    assert!(pair(&s, i, j).contact.is_none(), "{i} {j}");
                }
            }
            // The bullet (r 0.2, 0.3 above the runner's line, 24 units/s faster) first touches
            // the runner (r 0.5) when they are sqrt(0.7^2 - 0.3^2) apart along x.
            let (runner, bullet) = (&s.shapes[0], &s.shapes[3]);
            let gap = runner.placed.pose.position.x - bullet.placed.pose.position.x;
            let closing = bullet.motion.velocity.x - runner.motion.velocity.x;
            close((gap - 0.4f64.sqrt()) / closing, 0.2236477, 1e-6);
        }
        "claimed-contacts.json" => {
            use collidoscope::query::Mistake::*;
            let diagnoses = collidoscope::diagnose::diagnose(&load(name));
            let matches: Vec<_> = diagnoses.iter().map(|d| d.check.matches.clone()).collect();
            assert_eq!(
                matches,
                [
                    vec![NormalReversed, NaiveSmallestOverlap],
                    vec![EdgeNormalsOnly],
                    vec![NaiveSmallestOverlap, ShallowIgnored],
                    vec![],
                ]
            );
            let agrees: Vec<bool> = diagnoses.iter().map(|d| d.agrees()).collect();
            assert_eq!(agrees, [false, false, false, true]);
        }
        "pixels-crate-on-floor.json" => {
            let s = load(name);
            let r = pair(&s, 0, 1);
            let c = r.contact.as_ref().expect("floor/crate intersect");
            close(c.depth, 0.25, 1e-9);
            close_vec(c.normal, DVec2::new(0.0, 1.0), 1e-12);
            let points: Vec<DVec2> = c.points.iter().map(|p| p.point).collect();
            close_vec(points[0], DVec2::new(380.837216, 299.875), 1e-9);
            close_vec(points[1], DVec2::new(444.837216, 299.875), 1e-9);
            let barrel = pair(&s, 0, 2);
            close(barrel.contact.as_ref().unwrap().depth, 0.1, 1e-9);
            close(pair(&s, 1, 2).proximity.distance, 231.412784, 1e-9);
            let d = collidoscope::diagnose::diagnose(&s);
            assert!(d.len() == 1 && d[0].agrees());
        }
        other => {
            panic!("shapes/{other} has no documented verdict: add it to shapes/README.md and here")
        }
    }
}

#[test]
fn every_example_loads_and_shows_its_documented_verdict() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("shapes");
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".json") {
            assert!(
                readme.contains(&format!("`{name}`")),
                "{name} is not in shapes/README.md"
            );
            check(&name);
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} examples");
}
