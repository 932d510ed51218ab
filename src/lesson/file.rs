//! The lesson file, `collidoscope-lesson` version 1 (docs/format.md, "Lessons"): read and
//! checked with the same care as a shape set. Unknown keys are refused by name, every path is
//! resolved against the lesson file and read when the lesson is, and a broken slide is named
//! by its number (from 1) and title.

use crate::files::{FileError, Problem, describe, quoted_key, suggestion, syntax_problem};
use crate::geometry::DVec2;
use crate::latency::PacketLog;
use crate::motion::{Resolver, Substeps};
use crate::picture::BroadShown;
use crate::scene::Scene;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// A lesson: a title and its slides, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Lesson {
    /// What the lesson teaches, in a few words.
    pub title: String,
    /// At least one.
    pub slides: Vec<Slide>,
}

/// One slide: a scene set up in a lab, and a few sentences.
#[derive(Clone, Debug, PartialEq)]
pub struct Slide {
    /// The slide's heading.
    pub title: String,
    /// Paragraphs.
    pub text: Vec<String>,
    /// The shapes shown.
    pub scene: Scene,
    /// The scene's file, when the slide names one (resolved against the lesson file).
    pub scene_file: Option<PathBuf>,
    /// The lab the slide is shown in, with its settings.
    pub lab: SlideLab,
    /// The pair shown; `None`: the scene's first intersecting pair, else (0, 1).
    pub pair: Option<(usize, usize)>,
    /// Where step mode starts.
    pub step: SlideStep,
    /// Also show the naive MTV.
    pub naive: bool,
    /// The view; `None`: fitted as the window fits.
    pub view: Option<View>,
}

/// Where a slide starts in step mode.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SlideStep {
    /// SAT step k (from 1): the verdict hidden until the last step.
    At(usize),
    /// Every axis and the verdict.
    All,
}

/// The part of the world a slide shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    /// The world point in the middle of the view.
    pub center: DVec2,
    /// World units across the view (finite, > 0).
    pub width: f64,
}

/// The lab a slide shows, with its own settings.
#[derive(Clone, Debug, PartialEq)]
pub enum SlideLab {
    /// The pair lab: the separating-axis test of one pair.
    Pair,
    /// The broad-phase lab: the grid, its cells and candidate pairs.
    Broad {
        /// The grid's cell size (world units; `None`: chosen from the shapes, as the lab
        /// opens).
        cell: Option<f64>,
        /// What the overlay draws (`None`: everything, as the lab opens).
        show: Option<BroadShown>,
    },
    /// The casts lab: a ray against the scene.
    Casts {
        /// The ray, from and to.
        ray: Option<(DVec2, DVec2)>,
    },
    /// The motion lab, stopped at a frame.
    Motion {
        /// The time step (seconds).
        dt: Option<f64>,
        /// How many steps are run.
        steps: Option<u32>,
        /// The resolver.
        resolver: Option<Resolver>,
        /// Substeps per step.
        substeps: Option<Substeps>,
        /// The frame shown (0: the start).
        frame: Option<u32>,
    },
    /// The latency lab, with some packets arrived.
    Latency {
        /// The packet log (`None`: generated from the scene).
        log: Option<PacketLog>,
        /// The bucket step (milliseconds, as packet logs count time).
        step: Option<f64>,
        /// Whether the collisions are found swept between buckets.
        swept: bool,
        /// Packets arrived so far.
        arrived: Option<usize>,
        /// The moment shown (ms; `None`: the latest collision standing, else the latest time
        /// a packet arrived was sent).
        time: Option<f64>,
    },
}

