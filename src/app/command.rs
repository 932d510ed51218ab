//! What the panels ask the app to do. Panels read the workspace and push commands; the app
//! carries them out in one place ([`super::App::run_commands`]) after every panel has been
//! drawn, so a frame shows one consistent scene and report.

use super::document::Recovery;
use super::document::edit::Edit;
use crate::geometry::DVec2;
use crate::latency::{Network, Settings};
use crate::motion::{Config, Recording, Resolver, Substeps};
use crate::scene::ShapeId;
use crate::scene::generate::Generate;
use std::path::PathBuf;

pub use super::playback::PlaybackCommand;
pub use crate::picture::Fit;

/// A message for the status bar (what [`Command::Say`] carries): kept here with the commands,
/// so that the status bar, which pushes commands, and the commands do not import each other.
#[derive(Clone, Debug, PartialEq)]
pub struct Message {
    /// The text.
    pub text: String,
    /// Whether it reports a failure.
    pub error: bool,
}

/// The window's timelines, each driven by one `Playback`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimelineId {
    /// The motion lab's frames.
    Motion,
    /// The latency lab's packets, in arrival order.
    Latency,
    /// The capture lab's frames.
    Capture,
}

/// A claim of a capture, by its pair's ids (A first) and its chain piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClaimRef {
    /// Shape A's id.
    pub a: u64,
    /// Shape B's id.
    pub b: u64,
    /// The chain's piece, for a pair with a chain.
    pub piece: Option<usize>,
}

/// What the capture lab is asked besides its playback.
#[derive(Clone, Debug, PartialEq)]
pub enum CaptureCommand {
    /// Open the capture here (the document stays as it is).
    Open(PathBuf),
    /// Open a capture given as bytes (the browser's picker or a drop), named `name`.
    OpenBytes {
        /// The file's name.
        name: String,
        /// What it holds, plain or gzip.
        bytes: Vec<u8>,
    },
    /// Close the capture shown.
    Close,
    /// Explain this claim of the frame shown (or none).
    Select(Option<ClaimRef>),
    /// A shape of the frame shown was clicked (its index in the frame's scene; `None`: the
    /// background): the first of a pair picked, or the second, which explains the pair (its
    /// claim, or why the engine left it out).
    Pick(Option<usize>),
    /// Show the frame at this position and explain this claim.
    Show {
        /// The frame's position in the capture (0: its first).
        position: usize,
        /// The claim.
        claim: ClaimRef,
    },
    /// Show the next disagreeing claim (`false`: the one before).
    NextDivergence(bool),
    /// Show the next event (a seam, a tunnel, ...; `false`: the one before), its pair
    /// explained.
    NextEvent(bool),
    /// Draw this mistake's own test of the explained pair beside the correct one (or none).
    ShowMistake(Option<crate::query::Mistake>),
    /// Pin the claimed pairs of the frame shown in the fixture file at this path (an existing
    /// file only when asked twice in a row).
    ExportFrame(PathBuf),
    /// Replay the Box2D recording at this path with Box2D, on its own thread, into a capture
    /// beside it (`NAME.b2rec.capture.jsonl.gz`), then open that capture.
    Replay(PathBuf),
    /// A replay ended: the capture it wrote and what it said, or why it failed.
    Replayed(Result<(PathBuf, String), String>),
    /// Follow the capture at this path as the game writes it (waiting for its header if it
    /// has none yet): the newest frame shown, the break armed.
    Follow(PathBuf),
    /// Show the newest frame of the capture followed again, the break armed for what comes.
    GoLive,
    /// Stop following: what is written now is read, and the capture ends there.
    StopFollowing,
    /// Hold the frame at the first disagreeing claim or event while following (or not).
    PauseAtFirst(bool),
    /// Listen for a game on 127.0.0.1 at this port (0: any free one).
    Listen(u16),
    /// Stop listening (a game streaming now is cut off; its frames are kept).
    StopListening,
    /// Save the capture a game streamed at this path.
    SaveReceived(PathBuf),
    /// Open the capture at this path to compare with the one shown ("B" beside "A"): drawn as
    /// ghosts over it, the runs compared as `collidoscope diff` compares them.
    Compare(PathBuf),
    /// Compare with a capture given as bytes (the browser's picker or a drop), named `name`.
    CompareBytes {
        /// The file's name.
        name: String,
        /// What it holds, plain or gzip.
        bytes: Vec<u8>,
    },
    /// The next capture the browser's picker gives is compared with the one shown, not opened
    /// in its place (or no longer).
    CompareNext(bool),
    /// Compare again with this offset and tolerance.
    CompareSettings(crate::capture::DiffSettings),
    /// Stop comparing: the second run is closed.
    CloseCompare,
    /// Show the frame where the compared runs first part (J).
    JumpToParting,
    /// Plot these quantities in the Plot panel.
    PlotWhat(Vec<crate::series::Quantity>),
}

