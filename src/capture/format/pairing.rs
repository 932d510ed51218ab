//! Why an engine did or did not pair two shapes: what a capture may carry besides geometry
//! (each shape's collision filter and the body it belongs to, the engine's speculative margin
//! in the header's settings) and the stages an engine passes a pair through before it
//! reports a contact, in the order engines run them:
//!
//! 1. shapes of one rigid body are never paired (Box2D, Rapier, Avian);
//! 2. two bodies neither of which is dynamic are not paired (static with static never; Box2D,
//!    Rapier and Avian by default also skip kinematic with static or kinematic);
//! 3. the collision filter: Box2D's `b2Filter` (`categoryBits`, `maskBits`, `groupIndex`),
//!    Rapier's `InteractionGroups` (`memberships`, `filter`, `test_mode`), Avian's
//!    `CollisionLayers` (`memberships`, `filters`);
//! 4. the broad phase: bounding boxes (fattened by at least the margin) that do not overlap;
//! 5. the narrow phase: shapes farther apart than the speculative margin give no point.
//!
//! [`left_out`] finds the first stage that leaves a pair out, from the shapes as a capture
//! frame holds them; `crate::capture::words::left_out` words it.

use crate::files::spelled;
use crate::geometry::Placed;
use crate::scene::{Body, Motion};
use serde_json::{Map, Value};

/// The header setting that gives the engine's speculative margin, in the capture's units:
/// the distance within which its narrow phase reports a contact point for shapes still
/// apart (Box2D `B2_SPECULATIVE_DISTANCE`, Rapier `prediction_distance()`, Avian
/// `contact_tolerance` times the length unit).
pub const MARGIN_SETTING: &str = "speculative_margin";

/// How far past the margin (relative) a gap must be to count as beyond it: above f32's
/// rounding (2^-24) with room for the engine's arithmetic.
const MARGIN_ROUNDING: f64 = 1e-6;

/// A shape's collision filter as the engine keeps it.
///
/// Two shapes pass when, unless they share a non-zero `group`, each one's `category` meets
/// the other's `mask` (both ways; one way is enough when both say `either`). A shared
/// positive group always passes, a shared negative group never does (Box2D's
/// `b2ShouldShapesCollide`; Rapier's `InteractionGroups::test`; Avian's
/// `CollisionLayers::interacts_with`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Filter {
    /// The categories (bits) the shape is in: Box2D `categoryBits`, Rapier `memberships`,
    /// Avian `memberships`.
    pub category: u64,
    /// The categories it collides with: Box2D `maskBits`, Rapier `filter`, Avian `filters`.
    pub mask: u64,
    /// Box2D's `groupIndex` (0: none).
    pub group: i64,
    /// Rapier's `InteractionTestMode::Or`: when both shapes say so, one way is enough.
    pub either: bool,
}

impl Filter {
    /// Box2D's `b2Filter`.
    pub fn box2d(category_bits: u64, mask_bits: u64, group_index: i32) -> Self {
        Self {
            category: category_bits,
            mask: mask_bits,
            group: i64::from(group_index),
            either: false,
        }
    }

    /// Memberships and filter bits (Rapier's `InteractionGroups` with `test_mode` `And`,
    /// Avian's `CollisionLayers`).
    pub fn layers(memberships: u32, filter: u32) -> Self {
        Self {
            category: u64::from(memberships),
            mask: u64::from(filter),
            group: 0,
            either: false,
        }
    }

    /// The same with Rapier's `InteractionTestMode::Or` (`true`) or `And`.
    pub fn with_either(mut self, either: bool) -> Self {
        self.either = either;
        self
    }

    /// What the filters of `self` (A) and `other` (B) decide about the pair.
    pub fn test(self, other: Filter) -> FilterVerdict {
        if self.group != 0 && self.group == other.group {
            return if self.group > 0 {
                FilterVerdict::GroupAlways(self.group)
            } else {
                FilterVerdict::GroupNever(self.group)
            };
        }
        let a_to_b = self.category & other.mask != 0;
        let b_to_a = other.category & self.mask != 0;
        let either = self.either && other.either;
        match (a_to_b, b_to_a) {
            (true, true) => FilterVerdict::Passes,
            (true, false) | (false, true) if either => FilterVerdict::Passes,
            (false, true) => FilterVerdict::MaskOfB,
            (true, false) => FilterVerdict::MaskOfA,
            (false, false) => FilterVerdict::Neither,
        }
    }

    /// The file's `filter` object (`docs/format.md`, "Captures").
    pub fn to_json(self) -> Value {
        let mut object = Map::new();
        object.insert("category".into(), self.category.into());
        object.insert("mask".into(), self.mask.into());
        if self.group != 0 {
            object.insert("group".into(), self.group.into());
        }
        if self.either {
            object.insert("either".into(), true.into());
        }
        Value::Object(object)
    }

