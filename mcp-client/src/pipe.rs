//! The stdio framing (newline-delimited JSON-RPC) over the two byte streams of a server, and
//! the process behind them if the client launched it; [`crate::stdio`] makes one.

use std::time::Duration;

use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader};
use tokio::process::Child;

use crate::answer::Answer;
use crate::binding::Binding;
use crate::config::{Config, Respond};
use crate::error::ClientError;
use crate::legacy;

/// How long [`Pipe::close`] waits for the server to exit once its stdin is closed.
const EXIT_WAIT: Duration = Duration::from_secs(5);

/// The two streams of a stdio server, and its process if the client launched it.
pub(crate) struct Pipe {
    reader: BufReader<Box<dyn AsyncRead + Unpin + Send>>,
    writer: Option<Box<dyn AsyncWrite + Unpin + Send>>,
    child: Option<Child>,
    log: crate::Log,
    /// The longest line (one message) read from the server (`Config::with_max_message`).
    max_line: usize,
}

impl Pipe {
    pub(crate) fn new<B: Binding>(
        reader: impl AsyncRead + Unpin + Send + 'static,
        writer: impl AsyncWrite + Unpin + Send + 'static,
        config: &Config<B>,
    ) -> Self {
        Pipe {
            reader: BufReader::new(Box::new(reader)),
            writer: Some(Box::new(writer)),
            child: None,
            log: std::sync::Arc::clone(&config.log),
            max_line: config.max_message,
        }
    }

    /// The same, for the process behind the streams: [`Pipe::close`] waits for it to exit.
    pub(crate) fn with_child(mut self, child: Child) -> Self {
        self.child = Some(child);
        self
    }

    /// Writes one message (JSON text without a newline) and its newline.
    pub async fn write(&mut self, message: &[u8]) -> Result<(), ClientError> {
        if message.contains(&b'\n') {
            return Err(ClientError::Protocol(
                "a stdio message may not contain a newline".into(),
            ));
        }
        let closed = || ClientError::Stdio("the server's input is closed".into());
        let writer = self.writer.as_mut().ok_or_else(closed)?;
        let io = |e: std::io::Error| ClientError::Stdio(format!("writing to the server: {e}"));
        writer.write_all(message).await.map_err(io)?;
        writer.write_all(b"\n").await.map_err(io)?;
        writer.flush().await.map_err(io)
    }

    /// The next line the server writes, without its newline; `None` once its output ends.
    /// A line over the configured bound is an error (it is not held).
    async fn read_line(&mut self) -> Result<Option<Vec<u8>>, ClientError> {
        let io = |e: std::io::Error| ClientError::Stdio(format!("reading from the server: {e}"));
        let mut line = Vec::new();
        loop {
            let buf = self.reader.fill_buf().await.map_err(io)?;
            if buf.is_empty() {
                return Ok((!line.is_empty()).then_some(line));
            }
            let (taken, ended) = match buf.iter().position(|b| *b == b'\n') {
                Some(end) => (end + 1, true),
                None => (buf.len(), false),
            };
            line.extend_from_slice(&buf[..taken]);
            self.reader.consume(taken);
            if line.len() > self.max_line {
                return Err(ClientError::Stdio(format!(
                    "a line of the server's output passed {} bytes (Config::with_max_message)",
                    self.max_line
                )));
            }
            if ended {
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(Some(line));
            }
        }
    }

    /// Writes request `body` and reads until the response to `id`, answering the server's
    /// requests (with `respond`) and logging its notifications on the way; `None` when no line
    /// came for `wait`, or the server's output ended.
    pub async fn exchange<B: Binding>(
        &mut self,
        body: &[u8],
        id: &B::RequestId,
        respond: &Respond<B>,
        wait: Duration,
    ) -> Result<Option<Answer>, ClientError> {
        self.write(body).await?;
        let id = serde_json::to_value(id).unwrap_or_default();
        loop {
            let line = match tokio::time::timeout(wait, self.read_line()).await {
                Err(_) | Ok(Ok(None)) => return Ok(None),
                Ok(line) => line?.unwrap_or_default(),
            };
            // Anything that is not JSON-RPC is skipped (a server must not write it).
            let Ok(message) = serde_json::from_slice::<Value>(&line) else {
                continue;
            };
            let method = message.get("method").and_then(Value::as_str);
            match (method, message.get("id")) {
                (Some(method), Some(_)) => {
                    note!(self.log, "server request {method}: answering");
                    let reply = legacy::answer_request::<B>(message.clone(), &**respond);
                    self.write(reply.to_string().as_bytes()).await?;
                }
                (Some(method), None) => {
                    note!(self.log, "notification {method}");
                    crate::answer::log_progress_event(&self.log, &String::from_utf8_lossy(&line));
                }
                (None, Some(answered)) if *answered == id => {
                    return Ok(Some(Answer {
                        is_error: message.get("error").is_some(),
                        text: String::from_utf8_lossy(&line).into_owned(),
                    }));
                }
                // A response to an earlier request (a probe answered late): not ours.
                _ => {}
            }
        }
    }

    /// Ends the conversation: closes the server's input, waits for it to exit (at most
    /// [`EXIT_WAIT`]), then kills it.
    pub async fn close(&mut self) {
        if let Some(mut writer) = self.writer.take() {
            let _ = writer.shutdown().await;
        }
        let Some(mut child) = self.child.take() else {
            return;
        };
        match tokio::time::timeout(EXIT_WAIT, child.wait()).await {
            Ok(Ok(status)) => note!(self.log, "the server exited: {status}"),
            Ok(Err(e)) => note!(self.log, "waiting for the server: {e}"),
            Err(_) => {
                note!(
                    self.log,
                    "the server did not exit within {EXIT_WAIT:?}: killing it"
                );
                let _ = child.kill().await;
            }
        }
    }
}
