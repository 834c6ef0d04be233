//! The first-screen renderer: one Node.js process running the app's server
//! bundle (`frontend/dist-server/render.js`, built from
//! `frontend/src/server/render.tsx`), asked one page at a time over its stdin
//! and stdout, one JSON line each way. Answers are kept by their input, so a
//! page whose data has not changed is not rendered again. Whatever goes wrong
//! (no Node, a crash, a slow answer) costs only the rendering: the page is
//! sent without it and the browser renders it, as before.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use ports::first_screen::{FirstScreen, FirstScreenRenderer};
use serde::Deserialize;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::oneshot;

use crate::config::FirstScreenSettings;

/// Rendered pages kept in memory; a page's data changes at most every few
/// seconds (the catalog cache), so a handful of entries per page is plenty.
const CACHE_ENTRIES: usize = 256;
/// How long a starting process may take to load the bundle.
const START_LIMIT: Duration = Duration::from_secs(10);
/// After Node could not be started, how long before trying again.
const RETRY_AFTER: Duration = Duration::from_secs(30);

pub struct NodeRenderer {
    node: String,
    script: PathBuf,
    limit: Duration,
    worker: tokio::sync::Mutex<WorkerState>,
    rendered: Mutex<HashMap<String, Arc<str>>>,
}

enum WorkerState {
    Stopped,
    /// Loading the bundle, in a task of its own: no page waits for it.
    Starting(oneshot::Receiver<anyhow::Result<Worker>>),
    Running(Box<Worker>),
    Unavailable {
        since: Instant,
    },
}

struct Worker {
    // Killed when dropped: a worker that misbehaved is simply replaced.
    _child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
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
    /// The renderer of `settings`, or `None` when it is off or its bundle was
    /// not built (then pages are rendered in the browser only).
    pub fn from_settings(settings: &FirstScreenSettings) -> Option<Self> {
        let script = settings.script.clone()?;
        if !script.is_file() {
            tracing::warn!(script = %script.display(), "no server bundle: pages are rendered in the browser only");
            return None;
        }
        Some(Self {
            node: settings.node.clone(),
            script,
            limit: Duration::from_millis(settings.timeout_ms),
            worker: tokio::sync::Mutex::new(WorkerState::Stopped),
            rendered: Mutex::new(HashMap::new()),
        })
    }

