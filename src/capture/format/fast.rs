//! The common frame line read straight into typed values: every shape entry only moving (its
//! pose and velocities), every claim complete. Most lines of a long capture are like that, and
//! reading them without building a JSON tree first is what lets `diagnose` keep up with the
//! disk. Anything else, and anything this path is not sure of, is left to the full reader
//! (`line.rs`, [`crate::capture::format::line::full_frame_line`]), which accepts the same lines with the same values and names
//! every problem: this path only ever answers "here it is" or "not mine".

use crate::Reported;
use crate::capture::format::ids::{IdSet, Ids};
use crate::capture::format::parsed::{ClaimIn, FrameLine, ID_LIMIT, Line, PoseChange, ShapeKeys};
use crate::geometry::DVec2;

fn point([x, y]: [f64; 2]) -> DVec2 {
    DVec2::new(x, y)
}

/// The line, if it is one this path reads and every check the full reader makes passes.
pub(in crate::capture) fn frame_line(bytes: &[u8]) -> Option<FrameLine> {
    // The writer's own layout byte by byte first: most lines of a capture, read several times
    // faster than through `serde`.
    let line = match super::written::line(bytes) {
        Some(line) => line,
        None => serde_json::from_slice(bytes).ok()?,
    };
    typed(line)
}

/// [`frame_line`] without its claims, for a line in the writer's own layout that a scan has
/// read whole and found good already (see `written::line_without_claims`); `None` for any
/// other line, which is read whole.
pub(in crate::capture) fn frame_line_without_claims(bytes: &[u8]) -> Option<FrameLine> {
    typed(super::written::line_without_claims(bytes)?)
}

/// The line's values checked as the full reader checks them, in its types.
#[inline(always)]
fn typed(line: Line) -> Option<FrameLine> {
    if !(line.time.is_finite() && line.time >= 0.0) {
        return None;
    }
    let mut ids =
        IdSet::with_capacity_and_hasher(line.shapes.len() + line.removed.len(), Ids::default());
    let mut shapes = Vec::with_capacity(line.shapes.len());
    for moved in line.shapes {
        if moved.id >= ID_LIMIT || !ids.insert(moved.id) {
            return None;
        }
        let change = PoseChange {
            position: moved.position.map(point),
            angle: moved.angle,
            velocity: moved.velocity.map(point),
            angular_velocity: moved.angular_velocity,
        };
        shapes.push((moved.id, ShapeKeys::Pose(change)));
    }
    for id in &line.removed {
        if *id >= ID_LIMIT || !ids.insert(*id) {
            return None;
        }
    }
    let mut claims = Vec::with_capacity(line.claims.len());
    for claim in line.claims {
        claims.push((claim.a, claim.b, reported(claim)?));
    }
    Some(FrameLine {
        frame: line.frame,
        time: line.time,
        shapes,
        removed: line.removed,
        claims,
        malformed: Vec::new(),
    })
}

/// A claim as [`crate::scene::reported`] reads it, when that reads it without a complaint.
fn reported(claim: ClaimIn) -> Option<Reported> {
    let ClaimIn {
        a,
        b,
        intersecting,
        depth,
        normal,
        distance,
        contacts,
        piece,
        separation,
        impulses,
    } = claim;
    if a >= ID_LIMIT || b >= ID_LIMIT || a == b {
        return None;
    }
    let reported = Reported {
        intersecting,
        depth,
        normal: normal.map(point),
        contacts: contacts.map(|c| c.into_iter().map(point).collect()),
        distance,
        piece: piece.map(|p| p as usize),
        separation,
        impulses,
    };
    // The one check every claim meets (the full reader's, the writer's).
    crate::scene::check_reported(&reported).ok()?;
    Some(reported)
}

#[cfg(test)]
mod tests {
    use super::super::line::full_frame_line;
    use super::super::parsed::{FrameLine, PoseChange, ShapeKeys};
    use proptest::prelude::*;

    /// A shape entry's keys as the full reader would apply a pose-only entry, to compare.
    fn pose(keys: &ShapeKeys) -> Option<PoseChange> {
        match keys {
            ShapeKeys::Pose(change) => Some(*change),
            ShapeKeys::Keys(map) => {
                let fields = crate::files::Fields(map);
                Some(PoseChange {
                    position: fields.optional_point("position").ok()?,
                    angle: fields.optional_number("angle").ok()?,
                    velocity: fields.optional_point("velocity").ok()?,
                    angular_velocity: fields.optional_number("angular_velocity").ok()?,
                })
            }
        }
    }

    fn same(fast: &FrameLine, full: &FrameLine) -> bool {
        let bits = |x: f64| x.to_bits();
        fast.frame == full.frame
            && bits(fast.time) == bits(full.time)
            && fast.removed == full.removed
            && fast.claims == full.claims
            && fast.shapes.len() == full.shapes.len()
            && fast
                .shapes
                .iter()
                .zip(&full.shapes)
                .all(|((i, a), (j, b))| i == j && pose(a).is_some() && pose(a) == pose(b))
    }

    fn text(s: &str) -> BoxedStrategy<String> {
        Just(s.to_string()).boxed()
    }

