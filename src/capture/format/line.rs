//! One line of a capture read on its own: the header, or a frame line parsed and checked as far
//! as the line alone allows (keys, types, numbers, the claims' own rules). What depends on the
//! frames before it (ids present, kinds, continuity) is checked when the line is applied
//! ([`crate::capture::read`]). Parsing needs nothing but the line, so lines can be parsed in parallel.

use crate::Reported;
use crate::capture::format::parsed::{FrameLine, LineProblem, Malformed, MalformedWhat, ShapeKeys};
use crate::capture::{Engine, FORMAT, Header, VERSION};
use crate::files::{Fields, describe, quoted_key, spelled, suggestion, without_position};
use crate::scene::{CLAIM_KEYS, Precision, reported};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};

/// The line's text as one JSON object; a syntax error names its column, and a bare `NaN` or
/// `Infinity` the key it stands under.
pub(in crate::capture) fn object(bytes: &[u8]) -> Result<Map<String, Value>, LineProblem> {
    let value: Value = serde_json::from_slice(bytes).map_err(|e| syntax(bytes, &e))?;
    match value {
        Value::Object(map) => Ok(map),
        other => Err(LineProblem::new(format!(
            "expected a JSON object, found {}",
            describe(&other)
        ))),
    }
}

fn syntax(bytes: &[u8], e: &serde_json::Error) -> LineProblem {
    let column = e.column();
    let at = column.saturating_sub(1).min(bytes.len());
    let rest = &bytes[at..];
    let before_minus = at > 0 && bytes[at - 1] == b'-';
    let bare = if rest.starts_with(b"NaN") {
        Some(("NaN", at))
    } else if rest.starts_with(b"Infinity") {
        Some(if before_minus {
            ("-Infinity", at - 1)
        } else {
            ("Infinity", at)
        })
    } else {
        None
    };
    if let Some((word, start)) = bare {
        let under = match key_at(bytes, start) {
            Some(key) => format!(" (under {key:?})"),
            None => String::new(),
        };
        return LineProblem {
            column: Some(start + 1),
            message: format!("{word} is not a JSON number{under}"),
            syntax: true,
        };
    }
    if e.classify() == serde_json::error::Category::Eof {
        return LineProblem {
            column: Some(column),
            message: "the line is cut off (its JSON object never closes)".into(),
            syntax: true,
        };
    }
    LineProblem {
        column: Some(column),
        message: without_position(e),
        syntax: true,
    }
}

/// The key of the innermost object that byte `offset` stands in (inside an array under that
/// key too): `position` for the `NaN` of `{"position": [NaN, 0]}`.
fn key_at(bytes: &[u8], offset: usize) -> Option<String> {
    // Each open container, with the last key read in it (objects only).
    let mut stack: Vec<Option<String>> = Vec::new();
    let mut i = 0;
    let mut last_string: Option<String> = None;
    while i < offset.min(bytes.len()) {
        match bytes[i] {
            b'"' => {
                let start = i + 1;
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                last_string = std::str::from_utf8(&bytes[start..i.min(bytes.len())])
                    .ok()
                    .map(str::to_string);
            }
            b':' => {
                if let Some(top) = stack.last_mut() {
                    *top = last_string.take();
                }
            }
            b'{' | b'[' => stack.push(None),
            b'}' | b']' => {
                stack.pop();
            }
            _ => {}
        }
        i += 1;
    }
    stack.into_iter().rev().flatten().next()
}

/// The header line.
pub(in crate::capture) fn header(bytes: &[u8]) -> Result<Header, LineProblem> {
    let top = object(bytes)?;
    const KEYS: [&str; 6] = ["format", "version", "engine", "precision", "units", "y_up"];
    match top.get("format") {
        Some(Value::String(f)) if f == FORMAT => {}
        Some(other) => {
            return Err(format!("\"format\" must be {FORMAT:?}, found {}", spelled(other)).into());
        }
        None => {
            return Err(format!(
                "missing key \"format\" (a capture's first line says \"format\": {FORMAT:?})"
            )
            .into());
        }
    }
    match top.get("version") {
        Some(v) if v.as_u64() == Some(VERSION) => {}
        Some(other) => {
            return Err(format!(
                "\"version\" is {}, but this build reads capture version {VERSION}",
                spelled(other)
            )
            .into());
        }
        None => return Err("missing key \"version\"".to_string().into()),
    }
    unknown_key(&top, &KEYS, "in the header")?;
    let engine = match top.get("engine") {
        Some(Value::Object(engine)) => engine_of(engine)?,
        Some(other) => {
            return Err(format!(
                "\"engine\" must be an object {{\"name\", \"version\"}}, found {}",
                spelled(other)
            )
            .into());
        }
        None => {
            return Err("missing key \"engine\" ({\"name\": ..., \"version\": ...})"
                .to_string()
                .into());
        }
    };
    let precision = match top.get("precision") {
        Some(Value::String(p)) if p == "f64" => Precision::F64,
        Some(Value::String(p)) if p == "f32" => Precision::F32,
        Some(other) => {
            return Err(format!(
                "\"precision\" must be \"f64\" or \"f32\", found {}",
                spelled(other)
            )
            .into());
        }
        None => {
            return Err("missing key \"precision\" (\"f64\" or \"f32\")"
                .to_string()
                .into());
        }
    };
    let units = match top.get("units") {
        Some(Value::String(u)) if !u.is_empty() => u.clone(),
        Some(other) => {
            return Err(format!(
                "\"units\" must be a non-empty string (\"m\", \"px\"), found {}",
                spelled(other)
            )
            .into());
        }
        None => {
            return Err("missing key \"units\" (\"m\", \"px\", ...)"
                .to_string()
                .into());
        }
    };
    let y_up = match top.get("y_up") {
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(format!("\"y_up\" must be true or false, found {}", spelled(other)).into());
        }
        None => return Err("missing key \"y_up\" (true or false)".to_string().into()),
    };
    Ok(Header {
        engine,
        precision,
        units,
        y_up,
    })
}

