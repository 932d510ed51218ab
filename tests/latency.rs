//! The latency-aware engine: the LACE article's three players, a retraction, every bad log
//! refused with its packet and field, the work of a packet bounded by its span, and (thousands
//! of random logs with jitter, loss, reordering and duplicates) the incremental engine ending
//! with exactly what one pass over all packets finds.

#[path = "common/binary.rs"]
mod binary;

use binary::*;
use collidoscope::geometry::DVec2;
use collidoscope::latency::{
    Finding, Network, Packet, PacketEngine, PacketLog, Player, Settings, generate, one_pass,
};
use collidoscope::motion::{Config, Recording, Simulation};
use collidoscope::scene::generate::{Generate, Random, random_scene};
use serde_json::Value;
use std::path::Path;

fn load(name: &str) -> PacketLog {
    PacketLog::load(
        &Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("logs")
            .join(name),
    )
    .unwrap()
}

fn run(log: &PacketLog, settings: Settings) -> PacketEngine {
    let mut engine = PacketEngine::for_log(log, settings);
    for p in &log.packets {
        engine.push(p).unwrap();
    }
    engine
}

/// p1 and p3 cross near t = 18, between the buckets at 0 and 25: the buckets never see it;
/// swept, it is found once p3's packet (sent at 100) arrives at 130, at 18 - sqrt(2).
#[test]
fn the_lace_example_is_found_once_the_data_arrive() {
    let log = load("lace-three-players.json");
    let buckets = run(
        &log,
        Settings {
            step_ms: 25.0,
            swept: false,
        },
    );
    assert!(
        buckets.collisions().is_empty(),
        "{:?}",
        buckets.collisions()
    );
    let swept = run(
        &log,
        Settings {
            step_ms: 25.0,
            swept: true,
        },
    );
    assert_eq!(swept.collisions().len(), 1, "{:?}", swept.collisions());
    let c = &swept.collisions()[0];
    assert_eq!(
        (c.a, c.b, c.between, c.detected_at),
        (0, 2, Some([0.0, 25.0]), 130.0)
    );
    let exact = 18.0 - 2f64.sqrt();
    assert!((c.time - exact).abs() < 1e-9, "{} vs {exact}", c.time);
    assert!(swept.retracted().is_empty());
    // A step of 2 puts a bucket where they overlap: found at the buckets, also at 130.
    let fine = run(
        &log,
        Settings {
            step_ms: 2.0,
            swept: false,
        },
    );
    let times: Vec<f64> = fine.collisions().iter().map(|c| c.time).collect();
    assert_eq!(times, [18.0]);
    assert_eq!(fine.collisions()[0].detected_at, 130.0);
    for settings in [
        Settings {
            step_ms: 25.0,
            swept: true,
        },
        Settings {
            step_ms: 2.0,
            swept: false,
        },
    ] {
        assert_eq!(run(&log, settings).standing(), one_pass(&log, settings));
    }
}

/// A collision found at bucket 50 when the runner's packet sent at 100 arrives; its late
/// packet sent at 50 says it dodged: retracted at 200.
#[test]
fn a_late_packet_retracts_a_collision() {
    let log = load("late-dodge.json");
    for swept in [false, true] {
        let settings = Settings {
            step_ms: 25.0,
            swept,
        };
        let engine = run(&log, settings);
        let found: Vec<_> = engine
            .collisions()
            .iter()
            .map(|c| (c.a, c.b, c.time, c.detected_at))
            .collect();
        assert_eq!(found, [(0, 1, 50.0, 140.0)]);
        let retracted: Vec<_> = engine
            .retracted()
            .iter()
            .map(|r| (r.a, r.b, r.time, r.retracted_at))
            .collect();
        assert_eq!(retracted, [(0, 1, 50.0, 200.0)]);
        assert!(engine.standing().is_empty());
        assert!(one_pass(&log, settings).is_empty());
    }
}

