//! Labels that do not pile up: placed in order of importance, each at the first of a few spots
//! around its anchor where it overlaps no label placed before it and stays inside the view;
//! a label with no free spot is dropped.

use super::mark::{Colour, Rect, Vec2};

/// How much a label matters: more important ones are placed first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Importance {
    /// Grid numbers.
    Grid,
    /// Names of shapes outside the pair.
    Name,
    /// Names of the explained pair.
    PairName,
    /// An axis's overlap or gap.
    Axis,
    /// The headline: MTV, distance, a refused edit.
    Headline,
}

/// Text to paint at a point (text needs fonts, which only a painter has).
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// Where it wants to be (screen, the label's centre).
    pub at: Vec2,
    /// What.
    pub text: String,
    /// Colour.
    pub colour: Colour,
    /// How much it matters.
    pub importance: Importance,
    /// Grid numbers stay where they are (they sit at the view's edge by design).
    pub fixed: bool,
}

/// Where each kept label goes: `(label, its box)`, most important first, clear of the boxes
/// `taken` by labels placed before. `size` measures a text on screen.
pub fn place_around(
    mut labels: Vec<Label>,
    view: Rect,
    size: impl Fn(&str) -> Vec2,
    taken: &[Rect],
) -> Vec<(Label, Rect)> {
    labels.sort_by_key(|l| std::cmp::Reverse(l.importance));
    let mut placed: Vec<(Label, Rect)> = Vec::with_capacity(labels.len());
    let inner = view.shrink(2.0);
    for label in labels {
        if !label.fixed && !view.contains(label.at) {
            // What it names is off screen.
            continue;
        }
        let s = size(&label.text) + Vec2::new(4.0, 2.0);
        let (w, h) = (s.x, s.y);
        let spots: &[Vec2] = if label.fixed {
            &[Vec2::ZERO]
        } else {
            &[
                Vec2::ZERO,
                Vec2::new(0.0, -h),
                Vec2::new(0.0, h),
                Vec2::new(0.6 * w + 4.0, 0.0),
                Vec2::new(-0.6 * w - 4.0, 0.0),
                Vec2::new(0.0, -2.0 * h),
                Vec2::new(0.0, 2.0 * h),
            ]
        };
        let free = spots.iter().find_map(|offset| {
            let centre = clamp_inside(label.at + *offset, s, inner)?;
            let rect = Rect::from_centre_size(centre, s);
            (placed.iter().all(|(_, other)| !other.intersects(rect))
                && taken.iter().all(|other| !other.intersects(rect)))
            .then_some(rect)
        });
        if let Some(rect) = free {
            placed.push((label, rect));
        }
    }
    placed
}

/// `centre` moved so that a box of `size` around it lies inside `view`, if it fits at all.
fn clamp_inside(centre: Vec2, size: Vec2, view: Rect) -> Option<Vec2> {
    if size.x > view.width()
        || size.y > view.height()
        || !centre.x.is_finite()
        || !centre.y.is_finite()
    {
        return None;
    }
    let half = size * 0.5;
    Some(Vec2::new(
        centre.x.clamp(view.min.x + half.x, view.max.x - half.x),
        centre.y.clamp(view.min.y + half.y, view.max.y - half.y),
    ))
}

/// A label's size without fonts (the frame benchmark, a rendered picture): 7 points a
/// character, 15 high, about what the window's 13-point font takes.
pub fn estimated_size(text: &str) -> Vec2 {
    Vec2::new(7.0 * text.chars().count() as f32, 15.0)
}

/// `text` broken into lines no wider than `width` (as `size` measures them), at spaces; a
/// word wider than the line stands alone on its line.
pub fn wrap(text: &str, width: f32, size: impl Fn(&str) -> Vec2) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let longer = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if !line.is_empty() && size(&longer).x > width {
            lines.push(std::mem::replace(&mut line, word.to_string()));
        } else {
            line = longer;
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_wraps_at_spaces_within_the_width() {
        let lines = wrap("one two three four", 7.0 * 9.0, estimated_size);
        assert_eq!(lines, vec!["one two", "three", "four"]);
        assert_eq!(wrap("  ", 10.0, estimated_size), Vec::<String>::new());
        assert_eq!(
            wrap("unbreakable", 7.0, estimated_size),
            vec!["unbreakable"]
        );
    }
}
