//! CPU pinning (`tournament.affinity`, fastchess's `-use-affinity`).
//!
//! Policy: game slot `i` (the `i`-th of the `concurrency` games played at once) gets the
//! `i mod N`-th of the `N` cores the runner may use (its own affinity mask, so `taskset`
//! around the runner narrows the choice), and both engines of a game run on that core.
//! Without pondering only one of them thinks at a time, so a game needs one core; with
//! `concurrency <= N` no two games share a core, and the scheduler can no longer move an
//! engine onto a core where another game's engine is thinking. With `concurrency > N`
//! slots share cores round-robin (as they would share them unpinned). The mask is set
//! before the engine's exec, so all its threads inherit it. Linux only.

/// The cores the runner may run on, in order (empty when unknown or not Linux).
#[must_use]
pub fn allowed_cores() -> Vec<usize> {
    #[cfg(target_os = "linux")]
    {
        use nix::sched::{sched_getaffinity, CpuSet};
        use nix::unistd::Pid;
        if let Ok(set) = sched_getaffinity(Pid::from_raw(0)) {
            return (0..CpuSet::count())
                .filter(|&c| set.is_set(c).unwrap_or(false))
                .collect();
        }
    }
    Vec::new()
}

/// The core of game slot `slot`, if pinning is possible here.
#[must_use]
pub fn core_for_slot(slot: usize) -> Option<usize> {
    let cores = allowed_cores();
    if cores.is_empty() {
        return None;
    }
    cores.get(slot % cores.len()).copied()
}

/// Whether pinning works on this system, and if not, why (for config validation).
///
/// # Errors
/// A one-line reason.
pub fn check() -> Result<usize, String> {
    if !cfg!(target_os = "linux") {
        return Err("CPU pinning is supported on Linux only".to_owned());
    }
    match allowed_cores().len() {
        0 => Err("cannot read the CPU affinity mask of the runner".to_owned()),
        n => Ok(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn slots_take_the_allowed_cores_round_robin() {
        let cores = allowed_cores();
        assert!(!cores.is_empty());
        let n = cores.len();
        assert_eq!(core_for_slot(0), Some(cores[0]));
        assert_eq!(core_for_slot(n), Some(cores[0]));
        assert_eq!(core_for_slot(n + 1), Some(cores[1 % n]));
    }
}