/// A random log: players of every kind moving about a small arena (so they meet often),
/// sending at irregular times over a network that delays, jitters, loses, reorders and
/// duplicates packets.
fn random_log(seed: u64) -> PacketLog {
    let mut random = Random::new(seed);
    let n = 2 + (random.unit() * 5.0) as usize;
    let scene = random_scene(Generate {
        count: n,
        seed,
        overlaps: 2.0,
    });
    let players: Vec<Player> = scene
        .shapes
        .iter()
        .map(|s| Player {
            name: None,
            shape: s.placed.shape.clone(),
        })
        .collect();
    let mut packets = Vec::new();
    let loss = random.between(0.0, 0.3);
    let jitter = random.between(0.0, 40.0);
    let duplicate = random.between(0.0, 0.2);
    for player in 0..n {
        let mut t = random.between(-20.0, 30.0).round();
        let mut position = DVec2::new(random.between(-3.0, 3.0), random.between(-3.0, 3.0));
        let mut angle = random.between(-3.0, 3.0);
        let sends = 3 + (random.unit() * 10.0) as usize;
        for _ in 0..sends {
            let received = t + random.between(0.0, jitter) + 10.0;
            if random.unit() >= loss {
                packets.push(Packet {
                    player,
                    sent: t,
                    received,
                    position,
                    angle,
                });
                if random.unit() < duplicate {
                    // The same `sent` again, maybe saying something else: ignored.
                    packets.push(Packet {
                        player,
                        sent: t,
                        received: received + random.between(0.0, 20.0),
                        position: position + DVec2::new(1.0, 0.0),
                        angle,
                    });
                }
            }
            // Some sends land exactly on bucket times, most between them.
            t += if random.unit() < 0.3 {
                10.0
            } else {
                random.between(1.0, 30.0)
            };
            position += DVec2::new(random.between(-2.0, 2.0), random.between(-2.0, 2.0));
            position = position.clamp(DVec2::splat(-4.0), DVec2::splat(4.0));
            angle += random.between(-1.0, 1.0);
        }
    }
    packets.sort_by(|p, q| p.received.total_cmp(&q.received));
    PacketLog { players, packets }
}

fn check_against_one_pass(seeds: std::ops::Range<u64>, swept: bool) -> (usize, usize, usize) {
    check_at_steps(seeds, swept, [5.0, 10.0, 25.0])
}

fn check_at_steps(
    seeds: std::ops::Range<u64>,
    swept: bool,
    steps: [f64; 3],
) -> (usize, usize, usize) {
    let (mut found, mut retracted, mut logs_with_retractions) = (0, 0, 0);
    for seed in seeds {
        let log = random_log(seed);
        log.check().unwrap();
        let step = steps[(seed % 3) as usize];
        let settings = Settings {
            step_ms: step,
            swept,
        };
        let engine = run(&log, settings);
        let expected: Vec<Finding> = one_pass(&log, settings);
        assert_eq!(
            engine.standing(),
            expected,
            "seed {seed}, step {step}, swept {swept}"
        );
        found += engine.collisions().len();
        retracted += engine.retracted().len();
        logs_with_retractions += !engine.retracted().is_empty() as usize;
    }
    (found, retracted, logs_with_retractions)
}

#[test]
fn the_engine_ends_with_what_one_pass_finds_on_2000_random_logs() {
    let (found, retracted, with) = check_against_one_pass(0..2000, false);
    eprintln!("2000 logs: {found} collisions, {retracted} retractions in {with} logs");
    // The logs exercise what they should: many collisions, many found late and taken back.
    assert!(found > 2000, "{found}");
    assert!(retracted > 100 && with > 80, "{retracted} in {with} logs");
}

#[test]
fn swept_contacts_end_as_one_pass_finds_them_on_1000_random_logs() {
    let (found, retracted, with) = check_against_one_pass(5000..6000, true);
    eprintln!("1000 swept logs: {found} collisions, {retracted} retractions in {with} logs");
    assert!(found > 1000, "{found}");
    assert!(retracted > 100 && with > 50, "{retracted} in {with} logs");
}

