//! A simulated event in words. The event itself (its kinds, numbers and JSON) is
//! [`crate::event`], shared with captures.

use crate::event::{Simulated, Through, What};

/// An event of the motion lab's simulation: shapes by list position, when by the step.
pub type Event = crate::event::Event<Simulated>;

impl Event {
    /// The event in one sentence, naming shapes with `name`.
    pub fn sentence(&self, name: impl Fn(usize) -> String) -> String {
        let (a, b) = (name(self.a), name(self.b));
        let n = crate::text::number;
        let p = crate::text::point;
        let step = self.when;
        match &self.what {
            What::PushedIn {
                depth_before,
                depth_after,
                normal,
            } => format!(
                "step {step}: resolving {a} and {b} pushed them deeper: depth {} became {} (normal {}).",
                n(*depth_before),
                n(*depth_after),
                p(*normal)
            ),
            What::Tunnelled { shape, through, .. } => {
                let (enter, exit, dt, safe_dt) = match *through {
                    Through::Substep {
                        enter,
                        exit,
                        dt,
                        safe_dt,
                    } => (enter, exit, dt, safe_dt),
                    Through::Step { t, .. } => (t, f64::NAN, f64::NAN, None),
                };
                format!(
                    "step {step}: {} passed through {} between t = {} and {} of a {} s substep; its largest safe step is {} s.",
                    name(*shape),
                    if *shape == self.a { b } else { a },
                    n(enter),
                    n(exit),
                    n(dt),
                    n(safe_dt.unwrap_or(f64::NAN))
                )
            }
            What::PushedThrough {
                shape,
                from,
                to,
                push,
            } => {
                let (body, other) = if *shape == self.b { (b, a) } else { (a, b) };
                format!(
                    "step {step}: {body} was pushed out through the far side of {other}: its centre went from {} across {other} to {} (pushed {} along {}, the way it was moving).",
                    p(*from),
                    p(*to),
                    n(push.map_or(f64::NAN, |p| p.depth)),
                    push.map_or("?".into(), |q| p(q.normal))
                )
            }
            What::NormalFlip {
                normal_before,
                normal,
            } => format!(
                "step {step}: the contact of {a} and {b} flipped its normal from {} to {}.",
                p(*normal_before),
                p(*normal)
            ),
            What::StillPenetrating { depth } => format!(
                "step {step}: {a} and {b} still overlap by {} after resolution.",
                n(*depth)
            ),
            What::Caught { shape, piece, lost } => {
                let (body, other) = if *shape == self.a { (a, b) } else { (b, a) };
                format!(
                    "step {step}: {body} caught on {other}{}: resolving their contact took {} of its velocity along the surface.",
                    piece.map(|k| format!("'s piece {k}")).unwrap_or_default(),
                    n(*lost)
                )
            }
            What::Seam(seam) => {
                let body = name(seam.shape);
                let face = name(seam.face_of);
                let cover = name(seam.covered_by);
                if let Some(c) = seam.corner {
                    return format!(
                        "step {step}: {body} {} on the corner {} between {face} and {cover}: the contact's normal {} leans {} from the floor's {}; {body}'s speed into the corner went from {} to {}.",
                        if seam.caught { "caught" } else { "bumped" },
                        p(c.corner),
                        p(seam.normal),
                        crate::text::angle(seam.normal.angle_to(c.surface_normal).abs()),
                        p(c.surface_normal),
                        n(seam.speed_before),
                        n(seam.speed_after)
                    );
                }
                format!(
                    "step {step}: {body} {} the seam between {cover} and {face}: the contact's normal {} is a face of {face} that {cover} covers; {body}'s speed along the floor went from {} to {}.",
                    if seam.caught { "caught on" } else { "touched" },
                    p(seam.normal),
                    n(seam.speed_before),
                    n(seam.speed_after)
                )
            }
            What::Stale { .. } => {
                format!("step {step}: the contact of {a} and {b} was not recomputed.")
            }
        }
    }
}
