//! Fuzz the Godot scene importer (`collidoscope::import::import_bytes`): arbitrary bytes
//! as a `.tscn`. It must never panic, and every set it gives must be one the shape-set reader
//! takes back (every shape valid, every number finite).

#![no_main]

use collidoscope::import::{Convert, import_bytes};
use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let path = Path::new("corpus/import_godot/level.tscn");
    for skip in [false, true] {
        if let Ok(imported) = import_bytes(path, data, Convert { scale: 1.0 }, skip) {
            let text = collidoscope::scene::to_json(&imported.scene);
            if let Err(e) = collidoscope::scene::parse(Path::new("imported.json"), text.as_bytes())
            {
                panic!("an imported set does not read back: {e}\n{text}");
            }
        }
    }
});
