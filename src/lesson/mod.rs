//! Lessons: what a teacher presents, a sequence of slides, each a scene set up in a lab with a
//! few sentences (docs/format.md, "Lessons"). The core only: the file, read and checked, and
//! the lessons the program carries.

mod builtin;
mod file;
mod page;
mod source;
mod stage;

pub use builtin::unknown_lesson_in_link;
pub use builtin::{BUILT_IN, BuiltIn, builtin};
pub use file::{Lesson, Read, Slide, SlideLab, SlideStep, View};
pub use page::{page, slide_picture};
pub use source::{LessonBundle, LessonSource, is_lesson, is_lesson_text};
pub use stage::{LATENCY_STEP_MS, MOTION_DT, MOTION_STEPS, MotionRun, Stage, stage};
