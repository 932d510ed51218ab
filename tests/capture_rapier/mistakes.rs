//! Mistakes injected into honest captures (recycling off, fresh manifolds) by changing the
//! manifolds before they are written: `diagnose` names them.

use crate::common;

use collidoscope::Cause;
use collidoscope::query::Mistake;
use common::scenes::ALL;
use common::{METRES, PIXELS, World, run};

#[test]
fn a_reversed_normal_is_named_normal_reversed() {
    let mut lines = Vec::new();
    for scene in &ALL {
        for scale in [METRES, PIXELS] {
            let mut world = World::with_fresh_manifolds((scene.build)(scale, false));
            let result = run(&mut world, scene.steps, |contacts| {
                for m in contacts {
                    m.normal = -m.normal;
                }
            });
            lines.push(result.line(scene.name, &scale, false));
            let mut named = 0;
            for r in &result.records {
                // A reversed normal moves the minimum translation vector by 2 * depth: it is
                // seen when that is more than tau.
                if r.intersecting && 2.0 * r.exact_depth > 1.01 * r.tolerance {
                    assert!(!r.agrees, "{r:?}");
                    assert!(
                        r.matches.contains(&Cause::Mistake(Mistake::NormalReversed)),
                        "{r:?}"
                    );
                    named += 1;
                } else if !r.agrees {
                    assert!(
                        r.matches.contains(&Cause::Mistake(Mistake::NormalReversed)),
                        "{r:?}"
                    );
                }
            }
            assert!(named > 100, "{}", lines.last().unwrap());
            lines.push(format!("    named normal-reversed: {named}"));
        }
    }
    println!("{}", lines.join("\n"));
}

#[test]
fn shallow_contacts_reported_apart_are_named_shallow_ignored_where_tau_can_see_them() {
    let mut lines = Vec::new();
    for scene in &ALL {
        for scale in [METRES, PIXELS] {
            let mut world = World::with_fresh_manifolds((scene.build)(scale, false));
            // The mistake: a manifold less than 1e-4 deep is reported as touching (apart).
            let result = run(&mut world, scene.steps, |contacts| {
                for m in contacts {
                    let deepest = m.points.iter().map(|p| p.separation).fold(0.0, f64::min);
                    if deepest > -1e-4 {
                        for p in &mut m.points {
                            p.separation = p.separation.max(0.0);
                        }
                    }
                }
            });
            lines.push(result.line(scene.name, &scale, false));
            let named = result
                .records
                .iter()
                .filter(|r| r.matches.contains(&Cause::Mistake(Mistake::ShallowIgnored)))
                .count();
            for r in result.records.iter().filter(|r| !r.agrees) {
                assert!(
                    r.matches.contains(&Cause::Mistake(Mistake::ShallowIgnored)),
                    "{r:?}"
                );
                assert!(!r.intersecting && r.exact_depth < 1e-4, "{r:?}");
            }
            // Every claim made apart with an exact depth tau can see is named.
            let visible = result
                .records
                .iter()
                .filter(|r| !r.intersecting && r.exact_depth > 1.01 * r.tolerance)
                .count();
            assert_eq!(named, visible, "{}", lines.last().unwrap());
            lines.push(format!("    named shallow-ignored: {named}"));
            if scale.s == 1.0 && scene.name != "bullet" {
                assert!(named > 0, "{}", lines.last().unwrap());
            }
        }
    }
    println!("{}", lines.join("\n"));
}
