//! Evaluation: levels 0..6 of knowledge (see DESIGN.md), one module per term.

pub mod psqt;
