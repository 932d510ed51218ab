//! A capture streamed to a window over the loopback socket (`ToWindow` on the game's side,
//! `Listener` on the window's): what the window receives is the capture a file gets, frame for
//! frame; with no window the game goes on and its frames are counted as dropped; a window that
//! falls behind misses frames and catches up exactly (the frame after a gap carries every
//! shape in full and the ids removed meanwhile); a line the reader refuses ends that
//! connection with its message, the frames before it kept; one game at a time; and a flight
//! recorder given as a writer's output keeps the last seconds of what the writer writes.

use collidoscope::capture::live::receive;
use collidoscope::capture::{
    BodyShape, CaptureReader, CaptureWriter, Engine, FlightRecorder, Header, LinkEvent, Listener,
    Manifold, ManifoldPoint, NormalFrom, Penetration, ToWindow,
};
use collidoscope::geometry::{Circle, ConvexPolygon, DVec2, Placed};
use collidoscope::scene::Body;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::time::{Duration, Instant};

fn header() -> Header {
    Header::f32_metres(Engine::new("test-engine", "1.0"))
}

fn writer<W: Write>(out: W) -> CaptureWriter<W> {
    CaptureWriter::new(
        out,
        &header(),
        NormalFrom::AToB,
        Penetration::NegativeSeparation,
    )
    .unwrap()
}

/// Frame `k` of a world of a floor and `n` falling balls; the even balls are removed at
/// frame 150 and a new ball (id 1000) appears at frame 160; the first ball touches the floor
/// (a claim) from frame 100.
fn world(k: u64, n: u64) -> (Vec<BodyShape>, Vec<Manifold>) {
    let floor = BodyShape::new(
        1,
        ConvexPolygon::rectangle(DVec2::new(50.0, 0.5)).unwrap(),
        DVec2::new(0.0, -0.5),
        DVec2::X,
    )
    .named("floor");
    let mut shapes = vec![floor];
    for i in 0..n {
        let id = 2 + i;
        if k >= 150 && id % 2 == 0 && id != 2 {
            continue;
        }
        let y = (5.0 - 0.05 * k as f64).max(0.2 + i as f64 * 1e-3);
        let ball = BodyShape::new(
            id,
            Circle::new(0.2).unwrap(),
            DVec2::new(i as f64 * 0.5 - 20.0, y),
            DVec2::from_angle(k as f64 * 0.01 + i as f64),
        )
        .moving(Body::Dynamic, DVec2::new(0.0, -3.0), 0.5, true);
        shapes.push(ball);
    }
    if k >= 160 {
        shapes.push(
            BodyShape::new(
                1000,
                Circle::new(0.3).unwrap(),
                DVec2::new(30.0, 2.0),
                DVec2::X,
            )
            .moving(Body::Dynamic, DVec2::ZERO, 0.0, true),
        );
    }
    let contacts = if k >= 100 {
        vec![Manifold {
            a: 1,
            b: 2,
            normal: DVec2::Y,
            points: vec![ManifoldPoint {
                point: DVec2::new(-20.0, 0.0),
                separation: 0.0,
                impulse: None,
            }]
            .into(),
            piece: None,
        }]
    } else {
        Vec::new()
    };
    (shapes, contacts)
}

/// Every frame of a capture: its number and its shapes (id, name, placed), in id order.
type Frames = Vec<(u64, Vec<(u64, Option<std::sync::Arc<str>>, Placed)>)>;

fn frames_of(name: &str, text: Vec<u8>) -> Frames {
    let mut reader = CaptureReader::new(Path::new(name), std::io::Cursor::new(text)).unwrap();
    let mut frames = Vec::new();
    while let Some(frame) = reader.next_frame().unwrap() {
        let mut shapes: Vec<_> = reader
            .shapes()
            .map(|s| (s.id, s.name.clone(), s.placed.clone()))
            .collect();
        shapes.sort_by_key(|s| s.0);
        frames.push((frame.frame, shapes));
    }
    frames
}

fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "waited 20 s for {what}"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The listener's events until the connection ends.
fn until_ended(listener: &Listener) -> Vec<LinkEvent> {
    let mut seen = Vec::new();
    wait_until("the connection to end", || {
        seen.extend(listener.events());
        seen.iter().any(|e| matches!(e, LinkEvent::Ended { .. }))
    });
    seen
}

