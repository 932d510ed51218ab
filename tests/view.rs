//! What the view shows, as the window and `render` draw it: grid numbers beside their own
//! lines, arrows too small to see drawn enlarged and labelled so, G fitting the whole pair with
//! its axis ring, and a pair picked from a list brought into view.

use collidoscope::picture::draw::{ARROW_MIN, axis_ring};
use collidoscope::picture::fit::{self, Fit};
use collidoscope::picture::labels::Importance;
use collidoscope::picture::{Camera, Picture, Rect, Vec2, picture};
use collidoscope::query::pair_report;
use collidoscope::scene::{self, Scene};

#[path = "common/examples.rs"]
mod examples;

use examples::{examples, load_example as load};

/// The sizes of the scene view: the window at 1280x800, at 1024x640 and at 640x480 (less the
/// panels), and a tall one.
const VIEWS: [(f32, f32); 4] = [
    (880.0, 720.0),
    (620.0, 560.0),
    (400.0, 400.0),
    (300.0, 700.0),
];

/// The grid numbers of a picture: (value, its box, whether it labels a vertical line). A
/// number stands left-aligned 3 points right of its vertical line at the bottom edge (its box
/// is 2 points wider than the text on each side), or 1 point above its horizontal line at the
/// left edge; `None` for a number beside neither of its lines.
fn grid_labels(p: &Picture) -> Vec<Option<(f64, Rect, bool)>> {
    p.labels
        .iter()
        .filter(|(l, _)| l.importance == Importance::Grid)
        .map(|(l, r)| {
            let v: f64 = l.text.parse().unwrap_or_else(|_| panic!("{:?}", l.text));
            let at = p
                .camera
                .to_screen(p.rect, collidoscope::geometry::DVec2::splat(v));
            if (r.min.x - (at.x + 3.0)).abs() < 0.01 && r.max.y > p.rect.max.y - 20.0 {
                Some((v, *r, true))
            } else if (r.max.y - (at.y - 1.0)).abs() < 0.01 && r.min.x < p.rect.min.x + 10.0 {
                Some((v, *r, false))
            } else {
                None
            }
        })
        .collect()
}

#[test]
fn grid_numbers_stand_beside_their_own_lines_and_never_collide() {
    for file in examples() {
        let scene = scene::load(&file).unwrap();
        for (w, h) in VIEWS {
            let p = picture(&scene, None, Vec2::new(w, h));
            let name = format!("{} at {w}x{h}", file.display());
            let all = grid_labels(&p);
            assert!(
                all.iter().all(Option::is_some),
                "{name}: a number beside the wrong line: {:?}",
                p.labels
            );
            let labels: Vec<(f64, Rect, bool)> = all.into_iter().flatten().collect();
            let (xs, ys): (Vec<_>, Vec<_>) = labels.iter().partition(|l| l.2);
            assert!(xs.len() >= 2 && ys.len() >= 2, "{name}: {labels:?}");
            for (_, r, _) in &labels {
                assert!(p.rect.contains(r.min) && p.rect.contains(r.max), "{name}");
            }
            for (i, a) in labels.iter().enumerate() {
                for b in &labels[i + 1..] {
                    assert!(!a.1.intersects(b.1), "{name}: {a:?} and {b:?} collide");
                }
            }
            // Neighbouring numbers along an axis stay at least a few points apart.
            let mut along: Vec<&(f64, Rect, bool)> = xs.clone();
            along.sort_by(|a, b| a.1.min.x.total_cmp(&b.1.min.x));
            for pair in along.windows(2) {
                assert!(pair[1].1.min.x - pair[0].1.max.x >= 4.0, "{name}: {pair:?}");
            }
        }
    }
}

