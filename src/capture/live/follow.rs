//! A capture read while the game still writes it: the file is read as it grows, waiting at
//! its end for the next frame instead of ending there. The writer flushes every frame (a gzip
//! sync point when compressed), so each frame becomes readable as soon as it is written.

use std::fs::{File, Metadata};
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

/// How often a followed file is looked at again once its end is reached.
pub const POLL: Duration = Duration::from_millis(10);

/// How many of the first bytes read, and of the last, are looked at again in the file each
/// time more is read: a capture's header line, and the end of the last line read. A file
/// written again from its start that has grown past what was read differs there (its header,
/// or the frame whose line ends at that byte), unless it is the same bytes, in which case
/// reading on is reading the new run.
const HEAD: usize = 512;
const TAIL: usize = 128;

/// Why a followed file stopped being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FollowEnd {
    /// Asked to stop (an interrupt).
    Stopped,
    /// It did not grow for the idle time.
    Idle,
    /// It was written again from its start (a game run again to the same file): shorter than
    /// what was read, or different in what was read.
    Rewritten,
    /// Another file is at its path (the one read was renamed or removed, and a new one made).
    Replaced,
}

impl FollowEnd {
    /// Whether the capture began again: the file at the path now holds a new run.
    pub fn began_again(self) -> bool {
        matches!(self, Self::Rewritten | Self::Replaced)
    }
}

/// A file read as it grows: at its end, [`Read::read`] waits (looking again every [`POLL`])
/// until more is written, until `stop` is set, or until `idle` passes without growth; only
/// then does it end (read gives 0). It also ends, before giving a byte of the new run, when the
/// capture began again: the file written again from its start (shorter than what was read, or
/// its first or last bytes read no longer there), or another file at its path.
pub struct Growing {
    file: File,
    path: PathBuf,
    idle: Option<Duration>,
    stop: Arc<AtomicBool>,
    grew: Instant,
    ended: Arc<OnceLock<FollowEnd>>,
    done: Arc<AtomicBool>,
    /// Bytes given so far.
    read: u64,
    /// The first [`HEAD`] bytes given, and the last [`TAIL`].
    head: Vec<u8>,
    tail: Vec<u8>,
}

impl Growing {
    /// Follow the file at `path` from its start.
    pub fn open(path: &Path, idle: Option<Duration>, stop: Arc<AtomicBool>) -> io::Result<Self> {
        Ok(Self {
            file: File::open(path)?,
            path: path.to_path_buf(),
            idle,
            stop,
            grew: Instant::now(),
            ended: Arc::default(),
            done: Arc::new(AtomicBool::new(false)),
            read: 0,
            head: Vec::new(),
            tail: Vec::new(),
        })
    }

    /// Why reading ended, once it did.
    pub fn ended(&self) -> Option<FollowEnd> {
        self.ended.get().copied()
    }

    /// Why reading ended, once it did, for whoever reads through another reader (the capture
    /// reader takes this one).
    pub fn end_watch(&self) -> Arc<OnceLock<FollowEnd>> {
        self.ended.clone()
    }

    /// A flag set once reading ended (for whoever reads through another reader: a gzip
    /// stream cut at the end of what was written is then the end, not damage).
    pub fn done(&self) -> Arc<AtomicBool> {
        self.done.clone()
    }

    fn end(&mut self, why: FollowEnd) -> io::Result<usize> {
        let _ = self.ended.set(why);
        self.done.store(true, Ordering::Relaxed);
        Ok(0)
    }

    /// Whether the file still holds what was given before `fresh` (just read after it): its
    /// first bytes and the last ones before `fresh`. The file is left after `fresh`.
    fn still_holds(&mut self, fresh: usize) -> io::Result<bool> {
        if self.read == 0 {
            return Ok(true);
        }
        let same = self.bytes_at(0, self.head.len())? == self.head
            && self.bytes_at(self.read - self.tail.len() as u64, self.tail.len())? == self.tail;
        // Read on only from where the fresh bytes end.
        self.file.seek(SeekFrom::Start(self.read + fresh as u64))?;
        Ok(same)
    }

