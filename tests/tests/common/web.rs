//! Helpers of the tests of `xq-runner serve`: a running `serve`, HTTP GET over a plain
//! socket, and headless Chromium driven over its DevTools protocol, which reads the
//! pages after their scripts ran.

use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// A running `serve`, stopped when dropped.
pub struct Served {
    pub child: Child,
    pub base: String,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `serve` with `args` on a free port, with `env`; waits for its first line.
pub fn serve(args: &[&str], env: &[(&str, &str)]) -> Served {
    let mut child = Command::new(super::bin("xq-runner"))
        .arg("serve")
        .args(args)
        .args(["--listen", "127.0.0.1:0"])
        .envs(env.iter().copied())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start serve");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut line = Vec::new();
    let mut byte = [0u8; 1];
    while stdout.read(&mut byte).is_ok_and(|n| n == 1) && byte[0] != b'\n' {
        line.push(byte[0]);
    }
    let line = String::from_utf8_lossy(&line).into_owned();
    let base = line
        .split_whitespace()
        .nth(1)
        .filter(|u| u.starts_with("http://"))
        .unwrap_or_else(|| panic!("serve said: {line:?}"))
        .trim_end_matches('/')
        .to_owned();
    child.stdout = Some(stdout);
    Served { child, base }
}

/// An HTTP GET: the status code, the headers (lower case) and the body.
pub fn get(base: &str, path: &str) -> (u16, String, String) {
    try_get(base, path).unwrap_or_else(|| panic!("GET {base}{path}: no answer"))
}

/// As [`get`]; `None` when nothing listens there (yet).
pub fn try_get(base: &str, path: &str) -> Option<(u16, String, String)> {
    let host = base.trim_start_matches("http://");
    let mut s = TcpStream::connect(host).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(60))).ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
    )
    .ok()?;
    // Chromium's DevTools keeps the connection open: a body with a length is read to
    // its length, any other to the end.
    let mut raw = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        let n = s.read(&mut buf).ok()?;
        raw.extend_from_slice(&buf[..n]);
        if n == 0 {
            break;
        }
        let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
            continue;
        };
        let head = String::from_utf8_lossy(&raw[..split]).to_lowercase();
        let length = head.lines().find_map(|l| {
            l.strip_prefix("content-length:")
                .and_then(|v| v.trim().parse::<usize>().ok())
        });
        if length.is_some_and(|len| raw.len() >= split + 4 + len) {
            break;
        }
    }
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = String::from_utf8_lossy(&raw[..split]).to_lowercase();
    let body = &raw[split + 4..];
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let body = if head.contains("transfer-encoding: chunked") {
        dechunk(body)
    } else {
        body.to_vec()
    };
    Some((code, head, String::from_utf8_lossy(&body).into_owned()))
}

/// A chunked HTTP body put together (each chunk: its size in hex, CRLF, the bytes, CRLF).
fn dechunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(end) = rest.windows(2).position(|w| w == b"\r\n") {
        let size = std::str::from_utf8(&rest[..end])
            .ok()
            .and_then(|t| usize::from_str_radix(t.trim(), 16).ok())
            .unwrap_or(0);
        let data = &rest[end + 2..];
        if size == 0 || data.len() < size + 2 {
            break;
        }
        body.extend_from_slice(&data[..size]);
        rest = &data[size + 2..];
    }
    body
}

