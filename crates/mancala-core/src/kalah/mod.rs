//! Placeholder: implemented on its own branch.