    /// A `filter` object read back, with a message that names the key.
    pub fn from_json(value: &Value) -> Result<Self, String> {
        const KEYS: [&str; 4] = ["category", "mask", "group", "either"];
        let Value::Object(object) = value else {
            return Err(format!(
                "\"filter\" must be an object with \"category\" and \"mask\", found {}",
                crate::files::describe(value)
            ));
        };
        if let Some(key) = object.keys().find(|k| !KEYS.contains(&k.as_str())) {
            return Err(format!(
                "unknown key {} in \"filter\"{}",
                crate::files::quoted_key(key),
                crate::files::suggestion(key, &KEYS)
            ));
        }
        let bits = |key: &str| match object.get(key) {
            Some(Value::Number(n)) if n.as_u64().is_some() => Ok(n.as_u64().unwrap_or(0)),
            Some(other) => Err(format!(
                "\"filter\": {key:?} must be an integer in [0, 2^64) (bits), found {}",
                spelled(other)
            )),
            None => Err(format!("\"filter\": missing key {key:?}")),
        };
        let group = match object.get("group") {
            None => 0,
            Some(Value::Number(n)) if n.as_i64().is_some() => n.as_i64().unwrap_or(0),
            Some(other) => {
                return Err(format!(
                    "\"filter\": \"group\" must be an integer, found {}",
                    spelled(other)
                ));
            }
        };
        let either = match object.get("either") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                return Err(format!(
                    "\"filter\": \"either\" must be true or false, found {}",
                    spelled(other)
                ));
            }
        };
        Ok(Self {
            category: bits("category")?,
            mask: bits("mask")?,
            group,
            either,
        })
    }
}

/// What two shapes' filters decide.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FilterVerdict {
    /// Each one's category meets the other's mask (or one way, both saying `either`).
    Passes,
    /// They share this positive group: always paired, whatever the masks say.
    GroupAlways(i64),
    /// They share this negative group: never paired, whatever the masks say.
    GroupNever(i64),
    /// A's mask leaves out B's category (B's mask takes A's).
    MaskOfA,
    /// B's mask leaves out A's category (A's mask takes B's).
    MaskOfB,
    /// Neither mask takes the other's category.
    Neither,
}

impl FilterVerdict {
    /// Whether the filter lets the pair on to the next stage.
    pub fn passes(self) -> bool {
        matches!(self, Self::Passes | Self::GroupAlways(_))
    }
}

/// What a capture says of a shape besides its geometry and motion: whatever decides whether
/// the engine pairs it with another. `None`: the capture does not say (every pair allowed).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Pairing {
    /// Its collision filter (the file's `filter`).
    pub filter: Option<Filter>,
    /// The rigid body it belongs to (the file's `body_id`): shapes of one body are never
    /// paired.
    pub body_id: Option<u64>,
}

/// The keys of a capture's shape entry that [`Pairing`] reads.
pub const PAIRING_KEYS: [&str; 2] = ["filter", "body_id"];

impl Pairing {
    /// Take `filter` and `body_id` out of a shape entry's keys and apply them (`null`
    /// clears one), leaving the geometry and pose keys. Whether either was there.
    pub fn take_from(&mut self, keys: &mut Map<String, Value>) -> Result<bool, String> {
        let mut found = false;
        if let Some(value) = keys.remove("filter") {
            found = true;
            self.filter = match value {
                Value::Null => None,
                value => Some(Filter::from_json(&value)?),
            };
        }
        if let Some(value) = keys.remove("body_id") {
            found = true;
            self.body_id = match value {
                Value::Null => None,
                Value::Number(n)
                    if n.as_u64()
                        .is_some_and(|id| id < crate::capture::format::parsed::ID_LIMIT) =>
                {
                    n.as_u64()
                }
                other => {
                    return Err(format!(
                        "\"body_id\" must be an integer in [0, 2^53), found {}",
                        spelled(&other)
                    ));
                }
            };
        }
        Ok(found)
    }
}

/// One side of a pair as [`left_out`] reads it: its shape, motion and pairing.
#[derive(Clone, Copy, Debug)]
pub struct PairMember<'a> {
    /// The shape where the frame has it.
    pub placed: &'a Placed,
    /// Its body type and velocities.
    pub motion: &'a Motion,
    /// Its filter and body.
    pub pairing: Pairing,
}

/// The engine's speculative margin, as a capture's header gives it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Margin {
    /// From the header's `speculative_margin` setting.
    Given(f64),
    /// The header does not say: taken as 0.
    Unknown,
}

impl Margin {
    /// The margin of a capture's engine settings.
    pub fn of_settings(settings: &Map<String, Value>) -> Self {
        match settings.get(MARGIN_SETTING).and_then(Value::as_f64) {
            Some(m) if m.is_finite() && m >= 0.0 => Self::Given(m),
            _ => Self::Unknown,
        }
    }

