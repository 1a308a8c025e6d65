//! The HTTP interface: routes, the session map, searches on blocking threads streamed as server-sent events,
//! and the errors answered as JSON. See the [crate documentation](crate) for the list of requests.

use crate::session::{GameState, SearchJob, SearchReport, Session};
use crate::words::{front_error, Words, ENGLISH, TABLES};
use crate::{Catalog, Limits};
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{DefaultBodyLimit, FromRequest, FromRequestParts, Path, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{header, StatusCode, Uri};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};
use tabula_protocol::front::{EngineConfig, FrontError, Setup};
use tokio::sync::{mpsc, Semaphore};
use tokio_stream::wrappers::UnboundedReceiverStream;
use tokio_stream::StreamExt;

/// The server's state, shared by every request.
struct Shared {
    catalog: Catalog,
    limits: Limits,
    sessions: Mutex<HashMap<u64, Slot>>,
    searches: Arc<Semaphore>,
    next_id: AtomicU64,
}

/// A session and what the server knows about it.
struct Slot {
    session: Box<dyn Session>,
    used: Instant,
    /// The running search's stop flag.
    search: Option<Arc<AtomicBool>>,
}

type App = Arc<Shared>;

impl Shared {
    fn sessions(&self) -> MutexGuard<'_, HashMap<u64, Slot>> {
        // A panic while the lock was held cannot leave a session half-changed (each change is one call), so
        // the map is still good to use.
        self.sessions.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// An error answered as `{"error": message, "words": words}`: the message in English, and as words for the
/// page to show in its language.
#[derive(Debug)]
struct ApiError(StatusCode, Words);

impl ApiError {
    /// The error `key` of the tables, with `args`.
    fn new<const N: usize>(status: StatusCode, key: &str, args: [(&str, String); N]) -> ApiError {
        ApiError(status, Words::said(key, args.map(|(name, value)| (name, Words::text(value)))))
    }

    fn bad<const N: usize>(key: &str, args: [(&str, String); N]) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, key, args)
    }

    /// A game's refusal of a position, a move or a setting.
    fn refused(game: &str, error: &FrontError) -> ApiError {
        ApiError(StatusCode::BAD_REQUEST, front_error(game, error))
    }
}

/// An error's body.
#[derive(Serialize)]
struct ErrorJson {
    error: String,
    words: Words,
}

impl ErrorJson {
    fn new(words: Words) -> ErrorJson {
        ErrorJson { error: ENGLISH.english(&words), words }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(ErrorJson::new(self.1))).into_response()
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        ApiError::new(r.status(), "error.request", [("detail", r.body_text())])
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> ApiError {
        ApiError::new(r.status(), "error.request", [("detail", r.body_text())])
    }
}

impl From<PathRejection> for ApiError {
    fn from(_: PathRejection) -> ApiError {
        ApiError::bad("error.session_id", [])
    }
}

type ApiResult<T> = Result<T, ApiError>;

/// The session id of the request's path; one that is not a number is answered as an [`ApiError`].
struct SessionId(u64);

impl<S: Send + Sync> FromRequestParts<S> for SessionId {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> ApiResult<SessionId> {
        let Path(id) = Path::<u64>::from_request_parts(parts, state).await?;
        Ok(SessionId(id))
    }
}

/// The request's JSON body; one that does not parse as a `T` is answered as an [`ApiError`].
struct Body<T>(T);

impl<T: DeserializeOwned, S: Send + Sync> FromRequest<S> for Body<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> ApiResult<Body<T>> {
        let Json(body) = Json::<T>::from_request(request, state).await?;
        Ok(Body(body))
    }
}

