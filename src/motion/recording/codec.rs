//! The frames' bytes: each body's five numbers as f64 bits, predicted from the two frames
//! before (linearly) and stored as the zigzag varint of the difference, so a body moving
//! steadily costs a few bytes a frame and every number comes back bit for bit.

pub(super) fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

#[inline(always)]
pub(super) fn unzigzag(v: u64) -> i64 {
    ((v >> 1) as i64) ^ -((v & 1) as i64)
}

pub(super) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Reads encoded frames, each step checked against the end of the data.
pub(super) struct Reader<'a> {
    /// The bytes.
    pub(super) data: &'a [u8],
    /// Where the next byte is read.
    pub(super) at: usize,
}

impl Reader<'_> {
    pub(super) fn byte(&mut self) -> Result<u8, String> {
        let Some(&b) = self.data.get(self.at) else {
            return Err(ends_early(self.at));
        };
        self.at += 1;
        Ok(b)
    }

    /// A varint of up to ten bytes (the bits past 64 dropped). Where all ten lie before the
    /// end of the data they are read without checking each against it (playing a run decodes
    /// a block of 64 frames, five numbers a body, at once); near the end, byte by byte.
    #[inline(always)]
    pub(super) fn varint(&mut self) -> Result<u64, String> {
        let Some(bytes) = self.data.get(self.at..self.at + VARINT_MAX) else {
            return self.varint_near_end();
        };
        let mut v = 0u64;
        for (i, &b) in bytes.iter().enumerate() {
            v |= u64::from(b & 0x7f) << (7 * i);
            if b < 0x80 {
                self.at += i + 1;
                return Ok(v);
            }
        }
        self.at += VARINT_MAX;
        Err(too_long(self.at))
    }

    #[cold]
    #[inline(never)]
    fn varint_near_end(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= ((b & 0x7f) as u64) << shift;
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err(too_long(self.at))
    }
}

/// The most bytes a varint takes (7 bits each, 64 bits).
const VARINT_MAX: usize = 10;

#[cold]
#[inline(never)]
fn ends_early(at: usize) -> String {
    format!("the frames end early, at byte {at}")
}

#[cold]
#[inline(never)]
fn too_long(at: usize) -> String {
    format!("a number too long at byte {at}")
}

/// The prediction of a value from the two before it in its block (`None` when absent).
pub(super) fn predict(p1: Option<u64>, p2: Option<u64>) -> u64 {
    match (p1, p2) {
        (Some(a), Some(b)) => a.wrapping_mul(2).wrapping_sub(b),
        (Some(a), None) => a,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `data` read as one varint from its start: the value (or error) and where it stopped.
    fn read(data: &[u8]) -> (Result<u64, String>, usize) {
        let mut r = Reader { data, at: 0 };
        let v = r.varint();
        (v, r.at)
    }

    /// A varint read without checking each byte against the end (ten bytes or more left)
    /// gives what reading it byte by byte gives: the value, where it stops, and the errors.
    #[test]
    fn a_varint_read_far_from_the_end_is_one_read_byte_by_byte() {
        // xorshift64: a fixed sequence, so a failure repeats.
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut values: Vec<u64> = vec![0, 1, 127, 128, 16_383, 16_384, u64::MAX, 1 << 63];
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.push(x >> (x % 64));
        }
        for v in values {
            let mut data = Vec::new();
            put_varint(&mut data, v);
            let n = data.len();
            // Alone: read near the end, byte by byte.
            let near = read(&data);
            assert_eq!(near, (Ok(v), n));
            // Followed by more bytes: read at once, the same.
            data.extend([0x80; 12]);
            assert_eq!(read(&data), near);
            // Cut short: the same error either way.
            let cut = &data[..n - 1];
            assert_eq!(
                read(cut).0,
                Err(format!("the frames end early, at byte {}", n - 1))
            );
        }
        // Ten bytes that all say "more" are too long, read either way.
        let long = [0xff; 10];
        let too_long = Err("a number too long at byte 10".to_string());
        assert_eq!(read(&long), (too_long.clone(), 10));
        let longer = [0xff; 16];
        assert_eq!(read(&longer), (too_long, 10));
        // The tenth byte's bits past 64 are dropped, as ever.
        let mut wide = [0xff; 10];
        wide[9] = 0x7f;
        assert_eq!(read(&wide).0, Ok(u64::MAX));
        assert_eq!(read(&[wide.as_slice(), &[0; 4]].concat()).0, Ok(u64::MAX));
    }
}
