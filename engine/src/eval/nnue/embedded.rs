//! The network the engine ships with: level 7 evaluates with it until `EvalFile` names
//! another. `docs/nnue.md` gives the data, command and seed that made it, and
//! `docs/engine-log.md` its match against level 6.

use std::sync::Arc;

use super::Network;

/// The file's bytes, built into the binary so that level 7 needs no file beside it.
const BYTES: &[u8] = include_bytes!("../../../nets/xq-1ba52a2e.nnue");

/// The shipped network; `None` only if the file above were not a network, which the
/// test below rules out for every build.
#[must_use]
pub fn network() -> Option<Arc<Network>> {
    Network::from_bytes(BYTES).ok().map(Arc::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_network_loads_and_its_hash_is_its_name() {
        let net = network().expect("the shipped network loads");
        assert!(format!("{:016x}", net.hash()).starts_with("1ba52a2e"));
        assert_eq!(net.hidden() % 16, 0);
        assert_eq!(
            (net.buckets(), net.activation()),
            (1, super::super::Activation::CRelu)
        );
    }

    /// The shipped (version-1) network's evaluations of the bench positions, as the
    /// engine gave them before output buckets and SCReLU came (commit 2325bae).
    #[test]
    fn the_shipped_network_evaluates_as_before_buckets() {
        const BEFORE: [i32; 35] = [
            115, -55, -616, -62, -11, 430, 282, -58, -21, 111, -1043, -124, 2, 610, 113, 159, -177,
            -26, -248, 240, 464, -53, -256, -44, -674, 485, -801, -1112, 2048, -430, -794, -501,
            735, -214, 376,
        ];
        let net = network().expect("loads");
        for (fen, before) in crate::bench::POSITIONS.iter().zip(BEFORE) {
            let pos = crate::board::Position::from_fen(fen).expect("a sample position");
            assert_eq!(net.evaluate(&pos), before, "{fen}");
        }
    }
}
