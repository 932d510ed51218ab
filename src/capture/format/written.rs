//! The frame line laid out byte for byte as collidoscope's own writer lays it out
//! (`write.rs`, `write_text.rs`): its keys in the writer's order, no spaces, every shape entry
//! only moving, no malformed entries. Read here without a JSON library, each number to the
//! double the standard library's correctly rounded parser gives (`decimal.rs`, or that parser
//! itself where `decimal.rs` cannot be sure; the value `serde_json`'s `float_roundtrip` gives
//! the same text), into the same values the typed path (`fast.rs`) reads with `serde`,
//! and checked there. Anything else, a space or a key out of the writer's order included, is
//! not this reader's: it answers `None` and the line goes on to `serde`.

use super::parsed::{ClaimIn, Line, Moved};
use std::cell::Cell;

thread_local! {
    /// How many shapes and claims the last line read on this thread held: the next line of a
    /// capture most likely holds as many, so its lists are made that long at once instead of
    /// growing (and being copied) about ten times each.
    static LAST: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

/// The line, if the writer laid it out.
pub(super) fn line(bytes: &[u8]) -> Option<Line> {
    read_line(bytes, true)
}

/// [`line`] without its claims (their list left empty, not read): for a line a scan has
/// already read whole and found good, passed on the way to a later frame, whose claims no one
/// asks for. `None` for a line not in the writer's layout up to its claims, or not ending as
/// a line of that layout ends.
pub(super) fn line_without_claims(bytes: &[u8]) -> Option<Line> {
    read_line(bytes, false)
}

/// [`line`], with its claims read or (`with_claims` false) passed over.
#[inline(always)]
fn read_line(bytes: &[u8], with_claims: bool) -> Option<Line> {
    let (shapes_before, claims_before) = LAST.get();
    let mut r = Bytes { bytes, at: 0 };
    let (frame, time) = r.head()?;
    let shapes = r.list_of(shapes_before, Bytes::moved)?;
    let removed = if r.eat(b",\"removed\":") {
        r.list(Bytes::int)?
    } else {
        Vec::new()
    };
    r.expect(b",\"claims\":")?;
    let claims = if with_claims {
        let claims = r.list_of(claims_before, Bytes::claim)?;
        r.expect(b"}")?;
        r.end()?;
        claims
    } else {
        // Whole: the claims' brackets balanced and the line's own brace closed last, where a
        // line cut off by a crash has more opened than closed (the writer's keys and numbers
        // hold no brackets).
        let closed = bytes[r.at..].iter().fold(0i64, |depth, b| {
            depth + i64::from(matches!(b, b']' | b'}')) - i64::from(matches!(b, b'[' | b'{'))
        });
        if closed != 1 || bytes.last() != Some(&b'}') {
            return None;
        }
        Vec::new()
    };
    let claims_now = if with_claims {
        claims.len()
    } else {
        claims_before
    };
    LAST.set((shapes.len(), claims_now));
    Some(Line {
        frame,
        time,
        shapes,
        removed,
        claims,
    })
}

/// A line in the writer's layout whose every shape entry only moves (no shape added, removed
/// or changed but in its pose and velocities), read only as far as its shapes' ids: its frame
/// and time, with each entry's `(id, where it starts)` put in `entries`. Their numbers are
/// passed over, not read (for a line a scan has read whole and found good); `None` for any
/// other line.
pub(super) fn moving_entries(bytes: &[u8], entries: &mut Vec<(u64, usize)>) -> Option<(u64, f64)> {
    entries.clear();
    let mut r = Bytes { bytes, at: 0 };
    let (frame, time) = r.head()?;
    r.expect(b"[")?;
    if !r.eat(b"]") {
        loop {
            let at = r.at;
            entries.push((r.passed_moved()?, at));
            if r.eat(b"]") {
                break;
            }
            r.expect(b",")?;
        }
    }
    r.expect(b",\"claims\":")?;
    Some((frame, time))
}

/// The entry starting at `at` of a line [`moving_entries`] took, its numbers read.
pub(super) fn moved_at(bytes: &[u8], at: usize) -> Option<Moved> {
    Bytes { bytes, at }.moved()
}

/// The high bit of each byte of `v` (read little-endian) that is not a decimal digit, exact up
/// to the first such byte: a carry or borrow only goes up, from a byte that is not a digit, so
/// the lowest bit set marks the first byte that is not one (`trailing_zeros / 8` digits come
/// before it).
fn not_digits(v: u64) -> u64 {
    let a = v.wrapping_add(0x4646_4646_4646_4646);
    let b = v.wrapping_sub(0x3030_3030_3030_3030);
    (a | b) & 0x8080_8080_8080_8080
}

/// 10^k for the up to seven digits a partial word folds in.
const TENS: [u64; 8] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000];

