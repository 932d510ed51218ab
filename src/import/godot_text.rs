//! Godot 4's text resource format, as `.tscn` scenes and `.tres` resources are written: a
//! sequence of sections, `[tag key=value ...]`, each followed by `key = value` properties.
//! Values are Godot's variant syntax: numbers, strings (`"..."`, `&"..."`, `^"..."`),
//! `true`/`false`/`null`, arrays, dictionaries, and constructors such as `Vector2(1, 2)`,
//! `PackedVector2Array(0, 0, 16, 0)`, `Transform2D(...)`, `SubResource("id")` or typed arrays
//! `Array[int]([1, 2])`. A value may span lines. Every problem names the line and column.
//!
//! Only the syntax is read here; what the sections mean (nodes, shapes, tile sets) is the
//! importer's.

use std::fmt;

/// A value in Godot's variant syntax.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number written without a point or exponent.
    Int(i64),
    /// Any other (finite) number.
    Float(f64),
    /// `"..."`, `&"..."` (a StringName) or `^"..."` (a NodePath literal).
    Str(String),
    /// `[a, b, ...]`.
    Array(Vec<Value>),
    /// `{key: value, ...}`, in file order.
    Dict(Vec<(Value, Value)>),
    /// `Name(args...)`: `Vector2(1, 2)`, `SubResource("id")`, `NodePath("a/b")`, and a typed
    /// array `Array[int]([1, 2])` as `Array` with its one argument.
    Call(String, Vec<Value>),
}

impl Value {
    /// The number, whether written as an integer or not.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Int(i) => Some(*i as f64),
            Value::Float(x) => Some(*x),
            _ => None,
        }
    }

    /// The string of a `"..."`, or of a one-string constructor (`NodePath("a")`,
    /// `SubResource("id")`, `ExtResource("1_abc")`).
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            Value::Call(_, args) => match args.as_slice() {
                [Value::Str(s)] => Some(s),
                _ => None,
            },
            _ => None,
        }
    }

    /// The arguments of a call named `name`, every one a number.
    pub fn numbers_of(&self, name: &str) -> Option<Vec<f64>> {
        match self {
            Value::Call(n, args) if n == name => args.iter().map(Value::as_f64).collect(),
            _ => None,
        }
    }
}

/// One section: its tag, its header's attributes and its properties, in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// `gd_scene`, `ext_resource`, `sub_resource`, `node`, `resource`, ...
    pub tag: String,
    /// The line its header is on (1-based).
    pub line: usize,
    /// The header's `key=value` pairs.
    pub attributes: Vec<(String, Value)>,
    /// The `key = value` lines under it.
    pub properties: Vec<(String, Value)>,
}

impl Section {
    /// A header attribute.
    pub fn attribute(&self, key: &str) -> Option<&Value> {
        self.attributes
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }

    /// A property (the last one given, if a key repeats).
    pub fn property(&self, key: &str) -> Option<&Value> {
        self.properties
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
    }
}