#[test]
fn a_stream_to_a_listening_window_is_the_capture_a_file_gets() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::bind(0, dir.path()).unwrap();
    let to_window = ToWindow::connect(listener.port());
    let link = to_window.watch();
    let mut stream = writer(to_window);
    let mut file = writer(Vec::new());
    wait_until("the link", || link.stats().connected);
    for k in 0..240 {
        let (shapes, contacts) = world(k, 40);
        stream.frame(k as f64 / 60.0, &shapes, &contacts).unwrap();
        file.frame(k as f64 / 60.0, &shapes, &contacts).unwrap();
        // Each frame sent before the next is made, as a game at 60 steps a second gives the
        // link time to: on a loaded machine a burst of 240 let the window fall behind, and the
        // game began another capture (what the falling-behind test is for).
        wait_until("the frame sent", || link.stats().sent > k);
    }
    drop(stream);
    let seen = until_ended(&listener);
    let Some(LinkEvent::Connected {
        capture,
        engine,
        part: 1,
    }) = seen.first().cloned()
    else {
        panic!("{seen:?}");
    };
    assert_eq!(engine, "test-engine 1.0");
    assert!(
        seen.contains(&LinkEvent::Ended {
            capture: capture.clone(),
            frames: 240,
            problem: None
        }),
        "{seen:?}"
    );
    let stats = link.stats();
    assert_eq!((stats.sent, stats.dropped), (240, 0), "{stats:?}");
    let received = frames_of("received", std::fs::read(&capture).unwrap());
    let written = frames_of("file", file.finish().unwrap());
    assert_eq!(received.len(), 240);
    assert!(
        received == written,
        "the received frames differ from the file's"
    );
}

/// A port nothing listens on: bound, then let go.
fn unused_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn with_no_window_the_game_goes_on_and_its_frames_are_dropped_and_counted() {
    let port = unused_port();
    let to_window = ToWindow::connect(port);
    let link = to_window.watch();
    let mut stream = writer(to_window);
    let start = Instant::now();
    for k in 0..300 {
        let (shapes, contacts) = world(k, 20);
        stream.frame(k as f64 / 60.0, &shapes, &contacts).unwrap();
    }
    // Never waiting on a socket: 300 frames of 21 shapes take milliseconds (generous bound
    // for a loaded machine; what matters is that no frame waits for a connection).
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    let stats = link.stats();
    assert_eq!((stats.sent, stats.dropped), (0, 300), "{stats:?}");
    assert!(!stats.connected);
    wait_until("the problem to be said", || link.stats().problem.is_some());
    let problem = link.stats().problem.unwrap();
    assert!(problem.contains(&format!("127.0.0.1:{port}")), "{problem}");
}

/// A window that starts late gets the header and a first frame with every shape in full, and
/// from there the same frames a file gets.
#[test]
fn a_window_started_late_gets_every_shape_in_full_then_the_same_frames() {
    let dir = tempfile::tempdir().unwrap();
    let port = unused_port();
    let to_window = ToWindow::connect(port);
    let link = to_window.watch();
    let mut stream = writer(to_window);
    let mut file = writer(Vec::new());
    let mut listener = None;
    for k in 0..240 {
        if k == 170 {
            listener = Some(Listener::bind(port, dir.path()).unwrap());
            wait_until("the link", || link.stats().connected);
        }
        let (shapes, contacts) = world(k, 40);
        stream.frame(k as f64 / 60.0, &shapes, &contacts).unwrap();
        file.frame(k as f64 / 60.0, &shapes, &contacts).unwrap();
    }
    drop(stream);
    let listener = listener.unwrap();
    let seen = until_ended(&listener);
    let Some(LinkEvent::Ended {
        capture, frames, ..
    }) = seen.last().cloned()
    else {
        panic!("{seen:?}");
    };
    assert_eq!(frames, 70, "{seen:?}");
    assert_eq!(link.stats().dropped, 170);
    let received = frames_of("received", std::fs::read(&capture).unwrap());
    let written = frames_of("file", file.finish().unwrap());
    assert_eq!(received[0].0, 170);
    assert!(
        received[..] == written[170..],
        "the received frames differ from the file's from frame 170"
    );
}

