//! Reading the version-2 lists about pairs: `claims`, `expect` and `tolerance`. Each entry is
//! named in messages by its place: `claim 2 (shapes 0 and 3): "depth" must be > 0, found -1`.

use super::{Claim, Expected, ExpectedPiece, ShapeId};
use crate::Reported;
use crate::files::{
    Fields, Problem, as_point, describe, point_error, quoted_key, suggestion, without_position,
};
use crate::geometry::DVec2;
use crate::query::{ChainRule, PairSummary, TwoSided};
use serde_json::{Map, Value};

pub(crate) const CLAIM_KEYS: [&str; 10] = [
    "a",
    "b",
    "intersecting",
    "depth",
    "normal",
    "contacts",
    "distance",
    "piece",
    "separation",
    "impulses",
];
const EXPECT_KEYS: [&str; 11] = [
    "a",
    "b",
    "intersecting",
    "depth",
    "normal",
    "distance",
    "closest",
    "contacts",
    // A chain's piece (version 3): all three or none.
    "piece",
    "rule",
    "two_sided",
];
/// How many of [`EXPECT_KEYS`] every expected result has.
const EXPECT_REQUIRED: usize = 8;

/// A claimed normal may be off unit length by this much (rounded decimals such as
/// `[0.707, 0.707]`); its direction is what is compared.
pub(crate) const UNIT_SLACK: f64 = 1e-2;

/// The `claims` list.
pub(super) fn read_claims(value: Option<&Value>, shapes: usize) -> Result<Vec<Claim>, Problem> {
    entries(value, "claims", "claim")?
        .iter()
        .enumerate()
        .map(|(i, entry)| claim(entry, shapes).map_err(|m| entry_problem("claim", i, entry, m)))
        .collect()
}

/// The `expect` list (`None` when absent: the file is not a fixture).
pub(super) fn read_expect(
    value: Option<&Value>,
    shapes: usize,
) -> Result<Option<Vec<Expected>>, Problem> {
    if value.is_none() {
        return Ok(None);
    }
    entries(value, "expect", "expected result")?
        .iter()
        .enumerate()
        .map(|(i, entry)| {
            expected(entry, shapes).map_err(|m| entry_problem("expected result", i, entry, m))
        })
        .collect::<Result<_, _>>()
        .map(Some)
}

/// The optional `tolerance`: a finite number >= 0.
pub(super) fn read_tolerance(value: Option<&Value>) -> Result<Option<f64>, Problem> {
    match value {
        None => Ok(None),
        Some(Value::Number(n)) if n.as_f64().is_some_and(|t| t >= 0.0) => Ok(n.as_f64()),
        Some(other) => Err(Problem::Document(format!(
            "\"tolerance\" must be a number >= 0, found {}",
            describe(other)
        ))),
    }
}

fn entries<'v>(value: Option<&'v Value>, key: &str, what: &str) -> Result<&'v [Value], Problem> {
    match value {
        None => Ok(&[]),
        Some(Value::Array(items)) => Ok(items),
        Some(other) => Err(Problem::Document(format!(
            "{key:?} must be an array of {what} objects, found {}",
            describe(other)
        ))),
    }
}

/// `claim 2 (shapes 0 and 3): message`, with as much of the pair as could be read.
fn entry_problem(what: &str, index: usize, entry: &Value, message: String) -> Problem {
    let pair = (
        entry.get("a").and_then(Value::as_u64),
        entry.get("b").and_then(Value::as_u64),
    );
    let place = match pair {
        (Some(a), Some(b)) => format!("{what} {index} (shapes {a} and {b})"),
        _ => format!("{what} {index}"),
    };
    Problem::Document(format!("{place}: {message}"))
}

/// The object's fields, with unknown keys refused and `a`, `b` read as two different shapes.
fn pair_fields<'v>(
    entry: &'v Value,
    keys: &[&str],
    shapes: usize,
) -> Result<(Fields<'v>, ShapeId, ShapeId), String> {
    let Value::Object(map) = entry else {
        return Err(format!("expected an object, found {}", describe(entry)));
    };
    if let Some(key) = map.keys().find(|k| !keys.contains(&k.as_str())) {
        return Err(format!(
            "unknown key {}{}",
            quoted_key(key),
            suggestion(key, keys)
        ));
    }
    let index = |key: &str| -> Result<ShapeId, String> {
        match map.get(key) {
            None => Err(format!("missing key {key:?} (a shape index)")),
            Some(v) => match v.as_u64() {
                Some(i) if (i as usize) < shapes => Ok(ShapeId(i as u32)),
                Some(i) => Err(format!(
                    "{key:?} is shape {i}, but the file has {shapes} shape{}",
                    if shapes == 1 { "" } else { "s" }
                )),
                None => Err(format!(
                    "{key:?} must be a shape index (0, 1, 2, ...), found {}",
                    describe(v)
                )),
            },
        }
    };
    let (a, b) = (index("a")?, index("b")?);
    if a == b {
        return Err(format!(
            "\"a\" and \"b\" are both shape {}: a pair needs two shapes",
            a.0
        ));
    }
    Ok((Fields(map), a, b))
}

