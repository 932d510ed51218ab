//! Fuzz the capture writer against the reader: whatever a game and its engine pass (any ids,
//! poses, velocities, body types, manifolds with any normals and separations, NaN and infinity
//! included), the writer either refuses the call as the contract says (nothing written) or
//! writes a frame that the reader reads back: every frame written is read, never refused, and
//! each shape written is read at its pose bit for bit.

#![no_main]

use collidoscope::capture::{
    BodyShape, CaptureError, CaptureReader, CaptureWriter, Engine, Filter, Header, Manifold,
    ManifoldPoint, NormalFrom, Penetration,
};
use collidoscope::geometry::{Capsule, Circle, ConvexPolygon, DVec2, Segment, Shape};
use collidoscope::scene::Body;
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;
use std::path::Path;

/// The input read as numbers, bytes at a time.
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        let (first, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        *first
    }

    fn number(&mut self) -> f64 {
        match self.byte() % 8 {
            0 => f64::NAN,
            1 => f64::INFINITY,
            2 => 1e308,
            3 => 0.0,
            _ => {
                let mut bytes = [0u8; 4];
                bytes.iter_mut().for_each(|b| *b = self.byte());
                f64::from(i32::from_le_bytes(bytes)) / 65536.0
            }
        }
    }

    fn point(&mut self) -> DVec2 {
        DVec2::new(self.number(), self.number())
    }

    fn id(&mut self) -> u64 {
        match self.byte() {
            255 => 1 << 53,
            b => u64::from(b % 8),
        }
    }
}

fn shape(kind: u8) -> Shape {
    match kind % 4 {
        0 => Circle::new(0.5).unwrap().into(),
        1 => ConvexPolygon::rectangle(DVec2::new(0.5, 0.25))
            .unwrap()
            .into(),
        2 => Capsule::new(DVec2::new(-0.3, 0.0), DVec2::new(0.3, 0.0), 0.2)
            .unwrap()
            .into(),
        _ => Segment::new(DVec2::new(-1.0, 0.0), DVec2::new(1.0, 0.0))
            .unwrap()
            .into(),
    }
}

fuzz_target!(|data: &[u8]| {
    let mut input = Input(data);
    let header = Header::f32_metres(Engine::new("fuzz", "1"));
    let mut out = Vec::new();
    let compressed = input.byte() % 2 == 0;
    let mut writer = if compressed {
        CaptureWriter::compressed(
            &mut out,
            &header,
            NormalFrom::BToA,
            Penetration::PositiveDepth,
        )
    } else {
        CaptureWriter::new(
            &mut out,
            &header,
            NormalFrom::AToB,
            Penetration::NegativeSeparation,
        )
    }
    .unwrap();
    // Each frame written: the shapes passed in it that were not malformed.
    let mut written: Vec<Vec<BodyShape>> = Vec::new();
    let mut time = 0.0;
    for _ in 0..(input.byte() % 8) {
        let mut bodies = Vec::new();
        for _ in 0..(input.byte() % 6) {
            let id = input.id();
            let body = match input.byte() % 3 {
                0 => Body::Static,
                1 => Body::Kinematic,
                _ => Body::Dynamic,
            };
            let mut shape = BodyShape::new(id, shape(input.byte()), input.point(), input.point())
                .moving(body, input.point(), input.number(), input.byte() % 2 == 0);
            // A filter and a body, or not (any bits; a body id past 2^53 is left out).
            if input.byte() % 2 == 0 {
                let bits =
                    |input: &mut Input| (0..8).fold(0u64, |b, _| b << 8 | u64::from(input.byte()));
                let (category, mask) = (bits(&mut input), bits(&mut input));
                let group = i32::from(input.byte() as i8);
                let either = input.byte() % 2 == 0;
                shape = shape.filtered(Filter::box2d(category, mask, group).with_either(either));
            }
            if input.byte() % 2 == 0 {
                shape = shape.on_body(match input.byte() {
                    255 => 1 << 53,
                    b => u64::from(b % 4),
                });
            }
            bodies.push(shape);
        }
        let mut manifolds = Vec::new();
        for _ in 0..(input.byte() % 4) {
            let (a, b, normal) = (input.id(), input.id(), input.point());
            let points: Vec<ManifoldPoint> = (0..input.byte() % 3)
                .map(|_| ManifoldPoint {
                    point: input.point(),
                    separation: input.number(),
                })
                .collect();
            manifolds.push(Manifold {
                a,
                b,
                normal,
                points: points.into(),
                piece: None,
            });
        }
        time += f64::from(input.byte()) / 100.0 - 0.3;
        match writer.frame(time, &bodies, &manifolds) {
            Ok(()) => written.push(bodies),
            Err(CaptureError::Contract(_)) => {}
            Err(e) => panic!("only contract errors are expected writing to memory: {e}"),
        }
    }
    drop(writer);
    let mut reader = CaptureReader::new(Path::new("fuzz.capture.jsonl"), Cursor::new(out))
        .expect("the header the writer wrote reads");
    for bodies in &written {
        let frame = reader
            .next_frame()
            .unwrap_or_else(|e| panic!("a frame the writer wrote is refused: {e}"))
            .expect("every frame written is read");
        let malformed: Vec<_> = frame.malformed.iter().map(|m| m.what).collect();
        for body in bodies {
            let bad = malformed
                .contains(&collidoscope::capture::MalformedWhat::Shape { id: Some(body.id) });
            if let (false, Some(read)) = (bad, reader.shape(body.id)) {
                assert_eq!(read.placed.pose.position, body.position);
                let mut given = body.pairing;
                given.body_id = given.body_id.filter(|b| *b < 1 << 53);
                assert_eq!(read.pairing, given, "the filter and body read back");
            }
        }
    }
    assert!(reader.next_frame().unwrap().is_none());
});
