//! Each shape's triangles kept in its own frame: a shape that only moves (a played motion run,
//! a drag) is the same picture turned and moved, so its outline is built and tessellated once
//! per look (shape, chords, zoom, colours) and its vertices only placed again each frame.

use super::*;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The kept meshes' keys are hashes already ([`picture::Mark::shape_key`]): used as they are,
/// where the standard library's SipHash would hash each again, a thousand times a frame.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // Only `u64` keys come here (`write_u64`); anything else is folded in as FxHash does.
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 = key;
    }
}

/// Meshes of [`picture::Mark::Shape`]s by [`picture::Mark::shape_key`], each with the mark it
/// was built from (a hash collision is told by comparing) and the last build that used it;
/// the look they were made with; each layer's last size.
pub(super) struct Meshes {
    kept: HashMap<u64, Kept, BuildHasherDefault<KeyHasher>>,
    /// Counts the layers built, to let go of meshes no longer drawn.
    build: u64,
    /// How shapes become triangles: the meshes kept were made with it.
    look: Look,
    /// The vertices and indices of each layer's last mesh (static, dynamic).
    last_size: [(usize, usize); 2],
}

impl Default for Meshes {
    fn default() -> Self {
        Self {
            kept: HashMap::default(),
            build: 0,
            look: Look::plain(),
            last_size: [(0, 0); 2],
        }
    }
}

struct Kept {
    mark: picture::Mark,
    mesh: egui::epaint::Mesh,
    used: u64,
}

/// Meshes unused for this many layer builds are let go (two layers per frame).
const KEEP_BUILDS: u64 = 8;

impl Meshes {
    /// Draw with `look` from now on: the meshes kept go when it changed (their feathering
    /// depends on the screen's resolution).
    pub(super) fn set_look(&mut self, look: Look) {
        if self.look != look {
            self.kept.clear();
            self.look = look;
        }
    }

    /// How shapes become triangles.
    pub(super) fn look(&self) -> Look {
        self.look
    }

    /// Starts a layer: meshes not used lately are let go when many are kept. The mesh to
    /// build it in has room for the layer's last size: a thousand moving shapes make tens of
    /// thousands of vertices, and growing to that by doubling copied them all again.
    pub(super) fn start_layer(&mut self, layer: draw::Layer) -> egui::epaint::Mesh {
        self.build += 1;
        if self.kept.len() > 256 {
            let now = self.build;
            self.kept.retain(|_, k| now - k.used <= KEEP_BUILDS);
        }
        let (vertices, indices) = self.last_size[layer as usize];
        let mut mesh = egui::epaint::Mesh::default();
        mesh.vertices.reserve(vertices);
        mesh.indices.reserve(indices);
        mesh
    }

    /// The layer built: its size, for next time.
    pub(super) fn end_layer(&mut self, layer: draw::Layer, mesh: &egui::epaint::Mesh) {
        self.last_size[layer as usize] = (mesh.vertices.len(), mesh.indices.len());
    }