const TOP_KEYS: [&str; 4] = ["format", "version", "title", "slides"];
const SLIDE_KEYS: [&str; 8] = [
    "title", "text", "scene", "lab", "pair", "step", "naive", "view",
];
/// Keys that belong to one lab only, with the lab.
const LAB_KEYS: [(&str, &str); 12] = [
    ("cell", "broad"),
    ("show", "broad"),
    ("ray", "casts"),
    ("dt", "motion"),
    ("steps", "motion"),
    ("resolver", "motion"),
    ("substeps", "motion"),
    ("frame", "motion"),
    ("log", "latency"),
    ("swept", "latency"),
    ("arrived", "latency"),
    ("time", "latency"),
];
/// What a broad-phase slide's `show` may name, in the overlay's order.
const BROAD_SHOWN: [&str; 3] = ["cells", "candidates", "hits"];
const LABS: [&str; 5] = ["pair", "broad", "casts", "motion", "latency"];

impl Lesson {
    /// Read and check the lesson at `path`, with every file it names.
    pub fn load(path: &Path) -> Result<Lesson, FileError> {
        let bytes = std::fs::read(path)
            .map_err(|e| FileError::new(path, Problem::io("cannot read the file", e)))?;
        Lesson::parse(path, &bytes, &|p: &Path| std::fs::read(p))
    }

    /// Check the bytes of a lesson; `path` names it in messages, and the files it names are
    /// resolved against it and read through `read` (the disk, or the lessons built in).
    pub fn parse(path: &Path, bytes: &[u8], read: &Read<'_>) -> Result<Lesson, FileError> {
        let fail = |problem| FileError::new(path, problem);
        let text = std::str::from_utf8(bytes).map_err(|e| {
            fail(Problem::NotText {
                offset: e.valid_up_to(),
            })
        })?;
        if text.trim().is_empty() {
            return Err(fail(Problem::Empty));
        }
        let value: Value = serde_json::from_str(text).map_err(|e| fail(syntax_problem(e)))?;
        let document = |m: String| fail(Problem::Document(m));
        let Value::Object(top) = value else {
            return Err(document(format!(
                "expected a JSON object with \"format\", \"version\", \"title\" and \"slides\", found {}",
                describe(&value)
            )));
        };
        match top.get("format") {
            Some(Value::String(f)) if f == "collidoscope-lesson" => {}
            Some(other) => {
                return Err(document(format!(
                    "\"format\" must be \"collidoscope-lesson\", found {}",
                    describe(other)
                )));
            }
            None => return Err(document("missing key \"format\"".into())),
        }
        match top.get("version").and_then(Value::as_u64) {
            Some(1) => {}
            Some(v) => {
                return Err(document(format!(
                    "version {v}: this build reads lesson files of version 1"
                )));
            }
            None => return Err(document("\"version\" must be 1".into())),
        }
        unknown(&top, &TOP_KEYS, "at the top level").map_err(document)?;
        let title = string(&top, "title").map_err(document)?;
        let slides = match top.get("slides") {
            Some(Value::Array(s)) if !s.is_empty() => s,
            Some(Value::Array(_)) => {
                return Err(document(
                    "\"slides\" is empty: a lesson has a slide at least".into(),
                ));
            }
            Some(other) => {
                return Err(document(format!(
                    "\"slides\" must be an array, found {}",
                    describe(other)
                )));
            }
            None => return Err(document("missing key \"slides\"".into())),
        };
        let slides = slides
            .iter()
            .enumerate()
            .map(|(i, s)| slide(path, read, s).map_err(|m| document(format!("slide {}{m}", i + 1))))
            .collect::<Result<Vec<Slide>, FileError>>()?;
        Ok(Lesson { title, slides })
    }
}

/// The first key of `object` not in `allowed`, refused by name.
fn unknown(object: &Map<String, Value>, allowed: &[&str], place: &str) -> Result<(), String> {
    match object.keys().find(|k| !allowed.contains(&k.as_str())) {
        Some(key) => Err(format!(
            "unknown key {} {place}{}",
            quoted_key(key),
            suggestion(key, allowed)
        )),
        None => Ok(()),
    }
}

fn string(object: &Map<String, Value>, key: &str) -> Result<String, String> {
    match object.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(other) => Err(format!(
            "{key:?} must be a string, found {}",
            describe(other)
        )),
        None => Err(format!("missing key {key:?}")),
    }
}

