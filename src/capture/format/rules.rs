//! The rules a captured shape keeps that the writer and the reader both check, stated once:
//! what the reader would refuse, the writer never writes as a shape (it marks it malformed).

use crate::capture::format::parsed::ID_LIMIT;
use crate::geometry::{DVec2, Shape, ShapeKind};
use crate::scene::Body;

/// An id is an integer below 2^53 (JSON readers keep integers exact only below it).
pub(crate) fn id(id: u64) -> Result<(), String> {
    if id < ID_LIMIT {
        Ok(())
    } else {
        Err(format!(
            "id {id} is 2^53 or more (a capture's ids are below 2^53, where every JSON reader keeps them exact)"
        ))
    }
}

/// Placed at `position`, the shape stays within finite numbers (as a shape set's must): every
/// point of it is within its reach of the position, whatever the angle.
pub(crate) fn within_reach(shape: &Shape, position: DVec2) -> Result<(), String> {
    let reach = shape.local_centre().length() + shape.bounding_radius();
    if position.length() + reach <= f64::MAX && 2.0 * reach <= f64::MAX {
        return Ok(());
    }
    Err(format!(
        "\"position\" [{}, {}]: placed there, the shape reaches beyond the largest finite number: move it nearer the origin",
        crate::files::huge(position.x),
        crate::files::huge(position.y)
    ))
}

/// Segments and chains are static geometry: on a static body only.
pub(crate) fn static_geometry(kind: ShapeKind, body: Body) -> Result<(), String> {
    if kind.is_static_only() && body != Body::Static {
        return Err(format!(
            "a {kind} is static geometry: it cannot have body {:?} or move",
            body.name()
        ));
    }
    Ok(())
}
