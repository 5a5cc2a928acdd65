//! The one local HTTP/1.1 server of the tests, on 127.0.0.1, written by hand on a tokio
//! `TcpListener` so that the bytes on the wire are the test's own. Every request is read
//! whole (head and `content-length` body) and kept for the test to check (method, path,
//! headers, JSON body); the test's handler answers it with a [`Reply`]: a whole answer,
//! server-sent events cut into small chunked pieces, a live event stream, or nothing at
//! all. A server can go away (every live stream ended, the port closed) and come back on
//! the same port.
//!
//! The wire formats it speaks are beside it: [`anthropic`] (the Messages API),
//! [`openai`] (chat completions and embeddings), [`openseed`] (a stand-in for the
//! OpenSeed orchestrator) and [`otlp`] (an OpenTelemetry collector's OTLP/HTTP). A scripted server ([`Server::start`]) answers each request
//! with the next reply of a list, for the provider tests.

pub mod anthropic;
pub mod openai;
pub mod openseed;
pub mod otlp;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{broadcast, watch};

/// A request the server received.
#[derive(Clone, Debug)]
pub struct Seen {
    pub method: String,
    pub path: String,
    /// Header names in lower case.
    pub headers: HashMap<String, String>,
    /// The body as JSON (`Null` when empty or not JSON).
    pub body: Value,
    /// The body's bytes (a protobuf request's).
    pub raw: Vec<u8>,
}

pub enum Reply {
    /// A complete answer.
    Whole {
        status: u16,
        content_type: &'static str,
        headers: Vec<(String, String)>,
        body: String,
    },
    /// 200 `text/event-stream`, sent chunked in these pieces of bytes.
    Stream(Vec<Vec<u8>>),
    /// 200 `text/event-stream` kept open: each of `first`, then each event `live` brings,
    /// as one `data: <event>` chunk, until the sender is gone or the server goes away.
    Events {
        first: Vec<String>,
        live: broadcast::Receiver<String>,
    },
    /// The request is read and never answered.
    Stall,
    /// A hostile answer: `status`, chunked with no length, `head`, then `piece` sent
    /// `count` times, then `tail`, then the connection held open (a stream that never
    /// ends) until the client hangs up or the server goes away.
    Flood {
        status: u16,
        content_type: &'static str,
        head: Vec<u8>,
        piece: Vec<u8>,
        count: usize,
        tail: Vec<u8>,
    },
}

impl Reply {
    pub fn json(status: u16, body: Value) -> Self {
        Self::raw_json(status, &body.to_string())
    }

    /// `application/json` with any body, valid or not.
    pub fn raw_json(status: u16, body: &str) -> Self {
        Self::whole(status, "application/json", body)
    }

    /// `text/plain`.
    pub fn text(status: u16, body: &str) -> Self {
        Self::whole(status, "text/plain", body)
    }

    fn whole(status: u16, content_type: &'static str, body: &str) -> Self {
        Self::Whole {
            status,
            content_type,
            headers: Vec::new(),
            body: body.to_owned(),
        }
    }

    pub fn header(mut self, name: &str, value: &str) -> Self {
        if let Self::Whole { headers, .. } = &mut self {
            headers.push((name.to_owned(), value.to_owned()));
        }
        self
    }

    /// Events (name, JSON or raw data) as an event stream, cut every 61 bytes so that
    /// lines and UTF-8 characters arrive split.
    pub fn sse(events: &[(Option<&str>, String)]) -> Self {
        let mut text = String::from(": stream opened\n\n");
        for (name, data) in events {
            if let Some(name) = name {
                text.push_str(&format!("event: {name}\n"));
            }
            text.push_str(&format!("data: {data}\n\n"));
        }
        Self::Stream(text.as_bytes().chunks(61).map(<[u8]>::to_vec).collect())
    }
}

type Handler = dyn Fn(&Seen) -> Reply + Send + Sync;

