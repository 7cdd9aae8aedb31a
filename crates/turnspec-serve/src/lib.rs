//! The designer's workbench behind `turnspec serve`: a local web app to
//! pick a spec, step through turns with buttons for every move, see the
//! turn diagram, the stack, counters, facts and the trace with rule
//! citations, go back to any earlier point, play a second spec side by
//! side with the same moves, and save the session as a scenario.
//!
//! The server keeps each open game ([`sessions`]): a move is one engine
//! step, and going back restores a snapshot. The page is plain HTML and
//! JavaScript built into the binary; the server binds to loopback unless
//! told otherwise, answers only to this machine's names ([`guard`]),
//! bounds every request ([`limits`]) and does the engine's work on a pool
//! of threads apart from the ones that take requests.
//!
//! - [`api`]: the JSON API as plain functions (what the tests call);
//! - [`sessions`]: the open games;
//! - [`session`]: moves and their replay under a spec;
//! - [`scenario`]: a session written as a scenario file and checked;
//! - [`catalog`]: the specs on offer and their diagrams;
//! - [`record`]: recorded runs and their replay under another spec.

#![warn(missing_docs, unreachable_pub)]

pub mod api;
pub mod catalog;
pub mod guard;
pub mod limits;
pub mod record;
pub mod scenario;
pub mod session;
pub mod sessions;
pub mod svg;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::extract::{DefaultBodyLimit, Path as UrlPath, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::Value;
use tokio::sync::Semaphore;

pub use api::{ApiError, PlayRequest, Setup, StopMarker};
pub use catalog::SpecEntry;
pub use guard::Guard;
pub use scenario::SaveRequest;
pub use session::{Move, Refusal};
pub use sessions::{OpenRequest, SaveOpenRequest, Sessions};

/// The specs on offer, where saved scenarios go, and the open games.
#[derive(Debug)]
pub struct Workbench {
    /// The specs, in the order the page lists them.
    pub specs: Vec<SpecEntry>,
    /// Save paths are relative to this folder (where the server started).
    pub save_root: PathBuf,
    /// The open games.
    pub sessions: Sessions,
}

impl Workbench {
    /// A workbench offering `specs`, saving under `save_root`, with no
    /// game open.
    pub fn new(specs: Vec<SpecEntry>, save_root: PathBuf) -> Self {
        Workbench {
            specs,
            save_root,
            sessions: Sessions::default(),
        }
    }
}

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");
/// The spec editor (CodeMirror 6 and the spec schema), bundled from
/// `editor/` by `scripts/editor.sh` and committed, so no npm at build time.
const EDITOR_JS: &str = include_str!("../assets/editor.js");

fn error_response(status: u16, message: &str) -> Response {
    (
        StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST),
        axum::Json(serde_json::json!({ "error": message })),
    )
        .into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        error_response(self.status, &self.message)
    }
}

/// The workbench, and the permits to run the engine: one per core, so
/// replays and saves queue rather than pile up in memory.
#[derive(Clone)]
struct App {
    workbench: Arc<Workbench>,
    work: Arc<Semaphore>,
}

type Shared = State<App>;

fn json(result: Result<Value, ApiError>) -> Response {
    match result {
        Ok(v) => axum::Json(v).into_response(),
        Err(e) => e.into_response(),
    }
}

impl App {
    /// Runs `f` on the blocking pool, off the threads that take requests.
    async fn run<F>(&self, f: F) -> Response
    where
        F: FnOnce(&Workbench) -> Result<Value, ApiError> + Send + 'static,
    {
        let Ok(permit) = Arc::clone(&self.work).acquire_owned().await else {
            return error_response(503, "the server is stopping");
        };
        let workbench = Arc::clone(&self.workbench);
        let job = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            f(&workbench)
        });
        match job.await {
            Ok(result) => json(result),
            Err(_) => error_response(500, "the workbench failed on this request"),
        }
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

/// `{"to": n}`: the move to go back before.
#[derive(Deserialize)]
struct BackRequest {
    to: usize,
}