/// An optional `true` or `false` (default `false`).
fn flag(object: &Map<String, Value>, key: &str) -> Result<bool, String> {
    match object.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(format!(
            "{key:?} must be true or false, found {}",
            describe(other)
        )),
    }
}

fn number(value: &Value, key: &str) -> Result<f64, String> {
    value
        .as_f64()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("{key:?} must be a number, found {}", describe(value)))
}

fn whole(value: &Value, key: &str) -> Result<u64, String> {
    value.as_u64().ok_or_else(|| {
        format!(
            "{key:?} must be a whole number >= 0, found {}",
            describe(value)
        )
    })
}

fn point(value: &Value, key: &str) -> Result<DVec2, String> {
    crate::files::as_point(value)
        .ok_or_else(|| crate::files::point_error(&format!("{key:?}"), value))
}

/// How a lesson reads the files it names: the disk, or the table of files built in.
pub type Read<'a> = dyn Fn(&Path) -> std::io::Result<Vec<u8>> + 'a;

/// The file at `path`, read through `read` and checked by `parse`.
fn read_beside<T>(
    read: &Read<'_>,
    path: &Path,
    parse: fn(&Path, &[u8]) -> Result<T, FileError>,
) -> Result<T, FileError> {
    let bytes =
        read(path).map_err(|e| FileError::new(path, Problem::io("cannot read the file", e)))?;
    parse(path, &bytes)
}

/// A file a slide names, relative to the lesson.
fn beside(lesson: &Path, file: &str) -> PathBuf {
    lesson.parent().unwrap_or(Path::new(".")).join(file)
}

/// One slide; its error starts with ` "TITLE": ` (or `: ` before the title is known).
fn slide(lesson: &Path, read: &Read<'_>, value: &Value) -> Result<Slide, String> {
    let Value::Object(s) = value else {
        return Err(format!(": expected an object, found {}", describe(value)));
    };
    let title = string(s, "title").map_err(|m| format!(": {m}"))?;
    slide_body(lesson, read, s)
        .map_err(|m| format!(" {title:?}: {m}"))
        .map(|mut slide| {
            slide.title = title;
            slide
        })
}