/// Eight decimal digits (read little-endian, the first in the lowest byte) as a number, in
/// three multiplications (the standard library's `parse_8digits`).
fn parse_eight(mut v: u64) -> u64 {
    const MASK: u64 = 0x0000_00FF_0000_00FF;
    const MUL1: u64 = 0x000F_4240_0000_0064;
    const MUL2: u64 = 0x0000_2710_0000_0001;
    v -= 0x3030_3030_3030_3030;
    v = (v * 10) + (v >> 8);
    let v1 = (v & MASK).wrapping_mul(MUL1);
    let v2 = ((v >> 16) & MASK).wrapping_mul(MUL2);
    u64::from((v1.wrapping_add(v2) >> 32) as u32)
}

/// The line, byte by byte. Every byte is matched against the writer's keys, punctuation and
/// digits, all ASCII, so the line is never checked as text as a whole: a byte that is not ASCII
/// matches nothing, and the line goes on to `serde`.
struct Bytes<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Bytes<'_> {
    /// Whether `text` comes next (then stepped over).
    fn eat(&mut self, text: &[u8]) -> bool {
        let found = self.bytes[self.at..].starts_with(text);
        if found {
            self.at += text.len();
        }
        found
    }

    fn expect(&mut self, text: &[u8]) -> Option<()> {
        self.eat(text).then_some(())
    }

    fn end(&self) -> Option<()> {
        (self.at == self.bytes.len()).then_some(())
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// A JSON integer as the writer writes ids and frames: `0` or digits without a leading
    /// zero, within u64.
    fn int(&mut self) -> Option<u64> {
        let start = self.at;
        // Wraps past 19 digits: those are folded again, checked.
        let n = self.digits_into(0);
        let digits = self.at - start;
        if digits == 0 || (digits > 1 && self.bytes[start] == b'0') {
            return None;
        }
        if digits > 19 {
            return self.bytes[start..self.at].iter().try_fold(0u64, |n, b| {
                n.checked_mul(10)?.checked_add(u64::from(b - b'0'))
            });
        }
        Some(n)
    }

    /// The next byte's value as a decimal digit (then stepped over).
    fn digit(&mut self) -> Option<u64> {
        let d = self.peek()?.wrapping_sub(b'0');
        (d < 10).then(|| {
            self.at += 1;
            u64::from(d)
        })
    }

    /// A JSON number (`-? int frac? exp?`), finite as a double, exactly as the standard
    /// library's correctly rounded parser reads it: its digits gathered as they are checked
    /// (eight at a time where eight come), then rounded by `decimal.rs`, or by the standard
    /// library where that cannot be sure (more than 19 significant digits, an exponent past
    /// ±40, a product too close to halfway).
    fn number(&mut self) -> Option<f64> {
        let start = self.at;
        let negative = self.eat(b"-");
        let first = self.at;
        // Wraps past 19 significant digits: those go to the standard library.
        let mut whole = self.digits_into(0);
        let int_digits = self.at - first;
        if int_digits == 0 || (int_digits > 1 && self.bytes[first] == b'0') {
            return None;
        }
        let mut fraction = 0;
        if self.eat(b".") {
            let from = self.at;
            whole = self.digits_into(whole);
            fraction = self.at - from;
            if fraction == 0 {
                return None;
            }
        }
        let mut exponent: i64 = 0;
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            let negative = self.eat(b"-") || {
                self.eat(b"+");
                false
            };
            let from = self.at;
            while let Some(d) = self.digit() {
                // Saturates long before it could wrap: any such exponent is the library's.
                exponent = (exponent * 10 + d as i64).min(1 << 32);
            }
            if self.at == from {
                return None;
            }
            if negative {
                exponent = -exponent;
            }
        }
        let text = &self.bytes[first..self.at];
        let digits = int_digits + fraction;
        let fitted = digits <= 19 || {
            // Leading zeros hold no digit of the whole.
            let zeros = text.iter().take_while(|&&b| b == b'0' || b == b'.').count();
            let dot = usize::from(text.starts_with(b"0."));
            digits - (zeros - dot) <= 19
        };
        let exact = fitted
            .then(|| super::decimal::double(negative, whole, exponent - fraction as i64))
            .flatten();
        let x = match exact {
            Some(x) => x,
            // The number's bytes, checked to be digits, signs, a point and an `e`, are text.
            None => std::str::from_utf8(&self.bytes[start..self.at])
                .ok()?
                .parse()
                .ok()?,
        };
        x.is_finite().then_some(x)
    }

    /// The digits that come next folded into `whole` (wrapping), eight at a time where
    /// eight come, and the fewer before the first byte that is not a digit in one step too
    /// (where eight bytes are left to read them from): the same sum, modulo 2^64, as one digit
    /// at a time.
    #[inline(always)]
    fn digits_into(&mut self, mut whole: u64) -> u64 {
        while let Some(chunk) = self.bytes.get(self.at..self.at + 8) {
            let v = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            let stops = not_digits(v);
            if stops != 0 {
                let k = (stops.trailing_zeros() / 8) as usize;
                if k == 1 {
                    // One digit (a number's whole part, mostly): by itself, cheaper.
                    whole = whole.wrapping_mul(10).wrapping_add((v & 0xFF) - 0x30);
                    self.at += 1;
                } else if k > 1 {
                    // The k digits moved up to the word's top, '0's below them: the same
                    // number as eight digits.
                    let shift = 8 * (8 - k as u32);
                    let zeros = 0x3030_3030_3030_3030_u64 >> (64 - shift);
                    let digits = parse_eight((v << shift) | zeros);
                    whole = whole.wrapping_mul(TENS[k]).wrapping_add(digits);
                    self.at += k;
                }
                return whole;
            }
            whole = whole.wrapping_mul(100_000_000).wrapping_add(parse_eight(v));
            self.at += 8;
        }
        while let Some(d) = self.digit() {
            whole = whole.wrapping_mul(10).wrapping_add(d);
        }
        whole
    }

    fn point(&mut self) -> Option<[f64; 2]> {
        self.expect(b"[")?;
        let x = self.number()?;
        self.expect(b",")?;
        let y = self.number()?;
        self.expect(b"]")?;
        Some([x, y])
    }

    /// `[item,item,...]`.
    fn list<T>(&mut self, item: fn(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.list_of(0, item)
    }

    /// [`Self::list`], room made for `likely` items at once.
    fn list_of<T>(&mut self, likely: usize, item: fn(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.expect(b"[")?;
        let mut items = Vec::with_capacity(likely);
        if self.eat(b"]") {
            return Some(items);
        }
        loop {
            items.push(item(self)?);
            if self.eat(b"]") {
                return Some(items);
            }
            self.expect(b",")?;
        }
    }

    /// `,"key":` and its value, when `key` comes next.
    fn key<T>(&mut self, key: &[u8], value: fn(&mut Self) -> Option<T>) -> Option<Option<T>> {
        let start = self.at;
        if !(self.eat(b",\"") && self.eat(key) && self.eat(b"\":")) {
            self.at = start;
            return Some(None);
        }
        value(self).map(Some)
    }

    /// A shape entry that only moves: its id, then the writer's pose keys in its order.
    fn moved(&mut self) -> Option<Moved> {
        self.expect(b"{\"id\":")?;
        let id = self.int()?;
        let position = self.key(b"position", Self::point)?;
        let angle = self.key(b"angle", Self::number)?;
        let velocity = self.key(b"velocity", Self::point)?;
        let angular_velocity = self.key(b"angular_velocity", Self::number)?;
        self.expect(b"}")?;
        Some(Moved {
            id,
            position,
            angle,
            velocity,
            angular_velocity,
        })
    }

    /// A frame line's start, `{"frame":N,"time":T,"shapes":`: its frame and time.
    fn head(&mut self) -> Option<(u64, f64)> {
        self.expect(b"{\"frame\":")?;
        let frame = self.int()?;
        self.expect(b",\"time\":")?;
        let time = self.number()?;
        self.expect(b",\"shapes\":")?;
        Some((frame, time))
    }

    /// [`Self::moved`] passed over: its id, its keys checked to be the pose keys, its values
    /// not read (each ends where the layout ends it: a point at its `]`, a number at the `,`
    /// or `}` after it).
    fn passed_moved(&mut self) -> Option<u64> {
        self.expect(b"{\"id\":")?;
        let id = self.int()?;
        loop {
            match self.peek()? {
                b'}' => {
                    self.at += 1;
                    return Some(id);
                }
                b',' => {}
                _ => return None,
            }
            let rest = &self.bytes[self.at..];
            let (key, point) = [
                (&b",\"position\":"[..], true),
                (b",\"angle\":", false),
                (b",\"velocity\":", true),
                (b",\"angular_velocity\":", false),
            ]
            .into_iter()
            .find(|(key, _)| rest.starts_with(key))?;
            let value = &rest[key.len()..];
            let length = if point {
                value.iter().position(|&b| b == b']')? + 1
            } else {
                value.iter().position(|&b| b == b',' || b == b'}')?
            };
            self.at += key.len() + length;
        }
    }

    fn flag(&mut self) -> Option<bool> {
        if self.eat(b"true") {
            Some(true)
        } else if self.eat(b"false") {
            Some(false)
        } else {
            None
        }
    }

    /// A claim as `push_claim` writes it.
    fn claim(&mut self) -> Option<ClaimIn> {
        self.expect(b"{\"a\":")?;
        let a = self.int()?;
        self.expect(b",\"b\":")?;
        let b = self.int()?;
        self.expect(b",\"intersecting\":")?;
        let intersecting = self.flag()?;
        let depth = self.key(b"depth", Self::number)?;
        let normal = self.key(b"normal", Self::point)?;
        let separation = self.key(b"separation", Self::number)?;
        let contacts = self.key(b"contacts", |r| r.list(Self::point))?;
        let piece = self.key(b"piece", Self::int)?;
        let impulses = self.key(b"impulses", |r| r.list(Self::number))?;
        self.expect(b"}")?;
        Some(ClaimIn {
            a,
            b,
            intersecting,
            depth,
            normal,
            distance: None,
            contacts,
            piece,
            separation,
            impulses,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::parsed::Line;
    use super::super::write_text::{push_claim, push_number, push_point};
    use crate::Reported;
    use crate::geometry::DVec2;
    use proptest::prelude::*;

    /// Every value of a line, bit for bit.
    fn values(line: &Line) -> String {
        let bits = |x: f64| format!("{:x}", x.to_bits());
        let point = |p: [f64; 2]| format!("{}/{}", bits(p[0]), bits(p[1]));
        let mut out = format!("{} {} {:?};", line.frame, bits(line.time), line.removed);
        for m in &line.shapes {
            out += &format!(
                "{} {:?} {:?} {:?} {:?};",
                m.id,
                m.position.map(point),
                m.angle.map(bits),
                m.velocity.map(point),
                m.angular_velocity.map(bits)
            );
        }
        for c in &line.claims {
            out += &format!(
                "{} {} {} {:?} {:?} {:?} {:?} {:?} {:?} {:?};",
                c.a,
                c.b,
                c.intersecting,
                c.depth.map(bits),
                c.normal.map(point),
                c.distance.map(bits),
                c.contacts
                    .as_ref()
                    .map(|l| l.iter().map(|p| point(*p)).collect::<Vec<_>>()),
                c.piece,
                c.separation.map(bits),
                c.impulses
                    .as_ref()
                    .map(|l| l.iter().map(|x| bits(*x)).collect::<Vec<_>>()),
            );
        }
        out
    }

    /// A finite double of every sort: f32 values as an engine's, tiny, huge, negative zero.
    fn double() -> impl Strategy<Value = f64> {
        prop_oneof![
            6 => any::<f32>().prop_filter("finite", |x| x.is_finite()).prop_map(f64::from),
            2 => any::<f64>().prop_filter("finite", |x| x.is_finite()),
            1 => prop_oneof![Just(-0.0), Just(0.0), Just(f64::MAX), Just(f64::MIN_POSITIVE), Just(5e-324)],
        ]
    }

    fn point() -> impl Strategy<Value = DVec2> {
        (double(), double()).prop_map(|(x, y)| DVec2::new(x, y))
    }

    /// A line as the writer lays it out, from its values.
    fn written() -> impl Strategy<Value = String> {
        let id = prop_oneof![8 => 0u64..20, 1 => Just(u64::MAX), 1 => Just(1 << 53)];
        let moved = (
            id.clone(),
            proptest::option::of(point()),
            proptest::option::of(double()),
            proptest::option::of(point()),
            proptest::option::of(double()),
        );
        let claim = (
            (id.clone(), id.clone(), any::<bool>()),
            proptest::option::of(double()),
            proptest::option::of(point()),
            proptest::option::of(double()),
            proptest::option::of(proptest::collection::vec(point(), 0..3)),
            proptest::option::of(0usize..4),
            proptest::option::of(proptest::collection::vec(double(), 0..3)),
        );
        (
            any::<u64>(),
            double(),
            proptest::collection::vec(moved, 0..4),
            proptest::option::of(proptest::collection::vec(id, 1..3)),
            proptest::collection::vec(claim, 0..4),
        )
            .prop_map(|(frame, time, shapes, removed, claims)| {
                let mut text = format!("{{\"frame\":{frame},\"time\":").into_bytes();
                push_number(&mut text, time);
                text.extend_from_slice(b",\"shapes\":[");
                for (i, (id, position, angle, velocity, spin)) in shapes.into_iter().enumerate() {
                    if i > 0 {
                        text.push(b',');
                    }
                    text.extend_from_slice(format!("{{\"id\":{id}").as_bytes());
                    if let Some(p) = position {
                        text.extend_from_slice(b",\"position\":");
                        push_point(&mut text, p);
                    }
                    if let Some(a) = angle {
                        text.extend_from_slice(b",\"angle\":");
                        push_number(&mut text, a);
                    }
                    if let Some(v) = velocity {
                        text.extend_from_slice(b",\"velocity\":");
                        push_point(&mut text, v);
                    }
                    if let Some(w) = spin {
                        text.extend_from_slice(b",\"angular_velocity\":");
                        push_number(&mut text, w);
                    }
                    text.push(b'}');
                }
                text.push(b']');
                if let Some(removed) = removed {
                    let ids: Vec<String> = removed.iter().map(u64::to_string).collect();
                    text.extend_from_slice(format!(",\"removed\":[{}]", ids.join(",")).as_bytes());
                }
                text.extend_from_slice(b",\"claims\":[");
                for (
                    i,
                    ((a, b, intersecting), depth, normal, separation, contacts, piece, impulses),
                ) in claims.into_iter().enumerate()
                {
                    if i > 0 {
                        text.push(b',');
                    }
                    let claim = Reported {
                        intersecting,
                        depth,
                        normal,
                        contacts,
                        distance: None,
                        piece,
                        separation,
                        impulses,
                    };
                    push_claim(&mut text, a, b, &claim);
                }
                text.extend_from_slice(b"]}");
                String::from_utf8(text).expect("the writer writes ASCII")
            })
    }

    /// One small change a hand or another tool might make: a character dropped, doubled or
    /// replaced, a space added.
    fn spoiled() -> impl Strategy<Value = String> {
        (
            written(),
            any::<prop::sample::Index>(),
            0u8..5,
            prop::sample::select(b" 0-+.eE,:[]{}\"1x".to_vec()),
        )
            .prop_map(|(text, at, how, byte)| {
                let mut bytes = text.into_bytes();
                let i = at.index(bytes.len());
                match how {
                    0 => {
                        bytes.remove(i);
                    }
                    1 => bytes.insert(i, bytes[i]),
                    2 => bytes[i] = byte,
                    3 => bytes.insert(i, b' '),
                    _ => bytes.insert(i, byte),
                }
                String::from_utf8_lossy(&bytes).into_owned()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        /// Every line the writer lays out is read here, to the values `serde` reads.
        #[test]
        fn the_writers_layout_is_read_as_serde_reads_it(text in written()) {
            let ours = super::line(text.as_bytes());
            prop_assert!(ours.is_some(), "not read: {text}");
            let theirs: Line = serde_json::from_slice(text.as_bytes()).expect("serde reads it");
            prop_assert_eq!(values(&ours.unwrap()), values(&theirs), "{}", text);
        }

        /// A line passed over (on the way to a later frame) names each shape entry's id and
        /// where it starts, and the entry read there gives the values the whole line gives; a
        /// line that removes shapes is not passed over so.
        #[test]
        fn a_line_passed_over_finds_every_entry_as_reading_it_does(text in written()) {
            let bytes = text.as_bytes();
            let whole = super::line(bytes).expect("read");
            let mut entries = Vec::new();
            let passed = super::moving_entries(bytes, &mut entries);
            if !whole.removed.is_empty() {
                prop_assert!(passed.is_none(), "{}", text);
                return Ok(());
            }
            let (frame, time) = passed.expect("passed over");
            let mut shapes = Vec::new();
            for (id, at) in &entries {
                let moved = super::moved_at(bytes, *at).expect("read where it starts");
                prop_assert_eq!(moved.id, *id);
                shapes.push(moved);
            }
            let again = Line { frame, time, shapes, removed: Vec::new(), claims: Vec::new() };
            let mut expected = whole;
            expected.claims.clear();
            prop_assert_eq!(values(&again), values(&expected), "{}", text);
        }

        /// Read without its claims, a line of the writer's layout gives the same frame, time,
        /// shapes and removed ids, and no claims; cut off anywhere in its claims (a crash
        /// mid-write), it is not read so.
        #[test]
        fn a_line_read_without_its_claims_keeps_everything_else(
            text in written(),
            cut in 0.0..1.0f64,
        ) {
            let whole = super::line(text.as_bytes()).expect("read");
            let passed = super::line_without_claims(text.as_bytes());
            prop_assert!(passed.is_some(), "not read: {text}");
            let mut expected = whole;
            expected.claims.clear();
            prop_assert_eq!(values(&passed.unwrap()), values(&expected), "{}", text);
            let claims_at = text.find(",\"claims\":").expect("a claims key") + 10;
            let end = claims_at + ((text.len() - 1 - claims_at) as f64 * cut) as usize;
            let cut_off = &text.as_bytes()[..end];
            prop_assert!(super::line_without_claims(cut_off).is_none(), "{}", text);
        }

        /// A line changed by a character is read here only if `serde` reads it to the same
        /// values; otherwise it is left to `serde` (and the full reader).
        #[test]
        fn a_spoiled_line_is_read_only_as_serde_reads_it(text in spoiled()) {
            if let Some(ours) = super::line(text.as_bytes()) {
                let theirs: Result<Line, _> = serde_json::from_slice(text.as_bytes());
                prop_assert!(theirs.is_ok(), "read here, refused by serde: {text}");
                prop_assert_eq!(values(&ours), values(&theirs.unwrap()), "{}", text);
            }
        }
    }

    /// A line that adds a shape, or changes one in more than its pose and velocities, is not
    /// passed over as a line whose shapes only move (a seek applies it as it comes).
    #[test]
    fn a_line_that_changes_more_than_poses_is_not_passed_over() {
        let line = |entry: &str| {
            format!(
                r#"{{"frame":1,"time":1,"shapes":[{{"id":2,"angle":0.5}},{entry}],"claims":[]}}"#
            )
        };
        for entry in [
            r#"{"id":3,"kind":"circle","radius":1,"position":[0,0]}"#,
            r#"{"id":3,"position":[1,2],"body":"static"}"#,
            r#"{"id":3,"filter":{"group":1},"position":[1,2]}"#,
            r#"{"id":3,"position":[1,2],"name":"ball"}"#,
            r#"{"id":3,"angle":1,"body_id":null}"#,
        ] {
            let text = line(entry);
            assert!(
                super::moving_entries(text.as_bytes(), &mut Vec::new()).is_none(),
                "{text}"
            );
        }
        let text =
            line(r#"{"id":3,"position":[1,2],"angle":3,"velocity":[0,1],"angular_velocity":-1}"#);
        let mut entries = Vec::new();
        assert_eq!(
            super::moving_entries(text.as_bytes(), &mut entries),
            Some((1, 1.0))
        );
        assert_eq!(entries.iter().map(|e| e.0).collect::<Vec<_>>(), [2, 3]);
    }

    /// What comes after a number in a line, to read it from: nothing (the digits one at a
    /// time), and each closing the writer writes (eight bytes ahead, read a word at a time).
    const AFTER: [&str; 4] = ["", "]", "],\"angle\":0", "},{\"id\":12"];

    /// `text` read by `value` here, if all of it is read: the same (compared by `bits`)
    /// alone and followed by each of [`AFTER`] (asserted).
    fn read_before_each<T: Copy>(
        text: &str,
        value: fn(&mut super::Bytes) -> Option<T>,
        bits: fn(T) -> u64,
    ) -> Option<T> {
        let read = |after: &str| {
            let line = format!("{text}{after}");
            let mut r = super::Bytes {
                bytes: line.as_bytes(),
                at: 0,
            };
            value(&mut r).filter(|_| r.at == text.len())
        };
        let alone = read(AFTER[0]);
        for after in &AFTER[1..] {
            assert_eq!(read(after).map(bits), alone.map(bits), "{text}{after}");
        }
        alone
    }

    /// `text` read as a number here, if all of it is one: the same whatever comes after it
    /// (asserted).
    fn number(text: &str) -> Option<f64> {
        read_before_each(text, |r| r.number(), f64::to_bits)
    }

    /// Ids and frames (`0` or digits without a leading zero, within u64) are read as the
    /// standard library reads a u64, whatever comes after them: random ones of 1 to 20 digits,
    /// u64's largest and past it, and the ones the grammar refuses.
    #[test]
    fn whole_numbers_are_read_as_the_standard_library_reads_them() {
        let int = |text: &str| read_before_each(text, |r| r.int(), |n| n);
        let mut r = crate::scene::generate::Random::new(67);
        let mut texts: Vec<String> = [
            "0",
            "7",
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999",
            "100000000000000000000",
        ]
        .map(String::from)
        .to_vec();
        for _ in 0..200_000 {
            let digits = 1 + (r.unit() * 20.0) as u32;
            let n = ((r.unit() * 2f64.powi(64)) as u64) % 10u64.saturating_pow(digits).max(1);
            texts.push(n.to_string());
            texts.push(format!("{}{n}", 1 + (r.unit() * 9.0) as u64));
        }
        for text in &texts {
            assert_eq!(int(text), text.parse::<u64>().ok(), "{text}");
        }
        for bad in ["", "01", "00", "-1", "+1", "1.5"] {
            assert_eq!(int(bad), None, "{bad}");
        }
    }

    /// Every number is read to the standard library's double, bit for bit: 4 million of
    /// every sort (the shortest text of random doubles and of f32 values, plain and with an
    /// exponent; random digits, up to 25 of them, with and without an exponent; whole numbers
    /// past 2^53, where ties round to even; numbers at the edges of the exponents taken
    /// without the standard library).
    #[test]
    fn numbers_are_read_as_the_standard_library_reads_them() {
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut checked = 0;
        for round in 0..500_000 {
            let bits = next();
            let double = f64::from_bits(bits);
            let single = f64::from(f32::from_bits(bits as u32));
            let digits = |n: u64, count: u64| -> String {
                (0..count)
                    .map(|i| char::from(b'0' + ((n >> (i % 60)) % 10) as u8))
                    .collect()
            };
            let r = next();
            let whole = match r % 4 {
                0 => "0".to_string(),
                _ => format!("{}", r % 1000 + 1),
            };
            let fraction = digits(next(), next() % 25);
            let exponent = (next() % 100) as i64 - 50;
            let sign = if r & 16 == 0 { "" } else { "-" };
            let mut texts = vec![
                format!(
                    "{sign}{whole}.{}",
                    if fraction.is_empty() { "0" } else { &fraction }
                ),
                format!("{sign}{whole}e{exponent}"),
                format!("{sign}{whole}.{fraction}1E+{}", exponent.abs()),
                format!(
                    "{}",
                    (1u64 << 53) + next() % (10_000_000_000_000_000_000 - (1 << 53))
                ),
            ];
            if double.is_finite() {
                texts.push(format!("{double}"));
                texts.push(format!("{double:e}"));
            }
            if single.is_finite() {
                texts.push(format!("{single}"));
                texts.push(format!("{single:e}"));
            }
            if round % 64 == 0 {
                // The edges: 10^±22 (the fast path's) and 10^±40 (the table's), and past them.
                for e in [
                    -42, -41, -40, -39, -28, -27, -23, -22, -21, 21, 22, 23, 39, 40, 41,
                ] {
                    texts.push(format!("{}e{e}", next() % 10_000_000_000_000_000_000));
                }
            }
            for text in texts {
                let theirs: f64 = text.parse().expect("a number");
                let ours = number(&text);
                if theirs.is_finite() {
                    assert_eq!(ours.map(f64::to_bits), Some(theirs.to_bits()), "{text}");
                } else {
                    assert_eq!(ours, None, "{text}");
                }
                checked += 1;
            }
        }
        assert!(checked > 4_000_000, "{checked}");
    }

    #[test]
    fn numbers_the_json_grammar_refuses_are_left_to_serde() {
        for bad in [
            "01", "1.", ".5", "+1", "1e", "-", "1e400", "NaN", "inf", "0x10", "1_0",
        ] {
            let text = format!(r#"{{"frame":1,"time":{bad},"shapes":[],"claims":[]}}"#);
            assert!(super::line(text.as_bytes()).is_none(), "{bad}");
        }
        for good in [
            "0",
            "-0",
            "1.5",
            "-2.5e-3",
            "1E2",
            "1e+2",
            "0.44999998807907104",
        ] {
            let text = format!(r#"{{"frame":1,"time":{good},"shapes":[],"claims":[]}}"#);
            let line = super::line(text.as_bytes()).unwrap_or_else(|| panic!("{good}"));
            assert_eq!(line.time.to_bits(), good.parse::<f64>().unwrap().to_bits());
        }
        // Keys out of the writer's order, spaces, a distance: serde's.
        for other in [
            r#"{"time":1,"frame":1,"shapes":[],"claims":[]}"#,
            r#"{"frame":1, "time":1,"shapes":[],"claims":[]}"#,
            r#"{"frame":1,"time":1,"shapes":[{"id":1,"angle":1,"position":[0,0]}],"claims":[]}"#,
            r#"{"frame":1,"time":1,"shapes":[],"claims":[{"a":1,"b":2,"intersecting":false,"distance":1}]}"#,
            r#"{"frame":1,"time":1,"shapes":[],"claims":[],"malformed":[]}"#,
        ] {
            assert!(super::line(other.as_bytes()).is_none(), "{other}");
            assert!(
                serde_json::from_slice::<Line>(other.as_bytes()).is_ok()
                    || other.contains("malformed")
            );
        }
    }
}
