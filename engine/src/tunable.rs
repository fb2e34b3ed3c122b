//! An integer parameter that can be set at run time: its option name, its bounds, and
//! how it is read from and written into the settings it belongs to (the search's
//! [`SearchParams`](crate::search::SearchParams), the evaluation's
//! [`TermWeights`](crate::eval::TermWeights)). The protocol announces these as spin
//! options (`xq-engine --tune`) and sets them with `setoption`.

use std::fmt;

use thiserror::Error;

/// One tunable integer of the settings `T`.
pub struct Tunable<T> {
    /// The UCI option name, Stockfish style (`FutilityMargin`). UCCI uses it lowercased
    /// (`futilitymargin`); `setoption` matches either dialect's name in any case.
    pub name: &'static str,
    /// Smallest value accepted.
    pub min: i32,
    /// Largest value accepted.
    pub max: i32,
    /// The value in a set of settings.
    pub get: fn(&T) -> i32,
    /// Writes a value (already checked against `min..=max`) into a set of settings.
    pub set: fn(&mut T, i32),
}

impl<T> fmt::Debug for Tunable<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tunable")
            .field("name", &self.name)
            .field("min", &self.min)
            .field("max", &self.max)
            .finish_non_exhaustive()
    }
}

/// Why a value was not taken; nothing is changed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TuneError {
    #[error("{name} needs a value from {min} to {max}")]
    MissingValue {
        name: &'static str,
        min: i32,
        max: i32,
    },
    #[error("{name} needs an integer from {min} to {max}, not `{value}`")]
    NotInteger {
        name: &'static str,
        value: String,
        min: i32,
        max: i32,
    },
    #[error("{name} must be from {min} to {max}, not {value}")]
    OutOfRange {
        name: &'static str,
        value: i32,
        min: i32,
        max: i32,
    },
}

impl<T: Default> Tunable<T> {
    /// The value in the default settings (today's constants).
    #[must_use]
    pub fn default_value(&self) -> i32 {
        (self.get)(&T::default())
    }
}

impl<T> Tunable<T> {
    /// The UCCI option name: the UCI name lowercased.
    #[must_use]
    pub fn ucci_name(&self) -> String {
        self.name.to_ascii_lowercase()
    }

    /// Whether `name` (as the GUI sent it, in any case) names this parameter.
    #[must_use]
    pub fn is_named(&self, name: &str) -> bool {
        self.name.eq_ignore_ascii_case(name.trim())
    }

    /// Parses `text` and writes the value into `target`.
    ///
    /// # Errors
    /// [`TuneError`] when there is no value, it is not an integer or it is out of
    /// `min..=max`; `target` is then unchanged.
    pub fn apply(&self, target: &mut T, text: Option<&str>) -> Result<(), TuneError> {
        let (name, min, max) = (self.name, self.min, self.max);
        let text = text
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .ok_or(TuneError::MissingValue { name, min, max })?;
        let value: i32 = text.parse().map_err(|_| TuneError::NotInteger {
            name,
            value: text.chars().take(40).collect(),
            min,
            max,
        })?;
        if !(min..=max).contains(&value) {
            return Err(TuneError::OutOfRange {
                name,
                value,
                min,
                max,
            });
        }
        (self.set)(target, value);
        Ok(())
    }
}

/// The value types a tunable can stand for, seen as the `i32` of its option.
pub trait OptionValue: Copy {
    /// The option's value.
    fn to_option(self) -> i32;
    /// The value of an option already checked against its bounds.
    fn from_option(value: i32) -> Self;
}

impl OptionValue for i32 {
    fn to_option(self) -> i32 {
        self
    }
    fn from_option(value: i32) -> i32 {
        value
    }
}

impl OptionValue for usize {
    fn to_option(self) -> i32 {
        i32::try_from(self).unwrap_or(i32::MAX)
    }
    fn from_option(value: i32) -> usize {
        usize::try_from(value).unwrap_or(0)
    }
}

/// A [`Tunable`] of the field `$field` of the settings `$settings`:
/// `tunable!(Settings, "Name", field, min, max)`.
macro_rules! tunable {
    ($settings:ty, $name:literal, $field:ident, $min:expr, $max:expr) => {
        $crate::tunable::Tunable::<$settings> {
            name: $name,
            min: $min,
            max: $max,
            get: |s| $crate::tunable::OptionValue::to_option(s.$field),
            set: |s, v| s.$field = $crate::tunable::OptionValue::from_option(v),
        }
    };
}
pub(crate) use tunable;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default)]
    struct Settings {
        width: i32,
        count: usize,
    }

    const WIDTH: Tunable<Settings> = tunable!(Settings, "BoxWidth", width, -5, 10);
    const COUNT: Tunable<Settings> = tunable!(Settings, "BoxCount", count, 0, 64);

    #[test]
    fn values_in_range_are_written_and_the_rest_refused_unchanged() {
        let mut s = Settings::default();
        assert_eq!(WIDTH.apply(&mut s, Some(" -5 ")), Ok(()));
        assert_eq!(s.width, -5);
        assert_eq!(COUNT.apply(&mut s, Some("64")), Ok(()));
        assert_eq!((COUNT.get)(&s), 64);
        for bad in [
            None,
            Some(""),
            Some("11"),
            Some("-6"),
            Some("3.5"),
            Some("x"),
        ] {
            assert!(WIDTH.apply(&mut s, bad).is_err(), "{bad:?}");
        }
        assert_eq!(s.width, -5);
        let message = WIDTH.apply(&mut s, Some("99")).map_err(|e| e.to_string());
        assert_eq!(
            message,
            Err("BoxWidth must be from -5 to 10, not 99".to_owned())
        );
        assert!(WIDTH.is_named("boxwidth") && WIDTH.is_named("BOXWIDTH"));
        assert_eq!(WIDTH.ucci_name(), "boxwidth");
        assert_eq!(COUNT.default_value(), 0);
    }
}
