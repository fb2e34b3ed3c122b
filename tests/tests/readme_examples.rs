//! README's commands as typed: the patch test pointed at two builds with `--set`, and
//! the quick job (`xq-runner run`) from a folder other than the repository's root; its
//! test command names what `.ci/run` installs for the tests, and its layout every crate.

mod common;

use std::path::Path;

use common::{bin, runner_in, scratch, workspace};

/// The words of a shell command line, with '...' quoting (README's examples use no
/// other), continuation backslashes joined.
fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut started = false;
    for c in text.replace("\\\n", " ").chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                started = true;
            }
            c if c.is_whitespace() && !quoted => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// The command of README that starts with `start`, with its continuation lines.
fn readme_command(start: &str) -> String {
    let readme = std::fs::read_to_string(workspace().join("README.md")).expect("README");
    let at = readme.find(start).expect("the command in README");
    let mut command = String::new();
    for line in readme[at..].lines() {
        command.push_str(line);
        command.push('\n');
        if !line.trim_end().ends_with('\\') {
            break;
        }
    }
    command
}

fn link(target: &Path, link: &Path) {
    std::fs::create_dir_all(link.parent().expect("parent")).expect("folders");
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

#[test]
fn the_patch_test_example_points_the_two_engines_at_the_two_builds() {
    let command = readme_command("xq-runner run configs/patch-sprt.toml");
    let words = shell_words(&command);
    assert_eq!(words[..3], ["xq-runner", "run", "configs/patch-sprt.toml"]);
    assert!(
        words.len() > 3,
        "README's example sets the engines: {command}"
    );
    // A checkout with its two builds beside it, as the example supposes.
    let folder = scratch("readme-patch");
    let root = folder.path();
    let work = root.join("work");
    link(
        &workspace().join("configs/patch-sprt.toml"),
        &work.join("configs/patch-sprt.toml"),
    );
    link(
        &workspace().join("openings/balanced-1k.epd"),
        &work.join("openings/balanced-1k.epd"),
    );
    for build in ["new", "base"] {
        link(
            &bin("xq-engine"),
            &root.join(build).join("target/release/xq-engine"),
        );
    }
    let mut args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    args.push("--dry-run");
    let (code, stdout, stderr) = runner_in(&work, &args);
    assert_eq!(code, 0, "{command}{stdout}{stderr}");
    for build in ["new", "base"] {
        assert!(
            stdout.contains(&format!(
                "engine {build}: ../{build}/target/release/xq-engine "
            )),
            "{stdout}"
        );
    }
    assert!(stdout.contains("pairing: new vs base"), "{stdout}");
}

#[test]
fn the_quick_job_runs_from_any_folder() {
    // `xq-runner run` with no config, from a folder that is not the repository's root,
    // cut to one pair at depth 1.
    let folder = scratch("quick-anywhere");
    let dir = folder.path();
    let (code, stdout, stderr) = common::runner_with_env_in(
        dir,
        &["run", "--pairs", "1", "--set", "time.depth=1"],
        &[("XDG_CACHE_HOME", common::path(&dir.join("cache")))],
    );
    assert_eq!(code, 3, "one pair, no SPRT verdict: {stdout}{stderr}");
    let summary: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("out/quick/summary.json")).expect("summary"),
    )
    .expect("JSON");
    assert_eq!(summary["games"], 2);
    // The engine beside the runner: the build's own.
    let engine = bin("xq-engine").display().to_string();
    assert_eq!(
        summary["engines"][0]["command"][0].as_str(),
        Some(engine.as_str())
    );
}

#[test]
fn the_layout_counts_and_names_every_crate_of_the_workspace() {
    let manifest = std::fs::read_to_string(workspace().join("Cargo.toml")).expect("Cargo.toml");
    let members: Vec<&str> = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("members = ["))
        .expect("the workspace's members")
        .trim_end_matches(']')
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty())
        .collect();
    let readme = std::fs::read_to_string(workspace().join("README.md")).expect("README");
    let layout = &readme[readme.find("## Layout").expect("README's Layout")..];
    let words = [
        "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine",
    ];
    let count = words[members.len() - 1];
    assert!(layout.contains(&format!("{count} crates:")), "{layout}");
    for member in members {
        assert!(
            layout.contains(&format!("`{member}/`")),
            "{member}: {layout}"
        );
    }
}

#[test]
fn the_test_command_names_every_package_ci_installs() {
    let ci = std::fs::read_to_string(workspace().join(".ci/run")).expect(".ci/run");
    let packages: std::collections::BTreeSet<&str> = ci
        .lines()
        .filter_map(|l| l.split("apt-get install -y -qq ").nth(1))
        .flat_map(|rest| rest.split_whitespace().take_while(|w| !w.starts_with('>')))
        .collect();
    assert!(packages.contains("postgresql"), "{packages:?}");
    let command = readme_command("pip install -r tests/oracle/requirements.txt");
    for package in packages {
        assert!(command.contains(package), "{package}: {command}");
    }
}
