//! The view's two layers: the static one (grid, shapes that are not moving) kept while only
//! dynamic shapes change, the dynamic one built each time something it shows changed; each
//! keyed by a hash of what it depends on, tessellated once, labels placed.

use super::*;
use crate::picture::palette::Theme;

/// How the view's shapes become triangles (what egui would use).
#[derive(Clone, Copy, PartialEq)]
pub(super) struct Look {
    pub(super) pixels_per_point: f32,
    pub(super) tessellation: egui::epaint::TessellationOptions,
    pub(super) font_texture: [usize; 2],
    /// The colours marks are painted in.
    pub(super) theme: Theme,
    /// How many times thicker than drawn lines are painted.
    pub(super) widths: f32,
}

impl Look {
    /// Plain egui tessellation, the window's own colours and lines (tests, the benchmark).
    pub(super) fn plain() -> Self {
        Self {
            pixels_per_point: 1.0,
            tessellation: Default::default(),
            font_texture: [1, 1],
            theme: Theme::Dark,
            widths: 1.0,
        }
    }

    /// `mark` in this look's colours and line widths.
    fn restyle(&self, mark: picture::Mark) -> picture::Mark {
        if self.theme == Theme::Dark && self.widths == 1.0 {
            mark
        } else {
            self.theme.restyle(mark, self.widths)
        }
    }
}

/// What a frame of the view shows, besides where it looks.
#[derive(Clone, Copy)]
pub(super) struct FrameInputs<'a> {
    pub(super) ws: &'a Workspace,
    pub(super) options: &'a ViewOptions,
    pub(super) view: &'a LabView<'a>,
}

/// One layer of a frame of the view, ready to paint.
pub(super) struct Frame {
    key: u64,
    /// The scene's revision it was last known good for (the static layer).
    revision: u64,
    /// The layer tessellated.
    pub(super) mesh: std::sync::Arc<egui::epaint::Mesh>,
    /// The labels kept, each with its box (screen).
    pub(super) labels: Vec<(Label, picture::Rect)>,
    /// Where each axis line is drawn (for hovering it).
    pub(super) axis_segments: Vec<(usize, [Pos2; 2])>,
    /// The lines of its marks, which its labels and the layer above's keep clear of (all of
    /// them, or those near the labels it was built for: [`Lines`]).
    lines: labels::Obstacles,
    /// Whether a later frame reused it (the static layer through a drag).
    reused: bool,
}

/// Which of a layer's lines a [`Frame`] keeps for placing labels.
pub(super) enum Lines<'a> {
    /// All of them: a static layer that may stay while the layer above changes (a drag), and
    /// the dynamic layer (few marks).
    All,
    /// Those near its own labels and `above`'s (the layer above's labels of this frame): a
    /// static layer built again with every frame (a lab playing its run), most of whose lines
    /// no label comes near. A later frame's labels may need more
    /// ([`labels::Obstacles::serves`]).
    Near { above: &'a [Label] },
}

