//! The JSON of events, as docs/format.md fixes it: a simulation's (`simulate --json`, a
//! recording's header) `{"step": k, "kind": K, "a": i, "b": j, ...}` and a capture's
//! (`diagnose --json`) `{"frame": k, "time": t, "kind": K, "a": A, "b": B, ...}`, each with its
//! own keys in its own order and the keys a kind does not have left out. Both are written
//! from one flat list of every key ([`Keys`]); a recording's events are read back through it,
//! each kind's keys required.

use super::*;
use serde::{Deserializer, Serializer};

/// Every key an event may have (absent: `None`).
struct Keys<Id> {
    depth: Option<f64>,
    depth_after: Option<f64>,
    normal: Option<DVec2>,
    normal_before: Option<DVec2>,
    shape: Option<Id>,
    enter: Option<f64>,
    exit: Option<f64>,
    dt: Option<f64>,
    safe_dt: Option<f64>,
    t: Option<f64>,
    from: Option<DVec2>,
    to: Option<DVec2>,
    piece: Option<usize>,
    lost: Option<f64>,
    face_of: Option<Id>,
    covered_by: Option<Id>,
    speed_before: Option<f64>,
    speed_after: Option<f64>,
    caught: Option<bool>,
    age: Option<u64>,
    at: Option<SeamAt>,
    corner: Option<DVec2>,
    surface_normal: Option<DVec2>,
    impulse: Option<f64>,
}

impl<Id: Copy> Keys<Id> {
    /// The keys of `what`.
    fn of(what: &What<Id>) -> Self {
        let mut k = Keys {
            depth: None,
            depth_after: None,
            normal: None,
            normal_before: None,
            shape: what.shape(),
            enter: None,
            exit: None,
            dt: None,
            safe_dt: None,
            t: None,
            from: None,
            to: None,
            piece: what.piece(),
            lost: None,
            face_of: None,
            covered_by: None,
            speed_before: None,
            speed_after: None,
            caught: None,
            age: None,
            at: None,
            corner: None,
            surface_normal: None,
            impulse: None,
        };
        match *what {
            What::PushedIn {
                depth_before,
                depth_after,
                normal,
            } => {
                k.depth = Some(depth_before);
                k.depth_after = Some(depth_after);
                k.normal = Some(normal);
            }
            What::Tunnelled { through, .. } => match through {
                Through::Substep {
                    enter,
                    exit,
                    dt,
                    safe_dt,
                } => {
                    k.enter = Some(enter);
                    k.exit = Some(exit);
                    k.dt = Some(dt);
                    k.safe_dt = safe_dt;
                }
                Through::Step { t, depth } => {
                    k.t = Some(t);
                    k.depth = Some(depth);
                }
            },
            What::PushedThrough { from, to, push, .. } => {
                k.from = Some(from);
                k.to = Some(to);
                k.depth = push.map(|p| p.depth);
                k.normal = push.map(|p| p.normal);
            }
            What::NormalFlip {
                normal_before,
                normal,
            } => {
                k.normal = Some(normal);
                k.normal_before = Some(normal_before);
            }
            What::StillPenetrating { depth } => k.depth = Some(depth),
            What::Caught { lost, .. } => k.lost = Some(lost),
            What::Seam(ref s) => {
                k.face_of = Some(s.face_of);
                k.covered_by = Some(s.covered_by);
                k.normal = Some(s.normal);
                k.speed_before = Some(s.speed_before);
                k.speed_after = Some(s.speed_after);
                k.caught = Some(s.caught);
                k.at = Some(s.at());
                k.corner = s.corner.map(|c| c.corner);
                k.surface_normal = s.corner.map(|c| c.surface_normal);
                k.impulse = s.impulse;
            }
            What::Stale { age, normal } => {
                k.age = Some(age);
                k.normal = normal;
            }
        }
        k
    }

