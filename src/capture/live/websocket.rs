//! The WebSocket side of the window's listener (RFC 6455, server side, the little a capture
//! stream needs): a game running in a browser page cannot open a plain TCP connection, only a
//! WebSocket one, so [`crate::capture::Listener`] answers both on the same port. A connection that
//! starts with `GET ` is taken as a WebSocket opening handshake; the frames that follow carry
//! the capture's text (text or binary messages, in as many frames as the game likes), which
//! [`Frames`] gives as one byte stream, exactly as a plain connection's.

use std::io::{self, Read, Write};

/// The GUID RFC 6455 appends to the client's key.
const GUID: &str = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/// The longest opening handshake read (a browser's is well under 2 KiB).
const MOST_HANDSHAKE: usize = 16 << 10;

/// The longest frame taken: a capture's line is sent as one message, and a frame with every
/// shape of 100,000 bodies is under 32 MiB.
pub const MOST_FRAME: u64 = 64 << 20;

/// Whether the first bytes of a connection are a WebSocket opening handshake's.
pub fn is_handshake(first: &[u8]) -> bool {
    first.starts_with(b"GET ")
}

/// Read the opening handshake from `input` and answer it on `output` (`101 Switching
/// Protocols`, or `400 Bad Request` with the reason, which is then the error). Returns the
/// bytes read past the handshake (the start of the first frame, if the client sent it at
/// once).
pub fn accept(input: &mut impl Read, output: &mut impl Write) -> io::Result<Vec<u8>> {
    let mut request = Vec::new();
    let mut chunk = [0u8; 1024];
    let end = loop {
        if let Some(end) = request.windows(4).position(|w| w == b"\r\n\r\n") {
            break end;
        }
        if request.len() > MOST_HANDSHAKE {
            return refuse(output, "the WebSocket handshake is longer than 16 KiB");
        }
        let n = input.read(&mut chunk)?;
        if n == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the connection ended inside the WebSocket handshake",
            ));
        }
        request.extend_from_slice(&chunk[..n]);
    };
    let rest = request[end + 4..].to_vec();
    let head = String::from_utf8_lossy(&request[..end]).into_owned();
    let mut key = None;
    let mut upgrade = false;
    for line in head.lines().skip(1) {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
        match name.as_str() {
            "sec-websocket-key" => key = Some(value.to_string()),
            "upgrade" => upgrade = value.eq_ignore_ascii_case("websocket"),
            _ => {}
        }
    }
    if !upgrade {
        return refuse(
            output,
            "an HTTP request that asks for no WebSocket (collidoscope listens for captures: a game connects with ws://127.0.0.1:PORT, or plain TCP)",
        );
    }
    let Some(key) = key else {
        return refuse(output, "a WebSocket handshake without Sec-WebSocket-Key");
    };
    let answer = format!(
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: {}\r\n\r\n",
        accept_key(&key)
    );
    output.write_all(answer.as_bytes())?;
    output.flush()?;
    Ok(rest)
}

/// Answer `400 Bad Request` saying `why`, and give it as the error.
fn refuse(output: &mut impl Write, why: &str) -> io::Result<Vec<u8>> {
    let _ = write!(
        output,
        "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{why}",
        why.len()
    );
    let _ = output.flush();
    Err(io::Error::new(io::ErrorKind::InvalidData, why.to_string()))
}

/// `Sec-WebSocket-Accept` for a client's key: base64(SHA-1(key + GUID)).
pub fn accept_key(key: &str) -> String {
    base64(&sha1(format!("{key}{GUID}").as_bytes()))
}

/// The payload bytes of a client's frames, read as one stream: data frames (text, binary, and
/// their continuations) give their unmasked payload; a ping is answered with a pong; a close
/// frame is answered and ends the stream; anything RFC 6455 forbids a client (an unmasked
/// frame, a reserved bit or opcode, a control frame over 125 bytes, a frame over
/// [`MOST_FRAME`]) is an error that names it.
pub struct Frames<R, W> {
    input: R,
    output: W,
    /// Bytes read and not yet parsed (the start of a frame).
    pending: Vec<u8>,
    /// What is left of the data frame being given: its payload bytes still to read, and the
    /// mask with the position in it.
    left: u64,
    mask: [u8; 4],
    at: usize,
    ended: bool,
}