fn slide_body(lesson: &Path, read: &Read<'_>, s: &Map<String, Value>) -> Result<Slide, String> {
    let lab_name = match s.get("lab") {
        None => "pair",
        Some(Value::String(l)) if LABS.contains(&l.as_str()) => l.as_str(),
        Some(other) => {
            return Err(format!(
                "\"lab\" must be one of {}, found {}",
                LABS.map(|l| format!("\"{l}\"")).join(", "),
                describe(other)
            ));
        }
    };
    // A latency slide's "step" is the bucket step; elsewhere it is the SAT step.
    let mut allowed: Vec<&str> = SLIDE_KEYS.to_vec();
    allowed.extend(
        LAB_KEYS
            .iter()
            .filter(|(_, lab)| *lab == lab_name)
            .map(|(k, _)| *k),
    );
    if let Some(key) = s.keys().find(|k| !allowed.contains(&k.as_str())) {
        return Err(match LAB_KEYS.iter().find(|(k, _)| k == key) {
            Some((_, lab)) => {
                format!("{key:?} belongs to a \"{lab}\" slide, and this one is \"{lab_name}\"")
            }
            None => format!(
                "unknown key {}{}",
                quoted_key(key),
                suggestion(key, &allowed)
            ),
        });
    }
    let text = match s.get("text") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|t| match t {
                Value::String(t) => Ok(t.clone()),
                other => Err(format!(
                    "\"text\" holds paragraphs as strings, found {}",
                    describe(other)
                )),
            })
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(format!(
                "\"text\" must be an array of strings, found {}",
                describe(other)
            ));
        }
    };
    let (scene, scene_file) = match s.get("scene") {
        None => return Err("missing key \"scene\"".into()),
        Some(Value::String(file)) => {
            let path = beside(lesson, file);
            let scene = read_beside(read, &path, crate::scene::parse)
                .map_err(|e| format!("scene {file:?}: {e}"))?;
            (scene, Some(path))
        }
        Some(inline @ Value::Object(_)) => {
            let bytes = serde_json::to_vec(inline).expect("a JSON value writes");
            let scene =
                crate::scene::parse(lesson, &bytes).map_err(|e| format!("scene: {}", e.problem))?;
            (scene, None)
        }
        Some(other) => {
            return Err(format!(
                "\"scene\" must be a shape set (an object) or the path of one, found {}",
                describe(other)
            ));
        }
    };
    let shapes = scene.shapes.len();
    let pair = match s.get("pair") {
        None => None,
        Some(value) => {
            let bad = || {
                format!(
                    "\"pair\" must be [i, j], two different shapes of the scene's {shapes}, found {}",
                    describe(value)
                )
            };
            let Some([i, j]) = value
                .as_array()
                .and_then(|a| <&[Value; 2]>::try_from(a.as_slice()).ok())
            else {
                return Err(bad());
            };
            match (i.as_u64(), j.as_u64()) {
                (Some(i), Some(j)) if i != j && (i as usize) < shapes && (j as usize) < shapes => {
                    Some((i as usize, j as usize))
                }
                _ => return Err(bad()),
            }
        }
    };
    if pair.is_none() && shapes < 2 && lab_name == "pair" {
        return Err(format!(
            "the scene has {shapes} shape(s): a pair slide needs two"
        ));
    }
    let step = match (lab_name, s.get("step")) {
        ("latency", _) | (_, None) => SlideStep::All,
        (_, Some(Value::String(a))) if a == "all" => SlideStep::All,
        (_, Some(value)) => match value.as_u64() {
            Some(k) if k >= 1 => SlideStep::At(k as usize),
            _ => {
                return Err(format!(
                    "\"step\" must be a whole number >= 1 or \"all\", found {}",
                    describe(value)
                ));
            }
        },
    };
    let naive = flag(s, "naive")?;
    let view = match s.get("view") {
        None => None,
        Some(Value::Object(v)) => {
            unknown(v, &["center", "width"], "in \"view\"")?;
            let center = point(
                v.get("center").ok_or("\"view\" needs \"center\"")?,
                "center",
            )?;
            let width = number(v.get("width").ok_or("\"view\" needs \"width\"")?, "width")?;
            if width <= 0.0 {
                return Err(format!(
                    "\"width\" must be > 0 (world units across the view), found {width}"
                ));
            }
            Some(View { center, width })
        }
        Some(other) => {
            return Err(format!(
                "\"view\" must be an object with \"center\" and \"width\", found {}",
                describe(other)
            ));
        }
    };
    let lab = lab(lesson, read, lab_name, s)?;
    Ok(Slide {
        title: String::new(),
        text,
        scene,
        scene_file,
        lab,
        pair,
        step,
        naive,
        view,
    })
}