fn boolean(map: &Map<String, Value>, key: &str) -> Result<bool, String> {
    match map.get(key) {
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(format!(
            "{key:?} must be true or false, found {}",
            describe(other)
        )),
        None => Err(format!("missing key {key:?}")),
    }
}

/// A list of `[x, y]` points under `key`, if present.
fn points(map: &Map<String, Value>, key: &str) -> Result<Option<Vec<DVec2>>, String> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, p)| as_point(p).ok_or_else(|| point_error(&format!("{key:?} point {i}"), p)))
            .collect::<Result<_, _>>()
            .map(Some),
        Some(other) => Err(format!(
            "{key:?} must be an array of [x, y] points, found {}",
            describe(other)
        )),
    }
}

/// Numbers under `key`, if present: each a finite number (the rules are [`check_reported`]'s).
fn numbers(map: &Map<String, Value>, key: &str) -> Result<Option<Vec<f64>>, String> {
    match map.get(key) {
        None => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .map(|(i, x)| {
                x.as_f64().ok_or_else(|| {
                    format!("{key:?} value {i} must be a number, found {}", describe(x))
                })
            })
            .collect::<Result<_, _>>()
            .map(Some),
        Some(other) => Err(format!(
            "{key:?} must be an array of numbers (one per contact point), found {}",
            describe(other)
        )),
    }
}

fn claim(entry: &Value, shapes: usize) -> Result<Claim, String> {
    let (fields, a, b) = pair_fields(entry, &CLAIM_KEYS, shapes)?;
    let reported = reported(&fields)?;
    Ok(Claim { a, b, reported })
}

/// What a claim says about its pair, every key but `a` and `b` (a shape set's claim and a
/// capture's read the same way).
pub(crate) fn reported(fields: &Fields) -> Result<Reported, String> {
    // The types first (a number where a number belongs); then the rules, by the one check a
    // capture's writer also runs on what it is about to write.
    let number = |key: &str| -> Result<Option<f64>, String> {
        if fields.0.get(key).is_some_and(Value::is_null) {
            return Ok(None);
        }
        fields.optional_number(key)
    };
    let normal = if fields.0.get("normal").is_none_or(Value::is_null) {
        None
    } else {
        Some(fields.point("normal")?)
    };
    let reported = Reported {
        intersecting: boolean(fields.0, "intersecting")?,
        depth: number("depth")?,
        normal,
        contacts: points(fields.0, "contacts")?,
        distance: number("distance")?,
        piece: piece(fields.0)?,
        separation: number("separation")?,
        impulses: numbers(fields.0, "impulses")?,
    };
    check_reported(&reported)?;
    Ok(reported)
}

/// The rules a claim keeps, whoever made it: the readers of shape sets and captures, and the
/// capture writer before it writes one (what it would refuse, the writer never writes as a
/// claim). Every number finite; `depth` above 0 when intersecting, `distance` and
/// `separation` at least 0; a unit `normal`; an intersecting claim has a depth and a normal and no separation; a
/// separation is along a normal.
pub(crate) fn check_reported(claim: &Reported) -> Result<(), String> {
    let number = |key: &str, x: Option<f64>, positive: bool| match x {
        Some(x) if !x.is_finite() => Err(format!("{key:?} must be a finite number, found {x}")),
        Some(x) if x < 0.0 || (positive && x == 0.0) => Err(format!(
            "{key:?} must be {} 0, found {x}",
            if positive { ">" } else { ">=" }
        )),
        _ => Ok(()),
    };
    number("depth", claim.depth, claim.intersecting)?;
    if let Some(n) = claim.normal {
        let length = n.length();
        if !(length - 1.0).abs().le(&UNIT_SLACK) {
            return Err(format!(
                "\"normal\" must be a unit vector (from A toward B), found [{}, {}] of length {length}",
                n.x, n.y
            ));
        }
    }
    number("separation", claim.separation, false)?;
    if claim.intersecting {
        if claim.depth.is_none() {
            return Err("an intersecting claim needs \"depth\" (> 0)".into());
        }
        if claim.normal.is_none() {
            return Err("an intersecting claim needs \"normal\" (unit, from A toward B)".into());
        }
        if claim.separation.is_some() {
            return Err("\"separation\" is an apart claim's (a speculative contact's); an intersecting claim says \"depth\"".into());
        }
    }
    if claim.separation.is_some() && claim.normal.is_none() {
        return Err("a speculative claim's \"separation\" is along its \"normal\" (unit, from A toward B), which is missing".into());
    }
    if let Some(i) = claim.contacts.iter().flatten().position(|p| !p.is_finite()) {
        return Err(format!("\"contacts\" point {i} must be finite numbers"));
    }
    if let Some(impulses) = &claim.impulses {
        if let Some((i, j)) = impulses
            .iter()
            .enumerate()
            .find(|(_, j)| !(j.is_finite() && **j >= 0.0))
        {
            return Err(format!(
                "\"impulses\" value {i} must be a finite number >= 0 (the normal impulse at that contact point), found {j}"
            ));
        }
        let points = claim.contacts.as_ref().map_or(0, Vec::len);
        if impulses.len() != points {
            return Err(format!(
                "\"impulses\" has {} values for {points} contact points: one per point of \"contacts\"",
                impulses.len()
            ));
        }
    }
    number("distance", claim.distance, false)
}