#[test]
fn at_game_scale_small_arrows_are_drawn_enlarged_and_labelled_with_their_true_value() {
    // A crate 64 px wide sunk 0.25 px into an 800 px floor, and what an f32 engine claimed.
    let scene = load("pixels-crate-on-floor.json");
    for (w, h) in VIEWS {
        let p = picture(&scene, Some((0, 1)), Vec2::new(w, h));
        assert!(0.25 * p.camera.scale < ARROW_MIN as f64, "sub-arrow scale");
        let texts: Vec<&str> = p.labels.iter().map(|(l, _)| l.text.as_str()).collect();
        assert!(
            texts.contains(&"MTV 0.25 (arrow enlarged)"),
            "{w}x{h}: {texts:?}"
        );
        assert!(
            texts.contains(&"claimed 0.25 (arrow enlarged)"),
            "{w}x{h}: {texts:?}"
        );
        // The enlarged shaft is dashed and starts at the first contact.
        let contact = pair_report(&scene.shapes[0].placed, &scene.shapes[1].placed)
            .contact
            .unwrap()
            .points[0]
            .point;
        let start = p.camera.to_screen(p.rect, contact);
        let dashed = p.marks.iter().any(|m| match m {
            collidoscope::picture::Mark::Dashed { points, .. } => {
                points.len() == 2
                    && points[0].distance(start) < 0.01
                    && points[0].distance(points[1]) < ARROW_MIN
            }
            _ => false,
        });
        assert!(dashed, "{w}x{h}: no dashed enlarged shaft from {start:?}");
    }
    // The clockwise obstacle's MTV of 1 is small beside its 200-unit obstacle: enlarged in the
    // whole view; zoomed onto (Shift+G), long enough on screen to be drawn as it is.
    let scene = load("clockwise-obstacle.json");
    let size = Vec2::new(880.0, 720.0);
    let texts =
        |p: &Picture| -> Vec<String> { p.labels.iter().map(|(l, _)| l.text.clone()).collect() };
    let whole = picture(&scene, None, size);
    assert!(texts(&whole).contains(&"MTV 1 (arrow enlarged)".to_string()));
    let rect = Rect::from_min_size(Vec2::ZERO, size);
    let close = fitted(&scene, (0, 1), Fit::Headline, whole.camera, rect);
    let p = collidoscope::picture::picture_in_view(&scene, Some((0, 1)), size, Some(close));
    assert!(texts(&p).contains(&"MTV 1".to_string()), "{:?}", texts(&p));
}

/// The pair and report of `scene`'s pair `(a, b)`, fitted by `fit` from `camera`.
fn fitted(scene: &Scene, (a, b): (usize, usize), fit: Fit, camera: Camera, rect: Rect) -> Camera {
    let report = pair_report(&scene.shapes[a].placed, &scene.shapes[b].placed);
    fit::fitted(fit, camera, rect, scene, Some(((a, b), &report)))
}

#[test]
fn fitting_the_pair_shows_both_shapes_whole_with_the_axis_ring_around_them() {
    for file in examples() {
        let scene = scene::load(&file).unwrap();
        let n = scene.shapes.len();
        if n < 2 {
            continue;
        }
        // The first pair, and the pair of the first and the last shape (far apart in big
        // scenes).
        for pair in [(0, 1), (0, n - 1)] {
            let report = pair_report(&scene.shapes[pair.0].placed, &scene.shapes[pair.1].placed);
            for (w, h) in VIEWS {
                let rect = Rect::from_min_size(Vec2::new(200.0, 56.0), Vec2::new(w, h));
                let name = format!("{} pair {pair:?} at {w}x{h}", file.display());
                for fit in [Fit::Pair, Fit::Scene] {
                    let camera = fitted(&scene, pair, fit, Camera::default(), rect);
                    let explained = Some((pair, &report));
                    let (a, b) = (&scene.shapes[pair.0].placed, &scene.shapes[pair.1].placed);
                    let ring = axis_ring(camera, rect, (a, b), &report);
                    if fit::pair_in_view(camera, rect, &scene, explained) {
                        assert_eq!(
                            ring.reach, None,
                            "{name}: after {fit:?} the axis ring does not stand around the pair"
                        );
                        continue;
                    }
                    // Only G leaves part of the pair out: a small shape touching (or near) a
                    // much larger one, shown large with the ring around it.
                    assert_eq!(fit, Fit::Pair, "{name}: {fit:?} cuts a shape off");
                    let small = if a.shape.bounding_radius() <= b.shape.bounding_radius() {
                        a
                    } else {
                        b
                    };
                    let (lo, hi) = small.aabb();
                    assert!(
                        rect.contains(camera.to_screen(rect, lo))
                            && rect.contains(camera.to_screen(rect, hi)),
                        "{name}: G cuts the smaller shape off"
                    );
                    assert_eq!(ring.centre, small.centre(), "{name}");
                    assert!(
                        2.0 * small.shape.bounding_radius() * camera.scale
                            >= fit::SMALL_SHARE * f64::from(w.min(h)),
                        "{name}"
                    );
                }
            }
        }
    }
}