/// What a run is made with: the panel's fields, changed by [`MotionCommand::Settings`] and
/// taken from a run opened from a file.
#[derive(Clone, Debug, PartialEq)]
pub struct RunSettings {
    /// The step (seconds).
    pub dt_s: f64,
    /// How many steps a run has.
    pub steps: u64,
    /// Substeps: bounded by the tunnelling bound, else `fixed`.
    pub bound: bool,
    /// Fixed substeps per step.
    pub fixed: u32,
    /// The resolver of the run.
    pub resolver: Resolver,
    /// A second resolver, drawn as ghosts.
    pub ghost: Option<Resolver>,
    /// Continuous collision.
    pub ccd: bool,
}

impl Default for RunSettings {
    fn default() -> Self {
        Self {
            dt_s: 1.0 / 60.0,
            steps: 240,
            bound: false,
            fixed: 1,
            resolver: Resolver::Sat,
            ghost: None,
            ccd: false,
        }
    }
}

impl RunSettings {
    /// The simulation's configuration.
    pub fn config(&self) -> Config {
        Config {
            dt: self.dt_s,
            substeps: if self.bound {
                Substeps::Bound
            } else {
                Substeps::Fixed(self.fixed.max(1))
            },
            resolver: self.resolver,
            ccd: self.ccd,
        }
    }

    /// The settings a recording was made with (`fixed` kept when it was bounded).
    pub fn of(recording: &Recording, fixed: u32) -> Self {
        let config = recording.config();
        let (bound, fixed) = match config.substeps {
            Substeps::Bound => (true, fixed),
            Substeps::Fixed(k) => (false, k),
        };
        Self {
            dt_s: config.dt,
            steps: recording.steps(),
            bound,
            fixed,
            resolver: config.resolver,
            ghost: None,
            ccd: config.ccd,
        }
    }
}

/// What the motion lab is asked besides its playback.
#[derive(Clone, Debug, PartialEq)]
pub enum MotionCommand {
    /// What the next run is made with (the panel's fields; small scenes run again at once).
    Settings(RunSettings),
    /// Run the scene again with the panel's settings.
    Run,
    /// Write the run shown as a recording here.
    SaveRun(PathBuf),
    /// Write the run shown as a capture (collidoscope's resolver as the engine), beside this
    /// recording path as `<stem>.capture.jsonl.gz`.
    SaveCapture(PathBuf),
    /// Show the recording here (the panel takes its settings).
    OpenRun(PathBuf),
    /// Show a recording given as bytes (the browser's picker or a drop), named `name`.
    OpenRunBytes {
        /// The file's name.
        name: String,
        /// What it holds.
        bytes: Vec<u8>,
    },
    /// Run the shown run's scene again and compare every step bit for bit.
    Replay,
    /// Pin every pair of the frame shown, in `frame-K.json` beside this path.
    ExportFrame(PathBuf),
    /// Show the run's event with this index (in the run's events' order): its step, its pair
    /// explained, and its picture drawn over the frame (a seam's face or corner, the shape
    /// covering it, the body's velocity before and after).
    ChooseEvent(usize),
    /// Plot these quantities in the Plot panel.
    PlotWhat(Vec<crate::series::Quantity>),
}