/// A chain's piece number under `"piece"`, if present.
fn piece(map: &Map<String, Value>) -> Result<Option<usize>, String> {
    match map.get("piece") {
        None => Ok(None),
        Some(v) => match v.as_u64() {
            Some(k) => Ok(Some(k as usize)),
            None => Err(format!(
                "\"piece\" must be a piece number (0, 1, 2, ...), found {}",
                describe(v)
            )),
        },
    }
}

fn expected(entry: &Value, shapes: usize) -> Result<Expected, String> {
    let (fields, a, b) = pair_fields(entry, &EXPECT_KEYS, shapes)?;
    let map = fields.0;
    if let Some(key) = EXPECT_KEYS[..EXPECT_REQUIRED]
        .iter()
        .find(|k| !map.contains_key(**k))
    {
        return Err(format!(
            "missing key {key:?} (an expected result has every key `query --json` prints)"
        ));
    }
    let closest = match map.get("closest") {
        Some(Value::Null) | None => None,
        Some(value) => match points(map, "closest")?.as_deref() {
            Some([p, q]) => Some([*p, *q]),
            _ => {
                return Err(format!(
                    "\"closest\" must be null or [point on A, point on B], found {}",
                    describe(value)
                ));
            }
        },
    };
    let result = PairSummary {
        intersecting: boolean(map, "intersecting")?,
        depth: fields.number("depth")?,
        normal: match map.get("normal") {
            Some(Value::Null) => None,
            _ => Some(fields.point("normal")?),
        },
        distance: fields.number("distance")?,
        closest,
        contacts: points(map, "contacts")?.unwrap_or_default(),
    };
    let chain_keys = &EXPECT_KEYS[EXPECT_REQUIRED..];
    let given = chain_keys.iter().filter(|k| map.contains_key(**k)).count();
    let piece = match given {
        0 => None,
        3 => Some(ExpectedPiece {
            piece: piece(map)?.unwrap_or_default(),
            rule: match map.get("rule") {
                Some(Value::String(r)) => ChainRule::from_name(r).ok_or_else(|| {
                    format!(
                        "\"rule\" must be \"apart\", \"behind\", \"skip\", \"admit\" or \"snap\", found {r:?}"
                    )
                })?,
                other => {
                    return Err(format!(
                        "\"rule\" must be a string, found {}",
                        other.map_or("nothing".into(), describe)
                    ));
                }
            },
            two_sided: two_sided(map.get("two_sided"))?,
        }),
        _ => {
            return Err(
                "a chain's piece needs all of \"piece\", \"rule\" and \"two_sided\"".into(),
            );
        }
    };
    Ok(Expected {
        a,
        b,
        result,
        piece,
    })
}

/// A piece's `two_sided` result: `{"intersecting", "depth", "normal"}`.
fn two_sided(value: Option<&Value>) -> Result<TwoSided, String> {
    let Some(Value::Object(map)) = value else {
        return Err(format!(
            "\"two_sided\" must be an object with \"intersecting\", \"depth\" and \"normal\", found {}",
            value.map_or("nothing".into(), describe)
        ));
    };
    let keys = ["intersecting", "depth", "normal"];
    if let Some(key) = map.keys().find(|k| !keys.contains(&k.as_str())) {
        return Err(format!(
            "unknown key {} in \"two_sided\"{}",
            quoted_key(key),
            suggestion(key, &keys)
        ));
    }
    let fields = Fields(map);
    Ok(TwoSided {
        intersecting: boolean(map, "intersecting")?,
        depth: fields.number("depth")?,
        normal: match map.get("normal") {
            Some(Value::Null) => None,
            _ => Some(fields.point("normal")?),
        },
    })
}

/// One claim typed or pasted as a JSON object (`{"intersecting": true, "depth": 0.2,
/// "normal": [0, 1]}`), checked by the same rules as a file's claims. Without `a` and `b` it is
/// about `pair` (list positions); the claim's ids are the list positions, for the caller to
/// map to the scene's ids.
pub fn parse_claim(text: &str, pair: (usize, usize), shapes: usize) -> Result<Claim, String> {
    let mut value: Value = serde_json::from_str(text.trim())
        .map_err(|e| format!("not JSON: {}", without_position(&e)))?;
    if let Value::Object(map) = &mut value {
        map.entry("a").or_insert(pair.0.into());
        map.entry("b").or_insert(pair.1.into());
    }
    claim(&value, shapes)
}
