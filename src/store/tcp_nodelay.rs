//! Nagle's algorithm off on the TCP connections to PostgreSQL.
//!
//! sqlx 0.9.0 opens its TCP sockets without `TCP_NODELAY` (earlier releases set it; the fix is
//! not released yet) and has no option to ask for it. With Nagle on, the tail of a message
//! larger than one segment waits for the server's acknowledgement of the segments before it,
//! and the server delays that acknowledgement by up to 40 ms: every multi-row statement of a
//! large ingest group or outcome batch then took 40 ms more than its work. Under a held load the
//! groups grew, every statement stalled, and the ingest queue ran away (BENCHMARKS.md,
//! PostgreSQL delivery, fifth session).
//!
//! The socket is sqlx's, out of reach. After each new pool connection this turns the option on
//! for every TCP socket of the process connected to the database server's port: each such socket
//! is duplicated (`pidfd_getfd`: the duplicate is the same socket), the option set on the
//! duplicate, and the duplicate closed. Setting it twice, or on another connection to the same
//! port, does no harm. Unix-socket connections have no Nagle; nothing is done for them, nor on
//! systems other than Linux.

/// Turns `TCP_NODELAY` on for every TCP socket of this process whose peer port is `port`;
/// returns how many sockets it set. Failures are reported once and leave the sockets as they
/// were (statements still work, with the delays above).
pub fn no_delay_to(port: u16) -> usize {
    match sockets::no_delay_to(port) {
        Ok(set) => set,
        Err(err) => {
            warn_once(&err);
            0
        }
    }
}

fn warn_once(err: &std::io::Error) {
    static WARNED: std::sync::Once = std::sync::Once::new();
    WARNED.call_once(|| {
        tracing::warn!(
            error = %err,
            "could not turn Nagle's algorithm off on the PostgreSQL connections; large \
             statements may wait up to 40 ms each (a Unix-socket URL avoids it)"
        );
    });
}

#[cfg(target_os = "linux")]
mod sockets {
    use std::io;
    use std::os::fd::OwnedFd;

    use rustix::net::{SocketAddrAny, getpeername, sockopt};
    use rustix::process::{PidfdFlags, PidfdGetfdFlags, getpid, pidfd_getfd, pidfd_open};

    pub fn no_delay_to(port: u16) -> io::Result<usize> {
        let mut set = 0;
        for socket in sockets_to(port)? {
            if sockopt::set_tcp_nodelay(&socket, true).is_ok() {
                set += 1;
            }
        }
        Ok(set)
    }

    /// Duplicates of this process's TCP sockets whose peer port is `port`.
    pub fn sockets_to(port: u16) -> io::Result<Vec<OwnedFd>> {
        let me = pidfd_open(getpid(), PidfdFlags::empty())?;
        let mut found = Vec::new();
        for fd in socket_fds()? {
            // The socket may have been closed since the listing: then there is nothing to set.
            let Ok(socket) = pidfd_getfd(&me, fd, PidfdGetfdFlags::empty()) else {
                continue;
            };
            let peer_port = match getpeername(&socket) {
                Ok(Some(peer)) => tcp_port(&peer),
                _ => None,
            };
            if peer_port == Some(port) {
                found.push(socket);
            }
        }
        Ok(found)
    }

    /// The port of an IPv4 or IPv6 peer.
    fn tcp_port(peer: &SocketAddrAny) -> Option<u16> {
        std::net::SocketAddr::try_from(peer.clone())
            .ok()
            .map(|a| a.port())
    }

    /// This process's open descriptors that are sockets.
    fn socket_fds() -> io::Result<Vec<i32>> {
        let mut fds = Vec::new();
        for entry in std::fs::read_dir("/proc/self/fd")? {
            let entry = entry?;
            let Some(fd) = entry.file_name().to_str().and_then(|n| n.parse().ok()) else {
                continue;
            };
            let is_socket = std::fs::read_link(entry.path())
                .is_ok_and(|target| target.to_string_lossy().starts_with("socket:"));
            if is_socket {
                fds.push(fd);
            }
        }
        Ok(fds)
    }
}

#[cfg(not(target_os = "linux"))]
mod sockets {
    pub fn no_delay_to(_port: u16) -> std::io::Result<usize> {
        Ok(0)
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::str::FromStr;

    use rustix::net::sockopt;

    use super::{no_delay_to, sockets};
    use crate::store::Db;

    #[tokio::test]
    async fn a_connection_to_the_port_gets_no_delay_and_others_keep_nagle() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let other = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let to_port = tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .unwrap();
        let elsewhere = tokio::net::TcpStream::connect(other.local_addr().unwrap())
            .await
            .unwrap();
        assert!(!to_port.nodelay().unwrap());
        assert!(no_delay_to(port) >= 1);
        assert!(to_port.nodelay().unwrap());
        assert!(!elsewhere.nodelay().unwrap());
    }

    #[tokio::test]
    #[ignore = "needs PostgreSQL: set SIGNALWATCH_TEST_POSTGRES_URL, run with --run-ignored all"]
    async fn every_connection_of_a_postgresql_pool_has_nagle_turned_off() {
        let url = std::env::var("SIGNALWATCH_TEST_POSTGRES_URL")
            .expect("SIGNALWATCH_TEST_POSTGRES_URL names the PostgreSQL server");
        let options = sqlx::postgres::PgConnectOptions::from_str(&url).expect("a PostgreSQL URL");
        let db = Db::connect(&url).await.expect("connect");
        let Db::Postgres(pool) = &db else {
            panic!("a PostgreSQL URL gives a PostgreSQL handle");
        };
        let mut held = Vec::new();
        for _ in 0..3 {
            held.push(pool.acquire().await.expect("a connection"));
        }
        let sockets = sockets::sockets_to(options.get_port()).expect("the process's sockets");
        assert!(
            sockets.len() >= 3,
            "{} sockets to the server",
            sockets.len()
        );
        for socket in &sockets {
            assert!(sockopt::tcp_nodelay(socket).expect("TCP_NODELAY readable"));
        }
    }
}
