//! Fuzz the listener's WebSocket side (`capture::websocket`), what reads a game in a browser
//! page: any bytes after a connection's first `GET ` are a handshake answered `101` or refused
//! `400` with a reason, then frames that give the capture's text or one error naming what a
//! client may not send, never a panic, never more text than bytes came; the text given is then
//! read by the window's stream reader (`live::receive`) as a plain connection's.
//!
//! The first byte chooses whether the input follows a valid handshake (to reach the frames at
//! once) or is the whole connection.

#![no_main]

use collidoscope::capture::live::receive;
use collidoscope::capture::websocket::{Frames, accept};
use libfuzzer_sys::fuzz_target;
use std::io::{Cursor, Read};
use std::path::Path;

const HANDSHAKE: &[u8] = b"GET / HTTP/1.1\r\nHost: 127.0.0.1:9713\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n";

fuzz_target!(|data: &[u8]| {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let mut wire = Vec::new();
    if choice % 2 == 0 {
        wire.extend_from_slice(HANDSHAKE);
    }
    wire.extend_from_slice(rest);
    let total = wire.len();
    let mut input = Cursor::new(wire);
    let mut answer = Vec::new();
    let pending = match accept(&mut input, &mut answer) {
        Ok(pending) => pending,
        Err(e) => {
            assert!(
                answer.is_empty() || answer.starts_with(b"HTTP/1.1 400 Bad Request"),
                "{e}"
            );
            return;
        }
    };
    assert!(answer.starts_with(b"HTTP/1.1 101 Switching Protocols\r\n"));
    let mut replies = Vec::new();
    let mut frames = Frames::new(input, &mut replies, pending);
    let mut text = Vec::new();
    let mut chunk = [0u8; 61];
    loop {
        match frames.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => text.extend_from_slice(&chunk[..n]),
            Err(e) => {
                assert!(!e.to_string().is_empty());
                break;
            }
        }
    }
    assert!(text.len() <= total);
    // What the frames gave is read as a plain connection's text.
    let (_, _) = receive(
        Path::new("the game's WebSocket stream"),
        Cursor::new(text),
        |_, _| Ok(std::io::sink()),
        |_, _| {},
    );
});