    /// Its length (0 when unknown).
    pub fn length(self) -> f64 {
        match self {
            Self::Given(m) => m,
            Self::Unknown => 0.0,
        }
    }
}

/// The first stage that leaves a pair out, or that none does.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LeftOut {
    /// Both shapes are on this body.
    SameBody(u64),
    /// Neither is dynamic: these body types.
    NeitherDynamic(Body, Body),
    /// Their filters refuse the pair.
    Filtered {
        /// What the filters decided.
        verdict: FilterVerdict,
        /// A's and B's filters.
        filters: (Filter, Filter),
    },
    /// Their bounding boxes are `gap` apart (along x or y), more than the margin: the broad
    /// phase leaves them out (or, where it fattens boxes by more than the margin, as Box2D
    /// does by up to 5 cm, the narrow phase: the shapes are at least as far apart).
    BoxesApart {
        /// The larger of the x and y gaps between the boxes.
        gap: f64,
        /// The margin.
        margin: Margin,
    },
    /// The boxes are within the margin, the shapes `distance` apart, more than it.
    BeyondMargin {
        /// The exact distance.
        distance: f64,
        /// The margin.
        margin: Margin,
    },
    /// No stage the capture knows leaves the pair out: the engine should have reported it.
    NotLeftOut {
        /// The exact distance (0 when touching or overlapping).
        distance: f64,
        /// Whether they overlap.
        intersecting: bool,
        /// The margin.
        margin: Margin,
        /// Their filters' verdict, when both have one.
        filter: Option<FilterVerdict>,
        /// Both bodies at rest (no velocity): possibly asleep, and a capture leaves out the
        /// contacts of sleeping bodies.
        at_rest: bool,
    },
}