impl<R: Read, W: Write> Frames<R, W> {
    /// Read frames from `input` (after the handshake, `pending` being what [`accept`] read
    /// past it), answering control frames on `output`.
    pub fn new(input: R, output: W, pending: Vec<u8>) -> Self {
        Self {
            input,
            output,
            pending,
            left: 0,
            mask: [0; 4],
            at: 0,
            ended: false,
        }
    }

    /// Make sure `n` bytes are pending; false when the stream ended first.
    fn fill(&mut self, n: usize) -> io::Result<bool> {
        let mut chunk = [0u8; 4096];
        while self.pending.len() < n {
            let got = self.input.read(&mut chunk)?;
            if got == 0 {
                return Ok(false);
            }
            self.pending.extend_from_slice(&chunk[..got]);
        }
        Ok(true)
    }

    /// Read the next frame's header; control frames are handled here. Returns false at the
    /// stream's end (a close frame, or the connection ended between frames).
    fn next_header(&mut self) -> io::Result<bool> {
        loop {
            if !self.fill(2)? {
                if self.pending.is_empty() {
                    return Ok(false);
                }
                return Err(cut());
            }
            let (b0, b1) = (self.pending[0], self.pending[1]);
            let opcode = b0 & 0x0f;
            if b0 & 0x70 != 0 {
                return Err(bad(
                    "a WebSocket frame with a reserved bit set (no extension was agreed)",
                ));
            }
            if b1 & 0x80 == 0 {
                return Err(bad(
                    "an unmasked WebSocket frame (a client's frames are masked)",
                ));
            }
            let short = u64::from(b1 & 0x7f);
            let (length, start) = match short {
                126 => {
                    if !self.fill(4)? {
                        return Err(cut());
                    }
                    (
                        u64::from(u16::from_be_bytes([self.pending[2], self.pending[3]])),
                        4,
                    )
                }
                127 => {
                    if !self.fill(10)? {
                        return Err(cut());
                    }
                    let mut bytes = [0u8; 8];
                    bytes.copy_from_slice(&self.pending[2..10]);
                    (u64::from_be_bytes(bytes), 10)
                }
                n => (n, 2),
            };
            if length > MOST_FRAME {
                return Err(bad(&format!(
                    "a WebSocket frame of {length} bytes, more than the {} MiB a capture's frame may take",
                    MOST_FRAME >> 20
                )));
            }
            if !self.fill(start + 4)? {
                return Err(cut());
            }
            let mut mask = [0u8; 4];
            mask.copy_from_slice(&self.pending[start..start + 4]);
            self.pending.drain(..start + 4);
            match opcode {
                0x0..=0x2 => {
                    self.left = length;
                    self.mask = mask;
                    self.at = 0;
                    return Ok(true);
                }
                0x8..=0xa => {
                    if length > 125 {
                        return Err(bad("a WebSocket control frame over 125 bytes"));
                    }
                    let length = length as usize;
                    if !self.fill(length)? {
                        return Err(cut());
                    }
                    let mut payload: Vec<u8> = self.pending.drain(..length).collect();
                    for (i, b) in payload.iter_mut().enumerate() {
                        *b ^= mask[i % 4];
                    }
                    match opcode {
                        0x8 => {
                            // Close: answered with the client's status code, then the end.
                            let code = payload.get(..2).map(<[u8]>::to_vec).unwrap_or_default();
                            let _ = self.output.write_all(&server_frame(0x8, &code));
                            let _ = self.output.flush();
                            return Ok(false);
                        }
                        0x9 => {
                            self.output.write_all(&server_frame(0xa, &payload))?;
                            self.output.flush()?;
                        }
                        _ => {}
                    }
                }
                other => {
                    return Err(bad(&format!(
                        "a WebSocket frame with the reserved opcode {other:#x}"
                    )));
                }
            }
        }
    }
}