/// The lab and its own keys.
fn lab(
    lesson: &Path,
    read: &Read<'_>,
    name: &str,
    s: &Map<String, Value>,
) -> Result<SlideLab, String> {
    let positive = |key: &str| -> Result<Option<f64>, String> {
        match s.get(key) {
            None => Ok(None),
            Some(v) => {
                let x = number(v, key)?;
                if x > 0.0 {
                    Ok(Some(x))
                } else {
                    Err(format!("{key:?} must be > 0, found {x}"))
                }
            }
        }
    };
    Ok(match name {
        "broad" => SlideLab::Broad {
            cell: positive("cell")?,
            show: match s.get("show") {
                None => None,
                Some(value) => Some(broad_shown(value)?),
            },
        },
        "casts" => SlideLab::Casts {
            ray: match s.get("ray") {
                None => None,
                Some(Value::Object(r)) => {
                    unknown(r, &["from", "to"], "in \"ray\"")?;
                    let from = point(r.get("from").ok_or("\"ray\" needs \"from\"")?, "from")?;
                    let to = point(r.get("to").ok_or("\"ray\" needs \"to\"")?, "to")?;
                    Some((from, to))
                }
                Some(other) => {
                    return Err(format!(
                        "\"ray\" must be an object with \"from\" and \"to\", found {}",
                        describe(other)
                    ));
                }
            },
        },
        "motion" => {
            let steps = match s.get("steps") {
                None => None,
                Some(v) => match whole(v, "steps")? {
                    n @ 1..=1_000_000 => Some(n as u32),
                    n => return Err(format!("\"steps\" must be 1 to 1000000, found {n}")),
                },
            };
            let frame = match s.get("frame") {
                None => None,
                Some(v) => {
                    let f = whole(v, "frame")?;
                    let last = u64::from(steps.unwrap_or(1_000_000));
                    if f > last {
                        return Err(format!("\"frame\" {f} is past the last step, {last}"));
                    }
                    Some(f as u32)
                }
            };
            let text = |key: &str| {
                s.get(key)
                    .map(|v| {
                        v.as_str().ok_or_else(|| {
                            format!("{key:?} must be a string, found {}", describe(v))
                        })
                    })
                    .transpose()
            };
            SlideLab::Motion {
                dt: positive("dt")?,
                steps,
                resolver: text("resolver")?
                    .map(|r| Resolver::from_name(r).map_err(|e| e.to_string()))
                    .transpose()?,
                substeps: text("substeps")?
                    .map(|r| Substeps::parse(r).map_err(|e| e.to_string()))
                    .transpose()?,
                frame,
            }
        }
        "latency" => {
            let log = match s.get("log") {
                None => None,
                Some(Value::String(file)) => Some(
                    read_beside(read, &beside(lesson, file), PacketLog::parse)
                        .map_err(|e| format!("log {file:?}: {e}"))?,
                ),
                Some(inline @ Value::Object(_)) => {
                    let bytes = serde_json::to_vec(inline).expect("a JSON value writes");
                    Some(
                        PacketLog::parse(lesson, &bytes)
                            .map_err(|e| format!("log: {}", e.problem))?,
                    )
                }
                Some(other) => {
                    return Err(format!(
                        "\"log\" must be a packet log (an object) or the path of one, found {}",
                        describe(other)
                    ));
                }
            };
            let arrived = match s.get("arrived") {
                None => None,
                Some(v) => {
                    let n = whole(v, "arrived")? as usize;
                    if let Some(log) = &log
                        && n > log.packets.len()
                    {
                        return Err(format!(
                            "\"arrived\" {n} is more than the log's {} packets",
                            log.packets.len()
                        ));
                    }
                    Some(n)
                }
            };
            let swept = flag(s, "swept")?;
            SlideLab::Latency {
                log,
                step: positive("step")?,
                swept,
                arrived,
                time: s.get("time").map(|v| number(v, "time")).transpose()?,
            }
        }
        _ => SlideLab::Pair,
    })
}

/// A broad-phase slide's `show`: an array naming what the overlay draws, each of
/// [`BROAD_SHOWN`] at most once (an empty array: the shapes alone).
fn broad_shown(value: &Value) -> Result<BroadShown, String> {
    let bad = || {
        format!(
            "\"show\" must be an array of {}, each at most once, found {}",
            BROAD_SHOWN.map(|l| format!("\"{l}\"")).join(", "),
            describe(value)
        )
    };
    let items = value.as_array().ok_or_else(bad)?;
    let mut on = [false; 3];
    for item in items {
        let k = item
            .as_str()
            .and_then(|name| BROAD_SHOWN.iter().position(|n| *n == name))
            .ok_or_else(bad)?;
        if std::mem::replace(&mut on[k], true) {
            return Err(bad());
        }
    }
    Ok(BroadShown {
        cells: on[0],
        candidates: on[1],
        hits: on[2],
    })
}
