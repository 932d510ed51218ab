//! collidoscope: 2D collision geometry you can see.
//!
//! One exact f64 collision core for circles, capsules and convex polygons: the separating-axis
//! test as a report (every candidate axis, both projected intervals, the overlap or gap, the
//! minimum translation vector chosen by overlap *and* direction), contacts, closest points,
//! ray casts, time of impact, a broad phase, and a simulation that catches what goes wrong over
//! frames. The window (feature `gui`) and the command line (feature `cli`) draw and print what
//! this library returns; the file formats are specified in `docs/format.md`.
//!
//! # Which function do I call?
//!
//! | you want | call |
//! |---|---|
//! | to check the contact your engine reported, in your own test | [`check_contact`] |
//! | whether two shapes overlap, how deep, which way out, and the contact points | [`query::collide`] |
//! | every axis the separating-axis test tried, and why it decided | [`query::sat_report`] |
//! | everything the window shows of a pair (report, contact, closest points, region) | [`query::pair_report`] |
//! | the distance and closest points of two shapes apart | [`query::distance`] |
//! | the result exactly as `collidoscope query --json` prints it | [`query::summarize`] |
//! | where a segment first hits a shape | [`query::ray_cast`] |
//! | when two moving shapes first touch | [`query::time_of_impact`] |
//! | the intersecting pairs of many shapes | [`broad::Grid`] and [`broad::intersecting_candidates`] |
//! | what a known resolution bug would have reported | [`query::mistaken_report`] |
//! | a shape-set file read or written (exact round trip, atomic save) | [`scene::load`], [`scene::save`] |
//! | a fixture's pinned results checked again | [`fixture::verify`] |
//! | a scene stepped through time, with its events | [`motion::Simulation`] |
//! | what went wrong over time, in a simulation or a capture (one type) | [`event::Event`] |
//! | a game server's collisions from late packets | [`latency::PacketEngine`] |
//! | a lesson file read and checked, a slide as it opens, a lesson as a web page | [`lesson::Lesson::load`], [`lesson::stage`], [`lesson::page`] |
//!
//! ```
//! use collidoscope::geometry::{Circle, ConvexPolygon, DVec2, Placed, Pose};
//! use collidoscope::query::{collide, sat_report, Verdict};
//!
//! // A unit square and a circle sinking 0.25 into its top edge.
//! let square = Placed::new(ConvexPolygon::rectangle(DVec2::splat(1.0)).unwrap(), Pose::IDENTITY);
//! let ball = Placed::new(Circle::new(0.5).unwrap(), Pose::at(DVec2::new(0.2, 1.25)));
//!
//! let report = sat_report(&square, &ball);
//! assert!(matches!(report.verdict, Verdict::Intersecting { .. }));
//! let mtv = report.mtv.unwrap();
//! assert!((mtv.depth - 0.25).abs() < 1e-12);
//! assert!(mtv.normal.abs_diff_eq(DVec2::Y, 1e-12)); // push the ball up, out of the square
//!
//! // The fast path agrees and adds the contact point, halfway between the surfaces.
//! let contact = collide(&square, &ball).unwrap();
//! assert_eq!(contact.normal, mtv.normal);
//! assert!(contact.points[0].point.abs_diff_eq(DVec2::new(0.2, 0.875), 1e-12));
//! ```
//!
//! Checking your engine's contact in a test (what a fixture's generated test does for a file):
//!
//! ```
//! use collidoscope::geometry::{ConvexPolygon, DVec2, Placed, Pose};
//! use collidoscope::{Reported, check_contact};
//!
//! let floor = Placed::new(ConvexPolygon::rectangle(DVec2::new(5.0, 0.5)).unwrap(), Pose::IDENTITY);
//! let crate_ = Placed::new(ConvexPolygon::rectangle(DVec2::splat(0.5)).unwrap(), Pose::at(DVec2::new(0.0, 0.9)));
//! // What the engine said: 0.1 deep, pushing the crate up.
//! let check = check_contact(&floor, &crate_, &Reported::intersecting(0.1, DVec2::Y));
//! assert!(check.agrees, "{check}");
//! ```
//!
//! # Conventions
//!
//! Shape A and shape B: a normal points from A toward B (moving B by `depth * normal`
//! separates them); angles are radians, counter-clockwise; a world point is
//! `rotate(angle) * local + position`; two lengths agree when `|x - y| <= tol * (1 + |y|)`.
//!
//! # Features
//!
//! - `gui` (default): the window (`app`; eframe, egui_plot, rfd).
//! - `cli` (default): the command line (`cli`; clap, rayon, indicatif) and `render`'s PNG
//!   (resvg).
//!
//! With `default-features = false` this is the bare library: the core, the files, the drawing
//! description ([`picture`], plain data) and [`check_contact`], with glam, serde, serde_json,
//! smallvec and thiserror only, as a game's test needs it:
//!
//! ```toml
//! [dev-dependencies]
//! collidoscope = { path = "../collidoscope", default-features = false }
//! ```

#![warn(missing_docs)]

// The capture adapters name this crate as a game does (`collidoscope::capture::...`), so the
// tests can build them from the same source against real engines.
extern crate self as collidoscope;

#[cfg(feature = "gui")]
pub mod app;
pub mod broad;
pub mod capture;
#[cfg(feature = "cli")]
pub mod cli;
pub mod event;
pub mod files;
pub mod fixture;
pub mod geometry;
pub mod import;
pub mod judge;
pub mod latency;
pub mod lesson;
pub mod motion;
pub mod picture;
pub mod query;
pub mod scene;
pub mod series;
pub mod text;

pub use judge::agreement::{Agreement, f32_tolerance, largest_coordinate};
pub(crate) use judge::check::Exact;
pub use judge::check::{ContactCheck, check_contact, check_contact_at};
pub use judge::claim::Reported;
pub use judge::diagnose;
// The front door: everything a game's test needs to call `check_contact_at` and read its
// answer, without knowing the modules.
pub use geometry::{DVec2, Placed, Pose, Shape};
pub use judge::agreement::Differences;
pub use judge::check::claim_sentence;
pub use judge::check::contact_check;
pub use judge::check::contacts_off;
pub use judge::check::differences;
pub use judge::check::reported_sentence;
pub use judge::judgement::judgement;
pub use judge::judgement::{Cause, Judgement, Names};
pub use query::{ChainRule, Mistake, PairSummary, TwoSided};
pub use scene::Precision;
