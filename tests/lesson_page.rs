//! The exported lesson page in a real browser: headless Chromium (Debian's `chromium`, which
//! `.ci/run` installs) loads the page from the disk, with no console error, the lesson's
//! number of slides, one visible at a time, and the arrow keys, Page Up/Down and Space moving
//! through each slide's steps, then the slides. Without Chromium the test says so and passes,
//! except under CI (`CI` set), where it fails.

use collidoscope::lesson::{BUILT_IN, builtin, stage};
use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .flat_map(|name| std::env::split_paths(&path).map(move |dir| dir.join(name)))
        .find(|p| p.is_file())
}

fn export(name: &str, dir: &Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_collidoscope"))
        .args(["lesson", "export", "--builtin", name, "-o"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::read_to_string(dir.join("index.html")).unwrap()
}

/// What the page shows: `slide.step "where"`, after each key of `keys` in turn (the first
/// entry before any key), and every error the page raised, as the browser leaves the DOM; and
/// at each, the picture shown: its width and height on the page, its viewBox's, and the
/// page's (a 1280x800 window).
fn browse(
    browser: &Path,
    page: &str,
    keys: &[&str],
    dir: &Path,
) -> (Vec<String>, Vec<String>, Vec<[f64; 6]>) {
    let watch = "<script>window.__errors = [];\
        window.addEventListener('error', function (e) { window.__errors.push(String(e.message)); });\
        var __ce = console.error; console.error = function () { window.__errors.push(Array.prototype.join.call(arguments, ' ')); __ce.apply(console, arguments); };</script>";
    let keys_json = format!(
        "[{}]",
        keys.iter()
            .map(|k| format!("'{k}'"))
            .collect::<Vec<_>>()
            .join(",")
    );
    let drive = format!(
        "<script>(function () {{\
          function state() {{\
            var shown = document.querySelectorAll('section.slide:not([hidden])');\
            var s = shown.length === 1 ? shown[0] : null;\
            var step = s ? s.querySelectorAll('svg[data-step]:not([hidden])') : [];\
            return (s ? s.getAttribute('data-slide') : 'none:' + shown.length) + '.' +\
              (step.length === 1 ? step[0].getAttribute('data-step') : 'steps:' + step.length) +\
              ' ' + document.getElementById('where').textContent;\
          }}\
          function size() {{\
            var svg = document.querySelector('section.slide:not([hidden]) svg[data-step]:not([hidden])');\
            if (!svg) {{ return [0, 0, 1, 1, innerWidth, innerHeight]; }}\
            var r = svg.getBoundingClientRect(); var vb = svg.viewBox.baseVal;\
            return [r.width, r.height, vb.width, vb.height, innerWidth, innerHeight];\
          }}\
          var seen = [state()]; var sizes = [size()];\
          {keys_json}.forEach(function (k) {{\
            document.dispatchEvent(new KeyboardEvent('keydown', {{key: k, bubbles: true}}));\
            seen.push(state()); sizes.push(size());\
          }});\
          var out = document.createElement('pre'); out.id = 'report';\
          out.textContent = JSON.stringify({{seen: seen, sizes: sizes, errors: window.__errors}});\
          document.body.appendChild(out);\
        }})();</script>"
    );
    let page = page
        .replacen("<head>", &format!("<head>\n{watch}"), 1)
        .replacen("</body>", &format!("{drive}\n</body>"), 1);
    let file = dir.join("driven.html");
    std::fs::write(&file, page).unwrap();
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-extensions",
            "--enable-logging=stderr",
            "--virtual-time-budget=2000",
            "--window-size=1280,800",
            "--dump-dom",
        ])
        .arg(format!("file://{}", file.display()))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let start = dom
        .find("<pre id=\"report\">")
        .unwrap_or_else(|| panic!("the page's script did not run:\n{stderr}"));
    let report = &dom[start + "<pre id=\"report\">".len()..];
    let report = &report[..report.find("</pre>").unwrap()];
    let report = report.replace("&quot;", "\"").replace("&amp;", "&");
    let value: serde_json::Value = serde_json::from_str(&report).unwrap();
    let strings = |key: &str| -> Vec<String> {
        value[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    let mut errors = strings("errors");
    // What the page printed to the console as an error, as Chromium logs it.
    errors.extend(
        stderr
            .lines()
            .filter(|l| l.contains("CONSOLE") && (l.contains("Uncaught") || l.contains("rror")))
            .map(str::to_string),
    );
    let sizes = value["sizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            let n: Vec<f64> = v
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            [n[0], n[1], n[2], n[3], n[4], n[5]]
        })
        .collect();
    (strings("seen"), errors, sizes)
}

#[test]
fn every_built_in_lesson_page_steps_through_its_slides_in_a_browser() {
    let Some(browser) = chromium() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs chromium: .ci/run installs it (apt-get install chromium)"
        );
        eprintln!("no chromium on this machine: the page is not tried in a browser");
        return;
    };
    for b in BUILT_IN {
        let dir = tempfile::tempdir().unwrap();
        let page = export(b.name, dir.path());
        let lesson = builtin(b.name).unwrap().lesson().unwrap();
        let n = lesson.slides.len();
        assert_eq!(page.matches("<section class=\"slide").count(), n);
        // What the presenter does, worked out from the lesson: each slide's steps in turn.
        let mut expected = Vec::new();
        for (i, slide) in lesson.slides.iter().enumerate() {
            let steps = stage(slide).steps;
            let names: Vec<String> = if steps.is_empty() {
                vec!["all".into()]
            } else {
                steps.iter().map(|k| k.to_string()).collect()
            };
            for name in names {
                expected.push(format!("{}.{name} slide {} of {n}", i + 1, i + 1));
            }
        }
        // Forward with every key that advances, past the end, then all the way back.
        let forward = ["ArrowRight", "PageDown", " "];
        let mut keys: Vec<&str> = (0..expected.len()).map(|i| forward[i % 3]).collect();
        let back = ["ArrowLeft", "PageUp"];
        keys.extend((0..expected.len()).map(|i| back[i % 2]));
        let (seen, errors, sizes) = browse(&browser, &page, &keys, dir.path());
        assert!(
            errors.is_empty(),
            "{}: errors in the page: {errors:?}",
            b.name
        );
        let mut want = expected.clone();
        want.push(expected.last().unwrap().clone()); // past the end: stays
        want.extend(expected.iter().rev().skip(1).cloned());
        want.push(expected[0].clone()); // before the start: stays
        assert_eq!(seen, want, "{}", b.name);
        // Repairs: pictures used 730x450 of a 1280x800 page, a wide scene squashed into a
        // band. Each picture keeps its aspect and takes most of the page's width or height.
        for (place, [w, h, vbw, vbh, iw, ih]) in seen.iter().zip(&sizes) {
            assert!(
                ((w / h) / (vbw / vbh) - 1.0).abs() < 0.02,
                "{}: {place}: drawn {w}x{h}, made {vbw}x{vbh}",
                b.name
            );
            assert!(
                *h >= 0.6 * ih || *w >= 0.9 * iw,
                "{}: {place}: {w}x{h} on a {iw}x{ih} page",
                b.name
            );
        }
    }
}

