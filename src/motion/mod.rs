//! Time: stepping a scene of static, kinematic and dynamic bodies, resolving contacts with the
//! correct test or a known mistake, and catching what goes wrong over frames (a body pushed
//! into an obstacle, a fast body tunnelling through a thin wall, a contact normal flipping).
//!
//! One step of `dt`, in [`Simulation::step`], split into substeps ([`Substeps`]): every
//! kinematic and dynamic body moves by its velocity (the motion convention of the file
//! format); then every pair whose boxes overlap and that has a dynamic body is resolved in
//! pair order (i < j) by the chosen [`Resolver`]: the dynamic body moves out along the
//! resolver's MTV (two dynamic bodies: half each) and loses the part of its velocity pointing
//! into the other shape, so it slides. With continuous collision ([`Config::ccd`]), a dynamic
//! body instead stops at its first contact with a static or kinematic shape within the
//! substep (the time of impact), and loses its velocity into it there.
//!
//! What a step did is told as [`Event`]s, measured exactly: `pushed-in` (the resolver's move
//! made the pair's true penetration deeper), `tunnelled` (the body's motion overlapped the
//! other shape, yet the step ended with them apart and nothing resolved), `normal-flip` (a
//! contact resolved in two consecutive steps reversed its normal), `still-penetrating` (after
//! the step the pair's true depth is above 1e-6). A [`Recording`] keeps every step's poses and
//! velocities compactly; replaying it runs the simulation again and compares bit for bit.
//!
//! No GUI crate here: the window's motion lab and `collidoscope simulate` both call this.

mod config;
mod events;
mod recording;
mod series;
mod simulation;
mod sweep;

pub use crate::event::{EventKind, SeamAt, counts, event_fix, event_in_short};
pub use config::{Config, ConfigError, MAX_SUBSTEPS, Resolver, Substeps};
pub use events::Event;
pub use recording::{BodyState, Recording, ReplayDivergence, replay};
pub use series::{PlotShape, plot_recording};
pub(crate) use simulation::crosses_interior;
pub use simulation::{
    Resolution, ResolverContact, STILL_PENETRATING, Simulation, StepOutcome, geometric_ranks,
    resolver_contacts, resolver_pair,
};
pub use sweep::{Cursor, Step, Sweep, sweeps};