/// The router of the whole interface, the page included.
pub fn router(catalog: Catalog, limits: Limits) -> Router {
    let shared = Arc::new(Shared {
        searches: Arc::new(Semaphore::new(limits.max_searches.max(1))),
        sessions: Mutex::new(HashMap::new()),
        next_id: AtomicU64::new(1),
        catalog,
        limits: limits.clone(),
    });
    Router::new()
        .route("/", get(|| async { Html(include_str!("../assets/index.html")) }))
        .route(
            "/app.js",
            get(|| async {
                ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], include_str!("../assets/app.js"))
            }),
        )
        .route(
            "/style.css",
            get(|| async {
                ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], include_str!("../assets/style.css"))
            }),
        )
        .route("/i18n/{table}", get(i18n))
        .route("/api/games", get(games))
        .route("/api/sessions", post(create))
        .route("/api/sessions/{id}", get(state).delete(delete))
        .route("/api/sessions/{id}/move", post(play))
        .route("/api/sessions/{id}/undo", post(undo))
        .route("/api/sessions/{id}/search", get(search))
        .route("/api/sessions/{id}/stop", post(stop))
        .route("/api/sessions/{id}/compare", post(compare))
        .fallback(|uri: Uri| async move { not_found(&uri) })
        .method_not_allowed_fallback(|| async { ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "error.method", []) })
        .layer(DefaultBodyLimit::max(limits.max_body))
        .with_state(shared)
}

fn not_found(uri: &Uri) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "error.nothing_at", [("path", uri.path().to_string())])
}

/// The page's words in one language: `/i18n/en.json`, `/i18n/zh-CN.json`.
async fn i18n(Path(table): Path<String>, uri: Uri) -> Result<Response, ApiError> {
    let json =
        TABLES.iter().find(|(language, _)| table.strip_suffix(".json") == Some(*language)).map(|(_, json)| *json);
    let json = json.ok_or_else(|| not_found(&uri))?;
    Ok(([(header::CONTENT_TYPE, "application/json; charset=utf-8")], json).into_response())
}

#[derive(Serialize)]
struct GameInfo {
    name: &'static str,
    settings: Vec<Setting>,
    position_help: &'static str,
    move_help: &'static str,
}

#[derive(Serialize)]
struct Setting {
    name: &'static str,
    choices: Vec<&'static str>,
}

async fn games(State(app): State<App>) -> Json<Vec<GameInfo>> {
    Json(
        app.catalog
            .entries
            .iter()
            .map(|e| GameInfo {
                name: e.name,
                settings: e.settings.iter().map(|(name, choices)| Setting { name, choices: choices.clone() }).collect(),
                position_help: e.position_help,
                move_help: e.move_help,
            })
            .collect(),
    )
}

/// A session's state as answered: its id, whether it searches, and the game's state.
#[derive(Serialize)]
struct StateJson {
    id: u64,
    searching: bool,
    #[serde(flatten)]
    state: GameState,
}

fn state_of(id: u64, slot: &Slot) -> Json<StateJson> {
    Json(StateJson { id, searching: slot.search.is_some(), state: slot.session.state() })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    game: String,
    size: Option<usize>,
    rule: Option<String>,
    komi: Option<f64>,
    position: Option<String>,
}

async fn create(State(app): State<App>, Body(req): Body<CreateRequest>) -> ApiResult<Response> {
    let Some(entry) = app.catalog.get(&req.game) else {
        let names: Vec<_> = app.catalog.entries.iter().map(|e| e.name).collect();
        return Err(ApiError::bad("error.unknown_game", [("game", req.game), ("games", names.join(", "))]));
    };
    if req.komi.is_some_and(|k| !k.is_finite()) {
        return Err(ApiError::bad("error.komi", []));
    }
    let setup = Setup { size: req.size, rule: req.rule, komi: req.komi };
    let session =
        (entry.create)(&setup, req.position.as_deref().unwrap_or("")).map_err(|e| ApiError::refused(entry.name, &e))?;
    let id = app.next_id.fetch_add(1, Ordering::Relaxed);
    let mut sessions = app.sessions();
    if sessions.len() >= app.limits.max_sessions {
        // The least recently used session that is not searching makes room.
        let idle = sessions.iter().filter(|(_, s)| s.search.is_none()).min_by_key(|(_, s)| s.used).map(|(&id, _)| id);
        match idle {
            Some(old) => {
                sessions.remove(&old);
            }
            None => {
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "error.all_searching",
                    [("count", app.limits.max_sessions.to_string())],
                ))
            }
        }
    }
    let slot = Slot { session, used: Instant::now(), search: None };
    let answer = state_of(id, &slot);
    sessions.insert(id, slot);
    Ok((StatusCode::CREATED, answer).into_response())
}

