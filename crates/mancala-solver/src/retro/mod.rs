//! Retrograde analysis: whole classes of positions solved at once, the project's second
//! engine beside alpha-beta. [`layer`] solves one class given the classes below it;
//! [`db`] builds, saves, verifies and loads tables of classes; [`oracle`] lets the search
//! use them as exact leaves; [`store`] says where database files live and finds the ones
//! a position can use; [`cluster`] (feature `cluster`) builds a database on several
//! processes.

#[cfg(feature = "cluster")]
pub mod cluster;
pub mod db;
pub mod layer;
pub mod oracle;
pub mod store;

pub use db::{Database, DbError};
pub use layer::{LayerStats, Method, solve_class, solve_class_with};
pub use oracle::Oracle;
