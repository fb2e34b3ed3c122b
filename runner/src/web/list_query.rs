//! The query of the runs list (`/?state=open&submitter=ann%40box&page=2`): a state of
//! [`STATES`], a submitter as `submit` recorded it, and a page of [`PAGE_SIZE`] runs.
//! Read strictly (an unknown or doubled key, a bad state or page is a 400, one line) and
//! written back percent-encoded, so that a link or the cache key made of it names the
//! same list and no submitter's text reaches the markup unescaped.

use std::fmt::Write as _;

use super::error::WebError;
use super::listing::STATES;

/// Runs a page of the list shows.
pub(crate) const PAGE_SIZE: usize = 50;

/// The highest page asked for that is read: far past any list's end, small enough that
/// the offset it makes never overflows.
const MAX_PAGE: usize = 1_000_000;

/// What the runs list is asked to show.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ListQuery {
    pub state: Option<String>,
    pub submitter: Option<String>,
    /// From 1.
    pub page: usize,
}

impl Default for ListQuery {
    /// Every run, the first page.
    fn default() -> ListQuery {
        ListQuery {
            state: None,
            submitter: None,
            page: 1,
        }
    }
}

/// `%XX` and `+` decoded; `None` for a bad escape or bytes that are not UTF-8.
fn decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' => {
                let hex = text.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 2;
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

/// `text` percent-encoded but for the unreserved characters.
pub(crate) fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

fn bad(why: &str) -> WebError {
    WebError::BadPath(format!(
        "{why}: the runs are listed by `state=` one of {}, `submitter=` a name, `page=` from 1",
        STATES.join(", ")
    ))
}

impl ListQuery {
    /// The query of a request; the first page of every run without one.
    ///
    /// # Errors
    /// [`WebError::BadPath`] for an unknown or doubled key, an unknown state, an empty or
    /// badly escaped value, a page that is not a number from 1.
    pub(crate) fn parse(query: Option<&str>) -> Result<ListQuery, WebError> {
        let mut q = ListQuery::default();
        let mut paged = false;
        for part in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
            let (key, raw) = part
                .split_once('=')
                .ok_or_else(|| bad("a key without a value"))?;
            let value = decode(raw)
                .filter(|v| !v.is_empty())
                .ok_or_else(|| bad(&format!("`{key}=` needs a value")))?;
            let twice = || bad(&format!("`{key}=` twice"));
            match key {
                "state" if q.state.is_some() => return Err(twice()),
                "state" if STATES.contains(&value.as_str()) => q.state = Some(value),
                "state" => return Err(bad("an unknown state")),
                "submitter" if q.submitter.is_some() => return Err(twice()),
                "submitter" => q.submitter = Some(value),
                "page" if paged => return Err(twice()),
                "page" => {
                    q.page = value
                        .parse()
                        .ok()
                        .filter(|p| (1..=MAX_PAGE).contains(p))
                        .ok_or_else(|| bad("a page is a number from 1"))?;
                    paged = true;
                }
                _ => return Err(bad("an unknown key")),
            }
        }
        Ok(q)
    }

    /// The query as a link writes it (`?state=open&page=2`, empty for the first page of
    /// every run), its values encoded.
    pub(crate) fn to_query(&self) -> String {
        let mut parts = Vec::new();
        if let Some(s) = &self.state {
            parts.push(format!("state={}", encode(s)));
        }
        if let Some(s) = &self.submitter {
            parts.push(format!("submitter={}", encode(s)));
        }
        if self.page > 1 {
            parts.push(format!("page={}", self.page));
        }
        if parts.is_empty() {
            String::new()
        } else {
            format!("?{}", parts.join("&"))
        }
    }

    /// The same list on page `page`.
    pub(crate) fn on_page(&self, page: usize) -> ListQuery {
        ListQuery {
            page,
            ..self.clone()
        }
    }

    /// The index of the page's first run in the filtered list.
    pub(crate) fn offset(&self) -> usize {
        self.page.saturating_sub(1) * PAGE_SIZE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_reads_its_three_keys_and_writes_them_back_encoded() {
        let q = ListQuery::parse(Some("state=open&submitter=ann+%3Cb%3E%40box&page=3"))
            .expect("a query");
        assert_eq!(q.state.as_deref(), Some("open"));
        assert_eq!(q.submitter.as_deref(), Some("ann <b>@box"));
        assert_eq!(q.page, 3);
        assert_eq!(q.offset(), 100);
        assert_eq!(
            q.to_query(),
            "?state=open&submitter=ann%20%3Cb%3E%40box&page=3"
        );
        assert_eq!(ListQuery::parse(Some(&q.to_query()[1..])).ok(), Some(q));
        assert_eq!(
            ListQuery::parse(None).map(|q| q.to_query()).ok(),
            Some(String::new())
        );
    }

    #[test]
    fn anything_else_is_a_bad_request() {
        for bad in [
            "state=",
            "state=done",
            "x=1",
            "state=open&state=open",
            "page=0",
            "page=-1",
            "page=abc",
            "page=99999999999999999999",
            "submitter=%ZZ",
            "submitter=%FF",
            "submitter",
        ] {
            assert!(
                matches!(ListQuery::parse(Some(bad)), Err(WebError::BadPath(_))),
                "{bad}"
            );
        }
    }
}
