//! The first-screen renderer: a small pool of Node.js processes running the
//! app's server bundle (`frontend/dist-server/render.js`, built from
//! `frontend/src/server/render.tsx`), each owned by a task of its own and fed
//! from one queue, asked one page at a time over its stdin and stdout, one
//! JSON line each way.
//!
//! The last rendering of each page is kept (the least recently used page goes
//! when the cache is full), so no request waits for a busy renderer: the same
//! data gets the kept HTML; changed data whose previous version was current
//! less than `SUPPORT_SHOWS_WITHIN` ago gets the kept HTML with the data it
//! was rendered from (as fresh as the catalog promises) while the new data is
//! rendered behind it; only a page with no usable rendering waits, for its own
//! render only, at most `FIRST_SCREEN_TIMEOUT_MS`. Whatever goes wrong (no
//! Node, a crash, a hung render) costs only the rendering: the page is sent
//! without it and the browser renders it, as before.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use anyhow::Context;
use ports::first_screen::{FirstScreen, FirstScreenRenderer, RenderedScreen};
use serde::Deserialize;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::{oneshot, watch, Notify};

use crate::config::FirstScreenSettings;

/// Pages kept rendered. Pages are the home and one per public project; the
/// least recently asked for goes first, so a crawl of every project pushes
/// out only the pages nobody else is reading.
const CACHE_PAGES: usize = 512;
/// How long a starting process may take to load the bundle.
const START_LIMIT: Duration = Duration::from_secs(10);
/// After Node could not be started, how long before trying again.
const RETRY_AFTER: Duration = Duration::from_secs(30);

pub struct NodeRenderer {
    shared: Arc<Shared>,
    /// How long a page with no usable rendering waits for its own.
    limit: Duration,
    workers: usize,
    /// Dropped with the renderer: its workers stop and their processes are killed.
    _closing: watch::Sender<()>,
}

/// What the request handlers and the workers share; locked only briefly,
/// never across a render.
struct Shared {
    pages: Mutex<Pages>,
    /// A job was queued.
    work: Notify,
    status: watch::Sender<Status>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Status {
    /// Workers with a running process (idle or rendering).
    ready: usize,
    /// Workers whose process did not start, waiting `RETRY_AFTER`.
    down: usize,
}

/// What a page is rendered from.
#[derive(Debug, Clone)]
struct Input {
    responses: Arc<str>,
    site: Arc<str>,
}

impl Input {
    fn of(screen: &FirstScreen<'_>) -> Self {
        Self { responses: screen.responses.into(), site: screen.site.into() }
    }

    fn is(&self, screen: &FirstScreen<'_>) -> bool {
        *self.responses == *screen.responses && *self.site == *screen.site
    }
}

/// The kept renderings and the renders asked for, by page path.
struct Pages {
    capacity: usize,
    /// How long after its data was last current a rendering may stand in
    /// for newer data.
    fresh_for: Duration,
    rendered: HashMap<String, Entry>,
    /// Counts uses: an entry's `used` says how recently it was asked for.
    tick: u64,
    jobs: HashMap<String, PathJobs>,
    /// Paths with a queued job and none rendering, oldest first: at most one
    /// render per path at a time, so an older answer never replaces a newer one.
    queue: VecDeque<String>,
}

struct Entry {
    input: Input,
    html: Arc<str>,
    /// When a request last presented exactly `input`: its data was current then.
    seen_at: Instant,
    used: u64,
}

#[derive(Default)]
struct PathJobs {
    rendering: Option<Job>,
    /// The newest input asked for while another was rendering.
    queued: Option<Job>,
}

struct Job {
    input: Input,
    seen_at: Instant,
    /// Requests waiting for this render: each gets the HTML with its input.
    waiters: Vec<oneshot::Sender<RenderedScreen>>,
}

enum Answer {
    Ready(RenderedScreen),
    /// A page with no usable rendering: its render was asked for.
    Wait(oneshot::Receiver<RenderedScreen>),
    Without,
}

impl Pages {
    fn new(capacity: usize, fresh_for: Duration) -> Self {
        Self { capacity, fresh_for, rendered: HashMap::new(), tick: 0, jobs: HashMap::new(), queue: VecDeque::new() }
    }