/// What the latency lab is asked besides its playback.
#[derive(Clone, Debug, PartialEq)]
pub enum LatencyCommand {
    /// The engine's bucket step and swept contacts (the panel's fields).
    Settings(Settings),
    /// The network model Generate uses.
    Network(Network),
    /// Show the bucket this many rows later (earlier when negative), within the log.
    StepBucket(i64),
    /// Show this bucket (its index: time = index * step), within the log.
    ShowBucket(i64),
    /// Read the packet log here and show it.
    OpenLog(PathBuf),
    /// Read a packet log given as bytes (the browser's picker or a drop), named `name`.
    OpenLogBytes {
        /// The file's name.
        name: String,
        /// What it holds.
        bytes: Vec<u8>,
    },
    /// Write the log shown here (atomically).
    SaveLog(PathBuf),
    /// Show the three players of the LACE article.
    Example,
    /// Make a log from the motion lab's run over the panel's network.
    Generate,
    /// Stop the engine's work under way, keeping the settings of the engine shown.
    Cancel,
}

/// A page of the help window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum HelpPage {
    /// What the window shows and where to start.
    #[default]
    GettingStarted,
    /// The keys and the mouse.
    Keys,
    /// The words: SAT, axis, shadow, MTV, edge, corner...
    Words,
}

impl HelpPage {
    /// The pages in the order Help shows them.
    pub const ALL: [HelpPage; 3] = [HelpPage::GettingStarted, HelpPage::Keys, HelpPage::Words];
}

/// One request from a panel.
// A few per frame at most, made and applied at once: an edit carrying a shape inline (a
// polygon keeps up to 8 corners in place) costs nothing worth a box.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug)]
pub enum Command {
    /// Change the shapes.
    Edit(Edit),
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Select a shape, or nothing.
    Select(Option<ShapeId>),
    /// Explain this pair (A, B).
    Explain(ShapeId, ShapeId),
    /// Start a new document (asks first when there are unsaved changes).
    New,
    /// Open a file (asks first when there are unsaved changes).
    Open(PathBuf),
    /// Open a file given as bytes (the browser's picker or a drop there): a shape set or a
    /// lesson; `name` names it in messages and is the file a save downloads.
    OpenBytes {
        /// The file's name.
        name: String,
        /// What it holds.
        bytes: Vec<u8>,
    },
    /// Put a link to what the window shows on the clipboard: the shapes with the lab, pair and
    /// view (`?scene=...&lab=...`), or the lesson at its slide.
    CopyLink,
    /// Import a level (a Tiled map, a Godot 4 scene) as a new, unsaved, untitled set (asks first when
    /// there are unsaved changes).
    Import(PathBuf),
    /// Merge static polygons that touch along edges into chains (`import --merge`): every
    /// such surface, or (`selected`) only the one the selected shape belongs to. One undo step.
    Merge {
        /// Only the selected shape's surface.
        selected: bool,
    },
    /// Save to the document's file, or ask for one.
    Save,
    /// Save to `path`; writing over an existing file that is not the open document asks
    /// first unless `confirmed`.
    SaveAs {
        /// Where.
        path: PathBuf,
        /// The user already agreed to replace it.
        confirmed: bool,
    },
    /// Take back the autosaved work of a session that did not close cleanly.
    Recover(Box<Recovery>),
    /// Remove the recovery copy the user declined.
    DiscardRecovery,
    /// Show part of the scene.
    Fit(Fit),
    /// Start adding a polygon by clicking its corners.
    StartPolygon,
    /// Add the polygon clicked so far.
    FinishPolygon,
    /// Stop adding a polygon.
    CancelPolygon,
    /// Replace the scene with a random one (asks first when there are unsaved changes).
    Generate(Generate),
    /// Show the window that generates many shapes.
    ShowGenerate,
    /// Open a built-in scene as a new document with no file (asks first when there are unsaved
    /// changes), in the lab that shows it.
    Example(super::Example),
    /// Use grid cells of this size (`None`: chosen from the shapes' sizes).
    CellSize(Option<f64>),
    /// Show this lab.
    Lab(super::Lab),
    /// Show the shapes panel (`Left`) or the lab's panel (`Right`); where only one fits (a
    /// narrow window, a phone), the other goes.
    ShowPanel(PanelSide),
    /// Follow a moving pair over `[0, T]` (one step's dt).
    Horizon(f64),
    /// Cast the casts lab's ray from the first point to the second (world).
    Ray(DVec2, DVec2),
    /// A message for the status bar.
    Say(Message),
    /// Take the claims of the file at this path (its shape indices naming this scene's).
    LoadClaims(PathBuf),
    /// Show the window that exports a fixture.
    ShowExport,
    /// Show help at this page.
    Help(HelpPage),
    /// Close the welcome of a first start, for good.
    DismissWelcome,
    /// Close the status bar's notice (a bad link's whole message).
    DismissNotice,
    /// Play, pause, step or scrub a timeline.
    Playback(TimelineId, PlaybackCommand),
    /// A motion lab action.
    Motion(MotionCommand),
    /// Change what the latency lab shows.
    Latency(LatencyCommand),
    /// A capture lab action.
    Capture(CaptureCommand),
    /// Present a lesson, step through it, end it.
    Lesson(LessonCommand),
    /// Write a fixture of these pairs (list positions; every pair when `None`) and, with
    /// `rust`, the test that checks it.
    ExportFixture {
        /// The pairs to pin.
        pairs: Option<Vec<(usize, usize)>>,
        /// The fixture file.
        path: PathBuf,
        /// The Rust test file, if wanted.
        rust: Option<PathBuf>,
    },
}