    /// What an event of `kind` with these keys is; the first key its kind needs and lacks
    /// is named.
    fn what(&self, kind: EventKind) -> Result<What<Id>, String> {
        fn need<T: Copy>(v: Option<T>, key: &str, kind: EventKind) -> Result<T, String> {
            v.ok_or_else(|| format!("a {} event needs \"{key}\"", kind.name()))
        }
        Ok(match kind {
            EventKind::PushedIn => What::PushedIn {
                depth_before: need(self.depth, "depth", kind)?,
                depth_after: need(self.depth_after, "depth_after", kind)?,
                normal: need(self.normal, "normal", kind)?,
            },
            EventKind::Tunnelled => What::Tunnelled {
                shape: need(self.shape, "shape", kind)?,
                piece: self.piece,
                through: match self.t {
                    Some(t) => Through::Step {
                        t,
                        depth: need(self.depth, "depth", kind)?,
                    },
                    None => Through::Substep {
                        enter: need(self.enter, "enter", kind)?,
                        exit: need(self.exit, "exit", kind)?,
                        dt: need(self.dt, "dt", kind)?,
                        safe_dt: self.safe_dt,
                    },
                },
            },
            EventKind::PushedThrough => What::PushedThrough {
                shape: need(self.shape, "shape", kind)?,
                from: need(self.from, "from", kind)?,
                to: need(self.to, "to", kind)?,
                push: match (self.depth, self.normal) {
                    (Some(depth), Some(normal)) => Some(Push { depth, normal }),
                    _ => None,
                },
            },
            EventKind::NormalFlip => What::NormalFlip {
                normal_before: need(self.normal_before, "normal_before", kind)?,
                normal: need(self.normal, "normal", kind)?,
            },
            EventKind::StillPenetrating => What::StillPenetrating {
                depth: need(self.depth, "depth", kind)?,
            },
            EventKind::Caught => What::Caught {
                shape: need(self.shape, "shape", kind)?,
                piece: self.piece,
                lost: need(self.lost, "lost", kind)?,
            },
            EventKind::Seam => {
                let corner = match (self.at, self.corner, self.surface_normal) {
                    (Some(SeamAt::Corner), c, m) => Some(SeamCorner {
                        corner: need(c, "corner", kind)?,
                        surface_normal: need(m, "surface_normal", kind)?,
                    }),
                    _ => None,
                };
                What::Seam(Seam {
                    shape: need(self.shape, "shape", kind)?,
                    face_of: need(self.face_of, "face_of", kind)?,
                    covered_by: need(self.covered_by, "covered_by", kind)?,
                    normal: need(self.normal, "normal", kind)?,
                    speed_before: need(self.speed_before, "speed_before", kind)?,
                    speed_after: need(self.speed_after, "speed_after", kind)?,
                    caught: need(self.caught, "caught", kind)?,
                    impulse: self.impulse,
                    corner,
                })
            }
            EventKind::Stale => What::Stale {
                age: need(self.age, "age", kind)?,
                normal: self.normal,
            },
        })
    }
}

/// A simulation's event as `simulate --json` and a recording's header write it (the keys in
/// the order they have always had; `t` and `age`, which a simulation does not make, last).
#[derive(Serialize, Deserialize)]
struct StepKeys<Id> {
    step: u64,
    kind: EventKind,
    a: Id,
    b: Id,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    depth: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    depth_after: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    normal: Option<DVec2>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    normal_before: Option<DVec2>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    shape: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    enter: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    exit: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    dt: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    safe_dt: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    from: Option<DVec2>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    to: Option<DVec2>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    piece: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lost: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    face_of: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    covered_by: Option<Id>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    speed_before: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    speed_after: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    caught: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    at: Option<SeamAt>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    corner: Option<DVec2>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    surface_normal: Option<DVec2>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    t: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    age: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    impulse: Option<f64>,
}