/// The first stage of an engine's pipeline that leaves the pair of `a` and `b` out, or
/// [`LeftOut::NotLeftOut`]; `margin` is the engine's speculative margin.
pub fn left_out(a: PairMember, b: PairMember, margin: Margin) -> LeftOut {
    if let (Some(x), Some(y)) = (a.pairing.body_id, b.pairing.body_id)
        && x == y
    {
        return LeftOut::SameBody(x);
    }
    if a.motion.body != Body::Dynamic && b.motion.body != Body::Dynamic {
        return LeftOut::NeitherDynamic(a.motion.body, b.motion.body);
    }
    let filter = match (a.pairing.filter, b.pairing.filter) {
        (Some(fa), Some(fb)) => {
            let verdict = fa.test(fb);
            if !verdict.passes() {
                return LeftOut::Filtered {
                    verdict,
                    filters: (fa, fb),
                };
            }
            Some(verdict)
        }
        _ => None,
    };
    let m = margin.length();
    // Beyond the margin by more than an f32 engine's rounding of it: a gap of 0.0200000001
    // against Box2D's 0.0199999996 is at the margin, not past it.
    let past = |length: f64| length > m + MARGIN_ROUNDING * m.max(f64::MIN_POSITIVE);
    let ((a_min, a_max), (b_min, b_max)) = (a.placed.aabb(), b.placed.aabb());
    let gap = (b_min - a_max).max(a_min - b_max).max_element();
    if past(gap) {
        return LeftOut::BoxesApart { gap, margin };
    }
    let distance = crate::query::distance(a.placed, b.placed).distance;
    if past(distance) {
        return LeftOut::BeyondMargin { distance, margin };
    }
    let still =
        |m: &Motion| m.velocity == crate::geometry::DVec2::ZERO && m.angular_velocity == 0.0;
    LeftOut::NotLeftOut {
        distance,
        intersecting: crate::query::collide(a.placed, b.placed).is_some(),
        margin,
        filter,
        at_rest: still(a.motion) && still(b.motion),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Circle, DVec2, Pose};

    fn circle(x: f64) -> Placed {
        Placed::new(Circle::new(1.0).unwrap(), Pose::at(DVec2::new(x, 0.0)))
    }

    fn dynamic() -> Motion {
        Motion {
            body: Body::Dynamic,
            velocity: DVec2::X,
            angular_velocity: 0.0,
        }
    }

    /// Box2D's rule: a shared group decides before the masks, positive always, negative
    /// never; otherwise both ways, each category against the other's mask.
    #[test]
    fn filters_follow_box2d_and_rapier() {
        let all = Filter::box2d(1, u64::MAX, 0);
        assert_eq!(all.test(all), FilterVerdict::Passes);
        let player = Filter::box2d(0b10, !0b10, 0);
        assert_eq!(player.test(player), FilterVerdict::Neither);
        assert_eq!(player.test(all), FilterVerdict::Passes);
        let only_ground = Filter::box2d(0b100, 0b1, 0);
        assert_eq!(only_ground.test(player), FilterVerdict::MaskOfA);
        assert_eq!(player.test(only_ground), FilterVerdict::MaskOfB);
        let ragdoll = Filter::box2d(1, u64::MAX, -3);
        assert_eq!(ragdoll.test(ragdoll), FilterVerdict::GroupNever(-3));
        let glued = Filter::box2d(0b10, 0, 4);
        assert_eq!(glued.test(glued), FilterVerdict::GroupAlways(4));
        assert!(glued.test(glued).passes());
        // Rapier's Or counts only when both say it.
        let one_way = Filter::layers(1, 1).with_either(true);
        let other = Filter::layers(2, 1).with_either(true);
        assert_eq!(one_way.test(other), FilterVerdict::Passes);
        assert_eq!(one_way.test(Filter::layers(2, 1)), FilterVerdict::MaskOfA);
    }

    #[test]
    fn the_filter_object_reads_back_and_names_its_problems() {
        let f = Filter::box2d(3, u64::MAX, -2);
        assert_eq!(Filter::from_json(&f.to_json()), Ok(f));
        let rapier = Filter::layers(1, 6).with_either(true);
        assert_eq!(Filter::from_json(&rapier.to_json()), Ok(rapier));
        let bad = |text: &str| Filter::from_json(&serde_json::from_str(text).unwrap()).unwrap_err();
        assert_eq!(
            bad(r#"{"category": 1}"#),
            "\"filter\": missing key \"mask\""
        );
        assert_eq!(
            bad(r#"{"category": -1, "mask": 1}"#),
            "\"filter\": \"category\" must be an integer in [0, 2^64) (bits), found -1"
        );
        assert_eq!(
            bad(r#"{"category": 1, "mask": 1, "grup": 2}"#),
            "unknown key \"grup\" in \"filter\" (did you mean \"group\"?)"
        );
        assert!(bad("3").starts_with("\"filter\" must be an object"));
        let mut keys: Map<String, Value> =
            serde_json::from_str(r#"{"position": [0, 0], "body_id": 9007199254740992}"#).unwrap();
        assert_eq!(
            Pairing::default().take_from(&mut keys),
            Err("\"body_id\" must be an integer in [0, 2^53), found 9007199254740992".into())
        );
    }

    /// Each stage in turn, as the pair is moved through it.
    #[test]
    fn the_first_stage_that_leaves_a_pair_out() {
        let (a, b) = (circle(0.0), circle(2.5));
        let motion = dynamic();
        let side = |placed, pairing| PairMember {
            placed,
            motion: &motion,
            pairing,
        };
        let plain = Pairing::default();
        let margin = Margin::Given(0.1);
        let body = Pairing {
            body_id: Some(7),
            ..plain
        };
        assert_eq!(
            left_out(side(&a, body), side(&b, body), margin),
            LeftOut::SameBody(7)
        );
        let rest = Motion::default();
        let still = PairMember {
            placed: &a,
            motion: &rest,
            pairing: plain,
        };
        assert_eq!(
            left_out(
                still,
                PairMember {
                    placed: &b,
                    ..still
                },
                margin
            ),
            LeftOut::NeitherDynamic(Body::Static, Body::Static)
        );
        let never = Pairing {
            filter: Some(Filter::box2d(1, u64::MAX, -1)),
            ..plain
        };
        assert!(matches!(
            left_out(side(&a, never), side(&b, never), margin),
            LeftOut::Filtered {
                verdict: FilterVerdict::GroupNever(-1),
                ..
            }
        ));
        // 0.5 apart: the boxes are too.
        assert_eq!(
            left_out(side(&a, plain), side(&b, plain), margin),
            LeftOut::BoxesApart { gap: 0.5, margin }
        );
        // Diagonal: the boxes overlap within the margin, the circles are farther apart.
        let c = Placed::new(Circle::new(1.0).unwrap(), Pose::at(DVec2::new(2.05, 2.05)));
        match left_out(side(&a, plain), side(&c, plain), margin) {
            LeftOut::BeyondMargin { distance, .. } => {
                assert!((distance - (2.05 * 2f64.sqrt() - 2.0)).abs() < 1e-12)
            }
            other => panic!("{other:?}"),
        }
        let d = circle(2.05);
        assert_eq!(
            left_out(side(&a, plain), side(&d, plain), margin),
            LeftOut::NotLeftOut {
                distance: 0.04999999999999982,
                intersecting: false,
                margin,
                filter: None,
                at_rest: false,
            }
        );
        // With no margin in the header, 0 is taken.
        assert!(matches!(
            left_out(side(&a, plain), side(&d, plain), Margin::Unknown),
            LeftOut::BoxesApart { .. }
        ));
    }
}
