//! Writes to the data folder (the recovery copy, the recent list) on a thread of its own, in
//! the order asked: the window never waits on a disk's fsync during a drag, a discard always
//! follows the copy it discards, and what is still queued is written before the window closes.
//! Where no thread can be started (the browser), each job is done where it is asked.

use crate::scene::{self, Scene};
use std::path::PathBuf;
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;

/// One thing to write or remove.
enum Job {
    /// The scene to `file`, then the document's path (absolute, or empty) to `path_file`.
    Recovery {
        scene: Box<Scene>,
        file: PathBuf,
        path_file: PathBuf,
        path_text: String,
    },
    /// Remove the recovery copy and its path.
    Discard { file: PathBuf, path_file: PathBuf },
    /// The recent list's text to `file`.
    Recent { file: PathBuf, text: String },
    /// Answer once every job before this one is done.
    Flush(Sender<()>),
}

impl Job {
    /// Whether a later `next` makes this job's work pointless (the latest copy wins).
    fn overtaken_by(&self, next: &Job) -> bool {
        matches!(
            (self, next),
            (
                Job::Recovery { .. },
                Job::Recovery { .. } | Job::Discard { .. }
            ) | (Job::Recent { .. }, Job::Recent { .. })
        )
    }

    /// Do it; a sentence when it failed.
    fn run(self) -> Option<String> {
        match self {
            Job::Recovery {
                scene,
                file,
                path_file,
                path_text,
            } => {
                if let Some(dir) = file.parent() {
                    let _ = std::fs::create_dir_all(dir);
                }
                // The scene first, then the path it belongs to, each atomically: a crash
                // between the two leaves the newer work with the path of the copy before (the
                // same document unless it was just saved under another name), never a path
                // without its scene.
                if let Err(e) = scene::save(&scene, &file) {
                    return Some(format!("autosave failed: {e}"));
                }
                crate::files::write_atomically(&path_file, path_text.as_bytes())
                    .err()
                    .map(|e| format!("autosave failed: {}: {e}", path_file.display()))
            }
            Job::Discard { file, path_file } => {
                let _ = std::fs::remove_file(file);
                let _ = std::fs::remove_file(path_file);
                None
            }
            Job::Recent { file, text } => {
                if let Some(dir) = file.parent() {
                    let _ = std::fs::create_dir_all(dir);
                }
                // Atomic: a crash while writing leaves the list before, never half of it.
                let _ = crate::files::write_atomically(&file, text.as_bytes());
                None
            }
            Job::Flush(done) => {
                let _ = done.send(());
                None
            }
        }
    }
}

/// The data folder's writer: jobs go to its thread in order; problems come back to be said.
#[derive(Default)]
pub struct DataWriter {
    jobs: Option<Sender<Job>>,
    problems: Option<Receiver<String>>,
    /// Problems of jobs done where they were asked (no thread).
    said: Vec<String>,
    thread: Option<JoinHandle<()>>,
}

impl DataWriter {
    /// Copy `scene` to the recovery file, then `path_text` to its path file.
    pub fn recovery(
        &mut self,
        scene: &Scene,
        file: PathBuf,
        path_file: PathBuf,
        path_text: String,
    ) {
        self.send(Job::Recovery {
            scene: Box::new(scene.clone()),
            file,
            path_file,
            path_text,
        });
    }

    /// Remove the recovery copy (after every copy asked before).
    pub fn discard(&mut self, file: PathBuf, path_file: PathBuf) {
        self.send(Job::Discard { file, path_file });
    }

    /// Write the recent list.
    pub fn recent(&mut self, file: PathBuf, text: String) {
        self.send(Job::Recent { file, text });
    }

    /// A problem of a job done since last asked, to be said in the status bar.
    pub fn take_problem(&mut self) -> Option<String> {
        if !self.said.is_empty() {
            return Some(self.said.remove(0));
        }
        self.problems.as_ref()?.try_recv().ok()
    }

    /// Wait until every job asked so far is done.
    pub fn flush(&mut self) {
        let (done, wait) = mpsc::channel();
        if let Some(jobs) = &self.jobs
            && jobs.send(Job::Flush(done)).is_ok()
        {
            let _ = wait.recv();
        }
    }

