//! Writing a run's files so that nothing half-written is ever left: each file to a temporary
//! name in its folder first (created exclusively, never through a planted symlink), then all
//! renamed into place.

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
        let (temporary, mut file) = crate::journal::create_temporary(&path)
            .with_context(|| format!("cannot create a temporary file beside {}", path.display()))?;
        staged.push((temporary.clone(), path));
        std::io::Write::write_all(&mut file, bytes)
            .with_context(|| format!("cannot write {}", temporary.display()))?;
    }
    for (temporary, path) in staged.iter() {
        std::fs::rename(temporary, path)
            .with_context(|| format!("cannot move {} into place", path.display()))?;
    }
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_symlink_at_the_temporary_name_is_passed_by_and_left_alone() {
        let dir = std::env::temp_dir().join(format!("duelsim-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
        let victim = dir.join("victim");
        std::fs::write(&victim, b"keep").unwrap_or_else(|e| panic!("{e}"));
        let planted = dir.join(format!(".summary.csv.duelsim-{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap_or_else(|e| panic!("{e}"));
        let written = write(vec![("summary.csv".to_owned(), b"a,b\n".to_vec())], &dir);
        assert!(written.is_ok(), "{written:?}");
        assert_eq!(std::fs::read(&victim).unwrap_or_default(), b"keep");
        let meta = std::fs::symlink_metadata(dir.join("summary.csv"));
        assert!(meta.is_ok_and(|m| m.file_type().is_file()));
        assert_eq!(
            std::fs::read(dir.join("summary.csv")).unwrap_or_default(),
            b"a,b\n"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
