//! Profiling aid: the time of impact of translating polygon pairs in a loop, for `perf record`.
//!
//! `cargo run --release --example profile_toi -- [repetitions]`: pairs 3.5 to 6 apart, B
//! heading toward A. `PIECES=1` also times the parts (collide, views, distance, clones).
use collidoscope::geometry::{ConvexPolygon, DVec2, Placed, Pose};
use collidoscope::query::{Velocity, collide, time_of_impact};
use collidoscope::scene::generate::Random;

fn main() {
    let mut random = Random::new(12345);
    let mut rnd = move || random.unit();
    let mut cases = Vec::new();
    while cases.len() < 1000 {
        let mut make = |at: DVec2| {
            let n = 3 + (rnd() * 6.0) as usize;
            let mut angles: Vec<f64> = (0..n).map(|_| rnd() * std::f64::consts::TAU).collect();
            angles.sort_by(f64::total_cmp);
            let (rx, ry) = (0.3 + rnd() * 1.7, 0.3 + rnd() * 1.7);
            let pts = angles
                .iter()
                .map(|t| DVec2::new(rx * t.cos(), ry * t.sin()))
                .collect();
            ConvexPolygon::new(pts)
                .ok()
                .map(|p| Placed::new(p, Pose::new(at, rnd() * 6.0)))
        };
        let (Some(a), Some(b)) = (make(DVec2::ZERO), make(DVec2::X)) else {
            continue;
        };
        let heading = DVec2::from_angle(rnd() * std::f64::consts::TAU);
        let b = Placed::new(
            b.shape,
            Pose::new(heading * (3.5 + rnd() * 2.5), b.pose.angle()),
        );
        if collide(&a, &b).is_some() {
            continue;
        }
        let v = -heading.rotate(DVec2::from_angle(rnd() - 0.5)) * (1.0 + rnd() * 7.0);
        cases.push((a, b, Velocity::linear(v)));
    }
    let repetitions: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    if std::env::var("PIECES").is_ok() {
        pieces(&cases);
    }
    let start = std::time::Instant::now();
    let mut steps = 0;
    for _ in 0..repetitions {
        for (a, b, v) in &cases {
            steps += time_of_impact(a, Velocity::default(), b, *v, 1.0)
                .steps
                .len();
        }
    }
    let n = (repetitions * cases.len()) as f64;
    println!(
        "{:.0} ns per case, {:.2} steps per case",
        start.elapsed().as_nanos() as f64 / n,
        steps as f64 / n
    );
}

fn pieces(cases: &[(Placed, Placed, Velocity)]) {
    use collidoscope::geometry::Rounded;
    use collidoscope::query::distance;
    let time = |name: &str, f: &mut dyn FnMut(&Placed, &Placed)| {
        let start = std::time::Instant::now();
        for _ in 0..200 {
            for (a, b, _) in cases {
                f(a, b);
            }
        }
        println!(
            "{name}: {:.0} ns",
            start.elapsed().as_nanos() as f64 / (200.0 * cases.len() as f64)
        );
    };
    time("collide", &mut |a, b| {
        std::hint::black_box(collide(a, b));
    });
    time("two views", &mut |a, b| {
        std::hint::black_box((
            Rounded::new(a, a.pose.position),
            Rounded::new(b, a.pose.position),
        ));
    });
    time("distance", &mut |a, b| {
        std::hint::black_box(distance(a, b));
    });
    time("clone both", &mut |a, b| {
        std::hint::black_box((a.clone(), b.clone()));
    });
}