    /// A number, usually a plain one, sometimes from a small hostile vocabulary: what a game or
    /// a hand edit might write.
    fn number() -> BoxedStrategy<String> {
        prop_oneof![
            8 => any::<f32>()
                .prop_filter("finite", |x| x.is_finite())
                .prop_map(|x| format!("{:?}", (x as f64).abs() % 10.0)),
            1 => prop_oneof![
                text("0"), text("-0.0"), text("1"), text("-1"), text("0.6"), text("1e400"),
                text("null"), text("\"1\""), text("9007199254740992"), text("2.5e-3"),
                text("1E2"), text("1e-400"), text("0.44999998807907104"), text("01"),
                text("-1.5e+7"), text("1.7976931348623157e308"), text("2e308"),
            ],
        ]
        .boxed()
    }

    fn point() -> BoxedStrategy<String> {
        prop_oneof![
            4 => (number(), number()).prop_map(|(x, y)| format!("[{x},{y}]")),
            4 => prop_oneof![text("[0.6,0.8]"), text("[1,0]"), text("[-0.0,-1]")],
            1 => prop_oneof![text("[1]"), text("null"), text("[1,2,3]"), text("0.5")],
        ]
        .boxed()
    }

    /// A JSON object of these keys, each there as often as its weight says (out of 10; 10 is 97%).
    fn entry(keys: &[(&str, BoxedStrategy<String>, u32)]) -> BoxedStrategy<String> {
        let parts: Vec<BoxedStrategy<Option<String>>> = keys
            .iter()
            .map(|(key, value, weight)| {
                let key = key.to_string();
                proptest::option::weighted((f64::from(*weight) / 10.0).min(0.97), value.clone())
                    .prop_map(move |v| v.map(|v| format!("\"{key}\":{v}")))
                    .boxed()
            })
            .collect();
        parts
            .prop_map(|parts| {
                let given: Vec<String> = parts.into_iter().flatten().collect();
                format!("{{{}}}", given.join(","))
            })
            .boxed()
    }

    fn id() -> BoxedStrategy<String> {
        prop_oneof![
            12 => (0u64..12).prop_map(|i| i.to_string()),
            1 => prop_oneof![text("9007199254740992"), text("-1"), text("1.0"), text("null")],
        ]
        .boxed()
    }

    fn shape() -> BoxedStrategy<String> {
        entry(&[
            ("id", id(), 10),
            ("position", point(), 7),
            ("angle", number(), 7),
            ("velocity", point(), 5),
            ("angular_velocity", number(), 5),
            ("kind", text("\"circle\""), 1),
        ])
    }

    fn claim() -> BoxedStrategy<String> {
        let flag = prop_oneof![4 => text("true"), 4 => text("false"), 1 => text("null")];
        let contacts = proptest::collection::vec(point(), 0..3)
            .prop_map(|p| format!("[{}]", p.join(",")))
            .boxed();
        let piece = prop_oneof![text("0"), text("2"), text("null"), text("-1")].boxed();
        let impulses = proptest::collection::vec(number(), 0..3)
            .prop_map(|j| format!("[{}]", j.join(",")))
            .boxed();
        entry(&[
            ("a", id(), 10),
            ("b", id(), 10),
            ("intersecting", flag.boxed(), 10),
            ("depth", number(), 6),
            ("normal", point(), 6),
            ("contacts", contacts, 5),
            ("distance", number(), 3),
            ("piece", piece, 2),
            ("separation", number(), 3),
            ("impulses", impulses, 3),
        ])
    }

    fn line() -> impl Strategy<Value = String> {
        let list = |item: BoxedStrategy<String>| {
            proptest::collection::vec(item, 0..4)
                .prop_map(|items| format!("[{}]", items.join(",")))
                .boxed()
        };
        let frame = prop_oneof![8 => text("3"), 1 => text("-3"), 1 => text("3.0")].boxed();
        entry(&[
            ("frame", frame, 10),
            ("time", number(), 10),
            ("shapes", list(shape()), 8),
            ("removed", list(id()), 3),
            ("claims", list(claim()), 8),
        ])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// Whatever the typed path reads, the full reader reads too, to the same values; and
        /// what the full reader refuses, the typed path never takes.
        #[test]
        fn the_typed_path_reads_only_what_the_full_reader_reads(text in line()) {
            let full = full_frame_line(text.as_bytes());
            if let Some(fast) = super::frame_line(text.as_bytes()) {
                let full = full.map_err(|p| p.message);
                prop_assert!(full.is_ok(), "typed path took {text}, the full reader says {full:?}");
                prop_assert!(same(&fast, &full.unwrap()), "different values for {text}");
            }
        }
    }

    #[test]
    fn a_line_of_moving_shapes_and_complete_claims_takes_the_typed_path() {
        let text = r#"{"frame":7,"time":0.1,"shapes":[{"id":1,"position":[1,2],"angle":0.5},{"id":2,"velocity":[0,-1]}],"claims":[{"a":1,"b":2,"intersecting":true,"depth":0.01,"normal":[0,1],"contacts":[[1,1.5]]},{"a":2,"b":3,"intersecting":false,"distance":0.2}]}"#;
        let fast = super::frame_line(text.as_bytes()).expect("the typed path reads it");
        assert!(same(&fast, &full_frame_line(text.as_bytes()).unwrap()));
        assert_eq!(fast.shapes.len(), 2);
        assert_eq!(
            fast.claims[0].2.contacts.as_deref().map(<[_]>::len),
            Some(1)
        );
        // A new shape (its kind and geometry) is the full reader's.
        let new = r#"{"frame":0,"time":0,"shapes":[{"id":1,"kind":"circle","radius":1,"position":[0,0]}]}"#;
        assert!(super::frame_line(new.as_bytes()).is_none());
        assert!(full_frame_line(new.as_bytes()).is_ok());
    }
}
