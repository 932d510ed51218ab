//! The JSON text the capture writer makes, byte by byte: numbers as the shortest digits that
//! read back to the same double (f32 values as the f64 they equal), points, ids, names,
//! filters, claims, a malformed shape's or claim's entry, and the header's line.

use crate::Reported;
use crate::capture::{FORMAT, Filter, Header, VERSION};
use crate::geometry::DVec2;
use std::io::Write;

/// The header's line (without its newline).
pub(in crate::capture) fn header_line(header: &Header) -> Vec<u8> {
    let line = serde_json::json!({
        "format": FORMAT,
        "version": VERSION,
        "engine": header.engine,
        "precision": header.precision.name(),
        "units": header.units,
        "y_up": header.y_up,
    });
    line.to_string().into_bytes()
}

/// A checked claim as a JSON object, onto `text`.
pub(super) fn push_claim(text: &mut Vec<u8>, a: u64, b: u64, claim: &Reported) {
    text.extend_from_slice(b"{\"a\":");
    push_int(text, a);
    text.extend_from_slice(b",\"b\":");
    push_int(text, b);
    text.extend_from_slice(b",\"intersecting\":");
    text.extend_from_slice(if claim.intersecting {
        b"true"
    } else {
        b"false"
    });
    if let Some(depth) = claim.depth {
        text.extend_from_slice(b",\"depth\":");
        push_number(text, depth);
    }
    if let Some(normal) = claim.normal {
        text.extend_from_slice(b",\"normal\":");
        push_point(text, normal);
    }
    if let Some(separation) = claim.separation {
        text.extend_from_slice(b",\"separation\":");
        push_number(text, separation);
    }
    if let Some(contacts) = &claim.contacts {
        push_list(text, b",\"contacts\":", contacts, push_point);
    }
    if let Some(piece) = claim.piece {
        text.extend_from_slice(b",\"piece\":");
        push_int(text, piece as u64);
    }
    if let Some(impulses) = &claim.impulses {
        push_list(text, b",\"impulses\":", impulses, push_number);
    }
    text.push(b'}');
}

/// `key` and then `items` as a JSON array, each written by `push`.
fn push_list<T: Copy>(text: &mut Vec<u8>, key: &[u8], items: &[T], push: fn(&mut Vec<u8>, T)) {
    text.extend_from_slice(key);
    text.push(b'[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            text.push(b',');
        }
        push(text, *item);
    }
    text.push(b']');
}

/// A number in its shortest exact form (an f32's value is written as the f64 it equals).
/// Only finite numbers reach here: the others are malformed ([`push_any_number`]).
pub(super) fn push_number(text: &mut Vec<u8>, x: f64) {
    debug_assert!(x.is_finite(), "{x} reached a shape's or a claim's number");
    serde_json::to_writer(text, &x).expect("finite numbers serialise");
}

/// A shape's `filter`: its keys in the order the format gives them, `null` when cleared.
pub(super) fn push_filter(text: &mut Vec<u8>, filter: Option<Filter>) {
    use std::io::Write as _;
    let Some(f) = filter else {
        text.extend_from_slice(b"null");
        return;
    };
    text.extend_from_slice(b"{\"category\":");
    push_int(text, f.category);
    text.extend_from_slice(b",\"mask\":");
    push_int(text, f.mask);
    if f.group != 0 {
        let _ = write!(text, ",\"group\":{}", f.group);
    }
    if f.either {
        text.extend_from_slice(b",\"either\":true");
    }
    text.push(b'}');
}

pub(super) fn push_int(text: &mut Vec<u8>, n: u64) {
    write!(text, "{n}").expect("a Vec takes every byte");
}

/// One of the format's own names (a kind, a body type): plain ASCII, quoted as it is.
pub(super) fn push_name(text: &mut Vec<u8>, name: &str) {
    text.push(b'"');
    text.extend_from_slice(name.as_bytes());
    text.push(b'"');
}

/// A number as it is: finite in its shortest exact form, else the string "NaN", "inf" or
/// "-inf" (a malformed entry's, never a shape's or a claim's).
pub(super) fn push_any_number(text: &mut Vec<u8>, x: f64) {
    if x.is_finite() {
        push_number(text, x);
    } else if x.is_nan() {
        text.extend_from_slice(b"\"NaN\"");
    } else if x > 0.0 {
        text.extend_from_slice(b"\"inf\"");
    } else {
        text.extend_from_slice(b"\"-inf\"");
    }
}

pub(super) fn push_any_point(text: &mut Vec<u8>, p: DVec2) {
    text.push(b'[');
    push_any_number(text, p.x);
    text.push(b',');
    push_any_number(text, p.y);
    text.push(b']');
}

pub(super) fn push_point(text: &mut Vec<u8>, p: DVec2) {
    text.push(b'[');
    push_number(text, p.x);
    text.push(b',');
    push_number(text, p.y);
    text.push(b']');
}
