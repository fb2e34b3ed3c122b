//! Why a local run's openings cannot be used: each kind of refusal with the error under
//! it kept as its source, printed as one line (the output folder's: `store::folder`).

use std::path::PathBuf;

use thiserror::Error;

use crate::openings::BookError;

/// The run's opening file cannot be used.
#[derive(Debug, Error)]
pub enum OpeningsError {
    /// The book cannot be read, or a line of it is bad.
    #[error(transparent)]
    Book(#[from] BookError),
    /// The file cannot be read to take its fingerprint.
    #[error("{}: cannot read: {source}", .path.display())]
    Fingerprint {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A resumed run's file is not the one it started with.
    #[error("{path}: the opening file changed since the run started (fingerprint {was} then, {now} now): a resumed run must play the same openings; restore the file")]
    Changed {
        path: String,
        was: String,
        now: String,
    },
}

#[cfg(test)]
mod tests {
    use std::error::Error as _;

    use super::*;
    use crate::local_run::tournament::RunError;
    use crate::store::folder::FolderError;
    use crate::store::meta::RunMeta;

    #[test]
    fn a_refused_folder_keeps_the_error_under_it() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let missing = RunMeta::read(dir.path()).expect_err("an empty folder holds no run");
        let line = missing.to_string();
        let error = RunError::from(FolderError::from(missing));
        // The same one line as the error it wraps...
        assert_eq!(error.to_string(), line);
        assert!(!line.contains('\n'));
        // ...and the I/O error still there for a caller that looks.
        let io = error
            .source()
            .and_then(|s| s.downcast_ref::<std::io::Error>())
            .expect("the io::Error under the refusal");
        assert_eq!(io.kind(), std::io::ErrorKind::NotFound);
    }

    #[test]
    fn an_unreadable_book_keeps_the_error_under_it() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("no-such-book.epd");
        let using = crate::openings::BookUse {
            format: crate::openings::BookFormat::Epd,
            order: crate::openings::Order::Sequential,
            seed: 1,
            start: 0,
            rounds: 1,
            plies: None,
            rules: xq_core::rules::Rules::default(),
        };
        let book = crate::openings::OpeningBook::load_used(&path, &using)
            .expect_err("the file does not exist");
        let line = book.to_string();
        let error = RunError::from(OpeningsError::from(book));
        assert_eq!(error.to_string(), line);
        assert!(error.source().is_some(), "{error}: the source is lost");
    }
}
