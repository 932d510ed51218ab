//! `collidoscope plot` (docs/format.md, "`collidoscope plot`"): the real binary on the
//! repository's captures and on a motion-lab recording; its pictures, its CSV, its defaults
//! and its refusals.

#[path = "common/binary.rs"]
mod binary;
#[path = "common/scratch.rs"]
mod scratch;

use binary::*;
use std::path::PathBuf;

fn scratch(name: &str) -> PathBuf {
    scratch::scratch_folder("collidoscope-plot").join(name)
}

/// The CSV as rows of cells (no cell here holds a comma).
fn rows(path: &PathBuf) -> Vec<Vec<String>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

/// Without --shape or --pair, the plot shows the first event's or disagreeing claim's pair
/// and its shape that moves: the Rapier tile capture's crate and the tile it first catches
/// on, speed and depth, the seams marked; the picture names them in its legend.
#[test]
fn by_default_the_first_troubles_shapes_are_plotted() {
    let (svg, csv) = (scratch("default.svg"), scratch("default.csv"));
    let o = collidoscope(&[
        "plot",
        "tests/captures/rapier-seams.capture.jsonl.gz",
        "-o",
        svg.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("crate, tile2 / crate: speed, depth over 120 frames"),
        "{}",
        stdout(&o)
    );
    let table = rows(&csv);
    assert_eq!(
        table[0],
        [
            "frame",
            "time",
            "crate speed (m/s)",
            "tile2 / crate depth claimed (m)",
            "tile2 / crate depth exact (m)",
            "marks"
        ]
    );
    assert_eq!(table.len(), 121);
    assert_eq!(table[1][2], "7");
    assert!(
        table.iter().any(|r| r[5].starts_with("seam: tile")),
        "{table:?}"
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    for words in [
        "crate speed (m/s)",
        "tile2 / crate depth exact (m)",
        "time (s)",
        "seam: ",
    ] {
        assert!(text.contains(words), "{words} not in the picture");
    }
}

/// A PNG in the light theme at the size asked, of chosen shapes, a pair and frames.
#[test]
fn a_png_of_chosen_shapes_pairs_and_frames() {
    let png = scratch("chosen.png");
    let csv = scratch("chosen.csv");
    let o = collidoscope(&[
        "plot",
        "tests/captures/planck-tiles.capture.jsonl",
        "--shape",
        "crate",
        "--pair",
        "tile3",
        "crate",
        "--what",
        "vx,vy,depth,separation,normal-angle,error",
        "--frames",
        "20",
        "40",
        "--size",
        "640",
        "400",
        "--theme",
        "light",
        "-o",
        png.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), 640);
    assert_eq!(u32::from_be_bytes(bytes[20..24].try_into().unwrap()), 400);
    let table = rows(&csv);
    assert_eq!(table.len(), 22, "frames 20 to 40 and the header");
    assert_eq!(table[1][0], "20");
    assert_eq!(table[21][0], "40");
    assert_eq!(table[0].len(), 2 + 2 + 2 * 3 + 2 + 1);
    assert!(
        table[0].contains(&"tile3 / crate tau (m)".to_string()),
        "{:?}",
        table[0]
    );
}

/// A motion-lab recording is plotted too, step by step: by default its first event's pair and
/// dynamic shape (Box2D's ghost bumps: the crate on the tiles caught on tile 2), the event
/// marked at its step.
#[test]
fn a_recording_is_plotted_step_by_step() {
    let rec = scratch("run.recording");
    let o = collidoscope(&[
        "simulate",
        "shapes/ghost-bumps.json",
        "--dt",
        "0.016666666666666666",
        "--steps",
        "30",
        "--record",
        rec.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let csv = scratch("run.csv");
    let o = collidoscope(&[
        "plot",
        rec.to_str().unwrap(),
        "--what",
        "vx,depth",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = rows(&csv);
    assert_eq!(
        table[0],
        [
            "frame",
            "time",
            "crate on the tiles vx (units/s)",
            "tile 2 / crate on the tiles depth claimed (units)",
            "tile 2 / crate on the tiles depth exact (units)",
            "marks"
        ]
    );
    assert_eq!(table.len(), 32, "steps 0 to 30 and the header");
    assert_eq!(table[1][1], "0");
    assert_eq!(table[1][2], "1.5");
    let caught = table
        .iter()
        .position(|r| r[5].starts_with("caught:"))
        .unwrap();
    assert_eq!(table[caught][0], "12");
    assert_eq!(table[caught][2], "0", "stopped dead: {:?}", table[caught]);
}

/// Clear refusals: a shape no frame holds (the names there are listed), a pair never claimed,
/// a quantity that is not one, a shape's quantity asked of a pair, no output, a picture that is
/// neither SVG nor PNG, a shape set, a file not there.
#[test]
fn what_is_not_there_is_refused_in_words() {
    let tiles = "tests/captures/tiles.capture.jsonl";
    let cases: [(&[&str], i32, &str); 8] = [
        (
            &["plot", tiles, "--shape", "crat", "-o", "x.svg"],
            2,
            "no shape \"crat\" in any frame; the shapes are: bullet (id 5), crate (id 9), tile1 (id 1), tile2 (id 2), wall (id 3)",
        ),
        (
            &["plot", tiles, "--pair", "tile1", "tile2", "-o", "x.svg"],
            2,
            "no contact between tile1 and tile2 was claimed in the 3 frames plotted",
        ),
        (
            &["plot", tiles, "--what", "sped", "-o", "x.svg"],
            2,
            "--what sped: not a quantity; the quantities are speed, vx, vy, angular, x, y, angle, depth",
        ),
        (
            &[
                "plot", tiles, "--pair", "tile1", "crate", "--what", "speed", "-o", "x.svg",
            ],
            2,
            "nothing to plot: speed is of a shape (--shape NAME), and only pairs were chosen",
        ),
        (
            &["plot", tiles],
            2,
            "name an output: -o OUT.svg|OUT.png, --csv OUT.csv, or both",
        ),
        (
            &["plot", tiles, "-o", "x.jpg"],
            2,
            "x.jpg: the picture's name must end in .svg or .png",
        ),
        (
            &["plot", "shapes/apart-capsules.json", "-o", "x.svg"],
            2,
            "is a shape set, not a capture; plot reads a capture, a motion-lab recording (simulate --record) or a packet log",
        ),
        (
            &["plot", "no/such.jsonl", "-o", "x.svg"],
            1,
            "does not exist",
        ),
    ];
    for (args, status, words) in cases {
        let o = collidoscope(args);
        assert_eq!(o.status.code(), Some(status), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(words), "{args:?}: {}", stderr(&o));
        assert!(!std::path::Path::new("x.svg").exists());
    }
}

/// `--frames`: the marks of the last frame asked for are kept (an event is found once the frame
/// after it is read), the default pair is the first event's within the frames, and frames the
/// capture does not have are refused with the frames it has.
#[test]
fn frames_keep_their_last_marks_and_choose_their_own_default() {
    let seams = "tests/captures/rapier-seams.capture.jsonl.gz";
    let csv = scratch("frames.csv");
    let o = collidoscope(&[
        "plot",
        seams,
        "--frames",
        "80",
        "84",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let table = rows(&csv);
    assert_eq!(
        table[0][3], "tile3 / crate depth claimed (m)",
        "{:?}",
        table[0]
    );
    let marked: Vec<&str> = table[1..]
        .iter()
        .filter(|r| r.last().is_some_and(|m| m.starts_with("seam:")))
        .map(|r| r[0].as_str())
        .collect();
    assert_eq!(marked, ["80", "81", "82", "83", "84"]);
    let o = collidoscope(&[
        "plot",
        seams,
        "--shape",
        "crate",
        "--frames",
        "84",
        "84",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("over 1 frame (1.4 to 1.4 s), 1 mark"),
        "{}",
        stdout(&o)
    );
    let o = collidoscope(&[
        "plot", seams, "--shape", "crate", "--frames", "5000", "6000", "-o", "x.svg",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no frame from 5000 to 6000: its frames are 0 to 119"),
        "{}",
        stderr(&o)
    );
}

/// A packet log's timeline (docs/format.md §18.10): logs/late-dodge.json at a 10 ms step. The
/// runner's track and its slope, the pair's exact lines only, and the three buckets a late
/// packet first reported colliding, then took back, as two marks; what a log cannot give is
/// refused in words.
#[test]
fn a_packet_logs_timeline_is_plotted_at_its_bucket_times() {
    let (png, csv) = (scratch("log.png"), scratch("log.csv"));
    let log = "logs/late-dodge.json";
    let o = collidoscope(&[
        "plot",
        log,
        "--step",
        "10",
        "--what",
        "x,vx,vy,separation",
        "-o",
        png.to_str().unwrap(),
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("post, runner, post / runner: x, vx, vy, separation over 11 frames (0 to 0.1 s), 2 marks"),
        "{}",
        stdout(&o)
    );
    assert!(std::fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let table: Vec<String> = std::fs::read_to_string(&csv)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(
        table[0],
        "frame,time,post x (units),post vx (units/s),post vy (units/s),runner x (units),\
         runner vx (units/s),runner vy (units/s),post / runner separation exact (units),marks"
    );
    assert_eq!(table.len(), 12);
    let cells = |row: usize| -> Vec<String> { table[row].split(',').map(String::from).collect() };
    // The runner goes from (10, 0) to (0, 10) in 50 ms (the late packet), then to (-10, 0).
    assert_eq!(
        cells(1)[..8],
        ["0", "0", "0", "0", "0", "10", "-200", "200"]
    );
    assert_eq!(
        cells(6)[..8],
        ["5", "0.05", "0", "0", "0", "0", "-200", "-200"]
    );
    assert_eq!(cells(11)[5..8], ["-10", "-200", "-200"]);
    // Its final track never meets the post: the separation stays above 0.
    assert!((1..12).all(|r| cells(r)[8].parse::<f64>().unwrap() > 0.0));
    // The collision found at 140 ms over the buckets 40 to 60 ms, taken back at 200 ms.
    assert_eq!(
        table[5].split_once(",\"").map(|(_, marks)| marks),
        Some(
            "collision: post / runner at 40 to 60 ms (3 buckets): found at 140 ms, 100 ms late; \
             retracted post / runner at 40 to 60 ms (3 buckets): at 200 ms a later packet moved them apart\""
        ),
        "{}",
        table[5]
    );
    // Without --step: the median time between a player's packets, said.
    let o = collidoscope(&["plot", log, "--csv", csv.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("step 50 ms (the median time between a player's packets"));
    // Refusals: what a log has not, an unknown player, --step for a capture, a bad step.
    let o = collidoscope(&[
        "plot",
        log,
        "--what",
        "impulse",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("a packet log has the players' positions only")
            && stderr(&o).contains("no impulse"),
        "{}",
        stderr(&o)
    );
    let o = collidoscope(&[
        "plot",
        log,
        "--shape",
        "ghost",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no player \"ghost\" in the log; the players (by name and place in the list) are: post (0), runner (1)"), "{}", stderr(&o));
    let o = collidoscope(&[
        "plot",
        "tests/captures/rapier-seams.capture.jsonl.gz",
        "--step",
        "10",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--step and --swept are for a packet log"),
        "{}",
        stderr(&o)
    );
    let o = collidoscope(&["plot", log, "--step", "0", "--csv", csv.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--step 0: give a step above 0 ms"),
        "{}",
        stderr(&o)
    );
    let o = collidoscope(&[
        "plot",
        log,
        "--step",
        "1e-9",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("more than 1000000: give --step 1 or more"),
        "{}",
        stderr(&o)
    );
}
