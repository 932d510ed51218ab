//! What Box2D's recording holds, record by record: how its player reads each argument
//! ([`Arg`]) and, by opcode, the call the game made with its arguments ([`layout`]), from
//! Box2D's `recording_ops.inl` and boxdd-sys's `recording_replay.c`. The replay
//! ([`super::replay`]) walks the records with it.

use boxdd_sys::ffi::*;

/// How Box2D's player reads one argument of a record (the `b2RecR_*` readers and the
/// dispatchers in boxdd-sys's `recording_replay.c`): by its kind, whatever size the record
/// gives itself.
#[derive(Clone, Copy, Debug)]
pub(super) enum Arg {
    /// So many bytes.
    Bytes(usize),
    /// A name (`b2RecR_STR`): a `u16` length (`0xFFFF`: no name), then that many bytes.
    Name,
    /// A chain's points (`b2RecR_CHAINDEF`): an `i32` count (below 0 read as 0), then that
    /// many `b2Vec2`.
    Points,
    /// A chain's materials: an `i32` count (below 0 read as 0), then that many materials.
    Materials,
    /// A query's shape (`b2RecR_SHAPEPROXY`): an `i32` count read as 0 to
    /// `B2_MAX_POLYGON_VERTICES`, that many points, a radius.
    Proxy,
    /// A query's recorded hits: a `u32` count, then that many hits of so many bytes.
    Hits(usize),
}

pub(super) use Arg::{Bytes, Hits, Materials, Name, Points, Proxy};

/// The bytes of what the player reads as a whole (`b2RecR_*`), field by field.
pub(super) const POSITION: usize = size_of::<b2Pos>();
pub(super) const WORLD_TRANSFORM: usize = POSITION + 8;
pub(super) const CIRCLE: usize = size_of::<b2Circle>();
pub(super) const CAPSULE: usize = size_of::<b2Capsule>();
pub(super) const SEGMENT: usize = size_of::<b2Segment>();
pub(super) const POLYGON: usize = size_of::<b2Polygon>();
pub(super) const CHAIN_SEGMENT: usize = size_of::<b2ChainSegment>();
pub(super) const FILTER: usize = 8 + 8 + 4;
pub(super) const MATERIAL: usize = 4 * 4 + 8 + 4;
pub(super) const EXPLOSION_DEF: usize = 8 + POSITION + 3 * 4;
/// A body's definition up to its name (type, position, rotation, velocities, dampings,
/// gravity scale, sleep threshold), and after it (user data, motion locks, six flags).
pub(super) const BODY_DEF_BEFORE_NAME: usize = 4 + POSITION + 8 + 8 + 5 * 4;
pub(super) const BODY_DEF_AFTER_NAME: usize = 8 + 3 + 6;
pub(super) const SHAPE_DEF: usize = 8 + MATERIAL + 4 + FILTER + 8;
/// A chain's definition after its materials: its filter and two flags.
pub(super) const CHAIN_DEF_TAIL: usize = FILTER + 2;
/// What every joint's definition begins with (`b2RecR_JointBase`), and each kind's whole.
pub(super) const JOINT_DEF: usize = 8 + 8 + 8 + 16 + 16 + 5 * 4 + 1;
pub(super) const DISTANCE_JOINT_DEF: usize = JOINT_DEF + 39;
pub(super) const MOTOR_JOINT_DEF: usize = JOINT_DEF + 44;
pub(super) const PRISMATIC_JOINT_DEF: usize = JOINT_DEF + 31;
pub(super) const REVOLUTE_JOINT_DEF: usize = JOINT_DEF + 31;
pub(super) const WELD_JOINT_DEF: usize = JOINT_DEF + 16;
pub(super) const WHEEL_JOINT_DEF: usize = JOINT_DEF + 27;
/// One recorded hit of an overlap (shape id, what the game's callback returned), of a cast
/// (shape id, point, normal, fraction, returned fraction) and of a mover's collision (shape
/// id, plane result, returned flag); a closest ray's result; a shape's ray cast output.
pub(super) const OVERLAP_HIT: usize = 8 + 1;
pub(super) const CAST_HIT: usize = 8 + POSITION + 8 + 4 + 4;
pub(super) const MOVER_HIT: usize = 8 + (8 + 4 + 8 + 1) + 1;
pub(super) const RAY_RESULT: usize = 8 + POSITION + 8 + 4 + 4 + 4 + 1;
pub(super) const CAST_OUTPUT: usize = 8 + POSITION + 4 + 4 + 1;

