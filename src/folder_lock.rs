//! One run per output folder. A command that writes a folder (`run`, `merge`, `exact`) first
//! takes an advisory lock on the file `.lock` in it and holds it to the end; a second command
//! into a busy folder is refused at once (exit 1), naming the folder and the process holding
//! it, instead of clearing the first run's journal under it. The lock is the operating
//! system's (`flock` on Linux), so it ends with the process however that ends: a lock left by
//! a killed run never blocks the next one. The holder removes `.lock` as it lets go.

use crate::scenario::error::InputError;
use anyhow::{Context, Result};
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

/// The lock file's name in an output folder.
pub const FILE: &str = ".lock";

/// The most of a holder's description read back (it is a few lines).
const HOLDER_CAP: u64 = 4096;

/// The lock on one output folder, held until dropped; then `.lock` is removed, and so is a
/// folder the lock created that holds nothing else (a refused merge leaves nothing behind).
#[derive(Debug)]
pub struct FolderLock {
    /// The locked file; `None` on a file system that has no locks.
    file: Option<File>,
    path: PathBuf,
    /// The folder, when taking the lock created it.
    created: Option<PathBuf>,
}

impl FolderLock {
    /// Creates `dir` if needed and takes its lock, writing who holds it; a folder another
    /// process holds is an error naming the folder and that process.
    pub fn take(dir: &Path) -> Result<FolderLock> {
        let created = (!dir.exists()).then(|| dir.to_owned());
        let path = dir.join(FILE);
        // A holder removes `.lock` as it lets go: a file locked after that is no longer the
        // folder's lock, so the lock taken must be on the file the path names now. A holder
        // letting go may also remove the folder it created, between our making it and opening
        // the file: then make it again.
        let mut attempts = 0;
        let mut file = loop {
            attempts += 1;
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            // A `.lock` that is a link (a folder copied from elsewhere) is not followed: taking
            // the lock empties the file, and must not empty the file a link points at.
            if let Ok(meta) = std::fs::symlink_metadata(&path)
                && !meta.is_file()
            {
                return Err(InputError::plain(format!(
                    "{}: is not a regular file; expected duelsim's lock file in an output folder (remove it)",
                    path.display()
                ))
                .into());
            }
            let file = match OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(&path)
            {
                Ok(file) => file,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && attempts < 10 => continue,
                Err(e) => {
                    return Err(e)
                        .with_context(|| format!("cannot open the lock file {}", path.display()));
                }
            };
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    let mut holder = String::new();
                    let _ = (&file).take(HOLDER_CAP).read_to_string(&mut holder);
                    anyhow::bail!(
                        "{} is in use by another duelsim ({}); expected one run per output folder: wait for it to finish, or write elsewhere with -o",
                        dir.display(),
                        describe(&holder)
                    );
                }
                Err(TryLockError::Error(e)) => {
                    // A shared file system without locks (Lustre without its flock option,
                    // some NFS and CIFS mounts): run unguarded rather than not at all.
                    eprintln!(
                        "warning: cannot lock {} ({e}); two runs into this folder are not kept apart",
                        path.display()
                    );
                    return Ok(FolderLock {
                        file: None,
                        path,
                        created,
                    });
                }
            }
            if same_file(&file, &path) {
                break file;
            }
        };
        let since = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        // As the shell shows them; a name that is not UTF-8 is shown with U+FFFD.
        let command: Vec<String> = std::env::args_os()
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let holder = format!(
            "pid {}\nsince {since}\ncommand {}\n",
            std::process::id(),
            command.join(" ")
        );
        file.set_len(0)
            .and_then(|()| file.rewind())
            .and_then(|()| file.write_all(holder.as_bytes()))
            .with_context(|| format!("cannot write {}", path.display()))?;
        Ok(FolderLock {
            file: Some(file),
            path,
            created,
        })
    }
}

/// Whether the open `file` is the file `path` names now (not one removed since it was opened).
fn same_file(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (file, path);
        true
    }
}

impl Drop for FolderLock {
    fn drop(&mut self) {
        let Some(file) = &self.file else {
            return;
        };
        // Removed while still held (whoever opened it meanwhile finds it gone and starts
        // over), and only if it is still ours (not one made after ours was removed by hand).
        if same_file(file, &self.path) {
            let _ = std::fs::remove_file(&self.path);
        }
        let _ = file.unlock();
        if let Some(dir) = &self.created {
            // Only if empty: a folder with outputs in it stays.
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// The holder as a lock file names it: "pid 1234, `duelsim run ...`, started 12 s ago".
fn describe(holder: &str) -> String {
    let value = |key: &str| {
        holder
            .lines()
            .find_map(|l| l.strip_prefix(key).and_then(|v| v.strip_prefix(' ')))
    };
    let mut parts = Vec::new();
    if let Some(pid) = value("pid") {
        parts.push(format!("pid {pid}"));
    }
    if let Some(command) = value("command") {
        parts.push(format!("`{command}`"));
    }
    if let Some(since) = value("since").and_then(|s| s.parse::<u64>().ok()) {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        parts.push(format!("started {} s ago", now.saturating_sub(since)));
    }
    if parts.is_empty() {
        "a process that has not yet said who it is".to_owned()
    } else {
        parts.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_folder_is_refused_naming_the_holder_and_free_once_dropped() {
        let dir = std::env::temp_dir().join(format!("duelsim-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let held = FolderLock::take(&dir).unwrap_or_else(|e| panic!("{e}"));
        // A second open file description of the same file: as another process would be.
        let refused = FolderLock::take(&dir).expect_err("the folder is busy");
        let message = refused.to_string();
        assert!(message.contains(&dir.display().to_string()), "{message}");
        assert!(
            message.contains(&format!("pid {}", std::process::id())),
            "{message}"
        );
        std::fs::write(dir.join("summary.csv"), "written").unwrap_or_else(|e| panic!("{e}"));
        drop(held);
        assert!(!dir.join(FILE).exists(), "a released lock is removed");
        assert!(dir.join("summary.csv").exists(), "and nothing else");
        let again = FolderLock::take(&dir);
        assert!(again.is_ok(), "free once released");
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
        // A folder the lock created and nothing was written to is gone with the lock.
        drop(FolderLock::take(&dir));
        assert!(!dir.exists());
    }
}