    /// The answer for `screen` at `now`, asking for a render when the kept one
    /// is not of this input (only when `can_render`: a worker is up). The
    /// `bool` says a job was queued for a worker to take.
    fn answer(&mut self, screen: &FirstScreen<'_>, now: Instant, can_render: bool) -> (Answer, bool) {
        self.tick += 1;
        if let Some(entry) = self.rendered.get_mut(screen.path) {
            entry.used = self.tick;
            let kept = RenderedScreen { html: Arc::clone(&entry.html), responses: Arc::clone(&entry.input.responses) };
            if entry.input.is(screen) {
                entry.seen_at = now;
                return (Answer::Ready(kept), false);
            }
            if now.saturating_duration_since(entry.seen_at) < self.fresh_for {
                let queued = can_render && self.ask(screen, now, None);
                return (Answer::Ready(kept), queued);
            }
        }
        if !can_render {
            return (Answer::Without, false);
        }
        let (waiter, receiver) = oneshot::channel();
        let queued = self.ask(screen, now, Some(waiter));
        (Answer::Wait(receiver), queued)
    }

    /// Asks for `screen` to be rendered, sharing the render already asked for
    /// the path (the newest input wins); `true` when a worker may take it now.
    fn ask(&mut self, screen: &FirstScreen<'_>, now: Instant, waiter: Option<oneshot::Sender<RenderedScreen>>) -> bool {
        let jobs = self.jobs.entry(screen.path.to_owned()).or_default();
        if let Some(rendering) = jobs.rendering.as_mut().filter(|job| job.input.is(screen)) {
            // The data came back to what is rendering: nothing newer is needed.
            rendering.seen_at = now;
            if let Some(superseded) = jobs.queued.take() {
                rendering.waiters.extend(superseded.waiters);
            }
            rendering.waiters.retain(|w| !w.is_closed());
            rendering.waiters.extend(waiter);
            return false;
        }
        let queued = match jobs.queued.as_mut() {
            Some(job) => {
                if !job.input.is(screen) {
                    job.input = Input::of(screen);
                }
                job.seen_at = now;
                job.waiters.retain(|w| !w.is_closed());
                job.waiters.extend(waiter);
                return false;
            }
            None => Job { input: Input::of(screen), seen_at: now, waiters: waiter.into_iter().collect() },
        };
        jobs.queued = Some(queued);
        if jobs.rendering.is_some() {
            // Queued when the render before it ends.
            return false;
        }
        self.queue.push_back(screen.path.to_owned());
        true
    }

    /// The next page to render and what from, marked as rendering.
    fn take(&mut self) -> Option<(String, Input)> {
        while let Some(path) = self.queue.pop_front() {
            if let Some(jobs) = self.jobs.get_mut(&path) {
                if let Some(job) = jobs.queued.take() {
                    let input = job.input.clone();
                    jobs.rendering = Some(job);
                    return Some((path, input));
                }
            }
        }
        None
    }

    /// The render of `path` ended, with its HTML or without (its waiters then
    /// go without). `true` when a newer input of the page was queued meanwhile.
    fn finish(&mut self, path: &str, html: Option<Arc<str>>) -> bool {
        let Some(jobs) = self.jobs.get_mut(path) else { return false };
        let Some(job) = jobs.rendering.take() else { return false };
        let queued = jobs.queued.is_some();
        if queued {
            self.queue.push_back(path.to_owned());
        } else {
            self.jobs.remove(path);
        }
        if let Some(html) = html {
            let rendered = RenderedScreen { html: Arc::clone(&html), responses: Arc::clone(&job.input.responses) };
            for waiter in job.waiters {
                // A waiter that gave up has dropped its receiver.
                let _ = waiter.send(rendered.clone());
            }
            self.keep(path, job.input, html, job.seen_at);
        }
        queued
    }

