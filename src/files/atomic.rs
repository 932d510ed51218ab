//! Saving without losing work: a file is written beside its target and renamed over it, so a
//! crash or a full disk leaves the old file whole.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

/// Write `bytes` to `path` atomically: a temporary file in the same folder is written and
/// flushed to disk, then renamed over `path`. If anything fails, `path` is left as it was.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    write_atomically_with(path, |file| file.write_all(bytes))
}

/// Write `text` to `path` atomically, gzip-compressed at `level` (0-9) when `path` ends in
/// `.gz`: how a capture kept in memory (the flight recorder's, one streamed to the window) is
/// saved.
pub fn write_text_atomically(path: &Path, text: &[u8], level: u32) -> io::Result<()> {
    use std::io::Write as _;
    let gzip = path.extension().is_some_and(|e| e == "gz");
    write_atomically_with(path, |file| {
        if gzip {
            let mut encoder = flate2::write::GzEncoder::new(file, flate2::Compression::new(level));
            encoder.write_all(text)?;
            encoder.finish().map(|_| ())
        } else {
            file.write_all(text)
        }
    })
}

/// [`write_atomically`] for output made as it is written (a capture replayed from a
/// recording): `write` streams into the temporary file, which replaces `path` only when
/// `write` succeeds and the file reaches the disk.
pub fn write_atomically_with<E: From<io::Error>>(
    path: &Path,
    write: impl FnOnce(&mut File) -> Result<(), E>,
) -> Result<(), E> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "not a file name"))?;
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let temporary = folder.join(format!(
        ".{}.{}-{}.tmp",
        name.to_string_lossy(),
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let written = File::create_new(&temporary)
        .map_err(E::from)
        .and_then(|mut file| {
            write(&mut file)?;
            file.sync_all()?;
            drop(file);
            fs::rename(&temporary, path).map_err(E::from)
        });
    if written.is_err() {
        let _ = fs::remove_file(&temporary);
    }
    written
}