/// `lesson export --interactive` of a lesson file: the web app's files copied beside the page,
/// the lesson and the shape sets it names inside the page (readable back, the same lesson), and
/// a web folder that is not the app's refused by name. (The page in a browser: web/test.)
#[test]
fn an_interactive_export_carries_the_lesson_and_its_files() {
    use collidoscope::lesson::{LessonBundle, LessonSource};
    let dir = tempfile::tempdir().unwrap();
    let web = dir.path().join("web");
    std::fs::create_dir_all(web.join("pkg")).unwrap();
    std::fs::write(
        web.join("index.html"),
        "<html><body><canvas id=\"collidoscope-canvas\"></canvas>\n<!--LESSON-->\n</body></html>",
    )
    .unwrap();
    std::fs::write(web.join("pkg/collidoscope_web.js"), "export default 1;").unwrap();
    std::fs::write(web.join("pkg/collidoscope_web_bg.wasm"), b"\0asm\x01\0\0\0").unwrap();
    let lesson = Path::new(env!("CARGO_MANIFEST_DIR")).join("lessons/mtv-direction.json");
    let out = dir.path().join("site");
    let run = |web: &Path| {
        Command::new(env!("CARGO_BIN_EXE_collidoscope"))
            .args(["lesson", "export", "--interactive"])
            .arg(&lesson)
            .arg("-o")
            .arg(&out)
            .arg("--web")
            .arg(web)
            .output()
            .unwrap()
    };
    let done = run(&web);
    assert!(
        done.status.success(),
        "{}",
        String::from_utf8_lossy(&done.stderr)
    );
    let said = String::from_utf8_lossy(&done.stdout);
    assert!(
        said.contains("slides") && said.contains("python3 -m http.server"),
        "{said}"
    );
    assert_eq!(
        std::fs::read(out.join("pkg/collidoscope_web_bg.wasm")).unwrap(),
        b"\0asm\x01\0\0\0"
    );
    // The wasm the page fetches, compressed: made here, since this web folder has none.
    let unpacked = |path: &Path| {
        let mut plain = Vec::new();
        std::io::Read::read_to_end(
            &mut flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap()),
            &mut plain,
        )
        .unwrap();
        plain
    };
    assert_eq!(
        unpacked(&out.join("pkg/collidoscope_web_bg.wasm.gz")),
        b"\0asm\x01\0\0\0"
    );
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    let start = page.find("id=\"collidoscope-lesson\">").unwrap() + 25;
    let end = start + page[start..].find("</script>").unwrap();
    let carried: LessonBundle = serde_json::from_str(&page[start..end]).unwrap();
    assert_eq!(carried.name, "mtv-direction.json");
    assert!(!carried.files.is_empty());
    assert!(
        !page[start..end].contains("</"),
        "a carried </ would end the script"
    );
    let from_page = LessonSource::Bundle(Box::new(carried)).load().unwrap();
    let from_disk = LessonSource::File(lesson.clone()).load().unwrap();
    assert_eq!(from_page.title, from_disk.title);
    assert_eq!(from_page.slides.len(), from_disk.slides.len());
    for (a, b) in from_page.slides.iter().zip(&from_disk.slides) {
        assert_eq!(a.scene, b.scene);
        assert_eq!(a.text, b.text);
    }
    // A folder that is not the web app's: said, naming its page, with the way to build it.
    std::fs::write(web.join("index.html"), "<html></html>").unwrap();
    let refused = run(&web);
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(
        said.contains("index.html") && said.contains("web/build.sh"),
        "{said}"
    );
    let missing = run(&dir.path().join("nowhere"));
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("build it first with web/build.sh"));
}
