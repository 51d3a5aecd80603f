//! Loopback endpoints for the client's tests. They speak raw TCP so each test scripts exactly
//! what the endpoint does (answer, redirect, stall, stream forever) and can prove that no
//! connection was made at all.

use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

/// How long a test waits for something that must happen promptly before declaring it failed.
const PATIENCE: Duration = Duration::from_secs(5);

/// Binds a loopback listener on a free port.
pub(super) async fn loopback_listener() -> (TcpListener, u16) {
    let listener = TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind loopback");
    let port = listener.local_addr().expect("local address").port();
    (listener, port)
}

/// Reads one HTTP/1.1 request (head, then as many body bytes as `content-length` says) and
/// returns it as text; stops early when the client closes.
pub(super) async fn read_request(socket: &mut TcpStream) -> String {
    let mut request = Vec::new();
    let mut buffer = [0_u8; 4096];
    loop {
        if let Some(head_end) = find(&request, b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&request[..head_end]).to_ascii_lowercase();
            let body_length = head
                .lines()
                .find_map(|line| line.strip_prefix("content-length:"))
                .and_then(|value| value.trim().parse::<usize>().ok())
                .unwrap_or(0);
            if request.len() >= head_end + 4 + body_length {
                break;
            }
        }
        match socket.read(&mut buffer).await {
            Ok(0) | Err(_) => break,
            Ok(read) => request.extend_from_slice(&buffer[..read]),
        }
    }
    String::from_utf8_lossy(&request).into_owned()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// An endpoint that answers one request with `reply` (raw bytes of a whole HTTP response) and
/// hands back the request it received.
pub(super) async fn answer_once(reply: impl Into<Vec<u8>>) -> (u16, JoinHandle<String>) {
    let reply = reply.into();
    let (listener, port) = loopback_listener().await;
    let request = tokio::spawn(async move {
        let (mut socket, _) = listener.accept().await.expect("accept");
        let request = read_request(&mut socket).await;
        socket.write_all(&reply).await.expect("write reply");
        let _ = socket.shutdown().await;
        request
    });
    (port, request)
}

/// A listener that only counts who connects to it, on every loopback address of a port
/// (IPv4 and IPv6 when the host has IPv6, else IPv4 only).
pub(super) struct Trap {
    /// The port the trap listens on.
    pub(super) port: u16,
    accepted: mpsc::UnboundedReceiver<SocketAddr>,
}

impl Trap {
    pub(super) async fn bind() -> Trap {
        let listener = match TcpListener::bind("[::]:0").await {
            Ok(listener) => listener,
            Err(_) => TcpListener::bind("127.0.0.1:0")
                .await
                .expect("bind loopback"),
        };
        let port = listener.local_addr().expect("local address").port();
        let (sender, accepted) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok((_socket, peer)) = listener.accept().await {
                if sender.send(peer).is_err() {
                    break;
                }
            }
        });
        Trap { port, accepted }
    }

    /// How many connections reached the trap so far. The trap is connected to once more as a
    /// marker: connections are accepted in order, so once the marker shows up every earlier
    /// one has been counted — no sleeping and hoping.
    pub(super) async fn connections_so_far(mut self) -> usize {
        let marker = TcpStream::connect(("127.0.0.1", self.port))
            .await
            .expect("connect the marker");
        let marker = marker.local_addr().expect("marker address");
        let mut others = 0;
        loop {
            let peer = tokio::time::timeout(PATIENCE, self.accepted.recv())
                .await
                .expect("the marker connection is accepted")
                .expect("the trap is listening");
            if peer.ip().to_canonical() == marker.ip() && peer.port() == marker.port() {
                return others;
            }
            others += 1;
        }
    }
}
