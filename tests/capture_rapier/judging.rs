//! Each step judged in the game's process as it is written: a real Rapier run is clean step
//! after step until the step where the game turns a claim's normal round (the crate, back on the floor
//! after hopping off a seam), which names
//! `normal-reversed`; the crate's snag on a tile seam comes back as that step's event.

use crate::common::{METRES, World, cuboid};
use crate::rapier_capture::{RapierCapture, header};
use collidoscope::capture::StepJudgement;
use collidoscope::motion::EventKind;
use rapier2d::prelude::*;

/// Run `world` for `steps` steps with a judging capture, `tamper` changing the contacts of
/// each step before they are written; every step's judgement.
fn judged(
    world: &mut World,
    steps: usize,
    mut tamper: impl FnMut(usize, &mut Vec<collidoscope::capture::Manifold>),
) -> Vec<StepJudgement> {
    let head = header(&world.params, "m", true);
    let mut capture = RapierCapture::new(Vec::new(), &head).unwrap().judging();
    for (handle, name) in &world.names {
        capture.name(*handle, name.clone());
    }
    let mut out = Vec::new();
    for step in 0..steps {
        capture
            .before_step(&world.bodies, &world.colliders)
            .unwrap();
        world.step();
        let mut contacts = capture.contacts(&world.narrow_phase).unwrap();
        tamper(step, &mut contacts);
        let judged = capture
            .write(step as f64 / 60.0, &contacts)
            .unwrap()
            .expect("a judging capture judges every step");
        out.push(judged);
    }
    out
}

fn tiles_and_crate() -> World {
    let mut world = World::new(METRES, false);
    for k in 0..12 {
        world.fixed(
            &format!("tile{}", k + 1),
            cuboid(&METRES, 0.5, 0.5),
            (-5.5 + k as f32, -0.5),
            0.0,
        );
    }
    world.attach(
        "crate",
        RigidBodyBuilder::dynamic()
            .translation(METRES.p(-5.5, 0.25))
            .linvel(METRES.v(7.0, 0.0)),
        cuboid(&METRES, 0.25, 0.25),
    );
    world
}

/// A crate dropped on one floor box: every step is clean until step 30, whose reversed
/// normal names `normal-reversed`.
#[test]
fn a_step_judged_in_process_fails_where_a_claim_disagrees_and_names_the_mistake() {
    let mut world = World::new(METRES, false);
    world.fixed("floor", cuboid(&METRES, 6.0, 0.5), (0.0, -0.5), 0.0);
    world.dynamic("crate", cuboid(&METRES, 0.25, 0.25), (0.0, 0.3), 0.0);
    let steps = judged(&mut world, 40, |step, contacts| {
        if step == 30
            && let Some(m) = contacts.first_mut()
        {
            m.normal = -m.normal;
        }
    });
    assert_eq!(steps.len(), 40);
    let wrong: Vec<&StepJudgement> = steps.iter().filter(|s| !s.is_clean()).collect();
    assert_eq!(wrong.len(), 1, "{wrong:?}");
    let step = wrong[0];
    assert_eq!(
        (step.frame, step.claims, step.disagreeing.len()),
        (30, 1, 1)
    );
    let said = step.to_string();
    assert!(
        said.starts_with("frame 30 (t = 0.5 s): 1 claim, 1 disagrees\n  "),
        "{said}"
    );
    assert!(said.contains("normal-reversed"), "{said}");
}

/// The crate sliding over separate tiles snags on a seam: the step that completes it gives
/// the event in words with its fix, and its claims still agree.
#[test]
fn a_snag_on_a_seam_comes_back_from_the_step_that_completes_it() {
    let mut world = tiles_and_crate();
    let steps = judged(&mut world, 40, |_, _| {});
    assert!(steps.iter().all(|s| s.disagreeing.is_empty()));
    let seam = steps
        .iter()
        .find(|s| !s.is_clean())
        .expect("the crate meets a seam");
    assert!(
        seam.events.iter().all(|e| e.kind() == EventKind::Seam),
        "{seam}"
    );
    let said = seam.to_string();
    assert!(said.contains("on the seam between tile"), "{said}");
    assert!(said.contains("    fix: "), "{said}");
}

/// Without `judging`, nothing is judged and nothing is given back.
#[test]
fn a_capture_not_judging_gives_no_judgement() {
    let mut world = tiles_and_crate();
    let head = header(&world.params, "m", true);
    let mut capture = RapierCapture::new(Vec::new(), &head).unwrap();
    capture
        .before_step(&world.bodies, &world.colliders)
        .unwrap();
    world.step();
    assert!(
        capture
            .after_step(0.0, &world.narrow_phase)
            .unwrap()
            .is_none()
    );
}
