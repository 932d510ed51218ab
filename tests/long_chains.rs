//! A level's long floor as a chain, queried as a game queries it every step: a clone shares
//! its points, and `collide` against it costs what its nearby pieces cost, allocating nothing
//! that grows with the chain, with the same contact as the chain rule over every piece.

use collidoscope::geometry::{Chain, Circle, ConvexPolygon, DVec2, Placed, Pose};
use collidoscope::query::{chain_pieces, collide};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The system allocator, counting the bytes each thread asks for.
struct Counting;

thread_local! {
    static ASKED: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ASKED.try_with(|n| n.set(n.get() + layout.size()));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let _ = ASKED.try_with(|n| n.set(n.get() + new_size));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Bytes allocated on this thread while `run` runs, and its result.
fn asked<T>(run: impl FnOnce() -> T) -> (usize, T) {
    let before = ASKED.with(Cell::get);
    let out = run();
    (ASKED.with(Cell::get) - before, out)
}

/// A floor of 10,000 tiles, 1 m each, gently rolling, from right to left (its front, the
/// right-hand side of each piece, up).
fn floor() -> Placed {
    let points: Vec<DVec2> = (0..10_003)
        .rev()
        .map(|i| DVec2::new(i as f64, 0.05 * (i as f64 * 0.7).sin()))
        .collect();
    Placed::new(
        Chain::new(points, false).unwrap(),
        Pose::at(DVec2::new(-5000.0, 0.0)),
    )
}

#[test]
fn a_clone_of_a_long_chain_shares_its_points() {
    let floor = floor();
    let (bytes, copy) = asked(|| floor.clone());
    assert_eq!(
        bytes, 0,
        "a clone of a 10,003-point chain allocated {bytes} bytes"
    );
    assert_eq!(copy, floor);
}

#[test]
fn collide_with_a_long_chain_allocates_only_for_the_pieces_near() {
    let floor = floor();
    let crate_ = ConvexPolygon::rectangle(DVec2::splat(0.5)).unwrap();
    let ball = Circle::new(0.4).unwrap();
    for (k, x) in [-4990.3, -1234.5, 0.25, 17.0, 4990.6]
        .into_iter()
        .enumerate()
    {
        for other in [
            Placed::new(
                crate_.clone(),
                Pose::new(DVec2::new(x, 0.45), 0.1 * k as f64),
            ),
            Placed::new(ball, Pose::at(DVec2::new(x, 0.35))),
        ] {
            for (a, b) in [(&floor, &other), (&other, &floor)] {
                let (bytes, contact) = asked(|| collide(a, b));
                assert!(
                    bytes < 4096,
                    "collide at x = {x} allocated {bytes} bytes for a 10,000-piece chain"
                );
                // The same contact as the chain rule taken over every piece.
                let deepest = chain_pieces(a, b)
                    .into_iter()
                    .filter(|p| p.intersecting())
                    .max_by(|p, q| p.summary.depth.total_cmp(&q.summary.depth))
                    .map(|p| (p.summary.depth, p.summary.normal));
                let contact = contact.map(|c| (c.depth, Some(c.normal)));
                assert!(contact.is_some(), "nothing found at x = {x}");
                assert_eq!(contact, deepest, "at x = {x}");
            }
        }
    }
}
