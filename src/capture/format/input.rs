//! A capture's input as the reader reads it: gunzipped when it starts with gzip's magic
//! bytes, and for a long capture read (and unpacked) on a thread of its own, a few chunks
//! ahead of the lines being parsed and judged.

use std::io::{BufRead, BufReader, ErrorKind, Read};

/// The input, gunzipped when it starts with gzip's magic bytes; with `ahead`, read on a thread
/// of its own, so that unpacking and reading the file go on while the lines before are parsed
/// and judged.
pub(super) fn decompressed<R: Read + Send + 'static>(
    mut input: BufReader<R>,
    ahead: bool,
) -> std::io::Result<Box<dyn BufRead + Send>> {
    let head = input.fill_buf()?;
    let gzip = head.starts_with(&[0x1f, 0x8b]);
    Ok(match (gzip, ahead) {
        (true, true) => Box::new(ReadAhead::new(Box::new(
            flate2::bufread::MultiGzDecoder::new(input),
        ))),
        (false, true) => Box::new(ReadAhead::new(Box::new(input))),
        (true, false) => Box::new(BufReader::with_capacity(
            1 << 16,
            flate2::bufread::MultiGzDecoder::new(input),
        )),
        (false, false) => Box::new(input),
    })
}

/// A reader whose input is read on another thread, a few chunks ahead. The thread ends at the
/// input's end, at its first error (handed on in order) or when this side is dropped.
struct ReadAhead {
    chunks: std::sync::mpsc::Receiver<std::io::Result<Vec<u8>>>,
    /// Chunks read through, handed back to the reading thread to fill again: a fresh chunk
    /// would be zeroed and its pages faulted in for every megabyte read.
    spent: std::sync::mpsc::Sender<Vec<u8>>,
    chunk: Vec<u8>,
    at: usize,
    done: bool,
}

impl ReadAhead {
    /// Bytes a chunk holds, and chunks read ahead.
    const CHUNK: usize = 1 << 20;
    const AHEAD: usize = 4;

    fn new(mut input: Box<dyn Read + Send>) -> Self {
        let (send, chunks) = std::sync::mpsc::sync_channel(Self::AHEAD);
        let (spent, recycled) = std::sync::mpsc::channel::<Vec<u8>>();
        std::thread::Builder::new()
            .name("capture read-ahead".into())
            .spawn(move || {
                loop {
                    // A chunk read through, its bytes written over; else a new one.
                    let mut chunk = recycled.try_recv().unwrap_or_default();
                    chunk.resize(Self::CHUNK, 0);
                    let mut filled = 0;
                    // Fill the chunk (a gzip stream gives a little at a time).
                    let result = loop {
                        match input.read(&mut chunk[filled..]) {
                            Ok(0) => break Ok(()),
                            Ok(n) => {
                                filled += n;
                                if filled == chunk.len() {
                                    break Ok(());
                                }
                            }
                            Err(e) if e.kind() == ErrorKind::Interrupted => {}
                            Err(e) => break Err(e),
                        }
                    };
                    chunk.truncate(filled);
                    let end = filled < Self::CHUNK;
                    if filled > 0 && send.send(Ok(chunk)).is_err() {
                        return;
                    }
                    if let Err(e) = result {
                        let _ = send.send(Err(e));
                        return;
                    }
                    if end {
                        return;
                    }
                }
            })
            .expect("a thread to read the capture");
        Self {
            chunks,
            spent,
            chunk: Vec::new(),
            at: 0,
            done: false,
        }
    }
}

