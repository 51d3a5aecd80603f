//! A tiny SMTP server for tests: listens on 127.0.0.1:0, accepts every message (or refuses the
//! next few on request) and records the envelope and the raw data, so a test can wait for the
//! e-mails it expects without sleeping.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// One message as the sink received it.
#[derive(Debug, Clone)]
pub struct ReceivedMail {
    /// The envelope sender (`MAIL FROM`).
    pub from: String,
    /// The envelope recipients (`RCPT TO`).
    pub to: Vec<String>,
    /// The message exactly as sent after `DATA`, dot-unstuffed, lines ending in CRLF.
    pub data: String,
}

impl ReceivedMail {
    /// A header's value, unfolded; the first one when it repeats.
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.data.split("\r\n\r\n").next().unwrap_or("");
        let mut value: Option<String> = None;
        for line in head.split("\r\n") {
            if line.starts_with([' ', '\t']) {
                if let Some(value) = value.as_mut() {
                    value.push_str(line);
                }
                continue;
            }
            if value.is_some() {
                break;
            }
            if let Some((key, rest)) = line.split_once(':')
                && key.eq_ignore_ascii_case(name)
            {
                value = Some(rest.trim().to_string());
            }
        }
        value
    }

    /// The `Subject` header.
    pub fn subject(&self) -> String {
        self.header("Subject").unwrap_or_default()
    }

    /// The whole message with quoted-printable soft breaks and escapes undone, for looking for
    /// words in the body parts regardless of how they were encoded on the wire.
    pub fn decoded(&self) -> String {
        let raw = self.data.as_bytes();
        let mut out = Vec::with_capacity(raw.len());
        let mut i = 0;
        while i < raw.len() {
            if raw[i] == b'=' {
                if raw[i + 1..].starts_with(b"\r\n") {
                    i += 3;
                    continue;
                }
                let hex = raw
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok());
                if let Some(byte) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    out.push(byte);
                    i += 3;
                    continue;
                }
            }
            out.push(raw[i]);
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    }
}

#[derive(Default)]
struct Inbox {
    messages: Vec<ReceivedMail>,
    /// Messages still to be refused with a temporary error (451) at the end of `DATA`.
    refuse: usize,
}

/// A running sink. Stops when dropped.
pub struct SmtpSink {
    addr: SocketAddr,
    inbox: Arc<Mutex<Inbox>>,
    count: watch::Receiver<usize>,
    server: JoinHandle<()>,
}

impl SmtpSink {
    /// Starts a sink on a free local port.
    pub async fn start() -> SmtpSink {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("sink binds");
        let addr = listener.local_addr().expect("sink address");
        let inbox = Arc::new(Mutex::new(Inbox::default()));
        let (counter, count) = watch::channel(0);
        let counter = Arc::new(counter);
        let shared = inbox.clone();
        let server = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(session(stream, shared.clone(), counter.clone()));
            }
        });
        SmtpSink {
            addr,
            inbox,
            count,
            server,
        }
    }

    /// `smtp://127.0.0.1:<port>`, for `--smtp-url`.
    pub fn url(&self) -> String {
        format!("smtp://{}", self.addr)
    }

    /// Every message received so far, in arrival order.
    pub fn messages(&self) -> Vec<ReceivedMail> {
        self.inbox.lock().expect("inbox").messages.clone()
    }

    /// Refuses the next `count` messages with `451`, as a server in trouble would.
    pub fn refuse_next(&self, count: usize) {
        self.inbox.lock().expect("inbox").refuse = count;
    }

    /// Waits until at least `count` messages have arrived and returns all of them; panics
    /// after `deadline`.
    pub async fn wait_for(&self, count: usize, deadline: Duration) -> Vec<ReceivedMail> {
        let mut arrivals = self.count.clone();
        let arrived = tokio::time::timeout(deadline, arrivals.wait_for(|n| *n >= count)).await;
        let messages = self.messages();
        assert!(
            matches!(arrived, Ok(Ok(_))),
            "expected {count} e-mail(s) within {deadline:?}, got {}: {messages:#?}",
            messages.len()
        );
        messages
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.server.abort();
    }
}

/// Speaks enough SMTP for a client that sends mail: greeting, EHLO/HELO, MAIL, RCPT, DATA,
/// RSET, NOOP and QUIT. Anything else gets `502`.
async fn session(stream: TcpStream, inbox: Arc<Mutex<Inbox>>, counter: Arc<watch::Sender<usize>>) {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read);
    let mut from = String::new();
    let mut to = Vec::new();
    if write.write_all(b"220 sink ESMTP ready\r\n").await.is_err() {
        return;
    }
    loop {
        let Some(line) = read_line(&mut lines).await else {
            return;
        };
        let verb = line.get(..4).unwrap_or(&line).to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" => b"250-sink\r\n250 8BITMIME\r\n",
            "HELO" | "NOOP" => b"250 OK\r\n",
            "MAIL" => {
                from = angle_address(&line);
                to.clear();
                b"250 OK\r\n"
            }
            "RCPT" => {
                to.push(angle_address(&line));
                b"250 OK\r\n"
            }
            "RSET" => {
                from.clear();
                to.clear();
                b"250 OK\r\n"
            }
            "DATA" => {
                if write
                    .write_all(b"354 end with <CRLF>.<CRLF>\r\n")
                    .await
                    .is_err()
                {
                    return;
                }
                let Some(data) = read_data(&mut lines).await else {
                    return;
                };
                let mut inbox = inbox.lock().expect("inbox");
                if inbox.refuse > 0 {
                    inbox.refuse -= 1;
                    b"451 try again later\r\n"
                } else {
                    inbox.messages.push(ReceivedMail {
                        from: std::mem::take(&mut from),
                        to: std::mem::take(&mut to),
                        data,
                    });
                    counter.send_replace(inbox.messages.len());
                    b"250 OK queued\r\n"
                }
            }
            "QUIT" => {
                let _ = write.write_all(b"221 bye\r\n").await;
                return;
            }
            _ => b"502 command not implemented\r\n",
        };
        if write.write_all(reply).await.is_err() {
            return;
        }
    }
}

/// One line without its line ending; `None` when the client is gone.
async fn read_line(lines: &mut BufReader<tokio::net::tcp::OwnedReadHalf>) -> Option<String> {
    let mut buf = Vec::new();
    match lines.read_until(b'\n', &mut buf).await {
        Ok(0) | Err(_) => None,
        Ok(_) => {
            let text = String::from_utf8_lossy(&buf);
            Some(text.trim_end_matches(['\r', '\n']).to_string())
        }
    }
}

/// The message after `DATA` up to the lone `.`, with the leading dot of stuffed lines removed.
async fn read_data(lines: &mut BufReader<tokio::net::tcp::OwnedReadHalf>) -> Option<String> {
    let mut data = String::new();
    loop {
        let line = read_line(lines).await?;
        if line == "." {
            return Some(data);
        }
        data.push_str(line.strip_prefix('.').unwrap_or(&line));
        data.push_str("\r\n");
    }
}

/// The address inside `<…>` of a `MAIL FROM:` or `RCPT TO:` line.
fn angle_address(line: &str) -> String {
    let start = line.find('<').map_or(0, |i| i + 1);
    let end = line[start..].find('>').map_or(line.len(), |i| start + i);
    line[start..end].to_string()
}
