//! How a simulation runs: the step, its substeps, the resolver, continuous collision.

use crate::query::Mistake;
use serde::{Deserialize, Serialize};
use std::fmt;

/// What resolves a contact: the correct separating-axis test, or a known mistake (so its
/// effect can be watched over time).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Resolver {
    /// The exact test (`collide`): the MTV the shorter way out.
    #[default]
    Sat,
    /// A known mistake's test ([`crate::query::mistaken_report`]).
    Mistake(Mistake),
}

impl Resolver {
    /// Every resolver: `sat`, then the mistakes.
    pub fn all() -> impl Iterator<Item = Resolver> {
        std::iter::once(Resolver::Sat).chain(Mistake::ALL.into_iter().map(Resolver::Mistake))
    }

    /// Its name on the command line and in files: `sat` or the mistake's name.
    pub fn name(self) -> &'static str {
        match self {
            Resolver::Sat => "sat",
            Resolver::Mistake(m) => m.name(),
        }
    }

    /// The resolver named `name`.
    pub fn from_name(name: &str) -> Result<Resolver, ConfigError> {
        Resolver::all()
            .find(|r| r.name() == name)
            .ok_or_else(|| ConfigError::Resolver(name.to_string()))
    }
}

impl fmt::Display for Resolver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The most substeps one step is split into (a body that cannot move safely at all, like a
/// polygon whose position lies outside it, would otherwise ask for infinitely many).
pub const MAX_SUBSTEPS: u32 = 100_000;

/// How a step is split.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Substeps {
    /// Into K equal substeps (`fixed:K`, K >= 1).
    Fixed(u32),
    /// Into as many equal substeps as it takes for no moving body to move more than
    /// `(r - e)` in one (`bound`): `ceil(dt / min over bodies of (r - e) / |v|)`, at most
    /// [`MAX_SUBSTEPS`].
    Bound,
}

impl Default for Substeps {
    fn default() -> Self {
        Substeps::Fixed(1)
    }
}

impl Substeps {
    /// `fixed:K` or `bound`.
    pub fn parse(text: &str) -> Result<Substeps, ConfigError> {
        if text == "bound" {
            return Ok(Substeps::Bound);
        }
        let bad = || ConfigError::Substeps(text.to_string());
        let k = text.strip_prefix("fixed:").ok_or_else(bad)?;
        match k.parse::<u32>() {
            Ok(k) if (1..=MAX_SUBSTEPS).contains(&k) => Ok(Substeps::Fixed(k)),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for Substeps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Substeps::Fixed(k) => write!(f, "fixed:{k}"),
            Substeps::Bound => f.write_str("bound"),
        }
    }
}

/// Everything a run depends on besides the scene.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Config {
    /// The step (seconds, finite, > 0).
    pub dt: f64,
    /// How each step is split.
    pub substeps: Substeps,
    /// What resolves contacts.
    pub resolver: Resolver,
    /// Continuous collision: a dynamic body stops at its first contact with a static or
    /// kinematic shape within a substep instead of moving through it.
    pub ccd: bool,
}

impl Config {
    /// A configuration with step `dt`, after checking it.
    pub fn new(dt: f64) -> Result<Config, ConfigError> {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(ConfigError::Dt(dt));
        }
        Ok(Config {
            dt,
            substeps: Substeps::default(),
            resolver: Resolver::default(),
            ccd: false,
        })
    }
}

/// A configuration that cannot run.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ConfigError {
    /// The step is not a positive finite number.
    #[error("dt must be a positive finite number of seconds, not {0}")]
    Dt(f64),
    /// No such resolver.
    #[error(
        "unknown resolver `{0}`: use sat, normal-reversed, naive-smallest-overlap, edge-normals-only, shallow-ignored or internal-edge"
    )]
    Resolver(String),
    /// Not `fixed:K` or `bound`.
    #[error("substeps must be fixed:K (K from 1 to 100000) or bound, not `{0}`")]
    Substeps(String),
}

/// How a configuration is written in a recording.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct ConfigRecord {
    pub dt: f64,
    pub substeps: String,
    pub resolver: String,
    pub ccd: bool,
}

impl From<Config> for ConfigRecord {
    fn from(c: Config) -> Self {
        Self {
            dt: c.dt,
            substeps: c.substeps.to_string(),
            resolver: c.resolver.name().to_string(),
            ccd: c.ccd,
        }
    }
}

impl TryFrom<ConfigRecord> for Config {
    type Error = ConfigError;

    fn try_from(r: ConfigRecord) -> Result<Self, ConfigError> {
        Ok(Config {
            substeps: Substeps::parse(&r.substeps)?,
            resolver: Resolver::from_name(&r.resolver)?,
            ccd: r.ccd,
            ..Config::new(r.dt)?
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_bad_ones_are_refused() {
        for r in Resolver::all() {
            assert_eq!(Resolver::from_name(r.name()).unwrap(), r);
        }
        assert!(Resolver::from_name("fast").is_err());
        assert_eq!(Substeps::parse("fixed:4").unwrap(), Substeps::Fixed(4));
        assert_eq!(Substeps::parse("bound").unwrap(), Substeps::Bound);
        for bad in ["fixed:0", "fixed:", "4", "fixed:-1", "bounded"] {
            assert!(Substeps::parse(bad).is_err(), "{bad}");
        }
        assert!(Config::new(0.0).is_err() && Config::new(f64::NAN).is_err());
    }
}
