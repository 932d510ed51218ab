//! A motion run saved as a capture, collidoscope's own resolver as the engine: each frame's
//! shapes at their poses before the step, and as claims the contacts the run's resolver
//! resolves at those poses. A run with a mistaken resolver (the motion lab's
//! `naive-smallest-overlap`, say) makes a capture whose claims `diagnose` and the capture lab
//! name by that mistake, as they would a game's.

use crate::capture::{BodyShape, CaptureWriter, Engine, Header, Manifold, ManifoldPoint};
use crate::capture::{NormalFrom, Penetration};
use crate::files::{FileError, Problem, write_atomically};
use crate::motion::{Recording, Resolution, ResolverContact, Simulation, resolver_contacts};
use crate::query::collide;
use crate::scene::{Body, Precision, Scene};
use std::io::{self, Write};
use std::path::Path;

/// The header of a run's capture: collidoscope (this version) as the engine, its step, substeps,
/// resolver and continuous collision as the settings, f64.
pub fn run_header(recording: &Recording) -> Header {
    let config = recording.config();
    let engine = Engine::new("collidoscope", env!("CARGO_PKG_VERSION"))
        .with_setting("resolver", config.resolver.name())
        .with_setting("dt", config.dt)
        .with_setting("substeps", config.substeps.to_string())
        .with_setting("ccd", config.ccd);
    Header {
        engine,
        precision: Precision::F64,
        units: "scene units".into(),
        y_up: true,
    }
}

/// A frame's shapes as the writer takes them: id = list position.
fn bodies(scene: &Scene) -> Vec<BodyShape> {
    scene
        .shapes
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let pose = &s.placed.pose;
            let shape = BodyShape::new(
                i as u64,
                s.placed.shape.clone(),
                pose.position,
                pose.rotation(),
            )
            .moving(
                s.motion.body,
                s.motion.velocity,
                s.motion.angular_velocity,
                s.motion.body != Body::Static,
            );
            match &s.name {
                Some(name) => shape.named(name.as_str()),
                None => shape,
            }
        })
        .collect()
}

/// Contacts as manifolds: the resolver's normal and depth, at the exact contact points (or,
/// where the exact test finds none, the midpoint of the two positions; contact points never
/// decide agreement).
fn manifolds(scene: &Scene, contacts: &[ResolverContact]) -> Vec<Manifold> {
    contacts
        .iter()
        .map(|c| {
            let (a, b) = (&scene.shapes[c.a].placed, &scene.shapes[c.b].placed);
            let points: Vec<_> = match collide(a, b) {
                Some(exact) => exact.points.iter().map(|p| p.point).collect(),
                None => vec![(a.pose.position + b.pose.position) * 0.5],
            };
            Manifold {
                a: c.a as u64,
                b: c.b as u64,
                normal: c.normal,
                points: points
                    .into_iter()
                    .map(|point| ManifoldPoint {
                        point,
                        separation: -c.depth,
                        impulse: None,
                    })
                    .collect(),
                piece: c.piece,
            }
        })
        .collect()
}

/// Write `recording` as a capture into `out` (gzip when `compressed`): what its resolver saw.
/// Frame 0 is the scene as the run starts, with the contacts the resolver would resolve at its
/// poses; then one frame for each substep the run resolved, at the substep's end time: the
/// shapes after its motion and before its resolution (velocities as they were then), and as
/// claims every contact it resolved there. The run is made again from its scene and settings
/// (bit for bit the recording's), so `diagnose` names the run's seams and tunnels from it.
pub fn write_run<W: Write>(recording: &Recording, out: W, compressed: bool) -> io::Result<W> {
    let header = run_header(recording);
    let (normal, penetration) = (NormalFrom::AToB, Penetration::NegativeSeparation);
    let mut writer = if compressed {
        CaptureWriter::compressed(out, &header, normal, penetration)?
    } else {
        CaptureWriter::new(out, &header, normal, penetration)?
    };
    let config = recording.config();
    let start = recording.scene();
    writer.frame(
        0.0,
        &bodies(start),
        &manifolds(start, &resolver_contacts(start, config.resolver)),
    )?;
    let mut simulation = Simulation::new(start.clone(), config);
    let mut failed = None;
    for _ in 0..recording.steps() {
        simulation.step_watched(&mut |seen: Resolution| {
            if failed.is_none()
                && let Err(e) = writer.frame(
                    seen.time,
                    &bodies(seen.scene),
                    &manifolds(seen.scene, seen.contacts),
                )
            {
                failed = Some(e);
            }
        });
        if let Some(e) = failed {
            return Err(e.into());
        }
    }
    writer.finish()
}

/// Save `recording` as a capture at `path` (gzip when it ends in `.gz`), atomically.
pub fn save_run(recording: &Recording, path: &Path) -> Result<(), FileError> {
    let compressed = path.extension().is_some_and(|e| e == "gz");
    let fail = |problem| FileError::new(path, problem);
    let bytes = write_run(recording, Vec::new(), compressed).map_err(|e| {
        fail(Problem::Document(format!(
            "cannot write the run as a capture: {e}"
        )))
    })?;
    write_atomically(path, &bytes).map_err(|e| fail(Problem::io("cannot write the file", e)))
}