    /// Up to `len` bytes of the file from `at` (fewer where it ends).
    fn bytes_at(&mut self, at: u64, len: usize) -> io::Result<Vec<u8>> {
        self.file.seek(SeekFrom::Start(at))?;
        let mut bytes = Vec::with_capacity(len);
        (&mut self.file).take(len as u64).read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    /// Keep the first and last bytes of what is given.
    fn given(&mut self, fresh: &[u8]) {
        self.read += fresh.len() as u64;
        if self.head.len() < HEAD {
            let more = (HEAD - self.head.len()).min(fresh.len());
            self.head.extend_from_slice(&fresh[..more]);
        }
        if fresh.len() >= TAIL {
            self.tail.clear();
            self.tail.extend_from_slice(&fresh[fresh.len() - TAIL..]);
        } else {
            let drop = (self.tail.len() + fresh.len()).saturating_sub(TAIL);
            self.tail.drain(..drop);
            self.tail.extend_from_slice(fresh);
        }
    }

    /// Whether another file than the one read is at its path (none there: not yet).
    fn replaced(&self) -> bool {
        let Ok(there) = std::fs::metadata(&self.path) else {
            return false;
        };
        self.file
            .metadata()
            .is_ok_and(|ours| !same_file(&there, &ours))
    }
}

/// Whether `there` (the path's, looked at first) and `ours` (the open file's, looked at after)
/// are one file: on Unix, the same device and inode.
#[cfg(unix)]
fn same_file(there: &Metadata, ours: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (there.dev(), there.ino()) == (ours.dev(), ours.ino())
}

/// Elsewhere (no inode to compare), told apart by the time each was made where the system
/// keeps it, or by the path's file being longer than the open one, looked at after it (one
/// file only grows while followed; a shorter one is written again, noticed as such).
#[cfg(not(unix))]
fn same_file(there: &Metadata, ours: &Metadata) -> bool {
    let made_apart = matches!((there.created(), ours.created()), (Ok(a), Ok(b)) if a != b);
    !made_apart && there.len() <= ours.len()
}

/// Wait until there is a file at `path` (a game that has not yet made its capture), looking
/// again every [`POLL`]: `None` once it is there, or why the wait ended without it (`stop` set,
/// or `idle` passed).
pub fn wait_for_file(path: &Path, idle: Option<Duration>, stop: &AtomicBool) -> Option<FollowEnd> {
    let since = Instant::now();
    loop {
        if path.exists() {
            return None;
        }
        if stop.load(Ordering::Relaxed) {
            return Some(FollowEnd::Stopped);
        }
        if idle.is_some_and(|idle| since.elapsed() >= idle) {
            return Some(FollowEnd::Idle);
        }
        std::thread::sleep(POLL);
    }
}

impl Read for Growing {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if buf.is_empty() || self.ended.get().is_some() {
            return Ok(0);
        }
        loop {
            let n = self.file.read(buf)?;
            if n > 0 {
                // Looked at after reading: a new run written before the read is caught by
                // what it changed; one written after it, the next time.
                if !self.still_holds(n)? {
                    return self.end(FollowEnd::Rewritten);
                }
                self.given(&buf[..n]);
                self.grew = Instant::now();
                return Ok(n);
            }
            if self.stop.load(Ordering::Relaxed) {
                return self.end(FollowEnd::Stopped);
            }
            if self.file.metadata().is_ok_and(|m| m.len() < self.read) {
                return self.end(FollowEnd::Rewritten);
            }
            if self.replaced() {
                return self.end(FollowEnd::Replaced);
            }
            if self.idle.is_some_and(|idle| self.grew.elapsed() >= idle) {
                return self.end(FollowEnd::Idle);
            }
            std::thread::sleep(POLL);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// Bytes appended while a reader waits at the end are read; with nothing more, it ends
    /// after the idle time.
    #[test]
    fn a_growing_file_is_read_as_it_grows_and_ends_when_idle() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.txt");
        let mut file = File::create(&path).unwrap();
        file.write_all(b"one\n").unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let mut growing =
            Growing::open(&path, Some(Duration::from_millis(300)), stop.clone()).unwrap();
        let writer = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            file.write_all(b"two\n").unwrap();
        });
        let mut text = String::new();
        growing.read_to_string(&mut text).unwrap();
        writer.join().unwrap();
        assert_eq!(text, "one\ntwo\n");
        assert_eq!(growing.ended(), Some(FollowEnd::Idle));
        // Stopped from outside.
        // Written again from its start (a game run again to the same file): the end.
        let mut rereading = Growing::open(&path, None, Arc::default()).unwrap();
        let mut first = [0u8; 8];
        rereading.read_exact(&mut first).unwrap();
        std::fs::write(
            &path, b"new
",
        )
        .unwrap();
        let mut rest = Vec::new();
        rereading.read_to_end(&mut rest).unwrap();
        assert_eq!(rereading.ended(), Some(FollowEnd::Rewritten));
        assert_eq!(
            rereading.end_watch().get().copied(),
            Some(FollowEnd::Rewritten)
        );
        stop.store(true, Ordering::Relaxed);
        let mut again = Growing::open(&path, None, stop).unwrap();
        let mut all = Vec::new();
        again.read_to_end(&mut all).unwrap();
        assert_eq!(again.ended(), Some(FollowEnd::Stopped));
    }

    /// A file written again from its start and grown past what was read before the reader
    /// looked again: it ends without giving a byte of the new run (the bytes read are no longer
    /// there); written again with the same bytes and more, it reads on.
    #[test]
    fn a_file_written_again_past_what_was_read_ends_before_the_new_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.txt");
        std::fs::write(&path, b"run 1\nframe 0\n").unwrap();
        let idle = Some(Duration::from_millis(100));
        let mut growing = Growing::open(&path, idle, Arc::default()).unwrap();
        let mut first = [0u8; 14];
        growing.read_exact(&mut first).unwrap();
        std::fs::write(&path, b"run 2\nframe 0\nframe 1\nframe 2\n").unwrap();
        let mut rest = Vec::new();
        growing.read_to_end(&mut rest).unwrap();
        assert_eq!(rest, b"");
        assert_eq!(growing.ended(), Some(FollowEnd::Rewritten));
        assert!(growing.ended().unwrap().began_again());

        let mut same = Growing::open(&path, idle, Arc::default()).unwrap();
        let mut first = [0u8; 14];
        same.read_exact(&mut first).unwrap();
        std::fs::write(&path, b"run 2\nframe 0\nframe 1\nframe 2\nframe 3\n").unwrap();
        let mut rest = String::new();
        same.read_to_string(&mut rest).unwrap();
        assert_eq!(rest, "frame 1\nframe 2\nframe 3\n");
        assert_eq!(same.ended(), Some(FollowEnd::Idle));
    }

    /// The file read renamed away and a new one made at its path: what the old one still
    /// holds is read, then it ends, replaced; while no file is at the path, it waits.
    #[test]
    fn a_file_renamed_away_and_made_again_is_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("g.txt");
        let mut file = File::create(&path).unwrap();
        file.write_all(b"run 1\n").unwrap();
        // Ended by the idle time only if the new file is missed.
        let idle = Some(Duration::from_secs(20));
        let mut growing = Growing::open(&path, idle, Arc::default()).unwrap();
        let mut first = [0u8; 6];
        growing.read_exact(&mut first).unwrap();
        file.write_all(b"frame 0\n").unwrap();
        std::fs::rename(&path, dir.path().join("g.old.txt")).unwrap();
        let path_again = path.clone();
        let game = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            std::fs::write(&path_again, b"run 2\n").unwrap();
        });
        let mut rest = String::new();
        growing.read_to_string(&mut rest).unwrap();
        game.join().unwrap();
        assert_eq!(rest, "frame 0\n");
        assert_eq!(growing.ended(), Some(FollowEnd::Replaced));
    }
}