    fn keep(&mut self, path: &str, input: Input, html: Arc<str>, seen_at: Instant) {
        self.tick += 1;
        if !self.rendered.contains_key(path) && self.rendered.len() >= self.capacity {
            let least_recent = self.rendered.iter().min_by_key(|(_, entry)| entry.used).map(|(p, _)| p.clone());
            if let Some(least_recent) = least_recent {
                self.rendered.remove(&least_recent);
            }
        }
        self.rendered.insert(path.to_owned(), Entry { input, html, seen_at, used: self.tick });
    }
}

/// One line of the worker's answers.
#[derive(Deserialize)]
struct Reply {
    #[serde(default)]
    html: Option<String>,
    #[serde(default)]
    error: Option<String>,
    #[serde(default)]
    ready: bool,
}

impl NodeRenderer {
    /// The renderer of `settings`, its workers starting, or `None` when it is
    /// off or its bundle was not built (then pages are rendered in the
    /// browser only). Needs a Tokio runtime.
    pub fn from_settings(settings: &FirstScreenSettings) -> Option<Self> {
        let limit = Duration::from_millis(settings.timeout_ms);
        // Far beyond any real render: only a hung process is stopped, never a slow page.
        let hard_limit = (limit * 10).max(Duration::from_secs(10));
        let fresh_for =
            Duration::from_millis(adapters_postgres::SUPPORT_SHOWS_WITHIN.num_milliseconds().unsigned_abs());
        Self::start(settings, hard_limit, fresh_for)
    }

    fn start(settings: &FirstScreenSettings, hard_limit: Duration, fresh_for: Duration) -> Option<Self> {
        let script = settings.script.clone()?;
        if !script.is_file() {
            tracing::warn!(script = %script.display(), "no server bundle: pages are rendered in the browser only");
            return None;
        }
        let shared = Arc::new(Shared {
            pages: Mutex::new(Pages::new(CACHE_PAGES, fresh_for)),
            work: Notify::new(),
            status: watch::Sender::new(Status::default()),
        });
        let (closing, closed) = watch::channel(());
        let workers = settings.workers.max(1);
        for _ in 0..workers {
            let worker =
                Worker { shared: Arc::clone(&shared), node: settings.node.clone(), script: script.clone(), hard_limit };
            let mut closed = closed.clone();
            tokio::spawn(async move {
                tokio::select! {
                    // Only ever an error: when the renderer is dropped.
                    _ = closed.changed() => {}
                    () = worker.run() => {}
                }
            });
        }
        Some(Self { shared, limit: Duration::from_millis(settings.timeout_ms), workers, _closing: closing })
    }

    /// Waits until a worker is ready or none could start (at most the start
    /// limit), without keeping pages from rendering (or going without) meanwhile.
    pub async fn warm_up(&self) {
        let mut status = self.shared.status.subscribe();
        let settled = status.wait_for(|s| s.ready > 0 || s.down >= self.workers);
        let _ = tokio::time::timeout(START_LIMIT + Duration::from_secs(1), settled).await;
    }
}

impl Shared {
    fn pages(&self) -> MutexGuard<'_, Pages> {
        // Nothing panics while holding it; a poisoned lock still holds whole pages.
        self.pages.lock().unwrap_or_else(PoisonError::into_inner)
    }

    async fn next_job(&self) -> (String, Input) {
        loop {
            let notified = self.work.notified();
            tokio::pin!(notified);
            // Registered before looking, so a job queued in between still wakes us.
            notified.as_mut().enable();
            if let Some(job) = self.pages().take() {
                return job;
            }
            notified.await;
        }
    }

    fn finish(&self, path: &str, html: Option<Arc<str>>) {
        if self.pages().finish(path, html) {
            self.work.notify_one();
        }
    }
}

/// One worker of the pool: keeps one Node process running and renders the
/// queued pages with it, one at a time.
struct Worker {
    shared: Arc<Shared>,
    node: String,
    script: PathBuf,
    /// A render taking longer is taken as hung: the process is replaced.
    hard_limit: Duration,
}