/// What is wrong with the text, and where.
#[derive(Clone, Debug, PartialEq)]
pub struct SyntaxError {
    /// 1-based.
    pub line: usize,
    /// 1-based, in bytes.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

/// Every section of `text`.
pub fn parse(text: &str) -> Result<Vec<Section>, SyntaxError> {
    let mut p = Parser {
        text: text.as_bytes(),
        at: 0,
    };
    let mut sections: Vec<Section> = Vec::new();
    loop {
        p.skip_blank();
        let Some(c) = p.peek() else { break };
        if c == b'[' {
            let line = p.position().0;
            p.at += 1;
            p.skip_spaces();
            let tag = p.word()?;
            let mut attributes = Vec::new();
            loop {
                p.skip_spaces();
                match p.peek() {
                    Some(b']') => {
                        p.at += 1;
                        break;
                    }
                    None | Some(b'\n') => {
                        return Err(p.error(
                            "the section header is not closed with ] (a header is one line)",
                        ));
                    }
                    Some(_) => {
                        let key = p.word()?;
                        p.skip_spaces();
                        p.expect(b'=')?;
                        p.skip_spaces();
                        attributes.push((key, p.value()?));
                    }
                }
            }
            sections.push(Section {
                tag,
                line,
                attributes,
                properties: Vec::new(),
            });
        } else {
            let key = p.key()?;
            p.skip_spaces();
            p.expect(b'=')?;
            p.skip_blank();
            let value = p.value()?;
            match sections.last_mut() {
                Some(section) => section.properties.push((key, value)),
                None => {
                    return Err(SyntaxError {
                        line: 1,
                        column: 1,
                        message: "a property before the first [section]".into(),
                    });
                }
            }
        }
    }
    Ok(sections)
}

/// The section `[tag]` of a project file (`project.godot`), parsed alone: the file's first
/// lines come before any section, and its other sections hold values import need not read
/// (input events written as `Object(...)`). `None` when the file has no such section. Lines
/// in errors are the file's.
pub fn project_section(text: &str, tag: &str) -> Result<Option<Section>, SyntaxError> {
    let header = format!("[{tag}]");
    let lines: Vec<&str> = text.lines().collect();
    let Some(start) = lines.iter().position(|l| l.trim() == header) else {
        return Ok(None);
    };
    let end = lines[start + 1..]
        .iter()
        .position(|l| l.starts_with('['))
        .map_or(lines.len(), |k| start + 1 + k);
    // Blank lines before it keep the file's line numbers.
    let alone = "\n".repeat(start) + &lines[start..end].join("\n");
    Ok(parse(&alone)?.into_iter().next())
}

struct Parser<'a> {
    text: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.text.get(self.at).copied()
    }

    /// Line and column (1-based, columns in bytes) of the current place.
    fn position(&self) -> (usize, usize) {
        let before = &self.text[..self.at.min(self.text.len())];
        let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
        let start = before
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |i| i + 1);
        (line, self.at - start + 1)
    }

    fn error(&self, message: impl Into<String>) -> SyntaxError {
        let (line, column) = self.position();
        SyntaxError {
            line,
            column,
            message: message.into(),
        }
    }

    fn found(&self) -> String {
        match self.peek() {
            None => "the end of the file".into(),
            Some(b'\n' | b'\r') => "the end of the line".into(),
            Some(c) if c.is_ascii_graphic() => format!("\"{}\"", c as char),
            Some(c) => format!("byte {c:#04x}"),
        }
    }

    fn skip_spaces(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r')) {
            self.at += 1;
        }
    }

    /// Spaces, line ends and `;` comments.
    fn skip_blank(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r' | b'\n') => self.at += 1,
                Some(b';') => {
                    while !matches!(self.peek(), None | Some(b'\n')) {
                        self.at += 1;
                    }
                }
                _ => return,
            }
        }
    }

    fn expect(&mut self, c: u8) -> Result<(), SyntaxError> {
        if self.peek() == Some(c) {
            self.at += 1;
            Ok(())
        } else {
            Err(self.error(format!(
                "expected \"{}\", found {}",
                c as char,
                self.found()
            )))
        }
    }

    /// A name: letters, digits, `_`.
    fn word(&mut self) -> Result<String, SyntaxError> {
        let start = self.at;
        while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || c == b'_') {
            self.at += 1;
        }
        if self.at == start {
            return Err(self.error(format!("expected a name, found {}", self.found())));
        }
        Ok(String::from_utf8_lossy(&self.text[start..self.at]).into_owned())
    }

    /// A property key: anything up to ` =` on its line (`0:0/0/physics_layer_0/polygon_0/points`,
    /// `metadata/_edit_group_`), or a quoted string.
    fn key(&mut self) -> Result<String, SyntaxError> {
        if self.peek() == Some(b'"') {
            return self.string();
        }
        let start = self.at;
        while matches!(self.peek(), Some(c) if c != b'=' && c != b'\n' && c != b' ' && c != b'\t') {
            self.at += 1;
        }
        if self.at == start {
            return Err(self.error(format!("expected a property name, found {}", self.found())));
        }
        Ok(String::from_utf8_lossy(&self.text[start..self.at]).into_owned())
    }

    fn string(&mut self) -> Result<String, SyntaxError> {
        let open = self.error("");
        self.expect(b'"')?;
        let mut out = Vec::new();
        loop {
            match self.peek() {
                None => {
                    return Err(SyntaxError {
                        message: "this string is not closed".into(),
                        ..open
                    });
                }
                Some(b'"') => {
                    self.at += 1;
                    break;
                }
                Some(b'\\') => {
                    self.at += 1;
                    let c = self
                        .peek()
                        .ok_or_else(|| self.error("a string ends in \\"))?;
                    self.at += 1;
                    match c {
                        b'n' => out.push(b'\n'),
                        b't' => out.push(b'\t'),
                        b'r' => out.push(b'\r'),
                        b'u' | b'U' => {
                            let digits = if c == b'u' { 4 } else { 6 };
                            let hex = self
                                .text
                                .get(self.at..self.at + digits)
                                .and_then(|h| std::str::from_utf8(h).ok())
                                .and_then(|h| u32::from_str_radix(h, 16).ok())
                                .and_then(char::from_u32)
                                .ok_or_else(|| self.error("a \\u escape needs hex digits"))?;
                            self.at += digits;
                            let mut buf = [0; 4];
                            out.extend_from_slice(hex.encode_utf8(&mut buf).as_bytes());
                        }
                        other => out.push(other),
                    }
                }
                Some(c) => {
                    out.push(c);
                    self.at += 1;
                }
            }
        }
        String::from_utf8(out).map_err(|_| SyntaxError {
            message: "this string is not UTF-8".into(),
            ..open
        })
    }

    fn number(&mut self) -> Result<Value, SyntaxError> {
        let start = self.at;
        while matches!(self.peek(), Some(c) if c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.'))
        {
            self.at += 1;
        }
        let text = std::str::from_utf8(&self.text[start..self.at]).unwrap_or("");
        let fail = || SyntaxError {
            message: format!("{text:?} is not a number"),
            ..self.error("")
        };
        let plain = text.trim_start_matches(['-', '+']);
        let integer = !plain.is_empty() && plain.bytes().all(|c| c.is_ascii_digit());
        if integer {
            return text.parse().map(Value::Int).or_else(|_| {
                // Beyond i64: as a float, as Godot reads it.
                text.parse().map(Value::Float).map_err(|_| fail())
            });
        }
        match plain {
            "inf" | "inf_neg" | "nan" => Err(SyntaxError {
                message: format!("{text:?}: collidoscope keeps finite numbers only"),
                ..self.error("")
            }),
            _ => text
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .map(Value::Float)
                .ok_or_else(fail),
        }
    }

    /// Comma-separated values up to `close`, blank lines and comments allowed between.
    fn list(&mut self, close: u8) -> Result<Vec<Value>, SyntaxError> {
        let mut items = Vec::new();
        loop {
            self.skip_blank();
            if self.peek() == Some(close) {
                self.at += 1;
                return Ok(items);
            }
            items.push(self.value()?);
            self.skip_blank();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(c) if c == close => {}
                _ => {
                    return Err(self.error(format!(
                        "expected \",\" or \"{}\", found {}",
                        close as char,
                        self.found()
                    )));
                }
            }
        }
    }

    fn value(&mut self) -> Result<Value, SyntaxError> {
        match self.peek() {
            Some(b'"') => self.string().map(Value::Str),
            Some(b'&' | b'^') => {
                self.at += 1;
                self.string().map(Value::Str)
            }
            Some(b'[') => {
                self.at += 1;
                self.list(b']').map(Value::Array)
            }
            Some(b'{') => {
                self.at += 1;
                let mut pairs = Vec::new();
                loop {
                    self.skip_blank();
                    if self.peek() == Some(b'}') {
                        self.at += 1;
                        return Ok(Value::Dict(pairs));
                    }
                    let key = self.value()?;
                    self.skip_blank();
                    self.expect(b':')?;
                    self.skip_blank();
                    pairs.push((key, self.value()?));
                    self.skip_blank();
                    match self.peek() {
                        Some(b',') => self.at += 1,
                        Some(b'}') => {}
                        _ => {
                            return Err(self.error(format!(
                                "expected \",\" or \"}}\", found {}",
                                self.found()
                            )));
                        }
                    }
                }
            }
            Some(c) if c.is_ascii_digit() || c == b'-' || c == b'+' || c == b'.' => self.number(),
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                let name = self.word()?;
                match name.as_str() {
                    "true" => return Ok(Value::Bool(true)),
                    "false" => return Ok(Value::Bool(false)),
                    "null" => return Ok(Value::Null),
                    "inf" | "nan" => {
                        return Err(
                            self.error(format!("{name}: collidoscope keeps finite numbers only"))
                        );
                    }
                    _ => {}
                }
                // A typed array: Array[int]([1, 2]).
                if self.peek() == Some(b'[') {
                    self.at += 1;
                    self.skip_spaces();
                    let _element = self.word()?;
                    self.skip_spaces();
                    self.expect(b']')?;
                }
                self.skip_spaces();
                self.expect(b'(').map_err(|e| SyntaxError {
                    message: format!("{name} must be followed by (...): {}", e.message),
                    ..e
                })?;
                let args = self.list(b')')?;
                Ok(Value::Call(name, args))
            }
            _ => Err(self.error(format!("expected a value, found {}", self.found()))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scene_reads_into_sections_properties_and_values() {
        let text = r#"[gd_scene load_steps=3 format=3 uid="uid://b3x"]

[ext_resource type="PackedScene" uid="uid://c8" path="res://player/player.tscn" id="1_ab3"]

[sub_resource type="RectangleShape2D" id="RectangleShape2D_x1"]
size = Vector2(64, 16.5)

[node name="World" type="Node2D"]

[node name="Floor" type="StaticBody2D" parent="."]
position = Vector2(320, 400)
rotation = -0.261799
metadata/_edit_group_ = true

[node name="CollisionShape2D" type="CollisionShape2D" parent="Floor"]
shape = SubResource("RectangleShape2D_x1")

[node name="Wall" type="CollisionPolygon2D" parent="."]
polygon = PackedVector2Array(0, 0, 16, 0,
 16, 32, 0, 32)

[node name="Player" parent="." instance=ExtResource("1_ab3")]
groups = Array[StringName]([&"players"])
data = {
"a": [1, 2.5e-3, "x\"y"],
2: null
}
"#;
        let sections = parse(text).unwrap();
        assert_eq!(sections.len(), 8);
        assert_eq!(sections[0].tag, "gd_scene");
        assert_eq!(sections[0].attribute("format"), Some(&Value::Int(3)));
        assert_eq!(
            sections[1].attribute("path").and_then(Value::as_str),
            Some("res://player/player.tscn")
        );
        assert_eq!(
            sections[2].property("size").unwrap().numbers_of("Vector2"),
            Some(vec![64.0, 16.5])
        );
        assert_eq!(sections[4].line, 10);
        assert_eq!(
            sections[4].property("rotation"),
            Some(&Value::Float(-0.261799))
        );
        assert_eq!(
            sections[4].property("metadata/_edit_group_"),
            Some(&Value::Bool(true))
        );
        assert_eq!(
            sections[5].property("shape").and_then(Value::as_str),
            Some("RectangleShape2D_x1")
        );
        assert_eq!(
            sections[6]
                .property("polygon")
                .unwrap()
                .numbers_of("PackedVector2Array"),
            Some(vec![0.0, 0.0, 16.0, 0.0, 16.0, 32.0, 0.0, 32.0])
        );
        assert_eq!(
            sections[6].attribute("name").and_then(Value::as_str),
            Some("Wall")
        );
        let player = &sections[7];
        assert_eq!(
            player.property("groups"),
            Some(&Value::Call(
                "Array".into(),
                vec![Value::Array(vec![Value::Str("players".into())])]
            ))
        );
        assert_eq!(
            player.property("data"),
            Some(&Value::Dict(vec![
                (
                    Value::Str("a".into()),
                    Value::Array(vec![
                        Value::Int(1),
                        Value::Float(2.5e-3),
                        Value::Str("x\"y".into())
                    ])
                ),
                (Value::Int(2), Value::Null)
            ]))
        );
    }

    #[test]
    fn a_tile_set_key_with_slashes_and_colons_is_one_key() {
        let text = "[gd_resource type=\"TileSet\" format=3]\n\n[resource]\n0:0/0/physics_layer_0/polygon_0/points = PackedVector2Array(-8, -8, 8, -8, 8, 8, -8, 8)\n";
        let sections = parse(text).unwrap();
        assert_eq!(
            sections[1].properties[0].0,
            "0:0/0/physics_layer_0/polygon_0/points"
        );
    }

    #[test]
    fn every_syntax_error_names_its_line_and_column() {
        let cases = [
            (
                "[node name=\"A\"\n",
                "line 1, column 15: the section header is not closed with ] (a header is one line)",
            ),
            (
                "[node]\nposition = Vector2(1, 2\n",
                "line 3, column 1: expected \",\" or \")\", found the end of the file",
            ),
            (
                "[node]\nsize = Vector2(1, inf)\n",
                "line 2, column 22: inf: collidoscope keeps finite numbers only",
            ),
            (
                "[node]\nname = \"open\n",
                "line 2, column 8: this string is not closed",
            ),
            (
                "position = Vector2(1, 2)\n",
                "line 1, column 1: a property before the first [section]",
            ),
            (
                "[node]\nx = 1.2.3\n",
                "line 2, column 10: \"1.2.3\" is not a number",
            ),
            (
                "[node]\nx = Vector2\n",
                "line 2, column 12: Vector2 must be followed by (...): expected \"(\", found the end of the line",
            ),
        ];
        let wrong: Vec<String> = cases
            .iter()
            .filter_map(|(text, message)| {
                let got = parse(text).unwrap_err().to_string();
                (got != *message).then(|| format!("{text:?}: {got}"))
            })
            .collect();
        assert!(wrong.is_empty(), "{wrong:#?}");
    }
}
