//! What of a lab's overlay a picture shows: plain switches, with no drawing in them, so that
//! what reads them (a lesson file's broad-phase slide) need not reach the drawing code.

/// What the broad-phase overlay shows (the broad-phase lab's switches, a lesson slide's
/// `show`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BroadShown {
    /// The grid's cells, with their occupancy as a heat map.
    pub cells: bool,
    /// A thin line between the centres of every candidate pair on screen.
    pub candidates: bool,
    /// The intersecting pairs, coloured.
    pub hits: bool,
}
