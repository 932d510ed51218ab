//! Pairs on which an engine's narrow phase is asked again (engine fixture tests), shared by
//! the Rapier versions' test and Avian's.

/// A capsule as a fixture's shape: its segment's ends and radius, local, at a pose.
fn capsule(a: [f64; 2], b: [f64; 2], r: f64, at: [f64; 2], angle: f64) -> String {
    format!(
        r#"{{"kind": "capsule", "a": {a:?}, "b": {b:?}, "radius": {r}, "position": {at:?}, "angle": {angle}}}"#
    )
}

/// The fixture text pinning the pair of shapes `a` and `b` (shape-set JSON objects).
fn fixture(a: &str, b: &str) -> String {
    let text =
        format!(r#"{{"format": "collidoscope-shapes", "version": 2, "shapes": [{a}, {b}]}}"#);
    let scene = collidoscope::scene::parse("case.json".as_ref(), text.as_bytes()).unwrap();
    collidoscope::scene::to_json(&collidoscope::fixture::make(&scene, None))
}

/// Two capsules crossing deep (found by a scan of random pairs): parry 0.29 to 0.31's manifold
/// says 0.845 along a normal 58 degrees from the exact 1.139.
pub fn deep_capsules() -> String {
    fixture(
        &capsule(
            [-1.6794563375781135, 1.5472927359079724],
            [-0.16068889921920937, 1.8023927429815108],
            0.23171713922301657,
            [-1.6326656165584679, -3.135877221639438],
            1.920967201987597,
        ),
        &capsule(
            [0.8677738329965914, 0.9789552623706717],
            [0.2969184389612756, 0.3909895308343125],
            0.6130980210680603,
            [-2.535331691774609, -3.4340699828168044],
            3.1830794629861803,
        ),
    )
}

/// Two capsules touching shallowly: every engine agrees.
pub fn shallow_capsules() -> String {
    fixture(
        &capsule([-0.5, 0.0], [0.5, 0.0], 0.25, [0.0, 0.0], 0.0),
        &capsule([-0.5, 0.0], [0.5, 0.0], 0.25, [0.3, 0.45], 0.2),
    )
}
