//! Just enough of an SMTP server for the mailer's tests: accepts messages on 127.0.0.1:0 (or
//! refuses the first few with `451`) and hands each one over as it arrives.

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

/// One message as received: envelope sender, recipients and the dot-unstuffed data.
#[derive(Debug)]
pub struct Received {
    pub from: String,
    pub to: Vec<String>,
    pub data: String,
}

/// Starts a listener that refuses the first `refuse` messages; returns its `smtp://` URL and
/// the messages it accepts.
pub async fn listen(refuse: usize) -> (String, mpsc::UnboundedReceiver<Received>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("binds");
    let url = format!("smtp://{}", listener.local_addr().expect("address"));
    let (sent, received) = mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut refuse = refuse;
        while let Ok((stream, _)) = listener.accept().await {
            refuse = session(stream, refuse, &sent).await;
        }
    });
    (url, received)
}

/// Serves one connection; returns how many messages are still to be refused.
async fn session(
    stream: TcpStream,
    mut refuse: usize,
    out: &mpsc::UnboundedSender<Received>,
) -> usize {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read).lines();
    let (mut from, mut to) = (String::new(), Vec::new());
    let _ = write.write_all(b"220 test ESMTP\r\n").await;
    while let Ok(Some(line)) = lines.next_line().await {
        let verb = line.get(..4).unwrap_or(&line).to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" => b"250-test\r\n250 8BITMIME\r\n",
            "MAIL" => {
                (from, to) = (address(&line), Vec::new());
                b"250 OK\r\n"
            }
            "RCPT" => {
                to.push(address(&line));
                b"250 OK\r\n"
            }
            "DATA" => {
                let _ = write.write_all(b"354 go ahead\r\n").await;
                let mut data = String::new();
                while let Ok(Some(line)) = lines.next_line().await {
                    if line == "." {
                        break;
                    }
                    data.push_str(line.strip_prefix('.').unwrap_or(&line));
                    data.push_str("\r\n");
                }
                if refuse > 0 {
                    refuse -= 1;
                    b"451 try again later\r\n"
                } else {
                    let message = Received {
                        from: std::mem::take(&mut from),
                        to: std::mem::take(&mut to),
                        data,
                    };
                    let _ = out.send(message);
                    b"250 OK\r\n"
                }
            }
            "QUIT" => return refuse,
            _ => b"250 OK\r\n",
        };
        if write.write_all(reply).await.is_err() {
            break;
        }
    }
    refuse
}

/// The address inside `<…>`.
fn address(line: &str) -> String {
    let start = line.find('<').map_or(0, |i| i + 1);
    let end = line[start..].find('>').map_or(line.len(), |i| start + i);
    line[start..end].to_string()
}
