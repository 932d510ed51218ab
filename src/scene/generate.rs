//! Random scenes of many shapes, for trying the broad phase and for benchmarks: the same
//! count and seed always give the same scene.

use super::{Scene, SceneShape};
use crate::geometry::{Capsule, Circle, ConvexPolygon, DVec2, Placed, Pose, Shape};

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Generate {
    /// How many shapes.
    pub count: usize,
    /// The seed of the random numbers.
    pub seed: u64,
    /// About how many others each shape's box overlaps (sets the area they share).
    pub overlaps: f64,
}

impl Default for Generate {
    fn default() -> Self {
        Self {
            count: 1000,
            seed: 1,
            overlaps: 2.0,
        }
    }
}

/// xorshift64* (Marsaglia's xorshift with Vigna's multiplier): small, fast, and the same
/// everywhere; the random numbers of generated scenes and of the tests' cases.
#[derive(Clone, Debug)]
pub struct Random(u64);

impl Random {
    /// The generator for `seed` (any seed, 0 included).
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// The generator whose state is `state` (not 0).
    pub fn from_state(state: u64) -> Self {
        Self(state)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [lo, hi).
    pub fn between(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

/// The side of the square the shapes are scattered in: shapes of boxes about 1.3 across
/// overlap `overlaps` others on average.
pub fn area_side(count: usize, overlaps: f64) -> f64 {
    // Two boxes of sides a and b overlap when their corners are within a + b on both axes.
    let reach = 2.0 * 1.3;
    (count as f64 * reach * reach / overlaps.max(0.01)).sqrt()
}

/// `options.count` shapes (circles, capsules, boxes and regular polygons in turn), named
/// `s0`, `s1`, ..., scattered with random angles over a square centred on the origin.
pub fn random_scene(options: Generate) -> Scene {
    let mut random = Random::new(options.seed);
    let side = area_side(options.count, options.overlaps);
    let shapes = (0..options.count)
        .map(|i| {
            let at = DVec2::new(random.unit() - 0.5, random.unit() - 0.5) * side;
            let pose = Pose::new(at, random.between(0.0, std::f64::consts::TAU));
            let size = random.between(0.35, 0.8);
            let shape: Shape = match i % 4 {
                0 => Circle::new(size).expect("positive").into(),
                1 => Capsule::new(
                    DVec2::new(-size, 0.0),
                    DVec2::new(size, 0.0),
                    random.between(0.15, 0.35),
                )
                .expect("finite")
                .into(),
                2 => ConvexPolygon::rectangle(DVec2::new(size, random.between(0.3, 0.8)))
                    .expect("positive sides")
                    .into(),
                _ => ConvexPolygon::regular(3 + (i / 4) % 5, size)
                    .expect("3 to 7 sides")
                    .into(),
            };
            SceneShape::named(&format!("s{i}"), Placed::new(shape, pose))
        })
        .collect();
    Scene::from_shapes(shapes)
}