#[test]
fn revealing_a_pair_keeps_a_view_that_shows_it_and_moves_one_that_does_not() {
    let scene = load("pixels-crate-on-floor.json");
    let rect = Rect::from_min_size(Vec2::ZERO, Vec2::new(620.0, 560.0));
    // Zoomed onto the crate: the barrel (x = 700) is off to the right.
    let crate_view = fitted(&scene, (0, 1), Fit::Headline, Camera::default(), rect);
    let barrel = (0, 2);
    let report = pair_report(&scene.shapes[0].placed, &scene.shapes[2].placed);
    let explained = Some((barrel, &report));
    assert!(!fit::pair_in_view(crate_view, rect, &scene, explained));
    let revealed = fitted(&scene, barrel, Fit::Reveal, crate_view, rect);
    assert!(fit::pair_shown(revealed, rect, &scene, explained));
    // Already in view: nothing moves.
    assert_eq!(
        fitted(&scene, barrel, Fit::Reveal, revealed, rect),
        revealed
    );
}

#[test]
fn zoomed_in_the_axis_lines_do_not_cross_the_shapes_they_explain() {
    // The default scene zoomed onto its contact, at 1024x640's scene view and smaller: the
    // ring is smaller than the pair there, and each line takes a side and a step out that
    // clears the obstacle and the ball.
    let scene = load("default-scene.json");
    let (a, b) = (0, 1);
    let report = pair_report(&scene.shapes[a].placed, &scene.shapes[b].placed);
    let contact = report.contact.as_ref().unwrap().points[0].point;
    for (w, h) in [(420.0, 560.0), (620.0, 560.0)] {
        for scale in [60.0, 90.0] {
            let camera = Camera {
                centre: contact,
                scale,
                y_down: false,
            };
            let p = collidoscope::picture::picture_in_view(
                &scene,
                Some((a, b)),
                Vec2::new(w, h),
                Some(camera),
            );
            let ring = axis_ring(
                camera,
                p.rect,
                (&scene.shapes[a].placed, &scene.shapes[b].placed),
                &report,
            );
            assert!(
                ring.reach.is_some(),
                "zoomed in: the ring is not around the pair"
            );
            assert_eq!(p.axis_lines.len(), report.sat.axes.len());
            for (k, [from, to]) in &p.axis_lines {
                let (from, to) = (camera.to_world(p.rect, *from), camera.to_world(p.rect, *to));
                for shape in [a, b] {
                    assert!(
                        collidoscope::query::ray_cast(&scene.shapes[shape].placed, from, to)
                            .is_none(),
                        "{w}x{h} at {scale} px/unit: axis {k}'s line crosses shape {shape}"
                    );
                }
            }
        }
    }
}

/// A level at pixel scale, y down, as a capture from a Godot or Tiled game has it: a floor
/// 2560 px wide, a platform, and a 32 px ball resting 0.5 px into the floor.
fn pixel_level() -> Scene {
    use collidoscope::geometry::{Circle, ConvexPolygon, DVec2, Placed, Pose};
    use collidoscope::scene::SceneShape;
    let rect = |w: f64, h: f64, at: DVec2| {
        let corners = vec![
            DVec2::ZERO,
            DVec2::new(w, 0.0),
            DVec2::new(w, h),
            DVec2::new(0.0, h),
        ];
        Placed::new(ConvexPolygon::new(corners).unwrap(), Pose::new(at, 0.0))
    };
    let mut scene = Scene::default();
    for (name, placed) in [
        ("floor", rect(2560.0, 64.0, DVec2::new(0.0, 448.0))),
        ("platform", rect(320.0, 32.0, DVec2::new(800.0, 300.0))),
        (
            "ball",
            Placed::new(
                Circle::new(16.0).unwrap(),
                Pose::new(DVec2::new(340.0, 432.5), 0.0),
            ),
        ),
    ] {
        scene.shapes.push(SceneShape::named(name, placed));
    }
    scene
}

