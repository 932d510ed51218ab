//! The command line's own words: what `diagnose` prints around a capture's sentences (the
//! pairs it lists, a mistake in short, the name table) and what it says while it waits for a
//! game. The library's sentences stay in `crate::text` and beside what they describe.

use crate::text::*;

/// After the pairs a capture's text lists, the ones it leaves out.
pub fn more_differing_pairs(pairs: usize, claims: u64) -> String {
    format!(
        "and {pairs} more pair{} ({claims} claim{}): diagnose --json gives every claim",
        if pairs == 1 { "" } else { "s" },
        if claims == 1 { "" } else { "s" }
    )
}

/// A mistake in a few words, for a table of names (the command line's help).
pub fn mistake_in_short(m: crate::query::Mistake) -> &'static str {
    use crate::query::Mistake;
    match m {
        Mistake::NormalReversed => "the normal points from B toward A",
        Mistake::NaiveSmallestOverlap => {
            "least interval overlap, axis sign as it comes (1e-4 threshold)"
        }
        Mistake::EdgeNormalsOnly => "no axis from a corner or segment end toward a rounded shape",
        Mistake::ShallowIgnored => "a penetration under 1e-4 is called apart",
        Mistake::InternalEdge => "a chain's piece collided alone, two-sided",
    }
}

/// Said of a disagreeing claim no age explains when the engine recycles contacts.
pub const RECYCLED_UNEXPLAINED: &str = "contact recycling is on: a recycled contact may come from poses the capture never held (between frames, or moved less than the recycle distance); no geometric fix applies until recycling is off while capturing";

/// Rows of `name  words`, the names padded to one column, each line indented by two.
pub fn name_table<'a>(rows: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let rows: Vec<(&str, &str)> = rows.into_iter().collect();
    let width = rows.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    rows.iter()
        .map(|(name, words)| format!("  {name:width$}  {words}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A capture with no claim: nothing was judged, which is not agreement.
pub const NO_CLAIMS: &str = "no claim to judge: the engine reported no contact in any frame (the writer leaves out sleeping bodies' contacts; a game that passes no contacts to the writer gives none)";

/// `diagnose --follow` on a capture the game has not made yet.
pub fn waiting_for_capture(path: &std::path::Path, idle: Option<std::time::Duration>) -> String {
    format!(
        "collidoscope diagnose --follow: waiting for {} (no file there yet: the game has not started writing it){}",
        path.display(),
        match idle {
            Some(idle) => format!(
                "; giving up after {} s (--idle)",
                short_number(idle.as_secs_f64())
            ),
            None => "; Ctrl-C stops".into(),
        }
    )
}

/// `diagnose --listen`: what it listens for, said once on stderr.
pub fn listening_for_game(port: u16, idle: Option<std::time::Duration>) -> String {
    format!(
        "collidoscope diagnose --listen: waiting on 127.0.0.1:{port} for a game's capture (a game \
         in a browser page streams to ws://127.0.0.1:{port}; any other, plain TCP){}",
        match idle {
            Some(idle) => format!(
                "; giving up after {} s without one (--idle)",
                short_number(idle.as_secs_f64())
            ),
            None => "; Ctrl-C stops".into(),
        }
    )
}

/// `diagnose --listen`: a game connected; where what it sends is kept.
pub fn game_connected_kept(engine: &str, kept: &std::path::Path) -> String {
    format!(
        "collidoscope diagnose --listen: {engine} connected; its capture is kept as {}",
        kept.display()
    )
}

/// `diagnose --listen`: no game came.
pub fn no_game_came(port: u16, idle: Option<std::time::Duration>) -> String {
    match idle {
        Some(idle) => format!(
            "127.0.0.1:{port}: no game connected in {} s of waiting (--idle)",
            short_number(idle.as_secs_f64())
        ),
        None => format!("127.0.0.1:{port}: stopped before a game connected"),
    }
}
