//! Fuzz the reader of a Godot project's gravity (`collidoscope::import::godot::
//! project_gravity_of`): arbitrary bytes as a `project.godot`. It must never panic, and a
//! gravity it gives must be finite (a bad one is refused naming the file, the line and the key).

#![no_main]

use collidoscope::import::godot::project_gravity_of;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    if let Ok(g) = project_gravity_of(Path::new("project.godot"), data) {
        assert!(g.is_finite(), "an infinite gravity {g} was taken");
    }
});
