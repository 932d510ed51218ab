//! collidoscope: 2D collision geometry you can see.
//!
//! The collision core: [`geometry`] holds the shapes and their validation; [`query`] answers
//! questions about a pair of placed shapes with plain data (the separating-axis test as a
//! report, the minimum translation vector, closest points, contacts). [`picture`] describes
//! what the window draws of them as plain marks, which `render` also writes as SVG or PNG.
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

#[cfg(feature = "gui")]
pub mod app;
pub mod broad;
#[cfg(feature = "cli")]
pub mod cli;
pub mod diagnose;
pub mod fixture;
pub mod geometry;
pub mod latency;
pub mod motion;
pub mod picture;
pub mod query;
pub mod scene;
pub mod text;