impl<R: Read, W: Write> Read for Frames<R, W> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() {
            return Ok(0);
        }
        while self.left == 0 {
            if self.ended || !self.next_header()? {
                self.ended = true;
                return Ok(0);
            }
        }
        if self.pending.is_empty() {
            let want = buf
                .len()
                .min(usize::try_from(self.left).unwrap_or(usize::MAX));
            let got = self.input.read(&mut buf[..want])?;
            if got == 0 {
                return Err(cut());
            }
            self.pending.extend_from_slice(&buf[..got]);
        }
        let n = buf
            .len()
            .min(self.pending.len())
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        for (i, (out, b)) in buf.iter_mut().zip(self.pending.drain(..n)).enumerate() {
            *out = b ^ self.mask[(self.at + i) % 4];
        }
        self.at = (self.at + n) % 4;
        self.left -= n as u64;
        Ok(n)
    }
}

fn bad(what: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, what.to_string())
}

fn cut() -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        "the connection ended inside a WebSocket frame",
    )
}

/// A server's frame (unmasked, final) with `opcode` and `payload` (at most 125 bytes).
fn server_frame(opcode: u8, payload: &[u8]) -> Vec<u8> {
    let mut frame = vec![0x80 | opcode, payload.len().min(125) as u8];
    frame.extend_from_slice(&payload[..payload.len().min(125)]);
    frame
}

