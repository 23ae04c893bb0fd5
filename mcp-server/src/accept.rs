//! The accept loop: HTTP/1.1 connections served by hyper with the timeouts of [`Config`], at
//! most `max_connections` at once, and a graceful shutdown with a deadline. (`axum::serve`
//! has none of these knobs; hyper's own connection builder has them.)

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::Config;

/// Serves `router` on `listener` until `shutdown` resolves, then lets open connections finish
/// their current response for up to `config.shutdown_grace`. Each connection has
/// `config.header_read` to send a request head, and at most `config.max_connections` are
/// served at once (at the cap, new ones wait in the kernel's backlog). The future does not
/// borrow `config` (it can be spawned).
pub fn serve<F: Future<Output = ()>>(
    listener: TcpListener,
    router: Router,
    config: &Config,
    shutdown: F,
) -> impl Future<Output = ()> + use<F> {
    let slots = Arc::new(Semaphore::new(config.max_connections.max(1)));
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(config.header_read);
    accept(
        listener,
        router,
        builder,
        slots,
        config.shutdown_grace,
        shutdown,
    )
}

/// The loop of [`serve`], with what it keeps of the configuration.
async fn accept(
    listener: TcpListener,
    router: Router,
    builder: http1::Builder,
    slots: Arc<Semaphore>,
    shutdown_grace: Duration,
    shutdown: impl Future<Output = ()>,
) {
    let graceful = GracefulShutdown::new();
    tokio::pin!(shutdown);
    loop {
        // At the cap, stop accepting: new connections wait in the kernel's backlog.
        let slot = tokio::select! {
            () = &mut shutdown => break,
            slot = Arc::clone(&slots).acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break, // never closed
            },
        };
        let stream = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of descriptors and the like: wait a little, the next accept may succeed.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let service = TowerToHyperService::new(router.clone());
        let connection = graceful.watch(builder.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            let _ = connection.await;
            drop(slot);
        });
    }
    drop(listener);
    let _ = tokio::time::timeout(shutdown_grace, graceful.shutdown()).await;
}

/// Resolves when the process is asked to stop: Ctrl-C (`SIGINT`) or, on Unix, `SIGTERM` (what
/// a service manager or a container runtime sends), then after a moment for the responses in
/// flight. The `shutdown` future of [`serve`] for a server that stops on a signal.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
    tokio::time::sleep(Duration::from_millis(10)).await;
}
