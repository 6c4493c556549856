//! Writing a run's files so that nothing half-written is ever left: each file to a temporary
//! name in its folder first, then all renamed into place.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// Writes every file to a temporary name in its folder, then renames them all into place.
pub(crate) fn write(files: Vec<(String, Vec<u8>)>, dir: &Path) -> Result<Vec<PathBuf>> {
    let mut staged = Vec::new();
    let result = stage_and_move(&files, dir, &mut staged);
    if result.is_err() {
        // A failure (a full disk) leaves no temporary file behind to fail the next run.
        for (temporary, _) in &staged {
            let _ = std::fs::remove_file(temporary);
        }
    }
    result?;
    Ok(staged.into_iter().map(|(_, p)| p).collect())
}

fn stage_and_move(
    files: &[(String, Vec<u8>)],
    dir: &Path,
    staged: &mut Vec<(PathBuf, PathBuf)>,
) -> Result<()> {
    for (name, bytes) in files {
        let path = dir.join(name);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder)
                .with_context(|| format!("cannot create the output folder {}", folder.display()))?;
        }
        let temporary = crate::journal::temporary_path(&path);
        staged.push((temporary.clone(), path));
        std::fs::write(&temporary, bytes)
            .with_context(|| format!("cannot write {}", temporary.display()))?;
    }
    for (temporary, path) in staged.iter() {
        std::fs::rename(temporary, path)
            .with_context(|| format!("cannot move {} into place", path.display()))?;
    }
    Ok(())
}
