//! The workers page (`/workers`): per worker its state by heartbeat (online on a run,
//! idle, offline), its machine (host, OS and architecture, cores), the games it plays at
//! once, its last bench speed, the runs it played and its games a minute. Every text a
//! worker sent is escaped; the numbers are those of `/api/workers`.

use std::fmt::Write as _;

use super::listing::{WorkerEntry, ONLINE_WITHIN_S};
use super::pages::age;
use super::shell::page;
use crate::output::report::{card, escape};

/// `1.23 Mnps`, `850 knps`, `n/a` for a worker that never benched.
pub(crate) fn nps(n: Option<f64>) -> String {
    match n {
        Some(n) if n.is_finite() && n >= 1e6 => format!("{:.2} Mnps", n / 1e6),
        Some(n) if n.is_finite() && n >= 0.0 => format!("{:.0} knps", n / 1e3),
        _ => "n/a".to_owned(),
    }
}

/// `host · linux/x86_64`, what an older worker that did not say leaves empty.
fn machine(w: &WorkerEntry) -> String {
    let Some(host) = &w.host else {
        return "<span class=\"sub\">not reported</span>".to_owned();
    };
    format!(
        "<span class=\"host\">{}</span> <span class=\"sub\">{}/{}</span>",
        escape(host),
        escape(w.os.as_deref().unwrap_or("?")),
        escape(w.arch.as_deref().unwrap_or("?"))
    )
}

fn row(w: &WorkerEntry, out: &mut String) {
    let runs: Vec<String> = w
        .runs
        .iter()
        .map(|id| format!("<a href=\"/runs/{id}\">{id}</a>"))
        .collect();
    let _ = write!(
        out,
        "<tr data-worker=\"{name}\"><td class=\"name\">{name}</td>\
         <td><span class=\"wstate {state}\">{state}</span></td><td class=\"machine\">{}</td>\
         <td class=\"n cores\" data-l=\"cores\">{}</td><td class=\"n conc\" data-l=\"plays at once\">{}</td>\
         <td class=\"n bench\" data-l=\"bench\">{}</td><td class=\"n seen\" data-l=\"heard\">{} ago</td>\
         <td class=\"on\" data-l=\"now on\">{}</td><td class=\"runs\" data-l=\"runs\">{}</td>\
         <td class=\"n games\" data-l=\"games\">{}</td><td class=\"n gpm\" data-l=\"games/min\">{:.1}</td>\
         <td class=\"sub\">{}</td></tr>",
        machine(w),
        w.cores.map_or_else(|| "n/a".to_owned(), |c| c.to_string()),
        w.concurrency,
        nps(w.bench_nps),
        age(w.last_seen_s_ago),
        w.run
            .map_or_else(String::new, |id| format!("<a href=\"/runs/{id}\">{id}</a>")),
        runs.join(", "),
        w.games,
        w.games_per_min,
        escape(&w.version),
        name = escape(&w.name),
        state = w.state,
    );
}

/// The workers page.
pub(crate) fn workers_page(workers: &[WorkerEntry]) -> String {
    let mut table = String::from(
        "<div class=\"wide\"><table class=\"list\" id=\"workers\"><thead><tr><th>Worker</th>\
         <th>State</th><th>Machine</th><th>Cores</th><th>Plays at once</th><th>Bench</th>\
         <th>Last heartbeat</th><th>Now on</th><th>Runs</th><th>Games</th><th>Games/min</th>\
         <th>Version</th></tr></thead><tbody>",
    );
    for w in workers {
        row(w, &mut table);
    }
    if workers.is_empty() {
        table.push_str("<tr><td colspan=\"12\">no worker seen yet</td></tr>");
    }
    let _ = write!(
        table,
        "</tbody></table></div><p class=\"note\">Online: heard from in the last {ONLINE_WITHIN_S:.0} s \
         and on a run; idle: heard from, no run; offline: silent longer. A worker is named \
         after its machine (or its --name), so a restarted one keeps its row. Bench: the mean \
         nodes per second of the engines it measured for the last run it benched. \
         Games/min: its games over its time on batches.</p>"
    );
    let mut body = String::from(
        "<header><div class=\"eyebrow\">xq-runner serve</div><h1>Workers</h1></header>\n",
    );
    card(&mut body, "Every worker seen", &table);
    page(
        &format!("{} workers \u{b7} xq-runner", workers.len()),
        "/api/workers",
        &body,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn speeds_read_in_their_unit() {
        assert_eq!(nps(Some(1_234_567.0)), "1.23 Mnps");
        assert_eq!(nps(Some(850_400.0)), "850 knps");
        assert_eq!(nps(None), "n/a");
        assert_eq!(nps(Some(f64::NAN)), "n/a");
    }

    #[test]
    fn a_workers_texts_are_escaped() {
        let w = WorkerEntry {
            name: "</script><b>".to_owned(),
            version: "v".to_owned(),
            state: "idle",
            host: Some("<i>h</i>".to_owned()),
            os: Some("linux".to_owned()),
            arch: Some("x86_64".to_owned()),
            cores: Some(4),
            concurrency: 2,
            bench_nps: None,
            last_seen_s_ago: 1.0,
            run: None,
            runs: vec![],
            games: 0,
            games_per_s: 0.0,
            games_per_min: 0.0,
        };
        let page = workers_page(&[w]);
        assert!(!page.contains("</script><b>") && !page.contains("<i>h"));
        assert!(page.contains("&lt;/script&gt;&lt;b&gt;"));
    }
}
