//! collidoscope: 2D collision geometry you can see.
//!
//! The collision core: [`geometry`] holds the shapes and their validation; [`query`] answers
//! questions about a pair of placed shapes with plain data (the separating-axis test as a
//! report, the minimum translation vector, closest points, contacts).

pub mod geometry;
pub mod query;
