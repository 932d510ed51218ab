//! Profiling aid: runs collide/explain on random polygon pairs in a loop, for `perf record`.
//!
//! `cargo run --release --example profile_polygons -- collide|explain [repetitions]`;
//! `PAIRS=hit` or `PAIRS=miss` keeps only the intersecting or only the separated pairs.
use collidoscope::geometry::{ConvexPolygon, DVec2, Placed, Pose};
use collidoscope::query::{collide, sat_report};
fn main() {
    let mut seed = 12345u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut pairs = Vec::new();
    while pairs.len() < 1000 {
        let mut make = || {
            let n = 3 + (rnd() * 6.0) as usize;
            let mut angles: Vec<f64> = (0..n).map(|_| rnd() * std::f64::consts::TAU).collect();
            angles.sort_by(f64::total_cmp);
            let (rx, ry) = (0.3 + rnd() * 2.7, 0.3 + rnd() * 2.7);
            let pts = angles
                .iter()
                .map(|t| DVec2::new(rx * t.cos(), ry * t.sin()))
                .collect();
            let pose = Pose::new(
                DVec2::new(rnd() * 8.0 - 4.0, rnd() * 8.0 - 4.0),
                rnd() * 6.0,
            );
            ConvexPolygon::new(pts).ok().map(|p| Placed::new(p, pose))
        };
        if let (Some(a), Some(b)) = (make(), make()) {
            let ((a0, a1), (b0, b1)) = (a.aabb(), b.aabb());
            if a0.cmple(b1).all() && b0.cmple(a1).all() {
                pairs.push((a, b));
            }
        }
    }
    let which = std::env::args().nth(1).unwrap_or_default();
    // `hit` or `miss` keeps only the intersecting or only the separated pairs.
    match std::env::var("PAIRS").as_deref() {
        Ok("hit") => pairs.retain(|(a, b)| collide(a, b).is_some()),
        Ok("miss") => pairs.retain(|(a, b)| collide(a, b).is_none()),
        _ => {}
    }
    eprintln!("{} pairs", pairs.len());
    let mut hits = 0usize;
    for _ in 0..std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(3000)
    {
        for (a, b) in &pairs {
            if which == "explain" {
                hits += sat_report(a, b).axes.len();
            } else {
                hits += collide(a, b).is_some() as usize;
            }
        }
    }
    println!("{hits}");
}
