//! `mancala retro` on two processes (timely-dataflow over TCP on localhost): the file equals
//! the single-machine build byte for byte for Afrika, Andada and Kalah (and with two
//! workers a process), each process holds only its share, and a build whose process is
//! killed mid-class resumes, after both are restarted, to the same file.
#![cfg(feature = "cluster")]

mod common;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Two free ports of this machine, written to a hostfile in `dir`.
fn hostfile(dir: &Path) -> PathBuf {
    let listeners: Vec<_> = (0..2)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    let lines: Vec<String> = listeners
        .iter()
        .map(|l| format!("127.0.0.1:{}\n", l.local_addr().unwrap().port()))
        .collect();
    common::write_file(dir, "hosts", lines.concat())
}

/// `mancala retro` with `args` in `dir`, started in the background.
fn start(dir: &Path, args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
        .current_dir(dir)
        .env("MANCALA_DB_DIR", dir)
        .arg("retro")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Both processes of a cluster build of `args` into `out`, `workers` threads each; the
/// JSON report of each.
fn two_processes(dir: &Path, args: &[&str], out: &str, workers: &str) -> Vec<serde_json::Value> {
    let hosts = hostfile(dir);
    let children: Vec<Child> = ["0", "1"]
        .iter()
        .map(|i| {
            let mut a = args.to_vec();
            a.extend(["--out", out, "--json", "--workers", workers, "--process", i]);
            a.extend(["--hostfile", hosts.to_str().unwrap()]);
            start(dir, &a)
        })
        .collect();
    children.into_iter().map(report).collect()
}

/// The JSON report of a finished process (timely may print connection lines before it).
fn report(child: Child) -> serde_json::Value {
    let o = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let json = &stdout[stdout.find("\n{").map_or(0, |i| i + 1)..];
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// The single-machine build of `args` into `out`.
fn rayon(dir: &Path, args: &[&str], out: &str) {
    let out = dir.join(out);
    let mut a = vec!["retro"];
    a.extend(args);
    a.extend(["--out", out.to_str().unwrap()]);
    let o = common::mancala(&a);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn two_processes_write_the_single_machine_file() {
    let dir = common::temp_dir("retro-cluster");
    for args in [
        ["afrika:4", "--max-stones", "9"],
        ["andada:3", "--max-stones", "7"],
        ["kalah:3", "--max-seeds", "10"],
    ] {
        rayon(&dir, &args, "one.db");
        let reports = two_processes(&dir, &args, "two.db", "1");
        let one = std::fs::read(dir.join("one.db")).unwrap();
        assert_eq!(one, std::fs::read(dir.join("two.db")).unwrap(), "{args:?}");
        for (i, r) in reports.iter().enumerate() {
            assert_eq!(r["cluster"]["process"], i, "{args:?}");
            assert_eq!(r["cluster"]["resumed_classes"], 0, "{args:?}");
            for what in ["requests_sent", "replies_sent"] {
                assert!(r["cluster"][what].as_u64().unwrap() > 0, "{args:?} {what}");
            }
            assert_partitioned(r, i as u64, 2);
        }
        assert!(!dir.join("two.db.partial").exists(), "{args:?}");
        for f in ["one.db", "two.db"] {
            std::fs::remove_file(dir.join(f)).unwrap();
        }
    }
}

/// Two processes of two workers each (requests routed to one worker of the other
/// process, answered from memory its process shares; a slice joined from two parts):
/// the same file.
#[test]
fn two_processes_of_two_workers_write_the_single_machine_file() {
    let dir = common::temp_dir("retro-cluster-2x2");
    let args = ["afrika:4", "--max-stones", "9"];
    rayon(&dir, &args, "one.db");
    let reports = two_processes(&dir, &args, "two.db", "2");
    let one = std::fs::read(dir.join("one.db")).unwrap();
    assert_eq!(one, std::fs::read(dir.join("two.db")).unwrap());
    for (i, r) in reports.iter().enumerate() {
        assert_eq!(r["cluster"]["workers"], 2);
        assert_partitioned(r, i as u64, 2);
    }
}

/// Process `i` of `processes` held exactly its share of every class (`n·i/P` up to
/// `n·(i+1)/P`), not the database: memory is partitioned.
fn assert_partitioned(r: &serde_json::Value, i: u64, processes: u64) {
    let sizes: Vec<u64> = r["classes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["positions"].as_u64().unwrap())
        .collect();
    let share = |n: u64| n * (i + 1) / processes - n * i / processes;
    let held = r["cluster"]["held_positions"].as_u64().unwrap();
    assert_eq!(held, sizes.iter().map(|&n| share(n)).sum::<u64>());
    let total: u64 = sizes.iter().sum();
    assert_eq!(r["positions"].as_u64().unwrap(), total);
    assert!(
        held <= total / processes + sizes.len() as u64,
        "held {held} of {total}"
    );
    let bounds = r["cluster"]["held_bounds"].as_u64().unwrap();
    assert_eq!(bounds, sizes.iter().map(|&n| share(n)).max().unwrap());
}

/// Waits for `child` to end by itself for up to `wait`, else kills it.
fn end(child: &mut Child, wait: Duration) {
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > wait {
            child.kill().unwrap();
            child.wait().unwrap();
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_killed_process_restarted_with_the_other_gives_the_same_file() {
    let dir = common::temp_dir("retro-cluster-kill");
    let args = ["afrika:4", "--max-stones", "14"];
    rayon(&dir, &args, "one.db");
    let hosts = hostfile(&dir);
    let mut children: Vec<Child> = ["0", "1"]
        .iter()
        .map(|i| {
            let h = hosts.to_str().unwrap();
            let mut a = args.to_vec();
            a.extend([
                "--out",
                "two.db",
                "--workers",
                "1",
                "--process",
                i,
                "--hostfile",
                h,
            ]);
            start(&dir, &a)
        })
        .collect();
    // Kill process 1 as soon as both have finished six of the fifteen classes.
    let sixth = |p| dir.join(format!("two.db.partial/process-{p}/class-005.bin"));
    let t0 = Instant::now();
    while !(sixth(0).exists() && sixth(1).exists()) {
        assert!(t0.elapsed() < Duration::from_secs(120), "no class finished");
        std::thread::sleep(Duration::from_millis(2));
    }
    children[1].kill().unwrap();
    children[1].wait().unwrap();
    end(&mut children[0], Duration::from_secs(5));
    assert!(
        !dir.join("two.db").exists(),
        "the build ended before the kill"
    );
    let reports = two_processes(&dir, &args, "two.db", "1");
    let one = std::fs::read(dir.join("one.db")).unwrap();
    assert_eq!(one, std::fs::read(dir.join("two.db")).unwrap());
    let resumed = reports[0]["cluster"]["resumed_classes"].as_u64().unwrap();
    assert!((6..15).contains(&resumed), "resumed {resumed} classes");
    assert_eq!(reports[1]["cluster"]["resumed_classes"], resumed);
}
