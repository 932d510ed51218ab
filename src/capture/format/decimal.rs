//! Decimal text to the double nearest it, correctly rounded, for the capture reader's own
//! layout (`written.rs`): Clinger's fast path (a whole of at most 2^53 and a power of ten a
//! double holds exactly: both exact, so their quotient or product is rounded once) and the
//! Eisel-Lemire algorithm (Daniel Lemire, "Number Parsing at a Gigabyte per Second", 2021,
//! sections 5 and 6), as Rust's standard library has them (`core::num::dec2flt`, MIT OR
//! Apache-2.0, from which the code and the table of powers of five are taken). Only decimal
//! exponents within ±40 are taken, where every answer is a normal double; whatever this cannot
//! round with certainty answers `None`, and the caller asks the standard library's parser,
//! whose answer this always equals (a test holds the two together on millions of numbers).

/// The smallest and largest decimal exponents taken here.
const SMALLEST: i64 = -40;
const LARGEST: i64 = 40;

/// The explicit bits of a double's significand.
const SIG_BITS: i32 = 52;
/// The binary exponent of the smallest normal double (the unbiased minimum).
const EXP_MIN: i32 = -1022;
/// The decimal exponents where a product can land exactly halfway between two doubles.
const MIN_EXPONENT_ROUND_TO_EVEN: i64 = -4;
const MAX_EXPONENT_ROUND_TO_EVEN: i64 = 23;

