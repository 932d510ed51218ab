//! The packet log file (`"format": "collidoscope-packets"`): the players' shapes and every
//! packet in arrival order. Read whole and checked: a bad log is refused with the packet's
//! index and the field named; written one packet per line, atomically.

use crate::files::{FileError, Problem, describe, syntax_problem, write_atomically};
use crate::geometry::{DVec2, Placed, Pose, Shape};
use crate::scene::{Scene, SceneShape, parse_player, player_line};
use serde::Deserialize;
use serde_json::Value;
use std::path::Path;

/// How far from time 0 a packet's times may be (ms; about 31.7 years): beyond it, a bucket's
/// index no longer counts exactly.
pub const MAX_TIME_MS: f64 = 1e12;

/// The `format` of a packet log.
pub const FORMAT: &str = "collidoscope-packets";

/// Whether `bytes` say they are a packet log (their `"format"`).
pub fn is_packet_log_text(bytes: &[u8]) -> bool {
    crate::files::format_of(bytes).as_deref() == Some(FORMAT)
}
/// The version this build reads and writes.
pub const VERSION: u64 = 1;

/// One player: a shape, its poses coming from its packets.
#[derive(Clone, Debug, PartialEq)]
pub struct Player {
    /// Its name, if the log gives one.
    pub name: Option<String>,
    /// Its shape in its own frame.
    pub shape: Shape,
}

impl Player {
    /// The name, or `player I`.
    pub fn display_name(&self, index: usize) -> String {
        self.name
            .clone()
            .unwrap_or_else(|| format!("player {index}"))
    }
}

/// One packet: where a player was when it sent it, and when the server got it.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
pub struct Packet {
    /// Index into the players.
    pub player: usize,
    /// When the player sent it (ms).
    pub sent: f64,
    /// When the server received it (ms).
    pub received: f64,
    /// The player's position at `sent`.
    #[serde(with = "pair")]
    pub position: DVec2,
    /// The player's angle at `sent` (radians; 0 when absent).
    #[serde(default)]
    pub angle: f64,
}

mod pair {
    use crate::geometry::DVec2;
    use serde::{Deserialize, Deserializer};

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DVec2, D::Error> {
        let [x, y] = <[f64; 2]>::deserialize(d)?;
        Ok(DVec2::new(x, y))
    }
}

/// A packet log: players and their packets in arrival order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PacketLog {
    /// The players.
    pub players: Vec<Player>,
    /// The packets, in the order the server received them.
    pub packets: Vec<Packet>,
}

/// The fast reading: every field of the expected type. When it fails, the log is walked by
/// hand to say which packet and field are wrong.
#[derive(Deserialize)]
struct Typed {
    format: String,
    version: u64,
    players: Vec<Value>,
    packets: Vec<Packet>,
}

impl PacketLog {
    /// Every player at its first and last packet (by arrival): what a view fits to see every
    /// place the players are seen.
    pub fn extent(&self) -> Scene {
        let mut shapes = Vec::new();
        for (i, player) in self.players.iter().enumerate() {
            let mut mine = self.packets.iter().filter(|p| p.player == i);
            for p in mine.clone().take(1).chain(mine.next_back()) {
                shapes.push(SceneShape::new(
                    None,
                    Placed::new(player.shape.clone(), Pose::new(p.position, p.angle)),
                ));
            }
        }
        Scene::from_shapes(shapes)
    }

    /// Read and check the packet log at `path`.
    pub fn load(path: &Path) -> Result<Self, FileError> {
        let bytes = std::fs::read(path)
            .map_err(|e| FileError::new(path, Problem::io("cannot read the file", e)))?;
        Self::parse(path, &bytes)
    }

    /// Check the bytes of a packet log; `path` only names it in messages.
    pub fn parse(path: &Path, bytes: &[u8]) -> Result<Self, FileError> {
        parse_document(bytes).map_err(|problem| FileError::new(path, problem))
    }