/// Turns away what [`Guard::check`] refuses; sets the token cookie when
/// the token came in the URL; and marks every answer as not to be framed
/// or sniffed.
async fn guarded(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let cookies: Vec<&str> = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    let checked = guard.check(&guard::Asked {
        method: request.method().as_str(),
        host: text(header::HOST.as_str()),
        origin: text(header::ORIGIN.as_str()),
        fetch_site: text("sec-fetch-site"),
        query: request.uri().query(),
        cookies: &cookies,
    });
    let mut response = match checked {
        Err(denied) => error_response(denied.status, &denied.message),
        Ok(set_cookie) => {
            let mut response = next.run(request).await;
            if let (true, Some(token)) = (set_cookie, &guard.token)
                && let Ok(v) = HeaderValue::from_str(&format!(
                    "{}={token}; Path=/; HttpOnly; SameSite=Strict",
                    guard::TOKEN_COOKIE
                ))
            {
                response.headers_mut().insert(header::SET_COOKIE, v);
            }
            response
        }
    };
    let h = response.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    response
}

/// The routes: the page and its assets, and the JSON API under `/api/`,
/// behind `guard`.
pub fn router(workbench: Arc<Workbench>, guard: Guard) -> Router {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let app = App {
        workbench,
        work: Arc::new(Semaphore::new(threads)),
    };
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
            "/editor.js",
            get(|| async { asset("text/javascript; charset=utf-8", EDITOR_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { asset("text/css; charset=utf-8", STYLE_CSS) }),
        )
        .route("/favicon.ico", get(|| async { StatusCode::NO_CONTENT }))
        .route(
            "/api/specs",
            get(|State(a): Shared| async move { axum::Json(a.workbench.list()) }),
        )
        .route(
            "/api/specs/{index}",
            get(|State(a): Shared, UrlPath(i): UrlPath<usize>| async move {
                json(a.workbench.spec_details(i))
            }),
        )
        .route(
            "/api/play",
            post(
                |State(a): Shared, axum::Json(r): axum::Json<PlayRequest>| async move {
                    a.run(move |w| w.play(&r)).await
                },
            ),
        )
        .route(
            "/api/scenario",
            post(
                |State(a): Shared, axum::Json(r): axum::Json<SaveRequest>| async move {
                    a.run(move |w| w.save(&r)).await
                },
            ),
        )
        .route(
            "/api/session",
            post(
                |State(a): Shared, axum::Json(r): axum::Json<OpenRequest>| async move {
                    a.run(move |w| w.open(&r)).await
                },
            ),
        )
        .route(
            "/api/session/{id}/move",
            post(
                |State(a): Shared,
                 UrlPath(id): UrlPath<String>,
                 axum::Json(m): axum::Json<Move>| async move {
                    a.run(move |w| w.play_move(&id, &m)).await
                },
            ),
        )
        .route(
            "/api/session/{id}/back",
            post(
                |State(a): Shared,
                 UrlPath(id): UrlPath<String>,
                 axum::Json(b): axum::Json<BackRequest>| async move {
                    a.run(move |w| w.back(&id, b.to)).await
                },
            ),
        )
        .route(
            "/api/session/{id}/save",
            post(
                |State(a): Shared,
                 UrlPath(id): UrlPath<String>,
                 axum::Json(r): axum::Json<SaveOpenRequest>| async move {
                    a.run(move |w| w.save_open(&id, &r)).await
                },
            ),
        )
        .layer(DefaultBodyLimit::max(limits::MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            Arc::new(guard),
            guarded,
        ))
        .with_state(app)
}

/// Binds `addr` and serves until the process ends, on a runtime with one
/// thread per core (the engine's work runs on its blocking pool). With
/// `token`, every request must present it (see [`guard`]); a server bound
/// beyond loopback should have one. `ready` is called with the address
/// actually bound (port 0 picks a free one), before the first request is
/// taken.
pub fn serve(
    workbench: Workbench,
    addr: SocketAddr,
    token: Option<String>,
    ready: impl FnOnce(SocketAddr),
) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_io()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let bound = listener.local_addr()?;
        ready(bound);
        let guard = Guard::new(bound, token);
        axum::serve(listener, router(Arc::new(workbench), guard)).await
    })
}
