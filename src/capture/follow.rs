//! A capture read while the game still writes it: the file is read as it grows, waiting at
//! its end for the next frame instead of ending there. The writer flushes every frame (a gzip
//! sync point when compressed), so each frame becomes readable as soon as it is written.

use std::fs::File;
use std::io::{self, Read, Seek};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often a followed file is looked at again once its end is reached.
pub const POLL: Duration = Duration::from_millis(10);

/// Why a followed file stopped being read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FollowEnd {
    /// Asked to stop (an interrupt).
    Stopped,
    /// It did not grow for the idle time.
    Idle,
    /// It was written again from its start (a game run again to the same file): shorter than
    /// what was read.
    Rewritten,
}

/// A file read as it grows: at its end, [`Read::read`] waits (looking again every [`POLL`])
/// until more is written, until `stop` is set, or until `idle` passes without growth; only
/// then does it end (read gives 0).
pub struct Growing {
    file: File,
    idle: Option<Duration>,
    stop: Arc<AtomicBool>,
    grew: Instant,
    ended: Option<FollowEnd>,
    done: Arc<AtomicBool>,
    rewritten: Arc<AtomicBool>,
}

impl Growing {
    /// Follow the file at `path` from its start.
    pub fn open(path: &Path, idle: Option<Duration>, stop: Arc<AtomicBool>) -> io::Result<Self> {
        Ok(Self {
            file: File::open(path)?,
            idle,
            stop,
            grew: Instant::now(),
            ended: None,
            done: Arc::new(AtomicBool::new(false)),
            rewritten: Arc::new(AtomicBool::new(false)),
        })
    }

    /// Why reading ended, once it did.
    pub fn ended(&self) -> Option<FollowEnd> {
        self.ended
    }

    /// A flag set once reading ended (for whoever reads through another reader: a gzip
    /// stream cut at the end of what was written is then the end, not damage).
    pub fn done(&self) -> Arc<AtomicBool> {
        self.done.clone()
    }

    /// A flag set when reading ended because the file was written again from its start.
    pub fn rewritten(&self) -> Arc<AtomicBool> {
        self.rewritten.clone()
    }

    fn end(&mut self, why: FollowEnd) -> io::Result<usize> {
        self.ended = Some(why);
        self.done.store(true, Ordering::Relaxed);
        Ok(0)
    }
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
        if buf.is_empty() || self.ended.is_some() {
            return Ok(0);
        }
        loop {
            let n = self.file.read(buf)?;
            if n > 0 {
                self.grew = Instant::now();
                return Ok(n);
            }
            if self.stop.load(Ordering::Relaxed) {
                return self.end(FollowEnd::Stopped);
            }
            let read = self.file.stream_position()?;
            if self.file.metadata().is_ok_and(|m| m.len() < read) {
                self.rewritten.store(true, Ordering::Relaxed);
                return self.end(FollowEnd::Rewritten);
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
        assert!(rereading.rewritten().load(Ordering::Relaxed));
        stop.store(true, Ordering::Relaxed);
        let mut again = Growing::open(&path, None, stop).unwrap();
        let mut all = Vec::new();
        again.read_to_end(&mut all).unwrap();
        assert_eq!(again.ended(), Some(FollowEnd::Stopped));
    }
}
