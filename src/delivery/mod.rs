//! Everything that talks to customer endpoints: destination checks, signing and sending.

pub mod guard;