/// Arguments the player reads as so many bytes.
pub(super) const BOOL: Arg = Bytes(1);
pub(super) const F32: Arg = Bytes(4);
pub(super) const I32: Arg = Bytes(4);
pub(super) const U64: Arg = Bytes(8);
pub(super) const VEC2: Arg = Bytes(8);
pub(super) const ROT: Arg = Bytes(8);
pub(super) const XF: Arg = Bytes(16);
pub(super) const POS: Arg = Bytes(POSITION);
/// A body's, shape's, chain's or joint's id.
pub(super) const ID: Arg = Bytes(8);
/// The arguments most calls begin with, and the id a create call returned (recorded after its
/// arguments).
pub(super) const WORLD: (&str, Arg) = ("world", Bytes(4));
pub(super) const BODY: (&str, Arg) = ("body", ID);
pub(super) const SHAPE: (&str, Arg) = ("shape", ID);
pub(super) const CHAIN: (&str, Arg) = ("chain", ID);
pub(super) const JOINT: (&str, Arg) = ("joint", ID);
pub(super) const RETURNED: (&str, Arg) = ("returned id", ID);

/// What Box2D's player reads after a record's opcode and size, by opcode (Box2D's
/// `recording_ops.inl`, and what each dispatcher reads after its arguments: the id a create
/// call returned, a query's hits and results): the call the game made, and each argument's
/// name as Box2D names it, with how it is read. `None`: an opcode no call records, which the
/// player skips by the record's size.
pub(super) fn layout(opcode: u8) -> Option<(&'static str, &'static [(&'static str, Arg)])> {
    Some(match opcode {
        0x01 => ("b2DestroyWorld", &[WORLD]),
        0x80 => ("b2World_Step", &[WORLD, ("dt", F32), ("subStepCount", I32)]),
        0x02 => ("b2World_EnableSleeping", &[WORLD, ("flag", BOOL)]),
        0x03 => ("b2World_EnableContinuous", &[WORLD, ("flag", BOOL)]),
        0x04 => ("b2World_SetRestitutionThreshold", &[WORLD, ("value", F32)]),
        0x05 => ("b2World_SetHitEventThreshold", &[WORLD, ("value", F32)]),
        0x06 => ("b2World_SetGravity", &[WORLD, ("gravity", VEC2)]),
        0x07 => ("b2World_Explode", &[WORLD, ("def", Bytes(EXPLOSION_DEF))]),
        0x08 => (
            "b2World_SetContactTuning",
            &[
                WORLD,
                ("hertz", F32),
                ("dampingRatio", F32),
                ("pushSpeed", F32),
            ],
        ),
        0x09 => (
            "b2World_SetContactRecycleDistance",
            &[WORLD, ("recycleDistance", F32)],
        ),
        0x0A => (
            "b2World_SetMaximumLinearSpeed",
            &[WORLD, ("maximumLinearSpeed", F32)],
        ),
        0x0B => ("b2World_EnableWarmStarting", &[WORLD, ("flag", BOOL)]),
        0x0C => ("b2World_RebuildStaticTree", &[WORLD]),
        0x0D => ("b2World_EnableSpeculative", &[WORLD, ("flag", BOOL)]),
        0x10 => (
            "b2CreateBody",
            &[
                WORLD,
                ("def", Bytes(BODY_DEF_BEFORE_NAME)),
                ("def", Name),
                ("def", Bytes(BODY_DEF_AFTER_NAME)),
                RETURNED,
            ],
        ),
        0x11 => ("b2DestroyBody", &[BODY]),
        0x20 => (
            "b2Body_SetTransform",
            &[BODY, ("position", POS), ("rotation", ROT)],
        ),
        0x21 => ("b2Body_SetLinearVelocity", &[BODY, ("v", VEC2)]),
        0x22 => ("b2Body_SetType", &[BODY, ("type", I32)]),
        0x23 => ("b2Body_SetName", &[BODY, ("name", Name)]),
        0x24 => ("b2Body_SetAngularVelocity", &[BODY, ("w", F32)]),
        0x25 => (
            "b2Body_SetTargetTransform",
            &[
                BODY,
                ("target", Bytes(WORLD_TRANSFORM)),
                ("timeStep", F32),
                ("wake", BOOL),
            ],
        ),
        0x26 => (
            "b2Body_ApplyForce",
            &[BODY, ("force", VEC2), ("point", POS), ("wake", BOOL)],
        ),
        0x27 => (
            "b2Body_ApplyForceToCenter",
            &[BODY, ("force", VEC2), ("wake", BOOL)],
        ),
        0x28 => (
            "b2Body_ApplyTorque",
            &[BODY, ("torque", F32), ("wake", BOOL)],
        ),
        0x29 => ("b2Body_ClearForces", &[BODY]),
        0x2A => (
            "b2Body_ApplyLinearImpulse",
            &[BODY, ("impulse", VEC2), ("point", POS), ("wake", BOOL)],
        ),
        0x2B => (
            "b2Body_ApplyLinearImpulseToCenter",
            &[BODY, ("impulse", VEC2), ("wake", BOOL)],
        ),
        0x2C => (
            "b2Body_ApplyAngularImpulse",
            &[BODY, ("impulse", F32), ("wake", BOOL)],
        ),
        0x2D => ("b2Body_SetMassData", &[BODY, ("massData", Bytes(16))]),
        0x2E => ("b2Body_ApplyMassFromShapes", &[BODY]),
        0x2F => ("b2Body_SetLinearDamping", &[BODY, ("damping", F32)]),
        0x30 => ("b2Body_SetAngularDamping", &[BODY, ("damping", F32)]),
        0x31 => ("b2Body_SetGravityScale", &[BODY, ("scale", F32)]),
        0x32 => ("b2Body_SetAwake", &[BODY, ("awake", BOOL)]),
        0x33 => ("b2Body_WakeTouching", &[BODY]),
        0x34 => ("b2Body_EnableSleep", &[BODY, ("flag", BOOL)]),
        0x35 => ("b2Body_SetSleepThreshold", &[BODY, ("threshold", F32)]),
        0x36 => ("b2Body_Disable", &[BODY]),
        0x37 => ("b2Body_Enable", &[BODY]),
        0x38 => ("b2Body_SetMotionLocks", &[BODY, ("locks", Bytes(3))]),
        0x39 => ("b2Body_SetBullet", &[BODY, ("flag", BOOL)]),
        0x3A => ("b2Body_EnableContactRecycling", &[BODY, ("flag", BOOL)]),
        0x3B => ("b2Body_EnableContactEvents", &[BODY, ("flag", BOOL)]),
        0x3C => ("b2Body_EnableHitEvents", &[BODY, ("flag", BOOL)]),
        0x40 => (
            "b2CreateCircleShape",
            &[
                BODY,
                ("def", Bytes(SHAPE_DEF)),
                ("circle", Bytes(CIRCLE)),
                RETURNED,
            ],
        ),
        0x41 => (
            "b2CreateCapsuleShape",
            &[
                BODY,
                ("def", Bytes(SHAPE_DEF)),
                ("capsule", Bytes(CAPSULE)),
                RETURNED,
            ],
        ),
        0x42 => (
            "b2CreateSegmentShape",
            &[
                BODY,
                ("def", Bytes(SHAPE_DEF)),
                ("segment", Bytes(SEGMENT)),
                RETURNED,
            ],
        ),
        0x43 => (
            "b2CreatePolygonShape",
            &[
                BODY,
                ("def", Bytes(SHAPE_DEF)),
                ("polygon", Bytes(POLYGON)),
                RETURNED,
            ],
        ),
        0x44 => (
            "b2CreateChainSegmentShape",
            &[
                BODY,
                ("def", Bytes(SHAPE_DEF)),
                ("chainSegment", Bytes(CHAIN_SEGMENT)),
                RETURNED,
            ],
        ),
        0x45 => ("b2DestroyShape", &[SHAPE, ("updateBodyMass", BOOL)]),
        0x50 => (
            "b2Shape_SetDensity",
            &[SHAPE, ("density", F32), ("updateBodyMass", BOOL)],
        ),
        0x51 => ("b2Shape_SetFriction", &[SHAPE, ("friction", F32)]),
        0x52 => ("b2Shape_SetRestitution", &[SHAPE, ("restitution", F32)]),
        0x53 => ("b2Shape_SetUserMaterial", &[SHAPE, ("material", U64)]),
        0x54 => (
            "b2Shape_SetSurfaceMaterial",
            &[SHAPE, ("material", Bytes(MATERIAL))],
        ),
        0x55 => ("b2Shape_SetFilter", &[SHAPE, ("filter", Bytes(FILTER))]),
        0x56 => ("b2Shape_EnableSensorEvents", &[SHAPE, ("flag", BOOL)]),
        0x57 => ("b2Shape_EnableContactEvents", &[SHAPE, ("flag", BOOL)]),
        0x58 => ("b2Shape_EnablePreSolveEvents", &[SHAPE, ("flag", BOOL)]),
        0x59 => ("b2Shape_EnableHitEvents", &[SHAPE, ("flag", BOOL)]),
        0x5A => ("b2Shape_SetCircle", &[SHAPE, ("circle", Bytes(CIRCLE))]),
        0x5B => ("b2Shape_SetCapsule", &[SHAPE, ("capsule", Bytes(CAPSULE))]),
        0x5C => ("b2Shape_SetSegment", &[SHAPE, ("segment", Bytes(SEGMENT))]),
        0x5D => ("b2Shape_SetPolygon", &[SHAPE, ("polygon", Bytes(POLYGON))]),
        0x5E => (
            "b2Shape_SetChainSegment",
            &[SHAPE, ("chainSegment", Bytes(CHAIN_SEGMENT))],
        ),
        0x5F => (
            "b2Shape_ApplyWind",
            &[
                SHAPE,
                ("wind", VEC2),
                ("drag", F32),
                ("lift", F32),
                ("wake", BOOL),
            ],
        ),
        0x70 => (
            "b2CreateChain",
            &[
                BODY,
                ("def", Bytes(8)),
                ("def", Points),
                ("def", Materials),
                ("def", Bytes(CHAIN_DEF_TAIL)),
                RETURNED,
            ],
        ),
        0x71 => ("b2DestroyChain", &[CHAIN]),
        0x72 => (
            "b2Chain_SetSurfaceMaterial",
            &[CHAIN, ("material", Bytes(MATERIAL)), ("materialIndex", I32)],
        ),
        0x90 => (
            "b2CreateDistanceJoint",
            &[WORLD, ("def", Bytes(DISTANCE_JOINT_DEF)), RETURNED],
        ),
        0x91 => (
            "b2CreateMotorJoint",
            &[WORLD, ("def", Bytes(MOTOR_JOINT_DEF)), RETURNED],
        ),
        0x92 => (
            "b2CreateFilterJoint",
            &[WORLD, ("def", Bytes(JOINT_DEF)), RETURNED],
        ),
        0x93 => (
            "b2CreatePrismaticJoint",
            &[WORLD, ("def", Bytes(PRISMATIC_JOINT_DEF)), RETURNED],
        ),
        0x94 => (
            "b2CreateRevoluteJoint",
            &[WORLD, ("def", Bytes(REVOLUTE_JOINT_DEF)), RETURNED],
        ),
        0x95 => (
            "b2CreateWeldJoint",
            &[WORLD, ("def", Bytes(WELD_JOINT_DEF)), RETURNED],
        ),
        0x96 => (
            "b2CreateWheelJoint",
            &[WORLD, ("def", Bytes(WHEEL_JOINT_DEF)), RETURNED],
        ),
        0x97 => ("b2DestroyJoint", &[JOINT, ("wakeAttached", BOOL)]),
        0x98 => ("b2Joint_SetLocalFrameA", &[JOINT, ("localFrame", XF)]),
        0x99 => ("b2Joint_SetLocalFrameB", &[JOINT, ("localFrame", XF)]),
        0x9A => (
            "b2Joint_SetCollideConnected",
            &[JOINT, ("shouldCollide", BOOL)],
        ),
        0x9B => ("b2Joint_WakeBodies", &[JOINT]),
        0x9C => (
            "b2Joint_SetConstraintTuning",
            &[JOINT, ("hertz", F32), ("dampingRatio", F32)],
        ),
        0x9D => ("b2Joint_SetForceThreshold", &[JOINT, ("threshold", F32)]),
        0x9E => ("b2Joint_SetTorqueThreshold", &[JOINT, ("threshold", F32)]),
        0xA0 => ("b2DistanceJoint_SetLength", &[JOINT, ("length", F32)]),
        0xA1 => (
            "b2DistanceJoint_EnableSpring",
            &[JOINT, ("enableSpring", BOOL)],
        ),
        0xA2 => (
            "b2DistanceJoint_SetSpringForceRange",
            &[JOINT, ("lowerForce", F32), ("upperForce", F32)],
        ),
        0xA3 => ("b2DistanceJoint_SetSpringHertz", &[JOINT, ("hertz", F32)]),
        0xA4 => (
            "b2DistanceJoint_SetSpringDampingRatio",
            &[JOINT, ("dampingRatio", F32)],
        ),
        0xA5 => (
            "b2DistanceJoint_EnableLimit",
            &[JOINT, ("enableLimit", BOOL)],
        ),
        0xA6 => (
            "b2DistanceJoint_SetLengthRange",
            &[JOINT, ("minLength", F32), ("maxLength", F32)],
        ),
        0xA7 => (
            "b2DistanceJoint_EnableMotor",
            &[JOINT, ("enableMotor", BOOL)],
        ),
        0xA8 => (
            "b2DistanceJoint_SetMotorSpeed",
            &[JOINT, ("motorSpeed", F32)],
        ),
        0xA9 => ("b2DistanceJoint_SetMaxMotorForce", &[JOINT, ("force", F32)]),
        0xAA => (
            "b2MotorJoint_SetLinearVelocity",
            &[JOINT, ("velocity", VEC2)],
        ),
        0xAB => (
            "b2MotorJoint_SetAngularVelocity",
            &[JOINT, ("velocity", F32)],
        ),
        0xAC => (
            "b2MotorJoint_SetMaxVelocityForce",
            &[JOINT, ("maxForce", F32)],
        ),
        0xAD => (
            "b2MotorJoint_SetMaxVelocityTorque",
            &[JOINT, ("maxTorque", F32)],
        ),
        0xAE => ("b2MotorJoint_SetLinearHertz", &[JOINT, ("hertz", F32)]),
        0xAF => (
            "b2MotorJoint_SetLinearDampingRatio",
            &[JOINT, ("damping", F32)],
        ),
        0xB0 => ("b2MotorJoint_SetAngularHertz", &[JOINT, ("hertz", F32)]),
        0xB1 => (
            "b2MotorJoint_SetAngularDampingRatio",
            &[JOINT, ("damping", F32)],
        ),
        0xB2 => (
            "b2MotorJoint_SetMaxSpringForce",
            &[JOINT, ("maxForce", F32)],
        ),
        0xB3 => (
            "b2MotorJoint_SetMaxSpringTorque",
            &[JOINT, ("maxTorque", F32)],
        ),
        0xB4 => (
            "b2PrismaticJoint_EnableSpring",
            &[JOINT, ("enableSpring", BOOL)],
        ),
        0xB5 => ("b2PrismaticJoint_SetSpringHertz", &[JOINT, ("hertz", F32)]),
        0xB6 => (
            "b2PrismaticJoint_SetSpringDampingRatio",
            &[JOINT, ("dampingRatio", F32)],
        ),
        0xB7 => (
            "b2PrismaticJoint_SetTargetTranslation",
            &[JOINT, ("translation", F32)],
        ),
        0xB8 => (
            "b2PrismaticJoint_EnableLimit",
            &[JOINT, ("enableLimit", BOOL)],
        ),
        0xB9 => (
            "b2PrismaticJoint_SetLimits",
            &[JOINT, ("lower", F32), ("upper", F32)],
        ),
        0xBA => (
            "b2PrismaticJoint_EnableMotor",
            &[JOINT, ("enableMotor", BOOL)],
        ),
        0xBB => (
            "b2PrismaticJoint_SetMotorSpeed",
            &[JOINT, ("motorSpeed", F32)],
        ),
        0xBC => (
            "b2PrismaticJoint_SetMaxMotorForce",
            &[JOINT, ("force", F32)],
        ),
        0xBD => (
            "b2RevoluteJoint_EnableSpring",
            &[JOINT, ("enableSpring", BOOL)],
        ),
        0xBE => ("b2RevoluteJoint_SetSpringHertz", &[JOINT, ("hertz", F32)]),
        0xBF => (
            "b2RevoluteJoint_SetSpringDampingRatio",
            &[JOINT, ("dampingRatio", F32)],
        ),
        0xC0 => ("b2RevoluteJoint_SetTargetAngle", &[JOINT, ("angle", F32)]),
        0xC1 => (
            "b2RevoluteJoint_EnableLimit",
            &[JOINT, ("enableLimit", BOOL)],
        ),
        0xC2 => (
            "b2RevoluteJoint_SetLimits",
            &[JOINT, ("lower", F32), ("upper", F32)],
        ),
        0xC3 => (
            "b2RevoluteJoint_EnableMotor",
            &[JOINT, ("enableMotor", BOOL)],
        ),
        0xC4 => (
            "b2RevoluteJoint_SetMotorSpeed",
            &[JOINT, ("motorSpeed", F32)],
        ),
        0xC5 => (
            "b2RevoluteJoint_SetMaxMotorTorque",
            &[JOINT, ("torque", F32)],
        ),
        0xC6 => ("b2WeldJoint_SetLinearHertz", &[JOINT, ("hertz", F32)]),
        0xC7 => (
            "b2WeldJoint_SetLinearDampingRatio",
            &[JOINT, ("dampingRatio", F32)],
        ),
        0xC8 => ("b2WeldJoint_SetAngularHertz", &[JOINT, ("hertz", F32)]),
        0xC9 => (
            "b2WeldJoint_SetAngularDampingRatio",
            &[JOINT, ("dampingRatio", F32)],
        ),
        0xCA => (
            "b2WheelJoint_EnableSpring",
            &[JOINT, ("enableSpring", BOOL)],
        ),
        0xCB => ("b2WheelJoint_SetSpringHertz", &[JOINT, ("hertz", F32)]),
        0xCC => (
            "b2WheelJoint_SetSpringDampingRatio",
            &[JOINT, ("dampingRatio", F32)],
        ),
        0xCD => ("b2WheelJoint_EnableLimit", &[JOINT, ("enableLimit", BOOL)]),
        0xCE => (
            "b2WheelJoint_SetLimits",
            &[JOINT, ("lower", F32), ("upper", F32)],
        ),
        0xCF => ("b2WheelJoint_EnableMotor", &[JOINT, ("enableMotor", BOOL)]),
        0xD0 => ("b2WheelJoint_SetMotorSpeed", &[JOINT, ("motorSpeed", F32)]),
        0xD1 => ("b2WheelJoint_SetMaxMotorTorque", &[JOINT, ("torque", F32)]),
        0xE0 => (
            "b2World_OverlapAABB",
            &[
                WORLD,
                ("origin", POS),
                ("aabb", Bytes(16)),
                ("filter", Bytes(16)),
                ("hits", Hits(OVERLAP_HIT)),
                ("tree statistics", Bytes(8)),
            ],
        ),
        0xE1 => (
            "b2World_OverlapShape",
            &[
                WORLD,
                ("origin", POS),
                ("proxy", Proxy),
                ("filter", Bytes(16)),
                ("hits", Hits(OVERLAP_HIT)),
                ("tree statistics", Bytes(8)),
            ],
        ),
        0xE2 => (
            "b2World_CastRay",
            &[
                WORLD,
                ("origin", POS),
                ("translation", VEC2),
                ("filter", Bytes(16)),
                ("hits", Hits(CAST_HIT)),
                ("tree statistics", Bytes(8)),
            ],
        ),
        0xE3 => (
            "b2World_CastShape",
            &[
                WORLD,
                ("origin", POS),
                ("proxy", Proxy),
                ("translation", VEC2),
                ("filter", Bytes(16)),
                ("hits", Hits(CAST_HIT)),
                ("tree statistics", Bytes(8)),
            ],
        ),
        0xE4 => (
            "b2World_CollideMover",
            &[
                WORLD,
                ("origin", POS),
                ("mover", Bytes(CAPSULE)),
                ("filter", Bytes(16)),
                ("hits", Hits(MOVER_HIT)),
            ],
        ),
        0xE5 => (
            "b2World_CastRayClosest",
            &[
                WORLD,
                ("origin", POS),
                ("translation", VEC2),
                ("filter", Bytes(16)),
                ("result", Bytes(RAY_RESULT)),
            ],
        ),
        0xE6 => (
            "b2World_CastMover",
            &[
                WORLD,
                ("origin", POS),
                ("mover", Bytes(CAPSULE)),
                ("translation", VEC2),
                ("filter", Bytes(16)),
                ("result", Bytes(4)),
            ],
        ),
        0xE7 => (
            "b2Shape_TestPoint",
            &[SHAPE, ("point", POS), ("result", Bytes(1))],
        ),
        0xE8 => (
            "b2Shape_RayCast",
            &[
                SHAPE,
                ("origin", POS),
                ("translation", VEC2),
                ("result", Bytes(CAST_OUTPUT)),
            ],
        ),
        0xF1 => ("a state hash", &[WORLD, ("hash", U64)]),
        0xF2 => ("the recording's bounds", &[("bounds", Bytes(16))]),
        _ => return None,
    })
}