    /// Starts the worker and waits until it is ready or could not start,
    /// without keeping pages from rendering (or going without) meanwhile.
    pub async fn warm_up(&self) {
        let deadline = Instant::now() + START_LIMIT + Duration::from_secs(1);
        while Instant::now() < deadline {
            {
                let mut state = self.worker.lock().await;
                if self.worker_now(&mut state).is_some() || matches!(*state, WorkerState::Unavailable { .. }) {
                    return;
                }
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The running worker, if there is one now; else starts one in the
    /// background (unless starting failed less than `RETRY_AFTER` ago).
    fn worker_now<'s>(&self, state: &'s mut WorkerState) -> Option<&'s mut Worker> {
        match state {
            WorkerState::Unavailable { since } if since.elapsed() < RETRY_AFTER => {}
            WorkerState::Stopped | WorkerState::Unavailable { .. } => *state = WorkerState::Starting(self.start()),
            WorkerState::Starting(started) => match started.try_recv() {
                Ok(Ok(worker)) => *state = WorkerState::Running(Box::new(worker)),
                Ok(Err(e)) => *state = unavailable(&e),
                Err(oneshot::error::TryRecvError::Empty) => {}
                Err(oneshot::error::TryRecvError::Closed) => {
                    *state = unavailable(&anyhow::anyhow!("the start was abandoned"));
                }
            },
            WorkerState::Running(_) => {}
        }
        match state {
            WorkerState::Running(worker) => Some(worker),
            _ => None,
        }
    }

    fn start(&self) -> oneshot::Receiver<anyhow::Result<Worker>> {
        let (started, receiver) = oneshot::channel();
        let (node, script) = (self.node.clone(), self.script.clone());
        tokio::spawn(async move {
            let worker = tokio::time::timeout(START_LIMIT, start_worker(&node, &script))
                .await
                .unwrap_or_else(|_| Err(anyhow::anyhow!("took longer than {START_LIMIT:?} to start")));
            // Nobody waiting any more: the worker is dropped, which stops it.
            let _ = started.send(worker);
        });
        receiver
    }
}

fn unavailable(error: &anyhow::Error) -> WorkerState {
    tracing::warn!(error = %error, "first-screen renderer did not start; pages are rendered in the browser");
    WorkerState::Unavailable { since: Instant::now() }
}

async fn start_worker(node: &str, script: &std::path::Path) -> anyhow::Result<Worker> {
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
    Ok(Worker { _child: child, stdin, stdout })
}

async fn read_reply(stdout: &mut BufReader<ChildStdout>) -> anyhow::Result<Reply> {
    let mut line = String::new();
    let read = stdout.read_line(&mut line).await?;
    anyhow::ensure!(read > 0, "the renderer exited");
    Ok(serde_json::from_str(&line)?)
}

impl Worker {
    /// The page's HTML, or the error the renderer reported (it stays in step);
    /// `Err` when the exchange itself broke (the worker must be replaced).
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
fn request_line(screen: &FirstScreen<'_>) -> String {
    format!(
        r#"{{"path":{},"responses":{},"site":{}}}"#,
        serde_json::Value::from(screen.path),
        screen.responses,
        screen.site
    )
}

#[async_trait::async_trait]
impl FirstScreenRenderer for NodeRenderer {
    async fn render<'a>(&self, screen: FirstScreen<'a>) -> Option<String> {
        let request = request_line(&screen);
        if let Some(html) = self.rendered.lock().ok()?.get(&request) {
            return Some(html.to_string());
        }
        // One deadline for waiting on the worker and for its answer.
        let deadline = tokio::time::Instant::now() + self.limit;
        let mut state = tokio::time::timeout_at(deadline, self.worker.lock()).await.ok()?;
        let worker = self.worker_now(&mut state)?;
        let html = match tokio::time::timeout_at(deadline, worker.render(&request)).await {
            Ok(Ok(Ok(html))) => html,
            Ok(Ok(Err(error))) => {
                tracing::warn!(error, path = screen.path, "first screen not rendered");
                return None;
            }
            Ok(Err(e)) => {
                tracing::warn!(error = %e, path = screen.path, "first-screen renderer lost; it is restarted");
                *state = WorkerState::Stopped;
                return None;
            }
            Err(_) => {
                // Its answer may still come and would be read as the next one's: replace the worker.
                tracing::warn!(path = screen.path, limit_ms = self.limit.as_millis() as u64, "first screen too slow");
                *state = WorkerState::Stopped;
                return None;
            }
        };
        drop(state);
        let mut rendered = self.rendered.lock().ok()?;
        if rendered.len() >= CACHE_ENTRIES {
            rendered.clear();
        }
        rendered.insert(request, Arc::from(html.as_str()));
        Some(html)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A renderer script in a fresh file: `body` handles `request` (the parsed
    /// line) and calls `answer(object)`.
    fn script(name: &str, body: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("first-screen-{name}-{}.js", std::process::id()));
        let source = format!(
            "const rl = require('node:readline').createInterface({{ input: process.stdin }});\n\
             const answer = (o) => process.stdout.write(JSON.stringify(o) + '\\n');\n\
             let count = 0;\n\
             rl.on('line', async (line) => {{ const request = JSON.parse(line); count += 1; {body} }});\n\
             answer({{ ready: true }});\n"
        );
        std::fs::write(&path, source).unwrap();
        path
    }

    async fn renderer(script: PathBuf, timeout_ms: u64) -> NodeRenderer {
        let node =
            NodeRenderer::from_settings(&FirstScreenSettings { script: Some(script), node: "node".into(), timeout_ms })
                .expect("the script exists");
        node.warm_up().await;
        node
    }

    fn screen<'a>(path: &'a str, responses: &'a str) -> FirstScreen<'a> {
        FirstScreen { path, responses, site: r#"{"operator":{"name":"上州新報"}}"# }
    }

    #[tokio::test]
    async fn a_page_is_rendered_from_its_inputs_once_while_they_stay_the_same() {
        let node = renderer(
            script("echo", "answer({ html: `<main>${request.path} ${request.responses.total} ${request.site.operator.name} #${count}</main>` });"),
            5_000,
        )
        .await;

        let first = node.render(screen("/", r#"{"total":"12,000円"}"#)).await;
        let again = node.render(screen("/", r#"{"total":"12,000円"}"#)).await;
        let changed = node.render(screen("/", r#"{"total":"15,000円"}"#)).await;

        assert_eq!(first.as_deref(), Some("<main>/ 12,000円 上州新報 #1</main>"));
        assert_eq!(again, first, "unchanged data is not rendered again");
        assert_eq!(changed.as_deref(), Some("<main>/ 15,000円 上州新報 #2</main>"));
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
        )
        .await;

        let started = Instant::now();
        assert_eq!(node.render(screen("/slow/", "{}")).await, None);
        assert!(started.elapsed() < Duration::from_secs(2), "the page did not wait for the slow render");
        node.warm_up().await;
        assert_eq!(node.render(screen("/fail/", "{}")).await, None);
        assert_eq!(node.render(screen("/", "{}")).await.as_deref(), Some("<p>/</p>"));
    }

    #[tokio::test]
    async fn no_page_waits_for_the_renderer_to_start() {
        let settings = FirstScreenSettings {
            script: Some(script("late", "answer({ html: '<p>ok</p>' });")),
            node: "node".into(),
            timeout_ms: 5_000,
        };
        let node = NodeRenderer::from_settings(&settings).unwrap();

        let started = Instant::now();
        assert_eq!(node.render(screen("/", "{}")).await, None, "the first page goes while Node starts");
        assert!(started.elapsed() < Duration::from_millis(500));
        node.warm_up().await;
        assert_eq!(node.render(screen("/", "{}")).await.as_deref(), Some("<p>ok</p>"));
    }

    #[tokio::test]
    async fn without_node_or_without_the_bundle_there_is_no_first_screen() {
        let missing =
            FirstScreenSettings { script: Some("/nonexistent/render.js".into()), node: "node".into(), timeout_ms: 500 };
        assert!(NodeRenderer::from_settings(&missing).is_none());

        let settings = FirstScreenSettings {
            script: Some(script("no-node", "answer({ html: 'x' });")),
            node: "/nonexistent/node".into(),
            timeout_ms: 500,
        };
        let node = NodeRenderer::from_settings(&settings).unwrap();
        node.warm_up().await;
        assert_eq!(node.render(screen("/", "{}")).await, None);
    }

    #[test]
    fn the_request_is_one_line_of_json_with_the_inputs_as_they_are() {
        let line = request_line(&FirstScreen {
            path: "/projects/a\"b/",
            responses: r#"{"/x":{"t":"前橋\n"}}"#,
            site: r#"{"operator":{}}"#,
        });

        assert!(!line.contains('\n'));
        let parsed: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(parsed["path"], "/projects/a\"b/");
        assert_eq!(parsed["responses"]["/x"]["t"], "前橋\n");
        assert_eq!(parsed["site"], serde_json::json!({ "operator": {} }));
    }
}
