//! Contact recycling on (Rapier's default): claims computed at earlier poses disagree, and those
//! computed one step before are reproduced by `previous-poses`.

use crate::common;

use collidoscope::Cause;
use common::scenes::ALL;
use common::{METRES, PIXELS, count, run};

#[test]
fn with_recycling_on_stale_claims_disagree_and_previous_poses_names_them() {
    let mut lines = Vec::new();
    let mut previous = 0;
    for scene in &ALL {
        for scale in [METRES, PIXELS] {
            let mut world = (scene.build)(scale, true);
            let result = run(&mut world, scene.steps, |_| {});
            lines.push(result.line(scene.name, &scale, true));
            for example in result.examples.iter().take(2) {
                lines.push(format!("    {example}"));
            }
            previous += count(&result, Cause::PreviousPoses);
        }
    }
    let text = lines.join("\n");
    println!("{text}");
    assert!(previous > 0, "{text}");
}