fn engine_of(engine: &Map<String, Value>) -> Result<Engine, LineProblem> {
    unknown_key(engine, &["name", "version", "settings"], "in \"engine\"")?;
    let text = |key: &str, non_empty: bool| match engine.get(key) {
        Some(Value::String(s)) if !non_empty || !s.is_empty() => Ok(s.clone()),
        Some(other) => Err(LineProblem::new(format!(
            "\"engine\": {key:?} must be a{} string, found {}",
            if non_empty { " non-empty" } else { "" },
            spelled(other)
        ))),
        None => Err(LineProblem::new(format!("\"engine\": missing key {key:?}"))),
    };
    let settings = match engine.get("settings") {
        None => Map::new(),
        Some(Value::Object(settings)) => {
            if let Some((key, value)) = settings
                .iter()
                .find(|(_, v)| !matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_)))
            {
                return Err(format!(
                    "\"engine\": \"settings\": {key:?} must be a string, number or boolean, found {}",
                    spelled(value)
                )
                .into());
            }
            settings.clone()
        }
        Some(other) => {
            return Err(format!(
                "\"engine\": \"settings\" must be an object, found {}",
                spelled(other)
            )
            .into());
        }
    };
    Ok(Engine {
        name: text("name", true)?,
        version: text("version", false)?,
        settings,
    })
}

fn unknown_key(map: &Map<String, Value>, keys: &[&str], place: &str) -> Result<(), LineProblem> {
    match map.keys().find(|k| !keys.contains(&k.as_str())) {
        Some(key) => Err(format!(
            "unknown key {} {place}{}",
            quoted_key(key),
            suggestion(key, keys)
        )
        .into()),
        None => Ok(()),
    }
}

/// An id: an integer in [0, 2^53).
pub(in crate::capture) fn id_of(value: &Value) -> Option<u64> {
    value
        .as_u64()
        .filter(|id| crate::capture::format::rules::id(*id).is_ok())
}

fn id_error(key: &str, value: &Value) -> String {
    format!(
        "{key:?} must be an id (an integer from 0 to 2^53 - 1), found {}",
        spelled(value)
    )
}

/// Any frame line, every problem named.
pub(in crate::capture) fn full_frame_line(bytes: &[u8]) -> Result<FrameLine, LineProblem> {
    let mut top = object(bytes)?;
    const KEYS: [&str; 6] = ["frame", "time", "shapes", "removed", "claims", "malformed"];
    unknown_key(&top, &KEYS, "in a frame line")?;
    let frame = match top.get("frame") {
        Some(v) => v
            .as_u64()
            .ok_or_else(|| format!("\"frame\" must be an integer >= 0, found {}", spelled(v)))?,
        None => {
            return Err("missing key \"frame\" (the engine's step number)"
                .to_string()
                .into());
        }
    };
    let time = match top.get("time") {
        Some(v) => v
            .as_f64()
            .filter(|t| t.is_finite() && *t >= 0.0)
            .ok_or_else(|| format!("\"time\" must be a number >= 0, found {}", spelled(v)))?,
        None => return Err("missing key \"time\" (seconds)".to_string().into()),
    };
    let mut list = |key: &str| -> Result<Vec<Value>, LineProblem> {
        match top.remove(key) {
            None => Ok(Vec::new()),
            Some(Value::Array(items)) => Ok(items),
            Some(other) => {
                Err(format!("{key:?} must be an array, found {}", spelled(&other)).into())
            }
        }
    };
    let (shape_entries, removed_entries, claim_entries, malformed_entries) = (
        list("shapes")?,
        list("removed")?,
        list("claims")?,
        list("malformed")?,
    );
    let mut shapes: Vec<(u64, ShapeKeys)> = Vec::with_capacity(shape_entries.len());
    // Where each id first appears in this line.
    let mut first_at: HashMap<u64, usize> = HashMap::with_capacity(shape_entries.len());
    for (index, entry) in shape_entries.into_iter().enumerate() {
        let place = |message: String| LineProblem::new(format!("shape {index}: {message}"));
        let Value::Object(mut keys) = entry else {
            return Err(place(format!(
                "expected an object, found {}",
                spelled(&entry)
            )));
        };
        let id = match keys.remove("id") {
            Some(v) => id_of(&v).ok_or_else(|| place(id_error("id", &v)))?,
            None => return Err(place("missing key \"id\"".into())),
        };
        if let Some(first) = first_at.insert(id, index) {
            return Err(LineProblem::new(format!(
                "shape {index} (id {id}): \"id\" {id} is already shape {first} of this line (an id appears at most once per line)"
            )));
        }
        shapes.push((id, ShapeKeys::Keys(keys)));
    }
    let mut removed = Vec::with_capacity(removed_entries.len());
    let mut listed = HashSet::with_capacity(removed_entries.len());
    for (index, v) in removed_entries.iter().enumerate() {
        let id = id_of(v).ok_or_else(|| format!("\"removed\" {index}: {}", id_error("id", v)))?;
        if !listed.insert(id) {
            return Err(format!("\"removed\" {index}: id {id} is listed twice").into());
        }
        if first_at.contains_key(&id) {
            return Err(format!(
                "\"removed\" {index}: id {id} is also in this line's \"shapes\" (a removed id is gone from this frame on)"
            )
            .into());
        }
        removed.push(id);
    }
    let mut claims: Vec<(u64, u64, Reported)> = Vec::new();
    for (index, entry) in claim_entries.iter().enumerate() {
        claims.push(claim(entry).map_err(|m| claim_problem(index, entry, m))?);
    }
    let malformed = malformed_entries
        .into_iter()
        .enumerate()
        .map(|(index, entry)| {
            malformed(entry).map_err(|m| LineProblem::new(format!("\"malformed\" {index}: {m}")))
        })
        .collect::<Result<_, _>>()?;
    Ok(FrameLine {
        frame,
        time,
        shapes,
        removed,
        claims,
        malformed,
    })
}

