//! The TCP connections between the processes of a cluster. They are made here rather than
//! by timely's own connector, which prints to standard output (mixing with `--json`) and
//! retries for ever: a process that cannot reach the others within [`WAIT`] fails with an
//! error naming the address.

use std::any::Any;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::panic::PanicHookInfo;
use std::sync::{Mutex, Once};
use std::time::{Duration, Instant};

use timely::communication::Hooks;
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};

use super::{Cluster, ClusterError};

/// How long a process waits for the others to start.
pub const WAIT: Duration = Duration::from_secs(120);

/// Between two attempts to reach a process that is not listening yet.
const RETRY: Duration = Duration::from_millis(100);

/// The allocators of this process's workers, connected to every other process, and the
/// guard of the network threads (kept until the workers end).
pub(super) fn allocators(
    c: &Cluster,
) -> Result<(Vec<AllocatorBuilder>, Box<dyn Any + Send>), ClusterError> {
    let sockets = sockets(c)?;
    let hooks = Hooks::default();
    let local =
        ProcessBuilder::new_typed_vector(c.threads, hooks.refill.clone(), hooks.spill.clone());
    let (tcp, guard) =
        initialize_networking_from_sockets(local, sockets, c.process, c.threads, hooks)
            .map_err(|e| ClusterError::Network(format!("starting the network threads: {e}")))?;
    Ok((
        tcp.into_iter().map(AllocatorBuilder::Tcp).collect(),
        Box::new(guard),
    ))
}

/// One stream to every other process, in process order (`None` at this process): this
/// process connects to those before it and accepts those after it, each connection
/// opened by the connecting process's number.
fn sockets(c: &Cluster) -> Result<Vec<Option<TcpStream>>, ClusterError> {
    let me = &c.addresses[c.process];
    let net = |what: String| ClusterError::Network(what);
    let listener = TcpListener::bind(me).map_err(|e| net(format!("{me}: cannot listen: {e}")))?;
    let deadline = Instant::now() + WAIT;
    let mut sockets: Vec<Option<TcpStream>> = (0..c.addresses.len()).map(|_| None).collect();
    for (j, address) in c.addresses.iter().enumerate().take(c.process) {
        let mut s = loop {
            match TcpStream::connect(address) {
                Ok(s) => break s,
                Err(e) if Instant::now() > deadline => {
                    return Err(net(format!("{address} (process {j}): {e}")));
                }
                Err(_) => std::thread::sleep(RETRY),
            }
        };
        s.write_all(&(c.process as u64).to_le_bytes())
            .map_err(|e| net(format!("{address} (process {j}): {e}")))?;
        sockets[j] = Some(s);
    }
    listener
        .set_nonblocking(true)
        .map_err(|e| net(format!("{me}: {e}")))?;
    while sockets.iter().skip(c.process + 1).any(Option::is_none) {
        match listener.accept() {
            Ok((mut s, from)) => {
                s.set_nonblocking(false)
                    .map_err(|e| net(format!("{from}: {e}")))?;
                let mut who = [0u8; 8];
                s.read_exact(&mut who)
                    .map_err(|e| net(format!("{from}: {e}")))?;
                let j = u64::from_le_bytes(who) as usize;
                if j <= c.process || j >= sockets.len() || sockets[j].is_some() {
                    return Err(net(format!("{from}: says it is process {j}, not expected")));
                }
                sockets[j] = Some(s);
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() > deadline {
                    let missing: Vec<usize> = (c.process + 1..sockets.len())
                        .filter(|&j| sockets[j].is_none())
                        .collect();
                    return Err(net(format!(
                        "{me}: processes {missing:?} did not connect within {} s",
                        WAIT.as_secs()
                    )));
                }
                std::thread::sleep(RETRY);
            }
            Err(e) => return Err(net(format!("{me}: {e}"))),
        }
    }
    for s in sockets.iter().flatten() {
        s.set_nodelay(true).map_err(|e| net(format!("{e}")))?;
    }
    Ok(sockets)
}

/// The first failure timely's communication layer reported by panicking (a peer's socket
/// closed, then every thread sharing its queues): kept for [`super::ClusterError::Stopped`].
static NETWORK_FAILURE: Mutex<Option<String>> = Mutex::new(None);

/// Installs, once per process, a panic hook that silences the panics raised inside
/// timely's communication crate and keeps the first one's message. When a peer dies,
/// timely's network threads, the workers sharing their queues and the guard that joins
/// them all panic, each printing a stack trace; the build already ends with one clean
/// error that says what happened and how to resume, so the traces only bury it. Every
/// other panic (a bug of this project) still goes to the hook that was there before.
pub(super) fn quiet_network_panics() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if raised_by_timely_communication(info) {
                let mut first = NETWORK_FAILURE.lock().unwrap_or_else(|e| e.into_inner());
                first.get_or_insert_with(|| panic_message(info));
            } else {
                previous(info);
            }
        }));
    });
}

/// Whether the panic was raised in the source of the `timely_communication` crate.
fn raised_by_timely_communication(info: &PanicHookInfo<'_>) -> bool {
    info.location()
        .is_some_and(|l| l.file().contains("timely_communication"))
}

/// A panic's message, when it is text.
fn panic_message(info: &PanicHookInfo<'_>) -> String {
    let payload = info.payload();
    payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a network thread stopped".into())
}

/// The first failure of timely's communication layer since this process started, if any.
pub(super) fn network_failure() -> Option<String> {
    NETWORK_FAILURE
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clone()
}

/// The guard of the network threads, dropped without passing their panic on: when a peer
/// dies they panic, and the workers' error ([`ClusterError::Stopped`]) already says so.
pub(super) struct Network(pub Option<Box<dyn Any + Send>>);

impl Drop for Network {
    fn drop(&mut self) {
        if let Some(guard) = self.0.take() {
            let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || drop(guard)));
        }
    }
}