#[test]
fn g_fits_a_small_shape_on_a_level_wide_floor_large_with_its_ring_around_it() {
    let scene = pixel_level();
    let pair = (0, 2);
    let report = pair_report(&scene.shapes[0].placed, &scene.shapes[2].placed);
    let ball = &scene.shapes[2].placed;
    for y_down in [true, false] {
        for (w, h) in VIEWS {
            let rect = Rect::from_min_size(Vec2::new(200.0, 56.0), Vec2::new(w, h));
            let name = format!("{w}x{h}, y down {y_down}");
            let start = Camera {
                y_down,
                ..Camera::default()
            };
            // From the whole level's view, where the ball is a few pixels wide.
            let level = fitted(&scene, pair, Fit::Scene, start, rect);
            assert!(
                32.0 * level.scale < fit::SMALL_SHARE * f64::from(w.min(h)),
                "{name}"
            );
            let camera = fitted(&scene, pair, Fit::Pair, level, rect);
            assert!(
                32.0 * camera.scale >= fit::SMALL_SHARE * f64::from(w.min(h)),
                "{name}: the ball is {} points wide",
                32.0 * camera.scale
            );
            let (lo, hi) = ball.aabb();
            for p in [lo, hi, report.contact.as_ref().unwrap().points[0].point] {
                assert!(rect.contains(camera.to_screen(rect, p)), "{name}: {p}");
            }
            // The axis ring stands around the ball, whole in view.
            let ring = axis_ring(camera, rect, (&scene.shapes[0].placed, ball), &report);
            assert_eq!(ring.centre, ball.centre(), "{name}: {ring:?} {camera:?}");
            // Shift+G from there zooms in further, never out.
            let headline = fitted(&scene, pair, Fit::Headline, camera, rect);
            assert!(headline.scale >= camera.scale, "{name}");
        }
    }
}

#[test]
fn grid_numbers_stand_on_both_axes_at_any_scale_either_way_up() {
    use collidoscope::picture::picture_in_view;
    let scene = pixel_level();
    let report = pair_report(&scene.shapes[0].placed, &scene.shapes[2].placed);
    for y_down in [true, false] {
        for (w, h) in VIEWS {
            let rect = Rect::from_min_size(Vec2::ZERO, Vec2::new(w, h));
            let start = Camera {
                y_down,
                ..Camera::default()
            };
            for fit in [Fit::Scene, Fit::Pair, Fit::Headline] {
                let camera = fit::fitted(fit, start, rect, &scene, Some(((0, 2), &report)));
                let p = picture_in_view(&scene, Some((0, 2)), Vec2::new(w, h), Some(camera));
                let labels: Vec<_> = grid_labels(&p).into_iter().flatten().collect();
                let (xs, ys): (Vec<&(f64, Rect, bool)>, Vec<_>) = labels.iter().partition(|l| l.2);
                assert!(
                    xs.len() >= 2 && ys.len() >= 2,
                    "{fit:?} at {w}x{h}, y down {y_down}: {labels:?}"
                );
            }
        }
    }
}

/// The lines a picture's headline and axis labels cross (label text, length of line inside its
/// box): the marks past the backdrop (the grid) that run through the label.
fn crossed_labels(p: &Picture) -> Vec<(String, f32)> {
    use collidoscope::picture::labels::Obstacles;
    let lines = Obstacles::of_marks(&p.marks[p.backdrop..], p.rect);
    p.labels
        .iter()
        .filter(|(l, _)| matches!(l.importance, Importance::Headline | Importance::Axis))
        .map(|(l, r)| (l.text.clone(), lines.cost(*r, &[])))
        .filter(|(_, c)| *c > 0.0)
        .collect()
}

/// Repairs: labels stood struck through by shadow bars and walls, or on the arrows they
/// name. In the views the window and `render` open on, dark and light, every headline and axis
/// label stands clear of every line.
#[test]
fn headline_and_axis_labels_stand_clear_of_the_lines() {
    use collidoscope::picture::palette::Theme;
    use collidoscope::picture::{Look, picture_with};
    for file in examples() {
        let scene = scene::load(&file).unwrap();
        for (w, h) in [VIEWS[0], VIEWS[1]] {
            for theme in [Theme::Dark, Theme::Light] {
                let look = Look {
                    theme,
                    ..Look::default()
                };
                let p = picture_with(&scene, None, Vec2::new(w, h), None, look);
                let crossed = crossed_labels(&p);
                assert!(
                    crossed.is_empty(),
                    "{} at {w}x{h}, {theme:?}: {crossed:?}",
                    file.display()
                );
            }
        }
    }
}

