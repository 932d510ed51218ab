//! The latency lab: logs played in arrival order, buckets, keys.

use super::common::*;

/// The latency lab: a log made from the motion run of moving players; played in arrival order
/// the server's knowledge grows (collisions appear when the packets that reveal them arrive);
/// at every packet the engine's findings are what it alone would find; the LACE example's
/// crossing is found only once p3's packet arrives; the log saved through the path field
/// reads back the same.
#[test]
fn the_latency_lab_plays_a_log_and_finds_collisions_in_the_past() {
    use collidoscope::latency::{PacketEngine, PacketLog, one_pass};
    let mut h = harness(app(Some(shapes("crossing-players.json"))));
    h.get_by_label("Latency lab").click();
    h.run_steps(4);
    settle(&mut h);
    let lab = h.state().latency_lab();
    let log = lab.log().expect("a log made from the run").clone();
    assert_eq!(log.players.len(), 4);
    assert_eq!(lab.arrived(), log.packets.len());
    let settings = lab.settings();
    let engine = lab.engine().unwrap();
    assert_eq!(engine.standing(), one_pass(&log, settings));
    assert!(
        engine.collisions().len() >= 10,
        "{}",
        engine.collisions().len()
    );
    // The scene shows the bucket of the first collision, with the collision marked.
    let first = engine.collisions()[0].clone();
    assert_eq!(lab.bucket_time(), first.time);
    let rect = h.state().view_rect();
    let labels = h.state_mut().frame_work(rect).labels;
    assert!(
        labels.iter().any(|l| l.text.contains(" ms: found at ")),
        "{:?}",
        labels.iter().map(|l| &l.text).collect::<Vec<_>>()
    );
    // Back to before that collision's packet: not known yet; one more packet: found.
    seek(&mut h, TimelineId::Latency, first.packet as u64);
    assert!(
        h.state()
            .latency_lab()
            .engine()
            .unwrap()
            .collisions()
            .is_empty()
    );
    h.get_by_label(">").click();
    h.run_steps(2);
    settle(&mut h);
    let engine = h.state().latency_lab().engine().unwrap();
    assert_eq!(engine.collisions().first(), Some(&first));
    // Play: packets arrive by themselves.
    h.get_by_label("|<").click();
    h.run_steps(2);
    assert_eq!(h.state().latency_lab().arrived(), 0);
    h.get_by_label("Play").click();
    h.run_steps(30);
    let arrived = h.state().latency_lab().arrived();
    assert!(arrived > 0 && arrived < log.packets.len(), "{arrived}");
    h.get_by_label("Pause").click();
    h.run_steps(2);
    settle(&mut h);
    // A partial engine equals a fresh one fed the same packets.
    let partial = h.state().latency_lab().engine().unwrap();
    let mut fresh = PacketEngine::for_log(&log, settings);
    for p in &log.packets[..partial.packets()] {
        fresh.push(p).unwrap();
    }
    assert_eq!(partial.collisions(), fresh.collisions());
    // Save the log and read it back.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.json");
    type_into_field(&mut h, "Log:", path.to_str().unwrap());
    h.get_by_label("Save log").click();
    h.run_steps(2);
    assert_eq!(PacketLog::load(&path).unwrap(), log);
    // The LACE example: p1 and p3 cross between the buckets at 0 and 25; known once p3's
    // packet sent at 100 arrives (the sixth), not before.
    h.get_by_label("LACE example").click();
    h.run_steps(2);
    assert_eq!(h.state().latency_lab().log().unwrap().players.len(), 3);
    seek(&mut h, TimelineId::Latency, 5);
    assert!(
        h.state()
            .latency_lab()
            .engine()
            .unwrap()
            .collisions()
            .is_empty()
    );
    seek(&mut h, TimelineId::Latency, 6);
    let found = h
        .state()
        .latency_lab()
        .engine()
        .unwrap()
        .collisions()
        .to_vec();
    assert_eq!(found.len(), 1);
    assert_eq!(
        (found[0].a, found[0].b, found[0].detected_at),
        (0, 2, 130.0)
    );
}

/// The latency lab's keys and buttons push the same commands, applied in one place: the
/// bucket stays within the log however often Up or Down is pressed (the key used to step it
/// unclamped), and stepping past the last packet stays at the last.
#[test]
fn the_latency_keys_step_within_the_log() {
    use collidoscope::app::Lab;
    let mut h = harness(app(None));
    h.state_mut().set_lab(Lab::Latency);
    h.run_steps(2);
    h.get_by_label("LACE example").click();
    h.run_steps(2);
    let (lo, hi) = h.state().latency_lab().bucket_range().unwrap();
    for _ in 0..(hi - lo + 5) {
        h.key_press(Key::ArrowUp);
    }
    h.run_steps(1);
    assert_eq!(h.state().latency_lab().bucket(), lo);
    for _ in 0..(hi - lo + 5) {
        h.key_press(Key::ArrowDown);
    }
    h.run_steps(1);
    assert_eq!(h.state().latency_lab().bucket(), hi);
    let total = h.state().latency_lab().log().unwrap().packets.len();
    h.key_press(Key::ArrowRight);
    h.run_steps(1);
    assert_eq!(h.state().latency_lab().arrived(), total);
    h.key_press(Key::ArrowLeft);
    h.run_steps(1);
    assert_eq!(h.state().latency_lab().arrived(), total - 1);
    h.get_by_label("|<").click();
    h.run_steps(1);
    assert_eq!(h.state().latency_lab().arrived(), 0);
    // Space plays from there: packets arrive by themselves.
    h.key_press(Key::Space);
    h.run_steps(60);
    assert!(h.state().latency_lab().arrived() > 0);
}