/// Issue 41: at a small step every packet's span holds more than ROW_BY_ROW buckets, so it
/// is checked only where players' boxes meet, with no rows made: the engine still ends with
/// what one pass over every bucket finds, swept or not.
#[test]
fn long_spans_checked_where_players_are_near_end_as_one_pass_finds_them() {
    for swept in [false, true] {
        let (found, retracted, with) = check_at_steps(7000..7300, swept, [0.25, 0.4, 1.0]);
        eprintln!(
            "300 logs at small steps, swept {swept}: {found} collisions, {retracted} retractions in {with} logs"
        );
        assert!(found > 10_000, "{found}");
        assert!(retracted > 100 && with > 10, "{retracted} in {with} logs");
    }
}

/// A packet in order does the work of its span only: the rows from its player's previous
/// packet to it, however long the log already is.
#[test]
fn each_packet_checks_only_the_rows_its_span_changed() {
    let players: Vec<Player> = (0..3)
        .map(|_| Player {
            name: None,
            shape: collidoscope::geometry::Circle::new(0.5).unwrap().into(),
        })
        .collect();
    let mut engine = PacketEngine::new(
        &players.iter().map(|p| p.shape.clone()).collect::<Vec<_>>(),
        Settings {
            step_ms: 10.0,
            swept: true,
        },
    );
    for k in 0..10_000u32 {
        let player = (k % 3) as usize;
        let sent = (k / 3) as f64 * 10.0;
        let effect = engine
            .push(&Packet {
                player,
                sent,
                received: sent + 50.0,
                position: DVec2::new(player as f64 * 3.0, sent * 0.01),
                angle: 0.0,
            })
            .unwrap();
        if k >= 3 {
            // From the previous packet at sent - 10 to this one: two rows, one interval.
            assert_eq!((effect.rows, effect.intervals), (2, 1), "packet {k}");
            assert!(effect.pairs <= 4, "packet {k}: {effect:?}");
        }
    }
    // Rows every player has passed are retired.
    assert!(engine.rows_held() < 100, "{}", engine.rows_held());
}

/// A player that stops sending holds nothing back: once it has been silent for
/// STOPPED_AFTER, rows the others have passed are retired; and a packet of it that arrives
/// much later, for a time long retired, is still checked exactly.
#[test]
fn a_player_that_stops_sending_does_not_hold_rows_back() {
    use collidoscope::latency::STOPPED_AFTER;
    let circle = || -> collidoscope::geometry::Shape {
        collidoscope::geometry::Circle::new(0.5).unwrap().into()
    };
    let mut log = PacketLog {
        players: (0..3)
            .map(|_| Player {
                name: None,
                shape: circle(),
            })
            .collect(),
        packets: Vec::new(),
    };
    // Players 0 and 1 stand apart for 20 s; player 2 sends for 1 s, then falls silent.
    for k in 0..2000u32 {
        let sent = k as f64 * 10.0;
        for player in 0..3 {
            if player == 2 && sent > 1000.0 {
                continue;
            }
            log.packets.push(Packet {
                player,
                sent,
                received: sent + 30.0,
                position: DVec2::new(player as f64 * 5.0, 0.0),
                angle: 0.0,
            });
        }
    }
    // Long after, player 2's lost packet from t = 5000 arrives: it was on top of player 1
    // (the track from its last packet at 1000 to this one passes through player 1 too).
    log.packets.push(Packet {
        player: 2,
        sent: 5000.0,
        received: 20_000.0 + STOPPED_AFTER,
        position: DVec2::new(5.0, 0.0),
        angle: 0.0,
    });
    let settings = Settings {
        step_ms: 10.0,
        swept: true,
    };
    let mut engine = PacketEngine::for_log(&log, settings);
    let (last, before) = log.packets.split_last().unwrap();
    for p in before {
        engine.push(p).unwrap();
    }
    assert!(engine.rows_held() < 300, "{} rows held", engine.rows_held());
    let held = engine.rows_held();
    let effect = engine.push(last).unwrap();
    // Its span, 1000 to 5000, holds 401 buckets: only those where it is near player 1 are
    // checked (it comes from x = 10 to x = 5, player 1's place, over the last of them), and no
    // row is made for them.
    assert!(
        effect.rows > 0 && effect.rows < 401,
        "{} of the span's 401 rows checked",
        effect.rows
    );
    assert!(engine.rows_held() <= held);
    assert!(effect.found > 0);
    assert_eq!(engine.standing(), one_pass(&log, settings));
}

