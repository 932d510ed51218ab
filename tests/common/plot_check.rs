//! A plot's CSV against the capture it was read from: every column of every row equals the
//! number the capture holds (a shape's pose and velocity, a pair's claim and impulses) or the
//! exact result at the frame's poses, to the bit, and is empty exactly where the capture has
//! nothing (the pair not claimed).
#![allow(dead_code)]

use collidoscope::capture::CaptureReader;
use collidoscope::capture::analysis::series::plot_capture;
use collidoscope::query::summarize;
use collidoscope::series::{PlotRequest, Quantity, ShapeRef};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

/// What a check covered.
#[derive(Debug, Default)]
pub struct Checked {
    /// Rows (frames) compared.
    pub rows: usize,
    /// Cells holding a number, compared.
    pub numbers: usize,
    /// Rows in which the pair was claimed.
    pub claimed: usize,
    /// Rows in which the claim carried impulses.
    pub with_impulses: usize,
    /// The plot itself.
    pub plot: collidoscope::series::Plot,
}

/// Plot `capture` for `shape` and the pair `(a, b)` (names), every quantity, and compare its
/// CSV with the capture read directly.
pub fn csv_equals_the_capture(capture: &[u8], shape: &str, (a, b): (&str, &str)) -> Checked {
    static FILES: AtomicU64 = AtomicU64::new(0);
    let path = std::env::temp_dir().join(format!(
        "collidoscope-plot-check-{}-{}.capture.jsonl",
        std::process::id(),
        FILES.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, capture).unwrap();
    let request = PlotRequest {
        shapes: vec![ShapeRef::Given(shape.into())],
        pairs: vec![(ShapeRef::Given(a.into()), ShapeRef::Given(b.into()))],
        what: Quantity::ALL.to_vec(),
        frames: None,
    };
    let (plot, notes) = plot_capture(&path, &request).unwrap_or_else(|e| panic!("{e}"));
    assert!(notes.is_empty(), "{notes:?}");
    let csv = plot.csv();
    let plot_kept = plot.clone();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |label: &str| {
        header
            .iter()
            .position(|h| h.starts_with(&format!("{label} (")))
            .unwrap_or_else(|| panic!("no column {label} in {header:?}"))
    };
    let pair = format!("{a} / {b}");
    let columns: HashMap<&str, usize> = [
        ("speed", column(&format!("{shape} speed"))),
        ("vx", column(&format!("{shape} vx"))),
        ("vy", column(&format!("{shape} vy"))),
        ("angular", column(&format!("{shape} angular"))),
        ("x", column(&format!("{shape} x"))),
        ("y", column(&format!("{shape} y"))),
        ("angle", column(&format!("{shape} angle"))),
        ("depth claimed", column(&format!("{pair} depth claimed"))),
        ("depth exact", column(&format!("{pair} depth exact"))),
        (
            "separation exact",
            column(&format!("{pair} separation exact")),
        ),
        (
            "normal claimed",
            column(&format!("{pair} normal-angle claimed")),
        ),
        ("impulse", column(&format!("{pair} impulse claimed"))),
    ]
    .into_iter()
    .collect();
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let mut reader = CaptureReader::new(&path, std::fs::File::open(&path).unwrap()).unwrap();
    let mut checked = Checked::default();
    let mut row = 0;
    while let Some(frame) = reader.next_frame().unwrap() {
        let cells = &rows[row];
        assert_eq!(cells[0], frame.frame.to_string());
        assert_eq!(cells[1].parse::<f64>().unwrap(), frame.time);
        let cell = |name: &str| -> Option<f64> {
            let text = cells[columns[name]];
            (!text.is_empty()).then(|| text.parse().unwrap())
        };
        let mut same = |name: &str, want: Option<f64>| {
            let got = cell(name);
            assert_eq!(
                got.map(f64::to_bits),
                want.map(f64::to_bits),
                "frame {}, {name}: the CSV says {got:?}, the capture {want:?}",
                frame.frame
            );
            checked.numbers += usize::from(want.is_some());
        };
        let find = |name: &str| reader.shapes().find(|s| s.display_name() == name).cloned();
        let s = find(shape);
        let v = s.as_ref().map(|s| s.motion.velocity);
        same("speed", v.map(|v| v.length()));
        same("vx", v.map(|v| v.x));
        same("vy", v.map(|v| v.y));
        same("angular", s.as_ref().map(|s| s.motion.angular_velocity));
        same("x", s.as_ref().map(|s| s.placed.pose.position.x));
        same("y", s.as_ref().map(|s| s.placed.pose.position.y));
        same("angle", s.as_ref().map(|s| s.placed.pose.angle()));
        let (sa, sb) = (find(a), find(b));
        if let (Some(sa), Some(sb)) = (sa, sb) {
            let exact = summarize(&sa.placed, &sb.placed);
            same("depth exact", Some(exact.depth));
            same(
                "separation exact",
                Some(if exact.intersecting {
                    -exact.depth
                } else {
                    exact.distance
                }),
            );
            let claims: Vec<_> = frame
                .claims
                .iter()
                .filter(|c| (c.a, c.b) == (sa.id, sb.id) || (c.a, c.b) == (sb.id, sa.id))
                .collect();
            // The engines here claim one manifold per pair of these shapes.
            assert!(claims.len() <= 1, "frame {}: {claims:?}", frame.frame);
            match claims.first() {
                Some(c) => {
                    checked.claimed += 1;
                    let r = &c.reported;
                    same(
                        "depth claimed",
                        Some(if r.intersecting {
                            r.depth.unwrap()
                        } else {
                            0.0
                        }),
                    );
                    let turned = c.a != sa.id;
                    let normal = r.normal.map(|n| if turned { -n } else { n });
                    same("normal claimed", normal.map(|n| n.y.atan2(n.x)));
                    let impulse = r.impulses.as_ref().map(|j| j.iter().sum::<f64>());
                    checked.with_impulses += usize::from(impulse.is_some());
                    same("impulse", impulse);
                }
                None => {
                    same("depth claimed", None);
                    same("impulse", None);
                }
            }
        }
        row += 1;
        checked.rows += 1;
    }
    assert_eq!(row, rows.len(), "the CSV has a row per frame");
    let _ = std::fs::remove_file(&path);
    checked.plot = plot_kept;
    checked
}