/// Repairs: an imported level opened on two overlapping floor tiles instead of the body that
/// moves. A scene with a moving body opens on it: the pair it intersects, else the shape
/// nearest it.
#[test]
fn a_scene_with_a_moving_body_opens_on_that_body() {
    use collidoscope::geometry::{ConvexPolygon, DVec2, Placed, Pose};
    use collidoscope::picture::opening_pair;
    use collidoscope::scene::{Body, SceneShape};
    let square = |x: f64, y: f64, side: f64| {
        let h = side / 2.0;
        let corners = vec![
            DVec2::new(-h, -h),
            DVec2::new(h, -h),
            DVec2::new(h, h),
            DVec2::new(-h, h),
        ];
        Placed::new(
            ConvexPolygon::new(corners).unwrap(),
            Pose::new(DVec2::new(x, y), 0.0),
        )
    };
    let mut scene = Scene::default();
    // Three floor tiles, each overlapping the next by a hair (as exported tiles often do).
    for k in 0..3 {
        let tile = square(32.0 * f64::from(k) - 0.01 * f64::from(k), 0.0, 32.0);
        scene
            .shapes
            .push(SceneShape::named(&format!("tile{k}"), tile));
    }
    // A box above tile 2, 17 px clear of it, and moving.
    let mut body = SceneShape::named("box", square(64.0, 41.0, 16.0));
    body.motion.body = Body::Dynamic;
    body.motion.velocity = DVec2::new(60.0, 0.0);
    scene.shapes.push(body);
    assert_eq!(opening_pair(&scene), Some((2, 3)));
    // Sunk into tile 1 instead: that pair.
    scene.shapes[3].placed.pose = Pose::new(DVec2::new(30.0, 23.0), 0.0);
    assert_eq!(opening_pair(&scene), Some((1, 3)));
    // Nothing moves: the first intersecting pair, as before.
    scene.shapes[3].motion.body = Body::Static;
    scene.shapes[3].motion.velocity = DVec2::ZERO;
    assert_eq!(opening_pair(&scene), Some((0, 1)));
}

/// Repairs: numbers along the bottom ran together ("-1.5 -1", "0.5 1"): a short number after
/// a long one stood closer to it than to its own neighbour. In the two larger views the window
/// opens on (a narrow one keeps two numbers, closer), and in every built-in lesson's pictures,
/// neighbouring numbers along the bottom stand at least half the wider one's width apart.
#[test]
fn grid_numbers_along_the_bottom_stand_a_number_apart() {
    use collidoscope::lesson::{BUILT_IN, builtin, slide_picture, stage};
    let mut pictures: Vec<(String, Picture)> = Vec::new();
    for file in examples() {
        let scene = scene::load(&file).unwrap();
        for (w, h) in [VIEWS[0], VIEWS[1]] {
            let name = format!("{} at {w}x{h}", file.display());
            pictures.push((name, picture(&scene, None, Vec2::new(w, h))));
        }
    }
    for b in BUILT_IN {
        let lesson = builtin(b.name).unwrap().lesson().unwrap();
        for (k, slide) in lesson.slides.iter().enumerate() {
            let shown = stage(slide);
            let name = format!("{} slide {}", b.name, k + 1);
            pictures.push((
                name,
                slide_picture(slide, &shown, shown.steps.first().copied()),
            ));
        }
    }
    for (name, p) in pictures {
        let mut along: Vec<Rect> = grid_labels(&p)
            .into_iter()
            .flatten()
            .filter(|l| l.2)
            .map(|l| l.1)
            .collect();
        along.sort_by(|a, b| a.min.x.total_cmp(&b.min.x));
        for pair in along.windows(2) {
            let gap = pair[1].min.x - pair[0].max.x;
            let wider = pair[0].width().max(pair[1].width());
            assert!(gap >= 0.5 * wider, "{name}: {pair:?} only {gap} apart");
        }
    }
}

#[test]
fn a_fit_in_a_view_too_small_for_the_axis_ring_settles_and_shows_the_shapes() {
    // The scene view of a small window: shorter than the ring's margins (in points) are wide.
    for (w, h) in [(440.0, 140.0), (120.0, 90.0)] {
        for file in examples() {
            let scene = scene::load(&file).unwrap();
            if scene.shapes.len() < 2 {
                continue;
            }
            let pair = (0, 1);
            let report = pair_report(&scene.shapes[0].placed, &scene.shapes[1].placed);
            let rect = Rect::from_min_size(Vec2::new(200.0, 56.0), Vec2::new(w, h));
            let name = format!("{} at {w}x{h}", file.display());
            for fit in [Fit::Scene, Fit::Pair] {
                // F pressed again and again: the view stays where the first press put it.
                let once = fitted(&scene, pair, fit, Camera::default(), rect);
                let twice = fitted(&scene, pair, fit, once, rect);
                assert!(
                    (twice.scale - once.scale).abs() <= 1e-9 * once.scale,
                    "{name}: {fit:?} zoomed from {} to {}",
                    once.scale,
                    twice.scale
                );
                assert!(
                    fit::pair_in_view(once, rect, &scene, Some((pair, &report))),
                    "{name}: {fit:?} leaves the pair out"
                );
            }
        }
    }
}