/// Runs `f` on the session `id`, marking it used.
fn with_slot<T>(app: &App, id: u64, f: impl FnOnce(&mut Slot) -> ApiResult<T>) -> ApiResult<T> {
    let mut sessions = app.sessions();
    let slot = sessions.get_mut(&id).ok_or_else(|| no_session(id))?;
    slot.used = Instant::now();
    f(slot)
}

fn no_session(id: u64) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "error.no_session", [("id", id.to_string())])
}

fn idle(slot: &Slot) -> ApiResult<()> {
    match slot.search {
        Some(_) => Err(ApiError::new(StatusCode::CONFLICT, "error.searching", [])),
        None => Ok(()),
    }
}

async fn state(State(app): State<App>, SessionId(id): SessionId) -> ApiResult<Json<StateJson>> {
    with_slot(&app, id, |slot| Ok(state_of(id, slot)))
}

async fn delete(State(app): State<App>, SessionId(id): SessionId) -> ApiResult<StatusCode> {
    let slot = app.sessions().remove(&id).ok_or_else(|| no_session(id))?;
    if let Some(stop) = slot.search {
        stop.store(true, Ordering::Relaxed);
    }
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoveRequest {
    #[serde(rename = "move")]
    text: String,
}

async fn play(
    State(app): State<App>,
    SessionId(id): SessionId,
    Body(req): Body<MoveRequest>,
) -> ApiResult<Json<StateJson>> {
    with_slot(&app, id, |slot| {
        idle(slot)?;
        slot.session.play(&req.text).map_err(|e| ApiError::refused(slot.session.game(), &e))?;
        Ok(state_of(id, slot))
    })
}

async fn undo(State(app): State<App>, SessionId(id): SessionId) -> ApiResult<Json<StateJson>> {
    with_slot(&app, id, |slot| {
        idle(slot)?;
        if !slot.session.undo() {
            return Err(ApiError::bad("error.nothing_to_undo", []));
        }
        Ok(state_of(id, slot))
    })
}

#[derive(Serialize)]
struct Stopped {
    stopped: bool,
}

async fn stop(State(app): State<App>, SessionId(id): SessionId) -> ApiResult<Json<Stopped>> {
    with_slot(&app, id, |slot| {
        if let Some(stop) = &slot.search {
            stop.store(true, Ordering::Relaxed);
        }
        Ok(Json(Stopped { stopped: slot.search.is_some() }))
    })
}

/// Marks the session's search as over when dropped, however the search ended (done, stopped, panicked), and
/// stops it if it still runs (its client went away).
struct SearchGuard {
    app: App,
    id: u64,
    stop: Arc<AtomicBool>,
}

impl Drop for SearchGuard {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(slot) = self.app.sessions().get_mut(&self.id) {
            if slot.search.as_ref().is_some_and(|s| Arc::ptr_eq(s, &self.stop)) {
                slot.search = None;
            }
        }
    }
}

/// Stops a search when the request that waits for it is dropped (its client went away).
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Starts a search in session `id` stopped by `stop`: one job per table setting in `tables`; or says why not.
fn start_search(
    app: &App,
    id: u64,
    tables: &[bool],
    stop: Arc<AtomicBool>,
) -> ApiResult<(Vec<SearchJob>, SearchGuard)> {
    let jobs = with_slot(app, id, |slot| {
        idle(slot)?;
        let mut jobs = Vec::new();
        for &table in tables {
            let config = EngineConfig { hash_mib: app.limits.hash_mib, threads: 1, table };
            jobs.push(slot.session.search(config).ok_or_else(|| ApiError::bad("error.game_over", []))?);
        }
        slot.search = Some(stop.clone());
        Ok(jobs)
    })?;
    Ok((jobs, SearchGuard { app: app.clone(), id, stop }))
}

