//! Honest captures of real Rapier worlds (contact recycling off), at the origin in metres and
//! ~500 px from the origin at 32 px per metre: with a narrow phase that computes every manifold
//! again ([`fresh_narrow_phase`]) every claim agrees at f32; with Rapier's default narrow phase
//! every claim whose manifold was computed in its step agrees, and the claims that disagree are
//! manifolds parry kept from an earlier step.

use crate::common;

use common::scenes::ALL;
use common::{METRES, PIXELS, World, run};

fn every_scene(prepare: fn(World) -> World) -> Vec<(String, common::Run)> {
    let mut results = Vec::new();
    for scene in &ALL {
        for scale in [METRES, PIXELS] {
            let mut world = prepare((scene.build)(scale, false));
            let result = run(&mut world, scene.steps, |_| {});
            let line = result.line(scene.name, &scale, false);
            assert!(result.intersecting > 100, "{line}");
            results.push((line, result));
        }
    }
    results
}

fn report(results: &[(String, common::Run)]) -> String {
    results
        .iter()
        .map(|(line, run)| {
            let mut text = line.clone();
            for example in &run.examples {
                text.push_str("\n    ");
                text.push_str(example);
            }
            text
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn with_recycling_off_and_fresh_manifolds_every_claim_agrees_at_f32() {
    let results = every_scene(World::with_fresh_manifolds);
    let text = report(&results);
    println!("fresh manifolds:\n{text}");
    for (_, run) in &results {
        assert_eq!(run.agreeing, run.claims, "{text}");
    }
}

#[test]
fn with_recycling_off_every_claim_computed_in_its_step_agrees_at_f32() {
    let results = every_scene(|world| world);
    let text = report(&results);
    println!("default narrow phase:\n{text}");
    for (_, run) in &results {
        // What disagrees is only what parry kept from an earlier step.
        assert_eq!(run.claims - run.agreeing, run.reused_disagreeing, "{text}");
    }
}
