//! Profiling aid: explain on random circle pairs in a loop.
use collidoscope::geometry::{Circle, DVec2, Placed, Pose};
use collidoscope::query::explain;
fn main() {
    let mut seed = 12345u64;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    };
    let pairs: Vec<(Placed, Placed)> = (0..1000)
        .map(|_| {
            let mut c = || {
                Placed::new(
                    Circle::new(0.1 + 2.4 * rnd()).unwrap(),
                    Pose::at(DVec2::new(rnd() * 8.0 - 4.0, rnd() * 8.0 - 4.0)),
                )
            };
            (c(), c())
        })
        .collect();
    let mut n = 0;
    for _ in 0..10000 {
        for (a, b) in &pairs {
            n += explain(a, b).axes.len();
        }
    }
    println!("{n}");
}
