//! One file per command: its argument struct, the call into the libraries, and output.

pub mod analyse;
pub mod checkpointing;
pub mod cluster;
pub mod limit;
pub mod play;
pub mod prove;
pub mod reconstruct;
pub mod reconstruct_forward;
pub mod retro;
pub mod show;
pub mod solve;
pub mod solve_bound;
pub mod stats;
pub mod table;
pub mod verify;