/// The powers of ten a double holds exactly: 10^0 to 10^22 (5^22 < 2^53).
const EXACT_TENS: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// `whole` x 10^`exponent` (negated if `negative`), `whole` being every significant digit of
/// the text (at most 19), correctly rounded; `None` where the standard library must decide.
pub(super) fn double(negative: bool, whole: u64, exponent: i64) -> Option<f64> {
    let magnitude = if whole == 0 {
        0.0
    } else if whole <= 1 << 53 && (-22..=22).contains(&exponent) {
        let ten = EXACT_TENS[exponent.unsigned_abs() as usize];
        if exponent < 0 {
            whole as f64 / ten
        } else {
            whole as f64 * ten
        }
    } else if (SMALLEST..=LARGEST).contains(&exponent) {
        eisel_lemire(exponent, whole)?
    } else {
        return None;
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// `w` x 10^`q`, when 128 bits of 5^`q` round it unambiguously (`q` within the table; the
/// answer a normal double).
fn eisel_lemire(q: i64, mut w: u64) -> Option<f64> {
    // Normalize the significant digits, so the most significant bit is set.
    let lz = w.leading_zeros();
    w <<= lz;
    let (lo, hi) = product_approx(q, w, SIG_BITS as usize + 3);
    // The 128-bit product may be short of w x 5^q by one in its last place: that can round
    // wrongly only outside q in [-27, 55].
    if lo == u64::MAX && !(-27..=55).contains(&q) {
        return None;
    }
    let upperbit = (hi >> 63) as i32;
    let mut mantissa = hi >> (upperbit + 64 - SIG_BITS - 3);
    let mut power2 = power(q as i32) + upperbit - lz as i32 - EXP_MIN + 1;
    if power2 <= 0 {
        // Subnormal: outside the exponents taken here.
        return None;
    }
    // Exactly halfway between two doubles (the low product zero, the bits cut off zero, the
    // last kept bit odd): round to even, down.
    if lo <= 1
        && (MIN_EXPONENT_ROUND_TO_EVEN..=MAX_EXPONENT_ROUND_TO_EVEN).contains(&q)
        && mantissa & 0b11 == 0b01
        && (mantissa << (upperbit + 64 - SIG_BITS - 3)) == hi
    {
        mantissa &= !1_u64;
    }
    mantissa += mantissa & 1;
    mantissa >>= 1;
    if mantissa >= (2_u64 << SIG_BITS) {
        // Rounding up carried: the hidden bit alone, one binade up.
        mantissa = 1_u64 << SIG_BITS;
        power2 += 1;
    }
    mantissa &= !(1_u64 << SIG_BITS);
    if power2 >= 0x7FF {
        return None;
    }
    Some(f64::from_bits(mantissa | (power2 as u64) << SIG_BITS))
}

/// The binary exponent of 10^`q`'s 128-bit significand (217706 / 2^16 approximates log2(10)
/// over every exponent a double has).
fn power(q: i32) -> i32 {
    (q.wrapping_mul(152_170 + 65536) >> 16) + 63
}

fn full_multiplication(a: u64, b: u64) -> (u64, u64) {
    let r = (a as u128) * (b as u128);
    (r as u64, (r >> 64) as u64)
}

/// `w` x 5^`q` to `precision` bits and a word below them, high word last.
fn product_approx(q: i64, w: u64, precision: usize) -> (u64, u64) {
    let mask = u64::MAX >> precision;
    let (high5, low5) = POWERS_OF_FIVE[(q - SMALLEST) as usize];
    let (mut first_lo, mut first_hi) = full_multiplication(w, high5);
    if first_hi & mask == mask {
        // A second product for the bits below (exact where q < 55, 5^55 < 2^128); its carry
        // rounds the high product up.
        let (_, second_hi) = full_multiplication(w, low5);
        first_lo = first_lo.wrapping_add(second_hi);
        if second_hi > first_lo {
            first_hi += 1;
        }
    }
    (first_lo, first_hi)
}

/// 5^q for q in [-40, 40], its 128 most significant bits (high word first), as the standard
/// library's table (`core::num::dec2flt::table`, generated by its `src/etc/dec2flt_table.py`)
/// holds them.
#[rustfmt::skip]
static POWERS_OF_FIVE: [(u64, u64); (LARGEST - SMALLEST + 1) as usize] = [
    (0x8b61313bbabce2c6, 0x2323ac4b3b3da015), // 5^-40
    (0xae397d8aa96c1b77, 0xabec975e0a0d081a), // 5^-39
    (0xd9c7dced53c72255, 0x96e7bd358c904a21), // 5^-38
    (0x881cea14545c7575, 0x7e50d64177da2e54), // 5^-37
    (0xaa242499697392d2, 0xdde50bd1d5d0b9e9), // 5^-36
    (0xd4ad2dbfc3d07787, 0x955e4ec64b44e864), // 5^-35
    (0x84ec3c97da624ab4, 0xbd5af13bef0b113e), // 5^-34
    (0xa6274bbdd0fadd61, 0xecb1ad8aeacdd58e), // 5^-33
    (0xcfb11ead453994ba, 0x67de18eda5814af2), // 5^-32
    (0x81ceb32c4b43fcf4, 0x80eacf948770ced7), // 5^-31
    (0xa2425ff75e14fc31, 0xa1258379a94d028d), // 5^-30
    (0xcad2f7f5359a3b3e, 0x96ee45813a04330),  // 5^-29
    (0xfd87b5f28300ca0d, 0x8bca9d6e188853fc), // 5^-28
    (0x9e74d1b791e07e48, 0x775ea264cf55347e), // 5^-27
    (0xc612062576589dda, 0x95364afe032a819e), // 5^-26
    (0xf79687aed3eec551, 0x3a83ddbd83f52205), // 5^-25
    (0x9abe14cd44753b52, 0xc4926a9672793543), // 5^-24
    (0xc16d9a0095928a27, 0x75b7053c0f178294), // 5^-23
    (0xf1c90080baf72cb1, 0x5324c68b12dd6339), // 5^-22
    (0x971da05074da7bee, 0xd3f6fc16ebca5e04), // 5^-21
    (0xbce5086492111aea, 0x88f4bb1ca6bcf585), // 5^-20
    (0xec1e4a7db69561a5, 0x2b31e9e3d06c32e6), // 5^-19
    (0x9392ee8e921d5d07, 0x3aff322e62439fd0), // 5^-18
    (0xb877aa3236a4b449, 0x9befeb9fad487c3),  // 5^-17
    (0xe69594bec44de15b, 0x4c2ebe687989a9b4), // 5^-16
    (0x901d7cf73ab0acd9, 0xf9d37014bf60a11),  // 5^-15
    (0xb424dc35095cd80f, 0x538484c19ef38c95), // 5^-14
    (0xe12e13424bb40e13, 0x2865a5f206b06fba), // 5^-13
    (0x8cbccc096f5088cb, 0xf93f87b7442e45d4), // 5^-12
    (0xafebff0bcb24aafe, 0xf78f69a51539d749), // 5^-11
    (0xdbe6fecebdedd5be, 0xb573440e5a884d1c), // 5^-10
    (0x89705f4136b4a597, 0x31680a88f8953031), // 5^-9
    (0xabcc77118461cefc, 0xfdc20d2b36ba7c3e), // 5^-8
    (0xd6bf94d5e57a42bc, 0x3d32907604691b4d), // 5^-7
    (0x8637bd05af6c69b5, 0xa63f9a49c2c1b110), // 5^-6
    (0xa7c5ac471b478423, 0xfcf80dc33721d54),  // 5^-5
    (0xd1b71758e219652b, 0xd3c36113404ea4a9), // 5^-4
    (0x83126e978d4fdf3b, 0x645a1cac083126ea), // 5^-3
    (0xa3d70a3d70a3d70a, 0x3d70a3d70a3d70a4), // 5^-2
    (0xcccccccccccccccc, 0xcccccccccccccccd), // 5^-1
    (0x8000000000000000, 0x0),                // 5^0
    (0xa000000000000000, 0x0),                // 5^1
    (0xc800000000000000, 0x0),                // 5^2
    (0xfa00000000000000, 0x0),                // 5^3
    (0x9c40000000000000, 0x0),                // 5^4
    (0xc350000000000000, 0x0),                // 5^5
    (0xf424000000000000, 0x0),                // 5^6
    (0x9896800000000000, 0x0),                // 5^7
    (0xbebc200000000000, 0x0),                // 5^8
    (0xee6b280000000000, 0x0),                // 5^9
    (0x9502f90000000000, 0x0),                // 5^10
    (0xba43b74000000000, 0x0),                // 5^11
    (0xe8d4a51000000000, 0x0),                // 5^12
    (0x9184e72a00000000, 0x0),                // 5^13
    (0xb5e620f480000000, 0x0),                // 5^14
    (0xe35fa931a0000000, 0x0),                // 5^15
    (0x8e1bc9bf04000000, 0x0),                // 5^16
    (0xb1a2bc2ec5000000, 0x0),                // 5^17
    (0xde0b6b3a76400000, 0x0),                // 5^18
    (0x8ac7230489e80000, 0x0),                // 5^19
    (0xad78ebc5ac620000, 0x0),                // 5^20
    (0xd8d726b7177a8000, 0x0),                // 5^21
    (0x878678326eac9000, 0x0),                // 5^22
    (0xa968163f0a57b400, 0x0),                // 5^23
    (0xd3c21bcecceda100, 0x0),                // 5^24
    (0x84595161401484a0, 0x0),                // 5^25
    (0xa56fa5b99019a5c8, 0x0),                // 5^26
    (0xcecb8f27f4200f3a, 0x0),                // 5^27
    (0x813f3978f8940984, 0x4000000000000000), // 5^28
    (0xa18f07d736b90be5, 0x5000000000000000), // 5^29
    (0xc9f2c9cd04674ede, 0xa400000000000000), // 5^30
    (0xfc6f7c4045812296, 0x4d00000000000000), // 5^31
    (0x9dc5ada82b70b59d, 0xf020000000000000), // 5^32
    (0xc5371912364ce305, 0x6c28000000000000), // 5^33
    (0xf684df56c3e01bc6, 0xc732000000000000), // 5^34
    (0x9a130b963a6c115c, 0x3c7f400000000000), // 5^35
    (0xc097ce7bc90715b3, 0x4b9f100000000000), // 5^36
    (0xf0bdc21abb48db20, 0x1e86d40000000000), // 5^37
    (0x96769950b50d88f4, 0x1314448000000000), // 5^38
    (0xbc143fa4e250eb31, 0x17d955a000000000), // 5^39
    (0xeb194f8e1ae525fd, 0x5dcfab0800000000), // 5^40
];