/// SHA-1 (FIPS 180-4), which the handshake's answer needs and nothing else.
fn sha1(message: &[u8]) -> [u8; 20] {
    let mut h: [u32; 5] = [
        0x6745_2301,
        0xEFCD_AB89,
        0x98BA_DCFE,
        0x1032_5476,
        0xC3D2_E1F0,
    ];
    let mut data = message.to_vec();
    let bits = (message.len() as u64).wrapping_mul(8);
    data.push(0x80);
    while data.len() % 64 != 56 {
        data.push(0);
    }
    data.extend_from_slice(&bits.to_be_bytes());
    for block in data.chunks_exact(64) {
        let mut w = [0u32; 80];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes([word[0], word[1], word[2], word[3]]);
        }
        for i in 16..80 {
            w[i] = (w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16]).rotate_left(1);
        }
        let [mut a, mut b, mut c, mut d, mut e] = h;
        for (i, wi) in w.iter().enumerate() {
            let (f, k) = match i {
                0..=19 => ((b & c) | (!b & d), 0x5A82_7999),
                20..=39 => (b ^ c ^ d, 0x6ED9_EBA1),
                40..=59 => ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC),
                _ => (b ^ c ^ d, 0xCA62_C1D6),
            };
            let t = a
                .rotate_left(5)
                .wrapping_add(f)
                .wrapping_add(e)
                .wrapping_add(k)
                .wrapping_add(*wi);
            e = d;
            d = c;
            c = b.rotate_left(30);
            b = a;
            a = t;
        }
        for (x, y) in h.iter_mut().zip([a, b, c, d, e]) {
            *x = x.wrapping_add(y);
        }
    }
    let mut out = [0u8; 20];
    for (chunk, word) in out.chunks_exact_mut(4).zip(h) {
        chunk.copy_from_slice(&word.to_be_bytes());
    }
    out
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_handshake_answers_rfc_6455s_own_example() {
        // RFC 6455, section 1.3.
        assert_eq!(
            accept_key("dGhlIHNhbXBsZSBub25jZQ=="),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        );
        assert_eq!(
            base64(&sha1(b"abc")),
            "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=",
            "FIPS 180-4's example, a9993e36..."
        );
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
    }

    /// A client's frame, masked, as a browser sends it.
    fn client_frame(opcode: u8, fin: bool, payload: &[u8], mask: [u8; 4]) -> Vec<u8> {
        let mut frame = vec![(if fin { 0x80 } else { 0 }) | opcode];
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

    #[test]
    fn frames_of_every_length_and_a_ping_read_as_one_stream() {
        let long = "x".repeat(70_000);
        let mut wire = b"GET / HTTP/1.1\r\nHost: 127.0.0.1:9713\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".to_vec();
        wire.extend(client_frame(0x1, true, b"line one\n", [1, 2, 3, 4]));
        wire.extend(client_frame(0x9, true, b"are you there", [9, 8, 7, 6]));
        wire.extend(client_frame(0x1, false, b"line ", [5, 6, 7, 8]));
        wire.extend(client_frame(0x0, true, b"two\n", [0xff, 0, 0xaa, 1]));
        wire.extend(client_frame(
            0x2,
            true,
            format!("{long}\n").as_bytes(),
            [3, 1, 4, 1],
        ));
        wire.extend(client_frame(
            0x8,
            true,
            &1000u16.to_be_bytes(),
            [0, 0, 0, 0],
        ));
        wire.extend(client_frame(0x1, true, b"after the close\n", [1, 1, 1, 1]));
        let mut input = io::Cursor::new(wire);
        let mut answer = Vec::new();
        let rest = accept(&mut input, &mut answer).unwrap();
        let head = String::from_utf8(answer.clone()).unwrap();
        assert!(
            head.starts_with("HTTP/1.1 101 Switching Protocols\r\n"),
            "{head}"
        );
        assert!(head.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"));
        let mut replies = Vec::new();
        let mut text = String::new();
        // Read in small pieces, as a line reader may.
        let mut frames = Frames::new(&mut input, &mut replies, rest);
        let mut piece = [0u8; 7];
        loop {
            let n = frames.read(&mut piece).unwrap();
            if n == 0 {
                break;
            }
            text.push_str(std::str::from_utf8(&piece[..n]).unwrap());
        }
        assert_eq!(text, format!("line one\nline two\n{long}\n"));
        // The pong, then the close's answer.
        let mut expected = vec![0x8a, 13];
        expected.extend_from_slice(b"are you there");
        expected.extend_from_slice(&[0x88, 2, 0x03, 0xe8]);
        assert_eq!(replies, expected);
    }

    #[test]
    fn what_a_client_may_not_send_is_refused_by_name() {
        let cases: [(Vec<u8>, &str); 4] = [
            (vec![0x81, 0x03, b'a', b'b', b'c'], "unmasked"),
            (vec![0xc1, 0x80, 0, 0, 0, 0], "reserved bit"),
            (vec![0x83, 0x80, 0, 0, 0, 0], "reserved opcode 0x3"),
            (
                {
                    let mut f = vec![0x82, 0xff];
                    f.extend_from_slice(&(1u64 << 40).to_be_bytes());
                    f.extend_from_slice(&[0, 0, 0, 0]);
                    f
                },
                "more than the 64 MiB",
            ),
        ];
        for (wire, said) in cases {
            let mut out = Vec::new();
            let mut frames = Frames::new(io::Cursor::new(wire), &mut out, Vec::new());
            let e = frames.read(&mut [0u8; 16]).unwrap_err();
            assert!(e.to_string().contains(said), "{e} (expected {said:?})");
        }
        // A frame cut by the connection's end.
        let mut frames = Frames::new(
            io::Cursor::new(vec![0x81, 0x85, 0, 0, 0, 0, b'a']),
            Vec::new(),
            Vec::new(),
        );
        let mut buf = [0u8; 16];
        assert_eq!(frames.read(&mut buf).unwrap(), 1);
        assert!(
            frames
                .read(&mut buf)
                .unwrap_err()
                .to_string()
                .contains("ended inside")
        );
        // A plain HTTP request is answered 400, saying why.
        let mut answer = Vec::new();
        let e = accept(
            &mut io::Cursor::new(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n".to_vec()),
            &mut answer,
        )
        .unwrap_err();
        assert!(e.to_string().contains("asks for no WebSocket"), "{e}");
        assert!(
            String::from_utf8(answer)
                .unwrap()
                .starts_with("HTTP/1.1 400 Bad Request")
        );
    }
}
