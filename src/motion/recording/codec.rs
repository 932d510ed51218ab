//! The frames' bytes: each body's five numbers as f64 bits, predicted from the two frames
//! before (linearly) and stored as the zigzag varint of the difference, so a body moving
//! steadily costs a few bytes a frame and every number comes back bit for bit.

pub(super) fn zigzag(v: i64) -> u64 {
    ((v << 1) ^ (v >> 63)) as u64
}

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
        let b = *self
            .data
            .get(self.at)
            .ok_or_else(|| format!("the frames end early, at byte {}", self.at))?;
        self.at += 1;
        Ok(b)
    }

    pub(super) fn varint(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= ((b & 0x7f) as u64) << shift;
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err(format!("a number too long at byte {}", self.at))
    }
}

/// The prediction of a value from the two before it in its block (`None` when absent).
pub(super) fn predict(p1: Option<u64>, p2: Option<u64>) -> u64 {
    match (p1, p2) {
        (Some(a), Some(b)) => a.wrapping_mul(2).wrapping_sub(b),
        (Some(a), None) => a,
        _ => 0,
    }
}
