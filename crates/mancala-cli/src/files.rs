//! The files the program writes (databases, checkpoints, charts): saves are written beside
//! their target and renamed over it, so a target that is not a plain file would be
//! replaced, not written into (`retro ... --out /dev/full --force`, run as root, replaced
//! the device with a regular file).

use std::path::Path;

use anyhow::{Result, bail};

/// Whether `path` may be written: a file already there only with `force`, and never
/// anything but a plain file (a device, a folder, a symbolic link or a pipe).
pub fn may_write(path: &Path, force: bool) -> Result<()> {
    match std::fs::symlink_metadata(path) {
        Err(_) => Ok(()),
        Ok(m) if !m.file_type().is_file() => bail!(
            "{}: not a regular file (a device, folder, link or pipe), which a save would \
             replace; write to a file of its own",
            path.display()
        ),
        Ok(_) if !force => bail!("{}: the file exists (--force replaces it)", path.display()),
        Ok(_) => Ok(()),
    }
}
