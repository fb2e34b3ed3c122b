//! `xq-runner serve DIR` over a folder holding a bisection, a scaling run and a datagen
//! folder (issue 59): the runs page lists each once (not the steps and points as runs
//! of their own), a bisection's page shows its steps, verdicts and culprit as
//! `bisect.json` has them with links into each step's run page, a scaling run's page its
//! chart and table with links into each point, and a datagen folder its positions and
//! rate. Read in headless Chromium after the scripts ran; the folder names have markup.

mod common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use common::web::{get, screenshots, serve, shots, Browser, BROKEN_WORDS, WIDTHS};
use common::{bin, fault_engine, mainlines, path, runner, scratch, workspace};
use serde_json::Value;

/// A folder name with markup: every page shows it as text.
const NAMED: &str = "b <i>1</i>";

fn make_executable(p: &Path) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).expect("chmod");
}

/// Four builds of the tune engine, worse (random moves) from build 2 on.
fn builds(dir: &Path) -> Vec<String> {
    let engine = PathBuf::from(env!("CARGO_BIN_EXE_tune-engine"));
    (0..4)
        .map(|i| {
            let p = dir.join(format!("b{i}"));
            let best = if i >= 2 { 0 } else { 50 };
            std::fs::write(
                &p,
                format!(
                    "#!/bin/sh\nexec {} --best {best} --seed {i} \"$@\"\n",
                    engine.display()
                ),
            )
            .expect("write build");
            make_executable(&p);
            p.display().to_string()
        })
        .collect()
}

/// The match settings of every step.
fn bisect_config(dir: &Path) -> PathBuf {
    let text = format!(
        "[tournament]\nconcurrency = 1\nseed = 3\npairs = 200\n\n[time]\ndepth = 1\n\n\
         [openings]\nfile = \"{}\"\n\n[rules]\nmove_limit = 60\n\n[adjudication]\nmax_plies = 150\n\n\
         [[engine]]\nname = \"engine\"\ncommand = [\"engine\"]\n",
        workspace().join("openings/balanced-1k.epd").display()
    );
    let p = dir.join("bisect.toml");
    std::fs::write(&p, text).expect("write config");
    p
}

/// A scaling run of two fault engines over depths 1 and 2, into `out`.
fn scaling_config(dir: &Path, out: &Path) -> PathBuf {
    let engine = fault_engine().display().to_string();
    let text = format!(
        "[tournament]\npairs = 2\nconcurrency = 2\nseed = 5\n\n[openings]\nfile = \"{}\"\n\
         order = \"random\"\n\n[output]\ndir = \"{}\"\n\n[scaling]\ndepth = [1, 2]\n\n\
         [[engine]]\nname = \"a\"\ncommand = [\"{engine}\"]\n\n[[engine]]\nname = \"b\"\n\
         command = [\"{engine}\"]\ntime = {{ nodes = 1000 }}\n",
        mainlines().display(),
        out.display()
    );
    let p = dir.join("scaling.toml");
    std::fs::write(&p, text).expect("write config");
    p
}

/// A datagen of a few hundred positions, into `out`.
fn datagen_config(dir: &Path, out: &Path) -> PathBuf {
    let text = format!(
        "[tournament]\nconcurrency = 2\nseed = 3\n\n[time]\nnodes = 300\n\n[openings]\n\
         file = \"{}\"\norder = \"random\"\n\n[output]\ndir = \"{}\"\n\n[[engine]]\nname = \"xq\"\n\
         command = [\"{}\"]\noptions = {{ evallevel = \"6\", hashsize = \"8\" }}\n\n[datagen]\n\
         positions = 200\nrandom_plies = 6\nseed = 9\n",
        workspace().join("openings/balanced-1k.epd").display(),
        out.display(),
        bin("xq-engine").display()
    );
    let p = dir.join("datagen.toml");
    std::fs::write(&p, text).expect("write config");
    p
}

fn json(file: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(file).expect("read")).expect("JSON")
}

