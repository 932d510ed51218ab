//! Late packets: what a game server knows about its players' collisions when their position
//! packets arrive late, out of order, twice or not at all.
//!
//! This is the latency-aware collision engine (LACE) idea, and what servers call lag
//! compensation (Source's rewound hitboxes): each packet goes into the time it was *sent*, not
//! the time it arrived. A player's [`Track`] is its packets ordered by `sent`, its pose between
//! two packets interpolated (position and angle), never extrapolated. Time is cut into bucket
//! rows at the multiples of a step S. When a packet arrives, only the rows its span of the
//! track changed (from the packet before it to the packet after it) are checked, each against
//! the other players there: a pair that now intersects is a **collision** found in the past,
//! detected when the packet arrived; one reported earlier that no longer intersects is
//! **retracted**. With `swept`, the intervals between rows are checked too, by the time of
//! impact along the interpolated tracks. Rows every player has passed are retired (their cache
//! dropped; their standing collisions kept, so even a very late packet is handled exactly).
//!
//! After the last packet, collisions minus retractions equal what one pass over all packets
//! finds ([`one_pass`]). [`generate`] makes a log from a recording and a network model, so the
//! effect of a given latency, jitter and loss on the collisions can be seen.
//!
//! The file format and `collidoscope packets` are in docs/format.md ("Packet logs"). No GUI crate.

mod engine;
mod findings;
mod generate;
mod log;
mod reference;
mod series;
mod swept;
mod track;

pub use engine::{
    CHECKS_AT_START, CHECKS_PER_PACKET, Effect, GRID_FROM, PacketEngine, PlayerAt, PushError,
    ROW_BY_ROW, STOPPED_AFTER, SWEPT_WEIGHT, Settings, buckets_in, intervals_meeting,
};
pub use findings::{Collision, Finding, Retraction, standing, taken_back};
pub use generate::{Network, generate, truth_at};
pub use log::{FORMAT, MAX_TIME_MS, Packet, PacketLog, Player, VERSION, is_packet_log_text};
pub use reference::one_pass;
pub use series::{MAX_FRAMES, default_step, player_now, plot_log, plot_packet_log};
pub use swept::{SweptBox, swept_contact};
pub use track::{Knowledge, Sample, Track};
