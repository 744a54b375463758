//! The web app (issue 14), embedded from `web/dist` at compile time
//! (`build.rs` builds it) and served for every path the API does not
//! serve.

use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;

/// `web/dist`, built by `build.rs`.
#[derive(RustEmbed)]
#[folder = "../../web/dist"]
struct Dist;

/// Vite's hashed bundles never change under one name: cached for a year.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `index.html` and unhashed files are revalidated on every load so a new
/// binary's app is picked up at once.
const REVALIDATE: &str = "no-cache";

/// Answers a non-API path: the embedded file at that path, else (a page
/// route of the app, such as `/games/{id}`, `/editor`, `/yaml`)
/// `index.html`. Paths that look like files (`/x.js`) and are absent are
/// `404`, so a stale bundle reference fails visibly instead of receiving
/// HTML.
pub fn serve(uri: &Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if !path.is_empty() {
        if let Some(file) = Dist::get(path) {
            let cache = if path.starts_with("assets/") {
                IMMUTABLE
            } else {
                REVALIDATE
            };
            return file_response(file, cache);
        }
        let last = path.rsplit('/').next().unwrap_or(path);
        if last.contains('.') {
            return (
                StatusCode::NOT_FOUND,
                [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                format!("no file /{path} in the web app\n"),
            )
                .into_response();
        }
    }
    match Dist::get("index.html") {
        Some(file) => file_response(file, REVALIDATE),
        // build.rs refuses to finish without index.html; this is a
        // binary built from a tree whose dist/ was removed afterwards.
        None => (
            StatusCode::INTERNAL_SERVER_ERROR,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            "houserules server: this binary was built without the web app (web/dist/index.html was missing)\n",
        )
            .into_response(),
    }
}

fn file_response(file: rust_embed::EmbeddedFile, cache: &'static str) -> Response {
    (
        StatusCode::OK,
        [
            (header::CONTENT_TYPE, file.metadata.mimetype().to_owned()),
            (header::CACHE_CONTROL, cache.to_owned()),
        ],
        file.data,
    )
        .into_response()
}
