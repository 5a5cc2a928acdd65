//! A scripted HTTP/1.1 server on 127.0.0.1 for the provider tests, written by hand on a
//! tokio `TcpListener`: each connection gets the next scripted reply (whole, streamed
//! as chunked server-sent events cut into small pieces, or never), and every request is
//! kept for the test to check (path, headers, JSON body).

pub mod openai;
pub mod openseed;

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use dreamwatch::llm::{
    ContentBlock, LlmError, Message, ProviderOptions, Request, Response, RetryClock, RetryPolicy,
    StopReason, Timeouts,
};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// The key every test provider carries; it must show up in no error and no `Debug`.
pub const KEY: &str = "sk-test-7f3a9c1e-SECRET";

/// Panics if `text` holds the key.
pub fn assert_no_key(text: &str) {
    assert!(!text.contains(KEY), "the API key leaked into: {text}");
}

/// Fast options: three tries, backoffs recorded instead of waited (see
/// [`options_recording_waits`]), one second per try (tests of a stalled server shorten it).
pub fn options(stream: bool) -> ProviderOptions {
    options_recording_waits(stream).0
}

/// [`options`], and the backoffs the provider asked to wait, in order.
pub fn options_recording_waits(stream: bool) -> (ProviderOptions, Arc<Mutex<Vec<Duration>>>) {
    let (retry_clock, waits) = RetryClock::recorder();
    let options = ProviderOptions {
        retry_clock,
        ..options_waiting(stream)
    };
    (options, waits)
}

fn options_waiting(stream: bool) -> ProviderOptions {
    ProviderOptions {
        timeouts: Timeouts {
            connect: Duration::from_secs(1),
            overall: Duration::from_secs(1),
        },
        retry: RetryPolicy {
            max_tries: 3,
            base: Duration::from_millis(10),
            max: Duration::from_secs(2),
        },
        retry_clock: RetryClock::Real,
        stream,
    }
}

/// The request every provider test sends: a system prompt and one user line.
pub fn request() -> Request {
    Request {
        system: "You are a creature.".into(),
        messages: vec![Message::user_text("Wake up.")],
        tools: Vec::new(),
        max_tokens: 512,
    }
}

/// Whether the answer is the plain "Hello." that `hello()` replies in each format.
pub fn said_hello(response: &Response) -> bool {
    response.content
        == vec![ContentBlock::Text {
            text: "Hello.".into(),
        }]
        && response.stop_reason == StopReason::EndTurn
}

/// Checks the error and its text, which must not hold the key.
pub fn failed(result: Result<Response, LlmError>) -> LlmError {
    let error = result.expect_err("the call should fail");
    assert_no_key(&error.to_string());
    assert_no_key(&format!("{error:?}"));
    error
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
    /// The request is read and never answered.
    Stall,
}

impl Reply {
    pub fn json(status: u16, body: Value) -> Self {
        Self::raw_json(status, &body.to_string())
    }

    /// `application/json` with any body, valid or not.
    pub fn raw_json(status: u16, body: &str) -> Self {
        Self::Whole {
            status,
            content_type: "application/json",
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

/// A request the server received.
#[derive(Clone, Debug)]
pub struct Seen {
    pub method: String,
    pub path: String,
    /// Header names in lower case.
    pub headers: HashMap<String, String>,
    pub body: Value,
}

#[derive(Default)]
struct State {
    replies: VecDeque<Reply>,
    seen: Vec<Seen>,
}

pub struct Server {
    /// `http://127.0.0.1:PORT`
    pub base: String,
    state: Arc<Mutex<State>>,
}

impl Server {
    pub async fn start(replies: Vec<Reply>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let base = format!("http://{}", listener.local_addr().unwrap());
        let state = Arc::new(Mutex::new(State {
            replies: replies.into(),
            seen: Vec::new(),
        }));
        let shared = Arc::clone(&state);
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                tokio::spawn(serve(socket, Arc::clone(&shared)));
            }
        });
        Self { base, state }
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.state.lock().unwrap().seen.clone()
    }
}

async fn serve(mut socket: TcpStream, state: Arc<Mutex<State>>) {
    let Some(seen) = read_request(&mut socket).await else {
        return;
    };
    let reply = {
        let mut state = state.lock().unwrap();
        state.seen.push(seen);
        state.replies.pop_front()
    };
    let reply =
        reply.unwrap_or_else(|| Reply::raw_json(418, r#"{"error":"no scripted reply left"}"#));
    match reply {
        Reply::Whole {
            status,
            content_type,
            headers,
            body,
        } => {
            let mut head = format!(
                "HTTP/1.1 {status} Scripted\r\ncontent-type: {content_type}\r\ncontent-length: {}\r\nconnection: close\r\n",
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
        Reply::Stall => tokio::time::sleep(Duration::from_secs(30)).await,
    }
    let _ = socket.shutdown().await;
}

/// Reads one HTTP/1.1 request (head and `content-length` body) from the socket.
pub async fn read_request(socket: &mut TcpStream) -> Option<Seen> {
    let mut buffer = Vec::new();
    let mut piece = [0u8; 4096];
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
    })
}