/// Issue 41: a log whose clocks are 50 days apart (one packet's `sent` 2^32 ms) opens in the
/// lab with its engine done at once and small (it used to fill memory), finding what the
/// engine finds alone; and the engine's work runs on its own thread: while a step of 1 us
/// keeps it busy the window draws on, shows how far it got, and Cancel goes back to the
/// engine shown before, its settings and all.
#[test]
fn a_log_fifty_days_long_opens_and_long_engine_work_can_be_cancelled() {
    use collidoscope::app::{Command, LatencyCommand};
    use collidoscope::latency::{PacketEngine, PacketLog};
    let mut h = harness(app(Some(shapes("crossing-players.json"))));
    h.get_by_label("Latency lab").click();
    h.run_steps(4);
    settle(&mut h);
    let mut log = h.state().latency_lab().log().unwrap().clone();
    let middle = log.packets.len() / 2;
    log.packets[middle].sent = 4_294_967_296.0;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fifty-days.json");
    log.save(&path).unwrap();
    type_into_field(&mut h, "Log:", path.to_str().unwrap());
    h.get_by_label("Open log").click();
    h.run_steps(2);
    settle(&mut h);
    let lab = h.state().latency_lab();
    let settings = lab.settings();
    let engine = lab.engine().unwrap();
    assert_eq!(engine.packets(), log.packets.len());
    let mut alone = PacketEngine::for_log(&PacketLog::load(&path).unwrap(), settings);
    for p in &log.packets {
        alone.push(p).unwrap();
    }
    assert_eq!(engine.collisions(), alone.collisions());
    assert!(!engine.collisions().is_empty());

    // A step of 1 us: a second's work or more here; the window does not wait for it.
    let tiny = collidoscope::latency::Settings {
        step_ms: 0.001,
        swept: true,
    };
    h.state_mut()
        .run(Command::Latency(LatencyCommand::Settings(tiny)));
    h.run_steps(1);
    let (done, upto) = h.state().latency_lab().working().expect("busy");
    assert!(done <= upto && upto == log.packets.len());
    assert_eq!(
        h.state().latency_lab().engine().unwrap().settings(),
        settings
    );
    h.get_by_label("Cancel").click();
    h.run_steps(1);
    settle(&mut h);
    let lab = h.state().latency_lab();
    assert_eq!(lab.settings(), settings, "back to the settings shown");
    assert_eq!(lab.engine().unwrap().collisions(), alone.collisions());
    assert!(lab.working().is_none());

    // The step passing through 1 us on its way to 20 us (as typing "0.02" does): the work
    // for 1 us is stopped and never shown; what is shown at the end is 20 us, all of it. Then
    // 1 us again and Cancel: back to 20 us, the field, the engine and its counts agreeing.
    let at = |step_ms| collidoscope::latency::Settings { step_ms, ..tiny };
    for step in [0.001, 0.02] {
        h.state_mut()
            .run(Command::Latency(LatencyCommand::Settings(at(step))));
        h.run_steps(1);
    }
    for _ in 0..100_000 {
        let lab = h.state().latency_lab();
        if lab.working().is_none() && lab.shown_settings() == at(0.02) {
            break;
        }
        assert_ne!(
            lab.shown_settings(),
            at(0.001),
            "the step passed through is never shown"
        );
        h.run_steps(1);
    }
    settle(&mut h);
    let lab = h.state().latency_lab();
    let engine = lab.engine().unwrap();
    assert_eq!(
        (engine.settings(), engine.packets()),
        (at(0.02), log.packets.len())
    );
    let (shown, collisions) = (lab.shown_settings(), engine.collisions().len());
    h.state_mut()
        .run(Command::Latency(LatencyCommand::Settings(at(0.001))));
    h.run_steps(1);
    assert!(h.state().latency_lab().working().is_some());
    h.get_by_label("Cancel").click();
    h.run_steps(1);
    settle(&mut h);
    let lab = h.state().latency_lab();
    assert_eq!((lab.settings(), lab.shown_settings()), (shown, shown));
    assert_eq!(lab.engine().unwrap().collisions().len(), collisions);
}
