//! A file as a run carries it: named by its SHA-256, with its size and, for a program,
//! the platform it was built for (from its ELF header), so that a worker of another
//! platform refuses it instead of failing to start it.

use std::fmt::Write as _;
use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

/// A file's identity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    /// SHA-256, 64 lowercase hex digits.
    pub sha256: String,
    pub size: u64,
    /// `x86_64-linux` for an ELF program; `None` for anything else (a script, a net, a
    /// book), which any worker may take.
    pub platform: Option<String>,
}

/// The platform of this runner, as [`Identity::platform`] names it.
#[must_use]
pub fn this_platform() -> String {
    format!("{}-{}", std::env::consts::ARCH, std::env::consts::OS)
}

/// The SHA-256 of what `reader` gives, in hex, read 1 MiB at a time.
///
/// # Errors
/// The reader's.
pub fn sha256_of(mut reader: impl Read) -> std::io::Result<(String, u64)> {
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    let mut size = 0u64;
    loop {
        let n = reader.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
        size += n as u64;
    }
    Ok((hex(&hasher.finalize()), size))
}

/// Bytes as lowercase hex.
#[must_use]
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::with_capacity(64), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// A streaming SHA-256, for a download that is hashed as it is written.
#[derive(Default)]
pub struct Hasher(Sha256);

impl std::fmt::Debug for Hasher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Hasher")
    }
}

impl Hasher {
    pub fn update(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    #[must_use]
    pub fn finish(self) -> String {
        hex(&self.0.finalize())
    }
}

/// The platform an ELF header says a program is for (`None` when it is no ELF file).
#[must_use]
pub fn platform_of(header: &[u8]) -> Option<String> {
    if header.len() < 20 || &header[..4] != b"\x7fELF" {
        return None;
    }
    // e_machine, at offset 18, in the file's own byte order (EI_DATA: 1 little, 2 big).
    let machine = match header[5] {
        2 => u16::from_be_bytes([header[18], header[19]]),
        _ => u16::from_le_bytes([header[18], header[19]]),
    };
    let arch = match machine {
        0x03 => "x86".to_owned(),
        0x28 => "arm".to_owned(),
        0x3e => "x86_64".to_owned(),
        0xb7 => "aarch64".to_owned(),
        0xf3 => "riscv64".to_owned(),
        other => format!("elf-machine-{other:#x}"),
    };
    // EI_OSABI: System V (0) and Linux (3) are what Linux runs; the BSDs mark theirs.
    let os = match header[7] {
        0 | 3 => "linux".to_owned(),
        9 => "freebsd".to_owned(),
        other => format!("osabi-{other}"),
    };
    Some(format!("{arch}-{os}"))
}

/// The identity of the file at `path`.
///
/// # Errors
/// One line: the file cannot be read.
pub fn identify(path: &Path) -> Result<Identity, String> {
    let fail = |e: std::io::Error| format!("{}: cannot read: {e}", path.display());
    let mut file = std::fs::File::open(path).map_err(fail)?;
    let mut header = [0u8; 20];
    let mut got = 0;
    while got < header.len() {
        match file.read(&mut header[got..]).map_err(fail)? {
            0 => break,
            n => got += n,
        }
    }
    let (sha256, size) = sha256_of(std::fs::File::open(path).map_err(fail)?).map_err(fail)?;
    Ok(Identity {
        sha256,
        size,
        platform: platform_of(&header[..got]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_known_inputs() {
        let (empty, size) = sha256_of(&b""[..]).expect("hash");
        assert_eq!(
            (empty.as_str(), size),
            (
                "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                0
            )
        );
        let (abc, _) = sha256_of(&b"abc"[..]).expect("hash");
        assert_eq!(
            abc,
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        let mut h = Hasher::default();
        h.update(b"a");
        h.update(b"bc");
        assert_eq!(h.finish(), abc, "streamed alike");
    }

    #[test]
    fn platforms_from_elf_headers() {
        let elf = |class: u8, data: u8, osabi: u8, machine: [u8; 2]| {
            let mut h = vec![0x7f, b'E', b'L', b'F', class, data, 1, osabi];
            h.resize(18, 0);
            h.extend_from_slice(&machine);
            h
        };
        assert_eq!(
            platform_of(&elf(2, 1, 0, [0x3e, 0])).as_deref(),
            Some("x86_64-linux")
        );
        assert_eq!(
            platform_of(&elf(2, 1, 3, [0xb7, 0])).as_deref(),
            Some("aarch64-linux")
        );
        assert_eq!(
            platform_of(&elf(2, 2, 0, [0, 0xb7])).as_deref(),
            Some("aarch64-linux")
        );
        assert_eq!(platform_of(b"#!/bin/sh\necho hi\n"), None);
        assert_eq!(platform_of(b"\x7fELF"), None, "too short to say");
        // This test's own program is of this runner's platform.
        let me = std::env::current_exe().expect("exe");
        assert_eq!(
            identify(&me).expect("reads").platform,
            Some(this_platform())
        );
    }
}