impl Command {
    /// Whether it replaces the document (a new one, another file, a level, random shapes, an
    /// example, a recovered copy): while a lesson is presented, the presentation ends first,
    /// so it is the user's document it replaces (or asks to). A lesson file's Open has become
    /// a lesson command by then ([`super::App::run`]).
    pub fn replaces_document(&self) -> bool {
        matches!(
            self,
            Command::New
                | Command::Open(_)
                | Command::OpenBytes { .. }
                | Command::Import(_)
                | Command::Generate(_)
                | Command::Example(_)
                | Command::Recover(_)
        )
    }
}

/// The commands of one frame.
#[derive(Debug, Default)]
pub struct Commands(pub Vec<Command>);

impl Commands {
    /// Ask for `command`.
    pub fn push(&mut self, command: Command) {
        self.0.push(command);
    }

    /// Ask for an edit.
    pub fn edit(&mut self, edit: Edit) {
        self.0.push(Command::Edit(edit));
    }

    /// A message for the status bar.
    pub fn say(&mut self, text: impl Into<String>, error: bool) {
        self.0.push(Command::Say(Message {
            text: text.into(),
            error,
        }));
    }
}

/// What presenter mode is asked.
#[derive(Clone, Debug, PartialEq)]
pub enum LessonCommand {
    /// Present this lesson from its first slide (the user's document is kept aside).
    Open(crate::lesson::LessonSource),
    /// The slide's next SAT step, else the next slide.
    Next,
    /// The slide's previous SAT step, else the previous slide at its last step.
    Back,
    /// This slide (from 0), at its first step.
    Go(usize),
    /// The slide as it opened: its scene, pair, step and view.
    Restore,
    /// The projector look on or off.
    Projector(bool),
    /// End the presentation: the user's document comes back as it was.
    End,
}

/// Which side a lab's or the shapes' panel is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PanelSide {
    /// The shapes panel's.
    Left,
    /// The labs' panels'.
    Right,
}