/// Headless Chromium with its DevTools protocol on a WebSocket, one page open.
pub struct Browser {
    child: Child,
    socket: tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>,
    next: u64,
    _profile: tempfile::TempDir,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    pub fn open(url: &str) -> Browser {
        let profile = super::scratch("chromium");
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").expect("a free port");
            l.local_addr().expect("address").port()
        };
        let child = Command::new("chromium")
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-dev-shm-usage",
                "--window-size=1200,1500",
                &format!("--remote-debugging-port={port}"),
                &format!("--user-data-dir={}", profile.path().display()),
                url,
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("Chromium is installed (Debian package `chromium`)");
        let base = format!("http://127.0.0.1:{port}");
        let start = Instant::now();
        let ws = loop {
            let list = try_get(&base, "/json/list");
            let page = list.and_then(|(_, _, body)| {
                let targets: Value = serde_json::from_str(&body).ok()?;
                targets.as_array()?.iter().find_map(|t| {
                    (t["type"] == "page")
                        .then(|| t["webSocketDebuggerUrl"].as_str().map(str::to_owned))?
                })
            });
            if let Some(ws) = page {
                break ws;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "Chromium's DevTools did not come up"
            );
            std::thread::sleep(Duration::from_millis(100));
        };
        let (socket, _) = tungstenite::connect(ws.as_str()).expect("DevTools WebSocket");
        Browser {
            child,
            socket,
            next: 0,
            _profile: profile,
        }
    }

    /// The value of `expression` in the open page.
    pub fn eval(&mut self, expression: &str) -> Value {
        self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true}),
        )["result"]["value"]
            .clone()
    }

    /// The page as `width` CSS pixels wide (a phone's 390, a desktop's 1920), laid out
    /// again at once.
    pub fn width(&mut self, width: u32) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": false}),
        );
    }

    /// The result of DevTools method `method` with `params`.
    pub fn call(&mut self, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let call = json!({"id": id, "method": method, "params": params});
        self.socket
            .send(tungstenite::Message::text(call.to_string()))
            .expect("send to DevTools");
        loop {
            let message = self.socket.read().expect("read from DevTools");
            let Ok(text) = message.to_text() else {
                continue;
            };
            let answer: Value = serde_json::from_str(text).unwrap_or(Value::Null);
            if answer["id"] == id {
                return answer["result"].clone();
            }
        }
    }

    /// Waits until `expression` is true in the page, for at most `limit`.
    pub fn wait(&mut self, what: &str, expression: &str, limit: Duration) {
        let start = Instant::now();
        while self.eval(expression) != Value::Bool(true) {
            assert!(start.elapsed() < limit, "waited {limit:?} for {what}");
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The text of the live figure `key` of a run page.
    pub fn figure(&mut self, key: &str) -> String {
        self.eval(&format!(
            "(document.querySelector('[data-k={key}] .value')||{{}}).textContent"
        ))
        .as_str()
        .unwrap_or_default()
        .to_owned()
    }
}

/// A screenshot of `url` into `file`, `width` pixels wide, by Chromium once its
/// scripts ran.
pub fn screenshot(url: &str, file: &Path, width: u32) {
    let profile = super::scratch("chromium-shot");
    let out = Command::new("chromium")
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--virtual-time-budget=3000",
            &format!("--window-size={width},1400"),
            &format!("--user-data-dir={}", profile.path().display()),
            &format!("--screenshot={}", file.display()),
            url,
        ])
        .output()
        .expect("run Chromium");
    let png = std::fs::read(file).unwrap_or_default();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "a screenshot of {url}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Where the screenshots go: `XQ_SERVE_SHOTS` (docs/ when kept), else a scratch folder.
pub fn shots(scratch: &Path) -> PathBuf {
    std::env::var_os("XQ_SERVE_SHOTS").map_or_else(|| scratch.to_owned(), PathBuf::from)
}

/// The widths every changed page is looked at: a laptop's, a desktop's, a phone's.
pub const WIDTHS: [u32; 3] = [1280, 1920, 390];

/// The screenshots of `url` at each of [`WIDTHS`], as `{name}-{width}.png`.
pub fn screenshots(url: &str, dir: &Path, name: &str) {
    for width in WIDTHS {
        screenshot(url, &dir.join(format!("{name}-{width}.png")), width);
    }
}

/// In the page, the words of `selector`'s text that a line break cut in two, and the
/// elements that stick out of their box: none at any width. A word is letters and
/// digits, with the points and commas inside a number (`finished`, `4.29`, `1,000`);
/// markup-like names (`</script><script>`) may wrap where the Unicode line-breaking
/// rules allow, between their words.
pub const BROKEN_WORDS: &str = r#"(selector) => {
  const bad = [];
  const root = document.querySelector(selector);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const re = /[\p{L}\p{N}]+(?:[.,:][\p{L}\p{N}]+)*/gu;
    let m;
    while ((m = re.exec(node.data)) !== null) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
      if (tops.size > 1) bad.push('broken: ' + m[0]);
    }
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1) bad.push('page overflows');
  if (root.scrollWidth > root.parentElement.clientWidth + 1) bad.push('table overflows');
  return bad.join(' | ');
}"#;
