//! Fuzz the link reader (`?lesson=…`, `?example=…`, `?scene=…`, what the web app's address and
//! `collidoscope --link` give the window): any text either opens something or is refused with
//! a sentence, never a panic; a scene it opens goes back into a link (with the lab, pair, view
//! and ray it gave) and reads back the same.

#![no_main]

use collidoscope::scene::link::{LinkRequest, parse_query, scene_query_shown};
use collidoscope::scene::to_json;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // The text as a whole query, and as a scene's packed file (what Copy link writes).
    for query in [text.to_string(), format!("?scene={text}")] {
        match parse_query(&query) {
            Ok(LinkRequest::Scene(scene, shown)) => {
                let again = parse_query(&scene_query_shown(&scene, &shown)).expect("a link written reads back");
                let LinkRequest::Scene(back, again_shown) = again else {
                    panic!("a scene's link reads back as something else");
                };
                assert_eq!(to_json(&back), to_json(&scene));
                assert_eq!(again_shown, shown);
            }
            Ok(_) => {}
            Err(e) => assert!(!e.is_empty()),
        }
    }
});