/// A capture's event as `diagnose --json` writes it (the keys in the order they have always
/// had; those only a simulation makes last).
#[derive(Serialize)]
struct FrameKeys<Id> {
    frame: u64,
    time: f64,
    kind: EventKind,
    a: Id,
    b: Id,
    #[serde(skip_serializing_if = "Option::is_none")]
    shape: Option<Id>,
    #[serde(skip_serializing_if = "Option::is_none")]
    face_of: Option<Id>,
    #[serde(skip_serializing_if = "Option::is_none")]
    covered_by: Option<Id>,
    #[serde(skip_serializing_if = "Option::is_none")]
    normal: Option<DVec2>,
    #[serde(skip_serializing_if = "Option::is_none")]
    speed_before: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    speed_after: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    caught: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    t: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<DVec2>,
    #[serde(skip_serializing_if = "Option::is_none")]
    to: Option<DVec2>,
    #[serde(skip_serializing_if = "Option::is_none")]
    normal_before: Option<DVec2>,
    #[serde(skip_serializing_if = "Option::is_none")]
    age: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    at: Option<SeamAt>,
    #[serde(skip_serializing_if = "Option::is_none")]
    corner: Option<DVec2>,
    #[serde(skip_serializing_if = "Option::is_none")]
    surface_normal: Option<DVec2>,
    #[serde(skip_serializing_if = "Option::is_none")]
    depth_after: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    enter: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exit: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    dt: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    safe_dt: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    piece: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lost: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    impulse: Option<f64>,
}

impl Serialize for Event<Simulated> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        let k = Keys::of(&self.what);
        StepKeys {
            step: self.when,
            kind: self.kind(),
            a: self.a,
            b: self.b,
            depth: k.depth,
            depth_after: k.depth_after,
            normal: k.normal,
            normal_before: k.normal_before,
            shape: k.shape,
            enter: k.enter,
            exit: k.exit,
            dt: k.dt,
            safe_dt: k.safe_dt,
            from: k.from,
            to: k.to,
            piece: k.piece,
            lost: k.lost,
            face_of: k.face_of,
            covered_by: k.covered_by,
            speed_before: k.speed_before,
            speed_after: k.speed_after,
            caught: k.caught,
            at: k.at,
            corner: k.corner,
            surface_normal: k.surface_normal,
            t: k.t,
            age: k.age,
            impulse: k.impulse,
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Event<Simulated> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = StepKeys::<usize>::deserialize(deserializer)?;
        let keys = Keys {
            depth: s.depth,
            depth_after: s.depth_after,
            normal: s.normal,
            normal_before: s.normal_before,
            shape: s.shape,
            enter: s.enter,
            exit: s.exit,
            dt: s.dt,
            safe_dt: s.safe_dt,
            t: s.t,
            from: s.from,
            to: s.to,
            piece: s.piece,
            lost: s.lost,
            face_of: s.face_of,
            covered_by: s.covered_by,
            speed_before: s.speed_before,
            speed_after: s.speed_after,
            caught: s.caught,
            age: s.age,
            at: s.at,
            corner: s.corner,
            surface_normal: s.surface_normal,
            impulse: s.impulse,
        };
        let what = keys.what(s.kind).map_err(|e| {
            serde::de::Error::custom(format!(
                "the event of step {} ({}, {}): {e}",
                s.step, s.a, s.b
            ))
        })?;
        Ok(Event::new(s.step, (s.a, s.b), what))
    }
}

