//! The recording file: a JSON header line (the scene, how it ran, where each block of frames
//! starts, the events), a newline, then the frames in binary; read back with every frame
//! checked, written atomically.

use super::*;

/// The header line of a recording file.
#[derive(Serialize, Deserialize)]
pub(super) struct Header {
    format: String,
    version: u64,
    config: ConfigRecord,
    steps: u64,
    bodies: Vec<usize>,
    keyframes: Vec<usize>,
    frames_bytes: usize,
    events: Vec<Event>,
    scene: serde_json::Value,
}

impl Recording {
    /// The file's bytes: the header line, then the frames.
    pub fn to_bytes(&self) -> Vec<u8> {
        let scene_json: serde_json::Value = serde_json::from_str(&scene::to_json(&self.scene))
            .expect("a written shape set is JSON");
        let header = Header {
            format: FORMAT.into(),
            version: VERSION,
            config: self.config.into(),
            steps: self.steps,
            bodies: self.bodies.clone(),
            keyframes: self.keyframes.clone(),
            frames_bytes: self.data.len(),
            events: self.events.clone(),
            scene: scene_json,
        };
        let mut bytes = serde_json::to_vec(&header).expect("the header is plain data");
        bytes.push(b'\n');
        bytes.extend_from_slice(&self.data);
        bytes
    }

    /// Write it to `path` atomically (a temporary file, then a rename).
    /// A recording its reader would refuse (a pose that is not finite, written as `null`)
    /// is refused instead, naming the place, and nothing is written.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        let bytes = self.to_bytes();
        Recording::parse(path, &bytes)?;
        write_atomically(path, &bytes)
            .map_err(|e| FileError::new(path, Problem::io("cannot write the file", e)))
    }

    /// Read the recording at `path`.
    pub fn load(path: &Path) -> Result<Recording, FileError> {
        let bytes = std::fs::read(path)
            .map_err(|e| FileError::new(path, Problem::io("cannot read the file", e)))?;
        Recording::parse(path, &bytes)
    }

    /// Read a recording from `bytes` (`path` names it in errors). Every frame is checked.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Recording, FileError> {
        let error = |problem: String| FileError::new(path, Problem::Document(problem));
        let newline = bytes
            .iter()
            .position(|b| *b == b'\n')
            .ok_or_else(|| error("not a recording: no header line".into()))?;
        let header: Header =
            serde_json::from_slice(&bytes[..newline]).map_err(|e| error(format!("header: {e}")))?;
        if header.format != FORMAT {
            return Err(error(format!(
                "header: format is `{}`, not `{FORMAT}`",
                header.format
            )));
        }
        if header.version != VERSION {
            return Err(error(format!(
                "header: version {} is not one this build reads (1)",
                header.version
            )));
        }
        let scene_text = serde_json::to_string(&header.scene).expect("a JSON value");
        let scene = scene::parse(path, scene_text.as_bytes())
            .map_err(|e| error(format!("header, scene: {}", e.problem)))?;
        let config = Config::try_from(header.config)
            .map_err(|e: ConfigError| error(format!("header, config: {e}")))?;
        if header.bodies != bodies_of(&scene) {
            return Err(error(
                "header: `bodies` is not the list of the scene's kinematic and dynamic shapes"
                    .into(),
            ));
        }
        let data = &bytes[newline + 1..];
        if data.len() != header.frames_bytes {
            return Err(error(format!(
                "the frames take {} bytes, the header says {}",
                data.len(),
                header.frames_bytes
            )));
        }
        let blocks = header.steps.div_ceil(KEYFRAME_EVERY) as usize;
        if header.keyframes.len() != blocks {
            return Err(error(format!(
                "header: {} keyframes for {} steps (one per {KEYFRAME_EVERY} expected)",
                header.keyframes.len(),
                header.steps
            )));
        }
        // In step order, as a run makes them (a file written by hand may not be): a frame's
        // events are then found by halving.
        let mut events = header.events;
        events.sort_by_key(|e| e.step());
        let mut recording = Recording {
            scene,
            config,
            bodies: header.bodies,
            steps: header.steps,
            data: data.to_vec(),
            keyframes: header.keyframes,
            events,
            last: [Vec::new(), Vec::new()],
        };
        // Decode every frame once: a damaged file is refused here, never while scrubbing.
        let mut last_two: [Vec<[u64; 5]>; 2] = [Vec::new(), Vec::new()];
        let end = recording
            .each_frame(|index, at, frame| {
                let block = (index / KEYFRAME_EVERY) as usize;
                if index % KEYFRAME_EVERY == 0 && recording.keyframes[block] != at {
                    return Err(format!(
                        "keyframe {block} starts at byte {at}, the header says {}",
                        recording.keyframes[block]
                    ));
                }
                // A pose or velocity past f64 (a body flung off to infinity) is no state.
                if let Some(k) = frame
                    .iter()
                    .position(|body| body.iter().any(|x| !f64::from_bits(*x).is_finite()))
                {
                    // The data holds the frames after steps 1, 2, ... (frame 0 is the scene).
                    return Err(format!(
                        "step {}, moving body {k}: a position, angle or velocity that is not a finite number",
                        index + 1
                    ));
                }
                last_two = [frame.to_vec(), std::mem::take(&mut last_two[0])];
                Ok(())
            })
            .map_err(error)?;
        if end != recording.data.len() {
            return Err(error(format!(
                "{} bytes left after the last step",
                recording.data.len() - end
            )));
        }
        // Pushing more steps predicts from the last two frames of their block.
        let in_block = recording.steps % KEYFRAME_EVERY;
        recording.last = if in_block == 0 {
            [Vec::new(), Vec::new()]
        } else {
            last_two
        };
        Ok(recording)
    }
}