/// A window that stops reading for a while: the game never waits; frames past the queue are
/// dropped, and after the gap the game begins another capture on the same connection (a
/// capture holds every step), its first frame with every shape in full, so every frame the
/// window holds is the game's, the last one included.
#[test]
fn a_window_that_falls_behind_misses_frames_and_the_game_begins_another_capture_exactly() {
    let socket = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = socket.local_addr().unwrap().port();
    let to_window = ToWindow::connect(port);
    let link = to_window.watch();
    let mut stream = writer(to_window);
    let mut file = writer(Vec::new());
    let (connection, _) = socket.accept().unwrap();
    wait_until("the link", || link.stats().connected);
    // 400 shapes a frame (about 60 kB): the socket's buffers and the queue fill while the
    // window does not read; the even balls go at frame 150, a new one comes at 160.
    // Until frames are dropped (the socket's buffers hold several megabytes), and 20 more.
    let mut k = 0;
    let mut first_dropped = None;
    while first_dropped.is_none_or(|f| k < f + 20) {
        assert!(k < 5_000, "no frame dropped in 5,000: {:?}", link.stats());
        let (shapes, contacts) = world(k, 400);
        stream.frame(k as f64 / 60.0, &shapes, &contacts).unwrap();
        file.frame(k as f64 / 60.0, &shapes, &contacts).unwrap();
        if first_dropped.is_none() && link.stats().dropped > 0 {
            first_dropped = Some(k);
        }
        k += 1;
    }
    // The window reads again: what is queued comes, then one more frame after the gap.
    let reading = std::thread::spawn(move || {
        let parts = Parts::default();
        let (frames, result) = receive(
            Path::new("window"),
            connection,
            |_, _| Ok(parts.begin()),
            |_, _| {},
        );
        result.unwrap();
        (frames, parts.taken())
    });
    // The game goes on at 50 steps a second while the window catches up.
    let end = k + 100;
    for k in k..end {
        std::thread::sleep(Duration::from_millis(20));
        let (shapes, contacts) = world(k, 400);
        stream.frame(k as f64 / 60.0, &shapes, &contacts).unwrap();
        file.frame(k as f64 / 60.0, &shapes, &contacts).unwrap();
    }
    drop(stream);
    let (frames, parts) = reading.join().unwrap();
    let stats = link.stats();
    assert_eq!(frames, stats.sent, "{stats:?}");
    assert_eq!(stats.sent + stats.dropped, end, "{stats:?}");
    // A capture holds every step: after each gap the game began another on the same
    // connection, its first frame with every shape in full.
    assert!(parts.len() >= 2, "{} parts", parts.len());
    let written = frames_of("file", file.finish().unwrap());
    let mut last = None;
    for (k, part) in parts.into_iter().enumerate() {
        let received = frames_of(&format!("part {}", k + 1), part);
        // Every frame the window got is the game's frame of that number.
        for (number, shapes) in &received {
            assert!(
                *shapes == written[*number as usize].1,
                "part {}: frame {number} differs",
                k + 1
            );
        }
        last = received.last().map(|f| f.0).or(last);
    }
    assert_eq!(
        last,
        Some(end - 1),
        "the window's last frame is not the game's last"
    );
}

/// The captures a stream holds, each kept in memory.
#[derive(Clone, Default)]
struct Parts(std::sync::Arc<std::sync::Mutex<Vec<Vec<u8>>>>);

impl Parts {
    fn begin(&self) -> Part {
        let mut parts = self.0.lock().unwrap();
        parts.push(Vec::new());
        Part(self.clone(), parts.len() - 1)
    }

    fn taken(&self) -> Vec<Vec<u8>> {
        std::mem::take(&mut self.0.lock().unwrap())
    }
}

struct Part(Parts, usize);

