//! The frame line laid out byte for byte as collidoscope's own writer lays it out
//! (`write.rs`, `write_text.rs`): its keys in the writer's order, no spaces, every shape entry
//! only moving, no malformed entries. Read here without a JSON library, numbers by the
//! standard library's correctly rounded parser (the value `serde_json`'s `float_roundtrip`
//! gives the same text), into the same values the typed path (`fast.rs`) reads with `serde`,
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
    let (shapes_before, claims_before) = LAST.get();
    let text = std::str::from_utf8(bytes).ok()?;
    let mut r = Bytes { text, at: 0 };
    r.expect(b"{\"frame\":")?;
    let frame = r.int()?;
    r.expect(b",\"time\":")?;
    let time = r.number()?;
    r.expect(b",\"shapes\":")?;
    let shapes = r.list_of(shapes_before, Bytes::moved)?;
    let removed = if r.eat(b",\"removed\":") {
        r.list(Bytes::int)?
    } else {
        Vec::new()
    };
    r.expect(b",\"claims\":")?;
    let claims = r.list_of(claims_before, Bytes::claim)?;
    r.expect(b"}")?;
    r.end()?;
    LAST.set((shapes.len(), claims.len()));
    Some(Line {
        frame,
        time,
        shapes,
        removed,
        claims,
    })
}

struct Bytes<'a> {
    /// The line, checked as text once (the numbers are then slices of it, free to take).
    text: &'a str,
    at: usize,
}

impl Bytes<'_> {
    fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    /// Whether `text` comes next (then stepped over).
    fn eat(&mut self, text: &[u8]) -> bool {
        let found = self.bytes()[self.at..].starts_with(text);
        if found {
            self.at += text.len();
        }
        found
    }

    fn expect(&mut self, text: &[u8]) -> Option<()> {
        self.eat(text).then_some(())
    }

    fn end(&self) -> Option<()> {
        (self.at == self.bytes().len()).then_some(())
    }

    fn peek(&self) -> Option<u8> {
        self.bytes().get(self.at).copied()
    }

    fn digits(&mut self) -> usize {
        let start = self.at;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.at += 1;
        }
        self.at - start
    }

    /// A JSON integer as the writer writes ids and frames: `0` or digits without a leading
    /// zero, within u64.
    fn int(&mut self) -> Option<u64> {
        let start = self.at;
        let n = self.digits();
        if n == 0 || (n > 1 && self.bytes()[start] == b'0') {
            return None;
        }
        self.text[start..self.at].parse().ok()
    }

    /// A JSON number (`-? int frac? exp?`), finite as a double.
    fn number(&mut self) -> Option<f64> {
        let start = self.at;
        self.eat(b"-");
        let first = self.at;
        let n = self.digits();
        if n == 0 || (n > 1 && self.bytes()[first] == b'0') {
            return None;
        }
        if self.eat(b".") && self.digits() == 0 {
            return None;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.at += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.at += 1;
            }
            if self.digits() == 0 {
                return None;
            }
        }
        let x: f64 = self.text[start..self.at].parse().ok()?;
        x.is_finite().then_some(x)
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