impl Serialize for Event<Captured> {
    fn serialize<Z: Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        let k = Keys::of(&self.what);
        FrameKeys {
            frame: self.when.frame,
            time: self.when.time,
            kind: self.kind(),
            a: self.a,
            b: self.b,
            shape: k.shape,
            face_of: k.face_of,
            covered_by: k.covered_by,
            normal: k.normal,
            speed_before: k.speed_before,
            speed_after: k.speed_after,
            caught: k.caught,
            t: k.t,
            depth: k.depth,
            from: k.from,
            to: k.to,
            normal_before: k.normal_before,
            age: k.age,
            at: k.at,
            corner: k.corner,
            surface_normal: k.surface_normal,
            depth_after: k.depth_after,
            enter: k.enter,
            exit: k.exit,
            dt: k.dt,
            safe_dt: k.safe_dt,
            piece: k.piece,
            lost: k.lost,
            impulse: k.impulse,
        }
        .serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_kind() -> Vec<What<usize>> {
        let n = DVec2::new(0.6, 0.8);
        vec![
            What::PushedIn {
                depth_before: 0.1,
                depth_after: 0.25,
                normal: n,
            },
            What::Tunnelled {
                shape: 1,
                piece: Some(3),
                through: Through::Substep {
                    enter: 0.044,
                    exit: 0.056,
                    dt: 0.1,
                    safe_dt: None,
                },
            },
            What::Tunnelled {
                shape: 0,
                piece: None,
                through: Through::Step {
                    t: 0.45,
                    depth: 0.1,
                },
            },
            What::PushedThrough {
                shape: 1,
                from: DVec2::new(-1.0, 0.0),
                to: DVec2::new(0.6, 0.0),
                push: Some(Push {
                    depth: 0.6,
                    normal: DVec2::X,
                }),
            },
            What::NormalFlip {
                normal_before: n,
                normal: -n,
            },
            What::StillPenetrating { depth: 1e-3 },
            What::Caught {
                shape: 0,
                piece: None,
                lost: 1.5,
            },
            What::Seam(Seam {
                shape: 1,
                face_of: 0,
                covered_by: 2,
                normal: DVec2::X,
                speed_before: 1.5,
                speed_after: 0.0,
                caught: true,
                impulse: None,
                corner: Some(SeamCorner {
                    corner: DVec2::new(1.0, 0.5),
                    surface_normal: DVec2::Y,
                }),
            }),
            What::Stale {
                age: 2,
                normal: None,
            },
        ]
    }

    #[test]
    fn a_simulated_event_of_every_kind_reads_back_as_written() {
        for what in every_kind() {
            let e = Event::<Simulated>::new(7, (0, 1), what);
            let json = serde_json::to_string(&e).unwrap();
            let back: Event<Simulated> = serde_json::from_str(&json).unwrap();
            assert_eq!(back, e, "{json}");
        }
    }

    #[test]
    fn each_source_writes_its_own_keys_in_their_order() {
        let seam = every_kind().swap_remove(7);
        let simulated = Event::<Simulated>::new(4, (0, 1), seam);
        assert_eq!(
            serde_json::to_string(&simulated).unwrap(),
            r#"{"step":4,"kind":"seam","a":0,"b":1,"normal":[1.0,0.0],"shape":1,"face_of":0,"covered_by":2,"speed_before":1.5,"speed_after":0.0,"caught":true,"at":"corner","corner":[1.0,0.5],"surface_normal":[0.0,1.0]}"#
        );
        let tunnel = Event::<Captured>::new(
            FrameAt {
                frame: 3,
                time: 0.05,
            },
            (1, 5),
            What::Tunnelled {
                shape: 5,
                piece: None,
                through: Through::Step {
                    t: 0.45,
                    depth: 0.1,
                },
            },
        );
        assert_eq!(
            serde_json::to_string(&tunnel).unwrap(),
            r#"{"frame":3,"time":0.05,"kind":"tunnelled","a":1,"b":5,"shape":5,"t":0.45,"depth":0.1}"#
        );
    }

    #[test]
    fn a_recorded_event_without_a_key_its_kind_needs_names_the_key() {
        let err = serde_json::from_str::<Event<Simulated>>(
            r#"{"step":2,"kind":"seam","a":0,"b":1,"normal":[0.0,1.0]}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(
            err.contains(r#"the event of step 2 (0, 1): a seam event needs "shape""#),
            "{err}"
        );
    }
}
