//! The options of `mancala retro` that choose the distributed engine (timely-dataflow):
//! worker threads, processes, this process's number, and where the processes listen.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use clap::Args;

/// Where a cluster build runs; without any of these options `retro` uses the
/// single-machine (rayon) engine.
#[derive(Args, Debug, Default)]
pub struct ClusterArgs {
    /// Build on the distributed engine (timely-dataflow) with W worker threads in each
    /// process (the same W in every process).
    #[arg(long, value_name = "W")]
    pub workers: Option<usize>,
    /// Build on P processes (each started with the same command and its own --process);
    /// they listen on 127.0.0.1:PORT, PORT+1, ... unless --hostfile names their addresses,
    /// and wait up to 120 s for each other.
    #[arg(long, value_name = "P")]
    pub processes: Option<usize>,
    /// This process's number, 0 to P - 1; process 0 writes the database file.
    #[arg(long, value_name = "I")]
    pub process: Option<usize>,
    /// A file of the processes' addresses, one `host:port` a line (process 0 first; blank
    /// lines and lines starting with # are skipped).
    #[arg(long, value_name = "FILE", conflicts_with = "port")]
    pub hostfile: Option<PathBuf>,
    /// The first port of processes on this machine (without --hostfile).
    #[arg(long, value_name = "PORT")]
    pub port: Option<u16>,
}

/// The first port when neither --port nor --hostfile is given.
const DEFAULT_PORT: u16 = 2101;

/// A checked cluster: threads a process, this process, every address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    pub threads: usize,
    pub process: usize,
    pub addresses: Vec<String>,
}

impl ClusterArgs {
    /// The cluster these options ask for; `None` for the single-machine engine.
    pub fn plan(&self) -> Result<Option<Plan>> {
        let any = self.workers.is_some()
            || self.processes.is_some()
            || self.process.is_some()
            || self.hostfile.is_some()
            || self.port.is_some();
        if !any {
            return Ok(None);
        }
        let threads = self.workers.unwrap_or(1);
        if threads == 0 {
            bail!("--workers 0: a process needs at least one worker");
        }
        let addresses = match &self.hostfile {
            Some(file) => read_hostfile(file)?,
            None => {
                let p = self.processes.unwrap_or(1);
                let port = self.port.unwrap_or(DEFAULT_PORT);
                if p == 0 || port as usize + p - 1 > u16::MAX as usize {
                    bail!("--processes {p}: expected 1 or more, ports {port}.. up to 65535");
                }
                (0..p)
                    .map(|i| format!("127.0.0.1:{}", port as usize + i))
                    .collect()
            }
        };
        if let Some(p) = self.processes
            && p != addresses.len()
        {
            bail!(
                "--processes {p}: the hostfile names {} processes",
                addresses.len()
            );
        }
        let process = match (self.process, addresses.len()) {
            (Some(i), n) if i >= n => {
                bail!(
                    "--process {i}: expected 0 to {} (one of {n} processes)",
                    n - 1
                )
            }
            (Some(i), _) => i,
            (None, 1) => 0,
            (None, n) => bail!(
                "--process: which of the {n} processes this is (0 to {})",
                n - 1
            ),
        };
        Ok(Some(Plan {
            threads,
            process,
            addresses,
        }))
    }
}

/// The addresses of a hostfile, each line checked to be `host:port`.
fn read_hostfile(file: &Path) -> Result<Vec<String>> {
    let text =
        std::fs::read_to_string(file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let port = line.rsplit_once(':').map(|(h, p)| (h, p.parse::<u16>()));
        if !matches!(port, Some((h, Ok(_))) if !h.is_empty()) {
            bail!(
                "{}:{}:1: expected host:port, found \"{line}\"",
                file.display(),
                n + 1
            );
        }
        out.push(line.to_string());
    }
    if out.is_empty() {
        bail!("{}: no host:port lines", file.display());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_option_is_the_single_machine_engine() {
        assert_eq!(ClusterArgs::default().plan().unwrap(), None);
    }

    #[test]
    fn processes_listen_on_consecutive_local_ports() {
        let a = ClusterArgs {
            workers: Some(2),
            processes: Some(2),
            process: Some(1),
            port: Some(4000),
            ..Default::default()
        };
        let p = a.plan().unwrap().unwrap();
        assert_eq!(p.threads, 2);
        assert_eq!(p.process, 1);
        assert_eq!(p.addresses, ["127.0.0.1:4000", "127.0.0.1:4001"]);
    }

    #[test]
    fn bad_options_are_refused() {
        let two = |process| ClusterArgs {
            processes: Some(2),
            process,
            ..Default::default()
        };
        assert!(two(None).plan().is_err());
        assert!(two(Some(2)).plan().is_err());
        let none = ClusterArgs {
            workers: Some(0),
            ..Default::default()
        };
        assert!(none.plan().is_err());
    }

    #[test]
    fn hostfile_lines_are_checked() {
        // Removed when dropped, at the end of the test, pass or fail.
        let dir = tempfile::Builder::new()
            .prefix("mancala-hostfile-")
            .tempdir()
            .unwrap();
        let file = dir.path().join("hosts");
        std::fs::write(&file, "# two\nalpha:2101\n\nbeta:2101\n").unwrap();
        let a = ClusterArgs {
            hostfile: Some(file.clone()),
            process: Some(1),
            ..Default::default()
        };
        assert_eq!(
            a.plan().unwrap().unwrap().addresses,
            ["alpha:2101", "beta:2101"]
        );
        std::fs::write(&file, "alpha:2101\nbeta\n").unwrap();
        let e = a.plan().unwrap_err().to_string();
        assert!(
            e.ends_with(":2:1: expected host:port, found \"beta\""),
            "{e}"
        );
    }
}