impl Worker {
    async fn run(self) {
        loop {
            let started = tokio::time::timeout(START_LIMIT, start_process(&self.node, &self.script))
                .await
                .unwrap_or_else(|_| Err(anyhow::anyhow!("took longer than {START_LIMIT:?} to start")));
            match started {
                Ok(process) => {
                    self.shared.status.send_modify(|s| s.ready += 1);
                    self.serve(process).await;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "first-screen renderer did not start; pages are rendered in the browser");
                    self.shared.status.send_modify(|s| s.down += 1);
                    tokio::time::sleep(RETRY_AFTER).await;
                    self.shared.status.send_modify(|s| s.down -= 1);
                }
            }
        }
    }

    /// Renders queued pages until the process breaks or hangs.
    async fn serve(&self, mut process: Process) {
        loop {
            let (path, input) = self.shared.next_job().await;
            let line = request_line(&path, &input);
            let broken = match tokio::time::timeout(self.hard_limit, process.render(&line)).await {
                Ok(Ok(Ok(html))) => {
                    self.shared.finish(&path, Some(html.into()));
                    continue;
                }
                Ok(Ok(Err(error))) => {
                    tracing::warn!(error, path, "first screen not rendered");
                    self.shared.finish(&path, None);
                    continue;
                }
                Ok(Err(e)) => format!("lost: {e}"),
                // Its answer may still come and would be read as the next one's.
                Err(_) => format!("no answer within {:?}", self.hard_limit),
            };
            tracing::warn!(problem = broken, path, "first-screen renderer replaced");
            // Down first, so a page asked meanwhile goes without rather than waits.
            self.shared.status.send_modify(|s| s.ready -= 1);
            self.shared.finish(&path, None);
            return;
        }
    }
}