    fn send(&mut self, job: Job) {
        if self.jobs.is_none() {
            self.start();
        }
        let job = match &self.jobs {
            Some(jobs) => match jobs.send(job) {
                Ok(()) => return,
                // The thread is gone (it panicked): do it here.
                Err(mpsc::SendError(job)) => job,
            },
            None => job,
        };
        self.said.extend(job.run());
    }

    fn start(&mut self) {
        let (jobs, inbox) = mpsc::channel::<Job>();
        let (problems, said) = mpsc::channel();
        let worker = move || {
            while let Ok(first) = inbox.recv() {
                // Everything already queued, so that a copy overtaken by a later one (or by a
                // discard) is never written.
                let mut batch = vec![first];
                batch.extend(inbox.try_iter());
                let keep: Vec<bool> = (0..batch.len())
                    .map(|i| {
                        !batch[i + 1..]
                            .iter()
                            .any(|later| batch[i].overtaken_by(later))
                    })
                    .collect();
                let kept = batch.into_iter().zip(keep).filter(|(_, keep)| *keep);
                for problem in kept.filter_map(|(job, _)| job.run()) {
                    let _ = problems.send(problem);
                }
            }
        };
        if let Ok(thread) = std::thread::Builder::new()
            .name("collidoscope data folder".into())
            .spawn(worker)
        {
            self.jobs = Some(jobs);
            self.problems = Some(said);
            self.thread = Some(thread);
        }
    }
}

impl Drop for DataWriter {
    /// What is still queued is written before the window goes.
    fn drop(&mut self) {
        self.jobs = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::app::document::data_writer::DataWriter;
    use crate::geometry::{Circle, DVec2, Placed, Pose};
    use crate::scene::{Scene, SceneShape};

    fn scene_at(x: f64) -> Scene {
        let ball = Placed::new(Circle::new(1.0).unwrap(), Pose::at(DVec2::new(x, 0.0)));
        Scene::from_shapes(vec![SceneShape::named("ball", ball)])
    }

    /// Copies and discards land in the order asked, however many are queued at once: the
    /// last copy is the one kept, and a discard removes every copy asked before it.
    #[test]
    fn the_last_copy_wins_and_a_discard_follows_the_copies_before_it() {
        let data = tempfile::tempdir().unwrap();
        let (file, path_file) = (data.path().join("r.json"), data.path().join("r.txt"));
        let mut writer = DataWriter::default();
        let copy = |w: &mut DataWriter, x: f64| {
            w.recovery(
                &scene_at(x),
                file.clone(),
                path_file.clone(),
                format!("{x}"),
            )
        };
        for x in 0..50 {
            copy(&mut writer, x as f64);
        }
        writer.discard(file.clone(), path_file.clone());
        writer.flush();
        assert!(!file.exists() && !path_file.exists());

        copy(&mut writer, 1.0);
        writer.discard(file.clone(), path_file.clone());
        copy(&mut writer, 2.0);
        copy(&mut writer, 3.0);
        writer.flush();
        let kept = crate::scene::load(&file).unwrap();
        assert_eq!(kept.shapes[0].placed.pose.position.x, 3.0);
        assert_eq!(std::fs::read_to_string(&path_file).unwrap(), "3");
        assert_eq!(writer.take_problem(), None);

        // What is queued when the writer goes is written first.
        copy(&mut writer, 4.0);
        writer.discard(file.clone(), path_file.clone());
        copy(&mut writer, 5.0);
        drop(writer);
        let kept = crate::scene::load(&file).unwrap();
        assert_eq!(kept.shapes[0].placed.pose.position.x, 5.0);
    }

    /// A copy that cannot be written comes back as a sentence naming the file.
    #[test]
    fn a_copy_that_cannot_be_written_is_said() {
        let data = tempfile::tempdir().unwrap();
        let path_file = data.path().join("r.txt");
        std::fs::create_dir(&path_file).unwrap();
        let mut writer = DataWriter::default();
        writer.recovery(
            &scene_at(0.0),
            data.path().join("r.json"),
            path_file,
            String::new(),
        );
        writer.flush();
        let said = writer.take_problem().unwrap();
        assert!(
            said.contains("autosave failed") && said.contains("r.txt"),
            "{said}"
        );
    }
}
