//! A test program's scratch folder in the system's temporary folder, named by its process:
//! shared by the program's tests, which run at once (so none of them can remove it), and
//! removed by a later run once that process is gone, so that runs do not pile them up.

use std::path::{Path, PathBuf};
use std::sync::Once;

/// `<temp>/<prefix>-<this process>`, made if needed; the first call also removes the folders
/// of that prefix left by processes no longer running.
pub fn scratch_folder(prefix: &str) -> PathBuf {
    static SWEPT: Once = Once::new();
    let temp = std::env::temp_dir();
    SWEPT.call_once(|| sweep(&temp, prefix));
    let dir = temp.join(format!("{prefix}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Removes `<prefix>-<pid>` folders in `temp` whose process no longer runs.
pub fn sweep(temp: &Path, prefix: &str) {
    let Ok(entries) = std::fs::read_dir(temp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let pid = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix))
            .and_then(|rest| rest.strip_prefix('-'))
            .and_then(|digits| digits.parse::<u32>().ok());
        if let Some(pid) = pid
            && pid != std::process::id()
            && !running(pid)
            && entry.path().is_dir()
        {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether process `pid` runs: Linux tells by `/proc`; elsewhere every process counts as
/// running, and nothing is removed.
fn running(pid: u32) -> bool {
    !cfg!(target_os = "linux") || Path::new(&format!("/proc/{pid}")).exists()
}