impl Read for ReadAhead {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = {
            let chunk = self.fill_buf()?;
            let n = buf.len().min(chunk.len());
            buf[..n].copy_from_slice(&chunk[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for ReadAhead {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        while self.at == self.chunk.len() {
            if self.done {
                return Ok(&[]);
            }
            match self.chunks.recv() {
                Ok(Ok(chunk)) => {
                    let spent = std::mem::replace(&mut self.chunk, chunk);
                    // The thread may have ended (the input's end): then it is dropped here.
                    if spent.capacity() > 0 {
                        let _ = self.spent.send(spent);
                    }
                    self.at = 0;
                }
                Ok(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                // The input ended.
                Err(_) => self.done = true,
            }
        }
        Ok(&self.chunk[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at = (self.at + n).min(self.chunk.len());
    }
}

/// `BufRead::read_until(b'\n')` of `input.take(limit)`: the bytes up to and including the
/// next `\n`, at most `limit` of them, appended to `buffer` (kept there when an error ends
/// the read, as `read_until` keeps them); how many. Each buffer of the input is searched by
/// `memchr`, many bytes at a time.
pub(super) fn read_until_newline(
    input: &mut dyn BufRead,
    limit: usize,
    buffer: &mut Vec<u8>,
) -> std::io::Result<usize> {
    let mut read = 0;
    while read < limit {
        let available = match input.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let available = &available[..available.len().min(limit - read)];
        if available.is_empty() {
            break;
        }
        let (used, ended) = match memchr::memchr(b'\n', available) {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        buffer.extend_from_slice(&available[..used]);
        input.consume(used);
        read += used;
        if ended {
            break;
        }
    }
    Ok(read)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    /// Lines are read as `take(limit).read_until(b'\n')` reads them, line after line, across
    /// the input's buffers: random texts of short and long lines (some `\r\n`, the last with
    /// or without its `\n`), read through buffers of 1 to 64 bytes with limits of 1 to 200.
    #[test]
    fn lines_are_read_as_read_until_reads_them() {
        let mut r = crate::scene::generate::Random::new(5);
        for _ in 0..3000 {
            let count = (r.unit() * 12.0) as usize;
            let mut text = Vec::new();
            for _ in 0..count {
                let length = (r.unit() * r.unit() * 300.0) as usize;
                text.extend((0..length).map(|_| b'a' + (r.unit() * 26.0) as u8));
                if r.unit() < 0.2 {
                    text.push(b'\r');
                }
                text.push(b'\n');
            }
            if r.unit() < 0.5 {
                text.extend_from_slice(b"last");
            }
            let capacity = 1 + (r.unit() * 64.0) as usize;
            let limit = 1 + (r.unit() * 200.0) as usize;
            let mut ours = BufReader::with_capacity(capacity, Cursor::new(text.clone()));
            let mut theirs = BufReader::with_capacity(capacity, Cursor::new(text));
            loop {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let n = read_until_newline(&mut ours, limit, &mut a).unwrap();
                let m = (&mut theirs)
                    .take(limit as u64)
                    .read_until(b'\n', &mut b)
                    .unwrap();
                assert_eq!((n, &a), (m, &b));
                if n == 0 {
                    break;
                }
            }
        }
    }

    /// An input that gives a few bytes at a time (as a gzip stream does), in pieces of
    /// every length.
    struct Trickle {
        bytes: Vec<u8>,
        at: usize,
        step: usize,
    }

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.step = self.step % 7919 + 1;
            let n = buf
                .len()
                .min(self.step * 97)
                .min(self.bytes.len() - self.at);
            buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
            self.at += n;
            Ok(n)
        }
    }

    /// Read ahead through many chunks, each handed back and filled again, the bytes come out
    /// as they went in: none left over from a chunk's last filling, none lost at a chunk's
    /// edge, the last short chunk whole.
    #[test]
    fn chunks_filled_again_give_the_input_as_it_was() {
        let mut x = 0x2545_f491_4f6c_dd1d_u64;
        let length = 5 * ReadAhead::CHUNK + 12_345;
        let bytes: Vec<u8> = (0..length)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        for piece in [1, 4096, ReadAhead::CHUNK + 1] {
            let mut ahead = ReadAhead::new(Box::new(Trickle {
                bytes: bytes.clone(),
                at: 0,
                step: 0,
            }));
            let mut out = Vec::new();
            let mut buf = vec![0; piece];
            loop {
                let n = ahead.read(&mut buf).unwrap();
                if n == 0 {
                    break;
                }
                out.extend_from_slice(&buf[..n]);
            }
            assert_eq!(out.len(), bytes.len(), "read in pieces of {piece}");
            assert!(out == bytes, "read in pieces of {piece}");
        }
    }
}