impl Write for Part {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.0.lock().unwrap()[self.1].extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Lines sent over a raw connection to a listening window.
fn send_raw(port: u16, lines: &[&str]) -> TcpStream {
    let mut connection = TcpStream::connect(("127.0.0.1", port)).unwrap();
    for line in lines {
        connection.write_all(line.as_bytes()).unwrap();
        connection.write_all(b"\n").unwrap();
    }
    connection
}

const HEADER: &str = r#"{"format":"collidoscope-capture","version":1,"engine":{"name":"raw","version":"0"},"precision":"f32","units":"m","y_up":true}"#;

#[test]
fn a_refused_line_ends_the_connection_with_its_message_and_keeps_the_frames_before() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::bind(0, dir.path()).unwrap();
    let lines = [
        HEADER,
        r#"{"frame":0,"time":0,"shapes":[{"id":1,"kind":"circle","radius":1,"position":[0,0]}],"claims":[]}"#,
        r#"{"frame":1,"time":0.1,"shapes":[{"id":1,"position":[0.5,0]}],"claims":[]}"#,
        r#"{"frame":2,"time":0.2,"shapes":[{"id":1,"position":[1,0]}],"claims":[]}"#,
        r#"{"frame":3,"time":0.3,"shapes":[{"id":1,"radius":-2}],"claims":[]}"#,
        r#"{"frame":4,"time":0.4,"shapes":[],"claims":[]}"#,
    ];
    let mut connection = send_raw(listener.port(), &lines);
    let seen = until_ended(&listener);
    let Some(LinkEvent::Ended {
        capture,
        frames,
        problem: Some(problem),
    }) = seen.last().cloned()
    else {
        panic!("{seen:?}");
    };
    assert_eq!(frames, 3);
    assert!(problem.contains("line 5"), "{problem}");
    assert!(problem.contains("radius"), "{problem}");
    // The window closed the connection.
    let mut rest = Vec::new();
    connection
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    assert_eq!(connection.read_to_end(&mut rest).unwrap_or(0), 0);
    let kept = frames_of("received", std::fs::read(capture).unwrap());
    assert_eq!(kept.len(), 3);
    assert_eq!(kept[2].1[0].2.pose.position, DVec2::new(1.0, 0.0));
}

#[test]
fn one_game_at_a_time_a_second_is_turned_away() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::bind(0, dir.path()).unwrap();
    let first = send_raw(listener.port(), &[HEADER]);
    let mut seen = Vec::new();
    wait_until("the first game", || {
        seen.extend(listener.events());
        seen.iter()
            .any(|e| matches!(e, LinkEvent::Connected { .. }))
    });
    let _second = send_raw(listener.port(), &[HEADER]);
    wait_until("the second to be turned away", || {
        seen.extend(listener.events());
        seen.contains(&LinkEvent::TurnedAway)
    });
    drop(first);
    let seen = until_ended(&listener);
    assert!(
        seen.iter().any(|e| matches!(
            e,
            LinkEvent::Ended {
                frames: 0,
                problem: None,
                ..
            }
        )),
        "{seen:?}"
    );
}

/// The listener binds the loopback address only.
#[test]
fn the_listener_binds_127_0_0_1_only() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::bind(0, dir.path()).unwrap();
    assert!(TcpStream::connect(("127.0.0.1", listener.port())).is_ok());
    // Every other address of this machine is refused (where it has one).
    if let Ok(addresses) = std::net::UdpSocket::bind("0.0.0.0:0")
        .and_then(|s| s.connect("10.255.255.255:9").map(|()| s))
        .and_then(|s| s.local_addr())
    {
        let ip = addresses.ip();
        if !ip.is_loopback() && !ip.is_unspecified() {
            assert!(
                TcpStream::connect_timeout(
                    &std::net::SocketAddr::new(ip, listener.port()),
                    Duration::from_secs(2)
                )
                .is_err(),
                "reached on {ip}"
            );
        }
    }
}

/// A flight recorder as a writer's output (as an engine adapter takes one): the last two
/// seconds of what the writer writes, a capture on its own.
#[test]
fn a_flight_recorder_keeps_the_last_seconds_of_a_writer_it_is_given_to() {
    let recorder = FlightRecorder::keeping(2.0);
    let mut capture = writer(recorder.output());
    let mut file = writer(Vec::new());
    for k in 0..600 {
        let (shapes, contacts) = world(k, 10);
        capture.frame(k as f64 / 60.0, &shapes, &contacts).unwrap();
        file.frame(k as f64 / 60.0, &shapes, &contacts).unwrap();
    }
    assert_eq!(recorder.kept_frames(), Some((479, 599)));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("last.capture.jsonl.gz");
    recorder.save(&path).unwrap();
    let kept = frames_of("kept", {
        let mut text = Vec::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap())
            .read_to_end(&mut text)
            .unwrap();
        text
    });
    let written = frames_of("file", file.finish().unwrap());
    assert_eq!(kept.len(), 121);
    assert!(kept[..] == written[479..], "the kept frames differ");
}