impl Frame {
    /// `list` with its labels placed (clear of `below`'s labels and lines, and of its own
    /// lines) and its marks tessellated.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        key: u64,
        list: DrawList,
        rect: Rect,
        measure: &dyn Fn(&str) -> egui::Vec2,
        below: Option<&Frame>,
        layer: draw::Layer,
        kept: Lines,
        meshes: &mut Meshes,
    ) -> Self {
        let look = meshes.look();
        let measure = |text: &str| paint::vector(measure(text));
        let view = paint::rect(rect);
        let lines = match kept {
            Lines::All => list.obstacles(view),
            Lines::Near { above } => list.obstacles_for(view, above, measure),
        };
        let taken: Vec<picture::Rect> = below
            .map(|f| f.labels.iter().map(|(_, r)| *r).collect())
            .unwrap_or_default();
        let mut all_lines = vec![&lines];
        all_lines.extend(below.map(|f| &f.lines));
        let labels = labels::place_around(list.labels, view, measure, &taken, &all_lines);
        let mut tessellator = egui::epaint::Tessellator::new(
            look.pixels_per_point,
            look.tessellation,
            look.font_texture,
            Vec::new(),
        );
        let mut mesh = meshes.start_layer(layer);
        for mark in list.marks {
            let mark = look.restyle(mark);
            match mark {
                picture::Mark::Shape { .. } => meshes.add(mark, &mut tessellator, &mut mesh),
                _ => tessellator.tessellate_shape(paint::shape(mark), &mut mesh),
            }
        }
        meshes.end_layer(layer, &mesh);
        let axis_segments = list
            .axis_segments
            .into_iter()
            .map(|(k, [a, b])| (k, [paint::pos(a), paint::pos(b)]))
            .collect();
        Self {
            key,
            revision: 0,
            mesh: std::sync::Arc::new(mesh),
            labels,
            axis_segments,
            lines,
            reused: false,
        }
    }

    /// Whether `labels` of the layer above (measured by `measure`) can be placed against its
    /// lines as against all of them.
    fn serves(&self, labels: &[Label], measure: &dyn Fn(&str) -> egui::Vec2) -> bool {
        self.lines
            .serves(labels, |text: &str| paint::vector(measure(text)))
    }
}

impl SceneView {
    /// One frame of the view, tessellated, with its labels placed: built again only when
    /// something it shows changed (the scene, the selection, the pair, the view, what the
    /// lab shows); a frame in which nothing changed reuses the last one whole.
    pub(super) fn frame(
        &mut self,
        rect: Rect,
        shown: FrameInputs,
        handles: &[Handle],
        look: Look,
        measure: &dyn Fn(&str) -> egui::Vec2,
    ) -> (&Frame, &Frame) {
        let ws = shown.ws;
        if self.meshes.look() != look {
            // Another look (the projector's, a new screen): both layers are painted again.
            self.forget_layers();
        }
        self.meshes.set_look(look);
        let key = self.frame_key(rect, shown, look.pixels_per_point);
        if self.frame.as_ref().is_none_or(|f| f.key != key) {
            let dynamic = Self::dynamic_shapes(ws, shown.view);
            let static_key = self.static_key(rect, shown.view, look.pixels_per_point, &dynamic);
            // The document's ids (a lab's own scene is not the document's: none).
            let dynamic_ids: Vec<ShapeId> = match shown.view.document_shapes {
                true => dynamic.iter().map(|&i| ws.scene().shapes[i].id).collect(),
                false => Vec::new(),
            };
            let build = |this: &Self, layer| this.build(layer, rect, shown, handles, &dynamic);
            let list = build(self, draw::Layer::Dynamic);
            // The static layer stays while only dynamic shapes changed (a drag), if its lines
            // serve the dynamic layer's labels.
            let keep = self.static_frame.as_ref().is_some_and(|f| {
                f.key == static_key
                    && ws
                        .shapes_changed_since(f.revision)
                        .is_some_and(|ids| ids.iter().all(|id| dynamic_ids.contains(id)))
                    && f.serves(&list.labels, measure)
            });
            if keep {
                let still = self.static_frame.as_mut().expect("kept");
                still.reused = true;
            } else {
                // A static layer that changes with every frame (a lab playing its run) keeps
                // only the lines near this frame's labels; one that stayed keeps all of them.
                let kept = match &self.static_frame {
                    Some(f) if !f.reused => Lines::Near {
                        above: &list.labels,
                    },
                    _ => Lines::All,
                };
                let still = build(self, draw::Layer::Static);
                self.static_frame = Some(Frame::new(
                    static_key,
                    still,
                    rect,
                    measure,
                    None,
                    draw::Layer::Static,
                    kept,
                    &mut self.meshes,
                ));
            }
            let still = self.static_frame.as_mut().expect("just built or kept");
            still.revision = ws.revision();
            let frame = Frame::new(
                key,
                list,
                rect,
                measure,
                self.static_frame.as_ref(),
                draw::Layer::Dynamic,
                Lines::All,
                &mut self.meshes,
            );
            self.frame = Some(frame);
        }
        (
            self.static_frame.as_ref().expect("built with the frame"),
            self.frame.as_ref().expect("just built"),
        )
    }

