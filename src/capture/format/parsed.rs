//! A capture line as parsed, before it is applied to the frames before it: the frame line's
//! values ([`FrameLine`]) and what is wrong with a line ([`LineProblem`]). Both readers of a
//! frame line (the typed path in `fast.rs`, the full one in `line.rs`) give these.

use crate::Reported;
use crate::geometry::DVec2;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

/// The largest id plus one: ids are integers below 2^53 (exact in every JSON reader).
pub(in crate::capture) const ID_LIMIT: u64 = 1 << 53;

/// What is wrong with one line: its column when the JSON itself is broken.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::capture) struct LineProblem {
    pub column: Option<usize>,
    pub message: String,
    /// Whether the line is not JSON at all: a last line like that, with no newline, was cut
    /// off by a crash and is dropped.
    pub syntax: bool,
}

impl LineProblem {
    pub(in crate::capture) fn new(message: String) -> Self {
        Self {
            column: None,
            message,
            syntax: false,
        }
    }
}

impl From<String> for LineProblem {
    fn from(message: String) -> Self {
        Self::new(message)
    }
}

/// A frame line, parsed.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::capture) struct FrameLine {
    pub frame: u64,
    pub time: f64,
    /// Each shape entry: its id and its keys other than `id`.
    pub shapes: Vec<(u64, ShapeKeys)>,
    pub removed: Vec<u64>,
    pub claims: Vec<(u64, u64, Reported)>,
    pub malformed: Vec<Malformed>,
}

/// What the engine gave that a capture cannot hold as a shape or a claim (a NaN pose, a zero
/// normal): written by the writer as it came, under the frame line's `malformed`, and judged
/// "malformed" instead of refusing the capture.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Malformed {
    /// A shape or a claim, with its ids as far as they are numbers.
    pub what: MalformedWhat,
    /// Why it cannot be held, as the writer said.
    pub problem: String,
    /// The entry as written (numbers that are not finite as the strings "NaN", "inf", "-inf").
    pub value: Value,
}

/// Which entry is malformed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum MalformedWhat {
    /// A shape, by its id.
    Shape {
        /// Its id, when it is an integer.
        id: Option<u64>,
    },
    /// A claim, by its pair.
    Claim {
        /// Shape A's id, when it is an integer.
        a: Option<u64>,
        /// Shape B's id, when it is an integer.
        b: Option<u64>,
    },
}

/// A shape entry's keys other than `id`.
#[derive(Clone, Debug, PartialEq)]
pub(in crate::capture) enum ShapeKeys {
    /// Only its pose and velocities, read into numbers ([`crate::capture::fast`]).
    Pose(PoseChange),
    /// Anything, as JSON.
    Keys(Map<String, Value>),
}

/// A shape moved: the keys given of its pose and velocities.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(in crate::capture) struct PoseChange {
    pub position: Option<DVec2>,
    pub angle: Option<f64>,
    pub velocity: Option<DVec2>,
    pub angular_velocity: Option<f64>,
}

impl PoseChange {
    /// Whether it changes a velocity.
    pub fn moves(&self) -> bool {
        self.velocity.is_some() || self.angular_velocity.is_some()
    }

    /// The same keys as JSON.
    pub fn keys(&self) -> Map<String, Value> {
        let point = |p: DVec2| serde_json::json!([p.x, p.y]);
        let mut keys = Map::new();
        if let Some(p) = self.position {
            keys.insert("position".into(), point(p));
        }
        if let Some(a) = self.angle {
            keys.insert("angle".into(), a.into());
        }
        if let Some(v) = self.velocity {
            keys.insert("velocity".into(), point(v));
        }
        if let Some(w) = self.angular_velocity {
            keys.insert("angular_velocity".into(), w.into());
        }
        keys
    }
}

/// A frame line with only moving shapes, as `serde` reads it. Unknown keys, `null`s where the
/// format takes none and duplicate keys all fail here and go to the full reader.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(in crate::capture) struct Line {
    pub frame: u64,
    pub time: f64,
    #[serde(default)]
    pub shapes: Vec<Moved>,
    #[serde(default)]
    pub removed: Vec<u64>,
    #[serde(default)]
    pub claims: Vec<ClaimIn>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(in crate::capture) struct Moved {
    pub id: u64,
    #[serde(default, deserialize_with = "present")]
    pub position: Option<[f64; 2]>,
    #[serde(default, deserialize_with = "present")]
    pub angle: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    pub velocity: Option<[f64; 2]>,
    #[serde(default, deserialize_with = "present")]
    pub angular_velocity: Option<f64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(in crate::capture) struct ClaimIn {
    pub a: u64,
    pub b: u64,
    pub intersecting: bool,
    // `null` is allowed for these three, as the full reader allows it.
    pub depth: Option<f64>,
    pub normal: Option<[f64; 2]>,
    pub distance: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    pub contacts: Option<Vec<[f64; 2]>>,
    #[serde(default, deserialize_with = "present")]
    pub piece: Option<u64>,
    // `null` allowed, as for `distance`.
    #[serde(default)]
    pub separation: Option<f64>,
    #[serde(default, deserialize_with = "present")]
    pub impulses: Option<Vec<f64>>,
}

/// A key that, when given, holds a value (`null` is refused: the full reader refuses it).
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}
