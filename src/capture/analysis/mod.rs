//! What a capture says: each frame's claims judged ([`judge`], [`step`]), what happened over
//! time ([`events`], with contacts kept from earlier steps in [`kept`]), the runs of frames a
//! claim disagrees in ([`runs`]), two runs compared ([`diff`]), a whole capture on every core
//! ([`scan`]) and a capture opened to look around in ([`index`]).

pub mod diff;
pub mod event;
pub mod events;
#[cfg(feature = "parallel")]
pub mod index;
pub mod judge;
pub mod kept;
pub mod runs;
#[cfg(feature = "parallel")]
pub mod scan;
#[cfg(feature = "parallel")]
pub mod series;
pub mod step;