/// A connection that sends nothing cannot hold the window from a game: it is closed after
/// five seconds, said, and the game that connects next is taken.
#[test]
fn a_silent_connection_is_closed_so_that_a_game_can_connect() {
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::bind(0, dir.path()).unwrap();
    let _silent = TcpStream::connect(("127.0.0.1", listener.port())).unwrap();
    let seen = until_ended(&listener);
    let Some(LinkEvent::Ended {
        frames: 0,
        problem: Some(problem),
        ..
    }) = seen.last()
    else {
        panic!("{seen:?}");
    };
    assert!(problem.contains("sent nothing for 5 s"), "{problem}");
    let _game = send_raw(listener.port(), &[HEADER]);
    let mut seen = Vec::new();
    wait_until("the game", || {
        seen.extend(listener.events());
        seen.iter()
            .any(|e| matches!(e, LinkEvent::Connected { .. }))
    });
}

/// A client's masked frame, as a browser sends it.
fn ws_frame(opcode: u8, payload: &[u8], mask: [u8; 4]) -> Vec<u8> {
    let mut frame = vec![0x80 | opcode];
    match payload.len() {
        n if n < 126 => frame.push(0x80 | n as u8),
        n if n < 65536 => {
            frame.push(0x80 | 126);
            frame.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            frame.push(0x80 | 127);
            frame.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    frame.extend_from_slice(&mask);
    frame.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    frame
}

/// A game in a browser page can speak only WebSocket: the listener answers its handshake on
/// the same port and reads the capture out of its frames, one message a line (or a line cut
/// across messages), to the same capture a file gets.
#[test]
fn a_websocket_stream_from_a_browser_page_is_the_capture_a_file_gets() {
    use std::io::Read;
    let dir = tempfile::tempdir().unwrap();
    let listener = Listener::bind(0, dir.path()).unwrap();
    let mut file = writer(Vec::new());
    for k in 0..60 {
        let (shapes, contacts) = world(k, 12);
        file.frame(k as f64 / 60.0, &shapes, &contacts).unwrap();
    }
    let text = file.finish().unwrap();
    let mut socket = TcpStream::connect(("127.0.0.1", listener.port())).unwrap();
    socket
        .write_all(
            b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
              Origin: http://127.0.0.1:8000\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
              Sec-WebSocket-Version: 13\r\n\r\n",
        )
        .unwrap();
    let mut answer = [0u8; 512];
    let n = socket.read(&mut answer).unwrap();
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 101 "), "{answer}");
    assert!(answer.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="));
    for (i, line) in text.split_inclusive(|b| *b == b'\n').enumerate() {
        if i % 7 == 3 {
            // A line cut across two messages, a ping between them.
            let (a, b) = line.split_at(line.len() / 2);
            socket.write_all(&ws_frame(0x1, a, [1, 2, 3, 4])).unwrap();
            socket
                .write_all(&ws_frame(0x9, b"ping", [7, 7, 7, 7]))
                .unwrap();
            socket.write_all(&ws_frame(0x1, b, [4, 3, 2, 1])).unwrap();
        } else {
            socket
                .write_all(&ws_frame(0x1, line, [9, 8, 7, i as u8]))
                .unwrap();
        }
    }
    socket
        .write_all(&ws_frame(0x8, &1000u16.to_be_bytes(), [0, 0, 0, 0]))
        .unwrap();
    let seen = until_ended(&listener);
    let Some(LinkEvent::Connected { capture, .. }) = seen.first().cloned() else {
        panic!("{seen:?}");
    };
    assert!(
        seen.contains(&LinkEvent::Ended {
            capture: capture.clone(),
            frames: 60,
            problem: None
        }),
        "{seen:?}"
    );
    let received = frames_of("received", std::fs::read(&capture).unwrap());
    assert!(received == frames_of("file", text), "the same frames");
    // A plain HTTP request (a browser pointed at the port) is answered, and ends with a reason.
    let mut page = TcpStream::connect(("127.0.0.1", listener.port())).unwrap();
    page.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .unwrap();
    let mut said = String::new();
    let _ = page.read_to_string(&mut said);
    assert!(said.starts_with("HTTP/1.1 400 Bad Request"), "{said}");
    let seen = until_ended(&listener);
    assert!(
        seen.iter().any(|e| matches!(e, LinkEvent::Ended { problem: Some(p), .. } if p.contains("asks for no WebSocket"))),
        "{seen:?}"
    );
}
