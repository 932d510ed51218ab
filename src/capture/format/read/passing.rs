//! Passing frames on the way to a later one: what a seek does between the keyframe it starts
//! from and the frame it shows. Those frames' lines were read whole and found good by the scan
//! that counted them, and nothing of theirs is shown but where they leave the shapes. So a run
//! of lines whose shapes only move (most lines of a long capture) is not applied line by line:
//! read from its last line back, each shape takes, key by key, the value of the last line that
//! gives it, and only the entries that still give a shape something are read (a shape in every
//! line has only its last entry's numbers read). Their claims are not read at all. Any other
//! line (a shape added, removed or changed otherwise) is applied as it comes.

use super::super::written::{moved_at, moving_entries};
use super::{CaptureReader, RawLine};
use crate::capture::format::ids::IdMap;
use crate::capture::format::parsed::{PoseChange, ShapeKeys};
use crate::files::FileError;
use crate::geometry::DVec2;
use crate::scene::Body;

/// A line whose shapes only move, waiting to be passed with the ones after it.
struct Moving {
    raw: RawLine,
    /// Each entry's id and where it starts.
    entries: Vec<(u64, usize)>,
    frame: u64,
    time: f64,
}

impl CaptureReader {
    /// Go on past the next `count` frames, which a scan has already read and found good,
    /// to stand where [`Self::next_frame`] reads the frame after them; how many were passed
    /// (fewer at the end of the capture). The shapes stand where applying every line would
    /// leave them, to the bit; the frames passed are not given, and what the last of them
    /// changed (`previous`) is not kept: the next frame read replaces it.
    pub fn pass_frames(&mut self, count: usize) -> Result<usize, FileError> {
        let mut run: Vec<Moving> = Vec::new();
        let mut passed = 0;
        while passed < count {
            let Some(raw) = self.raw_line()? else {
                break;
            };
            let mut entries = Vec::new();
            if let Some((frame, time)) = moving_entries(raw.bytes(), &mut entries) {
                run.push(Moving {
                    raw,
                    entries,
                    frame,
                    time,
                });
                passed += 1;
                continue;
            }
            self.pass_run(std::mem::take(&mut run))?;
            if self.apply_line(raw.parse_without_claims())?.is_none() {
                // A last line cut off by a crash: no frame.
                break;
            }
            passed += 1;
        }
        self.pass_run(run)?;
        Ok(passed)
    }

    /// Pass a run of lines whose shapes only move: each shape's last pose and velocities
    /// applied once, as applying every line in turn leaves them; line by line where that
    /// cannot be sure (a shape the reader does not hold, a static one, an entry not read).
    fn pass_run(&mut self, run: Vec<Moving>) -> Result<(), FileError> {
        let Some(last) = run.last() else {
            return Ok(());
        };
        let Some(changes) = self.last_changes(&run) else {
            for line in run {
                self.apply_line(line.raw.parse_without_claims())?;
            }
            return Ok(());
        };
        let (line, end, frame, time) = (last.raw.line, last.raw.end, last.frame, last.time);
        self.state.previous.clear();
        for (id, change) in changes {
            let slot = self.state.slot_of[&id];
            let shape = self.state.slots[slot].as_mut().expect("a live slot");
            if let Err(message) = super::change(shape, &ShapeKeys::Pose(change)) {
                // The scan found these lines good: only a file changed since can say this.
                self.state.line = line;
                return Err(self.error(format!("shape id {id}: {message}").into()));
            }
        }
        self.state.line = line;
        self.consumed = end;
        self.state.last = Some((frame, time));
        self.state.frames += run.len() as u64;
        for passed in run {
            self.lines.give_back(passed.raw.bytes);
        }
        Ok(())
    }

    /// Each shape's pose and velocities as the run leaves them: key by key, the last line's
    /// that gives it. `None` where the run must be applied line by line.
    fn last_changes(&self, run: &[Moving]) -> Option<IdMap<u64, PoseChange>> {
        let mut changes: IdMap<u64, PoseChange> =
            IdMap::with_capacity_and_hasher(self.state.slot_of.len(), Default::default());
        let point = |[x, y]: [f64; 2]| DVec2::new(x, y);
        for line in run.iter().rev() {
            for &(id, at) in &line.entries {
                let change = changes.entry(id).or_default();
                let whole = change.position.is_some()
                    && change.angle.is_some()
                    && change.velocity.is_some()
                    && change.angular_velocity.is_some();
                if whole {
                    continue;
                }
                let moved = moved_at(line.raw.bytes(), at)?;
                change.position = change.position.or(moved.position.map(point));
                change.angle = change.angle.or(moved.angle);
                change.velocity = change.velocity.or(moved.velocity.map(point));
                change.angular_velocity = change.angular_velocity.or(moved.angular_velocity);
            }
        }
        // Only shapes that move and are held (a static one given a velocity is built again,
        // line by line).
        let movable = changes.keys().all(|id| {
            self.state
                .slot_of
                .get(id)
                .and_then(|&slot| self.state.slots[slot].as_ref())
                .is_some_and(|s| s.motion.body != Body::Static)
        });
        movable.then_some(changes)
    }
}