/// A log made from a recording: one packet per moving body per frame, some lost; the same
/// seed gives the same log; run through the engine it ends as one pass does.
#[test]
fn logs_are_generated_from_a_recording_with_a_network_model() {
    let scene = random_scene(Generate {
        count: 12,
        seed: 7,
        overlaps: 3.0,
    });
    let mut scene = scene;
    for (i, s) in scene.shapes.iter_mut().enumerate() {
        s.motion.body = collidoscope::scene::Body::Dynamic;
        s.motion.velocity = DVec2::new((i as f64 * 0.7).sin(), (i as f64 * 1.3).cos()) * 2.0;
        s.motion.angular_velocity = 0.5;
    }
    let (recording, _) = Recording::run(
        Simulation::new(scene, Config::new(1.0 / 60.0).unwrap()),
        120,
    );
    let network = Network {
        latency_ms: 80.0,
        jitter_ms: 20.0,
        loss: 0.05,
        reorder: 0.05,
        duplicate: 0.02,
        every: 1,
        seed: 3,
    };
    let log = generate(&recording, &network);
    log.check().unwrap();
    assert_eq!(log.players.len(), 12);
    let sent = 121 * 12;
    let kept = log.packets.len() as f64 / sent as f64;
    assert!((0.9..1.0).contains(&kept), "{kept}");
    assert_eq!(generate(&recording, &network), log);
    // The received order never goes back, and every packet's latency is within the model.
    for p in &log.packets {
        let late = p.received - p.sent;
        assert!(
            (60.0..=100.0 + 3.0 * 1000.0 / 60.0 + 1000.0 / 60.0).contains(&late),
            "{late}"
        );
    }
    // Round trip through the file, exactly.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.json");
    log.save(&path).unwrap();
    assert_eq!(PacketLog::load(&path).unwrap(), log);
    for swept in [false, true] {
        let settings = Settings {
            step_ms: 50.0,
            swept,
        };
        assert_eq!(run(&log, settings).standing(), one_pass(&log, settings));
    }
}

