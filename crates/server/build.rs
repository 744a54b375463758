//! Builds the web app (`web/`, issue 14) into `web/dist`, which
//! `src/assets.rs` embeds with rust-embed.
//!
//! Runs `npm ci` when `web/node_modules` is missing or older than
//! `web/package-lock.json`, then `npm run build`. Cargo reruns this only
//! when the app's sources change (the `rerun-if-changed` lines), so
//! `cargo clippy` and `cargo test` call npm once, not on every build.
//! When npm is missing or fails the build fails with the reason: a binary
//! with an empty page is never produced.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The inputs of the web build; a change to any of them rebuilds the app.
const INPUTS: [&str; 8] = [
    "src",
    "public",
    "index.html",
    "package.json",
    "package-lock.json",
    "vite.config.ts",
    "tsconfig.json",
    "scripts/budget.mjs",
];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let web = manifest.join("../../web");
    for input in INPUTS {
        println!("cargo::rerun-if-changed={}", web.join(input).display());
    }
    println!("cargo::rerun-if-env-changed=HOUSERULES_NPM");
    if let Err(why) = build(&web) {
        // `cargo::error` shows the message even without -vv.
        for line in why.lines() {
            println!("cargo::error={line}");
        }
        std::process::exit(1);
    }
}

fn build(web: &Path) -> Result<(), String> {
    let npm = std::env::var("HOUSERULES_NPM").unwrap_or_else(|_| "npm".to_owned());
    if needs_install(web) {
        run(&npm, &["ci", "--no-audit", "--no-fund"], web)?;
    }
    run(&npm, &["run", "build"], web)?;
    let index = web.join("dist/index.html");
    if !index.is_file() {
        return Err(format!(
            "the web app build finished but {} is missing",
            index.display()
        ));
    }
    Ok(())
}

/// `npm ci` is due when `node_modules` is absent or older than the lock file
/// (npm writes `node_modules/.package-lock.json` on every install).
fn needs_install(web: &Path) -> bool {
    let modified = |p: PathBuf| std::fs::metadata(p).and_then(|m| m.modified()).ok();
    match (
        modified(web.join("node_modules/.package-lock.json")),
        modified(web.join("package-lock.json")),
    ) {
        (Some(installed), Some(lock)) => installed < lock,
        _ => true,
    }
}

fn run(npm: &str, args: &[&str], dir: &Path) -> Result<(), String> {
    let shown = format!("{npm} {} (in {})", args.join(" "), dir.display());
    let out = Command::new(npm)
        .args(args)
        .current_dir(dir)
        .output()
        .map_err(|e| {
            format!(
                "houserules-server embeds the web app and could not run `{shown}`: {e}\n\
                 install Node.js 20 and npm (or set HOUSERULES_NPM to the npm to use)"
            )
        })?;
    if out.status.success() {
        return Ok(());
    }
    let tail = |b: &[u8]| {
        let s = String::from_utf8_lossy(b);
        let lines: Vec<&str> = s.lines().collect();
        lines[lines.len().saturating_sub(30)..].join("\n")
    };
    Err(format!(
        "houserules-server embeds the web app and `{shown}` failed ({}):\n{}\n{}",
        out.status,
        tail(&out.stdout),
        tail(&out.stderr)
    ))
}