    /// Both layers let go: the next frame builds them from nothing.
    pub(in crate::app) fn forget_layers(&mut self) {
        self.frame = None;
        self.static_frame = None;
    }

    /// Where the view looks and how it is drawn, into `h`: what both layers depend on.
    pub(super) fn hash_view(
        &self,
        rect: Rect,
        pixels_per_point: f32,
        h: &mut impl std::hash::Hasher,
    ) {
        use std::hash::Hash;
        let c = self.camera;
        for v in [c.centre.x, c.centre.y, c.scale] {
            v.to_bits().hash(h);
        }
        c.y_down.hash(h);
        for v in [
            rect.min.x,
            rect.min.y,
            rect.max.x,
            rect.max.y,
            pixels_per_point,
        ] {
            v.to_bits().hash(h);
        }
    }

    /// What the static layer depends on besides the shapes themselves, hashed.
    pub(super) fn static_key(
        &self,
        rect: Rect,
        view: &LabView,
        pixels_per_point: f32,
        dynamic: &[usize],
    ) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.hash_view(rect, pixels_per_point, &mut h);
        dynamic.hash(&mut h);
        view.static_key.hash(&mut h);
        h.finish()
    }

    /// Everything a frame of the view depends on, hashed.
    pub(super) fn frame_key(&self, rect: Rect, shown: FrameInputs, pixels_per_point: f32) -> u64 {
        let FrameInputs { ws, options, view } = shown;
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        let bits = |x: f64| x.to_bits();
        (ws.revision(), ws.is_stale(), ws.pair(), ws.selected()).hash(&mut h);
        bits(ws.horizon()).hash(&mut h);
        self.hash_view(rect, pixels_per_point, &mut h);
        (options.show_axes, options.show_naive, options.show_impulses).hash(&mut h);
        view.frame_key.hash(&mut h);
        if let Some(r) = &self.rejected {
            (r.index, &r.reason).hash(&mut h);
            r.outline
                .iter()
                .for_each(|p| (bits(p.x), bits(p.y)).hash(&mut h));
        }
        if let Some(points) = &self.new_polygon {
            points.len().hash(&mut h);
            points
                .iter()
                .for_each(|p| (bits(p.x), bits(p.y)).hash(&mut h));
        }
        h.finish()
    }

    /// The draw list of a view of `rect` (what one frame paints), without painting it.
    pub fn draw_list(
        &mut self,
        rect: Rect,
        ws: &Workspace,
        options: &ViewOptions,
        view: &LabView,
    ) -> PaintedFrame {
        self.rect = rect;
        self.do_fit(rect, rect.size(), ws, view);
        let handles = self.handles(ws);
        let look = Look::plain();
        let shown = FrameInputs { ws, options, view };
        let estimated = |text: &str| {
            let size = labels::estimated_size(text);
            egui::vec2(size.x, size.y)
        };
        let (still, frame) = self.frame(rect, shown, &handles, look, &estimated);
        PaintedFrame {
            shapes: vec![
                egui::Shape::Mesh(still.mesh.clone()),
                egui::Shape::Mesh(frame.mesh.clone()),
            ],
            labels: still
                .labels
                .iter()
                .chain(&frame.labels)
                .map(|(label, _)| label.clone())
                .collect(),
            boxes: still
                .labels
                .iter()
                .chain(&frame.labels)
                .map(|(_, r)| paint::egui_rect(*r))
                .collect(),
        }
    }

    /// The list positions of the dynamic shapes: the selected one and the explained pair
    /// (none in the latency lab, whose players are not the scene's shapes).
    pub(super) fn dynamic_shapes(ws: &Workspace, view: &LabView) -> Vec<usize> {
        if !view.document_shapes {
            return view.marked.into_iter().collect();
        }
        let scene = ws.scene();
        let (a, b) = ws.pair().unzip();
        let mut dynamic: Vec<usize> = [ws.selected(), a, b]
            .into_iter()
            .flatten()
            .filter_map(|id| scene.index_of(id))
            .collect();
        dynamic.sort_unstable();
        dynamic.dedup();
        dynamic
    }

    pub(super) fn build(
        &self,
        layer: draw::Layer,
        rect: Rect,
        shown: FrameInputs,
        handles: &[Handle],
        dynamic: &[usize],
    ) -> DrawList {
        let FrameInputs { ws, options, view } = shown;
        let scene = view.scene_of(ws);
        let (pair, focus_axis, axes_seen, verdict_shown, show_axes, mistake) = match &view.pair {
            PairShown::None => (None, None, 0, false, false, None),
            PairShown::Own {
                pair,
                focus_axis,
                mistake,
                ..
            } => {
                let total = pair.map_or(0, |(_, r)| r.sat.axes.len());
                (*pair, *focus_axis, total, true, options.show_axes, *mistake)
            }
            PairShown::Document {
                focus_axis,
                axes_seen,
                verdict_shown,
                mistake,
                axes,
            } => {
                let report = ws.report().filter(|_| !ws.is_stale());
                let pair = ws.pair_indices().zip(report);
                (
                    pair,
                    *focus_axis,
                    *axes_seen,
                    *verdict_shown,
                    *axes && options.show_axes,
                    mistake.as_ref(),
                )
            }
        };
        let others = matches!(view.pair, PairShown::Document { .. });
        let other_hits = ws
            .other_hits()
            .filter(|_| others)
            .filter_map(|(a, b)| Some((scene.index_of(a)?, scene.index_of(b)?)));
        let hits = LayerHits::new(layer, scene.shapes.len(), other_hits, dynamic);
        self.shared.truncate(scene.shapes.len());
        draw::build(&DrawInput {
            text_scale: if options.projector {
                PROJECTOR_TEXT / TEXT
            } else {
                1.0
            },
            scene,
            shared: &self.shared,
            pair,
            other_hits: &hits.other_hits,
            selected: ws
                .selected()
                .and_then(|id| scene.index_of(id))
                .filter(|_| view.document_shapes)
                .or(view.marked),
            focus_axis,
            axes_seen,
            verdict_shown,
            show_axes,
            label_axes: options.label_axes,
            broad: view.broad.map(|shown| BroadOverlay {
                shown,
                grid: ws.grid(),
                hits: ws.hits(),
            }),
            show_naive: options.show_naive,
            claim: match &view.pair {
                PairShown::Own { claim, .. } => *claim,
                _ => ws.claim().filter(|_| view.claim_and_motion),
            },
            motion: ws
                .pair_motion()
                .filter(|_| view.claim_and_motion)
                .map(|(velocities, toi)| draw::PairMotion {
                    velocities,
                    horizon: ws.horizon(),
                    toi,
                }),
            ray: view.ray,
            ghost: view.ghost,
            ghost_apart: view.ghost_apart,
            sweeps: view.sweeps,
            event: view.event,
            impulses: view.impulses.filter(|_| options.show_impulses),
            latency: view.latency,
            mistake,
            grid: Some(ws.grid()),
            rejected: self.rejected.as_ref(),
            new_polygon: self.new_polygon.as_deref().unwrap_or(&[]),
            handles,
            layer,
            dynamic,
            hit_by_dynamic: &hits.hit_by_dynamic,
            camera: self.camera,
            rect: paint::rect(rect),
        })
    }
}