const HEADER: &str = r#"{"format": "collidoscope-packets", "version": 1,
  "players": [{"name": "p1", "kind": "circle", "radius": 0.5}, {"kind": "circle", "radius": 0.5}],
  "packets": ["#;

fn refused(packets: &str) -> String {
    let text = format!("{HEADER}{packets}]}}");
    PacketLog::parse(Path::new("bad.json"), text.as_bytes())
        .expect_err("refused")
        .to_string()
}

#[test]
fn every_bad_log_is_refused_with_the_packet_and_field_named() {
    let ok = r#"{"player": 0, "sent": 0, "received": 5, "position": [0, 0], "angle": 0}"#;
    let cases = [
        (
            r#"{"player": 2, "sent": 0, "received": 5, "position": [0, 0]}"#,
            "bad.json: packet 1: \"player\" 2 is not a player (players are 0 to 1)",
        ),
        (
            r#"{"player": 0, "sent": 0, "received": 4, "position": [0, 0]}"#,
            "bad.json: packet 1: \"received\" 4 goes backwards: the packet before it was received at 5 (packets are listed in arrival order)",
        ),
        (
            r#"{"player": 0, "sent": "soon", "received": 6, "position": [0, 0]}"#,
            "bad.json: packet 1: \"sent\" must be a number (ms), found a string \"soon\"",
        ),
        (
            r#"{"player": -1, "sent": 0, "received": 6, "position": [0, 0]}"#,
            "bad.json: packet 1: \"player\" must be a player index (a whole number from 0), found -1",
        ),
        (
            r#"{"player": 0, "sent": 0, "received": 6, "position": [0]}"#,
            "bad.json: packet 1: \"position\" must be two numbers, found 1",
        ),
        (
            r#"{"player": 0, "sent": 0, "received": 6, "position": [0, 1, 2]}"#,
            "bad.json: packet 1: \"position\" must be two numbers, found 3",
        ),
        (
            r#"{"player": 0, "sent": 0, "received": 6, "position": "here"}"#,
            "bad.json: packet 1: \"position\" must be two numbers [x, y], found a string \"here\"",
        ),
        (
            r#"{"player": 0, "sent": 0, "position": [0, 0]}"#,
            "bad.json: packet 1: missing key \"received\"",
        ),
        (
            r#"{"player": 0, "sent": 0, "received": 6, "position": [0, 0], "angle": null}"#,
            "bad.json: packet 1: \"angle\" must be a number (radians), found null",
        ),
        (
            r#"{"player": 0, "sent": 1e999, "received": 6, "position": [0, 0]}"#,
            "bad.json: line 4, column",
        ),
        (
            r#"[1, 2]"#,
            "bad.json: packet 1: expected an object, found an array [1,2]",
        ),
    ];
    for (packet, message) in cases {
        let got = refused(&format!("{ok},\n{packet}"));
        assert!(got.starts_with(message), "{got}\nexpected: {message}");
    }
    // A non-finite number made in memory is refused by the same rules.
    let mut log =
        PacketLog::parse(Path::new("ok.json"), format!("{HEADER}{ok}]}}").as_bytes()).unwrap();
    log.packets[0].position.x = f64::NAN;
    assert_eq!(
        log.check().unwrap_err().to_string(),
        "packet 0: \"position\" must be two finite numbers, found [NaN, 0]"
    );
    // Players are shapes without a pose.
    let text = r#"{"format": "collidoscope-packets", "version": 1, "players": [
        {"name": "p1", "kind": "circle", "radius": 0.5, "position": [1, 2]}], "packets": []}"#;
    let got = PacketLog::parse(Path::new("bad.json"), text.as_bytes())
        .unwrap_err()
        .to_string();
    assert_eq!(
        got,
        "bad.json: player 0 \"p1\": a player has no \"position\": its poses come from its packets"
    );
    let text = r#"{"format": "collidoscope-packets", "version": 1, "players": [
        {"name": "p1", "kind": "circle", "radius": -1}], "packets": []}"#;
    let got = PacketLog::parse(Path::new("bad.json"), text.as_bytes())
        .unwrap_err()
        .to_string();
    assert!(
        got.starts_with("bad.json: player 0 \"p1\" (circle): radius"),
        "{got}"
    );
    let got = PacketLog::parse(
        Path::new("bad.json"),
        br#"{"format": "collidoscope-shapes"}"#,
    )
    .unwrap_err()
    .to_string();
    assert!(
        got.starts_with("bad.json: missing key \"version\""),
        "{got}"
    );
}

