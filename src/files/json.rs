//! Walking a JSON file by hand, with messages that name the place: a file's fields by key,
//! points, a short rendering of a value, the key that was probably meant, and serde_json's
//! syntax errors with their line and column. Shape sets and packet logs read through these.

use super::Problem;
use crate::geometry::DVec2;
use serde_json::{Map, Value};

/// serde_json's message as a [`Problem::Syntax`], its line and column apart.
pub(crate) fn syntax_problem(e: serde_json::Error) -> Problem {
    Problem::Syntax {
        line: e.line(),
        column: e.column(),
        message: without_position(&e),
    }
}

/// serde_json's message without its " at line L column C" tail (the caller states the place).
pub(crate) fn without_position(e: &serde_json::Error) -> String {
    let full = e.to_string();
    match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    }
}

/// A shape's fields, read with messages that name the field.
pub(crate) struct Fields<'a>(pub(crate) &'a Map<String, Value>);

impl Fields<'_> {
    pub(crate) fn number(&self, key: &str) -> Result<f64, String> {
        self.optional_number(key)?
            .ok_or_else(|| format!("missing key {key:?}"))
    }

    pub(crate) fn optional_number(&self, key: &str) -> Result<Option<f64>, String> {
        match self.0.get(key) {
            None => Ok(None),
            Some(Value::Number(n)) => Ok(n.as_f64()),
            Some(other) => Err(format!(
                "{key:?} must be a number, found {}",
                describe(other)
            )),
        }
    }

    pub(crate) fn point(&self, key: &str) -> Result<DVec2, String> {
        self.optional_point(key)?
            .ok_or_else(|| format!("missing key {key:?}"))
    }

    pub(crate) fn optional_point(&self, key: &str) -> Result<Option<DVec2>, String> {
        match self.0.get(key) {
            None => Ok(None),
            Some(value) => as_point(value)
                .map(Some)
                .ok_or_else(|| point_error(&format!("{key:?}"), value)),
        }
    }
}

/// `[x, y]`: exactly two numbers.
pub(crate) fn as_point(value: &Value) -> Option<DVec2> {
    match value.as_array()?.as_slice() {
        [x, y] => Some(DVec2::new(x.as_f64()?, y.as_f64()?)),
        _ => None,
    }
}

pub(crate) fn point_error(what: &str, value: &Value) -> String {
    let found = match value.as_array() {
        Some(items) if items.len() != 2 => format!("{} numbers", items.len()),
        _ => describe(value),
    };
    format!("{what} must be [x, y] (two numbers), found {found}")
}

/// A short rendering of a JSON value for messages, with what it is: `a string "f16"`.
pub(crate) fn describe(value: &Value) -> String {
    let kind = match value {
        Value::String(_) => "a string ",
        Value::Array(_) => "an array ",
        Value::Object(_) => "an object ",
        _ => "",
    };
    format!("{kind}{}", spelled(value))
}

/// A JSON value as JSON spells it, cut short past 40 characters: `"f16"`, `[1, 2]`.
pub(crate) fn spelled(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 40 {
        let cut: String = text.chars().take(37).collect();
        format!("{cut}...")
    } else {
        text
    }
}

/// A key as a message quotes it: `"radius"`; past 60 characters its first 60 and how long it
/// is (`"aaaa..."... (20000000 characters)`), so a file with a huge key gets a message of a
/// line, not the key echoed whole.
pub(crate) fn quoted_key(key: &str) -> String {
    const SHOWN: usize = 60;
    match key.char_indices().nth(SHOWN) {
        None => format!("{key:?}"),
        Some((cut, _)) => format!("{:?}... ({} characters)", &key[..cut], key.chars().count()),
    }
}

/// ` (did you mean "radius"?)` when `key` is a small typo of an allowed key.
pub(crate) fn suggestion(key: &str, allowed: &[&str]) -> String {
    // Keys more than two characters longer than every allowed key are no typo of one; the
    // distance table would be as long as the key (110 bytes of memory a byte of key).
    let longest = allowed.iter().map(|k| k.chars().count()).max().unwrap_or(0);
    if key.len() > 4 * (longest + 2) || key.chars().count() > longest + 2 {
        return String::new();
    }
    allowed
        .iter()
        .map(|candidate| (edit_distance(key, candidate), candidate))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, candidate)| format!(" (did you mean {candidate:?}?)"))
        .unwrap_or_default()
}

/// Levenshtein distance, with a swap of two neighbours counting once ("raduis"). The
/// caller keeps `a` short (see [`suggestion`]).
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}