#[test]
fn a_bisection_a_scaling_run_and_a_datagen_folder_are_one_entry_and_page_each() {
    let work = scratch("serve-groups");
    let root = work.path().join("served");
    let bisection = root.join(NAMED);
    let built = builds(work.path());
    let mut args = vec![
        "bisect".to_owned(),
        "--config".to_owned(),
        bisect_config(work.path()).display().to_string(),
        "--out".to_owned(),
        bisection.display().to_string(),
        "--elo".to_owned(),
        "200".to_owned(),
        "--builds".to_owned(),
    ];
    args.extend(built);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = runner(&args);
    assert!(code == 0 || code == 1, "{out}{err}");
    let state = json(&bisection.join("bisect.json"));
    assert_eq!(state["outcome"]["first_bad"], 2, "{state}");

    let scaling = root.join("scale");
    let (code, out, err) = runner(&["run", path(&scaling_config(work.path(), &scaling))]);
    assert_eq!(code, 0, "{out}{err}");
    let data = root.join("data");
    let (code, out, err) = runner(&["datagen", path(&datagen_config(work.path(), &data))]);
    assert_eq!(code, 0, "{out}{err}");
    let positions: u64 = std::fs::read_to_string(data.join("datagen.jsonl"))
        .expect("ledger")
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|l| l["positions"].as_u64())
        .sum();

    let served = serve(&[path(&root)], &[]);
    // The list: three groups, and no step or point among the runs.
    let (code, _, body) = get(&served.base, "/api/runs");
    assert_eq!(code, 200);
    let runs: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(runs.as_array().map(Vec::len), Some(0), "{runs}");
    let mut list = Browser::open(&format!("{}/", served.base));
    list.wait(
        "the groups",
        "document.querySelectorAll('#groups tr[data-group]').length === 3",
        Duration::from_secs(30),
    );
    let said = |list: &mut Browser, id: &str| {
        list.eval(&format!(
            "[...document.querySelectorAll('#groups tr')].find(r => r.dataset.group === {}).querySelector('.said').textContent",
            serde_json::to_string(id).expect("json")
        ))
        .as_str()
        .unwrap_or_default()
        .to_owned()
    };
    assert_eq!(said(&mut list, NAMED), "first bad build: 2");
    assert_eq!(said(&mut list, "scale"), "2 settings of depth, 8 games");
    let datagen = said(&mut list, "data");
    assert!(
        datagen.starts_with(&format!("{positions} of 200 positions, "))
            && datagen.ends_with(" positions/s"),
        "{datagen}"
    );
    assert_eq!(list.eval("document.querySelectorAll('main i').length"), 0);

    // The bisection's page: each step as bisect.json has it, linking to its run page.
    let href = list.eval(&format!(
        "[...document.querySelectorAll('#groups tr')].find(r => r.dataset.group === {}).querySelector('a').getAttribute('href')",
        serde_json::to_string(NAMED).expect("json")
    ));
    let href = href.as_str().expect("a link").to_owned();
    assert_eq!(href, "/groups/b%20%3Ci%3E1%3C/i%3E");
    let url = format!("{}{href}", served.base);
    let mut page = Browser::open(&url);
    page.wait(
        "the bisection's page",
        "document.querySelector('#steps') !== null",
        Duration::from_secs(30),
    );
    assert_eq!(
        page.eval("document.querySelector('#culprit').textContent"),
        "first bad build: 2"
    );
    let shown = page.eval(
        "[...document.querySelectorAll('#steps tbody tr')].map(r => [r.querySelector('.build').textContent, r.querySelector('.verdict').textContent].join(' '))",
    );
    let expected: Vec<String> = state["steps"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|s| {
            format!(
                "{} {}",
                s["build"],
                s["verdict"].as_str().unwrap_or_default()
            )
        })
        .collect();
    assert_eq!(shown, serde_json::json!(expected));
    assert_eq!(page.eval("document.querySelectorAll('main i').length"), 0);
    // Each step's link is its run page.
    let links = page
        .eval("[...document.querySelectorAll('#steps tbody a')].map(a => a.getAttribute('href'))");
    for link in links.as_array().into_iter().flatten() {
        let (code, _, body) = get(&served.base, link.as_str().unwrap_or_default());
        assert_eq!(code, 200, "{link}: {body}");
        assert!(body.contains("id=\"live-run\""), "{link}");
    }
    for width in WIDTHS {
        page.width(width);
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(
            page.eval(&format!("({BROKEN_WORDS})('#steps')")),
            "",
            "at {width} px"
        );
    }
    screenshots(&url, &shots(work.path()), "serve-bisection");

    // The scaling run's page: its chart and table, each setting linking to its point.
    let url = format!("{}/groups/scale", served.base);
    let mut page = Browser::open(&url);
    page.wait(
        "the scaling page",
        "document.querySelectorAll('svg').length > 0",
        Duration::from_secs(30),
    );
    let links =
        page.eval("[...document.querySelectorAll('table a')].map(a => a.getAttribute('href'))");
    let links: Vec<String> = links
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect();
    assert_eq!(links.len(), 2, "{links:?}");
    for link in &links {
        assert!(link.starts_with("/runs/scale/"), "{link}");
        let (code, _, _) = get(&served.base, link);
        assert_eq!(code, 200, "{link}");
    }
    let results = json(&scaling.join("scaling.json"));
    let (code, _, body) = get(&served.base, "/api/groups/scale");
    assert_eq!(code, 200);
    let api: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(
        api["points"].as_array().map(Vec::len),
        results["points"].as_array().map(Vec::len)
    );
    screenshots(&url, &shots(work.path()), "serve-scaling");
    screenshots(
        &format!("{}/", served.base),
        &shots(work.path()),
        "serve-folder-runs",
    );

    for bad in ["/groups/data", "/groups/nothing", "/groups/../x"] {
        let (code, _, _) = get(&served.base, bad);
        assert!(code == 404 || code == 400, "{bad}: {code}");
    }
}