    /// `mark` (a [`picture::Mark::Shape`]) into `mesh`: its own-frame mesh, tessellated by
    /// `tessellator` the first time its look is seen, turned and moved to its place.
    pub(super) fn add(
        &mut self,
        mark: picture::Mark,
        tessellator: &mut egui::epaint::Tessellator,
        mesh: &mut egui::epaint::Mesh,
    ) {
        let (Some(key), Some((at, turn))) = (mark.shape_key(), mark.shape_placement()) else {
            tessellator.tessellate_shape(paint::shape(mark), mesh);
            return;
        };
        let now = self.build;
        let kept = match self.kept.get_mut(&key) {
            Some(k) if k.mark.same_shape_picture(&mark) => k,
            _ => {
                let mut own = egui::epaint::Mesh::default();
                let picture::Mark::Shape { fill, stroke, .. } = &mark else {
                    unreachable!("a key is only given to a shape")
                };
                let points = mark
                    .shape_in_own_frame()
                    .into_iter()
                    .map(paint::pos)
                    .collect();
                let stroke = egui::Stroke::new(stroke.width, stroke.colour);
                let shape = egui::Shape::convex_polygon(points, *fill, stroke);
                tessellator.tessellate_shape(shape, &mut own);
                self.kept.insert(
                    key,
                    Kept {
                        mark,
                        mesh: own,
                        used: now,
                    },
                );
                self.kept.get_mut(&key).expect("just kept")
            }
        };
        kept.used = now;
        let own = &kept.mesh;
        let base = mesh.vertices.len() as u32;
        mesh.vertices.extend(own.vertices.iter().map(|v| {
            let p = v.pos;
            egui::epaint::Vertex {
                pos: Pos2::new(
                    at.x + turn.x * p.x - turn.y * p.y,
                    at.y + turn.y * p.x + turn.x * p.y,
                ),
                ..*v
            }
        }));
        mesh.indices.extend(own.indices.iter().map(|i| base + i));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::{Capsule, ConvexPolygon, Pose};
    use crate::picture::{Colour, Stroke};

    fn mark(placed: Placed, y_down: bool) -> picture::Mark {
        picture::Mark::Shape {
            shape: std::sync::Arc::new(placed.shape),
            pose: placed.pose,
            per_turn: 24,
            camera: Camera {
                centre: DVec2::new(0.3, -0.2),
                scale: 37.0,
                y_down,
            },
            rect: picture::Rect::from_min_max(
                picture::Vec2::ZERO,
                picture::Vec2::new(640.0, 480.0),
            ),
            fill: Colour::rgba(200, 120, 40, 50),
            stroke: Stroke::new(1.5, Colour::rgb(200, 120, 40)),
        }
    }

    /// A kept mesh turned and moved into place is the mesh tessellated in place, to a hair
    /// of a pixel, with y up and y down; a second pose of the same shape reuses it.
    #[test]
    fn a_kept_mesh_moved_into_place_is_the_shape_tessellated_there() {
        let shapes = [
            Placed::new(
                ConvexPolygon::new(vec![
                    DVec2::new(-1.0, -0.5),
                    DVec2::new(1.2, -0.4),
                    DVec2::new(0.3, 0.9),
                ])
                .unwrap(),
                Pose::IDENTITY,
            ),
            Placed::new(
                Capsule::new(DVec2::new(-0.7, 0.1), DVec2::new(0.8, 0.3), 0.35).unwrap(),
                Pose::IDENTITY,
            ),
        ];
        let mut tessellator =
            egui::epaint::Tessellator::new(1.0, Default::default(), [1, 1], Vec::new());
        for (shape, y_down) in shapes
            .iter()
            .flat_map(|s| [(s.clone(), false), (s.clone(), true)])
        {
            let mut meshes = Meshes::default();
            meshes.start_layer(draw::Layer::Dynamic);
            for (k, pose) in [
                Pose::new(DVec2::new(2.0, 1.0), 0.7),
                Pose::new(DVec2::new(-3.5, 0.25), -2.9),
            ]
            .into_iter()
            .enumerate()
            {
                let placed = Placed::new(shape.shape.clone(), pose);
                let mut moved = egui::epaint::Mesh::default();
                meshes.add(mark(placed.clone(), y_down), &mut tessellator, &mut moved);
                let mut there = egui::epaint::Mesh::default();
                tessellator.tessellate_shape(paint::shape(mark(placed, y_down)), &mut there);
                assert_eq!(moved.indices, there.indices);
                assert_eq!(moved.vertices.len(), there.vertices.len());
                for (a, b) in moved.vertices.iter().zip(&there.vertices) {
                    assert!(a.pos.distance(b.pos) < 1e-3, "pose {k}: {:?} vs {:?}", a, b);
                    assert_eq!(a.color, b.color);
                }
                assert_eq!(meshes.kept.len(), 1, "one mesh for every pose");
            }
        }
    }
}