    /// The earliest and latest `sent` of its packets (none without packets).
    pub fn sent_range(&self) -> Option<(f64, f64)> {
        let first = self.packets.first()?.sent;
        Some(self.packets.iter().fold((first, first), |(lo, hi), p| {
            (lo.min(p.sent), hi.max(p.sent))
        }))
    }

    /// Check a log built in memory by the rules a file is read by.
    pub fn check(&self) -> Result<(), Problem> {
        check_packets(&self.packets, self.players.len())
    }

    /// The log as its file: the header, then one player and one packet per line.
    pub fn to_json(&self) -> String {
        let mut text =
            format!("{{\n  \"format\": {FORMAT:?},\n  \"version\": {VERSION},\n  \"players\": [");
        for (i, p) in self.players.iter().enumerate() {
            text.push_str(if i == 0 { "\n    " } else { ",\n    " });
            text.push_str(&player_line(p.name.as_deref(), &p.shape));
        }
        text.push_str("\n  ],\n  \"packets\": [");
        let number = |x: f64| serde_json::to_string(&x).expect("finite numbers serialise");
        for (i, p) in self.packets.iter().enumerate() {
            text.push_str(if i == 0 { "\n    " } else { ",\n    " });
            text.push_str(&format!(
                "{{\"player\": {}, \"sent\": {}, \"received\": {}, \"position\": [{}, {}], \"angle\": {}}}",
                p.player,
                number(p.sent),
                number(p.received),
                number(p.position.x),
                number(p.position.y),
                number(p.angle)
            ));
        }
        text.push_str("\n  ]\n}\n");
        text
    }

    /// Write the log to `path` atomically; a log its reader would refuse (a number not
    /// finite, packets out of arrival order) is refused instead, naming the packet and field,
    /// and nothing is written.
    pub fn save(&self, path: &Path) -> Result<(), FileError> {
        self.check()
            .map_err(|problem| FileError::new(path, problem))?;
        write_atomically(path, self.to_json().as_bytes())
            .map_err(|e| FileError::new(path, Problem::io("cannot write the file", e)))
    }
}

fn parse_document(bytes: &[u8]) -> Result<PacketLog, Problem> {
    let text = std::str::from_utf8(bytes).map_err(|e| Problem::NotText {
        offset: e.valid_up_to(),
    })?;
    if text.trim().is_empty() {
        return Err(Problem::Empty);
    }
    let typed: Typed = match serde_json::from_str(text) {
        Ok(typed) => typed,
        // Well-formed JSON of the wrong shape (a position of three numbers reads as
        // "trailing characters" to the typed reader): find the place by walking it. Only JSON
        // that does not parse at all is a syntax error.
        Err(e) => {
            let value: Value = serde_json::from_str(text).map_err(syntax_problem)?;
            walk(&value)?;
            return Err(if e.is_syntax() || e.is_eof() {
                syntax_problem(e)
            } else {
                Problem::Document(e.to_string())
            });
        }
    };
    if typed.format != FORMAT {
        return Err(Problem::Document(format!(
            "\"format\" must be {FORMAT:?}, found {:?}",
            typed.format
        )));
    }
    if typed.version != VERSION {
        return Err(Problem::Document(format!(
            "version {} is not supported: this build reads packet logs of version {VERSION}",
            typed.version
        )));
    }
    let players = typed
        .players
        .iter()
        .enumerate()
        .map(|(i, v)| parse_player(i, v).map(|(name, shape)| Player { name, shape }))
        .collect::<Result<Vec<_>, _>>()?;
    check_packets(&typed.packets, players.len())?;
    Ok(PacketLog {
        players,
        packets: typed.packets,
    })
}