/// One entry of a frame's `malformed`: `{"shape": {...}, "problem": "..."}` or `{"claim":
/// {...}, "problem": "..."}`. What it holds is kept as written, not checked (it is what
/// could not be held).
fn malformed(entry: Value) -> Result<Malformed, String> {
    let Value::Object(map) = entry else {
        return Err(format!(
            "expected an object {{\"shape\" or \"claim\", \"problem\"}}, found {}",
            spelled(&entry)
        ));
    };
    unknown_key(&map, &["shape", "claim", "problem"], "in a malformed entry")
        .map_err(|p| p.message)?;
    let problem = match map.get("problem") {
        Some(Value::String(p)) => p.clone(),
        Some(other) => {
            return Err(format!(
                "\"problem\" must be a string, found {}",
                spelled(other)
            ));
        }
        None => return Err("missing key \"problem\" (why it could not be held)".into()),
    };
    let number = |v: &Value, key: &str| v.get(key).and_then(Value::as_u64);
    let what = match (map.get("shape"), map.get("claim")) {
        (Some(shape @ Value::Object(_)), None) => MalformedWhat::Shape {
            id: number(shape, "id"),
        },
        (None, Some(claim @ Value::Object(_))) => MalformedWhat::Claim {
            a: number(claim, "a"),
            b: number(claim, "b"),
        },
        (Some(_), Some(_)) => {
            return Err("holds both \"shape\" and \"claim\": one entry is one of them".into());
        }
        (Some(v), None) | (None, Some(v)) => {
            return Err(format!(
                "the shape or claim must be an object, found {}",
                spelled(v)
            ));
        }
        (None, None) => return Err("missing key \"shape\" or \"claim\"".into()),
    };
    let value = map
        .into_iter()
        .find(|(k, _)| k != "problem")
        .map(|(_, v)| v)
        .unwrap_or_default();
    Ok(Malformed {
        what,
        problem,
        value,
    })
}

/// `claim 0 (ids 3 and 99): message`, with as much of the pair as could be read.
pub(in crate::capture) fn claim_problem(
    index: usize,
    entry: &Value,
    message: String,
) -> LineProblem {
    let pair = (
        entry.get("a").and_then(id_of),
        entry.get("b").and_then(id_of),
    );
    let place = match pair {
        (Some(a), Some(b)) => format!("claim {index} (ids {a} and {b})"),
        _ => format!("claim {index}"),
    };
    LineProblem::new(format!("{place}: {message}"))
}

fn claim(entry: &Value) -> Result<(u64, u64, Reported), String> {
    let Value::Object(map) = entry else {
        return Err(format!("expected an object, found {}", spelled(entry)));
    };
    if let Some(key) = map.keys().find(|k| !CLAIM_KEYS.contains(&k.as_str())) {
        return Err(format!(
            "unknown key {}{}",
            quoted_key(key),
            suggestion(key, &CLAIM_KEYS)
        ));
    }
    let id = |key: &str| match map.get(key) {
        Some(v) => id_of(v).ok_or_else(|| id_error(key, v)),
        None => Err(format!("missing key {key:?} (a shape's id)")),
    };
    let (a, b) = (id("a")?, id("b")?);
    if a == b {
        return Err(format!(
            "\"a\" and \"b\" are both id {a}: a pair needs two shapes"
        ));
    }
    Ok((a, b, reported(&Fields(map))?))
}