struct Process {
    // Killed when dropped: a process that misbehaved is simply replaced.
    _child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

async fn start_process(node: &str, script: &std::path::Path) -> anyhow::Result<Process> {
    let mut child = Command::new(node)
        .arg(script)
        .env("NODE_ENV", "production")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .with_context(|| format!("running {node} {}", script.display()))?;
    let stdin = child.stdin.take().context("no stdin")?;
    let mut stdout = BufReader::new(child.stdout.take().context("no stdout")?);
    let reply = read_reply(&mut stdout).await?;
    anyhow::ensure!(reply.ready, "the renderer did not say it was ready");
    tracing::info!(script = %script.display(), "first-screen renderer ready");
    Ok(Process { _child: child, stdin, stdout })
}

async fn read_reply(stdout: &mut BufReader<ChildStdout>) -> anyhow::Result<Reply> {
    let mut line = String::new();
    let read = stdout.read_line(&mut line).await?;
    anyhow::ensure!(read > 0, "the renderer exited");
    Ok(serde_json::from_str(&line)?)
}

impl Process {
    /// The page's HTML, or the error the renderer reported (it stays in step);
    /// `Err` when the exchange itself broke (the process must be replaced).
    async fn render(&mut self, request: &str) -> anyhow::Result<Result<String, String>> {
        self.stdin.write_all(request.as_bytes()).await?;
        self.stdin.write_all(b"\n").await?;
        self.stdin.flush().await?;
        let reply = read_reply(&mut self.stdout).await?;
        Ok(match (reply.html, reply.error) {
            (Some(html), _) => Ok(html),
            (None, error) => Err(error.unwrap_or_else(|| "no HTML in the answer".into())),
        })
    }
}

/// The request line: the inputs as JSON (`responses` and `site` are JSON already).
fn request_line(path: &str, input: &Input) -> String {
    format!(r#"{{"path":{},"responses":{},"site":{}}}"#, serde_json::Value::from(path), input.responses, input.site)
}

#[async_trait::async_trait]
impl FirstScreenRenderer for NodeRenderer {
    async fn render<'a>(&self, screen: FirstScreen<'a>) -> Option<RenderedScreen> {
        let can_render = self.shared.status.borrow().ready > 0;
        let (answer, queued) = self.shared.pages().answer(&screen, Instant::now(), can_render);
        if queued {
            self.shared.work.notify_one();
        }
        match answer {
            Answer::Ready(rendered) => Some(rendered),
            Answer::Without => None,
            // A failed render was logged by its worker; a late one still fills the cache.
            Answer::Wait(rendered) => match tokio::time::timeout(self.limit, rendered).await {
                Ok(rendered) => rendered.ok(),
                Err(_) => {
                    let limit_ms = u64::try_from(self.limit.as_millis()).unwrap_or(u64::MAX);
                    tracing::warn!(path = screen.path, limit_ms, "first screen not ready in time");
                    None
                }
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A renderer script in a fresh file: `body` handles `request` (the parsed
    /// line) and calls `answer(object)`; `block(ms)` keeps the process busy,
    /// as a real (synchronous) render does.
    fn script(name: &str, body: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("first-screen-{name}-{}.js", std::process::id()));
        let source = format!(
            "const rl = require('node:readline').createInterface({{ input: process.stdin }});\n\
             const fs = require('node:fs');\n\
             const answer = (o) => process.stdout.write(JSON.stringify(o) + '\\n');\n\
             const block = (ms) => {{ const end = Date.now() + ms; while (Date.now() < end) {{}} }};\n\
             let count = 0;\n\
             rl.on('line', async (line) => {{ const request = JSON.parse(line); count += 1; {body} }});\n\
             answer({{ ready: true }});\n"
        );
        std::fs::write(&path, source).unwrap();
        path
    }

    fn settings(script: PathBuf, timeout_ms: u64, workers: usize) -> FirstScreenSettings {
        FirstScreenSettings { script: Some(script), node: "node".into(), timeout_ms, workers }
    }

    /// A started renderer; `fresh_for` long enough that a slow test machine
    /// still asks within it (the boundary itself is tested on `Pages`).
    async fn renderer(script: PathBuf, timeout_ms: u64, workers: usize) -> NodeRenderer {
        let node = NodeRenderer::start(
            &settings(script, timeout_ms, workers),
            Duration::from_secs(10),
            Duration::from_secs(60),
        )
        .expect("the script exists");
        node.warm_up().await;
        node
    }

    impl NodeRenderer {
        /// Waits until `condition` holds of the pages (at most 10 s).
        async fn until(&self, condition: impl Fn(&Pages) -> bool) {
            for _ in 0..1000 {
                if condition(&self.shared.pages()) {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
            panic!("the renderer never got there");
        }

        /// Waits until no render is queued or running.
        async fn settled(&self) {
            self.until(|pages| pages.jobs.is_empty()).await;
        }

        async fn html(&self, screen: FirstScreen<'_>) -> Option<String> {
            self.render(screen).await.map(|r| r.html.to_string())
        }
    }

    const SITE: &str = r#"{"operator":{"name":"上州新報"}}"#;

    fn screen<'a>(path: &'a str, responses: &'a str) -> FirstScreen<'a> {
        FirstScreen { path, responses, site: SITE }
    }

    #[tokio::test]
    async fn a_page_is_rendered_from_its_inputs_once_while_they_stay_the_same() {
        let node = renderer(
            script("echo", "answer({ html: `<main>${request.path} ${request.responses.total} ${request.site.operator.name} #${count}</main>` });"),
            5_000,
            1,
        )
        .await;

        let first = node.render(screen("/", r#"{"total":"12,000円"}"#)).await.unwrap();
        let again = node.render(screen("/", r#"{"total":"12,000円"}"#)).await.unwrap();

        assert_eq!(&*first.html, "<main>/ 12,000円 上州新報 #1</main>");
        assert_eq!(&*first.responses, r#"{"total":"12,000円"}"#);
        assert_eq!(again, first, "unchanged data is not rendered again");
    }

    #[tokio::test]
    async fn changed_data_is_answered_at_once_with_the_previous_screen_and_its_data_then_with_the_new_one() {
        let node = renderer(
            script("changed", "answer({ html: `<main>${request.responses.total} #${count}</main>` });"),
            5_000,
            1,
        )
        .await;
        let before = r#"{"total":"12,000円"}"#;
        let after = r#"{"total":"15,000円"}"#;
        node.render(screen("/", before)).await.unwrap();

        let meanwhile = node.render(screen("/", after)).await.unwrap();
        node.settled().await;
        let then = node.render(screen("/", after)).await.unwrap();

        assert_eq!(&*meanwhile.html, "<main>12,000円 #1</main>");
        assert_eq!(&*meanwhile.responses, before, "the app hydrates with the data of the screen it was sent");
        assert_eq!(&*then.html, "<main>15,000円 #2</main>");
        assert_eq!(&*then.responses, after);
    }

    #[tokio::test]
    async fn a_slow_page_does_not_delay_another_pages_first_screen() {
        let release = std::env::temp_dir().join(format!("first-screen-release-{}", std::process::id()));
        let _ = std::fs::remove_file(&release);
        let node = Arc::new(
            renderer(
                script(
                    "two",
                    &format!(
                        "if (request.path === '/slow/') while (!fs.existsSync({:?})) block(5);\n\
                         answer({{ html: `<p>${{request.path}}</p>` }});",
                        release.display().to_string()
                    ),
                ),
                5_000,
                2,
            )
            .await,
        );
        let slow = {
            let node = Arc::clone(&node);
            tokio::spawn(async move { node.html(screen("/slow/", "{}")).await })
        };
        node.until(|pages| pages.jobs.get("/slow/").is_some_and(|jobs| jobs.rendering.is_some())).await;

        let fast = node.html(screen("/fast/", "{}")).await;

        assert_eq!(fast.as_deref(), Some("<p>/fast/</p>"), "the second worker rendered it");
        assert!(!slow.is_finished(), "while the first still renders the slow page");
        std::fs::write(&release, "").unwrap();
        assert_eq!(slow.await.unwrap().as_deref(), Some("<p>/slow/</p>"));
    }

    #[tokio::test]
    async fn a_burst_of_visitors_to_a_cold_page_waits_for_one_render_and_gets_the_same_screen() {
        let node = Arc::new(
            renderer(script("burst", "block(200); answer({ html: `<main>#${count}</main>` });"), 5_000, 2).await,
        );

        let visits: Vec<_> = (0..20)
            .map(|_| {
                let node = Arc::clone(&node);
                tokio::spawn(async move { node.render(screen("/projects/a/", r#"{"t":1}"#)).await })
            })
            .collect();

        for visit in visits {
            let answer = visit.await.unwrap().expect("every visitor gets the first screen");
            assert_eq!(&*answer.html, "<main>#1</main>", "one render for all");
            assert_eq!(&*answer.responses, r#"{"t":1}"#);
        }
    }

    #[tokio::test]
    async fn a_slow_or_failing_render_gives_no_html_and_the_next_page_is_rendered_again() {
        let node = renderer(
            script(
                "slow",
                "if (request.path === '/slow/') await new Promise((r) => setTimeout(r, 3000));\n\
                 if (request.path === '/fail/') return answer({ error: 'boom' });\n\
                 answer({ html: `<p>${request.path}</p>` });",
            ),
            300,
            2,
        )
        .await;

        let started = Instant::now();
        assert_eq!(node.html(screen("/slow/", "{}")).await, None);
        assert!(started.elapsed() < Duration::from_secs(2), "the page did not wait for the slow render");
        assert_eq!(node.html(screen("/fail/", "{}")).await, None);
        assert_eq!(node.html(screen("/", "{}")).await.as_deref(), Some("<p>/</p>"));
    }

    #[tokio::test]
    async fn a_hung_process_is_replaced_and_later_pages_render() {
        let node = NodeRenderer::start(
            &settings(
                script(
                    "hung",
                    "if (request.path === '/hang/') block(60000);\nanswer({ html: `<p>${request.path}</p>` });",
                ),
                5_000,
                1,
            ),
            Duration::from_millis(300),
            Duration::from_secs(60),
        )
        .unwrap();
        node.warm_up().await;

        assert_eq!(node.html(screen("/hang/", "{}")).await, None, "the hung render ends at the hard limit");
        node.warm_up().await;
        assert_eq!(node.html(screen("/", "{}")).await.as_deref(), Some("<p>/</p>"));
    }

    #[tokio::test]
    async fn no_page_waits_for_the_renderer_to_start() {
        let node =
            NodeRenderer::from_settings(&settings(script("late", "answer({ html: '<p>ok</p>' });"), 5_000, 2)).unwrap();

        let started = Instant::now();
        assert_eq!(node.html(screen("/", "{}")).await, None, "the first page goes while Node starts");
        assert!(started.elapsed() < Duration::from_millis(500));
        node.warm_up().await;
        assert_eq!(node.html(screen("/", "{}")).await.as_deref(), Some("<p>ok</p>"));
    }

    #[tokio::test]
    async fn without_node_or_without_the_bundle_there_is_no_first_screen() {
        let missing = FirstScreenSettings {
            script: Some("/nonexistent/render.js".into()),
            node: "node".into(),
            timeout_ms: 500,
            workers: 2,
        };
        assert!(NodeRenderer::from_settings(&missing).is_none());

        let settings = FirstScreenSettings {
            node: "/nonexistent/node".into(),
            ..settings(script("no-node", "answer({ html: 'x' });"), 500, 2)
        };
        let node = NodeRenderer::from_settings(&settings).unwrap();
        node.warm_up().await;
        assert_eq!(node.html(screen("/", "{}")).await, None);
    }

    #[test]
    fn the_request_is_one_line_of_json_with_the_inputs_as_they_are() {
        let line = request_line(
            "/projects/a\"b/",
            &Input { responses: r#"{"/x":{"t":"前橋\n"}}"#.into(), site: r#"{"operator":{}}"#.into() },
        );

        assert!(!line.contains('\n'));
        let parsed: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(parsed["path"], "/projects/a\"b/");
        assert_eq!(parsed["responses"]["/x"]["t"], "前橋\n");
        assert_eq!(parsed["site"], serde_json::json!({ "operator": {} }));
    }

    // The cache and the queue, with the time as an argument.

    const SECOND: Duration = Duration::from_secs(1);

    fn ready(answer: (Answer, bool)) -> RenderedScreen {
        match answer.0 {
            Answer::Ready(rendered) => rendered,
            _ => panic!("expected a kept rendering"),
        }
    }

    /// Renders whatever is queued, as a worker would, with `html`.
    fn render_queued(pages: &mut Pages, html: &str) -> Vec<String> {
        let mut rendered = Vec::new();
        while let Some((path, _)) = pages.take() {
            pages.finish(&path, Some(html.into()));
            rendered.push(path);
        }
        rendered
    }

    #[test]
    fn the_previous_screen_stands_in_for_changed_data_only_within_the_promised_second() {
        let t0 = Instant::now();
        let mut pages = Pages::new(8, SECOND);
        let (Answer::Wait(_), true) = pages.answer(&screen("/", "A"), t0, true) else { panic!("a cold page waits") };
        render_queued(&mut pages, "<p>A</p>");

        let within = ready(pages.answer(&screen("/", "B"), t0 + SECOND - Duration::from_millis(1), true));
        assert_eq!((&*within.html, &*within.responses), ("<p>A</p>", "A"));
        assert_eq!(
            pages.take().map(|(path, input)| (path, input.responses.to_string())),
            Some(("/".into(), "B".into()))
        );

        let mut pages = Pages::new(8, SECOND);
        pages.answer(&screen("/", "A"), t0, true);
        render_queued(&mut pages, "<p>A</p>");
        assert!(matches!(pages.answer(&screen("/", "B"), t0 + SECOND, true).0, Answer::Wait(_)), "older data waits");
    }

    #[test]
    fn asking_again_with_the_same_data_keeps_it_current() {
        let t0 = Instant::now();
        let mut pages = Pages::new(8, SECOND);
        pages.answer(&screen("/", "A"), t0, true);
        render_queued(&mut pages, "<p>A</p>");

        ready(pages.answer(&screen("/", "A"), t0 + 5 * SECOND, true));
        let changed = ready(pages.answer(&screen("/", "B"), t0 + 5 * SECOND + SECOND / 2, true));

        assert_eq!(&*changed.html, "<p>A</p>");
    }

    #[test]
    fn the_newest_data_asked_for_is_rendered_and_every_waiter_gets_it_with_its_data() {
        let t0 = Instant::now();
        let mut pages = Pages::new(8, SECOND);
        let (Answer::Wait(mut first), _) = pages.answer(&screen("/p/", "A"), t0, true) else { panic!() };
        let (Answer::Wait(mut second), queued) = pages.answer(&screen("/p/", "B"), t0, true) else { panic!() };
        assert!(!queued, "one job for the path");

        let (path, input) = pages.take().unwrap();
        assert_eq!((path.as_str(), &*input.responses), ("/p/", "B"));
        assert!(pages.take().is_none());
        pages.finish("/p/", Some("<p>B</p>".into()));

        for waiter in [&mut first, &mut second] {
            let rendered = waiter.try_recv().unwrap();
            assert_eq!((&*rendered.html, &*rendered.responses), ("<p>B</p>", "B"));
        }
    }

    #[test]
    fn a_page_is_never_rendered_twice_at_once_and_newer_data_follows_the_render() {
        let t0 = Instant::now();
        let mut pages = Pages::new(8, SECOND);
        pages.answer(&screen("/p/", "A"), t0, true);
        pages.take().unwrap();

        let (_, queued) = pages.answer(&screen("/p/", "B"), t0, true);
        assert!(!queued && pages.take().is_none(), "B waits for A's render to end");
        assert!(pages.finish("/p/", Some("<p>A</p>".into())), "then B is queued");
        assert_eq!(render_queued(&mut pages, "<p>B</p>"), ["/p/"]);
        assert_eq!(&*ready(pages.answer(&screen("/p/", "B"), t0, true)).html, "<p>B</p>");
    }

    #[test]
    fn a_failed_render_keeps_no_screen_and_its_waiters_go_without() {
        let t0 = Instant::now();
        let mut pages = Pages::new(8, SECOND);
        let (Answer::Wait(mut waiter), _) = pages.answer(&screen("/", "A"), t0, true) else { panic!() };
        let (path, _) = pages.take().unwrap();

        pages.finish(&path, None);

        assert!(matches!(waiter.try_recv(), Err(oneshot::error::TryRecvError::Closed)));
        assert!(pages.jobs.is_empty() && pages.rendered.is_empty());
    }

    #[test]
    fn without_a_worker_a_cold_page_goes_without_and_nothing_is_queued() {
        let mut pages = Pages::new(8, SECOND);
        assert!(matches!(pages.answer(&screen("/", "A"), Instant::now(), false), (Answer::Without, false)));
        assert!(pages.take().is_none());
    }

    #[test]
    fn a_full_cache_drops_the_least_recently_asked_page_and_keeps_the_others() {
        let t0 = Instant::now();
        let mut pages = Pages::new(3, SECOND);
        for path in ["/a/", "/b/", "/c/"] {
            pages.answer(&screen(path, "A"), t0, true);
        }
        render_queued(&mut pages, "<p>A</p>");
        ready(pages.answer(&screen("/a/", "A"), t0, true));

        pages.answer(&screen("/d/", "A"), t0, true);
        render_queued(&mut pages, "<p>A</p>");

        let mut kept: Vec<_> = pages.rendered.keys().cloned().collect();
        kept.sort();
        assert_eq!(kept, ["/a/", "/c/", "/d/"]);
    }
}
