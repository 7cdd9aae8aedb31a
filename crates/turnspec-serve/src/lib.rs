//! The designer's workbench behind `turnspec serve`: a local web app to
//! pick a spec, step through turns with buttons for every move, see the
//! turn diagram, the stack, counters, facts and the trace with rule
//! citations, go back to any earlier point, play a second spec side by
//! side with the same moves, and save the session as a scenario.
//!
//! The server keeps no game: each request carries the moves made so far
//! and the engine replays them (it is deterministic), so undo is a shorter
//! list. The page is plain HTML and JavaScript built into the binary; the
//! server binds to loopback unless told otherwise and needs no network.
//!
//! - [`api`]: the JSON API as plain functions (what the tests call);
//! - [`session`]: moves and their replay under a spec;
//! - [`scenario`]: a session written as a scenario file and checked;
//! - [`catalog`]: the specs on offer and their diagrams;
//! - [`record`]: recorded runs and their replay under another spec.

#![warn(missing_docs, unreachable_pub)]

pub mod api;
pub mod catalog;
pub mod record;
pub mod scenario;
pub mod session;
pub mod svg;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::{Path as UrlPath, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::Value;

pub use api::{ApiError, PlayRequest, Setup};
pub use catalog::SpecEntry;
pub use scenario::SaveRequest;
pub use session::{Move, Refusal};

/// The specs on offer and where saved scenarios go.
#[derive(Debug, Clone)]
pub struct Workbench {
    /// The specs, in the order the page lists them.
    pub specs: Vec<SpecEntry>,
    /// Save paths are relative to this folder (where the server started).
    pub save_root: PathBuf,
}

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            StatusCode::BAD_REQUEST,
            axum::Json(serde_json::json!({ "error": self.0 })),
        )
            .into_response()
    }
}

type Shared = State<Arc<Workbench>>;

fn json(result: Result<Value, ApiError>) -> Response {
    match result {
        Ok(v) => axum::Json(v).into_response(),
        Err(e) => e.into_response(),
    }
}

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

/// The routes: the page and its assets, and the JSON API under `/api/`.
pub fn router(workbench: Arc<Workbench>) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { asset("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { asset("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route(
            "/favicon.ico",
            get(|| async { StatusCode::NO_CONTENT }),
        )
        .route(
            "/api/specs",
            get(|State(w): Shared| async move { axum::Json(w.list()) }),
        )
        .route(
            "/api/specs/{index}",
            get(|State(w): Shared, UrlPath(i): UrlPath<usize>| async move {
                json(w.spec_details(i))
            }),
        )
        .route(
            "/api/play",
            post(
                |State(w): Shared, axum::Json(r): axum::Json<PlayRequest>| async move {
                    json(w.play(&r))
                },
            ),
        )
        .route(
            "/api/scenario",
            post(
                |State(w): Shared, axum::Json(r): axum::Json<SaveRequest>| async move {
                    json(w.save(&r))
                },
            ),
        )
        .with_state(workbench)
}

/// Binds `addr` and serves until the process ends. `ready` is called with
/// the address actually bound (port 0 picks a free one), before the first
/// request is taken.
pub fn serve(
    workbench: Workbench,
    addr: SocketAddr,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        ready(listener.local_addr()?);
        axum::serve(listener, router(Arc::new(workbench))).await
    })
}
