use serde::Serialize;

/// A closed range `[min, max]` on an axis: a shape's projection (its "shadow") onto it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Interval {
    /// Smallest projected value.
    pub min: f64,
    /// Largest projected value.
    pub max: f64,
}

impl Interval {
    /// The interval `[min, max]`.
    pub fn new(min: f64, max: f64) -> Self {
        Self { min, max }
    }

    /// `max - min`.
    pub fn length(&self) -> f64 {
        self.max - self.min
    }

    /// How far `other` must move in the + direction to stop overlapping `self`
    /// (`self.max - other.min`; negative when `other` already lies beyond `self`).
    #[inline(always)]
    pub fn push_forward(&self, other: &Interval) -> f64 {
        self.max - other.min
    }

    /// How far `other` must move in the - direction to stop overlapping `self`
    /// (`other.max - self.min`).
    #[inline(always)]
    pub fn push_backward(&self, other: &Interval) -> f64 {
        other.max - self.min
    }

    /// The signed overlap with `other`: the smaller of the two pushes that separate them.
    /// Positive means overlapping by that much; negative is the gap between them.
    /// Symmetric: `a.overlap(&b) == b.overlap(&a)`.
    #[inline(always)]
    pub fn overlap(&self, other: &Interval) -> f64 {
        // Plain comparisons, not f64::min: projections of validated shapes are never NaN.
        let (forward, backward) = (self.push_forward(other), self.push_backward(other));
        if forward < backward {
            forward
        } else {
            backward
        }
    }

    /// The length of the common part (`min(max) - max(min)`): what the naive rule of
    /// many SAT tutorials calls the overlap. Unlike [`Interval::overlap`] it ignores which way is shorter
    /// when one interval contains the other.
    pub fn intersection_length(&self, other: &Interval) -> f64 {
        self.max.min(other.max) - self.min.max(other.min)
    }

    /// The stretch between the two intervals' inner ends: the part both cover when they
    /// overlap, the gap between them when they do not (a single point when they touch).
    /// Always `min <= max`.
    pub fn between(&self, other: &Interval) -> Interval {
        let (lo, hi) = (self.min.max(other.min), self.max.min(other.max));
        Interval::new(lo.min(hi), lo.max(hi))
    }

    /// The middle of the interval.
    pub fn middle(&self) -> f64 {
        0.5 * (self.min + self.max)
    }
}
