//! The designer's workbench behind `turnspec serve`: the HTTP side of
//! crates/turnspec-workbench. A local web app to pick a spec, step through
//! turns with buttons for every move, see the turn diagram, the stack,
//! counters, facts and the trace with rule citations, go back to any
//! earlier point, play a second spec side by side with the same moves,
//! save the session as a scenario, and edit specs (the studio routes).
//!
//! Every `/api/` request goes to [`Workbench::handle`], the one dispatch
//! of the workbench crate (which the page built for WebAssembly calls
//! too); this crate only serves the page, checks who asks ([`guard`]),
//! bounds the body, and runs the workbench's work on a pool of threads
//! apart from the ones that take requests, at most one job per core.
//! The server binds to loopback unless told otherwise.

#![warn(missing_docs, unreachable_pub)]

pub mod guard;

pub use turnspec_workbench::{
    api, catalog, files, limits, record, route, scenario, session, sessions, studio, svg,
};

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, Uri, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{any, get};
use tokio::sync::Semaphore;

pub use guard::Guard;
pub use turnspec_workbench::{
    ApiError, Files, Folder, MemoryFiles, Move, OpenRequest, PlayRequest, Refusal, RelPath,
    SaveOpenRequest, SaveRequest, Sessions, Setup, SpecEntry, StopMarker, Workbench,
};

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");
/// The spec editor (CodeMirror 6 and the spec schema), bundled from
/// `editor/` by `scripts/editor.sh` and committed, so no npm at build time.
const EDITOR_JS: &str = include_str!("../assets/editor.js");

fn error_response(status: u16, message: &str) -> Response {
    error_json(status, serde_json::json!({ "error": message }))
}

fn error_json(status: u16, body: serde_json::Value) -> Response {
    (
        StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST),
        axum::Json(body),
    )
        .into_response()
}

/// The workbench, the permits to run it (one per core, so replays and
/// saves queue rather than pile up in memory), and when the server
/// started: the clock the workbench is given.
#[derive(Clone)]
struct App {
    workbench: Arc<Workbench>,
    work: Arc<Semaphore>,
    started: Instant,
}

impl App {
    /// Runs one API request through [`Workbench::handle`] on the blocking
    /// pool, off the threads that take requests.
    async fn handle(&self, method: Method, path: String, body: Bytes) -> Response {
        let Ok(permit) = Arc::clone(&self.work).acquire_owned().await else {
            return error_response(503, "the server is stopping");
        };
        let workbench = Arc::clone(&self.workbench);
        let now_ms = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        let job = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            workbench.handle(method.as_str(), &path, &body, now_ms)
        });
        match job.await {
            Ok(Ok(v)) => axum::Json(v).into_response(),
            Ok(Err(e)) => error_json(e.status, e.to_json()),
            Err(_) => error_response(500, "the workbench failed on this request"),
        }
    }
}

/// Whether a request's body is declared as JSON (`application/json`, or a
/// `+json` type), as a JSON API asks: a form posted from another page is
/// not.
fn declares_json(headers: &HeaderMap) -> bool {
    let Some(kind) = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
    else {
        return false;
    };
    let essence = kind.split(';').next().unwrap_or_default().trim();
    essence.eq_ignore_ascii_case("application/json")
        || (essence.len() > 5
            && essence
                .get(essence.len() - 5..)
                .is_some_and(|t| t.eq_ignore_ascii_case("+json")))
}

/// Every `/api/` request: a `POST` must carry JSON (415 otherwise); then
/// the workbench answers it. The routes are the workbench's
/// ([`turnspec_workbench::route`]), not listed here.
async fn api(
    State(app): State<App>,
    method: Method,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    if method == Method::POST && !declares_json(&headers) {
        return error_response(
            415,
            "the request must be JSON (Content-Type: application/json)",
        );
    }
    // HEAD is GET without the body (which the server leaves out).
    let method = if method == Method::HEAD {
        Method::GET
    } else {
        method
    };
    app.handle(method, uri.path().to_string(), body).await
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

/// The routes: the page and its assets, and every `/api/` request
/// forwarded to [`Workbench::handle`], behind `guard`.
pub fn router(workbench: Arc<Workbench>, guard: Guard) -> Router {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let app = App {
        workbench,
        work: Arc::new(Semaphore::new(threads)),
        started: Instant::now(),
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
        .route("/api/{*rest}", any(api))
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
        // Game ids the other users of this machine cannot guess.
        let key = u128::from_str_radix(&guard::new_token(), 16).unwrap_or_default();
        let workbench = workbench.with_session_key(key);
        axum::serve(listener, router(Arc::new(workbench), guard)).await
    })
}
