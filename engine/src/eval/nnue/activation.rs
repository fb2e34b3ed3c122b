//! The hidden layer's activation, named in the network file.
//!
//! - CReLU, `clamp(x, 0, 1)` (integers: `clamp(x, 0, QA)`): the output sum is
//!   `Σ v · w`, `QA · QB` units.
//! - SCReLU, `clamp(x, 0, 1)²` (integers: `v²` with `v = clamp(x, 0, QA)`): the sum
//!   `Σ v² · w` is in `QA² · QB` units and is divided by `QA` once, after the dot
//!   product, to come back to `QA · QB` units (one rounding, not one per term).
//!
//! Why SCReLU: its square lets one hidden layer represent products of features (two
//! pieces' interplay) that a piecewise-linear activation cannot; the trainer's option
//! lets the held-out loss decide between them.

use std::fmt;

/// The activation of the hidden layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Activation {
    /// `clamp(x, 0, QA)`.
    #[default]
    CRelu,
    /// `clamp(x, 0, QA)²`, divided by `QA` after the dot product.
    SCRelu,
}

impl Activation {
    /// Every activation, in the order of their file codes.
    pub const ALL: [Activation; 2] = [Activation::CRelu, Activation::SCRelu];

    /// The file's code for it.
    #[must_use]
    pub fn code(self) -> u32 {
        match self {
            Activation::CRelu => 0,
            Activation::SCRelu => 1,
        }
    }

    /// The activation a file's code names, if this build has it.
    #[must_use]
    pub fn from_code(code: u32) -> Option<Activation> {
        Activation::ALL.into_iter().find(|a| a.code() == code)
    }

    /// Its name on command lines and in messages: `crelu` or `screlu`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Activation::CRelu => "crelu",
            Activation::SCRelu => "screlu",
        }
    }

    /// The activation a name gives, if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Activation> {
        Activation::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Activation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_names_round_trip() {
        for a in Activation::ALL {
            assert_eq!(Activation::from_code(a.code()), Some(a));
            assert_eq!(Activation::from_name(a.name()), Some(a));
        }
        assert_eq!(Activation::from_code(2), None);
        assert_eq!(Activation::from_name("relu"), None);
    }
}