pub struct Server {
    /// `http://127.0.0.1:PORT`
    pub base: String,
    pub port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
    handler: Arc<Handler>,
    /// `true` while up; the listener and live streams end when it turns `false`.
    up: watch::Sender<bool>,
    /// The runtime of a server started for a test without one.
    runtime: Option<tokio::runtime::Runtime>,
    /// Where it listens: 127.0.0.1, or every interface.
    ip: std::net::IpAddr,
}

impl Server {
    /// Answers each request with the next of `replies` (a 418 once there is none left).
    pub async fn start(replies: Vec<Reply>) -> Self {
        let replies = Mutex::new(VecDeque::from(replies));
        Self::handling(move |_| {
            replies
                .lock()
                .unwrap()
                .pop_front()
                .unwrap_or_else(|| Reply::raw_json(418, r#"{"error":"no scripted reply left"}"#))
        })
        .await
    }

    /// Answers each request with what `handler` makes of it, until the test ends.
    pub async fn handling(handler: impl Fn(&Seen) -> Reply + Send + Sync + 'static) -> Self {
        Self::handling_on(std::net::Ipv4Addr::LOCALHOST.into(), handler).await
    }

    /// [`Server::handling`] listening on `ip` (`0.0.0.0`: every interface, as OpenSeed's
    /// orchestrator does); it is still reached at 127.0.0.1.
    pub async fn handling_on(
        ip: std::net::IpAddr,
        handler: impl Fn(&Seen) -> Reply + Send + Sync + 'static,
    ) -> Self {
        let listener = TcpListener::bind((ip, 0)).await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (up, _) = watch::channel(true);
        let server = Self {
            base: format!("http://127.0.0.1:{port}"),
            port,
            seen: Arc::default(),
            handler: Arc::new(handler),
            up,
            runtime: None,
            ip,
        };
        server.serve(listener);
        server
    }

    /// [`Server::handling`] for a test that has no tokio runtime: the server runs on its
    /// own, until it is dropped.
    pub fn in_background(handler: impl Fn(&Seen) -> Reply + Send + Sync + 'static) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let mut server = runtime.block_on(Self::handling(handler));
        server.runtime = Some(runtime);
        server
    }

    fn serve(&self, listener: TcpListener) {
        let seen = Arc::clone(&self.seen);
        let handler = Arc::clone(&self.handler);
        let mut up = self.up.subscribe();
        let live = self.up.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    accepted = listener.accept() => {
                        let Ok((socket, _)) = accepted else { return };
                        let (seen, handler) = (Arc::clone(&seen), Arc::clone(&handler));
                        tokio::spawn(answer(socket, seen, handler, live.subscribe()));
                    }
                    () = gone(&mut up) => return,
                }
            }
        });
    }

    /// Every request received so far, in order.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    /// The server goes away: every live stream is ended and the port closed.
    pub fn go_away(&self) {
        self.up.send_replace(false);
    }

    /// It comes back on the same port.
    pub async fn come_back(&self) {
        let listener = loop {
            match TcpListener::bind((self.ip, self.port)).await {
                Ok(l) => break l,
                Err(_) => tokio::task::yield_now().await,
            }
        };
        self.up.send_replace(true);
        self.serve(listener);
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// The base URL of a port on 127.0.0.1 where nothing listens: connections are refused.
pub fn refused_base() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    base
}

/// Returns once the server has gone away.
async fn gone(up: &mut watch::Receiver<bool>) {
    loop {
        let live = *up.borrow_and_update();
        if !live || up.changed().await.is_err() {
            return;
        }
    }
}