#[test]
fn packets_json_is_one_line_per_log_in_the_documented_form() {
    let o = collidoscope(&[
        "packets",
        "--json",
        "logs/lace-three-players.json",
        "logs/late-dodge.json",
        "--step",
        "25",
        "--swept",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with(
        r#"{"file":"logs/lace-three-players.json","step":25.0,"collisions":[{"a":0,"b":2,"time":16.58578643762"#
    ), "{}", lines[0]);
    let lace: Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(
        lace["collisions"][0]["between"],
        serde_json::json!([0.0, 25.0])
    );
    assert_eq!(lace["collisions"][0]["detected_at"], 130.0);
    assert_eq!(lace["retracted"], serde_json::json!([]));
    let dodge: Value = serde_json::from_str(lines[1]).unwrap();
    assert_eq!(
        dodge["retracted"],
        serde_json::json!([{"a": 0, "b": 1, "time": 50.0, "retracted_at": 200.0}])
    );
    // Text: the counts and a line per collision and retraction.
    let o = collidoscope(&["packets", "logs/late-dodge.json", "--step", "25"]);
    let text = stdout(&o);
    assert!(
        text.contains("1 collision (0 swept), 1 retracted, 0 standing at the end"),
        "{text}"
    );
    assert!(
        text.contains("collision: post / runner at 50 ms: found at 140 ms, 90 ms late"),
        "{text}"
    );
    assert!(
        text.contains(
            "retracted post / runner at 50 ms: at 200 ms a later packet moved them apart"
        ),
        "{text}"
    );
}

#[test]
fn packets_refuses_bad_options_and_bad_logs() {
    let o = collidoscope(&["packets", "logs/late-dodge.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--step S is required"));
    let o = collidoscope(&["packets", "logs/late-dodge.json", "--step", "0"]);
    assert_eq!(o.status.code(), Some(2));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        format!(
            "{HEADER}{}]}}",
            r#"{"player": 5, "sent": 0, "received": 0, "position": [0, 0]}"#
        ),
    )
    .unwrap();
    let o = collidoscope(&["packets", "--json", bad.to_str().unwrap(), "--step", "10"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("packet 0: \"player\" 5 is not a player"),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).starts_with("{\"file\":"));
    let o = collidoscope(&[
        "packets",
        "--generate",
        "nothing.rec",
        "--loss",
        "2",
        "-o",
        "x.json",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--loss must be a chance from 0 to 1, found 2"));
}

#[test]
fn packets_generate_writes_a_log_from_a_recording() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("run.rec");
    let log = dir.path().join("game.json");
    let o = collidoscope(&[
        "simulate",
        "shapes/clockwise-obstacle-run.json",
        "--dt",
        "0.016",
        "--steps",
        "60",
        "--record",
        rec.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = collidoscope(&[
        "packets",
        "--generate",
        rec.to_str().unwrap(),
        "--latency",
        "80",
        "--jitter",
        "20",
        "--loss",
        "0.05",
        "-o",
        log.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("61 sent; latency 80 ms, jitter 20 ms, loss 0.05"),
        "{}",
        stdout(&o)
    );
    let read = PacketLog::load(&log).unwrap();
    assert_eq!(read.players.len(), 1);
    assert_eq!(read.players[0].name.as_deref(), Some("player"));
    let o = collidoscope(&["packets", log.to_str().unwrap(), "--step", "16"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// What a view of the server's knowledge needs, from the core: the players at a time (each
/// received or interpolated), the bucket to open on, every place the players are seen.
#[test]
fn the_players_at_a_time_the_opening_bucket_and_the_extent() {
    let log = load("lace-three-players.json");
    let settings = Settings {
        step_ms: 25.0,
        swept: true,
    };
    let engine = run(&log, settings);
    // The swept contact at 16.6 ms lies in the bucket from 0.
    assert_eq!(engine.opening_bucket(log.sent_range()), 0);
    // With buckets alone there is no collision: the first bucket a packet was sent in.
    let buckets = run(
        &log,
        Settings {
            step_ms: 25.0,
            swept: false,
        },
    );
    assert_eq!(buckets.opening_bucket(log.sent_range()), 0);
    // At 0 every player sent a packet; at 50 ms each is between two packets.
    let at_0 = engine.players_at(&log, 0.0);
    assert_eq!(at_0.len(), 3);
    assert!(at_0.iter().all(|p| !p.interpolated));
    let at_50 = engine.players_at(&log, 50.0);
    assert_eq!(at_50.len(), 3);
    assert!(at_50.iter().all(|p| p.interpolated), "{at_50:?}");
    // Each player at its first and last packet.
    assert_eq!(log.extent().shapes.len(), 6);
    // Before any packet the server knows no one.
    let empty = PacketEngine::for_log(&log, settings);
    assert!(empty.players_at(&log, 0.0).is_empty());
}

/// Issue 40: one packet sent at 1e300 ms made `packets --step 16` run forever (the bucket index
/// saturated, then counted on); the log is now refused, naming the packet and the field, and
/// the engine refuses such a packet fed to it directly, or one of a player it does not have,
/// instead of hanging or panicking.
#[test]
fn a_packet_far_from_time_zero_or_of_an_unknown_player_is_refused_never_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let far = dir.path().join("far.json");
    std::fs::write(
        &far,
        format!(
            "{HEADER}{}]}}",
            r#"{"player": 0, "sent": 1e300, "received": 1e300, "position": [0, 0]}"#
        ),
    )
    .unwrap();
    let o = collidoscope(&["packets", far.to_str().unwrap(), "--step", "16"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("packet 0: \"sent\" is 1e300 ms, farther from time 0 than 1e12 ms"),
        "{}",
        stderr(&o)
    );
    // The library's engine, fed from the network.
    let log = load("late-dodge.json");
    let mut engine = PacketEngine::for_log(
        &log,
        Settings {
            step_ms: 16.0,
            swept: true,
        },
    );
    let mut packet = log.packets[0];
    packet.sent = 1e300;
    let refused = engine.push(&packet).unwrap_err();
    assert!(
        refused.to_string().contains("\"sent\" is 1e300 ms"),
        "{refused}"
    );
    packet = log.packets[0];
    packet.player = 7;
    let refused = engine.push(&packet).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "\"player\" 7 is not a player (the engine has 2)"
    );
    // A step of 1e-9 ms over a second: 10^12 buckets. Where nobody is near, that costs
    // nothing (issue 41: the cost follows the players near each other, not the span) ...
    let mut tiny = PacketEngine::for_log(
        &log,
        Settings {
            step_ms: 1e-9,
            swept: true,
        },
    );
    let post = log.packets[0];
    let away = Packet {
        player: 1,
        position: DVec2::new(50.0, 0.0),
        ..post
    };
    for p in [post, away] {
        tiny.push(&p).unwrap();
    }
    let later = |p: Packet| Packet {
        sent: p.sent + 1000.0,
        received: p.received + 1000.0,
        ..p
    };
    let effect = tiny.push(&later(away)).unwrap();
    assert_eq!((effect.rows, effect.found), (0, 0));
    // ... but the post standing still under a runner for that second asks for a check at
    // every one of them: refused before any is made, saying what to change, the engine as it
    // was.
    let on_top = Packet {
        position: DVec2::ZERO,
        ..later(away)
    };
    let mut crowded = PacketEngine::for_log(&log, tiny.settings());
    for p in [
        post,
        Packet {
            position: DVec2::ZERO,
            ..away
        },
        later(post),
    ] {
        crowded.push(&p).unwrap();
    }
    let refused = crowded.push(&on_top).unwrap_err();
    assert!(
        matches!(refused, collidoscope::latency::PushError::TooManyBuckets { buckets, .. } if buckets > 999_999_000_000),
        "{refused:?}"
    );
    assert!(
        refused.to_string().contains("choose a larger step"),
        "{refused}"
    );
    assert_eq!(crowded.packets(), 3);
}

/// Issue 40: a log built in memory with a number that is not finite was written with `null`
/// in its place, a file its own reader then refused; it is refused when saved, naming the
/// packet and the field, and nothing is written.
#[test]
fn a_log_with_a_number_not_finite_is_refused_when_saved() {
    let mut log = load("late-dodge.json");
    log.packets[3].position.x = f64::NAN;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nan.json");
    let refused = log.save(&path).unwrap_err().to_string();
    assert!(
        refused.contains("packet 3") && refused.contains("position"),
        "{refused}"
    );
    assert!(!path.exists());
}

/// A player's pose at `t` from its packets alone, as docs/format.md "Packet logs" defines it
/// (the first packet of each `sent` kept; linear between the two around `t`).
fn pose_from_packets(log: &PacketLog, player: usize, t: f64) -> Option<DVec2> {
    let mut kept: Vec<&Packet> = Vec::new();
    for p in log.packets.iter().filter(|p| p.player == player) {
        if !kept.iter().any(|k| k.sent == p.sent) {
            kept.push(p);
        }
    }
    kept.sort_by(|p, q| p.sent.total_cmp(&q.sent));
    if let Some(p) = kept.iter().find(|p| p.sent == t) {
        return Some(p.position);
    }
    let after = kept.iter().position(|p| p.sent > t)?;
    let (p, q) = (kept.get(after.checked_sub(1)?)?, kept[after]);
    Some(
        p.position
            .lerp(q.position, (t - p.sent) / (q.sent - p.sent)),
    )
}

/// `plot` of a packet log (docs/format.md §18.10): on 300 random logs, every player's x and
/// y at each bucket time are its track's, every pair's exact depth is above 0 exactly at the
/// bucket times one pass finds it colliding, and the marks account for every collision and
/// retraction the engine reported.
#[test]
fn a_packet_logs_plot_follows_the_tracks_and_marks_every_finding() {
    use collidoscope::latency::plot_log;
    use collidoscope::series::{PlotRequest, Quantity, ShapeRef, Side, Subject};
    let (mut frames, mut colliding, mut marks) = (0, 0, 0);
    for seed in 0..300 {
        let log = random_log(seed);
        let step = [5.0, 10.0, 25.0][(seed % 3) as usize];
        let n = log.players.len();
        let request = PlotRequest {
            shapes: (0..n as u64).map(ShapeRef::Id).collect(),
            pairs: (0..n)
                .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
                .map(|(a, b)| (ShapeRef::Id(a as u64), ShapeRef::Id(b as u64)))
                .collect(),
            what: vec![Quantity::X, Quantity::Y, Quantity::Depth],
            frames: None,
        };
        let (plot, notes) = plot_log(&log, Path::new("random.json"), Some(step), false, &request)
            .unwrap_or_else(|e| panic!("seed {seed}: {e:?}"));
        assert!(notes.is_empty(), "{notes:?}");
        let settings = Settings {
            step_ms: step,
            swept: false,
        };
        let standing = one_pass(&log, settings);
        // Pairs' lines are exact only: a log claims no contact.
        assert!(
            plot.series
                .iter()
                .all(|s| matches!(s.side, Side::Shape | Side::Exact))
        );
        let (lo, _) = log.sent_range().unwrap();
        assert_eq!(
            plot.times[0] * 1000.0,
            (lo / step).ceil() * step,
            "seed {seed}"
        );
        for (row, &time) in plot.times.iter().enumerate() {
            let t = (time * 1000.0 / step).round() * step;
            frames += 1;
            for s in &plot.series {
                let v = s.values[row];
                match (s.subject, s.quantity) {
                    (Subject::Shape(i), q) => {
                        let want = pose_from_packets(&log, i, t)
                            .map_or(f64::NAN, |p| if q == Quantity::X { p.x } else { p.y });
                        assert!(
                            (v.is_nan() && want.is_nan()) || (v - want).abs() <= 1e-9,
                            "seed {seed}, player {i} at {t}: {v} against {want}"
                        );
                    }
                    (Subject::Pair(k), _) => {
                        let (a, b) = request.pairs[k].clone();
                        let (ShapeRef::Id(a), ShapeRef::Id(b)) = (a, b) else {
                            unreachable!()
                        };
                        let found = standing.iter().any(|f| {
                            (f.a as u64, f.b as u64) == (a, b) && f.time == t && f.between.is_none()
                        });
                        colliding += found as usize;
                        assert_eq!(
                            v > 0.0,
                            found,
                            "seed {seed}, pair {a} {b} at {t}: depth {v}"
                        );
                    }
                }
            }
        }
        // Every collision and retraction is in a mark (a run of buckets counted as many).
        let engine = run(&log, settings);
        let counted: usize = plot
            .markers
            .iter()
            .map(|m| {
                m.text
                    .split(" buckets)")
                    .next()
                    .filter(|_| m.text.contains(" buckets)"))
                    .and_then(|head| head.rsplit('(').next())
                    .map_or(1, |n| n.parse::<usize>().unwrap())
            })
            .sum::<usize>()
            + plot.markers_left_out;
        if plot.markers_left_out == 0 {
            assert_eq!(
                counted,
                engine.collisions().len() + engine.retracted().len(),
                "seed {seed}"
            );
        }
        marks += plot.markers.len();
    }
    eprintln!("300 logs: {frames} frames, {colliding} colliding pair-frames, {marks} marks");
    assert!(colliding > 300 && marks > 300, "{colliding} {marks}");
}