/// The rules typed reading cannot see: known players, finite numbers, arrival order.
fn check_packets(packets: &[Packet], players: usize) -> Result<(), Problem> {
    let mut last_received = f64::NEG_INFINITY;
    for (i, p) in packets.iter().enumerate() {
        let fail = |field: &str, message: String| {
            Problem::Document(format!("packet {i}: \"{field}\" {message}"))
        };
        if p.player >= players {
            let known = match players {
                0 => "the log has no players".to_string(),
                1 => "the only player is 0".to_string(),
                n => format!("players are 0 to {}", n - 1),
            };
            return Err(fail(
                "player",
                format!("{} is not a player ({known})", p.player),
            ));
        }
        for (field, x) in [
            ("sent", p.sent),
            ("received", p.received),
            ("angle", p.angle),
        ] {
            if !x.is_finite() {
                return Err(fail(field, format!("must be a finite number, found {x}")));
            }
            if field != "angle" && x.abs() > MAX_TIME_MS {
                return Err(fail(
                    field,
                    format!(
                        "is {x:e} ms, farther from time 0 than {:e} ms (about 31.7 years)",
                        MAX_TIME_MS
                    ),
                ));
            }
        }
        if !p.position.is_finite() {
            return Err(fail(
                "position",
                format!(
                    "must be two finite numbers, found [{}, {}]",
                    p.position.x, p.position.y
                ),
            ));
        }
        if p.received < last_received {
            return Err(fail(
                "received",
                format!(
                    "{} goes backwards: the packet before it was received at {last_received} \
                     (packets are listed in arrival order)",
                    p.received
                ),
            ));
        }
        last_received = p.received;
    }
    Ok(())
}

/// Name the first place where the log is not of the expected shape.
fn walk(value: &Value) -> Result<(), Problem> {
    let doc = |m: String| Err(Problem::Document(m));
    let Value::Object(top) = value else {
        return doc(format!(
            "expected a JSON object with \"format\", \"version\", \"players\" and \"packets\", found {}",
            describe(value)
        ));
    };
    for key in ["format", "version", "players", "packets"] {
        if !top.contains_key(key) {
            return doc(format!("missing key {key:?}"));
        }
    }
    if !top["format"].is_string() {
        return doc(format!(
            "\"format\" must be {FORMAT:?}, found {}",
            describe(&top["format"])
        ));
    }
    if top["version"].as_u64().is_none() {
        return doc(format!(
            "\"version\" must be {VERSION}, found {}",
            describe(&top["version"])
        ));
    }
    let Value::Array(_) = &top["players"] else {
        return doc(format!(
            "\"players\" must be an array, found {}",
            describe(&top["players"])
        ));
    };
    let Value::Array(packets) = &top["packets"] else {
        return doc(format!(
            "\"packets\" must be an array, found {}",
            describe(&top["packets"])
        ));
    };
    for (i, p) in packets.iter().enumerate() {
        let Value::Object(fields) = p else {
            return doc(format!(
                "packet {i}: expected an object, found {}",
                describe(p)
            ));
        };
        let field = |key: &str, ok: bool, wanted: &str| -> Result<(), Problem> {
            match fields.get(key) {
                None if key == "angle" => Ok(()),
                None => Err(Problem::Document(format!(
                    "packet {i}: missing key {key:?}"
                ))),
                Some(v) if !ok => Err(Problem::Document(format!(
                    "packet {i}: \"{key}\" must be {wanted}, found {}",
                    describe(v)
                ))),
                Some(_) => Ok(()),
            }
        };
        let number = |key: &str| fields.get(key).is_some_and(Value::is_number);
        field(
            "player",
            fields.get("player").is_some_and(|v| v.as_u64().is_some()),
            "a player index (a whole number from 0)",
        )?;
        field("sent", number("sent"), "a number (ms)")?;
        field("received", number("received"), "a number (ms)")?;
        if let Some(numbers) = fields
            .get("position")
            .and_then(Value::as_array)
            .filter(|a| a.len() != 2 && !a.is_empty() && a.iter().all(Value::is_number))
        {
            return doc(format!(
                "packet {i}: \"position\" must be two numbers, found {}",
                numbers.len()
            ));
        }
        let pair = fields.get("position").is_some_and(|v| {
            v.as_array()
                .is_some_and(|a| a.len() == 2 && a.iter().all(Value::is_number))
        });
        field("position", pair, "two numbers [x, y]")?;
        field("angle", number("angle"), "a number (radians)")?;
    }
    Ok(())
}
