//! From an editor's pixels to collidoscope: both Tiled and Godot measure in pixels with y
//! pointing down and turn positive angles clockwise on screen. A source point (x, y) becomes
//! (S·x, −S·y), lengths are × S, and a source rotation θ becomes −θ (docs/format.md,
//! "Import").

use crate::geometry::DVec2;
use std::f64::consts::TAU;
use std::fmt;
use std::path::PathBuf;

/// Points in an ellipse's outline when it becomes a polygon.
pub const ELLIPSE_POINTS: usize = 32;

/// The conversion, with S world units per source pixel.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Convert {
    /// S, finite and > 0.
    pub scale: f64,
}

impl Convert {
    /// A source point or offset, in collidoscope's frame.
    pub fn point(&self, x: f64, y: f64) -> DVec2 {
        // + 0.0: a coordinate of 0 is 0, not -0.
        DVec2::new(self.scale * x + 0.0, -self.scale * y + 0.0)
    }

    /// A source length (a radius, a width).
    pub fn length(&self, l: f64) -> f64 {
        self.scale * l
    }

    /// A source rotation (radians, clockwise on screen) as a collidoscope angle.
    pub fn angle(&self, theta: f64) -> f64 {
        // + 0.0: no turn is 0, not -0.
        -theta + 0.0
    }
}

/// In source coordinates, `p` turned by `theta` (y down: clockwise on screen).
pub fn rotate(p: DVec2, theta: f64) -> DVec2 {
    let (s, c) = theta.sin_cos();
    DVec2::new(c * p.x - s * p.y, s * p.x + c * p.y)
}

/// The inscribed 32-point polygon of the ellipse about `centre` with half-axes `rx`, `ry`
/// (source coordinates): (cx + rx·cos(2πk/32), cy + ry·sin(2πk/32)).
pub fn ellipse_points(centre: DVec2, rx: f64, ry: f64) -> Vec<DVec2> {
    (0..ELLIPSE_POINTS)
        .map(|k| {
            let a = TAU * k as f64 / ELLIPSE_POINTS as f64;
            centre + DVec2::new(rx * a.cos(), ry * a.sin())
        })
        .collect()
}

/// Consecutive repeated points (and a last point equal to the first) left out.
pub fn without_repeats(points: &[DVec2]) -> Vec<DVec2> {
    let mut out: Vec<DVec2> = Vec::with_capacity(points.len());
    for p in points {
        if out.last() != Some(p) {
            out.push(*p);
        }
    }
    while out.len() > 1 && out.first() == out.last() {
        out.pop();
    }
    out
}

/// One line about an object that was skipped, approximated or split, in the error
/// message's form: `maps/a.tmx: object 37 "player-start" (point): skipped: a point object has
/// no collision shape`.
#[derive(Clone, Debug, PartialEq)]
pub struct Note {
    /// The file the object is in.
    pub file: PathBuf,
    /// Where in it: `object 37 "player-start" (point)`, `node "Floor/CollisionShape2D"
    /// (CollisionShape2D)`.
    pub place: String,
    /// What happened to it.
    pub what: String,
    /// The name of the first shape it gave, when it gave any.
    pub shape: Option<String>,
    /// That shape's place in the imported set's shapes (what the window selects: names in a
    /// level need not be unique, 56 coins all named "Coin").
    pub index: Option<usize>,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.file.display(), self.place, self.what)
    }
}

/// Alike notes together: those that say the same words (`what`) of objects in one file, in
/// the order of each group's first note (42 coins, each a trigger, are one group).
pub fn alike(notes: &[Note]) -> Vec<Vec<&Note>> {
    let mut groups: Vec<Vec<&Note>> = Vec::new();
    for note in notes {
        let same = |g: &&mut Vec<&Note>| g[0].what == note.what && g[0].file == note.file;
        match groups.iter_mut().find(|g| same(g)) {
            Some(group) => group.push(note),
            None => groups.push(vec![note]),
        }
    }
    groups
}

/// The notes as the command line prints them: one line for each group of [`alike`] notes,
/// with their count and first places (`crate::import::alike_notes`).
pub fn note_lines(notes: &[Note]) -> Vec<String> {
    alike(notes)
        .iter()
        .map(|group| crate::import::alike_notes(group))
        .collect()
}

/// Standard base64 (padding optional), as Godot writes a PackedByteArray in format 4 and Tiled
/// its layer data.
pub fn base64(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text
        .bytes()
        .filter(|c| !c.is_ascii_whitespace() && *c != b'=')
    {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Some(out)
}

/// Alike import notes (the same words about several objects of one file) as one line: the
/// count and the first three places, `maps/a.tmx: 42 alike (node "Coins/Coin/Collision"
/// (CollisionShape2D), ... and 39 more): WHAT`.
pub fn alike_notes(notes: &[&crate::import::Note]) -> String {
    let Some(first) = notes.first() else {
        return String::new();
    };
    if notes.len() == 1 {
        return first.to_string();
    }
    let places: Vec<&str> = notes.iter().take(3).map(|n| n.place.as_str()).collect();
    let more = match notes.len() - places.len() {
        0 => String::new(),
        k => format!(" and {k} more"),
    };
    format!(
        "{}: {} alike ({}{more}): {}",
        first.file.display(),
        notes.len(),
        places.join(", "),
        first.what
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn y_flips_lengths_scale_and_angles_turn_the_other_way() {
        let c = Convert { scale: 0.5 };
        assert_eq!(c.point(32.0, 48.0), DVec2::new(16.0, -24.0));
        assert_eq!(c.length(10.0), 5.0);
        assert_eq!(c.angle(0.25), -0.25);
        // A quarter turn clockwise on a y-down screen takes +x to +y (down).
        let turned = rotate(DVec2::X, std::f64::consts::FRAC_PI_2);
        assert!((turned - DVec2::Y).length() < 1e-15);
        // ... which collidoscope, y up, sees as the point going down: -y.
        let seen = c.point(turned.x, turned.y) / c.scale;
        assert!((seen - DVec2::NEG_Y).length() < 1e-15);
    }

    #[test]
    fn an_ellipse_is_32_points_from_the_right_going_round() {
        let points = ellipse_points(DVec2::new(10.0, 5.0), 10.0, 5.0);
        assert_eq!(points.len(), 32);
        assert_eq!(points[0], DVec2::new(20.0, 5.0));
        assert!((points[8] - DVec2::new(10.0, 10.0)).length() < 1e-14);
    }

    #[test]
    fn repeats_and_a_closing_point_are_left_out() {
        let p = |x: f64, y: f64| DVec2::new(x, y);
        let given = [
            p(0.0, 0.0),
            p(1.0, 0.0),
            p(1.0, 0.0),
            p(1.0, 1.0),
            p(0.0, 0.0),
        ];
        assert_eq!(
            without_repeats(&given),
            [p(0.0, 0.0), p(1.0, 0.0), p(1.0, 1.0)]
        );
    }

    #[test]
    fn a_note_reads_like_an_error_message() {
        let note = Note {
            file: "maps/a.tmx".into(),
            place: "object 37 \"player-start\" (point)".into(),
            what: "skipped: a point object has no collision shape".into(),
            shape: None,
            index: None,
        };
        assert_eq!(
            note.to_string(),
            "maps/a.tmx: object 37 \"player-start\" (point): skipped: a point object has no collision shape"
        );
    }
}