/// The search limits asked for: a time (or the default second), a depth, always the server's time cap and a
/// stop flag.
fn limits(app: &App, time_ms: Option<u64>, depth: Option<u32>, stop: &Arc<AtomicBool>) -> ApiResult<tabula::Limits> {
    let cap = app.limits.max_search_time;
    let time = match time_ms {
        Some(ms) if ms == 0 || Duration::from_millis(ms) > cap => {
            return Err(ApiError::bad("error.time_range", [("max", cap.as_millis().to_string())]))
        }
        Some(ms) => Some(Duration::from_millis(ms)),
        None => None,
    };
    if depth.is_some_and(|d| !(1..=64).contains(&d)) {
        return Err(ApiError::bad("error.depth_range", []));
    }
    let time = time.unwrap_or(if depth.is_some() { cap } else { Duration::from_secs(1) });
    let limits = tabula::Limits { depth, stop: Some(stop.clone()), ..tabula::Limits::default() };
    Ok(limits.with_time(time, time))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SearchQuery {
    time_ms: Option<u64>,
    depth: Option<u32>,
    table: Option<bool>,
}

fn event(name: &str, data: &impl Serialize) -> Event {
    Event::default().event(name).data(serde_json::to_string(data).unwrap_or_else(|e| format!("\"{e}\"")))
}

async fn search(
    State(app): State<App>,
    SessionId(id): SessionId,
    query: Result<Query<SearchQuery>, QueryRejection>,
) -> ApiResult<Sse<impl tokio_stream::Stream<Item = Result<Event, Infallible>>>> {
    let Query(q) = query?;
    let stop = Arc::new(AtomicBool::new(false));
    let limits = limits(&app, q.time_ms, q.depth, &stop)?;
    let (mut jobs, guard) = start_search(&app, id, &[q.table.unwrap_or(true)], stop)?;
    let job = jobs.pop().expect("one job per table setting");
    let (tx, rx) = mpsc::unbounded_channel();
    let searches = app.searches.clone();
    let stop = guard.stop.clone();
    tokio::spawn(async move {
        let permit = match searches.clone().try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                let _ = tx.send(event("queued", &"waiting for a free search slot"));
                let Ok(permit) = searches.acquire_owned().await else { return };
                permit
            }
        };
        let progress = tx.clone();
        let ran = tokio::task::spawn_blocking(move || {
            job(&limits, &mut |report| {
                // A client gone away stops the search.
                if progress.send(event("iteration", &report)).is_err() {
                    stop.store(true, Ordering::Relaxed);
                }
            })
        })
        .await;
        drop(permit);
        let _ = match ran {
            Ok(report) => tx.send(event("done", &report)),
            Err(e) => tx.send(event("failed", &ErrorJson::new(search_failed(&e).1))),
        };
        drop(guard);
    });
    let stream = UnboundedReceiverStream::new(rx).map(Ok);
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// A search that panicked.
fn search_failed(e: &tokio::task::JoinError) -> ApiError {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "error.search_failed", [("detail", e.to_string())])
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CompareRequest {
    depth: u32,
    time_ms: Option<u64>,
}

#[derive(Serialize)]
struct Comparison {
    with_table: SearchReport,
    without_table: SearchReport,
}

/// The same search with the table and without it, one after the other on one search slot.
async fn compare(
    State(app): State<App>,
    SessionId(id): SessionId,
    Body(req): Body<CompareRequest>,
) -> ApiResult<Json<Comparison>> {
    let stop = Arc::new(AtomicBool::new(false));
    let limits = limits(&app, req.time_ms, Some(req.depth), &stop)?;
    let (mut jobs, guard) = start_search(&app, id, &[true, false], stop)?;
    let _stop_on_drop = StopOnDrop(guard.stop.clone());
    let permit = app.searches.clone().acquire_owned().await.map_err(|_| ApiError::bad("error.stopping", []))?;
    let (without, with) = (jobs.pop().expect("two jobs"), jobs.pop().expect("two jobs"));
    // The guard moves into the blocking task, which frees the session when both searches have ended.
    let ran = tokio::task::spawn_blocking(move || {
        let with_table = with(&limits, &mut |_| {});
        // An engine without depths (Monte Carlo) has no table either: the second search would only repeat it.
        let without_table = with_table.depth.map(|_| without(&limits, &mut |_| {}));
        drop(guard);
        without_table.map(|without_table| Comparison { with_table, without_table })
    })
    .await;
    drop(permit);
    let comparison = ran.map_err(|e| search_failed(&e))?;
    let comparison = comparison.ok_or_else(|| ApiError::new(StatusCode::CONFLICT, "error.nothing_to_compare", []))?;
    Ok(Json(comparison))
}