async fn answer(
    mut socket: TcpStream,
    seen: Arc<Mutex<Vec<Seen>>>,
    handler: Arc<Handler>,
    mut up: watch::Receiver<bool>,
) {
    let Some(request) = read_request(&mut socket).await else {
        return;
    };
    seen.lock().unwrap().push(request.clone());
    match handler(&request) {
        Reply::Whole {
            status,
            content_type,
            headers,
            body,
        } => {
            // An empty content type: none said (the orchestrator's `ok` and its 400s).
            let content_type = if content_type.is_empty() {
                String::new()
            } else {
                format!("content-type: {content_type}\r\n")
            };
            let mut head = format!(
                "HTTP/1.1 {status} Scripted\r\n{content_type}content-length: {}\r\nconnection: close\r\n",
                body.len()
            );
            for (name, value) in headers {
                head.push_str(&format!("{name}: {value}\r\n"));
            }
            head.push_str("\r\n");
            let _ = socket.write_all(head.as_bytes()).await;
            let _ = socket.write_all(body.as_bytes()).await;
        }
        Reply::Stream(pieces) => {
            let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream; charset=utf-8\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n";
            let _ = socket.write_all(head.as_bytes()).await;
            for piece in pieces {
                let mut chunk = format!("{:x}\r\n", piece.len()).into_bytes();
                chunk.extend_from_slice(&piece);
                chunk.extend_from_slice(b"\r\n");
                let _ = socket.write_all(&chunk).await;
                let _ = socket.flush().await;
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            let _ = socket.write_all(b"0\r\n\r\n").await;
        }
        Reply::Events { first, mut live } => {
            let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: keep-alive\r\ntransfer-encoding: chunked\r\n\r\n";
            if socket.write_all(head.as_bytes()).await.is_err() {
                return;
            }
            for data in first {
                if write_event(&mut socket, &data).await.is_err() {
                    return;
                }
            }
            loop {
                tokio::select! {
                    event = live.recv() => match event {
                        Ok(data) => if write_event(&mut socket, &data).await.is_err() { return },
                        Err(_) => return,
                    },
                    () = gone(&mut up) => return,
                }
            }
        }
        Reply::Stall => tokio::time::sleep(Duration::from_secs(30)).await,
        Reply::Flood {
            status,
            content_type,
            head,
            piece,
            count,
            tail,
        } => {
            let start = format!(
                "HTTP/1.1 {status} Flood\r\ncontent-type: {content_type}\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n"
            );
            if socket.write_all(start.as_bytes()).await.is_err() {
                return;
            }
            let pieces = std::iter::once(&head)
                .chain(std::iter::repeat_n(&piece, count))
                .chain(std::iter::once(&tail));
            for bytes in pieces.filter(|b| !b.is_empty()) {
                let mut chunk = format!("{:x}\r\n", bytes.len()).into_bytes();
                chunk.extend_from_slice(bytes);
                chunk.extend_from_slice(b"\r\n");
                // The client hung up: it read no more than it wanted.
                if socket.write_all(&chunk).await.is_err() {
                    return;
                }
            }
            let _ = socket.flush().await;
            gone(&mut up).await;
        }
    }
    let _ = socket.shutdown().await;
}

/// One `data:` event, as one chunk of the chunked body.
async fn write_event(socket: &mut TcpStream, data: &str) -> std::io::Result<()> {
    let event = format!("data: {data}\n\n");
    socket
        .write_all(format!("{:x}\r\n{event}\r\n", event.len()).as_bytes())
        .await?;
    socket.flush().await
}

/// Reads one HTTP/1.1 request (head and `content-length` body) from the socket.
async fn read_request(socket: &mut TcpStream) -> Option<Seen> {
    let mut buffer = Vec::new();
    let mut piece = [0u8; 8192];
    let head_end = loop {
        if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break end;
        }
        let n = socket.read(&mut piece).await.ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&piece[..n]);
    };
    let head = String::from_utf8_lossy(&buffer[..head_end]).into_owned();
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next()?.split(' ');
    let method = request_line.next()?.to_owned();
    let path = request_line.next()?.to_owned();
    let headers: HashMap<String, String> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_lowercase(), value.trim().to_owned()))
        .collect();
    let length: usize = headers
        .get("content-length")
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut body = buffer[head_end + 4..].to_vec();
    while body.len() < length {
        let n = socket.read(&mut piece).await.ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&piece[..n]);
    }
    Some(Seen {
        method,
        path,
        headers,
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
        raw: body,
    })
}
