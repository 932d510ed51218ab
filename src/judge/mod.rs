//! Judging a claim, one room for shape sets and captures alike: the claim ([`claim`]), when it
//! agrees with the exact result ([`agreement`]), an engine's contact checked at its precision
//! ([`check`], the front door a game's test calls), a claim's judgement with the known mistakes
//! that reproduce it ([`judgement`]), and a shape set's claims diagnosed ([`diagnose`]).
//! A capture's frames are judged by `capture::analysis::judge` with these.

pub mod agreement;
pub mod check;
pub mod claim;
pub mod diagnose;
pub mod judgement;
